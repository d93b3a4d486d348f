/*
 * gate.h - the reports of 'shufflebias gate': its table, JUnit XML,
 * Markdown and the HTML page, each drawn from the gate's JSON document
 * (src/cli/gate.c builds it; docs/ci.md lists its keys).
 *
 * The document is read, never changed: a case is an object with at
 * least "name", "expect", "outcome" ("held", "not held", "error",
 * "inconclusive", "interrupted") and "message"; "decided_by",
 * "diagnosis", "tv_exact", "time" and, after a comparison with a
 * baseline, "change" and "drift" when present.
 */
#ifndef SB_REPORTS_GATE_H
#define SB_REPORTS_GATE_H

#include <stdio.h>
#include <jansson.h>

/* Each returns SB_OK, or SB_EIO when the stream failed. */

/* The table for a terminal: case, expectation, outcome, what decided it,
   the diagnosis, the time; the changes from a baseline first. */
int sb_render_gate_text(FILE *f, const json_t *gate);

/* JUnit XML: <testsuites> holding one <testsuite> (the manifest), one
   <testcase> per case with its time; a case not held is a <failure>, one
   that could not be judged an <error>, each with the message, the
   verdict and the diagnosis; <system-out> with the case's command and
   figures.  It follows the JUnit schemas Jenkins and Ant publish
   (tests/data/junit.xsd). */
int sb_render_gate_junit(FILE *f, const json_t *gate);

/* Markdown for a job summary (GitHub's step summary): the counts, the
   changes first, then a table of every case. */
int sb_render_gate_markdown(FILE *f, const json_t *gate);

/* One self-contained HTML page: the counts and a table of every case,
   its outcome coloured. */
int sb_render_gate_html(FILE *f, const json_t *gate);

#endif /* SB_REPORTS_GATE_H */
