/*
 * feed.h - samples made outside shufflebias, as the runner reads them
 * (src/engine/runner.h): a recorded file or a program's output
 * (src/sources/external.h).
 */
#ifndef SB_SOURCES_FEED_H
#define SB_SOURCES_FEED_H

#include <stddef.h>

#include "shufflebias/stat.h"

/* Samples made outside (a file, standard input, a user's program:
   src/sources/input.h) instead of by an algorithm. */
typedef struct sb_feed {
    sb_shape shape;          /* what each sample is */
    const char *name;        /* what the report calls the source: the
                                command or the file */
    /* Write up to 'want' valid samples (shape.len values each) into 'out'
       and set *got.  SB_OK with *got < want: the input ended, or the run's
       stop flag was set.  Any other status: the input went wrong; the *got
       samples written before are valid and are counted. */
    int (*read)(void *ctx, sb_card *out, size_t want, size_t *got);
    void *ctx;
} sb_feed;

#endif /* SB_SOURCES_FEED_H */
