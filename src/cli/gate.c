/*
 * gate.c - 'shufflebias gate FILE': every case of a manifest run and
 * judged against what it expects, for a CI job (docs/ci.md).
 *
 * Each case is one run of the program's own 'test' or 'exact' command,
 * as a child process: the same checks of what the user brings, the same
 * verdicts and reports as a run by hand, and a case that hangs or
 * crashes (a plug-in, a program) cannot take the gate down with it - it
 * is ended at its timeout and reported as an error.  The cases run one
 * after the other, each on every thread.  The child's JSON report is
 * read back, and the gate's own report is one JSON document (the
 * baseline of a later gate) from which the table, JUnit XML, Markdown
 * and the HTML page are drawn (reports/gate.c).
 *
 * Outcomes: a case's expectation is 'held' or 'not held'; a case that
 * could not be judged (an input error, a crash, a timeout, nothing
 * tested) is an 'error', a suspect verdict that escalation did not
 * settle is 'inconclusive'.  Neither ever counts as held.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <jansson.h>
#include <gsl/gsl_cdf.h>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "cli/gate.h"
#include "cli/manifest.h"
#include "cli/plan.h"
#include "reports/gate.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "shufflebias/version.h"
#include "sources/exec.h"
#include "sources/input.h"
#include "sources/plugin.h"

/* A held 'fail' less likely than this to hold again is flagged. */
#define SB_GATE_REFAIL_WARN 0.999

typedef struct gate_options {
    const char *manifest;
    const char *junit, *markdown, *json, *html;
    const char *baseline, *write_baseline;
    unsigned threads;         /* 0: one per core */
    int quiet, no_timing;
} gate_options;

#define ROW(name, arg, field, fn, help) \
    SB_OPT_ROW(name, 0, arg, gate_options, field, SB_OPT_NOWHERE, fn, help)

static const sb_option options[] = {
    ROW("junit", "FILE", junit, sb_opt_string,
        "write JUnit XML for the CI's test view: one testsuite, one "
        "testcase per case, a failure or error with the verdict and the "
        "diagnosis"),
    ROW("markdown", "FILE", markdown, sb_opt_string,
        "write the summary as Markdown (a job summary, such as GitHub's "
        "$GITHUB_STEP_SUMMARY)"),
    ROW("json", "FILE|-", json, sb_opt_string,
        "write the gate's report as JSON ('-': stdout, and no table)"),
    ROW("html", "FILE", html, sb_opt_string,
        "write the summary as one self-contained HTML page"),
    ROW("baseline", "FILE", baseline, sb_opt_string,
        "compare with a previous gate's JSON: each case unchanged, newly "
        "failing, fixed, drifted or new, the changes listed first"),
    ROW("write-baseline", "FILE", write_baseline, sb_opt_string,
        "write this gate's JSON without times, to compare later runs "
        "with"),
    ROW("threads", "N", threads, sb_opt_threads,
        "threads for each case (default: one per core)"),
    ROW("no-timing", NULL, no_timing, sb_opt_flag,
        "leave the times out of the JSON and Markdown, so that gates "
        "compare byte for byte"),
    ROW("quiet", NULL, quiet, sb_opt_flag,
        "print nothing but errors; the exit code tells"),
    SB_OPT_HELP,
    SB_OPT_END
};

const sb_command sb_command_gate = {
    .name = "gate",
    .run = sb_cmd_gate,
    .summary = "run a manifest of cases and their expectations, for CI",
    .synopsis =
    "usage: shufflebias gate FILE [options]\n"
    "\n"
    "Run every case of the YAML manifest FILE - a shuffle (a built-in\n"
    "algorithm, a program, a plug-in or recorded samples) and what is\n"
    "expected of it: pass, fail, exact-uniform, exact-biased or a bound\n"
    "such as 'tv <= 1/1000' - and print a table of the outcomes.  Seeds\n"
    "are pinned (a case without one gets a seed made from its name), so\n"
    "a gate gives the same outcome every time for the same code.  See\n"
    "docs/ci.md.\n",
    .options = options,
    .epilogue =
    "Exit codes: 0 every expectation held, 1 one did not, 2 the manifest\n"
    "or an option is wrong, or a case could not be judged (an input\n"
    "error, a crash, a timeout), 3 a case stayed inconclusive (suspect\n"
    "after escalation), 130 interrupted (the cases run are reported).\n",
};

static int parse(int argc, char **argv, gate_options *o)
{
    *o = (gate_options){ 0 };
    int next;
    const int rc = sb_options_parse(&sb_command_gate, argc, argv, o, &next);
    if (rc != 0)
        return rc;
    if (next != argc - 1) {
        sb_cli_error(next == argc ? "gate: which manifest? usage: "
                     "shufflebias gate FILE [options]"
                     : "gate: one manifest at a time; unexpected '%s'",
                     argv[argc - 1]);
        return -1;
    }
    o->manifest = argv[next];
    return 0;
}

/* ---- the command line of a case -------------------------------------- */

typedef struct args {
    char *v[96];
    int n;
} args;

static int add(args *a, const char *s)
{
    if (a->n + 1 >= (int)(sizeof a->v / sizeof a->v[0]))
        return -1;
    a->v[a->n] = strdup(s);
    if (!a->v[a->n])
        return -1;
    a->v[++a->n] = NULL;
    return 0;
}

