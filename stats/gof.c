/*
 * gof.c - Pearson X^2, its p-values, pooling, effect and power, and the
 * exact tail of pooled 1-D laws (binomial splits, below sb_gof_pool).
 *
 * Three ideas, each borrowed:
 *  a) pooling as TestU01 does it (sknuth.c, gofs.c): adjacent categories
 *     merged from the low end until each group expects enough, decided on
 *     the expectations alone, with the degrees of freedom after merging
 *     kept in the result;
 *  b) the sparse regime as TestU01's smultin: many equiprobable cells with
 *     small expectations are never pooled; X^2 is referred to a normal with
 *     its exact null mean and variance;
 *  c) power as in Cohen ("Statistical Power Analysis", 1988, ch. 7): the
 *     noncentrality lambda = N sum (p_i - p0_i)^2 / p0_i at which the test
 *     rejects with probability 0.9.  GSL has no noncentral chi-square cdf,
 *     so its survival function is the Poisson mixture of central ones.
 *
 * GSL's error handler is assumed off; every GSL value is checked for NaN.
 */
#include "stats/gof.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_log.h>
#include "shufflebias/status.h"

/* ---- the chi-square upper tail ---------------------------------------- */

/* Above this many degrees of freedom, Q is computed here, not by GSL. */
#define LARGE_DF 1e4
#define SQRT_2PI 2.50662827463100050242

/* P(chi-square(df) > x) = Q(a, y), the regularized upper incomplete gamma
   function at a = df/2, y = x/2.

   GSL's gsl_cdf_chisq_Q is exact to ~1e-12 for moderate df, but for large
   a its continued fraction stops short when |y - a| > sqrt(a): against a
   30-digit quadrature (mpmath 1.3.0) it is off by 1.8e-3 relative at
   df = 1e6, z = -1, by 7.5e-3 at df = 1.68e7 (position, n = 4096), z = 1.64,
   and by 19% at df = 1e8.  So for df >= LARGE_DF we use Temme's uniform
   asymptotic expansion (N. M. Temme, "The asymptotic expansion of the
   incomplete gamma functions", SIAM J. Math. Anal. 10, 1979), with the
   same two terms GSL itself uses near the centre (specfunc/gamma_inc.c,
   gamma_inc_Q_asymp_unif):
     Q(a, y) = erfc(eta sqrt(a/2)) / 2
               + exp(-a eta^2 / 2) / sqrt(2 pi a) (c0(eta) + c1(eta) / a),
     eta^2 / 2 = eps - log(1 + eps), eps = (y - a) / a, sign(eta) = sign(eps),
   valid uniformly in y; the error is O(a^-2) relative to the second term,
   measured below 2e-11 relative for df >= 1e4 against the same quadrature,
   at z from -3 to 7.  (gsl_cdf_chisq_Qinv has the same trouble, worse:
   its quantile at alpha = 1e-6, df = 3628799 has Q = 1.  Quantiles are
   therefore found by bisection on this function, see chisq_crit.) */
static double chisq_Q(double x, double df)
{
    if (x <= 0.0)
        return 1.0;
    if (df < LARGE_DF)
        return gsl_cdf_chisq_Q(x, df);
    const double a = 0.5 * df, y = 0.5 * x;
    const double eps = (y - a) / a;
    const double eta = (eps < 0.0 ? -1.0 : 1.0)
                       * sqrt(-2.0 * gsl_sf_log_1plusx_mx(eps));
    double c0, c1;
    if (fabs(eps) < 7.4009597974140505e-04) {   /* GSL_ROOT5_DBL_EPSILON */
        /* series of c0 and c1 about eps = 0, where 1/eps - 1/eta cancels */
        c0 = -1.0 / 3.0 + eps * (1.0 / 12.0 - eps * (23.0 / 540.0
             - eps * (353.0 / 12960.0 - eps * 589.0 / 30240.0)));
        c1 = -1.0 / 540.0 - eps / 288.0;
    } else {
        const double lam = y / a;
        const double eta3 = eta * eta * eta, eps3 = eps * eps * eps;
        c0 = 1.0 / eps - 1.0 / eta;
        c1 = -(eta3 * (lam * lam + 10.0 * lam + 1.0) - 12.0 * eps3)
             / (12.0 * eta3 * eps3);
    }
    const double r = exp(-0.5 * a * eta * eta) / (SQRT_2PI * sqrt(a))
                     * (c0 + c1 / a);
    return 0.5 * gsl_sf_erfc(eta * sqrt(0.5 * a)) + r;
}

/* The critical value c with Q_df(c) = alpha, by bisection on chisq_Q (it
   decreases in x): bracket by doubling from df + 10 sd, then halve to a
   relative 1e-13.  Slow next to a Newton step, but it is called once per
   detectable effect, and it cannot go astray. */
static int chisq_crit(double df, double alpha, double *crit)
{
    double lo = 0.0, hi = df + 10.0 * sqrt(2.0 * df) + 50.0, q;
    for (;;) {
        q = chisq_Q(hi, df);
        if (isnan(q) || hi > 1e300)
            return SB_ERANGE;
        if (q < alpha)
            break;
        lo = hi;
        hi *= 2.0;
    }
    for (int it = 0; it < 400 && hi - lo > 1e-13 * hi; it++) {
        const double mid = 0.5 * (lo + hi);
        q = chisq_Q(mid, df);
        if (isnan(q))
            return SB_ERANGE;
        if (q >= alpha)
            lo = mid;
        else
            hi = mid;
    }
    *crit = 0.5 * (lo + hi);
    return SB_OK;
}

