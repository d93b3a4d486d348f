/* common.c - parsing, errors and progress shared by the commands. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gsl/gsl_rng.h>

#include "algorithms/registry.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "base/names.h"
#include "base/rng.h"
#include "engine/diagnose.h"
#include "engine/escalate.h"
#include "sources/external.h"
#include "sources/plugin.h"
#include "engine/runner.h"
#include "engine/session.h"
#include "sources/sample_check.h"
#include "engine/state.h"
#include "stats/registry.h"

void sb_cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("shufflebias: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int sb_cli_parse_count(const char *s, uint64_t *out)
{
    const uint64_t limit = (uint64_t)1 << 62;
    /* Decimal digits, a point and an exponent only (strtod would also take
       hexadecimal, "inf" and "nan"), then at most one suffix. */
    size_t body = strspn(s, "0123456789.eE+-");
    if (body == 0 || !isdigit((unsigned char)s[0]))
        return -1;
    double scale = 1;
    switch (s[body]) {
    case '\0': break;
    case 'k': case 'K': scale = 1e3; break;
    case 'M': scale = 1e6; break;
    case 'G': scale = 1e9; break;
    default: return -1;
    }
    if (s[body] && s[body + 1])
        return -1;
    char number[64];
    if (body >= sizeof number)
        return -1;
    memcpy(number, s, body);
    number[body] = '\0';
    if (scale == 1 && strspn(number, "0123456789") == body) {
        /* A whole decimal number is read exactly, not through a double. */
        errno = 0;
        unsigned long long v = strtoull(number, NULL, 10);
        if (errno == ERANGE || v < 1 || v > limit)
            return -1;
        *out = v;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(number, &end) * scale;
    if (*end || errno == ERANGE || !(v >= 1) || v > (double)limit
        || v != floor(v))
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int sb_cli_parse_seed(const char *s, uint64_t *out)
{
    /* Decimal, or hexadecimal after "0x": never octal, so that "010" is
       ten, as a person reads it. */
    const int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    if (!*digits || strspn(digits, hex ? "0123456789abcdefABCDEF"
                                       : "0123456789") != strlen(digits))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(digits, NULL, hex ? 16 : 10);
    if (errno == ERANGE || v > (unsigned long long)INT64_MAX)
        return -1;
    *out = v;
    return 0;
}

int sb_cli_opt_n(const char *arg, uint64_t *out)
{
    if (sb_cli_parse_count(arg, out) == 0 && *out <= SB_DECK_MAX)
        return 0;
    sb_cli_error("invalid --n '%s': expected a deck size from 1 to %u", arg,
                 SB_DECK_MAX);
    return -1;
}

int sb_cli_opt_count(const char *option, const char *arg, uint64_t *out)
{
    if (sb_cli_parse_count(arg, out) == 0)
        return 0;
    sb_cli_error("invalid --%s '%s': expected a count such as 200000, 1e6 "
                 "or 10M", option, arg);
    return -1;
}

int sb_cli_opt_seed(const char *arg, uint64_t *out)
{
    if (sb_cli_parse_seed(arg, out) == 0)
        return 0;
    sb_cli_error("invalid --seed '%s': expected an integer from 0 to "
                 "2^63-1", arg);
    return -1;
}

int sb_cli_opt_param(const char **params, size_t *count, const char *arg)
{
    if (*count == SB_CLI_PARAMS_MAX) {
        sb_cli_error("too many --param options");
        return -1;
    }
    params[(*count)++] = arg;
    return 0;
}

int sb_cli_opt_kind(const char *arg, sb_kind *out)
{
    for (unsigned k = SB_KIND_PERMUTATION; k <= SB_KIND_DEAL; k <<= 1)
        if (strcmp(arg, sb_kind_str((sb_kind)k)) == 0) {
            *out = (sb_kind)k;
            return 0;
        }
    sb_cli_error("unknown kind '%s'; valid: permutation, draw, deal", arg);
    return -1;
}

void sb_cli_bad_option(const char *command, const char *arg)
{
    sb_cli_error("unknown or incomplete option '%s'; try 'shufflebias %s "
                 "--help'", arg, command);
}

int sb_cli_positional(const char *command, int argc, char **argv, int optind,
                      const char **name)
{
    if (optind + 1 == argc) {
        *name = argv[optind];
        return 0;
    }
    if (optind == argc)
        sb_cli_error("%s: which algorithm? try 'shufflebias list'", command);
    else
        sb_cli_error("%s: one algorithm at a time", command);
    return -1;
}

const sb_shuffle_type *sb_cli_algorithm_n(const char *name, uint64_t n)
{
    const sb_shuffle_type *t = sb_cli_algorithm(name);
    if (t && (n < t->n_min || n > t->n_max)) {
        sb_cli_error("n = %llu is out of range for '%s' (%zu..%zu)",
                     (unsigned long long)n, t->name, t->n_min, t->n_max);
        return NULL;
    }
    return t;
}

const sb_shuffle_type *sb_cli_shuffle(const char *name, const char *plugin,
                                      uint64_t n, sb_plugin_handle **h)
{
    *h = NULL;
    if (!plugin)
        return sb_cli_algorithm_n(name, n);
    const sb_shuffle_type *t;
    char err[512];
    if (sb_plugin_open(h, plugin, name, &t, err, sizeof err) != SB_OK) {
        sb_cli_error("%s", err);
        return NULL;
    }
    if (n < t->n_min || n > t->n_max) {
        sb_cli_error("n = %llu is out of range for '%s' (%zu..%zu)",
                     (unsigned long long)n, t->name, t->n_min, t->n_max);
        sb_plugin_close(*h);
        *h = NULL;
        return NULL;
    }
    return t;
}

int sb_cli_shuffle_name(const char *command, int argc, char **argv,
                        int optind, const char *plugin, const char **name)
{
    if (plugin && optind == argc) {
        *name = NULL;
        return 0;
    }
    if (plugin && optind + 1 < argc) {
        sb_cli_error("%s: one shuffle of the plug-in at a time", command);
        return -1;
    }
    return sb_cli_positional(command, argc, argv, optind, name);
}

uint64_t sb_cli_fresh_seed(void)
{
    uint64_t x = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&x, sizeof x, 1, f) != 1) {
        struct timespec ts;
        timespec_get(&ts, TIME_UTC);
        x = sb_mix64((uint64_t)ts.tv_sec ^ sb_mix64((uint64_t)ts.tv_nsec)
                     ^ sb_mix64((uint64_t)getpid()));
    }
    if (f)
        fclose(f);
    return x >> 11;
}

