/*
 * test_exact.c - exact mode: every path walked, exact fractions.
 *
 * Published values: the 3-card naive swap (the blog post "Shuffling
 * along", and Atwood's "The Danger of Naivete", 2007): 4, 5, 5, 5, 4, 4 of
 * 27.  Sattolo (IPL 22(6), 1986): exactly the (n-1)! cyclic permutations,
 * each 1/(n-1)!.  The rest is checked against direct reasoning written
 * next to each case, or against an independent count made here.
 */
#include "tests/sb_test.h"
#include "tests/sb_sample.h"

#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "base/draws.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "engine/enumerate.h"
#include "stats/exact.h"

static int walk(const sb_shuffle_type *t, size_t n, const char *param,
                uint64_t max_paths, size_t max_depth, sb_exact_report *rep,
                char *err, size_t len)
{
    /* With the command line's advice, which some tests check. */
    sb_enum_config cfg = {
        .alg = t,
        .args = { .n = n },
        .option_advice = 1,
        .max_paths = max_paths ? max_paths : SB_ENUM_MAX_PATHS_DEFAULT,
        .max_depth = max_depth ? max_depth : SB_ENUM_MAX_DEPTH_DEFAULT,
    };
    sb_shuffle_defaults(t, &cfg.args);
    if (param)
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, param), SB_OK);
    return sb_enumerate(&cfg, rep, err, len);
}

static void naive_swap_4_5_5_5_4_4(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&sb_shuffle_naive_swap, 3, NULL, 0, 0, &rep, err,
                          sizeof err), SB_OK);
    assert_int_equal(rep.paths, 27);
    assert_true(rep.equal_weights);
    assert_string_equal(rep.path_weight, "1/27");
    assert_int_equal(rep.n_outcomes, 6);
    const char *want[6] = { "4/27", "5/27", "5/27", "5/27", "4/27", "4/27" };
    const uint64_t count[6] = { 4, 5, 5, 5, 4, 4 };
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(rep.outcomes[i].fraction, want[i]);
        assert_int_equal(rep.outcomes[i].paths, count[i]);
    }
    /* ABC is first: outcomes are in lexicographic order. */
    assert_int_equal(rep.outcomes[0].sample[0], 0);
    /* TV = 3 * (5/27 - 1/6) = 3 * 1/54 = 1/18. */
    assert_string_equal(rep.tv, "1/18");
    assert_int_equal(rep.verdict, SB_EXACT_BIASED);
    assert_string_equal(rep.unexplored, "0/1");
    /* Card A at position 0 in ABC and ACB: 4/27 + 5/27 = 1/3; card B at
       position 0 in BAC and BCA: 10/27. */
    assert_string_equal(rep.matrix[0 * 3 + 0], "1/3");
    assert_string_equal(rep.matrix[1 * 3 + 0], "10/27");
    assert_string_equal(rep.matrix[2 * 3 + 0], "8/27");
    sb_exact_report_release(&rep);
}

static void fisher_yates_exactly_uniform(void **state)
{
    (void)state;
    const char *uniform[] = { "", "1/1", "1/2", "1/6", "1/24", "1/120",
                              "1/720", "1/5040" };
    for (size_t n = 1; n <= 7; n++) {
        sb_exact_report rep;
        char err[256];
        assert_int_equal(walk(&sb_shuffle_fisher_yates, n, NULL, 0, 0, &rep,
                              err, sizeof err), SB_OK);
        assert_int_equal(rep.verdict, SB_EXACT_UNIFORM);
        assert_string_equal(rep.uniform, uniform[n]);
        assert_string_equal(rep.tv, "0/1");
        for (size_t i = 0; i < rep.n_outcomes; i++)
            assert_string_equal(rep.outcomes[i].fraction, uniform[n]);
        sb_exact_report_release(&rep);
    }
}

/* Length of the cycle through card 0, for an independent check. */
static size_t cycle_len(const sb_card *d)
{
    size_t len = 0, c = 0;
    do {
        c = d[c];
        len++;
    } while (c != 0);
    return len;
}

