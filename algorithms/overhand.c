/*
 * overhand - the overhand shuffle, 'passes' times: small packets taken
 * off the top of the deck and dropped one on another, so that their order
 * is reversed.
 *
 * The model is Pemantle's (R. Pemantle, "Randomization time for the
 * overhand shuffle", J. Theoret. Probab. 2(1), 1989, 37-49).  Each of
 * the n - 1 gaps between neighbouring cards is a cut, independently of
 * the others, with probability p; the cuts split the deck into packets.
 * A person holding the deck in one hand takes the packets off its top
 * one at a time and drops each onto the pile in the other hand, so every
 * packet keeps the order of its cards and the packets come out in reverse
 * order: the top packet ends at the bottom.  (Jonasson, below, writes the
 * step as each packet reversed where it lies.  The two differ by turning
 * the whole deck over once per pass, a fixed permutation; the law of the
 * gaps is the same read from either end, so after k passes the two decks
 * have the same law up to that turn when k is odd, and are exactly as far
 * from uniform.)  For a fixed p, Pemantle shows that order n^2 log n
 * passes suffice to mix n cards, and at least order n^2 are needed;
 * Jonasson ("The overhand shuffle mixes in Theta(n^2 log n) steps", Ann.
 * Appl. Probab. 16(1), 2006, 231-243) proves the matching lower bound, so
 * n^2 log n is the true order.  Neither gives the constant; at 52 cards
 * n^2 alone is 2704, where about seven riffles do.
 *
 * Parameters: 'passes' (default 10, a number a person might make and far too
 * few, so that the default is a plainly biased entry of the catalogue: 10^4
 * decks of 52 cards fail every statistic of the default battery but
 * collisions) and 'cut-bits' b (default 2), which makes p = 2^-b exactly.
 * Each pass draws b strings of n - 1 fair bits (one sb_bits draw per string
 * for n - 1 <= 64, words of 64 bits beyond, as the riffles draw theirs),
 * string after string, and gap i (between positions i and i + 1 from the
 * top) is a cut when bit i is 1 in all b strings.  Packets then hold about
 * 2^b cards on average (4 at the default); b = 1 is p = 1/2.  Every draw is
 * a bit string, so exact mode walks 2^(b (n-1)) equally likely branches per
 * pass: 2^(b (n-1) passes) paths in all.
 *
 * Fair?  No, at any number of passes a person would make.  Neighbours stay
 * neighbours unless a cut falls between them, so cards that started
 * together stay together, in their order or reversed, for many passes;
 * and the top packet goes to the bottom with every pass, so the cards near
 * the two ends trade places and come back.
 *
 * Exact law for 3 cards (deck ABC; p = 1/4 at b = 2).  One pass: no cut
 * (9/16) leaves ABC; a cut after A alone (3/16) gives BCA, after B alone
 * (3/16) CAB, both (1/16) CBA; ACB and BAC never come up.  Two passes
 * (256 paths): ABC 25/64, ACB 3/128, BAC 3/128, BCA 63/256, CAB 63/256,
 * CBA 9/128.  Ten passes, the default (2^40 paths): ABC
 * 115779230375/549755813888 (0.210601), ACB and BAC
 * 33749344299/274877906944 (0.122779) each, BCA and CAB
 * 231412340313/1099511627776 (0.210468) each, CBA
 * 16891716501/137438953472 (0.122903).  The total-variation distance
 * from uniform is exactly (7/8)^k / 2 after k passes: 7/16 after one,
 * 49/128 after two, 7^10/2^31 = 0.1315 after ten.  Why: a pass changes
 * the parity of the deck only by CBA (1 in 16), so the even orders lead
 * the odd ones by (7/8)^k; the rest of the law fades as (7/16)^k, so
 * every even order stays above 1/6 and every odd one below.  These
 * numbers come from a brute force written apart from this file, which
 * moved the packets from hand to hand for every draw of the bits at one
 * to three passes, and multiplied the one-pass law out for ten (and for
 * every k up to twelve, for the distance).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shufflebias/markov.h"
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

enum { P_PASSES, P_CUT_BITS };

#define PASSES_MAX 100000
#define CUT_BITS_MAX 8

static const sb_param_def params[] = {
    [P_PASSES] = { "passes", "overhand shuffles in a row", 10, 1,
                   PASSES_MAX, NULL },
    [P_CUT_BITS] = { "cut-bits", "each gap between two cards is a cut "
                     "with probability 2^-cut-bits", 2, 1, CUT_BITS_MAX,
                     NULL },
};

/* Scratch space: the cuts of one pass and a deck to drop packets into. */
typedef struct overhand_state {
    uint64_t *cuts;     /* bit i set: gap i is a cut */
    sb_card *deck;
} overhand_state;

