/*
 * test_rng_jump.c - random access by jump-ahead, cursors, and saving a
 * sequential stream's place (src/base/rng.h).
 *
 * Every jump-ahead backend is checked against the generator itself run in
 * sequence: GSL's own gsl_rng_get on an independently allocated and seeded
 * generator, or, for rand15 and lcg32, the recurrence written again here.
 * Offsets too far to step are checked against the recurrence of 'models'
 * below (written from each generator's GSL source and documentation, not
 * taken from the library) started from the jumped state, and the jump
 * itself by composition: jump(a + b) = jump(b) after jump(a).
 */
#include "tests/sb_test.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "shufflebias/rng.h"
#include "shufflebias/status.h"
#include "base/rng.h"

/* Each jump-ahead generator as its documentation states it: x -> a x + c
   (mod m), output (x >> shift) & mask, and the period P of the states
   the seeds below give (odd mod 2^w, non-zero mod a prime): 2^w for a
   full-period mixed LCG (Knuth vol. 2, 3.2.1.2, Theorem A), 2^(w-2) for
   a = 3 or 5 mod 8 and an odd state (Theorem 3.2.1.2B), m - 1 for a
   primitive root of a prime m. */
static const struct model {
    const char *name;
    uint64_t a, c, m;
    unsigned shift;
    uint64_t mask, period;
} models[] = {
    { "rand15", 214013, 2531011, 1ull << 32, 16, 0x7fff, 1ull << 32 },
    { "lcg32", 1664525, 1013904223, 1ull << 32, 0, ~0ull, 1ull << 32 },
    { "borosh13", 1812433253, 0, 1ull << 32, 0, ~0ull, 1ull << 30 },
    { "fishman18", 62089911, 0, 2147483647, 0, ~0ull, 2147483646 },
    { "fishman20", 48271, 0, 2147483647, 0, ~0ull, 2147483646 },
    { "lecuyer21", 40692, 0, 2147483399, 0, ~0ull, 2147483398 },
    { "minstd", 16807, 0, 2147483647, 0, ~0ull, 2147483646 },
    { "ran0", 16807, 0, 2147483647, 0, ~0ull, 2147483646 },
    { "rand", 1103515245, 12345, 1ull << 31, 0, ~0ull, 1ull << 31 },
    { "rand48", 0x5DEECE66Dull, 11, 1ull << 48, 16, ~0ull, 1ull << 48 },
    { "randu", 65539, 0, 1ull << 31, 0, ~0ull, 1ull << 29 },
    { "ranf", 0x2875A2E7B175ull, 0, 1ull << 48, 16, ~0ull, 1ull << 46 },
    { "slatec", 3146757, 1731, 1ull << 22, 0, ~0ull, 1ull << 22 },
    { "transputer", 1664525, 0, 1ull << 32, 0, ~0ull, 1ull << 30 },
    { "vax", 69069, 1, 1ull << 32, 0, ~0ull, 1ull << 32 },
    { "waterman14", 1566083941, 0, 1ull << 32, 0, ~0ull, 1ull << 30 },
    { "random8-bsd", 1103515245, 12345, 1ull << 31, 0, ~0ull, 1ull << 31 },
    { "random8-glibc2", 1103515245, 12345, 1ull << 31, 0, ~0ull,
      1ull << 31 },
    { "random8-libc5", 1103515245, 12345, 1ull << 31, 0, ~0ull,
      1ull << 31 },
};
#define N_MODELS (sizeof models / sizeof models[0])

/* Odd seeds: the states they give have the periods of 'models'. */
static const uint64_t odd_seeds[] = { 1, 77, 0xdeadbeef };

static const gsl_rng_type *gsl_type(const char *name)
{
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++)
        if (strcmp((*t)->name, name) == 0)
            return *t;
    return NULL;
}

static uint64_t model_step(const struct model *md, uint64_t x)
{
    return (uint64_t)(((unsigned __int128)md->a * x + md->c) % md->m);
}

/* A generator run in sequence, with the backend's words: outputs minus
   the minimum, those at or above 2^width redrawn. */
typedef struct ref {
    const struct model *md;
    gsl_rng *g;          /* GSL's own, or NULL: the model's recurrence */
    uint64_t x;          /* the model's state when g is NULL */
    unsigned long min, limit;
    unsigned width;
} ref;

static uint64_t ref_output(ref *r)
{
    if (r->g)
        return gsl_rng_get(r->g);
    r->x = model_step(r->md, r->x);
    return (r->x >> r->md->shift) & r->md->mask;
}

