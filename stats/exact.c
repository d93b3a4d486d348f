/*
 * exact.c - exact outcome probabilities from enumerated paths.
 *
 * Each outcome keeps its probability as an unreduced fraction num/den.
 * Paths of one algorithm mostly share a denominator (27 for every path of
 * the 3-card naive swap), so adding a path is usually one comparison and
 * one integer addition; denominators that divide one another are scaled,
 * and only unrelated ones are multiplied.  Everything is reduced once, at
 * the end.
 *
 * The uniform reference is 1 / (the number of outcomes a uniform algorithm
 * reaches): n! orders for a permutation, n!/(n-k)! ordered hands for a
 * draw of k cards, n! / (h_1! ... h_H!) deals for hands of sizes h_i.
 * The total-variation distance is the sum over outcomes of max(0, p - 1/K),
 * which equals half the sum of |p - 1/K| when the masses add up to one.
 */
#include "stats/exact.h"

#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"
#include "stats/memory.h"
#include "stats/nulls.h"

#define MATRIX_N_MAX 16       /* the exact matrix is written up to this n */
#define NEVER_LIST_MAX 720    /* never-reached orders listed up to 6! */

struct sb_exact_acc {
    sb_shape shape;
    size_t count, cap;        /* outcomes reached, room */
    sb_card *samples;         /* count * len values */
    mpz_t *num, *den;         /* unreduced probability of each outcome */
    uint64_t *paths;          /* paths ending at each outcome */
    uint32_t *slots;          /* hash table: outcome index + 1, 0 = empty */
    size_t n_slots;           /* a power of two, at least twice 'count' */
    mpq_t cut;                /* mass of paths cut short */
    mpz_t first_num, first_den; /* weight of the first path */
    int equal_weights;        /* every path so far weighs the same */
    uint64_t added;           /* paths added */
    mpz_t mass_num, mass_den; /* the mass of every path added, unreduced:
                                 an interrupted walk reports it without
                                 going through the outcomes */
    size_t limbs;             /* the most limbs of a path's denominator */
    const volatile sig_atomic_t *stop;  /* finish gives up when set */
};

static uint64_t hash(const sb_card *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < len; i++) {
        h ^= s[i];
        h *= 0x100000001b3u;
    }
    return h ^ (h >> 29);
}

int sb_exact_acc_new(sb_exact_acc **out, const sb_shape *shape)
{
    *out = NULL;
    if (shape->len == 0 || shape->len > shape->n)
        return SB_EINVAL;
    sb_exact_acc *a = calloc(1, sizeof *a);
    if (!a)
        return SB_ENOMEM;
    a->shape = *shape;
    a->n_slots = 1024;
    a->slots = calloc(a->n_slots, sizeof *a->slots);
    if (!a->slots) {
        free(a);
        return SB_ENOMEM;
    }
    mpq_init(a->cut);
    mpz_init(a->first_num);
    mpz_init(a->first_den);
    mpz_init(a->mass_num);
    mpz_init_set_ui(a->mass_den, 1);
    a->equal_weights = 1;
    *out = a;
    return SB_OK;
}

void sb_exact_acc_free(sb_exact_acc *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->count; i++) {
        mpz_clear(a->num[i]);
        mpz_clear(a->den[i]);
    }
    free(a->num);
    free(a->den);
    free(a->paths);
    free(a->samples);
    free(a->slots);
    mpq_clear(a->cut);
    mpz_clear(a->first_num);
    mpz_clear(a->first_den);
    mpz_clear(a->mass_num);
    mpz_clear(a->mass_den);
    free(a);
}

static int grow(sb_exact_acc *a)
{
    const size_t len = a->shape.len;
    if (a->count == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 256;
        sb_card *s = realloc(a->samples, cap * len * sizeof *s);
        if (s)
            a->samples = s;
        mpz_t *num = realloc(a->num, cap * sizeof *num);
        if (num)
            a->num = num;
        mpz_t *den = realloc(a->den, cap * sizeof *den);
        if (den)
            a->den = den;
        uint64_t *p = realloc(a->paths, cap * sizeof *p);
        if (p)
            a->paths = p;
        if (!s || !num || !den || !p)
            return SB_ENOMEM;
        a->cap = cap;
    }
    if (2 * (a->count + 1) > a->n_slots) {
        size_t n_slots = 2 * a->n_slots;
        uint32_t *slots = calloc(n_slots, sizeof *slots);
        if (!slots)
            return SB_ENOMEM;
        for (size_t i = 0; i < a->count; i++) {
            size_t h = hash(a->samples + i * len, len) & (n_slots - 1);
            while (slots[h])
                h = (h + 1) & (n_slots - 1);
            slots[h] = (uint32_t)(i + 1);
        }
        free(a->slots);
        a->slots = slots;
        a->n_slots = n_slots;
    }
    return SB_OK;
}

