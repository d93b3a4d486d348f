/*
 * registry.c - the statistics as plain data, and the rules for choosing
 * them.  A new statistic is one file under stats/ plus one row here.
 */
#include "stats/registry.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const sb_stat_type *const sb_stat_types[] = {
    &sb_stat_position,
    &sb_stat_permutation,
    &sb_stat_fixed_points,
    &sb_stat_cycles,
    &sb_stat_rising,
    &sb_stat_descents,
    &sb_stat_inversions,
    &sb_stat_successions,
    &sb_stat_new_age_solitaire,
    &sb_stat_poker7,
    &sb_stat_fy_code,
    &sb_stat_fy_code_forward,
    &sb_stat_serial,
    &sb_stat_card_hand,
    &sb_stat_hand_patterns,
    &sb_stat_suit_lengths,
    &sb_stat_hcp,
    &sb_stat_same_hand_pairs,
    &sb_stat_card_slot,
    &sb_stat_collisions,
    NULL
};

const sb_stat_type *sb_stat_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; sb_stat_types[i] != NULL; i++)
        if (strcmp(sb_stat_types[i]->name, name) == 0)
            return sb_stat_types[i];
    return NULL;
}

static const char *kind_plural(unsigned kind)
{
    switch (kind) {
    case SB_KIND_PERMUTATION: return "permutations";
    case SB_KIND_DRAW: return "draws";
    case SB_KIND_DEAL: return "deals";
    }
    return "unknown samples";
}

static int refuse(char *why, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int refuse(char *why, size_t len, const char *fmt, ...)
{
    if (why != NULL && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return SB_EINVAL;
}

int sb_stat_check(const sb_stat_type *t, const sb_shape *s, char *why,
                  size_t len)
{
    if (t == NULL || s == NULL)
        return refuse(why, len, "no statistic or no shape");
    if (!(t->kinds & (unsigned)s->kind)) {
        /* "permutations", or "permutations and deals", ... */
        char kinds[64] = "";
        const unsigned all[] = { SB_KIND_PERMUTATION, SB_KIND_DRAW,
                                 SB_KIND_DEAL };
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
            if (!(t->kinds & all[i]))
                continue;
            size_t used = strlen(kinds);
            snprintf(kinds + used, sizeof kinds - used, "%s%s",
                     used ? " and " : "", kind_plural(all[i]));
        }
        return refuse(why, len, "'%s' applies to %s, not %s", t->name,
                      kinds, kind_plural((unsigned)s->kind));
    }
    if (s->n < t->n_min)
        return refuse(why, len, "'%s' needs n >= %zu (n is %zu)", t->name,
                      t->n_min, s->n);
    if (s->n > t->n_max)
        return refuse(why, len, "'%s' needs n <= %zu (n is %zu)", t->name,
                      t->n_max, s->n);
    if (s->kind != SB_KIND_DRAW && s->len != s->n)
        return refuse(why, len,
                      "'%s' needs whole samples of n = %zu values (got %zu)",
                      t->name, s->n, s->len);
    if (why != NULL && len > 0)
        why[0] = '\0';
    return SB_OK;
}

size_t sb_stat_defaults(const sb_shape *s, const sb_stat_type **out,
                        size_t max)
{
    size_t k = 0;
    for (size_t i = 0; sb_stat_types[i] != NULL && k < max; i++)
        if ((sb_stat_types[i]->default_kinds & (unsigned)s->kind)
            && sb_stat_check(sb_stat_types[i], s, NULL, 0) == SB_OK)
            out[k++] = sb_stat_types[i];
    return k;
}
