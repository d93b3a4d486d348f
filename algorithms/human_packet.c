/*
 * human-packet - a model of a person's riffle: a cut near the middle, then
 * packets of a few cards falling from the two hands in turn.
 *
 * The web page "Shuffling and Dealing" of Ted's Computer World (a
 * PowerBASIC site) describes a person's riffle only in words, from 100 of
 * its author's own: a 52-card deck cut between 24 and 28 cards, and cards
 * falling in packets of 1 to 7 from each hand in turn.  It gives no table
 * of frequencies, so the weights below (a cut of 26 most likely, small
 * packets most likely) are a modelling choice, not a measurement; each is
 * a parameter and can be replaced.  The riffle it models is the one
 * analysed by Aldous & Diaconis ("Shuffling cards and stopping times",
 * Amer. Math. Monthly 93(5), 1986) and Bayer & Diaconis ("Trailing the
 * dovetail shuffle to its lair", Ann. Appl. Probab. 2(2), 1992).  All
 * weights are integers drawn with sb_weighted, so the shuffle stays
 * enumerable.
 *
 * One pass:
 *  a) Cut after floor(n/2) + d*f cards, d in -2..2, f = max(1, round(n/52))
 *     (a cut two cards off the middle of 52 is two twenty-sixths of a
 *     half deck off for any deck size), clamped to 1..n-1.  Offsets that
 *     clamp to the same cut pool their weights, so exact mode has one
 *     branch per distinct cut.
 *
 *         d              -2   -1    0   +1   +2
 *         cut (52)       24   25   26   27   28
 *         weight          1    4    6    4    1   cut-low2 .. cut-high2
 *
 *     1 4 6 4 1 is Binomial(4, 1/2): 26 three times in eight, 24 or 28
 *     one in sixteen each, a spread of one card (sd) either way - a
 *     steady but not perfect cutter.
 *  b) A fair bit says which hand drops first.
 *  c) Packets fall from the bottom of each hand, the hands taking turns;
 *     the new deck builds up from its bottom card.  A packet holds 1 to 7
 *     cards with weights
 *
 *         size            1    2    3    4    5    6    7
 *         weight         40   27   15    9    5    3    1   packet-1 .. 7
 *
 *     a decay of about three fifths per card: a packet of one card 40% of
 *     the time, mean size 2.25.  The GSR riffle (algorithms/riffle.c)
 *     drops packets that are the runs of equal bits in a fair bit string,
 *     geometric with ratio 1/2 (one card half the time, mean 2); these are
 *     somewhat clumpier, as a person's packets are taken to be, with none
 *     longer than 7.  Packet sizes do not scale with the deck:
 *     a thumb lets go of a few cards whatever the deck's size.  Sizes of
 *     more cards than the hand holds merge into "all that is left"; when
 *     only one size is possible nothing is drawn; when one hand is empty
 *     the other drops the rest.
 *
 * Fair?  No.  Like any riffle it keeps the two packets in order, so after
 * k passes at most 2^k rising sequences remain (the GSR riffle is still
 * at total variation 0.334 from uniform after 7 passes of 52 cards, Bayer
 * & Diaconis 1992, Table 1), and its near-fixed cut and clumped packets
 * leave their own traces: at 52 cards, 10^5 samples of 7 passes show too
 * many fixed points and cards near their starting places.
 *
 * Exact law for 3 cards at 7 passes (6^7 = 279,936 paths: per pass the
 * cut is 1 card (weight 1 + 4 + 6 = 11 of 16) or 2 (5 of 16), a fair bit
 * picks the first hand, and the 2-card hand drops 1 card (40 of 100) or
 * both (60); deck ABC): ABC 229989596033849/1342177280000000 (0.171356),
 * ACB 1739473133827/10737418240000 (0.162001), BAC
 * 217434308901401/1342177280000000 (0.162001), BCA
 * 18395431526491/107374182400000 (0.171321), CAB
 * 91976934735087/536870912000000 (0.171320), CBA
 * 2717925030219/16777216000000 (0.162001); total-variation distance
 * exactly 2187/156250 = 0.013997.
 */
