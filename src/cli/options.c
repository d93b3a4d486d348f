/*
 * options.c - the one parser of the commands' option tables, and the
 * usage text made from them (options.h).
 *
 * The parser is getopt_long underneath: a long option may be shortened
 * to any unambiguous prefix, options and arguments may come in any order,
 * and "--" ends the options, as they always did.  What the table adds is
 * that a command states each option once: the parser, the usage, the
 * completion and the man-page check all read the same rows.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <getopt.h>
#include <stdint.h>
#include <string.h>

/* Options of one command, at most (test has the most). */
#define OPTIONS_MAX 64
/* Where the help of an option starts, and the width it is wrapped to. */
#define HELP_COLUMN 20
#define USAGE_WIDTH 76

static void *field_of(const sb_option *opt, void *base)
{
    return (char *)base + opt->field;
}

int sb_opt_flag(const sb_option *opt, const char *arg, void *base)
{
    (void)arg;
    *(int *)field_of(opt, base) = 1;
    return 0;
}

int sb_opt_string(const sb_option *opt, const char *arg, void *base)
{
    *(const char **)field_of(opt, base) = arg;
    return 0;
}

int sb_opt_n(const sb_option *opt, const char *arg, void *base)
{
    return sb_cli_opt_n(arg, field_of(opt, base));
}

int sb_opt_count(const sb_option *opt, const char *arg, void *base)
{
    return sb_cli_opt_count(opt->name, arg, field_of(opt, base));
}

int sb_opt_seed(const sb_option *opt, const char *arg, void *base)
{
    return sb_cli_opt_seed(arg, field_of(opt, base));
}

int sb_opt_threads(const sb_option *opt, const char *arg, void *base)
{
    return sb_cli_opt_threads(arg, field_of(opt, base));
}

int sb_opt_memory(const sb_option *opt, const char *arg, void *base)
{
    return sb_cli_opt_memory(arg, field_of(opt, base));
}

int sb_opt_escalate(const sb_option *opt, const char *arg, void *base)
{
    return sb_cli_opt_escalate(arg, field_of(opt, base));
}

int sb_opt_kind(const sb_option *opt, const char *arg, void *base)
{
    return sb_cli_opt_kind(arg, field_of(opt, base));
}

int sb_opt_param(const sb_option *opt, const char *arg, void *base)
{
    sb_cli_params *p = field_of(opt, base);
    return sb_cli_opt_param(p->list, &p->count, arg);
}

int sb_opt_help(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    (void)arg;
    (void)base;
    return 1;
}

int sb_options_parse(const sb_command *cmd, int argc, char **argv,
                     void *base, int *next)
{
    struct option longopts[OPTIONS_MAX + 1];
    const sb_option *rows[OPTIONS_MAX];
    char shorts[2 * OPTIONS_MAX + 1];
    size_t m = 0, s = 0;
    for (const sb_option *o = cmd->options; o->name || o->group; o++) {
        if (!o->name)
            continue;
        if (m == OPTIONS_MAX) {
            sb_cli_error("%s: too many options in its table", cmd->name);
            return -1;
        }
        rows[m] = o;
        longopts[m] = (struct option){ o->name, o->arg ? required_argument
                                                       : no_argument,
                                       NULL, 256 + (int)m };
        m++;
        if (o->letter) {
            shorts[s++] = o->letter;
            if (o->arg)
                shorts[s++] = ':';
        }
    }
    longopts[m] = (struct option){ NULL, 0, NULL, 0 };
    shorts[s] = '\0';
    optind = 1;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1;) {
        const sb_option *o = NULL;
        if (c >= 256 && c < 256 + (int)m)
            o = rows[c - 256];
        for (size_t i = 0; !o && c != '?' && c != ':' && i < m; i++)
            if (rows[i]->letter == c)
                o = rows[i];
        if (!o) {
            sb_cli_bad_option(cmd->name, argv[optind - 1]);
            return -1;
        }
        const int rc = o->set(o, o->arg ? optarg : NULL, base);
        if (rc < 0)
            return -1;
        if (rc > 0) {
            sb_options_usage(cmd, stdout);
            return 1;
        }
        if (o->given != SB_OPT_NOWHERE)
            (*(int *)((char *)base + o->given))++;
    }
    *next = optind;
    return 0;
}

/* "  --samples S" or "  -h, --help", then the help from HELP_COLUMN,
   wrapped at word boundaries to USAGE_WIDTH. */
static void usage_row(const sb_option *o, FILE *f)
{
    char label[96];
    if (o->letter)
        snprintf(label, sizeof label, "-%c, --%s%s%s", o->letter, o->name,
                 o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(label, sizeof label, "--%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    int col = fprintf(f, "  %s", label);
    const char *p = o->help;
    while (*p) {
        const size_t word = strcspn(p, " ");
        if (col >= HELP_COLUMN && col + 1 + (int)word > USAGE_WIDTH) {
            fputc('\n', f);
            col = 0;
        }
        if (col < HELP_COLUMN) {
            col += fprintf(f, "%*s", HELP_COLUMN - col, "");
        } else {
            fputc(' ', f);
            col++;
        }
        col += fprintf(f, "%.*s", (int)word, p);
        p += word;
        p += strspn(p, " ");
    }
    fputc('\n', f);
}

void sb_options_usage(const sb_command *cmd, FILE *f)
{
    fputs(cmd->synopsis, f);
    fputc('\n', f);
    for (const sb_option *o = cmd->options; o->name || o->group; o++) {
        if (o->name) {
            usage_row(o, f);
        } else {
            if (o != cmd->options)
                fputc('\n', f);
            if (o->group[0])
                fprintf(f, "%s\n", o->group);
        }
    }
    if (cmd->epilogue) {
        fputc('\n', f);
        fputs(cmd->epilogue, f);
    }
}

void sb_options_names(const sb_command *cmd, FILE *f)
{
    for (const sb_option *o = cmd->options; o->name || o->group; o++) {
        if (!o->name)
            continue;
        if (o->letter)
            fprintf(f, "-%c%s%s\n", o->letter, o->arg ? " " : "",
                    o->arg ? o->arg : "");
        fprintf(f, "--%s%s%s\n", o->name, o->arg ? " " : "",
                o->arg ? o->arg : "");
    }
}
