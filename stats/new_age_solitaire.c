/*
 * new_age_solitaire.c - 'new-age-solitaire': Alice and Bob race through
 * the deck for the two halves of the original order.
 *
 * The game (Peter Doyle's "New Age Solitaire", told in Bayer & Diaconis,
 * "Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2(2),
 * 1992; analysed by van Zuylen & Schalekamp, "The Achilles' heel of the
 * GSR shuffle: a note on New Age Solitaire", Probab. Engrg. Inform. Sci.
 * 18(3), 2004).  Deal the shuffled deck from the top (deck[0]).  With
 * h = n/2, Alice collects the original top half in order, cards 0, 1,
 * ..., h-1; Bob the original bottom half in reverse, n-1, n-2, ..., n-h.
 * A dealt card that is the next target of either player goes to that
 * player's pile; any other card goes to the bottom of the deck.  Whoever
 * completes a pile first wins.  For an odd n the middle card (n-1)/2 is
 * nobody's: it only goes round, which changes nothing below.
 *
 * Fair game on a fair deck: relabelling every card c as n-1-c maps the
 * decks where Alice wins one to one onto the decks where Bob wins (her
 * targets, at the same positions, become his), so on a uniform deck Alice
 * wins with probability exactly 1/2, for every n.  tests/test_games.c
 * checks that by playing every deck of 4 to 7 cards.
 *
 * What it sees: after too few riffles from the sorted order, the top half
 * sits in few rising sequences, so Alice finds her next card further down
 * in the same pass through the deck, while Bob's descending targets need
 * a new pass almost every card.  After 7 GSR riffles of 52 cards, Alice
 * wins about 80.7% of games (the essay "Seven riffle shuffles is not
 * enough - except when it is", the Possibly Wrong blog, 2020, after van
 * Zuylen & Schalekamp, "The Achilles' heel of the GSR shuffle: a note on
 * New Age Solitaire", Probab. Engrg. Inform. Sci. 18(3), 2004: "over
 * 80%"; tests/test_games.c pins 0.807 with 'riffle'), although the deck
 * is then at total variation 0.334 from uniform only (Bayer & Diaconis
 * 1992, Table 1): the game amplifies exactly the order a riffle leaves.  It
 * also sees 'sort-random-comparator' at its defaults and 'naive-swap'
 * (Alice won 64% and 52% of 2 x 10^4 games of 52 cards).
 *
 * Who wins, in O(n) without dealing.  Taking cards out of the circulating
 * deck never reorders the others, so dealing is a sequence of sweeps:
 * sweep 1 meets the cards at positions 0, 1, ..., n-1 of the shuffled
 * deck, and every later sweep meets the cards still there in the same
 * position order.  Alice takes card 0 in sweep 1 at position pos(0); she
 * takes card i+1 later in the same sweep when pos(i+1) > pos(i), else in
 * the next one (it is still there: only she takes it).  So she completes
 * in sweep r_A = 1 + #{i < h-1 : pos(i+1) < pos(i)} at position pos(h-1),
 * and Bob, likewise along n-1, n-2, ..., n-h, in sweep r_B at position
 * pos(n-h).  Alice wins iff (r_A, pos(h-1)) < (r_B, pos(n-h))
 * lexicographically: the game is over by then, whatever the loser was
 * doing.  pos is the inverse permutation, built in one pass; the two
 * counts are one pass over each half.  tests/test_games.c checks this
 * against a literal simulation of the deal (all decks of 4 to 7 cards,
 * random decks of 52 and 53).
 *
 * The statistic: Alice's wins W over N decks, Binomial(N, 1/2) under the
 * null, reported as the Pearson X^2 of the two outcomes, (2W - N)^2 / N
 * with 1 degree of freedom, which orders the runs as |W - N/2| does; its
 * p-value is exact, not chi-square.  Two-sided, and discrete: with
 * T = |W - N/2| and m = min(W, N - W), p_upper = P(T >= t) =
 * 2 P(W <= m) and p_lower = P(T > t) = 2 P(W <= m - 1), both capped at
 * 1 (at W = N/2 they are 1 and 1 - P(W = N/2)); p_upper is the p-value
 * (valid, so the battery's 1e-6 bound holds; a mid-p could reject a true
 * null up to twice as often as its level), and the interval lets a
 * calibration check draw a randomized p-value.  The binomial cdf is GSL's
 * gsl_cdf_binomial_P; two cases use the normal approximation with
 * continuity correction, P(W <= w) ~ Phi((w + 1/2 - N/2) / (sqrt(N)/2)),
 * and say so in the note: N above UINT_MAX (GSL's argument type), and a
 * NaN from GSL, which its incomplete beta function returns within about
 * 0.7 standard deviations of the centre from N near 3e6 on (p-values
 * above 0.48 then; there the approximation's relative error is about 1/N,
 * the binomial being symmetric).
 *
 * Effect: the chi-square distance per deck, (X^2 - 1) / N = 4 (W/N -
 * 1/2)^2 - 1/N (0 if negative), so that it compares with 'detectable';
 * in words, the win rate itself ("Alice won 80.7% of games against 50%
 * expected").  Detectable: the smallest |P(Alice) - 1/2| = delta that
 * the two-sided test at the fail threshold finds with power 0.9, from the normal approximation of W/N (mean 1/2 + delta,
 * variance (1/4 - delta^2)/N), as noncentrality per deck 4 delta^2 and in
 * words ("Alice winning 50% +- 0.309% of games" at 10^6 decks and level
 * 1e-6).
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

/* The smallest deck played: two cards each. */
#define SOLITAIRE_N_MIN 4

