/* chunks.c - sets of chunk numbers as sorted ranges (see chunks.h). */
#include "engine/chunks.h"

#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"
#include "engine/runner.h"

uint64_t sb_chunk_count(uint64_t samples)
{
    return samples / SB_CHUNK_SAMPLES + (samples % SB_CHUNK_SAMPLES != 0);
}

uint64_t sb_chunk_size(uint64_t c, uint64_t samples)
{
    if (c >= sb_chunk_count(samples))
        return 0;
    const uint64_t first = c * SB_CHUNK_SAMPLES;
    return samples - first < SB_CHUNK_SAMPLES ? samples - first
                                              : SB_CHUNK_SAMPLES;
}

int sb_chunks_add(sb_chunks *s, uint64_t lo, uint64_t hi)
{
    if (lo >= hi)
        return SB_EINVAL;
    /* The first range that ends at or after 'lo': the new one goes just
       before it, or joins it. */
    size_t i = 0;
    while (i < s->count && s->r[i].hi < lo)
        i++;
    if (i < s->count && s->r[i].lo < hi && lo < s->r[i].hi)
        return SB_EINVAL;                   /* overlaps range i */
    const int join_left = i < s->count && s->r[i].hi == lo;
    const size_t right = join_left ? i + 1 : i;
    if (right < s->count && s->r[right].lo < hi)
        return SB_EINVAL;                   /* overlaps the next range */
    const int join_right = right < s->count && s->r[right].lo == hi;
    if (join_left && join_right) {
        s->r[i].hi = s->r[i + 1].hi;
        memmove(&s->r[i + 1], &s->r[i + 2],
                (s->count - i - 2) * sizeof s->r[0]);
        s->count--;
    } else if (join_left) {
        s->r[i].hi = hi;
    } else if (join_right) {
        s->r[right].lo = lo;
    } else {
        if (s->count == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 8;
            sb_chunk_range *r = realloc(s->r, cap * sizeof *r);
            if (!r)
                return SB_ENOMEM;
            s->r = r;
            s->cap = cap;
        }
        memmove(&s->r[i + 1], &s->r[i], (s->count - i) * sizeof s->r[0]);
        s->r[i] = (sb_chunk_range){ lo, hi };
        s->count++;
    }
    return SB_OK;
}

int sb_chunks_union(sb_chunks *into, const sb_chunks *from, uint64_t *shared)
{
    for (size_t k = 0; k < from->count; k++) {
        const sb_chunk_range *r = &from->r[k];
        int rc = sb_chunks_add(into, r->lo, r->hi);
        if (rc == SB_EINVAL) {
            /* The first range of 'into' that ends after r->lo overlaps
               it: their first common chunk is the later start. */
            size_t i = 0;
            while (into->r[i].hi <= r->lo)
                i++;
            *shared = into->r[i].lo > r->lo ? into->r[i].lo : r->lo;
        }
        if (rc != SB_OK)
            return rc;
    }
    return SB_OK;
}

int sb_chunks_has(const sb_chunks *s, uint64_t c)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->r[mid].hi <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->count && s->r[lo].lo <= c;
}

uint64_t sb_chunks_samples(const sb_chunks *s, uint64_t samples)
{
    const uint64_t chunks = sb_chunk_count(samples);
    uint64_t total = 0;
    for (size_t k = 0; k < s->count; k++) {
        const uint64_t lo = s->r[k].lo;
        const uint64_t hi = s->r[k].hi < chunks ? s->r[k].hi : chunks;
        if (lo >= hi)
            continue;
        /* Whole chunks, and the last chunk of the run as it is. */
        total += (hi - 1 - lo) * SB_CHUNK_SAMPLES + sb_chunk_size(hi - 1,
                                                                  samples);
    }
    return total;
}

void sb_chunks_free(sb_chunks *s)
{
    free(s->r);
    memset(s, 0, sizeof *s);
}
