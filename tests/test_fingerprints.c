/*
 * test_fingerprints.c - the 128-bit fingerprint multiset
 * (stats/fingerprints.c) through its contract: repeats counted exactly,
 * merges that equal one set fed everything, saved words that load back
 * and refuse what no set can hold.  Past the cap, where the kept
 * fraction halves, tests/test_collisions.c checks the same through the
 * statistic.  Decks come from the tests' own generator; a false repeat
 * among these few hundred decks has probability below 2^-110.
 */
#include "sb_test.h"
#include "tests/sb_sample.h"

#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/fingerprints.h"

enum { N = 52, DECKS = 300 };

/* DECKS distinct uniform decks of N cards (their orders repeat with
   probability below 2^-200). */
static sb_card *decks(void)
{
    sb_card *d = malloc(sizeof *d * N * DECKS);
    assert_non_null(d);
    uint64_t seed = 0x5eedf1a9ull;
    for (size_t i = 0; i < DECKS; i++)
        xs_deck(&seed, d + i * N, N);
    return d;
}

/* The saved words of 'f' (free them); *count receives how many. */
static uint64_t *saved(const sb_fingerprints *f, size_t *count)
{
    *count = sb_fingerprints_words(f);
    uint64_t *w = malloc(sizeof *w * *count);
    assert_non_null(w);
    sb_fingerprints_save(f, w);
    return w;
}

/* Every deck once, then deck 7 ten more times and deck 9 twice: 12
   repeats among DECKS distinct samples, nothing dropped. */
static void test_repeats(void **state)
{
    (void)state;
    sb_card *d = decks();
    sb_fingerprints *f = sb_fingerprints_alloc(N);
    assert_non_null(f);
    sb_fingerprints_add(f, d, DECKS);
    for (int i = 0; i < 10; i++)
        sb_fingerprints_add(f, d + 7 * N, 1);
    sb_fingerprints_add(f, d + 9 * N, 1);
    sb_fingerprints_add(f, d + 9 * N, 1);
    assert_int_equal(sb_fingerprints_repeats(f), 12);
    assert_int_equal(sb_fingerprints_distinct(f), DECKS);
    assert_int_equal(sb_fingerprints_level(f), 0);
    assert_false(sb_fingerprints_starved(f));
    assert_true(sb_fingerprints_memory(N) >= (size_t)120 << 20);
    assert_null(sb_fingerprints_alloc(0));
    sb_fingerprints_free(f);
    free(d);
}

/* Split anyhow and merged in either order, the sets save the words of
   one set fed every sample; sets of other lengths do not merge. */
static void test_merge(void **state)
{
    (void)state;
    sb_card *d = decks();
    sb_fingerprints *all = sb_fingerprints_alloc(N);
    sb_fingerprints *a = sb_fingerprints_alloc(N);
    sb_fingerprints *b = sb_fingerprints_alloc(N);
    sb_fingerprints *other = sb_fingerprints_alloc(N - 1);
    assert_true(all && a && b && other);
    sb_fingerprints_add(all, d, DECKS);
    sb_fingerprints_add(all, d, 50);
    sb_fingerprints_add(a, d + 100 * N, DECKS - 100);
    sb_fingerprints_add(b, d, 100);
    sb_fingerprints_add(b, d, 50);
    assert_int_equal(sb_fingerprints_merge(b, a), SB_OK);
    assert_int_equal(sb_fingerprints_merge(a, other), SB_EINVAL);
    size_t n_all, n_b;
    uint64_t *w_all = saved(all, &n_all), *w_b = saved(b, &n_b);
    assert_int_equal(n_all, n_b);
    assert_memory_equal(w_all, w_b, n_all * sizeof *w_all);
    assert_int_equal(sb_fingerprints_repeats(b), 50);
    free(w_all);
    free(w_b);
    sb_fingerprints_free(all);
    sb_fingerprints_free(a);
    sb_fingerprints_free(b);
    sb_fingerprints_free(other);
    free(d);
}

/* Saved words load back into a fresh set and save again the same; words
   no set can hold are refused and leave the set empty. */
static void test_saved_words(void **state)
{
    (void)state;
    sb_card *d = decks();
    sb_fingerprints *f = sb_fingerprints_alloc(N);
    sb_fingerprints *g = sb_fingerprints_alloc(N);
    assert_true(f && g);
    sb_fingerprints_add(f, d, DECKS);
    sb_fingerprints_add(f, d + 3 * N, 1);
    size_t count, again;
    uint64_t *w = saved(f, &count);
    /* j, starved, entries, then (hi, lo, count) per fingerprint */
    assert_int_equal(count, 3 + 3 * DECKS);
    assert_int_equal(w[2], DECKS);
    assert_int_equal(sb_fingerprints_load(g, w, count), SB_OK);
    assert_int_equal(sb_fingerprints_repeats(g), 1);
    uint64_t *w2 = saved(g, &again);
    assert_int_equal(again, count);
    assert_memory_equal(w, w2, count * sizeof *w);
    free(w2);

    assert_int_equal(sb_fingerprints_load(g, w, count - 1), SB_EINVAL);
    assert_int_equal(sb_fingerprints_distinct(g), DECKS);  /* untouched */
    uint64_t *bad = malloc(sizeof *bad * count);
    assert_non_null(bad);
    /* A fingerprint given twice: only seen while inserting, after which
       the set is emptied. */
    memcpy(bad, w, count * sizeof *w);
    memcpy(bad + 3 + 3, bad + 3, 3 * sizeof *bad);
    assert_int_equal(sb_fingerprints_load(g, bad, count), SB_EINVAL);
    assert_int_equal(sb_fingerprints_distinct(g), 0);
    assert_int_equal(sb_fingerprints_repeats(g), 0);
    /* A count of 0, a flag of 2, j of 65, the empty fingerprint. */
    const size_t at[] = { 3 + 2, 1, 0, 3 };
    const uint64_t value[] = { 0, 2, 65, 0 };
    for (size_t i = 0; i < 4; i++) {
        memcpy(bad, w, count * sizeof *w);
        bad[at[i]] = value[i];
        if (i == 3)
            bad[4] = 0;
        assert_int_equal(sb_fingerprints_load(g, bad, count), SB_EINVAL);
    }
    free(bad);
    free(w);
    sb_fingerprints_free(f);
    sb_fingerprints_free(g);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repeats),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_saved_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
