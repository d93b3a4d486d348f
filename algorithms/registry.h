/*
 * registry.h - every built-in shuffle, by name.
 *
 * Adding a shuffle: write algorithms/NAME.c exporting one const
 * sb_shuffle_type, declare it below, and add one line to the array in
 * registry.c.
 */
#ifndef SB_ALGORITHMS_REGISTRY_H
#define SB_ALGORITHMS_REGISTRY_H

#include "shufflebias/markov.h"
#include "shufflebias/shuffle.h"
#include "shufflebias/stat.h"
#include "base/shuffle_type.h"

extern const sb_shuffle_type sb_shuffle_fisher_yates;
extern const sb_shuffle_type sb_shuffle_naive_swap;
extern const sb_shuffle_type sb_shuffle_sattolo;
extern const sb_shuffle_type sb_shuffle_sort_random_keys;
extern const sb_shuffle_type sb_shuffle_sort_random_comparator;
extern const sb_shuffle_type sb_shuffle_fisher_yates_mod;
extern const sb_shuffle_type sb_shuffle_fisher_yates_forward;
extern const sb_shuffle_type sb_shuffle_draw_and_fill;
extern const sb_shuffle_type sb_shuffle_strike_out;
extern const sb_shuffle_type sb_shuffle_shift_select;
extern const sb_shuffle_type sb_shuffle_gsl_shuffle;
extern const sb_shuffle_type sb_shuffle_riffle;
extern const sb_shuffle_type sb_shuffle_inverse_riffle;
extern const sb_shuffle_type sb_shuffle_riffle_until_uniform;
extern const sb_shuffle_type sb_shuffle_riffle_until_uniform_forward;
extern const sb_shuffle_type sb_shuffle_human_packet;
extern const sb_shuffle_type sb_shuffle_overhand;
extern const sb_shuffle_type sb_shuffle_partial_deal;
extern const sb_shuffle_type sb_shuffle_deal_fisher_yates;
extern const sb_shuffle_type sb_shuffle_deal_bitmask;
extern const sb_shuffle_type sb_shuffle_deal_random_hand;
extern const sb_shuffle_type sb_shuffle_deal_weighted_hand;

/* NULL-terminated, in the order 'list' shows them. */
extern const sb_shuffle_type *const sb_shuffle_types[];

/* The built-ins that are Markov in their deck (shufflebias/markov.h),
   each declared in its algorithm's file. */
extern const sb_markov sb_markov_naive_swap;
extern const sb_markov sb_markov_riffle;
extern const sb_markov sb_markov_inverse_riffle;
extern const sb_markov sb_markov_human_packet;
extern const sb_markov sb_markov_overhand;

/* NULL-terminated. */
extern const sb_markov *const sb_markov_types[];

/* The built-in declaration of 't' as Markov in its deck, or NULL. */
const sb_markov *sb_markov_builtin(const sb_shuffle_type *t);

/* The algorithm called 'name', or NULL. */
const sb_shuffle_type *sb_shuffle_find(const char *name);

/* The stream version of a run (SB_STREAM_VERSION, shufflebias/report.h)
   of the algorithm called 'algorithm' - a built-in, or one from a plug-in
   when 'plugin' is set - on the source called 'rng' (NULL: the built-in
   generator): the version in which the way the seed of such a run becomes
   samples last changed, so that what did not change keeps its version and
   its state files (docs/guarantees.md).  NULL 'algorithm' (samples read
   from outside) is the oldest version still made. */
int sb_stream_version(const char *algorithm, int plugin, const char *rng);

#endif /* SB_ALGORITHMS_REGISTRY_H */
