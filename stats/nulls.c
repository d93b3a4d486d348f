/*
 * nulls.c - exact null distributions of permutation statistics.
 *
 * Each formula sits beside its code with its source; tests/test_nulls.c
 * checks them against published integers (OEIS) and against a brute-force
 * enumeration of all permutations of 7 elements.
 */
#include "stats/nulls.h"

#include <string.h>
#include "shufflebias/status.h"

uint64_t sb_null_factorial(size_t n)
{
    if (n > SB_NULL_FACT_MAX)
        return 0;
    uint64_t f = 1;
    for (size_t i = 2; i <= n; i++)
        f *= i;
    return f;
}

/* P(k) = (1/k!) S(n-k) with S(m) = sum_{j=0}^{m} (-1)^j / j!: the number of
   permutations with exactly k fixed points is C(n,k) D(n-k), D(m) being the
   derangements of m = m! S(m) (Riordan 1958).  S(1) = 0 exactly, so k = n-1
   gets probability 0, as it must.  1/k! underflows gracefully to 0 for
   k > 170, where the probabilities are far below anything a test sees. */
int sb_null_fixed_points(size_t n, double *p)
{
    if (n == 0 || p == NULL)
        return SB_EINVAL;
    /* First pass: p[m] = S(m), the partial sums of e^-1. */
    double term = 1.0, sum = 0.0;
    for (size_t m = 0; m <= n; m++) {
        if (m > 0)
            term = -term / (double)m;
        sum += term;
        p[m] = sum;                    /* S(1) = 1 - 1 is exactly 0 */
    }
    /* Second pass, in place: P(k) = S(n-k) / k!.  Reverse first so that
       p[k] holds S(n-k), then scale by 1/k!. */
    for (size_t i = 0, j = n; i < j; i++, j--) {
        double t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    double inv_fact = 1.0;
    for (size_t k = 0; k <= n; k++) {
        if (k > 0)
            inv_fact /= (double)k;
        p[k] *= inv_fact;
    }
    return SB_OK;
}

/* D(n,k) = C(n,k) !(n-k), with the derangement numbers
   !0 = 1, !1 = 0, !m = (m-1)(!(m-1) + !(m-2))   (OEIS A000166).
   For n <= 20 every product fits: D(n,k) <= n!. */
int sb_null_fixed_points_count(size_t n, uint64_t *d)
{
    if (n == 0 || n > SB_NULL_FACT_MAX || d == NULL)
        return SB_EINVAL;
    uint64_t der[SB_NULL_FACT_MAX + 1];
    der[0] = 1;
    der[1] = 0;
    for (size_t m = 2; m <= n; m++)
        der[m] = (m - 1) * (der[m - 1] + der[m - 2]);
    uint64_t binom = 1;   /* C(n,k), exact: C(n,k) k = C(n,k-1) (n-k+1) */
    for (size_t k = 0; k <= n; k++) {
        if (k > 0)
            binom = binom * (n - k + 1) / k;   /* < 11 C(20,10) */
        d[k] = binom * der[n - k];
    }
    return SB_OK;
}

/* The recurrence on probabilities never subtracts, so it is stable; it is
   run in place from the top index down.  'top' is the highest k whose
   probability is still above the floor: beyond it every value is 0. */
int sb_null_cycles(size_t n, double *p)
{
    if (n == 0 || p == NULL)
        return SB_EINVAL;
    const double floor_p = 1e-300;
    memset(p, 0, (n + 1) * sizeof *p);
    p[1] = 1.0;                        /* P_1: one cycle, surely */
    size_t top = 1;
    for (size_t m = 2; m <= n; m++) {
        const double stay = (double)(m - 1) / (double)m;
        const double join = 1.0 / (double)m;
        size_t hi = top + 1;           /* P_m(k) can be > 0 up to top + 1 */
        for (size_t k = hi; k >= 1; k--)
            p[k] = stay * p[k] + join * p[k - 1];
        /* p[0] stays 0: a permutation of m >= 1 elements has a cycle. */
        top = hi;
        while (top > 1 && p[top] < floor_p) {
            p[top] = 0.0;
            top--;
        }
    }
    return SB_OK;
}

/* c(n,k) = (n-1) c(n-1,k) + c(n-1,k-1), c(1,1) = 1 (OEIS A132393; Knuth,
   TAOCP vol. 1, 1.2.6).  The row sums to n!, so for n <= 20 no entry
   overflows. */
int sb_null_cycles_count(size_t n, uint64_t *c)
{
    if (n == 0 || n > SB_NULL_FACT_MAX || c == NULL)
        return SB_EINVAL;
    memset(c, 0, (n + 1) * sizeof *c);
    c[1] = 1;
    for (size_t m = 2; m <= n; m++)
        for (size_t k = m; k >= 1; k--)
            c[k] = (m - 1) * c[k] + c[k - 1];
    return SB_OK;
}

/* Lehmer code with a bit set of the cards already placed: the digit of
   position i is the number of unplaced cards below perm[i], that is
   perm[i] minus the placed cards below it.  O(n) with a popcount. */
uint64_t sb_null_perm_rank(const sb_card *perm, size_t n)
{
    static const uint64_t fact[SB_NULL_FACT_MAX + 1] = {
        1ull, 1ull, 2ull, 6ull, 24ull, 120ull, 720ull, 5040ull, 40320ull,
        362880ull, 3628800ull, 39916800ull, 479001600ull, 6227020800ull,
        87178291200ull, 1307674368000ull, 20922789888000ull,
        355687428096000ull, 6402373705728000ull, 121645100408832000ull,
        2432902008176640000ull
    };
    uint32_t placed = 0;
    uint64_t rank = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned c = perm[i];
        const unsigned below = (unsigned)__builtin_popcount(
            placed & ((1u << c) - 1u));
        rank += (uint64_t)(c - below) * fact[n - 1 - i];
        placed |= 1u << c;
    }
    return rank;
}

