/*
 * sb_test.h - what every cmocka test file shares.
 *
 * cmocka 1.1.5 has no usable comparison of doubles, so relative closeness
 * is checked here, with both values printed when it fails.
 */
#ifndef SB_TEST_H
#define SB_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

/* |a - b| <= rel * max(|a|, |b|), or both exactly zero. */
#define assert_close(a, b, rel)                                          \
    do {                                                                 \
        double sb_a_ = (a), sb_b_ = (b);                                 \
        double sb_m_ = fmax(fabs(sb_a_), fabs(sb_b_));                   \
        if (!(fabs(sb_a_ - sb_b_) <= (rel) * sb_m_)) {                   \
            print_error("%s = %.17g is not within %g of %s = %.17g\n",  \
                        #a, sb_a_, (double)(rel), #b, sb_b_);            \
            fail();                                                      \
        }                                                                \
    } while (0)

#endif /* SB_TEST_H */
