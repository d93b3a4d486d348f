/*
 * test_markov.c - exact mode by the states of a shuffle Markov in its
 * deck (src/engine/markov.c), against the walk over every path and
 * against the rising-sequence law.
 *
 * The walk over paths (src/engine/enumerate.c) was checked on its own
 * against published figures (tests/test_exact.c); the walk over states
 * must give the same report to the last fraction and path count for
 * every built-in that declares itself Markov.  The GSR riffle's law is
 * checked a second way, against Bayer and Diaconis's closed form
 * (stats/gsr_law.c, itself checked by brute force in test_gsr_law.c), at
 * pass counts whose paths no walk over paths could take.
 */
#include "tests/sb_test.h"

#include <gmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "engine/enumerate.h"
#include "engine/markov.h"
#include "shufflebias/status.h"
#include "stats/exact.h"
#include "stats/gsr_law.h"

static void args_of(const sb_shuffle_type *t, size_t n, const char *param,
                    sb_shuffle_args *a)
{
    memset(a, 0, sizeof *a);
    a->n = n;
    sb_shuffle_defaults(t, a);
    if (param)
        assert_int_equal(sb_shuffle_set_param(t, a, param), SB_OK);
}

static int walk(const sb_shuffle_type *t, size_t n, const char *param,
                int states, sb_markov_stats *st, sb_exact_report *rep,
                char *err, size_t len)
{
    sb_enum_config cfg = {
        .alg = t,
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .markov = states ? sb_markov_builtin(t) : NULL,
        .merged = st,
    };
    args_of(t, n, param, &cfg.args);
    return sb_enumerate(&cfg, rep, err, len);
}

/* The two reports agree on everything the walk decides. */
static void assert_same(const sb_exact_report *a, const sb_exact_report *b)
{
    assert_int_equal(a->paths, b->paths);
    assert_int_equal(a->n_outcomes, b->n_outcomes);
    assert_int_equal(a->equal_weights, b->equal_weights);
    if (a->path_weight || b->path_weight)
        assert_string_equal(a->path_weight, b->path_weight);
    assert_string_equal(a->tv, b->tv);
    assert_int_equal(a->verdict, b->verdict);
    assert_int_equal(a->n_levels, b->n_levels);
    for (size_t i = 0; i < a->n_outcomes; i++) {
        assert_memory_equal(a->outcomes[i].sample, b->outcomes[i].sample,
                            a->len * sizeof *a->outcomes[i].sample);
        assert_string_equal(a->outcomes[i].fraction,
                            b->outcomes[i].fraction);
        assert_int_equal(a->outcomes[i].paths, b->outcomes[i].paths);
    }
    assert_int_equal(a->rows, b->rows);
    for (size_t i = 0; a->matrix && i < a->rows * a->cols; i++)
        assert_string_equal(a->matrix[i], b->matrix[i]);
}

static void compare(const sb_shuffle_type *t, size_t n, const char *param)
{
    sb_exact_report by_paths, by_states;
    sb_markov_stats st;
    char err[512];
    assert_int_equal(walk(t, n, param, 0, NULL, &by_paths, err, sizeof err),
                     SB_OK);
    int rc = walk(t, n, param, 1, &st, &by_states, err, sizeof err);
    if (rc != SB_OK)
        print_error("%s: %s\n", t->name, err);
    assert_int_equal(rc, SB_OK);
    /* It did walk by states, and the paths they stand for are all. */
    assert_true(st.moves > 0);
    assert_int_equal(st.paths, by_paths.paths);
    assert_same(&by_paths, &by_states);
    sb_exact_report_release(&by_paths);
    sb_exact_report_release(&by_states);
}

/* Every built-in that says it is Markov, at several sizes and passes. */
static void states_equal_paths(void **state)
{
    (void)state;
    for (const sb_markov *const *m = sb_markov_types; *m; m++) {
        const sb_shuffle_type *t = (*m)->type;
        const int passes = t->n_params > 0
                        && strcmp(t->params[0].name, "passes") == 0;
        for (size_t n = 1; n <= 5; n++) {
            if (n < t->n_min)
                continue;
            if (!passes) {
                compare(t, n, NULL);
                continue;
            }
            compare(t, n, "passes=1");
            if (n <= 4)
                compare(t, n, "passes=3");
        }
    }
    /* The 7-card naive swap: 823,543 paths into 5,040 decks. */
    compare(&sb_shuffle_naive_swap, 7, NULL);
}

