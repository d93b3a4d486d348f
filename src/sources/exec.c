/*
 * exec.c - a user's program as a source of decks (the contract is in
 * exec.h).
 *
 * Starting.  Everything the child needs is prepared in the parent before
 * fork: the environment array (ours, with each assignment replacing a
 * variable of the same name, then the assignments), the pipe and
 * /dev/null.  Between fork and execve the child calls only
 * async-signal-safe functions (setpgid, dup2, fcntl, sigaction,
 * sigprocmask, prctl, execve, _exit): the parent may have other threads, one of
 * which could hold the allocator's lock at the moment of fork, so a
 * malloc or setenv in the child could deadlock.  All signals are blocked
 * in the parent across fork, so that a handler the parent installed never
 * runs in the child before the child has put the default dispositions
 * back; the child then unblocks everything, since a blocked mask and
 * ignored signals (SIGPIPE above all) survive execve and would change how
 * the program ends.  Both pipe ends and /dev/null are opened close-on-exec,
 * so that later children do not inherit them; dup2 onto 0 and 1 clears the
 * flag on the copies the child keeps.
 *
 * The child calls setpgid(0, 0) and the parent calls setpgid(pid, pid):
 * whichever runs first makes the group, so the group exists when
 * sb_child_start returns, and kill(-pid, ...) reaches the shell and
 * everything it started, background jobs included.
 *
 * Ending.  The read end is closed first: a program still writing gets
 * SIGPIPE on its next write, which ends it unless it ignores the signal.
 * We then poll waitpid(WNOHANG), sleeping 2 ms, growing by half each time
 * up to 20 ms, for a grace period: 0.5 s when the caller stopped reading
 * early (ended == 0), 2 s when it saw the end of the output (ended == 1:
 * the program has closed its output and normally exits at once, but it may
 * still be flushing files or tidying up).  Polling, rather than a blocking
 * wait with an alarm, keeps signal handlers out of library code.  When the
 * grace runs out the group gets SIGTERM and 1 s more, then SIGKILL and a
 * blocking wait, which cannot hang: SIGKILL can be neither caught nor
 * ignored.
 *
 * The shell may exit while processes it put in the background live on in
 * the group, still holding the write end of the pipe (`sleep 1000 & echo
 * hi`).  End-of-file then never comes, so a reader must not wait for it
 * alone: sb_child_exited tells it that the shell is gone (waitid with
 * WNOWAIT, which looks without reaping), and it stops there.  What is
 * left of the group is ended once the shell is reaped, whenever the caller
 * stopped reading early or we had to end the shell ourselves: SIGTERM,
 * up to 1 s for the group to empty (kill(-pid, 0) failing with ESRCH),
 * then SIGKILL.  The group's number cannot name anything else meanwhile:
 * a process group ID is not reused while any process is in the group
 * (POSIX, "process group lifetime"), and once the group is empty kill
 * fails with ESRCH.  A process of the group that has exited but whose new
 * parent (init) has not reaped it yet still counts, so the wait may run
 * its full second; it is bounded either way.  When the output ended and
 * the shell exited by itself, the rest of the group is left alone
 * (nothing of it holds the pipe any more).
 *
 * A plain command is run as "exec COMMAND".  A shell that runs a command
 * as its child and sees it killed by signal N exits with status 128 + N,
 * so a crash of './shuffle' would reach us as "status 139", which a
 * program may also exit with on its own.  When the command is one simple
 * command of plain words - letters, digits and _ . / , : + @ % = - only,
 * so no quoting, expansion, redirection, list or pipeline - whose first
 * word names an executable file (a path, or found on PATH) and is not a
 * shell builtin that such a file could stand in for, the shell is replaced
 * by it, and its own death is what waitpid reports.  Anything else runs
 * as written.
 *
 * Who ended it ('by_us').  Our SIGTERM or SIGKILL, once sent, is taken as
 * the cause whatever the status says.  Otherwise, when the caller stopped
 * reading early, a death by SIGPIPE is ours (nothing else can break that
 * pipe: we held its read end until then), and so is exit status 128 + 13:
 * the shell's way of reporting that the command it waited for died of
 * SIGPIPE (`./gen | tr , ' '`).  A program that ignores SIGPIPE and exits
 * with some other status on EPIPE (Python, by default, exits with status 1
 * and a traceback) cannot be told apart from one that failed on its own,
 * and is reported with by_us 0.
 */
