/*
 * test_algorithms.c - the registry sweep and each algorithm's known exact
 * behaviour on tiny decks.
 *
 * The exact checks walk every path of draws with a small replaying source
 * written here (independent of the project's exact mode): each draw is a
 * branch point, and the paths are visited like an odometer.
 */
#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "algorithms/registry.h"
#include "shufflebias/report.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/enumerate.h"
#include "engine/runner.h"
#include "stats/battery.h"
#include "stats/exact.h"
#include "stats/registry.h"

/* ---- a replaying source: every sequence of draws, one per run ---------- */

#define MAX_DEPTH 64

typedef struct replay {
    size_t depth, len;              /* draws made in this run, path length */
    uint64_t choice[MAX_DEPTH];     /* the branch taken at each draw */
    uint64_t radix[MAX_DEPTH];      /* the number of branches there */
    double weight[MAX_DEPTH];       /* probability of the branch taken */
    uint64_t w[MAX_DEPTH][64];      /* weighted(): the weights seen */
} replay;

static uint64_t take(sb_src *src, uint64_t radix, const uint64_t *w)
{
    replay *r = src->impl;
    assert_true(r->depth < MAX_DEPTH);
    if (r->depth == r->len) {       /* a new draw: first branch */
        r->choice[r->len] = 0;
        r->radix[r->len] = radix;
        r->len++;
    }
    size_t d = r->depth++;
    assert_int_equal(r->radix[d], radix);   /* same path, same draw */
    uint64_t total = 0;
    for (uint64_t i = 0; w && i < radix; i++) {
        r->w[d][i] = w[i];
        total += w[i];
    }
    r->weight[d] = w ? (double)w[r->choice[d]] / (double)total
                     : 1.0 / (double)radix;
    return r->choice[d];
}

static uint64_t r_below(sb_src *s, uint64_t n) { return take(s, n, NULL); }
static uint64_t r_bits(sb_src *s, unsigned k) { return take(s, (uint64_t)1 << k, NULL); }
static size_t r_weighted(sb_src *s, const uint64_t *w, size_t m)
{
    assert_true(m <= 64);
    return (size_t)take(s, m, w);
}
static double r_unit(sb_src *s) { s->error = SB_ENOTSUP; return 0; }
/* It walks branches as exact mode does: rand() % k as its k residues. */
static const sb_src_ops replay_ops = { r_below, r_bits, r_weighted, r_unit,
                                       NULL, sb_rand_mod_weighted };

/* Advance to the next path; 0 when every path has been walked. */
static int next_path(replay *r)
{
    while (r->len > 0 && r->choice[r->len - 1] + 1 == r->radix[r->len - 1])
        r->len--;
    if (r->len == 0)
        return 0;
    r->choice[r->len - 1]++;
    return 1;
}

/* Lexicographic rank of a permutation of n <= 8 cards. */
static size_t rank(const sb_card *d, size_t n)
{
    size_t r = 0;
    for (size_t i = 0; i < n; i++) {
        size_t smaller = 0;
        for (size_t j = i + 1; j < n; j++)
            smaller += d[j] < d[i];
        r = r * (n - i) + smaller;
    }
    return r;
}

/* Walk every path of 't' at n cards with 'params' ("k=v" or NULL): the
   number of paths, and prob[rank] summed over paths ending in each
   permutation (n <= 5). */
static size_t walk(const sb_shuffle_type *t, size_t n, const char *param,
                   double *prob, size_t *count)
{
    sb_shuffle_args a = { .n = n };
    sb_shuffle_defaults(t, &a);
    if (param)
        assert_int_equal(sb_shuffle_set_param(t, &a, param), SB_OK);
    void *st = NULL;
    if (t->init)
        assert_int_equal(t->init(&st, &a), SB_OK);
    replay r = { 0 };
    sb_src src = { .ops = &replay_ops, .impl = &r };
    sb_card deck[8];
    size_t paths = 0;
    do {
        r.depth = 0;
        if (t->reset)
            t->reset(st, &a);
        t->run(st, &a, &src, deck);
        assert_int_equal(src.error, SB_OK);
        assert_int_equal(r.depth, r.len);   /* the path was followed whole */
        double p = 1;
        for (size_t d = 0; d < r.len; d++)
            p *= r.weight[d];
        prob[rank(deck, n)] += p;
        count[rank(deck, n)]++;
        paths++;
    } while (next_path(&r));
    if (t->free)
        t->free(st);
    return paths;
}

/* The blog post "Shuffling along" and Atwood's "The Danger of Naivete"
   (Coding Horror, 2007): 27 paths give ABC 4, ACB 5, BAC 5, BCA 5,
   CAB 4, CBA 4. */
static void naive_swap_three_cards(void **state)
{
    (void)state;
    double prob[6] = { 0 };
    size_t count[6] = { 0 };
    assert_int_equal(walk(&sb_shuffle_naive_swap, 3, NULL, prob, count), 27);
    const size_t want[6] = { 4, 5, 5, 5, 4, 4 };
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(count[i], want[i]);
        assert_close(prob[i], want[i] / 27.0, 1e-12);
    }
}

/* Fisher-Yates in each of its forms: n! paths, each ending in a different
   permutation, so each of the n! orders has probability exactly 1/n!. */
static void selection_shuffles_one_path_per_order(void **state)
{
    (void)state;
    const sb_shuffle_type *fair[] = {
        &sb_shuffle_fisher_yates, &sb_shuffle_fisher_yates_forward,
        &sb_shuffle_draw_and_fill, &sb_shuffle_strike_out,
        &sb_shuffle_shift_select,
    };
    for (size_t f = 0; f < sizeof fair / sizeof fair[0]; f++)
        for (size_t n = 1; n <= 5; n++) {
            double prob[120] = { 0 };
            size_t count[120] = { 0 }, fact = 1;
            for (size_t k = 2; k <= n; k++)
                fact *= k;
            assert_int_equal(walk(fair[f], n, NULL, prob, count), fact);
            for (size_t i = 0; i < fact; i++)
                assert_int_equal(count[i], 1);
        }
}

/* The three selection shuffles that draw the next card among those left
   differ in where they put it.  For the draws that are all 0 at n = 3:
   strike-out writes A B C (the first card standing each time);
   draw-and-fill A C B (A, then C fills A's hole and is first);
   shift-select takes A out and puts it last (B C A), then takes B and puts
   it before A (C B A). */
