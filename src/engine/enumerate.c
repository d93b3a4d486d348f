/*
 * enumerate.c - the enumerating source and the walk over all paths.
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
#include "engine/runner.h"
#include "sources/sample_check.h"
#include "stats/exact.h"

typedef struct walk {
    size_t depth;          /* draws made so far in this run */
    size_t len;            /* draws recorded on the current path */
    size_t max_depth;
    uint64_t *choice;      /* branch taken at each recorded draw */
    uint64_t *radix;       /* branches at each recorded draw */
    mpz_t *num, *den;      /* num[d]/den[d]: probability of the first d draws */
    size_t valid;          /* num/den are right up to this depth */
    int cut;               /* this run went past max_depth */
    int dead;              /* this run took a branch of weight 0 */
    int status;            /* first error of this walk */
    int run_status;        /* what run() returned, when not SB_OK */
    const char *why;       /* what the error was */
    jmp_buf abandon;       /* where a cut or refused run is left from */
} walk;

/* Take branch 'choice' of 'radix' at the current depth, with weight
   wnum/wden (wden == 0 means 1/radix).  Returns the branch. */
static uint64_t branch(sb_src *src, uint64_t radix, uint64_t wnum,
                       uint64_t wden, const uint64_t *w)
{
    walk *k = src->impl;
    const size_t d = k->depth++;
    if (d >= k->max_depth) {
        /* Left at once: an algorithm that retries until some draw comes
           out right would otherwise loop forever on the answers a cut
           path would have to make up. */
        k->cut = 1;
        k->depth = k->max_depth;
        longjmp(k->abandon, 1);
    }
    if (d == k->len) {
        k->choice[d] = 0;
        k->radix[d] = radix;
        k->len++;
    } else if (k->radix[d] != radix) {
        k->status = SB_EINVAL;
        k->why = "the algorithm drew differently on the same path of draws";
        longjmp(k->abandon, 1);
    }
    const uint64_t c = k->choice[d];
    if (w) {
        wnum = w[c];
        if (wnum == 0)
            k->dead = 1;
    }
    if (d >= k->valid) {
        mpz_mul_ui(k->num[d + 1], k->num[d], wden ? wnum : 1);
        mpz_mul_ui(k->den[d + 1], k->den[d], wden ? wden : radix);
        k->valid = d + 1;
    }
    return c;
}

static uint64_t e_below(sb_src *src, uint64_t n)
{
    return n <= 1 ? 0 : branch(src, n, 0, 0, NULL);
}

static uint64_t e_bits(sb_src *src, unsigned k)
{
    walk *w = src->impl;
    if (k == 0)
        return 0;
    if (k > 63) {
        w->status = SB_ENOTSUP;
        w->why = "a draw of 64 random bits has too many branches to walk";
        longjmp(w->abandon, 1);
    }
    return branch(src, (uint64_t)1 << k, 0, 0, NULL);
}

static size_t e_weighted(sb_src *src, const uint64_t *w, size_t m)
{
    uint64_t total = 0;
    for (size_t i = 0; i < m; i++)
        total += w[i];
    return (size_t)branch(src, m, 0, total, w);
}

static double e_unit(sb_src *src)
{
    walk *w = src->impl;
    w->status = SB_ENOTSUP;
    w->why = "it draws a uniform real number (unit()), which has no finite "
             "set of branches";
    longjmp(w->abandon, 1);
}

/* rand() % k: the k residues with their weights, never the 2^bits
   values of rand() that sampling draws. */
static const sb_src_ops enum_ops = { e_below, e_bits, e_weighted, e_unit,
                                     NULL, sb_rand_mod_weighted };

/* Move to the next path; 0 when all are walked. */
static int advance(walk *k)
{
    while (k->len > 0 && k->choice[k->len - 1] + 1 == k->radix[k->len - 1])
        k->len--;
    if (k->len == 0)
        return 0;
    k->choice[k->len - 1]++;
    if (k->valid > k->len - 1)
        k->valid = k->len - 1;
    return 1;
}

