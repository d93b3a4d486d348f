/*
 * audit.c - 'shufflebias audit': test every built-in shuffle with the
 * default battery and write one summary (terminal, Markdown, JSON).  This
 * is what scripts/audit runs.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "engine/budget.h"
#include "engine/escalate.h"
#include "engine/diagnose.h"
#include "engine/runner.h"
#include "stats/registry.h"

#define AUDIT_SEED 20261121u   /* fixed, so that the audit is reproducible */

typedef struct audit_options {
    uint64_t n, samples, seed;
    const char *rng, *markdown, *json;
    const char *html;         /* --html FILE: the page of the audit */
    int quiet;
    unsigned escalate;
    /* --no-timing, --full-tables, --csv DIR: what the reports show. */
    sb_render_opts render;
    const char *csv;
} audit_options;

#define ROW(name, arg, field, fn, help) \
    SB_OPT_ROW(name, 0, arg, audit_options, field, SB_OPT_NOWHERE, fn, help)

static const sb_option options[] = {
    ROW("n", "N", n, sb_opt_n, "deck size (default 52)"),
    ROW("samples", "S", samples, sb_opt_count,
        "decks per algorithm (default 1M)"),
    ROW("seed", "S", seed, sb_opt_seed,
        "seed (default 20261121, fixed for reproducibility)"),
    ROW("rng", "NAME", rng, sb_opt_string,
        "randomness source (default " SB_RNG_DEFAULT ")"),
    ROW("markdown", "FILE", markdown, sb_opt_string,
        "write the summary and every table as Markdown"),
    ROW("json", "FILE|-", json, sb_opt_string, "write every run as JSON"),
    ROW("html", "FILE", html, sb_opt_string,
        "write one self-contained HTML page: the overview, every shuffle's "
        "heatmap and the charts of what did not pass"),
    ROW("escalate", "K", escalate, sb_opt_escalate,
        "re-run a suspect result up to K times (default 3)"),
    ROW("no-timing", NULL, render.no_timing, sb_opt_flag,
        "leave out of the JSON what differs between machines (time, "
        "threads, memory), so that audits compare byte for byte"),
    ROW("full-tables", NULL, render.full_tables, sb_opt_flag,
        "list every cell of every table in the JSON, however many"),
    ROW("csv", "DIR", csv, sb_opt_string,
        "also write the overview (DIR/audit.csv) and every run's tables "
        "as CSV files, one subdirectory of DIR per algorithm (DIR made if "
        "missing)"),
    ROW("quiet", NULL, quiet, sb_opt_flag, "print nothing but errors"),
    SB_OPT_HELP,
    SB_OPT_END
};

const sb_command sb_command_audit = {
    .name = "audit",
    .run = sb_cmd_audit,
    .summary = "test every built-in shuffle, write a summary",
    .synopsis =
    "usage: shufflebias audit [options]\n"
    "\n"
    "Test every built-in shuffle at its default parameters with the default\n"
    "battery, and summarise the verdicts next to what the literature says.\n",
    .options = options,
    .epilogue =
    "Exit codes: 0 every shuffle the literature calls uniform passed, 1 one\n"
    "of them failed, 3 one was inconclusive, 2 usage error, 130 interrupted.\n",
};

/* Returns -1 after printing an error, 1 after printing the usage (-h,
   --help), 0 otherwise. */
static int parse(int argc, char **argv, audit_options *o)
{
    *o = (audit_options){ .n = 52, .samples = 1000000, .seed = AUDIT_SEED,
                          .rng = SB_RNG_DEFAULT,
                          .escalate = SB_ESCALATIONS_DEFAULT };
    int next;
    const int rc = sb_options_parse(&sb_command_audit, argc, argv, o, &next);
    if (rc != 0)
        return rc;
    if (next != argc) {
        sb_cli_error("audit: unexpected argument '%s'", argv[next]);
        return -1;
    }
    return 0;
}

/* Run one algorithm into 'rep': 0, 1 when it does not apply at this n
   (skipped, said on stderr), -1 after printing an error. */
