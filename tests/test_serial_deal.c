/*
 * test_serial_deal.c - 'serial' on deals: the hand x next-hand table of
 * consecutive deals (stats/serial.c).
 *
 * The null is checked against brute force: every pair of deals of small
 * decks, counted here with no code from stats/, gives the hypergeometric
 * overlap of each hand, the cell means and the covariance the derivation
 * uses; every triple of deals, fed through the statistic itself, gives the
 * exact mean of X^2 (n-1)/n, which holds only if consecutive pairs are
 * uncorrelated as the derivation says.  Then a dealer that carries its
 * deal over (tests/plugins/carry_deal.h) fails the default deal battery,
 * and the fair deals pass.  Statistical assertions use fixed seeds and
 * state their false-alarm rate over random seeds.
 */
#include "tests/sb_test.h"
#include "tests/sb_runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/registry.h"
#include "tests/plugins/carry_deal.h"

enum { MAX_N = 8, MAX_DEALS = 90 };

/* Every deal of n cards into H hands of n/H (card c to hand d[c]), in
   lexicographic order of the hand vector.  Returns how many. */
static size_t all_deals(size_t n, size_t H, sb_card *out)
{
    const size_t s = n / H;
    sb_card d[MAX_N];
    size_t count = 0;
    /* Odometer over H^n vectors, keeping those with s cards per hand. */
    memset(d, 0, sizeof d);
    for (;;) {
        size_t per[MAX_N] = { 0 };
        int ok = 1;
        for (size_t c = 0; c < n; c++)
            per[d[c]]++;
        for (size_t h = 0; h < H; h++)
            ok &= per[h] == s;
        if (ok) {
            assert_true(count < MAX_DEALS);
            memcpy(out + count * n, d, n * sizeof *d);
            count++;
        }
        size_t c = 0;
        while (c < n && ++d[c] == H)
            d[c++] = 0;
        if (c == n)
            return count;
    }
}

/* |x - y| <= tol (absolute, where sb_test.h's assert_close is relative),
   as an assertion that names both numbers. */
static void assert_near(double x, double y, double tol)
{
    if (!(fabs(x - y) <= tol))
        fail_msg("%.17g differs from %.17g by more than %g", x, y, tol);
}