static int add2(args *a, const char *opt, const char *value)
{
    return add(a, opt) != 0 || add(a, value) != 0 ? -1 : 0;
}

static int add_u64(args *a, const char *opt, uint64_t x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
    return add2(a, opt, buf);
}

static void args_free(args *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    a->n = 0;
}

/* A path of the manifest: from its directory. */
static char *from_dir(const sb_manifest *m, const char *path)
{
    if (path[0] == '/' || strcmp(m->dir, ".") == 0)
        return strdup(path);
    char *s = malloc(strlen(m->dir) + strlen(path) + 1);
    if (s) {
        strcpy(s, m->dir);
        strcat(s, path);
    }
    return s;
}

/* A built-in deal's 'hands' is its parameter: the case's own 'hands'
   is passed to it (and refused by a shuffle without one), the defaults'
   only to a shuffle that has one; 'params: {hands: H}' wins over
   both. */
static int hands_param(const sb_gate_case *c)
{
    if (!c->hands_given)
        return 0;
    for (size_t i = 0; i < c->params; i++)
        if (strcmp(c->param_key[i], "hands") == 0)
            return 0;             /* params: {hands: H} says it */
    if (c->hands_own || c->source != SB_SOURCE_ALGORITHM)
        return 1;
    const sb_shuffle_type *t = sb_shuffle_find(c->what);
    for (size_t i = 0; t && i < t->n_params; i++)
        if (strcmp(t->params[i].name, "hands") == 0)
            return 1;
    return 0;
}

/* A built-in's parameter assignments, "k=v" into kv[i] with assign[i]
   pointing at it: the case's params, then its hands when they are a
   parameter (hands_param).  Their count; *with_hands set when the last
   one is the hands. */
typedef char sb_gate_kv[SB_MANIFEST_PARAMS + 1][256];
static size_t assignments(const sb_gate_case *c, sb_gate_kv kv,
                          const char **assign, int *with_hands)
{
    size_t count = 0;
    for (size_t i = 0; i < c->params; i++, count++) {
        snprintf(kv[count], sizeof kv[count], "%s=%s", c->param_key[i],
                 c->param_value[i]);
        assign[count] = kv[count];
    }
    *with_hands = hands_param(c);
    if (*with_hands) {
        snprintf(kv[count], sizeof kv[count], "hands=%llu",
                 (unsigned long long)c->hands);
        assign[count] = kv[count];
        count++;
    }
    return count;
}

/* The seed a case runs on. */
static uint64_t case_seed(const sb_gate_case *c)
{
    return c->seed_given ? c->seed : sb_gate_name_seed(c->name);
}

/* The child's arguments after the program's name: 'test' or 'exact',
   as a user would type them to run the case by hand (paths as in the
   manifest: the child runs in the manifest's directory). */
static int case_args(const sb_gate_case *c, args *a)
{
    int rc = add(a, c->exact ? "exact" : "test");
    switch (c->source) {
    case SB_SOURCE_ALGORITHM:
        rc |= add(a, c->what);
        break;
    case SB_SOURCE_PLUGIN:
        rc |= add2(a, "--plugin", c->what);
        if (c->plugin_name)
            rc |= add(a, c->plugin_name);
        break;
    case SB_SOURCE_EXEC:
        rc |= add2(a, "--exec", c->what);
        break;
    case SB_SOURCE_INPUT:
        rc |= add2(a, "--input", c->what);
        break;
    }
    const int builtin = c->source == SB_SOURCE_ALGORITHM
                        || c->source == SB_SOURCE_PLUGIN;
    if (c->exact) {
        rc |= add_u64(a, "--n", c->exact_n_given ? c->exact_n
                              : c->n_given ? c->n : 3);
        if (c->max_paths)
            rc |= add_u64(a, "--max-paths", c->max_paths);
    } else if (c->n_given)
        rc |= add_u64(a, "--n", c->n);
    if (builtin) {
        sb_gate_kv kv;
        const char *assign[SB_MANIFEST_PARAMS + 1];
        int with_hands;
        const size_t count = assignments(c, kv, assign, &with_hands);
        for (size_t i = 0; i < count; i++)
            rc |= add2(a, "--param", assign[i]);
    } else if (c->hands_given)
        rc |= add_u64(a, "--hands", c->hands);
    if (c->exact)
        return rc;
    if (c->kind)
        rc |= add2(a, "--kind", c->kind);
    if (c->format)
        rc |= add2(a, "--format", c->format);
    if (c->card_order)
        rc |= add2(a, "--card-order", c->card_order);
    if (c->one_based)
        rc |= add(a, "--one-based");
    if (c->draw)
        rc |= add_u64(a, "--draw", c->draw);
    if (c->exec_timeout_given)
        rc |= add_u64(a, "--exec-timeout", c->exec_timeout);
    if (c->effect) {
        rc |= add2(a, "--effect", c->effect);
        if (c->power)
            rc |= add2(a, "--power", c->power);
    } else if (c->samples_given)
        rc |= add_u64(a, "--samples", c->samples);
    if (c->source != SB_SOURCE_INPUT)
        rc |= add_u64(a, "--seed", case_seed(c));
    if (c->rng)
        rc |= add2(a, "--rng", c->rng);
    if (c->statistics)
        rc |= add2(a, "--tests", c->statistics);
    if (c->escalate_given)
        rc |= add_u64(a, "--escalate", c->escalate);
    /* The diagnosis costs seconds: by default made where it explains
       something, a fail that was not expected. */
    if (c->diagnosis == 0
        || (c->diagnosis < 0 && c->expect == SB_EXPECT_FAIL))
        rc |= add(a, "--no-diagnosis");
    return rc;
}