static void sattolo_exactly_the_cycles(void **state)
{
    (void)state;
    const char *each[] = { "", "", "1/1", "1/2", "1/6", "1/24", "1/120" };
    const size_t count[] = { 0, 0, 1, 2, 6, 24, 120 };
    for (size_t n = 2; n <= 6; n++) {
        sb_exact_report rep;
        char err[256];
        assert_int_equal(walk(&sb_shuffle_sattolo, n, NULL, 0, 0, &rep, err,
                              sizeof err), SB_OK);
        assert_int_equal(rep.n_outcomes, count[n]);
        for (size_t i = 0; i < rep.n_outcomes; i++) {
            assert_int_equal(cycle_len(rep.outcomes[i].sample), n);
            assert_string_equal(rep.outcomes[i].fraction, each[n]);
        }
        assert_int_equal(rep.verdict, SB_EXACT_BIASED);
        sb_exact_report_release(&rep);
    }
}

/* 1-bit keys, stable sort: ABC whenever the keys are sorted, 4 of 8. */
static void stable_one_bit_keys_keep_identity_half_the_time(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&sb_shuffle_sort_random_keys, 3, "key-bits=1", 0, 0,
                          &rep, err, sizeof err), SB_OK);
    assert_string_equal(rep.outcomes[0].fraction, "1/2");
    assert_int_equal(rep.n_never, 1);            /* CBA: keys 1 > 1 > 0 */
    assert_int_equal(rep.never[0], 2);
    assert_string_equal(rep.unreached, "1");
    sb_exact_report_release(&rep);
    /* The default 53-bit keys are refused before starting, with the hint. */
    assert_int_equal(walk(&sb_shuffle_sort_random_keys, 3, NULL, 0, 0, &rep,
                          err, sizeof err), SB_ERANGE);
    assert_non_null(strstr(err, "key-bits=2"));
}

/* Weighted draws: fisher-yates-mod against the brute force over all
   32768^2 pairs of rand() values (test_algorithms.c). */
static void fisher_yates_mod_weights(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&sb_shuffle_fisher_yates_mod, 3, NULL, 0, 0, &rep,
                          err, sizeof err), SB_OK);
    const char *want[6] = { "5461/32768", "10923/65536", "5461/32768",
                            "10923/65536", "10923/65536", "10923/65536" };
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(rep.outcomes[i].fraction, want[i]);
    assert_false(rep.equal_weights);
    sb_exact_report_release(&rep);
}

/* ---- algorithms that exist only here, for the walk's edge cases -------- */

/* Flip coins until heads; the two cards stay in place when the number of
   flips is even and swap when it is odd.  Paths have every length;
   P(k flips) = 2^-k, so P(in place) = 1/4 + 1/16 + ... = 1/3.  Cut at
   depth D, the mass left is 2^-D. */
static int coin_run(void *st, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)st;
    (void)a;
    unsigned flips = 1;
    while (sb_bits(src, 1) == 0)
        flips++;
    out[0] = (sb_card)(flips % 2);
    out[1] = (sb_card)(1 - flips % 2);
    return SB_OK;
}

static const sb_shuffle_type coin = {
    .name = "coin", .summary = "test", .source = "test",
    .kind = SB_KIND_PERMUTATION, .literature = SB_LIT_BIASED,
    .n_min = 2, .n_max = 2, .run = coin_run,
};

/* A fair 2-card shuffle by rejection: draw two bits until they differ,
   01 keeps the order and 10 swaps it (von Neumann's trick).  Exactly
   uniform, but its paths have no bound: cut at depth 10, each order holds
   (1 - 2^-5)/2 = 31/64, and the walk cannot say more than that. */
static int rejection_run(void *st, const sb_shuffle_args *a, sb_src *src,
                         sb_card *out)
{
    (void)st;
    (void)a;
    uint64_t x, y;
    do {
        x = sb_bits(src, 1);
        y = sb_bits(src, 1);
    } while (x == y);
    out[0] = (sb_card)x;
    out[1] = (sb_card)y;
    return SB_OK;
}

static const sb_shuffle_type rejection = {
    .name = "rejection", .summary = "test", .source = "test",
    .kind = SB_KIND_PERMUTATION, .literature = SB_LIT_UNIFORM,
    .n_min = 2, .n_max = 2, .run = rejection_run,
};

static int real_run(void *st, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)st;
    out[0] = (sb_card)(sb_unit(src) < 0.5);
    out[1] = (sb_card)(1 - out[0]);
    (void)a;
    return SB_OK;
}

