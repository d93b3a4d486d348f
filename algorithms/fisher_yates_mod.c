/*
 * fisher-yates-mod - Fisher-Yates with the index taken as rand() % (i+1).
 *
 * The classic C idiom j = rand() % (i + 1) on a 15-bit rand(): the 32768
 * values do not split evenly into i + 1 residues unless i + 1 divides 32768,
 * so the low residues come up more often.  Residue r of m = i + 1 has weight
 * floor(32768 / m) + (r < 32768 mod m).  Each index is one sb_rand_mod
 * draw: sampling draws the 15-bit rand() value and reduces it % m, which
 * is the idiom itself (on the weak 'rand15' source, exactly the program's
 * rand() % (i + 1), the generator's own faults on top of the modulo
 * bias), while exact mode walks the m residues with those integer weights
 * instead of the 2^15 values.  Biased whenever some i + 1 <= n is not a
 * power of two: for 52 cards the worst index (m = 52, 32768 = 630 * 52 +
 * 8) makes residues 0..7 631/630 as likely as the others.
 *
 * Exact bias for 3 cards (weights 10923, 10923, 10922 for the draw at
 * m = 3, 16384 and 16384 at m = 2; deck ABC): ABC 5461/32768, ACB
 * 10923/65536, BAC 5461/32768, BCA 10923/65536, CAB 10923/65536, CBA
 * 10923/65536 - two orders 1/98304 below 1/6, four 1/196608 above.
 *
 * Source: the rand() % n idiom, e.g. the C FAQ, question 13.16.
 */
#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

#define RAND_BITS 15u        /* a 15-bit rand(): RAND_MAX = 32767 */
#define RAND_VALUES 32768u

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t i = a->n; i-- > 1;)
        sb_deck_swap(out, i, (size_t)sb_rand_mod(src, RAND_BITS, i + 1));
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_fisher_yates_mod = {
    .name = "fisher-yates-mod",
    .summary = "Fisher-Yates drawing j = rand15() % (i+1): the modulo bias "
               "of a 15-bit rand()",
    .source = "the rand() % n idiom; C FAQ 13.16",
    .bias = "A 15-bit rand() reduced with % m favours the low residues whenever"
            " m does not divide 32768, so some orders are slightly more likely.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = RAND_VALUES,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
