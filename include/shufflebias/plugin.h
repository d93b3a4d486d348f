/*
 * plugin.h - a shuffle written outside shufflebias, loaded at run time.
 *
 * A plug-in is a shared object that defines one or more sb_shuffle_type
 * objects (shuffle.h) exactly as the built-in algorithms do, and lists them
 * with SB_PLUGIN:
 *
 *     #include <shufflebias/plugin.h>
 *
 *     static int run(void *state, const sb_shuffle_args *a, sb_src *src,
 *                    sb_card *out)
 *     {
 *         (void)state;
 *         for (size_t i = 0; i < a->n; i++)
 *             out[i] = (sb_card)i;
 *         for (size_t i = a->n - 1; i > 0; i--) {
 *             size_t j = sb_below(src, i + 1);
 *             sb_card t = out[i]; out[i] = out[j]; out[j] = t;
 *         }
 *         return SB_OK;
 *     }
 *
 *     static const sb_shuffle_type my_shuffle = {
 *         .name = "my-shuffle", .summary = "...", .source = "...",
 *         .bias = "...", .kind = SB_KIND_PERMUTATION,
 *         .n_min = 1, .n_max = SB_DECK_MAX, .run = run,
 *     };
 *     SB_PLUGIN(&my_shuffle)
 *
 *     cc -shared -fPIC -o libmyshuffle.so my_shuffle.c
 *     shufflebias test --plugin ./libmyshuffle.so --n 52
 *     shufflebias exact --plugin ./libmyshuffle.so --n 3
 *
 * The plug-in draws only through sb_below, sb_bits, sb_weighted, sb_unit
 * and sb_rand_mod (rng.h).  Built outside the project, these are calls to functions that the
 * shufflebias program exports, so a plug-in runs on every randomness source
 * the program offers (--rng) and in exact mode, and the layout of the
 * generator is no part of the interface.  No linking against a library is
 * needed: the symbols are resolved when the program loads the plug-in.
 *
 * What the program checks, so that a plug-in's mistake is reported rather
 * than counted: before a run (test or exact) its first 16 samples are made
 * twice from one seed, and a plug-in that made no draw, or made different
 * samples, is refused (its results could be neither reproduced nor
 * enumerated: rand(), the clock, no shuffle at all); a shape no sample can
 * have (hands() of 0, more than n or not dividing n; a bad sample_len) is
 * refused; and every sample is checked for its kind, with guard words
 * after the buffer it is written into, before any statistic sees it.
 *
 * The interface is versioned.  SB_PLUGIN records the version of this header
 * and the size of sb_shuffle_type the plug-in was compiled with; the program
 * refuses, with a message saying which, a plug-in built for another
 * version.  SB_PLUGIN_ABI is raised whenever anything a plug-in sees
 * changes its layout or meaning: sb_shuffle_type, sb_shuffle_args,
 * sb_param_def, sb_tally, sb_card, the draw functions, the status codes.
 *
 * The 'literature' field of a plug-in's types is not read: the program
 * reports an outside shuffle as of unknown fairness.  Everything else means
 * what it means for a built-in algorithm (shuffle.h), with the same rules:
 * run() must not allocate, and state kept between samples belongs in
 * init/reset/free.
 */
#ifndef SB_PLUGIN_H
#define SB_PLUGIN_H

#include <stdint.h>

#include "markov.h"
#include "shuffle.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version 1: shufflebias 0.1.  Functions the program exports may be added
   without a new version (sb_draw_rand_mod was): a plug-in built before
   never calls them, and one that calls them, loaded by a program without
   them, is refused by the loader, which names the missing symbol. */
#define SB_PLUGIN_ABI 1u

/* The name of the object SB_PLUGIN defines, for dlsym. */
#define SB_PLUGIN_SYMBOL "shufflebias_plugin"

typedef struct sb_plugin {
    uint32_t abi;                /* SB_PLUGIN_ABI when compiled */
    uint32_t type_size;          /* sizeof (sb_shuffle_type) when compiled */
    const sb_shuffle_type *const *shuffles;   /* NULL-ended, at least one */
} sb_plugin;

/* Define the plug-in's one exported object, listing its shuffle types. */
#define SB_PLUGIN(...)                                                    \
    static const sb_shuffle_type *const sb_plugin_shuffles_[] = {         \
        __VA_ARGS__, NULL };                                              \
    __attribute__((visibility("default"))) extern const sb_plugin        \
        shufflebias_plugin;                                               \
    const sb_plugin shufflebias_plugin = {                                \
        SB_PLUGIN_ABI, (uint32_t)sizeof(sb_shuffle_type),                 \
        sb_plugin_shuffles_ };

/* Optional: the plug-in's shuffles that are Markov in their deck
   (shufflebias/markov.h), which exact mode may then walk by their states.
   A second exported object, looked up by name: a plug-in without it is
   walked path by path, and the layout of SB_PLUGIN's object is not
   changed (a plug-in built before loads as it did).  Each entry must
   name one of the types SB_PLUGIN lists; the program checks, before it
   walks, that the steps make what run() makes from the same draws. */
#define SB_PLUGIN_MARKOV_SYMBOL "shufflebias_plugin_markov"

#define SB_PLUGIN_MARKOV(...)                                             \
    __attribute__((visibility("default"))) extern const sb_markov        \
        *const shufflebias_plugin_markov[];                               \
    const sb_markov *const shufflebias_plugin_markov[] = { __VA_ARGS__,   \
                                                           NULL };

#ifdef __cplusplus
}
#endif

#endif /* SB_PLUGIN_H */