/* ---- p-values --------------------------------------------------------- */

static int finish_p(double q, double *p, int *underflow)
{
    if (isnan(q))
        return SB_ERANGE;
    if (q < SB_GOF_P_FLOOR) {
        *p = 0.0;
        *underflow = 1;
    } else {
        *p = q > 1.0 ? 1.0 : q;
        *underflow = 0;
    }
    return SB_OK;
}

int sb_gof_chisq_p(double x, double df, double *p, int *underflow)
{
    if (!(df > 0.0) || isnan(x) || p == NULL || underflow == NULL)
        return SB_EINVAL;
    return finish_p(chisq_Q(x, df), p, underflow);
}

int sb_gof_normal_p(double z, double *p, int *underflow)
{
    if (isnan(z) || p == NULL || underflow == NULL)
        return SB_EINVAL;
    return finish_p(gsl_cdf_ugaussian_Q(z), p, underflow);
}

int sb_gof_poisson_result(sb_result *res, uint64_t x, double mu)
{
    if (!(mu > 0.0) || x > UINT32_MAX)
        return SB_EINVAL;
    res->statistic = (double)x;
    res->df = 0.0;
    res->discrete = 1;
    res->p_lower = gsl_cdf_poisson_Q((unsigned)x, mu);
    res->p_upper = fmin(1.0, res->p_lower
                             + gsl_ran_poisson_pdf((unsigned)x, mu));
    return finish_p(res->p_upper, &res->p_value, &res->p_underflow);
}

/* ---- pooling ---------------------------------------------------------- */

int sb_gof_pool(const double *expected, size_t k, double min_expected,
                size_t *last, size_t *groups)
{
    if (k == 0 || expected == NULL || last == NULL || groups == NULL)
        return SB_EINVAL;
    size_t g = 0;
    double acc = 0.0;
    for (size_t v = 0; v < k; v++) {
        acc += expected[v];
        if (acc >= min_expected) {
            last[g++] = v;
            acc = 0.0;
        }
    }
    /* Categories after the last closed group expect too little together:
       they join the previous group, or form the only one. */
    if (g == 0 || last[g - 1] != k - 1) {
        if (g == 0)
            g = 1;
        last[g - 1] = k - 1;
    }
    *groups = g;
    return SB_OK;
}

/* ---- power ------------------------------------------------------------ */

int sb_gof_ncx2_Q(double x, double df, double lambda, double *q)
{
    if (!(df > 0.0) || !(lambda >= 0.0) || isnan(x) || q == NULL)
        return SB_EINVAL;
    if (x <= 0.0) {
        *q = 1.0;
        return SB_OK;
    }
    /* The Poisson(mu) weights are summed over mu +- (10 sd + 20), beyond
       which their mass is below 1e-16 (a Poisson tail at 10 sd and more is
       far lighter than that, even for mu near 0). */
    const double mu = lambda / 2.0;
    const double width = 10.0 * sqrt(mu) + 20.0;
    const double jlo = floor(fmax(0.0, mu - width));
    const double jhi = ceil(mu + width);
    const double log_mu = mu > 0.0 ? log(mu) : 0.0;
    double sum = 0.0;
    for (double j = jlo; j <= jhi; j += 1.0) {
        double w;
        if (mu == 0.0)
            w = j == 0.0 ? 1.0 : 0.0;
        else
            w = exp(j * log_mu - mu - gsl_sf_lngamma(j + 1.0));
        if (w < 1e-300)
            continue;
        const double qj = chisq_Q(x, df + 2.0 * j);
        if (isnan(qj) || isnan(w))
            return SB_ERANGE;
        sum += w * qj;
    }
    *q = sum > 1.0 ? 1.0 : sum;
    return SB_OK;
}

/* The power of a test as a function of the noncentrality, increasing. */
typedef int (*power_fn)(const void *ctx, double lambda, double *power);

typedef struct chisq_ctx {
    double df;      /* degrees of freedom */
    double crit;    /* critical value at the level asked */
} chisq_ctx;

static int chisq_power(const void *ctx, double lambda, double *power)
{
    const chisq_ctx *c = ctx;
    return sb_gof_ncx2_Q(c->crit, c->df, lambda, power);
}

typedef struct sparse_ctx {
    double z_alpha;  /* standard normal critical value */
    double s0sq;     /* null variance of X^2 */
} sparse_ctx;

static int sparse_power(const void *ctx, double lambda, double *power)
{
    const sparse_ctx *c = ctx;
    const double z = (c->z_alpha * sqrt(c->s0sq) - lambda)
                     / sqrt(c->s0sq + 4.0 * lambda);
    *power = gsl_cdf_ugaussian_Q(z);
    return isnan(*power) ? SB_ERANGE : SB_OK;
}

/* Bisection on lambda for power(lambda) = target: bracket by doubling,
   then halve to a relative 1e-10 (the power curve is smooth and
   increasing, so nothing cleverer is needed). */
