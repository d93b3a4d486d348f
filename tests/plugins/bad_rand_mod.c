/*
 * bad_rand_mod.c - plug-ins that call sb_rand_mod with arguments it
 * cannot take: a rand() of 64 bits ('rand-mod-64', which would shift past
 * the word when the weights are made), k = 0 ('rand-mod-0'), k above
 * 2^bits ('rand-mod-over': 1 bit, k = i + 1 up to n), and one that does
 * so only from its 20th sample since init ('rand-mod-late', past the
 * first samples tried before a run).  Each must end the run with exit 2
 * and a message, never undefined behaviour or a verdict.
 */
#include <stdlib.h>

#include <shufflebias/plugin.h>

/* Fisher-Yates with j = rand() % k, k given by 'bound' from i + 1. */
static void fy(const sb_shuffle_args *a, sb_src *src, sb_card *out,
               unsigned bits, uint64_t (*bound)(size_t i))
{
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = a->n - 1; i > 0; i--) {
        const uint64_t k = bound(i);
        size_t j = (size_t)sb_rand_mod(src, bits, k);
        if (j > i)
            j = i;          /* never out of the deck, whatever came */
        const sb_card t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

static uint64_t plus_one(size_t i) { return (uint64_t)i + 1; }
static uint64_t zero(size_t i) { (void)i; return 0; }

static int run64(void *state, const sb_shuffle_args *a, sb_src *src,
                 sb_card *out)
{
    (void)state;
    fy(a, src, out, 64, plus_one);
    return SB_OK;
}

static int run0(void *state, const sb_shuffle_args *a, sb_src *src,
                sb_card *out)
{
    (void)state;
    fy(a, src, out, 15, zero);
    return SB_OK;
}

static int run_over(void *state, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)state;
    fy(a, src, out, 1, plus_one);
    return SB_OK;
}

static int init(void **state, const sb_shuffle_args *a)
{
    (void)a;
    *state = calloc(1, sizeof(unsigned long));
    return *state ? SB_OK : SB_ENOMEM;
}

static int run_late(void *state, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    unsigned long *made = state;
    fy(a, src, out, ++*made >= 20 ? 64 : 15, plus_one);
    return SB_OK;
}

#define BAD(var, nm, fn, in, fr) \
    static const sb_shuffle_type var = { \
        .name = nm, .summary = "sb_rand_mod out of range", \
        .source = "test", .bias = "invalid draws", \
        .kind = SB_KIND_PERMUTATION, .n_min = 2, .n_max = 1000, \
        .init = in, .free = fr, .run = fn }

BAD(r64, "rand-mod-64", run64, NULL, NULL);
BAD(r0, "rand-mod-0", run0, NULL, NULL);
BAD(rover, "rand-mod-over", run_over, NULL, NULL);
BAD(rlate, "rand-mod-late", run_late, init, free);

SB_PLUGIN(&r64, &r0, &rover, &rlate)
