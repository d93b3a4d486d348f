/*
 * gate.c - the reports of 'shufflebias gate' (gate.h): the terminal's
 * table, JUnit XML, Markdown and the HTML page, all read from the one
 * JSON document the gate builds, so that they never disagree.
 */
#include "reports/gate.h"

#include <string.h>

#include "reports/render.h"
#include "reports/svg.h"
#include "shufflebias/status.h"

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static json_int_t count(const json_t *gate, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(gate,
                                                              "counts"),
                                              key));
}

/* "position p (Holm) 2.2e-280", "tv = 1/18", or the message of a case
   that was not judged. */
static void decided(const json_t *c, char *buf, size_t len)
{
    const char *outcome = str(c, "outcome");
    const json_t *dec = json_object_get(c, "decided_by");
    if (strcmp(outcome, "held") && strcmp(outcome, "not held"))
        snprintf(buf, len, "%s", str(c, "message"));
    else if (json_object_get(c, "tv_exact"))
        snprintf(buf, len, "tv = %s", strcmp(str(c, "tv_exact"), "0/1")
                                      ? str(c, "tv_exact") : "0");
    else if (dec) {
        char p[32];
        const double pv = json_number_value(json_object_get(dec,
                                                            "p_adjusted"));
        sb_render_pvalue(p, sizeof p, pv, pv == 0);
        snprintf(buf, len, "%s p (Holm) %s", str(dec, "statistic"), p);
    } else
        buf[0] = '\0';
}

/* "naive-swap", or "" when no flaw was named. */
static const char *diagnosis(const json_t *c)
{
    return str(json_object_get(c, "diagnosis"), "name");
}

static void seconds(const json_t *c, char *buf, size_t len)
{
    const json_t *t = json_object_get(c, "time");
    if (t)
        snprintf(buf, len, "%.1f s", json_number_value(t));
    else
        buf[0] = '\0';
}

static void summary(const json_t *gate, char *buf, size_t len)
{
    const long long cases = count(gate, "cases"),
                    errors = count(gate, "error"),
                    stopped = count(gate, "interrupted");
    char cut[96] = "";
    if (json_is_true(json_object_get(gate, "partial")))
        snprintf(cut, sizeof cut, ", %lld interrupted (the cases after it "
                 "did not run)", stopped);
    snprintf(buf, len, "%lld case%s: %lld held, %lld not held, %lld "
             "error%s, %lld inconclusive%s", cases, cases == 1 ? "" : "s",
             (long long)count(gate, "held"),
             (long long)count(gate, "not_held"), errors,
             errors == 1 ? "" : "s", (long long)count(gate, "inconclusive"),
             cut);
}

/* Every case held, and the gate was not cut short. */
static int passed(const json_t *gate)
{
    return !count(gate, "not_held") && !count(gate, "error")
           && !count(gate, "inconclusive") && !count(gate, "interrupted")
           && !json_is_true(json_object_get(gate, "partial"));
}

/* "(cd DIR && COMMAND)" when the case runs in another directory. */
static void command(const json_t *c, char *buf, size_t len)
{
    const char *dir = str(c, "directory");
    if (*dir && strcmp(dir, ".") != 0)
        snprintf(buf, len, "(cd %s && %s)", dir, str(c, "command"));
    else
        snprintf(buf, len, "%s", str(c, "command"));
}

/* Cases whose change from the baseline is worth a line. */
static int changed(const json_t *c)
{
    const char *ch = str(c, "change");
    return *ch && strcmp(ch, "unchanged") != 0;
}

/* One row of the table, without the blanks of empty columns at its
   end. */
static void row(FILE *f, size_t width, const char *name, const char *expect,
                const char *outcome, const char *decided,
                const char *diagnosis, const char *time)
{
    char line[2048];
    int len = snprintf(line, sizeof line, "%-*.*s  %-14s %-12s %-34s %-20s "
                       "%s", (int)width, (int)width, name, expect, outcome,
                       decided, diagnosis, time);
    if (len < 0)
        return;
    if ((size_t)len >= sizeof line)
        len = (int)sizeof line - 1;
    while (len > 0 && line[len - 1] == ' ')
        len--;
    fprintf(f, "%.*s\n", len, line);
}

