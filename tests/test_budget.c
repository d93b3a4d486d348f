/*
 * test_budget.c - the memory budget: sizes as --memory reads them, each
 * statistic's estimate against what its accumulator really takes from the
 * allocator, the exact table's, and a run that the budget puts on fewer
 * threads (same counts) or refuses.
 *
 * What the allocator hands out is read with glibc's mallinfo2 (bytes in
 * use, from the heap and mapped): the difference across an alloc is what
 * that accumulator holds.  Nothing here is timed or statistical.
 */
#define _GNU_SOURCE
#include "tests/sb_test.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "shufflebias/status.h"
#include "engine/budget.h"
#include "engine/runner.h"
#include "stats/exact.h"
#include "stats/nulls.h"
#include "stats/registry.h"
#include "tests/sb_runs.h"

/* AddressSanitizer replaces the allocator, and glibc's counts then stay
   at zero: the measures are skipped under it. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33) \
    && !defined(__SANITIZE_ADDRESS__)
#define HAVE_MALLINFO2 1
static size_t in_use(void)
{
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}
#else
#define HAVE_MALLINFO2 0
static size_t in_use(void)
{
    return 0;
}
#endif

static void sizes_are_binary(void **state)
{
    (void)state;
    uint64_t b;
    assert_int_equal(sb_budget_parse("512M", &b), SB_OK);
    assert_true(b == (uint64_t)512 << 20);
    assert_int_equal(sb_budget_parse("2G", &b), SB_OK);
    assert_true(b == (uint64_t)2 << 30);
    assert_int_equal(sb_budget_parse("1.5GiB", &b), SB_OK);
    assert_true(b == (uint64_t)3 << 29);
    assert_int_equal(sb_budget_parse("800MiB", &b), SB_OK);
    assert_true(b == (uint64_t)800 << 20);
    assert_int_equal(sb_budget_parse("64MB", &b), SB_OK);
    assert_true(b == (uint64_t)64 << 20);
    assert_int_equal(sb_budget_parse("1T", &b), SB_OK);
    assert_true(b == (uint64_t)1 << 40);
    assert_int_equal(sb_budget_parse("1048576", &b), SB_OK);
    assert_true(b == SB_BUDGET_MIN);
    const char *bad[] = { "", "M", "abc", "512X", "2GG", "1e9", "-1G",
                          "100", "1023K", "0.5M", "1.5.1G", "2 G",
                          "99999999999T" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(sb_budget_parse(bad[i], &b), SB_EINVAL);

    char s[32];
    sb_budget_str((uint64_t)80 << 20, s, sizeof s);
    assert_string_equal(s, "80 MiB");
    sb_budget_str((uint64_t)3 << 29, s, sizeof s);
    assert_string_equal(s, "1.5 GiB");
    sb_budget_str(300, s, sizeof s);
    assert_string_equal(s, "300 B");
    /* Rounded up: a need is never understated. */
    sb_budget_str(((uint64_t)1 << 20) + 1, s, sizeof s);
    assert_string_equal(s, "1.1 MiB");

    const uint64_t d = sb_budget_default();
    assert_true(d >= SB_BUDGET_MIN && d <= SB_BUDGET_DEFAULT_MAX);
}

static uint64_t linear_need(unsigned t, const void *ctx)
{
    (void)ctx;
    return 100 + 10 * (uint64_t)t;
}

static void threads_fit_the_budget(void **state)
{
    (void)state;
    assert_int_equal(sb_budget_threads(1000, 8, linear_need, NULL), 8);
    assert_int_equal(sb_budget_threads(150, 8, linear_need, NULL), 5);
    assert_int_equal(sb_budget_threads(110, 8, linear_need, NULL), 1);
    assert_int_equal(sb_budget_threads(109, 8, linear_need, NULL), 0);
}

/* Shapes to try every statistic on: permutations, draws and deals of
   several sizes. */
