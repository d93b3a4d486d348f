/*
 * plan.h - the command line's side of sample-size planning ('test
 * --effect E [--power P] [--plan]'): reading the options, planning every
 * statistic of the run (stats/plan.h), printing the plan, and timing a
 * short run to estimate how long the planned one takes.
 */
#ifndef SB_CLI_PLAN_H
#define SB_CLI_PLAN_H

/* A plan whose deciding statistic needs this many times the samples of
   any other says so. */
#define SB_CLI_PLAN_LOPSIDED 100u

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "cli/cli.h"
#include "stats/plan.h"

/* The most statistics a run holds. */
#define SB_CLI_PLAN_MAX 32
/* A timing run lasts at least this many seconds (or is the whole plan). */
#define SB_CLI_PLAN_TIMING 0.2

typedef struct sb_cli_plan {
    sb_plan_effect effect;          /* unit, value and power from the
                                       options; alpha set by the plan */
    sb_plan_row rows[SB_CLI_PLAN_MAX];
    size_t n;                       /* statistics of the run */
    uint64_t samples;               /* the most any planned one needs */
    size_t decider;                 /* the row that needs them */
} sb_cli_plan;

typedef struct sb_cli_plan_timing {
    uint64_t samples;               /* samples timed */
    double seconds;                 /* how long they took */
    double estimate;                /* seconds for the planned samples */
} sb_cli_plan_timing;

/* --effect E: 0.05 or 5% (a relative deviation of one cell), or
   distance=D (a chi-square distance per sample).  0, or -1 after
   printing the error. */
int sb_cli_parse_effect(const char *arg, sb_plan_effect *e);
/* --power P: 0.5 to 0.9999.  0, or -1 after printing the error. */
int sb_cli_parse_power(const char *arg, double *power);

/* Plan every statistic the run 'cfg' would run ('tests' as --tests).
   0, or -1 after printing the error (also when no statistic could be
   planned). */
int sb_cli_plan_make(const sb_run_config *cfg, const char *tests,
                     sb_cli_plan *plan);
void sb_cli_plan_print(FILE *f, const sb_cli_plan *plan);

/* Time runs of 'cfg' (one chunk, then twice as many) until one lasts
   SB_CLI_PLAN_TIMING seconds or reaches 'samples', and scale to
   'samples'.  cfg->samples is restored.  0, or -1 after printing the
   error. */
int sb_cli_plan_time(sb_run_config *cfg, const char *tests, uint64_t samples,
                     sb_cli_plan_timing *t);
void sb_cli_plan_print_time(FILE *f, const sb_cli_plan_timing *t,
                            unsigned threads);

/* The plan as the JSON report's "plan" (new reference). */
json_t *sb_cli_plan_json(const sb_cli_plan *plan);

#endif /* SB_CLI_PLAN_H */