/* The index of 'sample', inserted (with probability 0) when new. */
static int find(sb_exact_acc *a, const sb_card *sample, size_t *index)
{
    const size_t len = a->shape.len;
    size_t h = hash(sample, len) & (a->n_slots - 1);
    for (; a->slots[h]; h = (h + 1) & (a->n_slots - 1)) {
        size_t i = a->slots[h] - 1;
        if (memcmp(a->samples + i * len, sample, len * sizeof *sample) == 0) {
            *index = i;
            return SB_OK;
        }
    }
    if (a->count >= UINT32_MAX - 1)
        return SB_ENOMEM;
    int rc = grow(a);
    if (rc != SB_OK)
        return rc;
    h = hash(sample, len) & (a->n_slots - 1);   /* the table may have grown */
    while (a->slots[h])
        h = (h + 1) & (a->n_slots - 1);
    size_t i = a->count++;
    memcpy(a->samples + i * len, sample, len * sizeof *sample);
    mpz_init(a->num[i]);
    mpz_init_set_ui(a->den[i], 1);
    a->paths[i] = 0;
    a->slots[h] = (uint32_t)(i + 1);
    *index = i;
    return SB_OK;
}

/* num/den += a/b, keeping a common denominator without reducing. */
static void add_fraction(mpz_t num, mpz_t den, const mpz_t a, const mpz_t b)
{
    if (mpz_cmp(den, b) == 0) {
        mpz_add(num, num, a);
    } else if (mpz_divisible_p(den, b)) {
        mpz_t k;
        mpz_init(k);
        mpz_divexact(k, den, b);
        mpz_addmul(num, a, k);
        mpz_clear(k);
    } else if (mpz_divisible_p(b, den)) {
        mpz_t k;
        mpz_init(k);
        mpz_divexact(k, b, den);
        mpz_mul(num, num, k);
        mpz_add(num, num, a);
        mpz_set(den, b);
        mpz_clear(k);
    } else {
        mpz_mul(num, num, b);
        mpz_addmul(num, a, den);
        mpz_mul(den, den, b);
    }
}

/* Add num/den and 'paths' paths to the outcome 'sample'. */
static int add_mass(sb_exact_acc *a, const sb_card *sample, const mpz_t num,
                    const mpz_t den, uint64_t paths)
{
    size_t i;
    int rc = find(a, sample, &i);
    if (rc != SB_OK)
        return rc;
    add_fraction(a->num[i], a->den[i], num, den);
    add_fraction(a->mass_num, a->mass_den, num, den);
    if (mpz_size(den) > a->limbs)
        a->limbs = mpz_size(den);
    a->paths[i] = paths > UINT64_MAX - a->paths[i] ? UINT64_MAX
                                                   : a->paths[i] + paths;
    return SB_OK;
}

int sb_exact_acc_add(sb_exact_acc *a, const sb_card *sample, const mpz_t num,
                     const mpz_t den)
{
    int rc = add_mass(a, sample, num, den, 1);
    if (rc != SB_OK)
        return rc;
    if (a->added++ == 0) {
        mpz_set(a->first_num, num);
        mpz_set(a->first_den, den);
    } else if (a->equal_weights
               && (mpz_cmp(num, a->first_num) != 0
                   || mpz_cmp(den, a->first_den) != 0)) {
        mpz_t l, r;
        mpz_inits(l, r, NULL);
        mpz_mul(l, num, a->first_den);
        mpz_mul(r, a->first_num, den);
        a->equal_weights = mpz_cmp(l, r) == 0;
        mpz_clears(l, r, NULL);
    }
    return SB_OK;
}

