/*
 * test_stat_save.c - statistic accumulators saved as words and loaded
 * back (the 'save' and 'load' of every statistic, stats/saved.h).
 *
 * What must hold, for every registered statistic on every kind of sample
 * it applies to: the words of an accumulator, loaded into a fresh one,
 * give back the same words, the same result bit for bit, and the same
 * merge with a third accumulator; an accumulator made by merging saves
 * the same words as one fed every sample; and words that no accumulator
 * of that shape could have saved - cut short, one word too many, from
 * another statistic or shape, with counts that no run can make - are
 * refused, leaving the accumulator empty.  Nothing here is statistical:
 * every assertion is an identity or a refusal, whatever the seed.
 *
 * The samples come from registry algorithms run on the fast generator,
 * fed in calls of 64 as the runner does, with some repeated so that
 * 'collisions' keeps counts above 1.
 */
#include "sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "stats/fingerprints.h"
#include "stats/registry.h"

/* Samples per call of 'add', as the runner's blocks. */
#define BLOCK 64

/* ---- samples from the registry ---------------------------------------- */

/* An algorithm at its defaults and then 'params', on n cards. */
typedef struct config {
    const char *alg;
    size_t n;
    const char *params[3];    /* "k=v", NULL-ended */
    size_t count;             /* samples made, before the repeats */
} config;

/* Every kind of sample, and shapes on both sides of the statistics'
   limits: a small permutation (permutation, new-age-solitaire), 52 cards
   (poker7, collisions, the deal statistics reading 4 hands in blocks),
   n = 7 (permutation in its sparse range), a draw and a draw of the
   whole deck, a bridge deal, a deal of two suits, a small deal. */
static const config configs[] = {
    { "fisher-yates", 5, { NULL }, 3000 },
    { "sattolo", 7, { NULL }, 2000 },
    { "naive-swap", 52, { NULL }, 2000 },
    { "partial-deal", 52, { "k=10", NULL }, 2000 },
    { "partial-deal", 15, { "k=15", NULL }, 2000 },
    { "deal-fisher-yates", 52, { "hands=4", "hand-size=13", NULL }, 2000 },
    { "deal-fisher-yates", 26, { "hands=2", "hand-size=13", NULL }, 2000 },
    { "deal-fisher-yates", 6, { "hands=3", "hand-size=2", NULL }, 2000 },
};

typedef struct sample_set {
    sb_shape shape;
    size_t count;       /* samples, repeats included */
    sb_card *v;         /* count x shape.len values */
} sample_set;

/* Run config 'c' on the fast generator's stream 'chunk' of a fixed seed;
   then repeat sample 0 five times and samples 1..40 once, so that equal
   samples occur (counts of 6 and of 2 for 'collisions'). */
static void make_samples(const config *c, uint64_t chunk, sample_set *out)
{
    const sb_shuffle_type *t = sb_shuffle_find(c->alg);
    assert_non_null(t);
    sb_shuffle_args args = { .n = c->n };
    sb_shuffle_defaults(t, &args);
    for (size_t i = 0; c->params[i] != NULL; i++)
        assert_int_equal(sb_shuffle_set_param(t, &args, c->params[i]),
                         SB_OK);
    char why[256];
    assert_int_equal(sb_shuffle_check(t, &args, why, sizeof why), SB_OK);
    sb_shuffle_shape(t, &args, &out->shape);
    const size_t len = out->shape.len, extra = 5 + 40;
    out->count = c->count + extra;
    out->v = malloc(out->count * len * sizeof *out->v);
    assert_non_null(out->v);

    void *state = NULL;
    if (t->init != NULL)
        assert_int_equal(t->init(&state, &args), SB_OK);
    if (t->reset != NULL)
        t->reset(state, &args);
    sb_src src;
    sb_src_fast(&src, 0x5a7eull, chunk);
    for (size_t i = 0; i < c->count; i++)
        assert_int_equal(t->run(state, &args, &src, out->v + i * len),
                         SB_OK);
    if (t->free != NULL)
        t->free(state);

    sb_card *dst = out->v + c->count * len;
    for (size_t r = 0; r < 5; r++, dst += len)
        memcpy(dst, out->v, len * sizeof *dst);
    for (size_t i = 1; i <= 40; i++, dst += len)
        memcpy(dst, out->v + i * len, len * sizeof *dst);
}

