/*
 * mixing.c - the reports of 'shufflebias mixing' (mixing.h): for each
 * number of passes of a pass-based shuffle, how far its decks are from
 * uniform and what the battery made of them, as a terminal table, JSON,
 * Markdown and one HTML page with two curves.
 *
 * Everything shown is read from the report the command filled: the
 * distances (exact fractions where the mathematics gives them, their
 * decimal values beside), the battery's verdict at each pass count, and
 * the decks each statistic would need to catch it.  Nothing here is
 * computed but words, rounding and the places of points on a picture.
 *
 * The formats share their words: the answer ("at 100,000 decks the
 * battery tells apart up to 9 passes"), where the exact figures come
 * from, and a table whose columns appear only when some row fills them
 * (no battery columns when nothing was measured, no bridge column when
 * no bridge deal was run).
 */
#include "reports/mixing.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/svg.h"
#include "shufflebias/status.h"
#include "shufflebias/version.h"

/* An exact fraction shorter than this is written out in the tables; a
   longer one (a 52-card deck's run to hundreds of digits) is marked
   exact there and written in full in the JSON. */
#define SHORT_FRACTION 24

/* The space for one cell of a table. */
#define CELL 160

void sb_mixing_report_release(sb_mixing_report *rep)
{
    if (rep == NULL)
        return;
    for (size_t i = 0; rep->rows && i < rep->n_rows; i++) {
        sb_mixing_row *r = &rep->rows[i];
        free(r->tv_exact);
        free(r->separation_exact);
        free(r->solitaire_exact);
        free(r->stats);
    }
    free(rep->rows);
    memset(rep, 0, sizeof *rep);
}

/* ---- Words and numbers the formats share -------------------------------- */

/* The options, or the defaults when none were given. */
static sb_render_opts options(const sb_render_opts *o)
{
    return o ? *o : SB_RENDER_OPTS_DEFAULT;
}

/* The command line a page states: the options' or the report's own. */
static const char *command_line(const sb_mixing_report *rep,
                                const sb_render_opts *o)
{
    return o->command_line ? o->command_line : rep->command_line;
}

/* Where the exact figures come from, in words; NULL when none are. */
static const char *exact_source(const char *exact)
{
    if (exact == NULL)
        return NULL;
    if (strcmp(exact, "rising-sequences") == 0)
        return "the rising-sequence law of Bayer and Diaconis (1992)";
    if (strcmp(exact, "states") == 0)
        return "a walk over the decks after each pass";
    return exact;
}

static const char *passes_word(unsigned long k)
{
    return k == 1 ? "pass" : "passes";
}

/* A whole number with commas between its thousands: "100,000". */
static void grouped(char *buf, size_t len, uint64_t v)
{
    char digits[24];
    const int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t k = 0;
    for (int i = 0; i < n && k + 1 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0 && k + 2 < len)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
}

/* A number of decks as a reader wants it, to two significant figures
   (the plan is an estimate): "40", "1,600", "120,000", "1.6e+10". */
static void decks_str(char *buf, size_t len, uint64_t d)
{
    if (d < 100) {
        snprintf(buf, len, "%" PRIu64, d);
    } else if (d < UINT64_C(1000000000)) {
        uint64_t unit = 1;
        while (d / unit >= 100)
            unit *= 10;
        grouped(buf, len, (d + unit / 2) / unit * unit);
    } else {
        snprintf(buf, len, "%.2g", (double)d);
    }
}

/* A distance or a probability as a decimal: "0.3341", "2.1e-05", "0",
   "1" (an exact 1 only), "-" when not known. */
static void decimal(char *buf, size_t len, double v, const char *exact)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (v == 0)
        snprintf(buf, len, "0");
    else if (v == 1 && (exact == NULL || strcmp(exact, "1/1") == 0))
        snprintf(buf, len, "1");
    else if (fabs(v) >= 1e-3)
        snprintf(buf, len, "%.4f", v);
    else
        snprintf(buf, len, "%.2g", v);
}

static int short_fraction(const char *fraction)
{
    return fraction && strlen(fraction) < SHORT_FRACTION;
}

/* A fraction as it reads best: "1/1" as "1", "0/1" as "0". */
static void fraction_str(char *buf, size_t len, const char *fraction)
{
    const size_t n = strlen(fraction);
    if (n > 2 && strcmp(fraction + n - 2, "/1") == 0)
        snprintf(buf, len, "%.*s", (int)(n - 2), fraction);
    else
        snprintf(buf, len, "%s", fraction);
}

/* An adjusted p-value: "0.4172", "3.1e-09", "< 1e-300" for one that
   underflowed to 0, "-" when there is none. */
static void pvalue_str(char *buf, size_t len, double p)
{
    if (isnan(p))
        snprintf(buf, len, "-");
    else
        sb_render_pvalue(buf, len, p, p == 0);
}

/* A verdict in capitals: "PASS", "N/A". */
static void verdict_upper(char *buf, size_t len, sb_verdict v)
{
    snprintf(buf, len, "%s", sb_verdict_str(v));
    for (char *c = buf; *c; c++)
        *c = (char)toupper((unsigned char)*c);
}