const sb_shuffle_type *sb_cli_algorithm_find(const char *name, char *why,
                                             size_t len)
{
    const sb_shuffle_type *t = sb_shuffle_find(name);
    if (t)
        return t;
    const char *nearest = NULL;
    size_t best = SB_NAME_NEAR_MAX;
    char valid[1024] = "";
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        sb_name_nearer(name, (*p)->name, &best, &nearest);
        if (strlen(valid) + strlen((*p)->name) + 3 < sizeof valid) {
            if (valid[0])
                strcat(valid, ", ");
            strcat(valid, (*p)->name);
        }
    }
    char hint[96];
    sb_name_hint(hint, sizeof hint, nearest);
    snprintf(why, len, "unknown algorithm '%s'%s; valid: %s", name, hint,
             valid);
    return NULL;
}

const sb_shuffle_type *sb_cli_algorithm(const char *name)
{
    char why[1280];
    const sb_shuffle_type *t = sb_cli_algorithm_find(name, why, sizeof why);
    if (!t)
        sb_cli_error("%s", why);
    return t;
}

int sb_cli_set_params(const sb_shuffle_type *t, const char *const *assign,
                      size_t count, sb_shuffle_args *args)
{
    sb_shuffle_defaults(t, args);
    for (size_t i = 0; i < count; i++) {
        int rc = sb_shuffle_set_param(t, args, assign[i]);
        if (rc == SB_OK)
            continue;
        char valid[512] = "";
        for (size_t k = 0; k < t->n_params; k++) {
            const sb_param_def *p = &t->params[k];
            size_t used = strlen(valid);
            if (p->choices) {
                snprintf(valid + used, sizeof valid - used, "%s%s=", k ? "; " : "",
                         p->name);
                for (size_t c = 0; p->choices[c]; c++) {
                    used = strlen(valid);
                    snprintf(valid + used, sizeof valid - used, "%s%s",
                             c ? "|" : "", p->choices[c]);
                }
            } else {
                snprintf(valid + used, sizeof valid - used, "%s%s=%ld..%ld",
                         k ? "; " : "", p->name, p->min, p->max);
            }
        }
        if (t->n_params == 0)
            sb_cli_error("'%s' takes no parameters (got '%s')", t->name,
                         assign[i]);
        else if (rc == SB_ENOTFOUND)
            sb_cli_error("unknown parameter '%s' for '%s'; valid: %s",
                         assign[i], t->name, valid);
        else
            sb_cli_error("invalid --param '%s' for '%s'; valid: %s",
                         assign[i], t->name, valid);
        return -1;
    }
    return 0;
}