/* Feed a whole set to 'acc' in calls of BLOCK samples. */
static void feed(const sb_stat_type *t, void *acc, const sample_set *s)
{
    for (size_t i = 0; i < s->count; i += BLOCK)
        t->add(acc, s->v + i * s->shape.len,
               s->count - i < BLOCK ? s->count - i : BLOCK);
}

/* ---- comparing -------------------------------------------------------- */

typedef struct saved {
    uint64_t *w;
    size_t count;
} saved;

static saved save_of(const sb_stat_type *t, const void *acc)
{
    saved s = { NULL, 0 };
    assert_int_equal(t->save(acc, &s.w, &s.count), SB_OK);
    assert_non_null(s.w);
    assert_true(s.count >= 1);
    return s;
}

static void assert_same_words(const saved *a, const saved *b)
{
    assert_int_equal(a->count, b->count);
    assert_memory_equal(a->w, b->w, a->count * sizeof *a->w);
}

/* The same double, bit for bit. */
static void assert_same_double(double a, double b)
{
    assert_memory_equal(&a, &b, sizeof a);
}

static void assert_same_array(const double *a, const double *b, size_t k)
{
    if (k > 0)
        assert_memory_equal(a, b, k * sizeof *a);
}

static void assert_same_result(const sb_result *a, const sb_result *b)
{
    assert_int_equal(a->applicable, b->applicable);
    assert_same_double(a->statistic, b->statistic);
    assert_same_double(a->df, b->df);
    assert_same_double(a->p_value, b->p_value);
    assert_int_equal(a->p_underflow, b->p_underflow);
    assert_int_equal(a->discrete, b->discrete);
    assert_same_double(a->p_lower, b->p_lower);
    assert_same_double(a->p_upper, b->p_upper);
    assert_int_equal(a->subtests, b->subtests);
    assert_same_double(a->effect, b->effect);
    assert_same_double(a->detectable, b->detectable);
    assert_string_equal(a->null_desc, b->null_desc);
    assert_string_equal(a->note, b->note);
    assert_string_equal(a->effect_desc, b->effect_desc);
    assert_string_equal(a->detectable_desc, b->detectable_desc);
    assert_int_equal(a->table.rows, b->table.rows);
    assert_int_equal(a->table.cols, b->table.cols);
    const size_t cells = a->table.rows * a->table.cols;
    assert_same_array(a->table.observed, b->table.observed, cells);
    assert_same_array(a->table.expected, b->table.expected, cells);
    assert_int_equal(a->table.lo != NULL, b->table.lo != NULL);
    if (a->table.lo != NULL && cells > 0) {
        assert_memory_equal(a->table.lo, b->table.lo,
                            cells * sizeof *a->table.lo);
        assert_memory_equal(a->table.hi, b->table.hi,
                            cells * sizeof *a->table.hi);
    }
}

/* Finalize both after 'samples' samples: the same status and result. */
static void assert_same_finalize(const sb_stat_type *t, const void *a,
                                 const void *b, uint64_t samples)
{
    sb_result ra, rb;
    const int sa = t->finalize(a, samples, 1e-6, &ra);
    const int sb = t->finalize(b, samples, 1e-6, &rb);
    assert_int_equal(sa, sb);
    if (sa == SB_OK)
        assert_same_result(&ra, &rb);
    sb_result_clear(&ra);
    sb_result_clear(&rb);
}

/* ---- which statistics tie their counts -------------------------------- */

/* Tables whose rows or columns must sum alike (fixed margins, a count per
   hand per deal): one count moved by one is a state no run can make. */
