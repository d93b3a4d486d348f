/*
 * shuffle.h - the shuffle plug-in type, modelled on GSL's gsl_rng_type.
 *
 * One const object per algorithm, exported from its own file under
 * algorithms/ with everything else static.  The registry is a compile-time
 * array of pointers to these objects.  An algorithm knows nothing of
 * statistics: it turns draws from a source into one sample at a time.
 *
 * Samples come in three kinds:
 *   SB_KIND_PERMUTATION  out[j] = the card at position j after shuffling
 *                        the identity 0..n-1 (n values);
 *   SB_KIND_DRAW         the first k cards of the deck (k values, k <= n);
 *   SB_KIND_DEAL         out[c] = the hand (0..H-1) that card c went to
 *                        (n values), each hand holding exactly its size.
 */
#ifndef SB_SHUFFLE_H
#define SB_SHUFFLE_H

#include <stddef.h>
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sb_kind {
    SB_KIND_PERMUTATION = 1,
    SB_KIND_DRAW = 2,
    SB_KIND_DEAL = 4
} sb_kind;

/* "permutation", "draw" or "deal". */
static inline const char *sb_kind_str(sb_kind k)
{
    return k == SB_KIND_DEAL ? "deal" : k == SB_KIND_DRAW ? "draw"
                                                         : "permutation";
}

/* What the literature says of an algorithm.  Used by the project's own
   tests and shown to users; never read by a statistic. */
typedef enum sb_literature {
    SB_LIT_UNIFORM = 0,
    SB_LIT_BIASED = 1
} sb_literature;

/* A named integer parameter, given on the command line as --param name=v.
   An enumerated parameter lists its value names in 'choices' (NULL-ended);
   its value is then the index of the chosen name. */
typedef struct sb_param_def {
    const char *name;            /* kebab-case */
    const char *help;            /* one line */
    long def;                    /* default value (an index for choices) */
    long min, max;               /* accepted range, inclusive */
    const char *const *choices;  /* NULL for a plain number */
} sb_param_def;

#define SB_PARAMS_MAX 16

/* Everything an algorithm is run with, fixed for a whole run. */
typedef struct sb_shuffle_args {
    size_t n;                     /* deck size */
    long param[SB_PARAMS_MAX];    /* values, in the order of type->params */
} sb_shuffle_args;

/* An integer an algorithm measures on every sample it makes, such as the
   riffle passes a stopping rule took.  Kept in the algorithm's state from
   init on (reset leaves it alone) and summed with integer arithmetic, so
   tallies of separate runs or threads add up exactly. */
typedef struct sb_tally {
    uint64_t samples;     /* samples measured */
    uint64_t sum;         /* sum of the values */
    uint64_t sum_sq;      /* sum of their squares */
    uint64_t max;         /* largest value */
} sb_tally;

static inline void sb_tally_add(sb_tally *t, uint64_t v)
{
    t->samples++;
    t->sum += v;
    t->sum_sq += v * v;
    if (v > t->max)
        t->max = v;
}

/* Mean and (sample) variance of the values tallied; 0 when too few. */
static inline double sb_tally_mean(const sb_tally *t)
{
    return t->samples ? (double)t->sum / (double)t->samples : 0.0;
}

static inline double sb_tally_var(const sb_tally *t)
{
    if (t->samples < 2)
        return 0.0;
    const double n = (double)t->samples, m = (double)t->sum / n;
    return ((double)t->sum_sq - n * m * m) / (n - 1.0);
}

typedef struct sb_shuffle_type {
    const char *name;        /* kebab-case, unique */
    const char *summary;     /* one line: what it does */
    const char *source;      /* where it comes from */
    const char *bias;        /* one sentence for reports: the flaw and its
                                effect, or why it is fair */
    sb_kind kind;            /* the kind of sample it writes */
    sb_literature literature;
    size_t n_min, n_max;     /* accepted deck sizes, inclusive */
    const sb_param_def *params;
    size_t n_params;         /* at most SB_PARAMS_MAX */
    /* Optional: check a combination of n and parameters that each pass
       alone (a deal whose hands x hand-size is not n, a draw of more than
       n cards).  Returns SB_OK, or SB_EINVAL with a one-line reason in
       'why' that reads after the algorithm's name ("deals 4 hands ..."). */
    int (*check)(const sb_shuffle_args *a, char *why, size_t len);
    /* Optional: change the parameters to the nearest ones that suit a->n
       when the defaults do not (used where nobody chose them, as in
       'exact --all' and 'audit'). */
    void (*fit)(sb_shuffle_args *a);
    /* DEAL only: the number of hands at these args. */
    unsigned (*hands)(const sb_shuffle_args *a);

    /* Exact mode.  'exact_paths' (optional) returns the number of paths of
       the draw tree at these args, or 0 when it is not known in advance
       (saturating at UINT64_MAX), so an enumeration over budget is refused
       before it starts.  'exact_refusal' (optional) is why this algorithm
       cannot be enumerated at all (e.g. its result depends on the C
       library); 'exact_hint' is a parameter assignment that makes it
       enumerable when its defaults are not (e.g. "key-bits=2").  For a
       walk with no end, cut at 'exact_depth' draws, 'exact_paths' may be
       an upper bound on the paths of the tree so cut. */
    uint64_t (*exact_paths)(const sb_shuffle_args *a);
    const char *exact_refusal;
    /* Optional: why exact mode must refuse these particular parameters
       (NULL when it need not), for an algorithm of which only some
       parameter values cannot be enumerated (one sort, of several, handed
       to the C library).  Read with 'exact_refusal' through
       sb_shuffle_exact_refusal (src/base/shuffle_type.h). */
    const char *(*exact_refusal_for)(const sb_shuffle_args *a);
    const char *exact_hint;
    /* Draws per path after which exact mode cuts a path by default, for an
       algorithm whose walk has no end (a stopping rule); 0 for the
       enumerator's own default. */
    size_t exact_depth;

    /* Optional: what 'tally' measures ("passes"), and a copy of the tally
       kept in 'state' since init. */
    const char *tally_name;
    void (*tally)(const void *state, sb_tally *out);

    /* Values written per sample; NULL means n. */
    size_t (*sample_len)(const sb_shuffle_args *a);
    /* Optional: state kept between samples.  init allocates it (SB_OK or
       SB_ENOMEM), reset returns it to its starting point (called at the
       start of every chunk and every enumerated path), free releases it. */
    int (*init)(void **state, const sb_shuffle_args *a);
    void (*reset)(void *state, const sb_shuffle_args *a);
    void (*free)(void *state);
    /* Write one sample into 'out' (sample_len values), drawing only from
       'src'.  'state' is NULL when init is NULL.  Returns SB_OK, or a
       status when the source cannot serve it (the run then stops with an
       error and reports nothing partial as valid).  It must
       not allocate: exact mode may abandon a run in the middle of a draw
       (a path cut at the depth limit), so scratch space belongs in the
       state made by init. */
    int (*run)(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out);
    /* Optional: write 'count' samples one after another into 'out',
       exactly as 'count' calls of run would (the same draws in the same
       order), so that the hot loop makes one call per block of samples
       instead of one per sample.  The runner calls it only when 'src' is
       the fast built-in generator; every other source gets run. */
    int (*run_block)(void *state, const sb_shuffle_args *a, sb_src *src,
                     sb_card *out, size_t count);
} sb_shuffle_type;

#ifdef __cplusplus
}
#endif

#endif /* SB_SHUFFLE_H */
