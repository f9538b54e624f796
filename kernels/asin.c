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

static inline double asin_f64_elem(double x) {
    const double ax = fabs(x);
    const uint64_t abs_bits = omk_bits64(ax);
    if (abs_bits >= 0x3ff0000000000000ull) {
        if (abs_bits == 0x3ff0000000000000ull) return copysign(K_PIO2_HI, x);
        if (abs_bits > 0x7ff0000000000000ull) return x + x; /* NaN: quiet it */
        return (x - x) / (x - x);                          /* |x| > 1: invalid */
    }
    if (abs_bits < 0x3e50000000000000ull) return x; /* |x| < 2^-26 */
    if (abs_bits < 0x3fe0000000000000ull) {         /* |x| < 1/2 */
        const double z = x * x;
        return x + (x * z) * omk_horner(z, K_ASIN_POLY, K_ASIN_POLY_COUNT);
    }
    const double z = 0.5 * (1.0 - ax); /* exact (Sterbenz) */
    const double s = sqrt(z);
    const double s_corr = fma(-s, s, z) / (s + s); /* sqrt(z) = s + s_corr + O(2^-106) */
    const double asin_s_tail = (s * z) * omk_horner(z, K_ASIN_POLY, K_ASIN_POLY_COUNT);
    const double head = K_PIO2_HI - 2.0 * s;
    const double head_err = (K_PIO2_HI - head) - 2.0 * s; /* exact: K_PIO2_HI >= 2s */
    const double y = head + (head_err + (K_PIO2_LO - 2.0 * (s_corr + asin_s_tail)));
    return copysign(y, x);
}

void OMK_ISA_NAME(omk_asin_f64)(const double *x, double *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = asin_f64_elem(x[i]);
}

void OMK_ISA_NAME(omk_asin_f32)(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = (float)asin_f64_elem((double)x[i]);
}

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