static void selection_shuffles_place_cards_as_described(void **state)
{
    (void)state;
    const sb_shuffle_type *t[] = { &sb_shuffle_strike_out,
                                   &sb_shuffle_draw_and_fill,
                                   &sb_shuffle_shift_select };
    const sb_card want[3][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 2, 1, 0 } };
    for (size_t i = 0; i < 3; i++) {
        sb_shuffle_args a = { .n = 3 };
        void *st = NULL;
        if (t[i]->init)
            assert_int_equal(t[i]->init(&st, &a), SB_OK);
        replay r = { 0 };          /* the first path: every draw 0 */
        sb_src src = { .ops = &replay_ops, .impl = &r };
        sb_card deck[3];
        t[i]->run(st, &a, &src, deck);
        assert_memory_equal(deck, want[i], sizeof deck);
        if (t[i]->free)
            t[i]->free(st);
    }
}

/* Walk every path of 't' at 'a', making 'per_path' samples along each
   (the state reset once per path, as exact mode does), and add each path's
   probability to prob[key], where key reads the values of the samples as
   one number in base n.  Returns the number of paths. */
static size_t walk_samples(const sb_shuffle_type *t, const sb_shuffle_args *a,
                           size_t per_path, double *prob, size_t keys)
{
    const size_t len = sb_shuffle_sample_len(t, a);
    void *st = NULL;
    if (t->init)
        assert_int_equal(t->init(&st, a), SB_OK);
    replay r = { 0 };
    sb_src src = { .ops = &replay_ops, .impl = &r };
    sb_card out[16];
    assert_true(len * per_path <= 16);
    size_t paths = 0;
    do {
        r.depth = 0;
        if (t->reset)
            t->reset(st, a);
        for (size_t s = 0; s < per_path; s++)
            assert_int_equal(t->run(st, a, &src, out + s * len), SB_OK);
        assert_int_equal(r.depth, r.len);
        double p = 1;
        for (size_t d = 0; d < r.len; d++)
            p *= r.weight[d];
        size_t key = 0;
        for (size_t j = len * per_path; j-- > 0;)
            key = key * a->n + out[j];
        assert_true(key < keys);
        prob[key] += p;
        paths++;
    } while (next_path(&r));
    if (t->free)
        t->free(st);
    return paths;
}

/* partial-deal keeps its deck between hands.  Two hands in a row from the
   kept deck, n = 4, k = 2: each of the 12 x 12 pairs of ordered hands has
   probability exactly 1/144 - each hand uniform, and the second
   independent of the first, as the file argues. */
static void partial_deal_hands_are_uniform_and_independent(void **state)
{
    (void)state;
    sb_shuffle_args a = { .n = 4 };
    sb_shuffle_defaults(&sb_shuffle_partial_deal, &a);
    assert_int_equal(sb_shuffle_set_param(&sb_shuffle_partial_deal, &a, "k=2"),
                     SB_OK);
    enum { KEYS = 256 };            /* 4^4 values of two hands of two */
    double prob[KEYS] = { 0 };
    assert_int_equal(walk_samples(&sb_shuffle_partial_deal, &a, 2, prob, KEYS),
                     144);
    size_t reached = 0;
    for (size_t key = 0; key < KEYS; key++) {
        const size_t c[4] = { key % 4, key / 4 % 4, key / 16 % 4, key / 64 };
        const int valid = c[0] != c[1] && c[2] != c[3];
        if (valid) {
            assert_close(prob[key], 1.0 / 144, 1e-12);
            reached++;
        } else {
            assert_true(prob[key] == 0);
        }
    }
    assert_int_equal(reached, 144);
}

/* The deals at 2 hands of 2 cards, key = hand of card 0 + 4 x hand of
   card 1 + 16 x ... (base n = 4); the 6 valid deals each have two cards
   in each hand. */
static void deal_2x2(const sb_shuffle_type *t, double prob[256])
{
    sb_shuffle_args a = { .n = 4 };
    sb_shuffle_defaults(t, &a);
    assert_int_equal(sb_shuffle_set_param(t, &a, "hands=2"), SB_OK);
    assert_int_equal(sb_shuffle_set_param(t, &a, "hand-size=2"), SB_OK);
    char why[256];
    assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_OK);
    walk_samples(t, &a, 1, prob, 256);
}

static size_t deal_key(const char *hands)   /* "AABB": card c in hand */
{
    size_t key = 0;
    for (size_t c = 4; c-- > 0;)
        key = key * 4 + (size_t)(hands[c] - 'A');
    return key;
}

/* deal-random-hand, derived by hand (a deal written as the hand of cards
   0, 1, 2, 3): cards 0 and 1 each go to A or B with probability 1/2.  Both
   to A (1/4): A is full, so 2 and 3 go to B: AABB.  Both to B (1/4): BBAA.
   A then B (1/4): card 2 goes to A or B (1/2 each) and card 3 to the hand
   still open: ABAB or ABBA, 1/8 each; B then A: BAAB or BABA, 1/8 each.
   The fair deals give 1/6 to all six. */
static void deals_two_hands_of_two(void **state)
{
    (void)state;
    const char *deals[6] = { "AABB", "ABAB", "ABBA", "BAAB", "BABA", "BBAA" };
    const double flawed[6] = { 0.25, 0.125, 0.125, 0.125, 0.125, 0.25 };
    double prob[256] = { 0 };
    deal_2x2(&sb_shuffle_deal_random_hand, prob);
    for (size_t i = 0; i < 6; i++)
        assert_close(prob[deal_key(deals[i])], flawed[i], 1e-15);
    const sb_shuffle_type *fair[] = {
        &sb_shuffle_deal_fisher_yates, &sb_shuffle_deal_bitmask,
        &sb_shuffle_deal_weighted_hand,
    };
    for (size_t f = 0; f < 3; f++) {
        double p[256] = { 0 };
        deal_2x2(fair[f], p);
        double total = 0;
        for (size_t i = 0; i < 6; i++) {
            assert_close(p[deal_key(deals[i])], 1.0 / 6, 1e-12);
            total += p[deal_key(deals[i])];
        }
        assert_close(total, 1.0, 1e-12);
    }
}

/* Three hands of two (n = 6): 6! / (2!)^3 = 90 deals, each 1/90 for the
   fair deals; deal-random-hand gives AABBCC - cards dealt in order, each
   hand filled before the next is touched - (1/3)(1/3)(1/2)(1/2) = 1/36:
   cards 0 and 1 both to A (1/3 x 1/3), then 2 and 3 both to B among B and
   C (1/2 x 1/2), then C. */
