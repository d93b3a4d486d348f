/*
 * test_input.c - the deck reader: every format and kind read back to the
 * decks that were written, every kind of bad sample reported where it is
 * and not counted, and reading through a real pipe.
 *
 * The expected samples are made here, with the tests' own generator
 * (tests/sb_sample.h), and written out in each format by code of this
 * file; the expected messages are built from the wording input.c
 * documents.  Card names are checked against the numbering of
 * stats/cards.h (card = suit * 13 + rank; 2C = 0, AC = 12, 2D = 13,
 * AS = 51).
 */
#define _POSIX_C_SOURCE 200809L

#include "tests/sb_test.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/input_check.h"
#include "shufflebias/status.h"
#include "sources/input.h"
#include "tests/sb_sample.h"

/* ---- writing inputs ------------------------------------------------- */

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put_bytes(text *t, const void *p, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n + 1)
            cap *= 2;
        t->s = realloc(t->s, cap);
        assert_non_null(t->s);
        t->cap = cap;
    }
    memcpy(t->s + t->len, p, n);
    t->len += n;
    t->s[t->len] = '\0';
}

__attribute__((format(printf, 2, 3)))
static void put(text *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    assert_true(k >= 0 && (size_t)k < sizeof buf);
    put_bytes(t, buf, (size_t)k);
}

static void put_u16(text *t, unsigned v)
{
    const unsigned char b[2] = { (unsigned char)(v & 0xFFu),
                                 (unsigned char)(v >> 8) };
    put_bytes(t, b, 2);
}

/* A random deal of n cards into H hands: hand[c] for every card, each
   hand n / H cards; 'order' receives the cards hand by hand. */
static void random_deal(sb_card *hand, sb_card *order, size_t n, unsigned H,
                        uint64_t *s)
{
    xs_deck(s, order, n);
    for (size_t j = 0; j < n; j++)
        hand[order[j]] = (sb_card)(j / (n / H));
}

/* ---- reading --------------------------------------------------------- */

static sb_input *open_mem(const sb_input_spec *spec, const text *t)
{
    sb_input *in = NULL;
    char err[256] = "";
    int rc = sb_input_open_mem(&in, spec, t->s ? t->s : "", t->len, err,
                               sizeof err);
    if (rc != SB_OK)
        print_error("open: %s\n", err);
    assert_int_equal(rc, SB_OK);
    return in;
}

/* Read until an error or the end, 'ask' samples at a time, into 'out'
   (room for 'cap' samples of 'len' values); the last status. */
static int read_all(sb_input *in, sb_card *out, size_t len, size_t cap,
                    size_t ask, size_t *total)
{
    *total = 0;
    for (;;) {
        const size_t want = ask < cap - *total ? ask : cap - *total;
        size_t got = SIZE_MAX;
        const int rc = sb_input_read(in, out + *total * len, want, &got);
        assert_true(got <= want);
        *total += got;
        if (rc != SB_OK || got < want || want == 0)
            return rc;
    }
}

/* 'in' holds exactly the N samples 'expected': read in pieces of every
   size in 'asks', and the reader at its end. */
static void assert_reads(const sb_input_spec *spec, const text *t,
                         const sb_card *expected, size_t N)
{
    static const size_t asks[] = { 1, 7, 64, 100000 };
    const size_t len = spec->shape.len ? spec->shape.len : spec->shape.n;
    sb_card *out = malloc((N + 1) * len * sizeof *out);
    assert_non_null(out);
    for (size_t a = 0; a < sizeof asks / sizeof *asks; a++) {
        sb_input *in = open_mem(spec, t);
        size_t got;
        const int rc = read_all(in, out, len, N + 1, asks[a], &got);
        if (rc != SB_OK)
            print_error("%s\n", sb_input_error(in));
        assert_int_equal(rc, SB_OK);
        assert_int_equal(got, N);
        if (N)
            assert_memory_equal(out, expected, N * len * sizeof *out);
        assert_true(sb_input_eof(in));
        assert_int_equal(sb_input_samples_seen(in), N);
        assert_int_equal(sb_input_invalid(in), 0);
        assert_string_equal(sb_input_error(in), "");
        sb_input_close(in);
    }
    free(out);
}

/* ---- every format and kind read back ------------------------------- */

/* Text decks with every separator (spaces, commas, tabs, runs of them),
   comments, blank lines, CRLF and a last line without its line feed,
   0-based and 1-based. */
static void text_permutations_read_back(void **state)
{
    (void)state;
    static const char *const seps[] = { " ", ",", "\t", " , ", "  \t" };
    const size_t n = 52, N = 300;
    sb_card *expected = malloc(N * n * sizeof *expected);
    assert_non_null(expected);
    for (unsigned ob = 0; ob < 2; ob++) {
        uint64_t s = 11 + ob;
        text t = { 0 };
        for (size_t d = 0; d < N; d++) {
            sb_card *deck = expected + d * n;
            xs_deck(&s, deck, n);
            if (d % 7 == 0)
                put(&t, "# deck %zu follows\n\n  \t \n", d);
            for (size_t i = 0; i < n; i++)
                put(&t, "%s%u", i ? seps[(d + i) % 5] : d % 3 ? "" : "  ",
                    deck[i] + ob);
            put(&t, "%s", d % 4 == 1 ? " # end" : d % 4 == 2 ? "  " : "");
            if (d + 1 < N)
                put(&t, "%s", d % 5 == 0 ? "\r\n" : "\n");
        }
        const sb_input_spec spec = {
            .format = SB_FORMAT_TEXT,
            .shape = { .kind = SB_KIND_PERMUTATION, .n = n },
            .one_based = (int)ob,
        };
        assert_reads(&spec, &t, expected, N);
        free(t.s);
    }
    free(expected);
}

/* The spellings of each rank and suit, in the order of stats/cards.h. */
static const char *const rank_spellings[13][3] = {
    { "2" }, { "3" }, { "4" }, { "5" }, { "6" }, { "7" }, { "8" }, { "9" },
    { "10", "T", "t" }, { "J", "j" }, { "Q", "q" }, { "K", "k" },
    { "A", "a" }
};
static const char *const suit_spellings[4][4] = {
    { "C", "c", "\xE2\x99\xA3", "\xE2\x99\xA7" },   /* clubs */
    { "D", "d", "\xE2\x99\xA6", "\xE2\x99\xA2" },   /* diamonds */
    { "H", "h", "\xE2\x99\xA5", "\xE2\x99\xA1" },   /* hearts */
    { "S", "s", "\xE2\x99\xA0", "\xE2\x99\xA4" },   /* spades */
};

static void put_card(text *t, unsigned card, uint64_t *s)
{
    const char *const *r = rank_spellings[card % 13];
    const char *const *u = suit_spellings[card / 13];
    size_t nr = 1;
    while (nr < 3 && r[nr])
        nr++;
    put(t, "%s%s", r[xs_below(s, nr)], u[xs_below(s, 4)]);
}

/* The numbering documented in stats/cards.h, then random decks written
   with every spelling of every rank and suit. */
static void cards_read_back(void **state)
{
    (void)state;
    text anchors = { 0 };
    put(&anchors, "2C AC 2D AS\n10D 9H jS qd\nTD \xE2\x99\xA0 x\n");
    /* stats/cards.h: card = suit * 13 + rank, ranks 2..A = 0..12, suits
       clubs, diamonds, hearts, spades; so 10D = 13 + 8, 9H = 26 + 7,
       JS = 39 + 9, QD = 13 + 10. */
    const sb_card want_anchors[] = { 0, 12, 13, 51, 21, 33, 48, 23 };
    sb_input_spec spec = {
        .format = SB_FORMAT_CARDS,
        .shape = { .kind = SB_KIND_DRAW, .n = 52, .len = 4 },
    };
    sb_card out[12];
    sb_input *in = open_mem(&spec, &anchors);
    size_t got;
    assert_int_equal(sb_input_read(in, out, 3, &got), SB_EINVAL);
    assert_int_equal(got, 2);
    assert_memory_equal(out, want_anchors, sizeof want_anchors);
    /* A suit symbol alone is no card. */
    assert_string_equal(sb_input_error(in), "line 3 (sample 3): unknown card "
                        "name '\xE2\x99\xA0'");
    sb_input_close(in);

    const size_t n = 52, N = 200;
    sb_card *expected = malloc(N * n * sizeof *expected);
    assert_non_null(expected);
    uint64_t s = 5;
    text t = { 0 };
    for (size_t d = 0; d < N; d++) {
        xs_deck(&s, expected + d * n, n);
        for (size_t i = 0; i < n; i++) {
            if (i)
                put(&t, "%s", d % 2 ? " " : ", ");
            put_card(&t, expected[d * n + i], &s);
        }
        put(&t, "\n");
    }
    spec.shape = (sb_shape){ .kind = SB_KIND_PERMUTATION, .n = n };
    assert_reads(&spec, &t, expected, N);
    free(t.s);

    /* A deck of one suit: the clubs, 2C..AC = 0..12. */
    text clubs = { 0 };
    put(&clubs, "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C\n");
    const sb_card want_clubs[13] = { 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                                     0 };
    spec.shape.n = 13;
    assert_reads(&spec, &clubs, want_clubs, 1);
    free(clubs.s);
    free(anchors.s);
    free(expected);
}

/* u8 and u16 records, 0- and 1-based; u16 little-endian above 256 cards. */
static void binary_permutations_read_back(void **state)
{
    (void)state;
    const size_t sizes[2] = { 52, 300 };
    const size_t counts[2] = { 200, 40 };
    for (unsigned wide = 0; wide < 2; wide++)
        for (unsigned ob = 0; ob < 2; ob++) {
            const size_t n = sizes[wide], N = counts[wide];
            sb_card *expected = malloc(N * n * sizeof *expected);
            assert_non_null(expected);
            uint64_t s = 100 + 2 * wide + ob;
            text t = { 0 };
            for (size_t d = 0; d < N; d++) {
                xs_deck(&s, expected + d * n, n);
                for (size_t i = 0; i < n; i++) {
                    const unsigned v = expected[d * n + i] + ob;
                    if (wide) {
                        put_u16(&t, v);
                    } else {
                        const unsigned char b = (unsigned char)v;
                        put_bytes(&t, &b, 1);
                    }
                }
            }
            const sb_input_spec spec = {
                .format = wide ? SB_FORMAT_U16 : SB_FORMAT_U8,
                .shape = { .kind = SB_KIND_PERMUTATION, .n = n },
                .one_based = (int)ob,
            };
            assert_reads(&spec, &t, expected, N);
            free(t.s);
            free(expected);
        }
}

