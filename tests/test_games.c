/*
 * test_games.c - the statistics that play a game with the deck:
 * 'new-age-solitaire' and 'poker7'.
 *
 * Checked against code written here, independently of stats/: a literal
 * deal of New Age Solitaire (cards to the bottom of the deck one by one),
 * a slow poker evaluator (the best of the 21 five-card subsets of seven
 * cards, each classified by sorting its ranks), binomial tails from exact
 * integers.  Published values: the seven-card poker counts (Wikipedia,
 * "Poker probability", 7-card hands; B. Alspach, "7-card poker hands",
 * 2000), and Alice's win rate after 7 GSR riffles of 52 cards.
 * Statistical assertions use fixed seeds and state the false-alarm rate
 * they would have over random seeds.
 */
#include "tests/sb_test.h"
#include "tests/sb_sample.h"
#include "tests/sb_runs.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/gof.h"
#include "stats/nulls.h"
#include "stats/poker.h"
#include "stats/registry.h"

/* ---- helpers ---------------------------------------------------------- */

#define DECK_MAX 64

/* One GSR riffle in its bit-string form: position i of the result takes
   the next card of the top packet when bit i is 0, of the bottom packet
   when it is 1; the number of 0s is the cut. */
static void riffle_once(uint64_t *s, sb_card *deck, size_t n)
{
    unsigned char bit[DECK_MAX];
    sb_card out[DECK_MAX];
    size_t cut = 0;
    for (size_t i = 0; i < n; i++) {
        bit[i] = (unsigned char)(xs_next(s) >> 63);
        cut += bit[i] == 0;
    }
    size_t top = 0, bottom = cut;
    for (size_t i = 0; i < n; i++)
        out[i] = bit[i] ? deck[bottom++] : deck[top++];
    memcpy(deck, out, n * sizeof *deck);
}

static sb_shape perm_shape(size_t n)
{
    sb_shape s = { SB_KIND_PERMUTATION, n, n, 0 };
    return s;
}

/* ---- New Age Solitaire: the game itself -------------------------------- */

/* Deal the game literally: the deck is a queue; a dealt card that is
   Alice's next target (0, 1, ..., h-1) or Bob's (n-1, n-2, ..., n-h) is
   taken, any other goes to the bottom.  1 if Alice completes first. */
static int play(const sb_card *deck, size_t n)
{
    sb_card q[DECK_MAX];
    memcpy(q, deck, n * sizeof *q);
    const size_t h = n / 2;
    size_t head = 0, len = n, alice = 0, bob = 0;
    for (;;) {
        const sb_card c = q[head];
        head = (head + 1) % n;
        len--;
        if (alice < h && c == alice) {
            if (++alice == h)
                return 1;
        } else if (bob < h && c == n - 1 - bob) {
            if (++bob == h)
                return 0;
        } else {
            q[(head + len) % n] = c;
            len++;
        }
    }
}

/* The statistic's count of Alice's wins so far: the first cell of its
   table after finalizing 'samples' decks. */
static uint64_t stat_wins(const void *acc, uint64_t samples)
{
    sb_result res;
    assert_int_equal(sb_stat_new_age_solitaire.finalize(acc, samples, 1e-6,
                                                        &res), SB_OK);
    assert_int_equal(res.table.cols, 2);
    const uint64_t w = (uint64_t)res.table.observed[0];
    sb_result_clear(&res);
    return w;
}

/* Games the statistic judges at the least: fewer cannot give a p-value
   below 1e-6 (2^(1-N) > 1e-6 for N < 21), and it calls them n/a. */
#define SOLO 21u

/* Check the statistic's winner against play() on one deck, fed to 'acc'
   SOLO times as deck number 'i' (0-based): its count of wins grows by
   SOLO or by nothing. */
