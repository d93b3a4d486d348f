/*
 * render.h - renderers: they read an sb_report and write it, nothing more.
 * None computes a statistic or a p-value.
 */
#ifndef SB_REPORTS_RENDER_H
#define SB_REPORTS_RENDER_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "shufflebias/exact.h"
#include "shufflebias/report.h"
#include "shufflebias/stat.h"

/* The terminal table: one row per statistic, the verdict, the run's
   parameters and its time.  SB_OK or SB_EIO. */
int sb_render_text(FILE *f, const sb_report *rep);

/* The JSON document of DESIGN.md's "test" contract.  SB_OK, SB_EIO or
   SB_ENOMEM. */
int sb_render_json(FILE *f, const sb_report *rep);

/* "name=value,..." as a JSON object: integers as numbers, choices as
   strings (new reference). */
json_t *sb_params_json(const char *params);

/* The JSON object of one report (new reference), NULL when out of memory. */
json_t *sb_report_json(const sb_report *rep);
/* Write 'root' indented, then release it.  SB_OK, SB_EIO or SB_ENOMEM. */
int sb_render_json_value(FILE *f, json_t *root);

/* The verdict a report states at its top (JSON "verdict", the text's
   "verdict:" line), so that a script reading it alone is never misled:
   "error" when the run failed (its input went wrong: rep->run.input's
   error; or rep->run.error: a plug-in's error, a state that could not be
   saved), "incomplete" when it was interrupted, otherwise the battery's
   (sb_verdict_str: "pass", "suspect", "fail", or "not applicable" when no
   statistic could judge anything).  A merge of files that hold fewer
   samples than their runs asked for keeps the battery's verdict (it is
   marked partial).  (reports/outcome.c) */
const char *sb_report_verdict(const sb_report *rep);
/* Why that verdict is not a battery's pass, suspect or fail, in words
   ("interrupted after 65536 of 3000000 samples"); "" when it is. */
void sb_report_reason(const sb_report *rep, char *buf, size_t len);
/* The statistic a summary names as a run's worst: the applicable result
   of smallest Holm-adjusted p-value, ties (several at 1, or at the same
   adjusted value) broken by the raw p-value, then by the battery's order;
   NULL when none is applicable.  The audit's overview (text, Markdown,
   CSV, HTML) names it.  (reports/outcome.c) */
const sb_result *sb_report_worst(const sb_report *rep);
/* Whether the verdict at a report's top (sb_report_verdict) is the one
   'expect' names, "pass" or "fail": 1 it is, 0 it is not, -1 when there
   is nothing to hold it to ('expect' NULL, or a verdict that is neither:
   error, incomplete, suspect, n/a).  What the reports state of --expect,
   and what the command's exit code says (0 held, 1 not; -1 keeps its 2,
   3 or 130).  (reports/outcome.c) */
int sb_report_expectation(const sb_report *rep, const char *expect);
/* The same of an exact walk, 'expect' "uniform" or "biased": -1 when the
   walk was interrupted or is inconclusive (unexplored mass). */
int sb_exact_expectation(const sb_exact_report *rep, const char *expect);
/* The keys "expect" ('expect', or null) and "expectation_held" ('held'
   as the two above return it: true, false, or null for -1) into 'root'. */
void sb_expectation_json(json_t *root, const char *expect, int held);

/* The audit of many algorithms: one summary row per report (text and
   Markdown), or {"command": "audit", "runs": [...]} (JSON). */
int sb_render_audit_text(FILE *f, const sb_report *reps, size_t m);
int sb_render_audit_markdown(FILE *f, const sb_report *reps, size_t m);
int sb_render_audit_json(FILE *f, const sb_report *reps, size_t m);

/* The exact table of 'shufflebias exact': paths, every outcome (or, for
   many outcomes, the probability levels and the extremes), those never
   reached, the total-variation distance, the exact matrix and a one-line
   verdict. */
int sb_render_exact_text(FILE *f, const sb_exact_report *rep);
/* The same as JSON (DESIGN.md, "exact" keys).  Stopped while writing
   (rep->stop), a file is rewound and given the report that lists no
   outcome; a stream that cannot be rewound (a pipe) keeps what was
   written: SB_EINTR.  SB_OK, SB_EIO, SB_EINTR. */
int sb_render_exact_json(FILE *f, const sb_exact_report *rep);
json_t *sb_exact_json(const sb_exact_report *rep);

/* One Markdown section per algorithm for a checked-in report: its name,
   'bias' (one sentence), the table, what is never reached, the distance
   and the matrix; no timing, so that regenerating it changes nothing.
   'title' heads the document. */
