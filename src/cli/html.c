/*
 * html.c - the HTML pages of 'test', 'merge' and 'audit' (--html FILE):
 * the command line as typed, for the page to state, and the page written
 * whole or not at all (src/engine/outfile.h).
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

#include "reports/render.h"
#include "shufflebias/status.h"

/* A word a POSIX shell reads back as itself without quotes. */
static int plain_word(const char *w)
{
    if (!*w)
        return 0;
    for (const char *c = w; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789_@%+=:,./-", *c))
            return 0;
    return 1;
}

char *sb_cli_command_line(const char *prog, int argc, char **argv)
{
    size_t len = strlen(prog) + 1;
    for (int i = 0; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;   /* each ' becomes '\'' */
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    p += sprintf(p, "%s", prog);
    for (int i = 0; i < argc; i++) {
        *p++ = ' ';
        if (plain_word(argv[i])) {
            p += sprintf(p, "%s", argv[i]);
            continue;
        }
        *p++ = '\'';
        for (const char *c = argv[i]; *c; c++) {
            if (*c == '\'') {
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *c;
            }
        }
        *p++ = '\'';
    }
    *p = '\0';
    return s;
}

int sb_cli_check_html(const char *path)
{
    if (path && strcmp(path, "-") == 0) {
        sb_cli_error("--html needs a file name, not '-'");
        return -1;
    }
    return sb_cli_can_write(path);
}

/* Write 'path' with 'render'; 0, -1 after printing the error, 1 when the
   run's stop cut it. */
static int write_page(const char *path, int (*render)(FILE *, const void *,
                                                      size_t,
                                                      const sb_render_opts *),
                      const void *arg, size_t m, const sb_render_opts *o)
{
    sb_outfile out;
    if (sb_cli_open_out(&out, path) != 0)
        return -1;
    return sb_cli_finish_out(&out, render(out.f, arg, m, o));
}

static int one_page(FILE *f, const void *rep, size_t m,
                    const sb_render_opts *o)
{
    (void)m;
    return sb_render_html(f, rep, o);
}

static int audit_page(FILE *f, const void *reps, size_t m,
                      const sb_render_opts *o)
{
    return sb_render_audit_html(f, reps, m, o);
}

/* The exit code after a page: 'code', SB_EXIT_USAGE when it could not be
   written, SB_EXIT_INTERRUPTED (said once) when a stop cut it. */
static int after_page(int rc, int code, int partial)
{
    if (rc < 0)
        return SB_EXIT_USAGE;
    if (rc > 0 && code != SB_EXIT_USAGE) {
        if (!partial)
            sb_cli_error("interrupted while the report was written: "
                         "what was written is cut short");
        return SB_EXIT_INTERRUPTED;
    }
    return code;
}

/* A page of 'render' over 'arg', stating the command line. */
static int page(const char *path,
                int (*render)(FILE *, const void *, size_t,
                              const sb_render_opts *),
                const void *arg, size_t m, const char *command_line,
                int no_timing, int code, int partial)
{
    if (!path)
        return code;
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.command_line = command_line;
    o.no_timing = no_timing;
    return after_page(write_page(path, render, arg, m, &o), code, partial);
}

int sb_cli_html(const char *path, const struct sb_report *rep,
                const char *command_line, int no_timing, int code)
{
    return page(path, one_page, rep, 1, command_line, no_timing, code,
                rep->run.partial);
}

int sb_cli_merge_html(const char *path, const struct sb_report *rep,
                      const char *command_line, int no_timing, int code,
                      const char *const *files, const uint64_t *seeds)
{
    if (!path)
        return code;
    sb_render_opts o = SB_RENDER_OPTS_DEFAULT;
    o.command_line = command_line;
    o.no_timing = no_timing;
    o.merged_names = files;
    o.merged_name_seeds = seeds;
    return after_page(write_page(path, one_page, rep, 1, &o), code,
                      rep->run.partial);
}

int sb_cli_audit_html(const char *path, const struct sb_report *reps,
                      size_t m, const char *command_line, int no_timing,
                      int code)
{
    return page(path, audit_page, reps, m, command_line, no_timing, code, 0);
}