static void agree_on(void *acc, const sb_card *deck, size_t n, uint64_t i,
                     uint64_t *wins)
{
    for (unsigned k = 0; k < SOLO; k++)
        sb_stat_new_age_solitaire.add(acc, deck, 1);
    *wins += SOLO * (uint64_t)play(deck, n);
    assert_int_equal(stat_wins(acc, SOLO * (i + 1)), *wins);
}

/* Every deck of 4, 5, 6 and 7 cards: the O(n) rule of the statistic names
   the winner the literal deal names, and Alice wins exactly half of the
   n! decks (the symmetry c -> n-1-c; for odd n the middle card is
   nobody's). */
static void solitaire_rule_all_small_decks(void **state)
{
    (void)state;
    for (size_t n = 4; n <= 7; n++) {
        sb_shape sh = perm_shape(n);
        void *acc;
        assert_int_equal(sb_stat_new_age_solitaire.alloc(&acc, &sh), SB_OK);
        sb_card deck[DECK_MAX];
        for (size_t i = 0; i < n; i++)
            deck[i] = (sb_card)i;
        uint64_t decks = 0, wins = 0;
        do {
            agree_on(acc, deck, n, decks, &wins);
            decks++;
        } while (next_perm(deck, n));
        assert_int_equal(decks, sb_null_factorial(n));
        assert_int_equal(2 * wins, SOLO * decks);
        sb_stat_new_age_solitaire.free(acc);
    }
}

/* Random decks of 52 and 53 cards, uniform and riffled 1 to 6 times by
   the test's own riffle (orderly decks, where both players make long runs
   in one sweep): the rule agrees with the literal deal on every one. */
static void solitaire_rule_random_decks(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed5011a17eull;
    for (size_t n = 52; n <= 53; n++) {
        sb_shape sh = perm_shape(n);
        void *acc;
        assert_int_equal(sb_stat_new_age_solitaire.alloc(&acc, &sh), SB_OK);
        sb_card deck[DECK_MAX];
        uint64_t i = 0, wins = 0;
        for (int k = 0; k < 3000; k++, i++) {
            xs_deck(&seed, deck, n);
            agree_on(acc, deck, n, i, &wins);
        }
        for (int k = 0; k < 3000; k++, i++) {
            for (size_t c = 0; c < n; c++)
                deck[c] = (sb_card)c;
            for (int r = 0; r < 1 + k % 6; r++)
                riffle_once(&seed, deck, n);
            agree_on(acc, deck, n, i, &wins);
        }
        sb_stat_new_age_solitaire.free(acc);
    }
}

/* ---- New Age Solitaire: the test ---------------------------------------- */

/* An accumulator at n = 4 holding 'wins' wins of Alice out of 'games':
   the sorted deck is a win for Alice (her cards 0, 1 in one sweep, Bob
   needs a second for 2 after 3), the reversed deck a win for Bob. */
static void *solitaire_with(uint64_t wins, uint64_t games)
{
    static const sb_card sorted[4] = { 0, 1, 2, 3 };
    static const sb_card reversed[4] = { 3, 2, 1, 0 };
    assert_int_equal(play(sorted, 4), 1);
    assert_int_equal(play(reversed, 4), 0);
    sb_shape sh = perm_shape(4);
    void *acc;
    assert_int_equal(sb_stat_new_age_solitaire.alloc(&acc, &sh), SB_OK);
    for (uint64_t i = 0; i < games; i++)
        sb_stat_new_age_solitaire.add(acc, i < wins ? sorted : reversed, 1);
    return acc;
}

/* Games that cannot fail are not judged: N games give at the smallest
   p = 2^(1-N) (all won or all lost), above 1e-6 for N <= 20, so 20 games
   all won for Alice are n/a at 1e-6, 21 are judged and fail.  At 1e-5
   the bound moves to 18 games (2^-17 = 7.6e-6). */
