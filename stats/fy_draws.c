/*
 * fy_draws.c - the Fisher-Yates code of a deck, and the statistic on it
 * that 'fy-code' (stats/fy_code.c) and 'fy-code-forward'
 * (stats/fy_code_forward.c) share.
 *
 * The code.  Backward Fisher-Yates (algorithms/fisher_yates.c) starts from
 * the deck 0..n-1 and for i = n-1 down to 1 swaps positions i and j_i,
 * j_i in 0..i.  Position i is never touched again after its step (later
 * steps swap positions below i), so the card that ends at position i is
 * the card at position j_i just before step i.  Replaying the loop from
 * the starting deck, and keeping where each card is (the inverse
 * permutation), gives j_i = where deck[i] is before step i, then the
 * step's swap: O(1) per step, O(n) per deck.  Forward Fisher-Yates
 * (algorithms/fisher_yates_forward.c) swaps positions i and i + j_i,
 * j_i in 0..n-1-i, for i = 0 up to n-2, and never touches position i
 * again: the same replay, from the front.  Either way the draw from
 * 0..m-1 (m = n..2) is what is recorded.
 *
 * Why the code of a uniform deck has independent uniform draws, whatever
 * algorithm made the deck.  Let F map a sequence of draws d, one from
 * 0..m-1 for each m = 2..n, to the deck Fisher-Yates makes from it, and C
 * map a deck to its code (the replay above).  C(F(d)) = d for every d:
 * the replay makes the same swaps as the run that produced F(d), and at
 * each step finds the draw that run made, by the argument above.  So F is
 * one-to-one; it maps the n (n-1) ... 2 = n! sequences into the n! decks,
 * so it is onto as well, and C is its inverse.  If every deck has
 * probability 1/n!, the code of a deck is d with probability
 * P(deck = F(d)) = 1/n! = prod_m 1/m: the uniform law on the product of
 * the ranges, under which the draws are independent and each uniform on
 * its range.  Only the law of the deck enters, so this is a valid null
 * for any shuffle's output.  (tests/test_fy_code.c checks the bijection by
 * enumerating every deck of 3, 4 and 5 cards in both directions.)
 *
 * The counts: c[m][j], how many decks drew j from 0..m-1, for m = 2..n.
 * Three kinds of subtest read them; each is valid on its own, and they
 * are combined as the hand-wise statistics combine theirs (stats/hands.c):
 * p = min(1, T min_t p_t) over the T subtests, valid under any dependence.
 *
 *  (a) Per-draw goodness of fit.  For each m, the statistic T_m of the
 *      pooled laws (exact binomial splits, sb_gof_split_statistic in
 *      stats/gof.c: valid at every level, G^2 for large groups) of
 *      c[m][.] against N/m per value, the values pooled from the low end
 *      until each group expects 5 (sb_gof_pool: groups of about 5m/N
 *      values when N < 5m); then T = sum_m T_m against chi-square(sum_m
 *      (groups_m - 1)): the draws are independent, so are the T_m, and
 *      each is at most a chi-square(groups_m - 1) in law, so is T.
 *      The omnibus part: any distortion of any one draw's law.
 *
 *  (b) The mean of the draws, one degree of freedom.
 *      S = sum_m sum_j c[m][j] (2j - (m-1)), twice the sum over every draw
 *      of its deviation from its uniform mean (m-1)/2, has null mean 0 and
 *      variance N sum_m (m^2 - 1)/3 exactly (2j of a uniform j in 0..m-1
 *      has variance (m^2-1)/3).  z = (|S| - 1)/sd, the 1 a continuity
 *      correction (S moves in steps of 2), two-sided:
 *      p = P(chi-square(1) > z^2).  S is a sum of independent, symmetric,
 *      bounded terms with negative excess kurtosis, so the first Edgeworth
 *      term makes the true tail lighter than the normal one: conservative
 *      (the tests compare it with the exact law for small n and N).
 *      The weights are equal.  The best weights against a shift delta_m
 *      of each draw's mean are delta_m / var_m.  For the bias a B-bit
 *      generator reduced with % m makes (below), delta_m =
 *      -r_m (m - r_m) / 2^(B+1) with r_m = 2^B mod m, and var_m =
 *      (m^2-1)/12: the best weight, about 6 r_m (m - r_m) / (m^2 2^B),
 *      neither grows nor shrinks with m, it only follows r_m / m, so equal
 *      weights lose little: noncentrality 4.10e-6 per deck at 52 cards
 *      and 15 bits, against 4.66e-6 for the best weights and 3.14e-6 for
 *      weights 1/sd_m, which would make every draw count alike
 *      (scripts/fy_power.py, docs/power.md).
 *
 *  (c) Excess of the smallest values, one degree of freedom for each B
 *      of a range.  A generator of B bits reduced with % m draws j with
 *      probability (floor(2^B/m) + [j < r_m]) / 2^B, r_m = 2^B mod m: the
 *      r_m lowest values come up once more in 2^B.  Its log-likelihood
 *      ratio against the uniform law is, to first order in 2^-B,
 *      sum over the draws of (m [j < r_m] - r_m) / 2^B, so the test of
 *      largest power against it (Neyman and Pearson) rejects for large
 *          S_B = sum_m (m L_m - N r_m),  L_m = sum_{j < r_m} c[m][j]:
 *      null mean 0, variance N sum_m r_m (m - r_m).  Under that
 *      alternative its noncentrality is N sum_m r_m (m - r_m) / 4^B, which
 *      is also the alternative's whole chi-square distance from the
 *      uniform code: this one degree of freedom holds all the information
 *      the alternative offers, where (a) spreads it over n(n-1)/2.
 *      One-sided (an excess is what the bias makes).  S_B is a skewed sum
 *      of scaled Bernoullis, so its tail is not the normal one (which
 *      would be liberal in the far tail, where verdicts are read) but the
 *      exact one, by convolution, while its law is small, and the
 *      saddlepoint approximation of Lugannani and Rice beyond
 *      (sb_fy_upper_tail).
 *      B runs over SB_FY_BITS_MIN..SB_FY_BITS_MAX: rand() of 15 bits (the
 *      C library of Windows, and the C standard's example), 16, 31
 *      (glibc's rand()), 32 (a 32-bit word % m) are all in it, and a range
 *      is one family, not a guess at one generator.  A B whose residues
 *      r_m are all 0 (every m a power of two dividing 2^B), or the same as
 *      a smaller B's, adds nothing and is left out.  An off-by-one bound
 *      (drawing from 0..m-2, Sattolo's algorithm) also makes an excess of
 *      the low values, and (a) sees it at once (m - 1 is never drawn);
 *      floating-point scaling floor(x m) with x of B bits gives the extra
 *      counts to values spread over the range, which (a) sees and (c)
 *      does not.
 *
 * The result holds the worst subtest (smallest p): its statistic (X^2, or
 * z^2 for (b) and (c)) and df, and its effect max(0, (statistic - df)/N)
 * per deck; the note lists all three kinds.  The detectable effect is the
 * per-draw fit's, a chi-square distance per deck at fail_alpha / T, and
 * its words also say up to how many bits a generator reduced with % m is
 * caught by (c).
 */
