/*
 * runner.c - the sampling loop.
 *
 * For each chunk: point the source at the chunk's stream, reset the
 * algorithm's state, then make blocks of samples and let every statistic
 * count each block.  The stop flag is looked at between blocks, so an
 * interrupted run still reports every sample it made.
 */
#include "src/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "src/rng.h"
#include "stats/battery.h"
#include "stats/registry.h"

/* Samples per block: enough to amortise the per-block calls, small enough
   for the block of a 1000-card deck to stay in cache. */
#define BLOCK_SAMPLES 64u

double sb_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct run_state {
    sb_rng *rng;
    void *alg_state;
    void **acc;            /* one accumulator per statistic */
    sb_card *block;        /* BLOCK_SAMPLES samples */
    int alg_status;        /* what a failed run() returned, else SB_OK */
} run_state;

static void release(const sb_run_config *cfg, run_state *s)
{
    if (s->acc)
        for (size_t i = 0; i < cfg->n_stats; i++)
            if (s->acc[i])
                cfg->stats[i]->free(s->acc[i]);
    free(s->acc);
    free(s->block);
    if (s->alg_state && cfg->alg->free)
        cfg->alg->free(s->alg_state);
    if (s->rng)
        sb_rng_close(s->rng);
}

/* The randomness source of an algorithm's run, with a reason when it
   cannot be opened. */
static int open_rng(const sb_run_config *cfg, run_state *s, char *err,
                    size_t len)
{
    int rc = sb_rng_open(&s->rng, cfg->rng, cfg->seed);
    if (rc == SB_ERANGE) {
        snprintf(err, len, "randomness source '%s' seeded with %llu is stuck "
                 "at one value from the start; choose another seed",
                 cfg->rng, (unsigned long long)cfg->seed);
        return rc;
    }
    if (rc == SB_EINVAL) {
        snprintf(err, len, "randomness source '%s' refuses the seed %llu; "
                 "choose another seed", cfg->rng,
                 (unsigned long long)cfg->seed);
        return rc;
    }
    if (rc != SB_OK) {
        snprintf(err, len, "cannot open randomness source '%s': %s",
                 cfg->rng, sb_status_str(rc));
        return rc;
    }
    return SB_OK;
}

static int prepare(const sb_run_config *cfg, const sb_shape *shape,
                   run_state *s, char *err, size_t len)
{
    if (!cfg->feed) {
        int rc = open_rng(cfg, s, err, len);
        if (rc != SB_OK)
            return rc;
    }
    for (size_t i = 0; i < cfg->n_stats; i++)
        if (!sb_stat_applies(cfg->stats[i], shape, err, len))
            return SB_EINVAL;
    if (!cfg->feed && cfg->alg->init
        && cfg->alg->init(&s->alg_state, &cfg->args) != SB_OK)
        goto nomem;
    s->block = malloc(BLOCK_SAMPLES * shape->len * sizeof *s->block);
    s->acc = calloc(cfg->n_stats ? cfg->n_stats : 1, sizeof *s->acc);
    if (!s->block || !s->acc)
        goto nomem;
    for (size_t i = 0; i < cfg->n_stats; i++)
        if (cfg->stats[i]->alloc(&s->acc[i], shape) != SB_OK)
            goto nomem;
    return SB_OK;
nomem:
    snprintf(err, len, "out of memory preparing the run");
    return SB_ENOMEM;
}

/* Make and count the samples of chunk 'chunk' (at most 'count' of them).
   Returns the samples counted, less than 'count' only when stopped or on a
   draw error (then *rc is set). */
