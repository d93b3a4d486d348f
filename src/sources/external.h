/*
 * external.h - samples made outside shufflebias, as a feed for the runner:
 * a recorded file, standard input, or the output of a user's program.
 *
 * This is where the reader (src/sources/input.h) meets the child process
 * (src/sources/exec.h): a program is told what is wanted through its environment,
 *
 *   SHUFFLEBIAS_N        deck size
 *   SHUFFLEBIAS_SAMPLES  samples wanted (it may write more: the pipe is
 *                        closed once enough are counted)
 *   SHUFFLEBIAS_SEED     a seed it may use, so that a run can be repeated:
 *                        0 to 2^63 - 1 (--seed as given; fresh and derived
 *                        seeds are below 2^53)
 *   SHUFFLEBIAS_KIND     permutation, draw or deal
 *   SHUFFLEBIAS_FORMAT   text, cards, pbn, u8 or u16
 *   SHUFFLEBIAS_HANDS    hands of a deal (deals only)
 *   SHUFFLEBIAS_DRAW     cards per drawn hand (draws only, when known)
 *   SHUFFLEBIAS_ONE_BASED  1 when numbers count from 1, else 0
 *
 * and when the run is over, whatever ended it is put in words for the
 * report: a bad sample, a program that stopped early, crashed or was
 * killed, an input shorter than the count asked for.
 */
#ifndef SB_SOURCES_EXTERNAL_H
#define SB_SOURCES_EXTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "shufflebias/report.h"
#include "sources/input.h"
#include "sources/feed.h"

/* A program's longest silence, in seconds, unless told otherwise. */
#define SB_EXEC_TIMEOUT_DEFAULT 60u

typedef struct sb_external_spec {
    const char *command;     /* a program (run through /bin/sh -c), or NULL */
    const char *path;        /* a file ("-": standard input), or NULL */
    unsigned idle_seconds;   /* a program writing no byte for this long is
                                ended, an input error (0: no limit) */
    sb_input_spec input;     /* format, shape (a DRAW's len may be 0: taken
                                from the first sample), one_based,
                                skip_invalid, stop flag */
    uint64_t memory;         /* the run's memory budget (src/engine/budget.h), 0:
                                the default */
} sb_external_spec;

typedef struct sb_external sb_external;

/* Open the file or start the program, telling it 'seed' and 'samples';
   settle the shape (for a DRAW of unknown length this reads ahead to the
   first sample).  Returns SB_OK; else a status with a one-line reason in
   'err' (a file that cannot be opened: SB_EIO; a spec the reader refuses
   or a first sample that does not say the length: SB_EINVAL; SB_ENOMEM).
   The stop flag set before that first sample came gives SB_OK, a draw of
   one card as the shape and an input that yields nothing, so that the
   run reports its 0 samples as interrupted like any other.  A program
   that cannot be found still starts: its end is reported by
   sb_external_close.  Opening a FIFO does not wait for a writer: the
   reading does, looking at the stop flag every 0.2 s.

   While a program runs, its output is read until it ends or enough are
   counted, except that reading stops when the program (the shell) has
   exited and the pipe stays silent - something it left in the background
   holds it, and end-of-file would never come - and when no byte came for
   'idle_seconds'.  Either way sb_external_close ends what is left and
   says so. */
int sb_external_open(sb_external **x, const sb_external_spec *spec,
                     uint64_t seed, uint64_t samples, char *err, size_t len);

/* The feed that reads it (valid until sb_external_close). */
const sb_feed *sb_external_feed(sb_external *x);

/* End the program (closing its pipe; see src/sources/exec.h) or the file, and fill
   'info' from the report of the run that read it: where the samples came
   from, bad samples skipped, and - in info->error - what went wrong.
   Returns 1 when the input went wrong (a bad sample, a read error, a
   program that ended or crashed before the samples asked for, an input
   shorter than the count asked for): the run's report is then partial and
   the exit code must say so.  0 otherwise (an interrupted run is not an
   input error).  Frees 'x'. */
int sb_external_close(sb_external *x, const sb_report *rep,
                      sb_input_info *info);

#endif /* SB_SOURCES_EXTERNAL_H */
