/*
 * test_card_groups.c - the card x group statistics: card-hand
 * (stats/card_hand.c) and card-slot (stats/card_slot.c), against a plain
 * X^2 counted here.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "tests/sb_stats.h"

#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "stats/gof.h"
#include "stats/registry.h"

/* ---- card-hand and card-slot ------------------------------------------ */

/* 'r' is an applicable result of 'name' whose table is rows x cols,
   observed 'want' (row by row) and expected expect[g] in column g. */
static void assert_table(const sb_result *r, const char *name, size_t rows,
                         size_t cols, const double *want,
                         const double *expect)
{
    assert_true(r->applicable);
    assert_string_equal(r->name, name);
    assert_int_equal(r->table.rows, rows);
    assert_int_equal(r->table.cols, cols);
    for (size_t c = 0; c < rows; c++)
        for (size_t g = 0; g < cols; g++) {
            assert_close(r->table.observed[c * cols + g], want[c * cols + g],
                         0);
            assert_close(r->table.expected[c * cols + g], expect[g], 0);
        }
}

/* The plain X^2 of a card x group table, counted here independently of
   stats/: card x hand for a deal (S/H expected per cell); card x slot for
   a draw (S/n per slot) plus, when k < n, the cards not drawn, counted
   directly (S(n-k)/n expected). */
static double plain_groups_x2(const sb_shape *sh, const sb_card *s,
                              size_t count)
{
    const size_t n = sh->n, k = sh->len;
    const int deal = sh->kind == SB_KIND_DEAL;
    const size_t cols = deal ? sh->hands : k + (k < n);
    double *o = calloc(n * cols, sizeof *o);
    assert_non_null(o);
    assert_true(n <= FAIR_N_MAX);
    for (size_t i = 0; i < count; i++, s += k) {
        int drawn[FAIR_N_MAX] = { 0 };
        for (size_t j = 0; j < k; j++) {
            if (deal) {
                o[j * cols + s[j]]++;
            } else {
                o[s[j] * cols + j]++;
                drawn[s[j]] = 1;
            }
        }
        if (!deal && k < n)
            for (size_t c = 0; c < n; c++)
                o[c * cols + k] += !drawn[c];
    }
    const double S = (double)count;
    double x2 = 0;
    for (size_t c = 0; c < n; c++)
        for (size_t g = 0; g < cols; g++) {
            const double e = deal ? S / (double)sh->hands
                             : g < k ? S / (double)n
                                     : S * (double)(n - k) / (double)n;
            x2 += (o[c * cols + g] - e) * (o[c * cols + g] - e) / e;
        }
    free(o);
    return x2;
}

/* The correction by simulation (the derivation is in stats/gof.c).  Over
   fair samples, the plain X^2 of a card x group table with G groups has
   mean n(G-1) exactly, and the scaled X^2 (n-1)/n is close to
   chi-square(df), df = (n-1)(G-1): mean df, variance 2 df.  'reps' runs of
   'per_run' fair samples each: every run's statistic must equal the plain
   X^2 counted here times (n-1)/n, and the mean of the runs must be within
   5 SD of df (SD sqrt(2 df / reps), the mean of 200 or more runs being
   close to normal), the plain mean within 5 SD (n/(n-1) times larger) of
   n(G-1).  Two-sided 5 SD: false alarm 5.7e-7 per check over random
   seeds.  The two means are df/(n-1) = G-1 apart; the test asserts that
   each tolerance plus 3 SD is less than that, so a missing correction, or
   one applied twice, fails with probability above 0.998. */