int sb_exact_acc_add_paths(sb_exact_acc *a, const sb_card *sample,
                           const mpz_t num, const mpz_t den, uint64_t paths)
{
    int rc = add_mass(a, sample, num, den, paths);
    if (rc == SB_OK)
        a->added = paths > UINT64_MAX - a->added ? UINT64_MAX
                                                 : a->added + paths;
    return rc;
}

void sb_exact_acc_path_weight(sb_exact_acc *a, int equal, const mpz_t num,
                              const mpz_t den)
{
    a->equal_weights = equal;
    if (equal) {
        mpz_set(a->first_num, num);
        mpz_set(a->first_den, den);
    }
}

int sb_exact_acc_cut(sb_exact_acc *a, const mpz_t num, const mpz_t den)
{
    mpq_t q;
    mpq_init(q);
    mpz_set(mpq_numref(q), num);
    mpz_set(mpq_denref(q), den);
    mpq_canonicalize(q);
    mpq_add(a->cut, a->cut, q);
    mpq_clear(q);
    return SB_OK;
}

size_t sb_exact_acc_count(const sb_exact_acc *a)
{
    return a->count;
}

void sb_exact_acc_set_stop(sb_exact_acc *a,
                           const volatile sig_atomic_t *stop)
{
    a->stop = stop;
}

/* An integer of 'limbs' limbs as GMP holds it: its own allocation. */
static uint64_t mpz_bytes(size_t limbs)
{
    return sb_mem((limbs ? limbs : 1) * sizeof(mp_limb_t));
}

uint64_t sb_exact_acc_bytes(const sb_exact_acc *a)
{
    const size_t len = a->shape.len;
    uint64_t bytes = sb_mem(sizeof *a)
                   + sb_mem(a->n_slots * sizeof(uint32_t));
    if (a->cap)
        bytes += sb_mem(a->cap * len * sizeof(sb_card))
               + 2 * sb_mem(a->cap * sizeof(mpz_t))
               + sb_mem(a->cap * sizeof(uint64_t));
    for (size_t i = 0; i < a->count; i++)
        bytes += mpz_bytes(mpz_size(a->num[i]))
               + mpz_bytes(mpz_size(a->den[i]));
    return bytes;
}

/* Per outcome, the walk's table holds its sample, two integers (their
   structs and limbs), a path count and at most four hash slots; the
   arrays double when full, and while one is moved the old and the new
   exist at once, so three times each array's share.  Finish adds a
   reduced fraction, three indices, the outcome with its sample and its
   fraction as text, a level; the text and JSON of an outcome take about
   19.3 digits a limb.  The JSON tree of an outcome (an object of six
   members, an array of 'len' numbers) measured about 1 KiB at 8 cards
   with Jansson 2.14; counted here as 1 KiB plus 64 bytes a card. */
uint64_t sb_exact_outcome_bytes(size_t len, size_t limbs, int json)
{
    const uint64_t L = limbs ? limbs : 1;
    const uint64_t text = sb_mem(2 * 20 * L * sizeof(mp_limb_t) / 8 + 3);
    const uint64_t walk = 3 * (len * sizeof(sb_card) + 2 * sizeof(mpz_t)
                               + sizeof(uint64_t))
                        + 4 * sizeof(uint32_t) + 2 * mpz_bytes(L);
    const uint64_t finish = 3 * sizeof(size_t) + sizeof(mpq_t)
                          + 2 * mpz_bytes(L) + sizeof(sb_exact_outcome)
                          + sb_mem(len * sizeof(sb_card)) + text
                          + sizeof(sb_exact_level) + text;
    return walk + finish + (json ? 1024 + 64 * (uint64_t)len : 0);
}

uint64_t sb_exact_acc_need(const sb_exact_acc *a, int json)
{
    return (uint64_t)a->count * sb_exact_outcome_bytes(a->shape.len,
                                                        a->limbs, json);
}

/* Whether finish is to give up, looked at every 2^16 steps of its long
   loops. */
static int stopped(const sb_exact_acc *a, size_t i)
{
    return (i & 0xffff) == 0 && a->stop && *a->stop;
}


/* ---- finishing -------------------------------------------------------- */

char *sb_exact_fraction_str(const mpq_t q)
{
    char *s = mpq_get_str(NULL, 10, q);
    if (s && !strchr(s, '/')) {
        char *t = realloc(s, strlen(s) + 3);
        if (!t) {
            free(s);
            return NULL;
        }
        strcat(t, "/1");
        s = t;
    }
    return s;
}

