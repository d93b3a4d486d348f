/*
 * manifest.c - reading the gate's manifest (manifest.h, docs/ci.md).
 *
 * libyaml loads the file as a tree of nodes, each with its place in the
 * file; this walks the tree against a table of keys.  Every value is
 * checked here for what can be checked without running anything (a
 * count is a count, an expectation is one of the five, a source is
 * given once); what needs the catalogue (an algorithm's name, its
 * parameters, a statistic) is checked by the gate before the first case
 * runs, with the place of the case.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/manifest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/names.h"
#include "cli/cli.h"
#include "cli/plan.h"
#include "shufflebias/shuffle.h"

/* What is being read, for the errors. */
typedef struct reader {
    const char *path;
    yaml_document_t *doc;
    const char *case_name;    /* NULL: the defaults, or the top level */
    int in_defaults;
    unsigned case_keys;       /* keys the case itself gave (bit k) */
} reader;

static void say(const reader *r, const yaml_node_t *node, const char *fmt,
                ...) __attribute__((format(printf, 3, 4)));

/* "FILE:LINE:COLUMN: in case 'X': ..." */
static void say(const reader *r, const yaml_node_t *node, const char *fmt,
                ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char where[256] = "";
    if (r->case_name)
        snprintf(where, sizeof where, "case '%s': ", r->case_name);
    else if (r->in_defaults)
        snprintf(where, sizeof where, "defaults: ");
    sb_cli_error("%s:%zu:%zu: %s%s", r->path,
                 node ? node->start_mark.line + 1 : 1,
                 node ? node->start_mark.column + 1 : 1, where, msg);
}

static const char *scalar(const yaml_node_t *node)
{
    return node && node->type == YAML_SCALAR_NODE
           ? (const char *)node->data.scalar.value : NULL;
}

static const char *type_name(const yaml_node_t *node)
{
    return node->type == YAML_MAPPING_NODE ? "a mapping"
         : node->type == YAML_SEQUENCE_NODE ? "a list" : "a value";
}

/* The value of 'key' as a string: 0, or -1 after saying why. */
static int get_string(const reader *r, const char *key,
                      const yaml_node_t *v, const char **out)
{
    const char *s = scalar(v);
    if (!s || !*s) {
        say(r, v, "key '%s': expected a string, not %s", key,
            s ? "an empty value" : type_name(v));
        return -1;
    }
    *out = s;
    return 0;
}

/* A whole count (200000, 1e6, 10M) from 1 to 'max'. */
static int get_count(const reader *r, const char *key, const yaml_node_t *v,
                     uint64_t max, uint64_t *out)
{
    const char *s = scalar(v);
    if (!s || sb_cli_parse_count(s, out) != 0 || *out > max) {
        say(r, v, "key '%s': expected a whole number from 1 to %llu "
            "(such as 200000, 1e6 or 10M), not %s%s%s", key,
            (unsigned long long)max, s ? "'" : "", s ? s : type_name(v),
            s ? "'" : "");
        return -1;
    }
    return 0;
}

/* A number from 0 to 'max' of 'unit' ("seconds"). */
static int get_number(const reader *r, const char *key, const char *unit,
                      const yaml_node_t *v, double max, double *out)
{
    const char *s = scalar(v);
    char *end = NULL;
    errno = 0;
    const double x = s ? strtod(s, &end) : -1;
    if (!s || end == s || *end || errno || !(x >= 0 && x <= max)) {
        say(r, v, "key '%s': expected %s from 0 to %g, not %s%s%s", key,
            unit, max, s ? "'" : "", s ? s : type_name(v), s ? "'" : "");
        return -1;
    }
    *out = x;
    return 0;
}

