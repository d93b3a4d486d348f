/*
 * markov.h - exact mode over the states of a shuffle that is Markov in its
 * deck (shufflebias/markov.h): the distinct decks after each step, with
 * their exact probabilities, instead of every path of draws.
 *
 * The law after step s is a table of decks and weights over one common
 * denominator; step s + 1 takes every deck of it through every path of the
 * step's own draws (the enumerating source, paths.h) and adds the weight
 * times the path's probability to the deck that path leaves.  A deck is a
 * key of 64 bits: its cards packed in 4 bits each up to 16 cards, its
 * rank among the n! orders (Lehmer code) up to 20.  Weights are integers
 * of one machine word while the common denominator fits one, GMP integers
 * after.  The cost is the moves: the decks of each step times the paths
 * of its draws, at most steps x min(n!, paths so far) x paths per step.
 */
#ifndef SB_ENGINE_MARKOV_H
#define SB_ENGINE_MARKOV_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/enumerate.h"
#include "shufflebias/markov.h"
#include "shufflebias/stat.h"

/* The most cards a deck key holds (20! < 2^64). */
#define SB_MARKOV_N_MAX 20

/* The law over decks after some steps. */
typedef struct sb_markov_law sb_markov_law;

size_t sb_markov_law_n(const sb_markov_law *law);
/* Decks of positive probability, and deck i of them (n cards). */
size_t sb_markov_law_count(const sb_markov_law *law);
void sb_markov_law_deck(const sb_markov_law *law, size_t i, sb_card *deck);
/* Deck i's probability, reduced. */
void sb_markov_law_prob(const sb_markov_law *law, size_t i, mpq_t p);
/* Its distances from the uniform law over the n! orders: total variation
   (the largest difference of the probabilities of an event, half the L1
   distance) and separation (1 - n! min P, 1 while some order is never
   reached), both reduced. */
void sb_markov_law_distances(const sb_markov_law *law, mpq_t tv, mpq_t sep);

/* Called after every step with the law so far ('steps' steps made);
   returns SB_OK to go on, SB_MARKOV_ENOUGH to end the walk there (with
   SB_OK, and no report: a walk read only by its observer), or a status
   to stop the walk with it. */
#define SB_MARKOV_ENOUGH (-1)   /* no status of shufflebias/status.h */
typedef int (*sb_markov_observer)(void *ctx, size_t steps,
                                  const sb_markov_law *law);

/* What the walk did: the decks of its last law, the most decks one step
   held, the moves made (a deck through one path of a step's draws), and
   the paths of draws they stand for (saturating). */
typedef struct sb_markov_stats {
    uint64_t states, peak, moves, paths;
} sb_markov_stats;

/* Why the walk of 'm' over cfg->args cannot merge states (more cards
   than a key holds, a shape that is not a deck), NULL when it can. */
const char *sb_markov_refusal(const sb_markov *m, const sb_shape *shape);

/* The moves the walk will make at most, when the algorithm's paths are
   known (not saturated) and split evenly over its steps (steps x min(n!,
   paths so far) x paths per step), else 0; the walk checks the same
   bound again after its first step, from the paths that step took. */
uint64_t sb_markov_moves_bound(const sb_enum_config *cfg,
                               const sb_markov *m);

/* Walk cfg->alg by the steps of 'm': the checks of sb_enumerate are the
   caller's, 'shape' its shape.  Calls 'obs' (may be NULL) after every
   step; when 'rep' is not NULL, fills it as sb_enumerate does (paths:
   the paths the states stand for; equal_weights when every step's paths
   weigh the same), and 'stats' (may be NULL) with what the walk did.
   Statuses as sb_enumerate's: SB_ERANGE over cfg->max_paths moves or the
   memory budget (the reason in 'err'), SB_EINVAL for a step that broke
   its promise (drew differently on the same path, left no permutation),
   an interrupted walk SB_OK with rep->partial and summary_only set. */
int sb_markov_walk(const sb_enum_config *cfg, const sb_markov *m,
                   const sb_shape *shape, sb_markov_observer obs, void *ctx,
                   sb_exact_report *rep, sb_markov_stats *stats, char *err,
                   size_t len);

#endif /* SB_ENGINE_MARKOV_H */