int sb_cli_check_rng(const char *name)
{
    sb_rng *r;
    int rc = sb_rng_open(&r, name, 1);
    sb_rng_close(r);
    if (rc != SB_ENOTFOUND)
        return 0;      /* a seed-specific refusal is reported by the run */
    char valid[4096] = "", hint[96];
    const char *nearest = NULL;
    size_t best = SB_NAME_NEAR_MAX;
    for (const sb_rng_info *b = sb_rng_builtin; b->name; b++) {
        sb_name_nearer(name, b->name, &best, &nearest);
        if (valid[0])
            strcat(valid, ", ");
        strcat(valid, b->name);
    }
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++) {
        sb_name_nearer(name, (*t)->name, &best, &nearest);
        if (strlen(valid) + strlen((*t)->name) + 3 < sizeof valid) {
            strcat(valid, ", ");
            strcat(valid, (*t)->name);
        }
    }
    sb_name_hint(hint, sizeof hint, nearest);
    sb_cli_error("unknown randomness source '%s'%s; valid: %s", name, hint,
                 valid);
    return -1;
}

int sb_cli_stats(const char *list, const sb_shape *shape,
                 const sb_stat_type **out, size_t max, size_t *count)
{
    char err[2048];
    if (sb_run_stats(list, "--tests", shape, out, max, count, err,
                     sizeof err) != SB_OK) {
        sb_cli_error("%s", err);
        return -1;
    }
    return 0;
}

#define RUN_STATS_MAX 32

/* The progress line of a run, relabelled for each later stage. */
typedef struct cli_session {
    sb_cli_progress *progress;
    const char *name;          /* the algorithm's, NULL for a program */
    char label[96];
} cli_session;

static void cli_stage(void *ctx, unsigned stage, unsigned escalations)
{
    cli_session *c = ctx;
    if (c->name)
        snprintf(c->label, sizeof c->label, "%s, suspect: escalation %u of "
                 "%u", c->name, stage, escalations);
    else
        snprintf(c->label, sizeof c->label, "suspect: escalation %u of %u",
                 stage, escalations);
    sb_cli_progress_relabel(c->progress, c->label);
}

/* A state that could not be saved is said once; the run goes on. */
static void cli_save_failed(void *ctx, const char *err)
{
    cli_session *c = ctx;
    sb_cli_progress_end(c->progress);
    sb_cli_error("%s; the run goes on", err);
}

int sb_cli_run_external(const sb_external_spec *spec, uint64_t seed,
                        uint64_t samples, const char *tests, int quiet,
                        unsigned escalations, sb_report *rep,
                        sb_input_info *info, int *input_error)
{
    const char *what = spec->command ? spec->command : spec->path;
    char err[512];
    sb_external *first;
    int rc = sb_external_open(&first, spec, seed, samples, err, sizeof err);
    if (rc != SB_OK) {
        sb_cli_error("%s: %s", spec->command ? "--exec" : "--input", err);
        return rc == SB_EINTR ? 1 : -1;
    }
    const sb_feed *feed = sb_external_feed(first);
    const sb_stat_type *stats[RUN_STATS_MAX];
    size_t n_stats;
    if (sb_cli_stats(tests, &feed->shape, stats, RUN_STATS_MAX, &n_stats)
        != 0) {
        const sb_report none = { 0 };
        sb_external_close(first, &none, info);
        return -1;
    }
    sb_cli_progress progress;
    sb_cli_progress_init(&progress, quiet, what);
    cli_session session = { .progress = &progress };
    const sb_run_hooks hooks = { .stage = cli_stage, .ctx = &session };
    rc = sb_run_session_external(first, spec, stats, n_stats, seed, samples,
                                 escalations, sb_cli_progress_update,
                                 &progress, &hooks, rep, info, input_error,
                                 err, sizeof err);
    sb_cli_progress_end(&progress);
    if (rc != SB_OK) {
        sb_cli_error("%s: %s", spec->command ? "--exec" : "--input", err);
        return -1;
    }
    return 0;
}