static int get_bool(const reader *r, const char *key, const yaml_node_t *v,
                    int *out)
{
    static const char *const yes[] = { "true", "yes", "on", "True", "TRUE" },
                      *const no[] = { "false", "no", "off", "False",
                                      "FALSE" };
    const char *s = scalar(v);
    for (size_t i = 0; s && i < 5; i++) {
        if (strcmp(s, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcmp(s, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    say(r, v, "key '%s': expected true or false", key);
    return -1;
}

int sb_gate_rational(const char *s, mpq_t out)
{
    /* p/q, or a decimal such as 0.001 or 1e-3, read exactly. */
    const char *slash = strchr(s, '/');
    if (slash) {
        for (const char *p = s; *p; p++)
            if ((*p < '0' || *p > '9') && p != slash)
                return -1;
        if (slash == s || !slash[1] || mpq_set_str(out, s, 10) != 0
            || mpz_sgn(mpq_denref(out)) == 0)
            return -1;
        mpq_canonicalize(out);
        return 0;
    }
    mpz_t digits;
    mpz_init_set_ui(digits, 0);
    long scale = 0;           /* the value is digits * 10^scale */
    int seen = 0, point = 0;
    const char *p = s;
    for (; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            mpz_mul_ui(digits, digits, 10);
            mpz_add_ui(digits, digits, (unsigned long)(*p - '0'));
            scale -= point;
            seen = 1;
        } else if (*p == '.' && !point)
            point = 1;
        else
            break;
    }
    if (seen && (*p == 'e' || *p == 'E')) {
        char *end;
        errno = 0;
        const long e = strtol(p + 1, &end, 10);
        if (end == p + 1 || *end || errno || e < -1000 || e > 1000)
            seen = 0;
        else
            scale += e;
        p = end;
    }
    if (!seen || *p) {
        mpz_clear(digits);
        return -1;
    }
    mpz_t ten;
    mpz_init(ten);
    mpz_ui_pow_ui(ten, 10, (unsigned long)(scale < 0 ? -scale : scale));
    mpq_set_z(out, digits);
    if (scale < 0)
        mpz_mul(mpq_denref(out), mpq_denref(out), ten);
    else
        mpz_mul(mpq_numref(out), mpq_numref(out), ten);
    mpq_canonicalize(out);
    mpz_clear(ten);
    mpz_clear(digits);
    return 0;
}

/* 'expect: ...': one of the four words, or "tv OP BOUND". */
static int get_expect(const reader *r, const yaml_node_t *v,
                      sb_gate_case *c)
{
    static const char *const words[] = { "pass", "fail", "exact-uniform",
                                         "exact-biased" };
    const char *s = scalar(v);
    for (size_t i = 0; s && i < 4; i++)
        if (strcmp(s, words[i]) == 0) {
            c->expect = (sb_expect)i;
            c->expect_text = s;
            return 0;
        }
    if (s && strncmp(s, "tv", 2) == 0) {
        static char ops[4][3] = { "<=", ">=", "<", ">" };
        const char *p = s + 2;
        while (*p == ' ')
            p++;
        for (size_t i = 0; i < 4; i++) {
            const size_t len = strlen(ops[i]);
            if (strncmp(p, ops[i], len) != 0)
                continue;
            const char *b = p + len;
            while (*b == ' ')
                b++;
            mpq_t q;
            mpq_init(q);
            const int ok = sb_gate_rational(b, q) == 0 && mpq_sgn(q) >= 0
                           && mpq_cmp_ui(q, 1, 1) <= 0;
            mpq_clear(q);
            if (!ok)
                break;
            c->expect = SB_EXPECT_TV;
            c->expect_text = s;
            c->tv_op = ops[i];
            c->tv_bound = b;
            return 0;
        }
    }
    const char *nearest = NULL;
    size_t best = SB_NAME_NEAR_MAX;
    for (size_t i = 0; s && i < 4; i++)
        sb_name_nearer(s, words[i], &best, &nearest);
    char hint[96];
    sb_name_hint(hint, sizeof hint, nearest);
    say(r, v, "key 'expect': '%s' is not an expectation%s; valid: pass, "
        "fail, exact-uniform, exact-biased, or a bound on the exact "
        "total-variation distance such as 'tv <= 1/1000' (<=, <, >=, >; "
        "a fraction or a decimal from 0 to 1)", s ? s : type_name(v), hint);
    return -1;
}

/* The keys a case may hold.  'defaults' may hold those marked so. */
enum key_id {
    K_NAME, K_ALGORITHM, K_EXEC, K_PLUGIN, K_INPUT, K_PARAMS, K_KIND,
    K_FORMAT, K_CARD_ORDER, K_ONE_BASED, K_DRAW, K_EXEC_TIMEOUT, K_N,
    K_HANDS, K_SAMPLES, K_EFFECT, K_POWER, K_STATISTICS, K_SEED, K_RNG,
    K_ESCALATE, K_DIAGNOSIS, K_EXACT, K_EXPECT, K_TIMEOUT, K_DRIFT_SD,
    K_TV_TOLERANCE, K_COUNT
};
static const char *const key_names[K_COUNT] = {
    "name", "algorithm", "exec", "plugin", "input", "params", "kind",
    "format", "card-order", "one-based", "draw", "exec-timeout", "n",
    "hands", "samples", "effect", "power", "statistics", "seed", "rng",
    "escalate", "diagnosis", "exact", "expect", "timeout", "drift-sd",
    "tv-tolerance"
};
/* Keys for a program's or a file's samples alone. */
#define INPUT_KEYS ((1u << K_KIND) | (1u << K_FORMAT) | (1u << K_CARD_ORDER) \
                    | (1u << K_ONE_BASED) | (1u << K_DRAW)                  \
                    | (1u << K_EXEC_TIMEOUT))

static int key_id(const reader *r, const yaml_node_t *k)
{
    const char *s = scalar(k);
    for (int i = 0; s && i < K_COUNT; i++)
        if (strcmp(s, key_names[i]) == 0)
            return i;
    const char *nearest = NULL;
    size_t best = SB_NAME_NEAR_MAX;
    for (int i = 0; s && i < K_COUNT; i++)
        sb_name_nearer(s, key_names[i], &best, &nearest);
    char hint[96], valid[512] = "";
    sb_name_hint(hint, sizeof hint, nearest);
    for (int i = r->in_defaults ? 2 : 0; i < K_COUNT; i++) {
        if (r->in_defaults && i <= K_INPUT)
            continue;
        strcat(valid, key_names[i]);
        strcat(valid, i + 1 < K_COUNT ? ", " : "");
    }
    say(r, k, "unknown key '%s'%s; valid: %s", s ? s : "(not a name)", hint,
        valid);
    return -1;
}

static int get_params(const reader *r, const yaml_node_t *v,
                      sb_gate_case *c)
{
    if (v->type != YAML_MAPPING_NODE) {
        say(r, v, "key 'params': expected a mapping such as {passes: 7}, "
            "not %s", type_name(v));
        return -1;
    }
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start;
         p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, p->key),
                          *x = yaml_document_get_node(r->doc, p->value);
        const char *ks = scalar(k), *xs = scalar(x);
        if (!ks || !xs || !*ks || !*xs) {
            say(r, ks ? x : k, "key 'params': each parameter is a name and "
                "a value, such as passes: 7");
            return -1;
        }
        size_t i = 0;     /* a case's value replaces the defaults' */
        while (i < c->params && strcmp(c->param_key[i], ks) != 0)
            i++;
        if (i == SB_MANIFEST_PARAMS) {
            say(r, k, "key 'params': more than %d parameters",
                SB_MANIFEST_PARAMS);
            return -1;
        }
        c->param_key[i] = ks;
        c->param_value[i] = xs;
        if (i == c->params)
            c->params++;
    }
    return 0;
}

