/*
 * no_symbol.c - a plug-in that forgot SB_PLUGIN: a shared object with a
 * perfectly good shuffle type and no 'shufflebias_plugin' symbol.  The
 * program must refuse it and say how to define the symbol.
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

/* Exported under another name, so that the object is not empty. */
__attribute__((visibility("default"))) extern const sb_shuffle_type
    forgotten_shuffle;
const sb_shuffle_type forgotten_shuffle = {
    .name = "forgotten", .summary = "identity", .source = "test",
    .bias = "never shuffles", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = SB_DECK_MAX, .run = run,
};