static int solve_lambda(power_fn f, const void *ctx, double target,
                        double *lambda)
{
    double lo = 0.0, hi = 1.0, pw;
    int st;
    for (;;) {
        if ((st = f(ctx, hi, &pw)) != SB_OK)
            return st;
        if (pw >= target)
            break;
        lo = hi;
        hi *= 2.0;
        if (hi > 1e15)
            return SB_ERANGE;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-10 * hi; it++) {
        const double mid = 0.5 * (lo + hi);
        if ((st = f(ctx, mid, &pw)) != SB_OK)
            return st;
        if (pw >= target)
            hi = mid;
        else
            lo = mid;
    }
    *lambda = 0.5 * (lo + hi);
    return SB_OK;
}

static int valid_level(double alpha, double power)
{
    return alpha > 0.0 && alpha < 1.0 && power > alpha && power < 1.0;
}

int sb_gof_detectable_chisq(double df, double alpha, double power,
                            double *lambda)
{
    if (!(df > 0.0) || !valid_level(alpha, power) || lambda == NULL)
        return SB_EINVAL;
    chisq_ctx c = { df, 0.0 };
    int st = chisq_crit(df, alpha, &c.crit);
    if (st != SB_OK)
        return st;
    return solve_lambda(chisq_power, &c, power, lambda);
}

int sb_gof_detectable_sparse(double df, uint64_t samples, double alpha,
                             double power, double *lambda)
{
    if (!(df > 0.0) || samples < 2 || !valid_level(alpha, power)
        || lambda == NULL)
        return SB_EINVAL;
    sparse_ctx c = { gsl_cdf_ugaussian_Qinv(alpha),
                     2.0 * df * (1.0 - 1.0 / (double)samples) };
    if (isnan(c.z_alpha))
        return SB_ERANGE;
    return solve_lambda(sparse_power, &c, power, lambda);
}

/* ---- filling a result ------------------------------------------------- */

void sb_gof_begin(sb_result *res, const char *name)
{
    memset(res, 0, sizeof *res);
    res->name = name;
    res->applicable = 1;
    res->p_value = 1.0;
    res->p_adjusted = 1.0;
    res->verdict = SB_VERDICT_NA;
}

int sb_gof_not_applicable(sb_result *res, const char *fmt, ...)
{
    va_list ap;
    res->applicable = 0;
    res->statistic = 0.0;
    res->df = 0.0;
    res->p_value = 1.0;
    res->p_underflow = 0;
    res->effect = 0.0;
    res->detectable = 0.0;
    va_start(ap, fmt);
    vsnprintf(res->note, sizeof res->note, fmt, ap);
    va_end(ap);
    return SB_OK;
}

int sb_gof_table_alloc(sb_table *t, size_t rows, size_t cols, int ranges)
{
    memset(t, 0, sizeof *t);
    if (rows == 0 || cols == 0 || cols > SIZE_MAX / sizeof(double) / rows)
        return SB_ENOMEM;
    const size_t cells = rows * cols;
    t->observed = calloc(cells, sizeof *t->observed);
    t->expected = calloc(cells, sizeof *t->expected);
    if (ranges) {
        t->lo = calloc(cells, sizeof *t->lo);
        t->hi = calloc(cells, sizeof *t->hi);
    }
    if (!t->observed || !t->expected || (ranges && (!t->lo || !t->hi))) {
        free(t->observed);
        free(t->expected);
        free(t->lo);
        free(t->hi);
        memset(t, 0, sizeof *t);
        return SB_ENOMEM;
    }
    t->rows = rows;
    t->cols = cols;
    return SB_OK;
}

int sb_gof_names(sb_result *res, int cols)
{
    const size_t count = cols ? res->table.cols : res->table.rows;
    char **names = calloc(count ? count : 1, sizeof *names);
    if (!names)
        return SB_ENOMEM;
    if (cols)
        res->labels = names;
    else
        res->row_names = names;
    return SB_OK;
}

int sb_gof_name(char **names, size_t i, const char *text)
{
    const size_t len = strlen(text) + 1;
    names[i] = malloc(len);
    if (!names[i])
        return SB_ENOMEM;
    memcpy(names[i], text, len);
    return SB_OK;
}

/* What every X^2 result holds beside its p-value: the effect is the
   chi-square distance per sample beyond the null mean, the detectable
   effect lambda* per sample. */
static void fill_chisq_fields(sb_result *res, double x2, double df,
                              uint64_t samples, double lambda)
{
    res->statistic = x2;
    res->df = df;
    res->effect = fmax(0.0, (x2 - df) / (double)samples);
    res->detectable = lambda / (double)samples;
}

int sb_gof_chisq_result(sb_result *res, double x2, double df,
                        uint64_t samples, double fail_alpha)
{
    if (samples == 0)
        return SB_EINVAL;
    int st = sb_gof_chisq_p(x2, df, &res->p_value, &res->p_underflow);
    if (st != SB_OK)
        return st;
    double lambda;
    st = sb_gof_detectable_chisq(df, fail_alpha, SB_GOF_POWER, &lambda);
    if (st != SB_OK)
        return st;
    fill_chisq_fields(res, x2, df, samples, lambda);
    return SB_OK;
}

