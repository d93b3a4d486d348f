/*
 * markov.c - the exact walk over the states of a shuffle that is Markov in
 * its deck (markov.h).
 *
 * Two generations of decks take turns: the law after step s, and the one
 * step s + 1 is making.  Each holds its decks' keys, weights and the
 * number of paths of draws each stands for, and a hash table from key to
 * place.  The weights share one denominator, 'den' for the current law;
 * step s + 1 multiplies it by L, the least common multiple of the
 * denominators of its paths' probabilities, which grows (and rescales
 * what the step has made so far) when a path brings a new one.  A path
 * of probability pnum/pden from a deck of weight w adds w x pnum x
 * (L / pden) to the deck it leaves; that is at most den x L, so while
 * den x L fits a machine word every weight does, and the walk changes to
 * GMP integers the first time it does not.
 */
#include "engine/markov.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/shuffle_type.h"
#include "engine/budget.h"
#include "engine/paths.h"
#include "engine/runner.h"
#include "sources/sample_check.h"
#include "shufflebias/status.h"
#include "stats/exact.h"

typedef struct gen {
    size_t count, cap;
    uint64_t *key;          /* each deck's key */
    uint64_t *paths;        /* paths of draws it stands for (saturating) */
    uint64_t *small;        /* weights, while they fit a word */
    mpz_t *big;             /* weights, after */
    struct slot {
        uint64_t key;
        uint32_t at;        /* place + 1, 0 = empty */
    } *slots;
    size_t n_slots;         /* a power of two, at least twice 'count' */
} gen;

struct sb_markov_law {
    size_t n;
    const gen *g;
    int big;                /* weights in g->big */
    uint64_t den_small;     /* the common denominator, while small */
    mpz_t den;              /* the same, always */
};

/* ---- deck keys ---- */

static uint64_t deck_key(const sb_card *d, size_t n)
{
    uint64_t k = 0;
    if (n <= 16) {
        for (size_t i = 0; i < n; i++)
            k |= (uint64_t)d[i] << (4 * i);
        return k;
    }
    /* The Lehmer code read in the factorial base. */
    for (size_t i = 0; i < n; i++) {
        uint64_t c = 0;
        for (size_t j = i + 1; j < n; j++)
            c += d[j] < d[i];
        k = k * (n - i) + c;
    }
    return k;
}

static void key_deck(uint64_t k, size_t n, sb_card *d)
{
    if (n <= 16) {
        for (size_t i = 0; i < n; i++)
            d[i] = (sb_card)((k >> (4 * i)) & 15u);
        return;
    }
    unsigned digit[SB_MARKOV_N_MAX];
    for (size_t i = n; i-- > 0;) {
        digit[i] = (unsigned)(k % (n - i));
        k /= n - i;
    }
    sb_card left[SB_MARKOV_N_MAX];
    for (size_t i = 0; i < n; i++)
        left[i] = (sb_card)i;
    for (size_t i = 0; i < n; i++) {
        d[i] = left[digit[i]];
        memmove(left + digit[i], left + digit[i] + 1,
                (n - i - 1 - digit[i]) * sizeof *left);
    }
}

static size_t key_hash(uint64_t k)
{
    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9u;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebu;
    return (size_t)(k ^ (k >> 31));
}

/* ---- generations ---- */

static void gen_free(gen *g)
{
    if (g->big)
        for (size_t i = 0; i < g->count; i++)
            mpz_clear(g->big[i]);
    free(g->key);
    free(g->paths);
    free(g->small);
    free(g->big);
    free(g->slots);
    memset(g, 0, sizeof *g);
}

/* Empty it, keeping its room. */
static void gen_clear(gen *g)
{
    if (g->big)
        for (size_t i = 0; i < g->count; i++)
            mpz_clear(g->big[i]);
    g->count = 0;
    if (g->slots)
        memset(g->slots, 0, g->n_slots * sizeof *g->slots);
}

/* Bytes one deck costs a generation: key, paths, weight and slots (two
   per deck), and a weight of 'limbs' words when they are GMP integers. */
static uint64_t deck_bytes(int big, size_t limbs)
{
    return 8 + 8 + 2 * sizeof(struct slot)
         + (big ? sizeof(mpz_t) + 8 * (limbs + 2) : 8);
}

static uint64_t gen_bytes(const gen *g, int big, size_t limbs)
{
    return (uint64_t)g->cap * (deck_bytes(big, limbs)
                               - 2 * sizeof(struct slot))
         + (uint64_t)g->n_slots * sizeof(struct slot);
}

