/*
 * bad_type.c - a plug-in whose second shuffle has an impossible deck
 * range (n_min above n_max).  The program must refuse the whole plug-in,
 * naming the shuffle and the field, before running any of it.
 */
#include <shufflebias/plugin.h>

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    (void)src;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    return SB_OK;
}

static const sb_shuffle_type good = {
    .name = "good-identity", .summary = "identity", .source = "test",
    .bias = "never shuffles", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = SB_DECK_MAX, .run = run,
};

static const sb_shuffle_type bad = {
    .name = "bad-range", .summary = "identity", .source = "test",
    .bias = "never shuffles", .kind = SB_KIND_PERMUTATION,
    .n_min = 10, .n_max = 5, .run = run,
};

SB_PLUGIN(&good, &bad)
