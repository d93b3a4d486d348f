/*
 * collisions.c - 'collisions': the birthday test among the sampled decks.
 *
 * What it sees: how many samples repeat an earlier one exactly.  A source
 * that can reach only S' of the S possible samples repeats itself about
 * N^2 / 2S' times in N samples, however uniform each sample looks alone.
 * This is the test that catches a shuffle seeded with 32 bits (the
 * 'reseed32:NAME' source, a program seeding from the clock before every
 * deal): at most 2^32 decks can ever appear, where 52 cards have
 * 52! ~ 2^225.6 orders.  No per-position or per-card table can see that;
 * only repeats can.  With S' = 2^32 the test fails on a single repeat, and
 * N = 1.4 x 10^5 decks expect N^2 / 2^33 = 2.28 of them: power
 * 1 - e^-2.28 = 0.90 (DESIGN.md, "Statistics: facts to build on").  A
 * good source gives none: 10^9 decks of 52 cards expect 6 x 10^-51.
 *
 * The samples, and S, the number of distinct ones possible:
 *   PERMUTATION  the deck order, S = n!;
 *   DRAW         the k cards drawn, in order, S = n! / (n-k)!;
 *   DEAL         the hand of every card, S = n! / (s!)^H for H hands of
 *                s = n/H cards (the multinomial; unequal hands are not
 *                tested).  For a bridge deal S = 5.36 x 10^28.
 * S is computed in log space (gsl_sf_lnfact), so any deck size works.
 *
 * Fingerprints.  Each sample is read as 64-bit words x_i of four 16-bit
 * values (13 words for 52 cards; the last word zero-padded, which is
 * one-to-one since every sample of a run has the same length) and hashed
 * to 128 bits by two independent lanes of Dietzfelbinger's vector
 * multiply-shift, h(x) = ((sum_i a_i x_i + c) mod 2^128) >> 64 with 128-bit
 * keys a_i and c (M. Thorup, "High speed hashing for integers and
 * strings", arXiv:1504.06804, 2015: with w-bit characters, l-bit output
 * and arithmetic mod 2^W, strongly universal when W >= w + l - 1; here
 * w = l = 64, W = 128).  Strongly universal means
 * that for two distinct samples each lane collides with probability exactly
 * 2^-64 over the keys, so a false repeat has probability 2^-128 per pair:
 * 10^9 samples hold 5 x 10^17 ~ 2^59 pairs, 2^-69 false repeats in all.
 * The keys are fixed (SplitMix64 from a constant), chosen without looking
 * at any shuffle, so the bound holds for whatever decks come in.  It also
 * makes every bit of a fingerprint uniform, which the subsampling below
 * relies on.
 *
 * Memory, and why merging in any order gives the same answer.  Keeping
 * every fingerprint of 10^9 samples would take 16 GB.  Instead only the
 * fingerprints whose top j bits are 0 are kept, a fraction f = 2^-j, each
 * with its count.  Equal samples share a fingerprint, so they are kept or
 * dropped together and the repeats among kept samples are still counted
 * exactly: they estimate f times the repeats of the whole run.  j starts at
 * 0 and goes up by one, dropping the fingerprints no longer kept, whenever
 * more than CAP distinct fingerprints are kept.  Because a fingerprint kept
 * at the end was kept all along, its count is complete; and j ends as the
 * smallest j at which the run's distinct fingerprints with top j bits 0
 * number at most CAP (when j went from j-1 to j, more than CAP were
 * already there at j-1).  That depends on the multiset of fingerprints
 * only, so a merge - the union at the larger j, counts added, then j raised
 * while over CAP - gives exactly what one accumulator fed every sample
 * would, whatever the chunks, threads and order (tests/test_collisions.c
 * checks it across the cap).
 *
 * CAP is 2^21 fingerprints in an open-addressing table of at most 2^22
 * slots (load at most 1/2, linear probing): 16 bytes of fingerprint and 4
 * of count per slot, 80 MiB at most per accumulator.  The table starts at
 * 2^12 slots (80 KiB) and doubles as it fills, so a short run stays small.
 * Growing is the only allocation in 'add' (at most ten times a run, so
 * its cost vanishes); should it fail, f is halved instead so that the run
 * goes on, but finalize then answers SB_ENOMEM rather than a result that
 * depends on when memory ran short.  At the cap, f N ~ 2^21
 * samples are kept, and the test still sees sources of up to about
 * f N^2 / 4.6 = 2^21 N / 4.6 reachable samples: 2^48 at N = 10^9.
 * CAP is part of what a run counts (it decides f), so it is the same on
 * every thread and every machine, and not a share of the run's memory
 * budget: the budget (src/engine/budget.h) decides how many threads' tables a
 * run holds at once, never how large one may grow, so that the counts
 * stay the same whatever the threads.  'memory' below tells the budget
 * the most a table holds, 120 MiB while it doubles to the cap.
 *
 * The null.  With N samples uniform over S possible ones, the number of
 * repeats R = N - (distinct samples) has the exact mean
 *   E R = N - S (1 - (1 - 1/S)^N) = sum_{j>=2} (-1)^j C(N,j) / S^(j-1)
 * (the occupancy problem: N. L. Johnson and S. Kotz, "Urn Models and
 * Their Application", 1977, ch. 3), computed here by that series, whose
 * terms shrink by N/S.  Among kept samples the mean is f E R: each
 * possible sample is kept with probability f, independently of how often
 * it was drawn.  R is nearly Poisson: its variance is E R (1 - about
 * 4N/3S) (the occupancy variance, same source), slightly below the
 * Poisson's, so the Poisson upper tail is slightly conservative.  The
 * p-value is the Poisson upper tail P(X >= r), a valid p-value, so that
 * the battery's 1e-6 bound holds (a mid-p can reject a true null up to
 * twice as often as its level); discrete = 1, with P(X > r) and P(X >= r)
 * in p_lower and p_upper for randomized calibration checks.  No
 * pooling.
 *
 * Applies when S >= 2^40 (so n >= 15: 15! = 2^40.25) and N <= S / 2^10
 * (the Poisson law then errs by a relative 10^-3 at most in its variance).
 * A smaller S has repeats from any source; there a test of each sample's
 * frequency is the right one ('permutation', n <= 10).
 *
 * Effect: observed repeats over expected (0 without repeats).  Detectable:
 * the largest number S' of equally likely reachable samples that would be
 * caught with power 0.9 at the fail threshold, in words ("a source with
 * fewer than 2^41.3 reachable decks"), and as a number its chi-square
 * distance from uniform, S/S' - 1 (the equivalent of a noncentrality per
 * sample), capped at DBL_MAX.
 */
