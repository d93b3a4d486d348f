/*
 * test_plan.c - sample-size planning (stats/plan.c): the bisection, and
 * the plan of each statistic against the forward computation it inverts
 * (the detectable effect the statistic's finalize reports).
 *
 * Nothing here is random: plans are arithmetic on the nulls.
 */
#include "tests/sb_stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/plan.h"
#include "stats/registry.h"

/* ok(N) = N >= threshold, counting the calls. */
typedef struct step_ctx {
    uint64_t threshold;
    unsigned calls;
} step_ctx;

static int step_ok(void *ctx, uint64_t n)
{
    step_ctx *c = ctx;
    c->calls++;
    return n >= c->threshold;
}

/* A function that is true on a few islands only: the N returned must be
   one where it was seen true. */
static int islands_ok(void *ctx, uint64_t n)
{
    (void)ctx;
    return (n >= 700 && n < 720) || (n >= 5000 && n < 5003) || n > 90000;
}

static int failing_ok(void *ctx, uint64_t n)
{
    (void)ctx;
    (void)n;
    return -SB_ERANGE;
}

static void test_bisect(void **state)
{
    (void)state;
    const uint64_t thresholds[] = { 1, 2, 3, 1023, 1024, 1025, 4097,
                                    123456789, UINT64_C(1) << 40 };
    for (size_t i = 0; i < sizeof thresholds / sizeof *thresholds; i++) {
        step_ctx c = { thresholds[i], 0 };
        uint64_t n;
        assert_int_equal(sb_plan_bisect(step_ok, &c, 1024,
                                        SB_PLAN_SAMPLES_MAX, &n), SB_OK);
        assert_int_equal(n, thresholds[i]);
        assert_true(c.calls <= 2 * 64);
    }
    /* Never true up to max: 0. */
    step_ctx never = { 5000, 0 };
    uint64_t n = 7;
    assert_int_equal(sb_plan_bisect(step_ok, &never, 16, 4000, &n), SB_OK);
    assert_int_equal(n, 0);
    /* Not monotone: whatever it finds, ok holds there. */
    assert_int_equal(sb_plan_bisect(islands_ok, NULL, 1024,
                                    SB_PLAN_SAMPLES_MAX, &n), SB_OK);
    assert_true(n > 0);
    assert_int_equal(islands_ok(NULL, n), 1);
    /* A status stops it. */
    assert_int_equal(sb_plan_bisect(failing_ok, NULL, 1, 100, &n),
                     SB_ERANGE);
}

static sb_shape perm(size_t n)
{
    return (sb_shape){ .kind = SB_KIND_PERMUTATION, .n = n, .len = n };
}

/* 'position' is referred to chi-square((n-1)^2) whatever N, so its
   detectable distance is lambda* / N with lambda* from
   sb_gof_detectable_chisq: the plan must be ceil(lambda* / D), and the
   report at N - 1 must miss what the report at N catches. */
static void test_position_matches_forward(void **state)
{
    (void)state;
    const size_t ns[] = { 4, 16, 52 };
    const double effects[] = { 0.3, 0.05, 0.01 };
    const double powers[] = { 0.5, 0.9, 0.99 };
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 3; c++) {
                const size_t n = ns[a];
                const sb_shape s = perm(n);
                const sb_plan_effect e = { SB_PLAN_RELATIVE, effects[b],
                                           powers[c], 1e-6 / 11 };
                sb_plan_row row;
                assert_int_equal(sb_plan_stat(&sb_stat_position, &s, &e,
                                              &row), SB_OK);
                assert_true(row.planned);
                const double df = (double)((n - 1) * (n - 1));
                double lambda;
                assert_int_equal(sb_gof_detectable_chisq(df, e.alpha,
                                                         e.power, &lambda),
                                 SB_OK);
                const double p = 1.0 / (double)n;
                const double d = e.value * e.value * p / (1.0 - p);
                const double want = ceil(lambda / d);
                /* lambda* is found to a relative 1e-10, and the power
                   ratio recomputes it: within one sample of the exact
                   ceiling once N is in the millions. */
                assert_true(fabs((double)row.samples - want)
                            <= 1.0 + 1e-9 * want);
                assert_close(row.distance, d, 1e-12);
                /* The forward computation at N catches it, at N - 1
                   not. */
                sb_plan_point at, before;
                assert_int_equal(sb_plan_point_at(&sb_stat_position, &s,
                                                  row.samples, &e, &at),
                                 SB_OK);
                assert_int_equal(sb_plan_point_at(&sb_stat_position, &s,
                                                  row.samples - 1, &e,
                                                  &before), SB_OK);
                assert_true(sb_plan_catches(&at, &e));
                assert_false(sb_plan_catches(&before, &e));
                assert_true(at.distance <= d);
            }
}

