/* omk asin for binary64, binary32, binary16 and bfloat16.
 *
 * Method (one algorithm, evaluated in binary64):
 *   |x| < 2^-26:  asin x rounds to x (exact for subnormals).
 *   |x| < 1/2:    asin x = x + x^3 A(x^2).
 *   1/2 <= |x| < 1: asin |x| = pi/2 - 2 asin s, s = sqrt((1 - |x|)/2) <= 1/2, where
 *                 (1 - |x|)/2 is exact, the square root is corrected to double-double with
 *                 one fma, and pi/2 - 2s is summed error-free before the small terms.
 *   |x| = 1: +-pi/2 correctly rounded; |x| > 1 or NaN: NaN.
 * A(z) is a binary64 minimax polynomial on [0, 1/4] (asin_poly.h, from asin.sollya).
 * Narrower types widen exactly, run the binary64 path and round once.
 *
 * Measured error: binary16/bfloat16 correctly rounded on all 65,536 inputs; binary32 and
 * binary64 figures in README.md. Reproduce: ulpbench accuracy --op asin --dtype all
 */
#include <stdint.h>

#include "asin_poly.h"
#include "omk_internal.h"
#include "omk_table16.h"
#include "trig_reduce.h"

/* Error-free sum: a + b = s + err exactly. */
static inline double two_sum(double a, double b, double *err) {
    const double s = a + b;
    const double b_virtual = s - a;
    *err = (a - (s - b_virtual)) + (b - b_virtual);
    return s;
}

/* v^3 A(z) for v^2 = z as lead + lead_err + rest, where the leading term v^3 A0 (up to v/24) is a
 * double-double; v = v_hi + v_lo and z is exact. */
static inline double cube_series(double v_hi, double v_lo, double z, double z_err, double *lead_err, double *rest) {
    const double vz = v_hi * z;
    const double vz_err = fma(v_hi, z, -vz) + (v_hi * z_err + v_lo * z);
    const double lead = vz * K_ASIN_POLY[0];
    *lead_err = fma(vz, K_ASIN_POLY[0], -lead) + vz_err * K_ASIN_POLY[0];
    *rest = (vz * z) * omk_horner(z, K_ASIN_POLY + 1, K_ASIN_POLY_COUNT - 1);
    return lead;
}

/* Branch-free asin for |x| < 1, written so that compilers vectorize a loop over it; both
 * branches are evaluated and selected with integer masks. Other inputs are redone by
 * asin_f64_elem. */
static inline double asin_f64_fast(double x) {
    const double ax = fabs(x);
    double lead_err, rest, err;

    /* |x| < 1/2: x + x^3 A(x^2) */
    const double z = x * x;
    const double z_err = fma(x, x, -z);
    const double lead = cube_series(x, 0.0, z, z_err, &lead_err, &rest);
    const double sum = two_sum(x, lead, &err);
    const double small = sum + (err + (lead_err + rest));

    /* 1/2 <= |x| < 1: pi/2 - 2 asin(s), s = sqrt((1 - |x|)/2) */
    const double w = 0.5 * (1.0 - ax); /* exact (Sterbenz) */
    const double s = sqrt(w);
    const double s_corr = fma(-s, s, w) / (s + s); /* sqrt(w) = s + s_corr + O(2^-106) */
    const double s_lead = cube_series(s, s_corr, w, 0.0, &lead_err, &rest);
    const double head = K_PIO2_HI - 2.0 * s;
    const double head_err = (K_PIO2_HI - head) - 2.0 * s; /* exact: K_PIO2_HI >= 2s */
    const double head2 = two_sum(head, -2.0 * s_lead, &err);
    const double large = head2 + ((head_err + err) + (K_PIO2_LO - 2.0 * (s_corr + lead_err + rest)));

    const uint64_t take_small = 0 - (uint64_t)(ax < 0.5);
    const uint64_t y = (omk_bits64(small) & take_small) | (omk_bits64(large) & ~take_small);
    return copysign(omk_double_from_bits(y), x);
}

static inline int asin_needs_slow_path(double x) { return !(fabs(x) < 1.0); }

static double asin_f64_elem(double x) {
    if (!asin_needs_slow_path(x)) return asin_f64_fast(x);
    if (fabs(x) == 1.0) return copysign(K_PIO2_HI, x);
    if (isnan(x)) return x + x; /* quiet it */
    return (x - x) / (x - x);   /* |x| > 1: invalid */
}

/* Array loops: the fast path over a block (vectorized), then the rare slow lanes again. The block
 * is copied first so that y == x still has the inputs for that second pass. */
#define ASIN_ARRAY_LOOP(T, x, y, n)                                                                \
    for (size_t start = 0; start < (n); start += OMK_BLOCK) {                                      \
        const size_t m = (n) - start < OMK_BLOCK ? (n) - start : OMK_BLOCK;                        \
        T in[OMK_BLOCK];                                                                           \
        memcpy(in, (x) + start, m * sizeof(T));                                                    \
        OMK_SIMD_LOOP                                                                              \
        for (size_t i = 0; i < m; i++) (y)[start + i] = (T)asin_f64_fast((double)in[i]);           \
        int slow = 0;                                                                              \
        for (size_t i = 0; i < m; i++) slow |= asin_needs_slow_path((double)in[i]);                \
        if (slow)                                                                                  \
            for (size_t i = 0; i < m; i++)                                                         \
                if (asin_needs_slow_path((double)in[i])) (y)[start + i] = (T)asin_f64_elem((double)in[i]); \
    }

void OMK_ISA_NAME(omk_asin_f64)(const double *x, double *y, size_t n) { ASIN_ARRAY_LOOP(double, x, y, n) }

void OMK_ISA_NAME(omk_asin_f32)(const float *x, float *y, size_t n) { ASIN_ARRAY_LOOP(float, x, y, n) }

/* Direct evaluation: builds the lookup table (table16.c). */
void OMK_ISA_NAME(omk_asin_f16_direct)(const uint16_t *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = omk_double_to_f16(asin_f64_elem(omk_f16_to_double(x[i])));
}

void OMK_ISA_NAME(omk_asin_f16)(const uint16_t *x, uint16_t *y, size_t n) {
    omk_lookup16(omk_table_asin_f16(), x, y, n);
}

/* Direct evaluation: builds the lookup table (table16.c). */
void OMK_ISA_NAME(omk_asin_bf16_direct)(const uint16_t *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = omk_double_to_bf16(asin_f64_elem(omk_bf16_to_double(x[i])));
}

void OMK_ISA_NAME(omk_asin_bf16)(const uint16_t *x, uint16_t *y, size_t n) {
    omk_lookup16(omk_table_asin_bf16(), x, y, n);
}
