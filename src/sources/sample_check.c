/*
 * sample_check.c - the kind of a sample, checked (sample_check.h).
 *
 * The runner calls sb_sample_check on every sample of a plug-in, so the
 * common case is made cheap: a permutation or a draw of at most 64 cards
 * is one pass that ORs a bit per card into a word (8 cards at a time with
 * AVX2, where the processor has it), with no table to clear; a deal of at
 * most 64 hands one pass over a small table of counts.  Only when that pass finds a fault, or the deck
 * is larger, is the sample scanned again value by value, which also finds
 * the first fault in order for the message.
 */
#include "sources/sample_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SB_CHECK_AVX2 1
#endif

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

/* The cards of a sample of at most 64 cards as a word of bits, bit v set
   for every value v < 64 (larger ones set nothing).  A sample of len
   values below n with no card twice is exactly one whose word has len
   bits, none at n or above. */
static uint64_t card_bits(const sb_card *s, size_t len)
{
    uint64_t bits = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] < 64)
            bits |= (uint64_t)1 << s[i];
    return bits;
}

#ifdef SB_CHECK_AVX2
/* card_bits with AVX2, 8 cards at a time: each card v is widened to 32
   bits and shifted into 1 << v (which is 0 for v >= 32) in one vector and
   1 << (v ^ 32) (v - 32 for v in 32..63, else a count of 32 or more,
   hence 0) in another; the two vectors are ORed over the sample, then
   across their lanes.  A sample whose length is not a multiple of 8 ends
   with 8 cards that overlap the ones before, which ORs no bit twice.  The
   scalar loop takes about 2 cycles a card; this a quarter of that, which
   keeps the check of a 52-card sample within a few nanoseconds. */
__attribute__((target("avx2,popcnt")))
static uint64_t card_bits_avx2(const sb_card *s, size_t len)
{
    const __m256i one = _mm256_set1_epi32(1), flip = _mm256_set1_epi32(32);
    __m256i lo = _mm256_setzero_si256(), hi = _mm256_setzero_si256();
    for (size_t i = 0;; i += 8) {
        if (i + 8 > len)
            i = len - 8;
        const __m256i v = _mm256_cvtepu16_epi32(
            _mm_loadu_si128((const __m128i *)(const void *)(s + i)));
        lo = _mm256_or_si256(lo, _mm256_sllv_epi32(one, v));
        hi = _mm256_or_si256(hi, _mm256_sllv_epi32(
                                     one, _mm256_xor_si256(v, flip)));
        if (i + 8 >= len)
            break;
    }
    /* Lanes 0..7 of lo, then of hi, into one 64-bit word: the lo words
       as the low halves, the hi words as the high halves. */
    __m256i w = _mm256_or_si256(_mm256_unpacklo_epi32(lo, hi),
                                _mm256_unpackhi_epi32(lo, hi));
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(w),
                             _mm256_extracti128_si256(w, 1));
    x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    return (uint64_t)_mm_cvtsi128_si64(x);
}

/* small_ok with the AVX2 card_bits and the processor's popcount. */
__attribute__((target("avx2,popcnt")))
static int small_ok_avx2(const sb_card *s, size_t len, size_t n)
{
    const uint64_t bits = card_bits_avx2(s, len);
    const uint64_t above = n == 64 ? 0 : ~(uint64_t)0 << n;
    return !(bits & above) && (size_t)__builtin_popcountll(bits) == len;
}

/* card_bits_avx2 with AVX-512: 16 cards at a time. */
__attribute__((target("avx512f,popcnt")))
static uint64_t card_bits_avx512(const sb_card *s, size_t len)
{
    const __m512i one = _mm512_set1_epi32(1), flip = _mm512_set1_epi32(32);
    __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();
    for (size_t i = 0;; i += 16) {
        if (i + 16 > len)
            i = len - 16;
        const __m512i v = _mm512_cvtepu16_epi32(
            _mm256_loadu_si256((const __m256i *)(const void *)(s + i)));
        lo = _mm512_or_si512(lo, _mm512_sllv_epi32(one, v));
        hi = _mm512_or_si512(hi, _mm512_sllv_epi32(
                                     one, _mm512_xor_si512(v, flip)));
        if (i + 16 >= len)
            break;
    }
    const __m512i w = _mm512_or_si512(_mm512_unpacklo_epi32(lo, hi),
                                      _mm512_unpackhi_epi32(lo, hi));
    return (uint64_t)_mm512_reduce_or_epi64(w);
}

/* card_bits_avx512 for samples of at least 32 cards: 32 at a time, read
   as 16 pairs of cards in 32-bit lanes (the low card and the high one
   shifted into place separately), the four shifts ORed in two steps.
   Returns the 8 words whose OR is the sample's word, so that two
   samples can share the last steps (first_bad_avx512). */
__attribute__((target("avx512f,popcnt")))
static inline __m512i card_words_avx512_32(const sb_card *s, size_t len)
{
    const __m512i one = _mm512_set1_epi32(1), flip = _mm512_set1_epi32(32);
    const __m512i low = _mm512_set1_epi32(0xffff);
    __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();
    for (size_t i = 0;; i += 32) {
        if (i + 32 > len)
            i = len - 32;
        const __m512i x = _mm512_loadu_si512((const void *)(s + i));
        const __m512i a = _mm512_and_si512(x, low);
        const __m512i b = _mm512_srli_epi32(x, 16);
        /* 0xfe: the OR of the three operands. */
        lo = _mm512_ternarylogic_epi32(lo, _mm512_sllv_epi32(one, a),
                                       _mm512_sllv_epi32(one, b), 0xfe);
        hi = _mm512_ternarylogic_epi32(
            hi, _mm512_sllv_epi32(one, _mm512_xor_si512(a, flip)),
            _mm512_sllv_epi32(one, _mm512_xor_si512(b, flip)), 0xfe);
        if (i + 32 >= len)
            break;
    }
    return _mm512_or_si512(_mm512_unpacklo_epi32(lo, hi),
                           _mm512_unpackhi_epi32(lo, hi));
}

