/*
 * csv.c - the tables of a report as CSV files, for people who plot in
 * their own tools (docs/command-line.md, "CSV files").
 *
 * A report of 'test' or 'merge' gives "summary.csv" (one line per
 * statistic) and one file per statistic that kept a table, named after
 * it: a matrix in long format (row,col,observed,expected,ratio, every
 * cell, whatever the size), a law's categories as
 * lo,hi,label,observed,expected (row first when the table has several
 * rows, as a deal's hands); an escalated run's stages last, in
 * "stages.csv".  An exact report gives "outcomes.csv" and,
 * when it has one, "matrix.csv".  A matrix's first two columns are named
 * after what its rows and columns are ("card,position", "card,hand").
 * Beside them the CLI writes "run.csv" (sb_render_run_csv), which says
 * which run the files are from.  Fields are quoted as RFC 4180 says:
 * those holding a comma, a quote or a line break, in double quotes, a
 * quote doubled.
 */
#include "reports/render.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/exact_grid.h"
#include "reports/tables.h"
#include "shufflebias/status.h"

/* One field, quoted when it must be. */
static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL && s[0] != ' '
        && (s[0] == '\0' || s[strlen(s) - 1] != ' ')) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* A number; NaN or infinite as an empty field. */
static void csv_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
}

/* The numbers of a matrix's file, which may have 16.8 million lines
   (position at 4096 cards): "%.10g" would be most of its time, and such a
   matrix holds few distinct expected counts and ratios.  So an integer is
   written digit by digit, and any other number formatted once and found
   again in a small table of the last ones seen.  The text is what
   csv_number writes. */
#define MEMO_SLOTS 256u

typedef struct csv_memo {
    double value[MEMO_SLOTS];
    char text[MEMO_SLOTS][32];
    unsigned char set[MEMO_SLOTS];
} csv_memo;

/* The decimal digits of 'v' at 'out'; their count. */
static size_t digits(uint64_t v, char *out)
{
    char tmp[24];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < k; i++)
        out[i] = tmp[k - 1 - i];
    return k;
}

/* 'v' as csv_number writes it, at 'out' (32 bytes at least); its
   length. */
static size_t number_text(csv_memo *m, double v, char *out)
{
    if (!isfinite(v))
        return 0;
    /* "%.10g" writes an integer below 10^10 as its digits ("-0" aside). */
    if (v == floor(v) && fabs(v) < 1e10 && !(v == 0 && signbit(v))) {
        size_t k = 0;
        if (v < 0)
            out[k++] = '-';
        return k + digits((uint64_t)fabs(v), out + k);
    }
    uint64_t h;
    memcpy(&h, &v, sizeof h);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 29;
    const size_t slot = (size_t)(h % MEMO_SLOTS);
    if (!m->set[slot] || m->value[slot] != v) {
        snprintf(m->text[slot], sizeof m->text[slot], "%.10g", v);
        m->value[slot] = v;
        m->set[slot] = 1;
    }
    const size_t len = strlen(m->text[slot]);
    memcpy(out, m->text[slot], len);
    return len;
}

/* How many results kept a table. */
static size_t tables(const sb_report *rep)
{
    size_t count = 0;
    for (size_t k = 0; k < rep->n_results; k++) {
        const sb_result *r = &rep->results[k];
        count += r->applicable && r->table.rows && r->table.cols
                 && r->table.observed && r->table.expected;
    }
    return count;
}

/* The i-th result that kept a table, or NULL. */
static const sb_result *nth_table(const sb_report *rep, size_t i)
{
    for (size_t k = 0; k < rep->n_results; k++) {
        const sb_result *r = &rep->results[k];
        if (r->applicable && r->table.rows && r->table.cols
            && r->table.observed && r->table.expected && i-- == 0)
            return r;
    }
    return NULL;
}

int sb_csv_name(const sb_report *rep, size_t i, char *name, size_t len)
{
    if (i == 0) {
        snprintf(name, len, "summary.csv");
        return SB_OK;
    }
    const sb_result *r = nth_table(rep, i - 1);
    if (r) {
        snprintf(name, len, "%s.csv", r->name);
        return SB_OK;
    }
    /* Last, an escalated run's stages. */
    if (i == tables(rep) + 1 && rep->n_stages > 1) {
        snprintf(name, len, "stages.csv");
        return SB_OK;
    }
    return SB_ERANGE;
}

/* Every stage of an escalation, first to last (the tables are the
   last's). */
