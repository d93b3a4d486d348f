/*
 * test_outfile.c - output files written whole or not at all (outfile.h).
 *
 * A file is replaced only on commit, and then whole; an abort, or a check
 * before a run, leaves it as it was and leaves no temporary file; a link
 * keeps pointing at the file it named; devices, pipes and directories are
 * never replaced; two names of one file are recognised as such.  Nothing
 * here is statistical or timed.
 */
#define _XOPEN_SOURCE 700
#include "tests/sb_test.h"
#include "tests/sb_tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shufflebias/status.h"
#include "engine/outfile.h"

/* A path in the test's folder. */
typedef struct fname { char s[512]; } fname;

static fname at(void **state, const char *name)
{
    fname p;
    snprintf(p.s, sizeof p.s, "%s/%s", (char *)*state, name);
    return p;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The file's whole text (at most 255 bytes), "" when it cannot be read. */
typedef struct text { char s[256]; } text;

static text text_of(const char *name)
{
    text t = { "" };
    FILE *f = fopen(name, "r");
    if (f) {
        size_t n = fread(t.s, 1, sizeof t.s - 1, f);
        t.s[n] = '\0';
        fclose(f);
    }
    return t;
}

/* Files in the folder: what is there besides the test's own. */
static int entries(void **state)
{
    DIR *d = opendir(*state);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void commit_replaces_abort_keeps(void **state)
{
    const fname target = at(state, "report.json");
    const char *path = target.s;
    char err[600];
    put(path, "old\n");
    sb_outfile o;
    assert_int_equal(sb_outfile_check(path, SB_OUT_STREAM, err, sizeof err),
                     SB_OK);
    assert_string_equal(text_of(path).s, "old\n");
    assert_int_equal(entries(state), 1);

    assert_int_equal(sb_outfile_open(&o, path, 0, err, sizeof err), SB_OK);
    fputs("half", o.f);
    fflush(o.f);
    /* While it is written, the target still holds the old report. */
    assert_string_equal(text_of(path).s, "old\n");
    assert_int_equal(entries(state), 2);
    sb_outfile_abort(&o);
    assert_string_equal(text_of(path).s, "old\n");
    assert_int_equal(entries(state), 1);

    assert_int_equal(sb_outfile_open(&o, path, 0, err, sizeof err), SB_OK);
    fputs("new\n", o.f);
    assert_int_equal(sb_outfile_commit(&o, err, sizeof err), SB_OK);
    assert_string_equal(text_of(path).s, "new\n");
    assert_int_equal(entries(state), 1);
}

static void the_temporary_name_says_whose(void **state)
{
    const fname target = at(state, "s.state");
    const char *path = target.s;
    char err[600], want[600];
    sb_outfile o;
    assert_int_equal(sb_outfile_open(&o, path, 0, err, sizeof err), SB_OK);
    snprintf(want, sizeof want, "%s" SB_OUT_TMP_SUFFIX "%ld", path,
             (long)getpid());
    assert_string_equal(o.tmp, want);
    assert_int_equal(access(want, F_OK), 0);
    sb_outfile_abort(&o);
    assert_int_equal(access(want, F_OK), -1);
    assert_int_equal(access(path, F_OK), -1);
}

static void a_link_keeps_pointing(void **state)
{
    const fname r = at(state, "real.json");
    const char *real = r.s;
    put(real, "old\n");
    const fname l = at(state, "link.json");
    const char *link = l.s;
    assert_int_equal(symlink(real, link), 0);
    char err[600];
    sb_outfile o;
    assert_int_equal(sb_outfile_open(&o, link, 0, err, sizeof err), SB_OK);
    fputs("new\n", o.f);
    assert_int_equal(sb_outfile_commit(&o, err, sizeof err), SB_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(text_of(real).s, "new\n");
}

/* A link that names a file not made yet: that file is made, and the link
   kept (a relative link is read from its own folder). */
static void a_dangling_link_is_followed(void **state)
{
    const fname l = at(state, "link.json");
    const char *link = l.s;
    assert_int_equal(symlink("made.json", link), 0);
    char err[600];
    sb_outfile o;
    assert_int_equal(sb_outfile_check(link, 0, err, sizeof err), SB_OK);
    assert_int_equal(sb_outfile_open(&o, link, 0, err, sizeof err), SB_OK);
    fputs("new\n", o.f);
    assert_int_equal(sb_outfile_commit(&o, err, sizeof err), SB_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(text_of(at(state, "made.json").s).s, "new\n");
    assert_int_equal(entries(state), 2);
}

/* A link or a file planted under the temporary name is never written
   through: the file it points to keeps its text, and the target gets the
   report. */
static void a_planted_temporary_name_is_not_followed(void **state)
{
    const fname t = at(state, "report.json"), v = at(state, "victim");
    put(v.s, "precious\n");
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", t.s, (long)getpid());
    assert_int_equal(symlink(v.s, tmp), 0);
    char err[600];
    sb_outfile o;
    assert_int_equal(sb_outfile_check(t.s, 0, err, sizeof err), SB_OK);
    assert_string_equal(text_of(v.s).s, "precious\n");
    assert_int_equal(symlink(v.s, tmp), 0);
    assert_int_equal(sb_outfile_open(&o, t.s, 0, err, sizeof err), SB_OK);
    fputs("new\n", o.f);
    assert_int_equal(sb_outfile_commit(&o, err, sizeof err), SB_OK);
    assert_string_equal(text_of(v.s).s, "precious\n");
    assert_string_equal(text_of(t.s).s, "new\n");
    struct stat st;
    assert_int_equal(lstat(v.s, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(entries(state), 2);
}

/* The reason told is the first failed write's, whatever errno says by the
   time the file is committed (a file size limit stands in for a full
   disk). */
static void the_first_write_error_is_told(void **state)
{
    const fname t = at(state, "big.json");
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    const struct rlimit small = { 1024, old.rlim_max };
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    char err[600];
    sb_outfile o;
    assert_int_equal(sb_outfile_open(&o, t.s, 0, err, sizeof err), SB_OK);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    for (int i = 0; i < 1000; i++)
        fputs("0123456789abcdef", o.f);
    const int flushed = fflush(o.f);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(flushed, EOF);
    errno = ENOMEM;       /* what a later call may leave */
    assert_int_equal(sb_outfile_commit(&o, err, sizeof err), SB_EIO);
    assert_non_null(strstr(err, strerror(EFBIG)));
    assert_int_equal(access(t.s, F_OK), -1);
    assert_int_equal(entries(state), 0);
}

/* A report rewound and written again shorter (exact's, interrupted while
   written) leaves no tail of the first: the file ends where the writing
   ended. */
static void a_rewound_file_ends_where_writing_ended(void **state)
{
    const fname t = at(state, "exact.json");
    char err[600];
    sb_outfile o;
    assert_int_equal(sb_outfile_open(&o, t.s, 0, err, sizeof err), SB_OK);
    fputs("{ a long report, cut }", o.f);
    assert_int_equal(ftell(o.f), 22);
    assert_int_equal(fseek(o.f, 0, SEEK_SET), 0);
    fputs("{}\n", o.f);
    assert_int_equal(sb_outfile_commit(&o, err, sizeof err), SB_OK);
    assert_string_equal(text_of(t.s).s, "{}\n");
}

static void devices_pipes_and_folders(void **state)
{
    char err[600];
    sb_outfile o;
    const fname ff = at(state, "fifo");
    const char *fifo = ff.s;
    assert_int_equal(mkfifo(fifo, 0600), 0);
    /* A state is never written over a pipe; a report may stream to it. */
    assert_int_equal(sb_outfile_check(fifo, 0, err, sizeof err), SB_EIO);
    assert_non_null(strstr(err, "not a regular file"));
    assert_int_equal(sb_outfile_open(&o, fifo, 0, err, sizeof err), SB_EIO);
    assert_int_equal(sb_outfile_check(fifo, SB_OUT_STREAM, err, sizeof err),
                     SB_OK);
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(sb_outfile_check(*state, SB_OUT_STREAM, err,
                                      sizeof err), SB_EIO);
    assert_non_null(strstr(err, "is a directory"));
    /* /dev/null is written in place, and stays a device. */
    assert_int_equal(sb_outfile_open(&o, "/dev/null", SB_OUT_STREAM, err,
                                     sizeof err), SB_OK);
    assert_true(o.direct);
    fputs("x\n", o.f);
    assert_int_equal(sb_outfile_commit(&o, err, sizeof err), SB_OK);
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    /* A folder that does not exist says so. */
    assert_int_equal(sb_outfile_check(at(state, "no/such.json").s, 0, err,
                                      sizeof err), SB_EIO);
    assert_non_null(strstr(err, "No such file or directory"));
}

static void two_names_of_one_file(void **state)
{
    const fname pa = at(state, "a.state");
    const char *a = pa.s;
    put(a, "x");
    char other[512], dotted[512], hard[512];
    snprintf(other, sizeof other, "%s", at(state, "b.state").s);
    put(other, "x");
    snprintf(dotted, sizeof dotted, "%s/./a.state", (char *)*state);
    snprintf(hard, sizeof hard, "%s", at(state, "hard.state").s);
    assert_int_equal(link(a, hard), 0);
    assert_true(sb_outfile_same(a, dotted));
    assert_true(sb_outfile_same(a, hard));
    assert_false(sb_outfile_same(a, other));
    /* Files not made yet: by their resolved paths. */
    char n1[512], n2[512];
    snprintf(n1, sizeof n1, "%s/new.json", (char *)*state);
    snprintf(n2, sizeof n2, "%s/../%s/new.json", (char *)*state,
             strrchr((char *)*state, '/') + 1);
    assert_true(sb_outfile_same(n1, n2));
    assert_false(sb_outfile_same(n1, a));
}

static int setup(void **state)
{
    return sb_test_tmpdir(state, "sb-outfile");
}

static int teardown(void **state)
{
    return sb_test_tmpdir_remove(state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(commit_replaces_abort_keeps, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(the_temporary_name_says_whose, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_link_keeps_pointing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_dangling_link_is_followed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            a_planted_temporary_name_is_not_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(the_first_write_error_is_told, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            a_rewound_file_ends_where_writing_ended, setup, teardown),
        cmocka_unit_test_setup_teardown(devices_pipes_and_folders, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(two_names_of_one_file, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