int sb_gof_sparse_result(sb_result *res, double x2, double df,
                         uint64_t samples, double fail_alpha)
{
    if (samples < 2 || !(df > 0.0))
        return SB_EINVAL;
    const double var = 2.0 * df * (1.0 - 1.0 / (double)samples);
    int st = sb_gof_normal_p((x2 - df) / sqrt(var), &res->p_value,
                             &res->p_underflow);
    if (st != SB_OK)
        return st;
    double lambda;
    st = sb_gof_detectable_sparse(df, samples, fail_alpha, SB_GOF_POWER,
                                  &lambda);
    if (st != SB_OK)
        return st;
    fill_chisq_fields(res, x2, df, samples, lambda);
    return SB_OK;
}

/* For a card x group table the shift is the rank-one pattern
   eps a_c b_g with a = 1 for the card and -1/(n-1) for the others, b = 1
   for the group and -p_g'/(1 - p_g) for the others, so that every row and
   column keeps its sum.  Its plain noncentrality per sample is
   eps^2 (sum a^2)(sum_g' b_g'^2 / p_g') = eps^2 (n/(n-1)) / (p_g (1-p_g)),
   and the scaling by (n-1)/n leaves eps^2 / (p_g (1 - p_g)): with
   delta = eps / p_g, the 1-D formula delta^2 p / (1 - p). */
void sb_gof_detectable_words(sb_result *res, double p, const char *what)
{
    if (!(res->detectable > 0.0) || !(p > 0.0 && p < 1.0))
        return;
    char pct[32];
    sb_gof_percent(pct, sizeof pct,
                   100.0 * sqrt(res->detectable * (1.0 - p) / p));
    snprintf(res->detectable_desc, sizeof res->detectable_desc,
             "%s: %s%% more or less often than its rate", what, pct);
    res->detectable_share = p;
}

void sb_gof_percent(char *buf, size_t len, double pct)
{
    const double a = fabs(pct);
    if (a >= 99.5)
        snprintf(buf, len, "%.0f", pct);
    else if (a >= 9.95)
        snprintf(buf, len, "%.1f", pct);
    else if (a >= 0.995)
        snprintf(buf, len, "%.2f", pct);
    else
        snprintf(buf, len, "%.3g", pct);
}

/* "1 cycle", "0 fixed points", "5-52 cycles"; "flush", "four of a kind to
   straight flush". */
static void group_label(char *buf, size_t len, long lo, long hi,
                        const sb_gof_law *law)
{
    if (law->names && lo == hi)
        snprintf(buf, len, "%s", law->names[lo - law->first_value]);
    else if (law->names)
        snprintf(buf, len, "%s to %s", law->names[lo - law->first_value],
                 law->names[hi - law->first_value]);
    else if (lo == hi)
        snprintf(buf, len, "%ld %s", lo, lo == 1 ? law->one : law->many);
    else
        snprintf(buf, len, "%ld-%ld %s", lo, hi, law->many);
}

int sb_gof_pooled_begin(sb_gof_pooled *p, sb_result *res, const double *prob,
                        size_t k, uint64_t samples)
{
    p->k = k;
    p->groups = 0;
    p->expected = NULL;
    p->last = NULL;
    if (prob == NULL || k == 0)
        return SB_EINVAL;
    p->expected = malloc(k * sizeof *p->expected);
    p->last = malloc(k * sizeof *p->last);
    if (!p->expected || !p->last)
        return SB_ENOMEM;
    for (size_t v = 0; v < k; v++)
        p->expected[v] = (double)samples * prob[v];
    int st = sb_gof_pool(p->expected, k, SB_GOF_MIN_EXPECTED, p->last,
                         &p->groups);
    if (st == SB_OK && p->groups < 2)
        return sb_gof_not_applicable(res,
            "'%s' needs more samples: %" PRIu64 " cannot fill two groups "
            "expecting >= %g each", res->name, samples, SB_GOF_MIN_EXPECTED);
    return st;
}

/* ---- the pooled statistic: exact binomial splits -----------------------

   Why not Pearson's X^2.  A pooled law always keeps groups that expect
   only 5 to 10 samples (its sparse end), however many samples there are.
   A Poisson count of mean E has a right tail far heavier than the normal
   one that chi-square assumes: the term (O - E)^2 / E of such a group
   exceeds z^2 with probability about exp(z^3 / (6 sqrt(E))) times the
   normal tail, a factor of tens at the 1e-7 a verdict is decided at.  So
   X^2 over pooled groups is liberal exactly where it matters.  The
   likelihood ratio G^2 fixes the first order of that error but not the
   discreteness of a small group.

   What is used instead, exact at every size.  The multinomial counts of
   the groups, O_0 .. O_{G-1} over N samples with expectations E_g, factor
   into G - 1 successive binomials (the stick-breaking form of the
   multinomial), from the last group down: given O_{g+1} .. O_{G-1},
       O_g ~ Binomial(n_g, pi_g),  n_g = O_0 + ... + O_g,
                                   pi_g = E_g / (E_0 + ... + E_g),
   for g = G-1, ..., 1.
   Each split gets the exact two-sided likelihood-ratio p-value of its
   binomial, p_g = P(D(X) >= D(O_g)) with D the binomial deviance
   2 [x ln(x / mu) + (n - x) ln((n - x) / (n - mu))], mu = n pi, summed
   from the binomial's probabilities.  P(p_g <= a) <= a given the earlier
   splits, whatever they were, so Y_g = Qinv_chi2(1)(p_g) is stochastically
   at most a chi-square(1) given the past, and the sum
       T = Y_1 + ... + Y_{G-1}
   is stochastically at most a chi-square(G - 1) (couple each Y_g with the
   same uniform as an independent chi-square(1)).  Referring T to
   chi-square(G - 1) is Lancaster's combination of tests (H. O. Lancaster,
   "The combination of probabilities: an application of orthonormal
   functions", Austral. J. Statist. 3, 1961) along Lancaster's partition of
   a multinomial chi-square into binomial components ("The derivation and
   partition of chi-square in certain discrete distributions", Biometrika
   36, 1949):
   its p-value satisfies P(p <= a) <= a for every a, every N and every law
   - a theorem, not an approximation.  Where groups are large each Y_g is
   the split's deviance to within the binomial's discreteness, and the
   deviances of the splits add up to G^2 exactly (the likelihood factors
   the same way), so T is G^2 there and has the power of X^2 against the
   same alternatives; a sparse group costs only what its discreteness
   forces.

   The binomial probabilities are summed term by term from the observed
   count away from the mode (each term from the last by one ratio), with
   the first term from Loader's saddle-point form of the probability
   (C. Loader, "Fast and accurate computation of binomial probabilities",
   2000), which keeps its relative accuracy at 10^9 trials; GSL's
   incomplete beta answers NaN near the centre from about 10^8 trials. */