/* run() draws what the steps draw: the same seed makes the same deck. */
static void steps_are_run(void **state)
{
    (void)state;
    for (const sb_markov *const *m = sb_markov_types; *m; m++) {
        const sb_shuffle_type *t = (*m)->type;
        sb_shuffle_args a;
        args_of(t, 52, NULL, &a);
        void *st = NULL;
        if (t->init)
            assert_int_equal(t->init(&st, &a), SB_OK);
        for (uint64_t seed = 1; seed <= 20; seed++) {
            sb_rng *r1, *r2;
            sb_src s1, s2;
            assert_int_equal(sb_rng_open(&r1, "xoshiro256", seed), SB_OK);
            assert_int_equal(sb_rng_open(&r2, "xoshiro256", seed), SB_OK);
            assert_int_equal(sb_rng_chunk(r1, 0, &s1), SB_OK);
            assert_int_equal(sb_rng_chunk(r2, 0, &s2), SB_OK);
            sb_card ran[52], stepped[52];
            if (t->reset)
                t->reset(st, &a);
            assert_int_equal(t->run(st, &a, &s1, ran), SB_OK);
            for (size_t i = 0; i < 52; i++)
                stepped[i] = (sb_card)i;
            const size_t steps = (*m)->steps(&a);
            for (size_t s = 0; s < steps; s++) {
                if (t->reset)
                    t->reset(st, &a);
                assert_int_equal((*m)->step(st, &a, s, &s2, stepped), SB_OK);
            }
            assert_memory_equal(ran, stepped, sizeof ran);
            /* And no draw more or less: the next words agree. */
            assert_int_equal(sb_bits(&s1, 32), sb_bits(&s2, 32));
            sb_rng_close(r1);
            sb_rng_close(r2);
        }
        if (st && t->free)
            t->free(st);
    }
}

/* The GSR riffle by states, against the rising-sequence law: n = 5 after
   up to 16 passes (2^80 paths; the weights leave a machine word at the
   13th pass, where the walk goes on in GMP integers), n = 17 (decks
   keyed by their rank, beyond 16 cards) after one. */
typedef struct law_ctx {
    sb_gsr_law *law;
    unsigned checked;
} law_ctx;

static int against_law(void *ctx, size_t steps, const sb_markov_law *law)
{
    law_ctx *c = ctx;
    mpq_t tv, sep, want_tv, want_sep;
    mpq_inits(tv, sep, want_tv, want_sep, NULL);
    sb_markov_law_distances(law, tv, sep);
    assert_int_equal(sb_gsr_law_distances(c->law, (unsigned)steps, want_tv,
                                          want_sep, NULL), SB_OK);
    assert_true(mpq_equal(tv, want_tv));
    assert_true(mpq_equal(sep, want_sep));
    mpq_clears(tv, sep, want_tv, want_sep, NULL);
    c->checked++;
    return SB_OK;
}