#include "stats/fy_draws.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/saved.h"

#define FY_BITS (SB_FY_BITS_MAX - SB_FY_BITS_MIN + 1)
/* The directed subtest's tail is exact up to this many values of its
   law and this many steps of convolution (exact_tail). */
#define FY_EXACT_VALUES 65536u
#define FY_EXACT_WORK 4000000u

typedef struct fy_acc {
    const sb_stat_type *type;   /* whose counts: the name keys the words */
    int forward;                /* 1: the forward code */
    size_t n;                   /* deck size, 1..SB_FY_N_MAX */
    size_t cells;               /* n(n+1)/2 - 1 counts */
    sb_card *scratch;           /* the replays of FY_LANES decks, 2n cards
                                   each (count_backward) */
    uint64_t counts[];          /* c[m][j] at sb_fy_offset(m) + j */
} fy_acc;

/* ---- the code --------------------------------------------------------- */

/* The replay, written on the deck's own positions.  Before step i, let
   q[k] be where (in the replayed deck) the card that ends at position k
   is, and r[p] where the card at replayed position p ends: q starts as
   the deck itself (the replay starts from 0..n-1) and r as its inverse.
   Step i brings the card that ends at i to position i from j = q[i]; the
   card there before, which ends at k = r[i], goes to j: r[j] = k,
   q[k] = j.  Positions i and above are never read again.  (This is the
   ranking of Myrvold and Ruskey, "Ranking and unranking permutations in
   linear time", Inf. Process. Lett. 79, 2001, read as positions.) */
static inline void step(sb_card *q, sb_card *r, size_t i, size_t *j)
{
    const size_t jj = q[i], k = r[i];
    r[jj] = (sb_card)k;
    q[k] = (sb_card)jj;
    *j = jj;
}

/* q = the deck, r = its inverse. */
static inline void replay_start(const sb_card *deck, size_t n, sb_card *q,
                                sb_card *r)
{
    memcpy(q, deck, n * sizeof *q);
    for (size_t k = 0; k < n; k++)
        r[deck[k]] = (sb_card)k;
}

void sb_fy_code(const sb_card *deck, size_t n, int forward, sb_card *q,
                sb_card *r, uint32_t *code)
{
    replay_start(deck, n, q, r);
    size_t j;
    if (forward) {
        /* Step i brings the card that ends at i from p = q[i]: the draw
           from 0..n-1-i was p - i. */
        for (size_t i = 0; i + 1 < n; i++) {
            step(q, r, i, &j);
            code[n - i] = (uint32_t)(j - i);
        }
    } else {
        for (size_t i = n - 1; i >= 1; i--) {
            step(q, r, i, &j);
            code[i + 1] = (uint32_t)j;
        }
    }
}

