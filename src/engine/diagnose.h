/*
 * diagnose.h - what a failing run's bias most resembles among the
 * catalogue's known flaws, and the fix; on a pass, what it could have
 * missed.
 *
 * The method (docs/diagnosis.md): every statistic's table becomes a
 * block of standardised residuals per sample, (observed - expected) /
 * sqrt(expected N), so that a bias has the same vector at any sample
 * size.  Each flawed catalogue algorithm of the run's kind that accepts
 * the run's n (and hands) is simulated through the same statistics, at a
 * fixed seed and at settings strong enough to show its shape (riffle
 * passes 1 to 10, key bits, an amplified modulo bias), giving its
 * signature; a source with too few states has the signature of excess
 * collisions and nothing else.  The score of a flaw is the estimated
 * cosine between the bias seen and its signature, with the noise of
 * both removed from their lengths; the flaw scoring highest is named
 * when its score reaches SB_DIAGNOSIS_THRESHOLD, and "no close match"
 * is said otherwise.  The signatures depend only on the shape of the
 * samples and the statistics, so they are simulated once and kept in an
 * sb_diagnoser for every report of the same shape.
 *
 * Library code: nothing here prints.
 */
#ifndef SB_ENGINE_DIAGNOSE_H
#define SB_ENGINE_DIAGNOSE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "shufflebias/report.h"

/* A close match from this score on: the flaw's pattern then accounts for
   about two thirds (0.8^2 = 64%) of the bias's chi-square distance or
   more (docs/diagnosis.md says why this value). */
#define SB_DIAGNOSIS_THRESHOLD 0.8

/* Samples simulated per flaw setting. */
#define SB_DIAGNOSIS_SAMPLES 131072u

/* The largest deck diagnosed.  The signatures cost about 25 to 40
   simulations of SB_DIAGNOSIS_SAMPLES decks each, some O(n^2) per deck:
   seconds at 52 cards, minutes at a few hundred.  Above it a fail is
   reported without a diagnosis, and the reason given (SB_ERANGE). */
#define SB_DIAGNOSIS_N_MAX 64u

typedef struct sb_diagnoser sb_diagnoser;

/* A diagnoser that simulates on 'threads' threads (0 or 1: the calling
   thread), stopping early when *stop is set (may be NULL).  SB_OK or
   SB_ENOMEM. */
int sb_diagnoser_new(sb_diagnoser **out, unsigned threads,
                     volatile sig_atomic_t *stop);
void sb_diagnoser_free(sb_diagnoser *d);

/* Fill rep->diagnosis: for a failing report, the flaw it resembles (its
   signatures simulated on first use for this shape and statistics, then
   kept in 'd'); for a passing one, rep->diagnosis.missed only.  Other
   reports (suspect, partial, not applicable) are left with
   SB_DIAGNOSIS_NONE.  SB_OK, SB_ENOMEM, SB_EINTR (stopped), SB_ERANGE
   (a deck above SB_DIAGNOSIS_N_MAX), or a status a simulation returned,
   with the reason in 'err'. */
int sb_diagnose(sb_diagnoser *d, sb_report *rep, char *err, size_t len);

/* sb_diagnose with a diagnoser of its own. */
int sb_diagnose_once(sb_report *rep, unsigned threads,
                     volatile sig_atomic_t *stop, char *err, size_t len);

#endif /* SB_ENGINE_DIAGNOSE_H */
