/*
 * hands.h - one hand of a fair deal: its exact nulls, and tests made hand
 * by hand and combined.
 *
 * In a fair deal of n cards into H hands of s cards, each hand on its own
 * is a uniformly random s-subset of the deck.  So everything a statistic
 * of one hand needs is a distribution over s-subsets, computed here from
 * its formula: the length of one suit (hypergeometric), the suit pattern
 * (the sorted suit lengths), the high-card points.  The card numbering is
 * stats/cards.h: card c is rank c mod 13 of suit c / 13.
 *
 * The H hands of one deal are not independent (a card in one hand is in
 * no other), so they are never pooled as if they were: each hand is
 * tested on its own and the tests are combined by Bonferroni,
 * sb_hands_result below.
 *
 * Everything here is pure: no state but what the caller passes, no
 * printing.  GSL's error handler is assumed off.
 */
#ifndef SB_STATS_HANDS_H
#define SB_STATS_HANDS_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/stat.h"

/* ---- exact nulls of one hand ------------------------------------------ */

/* The length of a suit of m cards in a hand of s cards from n:
   p[k] = C(m,k) C(n-m, s-k) / C(n,s), k = 0..min(m,s) ('p' holds
   min(m,s) + 1 values).  Returns SB_OK, or SB_EINVAL unless
   m <= n, s <= n and p != NULL. */
int sb_hands_null_suit_length(size_t n, size_t m, size_t s, double *p);

/* The largest number of high-card points (stats/cards.h: ace 4, king 3,
   queen 2, jack 1) that s cards of the deck 0..n-1 can hold: the s best
   cards.  s <= n. */
size_t sb_hands_hcp_max(size_t n, size_t s);

/* The high-card points of a hand of s cards from the deck 0..n-1:
   p[v] = P(v points), v = 0..sb_hands_hcp_max(n, s).  The deck holds
   m_w cards worth w points (w = 1..4: the jacks, queens, kings and aces
   of its suits, a last suit cut short by n possibly lacking some) and
   n - sum m_w spot cards; the counts a_w of each class in the hand are
   multivariate hypergeometric,
     P(a_1..a_4) = prod_w C(m_w, a_w) C(n - sum m_w, s - sum a_w) / C(n,s),
   and the points sum_w w a_w.  Computed as a chain of one-class
   hypergeometrics (aces among the deck, then kings among the rest, ...)
   on probabilities, so nothing overflows whatever n.
   Returns SB_OK, SB_EINVAL (s > n, p NULL) or SB_ENOMEM. */
int sb_hands_null_hcp(size_t n, size_t s, double *p);

/* ---- hand patterns ----------------------------------------------------

   A hand's pattern is its S suit lengths sorted from longest to shortest,
   e.g. 4-4-3-2 for S = 4 suits of 13 and a hand of 13.  The patterns of a
   hand of s cards are the partitions of s into at most S parts of at most
   13; they are numbered in lexicographic order of the sorted lengths,
   most balanced first: for a bridge hand 0 is 4-3-3-3, 1 is 4-4-3-2,
   2 is 4-4-4-1, 3 is 5-3-3-2, ... 38 is 13-0-0-0.

   The number of a pattern is found from a table of counts: N(i, m, r),
   the non-increasing sequences of S - i lengths, each at most m, summing
   to r.  The patterns that agree with l_0..l_{i-1} and put a shorter
   length v < l_i at place i number sum_{v < l_i} N(i+1, v, r_i - v) =
   N(i, l_i - 1, r_i), where r_i = s - l_0 - ... - l_{i-1}; so
     rank(l) = sum_i B(i, l_i, r_i),  B(i, l, r) = N(i, l - 1, r) (0 for
   l = 0): one table look-up per suit, no branch. */
typedef struct sb_patterns {
    size_t suits;        /* S >= 1 */
    size_t size;         /* s, the hand size */
    size_t longest;      /* L = min(13, s), the longest possible suit */
    size_t count;        /* the number of patterns */
    uint32_t *before;    /* B(i, l, r) at (i (L+1) + l) (s+1) + r, for
                            i < S, l <= L, r <= s; saturated at UINT32_MAX
                            (a pattern's terms add up to less than
                            'count', so never saturated) */
} sb_patterns;

