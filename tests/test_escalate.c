/*
 * test_escalate.c - the escalation of suspect runs, on constructed
 * p-values: a stand-in stage hands back batteries whose p-values the test
 * chose, so every verdict below is worked out by hand from the thresholds
 * (suspect below 1e-3, fail below 1e-6, Holm-adjusted).
 */
#include "sb_test.h"

#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "engine/escalate.h"
#include "engine/runner.h"
#include "stats/battery.h"

/* The p-values of two statistics at each stage, and what each stage was
   asked for. */
#define STAGES 9
typedef struct script {
    double p[STAGES][2];
    int partial_at;            /* the stage that is interrupted, or -1 */
    int error_at;              /* the stage that fails to run, or -1 */
    unsigned calls;
    uint64_t seed[STAGES], samples[STAGES];
} script;

static int fake_stage(void *ctx, unsigned stage, uint64_t seed,
                      uint64_t samples, sb_report *rep, char *err,
                      size_t len)
{
    script *s = ctx;
    assert_int_equal(stage, s->calls);
    s->seed[stage] = seed;
    s->samples[stage] = samples;
    s->calls++;
    if ((int)stage == s->error_at) {
        snprintf(err, len, "stage %u broke", stage);
        return SB_EIO;
    }
    memset(rep, 0, sizeof *rep);
    rep->results = calloc(2, sizeof *rep->results);
    assert_non_null(rep->results);
    rep->n_results = 2;
    static const char *const names[] = { "one", "two" };
    for (size_t i = 0; i < 2; i++) {
        rep->results[i].name = names[i];
        rep->results[i].applicable = 1;
        rep->results[i].p_value = s->p[stage][i];
    }
    sb_battery_holm(rep->results, 2);
    rep->verdict = sb_battery_verdicts(rep->results, 2, SB_SUSPECT_ALPHA,
                                       SB_FAIL_ALPHA);
    rep->run.samples = samples;
    rep->run.partial = (int)stage == s->partial_at;
    rep->run.done = rep->run.partial ? samples / 2 : samples;
    return SB_OK;
}

static script new_script(void)
{
    script s;
    memset(&s, 0, sizeof s);
    s.partial_at = s.error_at = -1;
    for (size_t k = 0; k < STAGES; k++)
        s.p[k][0] = s.p[k][1] = 0.5;
    return s;
}

/* A pass at once: one stage, no escalation. */
static void test_pass_is_not_escalated(void **state)
{
    (void)state;
    script s = new_script();
    sb_report rep;
    char err[128];
    assert_int_equal(sb_escalate(fake_stage, &s, 42, 1000, 3, &rep, err,
                                 sizeof err), SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_PASS);
    assert_int_equal(rep.n_stages, 1);
    assert_int_equal(s.calls, 1);
    assert_true(rep.stages[0].seed == 42 && s.seed[0] == 42);
    assert_true(rep.run.seed == 42 && rep.run.samples_total == 1000);
    sb_report_release(&rep);
}

/* Stage 0: p = {2e-4, 0.5}, Holm {4e-4, 0.5}: suspect.  Stage 1 on a
   derived seed and 2000 samples: p = {0.3, 0.9}, Holm {0.6, 0.9}: pass,
   and the run passes with two stages. */
static void test_suspect_then_pass(void **state)
{
    (void)state;
    script s = new_script();
    s.p[0][0] = 2e-4;
    s.p[1][0] = 0.3;
    s.p[1][1] = 0.9;
    sb_report rep;
    char err[128];
    assert_int_equal(sb_escalate(fake_stage, &s, 42, 1000, 3, &rep, err,
                                 sizeof err), SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_PASS);
    assert_int_equal(rep.n_stages, 2);
    assert_int_equal(rep.stages[0].verdict, SB_VERDICT_SUSPECT);
    assert_close(rep.stages[0].min_p_adjusted, 4e-4, 1e-12);
    assert_string_equal(rep.stages[0].worst, "one");
    assert_int_equal(rep.stages[1].verdict, SB_VERDICT_PASS);
    assert_true(s.samples[1] == 2000 && rep.stages[1].samples == 2000);
    assert_true(s.seed[1] == sb_escalation_seed(42, 1) && s.seed[1] != 42);
    assert_true(rep.run.seed == 42 && rep.run.samples_total == 3000);
    /* The results are the last stage's. */
    assert_close(rep.results[0].p_adjusted, 0.6, 1e-12);
    sb_report_release(&rep);
}

/* Suspect at every stage (p = {4e-4, 0.5}, Holm 8e-4): three escalations,
   four stages of 1000, 2000, 4000 and 8000 samples, each on its own seed,
   and the run stays suspect. */