#define SQRT_2PI_LOG 0.91893853320467274178   /* ln sqrt(2 pi) */

/* x ln(x / m) + m - x, without the cancellation when x is near m
   (Loader's bd0). */
static double bd0(double x, double m)
{
    if (x == 0.0)
        return m;
    if (fabs(x - m) < 0.1 * (x + m)) {
        const double v = (x - m) / (x + m), v2 = v * v;
        double s = (x - m) * v, ej = 2.0 * x * v;
        for (int j = 1; j < 1000; j++) {
            ej *= v2;
            const double s1 = s + ej / (double)(2 * j + 1);
            if (s1 == s)
                return s;
            s = s1;
        }
        return s;
    }
    return x * log(x / m) + m - x;
}

/* ln m! - ((m + 1/2) ln m - m + ln sqrt(2 pi)), m >= 1 a whole number. */
static double stirlerr(double m)
{
    if (m <= 15.0)
        return gsl_sf_lnfact((unsigned)m)
               - ((m + 0.5) * log(m) - m + SQRT_2PI_LOG);
    const double m2 = m * m;
    return (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0
            - 1.0 / (1680.0 * m2)) / m2) / m2) / m;
}

/* P(X = x) for X ~ Binomial(n, pi), 0 <= x <= n, 0 < pi < 1. */
static double binom_pmf(double x, double n, double pi)
{
    const double q = 1.0 - pi;
    if (x == 0.0)
        return exp(n * log1p(-pi));
    if (x == n)
        return exp(n * log(pi));
    const double lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x)
                      - bd0(x, n * pi) - bd0(n - x, n * q);
    return exp(lc - SQRT_2PI_LOG + 0.5 * log(n / (x * (n - x))));
}

/* The sum of P(X = j) from j = x on, upwards (up) or downwards, where the
   terms only fall: x at or beyond the mode on that side. */
static double binom_run(double x, double n, double pi, int up)
{
    const double odds = pi / (1.0 - pi);
    double t = binom_pmf(x, n, pi), s = t;
    for (double j = x; t > 1e-17 * s;) {
        if (up) {
            if (j >= n)
                break;
            t *= (n - j) / (j + 1.0) * odds;
            j += 1.0;
        } else {
            if (j <= 0.0)
                break;
            t *= j / ((n - j + 1.0) * odds);
            j -= 1.0;
        }
        s += t;
    }
    return s;
}

/* P(X <= x) and P(X >= x), each summed on its falling side. */
static double binom_le(double x, double n, double pi)
{
    if (x < 0.0)
        return 0.0;
    if (x >= n)
        return 1.0;
    const double mode = floor((n + 1.0) * pi);
    return x <= mode ? binom_run(x, n, pi, 0)
                     : 1.0 - binom_run(x + 1.0, n, pi, 1);
}

static double binom_ge(double x, double n, double pi)
{
    if (x <= 0.0)
        return 1.0;
    if (x > n)
        return 0.0;
    const double mode = floor((n + 1.0) * pi);
    return x >= mode ? binom_run(x, n, pi, 1)
                     : 1.0 - binom_run(x - 1.0, n, pi, 0);
}

/* The binomial deviance of x: 2 [bd0(x, mu) + bd0(n - x, n - mu)]. */
static double binom_dev(double x, double n, double mu)
{
    return 2.0 * (bd0(x, mu) + bd0(n - x, n - mu));
}

/* One split: x of n against Binomial(n, pi).  Returns Y, the chi-square(1)
   quantile of the exact two-sided likelihood-ratio p-value (0 for a split
   with nothing to say). */