static void deals_three_hands_of_two(void **state)
{
    (void)state;
    const sb_shuffle_type *all[] = {
        &sb_shuffle_deal_fisher_yates, &sb_shuffle_deal_bitmask,
        &sb_shuffle_deal_weighted_hand, &sb_shuffle_deal_random_hand,
    };
    enum { KEYS = 46656 };          /* 6^6 */
    double *prob = calloc(KEYS, sizeof *prob);
    for (size_t f = 0; f < 4; f++) {
        memset(prob, 0, KEYS * sizeof *prob);
        sb_shuffle_args a = { .n = 6 };
        sb_shuffle_defaults(all[f], &a);
        assert_int_equal(sb_shuffle_set_param(all[f], &a, "hands=3"), SB_OK);
        assert_int_equal(sb_shuffle_set_param(all[f], &a, "hand-size=2"),
                         SB_OK);
        walk_samples(all[f], &a, 1, prob, KEYS);
        size_t deals = 0;
        double total = 0;
        for (size_t key = 0; key < KEYS; key++) {
            size_t held[6] = { 0 }, k = key;
            for (size_t c = 0; c < 6; c++, k /= 6)
                held[k % 6]++;
            if (held[0] != 2 || held[1] != 2 || held[2] != 2) {
                assert_true(prob[key] == 0);
                continue;
            }
            deals++;
            total += prob[key];
            if (all[f] != &sb_shuffle_deal_random_hand)
                assert_close(prob[key], 1.0 / 90, 1e-12);
        }
        assert_int_equal(deals, 90);
        assert_close(total, 1.0, 1e-12);
        if (all[f] == &sb_shuffle_deal_random_hand) {
            /* AABBCC: hands 0 0 1 1 2 2 for cards 0..5. */
            const size_t aabbcc = 0 + 0 * 6 + 1 * 36 + 1 * 216 + 2 * 1296
                                + 2 * 7776;
            assert_close(prob[aabbcc], 1.0 / 36, 1e-12);
        }
    }
    free(prob);
}

/* hands x hand-size must be n; fit makes the defaults suit a deck. */
static void deal_and_draw_checks(void **state)
{
    (void)state;
    char why[256];
    const sb_shuffle_type *t = &sb_shuffle_deal_random_hand;
    sb_shuffle_args a = { .n = 52 };
    sb_shuffle_defaults(t, &a);
    assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_OK);
    a.n = 50;
    assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_EINVAL);
    assert_non_null(strstr(why, "'deal-random-hand' deals 4 hands of 13"));
    assert_non_null(strstr(why, "--n 52"));
    const size_t sizes[] = { 1, 3, 4, 6, 50 };
    const long hands[] = { 1, 3, 2, 2, 2 }, size[] = { 1, 1, 2, 3, 25 };
    for (size_t i = 0; i < 5; i++) {
        a = (sb_shuffle_args){ .n = sizes[i] };
        assert_int_equal(sb_shuffle_fitted(t, &a, why, sizeof why), SB_OK);
        assert_int_equal(a.param[0], hands[i]);
        assert_int_equal(a.param[1], size[i]);
        assert_int_equal(t->hands(&a), (unsigned)hands[i]);
    }
    t = &sb_shuffle_partial_deal;
    a = (sb_shuffle_args){ .n = 5 };
    sb_shuffle_defaults(t, &a);
    assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_EINVAL);
    assert_non_null(strstr(why, "k = 7"));
    assert_int_equal(sb_shuffle_fitted(t, &a, why, sizeof why), SB_OK);
    assert_int_equal(a.param[0], 4);
    assert_int_equal(sb_shuffle_sample_len(t, &a), 4);
}

/* gsl-shuffle on --rng mt19937 deals exactly what a program calling
   gsl_ran_shuffle on mt19937 with the same seed deals; on a generator
   whose range is smaller than the deck it refuses instead of letting
   gsl_rng_uniform_int fail silently. */
