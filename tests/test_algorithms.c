/*
 * test_algorithms.c - the registry sweep and each algorithm's known exact
 * behaviour on tiny decks.
 *
 * The exact checks walk every path of draws with a small replaying source
 * written here (independent of the project's exact mode): each draw is a
 * branch point, and the paths are visited like an odometer.
 */
#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "src/rng.h"

/* ---- a replaying source: every sequence of draws, one per run ---------- */

#define MAX_DEPTH 64

typedef struct replay {
    size_t depth, len;              /* draws made in this run, path length */
    uint64_t choice[MAX_DEPTH];     /* the branch taken at each draw */
    uint64_t radix[MAX_DEPTH];      /* the number of branches there */
    double weight[MAX_DEPTH];       /* probability of the branch taken */
    uint64_t w[MAX_DEPTH][64];      /* weighted(): the weights seen */
} replay;

static uint64_t take(sb_src *src, uint64_t radix, const uint64_t *w)
{
    replay *r = src->impl;
    assert_true(r->depth < MAX_DEPTH);
    if (r->depth == r->len) {       /* a new draw: first branch */
        r->choice[r->len] = 0;
        r->radix[r->len] = radix;
        r->len++;
    }
    size_t d = r->depth++;
    assert_int_equal(r->radix[d], radix);   /* same path, same draw */
    uint64_t total = 0;
    for (uint64_t i = 0; w && i < radix; i++) {
        r->w[d][i] = w[i];
        total += w[i];
    }
    r->weight[d] = w ? (double)w[r->choice[d]] / (double)total
                     : 1.0 / (double)radix;
    return r->choice[d];
}

static uint64_t r_below(sb_src *s, uint64_t n) { return take(s, n, NULL); }
static uint64_t r_bits(sb_src *s, unsigned k) { return take(s, (uint64_t)1 << k, NULL); }
static size_t r_weighted(sb_src *s, const uint64_t *w, size_t m)
{
    assert_true(m <= 64);
    return (size_t)take(s, m, w);
}
static double r_unit(sb_src *s) { s->error = SB_ENOTSUP; return 0; }
static const sb_src_ops replay_ops = { r_below, r_bits, r_weighted, r_unit,
                                       NULL };

/* Advance to the next path; 0 when every path has been walked. */
static int next_path(replay *r)
{
    while (r->len > 0 && r->choice[r->len - 1] + 1 == r->radix[r->len - 1])
        r->len--;
    if (r->len == 0)
        return 0;
    r->choice[r->len - 1]++;
    return 1;
}

/* Lexicographic rank of a permutation of n <= 8 cards. */
static size_t rank(const sb_card *d, size_t n)
{
    size_t r = 0;
    for (size_t i = 0; i < n; i++) {
        size_t smaller = 0;
        for (size_t j = i + 1; j < n; j++)
            smaller += d[j] < d[i];
        r = r * (n - i) + smaller;
    }
    return r;
}

/* Walk every path of 't' at n cards with 'params' ("k=v" or NULL): the
   number of paths, and prob[rank] summed over paths ending in each
   permutation (n <= 5). */
static size_t walk(const sb_shuffle_type *t, size_t n, const char *param,
                   double *prob, size_t *count)
{
    sb_shuffle_args a = { .n = n };
    sb_shuffle_defaults(t, &a);
    if (param)
        assert_int_equal(sb_shuffle_set_param(t, &a, param), SB_OK);
    void *st = NULL;
    if (t->init)
        assert_int_equal(t->init(&st, &a), SB_OK);
    replay r = { 0 };
    sb_src src = { .ops = &replay_ops, .impl = &r };
    sb_card deck[8];
    size_t paths = 0;
    do {
        r.depth = 0;
        if (t->reset)
            t->reset(st, &a);
        t->run(st, &a, &src, deck);
        assert_int_equal(src.error, SB_OK);
        assert_int_equal(r.depth, r.len);   /* the path was followed whole */
        double p = 1;
        for (size_t d = 0; d < r.len; d++)
            p *= r.weight[d];
        prob[rank(deck, n)] += p;
        count[rank(deck, n)]++;
        paths++;
    } while (next_path(&r));
    if (t->free)
        t->free(st);
    return paths;
}

/* The seed article ("Shuffling along") and Atwood's "The Danger of
   Naivete": 27 paths give ABC 4, ACB 5, BAC 5, BCA 5, CAB 4, CBA 4. */
