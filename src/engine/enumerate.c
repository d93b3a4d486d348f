/*
 * enumerate.c - the walk over all paths of draws (the enumerating source
 * is paths.c), or over the states of a shuffle that is Markov in its deck
 * (markov.c) when the caller gives its declaration.
 *
 * A run is left with longjmp when its path is cut at the depth limit or
 * it makes a draw that cannot be walked: the plug-in contract says run()
 * allocates nothing, so abandoning it loses nothing, and its state is
 * reset before the next path.
 *
 * Replay rather than saved state: re-running the algorithm from its reset
 * state along a recorded prefix needs nothing from the algorithm beyond
 * the plug-in contract (no copy of its state), and costs one run per path.
 * The 3-card naive swap is 27 runs; the 8-card one 16,777,216, which takes
 * a few seconds on one core.  Path probabilities are prefix products kept
 * per depth, so a new path recomputes only the draws after the one the
 * odometer changed.
 */
#include "engine/enumerate.h"

#include <gmp.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "base/draws.h"
#include "base/rng.h"
#include "shufflebias/status.h"
#include "sources/plugin.h"
#include "engine/budget.h"
#include "engine/markov.h"
#include "engine/paths.h"
#include "engine/runner.h"
#include "sources/sample_check.h"
#include "stats/exact.h"

/* One run of the algorithm along the current path.  The setjmp lives here,
   in a function with no local that changes after it. */
static void run_path(const sb_shuffle_type *t, void *state,
                     const sb_shuffle_args *args, sb_src *src, sb_card *out)
{
    sb_walk *k = src->impl;
    if (setjmp(k->abandon) == 0
        && (k->run_status = t->run(state, args, src, out)) != SB_OK) {
        k->status = SB_EINVAL;
        k->why = "the algorithm reported an error on one of its paths";
    } else if (k->status == SB_OK && src->error != SB_OK) {
        /* A draw with arguments out of range (a plug-in's sb_rand_mod):
           its answer was made up, so the path means nothing. */
        k->status = SB_EINVAL;
        k->why = SB_PLUGIN_BAD_DRAW;
    }
}

/* "plug-in 'PATH': shuffle 'NAME'" or "'NAME'": who the errors blame. */
static void who(const sb_enum_config *cfg, char *buf, size_t len)
{
    if (cfg->plugin)
        snprintf(buf, len, "plug-in '%s': shuffle '%s'", cfg->plugin,
                 cfg->alg->name);
    else
        snprintf(buf, len, "'%s'", cfg->alg->name);
}

/* After a run along the current path: its guard words intact and - when
   the path ended - its sample of its kind.  SB_OK, or SB_EINVAL with the
   path's draws and what it wrote in 'err'. */
static int check_path(const sb_enum_config *cfg, const sb_walk *k,
                      const sb_shape *shape, const sb_card *out, char *err,
                      size_t len)
{
    char why[320], draws[160], name[192];
    if (sb_sample_guard_intact(out + shape->len)
        && (k->cut || k->dead || k->status != SB_OK
            || sb_sample_check(shape, out, why, sizeof why) == SB_OK))
        return SB_OK;
    if (!sb_sample_guard_intact(out + shape->len))
        snprintf(why, sizeof why, "wrote past the end of its sample buffer "
                 "(%zu values)", shape->len);
    who(cfg, name, sizeof name);
    sb_walk_draws(k, draws, sizeof draws);
    snprintf(err, len, "%s cannot be enumerated: the path of draws %s (each "
             "draw as branch/branches): %s", name, draws, why);
    return SB_EINVAL;
}

/* Before the walk, when its paths are known: the outcomes are at most
   the paths and at most the possible ones (n!/(n-k)! orders or draws; a
   deal's hand sizes are known only from its samples), and a path's
   probability has a denominator of about log2(paths) bits.  SB_OK, or
   SB_ERANGE with what the walk could need in 'err'. */
