/*
 * merge.c - 'shufflebias merge A.state B.state ...': one report from
 * runs made apart.
 *
 * The runs must have sampled the same thing (algorithm, parameters, n,
 * source, statistics, stream version: sb_state_compatible).  Runs of one
 * seed are parts of one run (--part, or a run and its resumption made
 * elsewhere): their chunks must not overlap, or the same decks would be
 * counted twice.  Runs of different seeds are independent samples and
 * simply add up.  Because every count is an integer sum, the merged report
 * of the parts of a run equals that run's own report, count for count.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "engine/budget.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "engine/state.h"
#include "stats/battery.h"
#include "reports/render.h"

typedef struct merge_options {
    const char *json, *state;
    const char *html;         /* --html FILE: the page of the result */
    uint64_t memory;          /* --memory, 0: the default budget */
    int quiet, force;
    char **files;
    size_t n_files;
    /* --no-timing, --full-tables, --csv DIR: what the reports show. */
    sb_render_opts render;
    const char *csv;
} merge_options;

#define ROW(name, arg, field, fn, help) \
    SB_OPT_ROW(name, 0, arg, merge_options, field, SB_OPT_NOWHERE, fn, help)

static const sb_option options[] = {
    SB_OPT_GROUP("options:"),
    ROW("json", "FILE|-", json, sb_opt_string,
        "also write the result as JSON ('-': stdout, and no table)"),
    ROW("html", "FILE", html, sb_opt_string,
        "also write the result as one self-contained HTML page (the "
        "heatmap, each statistic against its expected counts)"),
    ROW("state", "FILE", state, sb_opt_string,
        "also save the merged counts, to go on with them ('test --resume "
        "FILE'); the files must share one seed"),
    ROW("force", NULL, force, sb_opt_flag,
        "replace an existing file at --state (it may hold another run's "
        "counts)"),
    ROW("no-timing", NULL, render.no_timing, sb_opt_flag,
        "leave out of the reports what differs between runs (time, threads, "
        "memory), so that they compare byte for byte"),
    ROW("full-tables", NULL, render.full_tables, sb_opt_flag,
        "list every cell of every table in the JSON, however many"),
    ROW("csv", "DIR", csv, sb_opt_string,
        "also write the tables as CSV files into DIR (made if missing)"),
    ROW("quiet", NULL, quiet, sb_opt_flag,
        "print nothing but errors; the exit code tells"),
    ROW("memory", "SIZE", memory, sb_opt_memory,
        "memory budget, as for 'test' (512M, 2G, 1.5GiB); the files are "
        "read one at a time, so a merge needs about three copies of one "
        "file's counts"),
    SB_OPT_HELP,
    SB_OPT_END
};

const sb_command sb_command_merge = {
    .name = "merge",
    .run = sb_cmd_merge,
    .summary = "combine runs saved with --state into one report",
    .synopsis =
    "usage: shufflebias merge A.state B.state ... [options]\n"
    "\n"
    "Combine runs saved with 'shufflebias test --state' into one report:\n"
    "the parts of a run split with --part I/K, or runs of the same\n"
    "algorithm, parameters, n and statistics on different seeds.  Files\n"
    "that do not match, or that hold the same chunk of the same seed, are\n"
    "refused.\n",
    .options = options,
    .epilogue =
    "Exit codes as for 'test': 0 no bias found, 1 bias found, 2 usage or\n"
    "input error, 3 inconclusive.  A merge that covers fewer samples than\n"
    "its runs asked for says so and is marked partial; its verdict stands\n"
    "for the samples it holds.\n",
};

/* Returns -1 after printing an error, 1 after printing the usage (-h,
   --help), 0 otherwise. */
