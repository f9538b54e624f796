/* omk asin for binary64, binary32, binary16 and bfloat16.
 *
 * binary64, correctly rounded. Fast path, |x| < 1 (asin_f64_fast, vectorized): a rotation step. With
 *   t = sqrt(1 - x^2) as a double-double (1 - x^2 in one rounding plus its exact error, the square root corrected
 *   by one fma and a binary32 reciprocal, or in the AVX-512 build vrcp14pd and a Newton step: asin_f64_t_lo_group),
 *   m = min(|x|, t), n = max(|x|, t) and a table point b = i/256:
 *   asin m = asin b + asin u, u = m sqrt(1 - b^2) - n b (|u| < 2^-8.4, u_hi exact: asin_rotation_u), and
 *   asin |x| = asin m or pi/2 - asin m = (pi/2 - asin b) + asin(-u); asin b or pi/2 - asin b, and sqrt(1 - b^2)
 * (negated on the second side, which makes the same operations yield -u there) are double-doubles from one 512-row
 * table (asin_poly.h from asin.sollya; one load per lane in the vector builds: omk_read_rows4), asin u = u + u^3 Q(u^2)
 * with Q of degree 2 (K_ASIN_ROT_POLY, 2^-76.42). asin b + u_hi is summed error-free, the rest (below 2^-17 of the
 * result, u_lo's share of the series included) in binary64: value + tail within 2^-72.24 relative (largest error over 4
 * 10^6 samples from uniform, log-uniform, near 2^-1/2 and near 1 input sets: ./build/f64_rounding_margin; 2^-72.07
 * after a search for larger errors: f64_rounding_margin --search 30000000 200). A rounding
 *   test for the bound 2^-68 (asin_F64_ROUNDING_FACTOR) passes all but about 1 lane in 17,000 (f64_rounding_margin);
 *   those are redone by asin_f64_accurate: the same rotation in double-double (2^-87.78, about 40 ns), and for
 *   the few it cannot settle, two Newton steps in 256-bit fixed point (about 1 us; both times on AMD Zen 5, printed
 *   by f64_rounding_margin). |x| > 1, infinities and NaN (whose
 *   NaN results fail the test too) take asin_special in a vectorized pass over the block, and so does |x| = 1 when its
 *   block has a rejected lane (its fast result is pi/2 rounded correctly or NaN: the same bits either way). Measured: 0
 *   misrounded over 10^8 samples (ulpbench accuracy --op asin --dtype f64 --impl omk --samples 100000000 --reference
 *   fast) and on the 129 asin rows of the hard-case table (ctest).
 * asin_f64_dd (one element at a time: the accurate path of binary32; the 16-bit tables in the scalar build):
 *   |x| < 1/2:      asin x = x + x^3 A(x^2);
 *   1/2 <= |x| < 1: asin |x| = pi/2 - 2 asin s, s = sqrt((1 - |x|)/2) <= 1/2, with (1 - |x|)/2
 *                   exact and the square root corrected to double-double by one fma.
 *   A is a binary64 minimax polynomial of degree 13 in x^2 on [0, 1/4] (asin_poly.h from
 *   asin.sollya, relative error 2^-63.79); its two leading terms are double-doubles summed
 *   error-free (Fast2Sum). Both branches run as scale (H + v + v^3 A(v^2)) (H = 0 or -pi/4, v = |x| or s,
 *   scale 1 or -2), the square-root correction through an integer reciprocal estimate and one third-order
 *   step instead of a division; result + tail within 2^-60.43 relative (f64_rounding_margin).
 * binary32 (asin_f32_fast, vectorized): the same split with K_ASIN_POLY_F32 (degree 8 in x^2,
 *   2^-43.93) in plain binary64, the square root from binary32 plus one Newton step; a result
 *   within OMK_F32_GUARD of a binary32 rounding boundary is redone through asin_f64_dd and rounded
 *   from its double-double. Measured: the fast path stays within 576.05 binary64 ulps of the
 *   double-double result (guard 8192; ./build/f32_guard_check), 0 of 2^32 inputs misrounded
 *   (ulpbench accuracy --op asin --dtype f32 --exhaustive).
 * binary16, bfloat16: the AVX-512 build (except on Intel CPUs with AVX512-FP16, or with OMK_HALF16=compute: omk.c's
 *   omk_half16_compute) computes in binary32 for |x| <= 1 (asin_h_fast, OMK_ARRAY_LOOP_16): the
 *   binary32 split above in binary32 with K_ASIN_POLY_H (degree 9, 2^-23.41); within 2.83 (binary16) and 2.74
 *   (bfloat16) binary32 ulps of the result on every input, narrowed with a rounding test of guard 1 ulp; every input
 *   the test passes rounds correctly (./build/half_guard_check, in ctest). The lanes it rejects (1 of the 15,361
 *   binary16 magnitudes up to 1, no bfloat16 one), |x| > 1, and the other builds and CPUs (or OMK_HALF16=table)
 *   read a table (table16.c) over |x|, filled from the correctly rounded binary64 result narrowed to 16 bits; the
 *   sign goes on after. Correctly rounded on all
 *   65,536 inputs either way, max 0.49993 ULP (f16) and 0.49943 (bf16) (max_ulp of ulpbench accuracy --op asin
 *   --dtype f16 --impl omk --json FILE, and --dtype bf16; ctest holds every ISA build and both methods to the scalar
 *   build on every input).
 * Special values: NaN -> quiet NaN, |x| > 1 -> NaN, +-0 -> +-0, +-1 -> +-pi/2 correctly rounded,
 *   subnormals exact.
 */
