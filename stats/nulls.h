/*
 * nulls.h - exact null distributions of permutation statistics, computed
 * from their formulas, and the permutation helpers they share.
 *
 * Every function here is pure: no state, no allocation, no GSL.  The
 * statistics under stats/ call into it, and so can exact mode and later
 * statistics (descents, inversions, ...) that need the same quantities.
 *
 * Probabilities are doubles: the recurrences used are sums of positive or
 * tame alternating terms, accurate to a few ulps.  Where exact integers fit
 * in 64 bits (n <= 20, since 20! < 2^64 < 21!), an integer version is given
 * too, so that tests and exact mode can compare counts, not floats.
 */
#ifndef SB_NULLS_H
#define SB_NULLS_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/rng.h"

/* The largest n whose n! fits in a uint64_t. */
#define SB_NULL_FACT_MAX 20

/* n! for n <= SB_NULL_FACT_MAX, else 0. */
uint64_t sb_null_factorial(size_t n);

/* Rencontres distribution: p[k] = P(a uniform permutation of n elements has
   exactly k fixed points), k = 0..n ('p' holds n + 1 values), n >= 1.
     P(k) = C(n,k) D(n-k) / n! = (1/k!) sum_{j=0}^{n-k} (-1)^j / j!
   (Riordan, "An Introduction to Combinatorial Analysis", 1958, ch. 3).
   Returns SB_OK, or SB_EINVAL when n is 0 or p is NULL. */
int sb_null_fixed_points(size_t n, double *p);

/* The rencontres numbers D(n,k) = C(n,k) !(n-k) as exact integers
   (OEIS A008290), k = 0..n ('d' holds n + 1 values), 1 <= n <= 20.
   Returns SB_OK, or SB_EINVAL. */
int sb_null_fixed_points_count(size_t n, uint64_t *d);

/* Cycle-count distribution: p[k] = c(n,k) / n!, the probability that a
   uniform permutation of n elements has exactly k cycles, k = 0..n ('p'
   holds n + 1 values), n >= 1; c(n,k) are the unsigned Stirling numbers of
   the first kind.  Computed on probabilities with the stable recurrence
     P_n(k) = ((n-1)/n) P_{n-1}(k) + (1/n) P_{n-1}(k-1),  P_1(1) = 1,
   which is c(n,k) = (n-1) c(n-1,k) + c(n-1,k-1) divided by n!.  Values
   below 1e-300 are set to 0 (they cannot change any p-value), which keeps
   the cost near 200 n instead of n^2 / 2 for large n.
   Returns SB_OK, or SB_EINVAL when n is 0 or p is NULL. */
int sb_null_cycles(size_t n, double *p);

/* The unsigned Stirling numbers of the first kind c(n,k) as exact integers
   (OEIS A132393), k = 0..n ('c' holds n + 1 values), 1 <= n <= 20.
   Returns SB_OK, or SB_EINVAL. */
int sb_null_cycles_count(size_t n, uint64_t *c);

/* The lexicographic rank (0 .. n!-1) of the permutation 'perm' of 0..n-1,
   from its Lehmer code: sum_i #{j > i : perm[j] < perm[i]} (n-1-i)!.
   Preconditions: 1 <= n <= SB_NULL_FACT_MAX, 'perm' a permutation of
   0..n-1 (not checked: this is on the hot path). */
uint64_t sb_null_perm_rank(const sb_card *perm, size_t n);

/* The permutation of 0..n-1 whose lexicographic rank is 'rank' (the
   inverse of sb_null_perm_rank).  Returns SB_OK, or SB_EINVAL when n is 0
   or above SB_NULL_FACT_MAX or rank >= n!. */
int sb_null_perm_unrank(uint64_t rank, size_t n, sb_card *perm);

/* ---- seven-card poker categories --------------------------------------- */

/* The number of the C(52,7) = 133,784,560 seven-card hands whose best
   five-card hand is in each category of stats/poker.h ('counts' holds
   SB_POKER_CATEGORIES = 9 values, high card first), computed without
   visiting the hands (method in nulls.c).  Returns SB_OK, or SB_EINVAL
   when 'counts' is NULL. */
int sb_null_poker7_counts(uint64_t *counts);

#endif /* SB_NULLS_H */