/* The hot path counts FY_LANES decks at once, each in its own scratch.
   A step's loads may need the stores of the step before (q[k] is read
   again at step k), so one deck's steps wait on each other; the steps of
   independent decks fill that wait (docs/speed.md). */
#define FY_LANES 4

/* Each lane's deck and inverse in the scratch, the first 'lanes' of them
   set to replay their decks. */
static void lanes_start(size_t n, const sb_card *decks, size_t lanes,
                        sb_card *scratch, sb_card **q, sb_card **r)
{
    for (size_t l = 0; l < FY_LANES; l++) {
        q[l] = scratch + 2 * l * n;
        r[l] = q[l] + n;
        if (l < lanes)
            replay_start(decks + l * n, n, q[l], r[l]);
    }
}

static void count_backward(size_t n, const sb_card *decks, size_t lanes,
                           sb_card *scratch, uint64_t *counts)
{
    sb_card *q[FY_LANES], *r[FY_LANES];
    lanes_start(n, decks, lanes, scratch, q, r);
    size_t off = sb_fy_offset(n), j0, j1, j2, j3;
    if (lanes == FY_LANES) {
        for (size_t i = n - 1; i >= 1; i--) {
            step(q[0], r[0], i, &j0);
            step(q[1], r[1], i, &j1);
            step(q[2], r[2], i, &j2);
            step(q[3], r[3], i, &j3);
            uint64_t *row = counts + off;
            row[j0]++;
            row[j1]++;
            row[j2]++;
            row[j3]++;
            off -= i;            /* to the draw from 0..i-1 (wraps after
                                    the last, unused) */
        }
        return;
    }
    for (size_t l = 0; l < lanes; l++) {
        off = sb_fy_offset(n);
        for (size_t i = n - 1; i >= 1; i--) {
            step(q[l], r[l], i, &j0);
            counts[off + j0]++;
            off -= i;
        }
    }
}

/* From the front: the draw from 0..n-1-i is j - i. */
static void count_forward(size_t n, const sb_card *decks, size_t lanes,
                          sb_card *scratch, uint64_t *counts)
{
    sb_card *q[FY_LANES], *r[FY_LANES];
    lanes_start(n, decks, lanes, scratch, q, r);
    size_t off = sb_fy_offset(n), j0, j1, j2, j3;
    if (lanes == FY_LANES) {
        for (size_t i = 0; i + 1 < n; i++) {
            step(q[0], r[0], i, &j0);
            step(q[1], r[1], i, &j1);
            step(q[2], r[2], i, &j2);
            step(q[3], r[3], i, &j3);
            uint64_t *row = counts + off - i;
            row[j0]++;
            row[j1]++;
            row[j2]++;
            row[j3]++;
            off -= n - 1 - i;    /* to the draw from 0..n-2-i (wraps
                                    after the last, unused) */
        }
        return;
    }
    for (size_t l = 0; l < lanes; l++) {
        off = sb_fy_offset(n);
        for (size_t i = 0; i + 1 < n; i++) {
            step(q[l], r[l], i, &j0);
            counts[off + j0 - i]++;
            off -= n - 1 - i;
        }
    }
}

/* ---- the accumulator -------------------------------------------------- */

int sb_fy_alloc(void **acc, const sb_shape *shape, const sb_stat_type *type,
                int forward)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > SB_FY_N_MAX)
        return SB_EINVAL;
    /* A deck of one card has no draw: counted as nothing, and finalize
       says why. */
    const size_t n = shape->n, cells = n * (n + 1) / 2 - 1;
    fy_acc *a = calloc(1, sizeof *a + cells * sizeof(uint64_t)
                              + 2 * FY_LANES * n * sizeof(sb_card));
    if (a == NULL)
        return SB_ENOMEM;
    a->type = type;
    a->forward = forward;
    a->n = n;
    a->cells = cells;
    a->scratch = (sb_card *)(a->counts + cells);
    *acc = a;
    return SB_OK;
}

/* The hot paths: the replay from the starting deck, one count per draw,
   nothing allocated.  Precondition: every sample a permutation of 0..n-1
   (the runner validates external input before it gets here). */
void sb_fy_add_backward(void *acc, const sb_card *samples, size_t count)
{
    fy_acc *a = acc;
    const size_t n = a->n;
    if (n < 2)
        return;
    for (size_t d = 0; d < count; d += FY_LANES) {
        const size_t lanes = count - d < FY_LANES ? count - d : FY_LANES;
        count_backward(n, samples + d * n, lanes, a->scratch, a->counts);
    }
}

void sb_fy_add_forward(void *acc, const sb_card *samples, size_t count)
{
    fy_acc *a = acc;
    const size_t n = a->n;
    if (n < 2)
        return;
    for (size_t d = 0; d < count; d += FY_LANES) {
        const size_t lanes = count - d < FY_LANES ? count - d : FY_LANES;
        count_forward(n, samples + d * n, lanes, a->scratch, a->counts);
    }
}

