/*
 * saved.h - an accumulator as 64-bit words, for state files.
 *
 * A run of billions of samples must survive an interruption and be merged
 * with runs made on other machines, so every statistic can copy its
 * counts out ('save') and put them back into a fresh accumulator ('load',
 * include/shufflebias/stat.h).  This header holds what every statistic
 * shares, so that each one's pair is a few lines:
 *
 *   a) a key in front of the counts: word 0 is a 64-bit FNV-1a hash
 *      (Fowler, Noll and Vo; the parameters of the IETF draft
 *      draft-eastlake-fnv) of the statistic's name, the layout version
 *      SB_SAVED_VERSION and the shape the counts were made for.  The words
 *      come from a file, which may be truncated, from another statistic or
 *      from another shape that happens to need as many counts (4 hands x
 *      39 patterns of a deal and of a permutation read as 4 hands): such
 *      words are refused instead of being read as counts;
 *   b) the check of the length: the shape comes from 'alloc', never from
 *      the words, so the number of words is known before reading any;
 *   c) sums that cannot overflow, and the ties of tables with fixed
 *      margins (every row of a position matrix sums to the samples):
 *      counts that no run can have made are refused rather than turned
 *      into a p-value.
 *
 * 'load' is given an accumulator that 'alloc' has just made, and a refused
 * load leaves it empty: the statistics check every word before they write
 * anything ('collisions' meets a repeated fingerprint only as it inserts,
 * and then empties its table again).  'load' replaces the counts; adding
 * them to others is the job of 'merge', after loading into a fresh
 * accumulator.
 *
 * Everything is static inline: no state, nothing printed.
 */
#ifndef SB_STATS_SAVED_H
#define SB_STATS_SAVED_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "shufflebias/stat.h"
#include "shufflebias/status.h"

/* The layout of the words; raise it when any statistic's layout changes,
   so that older files are refused rather than misread. */
#define SB_SAVED_VERSION 1u

/* FNV-1a over the 8 bytes of 'x', least significant first (so the key
   does not depend on the machine's byte order). */
static inline uint64_t sb_saved_mix(uint64_t h, uint64_t x)
{
    for (int i = 0; i < 8; i++, x >>= 8) {
        h ^= x & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Word 0 of a saved accumulator of statistic 'name' for samples of
   'kind', 'n' cards, 'len' values each and 'hands' hands (0 when the
   statistic does not read it). */
static inline uint64_t sb_saved_key(const char *name, sb_kind kind, size_t n,
                                    size_t len, unsigned hands)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ull;
    }
    h = sb_saved_mix(h, SB_SAVED_VERSION);
    h = sb_saved_mix(h, (uint64_t)kind);
    h = sb_saved_mix(h, (uint64_t)n);
    h = sb_saved_mix(h, (uint64_t)len);
    return sb_saved_mix(h, (uint64_t)hands);
}

/* Allocate the key and 'body' words after it: *words (released with
   free) and *count = 1 + body; *out points at the body.  Returns SB_OK or
   SB_ENOMEM (nothing allocated). */
static inline int sb_saved_alloc(uint64_t key, size_t body, uint64_t **words,
                                 size_t *count, uint64_t **out)
{
    *words = NULL;
    *count = 0;
    if (body > SIZE_MAX / sizeof(uint64_t) - 1)
        return SB_ENOMEM;
    uint64_t *w = malloc((1 + body) * sizeof *w);
    if (w == NULL)
        return SB_ENOMEM;
    w[0] = key;
    *words = w;
    *count = 1 + body;
    *out = w + 1;
    return SB_OK;
}

/* Save the key and the 'k' counts 'counts'. */
static inline int sb_saved_counts(uint64_t key, const uint64_t *counts,
                                  size_t k, uint64_t **words, size_t *count)
{
    uint64_t *body;
    int st = sb_saved_alloc(key, k, words, count, &body);
    if (st == SB_OK && k > 0)
        memcpy(body, counts, k * sizeof *counts);
    return st;
}

/* The 'body' words after the key, when 'words' holds exactly the key and
   'body' words; else NULL (the caller answers SB_EINVAL). */
static inline const uint64_t *sb_saved_body(const uint64_t *words,
                                            size_t count, uint64_t key,
                                            size_t body)
{
    if (words == NULL || body > SIZE_MAX - 1 || count != 1 + body
        || words[0] != key)
        return NULL;
    return words + 1;
}

/* *sum = v[0] + v[step] + ... (k values).  Returns 0 when the sum does
   not fit 64 bits: every count of a statistic is bounded by the samples,
   a 64-bit number. */
static inline int sb_saved_sum(const uint64_t *v, size_t k, size_t step,
                               uint64_t *sum)
{
    uint64_t s = 0;
    for (size_t i = 0; i < k; i++) {
        if (v[i * step] > UINT64_MAX - s)
            return 0;
        s += v[i * step];
    }
    *sum = s;
    return 1;
}

/* The 'k' counts of a histogram after the key, when the words hold
   exactly those and their total fits 64 bits (it is the samples); else
   NULL. */
static inline const uint64_t *sb_saved_histogram(const uint64_t *words,
                                                 size_t count, uint64_t key,
                                                 size_t k)
{
    const uint64_t *c = sb_saved_body(words, count, key, k);
    uint64_t total;
    return c != NULL && sb_saved_sum(c, k, 1, &total) ? c : NULL;
}

/* Whether the 'lines' lines of a table all have the same sum, line i being
   the 'cells' values v[i * line_step + j * cell_step]; that sum in *total
   (0 for no lines).  Returns 0 when two lines differ or a sum overflows. */
static inline int sb_saved_lines_equal(const uint64_t *v, size_t lines,
                                       size_t line_step, size_t cells,
                                       size_t cell_step, uint64_t *total)
{
    uint64_t first = 0;
    for (size_t i = 0; i < lines; i++) {
        uint64_t s;
        if (!sb_saved_sum(v + i * line_step, cells, cell_step, &s)
            || (i > 0 && s != first))
            return 0;
        first = s;
    }
    *total = first;
    return 1;
}

#endif /* SB_STATS_SAVED_H */
