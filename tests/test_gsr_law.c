/*
 * test_gsr_law.c - the exact distances of k GSR riffles from uniform.
 *
 * Published values: Bayer & Diaconis, "Trailing the dovetail shuffle to
 * its lair", Ann. Appl. Probab. 2(2), 1992, Table 1: the total-variation
 * distance of 52 cards after k = 1..10 riffles, to three decimals.  The
 * rest is checked against an independent count over every order of up
 * to 7 cards, against the Eulerian numbers by their explicit sum (up to
 * 100 cards), against the program's own exact walk over every path of
 * the riffle and the inverse riffle, and against direct reasoning written
 * next to each case.
 */
#include "tests/sb_test.h"
#include "tests/sb_sample.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>

#include "algorithms/registry.h"
#include "engine/enumerate.h"
#include "shufflebias/status.h"
#include "stats/exact.h"
#include "stats/gsr_law.h"

/* The law of n cards, which must build. */
static sb_gsr_law *law_of(size_t n)
{
    sb_gsr_law *law;
    assert_int_equal(sb_gsr_law_new(&law, n, NULL), SB_OK);
    assert_non_null(law);
    return law;
}

/* Whether q lies in [(m - 1/2) / 1000, (m + 1/2) / 1000): what rounds to
   m / 1000 at three decimals, half up. */
static int rounds_to(const mpq_t q, unsigned long m)
{
    mpq_t lo, hi;
    mpq_inits(lo, hi, NULL);
    mpq_set_ui(lo, 2 * m - 1, 2000);
    mpq_set_ui(hi, 2 * m + 1, 2000);
    mpq_canonicalize(lo);
    mpq_canonicalize(hi);
    int in = mpq_cmp(q, lo) >= 0 && mpq_cmp(q, hi) < 0;
    mpq_clears(lo, hi, NULL);
    return in;
}

/* Bayer & Diaconis 1992, Table 1 (n = 52), in thousandths. */
static void table_1_of_bayer_diaconis(void **state)
{
    (void)state;
    const unsigned long want[11] = { 0, 1000, 1000, 1000, 1000, 924, 614,
                                     334, 167, 85, 43 };
    sb_gsr_law *law = law_of(52);
    mpq_t tv, sep;
    mpq_inits(tv, sep, NULL);
    for (unsigned k = 1; k <= 10; k++) {
        assert_int_equal(sb_gsr_law_distances(law, k, tv, sep, NULL), SB_OK);
        if (!rounds_to(tv, want[k])) {
            print_error("k = %u: tv = %.6f, the table says %.3f\n", k,
                        mpq_get_d(tv), want[k] / 1000.0);
            fail();
        }
        /* 2^k < 52 up to k = 5: the reversed deck is never reached. */
        assert_int_equal(mpq_cmp_ui(sep, 1, 1) == 0, k <= 5);
    }
    mpq_clears(tv, sep, NULL);
    sb_gsr_law_free(law);
}

/* Rising sequences of the deck d (d[i]: the card at position i): one,
   plus one for every card c whose successor c + 1 lies above it. */
static size_t rising_sequences(const sb_card *d, size_t n)
{
    size_t pos[8];
    for (size_t i = 0; i < n; i++)
        pos[d[i]] = i;
    size_t r = 1;
    for (size_t c = 0; c + 1 < n; c++)
        r += pos[c + 1] < pos[c];
    return r;
}

/* Every order of n cards, its probability after k riffles from the
   formula, summed into tv and sep without the Eulerian numbers. */
