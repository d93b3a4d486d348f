/*
 * session.h - a whole run of 'shufflebias test': its stages (a suspect
 * verdict escalated, src/engine/escalate.h), a part of a split run, the
 * checkpoints that save its state and a resumed run's counts.
 *
 * Library code: nothing here prints.  Errors come back as a status and a
 * one-line reason; the caller hears of progress through the run's
 * progress function, of a new stage and of a state that could not be
 * saved through the hooks below, and says what it likes.
 */
#ifndef SB_ENGINE_SESSION_H
#define SB_ENGINE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "shufflebias/report.h"
#include "shufflebias/shuffle.h"
#include "shufflebias/stat.h"
#include "engine/runner.h"
#include "sources/external.h"

struct sb_state;

/* Seconds between two saves of a state file. */
#define SB_RUN_SAVE_SECONDS 60.0

/* Saving and resuming a run (a state file, a part of a split run). */
typedef struct sb_run_keep {
    const char *path;         /* save the state here, NULL: nowhere */
    struct sb_state *resume;  /* go on from this state, NULL: from the
                                 start */
    unsigned part, parts;     /* only part 'part' (1-based) of 'parts' of
                                 the run's chunks; 0 for a whole run */
    int save_failed;          /* set by the run: the last save of the
                                 state failed */
    char save_error[640];     /* why, when save_failed */
} sb_run_keep;

/* What the caller hears while a run goes on; any may be NULL. */
typedef struct sb_run_hooks {
    /* Stage 'stage' (1 .. escalations) begins: the stage before it was
       suspect. */
    void (*stage)(void *ctx, unsigned stage, unsigned escalations);
    /* A save of the state failed after the one before it did not (or
       after none): 'err' says why.  The run goes on: its report is still
       worth having, and the next save may succeed. */
    void (*save_failed)(void *ctx, const char *err);
    void *ctx;
} sb_run_hooks;

/* The shape of the samples cfg->alg makes with cfg->args, once the
   algorithm has accepted n and the parameters and the shape is one a
   sample can have (a plug-in may declare one that is not).  SB_OK, or
   SB_EINVAL with the reason in 'err' ("'riffle' deals ...", "plug-in 'x':
   shuffle 'y' ..."). */
int sb_run_shape(const sb_run_config *cfg, sb_shape *shape, char *err,
                     size_t len);

/* The statistics named in the comma-separated 'list' (NULL: the defaults
   for 'shape'), each checked to apply, none twice; 'out' has room for
   'max'.  SB_OK, or SB_ENOTFOUND (an unknown name: the nearest and the
   valid ones in 'err') or SB_EINVAL, with the reason in 'err'.  The
   messages call the list 'list_name' ("--tests"). */
int sb_run_stats(const char *list, const char *list_name,
                 const sb_shape *shape, const sb_stat_type **out, size_t max,
                 size_t *count, char *err, size_t len);

/* Run cfg (alg, args, samples, seed, rng, threads, stop, progress set;
   its shape checked by sb_run_shape) with 'stats', escalating a
   suspect verdict at most 'escalations' times; with 'keep' (may be NULL)
   saving its state, resuming or making one part.  cfg's seed and samples
   are each stage's while it runs and the run's again after; the fields
   the session sets (stats, resume, checkpoint) are cleared.  SB_OK and
   'rep' filled (keep->save_failed says whether the state was lost), or a
   status with the reason in 'err' - a plug-in's names it, otherwise it
   begins with the algorithm's name. */
int sb_run_session(sb_run_config *cfg, const sb_stat_type *const *stats,
                   size_t n_stats, unsigned escalations,
                   sb_run_keep *keep, const sb_run_hooks *hooks,
                   sb_report *rep, char *err, size_t len);

/* Run the samples of a program or a file, 'first' being stage 0's source
   (sb_external_open of 'spec' with 'seed' and 'samples', which settled
   the shape 'stats' fit; always closed here), escalating a suspect
   verdict at most 'escalations' times: each later stage runs the program
   again on its own seed and samples.  'progress' (may be NULL) is called
   as sb_run_config's.  SB_OK with 'rep' and 'info' filled
   (rep->run.input points to 'info') and *input_error set to 1 when the
   input went wrong (the report is then partial and info->error says
   why), or a status with the reason in 'err' and nothing to report. */
int sb_run_session_external(sb_external *first, const sb_external_spec *spec,
                            const sb_stat_type *const *stats, size_t n_stats,
                            uint64_t seed, uint64_t samples,
                            unsigned escalations,
                            void (*progress)(void *ctx, uint64_t done,
                                             uint64_t total),
                            void *progress_ctx, const sb_run_hooks *hooks,
                            sb_report *rep, sb_input_info *info,
                            int *input_error, char *err, size_t len);

#endif /* SB_ENGINE_SESSION_H */