typedef struct solitaire_acc {
    size_t n;            /* deck size; below SOLITAIRE_N_MIN nothing is
                            counted and the result says why */
    size_t h;            /* cards each player collects: n / 2 */
    uint64_t wins;       /* decks Alice won */
    sb_card *pos;        /* scratch for add: pos[c] = position of card c */
} solitaire_acc;

static int solitaire_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > SB_DECK_MAX)
        return SB_EINVAL;
    solitaire_acc *a = calloc(1, sizeof *a);
    sb_card *pos = calloc(shape->n, sizeof *pos);
    if (a == NULL || pos == NULL) {
        free(a);
        free(pos);
        return SB_ENOMEM;
    }
    a->n = shape->n;
    a->h = shape->n / 2;
    a->pos = pos;
    *acc = a;
    return SB_OK;
}

int sb_new_age_alice_wins(const sb_card *deck, size_t n, sb_card *pos)
{
    const size_t h = n / 2, b0 = n - h;
    if (n < SOLITAIRE_N_MIN)
        return 0;
    for (size_t j = 0; j < n; j++)
        pos[deck[j]] = (sb_card)j;
    /* Sweeps beyond the first: a step back in position starts one.
       Alice steps from c to c + 1, Bob from c + 1 down to c, so both
       counts run forward over adjacent pairs (and vectorize). */
    unsigned ra = 0, rb = 0;
    for (size_t c = 0; c + 1 < h; c++)
        ra += pos[c + 1] < pos[c];
    for (size_t c = b0; c + 1 < n; c++)
        rb += pos[c] < pos[c + 1];
    return ra < rb || (ra == rb && pos[h - 1] < pos[b0]);
}

/* Precondition: every sample a permutation of 0..n-1 (as for every
   statistic on the hot path, not checked). */
static void solitaire_add(void *acc, const sb_card *samples, size_t count)
{
    solitaire_acc *a = acc;
    const size_t n = a->n;
    sb_card *restrict pos = a->pos;
    uint64_t wins = 0;
    if (n < SOLITAIRE_N_MIN)
        return;
    for (size_t i = 0; i < count; i++, samples += n)
        wins += (uint64_t)sb_new_age_alice_wins(samples, n, pos);
    a->wins += wins;
}

static int solitaire_merge(void *into, const void *from)
{
    solitaire_acc *a = into;
    const solitaire_acc *b = from;
    if (a->n != b->n)
        return SB_EINVAL;
    a->wins += b->wins;
    return SB_OK;
}

/* P(W <= w) for W ~ Binomial(N, 1/2), w <= N/2 (see the essay for when
   the normal approximation stands in; *approx is then set). */