int sb_null_perm_unrank(uint64_t rank, size_t n, sb_card *perm)
{
    if (n == 0 || n > SB_NULL_FACT_MAX || perm == NULL
        || rank >= sb_null_factorial(n))
        return SB_EINVAL;
    sb_card left[SB_NULL_FACT_MAX];    /* unplaced cards, increasing */
    for (size_t i = 0; i < n; i++)
        left[i] = (sb_card)i;
    for (size_t i = 0; i < n; i++) {
        const uint64_t f = sb_null_factorial(n - 1 - i);
        size_t digit = (size_t)(rank / f);
        rank %= f;
        perm[i] = left[digit];
        memmove(left + digit, left + digit + 1,
                (n - 1 - i - digit) * sizeof *left);
    }
    return SB_OK;
}

/* ---- seven-card poker categories ---------------------------------------

   Counted in two steps, never visiting the 133,784,560 hands one by one.

   a) Ranks.  A hand's rank-count vector (m_0, ..., m_12), each m_r in
      0..4 and summing to 7, is made by prod_r C(4, m_r) hands (the suits
      of the m_r cards of rank r are any m_r of the four).  There are
      49,205 such vectors; each gives its hands the rank-only category of
      stats/poker.h (flushes aside).  This counts every hand once.
   b) Flushes.  Only one suit can hold five or more of seven cards, so a
      flush hand is: a suit (4 ways), its j = 5, 6 or 7 ranks in that suit
      (a j-subset S of the 13 ranks), and 7 - j cards of the 39 in the
      other suits.  Those are enumerated by their ranks: one other card of
      rank r in 3 ways (3 other suits); two of ranks r < r' in 3 x 3 = 9
      ways, or both of rank r in C(3,2) = 3 ways.  Each such hand was put
      in its rank-only category by step a); it moves to its true category
      (sb_poker_flush_category).  1,287 + 1,716 + 1,716 rank subsets
      times at most 91 rank pairs: about 140,000 small steps.

   All counts are exact integers; they sum to C(52,7). */