static int parse(int argc, char **argv, merge_options *o)
{
    /* The report of a test, key for key: "expect" and
       "expectation_held" are there, null (a merge takes no --expect). */
    *o = (merge_options){ .render = { .expectation = 1 } };
    int next;
    const int rc = sb_options_parse(&sb_command_merge, argc, argv, o, &next);
    if (rc != 0)
        return rc;
    o->files = argv + next;
    o->n_files = (size_t)(argc - next);
    if (o->n_files == 0) {
        sb_cli_error("merge: which state files? e.g. 'shufflebias merge "
                     "a.state b.state'");
        return -1;
    }
    return 0;
}

/* The files read, and what they add up to. */
typedef struct merged {
    sb_state *st;             /* one per file */
    size_t n;
    uint64_t *seeds;          /* the distinct stage seeds, in file order */
    size_t n_seeds;
    uint64_t samples;         /* asked for: each seed's run once */
    sb_chunks *chunks;        /* per distinct seed: chunks held */
    sb_run_counts total;
    uint64_t budget, estimate; /* the memory budget, and the need */
} merged;

static void merged_free(merged *m)
{
    if (m->st && m->n) {
        sb_run_counts_free(&m->total, m->st[0].stats, m->st[0].n_stats);
        for (size_t k = 0; k < m->n; k++)
            sb_state_free(&m->st[k]);
    }
    if (m->chunks)
        for (size_t k = 0; k < m->n_seeds; k++)
            sb_chunks_free(&m->chunks[k]);
    free(m->chunks);
    free(m->seeds);
    free(m->st);
}

/* A file's accumulators once added to the total (its chunks stay, for
   the checks of the files after it): a merge of many files holds one
   file's counts at a time. */
static void free_counts(sb_state *st)
{
    sb_run_counts *c = &st->counts;
    if (c->acc)
        for (size_t i = 0; i < st->n_stats; i++)
            if (c->acc[i])
                st->stats[i]->free(c->acc[i]);
    free(c->acc);
    c->acc = NULL;
}

/* After the first file: the budget checked, and the total made.  The
   need is that of two threads' counts (the total, and the file's bytes
   read whole before they are parsed) with a resumed copy (a file's
   counts as read), the results, and with --state the copy a state file
   is built from.  0, or -1 after printing the error. */
static int start_total(const merge_options *o, merged *m)
{
    const sb_state *first = &m->st[0];
    m->budget = o->memory ? o->memory : sb_budget_default();
    m->estimate = sb_run_memory(first->stats, first->n_stats, &first->shape,
                                2, o->state != NULL, 1);
    if (m->estimate > m->budget) {
        char need[32], budget[32];
        sb_budget_str(m->estimate, need, sizeof need);
        sb_budget_str(m->budget, budget, sizeof budget);
        sb_cli_error("merge: the counts of '%s' need %s of memory to merge, "
                     "over the budget of %s: raise --memory", o->files[0],
                     need, budget);
        return -1;
    }
    if (sb_run_counts_alloc(&m->total, first->stats, first->n_stats,
                            &first->shape) != SB_OK) {
        sb_cli_error("out of memory");
        return -1;
    }
    return 0;
}

/* Read every file, check that they fit together and add them up.  0, or
   -1 after printing the error. */