static void groups_mean(const sb_stat_type *t, const sb_shape *sh,
                        size_t per_run, int reps, uint64_t seed, double df)
{
    const double n = (double)sh->n;
    const double plain_mean = df * n / (n - 1.0);
    const double sd = sqrt(2.0 * df / reps), sd_plain = sd * n / (n - 1.0);
    assert_true(8.0 * sd < plain_mean - df);
    assert_true(8.0 * sd_plain < plain_mean - df);

    sb_card *s = malloc(sizeof *s * sh->len * per_run);
    assert_non_null(s);
    double plain = 0, scaled = 0;
    for (int rep = 0; rep < reps; rep++) {
        fair_samples(sh, &seed, s, per_run);
        const double x2 = plain_groups_x2(sh, s, per_run);
        sb_result r;
        run_shaped(t, sh, s, per_run, &r);
        assert_true(r.applicable);
        assert_close(r.df, df, 0);
        assert_close(r.statistic, x2 * (n - 1.0) / n, 1e-12);
        plain += x2;
        scaled += r.statistic;
        sb_result_clear(&r);
    }
    free(s);
    plain /= reps;
    scaled /= reps;
    assert_true(fabs(scaled - df) < 5.0 * sd);
    assert_true(fabs(plain - plain_mean) < 5.0 * sd_plain);
}

/* card x hand: 8 cards in 2 hands (df 7, plain mean 8: only 1 apart, so
   1200 runs, SD of the mean 0.11, 0.12 for the plain one) and 12 cards in
   4 hands (df 33, plain mean 36; 600 runs, SD 0.33 and 0.36). */
static void test_card_hand_mean(void **state)
{
    (void)state;
    sb_shape d8 = deal_shape(8, 2), d12 = deal_shape(12, 4);
    groups_mean(&sb_stat_card_hand, &d8, 500, 1200, 0x5eed2001ull, 7.0);
    groups_mean(&sb_stat_card_hand, &d12, 1000, 600, 0x5eed2002ull, 33.0);
}

/* card x slot: 3 cards drawn from 10 (df (n-1)k = 27, plain mean 30; 500
   runs, SD of the mean 0.33 and 0.37), and all 10 (no not-drawn column:
   df (n-1)^2 = 81, plain mean 90; 200 runs, SD 0.90 and 1.0). */
static void test_card_slot_mean(void **state)
{
    (void)state;
    sb_shape k3 = draw_shape(10, 3), k10 = draw_shape(10, 10);
    groups_mean(&sb_stat_card_slot, &k3, 1000, 500, 0x5eed2003ull, 27.0);
    groups_mean(&sb_stat_card_slot, &k10, 1000, 200, 0x5eed2004ull, 81.0);
}

/* Four deals of 4 cards into 2 hands of 2, written out (hand of cards
   0, 1, 2, 3):
       0 0 1 1,  0 1 0 1,  0 0 1 1,  1 1 0 0.
   Card 0 is in hand 0 three times and hand 1 once; card 1 2 and 2; card 2
   2 and 2; card 3 once and three times.  Each cell expects 4/2 = 2, so
   X^2 = (1 + 1 + 0 + 0 + 0 + 0 + 1 + 1) / 2 = 2, the scaled value
   2 * 3/4 = 1.5 on (4-1)(2-1) = 3 df, and the plain mean n(H-1) = 4.
   For 3 df the chi-square tail has the closed form Q(x) = erfc(sqrt(x/2))
   + sqrt(2x/pi) exp(-x/2) (Abramowitz and Stegun, section 26.4):
   Q(1.5) = 0.68227.  The largest
   cell contributions, 1/2 each, are card 0 in hand 0 (found first), card 0
   in hand 1, and card 3 in both: 3 against 2 is +50%. */