/* K: the outcomes a uniform algorithm reaches, from the first sample's
   shape (for a deal, its hand sizes). */
static void possible_outcomes(const sb_exact_acc *a, mpz_t k)
{
    const sb_shape *s = &a->shape;
    if (s->kind == SB_KIND_DEAL) {
        size_t sizes[256] = { 0 };
        for (size_t c = 0; a->count && c < s->n; c++)
            if (a->samples[c] < 256)
                sizes[a->samples[c]]++;
        mpz_fac_ui(k, s->n);
        mpz_t f;
        mpz_init(f);
        for (size_t h = 0; h < 256; h++)
            if (sizes[h] > 1) {
                mpz_fac_ui(f, sizes[h]);
                mpz_divexact(k, k, f);
            }
        mpz_clear(f);
    } else {
        mpz_set_ui(k, 1);
        for (size_t i = 0; i < s->len; i++)
            mpz_mul_ui(k, k, s->n - i);
    }
}

/* Sorting with a context, without globals: a small merge sort. */
typedef int (*cmp_fn)(size_t x, size_t y, const void *ctx);

static void sort_indices(size_t *v, size_t *tmp, size_t m, cmp_fn cmp,
                         const void *ctx, const volatile sig_atomic_t *stop)
{
    if (m < 2 || (m >= 0x10000 && stop && *stop))
        return;              /* stopped: the order is abandoned */
    size_t h = m / 2;
    sort_indices(v, tmp, h, cmp, ctx, stop);
    sort_indices(v + h, tmp, m - h, cmp, ctx, stop);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < m)
        tmp[k++] = cmp(v[j], v[i], ctx) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < m)
        tmp[k++] = v[j++];
    memcpy(v, tmp, m * sizeof *v);
}

static int by_sample(size_t x, size_t y, const void *ctx)
{
    const sb_exact_acc *a = ctx;
    const size_t len = a->shape.len;
    const sb_card *p = a->samples + x * len, *q = a->samples + y * len;
    for (size_t i = 0; i < len; i++)
        if (p[i] != q[i])
            return p[i] < q[i] ? -1 : 1;
    return 0;
}

typedef struct prob_ctx {
    mpq_t *p;
    const sb_exact_outcome *out;   /* the same as doubles */
} prob_ctx;

/* Two probabilities whose doubles (mpq_get_d: within a few units of the
   last place) differ by more than a part in 10^9 are in that order; only
   closer ones are compared exactly. */
static int by_probability(size_t x, size_t y, const void *ctx)
{
    const prob_ctx *c = ctx;
    const double dx = c->out[x].probability, dy = c->out[y].probability;
    if (dx < dy * (1 - 1e-9))
        return -1;
    if (dx > dy * (1 + 1e-9))
        return 1;
    return mpq_equal(c->p[x], c->p[y]) ? 0 : mpq_cmp(c->p[x], c->p[y]);
}

/* Permutations of n never reached: every order by lexicographic rank,
   beside the reached ones sorted the same way. */
static int list_never(const sb_exact_acc *a, const size_t *order,
                      sb_exact_report *rep)
{
    const size_t n = a->shape.n;
    const uint64_t k = sb_null_factorial(n);
    /* One spare slot: each order is unranked into the next free slot
       before it is known whether it was reached. */
    rep->never = malloc((k - a->count + 1) * n * sizeof *rep->never);
    if (!rep->never)
        return SB_ENOMEM;
    size_t next = 0;
    for (uint64_t r = 0; r < k; r++) {
        sb_card *perm = rep->never + rep->n_never * n;
        sb_null_perm_unrank(r, n, perm);
        if (next < a->count
            && memcmp(a->samples + order[next] * n, perm, n * sizeof *perm) == 0)
            next++;
        else
            rep->n_never++;
    }
    return SB_OK;
}