#include <stdio.h>
#include <string.h>

#include "shufflebias/markov.h"
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/riffle_core.h"

enum {
    P_PASSES,
    P_CUT,                  /* five cut weights, d = -2 .. +2 */
    P_PACKET = P_CUT + 5,   /* seven packet weights, sizes 1 .. 7 */
    P_COUNT = P_PACKET + 7
};

#define CUTS 5
#define SIZES 7
#define WEIGHT_MAX 1000000   /* keeps every sum of weights far from overflow */

static const sb_param_def params[] = {
    [P_PASSES] = SB_RIFFLE_PASSES_PARAM,
    [P_CUT + 0] = { "cut-low2", "weight of cutting 2 steps short of the "
                    "middle (24 of 52)", 1, 0, WEIGHT_MAX, NULL },
    [P_CUT + 1] = { "cut-low1", "weight of cutting 1 step short of the "
                    "middle (25 of 52)", 4, 0, WEIGHT_MAX, NULL },
    [P_CUT + 2] = { "cut-mid", "weight of cutting at the middle (26 of 52)",
                    6, 0, WEIGHT_MAX, NULL },
    [P_CUT + 3] = { "cut-high1", "weight of cutting 1 step past the middle "
                    "(27 of 52)", 4, 0, WEIGHT_MAX, NULL },
    [P_CUT + 4] = { "cut-high2", "weight of cutting 2 steps past the middle "
                    "(28 of 52)", 1, 0, WEIGHT_MAX, NULL },
    [P_PACKET + 0] = { "packet-1", "weight of a packet of 1 card",
                       40, 0, WEIGHT_MAX, NULL },
    [P_PACKET + 1] = { "packet-2", "weight of a packet of 2 cards",
                       27, 0, WEIGHT_MAX, NULL },
    [P_PACKET + 2] = { "packet-3", "weight of a packet of 3 cards",
                       15, 0, WEIGHT_MAX, NULL },
    [P_PACKET + 3] = { "packet-4", "weight of a packet of 4 cards",
                       9, 0, WEIGHT_MAX, NULL },
    [P_PACKET + 4] = { "packet-5", "weight of a packet of 5 cards",
                       5, 0, WEIGHT_MAX, NULL },
    [P_PACKET + 5] = { "packet-6", "weight of a packet of 6 cards",
                       3, 0, WEIGHT_MAX, NULL },
    [P_PACKET + 6] = { "packet-7", "weight of a packet of 7 cards",
                       1, 0, WEIGHT_MAX, NULL },
};

/* Weights given by hand (not through --param) are checked too: each in
   0..WEIGHT_MAX, and some cut and some packet size possible. */
static int check(const sb_shuffle_args *a, char *why, size_t len)
{
    long cut = 0, packet = 0;
    for (size_t i = P_CUT; i < P_COUNT; i++) {
        if (a->param[i] < 0 || a->param[i] > WEIGHT_MAX) {
            snprintf(why, len, "weight %s = %ld is outside "
                     "0..%d", params[i].name, a->param[i], WEIGHT_MAX);
            return SB_EINVAL;
        }
        if (i < P_PACKET)
            cut += a->param[i];
        else
            packet += a->param[i];
    }
    if (cut == 0 || packet == 0) {
        snprintf(why, len, "needs some nonzero %s weight",
                 cut == 0 ? "cut" : "packet");
        return SB_EINVAL;
    }
    return SB_OK;
}

static int init(void **state, const sb_shuffle_args *a)
{
    return sb_riffle_init(state, a->n, 0);
}

/* The cut: the distinct cuts with their pooled weights, one draw when
   there is more than one. */