static void naive_swap_three_cards(void **state)
{
    (void)state;
    double prob[6] = { 0 };
    size_t count[6] = { 0 };
    assert_int_equal(walk(&sb_shuffle_naive_swap, 3, NULL, prob, count), 27);
    const size_t want[6] = { 4, 5, 5, 5, 4, 4 };
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(count[i], want[i]);
        assert_close(prob[i], want[i] / 27.0, 1e-12);
    }
}

/* Fisher-Yates: n! paths, each ending in a different permutation. */
static void fisher_yates_one_path_per_order(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 5; n++) {
        double prob[120] = { 0 };
        size_t count[120] = { 0 }, fact = 1;
        for (size_t k = 2; k <= n; k++)
            fact *= k;
        assert_int_equal(walk(&sb_shuffle_fisher_yates, n, NULL, prob, count),
                         fact);
        for (size_t i = 0; i < fact; i++)
            assert_int_equal(count[i], 1);
    }
}

/* Sattolo (IPL 1986): exactly the (n-1)! cyclic permutations, once each. */
static void sattolo_only_cycles(void **state)
{
    (void)state;
    double prob[120] = { 0 };
    size_t count[120] = { 0 };
    assert_int_equal(walk(&sb_shuffle_sattolo, 5, NULL, prob, count), 24);
    size_t reached = 0;
    for (size_t i = 0; i < 120; i++)
        reached += count[i];
    assert_int_equal(reached, 24);
    for (size_t i = 0; i < 120; i++)
        assert_true(count[i] <= 1);
    /* n = 3: BCA (rank 3) and CAB (rank 4) only. */
    double p3[6] = { 0 };
    size_t c3[6] = { 0 };
    walk(&sb_shuffle_sattolo, 3, NULL, p3, c3);
    assert_int_equal(c3[3], 1);
    assert_int_equal(c3[4], 1);
    assert_int_equal(c3[0] + c3[1] + c3[2] + c3[5], 0);
}

/* Stable sort on 1-bit keys keeps ABC whenever the keys are sorted
   (000, 001, 011, 111): probability exactly 1/2; CBA never. */
static void sort_random_keys_one_bit(void **state)
{
    (void)state;
    double prob[6] = { 0 };
    size_t count[6] = { 0 };
    assert_int_equal(walk(&sb_shuffle_sort_random_keys, 3, "key-bits=1",
                          prob, count), 8);
    assert_close(prob[0], 0.5, 1e-15);
    for (size_t i = 1; i < 5; i++)
        assert_close(prob[i], 0.125, 1e-15);
    assert_true(prob[5] == 0);
}

/* rand() % m with 15-bit values, walked with its residue weights.  The
   six exact probabilities were computed independently by brute force over
   all 32768^2 pairs of rand() values (5461/32768 for ABC and BAC,
   10923/65536 for the other four); each is exact in a double. */
static void fisher_yates_mod_three_cards(void **state)
{
    (void)state;
    double prob[6] = { 0 };
    size_t count[6] = { 0 };
    assert_int_equal(walk(&sb_shuffle_fisher_yates_mod, 3, NULL, prob, count),
                     6);
    const double want[6] = { 5461 / 32768.0, 10923 / 65536.0, 5461 / 32768.0,
                             10923 / 65536.0, 10923 / 65536.0,
                             10923 / 65536.0 };
    for (size_t i = 0; i < 6; i++)
        assert_true(prob[i] == want[i]);
}

/* ---- the registry sweep ------------------------------------------------- */

static int is_kebab(const char *s)
{
    if (!*s || *s == '-')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')
              || *s == '-'))
            return 0;
    return 1;
}

static void registry_is_well_formed(void **state)
{
    (void)state;
    size_t count = 0;
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++, count++) {
        const sb_shuffle_type *t = *p;
        assert_true(is_kebab(t->name));
        assert_true(t->summary && t->summary[0]);
        assert_true(t->source && t->source[0]);
        assert_true(t->bias && t->bias[0]);
        assert_true(t->n_min >= 1 && t->n_min <= t->n_max);
        assert_true(t->n_max <= SB_DECK_MAX);
        assert_true(t->n_params <= SB_PARAMS_MAX);
        assert_ptr_equal(sb_shuffle_find(t->name), t);
        for (size_t i = 0; i < t->n_params; i++) {
            assert_true(is_kebab(t->params[i].name));
            assert_true(t->params[i].def >= t->params[i].min);
            assert_true(t->params[i].def <= t->params[i].max);
        }
        for (const sb_shuffle_type *const *q = p + 1; *q; q++)
            assert_string_not_equal(t->name, (*q)->name);
    }
    assert_true(count >= 5);
    assert_null(sb_shuffle_find("fisher-yate"));
}