int sb_render_gate_text(FILE *f, const json_t *gate)
{
    const json_t *cases = json_object_get(gate, "cases"), *c;
    size_t i, width = 4;
    json_array_foreach(cases, i, c) {
        const size_t w = strlen(str(c, "name"));
        width = w > width ? (w < 40 ? w : 40) : width;
    }
    const json_t *base = json_object_get(gate, "baseline");
    if (base) {
        fprintf(f, "changes from the baseline %s:", str(base, "file"));
        int any = 0;
        json_array_foreach(cases, i, c)
            if (changed(c)) {
                fprintf(f, "\n  %-14s %s", str(c, "change"), str(c, "name"));
                const char *drift = str(c, "drift");
                if (*drift)
                    fprintf(f, " (%s)", drift);
                any = 1;
            }
        const json_t *gone;
        json_array_foreach(json_object_get(base, "removed"), i, gone) {
            fprintf(f, "\n  %-14s %s", "removed", json_string_value(gone));
            any = 1;
        }
        fputs(any ? "\n\n" : " none\n\n", f);
    }
    int timed = 0;
    json_array_foreach(cases, i, c)
        timed |= json_object_get(c, "time") != NULL;
    row(f, width, "case", "expect", "outcome", "decided by", "diagnosis",
        timed ? "time" : "");
    int notes = 0;
    json_array_foreach(cases, i, c) {
        char dec[1536], t[32];
        const char *outcome = str(c, "outcome");
        const int judged = !strcmp(outcome, "held")
                           || !strcmp(outcome, "not held");
        if (judged)
            decided(c, dec, sizeof dec);
        else
            snprintf(dec, sizeof dec, "(below)");
        notes |= strcmp(outcome, "held") != 0 || *str(c, "warning");
        seconds(c, t, sizeof t);
        row(f, width, str(c, "name"), str(c, "expect"), outcome, dec,
            diagnosis(c), t);
    }
    /* What went wrong, in full, under the table. */
    if (notes)
        fputc('\n', f);
    json_array_foreach(cases, i, c) {
        if (!strcmp(str(c, "outcome"), "held")) {
            if (*str(c, "warning"))
                fprintf(f, "%s: held, but %s\n", str(c, "name"),
                        str(c, "warning"));
            continue;
        }
        fprintf(f, "%s: %s\n", str(c, "name"), str(c, "message"));
        const json_t *d = json_object_get(c, "diagnosis");
        if (d)
            fprintf(f, "  resembles %s: %s\n  fix: %s\n", str(d, "name"),
                    str(d, "flaw"), str(d, "advice"));
        char cmd[4096];
        command(c, cmd, sizeof cmd);
        fprintf(f, "  run it alone: %s\n", cmd);
    }
    char sum[256];
    summary(gate, sum, sizeof sum);
    fprintf(f, "\ngate: %s\n", sum);
    return ferror(f) ? SB_EIO : SB_OK;
}

/* 's' escaped for XML text and attributes; control characters, which
   XML 1.0 cannot hold, as '?'. */
static void xml(FILE *f, const char *s)
{
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            fputc(ch < 0x20 && ch != '\n' && ch != '\t' ? '?' : ch, f);
        }
    }
}

/* "LABEL: VALUE\n", the value escaped; nothing when it is empty. */
static void field(FILE *f, const char *label, const char *value)
{
    if (!value || !*value)
        return;
    fprintf(f, "%s: ", label);
    xml(f, value);
    fputc('\n', f);
}

/* What a case's report says, for <system-out> and the failure's text. */
static void details(FILE *f, const json_t *c)
{
    char cmd[4096], line[2048];
    command(c, cmd, sizeof cmd);
    field(f, "command", cmd);
    field(f, "expect", str(c, "expect"));
    snprintf(line, sizeof line, "%s (%s)", str(c, "outcome"),
             str(c, "message"));
    field(f, "outcome", line);
    field(f, "warning", str(c, "warning"));
    const json_t *v;
    if ((v = json_object_get(c, "seed")))
        fprintf(f, "seed: %lld\n", (long long)json_integer_value(v));
    if ((v = json_object_get(c, "samples")) && json_is_integer(v))
        fprintf(f, "samples: %lld\n", (long long)json_integer_value(v));
    field(f, "total-variation distance", str(c, "tv_exact"));
    const json_t *d = json_object_get(c, "diagnosis");
    if (d) {
        field(f, "diagnosis (the flaw it resembles)", str(d, "name"));
        field(f, "  flaw", str(d, "flaw"));
        field(f, "  fix", str(d, "advice"));
    }
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(c, "tests"), i, t) {
        char p[32];
        const double pv = json_number_value(json_object_get(t, "p_adjusted"));
        sb_render_pvalue(p, sizeof p, pv, pv == 0);
        char line[256];
        snprintf(line, sizeof line, "  %-20s %12.6g  df %-6g  p (Holm) "
                 "%-10s %s\n", str(t, "name"),
                 json_number_value(json_object_get(t, "statistic")),
                 json_number_value(json_object_get(t, "df")), p,
                 str(t, "verdict"));
        xml(f, line);
    }
}