/* The CSS class of a verdict on the page (svg.c's style). */
static const char *verdict_class(sb_verdict v)
{
    return v == SB_VERDICT_NA ? "v-na"
         : v == SB_VERDICT_PASS ? "v-pass"
         : v == SB_VERDICT_SUSPECT ? "v-suspect" : "v-fail";
}

static const sb_mixing_row *row_of(const sb_mixing_report *rep,
                                   unsigned long passes)
{
    for (size_t i = 0; i < rep->n_rows; i++)
        if (rep->rows[i].passes == passes)
            return &rep->rows[i];
    return NULL;
}

/* The answer in one sentence, from rep->caught and rep->missed. */
static void answer(const sb_mixing_report *rep, char *buf, size_t len)
{
    size_t measured = 0;
    for (size_t i = 0; i < rep->n_rows; i++)
        measured += rep->rows[i].measured != 0;
    char decks[32];
    grouped(decks, sizeof decks, rep->samples);
    if (rep->samples == 0 || measured == 0) {
        snprintf(buf, len, "the battery did not run: the figures are the "
                 "distances alone");
        return;
    }
    if (rep->caught == 0) {
        snprintf(buf, len, "at %s decks the battery caught none of the "
                 "pass counts measured", decks);
        return;
    }
    if (rep->missed == 0) {
        snprintf(buf, len, "at %s decks the battery caught every pass "
                 "count measured, up to %lu %s", decks, rep->caught,
                 passes_word(rep->caught));
        return;
    }
    /* What the first pass count it missed got instead of a fail. */
    const sb_mixing_row *m = row_of(rep, rep->missed);
    const int one = rep->missed == 1;
    const char *got = one ? "does not fail" : "do not fail";
    if (m && m->measured && m->verdict == SB_VERDICT_PASS)
        got = one ? "passes" : "pass";
    else if (m && m->measured && m->verdict == SB_VERDICT_SUSPECT)
        got = one ? "is only suspect" : "are only suspect";
    else if (m && m->measured && m->verdict == SB_VERDICT_NA)
        got = one ? "is not judged" : "are not judged";
    snprintf(buf, len, "at %s decks the battery tells apart up to %lu %s "
             "(%lu %s %s)", decks, rep->caught, passes_word(rep->caught),
             rep->missed, passes_word(rep->missed), got);
}

/* The line that says what was run: "riffle, n = 52 (a=1), 100,000 decks
   per pass count, seed 7". */
static void run_line(const sb_mixing_report *rep, char *buf, size_t len)
{
    char decks[32], params[300] = "";
    grouped(decks, sizeof decks, rep->samples);
    if (rep->params[0])
        snprintf(params, sizeof params, " (%s)", rep->params);
    if (rep->samples)
        snprintf(buf, len, "%s, n = %zu%s, %s decks per pass count, seed %"
                 PRIu64, rep->algorithm ? rep->algorithm : "?", rep->n,
                 params, decks, rep->seed);
    else
        snprintf(buf, len, "%s, n = %zu%s, no decks measured",
                 rep->algorithm ? rep->algorithm : "?", rep->n, params);
}

/* ---- The table: its columns and cells ----------------------------------- */

enum {
    COL_PASSES, COL_TV, COL_SEP, COL_ALICE, COL_VERDICT, COL_DECIDED,
    COL_DECKS, COL_BRIDGE, N_COLS
};

static const char *const col_names[N_COLS] = {
    "passes", "tv", "separation", "Alice wins", "verdict", "decided by (p)",
    "decks needed (by)", "bridge deal"
};

/* Which columns some row fills. */
static void columns(const sb_mixing_report *rep, int shown[N_COLS])
{
    int alice = 0, measured = 0, bridge = 0;
    for (size_t i = 0; i < rep->n_rows; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        alice |= !isnan(r->solitaire) || r->solitaire_exact != NULL;
        measured |= r->measured != 0;
        bridge |= r->measured && r->bridge;
    }
    shown[COL_PASSES] = shown[COL_TV] = shown[COL_SEP] = 1;
    shown[COL_ALICE] = alice;
    shown[COL_VERDICT] = shown[COL_DECIDED] = shown[COL_DECKS] = measured;
    shown[COL_BRIDGE] = bridge;
}

/* How the tables mark an exact value. */
typedef enum mark {
    MARK_STAR,          /* text: "0.3341*", the fractions in a block below */
    MARK_INLINE         /* Markdown: "0.7500 = 3/4", "0.3341 (exact)" */
} mark;

static void value_cell(char *buf, size_t len, double v, const char *exact,
                       mark how)
{
    char d[32], fr[SHORT_FRACTION + 8];
    decimal(d, sizeof d, v, exact);
    if (exact == NULL || isnan(v)) {
        if (exact && short_fraction(exact)) {
            fraction_str(fr, sizeof fr, exact);
            snprintf(buf, len, "%s", fr);
        } else {
            snprintf(buf, len, "%s", d);
        }
    } else if (how == MARK_STAR) {
        snprintf(buf, len, "%s*", d);
    } else if (short_fraction(exact)) {
        fraction_str(fr, sizeof fr, exact);
        if (strcmp(fr, d) == 0)
            snprintf(buf, len, "%s", d);
        else
            snprintf(buf, len, "%s = %s", d, fr);
    } else {
        snprintf(buf, len, "%s (exact)", d);
    }
}

