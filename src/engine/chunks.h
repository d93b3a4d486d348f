/*
 * chunks.h - which chunks of a seed's samples a run has counted.
 *
 * Samples are made in chunks of SB_CHUNK_SAMPLES (src/engine/runner.h): chunk c
 * holds samples c * SB_CHUNK_SAMPLES onwards of the seed's stream, and the
 * last chunk of a run of S samples holds what is left.  A state file
 * records the chunks counted as a set, kept as sorted, disjoint, non-adjacent
 * ranges [lo, hi) of chunk numbers: a run counts its chunks nearly in
 * order, so the set stays a handful of ranges however long the run.  Two
 * runs of one seed can be merged exactly when their sets are disjoint.
 */
#ifndef SB_ENGINE_CHUNKS_H
#define SB_ENGINE_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

typedef struct sb_chunk_range {
    uint64_t lo, hi;          /* chunks lo .. hi - 1, lo < hi */
} sb_chunk_range;

typedef struct sb_chunks {
    sb_chunk_range *r;        /* sorted, disjoint, never touching */
    size_t count, cap;
} sb_chunks;

/* Add the chunks [lo, hi) (lo < hi).  SB_OK; SB_EINVAL, with the set
   unchanged, when one of them is in the set already; SB_ENOMEM. */
int sb_chunks_add(sb_chunks *s, uint64_t lo, uint64_t hi);
/* Add every range of 'from' to 'into'.  SB_EINVAL when they share a
   chunk (the first shared one in *shared, 'into' then undefined),
   SB_ENOMEM. */
int sb_chunks_union(sb_chunks *into, const sb_chunks *from, uint64_t *shared);
/* 1 when chunk 'c' is in the set. */
int sb_chunks_has(const sb_chunks *s, uint64_t c);
/* The samples in the set's chunks, for a run of 'samples' samples. */
uint64_t sb_chunks_samples(const sb_chunks *s, uint64_t samples);
/* Samples of chunk 'c' in a run of 'samples': SB_CHUNK_SAMPLES, fewer for
   the last chunk, 0 past the end. */
uint64_t sb_chunk_size(uint64_t c, uint64_t samples);
/* Chunks of a run of 'samples' (the last one may be short). */
uint64_t sb_chunk_count(uint64_t samples);
void sb_chunks_free(sb_chunks *s);

#endif /* SB_ENGINE_CHUNKS_H */
