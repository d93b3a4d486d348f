/*
 * runner.c - the sampling loop, on one thread or several.
 *
 * The samples of a run are cut into chunks of SB_CHUNK_SAMPLES.  Chunk c
 * is made from stream c of the seed with the algorithm's state reset, in
 * blocks of SB_BLOCK_SAMPLES that every statistic counts in one call, so
 * what a chunk contributes depends on (seed, c) alone.  Threads take the
 * next chunk in turn, each into its own accumulators; at the end (and at
 * every checkpoint) the accumulators are merged with integer arithmetic,
 * in which the order never matters.  Hence the counts are the same bit for
 * bit whatever the number of threads, and whichever chunk ran where.
 *
 * The fast generator is random access, so any thread can make any chunk,
 * and a resumed run or a part of a split run simply skips the chunks it
 * must not count.  Every other backend is one sequential stream: it runs
 * on one thread, making every chunk in order and counting only those it
 * should (a skipped chunk still advances the stream, through a second
 * state of the algorithm so that its tally stays clean).
 *
 * Stopping.  The stop flag is looked at between blocks, so an interrupted
 * run reports every sample it made.  With a checkpoint (state files) it is
 * looked at between chunks instead: a state file may hold whole chunks
 * only, or it could not be resumed exactly.
 *
 * Checkpoints pause the threads between chunks, take a merged copy of
 * their counts, let the threads go on and hand the copy to the caller
 * (which writes it out meanwhile).  On one thread the loop itself does
 * that between chunks.
 */
#define _POSIX_C_SOURCE 200809L
#include "engine/runner.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "sources/plugin.h"
#include "engine/budget.h"
#include "base/rng.h"
#include "sources/sample_check.h"
#include "stats/battery.h"
#include "stats/registry.h"

/* How often the main thread of a threaded run wakes to show progress and
   check for a checkpoint, in milliseconds. */
#define TICK_MS 200

/* How often a member of a team asks whether another one stopped. */
#define POLL_SECONDS 0.02

double sb_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- counts --------------------------------------------------------- */

int sb_run_counts_alloc(sb_run_counts *c, const sb_stat_type *const *stats,
                        size_t n_stats, const sb_shape *shape)
{
    memset(c, 0, sizeof *c);
    c->acc = calloc(n_stats ? n_stats : 1, sizeof *c->acc);
    if (!c->acc)
        return SB_ENOMEM;
    for (size_t i = 0; i < n_stats; i++)
        if (stats[i]->alloc(&c->acc[i], shape) != SB_OK) {
            sb_run_counts_free(c, stats, n_stats);
            return SB_ENOMEM;
        }
    return SB_OK;
}

static void tally_merge(sb_tally *into, const sb_tally *from)
{
    into->samples += from->samples;
    into->sum += from->sum;
    into->sum_sq += from->sum_sq;
    if (from->max > into->max)
        into->max = from->max;
}

int sb_run_counts_merge(sb_run_counts *into, const sb_run_counts *from,
                        const sb_stat_type *const *stats, size_t n_stats)
{
    for (size_t i = 0; i < n_stats; i++) {
        int rc = stats[i]->merge(into->acc[i], from->acc[i]);
        if (rc != SB_OK)
            return rc;
    }
    into->done += from->done;
    into->has_tally |= from->has_tally;
    tally_merge(&into->tally, &from->tally);
    return SB_OK;
}

void sb_run_counts_free(sb_run_counts *c, const sb_stat_type *const *stats,
                        size_t n_stats)
{
    if (c->acc)
        for (size_t i = 0; i < n_stats; i++)
            if (c->acc[i])
                stats[i]->free(c->acc[i]);
    free(c->acc);
    free(c->rng_state);
    sb_chunks_free(&c->chunks);
    memset(c, 0, sizeof *c);
}

/* ---- the threads ---------------------------------------------------- */

struct pool;

/* What one thread owns: nothing in it is touched by another thread while
   the thread runs (checkpoints read it while the thread is parked). */
typedef struct worker {
    /* Each thread's own cache lines: the counter it bumps after every
       block must not share a line with what another thread reads. */
    _Alignas(128) struct pool *pool;
    pthread_t tid;
    void *alg_state;       /* the algorithm's state for counted chunks */
    void *skip_state;      /* and for chunks made only to advance a
                              sequential stream */
    void **acc;            /* one accumulator per statistic */
    sb_card *block;        /* SB_BLOCK_SAMPLES samples */
    sb_rng_cursor *cursor; /* this thread's place in the source */
    _Atomic uint64_t done; /* samples counted, read for progress */
    int status;            /* SB_OK, or what ended this thread's work */
    int alg_failed;        /* 'status' was returned by run() */
    uint64_t at;           /* the sample (from 1) that failed or was bad */
    char bad[2 * SB_INPUT_MSG - 32];   /* what was wrong with it, "" */
} worker;

typedef struct pool {
    const sb_run_config *cfg;
    sb_shape shape;
    sb_rng *rng;
    int sequential;        /* the source is one stream, made in order */
    int check;             /* check every sample and its guard words */
    uint64_t lo, end;      /* chunks counted: [lo, end) of the run's */
    uint64_t part_end;     /* the end of the part's, whatever this
                              member's share of it */
    uint64_t next;         /* the next chunk to hand out */
    uint64_t epoch_end;    /* and the first one not to, before the team's
                              next checkpoint (UINT64_MAX: none) */
    int whole_chunks;      /* stop between chunks only */
    worker *w;
    unsigned n_workers;
    unsigned threads_used; /* of them, those that started */
    const worker *bad;     /* the one that made the run's first bad sample */
    sb_run_counts base;    /* resumed counts (or none), and the chunks
                              counted whole so far, resumed ones included */
    double last_checkpoint;
    int checkpoint_status; /* what the last checkpoint returned */

    pthread_mutex_t mu;    /* guards what follows, and base.chunks */
    pthread_cond_t wake;   /* to the main thread: a thread parked or left */
    pthread_cond_t go;     /* to the threads: the pause is over */
    int pause;             /* threads park at their next chunk */
    unsigned parked;       /* threads parked */
    unsigned running;      /* threads not yet finished */
    atomic_int failed;     /* a thread's work failed: everyone stops
                              (read without the lock between blocks) */
    atomic_int stopping;   /* the caller's stop flag, seen */
    pthread_t caller;      /* the thread that called sb_run */
    uint64_t target;       /* samples this run makes and counts: the run's,
                              or a part's share (resumed ones included) */
    uint64_t own;          /* of them, this member's share of a team's
                              (all of them alone), for progress */
    const sb_run_counts *resume;  /* the resumed counts this process
                              holds: the run's, or NULL on a team's
                              members but the first */
    sb_team *team;         /* NULL: this process alone */
    double last_poll;      /* when the caller last asked the team */
    uint64_t budget;       /* the memory budget, and the estimate of the */
    uint64_t estimate;     /* run's need on n_workers threads */
    unsigned threads_wanted; /* threads asked for, when fewer fit */
} pool;