static void gsl_shuffle_is_gsl_ran_shuffle(void **state)
{
    (void)state;
    enum { N = 52, K = 50 };
    sb_rng *rng;
    sb_src src;
    assert_int_equal(sb_rng_open(&rng, "mt19937", 11), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    unsigned bits;
    gsl_rng *ref = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(ref, (unsigned long)sb_rng_seed_used(rng, &bits));
    sb_shuffle_args a = { .n = N };
    for (size_t k = 0; k < K; k++) {
        sb_card got[N], want[N];
        assert_int_equal(sb_shuffle_gsl_shuffle.run(NULL, &a, &src, got),
                         SB_OK);
        for (size_t j = 0; j < N; j++)
            want[j] = (sb_card)j;
        gsl_ran_shuffle(ref, want, N, sizeof want[0]);
        assert_memory_equal(got, want, sizeof got);
    }
    gsl_rng_free(ref);
    sb_rng_close(rng);

    /* GSL's 'uni' draws 0 .. 32766: gsl_rng_uniform_int(r, m) serves
       m <= 32766, so a 32766-card deck is dealt and a 32767-card one is
       refused. */
    assert_int_equal(sb_rng_open(&rng, "uni", 11), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    sb_card *big = malloc(32767 * sizeof *big);
    a.n = 32766;
    assert_int_equal(sb_shuffle_gsl_shuffle.run(NULL, &a, &src, big), SB_OK);
    a.n = 32767;
    assert_int_equal(sb_shuffle_gsl_shuffle.run(NULL, &a, &src, big),
                     SB_ENOTSUP);
    free(big);
    sb_rng_close(rng);
}

/* Sattolo (IPL 1986): exactly the (n-1)! cyclic permutations, once each. */
static void sattolo_only_cycles(void **state)
{
    (void)state;
    double prob[120] = { 0 };
    size_t count[120] = { 0 };
    assert_int_equal(walk(&sb_shuffle_sattolo, 5, NULL, prob, count), 24);
    size_t reached = 0;
    for (size_t i = 0; i < 120; i++)
        reached += count[i];
    assert_int_equal(reached, 24);
    for (size_t i = 0; i < 120; i++)
        assert_true(count[i] <= 1);
    /* n = 3: BCA (rank 3) and CAB (rank 4) only. */
    double p3[6] = { 0 };
    size_t c3[6] = { 0 };
    walk(&sb_shuffle_sattolo, 3, NULL, p3, c3);
    assert_int_equal(c3[3], 1);
    assert_int_equal(c3[4], 1);
    assert_int_equal(c3[0] + c3[1] + c3[2] + c3[5], 0);
}

/* Stable sort on 1-bit keys keeps ABC whenever the keys are sorted
   (000, 001, 011, 111): probability exactly 1/2; CBA never. */
static void sort_random_keys_one_bit(void **state)
{
    (void)state;
    double prob[6] = { 0 };
    size_t count[6] = { 0 };
    assert_int_equal(walk(&sb_shuffle_sort_random_keys, 3, "key-bits=1",
                          prob, count), 8);
    assert_close(prob[0], 0.5, 1e-15);
    for (size_t i = 1; i < 5; i++)
        assert_close(prob[i], 0.125, 1e-15);
    assert_true(prob[5] == 0);
}

/* rand() % m with 15-bit values, walked with its residue weights.  The
   six exact probabilities were computed independently by brute force over
   all 32768^2 pairs of rand() values (5461/32768 for ABC and BAC,
   10923/65536 for the other four); each is exact in a double. */
static void fisher_yates_mod_three_cards(void **state)
{
    (void)state;
    double prob[6] = { 0 };
    size_t count[6] = { 0 };
    assert_int_equal(walk(&sb_shuffle_fisher_yates_mod, 3, NULL, prob, count),
                     6);
    const double want[6] = { 5461 / 32768.0, 10923 / 65536.0, 5461 / 32768.0,
                             10923 / 65536.0, 10923 / 65536.0,
                             10923 / 65536.0 };
    for (size_t i = 0; i < 6; i++)
        assert_true(prob[i] == want[i]);
}

/* Sampled on the fast generator, fisher-yates-mod is the C idiom itself:
   a reference written here from its definition - j = rand() % (i + 1),
   rand() the high 15 bits of the next word, swap - on a copy of the same
   source gives the same decks, at several sizes.  (Exact mode walks the
   same law as residue weights: fisher_yates_mod_three_cards above, and
   test_rng.c checks the two laws are one, value by value.) */
static void fisher_yates_mod_samples_the_idiom(void **state)
{
    (void)state;
    const size_t sizes[] = { 2, 3, 52, 1000, 32768 };
    static sb_card got[32768], want[32768];
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        const size_t n = sizes[z];
        sb_shuffle_args a = { .n = n };
        sb_src src;
        sb_src_fast(&src, 17, z);
        uint64_t s[4];
        memcpy(s, src.s, sizeof s);
        for (int deck = 0; deck < 20; deck++) {
            assert_int_equal(sb_shuffle_fisher_yates_mod.run(NULL, &a, &src,
                                                             got), SB_OK);
            for (size_t j = 0; j < n; j++)
                want[j] = (sb_card)j;
            for (size_t i = n - 1; i >= 1; i--) {
                const size_t j = (size_t)((sb_xoshiro_next(s) >> 49)
                                          % (i + 1));
                const sb_card t = want[i];
                want[i] = want[j];
                want[j] = t;
            }
            assert_memory_equal(got, want, n * sizeof *got);
        }
        assert_memory_equal(src.s, s, sizeof s);
    }
}

/* ---- overhand ----------------------------------------------------------- */

/* The exact law of 3 cards (deck ABC), derived by hand.  One pass with cut
   probability p: no cut ((1-p)^2) leaves ABC; a cut after A alone
   (p (1-p)) makes the packets A | BC, and BC dropped on A gives BCA; a
   cut after B alone gives CAB; both cuts (p^2) give CBA.  So at p = 1/4
   (cut-bits 2): e = ABC 9/16, r = BCA 3/16, r^2 = CAB 3/16, t = CBA 1/16;
   at p = 1/2 (cut-bits 1) the four at 1/4 each.  Two passes are two
   independent picks among e, r, r^2, t: ABC comes from (e, e), (r, r^2),
   (r^2, r) and (t, t), BCA from (e, r), (r, e), (r^2, r^2), CAB likewise,
   CBA from (e, t) and (t, e), and the four pairs of t with r or r^2 give
   the transpositions ACB and BAC, two pairs each.  At p = 1/4 (weights
   9, 3, 3, 1 out of 16): ABC (81 + 9 + 9 + 1)/256 = 25/64, BCA and CAB
   (27 + 27 + 9)/256 = 63/256, CBA 18/256 = 9/128, ACB and BAC 6/256 =
   3/128.  At p = 1/2: ABC 4/16, BCA and CAB 3/16, CBA 2/16, ACB and BAC
   2/16.  A brute force written apart from the code (a Python script that
   moved the packets from hand to hand for every draw of the bits) gave
   the same fractions.  Every path of a pass has the same weight, so the
   path counts are the numerators over 2^(2b) per pass. */
typedef struct overhand_case {
    const char *params[3];     /* NULL-ended */
    uint64_t paths;
    const char *want[6];       /* ABC ACB BAC BCA CAB CBA; "0": never */
} overhand_case;

static const overhand_case overhand_cases[] = {
    { { "passes=1", NULL }, 16,
      { "9/16", "0", "0", "3/16", "3/16", "1/16" } },
    { { "passes=2", NULL }, 256,
      { "25/64", "3/128", "3/128", "63/256", "63/256", "9/128" } },
    { { "passes=1", "cut-bits=1", NULL }, 4,
      { "1/4", "0", "0", "1/4", "1/4", "1/4" } },
    { { "passes=2", "cut-bits=1", NULL }, 16,
      { "1/4", "1/8", "1/8", "3/16", "3/16", "1/8" } },
};

/* p/q as a double (exact for these dyadic fractions). */
static double parse_fraction(const char *f)
{
    const char *slash = strchr(f, '/');
    return slash ? strtod(f, NULL) / strtod(slash + 1, NULL)
                 : strtod(f, NULL);
}

/* Each case through the path walk of exact mode (sb_enumerate, every
   path of draws) and through the replaying walk written here: the same
   fractions, the same path counts. */
static void overhand_three_cards(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_overhand;
    for (size_t c = 0; c < sizeof overhand_cases / sizeof *overhand_cases;
         c++) {
        const overhand_case *oc = &overhand_cases[c];
        sb_enum_config cfg = {
            .alg = t,
            .args = { .n = 3 },
            .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        };
        sb_shuffle_defaults(t, &cfg.args);
        for (size_t i = 0; oc->params[i]; i++)
            assert_int_equal(sb_shuffle_set_param(t, &cfg.args,
                                                  oc->params[i]), SB_OK);
        assert_int_equal(t->exact_paths(&cfg.args), oc->paths);
        sb_exact_report rep;
        char err[256];
        const int rc = sb_enumerate(&cfg, &rep, err, sizeof err);
        if (rc != SB_OK)
            print_error("%s\n", err);
        assert_int_equal(rc, SB_OK);
        assert_int_equal(rep.paths, oc->paths);
        assert_string_equal(rep.unexplored, "0/1");
        const char *got[6] = { "0", "0", "0", "0", "0", "0" };
        for (size_t i = 0; i < rep.n_outcomes; i++)
            got[rank(rep.outcomes[i].sample, 3)] = rep.outcomes[i].fraction;
        for (size_t i = 0; i < 6; i++)
            assert_string_equal(got[i], oc->want[i]);

        /* The replaying walk, with its own arithmetic. */
        void *st = NULL;
        assert_int_equal(t->init(&st, &cfg.args), SB_OK);
        replay r = { 0 };
        sb_src src = { .ops = &replay_ops, .impl = &r };
        double prob[6] = { 0 };
        size_t count[6] = { 0 }, paths = 0;
        sb_card deck[3];
        do {
            r.depth = 0;
            assert_int_equal(t->run(st, &cfg.args, &src, deck), SB_OK);
            assert_int_equal(r.depth, r.len);
            double p = 1;
            for (size_t d = 0; d < r.len; d++)
                p *= r.weight[d];
            prob[rank(deck, 3)] += p;
            count[rank(deck, 3)]++;
            paths++;
        } while (next_path(&r));
        t->free(st);
        assert_int_equal(paths, oc->paths);
        for (size_t i = 0; i < 6; i++) {
            const double want = parse_fraction(oc->want[i]);
            assert_true(prob[i] == want);
            assert_true((double)count[i] == want * (double)oc->paths);
        }
        sb_exact_report_release(&rep);
    }
}

/* A source that serves bits from the fast generator and records every
   bits(k) draw, so that a test can make the same shuffle by hand. */
#define RECORD_MAX 256
typedef struct recorder {
    sb_src fast;
    size_t len;
    unsigned k[RECORD_MAX];
    uint64_t x[RECORD_MAX];
} recorder;

static uint64_t rec_bits(sb_src *s, unsigned k)
{
    recorder *r = s->impl;
    assert_true(r->len < RECORD_MAX);
    r->k[r->len] = k;
    return r->x[r->len++] = sb_bits(&r->fast, k);
}
static uint64_t rec_below(sb_src *s, uint64_t n)
{
    (void)s;
    (void)n;
    fail();
    return 0;
}
static size_t rec_weighted(sb_src *s, const uint64_t *w, size_t m)
{
    (void)s; (void)w; (void)m;
    fail();
    return 0;
}
static double rec_unit(sb_src *s) { (void)s; fail(); return 0; }
static const sb_src_ops recorder_ops = { rec_below, rec_bits, rec_weighted,
                                         rec_unit, NULL, NULL };

/* overhand moves the packets as a person does, at sizes that need one
   word of bits per string (52 cards: 51 bits; 65 cards: 64 bits) and two
   (100 cards: 64 + 35): the draws are b strings of n - 1 bits per pass in
   words of at most 64, and replayed here - a gap a cut when its bit is 1
   in all b strings, packets lifted off the top of one hand and each laid
   on top of the other hand's pile - they make the deck run() wrote. */
static void overhand_moves_packets_as_a_person_does(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_overhand;
    const size_t sizes[] = { 2, 52, 65, 100 };
    static recorder rec;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (long b = 1; b <= 3; b++) {
            const size_t n = sizes[z], gaps = n - 1;
            const size_t words = (gaps + 63) / 64;
            sb_shuffle_args a = { .n = n };
            sb_shuffle_defaults(t, &a);
            a.param[0] = 3;                   /* passes */
            a.param[1] = b;                   /* cut-bits */
            void *st = NULL;
            assert_int_equal(t->init(&st, &a), SB_OK);
            memset(&rec, 0, sizeof rec);
            sb_src_fast(&rec.fast, 5 + z, (uint64_t)b);
            sb_src src = { .ops = &recorder_ops, .impl = &rec };
            sb_card got[100];
            assert_int_equal(t->run(st, &a, &src, got), SB_OK);
            t->free(st);
            assert_int_equal(rec.len, 3 * (size_t)b * words);

            sb_card hand[100], pile[100];
            for (size_t j = 0; j < n; j++)
                pile[j] = (sb_card)j;
            size_t d = 0;
            for (int pass = 0; pass < 3; pass++) {
                int cut[99];
                for (size_t g = 0; g < gaps; g++)
                    cut[g] = 1;
                for (long s = 0; s < b; s++)
                    for (size_t w = 0; w < words; w++, d++) {
                        const size_t k = w + 1 < words ? 64 : gaps - 64 * w;
                        assert_int_equal(rec.k[d], k);
                        for (size_t i = 0; i < k; i++)
                            if (!(rec.x[d] >> i & 1))
                                cut[64 * w + i] = 0;
                    }
                /* The deck goes into one hand; the pile starts empty. */
                memcpy(hand, pile, n * sizeof *hand);
                size_t top = 0, piled = 0;
                while (top < n) {
                    size_t len = 1;
                    while (top + len < n && !cut[top + len - 1])
                        len++;
                    /* The packet hand[top .. top+len) goes on the pile. */
                    memmove(pile + len, pile, piled * sizeof *pile);
                    memcpy(pile, hand + top, len * sizeof *pile);
                    piled += len;
                    top += len;
                }
            }
            assert_memory_equal(got, pile, n * sizeof *got);
        }
}

/* Its declaration as Markov in its deck: one step per pass, and run()
   draws exactly what the steps draw from the unshuffled deck, in the same
   order (the same deck, and the source left in the same state). */
static void overhand_runs_its_markov_steps(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_overhand;
    const sb_markov *m = sb_markov_builtin(t);
    assert_ptr_equal(m, &sb_markov_overhand);
    const size_t sizes[] = { 1, 2, 3, 52, 100 };
    const char *settings[][2] = { { NULL, NULL },
                                  { "passes=7", "cut-bits=5" },
                                  { "passes=1", "cut-bits=1" } };
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (size_t k = 0; k < sizeof settings / sizeof settings[0]; k++) {
            sb_shuffle_args a = { .n = sizes[z] };
            sb_shuffle_defaults(t, &a);
            for (size_t i = 0; i < 2 && settings[k][i]; i++)
                assert_int_equal(sb_shuffle_set_param(t, &a, settings[k][i]),
                                 SB_OK);
            assert_int_equal(m->steps(&a), (size_t)a.param[0]);
            void *st = NULL;
            assert_int_equal(t->init(&st, &a), SB_OK);
            sb_src x, y;
            sb_src_fast(&x, 31 + z, k);
            y = x;
            for (int deck = 0; deck < 5; deck++) {
                sb_card ran[100], stepped[100];
                assert_int_equal(t->run(st, &a, &x, ran), SB_OK);
                for (size_t j = 0; j < a.n; j++)
                    stepped[j] = (sb_card)j;
                for (size_t s = 0; s < m->steps(&a); s++)
                    assert_int_equal(m->step(st, &a, s, &y, stepped), SB_OK);
                assert_memory_equal(ran, stepped, a.n * sizeof *ran);
                assert_memory_equal(x.s, y.s, sizeof x.s);
            }
            t->free(st);
        }
}

/* Ten overhand shuffles of 52 cards (its defaults), sampled 10,000 times
   at seed 1, fail the default battery: successions (neighbours kept
   together), position and inversions each have p below 1e-300, where a
   fail needs a Holm-adjusted p below 1e-6.  The seed is fixed, so the
   verdict never changes; over other seeds a miss would need all three of
   these statistics to move from p < 1e-300 to above 1e-6. */
static void overhand_fails_the_battery_at_52(void **state)
{
    (void)state;
    sb_run_config cfg = { .alg = &sb_shuffle_overhand, .args = { .n = 52 },
                          .samples = 10000, .seed = 1,
                          .rng = SB_RNG_DEFAULT };
    sb_shuffle_defaults(cfg.alg, &cfg.args);
    assert_int_equal(cfg.args.param[0], 10);
    assert_int_equal(cfg.args.param[1], 2);
    sb_shape shape;
    sb_shuffle_shape(cfg.alg, &cfg.args, &shape);
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
    cfg.n_stats = sb_stat_defaults(&shape, stats, SB_STAT_DEFAULTS_MAX);
    cfg.stats = stats;
    sb_report rep;
    char err[256] = "";
    const int rc = sb_run(&cfg, &rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("sb_run: %s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    size_t seen = 0;
    for (size_t i = 0; i < rep.n_results; i++) {
        const sb_result *r = &rep.results[i];
        if (strcmp(r->name, "successions") == 0
            || strcmp(r->name, "position") == 0
            || strcmp(r->name, "inversions") == 0) {
            assert_int_equal(r->verdict, SB_VERDICT_FAIL);
            assert_true(r->p_value < 1e-300);
            seen++;
        }
    }
    assert_int_equal(seen, 3);
    sb_report_release(&rep);
}

/* The stream version of a run: 3 where its samples changed with version
   3 (fisher-yates-mod on any source; a plug-in, which may draw
   sb_rand_mod, on any source but the built-in generator), 2 for every
   other run, whose state files of version 2 go on being read. */
static void stream_version_per_run(void **state)
{
    (void)state;
    /* Version 4: the sources that became random access (rand15, the
       GSL linear congruential ones, reseed32:*), whatever the shuffle. */
    const char *rngs[] = { SB_RNG_DEFAULT, "mt19937", "rand15",
                           "reseed32:" SB_RNG_DEFAULT, "minstd", "lcg32",
                           "reseed32:mt19937" };
    for (size_t r = 0; r < sizeof rngs / sizeof rngs[0]; r++) {
        const int jumps = r >= 2;
        for (const sb_shuffle_type *const *t = sb_shuffle_types; *t; t++)
            assert_int_equal(sb_stream_version((*t)->name, 0, rngs[r]),
                             jumps ? 4
                             : *t == &sb_shuffle_fisher_yates_mod ? 3 : 2);
        assert_int_equal(sb_stream_version("my-shuffle", 1, rngs[r]),
                         jumps ? 4 : r == 0 ? 2 : 3);
        assert_int_equal(sb_stream_version("fisher-yates", 1, rngs[r]),
                         jumps ? 4 : r == 0 ? 2 : 3);
    }
    assert_int_equal(sb_stream_version("my-shuffle", 1, NULL), 2);
    assert_int_equal(sb_stream_version(NULL, 0, NULL), 2);
    assert_true(SB_STREAM_VERSION == 4);
}

/* ---- the registry sweep ------------------------------------------------- */

static int is_kebab(const char *s)
{
    if (!*s || *s == '-')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')
              || *s == '-'))
            return 0;
    return 1;
}

static void registry_is_well_formed(void **state)
{
    (void)state;
    size_t count = 0;
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++, count++) {
        const sb_shuffle_type *t = *p;
        assert_true(is_kebab(t->name));
        assert_true(t->summary && t->summary[0]);
        assert_true(t->source && t->source[0]);
        assert_true(t->bias && t->bias[0]);
        assert_true(t->n_min >= 1 && t->n_min <= t->n_max);
        assert_true(t->n_max <= SB_DECK_MAX);
        assert_true(t->n_params <= SB_PARAMS_MAX);
        assert_ptr_equal(sb_shuffle_find(t->name), t);
        for (size_t i = 0; i < t->n_params; i++) {
            assert_true(is_kebab(t->params[i].name));
            assert_true(t->params[i].def >= t->params[i].min);
            assert_true(t->params[i].def <= t->params[i].max);
        }
        for (const sb_shuffle_type *const *q = p + 1; *q; q++)
            assert_string_not_equal(t->name, (*q)->name);
    }
    assert_true(count >= 5);
    assert_null(sb_shuffle_find("fisher-yate"));
}

