/*
 * hands.c - exact nulls of one hand of a fair deal, and per-hand tests
 * combined by Bonferroni.
 *
 * The nulls follow from one fact: in a fair deal each hand is a uniformly
 * random s-subset of the n cards, so the number of its cards in any class
 * of m cards is hypergeometric, and several classes together are
 * multivariate hypergeometric (Feller, "An Introduction to Probability
 * Theory and Its Applications" vol. 1, 3rd ed., 1968, II.6).  Bridge
 * players have tabulated the results for 13 cards of 52 ("Contract
 * bridge probabilities", Wikipedia; the tests compare with those tables
 * and with brute force over every hand of smaller decks).
 *
 * The combination is Bonferroni's: the smallest p-value of T sub-tests
 * times T, because the hands of one deal are dependent and nothing
 * sharper is valid under every dependence without knowing it (Holm would
 * give the same smallest adjusted p-value).
 */
#include "stats/hands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include "shufflebias/status.h"
#include "stats/cards.h"
#include "stats/gof.h"

/* ---- suit length ------------------------------------------------------ */

int sb_hands_null_suit_length(size_t n, size_t m, size_t s, double *p)
{
    if (p == NULL || m > n || s > n || n > UINT32_MAX)
        return SB_EINVAL;
    const size_t top = m < s ? m : s;
    for (size_t k = 0; k <= top; k++)
        p[k] = gsl_ran_hypergeometric_pdf((unsigned)k, (unsigned)m,
                                          (unsigned)(n - m), (unsigned)s);
    return SB_OK;
}

/* ---- high-card points ------------------------------------------------- */

/* How many cards of the deck 0..n-1 are worth w points, w = 0..4: rank
   r is in the suits whose cards 13 t + r are below n. */
static void hcp_classes(size_t n, size_t m[5])
{
    for (unsigned w = 0; w < 5; w++)
        m[w] = 0;
    for (unsigned r = 0; r < SB_CARD_RANKS; r++) {
        const size_t suits = n / SB_CARD_RANKS + (r < n % SB_CARD_RANKS);
        m[sb_card_hcp(r)] += suits;
    }
}

size_t sb_hands_hcp_max(size_t n, size_t s)
{
    size_t m[5], left = s, best = 0;
    hcp_classes(n, m);
    for (unsigned w = 4; w >= 1 && left > 0; w--) {
        const size_t take = m[w] < left ? m[w] : left;
        best += w * take;
        left -= take;
    }
    return best;
}

/* The chain: mass[r][v] is the probability that, after the classes worth
   4, 3, ... down to the current one, r slots of the hand are still to
   fill and the hand holds v points.  Class w of m_w cards among the
   'pool' cards not yet considered takes a of the r slots with the
   hypergeometric probability C(m_w,a) C(pool - m_w, r - a) / C(pool, r);
   after the jacks the r remaining slots go to spot cards (the chain's
   probabilities already make r <= spots certain). */