static void test_stays_suspect(void **state)
{
    (void)state;
    script s = new_script();
    for (size_t k = 0; k < STAGES; k++)
        s.p[k][0] = 4e-4;
    sb_report rep;
    char err[128];
    assert_int_equal(sb_escalate(fake_stage, &s, 7, 1000, 3, &rep, err,
                                 sizeof err), SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_SUSPECT);
    assert_int_equal(rep.n_stages, 4);
    assert_int_equal(s.calls, 4);
    for (unsigned k = 0; k < 4; k++) {
        assert_true(rep.stages[k].samples == (1000u << k));
        assert_true(rep.stages[k].seed == sb_escalation_seed(7, k));
        assert_int_equal(rep.stages[k].verdict, SB_VERDICT_SUSPECT);
        for (unsigned j = 0; j < k; j++)
            assert_true(rep.stages[k].seed != rep.stages[j].seed);
    }
    assert_true(rep.run.samples_total == 15000);
    sb_report_release(&rep);

    /* With no escalation allowed the first suspect stage is the answer. */
    s = new_script();
    s.p[0][0] = 4e-4;
    assert_int_equal(sb_escalate(fake_stage, &s, 7, 1000, 0, &rep, err,
                                 sizeof err), SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_SUSPECT);
    assert_int_equal(rep.n_stages, 1);
    sb_report_release(&rep);
}

/* A fail is never re-run (p = 1e-9, Holm 2e-9 < 1e-6); a suspect stage
   followed by a fail (stage 1: p = 1e-8, Holm 2e-8) fails. */
static void test_fail(void **state)
{
    (void)state;
    script s = new_script();
    s.p[0][1] = 1e-9;
    sb_report rep;
    char err[128];
    assert_int_equal(sb_escalate(fake_stage, &s, 1, 100, 3, &rep, err,
                                 sizeof err), SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    assert_int_equal(rep.n_stages, 1);
    assert_string_equal(rep.stages[0].worst, "two");
    sb_report_release(&rep);

    s = new_script();
    s.p[0][0] = 4e-4;
    s.p[1][0] = 1e-8;
    assert_int_equal(sb_escalate(fake_stage, &s, 1, 100, 3, &rep, err,
                                 sizeof err), SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    assert_int_equal(rep.n_stages, 2);
    sb_report_release(&rep);
}

/* An interrupted stage ends the escalation with what it counted; a stage
   that cannot run is an error and leaves nothing to release. */
static void test_interrupted_and_error(void **state)
{
    (void)state;
    script s = new_script();
    s.p[0][0] = s.p[1][0] = 4e-4;
    s.partial_at = 1;
    sb_report rep;
    char err[128];
    assert_int_equal(sb_escalate(fake_stage, &s, 1, 100, 3, &rep, err,
                                 sizeof err), SB_OK);
    assert_true(rep.run.partial);
    assert_int_equal(rep.n_stages, 2);
    assert_true(rep.stages[1].done == 100 && rep.run.samples_total == 200);
    sb_report_release(&rep);

    s = new_script();
    s.p[0][0] = 4e-4;
    s.error_at = 1;
    assert_int_equal(sb_escalate(fake_stage, &s, 1, 100, 3, &rep, err,
                                 sizeof err), SB_EIO);
    assert_string_equal(err, "stage 1 broke");
    assert_null(rep.results);
    assert_int_equal(rep.n_stages, 0);

    assert_int_equal(sb_escalate(fake_stage, &s, 1, 100, SB_STAGES_MAX,
                                 &rep, err, sizeof err), SB_EINVAL);
}

/* Stage seeds stay below 2^53 (exact in JSON) and differ between nearby
   seeds; samples double and saturate at 2^62. */
static void test_seeds_and_samples(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 64; seed++)
        for (unsigned k = 1; k < SB_STAGES_MAX; k++) {
            const uint64_t a = sb_escalation_seed(seed, k);
            assert_true(a < (UINT64_C(1) << 53));
            assert_true(a != sb_escalation_seed(seed + 1, k));
            assert_true(a != sb_escalation_seed(seed, k - 1));
        }
    assert_true(sb_escalation_seed(123, 0) == 123);
    assert_true(sb_escalation_samples(1000, 3) == 8000);
    assert_true(sb_escalation_samples(UINT64_C(1) << 61, 3)
                == UINT64_C(1) << 62);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_is_not_escalated),
        cmocka_unit_test(test_suspect_then_pass),
        cmocka_unit_test(test_stays_suspect),
        cmocka_unit_test(test_fail),
        cmocka_unit_test(test_interrupted_and_error),
        cmocka_unit_test(test_seeds_and_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