#include <stdint.h>

#include "asin_poly.h"
#include "omk_fixed.h"
#include "omk_internal.h"
#include "omk_table16.h"
#include "trig_reduce.h"

static inline uint64_t asin_large_mask(double ax) { return 0 - (uint64_t)(ax >= 0.5); }

#define asin_FAST_LIMIT 1.0
static inline int asin_needs_slow_path(double x) { return !(fabs(x) < asin_FAST_LIMIT); }

/* asin |x| for |x| < 1 = result + *tail (asin_f64_dd), branch-free. Both branches share one shape,
 * scale (H + v + v^3 A(z)):
 *   |x| < 1/2:  H = 0,     v = |x|,                   z = x^2, scale 1;
 *   otherwise:  H = -pi/4, v = s = sqrt((1 - |x|)/2), z = s^2, scale -2 (pi/2 - 2 asin s),
 * so that every per-lane choice is a mask (an and, or a minimum) and the scaling is exact. v and z need no
 * select: s lies below |x| and (1 - |x|)/2 below x^2 exactly when |x| > 1/2 (both equal at 1/2).
 * (1 - |x|)/2 is exact and s is corrected to double-double; H, v^3 A0 (up to v/24) and v^5 A1 (up
 * to 0.005 v) are double-doubles summed error-free, so result + tail is good to about 2^-60.4 (f64_rounding_margin). */