/* "rising (< 1e-300)", or "-". */
static void named_p(char *buf, size_t len, const char *name, double p)
{
    char pv[32];
    pvalue_str(pv, sizeof pv, p);
    if (name)
        snprintf(buf, len, "%s (%s)", name, pv);
    else
        snprintf(buf, len, "-");
}

/* Every cell of one row as text. */
static void row_cells(const sb_mixing_row *r, char cell[N_COLS][CELL],
                      mark how)
{
    char v[16], d[32], p[32];
    snprintf(cell[COL_PASSES], CELL, "%lu", r->passes);
    value_cell(cell[COL_TV], CELL, r->tv, r->tv_exact, how);
    value_cell(cell[COL_SEP], CELL, r->separation, r->separation_exact,
               how);
    value_cell(cell[COL_ALICE], CELL, r->solitaire, r->solitaire_exact,
               how);
    if (!r->measured) {
        for (int c = COL_VERDICT; c <= COL_BRIDGE; c++)
            snprintf(cell[c], CELL, "-");
        return;
    }
    verdict_upper(v, sizeof v, r->verdict);
    snprintf(cell[COL_VERDICT], CELL, "%s", v);
    named_p(cell[COL_DECIDED], CELL, r->decider, r->p);
    if (r->decks) {
        decks_str(d, sizeof d, r->decks);
        if (r->decks_by)
            snprintf(cell[COL_DECKS], CELL, "%s (%s)", d, r->decks_by);
        else
            snprintf(cell[COL_DECKS], CELL, "%s", d);
    } else {
        snprintf(cell[COL_DECKS], CELL, "-");
    }
    if (r->bridge) {
        /* The text's table is narrow: its bridge column names the
           statistic of a fail or suspect only, without its p. */
        verdict_upper(v, sizeof v, r->bridge_verdict);
        if (how == MARK_STAR && r->bridge_decider
            && r->bridge_verdict != SB_VERDICT_PASS
            && r->bridge_verdict != SB_VERDICT_NA) {
            snprintf(cell[COL_BRIDGE], CELL, "%s %s", v, r->bridge_decider);
        } else if (how == MARK_INLINE && r->bridge_decider) {
            pvalue_str(p, sizeof p, r->bridge_p);
            snprintf(cell[COL_BRIDGE], CELL, "%s %s (%s)", v,
                     r->bridge_decider, p);
        } else {
            snprintf(cell[COL_BRIDGE], CELL, "%s", v);
        }
    } else {
        snprintf(cell[COL_BRIDGE], CELL, "-");
    }
}

/* Whether any shown value of the distances is exact. */
static int any_exact(const sb_mixing_report *rep, const int shown[N_COLS])
{
    for (size_t i = 0; i < rep->n_rows; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        if (r->tv_exact || r->separation_exact
            || (shown[COL_ALICE] && r->solitaire_exact))
            return 1;
    }
    return 0;
}

/* ---- Text ---------------------------------------------------------------- */

/* One line of the table, its columns padded to 'width', the blanks at
   its end left out. */
static void text_line(FILE *f, const int shown[N_COLS],
                      const size_t width[N_COLS], char cell[N_COLS][CELL])
{
    char line[N_COLS * (CELL + 2) + 1];
    size_t k = 0;
    for (int c = 0; c < N_COLS; c++) {
        if (!shown[c])
            continue;
        const int n = snprintf(line + k, sizeof line - k,
                               c == COL_PASSES ? "%*s" : "  %-*s",
                               (int)width[c], cell[c]);
        if (n < 0 || (size_t)n >= sizeof line - k)
            break;
        k += (size_t)n;
    }
    while (k > 0 && line[k - 1] == ' ')
        k--;
    fprintf(f, "%.*s\n", (int)k, line);
}

/* The exact fractions short enough to write, one line per pass count
   that has any. */
static void text_fractions(FILE *f, const sb_mixing_report *rep,
                           const int shown[N_COLS])
{
    int heading = 0;
    for (size_t i = 0; i < rep->n_rows; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        const struct { const char *name, *fraction; } v[3] = {
            {"tv", r->tv_exact}, {"separation", r->separation_exact},
            {"Alice wins", shown[COL_ALICE] ? r->solitaire_exact : NULL}};
        int first = 1;
        for (int k = 0; k < 3; k++) {
            if (!short_fraction(v[k].fraction))
                continue;
            if (!heading) {
                fputs("\nexact fractions (those shorter than 24 "
                      "characters; every one in the JSON):\n", f);
                heading = 1;
            }
            if (first) {
                char label[48];
                snprintf(label, sizeof label, "%lu %s", r->passes,
                         passes_word(r->passes));
                fprintf(f, "  %-12s", label);
            }
            char fr[SHORT_FRACTION + 8];
            fraction_str(fr, sizeof fr, v[k].fraction);
            fprintf(f, "%s%s %s", first ? "" : ", ", v[k].name, fr);
            first = 0;
        }
        if (!first)
            fputc('\n', f);
    }
}