/* At power 0.9 the plan reads the report's own figure: the detectable
   field of the statistic's result at N is at most the effect. */
static void test_report_figure(void **state)
{
    (void)state;
    const sb_shape s = perm(52);
    const double alpha = 1e-6 / 11;
    const sb_plan_effect e = { SB_PLAN_DISTANCE, 3e-3, 0.9, alpha };
    const sb_stat_type *stats[] = { &sb_stat_position, &sb_stat_fixed_points,
                                    &sb_stat_cycles, &sb_stat_rising,
                                    &sb_stat_successions, &sb_stat_poker7,
                                    &sb_stat_new_age_solitaire };
    for (size_t i = 0; i < sizeof stats / sizeof *stats; i++) {
        sb_plan_row row;
        assert_int_equal(sb_plan_stat(stats[i], &s, &e, &row), SB_OK);
        assert_true(row.planned);
        void *acc;
        assert_int_equal(stats[i]->alloc(&acc, &s), SB_OK);
        sb_result r, r1;
        assert_int_equal(stats[i]->finalize(acc, row.samples, alpha, &r),
                         SB_OK);
        assert_int_equal(stats[i]->finalize(acc, row.samples - 1, alpha,
                                            &r1), SB_OK);
        assert_true(r.applicable);
        assert_true(r.detectable <= e.value);
        /* The smallest such N for these (each one's detectable effect
           falls with N): one fewer misses. */
        assert_true(!r1.applicable || r1.detectable > e.value);
        assert_string_equal(row.at.words, r.detectable_desc);
        sb_result_clear(&r);
        sb_result_clear(&r1);
        stats[i]->free(acc);
    }
}

/* More power or a smaller effect never needs fewer samples. */
static void test_monotone(void **state)
{
    (void)state;
    const sb_shape s = perm(52);
    const sb_stat_type *stats[] = { &sb_stat_position, &sb_stat_fixed_points,
                                    &sb_stat_inversions };
    for (size_t i = 0; i < 3; i++) {
        uint64_t prev = 0;
        for (double v = 0.4; v > 0.004; v /= 2) {
            const sb_plan_effect e = { SB_PLAN_RELATIVE, v, 0.9, 1e-7 };
            sb_plan_row row;
            assert_int_equal(sb_plan_stat(stats[i], &s, &e, &row), SB_OK);
            assert_true(row.planned);
            assert_true(row.samples >= prev);
            prev = row.samples;
        }
        prev = 0;
        const double powers[] = { 0.5, 0.8, 0.9, 0.95, 0.999 };
        for (size_t k = 0; k < 5; k++) {
            const sb_plan_effect e = { SB_PLAN_RELATIVE, 0.05, powers[k],
                                       1e-7 };
            sb_plan_row row;
            assert_int_equal(sb_plan_stat(stats[i], &s, &e, &row), SB_OK);
            assert_true(row.samples > prev);
            prev = row.samples;
        }
    }
}