static const sb_shape shapes[] = {
    { SB_KIND_PERMUTATION, 1, 1, 0 },
    { SB_KIND_PERMUTATION, 5, 5, 0 },
    { SB_KIND_PERMUTATION, 10, 10, 0 },
    { SB_KIND_PERMUTATION, 20, 20, 0 },
    { SB_KIND_PERMUTATION, 52, 52, 0 },
    { SB_KIND_PERMUTATION, 200, 200, 0 },
    { SB_KIND_PERMUTATION, 1024, 1024, 0 },
    { SB_KIND_PERMUTATION, 4096, 4096, 0 },
    { SB_KIND_DRAW, 52, 5, 0 },
    { SB_KIND_DRAW, 300, 100, 0 },
    { SB_KIND_DEAL, 52, 52, 4 },
    { SB_KIND_DEAL, 26, 26, 2 },
    { SB_KIND_DEAL, 104, 104, 8 },
    { SB_KIND_DEAL, 520, 520, 4 },
};

/* Every statistic on every shape it applies to: alloc takes no more than
   its estimate says, and - but for collisions, whose estimate is the
   table at its cap while it grows, 120 MiB from the first sample - not
   much less either (twice the bytes, plus 16 KiB of slack for the small
   ones), so that the budget is not spent on air. */
static void estimates_bound_what_alloc_takes(void **state)
{
    (void)state;
    if (!HAVE_MALLINFO2)
        skip();
    size_t checked = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t i = 0; sb_stat_types[i] != NULL; i++) {
            const sb_stat_type *t = sb_stat_types[i];
            if (sb_stat_check(t, &shapes[s], NULL, 0) != SB_OK)
                continue;
            size_t fin;
            const size_t estimate = sb_stat_memory(t, &shapes[s], &fin);
            const size_t before = in_use();
            void *acc = NULL;
            assert_int_equal(t->alloc(&acc, &shapes[s]), SB_OK);
            const size_t took = in_use() - before;
            t->free(acc);
            if (took > estimate
                || (t != &sb_stat_collisions
                    && estimate > 2 * took + 16384)) {
                print_error("'%s' on %s n = %zu len = %zu: alloc took %zu "
                            "bytes, the estimate is %zu\n", t->name,
                            sb_kind_str(shapes[s].kind), shapes[s].n,
                            shapes[s].len, took, estimate);
                fail();
            }
            assert_true(fin > 0);
            checked++;
        }
    assert_true(checked > 50);
}

/* collisions at its cap: more than 2^20 distinct samples grow the table
   to 2^22 slots (80 MiB), which the estimate covers. */
static void collisions_at_its_cap_within_its_estimate(void **state)
{
    (void)state;
    if (!HAVE_MALLINFO2)
        skip();
    const sb_shape shape = { SB_KIND_PERMUTATION, 20, 20, 0 };
    const size_t estimate = sb_stat_memory(&sb_stat_collisions, &shape,
                                           NULL);
    const size_t before = in_use();
    void *acc;
    assert_int_equal(sb_stat_collisions.alloc(&acc, &shape), SB_OK);
    enum { BLOCK = 4096 };
    sb_card *block = malloc(BLOCK * 20 * sizeof *block);
    assert_non_null(block);
    /* Sample i is i written in base 20: all distinct, every value < n. */
    uint64_t i = 0;
    for (int b = 0; b < 400; b++) {
        for (size_t k = 0; k < BLOCK; k++, i++)
            for (size_t d = 0, x = i; d < 20; d++, x /= 20)
                block[k * 20 + d] = (sb_card)(x % 20);
        sb_stat_collisions.add(acc, block, BLOCK);
    }
    const size_t took = in_use() - before - BLOCK * 20 * sizeof *block;
    free(block);
    sb_stat_collisions.free(acc);
    assert_true(took >= (size_t)64 << 20);     /* the table at its cap */
    assert_true(took <= estimate);
}

/* The exact table: what sb_exact_acc_bytes counts is what the allocator
   gave it, and the need per outcome covers it. */
static void exact_table_bytes_are_measured(void **state)
{
    (void)state;
    if (!HAVE_MALLINFO2)
        skip();
    const sb_shape shape = { SB_KIND_PERMUTATION, 7, 7, 0 };
    const size_t before = in_use();
    sb_exact_acc *acc;
    assert_int_equal(sb_exact_acc_new(&acc, &shape), SB_OK);
    mpz_t num, den;
    mpz_init_set_ui(num, 1);
    mpz_init_set_ui(den, 5040);
    sb_card perm[7];
    for (uint64_t r = 0; r < 5040; r++) {
        assert_int_equal(sb_null_perm_unrank(r, 7, perm), SB_OK);
        assert_int_equal(sb_exact_acc_add(acc, perm, num, den), SB_OK);
    }
    const size_t took = in_use() - before;
    const uint64_t counted = sb_exact_acc_bytes(acc);
    const uint64_t need = sb_exact_acc_need(acc, 0);
    assert_int_equal(sb_exact_acc_count(acc), 5040);
    sb_exact_acc_free(acc);
    mpz_clear(num);
    mpz_clear(den);
    if (counted < took || counted > 2 * took || need < took) {
        print_error("the exact table took %zu bytes; counted %llu, need "
                    "%llu\n", took, (unsigned long long)counted,
                    (unsigned long long)need);
        fail();
    }
    /* The JSON tree costs more than the table itself. */
    assert_true(sb_exact_outcome_bytes(7, 1, 1)
                > 2 * sb_exact_outcome_bytes(7, 1, 0));
}

