/*
 * plan.c - 'shufflebias test --effect E [--power P] [--plan]': size a run
 * from the bias it must catch (stats/plan.h does the arithmetic), print
 * the plan, and time a short run to say how long the planned one would
 * take.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/plan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <inttypes.h>

#include "engine/runner.h"
#include "reports/render.h"
#include "stats/gof.h"
#include "shufflebias/status.h"
#include "stats/battery.h"

/* rand-bits=B: a whole number of bits the directed subtest tests. */
static int parse_rand_bits(const char *arg, const char *s, sb_plan_effect *e)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || !(*s >= '0' && *s <= '9')
        || v < SB_FY_BITS_MIN || v > SB_FY_BITS_MAX) {
        sb_cli_error("invalid --effect '%s': rand-bits=B takes a whole "
                     "number of bits from %d to %d (rand() %% m from a "
                     "generator of B bits: 15 for rand() on Windows, 31 "
                     "for glibc)", arg, SB_FY_BITS_MIN, SB_FY_BITS_MAX);
        return -1;
    }
    e->unit = SB_PLAN_RAND_BITS;
    e->value = (double)v;
    return 0;
}

int sb_cli_parse_effect(const char *arg, sb_plan_effect *e)
{
    static const char distance[] = "distance=";
    static const char rand_bits[] = "rand-bits=";
    const char *s = arg;
    if (strncmp(s, rand_bits, sizeof rand_bits - 1) == 0)
        return parse_rand_bits(arg, s + sizeof rand_bits - 1, e);
    e->unit = SB_PLAN_RELATIVE;
    if (strncmp(s, distance, sizeof distance - 1) == 0) {
        e->unit = SB_PLAN_DISTANCE;
        s += sizeof distance - 1;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (e->unit == SB_PLAN_RELATIVE && end != s && *end == '%') {
        v /= 100.0;
        end++;
    }
    /* A cell cannot come out more than 100% less often: a relative
       deviation is at most 1 (100%). */
    if (errno || end == s || *end || !(v > 0.0) || !isfinite(v)
        || (e->unit == SB_PLAN_RELATIVE && v > 1.0)) {
        sb_cli_error("invalid --effect '%s': expected a relative deviation "
                     "of one cell such as 0.05 or 5%%, a chi-square "
                     "distance per sample such as distance=1e-4, or "
                     "rand-bits=B (rand() %% m from a generator of B bits)",
                     arg);
        return -1;
    }
    e->value = v;
    return 0;
}

int sb_cli_parse_power(const char *arg, double *power)
{
    char *end;
    errno = 0;
    const double v = strtod(arg, &end);
    if (errno || end == arg || *end || !(v >= 0.5 && v <= 0.9999)) {
        sb_cli_error("invalid --power '%s': expected a probability from "
                     "0.5 to 0.9999", arg);
        return -1;
    }
    *power = v;
    return 0;
}

int sb_cli_plan_make(const sb_run_config *cfg, const char *tests,
                     sb_cli_plan *plan)
{
    char err[512];
    sb_shape shape;
    if (sb_run_shape(cfg, &shape, err, sizeof err) != SB_OK) {
        sb_cli_error("%s", err);
        return -1;
    }
    const sb_stat_type *stats[SB_CLI_PLAN_MAX];
    size_t n;
    if (sb_cli_stats(tests, &shape, stats, SB_CLI_PLAN_MAX, &n) != 0)
        return -1;
    /* The threshold the detectable effects are computed at: the fail
       level one statistic faces in Holm's worst case, as in the report. */
    plan->effect.alpha = SB_FAIL_ALPHA / (double)(n ? n : 1);
    plan->n = n;
    plan->samples = 0;
    plan->decider = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const int st = sb_plan_stat(stats[i], &shape, &plan->effect,
                                    &plan->rows[i]);
        if (st != SB_OK) {
            sb_cli_error("the plan for '%s' could not be computed: %s",
                         stats[i]->name, sb_status_str(st));
            return -1;
        }
        if (plan->rows[i].planned && plan->rows[i].samples > plan->samples) {
            plan->samples = plan->rows[i].samples;
            plan->decider = i;
        }
    }
    if (plan->decider == SIZE_MAX) {
        sb_cli_error("--effect: no statistic of the run can be planned for "
                     "this effect (see 'shufflebias test --plan')");
        sb_cli_plan_print(stderr, plan);
        return -1;
    }
    return 0;
}

static void effect_words(char *buf, size_t len, const sb_plan_effect *e)
{
    if (e->unit == SB_PLAN_DISTANCE) {
        snprintf(buf, len, "a chi-square distance of %.3g per sample",
                 e->value);
    } else if (e->unit == SB_PLAN_RAND_BITS) {
        snprintf(buf, len, "Fisher-Yates drawing rand() %% m from a "
                 "generator of %.0f bits", e->value);
    } else {
        char pct[32];
        sb_gof_percent(pct, sizeof pct, 100.0 * e->value);
        snprintf(buf, len, "one cell %s%% more or less often than its "
                 "rate", pct);
    }
}