int sb_render_mixing_text(FILE *f, const sb_mixing_report *rep,
                          const sb_render_opts *o_)
{
    if (f == NULL || rep == NULL)
        return SB_EINVAL;
    const sb_render_opts o = options(o_);
    char line[1024];
    run_line(rep, line, sizeof line);
    fprintf(f, "mixing: %s\n", line);
    int shown[N_COLS];
    columns(rep, shown);
    if (shown[COL_VERDICT]) {
        char decks[32];
        grouped(decks, sizeof decks, rep->samples);
        fprintf(f, "battery: %s decks of each pass count, fail below %g "
                "(Holm-adjusted p)\n", decks, rep->fail);
    }
    fputc('\n', f);

    /* The table: every cell first, for the widths of its columns. */
    char (*cells)[N_COLS][CELL] = malloc((rep->n_rows + 1)
                                         * sizeof *cells);
    if (cells == NULL)
        return SB_ENOMEM;
    size_t width[N_COLS];
    for (int c = 0; c < N_COLS; c++) {
        snprintf(cells[0][c], CELL, "%s", col_names[c]);
        width[c] = strlen(col_names[c]);
    }
    for (size_t i = 0; i < rep->n_rows; i++) {
        row_cells(&rep->rows[i], cells[i + 1], MARK_STAR);
        for (int c = 0; c < N_COLS; c++) {
            const size_t w = strlen(cells[i + 1][c]);
            width[c] = w > width[c] ? w : width[c];
        }
    }
    for (size_t i = 0; i <= rep->n_rows; i++)
        text_line(f, shown, width, cells[i]);
    free(cells);
    if (rep->n_rows == 0)
        fputs("  (no pass count done)\n", f);

    /* What the columns mean, where the exact values come from. */
    const char *source = exact_source(rep->exact);
    if (any_exact(rep, shown))
        fprintf(f, "  * exact%s%s\n", source ? ": " : "",
                source ? source : "");
    else if (source)
        fprintf(f, "  exact: %s\n", source);
    if (shown[COL_ALICE])
        fputs("  Alice wins: her chance at New Age Solitaire, 1/2 on a "
              "uniform deck\n", f);
    if (shown[COL_DECKS])
        fputs("  decks needed: the fewest with which a statistic catches "
              "the pass count\n  (power 0.9 at the fail threshold)\n", f);
    if (any_exact(rep, shown))
        text_fractions(f, rep, shown);

    answer(rep, line, sizeof line);
    fprintf(f, "\n%s\n", line);
    if (rep->partial)
        fputs("interrupted: the table holds the pass counts done\n", f);
    if (!o.no_timing)
        fprintf(f, "time: %.2f s on %u thread%s\n", rep->seconds,
                rep->threads, rep->threads == 1 ? "" : "s");
    return ferror(f) ? SB_EIO : SB_OK;
}

/* ---- JSON ---------------------------------------------------------------- */

/* A number, or null for NAN (JSON has no NaN). */
static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *string_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* A count of decks, null for 0 (none could be planned). */
static json_t *decks_or_null(uint64_t d)
{
    return d ? json_integer((json_int_t)d) : json_null();
}

static json_t *stat_object(const sb_mixing_stat *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", string_or_null(s->name));
    json_object_set_new(o, "effect", number_or_null(s->effect));
    json_object_set_new(o, "p", number_or_null(s->p));
    json_object_set_new(o, "verdict", json_string(sb_verdict_str(s->verdict)));
    json_object_set_new(o, "decks_needed", decks_or_null(s->decks));
    return o;
}

static json_t *row_object(const sb_mixing_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "passes", json_integer((json_int_t)r->passes));
    json_object_set_new(o, "tv", number_or_null(r->tv));
    json_object_set_new(o, "tv_exact", string_or_null(r->tv_exact));
    json_object_set_new(o, "separation", number_or_null(r->separation));
    json_object_set_new(o, "separation_exact",
                        string_or_null(r->separation_exact));
    json_object_set_new(o, "new_age_solitaire", json_pack(
        "{s:o, s:o}", "alice_wins", number_or_null(r->solitaire),
        "exact", string_or_null(r->solitaire_exact)));
    json_object_set_new(o, "measured", json_boolean(r->measured));
    const int m = r->measured != 0;
    json_object_set_new(o, "verdict", m ? json_string(sb_verdict_str(
                                                r->verdict)) : json_null());
    json_object_set_new(o, "deciding", string_or_null(m ? r->decider
                                                        : NULL));
    json_object_set_new(o, "p", m && r->decider ? number_or_null(r->p)
                                                : json_null());
    json_object_set_new(o, "decks_needed", decks_or_null(m ? r->decks : 0));
    json_object_set_new(o, "decks_needed_by",
                        string_or_null(m && r->decks ? r->decks_by : NULL));
    json_t *stats = json_array();
    for (size_t k = 0; m && r->stats && k < r->n_stats; k++)
        json_array_append_new(stats, stat_object(&r->stats[k]));
    json_object_set_new(o, "statistics", stats);
    if (m && r->bridge)
        json_object_set_new(o, "bridge", json_pack(
            "{s:s, s:o, s:o}", "verdict", sb_verdict_str(r->bridge_verdict),
            "statistic", string_or_null(r->bridge_decider),
            "p", r->bridge_decider ? number_or_null(r->bridge_p)
                                   : json_null()));
    else
        json_object_set_new(o, "bridge", json_null());
    return o;
}