static void brute_force(size_t n, unsigned k, mpq_t tv, mpq_t sep)
{
    sb_card d[8];
    for (size_t i = 0; i < n; i++)
        d[i] = (sb_card)i;
    mpq_t p, u, diff, min;
    mpq_inits(p, u, diff, min, NULL);
    mpz_t fact;
    mpz_init(fact);
    mpz_fac_ui(fact, n);
    mpq_set_z(u, fact);
    mpq_inv(u, u);                              /* 1/n! */
    mpq_set_ui(tv, 0, 1);
    mpq_set_ui(min, 1, 1);
    do {
        size_t r = rising_sequences(d, n);
        mpz_bin_uiui(mpq_numref(p), (1ul << k) + n - r, n);
        mpz_set_ui(mpq_denref(p), 1);
        mpz_mul_2exp(mpq_denref(p), mpq_denref(p), (mp_bitcnt_t)k * n);
        mpq_canonicalize(p);
        mpq_sub(diff, p, u);
        if (mpq_sgn(diff) > 0)
            mpq_add(tv, tv, diff);
        if (mpq_cmp(p, min) < 0)
            mpq_set(min, p);
    } while (next_perm(d, n));
    mpq_set_z(p, fact);
    mpq_mul(sep, min, p);
    mpq_set_ui(p, 1, 1);
    mpq_sub(sep, p, sep);
    mpz_clear(fact);
    mpq_clears(p, u, diff, min, NULL);
}

static void agrees_with_every_order(void **state)
{
    (void)state;
    mpq_t tv, sep, want_tv, want_sep;
    mpq_inits(tv, sep, want_tv, want_sep, NULL);
    for (size_t n = 1; n <= 7; n++) {
        sb_gsr_law *law = law_of(n);
        for (unsigned k = 0; k <= 6; k++) {
            assert_int_equal(sb_gsr_law_distances(law, k, tv, sep, NULL),
                             SB_OK);
            brute_force(n, k, want_tv, want_sep);
            if (!mpq_equal(tv, want_tv) || !mpq_equal(sep, want_sep)) {
                char *a = mpq_get_str(NULL, 10, tv);
                char *b = mpq_get_str(NULL, 10, want_tv);
                print_error("n = %zu, k = %u: tv %s, by every order %s\n",
                            n, k, a, b);
                free(a);
                free(b);
                fail();
            }
        }
        sb_gsr_law_free(law);
    }
    mpq_clears(tv, sep, want_tv, want_sep, NULL);
}

/* A(n, r), the orders of n cards with r rising sequences, by the
   explicit sum sum_{j=0}^{r} (-1)^j C(n+1, j) (r - j)^n (Graham, Knuth
   & Patashnik, "Concrete Mathematics", 2nd ed., section 6.2), not by the
   recurrence the module uses. */
static void eulerian_by_sum(mpz_t a, size_t n, size_t r)
{
    mpz_t power, binom;
    mpz_inits(power, binom, NULL);
    mpz_set_ui(a, 0);
    for (size_t j = 0; j <= r; j++) {
        mpz_ui_pow_ui(power, r - j, n);
        mpz_bin_uiui(binom, n + 1, j);
        if (j % 2 == 0)
            mpz_addmul(a, power, binom);
        else
            mpz_submul(a, power, binom);
    }
    mpz_clears(power, binom, NULL);
}

/* The total-variation distance summed over r with those A(n, r) and
   each B_r = C(2^k + n - r, n) computed afresh. */
static void tv_by_sum(size_t n, unsigned k, mpq_t tv)
{
    mpz_t a, fact;
    mpq_t p, diff;
    mpz_inits(a, fact, NULL);
    mpq_inits(p, diff, NULL);
    mpz_fac_ui(fact, n);
    mpq_set_ui(tv, 0, 1);
    for (size_t r = 1; r <= n; r++) {
        mpz_bin_uiui(mpq_numref(p), (1ul << k) + n - r, n);
        mpz_set_ui(mpq_denref(p), 1);
        mpz_mul_2exp(mpq_denref(p), mpq_denref(p), (mp_bitcnt_t)k * n);
        mpq_canonicalize(p);
        mpq_set_z(diff, fact);
        mpq_inv(diff, diff);
        mpq_sub(diff, p, diff);                 /* P_k(r) - 1/n! */
        if (mpq_sgn(diff) <= 0)
            continue;
        eulerian_by_sum(a, n, r);
        mpq_set_z(p, a);
        mpq_mul(diff, diff, p);
        mpq_add(tv, tv, diff);
    }
    mpz_clears(a, fact, NULL);
    mpq_clears(p, diff, NULL);
}

