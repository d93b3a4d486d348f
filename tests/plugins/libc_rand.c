/*
 * libc_rand.c - code pasted from a program that shuffles with the C
 * library's rand(): the seed the program gives means nothing to it, two
 * runs with one seed differ, and exact mode saw a single path.  It must
 * be refused, with what to do instead.  'libc-rand' draws from rand()
 * alone (no draw from the program); 'below-plus-rand' draws through the
 * program too but adds rand() to it, so only making its samples again
 * from the same seed tells.
 */
#include <stdlib.h>

#include <shufflebias/plugin.h>

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    (void)src;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = a->n - 1; i > 0; i--) {
        const size_t j = (size_t)rand() % (i + 1);
        const sb_card t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return SB_OK;
}

static int run_mixed(void *state, const sb_shuffle_args *a, sb_src *src,
                     sb_card *out)
{
    (void)state;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = a->n - 1; i > 0; i--) {
        const size_t j = ((size_t)sb_below(src, i + 1) + (size_t)rand())
                       % (i + 1);
        const sb_card t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return SB_OK;
}

static const sb_shuffle_type mixed = {
    .name = "below-plus-rand", .summary = "sb_below plus rand()",
    .source = "test", .bias = "not only the program's randomness",
    .kind = SB_KIND_PERMUTATION, .n_min = 1, .n_max = SB_DECK_MAX,
    .run = run_mixed,
};

static const sb_shuffle_type libc = {
    .name = "libc-rand", .summary = "Fisher-Yates on rand()",
    .source = "test", .bias = "not the program's randomness",
    .kind = SB_KIND_PERMUTATION, .n_min = 1, .n_max = SB_DECK_MAX,
    .run = run,
};

SB_PLUGIN(&libc, &mixed)
