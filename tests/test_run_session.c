/*
 * test_run_session.c - the engine's run session (src/engine/session.h):
 * what it tells its caller through the hooks, the statistics it takes by
 * name, and the shape it refuses, all without printing.
 *
 * The escalation case is deterministic (fixed seed): naive-swap at 10
 * cards with 600 decks and seed 1 is suspect on its first stage and fails
 * on its second (tests/test_cli.c, suspect_runs_escalate).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "shufflebias/status.h"
#include "algorithms/registry.h"
#include "base/shuffle_type.h"
#include "engine/session.h"
#include "engine/state.h"

typedef struct heard {
    unsigned stages[SB_STAGES_MAX];
    unsigned n_stages;
    unsigned escalations;
    unsigned save_failures;
    char save_error[640];
} heard;

static void on_stage(void *ctx, unsigned stage, unsigned escalations)
{
    heard *h = ctx;
    h->stages[h->n_stages++] = stage;
    h->escalations = escalations;
}

static void on_save_failed(void *ctx, const char *err)
{
    heard *h = ctx;
    h->save_failures++;
    snprintf(h->save_error, sizeof h->save_error, "%s", err);
}

static void naive_swap(sb_run_config *cfg, const sb_stat_type **stats,
                       size_t *n_stats)
{
    *cfg = (sb_run_config){ .alg = sb_shuffle_find("naive-swap"),
                            .args = { .n = 10 }, .samples = 600, .seed = 1,
                            .rng = "xoshiro256", .threads = 1 };
    sb_shuffle_defaults(cfg->alg, &cfg->args);
    sb_shape shape;
    char err[256];
    assert_int_equal(sb_run_shape(cfg, &shape, err, sizeof err), SB_OK);
    assert_int_equal(sb_run_stats("position,fixed-points,cycles", "--tests",
                                  &shape,
                                  stats, 8, n_stats, err, sizeof err),
                     SB_OK);
    assert_int_equal(*n_stats, 3);
}

/* A later stage is announced once, with its number; a state that cannot
   be saved is told once however many saves fail, and the run goes on to
   its verdict. */
static void hooks_hear_stages_and_lost_saves(void **state)
{
    (void)state;
    sb_run_config cfg;
    const sb_stat_type *stats[8];
    size_t n_stats;
    naive_swap(&cfg, stats, &n_stats);
    heard h = { 0 };
    const sb_run_hooks hooks = { .stage = on_stage,
                                 .save_failed = on_save_failed, .ctx = &h };
    sb_run_keep keep = { .path = "/nonexistent-directory/run.state" };
    sb_report rep;
    char err[512];
    assert_int_equal(sb_run_session(&cfg, stats, n_stats, 3, &keep, &hooks,
                                    &rep, err, sizeof err), SB_OK);
    assert_int_equal(rep.n_stages, 2);
    assert_int_equal(rep.verdict, SB_VERDICT_FAIL);
    assert_int_equal(h.n_stages, 1);
    assert_int_equal(h.stages[0], 1);
    assert_int_equal(h.escalations, 3);
    assert_int_equal(h.save_failures, 1);
    assert_true(keep.save_failed);
    assert_string_equal(keep.save_error, h.save_error);
    assert_non_null(strstr(h.save_error, "/nonexistent-directory/run.state"));
    /* The run's own seed and samples again; what the session set is
       cleared. */
    assert_int_equal(cfg.seed, 1);
    assert_int_equal(cfg.samples, 600);
    assert_null(cfg.stats);
    assert_null(cfg.checkpoint);
    sb_report_release(&rep);
}

/* Without hooks or a state, the same run, and no escalation when none is
   allowed: the suspect stage is the verdict. */
