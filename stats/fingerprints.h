/*
 * fingerprints.h - a multiset of 128-bit fingerprints of samples, kept
 * within a fixed size by a subsample that depends on the fingerprints
 * alone.
 *
 * What 'collisions' needs to count repeated samples among billions
 * without keeping them all.  Each sample (a fixed number 'len' of
 * sb_card values) is hashed to 128 bits; equal samples share a
 * fingerprint, and distinct ones share one with probability 2^-128.  Only
 * the fingerprints whose top j bits are 0 are kept, a fraction f = 2^-j,
 * each with how many samples had it; j rises by one whenever more than
 * SB_FINGERPRINTS_CAP distinct fingerprints are kept.  What a set holds
 * then depends on the multiset of samples fed to it only, never on their
 * order nor on how they were split between sets and merged
 * (fingerprints.c says why).
 *
 * Contract.  One set per thread: nothing is shared, nothing global.
 * 'add' may allocate (the table doubles as it fills); when that fails the
 * set halves f instead and marks itself starved, so that a run goes on
 * but its owner can refuse to answer from counts that depended on when
 * memory ran short.  Counts per fingerprint saturate at 2^32.
 */
#ifndef SB_STATS_FINGERPRINTS_H
#define SB_STATS_FINGERPRINTS_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/rng.h"

/* The most distinct fingerprints kept: 2^21, in a table of at most 2^22
   slots. */
#define SB_FINGERPRINTS_CAP ((size_t)1 << 21)
/* The seed of the hash keys, fixed so that fingerprints of any run can
   be merged; a saved set's owner puts it in its key. */
#define SB_FINGERPRINTS_SEED 0x636f6c6c6973696full

typedef struct sb_fingerprints sb_fingerprints;

/* A set for samples of 'len' values (len >= 1), nothing kept, f = 1.
   NULL when memory is short. */
sb_fingerprints *sb_fingerprints_alloc(size_t len);
void sb_fingerprints_free(sb_fingerprints *f);

/* Fingerprint 'count' samples of len values each, 'samples' one after
   the other, and count those kept. */
void sb_fingerprints_add(sb_fingerprints *f, const sb_card *samples,
                         size_t count);

/* Add the fingerprints and counts of 'from' into 'into': the union at the
   larger j, counts added, j then raised while over the cap.  SB_EINVAL
   when they were made for samples of different lengths. */
int sb_fingerprints_merge(sb_fingerprints *into,
                          const sb_fingerprints *from);

/* What the set holds: the samples kept that repeat an earlier one (the
   sum over kept fingerprints of count - 1), the distinct fingerprints
   kept, j (f = 2^-j), and whether growing ever failed. */
uint64_t sb_fingerprints_repeats(const sb_fingerprints *f);
size_t sb_fingerprints_distinct(const sb_fingerprints *f);
unsigned sb_fingerprints_level(const sb_fingerprints *f);
int sb_fingerprints_starved(const sb_fingerprints *f);

/* State files.  The words: j, the starved flag, the number E of kept
   fingerprints, then E triples (hi, lo, count) sorted by fingerprint, so
   that they depend on what was kept and not on where the table put it.
   'save' writes sb_fingerprints_words(f) words into 'w'.  'load' replaces
   what 'f' holds by the 'count' words 'w' and trusts none of them:
   SB_EINVAL for a wrong length, more entries than the cap, j above 64, a
   flag not 0 or 1, or an entry no set can hold (the fingerprint 0, one
   not kept at level j, a count of 0 or above 2^32, a fingerprint given
   twice); SB_ENOMEM when the table cannot grow to hold them.  A refused
   load leaves 'f' holding nothing of the words: as it was, or (a
   fingerprint given twice is met only while inserting) empty. */
size_t sb_fingerprints_words(const sb_fingerprints *f);
void sb_fingerprints_save(const sb_fingerprints *f, uint64_t *w);
int sb_fingerprints_load(sb_fingerprints *f, const uint64_t *w,
                         size_t count);

/* The most bytes a set for samples of 'len' values ever holds: its
   largest table while it doubles (stats/memory.h's way of counting). */
size_t sb_fingerprints_memory(size_t len);

#endif /* SB_STATS_FINGERPRINTS_H */