/* What cannot be planned says why. */
static void test_not_planned(void **state)
{
    (void)state;
    const sb_shape s = perm(52);
    const sb_plan_effect rel = { SB_PLAN_RELATIVE, 0.05, 0.9, 1e-7 };
    const sb_plan_effect dist = { SB_PLAN_DISTANCE, 1e-3, 0.9, 1e-7 };
    sb_plan_row row;
    assert_int_equal(sb_plan_stat(&sb_stat_collisions, &s, &dist, &row),
                     SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "not a chi-square distance"));
    /* new-age-solitaire's words are a win rate, not one cell's share:
       only a distance plans it. */
    assert_int_equal(sb_plan_stat(&sb_stat_new_age_solitaire, &s, &rel,
                                  &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "distance"));
    assert_int_equal(sb_plan_stat(&sb_stat_new_age_solitaire, &s, &dist,
                                  &row), SB_OK);
    assert_true(row.planned);
    /* serial's report counts pairs of consecutive samples, and
       suit-lengths refuses counts that do not add up to the samples:
       neither can be read off N alone. */
    assert_int_equal(sb_plan_stat(&sb_stat_serial, &s, &dist, &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "not read off the number of samples"));
    const sb_shape deal = { .kind = SB_KIND_DEAL, .n = 52, .len = 52,
                            .hands = 4 };
    assert_int_equal(sb_plan_stat(&sb_stat_suit_lengths, &deal, &dist,
                                  &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "add up to the samples"));
    /* The other deal statistics are planned, and their report at N
       catches the effect. */
    const sb_stat_type *deals[] = { &sb_stat_card_hand,
                                    &sb_stat_hand_patterns, &sb_stat_hcp,
                                    &sb_stat_same_hand_pairs };
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(sb_plan_stat(deals[i], &deal, &dist, &row), SB_OK);
        assert_true(row.planned);
        sb_plan_point at;
        assert_int_equal(sb_plan_point_at(deals[i], &deal, row.samples,
                                          &dist, &at), SB_OK);
        assert_true(sb_plan_catches(&at, &dist));
    }
    /* A bias too small for 2^50 samples. */
    const sb_plan_effect tiny = { SB_PLAN_DISTANCE, 1e-16, 0.9, 1e-7 };
    assert_int_equal(sb_plan_stat(&sb_stat_fixed_points, &s, &tiny, &row),
                     SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "2^50"));
    /* Bad effects. */
    const sb_plan_effect bad = { SB_PLAN_RELATIVE, 0.0, 0.9, 1e-7 };
    assert_int_equal(sb_plan_stat(&sb_stat_position, &s, &bad, &row),
                     SB_EINVAL);
    const sb_plan_effect weak = { SB_PLAN_RELATIVE, 0.1, 1e-8, 1e-7 };
    assert_int_equal(sb_plan_stat(&sb_stat_position, &s, &weak, &row),
                     SB_EINVAL);
}

/* ---- rand-bits=B: the Fisher-Yates codes' directed subtest ------------ */

/* The noncentrality per deck of the low-residue score test against a
   B-bit generator reduced with % m, by brute force: every B-bit value
   reduced, the favoured residues read off the counts (not off 2^B mod m),
   the score's mean under the alternative and variance under the null. */
static double brute_noncentrality(size_t n, unsigned bits)
{
    double mean = 0.0, var = 0.0;
    for (size_t m = 2; m <= n; m++) {
        uint64_t count[64] = { 0 };
        for (uint64_t v = 0; v < (UINT64_C(1) << bits); v++)
            count[v % m]++;
        uint64_t least = count[0];
        for (size_t j = 0; j < m; j++)
            least = count[j] < least ? count[j] : least;
        double favoured = 0.0;
        for (size_t j = 0; j < m; j++)
            favoured += count[j] > least;
        double mu = 0.0, mu0 = 0.0, v0 = 0.0;
        for (size_t j = 0; j < m; j++) {
            const double x = (double)m * (count[j] > least) - favoured;
            mu += x * (double)count[j] / ldexp(1.0, (int)bits);
            mu0 += x / (double)m;
            v0 += x * x / (double)m;
        }
        assert_true(fabs(mu0) < 1e-12);       /* the score is centred */
        mean += mu;
        var += v0;
    }
    return var > 0.0 ? mean * mean / var : 0.0;
}

