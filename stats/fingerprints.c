/*
 * fingerprints.c - the 128-bit fingerprint multiset (stats/fingerprints.h).
 *
 * Each sample is read as 64-bit words x_i of four 16-bit
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
 * goes on, but 'collisions' then answers SB_ENOMEM rather than a result
 * that depends on when memory ran short.  At the cap, f N ~ 2^21
 * samples are kept, and the test still sees sources of up to about
 * f N^2 / 4.6 = 2^21 N / 4.6 reachable samples: 2^48 at N = 10^9.
 * CAP is part of what a run counts (it decides f), so it is the same on
 * every thread and every machine, and not a share of the run's memory
 * budget: the budget (src/engine/budget.h) decides how many threads' tables a
 * run holds at once, never how large one may grow, so that the counts
 * stay the same whatever the threads.  sb_fingerprints_memory tells the
 * budget the most a table holds, 120 MiB while it doubles to the cap.
 */
#define _DEFAULT_SOURCE   /* madvise */
#include "stats/fingerprints.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "shufflebias/status.h"
#include "base/rng.h"
#include "stats/memory.h"

/* The table: at most SLOTS_MAX slots, at most half of them used. */
#define SLOTS_START (1u << 12)
#define SLOTS_MAX (1u << 22)
#define CAP (SLOTS_MAX / 2)
/* Fingerprints computed ahead of their table lookups, so that the memory
   fetches of a batch overlap. */
#define BATCH 16
/* 16-bit values in a 64-bit word. */
#define VALUES_PER_WORD (sizeof(uint64_t) / sizeof(sb_card))
/* The transparent huge page of x86-64 (and of arm64 with 4 KiB pages);
   elsewhere the advice below may not apply, and it is only a hint. */
#define HUGE_PAGE ((size_t)2 << 20)
/* The words of a saved set: j, starved, entries; then each entry. */
#define SAVED_HEADER 3
#define SAVED_ENTRY 3     /* hi, lo, count */
#define SAVED_COUNT_MAX ((uint64_t)UINT32_MAX + 1)

_Static_assert(CAP == SB_FINGERPRINTS_CAP, "the cap is half the slots");

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

struct sb_fingerprints {
    size_t len;             /* values per sample */
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
};

/* SplitMix64 (Steele, Lea and Flood 2014), for the hash keys only: the
   state steps by the golden gamma, and each output is the state before
   the step through sb_mix64, which adds the gamma itself. */
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

sb_fingerprints *sb_fingerprints_alloc(size_t len)
{
    if (len < 1)
        return NULL;
    const size_t words = (len + VALUES_PER_WORD - 1) / VALUES_PER_WORD;
    sb_fingerprints *a = calloc(1, sizeof *a + 4 * words * sizeof(uint64_t));
    if (a == NULL)
        return NULL;
    a->len = len;
    a->words = words;
    a->slots = SLOTS_START;
    if (!table_alloc(a->slots, &a->keys, &a->extra)) {
        free(a);
        return NULL;
    }
    uint64_t s = SB_FINGERPRINTS_SEED;
    for (size_t i = 0; i < 4; i++)
        a->lane_keys[i] = splitmix64(&s);
    for (size_t i = 0; i < 4 * words; i++)
        a->mul[i] = splitmix64(&s);
    return a;
}

void sb_fingerprints_free(sb_fingerprints *a)
{
    if (a == NULL)
        return;
    free(a->keys);
    free(a->extra);
    free(a);
}

/* The sample read as 64-bit words, four 16-bit values each (the last
   word padded with zeros: every sample of a set has the same length, so
   this is one-to-one), each word x_i hashed into both lanes:
   sum += a_i x_i mod 2^128, where a_i x_i mod 2^128 is the full product of
   a_i's low half with x_i plus the low 64 bits of a_i's high half times
   x_i, shifted up.  Reading whole words costs more multiplications than
   packing 6-bit cards first would (13 words for 52 cards instead of 6),
   but is faster (docs/speed.md): the multiplications are independent,
   the packing is a chain of shifts.  'add' as a whole costs most over the
   first 10^6 decks (the table growing to 2^21 slots, a cache miss per
   deck), and less once f < 1 (dropped decks need no lookup). */