static void solitaire_too_few_games_cannot_fail(void **state)
{
    (void)state;
    const struct { uint64_t games; double alpha; int judged; } c[] = {
        { 1, 1e-6, 0 }, { 20, 1e-6, 0 }, { 21, 1e-6, 1 },
        { 17, 1e-5, 0 }, { 18, 1e-5, 1 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        void *acc = solitaire_with(c[i].games, c[i].games);
        sb_result res;
        assert_int_equal(sb_stat_new_age_solitaire.finalize(
                             acc, c[i].games, c[i].alpha, &res), SB_OK);
        assert_int_equal(res.applicable, c[i].judged);
        if (c[i].judged)
            assert_true(res.p_value <= c[i].alpha);
        else
            assert_non_null(strstr(res.note, "needs more games"));
        sb_result_clear(&res);
        sb_stat_new_age_solitaire.free(acc);
    }
}

/* C(n, k) as an exact integer (n <= 60). */
static uint64_t choose(unsigned n, unsigned k)
{
    uint64_t c = 1;
    for (unsigned i = 1; i <= k; i++)
        c = c * (n - k + i) / i;
    return c;
}

/* The two-sided p-value against sums of exact binomial coefficients, at
   N = 20 games (2^20 = 1,048,576 equally likely win/loss strings):
   W = 15: P(W >= 15) = (15504 + 4845 + 1140 + 190 + 20 + 1) / 2^20 =
   21700 / 2^20, P(W = 15) = 15504 / 2^20, so p_upper = P(|W-10| >= 5) =
   43400 / 2^20, the p-value, and p_lower = P(|W-10| > 5) = 12392 / 2^20.
   W = 5 is the mirror image; W = 10 gives p_upper = 1 and
   p_lower = 1 - C(20,10) / 2^20. */
static void solitaire_binomial_p(void **state)
{
    (void)state;
    const double two20 = 1048576.0;
    uint64_t tail = 0;
    for (unsigned k = 15; k <= 20; k++)
        tail += choose(20, k);
    assert_int_equal(tail, 21700);
    const uint64_t w[] = { 15, 5, 10 };
    const double up[] = { 43400 / two20, 43400 / two20, 1.0 };
    const double lo[] = { 12392 / two20, 12392 / two20,
                          1.0 - (double)choose(20, 10) / two20 };
    for (size_t i = 0; i < 3; i++) {
        void *acc = solitaire_with(w[i], 20);
        sb_result res;
        /* 20 games cannot fail at 1e-6 (their smallest p is 2^-19), so
           they are judged against 1e-5; the p-values do not depend on
           it. */
        assert_int_equal(sb_stat_new_age_solitaire.finalize(acc, 20, 1e-5,
                                                            &res), SB_OK);
        assert_true(res.applicable);
        assert_true(res.discrete);
        /* X^2 = (2W - N)^2 / N on 1 df: 5 at W = 15 or 5, 0 at 10. */
        const double dev = 2.0 * (double)w[i] - 20.0;
        assert_close(res.statistic, dev * dev / 20.0, 1e-12);
        assert_true(res.df == 1.0);
        assert_close(res.p_upper, up[i], 1e-12);
        assert_close(res.p_lower, lo[i], 1e-12);
        assert_close(res.p_value, up[i], 1e-12);
        assert_int_equal(res.table.cols, 2);
        assert_true(res.table.observed[0] == (double)w[i]);
        assert_true(res.table.expected[1] == 10.0);
        sb_result_clear(&res);
        sb_stat_new_age_solitaire.free(acc);
    }
}

/* Large N: at N = 4 x 10^6 and W = N/2 (the centre, where GSL 2.7's
   binomial cdf answers NaN and the continuity-corrected normal stands in)
   p_upper is 1 and p_lower = 1 - P(W = N/2) = 1 - C(N, N/2) / 2^N, which
   is 1 - sqrt(2 / (pi N)) (1 - 1/(4N) + ...) by Stirling's formula.  At
   W = N/2 - 3000 (3 standard deviations of sqrt(N)/2 = 1000 below the
   centre) the symmetric binomial's tail agrees with the
   continuity-corrected normal to O(z^4 / N) relative, far below 1e-3. */
static void solitaire_large_n(void **state)
{
    (void)state;
    const uint64_t N = 4000000;
    const uint64_t w[] = { N / 2, N / 2 - 3000 };
    for (size_t i = 0; i < 2; i++) {
        void *acc = solitaire_with(w[i], N);
        sb_result res;
        assert_int_equal(sb_stat_new_age_solitaire.finalize(acc, N, 1e-6,
                                                            &res), SB_OK);
        if (i == 0) {
            assert_true(res.p_upper == 1.0);
            assert_close(1.0 - res.p_lower,
                         sqrt(2.0 / (3.14159265358979324 * (double)N)),
                         1e-4);
        } else {
            const double z = (double)(w[i]) + 0.5 - 0.5 * (double)N;
            assert_close(res.p_upper,
                         2.0 * gsl_cdf_ugaussian_P(z / 1000.0), 1e-3);
        }
        assert_close(res.p_value, res.p_upper, 1e-15);
        sb_result_clear(&res);
        sb_stat_new_age_solitaire.free(acc);
    }
}

/* The detectable effect at N = 10^6 games and fail threshold 10^-6: the
   two-sided test rejects beyond z = Qinv(alpha/2) standard deviations
   sqrt(1/4 / N) of the win rate, and is found with power 0.9 about
   z_0.1 = Qinv(0.1) standard deviations beyond that, so delta* is close
   to (Qinv(5e-7) + Qinv(0.1)) / (2 sqrt(N)) = (4.892 + 1.282) / 2000 =
   0.309% (the far tail and the variance's -delta^2 move it by less than
   1e-4 relative).  The effect of W = 520,000 is 4 (0.02)^2 - 1/N per
   game, in words the win rate. */
static void solitaire_detectable_and_effect(void **state)
{
    (void)state;
    const uint64_t N = 1000000;
    void *acc = solitaire_with(520000, N);
    sb_result res;
    assert_int_equal(sb_stat_new_age_solitaire.finalize(acc, N, 1e-6, &res),
                     SB_OK);
    const double approx = (gsl_cdf_ugaussian_Qinv(5e-7)
                           + gsl_cdf_ugaussian_Qinv(0.1)) / 2000.0;
    assert_close(sqrt(res.detectable) / 2.0, approx, 1e-3);
    assert_string_equal(res.detectable_desc,
                        "Alice winning 50% +- 0.309% of games");
    assert_close(res.effect, 4.0 * 0.02 * 0.02 - 1e-6, 1e-12);
    assert_string_equal(res.effect_desc,
                        "Alice won 52.0% of games against 50% expected");
    /* 20,000 wins above 500,000 are 40 standard deviations of 500: far
       below the double range. */
    assert_true(res.p_underflow);
    assert_true(res.p_value == 0.0);
    sb_result_clear(&res);
    sb_stat_new_age_solitaire.free(acc);
}

/* The convention, pinned: GSR riffles of the sorted deck with card 0 on
   top ('riffle', passes=7, 52 cards) let Alice win about 80.7% of games
   (the essay "Seven riffle shuffles is not enough - except when it is",
   the Possibly Wrong blog, 2020, after van Zuylen & Schalekamp 2004:
   "over 80%").  At 2 x 10^5 decks the win rate has standard deviation
   sqrt(0.807 x 0.193 / 2e5) = 0.00088; the tolerance 0.005 leaves 5.1
   standard deviations to either end of 0.807's rounding interval
   [0.8065, 0.8075], a false-alarm rate below 4e-7 over random seeds.
   With the card order reversed (Alice collecting the bottom half) the
   same decks would make Bob win 80.7%, so this also fixes which end of
   the deck is the top. */
static void solitaire_seven_riffles(void **state)
{
    (void)state;
    static const sb_stat_type *const stats[] = { &sb_stat_new_age_solitaire };
    const uint64_t N = 200000;
    sb_report rep;
    sb_test_run(sb_test_alg("riffle"),
                (const char *const[]){ "passes=7", NULL }, 52, N, 20240701,
                SB_RNG_DEFAULT, stats, 1, &rep);
    const sb_result *r = &rep.results[0];
    const double rate = r->table.observed[0] / (double)N;
    assert_true(fabs(rate - 0.807) < 0.005);
    assert_int_equal(r->verdict, SB_VERDICT_FAIL);
    sb_report_release(&rep);
}

/* A fair shuffle passes at 52 cards (2 x 10^5 decks) and at 13 (10^5,
   odd: the middle card is nobody's).  The exact two-sided p-value is
   valid (P(p <= a) <= a under the null), so each assertion p > 1e-3 fails
   with probability at most 1e-3 over random seeds: 2e-3 in all. */
static void solitaire_fair_passes(void **state)
{
    (void)state;
    static const sb_stat_type *const stats[] = { &sb_stat_new_age_solitaire };
    const size_t n[] = { 52, 13 };
    const uint64_t N[] = { 200000, 100000 };
    for (size_t i = 0; i < 2; i++) {
        sb_report rep;
        sb_test_run(sb_test_alg("fisher-yates"), NULL, n[i], N[i], 1 + i,
                    SB_RNG_DEFAULT, stats, 1, &rep);
        assert_true(rep.results[0].applicable);
        assert_true(rep.results[0].p_value > 1e-3);
        assert_int_equal(rep.results[0].verdict, SB_VERDICT_PASS);
        sb_report_release(&rep);
    }
}

/* ---- poker7: the exact null --------------------------------------------- */

/* Wikipedia, "Poker probability", section "7-card poker hands" (the
   frequencies of the best five-card hand among 7 cards), and B. Alspach,
   "7-card poker hands" (2000, people.math.sfu.ca/~alspach/comp20/):
   straight flush 41,584 (royal flush 4,324 of them), four of a kind
   224,848, full house 3,473,184, flush 4,047,644, straight 6,180,020,
   three of a kind 6,461,620, two pair 31,433,400, one pair 58,627,800,
   high card 23,294,460; total C(52,7) = 133,784,560. */
static void poker7_null_published(void **state)
{
    (void)state;
    static const uint64_t published[SB_POKER_CATEGORIES] = {
        23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184,
        224848, 41584
    };
    uint64_t counts[SB_POKER_CATEGORIES], total = 0;
    assert_int_equal(sb_null_poker7_counts(counts), SB_OK);
    for (size_t k = 0; k < SB_POKER_CATEGORIES; k++) {
        assert_int_equal(counts[k], published[k]);
        total += counts[k];
    }
    assert_int_equal(total, choose(52, 7));
    assert_int_equal(total, 133784560);
    assert_int_equal(sb_null_poker7_counts(NULL), SB_EINVAL);
}

/* ---- poker7: the evaluator ---------------------------------------------- */

/* The category of five cards, the slow and obvious way: count ranks,
   check one suit, check five distinct ranks spanning 4 or A-2-3-4-5. */
static unsigned slow5(const sb_card *c)
{
    int count[13] = { 0 };
    int flush = 1, lo = 13, hi = -1, distinct = 0;
    for (int i = 0; i < 5; i++) {
        const int r = c[i] % 13;
        if (count[r]++ == 0)
            distinct++;
        if (c[i] / 13 != c[0] / 13)
            flush = 0;
        if (r < lo)
            lo = r;
        if (r > hi)
            hi = r;
    }
    int pairs = 0, trips = 0, quads = 0;
    for (int r = 0; r < 13; r++) {
        pairs += count[r] == 2;
        trips += count[r] == 3;
        quads += count[r] == 4;
    }
    const int wheel = count[12] && count[0] && count[1] && count[2]
                      && count[3];
    const int straight = distinct == 5 && (hi - lo == 4 || wheel);
    if (straight && flush)
        return SB_POKER_STRAIGHT_FLUSH;
    if (quads)
        return SB_POKER_QUADS;
    if (trips && pairs)
        return SB_POKER_FULL_HOUSE;
    if (flush)
        return SB_POKER_FLUSH;
    if (straight)
        return SB_POKER_STRAIGHT;
    if (trips)
        return SB_POKER_TRIPS;
    if (pairs == 2)
        return SB_POKER_TWO_PAIR;
    if (pairs == 1)
        return SB_POKER_PAIR;
    return SB_POKER_HIGH_CARD;
}

/* The best of the 21 five-card hands in seven cards (leave out a, b). */
static unsigned slow7(const sb_card *c)
{
    unsigned best = 0;
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++) {
            sb_card five[5];
            int k = 0;
            for (int i = 0; i < 7; i++)
                if (i != a && i != b)
                    five[k++] = c[i];
            const unsigned cat = slow5(five);
            if (cat > best)
                best = cat;
        }
    return best;
}