/* The fewest N at which the normal one-sided test at alpha catches every
   B' from 8 to B with the given power, from the brute-force
   noncentralities; the finalize's own subtest count T. */
static uint64_t brute_plan(size_t n, unsigned bits, double alpha,
                           double power)
{
    const double zz = gsl_cdf_ugaussian_Qinv(alpha)
                    + gsl_cdf_ugaussian_Pinv(power);
    double need = 0.0;
    for (unsigned b = SB_FY_BITS_MIN; b <= bits; b++) {
        const double l = brute_noncentrality(n, b);
        if (l > 0.0)
            need = fmax(need, ceil(zz * zz / l));
    }
    return (uint64_t)need;
}

/* The report's subtests and the bits its detectable line names after N
   decks of n cards (0: no bits named). */
static unsigned report_bits(size_t n, uint64_t samples, double alpha,
                            unsigned *subtests)
{
    const sb_shape s = perm(n);
    void *acc;
    assert_int_equal(sb_stat_fy_code.alloc(&acc, &s), SB_OK);
    sb_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(sb_stat_fy_code.finalize(acc, samples, alpha, &res),
                     SB_OK);
    unsigned bits = 0;
    const char *w = strstr(res.detectable_desc, "generator of ");
    if (w)
        assert_int_equal(sscanf(w, "generator of %u bits", &bits), 1);
    *subtests = res.subtests;
    sb_result_clear(&res);
    sb_stat_fy_code.free(acc);
    return bits;
}

static void test_rand_bits_noncentrality(void **state)
{
    (void)state;
    for (size_t n = 2; n <= 12; n++)
        for (unsigned b = SB_FY_BITS_MIN; b <= 16; b++)
            assert_close(sb_fy_low_noncentrality(n, b),
                         brute_noncentrality(n, b), 1e-12);
}

/* The plan of rand-bits=B against the brute-force noncentralities, and
   the report at the planned N says B bits (at N - 1 fewer). */
static void test_rand_bits_plan(void **state)
{
    (void)state;
    const size_t ns[] = { 3, 5, 8, 12, 52 };
    const unsigned bits[] = { 8, 11, 15 };
    const double powers[] = { 0.9, 0.5, 0.99 };
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < 3; b++)
            for (size_t c = 0; c < 3; c++) {
                const size_t n = ns[a];
                if (n == 52 && bits[b] > 11)
                    continue;           /* brute force over 2^15 x 51 */
                const sb_shape s = perm(n);
                const sb_plan_effect e = { SB_PLAN_RAND_BITS, bits[b],
                                           powers[c], 1e-6 / 13 };
                sb_plan_row row, fwd;
                assert_int_equal(sb_plan_stat(&sb_stat_fy_code, &s, &e,
                                              &row), SB_OK);
                assert_true(row.planned);
                assert_int_equal(sb_plan_stat(&sb_stat_fy_code_forward,
                                              &s, &e, &fwd), SB_OK);
                assert_true(fwd.planned);
                assert_int_equal(fwd.samples, row.samples);
                unsigned T;
                (void)report_bits(n, row.samples, e.alpha, &T);
                assert_true(T >= 3);
                const uint64_t want = brute_plan(n, bits[b], e.alpha / T,
                                                 e.power);
                /* The plan's product and the test's ceiling round
                   apart by at most one sample. */
                assert_true(row.samples + 1 >= want
                            && row.samples <= want + 1);
                assert_close(row.distance,
                             brute_noncentrality(n, bits[b]), 1e-12);
                assert_true(row.at.bits >= bits[b]);
                if (e.power != SB_GOF_POWER)
                    continue;
                /* Plan and report agree: the line at N names B bits or
                   more, the line at N - 1 fewer. */
                assert_true(report_bits(n, row.samples, e.alpha, &T)
                            >= bits[b]);
                assert_true(report_bits(n, row.samples - 1, e.alpha, &T)
                            < bits[b]);
                assert_non_null(strstr(row.at.words, "bits or fewer"));
            }
    /* Other statistics: not planned, with the reason; two cards: no
       residue to favour; bad values refused. */
    const sb_shape s = perm(8), two = perm(2);
    const sb_plan_effect e = { SB_PLAN_RAND_BITS, 15, 0.9, 1e-7 };
    sb_plan_row row;
    assert_int_equal(sb_plan_stat(&sb_stat_position, &s, &e, &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "Fisher-Yates codes"));
    assert_int_equal(sb_plan_stat(&sb_stat_fy_code, &two, &e, &row), SB_OK);
    assert_false(row.planned);
    assert_non_null(strstr(row.reason, "every m divides 2^15"));
    const double bad[] = { 7, 33, 15.5, 0, -15 };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const sb_plan_effect b = { SB_PLAN_RAND_BITS, bad[i], 0.9, 1e-7 };
        assert_int_equal(sb_plan_stat(&sb_stat_fy_code, &s, &b, &row),
                         SB_EINVAL);
    }
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* fy-code's p-value after 'samples' decks of n cards from backward
   Fisher-Yates drawing the top 'bits' bits of splitmix64 % (i + 1)
   (bits 64: the whole word, whose bias is far below anything caught). */
