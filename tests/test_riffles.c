/*
 * test_riffles.c - the riffle family: riffle, inverse-riffle,
 * riffle-until-uniform, riffle-until-uniform-forward, human-packet.
 *
 * Published values: Bayer & Diaconis, "Trailing the dovetail shuffle to
 * its lair", Ann. Appl. Probab. 2(2), 1992: after k GSR riffles of n
 * cards, P(pi) = C(2^k + n - r, n) / 2^(kn), r the number of rising
 * sequences of pi (so (n+1)/2^n for the unshuffled deck after one).  The
 * stopping rule of Aldous & Diaconis (Amer. Math. Monthly 93(5), 1986)
 * stops at T with P(T <= t) = (2^t)_n / 2^(tn), the birthday problem;
 * the essay "Seven riffle shuffles is not enough - except when it is"
 * (the Possibly Wrong blog, 2020) gives its mean for 52 cards as
 * approximately 11.7243.  Everything else is checked against code written
 * here, independently of the algorithms: rising sequences, the
 * forward-order stopping rule followed step by step as the essay writes
 * it, the perfect shuffles.
 */
#include "tests/sb_test.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "engine/enumerate.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/exact.h"

/* Walk 't' at n cards with its defaults and 'params' (NULL-ended "k=v"
   list, or NULL); max_depth 0 leaves the algorithm's own exact_depth. */
static void walk(const sb_shuffle_type *t, size_t n, const char *const *params,
                 size_t max_depth, sb_exact_report *rep)
{
    sb_enum_config cfg = {
        .alg = t,
        .args = { .n = n },
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .max_depth = max_depth,
    };
    sb_shuffle_defaults(t, &cfg.args);
    for (size_t i = 0; params && params[i]; i++)
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, params[i]), SB_OK);
    char err[256];
    int rc = sb_enumerate(&cfg, rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("%s\n", err);
    assert_int_equal(rc, SB_OK);
}

/* "p/q" of an mpq, with "/1" for integers as the exact report writes
   them; the caller frees it. */
static char *fraction(const mpq_t q)
{
    char *s = mpq_get_str(NULL, 10, q);
    if (!strchr(s, '/')) {
        s = realloc(s, strlen(s) + 3);
        strcat(s, "/1");
    }
    return s;
}

static void assert_fraction(const char *got, const mpq_t want)
{
    char *w = fraction(want);
    assert_string_equal(got, w);
    free(w);
}

/* The number of rising sequences of deck d (d[j] = card at position j):
   maximal runs of consecutive cards x, x+1, ... lying in increasing
   positions; one more than the cards x whose x+1 lies above them. */
static unsigned rising_sequences(const sb_card *d, size_t n)
{
    size_t pos[16];
    for (size_t j = 0; j < n; j++)
        pos[d[j]] = j;
    unsigned r = 1;
    for (size_t x = 0; x + 1 < n; x++)
        r += pos[x + 1] < pos[x];
    return r;
}

static void invert(const sb_card *d, size_t n, sb_card *inv)
{
    for (size_t j = 0; j < n; j++)
        inv[d[j]] = (sb_card)j;
}