#define _DEFAULT_SOURCE   /* madvise */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include "shufflebias/status.h"
#include "base/rng.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/registry.h"
#include "stats/saved.h"

/* The table: at most SLOTS_MAX slots, at most half of them used. */
#define SLOTS_START (1u << 12)
#define SLOTS_MAX (1u << 22)
#define CAP (SLOTS_MAX / 2)
/* Applicability: S >= 2^MIN_LOG2_S and N <= S / 2^MAX_LOG2_LOAD. */
#define MIN_LOG2_S 40.0
#define MAX_LOG2_LOAD 10.0
/* The smallest n with n! >= 2^40. */
#define COLLISIONS_N_MIN 15
/* Fingerprints computed ahead of their table lookups, so that the memory
   fetches of a batch overlap. */
#define BATCH 16
#define LN2 0.69314718055994530942
/* 16-bit values in a 64-bit word. */
#define VALUES_PER_WORD (sizeof(uint64_t) / sizeof(sb_card))
/* The seed of the hash keys (fixed: results must not depend on a run). */
#define KEY_SEED 0x636f6c6c6973696full
/* The transparent huge page of x86-64 (and of arm64 with 4 KiB pages);
   elsewhere the advice below may not apply, and it is only a hint. */
#define HUGE_PAGE ((size_t)2 << 20)

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* A 128-bit fingerprint: 'hi' decides whether it is kept (its top j bits
   are 0), 'lo' where it goes in the table.  {0, 0} marks an empty slot,
   so a sample hashed to {0, 0} is given {0, 1} instead: two of the 2^128
   values merged, one more false repeat in 2^128 per sample. */
typedef struct fp128 {
    uint64_t hi, lo;
} fp128;

typedef struct collisions_acc {
    sb_kind kind;           /* the shape, compared by merge */
    size_t n, len;
    unsigned hands;
    size_t words;           /* words per sample */
    unsigned j;             /* kept: top j bits of 'hi' are 0; f = 2^-j */
    uint64_t drop_mask;     /* those top j bits */
    int starved;            /* 1 when growing failed and f was halved early */
    size_t slots;           /* table size, a power of two */
    size_t entries;         /* distinct kept fingerprints */
    fp128 *keys;            /* 'slots' fingerprints, {0, 0} when empty */
    uint32_t *extra;        /* count - 1 of each slot (saturating at
                               UINT32_MAX); 0 in every empty slot */
    uint64_t lane_keys[4];  /* the constants c of both lanes: lo, hi */
    uint64_t mul[];         /* per word: a_i of lane 0 (lo, hi), of lane 1
                               (lo, hi) */
} collisions_acc;

/* SplitMix64 (Steele, Lea and Flood 2014), for the hash keys only: the
   mixer of the draws (sb_mix64) over a state stepped by its constant. */
static uint64_t splitmix64(uint64_t *s)
{
    const uint64_t x = *s;
    *s += 0x9e3779b97f4a7c15ull;
    return sb_mix64(x);
}

