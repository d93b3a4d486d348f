/*
 * exact.c - 'shufflebias exact ALG --n N': walk every path of draws
 * and print the exact distribution of the outcomes.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "reports/exact_grid.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "engine/enumerate.h"
#include "engine/markov.h"
#include "sources/plugin.h"
#include "stats/exact.h"

typedef struct exact_options {
    const char *alg, *json, *markdown, *plugin;
    const char *html;         /* --html FILE: the page with the pictures */
    const char *command_line; /* as typed, quoted for a shell (the page
                                 states it) */
    int all;
    sb_kind kind;             /* --all: only this kind, 0 for every kind */
    uint64_t n, max_paths, max_depth;
    uint64_t memory;          /* --memory, 0: the default budget */
    int quiet;
    int walk;                 /* --walk: WALK_AUTO, WALK_PATHS, WALK_STATES */
    const char *expect;       /* --expect: "uniform" or "biased", NULL:
                                 none */
    sb_cli_params params;     /* --param K=V */
    /* --no-timing, --csv DIR: what the reports show. */
    sb_render_opts render;
    const char *csv;
} exact_options;

/* --max-depth D: 1 .. 1000000. */
static int set_max_depth(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    exact_options *o = base;
    if (sb_cli_parse_count(arg, &o->max_depth) != 0
        || o->max_depth > 1000000) {
        sb_cli_error("invalid --max-depth '%s': expected 1 to 1000000", arg);
        return -1;
    }
    return 0;
}

/* --expect uniform|biased: what the walk must prove. */
static int set_expect(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    exact_options *o = base;
    if (strcmp(arg, "uniform") != 0 && strcmp(arg, "biased") != 0) {
        sb_cli_error("invalid --expect '%s': expected uniform or biased",
                     arg);
        return -1;
    }
    o->expect = arg;
    o->render.expect = arg;
    return 0;
}

enum { WALK_AUTO, WALK_PATHS, WALK_STATES };

/* --walk auto|paths|states. */
static int set_walk(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    exact_options *o = base;
    static const char *const names[] = { "auto", "paths", "states" };
    for (int i = 0; i < 3; i++)
        if (strcmp(arg, names[i]) == 0) {
            o->walk = i;
            return 0;
        }
    sb_cli_error("invalid --walk '%s': expected auto, paths or states", arg);
    return -1;
}

#define ROW(name, arg, field, fn, help) \
    SB_OPT_ROW(name, 0, arg, exact_options, field, SB_OPT_NOWHERE, fn, help)

static const sb_option options[] = {
    ROW("n", "N", n, sb_opt_n, "deck size (default 3)"),
    ROW("plugin", "SO", plugin, sb_opt_string,
        "the shuffle of a C plug-in (the one called NAME when it holds "
        "several); see docs/own-shuffle.md"),
    ROW("param", "K=V", params, sb_opt_param,
        "an algorithm parameter (repeatable)"),
    ROW("max-paths", "P", max_paths, sb_opt_count,
        "path budget (default 2e8); refused before starting when the tree "
        "is known to be larger"),
    ROW("max-depth", "D", max_depth, set_max_depth,
        "draws per path before the path is cut and its mass reported as "
        "unexplored (default 4096; an algorithm that stops by a rule has "
        "its own, e.g. 9 passes)"),
    ROW("walk", "HOW", walk, set_walk,
        "states: walk the distinct decks after each step, with their exact "
        "weights (for a shuffle Markov in its deck, up to 20 cards: "
        "--max-paths then bounds the moves); paths: every path of draws; "
        "auto (the default): states where the shuffle allows it"),
    ROW("json", "FILE|-", json, sb_opt_string,
        "also write the table as JSON ('-': stdout, no table)"),
    ROW("memory", "SIZE", memory, sb_opt_memory,
        "memory budget for the exact table (and its JSON), such as 512M or "
        "2G (powers of 1024; default: half the memory the process may "
        "have, at most 16G); a walk that would need more is refused or "
        "stopped (exit 2), saying what it would need"),
    ROW("all", NULL, all, sb_opt_flag,
        "every built-in algorithm in turn (with the parameter that makes "
        "it enumerable where its defaults are not; one still over the path "
        "or memory budget is skipped, said on stderr)"),
    ROW("kind", "K", kind, sb_opt_kind,
        "with --all: only algorithms of kind K (permutation, draw or "
        "deal)"),
    ROW("markdown", "FILE", markdown, sb_opt_string,
        "the report for people, without timing (with --all: every "
        "algorithm, and a grid of them all at 3 or 4 cards)"),
    ROW("html", "FILE", html, sb_opt_string,
        "one self-contained page with the pictures: each algorithm's exact "
        "card x position heatmap and its distribution over the orders "
        "(with --all at 3 or 4 cards, a coloured grid of them all)"),
    ROW("no-timing", NULL, render.no_timing, sb_opt_flag,
        "leave out of the reports what differs between runs (time, "
        "memory), so that they compare byte for byte"),
    ROW("csv", "DIR", csv, sb_opt_string,
        "also write the outcomes and the exact matrix as CSV files into DIR "
        "(made if missing; with --all, one subdirectory per algorithm and "
        "the summary grid as grid-KIND.csv)"),
    ROW("quiet", NULL, quiet, sb_opt_flag, "print nothing but errors"),
    ROW("expect", "VERDICT", expect, set_expect,
        "uniform or biased: what the walk must prove, for a CI gate; exit "
        "0 when it does, 1 when it proves the other (2, 3 and 130 as "
        "without it); the reports say whether it held; not "
        "with --all"),
    SB_OPT_HELP,
    SB_OPT_END
};