/* A 52-card deck whose top seven cards are drawn from a pool chosen to
   reach every category often: all 52 cards; every suit of 5 or 6
   consecutive ranks (quads, full houses, straights); one or two suits of
   8 consecutive ranks (flushes, straight flushes), windows wrapping past
   the ace so that A-2-3-4-5 comes up.  The other 45 cards follow in any
   order. */
static void pooled_deck(uint64_t *s, sb_card *deck)
{
    sb_card pool[52];
    size_t m = 0;
    const int mode = (int)xs_below(s, 3);
    if (mode == 0) {
        for (sb_card c = 0; c < 52; c++)
            pool[m++] = c;
    } else {
        const int width = mode == 1 ? 5 + (int)xs_below(s, 2) : 8;
        const int start = (int)xs_below(s, 13);
        const int suits = mode == 1 ? 4 : 1 + (int)xs_below(s, 2);
        const int first_suit = (int)xs_below(s, 4);
        for (int k = 0; k < suits; k++)
            for (int w = 0; w < width; w++) {
                const int suit = (first_suit + k) % 4;
                const int rank = (start + w) % 13;
                pool[m++] = (sb_card)(suit * 13 + rank);
            }
    }
    /* Seven distinct cards of the pool on top (a partial shuffle). */
    for (size_t i = 0; i < 7; i++) {
        size_t j = i + xs_below(s, m - i);
        sb_card t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
        deck[i] = pool[i];
    }
    unsigned char used[52] = { 0 };
    for (size_t i = 0; i < 7; i++)
        used[deck[i]] = 1;
    size_t k = 7;
    for (sb_card c = 0; c < 52; c++)
        if (!used[c])
            deck[k++] = c;
}

