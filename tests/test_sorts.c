/*
 * test_sorts.c - shuffles that sort: random keys (stable merge or the
 * BASIC exchange loop) and a random comparator (exchange, insertion,
 * merge, quick, and the C library's qsort).
 *
 * The 3-card tables are derived by hand below, path by path, and checked
 * through exact mode.  Larger decks are checked against brute force written
 * here, independently of the algorithm files: every string of fair coins
 * (or every tuple of keys) is fed to a plain copy of each sort, and the
 * counts are compared with the exact walk.  qsort cannot be walked; it is
 * sampled.
 */
#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "engine/enumerate.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/exact.h"
#include "stats/nulls.h"
#include "stats/registry.h"

#define MAX_N 6
#define MAX_ORDERS 720   /* 6! */

static sb_enum_config config(const sb_shuffle_type *t, size_t n,
                             const char *p1, const char *p2)
{
    /* With the command line's advice, which a test checks. */
    sb_enum_config cfg = {
        .alg = t,
        .args = { .n = n },
        .option_advice = 1,
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .max_depth = SB_ENUM_MAX_DEPTH_DEFAULT,
    };
    sb_shuffle_defaults(t, &cfg.args);
    if (p1)
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, p1), SB_OK);
    if (p2)
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, p2), SB_OK);
    return cfg;
}

