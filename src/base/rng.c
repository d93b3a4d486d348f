/*
 * rng.c - the randomness backends behind the draw interface.
 *
 *   xoshiro256  the fast built-in generator (xoshiro256**, 256-bit state);
 *               random access by chunk: the state of chunk i is derived
 *               from (seed, i) through SplitMix64, so any chunk can be
 *               computed by any thread.  Draws are inlined (rng.h).
 *   GSL names   every generator of gsl_rng_types_setup(), one stream per run,
 *               seeded once with gsl_rng_set (see src/base/rng.h for why not per
 *               chunk).  Words are the generator's outputs minus its minimum,
 *               limited to the largest power of two below its range by
 *               rejection, so that their bits are uniform.
 *   rand15      the classic C library LCG: state = state * 214013 + 2531011
 *               (mod 2^32), output bits 16..30 (15 bits), seeded with the
 *               low 32 bits of the seed as srand() would be.  Check value:
 *               seeded with 1, its first outputs are 41, 18467, 6334.
 *   lcg32       a full-period 32-bit LCG, state = state * 1664525 +
 *               1013904223 (Numerical Recipes), all 32 state bits output.
 *   reseed32:NAME  the generator NAME re-seeded before every sample with a
 *               fresh 32-bit seed (drawn from one fast-generator stream
 *               keyed by the run's seed): the common "seed from the clock
 *               for each deal" pattern.  However good NAME is, at most 2^32
 *               distinct samples can ever appear, and the same seed gives
 *               the same deck, which a test of repeated decks can see.
 *               The per-sample seeds are not screened: a seed that leaves
 *               NAME stuck (one in 2^32 for minstd) is part of the
 *               weakness modelled, and the stuck-source check still ends
 *               such a run with an error.
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

SB_API uint64_t sb_draw_below(sb_src *src, uint64_t n) { return sb_inline_below(src, n); }
SB_API uint64_t sb_draw_bits(sb_src *src, unsigned k) { return sb_inline_bits(src, k); }
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
       the chunk, each spread over the four words.  The 4 x 64 bits of state are a
       fixed function of (seed, chunk); a few outputs are discarded so the first draws of neighbouring
       chunks share no structure. */
    const uint64_t a = sb_mix64(seed), b = sb_mix64(chunk ^ 0x5851f42d4c957f2du);
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

/* ---- the sequential backends ------------------------------------------- */

typedef enum {
    BACKEND_FAST, BACKEND_GSL, BACKEND_RAND15, BACKEND_LCG32, BACKEND_RESEED32
} backend;

#define RESEED_PREFIX "reseed32:"


struct sb_rng {
    backend which;
    char name[64];          /* as asked for */
    uint64_t seed;
    uint64_t next_chunk;    /* sequential backends: the chunk expected next */
    sb_word_source ws;      /* first member used as the word source's self */
    gsl_rng *gsl;           /* BACKEND_GSL */
    unsigned long gsl_min;  /* GSL output offset */
    unsigned long gsl_limit;/* 2^width, outputs - min at or above it are
                               redrawn; 0 for a full 64-bit range */
    uint32_t lcg;           /* rand15 and lcg32 state */
    uint64_t seed_used;     /* what the generator itself was seeded with */
    unsigned seed_bits;     /* how many bits of it it keeps */
    sb_rng *inner;          /* BACKEND_RESEED32: the generator re-seeded */
    sb_src seeder;          /* BACKEND_RESEED32: where the seeds come from */
    sb_src inner_src;       /* BACKEND_RESEED32: the inner generator's draws */
    uint32_t last_reseed;   /* BACKEND_RESEED32: the seed of this sample */
};

#define RNG_OF(ws) ((sb_rng *)((char *)(ws) - offsetof(sb_rng, ws)))

static uint64_t gsl_word(sb_word_source *ws)
{
    sb_rng *r = RNG_OF(ws);
    unsigned long x;
    long tries = 0;
    do
        x = gsl_rng_get(r->gsl) - r->gsl_min;
    while (r->gsl_limit && x >= r->gsl_limit && ++tries < STUCK_REJECTIONS);
    if (tries == STUCK_REJECTIONS) {
        ws->stuck = 1;
        return 0;
    }
    return x;
}

static uint64_t rand15_word(sb_word_source *ws)
{
    sb_rng *r = RNG_OF(ws);
    r->lcg = r->lcg * 214013u + 2531011u;
    return (r->lcg >> 16) & 0x7fffu;
}

static uint64_t lcg32_word(sb_word_source *ws)
{
    sb_rng *r = RNG_OF(ws);
    r->lcg = r->lcg * 1664525u + 1013904223u;
    return r->lcg;
}

/* ---- reseed32:NAME ------------------------------------------------------ */

/* Re-seed the inner generator with 32 fresh bits, as a program calling
   srand(time-ish value) before every deal would. */
static void reseed_begin(sb_src *src)
{
    sb_rng *r = src->impl, *in = r->inner;
    const uint32_t s32 = (uint32_t)sb_inline_bits(&r->seeder, 32);
    r->last_reseed = s32;
    switch (in->which) {
    case BACKEND_FAST:
        sb_src_fast(&r->inner_src, s32, 0);
        return;
    case BACKEND_GSL:
        gsl_rng_set(in->gsl, s32);
        break;
    case BACKEND_RAND15:
    case BACKEND_LCG32:
        in->lcg = s32;
        break;
    case BACKEND_RESEED32:
        break;          /* refused when opened */
    }
    sb_src_from_words(&r->inner_src, &in->ws);
}