/* Make 'k' samples of 't' at 'a' with 'seed' into out (k * len values). */
static void sample_args(const sb_shuffle_type *t, const sb_shuffle_args *a,
                        uint64_t seed, size_t k, sb_card *out)
{
    const size_t len = sb_shuffle_sample_len(t, a);
    void *st = NULL;
    if (t->init)
        assert_int_equal(t->init(&st, a), SB_OK);
    if (t->reset)
        t->reset(st, a);
    sb_src src;
    sb_src_fast(&src, seed, 0);
    for (size_t i = 0; i < k; i++)
        assert_int_equal(t->run(st, a, &src, out + i * len), SB_OK);
    if (t->free)
        t->free(st);
}

/* The same at n with the defaults. */
static void sample(const sb_shuffle_type *t, size_t n, uint64_t seed,
                   size_t k, sb_card *out)
{
    sb_shuffle_args a = { .n = n };
    sb_shuffle_defaults(t, &a);
    sample_args(t, &a, seed, k, out);
}

/* One sample is valid for its kind: a permutation of 0..n-1, k distinct
   cards of n, or a deal with every hand holding exactly its size. */
static void assert_valid(const sb_shuffle_type *t, const sb_shuffle_args *a,
                         const sb_card *s, size_t *seen)
{
    const size_t n = a->n, len = sb_shuffle_sample_len(t, a);
    memset(seen, 0, n * sizeof *seen);
    if (t->kind == SB_KIND_DEAL) {
        const size_t hands = t->hands(a);
        for (size_t c = 0; c < n; c++) {
            assert_true(s[c] < hands);
            seen[s[c]]++;
        }
        for (size_t h = 0; h < hands; h++)
            assert_int_equal(seen[h], n / hands);
        return;
    }
    assert_int_equal(len, t->kind == SB_KIND_PERMUTATION ? n : len);
    for (size_t j = 0; j < len; j++) {
        assert_true(s[j] < n);
        assert_int_equal(seen[s[j]]++, 0);
    }
}

