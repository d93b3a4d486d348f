/*
 * histogram.h - a count per value of one whole number read off each deck.
 *
 * Six statistics of a permutation reduce every deck to one number v in
 * 0..k-1 (its rising sequences, descents, successions, fixed points,
 * cycles or inversions) and count the decks that gave each v; they
 * differ only in how v is read off a deck and in the exact null law of v.
 * This module is the rest, written once: the accumulator, its merge, its
 * state-file words (stats/saved.h), its memory estimate, and the test of
 * the counts against the law (stats/gof.h).  Each statistic keeps its
 * 'add', which computes v, and says its law in an sb_hist_law.
 *
 * The functions whose signatures match sb_stat_type's (merge, free, save,
 * load) go into a statistic's type as they are.
 */
#ifndef SB_STATS_HISTOGRAM_H
#define SB_STATS_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/stat.h"

/* sb_hist.impossible when every value may occur. */
#define SB_HIST_NONE SIZE_MAX

typedef struct sb_hist {
    const char *name;      /* the statistic's name: it keys the saved words */
    size_t n;              /* deck size */
    size_t k;              /* values 0..k-1 */
    size_t impossible;     /* a value no permutation has: saved words that
                              count it are refused (SB_HIST_NONE) */
    void *scratch;         /* the statistic's scratch space for 'add', or
                              NULL; never saved nor merged */
    uint64_t counts[];     /* counts[v]: the decks of value v */
} sb_hist;

/* Allocate a zeroed histogram of 'k' values, with 'scratch' bytes of
   scratch space (8-byte aligned), for statistic 'name' (a string that
   outlives it) on permutations of 'shape': SB_EINVAL (and *acc NULL) when
   'shape' is not a whole permutation of 1..n_max cards.  impossible is
   SB_HIST_NONE; the caller may set it.  SB_OK or SB_ENOMEM. */
int sb_hist_alloc(void **acc, const sb_shape *shape, const char *name,
                  size_t n_max, size_t k, size_t scratch);

/* Add the counts of 'from' into 'into'.  SB_EINVAL when they were made
   for different decks or statistics. */
int sb_hist_merge(void *into, const void *from);

void sb_hist_free(void *acc);

/* State files: the key (sb_saved_key of the name and the deck), then
   counts[0..k-1].  A load refuses, and leaves the histogram as it was:
   a wrong length or key, a total beyond 64 bits, a count of the
   impossible value. */
int sb_hist_save(const void *acc, uint64_t **words, size_t *count);
int sb_hist_load(void *acc, const uint64_t *words, size_t count);

/* What sb_hist_alloc of 'k' values and 'scratch' bytes takes, and in
   *finalize what sb_hist_result takes (stats/memory.h). */
size_t sb_hist_memory(size_t k, size_t scratch, size_t *finalize);

/* The exact null law of a histogram's value, and its words. */
typedef struct sb_hist_law {
    /* Fill p[0..k-1] with the null probabilities of the k values of a
       deck of n cards (the nulls of stats/nulls.h). */
    int (*null)(size_t n, double *p);
    long base;             /* the value counts[0] stands for: 1 for
                              rising sequences, else 0 */
    size_t skip;           /* values at the start that no deck has, left
                              out of the test: 1 for cycles (none has 0) */
    const char *one, *many;    /* the unit: "cycle", "cycles" */
    const char *desc;          /* the null in words, for this n */
    const char *too_small;     /* why a deck of 1 card cannot be tested */
} sb_hist_law;

/* Finalize: a deck of fewer than 2 cards makes 'res' not applicable with
   law->too_small; else the counts from index law->skip on are tested
   against the law by sb_gof_law_result.  Returns what it returns, or
   SB_ENOMEM. */
int sb_hist_result(const sb_hist *h, const sb_hist_law *law,
                   uint64_t samples, double fail_alpha, sb_result *res);

#endif /* SB_STATS_HISTOGRAM_H */