static int gather(const merge_options *o, merged *m)
{
    char err[768];
    m->st = calloc(o->n_files, sizeof *m->st);
    m->seeds = calloc(o->n_files, sizeof *m->seeds);
    m->chunks = calloc(o->n_files, sizeof *m->chunks);
    if (!m->st || !m->seeds || !m->chunks) {
        sb_cli_error("out of memory");
        return -1;
    }
    const sb_state *first = &m->st[0];
    /* One file at a time: read, checked, added, and its counts freed. */
    for (size_t k = 0; k < o->n_files; k++) {
        if (sb_state_read(o->files[k], &m->st[k], err, sizeof err)
            != SB_OK) {
            sb_cli_error("%s", err);
            return -1;
        }
        m->n = k + 1;
        sb_state *st = &m->st[k];
        if (k == 0 && start_total(o, m) != 0)
            return -1;
        if (k > 0 && sb_state_compatible(first, st, err, sizeof err)
                     != SB_OK) {
            sb_cli_error("merge: '%s' is not a run of what '%s' ran: %s",
                         o->files[k], o->files[0], err);
            return -1;
        }
        if (st->stage != first->stage) {
            sb_cli_error("merge: '%s' is at escalation stage %u and '%s' "
                         "at stage %u: merge the states of one stage",
                         o->files[k], st->stage, o->files[0], first->stage);
            return -1;
        }
        size_t g = 0;
        while (g < m->n_seeds && m->seeds[g] != st->stage_seed)
            g++;
        if (g == m->n_seeds) {
            m->seeds[m->n_seeds++] = st->stage_seed;
            m->samples += st->stage_samples;
        } else {
            /* Another part of a run already seen: the same run. */
            size_t j = 0;
            while (m->st[j].stage_seed != st->stage_seed)
                j++;
            if (m->st[j].stage_samples != st->stage_samples) {
                sb_cli_error("merge: '%s' and '%s' share the seed %" PRIu64
                             " but ran %" PRIu64 " and %" PRIu64 " samples: "
                             "their chunks are not the same decks",
                             o->files[j], o->files[k], st->stage_seed,
                             m->st[j].stage_samples, st->stage_samples);
                return -1;
            }
        }
        uint64_t shared = 0;
        int rc = sb_chunks_union(&m->chunks[g], &st->counts.chunks, &shared);
        if (rc == SB_EINVAL) {
            sb_cli_error("merge: '%s' holds chunk %" PRIu64 " of the seed %"
                         PRIu64 " again (samples %" PRIu64 " onwards): "
                         "merging would count those decks twice",
                         o->files[k], shared, st->stage_seed,
                         shared * SB_CHUNK_SAMPLES);
            return -1;
        }
        if (rc == SB_OK)
            rc = sb_run_counts_merge(&m->total, &st->counts, first->stats,
                                     first->n_stats);
        if (rc != SB_OK) {
            sb_cli_error("merge: cannot add the counts of '%s': %s",
                         o->files[k], sb_status_str(rc));
            return -1;
        }
        free_counts(st);
    }
    return 0;
}

/* The report of the merged counts.  'm' must outlive it. */
static int fill_report(const merged *m, sb_report *rep)
{
    const sb_state *first = &m->st[0];
    memset(rep, 0, sizeof *rep);
    sb_run_info *run = &rep->run;
    run->algorithm = first->algorithm;
    run->plugin = first->plugin[0] ? first->plugin : NULL;
    snprintf(run->params, sizeof run->params, "%s", first->params);
    const sb_shuffle_type *t = run->plugin ? NULL
                             : sb_shuffle_find(first->algorithm);
    if (t)
        run->literature = t->literature == SB_LIT_UNIFORM ? "uniform"
                                                          : "biased";
    run->kind = first->shape.kind;
    run->n = first->shape.n;
    run->samples = m->samples;
    run->done = m->total.done;
    run->seed = m->seeds[0];
    run->rng = first->rng;
    sb_rng *rng;
    if (sb_rng_open(&rng, first->rng, m->seeds[0]) == SB_OK) {
        run->rng_seed = sb_rng_seed_used(rng, &run->rng_seed_bits);
        sb_rng_close(rng);
    }
    run->stream_version = (int)first->stream_version;
    run->partial = run->done < run->samples;
    if (m->total.has_tally) {
        run->tally_name = t && t->tally_name ? t->tally_name : "tally";
        run->tally = m->total.tally;
    }
    run->merged_files = m->n;
    run->memory_budget = m->budget;
    run->memory_estimate = m->estimate;
    run->threads = 1;
    run->merged_seeds = m->seeds;
    run->n_merged_seeds = m->n_seeds;
    char err[512];
    if (sb_report_results(rep, first->stats, first->n_stats, m->total.acc,
                          m->total.done, err, sizeof err) != SB_OK) {
        sb_cli_error("merge: %s", err);
        return -1;
    }
    return 0;
}

