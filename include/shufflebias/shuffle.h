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

#define SB_PARAMS_MAX 8

/* Everything an algorithm is run with, fixed for a whole run. */
typedef struct sb_shuffle_args {
    size_t n;                     /* deck size */
    long param[SB_PARAMS_MAX];    /* values, in the order of type->params */
} sb_shuffle_args;

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

    /* Exact mode.  'exact_paths' (optional) returns the number of paths of
       the draw tree at these args, or 0 when it is not known in advance
       (saturating at UINT64_MAX), so an enumeration over budget is refused
       before it starts.  'exact_refusal' (optional) is why this algorithm
       cannot be enumerated at all (e.g. its result depends on the C
       library); 'exact_hint' is a parameter assignment that makes it
       enumerable when its defaults are not (e.g. "key-bits=2"). */
    uint64_t (*exact_paths)(const sb_shuffle_args *a);
    const char *exact_refusal;
    const char *exact_hint;

    /* Values written per sample; NULL means n. */
    size_t (*sample_len)(const sb_shuffle_args *a);
    /* Optional: state kept between samples.  init allocates it (SB_OK or
       SB_ENOMEM), reset returns it to its starting point (called at the
       start of every chunk and every enumerated path), free releases it. */
    int (*init)(void **state, const sb_shuffle_args *a);
    void (*reset)(void *state, const sb_shuffle_args *a);
    void (*free)(void *state);
    /* Write one sample into 'out' (sample_len values), drawing only from
       'src'.  'state' is NULL when init is NULL.  Returns SB_OK.  It must
       not allocate: exact mode may abandon a run in the middle of a draw
       (a path cut at the depth limit), so scratch space belongs in the
       state made by init. */
    int (*run)(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out);
} sb_shuffle_type;

#endif /* SB_SHUFFLE_H */