static double lower_tail(uint64_t w, uint64_t N, int *approx)
{
    if (N <= UINT_MAX) {
        const double q = gsl_cdf_binomial_P((unsigned)w, 0.5, (unsigned)N);
        if (!isnan(q))
            return q;
    }
    *approx = 1;
    const double sd = 0.5 * sqrt((double)N);
    return gsl_cdf_ugaussian_P(((double)w + 0.5 - 0.5 * (double)N) / sd);
}

/* Power of the two-sided test with critical deviation 'c' of W/N from
   1/2, when P(Alice) = 1/2 + delta (normal approximation). */
static double power_at(double delta, double c, double N)
{
    const double s = sqrt((0.25 - delta * delta) / N);
    return gsl_cdf_ugaussian_Q((c - delta) / s)
           + gsl_cdf_ugaussian_P((-c - delta) / s);
}

/* The smallest delta in (0, 1/2) seen with power SB_GOF_POWER at level
   'alpha', by bisection (power rises with delta); 0 when even delta near
   1/2 is not seen (a handful of decks). */
static int detectable_delta(double alpha, uint64_t samples, double *delta)
{
    const double N = (double)samples;
    const double z = gsl_cdf_ugaussian_Qinv(alpha / 2.0);
    if (isnan(z))
        return SB_ERANGE;
    const double c = 0.5 * z / sqrt(N);
    double lo = 0.0, hi = 0.5 * (1.0 - 1e-12);
    double pw = power_at(hi, c, N);
    if (isnan(pw))
        return SB_ERANGE;
    if (pw < SB_GOF_POWER) {
        *delta = 0.0;
        return SB_OK;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
        const double mid = 0.5 * (lo + hi);
        pw = power_at(mid, c, N);
        if (isnan(pw))
            return SB_ERANGE;
        if (pw >= SB_GOF_POWER)
            hi = mid;
        else
            lo = mid;
    }
    *delta = 0.5 * (lo + hi);
    return SB_OK;
}

static int solitaire_finalize(const void *acc, uint64_t samples,
                              double fail_alpha, sb_result *res)
{
    const solitaire_acc *a = acc;
    const char *name = sb_stat_new_age_solitaire.name;
    sb_gof_begin(res, name);
    if (a->n < SOLITAIRE_N_MIN)
        return sb_gof_not_applicable(res,
            "'%s' needs n >= %d: two cards for each player (n is %zu)",
            name, SOLITAIRE_N_MIN, a->n);
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");
    if (a->wins > samples || !(fail_alpha > 0.0 && fail_alpha < 1.0))
        return SB_EINVAL;
    /* The smallest p-value N games can give is 2^(1-N) (Alice wins all or
       none): at or above the fail threshold (a statistic fails strictly
       below it), no outcome could fail, and a pass would say nothing. */
    if (samples < 64 && ldexp(1.0, 1 - (int)samples) >= fail_alpha)
        return sb_gof_not_applicable(res,
            "'%s' needs more games: %" PRIu64 " cannot give a p-value below "
            "%.3g (the fewest that can: %d)", name, samples, fail_alpha,
            1 - (int)floor(log2(fail_alpha)));

    const uint64_t N = samples, w = a->wins;
    const uint64_t low = w < N - w ? w : N - w;   /* the nearer tail */
    int approx = 0;
    const double upper = fmin(1.0, 2.0 * lower_tail(low, N, &approx));
    const double lower = low == 0
                             ? 0.0
                             : fmin(1.0, 2.0 * lower_tail(low - 1, N, &approx));
    if (isnan(upper) || isnan(lower))
        return SB_ERANGE;
    res->discrete = 1;
    res->p_lower = lower;
    res->p_upper = upper;
    res->p_value = upper;
    if (res->p_value < SB_GOF_P_FLOOR) {
        res->p_value = 0.0;
        res->p_underflow = 1;
    }
    /* X^2 over the two outcomes, a monotone function of |W - N/2|: the
       p-value above is its exact one. */
    const double Nd = (double)N, rate = (double)w / Nd;
    const double dev = 2.0 * (double)w - Nd;
    res->statistic = dev * dev / Nd;
    res->df = 1.0;
    res->effect = fmax(0.0, (res->statistic - 1.0) / Nd);
    double delta;
    int st = detectable_delta(fail_alpha, N, &delta);
    if (st != SB_OK)
        return st;
    res->detectable = 4.0 * delta * delta;

    char pct[32];
    if (delta > 0.0) {
        sb_gof_percent(pct, sizeof pct, 100.0 * delta);
        snprintf(res->detectable_desc, sizeof res->detectable_desc,
                 "Alice winning 50%% +- %s%% of games", pct);
    } else {
        snprintf(res->detectable_desc, sizeof res->detectable_desc,
                 "no win rate detectable at %" PRIu64 " games", N);
    }
    sb_gof_percent(pct, sizeof pct, 100.0 * rate);
    snprintf(res->effect_desc, sizeof res->effect_desc,
             "Alice won %s%% of games against 50%% expected", pct);
    snprintf(res->null_desc, sizeof res->null_desc,
             "Alice's wins W ~ binomial(%" PRIu64 ", 1/2); x2 = (2W - N)^2 "
             "/ N with its exact two-sided p-value", N);
    snprintf(res->note, sizeof res->note,
             "Alice collects cards 0..%zu, Bob %zu..%zu downwards%s%s",
             a->h - 1, a->n - 1, a->n - a->h,
             a->n % 2 ? "; the middle card is nobody's" : "",
             approx ? "; binomial tail by the normal approximation "
                      "(continuity-corrected)" : "");

    st = sb_gof_table_alloc(&res->table, 1, 2, 1);
    if (st != SB_OK)
        return st;
    /* Category 0: Alice won; 1: Bob won. */
    res->table.observed[0] = (double)w;
    res->table.observed[1] = (double)(N - w);
    res->table.expected[0] = res->table.expected[1] = 0.5 * Nd;
    res->table.lo[0] = res->table.hi[0] = 0;
    res->table.lo[1] = res->table.hi[1] = 1;
    res->col_label = "winner";
    st = sb_gof_names(res, 1);
    if (st == SB_OK)
        st = sb_gof_name(res->labels, 0, "Alice won");
    if (st == SB_OK)
        st = sb_gof_name(res->labels, 1, "Bob won");
    return st;
}