/* exact: {n: N, max-paths: P}, or exact: true. */
static int get_exact(const reader *r, const yaml_node_t *v, sb_gate_case *c)
{
    if (v->type == YAML_SCALAR_NODE) {
        if (get_bool(r, "exact", v, &c->exact) != 0)
            return -1;
        return 0;
    }
    if (v->type != YAML_MAPPING_NODE) {
        say(r, v, "key 'exact': expected a mapping such as {n: 3}, or true");
        return -1;
    }
    c->exact = 1;
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start;
         p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, p->key),
                          *x = yaml_document_get_node(r->doc, p->value);
        const char *ks = scalar(k);
        if (ks && strcmp(ks, "n") == 0) {
            if (get_count(r, "exact: n", x, SB_DECK_MAX, &c->exact_n) != 0)
                return -1;
            c->exact_n_given = 1;
        } else if (ks && strcmp(ks, "max-paths") == 0) {
            if (get_count(r, "exact: max-paths", x, (uint64_t)1 << 62,
                          &c->max_paths) != 0)
                return -1;
        } else {
            say(r, k, "unknown key '%s' in 'exact'; valid: n, max-paths",
                ks ? ks : "(not a name)");
            return -1;
        }
    }
    return 0;
}

/* plugin: FILE, or {file: FILE, name: NAME}. */
static int get_plugin(const reader *r, const yaml_node_t *v,
                      sb_gate_case *c)
{
    if (v->type != YAML_MAPPING_NODE)
        return get_string(r, "plugin", v, &c->what);
    c->what = NULL;
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start;
         p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, p->key),
                          *x = yaml_document_get_node(r->doc, p->value);
        const char *ks = scalar(k);
        if (ks && strcmp(ks, "file") == 0) {
            if (get_string(r, "plugin: file", x, &c->what) != 0)
                return -1;
        } else if (ks && strcmp(ks, "name") == 0) {
            if (get_string(r, "plugin: name", x, &c->plugin_name) != 0)
                return -1;
        } else {
            say(r, k, "unknown key '%s' in 'plugin'; valid: file, name",
                ks ? ks : "(not a name)");
            return -1;
        }
    }
    if (!c->what) {
        say(r, v, "key 'plugin': no file (plugin: {file: ./libmine.so, "
            "name: mine})");
        return -1;
    }
    return 0;
}

