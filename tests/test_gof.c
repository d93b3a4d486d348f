/*
 * test_gof.c - the goodness-of-fit machinery (stats/gof.c): pooling,
 * p-values, power and the detectable effect, a whole 1-D result.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "tests/sb_stats.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/registry.h"

static void test_pooling(void **state)
{
    (void)state;
    size_t last[8], g;
    /* 0.5+1+2+3 = 6.5 closes the first group at index 3; 10 alone closes
       the second; 4+0.5+0.2 = 4.7 < 5 is left over and joins it. */
    const double e1[] = { 0.5, 1, 2, 3, 10, 4, 0.5, 0.2 };
    assert_int_equal(sb_gof_pool(e1, 8, 5.0, last, &g), SB_OK);
    assert_int_equal(g, 2);
    assert_int_equal(last[0], 3);
    assert_int_equal(last[1], 7);
    /* Exactly 5 is enough; nothing left over. */
    const double e2[] = { 5, 2, 3, 7 };
    assert_int_equal(sb_gof_pool(e2, 4, 5.0, last, &g), SB_OK);
    assert_int_equal(g, 3);
    assert_int_equal(last[0], 0);
    assert_int_equal(last[1], 2);
    assert_int_equal(last[2], 3);
    /* Too little in total: one group, nothing to test. */
    const double e3[] = { 1, 1, 1 };
    assert_int_equal(sb_gof_pool(e3, 3, 5.0, last, &g), SB_OK);
    assert_int_equal(g, 1);
    assert_int_equal(last[0], 2);
    assert_int_equal(sb_gof_pool(e3, 0, 5.0, last, &g), SB_EINVAL);
}

/* The fixed points of 52 cards over 1000 samples, 370, 365, 180, 65,
   15, 4 and 1 decks with 0 to 6 of them, as a result in 'r'; prob[k]
   receives the law. */
static void fixed_points_result(sb_result *r, double prob[53])
{
    const uint64_t counts[53] = { 370, 365, 180, 65, 15, 4, 1 };
    sb_null_fixed_points(52, prob);
    const sb_gof_law law = {
        .prob = prob, .k = 53, .one = "fixed point", .many = "fixed points",
        .desc = "rencontres",
    };
    assert_int_equal(sb_gof_law_result(r, "fixed-points", counts, &law,
                                       1000, 1e-6),
                     SB_OK);
}

/* Expectations 1000 P(k) are 367.9, 367.9, 183.9, 61.3, 15.3, 3.07,
   0.51, ... so k = 0..3 stand alone, and 4 with everything above it
   (3.07 + 0.51 + ... < 5 joins 4): 53 categories into 5 groups, df 4. */
static void test_law_result_pooling(void **state)
{
    (void)state;
    double prob[53];
    sb_result r;
    fixed_points_result(&r, prob);
    assert_true(r.applicable);
    assert_int_equal(r.table.cols, 5);
    assert_int_equal(r.table.rows, 1);
    const long lo[] = { 0, 1, 2, 3, 4 }, hi[] = { 0, 1, 2, 3, 52 };
    for (size_t g = 0; g < 5; g++) {
        assert_int_equal(r.table.lo[g], lo[g]);
        assert_int_equal(r.table.hi[g], hi[g]);
    }
    assert_close(r.table.observed[4], 20.0, 0);
    assert_close(r.df, 4.0, 0);
    assert_string_equal(r.note,
                        "pooled 53 categories into 5 (each expects >= 5)");
    sb_result_clear(&r);
    assert_null(r.table.observed);
}

/* Cohen (1988), "Statistical Power Analysis for the Behavioral Sciences",
   Table 7.4.15: lambda = 10.51 for u = 1, a = .05, power .90 (the exact
   value is 10.5074, (z_.025 + z_.10)^2 = (1.95996 + 1.28155)^2). */
static void test_detectable(void **state)
{
    (void)state;
    double lambda;
    assert_int_equal(sb_gof_detectable_chisq(1, 0.05, 0.9, &lambda), SB_OK);
    assert_close(lambda, 10.507, 1e-3);
    /* df = 1 has a closed form that is nearly exact here:
       P((Z + sqrt(l))^2 > c) = Q(sqrt(c) - sqrt(l)) + Q(sqrt(c) + sqrt(l)). */
    const double zsum = gsl_cdf_ugaussian_Qinv(0.025)
                        + gsl_cdf_ugaussian_Qinv(0.10);
    assert_close(lambda, zsum * zsum, 1e-3);
    assert_int_equal(sb_gof_detectable_chisq(0, 0.05, 0.9, &lambda),
                     SB_EINVAL);
    assert_int_equal(sb_gof_detectable_sparse(1000, 1, 0.05, 0.9, &lambda),
                     SB_EINVAL);
}