/* Whether the run is to stop.  The caller's flag is set by a signal
   handler and read only on the calling thread (signals are blocked in
   the others); the other threads read 'stopping', which the calling
   thread sets when it sees the flag. */
static int stop_requested(pool *p)
{
    if (atomic_load_explicit(&p->stopping, memory_order_relaxed))
        return 1;
    if (!pthread_equal(pthread_self(), p->caller))
        return 0;
    if (p->cfg->stop && *p->cfg->stop) {
        atomic_store_explicit(&p->stopping, 1, memory_order_relaxed);
        /* The other members of a team stop too. */
        if (p->team)
            p->team->stop_all(p->team->ctx);
        return 1;
    }
    /* Another member stopped: asked at most every POLL_SECONDS, as the
       caller asks between blocks or chunks. */
    if (p->team) {
        const double now = sb_now();
        if (now - p->last_poll >= POLL_SECONDS) {
            p->last_poll = now;
            if (p->team->stopped(p->team->ctx)) {
                atomic_store_explicit(&p->stopping, 1,
                                      memory_order_relaxed);
                return 1;
            }
        }
    }
    return 0;
}

/* The next chunk for a thread, under the lock: 0 when there is none, or
   the run is stopping.  *count says whether the chunk is to be counted
   (a sequential stream also makes the chunks it skips). */
static int take_chunk(pool *p, uint64_t *chunk, int *count)
{
    for (;;) {
        while (p->pause) {
            p->parked++;
            pthread_cond_signal(&p->wake);
            while (p->pause)
                pthread_cond_wait(&p->go, &p->mu);
            p->parked--;
        }
        if (p->failed || stop_requested(p) || p->next >= p->end
            || p->next >= p->epoch_end)
            return 0;
        const uint64_t c = p->next++;
        const int resumed = p->cfg->resume
                         && sb_chunks_has(&p->cfg->resume->chunks, c);
        *count = c >= p->lo && !resumed;
        if (*count || p->sequential) {
            *chunk = c;
            return 1;
        }
    }
}

/* Make the 'b' samples of a block, numbered from 'first', as make_chunk
   does, checking each and the guard words after it: SB_OK with *good = b,
   or a status with *good the samples before the one that failed (w->at
   and, for a bad sample, w->bad say which and why).  Each sample is
   guarded by the words after it, which the next sample then overwrites,
   so that a run that writes one value too many is caught at once; a
   run_block is guarded at the end of its block only. */
static int make_checked(pool *p, worker *w, void *state, sb_src *src,
                        uint64_t first, size_t b, size_t *good)
{
    const sb_run_config *cfg = p->cfg;
    const size_t len = p->shape.len;
    char why[sizeof w->bad];
    int rc = SB_OK;
    *good = 0;
    if (cfg->alg->run_block && src->ops == NULL) {
        sb_sample_guard_set(w->block + b * len);
        rc = cfg->alg->run_block(state, &cfg->args, src, w->block, b);
        if (rc != SB_OK) {
            w->at = first;
            return rc;
        }
        if (!sb_sample_guard_intact(w->block + b * len)) {
            w->at = first + b - 1;
            snprintf(w->bad, sizeof w->bad, "its run_block wrote past the "
                     "end of its buffer of %zu samples", b);
            return SB_EINVAL;
        }
    }
    /* The samples made, whose guard words held: checked together. */
    size_t made = b;
    if (!cfg->alg->run_block || src->ops != NULL)
        for (size_t k = 0; k < b; k++) {
            sb_card *out = w->block + k * len;
            sb_src_begin_sample(src);
            sb_sample_guard_set(out + len);
            rc = cfg->alg->run(state, &cfg->args, src, out);
            if (rc != SB_OK || !sb_sample_guard_intact(out + len)) {
                made = k;
                break;
            }
        }
    size_t bad;
    if (sb_samples_check(&p->shape, w->block, made, &bad, why, sizeof why)
        != SB_OK) {
        /* The first bad sample of the block, before any that failed. */
        w->at = first + bad;
        *good = bad;
        snprintf(w->bad, sizeof w->bad, "%s", why);
        return SB_EINVAL;
    }
    *good = made;
    if (made == b)
        return SB_OK;
    w->at = first + made;
    if (rc != SB_OK)
        return rc;
    snprintf(w->bad, sizeof w->bad, "wrote past the end of its sample "
             "buffer (%zu values)", len);
    return SB_EINVAL;
}

/* Make chunk 'c' on thread 'w', counting it when 'count'.  SB_OK when
   the chunk was made whole; SB_EINTR when stopped inside it (its counts
   are kept, but it is not a whole chunk); any other status when a draw
   or the algorithm failed. */
static int make_chunk(pool *p, worker *w, uint64_t c, int count)
{
    const sb_run_config *cfg = p->cfg;
    const size_t len = p->shape.len;
    void *state = count ? w->alg_state : w->skip_state;
    sb_src src;
    int rc = sb_rng_cursor_chunk(w->cursor, c, &src);
    if (rc != SB_OK)
        return rc;
    if (cfg->alg->reset)
        cfg->alg->reset(state, &cfg->args);
    const uint64_t size = sb_chunk_size(c, cfg->samples);
    const int block_calls = cfg->alg->run_block && src.ops == NULL;
    for (uint64_t done = 0; done < size;) {
        if (count && !p->whole_chunks && stop_requested(p))
            return SB_EINTR;
        if (p->failed)
            return SB_EINTR;
        const size_t b = size - done < SB_BLOCK_SAMPLES
                       ? (size_t)(size - done) : SB_BLOCK_SAMPLES;
        const uint64_t first = c * SB_CHUNK_SAMPLES + done + 1;
        size_t good = b;
        if (p->check && count) {
            rc = make_checked(p, w, state, &src, first, b, &good);
        } else if (block_calls) {
            rc = cfg->alg->run_block(state, &cfg->args, &src, w->block, b);
        } else {
            for (size_t k = 0; k < b && rc == SB_OK; k++) {
                sb_src_begin_sample(&src);
                rc = cfg->alg->run(state, &cfg->args, &src,
                                   w->block + k * len);
            }
        }
        if (rc != SB_OK && !w->bad[0]) {
            w->alg_failed = 1;
            return rc;
        }
        if (rc == SB_OK && src.error != SB_OK)
            return src.error;
        if (count && good > 0) {
            for (size_t i = 0; i < cfg->n_stats; i++)
                cfg->stats[i]->add(w->acc[i], w->block, good);
            atomic_fetch_add_explicit(&w->done, good, memory_order_relaxed);
        }
        if (rc != SB_OK)
            return rc;
        done += b;
    }
    return SB_OK;
}