static uint64_t ref_word(ref *r)
{
    uint64_t x;
    do
        x = ref_output(r) - r->min;
    while (r->limit && x >= r->limit);
    return x;
}

/* The sequence of 'rng' (opened as md->name with 'seed') as a program
   would step it: GSL's generator seeded as the backend seeds it, or
   rand15 and lcg32 seeded with the seed's low 32 bits; when 'model' is
   set, the model's recurrence from the state 'x' instead. */
static void ref_open(ref *r, const struct model *md, const sb_rng *rng,
                     int model, uint64_t x)
{
    memset(r, 0, sizeof *r);
    r->md = md;
    unsigned bits;
    const uint64_t seed = sb_rng_seed_used(rng, &bits);
    const gsl_rng_type *t = gsl_type(md->name);
    if (t) {
        gsl_rng *g = gsl_rng_alloc(t);
        assert_non_null(g);
        gsl_rng_set(g, (unsigned long)seed);
        r->min = gsl_rng_min(g);
        const unsigned long span = gsl_rng_max(g) - r->min;
        r->width = 63 - (unsigned)__builtin_clzl(span + 1);
        r->limit = 1ul << r->width;
        if (model)
            gsl_rng_free(g);
        else
            r->g = g;
    } else {
        r->width = md->mask == 0x7fff ? 15 : 32;
    }
    r->x = model ? x : seed;
}

static void ref_close(ref *r)
{
    if (r->g)
        gsl_rng_free(r->g);
}

