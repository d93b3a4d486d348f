/*
 * exact.c - the exact table of 'shufflebias exact', for terminals and JSON.
 *
 * Cards are written as letters A, B, C, ... (A is card 0, on top of the
 * start deck) up to 26 cards, as the literature writes small decks, and as
 * numbers beyond.  A permutation is the deck from top to bottom ("BCA"); a
 * draw is the hand in the order drawn; a deal lists each hand's cards,
 * hands separated by '|' ("AC|BD").
 */
#define _POSIX_C_SOURCE 200809L   /* fileno, ftruncate */
#include "reports/render.h"
#include "reports/exact_grid.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shufflebias/status.h"

#define LIST_ALL_MAX 720      /* outcomes listed one by one up to 6! */
#define EXTREMES 5            /* most and least likely shown beyond that */
#define LEVELS_SHOWN 12       /* lowest and highest levels shown */

static void card_str(char *buf, size_t len, size_t n, sb_card c, int sep)
{
    if (n <= 26)
        snprintf(buf, len, "%c", 'A' + c);
    else
        snprintf(buf, len, sep ? " %u" : "%u", (unsigned)c);
}

/* An outcome in words; 'buf' needs room for about 6 characters a card. */
static void outcome_str(const sb_exact_report *rep, const sb_card *s,
                        char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    char c[16];
    if (rep->kind != SB_KIND_DEAL) {
        for (size_t j = 0; j < rep->len && used + 8 < len; j++) {
            card_str(c, sizeof c, rep->n, s[j], j > 0);
            used += (size_t)snprintf(buf + used, len - used, "%s", c);
        }
        return;
    }
    unsigned hands = 0;
    for (size_t j = 0; j < rep->len; j++)
        if (s[j] + 1u > hands)
            hands = s[j] + 1u;
    for (unsigned h = 0; h < hands; h++) {
        int first = 1;
        if (h > 0 && used + 2 < len)
            used += (size_t)snprintf(buf + used, len - used, "|");
        for (size_t card = 0; card < rep->len && used + 8 < len; card++)
            if (s[card] == h) {
                card_str(c, sizeof c, rep->n, (sb_card)card, !first);
                used += (size_t)snprintf(buf + used, len - used, "%s", c);
                first = 0;
            }
    }
}

void sb_exact_outcome_str(const sb_exact_report *rep, const sb_card *sample,
                          char *buf, size_t len)
{
    outcome_str(rep, sample, buf, len);
}

void sb_exact_card_str(const sb_exact_report *rep, size_t card, char *buf,
                       size_t len)
{
    card_str(buf, len, rep->n, (sb_card)card, 0);
}

double sb_exact_fraction_value(const char *s)
{
    char *end;
    const double p = strtod(s, &end);
    if (*end != '/')
        return p;
    const double q = strtod(end + 1, NULL);
    return q > 0.0 ? p / q : NAN;
}

const char *sb_exact_fraction_shown(const char *s)
{
    return s[0] == '0' && (s[1] == '/' || s[1] == '\0') ? "0" : s;
}

double sb_exact_cell_uniform(const sb_exact_report *rep)
{
    return 1.0 / (double)(rep->kind == SB_KIND_DEAL ? rep->cols : rep->rows);
}

static const char *outcome_noun(const sb_exact_report *rep)
{
    return rep->kind == SB_KIND_DEAL ? "deals"
         : rep->kind == SB_KIND_DRAW ? "hands" : "orders";
}

static void outcome_row(FILE *f, const sb_exact_report *rep,
                        const sb_exact_outcome *o, int width)
{
    char s[512];
    outcome_str(rep, o->sample, s, sizeof s);
    fprintf(f, "  %-*s  %-20s %-12.6g %8.4f  %" PRIu64 "\n", width, s,
            o->fraction, o->probability, o->ratio, o->paths);
}