/* ---- checks before the first case ------------------------------------ */

/* "FILE:LINE:COLUMN: case 'X': key 'K': WHAT", at the key's value when
   it was written, else at the case. */
static void at_key(const sb_manifest *m, const sb_gate_case *c,
                   sb_gate_mark at, const char *key, const char *what)
{
    if (!at.line)
        at = (sb_gate_mark){ c->line, c->column };
    sb_cli_error("%s:%u:%u: case '%s': %s%s%s%s", m->path, at.line,
                 at.column, c->name, key ? "key '" : "", key ? key : "",
                 key ? "': " : "", what);
}

/* After a check of the catalogue's has printed its error. */
#define ABOVE "the error above"

/* A built-in algorithm by name, the error on one line at its key. */
static const sb_shuffle_type *builtin(const sb_manifest *m,
                                      const sb_gate_case *c)
{
    char why[1280];
    const sb_shuffle_type *t = sb_cli_algorithm_find(c->what, why,
                                                     sizeof why);
    if (!t)
        at_key(m, c, c->at_source, "algorithm", why);
    return t;
}

/* The statistics of a case apply to its samples' shape. */
static int check_statistics(const sb_manifest *m, const sb_gate_case *c,
                            const sb_shape *shape)
{
    const sb_stat_type *stats[SB_CLI_PLAN_MAX];
    size_t k;
    if (sb_cli_stats(c->statistics, shape, stats, SB_CLI_PLAN_MAX, &k) == 0)
        return 0;
    at_key(m, c, c->at_statistics, c->statistics ? "statistics" : NULL,
           ABOVE);
    return -1;
}

/* What can be known of a built-in or plug-in case without running it:
   its name, parameters, source and statistics, and - when it gives both
   samples and the effect it claims to catch - that the samples can
   catch it.  0, or -1 after printing the error. */
static int check_builtin(const sb_manifest *m, const sb_gate_case *c)
{
    const uint64_t n = c->exact ? (c->exact_n_given ? c->exact_n
                                   : c->n_given ? c->n : 3)
                                : c->n_given ? c->n : 52;
    sb_plugin_handle *plugin = NULL;
    char *so = NULL;
    const sb_shuffle_type *t = NULL;
    if (c->source == SB_SOURCE_ALGORITHM) {
        if (!(t = builtin(m, c)))
            return -1;
        if (!(t = sb_cli_shuffle(c->what, NULL, n, &plugin))) {
            at_key(m, c, (sb_gate_mark){ 0, 0 }, NULL, ABOVE);
            return -1;
        }
    } else if (!(so = from_dir(m, c->what))
               || !(t = sb_cli_shuffle(c->plugin_name, so, n, &plugin))) {
        at_key(m, c, c->at_source, "plugin", so ? ABOVE : "out of memory");
        free(so);
        return -1;
    }
    int rc = -1;
    const char *assign[SB_MANIFEST_PARAMS + 1];
    sb_gate_kv kv;
    int with_hands;
    const size_t count = assignments(c, kv, assign, &with_hands);
    sb_run_config cfg = {
        .alg = t, .args = { .n = (size_t)n },
        .samples = c->samples_given ? c->samples : 1,
        .seed = case_seed(c), .rng = c->rng ? c->rng : SB_RNG_DEFAULT,
        .plugin = so, .threads = 1,
    };
    /* The params alone first, so that an error says which key; then
       with the hands (sb_cli_set_params starts from the defaults). */
    const size_t own = count - (size_t)with_hands;
    if (sb_cli_set_params(t, assign, own, &cfg.args) != 0) {
        at_key(m, c, c->at_params, "params", ABOVE);
        goto out;
    }
    if (with_hands && sb_cli_set_params(t, assign, count, &cfg.args) != 0) {
        at_key(m, c, c->at_hands, "hands", ABOVE);
        goto out;
    }
    if (!c->exact && sb_cli_check_rng(cfg.rng) != 0) {
        at_key(m, c, c->at_rng, "rng", ABOVE);
        goto out;
    }
    if (!c->exact) {
        sb_shape shape;
        sb_shuffle_shape(t, &cfg.args, &shape);
        if (check_statistics(m, c, &shape) != 0)
            goto out;
    }
    if (c->effect && c->samples_given) {
        /* The case claims to catch a bias of 'effect' with 'samples':
           refused when the plan needs more. */
        sb_cli_plan plan = { 0 };
        double power = 0.9;
        if (sb_cli_parse_effect(c->effect, &plan.effect) != 0
            || (c->power && sb_cli_parse_power(c->power, &power) != 0))
            goto out;
        plan.effect.power = power;
        if (sb_cli_plan_make(&cfg, c->statistics, &plan) != 0) {
            at_key(m, c, (sb_gate_mark){ 0, 0 }, "effect", ABOVE);
            goto out;
        }
        if (plan.samples > c->samples) {
            char what[512];
            snprintf(what, sizeof what, "%llu samples cannot catch an "
                     "effect of %s with power %g: it needs %llu (decided "
                     "by %s); raise 'samples', or drop it and let the "
                     "effect plan them",
                     (unsigned long long)c->samples, c->effect, power,
                     (unsigned long long)plan.samples,
                     plan.rows[plan.decider].name);
            at_key(m, c, (sb_gate_mark){ 0, 0 }, NULL, what);
            goto out;
        }
    }
    rc = 0;
out:
    if (plugin)
        sb_plugin_close(plugin);
    free(so);
    return rc;
}

