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

/* ---- order statistics: descents, rising sequences, inversions,
   successions ------------------------------------------------------------ */

/* Eulerian distribution: p[k] = A(n,k) / n!, the probability that a uniform
   permutation of n elements has exactly k descents (positions j with
   pi(j) > pi(j+1)), k = 0..n-1 ('p' holds n values), n >= 1.  Since
   pi -> pi^-1 is a bijection, it is also the law of the descents of the
   inverse, that is of r - 1 for r rising sequences (Bayer & Diaconis,
   "Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2(2),
   1992).  Computed on probabilities with the stable recurrence
     P_m(k) = ((k+1)/m) P_{m-1}(k) + ((m-k)/m) P_{m-1}(k-1),  P_1(0) = 1,
   which is A(m,k) = (k+1) A(m-1,k) + (m-k) A(m-1,k-1) (Graham, Knuth and
   Patashnik, "Concrete Mathematics", 2nd ed., section 6.2) divided by
   m!.  Values below 1e-300 are set to 0 at both ends, which keeps the
   cost of order n^1.5 (the law's width is about 37 standard deviations,
   sqrt((n+1)/12) each) instead of n^2 / 2 for large n.
   Returns SB_OK, or SB_EINVAL when n is 0 or p is NULL. */
int sb_null_eulerian(size_t n, double *p);

/* The Eulerian numbers A(n,k) as exact integers (OEIS A008292, there
   indexed from 1), k = 0..n-1 ('a' holds n values), 1 <= n <= 20.
   Returns SB_OK, or SB_EINVAL. */
int sb_null_eulerian_count(size_t n, uint64_t *a);

/* The largest number of inversions of a permutation of n: n(n-1)/2 (0 for
   n <= 1). */
size_t sb_null_inversions_max(size_t n);

/* Mahonian distribution: p[k] = I(n,k) / n!, the probability that a
   uniform permutation of n elements has exactly k inversions (pairs
   i < j with pi(i) > pi(j)), k = 0..n(n-1)/2 ('p' holds
   sb_null_inversions_max(n) + 1 values), n >= 1.  The generating
   function is prod_{i=1}^{n} (1 + q + ... + q^(i-1)) (Knuth, TAOCP vol.
   3, 5.1.1; OEIS A008302): each factor divided by i is the uniform
   law on 0..i-1 of the inversions the i-th element makes with those
   before it, so P_i is P_{i-1} convolved with it.  Each convolution is
   done in place through prefix sums, on the lower half only (the law is
   symmetric, I(n,k) = I(n, n(n-1)/2 - k), and on the lower half the two
   prefix sums subtracted are far apart, so nothing cancels), then
   mirrored.  Values below 1e-300 are set to 0.  Cost of order n^3 / 4
   operations (at n = 1024: docs/speed.md).
   Returns SB_OK, or SB_EINVAL when n is 0 or p is NULL. */
int sb_null_inversions(size_t n, double *p);

/* The Mahonian numbers I(n,k) as exact integers (OEIS A008302),
   k = 0..n(n-1)/2 ('c' holds sb_null_inversions_max(n) + 1 values),
   1 <= n <= 20.  Returns SB_OK, or SB_EINVAL. */
int sb_null_inversions_count(size_t n, uint64_t *c);

/* Successions: p[k] = S(n,k) / n!, the probability that a uniform
   permutation of n elements has exactly k successions (positions j with
   pi(j+1) = pi(j) + 1), k = 0..n-1 ('p' holds n values), n >= 1.
     S(n,k) = C(n-1,k) a(n-1-k),  a(m) = m a(m-1) + (m-1) a(m-2),
     a(0) = a(1) = 1
   (OEIS A010027 and A000255; David, Kendall and Barton, "Symmetric
   Function and Allied Tables", 1966, p. 263; derived in nulls.c).  With
   q(m) = a(m) / (m+1)!, the probability that m + 1 elements show no
   succession, P(k) = q(n-1-k) (n-k) / (n k!), and q follows the positive
   recurrence q(m) = (m/(m+1)) q(m-1) + ((m-1)/(m(m+1))) q(m-2).
   Returns SB_OK, or SB_EINVAL when n is 0 or p is NULL. */
int sb_null_successions(size_t n, double *p);

/* S(n,k) as exact integers, k = 0..n-1 ('s' holds n values),
   1 <= n <= 20.  Returns SB_OK, or SB_EINVAL. */
int sb_null_successions_count(size_t n, uint64_t *s);

/* ---- seven-card poker categories --------------------------------------- */

/* The number of the C(52,7) = 133,784,560 seven-card hands whose best
   five-card hand is in each category of stats/poker.h ('counts' holds
   SB_POKER_CATEGORIES = 9 values, high card first), computed without
   visiting the hands (method in nulls.c).  Returns SB_OK, or SB_EINVAL
   when 'counts' is NULL. */
int sb_null_poker7_counts(uint64_t *counts);

#endif /* SB_NULLS_H */
