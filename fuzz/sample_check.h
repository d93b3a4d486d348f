/*
 * sample_check.h - one fuzz case for the check of a plug-in's samples
 * (fuzz target "sample", src/sources/sample_check.c): what stands between code
 * from outside and the statistics' tables.
 *
 * A case is a shape and a block of samples as a plug-in could write them:
 *   byte 0     the kind: 0 permutation, 1 draw, 2 deal; any other byte
 *              is taken as it is, a kind that does not exist unless it
 *              happens to equal one of theirs
 *   bytes 1-2  n, little-endian, 0..65535 (0 must be refused)
 *   bytes 3-4  a draw's length or a deal's hands, little-endian
 *   the rest   values, 16 bits little-endian each, filling as many whole
 *              samples as they make (at most SB_FUZZ_SAMPLE_MAX)
 * Small values are where the faults are, so a value's top bit chooses:
 * set, the value is taken modulo n + 2 (just in and just out of range);
 * clear, it is taken as it is.
 *
 * The promises checked, each against a plain reference computed here,
 * independently of src/sources/sample_check.c:
 *   - sb_shape_check accepts exactly the shapes the reference accepts,
 *     and says why when it refuses;
 *   - sb_sample_check accepts exactly the samples the reference accepts,
 *     and its message is a terminated string within its buffer, even a
 *     short one;
 *   - sb_samples_check over the block names the first bad sample the
 *     reference finds, or none;
 *   - the guard words read as intact after sb_sample_guard_set, and as
 *     touched after any one of their bits is flipped.
 * AddressSanitizer and UndefinedBehaviorSanitizer catch the rest.
 */
#ifndef SB_FUZZ_SAMPLE_CHECK_H
#define SB_FUZZ_SAMPLE_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"
#include "sources/sample_check.h"

/* The most samples one case holds. */
#define SB_FUZZ_SAMPLE_MAX 64u

/* Which promise a case broke; 0 for none. */
enum {
    SB_FUZZ_SAMPLE_OK = 0,
    SB_FUZZ_SAMPLE_SHAPE,     /* shape accepted or refused against the
                                 reference, or refused without a reason */
    SB_FUZZ_SAMPLE_ONE,       /* a sample judged against the reference */
    SB_FUZZ_SAMPLE_MESSAGE,   /* a refusal without a terminated message */
    SB_FUZZ_SAMPLE_BLOCK,     /* the block check names another sample */
    SB_FUZZ_SAMPLE_GUARD,     /* the guard words misread */
    SB_FUZZ_SAMPLE_MEMORY     /* the case could not be set up */
};

static inline unsigned sb_fuzz_sample_u16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* The reference shape check: the kinds' definitions (shuffle.h), and a
   deal whose hands all hold the same number of cards. */
static inline int sb_fuzz_sample_shape_ok(const sb_shape *s)
{
    if (s->n < 1 || s->n > SB_DECK_MAX)
        return 0;
    switch (s->kind) {
    case SB_KIND_PERMUTATION:
        return s->len == s->n;
    case SB_KIND_DRAW:
        return s->len >= 1 && s->len <= s->n;
    case SB_KIND_DEAL:
        return s->len == s->n && s->hands >= 1 && s->hands <= s->n
               && s->n % s->hands == 0;
    }
    return 0;
}

/* The reference sample check, by counting: every value below its bound,
   no card twice (permutation, draw), every hand holding n / hands cards
   (deal).  'seen' has room for n counts. */
static inline int sb_fuzz_sample_ok(const sb_shape *s, const sb_card *v,
                                    unsigned *seen)
{
    const size_t bound = s->kind == SB_KIND_DEAL ? s->hands : s->n;
    memset(seen, 0, bound * sizeof *seen);
    for (size_t i = 0; i < s->len; i++) {
        if (v[i] >= bound)
            return 0;
        seen[v[i]]++;
    }
    for (size_t c = 0; c < bound; c++)
        if (s->kind == SB_KIND_DEAL ? seen[c] != s->n / s->hands
                                    : seen[c] > 1)
            return 0;
    return 1;
}