static void print_matrix(FILE *f, const sb_exact_report *rep)
{
    if (!rep->matrix)
        return;
    size_t w = 4;
    for (size_t i = 0; i < rep->rows * rep->cols; i++)
        if (strlen(sb_exact_fraction_shown(rep->matrix[i])) > w)
            w = strlen(sb_exact_fraction_shown(rep->matrix[i]));
    fprintf(f, "\nexact %s matrix (row: card; column: %s):\n     ",
            rep->kind == SB_KIND_DEAL ? "card x hand" : "card x position",
            rep->kind == SB_KIND_DEAL ? "hand" : "final position");
    for (size_t j = 0; j < rep->cols; j++)
        fprintf(f, " %*zu", (int)w, j);
    fputc('\n', f);
    for (size_t c = 0; c < rep->rows; c++) {
        char name[16];
        card_str(name, sizeof name, rep->n, (sb_card)c, 0);
        fprintf(f, "  %-3s", name);
        for (size_t j = 0; j < rep->cols; j++)
            fprintf(f, " %*s", (int)w,
                    sb_exact_fraction_shown(rep->matrix[c * rep->cols + j]));
        fputc('\n', f);
    }
}

/* The first line of a text report: what was walked. */
static void heading(FILE *f, const sb_exact_report *rep)
{
    fprintf(f, "exact: %s, n = %zu%s%s%s\n", rep->algorithm, rep->n,
            rep->params[0] ? " (" : "", rep->params,
            rep->params[0] ? ")" : "");
}

/* --expect, under the verdict: held, not held, or nothing to hold it to
   (an interrupted or inconclusive walk: its exit code stands). */
static void expectation_text(FILE *f, const sb_exact_report *rep,
                             const char *expect)
{
    if (!expect)
        return;
    const int held = sb_exact_expectation(rep, expect);
    fprintf(f, "expected: %s - %s\n", expect,
            held > 0 ? "held" : held == 0 ? "NOT HELD" : "not judged");
}