static const struct model *model_of(const char *name)
{
    for (size_t i = 0; i < N_MODELS; i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    return NULL;
}

/* The library's jump-ahead backends are exactly those above, and every
   one is random access with no reason to be otherwise. */
static void jumpable_table_is_the_models(void **state)
{
    (void)state;
    size_t n = 0;
    for (const char *name; (name = sb_rng_jumpable_name(n)) != NULL; n++) {
        assert_non_null(model_of(name));
        assert_true(sb_rng_name_random_access(name));
        assert_null(sb_rng_sequential_why(name));
        if (strcmp(name, "rand15") && strcmp(name, "lcg32"))
            assert_non_null(gsl_type(name));
    }
    assert_int_equal(n, N_MODELS);
}

/* Chunk k of C starts k floor(P / C) steps into the one sequence: for
   every jump-ahead backend, odd seeds, C = 1, 3, 1000 and 65536 and the
   chunks 0, 1, 2, C / 2 and C - 1, the first 50 words of the chunk are
   those of the generator stepped that far.  Offsets up to 2^21 steps are
   stepped on GSL's own generator (or our recurrence); longer ones run
   the documented recurrence from the jumped state, which checks the
   state's layout in GSL and the output. */
static void chunks_are_stretches_of_one_sequence(void **state)
{
    (void)state;
    const uint64_t cs[] = { 1, 3, 1000, 65536 };
    for (size_t i = 0; i < N_MODELS; i++)
        for (size_t s = 0; s < 3; s++)
            for (size_t ci = 0; ci < 4; ci++) {
                const struct model *md = &models[i];
                sb_rng *rng;
                assert_int_equal(sb_rng_open(&rng, md->name, odd_seeds[s]),
                                 SB_OK);
                assert_true(sb_rng_random_access(rng));
                const uint64_t c = cs[ci];
                sb_rng_set_chunks(rng, c);
                const uint64_t p = sb_rng_period(rng);
                assert_true(p == md->period);
                sb_rng_cursor *cur;
                assert_int_equal(sb_rng_cursor_open(rng, &cur), SB_OK);
                const uint64_t ks[] = { 0, 1, 2, c / 2, c - 1 };
                for (size_t j = 0; j < 5; j++) {
                    const uint64_t k = ks[j];
                    if (k >= c)
                        continue;
                    const uint64_t steps = k * (p / c);
                    const int far = steps > (1u << 21);
                    ref r;
                    ref_open(&r, md, rng, far,
                             sb_rng_jump(rng, sb_rng_start(rng), steps));
                    for (uint64_t t = 0; !far && t < steps; t++)
                        (void)ref_output(&r);
                    sb_src src;
                    assert_int_equal(sb_rng_cursor_chunk(cur, k, &src),
                                     SB_OK);
                    for (int w = 0; w < 50; w++)
                        assert_true(sb_draw_bits(&src, r.width)
                                    == ref_word(&r));
                    assert_int_equal(sb_src_error(&src), SB_OK);
                    ref_close(&r);
                }
                sb_src src;
                assert_int_equal(sb_rng_cursor_chunk(cur, c, &src),
                                 SB_EINVAL);
                sb_rng_cursor_close(cur);
                sb_rng_close(rng);
            }
}

/* The jump agrees with stepping for small k and with itself composed for
   large ones: jump(x, a + b) = jump(jump(x, a), b), a and b up to P. */
static void jumps_compose(void **state)
{
    (void)state;
    sb_src mix;
    sb_src_fast(&mix, 2024, 0);
    for (size_t i = 0; i < N_MODELS; i++) {
        const struct model *md = &models[i];
        sb_rng *rng;
        assert_int_equal(sb_rng_open(&rng, md->name, 12345), SB_OK);
        const uint64_t x0 = sb_rng_start(rng), p = sb_rng_period(rng);
        uint64_t x = x0;
        for (uint64_t k = 0; k <= 1000; k++) {
            assert_true(sb_rng_jump(rng, x0, k) == x);
            x = model_step(md, x);
        }
        for (int t = 0; t < 200; t++) {
            const uint64_t a = sb_draw_below(&mix, p);
            const uint64_t b = sb_draw_below(&mix, p);
            assert_true(sb_rng_jump(rng, x0, a + b)
                        == sb_rng_jump(rng, sb_rng_jump(rng, x0, a), b));
        }
        sb_rng_close(rng);
    }
}

static int is_prime(uint64_t n)
{
    if (n < 2)
        return 0;
    for (uint64_t q = 2; q <= n / q; q++)
        if (n % q == 0)
            return 0;
    return 1;
}

/* The period found for the seeded state is exact: P steps return to it,
   P / q steps do not for any prime q dividing P.  The odd seeds give the
   documented periods; even ones (a smaller cycle for the multiplicative
   generators mod 2^w) are checked the same way.  A prime modulus is
   prime, as the theory of m - 1 needs.  Where P <= 2^22 and the output
   is the state, GSL's own generator is stepped round the whole cycle:
   its first output comes back after exactly P steps. */
static void periods_are_exact(void **state)
{
    (void)state;
    const uint64_t seeds[] = { 1, 77, 0xdeadbeef, 2, 1u << 20, 96,
                               12345678 };
    for (size_t i = 0; i < N_MODELS; i++) {
        const struct model *md = &models[i];
        if (md->m & (md->m - 1))
            assert_true(is_prime(md->m));
        for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
            sb_rng *rng;
            const int rc = sb_rng_open(&rng, md->name, seeds[s]);
            if (rc == SB_ERANGE)
                continue;         /* a stuck state: nothing to run */
            assert_int_equal(rc, SB_OK);
            const uint64_t p = sb_rng_period(rng), x0 = sb_rng_start(rng);
            if (s < 3)
                assert_true(p == md->period);
            assert_true(p >= 1 && p <= md->m);
            assert_true(sb_rng_jump(rng, x0, p) == x0);
            uint64_t rest = p;
            for (uint64_t q = 2; rest > 1; q++) {
                if (q > rest / q)
                    q = rest;
                if (rest % q)
                    continue;
                while (rest % q == 0)
                    rest /= q;
                assert_true(sb_rng_jump(rng, x0, p / q) != x0);
            }
            const gsl_rng_type *t = gsl_type(md->name);
            if (t && md->shift == 0 && p <= (1u << 22)) {
                gsl_rng *g = gsl_rng_alloc(t);
                unsigned bits;
                gsl_rng_set(g, (unsigned long)sb_rng_seed_used(rng, &bits));
                const unsigned long first = gsl_rng_get(g);
                uint64_t n = 1;
                while (gsl_rng_get(g) != first)
                    n++;
                assert_true(n == p);
                gsl_rng_free(g);
            }
            sb_rng_close(rng);
        }
    }
}

/* ---- cursors on threads ------------------------------------------------ */

#define T_CHUNKS 64
#define T_SAMPLES 3
#define T_DRAWS 7

typedef struct job {
    sb_rng *rng;
    int first, step;           /* chunks first, first + step, ... */
    int reverse;               /* made from the last down */
    uint64_t (*out)[T_SAMPLES * T_DRAWS];
    int rc;
} job;

/* A chunk's draws: T_SAMPLES samples of T_DRAWS draws each, each sample
   begun as the runner begins one (reseed32 re-seeds there). */