static int gen_grow(gen *g, int big)
{
    if (g->count == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 1024;
        uint64_t *key = realloc(g->key, cap * sizeof *key);
        if (key)
            g->key = key;
        uint64_t *paths = realloc(g->paths, cap * sizeof *paths);
        if (paths)
            g->paths = paths;
        if (!key || !paths)
            return SB_ENOMEM;
        if (big) {
            mpz_t *w = realloc(g->big, cap * sizeof *w);
            if (!w)
                return SB_ENOMEM;
            g->big = w;
        } else {
            uint64_t *w = realloc(g->small, cap * sizeof *w);
            if (!w)
                return SB_ENOMEM;
            g->small = w;
        }
        g->cap = cap;
    }
    if (2 * (g->count + 1) > g->n_slots) {
        size_t n_slots = g->n_slots ? 2 * g->n_slots : 2048;
        struct slot *slots = calloc(n_slots, sizeof *slots);
        if (!slots)
            return SB_ENOMEM;
        for (size_t i = 0; i < g->count; i++) {
            size_t h = key_hash(g->key[i]) & (n_slots - 1);
            while (slots[h].at)
                h = (h + 1) & (n_slots - 1);
            slots[h].key = g->key[i];
            slots[h].at = (uint32_t)(i + 1);
        }
        free(g->slots);
        g->slots = slots;
        g->n_slots = n_slots;
    }
    return SB_OK;
}

/* The place of 'key', added with weight 0 when new. */
static int gen_find(gen *g, int big, uint64_t key, size_t *at)
{
    size_t h = g->n_slots ? key_hash(key) & (g->n_slots - 1) : 0;
    for (; g->n_slots && g->slots[h].at; h = (h + 1) & (g->n_slots - 1))
        if (g->slots[h].key == key) {
            *at = g->slots[h].at - 1;
            return SB_OK;
        }
    if (g->count >= UINT32_MAX - 1)
        return SB_ENOMEM;
    int rc = gen_grow(g, big);
    if (rc != SB_OK)
        return rc;
    h = key_hash(key) & (g->n_slots - 1);
    while (g->slots[h].at)
        h = (h + 1) & (g->n_slots - 1);
    const size_t i = g->count++;
    g->key[i] = key;
    g->paths[i] = 0;
    if (big)
        mpz_init(g->big[i]);
    else
        g->small[i] = 0;
    g->slots[h].key = key;
    g->slots[h].at = (uint32_t)(i + 1);
    *at = i;
    return SB_OK;
}

/* Its word weights as GMP integers. */
static int gen_to_big(gen *g)
{
    mpz_t *w = malloc((g->cap ? g->cap : 1) * sizeof *w);
    if (!w)
        return SB_ENOMEM;
    for (size_t i = 0; i < g->count; i++)
        mpz_init_set_ui(w[i], g->small[i]);
    free(g->small);
    g->small = NULL;
    g->big = w;
    return SB_OK;
}

/* ---- the law ---- */

size_t sb_markov_law_n(const sb_markov_law *law)
{
    return law->n;
}

size_t sb_markov_law_count(const sb_markov_law *law)
{
    return law->g->count;
}

void sb_markov_law_deck(const sb_markov_law *law, size_t i, sb_card *deck)
{
    key_deck(law->g->key[i], law->n, deck);
}

static void weight(const sb_markov_law *law, size_t i, mpz_t w)
{
    if (law->big)
        mpz_set(w, law->g->big[i]);
    else
        mpz_set_ui(w, law->g->small[i]);
}

void sb_markov_law_prob(const sb_markov_law *law, size_t i, mpq_t p)
{
    weight(law, i, mpq_numref(p));
    mpz_set(mpq_denref(p), law->den);
    mpq_canonicalize(p);
}