static void test_card_hand_by_hand(void **state)
{
    (void)state;
    const sb_card s[] = { 0, 0, 1, 1,  0, 1, 0, 1,  0, 0, 1, 1,
                          1, 1, 0, 0 };
    const double want[4][2] = { { 3, 1 }, { 2, 2 }, { 2, 2 }, { 1, 3 } };
    const double expect[2] = { 2.0, 2.0 };
    sb_shape sh = deal_shape(4, 2);
    sb_result r;
    run_shaped(&sb_stat_card_hand, &sh, s, 4, &r);
    assert_table(&r, "card-hand", 4, 2, want[0], expect);
    assert_close(r.statistic, 1.5, 1e-15);
    assert_close(r.df, 3.0, 0);
    const double q = erfc(sqrt(0.75)) + sqrt(3.0 / acos(-1.0)) * exp(-0.75);
    assert_close(r.p_value, q, 1e-12);
    assert_close(r.p_value, 0.68227, 1e-5);
    assert_close(r.effect, 0.0, 0);
    assert_string_equal(r.effect_desc,
                        "card 0 in hand 0: 50.0% more often than uniform");
    assert_non_null(strstr(r.null_desc, "chi-square((n-1)(G-1) = 3)"));
    assert_non_null(strstr(r.note, "plain x2 (2) has mean n(G-1) = 4"));
    assert_non_null(strstr(r.note, "rough"));   /* 2 expected per cell */
    sb_result_clear(&r);
}

/* Four draws of 2 cards from 4, written out: (0 1), (0 2), (1 0), (3 2).
   Slots 0, 1 and not drawn, per card:
       card 0: 2 1 1    card 1: 1 1 2    card 2: 0 2 2    card 3: 1 0 3.
   A slot cell expects 4/4 = 1, a not-drawn cell 4 * 2/4 = 2:
   X^2 = (1 + 0 + 1/2) + (0 + 0 + 0) + (1 + 1 + 0) + (0 + 1 + 1/2) = 5,
   scaled 5 * 3/4 = 3.75 on (4-1) * 2 = 6 df, plain mean nk = 8.  For an
   even df = 2m the tail is a Poisson sum, Q(x) = exp(-x/2) sum_{j<m}
   (x/2)^j / j! (Abramowitz and Stegun, section 26.4); for 6 df,
   Q(3.75) = 0.7104.  The largest contribution, 1, is first
   reached at card 0 in slot 0: 2 against 1, +100%. */
static void test_card_slot_by_hand(void **state)
{
    (void)state;
    const sb_card s[] = { 0, 1,  0, 2,  1, 0,  3, 2 };
    const double want[4][3] = { { 2, 1, 1 }, { 1, 1, 2 }, { 0, 2, 2 },
                                { 1, 0, 3 } };
    const double expect[3] = { 1.0, 1.0, 2.0 };
    sb_shape sh = draw_shape(4, 2);
    sb_result r;
    run_shaped(&sb_stat_card_slot, &sh, s, 4, &r);
    assert_table(&r, "card-slot", 4, 3, want[0], expect);
    assert_close(r.statistic, 3.75, 1e-15);
    assert_close(r.df, 6.0, 0);
    const double y = 3.75 / 2;
    assert_close(r.p_value, exp(-y) * (1 + y + y * y / 2), 1e-12);
    assert_close(r.p_value, 0.7104, 1e-4);
    assert_string_equal(r.effect_desc,
                        "card 0 in slot 0: 100% more often than uniform");
    assert_non_null(strstr(r.note, "plain x2 (5) has mean n(G-1) = 8"));
    sb_result_clear(&r);

    /* Three draws of 2 cards from 3, (1 2), (2 1), (1 2): card 0 is never
       drawn.  Every cell expects 3/3 = 1 (slots) or 3 * 1/3 = 1 (not
       drawn); per card, slots 0, 1 and not drawn:
           card 0: 0 0 3    card 1: 2 1 0    card 2: 1 2 0,
       X^2 = (1 + 1 + 4) + (1 + 0 + 1) + (0 + 1 + 1) = 10, scaled
       10 * 2/3 on (3-1) * 2 = 4 df: Q(x) = exp(-x/2) (1 + x/2) = 0.15459
       (the Poisson sum above).  The worst cell is the not-drawn one of card 0,
       3 against 1: +200%. */
    const sb_card s3[] = { 1, 2,  2, 1,  1, 2 };
    sh = draw_shape(3, 2);
    run_shaped(&sb_stat_card_slot, &sh, s3, 3, &r);
    assert_int_equal(r.table.cols, 3);
    assert_close(r.table.observed[2], 3.0, 0);
    assert_close(r.table.expected[2], 1.0, 0);
    assert_close(r.statistic, 20.0 / 3.0, 1e-15);
    assert_close(r.df, 4.0, 0);
    assert_close(r.p_value, exp(-10.0 / 3.0) * (1 + 10.0 / 3.0), 1e-12);
    assert_string_equal(r.effect_desc,
                        "card 0 not drawn: 200% more often than uniform");
    sb_result_clear(&r);
}

