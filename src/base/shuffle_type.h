/*
 * shuffle_type.h - the questions any sb_shuffle_type answers, whoever
 * wrote it (algorithms/registry.h lists the built-in ones).
 */
#ifndef SB_BASE_SHUFFLE_TYPE_H
#define SB_BASE_SHUFFLE_TYPE_H

#include <stddef.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/stat.h"

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

#endif /* SB_BASE_SHUFFLE_TYPE_H */
