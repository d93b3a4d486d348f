/*
 * riffle_core.h - what the riffle family shares: bit strings, the riffle
 * and its inverse, passes in a row, and the stopping rule of Aldous and
 * Diaconis.
 *
 * A riffle of n cards is encoded, as in Aldous & Diaconis (1986) and
 * Bayer & Diaconis (1992), by a string of n bits, bit i belonging to
 * position i of the deck.  The forward riffle cuts off as many cards as
 * the string has 0s and lets position i of the result take the next card
 * of the top packet when bit i is 0, of the bottom packet when it is 1.
 * The inverse riffle reads the same string the other way round: the cards
 * at the 0 positions slide out, keeping their order, and go on top of the
 * cards at the 1 positions.  As decks (deck[j] = card at position j)
 * made from the unshuffled deck, the two are inverse permutations.
 *
 * Everything here is used by algorithms/riffle.c, inverse_riffle.c,
 * riffle_until_uniform.c, riffle_until_uniform_forward.c and
 * human_packet.c; nothing outside algorithms/ includes it.
 */
#ifndef SB_ALGORITHMS_RIFFLE_CORE_H
#define SB_ALGORITHMS_RIFFLE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "shufflebias/shuffle.h"
#include "base/draws.h"           /* the draws, inlined */

/* The 'passes' parameter of the riffles that repeat a fixed number of
   times: 7 by default, the number Bayer & Diaconis made famous. */
#define SB_RIFFLE_PASSES_PARAM \
    { "passes", "riffles in a row", 7, 1, 1000, NULL }

/* Riffles kept by the stopping rule before it gives up.  The rule stops
   after t riffles once n cards carry distinct t-bit labels, so
   P(T > t) <= C(n, 2) / 2^t < n^2 / 2^(t+1); at t = 160 and n <= 65535
   that is below 2^32 / 2^161 = 2^-129, never seen from a working source. */
#define SB_RIFFLE_UNTIL_CAP 160u

/* Draws after which exact mode cuts a path of the stopping rule by
   default (exact_depth): 9 riffles of up to 64 cards, one draw each. */
#define SB_RIFFLE_UNTIL_DEPTH 9u

/* State of every riffle in the family, made by sb_riffle_init. */
typedef struct sb_riffle_state {
    size_t n;            /* deck size */
    size_t words;        /* 64-bit words in one bit string */
    size_t kept;         /* bit strings room is kept for */
    uint64_t *bits;      /* kept * words: string s at bits + s * words */
    sb_card *deck;       /* a second deck, to riffle from one into another */
    uint32_t *group;     /* stopping rule: label group of the card at each
                            position of its inverse walk (NULL otherwise) */
    uint32_t *scratch;   /* stopping rule: those groups being moved */
    sb_tally tally;      /* passes per sample, since init */
} sb_riffle_state;

/* Allocate the state for n cards keeping 'kept' bit strings: 0 for a
   riffle that draws no bit string, 1 for a plain riffle, and
   SB_RIFFLE_UNTIL_CAP for the stopping rule, which alone (kept > 1) also
   gets the label groups.  SB_OK or SB_ENOMEM. */
int sb_riffle_init(void **state, size_t n, size_t kept);
void sb_riffle_free(void *state);

/* For the riffles repeated a fixed number of times, whose first parameter
   is 'passes': their init (one bit string kept), and their exact path
   count, n fair bits per pass: 2^(n * passes). */
int sb_riffle_init_passes(void **state, const sb_shuffle_args *a);
/* The init of the two that riffle until a stopping rule: room for
   SB_RIFFLE_UNTIL_CAP bit strings and the label groups. */
int sb_riffle_init_until(void **state, const sb_shuffle_args *a);
uint64_t sb_riffle_passes_paths(const sb_shuffle_args *a);
/* The stopping rule's paths cut at SB_RIFFLE_UNTIL_DEPTH draws, at most:
   (2^n)^9 (a path that stops sooner stands for fewer), so that exact mode
   refuses a deck too large for the walk before it starts. */
uint64_t sb_riffle_until_paths(const sb_shuffle_args *a);

/* Copy of the passes tallied so far. */
void sb_riffle_tally(const void *state, sb_tally *out);

/* Fill 'bits' (one string of n bits) from 'src': one sb_bits draw for
   n <= 64, else words of 64 bits and a last one of the rest. */
void sb_riffle_draw(sb_src *src, size_t n, uint64_t *bits);

/* Bit i of a string. */
static inline unsigned sb_riffle_bit(const uint64_t *bits, size_t i)
{
    return (unsigned)(bits[i / 64] >> (i % 64)) & 1u;
}

/* The forward (GSR) riffle of 'in' by 'bits' into 'out'. */
void sb_riffle_forward(const uint64_t *bits, size_t n, const sb_card *in,
                       sb_card *out);

/* The inverse riffle of 'in' by 'bits' into 'out': 0-positions on top. */
void sb_riffle_inverse(const uint64_t *bits, size_t n, const sb_card *in,
                       sb_card *out);

/* One riffle of 'in' into 'out' (n cards), drawing from 'src'; 'st' gives
   scratch room (its bits, its n). */
typedef void (*sb_riffle_pass_fn)(sb_riffle_state *st,
                                  const sb_shuffle_args *a, sb_src *src,
                                  const sb_card *in, sb_card *out);

/* 'passes' riffles by 'pass' in a row, from the unshuffled deck into
   'out'. */
void sb_riffle_repeat(sb_riffle_state *st, const sb_shuffle_args *a,
                      long passes, sb_src *src, sb_card *out,
                      sb_riffle_pass_fn pass);

/* One pass by 'pass' applied to 'deck' in place: the step of the riffles
   repeated a fixed number of times, as Markov in their deck
   (shufflebias/markov.h), and their number of steps, 'passes'. */
int sb_riffle_step(sb_riffle_state *st, const sb_shuffle_args *a,
                   sb_src *src, sb_card *deck, sb_riffle_pass_fn pass);
size_t sb_riffle_passes_steps(const sb_shuffle_args *a);

/* Ready-made passes: draw a bit string, then riffle forward or inverse. */
void sb_riffle_pass_forward(sb_riffle_state *st, const sb_shuffle_args *a,
                            sb_src *src, const sb_card *in, sb_card *out);
void sb_riffle_pass_inverse(sb_riffle_state *st, const sb_shuffle_args *a,
                            sb_src *src, const sb_card *in, sb_card *out);

/* In which order the stopping rule applies the inverse riffles of the
   strings b_1 .. b_t drawn so far. */
typedef enum sb_riffle_order {
    SB_RIFFLE_REVERSED,   /* b_t first, b_1 last: Aldous & Diaconis */
    SB_RIFFLE_FORWARD     /* b_1 first, b_t last: the tempting mistake */
} sb_riffle_order;

/* Riffle forward until the labels of the inverse walk, in 'order', are
   distinct (or SB_RIFFLE_UNTIL_CAP riffles were made); write the forward
   deck into 'out' and tally the riffles made. */
void sb_riffle_until(sb_riffle_state *st, const sb_shuffle_args *a,
                     sb_src *src, sb_card *out, sb_riffle_order order);

#endif /* SB_ALGORITHMS_RIFFLE_CORE_H */