int sb_render_gate_junit(FILE *f, const json_t *gate)
{
    const json_t *cases = json_object_get(gate, "cases"), *c;
    const json_int_t failures = count(gate, "not_held"),
                     errors = count(gate, "error") + count(gate,
                                                           "inconclusive")
                              + count(gate, "interrupted");
    const json_t *timing = json_object_get(gate, "timing");
    const double total = timing ? json_number_value(json_object_get(timing,
                                                                "seconds"))
                                : 0;
    const char *suite = str(gate, "suite");
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"",
          f);
    fputs("shufflebias gate", f);
    fprintf(f, "\" tests=\"%lld\" failures=\"%lld\" errors=\"%lld\" "
            "time=\"%.3f\">\n", (long long)count(gate, "cases"),
            (long long)failures, (long long)errors, total);
    fputs("  <testsuite name=\"", f);
    xml(f, suite);
    fprintf(f, "\" tests=\"%lld\" failures=\"%lld\" errors=\"%lld\" "
            "skipped=\"0\" time=\"%.3f\"", (long long)count(gate, "cases"),
            (long long)failures, (long long)errors, total);
    if (timing && json_object_get(timing, "started")) {
        fputs(" timestamp=\"", f);
        xml(f, str(timing, "started"));
        fputs("\"", f);
    }
    fputs(">\n    <properties>\n      <property name=\"manifest\" value=\"",
          f);
    xml(f, str(gate, "manifest"));
    fputs("\"/>\n      <property name=\"shufflebias\" value=\"", f);
    xml(f, str(gate, "version"));
    fputs("\"/>\n    </properties>\n", f);
    size_t i;
    json_array_foreach(cases, i, c) {
        const char *outcome = str(c, "outcome");
        fputs("    <testcase name=\"", f);
        xml(f, str(c, "name"));
        fputs("\" classname=\"", f);
        xml(f, suite);
        const json_t *t = json_object_get(c, "time");
        fprintf(f, "\" time=\"%.3f\">\n", t ? json_number_value(t) : 0.0);
        const int failed = strcmp(outcome, "not held") == 0,
                  erred = !failed && strcmp(outcome, "held") != 0;
        if (failed || erred) {
            fprintf(f, "      <%s type=\"", failed ? "failure" : "error");
            xml(f, failed ? "expectation not held" : outcome);
            fputs("\" message=\"", f);
            xml(f, str(c, "message"));
            const char *diag = diagnosis(c);
            if (*diag) {
                fputs("; resembles ", f);
                xml(f, diag);
                fputs(": ", f);
                xml(f, str(json_object_get(c, "diagnosis"), "advice"));
            }
            fputs("\">", f);
            details(f, c);
            fprintf(f, "</%s>\n", failed ? "failure" : "error");
        }
        fputs("      <system-out>", f);
        details(f, c);
        fputs("</system-out>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return ferror(f) ? SB_EIO : SB_OK;
}

int sb_render_gate_markdown(FILE *f, const json_t *gate)
{
    char sum[256];
    summary(gate, sum, sizeof sum);
    fputs("## shufflebias gate: ", f);
    sb_render_md_cell(f, str(gate, "suite"));
    fprintf(f, "\n\n%s %s\n\n", passed(gate) ? "**PASSED**:" : "**FAILED**:",
            sum);
    const json_t *cases = json_object_get(gate, "cases"), *c;
    size_t i;
    const json_t *base = json_object_get(gate, "baseline");
    if (base) {
        fputs("### Changes from the baseline\n\n", f);
        int any = 0;
        json_array_foreach(cases, i, c)
            if (changed(c)) {
                fputs("- **", f);
                sb_render_md_cell(f, str(c, "change"));
                fputs("**: ", f);
                sb_render_md_cell(f, str(c, "name"));
                const char *drift = str(c, "drift");
                if (*drift) {
                    fputs(" (", f);
                    sb_render_md_cell(f, drift);
                    fputs(")", f);
                }
                fputc('\n', f);
                any = 1;
            }
        const json_t *gone;
        json_array_foreach(json_object_get(base, "removed"), i, gone) {
            fputs("- **removed**: ", f);
            sb_render_md_cell(f, json_string_value(gone));
            fputc('\n', f);
            any = 1;
        }
        fputs(any ? "\n" : "None.\n\n", f);
    }
    fputs("| case | expect | outcome | decided by | diagnosis | time |\n"
          "|---|---|---|---|---|---|\n", f);
    json_array_foreach(cases, i, c) {
        const char *outcome = str(c, "outcome");
        const int bold = strcmp(outcome, "held") != 0;
        char dec[1536], t[32];
        decided(c, dec, sizeof dec);
        seconds(c, t, sizeof t);
        fputs("| ", f);
        sb_render_md_cell(f, str(c, "name"));
        fputs(" | ", f);
        sb_render_md_cell(f, str(c, "expect"));
        fputs(bold ? " | **" : " | ", f);
        sb_render_md_cell(f, outcome);
        fputs(bold ? "** | " : " | ", f);
        sb_render_md_cell(f, dec);
        fputs(" | ", f);
        sb_render_md_cell(f, diagnosis(c));
        fprintf(f, " | %s |\n", t);
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

/* The class of an outcome's colour (svg.c's page style). */
static const char *outcome_class(const char *outcome)
{
    return strcmp(outcome, "held") == 0 ? "v-pass"
         : strcmp(outcome, "not held") == 0 ? "v-fail"
         : strcmp(outcome, "inconclusive") == 0 ? "v-inconclusive"
         : strcmp(outcome, "interrupted") == 0 ? "v-incomplete" : "v-error";
}

int sb_render_gate_html(FILE *f, const json_t *gate)
{
    char title[256], sum[256];
    snprintf(title, sizeof title, "shufflebias gate: %s", str(gate,
                                                              "suite"));
    summary(gate, sum, sizeof sum);
    if (sb_html_begin(f, title) != SB_OK)
        return SB_EIO;
    const int ok = passed(gate);
    fprintf(f, "<p class=\"big\"><span class=\"verdict %s\">%s</span> ",
            ok ? "v-pass" : "v-fail", ok ? "PASSED" : "FAILED");
    sb_html_escape(f, sum);
    fputs("</p>\n<dl class=\"facts\"><dt>manifest</dt><dd><code>", f);
    sb_html_escape(f, str(gate, "manifest"));
    fputs("</code></dd><dt>shufflebias</dt><dd>", f);
    sb_html_escape(f, str(gate, "version"));
    fputs("</dd></dl>\n", f);
    const json_t *cases = json_object_get(gate, "cases"), *c;
    size_t i;
    const json_t *base = json_object_get(gate, "baseline");
    if (base) {
        fputs("<h2>Changes from the baseline</h2>\n<ul class=\"changes\">",
              f);
        json_array_foreach(cases, i, c)
            if (changed(c)) {
                fputs("<li><strong>", f);
                sb_html_escape(f, str(c, "change"));
                fputs("</strong>: ", f);
                sb_html_escape(f, str(c, "name"));
                fputs(" ", f);
                sb_html_escape(f, str(c, "drift"));
                fputs("</li>", f);
            }
        fputs("</ul>\n", f);
    }
    fputs("<table class=\"overview\"><thead><tr><th>case</th><th>expect"
          "</th><th>outcome</th><th>decided by</th><th>diagnosis</th>"
          "<th>command</th></tr></thead><tbody>\n", f);
    json_array_foreach(cases, i, c) {
        char dec[1536];
        decided(c, dec, sizeof dec);
        const char *outcome = str(c, "outcome");
        fputs("<tr><td>", f);
        sb_html_escape(f, str(c, "name"));
        fputs("</td><td>", f);
        sb_html_escape(f, str(c, "expect"));
        fprintf(f, "</td><td><span class=\"verdict %s\">",
                outcome_class(outcome));
        sb_html_escape(f, outcome);
        fputs("</span></td><td>", f);
        sb_html_escape(f, dec);
        fputs("</td><td>", f);
        sb_html_escape(f, diagnosis(c));
        const char *advice = str(json_object_get(c, "diagnosis"), "advice");
        if (*advice) {
            fputs("<br><span class=\"note\">fix: ", f);
            sb_html_escape(f, advice);
            fputs("</span>", f);
        }
        char cmd[4096];
        command(c, cmd, sizeof cmd);
        fputs("</td><td><code>", f);
        sb_html_escape(f, cmd);
        fputs("</code></td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    return sb_html_end(f);
}
