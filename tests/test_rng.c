/*
 * test_rng.c - the draw interface and the randomness backends.
 *
 * Unbiasedness is checked exhaustively, never statistically: Lemire's step,
 * the batched draws and the word-based rejection are run on words narrow
 * enough (8 to 20 bits) for every possible word to be fed once, and every
 * outcome must come up the same number of times.
 */
#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "shufflebias/rng.h"
#include "shufflebias/status.h"
#include "base/rng.h"

/* Every 8-bit word once: for each n, the accepted words split into exactly
   floor(256 / n) per result, and 256 mod n words are rejected. */
static void lemire_is_exactly_unbiased(void **state)
{
    (void)state;
    for (uint64_t n = 1; n <= 256; n++) {
        unsigned count[256] = { 0 };
        unsigned accepted = 0;
        for (uint64_t x = 0; x < 256; x++) {
            uint64_t r;
            if (sb_lemire_accept(x, n, 8, &r)) {
                assert_true(r < n);
                count[r]++;
                accepted++;
            }
        }
        assert_int_equal(accepted, 256 - 256 % n);
        for (uint64_t r = 0; r < n; r++)
            assert_int_equal(count[r], 256 / n);
    }
}

/* The full-width step used on the fast path agrees with the definition
   at its edges: n = 1 always accepts 0, and x = 0 gives result 0. */
static void lemire_full_width_edges(void **state)
{
    (void)state;
    uint64_t r;
    assert_true(sb_lemire_accept(~(uint64_t)0, 1, 64, &r));
    assert_int_equal(r, 0);
    /* n = 2^63 + 1: 2^64 mod n = 2^63 - 1, so low parts below it reject. */
    const uint64_t n = ((uint64_t)1 << 63) + 1;
    assert_false(sb_lemire_accept(0, n, 64, &r));   /* low 0: rejected */
    assert_true(sb_lemire_accept(1, n, 64, &r));    /* low n: kept */
    assert_int_equal(r, 0);
    assert_true(sb_lemire_accept(~(uint64_t)0, n, 64, &r));
    assert_true(r == n - 1);   /* (2^64 - 1)(2^63 + 1) >> 64 = 2^63 */
}

/* A word source that walks every word of 'width' bits once, in order,
   and counts the words taken. */
typedef struct counter {
    sb_word_source ws;   /* first: the source's self pointer */
    uint64_t next_word, taken;
} counter;

static uint64_t counter_next(sb_word_source *ws)
{
    counter *c = (counter *)ws;
    c->taken++;
    return c->next_word++ & (((uint64_t)1 << ws->width) - 1);
}

static void word_below_is_exactly_unbiased(void **state)
{
    (void)state;
    for (uint64_t n = 1; n <= 256; n++) {
        counter c = { { 8, counter_next, 0 }, 0, 0 };
        sb_src src;
        sb_src_from_words(&src, &c.ws);
        unsigned count[256] = { 0 };
        if (n == 1) {
            assert_int_equal(sb_draw_below(&src, 1), 0);
            assert_int_equal(c.taken, 0);   /* below(1) draws nothing */
            continue;
        }
        /* Draw until every word has been fed once; a draw that ran past
           the last word (still rejecting) is not counted. */
        while (c.taken < 256) {
            uint64_t r = sb_draw_below(&src, n);
            if (c.taken > 256)
                break;
            count[r]++;
        }
        unsigned b = 64 - (unsigned)__builtin_clzll(n - 1);
        for (uint64_t r = 0; r < n; r++)
            assert_int_equal(count[r], 1u << (8 - b));
    }
}

static void word_bits_take_high_bits(void **state)
{
    (void)state;
    counter c = { { 8, counter_next, 0 }, 0, 0 };
    sb_src src;
    sb_src_from_words(&src, &c.ws);
    unsigned count[8] = { 0 };
    for (int i = 0; i < 256; i++)
        count[sb_draw_bits(&src, 3)]++;
    for (int v = 0; v < 8; v++)
        assert_int_equal(count[v], 32);
    /* 0xAB then 0xAC: 12 bits = 8 bits of the first word, then the top
       4 bits of the second. */
    c.next_word = 0xAB;
    assert_int_equal(sb_draw_bits(&src, 12), 0xABA);
}

static void word_weighted_is_exact(void **state)
{
    (void)state;
    /* Weights 3, 1, 4 sum to 8: below(8) takes the top 3 bits of each of
       the 256 words, so indices come up 3 x 32, 1 x 32 and 4 x 32 times. */
    counter c = { { 8, counter_next, 0 }, 0, 0 };
    sb_src src;
    sb_src_from_words(&src, &c.ws);
    const uint64_t w[3] = { 3, 1, 4 };
    unsigned count[3] = { 0 };
    for (int i = 0; i < 256; i++)
        count[sb_draw_weighted(&src, w, 3)]++;
    assert_int_equal(count[0], 96);
    assert_int_equal(count[1], 32);
    assert_int_equal(count[2], 128);
}