/* A program's or a file's case: how its samples read (format, card
   order, kind) and that its statistics apply to them; and the file is
   there.  0, or -1 after printing the error. */
static int check_outside(const sb_manifest *m, const sb_gate_case *c)
{
    sb_format format = SB_FORMAT_TEXT;
    if (c->format && sb_format_find(c->format, &format) != SB_OK) {
        char what[256];
        snprintf(what, sizeof what, "unknown format '%s'; valid: text, "
                 "cards, u8, u16, pbn", c->format);
        at_key(m, c, c->at_format, "format", what);
        return -1;
    }
    if (c->card_order) {
        unsigned char number[52];
        char why[160], what[256];
        if (sb_card_order_parse(c->card_order, number, why, sizeof why)
            != SB_OK) {
            snprintf(what, sizeof what, "'%s': %s", c->card_order, why);
            at_key(m, c, c->at_card_order, "card-order", what);
            return -1;
        }
    }
    sb_shape shape = { .kind = format == SB_FORMAT_PBN ? SB_KIND_DEAL
                                                       : SB_KIND_PERMUTATION,
                       .n = (size_t)(c->n_given ? c->n : 52) };
    if (c->kind && sb_cli_opt_kind(c->kind, &shape.kind) != 0) {
        at_key(m, c, c->at_kind, "kind", ABOVE);
        return -1;
    }
    shape.len = shape.kind == SB_KIND_DRAW && c->draw ? (size_t)c->draw
                                                      : shape.n;
    if (shape.kind == SB_KIND_DEAL)
        shape.hands = (unsigned)(c->hands_given ? c->hands : 4);
    /* A draw's hand size may come from its first sample: its
       statistics are then checked by the run. */
    if ((shape.kind != SB_KIND_DRAW || c->draw)
        && check_statistics(m, c, &shape) != 0)
        return -1;
    if (c->source != SB_SOURCE_INPUT)
        return 0;
    if (strcmp(c->what, "-") == 0) {
        at_key(m, c, c->at_source, "input", "a gate reads no standard "
               "input; name a file");
        return -1;
    }
    char *path = from_dir(m, c->what);
    struct stat st;
    errno = 0;
    const int ok = path && stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
    if (!ok) {
        char what[512];
        snprintf(what, sizeof what, "cannot read '%s'%s%s",
                 path ? path : c->what, errno ? ": " : "",
                 errno ? strerror(errno) : "");
        at_key(m, c, c->at_source, "input", what);
    }
    free(path);
    return ok ? 0 : -1;
}

static int check_cases(const sb_manifest *m)
{
    for (size_t i = 0; i < m->count; i++) {
        const sb_gate_case *c = &m->cases[i];
        const int builtin = c->source == SB_SOURCE_ALGORITHM
                            || c->source == SB_SOURCE_PLUGIN;
        if ((builtin ? check_builtin(m, c) : check_outside(m, c)) != 0)
            return -1;
    }
    return 0;
}

/* ---- running a case -------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct child_end {
    int status;               /* waitpid's */
    int timed_out;
    int interrupted;          /* the gate was stopped during it */
    double seconds;
} child_end;

/* Run the program itself with 'a' in 'dir', standard error to 'err'.
   Waits for it, ending its process group at 'timeout' seconds (0: none)
   and passing an interrupt on.  0, or -1 when it could not start. */
static int run_child(const char *self, const args *a, const char *dir,
                     const char *err, double timeout,
                     volatile sig_atomic_t *stop, child_end *e)
{
    *e = (child_end){ 0 };
    const double start = now();
    fflush(NULL);
    /* As sb_child_start's: every signal blocked across the fork, so that
       the child takes none of ours before it has reset them. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        /* It dies with the gate, and leads a group of its own so that a
           timeout ends what it started too (a program it runs). */
        sb_child_prepare(parent);
        const int null = open("/dev/null", O_RDWR);
        const int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (null < 0 || fd < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0
            || dup2(fd, 2) < 0 || chdir(dir) != 0)
            _exit(126);
        execv(self, a->v);
        _exit(127);
    }
    const int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        errno = fork_errno;
        return -1;
    }
    setpgid(pid, pid);
    int sent_int = 0, sent_term = 0;
    double kill_at = 0;
    for (;;) {
        const pid_t w = waitpid(pid, &e->status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return -1;
        const double t = now() - start;
        if (stop && *stop && !sent_int) {
            kill(-pid, SIGINT);       /* it reports what it counted */
            sent_int = 1;
            e->interrupted = 1;
            kill_at = t + 60;
        }
        if (timeout > 0 && t > timeout && !sent_term) {
            kill(-pid, SIGTERM);
            sent_term = 1;
            e->timed_out = 1;
            kill_at = t + 10;
        }
        if (kill_at > 0 && t > kill_at)
            kill(-pid, SIGKILL);
        const struct timespec pause = { 0, 20 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    e->seconds = now() - start;
    return 0;
}

/* Why the child could not be judged: the last line it wrote on
   standard error as the program itself ("shufflebias: ..."), without
   that name; a program it ran writes there too, and its last words are
   only the answer when the program said nothing. */
static void last_error(const char *err, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(err, "r");
    if (!f)
        return;
    char line[1024], other[1024] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "shufflebias: ", 13) == 0) {
            if (strncmp(line + 13, "stopping:", 9) != 0)
                snprintf(buf, len, "%s", line + 13);
        } else if (line[0])
            snprintf(other, sizeof other, "%s", line);
    }
    fclose(f);
    if (!buf[0] && other[0])
        snprintf(buf, len, "%s", other);
}