static int stages_csv(FILE *f, const sb_report *rep)
{
    fputs("stage,seed,samples,samples_requested,verdict,min_p_adjusted,"
          "worst\n", f);
    for (size_t k = 0; k < rep->n_stages; k++) {
        const sb_stage *st = &rep->stages[k];
        fprintf(f, "%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", k, st->seed,
                st->done, st->samples);
        csv_field(f, sb_verdict_str(st->verdict));
        fputc(',', f);
        csv_number(f, st->min_p_adjusted);
        fputc(',', f);
        csv_field(f, st->worst ? st->worst : "");
        fputc('\n', f);
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

static int summary_csv(FILE *f, const sb_report *rep)
{
    /* p_underflow 1: the p-value is below the double range and written
       as 0; "< 1e-300" is all that is known of it (the JSON's
       "p_value_bound"). */
    fputs("name,statistic,df,p_value,p_underflow,p_adjusted,verdict\n", f);
    for (size_t k = 0; k < rep->n_results; k++) {
        const sb_result *r = &rep->results[k];
        csv_field(f, r->name);
        fputc(',', f);
        if (r->applicable) {
            csv_number(f, r->statistic);
            fputc(',', f);
            csv_number(f, r->df);
            fputc(',', f);
            csv_number(f, r->p_value);
            fputs(r->p_underflow ? ",1," : ",0,", f);
            csv_number(f, r->p_adjusted);
        } else {
            fputs(",,,,", f);
        }
        fputc(',', f);
        csv_field(f, sb_verdict_str(r->verdict));
        fputc('\n', f);
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_csv(FILE *f, const sb_report *rep, size_t i)
{
    if (i == 0)
        return summary_csv(f, rep);
    const sb_result *r = nth_table(rep, i - 1);
    if (!r && i == tables(rep) + 1 && rep->n_stages > 1)
        return stages_csv(f, rep);
    if (!r)
        return SB_ERANGE;
    const sb_table *t = &r->table;
    /* Categories: a law's groups (with ranges or names), one row or one
       named row per sub-test; a matrix whose columns merely have names
       (card x slot and "not drawn") stays a matrix. */
    const int categories = t->lo != NULL
                           || (r->labels && (t->rows == 1 || r->row_names));
    char name[160];
    if (!categories) {
        /* The axes by name ("card,position"); columns that have names of
           their own ("not drawn") keep them in a column of their own. */
        csv_field(f, r->row_label ? r->row_label : "row");
        fputc(',', f);
        csv_field(f, r->col_label ? r->col_label : "col");
        fputs(r->labels ? ",label,observed,expected,ratio\n"
                        : ",observed,expected,ratio\n", f);
        csv_memo *memo = calloc(1, sizeof *memo);
        if (!memo)
            return SB_ENOMEM;
        /* A line at a time: row, col, [label,] three numbers. */
        char line[4 * 32 + 48];
        for (size_t row = 0; row < t->rows; row++)
            for (size_t col = 0; col < t->cols; col++) {
                const size_t cell = row * t->cols + col;
                size_t k = digits(row, line);
                line[k++] = ',';
                k += digits(col, line + k);
                line[k++] = ',';
                if (r->labels) {
                    fwrite(line, 1, k, f);
                    csv_field(f, r->labels[col] ? r->labels[col] : "");
                    k = 0;
                    line[k++] = ',';
                }
                k += number_text(memo, t->observed[cell], line + k);
                line[k++] = ',';
                k += number_text(memo, t->expected[cell], line + k);
                line[k++] = ',';
                k += number_text(memo, sb_tables_ratio(t, cell), line + k);
                line[k++] = '\n';
                fwrite(line, 1, k, f);
            }
        free(memo);
        return ferror(f) ? SB_EIO : SB_OK;
    }
    const int many = t->rows > 1;
    fputs(many ? "row,lo,hi,label,observed,expected\n"
               : "lo,hi,label,observed,expected\n", f);
    for (size_t row = 0; row < t->rows; row++)
        for (size_t col = 0; col < t->cols; col++) {
            const size_t cell = row * t->cols + col;
            if (many) {
                if (r->row_names && r->row_names[row])
                    csv_field(f, r->row_names[row]);
                else
                    fprintf(f, "%zu", row);
                fputc(',', f);
            }
            if (t->lo)
                fprintf(f, "%ld,%ld", t->lo[cell], t->hi[cell]);
            else
                fputc(',', f);
            fputc(',', f);
            sb_tables_col_name(r, rep->run.n, col, name, sizeof name);
            csv_field(f, name);
            fputc(',', f);
            csv_number(f, t->observed[cell]);
            fputc(',', f);
            csv_number(f, t->expected[cell]);
            fputc('\n', f);
        }
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_audit_csv(FILE *f, const sb_report *reps, size_t m)
{
    fputs("algorithm,params,literature,stream_version,verdict,lowest_p_from,"
          "p_adjusted\n", f);
    for (size_t i = 0; i < m; i++) {
        const sb_report *rep = &reps[i];
        const sb_result *w = sb_report_worst(rep);
        csv_field(f, rep->run.algorithm);
        fputc(',', f);
        csv_field(f, rep->run.params);
        fputc(',', f);
        csv_field(f, rep->run.literature ? rep->run.literature : "");
        fprintf(f, ",%d,", rep->run.stream_version);
        csv_field(f, sb_report_verdict(rep));
        fputc(',', f);
        if (w) {
            csv_field(f, w->name);
            fputc(',', f);
            csv_number(f, w->p_adjusted);
        } else {
            fputc(',', f);
        }
        fputc('\n', f);
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

/* ---- exact reports ---------------------------------------------------- */

int sb_exact_csv_name(const sb_exact_report *rep, size_t i, char *name,
                      size_t len)
{
    /* An interrupted walk's totals list no outcome: no file. */
    const size_t files = rep->summary_only ? 0 : 1 + (rep->matrix != NULL);
    if (i >= files)
        return SB_ERANGE;
    snprintf(name, len, i == 0 ? "outcomes.csv" : "matrix.csv");
    return SB_OK;
}

int sb_render_exact_csv(FILE *f, const sb_exact_report *rep, size_t i)
{
    char name[16];
    if (sb_exact_csv_name(rep, i, name, sizeof name) != SB_OK)
        return SB_ERANGE;
    if (i == 0) {
        /* Every outcome reached: its values as the JSON lists them (the
           card at each position; a draw's cards; a deal's hand of each
           card), space-separated. */
        fprintf(f, "%s,paths,probability,decimal,ratio\n",
                rep->kind == SB_KIND_DEAL ? "hands"
                : rep->kind == SB_KIND_DRAW ? "cards" : "perm");
        for (size_t k = 0; k < rep->n_outcomes; k++) {
            const sb_exact_outcome *o = &rep->outcomes[k];
            if ((k & 0xffff) == 0 && rep->stop && *rep->stop)
                return SB_EINTR;
            for (size_t j = 0; j < rep->len; j++)
                fprintf(f, j ? " %u" : "%u", (unsigned)o->sample[j]);
            fprintf(f, ",%" PRIu64 ",", o->paths);
            csv_field(f, o->fraction);
            fputc(',', f);
            csv_number(f, o->probability);
            fputc(',', f);
            csv_number(f, o->ratio);
            fputc('\n', f);
        }
        return ferror(f) ? SB_EIO : SB_OK;
    }
    /* The card x position (or card x hand) matrix: each cell's exact
       probability, its decimal, and its ratio to uniform (a card is in
       each position 1/n of the time, in each of H hands 1/H). */
    const double uniform = sb_exact_cell_uniform(rep);
    fputs(rep->kind == SB_KIND_DEAL ? "card,hand" : "card,position", f);
    fputs(",probability,decimal,ratio\n", f);
    for (size_t row = 0; row < rep->rows; row++)
        for (size_t col = 0; col < rep->cols; col++) {
            const char *p = rep->matrix[row * rep->cols + col];
            const double v = sb_exact_fraction_value(p);
            fprintf(f, "%zu,%zu,", row, col);
            csv_field(f, p);
            fputc(',', f);
            csv_number(f, v);
            fputc(',', f);
            csv_number(f, v / uniform);
            fputc('\n', f);
        }
    return ferror(f) ? SB_EIO : SB_OK;
}

/* ---- run.csv ---------------------------------------------------------- */

/* One key,value row; a NULL value leaves the row out. */
static void csv_pair(FILE *f, const char *key, const char *value)
{
    if (!value)
        return;
    csv_field(f, key);
    fputc(',', f);
    csv_field(f, value);
    fputc('\n', f);
}

static void csv_pair_u64(FILE *f, const char *key, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    csv_pair(f, key, buf);
}

static void csv_pair_double(FILE *f, const char *key, double v)
{
    char buf[40] = "";
    if (isfinite(v))
        snprintf(buf, sizeof buf, "%.10g", v);
    csv_pair(f, key, buf);
}

/* The facts of a sampled run, shared by a report's run.csv and the
   audit's overview one (which leaves out the stream version: its runs'
   may differ, and audit.csv gives each). */
static void run_facts(FILE *f, const sb_run_info *run, int version)
{
    csv_pair_u64(f, "n", run->n);
    csv_pair_u64(f, "seed", run->seed);
    csv_pair(f, "rng", run->rng);
    csv_pair(f, "source", run->input ? run->input->source
                          : run->plugin ? "plugin" : "algorithm");
    csv_pair(f, "plugin", run->plugin);
    if (version)
        csv_pair_u64(f, "stream_version", (uint64_t)run->stream_version);
    csv_pair_double(f, "suspect_alpha", run->suspect_alpha);
    csv_pair_double(f, "fail_alpha", run->fail_alpha);
}

int sb_render_run_csv(FILE *f, const sb_report *rep, const char *command,
                      const char *files)
{
    const sb_run_info *run = &rep->run;
    fputs("key,value\n", f);
    csv_pair(f, "command", command);
    csv_pair(f, "algorithm", run->algorithm);
    csv_pair(f, "params", run->params);
    csv_pair(f, "kind", sb_kind_str(run->kind));
    csv_pair_u64(f, "samples", run->done);
    csv_pair_u64(f, "samples_requested",
                 rep->n_stages && !run->part_end ? rep->stages[0].samples
                                                 : run->samples);
    run_facts(f, run, 1);
    if (run->merged_files)
        csv_pair_u64(f, "merged_files", run->merged_files);
    csv_pair(f, "partial", run->partial ? "1" : "0");
    csv_pair(f, "verdict", sb_report_verdict(rep));
    csv_pair(f, "files", files);
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_audit_run_csv(FILE *f, const sb_report *reps, size_t m,
                            const char *files)
{
    fputs("key,value\n", f);
    csv_pair(f, "command", "audit");
    csv_pair_u64(f, "runs", m);
    if (m > 0) {
        csv_pair_u64(f, "samples_requested", reps[0].run.samples);
        run_facts(f, &reps[0].run, 0);
    }
    csv_pair(f, "files", files);
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_exact_grid_csv(FILE *f, const sb_exact_report *reps,
                             const sb_exact_grid *g)
{
    /* The summary grid as a spreadsheet: an algorithm a row, its
       parameters, every possible outcome a column (the exact
       probability, "0/1" for one never reached), the distance. */
    const sb_exact_report *first = &reps[g->rows[0]];
    char s[512];
    fputs("algorithm,params", f);
    for (size_t c = 0; c < g->n_cols; c++) {
        sb_exact_outcome_str(first, g->cols[c], s, sizeof s);
        fputc(',', f);
        csv_field(f, s);
    }
    fputs(",tv_distance,tv_decimal,unexplored_mass\n", f);
    for (size_t r = 0; r < g->n_rows; r++) {
        const sb_exact_report *rep = &reps[g->rows[r]];
        csv_field(f, rep->algorithm);
        fputc(',', f);
        csv_field(f, rep->params);
        for (size_t c = 0; c < g->n_cols; c++) {
            const sb_exact_outcome *o = sb_exact_find(rep, g->cols[c]);
            fputc(',', f);
            csv_field(f, o ? o->fraction : "0/1");
        }
        fputc(',', f);
        csv_field(f, rep->tv);
        fputc(',', f);
        csv_number(f, rep->tv_d);
        fputc(',', f);
        csv_field(f, rep->unexplored);
        fputc('\n', f);
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_exact_run_csv(FILE *f, const sb_exact_report *rep,
                            const char *files)
{
    fputs("key,value\n", f);
    csv_pair(f, "command", "exact");
    csv_pair(f, "algorithm", rep->algorithm);
    csv_pair(f, "params", rep->params);
    csv_pair(f, "kind", sb_kind_str(rep->kind));
    csv_pair_u64(f, "n", rep->n);
    csv_pair_u64(f, "paths", rep->paths);
    csv_pair_u64(f, "reached", rep->reached);
    csv_pair(f, "partial", rep->partial ? "1" : "0");
    csv_pair(f, "verdict", rep->verdict == SB_EXACT_UNIFORM ? "uniform"
                           : rep->verdict == SB_EXACT_BIASED ? "biased"
                                                             : "inconclusive");
    csv_pair(f, "tv", rep->tv);
    csv_pair(f, "files", files);
    return ferror(f) ? SB_EIO : SB_OK;
}
