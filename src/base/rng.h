/*
 * src/base/rng.h - randomness backends, opened by name for one run.
 *
 * A backend hands out one sb_src per chunk of samples.  Most are random
 * access: any thread can make any chunk, and the chunk is the same
 * whichever thread made it and in whatever order.
 *
 *   - The fast built-in generator computes chunk i's stream directly from
 *     (seed, i).
 *   - rand15, lcg32 and GSL's single-word linear congruential generators
 *     (minstd, rand48, randu, vax, ...: sb_rng_jumpable_name) are one
 *     sequence from their seeded state, as a program calling them would
 *     see it, cut into the run's 'chunks' (sb_rng_set_chunks) evenly
 *     spaced stretches: chunk k starts k floor(P / chunks) steps in, P the
 *     period of the seeded state, reached by jump-ahead in O(log k).
 *   - reseed32:NAME draws the 32-bit seeds of chunk i from the fast
 *     generator's stream i, and re-seeds NAME before every sample.
 *
 * Every other GSL generator (mt19937, ranlux, taus, ...) is one
 * sequential stream per run, seeded once: its chunks must be made in
 * order, on one thread (sb_rng_sequential_why says why, for users), and
 * its place can be saved between chunks (sb_rng_save) so that a resumed
 * run need not remake what it counted.  Handing such a generator a fresh
 * 32-bit seed per chunk would itself be a seed weakness, so it is not
 * done.
 *
 * Threads.  An sb_rng is shared by the threads of a run; each thread
 * draws through its own sb_rng_cursor.  After sb_rng_open and
 * sb_rng_set_chunks a random-access backend's sb_rng is only read, so
 * its cursors may be used at once from many threads.  A sequential
 * backend's cursors all continue the rng's one stream and must be used
 * by one thread at a time.  sb_rng_chunk (one cursor inside the rng) is
 * for single-threaded callers; on the fast generator alone it keeps no
 * state and may be called from any thread.
 */
#ifndef SB_BASE_RNG_H
#define SB_BASE_RNG_H

#include <stddef.h>
#include <stdint.h>
#include "shufflebias/rng.h"
#include "base/draws.h"

/* The name of the fast built-in generator, the default of --rng. */
#define SB_RNG_DEFAULT "xoshiro256"

typedef struct sb_rng sb_rng;

/* A generator of fixed-width words whose high bits are the good ones.
   'next' returns a value below 2^width.  Used for every backend that is not
   the fast generator, and by tests with a word source they can walk. */
typedef struct sb_word_source {
    unsigned width;                             /* 1..64 */
    uint64_t (*next)(struct sb_word_source *ws);
    int stuck;        /* set by 'next' when its generator stopped varying */
} sb_word_source;

/* Make 'src' draw from 'ws' through the generic word-based draws: bits()
   takes the high bits of successive words, below() rejects values of
   bitlen(n - 1) bits that are >= n (exactly unbiased), weighted() is
   below(sum) scanned, unit() is bits(53) / 2^53.  'ws' must outlive 'src'.
   A source whose words stop varying (ws->stuck, or 10^6 rejections in a
   row) sets src->error to SB_ERANGE instead of spinning for ever. */
void sb_src_from_words(sb_src *src, sb_word_source *ws);

/* rand() % k walked as the k residues with their weights (ops->weighted,
   for k up to SB_RAND_MOD_WEIGHTS; the 2^bits values, ops->bits, above
   it): the 'rand_mod' of a source that walks branches, such as exact
   mode's.  Arguments as for sb_src_ops.rand_mod. */
uint64_t sb_rand_mod_weighted(sb_src *src, unsigned bits, uint64_t k);

/* Seed 'src' as the fast generator's stream for chunk 'chunk' of 'seed'. */
void sb_src_fast(sb_src *src, uint64_t seed, uint64_t chunk);

/* Open the backend called 'name' for a run seeded with 'seed'.  SB_OK, or
   SB_ENOTFOUND for an unknown name, SB_ERANGE when the seeded generator's
   first outputs are all one value (some GSL generators have such seeds,
   e.g. minstd with a multiple of 2^31 - 1), SB_EINVAL for a seed the
   generator refuses (ran0's 123459876), SB_ENOTSUP for a GSL generator
   run by jump-ahead whose library does not behave as its model here
   says (checked at every open, never silently run another way),
   SB_ENOMEM.  The run has one chunk until sb_rng_set_chunks. */
int sb_rng_open(sb_rng **out, const char *name, uint64_t seed);
/* The seed the generator itself was given, and how many bits of it it
   keeps: (seed, 64) for the fast generator; the 32-bit value handed to
   gsl_rng_set or to the weak LCGs. */
uint64_t sb_rng_seed_used(const sb_rng *rng, unsigned *bits);
/* Closes the rng and its sb_rng_chunk cursor; every other cursor must be
   closed first. */
void sb_rng_close(sb_rng *rng);
/* The number of chunks of the run, >= 1 (0 is taken as 1).  It places
   the chunks of a jump-ahead backend (see the top of this file), so it
   must be called before the first chunk is made and not while any
   thread makes one; other backends ignore it.  A run of more chunks than
   the seeded state's period (only a degenerate seed's tiny cycle, e.g.
   transputer's from an odd multiple of 2^29, period 2) spaces them
   floor(P / chunks) = 0 apart: every chunk is then chunk 0's
   stream. */
