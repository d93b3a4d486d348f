/*
 * mixing.h - the report of 'shufflebias mixing': how far a pass-based
 * shuffle is from uniform after each number of passes, exactly where the
 * mathematics allows, and what the battery sees of it at a stated number
 * of decks.  The command (src/cli/mixing.c) fills it; the renderers
 * (reports/mixing.c) write it as text, JSON, Markdown and an HTML page
 * with its curves.  Nothing here computes a statistic.
 */
#ifndef SB_REPORTS_MIXING_H
#define SB_REPORTS_MIXING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "shufflebias/stat.h"
#include "reports/render.h"

/* One statistic of the battery at one pass count. */
typedef struct sb_mixing_stat {
    const char *name;
    double effect;            /* measured chi-square distance per sample,
                                 max(0, (X2 - df) / N) */
    double p;                 /* its Holm-adjusted p-value */
    sb_verdict verdict;
    uint64_t decks;           /* decks it needs to catch this effect with
                                 power 0.9 at the fail threshold (the
                                 plan of stats/plan.h), 0 when it saw no
                                 effect it could plan from */
} sb_mixing_stat;

/* One pass count. */
typedef struct sb_mixing_row {
    unsigned long passes;
    /* Distances from uniform: exact ("p/q", reduced, owned) where known,
       NULL otherwise; the doubles are NAN when not known at all. */
    char *tv_exact, *separation_exact;
    double tv, separation;
    /* New Age Solitaire: the probability that Alice wins, exact (owned
       "p/q") where the law over decks is known, else the share of games
       she won among the measured decks; NAN when not played. */
    char *solitaire_exact;
    double solitaire;
    /* Measured: the battery at 'samples' decks of this many passes. */
    int measured;             /* 0: not measured (rows below are unset) */
    sb_verdict verdict;
    const char *decider;      /* the statistic with the smallest adjusted
                                 p (sb_report_worst), or NULL */
    double p;                 /* its adjusted p */
    uint64_t decks;           /* the fewest decks any statistic needs to
                                 catch this many passes with power 0.9;
                                 0 when none could be planned */
    const char *decks_by;     /* the statistic that needs them */
    sb_mixing_stat *stats;    /* every statistic of the battery (owned) */
    size_t n_stats;
    /* A bridge deal made from the shuffled deck (its cards dealt round
       the table to 4 hands, one at a time, as at a card table), through
       the deal battery at the same number of decks: its verdict, the
       deciding statistic and its adjusted p.  bridge = 0 when not run
       (a deck that 4 hands do not divide). */
    int bridge;
    sb_verdict bridge_verdict;
    const char *bridge_decider;
    double bridge_p;
} sb_mixing_row;

typedef struct sb_mixing_report {
    const char *algorithm;
    char params[256];         /* the other parameters, "k=v,..." */
    size_t n;
    /* Where the exact columns come from: "rising-sequences" (the law of
       Bayer and Diaconis for the GSR riffle and its inverse), "states"
       (the walk over the decks of a shuffle Markov in its deck), or
       NULL (none). */
    const char *exact;
    uint64_t samples;         /* decks measured per pass count, 0: none */
    uint64_t seed;
    unsigned threads;
    int stream_version;
    double fail;              /* the battery's fail threshold */
    const char *command_line; /* as typed, or NULL */
    sb_mixing_row *rows;      /* by increasing passes (owned) */
    size_t n_rows;
    /* The answer: the most passes the battery failed at 'samples' decks
       (0: none), and the fewest passes above it it passed (0:
       none measured). */
    unsigned long caught, missed;
    int partial;              /* interrupted: the rows done */
    double seconds;           /* timing only */
} sb_mixing_report;

void sb_mixing_report_release(sb_mixing_report *rep);

/* The renderers.  'o' may be NULL; o->no_timing leaves out what differs
   between runs (the time).  SB_OK, SB_EIO or SB_ENOMEM. */
int sb_render_mixing_text(FILE *f, const sb_mixing_report *rep,
                          const sb_render_opts *o);
json_t *sb_mixing_json(const sb_mixing_report *rep, const sb_render_opts *o);
int sb_render_mixing_markdown(FILE *f, const sb_mixing_report *rep,
                              const sb_render_opts *o);
int sb_render_mixing_html(FILE *f, const sb_mixing_report *rep,
                          const sb_render_opts *o);

#endif /* SB_REPORTS_MIXING_H */
