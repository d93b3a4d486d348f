/*
 * paths.c - the enumerating source (paths.h).
 */
#include "engine/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "shufflebias/status.h"


/* Take branch 'choice' of 'radix' at the current depth, with weight
   wnum/wden (wden == 0 means 1/radix).  Returns the branch. */
static uint64_t branch(sb_src *src, uint64_t radix, uint64_t wnum,
                       uint64_t wden, const uint64_t *w)
{
    sb_walk *k = src->impl;
    const size_t d = k->depth++;
    if (d >= k->max_depth) {
        /* Left at once: an algorithm that retries until some draw comes
           out right would otherwise loop forever on the answers a cut
           path would have to make up. */
        k->cut = 1;
        k->depth = k->max_depth;
        longjmp(k->abandon, 1);
    }
    if (d == k->len) {
        k->choice[d] = 0;
        k->radix[d] = radix;
        k->len++;
    } else if (k->radix[d] != radix) {
        k->status = SB_EINVAL;
        k->why = "the algorithm drew differently on the same path of draws";
        longjmp(k->abandon, 1);
    }
    const uint64_t c = k->choice[d];
    if (w) {
        wnum = w[c];
        if (wnum == 0)
            k->dead = 1;
    }
    if (d >= k->valid) {
        mpz_mul_ui(k->num[d + 1], k->num[d], wden ? wnum : 1);
        mpz_mul_ui(k->den[d + 1], k->den[d], wden ? wden : radix);
        k->valid = d + 1;
    }
    return c;
}

static uint64_t e_below(sb_src *src, uint64_t n)
{
    return n <= 1 ? 0 : branch(src, n, 0, 0, NULL);
}

static uint64_t e_bits(sb_src *src, unsigned k)
{
    sb_walk *w = src->impl;
    if (k == 0)
        return 0;
    if (k > 63) {
        w->status = SB_ENOTSUP;
        w->why = "a draw of 64 random bits has too many branches to walk";
        longjmp(w->abandon, 1);
    }
    return branch(src, (uint64_t)1 << k, 0, 0, NULL);
}

static size_t e_weighted(sb_src *src, const uint64_t *w, size_t m)
{
    uint64_t total = 0;
    for (size_t i = 0; i < m; i++)
        total += w[i];
    return (size_t)branch(src, m, 0, total, w);
}

static double e_unit(sb_src *src)
{
    sb_walk *w = src->impl;
    w->status = SB_ENOTSUP;
    w->why = "it draws a uniform real number (unit()), which has no finite "
             "set of branches";
    longjmp(w->abandon, 1);
}

/* rand() % k: the k residues with their weights, never the 2^bits
   values of rand() that sampling draws. */
static const sb_src_ops enum_ops = { e_below, e_bits, e_weighted, e_unit,
                                     NULL, sb_rand_mod_weighted };

int sb_walk_advance(sb_walk *k)
{
    while (k->len > 0 && k->choice[k->len - 1] + 1 == k->radix[k->len - 1])
        k->len--;
    if (k->len == 0) {
        k->valid = 0;
        return 0;
    }
    k->choice[k->len - 1]++;
    if (k->valid > k->len - 1)
        k->valid = k->len - 1;
    return 1;
}

int sb_walk_init(sb_walk *k, size_t max_depth)
{
    memset(k, 0, sizeof *k);
    k->max_depth = max_depth;
    k->choice = malloc(max_depth * sizeof *k->choice);
    k->radix = malloc(max_depth * sizeof *k->radix);
    k->num = malloc((max_depth + 1) * sizeof *k->num);
    k->den = malloc((max_depth + 1) * sizeof *k->den);
    if (!k->choice || !k->radix || !k->num || !k->den)
        return SB_ENOMEM;
    for (size_t d = 0; d <= max_depth; d++) {
        mpz_init_set_ui(k->num[d], 1);
        mpz_init_set_ui(k->den[d], 1);
    }
    return SB_OK;
}

void sb_walk_free(sb_walk *k)
{
    if (k->num && k->den)
        for (size_t d = 0; d <= k->max_depth; d++) {
            mpz_clear(k->num[d]);
            mpz_clear(k->den[d]);
        }
    free(k->num);
    free(k->den);
    free(k->choice);
    free(k->radix);
}

void sb_walk_start(sb_walk *k)
{
    k->depth = 0;
    k->run_status = SB_OK;
    k->cut = k->dead = 0;
}

sb_src sb_walk_src(sb_walk *k)
{
    sb_src src = { .ops = &enum_ops, .impl = k };
    return src;
}

void sb_walk_draws(const sb_walk *k, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (k->len == 0) {
        snprintf(buf, len, "(no draw)");
        return;
    }
    for (size_t d = 0; d < k->len; d++) {
        const int w = snprintf(buf + used, len - used, "%s%llu/%llu",
                               d ? " " : "",
                               (unsigned long long)k->choice[d],
                               (unsigned long long)k->radix[d]);
        if (w < 0 || used + (size_t)w + 5 >= len) {
            snprintf(buf + used, len - used, " ...");
            return;
        }
        used += (size_t)w;
    }
}

