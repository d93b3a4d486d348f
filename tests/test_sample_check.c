/*
 * test_sample_check.c - the kind of a sample, checked (src/sources/sample_check.h).
 *
 * Each kind is tried with good samples and with every way a sample can be
 * wrong, on both paths of the check: decks of at most 64 cards (one word
 * of bits) and larger ones (a table), and deals of few and of many hands.
 * Every refusal must name the fault and end with the sample as written.
 * Every sample of every built-in algorithm passes the check (the runner
 * may check them all).
 */
#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "sources/sample_check.h"

static const sb_shape perm5 = { SB_KIND_PERMUTATION, 5, 5, 0 };

static void check_fails(const sb_shape *shape, const sb_card *s,
                        const char *want)
{
    char why[512];
    assert_int_equal(sb_sample_check(shape, s, why, sizeof why), SB_EINVAL);
    if (strcmp(why, want) != 0)
        print_error("got '%s', want '%s'\n", why, want);
    assert_string_equal(why, want);
}

static void permutations(void **state)
{
    (void)state;
    char why[256] = "x";
    const sb_card good[5] = { 3, 0, 4, 1, 2 };
    assert_int_equal(sb_sample_check(&perm5, good, why, sizeof why), SB_OK);
    assert_string_equal(why, "");
    const sb_card dup[5] = { 3, 1, 4, 1, 0 };
    check_fails(&perm5, dup, "card 1 appears twice: 3 1 4 1 0");
    /* The first fault in order is told: here the range, before the
       second 5. */
    const sb_card over[5] = { 3, 5, 1, 5, 0 };
    check_fails(&perm5, over, "card 5 is out of range 0..4: 3 5 1 5 0");
    const sb_card big[5] = { 0, 1, 65535, 3, 2 };
    check_fails(&perm5, big, "card 65535 is out of range 0..4: "
                             "0 1 65535 3 2");
    /* 64 is the first value the word of bits would wrap onto bit 0. */
    const sb_card wrap[5] = { 64, 1, 2, 3, 4 };
    check_fails(&perm5, wrap, "card 64 is out of range 0..4: 64 1 2 3 4");
    /* NULL and no room: a status only. */
    assert_int_equal(sb_sample_check(&perm5, dup, NULL, 0), SB_EINVAL);
}

/* Large decks take the table; the fault is the first in order. */
static void large_decks(void **state)
{
    (void)state;
    static const size_t sizes[] = { 63, 64, 65, 1000 };
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        const size_t n = sizes[z];
        sb_shape shape = { SB_KIND_PERMUTATION, n, n, 0 };
        sb_card *s = malloc(n * sizeof *s);
        assert_non_null(s);
        for (size_t i = 0; i < n; i++)
            s[i] = (sb_card)(n - 1 - i);
        assert_int_equal(sb_sample_check(&shape, s, NULL, 0), SB_OK);
        s[n - 1] = s[0];
        char why[64];
        char want[64];
        assert_int_equal(sb_sample_check(&shape, s, why, sizeof why),
                         SB_EINVAL);
        snprintf(want, sizeof want, "card %zu appears twice: ", n - 1);
        assert_memory_equal(why, want, strlen(want));
        /* Cut to fit, and said to be cut. */
        assert_true(strlen(why) < sizeof why);
        assert_string_equal(why + strlen(why) - 4, " ...");
        free(s);
    }
}

static void draws(void **state)
{
    (void)state;
    const sb_shape draw = { SB_KIND_DRAW, 10, 3, 0 };
    const sb_card good[3] = { 9, 0, 4 };
    assert_int_equal(sb_sample_check(&draw, good, NULL, 0), SB_OK);
    const sb_card dup[3] = { 9, 4, 9 };
    check_fails(&draw, dup, "card 9 appears twice: 9 4 9");
    const sb_card out[3] = { 1, 10, 2 };
    check_fails(&draw, out, "card 10 is out of range 0..9: 1 10 2");
}

