/*
 * markov_steps.c - plug-ins that say they are Markov in their deck
 * (SB_PLUGIN_MARKOV): 'swap-all', the naive swap, whose steps keep the
 * promise, and 'swap-liar', whose steps swap with the mirror of the card
 * its run() swaps with, and 'swap-spill', whose steps write a card past
 * the end of the deck: exact mode must refuse to walk either by its
 * states.  'top-swap' has passes: each swaps the top card with one
 * drawn from the whole deck, for 'shufflebias mixing --plugin'.
 */
#include <shufflebias/plugin.h>

static size_t steps(const sb_shuffle_args *a)
{
    return a->n;
}

static void swap(sb_card *d, size_t i, size_t j)
{
    const sb_card t = d[i];
    d[i] = d[j];
    d[j] = t;
}

static int step(void *state, const sb_shuffle_args *a, size_t i,
                sb_src *src, sb_card *deck)
{
    (void)state;
    swap(deck, i, (size_t)sb_below(src, a->n));
    return SB_OK;
}

static int lying_step(void *state, const sb_shuffle_args *a, size_t i,
                      sb_src *src, sb_card *deck)
{
    (void)state;
    swap(deck, i, a->n - 1 - (size_t)sb_below(src, a->n));
    return SB_OK;
}

static int spilling_step(void *state, const sb_shuffle_args *a, size_t i,
                         sb_src *src, sb_card *deck)
{
    step(state, a, i, src, deck);
    deck[a->n] = 0;
    return SB_OK;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (size_t i = 0; i < a->n; i++)
        step(state, a, i, src, out);
    return SB_OK;
}

static const sb_shuffle_type swap_all = {
    .name = "swap-all", .summary = "naive swap, Markov in its deck",
    .source = "test", .bias = "n^n paths", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = 64, .run = run,
};

static const sb_shuffle_type swap_liar = {
    .name = "swap-liar", .summary = "naive swap whose steps are not its run",
    .source = "test", .bias = "n^n paths", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = 64, .run = run,
};

static const sb_shuffle_type swap_spill = {
    .name = "swap-spill", .summary = "naive swap whose steps spill",
    .source = "test", .bias = "n^n paths", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = 64, .run = run,
};

static const sb_markov swap_spill_steps = {
    .type = &swap_spill, .steps = steps, .step = spilling_step,
};

static const sb_markov swap_all_steps = {
    .type = &swap_all, .steps = steps, .step = step,
};

static const sb_markov swap_liar_steps = {
    .type = &swap_liar, .steps = steps, .step = lying_step,
};

static const sb_param_def top_params[] = {
    { "passes", "top swaps in a row", 3, 1, 1000, NULL },
};

static size_t top_steps(const sb_shuffle_args *a)
{
    return (size_t)a->param[0];
}

static int top_step(void *state, const sb_shuffle_args *a, size_t i,
                    sb_src *src, sb_card *deck)
{
    (void)state;
    (void)i;
    swap(deck, 0, (size_t)sb_below(src, a->n));
    return SB_OK;
}

static int top_run(void *state, const sb_shuffle_args *a, sb_src *src,
                   sb_card *out)
{
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    for (long p = 0; p < a->param[0]; p++)
        top_step(state, a, (size_t)p, src, out);
    return SB_OK;
}

static const sb_shuffle_type top_swap = {
    .name = "top-swap", .summary = "the top card swapped, 'passes' times",
    .source = "test", .bias = "slow", .kind = SB_KIND_PERMUTATION,
    .n_min = 1, .n_max = 64, .params = top_params, .n_params = 1,
    .run = top_run,
};

static const sb_markov top_swap_steps = {
    .type = &top_swap, .steps = top_steps, .step = top_step,
};

SB_PLUGIN(&swap_all, &swap_liar, &swap_spill, &top_swap)
SB_PLUGIN_MARKOV(&swap_all_steps, &swap_liar_steps, &swap_spill_steps,
                 &top_swap_steps)
