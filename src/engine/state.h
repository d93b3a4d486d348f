/*
 * state.h - state files: a run's counts on disk, to resume or merge it.
 *
 * A state file holds everything needed to go on with a run, or to add it
 * to runs made elsewhere: what was run (algorithm, parameters, n, source,
 * statistics, seed, samples, the stream version), the escalation stage it
 * is in and the stages before it, which chunks were counted, and every
 * statistic's accumulator (sb_stat_type.save).
 *
 * Format: the magic "SBSTATE\n", then little-endian 64-bit fields - the
 * format version, the payload's length, the payload, and an FNV-1a hash of
 * the payload.  Strings are a length and their bytes, padded to 8.  A
 * file is written to a temporary name beside it and renamed over the old
 * one, so a crash leaves the old state or the new, never half of one; a
 * file that is cut short, damaged or not a state file at all is refused
 * with a reason, before anything is trusted.
 */
#ifndef SB_ENGINE_STATE_H
#define SB_ENGINE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "shufflebias/report.h"
#include "shufflebias/stat.h"
#include "engine/runner.h"

/* Bumped when the layout changes.  Format 2 added a sequential source's
   saved place after the counts; format 1 files are still read. */
#define SB_STATE_FORMAT 2u

/* Statistics a state file may hold. */
#define SB_STATE_STATS_MAX 32u

typedef struct sb_state {
    /* What was run, the same in every stage. */
    char algorithm[128];
    char plugin[1024];         /* the plug-in's path, "" for a built-in */
    char params[256];          /* "name=value,..." as reports show them */
    char rng[64];
    sb_shape shape;
    uint64_t stream_version;   /* the run's own (sb_stream_version) */
    uint64_t chunk_samples;    /* SB_CHUNK_SAMPLES */
    uint64_t block_samples;    /* SB_BLOCK_SAMPLES */
    uint64_t seed;             /* the run's seed (stage 0's) */
    uint64_t samples;          /* the run's samples (stage 0's) */
    unsigned escalations;      /* escalations allowed */
    /* A part of a split run: chunks [part_first, part_end) and which part
       (1-based) of how many; all 0 for a whole run. */
    uint64_t part_first, part_end;
    unsigned part, parts;
    /* The stage this state is in, and the stages finished before it
       (their 'worst' points into the statistics' registry). */
    unsigned stage;
    sb_stage prior[SB_STAGES_MAX];
    uint64_t stage_seed, stage_samples;
    /* The statistics, in battery order, and their counts. */
    const sb_stat_type *stats[SB_STATE_STATS_MAX];
    size_t n_stats;
    sb_run_counts counts;
} sb_state;

/* What a state file of the run 'cfg' (on samples of 'shape', with its
   statistics) says, counts aside: stage 0 of a whole run, no escalation;
   the caller sets what differs. */
void sb_state_describe(sb_state *st, const sb_run_config *cfg,
                       const sb_shape *shape);

/* Write 'st' to 'path' (through a temporary file renamed over it).
   SB_OK, SB_ENOMEM, or SB_EIO with the reason in 'err'. */
int sb_state_write(const char *path, const sb_state *st, char *err,
                   size_t len);

/* Read 'path' into 'st' (release with sb_state_free).  SB_OK; SB_EIO
   (cannot read it), SB_EINVAL (not a state file, cut short, damaged,
   from another version, or counts that cannot be), SB_ENOTFOUND (a
   statistic this program does not have), SB_ENOMEM; with the reason in
   'err'. */
int sb_state_read(const char *path, sb_state *st, char *err, size_t len);

/* Whether 'b' can be merged with 'a': the same algorithm, parameters, n,
   kind, source, statistics and stream.  SB_OK, or SB_EINVAL with the
   first difference in 'why' ("algorithm 'x' against 'y'"). */
int sb_state_compatible(const sb_state *a, const sb_state *b, char *why,
                        size_t len);

/* The statistics' names, comma-separated, as --tests takes them. */
void sb_state_tests(const sb_state *st, char *out, size_t len);

void sb_state_free(sb_state *st);

/* A run's counts as bytes, to hand to another process (the ranks of an
   MPI run, src/engine/team.h): the fields a state file keeps of them.
   SB_OK with *out allocated (the caller frees it), or SB_ENOMEM. */
int sb_counts_encode(const sb_run_counts *c,
                     const sb_stat_type *const *stats, size_t n_stats,
                     unsigned char **out, size_t *len);
/* The counts sb_counts_encode made of a run of 'samples' on samples of
   'shape' with 'stats', into 'c' (release with sb_run_counts_free).
   SB_OK; or SB_EINVAL, SB_ENOTFOUND, SB_ENOMEM with the reason in 'err'
   (damaged, or the counts of other statistics). */
int sb_counts_decode(const unsigned char *p, size_t n,
                     const sb_stat_type *const *stats, size_t n_stats,
                     const sb_shape *shape, uint64_t samples,
                     sb_run_counts *c, char *err, size_t len);

#endif /* SB_ENGINE_STATE_H */