#define _GNU_SOURCE   /* pipe2, environ */
#include "sources/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shufflebias/status.h"

struct sb_child {
    pid_t pid;   /* the shell, leader of its own process group */
    int fd;      /* read end of its standard output, close-on-exec */
};

/* Grace periods and the polling step, in milliseconds. */
#define GRACE_READING_MS 500   /* caller stopped reading: ended == 0 */
#define GRACE_ENDED_MS 2000    /* caller saw the end: ended == 1 */
#define GRACE_TERM_MS 1000     /* after SIGTERM, before SIGKILL */
#define STEP_FIRST_MS 2
#define STEP_MAX_MS 20

/* The length of the name in "NAME=value" (up to '='), or 0 when there is
   no '=' or the name is empty. */
static size_t name_len(const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    return eq == NULL ? 0 : (size_t)(eq - assignment);
}

/* Does 'entry' ("NAME=value", or an odd entry without '=') set the variable
   named by the first 'len' bytes of 'name'? */
static int same_name(const char *entry, const char *name, size_t len)
{
    return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

/* Our environment with the assignments applied, as a NULL-terminated array
   of pointers into 'environ' and 'env' (the strings are not copied: they
   outlive the fork).  A later assignment to the same name wins over an
   earlier one.  NULL when out of memory. */
static char **build_envp(const char *const *env, size_t n_env)
{
    size_t n_ours = 0;
    if (environ != NULL)
        while (environ[n_ours] != NULL)
            n_ours++;
    char **envp = malloc((n_ours + n_env + 1) * sizeof *envp);
    if (envp == NULL)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n_ours; i++) {
        int replaced = 0;
        for (size_t j = 0; j < n_env && !replaced; j++)
            replaced = same_name(environ[i], env[j], name_len(env[j]));
        if (!replaced)
            envp[k++] = environ[i];
    }
    for (size_t j = 0; j < n_env; j++) {
        size_t len = name_len(env[j]);
        int overridden = 0;
        for (size_t l = j + 1; l < n_env && !overridden; l++)
            overridden = same_name(env[l], env[j], len);
        if (!overridden)
            envp[k++] = (char *)env[j];
    }
    envp[k] = NULL;
    return envp;
}

/* Move 'fd' to 3 or above (close-on-exec), so that the child's dup2 onto
   0 and 1 can never overwrite one of its own sources: when our standard
   input or output is closed, pipe2 and open hand out 0 and 1.  Returns the
   descriptor, or -1 with errno set. */
static int above_std(int fd)
{
    if (fd > STDERR_FILENO)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    int saved = errno;
    close(fd);
    errno = saved;
    return moved;
}

/* Is 'word' (of 'len' bytes) an executable regular file: a path when it
   holds '/', else a name looked up on PATH as the shell would. */
static int executable(const char *word, size_t len)
{
    char path[4096];
    struct stat st;
    if (memchr(word, '/', len) != NULL) {
        if (len >= sizeof path)
            return 0;
        memcpy(path, word, len);
        path[len] = '\0';
        return access(path, X_OK) == 0 && stat(path, &st) == 0
               && S_ISREG(st.st_mode);
    }
    const char *dirs = getenv("PATH");
    if (dirs == NULL)
        return 0;
    for (const char *d = dirs;; d++) {
        const char *end = strchr(d, ':');
        size_t dl = end ? (size_t)(end - d) : strlen(d);
        if (dl + 1 + len < sizeof path) {
            memcpy(path, dl ? d : ".", dl ? dl : 1);
            size_t at = dl ? dl : 1;
            path[at] = '/';
            memcpy(path + at + 1, word, len);
            path[at + 1 + len] = '\0';
            if (access(path, X_OK) == 0 && stat(path, &st) == 0
                && S_ISREG(st.st_mode))
                return 1;
        }
        if (end == NULL)
            return 0;
        d = end;
    }
}

