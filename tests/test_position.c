/*
 * test_position.c - the position statistic (stats/position.c): card x
 * position counts.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "tests/sb_stats.h"

#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "stats/registry.h"

/* ---- position --------------------------------------------------------- */

/* Every permutation of 4 exactly once: every card at every position
   exactly 3! = 6 times, X^2 = 0, p = 1. */
static void test_position_all_perms(void **state)
{
    (void)state;
    sb_card all[24 * 4], a[4] = { 0, 1, 2, 3 };
    size_t i = 0;
    do
        memcpy(all + 4 * i++, a, sizeof a);
    while (next_perm(a, 4));
    sb_result r;
    run_stat(&sb_stat_position, 4, all, 24, &r);
    assert_true(r.applicable);
    assert_close(r.statistic, 0.0, 0);
    assert_close(r.df, 9.0, 0);
    assert_close(r.p_value, 1.0, 0);
    assert_int_equal(r.table.rows, 4);
    assert_int_equal(r.table.cols, 4);
    for (size_t c = 0; c < 16; c++) {
        assert_close(r.table.observed[c], 6.0, 0);
        assert_close(r.table.expected[c], 6.0, 0);
    }
    assert_close(r.effect, 0.0, 0);
    assert_true(r.detectable > 0);
    /* 24/4 = 6 expected per cell: no warning about small expectations. */
    assert_null(strstr(r.note, "rough"));
    sb_result_clear(&r);
}

/* The identity, 1000 times: card c always at position c.  The p-value is
   far below the double range. */
static void test_position_identity(void **state)
{
    (void)state;
    enum { N = 52, S = 1000 };
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    for (size_t i = 0; i < S; i++)
        for (size_t j = 0; j < N; j++)
            s[i * N + j] = (sb_card)j;
    sb_result r;
    run_stat(&sb_stat_position, N, s, S, &r);
    assert_true(r.applicable);
    assert_int_equal(r.p_underflow, 1);
    assert_close(r.p_value, 0.0, 0);
    assert_close(r.df, 51.0 * 51.0, 0);
    /* 1000/52 = 19.2 expected: (1000 - 19.2) / 19.2 = +5100%. */
    assert_string_equal(r.effect_desc,
                        "card 0 at position 0: 5100% more often than uniform");
    assert_true(r.effect > r.detectable);
    free(s);
    sb_result_clear(&r);
}

/* Orientation: rows are cards, columns positions.  The deck (2 0 1) ten
   times puts card 2 at position 0, card 0 at 1 and card 1 at 2. */
static void test_position_orientation(void **state)
{
    (void)state;
    sb_card s[10 * 3];
    for (size_t i = 0; i < 10; i++) {
        s[3 * i] = 2;
        s[3 * i + 1] = 0;
        s[3 * i + 2] = 1;
    }
    sb_result r;
    run_stat(&sb_stat_position, 3, s, 10, &r);
    for (size_t card = 0; card < 3; card++)
        for (size_t pos = 0; pos < 3; pos++) {
            const int hit = (card == 2 && pos == 0) || (card == 0 && pos == 1)
                            || (card == 1 && pos == 2);
            assert_close(r.table.observed[card * 3 + pos], hit ? 10.0 : 0.0,
                         0);
        }
    /* 10 against 10/3 expected: +200%. */
    assert_string_equal(r.effect_desc,
                        "card 2 at position 0: 200% more often than uniform");
    sb_result_clear(&r);
}

/* The mean claim (DESIGN.md): the plain X^2 has mean n(n-1) = 20 for n = 5,
   the scaled one (n-1)^2 = 16.  400 repetitions of N = 1000 uniform decks:
   the scaled statistic is close to chi-square(16), SD sqrt(32) = 5.66, so
   the mean of 400 has SD 0.28; the plain one SD 0.28 * 5/4 = 0.35.
   The plain X^2 is counted in the test itself, not taken from the code.
   Tolerances 1.5 (5.3 SD) and 1.8 (5.1 SD): false alarm below 1e-6 over
   random seeds, while 16 and 20 are 4 apart, so the test cannot confuse
   them. */
static void test_position_mean(void **state)
{
    (void)state;
    enum { N = 5, S = 1000, REPS = 400 };
    uint64_t seed = 0x5eed0001ull;
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    double plain = 0, scaled = 0, scaled_sq = 0;
    for (int rep = 0; rep < REPS; rep++) {
        for (size_t i = 0; i < S; i++)
            xs_deck(&seed, s + i * N, N);
        /* The plain X^2, counted here independently of stats/position.c. */
        double count[N][N] = { { 0 } }, x2 = 0;
        for (size_t i = 0; i < S; i++)
            for (size_t j = 0; j < N; j++)
                count[s[i * N + j]][j]++;
        for (size_t c = 0; c < N; c++)
            for (size_t j = 0; j < N; j++)
                x2 += (count[c][j] - (double)S / N)
                      * (count[c][j] - (double)S / N) / ((double)S / N);
        sb_result r;
        run_stat(&sb_stat_position, N, s, S, &r);
        assert_close(r.statistic, x2 * (N - 1) / N, 1e-12);
        plain += x2;
        scaled += r.statistic;
        scaled_sq += r.statistic * r.statistic;
        sb_result_clear(&r);
    }
    free(s);
    plain /= REPS;
    scaled /= REPS;
    const double var = (scaled_sq - REPS * scaled * scaled) / (REPS - 1);
    assert_true(fabs(plain - 20.0) < 1.8);
    assert_true(fabs(scaled - 16.0) < 1.5);
    /* chi-square(16) has variance 32; the sample variance of 400 values
       has SD about 2.7 (excess kurtosis 0.75), so +-12 is 4.5 SD (false
       alarm ~1e-5), and the unscaled X^2 (variance 32 * 25/16 = 50) would
       fall outside it. */
    assert_true(fabs(var - 32.0) < 12.0);
}

/* Above 1024 cards the matrix is kept too (it used not to be): 2048
   cards, 2048 decks each the identity shifted by its number, so that
   every card meets every position exactly once.  An accumulator that
   counted nothing but is told N samples, as the plan of --effect asks,
   keeps no table: it would only spend 64 MiB here. */
static void test_position_large_deck_keeps_its_matrix(void **state)
{
    (void)state;
    enum { N = 2048 };
    sb_card *s = malloc(sizeof *s * N * N);
    assert_non_null(s);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            s[i * N + j] = (sb_card)((i + j) % N);
    sb_result r;
    run_stat(&sb_stat_position, N, s, N, &r);
    free(s);
    assert_true(r.applicable);
    assert_int_equal(r.table.rows, N);
    assert_int_equal(r.table.cols, N);
    for (size_t c = 0; c < (size_t)N * N; c += 4099)
        assert_close(r.table.observed[c], 1.0, 0);
    assert_null(strstr(r.note, "not kept"));
    sb_result_clear(&r);

    const sb_shape shape = { SB_KIND_PERMUTATION, N, N, 0 };
    void *acc;
    assert_int_equal(sb_stat_position.alloc(&acc, &shape), SB_OK);
    assert_int_equal(sb_stat_position.finalize(acc, 100000, 1e-6, &r),
                     SB_OK);
    assert_true(r.applicable);
    assert_true(r.detectable > 0);
    assert_int_equal(r.table.cols, 0);
    assert_null(r.table.observed);
    sb_result_clear(&r);
    sb_stat_position.free(acc);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position_all_perms),
        cmocka_unit_test(test_position_identity),
        cmocka_unit_test(test_position_orientation),
        cmocka_unit_test(test_position_mean),
        cmocka_unit_test(test_position_large_deck_keeps_its_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