/* Draws: len given, or inferred from the first sample line (which is
   still returned), in every format. */
static void draws_read_back(void **state)
{
    (void)state;
    const size_t n = 20, k = 5, N = 50;
    sb_card *expected = malloc(N * k * sizeof *expected);
    assert_non_null(expected);
    sb_card deck[20];
    uint64_t s = 9;
    text t = { 0 }, c = { 0 }, b = { 0 }, w = { 0 };
    put(&t, "# five cards of twenty\n\n");
    for (size_t d = 0; d < N; d++) {
        xs_deck(&s, deck, n);
        memcpy(expected + d * k, deck, k * sizeof *deck);
        for (size_t i = 0; i < k; i++) {
            put(&t, i ? ",%u" : "%u", deck[i]);
            if (i)
                put(&c, " ");
            put_card(&c, deck[i], &s);
            const unsigned char byte = (unsigned char)deck[i];
            put_bytes(&b, &byte, 1);
            put_u16(&w, deck[i]);
        }
        put(&t, "\n");
        put(&c, "\n");
    }
    for (size_t given = 0; given < 2; given++) {
        sb_input_spec spec = {
            .format = SB_FORMAT_TEXT,
            .shape = { .kind = SB_KIND_DRAW, .n = n, .len = given ? k : 0 },
        };
        sb_input *in = open_mem(&spec, &t);
        sb_shape shape;
        assert_int_equal(sb_input_shape(in, &shape), SB_OK);
        assert_int_equal(shape.kind, SB_KIND_DRAW);
        assert_int_equal(shape.n, n);
        assert_int_equal(shape.len, k);
        sb_card out[(50 + 1) * 5];
        size_t got;
        assert_int_equal(read_all(in, out, k, N + 1, 64, &got), SB_OK);
        assert_int_equal(got, N);
        assert_memory_equal(out, expected, N * k * sizeof *out);
        sb_input_close(in);
        spec.shape.len = k;
        assert_reads(&spec, &t, expected, N);
        spec.format = SB_FORMAT_CARDS;
        assert_reads(&spec, &c, expected, N);
    }
    sb_input_spec spec = {
        .format = SB_FORMAT_U8,
        .shape = { .kind = SB_KIND_DRAW, .n = n, .len = k },
    };
    assert_reads(&spec, &b, expected, N);
    spec.format = SB_FORMAT_U16;
    assert_reads(&spec, &w, expected, N);
    /* Inferred in card names: the line of 3 sets k = 3. */
    text three = { 0 };
    put(&three, "\n# hands of three\nAS KS QS\n2c 3c 4c\n");
    const sb_card want3[6] = { 51, 50, 49, 0, 1, 2 };
    spec = (sb_input_spec){
        .format = SB_FORMAT_CARDS,
        .shape = { .kind = SB_KIND_DRAW, .n = 52 },
    };
    sb_input *in = open_mem(&spec, &three);
    sb_card out[9];
    size_t got;
    /* No sb_input_shape first: read settles the length itself. */
    assert_int_equal(read_all(in, out, 3, 3, 64, &got), SB_OK);
    assert_int_equal(got, 2);
    assert_memory_equal(out, want3, sizeof want3);
    sb_input_close(in);
    free(three.s);
    free(t.s);
    free(c.s);
    free(b.s);
    free(w.s);
    free(expected);
}

/* Deals by hand numbers (text, u8, u16) and by lists separated by '|'
   (card numbers in text, names in cards), 0- and 1-based. */
static void deals_read_back(void **state)
{
    (void)state;
    const size_t n = 52, N = 100;
    const unsigned H = 4;
    sb_card *expected = malloc(N * n * sizeof *expected);
    sb_card order[52];
    assert_non_null(expected);
    for (unsigned ob = 0; ob < 2; ob++) {
        uint64_t s = 21 + ob;
        text hands = { 0 }, lists = { 0 }, mixed = { 0 }, names = { 0 },
             b = { 0 }, w = { 0 };
        for (size_t d = 0; d < N; d++) {
            sb_card *deal = expected + d * n;
            random_deal(deal, order, n, H, &s);
            for (size_t c = 0; c < n; c++) {
                put(&hands, c ? " %u" : "%u", deal[c] + ob);
                const unsigned char byte = (unsigned char)(deal[c] + ob);
                put_bytes(&b, &byte, 1);
                put_u16(&w, deal[c] + ob);
            }
            put(&hands, d % 3 ? "\n" : " # hands | by card\n");
            for (size_t j = 0; j < n; j++) {
                const char *sep = j == 0 ? "" : j % 13 == 0 ? " | " : " ";
                put(&lists, "%s%u", sep, order[j] + ob);
                put(&names, "%s", j == 0 ? "" : j % 13 == 0 ? "|" : ",");
                put_card(&names, order[j], &s);
            }
            put(&lists, "\n");
            put(&names, "\n");
            /* Both forms in one input, line by line. */
            const text *from = d % 2 ? &lists : &hands;
            const char *end = from->s + from->len - 1, *start = end;
            while (start > from->s && start[-1] != '\n')
                start--;
            put_bytes(&mixed, start, (size_t)(end - start) + 1);
        }
        sb_input_spec spec = {
            .format = SB_FORMAT_TEXT,
            .shape = { .kind = SB_KIND_DEAL, .n = n, .hands = H },
            .one_based = (int)ob,
        };
        assert_reads(&spec, &hands, expected, N);
        assert_reads(&spec, &lists, expected, N);
        assert_reads(&spec, &mixed, expected, N);
        spec.format = SB_FORMAT_U8;
        assert_reads(&spec, &b, expected, N);
        spec.format = SB_FORMAT_U16;
        assert_reads(&spec, &w, expected, N);
        if (!ob) {
            spec.format = SB_FORMAT_CARDS;
            assert_reads(&spec, &names, expected, N);
        }
        free(hands.s);
        free(lists.s);
        free(mixed.s);
        free(names.s);
        free(b.s);
        free(w.s);
    }
    free(expected);
}

/* Inputs without a sample: nothing read, and the end reached. */
static void empty_inputs_end_at_once(void **state)
{
    (void)state;
    static const char *const inputs[] = { "", "\n", "# only a comment\n\n  \t\r\n",
                                          "   # no newline" };
    for (size_t f = 0; f < 2; f++)
        for (size_t i = 0; i < 4; i++) {
            text t = { 0 };
            put(&t, "%s", inputs[i]);
            const sb_input_spec spec = {
                .format = (sb_format)f,
                .shape = { .kind = SB_KIND_PERMUTATION, .n = 4 },
            };
            assert_reads(&spec, &t, NULL, 0);
            free(t.s);
        }
    const text none = { 0 };
    const sb_input_spec spec = {
        .format = SB_FORMAT_U16,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 4 },
    };
    assert_reads(&spec, &none, NULL, 0);
}

/* ---- bad samples ------------------------------------------------------ */

typedef struct bad_case {
    sb_format format;
    sb_kind kind;
    size_t n, len;
    unsigned hands;
    int one_based;
    const char *input;
    size_t size;          /* bytes of 'input'; 0: strlen */
    size_t good;          /* valid samples before the bad one */
    const char *message;
} bad_case;

#define PERM(f, n) (f), SB_KIND_PERMUTATION, (n), 0, 0
#define DEAL(f, n, h) (f), SB_KIND_DEAL, (n), 0, (h)
#define TEXT SB_FORMAT_TEXT
#define CARDS SB_FORMAT_CARDS

