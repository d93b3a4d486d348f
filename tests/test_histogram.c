/*
 * test_histogram.c - the count-per-value accumulator shared by rising,
 * descents, successions, fixed-points, cycles and inversions
 * (stats/histogram.c): its shape checks, merges, state words and the
 * test against a law with an offset support.  Nothing random.
 */
#include "tests/sb_stats.h"

#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "stats/histogram.h"
#include "stats/nulls.h"
#include "stats/registry.h"

/* Only whole permutations of 1..n_max cards; scratch space only when
   asked for, aligned for any of the statistics' scratch types. */
static void test_alloc_shapes(void **state)
{
    (void)state;
    void *acc = (void *)1;
    const sb_shape draw = { SB_KIND_DRAW, 52, 5, 0 };
    const sb_shape deal = { SB_KIND_DEAL, 52, 52, 4 };
    const sb_shape big = perm_shape(65);
    assert_int_equal(sb_hist_alloc(&acc, &draw, "x", 64, 52, 0), SB_EINVAL);
    assert_null(acc);
    assert_int_equal(sb_hist_alloc(&acc, &deal, "x", 64, 52, 0), SB_EINVAL);
    assert_int_equal(sb_hist_alloc(&acc, &big, "x", 64, 65, 0), SB_EINVAL);

    const sb_shape p = perm_shape(5);
    assert_int_equal(sb_hist_alloc(&acc, &p, "x", 64, 6, 0), SB_OK);
    sb_hist *h = acc;
    assert_int_equal(h->n, 5);
    assert_int_equal(h->k, 6);
    assert_null(h->scratch);
    assert_true(h->impossible == SB_HIST_NONE);
    for (size_t v = 0; v < 6; v++)
        assert_int_equal(h->counts[v], 0);
    sb_hist_free(h);
    assert_int_equal(sb_hist_alloc(&acc, &p, "x", 64, 6, 5), SB_OK);
    h = acc;
    assert_non_null(h->scratch);
    assert_int_equal((uintptr_t)h->scratch % 8, 0);
    sb_hist_free(h);
}

/* Counts add up; histograms of another deck size or another statistic
   with as many values are refused and left alone. */
static void test_merge(void **state)
{
    (void)state;
    const sb_shape p5 = perm_shape(5), p6 = perm_shape(6);
    void *a, *b, *c, *d;
    assert_int_equal(sb_stat_descents.alloc(&a, &p5), SB_OK);
    assert_int_equal(sb_stat_descents.alloc(&b, &p5), SB_OK);
    assert_int_equal(sb_stat_successions.alloc(&c, &p5), SB_OK);
    assert_int_equal(sb_stat_descents.alloc(&d, &p6), SB_OK);
    const sb_card sorted[5] = { 0, 1, 2, 3, 4 }, rev[5] = { 4, 3, 2, 1, 0 };
    sb_stat_descents.add(a, sorted, 1);
    sb_stat_descents.add(b, rev, 1);
    sb_stat_descents.add(b, rev, 1);
    assert_int_equal(sb_hist_merge(a, b), SB_OK);
    const sb_hist *h = a;
    assert_int_equal(h->counts[0], 1);
    assert_int_equal(h->counts[4], 2);
    assert_int_equal(sb_hist_merge(a, c), SB_EINVAL);
    assert_int_equal(sb_hist_merge(a, d), SB_EINVAL);
    assert_int_equal(h->counts[0] + h->counts[4], 3);
    sb_hist_free(a);
    sb_hist_free(b);
    sb_hist_free(c);
    sb_hist_free(d);
}

/* Saved words load back into a fresh histogram; words that count a value
   no permutation has (n - 1 fixed points, no cycle) are refused and load
   nothing. */
static void test_impossible_values(void **state)
{
    (void)state;
    const sb_shape p5 = perm_shape(5);
    const sb_stat_type *const types[] = { &sb_stat_fixed_points,
                                          &sb_stat_cycles };
    const size_t bad[] = { 4, 0 };
    for (size_t t = 0; t < 2; t++) {
        void *a, *b;
        assert_int_equal(types[t]->alloc(&a, &p5), SB_OK);
        assert_int_equal(types[t]->alloc(&b, &p5), SB_OK);
        const sb_card deck[5] = { 1, 0, 2, 3, 4 };
        types[t]->add(a, deck, 1);
        uint64_t *words;
        size_t count;
        assert_int_equal(types[t]->save(a, &words, &count), SB_OK);
        assert_int_equal(count, 1 + 6);
        assert_int_equal(types[t]->load(b, words, count), SB_OK);
        assert_memory_equal(((sb_hist *)b)->counts, ((sb_hist *)a)->counts,
                            6 * sizeof(uint64_t));
        void *fresh;
        assert_int_equal(types[t]->alloc(&fresh, &p5), SB_OK);
        words[1 + bad[t]] = 1;
        assert_int_equal(types[t]->load(fresh, words, count), SB_EINVAL);
        for (size_t v = 0; v < 6; v++)
            assert_int_equal(((sb_hist *)fresh)->counts[v], 0);
        free(words);
        types[t]->free(a);
        types[t]->free(b);
        types[t]->free(fresh);
    }
}

/* The support as the law says it: cycles leave out the value 0 (skip 1),
   rising sequences count from 1 (base 1); both tables start at value 1.
   Every order of 4 cards, ten times: the counts are the null's exactly,
   so X^2 = 0 but for rounding.  A deck of 1 card gives the law's reason. */
static void test_result_support(void **state)
{
    (void)state;
    enum { N = 4, ALL = 24 };
    sb_card all[ALL * N], a[N] = { 0, 1, 2, 3 };
    size_t i = 0;
    do
        memcpy(all + N * i++, a, sizeof a);
    while (next_perm(a, N));
    sb_card *many = malloc(10 * sizeof all);
    assert_non_null(many);
    for (size_t r = 0; r < 10; r++)
        memcpy(many + r * ALL * N, all, sizeof all);
    const sb_stat_type *const types[] = { &sb_stat_cycles, &sb_stat_rising };
    for (size_t t = 0; t < 2; t++) {
        sb_result r;
        run_stat(types[t], N, many, 10 * ALL, &r);
        assert_true(r.applicable);
        assert_int_equal(r.table.lo[0], 1);
        assert_int_equal(r.table.hi[r.table.cols - 1], N);
        assert_true(r.statistic < 1e-9);
        sb_result_clear(&r);
    }
    free(many);

    const sb_shape p1 = perm_shape(1);
    void *acc;
    assert_int_equal(sb_stat_cycles.alloc(&acc, &p1), SB_OK);
    sb_result r;
    assert_int_equal(sb_stat_cycles.finalize(acc, 10, 1e-6, &r), SB_OK);
    assert_false(r.applicable);
    assert_string_equal(r.note,
                        "'cycles' needs n >= 2: a deck of 1 is always 1 "
                        "cycle");
    sb_result_clear(&r);
    sb_stat_cycles.free(acc);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_shapes),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_impossible_values),
        cmocka_unit_test(test_result_support),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
