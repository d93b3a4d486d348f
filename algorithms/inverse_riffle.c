/*
 * inverse-riffle - the inverse GSR riffle, 'passes' times.
 *
 * Each pass gives every card a fair bit (the card at position i gets bit
 * i of an n-bit string) and slides the 0-cards out, keeping their order,
 * on top of the 1-cards.  With the same string this is the inverse
 * permutation of the forward riffle (algorithms/riffle.c): the forward
 * riffle sends the k-th card of the top packet to the k-th 0 position,
 * the inverse brings the card at the k-th 0 position back to place k.
 * It is the walk Aldous & Diaconis analyse ("Shuffling cards and stopping
 * times", Amer. Math. Monthly 93(5), 1986): after k passes every card
 * carries a k-bit label and the deck is sorted stably by label.
 *
 * Fair?  No, at any fixed number of passes, and exactly as far from
 * uniform as the forward riffle: k inverse passes give the deck pi with
 * the probability k forward riffles give pi^-1 (Bayer & Diaconis 1992,
 * Ann. Appl. Probab. 2(2)): C(2^k + n - r, n) / 2^(kn), r the number of
 * rising sequences of pi^-1 (one more than the descents of pi).
 *
 * Exact law for 3 cards at 7 passes (2^21 paths, deck ABC): the inverse
 * of every order of three cards has as many rising sequences as the order
 * itself, so the table is the forward riffle's: ABC 2795/16384, ACB BAC
 * BCA CAB 5461/32768 each, CBA 2667/16384.  At 4 cards they differ:
 * one forward riffle gives CADB (two rising sequences, AB and CD) with
 * probability 1/16, one inverse pass never does, since its inverse BDAC
 * has three (A, BC, D).
 */
#include "shufflebias/markov.h"
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"
#include "algorithms/riffle_core.h"

enum { P_PASSES };

static const sb_param_def params[] = {
    [P_PASSES] = SB_RIFFLE_PASSES_PARAM,
};

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    sb_riffle_repeat(state, a, a->param[P_PASSES], src, out,
                     sb_riffle_pass_inverse);
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_inverse_riffle = {
    .name = "inverse-riffle",
    .summary = "inverse GSR riffle, 'passes' times: each card gets a fair "
               "bit and the 0-cards go on top, in order",
    .source = "Aldous & Diaconis, Amer. Math. Monthly 93(5), 1986; Bayer & "
              "Diaconis, Ann. Appl. Probab. 2(2), 1992",
    .bias = "k passes give each order the probability k forward riffles "
            "give its inverse, so it is exactly as far from uniform; the "
            "verdict depends on passes: 7 leave 52 cards at total "
            "variation 0.334.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .init = sb_riffle_init_passes,
    .free = sb_riffle_free,
    .exact_paths = sb_riffle_passes_paths,
    .exact_hint = "passes=2",
    .run = run,
};

/* Markov in its deck: one riffle per step. */
static int step(void *state, const sb_shuffle_args *a, size_t s, sb_src *src,
                sb_card *deck)
{
    (void)s;
    return sb_riffle_step(state, a, src, deck, sb_riffle_pass_inverse);
}

const sb_markov sb_markov_inverse_riffle = {
    .type = &sb_shuffle_inverse_riffle,
    .steps = sb_riffle_passes_steps,
    .step = step,
};