/* Larger decks, where the half rows and the iterated binomials of the
   module have more to get wrong: n odd and even, k across the range
   where the distance falls from near 1 to near 0. */
static void agrees_with_the_explicit_sum(void **state)
{
    (void)state;
    const size_t ns[] = { 20, 61, 100 };
    mpq_t tv, sep, want;
    mpq_inits(tv, sep, want, NULL);
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        sb_gsr_law *law = law_of(ns[i]);
        for (unsigned k = 0; k <= 14; k++) {
            assert_int_equal(sb_gsr_law_distances(law, k, tv, sep, NULL),
                             SB_OK);
            tv_by_sum(ns[i], k, want);
            if (!mpq_equal(tv, want)) {
                print_error("n = %zu, k = %u: tv %.17g, by the sum %.17g\n",
                            ns[i], k, mpq_get_d(tv), mpq_get_d(want));
                fail();
            }
        }
        sb_gsr_law_free(law);
    }
    mpq_clears(tv, sep, want, NULL);
}

/* The exact walk of every path of 'alg' at n cards and k passes: its
   total-variation distance, "p/q", in 'out'. */
static void walked_tv(const sb_shuffle_type *alg, size_t n, unsigned k,
                      char *out, size_t len)
{
    sb_enum_config cfg = {
        .alg = alg,
        .args = { .n = n },
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
    };
    char param[32], err[256];
    sb_shuffle_defaults(alg, &cfg.args);
    snprintf(param, sizeof param, "passes=%u", k);
    assert_int_equal(sb_shuffle_set_param(alg, &cfg.args, param), SB_OK);
    sb_exact_report rep;
    assert_int_equal(sb_enumerate(&cfg, &rep, err, sizeof err), SB_OK);
    assert_false(rep.partial);
    assert_string_equal(rep.unexplored, "0/1");
    assert_true(strlen(rep.tv) < len);
    strcpy(out, rep.tv);
    sb_exact_report_release(&rep);
}

/* The forward riffle and the inverse one, walked path by path (2^(kn)
   paths, 32,768 at n = 5, k = 3), are exactly as far from uniform as the
   law says. */
static void agrees_with_the_walked_riffles(void **state)
{
    (void)state;
    const sb_shuffle_type *algs[2] = { &sb_shuffle_riffle,
                                       &sb_shuffle_inverse_riffle };
    mpq_t tv, sep;
    mpq_inits(tv, sep, NULL);
    for (size_t n = 3; n <= 5; n++) {
        sb_gsr_law *law = law_of(n);
        for (unsigned k = 1; k <= 3; k++) {
            assert_int_equal(sb_gsr_law_distances(law, k, tv, sep, NULL),
                             SB_OK);
            char *want = mpq_get_str(NULL, 10, tv);
            assert_non_null(strchr(want, '/'));     /* 0 < tv < 1 */
            for (size_t a = 0; a < 2; a++) {
                char got[512];
                walked_tv(algs[a], n, k, got, sizeof got);
                if (strcmp(got, want) != 0) {
                    print_error("%s, n = %zu, k = %u: walked %s, law %s\n",
                                algs[a]->name, n, k, got, want);
                    fail();
                }
            }
            free(want);
        }
        sb_gsr_law_free(law);
    }
    mpq_clears(tv, sep, NULL);
}

