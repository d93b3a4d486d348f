/*
 * test_diagnose.c - the diagnosis names the flaw a failing run comes
 * from (src/engine/diagnose.h).
 *
 * Every flawed catalogue algorithm is run at 52 cards and at a small deck,
 * with a fixed seed and a sample size at which it fails, and its
 * diagnosis must name it with a score at or above the threshold.  A
 * fixed seed makes each case deterministic: the false-alarm rate of a
 * case is 0 for these seeds (a change that moves a score across the
 * threshold fails the test, as it should); the sample sizes were chosen
 * with a margin, so that each fails by far more than the fail threshold.
 * A bias outside the catalogue (a dealer that carries its deal over, a
 * shuffle that sorts the top two cards) must get "no close match"; a
 * source with 2^32 seeds must be named a source with too few states, its
 * reachable decks estimated near 2^32.
 *
 * fisher-yates-mod fails at 52 cards after some 10^7 decks, and at 8
 * cards only after some 10^10 (its bias is about 10^-4 of a draw's
 * probability there): its small-deck case is the same idiom on a
 * generator of 8 or 10 bits, which must be named fisher-yates-mod with
 * that many bits.
 */
#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "algorithms/deck.h"
#include "algorithms/registry.h"
#include "base/shuffle_type.h"
#include "engine/diagnose.h"
#include "engine/runner.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "stats/battery.h"
#include "stats/registry.h"
#include "tests/plugins/carry_deal.h"

/* Fisher-Yates, then the top two cards put in order: a bias in the top
   two positions alone, like no catalogued flaw. */
static int top_two_run(void *state, const sb_shuffle_args *a, sb_src *src,
                       sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t i = a->n; i-- > 1;)
        sb_deck_swap(out, i, sb_below(src, i + 1));
    if (a->n >= 2 && out[0] > out[1])
        sb_deck_swap(out, 0, 1);
    return SB_OK;
}

/* Fisher-Yates drawing j = x % (i+1) from x of 'param[0]' bits: the
   modulo bias of a small generator, strong enough to fail at 8 cards. */
static int small_rand_run(void *state, const sb_shuffle_args *a,
                          sb_src *src, sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    for (size_t i = a->n; i-- > 1;)
        sb_deck_swap(out, i, (size_t)(sb_bits(src, (unsigned)a->param[0])
                                      % (i + 1)));
    return SB_OK;
}

static const sb_param_def small_rand_params[] = {
    { "bits", "the generator's bits", 8, 8, 16, NULL },
};

static const sb_shuffle_type small_rand = {
    .name = "small-rand-mod",
    .summary = "Fisher-Yates with j = rand() % (i+1) from a small rand()",
    .source = "test",
    .bias = "the low residues come up more often",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 2,
    .n_max = 256,
    .params = small_rand_params,
    .n_params = 1,
    .run = small_rand_run,
};

static const sb_shuffle_type top_two = {
    .name = "top-two-sorted",
    .summary = "Fisher-Yates, then the top two cards in order",
    .source = "test",
    .bias = "the top two cards are always in order",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 2,
    .n_max = 1u << 16,
    .run = top_two_run,
};

typedef struct fixture {
    sb_diagnoser *d;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f || sb_diagnoser_new(&f->d, 2, NULL) != SB_OK)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    sb_diagnoser_free(f->d);
    free(f);
    return 0;
}

/* Run 't' at n with "k=v,..." on the default battery and diagnose it. */
static void run_case(fixture *f, const sb_shuffle_type *t, size_t n,
                     const char *params, uint64_t samples, uint64_t seed,
                     const char *rng, sb_report *rep)
{
    sb_run_config cfg = { .alg = t, .args = { .n = n }, .samples = samples,
                          .seed = seed, .rng = rng ? rng : "xoshiro256",
                          .threads = 2 };
    sb_shuffle_defaults(t, &cfg.args);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", params ? params : "");
    for (char *kv = strtok(buf, ","); kv; kv = strtok(NULL, ","))
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, kv), SB_OK);
    sb_shape shape;
    sb_shuffle_shape(t, &cfg.args, &shape);
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
    cfg.n_stats = sb_stat_defaults(&shape, stats, SB_STAT_DEFAULTS_MAX);
    cfg.stats = stats;
    char err[512];
    int st = sb_run(&cfg, rep, err, sizeof err);
    if (st != SB_OK)
        print_error("%s: %s\n", t->name, err);
    assert_int_equal(st, SB_OK);
    if (rep->verdict != SB_VERDICT_FAIL)
        print_error("%s n=%zu %s: not a fail at %llu samples\n", t->name, n,
                    params ? params : "", (unsigned long long)samples);
    assert_int_equal(rep->verdict, SB_VERDICT_FAIL);
    st = sb_diagnose(f->d, rep, err, sizeof err);
    if (st != SB_OK)
        print_error("diagnose: %s\n", err);
    assert_int_equal(st, SB_OK);
    const sb_diagnosis *g = &rep->diagnosis;
    print_message("  %-28s n=%-3zu %-22s %8llu samples -> %s %s "
                  "score %.3f (next %s %.3f) %s\n", t->name, n,
                  params ? params : "", (unsigned long long)samples,
                  g->state == SB_DIAGNOSIS_MATCH ? "match" : "NO MATCH",
                  g->name, g->score, g->runner_up, g->runner_up_score,
                  g->estimate);
}

