/*
 * input_check.h - one fuzz case for the deck reader (fuzz target
 * "input"): the first five bytes choose how to read, the rest is the
 * input; every sample returned is checked against what its kind
 * promises.
 *
 * Built into the libFuzzer target (fuzz/fuzz_target.c, by scripts/fuzz),
 * which aborts on a broken promise, and into the replay of ctest
 * (fuzz/replay.c), which runs the seeds of fuzz/corpus/input/ and every
 * input the fuzzer ever broke the reader with (tests/data/input-regress/).
 *
 * The header bytes:
 *   byte 0  bits 0-1 format (text, cards, u8, u16); bits 2-3 kind
 *           (0 permutation, 1 draw, 2 deal, 3 permutation); bit 4
 *           one_based; bit 5 skip_invalid; bits 6-7 samples asked per
 *           read (1, 3, 64, 1000);
 *   byte 1  n = 1 + byte % 60;
 *   byte 2  hands (deal): the divisors of n, in increasing order, at
 *           index byte % (their number);
 *   byte 3  len (draw): byte % (n + 1), 0 asking the reader to infer it;
 *   byte 4  bit 0 format pbn, with the shape of a bridge deal (52 cards,
 *           4 hands) unless bit 2 keeps the shape of bytes 0-3; bit 1 a
 *           card order, the bytes of the input up to its first line feed
 *           (at most 63; the input is what follows).
 * Specs the reader refuses (one-based card names, card names for more
 * than 52 cards, a binary draw of 0 cards, pbn for anything but a bridge
 * deal, a card order that is not one or goes with a format of numbers)
 * are checked to be refused with a reason, and every other spec to be
 * accepted.
 *
 * The promises checked: a permutation holds each card once, a draw holds
 * len distinct cards below n, a deal maps every card to a hand below H
 * and every hand holds n / H cards; never more samples than asked; a
 * status of SB_OK or SB_EINVAL only (memory inputs have no I/O), and
 * SB_EINVAL sticky, with a message; every sample counted once, valid or
 * bad; a read that returns fewer than asked without an error has reached
 * the end; messages and the last line within their documented lengths.
 */
#ifndef SB_FUZZ_INPUT_CHECK_H
#define SB_FUZZ_INPUT_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"
#include "sources/input.h"

/* Which promise a case broke; 0 for none. */
enum {
    SB_FUZZ_OK = 0,
    SB_FUZZ_REFUSAL,      /* a spec refused without a reason, or wrongly */
    SB_FUZZ_SHAPE,        /* the settled shape is not the one asked */
    SB_FUZZ_STATUS,       /* a status a memory input cannot return */
    SB_FUZZ_TOO_MANY,     /* more samples than asked */
    SB_FUZZ_SAMPLE,       /* a sample that breaks its kind's promise */
    SB_FUZZ_COUNTS,       /* samples seen, valid and bad do not add up */
    SB_FUZZ_MESSAGE,      /* a missing or overlong message */
    SB_FUZZ_STICKY,       /* an error not repeated, or an end not kept */
    SB_FUZZ_NOMEM         /* the case could not allocate */
};

/* Whether 'order' (its own check, not the reader's) is a card order:
   four suits cdhs and thirteen ranks 23456789tjqka, each once, either
   case, separated by one colon. */
static inline int sb_fuzz_card_order_ok(const char *order)
{
    static const char suits[] = "cdhs", ranks[] = "23456789tjqka";
    unsigned seen_suit = 0, seen_rank = 0, n_suits = 0, n_ranks = 0;
    int colon = 0;
    for (const char *p = order; *p; p++) {
        char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
        if (c == ':' && !colon) {
            colon = 1;
            continue;
        }
        const char *set = colon ? ranks : suits;
        const char *at = strchr(set, c);
        if (!c || !at)
            return 0;
        unsigned *seen = colon ? &seen_rank : &seen_suit;
        const unsigned bit = 1u << (at - set);
        if (*seen & bit)
            return 0;
        *seen |= bit;
        ++*(colon ? &n_ranks : &n_suits);
    }
    return colon && n_suits == 4 && n_ranks == 13;
}

