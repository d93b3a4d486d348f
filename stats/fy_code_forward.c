/*
 * fy_code_forward.c - 'fy-code-forward': the draws forward Fisher-Yates
 * would have made.
 *
 * What it sees: the same as 'fy-code' (stats/fy_code.c), for the loop
 * from the front (algorithms/fisher_yates_forward.c: for i = 0 up to
 * n-2, swap positions i and i + j_i, j_i drawn from 0..n-1-i).  A biased
 * draw of that loop (rand() % (n - i), an off-by-one bound) shows in this
 * code, where the backward code sees it only mixed with the other draws.
 *
 * The null, exactly: for a uniform deck these n - 1 draws, too, are
 * independent and the draw from 0..m-1 uniform, m = 2..n, whatever made
 * the deck (the bijection of stats/fy_draws.c, run from the front;
 * tests/test_fy_code.c enumerates it).  The subtests, their degrees of
 * freedom, the effect and the detectable effect are those of 'fy-code'.
 *
 * Memory: n(n+1)/2 - 1 counts of 64 bits, n <= 4096.
 */
#include "stats/fy_draws.h"
#include "stats/registry.h"

static int fy_code_forward_alloc(void **acc, const sb_shape *shape)
{
    return sb_fy_alloc(acc, shape, &sb_stat_fy_code_forward, 1);
}

const sb_stat_type sb_stat_fy_code_forward = {
    .name = "fy-code-forward",
    .sees = "the draws forward Fisher-Yates would have made to produce "
            "each deck: their laws, their mean, an excess of low values "
            "(rand() % m)",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = 2,
    .n_max = SB_FY_N_MAX,
    .alloc = fy_code_forward_alloc,
    .add = sb_fy_add_forward,
    .merge = sb_fy_merge,
    .finalize = sb_fy_finalize,
    .free = sb_fy_free,
    .save = sb_fy_save,
    .load = sb_fy_load,
    .memory = sb_fy_memory,
};