static inline double asin_magnitude(double ax, double *tail) {
    const uint64_t large = asin_large_mask(ax);
    const double w = omk_fma(-0.5, ax, 0.5); /* exact for |x| >= 1/2 */
    const double s = omk_sqrt(w);
    /* 1/(2s) without the divider: an integer estimate (within 5.1%) and one third-order step,
     * h0 (1 + t + t^2) with t = 1 - 2 s h0, within 2^-12.9 (0.00013 ulp of the result) */
    const double h0 = omk_double_from_bits(0x7fce623822fc16e6ull - omk_bits64(s));
    const double t = omk_fma(-(s + s), h0, 1.0);
    const double half_inv_s = omk_fma(h0, omk_fma(t, t, t), h0);
    const double s_corr = omk_fma(-s, s, w) * half_inv_s; /* sqrt(w) - s, a term ~2^-53 s */
    const double ax2 = ax * ax;
    const double v = s < ax ? s : ax;
    const double v_lo = omk_double_from_bits(omk_bits64(s_corr) & large);
    const double z = w < ax2 ? w : ax2; /* w = s^2 exactly in large lanes */
    const double z_err = omk_double_from_bits(omk_bits64(omk_fma(ax, ax, -ax2)) & ~large);
    const double h_hi = omk_double_from_bits(omk_bits64(-0.5 * K_PIO2_HI) & large);
    const double h_lo = omk_double_from_bits(omk_bits64(-0.5 * K_PIO2_LO) & large);
    const double vz = v * z;
    const double vz_err = omk_fma(v, z_err, omk_fma(v_lo, z, omk_fma(v, z, -vz))); /* v^3 */
    const double lead = vz * K_ASIN_POLY[0];
    const double lead_err = omk_fma(vz_err, K_ASIN_POLY[0], omk_fma(vz, K_ASIN_POLY[0], -lead));
    const double fifth = vz * z;
    const double fifth_err = omk_fma(vz_err, z, omk_fma(vz, z, -fifth)); /* v^5 */
    const double next = fifth * K_ASIN_POLY[1];
    const double next_err = omk_fma(fifth_err, K_ASIN_POLY[1], omk_fma(fifth, K_ASIN_POLY[1], -next));
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

/* The rotation step of the correctly rounded binary64 path, for |x| < 1 (other lanes give garbage and
 * are redone). With t = sqrt(1 - x^2) = cos(asin |x|), m = min(|x|, t) and n = max(|x|, t), and a table
 * point b = i/256, i = round(256 m (1 - 2^-16)) (the scale keeps u_hi exact: asin_rotation_u),
 *   asin m = asin b + asin u,  u = m sqrt(1 - b^2) - n b = sin(asin m - asin b),
 *   asin |x| = asin m when |x| <= t, else pi/2 - asin m = (pi/2 - asin b) + asin(-u);
 * |u| < 2^-8.4 (u = m in the first cell, where b = 0), so asin u = u + u^3 Q(u^2) with a short polynomial. The table
 * holds y = asin b and c = sqrt(1 - b^2) as double-doubles, and for the second side y = pi/2 - asin b and c = -sqrt(1 -
 * b^2): with n's factor b there instead of -b, the same operations yield -u, and the result takes x's sign alone (one
 * compare and select fewer in the vector builds' last pass than a sign set per side). Every operation is odd, so the
 * results are those of the table with asin b - pi/2 and the sign flipped after. */
typedef struct {
    double m_hi, n_hi;      /* m and n: |x| and t_hi in some order */
    double t_lo_half;       /* t = t_hi + 2 t_lo_half */
    double n_factor;        /* -b, or b on the second side (m = t, |x| > t); b = i/256: at most 8 significant bits */
    double t_lo_factor;     /* c_hi on the second side, -b on the first */
    double c_hi, c_lo_half; /* +-sqrt(1 - b^2) = c_hi + 2 c_lo_half, negative on the second side */
    double y_hi, y_lo;      /* asin b, or pi/2 - asin b on the second side */
} asin_rotation;

/* t = sqrt(1 - x^2) = t_hi + 2 t_lo_half, |x| < 1, from t_hi = RN(sqrt(d_hi)) and the residual (d_hi + d_lo) - t_hi^2,
 * where 1 - x^2 = d_hi + d_lo, d_hi = RN(1 - x^2), d_lo its error in one rounding: -x^2 + (1 - d_hi) on the first
 * side (|x| <= t_hi, so d_hi >= 1/2 and 1 - d_hi is exact), w x + (w - d_hi) on the second (w = 1 - |x|, exact for
 * |x| >= 1/2; w (1 + |x|) = 1 - x^2, and w - d_hi is exact: d_hi/2 <= w <= d_hi). A d_lo rounded from the binary64
 * 1 - RN(x^2) would be off by up to 2^-54 absolute, far from 2^-53 relative near |x| = 1. d_hi - t_hi^2 is exact, so
 * the residual carries one rounding. */
static inline double asin_t_residual(double ax, double d_hi, double t_hi) {
    const double w = 1.0 - ax;
    const uint64_t side = 0 - (uint64_t)(ax > t_hi);
    const double d_lo = omk_select(side, omk_fma(w, ax, w - d_hi), omk_fma(-ax, ax, 1.0 - d_hi));
    return omk_fma(-t_hi, t_hi, d_hi) + d_lo;
}

/* t_lo_half = residual / (4 t_hi), the reciprocal from a binary32 division. precise: two Newton steps on it (to about
 * 2^-52 instead of 2^-23), for the middle phase (t to ~2^-104 instead of ~2^-76). */
static inline double asin_t_lo_half(double t_hi, double residual, int precise) {
    double quarter_inv_t = (double)(0.25f / ((float)t_hi + 0x1p-100f)); /* 2^-100: |x| = 1 divides by 0 */
    if (precise) {
        double h = 2.0 * quarter_inv_t; /* 1/(2 t) */
        for (int step = 0; step < 2; step++) h = omk_fma(h, omk_fma(-(t_hi + t_hi), h, 1.0), h);
        quarter_inv_t = 0.5 * h;
    }
    return residual * quarter_inv_t;
}

/* The table row of |x| (< 1; other lanes still index inside the table): j = i + 256 on the second side, i = round(256
 * m (1 - 2^-16)) <= 181; the scale moves the lower edge of the second cell to 2^-9 (1 + 2^-16) (asin_rotation_u).
 * *t_hi = RN(sqrt(RN(1 - x^2))) and *residual (asin_t_residual) go to asin_rotation_setup. The residual is computed
 * here because the vector builds run this stage in a pass of its own that waits on the square root's divider, with
 * ports to spare: double asin took 0.94 of the time with AVX-512 and AVX2 on AMD Zen 5, 0.97 in the scalar build
 * (omk_ab against the residual in the main pass, same outputs). The division stays in the main pass: moved here too,
 * it made the pass wait on the divider as long as the main pass gained. The row's fma comes before the residual's, so
 * that the scalar build reuses it for -b in asin_rotation_setup (GCC did not across the other fma calls: 15%
 * slower). */
static inline int64_t asin_rotation_row(double ax, double *t_hi_out, double *residual_out) {
    const double d_hi = omk_fma(-ax, ax, 1.0), t_hi = omk_sqrt(d_hi);
    const uint64_t side = 0 - (uint64_t)(ax > t_hi);
    const double shift = omk_double_from_bits(omk_bits64(0x1.8p52) + (side & 256));
    const int64_t row = (int64_t)(omk_bits64(omk_fma(ax > t_hi ? t_hi : ax, 256.0 - 0x1p-8, shift)) & 0x1ff);
    *t_hi_out = t_hi;
    *residual_out = asin_t_residual(ax, d_hi, t_hi);
    return row;
}

/* The rotation of |x| from t_hi, the residual (asin_rotation_row) and row = K_ASIN_ROT_ROWS[asin_rotation_row(...)] =
 * {y_hi, y_lo, c_hi, c_lo_half}. */
static inline asin_rotation asin_rotation_setup(double ax, double t_hi, double t_lo_half, double row_y_hi,
                                                double row_y_lo, double row_c_hi, double row_c_lo_half) {
    const uint64_t side = 0 - (uint64_t)(ax > t_hi);
    asin_rotation r;
    r.m_hi = ax > t_hi ? t_hi : ax;
    r.n_hi = ax > t_hi ? ax : t_hi;
    const double shift = omk_double_from_bits(omk_bits64(0x1.8p52) + (side & 256));
    /* -b (the row's b = i/256), or b on the second side */
    const double signed_scale = omk_double_from_bits(omk_bits64(0x1p-8) ^ (side & 0x8000000000000000ull));
    r.n_factor = (shift - omk_fma(r.m_hi, 256.0 - 0x1p-8, shift)) * signed_scale;
    r.t_lo_half = t_lo_half;
    r.c_hi = row_c_hi;
    r.c_lo_half = row_c_lo_half;
    r.t_lo_factor = omk_select(side, r.c_hi, r.n_factor); /* t_lo is m_lo on the second side, n_lo on the first */
    r.y_hi = row_y_hi;
    r.y_lo = row_y_lo;
    return r;
}

/* The same, reading the row itself (gathers when vectorized). */
static inline asin_rotation asin_rotation_lookup(double ax, int precise) {
    double t_hi, residual;
    const int64_t j = asin_rotation_row(ax, &t_hi, &residual); /* indexed in full, as in OMK_DEFINE_F64_FAST */
    return asin_rotation_setup(ax, t_hi, asin_t_lo_half(t_hi, residual, precise), K_ASIN_ROT_ROWS[j][0],
                               K_ASIN_ROT_ROWS[j][1], K_ASIN_ROT_ROWS[j][2], K_ASIN_ROT_ROWS[j][3]);
}

/* u = u_hi + 2 u_lo_half (the half spares an operation in asin_f64_fast). p_hi - n_hi b is exact: n_hi >= 1/2 makes
 * n_hi b a multiple of 2^-61, p_hi >= 2^-9 is one too, and u_hi lies below 2^-8, so 53 bits hold it. p_hi >= 2^-9 from
 * the second cell on: there m > 2^-9 (1 + 2^-16) and sqrt(1 - b^2) >= 1 - 2^-17 (without the scale of i, p_hi could
 * fall just below 2^-9 while |u| reaches just above it); in the first cell b = 0 and u_hi = p_hi = m. */
static inline double asin_rotation_u(const asin_rotation *r, double *u_lo_half) {
    const double p_hi = r->m_hi * r->c_hi, p_err = omk_fma(r->m_hi, r->c_hi, -p_hi);
    *u_lo_half = omk_fma(0.5, p_err, omk_fma(r->m_hi, r->c_lo_half, r->t_lo_half * r->t_lo_factor));
    return omk_fma(r->n_hi, r->n_factor, p_hi);
}

/* The sign of the result: x's (asin is odd; the sums give asin |x| on both sides). */
static inline uint64_t asin_rotation_flip(double x) { return omk_bits64(x) & 0x8000000000000000ull; }

/* Branch-free binary64 asin for |x| < 1 as value + tail: y_hi + u_hi summed error-free (|y_hi| > |u_hi|, or
 * y_hi = 0), the rest (below 2^-17 of the result) in binary64. In two stages, which the vector builds run as two
 * passes (OMK_ARRAY_LOOP_F64): the rotation, u = u_hi + 2 u_lo_half, then the series and the sums. Split so, double
 * asin took 0.89-0.93 of the time with AVX-512 and 0.90-0.91 with AVX2 on AMD Zen 5 (omk_ab against one pass, same
 * outputs). */
static inline omk_f64_result asin_f64_rows_first(double x, double t_hi, double t_lo_half, double row_y_hi,
                                                 double row_y_lo, double row_c_hi, double row_c_lo_half) {
    const asin_rotation r = asin_rotation_setup(fabs(x), t_hi, t_lo_half, row_y_hi, row_y_lo, row_c_hi, row_c_lo_half);
    double u_lo_half;
    const double u_hi = asin_rotation_u(&r, &u_lo_half);
    const omk_f64_result p = {u_hi, u_lo_half};
    return p;
}
static inline omk_f64_result asin_f64_rows_second(double x, double t_hi, double t_lo_half, double row_y_hi,
                                                  double row_y_lo, double c_hi, double c_lo_half, double u_hi,
                                                  double u_lo_half) {
    (void)t_hi, (void)t_lo_half, (void)c_hi, (void)c_lo_half;
    asin_rotation r;
    r.y_hi = row_y_hi;
    r.y_lo = row_y_lo;
    const double z = u_hi * u_hi;
    const double s = r.y_hi + u_hi;
    const double s_err = u_hi - (s - r.y_hi);
    /* u^3 Q + u_lo (1 + u^2/2) = u^2 (u Q + u_lo/2) + u_lo: u_lo is about 2^-53 m, not 2^-53 u, so its share of
     * the series matters; carrying u_lo/2 makes it cost no operation */
    const double series = omk_fma(u_hi, omk_horner(z, K_ASIN_ROT_POLY, K_ASIN_ROT_POLY_COUNT), u_lo_half);
    const double rest = omk_fma(z, series, omk_fma(2.0, u_lo_half, r.y_lo) + s_err);
    const double value = s + rest;
    const uint64_t flip = asin_rotation_flip(x);
    const omk_f64_result result = {omk_double_from_bits(omk_bits64(value) ^ flip),
                                   omk_double_from_bits(omk_bits64(rest - (value - s)) ^ flip)};
    return result;
}
static inline omk_f64_result asin_f64_fast_rows(double x, double t_hi, double t_lo_half, double row_y_hi,
                                                double row_y_lo, double row_c_hi, double row_c_lo_half) {
    const omk_f64_result p = asin_f64_rows_first(x, t_hi, t_lo_half, row_y_hi, row_y_lo, row_c_hi, row_c_lo_half);
    return asin_f64_rows_second(x, t_hi, t_lo_half, row_y_hi, row_y_lo, row_c_hi, row_c_lo_half, p.value, p.tail);
}
#define asin_F64_SPLIT 1

/* The first stage of asin_f64_fast_rows: the row index, t_hi in *aux and the residual in *aux2, which asin_f64_carry
 * turns into t_lo_half. */
static inline int64_t asin_f64_row(double x, double *aux, double *aux2) {
    return asin_rotation_row(fabs(x), aux, aux2);
}
static inline double asin_f64_carry(double t_hi, double residual) { return asin_t_lo_half(t_hi, residual, 0); }

/* The vector builds turn the residual into t_lo_half beside the row reads (omk_read_rows4, count lanes at a time:
 * 8 with AVX-512, 4 with AVX2, fewer at the end of a block), whose loads and shuffles leave the arithmetic ports
 * idle. AVX-512 replaces the binary32 division of asin_t_lo_half by a reciprocal estimate and one Newton step:
 * r = rcp14(t_hi) within 2^-14, e = 1 - t_hi r, and residual r (1 + e)/4 within about e^2 = 2^-28 of residual/(4 t_hi)
 * (the division: about 2^-23), so t = t_hi + 2 t_lo_half stays within 2^-80 of t relative and the fast path's bound
 * (asin_F64_ROUNDING_FACTOR) holds as before; t_hi = 0 (|x| = 1) gives NaN, which the rounding test rejects, as it
 * does |x| > 1. AVX2 keeps the division, on four lanes. On AMD Zen 5 (omk_ab against the division in the main pass,
 * same outputs) double asin took 0.96 of the time with AVX-512 and 0.99-1.02 with AVX2 (the AVX2 estimate, vrcpps,
 * gave the same 1.01). */
static inline void asin_f64_t_lo_group(const double *t_hi, double *residual, size_t count) {
#if defined(__AVX512F__)
    if (count == 8) {
        const __m512d t = _mm512_loadu_pd(t_hi), r = _mm512_rcp14_pd(t);
        const __m512d e = _mm512_fnmadd_pd(t, r, _mm512_set1_pd(1.0));
        const __m512d q = _mm512_mul_pd(_mm512_mul_pd(_mm512_loadu_pd(residual), _mm512_set1_pd(0.25)), r);
        _mm512_storeu_pd(residual, _mm512_fmadd_pd(q, e, q));
        return;
    }
#elif defined(__AVX2__)
    if (count == 4) {
        const __m128 t = _mm_add_ps(_mm256_cvtpd_ps(_mm256_loadu_pd(t_hi)), _mm_set1_ps(0x1p-100f));
        const __m256d q = _mm256_cvtps_pd(_mm_div_ps(_mm_set1_ps(0.25f), t));
        _mm256_storeu_pd(residual, _mm256_mul_pd(_mm256_loadu_pd(residual), q));
        return;
    }
#endif
    for (size_t i = 0; i < count; i++) residual[i] = asin_f64_carry(t_hi[i], residual[i]);
}
#define asin_F64_ROWS_EXTRA asin_f64_t_lo_group
#define asin_F64_ROWS       K_ASIN_ROT_ROWS
OMK_DEFINE_F64_FAST(asin)

/* asin of |x| >= 1, NaN included, branch-free: +-pi/2 rounded for +-1; the NaN quieted; for |x| > 1 and infinities
 * the invalid operation's NaN (x - x is 0 or that NaN). The array loops compute it on whole blocks and keep it for
 * those lanes alone: the others divide a quiet NaN, which raises no invalid-operation flag (0/0 would), and the
 * comparisons are on the bits, which raise none for NaN. */
static inline double asin_special(double x) {
    const uint64_t abs_bits = omk_abs_bits64(x);
    const uint64_t unit = 0 - (uint64_t)(abs_bits == omk_bits64(1.0));
    const uint64_t in_domain = 0 - (uint64_t)(abs_bits <= omk_bits64(1.0));
    const double zero_or_nan = omk_select(in_domain, __builtin_nan(""), x - x);
    return omk_select(unit, copysign(K_PIO2_HI, x), zero_or_nan / zero_or_nan);
}

/* asin x = result + *tail to about 2^-60.4 relative, for every x. */
static double asin_f64_dd(double x, double *tail) {
    *tail = 0.0;
    if (!asin_needs_slow_path(x)) {
        const double y = asin_magnitude(fabs(x), tail);
        if (signbit(x)) *tail = -*tail;
        return copysign(y, x);
    }
    return asin_special(x);
}

/* The middle phase, |x| < 1: the rotation step with t to ~2^-104, u^3/6 as a double-double (its u_lo term too)
 * and the series' next terms (K_ASIN_ROT_MID_POLY, below 2^-33 of the result) in binary64: value + tail good
 * to about 2^-88 relative (2^-87.78 measured: f64_rounding_margin). */
static omk_f64_result asin_f64_refine(double x) {
    const asin_rotation r = asin_rotation_lookup(fabs(x), 1);
    double u_lo_half, e1, e2;
    const double u_hi = asin_rotation_u(&r, &u_lo_half);
    const double u_lo = 2.0 * u_lo_half;
    const double z = u_hi * u_hi, z_err = omk_fma(u_hi, u_hi, -z);
    const double u3 = u_hi * z, u3_err = omk_fma(u_hi, z, -u3) + u_hi * z_err;
    const double sixth = 1.0 / 6, sixth_lo = omk_fma(-6.0, sixth, 1.0) / 6; /* 1/6 as a double-double */
    const double q = u3 * sixth, q_err = omk_fma(u3, sixth, -q) + (u3 * sixth_lo + u3_err * sixth);
    const double series = (u3 * z) * omk_horner(z, K_ASIN_ROT_MID_POLY, K_ASIN_ROT_MID_POLY_COUNT);
    double sum = omk_two_sum(r.y_hi, u_hi, &e1);
    sum = omk_two_sum(sum, q, &e2);
    const double rest = ((r.y_lo + u_lo) + (e1 + e2)) + ((q_err + 0.5 * z * u_lo) + series);
    const double value = sum + rest;
    const uint64_t flip = asin_rotation_flip(x);
    const omk_f64_result result = {omk_double_from_bits(omk_bits64(value) ^ flip),
                                   omk_double_from_bits(omk_bits64(rest - (value - sum)) ^ flip)};
    return result;
}

/* a + v in fixed point for |v| < 1 (|v| < 2^-200 counts as 0: below the phase's error anyway). */
static omk_fix fix_add_double(omk_fix a, double v) {
    if (!(fabs(v) >= 0x1p-200)) return a;
    const omk_fix zero = {{0, 0, 0, 0}}, magnitude = omk_fix_from_double(fabs(v));
    return omk_fix_sub(a, v > 0 ? omk_fix_sub(zero, magnitude) : magnitude);
}

/* a - b as a binary64 (a, b in [0, 1)). */
static double fix_difference(omk_fix a, omk_fix b) {
    return omk_fix_less(a, b) ? -omk_fix_to_double(omk_fix_sub(b, a)) : omk_fix_to_double(omk_fix_sub(a, b));
}

/* The last phase, 2^-26 <= |x| < 1: two Newton steps in 256-bit fixed point from the middle phase's result
 * (start, about 2^-88): on sin y = |x| for |x| <= 0.7 (y <= 0.776), else on cos y' = |x| for y' = pi/2 - y <=
 * 0.796, with sin and cos by Taylor series (omk_fix_cos_sin) and each correction (f(y) - |x|)/f'(y) in binary64:
 * each step leaves about 2^-52 of the correction it applies, and the series and products cost below 2^-200
 * absolute, so the result is good to better than 2^-170 relative before its one rounding (f64_rounding_margin
 * measures it against MPFR). asin_f64_fixed_unrounded gives asin |x| / 2^*exponent before the rounding.
 * |x| < 2^-26 rounds to x: asin x = x (1 + x^2/6 + ...) with x^2/6 < 2^-54.5. */
static omk_fix asin_f64_fixed_unrounded(double x, omk_f64_result start, int *exponent) {
    const double ax = fabs(x);
    const omk_fix x_fix = omk_fix_from_double(ax);
    const double y_hi = fabs(start.value), y_lo = signbit(start.value) ? -start.tail : start.tail;
    omk_fix sin_y, cos_y;
    if (ax <= 0.7) {
        omk_fix y = fix_add_double(omk_fix_from_double(y_hi), y_lo);
        for (int step = 0; step < 2; step++) {
            omk_fix_cos_sin(y, &cos_y, &sin_y);
            y = fix_add_double(y, fix_difference(x_fix, sin_y) / omk_fix_to_double(cos_y));
        }
        *exponent = 0;
        return y;
    }
    /* y' = pi/2 - y: K_PIO2_HI - y_hi is exact (y_hi >= asin 0.7 > 1/2: both multiples of 2^-53, difference < 1) */
    omk_fix y_comp = fix_add_double(omk_fix_from_double(K_PIO2_HI - y_hi), K_PIO2_LO - y_lo);
    for (int step = 0; step < 2; step++) {
        omk_fix_cos_sin(y_comp, &cos_y, &sin_y);
        y_comp = fix_add_double(y_comp, fix_difference(cos_y, x_fix) / omk_fix_to_double(sin_y));
    }
    /* asin |x| = 2 (pi/4 - y'/2), which fits the fixed-point range [0, 1); the doubling is exact */
    *exponent = 1;
    return omk_fix_sub(omk_fix_from_words(K_FIX_PI_OVER_4), omk_fix_scale(y_comp, -1));
}

static double asin_f64_fixed(double x, omk_f64_result start) {
    if (fabs(x) < 0x1p-26) return x;
    int exponent;
    const omk_fix magnitude = asin_f64_fixed_unrounded(x, start, &exponent);
    const double half_or_whole = omk_fix_to_double(magnitude);
    return copysign(exponent ? 2.0 * half_or_whole : half_or_whole, x);
}

/* The correctly rounded binary64 asin for the lanes the fast path's rounding test rejects (|x| >= 1 and NaN, which the
 * array loops give asin_special, only in one-element use): the middle phase settles all but about 2^-26 of them, the
 * fixed-point phase the rest. */
OMK_RARE_PATH static double asin_f64_accurate(double x) {
    if (!(fabs(x) < 1.0)) {
        double tail;
        return asin_f64_dd(x, &tail); /* +-1 -> +-pi/2 rounded, NaN, |x| > 1 invalid */
    }
    const omk_f64_result r = asin_f64_refine(x);
    if (omk_fma(r.tail, OMK_ROUNDING_FACTOR(OMK_F64_REFINE_EPS), r.value) == r.value) return r.value;
    return asin_f64_fixed(x, r);
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
    const double w = omk_fma(-0.5, ax, 0.5); /* exact for |x| >= 1/2, the lanes that use it */
    const float s_f = omk_sqrtf(omk_fmaf(-0.5f, ax_f, 0.5f));
    /* s_f >= 2^-13 in every lane that is not redone; the 2^-126 keeps |x| = 1 off a division by 0 */
    const double s0 = (double)s_f, half_inv_s0 = (double)(0.5f / (s_f + 0x1p-126f));
    const double s = omk_fma(omk_fma(-s0, s0, w), half_inv_s0, s0), ax2 = ax * ax;
    const double v = s < ax ? s : ax, z = w < ax2 ? w : ax2;
    const double asin_v = omk_fma(v * z, omk_horner(z, K_ASIN_POLY_F32, K_ASIN_POLY_F32_COUNT), v);
    return ax >= 0.5 ? omk_fma(-2.0, asin_v, K_PIO2_HI) : asin_v; /* pi/2 - 2 asin s */
}

/* One pass: split after the square root as cos's is after its reduction, binary32 asin took 1.13 of the time with
 * AVX-512 and 1.08 with AVX2 (omk_ab on AMD Zen 5). The stages exist for the array loop's generic code only. */
#define asin_F32_STAGED 0
static inline double asin_f32_reduce(float x, double *aux) {
    *aux = 0.0;
    return (double)x;
}
static inline double asin_f32_evaluate(double x, double aux) {
    (void)aux;
    return asin_f32_fast((float)x);
}
/* no block-wide reduction shortcut (cos_F32_NEAR_LIMIT_BITS) */
#define asin_F32_NEAR_LIMIT_BITS 0u
#define asin_F32_NEAR_AUX        0.0
static inline double asin_f32_reduce_near(float x) { return (double)x; }

/* No second paths: |x| >= 1 is special. In binary64 the rounding test alone sends those lanes on (the fast path
 * gives NaN for |x| > 1, NaN and infinities, and for |x| = 1 pi/2 rounded correctly, or NaN in the AVX-512 build:
 * asin_f64_t_lo_group; test_f64_accurate checks it),
 * so the array loop skips its |x| reduction (OMK_ARRAY_LOOP_F64). */
#define asin_F32_HUGE_END_BITS 0x3f800000u
#define asin_f32_huge          asin_f32_fast
#define asin_F64_HUGE_END_BITS 0x3ff0000000000000ull
#define asin_f64_huge          asin_f64_fast
/* Rounding test of the binary64 fast path (OMK_ARRAY_LOOP_F64) for an error bound of 2^-68: about 17 times the largest
 * error found (2^-72.07, next to the first cell's edge: f64_rounding_margin --search 30000000 200) and 11 times a rough
 * a-priori estimate (four binary64 roundings on the rest, at most 2^-20.6 of the result in the first cell and 2^-21
 * elsewhere, and t to about 2^-76: 2^-71.5). It sends 1 lane in 16,400 to 20,000 to asin_f64_accurate over
 * f64_rounding_margin's input sets (1 in 24,000 lie within 2^-68 of a midpoint; the test's margin rejects some
 * more). */
#define asin_F64_EPS             0x1p-68
#define asin_F64_ROUNDING_FACTOR OMK_ROUNDING_FACTOR(asin_F64_EPS)

/* The sign goes on after narrowing, which spares converting x to binary64 a second time. */
static inline float asin_f32_finish(float x, float magnitude) { return copysignf(magnitude, x); }

/* binary16 and bfloat16 in the AVX-512 build (OMK_ARRAY_LOOP_16): the binary32 split in plain binary32 arithmetic,
 * asin |x| = v + v^3 A(z) with K_ASIN_POLY_H (2^-23.41) or pi/2 - 2 asin s, s = sqrtf((1 - |x|)/2) (exact argument).
 * Within 2.83 binary32 ulps of the result; every 16-bit input the rounding test (asin_H_GUARD, 1 as for cos) passes
 * rounds correctly (half_guard_check). */
static inline float asin_h_fast(float ax) {
    const float w = omk_fmaf(-0.5f, ax, 0.5f), s = omk_sqrtf(w), ax2 = ax * ax;
    const float v = s < ax ? s : ax, z = w < ax2 ? w : ax2;
    const float asin_v = omk_fmaf(v * z, omk_horner_f32(z, K_ASIN_POLY_H, K_ASIN_POLY_H_COUNT), v);
    return ax >= 0.5f ? omk_fmaf(-2.0f, asin_v, K_PIO2_F32_1) : asin_v;
}
/* One pass (its stages exist for the array loop's generic code only): the result of the square root stage would be
 * two values. */
#define asin_H_STAGED 0
static inline float asin_h_reduce(float ax) { return ax; }
static inline float asin_h_evaluate(float ax) { return asin_h_fast(ax); }
#define asin_H_GUARD 1u
static inline float asin_h_reduce_near(float ax) { return ax; }
#define asin_F16_NEAR_LIMIT_BITS  0u /* no block-wide shortcut (cos_F16_NEAR_LIMIT_BITS) */
#define asin_BF16_NEAR_LIMIT_BITS 0u
#define asin_F16_LIMIT_BITS       0x3c01u /* |x| > 1, NaN and infinities read the table */
#define asin_BF16_LIMIT_BITS      0x3f81u

/* The eight entry points of this ISA build (omk_internal.h): asin is odd. */
OMK_DEFINE_KERNELS(asin, 0x8000)
