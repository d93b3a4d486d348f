/*
 * cli.h - what the command-line commands share.
 *
 * Only the CLI prints.  Each command (src/cli/<name>.c) owns its options and its
 * usage text, in the manner of git's builtins, as a table that one parser
 * walks (options.h); this header holds the checks of option values and
 * the error helpers they have in common.
 */
#ifndef SB_CLI_H
#define SB_CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/stat.h"
#include "engine/outfile.h"
#include "engine/session.h"

/* Exit codes (DESIGN.md). */
enum {
    SB_EXIT_PASS = 0,
    SB_EXIT_FAIL = 1,
    SB_EXIT_USAGE = 2,
    SB_EXIT_SUSPECT = 3,
    SB_EXIT_INTERRUPTED = 130
};

/* What main hands every command. */
typedef struct sb_cli {
    const char *prog;                 /* "shufflebias" */
    volatile sig_atomic_t *stop;      /* set by SIGINT / SIGTERM */
    const char *command_line;         /* the command as typed, quoted
                                         for a shell, before any option
                                         parser reorders argv (for the
                                         pages to state); NULL: unknown */
    sb_team *team;                    /* the ranks of the MPI job this
                                         process is one of, NULL: alone
                                         (src/cli/ranks.c) */
} sb_cli;

/* The ranks of an MPI job (src/cli/ranks.c, docs/scale.md). */
typedef struct sb_cli_ranks sb_cli_ranks;
/* Join the MPI job a launcher (mpirun, srun) started this process in:
   SB_OK with *out NULL when none did, or with the job's ranks.  Ranks
   but the first then write nothing to standard output, and keep their
   standard error to say why they failed.  Another status, said, when
   the job cannot be joined (or the build has no MPI). */
int sb_cli_ranks_open(int *argc, char ***argv, sb_cli_ranks **out);
/* The threads a rank runs by default: the processors it may run on (a
   launcher binds each rank to its own, unless told otherwise). */
unsigned sb_cli_ranks_threads(void);
/* The ranks as a team of the engine, NULL for a job of one or none. */
sb_team *sb_cli_ranks_team(sb_cli_ranks *r);
/* Leave the job with the command's exit code 'code', returned: a rank
   that failed before any run began tells the others why first, so that
   none waits for it.  NULL 'r': nothing to do. */
int sb_cli_ranks_close(sb_cli_ranks *r, int code);

typedef int (*sb_cli_command)(const sb_cli *cli, int argc, char **argv);

int sb_cmd_list(const sb_cli *cli, int argc, char **argv);
int sb_cmd_test(const sb_cli *cli, int argc, char **argv);
int sb_cmd_audit(const sb_cli *cli, int argc, char **argv);
int sb_cmd_exact(const sb_cli *cli, int argc, char **argv);
int sb_cmd_merge(const sb_cli *cli, int argc, char **argv);
int sb_cmd_bench(const sb_cli *cli, int argc, char **argv);
int sb_cmd_gate(const sb_cli *cli, int argc, char **argv);
int sb_cmd_mixing(const sb_cli *cli, int argc, char **argv);

/* "shufflebias: <message>\n" on stderr. */
void sb_cli_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* A count such as 200000, 1e6, 2.5e6, 10M, 64k or 1G (k, M, G are powers
   of ten).  Returns 0 and sets *out, or -1 when 's' is not a whole
   number >= 1 and <= 2^62. */
int sb_cli_parse_count(const char *s, uint64_t *out);

/* Option values, each printing its own one-line error: 0, or -1.
   sb_cli_opt_n: a deck size 1..SB_DECK_MAX; sb_cli_opt_count: a count as
   sb_cli_parse_count reads it, for the option named 'option';
   sb_cli_opt_seed: as sb_cli_parse_seed; sb_cli_opt_param: one more
   "k=v" into params[*count] (room for SB_CLI_PARAMS_MAX). */
#define SB_CLI_PARAMS_MAX 16
int sb_cli_opt_n(const char *arg, uint64_t *out);
int sb_cli_opt_count(const char *option, const char *arg, uint64_t *out);
int sb_cli_opt_seed(const char *arg, uint64_t *out);
int sb_cli_opt_param(const char **params, size_t *count, const char *arg);
/* --kind: permutation, draw or deal; 0, or -1 after printing the error. */
int sb_cli_opt_kind(const char *arg, sb_kind *out);
/* The message for an unknown option of 'command'. */
void sb_cli_bad_option(const char *command, const char *arg);
/* The one algorithm name left after the options: 0 and *name, or -1 after
   printing the error. */
