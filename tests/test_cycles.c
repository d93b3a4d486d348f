/*
 * test_cycles.c - the cycles and fixed-points statistics (stats/cycles.c,
 * stats/fixed_points.c): the cycles count against the simplest one, and
 * both against Sattolo's algorithm.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "tests/sb_stats.h"

#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "base/rng.h"
#include "stats/registry.h"

/* The cycles accumulator against the simplest count, written here: every
   permutation of 7 cards fed in calls of 1, 2, 3, ... decks (so that the
   side-by-side lanes and the leftovers are all exercised), and random
   decks of 64 and 65 cards (the word-wide path's limit, and past it).
   The counts come out through save, whose words are a key then the
   histogram. */
static void simple_cycles(const sb_card *a, size_t n, uint64_t *hist)
{
    unsigned char seen[70] = { 0 };
    size_t c = 0;
    for (size_t j = 0; j < n; j++)
        if (!seen[j]) {
            c++;
            for (size_t x = j; !seen[x]; x = a[x])
                seen[x] = 1;
        }
    hist[c]++;
}

static void check_cycles_add(const sb_card *decks, size_t n, size_t count)
{
    const sb_shape shape = { SB_KIND_PERMUTATION, n, n, 0 };
    void *acc;
    assert_int_equal(sb_stat_cycles.alloc(&acc, &shape), SB_OK);
    uint64_t want[70] = { 0 };
    size_t done = 0;
    for (size_t call = 1; done < count; call++) {
        const size_t k = call < count - done ? call : count - done;
        sb_stat_cycles.add(acc, decks + done * n, k);
        done += k;
    }
    for (size_t i = 0; i < count; i++)
        simple_cycles(decks + i * n, n, want);
    uint64_t *words;
    size_t len;
    assert_int_equal(sb_stat_cycles.save(acc, &words, &len), SB_OK);
    assert_int_equal(len, 1 + n + 1);
    assert_memory_equal(words + 1, want, (n + 1) * sizeof *want);
    free(words);
    sb_stat_cycles.free(acc);
}

static void test_cycles_add_brute_force(void **state)
{
    (void)state;
    enum { N = 7, ALL = 5040 };
    sb_card *decks = malloc(ALL * N * sizeof *decks);
    assert_non_null(decks);
    sb_card a[N];
    for (size_t i = 0; i < N; i++)
        a[i] = (sb_card)i;
    size_t k = 0;
    do
        memcpy(decks + N * k++, a, sizeof a);
    while (next_perm(a, N));
    assert_int_equal(k, ALL);
    check_cycles_add(decks, N, ALL);
    free(decks);

    for (size_t n = 64; n <= 65; n++) {
        enum { COUNT = 1000 };
        sb_card *big = malloc(COUNT * n * sizeof *big);
        assert_non_null(big);
        sb_src src;
        sb_src_fast(&src, 99, n);
        for (size_t i = 0; i < COUNT; i++) {
            sb_card *d = big + i * n;
            for (size_t j = 0; j < n; j++)
                d[j] = (sb_card)j;
            for (size_t j = n; j-- > 1;) {
                const size_t r = (size_t)sb_below(&src, j + 1);
                const sb_card t = d[j];
                d[j] = d[r];
                d[r] = t;
            }
        }
        check_cycles_add(big, n, COUNT);
        free(big);
    }
}

/* ---- cycles and fixed points on Sattolo's algorithm ------------------- */

/* Sattolo's algorithm makes only single 52-cycles (probability 1/52 under
   the null) and never leaves a card in place (probability 0.368 of no
   fixed point): both tests see it with p-values below the double range. */
static void test_sattolo(void **state)
{
    (void)state;
    enum { N = 52, S = 2000 };
    uint64_t seed = 0x5eed0003ull;
    sb_card *s = malloc(sizeof *s * N * S);
    assert_non_null(s);
    for (size_t i = 0; i < S; i++)
        xs_fisher_yates(&seed, s + i * N, N, 1);
    sb_result r;
    run_stat(&sb_stat_cycles, N, s, S, &r);
    assert_true(r.applicable);
    assert_int_equal(r.p_underflow, 1);
    /* 2000/52 = 38.5 expected for 1 cycle: the first group alone. */
    assert_int_equal(r.table.lo[0], 1);
    assert_int_equal(r.table.hi[0], 1);
    assert_close(r.table.observed[0], 2000.0, 0);
    assert_string_equal(r.effect_desc,
                        "1 cycle: 100% of decks against 1.92% expected");
    sb_result_clear(&r);

    run_stat(&sb_stat_fixed_points, N, s, S, &r);
    assert_int_equal(r.p_underflow, 1);
    sb_result_clear(&r);
    free(s);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cycles_add_brute_force),
        cmocka_unit_test(test_sattolo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