/* statistics: [a, b] or "a,b" */
static int get_statistics(reader *r, const yaml_node_t *v, sb_gate_case *c,
                          char **owned)
{
    if (v->type != YAML_SEQUENCE_NODE)
        return get_string(r, "statistics", v, &c->statistics);
    size_t len = 1;
    for (yaml_node_item_t *i = v->data.sequence.items.start;
         i < v->data.sequence.items.top; i++) {
        const char *s = scalar(yaml_document_get_node(r->doc, *i));
        if (!s || !*s || strchr(s, ',')) {
            say(r, yaml_document_get_node(r->doc, *i), "key 'statistics': "
                "expected names of statistics ('shufflebias list')");
            return -1;
        }
        len += strlen(s) + 1;
    }
    char *buf = malloc(len);
    if (!buf) {
        say(r, v, "out of memory");
        return -1;
    }
    buf[0] = '\0';
    for (yaml_node_item_t *i = v->data.sequence.items.start;
         i < v->data.sequence.items.top; i++) {
        if (buf[0])
            strcat(buf, ",");
        strcat(buf, scalar(yaml_document_get_node(r->doc, *i)));
    }
    if (!buf[0]) {
        free(buf);
        say(r, v, "key 'statistics': an empty list");
        return -1;
    }
    /* Kept with the document: freed with the manifest. */
    owned[0] = buf;
    c->statistics = buf;
    return 0;
}

/* Strings the manifest made (lists of statistics), freed with it. */
typedef struct owned_list {
    char **items;
    size_t count, cap;
} owned_list;

static char **owned_slot(owned_list *o)
{
    if (o->count == o->cap) {
        const size_t cap = o->cap ? 2 * o->cap : 8;
        char **items = realloc(o->items, cap * sizeof *items);
        if (!items)
            return NULL;
        o->items = items;
        o->cap = cap;
    }
    o->items[o->count] = NULL;
    return &o->items[o->count++];
}

static sb_gate_mark mark(const yaml_node_t *v)
{
    return (sb_gate_mark){ (unsigned)v->start_mark.line + 1,
                           (unsigned)v->start_mark.column + 1 };
}

/* A name is shown in tables, JUnit, Markdown and HTML: one line of
   printable characters. */
static int get_name(const reader *r, const yaml_node_t *v, const char **out)
{
    if (get_string(r, "name", v, out) != 0)
        return -1;
    for (const unsigned char *p = (const unsigned char *)*out; *p; p++)
        if (*p < 0x20 || *p == 0x7f) {
            say(r, v, "key 'name': a name is one line of printable "
                "characters");
            return -1;
        }
    return 0;
}