static int audit_one(const sb_cli *cli, const audit_options *o,
                     const sb_shuffle_type *t, sb_report *rep)
{
    sb_run_config cfg = {
        .alg = t,
        .args = { .n = (size_t)o->n },
        .samples = o->samples,
        .seed = o->seed,
        .rng = o->rng,
        .threads = sb_cli_threads_default(),
        .stop = cli->stop,
    };
    char why[256];
    if (sb_shuffle_fitted(t, &cfg.args, why, sizeof why) != SB_OK) {
        if (!o->quiet)
            fprintf(stderr, "shufflebias: skipping: %s\n", why);
        return 1;
    }
    sb_shape shape;
    const sb_stat_type *stats[32];
    sb_shuffle_shape(t, &cfg.args, &shape);
    if (sb_stat_defaults(&shape, stats, 32) == 0) {
        if (!o->quiet)
            fprintf(stderr, "shufflebias: skipping '%s': no statistic "
                    "applies to %s samples of n = %zu\n", t->name,
                    sb_kind_str(shape.kind), shape.n);
        return 1;
    }
    return sb_cli_run(&cfg, NULL, o->quiet, o->escalate, NULL, rep) == 0 ? 0 : -1;
}

/* Every run's results are kept, tables and all, until the reports are
   written (the JSON and the CSV list them, the page draws them): their
   sum, with the largest run's own need beside it, must fit the memory
   budget (src/engine/budget.h), or the audit is refused before it runs.
   The tables are kept whole at every deck size, so this is what stops an
   audit at 4096 cards - 256 MiB a table, four for most shuffles - from
   outgrowing the machine.  0, or -1 after printing the error. */
static int audit_fits(const audit_options *o)
{
    uint64_t held = 0, largest = 0;
    size_t runs = 0;
    for (size_t i = 0; sb_shuffle_types[i]; i++) {
        const sb_shuffle_type *t = sb_shuffle_types[i];
        sb_shuffle_args args = { .n = (size_t)o->n };
        char why[256];
        if (sb_shuffle_fitted(t, &args, why, sizeof why) != SB_OK)
            continue;
        sb_shape shape;
        const sb_stat_type *stats[32];
        sb_shuffle_shape(t, &args, &shape);
        const size_t k = sb_stat_defaults(&shape, stats, 32);
        for (size_t j = 0; j < k; j++) {
            size_t fin = 0;
            sb_stat_memory(stats[j], &shape, &fin);
            held += fin;
        }
        const uint64_t need = sb_run_memory(stats, k, &shape, 1, 0, 0);
        if (need > largest)
            largest = need;
        runs += k > 0;
    }
    const uint64_t budget = sb_budget_default();
    if (held + largest <= budget)
        return 0;
    char need[32], have[32];
    sb_budget_str(held + largest, need, sizeof need);
    sb_budget_str(budget, have, sizeof have);
    sb_cli_error("audit: the results of its %zu runs at n = %" PRIu64
                 ", kept whole for the reports, need %s of memory, over the "
                 "budget of %s: choose a smaller --n, or test the shuffles "
                 "one at a time ('shufflebias test ALG --n %" PRIu64 "')",
                 runs, o->n, need, have, o->n);
    return -1;
}

/* The page is neither of the other outputs and can be written.  0, or -1
   after printing the error. */
static int check_html(const audit_options *o)
{
    const sb_cli_path html = { "--html", o->html },
                      others[] = { { "--json", o->json },
                                   { "--markdown", o->markdown } };
    if (!o->html)
        return 0;
    return sb_cli_distinct(&html, others, 2) != 0
           || sb_cli_check_html(o->html) != 0 ? -1 : 0;
}

/* No file --csv DIR writes is one of the other outputs.  0, or -1 after
   printing the error. */
static int check_csv(const audit_options *o)
{
    const sb_cli_path others[] = { { "--json", o->json },
                                   { "--markdown", o->markdown },
                                   { "--html", o->html } };
    return sb_cli_csv_check(o->csv, SB_CLI_CSV_AUDIT, others, 3);
}

static int write_file(const char *path, const sb_report *reps, size_t m,
                      int (*render)(FILE *, const sb_report *, size_t))
{
    sb_outfile out;
    if (sb_cli_open_out(&out, path) != 0)
        return -1;
    return sb_cli_close_out(&out, render(out.f, reps, m) == SB_OK);
}

static int write_json(const char *path, const sb_report *reps, size_t m,
                      const sb_render_opts *ro)
{
    sb_outfile out;
    if (sb_cli_open_out(&out, path) != 0)
        return -1;
    return sb_cli_close_out(&out, sb_render_audit_json_with(out.f, reps, m,
                                                            ro) == SB_OK);
}

/* --csv DIR: the overview as DIR/audit.csv, each run's files in
   DIR/ALGORITHM/.  0, -1 after printing an error, 1 when the stop cut a
   write. */
