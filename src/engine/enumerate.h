/*
 * enumerate.h - exact mode: walk every path of draws an algorithm can make.
 *
 * The enumerating source implements the draw interface with every draw a
 * branch point: below(n) has n branches of weight 1/n, bits(k) 2^k of
 * weight 2^-k, weighted(w, m) m branches of weight w[i]/sum(w); unit()
 * cannot be enumerated and is refused.  The algorithm is replayed once per
 * path from a reset state, the path's choices being an odometer that
 * advances from its last draw; a path's probability is the product of its
 * branch weights, kept as exact integers, and only the part after the
 * first changed draw is recomputed.
 */
#ifndef SB_ENGINE_ENUMERATE_H
#define SB_ENGINE_ENUMERATE_H

#include <signal.h>
#include <stdint.h>

#include "shufflebias/exact.h"
#include "shufflebias/markov.h"
#include "shufflebias/shuffle.h"

#define SB_ENUM_MAX_PATHS_DEFAULT 200000000u   /* 2e8 */
#define SB_ENUM_MAX_DEPTH_DEFAULT 4096u

typedef struct sb_enum_config {
    const sb_shuffle_type *alg;
    sb_shuffle_args args;
    /* The plug-in 'alg' comes from (its path), NULL for a built-in: its
       draws must be the source's alone (sb_plugin_probe) before it is
       walked, and its errors name it. */
    const char *plugin;
    uint64_t max_paths;       /* path budget */
    size_t max_depth;         /* draws per path before it is cut; 0 for
                                 the algorithm's exact_depth, or else
                                 SB_ENUM_MAX_DEPTH_DEFAULT */
    /* 1: a refusal's reason ends with what the command line can change
       ("raise --max-paths or lower n", "try --param key-bits=2"); 0: the
       reason alone, for a caller that has no such options. */
    int option_advice;
    volatile sig_atomic_t *stop;   /* may be NULL */
    /* Called every 2^20 paths; may be NULL. */
    void (*progress)(void *ctx, uint64_t paths, uint64_t total);
    void *progress_ctx;
    /* The memory budget (src/engine/budget.h), 0: sb_budget_default(); 'json':
       the report will also be made into a JSON tree (sb_exact_json),
       which the budget must hold too.  A walk known to need more is refused before it
       starts (its outcomes are at most its paths and the possible ones);
       one that grows past the budget stops with SB_ERANGE.  Either says
       what it would need in 'err'. */
    uint64_t memory;
    int json;
    /* The algorithm's declaration that it is Markov in its deck, or NULL:
       when set and the walk can merge states (src/engine/markov.h), the
       distinct decks after each step are walked instead of every path,
       cfg->max_paths then bounding the moves, and what the walk did goes
       to 'merged' (may be NULL; its 'moves' stay 0 for a path walk). */
    const sb_markov *markov;
    struct sb_markov_stats *merged;
} sb_enum_config;

/* Walk every path of cfg->alg and fill 'rep' (release it with
   sb_exact_report_release).  On error returns a status and a one-line
   reason in 'err': SB_EINVAL (n or the parameters do not suit the
   algorithm), SB_ENOTSUP (the algorithm cannot be enumerated: a
   unit() draw, a draw of 64 bits, a refusal), SB_ERANGE (over the path
   budget, before starting when the tree size is known, or over the
   memory budget, see 'memory'), SB_EINVAL (the algorithm made different
   draws on the same path, or a path's sample is not of its kind or ran
   past its buffer: every sample is checked, so that no shape is certified
   that was not made), SB_ENOMEM.  An interrupted walk (or one interrupted
   while its table is made) returns SB_OK at once with a summary:
   rep->partial and rep->summary_only set, the paths walked, the outcomes
   reached and the mass explored (sb_exact_acc_summary), no outcome
   listed. */
int sb_enumerate(const sb_enum_config *cfg, sb_exact_report *rep, char *err,
                 size_t len);

#endif /* SB_ENGINE_ENUMERATE_H */