const sb_command sb_command_exact = {
    .name = "exact",
    .run = sb_cmd_exact,
    .summary = "enumerate every path of a small deck: the exact bias",
    .synopsis =
    "usage: shufflebias exact ALG [options]\n"
    "       shufflebias exact --plugin SO [NAME] [options]\n"
    "       shufflebias exact --all [--n N] [--markdown FILE] [--json FILE]\n"
    "                               [--html FILE]\n"
    "\n"
    "Walk every path of random draws ALG can make on a small deck, each with\n"
    "its exact probability, and print the exact distribution of outcomes:\n"
    "fractions, the total-variation distance from uniform, and the exact\n"
    "card x position matrix.\n",
    .options = options,
    .epilogue =
    "Exit codes: 0 exactly uniform, 1 not uniform, 2 usage error or an\n"
    "algorithm that cannot be enumerated, 3 inconclusive (unexplored mass),\n"
    "130 interrupted (the report then gives the walk's totals only: paths,\n"
    "outcomes reached and the mass explored).  With --all: 0 when every\n"
    "walk is done (each algorithm's verdict is in the report), 2 and 130\n"
    "as above (interrupted: the walks done are reported, and the one cut\n"
    "short with its totals).  With --expect VERDICT: 0\n"
    "when the walk proves what was expected, 1 when it proves the other;\n"
    "2, 3 and 130 stand, never held.\n",
};

/* Returns -1 after printing an error, 1 after printing the usage (-h,
   --help), 0 otherwise. */
static int parse(int argc, char **argv, exact_options *o)
{
    *o = (exact_options){ .n = 3, .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
                          .max_depth = 0,
                          .render = { .expectation = 1 } };
    int next;
    const int rc = sb_options_parse(&sb_command_exact, argc, argv, o, &next);
    if (rc != 0)
        return rc;
    if (o->all) {
        /* Its JSON is one document of many walks, without the keys. */
        o->render.expectation = 0;
        if (o->expect) {
            sb_cli_error("exact: --expect goes with one algorithm, not with "
                         "--all");
            return -1;
        }
        if (next != argc || o->params.count || o->plugin) {
            sb_cli_error("exact --all takes no algorithm, no --plugin and "
                         "no --param");
            return -1;
        }
        return 0;
    }
    if (o->kind) {
        sb_cli_error("--kind goes with --all");
        return -1;
    }
    return sb_cli_shuffle_name("exact", argc, argv, next, o->plugin,
                               &o->alg);
}

/* With --expect: exactly uniform or not (exit 0 or 1) becomes 0 when it
   is what was expected, 1 when it is not; 2, 3 and 130 stand, and never
   count as held.  The reports judge it alike (sb_exact_expectation). */
static int expected_code(const char *expect, const sb_exact_report *rep,
                         int code)
{
    if (!expect || (code != SB_EXIT_PASS && code != SB_EXIT_FAIL))
        return code;
    const int held = sb_exact_expectation(rep, expect);
    return held > 0 ? SB_EXIT_PASS : held == 0 ? SB_EXIT_FAIL
                                               : SB_EXIT_SUSPECT;
}

