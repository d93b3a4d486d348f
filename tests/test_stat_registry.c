/*
 * test_stat_registry.c - every statistic of the registry (stats/registry.c):
 * merges, a sweep of every kind and size, the defaults of each kind.
 *
 * Exact values come with their source.  Statistical assertions use fixed
 * seeds (so they are deterministic) and state the false-alarm rate they
 * would have over random seeds.
 */
#include "tests/sb_stats.h"

#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include "stats/registry.h"

/* ---- every statistic -------------------------------------------------- */

/* One shape of each kind, for the sweeps below: every statistic applies to
   at least one of them. */
static void kind_shapes(size_t n, sb_shape out[3])
{
    out[0] = perm_shape(n);
    out[1] = deal_shape(n, 2);
    out[2] = draw_shape(n, 3);
}

/* Two accumulators merged give exactly what one accumulator fed both
   blocks gives: same counts, same result, for every statistic on every
   kind of sample it applies to. */
static void test_merge(void **state)
{
    (void)state;
    enum { S1 = 300, S2 = 500 };
    uint64_t seed = 0x5eed0004ull;
    /* 5 cards: 800 permutations fill the dense regime of 'permutation'
       (5! = 120 orders); 52 cards for 'poker7', and a bridge deal for
       the statistics of suits and honours, which need whole suits. */
    const sb_shape shapes[5] = { perm_shape(5), deal_shape(6, 3),
                                 draw_shape(6, 2), perm_shape(52),
                                 deal_shape(52, 4) };
    size_t tested[32] = { 0 };
    for (size_t k = 0; k < 5; k++) {
        const sb_shape *shape = &shapes[k];
        const size_t len = shape->len;
        sb_card *s = fair_block(shape, &seed, S1 + S2);
        for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
            const sb_stat_type *type = sb_stat_types[t];
            if (sb_stat_check(type, shape, NULL, 0) != SB_OK)
                continue;
            assert_true(t < 32);
            void *a, *b, *c;
            assert_int_equal(type->alloc(&a, shape), SB_OK);
            assert_int_equal(type->alloc(&b, shape), SB_OK);
            assert_int_equal(type->alloc(&c, shape), SB_OK);
            type->add(a, s, S1);
            type->add(b, s + S1 * len, S2);
            /* c is fed in two calls of different sizes, as a runner
               would; but 'serial' counts pairs of consecutive samples
               within one call, so it is fed at the boundary of a and b
               (tests/test_collisions.c checks its own merge). */
            const size_t cut = type == &sb_stat_serial ? S1 : 7;
            type->add(c, s, cut);
            type->add(c, s + cut * len, S1 + S2 - cut);
            assert_int_equal(type->merge(a, b), SB_OK);
            sb_result ra, rc;
            assert_int_equal(type->finalize(a, S1 + S2, 1e-6, &ra), SB_OK);
            assert_int_equal(type->finalize(c, S1 + S2, 1e-6, &rc), SB_OK);
            assert_string_equal(ra.name, type->name);
            assert_int_equal(ra.applicable, rc.applicable);
            assert_string_equal(ra.note, rc.note);
            /* A shape a statistic takes but cannot test (5 cards read as
               four hands dealt in blocks) is tested on another one. */
            tested[t] += ra.applicable;
            assert_true(ra.statistic == rc.statistic);
            assert_true(ra.p_value == rc.p_value);
            assert_int_equal(ra.table.rows, rc.table.rows);
            assert_int_equal(ra.table.cols, rc.table.cols);
            assert_true(ra.table.cols > 0 || !ra.applicable);
            assert_memory_equal(ra.table.observed, rc.table.observed,
                                ra.table.rows * ra.table.cols
                                    * sizeof(double));
            sb_result_clear(&ra);
            sb_result_clear(&rc);
            type->free(a);
            type->free(b);
            type->free(c);
        }
        free(s);
    }
    /* Every statistic of small decks was tested ('collisions' needs
       n >= 15 and has its own merge tests in tests/test_collisions.c). */
    for (size_t t = 0; sb_stat_types[t] != NULL; t++)
        assert_true(tested[t] > 0 || sb_stat_types[t]->n_min > 6);
}

/* Registry sweep: every statistic passes fair samples of 8 cards of each
   kind it applies to (p >= 1e-6 for each of 15: false alarm below 1.5e-5
   over random seeds), states its null, and is not applicable for one card
   or no samples. */
