/*
 * riffle-until-uniform-forward - the stopping rule checked in the wrong
 * order.
 *
 * The same as riffle-until-uniform (GSR riffles b_1, b_2, ..., stopping
 * when the inverse walk gives every card a distinct label), except that
 * the inverse riffles are replayed in the order the riffles were made,
 * b_1 first and b_t last, instead of b_t first and b_1 last.  It is the
 * tempting version: the check can go on from where it was, one inverse
 * step per riffle, with no replay.  But that walk's deck is not the
 * inverse of the deck the forward riffles made, so its labels being
 * distinct says nothing about the forward deck being uniform.  The essay
 * this comes from ("Seven riffle shuffles is not enough - except when it
 * is", the Possibly Wrong blog, 2020, on Aldous & Diaconis, "Shuffling
 * cards and stopping times", Amer. Math. Monthly 93(5), 1986) warns that
 * without the reversal "the resulting distribution of possible
 * arrangements is observably non-uniform".
 *
 * Fair?  No.  The number of riffles has the same law as the correct
 * rule's (both walks are inverse walks with independent strings), but it
 * is the wrong riffles' labels that decide when to stop, and the stop
 * favours some forward decks.
 *
 * Exact bias for 3 cards.  Walked to exact_depth = 9 riffles, with
 * P(T > 9) = 767/131072 left unexplored (deck ABC): ABC 159429/1048576,
 * ACB and BAC 420039/2097152 each, BCA and CAB 361791/2097152 each, CBA
 * 101181/1048576.  ACB alone is already 1.2 times 1/6, so the walk proves
 * the bias whatever the unexplored mass holds.  The complete law, from
 * the absorbing Markov chain on (forward deck, label groups of the
 * walk): ABC 11/72, ACB 29/144, BAC 29/144, BCA 25/144, CAB 25/144,
 * CBA 7/72; total-variation distance 1/12 - the reversed deck CBA comes
 * up 0.58 times as often as it should.
 */
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/riffle_core.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    sb_riffle_until(state, a, src, out, SB_RIFFLE_FORWARD);
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_riffle_until_uniform_forward = {
    .name = "riffle-until-uniform-forward",
    .summary = "GSR riffles until the inverse walk, replayed in the order "
               "drawn (not reversed), gives distinct labels",
    .source = "the mistake warned of in an essay on Aldous & Diaconis, "
              "Amer. Math. Monthly 93(5), 1986",
    .bias = "The stopping check replays the inverse riffles in the wrong "
            "order, so it stops on a walk unrelated to the deck dealt; some "
            "orders come up too often.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .init = sb_riffle_init_until,
    .free = sb_riffle_free,
    .exact_depth = SB_RIFFLE_UNTIL_DEPTH,
    .exact_paths = sb_riffle_until_paths,
    .tally_name = "passes",
    .tally = sb_riffle_tally,
    .run = run,
};
