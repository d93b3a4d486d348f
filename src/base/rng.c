/*
 * rng.c - the randomness backends behind the draw interface.
 *
 *   xoshiro256  the fast built-in generator (xoshiro256**, 256-bit state);
 *               random access by chunk: the state of chunk i is derived
 *               from (seed, i) through SplitMix64, so any chunk can be
 *               computed by any thread.  Draws are inlined (rng.h).
 *   rand15      the classic C library LCG: state = state * 214013 + 2531011
 *               (mod 2^32), output bits 16..30 (15 bits), seeded with the
 *               low 32 bits of the seed as srand() would be.  Check value:
 *               seeded with 1, its first outputs are 41, 18467, 6334.
 *   lcg32       a full-period 32-bit LCG, state = state * 1664525 +
 *               1013904223 (Numerical Recipes), all 32 state bits output.
 *   GSL names   every generator of gsl_rng_types_setup(), seeded once with
 *               gsl_rng_set.  Words are the generator's outputs minus its
 *               minimum, limited to the largest power of two below its
 *               range by rejection, so that their bits are uniform.
 *   reseed32:NAME  the generator NAME re-seeded before every sample with a
 *               fresh 32-bit seed: the common "seed from the clock for
 *               each deal" pattern.  However good NAME is, at most 2^32
 *               distinct samples can ever appear, and the same seed gives
 *               the same deck, which a test of repeated decks can see.
 *               The seeds of chunk i are the fast generator's stream i
 *               keyed by the run's seed.  The per-sample seeds are not
 *               screened: a seed that leaves NAME stuck (one in 2^32 for
 *               minstd) is part of the weakness modelled, and the
 *               stuck-source check still ends such a run with an error.
 *
 * Random access by jump-ahead.  A linear congruential generator whose
 * state is one integer, x -> a x + c (mod m), is an affine map; its k-th
 * power is again affine, x -> A x + C, and is found in O(log k) products
 * by repeated squaring (Brown, "Random number generation with arbitrary
 * strides", Trans. Am. Nucl. Soc. 71, 1994).  rand15, lcg32 and the GSL
 * generators of 'lcg_models' below are run this way: the run is cut into
 * 'chunks' equal stretches of the generator's one sequence, and chunk k
 * starts k floor(P / chunks) steps after the seeded state, P the exact
 * period of that state.  A GSL generator's state is read and written
 * through gsl_rng_state(), in the layout of GSL's own state struct; that
 * layout is GSL's internal business, so every open checks the model
 * against GSL itself and refuses the generator (SB_ENOTSUP) if they
 * differ.  Every other GSL generator (lagged, combined, shuffled or
 * twisted state) is one sequential stream whose chunks come in order.
 *
 * Every backend but the fast one draws through the generic word-based
 * functions below: bits from the high end of each word (an LCG's low bits
 * are its worst), unbiased below() by rejection.
 */
#include "base/rng.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>

#include "shufflebias/export.h"
#include "shufflebias/status.h"

/* ---- exported draws (the plug-in ABI) ---------------------------------- */

SB_API uint64_t sb_draw_below(sb_src *src, uint64_t n)
{
    return sb_inline_below(src, n);
}
SB_API uint64_t sb_draw_bits(sb_src *src, unsigned k)
{
    return sb_inline_bits(src, k);
}
SB_API size_t sb_draw_weighted(sb_src *src, const uint64_t *w, size_t m)
{
    return sb_inline_weighted(src, w, m);
}
SB_API double sb_draw_unit(sb_src *src) { return sb_inline_unit(src); }

SB_API uint64_t sb_draw_rand_mod(sb_src *src, unsigned bits, uint64_t k)
{
    /* A plug-in's arguments are not trusted: a 'bits' of 64 or more
       would shift past the word when the weights are made, and a k of 0
       or above 2^bits is no rand() % k.  Refused as a draw that cannot be
       made: 0, and the source's error set (sb_rand_mod_valid). */
    if (!sb_rand_mod_valid(bits, k)) {
        src->error = SB_EINVAL;
        return 0;
    }
    if (k == 1)
        return 0;
    /* A source that walks branches (exact mode) says how; every source
       that samples draws the rand() value and reduces it, which is the
       idiom's own law at the cost of one draw. */
    if (src->ops != NULL && src->ops->rand_mod != NULL)
        return src->ops->rand_mod(src, bits, k);
    const uint64_t x = sb_inline_bits(src, bits);
    return bits <= 32 && k <= UINT32_MAX ? (uint32_t)x % (uint32_t)k
                                         : x % k;
}

uint64_t sb_rand_mod_weighted(sb_src *src, unsigned bits, uint64_t k)
{
    if (k > SB_RAND_MOD_WEIGHTS)
        return src->ops->bits(src, bits) % k;
    uint64_t w[SB_RAND_MOD_WEIGHTS];
    for (uint64_t r = 0; r < k; r++)
        w[r] = sb_rand_mod_weight(bits, k, r);
    return src->ops->weighted(src, w, (size_t)k);
}

SB_API void sb_draw_below_falling(sb_src *src, uint64_t hi,
                                  uint64_t count, sb_falling_fn *step,
                                  sb_falling_fn *undo, void *ctx)
{
    sb_inline_below_falling(src, hi, count, step, undo, ctx);
}
SB_API int sb_src_error(const sb_src *src) { return src->error; }

