/*
 * src/sources/plugin.h - shuffles loaded at run time from a shared object
 * (--plugin), through the public interface <shufflebias/plugin.h>.
 *
 * A loaded shuffle is an sb_shuffle_type like any built-in one, so the
 * runner and exact mode drive it unchanged; its draws call the functions
 * sb_draw_* that the program exports.  Everything the plug-in says about
 * itself is checked when it is opened, before any of its code runs: a
 * broken type is refused with the field at fault, never discovered by a
 * crash in the middle of a run.
 */
#ifndef SB_SOURCES_PLUGIN_H
#define SB_SOURCES_PLUGIN_H

#include <stddef.h>

#include "shufflebias/markov.h"
#include "shufflebias/shuffle.h"

typedef struct sb_plugin_handle sb_plugin_handle;

/* Load 'path' and choose its shuffle called 'name'.
 *
 * 'path' containing a '/' is used as it is; without one it is taken
 * relative to the current directory (as "./path"), never searched for in
 * the library path, so that '--plugin libfoo.so' cannot load a system
 * library of that name.  The object is loaded with RTLD_NOW | RTLD_LOCAL:
 * an undefined symbol is an error now, not a crash later, and the
 * plug-in's own symbols stay out of everybody else's way.
 *
 * 'name' NULL chooses the only shuffle the plug-in lists; with more than
 * one it is an error that lists their names.
 *
 * Returns SB_OK with *h (close it with sb_plugin_close) and *type (valid
 * until then).  Otherwise *h and *type are NULL and a one-line lowercase
 * reason is in 'err':
 *   SB_EINVAL    an empty path; no 'shufflebias_plugin' symbol (the
 *                message says how to define it); a shuffle type that
 *                fails sb_plugin_check_type; two shuffles of one name; a
 *                name equal to a built-in algorithm's; several shuffles and
 *                no 'name';
 *   SB_EIO       the object cannot be loaded (the loader's own words);
 *   SB_ENOTSUP   built for another version of the interface, or with
 *                another size of sb_shuffle_type: rebuild it;
 *   SB_ENOTFOUND no shuffle called 'name' (the valid names are listed);
 *   SB_ENOMEM.
 */
int sb_plugin_open(sb_plugin_handle **h, const char *path, const char *name,
                   const sb_shuffle_type **type, char *err, size_t len);

/* The shuffles the plug-in lists, in its order, for 'list'-style output:
   count, and the i-th (i < count). */
size_t sb_plugin_count(const sb_plugin_handle *h);
const sb_shuffle_type *sb_plugin_type(const sb_plugin_handle *h, size_t i);

/* The plug-in's declaration that 't' (one of its types) is Markov in its
   deck (SB_PLUGIN_MARKOV), or NULL. */
const sb_markov *sb_plugin_markov(const sb_plugin_handle *h,
                                  const sb_shuffle_type *t);

/* Unload the plug-in; every type it handed out is invalid afterwards.
   NULL is allowed. */
void sb_plugin_close(sb_plugin_handle *h);

/* Whether 't' is a shuffle type the program can drive safely: a
 * kebab-case name; a summary, source and bias; a run function; one of the
 * three kinds; 1 <= n_min <= n_max <= SB_DECK_MAX; at most SB_PARAMS_MAX
 * parameters, each with a unique kebab-case name, min <= def <= max, and
 * for a choices parameter min 0 and max its last index; hands() for a
 * DEAL; free, reset and tally only with init; a tally with its name and
 * a name with its tally; an exact_hint that is a valid assignment of one
 * of its parameters.  SB_OK, or SB_EINVAL with the reason, naming the
 * shuffle (or its position when it has no name), in 'why'.  Every
 * built-in algorithm passes. */
int sb_plugin_check_type(const sb_shuffle_type *t, char *why, size_t len);

/* What a plug-in did when a draw of its set the source's error: the only
   draw a plug-in can get wrong is sb_rand_mod (sb_rand_mod_valid). */
#define SB_PLUGIN_BAD_DRAW "made a draw that cannot be made: " \
    "sb_rand_mod(src, bits, k) takes 1 <= bits <= 63 and 1 <= k <= 2^bits"

/* Samples a plug-in's shuffle makes in sb_plugin_probe, twice. */
#define SB_PLUGIN_PROBE_SAMPLES 16u

/* Whether the shuffle 't' of a plug-in takes its randomness from the
 * source alone, which is what makes its results reproducible from a seed
 * and enumerable: its first SB_PLUGIN_PROBE_SAMPLES samples at 'a' are
 * made on the fast generator seeded with 'seed', then made again from a
 * fresh state and the same seed.  Refused (SB_EINVAL, the reason and what
 * to do in 'why', reading after the shuffle's name) when they made no
 * draw at all although more than one sample is possible, or when the two
 * runs differ (it draws from rand(), the clock, ...); also when run()
 * writes past its sample (the guard words after it) or returns an error.
 * SB_ENOMEM.  Nothing but the guard words is checked of the samples: the
 * run checks each of them. */
int sb_plugin_probe(const sb_shuffle_type *t, const sb_shuffle_args *a,
                    uint64_t seed, char *why, size_t len);

#endif /* SB_SOURCES_PLUGIN_H */