static void riffle_by_states_is_the_law(void **state)
{
    (void)state;
    const struct { size_t n; unsigned passes; } cases[] = {
        { 5, 16 }, { 6, 8 }, { 17, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        law_ctx c = { NULL, 0 };
        assert_int_equal(sb_gsr_law_new(&c.law, cases[i].n, NULL), SB_OK);
        for (int inverse = 0; inverse < 2; inverse++) {
            const sb_shuffle_type *t = inverse ? &sb_shuffle_inverse_riffle
                                               : &sb_shuffle_riffle;
            char param[32];
            snprintf(param, sizeof param, "passes=%u", cases[i].passes);
            sb_enum_config cfg = { .alg = t, .max_paths = UINT64_MAX };
            args_of(t, cases[i].n, param, &cfg.args);
            sb_shape shape;
            sb_shuffle_shape(t, &cfg.args, &shape);
            char err[512];
            c.checked = 0;
            assert_int_equal(sb_markov_walk(&cfg, sb_markov_builtin(t),
                                            &shape, against_law, &c, NULL,
                                            NULL, err, sizeof err), SB_OK);
            assert_int_equal(c.checked, cases[i].passes);
        }
        sb_gsr_law_free(c.law);
    }
}

/* The distances of the law after the last step, read by the observer. */
typedef struct last_law {
    mpq_t tv, sep;
    size_t steps;
} last_law;

static int read_last(void *ctx, size_t steps, const sb_markov_law *law)
{
    last_law *last = ctx;
    sb_markov_law_distances(law, last->tv, last->sep);
    last->steps = steps;
    return SB_OK;
}

/* The distances of a law against their definitions over every order of
   the path walk's report: naive swap at 4 cards, 256 paths over 24. */
static void distances_by_definition(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&sb_shuffle_naive_swap, 4, NULL, 0, NULL, &rep,
                          err, sizeof err), SB_OK);
    assert_int_equal(rep.n_outcomes, 24);
    mpq_t tv, least, p, u, sep;
    mpq_inits(tv, least, p, u, sep, NULL);
    mpq_set_ui(u, 1, 24);
    for (size_t i = 0; i < rep.n_outcomes; i++) {
        assert_int_equal(mpq_set_str(p, rep.outcomes[i].fraction, 10), 0);
        mpq_canonicalize(p);
        if (i == 0 || mpq_cmp(p, least) < 0)
            mpq_set(least, p);
        mpq_sub(p, p, u);
        if (mpq_sgn(p) > 0)
            mpq_add(tv, tv, p);
    }
    /* separation = 1 - 24 min P */
    mpq_set_ui(p, 24, 1);
    mpq_mul(sep, least, p);
    mpq_set_ui(p, 1, 1);
    mpq_sub(sep, p, sep);

    sb_enum_config cfg = { .alg = &sb_shuffle_naive_swap,
                           .max_paths = UINT64_MAX };
    args_of(&sb_shuffle_naive_swap, 4, NULL, &cfg.args);
    sb_shape shape;
    sb_shuffle_shape(&sb_shuffle_naive_swap, &cfg.args, &shape);
    last_law last = { .steps = 0 };
    mpq_inits(last.tv, last.sep, NULL);
    assert_int_equal(sb_markov_walk(&cfg, &sb_markov_naive_swap, &shape,
                                    read_last, &last, NULL, NULL, err,
                                    sizeof err), SB_OK);
    assert_int_equal(last.steps, 4);
    assert_true(mpq_equal(last.tv, tv));
    assert_true(mpq_equal(last.sep, sep));
    char *s = mpq_get_str(NULL, 10, last.tv);
    assert_string_equal(s, rep.tv);
    free(s);
    mpq_clears(tv, least, p, u, sep, last.tv, last.sep, NULL);
    sb_exact_report_release(&rep);
}

/* Refusals before the walk, and limits during it. */
static void budgets_and_refusals(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[512];
    sb_enum_config cfg = { .alg = &sb_shuffle_naive_swap, .max_paths = 1000,
                           .option_advice = 1 };
    args_of(&sb_shuffle_naive_swap, 6, NULL, &cfg.args);
    sb_shape shape;
    sb_shuffle_shape(cfg.alg, &cfg.args, &shape);
    /* 6 x (1 + 6 + 36 + 216) + 6 x 720 x 2 = 10,194 moves. */
    assert_int_equal(sb_markov_moves_bound(&cfg, &sb_markov_naive_swap),
                     10194);
    assert_int_equal(sb_markov_walk(&cfg, &sb_markov_naive_swap, &shape,
                                    NULL, NULL, &rep, NULL, err, sizeof err),
                     SB_ERANGE);
    assert_non_null(strstr(err, "takes up to 10194 moves"));
    /* A memory budget too small for 6! decks is refused before. */
    cfg.max_paths = UINT64_MAX;
    cfg.memory = 4096;
    assert_int_equal(sb_markov_walk(&cfg, &sb_markov_naive_swap, &shape,
                                    NULL, NULL, &rep, NULL, err, sizeof err),
                     SB_ERANGE);
    assert_non_null(strstr(err, "over the budget of"));
    /* More cards than a key holds, and a deal, cannot be walked so. */
    sb_shape big = shape;
    big.n = big.len = 21;
    assert_non_null(sb_markov_refusal(&sb_markov_naive_swap, &big));
    assert_null(sb_markov_refusal(&sb_markov_naive_swap, &shape));
    assert_non_null(sb_markov_refusal(NULL, &shape));
    /* An interrupted walk reports that it is partial. */
    volatile sig_atomic_t stop = 1;
    cfg.memory = 0;
    cfg.stop = &stop;
    assert_int_equal(sb_markov_walk(&cfg, &sb_markov_naive_swap, &shape,
                                    NULL, NULL, &rep, NULL, err, sizeof err),
                     SB_OK);
    assert_true(rep.partial);
    assert_true(rep.summary_only);
    sb_exact_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(states_equal_paths),
        cmocka_unit_test(steps_are_run),
        cmocka_unit_test(riffle_by_states_is_the_law),
        cmocka_unit_test(distances_by_definition),
        cmocka_unit_test(budgets_and_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
