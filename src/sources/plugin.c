/*
 * plugin.c - load a shared object's shuffles (--plugin).
 *
 * The object is opened with dlopen(RTLD_NOW | RTLD_LOCAL) and asked for
 * one symbol, SB_PLUGIN_SYMBOL, which SB_PLUGIN defines: the interface
 * version and the size of sb_shuffle_type it was compiled with, and a
 * NULL-ended list of its shuffle types.  The checks go from the outside
 * in, each only once the one before it passed, because until the version
 * is known to match nothing else in the object may be read: the version
 * (the first field, whose place never changes), then the size of the type,
 * then every type in the list, field by field, then the names (no two
 * alike, none a built-in algorithm's), and only then the choice of one.
 *
 * The plug-in's draws resolve to the sb_draw_* functions the program
 * exports (the executable is linked with its symbols exported), so a
 * program that forgot to export them fails here, at load time, with the
 * loader naming the missing symbol.
 */
#include "sources/plugin.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "shufflebias/plugin.h"
#include "shufflebias/status.h"
#include "base/rng.h"
#include "sources/sample_check.h"

/* A list longer than this has lost its NULL end (SB_PLUGIN always writes
   one, a hand-made list might not): refuse it rather than read on. */
#define MAX_SHUFFLES 1024u
/* Choices of one parameter, for the same reason. */
#define MAX_CHOICES 65536u

struct sb_plugin_handle {
    void *dl;                               /* from dlopen */
    const sb_shuffle_type *const *types;    /* the plug-in's list */
    size_t count;                           /* entries before its NULL */
    const sb_markov *const *markov;         /* SB_PLUGIN_MARKOV's, or NULL */
    size_t n_markov;
};

/* Lowercase letters, digits and single '-' between them. */
static int is_kebab(const char *s)
{
    if (!s[0] || s[0] == '-')
        return 0;
    for (size_t i = 0; s[i]; i++) {
        const char c = s[i];
        if (c == '-') {
            if (s[i + 1] == '-' || s[i + 1] == '\0')
                return 0;
        } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
            return 0;
        }
    }
    return 1;
}