static const bad_case bad_cases[] = {
    /* lengths; blank and comment lines count as lines, not samples */
    { PERM(TEXT, 8), 0, "0 1 2 3 4 5 6 7\n# note\n\n0 1 2 3 4 5 6\n", 0, 1,
      "line 4 (sample 2): 8 cards expected, 7 found" },
    /* ... and when no sample before it was valid, the size that would
       take it */
    { PERM(TEXT, 8), 0, "0 1 2 3 4 5 6 7 0\n", 0, 0,
      "line 1 (sample 1): 8 cards expected, 9 found; the sample has 9 "
      "values: is --n 9 meant?" },
    { SB_FORMAT_TEXT, SB_KIND_DRAW, 8, 3, 0, 0, "0 1 2\r\n3 4\r\n", 0, 1,
      "line 2 (sample 2): 3 cards expected, 2 found" },
    /* ranges */
    { PERM(TEXT, 8), 0, "7 6 5 4 3 2 1 8\n", 0, 0,
      "line 1 (sample 1): card 8 is out of range 0..7; numbers from 1? use --one-based" },
    { PERM(TEXT, 8), 1, "1 2 3 4 5 6 7 8\n0 1 2 3 4 5 6 7\n", 0, 1,
      "line 2 (sample 2): card 0 is out of range 1..8; numbers from 0? "
      "drop --one-based" },
    { PERM(TEXT, 8), 1, "1 2 3 4 5 6 7 9\n", 0, 0,
      "line 1 (sample 1): card 9 is out of range 1..8" },
    /* numbers too large for any type: never read modulo a power of two
       (2^32 + 5 and 2^64 would otherwise be cards 5 and 0) */
    { PERM(TEXT, 8), 0, "0 1 2 3 4 99999999999 6 7\n", 0, 0,
      "line 1 (sample 1): card 99999999999 is out of range 0..7" },
    { PERM(TEXT, 8), 0, "0 1 2 3 4 4294967301 6 7\n", 0, 0,
      "line 1 (sample 1): card 4294967301 is out of range 0..7" },
    { PERM(TEXT, 8), 0, "18446744073709551616 1 2 3 4 5 6 7\n", 0, 0,
      "line 1 (sample 1): card 18446744073709551616 is out of range 0..7" },
    { PERM(TEXT, 8), 1, "4294967297 2 3 4 5 6 7 8\n", 0, 0,
      "line 1 (sample 1): card 4294967297 is out of range 1..8" },
    /* repeats */
    { PERM(TEXT, 8), 0, "0 1 2 3 4 5 6 7\n0 1 2 3 4 5 6 3\n", 0, 1,
      "line 2 (sample 2): card 3 appears twice" },
    { PERM(TEXT, 8), 0, "0 1 2 3 4 5 6 7\n7 0 1 2 3 4 5 007\n", 0, 1,
      "line 2 (sample 2): card 007 appears twice" },
    /* syntax */
    { PERM(TEXT, 8), 0, "0 1,,2 3 4 5 6 7\n", 0, 0,
      "line 1 (sample 1): an empty field (a comma with no value before or "
      "after it)" },
    { PERM(TEXT, 8), 0, " ,0 1 2 3 4 5 6 7\n", 0, 0,
      "line 1 (sample 1): an empty field (a comma with no value before or "
      "after it)" },
    { PERM(TEXT, 8), 0, "0 1 2 3 4 5 6 7 , # c\n", 0, 0,
      "line 1 (sample 1): an empty field (a comma with no value before or "
      "after it)" },
    { PERM(TEXT, 8), 0, "0 1 2 3 x1 5 6 7\n", 0, 0,
      "line 1 (sample 1): 'x1' is not a card number" },
    { PERM(TEXT, 8), 0, "0 1 2 3 -4 5 6 7\n", 0, 0,
      "line 1 (sample 1): '-4' is not a card number" },
    { PERM(TEXT, 8), 0, "0 1 2 3 4.0 5 6 7\n", 0, 0,
      "line 1 (sample 1): '4.0' is not a card number" },
    { PERM(TEXT, 8), 0, "0 1 2 3 4\v 5 6 7\n", 0, 0,
      "line 1 (sample 1): '4\\x0B' is not a card number" },
    { PERM(TEXT, 8), 0, "0 1 2 3 | 4 5 6 7\n", 0, 0,
      "line 1 (sample 1): unexpected '|' (only the hands of a deal are "
      "separated by '|')" },
    /* card names */
    { PERM(CARDS, 8), 0, "2C 3C 4C 5C 6C 7C 8C ZZ\n", 0, 0,
      "line 1 (sample 1): unknown card name 'ZZ'" },
    { PERM(CARDS, 8), 0, "2C 3C 4C 5C 6C 7C 8C 1C\n", 0, 0,
      "line 1 (sample 1): unknown card name '1C'" },
    { PERM(CARDS, 8), 0, "2C 3C 4C 5C 6C 7C 8C 9CC\n", 0, 0,
      "line 1 (sample 1): unknown card name '9CC'" },
    { PERM(CARDS, 8), 0, "2C 3C 4C 5C 6C 7C 8C 9D\n", 0, 0,
      "line 1 (sample 1): card 9D is out of range 2C..9C" },
    { PERM(CARDS, 8), 0, "2C 3C 4C 5C 6C 7C 8C 9C\n2C 3C 4C 5C 6C 7C 8C\n", 0,
      1, "line 2 (sample 2): 8 cards expected, 7 found" },
    { PERM(CARDS, 8), 0, "2C 3C 4C 5C 6C 7C 8C 9C AS\n", 0, 0,
      "line 1 (sample 1): 8 cards expected, 9 found; the sample has 9 "
      "values: is --n 9 meant?" },
    { PERM(CARDS, 8), 0, "2C 3C 4C 5C 6C 7C 8C 7\n", 0, 0,
      "line 1 (sample 1): '7' is a number; the cards format reads card "
      "names such as AS or 10D" },
    { PERM(CARDS, 8), 0, "9c 8c 7c 6c 5c 4c 3c 2c\n2C 3C 4C 5C 6C 7c 8C 7C\n",
      0, 1, "line 2 (sample 2): card 7C appears twice" },
    /* deals */
    { DEAL(TEXT, 8, 2), 0, "0 0 0 1 1 1 1 1\n", 0, 0,
      "line 1 (sample 1): hand 0 holds 3 cards, 4 expected" },
    { DEAL(TEXT, 8, 2), 0, "0 0 0 0 1 1 1 2\n", 0, 0,
      "line 1 (sample 1): hand 2 is out of range 0..1; hands from 1? use "
      "--one-based" },
    { DEAL(TEXT, 8, 2), 1, "1 1 1 1 2 2 2 3\n", 0, 0,
      "line 1 (sample 1): hand 3 is out of range 1..2" },
    { DEAL(TEXT, 8, 2), 0, "0 0 0 0 1 1 1\n", 0, 0,
      "line 1 (sample 1): 8 values expected (the hand of each card), 7 "
      "found; the sample has 7 values: is --n 7 meant?" },
    { DEAL(TEXT, 8, 2), 0, "0 1 2 | 3 4 5 6 7\n", 0, 0,
      "line 1 (sample 1): hand 0 holds 3 cards, 4 expected" },
    { DEAL(TEXT, 8, 2), 1, "1 2 3 4 5 | 6 7 8\n", 0, 0,
      "line 1 (sample 1): hand 1 holds 5 cards, 4 expected" },
    { DEAL(TEXT, 8, 2), 0, "0 1 | 2 3 | 4 5 6 7\n", 0, 0,
      "line 1 (sample 1): 2 hands expected, 3 found" },
    { DEAL(TEXT, 8, 2), 0, "0 1 2 3 |\n", 0, 0,
      "line 1 (sample 1): hand 1 holds 0 cards, 4 expected" },
    { DEAL(TEXT, 8, 2), 0, "0 1 2 3 | 4 5 6 8\n", 0, 0,
      "line 1 (sample 1): card 8 is out of range 0..7; numbers from 1? use --one-based" },
    { DEAL(TEXT, 8, 2), 0, "0 1 2 3 | 4 5 6 3\n", 0, 0,
      "line 1 (sample 1): card 3 appears twice" },
    { DEAL(TEXT, 8, 2), 0, "0 1 2 3 ,| 4 5 6 7\n", 0, 0,
      "line 1 (sample 1): an empty field (a comma with no value before or "
      "after it)" },
    { DEAL(CARDS, 8, 2), 0, "2C 3C 4C 5C 6C 7C 8C 9C\n", 0, 0,
      "line 1 (sample 1): 2 hands separated by '|' expected, 1 found" },
    { DEAL(CARDS, 8, 2), 0, "2C 3C 4C 5C | 6C 7C 8C 0\n", 0, 0,
      "line 1 (sample 1): '0' is a number; the cards format reads card "
      "names such as AS or 10D" },
    /* binary: the byte of the offending value, counted from 0 */
    { PERM(SB_FORMAT_U8, 8), 0, "\0\1\2\3\4\5\6\7\0\1\2\3\4\5\6\10", 16, 1,
      "sample 2 (byte 15): card 8 is out of range 0..7; numbers from 1? use --one-based" },
    { PERM(SB_FORMAT_U8, 8), 1, "\1\2\3\4\5\6\7\10\0\1\2\3\4\5\6\7", 16, 1,
      "sample 2 (byte 8): card 0 is out of range 1..8; numbers from 0? drop "
      "--one-based" },
    { PERM(SB_FORMAT_U16, 4), 0, "\0\0\1\0\2\0\1\0", 8, 0,
      "sample 1 (byte 6): card 1 appears twice" },
    { PERM(SB_FORMAT_U16, 4), 0, "\0\0\1\0\2\0\3\1", 8, 0,
      "sample 1 (byte 6): card 259 is out of range 0..3" },
    { PERM(SB_FORMAT_U8, 8), 0, "\0\1\2\3\4\5\6\7\7\6\5\4\3\2\1\0\0\1\2\3\4",
      21, 2, "sample 3 (byte 16): the input ends inside this sample: 5 of 8 "
      "bytes" },
    { PERM(SB_FORMAT_U16, 2), 0, "\0\0\1\0\1\0\0", 7, 1,
      "sample 2 (byte 4): the input ends inside this sample: 3 of 4 bytes" },
    { DEAL(SB_FORMAT_U8, 8, 2), 0, "\0\0\0\1\1\1\1\1", 8, 0,
      "sample 1 (byte 0): hand 0 holds 3 cards, 4 expected" },
    { DEAL(SB_FORMAT_U8, 8, 2), 0, "\0\0\0\0\1\1\1\2", 8, 0,
      "sample 1 (byte 7): hand 2 is out of range 0..1; hands from 1? use "
      "--one-based" },
};

static sb_input_spec bad_case_spec(const bad_case *c)
{
    return (sb_input_spec){
        .format = c->format,
        .shape = { .kind = c->kind, .n = c->n, .len = c->len,
                   .hands = c->hands },
        .one_based = c->one_based,
    };
}

/* Each bad sample ends the reading with its message, after the valid
   samples before it; the error stays. */
static void bad_samples_are_reported(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
        const bad_case *c = &bad_cases[i];
        const sb_input_spec spec = bad_case_spec(c);
        text t = { 0 };
        put_bytes(&t, c->input, c->size ? c->size : strlen(c->input));
        sb_input *in = open_mem(&spec, &t);
        sb_card out[64];
        size_t got;
        const int rc = read_all(in, out, c->len ? c->len : c->n, 4, 4, &got);
        if (rc != SB_EINVAL || strcmp(sb_input_error(in), c->message) != 0)
            print_error("case %zu: status %d, '%s'\n", i, rc,
                        sb_input_error(in));
        assert_int_equal(rc, SB_EINVAL);
        assert_string_equal(sb_input_error(in), c->message);
        assert_int_equal(got, c->good);
        assert_int_equal(sb_input_samples_seen(in), c->good + 1);
        assert_int_equal(sb_input_invalid(in), 0);
        assert_false(sb_input_eof(in));
        size_t again = 99;
        assert_int_equal(sb_input_read(in, out, 4, &again), SB_EINVAL);
        assert_int_equal(again, 0);
        sb_input_close(in);
        free(t.s);
    }
}

/* Moving one card from hand 3 to hand 2 of a bridge deal: the first
   hand that is wrong is named, with its count. */
