/*
 * escalate.h - re-run a suspect battery before telling anyone it failed.
 *
 * A battery whose worst Holm-adjusted p-value lands between the fail and
 * the suspect thresholds has not shown a bias, and it has not shown there
 * is none.  Rather than report that and leave the user to guess, the run
 * is repeated on fresh samples: a seed derived from the run's seed (so the
 * whole escalation is reproducible from the seed alone) and twice the
 * samples of the stage before, up to a set number of escalations.
 *
 * The rule, stage by stage: fail ends the run with fail; pass ends it with
 * pass (the suspicion did not come back on independent samples with more
 * power); suspect goes on to the next stage, and a run still suspect after
 * its last escalation is reported suspect (inconclusive, exit 3).  Each
 * stage is an independent test on its own samples, so a fair shuffle fails
 * with probability at most fail_alpha (1 + suspect_alpha + ...) and stays
 * suspect with probability at most suspect_alpha^(escalations + 1) — the
 * escalation makes crying wolf rarer, never more common.
 */
#ifndef SB_ENGINE_ESCALATE_H
#define SB_ENGINE_ESCALATE_H

#include <stddef.h>
#include <stdint.h>

#include "shufflebias/report.h"

/* Escalations after a suspect first stage unless told otherwise: up to 8
   times the samples, 15 times the work in all at worst. */
#define SB_ESCALATIONS_DEFAULT 3u

/* One stage: sample 'samples' decks from 'seed', run the battery, fill
   'rep' (its verdict, results and run info; rep->run.partial when
   interrupted).  Returns SB_OK, or a status with a reason in 'err'. */
typedef int (*sb_stage_fn)(void *ctx, unsigned stage, uint64_t seed,
                           uint64_t samples, sb_report *rep, char *err,
                           size_t len);

/* The seed of stage 'stage': the run's seed for stage 0; for later
   stages a 64-bit mix of (seed, stage) kept below 2^53, so that it stays
   exact in JSON and any reader can repeat one stage on its own. */
uint64_t sb_escalation_seed(uint64_t seed, unsigned stage);

/* The samples of stage 'stage': samples * 2^stage, at most 2^62. */
uint64_t sb_escalation_samples(uint64_t samples, unsigned stage);

/* Run stage 0, then escalate while a stage is suspect, at most
   'escalations' times (at most SB_STAGES_MAX - 1).  'rep' receives the
   last stage's report, its stages[] filled with every stage run, and
   run.seed the run's own seed.  An interrupted stage ends the escalation
   (rep->run.partial is set).  Returns SB_OK, SB_EINVAL (too many
   escalations) or what a stage returned (then 'rep' holds nothing). */
int sb_escalate(sb_stage_fn run, void *ctx, uint64_t seed, uint64_t samples,
                unsigned escalations, sb_report *rep, char *err, size_t len);

/* The same, going on from a resumed run: stages[0 .. n_prior - 1] are
   stages already finished (each suspect), and the run goes on with stage
   n_prior.  'stages' has room for SB_STAGES_MAX and is filled as stages
   finish, so that a stage function holding it sees the stages before its
   own (a state file records them). */
int sb_escalate_from(sb_stage_fn run, void *ctx, uint64_t seed,
                     uint64_t samples, unsigned escalations,
                     sb_stage stages[], size_t n_prior, sb_report *rep,
                     char *err, size_t len);

#endif /* SB_ENGINE_ESCALATE_H */