void sb_markov_law_distances(const sb_markov_law *law, mpq_t tv, mpq_t sep)
{
    mpz_t fact, w, over, least;
    mpz_inits(fact, w, over, least, NULL);
    mpz_fac_ui(fact, law->n);
    /* With P = w / den: P - 1/n! = (w n! - den) / (den n!). */
    mpz_set_ui(mpq_numref(tv), 0);
    int first = 1;
    for (size_t i = 0; i < law->g->count; i++) {
        weight(law, i, w);
        if (first || mpz_cmp(w, least) < 0)
            mpz_set(least, w);
        first = 0;
        mpz_mul(over, w, fact);
        mpz_sub(over, over, law->den);
        if (mpz_sgn(over) > 0)
            mpz_add(mpq_numref(tv), mpq_numref(tv), over);
    }
    mpz_mul(mpq_denref(tv), law->den, fact);
    mpq_canonicalize(tv);
    /* 1 - n! min P = (den - n! min w) / den, 1 with an order unreached. */
    if (mpz_cmp_ui(fact, law->g->count) != 0) {
        mpq_set_ui(sep, 1, 1);
    } else {
        mpz_mul(over, least, fact);
        mpz_sub(mpq_numref(sep), law->den, over);
        mpz_set(mpq_denref(sep), law->den);
        mpq_canonicalize(sep);
    }
    mpz_clears(fact, w, over, least, NULL);
}

/* ---- the walk ---- */

const char *sb_markov_refusal(const sb_markov *m, const sb_shape *shape)
{
    if (!m || !m->steps || !m->step)
        return "it does not say it is Markov in its deck";
    if (shape->kind == SB_KIND_DEAL)
        return "a deal's sample is not a deck";
    if (shape->n > SB_MARKOV_N_MAX)
        return "its decks have more cards than a state's key holds (20)";
    return NULL;
}

static double factorial_d(size_t n)
{
    return exp(lgamma((double)n + 1));
}

/* steps x min(n!, per^s) x per, summed over the steps s, saturating. */
static uint64_t moves_for(double per, size_t steps, size_t n)
{
    const double orders = factorial_d(n);
    double moves = 0, reached = 1;
    for (size_t s = 0; s < steps && moves < 0x1p63; s++) {
        moves += (reached < orders ? reached : orders) * per;
        reached *= per;
    }
    return moves >= 0x1p63 ? UINT64_MAX : (uint64_t)moves;
}

uint64_t sb_markov_moves_bound(const sb_enum_config *cfg,
                               const sb_markov *m)
{
    const sb_shuffle_type *t = cfg->alg;
    if (!t->exact_paths)
        return 0;
    const size_t steps = m->steps(&cfg->args);
    const uint64_t paths = t->exact_paths(&cfg->args);
    /* A saturated count says nothing of a step's paths. */
    if (steps == 0 || paths == 0 || paths == UINT64_MAX)
        return 0;
    const double per = round(pow((double)paths, 1.0 / (double)steps));
    /* Paths not split evenly over the steps: no bound from them. */
    if (fabs(pow(per, (double)steps) - (double)paths)
        > 0.5 * (double)paths * 1e-9)
        return 0;
    return moves_for(per, steps, cfg->args.n);
}

typedef struct walker {
    const sb_enum_config *cfg;
    const sb_markov *m;
    size_t n;
    sb_walk paths;
    void *state;
    gen g[2];
    int cur;                 /* the current law's generation */
    sb_markov_law law;
    uint64_t budget;
    size_t limbs;            /* the most words a weight had */
    sb_markov_stats st;
} walker;

/* One step along the current path of its draws.  The setjmp lives here,
   in a function with no local that changes after it. */
static void run_step(walker *w, size_t s, sb_src *src, sb_card *deck)
{
    sb_walk *k = &w->paths;
    if (setjmp(k->abandon) == 0
        && (k->run_status = w->m->step(w->state, &w->cfg->args, s, src,
                                       deck)) != SB_OK) {
        k->status = SB_EINVAL;
        k->why = "its step reported an error on one of its paths";
    } else if (k->status == SB_OK && src->error != SB_OK) {
        k->status = SB_EINVAL;
        k->why = "a step made a draw with arguments out of range";
    }
}

/* Whether deck is a permutation of 0..n-1. */
static int is_deck(const sb_card *d, size_t n)
{
    uint32_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] >= n || (seen >> d[i] & 1u))
            return 0;
        seen |= 1u << d[i];
    }
    return 1;
}

static int over_budget(walker *w, char *err, size_t len)
{
    const uint64_t used = gen_bytes(&w->g[0], w->law.big, w->limbs)
                        + gen_bytes(&w->g[1], w->law.big, w->limbs);
    if (used <= w->budget)
        return SB_OK;
    char has[32];
    sb_budget_str(w->budget, has, sizeof has);
    snprintf(err, len, "'%s' at n = %zu reached %llu decks in one step, and "
             "the walk over its states outgrew the memory budget of %s: "
             "raise --memory or lower n", w->cfg->alg->name, w->n,
             (unsigned long long)w->g[w->cur ^ 1].count, has);
    return SB_ERANGE;
}