static json_t *jstr(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* The statistics of a test report, as a baseline compares them. */
static json_t *tests_of(const json_t *rep)
{
    json_t *out = json_array();
    const json_t *tests = json_object_get(rep, "tests");
    const json_t *samples = json_object_get(rep, "samples");
    size_t i;
    const json_t *t;
    json_array_foreach(tests, i, t) {
        json_t *one = json_object();
        static const char *const keys[] = { "name", "statistic", "df",
                                            "p_value", "p_adjusted",
                                            "effect", "verdict" };
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            json_t *v = json_object_get(t, keys[k]);
            json_object_set(one, keys[k], v ? v : json_null());
        }
        json_object_set(one, "samples", samples ? (json_t *)samples
                                                : json_null());
        json_array_append_new(out, one);
    }
    return out;
}

/* How far a statistic is from its null, in its standard deviations:
   (X2 - df) / sqrt(2 df), to part p-values that are all 0. */
static double strength(const json_t *t)
{
    const double x = json_number_value(json_object_get(t, "statistic")),
                 df = json_number_value(json_object_get(t, "df"));
    return df > 0 ? (x - df) / sqrt(2 * df) : 0;
}

/* The statistic that decided a test report: the smallest adjusted
   p-value; of those tied (all 1, or all 0), the smallest raw p-value,
   then the strongest.  A statistic that judged nothing (n/a) decides
   nothing. */
static const json_t *decider(const json_t *rep)
{
    const json_t *best = NULL, *t;
    size_t i;
    json_array_foreach(json_object_get(rep, "tests"), i, t) {
        const json_t *pa = json_object_get(t, "p_adjusted");
        if (!json_is_number(pa))
            continue;
        if (!best) {
            best = t;
            continue;
        }
        const double p = json_number_value(pa),
                     q = json_number_value(json_object_get(best,
                                                           "p_adjusted")),
                     r = json_number_value(json_object_get(t, "p_value")),
                     s = json_number_value(json_object_get(best,
                                                           "p_value"));
        if (p < q || (p == q && (r < s
                                 || (r == s
                                     && strength(t) > strength(best)))))
            best = t;
    }
    return best;
}

/* How sure a held 'fail' is to hold again on another stream of samples
   (once the code changes): the deciding statistic's raw p-value as a
   normal score z, one draw of N(mu, 1), so that the chance of a p below
   Holm's strictest level 1e-6 / m again is about Phi(z - z_crit).  An
   estimate with the noise of one run (z is off by 1 one time in three),
   to flag a case whose samples only just caught its bias. */
static double refail_chance(const json_t *rep, const json_t *dec)
{
    size_t i, m = 0;
    const json_t *t;
    json_array_foreach(json_object_get(rep, "tests"), i, t)
        m += json_is_number(json_object_get(t, "p_adjusted"));
    const double p = json_number_value(json_object_get(dec, "p_value"));
    if (!(p > 0))
        return 1;
    const double z = gsl_cdf_ugaussian_Qinv(p),
                 crit = gsl_cdf_ugaussian_Qinv(1e-6 / (double)(m ? m : 1));
    return gsl_cdf_ugaussian_P(z - crit);
}

/* Compare the exact distance 'tv' ("p/q") with the case's bound. */
static int tv_holds(const sb_gate_case *c, const char *tv)
{
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    int held = -1;
    if (mpq_set_str(a, tv, 10) == 0 && sb_gate_rational(c->tv_bound, b) == 0) {
        mpq_canonicalize(a);
        const int cmp = mpq_cmp(a, b);
        held = strcmp(c->tv_op, "<=") == 0 ? cmp <= 0
             : strcmp(c->tv_op, "<") == 0 ? cmp < 0
             : strcmp(c->tv_op, ">=") == 0 ? cmp >= 0 : cmp > 0;
    }
    mpq_clears(a, b, NULL);
    return held;
}