static uint64_t mask_for(unsigned j)
{
    return j == 0 ? 0 : j >= 64 ? ~0ull : ~0ull << (64 - j);
}

static int is_empty(fp128 k)
{
    return (k.hi | k.lo) == 0;
}

/* Zeroed memory for a table array, written before it is read.  The
   lookups read a slot before they write it; on fresh pages that calloc
   hands out unwritten, the read maps the shared zero page and the first
   write then replaces it, a second page fault that also flushes the TLB of
   every core running the process (an interprocessor interrupt per page
   when two threads count).  So the zeros are written first, and not
   through malloc + memset, which gcc turns into calloc.  An array of at
   least one huge page is aligned to it and marked for transparent huge
   pages (Linux, where they are enabled for madvise): 2 MiB pages fault in
   512 times less often, and the random lookups then miss the TLB rarely
   (the 64 MiB of fingerprints at the cap span 32 huge pages, against
   16384 small ones).  The advice is a hint: if it is refused, the array
   is used with small pages.  A smaller array is aligned to a cache line,
   also through aligned_alloc, so that gcc cannot make a calloc of it
   either. */
static void *table_array(size_t bytes)
{
    void *p;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) {
        const size_t whole = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        p = aligned_alloc(HUGE_PAGE, whole);
        if (p != NULL)
            (void)madvise(p, whole, MADV_HUGEPAGE);
    } else
#endif
        p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (p != NULL)
        memset(p, 0, bytes);
    return p;
}

/* A zeroed table of 'slots' slots.  Returns 0 when memory is short. */
static int table_alloc(size_t slots, fp128 **keys, uint32_t **extra)
{
    *keys = table_array(slots * sizeof **keys);
    *extra = table_array(slots * sizeof **extra);
    if (!*keys || !*extra) {
        free(*keys);
        free(*extra);
        return 0;
    }
    return 1;
}

static int collisions_alloc(void **acc, const sb_shape *shape)
{
    *acc = NULL;
    if (shape->n < 1 || shape->n > SB_DECK_MAX || shape->len < 1
        || (shape->kind == SB_KIND_DRAW ? shape->len > shape->n
                                        : shape->len != shape->n))
        return SB_EINVAL;
    const size_t words = (shape->len + VALUES_PER_WORD - 1) / VALUES_PER_WORD;
    collisions_acc *a = calloc(1, sizeof *a + 4 * words * sizeof(uint64_t));
    if (a == NULL)
        return SB_ENOMEM;
    a->kind = shape->kind;
    a->n = shape->n;
    a->len = shape->len;
    a->hands = shape->hands;
    a->words = words;
    a->slots = SLOTS_START;
    if (!table_alloc(a->slots, &a->keys, &a->extra)) {
        free(a);
        return SB_ENOMEM;
    }
    uint64_t s = KEY_SEED;
    for (size_t i = 0; i < 4; i++)
        a->lane_keys[i] = splitmix64(&s);
    for (size_t i = 0; i < 4 * words; i++)
        a->mul[i] = splitmix64(&s);
    *acc = a;
    return SB_OK;
}

/* The sample read as 64-bit words, four 16-bit values each (the last
   word padded with zeros: every sample of a shape has the same length, so
   this is one-to-one), each word x_i hashed into both lanes:
   sum += a_i x_i mod 2^128, where a_i x_i mod 2^128 is the full product of
   a_i's low half with x_i plus the low 64 bits of a_i's high half times
   x_i, shifted up.  Reading whole words costs more multiplications than
   packing 6-bit cards first would (13 words for 52 cards instead of 6),
   but is faster (docs/speed.md): the multiplications are independent,
   the packing is a chain of shifts.  'add' as a whole costs most over the
   first 10^6 decks (the table growing to 2^21 slots, a cache miss per
   deck), and less once f < 1 (dropped decks need no lookup). */
static fp128 fingerprint(const collisions_acc *a, const sb_card *s)
{
    sb_u128 h0 = ((sb_u128)a->lane_keys[1] << 64) | a->lane_keys[0];
    sb_u128 h1 = ((sb_u128)a->lane_keys[3] << 64) | a->lane_keys[2];
    const uint64_t *m = a->mul;
    const size_t whole = a->len / VALUES_PER_WORD;
    uint64_t x;
    for (size_t w = 0; w < whole; w++, m += 4) {
        memcpy(&x, s + w * VALUES_PER_WORD, sizeof x);
        h0 += (sb_u128)m[0] * x + ((sb_u128)(m[1] * x) << 64);
        h1 += (sb_u128)m[2] * x + ((sb_u128)(m[3] * x) << 64);
    }
    const size_t rest = a->len - whole * VALUES_PER_WORD;
    if (rest > 0) {
        sb_card last[VALUES_PER_WORD] = { 0 };
        memcpy(last, s + whole * VALUES_PER_WORD, rest * sizeof *s);
        memcpy(&x, last, sizeof x);
        h0 += (sb_u128)m[0] * x + ((sb_u128)(m[1] * x) << 64);
        h1 += (sb_u128)m[2] * x + ((sb_u128)(m[3] * x) << 64);
    }
    fp128 f = { (uint64_t)(h0 >> 64), (uint64_t)(h1 >> 64) };
    if (is_empty(f))
        f.lo = 1;
    return f;
}

