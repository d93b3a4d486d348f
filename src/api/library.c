/*
 * library.c - the sessions of include/shufflebias/session.h: what a C
 * program links, over the engine's run session and the renderers.
 */
#define _POSIX_C_SOURCE 200809L
#include "api/library.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "base/names.h"
#include "base/rng.h"
#include "base/shuffle_type.h"
#include "engine/diagnose.h"
#include "engine/enumerate.h"
#include "engine/escalate.h"
#include "engine/outfile.h"
#include "engine/runner.h"
#include "engine/session.h"
#include "reports/render.h"
#include "stats/exact.h"

/* Record why a call failed and return its status. */
__attribute__((format(printf, 3, 4)))
static int fail(sb_session *s, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    return status;
}

SB_API int sb_session_new(sb_session **out)
{
    sb_session *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return SB_ENOMEM;
    s->n = 52;
    s->samples = 1000000;
    snprintf(s->rng, sizeof s->rng, "%s", SB_RNG_DEFAULT);
    s->threads = 1;
    s->escalations = SB_ESCALATIONS_DEFAULT;
    /* GSL's default error handler aborts the process; the library checks
       every GSL result itself (stats/gof.h) and must never end its
       caller.  The handler is the process's, so this is said in
       session.h. */
    gsl_set_error_handler_off();
    return SB_OK;
}

static void release(sb_session *s)
{
    if (s->has == SB_SESSION_TEST)
        sb_report_release(&s->rep);
    else if (s->has == SB_SESSION_EXACT)
        sb_exact_report_release(&s->exact);
    s->has = SB_SESSION_NONE;
}

SB_API void sb_session_free(sb_session *s)
{
    if (!s)
        return;
    release(s);
    free(s);
}

SB_API const char *sb_session_error(const sb_session *s)
{
    return s->error;
}

SB_API int sb_session_set_shuffle(sb_session *s, const char *name)
{
    const sb_shuffle_type *t = name ? sb_shuffle_find(name) : NULL;
    if (!t) {
        const char *nearest = NULL;
        size_t best = SB_NAME_NEAR_MAX;
        for (const sb_shuffle_type *const *p = sb_shuffle_types;
             name && *p; p++)
            sb_name_nearer(name, (*p)->name, &best, &nearest);
        char hint[96];
        sb_name_hint(hint, sizeof hint, nearest);
        return fail(s, SB_ENOTFOUND, "unknown algorithm '%s'%s; "
                    "'shufflebias list' names them",
                    name ? name : "(null)", hint);
    }
    s->alg = t;
    s->builtin = 1;
    s->n_params = 0;
    return SB_OK;
}

SB_API int sb_session_set_shuffle_type(sb_session *s,
                                       const sb_shuffle_type *t)
{
    if (!t || !t->name || !t->name[0] || !t->run)
        return fail(s, SB_EINVAL, "a shuffle type needs a name and a run "
                    "function");
    s->alg = t;
    s->builtin = 0;
    s->n_params = 0;
    return SB_OK;
}

SB_API int sb_session_set_n(sb_session *s, size_t n)
{
    if (n < 1 || n > SB_DECK_MAX)
        return fail(s, SB_EINVAL, "n = %zu: expected a deck size from 1 to "
                    "%u", n, SB_DECK_MAX);
    s->n = n;
    return SB_OK;
}

/* Set the shuffle's parameters on 'args' (n set): the defaults, then
   each assignment. */
static int apply_params(sb_session *s, sb_shuffle_args *args)
{
    sb_shuffle_defaults(s->alg, args);
    for (size_t i = 0; i < s->n_params; i++) {
        int rc = sb_shuffle_set_param(s->alg, args, s->params[i]);
        if (rc == SB_ENOTFOUND)
            return fail(s, rc, "unknown parameter '%s' for '%s'",
                        s->params[i], s->alg->name);
        if (rc != SB_OK)
            return fail(s, rc, "invalid parameter '%s' for '%s'",
                        s->params[i], s->alg->name);
    }
    return SB_OK;
}

SB_API int sb_session_set_param(sb_session *s, const char *assignment)
{
    if (!s->alg)
        return fail(s, SB_EINVAL, "set a shuffle before its parameters");
    if (!assignment || strlen(assignment) >= sizeof s->params[0])
        return fail(s, SB_EINVAL, "invalid parameter '%s'",
                    assignment ? assignment : "(null)");
    if (s->n_params == SB_SESSION_PARAMS_MAX)
        return fail(s, SB_ERANGE, "too many parameters: at most %d",
                    SB_SESSION_PARAMS_MAX);
    snprintf(s->params[s->n_params++], sizeof s->params[0], "%s",
             assignment);
    sb_shuffle_args args = { .n = s->n };
    int rc = apply_params(s, &args);
    if (rc != SB_OK)
        s->n_params--;
    return rc;
}