static void walk(const sb_shuffle_type *t, size_t n, const char *p1,
                 const char *p2, sb_exact_report *rep)
{
    sb_enum_config cfg = config(t, n, p1, p2);
    char err[512];
    int rc = sb_enumerate(&cfg, rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("%s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_string_equal(rep->unexplored, "0/1");
}

/* The exact fraction of the 3-card order written as letters ("CAB": card
   2, then 0, then 1), or "0" when it is never reached. */
static const char *fraction_of(const sb_exact_report *rep, const char *order)
{
    for (size_t i = 0; i < rep->n_outcomes; i++) {
        const sb_card *s = rep->outcomes[i].sample;
        if (s[0] == order[0] - 'A' && s[1] == order[1] - 'A'
            && s[2] == order[2] - 'A')
            return rep->outcomes[i].fraction;
    }
    return "0";
}

static const char *const orders3[6] = { "ABC", "ACB", "BAC", "BCA", "CAB",
                                        "CBA" };

static void assert_three(const sb_exact_report *rep, const char *const want[6])
{
    for (size_t i = 0; i < 6; i++) {
        const char *got = fraction_of(rep, orders3[i]);
        if (strcmp(got, want[i]) != 0)
            print_error("%s %s: %s, expected %s\n", rep->params, orders3[i],
                        got, want[i]);
        assert_string_equal(got, want[i]);
    }
}

/* The walk's probabilities against brute-force ones, order by order. */
static void assert_same_law(const sb_exact_report *rep, size_t n,
                            const double *want)
{
    double got[MAX_ORDERS] = { 0 };
    for (size_t i = 0; i < rep->n_outcomes; i++)
        got[(size_t)sb_null_perm_rank(rep->outcomes[i].sample, n)] = rep->outcomes[i].probability;
    for (size_t r = 0; r < (size_t)sb_null_factorial(n); r++) {
        if (!(fabs(got[r] - want[r]) <= 1e-12 * fmax(got[r], want[r])))
            print_error("%s n=%zu order %zu: walk %.17g, brute force %.17g\n",
                        rep->params, n, r, got[r], want[r]);
        assert_close(got[r], want[r], 1e-12);
    }
}

/* ==== sort-random-comparator ============================================ */

/* By hand, deck ABC; a coin 1 is a comparator answer +1 ("greater"), a 0
   is -1.  Every path of k coins has probability 2^-k.

   exchange: always the 3 comparisons (0,1), (0,2), (1,2), swapping on 1:
     000 ABC   001 ACB   010 CBA (swap 0,2)   011 CBA -> CAB
     100 BAC   101 BCA   110 BAC -> CAB       111 CAB -> CBA
   so ABC, ACB, BAC, BCA 1/8 each; CAB and CBA 2/8 = 1/4 each.

   insertion: cmp(A, B): 0 keeps AB, 1 makes BA.  Then C against the
   second card: 0 stops; 1 shifts it and compares C with the first: 0 puts
   C in the middle, 1 in front.
     0,0 ABC 1/4   0,1,0 ACB 1/8   0,1,1 CAB 1/8
     1,0 BAC 1/4   1,1,0 BCA 1/8   1,1,1 CBA 1/8

   merge: halves [A] and [B C].  cmp(B, C): 0 gives BC, 1 gives CB; call
   it xy.  Then cmp(A, x): 0 takes A and the left run is done: Axy; 1
   takes x, then cmp(A, y): 0 gives xAy, 1 gives xyA.
     0,0 ABC 1/4   0,1,0 BAC 1/8   0,1,1 BCA 1/8
     1,0 ACB 1/4   1,1,0 CAB 1/8   1,1,1 CBA 1/8

   quick: pivot C; cmp(A, C) and cmp(B, C), a 0 sending the card left.
     0,0: [A B] C, then pivot B: cmp(A, B) 0 gives ABC, 1 gives BAC (1/8 each)
     0,1: A | C | B: ACB 1/4        1,0: B | C | A: BCA 1/4
     1,1: C [B A], then pivot A: cmp(B, A) 0 gives CBA, 1 gives CAB (1/8 each)

   Every sort: two orders at 1/4 and four at 1/8, so the total-variation
   distance is 2 (1/4 - 1/6) = 1/6. */
static void comparator_three_cards_by_hand(void **state)
{
    (void)state;
    static const struct {
        const char *sort;
        uint64_t paths;
        const char *want[6];   /* ABC ACB BAC BCA CAB CBA */
    } cases[] = {
        { "sort=exchange", 8, { "1/8", "1/8", "1/8", "1/8", "1/4", "1/4" } },
        { "sort=insertion", 6, { "1/4", "1/8", "1/4", "1/8", "1/8", "1/8" } },
        { "sort=merge", 6, { "1/4", "1/4", "1/8", "1/8", "1/8", "1/8" } },
        { "sort=quick", 6, { "1/8", "1/4", "1/8", "1/4", "1/8", "1/8" } },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sb_exact_report rep;
        walk(&sb_shuffle_sort_random_comparator, 3, cases[c].sort, NULL, &rep);
        assert_int_equal(rep.paths, cases[c].paths);
        assert_three(&rep, cases[c].want);
        assert_string_equal(rep.tv, "1/6");
        assert_int_equal(rep.verdict, SB_EXACT_BIASED);
        sb_exact_report_release(&rep);
    }
    /* The exchange sort always tosses 3 coins: equal path weights. */
    sb_exact_report rep;
    walk(&sb_shuffle_sort_random_comparator, 3, "sort=exchange", NULL, &rep);
    assert_true(rep.equal_weights);
    assert_string_equal(rep.path_weight, "1/8");
    sb_exact_report_release(&rep);
}

/* ---- brute force: every string of L coins through plain copies ---------- */

typedef struct coins {
    uint64_t bits;     /* the string, first coin in the lowest bit */
    unsigned used;
} coins;

static int cmp(coins *c)
{
    return (c->bits >> c->used++) & 1 ? 1 : -1;
}

static void ref_exchange(sb_card *a, int n, coins *c)
{
    for (int j = 0; j <= n - 2; j++)
        for (int k = j + 1; k <= n - 1; k++)
            if (cmp(c) > 0) {
                sb_card t = a[j];
                a[j] = a[k];
                a[k] = t;
            }
}

static void ref_insertion(sb_card *a, int n, coins *c)
{
    for (int i = 1; i <= n - 1; i++) {
        sb_card key = a[i];
        int j = i - 1;
        while (j >= 0 && cmp(c) > 0) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = key;
    }
}

static void ref_merge(sb_card *a, int n, coins *c)
{
    if (n <= 1)
        return;
    int h = n / 2;
    ref_merge(a, h, c);
    ref_merge(a + h, n - h, c);
    sb_card out[MAX_N];
    int i = 0, j = h, k = 0;
    while (i < h || j < n) {
        if (i < h && (j == n || cmp(c) <= 0))
            out[k++] = a[i++];
        else
            out[k++] = a[j++];
    }
    memcpy(a, out, (size_t)n * sizeof *a);
}

/* Recursion on both parts, left first: the textbook order, unlike the
   algorithm's smaller-part-first, which the comparison below shows does
   not change the distribution. */
static void ref_quick(sb_card *a, int lo, int hi, coins *c)
{
    if (lo >= hi)
        return;
    int i = lo;
    for (int j = lo; j < hi; j++)
        if (cmp(c) <= 0) {
            sb_card t = a[i];
            a[i++] = a[j];
            a[j] = t;
        }
    sb_card t = a[i];
    a[i] = a[hi];
    a[hi] = t;
    ref_quick(a, lo, i - 1, c);
    ref_quick(a, i + 1, hi, c);
}

static void ref_quick_all(sb_card *a, int n, coins *c)
{
    ref_quick(a, 0, n - 1, c);
}

/* None of these sorts compares a pair twice, so each makes at most
   L = n(n-1)/2 comparisons.  Feeding all 2^L strings of L coins, a path
   that uses k coins is met by 2^(L-k) strings: each order's probability
   is its count / 2^L, exactly. */
static void brute_force(void (*sort)(sb_card *, int, coins *), size_t n,
                        double *p)
{
    const unsigned L = (unsigned)(n * (n - 1) / 2);
    const uint64_t strings = (uint64_t)1 << L;
    memset(p, 0, (size_t)sb_null_factorial(n) * sizeof *p);
    for (uint64_t s = 0; s < strings; s++) {
        sb_card a[MAX_N];
        for (size_t j = 0; j < n; j++)
            a[j] = (sb_card)j;
        coins c = { s, 0 };
        sort(a, (int)n, &c);
        assert_true(c.used <= L);
        p[sb_null_perm_rank(a, n)] += 1.0 / (double)strings;
    }
}

static void comparator_matches_brute_force(void **state)
{
    (void)state;
    static const struct {
        const char *sort;
        void (*ref)(sb_card *, int, coins *);
    } cases[] = {
        { "sort=exchange", ref_exchange },
        { "sort=insertion", ref_insertion },
        { "sort=merge", ref_merge },
        { "sort=quick", ref_quick_all },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t n = 2; n <= MAX_N; n++) {
            double want[MAX_ORDERS];
            brute_force(cases[c].ref, n, want);
            sb_exact_report rep;
            walk(&sb_shuffle_sort_random_comparator, n, cases[c].sort, NULL,
                 &rep);
            assert_same_law(&rep, n, want);
            /* Two cards: one comparison, a fair coin, whatever the sort. */
            if (n == 2)
                assert_int_equal(rep.verdict, SB_EXACT_UNIFORM);
            else
                assert_int_equal(rep.verdict, SB_EXACT_BIASED);
            sb_exact_report_release(&rep);
        }
}

static void comparator_paths_and_refusal(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_sort_random_comparator;
    sb_shuffle_args a = { .n = 3 };
    sb_shuffle_defaults(t, &a);
    assert_string_equal(t->params[0].choices[a.param[0]], "merge");
    assert_null(sb_shuffle_exact_refusal(t, &a));
    assert_int_equal(t->exact_paths(&a), 0);   /* merge: not known ahead */

    /* Exchange: n(n-1)/2 coins, 2^(n(n-1)/2) paths, saturating. */
    assert_int_equal(sb_shuffle_set_param(t, &a, "sort=exchange"), SB_OK);
    assert_int_equal(t->exact_paths(&a), 8);
    a.n = 11;                                 /* 55 coins */
    assert_true(t->exact_paths(&a) == (uint64_t)1 << 55);
    a.n = 12;                                 /* 66 coins */
    assert_true(t->exact_paths(&a) == UINT64_MAX);

    /* qsort: refused by exact mode, with the way out named. */
    sb_enum_config cfg = config(t, 3, "sort=qsort", NULL);
    assert_non_null(sb_shuffle_exact_refusal(t, &cfg.args));
    sb_exact_report rep;
    char err[512];
    assert_int_equal(sb_enumerate(&cfg, &rep, err, sizeof err), SB_ENOTSUP);
    assert_non_null(strstr(err, "qsort"));
    assert_non_null(strstr(err, "sort=merge"));

    /* qsort is capped where glibc sorts on the stack: 511 two-byte cards. */
    cfg.args.n = 511;
    assert_int_equal(sb_shuffle_check(t, &cfg.args, err, sizeof err), SB_OK);
    cfg.args.n = 512;
    assert_int_equal(sb_shuffle_check(t, &cfg.args, err, sizeof err),
                     SB_EINVAL);
    assert_non_null(strstr(err, "511"));
    assert_int_equal(sb_shuffle_set_param(t, &cfg.args, "sort=quick"), SB_OK);
    assert_int_equal(sb_shuffle_check(t, &cfg.args, err, sizeof err), SB_OK);
}

/* qsort through the runner: 5 cards, 200,000 samples, a fixed seed, the
   position statistic alone.  A pass is the failure here: it would mean the
   C library's qsort, fed coin tosses, put every card at every position
   1/5 of the time to within what 200,000 decks can tell.  No library sort
   is known to do that at 5 cards, and the sorts above miss it widely: with
   glibc 2.36 (whose qsort is the merge sort above, comparison for
   comparison) the position X^2 is about 4.1e4 on 16 degrees of freedom:
   cards D and E land on top 1/8 of the time instead of 1/5 (the walk of
   sort=merge gives exactly 1/8), A and B 1/4.  Deliberately not 8 cards: a merge sort splitting into equal
   halves all the way down puts each card at each position exactly 1/8 of
   the time (the walk shows it), and only the whole-order statistics see
   its bias. */
static void qsort_is_biased(void **state)
{
    (void)state;
    static const sb_stat_type *const stats[] = { &sb_stat_position };
    sb_run_config cfg = {
        .alg = &sb_shuffle_sort_random_comparator,
        .args = { .n = 5 },
        .samples = 200000,
        .seed = 20260501,
        .rng = SB_RNG_DEFAULT,
        .stats = stats,
        .n_stats = 1,
    };
    sb_shuffle_defaults(cfg.alg, &cfg.args);
    assert_int_equal(sb_shuffle_set_param(cfg.alg, &cfg.args, "sort=qsort"),
                     SB_OK);
    sb_report rep;
    char err[256];
    assert_int_equal(sb_run(&cfg, &rep, err, sizeof err), SB_OK);
    assert_int_equal(rep.run.done, 200000);
    assert_true(rep.results[0].applicable);
    if (!(rep.results[0].p_adjusted < 1e-6))
        print_error("qsort: position X2 = %g, p = %g\n",
                    rep.results[0].statistic, rep.results[0].p_adjusted);
    assert_true(rep.results[0].p_adjusted < 1e-6);
    sb_report_release(&rep);
}

/* ==== sort-random-keys: stable merge or the BASIC exchange loop ========== */

/* By hand, keys a, b, c of cards A, B, C.
   key-bits = 1, 8 triples abc of probability 1/8: both sorts leave ABC for
   000, 001, 011, 111, give ACB for 010, BAC for 101, BCA for 100.  On 110
   (a = b > c) the stable merge gives CAB, while the exchange loop swaps A
   and C (j = 0, k = 2: 1 > 0) and then leaves B, A alone (1 > 1 is false):
   CBA.  So merge: ABC 1/2, ACB, BAC, BCA, CAB 1/8, CBA never; exchange:
   the same with CAB and CBA exchanged.
   key-bits = 2, 64 triples: 24 distinct (4 per order), 4 all equal (ABC),
   and 6 + 6 per tied pair with the third key above or below, sorted like
   the 1-bit pattern: merge ABC 4 + 4 + 12 = 20, CBA 4, the rest 4 + 6 = 10
   of 64; exchange the same with CAB 4 and CBA 10. */
static void keys_three_cards_by_hand(void **state)
{
    (void)state;
    static const struct {
        const char *bits, *sort;
        const char *want[6];   /* ABC ACB BAC BCA CAB CBA */
        const char *tv;
    } cases[] = {
        { "key-bits=1", "sort=merge",
          { "1/2", "1/8", "1/8", "1/8", "1/8", "0" }, "1/3" },
        { "key-bits=1", "sort=exchange",
          { "1/2", "1/8", "1/8", "1/8", "0", "1/8" }, "1/3" },
        { "key-bits=2", "sort=merge",
          { "5/16", "5/32", "5/32", "5/32", "5/32", "1/16" }, "7/48" },
        { "key-bits=2", "sort=exchange",
          { "5/16", "5/32", "5/32", "5/32", "1/16", "5/32" }, "7/48" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sb_exact_report rep;
        walk(&sb_shuffle_sort_random_keys, 3, cases[c].bits, cases[c].sort,
             &rep);
        assert_three(&rep, cases[c].want);
        assert_string_equal(rep.tv, cases[c].tv);
        sb_exact_report_release(&rep);
    }
    /* The default 53-bit keys are refused before starting, whichever sort,
       with the hint. */
    sb_enum_config cfg = config(&sb_shuffle_sort_random_keys, 3,
                                "sort=exchange", NULL);
    sb_exact_report rep;
    char err[512];
    assert_int_equal(sb_enumerate(&cfg, &rep, err, sizeof err), SB_ERANGE);
    assert_non_null(strstr(err, "key-bits=2"));
}

/* Brute force over every key tuple: the stable sort is "by key, then by
   card" (the card number is its starting place); the exchange loop is
   copied from the BASIC listing. */
static void ref_keys(const uint64_t *key, size_t n, int exchange,
                     sb_card *out)
{
    uint64_t k[MAX_N];
    for (size_t j = 0; j < n; j++) {
        out[j] = (sb_card)j;
        k[j] = key[j];
    }
    for (size_t j = 0; j + 1 < n; j++)
        for (size_t m = j + 1; m < n; m++) {
            int swap = exchange
                ? k[j] > k[m]
                : k[j] > k[m] || (k[j] == k[m] && out[j] > out[m]);
            if (swap) {
                uint64_t tk = k[j];
                k[j] = k[m];
                k[m] = tk;
                sb_card tc = out[j];
                out[j] = out[m];
                out[m] = tc;
            }
        }
}

static void keys_match_brute_force(void **state)
{
    (void)state;
    for (unsigned bits = 1; bits <= 2; bits++)
        for (size_t n = 3; n <= 4; n++)
            for (int exchange = 0; exchange <= 1; exchange++) {
                const uint64_t values = (uint64_t)1 << bits;
                const uint64_t tuples = (uint64_t)1 << (bits * n);
                double want[MAX_ORDERS] = { 0 };
                for (uint64_t s = 0; s < tuples; s++) {
                    uint64_t key[MAX_N];
                    uint64_t rest = s;
                    for (size_t j = 0; j < n; j++) {
                        key[j] = rest % values;
                        rest /= values;
                    }
                    sb_card d[MAX_N];
                    ref_keys(key, n, exchange, d);
                    want[sb_null_perm_rank(d, n)] += 1.0 / (double)tuples;
                }
                char kb[16];
                snprintf(kb, sizeof kb, "key-bits=%u", bits);
                sb_exact_report rep;
                walk(&sb_shuffle_sort_random_keys, n, kb,
                     exchange ? "sort=exchange" : "sort=merge", &rep);
                assert_int_equal(rep.paths, tuples);
                assert_same_law(&rep, n, want);
                sb_exact_report_release(&rep);
            }
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(comparator_three_cards_by_hand),
        cmocka_unit_test(comparator_matches_brute_force),
        cmocka_unit_test(comparator_paths_and_refusal),
        cmocka_unit_test(qsort_is_biased),
        cmocka_unit_test(keys_three_cards_by_hand),
        cmocka_unit_test(keys_match_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