/* ---- the fast generator ------------------------------------------------ */

uint64_t sb_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

void sb_src_fast(sb_src *src, uint64_t seed, uint64_t chunk)
{
    /* Two independent-looking 64-bit keys, one from the seed and one from
       the chunk, each spread over the four words.  The 4 x 64 bits of
       state are a fixed function of (seed, chunk); a few outputs are
       discarded so the first draws of neighbouring chunks share no
       structure. */
    const uint64_t a = sb_mix64(seed);
    const uint64_t b = sb_mix64(chunk ^ 0x5851f42d4c957f2du);
    memset(src, 0, sizeof *src);
    for (int k = 0; k < 4; k++)
        src->s[k] = sb_mix64(a + sb_mix64(b + (uint64_t)k));
    if ((src->s[0] | src->s[1] | src->s[2] | src->s[3]) == 0)
        src->s[0] = 1;     /* the one state xoshiro cannot leave */
    for (int k = 0; k < 8; k++)
        (void)sb_xoshiro_next(src->s);
}

/* ---- generic draws over a word source ---------------------------------- */

/* Rejections in a row after which a source is taken to be stuck: a fair
   one rejects with probability below 1/2 each time. */
#define STUCK_REJECTIONS 1000000

static uint64_t words_bits(sb_src *src, unsigned k)
{
    sb_word_source *ws = src->impl;
    uint64_t x = 0;
    unsigned have = 0;
    while (have < k) {
        unsigned take = k - have < ws->width ? k - have : ws->width;
        uint64_t w = ws->next(ws);
        x = (take == 64 ? 0 : x << take) | (w >> (ws->width - take));
        have += take;
    }
    if (ws->stuck)
        src->error = SB_ERANGE;
    return x;
}

static uint64_t words_below(sb_src *src, uint64_t n)
{
    if (n <= 1)
        return 0;
    unsigned b = 64 - (unsigned)__builtin_clzll(n - 1);  /* bits of n - 1 */
    for (long tries = 0; tries < STUCK_REJECTIONS && !src->error; tries++) {
        uint64_t x = words_bits(src, b);
        if (x < n)
            return x;
    }
    src->error = SB_ERANGE;
    return 0;
}

static size_t words_weighted(sb_src *src, const uint64_t *w, size_t m)
{
    uint64_t total = 0;
    for (size_t i = 0; i < m; i++)
        total += w[i];
    uint64_t r = words_below(src, total);
    size_t i = 0;
    while (r >= w[i])
        r -= w[i++];
    return i;
}

static double words_unit(sb_src *src)
{
    return (double)words_bits(src, 53) * 0x1.0p-53;
}

static const sb_src_ops words_ops = {
    words_below, words_bits, words_weighted, words_unit, NULL, NULL
};

void sb_src_from_words(sb_src *src, sb_word_source *ws)
{
    memset(src, 0, sizeof *src);
    src->ops = &words_ops;
    src->impl = ws;
}

/* ---- linear congruential generators by jump-ahead ---------------------- */

/* How a GSL generator keeps its one integer of state (the bytes of
   gsl_rng_state), read from each generator's source in GSL 2.x. */
typedef enum {
    LAYOUT_OURS,     /* rand15 and lcg32: no GSL state at all */
    LAYOUT_ULONG,    /* struct { unsigned long x; } */
    LAYOUT_SHORTS,   /* struct { unsigned short x0, x1, x2; }, x0 lowest */
    LAYOUT_SPLIT11   /* struct { long x0, x1; }, x = x1 2^11 + x0 */
} lcg_layout;

/* One generator x -> a x + c (mod m) whose output is (x >> shift) & mask.
   Each m is a power of two or a prime, and a prime m comes with c = 0:
   'lcg_period' relies on it. */
typedef struct lcg_model {
    const char *name;
    uint64_t a, c, m;
    unsigned shift;
    uint64_t mask;
    lcg_layout layout;
} lcg_model;

#define ALL ~(uint64_t)0
#define P2(w) ((uint64_t)1 << (w))

/* The GSL ones, each from its file in GSL's rng/ directory (the
   recurrence, the output and the state struct), checked against the
   library at every open.  The periods are those of an odd (mod 2^w) or
   non-zero (mod a prime) state; others are computed for the state. */