static int make_chunk(sb_rng_cursor *cur, uint64_t k, uint64_t *out)
{
    sb_src src;
    int rc = sb_rng_cursor_chunk(cur, k, &src);
    for (int s = 0; s < T_SAMPLES && rc == SB_OK; s++) {
        sb_src_begin_sample(&src);
        for (int d = 0; d < T_DRAWS; d++)
            out[s * T_DRAWS + d] = sb_draw_below(&src, 1000003);
        rc = sb_src_error(&src);
    }
    return rc;
}

static void *run_job(void *arg)
{
    job *j = arg;
    sb_rng_cursor *cur;
    j->rc = sb_rng_cursor_open(j->rng, &cur);
    const int n = (T_CHUNKS - j->first + j->step - 1) / j->step;
    for (int i = 0; i < n && j->rc == SB_OK; i++) {
        const int k = j->first + j->step * (j->reverse ? n - 1 - i : i);
        j->rc = make_chunk(cur, (uint64_t)k, j->out[k]);
    }
    sb_rng_cursor_close(cur);
    return NULL;
}

/* Two cursors on one rng, on two threads, making the even chunks from
   the last down and the odd ones up, give what one cursor gives making
   them all in order; and so does one cursor jumping about. */
static void cursors_on_threads_agree(void **state)
{
    (void)state;
    const char *names[] = { "rand15", "lcg32", "minstd", "rand48", "ranf",
                            "slatec", "reseed32:mt19937", "reseed32:rand15",
                            SB_RNG_DEFAULT };
    static uint64_t one[T_CHUNKS][T_SAMPLES * T_DRAWS];
    static uint64_t two[T_CHUNKS][T_SAMPLES * T_DRAWS];
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        sb_rng *rng;
        assert_int_equal(sb_rng_open(&rng, names[n], 31337), SB_OK);
        assert_true(sb_rng_random_access(rng));
        sb_rng_set_chunks(rng, T_CHUNKS);
        job all = { rng, 0, 1, 0, one, 0 };
        run_job(&all);
        assert_int_equal(all.rc, SB_OK);
        memset(two, 0, sizeof two);
        job even = { rng, 0, 2, 1, two, 0 }, odd = { rng, 1, 2, 0, two, 0 };
        pthread_t a, b;
        assert_int_equal(pthread_create(&a, NULL, run_job, &even), 0);
        assert_int_equal(pthread_create(&b, NULL, run_job, &odd), 0);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        assert_int_equal(even.rc, SB_OK);
        assert_int_equal(odd.rc, SB_OK);
        assert_memory_equal(one, two, sizeof one);
        /* One cursor, chunks in a scrambled order (37 is prime to 64). */
        sb_rng_cursor *cur;
        assert_int_equal(sb_rng_cursor_open(rng, &cur), SB_OK);
        for (uint64_t i = 0; i < T_CHUNKS; i++) {
            const uint64_t k = i * 37 % T_CHUNKS;
            uint64_t out[T_SAMPLES * T_DRAWS];
            assert_int_equal(make_chunk(cur, k, out), SB_OK);
            assert_memory_equal(out, one[k], sizeof out);
        }
        sb_rng_cursor_close(cur);
        /* Neighbouring chunks differ (equal draws below 1000003 in 21
           draws: probability about 10^-126 for a fair generator). */
        assert_memory_not_equal(one[0], one[1], sizeof one[0]);
        sb_rng_close(rng);
    }
}

/* reseed32:NAME is random access whatever NAME is: chunk 3 of a fresh rng
   is chunk 3 made after chunks 0 to 2, for mt19937 inside; the source's
   GSL generator is the cursor's own inner one, re-seeded per sample. */