int sb_render_exact_markdown(FILE *f, const char *title,
                             const sb_exact_report *reps, size_t m,
                             const char *const *bias);

/* ---- What a report shows besides its results: the same options for
   every format and command. ---- */

/* A table of more cells than this is summarized in JSON (its size, its
   extreme cells and ratios, "cells_listed": false) unless full_tables. */
#define SB_RENDER_CELLS_MAX 65536u

typedef struct sb_render_opts {
    int no_timing;            /* leave out whatever differs between runs
                                 of the same code on the same seed (time,
                                 threads, memory budget): two such reports
                                 compare byte for byte */
    int full_tables;          /* every cell of every table, however many */
    const char *command_line; /* the command as typed, for a reader to
                                 run again (HTML); NULL: not known */
    /* The outcome the command was told to expect (--expect of test and
       exact), stated under the text's verdict with whether it held
       (sb_report_expectation, sb_exact_expectation): "pass" or "fail"
       of a test, "uniform" or "biased" of an exact walk; NULL: none. */
    const char *expect;
    int expectation;          /* 1: the JSON holds "expect" and
                                 "expectation_held", both null without an
                                 expectation (the reports of the commands
                                 that take --expect); 0: neither key */
    /* A merge's state files as named on its command line, and the seed
       of each file's samples, rep->run.merged_files of each, for its
       page to list; NULL: not known (the page gives the count and the
       distinct seeds). */
    const char *const *merged_names;
    const uint64_t *merged_name_seeds;
} sb_render_opts;

/* The defaults: timing kept, large tables summarized, no expectation. */
#define SB_RENDER_OPTS_DEFAULT \
    ((sb_render_opts){0, 0, NULL, NULL, 0, NULL, NULL})

/* The JSON of one report with its tables (reports/json.c; 'o' NULL: the
   defaults), and the audit's (reports/audit.c) and the exact report's
   (reports/exact.c) with the same options.  With full_tables, an array
   of more than SB_RENDER_CELLS_MAX values (a table's cells, or the names
   of that many columns) stands in the tree as a placeholder string that
   sb_render_reports_json writes out value by value: write such a tree
   with it, not with sb_render_json_value or json_dump*. */
json_t *sb_report_json_with(const sb_report *rep, const sb_render_opts *o);
/* Write 'root' as sb_render_json_value does (indented, then released),
   each placeholder of a result of reps[0..m) replaced by its array, in
   the same layout, without building it: the memory of a listed table
   stays that of its result.  SB_OK, SB_EIO or SB_ENOMEM. */
int sb_render_reports_json(FILE *f, json_t *root, const sb_report *reps,
                           size_t m);
int sb_render_json_with(FILE *f, const sb_report *rep,
                        const sb_render_opts *o);
int sb_render_audit_json_with(FILE *f, const sb_report *reps, size_t m,
                              const sb_render_opts *o);
json_t *sb_exact_json_with(const sb_exact_report *rep,
                           const sb_render_opts *o);
/* The text reports and the streamed exact JSON with the same options
   (no_timing: no "time" line, no "timing" or "memory" keys). */
int sb_render_text_with(FILE *f, const sb_report *rep,
                        const sb_render_opts *o);
int sb_render_exact_text_with(FILE *f, const sb_exact_report *rep,
                              const sb_render_opts *o);
int sb_render_exact_json_with(FILE *f, const sb_exact_report *rep,
                              const sb_render_opts *o);

/* One self-contained HTML page (no script, no font or image fetched:
   every picture inline SVG), stating the command line, seed, source,
   stream version and thresholds.  SB_OK, SB_EIO or SB_ENOMEM.
   - sb_render_html: one run of 'test' or 'merge' (reports/html_test.c);
   - sb_render_audit_html: the overview and a section per run
     (reports/html_test.c);
   - sb_render_exact_html: one exact report or many ('exact --all'), with
     'bias' one sentence per report or NULL (reports/html_exact.c). */
int sb_render_html(FILE *f, const sb_report *rep, const sb_render_opts *o);
int sb_render_audit_html(FILE *f, const sb_report *reps, size_t m,
                         const sb_render_opts *o);
int sb_render_exact_html(FILE *f, const char *title,
                         const sb_exact_report *reps, size_t m,
                         const char *const *bias, const sb_render_opts *o);

/* CSV (reports/csv.c): the tables of a report as files with a header
   line, for spreadsheets.  The i-th table's file name (a plain name such
   as "position.csv", no directory) into 'name', SB_OK; SB_ERANGE when
   there is no i-th table.  Then its content. */