static void a_wrong_hand_count_is_named(void **state)
{
    (void)state;
    text t = { 0 };
    for (unsigned c = 0; c < 52; c++)
        put(&t, c ? " %u" : "%u", c == 51 ? 2 : c / 13);
    const sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 4 },
    };
    sb_input *in = open_mem(&spec, &t);
    sb_card out[52];
    size_t got;
    assert_int_equal(sb_input_read(in, out, 1, &got), SB_EINVAL);
    assert_int_equal(got, 0);
    assert_string_equal(sb_input_error(in),
                        "line 1 (sample 1): hand 2 holds 14 cards, 13 "
                        "expected");
    sb_input_close(in);
    free(t.s);
}

/* Under skip_invalid: every bad line counted, the first 20 messages kept,
   every good line returned in order. */
static void skip_invalid_counts_lists_and_goes_on(void **state)
{
    (void)state;
    const size_t n = 8, lines = 60;
    static const char *const bad_lines[3] = {
        "0 1 2", "0 0 1 2 3 4 5 6", "0 1 2 3 4 5 6 9"
    };
    static const char *const reasons[3] = {
        "8 cards expected, 3 found", "card 0 appears twice",
        "card 9 is out of range 0..7"
    };
    char want_msgs[SB_INPUT_LISTED][SB_INPUT_MSG];
    sb_card expected[30 * 8];
    uint64_t s = 33;
    size_t good = 0, bad = 0;
    text t = { 0 };
    put(&t, "# sixty decks, every other one bad\n");
    for (size_t i = 0; i < lines; i++) {
        if (i % 2) {
            /* line i + 2 of the input, sample i + 1 */
            put(&t, "%s\n", bad_lines[bad % 3]);
            if (bad < SB_INPUT_LISTED)
                snprintf(want_msgs[bad], SB_INPUT_MSG,
                         "line %zu (sample %zu): %s", i + 2, i + 1,
                         reasons[bad % 3]);
            bad++;
        } else {
            xs_deck(&s, expected + good * n, n);
            for (size_t j = 0; j < n; j++)
                put(&t, j ? " %u" : "%u", expected[good * n + j]);
            put(&t, "\n");
            good++;
        }
    }
    const sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = n },
        .skip_invalid = 1,
    };
    sb_input *in = open_mem(&spec, &t);
    sb_card out[31 * 8];
    size_t got;
    assert_int_equal(read_all(in, out, n, 31, 7, &got), SB_OK);
    assert_int_equal(got, good);
    assert_memory_equal(out, expected, good * n * sizeof *out);
    assert_true(sb_input_eof(in));
    assert_int_equal(sb_input_invalid(in), bad);
    assert_int_equal(sb_input_samples_seen(in), lines);
    assert_string_equal(sb_input_error(in), "");
    for (size_t i = 0; i < SB_INPUT_LISTED; i++)
        assert_string_equal(sb_input_invalid_msg(in, i), want_msgs[i]);
    assert_string_equal(sb_input_invalid_msg(in, SB_INPUT_LISTED), "");
    sb_input_close(in);
    free(t.s);

    /* Binary: a bad record and a record cut short, both skipped. */
    text b = { 0 };
    put_bytes(&b, "\0\1\2\3\4\0\1\2\3\2\1\0\1\2", 14);
    const sb_input_spec bspec = {
        .format = SB_FORMAT_U8,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 4 },
        .skip_invalid = 1,
    };
    const sb_card want[8] = { 0, 1, 2, 3, 3, 2, 1, 0 };
    in = open_mem(&bspec, &b);
    assert_int_equal(read_all(in, out, 4, 5, 64, &got), SB_OK);
    assert_int_equal(got, 2);
    assert_memory_equal(out, want, sizeof want);
    assert_true(sb_input_eof(in));
    assert_int_equal(sb_input_invalid(in), 2);
    assert_int_equal(sb_input_samples_seen(in), 4);
    assert_string_equal(sb_input_invalid_msg(in, 0),
                        "sample 2 (byte 4): card 4 is out of range 0..3; "
                        "numbers from 1? use --one-based");
    assert_string_equal(sb_input_invalid_msg(in, 1),
                        "sample 4 (byte 12): the input ends inside this "
                        "sample: 2 of 4 bytes");
    sb_input_close(in);
    free(b.s);
}

/* The last sample line: none before reading, the line as written after
   (its CR dropped), a long one cut with "...", control bytes shown as
   \xNN; nothing for the binary formats. */
static void last_line_is_kept(void **state)
{
    (void)state;
    sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 3 },
        .skip_invalid = 1,
    };
    text t = { 0 };
    put(&t, "0 1 2\n2 1 0\r\n# after\n\n");
    sb_input *in = open_mem(&spec, &t);
    sb_card out[12];
    size_t got;
    assert_string_equal(sb_input_last_line(in), "");
    assert_int_equal(sb_input_read(in, out, 1, &got), SB_OK);
    assert_string_equal(sb_input_last_line(in), "0 1 2");
    assert_int_equal(read_all(in, out, 3, 4, 4, &got), SB_OK);
    assert_int_equal(got, 1);
    assert_string_equal(sb_input_last_line(in), "2 1 0");
    sb_input_close(in);

    text ctl = { 0 };
    put_bytes(&ctl, "0 1 2\n0 \001 1", 11);
    in = open_mem(&spec, &ctl);
    assert_int_equal(read_all(in, out, 3, 4, 4, &got), SB_OK);
    assert_int_equal(got, 1);
    assert_int_equal(sb_input_invalid(in), 1);
    assert_string_equal(sb_input_last_line(in), "0 \\x01 1");
    assert_string_equal(sb_input_invalid_msg(in, 0),
                        "line 2 (sample 2): '\\x01' is not a card number");
    sb_input_close(in);

    text longer = { 0 }, want = { 0 };
    for (unsigned c = 0; c < 100; c++)
        put(&longer, c ? " %u" : "%u", c);
    put_bytes(&want, longer.s, 117);
    put(&want, "...");
    spec.shape.n = 100;
    in = open_mem(&spec, &longer);
    sb_card deck[100];
    assert_int_equal(sb_input_read(in, deck, 1, &got), SB_OK);
    assert_int_equal(got, 1);
    assert_int_equal(strlen(sb_input_last_line(in)), 120);
    assert_string_equal(sb_input_last_line(in), want.s);
    sb_input_close(in);

    text b = { 0 };
    put_bytes(&b, "\2\1\0", 3);
    spec.format = SB_FORMAT_U8;
    spec.shape.n = 3;
    in = open_mem(&spec, &b);
    assert_int_equal(sb_input_read(in, out, 1, &got), SB_OK);
    assert_int_equal(got, 1);
    assert_string_equal(sb_input_last_line(in), "");
    sb_input_close(in);
    free(t.s);
    free(ctl.s);
    free(longer.s);
    free(want.s);
    free(b.s);
}

/* A draw of unknown length takes it from the first sample line; that
   line's faults, an empty input and a line longer than the deck are
   reported by sb_input_shape. */
static void draw_length_inference_errors(void **state)
{
    (void)state;
    static const struct {
        const char *input;
        int skip;
        const char *message;
    } cases[] = {
        { "", 0, "the input holds no sample" },
        { "# nothing\n\n", 1, "the input holds no sample" },
        { "\n1,,2\n", 1, "line 2 (sample 1): an empty field (a comma with "
          "no value before or after it)" },
        { "# c\n0 1 2 3 4 5 6 7 8 9 10\n", 0,
          "line 2 (sample 1): 11 cards drawn, more than the 10 of the deck" },
        { "3 3 1\n", 0, "line 1 (sample 1): card 3 appears twice" },
        { "3 1 | 2\n", 0, "line 1 (sample 1): unexpected '|' (only the "
          "hands of a deal are separated by '|')" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const sb_input_spec spec = {
            .format = SB_FORMAT_TEXT,
            .shape = { .kind = SB_KIND_DRAW, .n = 10 },
            .skip_invalid = cases[i].skip,
        };
        text t = { 0 };
        put(&t, "%s", cases[i].input);
        sb_input *in = open_mem(&spec, &t);
        sb_shape shape;
        assert_int_equal(sb_input_shape(in, &shape), SB_EINVAL);
        assert_string_equal(sb_input_error(in), cases[i].message);
        sb_card out[10];
        size_t got = 99;
        assert_int_equal(sb_input_read(in, out, 1, &got), SB_EINVAL);
        assert_int_equal(got, 0);
        sb_input_close(in);
        free(t.s);
    }
    /* Under skip_invalid a bad first line still gives its length and is
       then skipped like any other. */
    const sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_DRAW, .n = 10 },
        .skip_invalid = 1,
    };
    text t = { 0 };
    put(&t, "3 3 1\n4 5 6\n");
    sb_input *in = open_mem(&spec, &t);
    sb_shape shape;
    assert_int_equal(sb_input_shape(in, &shape), SB_OK);
    assert_int_equal(shape.len, 3);
    sb_card out[6];
    size_t got;
    assert_int_equal(read_all(in, out, 3, 2, 2, &got), SB_OK);
    assert_int_equal(got, 1);
    const sb_card want[3] = { 4, 5, 6 };
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(sb_input_invalid(in), 1);
    assert_string_equal(sb_input_invalid_msg(in, 0),
                        "line 1 (sample 1): card 3 appears twice");
    sb_input_close(in);
    free(t.s);
}