static double split_y(double x, double n, double pi)
{
    if (!(n > 0.0) || !(pi > 0.0 && pi < 1.0))
        return 0.0;
    const double mu = n * pi, d = binom_dev(x, n, mu);
    /* Outcomes whose deviance ties with x's, to rounding, count as at
       least as extreme: the p-value can only grow by it. */
    const double dtol = d - 1e-9 * (d + 1.0);
    if (!(dtol > 0.0))
        return 0.0;
    double p;
    if (x >= mu) {
        /* The other side: the largest a < mu with D(a) >= d, if any (D
           falls from 0 to mu). */
        double lo = 0.0, hi = floor(mu);
        if (hi >= x)
            hi = x - 1.0;
        double tail = 0.0;
        if (hi >= 0.0 && binom_dev(0.0, n, mu) >= dtol) {
            while (hi - lo > 0.5) {      /* invariant: D(lo) >= dtol */
                const double mid = floor(0.5 * (lo + hi + 1.0));
                if (binom_dev(mid, n, mu) >= dtol)
                    lo = mid;
                else
                    hi = mid - 1.0;
            }
            tail = binom_le(lo, n, pi);
        }
        p = tail + binom_ge(x, n, pi);
    } else {
        /* The smallest b > mu with D(b) >= d, if any (D rises to n). */
        double lo = ceil(mu), hi = n;
        if (lo <= x)
            lo = x + 1.0;
        double tail = 0.0;
        if (lo <= n && binom_dev(n, n, mu) >= dtol) {
            while (hi - lo > 0.5) {      /* invariant: D(hi) >= dtol */
                const double mid = floor(0.5 * (lo + hi));
                if (binom_dev(mid, n, mu) >= dtol)
                    hi = mid;
                else
                    lo = mid + 1.0;
            }
            tail = binom_ge(hi, n, pi);
        }
        p = binom_le(x, n, pi) + tail;
    }
    if (!(p < 1.0))
        return 0.0;
    /* Below the normal doubles (a subnormal p has lost its digits, and
       GSL's quantile of it is infinite), the deviance stands in for Y:
       any Y this large underflows p anyway. */
    if (!(p >= DBL_MIN))
        return d;
    const double z = gsl_cdf_ugaussian_Qinv(0.5 * p);
    return isfinite(z) ? z * z : d;
}

/* T over one row of groups (observed o[g], expected e[g]).  The splits
   run from the last group down: group g against groups 0..g-1, given
   their sum, for g = G-1, ..., 1; its trials and rate are prefix sums, so
   nothing cancels. */
double sb_gof_split_statistic(const double *o, const double *e,
                              size_t groups)
{
    double n = groups ? o[0] : 0.0, sum_e = groups ? e[0] : 0.0, t = 0.0;
    for (size_t g = 1; g < groups; g++) {
        n += o[g];
        sum_e += e[g];
        t += split_y(o[g], n, e[g] / sum_e);
    }
    return t;
}

double sb_gof_pooled_statistic(const sb_gof_pooled *p,
                               const uint64_t *counts, long first_value,
                               sb_table *t, size_t row, size_t *worst,
                               double *worst_c)
{
    size_t start = 0;
    *worst = 0;
    *worst_c = -1.0;
    for (size_t g = 0; g < p->groups; g++) {
        double o = 0.0, e = 0.0;
        for (size_t v = start; v <= p->last[g]; v++) {
            o += (double)counts[v];
            e += p->expected[v];
        }
        const double c = (o - e) * (o - e) / e;
        if (c > *worst_c) {
            *worst_c = c;
            *worst = g;
        }
        const size_t cell = row * p->groups + g;
        t->observed[cell] = o;
        t->expected[cell] = e;
        if (t->lo) {
            t->lo[cell] = first_value + (long)start;
            t->hi[cell] = first_value + (long)p->last[g];
        }
        start = p->last[g] + 1;
    }
    const size_t base = row * p->groups;
    return sb_gof_split_statistic(t->observed + base, t->expected + base,
                                  p->groups);
}

void sb_gof_pooled_note(const sb_gof_pooled *p, char *buf, size_t len)
{
    if (p->groups < p->k)
        snprintf(buf, len, "pooled %zu categories into %zu (each expects "
                 ">= %g)", p->k, p->groups, SB_GOF_MIN_EXPECTED);
    else
        snprintf(buf, len, "no pooling needed");
}

void sb_gof_pooled_end(sb_gof_pooled *p)
{
    free(p->expected);
    free(p->last);
    p->expected = NULL;
    p->last = NULL;
}