/* A draw of the whole deck is a permutation: card-slot with k = n leaves
   the always-empty not-drawn column out, and is then the position matrix,
   counted by stats/position.c: same table, statistic and df (n-1)^2. */
static void test_card_slot_whole_deck(void **state)
{
    (void)state;
    enum { N = 6, S = 3000 };
    uint64_t seed = 0x5eed2005ull;
    sb_shape perm = perm_shape(N), all = draw_shape(N, N);
    sb_card *s = fair_block(&perm, &seed, S);
    sb_result rp, rs;
    run_stat(&sb_stat_position, N, s, S, &rp);
    run_shaped(&sb_stat_card_slot, &all, s, S, &rs);
    assert_true(rs.applicable);
    assert_close(rs.df, 25.0, 0);
    assert_close(rs.statistic, rp.statistic, 1e-12);
    assert_close(rs.p_value, rp.p_value, 1e-12);
    assert_int_equal(rs.table.rows, N);
    assert_int_equal(rs.table.cols, N);
    assert_memory_equal(rs.table.observed, rp.table.observed,
                        N * N * sizeof(double));
    assert_memory_equal(rs.table.expected, rp.table.expected,
                        N * N * sizeof(double));
    sb_result_clear(&rp);
    sb_result_clear(&rs);
    free(s);
}

/* A deal that sends card 0 to hand 0 too often: 52 cards in 4 hands,
   fair, except that in one deal of ten (by the test's generator) card 0,
   when it is not in hand 0, swaps hands with a card of hand 0 chosen
   uniformly.  Card 0 is then in hand 0 with probability 1/4 + 3/40 =
   0.325: over 20000 deals that cell expects 5000 and gets about 6500, a
   contribution near 450 alone, and the noncentrality is about
   20000 (0.075^2 + 3 * 0.025^2) / 0.25 = 600 against df 153, so the
   p-value is far below 1e-6 (missing it would take the statistic 9 SD
   below its mean).  The same number of fair deals passes (p >= 1e-6:
   false alarm 1e-6 over random seeds). */
static void test_card_hand_biased(void **state)
{
    (void)state;
    enum { N = 52, H = 4, S = 20000 };
    uint64_t seed = 0x5eed2006ull;
    sb_shape sh = deal_shape(N, H);
    sb_card *s = fair_block(&sh, &seed, S);
    sb_result r;
    run_shaped(&sb_stat_card_hand, &sh, s, S, &r);
    assert_true(r.applicable);
    assert_close(r.df, 153.0, 0);
    assert_true(r.p_value >= 1e-6);
    sb_result_clear(&r);

    for (size_t i = 0; i < S; i++) {
        sb_card *d = s + i * N;
        if (xs_below(&seed, 10) != 0 || d[0] == 0)
            continue;
        size_t pick = xs_below(&seed, N / H), c = 0;
        for (;; c++)
            if (d[c] == 0 && pick-- == 0)
                break;
        d[c] = d[0];
        d[0] = 0;
    }
    run_shaped(&sb_stat_card_hand, &sh, s, S, &r);
    assert_true(r.p_value < 1e-6);
    assert_true(r.effect > r.detectable);
    assert_true(strncmp(r.effect_desc, "card 0 in hand 0: ", 18) == 0);
    assert_non_null(strstr(r.effect_desc, "% more often than uniform"));
    sb_result_clear(&r);
    free(s);
}