static int walk_init(walk *k, size_t max_depth)
{
    memset(k, 0, sizeof *k);
    k->max_depth = max_depth;
    k->choice = malloc(max_depth * sizeof *k->choice);
    k->radix = malloc(max_depth * sizeof *k->radix);
    k->num = malloc((max_depth + 1) * sizeof *k->num);
    k->den = malloc((max_depth + 1) * sizeof *k->den);
    if (!k->choice || !k->radix || !k->num || !k->den)
        return SB_ENOMEM;
    for (size_t d = 0; d <= max_depth; d++) {
        mpz_init_set_ui(k->num[d], 1);
        mpz_init_set_ui(k->den[d], 1);
    }
    return SB_OK;
}

static void walk_free(walk *k)
{
    if (k->num && k->den)
        for (size_t d = 0; d <= k->max_depth; d++) {
            mpz_clear(k->num[d]);
            mpz_clear(k->den[d]);
        }
    free(k->num);
    free(k->den);
    free(k->choice);
    free(k->radix);
}

/* One run of the algorithm along the current path.  The setjmp lives here,
   in a function with no local that changes after it. */
static void run_path(const sb_shuffle_type *t, void *state,
                     const sb_shuffle_args *args, sb_src *src, sb_card *out)
{
    walk *k = src->impl;
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

/* The current path as its draws, "branch/of branch/of ...", as much as
   fits in 'buf'. */
static void path_draws(const walk *k, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (k->len == 0) {
        snprintf(buf, len, "(no draw)");
        return;
    }
    for (size_t d = 0; d < k->len; d++) {
        const int w = snprintf(buf + used, len - used, "%s%llu/%llu",
                               d ? " " : "",
                               (unsigned long long)k->choice[d],
                               (unsigned long long)k->radix[d]);
        if (w < 0 || used + (size_t)w + 5 >= len) {
            snprintf(buf + used, len - used, " ...");
            return;
        }
        used += (size_t)w;
    }
}

/* After a run along the current path: its guard words intact and - when
   the path ended - its sample of its kind.  SB_OK, or SB_EINVAL with the
   path's draws and what it wrote in 'err'. */
static int check_path(const sb_enum_config *cfg, const walk *k,
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
    path_draws(k, draws, sizeof draws);
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
    if (t->exact_paths) {
        uint64_t paths = t->exact_paths(&cfg->args);
        if (paths > cfg->max_paths) {
            char count[32];
            if (paths == UINT64_MAX)
                snprintf(count, sizeof count, "at least 2^64");
            else
                snprintf(count, sizeof count, "%llu", (unsigned long long)paths);
            snprintf(err, len, "'%s' at n = %zu has %s paths, over the "
                     "budget of %llu", t->name, cfg->args.n, count,
                     (unsigned long long)cfg->max_paths);
            if (cfg->option_advice)
                advise(err, len, ": raise --max-paths or lower n%s%s%s",
                       t->exact_hint ? " (or --param " : "",
                       t->exact_hint ? t->exact_hint : "",
                       t->exact_hint ? ")" : "");
            return SB_ERANGE;
        }
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
    const uint64_t budget = cfg->memory ? cfg->memory : sb_budget_default();
    if (memory_up_front(cfg, &shape, budget, err, len) != SB_OK)
        return SB_ERANGE;
    describe(cfg, rep, &shape);

    walk *k = calloc(1, sizeof *k);
    sb_exact_acc *acc = NULL;
    void *state = NULL;
    /* Room for the guard words after the sample. */
    sb_card *out = malloc((shape.len + SB_SAMPLE_GUARD) * sizeof *out);
    const size_t depth = cfg->max_depth ? cfg->max_depth
                       : t->exact_depth ? t->exact_depth
                       : SB_ENUM_MAX_DEPTH_DEFAULT;
    int rc = k ? walk_init(k, depth) : SB_ENOMEM;
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
    sb_src src = { .ops = &enum_ops, .impl = k };
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
        k->depth = 0;
        k->run_status = SB_OK;
        k->cut = k->dead = 0;
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
            path_draws(k, draws, sizeof draws);
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
    } while (advance(k));

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
        walk_free(k);
    free(k);
    free(out);
    if (rc != SB_OK)
        sb_exact_report_release(rep);
    return rc;
}