static double fy_mod_p(size_t n, unsigned bits, uint64_t samples,
                       uint64_t seed, double alpha)
{
    const sb_shape s = perm(n);
    void *acc;
    assert_int_equal(sb_stat_fy_code.alloc(&acc, &s), SB_OK);
    sb_card decks[64 * 16];
    assert_true(n <= 16);
    for (uint64_t done = 0; done < samples;) {
        const size_t k = samples - done < 64 ? (size_t)(samples - done)
                                              : 64;
        for (size_t d = 0; d < k; d++) {
            sb_card *deck = decks + d * n;
            for (size_t i = 0; i < n; i++)
                deck[i] = (sb_card)i;
            for (size_t i = n - 1; i >= 1; i--) {
                const uint64_t v = splitmix(&seed) >> (64 - bits);
                const size_t j = (size_t)(v % (i + 1));
                const sb_card t = deck[i];
                deck[i] = deck[j];
                deck[j] = t;
            }
        }
        sb_stat_fy_code.add(acc, decks, k);
        done += k;
    }
    sb_result res;
    memset(&res, 0, sizeof res);
    assert_int_equal(sb_stat_fy_code.finalize(acc, samples, alpha, &res),
                     SB_OK);
    const double p = res.p_value;
    sb_result_clear(&res);
    sb_stat_fy_code.free(acc);
    return p;
}

/* At 8 cards, rand() % m of 8 bits at the planned samples (power 0.9) is
   caught by fy-code at the fail threshold in most of 10 fixed-seed runs,
   and a fair Fisher-Yates at the same N is not.  False alarm: the
   caught count falls below 6 of 10 with probability 0.0016 if the power
   is 0.9 (binomial), and one of the 10 fair runs fails with probability
   10 alpha = 8e-7. */
static void test_rand_bits_caught(void **state)
{
    (void)state;
    const size_t n = 8;
    const sb_shape s = perm(n);
    const sb_plan_effect e = { SB_PLAN_RAND_BITS, 8, 0.9, 1e-6 / 13 };
    sb_plan_row row;
    assert_int_equal(sb_plan_stat(&sb_stat_fy_code, &s, &e, &row), SB_OK);
    assert_true(row.planned);
    unsigned caught = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        caught += fy_mod_p(n, 8, row.samples, seed, e.alpha) < e.alpha;
        assert_true(fy_mod_p(n, 64, row.samples, 100 + seed, e.alpha)
                    >= e.alpha);
    }
    assert_true(caught >= 6);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bisect),
        cmocka_unit_test(test_position_matches_forward),
        cmocka_unit_test(test_report_figure),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_not_planned),
        cmocka_unit_test(test_rand_bits_noncentrality),
        cmocka_unit_test(test_rand_bits_plan),
        cmocka_unit_test(test_rand_bits_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