static inline int sb_fuzz_sample_one(const uint8_t *data, size_t size)
{
    if (size < 5)
        return SB_FUZZ_SAMPLE_OK;
    static const sb_kind kinds[3] = { SB_KIND_PERMUTATION, SB_KIND_DRAW,
                                      SB_KIND_DEAL };
    sb_shape shape = { .kind = data[0] < 3 ? kinds[data[0]]
                                           : (sb_kind)data[0],
                       .n = sb_fuzz_sample_u16(data + 1) };
    const unsigned extra = sb_fuzz_sample_u16(data + 3);
    shape.len = shape.kind == SB_KIND_DRAW ? extra : shape.n;
    shape.hands = shape.kind == SB_KIND_DEAL ? extra : 0;
    char why[96];
    why[0] = '\0';
    const int shape_ok = sb_shape_check(&shape, why, sizeof why) == SB_OK;
    if (shape_ok != sb_fuzz_sample_shape_ok(&shape)
        || (!shape_ok && !why[0]))
        return SB_FUZZ_SAMPLE_SHAPE;
    if (!shape_ok || shape.len == 0)
        return SB_FUZZ_SAMPLE_OK;

    const uint8_t *p = data + 5;
    size_t count = (size - 5) / 2 / shape.len;
    if (count > SB_FUZZ_SAMPLE_MAX)
        count = SB_FUZZ_SAMPLE_MAX;
    if (count == 0)
        return SB_FUZZ_SAMPLE_OK;
    sb_card *v = malloc((count * shape.len + SB_SAMPLE_GUARD) * sizeof *v);
    unsigned *seen = malloc(shape.n * sizeof *seen);
    if (!v || !seen) {
        free(v);
        free(seen);
        return SB_FUZZ_SAMPLE_MEMORY;
    }
    for (size_t i = 0; i < count * shape.len; i++) {
        const unsigned w = sb_fuzz_sample_u16(p + 2 * i);
        v[i] = (sb_card)(w & 0x8000u ? (w & 0x7fffu) % (shape.n + 2) : w);
    }

    int broken = SB_FUZZ_SAMPLE_OK;
    size_t first_bad = count;
    for (size_t k = 0; k < count && !broken; k++) {
        const sb_card *s = v + k * shape.len;
        const int ok = sb_fuzz_sample_ok(&shape, s, seen);
        if (!ok && first_bad == count)
            first_bad = k;
        /* A short buffer too: the message is cut, never overrun. */
        char small[12];
        memset(why, 0x55, sizeof why);
        memset(small, 0x55, sizeof small);
        const int rc = sb_sample_check(&shape, s, why, sizeof why);
        const int rc_small = sb_sample_check(&shape, s, small, sizeof small);
        if ((rc == SB_OK) != ok || (rc_small == SB_OK) != ok)
            broken = SB_FUZZ_SAMPLE_ONE;
        else if (!ok && (!memchr(why, '\0', sizeof why) || !why[0]
                         || !memchr(small, '\0', sizeof small)))
            broken = SB_FUZZ_SAMPLE_MESSAGE;
    }
    if (!broken) {
        size_t bad = count;
        const int rc = sb_samples_check(&shape, v, count, &bad, why,
                                        sizeof why);
        if ((rc == SB_OK) != (first_bad == count)
            || (rc != SB_OK && bad != first_bad))
            broken = SB_FUZZ_SAMPLE_BLOCK;
    }
    if (!broken) {
        sb_card *g = v + count * shape.len;
        sb_sample_guard_set(g);
        const unsigned bit = data[0] * 31u + (unsigned)size;
        if (!sb_sample_guard_intact(g))
            broken = SB_FUZZ_SAMPLE_GUARD;
        g[bit / 16 % SB_SAMPLE_GUARD] ^= (sb_card)(1u << bit % 16);
        if (!broken && sb_sample_guard_intact(g))
            broken = SB_FUZZ_SAMPLE_GUARD;
    }
    free(v);
    free(seen);
    return broken;
}

#endif /* SB_FUZZ_SAMPLE_CHECK_H */