void sb_rng_set_chunks(sb_rng *rng, uint64_t chunks);
/* reseed32:NAME: the 32-bit seed NAME was given for the current sample
   of sb_rng_chunk's source (0 before the first and for every other
   backend).  For tests, so that a sample can be remade from its seed
   alone; sb_rng_cursor_last_reseed is the same for a cursor. */
uint32_t sb_rng_last_reseed(const sb_rng *rng);
/* 1 when any chunk can be made at any time by any thread's cursor: the
   fast generator, the jump-ahead LCGs, reseed32:*. */
int sb_rng_random_access(const sb_rng *rng);
/* Point 'src' at the stream of chunk 'chunk', through a cursor owned by
   the rng (see sb_rng_cursor_chunk; SB_ENOMEM if it cannot be made).
   'src' stays valid until the next call or close.  Single-threaded use
   only, except on the fast generator. */
int sb_rng_chunk(sb_rng *rng, uint64_t chunk, sb_src *src);

/* A thread's own place in 'rng''s streams: the generator it draws from
   (a copy of GSL's, placed at each chunk, for a jump-ahead or reseed32
   backend; the run's one stream for a sequential one).  The rng must
   outlive it. */
typedef struct sb_rng_cursor sb_rng_cursor;
/* SB_OK, SB_ENOMEM. */
int sb_rng_cursor_open(sb_rng *rng, sb_rng_cursor **out);
/* Point 'src' at the stream of chunk 'chunk'.  Random access: any chunk
   in any order, SB_EINVAL for a jump-ahead backend's chunk >= its
   chunks.  Sequential: the rng's one stream continued, chunks 0, 1, 2,
   ... in order (SB_EINVAL otherwise).  'src' stays valid until the
   cursor's next call or close; sb_src_gsl_rng(src) is the cursor's own
   generator. */
int sb_rng_cursor_chunk(sb_rng_cursor *cur, uint64_t chunk, sb_src *src);
uint32_t sb_rng_cursor_last_reseed(const sb_rng_cursor *cur);
void sb_rng_cursor_close(sb_rng_cursor *cur);

/* Pure functions of a backend's name (no rng opened).  1 when the
   backend called 'name' is random access (as sb_rng_random_access), 0
   for a sequential or unknown one. */
int sb_rng_name_random_access(const char *name);
/* NULL when the backend called 'name' is random access or unknown;
   otherwise why its chunks are made in order on one thread, a phrase for
   users without a trailing period (e.g. for mt19937: "its 19937-bit
   state has no jump-ahead here, so its chunks are made in order on one
   thread"). */
const char *sb_rng_sequential_why(const char *name);
/* The names of the jump-ahead backends: the i-th, NULL past the last. */
const char *sb_rng_jumpable_name(size_t i);

/* A jump-ahead backend's sequence, for tests: the exact period P of its
   seeded state (0 for every other backend); that state as the model's
   integer (reduced mod m; for rand48 and ranf the 48-bit value, for
   slatec x1 2^11 + x0); and the state 'k' steps after state 'x' (x
   itself for other backends).  Chunk k of C starts at
   sb_rng_jump(rng, sb_rng_start(rng), k floor(P / C)). */
uint64_t sb_rng_period(const sb_rng *rng);
uint64_t sb_rng_start(const sb_rng *rng);
uint64_t sb_rng_jump(const sb_rng *rng, uint64_t x, uint64_t k);

/* The state of a sequential backend's one stream before chunk *next
   (the chunk it expects next), to be called between chunks: SB_OK and
   up to 'cap' bytes into 'buf' with *len set (SB_ERANGE when cap is too
   small, *len then says the size needed: 'buf' may be NULL with cap 0 to
   ask); SB_ENOTSUP for a backend with nothing to save (random access)
   or whose state cannot be checked when it comes back (a GSL generator
   with indices into its own tables; mt19937 and the generators whose
   state is values only can be).
   For a GSL generator the bytes are its state as gsl_rng_fwrite writes
   it, meaningful to the same GSL build only. */
int sb_rng_save(const sb_rng *rng, uint64_t *next, void *buf, size_t cap,
                size_t *len);
/* Put a sequential backend's stream where sb_rng_save found it: the
   next chunk becomes 'next'.  SB_EINVAL when the bytes are not of this
   generator (size differs, or an index out of its table), SB_ENOTSUP
   where sb_rng_save says so. */
int sb_rng_restore(sb_rng *rng, uint64_t next, const void *buf,
                   size_t len);

/* Names for listings.  sb_rng_builtin lists the project's own generators
   (NULL-terminated, with a one-line description each); GSL's come from
   gsl_rng_types_setup(). */
typedef struct sb_rng_info {
    const char *name;
    const char *summary;
} sb_rng_info;
extern const sb_rng_info sb_rng_builtin[];

/* SplitMix64's output for the state 'x' (Steele, Lea and Flood, "Fast
   splittable pseudorandom number generators", OOPSLA 2014): the state
   stepped by the golden-ratio constant, then the finalizer; a bijection of
   64-bit words with good avalanche, used to derive seeds and hash keys.
   The project's one copy of these constants. */
uint64_t sb_mix64(uint64_t x);

#endif /* SB_BASE_RNG_H */