int sb_hands_null_hcp(size_t n, size_t s, double *p)
{
    if (p == NULL || s > n || n > UINT32_MAX)
        return SB_EINVAL;
    size_t m[5];
    hcp_classes(n, m);
    const size_t vmax = sb_hands_hcp_max(n, s), width = vmax + 1;
    const size_t cells = (s + 1) * width;
    double *cur = calloc(cells, sizeof *cur);
    double *nxt = calloc(cells, sizeof *nxt);
    double *pmf = malloc((s + 1) * sizeof *pmf);
    if (!cur || !nxt || !pmf) {
        free(cur);
        free(nxt);
        free(pmf);
        return SB_ENOMEM;
    }
    cur[s * width + 0] = 1.0;
    size_t pool = n;
    for (unsigned w = 4; w >= 1; w--) {
        const size_t mw = m[w];
        memset(nxt, 0, cells * sizeof *nxt);
        /* r > pool has no mass (the chain never leaves more slots than
           cards), and GSL refuses to draw more than the pool holds. */
        for (size_t r = 0; r <= s && r <= pool; r++) {
            const size_t top = mw < r ? mw : r;
            for (size_t a = 0; a <= top; a++)
                pmf[a] = gsl_ran_hypergeometric_pdf(
                    (unsigned)a, (unsigned)mw, (unsigned)(pool - mw),
                    (unsigned)r);
            const double *row = cur + r * width;
            for (size_t v = 0; v < width; v++) {
                if (row[v] == 0.0)
                    continue;
                for (size_t a = 0; a <= top; a++)
                    if (v + w * a <= vmax)
                        nxt[(r - a) * width + v + w * a] += row[v] * pmf[a];
            }
        }
        pool -= mw;
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    for (size_t v = 0; v < width; v++) {
        double sum = 0.0;
        for (size_t r = 0; r <= s; r++)
            sum += cur[r * width + v];
        p[v] = sum;
    }
    free(cur);
    free(nxt);
    free(pmf);
    return SB_OK;
}

/* ---- hand patterns ---------------------------------------------------- */

static uint32_t sat32(uint64_t x)
{
    return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

int sb_patterns_init(sb_patterns *p, size_t suits, size_t size,
                     size_t max_count)
{
    memset(p, 0, sizeof *p);
    if (suits == 0 || size > SB_CARD_RANKS * suits)
        return SB_EINVAL;
    const size_t L = size < SB_CARD_RANKS ? size : SB_CARD_RANKS;
    const size_t stride = size + 1, block = (L + 1) * stride;
    if (suits > SIZE_MAX / sizeof(uint32_t) / block - 1)
        return SB_ENOMEM;
    /* N(i, m, r) for i = S down to 0; N(S, m, r) = [r == 0], and
       N(i, m, r) = N(i, m-1, r) + N(i+1, m, r-m) (the sequences whose
       first length is below m, and those starting with m). */
    uint32_t *t = malloc((suits + 1) * block * sizeof *t);
    if (t == NULL)
        return SB_ENOMEM;
    for (size_t m = 0; m <= L; m++)
        for (size_t r = 0; r <= size; r++)
            t[suits * block + m * stride + r] = r == 0;
    for (size_t i = suits; i-- > 0;)
        for (size_t m = 0; m <= L; m++)
            for (size_t r = 0; r <= size; r++) {
                uint64_t x = m > 0 ? t[i * block + (m - 1) * stride + r]
                                   : (r == 0);
                if (m > 0 && r >= m)
                    x += t[(i + 1) * block + m * stride + r - m];
                t[i * block + m * stride + r] = sat32(x);
            }
    const uint32_t count = t[L * stride + size];
    p->suits = suits;
    p->size = size;
    p->longest = L;
    p->count = count == UINT32_MAX ? SIZE_MAX : count;
    if (p->count > max_count) {
        free(t);
        return SB_ERANGE;
    }
    /* B(i, l, r) = N(i, l-1, r): the N table moved up one length, with
       zeros for l = 0, in place from the top (row l reads row l - 1,
       not yet overwritten); the row i = S is not needed. */
    for (size_t i = 0; i < suits; i++) {
        uint32_t *row = t + i * block;
        for (size_t l = L; l > 0; l--)
            memcpy(row + l * stride, row + (l - 1) * stride,
                   stride * sizeof *row);
        memset(row, 0, stride * sizeof *row);
    }
    p->before = t;
    return SB_OK;
}

void sb_patterns_free(sb_patterns *p)
{
    free(p->before);
    memset(p, 0, sizeof *p);
}

/* Walk down the table: at place i, with r cards left and lengths at most
   m, the length is the largest v whose B(i, v, r) = N(i, v-1, r)
   patterns before it do not exceed what is left of the rank. */
int sb_patterns_lengths(const sb_patterns *p, size_t rank, unsigned *len)
{
    if (rank >= p->count)
        return SB_EINVAL;
    const size_t stride = p->size + 1, block = (p->longest + 1) * stride;
    size_t rem = p->size, m = p->longest;
    for (size_t i = 0; i < p->suits; i++) {
        const uint32_t *row = p->before + i * block;
        size_t v = m < rem ? m : rem;
        while (v > 0 && row[v * stride + rem] > rank)
            v--;
        rank -= row[v * stride + rem];
        len[i] = (unsigned)v;
        rem -= v;
        m = v;
    }
    return SB_OK;
}

int sb_patterns_null(const sb_patterns *p, double *prob)
{
    unsigned *len = malloc(p->suits * sizeof *len);
    if (len == NULL)
        return SB_ENOMEM;
    const size_t n = SB_CARD_RANKS * p->suits;
    const double log_hands = gsl_sf_lnchoose((unsigned)n, (unsigned)p->size);
    const double log_suits = gsl_sf_lnfact((unsigned)p->suits);
    for (size_t k = 0; k < p->count; k++) {
        sb_patterns_lengths(p, k, len);
        double x = log_suits - log_hands;
        size_t run = 1;
        for (size_t i = 0; i < p->suits; i++) {
            x += gsl_sf_lnchoose(SB_CARD_RANKS, len[i]);
            /* the suits of equal length: divide by (run length)! */
            if (i + 1 < p->suits && len[i + 1] == len[i]) {
                run++;
            } else {
                x -= gsl_sf_lnfact((unsigned)run);
                run = 1;
            }
        }
        prob[k] = exp(x);
    }
    free(len);
    return SB_OK;
}

void sb_patterns_name(const unsigned *len, size_t suits, char *buf,
                      size_t size)
{
    size_t used = 0;
    if (size == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < suits; i++) {
        char part[8];
        snprintf(part, sizeof part, "%s%u", i ? "-" : "", len[i]);
        const size_t l = strlen(part);
        if (used + l + 4 > size) {
            if (used + 4 <= size)
                memcpy(buf + used, "...", 4);
            return;
        }
        memcpy(buf + used, part, l + 1);
        used += l;
    }
}

/* ---- tests hand by hand, combined ------------------------------------- */

int sb_hands_result(sb_result *res, const sb_hands_tests *t,
                    uint64_t samples, double fail_alpha)
{
    if (res == NULL || t == NULL || t->tests == 0 || t->k == 0
        || t->counts == NULL || t->prob == NULL || t->category == NULL
        || t->test == NULL || t->one == NULL || t->null_desc == NULL)
        return SB_EINVAL;
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");

    const double N = (double)samples, T = (double)t->tests;
    sb_gof_pooled p;
    int st = sb_gof_pooled_begin(&p, res, t->prob, t->k, samples);
    if (st == SB_OK && res->applicable)
        st = sb_gof_table_alloc(&res->table, t->tests, p.groups, t->ranges);
    if (st != SB_OK || !res->applicable) {
        sb_gof_pooled_end(&p);
        return st;
    }
    const size_t groups = p.groups;

    /* X^2 of every sub-test over the same groups; the worst sub-test is
       the one of largest X^2 (they share their df, so it has the
       smallest p-value), and within it the group contributing most. */
    double worst_x2 = -1.0, worst_c = -1.0;
    size_t worst_t = 0, worst_g = 0;
    for (size_t s = 0; s < t->tests; s++) {
        size_t top_g;
        double top;
        const double x2 = sb_gof_pooled_statistic(&p, t->counts + s * t->k,
                                                  t->first_value,
                                                  &res->table, s, &top_g,
                                                  &top);
        if (x2 > worst_x2) {
            worst_x2 = x2;
            worst_t = s;
            worst_g = top_g;
            worst_c = top;
        }
    }
    /* The group expected most often: the simplest pattern to state the
       detectable effect in (every sub-test expects the same). */
    size_t big_g = 0;
    for (size_t g = 1; g < groups; g++)
        if (res->table.expected[g] > res->table.expected[big_g])
            big_g = g;

    /* The worst sub-test's X^2, its effect and the detectable effect at
       the level each sub-test is held to; then its p-value, times T. */
    const double df = (double)(groups - 1);
    st = sb_gof_chisq_result(res, worst_x2, df, samples, fail_alpha / T);
    if (st == SB_OK && !res->p_underflow)
        res->p_value = fmin(1.0, T * res->p_value);
    res->subtests = (unsigned)t->tests;

    /* Words: the groups' first and last categories, kept from 'last'. */
    const size_t *last = p.last;
    char what[96], which[40], obs[16], want[16], pooling[96];
    const size_t g_lo = worst_g ? last[worst_g - 1] + 1 : 0;
    const size_t b_lo = big_g ? last[big_g - 1] + 1 : 0;
    /* Every sub-test and every group by name, for renderers. */
    res->row_label = "test";
    res->col_label = "category";
    if (st == SB_OK)
        st = sb_gof_names(res, 1);
    if (st == SB_OK)
        st = sb_gof_names(res, 0);
    for (size_t g = 0, lo = 0; st == SB_OK && g < groups; g++) {
        char name[96];
        t->category(name, sizeof name, lo, last[g], t->ctx);
        st = sb_gof_name(res->labels, g, name);
        lo = last[g] + 1;
    }
    for (size_t s = 0; st == SB_OK && s < t->tests; s++) {
        char name[96];
        t->test(name, sizeof name, s, t->ctx);
        st = sb_gof_name(res->row_names, s, name);
    }
    if (st == SB_OK) {
        snprintf(res->null_desc, sizeof res->null_desc,
                 "%s; exact binomial splits, chi-square(%zu) for each of "
                 "%zu, Bonferroni",
                 t->null_desc, groups - 1, t->tests);
        sb_gof_pooled_note(&p, pooling, sizeof pooling);
        snprintf(res->note, sizeof res->note,
                 "%s; the worst of %zu tests, p = min(1, %zu p_min): "
                 "valid whatever their dependence", pooling, t->tests,
                 t->tests);
        if (worst_c > 0.0) {
            const size_t cell = worst_t * groups + worst_g;
            t->test(which, sizeof which, worst_t, t->ctx);
            t->category(what, sizeof what, g_lo, last[worst_g], t->ctx);
            sb_gof_percent(obs, sizeof obs,
                           100.0 * res->table.observed[cell] / N);
            sb_gof_percent(want, sizeof want,
                           100.0 * res->table.expected[cell] / N);
            snprintf(res->effect_desc, sizeof res->effect_desc,
                     "%s: %s in %s%% of deals against %s%% expected",
                     which, what, obs, want);
        } else {
            snprintf(res->effect_desc, sizeof res->effect_desc,
                     "no deviation from the expected counts");
        }
        const double q = res->table.expected[big_g] / N;
        char label[sizeof what + 64];
        t->category(what, sizeof what, b_lo, last[big_g], t->ctx);
        sb_gof_percent(want, sizeof want, 100.0 * q);
        snprintf(label, sizeof label, "%s in %s (%s%% of deals)", what,
                 t->one, want);
        sb_gof_detectable_words(res, q, label);
    }
    sb_gof_pooled_end(&p);
    return st;
}