/* Blackman and Vigna's reference xoshiro256starstar.c from state {1,2,3,4}
   gives 11520, 0, 1509978240, 1215971899390074240 (recomputed
   independently in Python when this test was written). */
static void xoshiro_check_values(void **state)
{
    (void)state;
    uint64_t s[4] = { 1, 2, 3, 4 };
    assert_true(sb_xoshiro_next(s) == 11520u);
    assert_true(sb_xoshiro_next(s) == 0u);
    assert_true(sb_xoshiro_next(s) == 1509978240u);
    assert_true(sb_xoshiro_next(s) == 1215971899390074240u);
}

static void fast_streams_are_random_access(void **state)
{
    (void)state;
    sb_rng *rng;
    assert_int_equal(sb_rng_open(&rng, SB_RNG_DEFAULT, 42), SB_OK);
    assert_true(sb_rng_random_access(rng));
    sb_src a, b, c;
    /* Chunk 7 asked for first and again later gives the same stream. */
    assert_int_equal(sb_rng_chunk(rng, 7, &a), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 3, &c), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 7, &b), SB_OK);
    int same_as_other_chunk = 1;
    for (int i = 0; i < 100; i++) {
        uint64_t x = sb_draw_bits(&a, 64);
        assert_true(x == sb_draw_bits(&b, 64));
        same_as_other_chunk &= x == sb_draw_bits(&c, 64);
    }
    assert_false(same_as_other_chunk);
    sb_rng_close(rng);
    /* A different seed gives a different chunk 7. */
    sb_src d;
    sb_src_fast(&d, 43, 7);
    sb_src_fast(&a, 42, 7);
    assert_true(sb_draw_bits(&a, 64) != sb_draw_bits(&d, 64));
}

static void fast_draws_stay_in_range(void **state)
{
    (void)state;
    sb_src src;
    sb_src_fast(&src, 1, 0);
    const uint64_t ns[] = { 1, 2, 3, 52, 1000, ((uint64_t)1 << 63) + 1 };
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int i = 0; i < 1000; i++)
            assert_true(sb_draw_below(&src, ns[k]) < ns[k]);
    for (int i = 0; i < 1000; i++) {
        double u = sb_draw_unit(&src);
        assert_true(u >= 0 && u < 1);
        assert_true(sb_draw_bits(&src, 5) < 32);
    }
    assert_int_equal(sb_draw_bits(&src, 0), 0);
    assert_int_equal(sb_src_error(&src), SB_OK);
}

/* The classic C library rand() seeded with 1 (srand(1)) starts
   41, 18467, 6334, 26500 (Microsoft C runtime; the same LCG constants). */
static void rand15_check_values(void **state)
{
    (void)state;
    sb_rng *rng;
    sb_src src;
    assert_int_equal(sb_rng_open(&rng, "rand15", 1), SB_OK);
    assert_true(sb_rng_random_access(rng));
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    assert_int_equal(sb_draw_bits(&src, 15), 41);
    assert_int_equal(sb_draw_bits(&src, 15), 18467);
    assert_int_equal(sb_draw_bits(&src, 15), 6334);
    assert_int_equal(sb_draw_bits(&src, 15), 26500);
    /* Random access by jump-ahead within the run's chunks: one chunk
       until told otherwise, then any of them in any order, chunk 0
       always the stream from srand(1). */
    assert_int_equal(sb_rng_chunk(rng, 5, &src), SB_EINVAL);
    sb_rng_set_chunks(rng, 8);
    assert_int_equal(sb_rng_chunk(rng, 5, &src), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 1, &src), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    assert_int_equal(sb_draw_bits(&src, 15), 41);
    sb_rng_close(rng);
}

/* rand() % k with arguments a plug-in may get wrong: a rand() of 0 or 64
   bits or more (which would shift past the word when the weights are
   made), k = 0, k above 2^bits.  Each gives 0 and SB_EINVAL in the
   source, on the fast generator and on a source that takes the weights
   (GSL's); the edges that are right (k = 1, k = 2^bits, 63 bits) do not. */