static uint64_t samples_done(pool *p)
{
    uint64_t done = p->base.done;
    for (unsigned t = 0; t < p->n_workers; t++)
        done += atomic_load_explicit(&p->w[t].done, memory_order_relaxed);
    return done;
}

/* Thread w's counts, as a view (the accumulators stay the thread's). */
static sb_run_counts worker_counts(const pool *p, const worker *w)
{
    sb_run_counts c = { .acc = w->acc, .done = w->done };
    if (p->cfg->alg && p->cfg->alg->tally) {
        c.has_tally = 1;
        p->cfg->alg->tally(w->alg_state, &c.tally);
    }
    return c;
}

/* At the end, a thread's accumulators once merged: the results are
   finalized beside one set of counts, not one per thread (the budget
   counts on it, sb_run_memory). */
static void free_accumulators(const sb_run_config *cfg, worker *w)
{
    if (w->acc)
        for (size_t i = 0; i < cfg->n_stats; i++)
            if (w->acc[i])
                cfg->stats[i]->free(w->acc[i]);
    free(w->acc);
    w->acc = NULL;
}

/* A sequential source's place, with the counts of a checkpoint: its
   one thread is between chunks.  A generator with no state to save
   keeps none; the run resumed then makes its chunks again. */
static int keep_place(pool *p, sb_run_counts *out)
{
    size_t len = 0;
    uint64_t next;
    int rc = sb_rng_save(p->rng, &next, NULL, 0, &len);
    if (rc == SB_ENOTSUP || (rc != SB_OK && rc != SB_ERANGE))
        return SB_OK;
    out->rng_state = malloc(len ? len : 1);
    if (!out->rng_state)
        return SB_ENOMEM;
    if (sb_rng_save(p->rng, &next, out->rng_state, len, &len) != SB_OK) {
        free(out->rng_state);
        out->rng_state = NULL;
        return SB_OK;
    }
    out->rng_len = len;
    out->rng_next = next;
    return SB_OK;
}

/* The counts so far, merged into 'out': the resumed ones and every
   thread's.  Threads must be parked or finished.  For a checkpoint the
   counts go into fresh accumulators ('take' 0: the threads go on with
   theirs); at the end ('take' 1) into the first thread's, which 'out'
   then owns - merging a large table into an empty one would rebuild it
   for nothing, on one thread. */
static int collect(pool *p, int take, sb_run_counts *out)
{
    const sb_run_config *cfg = p->cfg;
    int rc = SB_OK;
    unsigned first = 0;
    if (take) {
        *out = worker_counts(p, &p->w[0]);
        p->w[0].acc = NULL;
        first = 1;
    } else {
        rc = sb_run_counts_alloc(out, cfg->stats, cfg->n_stats, &p->shape);
        if (rc != SB_OK)
            return rc;
    }
    if (p->resume)
        rc = sb_run_counts_merge(out, p->resume, cfg->stats, cfg->n_stats);
    for (unsigned t = first; t < p->n_workers && rc == SB_OK; t++) {
        const sb_run_counts part = worker_counts(p, &p->w[t]);
        rc = sb_run_counts_merge(out, &part, cfg->stats, cfg->n_stats);
        if (take && rc == SB_OK)
            free_accumulators(cfg, &p->w[t]);
    }
    uint64_t shared;
    if (rc == SB_OK)
        rc = sb_chunks_union(&out->chunks, &p->base.chunks, &shared);
    if (rc == SB_OK && p->sequential && cfg->checkpoint)
        rc = keep_place(p, out);
    if (rc != SB_OK)
        sb_run_counts_free(out, cfg->stats, cfg->n_stats);
    return rc;
}

/* Hand a copy of the counts ('collect' status rc) to the caller, and
   free it.  The threads may be running: the copy is the caller's alone. */
static void hand_over(pool *p, int rc, sb_run_counts *snap)
{
    if (rc == SB_OK) {
        rc = p->cfg->checkpoint(p->cfg->checkpoint_ctx, snap);
        sb_run_counts_free(snap, p->cfg->stats, p->cfg->n_stats);
    }
    p->checkpoint_status = rc;
    if (rc != SB_OK)
        p->failed = 1;
    p->last_checkpoint = sb_now();
}

/* Hand the counts so far to the caller.  Threads must be parked or
   finished. */
static void checkpoint(pool *p)
{
    sb_run_counts snap;
    hand_over(p, collect(p, 0, &snap), &snap);
}

static int checkpoint_due(const pool *p)
{
    /* A team's members save together, when they meet
       (sample_in_epochs). */
    return p->cfg->checkpoint && !p->team
        && sb_now() - p->last_checkpoint >= p->cfg->checkpoint_seconds;
}

/* Progress of this session: a resumed run's rate and time left count
   only what it makes itself. */
static void show_progress(pool *p)
{
    if (p->cfg->progress)
        p->cfg->progress(p->cfg->progress_ctx,
                         samples_done(p) - p->base.done,
                         p->own > p->base.done ? p->own - p->base.done : 0);
}

/* One thread's work: chunk after chunk until there is none. */
static void work(worker *w, int alone)
{
    pool *p = w->pool;
    pthread_mutex_lock(&p->mu);
    uint64_t c;
    int count;
    while (take_chunk(p, &c, &count)) {
        pthread_mutex_unlock(&p->mu);
        int rc = make_chunk(p, w, c, count);
        pthread_mutex_lock(&p->mu);
        if (rc == SB_OK && count && sb_chunks_add(&p->base.chunks, c, c + 1)
                                    != SB_OK)
            rc = SB_ENOMEM;
        if (rc == SB_EINTR)
            break;
        if (rc != SB_OK) {
            w->status = rc;
            p->failed = 1;
            break;
        }
        if (alone) {
            /* The only thread is the caller's: it shows progress and
               takes checkpoints itself, between chunks. */
            pthread_mutex_unlock(&p->mu);
            show_progress(p);
            if (checkpoint_due(p))
                checkpoint(p);
            pthread_mutex_lock(&p->mu);
        }
    }
    p->running--;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->mu);
}