static void deals(void **state)
{
    (void)state;
    const sb_shape deal = { SB_KIND_DEAL, 8, 8, 4 };
    const sb_card good[8] = { 0, 1, 2, 3, 3, 2, 1, 0 };
    assert_int_equal(sb_sample_check(&deal, good, NULL, 0), SB_OK);
    const sb_card nine[8] = { 9, 1, 2, 3, 3, 2, 1, 0 };
    check_fails(&deal, nine, "hand 9 is out of range 0..3: "
                             "9 1 2 3 3 2 1 0");
    const sb_card zero[8] = { 0 };
    check_fails(&deal, zero, "hand 0 holds 8 cards, 2 expected: "
                             "0 0 0 0 0 0 0 0");
    const sb_card short1[8] = { 0, 0, 0, 3, 3, 2, 1, 2 };
    check_fails(&deal, short1, "hand 0 holds 3 cards, 2 expected: "
                               "0 0 0 3 3 2 1 2");
    /* Many hands: 100 hands of one card. */
    const sb_shape many = { SB_KIND_DEAL, 100, 100, 100 };
    sb_card s[100];
    for (unsigned i = 0; i < 100; i++)
        s[i] = (sb_card)(99 - i);
    assert_int_equal(sb_sample_check(&many, s, NULL, 0), SB_OK);
    s[5] = s[6];
    char why[512];
    assert_int_equal(sb_sample_check(&many, s, why, sizeof why), SB_EINVAL);
    assert_memory_equal(why, "hand 93 holds 2 cards, 1 expected: ", 35);
}

