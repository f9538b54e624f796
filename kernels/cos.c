/* omk cos for binary64, binary32, binary16 and bfloat16.
 *
 * Method (one algorithm, evaluated in binary64 with a double-double reduced argument):
 *   1. |x| < 2^-27: cos x rounds to 1. inf/NaN: NaN.
 *   2. Reduction x = k*pi/2 + r, |r| <= pi/4, r = r_hi + r_lo:
 *      |x| < 2^20: Cody-Waite with pi/2 in four parts (33 + 33 + 53 + 53 bits, trig_reduce.h),
 *                  exact products and error-free sums, so r carries ~100 correct bits;
 *      |x| >= 2^20: Payne-Hanek, |x| * 2/pi mod 4 in 128-bit integer arithmetic from 256 bits
 *                  of 2/pi, which keeps >= 60 significant bits for the closest binary64 to a
 *                  multiple of pi/2 (|r| ~ 2^-61).
 *   3. cos r = 1 - r^2/2 + r^4 C(r^2), sin r = r + r^3 S(r^2) with the first terms summed
 *      error-free and the r_lo correction applied (cos_poly.h, from cos.sollya: relative
 *      approximation errors below 2^-64).
 * Narrower types widen exactly, run the binary64 path and round once (16-bit: directly from
 * binary64, never through binary32, which would round twice).
 *
 * Measured error: binary16/bfloat16 correctly rounded on all 65,536 inputs; binary32 and
 * binary64 figures in README.md. Reproduce: ulpbench accuracy --op cos --dtype all
 */
#include <stdint.h>

#include "cos_poly.h"
#include "omk_internal.h"
#include "omk_table16.h"
#include "trig_reduce.h"

typedef struct {
    double hi, lo; /* reduced argument r = hi + lo, |r| <= pi/4 (1 + 2^-40) */
    unsigned quadrant;
} reduced_arg;

/* Error-free sum: a + b = s + err exactly. */
static inline double two_sum(double a, double b, double *err) {
    const double s = a + b;
    const double b_virtual = s - a;
    *err = (a - (s - b_virtual)) + (b - b_virtual);
    return s;
}

static inline reduced_arg reduce_cody_waite(double ax) {
    const double k = (ax * K_TWO_OVER_PI + 0x1.8p52) - 0x1.8p52; /* round to nearest, |k| < 2^20 */
    const double t1 = ax - k * K_PIO2_1;                          /* exact: 33-bit K_PIO2_1 */
    double e1, e2;
    const double s1 = two_sum(t1, -(k * K_PIO2_2), &e1); /* k * K_PIO2_2 exact */
    const double w3_hi = k * K_PIO2_3;
    const double w3_lo = fma(k, K_PIO2_3, -w3_hi);
    const double s2 = two_sum(s1, -w3_hi, &e2);
    const double tail = ((e1 + e2) - w3_lo) - k * K_PIO2_4;
    reduced_arg r;
    r.hi = s2 + tail;
    r.lo = tail - (r.hi - s2);
    r.quadrant = (unsigned)(int64_t)k & 3;
    return r;
}

/* |x| * 2/pi mod 4 for |x| >= 2^20, from x = m * 2^e (m < 2^53). Only the 2/pi words whose
 * product with m can reach below 2^2 matter; four of them leave the truncation error below
 * 2^-137 while the result keeps 126 fraction bits. */
