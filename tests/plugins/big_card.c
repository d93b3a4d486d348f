/*
 * big_card.c - a plug-in that writes card 65535 (the largest sb_card) in
 * a deck of n cards; before every sample was checked, the position
 * statistic indexed its table with it and crashed.
 */
#include <shufflebias/plugin.h>

#include "fair_shuffle.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_test_fair_shuffle(a, src, out, 0);
    out[a->n - 1] = 65535;
    return SB_OK;
}

static const sb_shuffle_type big = {
    .name = "card-65535", .summary = "card 65535", .source = "test",
    .bias = "not a permutation", .kind = SB_KIND_PERMUTATION,
    .n_min = 2, .n_max = 1000, .run = run,
};

SB_PLUGIN(&big)
