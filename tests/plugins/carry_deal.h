/*
 * carry_deal.h - a dealer that reuses the previous deal: 'carry-deal'.
 *
 * The first deal of a chunk comes from a full Fisher-Yates shuffle of the
 * deck; every later one takes the previous deal's order and makes 'swaps'
 * random transpositions (two positions drawn uniformly and independently,
 * so a swap may leave the deck as it was), then deals position p to hand
 * p mod H.  A uniform deck times any independent permutation is uniform,
 * so each deal alone is exactly a fair deal and every statistic of one
 * deal passes; but consecutive deals are steps of the random-transposition
 * walk, which needs about (n/2) log n steps to forget where it started
 * (P. Diaconis and M. Shahshahani, "Generating a random permutation with
 * random transpositions", Z. Wahrsch. Verw. Gebiete 57, 1981): after t
 * swaps a card is untouched with probability about exp(-2t/n), and an
 * untouched card stays in its hand.  At the default of 52 swaps for a
 * bridge deal (one per card), 13.5% of the cards are untouched, and each
 * hand keeps about 4.5 of its 13 cards where 3.25 are expected.
 *
 * Test-only, not a catalogue entry: its one flaw shows only across
 * samples, no published dealer is known to do exactly this, and the
 * literature is that of the walk, not of a dealer.  Shared by
 * tests/test_serial_deal.c (compiled in) and the plug-in
 * tests/plugins/carry_deal.c (for the command line and scripts/power).
 * Public headers only, so that both builds see the same code.
 */
#ifndef SB_TEST_CARRY_DEAL_H
#define SB_TEST_CARRY_DEAL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shufflebias/shuffle.h>
#include <shufflebias/status.h>

enum { CARRY_HANDS, CARRY_HAND_SIZE, CARRY_SWAPS, CARRY_N_PARAMS };

static const sb_param_def carry_deal_params[CARRY_N_PARAMS] = {
    [CARRY_HANDS] = { "hands", "number of hands", 4, 2, 65535, NULL },
    [CARRY_HAND_SIZE] = { "hand-size", "cards in each hand", 13, 1, 65535,
                          NULL },
    [CARRY_SWAPS] = { "swaps", "random transpositions between deals", 52, 0,
                      1000000, NULL },
};

typedef struct carry_deal_state {
    int fresh;            /* 1 at the start of a chunk: shuffle in full */
    sb_card deck[];       /* the previous deal's order */
} carry_deal_state;

static int carry_deal_init(void **state, const sb_shuffle_args *a)
{
    *state = calloc(1, sizeof(carry_deal_state) + a->n * sizeof(sb_card));
    return *state != NULL ? SB_OK : SB_ENOMEM;
}

static void carry_deal_reset(void *state, const sb_shuffle_args *a)
{
    carry_deal_state *st = state;
    for (size_t i = 0; i < a->n; i++)
        st->deck[i] = (sb_card)i;
    st->fresh = 1;
}

static void carry_deal_free(void *state)
{
    free(state);
}

static void carry_deal_swap(sb_card *d, size_t i, size_t j)
{
    const sb_card t = d[i];
    d[i] = d[j];
    d[j] = t;
}

static int carry_deal_run(void *state, const sb_shuffle_args *a, sb_src *src,
                          sb_card *out)
{
    carry_deal_state *st = state;
    const size_t n = a->n, H = (size_t)a->param[CARRY_HANDS];
    if (st->fresh) {
        for (size_t i = n - 1; i > 0; i--)
            carry_deal_swap(st->deck, i, (size_t)sb_below(src, i + 1));
        st->fresh = 0;
    } else {
        for (long k = 0; k < a->param[CARRY_SWAPS]; k++) {
            const size_t i = (size_t)sb_below(src, n);
            carry_deal_swap(st->deck, i, (size_t)sb_below(src, n));
        }
    }
    for (size_t p = 0; p < n; p++)
        out[st->deck[p]] = (sb_card)(p % H);
    return SB_OK;
}

static int carry_deal_check(const sb_shuffle_args *a, char *why, size_t len)
{
    if ((size_t)a->param[CARRY_HANDS] * (size_t)a->param[CARRY_HAND_SIZE]
        == a->n)
        return SB_OK;
    snprintf(why, len, "deals %ld hands of %ld cards: n must be %ld",
             a->param[CARRY_HANDS], a->param[CARRY_HAND_SIZE],
             a->param[CARRY_HANDS] * a->param[CARRY_HAND_SIZE]);
    return SB_EINVAL;
}

static unsigned carry_deal_hands(const sb_shuffle_args *a)
{
    return (unsigned)a->param[CARRY_HANDS];
}

static const sb_shuffle_type carry_deal = {
    .name = "carry-deal",
    .summary = "the previous deal's order with a few random transpositions",
    .source = "test only (Diaconis and Shahshahani 1981, the walk)",
    .bias = "each deal uniform, consecutive deals share many cards per hand",
    .kind = SB_KIND_DEAL,
    .literature = SB_LIT_BIASED,
    .n_min = 2,
    .n_max = 65535,
    .params = carry_deal_params,
    .n_params = CARRY_N_PARAMS,
    .check = carry_deal_check,
    .hands = carry_deal_hands,
    .init = carry_deal_init,
    .reset = carry_deal_reset,
    .free = carry_deal_free,
    .run = carry_deal_run,
};

#endif /* SB_TEST_CARRY_DEAL_H */
