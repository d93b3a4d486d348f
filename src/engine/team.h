/*
 * team.h - the processes that share one run (the ranks of an MPI job).
 *
 * A run made by a team is split between its members: member r of K
 * makes the r-th of K equal runs of consecutive chunks of the run (or of
 * the part), on its own threads, and counts them into its own
 * accumulators.  The counts are integers, merged in member order, so the
 * merged counts are the same bit for bit as one process's - whatever K
 * and whatever the threads.  Member 0 merges them and finalizes
 * the report; the others hear its verdict, so that every member takes
 * the same decisions after it (escalation).  Member 0 writes what is
 * written.
 *
 * The engine knows no MPI: the command line supplies the transport
 * (src/cli/ranks.c), and a library user may supply their own.  Every
 * call below is collective unless it says otherwise: each member makes
 * the same calls in the same order.
 */
#ifndef SB_ENGINE_TEAM_H
#define SB_ENGINE_TEAM_H

#include <stddef.h>
#include <stdint.h>

#include "shufflebias/stat.h"

struct sb_run_counts;

typedef struct sb_team {
    unsigned rank, size;       /* this member, of 'size' (>= 1) */
    /* Member 0 receives every member's bytes in member order, its own
       first, and calls 'take' with each; the others send 'mine' and call
       nothing.  A status other than SB_OK from 'take' is kept and
       returned once every member's bytes are in. */
    int (*gather)(void *ctx, const unsigned char *mine, size_t len,
                  int (*take)(void *tctx, unsigned from,
                              const unsigned char *p, size_t n),
                  void *tctx);
    /* Member 0's *p and *n to every member: the others' are replaced by
       an allocated copy, which they free. */
    int (*share)(void *ctx, unsigned char **p, size_t *n);
    /* Not collective.  'stopped': whether another member asked the run
       to stop; called often, from the thread that called sb_run.
       'stop_all': ask the others to stop. */
    int (*stopped)(void *ctx);
    void (*stop_all)(void *ctx);
    void *ctx;
    /* Set by the engine: agreements made (sb_team_agree), and the bytes
       of counts member 0 received in the last sb_team_reduce. */
    unsigned agreed;
    uint64_t reduced_bytes;
} sb_team;

/* The chunks of [lo, end) that member 'rank' of 'size' makes:
   [*first, *last). */
void sb_team_share(uint64_t lo, uint64_t end, unsigned rank, unsigned size,
                   uint64_t *first, uint64_t *last);

/* Every member says whether it is ready ('status' SB_OK) or why not
   ('why'): SB_OK when all are, else the status of the first member that
   is not, with its reason in 'err' ("rank R of K: ...").  Collective. */
int sb_team_agree(sb_team *team, int status, const char *why, char *err,
                  size_t len);

/* Merge every member's counts of a run of 'samples' ('status' SB_OK), or
   take its failure ('status' and 'why'), and tell every member the
   outcome: SB_OK with member 0's *counts the merged counts (every other
   member's *counts freed), or on every member the status of the first
   member that failed with its reason in 'err' ("rank R of K: ...";
   every *counts freed).  Collective. */
int sb_team_reduce(sb_team *team, const sb_stat_type *const *stats,
                   size_t n_stats, const sb_shape *shape, uint64_t samples,
                   int status, const char *why, struct sb_run_counts *counts,
                   char *err, size_t len);

/* The bitwise or of every member's 'mine', in *all on every member.
   SB_OK or SB_EIO.  Collective. */
int sb_team_or(sb_team *team, uint64_t mine, uint64_t *all);

/* Member 0's 'n' words (n <= 16) to every member.  SB_OK or SB_EIO.
   Collective. */
int sb_team_words(sb_team *team, uint64_t *words, size_t n);

#endif /* SB_ENGINE_TEAM_H */