static int apply(reader *r, int id, const yaml_node_t *v, sb_gate_case *c,
                 owned_list *owned)
{
    switch (id) {
    case K_ALGORITHM: case K_EXEC: case K_PLUGIN: case K_INPUT:
        c->at_source = mark(v);
        break;
    case K_PARAMS: c->at_params = mark(v); break;
    case K_RNG: c->at_rng = mark(v); break;
    case K_STATISTICS: c->at_statistics = mark(v); break;
    case K_HANDS: c->at_hands = mark(v); break;
    case K_FORMAT: c->at_format = mark(v); break;
    case K_CARD_ORDER: c->at_card_order = mark(v); break;
    case K_KIND: c->at_kind = mark(v); break;
    default: break;
    }
    switch (id) {
    case K_NAME:
        return get_name(r, v, &c->name);
    case K_ALGORITHM: case K_EXEC: case K_PLUGIN: case K_INPUT:
        c->source = id == K_ALGORITHM ? SB_SOURCE_ALGORITHM
                  : id == K_EXEC ? SB_SOURCE_EXEC
                  : id == K_PLUGIN ? SB_SOURCE_PLUGIN : SB_SOURCE_INPUT;
        return id == K_PLUGIN ? get_plugin(r, v, c)
             : get_string(r, key_names[id], v, &c->what);
    case K_PARAMS:
        return get_params(r, v, c);
    case K_KIND:
        if (get_string(r, "kind", v, &c->kind) != 0)
            return -1;
        if (strcmp(c->kind, "permutation") && strcmp(c->kind, "deal")
            && strcmp(c->kind, "draw")) {
            say(r, v, "key 'kind': '%s' is not a kind; valid: permutation, "
                "deal, draw", c->kind);
            return -1;
        }
        return 0;
    case K_FORMAT:
        return get_string(r, "format", v, &c->format);
    case K_CARD_ORDER:
        return get_string(r, "card-order", v, &c->card_order);
    case K_ONE_BASED:
        return get_bool(r, "one-based", v, &c->one_based);
    case K_DRAW:
        return get_count(r, "draw", v, SB_DECK_MAX, &c->draw);
    case K_EXEC_TIMEOUT: {
        double s;
        if (get_number(r, "exec-timeout", "seconds", v, 1000000, &s) != 0)
            return -1;
        c->exec_timeout = (unsigned)s;
        c->exec_timeout_given = 1;
        return 0;
    }
    case K_N:
        c->n_given = 1;
        return get_count(r, "n", v, SB_DECK_MAX, &c->n);
    case K_HANDS:
        c->hands_given = 1;
        return get_count(r, "hands", v, SB_DECK_MAX, &c->hands);
    case K_SAMPLES:
        c->samples_given = 1;
        return get_count(r, "samples", v, (uint64_t)1 << 62, &c->samples);
    case K_EFFECT: {
        sb_plan_effect e = { 0 };
        if (get_string(r, "effect", v, &c->effect) != 0)
            return -1;
        if (sb_cli_parse_effect(c->effect, &e) != 0) {
            say(r, v, "key 'effect': as test --effect (above)");
            return -1;
        }
        return 0;
    }
    case K_POWER: {
        double p;
        if (get_string(r, "power", v, &c->power) != 0)
            return -1;
        if (sb_cli_parse_power(c->power, &p) != 0) {
            say(r, v, "key 'power': as test --power (above)");
            return -1;
        }
        return 0;
    }
    case K_STATISTICS: {
        char **slot = owned_slot(owned);
        if (!slot) {
            say(r, v, "out of memory");
            return -1;
        }
        return get_statistics(r, v, c, slot);
    }
    case K_SEED: {
        const char *s = scalar(v);
        if (!s || sb_cli_parse_seed(s, &c->seed) != 0) {
            say(r, v, "key 'seed': expected a whole number from 0 to "
                "2^63 - 1 (decimal or 0x hexadecimal)");
            return -1;
        }
        c->seed_given = 1;
        return 0;
    }
    case K_RNG:
        return get_string(r, "rng", v, &c->rng);
    case K_ESCALATE: {
        const char *s = scalar(v);
        char *end = NULL;
        const unsigned long e = s ? strtoul(s, &end, 10) : 99;
        if (!s || end == s || *end || e > 8 || s[0] == '-') {
            say(r, v, "key 'escalate': expected 0 to 8");
            return -1;
        }
        c->escalate = (unsigned)e;
        c->escalate_given = 1;
        return 0;
    }
    case K_DIAGNOSIS:
        return get_bool(r, "diagnosis", v, &c->diagnosis);
    case K_EXACT:
        return get_exact(r, v, c);
    case K_EXPECT:
        return get_expect(r, v, c);
    case K_TIMEOUT:
        return get_number(r, "timeout", "seconds", v, 7 * 86400.0,
                          &c->timeout);
    case K_DRIFT_SD: {
        double s;
        if (get_number(r, "drift-sd", "standard deviations", v, 1000, &s)
            != 0)
            return -1;
        c->drift_sd = s;
        return 0;
    }
    case K_TV_TOLERANCE: {
        mpq_t q;
        mpq_init(q);
        const char *s = scalar(v);
        const int ok = s && sb_gate_rational(s, q) == 0;
        mpq_clear(q);
        if (!ok) {
            say(r, v, "key 'tv-tolerance': expected a fraction or a "
                "decimal, such as 1/1000 or 0.001");
            return -1;
        }
        c->tv_tolerance = s;
        return 0;
    }
    }
    return -1;
}