/* The exact matrix: card x position (permutation, draw) or card x hand. */
static int write_matrix(const sb_exact_acc *a, const size_t *order,
                        sb_exact_report *rep)
{
    const sb_shape *s = &a->shape;
    if (s->n > MATRIX_N_MAX)
        return SB_OK;
    size_t cols = s->len;
    if (s->kind == SB_KIND_DEAL) {
        cols = 0;
        for (size_t i = 0; i < a->count * s->len; i++)
            if ((size_t)a->samples[i] + 1 > cols)
                cols = (size_t)a->samples[i] + 1;
    }
    const size_t rows = s->n, cells = rows * cols;
    /* Each cell's sum over the outcomes' unreduced fractions, which
       mostly share one denominator: an addition, not a gcd, each. */
    mpz_t *num = malloc((cells ? cells : 1) * sizeof *num);
    mpz_t *den = malloc((cells ? cells : 1) * sizeof *den);
    rep->matrix = calloc(cells ? cells : 1, sizeof *rep->matrix);
    if (!num || !den || !rep->matrix) {
        free(num);
        free(den);
        return SB_ENOMEM;
    }
    for (size_t c = 0; c < cells; c++) {
        mpz_init(num[c]);
        mpz_init_set_ui(den[c], 1);
    }
    int rc = SB_OK;
    for (size_t r = 0; r < a->count && rc == SB_OK; r++) {   /* p[r] is
                                                                order[r]'s */
        if (stopped(a, r)) {
            rc = SB_EINTR;
            break;
        }
        const sb_card *x = a->samples + order[r] * s->len;
        for (size_t j = 0; j < s->len; j++) {
            size_t cell = s->kind == SB_KIND_DEAL ? j * cols + x[j]
                                                  : (size_t)x[j] * cols + j;
            add_fraction(num[cell], den[cell], a->num[order[r]],
                         a->den[order[r]]);
        }
    }
    rep->rows = rows;
    rep->cols = cols;
    mpq_t q;
    mpq_init(q);
    for (size_t c = 0; c < cells; c++) {
        if (rc == SB_OK) {
            mpq_set_num(q, num[c]);
            mpq_set_den(q, den[c]);
            mpq_canonicalize(q);
            rep->matrix[c] = sb_exact_fraction_str(q);
            if (!rep->matrix[c])
                rc = SB_ENOMEM;
        }
        mpz_clear(num[c]);
        mpz_clear(den[c]);
    }
    mpq_clear(q);
    free(num);
    free(den);
    return rc;
}

static int fill_levels(const sb_exact_acc *a, mpq_t *p, const mpz_t k,
                       size_t *tmp, sb_exact_report *rep)
{
    size_t *idx = malloc((a->count ? a->count : 1) * sizeof *idx);
    rep->levels = calloc(a->count + 1, sizeof *rep->levels);
    if (!idx || !rep->levels) {
        free(idx);
        return SB_ENOMEM;
    }
    for (size_t i = 0; i < a->count; i++)
        idx[i] = i;
    prob_ctx ctx = { p, rep->outcomes };
    sort_indices(idx, tmp, a->count, by_probability, &ctx, a->stop);
    rep->by_probability = idx;
    if (a->stop && *a->stop)
        return SB_EINTR;
    mpz_t never;
    mpz_init(never);
    mpz_sub_ui(never, k, a->count);
    if (mpz_sgn(never) > 0) {
        sb_exact_level *l = &rep->levels[rep->n_levels++];
        l->fraction = malloc(sizeof "0/1");
        if (l->fraction)
            strcpy(l->fraction, "0/1");
        l->outcomes = mpz_fits_ulong_p(never) ? mpz_get_ui(never) : UINT64_MAX;
    }
    mpz_clear(never);
    for (size_t i = 0; i < a->count; i++) {
        if (stopped(a, i) && i > 0)
            return SB_EINTR;
        size_t o = idx[i];
        if (i > 0 && mpq_equal(p[o], p[idx[i - 1]])) {
            rep->levels[rep->n_levels - 1].outcomes++;
            continue;
        }
        sb_exact_level *l = &rep->levels[rep->n_levels++];
        l->fraction = sb_exact_fraction_str(p[o]);
        l->probability = rep->outcomes[o].probability;
        l->ratio = rep->outcomes[o].ratio;
        l->outcomes = 1;
    }
    for (size_t i = 0; i < rep->n_levels; i++)
        if (!rep->levels[i].fraction)
            return SB_ENOMEM;
    return SB_OK;
}

