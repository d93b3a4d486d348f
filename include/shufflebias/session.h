/*
 * session.h - test a shuffle from C: the API of libshufflebias.
 *
 * A session holds what to run (a shuffle, n, its parameters, the samples,
 * the seed, the randomness source, the threads, the statistics, the
 * escalations) and the report of its last run.  It runs the same test as
 * 'shufflebias test' and the same walk as 'shufflebias exact', and writes
 * the same JSON:
 *
 *     sb_session *s;
 *     if (sb_session_new(&s) != SB_OK)
 *         return 1;
 *     sb_session_set_shuffle(s, "naive-swap");    // or _set_shuffle_type
 *     sb_session_set_n(s, 52);
 *     sb_session_set_samples(s, 1000000);
 *     sb_session_set_seed(s, 42);
 *     if (sb_session_test(s) != SB_OK)
 *         fprintf(stderr, "%s\n", sb_session_error(s));
 *     else if (sb_session_verdict(s) == SB_VERDICT_FAIL)
 *         puts("biased");
 *     sb_session_free(s);
 *
 * Rules for every function here: the library never prints and never
 * exits.  A function that can fail returns an sb_status (status.h); on
 * failure sb_session_error() says why in one lowercase line, and the
 * session's settings are as they were before the call.  The counts, and so
 * the verdicts, depend only on the shuffle, n, the parameters, the
 * samples, the seed, the source and the statistics: never on the threads.
 * A session is used by one thread at a time; separate sessions may run at
 * once.
 *
 * Verdicts (docs/verdicts.md): each statistic's p-value is corrected for
 * the number of statistics run (Holm); an adjusted p-value below 1e-6
 * fails, below 1e-3 is suspect.  A fair shuffle fails one run in a
 * million at most.  A suspect run is run again on fresh samples (a seed
 * derived from the seed, twice the samples) up to 'escalations' times
 * before its verdict is given.
 */
#ifndef SB_SESSION_H
#define SB_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "export.h"
#include "exact.h"
#include "report.h"
#include "shuffle.h"
#include "stat.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sb_session sb_session;

/* A new session in *out with the defaults: no shuffle, n = 52, 1000000
   samples, seed 0, the fast built-in source ("xoshiro256"), one thread,
   the default statistics for the shuffle's kind and size, 3
   escalations.  SB_OK, or SB_ENOMEM (*out is then NULL).  It turns off
   GSL's error handler for the process (gsl_set_error_handler_off), whose
   default aborts: the library checks every GSL result it uses instead,
   and never ends its caller. */
SB_API int sb_session_new(sb_session **out);

/* Release 's' and its last report.  NULL is accepted. */
SB_API void sb_session_free(sb_session *s);

/* Why the last call that failed failed, one lowercase line without a
   final newline; "" when none has.  Valid until the next call on 's'. */
SB_API const char *sb_session_error(const sb_session *s);

/* Run the built-in shuffle called 'name' ('shufflebias list' names them:
   "fisher-yates", "naive-swap", "riffle", ...).  Its parameters are reset
   to their defaults.  SB_OK, or SB_ENOTFOUND. */
SB_API int sb_session_set_shuffle(sb_session *s, const char *name);

/* Run the caller's own shuffle 't' (shuffle.h; its fields as for a
   plug-in, plugin.h), which must stay valid while the session uses it.
   Its parameters are reset to their defaults.  Every sample it makes is
   checked for its kind before it is counted: a bad one ends the run
   (sb_session_test returns SB_EINVAL and says which sample).  SB_OK, or
   SB_EINVAL (NULL, no name or no run function). */
SB_API int sb_session_set_shuffle_type(sb_session *s,
                                       const sb_shuffle_type *t);

/* The deck size, 1 .. SB_DECK_MAX (the shuffle's own range is checked
   when it runs).  SB_OK, or SB_EINVAL. */
SB_API int sb_session_set_n(sb_session *s, size_t n);

/* One parameter of the shuffle as "name=value" ("passes=7",
   "key-bits=2"), checked at once when a shuffle is set and applied, on
   top of the defaults, at every run; at most 16.  SB_OK, SB_ENOTFOUND
   (no such parameter), SB_EINVAL (no shuffle set yet, or a value it does
   not take), SB_ERANGE (too many, or a value out of range). */
SB_API int sb_session_set_param(sb_session *s, const char *assignment);

/* Forget the parameters set, back to the shuffle's defaults. */
SB_API void sb_session_clear_params(sb_session *s);

/* Decks to sample in the first stage, 1 .. 2^62.  SB_OK, or SB_EINVAL. */
SB_API int sb_session_set_samples(sb_session *s, uint64_t samples);

/* The seed, 0 .. 2^63 - 1: the same seed gives the same decks, the same
   counts and the same report.  SB_OK, or SB_EINVAL. */
SB_API int sb_session_set_seed(sb_session *s, uint64_t seed);