int sb_gof_law_result(sb_result *res, const char *name,
                      const uint64_t *counts, const sb_gof_law *law,
                      uint64_t samples, double fail_alpha)
{
    sb_gof_begin(res, name);
    if (counts == NULL || law == NULL || law->prob == NULL || law->k == 0
        || law->desc == NULL
        || (law->names == NULL && (law->one == NULL || law->many == NULL)))
        return SB_EINVAL;
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");

    const double N = (double)samples;
    sb_gof_pooled p;
    int st = sb_gof_pooled_begin(&p, res, law->prob, law->k, samples);
    if (st == SB_OK && res->applicable)
        st = sb_gof_table_alloc(&res->table, 1, p.groups, 1);
    if (st != SB_OK || !res->applicable) {
        sb_gof_pooled_end(&p);
        return st;
    }
    const size_t groups = p.groups;
    size_t worst_g;
    double worst;
    const double x2 = sb_gof_pooled_statistic(&p, counts, law->first_value,
                                              &res->table, 0, &worst_g,
                                              &worst);
    sb_gof_pooled_note(&p, res->note, sizeof res->note);
    sb_gof_pooled_end(&p);

    st = sb_gof_chisq_result(res, x2, (double)(groups - 1), samples,
                             fail_alpha);
    if (st != SB_OK)
        return st;
    /* Every group by name, for renderers. */
    res->col_label = law->many ? law->many : "category";
    st = sb_gof_names(res, 1);
    for (size_t g = 0; st == SB_OK && g < groups; g++) {
        char name[128];
        group_label(name, sizeof name, res->table.lo[g], res->table.hi[g],
                    law);
        st = sb_gof_name(res->labels, g, name);
    }
    if (st != SB_OK)
        return st;

    snprintf(res->null_desc, sizeof res->null_desc,
             "%s; exact binomial splits, chi-square(%zu)", law->desc,
             groups - 1);

    char label[64], obs[32], want[32];
    const sb_table *t = &res->table;
    size_t likely = 0;
    for (size_t g = 1; g < groups; g++)
        if (t->expected[g] > t->expected[likely])
            likely = g;
    group_label(label, sizeof label, t->lo[likely], t->hi[likely], law);
    sb_gof_percent(want, sizeof want, 100.0 * t->expected[likely] / N);
    char what[sizeof label + sizeof want + 16];
    snprintf(what, sizeof what, "%s (%s%% of decks)", label, want);
    sb_gof_detectable_words(res, t->expected[likely] / N, what);
    if (worst > 0.0) {
        group_label(label, sizeof label, t->lo[worst_g], t->hi[worst_g],
                    law);
        sb_gof_percent(obs, sizeof obs, 100.0 * t->observed[worst_g] / N);
        sb_gof_percent(want, sizeof want, 100.0 * t->expected[worst_g] / N);
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "%s: %s%% of decks against %s%% expected", label, obs, want);
    } else {
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "no deviation from the expected counts");
    }
    return SB_OK;
}

/* ---- card x group tables -----------------------------------------------

   The null, derived once for every such table.  One uniform sample puts
   the n cards into groups g = 0..G-1 of fixed sizes s_g >= 1 (summing to
   n), every assignment equally likely; p_g = s_g / n.  Let X_cg be 1 when
   card c is in group g.  Then E X_cg = p_g, and
     one card:       Cov(X_cg, X_cg') = delta_gg' p_g - p_g p_g'
                     (a card is in exactly one group: one multinomial draw);
     cards c != c':  P(c in g, c' in g') = s_g (s_g' - delta_gg') / (n(n-1)),
                     and since 1/(n(n-1)) - 1/n^2 = 1/(n^2 (n-1)),
                     Cov(X_cg, X_c'g') = -(delta_gg' p_g - p_g p_g') / (n-1).
   So Cov(X) = A (x) B: on the card side A = (n/(n-1)) (I - J/n), 1 on the
   diagonal and -1/(n-1) off it (J the all-ones matrix); on the group side
   the multinomial B = diag(p) - p p^T.  Pearson's X^2 divides cell (c, g)
   by its expectation, which standardizes B into I - q q^T, q_g =
   sqrt(p_g), |q| = 1: a projection of rank G - 1, as I - J/n is one of
   rank n - 1.  Over N independent samples, with E_cg = N p_g,
   (O - E)/sqrt(E) tends to a normal vector whose covariance is n/(n-1)
   times the projection (I - J/n) (x) (I - q q^T) of rank (n-1)(G-1); so
       X^2 (n-1)/n  ->  chi-square((n-1)(G-1)),
   and the plain X^2 has mean exactly n(G-1) for every N (each cell gives
   Var(O)/E = 1 - p_g, and the G groups of a card sum to G - 1).
   The cases: the position matrix (n groups of one card), (n-1)^2; card x
   hand with H hands of n/H cards, (n-1)(H-1) (DESIGN.md, "Statistics:
   facts to build on"); card x slot of a k-card draw, k groups of one card
   and the n - k cards not drawn, (n-1)k; with k = n the last group is
   empty (no variance, E = 0): it is left out, and the table is the position
   matrix again.  tests/test_card_groups.c checks both means by simulation. */

/* Card c's count in column 'col' (a counted group, or the rest). */
static uint64_t groups_count(const sb_gof_groups *g, size_t c, size_t col,
                             uint64_t rest)
{
    return col < g->counted
               ? g->counts[c * g->card_step + col * g->group_step]
               : rest;
}

/* The rest count of card c: the samples in which it was in no counted
   group.  Returns 0 when the counts exceed the samples (bad input). */
static int groups_rest(const sb_gof_groups *g, size_t c, uint64_t samples,
                       uint64_t *rest)
{
    uint64_t in = 0;
    for (size_t col = 0; col < g->counted; col++) {
        const uint64_t o = g->counts[c * g->card_step + col * g->group_step];
        if (o > samples - in)
            return 0;
        in += o;
    }
    *rest = samples - in;
    return 1;
}

