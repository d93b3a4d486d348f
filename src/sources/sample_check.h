/*
 * sample_check.h - is a sample what its kind says it is?
 *
 * The statistics index tables with the values of a sample and count on
 * its kind (shuffle.h): a permutation of 0..n-1, a draw of k distinct
 * cards below n, a deal whose every hand is below H and holds n / H
 * cards.  A built-in algorithm writes such samples by construction; code
 * from outside (a plug-in) may not, and a bad value would send a
 * statistic out of its tables.  These checks stand between the two: the
 * runner and exact mode call them on every sample of a plug-in before any
 * statistic sees it.
 *
 * Guard words: a plug-in's output buffer is followed by SB_SAMPLE_GUARD
 * words of a known pattern, so that a plug-in writing past the end of its
 * sample is caught (after the fact: it cannot be stopped in-process).
 *
 * Nothing here allocates or prints; every function may be called from
 * several threads at once.
 */
#ifndef SB_SOURCES_SAMPLE_CHECK_H
#define SB_SOURCES_SAMPLE_CHECK_H

#include <stddef.h>

#include "shufflebias/rng.h"
#include "shufflebias/stat.h"

/* Whether 'shape' is one a sample can have: a known kind, 1 <= n <=
   SB_DECK_MAX, len = n for a permutation or a deal and 1 <= len <= n for
   a draw, and for a deal 1 <= hands <= n with hands dividing n (every
   hand holds the same number of cards).  SB_OK, or SB_EINVAL with the
   reason in 'why' (which reads after the shuffle's name: "declares ..."). */
int sb_shape_check(const sb_shape *shape, char *why, size_t len);

/* Whether the shape->len values at 's' are a sample of 'shape', which
   passed sb_shape_check.  SB_OK, or SB_EINVAL with the first fault found,
   in the order of the values, followed by the sample as written (cut with
   "..." when 'why' is too short), in 'why':
       "card 5 appears twice: 3 5 1 5 0"
       "card 65535 is out of range 0..4: 0 1 65535 3 2"
       "hand 9 is out of range 0..3: ..."
       "hand 0 holds 8 cards, 2 expected: 0 0 0 0 0 0 0 0"
   'why' may be NULL when len is 0. */
int sb_sample_check(const sb_shape *shape, const sb_card *s, char *why,
                    size_t len);

/* sb_sample_check on 'count' samples stored one after another: SB_OK, or
   SB_EINVAL with *bad the index of the first bad one and 'why' as
   sb_sample_check words it.  The runner's call, once per block: the
   common case (a permutation or a draw of at most 64 cards) is one loop
   over the block. */
int sb_samples_check(const sb_shape *shape, const sb_card *s, size_t count,
                     size_t *bad, char *why, size_t len);

/* Words of the guard region after a checked sample buffer. */
#define SB_SAMPLE_GUARD 4u

/* Write the guard pattern into the SB_SAMPLE_GUARD words at 'g'. */
void sb_sample_guard_set(sb_card *g);

/* 1 when the SB_SAMPLE_GUARD words at 'g' still hold the pattern. */
int sb_sample_guard_intact(const sb_card *g);

#endif /* SB_SOURCES_SAMPLE_CHECK_H */