/* The detectable effect in words, checked by building the alternative it
   names and computing that alternative's noncentrality per sample
   directly: it must equal res->detectable.
   1-D: the fixed-points result of test_law_result_pooling names its most
   likely group (0 fixed points, 36.8%) shifted by delta, the other groups
   scaled to make up the difference; sum (p' - p)^2 / p over the 5 groups.
   Card x hand (4 cards, 2 hands): one cell shifted by eps = delta p_g, its
   row and column evened out (the rank-one pattern of gof.c); the plain
   X^2 noncentrality per sample, sum over cells (p'_cg - p_cg)^2 / p_cg
   with p_cg = 1/2, scaled by (n-1)/n. */
static double desc_delta(const sb_result *r)
{
    const char *c = strchr(r->detectable_desc, ':');
    assert_non_null(c);
    double pct = 0.0;
    assert_int_equal(sscanf(c + 1, "%lf%%", &pct), 1);
    return pct / 100.0;
}

static void test_detectable_words(void **state)
{
    (void)state;
    double prob[53];
    sb_result r;
    fixed_points_result(&r, prob);
    assert_non_null(strstr(r.detectable_desc, "0 fixed points (36.8% of "
                                              "decks): "));
    double group[5] = { 0 };
    for (size_t v = 0; v <= 52; v++)
        group[v < 4 ? v : 4] += prob[v];
    const double d = desc_delta(&r), p = group[0];
    double lambda = 0.0;
    for (size_t g = 0; g < 5; g++) {
        const double q = g == 0 ? p * (1.0 + d)
                                : group[g] * (1.0 - p * (1.0 + d))
                                  / (1.0 - p);
        lambda += (q - group[g]) * (q - group[g]) / group[g];
    }
    /* desc rounds delta to three digits: 1e-2 relative on delta^2. */
    assert_close(lambda, r.detectable, 1e-2);
    sb_result_clear(&r);

    const sb_card s[] = { 0, 0, 1, 1,  0, 1, 0, 1,  0, 0, 1, 1,
                          1, 1, 0, 0 };
    sb_shape sh = deal_shape(4, 2);
    run_shaped(&sb_stat_card_hand, &sh, s, 4, &r);
    assert_non_null(strstr(r.detectable_desc, "one card in one hand: "));
    const double eps = desc_delta(&r) * 0.5;
    lambda = 0.0;
    for (size_t c = 0; c < 4; c++)
        for (size_t h = 0; h < 2; h++) {
            const double a = c == 0 ? 1.0 : -1.0 / 3.0;
            const double b = h == 0 ? 1.0 : -1.0;
            lambda += (eps * a * b) * (eps * a * b) / 0.5;
        }
    assert_close(lambda * 3.0 / 4.0, r.detectable, 1e-2);
    sb_result_clear(&r);
}

/* The Poisson mixture against the df = 1 closed form above, at several
   noncentralities, including large ones (wide mixtures). */
static void test_ncx2(void **state)
{
    (void)state;
    const double c = 3.841458820694124;   /* chi-square(1) 95% point */
    const double lambdas[] = { 0, 0.5, 4, 10.5, 50, 400 };
    for (size_t i = 0; i < sizeof lambdas / sizeof lambdas[0]; i++) {
        const double l = lambdas[i];
        double q;
        assert_int_equal(sb_gof_ncx2_Q(c, 1, l, &q), SB_OK);
        const double want = gsl_cdf_ugaussian_Q(sqrt(c) - sqrt(l))
                            + gsl_cdf_ugaussian_Q(sqrt(c) + sqrt(l));
        assert_close(q, want, 1e-9);
    }
}

