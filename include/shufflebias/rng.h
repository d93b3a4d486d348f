/*
 * rng.h - the draw interface: the only way an algorithm gets randomness.
 *
 * Every shuffle draws through four primitives, whatever the source behind
 * them (the fast built-in generator, any GSL generator, a deliberately weak
 * generator, or - for exact mode - an enumerator that turns every draw into
 * a branch point):
 *
 *   sb_below(src, n)        uniform integer in [0, n), n >= 1, unbiased
 *   sb_bits(src, k)         k uniform bits, 0 <= k <= 64, in the low bits
 *   sb_weighted(src, w, m)  index i in [0, m) with probability w[i] / sum(w)
 *   sb_unit(src)            uniform double in [0, 1) with 53 random bits
 *
 * Two ways to call them.  Code built inside the project defines
 * SB_INLINE_DRAWS and gets them inlined, with the fast generator's state
 * visible and a single well-predicted branch to the other backends.  Code
 * built outside (plug-ins) gets the exported functions sb_draw_*: the layout
 * of 'sb_src' is then never part of the plug-in ABI.
 *
 * Errors: a source that cannot answer a draw (unit() while enumerating)
 * returns 0 and records a status in the source; the runner checks it after
 * every sample with sb_src_error().
 */
#ifndef SB_RNG_H
#define SB_RNG_H

#include <stddef.h>
#include <stdint.h>

/* A card number (or, in a deal, a hand number).  Decks hold at most
   SB_DECK_MAX cards. */
typedef uint16_t sb_card;
#define SB_DECK_MAX 65535u

typedef struct sb_src sb_src;

/* Exported draws, for code built outside the project (stable ABI). */
uint64_t sb_draw_below(sb_src *src, uint64_t n);
uint64_t sb_draw_bits(sb_src *src, unsigned k);
size_t sb_draw_weighted(sb_src *src, const uint64_t *w, size_t m);
double sb_draw_unit(sb_src *src);
/* The status recorded by a draw that could not be answered, SB_OK if none. */
int sb_src_error(const sb_src *src);
/* The GSL generator (a gsl_rng *) behind 'src' when the user chose one,
   else NULL: lets a shuffle call GSL's own routines on the very generator
   chosen, as a C programmer would. */
void *sb_src_gsl_rng(sb_src *src);

#ifdef SB_INLINE_DRAWS

/* Operations of every backend other than the inlined fast generator.  Each
   receives the whole source, so an enumerator can record its branch points.
   Preconditions are those of the sb_* draws above. */
typedef struct sb_src_ops {
    uint64_t (*below)(sb_src *src, uint64_t n);
    uint64_t (*bits)(sb_src *src, unsigned k);
    size_t (*weighted)(sb_src *src, const uint64_t *w, size_t m);
    double (*unit)(sb_src *src);
    /* Optional: called before every sample (a source that re-seeds its
       generator for each sample). */
    void (*begin)(sb_src *src);
} sb_src_ops;

struct sb_src {
    uint64_t s[4];           /* xoshiro256** state, used when 'ops' is NULL */
    const sb_src_ops *ops;   /* NULL selects the inlined fast generator */
    void *impl;              /* the backend's own state when 'ops' is set */
    int error;               /* sticky status of a draw that failed */
};

__extension__ typedef unsigned __int128 sb_u128;

static inline uint64_t sb_rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** 1.0 (Blackman and Vigna, "Scrambled linear pseudorandom
   number generators", ACM TOMS 2021): period 2^256 - 1, 256 bits of state,
   enough for every ordering of 52 cards (52! ~ 2^225.6) to be reachable. */
static inline uint64_t sb_xoshiro_next(uint64_t s[4])
{
    const uint64_t result = sb_rotl64(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = sb_rotl64(s[3], 45);
    return result;
}

/* One step of Lemire's nearly divisionless method ("Fast random integer
   generation in an interval", ACM TOMACS 2019) on a word 'x' of 'width'
   bits (width <= 64; 64 on the fast path, smaller only in tests that walk
   every word).  The product x * n splits into a result (its high part) and a
   low part; the (2^width mod n) lowest low parts of each result are
   rejected, which leaves exactly floor(2^width / n) words per result.
   Returns 1 and sets *r when 'x' is accepted, 0 when it must be redrawn. */
static inline int sb_lemire_accept(uint64_t x, uint64_t n, unsigned width,
                                   uint64_t *r)
{
    const uint64_t mask = width == 64 ? ~(uint64_t)0
                                      : ((uint64_t)1 << width) - 1;
    const sb_u128 m = (sb_u128)x * n;
    const uint64_t low = (uint64_t)m & mask;
    *r = (uint64_t)(m >> width);
    if (__builtin_expect(low >= n, 1))
        return 1;          /* the common path: no division at all */
    return low >= ((mask - n + 1) & mask) % n;   /* 2^width mod n */
}

static inline uint64_t sb_inline_below(sb_src *src, uint64_t n)
{
    if (__builtin_expect(src->ops != NULL, 0))
        return src->ops->below(src, n);
    uint64_t r;
    while (!sb_lemire_accept(sb_xoshiro_next(src->s), n, 64, &r))
        ;
    return r;
}

static inline uint64_t sb_inline_bits(sb_src *src, unsigned k)
{
    if (__builtin_expect(src->ops != NULL, 0))
        return src->ops->bits(src, k);
    if (k == 0)
        return 0;
    return sb_xoshiro_next(src->s) >> (64 - k);   /* the high bits */
}

static inline size_t sb_inline_weighted(sb_src *src, const uint64_t *w,
                                        size_t m)
{
    if (__builtin_expect(src->ops != NULL, 0))
        return src->ops->weighted(src, w, m);
    uint64_t total = 0;
    for (size_t i = 0; i < m; i++)
        total += w[i];
    uint64_t r = sb_inline_below(src, total);
    size_t i = 0;
    while (r >= w[i])
        r -= w[i++];
    return i;
}

static inline double sb_inline_unit(sb_src *src)
{
    if (__builtin_expect(src->ops != NULL, 0))
        return src->ops->unit(src);
    return (double)(sb_xoshiro_next(src->s) >> 11) * 0x1.0p-53;
}

/* Tell the source a new sample starts: the runner calls it before every
   sample, algorithms never do. */
static inline void sb_src_begin_sample(sb_src *src)
{
    if (__builtin_expect(src->ops != NULL, 0) && src->ops->begin)
        src->ops->begin(src);
}

#define sb_below sb_inline_below
#define sb_bits sb_inline_bits
#define sb_weighted sb_inline_weighted
#define sb_unit sb_inline_unit

#else /* !SB_INLINE_DRAWS */

#define sb_below sb_draw_below
#define sb_bits sb_draw_bits
#define sb_weighted sb_draw_weighted
#define sb_unit sb_draw_unit

#endif /* SB_INLINE_DRAWS */

#endif /* SB_RNG_H */
