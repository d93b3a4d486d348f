/* session.c - a whole run: stages, parts, checkpoints, resumed counts. */
#include "engine/session.h"

#include <stdio.h>
#include <string.h>

#include "shufflebias/status.h"
#include "algorithms/registry.h"
#include "base/names.h"
#include "engine/escalate.h"
#include "engine/state.h"
#include "sources/sample_check.h"
#include "stats/registry.h"

int sb_run_shape(const sb_run_config *cfg, sb_shape *shape, char *err,
                 size_t len)
{
    const sb_shuffle_type *t = cfg->alg;
    char why[256];
    if (sb_shuffle_check(t, &cfg->args, why, sizeof why) != SB_OK) {
        snprintf(err, len, "%s", why);
        return SB_EINVAL;
    }
    sb_shuffle_shape(t, &cfg->args, shape);
    /* A plug-in may declare a shape no sample can have (no hands, a
       sample_len of 0): said before a statistic is fitted to it. */
    if (sb_shape_check(shape, why, sizeof why) != SB_OK) {
        if (cfg->plugin)
            snprintf(err, len, "plug-in '%s': shuffle '%s' %s", cfg->plugin,
                     t->name, why);
        else
            snprintf(err, len, "'%s' %s", t->name, why);
        return SB_EINVAL;
    }
    return SB_OK;
}

int sb_run_stats(const char *list, const char *list_name,
                 const sb_shape *shape, const sb_stat_type **out, size_t max,
                 size_t *count, char *err, size_t len)
{
    *count = 0;
    if (!list) {
        *count = sb_stat_defaults(shape, out, max);
        if (*count == 0) {
            snprintf(err, len, "no statistic applies to %s samples of "
                     "n = %zu", sb_kind_str(shape->kind), shape->n);
            return SB_EINVAL;
        }
        return SB_OK;
    }
    for (const char *p = list;; ) {
        const size_t w = strcspn(p, ",");
        char name[128];
        if (w > 0) {
            snprintf(name, sizeof name, "%.*s", (int)w, p);
            const sb_stat_type *t = w < sizeof name ? sb_stat_find(name)
                                                    : NULL;
            if (!t) {
                char valid[1024] = "", hint[96];
                const char *nearest = NULL;
                size_t best = SB_NAME_NEAR_MAX, used = 0;
                for (const sb_stat_type *const *s = sb_stat_types; *s; s++) {
                    sb_name_nearer(name, (*s)->name, &best, &nearest);
                    int k = snprintf(valid + used, sizeof valid - used,
                                     "%s%s", used ? ", " : "", (*s)->name);
                    if (k > 0 && (size_t)k < sizeof valid - used)
                        used += (size_t)k;
                }
                sb_name_hint(hint, sizeof hint, nearest);
                snprintf(err, len, "unknown statistic '%s'%s; valid: %s",
                         name, hint, valid);
                return SB_ENOTFOUND;
            }
            if (sb_stat_check(t, shape, err, len) != SB_OK)
                return SB_EINVAL;
            for (size_t i = 0; i < *count; i++)
                if (out[i] == t) {
                    snprintf(err, len, "statistic '%s' is named twice in %s",
                             name, list_name);
                    return SB_EINVAL;
                }
            if (*count == max) {
                snprintf(err, len, "too many statistics in %s", list_name);
                return SB_EINVAL;
            }
            out[(*count)++] = t;
        }
        if (!p[w])
            break;
        p += w + 1;
    }
    if (*count == 0) {
        snprintf(err, len, "%s names no statistic", list_name);
        return SB_EINVAL;
    }
    return SB_OK;
}

/* What a stage of a run needs: the configuration, whose seed and samples
   each stage sets, and the state it saves. */
typedef struct stage_ctx {
    sb_run_config *cfg;
    unsigned escalations;
    const sb_run_hooks *hooks;
    sb_run_keep *keep;
    sb_state *save;            /* what the state files say, counts aside */
    const sb_stage *stages;    /* the stages finished, as sb_escalate_from
                                  fills them */
} stage_ctx;

