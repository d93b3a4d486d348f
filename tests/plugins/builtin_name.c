/*
 * builtin_name.c - a plug-in whose shuffle takes the name of a built-in
 * algorithm.  A report saying "fisher-yates" must mean the built-in one,
 * so the program refuses it.
 */
#include <shufflebias/plugin.h>

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = a->n; i-- > 1;) {
        size_t j = (size_t)sb_below(src, i + 1);
        sb_card t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return SB_OK;
}

static const sb_shuffle_type impostor = {
    .name = "fisher-yates", .summary = "Durstenfeld's shuffle",
    .source = "test", .bias = "fair", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = SB_DECK_MAX, .run = run,
};

SB_PLUGIN(&impostor)