static const lcg_model lcg_models[] = {
    /* Our own, described in the file's header. */
    { "rand15", 214013, 2531011, P2(32), 16, 0x7fff, LAYOUT_OURS },
    { "lcg32", 1664525, 1013904223, P2(32), 0, 0xffffffffu, LAYOUT_OURS },
    /* borosh13.c: Borosh-Niederreiter (Knuth vol. 2, p. 106), a = 5 mod
       8, period 2^30. */
    { "borosh13", 1812433253, 0, P2(32), 0, ALL, LAYOUT_ULONG },
    /* fishman18.c, fishman20.c: Fishman-Moore, Fishman (Knuth vol. 2,
       p. 108), primitive roots of 2^31 - 1, period 2^31 - 2. */
    { "fishman18", 62089911, 0, P2(31) - 1, 0, ALL, LAYOUT_ULONG },
    { "fishman20", 48271, 0, P2(31) - 1, 0, ALL, LAYOUT_ULONG },
    /* lecuyer21.c: L'Ecuyer 1988 (Knuth vol. 2, p. 108), period m - 1. */
    { "lecuyer21", 40692, 0, 2147483399, 0, ALL, LAYOUT_ULONG },
    /* minstd.c: Park and Miller 1988; ran0.c: the same with the seed
       XORed with 123459876 (Numerical Recipes).  Period 2^31 - 2. */
    { "minstd", 16807, 0, P2(31) - 1, 0, ALL, LAYOUT_ULONG },
    { "ran0", 16807, 0, P2(31) - 1, 0, ALL, LAYOUT_ULONG },
    /* rand.c: BSD rand(), period 2^31. */
    { "rand", 1103515245, 12345, P2(31), 0, ALL, LAYOUT_ULONG },
    /* rand48.c: Unix rand48, the upper 32 of 48 bits, period 2^48. */
    { "rand48", 0x5DEECE66Du, 0xB, P2(48), 16, ALL, LAYOUT_SHORTS },
    /* randu.c: IBM's RANDU, a = 3 mod 8, period 2^29. */
    { "randu", 65539, 0, P2(31), 0, ALL, LAYOUT_ULONG },
    /* ranf.c: CRAY RANF, the upper 32 of 48 bits, odd states only,
       period 2^46. */
    { "ranf", 0x2875A2E7B175u, 0, P2(48), 16, ALL, LAYOUT_SHORTS },
    /* slatec.c: SLATEC/CMLIB RAND, 22 bits in two 11-bit halves, period
       2^22. */
    { "slatec", 3146757, 1731, P2(22), 0, ALL, LAYOUT_SPLIT11 },
    /* transputer.c: INMOS, a = 5 mod 8, period 2^30. */
    { "transputer", 1664525, 0, P2(32), 0, ALL, LAYOUT_ULONG },
    /* vax.c: VAX MTH$RANDOM, period 2^32. */
    { "vax", 69069, 1, P2(32), 0, ALL, LAYOUT_ULONG },
    /* waterman14.c: Waterman (Knuth vol. 2, p. 106), period 2^30. */
    { "waterman14", 1566083941, 0, P2(32), 0, ALL, LAYOUT_ULONG },
    /* random.c: random8-*, the 8-byte state of BSD random() (TYPE_0),
       which is BSD rand() again whatever the seeding flavour. */
    { "random8-bsd", 1103515245, 12345, P2(31), 0, ALL, LAYOUT_ULONG },
    { "random8-glibc2", 1103515245, 12345, P2(31), 0, ALL, LAYOUT_ULONG },
    { "random8-libc5", 1103515245, 12345, P2(31), 0, ALL, LAYOUT_ULONG },
};

#define N_MODELS (sizeof lcg_models / sizeof lcg_models[0])

const char *sb_rng_jumpable_name(size_t i)
{
    return i < N_MODELS ? lcg_models[i].name : NULL;
}

static const lcg_model *find_model(const char *name)
{
    for (size_t i = 0; i < N_MODELS; i++)
        if (strcmp(lcg_models[i].name, name) == 0)
            return &lcg_models[i];
    return NULL;
}

static uint64_t mulmod(uint64_t x, uint64_t y, uint64_t m)
{
    return (uint64_t)((sb_u128)x * y % m);
}

/* The state 'k' steps after 'x' (reduced mod m).  f^k is kept as the pair
   (A, C) of x -> A x + C and built from the squares f, f^2, f^4, ...; the
   powers of one map commute, so the order of composing does not matter. */
static uint64_t lcg_jump(const lcg_model *md, uint64_t x, uint64_t k)
{
    const uint64_t m = md->m;
    uint64_t ra = 1 % m, rc = 0, a = md->a % m, c = md->c % m;
    while (k) {
        if (k & 1) {
            ra = mulmod(ra, a, m);
            rc = (mulmod(rc, a, m) + c) % m;
        }
        c = (mulmod(c, a, m) + c) % m;     /* f^2j = f^j after f^j */
        a = mulmod(a, a, m);
        k >>= 1;
    }
    return (mulmod(ra, x % m, m) + rc) % m;
}

/* The exact period of the state 'x' (reduced mod m), 0 if the model's
   premise fails.  A multiple N of it is known: for m = 2^w and odd a the
   map is a permutation of 2^w states in a group of order a power of two,
   so every cycle's length is a power of two up to 2^w, and divides 2^w;
   for a prime m and c = 0 the states x a^n cycle with the order of a
   mod m, which divides m - 1 (Fermat).  The period is then found as an
   element's order is: N divided by each of its prime factors q while
   f^(N/q) still fixes x. */
static uint64_t lcg_period(const lcg_model *md, uint64_t x)
{
    const uint64_t m = md->m;
    const int pow2 = (m & (m - 1)) == 0;
    if (pow2 ? md->a % 2 == 0 : md->c != 0)
        return 0;
    const uint64_t n = pow2 ? m : m - 1;
    if (lcg_jump(md, x, n) != x % m)
        return 0;
    uint64_t period = n, rest = n;
    for (uint64_t q = 2; rest > 1; q++) {
        if (q > rest / q)
            q = rest;                    /* what is left is prime */
        if (rest % q)
            continue;
        while (rest % q == 0)
            rest /= q;
        while (period % q == 0 && lcg_jump(md, x, period / q) == x % m)
            period /= q;
    }
    return period;
}