/* A flawed catalogue algorithm and where it fails. */
typedef struct flaw_case {
    const char *name;
    size_t n;
    const char *params;
    uint64_t samples;
    const char *same;     /* a catalogue entry of exactly the same law,
                             which may be named instead, or NULL */
} flaw_case;

static void expect_named(fixture *f, const flaw_case *c)
{
    const sb_shuffle_type *t = sb_shuffle_find(c->name);
    assert_non_null(t);
    sb_report rep;
    run_case(f, t, c->n, c->params, c->samples, 17, NULL, &rep);
    const sb_diagnosis *g = &rep.diagnosis;
    assert_int_equal(g->state, SB_DIAGNOSIS_MATCH);
    if (!c->same || strcmp(g->name, c->same) != 0)
        assert_string_equal(g->name, c->name);
    assert_true(g->score >= SB_DIAGNOSIS_THRESHOLD && g->score <= 1.0);
    assert_true(g->advice[0] != '\0' && g->flaw[0] != '\0');
    if (strcmp(c->name, "fisher-yates-mod") == 0) {
        /* Its rand() has 15 bits, and its favoured residues say so. */
        long bits = 0;
        assert_int_equal(sscanf(g->estimate, "a rand() of about %ld bits",
                                &bits), 1);
        assert_int_equal(bits, 15);
    }
    sb_report_release(&rep);
}