/* The fast evaluator (stats/poker.h) against slow7 on 10^5 hands that
   reach every category at least 100 times; and the statistic's counts
   (its table, unpooled at this size) equal slow7's on the same decks. */
static void poker7_evaluator_against_slow(void **state)
{
    (void)state;
    enum { HANDS = 100000 };
    sb_card *decks = malloc((size_t)HANDS * 52 * sizeof *decks);
    assert_non_null(decks);
    uint64_t seed = 0x90c4e7ull, slow_counts[SB_POKER_CATEGORIES] = { 0 };
    for (size_t i = 0; i < HANDS; i++) {
        sb_card *d = decks + i * 52;
        pooled_deck(&seed, d);
        const unsigned want = slow7(d);
        assert_int_equal(sb_poker_category(d, 7), want);
        slow_counts[want]++;
    }
    for (size_t k = 0; k < SB_POKER_CATEGORIES; k++)
        assert_true(slow_counts[k] >= 100);

    sb_shape sh = perm_shape(52);
    void *acc;
    assert_int_equal(sb_stat_poker7.alloc(&acc, &sh), SB_OK);
    sb_stat_poker7.add(acc, decks, HANDS / 2);
    sb_stat_poker7.add(acc, decks + (size_t)(HANDS / 2) * 52, HANDS / 2);
    sb_result res;
    assert_int_equal(sb_stat_poker7.finalize(acc, HANDS, 1e-6, &res), SB_OK);
    assert_int_equal(res.table.cols, SB_POKER_CATEGORIES);
    for (size_t k = 0; k < SB_POKER_CATEGORIES; k++)
        assert_true(res.table.observed[k] == (double)slow_counts[k]);
    sb_result_clear(&res);
    sb_stat_poker7.free(acc);
    free(decks);
}

