/*
 * runner.h - drive an algorithm over many samples and finalize statistics.
 *
 * Samples are cut into chunks of SB_CHUNK_SAMPLES; chunk i always draws
 * from stream i of the seed and starts with the algorithm's state reset, so
 * the counts depend only on (algorithm, params, n, samples, seed, rng,
 * stream version).  Within a chunk, samples are made in blocks and each
 * statistic counts a whole block at once.
 */
#ifndef SB_ENGINE_RUNNER_H
#define SB_ENGINE_RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "shufflebias/report.h"
#include "shufflebias/shuffle.h"
#include "shufflebias/stat.h"
#include "engine/chunks.h"
#include "engine/team.h"
#include "sources/feed.h"
#include "stats/battery.h"

#define SB_CHUNK_SAMPLES 65536u

/* Samples per block: the algorithm makes a block, then each statistic
   counts it in one call.  Part of what a seed means (the serial statistic
   pairs samples within a block), so state files record it. */
#define SB_BLOCK_SAMPLES 64u

/* The counts of a run so far, as a state file keeps them (src/engine/state.h):
   one accumulator per statistic of the run, in its order, and which chunks
   they hold. */
typedef struct sb_run_counts {
    void **acc;            /* n_stats accumulators */
    sb_chunks chunks;      /* the chunks counted, each whole */
    uint64_t done;         /* samples counted */
    int has_tally;         /* 1 when the algorithm keeps a tally */
    sb_tally tally;        /* its tally over those samples */
    /* A sequential source's place (sb_rng_save): its state before chunk
       'rng_next', so that a resumed run goes on from there instead of
       making the chunks before it again.  rng_len 0: none kept. */
    unsigned char *rng_state;
    size_t rng_len;
    uint64_t rng_next;
} sb_run_counts;

typedef struct sb_run_config {
    const sb_shuffle_type *alg;     /* NULL when 'feed' is set */
    sb_shuffle_args args;           /* n and parameter values */
    /* >= 1; with a feed, 0 reads to the end of the input */
    uint64_t samples;
    /* The samples of the run whose chunks a jump-ahead source spreads
       over its period (src/base/rng.h), 0: 'samples'.  Set when a run
       remakes the start of a longer one. */
    uint64_t stream_samples;
    uint64_t seed;                  /* with a feed, only recorded */
    const char *rng;                /* a backend name (src/base/rng.h); NULL
                                       with a feed */
    /* Samples from outside instead of 'alg' and 'rng' (may be NULL). */
    const sb_feed *feed;
    /* The plug-in 'alg' comes from (its path), NULL for a built-in.
       A plug-in's run is refused unless its first samples draw through
       the source and come out the same when made again (sb_plugin_probe),
       and every one of its samples is checked as 'check_samples' says. */
    const char *plugin;
    /* Check every sample for its kind (src/sources/sample_check.h), and the guard
       words after it, before any statistic counts it: always done for a
       plug-in; set it to measure what the check costs a built-in.  A bad
       sample ends the run: SB_OK, rep->run.partial set, the samples
       before it counted, and the sample's number and values in
       rep->run.bad_sample. */
    int check_samples;
    const sb_stat_type *const *stats;
    size_t n_stats;
    /* Threads that make and count samples; 0 or 1: the calling thread
       alone.  The counts never depend on it.  A source that is one
       sequential stream (every backend but the fast generator) and a
       feed always run on one thread. */
    unsigned threads;
    /* A part of a run split between machines: only chunks [first_chunk,
       end_chunk) of the run's samples are made (end_chunk 0: to the
       last).  Ignored with a feed. */
    uint64_t first_chunk, end_chunk;
    /* Counts to start from, for a resumed run: their chunks are not made
       again.  Must have been made with the same algorithm, arguments,
       samples, seed, source and statistics (src/engine/state.c checks).  May be
       NULL; not changed. */
    const sb_run_counts *resume;
    /* State files: called with the counts so far about every
       'checkpoint_seconds' (0: after every chunk) and once when the run
       ends, stopped or not.  While it is set, a stop request ends the run
       between chunks only (each running thread finishes its chunk), so
       that the counts are always of whole chunks.  A status other than
       SB_OK ends the run with that status.  May be NULL. */
    int (*checkpoint)(void *ctx, const sb_run_counts *counts);
    void *checkpoint_ctx;
    double checkpoint_seconds;
    /* Set (from a signal handler) to end the run early: the report then
       covers the samples done and is marked partial.  May be NULL. */
    volatile sig_atomic_t *stop;
    /* Called after every chunk with the samples done so far; may be NULL. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* The memory budget in bytes (src/engine/budget.h), 0: sb_budget_default().
       A run whose tables do not fit on 'threads' threads runs on as many
       as fit (rep->run.threads_wanted then says how many were asked
       for), and is refused (SB_ENOMEM, the need in 'err') when one does
       not fit. */
    uint64_t memory;
    /* The processes that share the run (src/engine/team.h), NULL or of
       size 1: this one alone.  Each makes its share of the chunks; all
       end with the same merged counts and the same report.  Refused on
       a source that is one sequential stream, and with a feed.  With a
       team, 'checkpoint' is called on member 0 alone, with the merged
       counts: at meetings of the members about every checkpoint_seconds,
       and when the run ends. */
    sb_team *team;
} sb_run_config;

/* Run 'cfg' and fill 'rep' (results allocated; release with
   sb_report_release).  On error returns a status and writes a one-line
   lowercase reason into 'err':  SB_ENOTFOUND (unknown rng), SB_EINVAL (a
   statistic that does not apply, or n and parameters the algorithm
   refuses), SB_ENOTSUP (a draw the source cannot make), SB_ERANGE (a
   source that got stuck), SB_ENOMEM; or the status a run of the algorithm
   returned (such as gsl-shuffle on a generator with too small a range).
   An interrupted run returns SB_OK with rep->run.partial set; so does a run
   whose feed went wrong, with rep->run.feed_status set to the feed's
   status (the caller says what went wrong: it knows the input), and so
   does a run that made a sample not of its kind (rep->run.bad_sample
   says which).  A plug-in's failures name its path and the sample. */
int sb_run(const sb_run_config *cfg, sb_report *rep, char *err, size_t len);

/* Accumulators for 'stats' on samples of 'shape', zeroed, in 'c' (chunks
   empty, done 0).  SB_OK or SB_ENOMEM (then nothing is left allocated). */
int sb_run_counts_alloc(sb_run_counts *c, const sb_stat_type *const *stats,
                        size_t n_stats, const sb_shape *shape);
/* Add the accumulators, samples and tally of 'from' into 'into' (the
   chunks are the caller's to join: a merge of different seeds keeps
   them apart).  SB_OK, or what a statistic's merge returned. */
int sb_run_counts_merge(sb_run_counts *into, const sb_run_counts *from,
                        const sb_stat_type *const *stats, size_t n_stats);
void sb_run_counts_free(sb_run_counts *c, const sb_stat_type *const *stats,
                        size_t n_stats);

/* The bytes a run of 'stats' on samples of 'shape' needs on 'threads'
   threads, as the budget counts them: each thread's accumulators and
   block; with 'checkpoint', a copy of the counts and the state file
   built from it while it is saved; with 'resume', the counts resumed
   from; and, at the end, the results of finalize beside one set of
   counts (the threads' others are freed by then). */
uint64_t sb_run_memory(const sb_stat_type *const *stats, size_t n_stats,
                       const sb_shape *shape, unsigned threads,
                       int checkpoint, int resume);

/* Seconds since an arbitrary origin, for timing only. */
double sb_now(void);

#endif /* SB_ENGINE_RUNNER_H */