/* The checkpoint of a run that keeps its state: write the counts so far.
   A failure is told once and the run goes on. */
static int save(void *ctx, const sb_run_counts *counts)
{
    stage_ctx *c = ctx;
    c->save->counts = *counts;
    char err[512];
    int rc = sb_state_write(c->keep->path, c->save, err, sizeof err);
    memset(&c->save->counts, 0, sizeof c->save->counts);
    if (rc != SB_OK && !c->keep->save_failed && c->hooks->save_failed)
        c->hooks->save_failed(c->hooks->ctx, err);
    c->keep->save_failed = rc != SB_OK;
    if (rc != SB_OK)
        snprintf(c->keep->save_error, sizeof c->keep->save_error, "%s", err);
    return SB_OK;
}

static int stage(void *ctx, unsigned stage, uint64_t seed, uint64_t samples,
                 sb_report *rep, char *err, size_t len)
{
    stage_ctx *c = ctx;
    sb_run_config *cfg = c->cfg;
    cfg->seed = seed;
    cfg->samples = samples;
    if (stage > 0 && c->hooks->stage)
        c->hooks->stage(c->hooks->ctx, stage, c->escalations);
    const sb_run_keep *keep = c->keep;
    cfg->resume = keep->resume && keep->resume->stage == stage
                ? &keep->resume->counts : NULL;
    if (keep->parts) {
        const uint64_t chunks = sb_chunk_count(samples);
        cfg->first_chunk = chunks * (keep->part - 1) / keep->parts;
        cfg->end_chunk = chunks * keep->part / keep->parts;
        if (cfg->end_chunk == cfg->first_chunk) {
            snprintf(err, len, "part %u of %u holds no chunk: %llu samples "
                     "make %llu chunks of %u", keep->part, keep->parts,
                     (unsigned long long)samples,
                     (unsigned long long)chunks, SB_CHUNK_SAMPLES);
            return SB_EINVAL;
        }
    }
    if (keep->path) {
        sb_state *st = c->save;
        st->stage = stage;
        memcpy(st->prior, c->stages, stage * sizeof st->prior[0]);
        st->stage_seed = seed;
        st->stage_samples = samples;
        st->part_first = cfg->first_chunk;
        st->part_end = cfg->end_chunk;
        cfg->checkpoint = save;
        cfg->checkpoint_ctx = c;
        cfg->checkpoint_seconds = SB_RUN_SAVE_SECONDS;
    }
    return sb_run(cfg, rep, err, len);
}

int sb_run_session(sb_run_config *cfg, const sb_stat_type *const *stats,
                   size_t n_stats, unsigned escalations, sb_run_keep *keep,
                   const sb_run_hooks *hooks, sb_report *rep, char *err,
                   size_t len)
{
    static const sb_run_hooks quiet = { 0 };
    sb_run_keep none = { 0 };
    if (n_stats > SB_STATE_STATS_MAX) {
        snprintf(err, len, "at most %u statistics in a run",
                 SB_STATE_STATS_MAX);
        return SB_EINVAL;
    }
    if (!keep)
        keep = &none;
    if (!hooks)
        hooks = &quiet;
    sb_shape shape;
    sb_shuffle_shape(cfg->alg, &cfg->args, &shape);
    cfg->stats = stats;
    cfg->n_stats = n_stats;
    const uint64_t seed = cfg->seed, samples = cfg->samples;
    sb_state save;
    sb_state_describe(&save, cfg, &shape);
    save.escalations = escalations;
    save.part = keep->part;
    save.parts = keep->parts;
    sb_stage stages[SB_STAGES_MAX];
    size_t n_prior = 0;
    if (keep->resume) {
        n_prior = keep->resume->stage;
        memcpy(stages, keep->resume->prior, n_prior * sizeof stages[0]);
    }
    stage_ctx ctx = { .cfg = cfg, .escalations = escalations,
                      .hooks = hooks, .keep = keep, .save = &save,
                      .stages = stages };
    char why[512];
    int rc = sb_escalate_from(stage, &ctx, seed, samples, escalations,
                              stages, n_prior, rep, why, sizeof why);
    cfg->seed = seed;
    cfg->samples = samples;
    cfg->stats = NULL;
    cfg->resume = NULL;
    cfg->checkpoint = NULL;
    if (rc != SB_OK) {
        /* A plug-in's errors name it, its path and the sample already. */
        if (cfg->plugin)
            snprintf(err, len, "%s", why);
        else
            snprintf(err, len, "%s: %s", cfg->alg->name, why);
    }
    return rc;
}