/* What a finished child says of its case, into 'out'. */
static void judge(const sb_gate_case *c, const child_end *e,
                  const char *json_path, const char *err_path, json_t *out)
{
    const char *outcome;
    char message[1536], why[1024];
    json_error_t jerr;
    json_t *rep = json_load_file(json_path, 0, &jerr);
    const int code = WIFEXITED(e->status) ? WEXITSTATUS(e->status) : -1;
    last_error(err_path, why, sizeof why);
    json_object_set_new(out, "exit_code", code >= 0 ? json_integer(code)
                                                    : json_null());
    const char *verdict = rep ? json_string_value(json_object_get(rep,
                                                              "verdict"))
                              : NULL;
    if (c->exact && rep) {
        const json_t *uniform = json_object_get(rep, "uniform");
        const char *unexplored = json_string_value(
            json_object_get(rep, "unexplored_mass"));
        verdict = code == 3 || (unexplored && strcmp(unexplored, "0/1"))
                  ? "inconclusive"
                  : json_is_true(uniform) ? "uniform" : "biased";
        json_object_set(out, "tv", json_object_get(rep, "tv_distance"));
        json_object_set(out, "tv_exact",
                        json_object_get(rep, "tv_distance_exact"));
        json_object_set(out, "paths", json_object_get(rep, "paths"));
        json_object_set(out, "n", json_object_get(rep, "n"));
    }
    json_object_set_new(out, "verdict", jstr(verdict));
    if (!c->exact && rep) {
        json_object_set(out, "samples", json_object_get(rep, "samples"));
        json_object_set(out, "n", json_object_get(rep, "n"));
        json_object_set_new(out, "tests", tests_of(rep));
        const json_t *d = decider(rep);
        if (d && c->expect == SB_EXPECT_FAIL && code == 1)
            json_object_set_new(out, "refail_chance",
                                json_real(refail_chance(rep, d)));
        if (d) {
            json_t *dec = json_object();
            json_object_set(dec, "statistic", json_object_get(d, "name"));
            json_object_set(dec, "p_adjusted",
                            json_object_get(d, "p_adjusted"));
            json_object_set(dec, "verdict", json_object_get(d, "verdict"));
            json_object_set_new(out, "decided_by", dec);
        }
        const json_t *diag = json_object_get(rep, "diagnosis");
        if (json_is_object(diag) && json_is_true(json_object_get(diag,
                                                                 "match"))) {
            json_t *dg = json_object();
            static const char *const keys[] = { "name", "score", "flaw",
                                                "estimate", "advice" };
            for (size_t k = 0; k < 5; k++) {
                json_t *v = json_object_get(diag, keys[k]);
                json_object_set(dg, keys[k], v ? v : json_null());
            }
            json_object_set_new(out, "diagnosis", dg);
        }
    }
    /* The outcome. */
    if (e->interrupted) {
        outcome = "interrupted";
        snprintf(message, sizeof message, "interrupted");
    } else if (e->timed_out) {
        outcome = "error";
        snprintf(message, sizeof message, "timed out after %g s (the "
                 "case's timeout) and ended", c->timeout);
    } else if (code == 2 || code < 0 || !rep || !verdict
               || (code != 0 && code != 1 && code != 3)) {
        outcome = "error";
        if (code < 0 && WIFSIGNALED(e->status))
            snprintf(message, sizeof message, "could not be judged: the "
                     "run ended on signal %d%s%s", WTERMSIG(e->status),
                     why[0] ? ": " : "", why);
        else
            snprintf(message, sizeof message, "could not be judged: %s",
                     why[0] ? why : rep ? "the run reported an error"
                                       : "the run wrote no report");
    } else if (verdict && strcmp(verdict, "n/a") == 0) {
        /* Nothing could be judged: no statistic applied, or none had a
           sample to count.  An error, never a pass. */
        const char *reason = json_string_value(json_object_get(rep,
                                                               "reason"));
        outcome = "error";
        snprintf(message, sizeof message, "could not be judged: nothing "
                 "was tested%s%s", reason ? ": " : "", reason ? reason : "");
    } else if (code == 3) {
        outcome = "inconclusive";
        snprintf(message, sizeof message, "inconclusive: %s",
                 c->exact ? "part of the paths was not walked (unexplored "
                            "mass)"
                          : "still suspect after escalation, or nothing "
                            "could be judged");
    } else {
        int held;
        const char *tv = json_string_value(json_object_get(out, "tv_exact"));
        switch (c->expect) {
        case SB_EXPECT_PASS: held = code == 0; break;
        case SB_EXPECT_FAIL: held = code == 1; break;
        case SB_EXPECT_EXACT_UNIFORM: held = code == 0; break;
        case SB_EXPECT_EXACT_BIASED: held = code == 1; break;
        default: held = tv ? tv_holds(c, tv) : -1; break;
        }
        if (held < 0) {
            outcome = "error";
            snprintf(message, sizeof message, "could not be judged: the "
                     "report gives no exact distance");
        } else {
            outcome = held ? "held" : "not held";
            const json_t *dec = json_object_get(out, "decided_by");
            char detail[512] = "";
            if (c->exact)
                snprintf(detail, sizeof detail, "tv = %s",
                         !tv ? "?" : strcmp(tv, "0/1") ? tv : "0");
            else if (dec) {
                char p[32];
                const json_t *pj = json_object_get(dec, "p_adjusted");
                sb_render_pvalue(p, sizeof p, json_number_value(pj),
                                 json_number_value(pj) == 0);
                snprintf(detail, sizeof detail, "%s p (Holm) %s",
                         json_string_value(json_object_get(dec,
                                                           "statistic")),
                         p);
            }
            snprintf(message, sizeof message, "expected %s, got %s%s%s",
                     c->expect_text, verdict, detail[0] ? ": " : "",
                     detail);
            const json_t *rc = json_object_get(out, "refail_chance");
            if (rc && json_number_value(rc) < SB_GATE_REFAIL_WARN) {
                char w[512];
                snprintf(w, sizeof w, "the bias was only just caught: on "
                         "another stream of samples (after a change) this "
                         "case would fail again with a chance of about "
                         "%.2f; give it more samples, or an 'effect' with "
                         "'power: 0.9999'", json_number_value(rc));
                json_object_set_new(out, "warning", json_string(w));
            }
        }
    }
    json_object_set_new(out, "outcome", json_string(outcome));
    json_object_set_new(out, "message", json_string(message));
    json_object_set_new(out, "error", strcmp(outcome, "error") == 0 && why[0]
                                      ? json_string(why) : json_null());
    json_decref(rep);
}