int sb_gof_groups_result(sb_result *res, const sb_gof_groups *g,
                         uint64_t samples, double fail_alpha)
{
    if (res == NULL || g == NULL || g->counts == NULL || g->n < 2
        || g->counted == 0 || g->size == 0 || g->group == NULL
        || g->table == NULL || g->counted > g->n / g->size)
        return SB_EINVAL;
    const size_t rest_size = g->n - g->counted * g->size;
    const size_t cols = g->counted + (rest_size > 0);
    if (cols < 2 || (rest_size > 0 && g->rest == NULL))
        return SB_EINVAL;
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");

    const double N = (double)samples, n = (double)g->n;
    const double e = N * (double)g->size / n;
    const double e_rest = N * (double)rest_size / n;
    /* A cell expecting less than one sample: no chi-square (one sample
       gives the same X^2 whatever it is), and a pass would say nothing. */
    if (e < 1.0 || (rest_size > 0 && e_rest < 1.0))
        return sb_gof_not_applicable(res,
            "needs more samples: %" PRIu64 " leave a cell of its table "
            "expecting %.3g, fewer than one", samples, fmin(e, rest_size
                                                        ? e_rest : e));
    double x2 = 0.0, worst = -1.0;
    size_t worst_c = 0, worst_col = 0;
    for (size_t c = 0; c < g->n; c++) {
        uint64_t rest = 0;
        if (rest_size > 0 && !groups_rest(g, c, samples, &rest))
            return SB_EINVAL;
        for (size_t col = 0; col < cols; col++) {
            const double ec = col < g->counted ? e : e_rest;
            const double d = (double)groups_count(g, c, col, rest) - ec;
            const double contrib = d * d / ec;
            x2 += contrib;
            if (contrib > worst) {
                worst = contrib;
                worst_c = c;
                worst_col = col;
            }
        }
    }
    const double df = (n - 1.0) * (double)(cols - 1);
    int st = sb_gof_chisq_result(res, x2 * (n - 1.0) / n, df, samples,
                                 fail_alpha);
    if (st != SB_OK)
        return st;

    /* A table of nothing is not kept: an accumulator that counted nothing
       but is told N samples (what the plan of --effect asks of it) would
       only spend the memory of its cells.  Group 0 holds a card of every
       sample that was counted. */
    uint64_t in_group0 = 0;
    for (size_t c = 0; c < g->n; c++)
        in_group0 += g->counts[c * g->card_step];
    const int keep = g->n <= SB_GOF_TABLE_CELLS / cols && in_group0 > 0;
    res->row_label = "card";
    res->col_label = g->group;
    if (keep) {
        st = sb_gof_table_alloc(&res->table, g->n, cols, 0);
        if (st == SB_OK && rest_size > 0)
            st = sb_gof_names(res, 1);
        for (size_t col = 0; st == SB_OK && rest_size > 0 && col < cols;
             col++) {
            /* The rest column is not one of the groups: every column by
               name. */
            char name[96];
            if (col < g->counted)
                snprintf(name, sizeof name, "%s %zu", g->group, col);
            else
                snprintf(name, sizeof name, "%s", g->rest);
            st = sb_gof_name(res->labels, col, name);
        }
        if (st != SB_OK)
            return st;
        for (size_t c = 0; c < g->n; c++) {
            uint64_t rest = 0;
            if (rest_size > 0)
                groups_rest(g, c, samples, &rest);
            for (size_t col = 0; col < cols; col++) {
                res->table.observed[c * cols + col] =
                    (double)groups_count(g, c, col, rest);
                res->table.expected[c * cols + col] =
                    col < g->counted ? e : e_rest;
            }
        }
    }

    if (rest_size > 0)
        snprintf(res->null_desc, sizeof res->null_desc,
                 "chi-square((n-1)(G-1) = %.0f) for x2 (n-1)/n over %s, "
                 "%.4g expected per %s, %.4g %s", df, g->table, e, g->group,
                 e_rest, g->rest);
    else
        snprintf(res->null_desc, sizeof res->null_desc,
                 "chi-square((n-1)(G-1) = %.0f) for x2 (n-1)/n over %s, "
                 "%.4g expected per cell", df, g->table, e);
    char sparse[96] = "", omitted[64] = "";
    if (e < SB_GOF_MIN_EXPECTED)
        snprintf(sparse, sizeof sparse, "; only %.3g expected per %s: "
                 "chi-square approximation rough", e, g->group);
    if (!keep && in_group0 > 0)
        snprintf(omitted, sizeof omitted, "; table not kept above %u cells",
                 SB_GOF_TABLE_CELLS);
    snprintf(res->note, sizeof res->note,
             "x2 scaled by (n-1)/n: rows and columns have fixed sums, so "
             "the plain x2 (%.6g) has mean n(G-1) = %.0f%s%s", x2,
             n * (double)(cols - 1), sparse, omitted);

    char what[64];
    snprintf(what, sizeof what, "one card in one %s", g->group);
    sb_gof_detectable_words(res, (double)g->size / n, what);
    if (worst > 0.0) {
        uint64_t rest = 0;
        if (rest_size > 0)
            groups_rest(g, worst_c, samples, &rest);
        const double ec = worst_col < g->counted ? e : e_rest;
        const double o = (double)groups_count(g, worst_c, worst_col, rest);
        const double rel = 100.0 * (o - ec) / ec;
        char where[64], pct[32];
        if (worst_col < g->counted)
            snprintf(where, sizeof where, "card %zu in %s %zu", worst_c,
                     g->group, worst_col);
        else
            snprintf(where, sizeof where, "card %zu %s", worst_c, g->rest);
        sb_gof_percent(pct, sizeof pct, fabs(rel));
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "%s: %s%% %s often than uniform", where, pct,
                 rel < 0 ? "less" : "more");
    } else {
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "every card in every %s exactly as often as uniform",
                 g->group);
    }
    return SB_OK;
}