static int is_tied(const sb_stat_type *t)
{
    static const char *const tied[] = { "position", "card-hand",
        "card-slot", "serial", "hand-patterns", "suit-lengths", "hcp",
        "same-hand-pairs", "fy-code", "fy-code-forward", NULL };
    for (size_t i = 0; tied[i] != NULL; i++)
        if (strcmp(t->name, tied[i]) == 0)
            return 1;
    return 0;
}

/* ---- the sweep -------------------------------------------------------- */

/* A statistic without save or load could not be resumed or merged across
   machines: every registered one must have both. */
static void test_every_statistic_saves(void **state)
{
    (void)state;
    size_t k = 0;
    for (; sb_stat_types[k] != NULL; k++) {
        if (sb_stat_types[k]->save == NULL || sb_stat_types[k]->load == NULL)
            print_error("'%s' has no save or load\n", sb_stat_types[k]->name);
        assert_non_null(sb_stat_types[k]->save);
        assert_non_null(sb_stat_types[k]->load);
    }
    assert_true(k >= 18);
}

/* Refusals of words 'w' that are not this accumulator's, into a fresh
   accumulator 'fresh' whose empty state saved as 'empty': each is
   SB_EINVAL and leaves it empty. */
static void assert_refused(const sb_stat_type *t, void *fresh,
                           const saved *empty, const uint64_t *w,
                           size_t count)
{
    assert_int_equal(t->load(fresh, w, count), SB_EINVAL);
    saved after = save_of(t, fresh);
    assert_same_words(&after, empty);
    free(after.w);
}

/* Cut short, cut to nothing, one word more, another key: all refused. */
static void check_truncations(const sb_stat_type *t, const sb_shape *shape,
                              const saved *good)
{
    void *fresh;
    assert_int_equal(t->alloc(&fresh, shape), SB_OK);
    saved empty = save_of(t, fresh);

    assert_refused(t, fresh, &empty, good->w, good->count - 1);
    assert_refused(t, fresh, &empty, good->w, 0);
    assert_refused(t, fresh, &empty, NULL, 0);
    uint64_t *w = malloc((good->count + 1) * sizeof *w);
    assert_non_null(w);
    memcpy(w, good->w, good->count * sizeof *w);
    w[good->count] = 0;
    assert_refused(t, fresh, &empty, w, good->count + 1);
    w[0] ^= 1;
    assert_refused(t, fresh, &empty, w, good->count);
    /* Every cut, for short states (a collisions entry cut in its middle,
       a table cut by a row). */
    for (size_t c = 1; c < good->count && c < 64; c++)
        assert_refused(t, fresh, &empty, good->w, c);
    free(w);
    free(empty.w);
    t->free(fresh);
}

/* Counts moved by one: refused by the tied tables and by 'cycles' (its
   count of samples with 0 cycles is the one moved); for the other
   histograms and solitaire's wins, a state a run could make, which loads
   and saves back as it is.  A count of 2^64 - 1 beside others is refused
   by every histogram: their total is the samples. */
static void check_moved_counts(const sb_stat_type *t, const sb_shape *shape,
                               const saved *good)
{
    if (strcmp(t->name, "collisions") == 0 || good->count < 2)
        return;       /* collisions: test_collisions_corrupt */
    void *fresh;
    assert_int_equal(t->alloc(&fresh, shape), SB_OK);
    saved empty = save_of(t, fresh);
    uint64_t *w = malloc(good->count * sizeof *w);
    assert_non_null(w);
    memcpy(w, good->w, good->count * sizeof *w);

    w[1]++;
    if (is_tied(t) || strcmp(t->name, "cycles") == 0) {
        assert_refused(t, fresh, &empty, w, good->count);
    } else {
        assert_int_equal(t->load(fresh, w, good->count), SB_OK);
        saved back = save_of(t, fresh);
        assert_int_equal(back.count, good->count);
        assert_memory_equal(back.w, w, good->count * sizeof *w);
        free(back.w);
        t->free(fresh);
        assert_int_equal(t->alloc(&fresh, shape), SB_OK);
    }

    uint64_t rest = 0;
    for (size_t i = 2; i < good->count; i++)
        rest |= good->w[i];
    if (rest != 0) {
        w[1] = UINT64_MAX;
        assert_refused(t, fresh, &empty, w, good->count);
    }
    free(w);
    free(empty.w);
    t->free(fresh);
}