static void *work_thread(void *arg)
{
    work(arg, 0);
    return NULL;
}

/* The main thread of a threaded run: progress and checkpoints until every
   thread has finished. */
static void watch(pool *p)
{
    pthread_mutex_lock(&p->mu);
    while (p->running > 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->mu, &until);
        if (p->running == 0)
            break;
        pthread_mutex_unlock(&p->mu);
        (void)stop_requested(p);        /* passes the flag on */
        show_progress(p);
        pthread_mutex_lock(&p->mu);
        if (checkpoint_due(p) && !p->failed) {
            p->pause = 1;
            while (p->parked < p->running)
                pthread_cond_wait(&p->wake, &p->mu);
            /* A thread that failed meanwhile made the others leave in the
               middle of their chunks: their counts are no longer whole
               chunks, and must not be saved.  Otherwise the threads wait
               only while their counts are copied, not while the copy is
               written out. */
            const int save = !p->failed;
            sb_run_counts snap;
            const int rc = save ? collect(p, 0, &snap) : SB_OK;
            p->pause = 0;
            pthread_cond_broadcast(&p->go);
            if (save) {
                pthread_mutex_unlock(&p->mu);
                hand_over(p, rc, &snap);
                pthread_mutex_lock(&p->mu);
            }
        }
    }
    pthread_mutex_unlock(&p->mu);
}

/* ---- setting up and tearing down ------------------------------------- */

/* The randomness source of an algorithm's run, with a reason when it
   cannot be opened. */
static int open_rng(const sb_run_config *cfg, sb_rng **rng, char *err,
                    size_t len)
{
    int rc = sb_rng_open(rng, cfg->rng, cfg->seed);
    if (rc == SB_ERANGE)
        snprintf(err, len, "randomness source '%s' seeded with %llu is stuck "
                 "at one value from the start; choose another seed",
                 cfg->rng, (unsigned long long)cfg->seed);
    else if (rc == SB_EINVAL)
        snprintf(err, len, "randomness source '%s' refuses the seed %llu; "
                 "choose another seed", cfg->rng,
                 (unsigned long long)cfg->seed);
    else if (rc != SB_OK)
        snprintf(err, len, "cannot open randomness source '%s': %s",
                 cfg->rng, sb_status_str(rc));
    return rc;
}

/* A thread's states and accumulators; 'skip' when it makes chunks it does
   not count (a sequential stream). */
static int worker_init(const sb_run_config *cfg, const sb_shape *shape,
                       int skip, worker *w)
{
    if (cfg->alg && cfg->alg->init
        && (cfg->alg->init(&w->alg_state, &cfg->args) != SB_OK
            || (skip && cfg->alg->init(&w->skip_state, &cfg->args)
                        != SB_OK)))
        return SB_ENOMEM;
    /* Room for the guard words after the last sample (a checked run). */
    w->block = malloc((SB_BLOCK_SAMPLES * shape->len + SB_SAMPLE_GUARD)
                      * sizeof *w->block);
    w->acc = calloc(cfg->n_stats ? cfg->n_stats : 1, sizeof *w->acc);
    if (!w->block || !w->acc)
        return SB_ENOMEM;
    for (size_t i = 0; i < cfg->n_stats; i++)
        if (cfg->stats[i]->alloc(&w->acc[i], shape) != SB_OK)
            return SB_ENOMEM;
    return SB_OK;
}

static void worker_free(const sb_run_config *cfg, worker *w)
{
    sb_rng_cursor_close(w->cursor);
    if (w->acc)
        for (size_t i = 0; i < cfg->n_stats; i++)
            if (w->acc[i])
                cfg->stats[i]->free(w->acc[i]);
    free(w->acc);
    free(w->block);
    if (cfg->alg && cfg->alg->free) {
        if (w->alg_state)
            cfg->alg->free(w->alg_state);
        if (w->skip_state)
            cfg->alg->free(w->skip_state);
    }
}

static void pool_free(pool *p)
{
    if (p->w)
        for (unsigned t = 0; t < p->n_workers; t++)
            worker_free(p->cfg, &p->w[t]);
    free(p->w);
    sb_chunks_free(&p->base.chunks);
    if (p->rng)
        sb_rng_close(p->rng);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->go);
}

uint64_t sb_run_memory(const sb_stat_type *const *stats, size_t n_stats,
                       const sb_shape *shape, unsigned threads,
                       int checkpoint, int resume)
{
    uint64_t set = sizeof(worker)
                 + (uint64_t)SB_BLOCK_SAMPLES * shape->len * sizeof(sb_card);
    uint64_t results = 0;
    for (size_t i = 0; i < n_stats; i++) {
        size_t fin;
        set += sb_stat_memory(stats[i], shape, &fin);
        results += fin;
    }
    /* A checkpoint holds a merged copy of the counts, then the state
       file built from it in memory, which grows by doubling. */
    const uint64_t sampling = (uint64_t)threads * set
                            + (checkpoint ? 3 * set : 0);
    const uint64_t finishing = set + results + (checkpoint ? 3 * set : 0);
    return (sampling > finishing ? sampling : finishing)
         + (resume ? set : 0);
}

typedef struct need_ctx {
    const sb_run_config *cfg;
    const sb_shape *shape;
} need_ctx;

static uint64_t run_need(unsigned threads, const void *ctx)
{
    const need_ctx *c = ctx;
    return sb_run_memory(c->cfg->stats, c->cfg->n_stats, c->shape, threads,
                         c->cfg->checkpoint != NULL && !c->cfg->feed,
                         c->cfg->resume != NULL);
}

/* The threads that fit the budget, at most *threads: fewer when that is
   all that fits (the report says so), SB_ENOMEM with the need in 'err'
   when not even one does. */
static int fit_memory(pool *p, const sb_shape *shape, unsigned *threads,
                      char *err, size_t len)
{
    const sb_run_config *cfg = p->cfg;
    const need_ctx ctx = { cfg, shape };
    p->budget = cfg->memory ? cfg->memory : sb_budget_default();
    const unsigned fit = sb_budget_threads(p->budget, *threads, run_need,
                                           &ctx);
    if (fit == 0) {
        char need[32], budget[32];
        sb_budget_str(run_need(1, &ctx), need, sizeof need);
        sb_budget_str(p->budget, budget, sizeof budget);
        snprintf(err, len, "the run needs %s of memory for its tables on "
                 "one thread, over the budget of %s: raise --memory, or "
                 "choose fewer statistics (--tests) or a smaller n", need,
                 budget);
        return SB_ENOMEM;
    }
    if (fit < *threads)
        p->threads_wanted = *threads;
    *threads = fit;
    p->estimate = run_need(fit, &ctx);
    return SB_OK;
}

