/*
 * outfile.h - output files written whole or not at all.
 *
 * Every file the tool writes (a JSON or Markdown report, a state file) is
 * written to a temporary file beside its target, named "TARGET.tmp-PID",
 * flushed to the disk and renamed over the target only once complete.  An
 * error, a full disk or an interrupt leaves the old file or the new one,
 * never a part of either, and an early error leaves the old one untouched.
 * A process killed outright (SIGKILL, a power cut) may leave its
 * "TARGET.tmp-PID" behind: the name says whose it was, and it can be
 * deleted.  When the target is a symbolic link, the file it points to is
 * replaced, not the link, and made when it does not exist yet (a dangling
 * link): the temporary file then sits beside the file the link names.
 *
 * A target that is a terminal, a pipe or a device such as /dev/null holds
 * nothing a rename could protect, and a rename would replace the device
 * itself: with SB_OUT_STREAM such a target is written in place (as "-",
 * standard output, always is); without it (state files) it is refused.  A
 * directory is always refused.
 */
#ifndef SB_ENGINE_OUTFILE_H
#define SB_ENGINE_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* The temporary file's suffix, before the process id. */
#define SB_OUT_TMP_SUFFIX ".tmp-"

/* A target that is not a regular file (a terminal, a pipe, a character
   device) may be written in place. */
#define SB_OUT_STREAM 1

typedef struct sb_outfile {
    FILE *f;                   /* write here between open and commit;
                                  the sb_outfile must stay where it is
                                  while f is open */
    const char *path;          /* as given, for messages (kept, not
                                  copied) */
    int fd;                    /* what f writes to; -1 when none */
    int error;                 /* errno of the first failed write, 0 */
    int direct;                /* written in place: no temporary file */
    int stream;                /* o->fd is no regular file (a pipe, a
                                  terminal): a short write is a signal's */
    char target[4096];         /* the file the rename replaces */
    char tmp[4096];            /* the temporary file, "" when direct */
} sb_outfile;

/* Whether 'path' could be written by sb_outfile_open with 'flags',
   without touching it: it is a regular file (or a stream allowed by
   'flags') that may be written, or does not exist, and a temporary file
   can be made beside it.  SB_OK, or SB_EIO / SB_EINVAL with the reason in
   'err'. */
int sb_outfile_check(const char *path, int flags, char *err, size_t len);

/* Start writing 'path' ("-": standard output, written in place, after
   what stdout holds).  SB_OK with o->f open, or SB_EIO / SB_EINVAL with
   the reason in 'err'.  The temporary file is made new (O_EXCL,
   O_NOFOLLOW): a link or file planted under its name is removed, never
   followed. */
int sb_outfile_open(sb_outfile *o, const char *path, int flags, char *err,
                    size_t len);

/* Finish: flush to the disk, close, rename over the target.  On any
   failure the temporary file is removed and the target left as it was.
   SB_OK, or SB_EIO with the reason ("cannot write 'x': No space left on
   device", the errno of the first write that failed) in 'err';
   SB_EINTR when that write was cut by a signal (the run's stop: a pipe's
   reader had not read yet), what was written in place staying. */
int sb_outfile_commit(sb_outfile *o, char *err, size_t len);

/* Give up: close and remove the temporary file; the target is untouched.
   A target written in place keeps what was written, what is still
   buffered being dropped.  Safe on an sb_outfile whose open failed. */
void sb_outfile_abort(sb_outfile *o);

/* Whether 'a' and 'b' name the same file: the same device and inode when
   both exist; otherwise the same path once their directories are
   resolved.  Neither may be "-". */
int sb_outfile_same(const char *a, const char *b);

#endif /* SB_ENGINE_OUTFILE_H */