int sb_cli_positional(const char *command, int argc, char **argv, int optind,
                      const char **name);
/* The algorithm called 'name' accepting n cards; NULL after printing the
   error (unknown name, or n outside its range). */
const sb_shuffle_type *sb_cli_algorithm_n(const char *name, uint64_t n);

/* The shuffle to run: the built-in called 'name', or - with 'plugin' set -
   the one called 'name' in that plug-in (NULL: its only one), which is
   loaded into *h (close it with sb_plugin_close after the run); with n
   checked against its range.  NULL after printing the error. */
struct sb_plugin_handle;
const sb_shuffle_type *sb_cli_shuffle(const char *name, const char *plugin,
                                      uint64_t n,
                                      struct sb_plugin_handle **h);

/* After the options of 'command': the algorithm name, required unless
   'plugin' (which takes at most one, the shuffle's name in it). 0, or -1
   after printing the error. */
int sb_cli_shuffle_name(const char *command, int argc, char **argv,
                        int optind, const char *plugin, const char **name);

/* A seed: decimal or 0x-hexadecimal, 0 .. 2^63 - 1 (a JSON integer). */
int sb_cli_parse_seed(const char *s, uint64_t *out);

/* A seed from the operating system's entropy, below 2^53 so that every
   JSON reader keeps it exactly. */
uint64_t sb_cli_fresh_seed(void);

/* The algorithm called 'name'; on failure prints the error (with the valid
   names and the nearest one) and returns NULL. */
const sb_shuffle_type *sb_cli_algorithm(const char *name);
/* The same without printing: NULL with that error in 'why'. */
const sb_shuffle_type *sb_cli_algorithm_find(const char *name, char *why,
                                             size_t len);

/* Defaults of 't', then each "name=value" of 'assign'; prints the error
   (with the valid parameters and ranges) and returns -1 on a bad one. */
int sb_cli_set_params(const sb_shuffle_type *t, const char *const *assign,
                      size_t count, sb_shuffle_args *args);

/* Check that 'name' is a randomness source; prints the error otherwise. */
int sb_cli_check_rng(const char *name);

/* The statistics named in the comma-separated 'list' (or the defaults for
   the shape when 'list' is NULL), each checked to apply; prints the error
   and returns -1 on failure.  'out' has room for 'max'. */
int sb_cli_stats(const char *list, const sb_shape *shape,
                 const sb_stat_type **out, size_t max, size_t *count);

/* Run cfg (alg, args, samples, seed, rng and stop set) with the statistics
   named in 'tests' (NULL: the defaults for the shape), showing progress
   unless 'quiet', escalating a suspect verdict at most 'escalations'
   times (src/engine/escalate.h).  0 and 'rep' filled, or -1 after printing the
   error. */
struct sb_run_config;
struct json_t;
struct sb_report;
struct sb_state;
/* Saving and resuming a run (--state, --resume, --part), for sb_cli_run
   (src/engine/session.h): save_failed set when the last save of the
   state failed (sb_cli_run said why). */
typedef sb_run_keep sb_cli_keep;
int sb_cli_run(struct sb_run_config *cfg, const char *tests, int quiet,
               unsigned escalations, sb_cli_keep *keep,
               struct sb_report *rep);

/* --threads N: 1 .. SB_CLI_THREADS_MAX; 0, or -1 after printing the
   error.  sb_cli_threads_default: the processors online. */
#define SB_CLI_THREADS_MAX 256u
int sb_cli_opt_threads(const char *arg, unsigned *out);
unsigned sb_cli_threads_default(void);

/* --memory SIZE (src/engine/budget.h: 512M, 2G, 1.5GiB); 0, or -1 after
   printing the error.  sb_cli_memory_note: after a run, say on stderr
   (unless 'quiet') that the budget allowed fewer threads than asked. */
int sb_cli_opt_memory(const char *arg, uint64_t *out);
struct sb_report;
void sb_cli_memory_note(const struct sb_report *rep, int quiet);
/* Run the samples of a program or a file (src/sources/external.h) with the
   statistics named in 'tests', showing progress unless 'quiet', escalating
   a suspect verdict at most 'escalations' times (each stage runs the
   program again, on the stage's seed and samples).  0 with 'rep' and
   'info' filled (rep->run.input points to 'info') and *input_error set to
   1 when the input went wrong (the report is then partial and
   info->error says why); -1 after printing the error, with nothing to
   report; 1 when interrupted before the first sample came. */