void sb_cli_plan_print(FILE *f, const sb_cli_plan *plan)
{
    char what[96];
    effect_words(what, sizeof what, &plan->effect);
    fprintf(f, "plan: %s, caught with power %g at the fail threshold "
            "(%g over %zu statistic%s)\n", what, plan->effect.power,
            SB_FAIL_ALPHA, plan->n, plan->n == 1 ? "" : "s");
    size_t width = 0;
    for (size_t i = 0; i < plan->n; i++)
        if (strlen(plan->rows[i].name) > width)
            width = strlen(plan->rows[i].name);
    for (size_t i = 0; i < plan->n; i++) {
        const sb_plan_row *r = &plan->rows[i];
        if (!r->planned) {
            fprintf(f, "  %-*s  not planned: %s\n", (int)width, r->name,
                    r->reason);
            continue;
        }
        fprintf(f, "  %-*s  %12" PRIu64 " samples", (int)width, r->name,
                r->samples);
        if (r->at.words[0])
            fprintf(f, "  (the report will say: %s)", r->at.words);
        fputc('\n', f);
    }
    if (plan->decider == SIZE_MAX)
        return;
    fprintf(f, "samples: %" PRIu64 ", as '%s' needs\n", plan->samples,
            plan->rows[plan->decider].name);
    /* One statistic whose named cell is rare (the permutation test's one
       order of n!) can ask for a run far longer than any other: said, so
       that it is not run by surprise. */
    uint64_t next = 0;
    for (size_t i = 0; i < plan->n; i++)
        if (i != plan->decider && plan->rows[i].planned
            && plan->rows[i].samples > next)
            next = plan->rows[i].samples;
    if (next > 0 && plan->samples / SB_CLI_PLAN_LOPSIDED >= next)
        fprintf(f, "  note: '%s' needs %.0f times the samples of any other "
                "statistic; leave it out with --tests to plan for the "
                "others\n", plan->rows[plan->decider].name,
                (double)plan->samples / (double)next);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sb_cli_plan_time(sb_run_config *cfg, const char *tests, uint64_t samples,
                     sb_cli_plan_timing *t)
{
    const uint64_t asked = cfg->samples;
    uint64_t s = SB_CHUNK_SAMPLES;
    int rc = 0;
    for (;;) {
        cfg->samples = s < samples ? s : samples;
        sb_report rep;
        const double start = seconds_now();
        if (sb_cli_run(cfg, tests, 1, 0, NULL, &rep) != 0) {
            rc = -1;
            break;
        }
        t->seconds = seconds_now() - start;
        t->samples = rep.run.done;
        sb_report_release(&rep);
        if (t->seconds >= SB_CLI_PLAN_TIMING || cfg->samples >= samples)
            break;
        s *= 2;
    }
    cfg->samples = asked;
    if (rc == 0)
        t->estimate = t->samples
                          ? t->seconds * (double)samples / (double)t->samples
                          : 0.0;
    return rc;
}

void sb_cli_plan_print_time(FILE *f, const sb_cli_plan_timing *t,
                            unsigned threads)
{
    char when[48];
    const double s = t->estimate;
    const char *unit = "s";
    double v = s;
    if (s >= 172800.0) {
        unit = "days";
        v = s / 86400.0;
    } else if (s >= 7200.0) {
        unit = "h";
        v = s / 3600.0;
    } else if (s >= 120.0) {
        unit = "min";
        v = s / 60.0;
    }
    /* Two significant figures, never in exponent form. */
    if (v >= 10.0)
        snprintf(when, sizeof when, "%.0f %s", v, unit);
    else
        snprintf(when, sizeof when, "%.2g %s", v, unit);
    fprintf(f, "  time: about %s on this machine with %u thread%s (an "
            "estimate: %" PRIu64 " samples took %.2f s; escalation not "
            "counted)\n", when, threads, threads == 1 ? "" : "s",
            t->samples, t->seconds);
}

json_t *sb_cli_plan_json(const sb_cli_plan *plan)
{
    json_t *rows = json_array();
    for (size_t i = 0; i < plan->n; i++) {
        const sb_plan_row *r = &plan->rows[i];
        json_t *o = json_pack("{s:s, s:b}", "name", r->name, "planned",
                              r->planned);
        if (r->planned) {
            json_object_set_new(o, "samples",
                                json_integer((json_int_t)r->samples));
            json_object_set_new(o, "distance", json_real(r->distance));
            json_object_set_new(o, "detectable", json_real(r->at.distance));
            if (r->at.words[0])
                json_object_set_new(o, "detectable_description",
                                    json_string(r->at.words));
        } else {
            json_object_set_new(o, "reason", json_string(r->reason));
        }
        json_array_append_new(rows, o);
    }
    return json_pack("{s:{s:s, s:f}, s:f, s:f, s:I, s:s, s:o}",
                     "effect", "unit",
                     plan->effect.unit == SB_PLAN_DISTANCE ? "distance"
                     : plan->effect.unit == SB_PLAN_RAND_BITS ? "rand-bits"
                                                              : "relative",
                     "value", plan->effect.value,
                     "power", plan->effect.power,
                     "alpha", plan->effect.alpha,
                     "samples", (json_int_t)plan->samples,
                     "decided_by", plan->rows[plan->decider].name,
                     "tests", rows);
}