/* ---- poker7: the test --------------------------------------------------- */

/* The flaw it exists for: too few riffles.  'human-packet' with passes=2
   deals straight flushes about 29% of the time against 0.031% (measured
   at 2 x 10^4 decks); at 5,000 decks the expected straight flushes alone
   are 1.6 against some 1,400, a chi-square beyond 10^5 where 1e-6
   needs 46: it cannot be missed.  'riffle' with passes=4 is subtler
   (too many straights: 5.5% against 4.62% at 10^5 decks, X^2 about 350
   against a null mean of 8): at 10^5 decks the noncentrality is near 340
   while the level 1e-6 test at 8 df reaches power 0.9 at 56; missing it
   has probability far below 1e-9. */
static void poker7_catches_few_riffles(void **state)
{
    (void)state;
    static const sb_stat_type *const stats[] = { &sb_stat_poker7 };
    sb_report rep;
    sb_test_run(sb_test_alg("human-packet"),
                (const char *const[]){ "passes=2", NULL }, 52, 5000, 11,
                SB_RNG_DEFAULT, stats, 1, &rep);
    assert_int_equal(rep.results[0].verdict, SB_VERDICT_FAIL);
    assert_non_null(strstr(rep.results[0].effect_desc, "straight flush: "));
    sb_report_release(&rep);

    sb_test_run(sb_test_alg("riffle"),
                (const char *const[]){ "passes=4", NULL }, 52, 100000, 12,
                SB_RNG_DEFAULT, stats, 1, &rep);
    assert_int_equal(rep.results[0].verdict, SB_VERDICT_FAIL);
    assert_true(rep.results[0].p_value < 1e-20);
    sb_report_release(&rep);
}

