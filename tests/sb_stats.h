/*
 * sb_stats.h - what the tests of the statistics share: sample shapes, a
 * statistic run over samples in one go, and fair samples of every kind
 * drawn with the tests' own generator (tests/sb_sample.h).
 */
#ifndef SB_TESTS_STATS_H
#define SB_TESTS_STATS_H

#include "sb_test.h"
#include "tests/sb_sample.h"

#include <stdlib.h>
#include <string.h>
#include "shufflebias/stat.h"
#include "shufflebias/status.h"

static inline sb_shape perm_shape(size_t n)
{
    sb_shape s = { SB_KIND_PERMUTATION, n, n, 0 };
    return s;
}

static inline sb_shape deal_shape(size_t n, unsigned hands)
{
    sb_shape s = { SB_KIND_DEAL, n, n, hands };
    return s;
}

static inline sb_shape draw_shape(size_t n, size_t k)
{
    sb_shape s = { SB_KIND_DRAW, n, k, 0 };
    return s;
}

/* Accumulate 'samples' (count x shape->len values) with 't' and
   finalize. */
static inline void run_shaped(const sb_stat_type *t, const sb_shape *shape,
                              const sb_card *samples, size_t count,
                              sb_result *res)
{
    void *acc;
    assert_int_equal(t->alloc(&acc, shape), SB_OK);
    t->add(acc, samples, count);
    assert_int_equal(t->finalize(acc, count, 1e-6, res), SB_OK);
    t->free(acc);
}

/* The same for permutations of n cards. */
static inline void run_stat(const sb_stat_type *t, size_t n,
                            const sb_card *samples, size_t count,
                            sb_result *res)
{
    sb_shape shape = perm_shape(n);
    run_shaped(t, &shape, samples, count, res);
}

/* The largest deck the fair samplers below take. */
#define FAIR_N_MAX 64

/* 'count' fair samples of shape 'sh' from 'seed', sh->len values each:
   a uniform deck (Fisher-Yates) for a permutation; for a deal, the card at
   position p of a uniform deck goes to hand p mod H (every hand gets n/H
   cards, and every split is equally likely); for a draw, the first k
   cards of a uniform deck. */
static inline void fair_samples(const sb_shape *sh, uint64_t *seed,
                                sb_card *out, size_t count)
{
    sb_card deck[FAIR_N_MAX];
    assert_true(sh->n <= FAIR_N_MAX);
    for (size_t i = 0; i < count; i++, out += sh->len) {
        xs_deck(seed, deck, sh->n);
        if (sh->kind == SB_KIND_DEAL)
            for (size_t p = 0; p < sh->n; p++)
                out[deck[p]] = (sb_card)(p % sh->hands);
        else
            memcpy(out, deck, sh->len * sizeof *deck);
    }
}

/* 'count' fair samples of shape 'sh' from 'seed' in a new array (free
   it). */
static inline sb_card *fair_block(const sb_shape *sh, uint64_t *seed,
                                  size_t count)
{
    sb_card *s = malloc(sizeof *s * sh->len * count);
    assert_non_null(s);
    fair_samples(sh, seed, s, count);
    return s;
}

#endif /* SB_TESTS_STATS_H */
