/*
 * past_end.c - a plug-in that writes one value past the end of its
 * sample: a fair shuffle of n cards followed by out[n], every time
 * ('past-the-end', caught while the program first tries it) or from its
 * 17th sample since init on ('past-the-end-from-17', caught in the run).
 * It cannot be stopped in-process; the guard words after its buffer must
 * catch it.
 */
#include <stdlib.h>

#include <shufflebias/plugin.h>

#include "fair_shuffle.h"

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_test_fair_shuffle(a, src, out, 0);
    out[a->n] = 0;    /* the bug: one past the end */
    return SB_OK;
}

/* The state counts the samples made since init. */
static int init(void **state, const sb_shuffle_args *a)
{
    (void)a;
    *state = calloc(1, sizeof(unsigned long));
    return *state ? SB_OK : SB_ENOMEM;
}

static int run_from_17(void *state, const sb_shuffle_args *a, sb_src *src,
                       sb_card *out)
{
    unsigned long *made = state;
    sb_test_fair_shuffle(a, src, out, 0);
    if (++*made >= 17)
        out[a->n] = 0;
    return SB_OK;
}

static const sb_shuffle_type past = {
    .name = "past-the-end", .summary = "writes n + 1 values",
    .source = "test", .bias = "overruns its buffer",
    .kind = SB_KIND_PERMUTATION, .n_min = 2, .n_max = SB_DECK_MAX,
    .run = run,
};

static const sb_shuffle_type past_17 = {
    .name = "past-the-end-from-17", .summary = "writes n + 1 values",
    .source = "test", .bias = "overruns its buffer",
    .kind = SB_KIND_PERMUTATION, .n_min = 2, .n_max = SB_DECK_MAX,
    .init = init, .free = free, .run = run_from_17,
};

SB_PLUGIN(&past, &past_17)