static size_t choose(size_t n, size_t k)
{
    size_t r = 1;
    for (size_t i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* Over every pair (A, B) of deals: the overlap of each hand h, T_hh, has
   the hypergeometric law C(s,x) C(n-s,s-x) / C(n,s); every cell has mean
   s^2/n; the covariance of cells (a,b), (a',b') is
   n^2/(n-1) (d_aa'/H - 1/H^2) (d_bb'/H - 1/H^2); and Pearson's X^2 of one
   table, times (n-1)/n, has mean (H-1)^2.  All exact, to rounding. */
static void check_pairs(size_t n, size_t H)
{
    static sb_card deals[MAX_DEALS * MAX_N];
    const size_t m = all_deals(n, H, deals), s = n / H, cells = H * H;
    assert_int_equal(m, choose(n, s) * (H > 2 ? choose(n - s, s) : 1)
                            * (H > 3 ? choose(n - 2 * s, s) : 1));
    double sum[MAX_N * MAX_N] = { 0 };
    double prod[MAX_N * MAX_N][MAX_N * MAX_N];
    memset(prod, 0, sizeof prod);
    double overlap[MAX_N + 1][MAX_N] = { { 0 } };
    double x2_sum = 0.0;
    const double e = (double)(s * s) / (double)n;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            double t[MAX_N * MAX_N] = { 0 };
            for (size_t c = 0; c < n; c++)
                t[deals[i * n + c] * H + deals[j * n + c]] += 1.0;
            double x2 = 0.0;
            for (size_t u = 0; u < cells; u++) {
                sum[u] += t[u];
                x2 += (t[u] - e) * (t[u] - e) / e;
                for (size_t v = 0; v < cells; v++)
                    prod[u][v] += t[u] * t[v];
            }
            x2_sum += x2;
            for (size_t h = 0; h < H; h++)
                overlap[(size_t)t[h * H + h]][h] += 1.0;
        }
    const double pairs = (double)m * (double)m;
    for (size_t h = 0; h < H; h++)
        for (size_t x = 0; x <= s; x++)
            assert_near(overlap[x][h] / pairs,
                gsl_ran_hypergeometric_pdf((unsigned)x, (unsigned)s,
                                           (unsigned)(n - s), (unsigned)s),
                1e-12);
    const double Hd = (double)H, nd = (double)n;
    for (size_t u = 0; u < cells; u++) {
        assert_near(sum[u] / pairs, e, 1e-12);
        for (size_t v = 0; v < cells; v++) {
            const double a = (u / H == v / H ? 1.0 / Hd : 0.0) - 1 / (Hd * Hd);
            const double b = (u % H == v % H ? 1.0 / Hd : 0.0) - 1 / (Hd * Hd);
            const double cov = prod[u][v] / pairs - e * e;
            assert_near(cov, nd * nd / (nd - 1) * a * b, 1e-12);
        }
    }
    assert_near(x2_sum / pairs * (nd - 1) / nd,
                        (Hd - 1) * (Hd - 1), 1e-12);
}

static void test_serial_deal_pairs_brute_force(void **state)
{
    (void)state;
    check_pairs(4, 2);
    check_pairs(6, 2);
    check_pairs(6, 3);
    check_pairs(8, 2);
}

static sb_shape deal_shape(size_t n, unsigned H)
{
    const sb_shape s = { .kind = SB_KIND_DEAL, .n = n, .len = n, .hands = H };
    return s;
}

/* Through the statistic: every triple of deals, fed as one call of 'add'
   (two consecutive pairs), finalized; the mean of the statistic over all
   triples is exactly (H-1)^2, which needs the two pairs' tables to be
   uncorrelated (a covariance would add to the mean of X^2). */
static void check_triples(size_t n, unsigned H)
{
    static sb_card deals[MAX_DEALS * MAX_N];
    const size_t m = all_deals(n, H, deals);
    const sb_shape sh = deal_shape(n, H);
    const sb_stat_type *t = &sb_stat_serial;
    double sum = 0.0;
    sb_card three[3 * MAX_N];
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            for (size_t k = 0; k < m; k++) {
                memcpy(three, deals + i * n, n * sizeof *three);
                memcpy(three + n, deals + j * n, n * sizeof *three);
                memcpy(three + 2 * n, deals + k * n, n * sizeof *three);
                void *acc;
                assert_int_equal(t->alloc(&acc, &sh), SB_OK);
                t->add(acc, three, 3);
                sb_result r;
                memset(&r, 0, sizeof r);
                assert_int_equal(t->finalize(acc, 3, 1e-6, &r), SB_OK);
                assert_true(r.applicable);
                assert_true(r.df == (double)((H - 1) * (H - 1)));
                sum += r.statistic;
                sb_result_clear(&r);
                t->free(acc);
            }
    const double mean = sum / ((double)m * (double)m * (double)m);
    assert_near(mean, (double)((H - 1) * (H - 1)), 1e-9);
}

static void test_serial_deal_triples_brute_force(void **state)
{
    (void)state;
    check_triples(4, 2);
    check_triples(6, 2);
}

/* The table counts what it says: three deals of 4 cards into 2 hands,
   fed at once and in two calls (a pair across calls is not counted). */
static void test_serial_deal_counts(void **state)
{
    (void)state;
    const sb_card d[3 * 4] = { 0, 0, 1, 1,    /* deal 1 */
                               0, 1, 0, 1,    /* deal 2 */
                               0, 0, 1, 1 };  /* deal 3 */
    const sb_shape sh = deal_shape(4, 2);
    const sb_stat_type *t = &sb_stat_serial;
    void *acc;
    assert_int_equal(t->alloc(&acc, &sh), SB_OK);
    t->add(acc, d, 3);
    sb_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(t->finalize(acc, 3, 1e-6, &r), SB_OK);
    assert_true(r.applicable);
    assert_int_equal(r.table.rows, 2);
    assert_int_equal(r.table.cols, 2);
    /* deal 1 -> 2: 0->0, 0->1, 1->0, 1->1; deal 2 -> 3 the same. */
    for (size_t c = 0; c < 4; c++) {
        assert_true(r.table.observed[c] == 2.0);
        assert_true(r.table.expected[c] == 2.0);
    }
    assert_true(r.statistic == 0.0);
    sb_result_clear(&r);
    t->free(acc);

    /* The same deal three times, in two calls: one pair is counted. */
    const sb_card same[2 * 4] = { 0, 1, 1, 0, 0, 1, 1, 0 };
    assert_int_equal(t->alloc(&acc, &sh), SB_OK);
    t->add(acc, same, 2);
    t->add(acc, same, 1);
    memset(&r, 0, sizeof r);
    assert_int_equal(t->finalize(acc, 3, 1e-6, &r), SB_OK);
    assert_true(r.table.observed[0] == 2.0 && r.table.observed[1] == 0.0
                && r.table.observed[2] == 0.0 && r.table.observed[3] == 2.0);
    assert_non_null(strstr(r.effect_desc, "kept 2 of its 2 cards"));
    assert_non_null(strstr(r.note, "1 consecutive pairs"));
    sb_result_clear(&r);
    t->free(acc);
}

/* Shapes: it applies to deals (no longer refused), to every shape the
   built-in deals fit to (two hands of n/2, n hands of one card), and is
   not applicable, with the reason, to one hand or unequal hands. */
static void test_serial_deal_shapes(void **state)
{
    (void)state;
    const sb_stat_type *t = &sb_stat_serial;
    char why[128];
    const sb_shape bridge = deal_shape(52, 4);
    assert_int_equal(sb_stat_check(t, &bridge, why, sizeof why), SB_OK);
    const sb_stat_type *out[SB_STAT_DEFAULTS_MAX];
    const size_t k = sb_stat_defaults(&bridge, out, SB_STAT_DEFAULTS_MAX);
    int found = 0;
    for (size_t i = 0; i < k; i++)
        found |= out[i] == t;
    assert_true(found);

    const sb_card ones[2 * 5] = { 0, 1, 2, 3, 4, 4, 3, 2, 1, 0 };
    const sb_shape singles = deal_shape(5, 5);
    void *acc;
    sb_result r;
    assert_int_equal(t->alloc(&acc, &singles), SB_OK);
    t->add(acc, ones, 2);
    memset(&r, 0, sizeof r);
    /* one pair expects 1/5 per cell: too few, not applicable */
    assert_int_equal(t->finalize(acc, 2, 1e-6, &r), SB_OK);
    assert_false(r.applicable);
    assert_non_null(strstr(r.note, "needs more samples"));
    sb_result_clear(&r);
    t->free(acc);

    const sb_card zeros[2 * 3] = { 0 };
    const sb_shape one = deal_shape(3, 1);
    assert_int_equal(t->alloc(&acc, &one), SB_OK);
    t->add(acc, zeros, 2);
    memset(&r, 0, sizeof r);
    assert_int_equal(t->finalize(acc, 2, 1e-6, &r), SB_OK);
    assert_false(r.applicable);
    assert_non_null(strstr(r.note, "at least two hands"));
    sb_result_clear(&r);
    t->free(acc);

    const sb_shape uneven = deal_shape(5, 2);
    assert_int_equal(t->alloc(&acc, &uneven), SB_OK);
    memset(&r, 0, sizeof r);
    assert_int_equal(t->finalize(acc, 2, 1e-6, &r), SB_OK);
    assert_false(r.applicable);
    assert_non_null(strstr(r.note, "hands of equal size"));
    sb_result_clear(&r);
    t->free(acc);
}

/* The default deal battery, as the command line builds it, for a shape. */
static size_t deal_battery(size_t n, unsigned H, const sb_stat_type **out)
{
    const sb_shape sh = deal_shape(n, H);
    return sb_stat_defaults(&sh, out, SB_STAT_DEFAULTS_MAX);
}

static size_t index_of(const sb_report *rep, const char *name)
{
    for (size_t i = 0; i < rep->n_results; i++)
        if (strcmp(rep->results[i].name, name) == 0)
            return i;
    fail_msg("no result '%s'", name);
    return 0;
}

/* The dealer that carries its deal over fails the default deal battery
   at 10^5 deals (seed fixed) and 'serial' is what fails it, by far (each
   hand keeps about 4.5 of its 13 cards where 3.25 are expected: p below
   1e-300); the statistics of one deal pass, since each deal alone is
   uniform (each p > 1e-3: a false alarm of 1e-3 per statistic over
   seeds, 5e-3 for the five).  Also at a subtler setting, 104 swaps (about
   3.42 cards kept per hand against 3.25), still at 10^5 deals: there the
   statistic is about 4400 on 9 degrees of freedom (seeds 1-3 from the
   command line: 4365, 4461, 4589), so p < 1e-30, a statistic below about
   160, would be a fluctuation of dozens of standard deviations (its
   standard deviation is about 2 sqrt(4400) = 133 on a mean of 4400). */
static void test_serial_deal_carry_fails(void **state)
{
    (void)state;
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
    const size_t k = deal_battery(52, 4, stats);
    sb_report rep;
    sb_test_run(&carry_deal, NULL, 52, 100000, 71, SB_RNG_DEFAULT, stats, k,
                &rep);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    const size_t si = index_of(&rep, "serial");
    assert_true(rep.results[si].p_underflow);
    assert_non_null(strstr(rep.results[si].effect_desc, "kept"));
    for (size_t i = 0; i < rep.n_results; i++)
        if (i != si && rep.results[i].applicable)
            assert_true(rep.results[i].p_value > 1e-3);
    sb_report_release(&rep);

    const char *const subtle[] = { "swaps=104", NULL };
    sb_test_run(&carry_deal, subtle, 52, 100000, 72, SB_RNG_DEFAULT, stats, k,
                &rep);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    assert_true(rep.results[index_of(&rep, "serial")].p_value < 1e-30);
    sb_report_release(&rep);
}

/* Fair deals pass 'serial' at 10^5 deals, fixed seeds, on bridge and on
   the shapes the deals fit to at small n; each p > 1e-3, a false alarm of
   1e-3 per check over seeds (the null is exact for independent deals). */
static void test_serial_deal_fair_passes(void **state)
{
    (void)state;
    const sb_stat_type *stats[] = { &sb_stat_serial };
    const char *const names[] = { "deal-fisher-yates", "deal-bitmask",
                                  "deal-weighted-hand" };
    sb_report rep;
    for (size_t i = 0; i < 3; i++) {
        sb_test_run(sb_test_alg(names[i]), NULL, 52, 100000, 80 + i,
                    SB_RNG_DEFAULT, stats, 1, &rep);
        assert_true(rep.results[0].applicable);
        assert_true(rep.results[0].p_value > 1e-3);
        sb_report_release(&rep);
    }
    /* Two hands of 5 (df (2-1)^2) and six hands of one card (df 25). */
    const struct {
        const char *params[3];
        size_t n;
        double df;
    } shapes[] = {
        { { "hands=2", "hand-size=5", NULL }, 10, 1.0 },
        { { "hands=6", "hand-size=1", NULL }, 6, 25.0 },
    };
    for (size_t i = 0; i < 2; i++) {
        sb_test_run(sb_test_alg("deal-fisher-yates"), shapes[i].params,
                    shapes[i].n, 100000, 84 + i, SB_RNG_DEFAULT, stats, 1,
                    &rep);
        assert_true(rep.results[0].applicable);
        assert_true(rep.results[0].df == shapes[i].df);
        assert_true(rep.results[0].p_value > 1e-3);
        sb_report_release(&rep);
    }
}

/* A state file round trip keeps the table; a table whose rows do not
   sum to s cards per pair is refused. */
static void test_serial_deal_save_load(void **state)
{
    (void)state;
    const sb_card d[3 * 4] = { 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0 };
    const sb_shape sh = deal_shape(4, 2);
    const sb_stat_type *t = &sb_stat_serial;
    void *a, *b;
    assert_int_equal(t->alloc(&a, &sh), SB_OK);
    assert_int_equal(t->alloc(&b, &sh), SB_OK);
    t->add(a, d, 3);
    uint64_t *words;
    size_t count;
    assert_int_equal(t->save(a, &words, &count), SB_OK);
    assert_int_equal(t->load(b, words, count), SB_OK);
    sb_result ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    assert_int_equal(t->finalize(a, 3, 1e-6, &ra), SB_OK);
    assert_int_equal(t->finalize(b, 3, 1e-6, &rb), SB_OK);
    assert_true(ra.statistic == rb.statistic);
    assert_memory_equal(ra.table.observed, rb.table.observed,
                        4 * sizeof *ra.table.observed);
    words[count - 1]++;           /* one cell more: rows no longer equal */
    assert_int_equal(t->load(b, words, count), SB_EINVAL);
    free(words);
    sb_result_clear(&ra);
    sb_result_clear(&rb);
    t->free(a);
    t->free(b);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serial_deal_pairs_brute_force),
        cmocka_unit_test(test_serial_deal_triples_brute_force),
        cmocka_unit_test(test_serial_deal_counts),
        cmocka_unit_test(test_serial_deal_shapes),
        cmocka_unit_test(test_serial_deal_carry_fails),
        cmocka_unit_test(test_serial_deal_fair_passes),
        cmocka_unit_test(test_serial_deal_save_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
