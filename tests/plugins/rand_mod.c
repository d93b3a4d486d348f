/*
 * rand_mod.c - Fisher-Yates written with the C idiom j = rand() % (i + 1),
 * through sb_rand_mod: 'rand15-mod' on a 15-bit rand() (it is the
 * built-in fisher-yates-mod, and must have its exact law), 'rand31-mod'
 * on a 31-bit one.  Written as sb_bits(src, 15) % (i + 1) instead, exact
 * mode walked 2^15 branches per draw (2^30 paths at 3 cards); with
 * sb_rand_mod it walks i + 1.
 */
#include <shufflebias/plugin.h>

static void fy(const sb_shuffle_args *a, sb_src *src, sb_card *out,
               unsigned bits)
{
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = a->n - 1; i > 0; i--) {
        const size_t j = (size_t)sb_rand_mod(src, bits, i + 1);
        const sb_card t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

static int run15(void *state, const sb_shuffle_args *a, sb_src *src,
                 sb_card *out)
{
    (void)state;
    fy(a, src, out, 15);
    return SB_OK;
}

static int run31(void *state, const sb_shuffle_args *a, sb_src *src,
                 sb_card *out)
{
    (void)state;
    fy(a, src, out, 31);
    return SB_OK;
}

static const sb_shuffle_type r15 = {
    .name = "rand15-mod", .summary = "rand() % (i + 1), 15-bit rand",
    .source = "test", .bias = "modulo bias", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = 32768, .run = run15,
};

static const sb_shuffle_type r31 = {
    .name = "rand31-mod", .summary = "rand() % (i + 1), 31-bit rand",
    .source = "test", .bias = "modulo bias", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = SB_DECK_MAX, .run = run31,
};

SB_PLUGIN(&r15, &r31)