/* 0 when 's' (len values) keeps the promise of 'shape'. */
static inline int sb_fuzz_check_sample(const sb_shape *shape,
                                       const sb_card *s, unsigned char *seen,
                                       uint32_t *hand)
{
    memset(seen, 0, shape->n);
    if (shape->kind == SB_KIND_DEAL) {
        memset(hand, 0, shape->hands * sizeof *hand);
        for (size_t c = 0; c < shape->n; c++) {
            if (s[c] >= shape->hands)
                return 1;
            hand[s[c]]++;
        }
        for (unsigned h = 0; h < shape->hands; h++)
            if (hand[h] != shape->n / shape->hands)
                return 1;
        return 0;
    }
    for (size_t i = 0; i < shape->len; i++) {
        if (s[i] >= shape->n || seen[s[i]])
            return 1;
        seen[s[i]] = 1;
    }
    return 0;
}

static inline int sb_fuzz_input_one(const uint8_t *data, size_t size)
{
    if (size < 5)
        return SB_FUZZ_OK;
    static const size_t asks[4] = { 1, 3, 64, 1000 };
    static const sb_kind kinds[4] = {
        SB_KIND_PERMUTATION, SB_KIND_DRAW, SB_KIND_DEAL, SB_KIND_PERMUTATION
    };
    const size_t n = 1u + data[1] % 60u;
    unsigned divisors[60], n_div = 0;
    for (unsigned d = 1; d <= n; d++)
        if (n % d == 0)
            divisors[n_div++] = d;
    sb_input_spec spec = {
        .format = (sb_format)(data[0] & 3u),
        .shape = {
            .kind = kinds[(data[0] >> 2) & 3u],
            .n = n,
            .hands = divisors[data[2] % n_div],
        },
        .one_based = (data[0] >> 4) & 1u,
        .skip_invalid = (data[0] >> 5) & 1u,
    };
    if (spec.shape.kind == SB_KIND_DRAW)
        spec.shape.len = data[3] % (n + 1u);
    const size_t want = asks[data[0] >> 6];
    const uint8_t *body = data + 5;
    size_t body_size = size - 5;
    if (data[4] & 1u) {
        spec.format = SB_FORMAT_PBN;
        if (!(data[4] & 4u))
            spec.shape = (sb_shape){ .kind = SB_KIND_DEAL, .n = 52,
                                     .hands = 4 };
    }
    char order[64];
    if (data[4] & 2u) {
        const uint8_t *nl = memchr(body, '\n', body_size);
        size_t k = nl ? (size_t)(nl - body) : body_size;
        if (k >= sizeof order)
            k = sizeof order - 1;
        memcpy(order, body, k);
        order[k] = '\0';
        body += nl ? (size_t)(nl - body) + 1 : body_size;
        body_size = size - (size_t)(body - data);
        spec.card_order = order;
    }
    const sb_shape *sh = &spec.shape;
    const int names = spec.format == SB_FORMAT_CARDS ||
                      spec.format == SB_FORMAT_PBN;
    const int binary = spec.format == SB_FORMAT_U8 ||
                       spec.format == SB_FORMAT_U16;
    const int refused =
        (spec.format == SB_FORMAT_CARDS && (spec.one_based || sh->n > 52)) ||
        (spec.format == SB_FORMAT_PBN &&
         (spec.one_based || sh->kind != SB_KIND_DEAL || sh->n != 52 ||
          sh->hands != 4)) ||
        (spec.card_order && (!names ||
                             !sb_fuzz_card_order_ok(order))) ||
        (binary && sh->kind == SB_KIND_DRAW && sh->len == 0);

    sb_input *in;
    char err[SB_INPUT_MSG];
    err[0] = '\0';
    int rc = sb_input_open_mem(&in, &spec, body, body_size, err, sizeof err);
    if (rc == SB_ENOMEM)
        return SB_FUZZ_NOMEM;
    if (refused)
        return rc == SB_EINVAL && err[0] && !in ? SB_FUZZ_OK
                                                : SB_FUZZ_REFUSAL;
    if (rc != SB_OK)
        return SB_FUZZ_REFUSAL;

    int broke = SB_FUZZ_OK;
    sb_shape shape;
    rc = sb_input_shape(in, &shape);
    if (rc != SB_OK) {
        /* Only an inferred draw reads ahead, and only it can fail so. */
        if (rc != SB_EINVAL || spec.shape.len != 0 || !*sb_input_error(in))
            broke = SB_FUZZ_SHAPE;
        else if (sb_input_read(in, NULL, 0, &(size_t){ 0 }) != SB_EINVAL)
            broke = SB_FUZZ_STICKY;
        sb_input_close(in);
        return broke;
    }
    if (shape.kind != spec.shape.kind || shape.n != spec.shape.n ||
        shape.len == 0 || shape.len > shape.n ||
        (spec.shape.len && shape.len != spec.shape.len) ||
        (shape.kind != SB_KIND_DRAW && shape.len != shape.n) ||
        shape.hands != (shape.kind == SB_KIND_DEAL ? spec.shape.hands : 0)) {
        sb_input_close(in);
        return SB_FUZZ_SHAPE;
    }

    sb_card *out = malloc(want * shape.len * sizeof *out);
    unsigned char *seen = malloc(shape.n);
    uint32_t *hand = malloc(shape.n * sizeof *hand);
    if (!out || !seen || !hand) {
        broke = SB_FUZZ_NOMEM;
        goto done;
    }
    uint64_t valid = 0;
    for (;;) {
        size_t got = SIZE_MAX;
        rc = sb_input_read(in, out, want, &got);
        if (rc != SB_OK && rc != SB_EINVAL) {
            broke = SB_FUZZ_STATUS;
            break;
        }
        if (got > want) {
            broke = SB_FUZZ_TOO_MANY;
            break;
        }
        for (size_t i = 0; i < got && !broke; i++)
            if (sb_fuzz_check_sample(&shape, out + i * shape.len, seen, hand))
                broke = SB_FUZZ_SAMPLE;
        if (broke)
            break;
        valid += got;
        const uint64_t bad = sb_input_invalid(in);
        if (rc == SB_EINVAL) {
            size_t again = SIZE_MAX;
            const char *e = sb_input_error(in);
            /* Under skip_invalid only the give-up rule ends a read. */
            const uint64_t seen = sb_input_samples_seen(in);
            if (spec.skip_invalid
                ? bad <= SB_INPUT_GIVE_UP || seen != valid + bad
                  || bad <= valid
                : bad != 0 || seen != valid + 1)
                broke = SB_FUZZ_COUNTS;
            else if (!e[0] || strlen(e) >= SB_INPUT_MSG)
                broke = SB_FUZZ_MESSAGE;
            else if (sb_input_read(in, out, want, &again) != SB_EINVAL ||
                     again != 0)
                broke = SB_FUZZ_STICKY;
            break;
        }
        if (sb_input_samples_seen(in) != valid + bad ||
            (!spec.skip_invalid && bad != 0)) {
            broke = SB_FUZZ_COUNTS;
            break;
        }
        for (uint64_t i = 0; i < bad && i < SB_INPUT_LISTED && !broke; i++) {
            const char *m = sb_input_invalid_msg(in, (size_t)i);
            if (!m[0] || strlen(m) >= SB_INPUT_MSG)
                broke = SB_FUZZ_MESSAGE;
        }
        if (strlen(sb_input_last_line(in)) > 120 || sb_input_error(in)[0])
            broke = SB_FUZZ_MESSAGE;
        if (broke)
            break;
        if (got < want) {
            size_t again = SIZE_MAX;
            if (!sb_input_eof(in) ||
                sb_input_read(in, out, want, &again) != SB_OK || again != 0)
                broke = SB_FUZZ_STICKY;
            break;
        }
    }
done:
    free(out);
    free(seen);
    free(hand);
    sb_input_close(in);
    return broke;
}

#endif /* SB_FUZZ_INPUT_CHECK_H */