static void reseed32_is_random_access(void **state)
{
    (void)state;
    uint64_t fresh[T_SAMPLES * T_DRAWS], after[T_SAMPLES * T_DRAWS];
    uint32_t seeds[2][T_SAMPLES];
    for (int run = 0; run < 2; run++) {
        sb_rng *rng;
        assert_int_equal(sb_rng_open(&rng, "reseed32:mt19937", 8), SB_OK);
        assert_true(sb_rng_random_access(rng));
        sb_rng_cursor *cur;
        assert_int_equal(sb_rng_cursor_open(rng, &cur), SB_OK);
        uint64_t scratch[T_SAMPLES * T_DRAWS];
        for (uint64_t k = 0; run == 1 && k < 3; k++)
            assert_int_equal(make_chunk(cur, k, scratch), SB_OK);
        sb_src src;
        assert_int_equal(sb_rng_cursor_chunk(cur, 3, &src), SB_OK);
        gsl_rng *g = sb_src_gsl_rng(&src);
        assert_non_null(g);
        gsl_rng *ref = gsl_rng_alloc(gsl_rng_mt19937);
        uint64_t *out = run ? after : fresh;
        for (int s = 0; s < T_SAMPLES; s++) {
            sb_src_begin_sample(&src);
            seeds[run][s] = sb_rng_cursor_last_reseed(cur);
            gsl_rng_set(ref, seeds[run][s]);
            for (int d = 0; d < T_DRAWS; d++) {
                out[s * T_DRAWS + d] = sb_draw_bits(&src, 32);
                assert_true(out[s * T_DRAWS + d] == gsl_rng_get(ref));
            }
        }
        /* GSL's routines on the source's generator continue its draws. */
        assert_true(gsl_rng_get(g) == gsl_rng_get(ref));
        gsl_rng_free(ref);
        sb_rng_cursor_close(cur);
        sb_rng_close(rng);
    }
    assert_memory_equal(fresh, after, sizeof fresh);
    assert_memory_equal(seeds[0], seeds[1], sizeof seeds[0]);
}

/* A jump-ahead GSL source's generator is the cursor's own copy, placed at
   the chunk: GSL's routines called on it (as the gsl-shuffle algorithm
   calls gsl_ran_shuffle) continue the chunk's own sequence, and another
   cursor's copy is another object. */
static void jumped_source_is_the_cursors_generator(void **state)
{
    (void)state;
    sb_rng *rng;
    assert_int_equal(sb_rng_open(&rng, "vax", 5), SB_OK);
    sb_rng_set_chunks(rng, 1u << 16);
    sb_rng_cursor *c1, *c2;
    assert_int_equal(sb_rng_cursor_open(rng, &c1), SB_OK);
    assert_int_equal(sb_rng_cursor_open(rng, &c2), SB_OK);
    sb_src s1, s2;
    assert_int_equal(sb_rng_cursor_chunk(c1, 2, &s1), SB_OK);
    assert_int_equal(sb_rng_cursor_chunk(c2, 2, &s2), SB_OK);
    gsl_rng *g1 = sb_src_gsl_rng(&s1), *g2 = sb_src_gsl_rng(&s2);
    assert_non_null(g1);
    assert_true(g1 != g2);
    gsl_rng *ref = gsl_rng_alloc(gsl_rng_vax);
    gsl_rng_set(ref, 5);
    for (uint64_t t = 0; t < 2 * 65536; t++)     /* 2 floor(2^32 / 2^16) */
        (void)gsl_rng_get(ref);
    for (int i = 0; i < 10; i++) {
        const unsigned long want = gsl_rng_get(ref);
        assert_true(sb_draw_bits(&s1, 32) == want);
        assert_true(gsl_rng_get(g2) == want);
    }
    gsl_rng_free(ref);
    sb_rng_cursor_close(c1);
    sb_rng_cursor_close(c2);
    sb_rng_close(rng);
}

/* ---- names ------------------------------------------------------------- */

/* Every GSL generator is either random access or has a reason, and the
   name alone says what the opened rng says. */
static void sequential_names_have_reasons(void **state)
{
    (void)state;
    const char *why = sb_rng_sequential_why("mt19937");
    assert_non_null(why);
    assert_non_null(strstr(why, "19937"));
    const char *seq[] = { "mt19937", "ranlux", "ranlxd2", "taus2", "cmrg",
                          "coveyou", "random-glibc2", "knuthran2", "ran2",
                          "gfsr4", "uni32", "fishman2x" };
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        why = sb_rng_sequential_why(seq[i]);
        assert_non_null(why);
        assert_true(why[0] != '\0' && why[strlen(why) - 1] != '.');
        assert_false(sb_rng_name_random_access(seq[i]));
    }
    const char *ra[] = { SB_RNG_DEFAULT, "rand15", "lcg32", "minstd",
                         "reseed32:mt19937", "reseed32:rand15" };
    for (size_t i = 0; i < sizeof ra / sizeof ra[0]; i++) {
        assert_null(sb_rng_sequential_why(ra[i]));
        assert_true(sb_rng_name_random_access(ra[i]));
    }
    assert_null(sb_rng_sequential_why("nope"));
    assert_false(sb_rng_name_random_access("nope"));
    assert_false(sb_rng_name_random_access("reseed32:nope"));
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++) {
        const char *name = (*t)->name;
        const int ra_name = sb_rng_name_random_access(name);
        assert_true(ra_name == (sb_rng_sequential_why(name) == NULL));
        sb_rng *rng;
        assert_int_equal(sb_rng_open(&rng, name, 1), SB_OK);
        assert_int_equal(sb_rng_random_access(rng), ra_name);
        sb_rng_close(rng);
    }
}

