/*
 * run_error.c - a plug-in whose run() returns an error (SB_EINVAL) at its
 * 20th sample since init, after nineteen fair ones.  The error must blame
 * the plug-in - its path, its name, the sample, the status - not the
 * randomness source.
 */
#include <stdlib.h>

#include <shufflebias/plugin.h>

#include "fair_shuffle.h"

static int init(void **state, const sb_shuffle_args *a)
{
    (void)a;
    *state = calloc(1, sizeof(unsigned long));
    return *state ? SB_OK : SB_ENOMEM;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    unsigned long *made = state;
    if (++*made == 20)
        return SB_EINVAL;
    sb_test_fair_shuffle(a, src, out, 0);
    return SB_OK;
}

static const sb_shuffle_type failing = {
    .name = "fails-at-20", .summary = "an error at sample 20",
    .source = "test", .bias = "fails", .kind = SB_KIND_PERMUTATION,
    .n_min = 2, .n_max = SB_DECK_MAX, .init = init, .free = free,
    .run = run,
};

SB_PLUGIN(&failing)