/* Make the next law's denominator factor L a multiple of 'pden',
   rescaling what the step has made.  L is kept as an mpz and, while the
   weights are words, as a word too. */
static int widen(walker *w, gen *next, mpz_t L, uint64_t *L_small,
                 const mpz_t pden)
{
    if (mpz_divisible_p(L, pden))
        return SB_OK;
    mpz_t nl, f;
    mpz_inits(nl, f, NULL);
    mpz_lcm(nl, L, pden);
    mpz_divexact(f, nl, L);
    mpz_set(L, nl);
    int rc = SB_OK;
    if (!w->law.big) {
        mpz_mul(nl, w->law.den, L);
        if (mpz_sizeinbase(nl, 2) <= 63) {
            const uint64_t k = mpz_get_ui(f);
            for (size_t i = 0; i < next->count; i++)
                next->small[i] *= k;
            *L_small = mpz_get_ui(L);
            goto done;
        }
        /* Beyond a word: both generations to GMP integers. */
        rc = gen_to_big(&w->g[w->cur]);
        if (rc == SB_OK)
            rc = gen_to_big(next);
        if (rc != SB_OK)
            goto done;
        w->law.big = 1;
    }
    for (size_t i = 0; i < next->count; i++)
        mpz_mul(next->big[i], next->big[i], f);
done:
    mpz_clears(nl, f, NULL);
    return rc;
}

/* "'NAME' at n = N" with what went wrong on the current path. */
static int step_error(walker *w, size_t s, const char *why, char *err,
                      size_t len)
{
    char draws[160];
    sb_walk_draws(&w->paths, draws, sizeof draws);
    snprintf(err, len, "'%s' cannot be walked by its steps: step %zu, the "
             "path of draws %s (each draw as branch/branches): %s",
             w->cfg->alg->name, s, draws, why);
    return SB_EINVAL;
}

static void add_paths(gen *next, size_t at, uint64_t p)
{
    next->paths[at] = p > UINT64_MAX - next->paths[at] ? UINT64_MAX
                                                       : next->paths[at] + p;
}

/* Moves of word weights wait in a short queue, their slots fetched from
   memory while the walk goes on: the next law's table is far larger than
   a cache, and a move that waits for its slot costs more than the rest
   of the move together. */
#define PIPE_LEN 8

typedef struct move_pipe {
    struct {
        uint64_t key;        /* the deck the path left */
        size_t from;         /* the deck it came from */
        uint64_t factor;     /* pnum x (L / pden) */
    } q[PIPE_LEN];
    size_t head, count;
} move_pipe;

static int pipe_apply(move_pipe *p, walker *w, gen *next, const gen *cur)
{
    const size_t i = p->head, from = p->q[i].from;
    size_t at;
    int rc = gen_find(next, w->law.big, p->q[i].key, &at);
    if (rc != SB_OK)
        return rc;
    if (w->law.big) {
        mpz_addmul_ui(next->big[at], cur->big[from], p->q[i].factor);
        if (mpz_size(next->big[at]) > w->limbs)
            w->limbs = mpz_size(next->big[at]);
    } else {
        next->small[at] += cur->small[from] * p->q[i].factor;
    }
    add_paths(next, at, cur->paths[from]);
    p->head = (p->head + 1) % PIPE_LEN;
    p->count--;
    return SB_OK;
}

static int pipe_push(move_pipe *p, walker *w, gen *next, const gen *cur,
                     uint64_t key, size_t from, uint64_t factor)
{
    if (p->count == PIPE_LEN) {
        int rc = pipe_apply(p, w, next, cur);
        if (rc != SB_OK)
            return rc;
    }
    if (next->n_slots)
        __builtin_prefetch(&next->slots[key_hash(key)
                                        & (next->n_slots - 1)]);
    const size_t i = (p->head + p->count) % PIPE_LEN;
    p->q[i].key = key;
    p->q[i].from = from;
    p->q[i].factor = factor;
    p->count++;
    return SB_OK;
}

static int pipe_flush(move_pipe *p, walker *w, gen *next, const gen *cur)
{
    int rc = SB_OK;
    while (p->count && rc == SB_OK)
        rc = pipe_apply(p, w, next, cur);
    return rc;
}

