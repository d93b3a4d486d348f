/*
 * fy_code.c - 'fy-code': the draws backward Fisher-Yates would have made.
 *
 * What it sees: every deck is the output of exactly one sequence of draws
 * of Durstenfeld's loop (algorithms/fisher_yates.c: for i = n-1 down to
 * 1, swap positions i and j_i, j_i drawn from 0..i), recovered from the
 * deck in O(n) (stats/fy_draws.c).  A shuffle whose draws are biased
 * shows its bias there undiluted, one draw at a time: the modulo bias of
 * rand() % (i+1), which 'position' spreads over n^2 cells
 * ('fisher-yates-mod' fails here at a few million decks of 52 where
 * 'position' needs about 10^8), an off-by-one bound (Sattolo's 0..i-1
 * never draws i), a floating-point scaling that skips values.  Biases of
 * other kinds (a riffle, a sort) show too, as the draws they amount to.
 *
 * The null, exactly: for a uniform deck the n - 1 draws are independent
 * and the draw from 0..m-1 is uniform, for m = 2..n, whatever algorithm
 * made the deck: the map from draws to decks is a bijection onto the n!
 * decks (proof in stats/fy_draws.c, checked by enumeration in
 * tests/test_fy_code.c).  Subtests, combined by Bonferroni as the
 * hand-wise statistics do, p = min(1, T p_min):
 *  - per-draw fit: the exact-split statistic of the pooled laws
 *    (stats/gof.c) of each draw's counts against uniform, pooled from
 *    the low end to 5 expected per group, summed over the draws:
 *    chi-square(n(n-1)/2) when nothing is pooled (from 5n decks);
 *  - the mean of the draws: their summed deviation from (m-1)/2, over
 *    its exact null s.d., two-sided, 1 df;
 *  - the low residues: for each B = 8..32 (distinct residue patterns
 *    only), the excess of the draws below 2^B mod m that rand() % m
 *    makes on a B-bit generator, its score test, one-sided, 1 df, with a
 *    saddlepoint tail.
 * T = 2 + 25 for 3 <= n <= 256 (the B with the same residues as a
 * smaller B are left out: fewer for n = 3..5, 2 for n = 2, where no
 * residue is favoured).
 *
 * The effect is the worst subtest's max(0, (X^2 - df) / N) per deck; the
 * detectable effect is the per-draw fit's chi-square distance per deck at
 * fail_alpha / T, and the words add up to how many bits rand() % m is
 * caught.
 *
 * Memory: n(n+1)/2 - 1 counts of 64 bits (10 KiB at 52 cards, 64 MiB at
 * the limit n = 4096, the bound of 'position' and 'serial').
 */
#include "stats/fy_draws.h"
#include "stats/registry.h"

static int fy_code_alloc(void **acc, const sb_shape *shape)
{
    return sb_fy_alloc(acc, shape, &sb_stat_fy_code, 0);
}

const sb_stat_type sb_stat_fy_code = {
    .name = "fy-code",
    .sees = "the draws backward Fisher-Yates would have made to produce "
            "each deck: their laws, their mean, an excess of low values "
            "(rand() % m)",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 2,
    .n_max = SB_FY_N_MAX,
    .alloc = fy_code_alloc,
    .add = sb_fy_add_backward,
    .merge = sb_fy_merge,
    .finalize = sb_fy_finalize,
    .free = sb_fy_free,
    .save = sb_fy_save,
    .load = sb_fy_load,
    .memory = sb_fy_memory,
};
