/*
 * fair_shuffle.h - the fair shuffle the broken test plug-ins start from,
 * so that each differs from a correct plug-in by its one fault alone.
 * Header-only: every plug-in is a shared object of its own.
 */
#ifndef SB_TEST_FAIR_SHUFFLE_H
#define SB_TEST_FAIR_SHUFFLE_H

#include <shufflebias/plugin.h>

/* Fisher-Yates through the program's draws over out[i] = i, or over
   out[i] = i % hands when 'hands' is not 0 (a fair deal: card c to hand
   out[c]). */
static inline void sb_test_fair_shuffle(const sb_shuffle_args *a,
                                        sb_src *src, sb_card *out,
                                        unsigned hands)
{
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)(hands ? i % hands : i);
    for (size_t i = a->n - 1; i > 0; i--) {
        const size_t j = (size_t)sb_below(src, i + 1);
        const sb_card t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

#endif /* SB_TEST_FAIR_SHUFFLE_H */
