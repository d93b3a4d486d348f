/*
 * test_my_shuffles.c - unit tests that call libshufflebias: the fair
 * shuffle passes, the broken one fails.
 *
 * False alarms: every test here runs on a fixed seed, so each gives the
 * same verdict every time.  Were the seed drawn at random, the fair
 * shuffle would fail with probability at most 1e-6 per test (a
 * statistic fails only when its Holm-adjusted p-value is below 1e-6,
 * docs/verdicts.md), and a suspect verdict (below 1e-3) is run again on
 * fresh samples before the test sees it.  The broken shuffle at 16 cards
 * is biased by far more than 200000 decks need to see: its p-values are
 * below 1e-100.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <shufflebias/shufflebias.h>

#include "my_shuffles.h"

static int setup(void **state)
{
    sb_session *s;
    if (sb_session_new(&s) != SB_OK)
        return -1;
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    sb_session_free(*state);
    return 0;
}

/* Test 't' on 16 cards, 200000 decks from 'seed'; fails the test when
   the run itself fails. */
static void run(sb_session *s, const sb_shuffle_type *t, uint64_t seed)
{
    assert_int_equal(sb_session_set_shuffle_type(s, t), SB_OK);
    assert_int_equal(sb_session_set_n(s, 16), SB_OK);
    assert_int_equal(sb_session_set_samples(s, 200000), SB_OK);
    assert_int_equal(sb_session_set_seed(s, seed), SB_OK);
    int rc = sb_session_test(s);
    if (rc != SB_OK)
        fail_msg("%s", sb_session_error(s));
    print_message("%s: %s\n", t->name, sb_session_verdict_str(s));
}

static void fair_shuffle_passes(void **state)
{
    sb_session *s = *state;
    run(s, &my_fair_shuffle, 20240601);
    assert_int_equal(sb_session_verdict(s), SB_VERDICT_PASS);
    const sb_report *rep = sb_session_report(s);
    assert_non_null(rep);
    assert_true(rep->n_results > 0);
    for (size_t i = 0; i < rep->n_results; i++)
        assert_int_not_equal(rep->results[i].verdict, SB_VERDICT_FAIL);
}

static void swap_any_fails(void **state)
{
    sb_session *s = *state;
    run(s, &my_swap_any, 20240601);
    assert_int_equal(sb_session_verdict(s), SB_VERDICT_FAIL);
    /* Which statistic saw it, and how sure it is. */
    const sb_report *rep = sb_session_report(s);
    const sb_result *worst = &rep->results[0];
    for (size_t i = 1; i < rep->n_results; i++)
        if (rep->results[i].p_adjusted < worst->p_adjusted)
            worst = &rep->results[i];
    print_message("my-swap-any: worst %s, statistic %g, df %g, "
                  "p (Holm) %g\n", worst->name, worst->statistic, worst->df,
                  worst->p_adjusted);
    assert_int_equal(worst->verdict, SB_VERDICT_FAIL);
    assert_true(worst->p_adjusted < 1e-6);
}

/* The statistics can be chosen, and a name that is none is refused with
   the reason. */
static void chosen_statistics(void **state)
{
    sb_session *s = *state;
    assert_int_equal(sb_session_set_tests(s, "position,cycles"), SB_OK);
    run(s, &my_fair_shuffle, 7);
    const sb_report *rep = sb_session_report(s);
    assert_int_equal(rep->n_results, 2);
    assert_string_equal(rep->results[0].name, "position");
    assert_string_equal(rep->results[1].name, "cycles");
    assert_int_equal(sb_session_set_tests(s, "position,no-such"), SB_OK);
    assert_int_equal(sb_session_test(s), SB_ENOTFOUND);
    assert_non_null(strstr(sb_session_error(s), "'no-such'"));
    assert_int_equal(sb_session_set_tests(s, NULL), SB_OK);
}

/* At 4 cards every path of draws can be walked: a proof, not a test. */
static void exact_walk_proves_it(void **state)
{
    sb_session *s = *state;
    assert_int_equal(sb_session_set_n(s, 4), SB_OK);
    assert_int_equal(sb_session_set_shuffle_type(s, &my_fair_shuffle), SB_OK);
    assert_int_equal(sb_session_exact(s), SB_OK);
    assert_int_equal(sb_session_exact_report(s)->verdict, SB_EXACT_UNIFORM);
    assert_int_equal(sb_session_set_shuffle_type(s, &my_swap_any), SB_OK);
    assert_int_equal(sb_session_exact(s), SB_OK);
    assert_int_equal(sb_session_exact_report(s)->verdict, SB_EXACT_BIASED);
    print_message("my-swap-any, every path at 4 cards: %s\n",
                  sb_session_verdict_str(s));
}

/* A built-in shuffle by name, and the JSON report 'shufflebias test
   --json' would write. */
static void builtin_and_json(void **state)
{
    sb_session *s = *state;
    assert_int_equal(sb_session_set_shuffle(s, "riffle"), SB_OK);
    assert_int_equal(sb_session_set_param(s, "passes=1"), SB_OK);
    assert_int_equal(sb_session_set_n(s, 52), SB_OK);
    assert_int_equal(sb_session_set_samples(s, 100000), SB_OK);
    assert_int_equal(sb_session_set_seed(s, 1), SB_OK);
    assert_int_equal(sb_session_test(s), SB_OK);
    assert_int_equal(sb_session_verdict(s), SB_VERDICT_FAIL);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(sb_session_write_json(s, f), SB_OK);
    rewind(f);
    char text[65536];
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "\"verdict\": \"fail\""));
    assert_non_null(strstr(text, "\"algorithm\": \"riffle\""));
}

int main(void)
{
    printf("libshufflebias %s (built against %s)\n", sb_version(),
           SB_VERSION_STRING);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(fair_shuffle_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(swap_any_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(chosen_statistics, setup, teardown),
        cmocka_unit_test_setup_teardown(exact_walk_proves_it, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(builtin_and_json, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
