/*
 * test_battery.c - Holm's correction and the verdicts, on constructed
 * p-values (no sampling: every expected value is worked out by hand).
 */
#include "sb_test.h"

#include <string.h>
#include "stats/battery.h"

static void set(sb_result *r, const double *p, const int *applicable,
                size_t m)
{
    memset(r, 0, m * sizeof *r);
    for (size_t i = 0; i < m; i++) {
        r[i].applicable = applicable ? applicable[i] : 1;
        r[i].p_value = p[i];
    }
}

/* p = {0.01, 0.04, 0.03, 0.005}, m = 4.  Sorted: 0.005, 0.01, 0.03, 0.04;
   (m - j + 1) p_(j) = 4(0.005) = 0.02, 3(0.01) = 0.03, 2(0.03) = 0.06,
   1(0.04) = 0.04; running max 0.02, 0.03, 0.06, 0.06.  Back in input
   order: {0.03, 0.06, 0.06, 0.02}. */
static void test_holm(void **state)
{
    (void)state;
    const double p[] = { 0.01, 0.04, 0.03, 0.005 };
    const double want[] = { 0.03, 0.06, 0.06, 0.02 };
    sb_result r[4];
    set(r, p, NULL, 4);
    sb_battery_holm(r, 4);
    for (size_t i = 0; i < 4; i++)
        assert_close(r[i].p_adjusted, want[i], 1e-12);
}

/* Capped at 1, ties in array order, zeros (underflowed p) stay 0:
   p = {0.5, 0, 0.5, 0.2}: sorted 0 (i=1), 0.2 (i=3), 0.5 (i=0), 0.5 (i=2);
   terms 0, 3(0.2) = 0.6, 2(0.5) = 1, 1(0.5) = 0.5; running max
   0, 0.6, 1, 1. */
static void test_holm_cap_ties(void **state)
{
    (void)state;
    const double p[] = { 0.5, 0.0, 0.5, 0.2 };
    const double want[] = { 1.0, 0.0, 1.0, 0.6 };
    sb_result r[4];
    set(r, p, NULL, 4);
    sb_battery_holm(r, 4);
    for (size_t i = 0; i < 4; i++)
        assert_close(r[i].p_adjusted, want[i], 1e-12);
}

/* Not-applicable results do not count in m: with two of four applicable,
   p = {0.01, -, 0.04, -} gives 2(0.01) = 0.02 and max(0.02, 1(0.04)) =
   0.04; the others get 1 and verdict n/a. */
static void test_holm_not_applicable(void **state)
{
    (void)state;
    const double p[] = { 0.01, 1e-9, 0.04, 1e-9 };
    const int app[] = { 1, 0, 1, 0 };
    sb_result r[4];
    set(r, p, app, 4);
    sb_battery_holm(r, 4);
    assert_close(r[0].p_adjusted, 0.02, 1e-12);
    assert_close(r[2].p_adjusted, 0.04, 1e-12);
    assert_close(r[1].p_adjusted, 1.0, 0);
    assert_close(r[3].p_adjusted, 1.0, 0);
    assert_int_equal(r[1].verdict, SB_VERDICT_NA);
    assert_int_equal(sb_battery_verdicts(r, 4, SB_SUSPECT_ALPHA,
                                         SB_FAIL_ALPHA), SB_VERDICT_PASS);
    assert_int_equal(r[1].verdict, SB_VERDICT_NA);
    assert_int_equal(r[3].verdict, SB_VERDICT_NA);

    /* One applicable result: no correction at all. */
    const int one[] = { 0, 0, 1, 0 };
    set(r, p, one, 4);
    sb_battery_holm(r, 4);
    assert_close(r[2].p_adjusted, 0.04, 1e-12);
    sb_battery_holm(r, 0);   /* an empty battery is fine */
}

