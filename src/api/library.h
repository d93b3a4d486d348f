/*
 * library.h - the inside of a session (include/shufflebias/session.h):
 * what it keeps between the calls that set it up and the run, and the
 * report of its last run.  The library's own; a program sees the handle
 * only, so that this may change without breaking it.
 */
#ifndef SB_API_LIBRARY_H
#define SB_API_LIBRARY_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "shufflebias/session.h"

#define SB_SESSION_PARAMS_MAX 16
#define SB_SESSION_STATS_MAX 32
#define SB_SESSION_THREADS_MAX 256u

struct sb_session {
    const sb_shuffle_type *alg;
    int builtin;                    /* alg is one of the registry's */
    size_t n;
    char params[SB_SESSION_PARAMS_MAX][64];
    size_t n_params;
    uint64_t samples, seed;
    char rng[64];
    unsigned threads;               /* 0: one per processor online */
    char tests[1024];
    int tests_set;                  /* 0: the defaults */
    unsigned escalations;
    volatile sig_atomic_t *stop;
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* The last run's report: a test's or an exact walk's, or none. */
    enum { SB_SESSION_NONE, SB_SESSION_TEST, SB_SESSION_EXACT } has;
    sb_report rep;
    sb_exact_report exact;
    char error[1024];
};

#endif /* SB_API_LIBRARY_H */
