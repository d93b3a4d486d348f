/*
 * registry.h - every built-in shuffle, by name.
 *
 * Adding a shuffle: write algorithms/NAME.c exporting one const
 * sb_shuffle_type, declare it below, and add one line to the array in
 * registry.c.
 */
#ifndef SB_ALGORITHMS_REGISTRY_H
#define SB_ALGORITHMS_REGISTRY_H

#include "shufflebias/shuffle.h"
#include "shufflebias/stat.h"

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
extern const sb_shuffle_type sb_shuffle_partial_deal;
extern const sb_shuffle_type sb_shuffle_deal_fisher_yates;
extern const sb_shuffle_type sb_shuffle_deal_bitmask;
extern const sb_shuffle_type sb_shuffle_deal_random_hand;
extern const sb_shuffle_type sb_shuffle_deal_weighted_hand;

/* NULL-terminated, in the order 'list' shows them. */
extern const sb_shuffle_type *const sb_shuffle_types[];

/* The algorithm called 'name', or NULL. */
const sb_shuffle_type *sb_shuffle_find(const char *name);

/* Values 't' writes per sample at 'a': its sample_len, or n. */
size_t sb_shuffle_sample_len(const sb_shuffle_type *t,
                             const sb_shuffle_args *a);

/* The shape of the samples 't' writes at 'a' (kind, n, values per
   sample, hands of a deal). */
void sb_shuffle_shape(const sb_shuffle_type *t, const sb_shuffle_args *a,
                      sb_shape *out);

/* Whether 't' can run at 'a': n within its limits and the combination of
   n and parameters accepted by its check.  SB_OK, or SB_EINVAL with a
   one-line reason naming the algorithm in 'why'. */
int sb_shuffle_check(const sb_shuffle_type *t, const sb_shuffle_args *a,
                     char *why, size_t len);

/* Why exact mode cannot walk 't' at 'a': its exact_refusal, else what its
   exact_refusal_for says of these parameters; NULL when it can. */
const char *sb_shuffle_exact_refusal(const sb_shuffle_type *t,
                                     const sb_shuffle_args *a);

/* The defaults of 't' at a->n, moved by its fit when they do not suit n
   (what 'exact --all' and 'audit' run).  SB_OK, or SB_EINVAL with the
   reason when nothing suits n. */
int sb_shuffle_fitted(const sb_shuffle_type *t, sb_shuffle_args *a,
                      char *why, size_t len);

/* Set a->param[] to the defaults of 't'. */
void sb_shuffle_defaults(const sb_shuffle_type *t, sb_shuffle_args *a);

/* Parse "name=value" for a parameter of 't' into 'a'.  SB_OK;
   SB_ENOTFOUND (no such parameter); SB_EINVAL (not a number or not one of
   the choices); SB_ERANGE (outside min..max). */
int sb_shuffle_set_param(const sb_shuffle_type *t, sb_shuffle_args *a,
                         const char *assignment);

/* Write "name=value,..." for every parameter (choices by name) into buf. */
void sb_shuffle_format_params(const sb_shuffle_type *t,
                              const sb_shuffle_args *a, char *buf, size_t len);

#endif /* SB_ALGORITHMS_REGISTRY_H */
