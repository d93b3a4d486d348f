/*
 * paths.h - the enumerating source: every draw a branch point, a path of
 * draws an odometer over the branches.
 *
 * below(n) has n branches of weight 1/n, bits(k) 2^k of weight 2^-k,
 * weighted(w, m) m branches of weight w[i]/sum(w), rand() % k its k
 * residues with their weights; unit() cannot be enumerated and is
 * refused.  A run along the current path takes the recorded branch at
 * each draw, records branch 0 at a draw past the path's end, and is left
 * with longjmp (to 'abandon') when it goes past the depth limit or makes
 * a draw that cannot be walked: the plug-in contract says run() allocates
 * nothing, so abandoning it loses nothing.  The probability of the first
 * d draws of the path is kept as num[d]/den[d] in exact integers, and
 * only the part after the draw the odometer changed is recomputed.
 *
 * Both exact walks use it: the walk over every path of a shuffle
 * (enumerate.c) and the walk over the states of a shuffle that is Markov
 * in its deck (markov.c), which walks the paths of one step at a time.
 */
#ifndef SB_ENGINE_PATHS_H
#define SB_ENGINE_PATHS_H

#include <gmp.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "shufflebias/rng.h"

typedef struct sb_walk {
    size_t depth;          /* draws made so far in this run */
    size_t len;            /* draws recorded on the current path */
    size_t max_depth;
    uint64_t *choice;      /* branch taken at each recorded draw */
    uint64_t *radix;       /* branches at each recorded draw */
    mpz_t *num, *den;      /* num[d]/den[d]: probability of the first d draws */
    size_t valid;          /* num/den are right up to this depth */
    int cut;               /* this run went past max_depth */
    int dead;              /* this run took a branch of weight 0 */
    int status;            /* first error of this walk */
    int run_status;        /* what run() returned, when not SB_OK */
    const char *why;       /* what the error was */
    jmp_buf abandon;       /* where a cut or refused run is left from */
} sb_walk;

/* Room for paths of up to 'max_depth' draws.  SB_OK or SB_ENOMEM (then
   sb_walk_free what was made). */
int sb_walk_init(sb_walk *k, size_t max_depth);
void sb_walk_free(sb_walk *k);

/* Before a run along the current path: no draw made, no cut, no error of
   the run. */
void sb_walk_start(sb_walk *k);

/* Move to the next path; 0 when all are walked (the walk is then back at
   its first path, with no draw recorded). */
int sb_walk_advance(sb_walk *k);

/* The enumerating source over 'k'. */
sb_src sb_walk_src(sb_walk *k);

/* The current path as its draws, "branch/of branch/of ...", as much as
   fits in 'buf'. */
void sb_walk_draws(const sb_walk *k, char *buf, size_t len);

#endif /* SB_ENGINE_PATHS_H */