/* A fair shuffle passes: 2 x 10^5 decks of fisher-yates, 8 df, no
   pooling.  p > 1e-3 fails with probability 1e-3 over random seeds. */
static void poker7_fair_passes(void **state)
{
    (void)state;
    static const sb_stat_type *const stats[] = { &sb_stat_poker7 };
    sb_report rep;
    sb_test_run(sb_test_alg("fisher-yates"), NULL, 52, 200000, 5,
                SB_RNG_DEFAULT, stats, 1, &rep);
    const sb_result *r = &rep.results[0];
    assert_true(r->applicable);
    assert_true(r->df == 8.0);
    assert_true(r->p_value > 1e-3);
    assert_int_equal(r->verdict, SB_VERDICT_PASS);
    sb_report_release(&rep);
}

/* Few decks pool the rare categories into one group named in words; a
   deck of other than 52 cards is refused. */
static void poker7_pooling_and_shape(void **state)
{
    (void)state;
    sb_shape sh = perm_shape(52);
    void *acc;
    assert_int_equal(sb_stat_poker7.alloc(&acc, &sh), SB_OK);
    /* 1,000 sorted decks: 2c 3c 4c 5c 6c 7c 8c on top, a straight flush
       every time.  Expectations at N = 1000: quads 1.68 and straight
       flush 0.31 join full house (26.0) in the last group. */
    sb_card deck[52];
    for (sb_card c = 0; c < 52; c++)
        deck[c] = c;
    for (int i = 0; i < 1000; i++)
        sb_stat_poker7.add(acc, deck, 1);
    sb_result res;
    assert_int_equal(sb_stat_poker7.finalize(acc, 1000, 1e-6, &res), SB_OK);
    assert_int_equal(res.table.cols, 7);
    assert_true(res.table.lo[6] == SB_POKER_FULL_HOUSE);
    assert_true(res.table.hi[6] == SB_POKER_STRAIGHT_FLUSH);
    assert_true(res.table.observed[6] == 1000.0);
    assert_string_equal(res.effect_desc,
                        "full house to straight flush: 100% of decks "
                        "against 2.80% expected");
    sb_result_clear(&res);
    sb_stat_poker7.free(acc);

    char why[128];
    sb_shape s51 = perm_shape(51);
    assert_int_equal(sb_stat_check(&sb_stat_poker7, &s51, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'poker7' needs n >= 52 (n is 51)");
    assert_int_equal(sb_stat_poker7.alloc(&acc, &s51), SB_EINVAL);
    /* Three cards are too few for the game: not applicable, saying why. */
    sb_shape s3 = perm_shape(3);
    assert_int_equal(sb_stat_check(&sb_stat_new_age_solitaire, &s3, NULL, 0),
                     SB_EINVAL);
    assert_int_equal(sb_stat_new_age_solitaire.alloc(&acc, &s3), SB_OK);
    sb_stat_new_age_solitaire.add(acc, deck, 1);
    assert_int_equal(sb_stat_new_age_solitaire.finalize(acc, 1, 1e-6, &res),
                     SB_OK);
    assert_false(res.applicable);
    assert_string_equal(res.note, "'new-age-solitaire' needs n >= 4: two "
                                  "cards for each player (n is 3)");
    sb_result_clear(&res);
    sb_stat_new_age_solitaire.free(acc);
}

/* Both are in the default battery of 52-card permutations, after
   cycles. */
static void games_in_default_battery(void **state)
{
    (void)state;
    sb_shape s52 = perm_shape(52), s10 = perm_shape(10);
    const sb_stat_type *out[SB_STAT_DEFAULTS_MAX];
    const size_t k = sb_stat_defaults(&s52, out, SB_STAT_DEFAULTS_MAX);
    assert_true(k >= 5);
    size_t cycles = k, solitaire = k, poker = k;
    for (size_t i = 0; i < k; i++) {
        if (out[i] == &sb_stat_cycles)
            cycles = i;
        if (out[i] == &sb_stat_new_age_solitaire)
            solitaire = i;
        if (out[i] == &sb_stat_poker7)
            poker = i;
    }
    assert_true(cycles < solitaire && solitaire < poker && poker < k);
    assert_ptr_equal(sb_stat_find("new-age-solitaire"),
                     &sb_stat_new_age_solitaire);
    assert_ptr_equal(sb_stat_find("poker7"), &sb_stat_poker7);
    /* At 10 cards the solitaire plays, poker does not. */
    const size_t k10 = sb_stat_defaults(&s10, out, SB_STAT_DEFAULTS_MAX);
    int has_solitaire = 0;
    for (size_t i = 0; i < k10; i++) {
        assert_ptr_not_equal(out[i], &sb_stat_poker7);
        has_solitaire |= out[i] == &sb_stat_new_age_solitaire;
    }
    assert_true(has_solitaire);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(solitaire_rule_all_small_decks),
        cmocka_unit_test(solitaire_rule_random_decks),
        cmocka_unit_test(solitaire_binomial_p),
        cmocka_unit_test(solitaire_too_few_games_cannot_fail),
        cmocka_unit_test(solitaire_large_n),
        cmocka_unit_test(solitaire_detectable_and_effect),
        cmocka_unit_test(solitaire_seven_riffles),
        cmocka_unit_test(solitaire_fair_passes),
        cmocka_unit_test(poker7_null_published),
        cmocka_unit_test(poker7_evaluator_against_slow),
        cmocka_unit_test(poker7_catches_few_riffles),
        cmocka_unit_test(poker7_fair_passes),
        cmocka_unit_test(poker7_pooling_and_shape),
        cmocka_unit_test(games_in_default_battery),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
