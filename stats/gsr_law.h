/*
 * gsr_law.h - how far k Gilbert-Shannon-Reeds riffles are from uniform,
 * exactly, from the rising-sequence law of Bayer and Diaconis.
 *
 * Bayer & Diaconis ("Trailing the dovetail shuffle to its lair", Ann.
 * Appl. Probab. 2(2), 1992, Theorem 1) show that after k GSR riffles of
 * n cards an order with r rising sequences has the probability
 * P_k(r) = C(2^k + n - r, n) / 2^(kn).  The orders with r rising
 * sequences are counted by the Eulerian number A(n, r) (those with r - 1
 * descents), so both distances below are sums over r = 1..n, not over
 * the n! orders.  Their Table 1 gives the total-variation distance for
 * n = 52; tests/test_gsr_law.c checks it.
 *
 * The inverse riffle (algorithms/inverse_riffle.c) is exactly as far from
 * uniform: k inverse passes give pi with the probability that k forward
 * riffles give pi^-1, and inversion is a bijection of the orders that
 * maps the uniform law to itself, so the same numbers hold for it.
 */
#ifndef SB_STATS_GSR_LAW_H
#define SB_STATS_GSR_LAW_H

#include <gmp.h>
#include <signal.h>
#include <stddef.h>

/* The largest deck.  The Eulerian numbers take O(n^2) GMP steps on
   numbers of up to log2(n!) bits, and half a row of them is kept: on a
   busy two-core machine 0.05 s at 1,000 cards, about 4 s and 12 MB at
   4,000, and 2 minutes and some 75 MB at 10,000, the limit. */
#define SB_GSR_LAW_N_MAX 10000

/* The most riffles: the numbers of sb_gsr_law_distances have about
   k n + log2(n!) bits, so k is bounded to keep them to a size GMP can
   allocate (GMP aborts, rather than failing, when it cannot). */
#define SB_GSR_LAW_K_MAX 4096

typedef struct sb_gsr_law sb_gsr_law;

/* The law of a deck of n cards: its Eulerian numbers, computed once.
   'stop' (may be NULL) is looked at between rows; when it is set the
   construction gives up.  SB_OK, SB_EINVAL (n is 0 or above
   SB_GSR_LAW_N_MAX), SB_ENOMEM, or SB_EINTR ('*out' is then NULL). */
int sb_gsr_law_new(sb_gsr_law **out, size_t n,
                   const volatile sig_atomic_t *stop);
void sb_gsr_law_free(sb_gsr_law *law);

/* After k riffles (k = 0 is the deck untouched), as reduced fractions in
   'tv' and 'sep' (initialized by the caller):
     tv  the total-variation distance from uniform, half the L1 distance,
         sum over r of A(n, r) max(0, P_k(r) - 1/n!);
     sep the separation distance, 1 - n! min over orders of P_k; the
         least likely order is the reversed deck (r = n), which no k
         riffles can reach while 2^k < n, and sep is then 1.
   Each k costs O(n) operations on numbers of k n + log2(n!) bits.
   'stop' (may be NULL) is looked at for every r.  SB_OK, SB_ERANGE
   (k above SB_GSR_LAW_K_MAX), SB_ENOMEM, or SB_EINTR ('tv' and 'sep'
   are then unspecified). */
int sb_gsr_law_distances(const sb_gsr_law *law, unsigned k, mpq_t tv,
                         mpq_t sep, const volatile sig_atomic_t *stop);

#endif /* SB_STATS_GSR_LAW_H */
