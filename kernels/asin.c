/* omk asin for binary64, binary32, binary16 and bfloat16.
 *
 * binary64, not correctly rounded (asin_f64_fast for |x| < 1, vectorized; asin_f64_dd for the rest):
 *   |x| < 1/2:      asin x = x + x^3 A(x^2);
 *   1/2 <= |x| < 1: asin |x| = pi/2 - 2 asin s, s = sqrt((1 - |x|)/2) <= 1/2, with (1 - |x|)/2
 *                   exact and the square root corrected to double-double by one fma.
 *   A is a binary64 minimax polynomial of degree 13 in x^2 on [0, 1/4] (asin_poly.h from
 *   asin.sollya, relative error 2^-63.79); its two leading terms are double-doubles summed
 *   error-free (Fast2Sum), so the final rounding dominates. The fast path evaluates both branches
 *   as scale (H + v + v^3 A(v^2)) (H = 0 or -pi/4, v = |x| or s, scale 1 or -2), the square-root
 *   correction through an integer reciprocal estimate and one third-order step instead of a
 *   division. asin_f64_dd (the accurate path of binary32 and the source of the 16-bit tables)
 *   runs the same evaluation and also returns its tail (within 2^-60.4 relative, f64_rounding_margin).
 *   Measured: max 0.504 ULP, 0.010% misrounded over 10^8 samples (ulpbench accuracy --op asin --dtype f64
 *   --impl omk --samples 100000000 --reference fast).
 * binary32 (asin_f32_fast, vectorized): the same split with K_ASIN_POLY_F32 (degree 8 in x^2,
 *   2^-43.93) in plain binary64, the square root from binary32 plus one Newton step; a result
 *   within OMK_F32_GUARD of a binary32 rounding boundary is redone through asin_f64_dd and rounded
 *   from its double-double. Measured: the fast path stays within 576.05 binary64 ulps of the
 *   double-double result (guard 8192; ./build/f32_guard_check), 0 of 2^32 inputs misrounded
 *   (ulpbench accuracy --op asin --dtype f32 --exhaustive).
 * binary16, bfloat16: table lookup (table16.c) over |x|, sign applied after; the table filled
 *   from asin_f64_dd's result rounded once. Correctly rounded on all 65,536 inputs, max 0.500 ULP (f16) and 0.499
 *   (bf16) (ulpbench accuracy --op asin --dtype f16 --impl omk, and --dtype bf16; checked by ctest).
 * Special values: NaN -> quiet NaN, |x| > 1 -> NaN, +-0 -> +-0, +-1 -> +-pi/2 correctly rounded,
 *   subnormals exact.
 */
#include <stdint.h>

#include "asin_poly.h"
#include "omk_internal.h"
#include "omk_table16.h"
#include "trig_reduce.h"

static inline uint64_t asin_large_mask(double ax) { return 0 - (uint64_t)(ax >= 0.5); }

#define asin_FAST_LIMIT 1.0
static inline int asin_needs_slow_path(double x) { return !(fabs(x) < asin_FAST_LIMIT); }

/* asin |x| for |x| < 1 = result + *tail, branch-free so that compilers vectorize a loop over it (the
 * fast path drops the tail, which the compiler then never computes). Both branches share one shape,
 * scale (H + v + v^3 A(z)):
 *   |x| < 1/2:  H = 0,     v = |x|,                   z = x^2, scale 1;
 *   otherwise:  H = -pi/4, v = s = sqrt((1 - |x|)/2), z = s^2, scale -2 (pi/2 - 2 asin s),
 * so that every per-lane choice is a mask (an and, or a minimum) and the scaling is exact. v and z need no
 * select: s lies below |x| and (1 - |x|)/2 below x^2 exactly when |x| > 1/2 (both equal at 1/2), so the minima
 * choose them (AVX2 has no one-instruction blend).
 * (1 - |x|)/2 is exact and s is corrected to double-double; H, v^3 A0 (up to v/24) and v^5 A1 (up
 * to 0.005 v) are double-doubles summed error-free, so result + tail is good to about 2^-60.4 (f64_rounding_margin). */
static inline double asin_magnitude(double ax, double *tail) {
    const uint64_t large = asin_large_mask(ax);
    const double w = fma(-0.5, ax, 0.5); /* exact for |x| >= 1/2 */
    const double s = sqrt(w);
    /* 1/(2s) without the divider: an integer estimate (within 5.1%) and one third-order step,
     * h0 (1 + t + t^2) with t = 1 - 2 s h0, within 2^-12.9 (0.00013 ulp of the result) */
    const double h0 = omk_double_from_bits(0x7fce623822fc16e6ull - omk_bits64(s));
    const double t = fma(-(s + s), h0, 1.0);
    const double half_inv_s = fma(h0, fma(t, t, t), h0);
    const double s_corr = fma(-s, s, w) * half_inv_s; /* sqrt(w) - s, a term ~2^-53 s */
    const double ax2 = ax * ax;
    const double v = s < ax ? s : ax;
    const double v_lo = omk_double_from_bits(omk_bits64(s_corr) & large);
    const double z = w < ax2 ? w : ax2; /* w = s^2 exactly in large lanes */
    const double z_err = omk_double_from_bits(omk_bits64(fma(ax, ax, -ax2)) & ~large);
    const double h_hi = omk_double_from_bits(omk_bits64(-0.5 * K_PIO2_HI) & large);
    const double h_lo = omk_double_from_bits(omk_bits64(-0.5 * K_PIO2_LO) & large);
    const double vz = v * z;
    const double vz_err = fma(v, z_err, fma(v_lo, z, fma(v, z, -vz))); /* v^3 */
    const double lead = vz * K_ASIN_POLY[0];
    const double lead_err = fma(vz_err, K_ASIN_POLY[0], fma(vz, K_ASIN_POLY[0], -lead));
    const double fifth = vz * z;
    const double fifth_err = fma(vz_err, z, fma(vz, z, -fifth)); /* v^5 */
    const double next = fifth * K_ASIN_POLY[1];
    const double next_err = fma(fifth_err, K_ASIN_POLY[1], fma(fifth, K_ASIN_POLY[1], -next));
    const double rest = (fifth * z) * omk_horner(z, K_ASIN_POLY + 2, K_ASIN_POLY_COUNT - 2);
    /* Fast2Sums: |H| > |v| (or H = 0) > |v^3 A0| > |v^5 A1| */
    const double sum0 = h_hi + v;
    const double err0 = v - (sum0 - h_hi);
    const double sum1 = sum0 + lead;
    const double err1 = lead - (sum1 - sum0);
    const double sum = sum1 + next;
    const double err2 = next - (sum - sum1);
    const double small = ((h_lo + v_lo) + (err0 + (err1 + err2))) + ((lead_err + next_err) + rest);
    const double y = sum + small;
    const double y_tail = small - (y - sum); /* Fast2Sum: |sum| > |small| */
    const double scale = omk_double_from_bits(omk_bits64(1.0) ^ (large & (omk_bits64(1.0) ^ omk_bits64(-2.0))));
    *tail = y_tail * scale; /* exact, as y * scale: |y| >= pi/12 in large lanes */
    return y * scale;
}