static size_t draw_cut(const sb_shuffle_args *a, sb_src *src)
{
    const size_t n = a->n;
    const size_t r = (n + 26) / 52;                  /* round(n / 52) */
    const long f = r > 1 ? (long)r : 1;
    size_t cut[CUTS];
    uint64_t w[CUTS];
    size_t m = 0;
    for (long d = -2; d <= 2; d++) {
        const uint64_t weight = (uint64_t)a->param[P_CUT + 2 + d];
        if (weight == 0)
            continue;
        long c = (long)(n / 2) + d * f;
        c = c < 1 ? 1 : c > (long)n - 1 ? (long)n - 1 : c;
        /* The cuts grow with d, so equal ones are neighbours. */
        if (m > 0 && cut[m - 1] == (size_t)c) {
            w[m - 1] += weight;
        } else {
            cut[m] = (size_t)c;
            w[m++] = weight;
        }
    }
    return cut[m > 1 ? sb_weighted(src, w, m) : 0];
}

/* A packet from a hand holding 'left' cards: sizes of 'left' or more are
   one choice, "all that is left". */
static size_t draw_packet(const sb_shuffle_args *a, sb_src *src, size_t left)
{
    size_t size[SIZES];
    uint64_t w[SIZES];
    size_t m = 0;
    for (size_t s = 1; s <= SIZES; s++) {
        const uint64_t weight = (uint64_t)a->param[P_PACKET + s - 1];
        if (weight == 0)
            continue;
        const size_t take = s < left ? s : left;
        if (m > 0 && size[m - 1] == take) {
            w[m - 1] += weight;
        } else {
            size[m] = take;
            w[m++] = weight;
        }
    }
    return size[m > 1 ? sb_weighted(src, w, m) : 0];
}

static void pass(sb_riffle_state *st, const sb_shuffle_args *a, sb_src *src,
                 const sb_card *in, sb_card *out)
{
    (void)st;
    const size_t n = a->n;
    if (n < 2) {
        memcpy(out, in, n * sizeof *out);
        return;
    }
    const size_t c = draw_cut(a, src);
    /* Hand 0 holds the top packet in[0..c), hand 1 the bottom one
       in[c..n); left[h] cards remain in hand h, its bottom card at
       start[h] + left[h] - 1. */
    const size_t start[2] = { 0, c };
    size_t left[2] = { c, n - c };
    unsigned h = (unsigned)sb_bits(src, 1);
    size_t pos = n;   /* out[pos..n) is built */
    while (pos > 0) {
        if (left[h] > 0) {
            const size_t s = left[1 - h] == 0 ? left[h]
                           : draw_packet(a, src, left[h]);
            left[h] -= s;
            pos -= s;
            memcpy(out + pos, in + start[h] + left[h], s * sizeof *out);
        }
        h = 1 - h;
    }
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    sb_riffle_repeat(state, a, a->param[P_PASSES], src, out, pass);
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_human_packet = {
    .name = "human-packet",
    .summary = "a person's riffle: cut near the middle, packets of 1 to 7 "
               "cards falling from each hand in turn, 'passes' times",
    .source = "the riffle described in words in an essay on Aldous & "
              "Diaconis (1986); weights are a modelling choice",
    .bias = "Each pass keeps the two halves in order, cut near the middle, "
            "and drops clumps of cards, so a few passes leave the deck "
            "visibly ordered; the verdict depends on passes and weights.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .check = check,
    .init = init,
    .free = sb_riffle_free,
    .exact_hint = "passes=2",
    .run = run,
};

/* Markov in its deck: one pass per step. */
static int step(void *state, const sb_shuffle_args *a, size_t s, sb_src *src,
                sb_card *deck)
{
    (void)s;
    return sb_riffle_step(state, a, src, deck, pass);
}

const sb_markov sb_markov_human_packet = {
    .type = &sb_shuffle_human_packet,
    .steps = sb_riffle_passes_steps,
    .step = step,
};