/* Whether the shell may be replaced by 'command' (see the essay). */
static int plain_command(const char *command)
{
    static const char *const builtins[] = {
        /* POSIX special built-ins, then those whose work is in the shell
           itself, which a file of the same name could not do. */
        "break", "continue", "eval", "exec", "exit", "export", "readonly",
        "return", "set", "shift", "times", "trap", "unset",
        "alias", "bg", "cd", "command", "fc", "fg", "getopts", "hash",
        "jobs", "read", "type", "ulimit", "umask", "unalias", "wait",
    };
    const char *p = command;
    while (*p == ' ')
        p++;
    const char *word = p;
    for (const char *q = p; *q; q++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789_./,:+@%=- ", *q))
            return 0;
    const size_t len = strcspn(word, " ");
    if (len == 0 || memchr(word, '=', len) != NULL)
        return 0;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strlen(builtins[i]) == len && memcmp(builtins[i], word, len) == 0)
            return 0;
    return executable(word, len);
}

void sb_child_prepare(pid_t parent)
{
#ifdef __linux__
    /* Should shufflebias itself be killed (SIGKILL leaves it no time to
       end its child), the program dies with it instead of running on
       unread; if the parent is gone already, do not start at all. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    static const int reset[] = { SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++)
        sigaction(reset[i], &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
}

/* The child between fork and execve: async-signal-safe calls only. */
static void run_child(const char *script, char *const envp[], int null_fd,
                      int read_fd, int write_fd, pid_t parent)
{
    sb_child_prepare(parent);
    close(read_fd);
    if (dup2(null_fd, STDIN_FILENO) < 0 || dup2(write_fd, STDOUT_FILENO) < 0)
        _exit(127);
    close(null_fd);
    close(write_fd);

    char *argv[] = { "sh", "-c", (char *)script, NULL };
    execve("/bin/sh", argv, envp);
    _exit(127);
}

int sb_child_start(sb_child **child, const char *command,
                   const char *const *env, size_t n_env, int *fd,
                   char *err, size_t len)
{
    *child = NULL;
    *fd = -1;
    for (size_t j = 0; j < n_env; j++)
        if (name_len(env[j]) == 0) {
            snprintf(err, len, "environment assignment '%s' is not "
                     "NAME=value", env[j]);
            return SB_EINVAL;
        }

    sb_child *c = malloc(sizeof *c);
    char **envp = build_envp(env, n_env);
    /* "exec COMMAND" for a plain command (see the essay), made here:
       the child may not allocate. */
    const int is_plain = plain_command(command);
    const size_t cmd_len = strlen(command);
    char *plain = is_plain ? malloc(cmd_len + 6) : NULL;
    if (plain != NULL) {
        memcpy(plain, "exec ", 5);
        memcpy(plain + 5, command, cmd_len + 1);
    }
    const char *script = plain != NULL ? plain : command;
    if (c == NULL || envp == NULL || (is_plain && plain == NULL)) {
        free(c);
        free(envp);
        free(plain);
        snprintf(err, len, "out of memory starting '%s'", command);
        return SB_ENOMEM;
    }

    int pipe_fd[2] = { -1, -1 };
    int null_fd = -1;
    const char *what = "pipe";
    if (pipe2(pipe_fd, O_CLOEXEC) < 0)
        goto fail;
    if ((pipe_fd[0] = above_std(pipe_fd[0])) < 0
        || (pipe_fd[1] = above_std(pipe_fd[1])) < 0)
        goto fail;
    what = "/dev/null";
    if ((null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0
        || (null_fd = above_std(null_fd)) < 0)
        goto fail;

    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    const pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        run_child(script, envp, null_fd, pipe_fd[0], pipe_fd[1], parent);
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        errno = fork_errno;
        what = "fork";
        goto fail;
    }

    /* EACCES (the child has already called execve, after its own setpgid)
       and ESRCH are harmless: the group exists either way. */
    setpgid(pid, pid);
    close(pipe_fd[1]);
    close(null_fd);
    free(envp);
    free(plain);
    c->pid = pid;
    c->fd = pipe_fd[0];
    *child = c;
    *fd = c->fd;
    return SB_OK;

fail:;
    int saved = errno;
    for (int i = 0; i < 2; i++)
        if (pipe_fd[i] >= 0)
            close(pipe_fd[i]);
    if (null_fd >= 0)
        close(null_fd);
    free(envp);
    free(plain);
    free(c);
    snprintf(err, len, "cannot start '%s': %s: %s", command, what,
             strerror(saved));
    return SB_EIO;
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reap 'pid' if it ends within 'grace_ms'.  Returns 1 when reaped (status
   in *status), 0 when still running, -1 when waitpid fails. */
static int wait_for(pid_t pid, long long grace_ms, int *status)
{
    long long deadline = now_ms() + grace_ms;
    long step = STEP_FIRST_MS;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 1;
        if (r < 0 && errno != EINTR)
            return -1;
        long long left = deadline - now_ms();
        if (left <= 0)
            return 0;
        long ms = step < left ? step : (long)left;
        struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&d, NULL);   /* an early wake-up only polls sooner */
        step += step / 2;
        if (step > STEP_MAX_MS)
            step = STEP_MAX_MS;
    }
}