static int exit_code(const sb_exact_report *rep)
{
    if (rep->partial)
        return SB_EXIT_INTERRUPTED;
    switch (rep->verdict) {
    case SB_EXACT_UNIFORM: return SB_EXIT_PASS;
    case SB_EXACT_BIASED: return SB_EXIT_FAIL;
    case SB_EXACT_INCONCLUSIVE: break;
    }
    return SB_EXIT_SUSPECT;
}

/* The Markdown report (--markdown) or the page (--html, 'html' set) of
   reps[0..m) into 'path': 'code' as it was, SB_EXIT_USAGE when it could
   not be written, SB_EXIT_INTERRUPTED when the stop cut it. */
static int write_report(const exact_options *o, const char *path, int html,
                        const char *title, const sb_exact_report *reps,
                        size_t m, const char *const *bias, int code)
{
    sb_render_opts ro = o->render;
    ro.command_line = o->command_line;
    sb_outfile out;
    if (sb_cli_open_out(&out, path) != 0)
        return SB_EXIT_USAGE;
    const int status = html
        ? sb_render_exact_html(out.f, title, reps, m, bias, &ro)
        : sb_render_exact_markdown(out.f, title, reps, m, bias);
    const int rc = sb_cli_finish_out(&out, status);
    return rc < 0 ? SB_EXIT_USAGE : rc > 0 ? SB_EXIT_INTERRUPTED : code;
}

/* --csv DIR with --all: each summary grid as DIR/grid-KIND.csv (the
   table an article shows, for a spreadsheet).  An exit code. */
static int write_grids(const char *dir, const sb_exact_report *reps,
                       size_t m)
{
    sb_exact_grid *grids;
    size_t count;
    if (sb_exact_grids(reps, m, &grids, &count) != SB_OK) {
        sb_cli_error("out of memory");
        return SB_EXIT_USAGE;
    }
    int code = SB_EXIT_PASS;
    for (size_t k = 0; k < count && code == SB_EXIT_PASS; k++) {
        char path[4096];
        sb_cli_csv_grid_path(dir, reps[grids[k].rows[0]].kind, path,
                             sizeof path);
        sb_outfile out;
        if (sb_cli_open_out(&out, path) != 0) {
            code = SB_EXIT_USAGE;
            break;
        }
        const int rc = sb_cli_finish_out(&out, sb_render_exact_grid_csv(
                                                   out.f, reps, &grids[k]));
        code = rc < 0 ? SB_EXIT_USAGE : rc > 0 ? SB_EXIT_INTERRUPTED : code;
    }
    sb_exact_grids_free(grids, count);
    return code;
}

/* The walk --walk asks for: cfg->markov set for a walk over states (a
   built-in's declaration, or the plug-in's of 'h' when it is not NULL),
   what it does to go to 'stats'.  0, or -1 after an error (--walk states for a
   shuffle whose states cannot be walked). */
static int choose_walk(const exact_options *o, const sb_plugin_handle *h,
                       sb_enum_config *cfg, sb_markov_stats *stats)
{
    cfg->merged = stats;
    if (o->walk == WALK_PATHS)
        return 0;
    const sb_markov *m = h ? sb_plugin_markov(h, cfg->alg)
                           : sb_markov_builtin(cfg->alg);
    sb_shape shape;
    sb_shuffle_shape(cfg->alg, &cfg->args, &shape);
    const char *why = sb_markov_refusal(m, &shape);
    if (o->walk == WALK_STATES && why && !o->all) {
        sb_cli_error("'%s' cannot be walked by its states: %s",
                     cfg->alg->name, why);
        return -1;
    }
    cfg->markov = why ? NULL : m;
    return 0;
}

/* After a walk's text report: how the walk went, when it merged states. */
static void print_walk(const exact_options *o, const sb_markov_stats *st)
{
    if (o->quiet || st->moves == 0 || (o->json && strcmp(o->json, "-") == 0))
        return;
    char paths[48];
    sb_render_count(paths, sizeof paths, st->paths);
    printf("walked by its states (Markov in its deck): %s paths of draws "
           "merged into %llu decks (at most %llu after one step), %llu "
           "moves\n", paths, (unsigned long long)st->states,
           (unsigned long long)st->peak, (unsigned long long)st->moves);
}