int sb_cli_opt_escalate(const char *arg, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(arg, &end, 10);
    if (errno || end == arg || *end || arg[0] == '-'
        || v >= SB_STAGES_MAX) {
        sb_cli_error("invalid --escalate '%s': give 0 (never re-run a "
                     "suspect result) to %u", arg, SB_STAGES_MAX - 1);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

int sb_cli_run(sb_run_config *cfg, const char *tests, int quiet,
               unsigned escalations, sb_cli_keep *keep,
               sb_report *rep)
{
    char err[512];
    sb_shape shape;
    if (sb_run_shape(cfg, &shape, err, sizeof err) != SB_OK) {
        sb_cli_error("%s", err);
        return -1;
    }
    const sb_stat_type *stats[RUN_STATS_MAX];
    size_t n_stats;
    if (sb_cli_stats(tests, &shape, stats, RUN_STATS_MAX, &n_stats) != 0)
        return -1;
    sb_cli_progress progress;
    sb_cli_progress_init(&progress, quiet, cfg->alg->name);
    cfg->progress = sb_cli_progress_update;
    cfg->progress_ctx = &progress;
    cli_session session = { .progress = &progress, .name = cfg->alg->name };
    const sb_run_hooks hooks = { .stage = cli_stage,
                                 .save_failed = cli_save_failed,
                                 .ctx = &session };
    int rc = sb_run_session(cfg, stats, n_stats, escalations, keep, &hooks,
                            rep, err, sizeof err);
    sb_cli_progress_end(&progress);
    cfg->progress = NULL;
    cfg->progress_ctx = NULL;
    if (rc != SB_OK) {
        sb_cli_error("%s", err);
        return -1;
    }
    return 0;
}

int sb_cli_opt_threads(const char *arg, unsigned *out)
{
    uint64_t v;
    if (sb_cli_parse_count(arg, &v) == 0 && v <= SB_CLI_THREADS_MAX) {
        *out = (unsigned)v;
        return 0;
    }
    sb_cli_error("invalid --threads '%s': expected 1 to %u", arg,
                 SB_CLI_THREADS_MAX);
    return -1;
}

unsigned sb_cli_threads_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > (long)SB_CLI_THREADS_MAX ? SB_CLI_THREADS_MAX
                                                     : (unsigned)n;
}

int sb_cli_diagnose(sb_diagnoser *d, sb_report *rep, unsigned threads,
                    int quiet, volatile sig_atomic_t *stop)
{
    if (rep->verdict == SB_VERDICT_FAIL && !rep->run.partial && !quiet
        && isatty(STDERR_FILENO))
        fprintf(stderr, "diagnosing: simulating the catalogue's flaws...\r");
    char err[512];
    const int st = d ? sb_diagnose(d, rep, err, sizeof err)
                     : sb_diagnose_once(rep, threads, stop, err, sizeof err);
    if (rep->verdict == SB_VERDICT_FAIL && !rep->run.partial && !quiet
        && isatty(STDERR_FILENO))
        fprintf(stderr, "%50s\r", "");
    if (st == SB_EINTR) {
        sb_cli_error("diagnosis interrupted: the report has none");
        return 1;
    }
    if (st != SB_OK)
        sb_cli_error("no diagnosis: %s", err);
    return 0;
}

int sb_cli_report(const sb_report *rep, const char *json, int quiet,
                  int code, const sb_render_opts *ro, const char *csv)
{
    return sb_cli_report_with(rep, json, quiet, code, NULL, NULL, ro, csv);
}

/* The JSON report, with 'value' under 'key' when given (taken over). */
static int render_json_with(FILE *f, const sb_report *rep, const char *key,
                            json_t *value, const sb_render_opts *ro)
{
    if (!key)
        return sb_render_json_with(f, rep, ro);
    json_t *root = sb_report_json_with(rep, ro);
    if (root && value)
        json_object_set(root, key, value);
    json_decref(value);
    return sb_render_reports_json(f, root, rep, 1);
}

int sb_cli_report_with(const sb_report *rep, const char *json, int quiet,
                       int code, const char *key, json_t *value,
                       const sb_render_opts *ro, const char *csv)
{
    const int json_on_stdout = json && strcmp(json, "-") == 0;
    /* Nothing judged: not a pass, whatever a CI gate makes of exit 0. */
    if (code == SB_EXIT_PASS && rep->verdict == SB_VERDICT_NA)
        code = SB_EXIT_SUSPECT;
    int cut = 0;          /* a write was cut by the run's stop */
    sb_outfile out;
    if (!quiet && !json_on_stdout) {
        const int rc = sb_cli_open_out(&out, "-") != 0 ? -1
                     : sb_cli_finish_out(&out, sb_render_text_with(out.f, rep,
                                                                   ro));
        if (rc < 0)
            code = SB_EXIT_USAGE;
        cut |= rc > 0;
    }
    if (json) {
        const int rc = sb_cli_open_out(&out, json) != 0 ? -1
                     : sb_cli_finish_out(&out, render_json_with(
                           out.f, rep, key, json_incref(value), ro));
        if (rc < 0)
            code = SB_EXIT_USAGE;
        cut |= rc > 0;
    }
    if (csv) {
        const int rc = sb_cli_csv_report(csv, NULL, rep->run.merged_files
                                                    ? "merge" : "test", rep);
        if (rc < 0)
            code = SB_EXIT_USAGE;
        cut |= rc > 0;
    }
    json_decref(value);
    if (cut && code != SB_EXIT_USAGE) {
        code = SB_EXIT_INTERRUPTED;
        /* A partial run is said to be interrupted by its command. */
        if (!rep->run.partial)
            sb_cli_error("interrupted while the report was written: "
                         "what was written is cut short");
    }
    /* A result, not an error (exit 3 says it, and the JSON's "reason"
       gives it): --quiet keeps it off stderr too. */
    if (!quiet && rep->verdict == SB_VERDICT_NA && !rep->run.partial) {
        char why[512];
        sb_report_reason(rep, why, sizeof why);
        sb_cli_error("inconclusive: %s", why);
    }
    return code;
}

int sb_cli_csv_prepare(const char *dir)
{
    if (!dir)
        return 0;
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return 0;
        sb_cli_error("--csv '%s' is not a directory", dir);
        return -1;
    }
    /* Missing: made when the files are written (so that a usage error
       found later leaves nothing behind), in a parent that must exist
       and take it now, so that a long run never ends unable to. */
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dir);
    size_t len = strlen(parent);
    while (len > 1 && parent[len - 1] == '/')
        parent[--len] = '\0';
    char *slash = strrchr(parent, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else
        slash[slash == parent] = '\0';     /* "/x": the root */
    int e = errno;
    if (e == ENOENT && (stat(parent, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        e = errno ? errno : ENOTDIR;
    else if (e == ENOENT && access(parent, W_OK | X_OK) != 0)
        e = errno;
    else if (e == ENOENT)
        return 0;
    sb_cli_error("--csv: cannot make the directory '%s': %s", dir,
                 strerror(e));
    return -1;
}

int sb_cli_csv_make(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return 0;
    /* EEXIST: made meanwhile, by another run or as something else. */
    if (mkdir(path, 0777) != 0
        && (errno != EEXIST || stat(path, &sb) != 0
            || !S_ISDIR(sb.st_mode))) {
        sb_cli_error("--csv: cannot make the directory '%s': %s", path,
                     errno == EEXIST ? "a file of that name is in the way"
                                     : strerror(errno));
        return -1;
    }
    return 0;
}

/* DIR, or DIR/SUB, made when missing, into 'buf'.  0, or -1 after
   printing the error. */
static int csv_place(const char *dir, const char *sub, char *buf,
                     size_t len)
{
    if (sb_cli_csv_make(dir) != 0)
        return -1;
    if (!sub) {
        snprintf(buf, len, "%s", dir);
        return 0;
    }
    if ((size_t)snprintf(buf, len, "%s/%s", dir, sub) >= len) {
        sb_cli_error("--csv: the path '%s/%s' is too long", dir, sub);
        return -1;
    }
    return sb_cli_csv_make(buf);
}

/* One CSV file, 'path', through a temporary file put in place when
   whole: 0, -1 after printing the error, 1 when the stop cut it. */
typedef int (*csv_render_fn)(FILE *f, const void *rep, size_t i,
                             const char *command, const char *files);

static int csv_write(const char *path, const void *rep, size_t i,
                     const char *command, const char *files,
                     csv_render_fn render)
{
    sb_outfile out;
    return sb_cli_open_out(&out, path) != 0 ? -1
         : sb_cli_finish_out(&out, render(out.f, rep, i, command, files));
}

/* The CSV files of one report: 'name' gives the i-th file's name (SB_OK)
   or says there is none (SB_ERANGE), 'render' writes it (i), then
   'run' the run.csv that lists them (i unused).  The directory is made
   only when a file goes into it. */
static int csv_files(const char *dir, const char *sub, const void *rep,
                     const char *command,
                     int (*name)(const void *, size_t, char *, size_t),
                     csv_render_fn render, csv_render_fn run)
{
    char place[4096], file[64], path[4096 + 80];
    char files[4096] = "";
    size_t used = 0;
    if (csv_place(dir, sub, place, sizeof place) != 0)
        return -1;
    for (size_t i = 0; name(rep, i, file, sizeof file) == SB_OK; i++) {
        snprintf(path, sizeof path, "%s/%s", place, file);
        const int rc = csv_write(path, rep, i, command, NULL, render);
        if (rc != 0)
            return rc;
        /* A name too long for the list is left out of it (none is: they
           are the statistics' names). */
        const int w = snprintf(files + used, sizeof files - used, "%s%s",
                               used ? " " : "", file);
        if (w > 0 && (size_t)w < sizeof files - used)
            used += (size_t)w;
        else
            files[used] = '\0';
    }
    snprintf(path, sizeof path, "%s/run.csv", place);
    return csv_write(path, rep, 0, command, files, run);
}

static int csv_test_name(const void *rep, size_t i, char *name, size_t len)
{
    return sb_csv_name(rep, i, name, len);
}

static int csv_test_render(FILE *f, const void *rep, size_t i,
                           const char *command, const char *files)
{
    (void)command;
    (void)files;
    return sb_render_csv(f, rep, i);
}

static int csv_test_run(FILE *f, const void *rep, size_t i,
                        const char *command, const char *files)
{
    (void)i;
    return sb_render_run_csv(f, rep, command, files);
}

static int csv_exact_name(const void *rep, size_t i, char *name, size_t len)
{
    return sb_exact_csv_name(rep, i, name, len);
}

static int csv_exact_render(FILE *f, const void *rep, size_t i,
                            const char *command, const char *files)
{
    (void)command;
    (void)files;
    return sb_render_exact_csv(f, rep, i);
}

static int csv_exact_run(FILE *f, const void *rep, size_t i,
                         const char *command, const char *files)
{
    (void)i;
    (void)command;
    return sb_render_exact_run_csv(f, rep, files);
}

int sb_cli_csv_report(const char *dir, const char *sub, const char *command,
                      const sb_report *rep)
{
    return csv_files(dir, sub, rep, command, csv_test_name, csv_test_render,
                     csv_test_run);
}

int sb_cli_csv_exact(const char *dir, const char *sub,
                     const sb_exact_report *rep)
{
    return csv_files(dir, sub, rep, "exact", csv_exact_name,
                     csv_exact_render, csv_exact_run);
}

/* Whether DIR[/SUB]/NAME is one of 'others': -1 after printing the error
   naming both ('given': DIR as the user wrote it), else 0. */
static int csv_clash(const char *given, const char *dir, const char *sub,
                     const char *name, const sb_cli_path *others, size_t n)
{
    char path[4096 + 160];
    if (sub)
        snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    else
        snprintf(path, sizeof path, "%s/%s", dir, name);
    for (size_t i = 0; i < n; i++) {
        const sb_cli_path *o = &others[i];
        struct stat st;
        /* A terminal, pipe or device is written in place (as in
           sb_cli_distinct). */
        if (!o->path || strcmp(o->path, "-") == 0
            || (stat(o->path, &st) == 0 && !S_ISREG(st.st_mode))
            || !sb_outfile_same(path, o->path))
            continue;
        sb_cli_error("--csv '%s' would write '%s', the same file as %s "
                     "'%s': writing it would destroy it; give another "
                     "name or directory", given, path, o->option, o->path);
        return -1;
    }
    return 0;
}

/* The names of one report's files in DIR[/SUB] (sb_csv_name: any
   statistic's, as the run's statistics are not all known yet; or
   sb_exact_csv_name's), each checked. */
static int csv_clashes(const char *given, const char *dir, const char *sub,
                       sb_cli_csv_what what, const sb_cli_path *others,
                       size_t n)
{
    static const char *const test_names[] = { "run.csv", "summary.csv",
                                              "stages.csv" };
    static const char *const exact_names[] = { "run.csv", "outcomes.csv",
                                               "matrix.csv" };
    const int exact = what == SB_CLI_CSV_EXACT
                      || what == SB_CLI_CSV_EXACT_ALL;
    const char *const *names = exact ? exact_names : test_names;
    for (size_t k = 0; k < 3; k++)
        if (csv_clash(given, dir, sub, names[k], others, n) != 0)
            return -1;
    for (size_t k = 0; !exact && sb_stat_types[k]; k++) {
        char name[160];
        snprintf(name, sizeof name, "%s.csv", sb_stat_types[k]->name);
        if (csv_clash(given, dir, sub, name, others, n) != 0)
            return -1;
    }
    return 0;
}

int sb_cli_csv_check(const char *dir, sb_cli_csv_what what,
                     const sb_cli_path *others, size_t n)
{
    if (!dir)
        return 0;
    if (sb_cli_csv_prepare(dir) != 0)
        return -1;
    /* "DIR/" and "DIR" name the same files. */
    char base[4096];
    snprintf(base, sizeof base, "%s", dir);
    size_t len = strlen(base);
    while (len > 1 && base[len - 1] == '/')
        base[--len] = '\0';
    /* DIR itself named as another output: one of the two would be lost
       after the run, the directory or the file. */
    for (size_t i = 0; i < n; i++) {
        const sb_cli_path *o = &others[i];
        if (!o->path || strcmp(o->path, "-") == 0
            || !sb_outfile_same(base, o->path))
            continue;
        sb_cli_error("--csv '%s' is the same path as %s '%s': give "
                     "another name", dir, o->option, o->path);
        return -1;
    }
    if (what == SB_CLI_CSV_TEST || what == SB_CLI_CSV_EXACT)
        return csv_clashes(dir, base, NULL, what, others, n);
    /* One subdirectory per algorithm: any the registry holds. */
    if (what == SB_CLI_CSV_AUDIT
        && (csv_clash(dir, base, NULL, "audit.csv", others, n) != 0
            || csv_clash(dir, base, NULL, "run.csv", others, n) != 0))
        return -1;
    for (size_t k = 0; sb_shuffle_types[k]; k++)
        if (csv_clashes(dir, base, sb_shuffle_types[k]->name, what, others,
                        n) != 0)
            return -1;
    /* exact --all's grids, beside the subdirectories. */
    static const sb_kind kinds[] = { SB_KIND_PERMUTATION, SB_KIND_DRAW,
                                     SB_KIND_DEAL };
    for (size_t k = 0; what == SB_CLI_CSV_EXACT_ALL && k < 3; k++) {
        char path[4096], *name;
        sb_cli_csv_grid_path(base, kinds[k], path, sizeof path);
        name = strrchr(path, '/') + 1;
        if (csv_clash(dir, base, NULL, name, others, n) != 0)
            return -1;
    }
    return 0;
}

void sb_cli_csv_grid_path(const char *dir, sb_kind kind, char *path,
                          size_t len)
{
    snprintf(path, len, "%s/grid-%s.csv", dir, sb_kind_str(kind));
}

int sb_cli_can_write(const char *path)
{
    char err[600];
    if (!path || sb_outfile_check(path, SB_OUT_STREAM, err, sizeof err)
                 == SB_OK)
        return 0;
    sb_cli_error("%s", err);
    return -1;
}

int sb_cli_distinct(const sb_cli_path *out, const sb_cli_path *others,
                    size_t n)
{
    /* A terminal, pipe or device is written in place and destroys
       nothing: /dev/stdout may well be the same terminal as /dev/stdin. */
    struct stat st;
    if (!out->path || strcmp(out->path, "-") == 0
        || (stat(out->path, &st) == 0 && !S_ISREG(st.st_mode)))
        return 0;
    for (size_t i = 0; i < n; i++) {
        const sb_cli_path *o = &others[i];
        if (!o->path || strcmp(o->path, "-") == 0
            || !sb_outfile_same(out->path, o->path))
            continue;
        sb_cli_error("%s '%s' is the same file as %s '%s': writing it "
                     "would destroy it; give another name", out->option,
                     out->path, o->option, o->path);
        return -1;
    }
    return 0;
}

int sb_cli_can_save(const char *path, const char *resume, int force)
{
    char err[600];
    if (sb_outfile_check(path, 0, err, sizeof err) != SB_OK) {
        sb_cli_error("cannot save the state: %s", err);
        return -1;
    }
    /* The file can be written (its temporary name fits too): what
       remains is the work an existing one holds. */
    struct stat st;
    if (force || stat(path, &st) != 0 || st.st_size == 0
        || (resume && sb_outfile_same(path, resume)))
        return 0;
    sb_state old;
    char why[768];
    if (sb_state_read(path, &old, why, sizeof why) == SB_OK) {
        sb_cli_error("'%s' holds the saved state of a run of '%s' (seed %"
                     PRIu64 ", %" PRIu64 " samples counted): go on with it "
                     "with '--resume %s', or give --force to replace it",
                     path, old.algorithm, old.seed, old.counts.done, path);
        sb_state_free(&old);
    } else {
        sb_cli_error("'%s' already exists and is not a state file to go "
                     "on with: give another name, or --force to replace it",
                     path);
    }
    return -1;
}

int sb_cli_open_out(sb_outfile *o, const char *path)
{
    char err[600];
    if (sb_outfile_open(o, path, SB_OUT_STREAM, err, sizeof err) == SB_OK)
        return 0;
    sb_cli_error("%s", err);
    return -1;
}

int sb_cli_finish_out(sb_outfile *o, int status)
{
    char err[600];
    if (status != SB_OK) {
        /* The renderer stopped: the run's stop, or a write that the stop
           cut (a pipe's reader slow to read), is an interrupt; a write
           error says why, with the errno it failed with; anything else
           (memory) is said as such. */
        const int e = o->error;
        const int std = strcmp(o->path, "-") == 0;
        sb_outfile_abort(o);
        if (status == SB_EINTR || e == EINTR)
            return 1;
        sb_cli_error("cannot write %s%s%s: %s", std ? "" : "'",
                     std ? "standard output" : o->path, std ? "" : "'",
                     e ? strerror(e) : sb_status_str(status));
        return -1;
    }
    const int rc = sb_outfile_commit(o, err, sizeof err);
    if (rc == SB_OK)
        return 0;
    if (rc == SB_EINTR)
        return 1;
    sb_cli_error("%s", err);
    return -1;
}

int sb_cli_close_out(sb_outfile *o, int ok)
{
    return sb_cli_finish_out(o, ok ? SB_OK : SB_EIO);
}

void sb_cli_progress_init(sb_cli_progress *p, int quiet, const char *label)
{
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->start = sb_now();
    p->shown = 0;
    p->label = label;
    p->unit = "samples";
}

void sb_cli_progress_update(void *ctx, uint64_t done, uint64_t total)
{
    sb_cli_progress *p = ctx;
    double elapsed = sb_now() - p->start;
    if (!p->enabled || elapsed < 1.0)
        return;
    double rate = (double)done / elapsed;
    if (total == 0 || total < done) {      /* the total is not known */
        fprintf(stderr, "\r%s: %llu %s, %.3g/s  ", p->label,
                (unsigned long long)done, p->unit, rate);
    } else {
        double eta = rate > 0 ? (double)(total - done) / rate : 0;
        fprintf(stderr, "\r%s: %llu / %llu %s, %.3g/s, about %.0f s left  ",
                p->label, (unsigned long long)done, (unsigned long long)total,
                p->unit, rate, eta);
    }
    p->shown = 1;
}

void sb_cli_progress_relabel(sb_cli_progress *p, const char *label)
{
    sb_cli_progress_end(p);
    p->label = label;
    p->start = sb_now();
}

void sb_cli_progress_end(sb_cli_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = 0;
}
