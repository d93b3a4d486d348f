/*
 * bad_deal.c - deals of 4 hands that are not deals of 4 hands:
 * 'hand-9-of-4' names hand 9 for card 0 (it read past a statistic's table
 * before every sample was checked), 'all-in-hand-0' puts every card in
 * hand 0 (which exact mode called uniform).  Both draw through the
 * program.
 */
#include <shufflebias/plugin.h>

#include "fair_shuffle.h"

static unsigned four(const sb_shuffle_args *a)
{
    (void)a;
    return 4;
}

static int check(const sb_shuffle_args *a, char *why, size_t len)
{
    (void)why;
    (void)len;
    return a->n % 4 == 0 ? SB_OK : SB_EINVAL;
}

static int run_nine(void *state, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)state;
    sb_test_fair_shuffle(a, src, out, 4);   /* a fair deal */
    out[0] = 9;
    return SB_OK;
}

static int run_zero(void *state, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)state;
    sb_test_fair_shuffle(a, src, out, 4);   /* a fair deal */
    for (size_t i = 0; i < a->n; i++)
        out[i] = 0;
    return SB_OK;
}

static const sb_shuffle_type nine = {
    .name = "hand-9-of-4", .summary = "hand 9", .source = "test",
    .bias = "not a deal", .kind = SB_KIND_DEAL, .n_min = 4,
    .n_max = 4000, .check = check, .hands = four, .run = run_nine,
};

static const sb_shuffle_type zero = {
    .name = "all-in-hand-0", .summary = "every card in hand 0",
    .source = "test", .bias = "not a deal", .kind = SB_KIND_DEAL,
    .n_min = 4, .n_max = 4000, .check = check, .hands = four,
    .run = run_zero,
};

SB_PLUGIN(&nine, &zero)