#define CHOSEN_LEN 1024

/* The parameters 't' is walked with at 'a' (its defaults fitted to n) and
   why, into 'buf' ("" for a shuffle without parameters). */
static void why_params(const sb_shuffle_type *t, const sb_shuffle_args *a,
                       char *buf, size_t len)
{
    buf[0] = '\0';
    if (t->n_params == 0)
        return;
    sb_shuffle_args d = *a;
    sb_shuffle_defaults(t, &d);
    char now[256], def[256];
    sb_shuffle_format_params(t, a, now, sizeof now);
    sb_shuffle_format_params(t, &d, def, sizeof def);
    if (strcmp(now, def) == 0)
        snprintf(buf, len, "%s, its defaults", now);
    else
        snprintf(buf, len, "%s, because its defaults (%s) do not suit %zu "
                 "cards", now, def, a->n);
}

/* Every built-in algorithm at n, for the checked-in reports. */
static int exact_all(const sb_cli *cli, const exact_options *o)
{
    size_t total = 0;
    while (sb_shuffle_types[total])
        total++;
    sb_exact_report *reps = calloc(total, sizeof *reps);
    const char **bias = calloc(total, sizeof *bias);
    /* Which parameters each walk had and why, and how it was walked. */
    char (*chosen)[CHOSEN_LEN] = calloc(total, sizeof *chosen);
    sb_markov_stats *how = calloc(total, sizeof *how);
    size_t m = 0;
    int code = reps && bias && chosen && how ? SB_EXIT_PASS
                                                : SB_EXIT_USAGE;
    for (size_t i = 0; i < total && code == SB_EXIT_PASS; i++) {
        const sb_shuffle_type *t = sb_shuffle_types[i];
        sb_enum_config cfg = {
            .option_advice = 1,
            .alg = t,
            .args = { .n = (size_t)o->n },
            .max_paths = o->max_paths,
            .max_depth = (size_t)o->max_depth,
            .stop = cli->stop,
            .memory = o->memory,
            .json = o->json != NULL,
        };
        char err[512];
        if ((o->kind && t->kind != o->kind)
            || sb_shuffle_fitted(t, &cfg.args, err, sizeof err) != SB_OK
            || sb_shuffle_exact_refusal(t, &cfg.args))
            continue;
        /* With --all, --walk states walks by states where it can. */
        choose_walk(o, NULL, &cfg, &how[m]);
        char *chose = chosen[m];
        why_params(t, &cfg.args, chose, CHOSEN_LEN);
        int rc = sb_enumerate(&cfg, &reps[m], err, sizeof err);
        if ((rc == SB_ERANGE || rc == SB_ENOTSUP) && t->exact_hint) {
            char params[256];
            sb_shuffle_format_params(t, &cfg.args, params, sizeof params);
            sb_shuffle_set_param(t, &cfg.args, t->exact_hint);
            snprintf(chose, CHOSEN_LEN, "%s, which it suggests for exact "
                     "mode, because at %s: %.400s", t->exact_hint, params,
                     err);
            choose_walk(o, NULL, &cfg, &how[m]);
            rc = sb_enumerate(&cfg, &reps[m], err, sizeof err);
        }
        if (rc == SB_ERANGE) {
            /* Over the path budget at this n even with its hint: the rest
               of the report is still worth having. */
            if (!o->quiet)
                fprintf(stderr, "shufflebias: skipping: %s\n", err);
            continue;
        }
        if (rc != SB_OK) {
            sb_cli_error("%s", err);
            code = SB_EXIT_USAGE;
            break;
        }
        bias[m] = t->bias;
        if (reps[m++].partial)
            code = SB_EXIT_INTERRUPTED;
    }
    /* Walked, or interrupted in a walk: the walks done and the one cut
       short (its report says so, with the totals it counted) are
       reported, as one walk's are. */
    const int walked = code == SB_EXIT_PASS || code == SB_EXIT_INTERRUPTED;
    /* The walks finished before the stop are whole: their tables are
       written whole, not cut as a table the stop came in the middle of
       (the renderers look at a report's stop flag). */
    for (size_t i = 0; code == SB_EXIT_INTERRUPTED && i + 1 < m; i++)
        reps[i].stop = NULL;
    if (walked && !o->quiet && !(o->json && strcmp(o->json, "-") == 0))
        for (size_t i = 0; i < m; i++) {
            if (chosen[i][0])
                printf("%s with %s\n", reps[i].algorithm, chosen[i]);
            sb_render_exact_text_with(stdout, &reps[i], &o->render);
            print_walk(o, &how[i]);
            fputc('\n', stdout);
        }
    /* What follows writes the reports, which the stop may cut. */
    int wcode = walked ? SB_EXIT_PASS : code;
    char title[96];
    snprintf(title, sizeof title, "Exact bias of every built-in %s at "
             "%llu cards", o->kind ? sb_kind_str(o->kind)
                                   : "shuffle", (unsigned long long)o->n);
    if (wcode == SB_EXIT_PASS && o->markdown)
        wcode = write_report(o, o->markdown, 0, title, reps, m, bias, wcode);
    if (wcode == SB_EXIT_PASS && o->html)
        wcode = write_report(o, o->html, 1, title, reps, m, bias, wcode);
    if (wcode == SB_EXIT_PASS && o->json) {
        json_t *root = json_object(), *list = json_array();
        json_object_set_new(root, "command", json_string("exact"));
        json_object_set_new(root, "n", json_integer((json_int_t)o->n));
        json_object_set_new(root, "partial",
                            json_boolean(code == SB_EXIT_INTERRUPTED));
        for (size_t i = 0; i < m; i++) {
            json_t *one = sb_exact_json(&reps[i]);
            json_object_del(one, "timing");   /* checked in: no timing */
            json_object_del(one, "memory");   /* nor the machine's memory */
            json_array_append_new(list, one);
        }
        json_object_set_new(root, "algorithms", list);
        sb_outfile out;
        if (sb_cli_open_out(&out, o->json) != 0) {
            json_decref(root);
            wcode = SB_EXIT_USAGE;
        } else {
            const int rc = sb_cli_close_out(&out, sb_render_json_value(
                                                out.f, root) == SB_OK);
            wcode = rc < 0 ? SB_EXIT_USAGE
                  : rc > 0 ? SB_EXIT_INTERRUPTED : wcode;
        }
    }
    for (size_t i = 0; i < m && wcode == SB_EXIT_PASS && o->csv; i++) {
        const int rc = sb_cli_csv_exact(o->csv, reps[i].algorithm, &reps[i]);
        wcode = rc < 0 ? SB_EXIT_USAGE : rc > 0 ? SB_EXIT_INTERRUPTED
                                                : wcode;
    }
    if (wcode == SB_EXIT_PASS && o->csv)
        wcode = write_grids(o->csv, reps, m);
    if (walked && code == SB_EXIT_PASS && wcode == SB_EXIT_INTERRUPTED)
        sb_cli_error("interrupted while the report was written: what was "
                     "written is cut short");
    if (wcode != SB_EXIT_PASS)
        code = wcode;
    for (size_t i = 0; i < m; i++)
        sb_exact_report_release(&reps[i]);
    free(reps);
    free(bias);
    free(chosen);
    free(how);
    return code;
}

