/* deck.h - small helpers every algorithm file shares. */
#ifndef SB_ALGORITHMS_DECK_H
#define SB_ALGORITHMS_DECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "base/draws.h"           /* the draws, inlined */

/* out[j] = j: the unshuffled deck, card 0 on top.  Every shuffle starts
   here, so on little-endian machines four cards go in one 64-bit store
   (lanes j, j + 1, j + 2, j + 3, all below 2^16 while stored): a quarter
   of the stores of the plain loop, which the compiler leaves as it is for
   a length it does not know. */
static inline void sb_deck_identity(sb_card *out, size_t n)
{
    size_t j = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(sizeof(sb_card) == 2, "four cards per 64-bit word");
    uint64_t four = 0x0003000200010000u;
    for (; j + 4 <= n; j += 4, four += 0x0004000400040004u)
        memcpy(out + j, &four, sizeof four);
#endif
    for (; j < n; j++)
        out[j] = (sb_card)j;
}

static inline void sb_deck_swap(sb_card *d, size_t i, size_t j)
{
    sb_card t = d[i];
    d[i] = d[j];
    d[j] = t;
}

/* An init for algorithms whose state is one array of n cards (a second
   deck, or scratch); release it with free. */
static inline int sb_deck_state_alloc(void **state, const sb_shuffle_args *a)
{
    *state = malloc((a->n ? a->n : 1) * sizeof(sb_card));
    return *state ? SB_OK : SB_ENOMEM;
}

/* Path counts for exact mode, saturating at UINT64_MAX. */
static inline uint64_t sb_paths_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* from * (from + 1) * ... * to, 1 when from > to. */
static inline uint64_t sb_paths_range(uint64_t from, uint64_t to)
{
    uint64_t r = 1;
    for (uint64_t k = from; k <= to; k++)
        r = sb_paths_mul(r, k);
    return r;
}

/* n!: one draw among the m cards left for each m from n down to 2. */
static inline uint64_t sb_paths_n_factorial(const sb_shuffle_args *a)
{
    return sb_paths_range(2, a->n);
}

static inline uint64_t sb_paths_pow(uint64_t base, uint64_t exp)
{
    uint64_t r = 1;
    for (uint64_t k = 0; k < exp; k++)
        r = sb_paths_mul(r, base);
    return r;
}

/* The run and run_block of a shuffle that keeps no state and writes n
   cards, both made from one function 'shuffle(src, out, n)', so that the
   two cannot differ: expands to the two static functions 'run' and
   'run_block' for the type object. */
#define SB_DECK_RUNS(shuffle)                                               \
    static int run(void *state, const sb_shuffle_args *a, sb_src *src,     \
                   sb_card *out)                                            \
    {                                                                       \
        (void)state;                                                        \
        shuffle(src, out, a->n);                                            \
        return SB_OK;                                                       \
    }                                                                       \
    static int run_block(void *state, const sb_shuffle_args *a,            \
                         sb_src *src, sb_card *out, size_t count)           \
    {                                                                       \
        (void)state;                                                        \
        for (size_t s = 0; s < count; s++)                                  \
            shuffle(src, out + s * a->n, a->n);                             \
        return SB_OK;                                                       \
    }

#endif /* SB_ALGORITHMS_DECK_H */
