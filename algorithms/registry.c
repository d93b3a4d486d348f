/* registry.c - the table of built-in shuffles and their parameters. */
#include "algorithms/registry.h"

#include <string.h>

#include "base/rng.h"

const sb_shuffle_type *const sb_shuffle_types[] = {
    /* permutations: the fair ones, their famous mistakes, the riffles */
    &sb_shuffle_fisher_yates,
    &sb_shuffle_fisher_yates_forward,
    &sb_shuffle_draw_and_fill,
    &sb_shuffle_strike_out,
    &sb_shuffle_shift_select,
    &sb_shuffle_gsl_shuffle,
    &sb_shuffle_naive_swap,
    &sb_shuffle_sattolo,
    &sb_shuffle_sort_random_keys,
    &sb_shuffle_sort_random_comparator,
    &sb_shuffle_fisher_yates_mod,
    &sb_shuffle_riffle,
    &sb_shuffle_inverse_riffle,
    &sb_shuffle_riffle_until_uniform,
    &sb_shuffle_riffle_until_uniform_forward,
    &sb_shuffle_human_packet,
    &sb_shuffle_overhand,
    /* draws */
    &sb_shuffle_partial_deal,
    /* deals */
    &sb_shuffle_deal_fisher_yates,
    &sb_shuffle_deal_bitmask,
    &sb_shuffle_deal_weighted_hand,
    &sb_shuffle_deal_random_hand,
    NULL
};

const sb_markov *const sb_markov_types[] = {
    &sb_markov_naive_swap,
    &sb_markov_riffle,
    &sb_markov_inverse_riffle,
    &sb_markov_human_packet,
    &sb_markov_overhand,
    NULL
};

const sb_markov *sb_markov_builtin(const sb_shuffle_type *t)
{
    for (const sb_markov *const *m = sb_markov_types; *m; m++)
        if ((*m)->type == t)
            return *m;
    return NULL;
}

const sb_shuffle_type *sb_shuffle_find(const char *name)
{
    for (const sb_shuffle_type *const *t = sb_shuffle_types; *t; t++)
        if (strcmp((*t)->name, name) == 0)
            return *t;
    return NULL;
}

/* Version 2 made the Fisher-Yates family's draws in batches; version 3
   made sb_rand_mod draw the rand() value and reduce it on every source
   that samples (it had drawn the residue with its weights, which exact
   mode alone needs): that changed the samples of fisher-yates-mod on
   every source, and those of a plug-in drawing sb_rand_mod on any source
   but the built-in generator (which already drew the value).  Whether a
   plug-in calls it cannot be known, so all plug-in runs there moved.
   Version 4 made the linear congruential generators and reseed32:NAME
   random access (src/base/rng.h): a run of more than one chunk on them
   draws other words, whatever its algorithm. */
int sb_stream_version(const char *algorithm, int plugin, const char *rng)
{
    if (!algorithm)
        return 2;
    if (rng && strcmp(rng, SB_RNG_DEFAULT) != 0
        && sb_rng_name_random_access(rng))
        return 4;
    if (plugin)
        return !rng || strcmp(rng, SB_RNG_DEFAULT) == 0 ? 2 : 3;
    return strcmp(algorithm, sb_shuffle_fisher_yates_mod.name) == 0 ? 3 : 2;
}
