/*
 * my_shuffles.h - the shuffles of a program that wants them tested: one
 * fair, one with the classic mistake.
 */
#ifndef MY_SHUFFLES_H
#define MY_SHUFFLES_H

#include <shufflebias/shuffle.h>

/* Durstenfeld's shuffle (Knuth, TAOCP vol. 2, 3.4.2, Algorithm P): for i
   = n-1 down to 1, swap card i with a uniform j in [0, i].  Fair. */
extern const sb_shuffle_type my_fair_shuffle;

/* The same loop with the bound written wrong: every card is swapped with
   a uniform j in [0, n), the whole deck.  Its n^n equally likely draw
   sequences cannot split evenly over the n! orders: biased. */
extern const sb_shuffle_type my_swap_any;

#endif /* MY_SHUFFLES_H */