/* Read the mapping 'm' into 'c' (the defaults, or a case started from
   them).  0, or -1 after saying why. */
static int read_mapping(reader *r, const yaml_node_t *m, sb_gate_case *c,
                        owned_list *owned)
{
    unsigned seen = 0;
    int sources = 0;
    const yaml_node_t *first_source = NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
         p < m->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, p->key),
                          *v = yaml_document_get_node(r->doc, p->value);
        const int id = key_id(r, k);
        if (id < 0)
            return -1;
        if (seen & (1u << id)) {
            say(r, k, "key '%s' given twice", key_names[id]);
            return -1;
        }
        seen |= 1u << id;
        if (r->in_defaults && id <= K_INPUT) {
            say(r, k, "key '%s' belongs to a case, not to the defaults",
                key_names[id]);
            return -1;
        }
        if (id >= K_ALGORITHM && id <= K_INPUT) {
            if (sources++) {
                say(r, k, "key '%s': a case has one source, and '%s' "
                    "was given already; valid: algorithm, exec, plugin, "
                    "input", key_names[id], scalar(first_source));
                return -1;
            }
            first_source = k;
        }
        if (apply(r, id, v, c, owned) != 0)
            return -1;
    }
    r->case_keys = seen;
    return 0;
}

/* The checks of a whole case, its defaults applied. */
static int check_case(reader *r, const yaml_node_t *node, sb_gate_case *c)
{
    const unsigned own = r->case_keys;
    if (!(own & (1u << K_NAME))) {
        say(r, node, "a case without a 'name'");
        return -1;
    }
    if (!(own & ((1u << K_ALGORITHM) | (1u << K_EXEC) | (1u << K_PLUGIN)
                 | (1u << K_INPUT)))) {
        say(r, node, "no source: give one of algorithm, exec, plugin, "
            "input");
        return -1;
    }
    if (!(own & (1u << K_EXPECT)) && !c->expect_text) {
        say(r, node, "no 'expect'; valid: pass, fail, exact-uniform, "
            "exact-biased, tv <= BOUND");
        return -1;
    }
    const int outside = c->source == SB_SOURCE_EXEC
                        || c->source == SB_SOURCE_INPUT;
    c->hands_own = (own & (1u << K_HANDS)) != 0;
    if (!outside) {
        /* Written in the case: a mistake; from the defaults: not for
           this case. */
        for (int k = 0; k < K_COUNT; k++)
            if ((INPUT_KEYS & (1u << k)) && (own & (1u << k))) {
                say(r, node, "key '%s' is for exec and input cases; an "
                    "algorithm or plug-in has its own", key_names[k]);
                return -1;
            }
        c->kind = c->format = c->card_order = NULL;
        c->one_based = 0;
        c->draw = 0;
        c->exec_timeout_given = 0;
    }
    if (c->source == SB_SOURCE_INPUT) {
        if (own & (1u << K_SEED)) {
            say(r, node, "key 'seed': recorded samples cannot be drawn "
                "again, so an input case takes no seed");
            return -1;
        }
        c->seed_given = 0;
    }
    if (c->source != SB_SOURCE_ALGORITHM && c->source != SB_SOURCE_PLUGIN
        && (own & (1u << K_PARAMS))) {
        say(r, node, "key 'params' is for an algorithm or a plug-in");
        return -1;
    }
    const int exact_expect = c->expect == SB_EXPECT_EXACT_UNIFORM
                             || c->expect == SB_EXPECT_EXACT_BIASED
                             || c->expect == SB_EXPECT_TV;
    if (exact_expect && !c->exact) {
        say(r, node, "expect '%s' is a figure of exact mode: add "
            "exact: {n: 3} (a deck small enough to walk every path)",
            c->expect_text);
        return -1;
    }
    if (c->exact && !exact_expect) {
        say(r, node, "exact mode's expectations are exact-uniform, "
            "exact-biased or a bound such as 'tv <= 1/1000', not '%s'",
            c->expect_text);
        return -1;
    }
    if (c->exact && outside) {
        say(r, node, "exact mode walks a built-in algorithm or a plug-in, "
            "not a program's or a file's samples");
        return -1;
    }
    if (outside && (own & (1u << K_RNG))) {
        say(r, node, "key 'rng' is for an algorithm or a plug-in; a "
            "program draws from its own generator");
        return -1;
    }
    if (outside)
        c->rng = NULL;            /* the defaults' are for built-ins */
    if (outside && !(own & (1u << K_EFFECT)))
        c->effect = NULL;         /* the defaults' are for built-ins */
    if (outside && !(own & (1u << K_POWER)))
        c->power = NULL;
    if ((c->effect || c->power) && outside) {
        say(r, node, "key '%s' sizes a run of an algorithm or a plug-in; "
            "a program's or a file's samples are as many as 'samples' says",
            c->effect ? "effect" : "power");
        return -1;
    }
    if (c->effect && c->exact) {
        say(r, node, "exact mode takes no 'effect'");
        return -1;
    }
    /* The case's effect plans its samples over the defaults'; samples
       and an effect given together are checked against each other by
       the gate. */
    if (c->effect && (own & (1u << K_EFFECT)) && !(own & (1u << K_SAMPLES)))
        c->samples_given = 0;
    return 0;
}