static uint64_t run_chunk(const sb_run_config *cfg, const sb_shape *shape,
                          run_state *s, uint64_t chunk, uint64_t count,
                          int *rc)
{
    sb_src src;
    *rc = sb_rng_chunk(s->rng, chunk, &src);
    if (*rc != SB_OK)
        return 0;
    if (cfg->alg->reset)
        cfg->alg->reset(s->alg_state, &cfg->args);
    uint64_t done = 0;
    while (done < count) {
        if (cfg->stop && *cfg->stop)
            return done;
        size_t b = count - done < BLOCK_SAMPLES ? (size_t)(count - done)
                                                : BLOCK_SAMPLES;
        if (cfg->alg->run_block && src.ops == NULL) {
            int st = cfg->alg->run_block(s->alg_state, &cfg->args, &src,
                                         s->block, b);
            if (st != SB_OK) {
                s->alg_status = *rc = st;
                return done;
            }
        } else {
            for (size_t k = 0; k < b; k++) {
                sb_src_begin_sample(&src);
                int st = cfg->alg->run(s->alg_state, &cfg->args, &src,
                                       s->block + k * shape->len);
                if (st != SB_OK) {
                    s->alg_status = *rc = st;
                    return done;
                }
            }
        }
        if (src.error != SB_OK) {
            *rc = src.error;
            return done;
        }
        for (size_t i = 0; i < cfg->n_stats; i++)
            cfg->stats[i]->add(s->acc[i], s->block, b);
        done += b;
    }
    return done;
}

/* The same for samples read from a feed: at most 'count' of them.  Stops
   early at the end of the input (*ended), on the stop flag, or when the
   feed goes wrong (*rc). */
static uint64_t feed_chunk(const sb_run_config *cfg, run_state *s,
                           uint64_t count, int *ended, int *rc)
{
    uint64_t done = 0;
    *rc = SB_OK;
    while (done < count) {
        if (cfg->stop && *cfg->stop)
            return done;
        size_t want = count - done < BLOCK_SAMPLES ? (size_t)(count - done)
                                                   : BLOCK_SAMPLES;
        size_t got = 0;
        *rc = cfg->feed->read(cfg->feed->ctx, s->block, want, &got);
        if (got > 0)
            for (size_t i = 0; i < cfg->n_stats; i++)
                cfg->stats[i]->add(s->acc[i], s->block, got);
        done += got;
        if (*rc != SB_OK)
            return done;
        if (got < want) {
            *ended = !(cfg->stop && *cfg->stop);
            return done;
        }
    }
    return done;
}