/* Whether a sequential stream may go on from the place saved with the
   counts 'c' of a run resumed: every chunk it would skip to get there
   was counted (or is not the run's to count). */
static int place_fits(const pool *p, const sb_run_counts *c)
{
    if (!c->rng_len || c->rng_next > p->end)
        return 0;
    for (uint64_t k = p->lo; k < c->rng_next; k++)
        if (!sb_chunks_has(&c->chunks, k))
            return 0;
    return 1;
}

/* The samples of chunks [lo, end) of a run of 'samples'. */
static uint64_t span_samples(uint64_t lo, uint64_t end, uint64_t samples)
{
    const uint64_t a = lo * SB_CHUNK_SAMPLES, b = end * SB_CHUNK_SAMPLES;
    return (b < samples ? b : samples) - (a < samples ? a : samples);
}

/* Everything a run needs before its first sample: the source, the
   threads' states and accumulators.  On failure 'err' says why. */
static int pool_init(pool *p, const sb_run_config *cfg, const sb_shape *shape,
                     char *err, size_t len)
{
    memset(p, 0, sizeof *p);
    p->cfg = cfg;
    p->shape = *shape;
    p->check = !cfg->feed && (cfg->plugin || cfg->check_samples);
    p->caller = pthread_self();
    p->target = cfg->samples;
    p->team = cfg->team && cfg->team->size > 1 ? cfg->team : NULL;
    p->epoch_end = UINT64_MAX;
    p->resume = !p->team || p->team->rank == 0 ? cfg->resume : NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->go, NULL);
    for (size_t i = 0; i < cfg->n_stats; i++)
        if (sb_stat_check(cfg->stats[i], shape, err, len) != SB_OK)
            return SB_EINVAL;
    unsigned threads = cfg->threads ? cfg->threads : 1;
    if (!cfg->feed) {
        int rc = open_rng(cfg, &p->rng, err, len);
        if (rc != SB_OK)
            return rc;
        p->sequential = !sb_rng_random_access(p->rng);
        /* Where a jump-ahead generator's chunks begin. */
        sb_rng_set_chunks(p->rng, sb_chunk_count(
            cfg->stream_samples ? cfg->stream_samples : cfg->samples));
        if (p->team && p->sequential) {
            const char *why = sb_rng_sequential_why(cfg->rng);
            snprintf(err, len, "randomness source '%s' cannot be shared "
                     "between ranks: %s; run it without mpirun, or choose "
                     "a source that is random access (shufflebias list)",
                     cfg->rng, why ? why : "it is one sequential stream");
            return SB_EINVAL;
        }
        const uint64_t chunks = sb_chunk_count(cfg->samples);
        p->end = cfg->end_chunk && cfg->end_chunk < chunks ? cfg->end_chunk
                                                           : chunks;
        p->lo = cfg->first_chunk;
        p->target = span_samples(p->lo, p->end, cfg->samples);
        p->own = p->target;
        p->part_end = p->end;
        if (p->team) {
            /* This member's share of the chunks. */
            sb_team_share(p->lo, p->end, p->team->rank, p->team->size,
                          &p->lo, &p->end);
            p->own = span_samples(p->lo, p->end, cfg->samples);
        }
        /* A sequential stream is made from its start, whatever is
           counted. */
        p->next = p->sequential ? 0 : p->lo;
        p->whole_chunks = cfg->checkpoint != NULL;
        if (p->resume) {
            uint64_t shared;
            int rc2 = sb_chunks_union(&p->base.chunks, &p->resume->chunks,
                                      &shared);
            if (rc2 == SB_EINVAL) {
                snprintf(err, len, "the counts to resume hold chunk %llu "
                         "twice", (unsigned long long)shared);
                return SB_EINVAL;
            }
            if (rc2 != SB_OK)
                goto nomem;
            p->base.done = p->resume->done;
            /* A sequential stream goes on from its saved place. */
            if (p->sequential && place_fits(p, p->resume)
                && sb_rng_restore(p->rng, p->resume->rng_next,
                                  p->resume->rng_state, p->resume->rng_len)
                   == SB_OK)
                p->next = p->resume->rng_next;
        }
        /* More threads than chunks would only wait. */
        const uint64_t work = p->end > p->next ? p->end - p->next : 1;
        if (p->sequential)
            threads = 1;
        else if (threads > work)
            threads = (unsigned)work;
    } else if (p->team) {
        snprintf(err, len, "samples from outside are read by one process: "
                 "run --exec or --input without mpirun");
        return SB_EINVAL;
    } else {
        threads = 1;
    }
    if (fit_memory(p, shape, &threads, err, len) != SB_OK)
        return SB_ENOMEM;
    p->n_workers = threads;
    p->w = aligned_alloc(_Alignof(worker), threads * sizeof *p->w);
    if (!p->w)
        goto nomem;
    memset(p->w, 0, threads * sizeof *p->w);
    for (unsigned t = 0; t < threads; t++) {
        p->w[t].pool = p;
        if (worker_init(cfg, shape, p->sequential, &p->w[t]) != SB_OK
            || (p->rng && sb_rng_cursor_open(p->rng, &p->w[t].cursor)
                          != SB_OK))
            goto nomem;
    }
    return SB_OK;
nomem:
    snprintf(err, len, "out of memory preparing the run");
    return SB_ENOMEM;
}

/* ---- samples from outside -------------------------------------------- */

/* Read the feed's samples into the one thread's accumulators: at most
   the run's count, all of the input when it is 0.  Stops early at the end
   of the input (*ended), on the stop flag, or when the feed goes wrong
   (the returned status). */