/* --state: the merged counts as one state, to resume.  0, or -1 after
   printing the error. */
static int save_merged(const merge_options *o, merged *m)
{
    if (m->n_seeds > 1) {
        sb_cli_error("merge: --state needs files of one seed: these hold "
                     "%zu seeds, and a state goes on with one", m->n_seeds);
        return -1;
    }
    sb_state out = m->st[0];
    out.part_first = out.part_end = 0;
    out.part = out.parts = 0;
    out.counts = m->total;
    out.counts.chunks = m->chunks[0];
    char err[512];
    if (sb_state_write(o->state, &out, err, sizeof err) != SB_OK) {
        sb_cli_error("%s", err);
        return -1;
    }
    return 0;
}

/* Before reading anything: no output is an input or another output, and
   each can be written (the state without throwing work away).  0, or -1
   after printing the error. */
static int check_outputs(const merge_options *o)
{
    /* The inputs, then --state, --json and --html: each output is
       checked against those before it, and --csv's files against all. */
    const size_t n = o->n_files;
    sb_cli_path *others = calloc(n + 3, sizeof *others);
    if (!others) {
        sb_cli_error("out of memory");
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        others[k] = (sb_cli_path){ "the input", o->files[k] };
    others[n] = (sb_cli_path){ "--state", o->state };
    others[n + 1] = (sb_cli_path){ "--json", o->json };
    others[n + 2] = (sb_cli_path){ "--html", o->html };
    int rc = sb_cli_distinct(&others[n + 1], others, n + 1) != 0
             || sb_cli_distinct(&others[n], others, n) != 0
             || sb_cli_distinct(&others[n + 2], others, n + 2) != 0
             || sb_cli_can_write(o->json) != 0
             || (o->html && sb_cli_check_html(o->html) != 0)
             || sb_cli_csv_check(o->csv, SB_CLI_CSV_TEST, others, n + 3)
                    != 0
             || (o->state && sb_cli_can_save(o->state, NULL, o->force) != 0)
             ? -1 : 0;
    free(others);
    return rc;
}

int sb_cmd_merge(const sb_cli *cli, int argc, char **argv)
{
    merge_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    if (check_outputs(&o) != 0)
        return SB_EXIT_USAGE;
    merged m = { 0 };
    sb_report rep;
    int code = SB_EXIT_USAGE;
    if (gather(&o, &m) == 0 && (!o.state || save_merged(&o, &m) == 0)
        && fill_report(&m, &rep) == 0) {
        code = rep.verdict == SB_VERDICT_FAIL ? SB_EXIT_FAIL
             : rep.verdict == SB_VERDICT_SUSPECT ? SB_EXIT_SUSPECT
                                                 : SB_EXIT_PASS;
        if ((!o.quiet || o.json || o.html)
            && sb_cli_diagnose(NULL, &rep, sb_cli_threads_default(),
                               o.quiet, cli->stop))
            code = SB_EXIT_INTERRUPTED;
        code = sb_cli_report(&rep, o.json, o.quiet, code, &o.render, o.csv);
        /* The page lists each file with the seed of its samples. */
        uint64_t *seeds = o.html ? calloc(m.n, sizeof *seeds) : NULL;
        for (size_t k = 0; seeds && k < m.n; k++)
            seeds[k] = m.st[k].stage_seed;
        code = sb_cli_merge_html(o.html, &rep, cli->command_line,
                                 o.render.no_timing, code,
                                 seeds ? (const char *const *)o.files : NULL,
                                 seeds);
        free(seeds);
        if (rep.run.partial)
            sb_cli_error("merge: the files hold %" PRIu64 " of the %" PRIu64
                         " samples their runs asked for", rep.run.done,
                         rep.run.samples);
        sb_report_release(&rep);
    }
    merged_free(&m);
    return code;
}