int sb_run(const sb_run_config *cfg, sb_report *rep, char *err, size_t len)
{
    memset(rep, 0, sizeof *rep);
    const size_t n = cfg->feed ? cfg->feed->shape.n : cfg->args.n;
    sb_shape shape;
    if (cfg->feed) {
        shape = cfg->feed->shape;
    } else {
        if (sb_shuffle_check(cfg->alg, &cfg->args, err, len) != SB_OK)
            return SB_EINVAL;
        sb_shuffle_shape(cfg->alg, &cfg->args, &shape);
    }
    run_state s = { 0 };
    int rc = prepare(cfg, &shape, &s, err, len);
    if (rc != SB_OK) {
        release(cfg, &s);
        return rc;
    }

    const double start = sb_now();
    uint64_t done = 0;
    /* With a feed and no count asked, read to the end of the input. */
    const uint64_t limit = cfg->samples ? cfg->samples : UINT64_MAX;
    int ended = 0, feed_status = SB_OK;
    for (uint64_t chunk = 0; done < limit; chunk++) {
        uint64_t want = limit - done < SB_CHUNK_SAMPLES
                      ? limit - done : SB_CHUNK_SAMPLES;
        if (cfg->feed) {
            uint64_t got = feed_chunk(cfg, &s, want, &ended, &feed_status);
            done += got;
            if (cfg->progress)
                cfg->progress(cfg->progress_ctx, done, cfg->samples);
            if (got < want)
                break;      /* ended, stopped, or the input went wrong */
            continue;
        }
        uint64_t got = run_chunk(cfg, &shape, &s, chunk, want, &rc);
        done += got;
        if (s.alg_status != SB_OK) {
            snprintf(err, len, "cannot run at n = %zu on the source '%s' "
                     "(%s): the source cannot serve a deck this size", n,
                     cfg->rng, sb_status_str(s.alg_status));
            release(cfg, &s);
            return rc;
        }
        if (rc == SB_ERANGE) {
            snprintf(err, len, "randomness source '%s' got stuck after %llu "
                     "samples: its outputs stopped varying", cfg->rng,
                     (unsigned long long)done);
            release(cfg, &s);
            return rc;
        }
        if (rc != SB_OK) {
            snprintf(err, len, "'%s' made a draw that the source '%s' "
                     "cannot make: %s", cfg->alg->name, cfg->rng,
                     sb_status_str(rc));
            release(cfg, &s);
            return rc;
        }
        if (cfg->progress)
            cfg->progress(cfg->progress_ctx, done, cfg->samples);
        if (got < want)
            break;          /* stopped */
    }

    rep->run.kind = shape.kind;
    rep->run.n = n;
    rep->run.done = done;
    rep->run.seed = cfg->seed;
    rep->run.stream_version = SB_STREAM_VERSION;
    if (cfg->feed) {
        /* Read to the end: as many as there were. */
        rep->run.algorithm = cfg->feed->name;
        rep->run.samples = cfg->samples ? cfg->samples : done;
        rep->run.feed_status = feed_status;
        /* Short of a count asked for (the input ended too soon), or
           stopped before the end of the input. */
        rep->run.partial = feed_status != SB_OK
                        || (cfg->samples ? done < cfg->samples : !ended);
    } else {
        rep->run.algorithm = cfg->alg->name;
        rep->run.plugin = cfg->plugin;
        sb_shuffle_format_params(cfg->alg, &cfg->args, rep->run.params,
                                 sizeof rep->run.params);
        /* What the literature says is known only of our own algorithms. */
        if (!cfg->plugin)
            rep->run.literature = cfg->alg->literature == SB_LIT_UNIFORM
                                ? "uniform" : "biased";
        rep->run.samples = cfg->samples;
        rep->run.rng = cfg->rng;
        rep->run.rng_seed = sb_rng_seed_used(s.rng, &rep->run.rng_seed_bits);
        rep->run.partial = done < cfg->samples;
    }
    if (!cfg->feed && cfg->alg->tally) {
        rep->run.tally_name = cfg->alg->tally_name;
        cfg->alg->tally(s.alg_state, &rep->run.tally);
    }
    rep->run.suspect_alpha = SB_SUSPECT_ALPHA;
    rep->run.fail_alpha = SB_FAIL_ALPHA;

    rep->results = calloc(cfg->n_stats ? cfg->n_stats : 1,
                          sizeof *rep->results);
    if (!rep->results) {
        release(cfg, &s);
        snprintf(err, len, "out of memory finalizing the run");
        return SB_ENOMEM;
    }
    rep->n_results = cfg->n_stats;
    /* The detectable effect is computed at the fail threshold a single
       statistic faces in the worst case of Holm's procedure. */
    const double alpha = SB_FAIL_ALPHA / (double)(cfg->n_stats ? cfg->n_stats : 1);
    for (size_t i = 0; i < cfg->n_stats; i++) {
        rc = cfg->stats[i]->finalize(s.acc[i], done, alpha, &rep->results[i]);
        if (rc != SB_OK) {
            snprintf(err, len, "statistic '%s' could not be computed: %s",
                     cfg->stats[i]->name, sb_status_str(rc));
            release(cfg, &s);
            sb_report_release(rep);
            return rc;
        }
    }
    sb_battery_holm(rep->results, rep->n_results);
    rep->verdict = sb_battery_verdicts(rep->results, rep->n_results,
                                       SB_SUSPECT_ALPHA, SB_FAIL_ALPHA);
    rep->run.seconds = sb_now() - start;
    release(cfg, &s);
    return SB_OK;
}

void sb_report_release(sb_report *rep)
{
    for (size_t i = 0; i < rep->n_results; i++)
        sb_result_clear(&rep->results[i]);
    free(rep->results);
    rep->results = NULL;
    rep->n_results = 0;
}