/* One shuffle, built in or from a plug-in. */
static int exact_one(const sb_cli *cli, const exact_options *o,
                     const sb_shuffle_type *t, const sb_plugin_handle *h)
{
    sb_enum_config cfg = {
        .option_advice = 1,
        .alg = t,
        .plugin = o->plugin,
        .args = { .n = (size_t)o->n },
        .max_paths = o->max_paths,
        .max_depth = (size_t)o->max_depth,
        .stop = cli->stop,
        .memory = o->memory,
        /* One report's JSON is written outcome by outcome as it is made
           (sb_render_exact_json): no tree to hold. */
        .json = 0,
    };
    if (sb_cli_set_params(t, o->params.list, o->params.count, &cfg.args) != 0)
        return SB_EXIT_USAGE;
    sb_markov_stats walked;
    if (choose_walk(o, h, &cfg, &walked) != 0)
        return SB_EXIT_USAGE;
    sb_cli_progress progress;
    sb_cli_progress_init(&progress, o->quiet, t->name);
    progress.unit = cfg.markov ? "moves" : "paths";
    cfg.progress = sb_cli_progress_update;
    cfg.progress_ctx = &progress;

    sb_exact_report rep;
    char err[512];
    int rc = sb_enumerate(&cfg, &rep, err, sizeof err);
    sb_cli_progress_end(&progress);
    if (rc != SB_OK) {
        sb_cli_error("%s", err);
        return SB_EXIT_USAGE;
    }
    int code = exit_code(&rep);
    int cut = 0;      /* a write the stop cut (a pipe not read yet) */
    sb_outfile out;
    if (!o->quiet && !(o->json && strcmp(o->json, "-") == 0)) {
        const int wrc = sb_cli_open_out(&out, "-") != 0 ? -1
                      : sb_cli_finish_out(&out, sb_render_exact_text_with(
                                                    out.f, &rep, &o->render));
        if (wrc < 0)
            code = SB_EXIT_USAGE;
        cut |= wrc > 0;
        if (wrc == 0)
            print_walk(o, &walked);
    }
    if (o->json) {
        const int wrc = sb_cli_open_out(&out, o->json) != 0 ? -1
                      : sb_cli_finish_out(&out, sb_render_exact_json_with(
                                                    out.f, &rep, &o->render));
        if (wrc < 0)
            code = SB_EXIT_USAGE;
        cut |= wrc > 0;
    }
    if (o->csv && code != SB_EXIT_USAGE) {
        const int wrc = sb_cli_csv_exact(o->csv, NULL, &rep);
        if (wrc < 0)
            code = SB_EXIT_USAGE;
        cut |= wrc > 0;
    }
    /* The reports for people; an interrupted walk's say its totals, as
       the text and JSON do. */
    char title[160];
    snprintf(title, sizeof title, "Exact bias of %s at %zu cards", t->name,
             rep.n);
    const char *const bias[1] = { t->bias };
    const int before = code;
    if (o->markdown && code != SB_EXIT_USAGE)
        code = write_report(o, o->markdown, 0, title, &rep, 1, bias, code);
    if (o->html && code != SB_EXIT_USAGE)
        code = write_report(o, o->html, 1, title, &rep, 1, bias, code);
    cut |= code == SB_EXIT_INTERRUPTED && before != SB_EXIT_INTERRUPTED;
    /* Interrupted after the walk, while its report was written: said
       once (a walk interrupted before has said so in its report). */
    if (code != SB_EXIT_USAGE && cli->stop && *cli->stop) {
        if (!rep.partial)
            sb_cli_error("interrupted while the report was written%s",
                         cut ? ": what was written is cut short" : "");
        code = SB_EXIT_INTERRUPTED;
    }
    code = expected_code(o->expect, &rep, code);
    sb_exact_report_release(&rep);
    return code;
}