static int read_feed(pool *p, int *ended)
{
    const sb_run_config *cfg = p->cfg;
    worker *w = &p->w[0];
    const uint64_t limit = cfg->samples ? cfg->samples : UINT64_MAX;
    uint64_t done = 0;
    while (done < limit) {
        if (stop_requested(p))
            return SB_OK;
        const uint64_t left = limit - done;
        const size_t want = left < SB_BLOCK_SAMPLES ? (size_t)left
                                                    : SB_BLOCK_SAMPLES;
        size_t got = 0;
        int rc = cfg->feed->read(cfg->feed->ctx, w->block, want, &got);
        if (got > 0)
            for (size_t i = 0; i < cfg->n_stats; i++)
                cfg->stats[i]->add(w->acc[i], w->block, got);
        done += got;
        atomic_store_explicit(&w->done, done, memory_order_relaxed);
        if (done % SB_CHUNK_SAMPLES < got || rc != SB_OK || got < want)
            show_progress(p);
        if (rc != SB_OK)
            return rc;
        if (got < want) {
            *ended = !stop_requested(p);
            return SB_OK;
        }
    }
    return SB_OK;
}

/* ---- the run ---------------------------------------------------------- */

/* Before a run of 'cfg' of samples of 'shape': a shape a sample can have
   (a plug-in may declare any; a built-in's always is), and for a plug-in
   draws that are the source's alone (sb_plugin_probe).  SB_OK, or
   SB_EINVAL with the reason naming the plug-in. */
static int plugin_ready(const sb_run_config *cfg, const sb_shape *shape,
                        char *err, size_t len)
{
    char why[768];
    if (sb_shape_check(shape, why, sizeof why) != SB_OK) {
        if (cfg->plugin)
            snprintf(err, len, "plug-in '%s': shuffle '%s' %s", cfg->plugin,
                     cfg->alg->name, why);
        else
            snprintf(err, len, "'%s' %s", cfg->alg->name, why);
        return SB_EINVAL;
    }
    if (!cfg->plugin)
        return SB_OK;
    int rc = sb_plugin_probe(cfg->alg, &cfg->args, cfg->seed, why,
                             sizeof why);
    if (rc != SB_OK)
        snprintf(err, len, "plug-in '%s': shuffle '%s' %s", cfg->plugin,
                 cfg->alg->name, why);
    return rc;
}

/* Why a thread's work failed, in words. */
static void failure(const pool *p, const worker *w, char *err, size_t len)
{
    const sb_run_config *cfg = p->cfg;
    if (w->alg_failed && cfg->plugin)
        snprintf(err, len, "plug-in '%s': shuffle '%s': its run() returned "
                 "status %d (%s) at sample %llu", cfg->plugin, cfg->alg->name,
                 w->status, sb_status_str(w->status),
                 (unsigned long long)w->at);
    else if (w->alg_failed)
        snprintf(err, len, "cannot run at n = %zu on the source '%s' (%s): "
                 "the source cannot serve a deck this size", cfg->args.n,
                 cfg->rng, sb_status_str(w->status));
    else if (w->status == SB_ERANGE)
        snprintf(err, len, "randomness source '%s' got stuck after %llu "
                 "samples: its outputs stopped varying", cfg->rng,
                 (unsigned long long)samples_done((pool *)p));
    else if (w->status == SB_ENOMEM)
        snprintf(err, len, "out of memory during the run");
    else if (cfg->plugin && w->status == SB_EINVAL)
        /* The source serves every valid draw: the plug-in asked for one
           that is none (sb_below of 0, sb_rand_mod out of its range). */
        snprintf(err, len, "plug-in '%s': shuffle '%s' made a draw that "
                 "cannot be made, with an argument out of its range (see "
                 "rng.h), after the first %zu samples", cfg->plugin,
                 cfg->alg->name, (size_t)SB_PLUGIN_PROBE_SAMPLES);
    else
        snprintf(err, len, "'%s' made a draw that the source '%s' cannot "
                 "make: %s", cfg->alg->name, cfg->rng,
                 sb_status_str(w->status));
}

/* Make the samples, on the calling thread or several. */
static int sample(pool *p, char *err, size_t len)
{
    p->running = p->n_workers;
    p->threads_used = 1;
    p->last_checkpoint = sb_now();
    if (p->n_workers == 1) {
        work(&p->w[0], 1);
    } else {
        /* Signals go to the calling thread only: the threads started
           inherit a mask blocking them. */
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        unsigned started = 0;
        for (; started < p->n_workers; started++)
            if (pthread_create(&p->w[started].tid, NULL, work_thread,
                               &p->w[started]) != 0)
                break;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (started == 0) {
            /* No thread at all: the calling thread makes the run. */
            p->running = 1;
            work(&p->w[0], 1);
        } else {
            if (started < p->n_workers) {
                /* Those that started make the run between them. */
                pthread_mutex_lock(&p->mu);
                p->running -= p->n_workers - started;
                pthread_mutex_unlock(&p->mu);
            }
            watch(p);
            for (unsigned t = 0; t < started; t++)
                pthread_join(p->w[t].tid, NULL);
        }
        p->threads_used = started ? started : 1;
    }
    /* A bad sample ends the run with its report (sb_run); of several
       threads' bad samples, the first in the run's order is kept (on
       several threads sb_run then makes sure no earlier one exists). */
    worker *bad = NULL;
    for (unsigned t = 0; t < p->n_workers; t++)
        if (p->w[t].status != SB_OK && p->w[t].bad[0]
            && (!bad || p->w[t].at < bad->at))
            bad = &p->w[t];
    for (unsigned t = 0; t < p->n_workers; t++)
        if (p->w[t].status != SB_OK && !p->w[t].bad[0]) {
            failure(p, &p->w[t], err, len);
            return p->w[t].status;
        }
    if (bad)
        p->bad = bad;
    if (p->checkpoint_status != SB_OK) {
        snprintf(err, len, "saving the state failed: %s",
                 sb_status_str(p->checkpoint_status));
        return p->checkpoint_status;
    }
    show_progress(p);
    return SB_OK;
}

/* What the members of a team say at the end of an epoch. */
enum { EPOCH_MORE = 1, EPOCH_STOP = 2, EPOCH_FAIL = 4 };

/* How long an epoch of a team's run lasts, about: the members meet that
   often, and save the state when it is due. */
#define EPOCH_SECONDS 1.0

/* The share of a team's time its saves may take, at most. */
#define SAVE_SHARE 0.1

/* The state of a team's run so far, saved by member 0: the merged counts
   of every member's whole chunks.  Collective. */