static void rand_mod_refuses_bad_arguments(void **state)
{
    (void)state;
    static const struct { unsigned bits; uint64_t k; int ok; } cases[] = {
        { 64, 3, 0 }, { 200, 3, 0 }, { 0, 1, 0 }, { 15, 0, 0 },
        { 1, 3, 0 }, { 15, 32769, 0 }, { 15, 1, 1 }, { 15, 32768, 1 },
        { 63, 255, 1 }, { 2, 4, 1 },
    };
    sb_rng *rng;
    assert_int_equal(sb_rng_open(&rng, "mt19937", 5), SB_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_src fast, gsl;
        sb_src_fast(&fast, 1, 0);
        assert_int_equal(sb_rng_chunk(rng, i, &gsl), SB_OK);
        for (int s = 0; s < 2; s++) {
            sb_src *src = s ? &gsl : &fast;
            const uint64_t v = sb_draw_rand_mod(src, cases[i].bits,
                                                cases[i].k);
            assert_int_equal(sb_src_error(src),
                             cases[i].ok ? SB_OK : SB_EINVAL);
            if (cases[i].ok)
                assert_true(v < cases[i].k);
            else
                assert_int_equal(v, 0);
        }
        assert_int_equal(sb_rand_mod_valid(cases[i].bits, cases[i].k),
                         cases[i].ok);
    }
    sb_rng_close(rng);
    /* The weights of a bad call are 0, never a shift past the word. */
    assert_int_equal(sb_rand_mod_weight(64, 3, 0), 0);
    assert_int_equal(sb_rand_mod_weight(15, 3, 0), 10923);
}

/* rand() % k when sampling: the rand() value drawn and reduced, nothing
   else.  Exhaustively, on a word source that hands out every 15-bit value
   once (0, 1, ..., 32767 in turn): residue r of k comes up exactly
   sb_rand_mod_weight(15, k, r) times - the law exact mode walks - and
   each draw is the word % k itself, one word per draw. */
static void rand_mod_sampling_is_the_value_reduced(void **state)
{
    (void)state;
    static unsigned count[32768];
    const uint64_t ks[] = { 2, 3, 7, 52, 255, 256, 257, 1000, 32767, 32768 };
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        const uint64_t k = ks[i];
        counter c = { { 15, counter_next, 0 }, 0, 0 };
        sb_src src;
        sb_src_from_words(&src, &c.ws);
        memset(count, 0, sizeof count);
        for (uint64_t x = 0; x < 32768; x++) {
            const uint64_t r = sb_draw_rand_mod(&src, 15, k);
            assert_true(r == x % k);
            assert_true(c.taken == x + 1);
            count[r]++;
        }
        for (uint64_t r = 0; r < k; r++)
            assert_int_equal(count[r], sb_rand_mod_weight(15, k, r));
        assert_int_equal(sb_src_error(&src), SB_OK);
    }
    /* k = 1 takes no word. */
    counter c = { { 15, counter_next, 0 }, 0, 0 };
    sb_src src;
    sb_src_from_words(&src, &c.ws);
    assert_int_equal(sb_draw_rand_mod(&src, 15, 1), 0);
    assert_int_equal(c.taken, 0);
}

/* On the fast generator, the exported draw and the inlined one (what the
   built-in shuffles call) are both the high 'bits' bits of the next word,
   reduced % k, as a reference written here computes them from a copy of
   the same state: for rand() widths that take the 32-bit division and
   those that do not. */