/* The next permutation in lexicographic order; 0 after the last. */
static int next_permutation(sb_card *d, size_t n)
{
    size_t i = n - 1;
    while (i > 0 && d[i - 1] >= d[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (d[j] <= d[i - 1])
        j--;
    sb_card t = d[i - 1];
    d[i - 1] = d[j];
    d[j] = t;
    for (size_t a = i, b = n - 1; a < b; a++, b--) {
        t = d[a];
        d[a] = d[b];
        d[b] = t;
    }
    return 1;
}

/* Bayer & Diaconis (1992): C(2^k + n - r, n) / 2^(kn). */
static void bayer_diaconis(unsigned k, size_t n, unsigned r, mpq_t out)
{
    mpz_t c;
    mpz_init(c);
    const unsigned long top = (1ul << k) + n;
    if (top >= r)
        mpz_bin_uiui(c, top - r, n);
    mpq_set_z(out, c);
    mpz_set_ui(c, 1);
    mpz_mul_2exp(c, c, k * n);
    mpq_set_den(out, c);
    mpq_canonicalize(out);
    mpz_clear(c);
}

/* Every order reached by k passes at n cards has the Bayer-Diaconis
   probability of its own rising sequences (inverse = 0) or of its
   inverse's (inverse = 1), and exactly the orders of positive
   probability are reached. */
static void check_against_formula(const sb_shuffle_type *t, int inverse)
{
    for (size_t n = 3; n <= 4; n++)
        for (unsigned k = 1; k <= 3; k++) {
            char passes[32];
            snprintf(passes, sizeof passes, "passes=%u", k);
            const char *params[] = { passes, NULL };
            sb_exact_report rep;
            walk(t, n, params, 0, &rep);
            /* One n-bit draw per pass: 2^(kn) paths, all equally likely. */
            assert_int_equal(rep.paths, (uint64_t)1 << (k * n));
            assert_true(rep.equal_weights);
            mpq_t want;
            mpq_init(want);
            for (size_t i = 0; i < rep.n_outcomes; i++) {
                const sb_card *d = rep.outcomes[i].sample;
                sb_card inv[4];
                invert(d, n, inv);
                bayer_diaconis(k, n, rising_sequences(inverse ? inv : d, n),
                               want);
                assert_fraction(rep.outcomes[i].fraction, want);
            }
            sb_card d[4] = { 0, 1, 2, 3 }, inv[4];
            size_t positive = 0;
            do {
                invert(d, n, inv);
                positive += rising_sequences(inverse ? inv : d, n) <= (1u << k);
            } while (next_permutation(d, n));
            assert_int_equal(rep.n_outcomes, positive);
            mpq_clear(want);
            sb_exact_report_release(&rep);
        }
}

static void riffle_follows_bayer_diaconis(void **state)
{
    (void)state;
    check_against_formula(&sb_shuffle_riffle, 0);
}

/* k inverse passes give pi with the probability k riffles give pi^-1. */
static void inverse_riffle_follows_bayer_diaconis_inverted(void **state)
{
    (void)state;
    check_against_formula(&sb_shuffle_inverse_riffle, 1);
}

/* One riffle leaves the deck as it was with probability (n+1)/2^n
   (Bayer & Diaconis 1992 with k = 1, r = 1): the n+1 strings 0..01..1. */
static void one_riffle_keeps_the_order_with_probability_n_plus_1(void **state)
{
    (void)state;
    const char *params[] = { "passes=1", NULL };
    mpq_t want;
    mpq_init(want);
    for (size_t n = 1; n <= 10; n++) {
        sb_exact_report rep;
        walk(&sb_shuffle_riffle, n, params, 0, &rep);
        for (size_t j = 0; j < n; j++)   /* lexicographically first */
            assert_int_equal(rep.outcomes[0].sample[j], j);
        mpq_set_ui(want, n + 1, 1ul << n);
        mpq_canonicalize(want);
        assert_fraction(rep.outcomes[0].fraction, want);
        sb_exact_report_release(&rep);
    }
    mpq_clear(want);
}

/* r = 1 - x. */
static void one_minus(mpq_t r, const mpq_t x)
{
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    mpq_sub(r, one, x);
    mpq_clear(one);
}

/* P(T > t) = 1 - (2^t)_n / 2^(tn), exactly. */
static void mass_left_after(unsigned t, size_t n, mpq_t out)
{
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    mpz_set_ui(num, 1);
    mpz_set_ui(den, 1);
    mpz_mul_2exp(den, den, t * n);
    for (size_t i = 0; i < n; i++) {
        mpz_t v;
        mpz_init_set_ui(v, 1);
        mpz_mul_2exp(v, v, t);
        if (mpz_cmp_ui(v, i) > 0)
            mpz_sub_ui(v, v, i);
        else
            mpz_set_ui(v, 0);
        mpz_mul(num, num, v);
        mpz_clear(v);
    }
    mpq_set_num(out, num);
    mpq_set_den(out, den);
    mpq_canonicalize(out);
    one_minus(out, out);
    mpz_clears(num, den, NULL);
}

/* Walked to depth D (one draw per riffle for n <= 64), the stopping rule
   gives every order the same mass, and leaves P(T > D) unexplored. */
static void until_uniform_is_exactly_uniform_on_the_mass_walked(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_riffle_until_uniform;
    const struct { size_t n, depth; } cases[] = {
        { 3, 0 },   /* the default: t->exact_depth */
        { 4, 4 },
    };
    mpq_t left, each, uniform;
    mpq_inits(left, each, uniform, NULL);
    for (size_t c = 0; c < 2; c++) {
        const size_t n = cases[c].n;
        const unsigned depth = (unsigned)(cases[c].depth ? cases[c].depth
                                                         : t->exact_depth);
        sb_exact_report rep;
        walk(t, n, NULL, cases[c].depth, &rep);
        assert_int_equal(rep.n_outcomes, n == 3 ? 6 : 24);
        for (size_t i = 1; i < rep.n_outcomes; i++)
            assert_string_equal(rep.outcomes[i].fraction,
                                rep.outcomes[0].fraction);
        assert_string_equal(rep.tv, "0/1");
        assert_int_equal(rep.verdict, SB_EXACT_INCONCLUSIVE);
        mass_left_after(depth, n, left);
        assert_fraction(rep.unexplored, left);
        /* And each order holds (1 - P(T > D)) / n!. */
        one_minus(each, left);
        mpq_set_ui(uniform, 1, n == 3 ? 6 : 24);
        mpq_mul(each, each, uniform);
        assert_fraction(rep.outcomes[0].fraction, each);
        sb_exact_report_release(&rep);
    }
    mpq_clears(left, each, uniform, NULL);
}

/* ---- the forward-order rule, computed independently ------------------- */

/* GSR riffle of 3 cards by the bits of s (bit i for position i). */
static void riffle3(unsigned s, const int *in, int *out)
{
    int zeros = 0;
    for (int i = 0; i < 3; i++)
        zeros += !((s >> i) & 1);
    int top = 0, bottom = zeros;
    for (int i = 0; i < 3; i++)
        out[i] = (s >> i) & 1 ? in[bottom++] : in[top++];
}

static int rank3(const int *d)
{
    int r = 0;
    for (int i = 0; i < 3; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 3; j++)
            smaller += d[j] < d[i];
        r = r * (3 - i) + smaller;
    }
    return r;
}

static void unrank3(int r, int *d)
{
    static const int perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
                                     { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
    memcpy(d, perms[r], sizeof perms[r]);
}

/* The law of riffle-until-uniform-forward at 3 cards, by following the
   essay's rule literally: labels are numbers, each inverse riffle adds
   its bit times 2^(riffles so far) to the label of the card at each
   position (a new most significant bit) and sorts the positions stably
   by that bit.  The state after each riffle is the forward deck and the
   label of each position of the inverse walk; labels are replaced by
   their ranks among the distinct labels, which keeps their order and
   their ties, all the rule looks at.  The mass that reaches distinct
   labels within 'riffles' riffles goes to law[rank of the deck]; the rest
   is returned.  With 'riffles' <= 9, every mass is a multiple of 2^-27
   and every sum below 1 is exact in a double. */
static double forward_rule_law(unsigned riffles, double law[6])
{
    /* mass[deck rank][label ranks as base-3 digits] */
    double mass[6][27] = { { 0 } }, next[6][27];
    mass[0][0] = 1.0;   /* the unshuffled deck, one label for all */
    memset(law, 0, 6 * sizeof *law);
    for (unsigned t = 0; t < riffles; t++) {
        memset(next, 0, sizeof next);
        for (int dr = 0; dr < 6; dr++)
            for (int code = 0; code < 27; code++) {
                if (mass[dr][code] == 0)
                    continue;
                int deck[3], label[3] = { code / 9, code / 3 % 3, code % 3 };
                unrank3(dr, deck);
                for (unsigned s = 0; s < 8; s++) {
                    int fwd[3], moved[3], k = 0;
                    riffle3(s, deck, fwd);
                    for (int bit = 0; bit <= 1; bit++)    /* stable */
                        for (int i = 0; i < 3; i++)
                            if ((int)((s >> i) & 1) == bit)
                                moved[k++] = label[i] + bit * 4;
                    int rank[3], distinct = 1;
                    for (int i = 0; i < 3; i++) {
                        rank[i] = 0;
                        for (int j = 0; j < 3; j++) {
                            int seen = 0;   /* count each smaller label once */
                            for (int m = 0; m < j; m++)
                                seen |= moved[m] == moved[j];
                            rank[i] += !seen && moved[j] < moved[i];
                        }
                        for (int j = 0; j < i; j++)
                            distinct &= moved[j] != moved[i];
                    }
                    const double p = mass[dr][code] / 8;
                    if (distinct)
                        law[rank3(fwd)] += p;
                    else
                        next[rank3(fwd)][rank[0] * 9 + rank[1] * 3 + rank[2]]
                            += p;
                }
            }
        memcpy(mass, next, sizeof mass);
    }
    double left = 0;
    for (int dr = 0; dr < 6; dr++)
        for (int code = 0; code < 27; code++)
            left += mass[dr][code];
    return left;
}

/* The forward-order check: exact mode proves it biased at 3 cards, its
   masses agree with the independent computation exactly, and its number
   of riffles has the same law as the correct rule's (the unexplored
   mass is P(T > D) again). */
static void until_uniform_forward_is_proven_biased(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_riffle_until_uniform_forward;
    const unsigned depth = (unsigned)t->exact_depth;
    assert_true(depth >= 1 && depth <= 9);
    sb_exact_report rep;
    walk(t, 3, NULL, 0, &rep);
    assert_int_equal(rep.verdict, SB_EXACT_BIASED);
    assert_true(rep.tv_d > 0);
    mpq_t left;
    mpq_init(left);
    mass_left_after(depth, 3, left);
    assert_fraction(rep.unexplored, left);
    mpq_clear(left);

    double law[6];
    const double rest = forward_rule_law(depth, law);
    assert_true(rest == rep.unexplored_d);
    assert_int_equal(rep.n_outcomes, 6);
    for (size_t i = 0; i < 6; i++) {
        int d[3] = { rep.outcomes[i].sample[0], rep.outcomes[i].sample[1],
                     rep.outcomes[i].sample[2] };
        assert_true(rep.outcomes[i].probability == law[rank3(d)]);
    }
    /* Some order already holds more than 1/6 in the mass walked: that is
       what makes the verdict a proof. */
    assert_true(rep.max_ratio > 1.0);

    /* The whole law, walked until less than 2^-200 is left (P(T > t) <
       3 / 2^t): ABC 11/72, ACB 29/144, BAC 29/144, BCA 25/144, CAB
       25/144, CBA 7/72, as the file's comment says; the walked masses
       sit below it by at most the unexplored mass. */
    double full[6];
    assert_true(forward_rule_law(210, full) < 1e-60);
    const double want[6] = { 11 / 72.0, 29 / 144.0, 29 / 144.0, 25 / 144.0,
                             25 / 144.0, 7 / 72.0 };
    for (size_t i = 0; i < 6; i++) {
        assert_close(full[i], want[i], 1e-12);
        assert_true(rep.outcomes[i].probability <= full[i] + 1e-15);
        assert_true(full[i] <= rep.outcomes[i].probability
                               + rep.unexplored_d + 1e-15);
    }
    sb_exact_report_release(&rep);
}

/* E[T] = sum over t >= 0 of P(T > t) and E[T^2] = sum of (2t + 1)
   P(T > t), with P(T > t) = 1 - prod_{i<n} (1 - i/2^t). */
static void passes_moments(size_t n, double *mean, double *var)
{
    double m = 0, m2 = 0;
    for (unsigned t = 0; t < 200; t++) {
        double p = 1;
        for (size_t i = 0; i < n; i++)
            p *= 1 - (double)i / ldexp(1, (int)t);
        m += 1 - p;
        m2 += (2.0 * t + 1) * (1 - p);
    }
    *mean = m;
    *var = m2 - m * m;
}

/* Sampled at 52 cards, the riffles tallied average E[T].  Each check
   fails with probability about 6e-5 (two-sided 4 sigma, normal
   approximation of a mean of 20,000 values) when the algorithm is right.
   The forward-order rule stops on a walk with the same law, so its mean
   is E[T] too: its flaw is in which deck it deals, not when. */
static void until_uniform_mean_passes(void **state)
{
    (void)state;
    double mean, var;
    passes_moments(52, &mean, &var);
    /* The essay: "the mean of approximately 11.7243 shuffles". */
    assert_true(fabs(mean - 11.7243) < 5e-5);
    const sb_shuffle_type *types[] = { &sb_shuffle_riffle_until_uniform,
                                       &sb_shuffle_riffle_until_uniform_forward };
    for (size_t k = 0; k < 2; k++) {
        enum { SAMPLES = 20000 };
        sb_run_config cfg = {
            .alg = types[k],
            .args = { .n = 52 },
            .samples = SAMPLES,
            .seed = 20240611 + k,
            .rng = SB_RNG_DEFAULT,
        };
        sb_report rep;
        char err[256];
        assert_int_equal(sb_run(&cfg, &rep, err, sizeof err), SB_OK);
        assert_string_equal(rep.run.tally_name, "passes");
        assert_int_equal(rep.run.tally.samples, SAMPLES);
        assert_true(rep.run.tally.max <= 160);
        const double se = sqrt(var / SAMPLES);
        assert_true(fabs(sb_tally_mean(&rep.run.tally) - mean) < 4 * se);
        sb_report_release(&rep);
    }
}

/* A source that answers every draw with 0. */
static uint64_t zero_below(sb_src *s, uint64_t n) { (void)s; (void)n; return 0; }
static uint64_t zero_bits(sb_src *s, unsigned k) { (void)s; (void)k; return 0; }
static size_t zero_weighted(sb_src *s, const uint64_t *w, size_t m)
{
    (void)s;
    (void)w;
    (void)m;
    return 0;
}
static double zero_unit(sb_src *s) { (void)s; return 0; }
static const sb_src_ops zero_ops = { zero_below, zero_bits, zero_weighted,
                                     zero_unit, NULL, NULL };

/* A broken source that gives only 0 bits never separates the labels (each
   riffle cuts nothing off and leaves the deck as it is): the rule stops at
   its cap of 160 riffles and deals the deck it has, twice over, with the
   tally kept across samples. */
static void stopping_rule_stops_at_its_cap(void **state)
{
    (void)state;
    const sb_shuffle_type *types[] = { &sb_shuffle_riffle_until_uniform,
                                       &sb_shuffle_riffle_until_uniform_forward };
    for (size_t k = 0; k < 2; k++) {
        const sb_shuffle_type *t = types[k];
        sb_shuffle_args a = { .n = 5 };
        void *st;
        assert_int_equal(t->init(&st, &a), SB_OK);
        sb_src src = { .ops = &zero_ops };
        sb_card out[5];
        for (int rep = 0; rep < 2; rep++) {
            if (t->reset)
                t->reset(st, &a);
            assert_int_equal(t->run(st, &a, &src, out), SB_OK);
            for (size_t j = 0; j < 5; j++)
                assert_int_equal(out[j], j);
        }
        sb_tally tally;
        t->tally(st, &tally);
        assert_int_equal(tally.samples, 2);
        assert_int_equal(tally.sum, 320);
        assert_int_equal(tally.max, 160);
        t->free(st);
    }
}

/* ---- human-packet ------------------------------------------------------ */

/* Only single-card packets and only the middle cut: one pass is a perfect
   shuffle of the two halves, chosen by which hand drops first.  The
   bottom card falls first, so if the top half's hand starts, the old top
   card ends up second from the top (an in-shuffle: position 2i holds
   card i + n/2, position 2i+1 card i); if the bottom half's hand starts,
   the top card stays on top (an out-shuffle: position 2i holds card i,
   2i+1 card i + n/2).  Each has probability 1/2 and nothing else is
   drawn. */
static void human_packet_single_cards_make_perfect_shuffles(void **state)
{
    (void)state;
    const char *params[] = { "passes=1", "cut-low2=0", "cut-low1=0",
                             "cut-high1=0", "cut-high2=0", "packet-1=1",
                             "packet-2=0", "packet-3=0", "packet-4=0",
                             "packet-5=0", "packet-6=0", "packet-7=0", NULL };
    const size_t sizes[] = { 2, 8, 52 };
    for (size_t s = 0; s < 3; s++) {
        const size_t n = sizes[s], h = n / 2;
        sb_card out_shuffle[52], in_shuffle[52];
        for (size_t i = 0; i < h; i++) {
            out_shuffle[2 * i] = (sb_card)i;
            out_shuffle[2 * i + 1] = (sb_card)(i + h);
            in_shuffle[2 * i] = (sb_card)(i + h);
            in_shuffle[2 * i + 1] = (sb_card)i;
        }
        sb_exact_report rep;
        walk(&sb_shuffle_human_packet, n, params, 0, &rep);
        assert_int_equal(rep.paths, 2);
        assert_int_equal(rep.n_outcomes, 2);
        /* Lexicographic: the out-shuffle starts with card 0. */
        assert_memory_equal(rep.outcomes[0].sample, out_shuffle,
                            n * sizeof *out_shuffle);
        assert_memory_equal(rep.outcomes[1].sample, in_shuffle,
                            n * sizeof *in_shuffle);
        assert_string_equal(rep.outcomes[0].fraction, "1/2");
        assert_string_equal(rep.outcomes[1].fraction, "1/2");
        sb_exact_report_release(&rep);
    }
}

/* One pass of any riffle keeps each half in order: at most two rising
   sequences, and when two, the top one is the cut (cards 0..c-1).  The
   cut lies within two steps of f = max(1, round(n/52)) cards of n/2:
   24..28 at 52 cards, 462..538 by 19 at 1000. */
static void human_packet_one_pass_is_a_riffle_near_the_middle(void **state)
{
    (void)state;
    const struct { size_t n, step; } cases[] = { { 52, 1 }, { 1000, 19 } };
    for (size_t c = 0; c < 2; c++) {
        const size_t n = cases[c].n;
        const sb_shuffle_type *t = &sb_shuffle_human_packet;
        sb_shuffle_args a = { .n = n };
        sb_shuffle_defaults(t, &a);
        assert_int_equal(sb_shuffle_set_param(t, &a, "passes=1"), SB_OK);
        void *st;
        assert_int_equal(t->init(&st, &a), SB_OK);
        sb_src src;
        sb_src_fast(&src, 7, 0);
        sb_card *d = malloc(n * sizeof *d);
        size_t *pos = malloc(n * sizeof *pos);
        unsigned seen[5] = { 0 };
        for (int k = 0; k < 500; k++) {
            assert_int_equal(t->run(st, &a, &src, d), SB_OK);
            for (size_t j = 0; j < n; j++)
                pos[d[j]] = j;
            size_t breaks = 0, cut = 0;
            for (size_t x = 0; x + 1 < n; x++)
                if (pos[x + 1] < pos[x]) {
                    breaks++;
                    cut = x + 1;
                }
            /* Alternating packets of at most 7 cards never leave a half
               whole on top, so there are always exactly two. */
            assert_int_equal(breaks, 1);
            const long off = (long)cut - (long)(n / 2);
            assert_true(off % (long)cases[c].step == 0);
            const long d_steps = off / (long)cases[c].step;
            assert_true(d_steps >= -2 && d_steps <= 2);
            seen[d_steps + 2]++;
        }
        /* Each cut has weight at least 1/16: missing one in 500 passes has
           probability below 5 * (15/16)^500 < 1e-13. */
        for (size_t i = 0; i < 5; i++)
            assert_true(seen[i] > 0);
        free(d);
        free(pos);
        t->free(st);
    }
}

/* One human riffle of 3 cards, derived by hand from the model in
   algorithms/human_packet.c.  The cut is floor(3/2) + d for d = -2..2,
   clamped to 1..2: 1 card on top with weight 1 + 4 + 6 = 11 of 16, 2 with
   4 + 1 = 5.  Which hand drops first is a fair coin; a hand of two drops
   one card (weight 40) or both (27 + 15 + 9 + 5 + 3 + 1 = 60), and the
   pile is built from the bottom up.
   Cut 1 (A | BC): A first, then BC on it: BCA (1/2).  BC's hand first:
   C alone (2/5), then A, then B: BAC; or BC together (3/5), then A on
   top: ABC.  So BCA 1/2, BAC 1/5, ABC 3/10.
   Cut 2 (AB | C): AB's hand first: B alone (2/5), then C, then A: ACB; or
   AB together (3/5), then C: CAB.  C first, then AB on it: ABC (1/2).  So
   ACB 1/5, CAB 3/10, ABC 1/2.
   Altogether ABC 11/16 x 3/10 + 5/16 x 1/2 = 29/80, ACB 5/16 x 1/5 = 1/16,
   BAC 11/16 x 1/5 = 11/80, BCA 11/32, CAB 5/16 x 3/10 = 3/32, and CBA never
   (a riffle of two packets reverses nothing). */
static void human_packet_one_pass_of_three_cards(void **state)
{
    (void)state;
    const char *params[] = { "passes=1", NULL };
    sb_exact_report rep;
    walk(&sb_shuffle_human_packet, 3, params, 0, &rep);
    const char *want[5][2] = { { "ABC", "29/80" }, { "ACB", "1/16" },
                               { "BAC", "11/80" }, { "BCA", "11/32" },
                               { "CAB", "3/32" } };
    assert_int_equal(rep.n_outcomes, 5);
    for (size_t i = 0; i < 5; i++) {
        const sb_card *d = rep.outcomes[i].sample;
        char order[4] = { (char)('A' + d[0]), (char)('A' + d[1]),
                          (char)('A' + d[2]), '\0' };
        assert_string_equal(order, want[i][0]);
        assert_string_equal(rep.outcomes[i].fraction, want[i][1]);
    }
    assert_int_equal(rep.verdict, SB_EXACT_BIASED);
    sb_exact_report_release(&rep);
}

static void human_packet_rejects_impossible_weights(void **state)
{
    (void)state;
    const sb_shuffle_type *t = &sb_shuffle_human_packet;
    sb_shuffle_args a = { .n = 52 };
    char why[256];
    sb_shuffle_defaults(t, &a);
    assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_OK);

    const char *no_cut[] = { "cut-low2=0", "cut-low1=0", "cut-mid=0",
                             "cut-high1=0", "cut-high2=0" };
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(sb_shuffle_set_param(t, &a, no_cut[i]), SB_OK);
    assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_EINVAL);
    assert_non_null(strstr(why, "cut"));

    sb_shuffle_defaults(t, &a);
    for (int s = 1; s <= 7; s++) {
        char p[32];
        snprintf(p, sizeof p, "packet-%d=0", s);
        assert_int_equal(sb_shuffle_set_param(t, &a, p), SB_OK);
    }
    assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_EINVAL);
    assert_non_null(strstr(why, "packet"));

    /* Negative weights: refused on the command line, and by the check
       when set by hand. */
    sb_shuffle_defaults(t, &a);
    assert_int_equal(sb_shuffle_set_param(t, &a, "packet-3=-1"), SB_ERANGE);
    assert_int_equal(sb_shuffle_set_param(t, &a, "cut-mid=-6"), SB_ERANGE);
    for (size_t i = 1; i < t->n_params; i++) {
        sb_shuffle_defaults(t, &a);
        a.param[i] = -1;
        assert_int_equal(sb_shuffle_check(t, &a, why, sizeof why), SB_EINVAL);
        assert_non_null(strstr(why, t->params[i].name));
    }
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(riffle_follows_bayer_diaconis),
        cmocka_unit_test(inverse_riffle_follows_bayer_diaconis_inverted),
        cmocka_unit_test(one_riffle_keeps_the_order_with_probability_n_plus_1),
        cmocka_unit_test(until_uniform_is_exactly_uniform_on_the_mass_walked),
        cmocka_unit_test(until_uniform_forward_is_proven_biased),
        cmocka_unit_test(until_uniform_mean_passes),
        cmocka_unit_test(stopping_rule_stops_at_its_cap),
        cmocka_unit_test(human_packet_single_cards_make_perfect_shuffles),
        cmocka_unit_test(human_packet_one_pass_is_a_riffle_near_the_middle),
        cmocka_unit_test(human_packet_one_pass_of_three_cards),
        cmocka_unit_test(human_packet_rejects_impossible_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