static int refuse(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t len, const char *fmt, ...)
{
    if (len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return SB_EINVAL;
}

static int check_param(const sb_shuffle_type *t, size_t i, char *why,
                       size_t len)
{
    const sb_param_def *p = &t->params[i];
    if (p->name == NULL)
        return refuse(why, len, "shuffle '%s': parameter %zu has no name",
                      t->name, i + 1);
    if (!is_kebab(p->name))
        return refuse(why, len, "shuffle '%s': parameter name '%s' is not "
                      "kebab-case (lowercase letters, digits, '-')", t->name,
                      p->name);
    for (size_t k = 0; k < i; k++)
        if (t->params[k].name && strcmp(t->params[k].name, p->name) == 0)
            return refuse(why, len, "shuffle '%s': two parameters called "
                          "'%s'", t->name, p->name);
    if (p->min > p->max)
        return refuse(why, len, "shuffle '%s': parameter '%s' has min %ld > "
                      "max %ld", t->name, p->name, p->min, p->max);
    if (p->def < p->min || p->def > p->max)
        return refuse(why, len, "shuffle '%s': parameter '%s' has default %ld "
                      "outside [%ld, %ld]", t->name, p->name, p->def, p->min,
                      p->max);
    if (p->choices) {
        /* The value of a choices parameter is an index into its list, and
           the program prints choices[value]: every index in [min, max]
           must name a choice, and every choice must be reachable. */
        long m = 0;
        while (m < (long)MAX_CHOICES && p->choices[m])
            m++;
        if (m == 0 || m == (long)MAX_CHOICES)
            return refuse(why, len, "shuffle '%s': parameter '%s' has an "
                          "empty or unended list of choices", t->name,
                          p->name);
        if (p->min != 0 || p->max != m - 1)
            return refuse(why, len, "shuffle '%s': parameter '%s' lists %ld "
                          "choices, so its min and max must be 0 and %ld, "
                          "not %ld and %ld", t->name, p->name, m, m - 1,
                          p->min, p->max);
    }
    return SB_OK;
}

int sb_plugin_check_type(const sb_shuffle_type *t, char *why, size_t len)
{
    if (t == NULL)
        return refuse(why, len, "a NULL shuffle type");
    if (t->name == NULL)
        return refuse(why, len, "a shuffle has no name");
    if (!is_kebab(t->name))
        return refuse(why, len, "shuffle name '%s' is not kebab-case "
                      "(lowercase letters, digits, '-')", t->name);
    if (t->summary == NULL || !t->summary[0])
        return refuse(why, len, "shuffle '%s' has no summary", t->name);
    if (t->source == NULL || !t->source[0])
        return refuse(why, len, "shuffle '%s' has no source", t->name);
    if (t->bias == NULL || !t->bias[0])
        return refuse(why, len, "shuffle '%s' has no bias sentence",
                      t->name);
    if (t->run == NULL)
        return refuse(why, len, "shuffle '%s' has no run function", t->name);
    if (t->kind != SB_KIND_PERMUTATION && t->kind != SB_KIND_DRAW
        && t->kind != SB_KIND_DEAL)
        return refuse(why, len, "shuffle '%s' has kind %d, not permutation "
                      "(%d), draw (%d) or deal (%d)", t->name, (int)t->kind,
                      SB_KIND_PERMUTATION, SB_KIND_DRAW, SB_KIND_DEAL);
    if (t->n_min == 0)
        return refuse(why, len, "shuffle '%s' has n_min 0 (a deck has at "
                      "least one card)", t->name);
    if (t->n_min > t->n_max)
        return refuse(why, len, "shuffle '%s' has n_min %zu > n_max %zu",
                      t->name, t->n_min, t->n_max);
    if (t->n_max > SB_DECK_MAX)
        return refuse(why, len, "shuffle '%s' has n_max %zu > SB_DECK_MAX "
                      "(%u)", t->name, t->n_max, SB_DECK_MAX);
    if (t->n_params > SB_PARAMS_MAX)
        return refuse(why, len, "shuffle '%s' has %zu parameters, more than "
                      "SB_PARAMS_MAX (%d)", t->name, t->n_params,
                      SB_PARAMS_MAX);
    if (t->n_params > 0 && t->params == NULL)
        return refuse(why, len, "shuffle '%s' has n_params %zu but no "
                      "params", t->name, t->n_params);
    for (size_t i = 0; i < t->n_params; i++) {
        int rc = check_param(t, i, why, len);
        if (rc != SB_OK)
            return rc;
    }
    if (t->kind == SB_KIND_DEAL && t->hands == NULL)
        return refuse(why, len, "shuffle '%s' is a deal without hands()",
                      t->name);
    /* free, reset and tally receive the state init made; without init they
       would be handed NULL. */
    if (t->init == NULL && (t->free || t->reset || t->tally))
        return refuse(why, len, "shuffle '%s' has %s without init", t->name,
                      t->free ? "free" : t->reset ? "reset" : "tally");
    if ((t->tally == NULL) != (t->tally_name == NULL))
        return refuse(why, len, "shuffle '%s' has %s", t->name,
                      t->tally ? "tally without tally_name"
                               : "tally_name without tally");
    if (t->exact_hint) {
        sb_shuffle_args a = { .n = t->n_min };
        sb_shuffle_defaults(t, &a);
        if (sb_shuffle_set_param(t, &a, t->exact_hint) != SB_OK)
            return refuse(why, len, "shuffle '%s' has exact_hint '%s', which "
                          "is not a valid 'name=value' of its parameters",
                          t->name, t->exact_hint);
    }
    if (len)
        why[0] = '\0';
    return SB_OK;
}

/* "a, b, c" of the plug-in's names into buf. */
static void list_names(const sb_plugin_handle *h, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < h->count && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                         h->types[i]->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* SB_PLUGIN_MARKOV's list, when there is one: each entry complete and
   for one of the plug-in's types, no type twice. */
static int check_markov(sb_plugin_handle *h, char *why, size_t len)
{
    h->markov = dlsym(h->dl, SB_PLUGIN_MARKOV_SYMBOL);
    h->n_markov = 0;
    if (!h->markov)
        return SB_OK;
    for (; h->n_markov < MAX_SHUFFLES && h->markov[h->n_markov];
         h->n_markov++) {
        const sb_markov *m = h->markov[h->n_markov];
        size_t i = 0;
        while (i < h->count && h->types[i] != m->type)
            i++;
        if (i == h->count || !m->steps || !m->step) {
            snprintf(why, len, "entry %zu of its SB_PLUGIN_MARKOV list %s",
                     h->n_markov + 1, i == h->count
                     ? "is for no shuffle SB_PLUGIN lists"
                     : "lacks its steps or step function");
            return SB_EINVAL;
        }
        for (size_t k = 0; k < h->n_markov; k++)
            if (h->markov[k]->type == m->type) {
                snprintf(why, len, "its SB_PLUGIN_MARKOV list names '%s' "
                         "twice", m->type->name);
                return SB_EINVAL;
            }
    }
    if (h->n_markov == MAX_SHUFFLES) {
        snprintf(why, len, "its SB_PLUGIN_MARKOV list has %u entries or "
                 "more (is it NULL-ended?)", MAX_SHUFFLES);
        return SB_EINVAL;
    }
    return SB_OK;
}

const sb_markov *sb_plugin_markov(const sb_plugin_handle *h,
                                  const sb_shuffle_type *t)
{
    for (size_t i = 0; h && i < h->n_markov; i++)
        if (h->markov[i]->type == t)
            return h->markov[i];
    return NULL;
}

/* Everything after dlopen: the symbol, the version, the types, the names.
   SB_OK, or a status and the reason (without the plug-in's path). */
static int check_plugin(sb_plugin_handle *h, char *why, size_t len)
{
    dlerror();
    const sb_plugin *p = dlsym(h->dl, SB_PLUGIN_SYMBOL);
    if (p == NULL) {
        snprintf(why, len, "no '%s' symbol: list the shuffles with "
                 "SB_PLUGIN(&my_shuffle, ...) from <shufflebias/plugin.h>",
                 SB_PLUGIN_SYMBOL);
        return SB_EINVAL;
    }
    if (p->abi != SB_PLUGIN_ABI) {
        snprintf(why, len, "ABI version mismatch: built for plug-in ABI "
                 "version %lu, this program speaks version %lu: rebuild it "
                 "against the installed <shufflebias/plugin.h>",
                 (unsigned long)p->abi, (unsigned long)SB_PLUGIN_ABI);
        return SB_ENOTSUP;
    }
    if (p->type_size != sizeof(sb_shuffle_type)) {
        snprintf(why, len, "type size mismatch: built with a %lu-byte "
                 "sb_shuffle_type, this program's is %zu bytes: rebuild it "
                 "against the installed <shufflebias/plugin.h>",
                 (unsigned long)p->type_size, sizeof(sb_shuffle_type));
        return SB_ENOTSUP;
    }
    h->types = p->shuffles;
    h->count = 0;
    while (h->types && h->count < MAX_SHUFFLES && h->types[h->count])
        h->count++;
    if (h->count == 0) {
        snprintf(why, len, "lists no shuffles");
        return SB_EINVAL;
    }
    if (h->count == MAX_SHUFFLES) {
        snprintf(why, len, "lists %u shuffles or more (is the list "
                 "NULL-ended?)", MAX_SHUFFLES);
        return SB_EINVAL;
    }
    for (size_t i = 0; i < h->count; i++) {
        const sb_shuffle_type *t = h->types[i];
        if (t->name == NULL) {
            snprintf(why, len, "shuffle %zu of %zu in its list has no name",
                     i + 1, h->count);
            return SB_EINVAL;
        }
        int rc = sb_plugin_check_type(t, why, len);
        if (rc != SB_OK)
            return rc;
        if (sb_shuffle_find(t->name)) {
            snprintf(why, len, "shuffle '%s' has the name of a built-in "
                     "algorithm: rename it, or reports would be ambiguous",
                     t->name);
            return SB_EINVAL;
        }
        for (size_t k = 0; k < i; k++)
            if (strcmp(h->types[k]->name, t->name) == 0) {
                snprintf(why, len, "lists two shuffles called '%s'", t->name);
                return SB_EINVAL;
            }
    }
    return check_markov(h, why, len);
}

/* The shuffle 'name', or the only one. */
static int choose(const sb_plugin_handle *h, const char *name,
                  const sb_shuffle_type **type, char *why, size_t len)
{
    char names[512];
    if (name == NULL) {
        if (h->count == 1) {
            *type = h->types[0];
            return SB_OK;
        }
        list_names(h, names, sizeof names);
        snprintf(why, len, "holds %zu shuffles; choose one of: %s", h->count,
                 names);
        return SB_EINVAL;
    }
    for (size_t i = 0; i < h->count; i++)
        if (strcmp(h->types[i]->name, name) == 0) {
            *type = h->types[i];
            return SB_OK;
        }
    list_names(h, names, sizeof names);
    snprintf(why, len, "has no shuffle '%s'; it has: %s", name, names);
    return SB_ENOTFOUND;
}

int sb_plugin_open(sb_plugin_handle **h, const char *path, const char *name,
                   const sb_shuffle_type **type, char *err, size_t len)
{
    *h = NULL;
    *type = NULL;
    if (path == NULL || !path[0]) {
        snprintf(err, len, "no plug-in path given");
        return SB_EINVAL;
    }
    /* dlopen searches the library path for a name without a '/'; a user
       who names a file means the file. */
    const size_t path_len = strlen(path);
    char *file = malloc(path_len + 3);
    sb_plugin_handle *p = calloc(1, sizeof *p);
    if (file == NULL || p == NULL) {
        free(file);
        free(p);
        snprintf(err, len, "out of memory loading plug-in '%s'", path);
        return SB_ENOMEM;
    }
    snprintf(file, path_len + 3, "%s%s", strchr(path, '/') ? "" : "./", path);
    dlerror();
    p->dl = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    free(file);
    if (p->dl == NULL) {
        const char *why = dlerror();
        snprintf(err, len, "cannot load plug-in '%s': %s", path,
                 why ? why : "unknown loader error");
        free(p);
        return SB_EIO;
    }
    char why[768];
    int rc = check_plugin(p, why, sizeof why);
    if (rc == SB_OK)
        rc = choose(p, name, type, why, sizeof why);
    if (rc != SB_OK) {
        snprintf(err, len, "plug-in '%s': %s", path, why);
        sb_plugin_close(p);
        *type = NULL;
        return rc;
    }
    *h = p;
    return SB_OK;
}

size_t sb_plugin_count(const sb_plugin_handle *h)
{
    return h ? h->count : 0;
}

const sb_shuffle_type *sb_plugin_type(const sb_plugin_handle *h, size_t i)
{
    return h && i < h->count ? h->types[i] : NULL;
}

void sb_plugin_close(sb_plugin_handle *h)
{
    if (h == NULL)
        return;
    dlclose(h->dl);
    free(h);
}

/* ---- does it draw from the source alone? ------------------------------ */

/* What the refusals of sb_plugin_probe say to do instead. */
#define PROBE_FIX "draw through sb_below, sb_bits or sb_rand_mod (for " \
    "rand() %% k), or, for a program with its own generator, use --exec"

/* The first SB_PLUGIN_PROBE_SAMPLES samples of 't' from 'seed', into
   'out' (room for them and the guard words), from a fresh state; *drew
   set when the source's state moved.  SB_OK or a status with 'why'. */
static int probe_once(const sb_shuffle_type *t, const sb_shuffle_args *a,
                      size_t slen, uint64_t seed, sb_card *out, int *drew,
                      char *why, size_t len)
{
    void *state = NULL;
    if (t->init && t->init(&state, a) != SB_OK) {
        snprintf(why, len, "could not make its state (init failed)");
        return SB_ENOMEM;
    }
    if (t->reset)
        t->reset(state, a);
    sb_src src;
    sb_src_fast(&src, seed, 0);
    uint64_t before[4];
    memcpy(before, src.s, sizeof before);
    int rc = SB_OK;
    for (size_t k = 0; k < SB_PLUGIN_PROBE_SAMPLES && rc == SB_OK; k++) {
        sb_card *s = out + k * slen;
        sb_sample_guard_set(s + slen);
        rc = t->run(state, a, &src, s);
        if (rc != SB_OK)
            snprintf(why, len, "returned status %d (%s) from run() at sample "
                     "%zu", rc, sb_status_str(rc), k + 1);
        else if (src.error != SB_OK) {
            snprintf(why, len, SB_PLUGIN_BAD_DRAW " at sample %zu", k + 1);
            rc = SB_EINVAL;
        } else if (!sb_sample_guard_intact(s + slen)) {
            snprintf(why, len, "wrote past the end of its sample buffer (%zu "
                     "values) at sample %zu", slen, k + 1);
            rc = SB_EINVAL;
        }
    }
    if (t->free)
        t->free(state);
    *drew = memcmp(before, src.s, sizeof before) != 0;
    return rc;
}

int sb_plugin_probe(const sb_shuffle_type *t, const sb_shuffle_args *a,
                    uint64_t seed, char *why, size_t len)
{
    sb_shape shape;
    sb_shuffle_shape(t, a, &shape);
    const size_t slen = shape.len, m = SB_PLUGIN_PROBE_SAMPLES;
    const size_t room = (m * slen + SB_SAMPLE_GUARD) * sizeof(sb_card);
    sb_card *one = malloc(room), *two = malloc(room);
    int drew = 0, drew2 = 0;
    int rc = one && two ? SB_OK : SB_ENOMEM;
    if (rc == SB_OK)
        rc = probe_once(t, a, slen, seed, one, &drew, why, len);
    if (rc == SB_OK)
        rc = probe_once(t, a, slen, seed, two, &drew2, why, len);
    if (rc == SB_ENOMEM && (!one || !two))
        snprintf(why, len, "could not be tried: out of memory");
    /* Only one sample is possible (one card, one hand): nothing to draw. */
    const int one_outcome = shape.n == 1
                         || (shape.kind == SB_KIND_DEAL && shape.hands == 1);
    if (rc == SB_OK && !drew && !one_outcome) {
        snprintf(why, len, "made no draw from the source in its first %zu "
                 "samples, so its results can neither be reproduced from "
                 "a seed nor enumerated: " PROBE_FIX, m);
        rc = SB_EINVAL;
    }
    if (rc == SB_OK && memcmp(one, two, m * slen * sizeof *one) != 0) {
        size_t k = 0;
        while (memcmp(one + k * slen, two + k * slen,
                      slen * sizeof *one) == 0)
            k++;
        snprintf(why, len, "made a different sample %zu when its first %zu "
                 "were made again from the same seed: it takes randomness "
                 "from elsewhere (rand(), the clock, ...), so its results "
                 "can neither be reproduced nor enumerated: " PROBE_FIX,
                 k + 1, m);
        rc = SB_EINVAL;
    }
    free(one);
    free(two);
    if (rc == SB_OK && len)
        why[0] = '\0';
    return rc;
}