static uint64_t lcg_output(const lcg_model *md, uint64_t x)
{
    return (x >> md->shift) & md->mask;
}

/* GSL's state bytes as the model's integer (not reduced) and back. */
static uint64_t lcg_read(const lcg_model *md, const void *bytes)
{
    switch (md->layout) {
    case LAYOUT_ULONG: {
        unsigned long x;
        memcpy(&x, bytes, sizeof x);
        return x;
    }
    case LAYOUT_SHORTS: {
        unsigned short s[3];
        memcpy(s, bytes, sizeof s);
        return s[0] | (uint64_t)s[1] << 16 | (uint64_t)s[2] << 32;
    }
    case LAYOUT_SPLIT11: {
        long s[2];
        memcpy(s, bytes, sizeof s);
        return (uint64_t)s[1] * 2048 + (uint64_t)s[0];
    }
    case LAYOUT_OURS:
        break;
    }
    return 0;
}

static void lcg_write(const lcg_model *md, void *bytes, uint64_t x)
{
    switch (md->layout) {
    case LAYOUT_ULONG: {
        const unsigned long v = (unsigned long)x;
        memcpy(bytes, &v, sizeof v);
        break;
    }
    case LAYOUT_SHORTS: {
        const unsigned short s[3] = { (unsigned short)(x & 0xffff),
                                      (unsigned short)(x >> 16 & 0xffff),
                                      (unsigned short)(x >> 32 & 0xffff) };
        memcpy(bytes, s, sizeof s);
        break;
    }
    case LAYOUT_SPLIT11: {
        const long s[2] = { (long)(x % 2048), (long)(x / 2048) };
        memcpy(bytes, s, sizeof s);
        break;
    }
    case LAYOUT_OURS:
        break;
    }
}

static size_t lcg_size(const lcg_model *md)
{
    switch (md->layout) {
    case LAYOUT_ULONG:
        return sizeof(unsigned long);
    case LAYOUT_SHORTS:
        return 3 * sizeof(unsigned short);
    case LAYOUT_SPLIT11:
        return 2 * sizeof(long);
    case LAYOUT_OURS:
        break;
    }
    return 0;
}

/* Whether GSL's generator 'g', freshly seeded, is the model: its state
   size is the layout's; three gsl_rng_get from it give the model's states
   and outputs; and a state written in the layout two steps on is where
   GSL goes on from.  SB_OK, SB_ENOTSUP when they differ, SB_ENOMEM. */
static int lcg_agrees(const lcg_model *md, const gsl_rng *g)
{
    const size_t size = gsl_rng_size(g);
    if (size != lcg_size(md))
        return SB_ENOTSUP;
    gsl_rng *walk = gsl_rng_clone(g), *put = gsl_rng_clone(g);
    int rc = walk && put ? SB_OK : SB_ENOMEM;
    const uint64_t x0 = lcg_read(md, gsl_rng_state(g)) % md->m;
    uint64_t x = x0;
    for (int i = 0; i < 3 && rc == SB_OK; i++) {
        x = lcg_jump(md, x, 1);
        if (gsl_rng_get(walk) != lcg_output(md, x)
            || lcg_read(md, gsl_rng_state(walk)) != x)
            rc = SB_ENOTSUP;
    }
    if (rc == SB_OK) {
        lcg_write(md, gsl_rng_state(put), lcg_jump(md, x0, 2));
        if (gsl_rng_get(put) != lcg_output(md, x)
            || lcg_read(md, gsl_rng_state(put)) != x)
            rc = SB_ENOTSUP;
    }
    gsl_rng_free(walk);
    gsl_rng_free(put);
    return rc;
}

/* ---- the backends ------------------------------------------------------ */

typedef enum {
    BACKEND_FAST, BACKEND_GSL, BACKEND_RAND15, BACKEND_LCG32, BACKEND_RESEED32
} backend;

#define RESEED_PREFIX "reseed32:"

/* After sb_rng_open and sb_rng_set_chunks a random-access run's sb_rng is
   only read, so the cursors of many threads may share it.  A sequential
   backend's one stream ('gsl', 'next_chunk') is written by its one
   user. */
struct sb_rng {
    backend which;
    char name[64];          /* as asked for */
    uint64_t seed;
    uint64_t seed_used;     /* what the generator itself was seeded with */
    unsigned seed_bits;     /* how many bits of it it keeps */
    unsigned width;         /* bits of each word (not BACKEND_FAST) */
    gsl_rng *gsl;           /* BACKEND_GSL: the seeded generator, which
                               is the run's one stream when sequential and
                               is never stepped when jumped */
    unsigned long gsl_min;  /* GSL output offset */
    unsigned long gsl_limit;/* 2^width, outputs - min at or above it are
                               redrawn; 0 for a full 64-bit range */
    const lcg_model *model; /* NULL unless random access by jump-ahead */
    uint64_t x0;            /* the model's seeded state, reduced mod m */
    uint64_t period;        /* the exact period of x0 */
    uint64_t chunks;        /* the run's chunks, >= 1 */
    uint64_t spacing;       /* floor(period / chunks): chunk k's offset
                               from x0 is k spacing steps */
    uint64_t next_chunk;    /* sequential backends: the chunk expected next */
    sb_rng *inner;          /* BACKEND_RESEED32: the generator re-seeded,
                               only ever read (each cursor has its own) */
    uint64_t reseed_key;    /* BACKEND_RESEED32: the seeds' stream key */
    sb_rng_cursor *own;     /* the cursor of sb_rng_chunk, made on demand */
};