int sb_exact_acc_finish(sb_exact_acc *a, sb_exact_report *rep)
{
    const size_t len = a->shape.len;
    int rc = SB_ENOMEM;
    size_t *order = malloc((a->count ? a->count : 1) * sizeof *order);
    size_t *tmp = malloc((a->count ? a->count : 1) * sizeof *tmp);
    mpq_t *p = malloc((a->count ? a->count : 1) * sizeof *p);
    rep->outcomes = calloc(a->count ? a->count : 1, sizeof *rep->outcomes);
    mpz_t k, total_num, total_den, tv_num, tv_den, over, over_den;
    mpq_t uniform, total, tv, d, ratio;
    mpz_inits(k, total_num, tv_num, over, over_den, NULL);
    mpz_init_set_ui(total_den, 1);
    mpz_init_set_ui(tv_den, 1);
    mpq_inits(uniform, total, tv, d, ratio, NULL);
    if (!order || !tmp || !p || !rep->outcomes)
        goto done;

    possible_outcomes(a, k);
    mpq_set_z(uniform, k);
    mpq_inv(uniform, uniform);
    rep->possible = mpz_get_str(NULL, 10, k);
    rep->possible_d = mpz_get_d(k);
    rep->uniform = sb_exact_fraction_str(uniform);
    mpz_t unreached;
    mpz_init(unreached);
    mpz_sub_ui(unreached, k, a->count);
    rep->unreached = mpz_get_str(NULL, 10, unreached);
    mpz_clear(unreached);

    for (size_t i = 0; i < a->count; i++)
        order[i] = i;
    sort_indices(order, tmp, a->count, by_sample, a, a->stop);
    if (a->stop && *a->stop) {
        rc = SB_EINTR;
        goto done;
    }

    int all_uniform = mpz_cmp_ui(k, a->count) == 0;
    rep->max_ratio = 0;
    rep->min_ratio = a->count > 0 && all_uniform ? 1e308 : 0;
    for (size_t r = 0; r < a->count; r++) {
        const size_t o = order[r];
        if (stopped(a, r)) {
            for (size_t i = 0; i < r; i++)
                mpq_clear(p[i]);
            rep->n_outcomes = r;
            rc = SB_EINTR;
            goto done;
        }
        mpq_init(p[r]);
        mpz_set(mpq_numref(p[r]), a->num[o]);
        mpz_set(mpq_denref(p[r]), a->den[o]);
        mpq_canonicalize(p[r]);
        sb_exact_outcome *out = &rep->outcomes[r];
        out->sample = malloc(len * sizeof *out->sample);
        out->fraction = sb_exact_fraction_str(p[r]);
        if (!out->sample || !out->fraction) {
            for (size_t i = 0; i <= r; i++)
                mpq_clear(p[i]);
            rep->n_outcomes = r + 1;
            goto done;
        }
        memcpy(out->sample, a->samples + o * len, len * sizeof *out->sample);
        out->probability = mpq_get_d(p[r]);
        mpq_div(ratio, p[r], uniform);
        out->ratio = mpq_get_d(ratio);
        out->paths = a->paths[o];
        if (out->ratio > rep->max_ratio)
            rep->max_ratio = out->ratio;
        if (out->ratio < rep->min_ratio)
            rep->min_ratio = out->ratio;
        /* The sums over the outcomes' own, mostly common, denominators:
           no gcd per outcome. */
        add_fraction(total_num, total_den, a->num[o], a->den[o]);
        const int above = mpq_cmp(p[r], uniform);
        if (above > 0) {
            mpz_mul(over, a->num[o], k);
            mpz_sub(over, over, a->den[o]);
            mpz_mul(over_den, a->den[o], k);
            add_fraction(tv_num, tv_den, over, over_den);
        }
        if (above != 0)
            all_uniform = 0;
    }
    rep->n_outcomes = a->count;
    rep->reached = a->count;
    mpq_set_num(total, total_num);
    mpq_set_den(total, total_den);
    mpq_canonicalize(total);
    mpq_set_num(tv, tv_num);
    mpq_set_den(tv, tv_den);
    mpq_canonicalize(tv);

    rep->unexplored = sb_exact_fraction_str(a->cut);
    rep->unexplored_d = mpq_get_d(a->cut);
    mpq_add(d, total, a->cut);
    if (mpq_cmp_ui(d, 1, 1) != 0) {
        rc = SB_ERANGE;
        goto clear_p;
    }
    rep->tv = sb_exact_fraction_str(tv);
    rep->tv_d = mpq_get_d(tv);
    /* Mass above 1/K on a reached outcome proves bias whatever was left
       unexplored; otherwise only a complete walk decides. */
    rep->verdict = all_uniform && mpq_sgn(a->cut) == 0 ? SB_EXACT_UNIFORM
                 : mpq_sgn(tv) > 0 || mpq_sgn(a->cut) == 0 ? SB_EXACT_BIASED
                 : SB_EXACT_INCONCLUSIVE;
    rep->equal_weights = a->equal_weights && a->added > 0;
    if (rep->equal_weights) {
        mpq_set_num(d, a->first_num);
        mpq_set_den(d, a->first_den);
        mpq_canonicalize(d);
        rep->path_weight = sb_exact_fraction_str(d);
    }
    rc = fill_levels(a, p, k, tmp, rep);
    if (rc == SB_OK && a->shape.kind == SB_KIND_PERMUTATION
        && mpz_cmp_ui(k, NEVER_LIST_MAX) <= 0 && mpz_cmp_ui(k, a->count) > 0)
        rc = list_never(a, order, rep);
    if (rc == SB_OK)
        rc = write_matrix(a, order, rep);
clear_p:
    for (size_t i = 0; i < a->count; i++)
        mpq_clear(p[i]);
done:
    free(order);
    free(tmp);
    free(p);
    mpz_clears(k, total_num, total_den, tv_num, tv_den, over, over_den,
                NULL);
    mpq_clears(uniform, total, tv, d, ratio, NULL);
    return rc;
}

