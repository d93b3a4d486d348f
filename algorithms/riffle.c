/*
 * riffle - the Gilbert-Shannon-Reeds riffle shuffle, 'passes' times.
 *
 * The GSR model of one riffle: cut the deck after a Binomial(n, 1/2)
 * number of cards, then drop cards one at a time from the bottoms of the
 * two packets, from each with probability proportional to the cards it
 * still holds.  It is made here in its equivalent bit-string form
 * (Aldous & Diaconis 1986; Bayer & Diaconis 1992): n uniform bits, one per
 * position of the result; the number of 0s is the cut, and position i
 * takes the next card of the top packet when bit i is 0, of the bottom
 * packet when it is 1.  Why the two agree: the number of 0s among n fair
 * bits is Binomial(n, 1/2), and given c of them, every arrangement of the
 * c 0s among the n places is equally likely, 1 / C(n, c).  Dropping with
 * probability proportional to packet size gives each interleaving of the
 * two packets the probability c! (n-c)! / n! = 1 / C(n, c) as well (the
 * numerators multiply to c! (n-c)!, the denominators to n!), and an
 * interleaving is exactly the set of places the top packet's cards land.
 * A string is drawn as one sb_bits(src, n) draw for n <= 64 (words of 64
 * bits beyond), so exact mode walks 2^n branches per pass: 8 at n = 3,
 * 8^7 = 2,097,152 paths at the default 7 passes.
 *
 * Fair?  No, at any fixed number of passes: after k riffles the deck is a
 * product of at most 2^k rising sequences, and Bayer & Diaconis ("Trailing
 * the dovetail shuffle to its lair", Ann. Appl. Probab. 2(2), 1992) give
 * its law in closed form: P(pi) = C(2^k + n - r, n) / 2^(kn), r the number
 * of rising sequences of pi.  For 52 cards the total-variation distance
 * from uniform is 0.334 after 7 riffles (their Table 1); it roughly
 * halves with every further riffle, but never reaches 0.  GSR is a model
 * of a real riffle, so this is the bias seven careful riffles are
 * expected to leave, not a programming mistake; riffle-until-uniform
 * shows how to stop at a time that removes it.
 *
 * Exact law for 3 cards at 7 passes (2^21 equally likely paths, deck ABC;
 * r = 1 for ABC, 3 for CBA, 2 for the rest): ABC C(130,3)/2^21 =
 * 2795/16384, ACB BAC BCA CAB C(129,3)/2^21 = 5461/32768 each, CBA
 * C(128,3)/2^21 = 2667/16384; total-variation distance 193/49152.  After
 * one pass: ABC 1/2, the four others 1/8, CBA never.
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
                     sb_riffle_pass_forward);
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_riffle = {
    .name = "riffle",
    .summary = "Gilbert-Shannon-Reeds riffle shuffle, 'passes' times (n "
               "fair bits per pass: the 0s are the cut and where the top "
               "packet falls)",
    .source = "Gilbert-Shannon-Reeds model; Bayer & Diaconis, Ann. Appl. "
              "Probab. 2(2), 1992",
    .bias = "After k riffles the deck is made of at most 2^k rising "
            "sequences, and orders with fewer of them are likelier "
            "(C(2^k+n-r, n)/2^(kn)); the verdict depends on passes: 7 leave "
            "52 cards at total variation 0.334 from uniform.",
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
    return sb_riffle_step(state, a, src, deck, sb_riffle_pass_forward);
}

const sb_markov sb_markov_riffle = {
    .type = &sb_shuffle_riffle,
    .steps = sb_riffle_passes_steps,
    .step = step,
};