/* What a stage of a program's or a file's run needs. */
typedef struct external_ctx {
    sb_external_spec spec;         /* the shape settled by stage 0 */
    sb_external *first;            /* stage 0's, opened to learn the shape */
    const sb_stat_type *const *stats;
    size_t n_stats;
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    const sb_run_hooks *hooks;
    unsigned escalations;
    sb_input_info *info;
    int input_error;
} external_ctx;

static int external_stage(void *ctx, unsigned stage, uint64_t seed,
                          uint64_t samples, sb_report *rep, char *err,
                          size_t len)
{
    external_ctx *c = ctx;
    sb_external *x = c->first;
    c->first = NULL;
    if (!x) {
        if (c->hooks->stage)
            c->hooks->stage(c->hooks->ctx, stage, c->escalations);
        int rc = sb_external_open(&x, &c->spec, seed, samples, err, len);
        if (rc != SB_OK)
            return rc;
    }
    sb_run_config cfg = {
        .feed = sb_external_feed(x),
        .samples = samples,
        .seed = seed,
        .stats = c->stats,
        .n_stats = c->n_stats,
        .stop = c->spec.input.stop,
        .progress = c->progress,
        .progress_ctx = c->progress_ctx,
        .memory = c->spec.memory,
    };
    int rc = sb_run(&cfg, rep, err, len);
    if (rc != SB_OK) {
        const sb_report none = { 0 };
        sb_external_close(x, &none, c->info);
        return rc;
    }
    c->input_error = sb_external_close(x, rep, c->info);
    rep->run.input = c->info;
    /* Fewer samples than asked for, with nothing wrong and no interrupt:
       the program wrote what it was asked for and some were skipped as
       bad (--skip-invalid).  The run is whole. */
    if (!c->input_error && !*c->spec.input.stop)
        rep->run.partial = 0;
    return SB_OK;
}

int sb_run_session_external(sb_external *first, const sb_external_spec *spec,
                            const sb_stat_type *const *stats, size_t n_stats,
                            uint64_t seed, uint64_t samples,
                            unsigned escalations,
                            void (*progress)(void *ctx, uint64_t done,
                                             uint64_t total),
                            void *progress_ctx, const sb_run_hooks *hooks,
                            sb_report *rep, sb_input_info *info,
                            int *input_error, char *err, size_t len)
{
    static const sb_run_hooks quiet = { 0 };
    external_ctx ctx = { .spec = *spec, .first = first, .stats = stats,
                         .n_stats = n_stats, .progress = progress,
                         .progress_ctx = progress_ctx,
                         .hooks = hooks ? hooks : &quiet,
                         .escalations = escalations, .info = info };
    ctx.spec.input.shape = sb_external_feed(first)->shape;
    int rc = sb_escalate(external_stage, &ctx, seed, samples, escalations,
                         rep, err, len);
    if (ctx.first) {
        const sb_report none = { 0 };
        sb_external_close(ctx.first, &none, info);
    }
    if (rc != SB_OK)
        return rc;
    /* sb_escalate copied the last stage's report, pointer included. */
    *input_error = ctx.input_error;
    return SB_OK;
}