const char *sb_expect_str(sb_expect e)
{
    switch (e) {
    case SB_EXPECT_PASS: return "pass";
    case SB_EXPECT_FAIL: return "fail";
    case SB_EXPECT_EXACT_UNIFORM: return "exact-uniform";
    case SB_EXPECT_EXACT_BIASED: return "exact-biased";
    case SB_EXPECT_TV: return "tv";
    }
    return "?";
}

uint64_t sb_gate_name_seed(const char *name)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3u;
    }
    return h & (((uint64_t)1 << 53) - 1);
}

/* The owned strings ride in the document's slot beside it. */
typedef struct loaded {
    yaml_document_t doc;
    owned_list owned;
} loaded;

void sb_manifest_free(sb_manifest *m)
{
    loaded *l = m->doc;
    if (l) {
        for (size_t i = 0; i < l->owned.count; i++)
            free(l->owned.items[i]);
        free(l->owned.items);
        yaml_document_delete(&l->doc);
        free(l);
    }
    free(m->cases);
    free(m->dir);
    free(m->suite_buf);
    *m = (sb_manifest){ 0 };
}

/* The file's directory and base name (without .yaml or .yml). */
static int names(sb_manifest *m)
{
    const char *slash = strrchr(m->path, '/');
    m->dir = slash ? strndup(m->path, (size_t)(slash - m->path) + 1)
                   : strdup(".");
    const char *base = slash ? slash + 1 : m->path;
    m->suite_buf = strdup(base);
    if (!m->dir || !m->suite_buf)
        return -1;
    char *dot = strrchr(m->suite_buf, '.');
    if (dot && dot != m->suite_buf
        && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0))
        *dot = '\0';
    m->suite = m->suite_buf;
    return 0;
}

static int load_document(const char *path, FILE *f, yaml_document_t *doc)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        sb_cli_error("%s: out of memory", path);
        return -1;
    }
    yaml_parser_set_input_file(&parser, f);
    int rc = 0;
    if (!yaml_parser_load(&parser, doc)) {
        const yaml_mark_t mk = parser.problem_mark;
        sb_cli_error("%s:%zu:%zu: not YAML: %s%s%s", path, mk.line + 1,
                     mk.column + 1, parser.problem ? parser.problem : "",
                     parser.context ? " " : "",
                     parser.context ? parser.context : "");
        rc = -1;
    } else if (!yaml_document_get_root_node(doc)) {
        yaml_document_delete(doc);
        sb_cli_error("%s: empty: a manifest holds 'cases:' (docs/ci.md)",
                     path);
        rc = -1;
    } else {
        /* One document: a second one would be ignored, so refused. */
        yaml_document_t next;
        if (yaml_parser_load(&parser, &next)) {
            const int more = yaml_document_get_root_node(&next) != NULL;
            const yaml_mark_t mk = next.start_mark;
            yaml_document_delete(&next);
            if (more) {
                sb_cli_error("%s:%zu:%zu: a second YAML document; a "
                             "manifest is one", path, mk.line + 1,
                             mk.column + 1);
                yaml_document_delete(doc);
                rc = -1;
            }
        }
    }
    yaml_parser_delete(&parser);
    return rc;
}

