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

/* Cody-Waite for |x| < 2^20: every step is exact or error-free except the last tail terms.
 * Returns k + 0x1.8p52, whose low mantissa bits are the integer k (the quadrant). */
static inline double reduce_cody_waite(double ax, double *r_hi, double *r_lo) {
    const double k_shifted = ax * K_TWO_OVER_PI + 0x1.8p52; /* round to nearest, |k| < 2^20 */
    const double k = k_shifted - 0x1.8p52;
    const double t1 = ax - k * K_PIO2_1; /* exact: 33-bit K_PIO2_1 */
    double e1, e2;
    const double s1 = two_sum(t1, -(k * K_PIO2_2), &e1); /* k * K_PIO2_2 exact */
    const double w3_hi = k * K_PIO2_3;
    const double w3_lo = fma(k, K_PIO2_3, -w3_hi);
    const double s2 = two_sum(s1, -w3_hi, &e2);
    const double tail = ((e1 + e2) - w3_lo) - k * K_PIO2_4;
    *r_hi = s2 + tail;
    *r_lo = tail - (*r_hi - s2);
    return k_shifted;
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

/* cos(hi + lo) ~ cos(hi) - lo*sin(hi). 1 - hi^2/2 and the next term hi^4 C0 (up to 0.016) are kept in
 * double-double and summed error-free, so one final rounding dominates the error. */
static inline double cos_reduced(double hi, double lo) {
    const double z = hi * hi;
    const double z_err = fma(hi, hi, -z);
    const double half_z = 0.5 * z;
    const double w = 1.0 - half_z;
    const double w_err = (1.0 - w) - half_z; /* exact: 1 >= half_z */
    const double zz = z * z;
    const double zz_err = fma(z, z, -zz) + 2.0 * z * z_err; /* hi^4 = zz + zz_err */
    const double lead = zz * K_COS_POLY[0];
    const double lead_err = fma(zz, K_COS_POLY[0], -lead) + zz_err * K_COS_POLY[0];
    const double rest = (zz * z) * omk_horner(z, K_COS_POLY + 1, K_COS_POLY_COUNT - 1);
    double sum_err;
    const double sum = two_sum(w, lead, &sum_err);
    const double lo_term = (hi * lo) * fma(z, -1.0 / 6.0, 1.0); /* lo * sin(hi) */
    return sum + ((sum_err + w_err) + ((lead_err + rest) - fma(0.5, z_err, lo_term)));
}

/* sin(hi + lo) ~ sin(hi) + lo*(1 - hi^2/2). The leading correction hi^3 * S0 (up to 0.1 hi) is
 * formed in double-double and added to hi error-free, so one rounding dominates the error. */
static inline double sin_reduced(double hi, double lo) {
    const double z = hi * hi;
    const double z_err = fma(hi, hi, -z);
    const double cube = hi * z;
    const double cube_err = fma(hi, z, -cube) + hi * z_err; /* hi^3 = cube + cube_err */
    const double lead = cube * K_SIN_POLY[0];
    const double lead_err = fma(cube, K_SIN_POLY[0], -lead) + cube_err * K_SIN_POLY[0];
    const double rest = (cube * z) * omk_horner(z, K_SIN_POLY + 1, K_SIN_POLY_COUNT - 1);
    double sum_err;
    const double sum = two_sum(hi, lead, &sum_err);
    return sum + (sum_err + (lead_err + fma(lo, fma(-0.5, z, 1.0), rest)));
}

/* Branch-free cos for |x| < 2^20, written so that compilers vectorize a loop over it; other
 * inputs give garbage here and are redone by cos_f64_elem. Both polynomials are evaluated and
 * the quadrant selects (cheaper than diverging lanes). */
static inline double cos_f64_fast(double x) {
    double hi, lo;
    const uint64_t k = omk_bits64(reduce_cody_waite(fabs(x), &hi, &lo));
    const uint64_t c = omk_bits64(cos_reduced(hi, lo)), s = omk_bits64(sin_reduced(hi, lo));
    /* integer selects vectorize everywhere: odd quadrants take sin, quadrants 1 and 2 negate */
    const uint64_t odd = 0 - (k & 1);
    return omk_double_from_bits(((s & odd) | (c & ~odd)) ^ (((k + 1) & 2) << 62));
}

static inline int cos_needs_slow_path(double x) { return !(fabs(x) < 0x1p20); }

static double cos_f64_elem(double x) {
    if (!cos_needs_slow_path(x)) return cos_f64_fast(x);
    if (isnan(x) || isinf(x)) return x - x; /* NaN -> quiet NaN, inf -> NaN */
    const reduced_arg r = reduce_payne_hanek(fabs(x));
    const double y = (r.quadrant & 1) ? sin_reduced(r.hi, r.lo) : cos_reduced(r.hi, r.lo);
    return ((r.quadrant + 1) & 2) ? -y : y; /* quadrants 1 and 2 are negative */
}

/* Array loops: the fast path over a block (vectorized), then the rare slow lanes again. The block
 * is copied first so that y == x still has the inputs for that second pass. */
#define COS_ARRAY_LOOP(T, x, y, n)                                                                 \
    for (size_t start = 0; start < (n); start += OMK_BLOCK) {                                      \
        const size_t m = (n) - start < OMK_BLOCK ? (n) - start : OMK_BLOCK;                        \
        T in[OMK_BLOCK];                                                                           \
        memcpy(in, (x) + start, m * sizeof(T));                                                    \
        OMK_SIMD_LOOP                                                                              \
        for (size_t i = 0; i < m; i++) (y)[start + i] = (T)cos_f64_fast((double)in[i]);            \
        int slow = 0;                                                                              \
        for (size_t i = 0; i < m; i++) slow |= cos_needs_slow_path((double)in[i]);                 \
        if (slow)                                                                                  \
            for (size_t i = 0; i < m; i++)                                                         \
                if (cos_needs_slow_path((double)in[i])) (y)[start + i] = (T)cos_f64_elem((double)in[i]); \
    }

void OMK_ISA_NAME(omk_cos_f64)(const double *x, double *y, size_t n) { COS_ARRAY_LOOP(double, x, y, n) }

void OMK_ISA_NAME(omk_cos_f32)(const float *x, float *y, size_t n) { COS_ARRAY_LOOP(float, x, y, n) }

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