/* Specs that cannot be read are refused with a reason. */
static void unreadable_specs_are_refused(void **state)
{
    (void)state;
    static const sb_input_spec specs[] = {
        { .format = SB_FORMAT_CARDS,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 53 } },
        { .format = SB_FORMAT_CARDS, .one_based = 1,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 52 } },
        { .format = SB_FORMAT_U8,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 257 } },
        { .format = SB_FORMAT_U8, .one_based = 1,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 256 } },
        { .format = SB_FORMAT_U16, .one_based = 1,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 65536 } },
        { .format = SB_FORMAT_TEXT,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 65537 } },
        { .format = SB_FORMAT_TEXT,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 0 } },
        { .format = SB_FORMAT_TEXT,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 5, .len = 4 } },
        { .format = SB_FORMAT_TEXT,
          .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 5 } },
        { .format = SB_FORMAT_TEXT,
          .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 0 } },
        { .format = SB_FORMAT_TEXT,
          .shape = { .kind = SB_KIND_DRAW, .n = 5, .len = 6 } },
        { .format = SB_FORMAT_U8,
          .shape = { .kind = SB_KIND_DRAW, .n = 5, .len = 0 } },
        { .format = SB_FORMAT_U16,
          .shape = { .kind = SB_KIND_DRAW, .n = 5, .len = 0 } },
        { .format = (sb_format)7,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 5 } },
        { .format = SB_FORMAT_TEXT,
          .shape = { .kind = (sb_kind)3, .n = 5 } },
        /* pbn: bridge deals only, no numbers to count from 1 */
        { .format = SB_FORMAT_PBN,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 52 } },
        { .format = SB_FORMAT_PBN,
          .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 2 } },
        { .format = SB_FORMAT_PBN,
          .shape = { .kind = SB_KIND_DEAL, .n = 48, .hands = 4 } },
        { .format = SB_FORMAT_PBN, .one_based = 1,
          .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 4 } },
        /* a card order: only for card names, and a whole one */
        { .format = SB_FORMAT_TEXT, .card_order = "shdc:akqjt98765432",
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 52 } },
        { .format = SB_FORMAT_U8, .card_order = "shdc:akqjt98765432",
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 52 } },
        { .format = SB_FORMAT_CARDS, .card_order = "shd:akqjt98765432",
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 52 } },
    };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        sb_input *in = NULL;
        char err[256] = "";
        assert_int_equal(sb_input_open_mem(&in, &specs[i], "", 0, err,
                                           sizeof err), SB_EINVAL);
        assert_null(in);
        assert_true(err[0] != '\0');
        err[0] = '\0';
        assert_int_equal(sb_input_open_fd(&in, &specs[i], 0, err, sizeof err),
                         SB_EINVAL);
        assert_null(in);
        assert_true(err[0] != '\0');
    }
    /* The edges that fit are accepted. */
    static const sb_input_spec fits[] = {
        { .format = SB_FORMAT_U8,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 256 } },
        { .format = SB_FORMAT_U8, .one_based = 1,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 255 } },
        { .format = SB_FORMAT_U16,
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 65536 } },
        { .format = SB_FORMAT_CARDS,
          .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 4 } },
        { .format = SB_FORMAT_PBN,
          .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 4 } },
        { .format = SB_FORMAT_PBN, .card_order = "SHDC:AKQJT98765432",
          .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 4 } },
        { .format = SB_FORMAT_CARDS, .card_order = "shdc:akqjt98765432",
          .shape = { .kind = SB_KIND_PERMUTATION, .n = 13 } },
    };
    for (size_t i = 0; i < sizeof fits / sizeof *fits; i++) {
        sb_input *in;
        char err[256];
        assert_int_equal(sb_input_open_mem(&in, &fits[i], "", 0, err,
                                           sizeof err), SB_OK);
        sb_input_close(in);
    }
}

static void format_names(void **state)
{
    (void)state;
    static const char *const names[] = { "text", "cards", "u8", "u16" };
    for (int f = 0; f < 4; f++) {
        sb_format got;
        assert_string_equal(sb_format_str((sb_format)f), names[f]);
        assert_int_equal(sb_format_find(names[f], &got), SB_OK);
        assert_int_equal(got, f);
    }
    sb_format got;
    assert_int_equal(sb_format_find("u32", &got), SB_ENOTFOUND);
}

/* ---- a real file descriptor -------------------------------------------- */

/* Write 'size' bytes of 'data' into a pipe from a child process, in
   pieces of the sizes 'pieces' (cycled), so that lines and records are
   split everywhere; returns the read end and the child. */
static int pipe_from_child(const char *data, size_t size,
                           const size_t *pieces, size_t n_pieces, pid_t *pid)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    *pid = fork();
    assert_true(*pid >= 0);
    if (*pid == 0) {
        close(fds[0]);
        size_t at = 0, k = 0;
        while (at < size) {
            size_t piece = pieces[k++ % n_pieces];
            if (piece > size - at)
                piece = size - at;
            const ssize_t w = write(fds[1], data + at, piece);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1);
            at += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    return fds[0];
}

static void child_done(pid_t pid, int ok_status)
{
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (ok_status)
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Decks through a pipe in awkward pieces, one line longer than the
   reader's first buffer (1 MiB); then u16 records split mid-value. */
static void reads_through_a_pipe(void **state)
{
    (void)state;
    const size_t n = 52, N = 3000;
    sb_card *expected = malloc(N * n * sizeof *expected);
    assert_non_null(expected);
    uint64_t s = 77;
    text t = { 0 };
    char *blanks = malloc(3u << 20);
    assert_non_null(blanks);
    memset(blanks, ' ', 3u << 20);
    for (size_t d = 0; d < N; d++) {
        xs_deck(&s, expected + d * n, n);
        for (size_t i = 0; i < n; i++) {
            put(&t, i ? " %u" : "%u", expected[d * n + i]);
            if (d == N / 2 && i == 10)
                put_bytes(&t, blanks, 3u << 20);
        }
        put(&t, d % 11 ? "\n" : "\r\n# a comment\n");
    }
    free(blanks);
    static const size_t pieces[] = { 1, 3, 4093, 7, 65536, 100000, 2 };
    pid_t pid;
    int fd = pipe_from_child(t.s, t.len, pieces, 7, &pid);
    const sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = n },
    };
    sb_input *in;
    char err[256];
    assert_int_equal(sb_input_open_fd(&in, &spec, fd, err, sizeof err), SB_OK);
    sb_card *out = malloc((N + 1) * n * sizeof *out);
    assert_non_null(out);
    size_t got;
    assert_int_equal(read_all(in, out, n, N + 1, 64, &got), SB_OK);
    assert_int_equal(got, N);
    assert_memory_equal(out, expected, N * n * sizeof *out);
    assert_true(sb_input_eof(in));
    sb_input_close(in);
    close(fd);
    child_done(pid, 1);
    free(t.s);

    const size_t m = 300, M = 100;
    text w = { 0 };
    for (size_t d = 0; d < M; d++) {
        xs_deck(&s, expected + d * m, m);
        for (size_t i = 0; i < m; i++)
            put_u16(&w, expected[d * m + i]);
    }
    static const size_t odd[] = { 1, 3, 333, 4097 };
    fd = pipe_from_child(w.s, w.len, odd, 4, &pid);
    const sb_input_spec wspec = {
        .format = SB_FORMAT_U16,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = m },
    };
    assert_int_equal(sb_input_open_fd(&in, &wspec, fd, err, sizeof err),
                     SB_OK);
    assert_int_equal(read_all(in, out, m, M + 1, 7, &got), SB_OK);
    assert_int_equal(got, M);
    assert_memory_equal(out, expected, M * m * sizeof *out);
    assert_true(sb_input_eof(in));
    sb_input_close(in);
    close(fd);
    child_done(pid, 1);
    free(w.s);
    free(out);
    free(expected);
}

/* Errors far into a pipe, after the buffer has been refilled many
   times: the line, the sample and the byte are counted from the start of
   the input. */
static void errors_deep_in_a_pipe(void **state)
{
    (void)state;
    const size_t n = 52, N = 30000;
    text t = { 0 }, b = { 0 };
    put(&t, "# identity decks\n");
    for (size_t d = 0; d < N; d++) {
        for (unsigned i = 0; i < n; i++) {
            put(&t, i ? " %u" : "%u", i);
            const unsigned char byte = (unsigned char)i;
            put_bytes(&b, &byte, 1);
        }
        put(&t, "\n");
    }
    /* Card 52 in place of card 51 at the end of the next sample. */
    put(&t, "\n0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 "
        "24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 "
        "46 47 48 49 50 52\n");
    for (unsigned i = 0; i < n; i++) {
        const unsigned char byte = (unsigned char)(i == 51 ? 52 : i);
        put_bytes(&b, &byte, 1);
    }
    static const size_t pieces[] = { 4099, 1, 65536 };
    const text *inputs[2] = { &t, &b };
    const sb_format formats[2] = { SB_FORMAT_TEXT, SB_FORMAT_U8 };
    char want[2][SB_INPUT_MSG];
    /* line 1 is the comment, then N decks, a blank line, the bad deck */
    snprintf(want[0], sizeof want[0], "line %zu (sample %zu): card 52 is "
             "out of range 0..51; numbers from 1? use --one-based", N + 3,
             N + 1);
    snprintf(want[1], sizeof want[1], "sample %zu (byte %zu): card 52 is "
             "out of range 0..51; numbers from 1? use --one-based", N + 1,
             N * n + 51);
    sb_card *out = malloc((N + 1) * n * sizeof *out);
    assert_non_null(out);
    for (int k = 0; k < 2; k++) {
        pid_t pid;
        const int fd = pipe_from_child(inputs[k]->s, inputs[k]->len, pieces,
                                       3, &pid);
        const sb_input_spec spec = {
            .format = formats[k],
            .shape = { .kind = SB_KIND_PERMUTATION, .n = n },
        };
        sb_input *in;
        char err[256];
        assert_int_equal(sb_input_open_fd(&in, &spec, fd, err, sizeof err),
                         SB_OK);
        size_t got;
        assert_int_equal(read_all(in, out, n, N + 1, 1000, &got), SB_EINVAL);
        assert_int_equal(got, N);
        assert_string_equal(sb_input_error(in), want[k]);
        sb_input_close(in);
        close(fd);
        child_done(pid, 1);
    }
    free(out);
    free(t.s);
    free(b.s);
}

/* A line longer than 64 MiB cannot be held: SB_ENOMEM, said so. */
static void an_endless_line_is_refused(void **state)
{
    (void)state;
    const size_t size = (65u << 20) + 16;
    char *line = malloc(size);
    assert_non_null(line);
    memcpy(line, "0 1 ", 4);
    memset(line + 4, ' ', size - 4);
    static const size_t pieces[] = { 1u << 20 };
    pid_t pid;
    const int fd = pipe_from_child(line, size, pieces, 1, &pid);
    const sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 2 },
    };
    sb_input *in;
    char err[256];
    assert_int_equal(sb_input_open_fd(&in, &spec, fd, err, sizeof err), SB_OK);
    sb_card out[2];
    size_t got;
    assert_int_equal(sb_input_read(in, out, 1, &got), SB_ENOMEM);
    assert_int_equal(got, 0);
    assert_string_equal(sb_input_error(in), "line 1 is longer than 64 MiB");
    sb_input_close(in);
    /* The child, still writing, ends on the closed pipe. */
    close(fd);
    child_done(pid, 0);
    free(line);
}

