/*
 * draws.h - the draws inlined: the source's layout, the fast generator
 * (xoshiro256**), Lemire's bounded draws and their batches for falling
 * bounds.  The contract of every draw is in shufflebias/rng.h; this is how
 * the built-in shuffles, the statistics and the engine get them without a
 * call.
 *
 * Inside the project (SB_INLINE_DRAWS, set for every floor) shufflebias/rng.h
 * maps sb_below, sb_bits, ... to the sb_inline_* functions below, which
 * only this header declares: a file that draws without including it (or a
 * header that does: algorithms/deck.h, deal.h, riffle_core.h, base/rng.h)
 * does not build, so no draw can silently become a call.  A plug-in, built
 * against include/ alone, never sees this header nor the layout of
 * 'sb_src': it calls the exported sb_draw_* functions (base/rng.c), which
 * are these same inlines.
 */
#ifndef SB_BASE_DRAWS_H
#define SB_BASE_DRAWS_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/rng.h"

/* Operations of every backend other than the inlined fast generator.  Each
   receives the whole source, so an enumerator can record its branch points.
   Preconditions are those of the draws in shufflebias/rng.h. */
typedef struct sb_src_ops {
    uint64_t (*below)(sb_src *src, uint64_t n);
    uint64_t (*bits)(sb_src *src, unsigned k);
    size_t (*weighted)(sb_src *src, const uint64_t *w, size_t m);
    double (*unit)(sb_src *src);
    /* Optional: called before every sample (a source that re-seeds its
       generator for each sample). */
    void (*begin)(sb_src *src);
    /* Optional: rand() % k on a rand() of 'bits' bits, for a source that
       walks the branches of each draw rather than drawing values (exact
       mode): sb_rand_mod_weighted (base/rng.h) walks the k residues with
       their weights instead of the 2^bits values.  NULL, as on every source
       that samples, draws the rand() value with bits() and reduces it,
       which is the same law, and the idiom itself on a generator such as
       rand15.  Called only with arguments that pass sb_rand_mod_valid and
       k >= 2. */
    uint64_t (*rand_mod)(sb_src *src, unsigned bits, uint64_t k);
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

/* ---- batched draws for falling bounds -----------------------------------

   Brackett-Rozinsky and Lemire, "Batched ranged random integer
   generation", Software: Practice and Experience 55(1), 2025 (arXiv
   2408.06213).  One word x of 'width' bits serves k draws with the bounds
   hi, hi - 1, ..., hi - k + 1 when their product P = hi (hi - 1) ... (hi -
   k + 1) is at most 2^width: multiply x by the first bound, the high part
   is the first index and the low part carries on to be multiplied by the
   next bound (sb_batch_take), and so on.  The k steps together compute
   x * P = N * 2^width + L, where N is the number whose mixed-radix digits
   are the k indices and L the final low part; so this is Lemire's method
   for the single bound P (see sb_lemire_accept): keeping the words with
   L >= 2^width mod P (sb_batch_keep) leaves exactly floor(2^width / P)
   words for each of the P tuples of indices, and every tuple is exactly
   equally likely. */

/* The next index of a batch: the high part of x * b; x keeps the low. */
static inline uint64_t sb_batch_take(uint64_t *x, uint64_t b, unsigned width)
{
    const sb_u128 m = (sb_u128)*x * b;
    *x = width == 64 ? (uint64_t)m
                     : (uint64_t)m & (((uint64_t)1 << width) - 1);
    return (uint64_t)(m >> width);
}

/* Whether the batch of k bounds hi, hi - d, ..., hi - (k - 1) d (stride d:
   1 for a plain batch, 2 for a chain of a pair, below) whose final low
   part is 'low' stands (1) or must be drawn again (0).  The remainder
   2^width mod P costs a division, so it is computed only when 'low' is
   below 'cap', any bound with cap >= P: the remainder is below P, so a
   low part at or above cap is kept at once.  Preconditions: every bound
   at least 1, P <= 2^width, P <= cap. */
static inline int sb_batch_keep_stride(uint64_t low, uint64_t hi, unsigned k,
                                       unsigned d, unsigned width,
                                       uint64_t cap)
{
    if (__builtin_expect(low >= cap, 1))
        return 1;
    const uint64_t mask = width == 64 ? ~(uint64_t)0
                                      : ((uint64_t)1 << width) - 1;
    uint64_t p = hi;
    for (unsigned t = 1; t < k; t++)
        p *= hi - (uint64_t)t * d;
    return low >= ((mask - p + 1) & mask) % p;     /* 2^width mod P */
}

/* The same for a plain batch of k bounds hi, hi - 1, ..., hi - k + 1. */
static inline int sb_batch_keep(uint64_t low, uint64_t hi, unsigned k,
                                unsigned width, uint64_t cap)
{
    return sb_batch_keep_stride(low, hi, k, 1, width, cap);
}

/* Draws one word serves on the fast path, by the largest bound of the
   batch: the most that keep P < hi^k <= 2^54 (64^9, 512^6, 8192^4 = 2^52,
   (2^18)^3, (2^27)^2), and one above 2^27.  So every batch of two or more
   has P <= SB_BATCH_CAP: its final low part falls below the cap, and needs
   the division, once in 2^10 batches, and the batch is drawn again at most
   as often.  A batch of one is Lemire's method itself, with cap = P = hi.
   (The paper's own sizes go up to 6 draws per word; 9 for bounds up to 64
   were faster for 52-card decks: docs/speed.md.) */
#define SB_BATCH_MAX 9u
#define SB_BATCH_CAP ((uint64_t)1 << 54)

static inline unsigned sb_batch_size(uint64_t hi)
{
    return hi <= 64 ? 9 : hi <= 512 ? 6 : hi <= 8192 ? 4
         : hi <= ((uint64_t)1 << 18) ? 3 : hi <= ((uint64_t)1 << 27) ? 2 : 1;
}

/* Take back the k steps of a rejected batch drawn from word x0, last
   first.  Rare: out of the hot loop. */
static inline void sb_batch_undo(uint64_t x0, uint64_t hi, unsigned k,
                                 sb_falling_fn *undo, void *ctx)
{
    uint64_t j[SB_BATCH_MAX];
    for (unsigned t = 0; t < k; t++)
        j[t] = sb_batch_take(&x0, hi - t, 64);
    for (unsigned t = k; t-- > 0;)
        undo(ctx, hi - t, j[t]);
}

/* Take back the ka + kb steps of a rejected pair (below) drawn from the
   words a0 and b0, last first.  Rare: out of the hot loop. */
static inline void sb_pair_undo(uint64_t a0, uint64_t b0, uint64_t hi,
                                unsigned ka, unsigned kb,
                                sb_falling_fn *undo, void *ctx)
{
    uint64_t j[2 * SB_BATCH_MAX];
    for (unsigned t = 0; t < ka + kb; t++)
        j[t] = sb_batch_take(t % 2 ? &b0 : &a0, hi - t, 64);
    for (unsigned t = ka + kb; t-- > 0;)
        undo(ctx, hi - t, j[t]);
}

/* step(ctx, b, below(b)) for b = hi down to hi - count + 1, in that order.
   Precondition: count <= hi (every bound at least 1).

   On the fast generator the indices of a batch form a chain of
   multiplications, each waiting for the low part of the one before (a
   128-bit product takes about 4 cycles).  So while more than a batch of
   bounds remains (sb_batch_size), the next K of them, up to two batches'
   worth, are served by a pair of independent chains, which the processor
   overlaps: a word a for the ka = ceil(K / 2) bounds hi, hi - 2, ... and
   then a word b for the kb = floor(K / 2) bounds hi - 1, hi - 3, ...,
   the steps taken in order of the bounds, alternately from each chain.
   Each chain is a batch of the paper (its bounds need not be consecutive:
   their product P is at most hi^k <= 2^54, like a plain batch's) with its
   own rejection test.  When a chain's word does not stand, the pair's
   steps are taken back, last first, that chain's word is replaced by the
   next word of the generator (a's first when both fail), a word that
   stood is kept, and the pair is taken again, until both stand.  (Serving
   the two halves of the K bounds in turn, the second chain's indices
   held until the first's steps are done, was slower than one chain for
   52-card decks; alternating is faster: docs/speed.md.)  The last (up
   to one batch of) bounds is a plain batch from one word, its steps
   taken back and drawn again in the same way.  The steps are taken as
   the indices come out of the words, before the words are known to
   stand: that keeps the multiplications and the caller's work (a swap)
   in one stream with no stores of indices between them.  A word that
   does not stand comes up for a 52-card deck about once in 10^5 decks;
   undo(ctx, b, j) is called with the arguments of the step it takes
   back, so 'undo' must exactly reverse what 'step' did to anything a
   later step or the sample reads (a swap is its own undo), and the steps
   that stand are those of accepted words alone: every chain is exactly
   uniform and independent of the others, as above.

   On every other source the loop is the plain one, one below() per step
   in order, and 'undo' is never called.  Inlined whole where it is used,
   so that 'step' and 'undo', known there, are inlined too. */
static inline __attribute__((always_inline)) void
sb_inline_below_falling(sb_src *src, uint64_t hi, uint64_t count,
                        sb_falling_fn *step, sb_falling_fn *undo, void *ctx)
{
    if (__builtin_expect(src->ops != NULL, 0)) {
        for (uint64_t t = 0; t < count; t++)
            step(ctx, hi - t, src->ops->below(src, hi - t));
        return;
    }
    for (;;) {
        const unsigned size = sb_batch_size(hi);
        if (count <= size)
            break;
        const unsigned kk = count < 2 * size ? (unsigned)count : 2 * size;
        const unsigned kb = kk / 2, ka = kk - kb;
        const uint64_t capa = ka == 1 ? hi : SB_BATCH_CAP;
        const uint64_t capb = kb == 1 ? hi - 1 : SB_BATCH_CAP;
        uint64_t a0 = sb_xoshiro_next(src->s);
        uint64_t b0 = sb_xoshiro_next(src->s);
        for (;;) {
            uint64_t a = a0, b = b0, bound = hi;
            for (unsigned t = 0; t < kb; t++) {
                step(ctx, bound, sb_batch_take(&a, bound, 64));
                step(ctx, bound - 1, sb_batch_take(&b, bound - 1, 64));
                bound -= 2;
            }
            if (ka > kb)
                step(ctx, bound, sb_batch_take(&a, bound, 64));
            const int keepa = sb_batch_keep_stride(a, hi, ka, 2, 64, capa);
            const int keepb = sb_batch_keep_stride(b, hi - 1, kb, 2, 64,
                                                   capb);
            if (__builtin_expect(keepa & keepb, 1))
                break;
            sb_pair_undo(a0, b0, hi, ka, kb, undo, ctx);
            if (!keepa)
                a0 = sb_xoshiro_next(src->s);
            if (!keepb)
                b0 = sb_xoshiro_next(src->s);
        }
        hi -= kk;
        count -= kk;
    }
    if (count > 0) {
        const unsigned k = (unsigned)count;
        const uint64_t cap = k == 1 ? hi : SB_BATCH_CAP;
        for (;;) {
            const uint64_t x0 = sb_xoshiro_next(src->s);
            uint64_t x = x0;
            for (unsigned t = 0; t < k; t++)
                step(ctx, hi - t, sb_batch_take(&x, hi - t, 64));
            if (sb_batch_keep(x, hi, k, 64, cap))
                break;
            sb_batch_undo(x0, hi, k, undo, ctx);
        }
    }
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

/* rand() % k on a rand() of 'bits' uniform bits (shufflebias/rng.h): on
   the fast generator the high 'bits' bits of one word, reduced; anything
   else - another source, arguments out of range - goes through the
   exported sb_draw_rand_mod, which says what the source does. */
static inline uint64_t sb_inline_rand_mod(sb_src *src, unsigned bits,
                                          uint64_t k)
{
    if (__builtin_expect(src->ops != NULL, 0) || !sb_rand_mod_valid(bits, k))
        return sb_draw_rand_mod(src, bits, k);
    if (k == 1)
        return 0;          /* no draw, as on every source */
    const uint64_t x = sb_xoshiro_next(src->s) >> (64 - bits);
    /* A 32-bit division where the operands fit: the common case (a 15- or
       31-bit rand()), and several times cheaper than a 64-bit one on
       some processors. */
    if (bits <= 32 && k <= UINT32_MAX)
        return (uint32_t)x % (uint32_t)k;
    return x % k;
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

#endif /* SB_BASE_DRAWS_H */
