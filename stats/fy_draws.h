/*
 * fy_draws.h - the Fisher-Yates code of a deck: the draws that Fisher-Yates
 * would have made to produce it, and the statistic on those draws that
 * 'fy-code' and 'fy-code-forward' share.
 *
 * Fisher-Yates makes one draw from 0..m-1 for each m = n, n-1, ..., 2, and
 * different draws give different decks (algorithms/fisher_yates.c), so
 * every deck is the output of exactly one sequence of draws: its code.
 * stats/fy_draws.c recovers it in O(n), proves that the recovered draws
 * of a uniformly shuffled deck are independent and uniform, whatever
 * produced the deck, and tests them (the subtests below).
 *
 * The two directions follow the project's two loops, starting from the
 * deck 0, 1, ..., n-1 (deck[p] is the card at position p):
 *  - backward (algorithms/fisher_yates.c): for i = n-1 down to 1, swap
 *    positions i and j_i, j_i in 0..i: the draw from 0..m-1 is j_{m-1};
 *  - forward (algorithms/fisher_yates_forward.c): for i = 0 up to n-2,
 *    swap positions i and i + j_i, j_i in 0..n-1-i: the draw from
 *    0..m-1 is j_{n-m}.
 */
#ifndef SB_STATS_FY_DRAWS_H
#define SB_STATS_FY_DRAWS_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/stat.h"

/* The largest deck: n(n+1)/2 - 1 64-bit counts, 64 MiB at 4096 cards. */
#define SB_FY_N_MAX 4096
/* The generators of the directed subtest: B-bit values reduced with % m,
   for every B in SB_FY_BITS_MIN..SB_FY_BITS_MAX. */
#define SB_FY_BITS_MIN 8
#define SB_FY_BITS_MAX 32

/* Where the counts of the draw from 0..m-1 start, m = 2..n: the draws
   are stored by m upwards, m cells each. */
static inline size_t sb_fy_offset(size_t m)
{
    return m * (m - 1) / 2 - 1;
}

/* The code of 'deck' (a permutation of 0..n-1, 2 <= n <= SB_DECK_MAX):
   code[m] receives the draw from 0..m-1, m = 2..n ('code' holds n + 1
   values; code[0] and code[1] are left alone).  'forward' chooses the
   direction.  'q' and 'r' are scratch space of n cards each. */
void sb_fy_code(const sb_card *deck, size_t n, int forward, sb_card *q,
                sb_card *r, uint32_t *code);

/* P(S >= s) for S = sum over k < terms and over N independent repeats of
   m_k I - r_k, I a Bernoulli(r_k / m_k) (0 < r_k < m_k): the directed
   subtest's null tail.  Exact, by convolution, when S takes at most 65536
   values (small decks, few samples: 5 cards and 30 decks); else the
   saddlepoint approximation of Lugannani and Rice (Adv. Appl. Prob. 12,
   1980), with s moved down by half the lattice span 'span' (the gcd of
   the m_k), and exact when s reaches the largest value S can take.  Into *p, with *underflow set below SB_GOF_P_FLOOR as
   stats/gof.h does.  Returns SB_OK, SB_EINVAL or SB_ERANGE. */
int sb_fy_upper_tail(uint64_t N, const uint32_t *m, const uint32_t *r,
                     size_t terms, double s, double span, double *p,
                     int *underflow);

/* ---- the statistic, for stats/fy_code.c and stats/fy_code_forward.c */

int sb_fy_alloc(void **acc, const sb_shape *shape, const sb_stat_type *type,
                int forward);
void sb_fy_add_backward(void *acc, const sb_card *samples, size_t count);
void sb_fy_add_forward(void *acc, const sb_card *samples, size_t count);
int sb_fy_merge(void *into, const void *from);
int sb_fy_finalize(const void *acc, uint64_t samples, double fail_alpha,
                   sb_result *res);
void sb_fy_free(void *acc);
int sb_fy_save(const void *acc, uint64_t **words, size_t *count);
int sb_fy_load(void *acc, const uint64_t *words, size_t count);
size_t sb_fy_memory(const sb_shape *shape, size_t *finalize);

#endif /* SB_STATS_FY_DRAWS_H */