/* One statistic on one config: the round trip, results, merges and
   refusals. */
static void sweep_one(const sb_stat_type *t, const sample_set *s,
                      const sample_set *o)
{
    void *orig, *loaded;
    assert_int_equal(t->alloc(&orig, &s->shape), SB_OK);
    feed(t, orig, s);
    saved w1 = save_of(t, orig);

    /* Round trip: the same words, the same result bit for bit. */
    assert_int_equal(t->alloc(&loaded, &s->shape), SB_OK);
    assert_int_equal(t->load(loaded, w1.w, w1.count), SB_OK);
    saved w2 = save_of(t, loaded);
    assert_same_words(&w1, &w2);
    assert_same_finalize(t, orig, loaded, s->count);

    /* Merged into another accumulator (fed other samples), the loaded one
       and the original give the same words and result; and both the same
       words as one accumulator fed the other samples and then these, in
       the same calls. */
    void *into_a, *into_b, *one;
    assert_int_equal(t->alloc(&into_a, &s->shape), SB_OK);
    assert_int_equal(t->alloc(&into_b, &s->shape), SB_OK);
    assert_int_equal(t->alloc(&one, &s->shape), SB_OK);
    feed(t, into_a, o);
    feed(t, into_b, o);
    feed(t, one, o);
    feed(t, one, s);
    assert_int_equal(t->merge(into_a, loaded), SB_OK);
    assert_int_equal(t->merge(into_b, orig), SB_OK);
    saved ma = save_of(t, into_a), mb = save_of(t, into_b);
    saved m1 = save_of(t, one);
    assert_same_words(&ma, &mb);
    assert_same_words(&ma, &m1);
    assert_same_finalize(t, into_a, into_b, s->count + o->count);
    assert_same_finalize(t, into_a, one, s->count + o->count);

    check_truncations(t, &s->shape, &w1);
    check_moved_counts(t, &s->shape, &w1);

    free(w1.w);
    free(w2.w);
    free(ma.w);
    free(mb.w);
    free(m1.w);
    t->free(orig);
    t->free(loaded);
    t->free(into_a);
    t->free(into_b);
    t->free(one);
}

/* Every registered statistic on every config it applies to; each one must
   be reached by some config, so that a statistic added later is swept
   too (or this test names it). */
static void test_sweep(void **state)
{
    (void)state;
    size_t n_stats = 0;
    while (sb_stat_types[n_stats] != NULL)
        n_stats++;
    unsigned char *reached = calloc(n_stats, 1);
    assert_non_null(reached);
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        sample_set s, o;
        make_samples(&configs[c], 0, &s);
        make_samples(&configs[c], 1, &o);
        for (size_t k = 0; k < n_stats; k++) {
            const sb_stat_type *t = sb_stat_types[k];
            if (sb_stat_check(t, &s.shape, NULL, 0) != SB_OK)
                continue;
            reached[k] = 1;
            sweep_one(t, &s, &o);
        }
        free(s.v);
        free(o.v);
    }
    for (size_t k = 0; k < n_stats; k++) {
        if (!reached[k])
            print_error("no config reaches '%s'\n", sb_stat_types[k]->name);
        assert_true(reached[k]);
    }
    free(reached);
}

/* ---- foreign words ---------------------------------------------------- */

/* Words of the right length from another shape or another statistic:
   hand-patterns of a bridge deal and of a permutation read as 4 hands
   (4 x 39 counts each), descents and successions of 5 cards (5 counts
   each).  Refused by the key. */