/* Step s: the current law through every path of the step's draws. */
static int take_step(walker *w, size_t s, int *equal, mpq_t path_weight,
                     char *err, size_t len)
{
    const sb_enum_config *cfg = w->cfg;
    const sb_shuffle_type *t = cfg->alg;
    gen *cur = &w->g[w->cur], *next = &w->g[w->cur ^ 1];
    gen_clear(next);
    mpz_t L, m, q, last_num, last_den;
    mpq_t first, pw;
    mpz_inits(L, m, q, last_num, last_den, NULL);
    uint64_t m_small = 0;
    int m_word = 1;
    move_pipe pipe = { 0 };
    mpq_inits(first, pw, NULL);
    mpz_set_ui(L, 1);
    uint64_t L_small = 1;
    int have_first = 0, rc = SB_OK;
    /* Room for the guard words after the deck a step works on. */
    sb_card deck[SB_MARKOV_N_MAX], work[SB_MARKOV_N_MAX + SB_SAMPLE_GUARD];
    sb_src src = sb_walk_src(&w->paths);
    sb_walk *k = &w->paths;
    for (size_t i = 0; i < cur->count && rc == SB_OK; i++) {
        key_deck(cur->key[i], w->n, deck);
        do {
            if (cfg->stop && *cfg->stop) {
                rc = SB_EINTR;
                break;
            }
            sb_walk_start(k);
            memcpy(work, deck, w->n * sizeof *work);
            sb_sample_guard_set(work + w->n);
            if (t->reset)
                t->reset(w->state, &cfg->args);
            run_step(w, s, &src, work);
            if (!sb_sample_guard_intact(work + w->n)) {
                rc = step_error(w, s, "the step wrote past the end of the "
                                "deck", err, len);
                break;
            }
            if (k->status != SB_OK) {
                rc = step_error(w, s, k->why, err, len);
                break;
            }
            if (k->cut) {
                char why[96];
                snprintf(why, sizeof why, "a step made more than %zu draws",
                         k->max_depth);
                rc = step_error(w, s, why, err, len);
                break;
            }
            if (k->dead)
                continue;
            if (!is_deck(work, w->n)) {
                rc = step_error(w, s, "the step left no permutation of the "
                                "deck", err, len);
                break;
            }
            const mpz_t *pnum = &k->num[k->len], *pden = &k->den[k->len];
            /* Most paths of a step weigh what the last one did: the
               factor m = pnum x (L / pden) is worked out again only for
               a new weight. */
            if (!have_first || mpz_cmp(*pnum, last_num) != 0
                || mpz_cmp(*pden, last_den) != 0) {
                mpz_set(last_num, *pnum);
                mpz_set(last_den, *pden);
                if (!have_first) {
                    mpq_set_num(first, *pnum);
                    mpq_set_den(first, *pden);
                    mpq_canonicalize(first);
                    have_first = 1;
                } else if (*equal) {
                    mpq_set_num(pw, *pnum);
                    mpq_set_den(pw, *pden);
                    mpq_canonicalize(pw);
                    *equal = mpq_equal(first, pw);
                }
                /* What waits was weighed with the L it had. */
                rc = pipe_flush(&pipe, w, next, cur);
                if (rc == SB_OK)
                    rc = widen(w, next, L, &L_small, *pden);
                if (rc != SB_OK)
                    break;
                mpz_divexact(q, L, *pden);
                mpz_mul(m, q, *pnum);
                /* A factor of a word (the usual one) goes through the
                   queue whatever the weights are. */
                m_word = mpz_fits_ulong_p(m);
                m_small = m_word ? mpz_get_ui(m) : 0;
            }
            const uint64_t key = deck_key(work, w->n);
            if (!m_word) {
                /* w x pnum x (L / pden). */
                size_t at;
                rc = gen_find(next, 1, key, &at);
                if (rc != SB_OK)
                    break;
                mpz_addmul(next->big[at], cur->big[i], m);
                if (mpz_size(next->big[at]) > w->limbs)
                    w->limbs = mpz_size(next->big[at]);
                add_paths(next, at, cur->paths[i]);
            } else {
                rc = pipe_push(&pipe, w, next, cur, key, i, m_small);
                if (rc != SB_OK)
                    break;
            }
            if (++w->st.moves > cfg->max_paths) {
                snprintf(err, len, "'%s' at n = %zu takes more than %llu "
                         "moves (a deck through one path of a step's "
                         "draws)%s", t->name, w->n,
                         (unsigned long long)cfg->max_paths,
                         cfg->option_advice ? ": raise --max-paths or lower "
                                              "n" : "");
                rc = SB_ERANGE;
                break;
            }
            if ((w->st.moves & 0xfffff) == 0) {
                if (cfg->progress)
                    cfg->progress(cfg->progress_ctx, w->st.moves,
                                  sb_markov_moves_bound(cfg, w->m));
                rc = over_budget(w, err, len);
            }
        } while (rc == SB_OK && sb_walk_advance(k));
    }
    if (rc == SB_OK)
        rc = pipe_flush(&pipe, w, next, cur);
    if (rc == SB_OK)
        rc = over_budget(w, err, len);
    if (rc == SB_OK) {
        if (*equal && have_first)
            mpq_mul(path_weight, path_weight, first);
        mpz_mul(w->law.den, w->law.den, L);
        if (!w->law.big)
            w->law.den_small *= L_small;
        if (next->count > w->st.peak)
            w->st.peak = next->count;
        w->cur ^= 1;
        w->law.g = &w->g[w->cur];
    }
    /* A walk abandoned in a step starts its next one at its first path. */
    while (sb_walk_advance(k))
        ;
    mpz_clears(L, m, q, last_num, last_den, NULL);
    mpq_clears(first, pw, NULL);
    return rc;
}