static void solitaire_free(void *acc)
{
    solitaire_acc *a = acc;
    if (a != NULL)
        free(a->pos);
    free(a);
}

/* State files (stats/saved.h): the key, then Alice's wins ('pos' is
   scratch).  Besides a wrong length or key, refused: wins on a deck too
   small to play, where nothing is counted.  Wins above the samples are
   refused by finalize, which alone knows the samples. */
static uint64_t solitaire_key(const solitaire_acc *a)
{
    return sb_saved_key(sb_stat_new_age_solitaire.name, SB_KIND_PERMUTATION,
                        a->n, a->n, 0);
}

static int solitaire_save(const void *acc, uint64_t **words, size_t *count)
{
    const solitaire_acc *a = acc;
    return sb_saved_counts(solitaire_key(a), &a->wins, 1, words, count);
}

static int solitaire_load(void *acc, const uint64_t *words, size_t count)
{
    solitaire_acc *a = acc;
    const uint64_t *w = sb_saved_body(words, count, solitaire_key(a), 1);
    if (w == NULL || (a->n < SOLITAIRE_N_MIN && w[0] != 0))
        return SB_EINVAL;
    a->wins = w[0];
    return SB_OK;
}

static size_t solitaire_memory(const sb_shape *shape, size_t *finalize)
{
    *finalize = sb_mem_finalize(shape->n, 0);
    return sb_mem(sizeof(solitaire_acc)) + sb_mem(shape->n * sizeof(sb_card));
}

const sb_stat_type sb_stat_new_age_solitaire = {
    .name = "new-age-solitaire",
    .sees = "who wins Alice and Bob's race for the top half in order and "
            "the bottom half in reverse",
    .kinds = SB_KIND_PERMUTATION,
    .default_kinds = SB_KIND_PERMUTATION,
    .n_min = SOLITAIRE_N_MIN,
    .n_max = SB_DECK_MAX,
    .alloc = solitaire_alloc,
    .add = solitaire_add,
    .merge = solitaire_merge,
    .finalize = solitaire_finalize,
    .free = solitaire_free,
    .save = solitaire_save,
    .load = solitaire_load,
    .memory = solitaire_memory,
};
