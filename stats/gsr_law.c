/*
 * gsr_law.c - the exact distance from uniform of k GSR riffles.
 *
 * The law (Bayer & Diaconis, "Trailing the dovetail shuffle to its lair",
 * Ann. Appl. Probab. 2(2), 1992): after k riffles of n cards, an order
 * with r rising sequences has probability B_r / 2^(kn), where
 * B_r = C(2^k + n - r, n), and A(n, r) orders have r rising sequences.
 *
 * The Eulerian numbers are built row by row with the recurrence on
 * descents, E(m, d) = (d + 1) E(m-1, d) + (m - d) E(m-1, d-1), E(1, 0) = 1
 * (Graham, Knuth & Patashnik, "Concrete Mathematics", 2nd ed., 6.2), and
 * A(n, r) = E(n, r - 1).  A row is symmetric, E(m, d) = E(m, m-1-d), so
 * only its first half, d <= (m-1)/2, is kept and computed: that halves
 * both the time and the memory.  When m is odd the half grows by one
 * value, E(m, (m-1)/2), whose two terms both use E(m-1, (m-3)/2) (the
 * other one is its mirror image), so it is (m + 1) E(m-1, (m-3)/2).
 *
 * Everything is an integer over the common denominator 2^(kn) n!.  Let
 * N = n! and T = floor(2^(kn) / N).  An order with r rising sequences is
 * above uniform when N B_r > 2^(kn), that is when B_r > T (B_r is an
 * integer).  B_r falls as r grows, so those orders are the r = 1..r*, and
 *   tv = (N S1 - 2^(kn) S0) / (2^(kn) N),
 *   S0 = sum_{r <= r*} A(n, r),  S1 = sum_{r <= r*} A(n, r) B_r.
 * B_1 = C(2^k + n - 1, n) is computed once and the next ones by
 * C(m - 1, n) = C(m, n) (m - n) / m with m = 2^k + n - r, an exact
 * division; B_r is 0 from r = 2^k + 1 on.  The separation is
 * 1 - N B_n / 2^(kn), B_n = C(2^k, n).  No floating point is used.
 */
#include "stats/gsr_law.h"

#include <stdlib.h>

#include "shufflebias/status.h"

struct sb_gsr_law {
    size_t n;
    size_t half;      /* values kept: E(n, d) for d < half */
    mpz_t *e;         /* E(n, d), d = 0..half-1 */
    mpz_t fact;       /* n! */
};

static int stopped(const volatile sig_atomic_t *stop)
{
    return stop && *stop;
}

/* A(n, r) = E(n, r - 1), read through the symmetry. */
static mpz_srcptr eulerian(const sb_gsr_law *law, size_t r)
{
    size_t d = r - 1, mirror = law->n - r;
    return law->e[d < mirror ? d : mirror];
}

void sb_gsr_law_free(sb_gsr_law *law)
{
    if (!law)
        return;
    if (law->e) {
        for (size_t d = 0; d < law->half; d++)
            mpz_clear(law->e[d]);
        free(law->e);
    }
    mpz_clear(law->fact);
    free(law);
}

int sb_gsr_law_new(sb_gsr_law **out, size_t n,
                   const volatile sig_atomic_t *stop)
{
    *out = NULL;
    if (n == 0 || n > SB_GSR_LAW_N_MAX)
        return SB_EINVAL;
    sb_gsr_law *law = calloc(1, sizeof *law);
    if (!law)
        return SB_ENOMEM;
    mpz_init(law->fact);
    law->n = n;
    law->e = malloc(((n + 1) / 2) * sizeof *law->e);
    if (!law->e) {
        sb_gsr_law_free(law);
        return SB_ENOMEM;
    }
    law->half = (n + 1) / 2;
    for (size_t d = 0; d < law->half; d++)
        mpz_init(law->e[d]);
    mpz_t *e = law->e;
    mpz_set_ui(e[0], 1);                /* E(m, 0) = 1 for every m */
    for (size_t m = 2; m <= n; m++) {
        if (stopped(stop)) {
            sb_gsr_law_free(law);
            return SB_EINTR;
        }
        size_t top = (m - 1) / 2;       /* the last d kept in row m */
        size_t d = top;
        if (m % 2 == 1) {
            mpz_mul_ui(e[top], e[top - 1], m + 1);
            d--;
        }
        /* Top down, so that e[d - 1] still holds row m - 1. */
        for (; d >= 1; d--) {
            mpz_mul_ui(e[d], e[d], d + 1);
            mpz_addmul_ui(e[d], e[d - 1], m - d);
        }
    }
    mpz_fac_ui(law->fact, n);
    *out = law;
    return SB_OK;
}

int sb_gsr_law_distances(const sb_gsr_law *law, unsigned k, mpq_t tv,
                         mpq_t sep, const volatile sig_atomic_t *stop)
{
    if (k > SB_GSR_LAW_K_MAX)
        return SB_ERANGE;
    const size_t n = law->n;
    const mp_bitcnt_t kn = (mp_bitcnt_t)k * n;
    int rc = SB_OK;
    mpz_t pow, t, b, num, den, s0, s1;
    mpz_inits(pow, t, b, num, den, s0, s1, NULL);

    mpz_setbit(pow, kn);                        /* 2^(kn) */
    mpz_fdiv_q(t, pow, law->fact);              /* T */
    mpz_set_ui(num, 0);
    mpz_setbit(num, k);                         /* 2^k */
    mpz_add_ui(den, num, n - 1);                /* 2^k + n - 1 */
    mpz_bin_ui(b, den, n);                      /* B_1 */
    mpz_sub_ui(num, num, 1);                    /* 2^k - 1 */
    for (size_t r = 1; r <= n && mpz_cmp(b, t) > 0; r++) {
        if (stopped(stop)) {
            rc = SB_EINTR;
            goto done;
        }
        mpz_srcptr a = eulerian(law, r);
        mpz_add(s0, s0, a);
        mpz_addmul(s1, a, b);
        /* B_{r+1} = B_r (2^k - r) / (2^k + n - r); num and den hold
           those two factors.  B stays at 0 once 2^k - r reaches 0, which
           ends the loop before num could turn negative. */
        mpz_mul(b, b, num);
        mpz_divexact(b, b, den);
        mpz_sub_ui(num, num, 1);
        mpz_sub_ui(den, den, 1);
    }

    /* tv = (N S1 - 2^(kn) S0) / (2^(kn) N) */
    mpz_mul(mpq_numref(tv), s1, law->fact);
    mpz_submul(mpq_numref(tv), s0, pow);
    mpz_mul(mpq_denref(tv), pow, law->fact);
    mpq_canonicalize(tv);

    /* sep = (2^(kn) - N C(2^k, n)) / 2^(kn) */
    mpz_set_ui(num, 0);
    mpz_setbit(num, k);
    mpz_bin_ui(b, num, n);
    mpz_mul(b, b, law->fact);
    mpz_sub(mpq_numref(sep), pow, b);
    mpz_set(mpq_denref(sep), pow);
    mpq_canonicalize(sep);
done:
    mpz_clears(pow, t, b, num, den, s0, s1, NULL);
    return rc;
}