int sb_fy_merge(void *into, const void *from)
{
    fy_acc *a = into;
    const fy_acc *b = from;
    if (a->n != b->n || a->type != b->type || a->forward != b->forward)
        return SB_EINVAL;
    for (size_t i = 0; i < a->cells; i++)
        a->counts[i] += b->counts[i];
    return SB_OK;
}

void sb_fy_free(void *acc)
{
    free(acc);
}

/* State files (stats/saved.h): the key, then the counts as kept.  Besides
   a wrong length or key, refused: draws whose counts do not all sum to
   one total (every deck makes every draw once). */
static uint64_t fy_key(const fy_acc *a)
{
    return sb_saved_key(a->type->name, SB_KIND_PERMUTATION, a->n, a->n, 0);
}

int sb_fy_save(const void *acc, uint64_t **words, size_t *count)
{
    const fy_acc *a = acc;
    return sb_saved_counts(fy_key(a), a->counts, a->cells, words, count);
}

int sb_fy_load(void *acc, const uint64_t *words, size_t count)
{
    fy_acc *a = acc;
    const uint64_t *c = sb_saved_body(words, count, fy_key(a), a->cells);
    if (c == NULL)
        return SB_EINVAL;
    uint64_t first = 0;
    for (size_t m = 2; m <= a->n; m++) {
        uint64_t s;
        if (!sb_saved_sum(c + sb_fy_offset(m), m, 1, &s)
            || (m > 2 && s != first))
            return SB_EINVAL;
        first = s;
    }
    memcpy(a->counts, c, a->cells * sizeof *c);
    return SB_OK;
}

size_t sb_fy_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t n = shape->n < 2 ? 2 : shape->n;
    const size_t cells = n * (n + 1) / 2 - 1;
    /* finalize: the expectations, groups and prefix sums of one draw, the
       residues of every B, and the (n - 1) x n table of counts (at every
       n: 256 MiB at 4096 cards). */
    *finalize = sb_mem_finalize(0, (n - 1) * n)
              + 3 * sb_mem((n + 1) * sizeof(double))
              + sb_mem(FY_BITS * (n + 1) * sizeof(uint32_t))
              + 2 * sb_mem((n + 1) * sizeof(uint32_t))
              + 3 * sb_mem(FY_EXACT_VALUES * sizeof(double));
    return sb_mem(sizeof(fy_acc) + cells * sizeof(uint64_t)
                  + 2 * FY_LANES * n * sizeof(sb_card));
}

/* ---- the tail of the directed subtest --------------------------------- */

/* The cumulant generating function of one term m I - r, I a
   Bernoulli(q = r/m), and its first two derivatives, at t: written so
   that e^(m t) never overflows.  'pi' is the tilted P(I = 1). */
static void term_cgf(double m, double r, double t, double *k, double *k1,
                     double *k2)
{
    const double q = r / m, x = m * t;
    double lg, pi;
    if (x > 0.0) {
        const double e = exp(-x);
        lg = x + log(q + (1.0 - q) * e);
        pi = q / (q + (1.0 - q) * e);
    } else {
        const double e = exp(x);
        lg = log1p(q * expm1(x));
        pi = q * e / (1.0 - q + q * e);
    }
    *k += lg - r * t;
    *k1 += m * pi - r;
    *k2 += m * m * pi * (1.0 - pi);
}

static void cgf(uint64_t N, const uint32_t *m, const uint32_t *r,
                size_t terms, double t, double *k, double *k1, double *k2)
{
    double a = 0.0, b = 0.0, c = 0.0;
    for (size_t i = 0; i < terms; i++)
        term_cgf((double)m[i], (double)r[i], t, &a, &b, &c);
    *k = (double)N * a;
    *k1 = (double)N * b;
    *k2 = (double)N * c;
}

static int finish(double q, double *p, int *underflow)
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

/* The exact tail, by convolving the terms' laws: P(sum_k m_k X_k >= v)
   with X_k ~ Binomial(N, r_k / m_k) and v = s + N sum_k r_k (s is a whole
   number).  For small decks and few samples, where the lattice of the
   terms' spans (3 and 5 at 5 cards) makes the saddlepoint err by up to
   a factor 2 in the far tail: SB_ERANGE when the law has more than
   FY_EXACT_VALUES values or the work more than FY_EXACT_WORK steps (the
   caller then takes the saddlepoint, which is within 1% of the exact
   tail from 10 cards on, down to 1e-14; tests/test_fy_code.c). */
