/*
 * no_draws.c - a "shuffle" that makes no draw at all: it always writes
 * the deck reversed.  Its results are the same for every seed; it must
 * be refused rather than tested or enumerated as a shuffle.
 */
#include <shufflebias/plugin.h>

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    (void)src;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)(a->n - 1 - i);
    return SB_OK;
}

static const sb_shuffle_type none = {
    .name = "reverse-only", .summary = "the deck reversed",
    .source = "test", .bias = "no randomness", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = SB_DECK_MAX, .run = run,
};

SB_PLUGIN(&none)