static void test_sweep(void **state)
{
    (void)state;
    enum { N = 8, S = 20000 };
    uint64_t seed = 0x5eed0005ull;
    sb_shape shapes[3], ones[3];
    kind_shapes(N, shapes);
    ones[0] = perm_shape(1);
    ones[1] = deal_shape(1, 1);
    ones[2] = draw_shape(1, 1);
    const sb_card one[3] = { 0, 0, 0 };
    for (size_t k = 0; k < 3; k++) {
        const sb_shape *shape = &shapes[k];
        sb_card *s = fair_block(shape, &seed, S);
        for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
            const sb_stat_type *type = sb_stat_types[t];
            if (sb_stat_check(type, shape, NULL, 0) != SB_OK)
                continue;
            sb_result r;
            run_shaped(type, shape, s, S, &r);
            assert_true(r.applicable);
            assert_true(r.p_value >= 1e-6);
            assert_int_equal(r.p_underflow, 0);
            assert_true(r.df > 0);
            assert_true(r.null_desc[0] != '\0');
            assert_true(r.effect_desc[0] != '\0');
            assert_true(r.detectable > 0);
            assert_true(r.effect >= 0);
            sb_result_clear(&r);

            run_shaped(type, &ones[k], one, 3, &r);
            assert_false(r.applicable);
            assert_true(r.note[0] != '\0');
            assert_int_equal(r.table.cols, 0);
            sb_result_clear(&r);

            run_shaped(type, shape, s, 0, &r);
            assert_false(r.applicable);
            sb_result_clear(&r);
        }
        free(s);
    }
}

/* The kinds keep statistics apart: a position matrix over a deal's hand
   numbers, or over the few cards of a draw, would fail fair deals and
   draws, and a card x hand table cannot read a permutation.  Every
   statistic applies exactly to the kinds it declares; the permutation
   statistics declare permutations only, card-hand deals only, card-slot
   draws only. */
