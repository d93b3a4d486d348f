/*
 * names.h - the nearest of a set of names, for "did you mean" hints.
 *
 * A name is near another when few edits (insertions, deletions,
 * substitutions: the Levenshtein distance) turn one into the other.  Only
 * names fewer than SB_NAME_NEAR_MAX edits away, and no more than a third
 * of the typed name's letters (rounded up), are offered, so that a hint
 * is a likely typo and not any name at all.
 */
#ifndef SB_BASE_NAMES_H
#define SB_BASE_NAMES_H

#include <stddef.h>

#define SB_NAME_NEAR_MAX 4

/* Keep 'candidate' in *nearest (and its distance in *best) when it is
   nearer to 'name' than *best.  Start with *best = SB_NAME_NEAR_MAX and
   *nearest = NULL; names longer than 63 characters are never near. */
void sb_name_nearer(const char *name, const char *candidate, size_t *best,
                    const char **nearest);

/* " (did you mean 'x'?)" in 'buf' when 'nearest' is set, else "". */
void sb_name_hint(char *buf, size_t len, const char *nearest);

#endif /* SB_BASE_NAMES_H */