/* The draws go to the inner generator; its errors become the source's. */
#define INNER(src) (&((sb_rng *)(src)->impl)->inner_src)
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
        return ((sb_rng *)src->impl)->inner->gsl;
    if (src->ops != &words_ops)
        return NULL;
    sb_word_source *ws = src->impl;
    return ws->next == gsl_word ? RNG_OF(ws)->gsl : NULL;
}

const sb_rng_info sb_rng_builtin[] = {
    { SB_RNG_DEFAULT, "xoshiro256** (Blackman and Vigna 2018), 256-bit state, "
                      "chunk i computed directly from (seed, i); the default" },
    { "rand15", "weak: the classic C library rand(), 32-bit LCG "
                "x*214013+2531011, output bits 16..30" },
    { "lcg32", "weak: full-period 32-bit LCG x*1664525+1013904223, "
               "all 32 bits output" },
    { RESEED_PREFIX "NAME", "weak: generator NAME re-seeded with a fresh "
                            "32-bit seed before every sample (at most 2^32 "
                            "distinct samples)" },
    { NULL, NULL }
};

static const gsl_rng_type *find_gsl(const char *name)
{
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++)
        if (strcmp((*t)->name, name) == 0)
            return *t;
    return NULL;
}

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
    const gsl_rng_type *t;
    r->seed_used = seed;
    r->seed_bits = 64;
    if (strncmp(name, RESEED_PREFIX, strlen(RESEED_PREFIX)) == 0) {
        const char *inner = name + strlen(RESEED_PREFIX);
        int rc = strncmp(inner, RESEED_PREFIX, strlen(RESEED_PREFIX)) == 0
               ? SB_ENOTFOUND : sb_rng_open(&r->inner, inner, seed);
        if (rc != SB_OK) {
            free(r);
            return rc;
        }
        r->which = BACKEND_RESEED32;
        /* The seeds come from the fast generator, keyed apart from any
           other use of 'seed'. */
        sb_src_fast(&r->seeder, sb_mix64(seed ^ 0x7265736565643332u), 0);
    } else if (strcmp(name, SB_RNG_DEFAULT) == 0) {
        r->which = BACKEND_FAST;
    } else if (strcmp(name, "rand15") == 0) {
        r->which = BACKEND_RAND15;
        r->lcg = (uint32_t)seed;
        r->ws = (sb_word_source){ 15, rand15_word, 0 };
    } else if (strcmp(name, "lcg32") == 0) {
        r->which = BACKEND_LCG32;
        r->lcg = (uint32_t)seed;
        r->ws = (sb_word_source){ 32, lcg32_word, 0 };
    } else if ((t = find_gsl(name)) != NULL) {
        r->which = BACKEND_GSL;
        r->gsl = gsl_rng_alloc(t);
        if (!r->gsl) {
            free(r);
            return SB_ENOMEM;
        }
        /* Most GSL generators keep 32 bits of seed: the 64-bit seed is
           folded into 32, and the value given is reported with the run
           (sb_rng_seed_used), so that two seeds giving one stream - and
           GSL's own substitutions, such as its default for 0 - are in
           plain sight rather than silent. */
        r->seed_used = (uint32_t)(seed ^ (seed >> 32));
        gsl_rng_set(r->gsl, (unsigned long)r->seed_used);
        r->gsl_min = gsl_rng_min(r->gsl);
        /* Words of 'width' bits: the largest power of two of outputs. */
        const unsigned long span = gsl_rng_max(r->gsl) - r->gsl_min;
        const unsigned width = span == ~0ul ? 64
                             : 63 - (unsigned)__builtin_clzl(span + 1);
        r->gsl_limit = width == 64 ? 0 : 1ul << width;
        r->ws = (sb_word_source){ width, gsl_word, 0 };
        /* ran0 refuses its own XOR mask as a seed and, with GSL's error
           handler off, would silently keep its default seed instead. */
        if (strcmp(name, "ran0") == 0 && r->seed_used == 123459876u) {
            sb_rng_close(r);
            return SB_EINVAL;
        }
        if (stuck_at_start(r->gsl)) {
            sb_rng_close(r);
            return SB_ERANGE;
        }
    } else {
        free(r);
        return SB_ENOTFOUND;
    }
    if (r->which != BACKEND_FAST && r->which != BACKEND_RESEED32)
        r->seed_bits = 32;
    if (r->which == BACKEND_RAND15 || r->which == BACKEND_LCG32)
        r->seed_used = (uint32_t)seed;
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
    if (r->gsl)
        gsl_rng_free(r->gsl);
    sb_rng_close(r->inner);
    free(r);
}

uint32_t sb_rng_last_reseed(const sb_rng *r) { return r->last_reseed; }

int sb_rng_random_access(const sb_rng *r) { return r->which == BACKEND_FAST; }

int sb_rng_chunk(sb_rng *r, uint64_t chunk, sb_src *src)
{
    if (r->which == BACKEND_FAST) {
        sb_src_fast(src, r->seed, chunk);
        return SB_OK;
    }
    if (chunk != r->next_chunk)
        return SB_EINVAL;
    r->next_chunk++;
    if (r->which == BACKEND_RESEED32) {
        memset(src, 0, sizeof *src);
        src->ops = &reseed_ops;
        src->impl = r;
        return SB_OK;
    }
    sb_src_from_words(src, &r->ws);
    return SB_OK;
}