void sb_exact_report_release(sb_exact_report *rep)
{
    for (size_t i = 0; i < rep->n_outcomes; i++) {
        free(rep->outcomes[i].sample);
        free(rep->outcomes[i].fraction);
    }
    free(rep->outcomes);
    for (size_t i = 0; i < rep->n_levels; i++)
        free(rep->levels[i].fraction);
    free(rep->levels);
    free(rep->by_probability);
    rep->by_probability = NULL;
    for (size_t i = 0; rep->matrix && i < rep->rows * rep->cols; i++)
        free(rep->matrix[i]);
    free(rep->matrix);
    free(rep->never);
    free(rep->possible);
    free(rep->uniform);
    free(rep->unreached);
    free(rep->tv);
    free(rep->unexplored);
    free(rep->path_weight);
    free(rep->explored);
    rep->explored = NULL;
    rep->outcomes = NULL;
    rep->levels = NULL;
    rep->matrix = NULL;
    rep->never = NULL;
    rep->possible = rep->uniform = rep->unreached = rep->tv = NULL;
    rep->unexplored = rep->path_weight = NULL;
    rep->n_outcomes = rep->n_levels = rep->n_never = 0;
}

int sb_exact_acc_summary(const sb_exact_acc *a, sb_exact_report *rep)
{
    mpz_t k;
    mpq_t q;
    mpz_init(k);
    mpq_init(q);
    possible_outcomes(a, k);
    rep->possible = mpz_get_str(NULL, 10, k);
    rep->possible_d = mpz_get_d(k);
    mpq_set_z(q, k);
    mpq_inv(q, q);
    rep->uniform = sb_exact_fraction_str(q);
    mpz_sub_ui(k, k, a->count);
    rep->unreached = mpz_get_str(NULL, 10, k);
    mpz_set(mpq_numref(q), a->mass_num);
    mpz_set(mpq_denref(q), a->mass_den);
    mpq_canonicalize(q);
    rep->explored = sb_exact_fraction_str(q);
    rep->explored_d = mpq_get_d(q);
    mpz_sub(mpq_numref(q), a->mass_den, a->mass_num);
    mpz_set(mpq_denref(q), a->mass_den);
    mpq_canonicalize(q);
    rep->unexplored = sb_exact_fraction_str(q);
    rep->unexplored_d = mpq_get_d(q);
    mpz_clear(k);
    mpq_clear(q);
    rep->reached = a->count;
    rep->summary_only = 1;
    rep->partial = 1;
    rep->verdict = SB_EXACT_INCONCLUSIVE;
    return rep->possible && rep->uniform && rep->unreached && rep->explored
           && rep->unexplored ? SB_OK : SB_ENOMEM;
}
