/*
 * sb_sample.h - the tests' own randomness and permutation walk.
 *
 * Tests that check the library's generators and statistics must not draw
 * their reference samples from the library itself, so they share this
 * small generator instead, the reference shuffle made with it (and the
 * same shuffle drawn from a library source, for test-only shuffles the
 * engine runs), and the lexicographic walk they use to visit every
 * permutation of a small deck.
 */
#ifndef SB_SAMPLE_H
#define SB_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/rng.h"
#ifdef SB_INLINE_DRAWS
#include "base/draws.h"   /* what sb_below means inside the project */
#endif

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
   generators, scrambled", ACM TOMS 2016); the state must not be 0. */
static inline uint64_t xs_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [0, n) by multiply-shift on 32 high bits: bias below
   n / 2^32, far below anything these tests can see. */
static inline size_t xs_below(uint64_t *s, size_t n)
{
    return (size_t)(((xs_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* The reference shuffle: Fisher-Yates in Durstenfeld's form on the
   identity (R. Durstenfeld, "Algorithm 235: Random permutation", CACM
   7(7), 1964): for i from n-1 down to 1, swap deck[i] with deck[j], j
   uniform in [0, i]; every order of the n cards equally likely.  With
   'sattolo' set, j in [0, i): Sattolo's algorithm, every single n-cycle
   equally likely. */
static inline void xs_fisher_yates(uint64_t *s, sb_card *deck, size_t n,
                                   int sattolo)
{
    for (size_t i = 0; i < n; i++)
        deck[i] = (sb_card)i;
    for (size_t i = n; i-- > 1;) {
        const size_t j = xs_below(s, sattolo ? i : i + 1);
        const sb_card t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* The same shuffle drawn from a library source 'src' (n >= 1), for the
   test-only shuffles that the engine runs: the same draws, in the same
   order, as xs_fisher_yates without 'sattolo'. */
static inline void src_fisher_yates(sb_src *src, sb_card *deck, size_t n)
{
    for (size_t i = 0; i < n; i++)
        deck[i] = (sb_card)i;
    for (size_t i = n; i-- > 1;) {
        const size_t j = (size_t)sb_below(src, i + 1);
        const sb_card t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

/* A uniform deck of n cards. */
static inline void xs_deck(uint64_t *s, sb_card *deck, size_t n)
{
    xs_fisher_yates(s, deck, n, 0);
}

/* The next permutation of a[0..n-1] in lexicographic order (Knuth, TAOCP
   7.2.1.2, Algorithm L); 0 after the last. */
static inline int next_perm(sb_card *a, size_t n)
{
    if (n < 2)
        return 0;
    size_t j = n - 2;
    while (a[j] >= a[j + 1]) {
        if (j == 0)
            return 0;
        j--;
    }
    size_t l = n - 1;
    while (a[j] >= a[l])
        l--;
    sb_card t = a[j];
    a[j] = a[l];
    a[l] = t;
    for (size_t lo = j + 1, hi = n - 1; lo < hi; lo++, hi--) {
        t = a[lo];
        a[lo] = a[hi];
        a[hi] = t;
    }
    return 1;
}

#endif /* SB_SAMPLE_H */