/* A draw of 3 cards from 10 that never draws card 0 first (a fair draw,
   redrawn whenever card 0 comes first): cell (0, slot 0) expects
   20000/10 = 2000 and gets 0, a contribution of 2000 alone against df 27,
   which puts the p-value below the double range; no other cell comes
   close (card c != 0 comes first with probability 1/9 instead of 1/10, a
   contribution near 25). */
static void test_card_slot_biased(void **state)
{
    (void)state;
    enum { N = 10, K = 3, S = 20000 };
    uint64_t seed = 0x5eed2007ull;
    sb_card *s = malloc(sizeof *s * K * S);
    assert_non_null(s);
    sb_shape sh = draw_shape(N, K);
    for (size_t i = 0; i < S; i++)
        do
            fair_samples(&sh, &seed, s + i * K, 1);
        while (s[i * K] == 0);
    sb_result r;
    run_shaped(&sb_stat_card_slot, &sh, s, S, &r);
    assert_true(r.applicable);
    assert_close(r.df, 27.0, 0);
    assert_int_equal(r.p_underflow, 1);
    assert_close(r.table.observed[0], 0.0, 0);
    assert_string_equal(r.effect_desc,
                        "card 0 in slot 0: 100% less often than uniform");
    sb_result_clear(&r);
    free(s);
}

/* What the tables cannot test is not applicable, saying why: one card,
   one hand, hands of unequal size, no hands given, a draw of no card, no
   samples. */
static void test_card_groups_not_applicable(void **state)
{
    (void)state;
    const sb_card zeros[8] = { 0 };
    const struct {
        const sb_stat_type *t;
        sb_shape sh;
        size_t count;
        const char *note;
    } cases[] = {
        { &sb_stat_card_hand, { SB_KIND_DEAL, 1, 1, 1 }, 1,
          "'card-hand' needs n >= 2 (n is 1)" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 1 }, 1,
          "'card-hand' needs at least two hands (got 1)" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 0 }, 1,
          "'card-hand' needs at least two hands (got 0)" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 3 }, 1,
          "'card-hand' needs hands of equal size: 3 hands do not divide "
          "8 cards" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 4, 4, 8 }, 1,
          "'card-hand' needs hands of equal size: 8 hands do not divide "
          "4 cards" },
        { &sb_stat_card_hand, { SB_KIND_DEAL, 8, 8, 2 }, 0, "no samples" },
        { &sb_stat_card_slot, { SB_KIND_DRAW, 1, 1, 0 }, 1,
          "'card-slot' needs n >= 2 (n is 1)" },
        { &sb_stat_card_slot, { SB_KIND_DRAW, 8, 0, 0 }, 1,
          "'card-slot' needs draws of at least one card" },
        { &sb_stat_card_slot, { SB_KIND_DRAW, 8, 3, 0 }, 0, "no samples" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_result r;
        run_shaped(cases[i].t, &cases[i].sh, zeros, cases[i].count, &r);
        assert_false(r.applicable);
        assert_string_equal(r.note, cases[i].note);
        assert_int_equal(r.table.cols, 0);
        sb_result_clear(&r);
    }
    /* Shapes no sample can have are refused when allocating. */
    void *acc;
    sb_shape long_draw = draw_shape(5, 6), perm = perm_shape(5);
    assert_int_equal(sb_stat_card_slot.alloc(&acc, &long_draw), SB_EINVAL);
    assert_int_equal(sb_stat_card_slot.alloc(&acc, &perm), SB_EINVAL);
    assert_int_equal(sb_stat_card_hand.alloc(&acc, &perm), SB_EINVAL);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_card_hand_mean),
        cmocka_unit_test(test_card_slot_mean),
        cmocka_unit_test(test_card_hand_by_hand),
        cmocka_unit_test(test_card_slot_by_hand),
        cmocka_unit_test(test_card_slot_whole_deck),
        cmocka_unit_test(test_card_hand_biased),
        cmocka_unit_test(test_card_slot_biased),
        cmocka_unit_test(test_card_groups_not_applicable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
