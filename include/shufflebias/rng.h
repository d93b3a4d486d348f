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
 * and, for code that models the C idiom rand() % k (sampling draws the
 * rand() value and reduces it; exact mode walks the k residues with the
 * idiom's exact weights):
 *
 *   sb_rand_mod(src, b, k)  rand() % k for a rand() of b uniform bits
 *
 * and one for the loop at the heart of Fisher-Yates, whose bounds fall by
 * one at each step:
 *
 *   sb_below_falling(src, hi, count, step, undo, ctx)
 *                           step(ctx, b, below(b)) for b = hi, hi - 1, ...,
 *                           hi - count + 1 in turn
 *
 * On every source but the fast generator it is exactly that loop: the same
 * calls of below(), in the same order, so exact mode and the other
 * backends see nothing new.  On the fast generator one 64-bit word serves
 * a batch of several draws (Brackett-Rozinsky and Lemire, below), and the
 * rare batch whose word is rejected has its steps taken back with 'undo'.
 *
 * Two ways to call them.  Code built outside the project (plug-ins) gets
 * the exported functions sb_draw_*: the layout of 'sb_src' is never part
 * of the plug-in ABI.  Code built inside it defines SB_INLINE_DRAWS and
 * gets the same draws inlined from an internal header, with the fast
 * generator's state visible and a single well-predicted branch to the
 * other backends.
 *
 * Errors: a source that cannot answer a draw (unit() while enumerating)
 * returns 0 and records a status in the source; the runner checks it after
 * every sample with sb_src_error().
 */
#ifndef SB_RNG_H
#define SB_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
/* A step of a loop of draws with falling bounds: 'j' was drawn below 'b'. */
typedef void sb_falling_fn(void *ctx, uint64_t b, uint64_t j);
/* sb_below_falling for plug-ins (the loop described above). */
void sb_draw_below_falling(sb_src *src, uint64_t hi, uint64_t count,
                           sb_falling_fn *step, sb_falling_fn *undo,
                           void *ctx);
/* The value of the C idiom rand() % k, for a rand() that returns 'bits'
   uniform bits (15 where RAND_MAX is 32767, 31 for glibc's): residue r of
   k comes up with weight floor(2^bits / k) + (r < 2^bits mod k) out of
   2^bits (sb_rand_mod_weight), so the modulo bias of the idiom is kept
   exactly, on every source.  A source that samples draws the rand()
   value (sb_bits) and reduces it, one draw whatever k, and the idiom
   itself on a generator such as rand15; exact mode walks k branches per
   draw with those weights instead of 2^bits.  k = 1 is 0 and no draw.
   1 <= bits <= 63, 1 <= k <= 2^bits
   (sb_rand_mod_valid); other arguments give 0 and SB_EINVAL in the
   source's error, which ends the run saying so. */
uint64_t sb_draw_rand_mod(sb_src *src, unsigned bits, uint64_t k);
/* The status recorded by a draw that could not be answered, SB_OK if none. */
int sb_src_error(const sb_src *src);
/* The GSL generator (a gsl_rng *) behind 'src' when the user chose one,
   else NULL: lets a shuffle call GSL's own routines on the very generator
   chosen, as a C programmer would. */
void *sb_src_gsl_rng(sb_src *src);

/* Whether (bits, k) is a rand() % k that sb_draw_rand_mod can make:
   1 <= bits <= 63 and 1 <= k <= 2^bits.  Other arguments end the run:
   sb_draw_rand_mod returns 0 and records SB_EINVAL in the source. */
static inline int sb_rand_mod_valid(unsigned bits, uint64_t k)
{
    return bits >= 1 && bits <= 63 && k >= 1 && k <= (uint64_t)1 << bits;
}

/* The weight, out of 2^bits, of residue r of k in rand() % k on a rand()
   of 'bits' uniform bits: the values congruent to r below 2^bits.
   Preconditions: those of sb_draw_rand_mod, r < k; 0 for arguments that
   fail sb_rand_mod_valid (never a shift past the word). */
static inline uint64_t sb_rand_mod_weight(unsigned bits, uint64_t k,
                                          uint64_t r)
{
    if (!sb_rand_mod_valid(bits, k))
        return 0;
    const uint64_t values = (uint64_t)1 << bits;
    return values / k + (r < values % k);
}

/* The largest k for which exact mode walks rand() % k as the k residues
   with their weights; above it (a deck of more than 256 cards, far past
   what can be enumerated) it walks the rand() value itself. */
#define SB_RAND_MOD_WEIGHTS 256u

#ifdef SB_INLINE_DRAWS

/* Inside the project: the inlined draws of the internal header
   base/draws.h, which alone declares sb_inline_*: a file that draws
   without it does not build. */
#define sb_below sb_inline_below
#define sb_bits sb_inline_bits
#define sb_weighted sb_inline_weighted
#define sb_unit sb_inline_unit
#define sb_below_falling sb_inline_below_falling
#define sb_rand_mod sb_inline_rand_mod

#else /* !SB_INLINE_DRAWS */

#define sb_below sb_draw_below
#define sb_bits sb_draw_bits
#define sb_weighted sb_draw_weighted
#define sb_unit sb_draw_unit
#define sb_below_falling sb_draw_below_falling
#define sb_rand_mod sb_draw_rand_mod

#endif /* SB_INLINE_DRAWS */

#ifdef __cplusplus
}
#endif

#endif /* SB_RNG_H */