static void test_foreign_words(void **state)
{
    (void)state;
    const sb_shape deal = { SB_KIND_DEAL, 52, 52, 4 };
    const sb_shape perm = { SB_KIND_PERMUTATION, 52, 52, 0 };
    const sb_stat_type *hp = &sb_stat_hand_patterns;
    void *a, *b;
    assert_int_equal(hp->alloc(&a, &deal), SB_OK);
    assert_int_equal(hp->alloc(&b, &perm), SB_OK);
    saved wa = save_of(hp, a), wb = save_of(hp, b);
    assert_int_equal(wa.count, wb.count);
    assert_int_equal(hp->load(b, wa.w, wa.count), SB_EINVAL);
    assert_int_equal(hp->load(a, wb.w, wb.count), SB_EINVAL);
    free(wa.w);
    free(wb.w);
    hp->free(a);
    hp->free(b);

    const sb_shape five = { SB_KIND_PERMUTATION, 5, 5, 0 };
    assert_int_equal(sb_stat_descents.alloc(&a, &five), SB_OK);
    assert_int_equal(sb_stat_successions.alloc(&b, &five), SB_OK);
    wa = save_of(&sb_stat_descents, a);
    wb = save_of(&sb_stat_successions, b);
    assert_int_equal(wa.count, wb.count);
    assert_int_equal(sb_stat_successions.load(b, wa.w, wa.count), SB_EINVAL);
    assert_int_equal(sb_stat_descents.load(a, wb.w, wb.count), SB_EINVAL);
    free(wa.w);
    free(wb.w);
    sb_stat_descents.free(a);
    sb_stat_successions.free(b);
}

/* Counts no run can make, each refused, beside their nearest possible
   neighbours, which load: wins counted on a deck of 3 cards, where
   solitaire is not played; decks of 5 cards with 4 fixed points (5 is
   fine); consecutive draws of all 15 of 15 cards sharing 14 of them
   (they always share all 15). */
static void test_impossible_counts(void **state)
{
    (void)state;
    void *a;
    saved w;

    const sb_shape three = { SB_KIND_PERMUTATION, 3, 3, 0 };
    assert_int_equal(sb_stat_new_age_solitaire.alloc(&a, &three), SB_OK);
    w = save_of(&sb_stat_new_age_solitaire, a);
    assert_int_equal(w.count, 2);
    w.w[1] = 1;
    assert_int_equal(sb_stat_new_age_solitaire.load(a, w.w, w.count),
                     SB_EINVAL);
    w.w[1] = 0;
    assert_int_equal(sb_stat_new_age_solitaire.load(a, w.w, w.count),
                     SB_OK);
    free(w.w);
    sb_stat_new_age_solitaire.free(a);

    const sb_shape five = { SB_KIND_PERMUTATION, 5, 5, 0 };
    assert_int_equal(sb_stat_fixed_points.alloc(&a, &five), SB_OK);
    w = save_of(&sb_stat_fixed_points, a);
    assert_int_equal(w.count, 1 + 6);
    w.w[1 + 4] = 1;
    assert_int_equal(sb_stat_fixed_points.load(a, w.w, w.count), SB_EINVAL);
    w.w[1 + 4] = 0;
    w.w[1 + 5] = 1;
    assert_int_equal(sb_stat_fixed_points.load(a, w.w, w.count), SB_OK);
    free(w.w);
    sb_stat_fixed_points.free(a);

    /* serial on whole-deck draws: pairs, then counts of 0..15 cards in
       common; one pair counted with 14 in common. */
    const sb_shape all = { SB_KIND_DRAW, 15, 15, 0 };
    assert_int_equal(sb_stat_serial.alloc(&a, &all), SB_OK);
    w = save_of(&sb_stat_serial, a);
    assert_int_equal(w.count, 1 + 1 + 16);
    w.w[1] = 1;
    w.w[2 + 14] = 1;
    assert_int_equal(sb_stat_serial.load(a, w.w, w.count), SB_EINVAL);
    w.w[2 + 14] = 0;
    w.w[2 + 15] = 1;
    assert_int_equal(sb_stat_serial.load(a, w.w, w.count), SB_OK);
    free(w.w);
    sb_stat_serial.free(a);
}

/* ---- collisions ------------------------------------------------------- */

/* The words of 'collisions': key, j, starved, entries E, then E triples
   (hi, lo, count). */