#include "stats/poker.h"

/* Step a): rank r onwards, 'left' cards still to place, 'ways' the hands
   so far, m1..m4 the rank sets so far. */
static void poker7_ranks(uint64_t *counts, unsigned r, unsigned left,
                         uint64_t ways, unsigned m1, unsigned m2,
                         unsigned m3, unsigned m4)
{
    static const uint64_t choose4[5] = { 1, 4, 6, 4, 1 };   /* C(4, m) */
    if (r == SB_CARD_RANKS) {
        if (left == 0)
            counts[sb_poker_rank_category(m1, m2, m3, m4)] += ways;
        return;
    }
    const unsigned b = 1u << r;
    for (unsigned m = 0; m <= 4 && m <= left; m++) {
        poker7_ranks(counts, r + 1, left - m, ways * choose4[m],
                     m >= 1 ? m1 | b : m1, m >= 2 ? m2 | b : m2,
                     m >= 3 ? m3 | b : m3, m >= 4 ? m4 | b : m4);
    }
}

/* Step b) for one flush: the suited ranks 'suited' plus other-suit cards
   of the ranks in 'extra' (n_extra of them, 0..2), made in 'ways' ways
   for one suit. */
static void poker7_move_flush(uint64_t *counts, unsigned suited,
                              const unsigned *extra, unsigned n_extra,
                              uint64_t ways)
{
    unsigned m1 = suited, m2 = 0, m3 = 0, m4 = 0;
    for (unsigned i = 0; i < n_extra; i++) {
        const unsigned b = 1u << extra[i];
        m4 |= m3 & b;
        m3 |= m2 & b;
        m2 |= m1 & b;
        m1 |= b;
    }
    const unsigned from = sb_poker_rank_category(m1, m2, m3, m4);
    const unsigned to = sb_poker_flush_category(suited, from);
    counts[from] -= 4 * ways;   /* four suits */
    counts[to] += 4 * ways;
}

int sb_null_poker7_counts(uint64_t *counts)
{
    if (counts == NULL)
        return SB_EINVAL;
    memset(counts, 0, SB_POKER_CATEGORIES * sizeof *counts);
    poker7_ranks(counts, 0, 7, 1, 0, 0, 0, 0);
    for (unsigned s = 0; s < (1u << SB_CARD_RANKS); s++) {
        const unsigned j = (unsigned)__builtin_popcount(s);
        if (j < 5 || j > 7)
            continue;
        if (j == 7) {
            poker7_move_flush(counts, s, NULL, 0, 1);
        } else if (j == 6) {
            for (unsigned r = 0; r < SB_CARD_RANKS; r++)
                poker7_move_flush(counts, s, &r, 1, 3);
        } else {
            for (unsigned r = 0; r < SB_CARD_RANKS; r++)
                for (unsigned r2 = r; r2 < SB_CARD_RANKS; r2++) {
                    const unsigned two[2] = { r, r2 };
                    poker7_move_flush(counts, s, two, 2, r == r2 ? 3 : 9);
                }
        }
    }
    return SB_OK;
}

/* ---- order statistics ---------------------------------------------------

   Descents and rising sequences share the Eulerian law; inversions follow
   the Mahonian law; successions their own.  Each has a double version for
   any n and an exact one for n <= 20; tests/test_order_stats.c checks
   them against published rows (OEIS) and a brute-force enumeration of all
   permutations of up to 8 elements. */

/* The recurrence on probabilities never subtracts.  p[k] can be nonzero
   only for lo <= k <= hi; one step can widen that to hi + 1 (P_m(k) needs
   P_{m-1}(k) and P_{m-1}(k-1)), and both ends are then trimmed of values
   below the floor.  Trimmed values stay negligible: for a fixed k below
   the mean, A(m,k)/m! only falls as m grows (the mean (m-1)/2 moves away),
   and the upper tail mirrors the lower, P_m(k) = P_m(m-1-k). */
