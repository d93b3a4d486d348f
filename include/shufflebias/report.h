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

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the way a seed becomes decks changes, so that results of
   different versions are never silently compared.  This is the newest; a
   run records its own (sb_run_info.stream_version): the version in which
   the decks of its algorithm on its source last changed, older for what
   did not change (docs/guarantees.md). */
#define SB_STREAM_VERSION 4

/* How many messages about bad samples a report keeps, and how long. */
#define SB_INPUT_LISTED 20u
#define SB_INPUT_MSG 256u

/* Where the samples of a run made outside came from, and what went wrong
   with them (filled by whoever read them). */
typedef struct sb_input_info {
    const char *source;        /* "exec" or "input" */
    const char *what;          /* the command, or the file ("-": stdin) */
    const char *format;        /* "text", "cards", "u8", "u16" */
    int one_based;
    uint64_t invalid;          /* bad samples skipped (--skip-invalid) */
    size_t n_listed;           /* messages kept, at most SB_INPUT_LISTED */
    char listed[SB_INPUT_LISTED][SB_INPUT_MSG];   /* the first ones */
    char error[2 * SB_INPUT_MSG];   /* what ended the input early, "" */
    char program[SB_INPUT_MSG];     /* how the program ended (exec), "" */
} sb_input_info;

typedef struct sb_run_info {
    const char *algorithm;     /* registry name; for samples made
                                  outside, the command or the file */
    const char *plugin;        /* the plug-in 'algorithm' comes from, NULL
                                  for a built-in */
    const sb_input_info *input;   /* samples made outside: where from, NULL
                                     for an algorithm */
    char params[256];          /* "name=value,..." in registry order, "" if none */
    sb_kind kind;
    const char *literature;    /* "uniform" or "biased" per the literature,
                                  NULL when unknown (an outside shuffle) */
    size_t n;                  /* deck size */
    uint64_t samples;          /* samples asked for */
    uint64_t done;             /* samples counted (less when partial) */
    uint64_t seed;             /* the seed given: stage 0 of an escalated
                                  run; stages[] hold every stage's own.
                                  For a program, the seed it was handed;
                                  for recorded samples, meaningless */
    const char *rng;           /* randomness source name, NULL for
                                  samples made outside */
    uint64_t rng_seed;         /* the seed the generator itself was given */
    unsigned rng_seed_bits;    /* how many bits of seed it keeps (64 for the
                                  fast generator, 32 for GSL's and weak ones) */
    int stream_version;
    int partial;               /* 1 when the run was interrupted, or its
                                  input went wrong */
    int feed_status;           /* SB_OK, or the status of an input that
                                  went wrong (then partial is set) */
    const char *error;         /* what made the run fail other than its
                                  input (a plug-in's error, a state that
                                  could not be saved), NULL: nothing */
    /* A sample of the algorithm that was not of its kind, or that wrote
       past its buffer (a plug-in's): its number, what is wrong and its
       values; it ended the run (partial is set).  "" otherwise.  It is
       the first bad sample in the run's order, and the counts are those
       of the samples before it, whatever the threads. */
    char bad_sample[2 * SB_INPUT_MSG];
    uint64_t bad_at;           /* its number (from 1), 0: none */
    const char *tally_name;    /* what the algorithm measured per sample
                                  ("passes"), NULL for nothing */
    sb_tally tally;            /* its tally over the samples done */
    uint64_t samples_total;    /* samples over every stage (set by
                                  sb_escalate; 0 after a bare sb_run) */
    double suspect_alpha;      /* verdict thresholds on Holm-adjusted p */
    double fail_alpha;
    /* A part of a run split between machines (--part): chunks
       [part_first, part_end) of a run of 'run_samples' samples, whose
       share is 'samples'.  All 0 for a whole run. */
    uint64_t part_first, part_end, run_samples;
    /* A report merged from state files: how many, and the distinct seeds
       their samples came from (when more than one, 'seed' means
       nothing). */
    size_t merged_files;
    const uint64_t *merged_seeds;
    size_t n_merged_seeds;
    /* Memory (src/engine/budget.h): the run's budget and the estimate of what
       it needed on 'threads' threads, in bytes; 'threads_wanted' the
       threads asked for when the budget allowed fewer, else 0. */
    uint64_t memory_budget, memory_estimate;
    unsigned threads_wanted;
    /* Timing: nothing else depends on these. */
    unsigned threads;          /* threads that made samples (in each
                                  process of a run split between ranks) */
    unsigned ranks;            /* processes that shared the run (MPI
                                  ranks), 1 for one */
    double reduce_seconds;     /* ranks > 1: the counts' merge at the end,
                                  as rank 0 timed it */
    uint64_t reduce_bytes;     /* and the bytes of counts it received */
    uint64_t resumed;          /* of 'done', samples counted before this
                                  session (a resumed run): not timed */
    double seconds;            /* wall-clock time */
} sb_run_info;