/* The randomness source: "xoshiro256" (the default), any GSL generator
   ("mt19937"), or a weak one ("rand15", "lcg32", "reseed32:NAME"); an
   unknown name is refused by the run (SB_ENOTFOUND).  SB_OK, or
   SB_EINVAL (NULL or too long). */
SB_API int sb_session_set_rng(sb_session *s, const char *name);

/* Threads that make and count samples, 1 .. 256; 0: one per processor
   online.  Only the fast built-in source runs on more than one.  SB_OK,
   or SB_EINVAL. */
SB_API int sb_session_set_threads(sb_session *s, unsigned threads);

/* The statistics to run, comma-separated ("position,cycles"); NULL: the
   defaults for the shuffle's kind and size.  The names are checked when
   the test runs (SB_ENOTFOUND for an unknown one).  SB_OK, or SB_EINVAL
   (too long). */
SB_API int sb_session_set_tests(sb_session *s, const char *list);

/* How many times a suspect verdict is run again, 0 .. 8.  SB_OK, or
   SB_EINVAL. */
SB_API int sb_session_set_escalations(sb_session *s, unsigned escalations);

/* A flag that, once set (from a signal handler, say), ends the run
   early; NULL: none. */
SB_API void sb_session_set_stop(sb_session *s, volatile sig_atomic_t *stop);

/* A function called with the samples (or, in an exact walk, the paths)
   done so far and the total (0 when unknown), from the thread that runs
   the session; NULL: none. */
SB_API void sb_session_set_progress(sb_session *s,
                                    void (*fn)(void *ctx, uint64_t done,
                                               uint64_t total),
                                    void *ctx);

/* Sample the shuffle and run the statistics, escalating a suspect
   verdict.  SB_OK with the report in sb_session_report(); SB_EINTR when
   the stop flag ended it (the report then covers the samples counted,
   run.partial set); SB_EINVAL when the shuffle made a sample not of its
   kind (the report covers the samples before it) or when n, the
   parameters or the statistics do not suit the shuffle; SB_ENOTFOUND
   (an unknown source or statistic); SB_ENOMEM; or the status the
   shuffle returned.  Any earlier report is released first. */
SB_API int sb_session_test(sb_session *s);

/* Walk every path of draws the shuffle can make at this n (exact mode,
   'shufflebias exact'; n small, a few cards): the exact probability of
   every outcome, and a proof of bias or of uniformity.  SB_OK with the
   report in sb_session_exact_report() (an interrupted walk too, with
   'partial' set); SB_ENOTSUP (the shuffle cannot be walked: it draws
   unit() or the C library's), SB_ERANGE (more than 2e8 paths, or more
   memory than the budget), SB_EINVAL, SB_ENOMEM.  Any earlier report is
   released first. */
SB_API int sb_session_exact(sb_session *s);

/* The verdict of the last test: SB_VERDICT_PASS (no bias found),
   SB_VERDICT_SUSPECT (still suspect after the escalations),
   SB_VERDICT_FAIL (bias found), or SB_VERDICT_NA (nothing could be
   judged, or no test has run). */
SB_API sb_verdict sb_session_verdict(const sb_session *s);

/* The verdict as the reports state it: "pass", "suspect", "fail", "not
   applicable", "incomplete" (interrupted), "error" (a bad sample); after
   an exact walk "uniform", "biased" or "inconclusive"; "" before any
   run. */
SB_API const char *sb_session_verdict_str(const sb_session *s);

/* The report of the last test (report.h): results[i] holds each
   statistic's name, statistic, df, p_value, p_adjusted and verdict, in
   the order run.  NULL when the last run was no test.  Valid until the
   next run or sb_session_free. */
SB_API const sb_report *sb_session_report(const sb_session *s);

/* The report of the last exact walk (exact.h), NULL when the last run
   was none.  Valid until the next run or sb_session_free. */
SB_API const sb_exact_report *sb_session_exact_report(const sb_session *s);

/* Diagnose the last test (report.h, sb_diagnosis): on a fail, which of
   the catalogue's known flaws its bias resembles, with a score and the
   fix (each flaw of the same kind simulated at this n through the same
   statistics: 6 to 8 s at 52 cards on two cores); on a pass, what it
   could have missed.  The result is in sb_session_report()->diagnosis,
   and in the JSON report ("diagnosis").  SB_OK; SB_EINVAL (no test has
   run); SB_ERANGE (a deck of more than 64 cards: none is made, it would
   take minutes); SB_EINTR (the stop flag ended it); SB_ENOMEM. */
SB_API int sb_session_diagnose(sb_session *s);

/* Write the last run's report as the JSON document 'shufflebias test
   --json' (or 'exact --json') writes, to 'f'.  SB_OK, SB_EINVAL (nothing
   run yet), SB_EIO, SB_ENOMEM. */
SB_API int sb_session_write_json(const sb_session *s, FILE *f);

/* The same into the file 'path', which is replaced only once the new
   report is whole (written beside it, then renamed).  SB_OK, SB_EINVAL,
   SB_EIO (why in sb_session_error), SB_ENOMEM. */
SB_API int sb_session_save_json(sb_session *s, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* SB_SESSION_H */
