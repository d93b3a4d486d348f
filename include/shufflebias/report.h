/*
 * report.h - one run's results, as the renderers read them.
 *
 * The runner and the battery fill an sb_report; the renderers under
 * reports/ (text, JSON) only read it.  Timing sits apart from everything
 * else so that two runs can be compared without it.
 */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include "stat.h"

/* Bumped whenever the way a seed becomes decks changes, so that results of
   different versions are never silently compared. */
#define SB_STREAM_VERSION 1

typedef struct sb_run_info {
    const char *algorithm;     /* registry name */
    char params[256];          /* "name=value,..." in registry order, "" if none */
    sb_kind kind;
    const char *literature;    /* "uniform" or "biased" per the literature,
                                  NULL when unknown (an outside shuffle) */
    size_t n;                  /* deck size */
    uint64_t samples;          /* samples asked for */
    uint64_t done;             /* samples counted (less when partial) */
    uint64_t seed;
    const char *rng;           /* randomness source name */
    uint64_t rng_seed;         /* the seed the generator itself was given */
    unsigned rng_seed_bits;    /* how many bits of seed it keeps (64 for the
                                  fast generator, 32 for GSL's and weak ones) */
    int stream_version;
    int partial;               /* 1 when the run was interrupted */
    const char *tally_name;    /* what the algorithm measured per sample
                                  ("passes"), NULL for nothing */
    sb_tally tally;            /* its tally over the samples done */
    double suspect_alpha;      /* verdict thresholds on Holm-adjusted p */
    double fail_alpha;
    double seconds;            /* wall-clock time: the only timing field */
} sb_run_info;

typedef struct sb_report {
    sb_run_info run;
    sb_result *results;        /* one per statistic, battery order */
    size_t n_results;
    sb_verdict verdict;        /* overall */
} sb_report;

#endif /* SB_REPORT_H */