/* p-values below 1e-300 are 0 with the flag; ordinary ones pass through. */
static void test_p_values(void **state)
{
    (void)state;
    double p;
    int u;
    assert_int_equal(sb_gof_chisq_p(1e6, 10, &p, &u), SB_OK);
    assert_true(p == 0.0 && u == 1);
    assert_int_equal(sb_gof_chisq_p(3.841458820694124, 1, &p, &u), SB_OK);
    assert_close(p, 0.05, 1e-9);
    assert_int_equal(u, 0);
    assert_int_equal(sb_gof_chisq_p(0, 4, &p, &u), SB_OK);
    assert_true(p == 1.0 && u == 0);
    assert_int_equal(sb_gof_normal_p(40, &p, &u), SB_OK);
    assert_true(p == 0.0 && u == 1);
    assert_int_equal(sb_gof_chisq_p(NAN, 4, &p, &u), SB_EINVAL);
    assert_int_equal(sb_gof_chisq_p(1, 0, &p, &u), SB_EINVAL);
}

/* Large df, where GSL's own chi-square tail is off (by 7.5e-3 relative at
   df = 1.68e7; see chisq_Q in stats/gof.c).  Independent check for even
   df: chi-square(df) > x exactly when fewer than df/2 events of a Poisson
   process of rate 1 fall in [0, x/2], so Q_df(x) = P(Poisson(x/2) <=
   df/2 - 1), summed here term by term downwards from df/2 - 1 (mu/k per
   step) over 60 sd, far past where the terms stop mattering. */
static double poisson_cdf_below(double mu, double K)
{
    double logt = (K - 1.0) * log(mu) - mu - lgamma(K);
    double t = exp(logt), sum = 0.0;
    for (double k = K - 1.0; k >= 0.0 && k > K - 1.0 - 60.0 * sqrt(mu);
         k -= 1.0) {
        sum += t;
        t *= k / mu;
    }
    return sum;
}

/* A split so lopsided that its p-value falls below the normal doubles
   (a subnormal, or 0) still counts as very large and finite: it once gave
   an infinite statistic, and the run stopped "out of range" (the
   inversions of Sattolo's shuffle at a million decks of 52 cards, where
   every even count is impossible). */
static void test_split_underflow(void **state)
{
    (void)state;
    const double n = 975796.0;
    double last = 0.0;
    /* Expected counts of the empty cell whose p-values are about 1e-304
       (normal), 5e-324 (subnormal) and 0. */
    const double mu[] = { 700.0, 744.42, 2000.0 };
    for (size_t i = 0; i < sizeof mu / sizeof mu[0]; i++) {
        const double o[2] = { n, 0.0 }, e[2] = { n - mu[i], mu[i] };
        const double t = sb_gof_split_statistic(o, e, 2);
        assert_true(isfinite(t));
        assert_true(t > last);      /* rarer, larger */
        last = t;
    }
    assert_true(last > 2.0 * 2000.0 * 0.99);   /* the deviance, 2 mu */
}

static void test_p_values_large_df(void **state)
{
    (void)state;
    const double dfs[] = { 2e4, 3628800, 16769026 };
    const double zs[] = { -1.0, 1.6448536, 4.753424, 7.0 };
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 4; j++) {
            const double df = dfs[i];
            const double x = df + zs[j] * sqrt(2.0 * df);
            double p;
            int u;
            assert_int_equal(sb_gof_chisq_p(x, df, &p, &u), SB_OK);
            assert_close(p, poisson_cdf_below(x / 2, df / 2), 1e-6);
        }
    /* The detectable noncentrality at df = 10! - 1 and alpha = 1e-6, where
       gsl_cdf_chisq_Qinv returns a critical value below the mean: near
       normal, lambda* solves (z_a sqrt(2 df) - l) / sqrt(2 (df + 2 l)) =
       -z_.1, about 16288; 1% covers the skewness left out. */
    const double df = 3628799.0;
    const double za = gsl_cdf_ugaussian_Qinv(1e-6);
    const double zb = gsl_cdf_ugaussian_Qinv(0.1);
    double lo = 0, hi = 1e6, lambda;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        double z = (za * sqrt(2 * df) - mid) / sqrt(2 * (df + 2 * mid));
        if (z > -zb)
            lo = mid;
        else
            hi = mid;
    }
    assert_int_equal(sb_gof_detectable_chisq(df, 1e-6, 0.9, &lambda),
                     SB_OK);
    assert_close(lambda, lo, 1e-2);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pooling),
        cmocka_unit_test(test_law_result_pooling),
        cmocka_unit_test(test_detectable),
        cmocka_unit_test(test_detectable_words),
        cmocka_unit_test(test_ncx2),
        cmocka_unit_test(test_p_values),
        cmocka_unit_test(test_p_values_large_df),
        cmocka_unit_test(test_split_underflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