static fp128 fingerprint(const sb_fingerprints *a, const sb_card *s)
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
static int grow(sb_fingerprints *a)
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
static void drop_to(sb_fingerprints *a, unsigned j)
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
static void make_room(sb_fingerprints *a)
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
static void insert(sb_fingerprints *a, fp128 k, uint64_t count)
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
   batch. */
void sb_fingerprints_add(sb_fingerprints *a, const sb_card *samples,
                         size_t count)
{
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

int sb_fingerprints_merge(sb_fingerprints *a, const sb_fingerprints *b)
{
    if (a->len != b->len)
        return SB_EINVAL;
    if (b->j > a->j)
        drop_to(a, b->j);
    a->starved |= b->starved;
    for (size_t i = 0; i < b->slots; i++)
        if (!is_empty(b->keys[i]))
            insert(a, b->keys[i], (uint64_t)b->extra[i] + 1);
    return SB_OK;
}

uint64_t sb_fingerprints_repeats(const sb_fingerprints *a)
{
    uint64_t repeats = 0;
    for (size_t i = 0; i < a->slots; i++)
        repeats += a->extra[i];
    return repeats;
}

size_t sb_fingerprints_distinct(const sb_fingerprints *a)
{
    return a->entries;
}

unsigned sb_fingerprints_level(const sb_fingerprints *a)
{
    return a->j;
}

int sb_fingerprints_starved(const sb_fingerprints *a)
{
    return a->starved;
}

/* ---- state files ------------------------------------------------------

   The words are sorted by fingerprint, so that one set fed every sample
   and sets merged in any order save the same words.  'load' trusts none
   of them.  It refuses (SB_EINVAL) a wrong length or count of entries,
   more entries than CAP (a table holding them could
   not keep its load at 1/2, and a full table would make the probes loop),
   j above 64, a flag other than 0 or 1, and any entry that no
   accumulator can hold: the empty fingerprint {0, 0}, one whose top j
   bits are not all 0 (the kept fraction would have dropped it), a count
   of 0, a count above 2^32 (counts saturate at 2^32: 'extra' is a 32-bit
   count - 1), and a fingerprint given twice.  The table is first grown to
   hold every entry at load 1/2, so that no insertion can grow it or raise
   j; each entry then goes through 'insert', as a merged one would. */

/* Saved entries in fingerprint order. */
static int entry_cmp(const void *x, const void *y)
{
    const uint64_t *p = x, *q = y;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

size_t sb_fingerprints_words(const sb_fingerprints *a)
{
    return SAVED_HEADER + SAVED_ENTRY * a->entries;
}

void sb_fingerprints_save(const sb_fingerprints *a, uint64_t *body)
{
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
}

/* Whether fingerprint 'k' is in the table (which has an empty slot: its
   load is at most 1/2). */
static int contains(const sb_fingerprints *a, fp128 k)
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
static void clear(sb_fingerprints *a)
{
    memset(a->keys, 0, a->slots * sizeof *a->keys);
    memset(a->extra, 0, a->slots * sizeof *a->extra);
    a->entries = 0;
    a->j = 0;
    a->drop_mask = 0;
    a->starved = 0;
}

int sb_fingerprints_load(sb_fingerprints *a, const uint64_t *w,
                         size_t count)
{
    if (w == NULL || count < SAVED_HEADER)
        return SB_EINVAL;
    const uint64_t entries = w[2];    /* after j and the flag */
    if (entries > CAP || count != SAVED_HEADER + SAVED_ENTRY * entries
        || w[0] > 64 || w[1] > 1)
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

    clear(a);
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
            clear(a);
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
   80 MiB).  The same for every length: the cap bounds the slots, not the
   samples. */
size_t sb_fingerprints_memory(size_t len)
{
    const size_t words = (len + VALUES_PER_WORD - 1) / VALUES_PER_WORD;
    size_t tables = 0;
    for (size_t slots = SLOTS_MAX / 2; slots <= SLOTS_MAX; slots *= 2)
        tables += table_array_bytes(slots * sizeof(fp128))
                + table_array_bytes(slots * sizeof(uint32_t));
    return sb_mem(sizeof(sb_fingerprints) + 4 * words * sizeof(uint64_t))
         + tables;
}

