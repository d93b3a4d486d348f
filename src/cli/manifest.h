/*
 * manifest.h - the gate's manifest: a YAML file of cases, each a shuffle
 * and what is expected of it ('shufflebias gate FILE', docs/ci.md).
 *
 * The file is read with libyaml's document loader, so that every value
 * keeps the line and column it was written at: an error names the file,
 * the line, the column and the key, with the valid choices.  Nothing is
 * run here; the gate (gate.c) turns each case into a run of the
 * program's own 'test' or 'exact' command.
 *
 *   defaults: {n: 52, samples: 200000}     # applies to every case
 *   cases:
 *     - name: fisher-yates is fair
 *       algorithm: fisher-yates
 *       expect: pass
 *
 * Strings point into the loaded document, which the manifest owns: they
 * live until sb_manifest_free.
 */
#ifndef SB_CLI_MANIFEST_H
#define SB_CLI_MANIFEST_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

/* What a case expects. */
typedef enum sb_expect {
    SB_EXPECT_PASS,           /* the battery finds no bias */
    SB_EXPECT_FAIL,           /* the battery finds a bias */
    SB_EXPECT_EXACT_UNIFORM,  /* exact mode: every outcome equally likely */
    SB_EXPECT_EXACT_BIASED,   /* exact mode: not uniform */
    SB_EXPECT_TV              /* exact mode: the total-variation distance
                                 against a bound ('tv <= 1/1000') */
} sb_expect;

/* Where a case's samples come from: exactly one of these keys. */
typedef enum sb_source {
    SB_SOURCE_ALGORITHM,      /* algorithm: NAME (a built-in) */
    SB_SOURCE_EXEC,           /* exec: "CMD" (a program, any language) */
    SB_SOURCE_PLUGIN,         /* plugin: FILE, or {file: F, name: N} */
    SB_SOURCE_INPUT           /* input: FILE (recorded samples) */
} sb_source;

#define SB_MANIFEST_PARAMS 16

/* Where a value was written (1-based; 0: not written). */
typedef struct sb_gate_mark {
    unsigned line, column;
} sb_gate_mark;

/* One case, the defaults applied.  A string NULL or a number's 'given'
   0: not set (the command's own default applies). */
typedef struct sb_gate_case {
    const char *name;
    unsigned line, column;    /* where the case starts (1-based) */
    sb_source source;
    const char *what;         /* the algorithm, command, plug-in file or
                                 input file */
    const char *plugin_name;  /* plugin: which shuffle of it (NULL: its
                                 only one) */
    const char *param_key[SB_MANIFEST_PARAMS];   /* params: {k: v} */
    const char *param_value[SB_MANIFEST_PARAMS];
    size_t params;
    /* For exec and input. */
    const char *kind, *format, *card_order;
    int one_based;
    uint64_t draw;
    unsigned exec_timeout;
    int exec_timeout_given;
    /* The run. */
    uint64_t n, hands, samples, seed;
    int n_given, hands_given, samples_given, seed_given;
    int hands_own;            /* 'hands' given by the case itself, not
                                 its defaults */
    const char *effect;       /* as test --effect (checked) */
    const char *power;        /* as test --power (checked) */
    const char *statistics;   /* "a,b", as test --tests */
    const char *rng;
    unsigned escalate;
    int escalate_given;
    int diagnosis;            /* 0: --no-diagnosis; 1: a diagnosis of
                                 every fail; -1 (not given): of a fail
                                 that was not expected */
    /* Exact mode: exact: {n: 3, max-paths: P} (or exact: true). */
    int exact;
    uint64_t exact_n, max_paths;
    int exact_n_given;
    /* The expectation. */
    sb_expect expect;
    const char *expect_text;  /* as written */
    const char *tv_op;        /* "<=", "<", ">=", ">" (SB_EXPECT_TV) */
    const char *tv_bound;     /* "1/1000" or "0.001" as written */
    double timeout;           /* seconds for the whole case; 0: none */
    /* Where the values the gate checks against the catalogue were
       written (the case's, or its defaults'). */
    sb_gate_mark at_source, at_params, at_rng, at_statistics, at_hands,
        at_format, at_card_order, at_kind;
    /* Baselines: how far a figure may move before the case is marked
       drifted. */
    double drift_sd;          /* a statistic's effect, in standard
                                 deviations of the difference */
    const char *tv_tolerance; /* an exact distance ("0": any change) */
} sb_gate_case;

typedef struct sb_manifest {
    const char *path;         /* as named on the command line */
    char *dir;                /* its directory: relative paths in it, and
                                 the programs of exec cases, start there */
    const char *suite;        /* suite: NAME, or the file's base name */
    sb_gate_case *cases;
    size_t count;
    void *doc;                /* the loaded document (owns the strings) */
    char *suite_buf;
} sb_manifest;

/* Defaults the manifest does not override. */
#define SB_GATE_TIMEOUT_DEFAULT 3600.0   /* seconds a case may take */
#define SB_GATE_DRIFT_SD_DEFAULT 5.0

/* Read and check 'path'.  0, or -1 after printing the error as
   "FILE:LINE:COLUMN: ..." (the key, what is wrong, the valid choices).
   On success free with sb_manifest_free. */
int sb_manifest_load(const char *path, sb_manifest *m);
void sb_manifest_free(sb_manifest *m);

/* A bound or a tolerance as written - "p/q", or a decimal such as 0.001
   or 1e-3 - read exactly into 'out' (initialized).  0, or -1 when it is
   neither. */
int sb_gate_rational(const char *s, mpq_t out);

/* "pass", "fail", "exact-uniform", "exact-biased" or "tv". */
const char *sb_expect_str(sb_expect e);

/* The seed of a case that names none: a hash of its name (FNV-1a, 64
   bits, folded below 2^53 so that JSON readers keep it exactly), never
   the clock, so that a gate is reproducible. */
uint64_t sb_gate_name_seed(const char *name);

#endif /* SB_CLI_MANIFEST_H */