/* Seeds on which the walk checks its declaration before it starts. */
#define PROMISE_SEEDS 16

/* The promise of markov.h, tried on PROMISE_SEEDS seeds of the built-in
   generator: from the same draws, run() and the steps make the same deck
   (the first sample_len cards of it), and leave the source at the same
   place.  SB_OK, or SB_EINVAL with what differed. */
static int check_promise(walker *w, char *err, size_t len)
{
    const sb_shuffle_type *t = w->cfg->alg;
    const sb_shuffle_args *a = &w->cfg->args;
    sb_shape shape;
    sb_shuffle_shape(t, a, &shape);
    sb_card ran[SB_MARKOV_N_MAX + SB_SAMPLE_GUARD];
    sb_card deck[SB_MARKOV_N_MAX + SB_SAMPLE_GUARD];
    int rc = SB_OK;
    for (uint64_t seed = 1; seed <= PROMISE_SEEDS && rc == SB_OK; seed++) {
        sb_rng *r1 = NULL, *r2 = NULL;
        sb_src s1, s2;
        rc = sb_rng_open(&r1, SB_RNG_DEFAULT, seed);
        if (rc == SB_OK)
            rc = sb_rng_open(&r2, SB_RNG_DEFAULT, seed);
        if (rc == SB_OK)
            rc = sb_rng_chunk(r1, 0, &s1);
        if (rc == SB_OK)
            rc = sb_rng_chunk(r2, 0, &s2);
        if (rc != SB_OK) {
            snprintf(err, len, "cannot open the generator: %s",
                     sb_status_str(rc));
        } else {
            if (t->reset)
                t->reset(w->state, a);
            sb_sample_guard_set(ran + shape.len);
            int ok = t->run(w->state, a, &s1, ran) == SB_OK
                     && sb_sample_guard_intact(ran + shape.len);
            for (size_t i = 0; i < w->n; i++)
                deck[i] = (sb_card)i;
            sb_sample_guard_set(deck + w->n);
            const size_t steps = w->m->steps(a);
            for (size_t s = 0; ok && s < steps; s++) {
                if (t->reset)
                    t->reset(w->state, a);
                ok = w->m->step(w->state, a, s, &s2, deck) == SB_OK;
            }
            ok = ok && sb_sample_guard_intact(deck + w->n)
                 && memcmp(ran, deck, shape.len * sizeof *deck) == 0
                 && sb_bits(&s1, 32) == sb_bits(&s2, 32);
            if (!ok) {
                snprintf(err, len, "'%s' says it is Markov in its deck, but "
                         "its steps do not make what its run() makes from "
                         "the same draws, within the deck (seed %llu of the "
                         "built-in generator): it cannot be walked by its "
                         "states",
                         t->name, (unsigned long long)seed);
                rc = SB_EINVAL;
            }
        }
        sb_rng_close(r1);
        sb_rng_close(r2);
    }
    return rc;
}

/* Before the walk: the decks it may hold, at most min(n!, paths) in each
   of two generations, and the final table, within the budget. */
