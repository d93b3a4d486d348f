/*
 * exact.h - exact outcome probabilities, accumulated path by path.
 *
 * The enumerator (src/engine/enumerate.c) hands every complete path of draws to
 * an accumulator with its exact probability num/den; the accumulator sums
 * them per outcome in exact integers (GMP) and finally writes the
 * sb_exact_report: reduced fractions, the total-variation distance from
 * uniform, probability levels, and the exact card x position (or card x
 * hand) matrix.  No floating point is used on the way to a fraction.
 */
#ifndef SB_STATS_EXACT_H
#define SB_STATS_EXACT_H

#include <gmp.h>
#include <signal.h>
#include <stdint.h>
#include "shufflebias/exact.h"
#include "shufflebias/stat.h"

typedef struct sb_exact_acc sb_exact_acc;

/* A new accumulator for outcomes of this shape.  SB_OK, SB_ENOMEM, or
   SB_EINVAL (len 0, or len > n). */
int sb_exact_acc_new(sb_exact_acc **out, const sb_shape *shape);
void sb_exact_acc_free(sb_exact_acc *a);

/* One complete path ending in 'sample', probability num/den (den > 0).
   SB_OK or SB_ENOMEM. */
int sb_exact_acc_add(sb_exact_acc *a, const sb_card *sample, const mpz_t num,
                     const mpz_t den);

/* Paths merged into one outcome by a walk over states (src/engine/markov.c):
   their total probability num/den and how many they are (saturating).
   Such a walk says whether all its paths weigh the same with
   sb_exact_acc_path_weight (the weight num/den when they do), which
   sb_exact_acc_add works out path by path.  SB_OK or SB_ENOMEM. */
int sb_exact_acc_add_paths(sb_exact_acc *a, const sb_card *sample,
                           const mpz_t num, const mpz_t den, uint64_t paths);
void sb_exact_acc_path_weight(sb_exact_acc *a, int equal, const mpz_t num,
                              const mpz_t den);

/* Probability mass num/den that was not explored (a path cut at the depth
   limit).  SB_OK. */
int sb_exact_acc_cut(sb_exact_acc *a, const mpz_t num, const mpz_t den);

/* Memory (src/engine/budget.h).  sb_exact_acc_count: the outcomes reached so
   far.  sb_exact_outcome_bytes: an upper bound on what one outcome of
   'len' values costs the run - the walk's table, what finish makes of it,
   and with 'json' its JSON tree - when a path's denominator has 'limbs'
   limbs (a 64-bit word each).  sb_exact_acc_need: that for every outcome
   so far.  sb_exact_acc_bytes: what the walk's table holds now, counted
   from its arrays (for tests of the estimate). */
size_t sb_exact_acc_count(const sb_exact_acc *a);
uint64_t sb_exact_outcome_bytes(size_t len, size_t limbs, int json);
uint64_t sb_exact_acc_need(const sb_exact_acc *a, int json);
uint64_t sb_exact_acc_bytes(const sb_exact_acc *a);

/* Finish gives up (SB_EINTR, 'rep' to be released) as soon as it sees
   '*stop' set: an interrupt is answered within a second, however many
   outcomes there are.  May be NULL. */
void sb_exact_acc_set_stop(sb_exact_acc *a, const volatile sig_atomic_t *stop);

/* An interrupted walk's report: its totals only - outcomes reached, the
   mass of the paths walked and the rest unexplored, the possible and
   never-reached counts - with no outcome, level, or matrix, so that it
   is made at once and stays small however far the walk went.  Sets
   partial and summary_only.  SB_OK or SB_ENOMEM. */
int sb_exact_acc_summary(const sb_exact_acc *a, sb_exact_report *rep);

/* Fill the outcome part of 'rep' (kind, n, len, hands, paths counts are the
   caller's): outcomes, levels, never-reached ones, tv, unexplored, matrix,
   verdict.  SB_OK, SB_ENOMEM, or SB_ERANGE when the probabilities
   do not add up to 1 (a walk that lost or counted a path twice). */
int sb_exact_acc_finish(sb_exact_acc *a, sb_exact_report *rep);

/* "p/q" for q (reduced by the caller), also "n/1" for an integer (GMP
   writes those without "/1"), malloc'd (GMP's default allocator): free()
   it.  NULL when out of memory. */
char *sb_exact_fraction_str(const mpq_t q);

/* Free everything finish allocated in 'rep' and zero those fields. */
void sb_exact_report_release(sb_exact_report *rep);

#endif /* SB_STATS_EXACT_H */