/* An interrupted walk: its totals, no outcome listed. */
static int summary_text(FILE *f, const sb_exact_report *rep, int timing,
                        const char *expect)
{
    const char *noun = outcome_noun(rep);
    heading(f, rep);
    fprintf(f, "interrupted after %" PRIu64 " paths", rep->paths);
    if (rep->cut_paths)
        fprintf(f, " (and %" PRIu64 " cut at the depth limit)",
                rep->cut_paths);
    fprintf(f, ": %" PRIu64 " of %s %s reached\n", rep->reached,
            rep->possible, noun);
    fprintf(f, "mass of the paths walked: %s = %.6g; unexplored: %.6g\n",
            sb_exact_fraction_shown(rep->explored), rep->explored_d,
            rep->unexplored_d);
    fprintf(f, "\nverdict: INCONCLUSIVE - interrupted; the %s reached "
            "are not listed (a walk run to its end lists them)\n", noun);
    expectation_text(f, rep, expect);
    if (timing)
        fprintf(f, "time: %.2f s\n", rep->seconds);
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_exact_text(FILE *f, const sb_exact_report *rep)
{
    return sb_render_exact_text_with(f, rep, NULL);
}

int sb_render_exact_text_with(FILE *f, const sb_exact_report *rep,
                              const sb_render_opts *opts)
{
    const int timing = !(opts && opts->no_timing);
    const char *expect = opts ? opts->expect : NULL;
    if (rep->summary_only)
        return summary_text(f, rep, timing, expect);
    const char *noun = outcome_noun(rep);
    heading(f, rep);
    char count[48];
    sb_render_count(count, sizeof count, rep->paths);
    fprintf(f, "%s paths walked", count);
    if (rep->equal_weights)
        fprintf(f, ", each with probability %s", rep->path_weight);
    if (rep->cut_paths)
        fprintf(f, "; %" PRIu64 " cut at the depth limit", rep->cut_paths);
    fprintf(f, "\n%s %s possible, each %s under a uniform shuffle\n\n",
            rep->possible, noun, rep->uniform);

    /* The column as wide as the outcomes shown: all of them up to
       LIST_ALL_MAX, else the most and least likely (a pass over millions
       would take seconds). */
    int width = 5;
    char s[512];
    const size_t m = rep->n_outcomes;
    const size_t shown = m <= LIST_ALL_MAX ? m : 2 * EXTREMES;
    for (size_t i = 0; i < shown; i++) {
        const size_t o = m <= LIST_ALL_MAX ? i
                       : i < EXTREMES ? rep->by_probability[i]
                       : rep->by_probability[m - 1 - (i - EXTREMES)];
        outcome_str(rep, rep->outcomes[o].sample, s, sizeof s);
        if ((int)strlen(s) > width)
            width = (int)strlen(s);
    }
    const char *head = rep->kind == SB_KIND_DEAL ? "deal"
                     : rep->kind == SB_KIND_DRAW ? "hand" : "order";
    if (rep->n_outcomes <= LIST_ALL_MAX) {
        fprintf(f, "  %-*s  %-20s %-12s %8s  %s\n", width, head, "probability",
                "decimal", "ratio", "paths");
        for (size_t i = 0; i < rep->n_outcomes; i++)
            outcome_row(f, rep, &rep->outcomes[i], width);
    } else {
        fprintf(f, "the %d most likely and the %d least likely of %zu %s "
                "reached:\n  %-*s  %-20s %-12s %8s  %s\n", EXTREMES, EXTREMES,
                m, noun, width, head, "probability", "decimal", "ratio",
                "paths");
        for (size_t i = 0; i < EXTREMES; i++)
            outcome_row(f, rep, &rep->outcomes[rep->by_probability[m - 1 - i]],
                        width);
        fprintf(f, "  ...\n");
        for (size_t i = EXTREMES; i-- > 0;)
            outcome_row(f, rep, &rep->outcomes[rep->by_probability[i]], width);
        fprintf(f, "\n%s per probability level:\n  %-20s %-12s %8s  %s\n",
                noun, "probability", "decimal", "ratio", noun);
        for (size_t i = 0; i < rep->n_levels; i++) {
            const sb_exact_level *l = &rep->levels[i];
            if (rep->n_levels > 2 * LEVELS_SHOWN && i == LEVELS_SHOWN) {
                fprintf(f, "  ... %zu more levels (all in --json)\n",
                        rep->n_levels - 2 * LEVELS_SHOWN);
                i = rep->n_levels - LEVELS_SHOWN - 1;
                continue;
            }
            fprintf(f, "  %-20s %-12.6g %8.4f  %" PRIu64 "\n",
                    sb_exact_fraction_shown(l->fraction), l->probability,
                    l->ratio, l->outcomes);
        }
    }
    if (rep->n_never > 0) {
        fprintf(f, "\nnever reached: %s of %s %s:", rep->unreached,
                rep->possible, noun);
        for (size_t i = 0; i < rep->n_never; i++) {
            outcome_str(rep, rep->never + i * rep->len, s, sizeof s);
            fprintf(f, " %s", s);
        }
        fputc('\n', f);
    } else {
        fprintf(f, "\nnever reached: %s of %s %s\n", rep->unreached,
                rep->possible, noun);
    }
    if (rep->tv_d == 0)
        fputs("total-variation distance from uniform: 0\n", f);
    else
        fprintf(f, "total-variation distance from uniform: %s = %.6g\n",
                rep->tv, rep->tv_d);
    if (rep->min_ratio > 0)
        fprintf(f, "max/min probability ratio: %.6g (most likely %.4g x "
                "uniform, least likely %.4g x uniform)\n",
                rep->max_ratio / rep->min_ratio, rep->max_ratio,
                rep->min_ratio);
    else
        fprintf(f, "max/min probability ratio: infinite (most likely %.4g x "
                "uniform, some %s never happen)\n", rep->max_ratio, noun);
    if (rep->unexplored_d > 0)
        fprintf(f, "exact up to an unexplored mass of %s = %.6g%s\n",
                rep->unexplored, rep->unexplored_d,
                rep->partial ? " (interrupted)" : "");
    print_matrix(f, rep);

    if (rep->verdict == SB_EXACT_UNIFORM)
        fprintf(f, "\nverdict: EXACTLY UNIFORM - every one of the %s %s has "
                "probability %s\n", rep->possible, noun, rep->uniform);
    else if (rep->verdict == SB_EXACT_BIASED)
        fprintf(f, "\nverdict: NOT UNIFORM - total-variation distance %s "
                "(%.4g) from uniform\n", rep->tv, rep->tv_d);
    else
        fprintf(f, "\nverdict: INCONCLUSIVE - no bias in the mass walked, "
                "but %s was not explored\n", rep->unexplored);
    expectation_text(f, rep, expect);
    if (timing)
        fprintf(f, "time: %.2f s\n", rep->seconds);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* A decimal count as a JSON integer when it fits, else a string. */
static json_t *count_json(const char *decimal)
{
    char *end;
    unsigned long long v = strtoull(decimal, &end, 10);
    return !*end && v < (1ull << 53) ? json_integer((json_int_t)v)
                                     : json_string(decimal);
}

/* One outcome as JSON (new reference); 'field' names its cards. */
static json_t *outcome_json(const sb_exact_report *rep,
                            const sb_exact_outcome *o, const char *field)
{
    json_t *item = json_object(), *cards = json_array();
    for (size_t j = 0; j < rep->len; j++)
        json_array_append_new(cards, json_integer(o->sample[j]));
    json_object_set_new(item, field, cards);
    if (rep->equal_weights)
        json_object_set_new(item, "count", sb_count_json(o->paths));
    json_object_set_new(item, "paths", sb_count_json(o->paths));
    json_object_set_new(item, "probability", json_real(o->probability));
    json_object_set_new(item, "exact", json_string(o->fraction));
    json_object_set_new(item, "ratio", json_real(o->ratio));
    return item;
}

static json_t *level_json(const sb_exact_level *l)
{
    return json_pack("{s:s, s:f, s:f, s:I}", "exact", l->fraction,
                     "probability", l->probability, "ratio", l->ratio,
                     "outcomes", (json_int_t)l->outcomes);
}

static const char *outcomes_key(const sb_exact_report *rep)
{
    return rep->kind == SB_KIND_DEAL ? "deals"
         : rep->kind == SB_KIND_DRAW ? "draws" : "permutations";
}

static const char *cards_field(const sb_exact_report *rep)
{
    return rep->kind == SB_KIND_DEAL ? "hands"
         : rep->kind == SB_KIND_DRAW ? "cards" : "perm";
}

/* The report as JSON; with 'shell', its outcomes and levels are null, to
   be written one by one in their place (sb_render_exact_json). */

/* What depends on the machine, kept apart from the result (as in a test
   report): the memory budget and the table's estimate, and the time. */
static json_t *machine_keys(json_t *root, const sb_exact_report *rep,
                            int no_timing)
{
    if (no_timing)
        return root;
    if (rep->memory_budget)
        json_object_set_new(root, "memory", json_pack(
            "{s:I, s:I}", "budget", (json_int_t)rep->memory_budget,
            "estimate", (json_int_t)rep->memory_estimate));
    json_t *timing = json_object();
    json_object_set_new(timing, "seconds", json_real(rep->seconds));
    json_object_set_new(root, "timing", timing);
    return root;
}

/* The keys of --expect after "uniform", with 'o' asking for them. */
static void expectation_keys(json_t *root, const sb_exact_report *rep,
                             const sb_render_opts *o)
{
    if (o && o->expectation)
        sb_expectation_json(root, o->expect,
                            sb_exact_expectation(rep, o->expect));
}

/* 'o' NULL: the defaults. */
static json_t *exact_json(const sb_exact_report *rep, int shell,
                          const sb_render_opts *o)
{
    const int no_timing = o && o->no_timing;
    json_t *root = json_object();
    json_object_set_new(root, "command", json_string("exact"));
    json_object_set_new(root, "algorithm", json_string(rep->algorithm));
    json_object_set_new(root, "params", sb_params_json(rep->params));
    json_object_set_new(root, "kind", json_string(sb_kind_str(rep->kind)));
    json_object_set_new(root, "n", json_integer((json_int_t)rep->n));
    json_object_set_new(root, "paths", sb_count_json(rep->paths));
    json_object_set_new(root, "cut_paths",
                        json_integer((json_int_t)rep->cut_paths));
    json_object_set_new(root, "possible", count_json(rep->possible));
    json_object_set_new(root, "uniform_probability",
                        json_string(rep->uniform));
    if (rep->summary_only) {
        /* An interrupted walk: its totals only, whatever its size. */
        json_object_set_new(root, "reached",
                            json_integer((json_int_t)rep->reached));
        json_object_set_new(root, "outcomes_listed", json_false());
        json_object_set_new(root, "explored_mass", json_string(rep->explored));
        json_object_set_new(root, "explored_mass_decimal",
                            json_real(rep->explored_d));
        json_object_set_new(root, "never_reached",
                            count_json(rep->unreached));
        json_object_set_new(root, "unexplored_mass",
                            json_string(rep->unexplored));
        json_object_set_new(root, "uniform", json_false());
        expectation_keys(root, rep, o);
        json_object_set_new(root, "partial", json_true());
        return machine_keys(root, rep, no_timing);
    }

    const char *key = outcomes_key(rep), *field = cards_field(rep);
    json_t *list = shell ? json_null() : json_array();
    int listed = 1;
    for (size_t i = 0; i < rep->n_outcomes && listed && !shell; i++) {
        if ((i & 0xffff) == 0 && rep->stop && *rep->stop) {
            /* Interrupted while the table is written: what is known,
               without the outcomes. */
            json_array_clear(list);
            listed = 0;
            break;
        }
        json_array_append_new(list,
                              outcome_json(rep, &rep->outcomes[i], field));
    }
    if (!listed) {
        json_decref(list);
        json_object_set_new(root, "reached",
                            json_integer((json_int_t)rep->n_outcomes));
        json_object_set_new(root, "outcomes_listed", json_false());
    } else {
        json_object_set_new(root, key, list);
    }
    json_t *levels = shell ? json_null() : json_array();
    for (size_t i = 0; i < rep->n_levels && listed && !shell; i++)
        json_array_append_new(levels, level_json(&rep->levels[i]));
    json_object_set_new(root, "levels", levels);
    json_object_set_new(root, "never_reached", count_json(rep->unreached));
    json_object_set_new(root, "tv_distance", json_real(rep->tv_d));
    json_object_set_new(root, "tv_distance_exact", json_string(rep->tv));
    json_object_set_new(root, "unexplored_mass", json_string(rep->unexplored));
    json_object_set_new(root, "max_ratio", json_real(rep->max_ratio));
    json_object_set_new(root, "min_ratio", json_real(rep->min_ratio));
    json_object_set_new(root, "uniform", json_boolean(rep->verdict == SB_EXACT_UNIFORM));
    expectation_keys(root, rep, o);
    json_object_set_new(root, "partial",
                        json_boolean(rep->partial || !listed));
    if (rep->matrix) {
        json_t *m = json_array();
        for (size_t c = 0; c < rep->rows; c++) {
            json_t *row = json_array();
            for (size_t j = 0; j < rep->cols; j++)
                json_array_append_new(row,
                    json_string(rep->matrix[c * rep->cols + j]));
            json_array_append_new(m, row);
        }
        json_object_set_new(root, rep->kind == SB_KIND_DEAL
                            ? "hand_matrix" : "position_matrix", m);
    }
    return machine_keys(root, rep, no_timing);
}

json_t *sb_exact_json(const sb_exact_report *rep)
{
    return exact_json(rep, 0, NULL);
}

json_t *sb_exact_json_with(const sb_exact_report *rep,
                           const sb_render_opts *o)
{
    return exact_json(rep, 0, o);
}

/* Writing the JSON text, which for millions of outcomes takes seconds:
   given up as soon as the run's stop flag is set. */
typedef struct json_out {
    FILE *f;
    const volatile sig_atomic_t *stop;
    const sb_render_opts *opts;   /* NULL: the defaults */
} json_out;

static int put_unless_stopped(const char *buf, size_t size, void *data)
{
    const json_out *o = data;
    if (o->stop && *o->stop)
        return -1;
    return fwrite(buf, 1, size, o->f) == size ? 0 : -1;
}

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

/* 'len' bytes of 'text', a value nested in an array in the root: every
   line after its first indented four more spaces, as Jansson indents
   it. */
static int put_nested(const json_out *o, const char *text)
{
    for (const char *nl; (nl = strchr(text, '\n')) != NULL; text = nl + 1)
        if (put_unless_stopped(text, (size_t)(nl - text) + 1, (void *)o) != 0
            || put_unless_stopped("    ", 4, (void *)o) != 0)
            return -1;
    return put_unless_stopped(text, strlen(text), (void *)o);
}

/* The outcomes (or the levels) written one by one, each made, written and
   released before the next: a table of millions takes no more memory in
   JSON than one of them.  0, or -1 when stopped or a write failed. */
static int put_list(const json_out *o, const sb_exact_report *rep,
                    int outcomes)
{
    const size_t count = outcomes ? rep->n_outcomes : rep->n_levels;
    if (count == 0)
        return put_unless_stopped("[]", 2, (void *)o);
    if (put_unless_stopped("[", 1, (void *)o) != 0)
        return -1;
    for (size_t i = 0; i < count; i++) {
        json_t *item = outcomes
                     ? outcome_json(rep, &rep->outcomes[i], cards_field(rep))
                     : level_json(&rep->levels[i]);
        char *text = item ? json_dumps(item, JSON_FLAGS) : NULL;
        json_decref(item);
        const int rc = !text ? -1
                     : put_unless_stopped(i ? ",\n    " : "\n    ", i ? 6 : 5,
                                          (void *)o) != 0 ? -1
                     : put_nested(o, text);
        free(text);
        if (rc != 0)
            return -1;
    }
    return put_unless_stopped("\n  ]", 4, (void *)o);
}

/* The whole report, its lists written in place of the shell's nulls.
   0, or -1 when stopped or a write failed. */
static int put_streamed(const json_out *o, const sb_exact_report *rep)
{
    json_t *shell = exact_json(rep, 1, o->opts);
    char *text = shell ? json_dumps(shell, JSON_FLAGS) : NULL;
    json_decref(shell);
    if (!text)
        return -1;
    char key[64];
    snprintf(key, sizeof key, "\"%s\": null", outcomes_key(rep));
    char *a = strstr(text, key);
    char *b = a ? strstr(a, "\"levels\": null") : NULL;
    int rc = -1;
    if (a && b) {
        const size_t ka = strlen(key) - 4, kb = strlen("\"levels\": ");
        rc = put_unless_stopped(text, (size_t)(a - text) + ka, (void *)o)
          || put_list(o, rep, 1)
          || put_unless_stopped(a + ka + 4, (size_t)(b - a) - ka - 4,
                                (void *)o)
          || put_unless_stopped(b, kb, (void *)o)
          || put_list(o, rep, 0)
          || put_unless_stopped(b + kb + 4, strlen(b + kb + 4), (void *)o)
          ? -1 : 0;
    }
    free(text);
    return rc;
}

int sb_render_exact_json(FILE *f, const sb_exact_report *rep)
{
    return sb_render_exact_json_with(f, rep, NULL);
}

int sb_render_exact_json_with(FILE *f, const sb_exact_report *rep,
                              const sb_render_opts *opts)
{
    if (!rep->summary_only && !(rep->stop && *rep->stop)) {
        const long start = ftell(f);
        const json_out out = { f, rep->stop, opts };
        if (put_streamed(&out, rep) == 0) {
            fputc('\n', f);
            return ferror(f) ? SB_EIO : SB_OK;
        }
        if (!(rep->stop && *rep->stop))
            return SB_EIO;
        /* Interrupted while writing: a file is started again with the
           report that lists no outcome; on a pipe, which cannot be
           rewound, what was written stays, cut short, and the stop is
           said as such (not as a write error). */
        if (start < 0 || fflush(f) != 0 || fseek(f, start, SEEK_SET) != 0)
            return SB_EINTR;
        /* A stream without a descriptor (an output file's, src/engine/outfile.h)
           ends where its writing ends. */
        if (fileno(f) >= 0 && ftruncate(fileno(f), (off_t)start) != 0)
            return SB_EIO;
    }
    return sb_render_json_value(f, exact_json(rep, 0, opts));
}

/* Text for a Markdown table cell: '|' (between a deal's hands) escaped. */
static void markdown_cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void markdown_section(FILE *f, const sb_exact_report *rep,
                             const char *bias)
{
    const char *noun = outcome_noun(rep);
    fprintf(f, "\n## `%s`%s%s%s\n\n", rep->algorithm,
            rep->params[0] ? " (" : "", rep->params,
            rep->params[0] ? ")" : "");
    if (bias && *bias)      /* a plug-in's shuffle says nothing */
        fprintf(f, "%s\n\n", bias);
    if (rep->summary_only) {
        fprintf(f, "Interrupted after %" PRIu64 " paths: %" PRIu64 " of %s "
                "%s reached, with an exact mass of %s; %s unexplored. "
                "Inconclusive.\n", rep->paths, rep->reached, rep->possible,
                noun, sb_exact_fraction_shown(rep->explored),
                sb_exact_fraction_shown(rep->unexplored));
        return;
    }
    char count[48];
    sb_render_count(count, sizeof count, rep->paths);
    fprintf(f, "%s paths", count);
    if (rep->equal_weights)
        fprintf(f, ", each with probability %s", rep->path_weight);
    fprintf(f, "; %s %s possible, each %s under a uniform shuffle.\n\n",
            rep->possible, noun, rep->uniform);
    fprintf(f, "| %s | probability | decimal | ratio to uniform | paths |\n"
            "|---|---|---|---|---|\n", rep->kind == SB_KIND_DEAL ? "deal"
            : rep->kind == SB_KIND_DRAW ? "hand" : "order");
    char s[512];
    for (size_t i = 0; i < rep->n_outcomes; i++) {
        const sb_exact_outcome *o = &rep->outcomes[i];
        outcome_str(rep, o->sample, s, sizeof s);
        fputs("| ", f);
        markdown_cell(f, s);
        fprintf(f, " | %s | %.6g | %.4f | %" PRIu64 " |\n", o->fraction,
                o->probability, o->ratio, o->paths);
    }
    for (size_t i = 0; i < rep->n_never; i++) {
        outcome_str(rep, rep->never + i * rep->len, s, sizeof s);
        fputs("| ", f);
        markdown_cell(f, s);
        fputs(" | 0 | 0 | 0 | 0 |\n", f);
    }
    if (rep->tv_d == 0)
        fputs("\nTotal-variation distance from uniform: **0**.", f);
    else
        fprintf(f, "\nTotal-variation distance from uniform: **%s** "
                "(%.6g).", rep->tv, rep->tv_d);
    if (rep->unexplored_d > 0)
        fprintf(f, " Exact up to an unexplored mass of %s.", rep->unexplored);
    fprintf(f, " %s\n", rep->verdict == SB_EXACT_UNIFORM ? "Exactly uniform."
                       : rep->verdict == SB_EXACT_BIASED ? "Not uniform."
                       : "No bias in the mass walked; the rest is unexplored, "
                         "so this proves nothing either way.");
    if (rep->matrix) {
        fprintf(f, "\nExact %s matrix (row: card):\n\n| |",
                rep->kind == SB_KIND_DEAL ? "card x hand" : "card x position");
        for (size_t j = 0; j < rep->cols; j++)
            fprintf(f, " %zu |", j);
        fprintf(f, "\n|---|");
        for (size_t j = 0; j < rep->cols; j++)
            fprintf(f, "---|");
        fputc('\n', f);
        for (size_t c = 0; c < rep->rows; c++) {
            char name[16];
            card_str(name, sizeof name, rep->n, (sb_card)c, 0);
            fprintf(f, "| %s |", name);
            for (size_t j = 0; j < rep->cols; j++)
                fprintf(f, " %s |",
                        sb_exact_fraction_shown(rep->matrix[c * rep->cols
                                                            + j]));
            fputc('\n', f);
        }
    }
}

/* The summary grid: a row per algorithm, its exact probability of every
   outcome, and its distance from uniform. */
static void markdown_grid(FILE *f, const sb_exact_report *reps,
                          const sb_exact_grid *g)
{
    const sb_exact_report *first = &reps[g->rows[0]];
    fprintf(f, "\nThe exact probability of every %s%s (each %s under a "
            "uniform shuffle), and the total-variation distance from "
            "uniform:\n\n| algorithm |",
            first->kind == SB_KIND_DEAL ? "deal"
            : first->kind == SB_KIND_DRAW ? "hand" : "order",
            first->kind == SB_KIND_DEAL ? ", hands separated by \\|"
            : first->kind == SB_KIND_DRAW ? " drawn" : " of the deck",
            first->uniform);
    char s[512];
    for (size_t c = 0; c < g->n_cols; c++) {
        sb_exact_outcome_str(first, g->cols[c], s, sizeof s);
        fputc(' ', f);
        markdown_cell(f, s);
        fputs(" |", f);
    }
    fputs(" distance |\n|---|", f);
    for (size_t c = 0; c <= g->n_cols; c++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t r = 0; r < g->n_rows; r++) {
        const sb_exact_report *rep = &reps[g->rows[r]];
        fprintf(f, "| `%s`%s%s%s |", rep->algorithm,
                rep->params[0] ? " (" : "", rep->params,
                rep->params[0] ? ")" : "");
        for (size_t c = 0; c < g->n_cols; c++) {
            const sb_exact_outcome *o = sb_exact_find(rep, g->cols[c]);
            fprintf(f, " %s |", o ? o->fraction : "0");
        }
        if (rep->tv_d == 0)
            fputs(" 0", f);
        else
            fprintf(f, " %s (%.4g)", rep->tv, rep->tv_d);
        /* A walk cut at its depth limit proves nothing by itself. */
        if (rep->unexplored_d > 0)
            fprintf(f, "; %s unexplored", rep->unexplored);
        fputs(" |\n", f);
    }
}

int sb_render_exact_markdown(FILE *f, const char *title,
                             const sb_exact_report *reps, size_t m,
                             const char *const *bias)
{
    fprintf(f, "# %s\n\nEvery path of random draws walked, each with its "
            "exact probability. Cards are letters: A is on top of the "
            "starting deck ABC..., and an order lists the deck from top to "
            "bottom; a hand drawn lists its cards in the order drawn, and a "
            "deal lists the cards of each hand, hands separated by \\|. The "
            "ratio is the probability over that of a uniform shuffle.\n",
            title);
    sb_exact_grid *grids;
    size_t n_grids;
    if (sb_exact_grids(reps, m, &grids, &n_grids) != SB_OK)
        return SB_ENOMEM;
    if (n_grids > 0)
        fprintf(f, "\n## Every algorithm at a glance\n");
    for (size_t g = 0; g < n_grids; g++)
        markdown_grid(f, reps, &grids[g]);
    sb_exact_grids_free(grids, n_grids);
    for (size_t i = 0; i < m; i++)
        markdown_section(f, &reps[i], bias ? bias[i] : NULL);
    return ferror(f) ? SB_EIO : SB_OK;
}
