/*
 * shuffle_type.c - what any shuffle type is asked, built-in or plug-in:
 * its sample's shape, whether it runs at given arguments, its parameters
 * read and written.  Beneath algorithms/ so that every floor above can ask.
 */
#include "base/shuffle_type.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"

size_t sb_shuffle_sample_len(const sb_shuffle_type *t,
                             const sb_shuffle_args *a)
{
    return t->sample_len ? t->sample_len(a) : a->n;
}

void sb_shuffle_shape(const sb_shuffle_type *t, const sb_shuffle_args *a,
                      sb_shape *out)
{
    *out = (sb_shape){
        .kind = t->kind,
        .n = a->n,
        .len = sb_shuffle_sample_len(t, a),
        .hands = t->kind == SB_KIND_DEAL && t->hands ? t->hands(a) : 0,
    };
}

int sb_shuffle_check(const sb_shuffle_type *t, const sb_shuffle_args *a,
                     char *why, size_t len)
{
    if (a->n < t->n_min || a->n > t->n_max) {
        snprintf(why, len, "'%s' takes %zu to %zu cards, not %zu", t->name,
                 t->n_min, t->n_max, a->n);
        return SB_EINVAL;
    }
    char reason[192] = "";
    if (t->check && t->check(a, reason, sizeof reason) != SB_OK) {
        snprintf(why, len, "'%s' %s", t->name, reason);
        return SB_EINVAL;
    }
    if (len)
        why[0] = '\0';
    return SB_OK;
}

const char *sb_shuffle_exact_refusal(const sb_shuffle_type *t,
                                     const sb_shuffle_args *a)
{
    if (t->exact_refusal)
        return t->exact_refusal;
    return t->exact_refusal_for ? t->exact_refusal_for(a) : NULL;
}

int sb_shuffle_fitted(const sb_shuffle_type *t, sb_shuffle_args *a,
                      char *why, size_t len)
{
    sb_shuffle_defaults(t, a);
    if (t->fit && sb_shuffle_check(t, a, why, len) != SB_OK)
        t->fit(a);
    return sb_shuffle_check(t, a, why, len);
}

void sb_shuffle_defaults(const sb_shuffle_type *t, sb_shuffle_args *a)
{
    for (size_t i = 0; i < t->n_params; i++)
        a->param[i] = t->params[i].def;
}

int sb_shuffle_set_param(const sb_shuffle_type *t, sb_shuffle_args *a,
                         const char *assignment)
{
    const char *eq = strchr(assignment, '=');
    size_t name_len = eq ? (size_t)(eq - assignment) : strlen(assignment);
    for (size_t i = 0; i < t->n_params; i++) {
        const sb_param_def *p = &t->params[i];
        if (strlen(p->name) != name_len
            || strncmp(p->name, assignment, name_len) != 0)
            continue;
        if (!eq || !eq[1])
            return SB_EINVAL;
        const char *value = eq + 1;
        if (p->choices) {
            for (long c = 0; p->choices[c]; c++)
                if (strcmp(p->choices[c], value) == 0) {
                    a->param[i] = c;
                    return SB_OK;
                }
            return SB_EINVAL;
        }
        char *end;
        errno = 0;
        long v = strtol(value, &end, 10);
        if (*end || end == value)
            return SB_EINVAL;
        if (errno == ERANGE || v < p->min || v > p->max)
            return SB_ERANGE;
        a->param[i] = v;
        return SB_OK;
    }
    return SB_ENOTFOUND;
}

void sb_shuffle_format_params(const sb_shuffle_type *t,
                              const sb_shuffle_args *a, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < t->n_params && used < len; i++) {
        const sb_param_def *p = &t->params[i];
        int w = p->choices
            ? snprintf(buf + used, len - used, "%s%s=%s", i ? "," : "",
                       p->name, p->choices[a->param[i]])
            : snprintf(buf + used, len - used, "%s%s=%ld", i ? "," : "",
                       p->name, a->param[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}
