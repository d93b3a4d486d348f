/*
 * histogram.c - the accumulator, state words and test shared by the
 * statistics that count one whole number per deck (stats/histogram.h).
 */
#include "stats/histogram.h"

#include <stdlib.h>
#include <string.h>
#include "shufflebias/status.h"
#include "stats/gof.h"
#include "stats/memory.h"
#include "stats/saved.h"

/* Scratch space starts on an 8-byte boundary after the counts, whatever
   the statistic keeps in it. */
static size_t round8(size_t bytes)
{
    return (bytes + 7) / 8 * 8;
}

int sb_hist_alloc(void **acc, const sb_shape *shape, const char *name,
                  size_t n_max, size_t k, size_t scratch)
{
    *acc = NULL;
    if (shape->kind != SB_KIND_PERMUTATION || shape->len != shape->n
        || shape->n < 1 || shape->n > n_max || k == 0)
        return SB_EINVAL;
    sb_hist *h = calloc(1, sizeof *h + k * sizeof(uint64_t)
                           + round8(scratch));
    if (h == NULL)
        return SB_ENOMEM;
    h->name = name;
    h->n = shape->n;
    h->k = k;
    h->impossible = SB_HIST_NONE;
    h->scratch = scratch ? (void *)(h->counts + k) : NULL;
    *acc = h;
    return SB_OK;
}

int sb_hist_merge(void *into, const void *from)
{
    sb_hist *a = into;
    const sb_hist *b = from;
    if (a->n != b->n || a->k != b->k || strcmp(a->name, b->name) != 0)
        return SB_EINVAL;
    for (size_t v = 0; v < a->k; v++)
        a->counts[v] += b->counts[v];
    return SB_OK;
}

void sb_hist_free(void *acc)
{
    free(acc);
}

static uint64_t hist_key(const sb_hist *h)
{
    return sb_saved_key(h->name, SB_KIND_PERMUTATION, h->n, h->n, 0);
}

int sb_hist_save(const void *acc, uint64_t **words, size_t *count)
{
    const sb_hist *h = acc;
    return sb_saved_counts(hist_key(h), h->counts, h->k, words, count);
}

int sb_hist_load(void *acc, const uint64_t *words, size_t count)
{
    sb_hist *h = acc;
    const uint64_t *c = sb_saved_histogram(words, count, hist_key(h), h->k);
    if (c == NULL || (h->impossible < h->k && c[h->impossible] != 0))
        return SB_EINVAL;
    memcpy(h->counts, c, h->k * sizeof *c);
    return SB_OK;
}

size_t sb_hist_memory(size_t k, size_t scratch, size_t *finalize)
{
    *finalize = sb_mem_finalize(k, 0);
    return sb_mem(sizeof(sb_hist) + k * sizeof(uint64_t) + round8(scratch));
}

int sb_hist_result(const sb_hist *h, const sb_hist_law *law,
                   uint64_t samples, double fail_alpha, sb_result *res)
{
    if (h->n < 2) {
        sb_gof_begin(res, h->name);
        return sb_gof_not_applicable(res, "%s", law->too_small);
    }
    if (law->skip >= h->k) {
        sb_gof_begin(res, h->name);
        return SB_EINVAL;
    }
    double *prob = malloc(h->k * sizeof *prob);
    if (prob == NULL) {
        sb_gof_begin(res, h->name);
        return SB_ENOMEM;
    }
    int st = law->null(h->n, prob);
    if (st != SB_OK) {
        sb_gof_begin(res, h->name);
        free(prob);
        return st;
    }
    const sb_gof_law g = {
        .prob = prob + law->skip,
        .k = h->k - law->skip,
        .first_value = law->base + (long)law->skip,
        .one = law->one,
        .many = law->many,
        .desc = law->desc,
    };
    st = sb_gof_law_result(res, h->name, h->counts + law->skip, &g, samples,
                           fail_alpha);
    free(prob);
    return st;
}
