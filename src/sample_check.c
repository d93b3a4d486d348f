/*
 * sample_check.c - the kind of a sample, checked (sample_check.h).
 *
 * The runner calls sb_sample_check on every sample of a plug-in, so the
 * common case is made cheap: a permutation or a draw of at most 64 cards
 * is one pass that ORs a bit per card into a word and keeps the largest
 * value, with no table to clear; a deal of at most 64 hands one pass over
 * a small table of counts.  Only when that pass finds a fault, or the deck
 * is larger, is the sample scanned again value by value, which also finds
 * the first fault in order for the message.
 */
#include "src/sample_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"

int sb_shape_check(const sb_shape *shape, char *why, size_t len)
{
    const size_t n = shape->n;
    if (shape->kind != SB_KIND_PERMUTATION && shape->kind != SB_KIND_DRAW
        && shape->kind != SB_KIND_DEAL) {
        snprintf(why, len, "declares kind %d, not permutation, draw or deal",
                 (int)shape->kind);
        return SB_EINVAL;
    }
    if (n == 0 || n > SB_DECK_MAX) {
        snprintf(why, len, "runs at n = %zu, outside 1..%u", n, SB_DECK_MAX);
        return SB_EINVAL;
    }
    if (shape->kind == SB_KIND_DRAW) {
        if (shape->len == 0 || shape->len > n) {
            snprintf(why, len, "declares draws of %zu cards (sample_len) at "
                     "n = %zu; a draw holds 1 to %zu cards", shape->len, n,
                     n);
            return SB_EINVAL;
        }
    } else if (shape->len != n) {
        snprintf(why, len, "declares samples of %zu values (sample_len) at "
                 "n = %zu; a %s has exactly %zu", shape->len, n,
                 sb_kind_str(shape->kind), n);
        return SB_EINVAL;
    }
    if (shape->kind == SB_KIND_DEAL) {
        if (shape->hands == 0 || shape->hands > n) {
            snprintf(why, len, "deals %u hands (hands()) at n = %zu; a deal "
                     "has 1 to %zu hands", shape->hands, n, n);
            return SB_EINVAL;
        }
        if (n % shape->hands != 0) {
            snprintf(why, len, "deals %u hands (hands()) of %zu cards, which "
                     "they cannot share equally", shape->hands, n);
            return SB_EINVAL;
        }
    }
    if (len)
        why[0] = '\0';
    return SB_OK;
}

/* Append ": v0 v1 ..." to the message in 'why', as much as fits. */
static void append_values(const sb_card *s, size_t count, char *why,
                          size_t len)
{
    size_t used = strlen(why);
    /* Room kept for " ..." and its end. */
    const size_t tail = 5;
    for (size_t i = 0; i < count; i++) {
        char v[12];
        const int w = snprintf(v, sizeof v, "%s%u", i ? " " : ": ",
                               (unsigned)s[i]);
        const int last = i + 1 == count;
        if (used + (size_t)w + (last ? 0 : tail) >= len) {
            if (used + tail <= len)
                snprintf(why + used, len - used, " ...");
            return;
        }
        memcpy(why + used, v, (size_t)w + 1);
        used += (size_t)w;
    }
}

/* The fault, already in 'why', followed by the sample. */
static int fault(const sb_card *s, size_t count, char *why, size_t len)
{
    if (len)
        append_values(s, count, why, len);
    return SB_EINVAL;
}

/* A permutation or a draw, value by value: the first value out of range
   or seen before.  Any size. */
static int cards_slow(const sb_shape *shape, const sb_card *s, char *why,
                      size_t len)
{
    uint64_t seen[(SB_DECK_MAX + 64) / 64];
    const size_t n = shape->n;
    memset(seen, 0, ((n + 63) / 64) * sizeof seen[0]);
    for (size_t i = 0; i < shape->len; i++) {
        const unsigned v = s[i];
        if (v >= n) {
            snprintf(why, len, "card %u is out of range 0..%zu", v, n - 1);
            return fault(s, shape->len, why, len);
        }
        const uint64_t bit = (uint64_t)1 << (v % 64);
        if (seen[v / 64] & bit) {
            snprintf(why, len, "card %u appears twice", v);
            return fault(s, shape->len, why, len);
        }
        seen[v / 64] |= bit;
    }
    if (len)
        why[0] = '\0';
    return SB_OK;
}

/* A deal, value by value: the first hand out of range, then the first
   hand of the wrong size.  'count' has room for shape->hands counts. */
static int deal_counts(const sb_shape *shape, const sb_card *s,
                       uint16_t *count, char *why, size_t len)
{
    const unsigned H = shape->hands;
    const size_t size = shape->n / H;
    memset(count, 0, H * sizeof *count);
    for (size_t i = 0; i < shape->n; i++) {
        if (s[i] >= H) {
            snprintf(why, len, "hand %u is out of range 0..%u",
                     (unsigned)s[i], H - 1);
            return fault(s, shape->n, why, len);
        }
        count[s[i]]++;
    }
    for (unsigned h = 0; h < H; h++)
        if (count[h] != size) {
            snprintf(why, len, "hand %u holds %u cards, %zu expected", h,
                     (unsigned)count[h], size);
            return fault(s, shape->n, why, len);
        }
    if (len)
        why[0] = '\0';
    return SB_OK;
}

/* Decks of more than this many hands count them in a table of every
   possible hand, kept apart so that the common call does not reserve it
   on its stack. */
#define SMALL_HANDS 64u

static __attribute__((noinline)) int deal_large(const sb_shape *shape,
                                                const sb_card *s, char *why,
                                                size_t len)
{
    uint16_t count[SB_DECK_MAX];
    return deal_counts(shape, s, count, why, len);
}

int sb_sample_check(const sb_shape *shape, const sb_card *s, char *why,
                    size_t len)
{
    if (shape->kind == SB_KIND_DEAL) {
        if (shape->hands > SMALL_HANDS)
            return deal_large(shape, s, why, len);
        uint16_t count[SMALL_HANDS];
        return deal_counts(shape, s, count, why, len);
    }
    const size_t n = shape->n;
    if (n <= 64) {
        /* Every value below n and as many distinct bits as values: no
           card twice, none out of range.  The shift is by v % 64 so that
           an out-of-range value is never an undefined shift; the largest
           value catches it. */
        uint64_t bits = 0;
        unsigned top = 0;
        for (size_t i = 0; i < shape->len; i++) {
            const unsigned v = s[i];
            bits |= (uint64_t)1 << (v % 64);
            top = v > top ? v : top;
        }
        if (top < n && (size_t)__builtin_popcountll(bits) == shape->len) {
            if (len)
                why[0] = '\0';
            return SB_OK;
        }
    }
    return cards_slow(shape, s, why, len);
}

/* A plug-in that writes past its sample writes cards or hands, small
   numbers; four of them in a row equal to this pattern would take a
   plug-in bent on it. */
static const sb_card guard[SB_SAMPLE_GUARD] = { 0xfeed, 0xc0de, 0xface,
                                                0xbead };

void sb_sample_guard_set(sb_card *g)
{
    memcpy(g, guard, sizeof guard);
}

int sb_sample_guard_intact(const sb_card *g)
{
    return memcmp(g, guard, sizeof guard) == 0;
}