static int exact_tail(uint64_t N, const uint32_t *m, const uint32_t *r,
                      size_t terms, double s, double *q)
{
    double values = 1.0, work = 0.0, shift = 0.0;
    for (size_t k = 0; k < terms; k++) {
        work += values * ((double)N + 1.0);
        values += (double)m[k] * (double)N;
        shift += (double)N * (double)r[k];
    }
    if (values > FY_EXACT_VALUES || work > FY_EXACT_WORK)
        return SB_ERANGE;
    const size_t len = (size_t)values;
    double *law = calloc(len, sizeof *law), *next = calloc(len, sizeof *next);
    double *pmf = malloc(((size_t)N + 1) * sizeof *pmf);
    if (!law || !next || !pmf) {
        free(law);
        free(next);
        free(pmf);
        return SB_ENOMEM;
    }
    law[0] = 1.0;
    size_t reach = 0;
    for (size_t k = 0; k < terms; k++) {
        const double pk = (double)r[k] / (double)m[k];
        for (size_t x = 0; x <= N; x++)
            pmf[x] = gsl_ran_binomial_pdf((unsigned)x, pk, (unsigned)N);
        memset(next, 0, (reach + m[k] * N + 1) * sizeof *next);
        for (size_t v = 0; v <= reach; v++)
            if (law[v] != 0.0)
                for (size_t x = 0; x <= N; x++)
                    next[v + m[k] * x] += law[v] * pmf[x];
        reach += m[k] * N;
        double *t = law;
        law = next;
        next = t;
    }
    /* From the top, so that small tails keep their digits. */
    const double from = ceil(s + shift - 1e-9);
    double tail = 0.0;
    for (size_t v = reach + 1; v-- > 0 && (double)v >= from;)
        tail += law[v];
    *q = from <= 0.0 ? 1.0 : tail;
    free(law);
    free(next);
    free(pmf);
    return SB_OK;
}

int sb_fy_upper_tail(uint64_t N, const uint32_t *m, const uint32_t *r,
                     size_t terms, double s, double span, double *p,
                     int *underflow)
{
    if (N == 0 || terms == 0 || m == NULL || r == NULL || p == NULL
        || underflow == NULL || isnan(s) || !(span > 0.0))
        return SB_EINVAL;
    double top = 0.0, var = 0.0, log_all = 0.0;
    for (size_t i = 0; i < terms; i++) {
        if (r[i] == 0 || r[i] >= m[i])
            return SB_EINVAL;
        top += (double)(m[i] - r[i]);
        var += (double)r[i] * (double)(m[i] - r[i]);
        log_all += log((double)r[i] / (double)m[i]);
    }
    top *= (double)N;
    var *= (double)N;
    double exact;
    const int st = exact_tail(N, m, r, terms, s, &exact);
    if (st == SB_OK)
        return finish(exact, p, underflow);
    if (st != SB_ERANGE)
        return st;
    /* Only the largest value is left: every term at m - r. */
    if (s >= top - 0.25 * span)
        return finish(exp((double)N * log_all), p, underflow);
    const double x = s - 0.5 * span, sd = sqrt(var);
    /* Near and below the mean the tail is above 0.3 and decides nothing;
       the normal is used there, where the saddlepoint formula divides
       two vanishing quantities. */
    if (x < 0.5 * sd)
        return finish(gsl_cdf_ugaussian_Q(x / sd), p, underflow);

    /* K'(t) = x for t > 0: K' increases from 0 to 'top' > x.  Newton's
       steps inside a bracket that bisection keeps. */
    double lo = 0.0, hi = 1.0 / sd, k, k1, k2;
    for (int it = 0; it < 2000; it++) {
        cgf(N, m, r, terms, hi, &k, &k1, &k2);
        if (k1 > x)
            break;
        lo = hi;
        hi *= 2.0;
    }
    double t = 0.5 * (lo + hi);
    for (int it = 0; it < 200; it++) {
        cgf(N, m, r, terms, t, &k, &k1, &k2);
        if (k1 > x)
            hi = t;
        else
            lo = t;
        double next = k2 > 0.0 ? t - (k1 - x) / k2 : 0.5 * (lo + hi);
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - t) <= 1e-15 * t || hi - lo <= 1e-15 * hi) {
            t = next;
            break;
        }
        t = next;
    }
    cgf(N, m, r, terms, t, &k, &k1, &k2);
    const double w = sqrt(fmax(0.0, 2.0 * (t * x - k)));
    const double u = t * sqrt(k2);
    if (!(w > 0.0) || !(u > 0.0))
        return finish(gsl_cdf_ugaussian_Q(x / sd), p, underflow);
    double q = gsl_cdf_ugaussian_Q(w)
             + gsl_ran_ugaussian_pdf(w) * (1.0 / u - 1.0 / w);
    if (!(q > 0.0))
        q = gsl_cdf_ugaussian_Q(w);
    return finish(q, p, underflow);
}

/* ---- what the low residues catch -------------------------------------- */

double sb_fy_low_noncentrality(size_t n, unsigned bits)
{
    double v = 0.0;
    for (size_t m = 2; m <= n; m++) {
        const double r = (double)(((uint64_t)1 << bits) % m);
        v += r * ((double)m - r);
    }
    return v / ldexp(1.0, 2 * (int)bits);
}