/* Whether process group 'pgid' has a member left. */
static int group_left(pid_t pgid)
{
    return kill(-pgid, 0) == 0 || errno == EPERM;
}

/* End what is left of group 'pgid' once its leader is reaped: SIGTERM, up
   to GRACE_TERM_MS for the group to empty, then SIGKILL to any process
   still in it.  Returns at once when the group is empty already. */
static void end_group(pid_t pgid)
{
    if (kill(-pgid, SIGTERM) != 0 && errno == ESRCH)
        return;
    long long deadline = now_ms() + GRACE_TERM_MS;
    long step = STEP_FIRST_MS;
    while (group_left(pgid)) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            kill(-pgid, SIGKILL);
            return;
        }
        long ms = step < left ? step : (long)left;
        struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&d, NULL);
        step += step / 2;
        if (step > STEP_MAX_MS)
            step = STEP_MAX_MS;
    }
}

int sb_child_exited(sb_child *child)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)child->pid, &info,
               WEXITED | WNOHANG | WNOWAIT) != 0)
        return errno == ECHILD;   /* reaped already: gone */
    return info.si_pid == child->pid;
}

int sb_child_finish(sb_child *child, int ended, int *status, int *by_us)
{
    pid_t pid = child->pid;
    close(child->fd);
    free(child);
    *status = 0;
    *by_us = 0;

    int terminated = 0;
    int st = 0;
    int r = wait_for(pid, ended ? GRACE_ENDED_MS : GRACE_READING_MS, &st);
    if (r == 0) {
        terminated = 1;
        kill(-pid, SIGTERM);
        r = wait_for(pid, GRACE_TERM_MS, &st);
    }
    int killed = 0;
    if (r == 0) {
        killed = 1;
        kill(-pid, SIGKILL);
        pid_t w;
        while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
            ;
        r = w == pid ? 1 : -1;
    }
    /* The leader is gone; what is left of its group is ended too when it
       is ours to clean up (see the essay above). */
    if ((terminated || !ended) && !killed)
        end_group(pid);
    if (r < 0)
        return SB_EIO;

    *status = st;
    if (terminated)
        *by_us = 1;
    else if (!ended)
        *by_us = (WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE)
                 || (WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGPIPE);
    return SB_OK;
}

/* The name of signal 'sig' as written in C ("SIGSEGV"), NULL for one
   without a standard name.  Written out rather than taken from the C
   library: sigabbrev_np is recent and glibc's only. */
static const char *signal_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        { SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
        { SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" },
        { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" },
        { SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" },
        { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
        { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" },
        { SIGTERM, "SIGTERM" }, { SIGXCPU, "SIGXCPU" },
        { SIGXFSZ, "SIGXFSZ" }, { SIGSYS, "SIGSYS" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return NULL;
}

void sb_child_describe(int status, char *buf, size_t len)
{
    if (buf == NULL || len == 0)
        return;
    if (WIFEXITED(status)) {
        const int code = WEXITSTATUS(status);
        /* 128 + N: how sh reports a command that signal N killed.  The
           program may have exited with that number itself, so the status
           stays what it is and the reading is given beside it. */
        const char *name = code > 128 ? signal_name(code - 128) : NULL;
        if (name != NULL)
            snprintf(buf, len, "exited with status %d (a shell's report of "
                     "a command killed by signal %d, %s)", code, code - 128,
                     name);
        else
            snprintf(buf, len, "exited with status %d", code);
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *name = signal_name(sig);
        if (name == NULL)
            name = strsignal(sig);
        snprintf(buf, len, "killed by signal %d (%s)", sig,
                 name != NULL ? name : "unknown signal");
    } else if (WIFSTOPPED(status)) {
        snprintf(buf, len, "stopped by signal %d", WSTOPSIG(status));
    } else {
        snprintf(buf, len, "ended with wait status %#x", (unsigned)status);
    }
}