/* ---- saving a sequential stream ---------------------------------------- */

#define S_DRAWS 300

static void draw_chunk(sb_rng *rng, uint64_t k, uint64_t *out)
{
    sb_src src;
    assert_int_equal(sb_rng_chunk(rng, k, &src), SB_OK);
    for (int i = 0; i < S_DRAWS; i++)
        out[i] = sb_draw_below(&src, 1000003);
    assert_int_equal(sb_src_error(&src), SB_OK);
}

/* The place saved after chunk 2, restored into a freshly opened rng,
   makes chunk 3 as the uninterrupted stream does. */
static void saved_place_resumes_the_stream(void **state)
{
    (void)state;
    const char *names[] = { "mt19937", "mt19937_1999", "taus2", "cmrg",
                            "knuthran2" };
    static unsigned char buf[1 << 18];
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        sb_rng *a, *b;
        uint64_t out[S_DRAWS], want[S_DRAWS];
        assert_int_equal(sb_rng_open(&a, names[n], 99), SB_OK);
        assert_false(sb_rng_random_access(a));
        for (uint64_t k = 0; k < 3; k++)
            draw_chunk(a, k, out);
        uint64_t next;
        size_t len;
        assert_int_equal(sb_rng_save(a, &next, buf, 1, &len), SB_ERANGE);
        assert_true(len > 1);
        assert_int_equal(sb_rng_save(a, &next, buf, sizeof buf, &len),
                         SB_OK);
        assert_true(next == 3);
        draw_chunk(a, 3, want);
        assert_int_equal(sb_rng_open(&b, names[n], 99), SB_OK);
        assert_int_equal(sb_rng_restore(b, next, buf, len + 1), SB_EINVAL);
        assert_int_equal(sb_rng_restore(b, next, buf, len), SB_OK);
        sb_src src;
        assert_int_equal(sb_rng_chunk(b, 2, &src), SB_EINVAL);
        draw_chunk(b, 3, out);
        assert_memory_equal(out, want, sizeof out);
        if (strncmp(names[n], "mt19937", 7) == 0) {
            /* A forged index past the twister's table is refused. */
            const int bad[] = { -1, 625, 1 << 30 };
            for (size_t i = 0; i < 3; i++) {
                memcpy(buf + 624 * sizeof(unsigned long), &bad[i],
                       sizeof bad[i]);
                assert_int_equal(sb_rng_restore(b, next, buf, len),
                                 SB_EINVAL);
            }
        }
        sb_rng_close(a);
        sb_rng_close(b);
    }
    /* Nothing to save or restore: the generators with indices into their
       own tables (a forged state could send GSL outside them), and the
       random-access backends. */
    const char *none[] = { "ranlux", "gfsr4", "random-glibc2", "r250",
                           "ran2", "ranlxd2", SB_RNG_DEFAULT, "rand15",
                           "minstd", "reseed32:mt19937" };
    for (size_t n = 0; n < sizeof none / sizeof none[0]; n++) {
        sb_rng *r;
        uint64_t next;
        size_t len;
        assert_int_equal(sb_rng_open(&r, none[n], 1), SB_OK);
        assert_int_equal(sb_rng_save(r, &next, buf, sizeof buf, &len),
                         SB_ENOTSUP);
        assert_int_equal(sb_rng_restore(r, 0, buf, 8), SB_ENOTSUP);
        sb_rng_close(r);
    }
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(jumpable_table_is_the_models),
        cmocka_unit_test(chunks_are_stretches_of_one_sequence),
        cmocka_unit_test(jumps_compose),
        cmocka_unit_test(periods_are_exact),
        cmocka_unit_test(cursors_on_threads_agree),
        cmocka_unit_test(reseed32_is_random_access),
        cmocka_unit_test(jumped_source_is_the_cursors_generator),
        cmocka_unit_test(sequential_names_have_reasons),
        cmocka_unit_test(saved_place_resumes_the_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