static int memory_up_front(const sb_enum_config *cfg, const sb_shape *shape,
                           uint64_t budget, char *err, size_t len)
{
    const sb_shuffle_type *t = cfg->alg;
    if (!t->exact_paths)
        return SB_OK;
    const uint64_t paths = t->exact_paths(&cfg->args);
    double outcomes = (double)paths;
    if (shape->kind != SB_KIND_DEAL) {
        const double possible = exp(lgamma((double)shape->n + 1)
                                    - lgamma((double)(shape->n - shape->len)
                                             + 1));
        if (possible < outcomes)
            outcomes = possible;
    }
    const size_t limbs = (size_t)(log2((double)paths + 1) / 64) + 1;
    const double need = outcomes
                      * (double)sb_exact_outcome_bytes(shape->len, limbs,
                                                       cfg->json);
    if (need <= (double)budget)
        return SB_OK;
    char needs[32], has[32];
    sb_budget_str(need >= 0x1p62 ? UINT64_MAX / 2 : (uint64_t)need, needs,
                  sizeof needs);
    sb_budget_str(budget, has, sizeof has);
    snprintf(err, len, "'%s' at n = %zu can reach %.4g outcomes, whose exact "
             "table would need up to %s of memory%s, over the budget of %s: "
             "raise --memory or lower n", t->name, cfg->args.n, outcomes,
             needs, cfg->json ? " with its JSON" : "", has);
    return SB_ERANGE;
}

/* The walk's table has grown past the budget: what it would need. */
static int memory_over(const sb_enum_config *cfg, const sb_exact_acc *acc,
                       const sb_shape *shape, uint64_t walked,
                       uint64_t budget, char *err, size_t len)
{
    const size_t count = sb_exact_acc_count(acc);
    const double per = (double)sb_exact_acc_need(acc, cfg->json)
                     / (double)(count ? count : 1);
    const double possible = exp(lgamma((double)shape->n + 1)
                                - lgamma((double)(shape->n - shape->len) + 1));
    char has[32], all[32];
    sb_budget_str(budget, has, sizeof has);
    const double need_all = per * possible;
    sb_budget_str(need_all >= 0x1p62 ? UINT64_MAX / 2 : (uint64_t)need_all,
                  all, sizeof all);
    snprintf(err, len, "'%s' at n = %zu reached %zu outcomes in %llu paths "
             "and its exact table%s outgrew the memory budget of %s; all "
             "%.4g possible %s would need about %s: raise --memory or lower "
             "n", cfg->alg->name, cfg->args.n, count,
             (unsigned long long)walked, cfg->json ? " with its JSON" : "",
             has, possible, shape->kind == SB_KIND_DEAL ? "deals (at most)"
                          : "outcomes", all);
    return SB_ERANGE;
}

static void describe(const sb_enum_config *cfg, sb_exact_report *rep,
                     const sb_shape *shape)
{
    rep->algorithm = cfg->alg->name;
    sb_shuffle_format_params(cfg->alg, &cfg->args, rep->params,
                             sizeof rep->params);
    rep->kind = shape->kind;
    rep->n = shape->n;
    rep->len = shape->len;
    rep->hands = shape->hands;
}

/* Append to the reason in 'err' what the command line can change. */
static void advise(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void advise(char *err, size_t len, const char *fmt, ...)
{
    const size_t used = strlen(err);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + used, len - used, fmt, ap);
    va_end(ap);
}