/* The case's own description in the gate's JSON. */
static json_t *case_json(const sb_gate_case *c, const char *dir)
{
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(c->name));
    json_object_set_new(j, "line", json_integer(c->line));
    json_object_set_new(j, "expect", json_string(c->expect_text));
    static const char *const sources[] = { "algorithm", "exec", "plugin",
                                           "input" };
    json_object_set_new(j, "source", json_string(sources[c->source]));
    json_object_set_new(j, sources[c->source], json_string(c->what));
    if (c->plugin_name)
        json_object_set_new(j, "plugin_name", json_string(c->plugin_name));
    json_t *params = json_object();
    for (size_t i = 0; i < c->params; i++)
        json_object_set_new(params, c->param_key[i],
                            json_string(c->param_value[i]));
    json_object_set_new(j, "params", params);
    json_object_set_new(j, "mode", json_string(c->exact ? "exact" : "test"));
    if (!c->exact && c->source != SB_SOURCE_INPUT)
        json_object_set_new(j, "seed", json_integer((json_int_t)case_seed(c)));
    json_object_set_new(j, "drift_sd", json_real(c->drift_sd));
    /* Where its command runs (paths in it are from there). */
    json_object_set_new(j, "directory", json_string(dir));
    json_object_set_new(j, "tv_tolerance", jstr(c->tv_tolerance));
    return j;
}

/* ---- the gate -------------------------------------------------------- */

static int write_out(const char *path, const json_t *gate,
                     int (*render)(FILE *, const json_t *))
{
    sb_outfile out;
    if (sb_cli_open_out(&out, path) != 0)
        return -1;
    return sb_cli_close_out(&out, render(out.f, gate) == SB_OK);
}

static int render_json(FILE *f, const json_t *gate)
{
    return sb_render_json_value(f, json_deep_copy(gate));
}

static int render_baseline(FILE *f, const json_t *gate)
{
    json_t *copy = json_deep_copy(gate);
    sb_gate_strip_timing(copy);
    json_object_del(copy, "baseline");
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(copy, "cases"), i, c) {
        json_object_del(c, "change");
        json_object_del(c, "drift");
    }
    return sb_render_json_value(f, copy);
}

/* Outputs: each writable, none of them the manifest, the baseline or
   another output.  0, or -1 after printing the error. */
static int check_outputs(const gate_options *o)
{
    const sb_cli_path outs[] = { { "--junit", o->junit },
                                 { "--markdown", o->markdown },
                                 { "--json", o->json },
                                 { "--html", o->html },
                                 { "--write-baseline", o->write_baseline } };
    const size_t k = sizeof outs / sizeof outs[0];
    for (size_t i = 0; i < k; i++) {
        sb_cli_path others[8];
        size_t m = 0;
        others[m++] = (sb_cli_path){ "the manifest", o->manifest };
        others[m++] = (sb_cli_path){ "--baseline", o->baseline };
        for (size_t j = 0; j < k; j++)
            if (j != i)
                others[m++] = outs[j];
        if (sb_cli_distinct(&outs[i], others, m) != 0
            || sb_cli_can_write(outs[i].path) != 0)
            return -1;
    }
    return sb_cli_check_html(o->html);
}

static json_t *load_baseline(const char *path)
{
    json_error_t err;
    json_t *b = json_load_file(path, 0, &err);
    if (!b) {
        sb_cli_error("--baseline '%s': %s (line %d)", path, err.text,
                     err.line);
        return NULL;
    }
    const char *cmd = json_string_value(json_object_get(b, "command"));
    if (!cmd || strcmp(cmd, "gate") != 0
        || !json_is_array(json_object_get(b, "cases"))) {
        sb_cli_error("--baseline '%s': not the JSON of a gate (written by "
                     "'gate --json' or '--write-baseline')", path);
        json_decref(b);
        return NULL;
    }
    return b;
}

static int exit_code(const json_t *counts, int interrupted)
{
    const json_int_t error = json_integer_value(json_object_get(counts,
                                                                "error")),
        not_held = json_integer_value(json_object_get(counts, "not_held")),
        inconclusive = json_integer_value(json_object_get(counts,
                                                          "inconclusive"));
    return interrupted ? SB_EXIT_INTERRUPTED
         : error ? SB_EXIT_USAGE
         : not_held ? SB_EXIT_FAIL
         : inconclusive ? SB_EXIT_SUSPECT : SB_EXIT_PASS;
}

/* A place for the children's reports. */
static char *temp_dir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/shufflebias-gate-XXXXXX",
             base && *base ? base : "/tmp");
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

/* Run every case into 'cases'; 1 when interrupted, 0 otherwise, -1 after
   printing an error. */