/* The first run and up to eight escalations (src/engine/escalate.h). */
#define SB_STAGES_MAX 9u

/* One stage of an escalated run. */
typedef struct sb_stage {
    uint64_t seed;             /* the stage's own seed */
    uint64_t samples;          /* samples asked for */
    uint64_t done;             /* samples counted */
    sb_verdict verdict;        /* the stage's battery verdict */
    double min_p_adjusted;     /* its smallest Holm-adjusted p-value */
    const char *worst;         /* whose it is, NULL when none applied */
} sb_stage;

/* What a diagnosis found (src/engine/diagnose.h). */
typedef enum sb_diagnosis_state {
    SB_DIAGNOSIS_NONE = 0,     /* none made: not a fail, or not asked for */
    SB_DIAGNOSIS_MATCH = 1,    /* the bias resembles a catalogued flaw */
    SB_DIAGNOSIS_NO_MATCH = 2  /* no catalogued flaw comes close */
} sb_diagnosis_state;

#define SB_DIAGNOSIS_TEXT 320u

/* What a failing run's bias looks like and which of the catalogue's known
   flaws it resembles most, by the shape of its statistics' residuals
   against each flaw's simulated signature; on a pass, what the run could
   have missed.  Filled by sb_diagnose (src/engine/diagnose.h), read by the
   renderers. */
typedef struct sb_diagnosis {
    sb_diagnosis_state state;
    char name[64];             /* the flaw it resembles most: a catalogue
                                  algorithm's name, or "repeated-decks" (a
                                  source with too few states); "" when
                                  there was nothing to compare with */
    char params[128];          /* the setting of that flaw matched best
                                  ("passes=7"), "" */
    double score;              /* in [0, 1]: the estimated cosine between
                                  the bias seen and the flaw's signature
                                  (its square: the share of the bias's
                                  chi-square distance the flaw explains) */
    double threshold;          /* a close match from this score on */
    double scale;              /* the bias seen over the signature's, along
                                  the signature (1: the same size) */
    char runner_up[64];        /* the next flaw, "" for none */
    double runner_up_score;
    char looks[SB_DIAGNOSIS_TEXT];     /* where the bias lies, in words */
    char flaw[SB_DIAGNOSIS_TEXT];      /* what that flaw is */
    char estimate[SB_DIAGNOSIS_TEXT];  /* what the data suggest of its
                                          strength ("about 7 passes"), "" */
    char advice[SB_DIAGNOSIS_TEXT];    /* the fix */
    unsigned signatures;       /* flaw settings simulated and compared */
    uint64_t signature_samples;   /* samples of each */
    double seconds;            /* time the signatures took (0: cached) */
    /* On a pass: one line on what it could have missed and what would
       settle it; "" otherwise. */
    char missed[2 * SB_DIAGNOSIS_TEXT];
} sb_diagnosis;

typedef struct sb_report {
    sb_run_info run;
    sb_result *results;        /* one per statistic, battery order */
    size_t n_results;
    sb_verdict verdict;        /* overall: the last stage's */
    sb_stage stages[SB_STAGES_MAX];  /* every stage run, first to last;
                                        results are the last stage's */
    size_t n_stages;           /* stages run (sb_escalate: >= 1); 0 after a
                                  bare sb_run */
    /* Added in 0.1: at the end, so that the fields above keep their
       places. */
    sb_diagnosis diagnosis;    /* state SB_DIAGNOSIS_NONE unless asked */
} sb_report;

#ifdef __cplusplus
}
#endif

#endif /* SB_REPORT_H */