struct sb_external_spec;
struct sb_input_info;
int sb_cli_run_external(const struct sb_external_spec *spec, uint64_t seed,
                        uint64_t samples, const char *tests, int quiet,
                        unsigned escalations, struct sb_report *rep,
                        struct sb_input_info *info, int *input_error);

/* --escalate K: 0 .. SB_STAGES_MAX - 1; 0, or -1 after printing the
   error. */
int sb_cli_opt_escalate(const char *arg, unsigned *out);

/* The diagnosis of a report (src/engine/diagnose.h): on a fail, the
   catalogued flaw it resembles; on a pass, what it could have missed.  A
   diagnosis that cannot be made is said on stderr and leaves the report
   as it was (its verdict never depends on it).  'd' keeps the flaws'
   signatures for the next report of the same shape (NULL: a diagnoser
   of its own, on 'threads' threads).
   Returns 1 when a stop cut it (the report then has none: exit 130),
   else 0. */
struct sb_diagnoser;
int sb_cli_diagnose(struct sb_diagnoser *d, struct sb_report *rep,
                    unsigned threads, int quiet,
                    volatile sig_atomic_t *stop);

/* Print a test report as asked - the text table on stdout unless 'quiet'
   or the JSON goes there, the JSON to 'json' ("-": stdout; NULL: none) -
   and return 'code', SB_EXIT_USAGE when writing failed, or
   SB_EXIT_INTERRUPTED when the run's stop cut a write (said here unless
   the report is partial, which its command says).  Why a run judged
   nothing is said on stderr unless 'quiet'. */
/* 'ro' (NULL: the defaults) says what the text and the JSON show
   (--no-timing, --full-tables); 'csv' (NULL: none) the directory the
   tables go to as CSV (sb_cli_csv_report). */
struct sb_render_opts;
int sb_cli_report(const struct sb_report *rep, const char *json, int quiet,
                  int code, const struct sb_render_opts *ro,
                  const char *csv);
/* The same, with 'value' (taken over; NULL: nothing) under 'key' in the
   JSON report: the plan of a run sized by --effect. */
int sb_cli_report_with(const struct sb_report *rep, const char *json,
                       int quiet, int code, const char *key,
                       struct json_t *value, const struct sb_render_opts *ro,
                       const char *csv);

/* --csv DIR, before a run: DIR (NULL: nothing asked) is a directory, or
   is made one (one level, mode 0777 less the umask).  0, or -1 after
   printing the error (DIR is a file, or cannot be made). */
int sb_cli_csv_prepare(const char *dir);
/* Make the directory 'path' when it is missing (mode 0777 less the
   umask).  0, or -1 after printing the error. */
int sb_cli_csv_make(const char *path);
/* Write the CSV files of a report (reports/csv.c) into DIR, or into its
   subdirectory 'sub' (made when missing; NULL: none), each through a
   temporary file put in place when whole, and last "run.csv" naming
   the run ('command': "test", "merge", "audit") and the files written.
   Files of other names in DIR are left alone.  0; -1 after printing the
   error; 1 when the run's stop cut a write. */
int sb_cli_csv_report(const char *dir, const char *sub, const char *command,
                      const struct sb_report *rep);
struct sb_exact_report;
int sb_cli_csv_exact(const char *dir, const char *sub,
                     const struct sb_exact_report *rep);

/* Before a run: make sure 'path' (NULL or "-": nothing to check) can be
   written, so that a long run never ends unable to save its report,
   without touching it (src/engine/outfile.h: a file is replaced only once its
   successor is whole; a terminal, pipe or device such as /dev/null is
   written in place; a directory is refused).  0, or -1 after printing
   the error. */
int sb_cli_can_write(const char *path);

/* A file named on the command line, and the option that named it. */
typedef struct sb_cli_path {
    const char *option;       /* "--json", "--resume", ... */
    const char *path;         /* NULL: not given */
} sb_cli_path;
/* Before a run: the output 'out' is none of 'others' (inputs, and the
   run's other outputs), compared as files (src/engine/outfile.h), so that no
   input is destroyed by writing it.  "-" and NULL paths are skipped.
   0, or -1 after printing the error. */
int sb_cli_distinct(const sb_cli_path *out, const sb_cli_path *others,
                    size_t n);
