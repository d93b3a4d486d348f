/*
 * exact.h - the exact distribution of an algorithm's outcomes, as the
 * renderers read it.
 *
 * Exact mode walks every path of draws an algorithm can make at a small n,
 * each with its exact probability (the product of its branch
 * probabilities).  Probabilities are exact rationals; they reach the
 * renderers as reduced fractions written "p/q", next to their decimal
 * values, so that nothing downstream needs a big-number library.
 */
#ifndef SB_EXACT_H
#define SB_EXACT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "shuffle.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sb_exact_outcome {
    sb_card *sample;       /* the outcome, 'len' values (owned) */
    char *fraction;        /* exact probability, reduced "p/q" (owned) */
    double probability;    /* the same, as a double */
    double ratio;          /* probability / uniform probability */
    uint64_t paths;        /* paths ending here */
} sb_exact_outcome;

/* Outcomes that share one probability. */
typedef struct sb_exact_level {
    char *fraction;        /* "p/q" (owned) */
    double probability;
    double ratio;          /* to uniform */
    uint64_t outcomes;     /* how many outcomes have it */
} sb_exact_level;

/* What the walk proves. */
typedef enum sb_exact_verdict {
    SB_EXACT_UNIFORM = 0,      /* every possible outcome at exactly 1/K,
                                  nothing unexplored */
    SB_EXACT_BIASED = 1,       /* proven: some outcome above 1/K, or the
                                  walk is complete and not uniform */
    SB_EXACT_INCONCLUSIVE = 3  /* no bias in the mass walked, but some mass
                                  was not explored */
} sb_exact_verdict;

typedef struct sb_exact_report {
    const char *algorithm;
    char params[256];          /* "name=value,..." or "" */
    sb_kind kind;
    size_t n;                  /* deck size */
    size_t len;                /* values per outcome */
    unsigned hands;            /* DEAL: number of hands */
    uint64_t paths;            /* complete paths walked */
    uint64_t cut_paths;        /* paths cut at the depth limit */
    int equal_weights;         /* 1: every complete path has the same
                                  probability, so counts are meaningful */
    char *path_weight;         /* that common probability "1/q", or NULL */
    char *possible;            /* outcomes a uniform algorithm reaches
                                  (n!, n!/(n-k)!, or the deals), decimal */
    double possible_d;
    char *uniform;             /* 1 / possible, "1/q" */
    sb_exact_outcome *outcomes;/* reached outcomes, in lexicographic order */
    size_t n_outcomes;
    size_t *by_probability;    /* outcome indices, least likely first */
    sb_exact_level *levels;    /* by increasing probability; "0" first when
                                  some outcome is never reached */
    size_t n_levels;
    char *unreached;           /* possible outcomes never reached, decimal */
    sb_card *never;            /* those outcomes, lexicographic, when there
                                  are few (a permutation of n <= 6) */
    size_t n_never;
    char *tv;                  /* total-variation distance from uniform, "p/q" */
    double tv_d;
    char *unexplored;          /* probability mass of cut paths, "p/q" */
    double unexplored_d;
    double max_ratio, min_ratio; /* over all possible outcomes (min 0 when
                                    one is never reached) */
    sb_exact_verdict verdict;
    size_t rows, cols;         /* the exact matrix: card x position (or
                                  card x hand for a deal) */
    char **matrix;             /* rows * cols fractions "p/q" (owned) */
    int partial;               /* 1: interrupted; the rest is unexplored */
    int summary_only;          /* 1: an interrupted walk's totals only:
                                  no outcomes, levels or matrix */
    uint64_t reached;          /* outcomes reached (n_outcomes, or with
                                  summary_only the walk's count) */
    char *explored;            /* with summary_only: the mass of the
                                  paths walked, "p/q" (owned) */
    double explored_d;
    /* Memory (src/engine/budget.h): the budget, and the estimate of what the
       walk's table needed (with its JSON when one was asked for). */
    uint64_t memory_budget, memory_estimate;
    /* The limits it was walked under: the path budget, and the draws a
       path may take before it is cut (the algorithm's own rule, or the
       default); 0 when not walked by sb_enumerate. */
    uint64_t max_paths;
    size_t max_depth;
    /* The run's stop flag (may be NULL): the JSON renderer stops listing
       outcomes when it is set, so that an interrupt is answered at once
       however long the table ("outcomes_listed": false). */
    const volatile sig_atomic_t *stop;
    double seconds;            /* wall-clock time (timing only) */
} sb_exact_report;

#ifdef __cplusplus
}
#endif

#endif /* SB_EXACT_H */
