/*
 * gsl-shuffle - GSL's gsl_ran_shuffle, the reference a C programmer uses.
 *
 * gsl_ran_shuffle (randist/shuffle.c) is Durstenfeld's Fisher-Yates from
 * the back, drawing each index with gsl_rng_uniform_int, which divides the
 * generator's range into n equal buckets and rejects the remainder: exactly
 * unbiased on a fair generator.  Fair; what it can show is the generator.
 *
 * When the run's source is a GSL generator (--rng mt19937, ranlxd2, ...),
 * gsl_ran_shuffle is called on that very gsl_rng, so the decks are the ones
 * a program calling GSL with that generator and seed would deal.  On any
 * other source, GSL gets a small gsl_rng whose get() returns 32 bits of the
 * source (range 0 .. 2^32 - 1), so the same GSL code runs on it.
 *
 * Not enumerable: each draw is a 32-bit word, 2^32 branches.  On a fair
 * source it is, draw for draw, 'fisher-yates' with a different reduction.
 *
 * Source: GSL reference manual, "Shuffling and Sampling"
 * (gsl_ran_shuffle); Knuth TAOCP vol. 2, 3.4.2.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

/* A gsl_rng over any source: its state is the source. */
typedef struct adapter_state {
    sb_src *src;
} adapter_state;

static void adapter_set(void *state, unsigned long seed)
{
    (void)state;
    (void)seed;          /* the source is seeded by the run */
}

static unsigned long adapter_get(void *state)
{
    return (unsigned long)sb_bits(((adapter_state *)state)->src, 32);
}

static double adapter_get_double(void *state)
{
    return sb_unit(((adapter_state *)state)->src);
}

static const gsl_rng_type adapter_type = {
    "shufflebias-source", 0xffffffffUL, 0, sizeof(adapter_state),
    adapter_set, adapter_get, adapter_get_double
};

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    (void)state;
    sb_deck_identity(out, a->n);
    gsl_rng *native = sb_src_gsl_rng(src);
    if (native) {
        /* gsl_ran_shuffle asks gsl_rng_uniform_int for up to n values,
           which fails (returning 0, with the error handler off) when n
           exceeds the generator's range max - min. */
        if (a->n > gsl_rng_max(native) - gsl_rng_min(native))
            return SB_ENOTSUP;
        gsl_ran_shuffle(native, out, a->n, sizeof *out);
        return SB_OK;
    }
    adapter_state as = { src };
    gsl_rng r = { &adapter_type, &as };
    gsl_ran_shuffle(&r, out, a->n, sizeof *out);
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_gsl_shuffle = {
    .name = "gsl-shuffle",
    .summary = "GSL's gsl_ran_shuffle on the chosen generator (the GSL "
               "generator itself for --rng NAME)",
    .source = "GSL reference manual, gsl_ran_shuffle; Knuth TAOCP 3.4.2",
    .bias = "Fisher-Yates with exactly unbiased bucket-and-reject draws: "
            "fair on a fair generator, so what it shows is the generator.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .exact_refusal = "each draw is a 32-bit word from the generator "
                     "(2^32 branches); on a fair source it is 'fisher-yates'",
    .run = run,
};