static int write_csv(const char *dir, const sb_report *reps, size_t m)
{
    char path[4096];
    if (sb_cli_csv_make(dir) != 0)
        return -1;
    if (snprintf(path, sizeof path, "%s/audit.csv", dir)
        >= (int)sizeof path) {
        sb_cli_error("--csv: the directory's name is too long: %s", dir);
        return -1;
    }
    const int rc = write_file(path, reps, m, sb_render_audit_csv);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < m; i++) {
        const int rc = sb_cli_csv_report(dir, reps[i].run.algorithm, "audit",
                                         &reps[i]);
        if (rc != 0)
            return rc;
    }
    /* Last, which audit the overview is from. */
    sb_outfile out;
    snprintf(path, sizeof path, "%s/run.csv", dir);   /* shorter */
    if (sb_cli_open_out(&out, path) != 0)
        return -1;
    return sb_cli_close_out(&out, sb_render_audit_run_csv(
                                      out.f, reps, m, "audit.csv") == SB_OK);
}

int sb_cmd_audit(const sb_cli *cli, int argc, char **argv)
{
    audit_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    const sb_cli_path json = { "--json", o.json },
                      md = { "--markdown", o.markdown };
    if (sb_cli_check_rng(o.rng) != 0 || sb_cli_distinct(&json, &md, 1) != 0
        || sb_cli_can_write(o.json) != 0
        || sb_cli_can_write(o.markdown) != 0 || check_html(&o) != 0
        || check_csv(&o) != 0 || audit_fits(&o) != 0)
        return SB_EXIT_USAGE;
    size_t total = 0;
    while (sb_shuffle_types[total])
        total++;
    sb_report *reps = calloc(total, sizeof *reps);
    if (!reps) {
        sb_cli_error("out of memory");
        return SB_EXIT_USAGE;
    }
    size_t m = 0;
    int code = SB_EXIT_PASS;
    for (size_t i = 0; i < total && code == SB_EXIT_PASS; i++) {
        int rc = audit_one(cli, &o, sb_shuffle_types[i], &reps[m]);
        if (rc > 0)
            continue;
        if (rc < 0) {
            code = SB_EXIT_USAGE;
            break;
        }
        if (reps[m++].run.partial)
            code = SB_EXIT_INTERRUPTED;
    }
    /* One diagnoser for all: the reports of one shape share the flaws'
       signatures, simulated once.  Only the Markdown and the JSON show
       it. */
    sb_diagnoser *diag = NULL;
    if (code == SB_EXIT_PASS && (o.markdown || o.json || o.html)
        && sb_diagnoser_new(&diag, sb_cli_threads_default(), cli->stop)
           == SB_OK)
        for (size_t i = 0; i < m && code == SB_EXIT_PASS; i++)
            if (sb_cli_diagnose(diag, &reps[i], 0, o.quiet, cli->stop))
                code = SB_EXIT_INTERRUPTED;
    sb_diagnoser_free(diag);
    for (size_t i = 0; i < m && code == SB_EXIT_PASS; i++) {
        if (strcmp(reps[i].run.literature, "uniform") != 0)
            continue;
        if (reps[i].verdict == SB_VERDICT_FAIL)
            code = SB_EXIT_FAIL;
        else if (reps[i].verdict == SB_VERDICT_SUSPECT)
            code = SB_EXIT_SUSPECT;
    }
    if (m > 0) {
        if (!o.quiet && !(o.json && strcmp(o.json, "-") == 0))
            sb_render_audit_text(stdout, reps, m);
        /* 1: the stop cut a write (sb_cli_finish_out). */
        const int md = o.markdown ? write_file(o.markdown, reps, m,
                                               sb_render_audit_markdown) : 0;
        const int js = o.json ? write_json(o.json, reps, m, &o.render) : 0;
        const int cs = o.csv ? write_csv(o.csv, reps, m) : 0;
        if (md < 0 || js < 0 || cs < 0)
            code = SB_EXIT_USAGE;
        else if (md > 0 || js > 0 || cs > 0) {
            sb_cli_error("interrupted while the report was written: what "
                         "was written is cut short");
            code = SB_EXIT_INTERRUPTED;
        }
        if (md == 0 && js == 0 && cs == 0)
            code = sb_cli_audit_html(o.html, reps, m, cli->command_line,
                                     o.render.no_timing, code);
    }
    for (size_t i = 0; i < m; i++)
        sb_report_release(&reps[i]);
    free(reps);
    return code;
}