/* Patterns of hands of 'size' cards over 'suits' suits of 13 cards.
   Returns SB_OK, SB_EINVAL (no suits, or size above 13 suits), SB_ERANGE
   when there are more than 'max_count' patterns (p->count then says how
   many, saturated at SIZE_MAX; no table is kept) or SB_ENOMEM. */
int sb_patterns_init(sb_patterns *p, size_t suits, size_t size,
                     size_t max_count);

void sb_patterns_free(sb_patterns *p);

/* The number of the pattern whose S lengths, longest first, are
   len[0..S-1] (summing to s).  The hot path: not checked. */
static inline size_t sb_patterns_rank(const sb_patterns *p,
                                      const uint8_t *len)
{
    const size_t stride = p->size + 1, block = (p->longest + 1) * stride;
    size_t rank = 0, rem = p->size;
    const uint32_t *b = p->before;
    for (size_t i = 0; i < p->suits; i++, b += block) {
        rank += b[(size_t)len[i] * stride + rem];
        rem -= len[i];
    }
    return rank;
}

/* The lengths of pattern 'rank', longest first, into len[0..S-1].
   Returns SB_OK, or SB_EINVAL when rank >= p->count. */
int sb_patterns_lengths(const sb_patterns *p, size_t rank, unsigned *len);

/* P(pattern) for every pattern, in their order ('prob' holds p->count
   values): for lengths l_1..l_S of a hand of s from n = 13 S,
     P = A(l) prod_i C(13, l_i) / C(n, s),
   where A(l) = S! / prod_v (suits of length v)! counts the ways to give
   the lengths to the suits (12 for 4-4-3-2).  Computed from logarithms
   of binomials (GSL), relative error about 1e-14.  Returns SB_OK or
   SB_ENOMEM. */
int sb_patterns_null(const sb_patterns *p, double *prob);

/* "4-4-3-2": the lengths joined by '-', cut with "..." if too long. */
void sb_patterns_name(const unsigned *len, size_t suits, char *buf,
                      size_t size);

/* ---- tests hand by hand, combined ------------------------------------ */

/* 'tests' sub-tests (one per hand, or per hand and suit), each a count
   distribution over the same k categories with the same null
   probabilities. */
typedef struct sb_hands_tests {
    size_t tests;              /* sub-tests, >= 1 */
    size_t k;                  /* categories, >= 1 */
    const uint64_t *counts;    /* sub-test t, category i: counts[t k + i];
                                  every sub-test's counts sum to 'samples' */
    const double *prob;        /* null P(category i), k values */
    int ranges;                /* 1: categories are the values first_value
                                  + i, and the table keeps them in lo/hi */
    long first_value;
    /* Categories lo..hi (after pooling) in words: "10 HCP", "4-4-3-2",
       "7-13 cards". */
    void (*category)(char *buf, size_t len, size_t lo, size_t hi,
                     const void *ctx);
    /* Sub-test t in words: "hand 2", "hand 2, hearts". */
    void (*test)(char *buf, size_t len, size_t t, const void *ctx);
    const void *ctx;           /* passed to both */
    const char *one;           /* one sub-test, for the detectable effect:
                                  "one hand", "one suit of one hand" */
    const char *null_desc;     /* the null of one sub-test, in words */
} sb_hands_tests;

/* Fill a begun result (sb_gof_begin) from sub-tests after 'samples'
   samples.  The categories are pooled from the low end until each group
   expects SB_GOF_MIN_EXPECTED (as sb_gof_pool does; the same groups for
   every sub-test, decided from the expectations only), each sub-test's
   X^2 is referred to chi-square(groups - 1), and the sub-tests are
   combined by Bonferroni:
       p = min(1, T min_t p_t),
   valid under any dependence between them (P(min_t p_t <= a/T) <=
   sum_t P(p_t <= a/T) = a).  The result holds the worst sub-test's X^2
   and df, its effect, the detectable effect at fail_alpha / T, the worst
   group of the worst sub-test in effect_desc, and the tests x groups
   table.  Fewer than two groups make it not applicable ("needs more
   samples").  Returns SB_OK, SB_EINVAL, SB_ENOMEM or SB_ERANGE. */
int sb_hands_result(sb_result *res, const sb_hands_tests *t,
                    uint64_t samples, double fail_alpha);

#endif /* SB_STATS_HANDS_H */