/* The stop flag, set before reading a pipe that stays silent: the read
   returns at once with nothing, not at the end; once cleared, reading
   goes on where it was. */
static void stop_flag_ends_a_silent_read(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    volatile sig_atomic_t stop = 1;
    sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_DRAW, .n = 3 },
        .stop = &stop,
    };
    sb_input *in;
    char err[256];
    assert_int_equal(sb_input_open_fd(&in, &spec, fds[0], err, sizeof err),
                     SB_OK);
    sb_shape shape;
    assert_int_equal(sb_input_shape(in, &shape), SB_EINTR);
    sb_card out[6];
    size_t got = 99;
    assert_int_equal(sb_input_read(in, out, 2, &got), SB_OK);
    assert_int_equal(got, 0);
    assert_false(sb_input_eof(in));
    assert_string_equal(sb_input_error(in), "");

    assert_int_equal(write(fds[1], "2 0\n1 2\n", 8), 8);
    close(fds[1]);
    stop = 0;
    assert_int_equal(sb_input_shape(in, &shape), SB_OK);
    assert_int_equal(shape.len, 2);
    assert_int_equal(read_all(in, out, 2, 3, 3, &got), SB_OK);
    assert_int_equal(got, 2);
    const sb_card want[4] = { 2, 0, 1, 2 };
    assert_memory_equal(out, want, sizeof want);
    assert_true(sb_input_eof(in));
    sb_input_close(in);
    close(fds[0]);

    /* Binary too. */
    assert_int_equal(pipe(fds), 0);
    stop = 1;
    spec.format = SB_FORMAT_U8;
    spec.shape.len = 3;
    assert_int_equal(sb_input_open_fd(&in, &spec, fds[0], err, sizeof err),
                     SB_OK);
    got = 99;
    assert_int_equal(sb_input_read(in, out, 2, &got), SB_OK);
    assert_int_equal(got, 0);
    assert_false(sb_input_eof(in));
    sb_input_close(in);
    close(fds[0]);
    close(fds[1]);
}

/* What the waiting hook below was asked, and answers. */
typedef struct hook_log {
    int calls;
    uint64_t bytes;
    int answer;       /* given from the second call on (WAIT before) */
} hook_log;

static int hook(void *ctx, uint64_t bytes_read)
{
    hook_log *h = ctx;
    h->bytes = bytes_read;
    return h->calls++ == 0 ? SB_INPUT_WAIT : h->answer;
}

/* The 'waiting' hook is asked while a pipe stays silent, with the bytes
   read so far: SB_INPUT_WAIT waits on, SB_INPUT_END ends the input there
   (the samples read are returned, then end-of-input), SB_INPUT_STOP
   stops as the stop flag does (not the end).  The write end stays open
   throughout: without the hook the read would never return. */
static void waiting_hook_ends_or_stops_a_silent_read(void **state)
{
    (void)state;
    const int answers[2] = { SB_INPUT_END, SB_INPUT_STOP };
    for (int i = 0; i < 2; i++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        assert_int_equal(write(fds[1], "0 1 2\n2 1 0\n", 12), 12);
        hook_log h = { .answer = answers[i] };
        const sb_input_spec spec = {
            .format = SB_FORMAT_TEXT,
            .shape = { .kind = SB_KIND_PERMUTATION, .n = 3, .len = 3 },
            .waiting = hook, .waiting_ctx = &h,
        };
        sb_input *in;
        char err[256];
        assert_int_equal(sb_input_open_fd(&in, &spec, fds[0], err,
                                          sizeof err), SB_OK);
        sb_card out[9];
        size_t got = 99;
        assert_int_equal(sb_input_read(in, out, 3, &got), SB_OK);
        assert_int_equal(got, 2);
        assert_int_equal(h.calls, 2);
        assert_int_equal(h.bytes, 12);
        assert_int_equal(sb_input_eof(in), answers[i] == SB_INPUT_END);
        sb_input_close(in);
        close(fds[0]);
        close(fds[1]);
    }
}

/* A hook that, asked once the pipe has been silent, writes the last
   samples into it and then answers SB_INPUT_END: a program that wrote its
   last samples and exited after the wait timed out but before the hook
   looked.  The write end stays open (something left in the background
   holds it), so end-of-file never comes. */
typedef struct late_writer {
    int fd;           /* the pipe's write end */
    const char *last; /* written on the first call */
    size_t len;       /* its length (binary holds zeros) */
    int calls;
} late_writer;

static int write_then_end(void *ctx, uint64_t bytes_read)
{
    (void)bytes_read;
    late_writer *w = ctx;
    if (w->calls++ == 0) {
        assert_int_equal(write(w->fd, w->last, w->len), (ssize_t)w->len);
    }
    return SB_INPUT_END;
}

/* SB_INPUT_END does not drop bytes that came between the wait and the
   hook's answer: they are read and returned, and the input ends only
   when nothing more is ready - without another wait or another call of
   the hook (a pipe held open by a background process still ends). */
static void waiting_hook_end_keeps_what_came_late(void **state)
{
    (void)state;
    const sb_format formats[2] = { SB_FORMAT_TEXT, SB_FORMAT_U8 };
    const char *const lasts[2] = { "2 0 1\n1 0 2\n", "\2\0\1\1\0\2" };
    for (int i = 0; i < 2; i++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        assert_int_equal(write(fds[1], i ? "\0\1\2" : "0 1 2\n",
                               i ? 3 : 6), i ? 3 : 6);
        late_writer w = { .fd = fds[1], .last = lasts[i],
                          .len = i ? 6 : strlen(lasts[i]) };
        const sb_input_spec spec = {
            .format = formats[i],
            .shape = { .kind = SB_KIND_PERMUTATION, .n = 3, .len = 3 },
            .waiting = write_then_end, .waiting_ctx = &w,
        };
        sb_input *in;
        char err[256];
        assert_int_equal(sb_input_open_fd(&in, &spec, fds[0], err,
                                          sizeof err), SB_OK);
        sb_card out[12];
        size_t got = 99;
        assert_int_equal(read_all(in, out, 3, 4, 3, &got), SB_OK);
        assert_int_equal(got, 3);
        const sb_card want[9] = { 0, 1, 2, 2, 0, 1, 1, 0, 2 };
        assert_memory_equal(out, want, sizeof want);
        assert_true(sb_input_eof(in));
        assert_int_equal(w.calls, 1);
        assert_int_equal(sb_input_samples_seen(in), 3);
        sb_input_close(in);
        close(fds[0]);
        close(fds[1]);
    }
}

/* A descriptor that cannot be read (a directory): SB_EIO, said so, and
   kept. */
static void a_read_error_is_reported(void **state)
{
    (void)state;
    const int fd = open(SB_SOURCE_DIR, O_RDONLY);
    assert_true(fd >= 0);
    const sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 3 },
    };
    sb_input *in;
    char err[256];
    assert_int_equal(sb_input_open_fd(&in, &spec, fd, err, sizeof err), SB_OK);
    sb_card out[3];
    size_t got;
    assert_int_equal(sb_input_read(in, out, 1, &got), SB_EIO);
    assert_int_equal(got, 0);
    assert_true(strncmp(sb_input_error(in), "cannot read the input: ", 23)
                == 0);
    assert_int_equal(sb_input_read(in, out, 1, &got), SB_EIO);
    sb_input_close(in);
    close(fd);
}


/* ---- messages --------------------------------------------------------- */

/* The first error reading 'size' bytes of 'input' ('size' 0: strlen)
   with 'spec', one sample at a time. */
static const char *first_error(const sb_input_spec *spec, const char *input,
                               size_t size, char out[SB_INPUT_MSG])
{
    text t = { 0 };
    put_bytes(&t, input, size ? size : strlen(input));
    sb_input *in = open_mem(spec, &t);
    sb_card deck[64];
    size_t got;
    int rc;
    while ((rc = sb_input_read(in, deck, 1, &got)) == SB_OK && got == 1)
        ;
    snprintf(out, SB_INPUT_MSG, "%s", sb_input_error(in));
    sb_input_close(in);
    free(t.s);
    return out;
}

/* What a message quotes from the input is escaped: control bytes, bytes
   of no valid UTF-8 character (a stray continuation, an overlong form, a
   surrogate, past U+10FFFF), C1 controls and the byte-order mark as \xNN;
   other UTF-8 as it is.  The last line too, still within its 120
   characters however many escapes it takes. */
static void messages_escape_what_they_quote(void **state)
{
    (void)state;
    sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 3 },
    };
    static const struct {
        const char *input, *message;
    } cases[] = {
        { "0 1 \xff\n", "line 1 (sample 1): '\\xFF' is not a card number" },
        { "0 1 x\xe2\x99\xa0\n",
          "line 1 (sample 1): 'x\xe2\x99\xa0' is not a card number" },
        { "0 1 \xc0\x80\n",
          "line 1 (sample 1): '\\xC0\\x80' is not a card number" },
        { "0 1 \xed\xa0\x80\n",
          "line 1 (sample 1): '\\xED\\xA0\\x80' is not a card number" },
        { "0 1 \xf4\x90\x80\x80\n", "line 1 (sample 1): "
          "'\\xF4\\x90\\x80\\x80' is not a card number" },
        { "0 1 \xc2\x9b" "2\n",
          "line 1 (sample 1): '\\xC2\\x9B2' is not a card number" },
        { "0 1 \xe2\x99\n",
          "line 1 (sample 1): '\\xE2\\x99' is not a card number" },
        { "0 1 \x1b[31m\n",
          "line 1 (sample 1): '\\x1B[31m' is not a card number" },
        { "\xef\xbb\xbf" "0 1 2\n", "line 1 (sample 1): '\\xEF\\xBB\\xBF0' "
          "is not a card number; the input starts with a UTF-8 byte-order "
          "mark: save it without one" },
    };
    char msg[SB_INPUT_MSG];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_string_equal(first_error(&spec, cases[i].input, 0, msg),
                            cases[i].message);

    /* 100 bytes of 0xFF make 400 characters escaped: cut at 120 without
       splitting an escape. */
    text t = { 0 };
    put(&t, "0 1 ");
    for (int i = 0; i < 100; i++)
        put_bytes(&t, "\xff", 1);
    put(&t, "\n");
    spec.skip_invalid = 1;
    sb_input *in = open_mem(&spec, &t);
    sb_card deck[3];
    size_t got;
    assert_int_equal(sb_input_read(in, deck, 1, &got), SB_OK);
    const char *last = sb_input_last_line(in);
    assert_true(strlen(last) <= 120);
    assert_true(strncmp(last, "0 1 \\xFF\\xFF", 12) == 0);
    assert_string_equal(last + strlen(last) - 7, "\\xFF...");
    assert_int_equal((strlen(last) - 4 - 3) % 4, 0);
    sb_input_close(in);
    free(t.s);
}