/* Every algorithm, at its defaults fitted to each deck size: valid samples
   of its kind, the same for the same seed, different for another. */
static void every_algorithm_makes_valid_reproducible_samples(void **state)
{
    (void)state;
    const size_t sizes[] = { 1, 2, 3, 4, 52, 1000 };
    enum { K = 10 };
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        const sb_shuffle_type *t = *p;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            sb_shuffle_args a = { .n = sizes[s] };
            char why[256];
            if (sb_shuffle_fitted(t, &a, why, sizeof why) != SB_OK)
                continue;
            const size_t n = a.n, len = sb_shuffle_sample_len(t, &a);
            sb_card *x = malloc(K * len * sizeof *x);
            sb_card *y = malloc(K * len * sizeof *y);
            sb_card *z = malloc(K * len * sizeof *z);
            size_t *seen = malloc(n * sizeof *seen);
            sample_args(t, &a, 1, K, x);
            sample_args(t, &a, 1, K, y);
            sample_args(t, &a, 2, K, z);
            for (size_t i = 0; i < K; i++)
                assert_valid(t, &a, x + i * len, seen);
            assert_memory_equal(x, y, K * len * sizeof *x);
            /* For n >= 4, ten samples from another seed all equal to these
               would need an outcome of probability p to repeat ten times.
               At n = 4 no algorithm here puts more than 0.38 on one
               outcome (exact mode): deal-random-hand 1/4 on AABB, Sattolo
               and the 2 x 2 deals 1/6, one pass of human-packet 0.32 and
               of riffle 5/16 (more passes of a walk on a group never raise
               its largest probability), overhand at its 10 passes 0.07
               (one pass 27/64, no cut at all), riffle-until-uniform-forward at
               most 0.04 on the mass walked to depth 4 plus 1/3 unexplored;
               the sampling-only ones are Fisher-Yates (gsl-shuffle) or
               near it.  So a false alarm has probability below
               0.38^10 ~ 6e-5, and with fixed seeds it never changes. */
            if (n >= 4)
                assert_true(memcmp(x, z, K * len * sizeof *x) != 0);
            free(x);
            free(y);
            free(z);
            free(seen);
        }
    }
}