/* A thread's place in a run's streams. */
struct sb_rng_cursor {
    sb_word_source ws;      /* first member: the word source's self */
    sb_rng *rng;            /* the run */
    const sb_rng *gen;      /* the generator drawn: 'rng', or its inner
                               one for reseed32 */
    gsl_rng *gsl;           /* GSL's generator drawn from, or NULL */
    int owns_gsl;           /* 'gsl' is this cursor's copy, not the run's
                               one stream */
    uint32_t lcg;           /* rand15 and lcg32: the state */
    sb_src seeder;          /* reseed32: this chunk's seeds */
    sb_src inner_src;       /* reseed32: the inner generator's draws */
    uint32_t last_reseed;   /* reseed32: the seed of this sample */
};

#define CURSOR_OF(w) ((sb_rng_cursor *)((char *)(w) \
                                        - offsetof(sb_rng_cursor, ws)))

static uint64_t gsl_word(sb_word_source *ws)
{
    sb_rng_cursor *cur = CURSOR_OF(ws);
    const sb_rng *g = cur->gen;
    unsigned long x;
    long tries = 0;
    do
        x = gsl_rng_get(cur->gsl) - g->gsl_min;
    while (g->gsl_limit && x >= g->gsl_limit && ++tries < STUCK_REJECTIONS);
    if (tries == STUCK_REJECTIONS) {
        ws->stuck = 1;
        return 0;
    }
    return x;
}

static uint64_t rand15_word(sb_word_source *ws)
{
    sb_rng_cursor *cur = CURSOR_OF(ws);
    cur->lcg = cur->lcg * 214013u + 2531011u;
    return (cur->lcg >> 16) & 0x7fffu;
}

static uint64_t lcg32_word(sb_word_source *ws)
{
    sb_rng_cursor *cur = CURSOR_OF(ws);
    cur->lcg = cur->lcg * 1664525u + 1013904223u;
    return cur->lcg;
}

/* ---- reseed32:NAME ------------------------------------------------------ */

/* Re-seed the cursor's inner generator with 32 fresh bits, as a program
   calling srand(time-ish value) before every deal would. */
static void reseed_begin(sb_src *src)
{
    sb_rng_cursor *cur = src->impl;
    const uint32_t s32 = (uint32_t)sb_inline_bits(&cur->seeder, 32);
    cur->last_reseed = s32;
    switch (cur->gen->which) {
    case BACKEND_FAST:
        sb_src_fast(&cur->inner_src, s32, 0);
        return;
    case BACKEND_GSL:
        gsl_rng_set(cur->gsl, s32);
        break;
    case BACKEND_RAND15:
    case BACKEND_LCG32:
        cur->lcg = s32;
        break;
    case BACKEND_RESEED32:
        break;          /* refused when opened */
    }
    sb_src_from_words(&cur->inner_src, &cur->ws);
}

/* The draws go to the inner generator; its errors become the source's. */
#define INNER(src) (&((sb_rng_cursor *)(src)->impl)->inner_src)
#define PASS_ERROR(src) \
    ((src)->error = (src)->error ? (src)->error : INNER(src)->error)

static uint64_t reseed_below(sb_src *src, uint64_t n)
{
    uint64_t x = sb_inline_below(INNER(src), n);
    PASS_ERROR(src);
    return x;
}

static uint64_t reseed_bits(sb_src *src, unsigned k)
{
    uint64_t x = sb_inline_bits(INNER(src), k);
    PASS_ERROR(src);
    return x;
}

static size_t reseed_weighted(sb_src *src, const uint64_t *w, size_t m)
{
    size_t x = sb_inline_weighted(INNER(src), w, m);
    PASS_ERROR(src);
    return x;
}

static double reseed_unit(sb_src *src)
{
    double x = sb_inline_unit(INNER(src));
    PASS_ERROR(src);
    return x;
}

static const sb_src_ops reseed_ops = {
    reseed_below, reseed_bits, reseed_weighted, reseed_unit, reseed_begin,
    NULL
};

SB_API void *sb_src_gsl_rng(sb_src *src)
{
    if (src->ops == &reseed_ops)
        return ((sb_rng_cursor *)src->impl)->gsl;
    if (src->ops != &words_ops)
        return NULL;
    sb_word_source *ws = src->impl;
    return ws->next == gsl_word ? CURSOR_OF(ws)->gsl : NULL;
}

const sb_rng_info sb_rng_builtin[] = {
    { SB_RNG_DEFAULT, "xoshiro256** (Blackman and Vigna 2018), 256-bit state, "
                      "chunk i computed directly from (seed, i); the default" },
    { "rand15", "weak: the classic C library rand(), 32-bit LCG "
                "x*214013+2531011, output bits 16..30; random access by "
                "jump-ahead" },
    { "lcg32", "weak: full-period 32-bit LCG x*1664525+1013904223, "
               "all 32 bits output; random access by jump-ahead" },
    { RESEED_PREFIX "NAME", "weak: generator NAME re-seeded with a fresh "
                            "32-bit seed before every sample (at most 2^32 "
                            "distinct samples); random access" },
    { NULL, NULL }
};