/* With a name, a message says which input: "NAME:LINE (sample S)" in
   the text formats, "NAME: sample S (byte B)" in the binary ones; a long
   name is cut at its start, and escaped as the rest. */
static void messages_name_the_input(void **state)
{
    (void)state;
    sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 3 },
        .name = "decks.txt",
    };
    char msg[SB_INPUT_MSG];
    assert_string_equal(first_error(&spec, "0 1 2\n# c\n2 2 1\n", 0, msg),
                        "decks.txt:3 (sample 2): card 2 appears twice");
    spec.name = "<stdin>";
    assert_string_equal(first_error(&spec, "0 1 2\n0 1 3\n", 0, msg),
                        "<stdin>:2 (sample 2): card 3 is out of range 0..2; "
                        "numbers from 1? use --one-based");
    spec.name = "bad\tname";
    assert_string_equal(first_error(&spec, "0 1\n", 0, msg),
                        "bad\\x09name:1 (sample 1): 3 cards expected, 2 found; "
                        "the sample has 2 values: is --n 2 meant?");
    char longname[200];
    memset(longname, 'd', sizeof longname);
    memcpy(longname + sizeof longname - 10, "/decks.txt", 10);
    longname[sizeof longname - 1] = '\0';
    spec.name = longname;
    first_error(&spec, "0 0 1\n", 0, msg);
    assert_true(strncmp(msg, "...ddd", 6) == 0);
    assert_non_null(strstr(msg, "/decks.tx:1 (sample 1): card 0 appears "
                           "twice"));
    /* ... also when a draw's first line, which sets its length, is bad. */
    spec.shape = (sb_shape){ .kind = SB_KIND_DRAW, .n = 3 };
    assert_string_equal(first_error(&spec, "# k from here\n0 1 1\n", 0,
                                    msg),
                        "...dddddddddddddddddddddddddddddddddddddddddddddddd"
                        "/decks.tx:2 (sample 1): card 1 appears twice");
    spec.shape = (sb_shape){ .kind = SB_KIND_PERMUTATION, .n = 3 };
    spec.format = SB_FORMAT_U8;
    spec.name = "decks.bin";
    assert_string_equal(first_error(&spec, "\2\1\0\0\0\1", 6, msg),
                        "decks.bin: sample 2 (byte 4): card 0 appears twice");

    /* A read error names it too. */
    const int fd = open(SB_SOURCE_DIR, O_RDONLY);
    assert_true(fd >= 0);
    spec.format = SB_FORMAT_TEXT;
    spec.name = "tests";
    sb_input *in;
    char err[256];
    assert_int_equal(sb_input_open_fd(&in, &spec, fd, err, sizeof err), SB_OK);
    sb_card out[3];
    size_t got;
    assert_int_equal(sb_input_read(in, out, 1, &got), SB_EIO);
    assert_string_equal(sb_input_error(in), "cannot read 'tests': Is a "
                        "directory");
    sb_input_close(in);
    close(fd);
}

/* Common mistakes are named with their fix: card names or a PBN deal
   read as numbers, a size that is not the sample's (only while no
   sample was valid: later, the sample is the likelier fault). */
static void messages_suggest_the_fix(void **state)
{
    (void)state;
    sb_input_spec spec = {
        .format = SB_FORMAT_TEXT,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 3 },
    };
    char msg[SB_INPUT_MSG];
    assert_string_equal(first_error(&spec, "AS 2c 3d\n", 0, msg),
                        "line 1 (sample 1): 'AS' is not a card number; card "
                        "names? use --format cards");
    assert_string_equal(first_error(&spec, "0 10h 2\n", 0, msg),
                        "line 1 (sample 1): '10h' is not a card number; card "
                        "names? use --format cards");
    assert_string_equal(first_error(&spec, "0 x 2\n", 0, msg),
                        "line 1 (sample 1): 'x' is not a card number");
    spec.shape = (sb_shape){ .kind = SB_KIND_DEAL, .n = 52, .hands = 4 };
    assert_string_equal(first_error(&spec, "N:AKQ.JT9.876.5432 - - -\n", 0,
                                    msg),
                        "line 1 (sample 1): 'N:AKQ.JT9.876.5432' is not a "
                        "hand number; a PBN deal? use --format pbn");
    /* A NUL is no seat. */
    assert_string_equal(first_error(&spec, "\0:AKQ.JT9\n", 10, msg),
                        "line 1 (sample 1): '\\x00:AKQ.JT9' is not a hand "
                        "number");
    spec.format = SB_FORMAT_CARDS;
    assert_string_equal(first_error(&spec, "N:AKQ.JT9.876.5432 - - -\n", 0,
                                    msg),
                        "line 1 (sample 1): unknown card name "
                        "'N:AKQ.JT9.876.5432'; a PBN deal? use --format pbn");
    spec.format = SB_FORMAT_TEXT;
    spec.shape = (sb_shape){ .kind = SB_KIND_DRAW, .n = 10, .len = 3 };
    assert_string_equal(first_error(&spec, "0 1 2 3 4\n", 0, msg),
                        "line 1 (sample 1): 3 cards expected, 5 found; the "
                        "sample has 5 values: is --draw 5 meant?");
    /* A deck of 52 read with --n 51: the sample's size is the mistake,
       whether its top card or (one-based) its 0 is read first; never a
       hint to add --one-based, then one to drop it. */
    spec.shape = (sb_shape){ .kind = SB_KIND_PERMUTATION, .n = 51,
                             .len = 51 };
    char deck52[300] = "";
    for (int c = 51; c >= 0; c--)
        snprintf(deck52 + strlen(deck52), sizeof deck52 - strlen(deck52),
                 "%d%s", c, c ? " " : "\n");
    assert_string_equal(first_error(&spec, deck52, 0, msg),
                        "line 1 (sample 1): 51 cards expected, 52 found; the "
                        "sample has 52 values: is --n 52 meant?");
    spec.one_based = 1;
    assert_string_equal(first_error(&spec, deck52, 0, msg),
                        "line 1 (sample 1): 51 cards expected, 52 found; the "
                        "sample has 52 values: is --n 52 meant?");
    spec.one_based = 0;
    /* A 1-based value past the top, but not the one after it: no hint. */
    spec.shape = (sb_shape){ .kind = SB_KIND_PERMUTATION, .n = 3 };
    assert_string_equal(first_error(&spec, "0 1 4\n", 0, msg),
                        "line 1 (sample 1): card 4 is out of range 0..2");
    /* Skipped bad samples are not valid ones: the hint stays. */
    spec.skip_invalid = 1;
    text t = { 0 };
    put(&t, "0 1\n0 1 2 3\n");
    sb_input *in = open_mem(&spec, &t);
    sb_card out[8];
    size_t got;
    assert_int_equal(read_all(in, out, 3, 2, 2, &got), SB_OK);
    assert_string_equal(sb_input_invalid_msg(in, 1), "line 2 (sample 2): 3 "
                        "cards expected, 4 found; the sample has 4 values: "
                        "is --n 4 meant?");
    sb_input_close(in);
    free(t.s);
}

/* ---- PBN and card orders ------------------------------------------------ */

/* The PBN hand of 'seat' in the deal 'deal' (card -> seat, numbered as
   stats/cards.h): spades.hearts.diamonds.clubs, ace first; tens as T or
   10, letters in either case, by the bits of 'style'. */
static void put_pbn_hand(text *t, const sb_card *deal, unsigned seat,
                         unsigned style)
{
    static const char upper[] = "23456789TJQKA", lower[] = "23456789tjqka";
    for (int suit = 3; suit >= 0; suit--) {
        for (int rank = 12; rank >= 0; rank--)
            if (deal[suit * 13 + rank] == seat) {
                if (rank == 8 && (style & 1))
                    put(t, "10");
                else
                    put(t, "%c", (style & 2 ? lower : upper)[rank]);
            }
        if (suit)
            put(t, ".");
    }
}

/* Random deals written in PBN from every first seat, bare and in Deal
   tags among the other tags, sections and comments of a real file, with
   a hand left unknown now and then: each read back as the card -> seat
   map N 0, E 1, S 2, W 3. */
static void pbn_deals_read_back(void **state)
{
    (void)state;
    const size_t N = 200;
    sb_card *expected = malloc(N * 52 * sizeof *expected);
    sb_card order[52];
    assert_non_null(expected);
    uint64_t s = 31;
    text bare = { 0 }, file = { 0 };
    put(&file, "%% PBN 2.1\n%%Creator: a dealer\n");
    for (size_t d = 0; d < N; d++) {
        sb_card *deal = expected + d * 52;
        random_deal(deal, order, 52, 4, &s);
        const unsigned first = (unsigned)xs_below(&s, 4);
        const unsigned unknown = d % 5 == 0 ? (unsigned)xs_below(&s, 4) : 4;
        text hands = { 0 };
        put(&hands, "%c:", "NESW"[first]);
        for (unsigned h = 0; h < 4; h++) {
            const unsigned seat = (first + h) % 4;
            if (h)
                put(&hands, d % 7 == 3 ? "  " : " ");
            if (seat == unknown)
                put(&hands, "-");
            else
                put_pbn_hand(&hands, deal, seat, (unsigned)(d % 4));
        }
        put(&bare, "%s%s\n", hands.s, d % 9 == 4 ? " ; a comment" : "");
        put(&file, "[Event \"Club\"]\n[Board \"%zu\"]\n[Dealer \"%c\"]\n"
            "[Vulnerable \"None\"]\n[Deal \"%s\"]\n", d + 1, "NESW"[first],
            hands.s);
        if (d % 3 == 0)
            put(&file, "[Auction \"N\"]\n1S Pass 2S Pass\n4S AP\n"
                "{a remark\nover two lines}\n");
        put(&file, "\n");
        free(hands.s);
    }
    sb_input_spec spec = {
        .format = SB_FORMAT_PBN,
        .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 4 },
    };
    assert_reads(&spec, &bare, expected, N);
    assert_reads(&spec, &file, expected, N);

    /* A card order renumbers the cards: under shdc:akqjt98765432 card
       0 is the ace of spades, card 51 the two of clubs. */
    sb_card *renumbered = malloc(N * 52 * sizeof *renumbered);
    assert_non_null(renumbered);
    for (size_t d = 0; d < N; d++)
        for (unsigned c = 0; c < 52; c++)
            renumbered[d * 52 + (3 - c / 13) * 13 + (12 - c % 13)] =
                expected[d * 52 + c];
    spec.card_order = "shdc:akqjt98765432";
    assert_reads(&spec, &file, renumbered, N);
    free(renumbered);
    free(expected);
    free(bare.s);
    free(file.s);
}