SB_API void sb_session_clear_params(sb_session *s)
{
    s->n_params = 0;
}

SB_API int sb_session_set_samples(sb_session *s, uint64_t samples)
{
    if (samples < 1 || samples > (uint64_t)1 << 62)
        return fail(s, SB_EINVAL, "samples = %llu: expected 1 to 2^62",
                    (unsigned long long)samples);
    s->samples = samples;
    return SB_OK;
}

SB_API int sb_session_set_seed(sb_session *s, uint64_t seed)
{
    if (seed > (uint64_t)INT64_MAX)
        return fail(s, SB_EINVAL, "seed %llu: expected 0 to 2^63-1",
                    (unsigned long long)seed);
    s->seed = seed;
    return SB_OK;
}

SB_API int sb_session_set_rng(sb_session *s, const char *name)
{
    if (!name || !name[0] || strlen(name) >= sizeof s->rng)
        return fail(s, SB_EINVAL, "invalid randomness source name");
    snprintf(s->rng, sizeof s->rng, "%s", name);
    return SB_OK;
}

SB_API int sb_session_set_threads(sb_session *s, unsigned threads)
{
    if (threads > SB_SESSION_THREADS_MAX)
        return fail(s, SB_EINVAL, "threads = %u: expected 0 to %u", threads,
                    SB_SESSION_THREADS_MAX);
    s->threads = threads;
    return SB_OK;
}

SB_API int sb_session_set_tests(sb_session *s, const char *list)
{
    if (list && strlen(list) >= sizeof s->tests)
        return fail(s, SB_EINVAL, "the list of statistics is too long");
    s->tests_set = list != NULL;
    snprintf(s->tests, sizeof s->tests, "%s", list ? list : "");
    return SB_OK;
}

SB_API int sb_session_set_escalations(sb_session *s, unsigned escalations)
{
    if (escalations >= SB_STAGES_MAX)
        return fail(s, SB_EINVAL, "escalations = %u: expected 0 to %u",
                    escalations, SB_STAGES_MAX - 1);
    s->escalations = escalations;
    return SB_OK;
}

SB_API void sb_session_set_stop(sb_session *s, volatile sig_atomic_t *stop)
{
    s->stop = stop;
}

SB_API void sb_session_set_progress(sb_session *s,
                                    void (*fn)(void *ctx, uint64_t done,
                                               uint64_t total),
                                    void *ctx)
{
    s->progress = fn;
    s->progress_ctx = ctx;
}

/* The shuffle at n with its parameters in 'args'.  SB_OK, or a status
   with sb_session_error set. */
static int shuffle_args(sb_session *s, sb_shuffle_args *args)
{
    if (!s->alg)
        return fail(s, SB_EINVAL, "no shuffle set");
    const sb_shuffle_type *t = s->alg;
    if (s->n < t->n_min || s->n > t->n_max)
        return fail(s, SB_EINVAL, "n = %zu is out of range for '%s' "
                    "(%zu..%zu)", s->n, t->name, t->n_min, t->n_max);
    *args = (sb_shuffle_args){ .n = s->n };
    return apply_params(s, args);
}

static unsigned threads_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > (long)SB_SESSION_THREADS_MAX ? SB_SESSION_THREADS_MAX : (unsigned)n;
}

