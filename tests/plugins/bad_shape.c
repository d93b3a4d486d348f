/*
 * bad_shape.c - plug-ins that declare samples no deck can have:
 * 'no-hands' a deal whose hands() is 0 (a run of it judged nothing and
 * exited 0), 'too-many-hands' a deal of n + 1 hands, 'empty-draw' a draw
 * whose sample_len is 0 and 'huge-draw' one whose sample_len is 2^40
 * (reported as "out of memory").  Each must be refused before it runs.
 */
#include <shufflebias/plugin.h>

static unsigned zero(const sb_shuffle_args *a)
{
    (void)a;
    return 0;
}

static unsigned n_plus_one(const sb_shuffle_args *a)
{
    return (unsigned)a->n + 1;
}

static size_t len_zero(const sb_shuffle_args *a)
{
    (void)a;
    return 0;
}

static size_t len_huge(const sb_shuffle_args *a)
{
    (void)a;
    return (size_t)1 << 40;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)sb_below(src, a->n);
    return SB_OK;
}

static const sb_shuffle_type no_hands = {
    .name = "no-hands", .summary = "zero hands", .source = "test",
    .bias = "no deal", .kind = SB_KIND_DEAL, .n_min = 1,
    .n_max = SB_DECK_MAX, .hands = zero, .run = run,
};

static const sb_shuffle_type many_hands = {
    .name = "too-many-hands", .summary = "n + 1 hands", .source = "test",
    .bias = "no deal", .kind = SB_KIND_DEAL, .n_min = 1,
    .n_max = 1000, .hands = n_plus_one, .run = run,
};

static const sb_shuffle_type empty = {
    .name = "empty-draw", .summary = "draws 0 cards", .source = "test",
    .bias = "no draw", .kind = SB_KIND_DRAW, .n_min = 1,
    .n_max = SB_DECK_MAX, .sample_len = len_zero, .run = run,
};

static const sb_shuffle_type huge = {
    .name = "huge-draw", .summary = "draws 2^40 cards", .source = "test",
    .bias = "no draw", .kind = SB_KIND_DRAW, .n_min = 1,
    .n_max = SB_DECK_MAX, .sample_len = len_huge, .run = run,
};

SB_PLUGIN(&no_hands, &many_hands, &empty, &huge)