static const gsl_rng_type *find_gsl(const char *name)
{
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++)
        if (strcmp((*t)->name, name) == 0)
            return *t;
    return NULL;
}

/* ---- which backends are random access ---------------------------------- */

#define IN_ORDER ", so its chunks are made in order on one thread"

/* Why a GSL generator that is not a single-word LCG has no jump-ahead
   here, by name (a prefix ending in '*'); the last row is the rest. */
static const struct {
    const char *names;
    const char *why;
} sequential_kinds[] = {
    { "mt19937*", "its 19937-bit state has no jump-ahead here" IN_ORDER },
    { "ranlux*", "its subtract-with-borrow (RANLUX) state has no "
                 "jump-ahead here" IN_ORDER },
    { "ranlx*", "its subtract-with-borrow (RANLUX) state has no "
                "jump-ahead here" IN_ORDER },
    { "taus*", "its combined Tausworthe state has no jump-ahead here"
               IN_ORDER },
    { "gfsr4", "its shift-register state has no jump-ahead here" IN_ORDER },
    { "r250", "its shift-register state has no jump-ahead here" IN_ORDER },
    { "tt800", "its twisted shift-register state has no jump-ahead here"
               IN_ORDER },
    { "ran1", "its shuffle table has no jump-ahead here" IN_ORDER },
    { "ran2", "its shuffle table has no jump-ahead here" IN_ORDER },
    { "cmrg", "its combined multiple recursive state has no jump-ahead "
              "here" IN_ORDER },
    { "mrg", "its multiple recursive state has no jump-ahead here"
             IN_ORDER },
    { "knuthran2", "its multiple recursive state has no jump-ahead here"
                   IN_ORDER },
    { "fishman2x", "its combined state of two LCGs has no jump-ahead here"
                   IN_ORDER },
    { "coveyou", "its quadratic recurrence has no jump-ahead here"
                 IN_ORDER },
    { "*", "its lagged state of many words has no jump-ahead here"
           IN_ORDER },
};

static int names_match(const char *pattern, const char *name)
{
    const size_t n = strlen(pattern);
    if (n > 0 && pattern[n - 1] == '*')
        return strncmp(pattern, name, n - 1) == 0;
    return strcmp(pattern, name) == 0;
}

int sb_rng_name_random_access(const char *name)
{
    const size_t np = strlen(RESEED_PREFIX);
    if (strncmp(name, RESEED_PREFIX, np) == 0)
        return strncmp(name + np, RESEED_PREFIX, np) != 0
               && (strcmp(name + np, SB_RNG_DEFAULT) == 0
                   || find_model(name + np) || find_gsl(name + np));
    if (strcmp(name, SB_RNG_DEFAULT) == 0)
        return 1;
    const lcg_model *md = find_model(name);
    return md && (md->layout == LAYOUT_OURS || find_gsl(name));
}

const char *sb_rng_sequential_why(const char *name)
{
    if (strncmp(name, RESEED_PREFIX, strlen(RESEED_PREFIX)) == 0
        || find_model(name) || !find_gsl(name))
        return NULL;
    const size_t n = sizeof sequential_kinds / sizeof sequential_kinds[0];
    for (size_t i = 0; i < n; i++)
        if (names_match(sequential_kinds[i].names, name))
            return sequential_kinds[i].why;
    return NULL;
}

/* ---- opening a run ----------------------------------------------------- */

/* A seeded GSL generator whose first 16 outputs are all one value is
   stuck (minstd, fishman20 or ran0 given a seed that zeroes their state):
   looked at on a copy, so the run's stream is untouched. */
static int stuck_at_start(const gsl_rng *g)
{
    gsl_rng *copy = gsl_rng_clone(g);
    if (!copy)
        return 0;
    const unsigned long first = gsl_rng_get(copy);
    int same = 1;
    for (int i = 1; i < 16 && same; i++)
        same = gsl_rng_get(copy) == first;
    gsl_rng_free(copy);
    return same;
}

/* Give 'r' the model 'md' for the seeded state 'x' (raw): its period and
   a run of one chunk.  SB_ENOTSUP if the period cannot be found. */
static int use_model(sb_rng *r, const lcg_model *md, uint64_t x)
{
    r->model = md;
    r->x0 = x % md->m;
    r->period = lcg_period(md, r->x0);
    if (r->period == 0)
        return SB_ENOTSUP;
    sb_rng_set_chunks(r, 1);
    return SB_OK;
}