int sb_enumerate(const sb_enum_config *cfg, sb_exact_report *rep, char *err,
                 size_t len)
{
    memset(rep, 0, sizeof *rep);
    const sb_shuffle_type *t = cfg->alg;
    if (sb_shuffle_check(t, &cfg->args, err, len) != SB_OK)
        return SB_EINVAL;
    const char *refusal = sb_shuffle_exact_refusal(t, &cfg->args);
    if (refusal) {
        snprintf(err, len, "'%s' cannot be enumerated: %s", t->name, refusal);
        return SB_ENOTSUP;
    }
    sb_shape shape;
    sb_shuffle_shape(t, &cfg->args, &shape);
    char why[768], name[192];
    if (sb_shape_check(&shape, why, sizeof why) != SB_OK) {
        who(cfg, name, sizeof name);
        snprintf(err, len, "%s %s", name, why);
        return SB_EINVAL;
    }
    if (cfg->plugin) {
        int prc = sb_plugin_probe(t, &cfg->args, 1, why, sizeof why);
        if (prc != SB_OK) {
            who(cfg, name, sizeof name);
            snprintf(err, len, "%s %s", name, why);
            return prc;
        }
    }
    if (cfg->merged)
        memset(cfg->merged, 0, sizeof *cfg->merged);
    if (cfg->markov && !sb_markov_refusal(cfg->markov, &shape))
        return sb_markov_walk(cfg, cfg->markov, &shape, NULL, NULL, rep,
                              cfg->merged, err, len);
    /* A stopping rule's bound is for its own cut depth: a walk cut
       sooner is not judged by it. */
    const int own_depth = !t->exact_depth || !cfg->max_depth
                          || cfg->max_depth >= t->exact_depth;
    if (t->exact_paths && own_depth) {
        uint64_t paths = t->exact_paths(&cfg->args);
        if (paths > cfg->max_paths) {
            char count[32];
            if (paths == UINT64_MAX)
                snprintf(count, sizeof count, "at least 2^64");
            else
                snprintf(count, sizeof count, "%llu", (unsigned long long)paths);
            snprintf(err, len, "'%s' at n = %zu has %s%s paths, over the "
                     "budget of %llu", t->name, cfg->args.n,
                     t->exact_depth ? "up to " : "", count,
                     (unsigned long long)cfg->max_paths);
            if (cfg->option_advice)
                advise(err, len, ": raise --max-paths or lower n%s%s%s%s",
                       t->exact_hint ? " (or --param " : "",
                       t->exact_hint ? t->exact_hint : "",
                       t->exact_hint ? ")" : "",
                       t->exact_depth ? ", or cut the walk sooner with "
                                        "--max-depth" : "");
            return SB_ERANGE;
        }
    }
    const uint64_t budget = cfg->memory ? cfg->memory : sb_budget_default();
    if (memory_up_front(cfg, &shape, budget, err, len) != SB_OK)
        return SB_ERANGE;
    describe(cfg, rep, &shape);

    sb_walk *k = calloc(1, sizeof *k);
    sb_exact_acc *acc = NULL;
    void *state = NULL;
    /* Room for the guard words after the sample. */
    sb_card *out = malloc((shape.len + SB_SAMPLE_GUARD) * sizeof *out);
    const size_t depth = cfg->max_depth ? cfg->max_depth
                       : t->exact_depth ? t->exact_depth
                       : SB_ENUM_MAX_DEPTH_DEFAULT;
    int rc = k ? sb_walk_init(k, depth) : SB_ENOMEM;
    if (rc == SB_OK)
        rc = sb_exact_acc_new(&acc, &shape);
    if (rc == SB_OK)
        sb_exact_acc_set_stop(acc, cfg->stop);
    if (rc == SB_OK && t->init)
        rc = t->init(&state, &cfg->args);
    if (rc == SB_OK && !out)
        rc = SB_ENOMEM;
    if (rc != SB_OK) {
        snprintf(err, len, "cannot prepare the walk: %s", sb_status_str(rc));
        goto done;
    }

    const double start = sb_now();
    sb_src src = sb_walk_src(k);
    uint64_t walked = 0;
    size_t reached = 0;
    do {
        if (cfg->stop && *cfg->stop)
            break;
        if (walked == cfg->max_paths) {
            snprintf(err, len, "'%s' at n = %zu has more than %llu paths",
                     t->name, cfg->args.n,
                     (unsigned long long)cfg->max_paths);
            if (cfg->option_advice)
                advise(err, len, ": raise --max-paths or lower n%s%s%s%s",
                       t->exact_hint ? " (or --param " : "",
                       t->exact_hint ? t->exact_hint : "",
                       t->exact_hint ? ")" : "",
                       t->exact_depth ? ", or cut the walk sooner with "
                                        "--max-depth" : "");
            rc = SB_ERANGE;
            goto done;
        }
        sb_walk_start(k);
        if (t->reset)
            t->reset(state, &cfg->args);
        sb_sample_guard_set(out + shape.len);
        run_path(t, state, &cfg->args, &src, out);
        rc = check_path(cfg, k, &shape, out, err, len);
        if (rc != SB_OK)
            goto done;
        if (k->status != SB_OK && k->run_status != SB_OK) {
            /* Which path, and what run() said. */
            char draws[160];
            rc = k->status;
            who(cfg, name, sizeof name);
            sb_walk_draws(k, draws, sizeof draws);
            snprintf(err, len, "%s cannot be enumerated: its run() returned "
                     "status %d (%s) on the path of draws %s (each draw as "
                     "branch/branches)", name, k->run_status,
                     sb_status_str(k->run_status), draws);
            goto done;
        }
        if (k->status != SB_OK) {
            rc = k->status;
            snprintf(err, len, "'%s' cannot be enumerated: %s", t->name,
                     k->why);
            if (cfg->option_advice && t->exact_hint)
                advise(err, len, "; try --param %s to make it enumerable",
                       t->exact_hint);
            goto done;
        }
        if (k->cut) {
            rep->cut_paths++;
            sb_exact_acc_cut(acc, k->num[k->len], k->den[k->len]);
        } else if (!k->dead) {
            rep->paths++;
            rc = sb_exact_acc_add(acc, out, k->num[k->len], k->den[k->len]);
            if (rc != SB_OK) {
                snprintf(err, len, "out of memory after %llu paths",
                         (unsigned long long)walked);
                goto done;
            }
            if (sb_exact_acc_count(acc) != reached) {
                reached = sb_exact_acc_count(acc);
                if (sb_exact_acc_need(acc, cfg->json) > budget) {
                    rc = memory_over(cfg, acc, &shape, walked + 1, budget,
                                     err, len);
                    goto done;
                }
            }
        }
        if ((++walked & 0xfffff) == 0 && cfg->progress)
            cfg->progress(cfg->progress_ctx, walked,
                          t->exact_paths ? t->exact_paths(&cfg->args) : 0);
    } while (sb_walk_advance(k));

    int interrupted = cfg->stop && *cfg->stop;
    if (!interrupted) {
        rc = sb_exact_acc_finish(acc, rep);
        if (rc == SB_EINTR) {
            sb_exact_report_release(rep);
            interrupted = 1;
        }
    }
    if (interrupted) {
        /* Interrupted, in the walk or while its table was made: the
           totals, at once, never a table of every outcome reached. */
        rc = sb_exact_acc_summary(acc, rep);
    }
    if (rc != SB_OK)
        snprintf(err, len, rc == SB_ERANGE
                 ? "internal error: the path probabilities do not add up to 1"
                 : "out of memory writing the exact table");
    rep->seconds = sb_now() - start;
    rep->stop = cfg->stop;
    rep->memory_budget = budget;
    rep->memory_estimate = sb_exact_acc_need(acc, cfg->json);
    rep->max_paths = cfg->max_paths;
    rep->max_depth = depth;
done:
    if (state && t->free)
        t->free(state);
    sb_exact_acc_free(acc);
    if (k)
        sb_walk_free(k);
    free(k);
    free(out);
    if (rc != SB_OK)
        sb_exact_report_release(rep);
    return rc;
}