static void test_registry_kinds(void **state)
{
    (void)state;
    sb_shape shapes[3];
    for (size_t t = 0; sb_stat_types[t] != NULL; t++) {
        /* 8 cards, or the fewest the statistic takes (whole suits,
           honours) */
        const size_t nn = sb_stat_types[t]->n_min > 8
                              ? sb_stat_types[t]->n_min : 8;
        kind_shapes(nn, shapes);
        for (size_t k = 0; k < 3; k++) {
            char why[128];
            const sb_stat_type *st = sb_stat_types[t];
            const int want = (st->kinds & (unsigned)shapes[k].kind) != 0
                             && st->n_min <= nn && nn <= st->n_max;
            assert_int_equal(sb_stat_check(sb_stat_types[t], &shapes[k],
                                           why, sizeof why),
                             want ? SB_OK : SB_EINVAL);
            assert_int_equal(why[0] == '\0', want);
        }
    }
    const sb_stat_type *perm_only[] = { &sb_stat_position,
                                        &sb_stat_permutation,
                                        &sb_stat_fixed_points,
                                        &sb_stat_cycles };
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(perm_only[i]->kinds, SB_KIND_PERMUTATION);
    assert_int_equal(sb_stat_card_hand.kinds, SB_KIND_DEAL);
    assert_int_equal(sb_stat_card_slot.kinds, SB_KIND_DRAW);

    char why[128];
    sb_shape bridge = deal_shape(52, 4), hand5 = draw_shape(52, 5);
    sb_shape s52 = perm_shape(52);
    assert_int_equal(sb_stat_check(&sb_stat_cycles, &hand5, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'cycles' applies to permutations, not draws");
    assert_int_equal(sb_stat_check(&sb_stat_card_hand, &s52, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why,
                        "'card-hand' applies to deals, not permutations");
    assert_int_equal(sb_stat_check(&sb_stat_card_slot, &bridge, why,
                                 sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'card-slot' applies to draws, not deals");

    /* The defaults: for deals serial dependence, the card x hand table,
       the four statistics of whole hands and repeats; for draws serial
       dependence, one table and repeats. */
    const sb_stat_type *out[SB_STAT_DEFAULTS_MAX];
    assert_int_equal(sb_stat_defaults(&bridge, out, SB_STAT_DEFAULTS_MAX), 7);
    assert_ptr_equal(out[0], &sb_stat_serial);
    assert_ptr_equal(out[1], &sb_stat_card_hand);
    assert_ptr_equal(out[2], &sb_stat_hand_patterns);
    assert_ptr_equal(out[5], &sb_stat_same_hand_pairs);
    assert_ptr_equal(out[6], &sb_stat_collisions);
    assert_int_equal(sb_stat_defaults(&hand5, out, SB_STAT_DEFAULTS_MAX), 3);
    assert_ptr_equal(out[0], &sb_stat_serial);
    assert_ptr_equal(out[1], &sb_stat_card_slot);
    assert_ptr_equal(out[2], &sb_stat_collisions);
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(sb_stat_find("position"), &sb_stat_position);
    assert_ptr_equal(sb_stat_find("permutation"), &sb_stat_permutation);
    assert_ptr_equal(sb_stat_find("fixed-points"), &sb_stat_fixed_points);
    assert_ptr_equal(sb_stat_find("cycles"), &sb_stat_cycles);
    assert_ptr_equal(sb_stat_find("card-hand"), &sb_stat_card_hand);
    assert_ptr_equal(sb_stat_find("card-slot"), &sb_stat_card_slot);
    assert_ptr_equal(sb_stat_find("serial"), &sb_stat_serial);
    assert_ptr_equal(sb_stat_find("collisions"), &sb_stat_collisions);
    assert_ptr_equal(sb_stat_find("fy-code"), &sb_stat_fy_code);
    assert_ptr_equal(sb_stat_find("fy-code-forward"),
                     &sb_stat_fy_code_forward);
    assert_null(sb_stat_find("positon"));
    assert_null(sb_stat_find(NULL));

    char why[128];
    sb_shape s52 = perm_shape(52);
    assert_int_equal(sb_stat_check(&sb_stat_permutation, &s52, why,
                                 sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "'permutation' needs n <= 10 (n is 52)");
    sb_shape deal = { SB_KIND_DEAL, 52, 52, 4 };
    assert_int_equal(sb_stat_check(&sb_stat_position, &deal, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why,
                        "'position' applies to permutations, not deals");
    assert_int_equal(sb_stat_check(&sb_stat_position, &s52, why, sizeof why),
                     SB_OK);
    assert_string_equal(why, "");
    sb_shape big = perm_shape(5000);
    assert_int_equal(sb_stat_check(&sb_stat_position, &big, NULL, 0),
                     SB_EINVAL);

    const sb_stat_type *out[SB_STAT_DEFAULTS_MAX];
    assert_int_equal(sb_stat_defaults(&s52, out, SB_STAT_DEFAULTS_MAX), 13);
    assert_ptr_equal(out[0], &sb_stat_position);
    assert_ptr_equal(out[1], &sb_stat_fixed_points);
    assert_ptr_equal(out[2], &sb_stat_cycles);
    assert_ptr_equal(out[3], &sb_stat_rising);
    assert_ptr_equal(out[4], &sb_stat_descents);
    assert_ptr_equal(out[5], &sb_stat_inversions);
    assert_ptr_equal(out[6], &sb_stat_successions);
    assert_ptr_equal(out[7], &sb_stat_new_age_solitaire);
    assert_ptr_equal(out[8], &sb_stat_poker7);
    assert_ptr_equal(out[9], &sb_stat_fy_code);
    assert_ptr_equal(out[10], &sb_stat_fy_code_forward);
    assert_ptr_equal(out[11], &sb_stat_serial);
    assert_ptr_equal(out[12], &sb_stat_collisions);
    /* No collisions below 15 cards (15! ~ 2^40.25), no poker7 but at 52. */
    sb_shape s10 = perm_shape(10), s1 = perm_shape(1);
    assert_int_equal(sb_stat_defaults(&s10, out, SB_STAT_DEFAULTS_MAX), 12);
    assert_ptr_equal(out[1], &sb_stat_permutation);
    assert_ptr_equal(out[11], &sb_stat_serial);
    /* One card: the four tables and serial; the order statistics need
       two cards, the solitaire four. */
    assert_int_equal(sb_stat_defaults(&s1, out, SB_STAT_DEFAULTS_MAX), 5);
    assert_int_equal(sb_stat_defaults(&s1, out, 2), 2);
    /* 5000 cards: no n x n table (position, serial: n <= 4096), no
       Fisher-Yates code (n <= 4096), no inversions (n <= 1024), no
       poker7 (52 only). */
    assert_int_equal(sb_stat_defaults(&big, out, SB_STAT_DEFAULTS_MAX), 7);
    assert_ptr_equal(out[6], &sb_stat_collisions);
    sb_shape draw = { SB_KIND_DRAW, 52, 5, 0 };
    assert_int_equal(sb_stat_defaults(&draw, out, SB_STAT_DEFAULTS_MAX), 3);
    assert_ptr_equal(out[1], &sb_stat_card_slot);
    assert_int_equal(sb_stat_defaults(&deal, out, SB_STAT_DEFAULTS_MAX), 7);
    assert_ptr_equal(out[0], &sb_stat_serial);
    assert_ptr_equal(out[1], &sb_stat_card_hand);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_registry_kinds),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