json_t *sb_mixing_json(const sb_mixing_report *rep, const sb_render_opts *o_)
{
    if (rep == NULL)
        return NULL;
    const sb_render_opts o = options(o_);
    json_t *root = json_object();
    if (root == NULL)
        return NULL;
    json_object_set_new(root, "command", json_string("mixing"));
    json_object_set_new(root, "algorithm", string_or_null(rep->algorithm));
    json_object_set_new(root, "params", sb_params_json(rep->params));
    json_object_set_new(root, "n", json_integer((json_int_t)rep->n));
    json_object_set_new(root, "samples",
                        json_integer((json_int_t)rep->samples));
    json_object_set_new(root, "seed", json_integer((json_int_t)rep->seed));
    /* The threads differ between machines, not the results. */
    if (!o.no_timing)
        json_object_set_new(root, "threads", json_integer(rep->threads));
    json_object_set_new(root, "stream_version",
                        json_integer(rep->stream_version));
    json_object_set_new(root, "fail_threshold", number_or_null(rep->fail));
    json_object_set_new(root, "exact", string_or_null(rep->exact));
    json_object_set_new(root, "partial", json_boolean(rep->partial));
    json_t *rows = json_array();
    for (size_t i = 0; i < rep->n_rows; i++)
        json_array_append_new(rows, row_object(&rep->rows[i]));
    json_object_set_new(root, "rows", rows);
    json_object_set_new(root, "answer", json_pack(
        "{s:I, s:o, s:o}", "samples", (json_int_t)rep->samples,
        "caught_up_to", rep->caught ? json_integer((json_int_t)rep->caught)
                                    : json_null(),
        "first_missed", rep->missed ? json_integer((json_int_t)rep->missed)
                                    : json_null()));
    if (!o.no_timing)
        json_object_set_new(root, "timing", json_pack(
            "{s:o}", "seconds", number_or_null(rep->seconds)));
    /* Jansson drops a key whose value it could not make: check that
       every one is there, so that memory running out is not a report
       with holes. */
    static const char *const keys[] = {"command", "algorithm", "params",
        "n", "samples", "seed", "stream_version", "fail_threshold", "exact",
        "partial", "rows", "answer"};
    int whole = json_array_size(rows) == rep->n_rows;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        whole &= json_object_get(root, keys[k]) != NULL;
    if (!whole) {
        json_decref(root);
        return NULL;
    }
    return root;
}

/* ---- Markdown ------------------------------------------------------------ */

