/* deal.c - the parameters and checks every deal shares (deal.h). */
#include "algorithms/deal.h"

#include <stdio.h>

#include "shufflebias/status.h"

const sb_param_def sb_deal_params[SB_DEAL_N_PARAMS] = {
    [SB_DEAL_HANDS] = { "hands", "number of hands", 4, 1, SB_DECK_MAX, NULL },
    [SB_DEAL_HAND_SIZE] = { "hand-size", "cards in each hand", 13, 1,
                            SB_DECK_MAX, NULL },
};

int sb_deal_check(const sb_shuffle_args *a, char *why, size_t len)
{
    const long h = a->param[SB_DEAL_HANDS], s = a->param[SB_DEAL_HAND_SIZE];
    if ((unsigned long long)h * (unsigned long long)s == a->n)
        return SB_OK;
    snprintf(why, len, "deals %ld hands of %ld cards = %lld cards, but n is "
             "%zu: give --n %lld, or --param hands=H --param hand-size=S with "
             "H x S = %zu", h, s,
             (long long)h * s, a->n, (long long)h * s, a->n);
    return SB_EINVAL;
}

void sb_deal_fit(sb_shuffle_args *a)
{
    const int halves = a->n >= 4 && a->n % 2 == 0;
    a->param[SB_DEAL_HANDS] = halves ? 2 : (long)a->n;
    a->param[SB_DEAL_HAND_SIZE] = halves ? (long)a->n / 2 : 1;
}

unsigned sb_deal_hands(const sb_shuffle_args *a)
{
    return (unsigned)a->param[SB_DEAL_HANDS];
}