static uint32_t add_sat(uint32_t x, uint64_t y)
{
    const uint64_t s = (uint64_t)x + y;
    return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

/* Put fingerprint 'k' (known absent) in the first free slot from its
   home. */
static void place(fp128 *keys, uint32_t *extra, size_t mask, fp128 k,
                  uint32_t e)
{
    size_t i = k.lo & mask;
    while (!is_empty(keys[i]))
        i = (i + 1) & mask;
    keys[i] = k;
    if (e != 0)     /* an empty slot's extra is already 0 */
        extra[i] = e;
}

/* Double the table.  Returns 0, leaving it as it was, when memory is
   short. */
static int grow(collisions_acc *a)
{
    const size_t slots = 2 * a->slots, mask = slots - 1;
    fp128 *keys, *old_keys = a->keys;
    uint32_t *extra, *old_extra = a->extra;
    if (!table_alloc(slots, &keys, &extra))
        return 0;
    for (size_t i = 0; i < a->slots; i++)
        if (!is_empty(old_keys[i]))
            place(keys, extra, mask, old_keys[i], old_extra[i]);
    free(old_keys);
    free(old_extra);
    a->keys = keys;
    a->extra = extra;
    a->slots = slots;
    return 1;
}

/* Keep only the fingerprints whose top 'j' bits are 0 (j > a->j), in
   place, in one sweep.  Emptying a slot breaks the probe runs through it,
   so the slots are visited in order from one that was empty (no probe run
   crosses it, so each fingerprint's home lies between it and the
   fingerprint): each fingerprint met is dropped, or, when it is not at
   its home, taken out and put back at the first free slot from its home.
   The slots emptied so far all lie behind the sweep, so a survivor only
   moves back towards its home, over slots already visited (or stays where
   it was), and a slot filled behind the sweep is never emptied again: after
   the sweep, no survivor has an empty slot between its home and itself. */
static void drop_to(collisions_acc *a, unsigned j)
{
    a->j = j;
    a->drop_mask = mask_for(j);
    const size_t mask = a->slots - 1;
    /* The table is at most half full plus one entry: an empty slot
       exists. */
    size_t start = 0;
    while (!is_empty(a->keys[start]))
        start++;
    for (size_t step = 1; step < a->slots; step++) {
        const size_t i = (start + step) & mask;
        const fp128 k = a->keys[i];
        if (is_empty(k))
            continue;
        const int dropped = (k.hi & a->drop_mask) != 0;
        if (!dropped && (k.lo & mask) == i)
            continue;
        const uint32_t e = a->extra[i];
        a->keys[i].hi = a->keys[i].lo = 0;
        a->extra[i] = 0;
        if (dropped)
            a->entries--;
        else
            place(a->keys, a->extra, mask, k, e);
    }
}

/* After an insertion: keep the load at most 1/2, growing the table while
   it may grow, else halving f. */
static void make_room(collisions_acc *a)
{
    while (a->entries > a->slots / 2 && a->j < 64) {
        if (a->slots < SLOTS_MAX) {
            if (grow(a))
                continue;
            a->starved = 1;
        }
        drop_to(a, a->j + 1);
    }
}

/* Count 'count' more samples with fingerprint 'k', if it is kept. */
static void insert(collisions_acc *a, fp128 k, uint64_t count)
{
    if (k.hi & a->drop_mask)
        return;
    const size_t mask = a->slots - 1;
    size_t i = k.lo & mask;
    for (;;) {
        const fp128 t = a->keys[i];
        if (t.hi == k.hi && t.lo == k.lo) {
            a->extra[i] = add_sat(a->extra[i], count);
            return;
        }
        if (is_empty(t))
            break;
        i = (i + 1) & mask;
    }
    a->keys[i] = k;
    if (count > 1)   /* an empty slot's extra is already 0 */
        a->extra[i] = add_sat(0, count - 1);
    a->entries++;
    make_room(a);
}

/* The hot path: fingerprints of a batch first, with a prefetch of each
   kept one's slot, then the lookups, whose cache misses then overlap.  The
   keep test is made again at insertion: f may have been halved in the
   batch.  Precondition: every value fits the shape (< n, or < H for a
   deal), as the runner checks for outside input. */
static void collisions_add(void *acc, const sb_card *samples, size_t count)
{
    collisions_acc *a = acc;
    fp128 fp[BATCH];
    while (count > 0) {
        const size_t b = count < BATCH ? count : BATCH;
        const size_t mask = a->slots - 1;
        for (size_t t = 0; t < b; t++, samples += a->len) {
            fp[t] = fingerprint(a, samples);
            if (!(fp[t].hi & a->drop_mask))
                PREFETCH(&a->keys[fp[t].lo & mask]);
        }
        for (size_t t = 0; t < b; t++)
            insert(a, fp[t], 1);
        count -= b;
    }
}

static int collisions_merge(void *into, const void *from)
{
    collisions_acc *a = into;
    const collisions_acc *b = from;
    if (a->kind != b->kind || a->n != b->n || a->len != b->len
        || a->hands != b->hands)
        return SB_EINVAL;
    if (b->j > a->j)
        drop_to(a, b->j);
    a->starved |= b->starved;
    for (size_t i = 0; i < b->slots; i++)
        if (!is_empty(b->keys[i]))
            insert(a, b->keys[i], (uint64_t)b->extra[i] + 1);
    return SB_OK;
}

/* ---- finalize --------------------------------------------------------- */

/* The samples in words, plural and singular. */
static const char *samples_word(sb_kind kind, int plural)
{
    switch (kind) {
    case SB_KIND_PERMUTATION: return plural ? "decks" : "deck";
    case SB_KIND_DRAW: return plural ? "hands" : "hand";
    case SB_KIND_DEAL: return plural ? "deals" : "deal";
    }
    return plural ? "samples" : "sample";
}

/* log S, the natural log of the number of distinct possible samples. */
static double log_possible(const collisions_acc *a)
{
    const double lnfact_n = gsl_sf_lnfact((unsigned)a->n);
    switch (a->kind) {
    case SB_KIND_DRAW:
        return lnfact_n - gsl_sf_lnfact((unsigned)(a->n - a->len));
    case SB_KIND_DEAL:
        return lnfact_n
               - (double)a->hands * gsl_sf_lnfact((unsigned)(a->n / a->hands));
    case SB_KIND_PERMUTATION:
        break;
    }
    return lnfact_n;
}

/* log E R for N samples over S = exp(log_s) possible ones:
   E R = C(N,2)/S (1 - (N-2)/(3S) + (N-2)(N-3)/(12 S^2) - ...), each term
   the previous times -(N-j)/((j+1) S). */
static double log_expected_repeats(double N, double log_s)
{
    const double inv_s = exp(-log_s);   /* 0 when S is beyond the doubles */
    double term = 1.0, sum = 1.0;
    for (double j = 2.0; j < N; j += 1.0) {
        term *= -(N - j) * inv_s / (j + 1.0);
        sum += term;
        if (fabs(term) < 1e-17 * sum)
            break;
    }
    return log(N) + log(N - 1.0) - LN2 - log_s + log(sum);
}

/* P(X >= x) for X ~ Poisson(mu), computed without the underflow floor,
   for the search of the critical count. */
static double at_least(double x, double mu)
{
    return gsl_cdf_poisson_Q((unsigned)x, mu)
           + gsl_ran_poisson_pdf((unsigned)x, mu);
}

/* The smallest count c >= 1 whose p-value P(X >= c) under Poisson(mu0) is
   at most
   'alpha': the test rejects exactly when the repeats reach c.  mu0 = 0
   stands for a mean below the double range: one repeat is then enough. */
static int critical_count(double mu0, double alpha, double *c)
{
    if (mu0 <= 0.0) {
        *c = 1.0;
        return SB_OK;
    }
    double lo = 0.0, hi = 1.0, p;
    while ((p = at_least(hi, mu0)) > alpha) {
        if (isnan(p) || hi > (double)UINT32_MAX / 2)
            return SB_ERANGE;
        lo = hi;
        hi *= 2.0;
    }
    if (isnan(p))
        return SB_ERANGE;
    while (hi - lo > 1.0) {     /* at_least(lo) > alpha >= at_least(hi) */
        const double mid = floor(0.5 * (lo + hi));
        p = at_least(mid, mu0);
        if (isnan(p))
            return SB_ERANGE;
        if (p > alpha)
            lo = mid;
        else
            hi = mid;
    }
    *c = hi;
    return SB_OK;
}

/* The Poisson mean mu1 at which P(X >= c) = power, by bisection (that
   probability increases with the mean). */
static int power_mean(double c, double power, double *mu1)
{
    double lo = 0.0, hi = c + 10.0 * sqrt(c) + 10.0, q;
    while ((q = gsl_cdf_poisson_Q((unsigned)(c - 1.0), hi)) < power) {
        if (isnan(q) || hi > 1e15)
            return SB_ERANGE;
        lo = hi;
        hi *= 2.0;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
        const double mid = 0.5 * (lo + hi);
        q = gsl_cdf_poisson_Q((unsigned)(c - 1.0), mid);
        if (isnan(q))
            return SB_ERANGE;
        if (q >= power)
            hi = mid;
        else
            lo = mid;
    }
    *mu1 = 0.5 * (lo + hi);
    return SB_OK;
}

/* p-values of 'r' repeats against Poisson(mu) (mu = 0: below the double
   range): P(X >= r) in p_value (the p-value verdicts are taken from: a
   mid-p could reject a true null up to twice as often as its level says)
   and the interval P(X > r), P(X >= r) in p_lower, p_upper. */
static int fill_p(sb_result *res, uint64_t r, double mu)
{
    res->discrete = 1;
    if (r == 0) {
        res->p_lower = -expm1(-mu);
        res->p_upper = 1.0;
        res->p_value = 1.0;
        res->p_underflow = 0;
        return SB_OK;
    }
    if (mu <= 0.0) {
        /* P(X >= r) <= mu < 1e-300 */
        res->p_value = res->p_lower = res->p_upper = 0.0;
        res->p_underflow = 1;
        return SB_OK;
    }
    if (r > UINT32_MAX) {
        /* Beyond GSL's counts: so far above the mean that the normal
           approximation's zero is as good as any. */
        int st = sb_gof_normal_p(((double)r - mu) / sqrt(mu), &res->p_value,
                                 &res->p_underflow);
        res->p_lower = res->p_upper = res->p_value;
        return st;
    }
    res->p_lower = gsl_cdf_poisson_Q((unsigned)r, mu);
    res->p_upper = res->p_lower + gsl_ran_poisson_pdf((unsigned)r, mu);
    if (isnan(res->p_lower) || isnan(res->p_upper))
        return SB_ERANGE;
    res->p_upper = fmin(1.0, res->p_upper);
    res->p_underflow = res->p_upper < SB_GOF_P_FLOOR;
    res->p_value = res->p_underflow ? 0.0 : res->p_upper;
    return SB_OK;
}

static int collisions_finalize(const void *acc, uint64_t samples,
                               double fail_alpha, sb_result *res)
{
    const collisions_acc *a = acc;
    const char *name = sb_stat_collisions.name;
    const char *many = samples_word(a->kind, 1);
    sb_gof_begin(res, name);
    if (samples == 0)
        return sb_gof_not_applicable(res, "no samples");
    /* A table that could not grow kept fewer fingerprints than the rule
       says, and which ones depends on the order of the samples: no
       answer rather than one that a rerun could contradict. */
    if (a->starved)
        return SB_ENOMEM;
    if (a->kind == SB_KIND_DEAL
        && (a->hands < 2 || a->n % a->hands != 0))
        return sb_gof_not_applicable(res,
            "'%s' needs deals into at least two hands of equal size "
            "(%u hands of %zu cards)", name, a->hands, a->n);
    const double log_s = log_possible(a);
    const double log2_s = log_s / LN2;
    if (log2_s < MIN_LOG2_S)
        return sb_gof_not_applicable(res,
            "only 2^%.1f possible %s (fewer than 2^%.0f): repeats are "
            "expected from any source; a test of each sample's frequency "
            "is the right one ('permutation', n <= 10)", log2_s, many,
            MIN_LOG2_S);
    if (samples < 2)
        return sb_gof_not_applicable(res,
                                     "'%s' needs at least two samples", name);
    const double N = (double)samples;
    if (log2(N) > log2_s - MAX_LOG2_LOAD)
        return sb_gof_not_applicable(res,
            "%" PRIu64 " samples are more than 2^-%.0f of the 2^%.1f "
            "possible %s: the Poisson law of repeats no longer holds",
            samples, MAX_LOG2_LOAD, log2_s, many);

    /* Kept repeats, and their null mean f E R. */
    uint64_t repeats = 0;
    for (size_t i = 0; i < a->slots; i++)
        repeats += a->extra[i];
    const double log_f = -(double)a->j * LN2;
    const double log_mu = log_f + log_expected_repeats(N, log_s);
    const double mu = log_mu < log(SB_GOF_P_FLOOR) ? 0.0 : exp(log_mu);
    int st = fill_p(res, repeats, mu);
    if (st != SB_OK)
        return st;
    res->statistic = (double)repeats;
    res->df = 0.0;
    /* Repeats beyond those expected, in the units of 'detectable': a
       source of S' reachable samples gives S/S' times the repeats, so
       R/mu - 1 estimates S/S' - 1. */
    if (repeats == 0)
        res->effect = 0.0;
    else
        res->effect = fmax(0.0, (double)repeats / mu - 1.0); /* +inf: mu 0 */
    if (!(res->effect <= DBL_MAX))
        res->effect = DBL_MAX;

    /* Detectable: the mean mu1 caught with power 0.9, and the reachable
       samples S' = f C(N,2) / mu1 that give it. */
    double c, mu1;
    st = critical_count(mu, fail_alpha, &c);
    if (st == SB_OK)
        st = power_mean(c, SB_GOF_POWER, &mu1);
    if (st != SB_OK)
        return st;
    const double log_s1 = log_f + log(N) + log(N - 1.0) - LN2 - log(mu1);
    res->detectable = log_s1 < log_s ? expm1(log_s - log_s1) : 0.0;
    if (!(res->detectable <= DBL_MAX))
        res->detectable = DBL_MAX;
    snprintf(res->detectable_desc, sizeof res->detectable_desc,
             "a source with fewer than 2^%.1f reachable %s (of 2^%.1f "
             "possible)", log_s1 / LN2, many, log2_s);

    st = sb_gof_table_alloc(&res->table, 1, 1, 0);
    if (st != SB_OK)
        return st;
    res->table.observed[0] = (double)repeats;
    res->table.expected[0] = mu;

    char kept[64] = "", want[48];
    if (a->j > 0)
        snprintf(kept, sizeof kept, " among the 2^-%u of %s kept", a->j,
                 many);
    if (mu < 1e6)
        snprintf(want, sizeof want, "%.2f", mu);
    else
        snprintf(want, sizeof want, "%.4g", mu);
    snprintf(res->effect_desc, sizeof res->effect_desc,
             "%" PRIu64 " repeated %s against %s expected%s", repeats,
             repeats == 1 ? samples_word(a->kind, 0) : many, want, kept);

    snprintf(res->null_desc, sizeof res->null_desc,
             "repeats ~ Poisson(%.4g) = f E R, N = %" PRIu64 " samples of "
             "2^%.1f possible %s, f = 2^-%u kept", mu, samples, log2_s,
             many, a->j);
    /* Expected false repeats: f C(N,2) pairs' worth at 2^-128 each. */
    const double log2_false = (log_f + log(N) + log(N - 1.0) - LN2)
                              / LN2 - 128.0;
    char which[64] = "every sample";
    if (a->j > 0)
        snprintf(which, sizeof which,
                 "the fingerprints whose top %u bits are 0", a->j);
    snprintf(res->note, sizeof res->note,
             "%zu distinct %s kept (%s); 128-bit fingerprints: 2^%.0f false "
             "repeats expected; Poisson upper tail", a->entries, many, which,
             log2_false);
    return SB_OK;
}

static void collisions_free(void *acc)
{
    collisions_acc *a = acc;
    if (a == NULL)
        return;
    free(a->keys);
    free(a->extra);
    free(a);
}

/* ---- state files ------------------------------------------------------

   The words (stats/saved.h): the key, j, the 'starved' flag, the number E
   of kept fingerprints, then E triples (hi, lo, count), sorted by
   fingerprint, so that the words depend on what was kept and not on where
   the table happened to put it: one accumulator fed every sample and
   accumulators merged in any order save the same words.

   'load' trusts none of it.  It refuses (SB_EINVAL) a wrong length, key
   or count of entries, more entries than CAP (a table holding them could
   not keep its load at 1/2, and a full table would make the probes loop),
   j above 64, a flag other than 0 or 1, and any entry that no
   accumulator can hold: the empty fingerprint {0, 0}, one whose top j
   bits are not all 0 (the kept fraction would have dropped it), a count
   of 0, a count above 2^32 (counts saturate at 2^32: 'extra' is a 32-bit
   count - 1), and a fingerprint given twice.  The table is first grown to
   hold every entry at load 1/2, so that no insertion can grow it or raise
   j; each entry then goes through 'insert', as a merged one would. */
#define SAVED_HEADER 3    /* j, starved, entries: words after the key */
#define SAVED_ENTRY 3     /* hi, lo, count */
#define SAVED_COUNT_MAX ((uint64_t)UINT32_MAX + 1)

/* The key covers the hash keys' seed too: fingerprints made with other
   keys could not be merged with these. */
static uint64_t collisions_key(const collisions_acc *a)
{
    return sb_saved_mix(sb_saved_key(sb_stat_collisions.name, a->kind, a->n,
                                     a->len, a->hands),
                        KEY_SEED);
}

/* Saved entries in fingerprint order. */
static int entry_cmp(const void *x, const void *y)
{
    const uint64_t *p = x, *q = y;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

static int collisions_save(const void *acc, uint64_t **words, size_t *count)
{
    const collisions_acc *a = acc;
    uint64_t *body;
    int st = sb_saved_alloc(collisions_key(a),
                            SAVED_HEADER + SAVED_ENTRY * a->entries, words,
                            count, &body);
    if (st != SB_OK)
        return st;
    body[0] = a->j;
    body[1] = (uint64_t)a->starved;
    body[2] = a->entries;
    uint64_t *e = body + SAVED_HEADER;
    for (size_t i = 0; i < a->slots; i++)
        if (!is_empty(a->keys[i])) {
            e[0] = a->keys[i].hi;
            e[1] = a->keys[i].lo;
            e[2] = (uint64_t)a->extra[i] + 1;
            e += SAVED_ENTRY;
        }
    qsort(body + SAVED_HEADER, a->entries, SAVED_ENTRY * sizeof *body,
          entry_cmp);
    return SB_OK;
}

/* Whether fingerprint 'k' is in the table (which has an empty slot: its
   load is at most 1/2). */
static int contains(const collisions_acc *a, fp128 k)
{
    const size_t mask = a->slots - 1;
    for (size_t i = k.lo & mask;; i = (i + 1) & mask) {
        if (a->keys[i].hi == k.hi && a->keys[i].lo == k.lo)
            return 1;
        if (is_empty(a->keys[i]))
            return 0;
    }
}

/* Back to what alloc made: nothing kept, f = 1 (the table keeps its
   size). */
static void collisions_clear(collisions_acc *a)
{
    memset(a->keys, 0, a->slots * sizeof *a->keys);
    memset(a->extra, 0, a->slots * sizeof *a->extra);
    a->entries = 0;
    a->j = 0;
    a->drop_mask = 0;
    a->starved = 0;
}

static int collisions_load(void *acc, const uint64_t *words, size_t count)
{
    collisions_acc *a = acc;
    if (words == NULL || count < 1 + SAVED_HEADER)
        return SB_EINVAL;
    const uint64_t entries = words[3];    /* after the key, j and flag */
    if (entries > CAP)
        return SB_EINVAL;
    const uint64_t *w = sb_saved_body(words, count, collisions_key(a),
                                      SAVED_HEADER
                                      + SAVED_ENTRY * (size_t)entries);
    if (w == NULL || w[0] > 64 || w[1] > 1)
        return SB_EINVAL;
    const unsigned j = (unsigned)w[0];
    const uint64_t drop = mask_for(j);
    const uint64_t *e = w + SAVED_HEADER;
    for (size_t i = 0; i < entries; i++, e += SAVED_ENTRY) {
        const fp128 k = { e[0], e[1] };
        if (is_empty(k) || (k.hi & drop) || e[2] == 0
            || e[2] > SAVED_COUNT_MAX)
            return SB_EINVAL;
    }

    collisions_clear(a);
    while (a->slots / 2 < entries)
        if (!grow(a))
            return SB_ENOMEM;
    a->j = j;
    a->drop_mask = drop;
    a->starved = (int)w[1];
    e = w + SAVED_HEADER;
    for (size_t i = 0; i < entries; i++, e += SAVED_ENTRY) {
        const fp128 k = { e[0], e[1] };
        if (contains(a, k)) {
            collisions_clear(a);
            return SB_EINVAL;
        }
        insert(a, k, e[2]);
    }
    return SB_OK;
}

/* The bytes table_array takes for an array of 'bytes'. */
static size_t table_array_bytes(size_t bytes)
{
    const size_t whole = bytes >= HUGE_PAGE
                       ? (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1)
                       : (bytes + 63) & ~(size_t)63;
    return sb_mem(whole);
}

/* The most a table ever holds: while it grows from SLOTS_MAX / 2 slots to
   SLOTS_MAX, both tables at once, 120 MiB (the table at the cap alone is
   80 MiB).  The same for every shape: the cap bounds the slots, not the
   samples. */
static size_t collisions_memory(const sb_shape *shape, size_t *finalize)
{
    const size_t words = (shape->len + VALUES_PER_WORD - 1) / VALUES_PER_WORD;
    size_t tables = 0;
    for (size_t slots = SLOTS_MAX / 2; slots <= SLOTS_MAX; slots *= 2)
        tables += table_array_bytes(slots * sizeof(fp128))
                + table_array_bytes(slots * sizeof(uint32_t));
    *finalize = sb_mem_finalize(0, 1);
    return sb_mem(sizeof(collisions_acc) + 4 * words * sizeof(uint64_t))
         + tables;
}

const sb_stat_type sb_stat_collisions = {
    .name = "collisions",
    .sees = "how many samples repeat an earlier one exactly (the birthday "
            "test: too few reachable decks)",
    .kinds = SB_KIND_PERMUTATION | SB_KIND_DRAW | SB_KIND_DEAL,
    .default_kinds = SB_KIND_PERMUTATION | SB_KIND_DRAW | SB_KIND_DEAL,
    .n_min = COLLISIONS_N_MIN,
    .n_max = SB_DECK_MAX,
    .alloc = collisions_alloc,
    .add = collisions_add,
    .merge = collisions_merge,
    .finalize = collisions_finalize,
    .free = collisions_free,
    .save = collisions_save,
    .load = collisions_load,
    .memory = collisions_memory,
};