SB_API int sb_session_test(sb_session *s)
{
    release(s);
    s->error[0] = '\0';
    sb_run_config cfg = {
        .samples = s->samples,
        .seed = s->seed,
        .rng = s->rng,
        /* The caller's own shuffle has its samples checked, as a
           plug-in's are. */
        .check_samples = !s->builtin,
        .threads = s->threads ? s->threads : threads_online(),
        .stop = s->stop,
        .progress = s->progress,
        .progress_ctx = s->progress_ctx,
    };
    int rc = shuffle_args(s, &cfg.args);
    if (rc != SB_OK)
        return rc;
    cfg.alg = s->alg;
    char err[sizeof s->error];
    sb_shape shape;
    rc = sb_run_shape(&cfg, &shape, err, sizeof err);
    const sb_stat_type *stats[SB_SESSION_STATS_MAX];
    size_t n_stats = 0;
    if (rc == SB_OK)
        rc = sb_run_stats(s->tests_set ? s->tests : NULL,
                          "sb_session_set_tests", &shape, stats,
                          SB_SESSION_STATS_MAX, &n_stats, err, sizeof err);
    if (rc == SB_OK)
        rc = sb_run_session(&cfg, stats, n_stats, s->escalations, NULL, NULL,
                            &s->rep, err, sizeof err);
    if (rc != SB_OK)
        return fail(s, rc, "%s", err);
    s->has = SB_SESSION_TEST;
    if (s->rep.run.bad_sample[0])
        return fail(s, SB_EINVAL, "'%s': %s", s->alg->name,
                    s->rep.run.bad_sample);
    if (s->rep.run.partial)
        return fail(s, SB_EINTR, "interrupted: the report covers the %llu "
                    "samples done of %llu",
                    (unsigned long long)s->rep.run.done,
                    (unsigned long long)s->rep.run.samples);
    return SB_OK;
}

SB_API int sb_session_exact(sb_session *s)
{
    release(s);
    s->error[0] = '\0';
    sb_enum_config cfg = {
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .stop = s->stop,
        .progress = s->progress,
        .progress_ctx = s->progress_ctx,
    };
    int rc = shuffle_args(s, &cfg.args);
    if (rc != SB_OK)
        return rc;
    cfg.alg = s->alg;
    char err[sizeof s->error];
    rc = sb_enumerate(&cfg, &s->exact, err, sizeof err);
    if (rc != SB_OK)
        return fail(s, rc, "%s: %s", s->alg->name, err);
    s->has = SB_SESSION_EXACT;
    return SB_OK;
}

SB_API sb_verdict sb_session_verdict(const sb_session *s)
{
    return s->has == SB_SESSION_TEST ? s->rep.verdict : SB_VERDICT_NA;
}

SB_API const char *sb_session_verdict_str(const sb_session *s)
{
    if (s->has == SB_SESSION_TEST)
        return sb_report_verdict(&s->rep);
    if (s->has != SB_SESSION_EXACT)
        return "";
    switch (s->exact.verdict) {
    case SB_EXACT_UNIFORM: return "uniform";
    case SB_EXACT_BIASED: return "biased";
    default: return "inconclusive";
    }
}

SB_API int sb_session_diagnose(sb_session *s)
{
    s->error[0] = '\0';
    if (s->has != SB_SESSION_TEST)
        return fail(s, SB_EINVAL, "no test has run to diagnose");
    char err[512];
    const int st = sb_diagnose_once(&s->rep, s->threads ? s->threads
                                                       : threads_online(),
                                    s->stop, err, sizeof err);
    if (st != SB_OK)
        return fail(s, st, "%s", err);
    return SB_OK;
}

SB_API const sb_report *sb_session_report(const sb_session *s)
{
    return s->has == SB_SESSION_TEST ? &s->rep : NULL;
}

SB_API const sb_exact_report *sb_session_exact_report(const sb_session *s)
{
    return s->has == SB_SESSION_EXACT ? &s->exact : NULL;
}

SB_API int sb_session_write_json(const sb_session *s, FILE *f)
{
    /* The program's JSON, key for key: "expect" and "expectation_held"
       are there, null (a session is told no expectation). */
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.expectation = 1;
    if (s->has == SB_SESSION_TEST)
        return sb_render_json_with(f, &s->rep, &o);
    if (s->has == SB_SESSION_EXACT)
        return sb_render_exact_json_with(f, &s->exact, &o);
    return SB_EINVAL;
}

SB_API int sb_session_save_json(sb_session *s, const char *path)
{
    if (s->has == SB_SESSION_NONE)
        return fail(s, SB_EINVAL, "no report to write: nothing has run");
    sb_outfile o;
    char err[sizeof s->error];
    int rc = sb_outfile_open(&o, path, 0, err, sizeof err);
    if (rc != SB_OK)
        return fail(s, rc, "%s", err);
    rc = sb_session_write_json(s, o.f);
    if (rc != SB_OK) {
        const int e = o.error;
        sb_outfile_abort(&o);
        return fail(s, rc, "cannot write '%s': %s", path,
                    e ? strerror(e) : sb_status_str(rc));
    }
    rc = sb_outfile_commit(&o, err, sizeof err);
    if (rc != SB_OK)
        return fail(s, rc, "%s", err);
    return SB_OK;
}