enum { C_J = 1, C_STARVED = 2, C_ENTRIES = 3, C_FIRST = 4 };

static uint64_t *entry(uint64_t *w, size_t i)
{
    return w + C_FIRST + 3 * i;
}

/* Decks of 52 cards compared as byte strings, for sorting. */
static int cmp_deck52(const void *x, const void *y)
{
    return memcmp(x, y, 52 * sizeof(sb_card));
}

/* Fingerprints (hi, lo) in order. */
static int cmp_fp(const void *x, const void *y)
{
    const uint64_t *p = x, *q = y;
    if (p[0] != q[0])
        return p[0] < q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

/* Corrupted entries and header fields of real words, each refused and
   leaving the accumulator empty; the largest count there is (2^32, a
   saturated one) and the 'starved' flag load; words keeping only the
   fingerprints of top bit 0 load at j = 1, and merged with an
   accumulator at j = 0 either way round they save the same words, every
   fingerprint of top bit 1 dropped. */
static void test_collisions_corrupt(void **state)
{
    (void)state;
    const sb_stat_type *t = &sb_stat_collisions;
    sample_set s, o;
    make_samples(&configs[2], 0, &s);     /* naive-swap, 52 cards */
    make_samples(&configs[2], 1, &o);
    void *acc, *fresh;
    assert_int_equal(t->alloc(&acc, &s.shape), SB_OK);
    feed(t, acc, &s);
    saved good = save_of(t, acc);
    const size_t E = good.w[C_ENTRIES];
    assert_int_equal(good.count, C_FIRST + 3 * E);
    assert_int_equal(good.w[C_J], 0);
    assert_int_equal(good.w[C_STARVED], 0);
    /* One entry per distinct deck, its count the times it came: the
       distinct decks found by sorting them. */
    sb_card *sorted = malloc(s.count * 52 * sizeof *sorted);
    assert_non_null(sorted);
    memcpy(sorted, s.v, s.count * 52 * sizeof *sorted);
    qsort(sorted, s.count, 52 * sizeof *sorted, cmp_deck52);
    size_t distinct = s.count > 0;
    for (size_t i = 1; i < s.count; i++)
        distinct += cmp_deck52(sorted + (i - 1) * 52, sorted + i * 52) != 0;
    free(sorted);
    assert_int_equal(E, distinct);
    uint64_t samples = 0;
    for (size_t i = 0; i < E; i++)
        samples += entry(good.w, i)[2];
    assert_int_equal(samples, s.count);

    assert_int_equal(t->alloc(&fresh, &s.shape), SB_OK);
    saved empty = save_of(t, fresh);
    assert_int_equal(empty.count, C_FIRST);
    uint64_t *w = malloc(good.count * sizeof *w);
    assert_non_null(w);
#define RESET() memcpy(w, good.w, good.count * sizeof *w)

    RESET();     /* a fingerprint twice */
    entry(w, 1)[0] = entry(w, 0)[0];
    entry(w, 1)[1] = entry(w, 0)[1];
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();     /* a fingerprint twice, the last entry again */
    entry(w, 0)[0] = entry(w, E - 1)[0];
    entry(w, 0)[1] = entry(w, E - 1)[1];
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();     /* the empty fingerprint */
    entry(w, 5)[0] = entry(w, 5)[1] = 0;
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();     /* a count of 0 */
    entry(w, 7)[2] = 0;
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();     /* a count beyond the saturated 2^32 */
    entry(w, 7)[2] = (uint64_t)UINT32_MAX + 2;
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();
    entry(w, 7)[2] = UINT64_MAX;
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();     /* entries not matching the length, or absurd */
    w[C_ENTRIES] = E - 1;
    assert_refused(t, fresh, &empty, w, good.count);
    w[C_ENTRIES] = E + 1;
    assert_refused(t, fresh, &empty, w, good.count);
    w[C_ENTRIES] = SB_FINGERPRINTS_CAP + 1;
    assert_refused(t, fresh, &empty, w, good.count);
    w[C_ENTRIES] = UINT64_MAX;
    assert_refused(t, fresh, &empty, w, good.count);
    w[C_ENTRIES] = UINT64_MAX / 3 + 1;   /* 3 E + 4 wraps to a small size */
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();     /* j and the flag out of range */
    w[C_J] = 65;
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();
    w[C_STARVED] = 2;
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();     /* j = 1 drops the fingerprints of top bit 1, present */
    size_t top = 0;
    for (size_t i = 0; i < E; i++)
        top += entry(w, i)[0] >> 63;
    assert_true(top > 0 && top < E);
    w[C_J] = 1;
    assert_refused(t, fresh, &empty, w, good.count);
    RESET();
    w[C_J] = 64;
    assert_refused(t, fresh, &empty, w, good.count);

    /* A saturated count loads and saves back as it was. */
    RESET();
    entry(w, 3)[2] = (uint64_t)UINT32_MAX + 1;
    assert_int_equal(t->load(fresh, w, good.count), SB_OK);
    saved back = save_of(t, fresh);
    assert_int_equal(back.count, good.count);
    assert_memory_equal(back.w, w, good.count * sizeof *w);
    free(back.w);

    /* 'starved' loads, and finalize then refuses to answer, as it does
       for the accumulator that could not grow. */
    RESET();
    w[C_STARVED] = 1;
    assert_int_equal(t->load(fresh, w, good.count), SB_OK);
    sb_result r;
    assert_int_equal(t->finalize(fresh, s.count, 1e-6, &r), SB_ENOMEM);
    sb_result_clear(&r);

    /* Only the fingerprints of top bit 0, at j = 1. */
    uint64_t *half = malloc(good.count * sizeof *half);
    assert_non_null(half);
    memcpy(half, good.w, C_FIRST * sizeof *half);
    size_t kept = 0;
    for (size_t i = 0; i < E; i++)
        if (!(entry(good.w, i)[0] >> 63))
            memcpy(entry(half, kept++), entry(good.w, i), 3 * sizeof *half);
    half[C_J] = 1;
    half[C_ENTRIES] = kept;
    const size_t half_count = C_FIRST + 3 * kept;
    void *h1, *h2, *other;
    assert_int_equal(t->alloc(&h1, &s.shape), SB_OK);
    assert_int_equal(t->alloc(&h2, &s.shape), SB_OK);
    assert_int_equal(t->alloc(&other, &s.shape), SB_OK);
    assert_int_equal(t->load(h1, half, half_count), SB_OK);
    assert_int_equal(t->load(h2, half, half_count), SB_OK);
    feed(t, other, &o);
    saved wo = save_of(t, other);
    assert_int_equal(t->merge(h1, other), SB_OK);   /* j = 1 takes j = 0 */
    assert_int_equal(t->merge(other, h2), SB_OK);   /* j = 0 takes j = 1 */
    saved x = save_of(t, h1), y = save_of(t, other);
    assert_same_words(&x, &y);
    assert_int_equal(x.w[C_J], 1);
    /* What is kept: the distinct fingerprints of top bit 0 of both,
       found by sorting them together. */
    const size_t n_o = wo.w[C_ENTRIES];
    uint64_t *fps = malloc((kept + n_o) * 2 * sizeof *fps);
    assert_non_null(fps);
    size_t m = 0;
    for (size_t i = 0; i < kept; i++, m++)
        memcpy(fps + 2 * m, entry(half, i), 2 * sizeof *fps);
    for (size_t i = 0; i < n_o; i++)
        if (!(entry(wo.w, i)[0] >> 63))
            memcpy(fps + 2 * m++, entry(wo.w, i), 2 * sizeof *fps);
    qsort(fps, m, 2 * sizeof *fps, cmp_fp);
    size_t want = m > 0;
    for (size_t i = 1; i < m; i++)
        want += cmp_fp(fps + 2 * (i - 1), fps + 2 * i) != 0;
    free(fps);
    assert_true(want > kept);
    assert_int_equal(x.w[C_ENTRIES], want);
    for (size_t i = 0; i < want; i++)
        assert_int_equal(entry(x.w, i)[0] >> 63, 0);
    free(x.w);
    free(y.w);
    free(wo.w);
    t->free(h1);
    t->free(h2);
    t->free(other);
    free(half);
#undef RESET

    free(w);
    free(empty.w);
    free(good.w);
    t->free(fresh);
    t->free(acc);
    free(s.v);
    free(o.v);
}

/* Draws of 4 values from 65535, sample i = (i mod 65535, i div 65535,
   11, 13): distinct for distinct i.  The stream is samples 0..DISTINCT-1,
   then every third of the first REPEATED again. */
enum { DISTINCT = (1u << 21) + 150000, REPEATED = 300000 };

static size_t cap_sample(size_t k, sb_card *out)
{
    const size_t i = k < DISTINCT ? k : 3 * (k - DISTINCT);
    out[0] = (sb_card)(i % 65535);
    out[1] = (sb_card)(i / 65535);
    out[2] = 11;
    out[3] = 13;
    return i;
}

/* Feed stream samples [from, to) in calls of BLOCK. */
static void cap_feed(void *acc, size_t from, size_t to)
{
    sb_card buf[4 * BLOCK];
    for (size_t k = from; k < to;) {
        size_t b = 0;
        for (; b < BLOCK && k < to; b++, k++)
            cap_sample(k, buf + 4 * b);
        sb_stat_collisions.add(acc, buf, b);
    }
}

/* Across the memory cap: 2.25 x 10^6 distinct draws, more than the 2^21
   fingerprints an accumulator keeps, so it halves its kept fraction.
   Its words load and save back the same, with the same result.  And a
   run saved early (400000 samples, under the cap), loaded and fed the
   rest of the stream, as a resumed run is, ends with the words of the one
   fed everything: the kept fraction halves after the load as it did
   without one. */
static void test_collisions_across_cap(void **state)
{
    (void)state;
    const sb_stat_type *t = &sb_stat_collisions;
    const sb_shape sh = { SB_KIND_DRAW, 65535, 4, 0 };
    const size_t total = DISTINCT + REPEATED / 3, cut = 400000;

    void *one, *loaded;
    assert_int_equal(t->alloc(&one, &sh), SB_OK);
    cap_feed(one, 0, total);
    saved w1 = save_of(t, one);
    assert_true(w1.w[C_J] >= 1);
    assert_true(w1.w[C_ENTRIES] <= SB_FINGERPRINTS_CAP);
    sb_result r1, r2;
    assert_int_equal(t->finalize(one, total, 1e-6, &r1), SB_OK);
    t->free(one);        /* before the next table: 80 MiB each */
    assert_int_equal(t->alloc(&loaded, &sh), SB_OK);
    assert_int_equal(t->load(loaded, w1.w, w1.count), SB_OK);
    saved w2 = save_of(t, loaded);
    assert_same_words(&w1, &w2);
    assert_int_equal(t->finalize(loaded, total, 1e-6, &r2), SB_OK);
    assert_same_result(&r1, &r2);
    sb_result_clear(&r1);
    sb_result_clear(&r2);
    free(w2.w);
    t->free(loaded);

    void *part;
    assert_int_equal(t->alloc(&part, &sh), SB_OK);
    cap_feed(part, 0, cut);
    saved wa = save_of(t, part);
    t->free(part);
    assert_int_equal(wa.w[C_J], 0);
    assert_int_equal(t->alloc(&loaded, &sh), SB_OK);
    assert_int_equal(t->load(loaded, wa.w, wa.count), SB_OK);
    free(wa.w);
    cap_feed(loaded, cut, total);
    w2 = save_of(t, loaded);
    assert_same_words(&w1, &w2);
    free(w2.w);
    t->free(loaded);
    free(w1.w);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_statistic_saves),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_foreign_words),
        cmocka_unit_test(test_impossible_counts),
        cmocka_unit_test(test_collisions_corrupt),
        cmocka_unit_test(test_collisions_across_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
