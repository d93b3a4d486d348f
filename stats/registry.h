/*
 * registry.h - the statistics, by name, and which of them apply to what.
 *
 * Each statistic is a const sb_stat_type exported from its own file under
 * stats/; the registry is a compile-time, NULL-terminated array of pointers
 * to them, in battery order.
 */
#ifndef SB_STATS_REGISTRY_H
#define SB_STATS_REGISTRY_H

#include <stddef.h>
#include "shufflebias/stat.h"
#include "shufflebias/status.h"   /* sb_stat_check's SB_OK, SB_EINVAL */

/* The statistics, one per file. */
extern const sb_stat_type sb_stat_position;       /* stats/position.c */
extern const sb_stat_type sb_stat_permutation;    /* stats/permutation.c */
extern const sb_stat_type sb_stat_fixed_points;   /* stats/fixed_points.c */
extern const sb_stat_type sb_stat_cycles;         /* stats/cycles.c */
extern const sb_stat_type sb_stat_rising;         /* stats/rising.c */
extern const sb_stat_type sb_stat_descents;       /* stats/descents.c */
extern const sb_stat_type sb_stat_inversions;     /* stats/inversions.c */
extern const sb_stat_type sb_stat_successions;    /* stats/successions.c */
extern const sb_stat_type sb_stat_new_age_solitaire; /* stats/new_age_solitaire.c */
/* Whether Alice wins New Age Solitaire on 'deck' (a permutation of
   0..n-1, top card first; 0 below 4 cards), in O(n) with 'pos' (n cards
   of scratch): what the statistic counts, for a caller that weighs decks
   by an exact law. */
int sb_new_age_alice_wins(const sb_card *deck, size_t n, sb_card *pos);
extern const sb_stat_type sb_stat_poker7;         /* stats/poker7.c */
extern const sb_stat_type sb_stat_fy_code;        /* stats/fy_code.c */
extern const sb_stat_type sb_stat_fy_code_forward; /* stats/fy_code_forward.c */
extern const sb_stat_type sb_stat_serial;         /* stats/serial.c */
extern const sb_stat_type sb_stat_card_hand;      /* stats/card_hand.c */
extern const sb_stat_type sb_stat_hand_patterns;  /* stats/hand_patterns.c */
extern const sb_stat_type sb_stat_suit_lengths;   /* stats/suit_lengths.c */
extern const sb_stat_type sb_stat_hcp;            /* stats/hcp.c */
extern const sb_stat_type sb_stat_same_hand_pairs; /* stats/same_hand_pairs.c */
extern const sb_stat_type sb_stat_card_slot;      /* stats/card_slot.c */
extern const sb_stat_type sb_stat_collisions;     /* stats/collisions.c */

/* Every statistic, NULL-terminated. */
extern const sb_stat_type *const sb_stat_types[];

/* A bound on what sb_stat_defaults can return, whatever the shape. */
#define SB_STAT_DEFAULTS_MAX 16

/* The statistic called 'name', or NULL if there is none. */
const sb_stat_type *sb_stat_find(const char *name);

/* Whether 't' can be run on samples of shape 's', in the convention of
   sb_shuffle_check: SB_OK (and 'why' is ""), or SB_EINVAL with a one-line
   lowercase reason in 'why' (when 'why' is not NULL and 'len' > 0), e.g.
   "'permutation' needs n <= 10 (n is 52)" or
   "'position' applies to permutations, not deals".
   A statistic that applies may still finalize as not applicable (n = 1,
   too few samples): that is decided from the counts, not the shape. */
int sb_stat_check(const sb_stat_type *t, const sb_shape *s, char *why,
                  size_t len);

/* The default battery for shape 's': the statistics that apply to it and
   whose default_kinds include its kind, in registry order (for
   permutations: position, permutation when n <= 10, fixed-points, cycles,
   rising, descents, inversions when n <= 1024, successions,
   new-age-solitaire when n >= 4, poker7 when n = 52, fy-code and
   fy-code-forward when 2 <= n <= 4096, serial, collisions when n >= 15;
   for deals card-hand, hand-patterns and suit-lengths from 26 cards, hcp
   from 10, same-hand-pairs from 4, collisions when n >= 15;
   for draws serial, card-slot, collisions when n >= 15).
   Writes at most 'max' of them to 'out' and returns how many were
   written; max = SB_STAT_DEFAULTS_MAX always suffices. */
size_t sb_stat_defaults(const sb_shape *s, const sb_stat_type **out,
                        size_t max);

#endif /* SB_STATS_REGISTRY_H */