/* Thresholds are strict: p_adjusted equal to a threshold is not below it. */
static void test_verdict_boundaries(void **state)
{
    (void)state;
    sb_result r[6];
    memset(r, 0, sizeof r);
    const double padj[] = { 1e-6, nextafter(1e-6, 0), 1e-3,
                            nextafter(1e-3, 0), 0.0, 1.0 };
    const sb_verdict want[] = { SB_VERDICT_SUSPECT, SB_VERDICT_FAIL,
                                SB_VERDICT_PASS, SB_VERDICT_SUSPECT,
                                SB_VERDICT_FAIL, SB_VERDICT_PASS };
    for (size_t i = 0; i < 6; i++) {
        r[i].applicable = 1;
        r[i].p_adjusted = padj[i];
        sb_verdict v = sb_battery_verdicts(r + i, 1, SB_SUSPECT_ALPHA,
                                           SB_FAIL_ALPHA);
        assert_int_equal(r[i].verdict, want[i]);
        assert_int_equal(v, want[i]);
    }
}

/* The overall verdict is the worst applicable one; all n/a gives n/a. */
static void test_overall(void **state)
{
    (void)state;
    sb_result r[3];
    memset(r, 0, sizeof r);
    for (size_t i = 0; i < 3; i++) {
        r[i].applicable = 1;
        r[i].p_adjusted = 0.5;
    }
    assert_int_equal(sb_battery_verdicts(r, 3, 1e-3, 1e-6), SB_VERDICT_PASS);
    r[1].p_adjusted = 1e-4;
    assert_int_equal(sb_battery_verdicts(r, 3, 1e-3, 1e-6),
                     SB_VERDICT_SUSPECT);
    r[2].p_adjusted = 1e-9;
    assert_int_equal(sb_battery_verdicts(r, 3, 1e-3, 1e-6), SB_VERDICT_FAIL);
    assert_int_equal(r[0].verdict, SB_VERDICT_PASS);
    assert_int_equal(r[1].verdict, SB_VERDICT_SUSPECT);
    assert_int_equal(r[2].verdict, SB_VERDICT_FAIL);
    /* A failing result that was not applicable is ignored. */
    r[2].applicable = 0;
    assert_int_equal(sb_battery_verdicts(r, 3, 1e-3, 1e-6),
                     SB_VERDICT_SUSPECT);
    for (size_t i = 0; i < 3; i++)
        r[i].applicable = 0;
    assert_int_equal(sb_battery_verdicts(r, 3, 1e-3, 1e-6), SB_VERDICT_NA);
    assert_int_equal(sb_battery_verdicts(r, 0, 1e-3, 1e-6), SB_VERDICT_NA);
}

/* Holm and verdicts together: p = {1e-8, 4e-4, 0.3}: 3e-8 fails,
   2(4e-4) = 8e-4 is suspect, 0.3 passes; overall fail. */
static void test_battery_end_to_end(void **state)
{
    (void)state;
    const double p[] = { 1e-8, 4e-4, 0.3 };
    sb_result r[3];
    set(r, p, NULL, 3);
    sb_battery_holm(r, 3);
    assert_int_equal(sb_battery_verdicts(r, 3, SB_SUSPECT_ALPHA,
                                         SB_FAIL_ALPHA), SB_VERDICT_FAIL);
    assert_close(r[0].p_adjusted, 3e-8, 1e-12);
    assert_close(r[1].p_adjusted, 8e-4, 1e-12);
    assert_int_equal(r[1].verdict, SB_VERDICT_SUSPECT);
    assert_int_equal(r[2].verdict, SB_VERDICT_PASS);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(sb_verdict_str(SB_VERDICT_PASS), "pass");
    assert_string_equal(sb_verdict_str(SB_VERDICT_SUSPECT), "suspect");
    assert_string_equal(sb_verdict_str(SB_VERDICT_FAIL), "fail");
    assert_string_equal(sb_verdict_str(SB_VERDICT_NA), "n/a");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_holm),
        cmocka_unit_test(test_holm_cap_ties),
        cmocka_unit_test(test_holm_not_applicable),
        cmocka_unit_test(test_verdict_boundaries),
        cmocka_unit_test(test_overall),
        cmocka_unit_test(test_battery_end_to_end),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