unsigned sb_fy_bits_caught(size_t n, uint64_t samples, size_t subtests,
                           double fail_alpha, double power)
{
    /* One-sided at fail_alpha / T: the normal quantiles of the level and
       of the power, squared, is the noncentrality needed. */
    const double zz = gsl_cdf_ugaussian_Qinv(fail_alpha / (double)subtests)
                    + gsl_cdf_ugaussian_Pinv(power);
    unsigned caught = 0;
    if (!isfinite(zz))
        return 0;               /* a level or power outside (0, 1) */
    if (n < 3)
        return 0;               /* m = 2 divides 2^B: no bias to catch */
    for (unsigned b = SB_FY_BITS_MIN; b <= SB_FY_BITS_MAX; b++) {
        const double lambda1 = sb_fy_low_noncentrality(n, b);
        if (lambda1 > 0.0 && (double)samples * lambda1 < zz * zz)
            break;
        caught = b;
    }
    return caught;
}

/* ---- finalize --------------------------------------------------------- */

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The residues 2^B mod m of the kept bit counts, and their subtests. */
typedef struct fy_low {
    unsigned bits;          /* B */
    uint32_t *r;            /* r[m] = 2^B mod m, m = 0..n (0, 1 unused) */
    double var1;            /* sum_m r_m (m - r_m): the variance per deck */
    double s;               /* S_B */
    double excess;          /* sum_m (L_m - N r_m / m): the favoured
                               values' draws beyond their expectation */
    double z, p;            /* S_B / sd, its one-sided p */
    int underflow;
} fy_low;

/* The draw from 0..m-1 settles one position: m - 1 backward, n - m
   forward. */
static size_t settled(const fy_acc *a, size_t m)
{
    return a->forward ? a->n - m : m - 1;
}