/* Sattolo at 52 cards: every deck is one 52-cycle, with no fixed point. */
static void sattolo_single_cycle_at_52(void **state)
{
    (void)state;
    enum { N = 52, K = 200 };
    sb_card d[K * N];
    sample(&sb_shuffle_sattolo, N, 9, K, d);
    for (size_t i = 0; i < K; i++) {
        const sb_card *deck = d + i * N;
        size_t len = 0, c = 0;
        do {
            c = deck[c];
            len++;
        } while (c != 0);
        assert_int_equal(len, N);
    }
}

/* ---- the fast path: run_block and batched draws ------------------------ */

/* For every algorithm with run_block, at several sizes (fitted defaults):
   a block of 64 and then a block of 1 write exactly what 65 calls of run
   write from the same fast source, each after sb_src_begin_sample as the
   runner makes them, and leave the source in the same state.  Kept state
   (partial-deal's deck) carries from one block to the next as from one
   run to the next. */
static void run_block_writes_what_run_writes(void **state)
{
    (void)state;
    const size_t sizes[] = { 1, 2, 3, 5, 13, 52, 1000 };
    enum { BLOCK = 64 };
    size_t checked = 0;
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        const sb_shuffle_type *t = *p;
        if (!t->run_block)
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            sb_shuffle_args a = { .n = sizes[s] };
            char why[256];
            if (sb_shuffle_fitted(t, &a, why, sizeof why) != SB_OK)
                continue;
            const size_t len = sb_shuffle_sample_len(t, &a);
            sb_card *x = malloc((BLOCK + 1) * len * sizeof *x);
            sb_card *y = malloc((BLOCK + 1) * len * sizeof *y);
            void *sx = NULL, *sy = NULL;
            if (t->init) {
                assert_int_equal(t->init(&sx, &a), SB_OK);
                assert_int_equal(t->init(&sy, &a), SB_OK);
            }
            if (t->reset) {
                t->reset(sx, &a);
                t->reset(sy, &a);
            }
            sb_src bx, by;
            sb_src_fast(&bx, 1000 + s, 3);
            by = bx;
            assert_int_equal(t->run_block(sx, &a, &bx, x, BLOCK), SB_OK);
            assert_int_equal(t->run_block(sx, &a, &bx, x + BLOCK * len, 1),
                             SB_OK);
            for (size_t i = 0; i <= BLOCK; i++) {
                sb_src_begin_sample(&by);
                assert_int_equal(t->run(sy, &a, &by, y + i * len), SB_OK);
            }
            assert_memory_equal(x, y, (BLOCK + 1) * len * sizeof *x);
            assert_memory_equal(bx.s, by.s, sizeof bx.s);
            assert_int_equal(bx.error, by.error);
            if (t->free) {
                t->free(sx);
                t->free(sy);
            }
            free(x);
            free(y);
            checked++;
        }
    }
    assert_true(checked >= 6 * 5);    /* six algorithms, most sizes */
}

/* The indices a falling loop hands out, recorded in order; a rejected
   batch's steps are taken back off the end. */
#define TAPE_MAX 1024
typedef struct tape {
    size_t len, next, undos;
    uint64_t b[TAPE_MAX], j[TAPE_MAX];
} tape;

static void tape_step(void *ctx, uint64_t b, uint64_t j)
{
    tape *t = ctx;
    assert_true(t->len < TAPE_MAX);
    t->b[t->len] = b;
    t->j[t->len++] = j;
}

static void tape_undo(void *ctx, uint64_t b, uint64_t j)
{
    tape *t = ctx;
    assert_true(t->len > 0);
    t->len--;
    assert_true(t->b[t->len] == b && t->j[t->len] == j);
    t->undos++;
}

/* A source that plays the tape back: below(b) answers the next recorded
   index, and must be asked for the bound it was recorded with. */