static const sb_shuffle_type real_keys = {
    .name = "real-keys", .summary = "test", .source = "test",
    .kind = SB_KIND_PERMUTATION, .literature = SB_LIT_UNIFORM,
    .n_min = 2, .n_max = 2, .run = real_run, .exact_hint = "bits=8",
};

/* A fair deal of 4 cards into 2 hands of 2: Fisher-Yates, then the card at
   position p goes to hand p mod 2.  C(4,2) = 6 deals, each 1/6. */
static int deal_run(void *st, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)st;
    sb_card deck[4];
    src_fisher_yates(src, deck, a->n);
    for (size_t p = 0; p < a->n; p++)
        out[deck[p]] = (sb_card)(p % 2);
    return SB_OK;
}

static unsigned two_hands(const sb_shuffle_args *a)
{
    (void)a;
    return 2;
}

static const sb_shuffle_type deal = {
    .name = "deal", .summary = "test", .source = "test",
    .kind = SB_KIND_DEAL, .literature = SB_LIT_UNIFORM,
    .n_min = 4, .n_max = 4, .hands = two_hands, .run = deal_run,
};

/* A draw of 2 cards from 3 by the first two steps of a forward
   Fisher-Yates: 3 x 2 ordered hands, each 1/6. */
static size_t two(const sb_shuffle_args *a)
{
    (void)a;
    return 2;
}

static int draw_run(void *st, const sb_shuffle_args *a, sb_src *src,
                    sb_card *out)
{
    (void)st;
    sb_card deck[3] = { 0, 1, 2 };
    for (size_t i = 0; i < 2; i++) {
        size_t j = i + (size_t)sb_below(src, a->n - i);
        sb_card t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
        out[i] = deck[i];
    }
    return SB_OK;
}

static const sb_shuffle_type draw = {
    .name = "draw", .summary = "test", .source = "test",
    .kind = SB_KIND_DRAW, .literature = SB_LIT_UNIFORM,
    .n_min = 3, .n_max = 3, .sample_len = two, .run = draw_run,
};

static void deals_and_draws(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&deal, 4, NULL, 0, 0, &rep, err, sizeof err), SB_OK);
    assert_string_equal(rep.possible, "6");   /* 4! / (2! 2!) */
    assert_int_equal(rep.n_outcomes, 6);
    assert_int_equal(rep.verdict, SB_EXACT_UNIFORM);
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(rep.outcomes[i].paths, 4);   /* 24 orders / 6 */
    assert_int_equal(rep.cols, 2);                    /* card x hand */
    assert_string_equal(rep.matrix[0], "1/2");
    json_t *j = sb_exact_json(&rep);
    assert_int_equal(json_array_size(json_object_get(j, "deals")), 6);
    assert_non_null(json_object_get(json_array_get(json_object_get(j, "deals"),
                                                   0), "hands"));
    json_decref(j);
    sb_exact_report_release(&rep);

    assert_int_equal(walk(&draw, 3, NULL, 0, 0, &rep, err, sizeof err), SB_OK);
    assert_string_equal(rep.possible, "6");   /* 3! / 1! */
    assert_int_equal(rep.verdict, SB_EXACT_UNIFORM);
    assert_int_equal(rep.cols, 2);            /* card x position drawn */
    assert_string_equal(rep.matrix[0], "1/3");
    sb_exact_report_release(&rep);
}

static void stop_at_first_progress(void *ctx, uint64_t paths, uint64_t total)
{
    (void)paths;
    (void)total;
    *(volatile sig_atomic_t *)ctx = 1;
}

/* Interrupted after 2^20 of the 8-card naive swap's 8^8 paths: the
   report is partial, and everything not walked is unexplored mass. */