/* Open GSL's generator 't' for 'r' (its seed set in 'r'). */
static int open_gsl(sb_rng *r, const gsl_rng_type *t)
{
    r->which = BACKEND_GSL;
    r->gsl = gsl_rng_alloc(t);
    if (!r->gsl)
        return SB_ENOMEM;
    /* Most GSL generators keep 32 bits of seed: the 64-bit seed is
       folded into 32, and the value given is reported with the run
       (sb_rng_seed_used), so that two seeds giving one stream - and
       GSL's own substitutions, such as its default for 0 - are in
       plain sight rather than silent. */
    r->seed_used = (uint32_t)(r->seed ^ (r->seed >> 32));
    gsl_rng_set(r->gsl, (unsigned long)r->seed_used);
    r->gsl_min = gsl_rng_min(r->gsl);
    /* Words of 'width' bits: the largest power of two of outputs. */
    const unsigned long span = gsl_rng_max(r->gsl) - r->gsl_min;
    r->width = span == ~0ul ? 64 : 63 - (unsigned)__builtin_clzl(span + 1);
    r->gsl_limit = r->width == 64 ? 0 : 1ul << r->width;
    /* ran0 refuses its own XOR mask as a seed and, with GSL's error
       handler off, would silently keep its default seed instead. */
    if (strcmp(r->name, "ran0") == 0 && r->seed_used == 123459876u)
        return SB_EINVAL;
    if (stuck_at_start(r->gsl))
        return SB_ERANGE;
    const lcg_model *md = find_model(r->name);
    if (!md)
        return SB_OK;
    /* Jumped only when GSL is the model, checked here every time: never
       another stream under the generator's name. */
    const int rc = lcg_agrees(md, r->gsl);
    return rc != SB_OK ? rc
                       : use_model(r, md, lcg_read(md, gsl_rng_state(r->gsl)));
}

int sb_rng_open(sb_rng **out, const char *name, uint64_t seed)
{
    *out = NULL;
    if (strlen(name) >= sizeof ((sb_rng *)0)->name)
        return SB_ENOTFOUND;
    sb_rng *r = calloc(1, sizeof *r);
    if (!r)
        return SB_ENOMEM;
    strcpy(r->name, name);
    r->seed = seed;
    r->seed_used = seed;
    r->seed_bits = 64;
    r->chunks = 1;
    const gsl_rng_type *t;
    int rc = SB_OK;
    if (strncmp(name, RESEED_PREFIX, strlen(RESEED_PREFIX)) == 0) {
        const char *inner = name + strlen(RESEED_PREFIX);
        r->which = BACKEND_RESEED32;
        rc = strncmp(inner, RESEED_PREFIX, strlen(RESEED_PREFIX)) == 0
           ? SB_ENOTFOUND : sb_rng_open(&r->inner, inner, seed);
        /* The seeds come from the fast generator, keyed apart from any
           other use of 'seed'. */
        r->reseed_key = sb_mix64(seed ^ 0x7265736565643332u);
    } else if (strcmp(name, SB_RNG_DEFAULT) == 0) {
        r->which = BACKEND_FAST;
    } else if (strcmp(name, "rand15") == 0 || strcmp(name, "lcg32") == 0) {
        r->which = name[0] == 'r' ? BACKEND_RAND15 : BACKEND_LCG32;
        r->width = r->which == BACKEND_RAND15 ? 15 : 32;
        r->seed_used = (uint32_t)seed;
        rc = use_model(r, find_model(name), r->seed_used);
    } else if ((t = find_gsl(name)) != NULL) {
        rc = open_gsl(r, t);
    } else {
        rc = SB_ENOTFOUND;
    }
    if (r->which != BACKEND_FAST && r->which != BACKEND_RESEED32)
        r->seed_bits = 32;
    if (rc != SB_OK) {
        sb_rng_close(r);
        return rc;
    }
    *out = r;
    return SB_OK;
}

uint64_t sb_rng_seed_used(const sb_rng *r, unsigned *bits)
{
    *bits = r->seed_bits;
    return r->seed_used;
}

void sb_rng_close(sb_rng *r)
{
    if (!r)
        return;
    sb_rng_cursor_close(r->own);
    if (r->gsl)
        gsl_rng_free(r->gsl);
    sb_rng_close(r->inner);
    free(r);
}

void sb_rng_set_chunks(sb_rng *r, uint64_t chunks)
{
    r->chunks = chunks ? chunks : 1;
    r->spacing = r->period / r->chunks;
}

uint32_t sb_rng_last_reseed(const sb_rng *r)
{
    return r->own ? r->own->last_reseed : 0;
}

int sb_rng_random_access(const sb_rng *r)
{
    return r->which == BACKEND_FAST || r->which == BACKEND_RESEED32
           || r->model != NULL;
}

uint64_t sb_rng_period(const sb_rng *r) { return r->model ? r->period : 0; }

uint64_t sb_rng_start(const sb_rng *r) { return r->x0; }

uint64_t sb_rng_jump(const sb_rng *r, uint64_t x, uint64_t k)
{
    return r->model ? lcg_jump(r->model, x, k) : x;
}

/* ---- cursors ----------------------------------------------------------- */

int sb_rng_cursor_open(sb_rng *r, sb_rng_cursor **out)
{
    *out = NULL;
    sb_rng_cursor *cur = calloc(1, sizeof *cur);
    if (!cur)
        return SB_ENOMEM;
    cur->rng = r;
    cur->gen = r->which == BACKEND_RESEED32 ? r->inner : r;
    const sb_rng *g = cur->gen;
    switch (g->which) {
    case BACKEND_GSL:
        /* A sequential generator is the run's one stream; any other
           gets a copy of its own, placed at each chunk or re-seeded at
           each sample. */
        if (g == r && !r->model) {
            cur->gsl = r->gsl;
        } else {
            cur->gsl = gsl_rng_clone(g->gsl);
            cur->owns_gsl = 1;
            if (!cur->gsl) {
                free(cur);
                return SB_ENOMEM;
            }
        }
        cur->ws = (sb_word_source){ g->width, gsl_word, 0 };
        break;
    case BACKEND_RAND15:
        cur->ws = (sb_word_source){ 15, rand15_word, 0 };
        break;
    case BACKEND_LCG32:
        cur->ws = (sb_word_source){ 32, lcg32_word, 0 };
        break;
    case BACKEND_FAST:
    case BACKEND_RESEED32:
        break;
    }
    *out = cur;
    return SB_OK;
}

