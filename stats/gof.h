/*
 * gof.h - goodness-of-fit machinery shared by every statistic.
 *
 * A statistic counts; this module turns counts into a result: Pearson's
 * X^2 against an exact null (for pooled 1-D laws, exact binomial splits
 * instead: sb_gof_pooled_statistic), its upper-tail p-value (GSL cdfs),
 * pooling of sparse categories, the effect size and the detectable
 * effect.  Nothing here is specific to one statistic, and no statistic
 * repeats any of it.
 *
 * GSL's error handler must be off (main turns it off, tests call
 * gsl_set_error_handler_off()): every GSL result is checked for NaN here
 * and turned into a status, never an abort.
 */
#ifndef SB_GOF_H
#define SB_GOF_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/stat.h"

/* p-values below this are reported as 0 with p_underflow set, so that the
   JSON can say "< 1e-300" instead of printing a denormal or a GSL zero. */
#define SB_GOF_P_FLOOR 1e-300
/* Pooling makes every group expect at least this many samples. */
#define SB_GOF_MIN_EXPECTED 5.0
/* The power at which the detectable effect is stated. */
#define SB_GOF_POWER 0.9

/* ---- p-values --------------------------------------------------------- */

/* Upper tail P(chi-square(df) >= x) into *p, df > 0.  When it is 0 or below
   SB_GOF_P_FLOOR, *p is set to 0 and *underflow to 1 (else 0).
   Returns SB_OK, SB_EINVAL (df <= 0 or x NaN) or SB_ERANGE (GSL answered
   NaN). */
int sb_gof_chisq_p(double x, double df, double *p, int *underflow);

/* Upper tail P(Z >= z) of the standard normal, same conventions. */
int sb_gof_normal_p(double z, double *p, int *underflow);

/* A count x referred to Poisson(mu): statistic x, df 0, the upper tail
   P(X >= x) as p_value (a valid p-value, as verdicts need: a mid-p may
   reject a true null up to twice as often as its level), and the result
   marked discrete with p_lower = P(X > x), p_upper = P(X >= x), from which
   calibration checks draw randomized p-values.  mu > 0 and
   x <= UINT32_MAX, else SB_EINVAL. */
int sb_gof_poisson_result(sb_result *res, uint64_t x, double mu);

/* ---- pooling ---------------------------------------------------------- */

/* Pool adjacent categories of a one-dimensional distribution so that every
   group expects at least 'min_expected': sweep from the low end, closing a
   group as soon as its expectation reaches 'min_expected'; a last group
   that falls short joins the previous one.  The decision depends on the
   expectations only, never on what was observed.
   'last' (k entries) receives the last category index of each group, in
   order; *groups the number of groups (1 when the whole expectation is
   below 'min_expected': nothing can then be tested).  df = groups - 1.
   Returns SB_OK, or SB_EINVAL when k is 0 or a pointer is NULL. */
int sb_gof_pool(const double *expected, size_t k, double min_expected,
                size_t *last, size_t *groups);

/* ---- power ------------------------------------------------------------ */

/* Survival function of the noncentral chi-square, P(chi2'(df, lambda) > x),
   as the Poisson mixture sum_j Pois(j; lambda/2) Q_{df+2j}(x) (Johnson,
   Kotz and Balakrishnan, "Continuous Univariate Distributions" vol. 2,
   ch. 29), summed over the Poisson mass beyond 1e-16.
   Returns SB_OK, SB_EINVAL or SB_ERANGE (GSL answered NaN). */
int sb_gof_ncx2_Q(double x, double df, double lambda, double *q);

/* The smallest noncentrality lambda at which a chi-square(df) test at level
   'alpha' rejects with probability 'power': the lambda solving
   P(chi2'(df, lambda) > Qinv_df(alpha)) = power, found by bisection to a
   relative 1e-10.  Returns SB_OK, SB_EINVAL or SB_ERANGE. */
int sb_gof_detectable_chisq(double df, double alpha, double power,
                            double *lambda);

/* The normal analogue for the sparse regime, where X^2 over df + 1
   equiprobable cells is referred to a normal with its exact null moments
   mean df and variance s0^2 = 2 df (1 - 1/samples): under an alternative
   with noncentrality lambda, X^2 has mean about df + lambda and variance
   about s0^2 + 4 lambda (those of a noncentral chi-square), so the power
   is Q((z_alpha s0 - lambda) / sqrt(s0^2 + 4 lambda)).  Solved for 'power'
   by the same bisection.  Returns SB_OK, SB_EINVAL or SB_ERANGE. */
int sb_gof_detectable_sparse(double df, uint64_t samples, double alpha,
                             double power, double *lambda);

/* ---- filling a result ------------------------------------------------- */

/* Start a result: zero it (it must own no table: fresh, or cleared with
   sb_result_clear) and set its name and p-values to 1. */
