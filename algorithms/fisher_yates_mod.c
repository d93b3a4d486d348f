/*
 * fisher-yates-mod - Fisher-Yates with the index taken as rand() % (i+1).
 *
 * The classic C idiom j = rand() % (i + 1) on a 15-bit rand(): the 32768
 * values do not split evenly into i + 1 residues unless i + 1 divides 32768,
 * so the low residues come up more often.  Residue r of m = i + 1 has weight
 * floor(32768 / m) + (r < 32768 mod m): it is drawn with sb_weighted and
 * exactly those integer weights, so the modulo bias alone is modelled on
 * any randomness source, and exact mode walks m branches per draw instead
 * of 2^15.  (With the weak 'rand15' source the generator's own faults come
 * on top.)  Biased whenever some i + 1 <= n is not a power of two: for 52
 * cards the worst index (m = 52, 32768 = 630 * 52 + 8) makes residues 0..7
 * 631/630 as likely as the others.
 *
 * Exact bias for 3 cards (weights 10923, 10923, 10922 for the draw at
 * m = 3, 16384 and 16384 at m = 2; deck ABC): ABC 5461/32768, ACB
 * 10923/65536, BAC 5461/32768, BCA 10923/65536, CAB 10923/65536, CBA
 * 10923/65536 - two orders 1/98304 below 1/6, four 1/196608 above.
 *
 * Source: the rand() % n idiom, e.g. the C FAQ, question 13.16.
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

#define RAND_BITS 15u        /* a 15-bit rand(): RAND_MAX = 32767 */
#define RAND_VALUES 32768u

/* Scratch space for the m residue weights of one draw. */
static int init(void **state, const sb_shuffle_args *a)
{
    *state = malloc((a->n ? a->n : 1) * sizeof(uint64_t));
    return *state ? SB_OK : SB_ENOMEM;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    uint64_t *w = state;
    sb_deck_identity(out, a->n);
    for (size_t i = a->n; i-- > 1;) {
        const size_t m = i + 1;
        for (size_t r = 0; r < m; r++)
            w[r] = sb_rand_mod_weight(RAND_BITS, m, r);
        sb_deck_swap(out, i, sb_weighted(src, w, m));
    }
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
    .init = init,
    .free = free,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
};