int sb_manifest_load(const char *path, sb_manifest *m)
{
    *m = (sb_manifest){ .path = path };
    FILE *f = fopen(path, "rb");
    if (!f) {
        sb_cli_error("cannot read manifest '%s': %s", path, strerror(errno));
        return -1;
    }
    loaded *l = calloc(1, sizeof *l);
    if (!l || names(m) != 0) {
        fclose(f);
        free(l);
        sb_manifest_free(m);
        sb_cli_error("out of memory");
        return -1;
    }
    const int lrc = load_document(path, f, &l->doc);
    fclose(f);
    if (lrc != 0) {
        free(l);
        sb_manifest_free(m);
        return -1;
    }
    m->doc = l;
    reader r = { .path = path, .doc = &l->doc };
    const yaml_node_t *root = yaml_document_get_root_node(&l->doc);
    const yaml_node_t *cases = NULL;
    sb_gate_case defaults = { .timeout = SB_GATE_TIMEOUT_DEFAULT,
                              .drift_sd = SB_GATE_DRIFT_SD_DEFAULT,
                              .diagnosis = -1 };
    if (root->type != YAML_MAPPING_NODE) {
        say(&r, root, "expected a mapping with 'cases:' (and optionally "
            "'defaults:' and 'suite:'), not %s", type_name(root));
        goto fail;
    }
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(&l->doc, p->key),
                          *v = yaml_document_get_node(&l->doc, p->value);
        const char *ks = scalar(k);
        if (ks && strcmp(ks, "cases") == 0 && !cases)
            cases = v;
        else if (ks && strcmp(ks, "defaults") == 0) {
            if (v->type != YAML_MAPPING_NODE) {
                say(&r, v, "'defaults' is a mapping of case keys, such as "
                    "{n: 52, samples: 200000}");
                goto fail;
            }
            r.in_defaults = 1;
            if (read_mapping(&r, v, &defaults, &l->owned) != 0)
                goto fail;
            r.in_defaults = 0;
        } else if (ks && strcmp(ks, "suite") == 0) {
            if (get_string(&r, "suite", v, &m->suite) != 0)
                goto fail;
        } else {
            say(&r, k, "unknown key '%s' at the top; valid: cases, "
                "defaults, suite", ks ? ks : "(not a name)");
            goto fail;
        }
    }
    if (!cases || cases->type != YAML_SEQUENCE_NODE
        || cases->data.sequence.items.top == cases->data.sequence.items.start) {
        say(&r, cases ? cases : root, "expected 'cases:', a list of at "
            "least one case");
        goto fail;
    }
    const size_t count = (size_t)(cases->data.sequence.items.top
                                  - cases->data.sequence.items.start);
    m->cases = calloc(count, sizeof *m->cases);
    if (!m->cases) {
        sb_cli_error("out of memory");
        goto fail;
    }
    for (yaml_node_item_t *i = cases->data.sequence.items.start;
         i < cases->data.sequence.items.top; i++) {
        const yaml_node_t *node = yaml_document_get_node(&l->doc, *i);
        sb_gate_case *c = &m->cases[m->count];
        *c = defaults;
        c->line = (unsigned)node->start_mark.line + 1;
        c->column = (unsigned)node->start_mark.column + 1;
        if (node->type != YAML_MAPPING_NODE) {
            say(&r, node, "a case is a mapping (name:, a source, expect:), "
                "not %s", type_name(node));
            goto fail;
        }
        /* Its name first, so that every error names the case. */
        for (yaml_node_pair_t *p = node->data.mapping.pairs.start;
             p < node->data.mapping.pairs.top; p++) {
            const char *ks = scalar(yaml_document_get_node(&l->doc, p->key));
            if (ks && strcmp(ks, "name") == 0)
                r.case_name = scalar(yaml_document_get_node(&l->doc,
                                                            p->value));
        }
        if (read_mapping(&r, node, c, &l->owned) != 0
            || check_case(&r, node, c) != 0)
            goto fail;
        for (size_t j = 0; j < m->count; j++)
            if (strcmp(m->cases[j].name, c->name) == 0) {
                say(&r, node, "a second case named '%s' (the first is at "
                    "line %u); names identify cases in reports and "
                    "baselines", c->name, m->cases[j].line);
                goto fail;
            }
        r.case_name = NULL;
        m->count++;
    }
    return 0;
fail:
    sb_manifest_free(m);
    return -1;
}