static int save_together(pool *p, sb_team *team, char *err, size_t len)
{
    const sb_run_config *cfg = p->cfg;
    sb_run_counts snap;
    char why[512] = "";
    int rc = collect(p, 0, &snap);
    if (rc != SB_OK)
        snprintf(why, sizeof why, "out of memory copying the counts");
    rc = sb_team_reduce(team, cfg->stats, cfg->n_stats, &p->shape,
                        cfg->samples, rc, why, &snap, err, len);
    if (rc != SB_OK)
        return rc;
    if (team->rank == 0)
        hand_over(p, SB_OK, &snap);
    p->last_checkpoint = sb_now();
    /* Whether it was saved, for every member to go on or end alike. */
    uint64_t w = (uint64_t)(int64_t)p->checkpoint_status;
    if (sb_team_words(team, &w, 1) != SB_OK)
        w = (uint64_t)(int64_t)SB_EIO;
    rc = (int)(int64_t)w;
    if (rc != SB_OK)
        snprintf(err, len, "saving the state failed: %s",
                 sb_status_str(rc));
    return rc;
}

/* A team's run that keeps its state: its members make their chunks in
   epochs of about EPOCH_SECONDS, at the end of each of which they meet,
   until none has chunks left, one failed or one stopped.  Every
   checkpoint_seconds (by member 0's clock), and never more often than
   SAVE_SHARE of the time allows - member 0 merges every member's counts
   while the others wait - they save one state together.  The first
   epoch is one chunk a thread; member 0 sizes the next ones from its
   time.  The status of this member's sampling, as sample's. */
static int sample_in_epochs(pool *p, sb_team *team, char *err, size_t len)
{
    const sb_run_config *cfg = p->cfg;
    uint64_t size = p->n_workers;
    double last_save = sb_now(), save_took = 0;
    for (;;) {
        p->epoch_end = p->next + size;
        const double t0 = sb_now();
        int rc = sample(p, err, len);
        uint64_t flags = (p->next < p->end ? EPOCH_MORE : 0)
                       | (stop_requested(p) ? EPOCH_STOP : 0)
                       | (rc != SB_OK || p->bad ? EPOCH_FAIL : 0);
        const int voted = sb_team_or(team, flags, &flags);
        if (rc != SB_OK)
            return rc;
        if (voted != SB_OK) {
            snprintf(err, len, "the ranks could not agree on the end of "
                     "an epoch");
            return SB_EIO;
        }
        /* A member stopped (its counts are of whole chunks too), one
           failed, or none has chunks left: the run ends, and its end
           saves the state. */
        if ((flags & (EPOCH_STOP | EPOCH_FAIL)) || !(flags & EPOCH_MORE)) {
            if (flags & EPOCH_STOP)
                atomic_store_explicit(&p->stopping, 1,
                                      memory_order_relaxed);
            return SB_OK;
        }
        /* Member 0 says whether the state is due, and how many chunks
           the next epoch has: up to sixteen times as many. */
        uint64_t w[2] = { 0, size };
        if (team->rank == 0) {
            const double now = sb_now(), took = now - t0;
            const double grow = took > 0 ? EPOCH_SECONDS / took : 16.0;
            const double next = (double)size * (grow < 1.0 ? grow
                                                : grow > 16.0 ? 16.0 : grow);
            const double every = save_took / SAVE_SHARE;
            w[0] = now - last_save >= (cfg->checkpoint_seconds > every
                                       ? cfg->checkpoint_seconds : every);
            w[1] = next < 1.0 ? 1 : next > 1e15 ? (uint64_t)1e15
                                                 : (uint64_t)next;
        }
        if (sb_team_words(team, w, 2) != SB_OK) {
            snprintf(err, len, "the ranks could not share the next "
                     "epoch");
            return SB_EIO;
        }
        size = w[1];
        if (w[0]) {
            const double s0 = sb_now();
            rc = save_together(p, team, err, len);
            if (rc != SB_OK)
                return rc;
            last_save = sb_now();
            save_took = last_save - s0;
        }
    }
}

/* A bad sample found by one of several threads, at sample 'at': the
   others stopped where they were, so neither the counts nor whether 'at'
   is the first bad sample depend on the run alone.  The run is made again
   up to the sample before 'at', a whole run of its own with the same
   counts whatever the threads: if it finds an earlier bad sample, that one
   (found the same way, recursively) is the first; otherwise 'at' is.  A
   resumed run or a part, whose chunks are not those of a shorter run, and
   a bad sample 1, are made again on one thread instead, which goes in the
   run's order and stops at the first bad sample.  Only a failing run pays
   for this: each level makes at most the samples before its bad one. */
static int run_before_bad(const sb_run_config *cfg, uint64_t at,
                          const char *why, sb_report *rep, char *err,
                          size_t len)
{
    sb_run_config again = *cfg;
    again.checkpoint = NULL;
    const int shorter = at > 1 && !cfg->resume && !cfg->first_chunk
                        && !cfg->end_chunk;
    if (shorter) {
        again.samples = at - 1;
        if (!again.stream_samples)
            again.stream_samples = cfg->samples;
    } else
        again.threads = 1;
    int rc = sb_run(&again, rep, err, len);
    if (rc != SB_OK)
        return rc;
    if (!rep->run.bad_sample[0]) {
        /* None before it (or the run again was interrupted: then 'at' is
           the first one known, and the report is partial anyway). */
        snprintf(rep->run.bad_sample, sizeof rep->run.bad_sample,
                 "sample %llu: %s", (unsigned long long)at, why);
        rep->run.bad_at = at;
    }
    if (shorter)
        rep->run.samples = cfg->samples;
    rep->run.partial = 1;
    return SB_OK;
}

/* A team's members but the first hold no counts after the run: they
   hear from the first the run's outcome ('rc' there), its verdict and
   how many samples it counted, and make the same decisions after it
   (escalation) as the first.  Their report has no results.  The outcome,
   with the reason in 'err' where it is not SB_OK. */
static int hear_verdict(sb_team *team, sb_report *rep, int rc, char *err,
                        size_t len)
{
    uint64_t w[3] = { (uint64_t)(int64_t)rc, (uint64_t)rep->verdict,
                      rep->run.done };
    if (sb_team_words(team, w, 3) != SB_OK) {
        snprintf(err, len, "rank %u of %u: the ranks could not share the "
                 "verdict", team->rank, team->size);
        rc = SB_EIO;
    } else if (team->rank != 0) {
        rc = (int)(int64_t)w[0];
        if (rc != SB_OK)
            snprintf(err, len, "rank 0 of %u could not finish the report",
                     team->size);
        rep->verdict = (sb_verdict)w[1];
        rep->run.done = w[2];
        rep->run.partial = rep->run.done < rep->run.samples;
    }
    if (rc != SB_OK)
        sb_report_release(rep);
    return rc;
}