/* Every flawed catalogue entry of the permutations, at 52 cards. */
static void test_catalogue_52(void **state)
{
    static const flaw_case cases[] = {
        { "naive-swap", 52, NULL, 20000, NULL },
        { "sattolo", 52, NULL, 20000, NULL },
        /* Keys of b bits sorted stably are b inverse riffles: each bit
           is one pass's coin (Bayer and Diaconis 1992), the same law. */
        { "sort-random-keys", 52, "key-bits=8", 100000, "inverse-riffle" },
        { "sort-random-keys", 52, "key-bits=4,sort=exchange", 20000, NULL },
        { "sort-random-comparator", 52, NULL, 20000, NULL },
        { "sort-random-comparator", 52, "sort=quick", 20000, NULL },
        { "riffle", 52, "passes=5", 100000, NULL },
        { "riffle", 52, NULL, 200000, NULL },
        { "inverse-riffle", 52, NULL, 200000, NULL },
        { "human-packet", 52, NULL, 100000, NULL },
        { "riffle-until-uniform-forward", 52, NULL, 200000, NULL },
        /* The modulo bias is 1/630 of a draw's probability at most: the
           Fisher-Yates code's directed test sees it at some 10^7 decks. */
        { "fisher-yates-mod", 52, NULL, 10000000, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_named(*state, &cases[i]);
}

/* The same at 8 cards. */
static void test_catalogue_small(void **state)
{
    static const flaw_case cases[] = {
        { "naive-swap", 8, NULL, 20000, NULL },
        { "sattolo", 8, NULL, 20000, NULL },
        { "sort-random-keys", 8, "key-bits=4", 50000, "inverse-riffle" },
        { "sort-random-comparator", 8, NULL, 20000, NULL },
        { "riffle", 8, "passes=3", 50000, NULL },
        { "inverse-riffle", 8, "passes=3", 50000, NULL },
        { "human-packet", 8, "passes=2", 50000, NULL },
        /* Its early stops make a riffle of some passes at small n: the
           two laws are within the signatures' noise of each other
           (docs/diagnosis.md), so either name is right. */
        { "riffle-until-uniform-forward", 8, NULL, 200000, "riffle" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_named(*state, &cases[i]);
}

/* The idiom of fisher-yates-mod on generators of 8 and 10 bits, at 8 and
   24 cards (each needs some 10^5 decks to fail: 400000 is a margin):
   named as it, with the generator's bits. */
static void test_small_generators(void **state)
{
    static const struct { size_t n; const char *bits; uint64_t samples;
                          long expect; } cases[] = {
        { 8, "bits=8", 400000, 8 },
        { 24, "bits=10", 400000, 10 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_report rep;
        run_case(*state, &small_rand, cases[i].n, cases[i].bits,
                 cases[i].samples, 17, NULL, &rep);
        const sb_diagnosis *g = &rep.diagnosis;
        assert_int_equal(g->state, SB_DIAGNOSIS_MATCH);
        assert_string_equal(g->name, "fisher-yates-mod");
        long bits = 0;
        assert_int_equal(sscanf(g->estimate, "a rand() of about %ld bits",
                                &bits), 1);
        assert_int_equal(bits, cases[i].expect);
        sb_report_release(&rep);
    }
}

/* The flawed dealer, at a bridge deal and at two hands of four. */
static void test_catalogue_deals(void **state)
{
    static const flaw_case cases[] = {
        { "deal-random-hand", 52, NULL, 20000, NULL },
        { "deal-random-hand", 8, "hands=2,hand-size=4", 20000, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_named(*state, &cases[i]);
}

/* Biases outside the catalogue: no close match. */
static void test_no_close_match(void **state)
{
    sb_report rep;
    run_case(*state, &top_two, 52, NULL, 100000, 17, NULL, &rep);
    assert_int_equal(rep.diagnosis.state, SB_DIAGNOSIS_NO_MATCH);
    assert_true(rep.diagnosis.score < SB_DIAGNOSIS_THRESHOLD);
    sb_report_release(&rep);
    run_case(*state, &carry_deal, 52, NULL, 100000, 17, NULL, &rep);
    assert_int_equal(rep.diagnosis.state, SB_DIAGNOSIS_NO_MATCH);
    assert_true(rep.diagnosis.score < SB_DIAGNOSIS_THRESHOLD);
    sb_report_release(&rep);
}

/* Fisher-Yates on a generator re-seeded with 32 bits before every deck:
   repeated decks, about 2^32 of them reachable. */
static void test_repeated_decks(void **state)
{
    sb_report rep;
    run_case(*state, sb_shuffle_find("fisher-yates"), 52, NULL, 400000, 17,
             "reseed32:xoshiro256", &rep);
    const sb_diagnosis *g = &rep.diagnosis;
    assert_int_equal(g->state, SB_DIAGNOSIS_MATCH);
    assert_string_equal(g->name, "repeated-decks");
    double bits = 0;
    assert_int_equal(sscanf(g->estimate, "about 2^%lf", &bits), 1);
    /* 400000 decks make about 18.6 repeats among 2^32 seeds: the
       estimate's sd is about 0.33 bits, so 1.5 bits is 4.5 sd. */
    assert_true(fabs(bits - 32.0) < 1.5);
    sb_report_release(&rep);
}

/* The JSON report's "diagnosis" keys, on a fail and on a pass. */
static void test_json(void **state)
{
    sb_report rep;
    run_case(*state, sb_shuffle_find("sattolo"), 52, NULL, 20000, 17, NULL,
             &rep);
    json_t *root = sb_report_json(&rep);
    json_t *g = json_object_get(root, "diagnosis");
    assert_true(json_is_object(g));
    assert_string_equal(json_string_value(json_object_get(g, "name")),
                        "sattolo");
    assert_true(json_is_true(json_object_get(g, "match")));
    assert_true(json_is_real(json_object_get(g, "score")));
    assert_true(json_is_real(json_object_get(g, "threshold")));
    assert_true(json_is_string(json_object_get(g, "advice")));
    assert_true(json_is_string(json_object_get(g, "flaw")));
    assert_true(json_is_string(json_object_get(g, "bias")));
    assert_true(json_is_object(json_object_get(g, "runner_up")));
    assert_null(json_object_get(root, "missed"));
    json_decref(root);
    sb_report_release(&rep);

    /* A pass: no diagnosis, what it could have missed. */
    fixture *f = *state;
    const sb_shuffle_type *t = sb_shuffle_find("fisher-yates");
    sb_run_config cfg = { .alg = t, .args = { .n = 52 }, .samples = 20000,
                          .seed = 17, .rng = "xoshiro256", .threads = 2 };
    const sb_stat_type *stats[] = { &sb_stat_position };
    cfg.stats = stats;
    cfg.n_stats = 1;
    char err[256];
    assert_int_equal(sb_run(&cfg, &rep, err, sizeof err), SB_OK);
    assert_int_equal(rep.verdict, SB_VERDICT_PASS);
    assert_int_equal(sb_diagnose(f->d, &rep, err, sizeof err), SB_OK);
    root = sb_report_json(&rep);
    assert_true(json_is_null(json_object_get(root, "diagnosis")));
    assert_non_null(strstr(json_string_value(json_object_get(root,
                                                             "missed")),
                           "--effect"));
    json_decref(root);
    sb_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_catalogue_52),
        cmocka_unit_test(test_catalogue_small),
        cmocka_unit_test(test_catalogue_deals),
        cmocka_unit_test(test_small_generators),
        cmocka_unit_test(test_no_close_match),
        cmocka_unit_test(test_repeated_decks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