/* What --csv DIR writes: a report's files in DIR (test, merge), the
   audit's overview in DIR and each algorithm's files in DIR/ALGORITHM,
   an exact walk's files in DIR, or exact --all's in DIR/ALGORITHM. */
typedef enum sb_cli_csv_what {
    SB_CLI_CSV_TEST,
    SB_CLI_CSV_AUDIT,
    SB_CLI_CSV_EXACT,
    SB_CLI_CSV_EXACT_ALL
} sb_cli_csv_what;
/* Before a run: sb_cli_csv_prepare, and no file --csv DIR may write is
   one of 'others' (inputs and the other outputs; as sb_cli_distinct
   compares them), so that nothing is written over.  DIR NULL: nothing
   to check.  0, or -1 after printing the error, which names both. */
int sb_cli_csv_check(const char *dir, sb_cli_csv_what what,
                     const sb_cli_path *others, size_t n);
/* exact --all --csv DIR: where the summary grid of a kind's walks goes,
   DIR/grid-KIND.csv ("grid-permutation.csv"). */
void sb_cli_csv_grid_path(const char *dir, sb_kind kind, char *path,
                          size_t len);

/* Before a run: a state can be saved as 'path' - a regular file or none,
   beside which a temporary file can be made - and saving it throws no
   work away: an existing non-empty file is refused unless it is the one
   'resume' names (NULL: none) or 'force' is set.  0, or -1 after printing
   the error. */
int sb_cli_can_save(const char *path, const char *resume, int force);

/* Start writing the output 'path' ("-": stdout) through a temporary file
   (src/engine/outfile.h).  0 with o->f to write to, or -1 after printing the
   error. */
int sb_cli_open_out(sb_outfile *o, const char *path);
/* Finish what sb_cli_open_out began, 'status' being the renderer's:
   SB_OK puts it in place; otherwise it is removed and the target left as
   it was (a stream written in place keeps what was written).  0; -1
   after printing the error ("cannot write 'x': No space left on
   device"); 1 when the run's stop cut it (status SB_EINTR, or a write
   to a slow reader failed with EINTR: the handlers have no SA_RESTART),
   nothing printed: the caller exits 130 and says "interrupted" once. */
int sb_cli_finish_out(sb_outfile *o, int status);
/* The same with 'ok' for SB_OK, SB_EIO otherwise. */
int sb_cli_close_out(sb_outfile *o, int ok);

/* Progress on stderr while a run lasts more than a second; nothing when
   stderr is not a terminal or 'quiet'. */
typedef struct sb_cli_progress {
    int enabled;
    double start;
    int shown;                /* a line is on screen and must be ended */
    const char *label;
    const char *unit;         /* "samples" or "paths" */
} sb_cli_progress;
void sb_cli_progress_init(sb_cli_progress *p, int quiet, const char *label);
void sb_cli_progress_update(void *ctx, uint64_t done, uint64_t total);
void sb_cli_progress_end(sb_cli_progress *p);
/* The same line for a new stage: ended, labelled 'label' (kept, not
   copied), its rate counted from now. */
void sb_cli_progress_relabel(sb_cli_progress *p, const char *label);

/* The HTML pages (src/cli/html.c).  The command as typed - 'prog', then
   argv[0..argc-1] quoted for a POSIX shell where needed - for a page to
   state (free it; NULL when out of memory). */
char *sb_cli_command_line(const char *prog, int argc, char **argv);
/* Before a run: --html 'path' (NULL: none) names a file that can be
   written.  0, or -1 after printing the error. */
int sb_cli_check_html(const char *path);
/* Write the page of one run, or of an audit, to 'path' (NULL: nothing),
   stating 'command_line' (NULL: none), and return 'code', SB_EXIT_USAGE
   when it could not be written, or SB_EXIT_INTERRUPTED when the run's
   stop cut it. */
struct sb_report;
int sb_cli_html(const char *path, const struct sb_report *rep,
                const char *command_line, int no_timing, int code);
/* The same for a merge, whose page lists the state files 'files' merged
   and the seed of each ('seeds'), rep->run.merged_files of each. */
int sb_cli_merge_html(const char *path, const struct sb_report *rep,
                      const char *command_line, int no_timing, int code,
                      const char *const *files, const uint64_t *seeds);
int sb_cli_audit_html(const char *path, const struct sb_report *reps,
                      size_t m, const char *command_line, int no_timing,
                      int code);

#endif /* SB_CLI_H */
