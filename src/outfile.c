/*
 * outfile.c - output files written whole or not at all (see outfile.h).
 *
 * The temporary file sits beside its target so that the rename stays on
 * one file system, where POSIX makes it atomic; it is flushed to the disk
 * (fsync) before the rename, so that after a crash the name never points
 * at data still in flight.
 */
#define _XOPEN_SOURCE 700
#include "src/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
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

/* The file a rename must replace: what a symbolic link points to, else
   'path' itself; then the temporary name beside it.  0, or -1 when a
   name is too long. */
static int names(const char *path, char *target, char *tmp, size_t size)
{
    struct stat ls;
    char *real = NULL;
    if (lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode))
        real = realpath(path, NULL);
    int n = snprintf(target, size, "%s", real ? real : path);
    free(real);
    if (n < 0 || (size_t)n >= size)
        return -1;
    n = snprintf(tmp, size, "%s" SB_OUT_TMP_SUFFIX "%ld", target,
                 (long)getpid());
    return n < 0 || (size_t)n >= size ? -1 : 0;
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
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
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
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->direct = 1;
        return SB_OK;
    }
    const int what = classify(path, flags, err, len);
    if (what < 0)
        return SB_EIO;
    if (what == 2) {
        o->direct = 1;
        o->f = fopen(path, "w");
        if (!o->f) {
            snprintf(err, len, "cannot write '%s': %s", path,
                     strerror(errno));
            return SB_EIO;
        }
        return SB_OK;
    }
    if (names(path, o->target, o->tmp, sizeof o->tmp) != 0) {
        o->tmp[0] = '\0';
        snprintf(err, len, "cannot write '%s': its name is too long", path);
        return SB_EINVAL;
    }
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    /* The new file keeps the permissions of the one it replaces. */
    struct stat old;
    if (fd >= 0 && what == 1 && stat(o->target, &old) == 0)
        (void)fchmod(fd, old.st_mode & 07777);
    if (fd >= 0)
        o->f = fdopen(fd, "w");
    if (!o->f) {
        tmp_error(path, err, len);
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        o->tmp[0] = '\0';
        return SB_EIO;
    }
    return SB_OK;
}

int sb_outfile_commit(sb_outfile *o, char *err, size_t len)
{
    /* The first failure's errno is the one to tell: a write that failed
       while the report was rendered (ferror) says why already. */
    int e = ferror(o->f) ? (errno ? errno : EIO) : 0;
    if (fflush(o->f) != 0 && !e)
        e = errno;
    if (!o->direct && !e && fsync(fileno(o->f)) != 0)
        e = errno;
    if (o->f != stdout && fclose(o->f) != 0 && !e)
        e = errno;
    o->f = NULL;
    if (!o->direct && !e && rename(o->tmp, o->target) != 0)
        e = errno;
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
        return SB_EIO;
    }
    o->tmp[0] = '\0';
    return SB_OK;
}

void sb_outfile_abort(sb_outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    else if (o->f)
        fflush(o->f);
    o->f = NULL;
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