static void no_hooks_no_escalation(void **state)
{
    (void)state;
    sb_run_config cfg;
    const sb_stat_type *stats[8];
    size_t n_stats;
    naive_swap(&cfg, stats, &n_stats);
    sb_report rep;
    char err[512];
    assert_int_equal(sb_run_session(&cfg, stats, n_stats, 0, NULL, NULL,
                                    &rep, err, sizeof err), SB_OK);
    assert_int_equal(rep.n_stages, 1);
    assert_int_equal(rep.verdict, SB_VERDICT_SUSPECT);
    sb_report_release(&rep);
}

/* A part that holds no chunk is refused, in words that begin with the
   algorithm's name. */
static void an_empty_part_is_refused(void **state)
{
    (void)state;
    sb_run_config cfg;
    const sb_stat_type *stats[8];
    size_t n_stats;
    naive_swap(&cfg, stats, &n_stats);
    sb_run_keep keep = { .part = 1, .parts = 2 };
    sb_report rep;
    char err[512];
    assert_int_equal(sb_run_session(&cfg, stats, n_stats, 0, &keep, NULL,
                                    &rep, err, sizeof err), SB_EINVAL);
    assert_string_equal(err, "naive-swap: part 1 of 2 holds no chunk: 600 "
                        "samples make 1 chunks of 65536");
}

/* Statistics by name: unknown, twice, not applying, none. */
static void statistics_by_name(void **state)
{
    (void)state;
    const sb_shape shape = { .kind = SB_KIND_PERMUTATION, .n = 5, .len = 5 };
    const sb_stat_type *stats[4];
    size_t n;
    char err[2048];
    assert_int_equal(sb_run_stats("position,cycles", "--tests",
                                  &shape, stats, 4, &n,
                                  err, sizeof err), SB_OK);
    assert_int_equal(n, 2);
    assert_int_equal(sb_run_stats(NULL, "--tests", &shape, stats, 4, &n, err,
                                  sizeof err), SB_OK);
    assert_true(n > 0);
    assert_int_equal(sb_run_stats("positon", "--tests",
                                  &shape, stats, 4, &n, err,
                                  sizeof err), SB_ENOTFOUND);
    assert_non_null(strstr(err, "unknown statistic 'positon' (did you mean "
                             "'position'?); valid: "));
    assert_non_null(strstr(err, "position"));
    assert_int_equal(sb_run_stats("cycles,cycles", "--tests",
                                  &shape, stats, 4, &n,
                                  err, sizeof err), SB_EINVAL);
    assert_string_equal(err, "statistic 'cycles' is named twice in --tests");
    assert_int_equal(sb_run_stats("hcp", "--tests", &shape, stats, 4, &n, err,
                                  sizeof err), SB_EINVAL);
    assert_int_equal(sb_run_stats(",", "--tests", &shape, stats, 4, &n, err,
                                  sizeof err), SB_EINVAL);
    assert_int_equal(sb_run_stats("position,cycles,rising", "--tests",
                                  &shape, stats,
                                  2, &n, err, sizeof err), SB_EINVAL);
}

/* n and parameters the algorithm refuses, said before anything runs in
   the words the command line prints. */
static void a_refused_shape(void **state)
{
    (void)state;
    sb_run_config cfg = { .alg = sb_shuffle_find("partial-deal"),
                          .args = { .n = 5 } };
    sb_shuffle_defaults(cfg.alg, &cfg.args);
    sb_shape shape;
    char err[256];
    assert_int_equal(sb_run_shape(&cfg, &shape, err, sizeof err), SB_EINVAL);
    assert_string_equal(err, "'partial-deal' deals k = 7 cards from n = 5: "
                        "k must be at most n (--param k=5, or a larger --n)");
    cfg.args.n = 52;
    assert_int_equal(sb_run_shape(&cfg, &shape, err, sizeof err), SB_OK);
    assert_int_equal(shape.kind, SB_KIND_DRAW);
    assert_int_equal(shape.len, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hooks_hear_stages_and_lost_saves),
        cmocka_unit_test(no_hooks_no_escalation),
        cmocka_unit_test(an_empty_part_is_refused),
        cmocka_unit_test(statistics_by_name),
        cmocka_unit_test(a_refused_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