int sb_cmd_exact(const sb_cli *cli, int argc, char **argv)
{
    exact_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    /* Neither output may be the other, or the plug-in being run. */
    const sb_cli_path json = { "--json", o.json },
                      md = { "--markdown", o.markdown },
                      others[] = { { "--markdown", o.markdown },
                                   { "--plugin", o.plugin } },
                      csv_others[] = { { "--json", o.json },
                                       { "--markdown", o.markdown },
                                       { "--html", o.html },
                                       { "--plugin", o.plugin } };
    if (sb_cli_distinct(&json, others, 2) != 0
        || sb_cli_distinct(&md, others + 1, 1) != 0
        || sb_cli_can_write(o.json) != 0 || sb_cli_can_write(o.markdown) != 0
        || sb_cli_csv_check(o.csv, o.all ? SB_CLI_CSV_EXACT_ALL
                                         : SB_CLI_CSV_EXACT, csv_others, 4)
           != 0)
        return SB_EXIT_USAGE;
    /* Nor the page any of them. */
    const sb_cli_path html = { "--html", o.html },
                      html_others[] = { { "--json", o.json },
                                        { "--markdown", o.markdown },
                                        { "--plugin", o.plugin } };
    if (sb_cli_distinct(&html, html_others, 3) != 0
        || sb_cli_check_html(o.html) != 0)
        return SB_EXIT_USAGE;
    o.command_line = cli->command_line;
    int code = SB_EXIT_USAGE;
    sb_plugin_handle *plugin = NULL;
    const sb_shuffle_type *t = o.all ? NULL
                             : sb_cli_shuffle(o.alg, o.plugin, o.n, &plugin);
    if (o.all)
        code = exact_all(cli, &o);
    else if (t)
        code = exact_one(cli, &o, t, plugin);
    if (plugin)
        sb_plugin_close(plugin);
    return code;
}