static int memory_up_front(walker *w, const sb_shape *shape, char *err,
                           size_t len)
{
    const sb_shuffle_type *t = w->cfg->alg;
    double decks = factorial_d(w->n);
    if (t->exact_paths && (double)t->exact_paths(&w->cfg->args) < decks)
        decks = (double)t->exact_paths(&w->cfg->args);
    const size_t limbs = (size_t)(log2(decks + 1) / 64) + 1;
    const double need = decks * (2.0 * (double)deck_bytes(1, limbs)
                                 + (double)sb_exact_outcome_bytes(
                                       shape->len, limbs, w->cfg->json));
    if (need <= (double)w->budget)
        return SB_OK;
    char needs[32], has[32];
    sb_budget_str(need >= 0x1p62 ? UINT64_MAX / 2 : (uint64_t)need, needs,
                  sizeof needs);
    sb_budget_str(w->budget, has, sizeof has);
    snprintf(err, len, "'%s' at n = %zu can reach %.4g decks, whose walk "
             "and exact table would need up to %s of memory, over the "
             "budget of %s: raise --memory or lower n", t->name, w->n,
             decks, needs, has);
    return SB_ERANGE;
}

/* The final law into 'rep', as sb_enumerate fills it. */
static int report(walker *w, const sb_shape *shape, int equal,
                  const mpq_t path_weight, sb_exact_report *rep, char *err,
                  size_t len)
{
    sb_exact_acc *acc = NULL;
    int rc = sb_exact_acc_new(&acc, shape);
    if (rc != SB_OK) {
        snprintf(err, len, "cannot prepare the exact table: %s",
                 sb_status_str(rc));
        return rc;
    }
    sb_exact_acc_set_stop(acc, w->cfg->stop);
    const gen *g = w->law.g;
    sb_card deck[SB_MARKOV_N_MAX];
    mpz_t wt;
    mpz_init(wt);
    uint64_t paths = 0;
    for (size_t i = 0; i < g->count && rc == SB_OK; i++) {
        key_deck(g->key[i], w->n, deck);
        weight(&w->law, i, wt);
        if (mpz_sgn(wt) == 0)
            continue;
        rc = sb_exact_acc_add_paths(acc, deck, wt, w->law.den, g->paths[i]);
        paths = g->paths[i] > UINT64_MAX - paths ? UINT64_MAX
                                                 : paths + g->paths[i];
    }
    mpz_clear(wt);
    if (rc == SB_OK) {
        sb_exact_acc_path_weight(acc, equal, mpq_numref(path_weight),
                                 mpq_denref(path_weight));
        rep->paths = paths;
        rc = sb_exact_acc_finish(acc, rep);
        if (rc == SB_EINTR) {
            sb_exact_report_release(rep);
            rc = sb_exact_acc_summary(acc, rep);
        } else if (rc != SB_OK) {
            snprintf(err, len, rc == SB_ERANGE
                     ? "internal error: the probabilities of the states do "
                       "not add up to 1"
                     : "out of memory writing the exact table");
        }
    } else {
        snprintf(err, len, "out of memory writing the exact table");
    }
    rep->memory_estimate = sb_exact_acc_need(acc, w->cfg->json);
    sb_exact_acc_free(acc);
    return rc;
}