/* 'collisions' and 'position' at 20 cards on four threads, with a budget
   that holds two: the run says so, and counts what four threads (or
   one) count. */
static void a_tight_budget_means_fewer_threads_same_counts(void **state)
{
    (void)state;
    const sb_stat_type *stats[] = { &sb_stat_collisions, &sb_stat_position };
    const sb_shape shape = { SB_KIND_PERMUTATION, 20, 20, 0 };
    const uint64_t two = sb_run_memory(stats, 2, &shape, 2, 0, 0);
    const uint64_t three = sb_run_memory(stats, 2, &shape, 3, 0, 0);
    assert_true(three > two);
    assert_true(two > sb_run_memory(stats, 2, &shape, 1, 0, 0));
    sb_run_config cfg = {
        .alg = sb_test_alg("fisher-yates"),
        .args = { .n = 20 },
        .samples = 5 * SB_CHUNK_SAMPLES,
        .seed = 7,
        .rng = "xoshiro256",
        .stats = stats,
        .n_stats = 2,
        .threads = 4,
        .memory = three - 1,
    };
    sb_report tight, roomy;
    char err[256] = "";
    assert_int_equal(sb_run(&cfg, &tight, err, sizeof err), SB_OK);
    assert_int_equal(tight.run.threads, 2);
    assert_int_equal(tight.run.threads_wanted, 4);
    assert_true(tight.run.memory_estimate == two);
    assert_true(tight.run.memory_budget == three - 1);
    cfg.memory = (uint64_t)1 << 40;
    assert_int_equal(sb_run(&cfg, &roomy, err, sizeof err), SB_OK);
    assert_int_equal(roomy.run.threads, 4);
    assert_int_equal(roomy.run.threads_wanted, 0);
    sb_test_same_counts(&tight, &roomy);
    sb_report_release(&tight);
    sb_report_release(&roomy);

    /* Not even one thread fits: refused before a sample, with the need. */
    cfg.memory = sb_run_memory(stats, 2, &shape, 1, 0, 0) - 1;
    sb_report none;
    assert_int_equal(sb_run(&cfg, &none, err, sizeof err), SB_ENOMEM);
    assert_non_null(strstr(err, "needs 1"));
    assert_non_null(strstr(err, "MiB of memory"));
    assert_non_null(strstr(err, "over the budget of"));
}

/* A checkpoint and a resume each hold more copies of the counts. */
static void checkpoints_and_resumes_need_more(void **state)
{
    (void)state;
    const sb_stat_type *stats[] = { &sb_stat_position };
    const sb_shape shape = { SB_KIND_PERMUTATION, 1024, 1024, 0 };
    const uint64_t plain = sb_run_memory(stats, 1, &shape, 1, 0, 0);
    const uint64_t set = sb_stat_memory(&sb_stat_position, &shape, NULL);
    assert_true(plain >= set);
    assert_true(sb_run_memory(stats, 1, &shape, 1, 1, 0) >= plain + 3 * set);
    assert_true(sb_run_memory(stats, 1, &shape, 1, 0, 1) >= plain + set);
    assert_true(sb_run_memory(stats, 1, &shape, 8, 0, 0) >= 8 * set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_are_binary),
        cmocka_unit_test(threads_fit_the_budget),
        cmocka_unit_test(estimates_bound_what_alloc_takes),
        cmocka_unit_test(collisions_at_its_cap_within_its_estimate),
        cmocka_unit_test(exact_table_bytes_are_measured),
        cmocka_unit_test(a_tight_budget_means_fewer_threads_same_counts),
        cmocka_unit_test(checkpoints_and_resumes_need_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