static reduced_arg reduce_payne_hanek(double ax) {
    typedef unsigned __int128 u128;
    const uint64_t bits = omk_bits64(ax);
    const int e = (int)(bits >> 52) - 1075;
    const uint64_t m = (bits & 0x000fffffffffffffull) | 0x0010000000000000ull;
    const int first = e > 65 ? (e - 65 + 63) / 64 : 0;
    const int s = e - 64 * first - 64; /* product bit j weighs 2^(j + s - 192) */

    uint64_t prod[5]; /* m * (T[first..first+3]) as a 320-bit integer, little-endian words */
    u128 acc = 0;
    for (int i = 3; i >= 0; i--) {
        const u128 p = (u128)m * K_TWO_OVER_PI_BITS[first + i];
        acc += (uint64_t)p;
        prod[3 - i] = (uint64_t)acc;
        acc = (acc >> 64) + (uint64_t)(p >> 64);
    }
    prod[4] = (uint64_t)acc;

    /* Window of 128 bits whose top two are the quadrant: bits [66 - s, 194 - s). */
    const int shift = 66 - s;
    const int word = shift / 64, bit = shift % 64;
    uint64_t lo_word = prod[word] >> bit, hi_word = prod[word + 1] >> bit;
    if (bit) {
        lo_word |= prod[word + 1] << (64 - bit);
        hi_word |= (word + 2 < 5 ? prod[word + 2] : 0) << (64 - bit);
    }
    const u128 window = ((u128)hi_word << 64) | lo_word;
    const u128 half = (u128)1 << 125;
    const u128 rounded = window + half;
    reduced_arg r;
    r.quadrant = (unsigned)(rounded >> 126) & 3;
    /* fraction in [-1/2, 1/2) quadrants, as a signed 126-bit integer */
    const __int128 frac = (__int128)(window - (rounded & ~((half << 1) - 1)));
    const double f_hi = (double)frac;
    const double f_lo = (double)(frac - (__int128)f_hi);
    const double a = f_hi * 0x1p-126, b = f_lo * 0x1p-126;
    const double p_hi = a * K_PIO2_HI;
    const double p_lo = fma(a, K_PIO2_HI, -p_hi) + fma(a, K_PIO2_LO, b * K_PIO2_HI);
    r.hi = p_hi + p_lo;
    r.lo = p_lo - (r.hi - p_hi);
    return r;
}

/* cos(hi + lo) ~ cos(hi) - lo*hi, with 1 - hi^2/2 kept to double-double accuracy. */
static inline double cos_reduced(double hi, double lo) {
    const double z = hi * hi;
    const double z_err = fma(hi, hi, -z);
    const double half_z = 0.5 * z;
    const double w = 1.0 - half_z;
    const double w_err = (1.0 - w) - half_z; /* exact: 1 >= half_z */
    const double tail = (z * z) * omk_horner(z, K_COS_POLY, K_COS_POLY_COUNT);
    return w + (w_err + (tail - fma(0.5, z_err, hi * lo)));
}

/* sin(hi + lo) ~ sin(hi) + lo*(1 - hi^2/2). */
static inline double sin_reduced(double hi, double lo) {
    const double z = hi * hi;
    const double tail = (hi * z) * omk_horner(z, K_SIN_POLY, K_SIN_POLY_COUNT);
    return hi + fma(lo, fma(-0.5, z, 1.0), tail);
}

static inline double cos_f64_elem(double x) {
    const double ax = fabs(x);
    const uint64_t abs_bits = omk_bits64(ax);
    if (abs_bits >= 0x7ff0000000000000ull) return x - x; /* inf, NaN -> NaN */
    if (abs_bits < 0x3e40000000000000ull) return 1.0;   /* |x| < 2^-27: 1 - x^2/2 rounds to 1 */
    reduced_arg r;
    if (abs_bits <= 0x3fe921fb54442d18ull) { /* |x| <= pi/4 */
        r.hi = ax;
        r.lo = 0.0;
        r.quadrant = 0;
    } else if (abs_bits < 0x4130000000000000ull) { /* |x| < 2^20 */
        r = reduce_cody_waite(ax);
    } else {
        r = reduce_payne_hanek(ax);
    }
    const double y = (r.quadrant & 1) ? sin_reduced(r.hi, r.lo) : cos_reduced(r.hi, r.lo);
    return ((r.quadrant + 1) & 2) ? -y : y; /* quadrants 1 and 2 are negative */
}

void OMK_ISA_NAME(omk_cos_f64)(const double *x, double *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = cos_f64_elem(x[i]);
}

void OMK_ISA_NAME(omk_cos_f32)(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = (float)cos_f64_elem((double)x[i]);
}

/* Direct evaluation: builds the lookup table (table16.c). */
void OMK_ISA_NAME(omk_cos_f16_direct)(const uint16_t *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = omk_double_to_f16(cos_f64_elem(omk_f16_to_double(x[i])));
}

void OMK_ISA_NAME(omk_cos_f16)(const uint16_t *x, uint16_t *y, size_t n) {
    omk_lookup16(omk_table_cos_f16(), x, y, n);
}

/* Direct evaluation: builds the lookup table (table16.c). */
void OMK_ISA_NAME(omk_cos_bf16_direct)(const uint16_t *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = omk_double_to_bf16(cos_f64_elem(omk_bf16_to_double(x[i])));
}

void OMK_ISA_NAME(omk_cos_bf16)(const uint16_t *x, uint16_t *y, size_t n) {
    omk_lookup16(omk_table_cos_bf16(), x, y, n);
}
