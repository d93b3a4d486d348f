/*
 * gate.h - what 'shufflebias gate' (gate.c) computes on its JSON
 * document besides running the cases (baseline.c): the counts of
 * outcomes, the comparison with a baseline, and the document without
 * what differs between two runs of the same code.
 */
#ifndef SB_CLI_GATE_H
#define SB_CLI_GATE_H

#include <jansson.h>

/* "counts": cases, held, not_held, error, inconclusive, interrupted. */
void sb_gate_count(json_t *gate);

/* Mark each case against the baseline 'base' (a previous gate's JSON,
   read from 'file'): "change" is "unchanged", "newly failing" (it held
   and does not now), "fixed" (the other way), "drifted" (it holds as it
   did, but a figure moved: an exact distance by more than the case's
   tv_tolerance, any change when it has none, or a statistic's effect -
   its chi-square distance per sample - by more than drift_sd standard
   deviations of the difference; "drift" says which), "outcome
   changed" (from one outcome that is not held to another: "not held ->
   error", in "drift"), or "new".  The
   gate gets "baseline": {file, removed: [names of cases gone]}. */
void sb_gate_compare(json_t *gate, const json_t *base, const char *file);

/* Drop what differs between runs of the same code and seeds: "timing",
   and each case's "time". */
void sb_gate_strip_timing(json_t *gate);

#endif /* SB_CLI_GATE_H */