int sb_run(const sb_run_config *cfg, sb_report *rep, char *err, size_t len)
{
    memset(rep, 0, sizeof *rep);
    sb_shape shape;
    int rc = SB_OK, pooled = 0;
    pool p;
    if (cfg->feed) {
        shape = cfg->feed->shape;
    } else if (sb_shuffle_check(cfg->alg, &cfg->args, err, len) != SB_OK) {
        rc = SB_EINVAL;
    } else {
        sb_shuffle_shape(cfg->alg, &cfg->args, &shape);
        rc = plugin_ready(cfg, &shape, err, len);
    }
    if (rc == SB_OK) {
        rc = pool_init(&p, cfg, &shape, err, len);
        pooled = 1;
    }
    sb_team *team = cfg->team && cfg->team->size > 1 ? cfg->team : NULL;
    if (team) {
        /* Every member is ready, or none starts: a member that cannot
           run must not leave the others waiting for its counts. */
        char why[512];
        snprintf(why, sizeof why, "%s", rc == SB_OK ? "" : err);
        rc = sb_team_agree(team, rc, why, err, len);
    }
    if (rc != SB_OK) {
        if (pooled)
            pool_free(&p);
        return rc;
    }

    const double start = sb_now();
    int ended = 0, feed_status = SB_OK;
    if (cfg->feed)
        feed_status = read_feed(&p, &ended);
    else if (team && cfg->checkpoint)
        rc = sample_in_epochs(&p, team, err, len);
    else
        rc = sample(&p, err, len);
    /* Not after an interrupt: the run is ending, and says so.  Nor on a
       team, whose members would have to run again together: there the
       bad sample is the first this member found, an error of the run. */
    if (team && rc == SB_OK && p.bad) {
        snprintf(err, len, "%s%s%s: sample %llu: %s",
                 cfg->plugin ? "plug-in '" : "", cfg->plugin ? cfg->plugin
                                                             : cfg->alg->name,
                 cfg->plugin ? "'" : "", (unsigned long long)p.bad->at,
                 p.bad->bad);
        rc = SB_EINVAL;
    }
    if (!team && rc == SB_OK && p.bad && p.threads_used > 1
        && !stop_requested(&p)) {
        const uint64_t at = p.bad->at;
        char why[sizeof p.bad->bad];
        snprintf(why, sizeof why, "%s", p.bad->bad);
        pool_free(&p);
        return run_before_bad(cfg, at, why, rep, err, len);
    }
    sb_run_counts total;
    double reduce_start, reduce_seconds = 0;
    int reduced = 0;           /* every member merged: all hear_verdict */
    /* A member whose work failed stops the others: the run ends. */
    if (team && rc != SB_OK)
        team->stop_all(team->ctx);
    if (rc == SB_OK)
        rc = collect(&p, 1, &total);
    if (team) {
        /* Every member's counts merged, on every member; or the first
           member's failure, on every member. */
        char why[512];
        snprintf(why, sizeof why, "%s", rc == SB_OK ? "" : err[0] ? err
                                        : sb_status_str(rc));
        reduce_start = sb_now();
        rc = sb_team_reduce(team, cfg->stats, cfg->n_stats, &shape,
                            cfg->samples, rc, why, &total, err, len);
        reduce_seconds = sb_now() - reduce_start;
        reduced = rc == SB_OK;
    }
    if (rc == SB_OK && cfg->checkpoint && !cfg->feed && !p.bad
        && (!team || team->rank == 0)) {
        /* The end, stopped or not (not after a bad sample: the threads
           left their chunks in the middle, and a state file holds whole
           chunks only).  A team's member 0 alone holds the counts. */
        rc = cfg->checkpoint(cfg->checkpoint_ctx, &total);
        if (rc != SB_OK) {
            snprintf(err, len, "saving the state failed: %s",
                     sb_status_str(rc));
            sb_run_counts_free(&total, cfg->stats, cfg->n_stats);
        }
    }
    if (rc != SB_OK) {
        if (rc == SB_ENOMEM && !err[0])
            snprintf(err, len, "out of memory merging the counts");
        pool_free(&p);
        /* Member 0's save failed after the merge: the others wait to
           hear the outcome. */
        if (team && reduced)
            rc = hear_verdict(team, rep, rc, err, len);
        return rc;
    }

    const uint64_t done = total.done;
    rep->run.kind = shape.kind;
    rep->run.n = shape.n;
    rep->run.done = done;
    rep->run.seed = cfg->seed;
    rep->run.stream_version = sb_stream_version(
        cfg->alg ? cfg->alg->name : NULL, cfg->plugin != NULL, cfg->rng);
    rep->run.threads = p.threads_used ? p.threads_used : 1;
    rep->run.ranks = team ? team->size : 1;
    rep->run.reduce_seconds = reduce_seconds;
    rep->run.reduce_bytes = team ? team->reduced_bytes : 0;
    rep->run.memory_budget = p.budget;
    rep->run.memory_estimate = p.estimate;
    rep->run.threads_wanted = p.threads_wanted;
    rep->run.resumed = cfg->resume ? cfg->resume->done : 0;
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
        if (cfg->first_chunk || cfg->end_chunk) {
            /* A part: its share of the run's samples. */
            rep->run.part_first = cfg->first_chunk;
            rep->run.part_end = p.part_end;
            rep->run.run_samples = cfg->samples;
            rep->run.samples = p.target;
        }
        rep->run.rng = cfg->rng;
        rep->run.rng_seed = sb_rng_seed_used(p.rng, &rep->run.rng_seed_bits);
        rep->run.partial = done < rep->run.samples || p.bad;
        if (p.bad) {
            snprintf(rep->run.bad_sample, sizeof rep->run.bad_sample,
                     "sample %llu: %s", (unsigned long long)p.bad->at,
                     p.bad->bad);
            rep->run.bad_at = p.bad->at;
        }
        if (total.has_tally) {
            rep->run.tally_name = cfg->alg->tally_name;
            rep->run.tally = total.tally;
        }
    }
    if (!team || team->rank == 0)
        rc = sb_report_results(rep, cfg->stats, cfg->n_stats, total.acc,
                               done, err, len);
    sb_run_counts_free(&total, cfg->stats, cfg->n_stats);
    pool_free(&p);
    if (team)
        rc = hear_verdict(team, rep, rc, err, len);
    if (rc != SB_OK)
        return rc;
    rep->run.seconds = sb_now() - start;
    return SB_OK;
}