int sb_null_eulerian(size_t n, double *p)
{
    if (n == 0 || p == NULL)
        return SB_EINVAL;
    const double floor_p = 1e-300;
    memset(p, 0, n * sizeof *p);
    p[0] = 1.0;                        /* P_1: no descent, surely */
    size_t lo = 0, hi = 0;
    for (size_t m = 2; m <= n; m++) {
        const double inv = 1.0 / (double)m;
        /* Top down, so that p[k-1] still holds P_{m-1}(k-1); p[hi+1] and
           p[lo-1] hold 0 (never set, or trimmed). */
        for (size_t k = hi + 1; k > lo; k--)
            p[k] = (double)(k + 1) * inv * p[k]
                   + (double)(m - k) * inv * p[k - 1];
        p[lo] = (double)(lo + 1) * inv * p[lo];
        hi++;
        while (hi > lo && p[hi] < floor_p)
            p[hi--] = 0.0;
        while (lo < hi && p[lo] < floor_p)
            p[lo++] = 0.0;
    }
    return SB_OK;
}

/* A(m,k) = (k+1) A(m-1,k) + (m-k) A(m-1,k-1), A(1,0) = 1; the row sums to
   m!, so for n <= 20 nothing overflows. */
int sb_null_eulerian_count(size_t n, uint64_t *a)
{
    if (n == 0 || n > SB_NULL_FACT_MAX || a == NULL)
        return SB_EINVAL;
    memset(a, 0, n * sizeof *a);
    a[0] = 1;
    for (size_t m = 2; m <= n; m++) {
        for (size_t k = m - 1; k >= 1; k--)
            a[k] = (k + 1) * a[k] + (m - k) * a[k - 1];
        /* a[0] = 1 * a[0]: one permutation without descent */
    }
    return SB_OK;
}

size_t sb_null_inversions_max(size_t n)
{
    return n < 2 ? 0 : n * (n - 1) / 2;
}

/* Step i turns P_{i-1} (support 0..top) into P_i (support 0..top + i - 1)
   by P_i(k) = (1/i) sum_{j=0}^{i-1} P_{i-1}(k-j) = (C(k) - C(k-i)) / i,
   C being the prefix sums of P_{i-1}, computed in place.  Only k up to
   the middle h of the new support is computed: there the window k-i+1..k
   lies no further right of the old centre than its left end lies left of
   it, so C(k) - C(k-i) is at least P_{i-1}(k) and the rounding of the two
   sums (relative to C(k) <= 1/2 + P(h)) stays small next to it.  The
   upper half is the mirror image.  Top down, so that C(k-i) is still a
   prefix sum when p[k] is written. */
int sb_null_inversions(size_t n, double *p)
{
    if (n == 0 || p == NULL)
        return SB_EINVAL;
    const double floor_p = 1e-300;
    const size_t max = sb_null_inversions_max(n);
    memset(p, 0, (max + 1) * sizeof *p);
    p[0] = 1.0;                        /* one element: no inversion */
    size_t top = 0;
    for (size_t i = 2; i <= n; i++) {
        const size_t new_top = top + i - 1, h = new_top / 2;
        for (size_t k = 1; k <= h; k++)
            p[k] += p[k - 1];          /* beyond 'top' p is 0 */
        const double inv = 1.0 / (double)i;
        for (size_t k = h + 1; k-- > 0;) {
            const double v = (p[k] - (k >= i ? p[k - i] : 0.0)) * inv;
            p[k] = v < floor_p ? 0.0 : v;
        }
        for (size_t k = 0; k <= h; k++)
            p[new_top - k] = p[k];     /* writes h..new_top only */
        top = new_top;
    }
    return SB_OK;
}