static void rand_mod_fast_is_the_high_bits_reduced(void **state)
{
    (void)state;
    const struct { unsigned bits; uint64_t k; } cases[] = {
        { 15, 2 }, { 15, 52 }, { 15, 32768 }, { 31, 1000003 },
        { 32, (uint64_t)1 << 32 }, { 32, 4294967295u }, { 33, 3 },
        { 63, ((uint64_t)1 << 62) + 7 }, { 1, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const unsigned bits = cases[i].bits;
        const uint64_t k = cases[i].k;
        sb_src a, b;
        sb_src_fast(&a, 9, i);
        sb_src_fast(&b, 9, i);
        uint64_t ref[4];
        memcpy(ref, a.s, sizeof ref);
        for (int t = 0; t < 1000; t++) {
            const uint64_t want = (sb_xoshiro_next(ref) >> (64 - bits)) % k;
            assert_true(sb_draw_rand_mod(&a, bits, k) == want);
            assert_true(sb_inline_rand_mod(&b, bits, k) == want);
        }
        assert_int_equal(sb_src_error(&a), SB_OK);
        assert_int_equal(sb_src_error(&b), SB_OK);
    }
    /* k = 1: no word, on either. */
    sb_src a, b;
    sb_src_fast(&a, 9, 0);
    b = a;
    assert_int_equal(sb_inline_rand_mod(&a, 15, 1), 0);
    assert_int_equal(sb_draw_rand_mod(&a, 15, 1), 0);
    assert_true(sb_draw_bits(&a, 64) == sb_draw_bits(&b, 64));
}

/* On the rand15 source, rand() % k is the C program's own: its rand()
   value (the LCG of rand15_check_values, recomputed here) % k. */
static void rand_mod_on_rand15_is_the_idiom(void **state)
{
    (void)state;
    sb_rng *rng;
    sb_src src;
    assert_int_equal(sb_rng_open(&rng, "rand15", 1), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    uint32_t lcg = 1;
    for (uint64_t i = 0; i < 5000; i++) {
        lcg = lcg * 214013u + 2531011u;
        const uint64_t k = 2 + i % 51;
        assert_true(sb_draw_rand_mod(&src, 15, k)
                    == ((lcg >> 16) & 0x7fffu) % k);
    }
    sb_rng_close(rng);
}

/* A source that walks branches (rand_mod set to sb_rand_mod_weighted, as
   exact mode's is) is asked for one weighted draw of k branches with the
   weights of the law above, up to SB_RAND_MOD_WEIGHTS; above it, for the
   rand() value. */
typedef struct seen {
    uint64_t w[SB_RAND_MOD_WEIGHTS];
    size_t m;
    unsigned bits, weighted, bitsed;
} seen;

static uint64_t seen_below(sb_src *s, uint64_t n)
{
    (void)s;
    (void)n;
    fail();
    return 0;
}
static uint64_t seen_bits(sb_src *s, unsigned k)
{
    seen *v = s->impl;
    v->bits = k;
    v->bitsed++;
    return ((uint64_t)1 << k) - 1;      /* the last value */
}
static size_t seen_weighted(sb_src *s, const uint64_t *w, size_t m)
{
    seen *v = s->impl;
    assert_true(m <= SB_RAND_MOD_WEIGHTS);
    memcpy(v->w, w, m * sizeof *w);
    v->m = m;
    v->weighted++;
    return m - 1;                       /* the last branch */
}
static double seen_unit(sb_src *s) { (void)s; fail(); return 0; }
static const sb_src_ops seen_ops = { seen_below, seen_bits, seen_weighted,
                                     seen_unit, NULL, sb_rand_mod_weighted };

static void rand_mod_walked_with_its_weights(void **state)
{
    (void)state;
    for (uint64_t k = 2; k <= SB_RAND_MOD_WEIGHTS + 1; k++) {
        seen v = { .m = 0 };
        sb_src src = { .ops = &seen_ops, .impl = &v };
        const uint64_t r = sb_draw_rand_mod(&src, 15, k);
        const uint64_t ri = sb_inline_rand_mod(&src, 15, k);
        if (k <= SB_RAND_MOD_WEIGHTS) {
            assert_int_equal(v.weighted, 2);
            assert_int_equal(v.bitsed, 0);
            assert_int_equal(v.m, k);
            assert_true(r == k - 1 && ri == k - 1);
            uint64_t total = 0;
            for (uint64_t j = 0; j < k; j++) {
                assert_int_equal(v.w[j], sb_rand_mod_weight(15, k, j));
                total += v.w[j];
            }
            assert_int_equal(total, 32768);
        } else {
            assert_int_equal(v.weighted, 0);
            assert_int_equal(v.bitsed, 2);
            assert_int_equal(v.bits, 15);
            assert_true(r == 32767 % k && ri == r);
        }
    }
}

/* A GSL backend is GSL's own stream: the words are gsl_rng_get's outputs
   (mt19937 covers exactly 32 bits, so nothing is rejected). */
static void gsl_backend_is_gsl_stream(void **state)
{
    (void)state;
    sb_rng *rng;
    sb_src src;
    assert_int_equal(sb_rng_open(&rng, "mt19937", 5), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    gsl_rng *ref = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(ref, 5);
    for (int i = 0; i < 10; i++)
        assert_true(sb_draw_bits(&src, 32) == gsl_rng_get(ref));
    gsl_rng_free(ref);
    sb_rng_close(rng);
    /* ranlux has 24-bit outputs: words are 24 bits wide, draws still fit. */
    assert_int_equal(sb_rng_open(&rng, "ranlux", 5), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    for (int i = 0; i < 100; i++)
        assert_true(sb_draw_below(&src, 52) < 52);
    sb_rng_close(rng);
}

/* minstd's outputs are 1 .. 2^31 - 2: words are the 30 low bits of
   output - 1, outputs past 2^30 redrawn; draws stay in range and the stream
   is reproducible from its seed. */
static void gsl_odd_range_words(void **state)
{
    (void)state;
    uint64_t first[2][50];
    for (int k = 0; k < 2; k++) {
        sb_rng *rng;
        sb_src src;
        assert_int_equal(sb_rng_open(&rng, "minstd", 77), SB_OK);
        assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
        unsigned bits;
        assert_int_equal(sb_rng_seed_used(rng, &bits), 77);
        assert_int_equal(bits, 32);
        for (int i = 0; i < 50; i++) {
            first[k][i] = sb_draw_below(&src, 52);
            assert_true(first[k][i] < 52);
            assert_true(sb_draw_bits(&src, 30) < ((uint64_t)1 << 30));
        }
        assert_int_equal(sb_src_error(&src), SB_OK);
        sb_rng_close(rng);
    }
    assert_memory_equal(first[0], first[1], sizeof first[0]);
    /* Seeded with a multiple of its modulus, minstd is stuck at 0. */
    sb_rng *rng;
    assert_int_equal(sb_rng_open(&rng, "minstd", 2147483647), SB_ERANGE);
}

/* A word source that stops varying ends a draw with an error instead of
   looping: every word here is above what below(3) can accept. */
static uint64_t all_ones(sb_word_source *ws)
{
    return ((uint64_t)1 << ws->width) - 1;
}

static void stuck_words_end_with_an_error(void **state)
{
    (void)state;
    sb_word_source ws = { 8, all_ones, 0 };
    sb_src src;
    sb_src_from_words(&src, &ws);
    sb_draw_below(&src, 3);
    assert_int_equal(sb_src_error(&src), SB_ERANGE);
}

/* reseed32:NAME re-seeds NAME with a fresh 32-bit seed before every
   sample: each sample's draws are NAME's stream from that seed alone, so
   at most 2^32 different samples can ever appear. */
static void reseed32_restarts_the_generator_every_sample(void **state)
{
    (void)state;
    uint32_t seeds[2][20];
    for (int k = 0; k < 2; k++) {
        sb_rng *rng;
        sb_src src;
        assert_int_equal(sb_rng_open(&rng, "reseed32:mt19937", 9), SB_OK);
        assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
        assert_non_null(sb_src_gsl_rng(&src));
        gsl_rng *ref = gsl_rng_alloc(gsl_rng_mt19937);
        for (int s = 0; s < 20; s++) {
            sb_src_begin_sample(&src);
            seeds[k][s] = sb_rng_last_reseed(rng);
            gsl_rng_set(ref, seeds[k][s]);
            for (int i = 0; i < 5; i++)
                assert_true(sb_draw_bits(&src, 32) == gsl_rng_get(ref));
        }
        gsl_rng_free(ref);
        sb_rng_close(rng);
    }
    /* The seeds come from the run's seed: the same run, the same seeds. */
    assert_memory_equal(seeds[0], seeds[1], sizeof seeds[0]);
    /* ... and they vary: 20 equal seeds from a fair 32-bit source has
       probability 2^-608. */
    int varied = 0;
    for (int s = 1; s < 20; s++)
        varied |= seeds[0][s] != seeds[0][0];
    assert_true(varied);

    /* With the fast generator inside, a sample is the stream of its seed. */
    sb_rng *rng;
    sb_src src, ref;
    assert_int_equal(sb_rng_open(&rng, "reseed32:xoshiro256", 3), SB_OK);
    assert_int_equal(sb_rng_chunk(rng, 0, &src), SB_OK);
    assert_null(sb_src_gsl_rng(&src));
    for (int s = 0; s < 5; s++) {
        sb_src_begin_sample(&src);
        sb_src_fast(&ref, sb_rng_last_reseed(rng), 0);
        for (int i = 0; i < 5; i++)
            assert_true(sb_draw_below(&src, 1000003)
                        == sb_draw_below(&ref, 1000003));
    }
    sb_rng_close(rng);
    assert_int_equal(sb_rng_open(&rng, "reseed32:nope", 1), SB_ENOTFOUND);
    assert_int_equal(sb_rng_open(&rng, "reseed32:reseed32:mt19937", 1),
                     SB_ENOTFOUND);
}

/* ---- batched draws for falling bounds (sb_below_falling) ---------------- */

/* Every word of 'width' bits once through one batch of k bounds hi,
   hi - d, ..., hi - (k - 1) d (stride d: 1 for a plain batch, 2 for a
   chain of a pair), with 'cap' as the point below which the exact check
   is made: each of the P tuples of indices must come up exactly
   floor(2^width / P) times, and the other 2^width mod P words be
   rejected.  'count' has P cells. */
static void walk_batch(uint64_t hi, unsigned k, unsigned d, unsigned width,
                       uint64_t cap, unsigned *count)
{
    uint64_t p = 1;
    for (unsigned t = 0; t < k; t++)
        p *= hi - (uint64_t)t * d;
    memset(count, 0, p * sizeof *count);
    uint64_t kept = 0;
    for (uint64_t w = 0; w < (uint64_t)1 << width; w++) {
        uint64_t x = w, tuple = 0;
        for (unsigned t = 0; t < k; t++) {
            const uint64_t b = hi - (uint64_t)t * d;
            const uint64_t j = sb_batch_take(&x, b, width);
            assert_true(j < b);
            tuple = tuple * b + j;
        }
        const int keep = d == 1 ? sb_batch_keep(x, hi, k, width, cap)
                                : sb_batch_keep_stride(x, hi, k, d, width,
                                                       cap);
        if (keep) {
            count[tuple]++;
            kept++;
        }
    }
    const uint64_t words = (uint64_t)1 << width;
    assert_true(kept == words - words % p);
    for (uint64_t i = 0; i < p; i++)
        assert_int_equal(count[i], words / p);
}

/* The batch is Lemire's method on the product P, so it is exactly
   uniform: walked on 16-bit words for every batch of up to 8 bounds whose
   product fits (k = 1 up to bound 256), plain and with stride 2 (a chain
   of a pair), and on 20-bit words for 9 bounds (9! = 362880, and 17 15
   ... 1 = 34459425 would not fit: 9 bounds of stride 2 are walked on 20
   bits as 9 7 5 ... over 17 15 13 11, see below), each with the tightest
   cap (P) and one that always makes the exact check (2^width). */
static void batch_is_exactly_uniform(void **state)
{
    (void)state;
    unsigned *count = malloc(((size_t)1 << 20) * sizeof *count);
    assert_non_null(count);
    for (unsigned d = 1; d <= 2; d++)
        for (unsigned k = 1; k <= 8; k++)
            for (uint64_t hi = (uint64_t)(k - 1) * d + 1; hi <= 256; hi++) {
                uint64_t p = 1;
                for (unsigned t = 0; t < k; t++)
                    p *= hi - (uint64_t)t * d;
                if (p > (uint64_t)1 << 16)
                    break;
                walk_batch(hi, k, d, 16, p, count);
                walk_batch(hi, k, d, 16, (uint64_t)1 << 16, count);
            }
    walk_batch(9, 9, 1, 20, 362880, count);
    walk_batch(9, 9, 1, 20, (uint64_t)1 << 20, count);
    /* 17 15 13 11 = 36465 and 9 7 5 3 1 = 945, on 20 bits. */
    walk_batch(17, 4, 2, 20, 36465, count);
    walk_batch(9, 5, 2, 20, 945, count);
    walk_batch(9, 5, 2, 20, (uint64_t)1 << 20, count);
    free(count);
}

/* The batch sizes keep every product within SB_BATCH_CAP, the cap the
   fast path checks against (a cap below P would keep words that must be
   rejected).  Checked for every bound up to 2^20 and at the top of each
   size beyond (a product of k falling bounds grows with its first), for a
   plain batch and for the two chains of a pair (stride 2, its second
   chain from hi - 1), whose products are smaller still. */
static void batch_sizes_keep_products_under_the_cap(void **state)
{
    (void)state;
    uint64_t tops[] = { (uint64_t)1 << 18, ((uint64_t)1 << 18) + 1,
                        (uint64_t)1 << 27, ((uint64_t)1 << 27) + 1,
                        (uint64_t)1 << 40, ~(uint64_t)0 };
    for (uint64_t i = 0; i < ((uint64_t)1 << 20) + 6; i++) {
        const uint64_t top = (uint64_t)1 << 20;
        const uint64_t hi = i < top ? i + 1 : tops[i - top];
        const unsigned size = sb_batch_size(hi);
        assert_true(size >= 1 && size <= SB_BATCH_MAX);
        if (size == 1)
            continue;
        const unsigned k = hi < size ? (unsigned)hi : size;
        uint64_t p = 1;
        for (unsigned t = 0; t < k; t++)
            assert_false(__builtin_mul_overflow(p, hi - t, &p));
        assert_true(p <= SB_BATCH_CAP);
        /* The chains of a pair: up to 'size' bounds of stride 2 from hi
           and from hi - 1. */
        for (uint64_t c = 0; c < 2 && c < hi; c++) {
            uint64_t q = 1;
            for (uint64_t t = 0; t < size && c + 2 * t < hi; t++)
                assert_false(__builtin_mul_overflow(q, hi - c - 2 * t, &q));
            assert_true(q <= SB_BATCH_CAP);
        }
    }
    assert_int_equal(sb_batch_size(64), 9);
    assert_int_equal(sb_batch_size(65), 6);
    assert_int_equal(sb_batch_size(((uint64_t)1 << 27) + 1), 1);
}

/* The steps a falling loop takes, kept as a stack: undo must take back
   the last step with the same arguments. */
#define TAPE_MAX 2048
typedef struct tape {
    size_t len, steps, undos;
    uint64_t b[TAPE_MAX], j[TAPE_MAX];
} tape;

static void tape_step(void *ctx, uint64_t b, uint64_t j)
{
    tape *t = ctx;
    assert_true(t->len < TAPE_MAX);
    assert_true(j < b);
    t->b[t->len] = b;
    t->j[t->len++] = j;
    t->steps++;
}

static void tape_undo(void *ctx, uint64_t b, uint64_t j)
{
    tape *t = ctx;
    assert_true(t->len > 0);
    t->len--;
    assert_true(t->b[t->len] == b && t->j[t->len] == j);
    t->undos++;
}

/* On a source with 'ops' (here the generic word source, as under every
   GSL and weak generator) the loop is one below() per step, in order:
   the same indices, the same words taken, and nothing undone. */
static void falling_elsewhere_is_one_below_per_step(void **state)
{
    (void)state;
    const uint64_t his[] = { 1, 2, 7, 52, 200 };
    for (size_t h = 0; h < sizeof his / sizeof his[0]; h++) {
        const uint64_t hi = his[h];
        counter c1 = { { 8, counter_next, 0 }, 3, 0 };
        counter c2 = { { 8, counter_next, 0 }, 3, 0 };
        sb_src s1, s2;
        sb_src_from_words(&s1, &c1.ws);
        sb_src_from_words(&s2, &c2.ws);
        static tape t;
        memset(&t, 0, sizeof t);
        sb_below_falling(&s1, hi, hi, tape_step, tape_undo, &t);
        assert_int_equal(t.len, hi);
        assert_int_equal(t.undos, 0);
        for (uint64_t i = 0; i < hi; i++) {
            assert_true(t.b[i] == hi - i);
            assert_true(t.j[i] == sb_draw_below(&s2, hi - i));
        }
        assert_true(c1.taken == c2.taken);
        /* The exported form (for plug-ins) is the same loop. */
        memset(&t, 0, sizeof t);
        c1.next_word = c2.next_word = 3;
        sb_draw_below_falling(&s1, hi, hi, tape_step, tape_undo, &t);
        for (uint64_t i = 0; i < hi; i++)
            assert_true(t.j[i] == sb_draw_below(&s2, hi - i));
    }
}

/* One chain computed another way: the k bounds hi, hi - d, ..., the word
   x stands when x P mod 2^64 >= 2^64 mod P, and the indices are the
   mixed-radix digits of floor(x P / 2^64), the first bound's the most
   significant, written to j[0], j[d], j[2 d], ...  Returns whether x
   stands. */
static int reference_chain(uint64_t x, uint64_t hi, unsigned k, unsigned d,
                           uint64_t *j)
{
    uint64_t p = 1;
    for (unsigned t = 0; t < k; t++)
        p *= hi - (uint64_t)t * d;
    const uint64_t rem = (uint64_t)(((sb_u128)1 << 64) % p);
    const sb_u128 xp = (sb_u128)x * p;
    if ((uint64_t)xp < rem)
        return 0;
    uint64_t digits = (uint64_t)(xp >> 64);
    for (unsigned t = k; t-- > 0;) {
        const uint64_t b = hi - (uint64_t)t * d;
        j[(size_t)t * d] = digits % b;
        digits /= b;
    }
    return 1;
}

/* The fast path's draws computed another way.  With s = sb_batch_size(hi)
   and c bounds left: when c <= s, the c bounds are one chain (stride 1)
   drawn from words until one stands.  Otherwise the next K = min(c, 2 s)
   bounds are a pair: a word a for the ceil(K / 2) bounds hi, hi - 2, ...
   and a word b for the floor(K / 2) bounds hi - 1, hi - 3, ..., then in
   rounds, while either does not stand, a new word for a if it does not,
   then a new word for b if it does not.  Writes 'count' indices to j and
   leaves 's' where the draws left it. */
static void reference_falling(uint64_t s[4], uint64_t hi, uint64_t count,
                              uint64_t *j)
{
    while (count > 0) {
        const unsigned size = sb_batch_size(hi);
        if (count <= size) {
            while (!reference_chain(sb_xoshiro_next(s), hi, (unsigned)count,
                                    1, j))
                ;
            return;
        }
        const unsigned kk = count < 2 * size ? (unsigned)count : 2 * size;
        uint64_t a = sb_xoshiro_next(s), b = sb_xoshiro_next(s);
        for (;;) {
            const int oka = reference_chain(a, hi, kk - kk / 2, 2, j);
            const int okb = reference_chain(b, hi - 1, kk / 2, 2, j + 1);
            if (oka && okb)
                break;
            if (!oka)
                a = sb_xoshiro_next(s);
            if (!okb)
                b = sb_xoshiro_next(s);
        }
        j += kk;
        hi -= kk;
        count -= kk;
    }
}

/* One falling loop on the fast generator against the reference: the steps
   that stand are the reference's indices, and the generator ends in the
   same state.  Returns the steps undone. */
static size_t check_fast_falling(sb_src *src, uint64_t hi, uint64_t count)
{
    static tape t;
    static uint64_t want[TAPE_MAX];
    memset(&t, 0, sizeof t);
    uint64_t ref[4];
    memcpy(ref, src->s, sizeof ref);
    reference_falling(ref, hi, count, want);
    sb_below_falling(src, hi, count, tape_step, tape_undo, &t);
    assert_true(t.len == count);
    for (uint64_t i = 0; i < count; i++) {
        assert_true(t.b[i] == hi - i);
        assert_true(t.j[i] == want[i]);
    }
    assert_memory_equal(src->s, ref, sizeof ref);
    return t.undos;
}

/* On the fast generator: batches of every size (9 bounds up to 64, 6 up
   to 512, 4, 3, 2, then 1), pairs of them, runs that end inside a batch
   or a pair, and bounds just over 2^63, where Lemire's method rejects
   about one word in two, so that undone steps (either chain of a pair, or
   both) happen all along the run.  Then words forced to be rejected:
   xoshiro256**'s output is rotl(5 s[1], 7) * 9, so s[1] = 0 makes the
   next word 0, whose final low part 0 is below 2^64 mod P for any P that
   is not a power of two.  At 52 bounds the first word is the first
   chain's of a pair, so the pair's 18 steps must be undone, first at the
   start of a run, then in its middle; at 9 bounds it is a lone batch's,
   whose 9 steps must be undone. */
static void falling_fast_path_is_the_batched_stream(void **state)
{
    (void)state;
    sb_src src;
    sb_src_fast(&src, 11, 0);
    const uint64_t runs[][2] = {
        { 52, 51 }, { 1000, 999 }, { 3, 2 }, { 2, 1 }, { 1, 1 }, { 64, 64 },
        { 65, 10 }, { 600, 20 }, { 9000, 8 }, { 300000, 7 },
        { ((uint64_t)1 << 28), 3 },
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        check_fast_falling(&src, runs[r][0], runs[r][1]);
    /* For 2^63 < b < 2^64, 2^64 mod b = 2^64 - b, so a word is rejected
       with probability (2^64 - b) / 2^64 ~ 1/2 for every one of the bounds
       2^63 + 300 down to 2^63 + 1 (below 2^63 it would be ~0): no step
       undone in these 300 draws would have probability about 2^-300. */
    assert_true(check_fast_falling(&src, ((uint64_t)1 << 63) + 300, 300) > 0);

    src.s[1] = 0;
    assert_int_equal(check_fast_falling(&src, 52, 51), 18);
    check_fast_falling(&src, 52, 9);
    src.s[1] = 0;
    assert_int_equal(check_fast_falling(&src, 43, 42), 18);
    src.s[1] = 0;
    assert_int_equal(check_fast_falling(&src, 52, 9), 9);
    assert_int_equal(sb_src_error(&src), SB_OK);
}

static void unknown_source_is_refused(void **state)
{
    (void)state;
    sb_rng *rng;
    assert_int_equal(sb_rng_open(&rng, "mt19973", 1), SB_ENOTFOUND);
    assert_null(rng);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lemire_is_exactly_unbiased),
        cmocka_unit_test(lemire_full_width_edges),
        cmocka_unit_test(word_below_is_exactly_unbiased),
        cmocka_unit_test(word_bits_take_high_bits),
        cmocka_unit_test(word_weighted_is_exact),
        cmocka_unit_test(xoshiro_check_values),
        cmocka_unit_test(fast_streams_are_random_access),
        cmocka_unit_test(fast_draws_stay_in_range),
        cmocka_unit_test(rand15_check_values),
        cmocka_unit_test(gsl_backend_is_gsl_stream),
        cmocka_unit_test(gsl_odd_range_words),
        cmocka_unit_test(stuck_words_end_with_an_error),
        cmocka_unit_test(reseed32_restarts_the_generator_every_sample),
        cmocka_unit_test(batch_is_exactly_uniform),
        cmocka_unit_test(batch_sizes_keep_products_under_the_cap),
        cmocka_unit_test(falling_elsewhere_is_one_below_per_step),
        cmocka_unit_test(falling_fast_path_is_the_batched_stream),
        cmocka_unit_test(unknown_source_is_refused),
        cmocka_unit_test(rand_mod_refuses_bad_arguments),
        cmocka_unit_test(rand_mod_sampling_is_the_value_reduced),
        cmocka_unit_test(rand_mod_fast_is_the_high_bits_reduced),
        cmocka_unit_test(rand_mod_on_rand15_is_the_idiom),
        cmocka_unit_test(rand_mod_walked_with_its_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