/* Parameters set by hand (not through --param) are checked too. */
static int check(const sb_shuffle_args *a, char *why, size_t len)
{
    if (a->param[P_PASSES] < 1 || a->param[P_PASSES] > PASSES_MAX) {
        snprintf(why, len, "passes = %ld is outside 1..%d",
                 a->param[P_PASSES], PASSES_MAX);
        return SB_EINVAL;
    }
    if (a->param[P_CUT_BITS] < 1 || a->param[P_CUT_BITS] > CUT_BITS_MAX) {
        snprintf(why, len, "cut-bits = %ld is outside 1..%d",
                 a->param[P_CUT_BITS], CUT_BITS_MAX);
        return SB_EINVAL;
    }
    return SB_OK;
}

static void overhand_free(void *state)
{
    overhand_state *st = state;
    if (!st)
        return;
    free(st->cuts);
    free(st->deck);
    free(st);
}

static int init(void **state, const sb_shuffle_args *a)
{
    overhand_state *st = calloc(1, sizeof *st);
    if (!st)
        return SB_ENOMEM;
    /* At least one of each, so that a deck of one card still gets
       pointers that can be freed. */
    st->cuts = calloc(a->n / 64 + 1, sizeof *st->cuts);
    st->deck = malloc((a->n + 1) * sizeof *st->deck);
    if (!st->cuts || !st->deck) {
        overhand_free(st);
        return SB_ENOMEM;
    }
    *state = st;
    return SB_OK;
}

/* Draw the cuts of one pass into 'cuts': b strings of n - 1 bits, one
   after another, each in words of at most 64 bits, ANDed together. */
static void draw_cuts(const sb_shuffle_args *a, sb_src *src, uint64_t *cuts)
{
    const size_t gaps = a->n - 1;
    for (long s = 0; s < a->param[P_CUT_BITS]; s++)
        for (size_t w = 0; w * 64 < gaps; w++) {
            const size_t k = gaps - w * 64 < 64 ? gaps - w * 64 : 64;
            const uint64_t x = sb_bits(src, (unsigned)k);
            cuts[w] = s == 0 ? x : cuts[w] & x;
        }
}

/* One overhand shuffle of 'in' into 'out' by the cuts drawn.  The
   packets taken before the one at positions [start, end) fill the bottom
   'start' places of the pile; it is dropped on top of them, at positions
   [n - end, n - start). */
static void drop_packets(const uint64_t *cuts, size_t n, const sb_card *in,
                         sb_card *out)
{
    size_t start = 0;
    for (size_t w = 0; w * 64 < n - 1; w++)
        for (uint64_t c = cuts[w]; c != 0; c &= c - 1) {
            const size_t end = w * 64 + (size_t)__builtin_ctzll(c) + 1;
            memcpy(out + n - end, in + start, (end - start) * sizeof *out);
            start = end;
        }
    memcpy(out, in + start, (n - start) * sizeof *out);
}

/* One pass applied to 'deck' in place: the step of the Markov walk. */
static int step(void *state, const sb_shuffle_args *a, size_t s, sb_src *src,
                sb_card *deck)
{
    (void)s;
    overhand_state *st = state;
    draw_cuts(a, src, st->cuts);
    drop_packets(st->cuts, a->n, deck, st->deck);
    memcpy(deck, st->deck, a->n * sizeof *deck);
    return SB_OK;
}

static size_t steps(const sb_shuffle_args *a)
{
    return (size_t)a->param[P_PASSES];
}

/* The unshuffled deck and then every step in order, so that run() draws
   what the steps draw by construction. */
static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    sb_deck_identity(out, a->n);
    const size_t k = steps(a);
    for (size_t s = 0; s < k; s++)
        step(state, a, s, src, out);
    return SB_OK;
}

/* b (n - 1) fair bits per pass: 2^(b (n-1) passes) paths. */
static uint64_t paths(const sb_shuffle_args *a)
{
    const uint64_t bits =
        sb_paths_mul(sb_paths_mul((uint64_t)a->param[P_CUT_BITS], a->n - 1),
                     (uint64_t)a->param[P_PASSES]);
    return bits >= 64 ? UINT64_MAX : (uint64_t)1 << bits;
}

const sb_shuffle_type sb_shuffle_overhand = {
    .name = "overhand",
    .summary = "overhand shuffle, 'passes' times (Pemantle's model: each "
               "gap a cut with probability 2^-cut-bits, the packets "
               "dropped in reverse order)",
    .source = "Pemantle, J. Theoret. Probab. 2(1), 1989; Jonasson, Ann. "
              "Appl. Probab. 16(1), 2006",
    .bias = "Packets keep their cards together and only their order is "
            "reversed, so neighbours stay neighbours for many passes: "
            "order n^2 log n passes are needed to mix, and 10 leave 52 "
            "cards plainly ordered.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .check = check,
    .init = init,
    .free = overhand_free,
    .exact_paths = paths,
    .exact_hint = "passes=2",
    .run = run,
};

/* Markov in its deck: one overhand shuffle per step. */
const sb_markov sb_markov_overhand = {
    .type = &sb_shuffle_overhand,
    .steps = steps,
    .step = step,
};