static uint64_t tape_below(sb_src *s, uint64_t n)
{
    tape *t = s->impl;
    assert_true(t->next < t->len);
    assert_true(t->b[t->next] == n);
    return t->j[t->next++];
}
static uint64_t tape_bits(sb_src *s, unsigned k) { (void)s; (void)k; fail(); return 0; }
static size_t tape_weighted(sb_src *s, const uint64_t *w, size_t m)
{
    (void)s; (void)w; (void)m;
    fail();
    return 0;
}
static double tape_unit(sb_src *s) { (void)s; fail(); return 0; }
static const sb_src_ops tape_ops = { tape_below, tape_bits, tape_weighted,
                                     tape_unit, NULL, NULL };

/* The algorithms whose draws go through sb_below_falling, with the one
   falling run each makes per sample (first bound, number of draws), as
   their opening comments say. */
typedef struct falling_alg {
    const sb_shuffle_type *t;
    uint64_t (*hi)(const sb_shuffle_args *a);
    uint64_t (*count)(const sb_shuffle_args *a);
} falling_alg;

static uint64_t n_of(const sb_shuffle_args *a) { return a->n; }
static uint64_t n_less_1(const sb_shuffle_args *a) { return a->n - 1; }
static uint64_t k_of(const sb_shuffle_args *a) { return (uint64_t)a->param[0]; }

/* On the fast generator, each of these algorithms writes what its plain
   loop writes when every below() answers the index sb_below_falling hands
   out for it: the sample is recorded from one copy of a fast source, the
   same draws are recorded from another copy through sb_below_falling, and
   the algorithm is run again on a source that plays them back (its ops
   path, the path exact mode takes).  Both sources must end in the same
   state.  Done from a seeded state, and from one whose first word is 0
   (xoshiro256** outputs rotl(5 s[1], 7) * 9: s[1] = 0 gives 0), which
   the first batch rejects at 52 cards (its product of bounds is not a
   power of two, so 2^64 mod P > 0 = the final low part): the steps taken
   from it must all be undone, whatever the algorithm's undo is. */
static void fast_samples_are_the_plain_loop_on_batched_draws(void **state)
{
    (void)state;
    const falling_alg algs[] = {
        { &sb_shuffle_fisher_yates, n_of, n_less_1 },
        { &sb_shuffle_fisher_yates_forward, n_of, n_less_1 },
        { &sb_shuffle_deal_fisher_yates, n_of, n_less_1 },
        { &sb_shuffle_sattolo, n_less_1, n_less_1 },
        { &sb_shuffle_draw_and_fill, n_of, n_of },
        { &sb_shuffle_partial_deal, n_of, k_of },
    };
    const size_t sizes[] = { 2, 3, 52, 1000 };
    static tape tp;
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        const sb_shuffle_type *t = algs[i].t;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int forced = 0; forced <= 1; forced++) {
                sb_shuffle_args a = { .n = sizes[s] };
                char why[256];
                if (sb_shuffle_fitted(t, &a, why, sizeof why) != SB_OK)
                    continue;
                const size_t len = sb_shuffle_sample_len(t, &a);
                sb_card *fast = malloc(len * sizeof *fast);
                sb_card *plain = malloc(len * sizeof *plain);
                void *st = NULL;
                if (t->init)
                    assert_int_equal(t->init(&st, &a), SB_OK);
                sb_src src, rec;
                sb_src_fast(&src, 77 + s, 0);
                if (forced)
                    src.s[1] = 0;
                rec = src;
                if (t->reset)
                    t->reset(st, &a);
                assert_int_equal(t->run(st, &a, &src, fast), SB_OK);

                memset(&tp, 0, sizeof tp);
                sb_below_falling(&rec, algs[i].hi(&a), algs[i].count(&a),
                                 tape_step, tape_undo, &tp);
                assert_memory_equal(src.s, rec.s, sizeof src.s);
                const uint64_t count = algs[i].count(&a);
                /* The first pair of batches (two chains of up to 9
                   draws), or the lone batch of a short run, undone. */
                if (forced && a.n == 52)
                    assert_int_equal(tp.undos, count < 18 ? count : 18);

                sb_src play = { .ops = &tape_ops, .impl = &tp };
                if (t->reset)
                    t->reset(st, &a);
                assert_int_equal(t->run(st, &a, &play, plain), SB_OK);
                assert_int_equal(tp.next, tp.len);
                assert_memory_equal(fast, plain, len * sizeof *fast);
                if (t->free)
                    t->free(st);
                free(fast);
                free(plain);
            }
    }
}

static void params_are_parsed_and_checked(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_sort_random_keys;
    sb_shuffle_args a = { .n = 3 };
    sb_shuffle_defaults(t, &a);
    assert_int_equal(a.param[0], 53);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=8"), SB_OK);
    assert_int_equal(a.param[0], 8);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=0"), SB_ERANGE);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=65"), SB_ERANGE);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=x"), SB_EINVAL);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits="), SB_EINVAL);
    assert_int_equal(sb_shuffle_set_param(t, &a, "keybits=8"), SB_ENOTFOUND);
    char buf[64];
    sb_shuffle_format_params(t, &a, buf, sizeof buf);
    assert_string_equal(buf, "key-bits=8,sort=merge");
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(naive_swap_three_cards),
        cmocka_unit_test(selection_shuffles_one_path_per_order),
        cmocka_unit_test(selection_shuffles_place_cards_as_described),
        cmocka_unit_test(partial_deal_hands_are_uniform_and_independent),
        cmocka_unit_test(deals_two_hands_of_two),
        cmocka_unit_test(deals_three_hands_of_two),
        cmocka_unit_test(deal_and_draw_checks),
        cmocka_unit_test(gsl_shuffle_is_gsl_ran_shuffle),
        cmocka_unit_test(sattolo_only_cycles),
        cmocka_unit_test(sort_random_keys_one_bit),
        cmocka_unit_test(fisher_yates_mod_three_cards),
        cmocka_unit_test(fisher_yates_mod_samples_the_idiom),
        cmocka_unit_test(overhand_three_cards),
        cmocka_unit_test(overhand_moves_packets_as_a_person_does),
        cmocka_unit_test(overhand_runs_its_markov_steps),
        cmocka_unit_test(overhand_fails_the_battery_at_52),
        cmocka_unit_test(stream_version_per_run),
        cmocka_unit_test(registry_is_well_formed),
        cmocka_unit_test(every_algorithm_makes_valid_reproducible_samples),
        cmocka_unit_test(sattolo_single_cycle_at_52),
        cmocka_unit_test(params_are_parsed_and_checked),
        cmocka_unit_test(run_block_writes_what_run_writes),
        cmocka_unit_test(fast_samples_are_the_plain_loop_on_batched_draws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
