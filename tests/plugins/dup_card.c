/*
 * dup_card.c - plug-ins whose samples are not permutations: a card
 * written twice.  'dup-always' does it on every sample (out[0] =
 * out[1]), 'dup-from-17' only from its 17th sample on, after sixteen good
 * ones, 'dup-rarely' on about one sample in 2^17, chosen by a draw (so
 * that which sample it is follows from the seed alone).  Each draws through the program like a fair shuffle, so only the
 * check of every sample can tell; before it, a statistic indexed a table
 * with the missing card's count and crashed, and exact mode called such
 * a shuffle uniform.
 */
#include <stdlib.h>

#include <shufflebias/plugin.h>

#include "fair_shuffle.h"

static int run_always(void *state, const sb_shuffle_args *a, sb_src *src,
                      sb_card *out)
{
    (void)state;
    sb_test_fair_shuffle(a, src, out, 0);
    out[0] = out[1];
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
        out[0] = out[1];
    return SB_OK;
}

static int run_rarely(void *state, const sb_shuffle_args *a, sb_src *src,
                      sb_card *out)
{
    (void)state;
    sb_test_fair_shuffle(a, src, out, 0);
    if (sb_below(src, 1u << 17) == 0)
        out[0] = out[1];
    return SB_OK;
}

static const sb_shuffle_type always = {
    .name = "dup-always", .summary = "a card twice", .source = "test",
    .bias = "not a permutation", .kind = SB_KIND_PERMUTATION,
    .n_min = 2, .n_max = SB_DECK_MAX, .run = run_always,
};

static const sb_shuffle_type from_17 = {
    .name = "dup-from-17", .summary = "a card twice from sample 17",
    .source = "test", .bias = "not a permutation",
    .kind = SB_KIND_PERMUTATION, .n_min = 2, .n_max = SB_DECK_MAX,
    .init = init, .free = free, .run = run_from_17,
};

static const sb_shuffle_type rarely = {
    .name = "dup-rarely", .summary = "a card twice, now and then",
    .source = "test", .bias = "not a permutation",
    .kind = SB_KIND_PERMUTATION, .n_min = 2, .n_max = SB_DECK_MAX,
    .run = run_rarely,
};

SB_PLUGIN(&always, &from_17, &rarely)