int sb_csv_name(const sb_report *rep, size_t i, char *name, size_t len);
int sb_render_csv(FILE *f, const sb_report *rep, size_t i);
/* The audit's overview as CSV: one line per run (algorithm, params,
   literature, verdict, the statistic of lowest Holm-adjusted p and that
   p), the file "audit.csv" beside each run's directory. */
int sb_render_audit_csv(FILE *f, const sb_report *reps, size_t m);
int sb_exact_csv_name(const sb_exact_report *rep, size_t i, char *name,
                      size_t len);
int sb_render_exact_csv(FILE *f, const sb_exact_report *rep, size_t i);
/* exact --all: the summary grid 'g' of reps (reports/exact_grid.h) as
   CSV, "grid.csv": algorithm, params, the exact probability of every
   outcome ("0/1" never reached), the distance. */
struct sb_exact_grid;
int sb_render_exact_grid_csv(FILE *f, const sb_exact_report *reps,
                             const struct sb_exact_grid *g);
/* "run.csv": key,value rows saying which run the files beside it are
   from ('command' the command's name; 'files' the other files written,
   space-separated, NULL: no row): the algorithm, its parameters, the
   samples, seed, source and thresholds, the verdict.  The audit's
   overview one, and an exact walk's (its paths, verdict and distance). */
int sb_render_run_csv(FILE *f, const sb_report *rep, const char *command,
                      const char *files);
int sb_render_audit_run_csv(FILE *f, const sb_report *reps, size_t m,
                            const char *files);
int sb_render_exact_run_csv(FILE *f, const sb_exact_report *rep,
                            const char *files);

/* A p-value as people read it: "0.4172", "3.1e-09", "< 1e-300". */
void sb_render_pvalue(char *buf, size_t len, double p, int underflow);

/* A count of paths for people: the number, or "18446744073709551615 or
   more" for a count that saturated (a walk over states stands for more
   paths than 64 bits hold).  And for JSON: an integer up to 2^63 - 1 (the
   largest a JSON integer here holds), a real beyond. */
void sb_render_count(char *buf, size_t len, uint64_t count);

/* 's' as the text of a Markdown table cell: '|' and the characters that
   start markup ('\\', '`', '*', '_', '[', ']') behind a backslash, '<'
   and '&' as HTML entities (a CI's step summary renders HTML), newlines
   as spaces. */
void sb_render_md_cell(FILE *f, const char *s);
json_t *sb_count_json(uint64_t count);

/* The figures of 'shufflebias bench': the command measures them, these
   render them (reports/bench.c). */
typedef struct sb_bench_row {
    const char *name;         /* "fisher-yates + position" */
    const char *kind;         /* gsl, bare, position, battery, exact or
                                 checked */
    const char *algorithm;    /* "gsl_ran_shuffle" or the shuffle's name */
    size_t n;                 /* deck size */
    unsigned threads;
    uint64_t count;           /* decks (exact: paths) per measurement */
    const double *ns;         /* ns per deck (exact: per path), one per
                                 round done */
    double median, min, max;  /* over the rounds done */
    double ratio;             /* median / the GSL row's median at this n */
    const sb_stat_type *const *stats;   /* the statistics counted */
    size_t n_stats;
} sb_bench_row;

/* A target, the figure measured and whether it is met. */
typedef struct sb_bench_target {
    const char *name;
    const char *compare;      /* "at most" or "at least" */
    double limit, measured;
    int met;
} sb_bench_target;

typedef struct sb_bench_report {
    unsigned rounds;          /* finished by every row */
    unsigned rounds_asked;
    int quick;                /* --quick: tiny runs */
    const sb_bench_row *rows; /* in table order: by n, GSL's row first */
    size_t n_rows;
    /* The battery of fisher-yates on 52 cards, on 1 thread and on
       'battery_threads' (battery_stats 0: not run). */
    size_t battery_stats;
    unsigned battery_threads;
    double rate_one, rate_two;  /* decks per second */
    double per_core;          /* the smaller of rate_one and rate_two per
                                 thread */
    double speedup;           /* rate_two / rate_one */
    const char *const *skipped;         /* rows left out, and why */
    size_t n_skipped;
    const sb_bench_target *targets;
    size_t n_targets;
} sb_bench_report;

/* The table for people; SB_OK or SB_EIO. */
int sb_render_bench_text(FILE *f, const sb_bench_report *b);
/* {"command": "bench", ...} (new reference), NULL when out of memory. */
json_t *sb_bench_json(const sb_bench_report *b);

#endif /* SB_REPORTS_RENDER_H */
