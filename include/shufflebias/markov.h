/*
 * markov.h - a shuffle that is Markov in its deck, told step by step, so
 * that exact mode can merge the paths that reach the same deck.
 *
 * Many shuffles work on a deck in steps, and what a step does depends only
 * on the step's number, the deck as it is and the step's own draws - not
 * on the draws that made the deck.  Naive swap is n such steps (step i
 * swaps i with a drawn j), a riffle repeated k times is k (one riffle
 * each).  For such a shuffle the exact law after step s is a distribution
 * over at most n! decks, and step s+1 maps it to the next one: exact mode
 * walks the distinct (step, deck) states with their exact weights instead
 * of every path (src/engine/markov.c), which turns the n^n paths of naive
 * swap into at most n x n! x n moves.
 *
 * The declaration is a promise the walk relies on and the tests check
 * (every built-in that makes it is walked both ways and the two laws are
 * compared as fractions):
 *   - starting from the identity deck 0..n-1, step(0), step(1), ...,
 *     step(steps - 1) draw exactly what run() draws, in the same order,
 *     and leave the deck run() writes (a permutation), or whose first
 *     sample_len cards run() writes (a draw);
 *   - a step reads nothing but its arguments, the deck and its draws: the
 *     state made by init is scratch space only, never a memory of earlier
 *     steps.
 * Deals are not declared: their sample is not a deck.
 *
 * A pass-based shuffle (one with a 'passes' parameter) declares steps that
 * are a whole number per pass: steps(passes = k) = k x steps(passes = 1),
 * the steps of pass p coming after those of pass p - 1.  The mixing
 * command reads the law after every pass from one walk.
 *
 * This is a separate object, not a field of sb_shuffle_type, so that the
 * layout a program or a plug-in compiled against sb_shuffle_type does not
 * change (docs/library.md, "Versions").  Built-in shuffles are listed in
 * algorithms/registry.c; a plug-in opts in with SB_PLUGIN_MARKOV
 * (shufflebias/plugin.h).
 */
#ifndef SB_MARKOV_H
#define SB_MARKOV_H

#include <stddef.h>
#include "shuffle.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sb_markov {
    /* The shuffle this declaration is for. */
    const sb_shuffle_type *type;
    /* The number of steps at these arguments (at least 1). */
    size_t (*steps)(const sb_shuffle_args *a);
    /* Apply step 'step' (0 .. steps - 1) to 'deck' (n cards) in place,
       drawing only from 'src'.  'state' is what the type's init made
       (NULL without one); the walk calls reset before every step.  The
       same rules as run(): no allocation, SB_OK or a status. */
    int (*step)(void *state, const sb_shuffle_args *a, size_t step,
                sb_src *src, sb_card *deck);
} sb_markov;

#ifdef __cplusplus
}
#endif

#endif /* SB_MARKOV_H */