static int run_cases(const sb_cli *cli, const gate_options *o,
                     const sb_manifest *m, json_t *cases)
{
    char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        sb_cli_error("gate: cannot find this program (/proc/self/exe): %s",
                     strerror(errno));
        return -1;
    }
    self[len] = '\0';
    char *dir = temp_dir();
    if (!dir) {
        sb_cli_error("gate: cannot make a temporary directory: %s",
                     strerror(errno));
        return -1;
    }
    char json_path[4200], err_path[4200];
    snprintf(json_path, sizeof json_path, "%s/case.json", dir);
    snprintf(err_path, sizeof err_path, "%s/case.err", dir);
    int rc = 0;
    for (size_t i = 0; i < m->count && rc == 0; i++) {
        const sb_gate_case *c = &m->cases[i];
        args a = { .n = 0 };
        char *line = NULL;
        /* The command that runs the case by hand, then what only the
           gate needs - the report where it reads it, quiet, and threads,
           which change no count - in its child. */
        if (add(&a, "shufflebias") != 0 || case_args(c, &a) != 0
            || !(line = sb_cli_command_line("shufflebias", a.n - 1,
                                            a.v + 1))
            || add2(&a, "--json", json_path) != 0 || add(&a, "--quiet") != 0
            || add(&a, "--no-timing") != 0
            || (o->threads && !c->exact
                && add_u64(&a, "--threads", o->threads) != 0)) {
            args_free(&a);
            free(line);
            sb_cli_error("out of memory");
            rc = -1;
            break;
        }
        json_t *one = case_json(c, m->dir);
        json_object_set_new(one, "command", json_string(line));
        free(line);
        if (!o->quiet && !(o->json && strcmp(o->json, "-") == 0))
            fprintf(stderr, "gate: [%zu/%zu] %s ...\n", i + 1, m->count,
                    c->name);
        unlink(json_path);
        child_end e;
        if (run_child(self, &a, m->dir, err_path, c->timeout, cli->stop, &e)
            != 0) {
            sb_cli_error("gate: cannot run case '%s': %s", c->name,
                         strerror(errno));
            json_decref(one);
            args_free(&a);
            rc = -1;
            break;
        }
        judge(c, &e, json_path, err_path, one);
        json_object_set_new(one, "time", json_real(e.seconds));
        json_array_append_new(cases, one);
        args_free(&a);
        if (e.interrupted || (cli->stop && *cli->stop))
            rc = 1;
    }
    unlink(json_path);
    unlink(err_path);
    rmdir(dir);
    free(dir);
    return rc;
}

int sb_cmd_gate(const sb_cli *cli, int argc, char **argv)
{
    gate_options o;
    const int prc = parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    if (check_outputs(&o) != 0)
        return SB_EXIT_USAGE;
    sb_manifest m;
    if (sb_manifest_load(o.manifest, &m) != 0)
        return SB_EXIT_USAGE;
    json_t *base = NULL;
    if (check_cases(&m) != 0
        || (o.baseline && !(base = load_baseline(o.baseline)))) {
        sb_manifest_free(&m);
        return SB_EXIT_USAGE;
    }
    const double start = now();
    /* When, for JUnit's timestamp (local time, no zone, as its schema
       has it). */
    char started[32];
    const time_t clock = time(NULL);
    struct tm tm;
    strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%S",
             localtime_r(&clock, &tm));
    json_t *gate = json_object(), *cases = json_array();
    json_object_set_new(gate, "command", json_string("gate"));
    json_object_set_new(gate, "version", json_string(sb_version()));
    json_object_set_new(gate, "manifest", json_string(o.manifest));
    json_object_set_new(gate, "suite", json_string(m.suite));
    const int rc = run_cases(cli, &o, &m, cases);
    json_object_set_new(gate, "cases", cases);
    int code = SB_EXIT_USAGE;
    if (rc >= 0) {
        sb_gate_count(gate);
        if (base)
            sb_gate_compare(gate, base, o.baseline);
        json_object_set_new(gate, "partial", json_boolean(rc == 1));
        code = exit_code(json_object_get(gate, "counts"), rc == 1);
        json_object_set_new(gate, "exit_code", json_integer(code));
        json_t *timing = json_object();
        json_object_set_new(timing, "started", json_string(started));
        json_object_set_new(timing, "seconds", json_real(now() - start));
        json_object_set_new(gate, "timing", timing);
        if (o.no_timing)
            sb_gate_strip_timing(gate);
        int wrc = 0;
        if (!o.quiet && !(o.json && strcmp(o.json, "-") == 0))
            sb_render_gate_text(stdout, gate);
        if (o.json)
            wrc |= write_out(o.json, gate, render_json);
        if (o.junit)
            wrc |= write_out(o.junit, gate, sb_render_gate_junit);
        if (o.markdown)
            wrc |= write_out(o.markdown, gate, sb_render_gate_markdown);
        if (o.html)
            wrc |= write_out(o.html, gate, sb_render_gate_html);
        if (o.write_baseline)
            wrc |= write_out(o.write_baseline, gate, render_baseline);
        if (wrc < 0)
            code = SB_EXIT_USAGE;
        else if (wrc > 0) {
            sb_cli_error("interrupted while the reports were written: what "
                         "was written is cut short");
            code = SB_EXIT_INTERRUPTED;
        }
    }
    json_decref(gate);
    json_decref(base);
    sb_manifest_free(&m);
    return code;
}
