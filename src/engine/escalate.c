/*
 * escalate.c - the stages of a run (the rule is in escalate.h).
 */
#include "engine/escalate.h"

#include <stdio.h>
#include <string.h>

#include "shufflebias/status.h"
#include "engine/runner.h"

uint64_t sb_escalation_seed(uint64_t seed, unsigned stage)
{
    if (stage == 0)
        return seed;
    /* SplitMix64's finalizer (Steele, Lea and Flood, "Fast splittable
       pseudorandom number generators", OOPSLA 2014) on the seed moved by
       'stage' golden-ratio steps: stages of nearby seeds do not collide. */
    uint64_t z = seed + (uint64_t)stage * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z >> 11;
}

uint64_t sb_escalation_samples(uint64_t samples, unsigned stage)
{
    const uint64_t cap = UINT64_C(1) << 62;
    for (unsigned k = 0; k < stage && samples < cap; k++)
        samples = samples > cap / 2 ? cap : 2 * samples;
    return samples > cap ? cap : samples;
}

/* The smallest adjusted p-value of a report and whose it is: ties broken
   by the raw p-value, as the reports name a run's worst statistic
   (sb_report_worst, which this floor cannot see). */
static void worst_result(const sb_report *rep, sb_stage *st)
{
    const sb_result *w = NULL;
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        if (r->applicable && (!w || r->p_adjusted < w->p_adjusted
                              || (r->p_adjusted == w->p_adjusted
                                  && r->p_value < w->p_value)))
            w = r;
    }
    st->min_p_adjusted = w ? w->p_adjusted : 1.0;
    st->worst = w ? w->name : NULL;
}

int sb_escalate(sb_stage_fn run, void *ctx, uint64_t seed, uint64_t samples,
                unsigned escalations, sb_report *rep, char *err, size_t len)
{
    sb_stage stages[SB_STAGES_MAX];
    return sb_escalate_from(run, ctx, seed, samples, escalations, stages, 0,
                            rep, err, len);
}

int sb_escalate_from(sb_stage_fn run, void *ctx, uint64_t seed,
                     uint64_t samples, unsigned escalations,
                     sb_stage stages[], size_t n_prior, sb_report *rep,
                     char *err, size_t len)
{
    memset(rep, 0, sizeof *rep);
    if (escalations >= SB_STAGES_MAX) {
        snprintf(err, len, "at most %u escalations", SB_STAGES_MAX - 1);
        return SB_EINVAL;
    }
    if (n_prior > escalations) {
        snprintf(err, len, "stage %zu of a run of %u escalations", n_prior,
                 escalations);
        return SB_EINVAL;
    }
    size_t n_stages = n_prior;
    uint64_t total = 0;
    for (size_t k = 0; k < n_prior; k++)
        total += stages[k].done;
    for (unsigned k = (unsigned)n_prior; k <= escalations; k++) {
        if (k > n_prior)
            sb_report_release(rep);
        sb_stage *st = &stages[n_stages++];
        st->seed = sb_escalation_seed(seed, k);
        st->samples = sb_escalation_samples(samples, k);
        int rc = run(ctx, k, st->seed, st->samples, rep, err, len);
        if (rc != SB_OK) {
            memset(rep, 0, sizeof *rep);
            return rc;
        }
        st->done = rep->run.done;
        st->verdict = rep->verdict;
        worst_result(rep, st);
        total += rep->run.done;
        if (rep->run.partial || rep->verdict != SB_VERDICT_SUSPECT)
            break;
    }
    memcpy(rep->stages, stages, n_stages * sizeof stages[0]);
    rep->n_stages = n_stages;
    rep->run.seed = seed;
    rep->run.samples_total = total;
    return SB_OK;
}