/* Make 'k' samples of 't' at n with 'seed' into out (k * n cards). */
static void sample(const sb_shuffle_type *t, size_t n, uint64_t seed,
                   size_t k, sb_card *out)
{
    sb_shuffle_args a = { .n = n };
    sb_shuffle_defaults(t, &a);
    void *st = NULL;
    if (t->init)
        assert_int_equal(t->init(&st, &a), SB_OK);
    if (t->reset)
        t->reset(st, &a);
    sb_src src;
    sb_src_fast(&src, seed, 0);
    for (size_t i = 0; i < k; i++)
        assert_int_equal(t->run(st, &a, &src, out + i * n), SB_OK);
    if (t->free)
        t->free(st);
}

static void every_algorithm_makes_valid_reproducible_decks(void **state)
{
    (void)state;
    const size_t sizes[] = { 1, 2, 3, 52, 1000 };
    enum { K = 10 };
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        const sb_shuffle_type *t = *p;
        if (t->kind != SB_KIND_PERMUTATION)
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = sizes[s];
            if (n < t->n_min || n > t->n_max)
                continue;
            sb_card *a = malloc(K * n * sizeof *a);
            sb_card *b = malloc(K * n * sizeof *b);
            sb_card *c = malloc(K * n * sizeof *c);
            unsigned char *seen = malloc(n);
            sample(t, n, 1, K, a);
            sample(t, n, 1, K, b);
            sample(t, n, 2, K, c);
            for (size_t i = 0; i < K; i++) {
                memset(seen, 0, n);
                for (size_t j = 0; j < n; j++) {
                    assert_true(a[i * n + j] < n);
                    assert_false(seen[a[i * n + j]]);
                    seen[a[i * n + j]] = 1;
                }
            }
            assert_memory_equal(a, b, K * n * sizeof *a);
            /* For n >= 4, ten decks from another seed all equal to these
               would have probability below (1/24)^10 for any algorithm
               reaching at least 24 orders uniformly; every one here does
               (Sattolo reaches (n-1)! >= 6 per deck: (1/6)^10 ~ 1.7e-8). */
            if (n >= 4)
                assert_true(memcmp(a, c, K * n * sizeof *a) != 0);
            free(a);
            free(b);
            free(c);
            free(seen);
        }
    }
}

/* Sattolo at 52 cards: every deck is one 52-cycle, with no fixed point. */
static void sattolo_single_cycle_at_52(void **state)
{
    (void)state;
    enum { N = 52, K = 200 };
    sb_card d[K * N];
    sample(&sb_shuffle_sattolo, N, 9, K, d);
    for (size_t i = 0; i < K; i++) {
        const sb_card *deck = d + i * N;
        size_t len = 0, c = 0;
        do {
            c = deck[c];
            len++;
        } while (c != 0);
        assert_int_equal(len, N);
    }
}

static void params_are_parsed_and_checked(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_sort_random_keys;
    sb_shuffle_args a = { .n = 3 };
    sb_shuffle_defaults(t, &a);
    assert_int_equal(a.param[0], 53);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=8"), SB_OK);
    assert_int_equal(a.param[0], 8);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=0"), SB_ERANGE);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=65"), SB_ERANGE);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits=x"), SB_EINVAL);
    assert_int_equal(sb_shuffle_set_param(t, &a, "key-bits="), SB_EINVAL);
    assert_int_equal(sb_shuffle_set_param(t, &a, "keybits=8"), SB_ENOTFOUND);
    char buf[64];
    sb_shuffle_format_params(t, &a, buf, sizeof buf);
    assert_string_equal(buf, "key-bits=8,sort=merge");
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(naive_swap_three_cards),
        cmocka_unit_test(fisher_yates_one_path_per_order),
        cmocka_unit_test(sattolo_only_cycles),
        cmocka_unit_test(sort_random_keys_one_bit),
        cmocka_unit_test(fisher_yates_mod_three_cards),
        cmocka_unit_test(registry_is_well_formed),
        cmocka_unit_test(every_algorithm_makes_valid_reproducible_decks),
        cmocka_unit_test(sattolo_single_cycle_at_52),
        cmocka_unit_test(params_are_parsed_and_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