void sb_rng_cursor_close(sb_rng_cursor *cur)
{
    if (!cur)
        return;
    if (cur->owns_gsl)
        gsl_rng_free(cur->gsl);
    free(cur);
}

uint32_t sb_rng_cursor_last_reseed(const sb_rng_cursor *cur)
{
    return cur->last_reseed;
}

int sb_rng_cursor_chunk(sb_rng_cursor *cur, uint64_t chunk, sb_src *src)
{
    sb_rng *r = cur->rng;
    if (r->which == BACKEND_FAST) {
        sb_src_fast(src, r->seed, chunk);
        return SB_OK;
    }
    if (r->which == BACKEND_RESEED32) {
        sb_src_fast(&cur->seeder, r->reseed_key, chunk);
        memset(src, 0, sizeof *src);
        src->ops = &reseed_ops;
        src->impl = cur;
        return SB_OK;
    }
    if (r->model) {
        if (chunk >= r->chunks)
            return SB_EINVAL;
        /* Below 'chunks', chunk spacing < period: no overflow. */
        const uint64_t steps = chunk * r->spacing;
        if (r->which != BACKEND_GSL)
            cur->lcg = (uint32_t)lcg_jump(r->model, r->x0, steps);
        else if (steps == 0)      /* the seeded state as GSL set it */
            memcpy(gsl_rng_state(cur->gsl), gsl_rng_state(r->gsl),
                   gsl_rng_size(r->gsl));
        else
            lcg_write(r->model, gsl_rng_state(cur->gsl),
                      lcg_jump(r->model, r->x0, steps));
        cur->ws.stuck = 0;
    } else {
        if (chunk != r->next_chunk)
            return SB_EINVAL;
        r->next_chunk++;
    }
    sb_src_from_words(src, &cur->ws);
    return SB_OK;
}

int sb_rng_chunk(sb_rng *r, uint64_t chunk, sb_src *src)
{
    if (r->which == BACKEND_FAST) {      /* no state: any thread, any time */
        sb_src_fast(src, r->seed, chunk);
        return SB_OK;
    }
    if (!r->own) {
        const int rc = sb_rng_cursor_open(r, &r->own);
        if (rc != SB_OK)
            return rc;
    }
    return sb_rng_cursor_chunk(r->own, chunk, src);
}

/* ---- saving a sequential stream's place -------------------------------- */

/* The sequential GSL generators whose saved state can be checked before
   GSL is handed it (state files are not trusted): those whose state
   holds only the generator's values, which GSL uses as they are, and the
   Mersenne twister, whose one index is checked.  A generator whose state
   holds indices into its own tables (ranlux, gfsr4, the random-*
   family, ...) could be made to read or write outside them by a forged
   file: its run resumed makes its counted chunks again instead. */
static const char *const values_only[] = {
    "taus", "taus2", "taus113", "cmrg", "mrg", "knuthran2", "fishman2x",
    "coveyou", NULL
};

/* GSL's mt19937 state: its 624 words, then the index of the next. */
#define MT_WORDS 624

static int saves_state(const sb_rng *r)
{
    if (r->which != BACKEND_GSL || r->model)
        return 0;
    const char *name = gsl_rng_name(r->gsl);
    if (strncmp(name, "mt19937", 7) == 0)
        return 1;
    for (const char *const *v = values_only; *v; v++)
        if (strcmp(*v, name) == 0)
            return 1;
    return 0;
}

/* Whether 'buf' is a state GSL may be handed for 'r' (saves_state). */
static int state_is_safe(const sb_rng *r, const void *buf, size_t len)
{
    if (strncmp(gsl_rng_name(r->gsl), "mt19937", 7) != 0)
        return 1;
    const size_t at = MT_WORDS * sizeof(unsigned long);
    int mti;
    if (len < at + sizeof mti)
        return 0;
    memcpy(&mti, (const unsigned char *)buf + at, sizeof mti);
    return mti >= 0 && mti <= MT_WORDS;
}

int sb_rng_save(const sb_rng *r, uint64_t *next, void *buf, size_t cap,
                size_t *len)
{
    if (!saves_state(r))
        return SB_ENOTSUP;
    *next = r->next_chunk;
    *len = gsl_rng_size(r->gsl);
    if (cap < *len)
        return SB_ERANGE;
    memcpy(buf, gsl_rng_state(r->gsl), *len);
    return SB_OK;
}

int sb_rng_restore(sb_rng *r, uint64_t next, const void *buf, size_t len)
{
    if (!saves_state(r))
        return SB_ENOTSUP;
    if (len != gsl_rng_size(r->gsl) || !state_is_safe(r, buf, len))
        return SB_EINVAL;
    memcpy(gsl_rng_state(r->gsl), buf, len);
    r->next_chunk = next;
    return SB_OK;
}
