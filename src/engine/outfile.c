/*
 * outfile.c - output files written whole or not at all (see outfile.h).
 *
 * The temporary file sits beside its target so that the rename stays on
 * one file system, where POSIX makes it atomic; it is flushed to the disk
 * (fsync) before the rename, so that after a crash the name never points
 * at data still in flight.
 */
#define _GNU_SOURCE   /* fopencookie: a stream that keeps its first error */
#include "engine/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shufflebias/status.h"

/* Whether a target of this mode may be written in place. */
static int streamable(mode_t mode, int flags)
{
    return (flags & SB_OUT_STREAM)
           && (S_ISCHR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode));
}

/* The file a rename must replace: the end of the chain of symbolic
   links that starts at 'path' (whether that file exists yet or not: a
   dangling link names the file to make), else 'path' itself; then the
   temporary name beside it.  0, or -1 when a name is too long or the
   links loop. */
static int names(const char *path, char *target, char *tmp, size_t size)
{
    char cur[4096], link[4096], dir[4096];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return -1;
    struct stat ls;
    for (int hops = 0; lstat(cur, &ls) == 0 && S_ISLNK(ls.st_mode); hops++) {
        const ssize_t k = readlink(cur, link, sizeof link - 1);
        if (hops == 40 || k <= 0 || (size_t)k >= sizeof link - 1)
            return -1;
        link[k] = '\0';
        /* A relative link is read from the folder that holds it. */
        memcpy(dir, cur, sizeof dir);
        const int n = link[0] == '/'
                    ? snprintf(cur, sizeof cur, "%s", link)
                    : snprintf(cur, sizeof cur, "%s/%s", dirname(dir), link);
        if (n < 0 || (size_t)n >= sizeof cur)
            return -1;
    }
    int n = snprintf(target, size, "%s", cur);
    if (n < 0 || (size_t)n >= size)
        return -1;
    n = snprintf(tmp, size, "%s" SB_OUT_TMP_SUFFIX "%ld", target,
                 (long)getpid());
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* The temporary file, made new: never through a link or over a file
   planted under its name (O_EXCL, O_NOFOLLOW).  A file of that name is
   a leftover of a killed process with this one's id, or planted: it is
   removed and the file made once more.  The descriptor, or -1 (errno). */
static int make_tmp(const char *tmp)
{
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(tmp, flags, 0666);
    if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
        fd = open(tmp, flags, 0666);
    return fd;
}

/* The stream's writes: every byte to o->fd, the first failure's errno
   kept in o->error, for the message that says why.  A blocking pipe,
   terminal or socket takes all of a write unless a signal cuts it short
   (POSIX returns the part written, not EINTR): that is the run's stop,
   and writing on would block again on a reader that does not read.  A
   descriptor left non-blocking by whoever started the program takes what
   fits and says EAGAIN: that is no stop, so the rest waits (poll) until
   the reader has read, and only a signal during that wait cuts it.  A
   file's short write is followed by the one that says why. */
static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
    sb_outfile *o = cookie;
    const int nonblocking = o->stream
                            && (fcntl(o->fd, F_GETFL) & O_NONBLOCK) != 0;
    size_t done = 0;
    while (done < size) {
        const ssize_t w = write(o->fd, buf + done, size - done);
        if (nonblocking && w < 0 && (errno == EAGAIN
                                     || errno == EWOULDBLOCK)) {
            struct pollfd p = { .fd = o->fd, .events = POLLOUT };
            if (poll(&p, 1, -1) >= 0)
                continue;
            /* poll's EINTR: a signal while waiting, the stop. */
        } else if (nonblocking && w >= 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 || (w < (ssize_t)(size - done) && o->stream)) {
            if (!o->error)
                o->error = w < 0 ? errno : EINTR;
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

/* A file can be rewound (a report started again after an interrupt);
   a pipe cannot, and says so. */
static int stream_seek(void *cookie, off64_t *offset, int whence)
{
    sb_outfile *o = cookie;
    const off_t at = lseek(o->fd, (off_t)*offset, whence);
    if (at < 0)
        return -1;
    *offset = at;
    return 0;
}

/* Closing the stream leaves the descriptor to sb_outfile_commit, which
   syncs it first. */
static int stream_close(void *cookie)
{
    (void)cookie;
    return 0;
}

/* o->f: a stream over o->fd.  0, or -1 (errno). */
static int stream_open(sb_outfile *o)
{
    const cookie_io_functions_t io = { .write = stream_write,
                                       .seek = stream_seek,
                                       .close = stream_close };
    struct stat st;
    o->stream = fstat(o->fd, &st) == 0 && !S_ISREG(st.st_mode);
    o->f = fopencookie(o, "w", io);
    return o->f ? 0 : -1;
}

/* Close o->fd unless it is standard output's. */
static int close_fd(sb_outfile *o)
{
    const int fd = o->fd;
    o->fd = -1;
    return fd > STDERR_FILENO ? close(fd) : 0;
}

/* What stands at 'path': 0 (nothing), 1 (written through a rename), 2
   (written in place); -1 with the reason in 'err'. */
static int classify(const char *path, int flags, char *err, size_t len)
{
    struct stat st;
    if (!path[0]) {
        snprintf(err, len, "an empty file name");
        return -1;
    }
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, len, "cannot write '%s': it is a directory, not a "
                 "regular file", path);
        return -1;
    }
    if (!S_ISREG(st.st_mode) && !streamable(st.st_mode, flags)) {
        snprintf(err, len, "cannot write '%s': not a regular file (a "
                 "device, pipe or socket would be replaced)", path);
        return -1;
    }
    if (access(path, W_OK) != 0) {
        snprintf(err, len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    return S_ISREG(st.st_mode) ? 1 : 2;
}

/* Why the temporary file beside 'path' could not be made (errno). */
static void tmp_error(const char *path, char *err, size_t len)
{
    if (errno == ENAMETOOLONG)
        snprintf(err, len, "cannot write '%s': its name is too long (with "
                 "the suffix " SB_OUT_TMP_SUFFIX "PID of its temporary file)",
                 path);
    else
        snprintf(err, len, "cannot write '%s' (through a temporary file "
                 "beside it): %s", path, strerror(errno));
}

int sb_outfile_check(const char *path, int flags, char *err, size_t len)
{
    if (strcmp(path, "-") == 0)
        return SB_OK;
    const int what = classify(path, flags, err, len);
    if (what < 0)
        return SB_EIO;
    if (what == 2)
        return SB_OK;
    char target[4096], tmp[4096];
    if (names(path, target, tmp, sizeof tmp) != 0) {
        snprintf(err, len, "cannot write '%s': its name is too long", path);
        return SB_EINVAL;
    }
    /* A file made and removed beside the target: the directory takes new
       files, and the temporary name fits the file system's limits. */
    int fd = make_tmp(tmp);
    if (fd < 0) {
        tmp_error(path, err, len);
        return SB_EIO;
    }
    close(fd);
    unlink(tmp);
    return SB_OK;
}

int sb_outfile_open(sb_outfile *o, const char *path, int flags, char *err,
                    size_t len)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->fd = -1;
    if (strcmp(path, "-") == 0) {
        /* What is already buffered for standard output goes first. */
        fflush(stdout);
        o->fd = STDOUT_FILENO;
        o->direct = 1;
        if (stream_open(o) != 0) {
            snprintf(err, len, "cannot write standard output: %s",
                     strerror(errno));
            return SB_ENOMEM;
        }
        return SB_OK;
    }
    const int what = classify(path, flags, err, len);
    if (what < 0)
        return SB_EIO;
    if (what == 2) {
        o->direct = 1;
        o->fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (o->fd < 0 || stream_open(o) != 0) {
            snprintf(err, len, "cannot write '%s': %s", path,
                     strerror(errno));
            close_fd(o);
            return SB_EIO;
        }
        return SB_OK;
    }
    if (names(path, o->target, o->tmp, sizeof o->tmp) != 0) {
        o->tmp[0] = '\0';
        snprintf(err, len, "cannot write '%s': its name is too long", path);
        return SB_EINVAL;
    }
    o->fd = make_tmp(o->tmp);
    /* The new file keeps the permissions of the one it replaces. */
    struct stat old;
    if (o->fd >= 0 && what == 1 && stat(o->target, &old) == 0)
        (void)fchmod(o->fd, old.st_mode & 07777);
    if (o->fd < 0 || stream_open(o) != 0) {
        tmp_error(path, err, len);
        if (o->fd >= 0) {
            close_fd(o);
            unlink(o->tmp);
        }
        o->tmp[0] = '\0';
        return SB_EIO;
    }
    return SB_OK;
}

int sb_outfile_commit(sb_outfile *o, char *err, size_t len)
{
    /* The first failure's errno is the one to tell, kept when it
       happened: a write that failed while the report was rendered says
       why already. */
    if (fflush(o->f) != 0 && !o->error)
        o->error = errno ? errno : EIO;
    if (ferror(o->f) && !o->error)
        o->error = EIO;
    fclose(o->f);
    o->f = NULL;
    int e = o->error;
    /* The file ends where the writing ended: a report rewound and
       written again shorter leaves no tail of the first. */
    const off_t end = o->direct ? 0 : lseek(o->fd, 0, SEEK_CUR);
    if (!o->direct && !e && (end < 0 || ftruncate(o->fd, end) != 0))
        e = errno;
    if (!o->direct && !e && fsync(o->fd) != 0)
        e = errno;
    if (close_fd(o) != 0 && !e)
        e = errno;
    if (!o->direct && !e && rename(o->tmp, o->target) != 0)
        e = errno;
    o->error = e;
    if (e) {
        if (!o->direct)
            unlink(o->tmp);
        o->tmp[0] = '\0';
        if (strcmp(o->path, "-") == 0)
            snprintf(err, len, "cannot write standard output: %s",
                     strerror(e));
        else
            snprintf(err, len, "cannot write '%s': %s", o->path,
                     strerror(e));
        /* A write cut by a signal: only SIGINT and SIGTERM have handlers,
           and they stop the run, so the output was interrupted, not
           broken. */
        return e == EINTR ? SB_EINTR : SB_EIO;
    }
    o->tmp[0] = '\0';
    return SB_OK;
}

void sb_outfile_abort(sb_outfile *o)
{
    if (o->f) {
        /* Written in place: what was written stays, and what is still
           buffered is dropped rather than written now (a reader that does
           not read would hold the process); a temporary file goes
           altogether. */
        __fpurge(o->f);
        fclose(o->f);
    }
    o->f = NULL;
    if (o->fd >= 0)
        close_fd(o);
    if (!o->direct && o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = '\0';
}

/* 'path' with its directory resolved: "/abs/dir/name".  0, or -1 when
   the directory does not exist. */
static int resolved(const char *path, char *out, size_t size)
{
    char a[4096], b[4096];
    if (snprintf(a, sizeof a, "%s", path) >= (int)sizeof a)
        return -1;
    memcpy(b, a, sizeof b);
    char *real = realpath(dirname(a), NULL);
    if (!real)
        return -1;
    int n = snprintf(out, size, "%s/%s", real, basename(b));
    free(real);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int sb_outfile_same(const char *a, const char *b)
{
    struct stat sa, sb;
    const int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb)
        return 0;
    char ra[8200], rb[8200];
    if (resolved(a, ra, sizeof ra) == 0 && resolved(b, rb, sizeof rb) == 0)
        return strcmp(ra, rb) == 0;
    return strcmp(a, b) == 0;
}