/* algorithms/riffle.c works out 3 cards at 7 passes by hand: 193/49152. */
static void three_cards_seven_riffles(void **state)
{
    (void)state;
    sb_gsr_law *law = law_of(3);
    mpq_t tv, sep, want;
    mpq_inits(tv, sep, want, NULL);
    assert_int_equal(sb_gsr_law_distances(law, 7, tv, sep, NULL), SB_OK);
    mpq_set_ui(want, 193, 49152);
    assert_true(mpq_equal(tv, want));
    /* CBA: C(128, 3) / 2^21 = 2667/16384, so sep = 1 - 6 * 2667/16384. */
    mpq_set_ui(want, 16384 - 6 * 2667, 16384);
    mpq_canonicalize(want);
    assert_true(mpq_equal(sep, want));
    mpq_clears(tv, sep, want, NULL);
    sb_gsr_law_free(law);
}

static void edge_cases(void **state)
{
    (void)state;
    mpq_t tv, sep, want;
    mpq_inits(tv, sep, want, NULL);

    /* One card: every k leaves the only order, at distance 0. */
    sb_gsr_law *law = law_of(1);
    for (unsigned k = 0; k <= 10; k++) {
        assert_int_equal(sb_gsr_law_distances(law, k, tv, sep, NULL), SB_OK);
        assert_int_equal(mpq_sgn(tv), 0);
        assert_int_equal(mpq_sgn(sep), 0);
    }
    sb_gsr_law_free(law);

    /* No riffle: the deck in its order, tv = 1 - 1/n!, sep = 1. */
    for (size_t n = 2; n <= 12; n++) {
        law = law_of(n);
        assert_int_equal(sb_gsr_law_distances(law, 0, tv, sep, NULL), SB_OK);
        mpz_fac_ui(mpq_denref(want), n);
        mpz_sub_ui(mpq_numref(want), mpq_denref(want), 1);
        assert_true(mpq_equal(tv, want));
        assert_int_equal(mpq_cmp_ui(sep, 1, 1), 0);
        sb_gsr_law_free(law);
    }

    /* 1000 cards: the distance falls with every riffle, and after 15
       lies strictly between 0 and 1.  sep is 1 until 2^k >= 1000. */
    law = law_of(1000);
    mpq_set_ui(want, 2, 1);
    for (unsigned k = 0; k <= 15; k++) {
        assert_int_equal(sb_gsr_law_distances(law, k, tv, sep, NULL), SB_OK);
        assert_true(mpq_cmp(tv, want) < 0);
        assert_int_equal(mpq_cmp_ui(sep, 1, 1) == 0, k <= 9);
        mpq_set(want, tv);
    }
    assert_true(mpq_sgn(tv) > 0);
    assert_true(mpq_cmp_ui(tv, 1, 1) < 0);
    sb_gsr_law_free(law);

    /* The limits, and a stop flag already set. */
    assert_int_equal(sb_gsr_law_new(&law, 0, NULL), SB_EINVAL);
    assert_null(law);
    assert_int_equal(sb_gsr_law_new(&law, SB_GSR_LAW_N_MAX + 1, NULL),
                     SB_EINVAL);
    volatile sig_atomic_t stop = 1;
    assert_int_equal(sb_gsr_law_new(&law, 100, &stop), SB_EINTR);
    assert_null(law);
    law = law_of(100);
    assert_int_equal(sb_gsr_law_distances(law, 10, tv, sep, &stop),
                     SB_EINTR);
    assert_int_equal(sb_gsr_law_distances(law, SB_GSR_LAW_K_MAX + 1, tv,
                                          sep, NULL), SB_ERANGE);
    sb_gsr_law_free(law);
    sb_gsr_law_free(NULL);
    mpq_clears(tv, sep, want, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_1_of_bayer_diaconis),
        cmocka_unit_test(agrees_with_every_order),
        cmocka_unit_test(agrees_with_the_explicit_sum),
        cmocka_unit_test(agrees_with_the_walked_riffles),
        cmocka_unit_test(three_cards_seven_riffles),
        cmocka_unit_test(edge_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