/* The same convolution in exact integers: every prefix sum is at most
   (i-1)! <= 19!, and integer subtraction is exact, so the whole support is
   computed directly. */
int sb_null_inversions_count(size_t n, uint64_t *c)
{
    if (n == 0 || n > SB_NULL_FACT_MAX || c == NULL)
        return SB_EINVAL;
    const size_t max = sb_null_inversions_max(n);
    memset(c, 0, (max + 1) * sizeof *c);
    c[0] = 1;
    size_t top = 0;
    for (size_t i = 2; i <= n; i++) {
        const size_t new_top = top + i - 1;
        for (size_t k = 1; k <= new_top; k++)
            c[k] += c[k - 1];
        for (size_t k = new_top + 1; k-- > 0;)
            c[k] -= k >= i ? c[k - i] : 0;
        top = new_top;
    }
    return SB_OK;
}

/* The successions law, derived.  For a set J of j of the n - 1 possible
   successions (c, c+1), the permutations showing all of them are those of
   the n - j blocks the pairs glue together: (n-j)! of them.  By
   inclusion-exclusion, exactly k successions:
     S(n,k) = sum_{j>=k} (-1)^(j-k) C(j,k) C(n-1,j) (n-j)!
            = C(n-1,k) sum_{i=0}^{n-1-k} (-1)^i C(n-1-k,i) (n-k-i)!
            = C(n-1,k) a(n-1-k),
   using C(j,k) C(n-1,j) = C(n-1,k) C(n-1-k,j-k) and i = j - k; a(m) is
   the k = 0 case for m + 1 elements, the permutations of m + 1 without a
   succession, a(m) = m a(m-1) + (m-1) a(m-2) (OEIS A000255: "a(n) counts
   permutations of [1,...,n+1] having no substring [k,k+1]").
   Dividing by n!: C(n-1,k) (n-k)! / n! = (n-k) / (n k!), so
     P(k) = q(n-1-k) (n-k) / (n k!),  q(m) = a(m) / (m+1)!,
   and dividing the recurrence of a by (m+1)! gives the one for q, whose
   terms are all positive.  q(m) tends to 1/e, and P to Poisson(1), as
   the rencontres law does. */
int sb_null_successions(size_t n, double *p)
{
    if (n == 0 || p == NULL)
        return SB_EINVAL;
    /* p[m] = q(m) for m = 0..n-1. */
    p[0] = 1.0;
    if (n > 1)
        p[1] = 0.5;
    for (size_t m = 2; m < n; m++) {
        const double dm = (double)m;
        p[m] = dm / (dm + 1.0) * p[m - 1]
               + (dm - 1.0) / (dm * (dm + 1.0)) * p[m - 2];
    }
    /* Reverse, so that p[k] = q(n-1-k), then scale. */
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
        double t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    double inv_fact = 1.0;             /* 1/k!, 0 beyond k = 170 */
    for (size_t k = 0; k < n; k++) {
        if (k > 0)
            inv_fact /= (double)k;
        p[k] *= (double)(n - k) / (double)n * inv_fact;
    }
    return SB_OK;
}

/* S(n,k) = C(n-1,k) a(n-1-k); a(m) <= (m+1)! and S(n,k) <= n!, so for
   n <= 20 nothing overflows. */
int sb_null_successions_count(size_t n, uint64_t *s)
{
    if (n == 0 || n > SB_NULL_FACT_MAX || s == NULL)
        return SB_EINVAL;
    uint64_t a[SB_NULL_FACT_MAX];
    a[0] = 1;
    if (n > 1)
        a[1] = 1;
    for (size_t m = 2; m < n; m++)
        a[m] = m * a[m - 1] + (m - 1) * a[m - 2];
    uint64_t binom = 1;                /* C(n-1,k) */
    for (size_t k = 0; k < n; k++) {
        if (k > 0)
            binom = binom * (n - k) / k;
        s[k] = binom * a[n - 1 - k];
    }
    return SB_OK;
}
