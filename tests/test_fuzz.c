/*
 * test_fuzz.c - the fuzz checkers themselves (fuzz/NAME_check.h): that they
 * see what they are there to see.  ctest replays their corpora
 * (fuzz_replay_NAME); this file makes sure a replay that passes means
 * something.
 */
#define _POSIX_C_SOURCE 200809L

#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz/input_check.h"
#include "fuzz/state_check.h"
#include "shufflebias/status.h"

/* The input checker predicts a refusal from its own reading of a card
   order: it agrees with the reader's parser on orders good and bad. */
static void card_order_check_agrees_with_the_reader(void **state)
{
    (void)state;
    static const char *const orders[] = {
        "cdhs:23456789tjqka", "SHDC:AKQJT98765432", "sHdC:aKqJt98765432",
        "shdc", "shdc:", ":akqjt98765432", "shd:akqjt98765432",
        "shdcs:akqjt98765432", "shdx:akqjt98765432", "shdc:akqjt9876543",
        "shdc:akqjt987654322", "shdc:akqj1098765432", "shdc::akqjt98765432",
        "shdc:akqjt98765432:", "", "shdc:akqjt98765432 ", "shdc;akqjt98765432",
    };
    unsigned char number[52];
    char err[160];
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
        const int reader = sb_card_order_parse(orders[i], number, err,
                                               sizeof err) == SB_OK;
        if (reader != sb_fuzz_card_order_ok(orders[i]))
            print_error("'%s': reader %d\n", orders[i], reader);
        assert_int_equal(reader, sb_fuzz_card_order_ok(orders[i]));
    }
}

/* An input case whose spec the reader refuses is fine only when the
   checker expected the refusal: a PBN case of another shape is refused
   and passes; so does a good PBN case read through. */
static void input_cases_with_pbn_and_orders_pass(void **state)
{
    (void)state;
    static const char good[] =
        "\x80\0\0\0\x03" "shdc:akqjt98765432\n"
        "N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 "
        "432.432.432.5432\n";
    assert_int_equal(sb_fuzz_input_one((const uint8_t *)good,
                                       sizeof good - 1), SB_FUZZ_OK);
    static const char other_shape[] = "\0\4\0\0\x05" "N:AKQ\n";
    assert_int_equal(sb_fuzz_input_one((const uint8_t *)other_shape,
                                       sizeof other_shape - 1), SB_FUZZ_OK);
}

/* A state the reader could never have accepted is flagged. */
static void state_fields_check_flags_the_impossible(void **state)
{
    (void)state;
    sb_state *st = calloc(1, sizeof *st);
    assert_non_null(st);
    st->shape.kind = SB_KIND_PERMUTATION;
    assert_int_equal(sb_fuzz_state_fields(st), 0);
    st->n_stats = SB_STATE_STATS_MAX + 1;
    assert_int_equal(sb_fuzz_state_fields(st), 1);
    st->n_stats = 1;                     /* stats[0] is NULL */
    assert_int_equal(sb_fuzz_state_fields(st), 1);
    st->n_stats = 0;
    st->shape.kind = (sb_kind)7;
    assert_int_equal(sb_fuzz_state_fields(st), 1);
    st->shape.kind = SB_KIND_DEAL;
    memset(st->rng, 'x', sizeof st->rng);
    assert_int_equal(sb_fuzz_state_fields(st), 1);
    free(st);
}

/* Garbage, raw or wrapped in a good header and hash, is refused with a
   message: the case passes.  A case of nothing is nothing. */
static void state_garbage_is_refused(void **state)
{
    (void)state;
    static const uint8_t raw[] = { 0, 'S', 'B', 'S', 'T', 'A', 'T', 'E' };
    static const uint8_t wrapped[] = { 1, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0x7f, 3, 4 };
    assert_int_equal(sb_fuzz_state_one(raw, sizeof raw), SB_FUZZ_STATE_OK);
    assert_int_equal(sb_fuzz_state_one(wrapped, sizeof wrapped),
                     SB_FUZZ_STATE_OK);
    assert_int_equal(sb_fuzz_state_one(raw, 0), SB_FUZZ_STATE_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(card_order_check_agrees_with_the_reader),
        cmocka_unit_test(input_cases_with_pbn_and_orders_pass),
        cmocka_unit_test(state_fields_check_flags_the_impossible),
        cmocka_unit_test(state_garbage_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