static void interrupted_walk_reports_the_rest_unexplored(void **state)
{
    (void)state;
    volatile sig_atomic_t stop = 0;
    sb_enum_config cfg = {
        .alg = &sb_shuffle_naive_swap,
        .args = { .n = 8 },
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .max_depth = SB_ENUM_MAX_DEPTH_DEFAULT,
        .stop = &stop,
        .progress = stop_at_first_progress,
        .progress_ctx = (void *)&stop,
    };
    sb_exact_report rep;
    char err[256];
    assert_int_equal(sb_enumerate(&cfg, &rep, err, sizeof err), SB_OK);
    assert_true(rep.partial);
    assert_int_equal(rep.paths, 1u << 20);
    /* 2^20 of 2^24 equally likely paths walked: 15/16 left. */
    assert_string_equal(rep.unexplored, "15/16");
    /* A sixteenth of the mass puts no order above 1/8! yet: the walked
       part proves nothing either way. */
    assert_int_equal(rep.verdict, SB_EXACT_INCONCLUSIVE);
    /* The totals only, made at once from the walk: no outcome listed,
       the mass walked exact, and every order reached so far counted
       (2^20 paths reach some of the 8! orders, not all). */
    assert_true(rep.summary_only);
    assert_int_equal(rep.n_outcomes, 0);
    assert_null(rep.outcomes);
    assert_string_equal(rep.explored, "1/16");
    assert_true(rep.reached > 0 && rep.reached <= 40320);
    assert_string_equal(rep.possible, "40320");
    sb_exact_report_release(&rep);
}

/* A walk interrupted once it is complete, while its JSON is being made:
   the outcomes are not listed (however many there are), and the report
   says so and is partial. */
static void json_interrupted_lists_no_outcome(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&sb_shuffle_naive_swap, 4, NULL, 0, 0, &rep, err,
                          sizeof err), SB_OK);
    assert_int_equal(rep.n_outcomes, 24);
    volatile sig_atomic_t stop = 1;
    rep.stop = &stop;
    json_t *j = sb_exact_json(&rep);
    assert_null(json_object_get(j, "permutations"));
    assert_true(json_is_false(json_object_get(j, "outcomes_listed")));
    assert_true(json_is_true(json_object_get(j, "partial")));
    assert_int_equal(json_integer_value(json_object_get(j, "reached")), 24);
    json_decref(j);
    stop = 0;
    j = sb_exact_json(&rep);
    assert_int_equal(json_array_size(json_object_get(j, "permutations")),
                     24);
    assert_null(json_object_get(j, "outcomes_listed"));
    json_decref(j);
    sb_exact_report_release(&rep);
}

/* The JSON written outcome by outcome is the document sb_exact_json
   builds whole, for permutations and for a draw. */
static void streamed_json_is_the_whole_document(void **state)
{
    (void)state;
    const struct {
        const sb_shuffle_type *t;
        size_t n;
        const char *param;
        const char *key;
    } runs[] = {
        { &sb_shuffle_naive_swap, 4, NULL, "permutations" },
        { &sb_shuffle_fisher_yates, 3, NULL, "permutations" },
        { &sb_shuffle_partial_deal, 5, "k=2", "draws" },
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        sb_exact_report rep;
        char err[256];
        assert_int_equal(walk(runs[r].t, runs[r].n, runs[r].param, 0, 0,
                              &rep, err, sizeof err), SB_OK);
        FILE *f = tmpfile();
        assert_non_null(f);
        assert_int_equal(sb_render_exact_json(f, &rep), SB_OK);
        rewind(f);
        json_error_t jerr;
        json_t *streamed = json_loadf(f, 0, &jerr);
        fclose(f);
        assert_non_null(streamed);
        json_t *whole = sb_exact_json(&rep);
        assert_true(json_equal(streamed, whole));
        assert_int_equal(json_array_size(json_object_get(streamed,
                                                         runs[r].key)),
                         rep.n_outcomes);
        json_decref(streamed);
        json_decref(whole);
        sb_exact_report_release(&rep);
    }
}

static void unbounded_draws_report_unexplored_mass(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&coin, 2, NULL, 0, 10, &rep, err, sizeof err),
                     SB_OK);
    assert_int_equal(rep.paths, 10);         /* 1 .. 10 flips */
    assert_int_equal(rep.cut_paths, 1);      /* ten tails, then cut */
    assert_string_equal(rep.unexplored, "1/1024");
    assert_false(rep.equal_weights);
    /* In place (AB) after an even number of flips 2, 4, ..., 10:
       1/4 + 1/16 + 1/64 + 1/256 + 1/1024 = 341/1024; swapped (BA) after
       1, 3, ..., 9: 1/2 + 1/8 + 1/32 + 1/128 + 1/512 = 341/512. */
    assert_string_equal(rep.outcomes[0].fraction, "341/1024");
    assert_string_equal(rep.outcomes[1].fraction, "341/512");
    assert_int_equal(rep.verdict, SB_EXACT_BIASED);
    sb_exact_report_release(&rep);
}