void sb_gof_begin(sb_result *res, const char *name);

/* Mark a begun result not applicable, the one-line reason in 'note'
   (printf format).  Returns SB_OK: not applicable is an answer, not an
   error. */
int sb_gof_not_applicable(sb_result *res, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Allocate a zeroed rows x cols table, with lo/hi ranges when 'ranges' is
   set.  Returns SB_OK or SB_ENOMEM (the table is then empty). */
int sb_gof_table_alloc(sb_table *t, size_t rows, size_t cols, int ranges);

/* Names for a result's table, after sb_gof_table_alloc: an array of
   res->table.cols (cols set) or res->table.rows NULL names into
   res->labels or res->row_names, then sb_gof_name to set the i-th.
   Returns SB_OK or SB_ENOMEM (sb_result_clear frees what was made). */
int sb_gof_names(sb_result *res, int cols);
int sb_gof_name(char **names, size_t i, const char *text);

/* Fill statistic, df, p_value, p_underflow, effect = max(0, (x2 - df) / N)
   and detectable = lambda* / N at level 'fail_alpha', for X^2 = 'x2'
   referred to chi-square(df).  Returns SB_OK, SB_EINVAL or SB_ERANGE. */
int sb_gof_chisq_result(sb_result *res, double x2, double df,
                        uint64_t samples, double fail_alpha);

/* The same for the sparse regime (see sb_gof_detectable_sparse): X^2 over
   df + 1 equiprobable cells, p from the normal upper tail of
   (x2 - df) / sqrt(2 df (1 - 1/N)); N >= 2. */
int sb_gof_sparse_result(sb_result *res, double x2, double df,
                         uint64_t samples, double fail_alpha);

/* The detectable effect in words, for the simplest pattern: one cell (or
   category) of null probability p, a share p of the samples, that comes
   out a relative delta more or less often than its rate, the other cells
   making up the difference in proportion.  Such a shift has chi-square
   distance delta^2 p / (1 - p) per sample, so the delta detected is
   sqrt(d (1 - p) / p) for res->detectable = d.  For a card x group table
   with fixed margins (card c in group g, p = the group's share of the
   deck), the shift of one cell evened out along its row and its column
   has the same distance for X^2 (n-1)/n (derivation in gof.c), so the same
   words hold.  Writes "<what>: <delta>% more or less often than its rate"
   into res->detectable_desc and p into res->detectable_share; nothing
   when res->detectable is 0. */
void sb_gof_detectable_words(sb_result *res, double p, const char *what);

/* A percentage in words, with about three significant digits and no
   exponent above 1e-4: 5100, 17.2, 1.92, 0.0123. */
void sb_gof_percent(char *buf, size_t len, double pct);

/* A one-dimensional null law: the probabilities of the values a
   statistic takes, and how those values read in words. */
typedef struct sb_gof_law {
    const double *prob;         /* prob[i], the null probability of
                                   category i: k values */
    size_t k;                   /* categories, >= 1 */
    long first_value;           /* category i is the value first_value + i
                                   (the support: 1..n for cycles) */
    const char *one, *many;     /* a value's unit, "cycle" and "cycles":
                                   "1 cycle", "5-52 cycles" */
    const char *const *names;   /* NULL, or a name per category in place
                                   of numbers and units ("flush", and
                                   "four of a kind to straight flush" for
                                   a pooled group) */
    const char *desc;           /* what the null is, in words */
} sb_gof_law;

/* A whole result for a one-dimensional count distribution, counts[i] for
   category i of 'law'.  Pools as sb_gof_pool does, from the low end until
   every group expects SB_GOF_MIN_EXPECTED (the groups and what was pooled
   go in the note and the table, 1 x groups with value ranges lo..hi),
   refers the statistic of sb_gof_pooled_statistic to chi-square(groups -
   1) (a valid p-value at every level: P(p <= a) <= a, exactly), and names
   the group of largest Pearson contribution in effect_desc: "1 cycle:
   99.9% of decks against 1.92% expected".  Fewer than two groups make the
   result not applicable.
   'res' is begun here.  Returns SB_OK, SB_ENOMEM, SB_ERANGE, or SB_EINVAL
   (no counts, an empty law, or neither names nor units). */
int sb_gof_law_result(sb_result *res, const char *name,
                      const uint64_t *counts, const sb_gof_law *law,
                      uint64_t samples, double fail_alpha);

/* ---- pooled 1-D laws: the pieces, for statistics that test several
   count vectors against one law (a deal's hands one by one) ---------- */

/* A law's expectations for N samples and its groups after pooling. */
typedef struct sb_gof_pooled {
    size_t k;            /* categories */
    size_t groups;       /* groups after pooling */
    double *expected;    /* expected[i] = N prob[i], k values */
    size_t *last;        /* last category of each group (sb_gof_pool) */
} sb_gof_pooled;

/* Expect and pool the law 'prob' (k values) for 'samples' samples, as
   sb_gof_law_result does.  When fewer than two groups expect enough, the
   begun 'res' is made not applicable with the reason ("needs more
   samples") and p->groups is below 2.  Returns SB_OK, SB_EINVAL or
   SB_ENOMEM; release with sb_gof_pooled_end in every case. */
int sb_gof_pooled_begin(sb_gof_pooled *p, sb_result *res, const double *prob,
                        size_t k, uint64_t samples);

/* The statistic of the pooled laws over one row of groups: observed
   o[g] and expected e[g] split into binomials from the last group down,
   each split's exact two-sided likelihood-ratio p-value turned into its
   chi-square(1) quantile, summed (stats/gof.c).  Referred to
   chi-square(groups - 1) it gives a p-value that is valid at every
   level; with large groups it is the likelihood ratio G^2. */
double sb_gof_split_statistic(const double *o, const double *e,
                              size_t groups);

/* The statistic of 'counts' (k values, counts[i] for the value
   first_value + i) over the groups, to be referred to
   chi-square(groups - 1) (sb_gof_chisq_p, sb_gof_chisq_result): not
   Pearson's X^2, whose far tail is liberal when a group expects few
   samples, but T = sum of Y_g over the G - 1 binomial splits of the
   multinomial (group g against groups 0..g-1), Y_g the chi-square(1)
   quantile of the split's exact two-sided likelihood-ratio p-value.  T is
   stochastically at most chi-square(G - 1) at every N, so the p-value is
   valid at every level; where groups are large T is the likelihood-ratio
   G^2 (why and how: gof.c).  Each group's observed and expected counts go
   to row 'row' of 't' (p->groups columns), and its value range too when
   t->lo is set.  *worst receives the group of largest Pearson
   contribution (O - E)^2 / E and *worst_c that contribution (-1 when there
   are no groups). */
double sb_gof_pooled_statistic(const sb_gof_pooled *p,
                               const uint64_t *counts, long first_value,
                               sb_table *t, size_t row, size_t *worst,
                               double *worst_c);

/* "pooled 53 categories into 5 (each expects >= 5)" or "no pooling
   needed". */
void sb_gof_pooled_note(const sb_gof_pooled *p, char *buf, size_t len);

void sb_gof_pooled_end(sb_gof_pooled *p);

/* ---- card x group tables ---------------------------------------------- */

/* Tables where every sample puts each of n cards into exactly one of G
   groups, group g always holding the same number of cards: card x hand of
   a deal (H hands of n/H cards), card x slot of a draw (k slots of one
   card, and the n - k cards not drawn).  Such a table's plain X^2 is not
   chi-square((n-1)(G-1)); X^2 (n-1)/n is (derivation in gof.c).

   The 'counted' groups each hold 'size' cards and are read from 'counts';
   when counted * size < n, one more group, 'rest', holds the other cards,
   and its count for card c is the number of samples minus the card's
   counted ones (so no accumulator counts it).  A rest of no cards (a draw
   of the whole deck) is left out: it is always empty. */
typedef struct sb_gof_groups {
    size_t n;                  /* cards: the table's rows, >= 2 */
    size_t counted;            /* groups read from 'counts', >= 1 */
    size_t size;               /* cards in each counted group, >= 1 */
    const uint64_t *counts;    /* card c in counted group g:
                                  counts[c * card_step + g * group_step] */
    size_t card_step, group_step;
    const char *group;         /* a counted group, in words: "hand" */
    const char *rest;          /* the rest group, in words: "not drawn" */
    const char *table;         /* the table, in words: "card x hand" */
} sb_gof_groups;

/* Fill a begun result (sb_gof_begin) from such a table after 'samples'
   samples: X^2 (n-1)/n referred to chi-square((n-1)(G-1)), never pooled
   (the degrees of freedom come from the margins); the cell of largest
   contribution in effect_desc ("card 5 in hand 2: 3.10% more often than
   uniform", "card 0 not drawn: ..."); the n x G table when it has at most
   SB_GOF_TABLE_CELLS cells.  No samples make the result not applicable.
   Returns SB_OK, SB_ENOMEM, SB_ERANGE, or SB_EINVAL for a malformed
   table (fewer than two groups, or a card counted in more samples than
   there were). */
int sb_gof_groups_result(sb_result *res, const sb_gof_groups *g,
                         uint64_t samples, double fail_alpha);

/* The largest table copied into a result for renderers: 4096 x 4096, the
   largest any statistic makes (position, serial, fy-code and card-slot at
   4096 cards), so that every table is kept whole.  Its memory, observed
   and expected counts as doubles (256 MiB at that size, twice the 128 MiB
   of the counts behind it), is part of the run's budget
   (sb_mem_finalize). */
#define SB_GOF_TABLE_CELLS (4096u * 4096u)

#endif /* SB_GOF_H */