static int fy_result(const fy_acc *a, uint64_t samples, double fail_alpha,
                     sb_result *res, double *expected, size_t *last,
                     double *prefix, fy_low *low, uint32_t *tm,
                     uint32_t *tr)
{
    const size_t n = a->n;
    const double N = (double)samples;

    /* (a) the per-draw fit, and the draw that strays most. */
    double x2 = 0.0, df = 0.0, worst_z = -INFINITY;
    size_t worst_m = 0, pooled = 0;
    for (size_t m = 2; m <= n; m++) {
        const uint64_t *c = a->counts + sb_fy_offset(m);
        for (size_t j = 0; j < m; j++)
            expected[j] = N / (double)m;
        size_t groups;
        int st = sb_gof_pool(expected, m, SB_GOF_MIN_EXPECTED, last,
                             &groups);
        if (st != SB_OK)
            return st;
        if (groups < 2)
            continue;
        pooled += groups < m;
        /* Each group's count and expectation, over the scratch the
           values used: group g is written at g, never past its values. */
        size_t lo = 0;
        for (size_t g = 0; g < groups; g++) {
            double o = 0.0;
            for (size_t j = lo; j <= last[g]; j++)
                o += (double)c[j];
            prefix[g] = o;
            expected[g] = N * (double)(last[g] - lo + 1) / (double)m;
            lo = last[g] + 1;
        }
        const double xm = sb_gof_split_statistic(prefix, expected, groups);
        x2 += xm;
        df += (double)(groups - 1);
        const double zm = (xm - (double)(groups - 1))
                        / sqrt(2.0 * (double)(groups - 1));
        if (zm > worst_z) {
            worst_z = zm;
            worst_m = m;
        }
    }
    if (!(df > 0.0))
        return sb_gof_not_applicable(res,
            "needs more samples: at least 10, so that the draw from 0..1 "
            "expects 5 of each value (has %" PRIu64 ")", samples);
    double p_fit;
    int u_fit, st = sb_gof_chisq_p(x2, df, &p_fit, &u_fit);
    if (st != SB_OK)
        return st;

    /* (b) the mean. */
    long double sum = 0.0L;
    double var_mean = 0.0;
    for (size_t m = 2; m <= n; m++) {
        const uint64_t *c = a->counts + sb_fy_offset(m);
        for (size_t j = 0; j < m; j++)
            sum += (long double)c[j] * (long double)(2.0 * (double)j
                                                     - (double)(m - 1));
        var_mean += ((double)m * (double)m - 1.0) / 3.0;
    }
    const double s_mean = (double)sum, sd_mean = sqrt(N * var_mean);
    const double z_mean = fmax(0.0, fabs(s_mean) - 1.0) / sd_mean;
    double p_mean;
    int u_mean;
    st = sb_gof_chisq_p(z_mean * z_mean, 1.0, &p_mean, &u_mean);
    if (st != SB_OK)
        return st;

    /* (c) the low residues, for each B kept. */
    size_t kept = 0;
    for (unsigned b = SB_FY_BITS_MIN; b <= SB_FY_BITS_MAX; b++) {
        fy_low *l = &low[kept];
        l->bits = b;
        l->var1 = 0.0;
        l->s = 0.0;
        l->excess = 0.0;
        for (size_t m = 2; m <= n; m++) {
            l->r[m] = (uint32_t)(((uint64_t)1 << b) % m);
            l->var1 += (double)l->r[m] * (double)(m - l->r[m]);
        }
        int same = !(l->var1 > 0.0);
        for (size_t k = 0; k < kept && !same; k++)
            same = memcmp(low[k].r + 2, l->r + 2,
                          (n - 1) * sizeof *l->r) == 0;
        kept += !same;
    }
    for (size_t m = 2; m <= n; m++) {
        const uint64_t *c = a->counts + sb_fy_offset(m);
        prefix[0] = 0.0;
        for (size_t j = 0; j < m; j++)
            prefix[j + 1] = prefix[j] + (double)c[j];
        for (size_t k = 0; k < kept; k++) {
            const double r = (double)low[k].r[m];
            low[k].s += (double)m * prefix[low[k].r[m]] - N * r;
            low[k].excess += prefix[low[k].r[m]] - N * r / (double)m;
        }
    }
    for (size_t k = 0; k < kept; k++) {
        fy_low *l = &low[k];
        size_t terms = 0, span = 0;
        for (size_t m = 2; m <= n; m++)
            if (l->r[m] > 0) {
                tm[terms] = (uint32_t)m;
                tr[terms++] = l->r[m];
                span = gcd(m, span);
            }
        l->z = l->s / sqrt(N * l->var1);
        st = sb_fy_upper_tail(samples, tm, tr, terms, l->s, (double)span,
                              &l->p, &l->underflow);
        if (st != SB_OK)
            return st;
    }

    /* The worst subtest, and Bonferroni over all of them. */
    const size_t T = 2 + kept;
    enum { FIT, MEAN, LOW } worst = FIT;
    double p_min = u_fit ? 0.0 : p_fit;
    int u_min = u_fit;
    size_t worst_k = 0;
    if ((u_mean ? 0.0 : p_mean) < p_min) {
        worst = MEAN;
        p_min = u_mean ? 0.0 : p_mean;
        u_min = u_mean;
    }
    for (size_t k = 0; k < kept; k++)
        if ((low[k].underflow ? 0.0 : low[k].p) < p_min) {
            worst = LOW;
            worst_k = k;
            p_min = low[k].underflow ? 0.0 : low[k].p;
            u_min = low[k].underflow;
        }
    res->subtests = (unsigned)T;
    res->p_underflow = u_min;
    res->p_value = u_min ? 0.0 : fmin(1.0, (double)T * p_min);
    if (worst == FIT) {
        res->statistic = x2;
        res->df = df;
    } else {
        const double z = worst == MEAN ? z_mean : low[worst_k].z;
        res->statistic = z * z;
        res->df = 1.0;
    }
    res->effect = fmax(0.0, (res->statistic - res->df) / N);

    /* The detectable effect: the fit's distance at fail_alpha / T, and
       the largest B up to which every generator of B bits reduced with
       % m is caught by (c) at that level with power 0.9. */
    double lambda;
    st = sb_gof_detectable_chisq(df, fail_alpha / (double)T, SB_GOF_POWER,
                                 &lambda);
    if (st != SB_OK)
        return st;
    res->detectable = lambda / N;
    const unsigned caught = sb_fy_bits_caught(n, samples, T, fail_alpha,
                                              SB_GOF_POWER);
    char dist[32];
    snprintf(dist, sizeof dist, "%.3g", res->detectable);
    if (caught)
        snprintf(res->detectable_desc, sizeof res->detectable_desc,
                 "rand() %% m from a generator of %u bits or fewer; any "
                 "pattern of the draws at a chi-square distance of %s per "
                 "deck", caught, dist);
    else
        snprintf(res->detectable_desc, sizeof res->detectable_desc,
                 "any pattern of the draws at a chi-square distance of %s "
                 "per deck", dist);

    /* Words. */
    snprintf(res->null_desc, sizeof res->null_desc,
             "draws independent, uniform: chi-square(%.0f) summed over "
             "the draws; normal mean; low residues, exact or saddlepoint "
             "tail; Bonferroni over %zu", df, T);
    char pooling[64] = "";
    if (pooled)
        snprintf(pooling, sizeof pooling, " (%zu draws pooled to expect "
                 ">= 5 per group)", pooled);
    char pf[32], pm[32], pl[32];
    snprintf(pf, sizeof pf, u_fit ? "< 1e-300" : "%.3g", p_fit);
    snprintf(pm, sizeof pm, u_mean ? "< 1e-300" : "%.3g", p_mean);
    size_t lk = 0;
    for (size_t k = 1; k < kept; k++)
        if ((low[k].underflow ? 0.0 : low[k].p)
            < (low[lk].underflow ? 0.0 : low[lk].p))
            lk = k;
    if (kept)
        snprintf(pl, sizeof pl, low[lk].underflow ? "< 1e-300" : "%.3g",
                 low[lk].p);
    if (kept)
        snprintf(res->note, sizeof res->note,
                 "%zu subtests, p = min(1, %zu p_min): per-draw fit T = "
                 "%.6g on %.0f df%s, p = %s; mean z = %.3g, p = %s; low "
                 "residues 2^B mod m, %zu values of B in %d..%d, best "
                 "B = %u, z = %.3g, p = %s (one-sided)", T, T, x2, df,
                 pooling, pf, s_mean / sd_mean, pm, kept, SB_FY_BITS_MIN,
                 SB_FY_BITS_MAX, low[lk].bits, low[lk].z, pl);
    else
        snprintf(res->note, sizeof res->note,
                 "%zu subtests, p = min(1, %zu p_min): per-draw fit T = "
                 "%.6g on %.0f df%s, p = %s; mean z = %.3g, p = %s; no low "
                 "residues to test (every m divides 2^B)", T, T, x2, df,
                 pooling, pf, s_mean / sd_mean, pm);

    if (worst == FIT) {
        /* The worst draw's value furthest from its rate. */
        const uint64_t *c = a->counts + sb_fy_offset(worst_m);
        const double e = N / (double)worst_m;
        size_t wj = 0;
        double wd = -1.0;
        for (size_t j = 0; j < worst_m; j++) {
            const double d = fabs((double)c[j] - e);
            if (d > wd) {
                wd = d;
                wj = j;
            }
        }
        char obs[16], want[16];
        sb_gof_percent(obs, sizeof obs, 100.0 * (double)c[wj] / N);
        sb_gof_percent(want, sizeof want, 100.0 / (double)worst_m);
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "the draw from 0..%zu (for position %zu): %zu in %s%% of "
                 "decks against %s%% expected", worst_m - 1,
                 settled(a, worst_m), wj, obs, want);
    } else if (worst == MEAN) {
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "the draws %s than uniform on average: their sum %.3g "
                 "per deck from its mean (z = %.2f)",
                 s_mean < 0.0 ? "lower" : "higher",
                 fabs(s_mean) / 2.0 / N, s_mean / sd_mean);
    } else {
        const fy_low *l = &low[worst_k];
        double favoured = 0.0;
        for (size_t m = 2; m <= n; m++)
            favoured += N * (double)l->r[m] / (double)m;
        char pct[16];
        sb_gof_percent(pct, sizeof pct,
                       100.0 * fabs(l->excess) / favoured);
        snprintf(res->effect_desc, sizeof res->effect_desc,
                 "the draws below 2^%u mod m %s%% %s often than uniform "
                 "(z = %.2f), as rand() %% m from a %u-bit generator makes",
                 l->bits, pct, l->excess < 0.0 ? "less" : "more", l->z,
                 l->bits);
    }

    /* Row m - 2 holds the draws from m values (columns 0..m-1; the rest
       of the row expects nothing). */
    res->row_label = "draw range";
    res->col_label = "value drawn";
    /* Not a table of nothing: an accumulator that counted nothing but is
       told N samples (the plan of --effect) keeps none.  Every deck makes
       a draw from 2 values. */
    if (a->counts[sb_fy_offset(2)] + a->counts[sb_fy_offset(2) + 1] == 0)
        return SB_OK;
    st = sb_gof_table_alloc(&res->table, n - 1, n, 0);
    if (st != SB_OK)
        return st;
    for (size_t m = 2; m <= n; m++)
        for (size_t j = 0; j < m; j++) {
            res->table.observed[(m - 2) * n + j] =
                (double)a->counts[sb_fy_offset(m) + j];
            res->table.expected[(m - 2) * n + j] = N / (double)m;
        }
    return SB_OK;
}