static void fair_but_unbounded_is_inconclusive(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&rejection, 2, NULL, 0, 10, &rep, err, sizeof err),
                     SB_OK);
    assert_string_equal(rep.outcomes[0].fraction, "31/64");
    assert_string_equal(rep.outcomes[1].fraction, "31/64");
    assert_string_equal(rep.unexplored, "1/32");
    assert_string_equal(rep.tv, "0/1");
    assert_int_equal(rep.verdict, SB_EXACT_INCONCLUSIVE);
    sb_exact_report_release(&rep);
}

static void unit_draws_are_refused_with_the_hint(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&real_keys, 2, NULL, 0, 0, &rep, err, sizeof err),
                     SB_ENOTSUP);
    assert_non_null(strstr(err, "unit()"));
    assert_non_null(strstr(err, "--param bits=8"));
}

static void path_budget(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    /* Known tree: refused before starting (9^9 = 387420489 paths). */
    assert_int_equal(walk(&sb_shuffle_naive_swap, 9, NULL, 1000000, 0, &rep,
                          err, sizeof err), SB_ERANGE);
    assert_non_null(strstr(err, "387420489"));
    /* Unknown tree: stopped when the budget runs out. */
    assert_int_equal(walk(&coin, 2, NULL, 5, 100, &rep, err, sizeof err),
                     SB_ERANGE);
    assert_non_null(strstr(err, "more than 5 paths"));
}

/* The JSON carries DESIGN.md's keys, and every fraction is reduced. */
static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void assert_reduced(const char *f)
{
    char *slash;
    uint64_t p = strtoull(f, &slash, 10);
    assert_int_equal(*slash, '/');
    uint64_t q = strtoull(slash + 1, NULL, 10);
    assert_true(q > 0);
    assert_int_equal(gcd(p, q), p == 0 ? q : 1);
}

static void json_keys_and_reduced_fractions(void **state)
{
    (void)state;
    sb_exact_report rep;
    char err[256];
    assert_int_equal(walk(&sb_shuffle_fisher_yates_mod, 4, NULL, 0, 0, &rep,
                          err, sizeof err), SB_OK);
    json_t *j = sb_exact_json(&rep);
    const char *keys[] = { "algorithm", "n", "paths", "permutations",
                           "tv_distance", "tv_distance_exact",
                           "unexplored_mass", "position_matrix" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_non_null(json_object_get(j, keys[i]));
    json_t *perms = json_object_get(j, "permutations"), *p;
    assert_int_equal(json_array_size(perms), 24);
    size_t i;
    json_array_foreach(perms, i, p) {
        assert_int_equal(json_array_size(json_object_get(p, "perm")), 4);
        assert_non_null(json_object_get(p, "probability"));
        assert_reduced(json_string_value(json_object_get(p, "exact")));
    }
    assert_reduced(json_string_value(json_object_get(j, "tv_distance_exact")));
    assert_string_equal(json_string_value(json_object_get(j, "unexplored_mass")),
                        "0/1");
    json_t *row;
    json_array_foreach(json_object_get(j, "position_matrix"), i, row) {
        size_t k;
        json_t *cell;
        json_array_foreach(row, k, cell)
            assert_reduced(json_string_value(cell));
    }
    json_decref(j);
    sb_exact_report_release(&rep);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(naive_swap_4_5_5_5_4_4),
        cmocka_unit_test(fisher_yates_exactly_uniform),
        cmocka_unit_test(sattolo_exactly_the_cycles),
        cmocka_unit_test(stable_one_bit_keys_keep_identity_half_the_time),
        cmocka_unit_test(fisher_yates_mod_weights),
        cmocka_unit_test(deals_and_draws),
        cmocka_unit_test(interrupted_walk_reports_the_rest_unexplored),
        cmocka_unit_test(json_interrupted_lists_no_outcome),
        cmocka_unit_test(streamed_json_is_the_whole_document),
        cmocka_unit_test(unbounded_draws_report_unexplored_mass),
        cmocka_unit_test(fair_but_unbounded_is_inconclusive),
        cmocka_unit_test(unit_draws_are_refused_with_the_hint),
        cmocka_unit_test(path_budget),
        cmocka_unit_test(json_keys_and_reduced_fractions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
