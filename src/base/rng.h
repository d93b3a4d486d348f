/*
 * src/base/rng.h - randomness backends, opened by name for one run.
 *
 * A backend hands out one sb_src per chunk of samples.  The fast built-in
 * generator is random access: the stream of chunk i is computed directly
 * from (seed, i), so chunk i is the same whichever thread runs it.  Every
 * other backend is one sequential stream per run (a GSL generator seeded
 * once, a weak generator as a program would call it): its chunks must be
 * asked for in order.  Handing a GSL generator a fresh 32-bit seed per
 * chunk would itself be a seed weakness, so it is not done.
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
   generator refuses (ran0's 123459876), SB_ENOMEM. */
int sb_rng_open(sb_rng **out, const char *name, uint64_t seed);
/* The seed the generator itself was given, and how many bits of it it
   keeps: (seed, 64) for the fast generator; the 32-bit value handed to
   gsl_rng_set or to the weak LCGs. */
uint64_t sb_rng_seed_used(const sb_rng *rng, unsigned *bits);
void sb_rng_close(sb_rng *rng);
/* reseed32:NAME: the 32-bit seed NAME was given for the current sample
   (0 before the first and for every other backend).  For tests, so that a
   sample can be remade from its seed alone. */
uint32_t sb_rng_last_reseed(const sb_rng *rng);
/* 1 when any chunk can be asked for at any time (the fast generator). */
int sb_rng_random_access(const sb_rng *rng);
/* Point 'src' at the stream of chunk 'chunk'.  A sequential backend
   continues its one stream and requires chunks 0, 1, 2, ... in order
   (SB_EINVAL otherwise).  'src' stays valid until the next call or close. */
int sb_rng_chunk(sb_rng *rng, uint64_t chunk, sb_src *src);

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