int sb_markov_walk(const sb_enum_config *cfg, const sb_markov *m,
                   const sb_shape *shape, sb_markov_observer obs, void *ctx,
                   sb_exact_report *rep, sb_markov_stats *stats, char *err,
                   size_t len)
{
    const sb_shuffle_type *t = cfg->alg;
    if (len)
        err[0] = '\0';
    const char *refusal = sb_markov_refusal(m, shape);
    if (refusal) {
        snprintf(err, len, "'%s' cannot be walked by its states: %s",
                 t->name, refusal);
        return SB_ENOTSUP;
    }
    walker *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, len, "out of memory");
        return SB_ENOMEM;
    }
    w->cfg = cfg;
    w->m = m;
    w->n = cfg->args.n;
    w->budget = cfg->memory ? cfg->memory : sb_budget_default();
    w->limbs = 1;
    mpz_init_set_ui(w->law.den, 1);
    w->law.den_small = 1;
    w->law.n = w->n;
    w->law.g = &w->g[0];
    mpq_t path_weight;
    mpq_init(path_weight);
    mpq_set_ui(path_weight, 1, 1);
    int equal = 1;
    const double start = sb_now();
    const size_t steps = m->steps(&cfg->args);
    const size_t depth = cfg->max_depth ? cfg->max_depth
                       : t->exact_depth ? t->exact_depth
                       : SB_ENUM_MAX_DEPTH_DEFAULT;
    int rc = memory_up_front(w, shape, err, len);
    const uint64_t bound = sb_markov_moves_bound(cfg, m);
    if (rc == SB_OK && bound > cfg->max_paths) {
        snprintf(err, len, "'%s' at n = %zu takes up to %llu moves (a deck "
                 "through one path of a step's draws), over the budget of "
                 "%llu%s", t->name, w->n, (unsigned long long)bound,
                 (unsigned long long)cfg->max_paths,
                 cfg->option_advice ? ": raise --max-paths or lower n" : "");
        rc = SB_ERANGE;
    }
    if (rc == SB_OK && (rc = sb_walk_init(&w->paths, depth)) != SB_OK)
        snprintf(err, len, "cannot prepare the walk: %s", sb_status_str(rc));
    if (rc == SB_OK && t->init
        && (rc = t->init(&w->state, &cfg->args)) != SB_OK)
        snprintf(err, len, "cannot prepare the walk: %s", sb_status_str(rc));
    if (rc == SB_OK)
        rc = check_promise(w, err, len);
    if (rc == SB_OK) {
        /* The identity deck, with probability 1. */
        sb_card id[SB_MARKOV_N_MAX];
        for (size_t i = 0; i < w->n; i++)
            id[i] = (sb_card)i;
        size_t at;
        rc = gen_find(&w->g[0], 0, deck_key(id, w->n), &at);
        if (rc == SB_OK) {
            w->g[0].small[at] = 1;
            w->g[0].paths[at] = 1;
            w->st.peak = 1;
        } else {
            snprintf(err, len, "out of memory");
        }
    }
    size_t s = 0;
    for (; rc == SB_OK && s < steps; s++) {
        rc = take_step(w, s, &equal, path_weight, err, len);
        if (rc == SB_OK && s == 0 && steps > 1) {
            /* The paths of the first step, from the one starting deck:
               a bound for a walk whose every step draws alike. */
            const uint64_t more = moves_for((double)w->st.moves, steps,
                                            w->n);
            if (more > cfg->max_paths && !bound) {
                snprintf(err, len, "'%s' at n = %zu takes up to %llu moves "
                         "(a deck through one path of a step's draws: %llu "
                         "paths in its first step), over the budget of "
                         "%llu%s", t->name, w->n, (unsigned long long)more,
                         (unsigned long long)w->st.moves,
                         (unsigned long long)cfg->max_paths,
                         cfg->option_advice ? ": raise --max-paths or lower "
                                              "n" : "");
                rc = SB_ERANGE;
            }
        }
        if (rc == SB_OK && obs)
            rc = obs(ctx, s + 1, &w->law);
        if (rc == SB_MARKOV_ENOUGH && !rep) {
            rc = SB_OK;
            break;
        }
    }
    if (rc == SB_ENOMEM && len && !err[0])
        snprintf(err, len, "out of memory at step %zu of the walk over the "
                 "states of '%s' (%llu decks then)", s, t->name,
                 (unsigned long long)w->g[w->cur ^ 1].count);
    if (rep) {
        memset(rep, 0, sizeof *rep);
        rep->algorithm = t->name;
        sb_shuffle_format_params(t, &cfg->args, rep->params,
                                 sizeof rep->params);
        rep->kind = shape->kind;
        rep->n = shape->n;
        rep->len = shape->len;
        rep->hands = shape->hands;
    }
    if (rc == SB_EINTR && rep) {
        /* Interrupted between the steps' laws: no outcome of the whole
           shuffle is known yet, and the report says so. */
        sb_exact_acc *acc = NULL;
        rc = sb_exact_acc_new(&acc, shape);
        if (rc == SB_OK)
            rc = sb_exact_acc_summary(acc, rep);
        sb_exact_acc_free(acc);
    } else if (rc == SB_OK && rep) {
        rc = report(w, shape, equal, path_weight, rep, err, len);
    }
    if (rep) {
        rep->seconds = sb_now() - start;
        rep->stop = cfg->stop;
        rep->memory_budget = w->budget;
        rep->max_paths = cfg->max_paths;
        rep->max_depth = depth;
    }
    w->st.states = w->law.g->count;
    for (size_t i = 0; i < w->law.g->count; i++) {
        const uint64_t p = w->law.g->paths[i];
        w->st.paths = p > UINT64_MAX - w->st.paths ? UINT64_MAX
                                                   : w->st.paths + p;
    }
    if (stats)
        *stats = w->st;
    if (w->state && t->free)
        t->free(w->state);
    sb_walk_free(&w->paths);
    gen_free(&w->g[0]);
    gen_free(&w->g[1]);
    mpz_clear(w->law.den);
    mpq_clear(path_weight);
    free(w);
    if (rc != SB_OK && rep)
        sb_exact_report_release(rep);
    return rc;
}