int sb_render_mixing_markdown(FILE *f, const sb_mixing_report *rep,
                              const sb_render_opts *o_)
{
    if (f == NULL || rep == NULL)
        return SB_EINVAL;
    (void)o_;     /* no timing in Markdown, whatever the options */
    char line[1024];
    fputs("## shufflebias mixing: ", f);
    sb_render_md_cell(f, rep->algorithm ? rep->algorithm : "?");
    fputs("\n\n", f);
    run_line(rep, line, sizeof line);
    sb_render_md_cell(f, line);
    fprintf(f, "; stream version %d", rep->stream_version);
    int shown[N_COLS];
    columns(rep, shown);
    if (shown[COL_VERDICT])
        fprintf(f, "; fail below %g (Holm-adjusted p); decks needed: the "
                "fewest that catch a pass count with power 0.9", rep->fail);
    fputs(".\n\n", f);

    char decks[32], verdict_head[64];
    grouped(decks, sizeof decks, rep->samples);
    snprintf(verdict_head, sizeof verdict_head, "verdict at %s decks",
             decks);
    fputc('|', f);
    for (int c = 0; c < N_COLS; c++)
        if (shown[c]) {
            fputc(' ', f);
            sb_render_md_cell(f, c == COL_VERDICT ? verdict_head
                                                  : col_names[c]);
            fputs(" |", f);
        }
    fputs("\n|", f);
    for (int c = 0; c < N_COLS; c++)
        if (shown[c])
            fputs(c <= COL_ALICE ? "---:|" : "---|", f);
    fputc('\n', f);
    char cell[N_COLS][CELL];
    for (size_t i = 0; i < rep->n_rows; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        row_cells(r, cell, MARK_INLINE);
        fputc('|', f);
        for (int c = 0; c < N_COLS; c++) {
            if (!shown[c])
                continue;
            const int bold = c == COL_VERDICT && r->measured
                             && r->verdict == SB_VERDICT_FAIL;
            fputs(bold ? " **" : " ", f);
            sb_render_md_cell(f, cell[c]);
            fputs(bold ? "** |" : " |", f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    const char *source = exact_source(rep->exact);
    if (source) {
        fputs("Exact: ", f);
        sb_render_md_cell(f, source);
        fputs(".", f);
        if (shown[COL_ALICE])
            fputc(' ', f);
    }
    if (shown[COL_ALICE])
        fputs("Alice wins: her chance at New Age Solitaire, 1/2 on a "
              "uniform deck.", f);
    if (source || shown[COL_ALICE])
        fputs("\n\n", f);
    answer(rep, line, sizeof line);
    line[0] = (char)toupper((unsigned char)line[0]);
    fputs("**", f);
    sb_render_md_cell(f, line);
    fputs(".**\n", f);
    if (rep->partial)
        fputs("\nInterrupted: the table holds the pass counts done.\n", f);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* ---- HTML ---------------------------------------------------------------- */

static void fact(FILE *f, const char *name)
{
    fputs("<dt>", f);
    sb_html_escape(f, name);
    fputs("</dt><dd>", f);
}

static void facts(FILE *f, const sb_mixing_report *rep,
                  const sb_render_opts *o)
{
    char buf[64];
    fputs("<dl class=\"facts\">\n", f);
    const char *cmd = command_line(rep, o);
    if (cmd) {
        fact(f, "command line");
        fputs("<code class=\"cmd\">", f);
        sb_html_escape(f, cmd);
        fputs("</code></dd>\n", f);
    }
    fact(f, "algorithm");
    sb_html_escape(f, rep->algorithm ? rep->algorithm : "?");
    fputs("</dd>\n", f);
    fact(f, "params");
    sb_html_escape(f, rep->params[0] ? rep->params : "(none)");
    fputs("</dd>\n", f);
    fact(f, "n");
    fprintf(f, "%zu</dd>\n", rep->n);
    fact(f, "decks per pass count");
    grouped(buf, sizeof buf, rep->samples);
    fprintf(f, "%s%s</dd>\n", buf, rep->samples ? "" : " (not measured)");
    fact(f, "seed");
    fprintf(f, "%" PRIu64 "</dd>\n", rep->seed);
    fact(f, "stream version");
    fprintf(f, "%d</dd>\n", rep->stream_version);
    fact(f, "threshold");
    fprintf(f, "fail below %g (Holm-adjusted p); decks needed: the fewest "
            "that catch a pass count with power 0.9 at it</dd>\n",
            rep->fail);
    const char *source = exact_source(rep->exact);
    fact(f, "exact");
    sb_html_escape(f, source ? source : "none: every figure measured");
    fputs("</dd>\n", f);
    if (rep->partial) {
        fact(f, "status");
        fputs("interrupted: the pass counts done</dd>\n", f);
    }
    if (!o->no_timing) {
        fact(f, "time");
        fprintf(f, "%.2f s on %u thread%s</dd>\n", rep->seconds,
                rep->threads, rep->threads == 1 ? "" : "s");
    }
    fact(f, "version");
    fprintf(f, "shufflebias %s</dd>\n", sb_version());
    fputs("</dl>\n", f);
}

/* What the pictures are drawn from: one block of arrays, freed at
   once. */
typedef struct curves {
    double *x, *tv, *sep, *alice, *decks;
    unsigned char *tv_open, *sep_open, *alice_open;
    char *tip_text;               /* 4 tooltips a row, TIP bytes each */
    const char **tips;            /* 4 pointers a row into tip_text */
} curves;

#define TIP 192

static void curves_free(curves *c)
{
    free(c->x);
    free(c->tv);
    free(c->sep);
    free(c->alice);
    free(c->decks);
    free(c->tv_open);
    free(c->sep_open);
    free(c->alice_open);
    free(c->tip_text);
    free(c->tips);
    memset(c, 0, sizeof *c);
}

/* A distance's tooltip: "3 passes: tv 0.7500 (exact 3/4)". */
static void distance_tip(char *buf, const sb_mixing_row *r, const char *what,
                         double v, const char *exact)
{
    char d[32], fr[SHORT_FRACTION + 8];
    decimal(d, sizeof d, v, exact);
    if (exact && short_fraction(exact)) {
        fraction_str(fr, sizeof fr, exact);
        snprintf(buf, TIP, "%lu %s: %s %s (exact %s)", r->passes,
                 passes_word(r->passes), what, d, fr);
    } else {
        snprintf(buf, TIP, "%lu %s: %s %s (%s)", r->passes,
                 passes_word(r->passes), what, d,
                 exact ? "exact" : "an estimate");
    }
}

static int curves_make(curves *c, const sb_mixing_report *rep)
{
    const size_t m = rep->n_rows;
    memset(c, 0, sizeof *c);
    c->x = malloc(m * sizeof *c->x);
    c->tv = malloc(m * sizeof *c->tv);
    c->sep = malloc(m * sizeof *c->sep);
    c->alice = malloc(m * sizeof *c->alice);
    c->decks = malloc(m * sizeof *c->decks);
    c->tv_open = malloc(m);
    c->sep_open = malloc(m);
    c->alice_open = malloc(m);
    c->tip_text = malloc(4 * m * TIP);
    c->tips = malloc(4 * m * sizeof *c->tips);
    if (!c->x || !c->tv || !c->sep || !c->alice || !c->decks
        || !c->tv_open || !c->sep_open || !c->alice_open || !c->tip_text
        || !c->tips) {
        curves_free(c);
        return SB_ENOMEM;
    }
    for (size_t i = 0; i < m; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        char *t = c->tip_text + 4 * i * TIP;
        c->x[i] = (double)r->passes;
        c->tv[i] = r->tv;
        c->sep[i] = r->separation;
        c->alice[i] = r->solitaire;
        c->tv_open[i] = r->tv_exact == NULL;
        c->sep_open[i] = r->separation_exact == NULL;
        c->alice_open[i] = r->solitaire_exact == NULL;
        distance_tip(t, r, "tv", r->tv, r->tv_exact);
        distance_tip(t + TIP, r, "separation", r->separation,
                     r->separation_exact);
        distance_tip(t + 2 * TIP, r, "Alice wins", r->solitaire,
                     r->solitaire_exact);
        const uint64_t d = r->measured ? r->decks : 0;
        c->decks[i] = d ? (double)d : NAN;
        if (d) {
            char n[32];
            decks_str(n, sizeof n, d);
            snprintf(t + 3 * TIP, TIP, "%lu %s: about %s decks%s%s%s",
                     r->passes, passes_word(r->passes), n,
                     r->decks_by ? " (" : "",
                     r->decks_by ? r->decks_by : "",
                     r->decks_by ? ")" : "");
        } else {
            t[3 * TIP] = '\0';
        }
        for (int k = 0; k < 4; k++)
            c->tips[4 * i + (size_t)k] = t + (size_t)k * TIP;
    }
    return SB_OK;
}

/* The tooltips of one kind (k of the 4 a row) as an array: the plot
   reads them with a stride of one, so they are gathered. */
static const char **tips_of(const curves *c, size_t m, int k)
{
    const char **t = malloc(m * sizeof *t);
    if (t)
        for (size_t i = 0; i < m; i++)
            t[i] = c->tips[4 * i + (size_t)k];
    return t;
}

static int any_number(const double *v, size_t m)
{
    for (size_t i = 0; i < m; i++)
        if (isfinite(v[i]))
            return 1;
    return 0;
}

/* The two pictures: the distances against the passes, then the decks
   the battery needs (logarithmic), with the decks measured across. */
static int pictures(FILE *f, const sb_mixing_report *rep)
{
    const size_t m = rep->n_rows;
    if (m == 0) {
        fputs("<p class=\"note\">No pass count was done.</p>\n", f);
        return ferror(f) ? SB_EIO : SB_OK;
    }
    curves c;
    if (curves_make(&c, rep) != SB_OK)
        return SB_ENOMEM;
    const char **tv_tips = tips_of(&c, m, 0), **sep_tips = tips_of(&c, m, 1),
               **alice_tips = tips_of(&c, m, 2),
               **deck_tips = tips_of(&c, m, 3);
    int rc = SB_OK;
    if (!tv_tips || !sep_tips || !alice_tips || !deck_tips) {
        rc = SB_ENOMEM;
        goto done;
    }

    fputs("<h2>Distance from uniform</h2>\n", f);
    const int alice = any_number(c.alice, m);
    if (any_number(c.tv, m) || any_number(c.sep, m) || alice) {
        sb_curve d[3] = {
            {"total variation", c.tv, tv_tips, 0, c.tv_open},
            {"separation", c.sep, sep_tips, 1, c.sep_open},
            {"Alice wins (New Age Solitaire)", c.alice, alice_tips, 0,
             c.alice_open}};
        sb_plot p = {m, c.x, d, alice ? 3 : 2, 0, 0, 1, "passes",
                     "distance, probability", "mixing-distance",
                     alice ? 0.5 : NAN, "Alice's fair chance, 1/2"};
        rc = sb_svg_plot(f, &p);
        if (rc != SB_OK)
            goto done;
        fputs("<p class=\"note\">Total variation: the most any set of "
              "decks is over- or under-weighted; separation: how far the "
              "rarest deck falls short of uniform (1: some deck is never "
              "dealt). Filled markers are exact, hollow ones estimates. "
              "Each point's tooltip gives its value.</p>\n", f);
    } else {
        fputs("<p class=\"note\">No distance is known for these pass "
              "counts.</p>\n", f);
    }

    fputs("<h2>Decks the battery needs</h2>\n", f);
    if (any_number(c.decks, m)) {
        char label[96], n[32];
        grouped(n, sizeof n, rep->samples);
        snprintf(label, sizeof label, "decks measured: %s", n);
        sb_curve d = {"decks needed (power 0.9)", c.decks, deck_tips, 0,
                      NULL};
        sb_plot p = {m, c.x, &d, 1, 1, 0, 0, "passes", "decks",
                     "mixing-decks", rep->samples ? (double)rep->samples
                                                  : NAN, label};
        rc = sb_svg_plot(f, &p);
        if (rc != SB_OK)
            goto done;
        fputs("<p class=\"note\">The fewest decks with which a statistic "
              "of the battery catches each pass count with power 0.9 at "
              "the fail threshold (logarithmic scale). Above the dashed "
              "line, more decks than were measured: there the battery "
              "stops telling the shuffle from a uniform one. A pass count "
              "with no plan is a gap.</p>\n", f);
    } else {
        fputs("<p class=\"note\">No statistic could plan the decks it "
              "needs at any pass count.</p>\n", f);
    }
done:
    free(tv_tips);
    free(sep_tips);
    free(alice_tips);
    free(deck_tips);
    curves_free(&c);
    if (rc != SB_OK)
        return rc;
    return ferror(f) ? SB_EIO : SB_OK;
}

/* A distance's cell: the decimal, the exact fraction under it when
   short, "exact" when long (the fraction in its tooltip). */
static void html_value(FILE *f, double v, const char *exact)
{
    char d[32], fr[SHORT_FRACTION + 8];
    decimal(d, sizeof d, v, exact);
    if (exact == NULL) {
        fprintf(f, "<td class=\"num\">%s</td>", d);
        return;
    }
    fputs("<td class=\"num\" title=\"exact: ", f);
    sb_html_escape(f, exact);
    fprintf(f, "\">%s", d);
    if (short_fraction(exact)) {
        fraction_str(fr, sizeof fr, exact);
        if (strcmp(fr, d) != 0) {
            fputs("<br><span class=\"note\">", f);
            sb_html_escape(f, fr);
            fputs("</span>", f);
        }
    } else {
        fputs(" <span class=\"note\">exact</span>", f);
    }
    fputs("</td>", f);
}

static void html_verdict(FILE *f, sb_verdict v)
{
    char w[16];
    verdict_upper(w, sizeof w, v);
    fprintf(f, "<span class=\"verdict %s\">%s</span>", verdict_class(v), w);
}

static void html_table(FILE *f, const sb_mixing_report *rep)
{
    int shown[N_COLS];
    columns(rep, shown);
    char decks[32];
    grouped(decks, sizeof decks, rep->samples);
    fputs("<h2>Each pass count</h2>\n<table class=\"mixing\"><thead><tr>",
          f);
    for (int c = 0; c < N_COLS; c++) {
        if (!shown[c])
            continue;
        fputs("<th>", f);
        if (c == COL_VERDICT)
            fprintf(f, "verdict at %s decks", decks);
        else
            sb_html_escape(f, col_names[c]);
        fputs("</th>", f);
    }
    fputs("</tr></thead><tbody>\n", f);
    char cell[N_COLS][CELL];
    for (size_t i = 0; i < rep->n_rows; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        row_cells(r, cell, MARK_INLINE);
        fprintf(f, "<tr data-passes=\"%lu\" data-verdict=\"%s\">"
                "<td class=\"num\">%lu</td>", r->passes,
                r->measured ? sb_verdict_str(r->verdict) : "none",
                r->passes);
        html_value(f, r->tv, r->tv_exact);
        html_value(f, r->separation, r->separation_exact);
        if (shown[COL_ALICE])
            html_value(f, r->solitaire, r->solitaire_exact);
        if (shown[COL_VERDICT]) {
            fputs("<td>", f);
            if (r->measured)
                html_verdict(f, r->verdict);
            else
                fputs("-", f);
            fputs("</td><td style=\"white-space:nowrap\">", f);
            sb_html_escape(f, cell[COL_DECIDED]);
            fputs("</td><td style=\"white-space:nowrap\">", f);
            sb_html_escape(f, cell[COL_DECKS]);
            fputs("</td>", f);
        }
        if (shown[COL_BRIDGE]) {
            fputs("<td style=\"white-space:nowrap\">", f);
            if (r->measured && r->bridge) {
                char p[32];
                html_verdict(f, r->bridge_verdict);
                if (r->bridge_decider) {
                    pvalue_str(p, sizeof p, r->bridge_p);
                    fputc(' ', f);
                    sb_html_escape(f, r->bridge_decider);
                    fputs(" (", f);
                    sb_html_escape(f, p);
                    fputc(')', f);
                }
            } else {
                fputs("-", f);
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    if (shown[COL_BRIDGE])
        fputs("<p class=\"note\">Bridge deal: the shuffled deck dealt "
              "round the table to four hands, one card at a time, through "
              "the deal battery at the same number of decks.</p>\n", f);
}

int sb_render_mixing_html(FILE *f, const sb_mixing_report *rep,
                          const sb_render_opts *o_)
{
    if (f == NULL || rep == NULL)
        return SB_EINVAL;
    const sb_render_opts o = options(o_);
    char title[256], line[1024];
    snprintf(title, sizeof title, "shufflebias mixing: %s",
             rep->algorithm ? rep->algorithm : "?");
    if (sb_html_begin(f, title) != SB_OK)
        return SB_EIO;
    answer(rep, line, sizeof line);
    line[0] = (char)toupper((unsigned char)line[0]);
    fputs("<p class=\"big\">", f);
    sb_html_escape(f, line);
    fputs(".</p>\n", f);
    if (rep->partial)
        fputs("<p><span class=\"verdict v-incomplete\">INTERRUPTED</span> "
              "the pass counts done are below.</p>\n", f);
    facts(f, rep, &o);
    const int rc = pictures(f, rep);
    if (rc != SB_OK)
        return rc;
    html_table(f, rep);
    return sb_html_end(f);
}