static void shapes(void **state)
{
    (void)state;
    char why[256];
    const struct {
        sb_shape shape;
        int ok;
        const char *word;     /* in the reason */
    } cases[] = {
        { { SB_KIND_PERMUTATION, 52, 52, 0 }, 1, "" },
        { { SB_KIND_DRAW, 52, 5, 0 }, 1, "" },
        { { SB_KIND_DEAL, 52, 52, 4 }, 1, "" },
        { { SB_KIND_DEAL, 52, 52, 52 }, 1, "" },
        { { SB_KIND_PERMUTATION, 52, 0, 0 }, 0, "sample_len" },
        { { SB_KIND_PERMUTATION, 52, 53, 0 }, 0, "sample_len" },
        { { SB_KIND_DRAW, 52, 0, 0 }, 0, "1 to 52" },
        { { SB_KIND_DRAW, 52, (size_t)1 << 40, 0 }, 0, "1099511627776" },
        { { SB_KIND_DEAL, 52, 52, 0 }, 0, "deals 0 hands" },
        { { SB_KIND_DEAL, 52, 52, 53 }, 0, "deals 53 hands" },
        { { SB_KIND_DEAL, 52, 52, 5 }, 0, "cannot share" },
        { { SB_KIND_PERMUTATION, 0, 0, 0 }, 0, "n = 0" },
        { { (sb_kind)3, 5, 5, 0 }, 0, "kind 3" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int rc = sb_shape_check(&cases[i].shape, why, sizeof why);
        if ((rc == SB_OK) != cases[i].ok || !strstr(why, cases[i].word))
            print_error("case %zu: %d '%s'\n", i, rc, why);
        assert_int_equal(rc == SB_OK, cases[i].ok);
        assert_non_null(strstr(why, cases[i].word));
    }
}

/* sb_samples_check, whose common case is a vector loop over a block:
   blocks of 64 samples of every length from 1 to 64 cards (so every
   vector width and every overlapping tail), each block with at most one
   sample spoiled at a random place in a random way, must be judged as
   sb_sample_check judges its samples one by one.  Fixed seed. */
static void blocks_agree_with_one_by_one(void **state)
{
    (void)state;
    enum { COUNT = 64 };
    static sb_card block[COUNT * 64];
    sb_src src;
    sb_src_fast(&src, 2024, 0);
    for (size_t n = 1; n <= 64; n++) {
        for (int kind = 0; kind < 2; kind++) {
            /* A permutation of n, or a draw of about half of it. */
            const size_t len = kind == 0 ? n : (n + 1) / 2;
            const sb_shape shape = { kind == 0 ? SB_KIND_PERMUTATION
                                               : SB_KIND_DRAW, n, len, 0 };
            for (int trial = 0; trial < 40; trial++) {
                for (size_t k = 0; k < COUNT; k++) {
                    sb_card deck[64];
                    for (size_t i = 0; i < n; i++)
                        deck[i] = (sb_card)i;
                    for (size_t i = n; i-- > 1;) {
                        const size_t j = (size_t)sb_below(&src, i + 1);
                        const sb_card t = deck[i];
                        deck[i] = deck[j];
                        deck[j] = t;
                    }
                    memcpy(block + k * len, deck, len * sizeof *deck);
                }
                /* Spoil one value of one sample (or none, one trial in
                   five): a card twice, n, 63, 64, 65535, or n + 32 (one
                   the second half-word of a vector lane would take for a
                   valid card). */
                const size_t victim = (size_t)sb_below(&src, COUNT);
                const size_t at = (size_t)sb_below(&src, len);
                const sb_card spoil[6] = {
                    block[victim * len + (at + 1) % len], (sb_card)n, 63,
                    64, 65535, (sb_card)(n + 32)
                };
                const unsigned how = (unsigned)sb_below(&src, 8);
                if (how < 6)
                    block[victim * len + at] = spoil[how];
                size_t want = COUNT;
                for (size_t k = 0; k < COUNT && want == COUNT; k++)
                    if (sb_sample_check(&shape, block + k * len, NULL, 0)
                        != SB_OK)
                        want = k;
                size_t bad = COUNT;
                char why[256];
                const int rc = sb_samples_check(&shape, block, COUNT, &bad,
                                                why, sizeof why);
                if ((rc == SB_OK) != (want == COUNT)
                    || (rc != SB_OK && bad != want))
                    print_error("n = %zu, len = %zu: block says %d at %zu, "
                                "one by one %zu\n", n, len, rc, bad, want);
                assert_int_equal(rc == SB_OK, want == COUNT);
                if (rc != SB_OK) {
                    assert_int_equal(bad, want);
                    char one[256];
                    sb_sample_check(&shape, block + want * len, one,
                                    sizeof one);
                    assert_string_equal(why, one);
                }
            }
        }
    }
}

static void guard_words(void **state)
{
    (void)state;
    sb_card buf[3 + SB_SAMPLE_GUARD];
    sb_sample_guard_set(buf + 3);
    assert_true(sb_sample_guard_intact(buf + 3));
    for (unsigned k = 0; k < SB_SAMPLE_GUARD; k++) {
        const sb_card was = buf[3 + k];
        buf[3 + k] = 0;
        assert_false(sb_sample_guard_intact(buf + 3));
        buf[3 + k] = was;
    }
    assert_true(sb_sample_guard_intact(buf + 3));
}

/* Every built-in algorithm, at its fitted defaults on a few deck sizes,
   writes 200 samples that pass. */
static void builtins_pass(void **state)
{
    (void)state;
    static const size_t sizes[] = { 1, 2, 5, 52, 100 };
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        const sb_shuffle_type *t = *p;
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            sb_shuffle_args a = { .n = sizes[z] };
            char why[256];
            if (a.n < t->n_min || a.n > t->n_max
                || sb_shuffle_fitted(t, &a, why, sizeof why) != SB_OK)
                continue;
            sb_shape shape;
            sb_shuffle_shape(t, &a, &shape);
            assert_int_equal(sb_shape_check(&shape, why, sizeof why), SB_OK);
            void *st = NULL;
            if (t->init)
                assert_int_equal(t->init(&st, &a), SB_OK);
            if (t->reset)
                t->reset(st, &a);
            sb_card *out = malloc(shape.len * sizeof *out);
            assert_non_null(out);
            sb_src src;
            sb_src_fast(&src, 7, 0);
            for (int k = 0; k < 200; k++) {
                assert_int_equal(t->run(st, &a, &src, out), SB_OK);
                if (sb_sample_check(&shape, out, why, sizeof why) != SB_OK)
                    print_error("%s at n = %zu: %s\n", t->name, a.n, why);
                assert_int_equal(sb_sample_check(&shape, out, NULL, 0),
                                 SB_OK);
            }
            free(out);
            if (t->free)
                t->free(st);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(permutations),
        cmocka_unit_test(large_decks),
        cmocka_unit_test(draws),
        cmocka_unit_test(deals),
        cmocka_unit_test(shapes),
        cmocka_unit_test(blocks_agree_with_one_by_one),
        cmocka_unit_test(guard_words),
        cmocka_unit_test(builtins_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