/* first_bad_avx2 with AVX-512, for samples of at least 16 cards. */
__attribute__((target("avx512f,popcnt")))
static size_t first_bad_avx512(const sb_card *s, size_t count, size_t len,
                               size_t n)
{
    const uint64_t above = n == 64 ? 0 : ~(uint64_t)0 << n;
    size_t k = 0;
    if (len >= 32)
        /* Two samples at a time: their words reduced together, sample
           k in the low word of each 128-bit lane, k + 1 in the high. */
        for (; k + 2 <= count; k += 2, s += 2 * len) {
            const __m512i wa = card_words_avx512_32(s, len);
            const __m512i wb = card_words_avx512_32(s + len, len);
            const __m512i u = _mm512_or_si512(_mm512_unpacklo_epi64(wa, wb),
                                              _mm512_unpackhi_epi64(wa, wb));
            const __m256i v = _mm256_or_si256(
                _mm512_castsi512_si256(u), _mm512_extracti64x4_epi64(u, 1));
            const __m128i x = _mm_or_si128(_mm256_castsi256_si128(v),
                                           _mm256_extracti128_si256(v, 1));
            const uint64_t a = (uint64_t)_mm_cvtsi128_si64(x);
            const uint64_t b = (uint64_t)_mm_extract_epi64(x, 1);
            if ((a & above) || (size_t)__builtin_popcountll(a) != len)
                return k;
            if ((b & above) || (size_t)__builtin_popcountll(b) != len)
                return k + 1;
        }
    for (; k < count; k++, s += len) {
        const uint64_t bits = len >= 32
            ? (uint64_t)_mm512_reduce_or_epi64(card_words_avx512_32(s, len))
            : card_bits_avx512(s, len);
        if ((bits & above) || (size_t)__builtin_popcountll(bits) != len)
            return k;
    }
    return count;
}

/* The first of 'count' samples of len values that small_ok refuses, or
   count: one call for a whole block, the loop inlined. */
__attribute__((target("avx2,popcnt")))
static size_t first_bad_avx2(const sb_card *s, size_t count, size_t len,
                             size_t n)
{
    const uint64_t above = n == 64 ? 0 : ~(uint64_t)0 << n;
    for (size_t k = 0; k < count; k++, s += len) {
        const uint64_t bits = card_bits_avx2(s, len);
        if ((bits & above) || (size_t)__builtin_popcountll(bits) != len)
            return k;
    }
    return count;
}
#endif

/* Whether the len values at 's' are distinct cards below n <= 64. */
static int small_ok(const sb_card *s, size_t len, size_t n)
{
    const uint64_t bits = card_bits(s, len);
    const uint64_t above = n == 64 ? 0 : ~(uint64_t)0 << n;
    return !(bits & above) && (size_t)__builtin_popcountll(bits) == len;
}

static __attribute__((noinline)) int deal_small(const sb_shape *shape,
                                                const sb_card *s, char *why,
                                                size_t len)
{
    uint16_t count[SMALL_HANDS];
    return deal_counts(shape, s, count, why, len);
}

int sb_sample_check(const sb_shape *shape, const sb_card *s, char *why,
                    size_t len)
{
    if (shape->kind == SB_KIND_DEAL)
        return shape->hands > SMALL_HANDS ? deal_large(shape, s, why, len)
                                          : deal_small(shape, s, why, len);
    const size_t n = shape->n;
    if (n <= 64) {
        /* As many bits as values and none at n or above: no card twice,
           none out of range (a value of 64 or more sets no bit, so it
           leaves a bit short). */
#ifdef SB_CHECK_AVX2
        const int ok = shape->len >= 8 && __builtin_cpu_supports("avx2")
                     ? small_ok_avx2(s, shape->len, n)
                     : small_ok(s, shape->len, n);
#else
        const int ok = small_ok(s, shape->len, n);
#endif
        if (ok) {
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

int sb_samples_check(const sb_shape *shape, const sb_card *s, size_t count,
                     size_t *bad, char *why, size_t len)
{
    size_t k = 0;
#ifdef SB_CHECK_AVX2
    if (shape->kind != SB_KIND_DEAL && shape->n <= 64 && shape->len >= 16
        && __builtin_cpu_supports("avx512f"))
        k = first_bad_avx512(s, count, shape->len, shape->n);
    else if (shape->kind != SB_KIND_DEAL && shape->n <= 64
             && shape->len >= 8 && __builtin_cpu_supports("avx2"))
        k = first_bad_avx2(s, count, shape->len, shape->n);
#endif
    /* From the first sample the fast loop refused (or from the start):
       one by one, which also words the fault. */
    for (; k < count; k++)
        if (sb_sample_check(shape, s + k * shape->len, why, len) != SB_OK) {
            *bad = k;
            return SB_EINVAL;
        }
    if (len)
        why[0] = '\0';
    return SB_OK;
}