/* Each fault of a PBN deal, with its message.  The hands of a good deal:
   each suit shared 4-3-3-3 from the top. */
#define NH "AKQJ.AKQ.AKQ.AKQ"
#define EH "T98.JT98.JT9.JT9"
#define SH "765.765.8765.876"
#define WH "432.432.432.5432"
static void pbn_faults_are_named(void **state)
{
    (void)state;
    static const struct {
        const char *input, *message;
    } cases[] = {
        { NH " " EH " " SH " " WH "\n",
          "line 1 (sample 1): 'AKQJ.AKQ.AKQ.AKQ' is not a PBN deal: it "
          "starts with the first seat and a colon, such as N:" },
        { "N:" NH " " EH " " SH "\n",
          "line 1 (sample 1): 4 hands expected, 3 found" },
        { "N:" NH " " EH " " SH " " WH " -\n",
          "line 1 (sample 1): more than 4 hands in the deal" },
        { "N:" NH " " EH " " SH " 432.432.432.5431\n",
          "line 1 (sample 1): '1' in the hand of W '432.432.432.5431' is not "
          "a rank (AKQJT98765432)" },
        { "E:" NH " " EH " " SH " " WH ".2\n",
          "line 1 (sample 1): the hand of N '432.432.432.5432.2' has more "
          "than 4 suits" },
        { "S:" NH " " EH " 765.765.8765 " WH "\n",
          "line 1 (sample 1): the hand of N '765.765.8765' has 3 suits, 4 "
          "expected (spades.hearts.diamonds.clubs)" },
        { "N:" NH " " EH " " SH " 432.432.432.5422\n",
          "line 1 (sample 1): card 2C appears twice" },
        { "N:" NH "2 " EH " " SH " 432.432.432.543\n",
          "line 1 (sample 1): the hand of N holds 14 cards, 13 expected" },
        { "W:" NH " - " SH " -\n",
          "line 1 (sample 1): the hands of N and S are both unknown ('-'): "
          "the deal cannot be completed" },
        { "N:" NH "2 - " SH " 432.432.432.543\n",
          "line 1 (sample 1): the hand of N holds 14 cards, 13 expected" },
        { "[Deal \"N:" NH " " EH "\"]\n",
          "line 1 (sample 1): 4 hands expected, 2 found" },
        { "[Deal \"N:" NH "\n",
          "line 1 (sample 1): a Deal tag is written [Deal \"N:...\"]: "
          "'[Deal \"N:AKQJ.AKQ.AKQ.AKQ'" },
        { "N:" NH " " EH " " SH " " WH "\n"
          "N:" NH " " EH " " SH " 432.432.432.54\xe2\x99\xa0\n",
          "line 2 (sample 2): '\\xE2' in the hand of W '432.432.432.54"
          "\xe2\x99\xa0' is not a rank (AKQJT98765432)" },
    };
    const sb_input_spec spec = {
        .format = SB_FORMAT_PBN,
        .shape = { .kind = SB_KIND_DEAL, .n = 52, .hands = 4 },
    };
    char msg[SB_INPUT_MSG];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_string_equal(first_error(&spec, cases[i].input, 0, msg),
                            cases[i].message);
}

/* A card order is parsed and checked (each suit and rank once), and
   numbers the card names of the cards format: the order of a new deck
   in the user's program is then 0, 1, 2, ... */
static void card_orders_number_card_names(void **state)
{
    (void)state;
    unsigned char number[52];
    char err[160];
    assert_int_equal(sb_card_order_parse("cdhs:23456789tjqka", number, err,
                                         sizeof err), SB_OK);
    for (unsigned c = 0; c < 52; c++)
        assert_int_equal(number[c], c);
    assert_int_equal(sb_card_order_parse("SHDC:AKQJT98765432", number, err,
                                         sizeof err), SB_OK);
    assert_int_equal(number[51], 0);     /* AS */
    assert_int_equal(number[0], 51);     /* 2C */
    assert_int_equal(number[13 + 8], 2 * 13 + 4);   /* TD */
    static const struct {
        const char *order, *message;
    } bad[] = {
        { "shdc", "'shdc' is not SUITS:RANKS, such as shdc:akqjt98765432" },
        { "shdx:akqjt98765432", "'x' is not a suit: c, d, h, s" },
        { "shds:akqjt98765432", "suit 's' appears twice" },
        { "shd:akqjt98765432", "4 suits expected: every one of the suits c, "
          "d, h, s exactly once" },
        { "shdc:akqjt9876543", "13 ranks expected: every one of the ranks "
          "2-9, t, j, q, k, a exactly once" },
        { "shdc:akqj1098765432", "'1' is not a rank: 2-9, t, j, q, k, a" },
        { "shdc:akqjt98765422", "rank '2' appears twice" },
        { "shdc:akqjt98765432\x12", "'?' is not a rank: 2-9, t, j, q, k, a" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        assert_int_equal(sb_card_order_parse(bad[i].order, number, err,
                                             sizeof err), SB_EINVAL);
        assert_string_equal(err, bad[i].message);
    }

    /* Spades first, ace high: a new deck in that order is 0 1 2 ...;
       13 cards are the spades. */
    sb_input_spec spec = {
        .format = SB_FORMAT_CARDS,
        .shape = { .kind = SB_KIND_PERMUTATION, .n = 13 },
        .card_order = "shdc:akqjt98765432",
    };
    text t = { 0 };
    put(&t, "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\n"
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS\n");
    sb_card want[26];
    for (unsigned i = 0; i < 13; i++) {
        want[i] = (sb_card)i;
        want[13 + i] = (sb_card)(12 - i);
    }
    assert_reads(&spec, &t, want, 2);
    char msg[SB_INPUT_MSG];
    assert_string_equal(first_error(&spec, "AS KS QS JS TS 9S 8S 7S 6S 5S "
                                    "4S 3S AH\n", 0, msg),
                        "line 1 (sample 1): card AH is out of range "
                        "AS..2S");
    free(t.s);
}

/* ---- the fuzz cases -------------------------------------------------- */

/* The checker finds what it is there to find. */
static void fuzz_checker_sees_broken_samples(void **state)
{
    (void)state;
    unsigned char seen[4];
    uint32_t hand[4];
    const sb_shape perm = { .kind = SB_KIND_PERMUTATION, .n = 4, .len = 4 };
    const sb_shape draw = { .kind = SB_KIND_DRAW, .n = 4, .len = 2 };
    const sb_shape deal = { .kind = SB_KIND_DEAL, .n = 4, .len = 4,
                            .hands = 2 };
    const sb_card good[4] = { 3, 1, 0, 2 }, twice[4] = { 3, 1, 3, 2 },
                  high[4] = { 3, 1, 4, 2 }, dealt[4] = { 1, 0, 0, 1 },
                  lopsided[4] = { 1, 1, 0, 1 };
    assert_int_equal(sb_fuzz_check_sample(&perm, good, seen, hand), 0);
    assert_int_equal(sb_fuzz_check_sample(&perm, twice, seen, hand), 1);
    assert_int_equal(sb_fuzz_check_sample(&perm, high, seen, hand), 1);
    assert_int_equal(sb_fuzz_check_sample(&draw, twice + 2, seen, hand), 0);
    assert_int_equal(sb_fuzz_check_sample(&draw, high + 1, seen, hand), 1);
    assert_int_equal(sb_fuzz_check_sample(&deal, dealt, seen, hand), 0);
    assert_int_equal(sb_fuzz_check_sample(&deal, lopsided, seen, hand), 1);
    assert_int_equal(sb_fuzz_check_sample(&deal, good, seen, hand), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_permutations_read_back),
        cmocka_unit_test(cards_read_back),
        cmocka_unit_test(binary_permutations_read_back),
        cmocka_unit_test(draws_read_back),
        cmocka_unit_test(deals_read_back),
        cmocka_unit_test(empty_inputs_end_at_once),
        cmocka_unit_test(bad_samples_are_reported),
        cmocka_unit_test(a_wrong_hand_count_is_named),
        cmocka_unit_test(skip_invalid_counts_lists_and_goes_on),
        cmocka_unit_test(last_line_is_kept),
        cmocka_unit_test(draw_length_inference_errors),
        cmocka_unit_test(unreadable_specs_are_refused),
        cmocka_unit_test(format_names),
        cmocka_unit_test(reads_through_a_pipe),
        cmocka_unit_test(errors_deep_in_a_pipe),
        cmocka_unit_test(an_endless_line_is_refused),
        cmocka_unit_test(stop_flag_ends_a_silent_read),
        cmocka_unit_test(waiting_hook_ends_or_stops_a_silent_read),
        cmocka_unit_test(waiting_hook_end_keeps_what_came_late),
        cmocka_unit_test(a_read_error_is_reported),
        cmocka_unit_test(messages_escape_what_they_quote),
        cmocka_unit_test(messages_name_the_input),
        cmocka_unit_test(messages_suggest_the_fix),
        cmocka_unit_test(pbn_deals_read_back),
        cmocka_unit_test(pbn_faults_are_named),
        cmocka_unit_test(card_orders_number_card_names),
        cmocka_unit_test(fuzz_checker_sees_broken_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