/* Branch-free binary64 asin for |x| < 1 as value + tail; other inputs are redone by asin_f64_accurate. */
static inline omk_f64_result asin_f64_fast(double x) {
    double magnitude_tail;
    const double magnitude = asin_magnitude(fabs(x), &magnitude_tail);
    const uint64_t sign = omk_bits64(x) & 0x8000000000000000ull;
    const omk_f64_result result = {omk_double_from_bits(omk_bits64(magnitude) ^ sign),
                                   omk_double_from_bits(omk_bits64(magnitude_tail) ^ sign)};
    return result;
}

/* asin x = result + *tail to about 2^-60.4 relative, for every x. */
static double asin_f64_dd(double x, double *tail) {
    *tail = 0.0;
    if (!asin_needs_slow_path(x)) {
        const double y = asin_magnitude(fabs(x), tail);
        if (signbit(x)) *tail = -*tail;
        return copysign(y, x);
    }
    if (fabs(x) == 1.0) return copysign(K_PIO2_HI, x);
    if (isnan(x)) return x + x; /* quiet it */
    return (x - x) / (x - x);   /* |x| > 1: invalid */
}

/* binary64 lanes with |x| >= 1 or NaN: exact or special. */
static double asin_f64_accurate(double x) {
    double tail;
    return asin_f64_dd(x, &tail);
}

/* binary32: the same split in plain binary64 with K_ASIN_POLY_F32 (2^-43.93). The square root
 * comes from binary32, because two vsqrtpd per 16 lanes kept the loop waiting on the divider (one
 * vsqrtps and one vdivps occupy it about half as long): for |x| >= 1/2, w = (1 - |x|)/2 is exact in both formats,
 * s0 = RN32(sqrt w) makes w - s0^2 exact in binary64, and one Newton step with h = RN32(1/(2 s0))
 * leaves s within 2^-47 relative. The series variable and its square need no select: s lies below
 * |x| and w below x^2 exactly when |x| > 1/2 (equal at 1/2), so two minima choose them, and the
 * branch result is one blend under a compare mask (chains of selects on one condition made GCC
 * duplicate the polynomial per branch). pi/2 is its binary64 rounding alone, 2^-54 relative.
 * Results within OMK_F32_GUARD of a binary32 rounding boundary are redone through asin_f64_dd. */
static inline double asin_f32_fast(float x) {                  /* returns asin |x| */
    const float ax_f = omk_float_from_bits(omk_abs_bits32(x)); /* the array loop's |x| bits, shared */
    const double ax = (double)ax_f;
    const double w = fma(-0.5, ax, 0.5); /* exact for |x| >= 1/2, the lanes that use it */
    const float s_f = sqrtf(fmaf(-0.5f, ax_f, 0.5f));
    /* s_f >= 2^-13 in every lane that is not redone; the 2^-126 keeps |x| = 1 off a division by 0 */
    const double s0 = (double)s_f, half_inv_s0 = (double)(0.5f / (s_f + 0x1p-126f));
    const double s = fma(fma(-s0, s0, w), half_inv_s0, s0), ax2 = ax * ax;
    const double v = s < ax ? s : ax, z = w < ax2 ? w : ax2;
    const double asin_v = fma(v * z, omk_horner(z, K_ASIN_POLY_F32, K_ASIN_POLY_F32_COUNT), v);
    return ax >= 0.5 ? fma(-2.0, asin_v, K_PIO2_HI) : asin_v; /* pi/2 - 2 asin s */
}

/* No second paths: |x| >= 1 is special. */
#define asin_F32_HUGE_END_BITS 0x3f800000u
#define asin_f32_huge          asin_f32_fast
#define asin_F64_HUGE_END_BITS 0x3ff0000000000000ull
#define asin_f64_huge          asin_f64_fast
/* No rounding test: at the fast path's 2^-60.4 it would reject about 1 lane in 50 (README "Not done yet"). */
#define asin_F64_ROUNDING_FACTOR 0.0

/* The sign goes on after narrowing, which spares converting x to binary64 a second time. */
static inline float asin_f32_finish(float x, float magnitude) { return copysignf(magnitude, x); }

/* The eight entry points of this ISA build (omk_internal.h): asin is odd. */
OMK_DEFINE_KERNELS(asin, 0x8000)
