/*
 * stat.h - the statistic type and its result.
 *
 * A statistic accumulates samples (add), can be merged with another
 * accumulator of the same shape using integer arithmetic only (so that the
 * order of merging never changes a count), and turns its counts into a
 * result (finalize): the statistic, its degrees of freedom, a p-value from
 * GSL against an exact null computed by the code, and an effect size.
 * A statistic never prints; renderers only read its result.
 */
#ifndef SB_STAT_H
#define SB_STAT_H

#include <stddef.h>
#include <stdint.h>
#include "rng.h"
#include "shuffle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shape of the samples a statistic will see. */
typedef struct sb_shape {
    sb_kind kind;
    size_t n;          /* deck size */
    size_t len;        /* values per sample: n, or k for a DRAW */
    unsigned hands;    /* number of hands for a DEAL, else 0 */
} sb_shape;

typedef enum sb_verdict {
    SB_VERDICT_PASS = 0,
    SB_VERDICT_SUSPECT = 1,
    SB_VERDICT_FAIL = 2,
    SB_VERDICT_NA = 3     /* not computed: too few samples, nothing to test */
} sb_verdict;

/* Categories or cells as a renderer draws them: observed against expected
   counts, 'rows' x 'cols' in row-major order.  For a one-dimensional table
   rows is 1, and category c covers the values lo[c]..hi[c] (after pooling). */
typedef struct sb_table {
    size_t rows, cols;
    double *observed;
    double *expected;
    long *lo, *hi;        /* NULL for a matrix */
} sb_table;

typedef struct sb_result {
    const char *name;        /* the statistic's name */
    int applicable;          /* 0: not computed, the reason is in 'note' */
    double statistic;        /* the value compared with the null */
    double df;               /* degrees of freedom (after any pooling) */
    double p_value;          /* raw upper-tail p-value */
    int p_underflow;         /* 1: p below the double range, p_value is 0 */
    int discrete;            /* 1: the statistic takes discrete values;
                                p_value is then P(T >= t), valid and
                                conservative, and p_lower and p_upper hold
                                P(T > t) and P(T >= t), so that a
                                calibration check can draw a randomized
                                p-value between them, uniform under the
                                null */
    double p_lower, p_upper;
    unsigned subtests;       /* > 1: p_value combines this many sub-tests by
                                Bonferroni, min(1, subtests * smallest
                                p): valid under any dependence, but
                                conservative and not uniform under the null
                                (a mass at 1), so a calibration check can
                                only bound its tails */
    double p_adjusted;       /* after the battery's Holm correction */
    sb_verdict verdict;      /* set by the battery from p_adjusted */
    char null_desc[160];     /* the null used, e.g. "chi-square(2601)" */
    char note[512];          /* pooling, approximations, why not applicable */
    double effect;           /* estimated chi-square distance per sample,
                                max(0, (X2 - df) / N) */
    char effect_desc[200];   /* the largest deviation, in words */
    double detectable;       /* smallest noncentrality per sample seen with
                                power 0.9 at the fail threshold, or 0 */
    char detectable_desc[200]; /* the detectable effect in words for one
                                simple pattern: "one hand pattern 10%
                                more or less often than its rate" */
    sb_table table;          /* details for renderers (owned) */
    /* Added in 0.1: at the end, so that the fields above keep their
       places. */
    double detectable_share; /* the null share p of the one cell those
                                words are about ("one card in one
                                position": 1/n), so that a relative
                                deviation delta reads as the distance
                                delta^2 p / (1 - p); 0 when the words are
                                not of that form */
    /* Names for renderers (owned: sb_result_clear frees them).  labels:
       one per column of 'table' (a pooled law's groups: "4-5 fixed
       points", "flush"), NULL when the columns have no names of their
       own; row_names: one per row ("hand 2"), NULL likewise.  row_label
       and col_label: what the rows and the columns are ("card",
       "position"; "order" for the orders of 'permutation', column r the
       r-th deck in lexicographic order), static strings, NULL when not
       known. */
    char **labels;
    char **row_names;
    const char *row_label, *col_label;
} sb_result;

typedef struct sb_stat_type {
    const char *name;        /* kebab-case, unique */
    const char *sees;        /* one sentence: what it sees */
    unsigned kinds;          /* bitwise or of the sb_kind it applies to */
    unsigned default_kinds;  /* the kinds whose default battery includes it
                                (a subset of 'kinds'; 0: only on request
                                with --tests) */
    size_t n_min, n_max;     /* deck sizes it applies to */
    /* Allocate a zeroed accumulator for samples of this shape. */
    int (*alloc)(void **acc, const sb_shape *shape);
    /* Count 'count' samples stored one after another, shape->len values
       each. */
    void (*add)(void *acc, const sb_card *samples, size_t count);
    /* Add the counts of 'from' into 'into' (same shape). */
    int (*merge)(void *into, const void *from);
    /* Fill 'res' from the counts of 'samples' samples; 'fail_alpha' is the
       threshold used for the detectable effect.  Allocates res->table. */
    int (*finalize)(const void *acc, uint64_t samples, double fail_alpha,
                    sb_result *res);
    void (*free)(void *acc);
    /* State files (src/engine/state.h), so that a run can be saved, resumed and
       merged with runs made elsewhere.  'save' copies every count of
       'acc' out as 64-bit words, into a buffer it allocates (*words,
       released with free) - scratch space is not saved.  'load' puts
       such words into an accumulator 'alloc' has just made for the same
       shape; the words come from a file, so it trusts none of them and
       returns SB_EINVAL when they cannot be this accumulator's (a wrong
       count, a value out of range), SB_ENOMEM, or SB_OK. */
    int (*save)(const void *acc, uint64_t **words, size_t *count);
    int (*load)(void *acc, const uint64_t *words, size_t count);
    /* Memory, for the run's budget (src/engine/budget.h): the most bytes one
       accumulator for 'shape' can ever hold - what alloc makes and all
       that add may grow it to, whatever the samples - and in *finalize
       (not NULL) the most that finalize allocates besides, its result's
       table and its scratch.  Upper bounds, within a few hundred bytes of
       allocator overhead per allocation; tests/test_budget.c checks them
       against what alloc really takes.  NULL: under 4 KiB for either. */
    size_t (*memory)(const sb_shape *shape, size_t *finalize);
} sb_stat_type;

/* The bytes of a statistic's accumulator for 'shape' and, in *finalize
   (may be NULL), of its finalize (see 'memory'). */
size_t sb_stat_memory(const sb_stat_type *t, const sb_shape *shape,
                      size_t *finalize);

/* "pass", "suspect", "fail" or "n/a". */
static inline const char *sb_verdict_str(sb_verdict v)
{
    switch (v) {
    case SB_VERDICT_PASS: return "pass";
    case SB_VERDICT_SUSPECT: return "suspect";
    case SB_VERDICT_FAIL: return "fail";
    case SB_VERDICT_NA: break;
    }
    return "n/a";
}

/* Release what finalize allocated in 'res' and zero it. */
void sb_result_clear(sb_result *res);

#ifdef __cplusplus
}
#endif

#endif /* SB_STAT_H */