int sb_fy_finalize(const void *acc, uint64_t samples, double fail_alpha,
                   sb_result *res)
{
    const fy_acc *a = acc;
    const size_t n = a->n;
    sb_gof_begin(res, a->type->name);
    if (n < 2)
        return sb_gof_not_applicable(res, "'%s' needs n >= 2: a deck of "
                                     "one card makes no draw",
                                     a->type->name);
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");
    double *expected = malloc((n + 1) * sizeof *expected);
    double *prefix = malloc((n + 1) * sizeof *prefix);
    size_t *last = malloc((n + 1) * sizeof *last);
    uint32_t *r = malloc(FY_BITS * (n + 1) * sizeof *r);
    uint32_t *tm = malloc((n + 1) * sizeof *tm);
    uint32_t *tr = malloc((n + 1) * sizeof *tr);
    fy_low low[FY_BITS];
    int st = SB_ENOMEM;
    if (expected && prefix && last && r && tm && tr) {
        for (size_t k = 0; k < FY_BITS; k++)
            low[k].r = r + k * (n + 1);
        st = fy_result(a, samples, fail_alpha, res, expected, last, prefix,
                       low, tm, tr);
    }
    free(expected);
    free(prefix);
    free(last);
    free(r);
    free(tm);
    free(tr);
    return st;
}
