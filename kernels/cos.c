/* omk cos for binary64, binary32, binary16 and bfloat16.
 *
 * binary64, correctly rounded. Fast path, |x| < 2^20 (cos_f64_fast, vectorized): table step
 *   x = k pi/512 + r, |r| <= pi/1024, r a double-double from pi/512 in three binary64 parts (the first
 *   product exact through an fma); cos x = A cos r + B sin r, A = cos(m pi/512), B = -sin(m pi/512),
 *   m = k mod 1024, double-doubles from row m of a 1024-row table (trig_reduce.sollya; the vector builds read a
 *   lane's row with one load, in a pass between the index and the rest: omk_read_rows4), and
 *   cos r - 1, sin r - r from polynomials of degree 6 and 7 in r (cos_poly.h: 2^-87.80 and 2^-76.76
 *   relative on |r| <= pi/1024). A + B r_hi is summed error-free; the rest, below 2^-16.96 of the result
 *   near the zeros of cos and far smaller elsewhere, in binary64, and the result is value + tail.
 * Finite |x| >= 2^20 (cos_f64_huge, vectorized): the same table step after a Payne-Hanek reduction in
 *   binary64 (exact products of 24- and 29-bit parts of |x| with 24-bit chunks of 2/pi, error-free sums;
 *   r to ~2^-68 relative even for the binary64 closest to a multiple of pi/2).
 * Both are within 2^-67.96 relative (largest error of value + tail over 8 10^6 samples from uniform,
 *   log-uniform, near-zero and cell-edge input sets, and 2^-69.11 at the double nearest a multiple of pi/2 in each
 *   binade and its neighbours: ./build/f64_rounding_margin; 2^-67.82, and 2^-67.71 for
 *   |x| >= 2^20, after a search for larger errors: ./build/f64_rounding_margin --search 30000000 200); a
 *   rounding test for the bound 2^-66 (OMK_ARRAY_LOOP_F64, cos_F64_ROUNDING_FACTOR) passes all but about 1 lane
 *   in 4,000, and those are redone by cos_f64_accurate: the same table step in double-double (2^-87.31, about
 *   40 ns), and for the few it cannot settle and |x| >= 2^20, Payne-Hanek and Taylor series in 256-bit fixed
 *   point (about 0.3 us; both times on AMD Zen 5, printed by f64_rounding_margin). Measured: 0 misrounded over
 *   10^8 samples (ulpbench accuracy --op cos --dtype f64 --impl omk --samples 100000000 --reference fast) and on
 *   the 57 cos rows of the hard-case table (ctest).
 * cos_f64_dd (one element at a time: the accurate path of binary32; the 16-bit tables in the scalar
 *   build): x = k pi/2 + r, |r| <= pi/4, r = r_hi + r_lo:
 *     |x| < 2^20: Cody-Waite with pi/2 in four parts (33 + 33 + 53 + 53 bits, trig_reduce.h),
 *                 exact products and error-free sums (~100 correct bits);
 *     |x| >= 2^20: Payne-Hanek in 256-bit fixed point (reduce_fixed, shared with cos_f64_fixed), r to about
 *                 2^-106 relative even for the binary64 closest to a multiple of pi/2 (|r| ~ 2^-61).
 *   cos r = 1 - r^2/2 + r^4 C(r^2), sin r = r + r^3 S(r^2), C and S of degree 6 and 9 in r^2
 *   (cos_poly.h from cos.sollya: relative errors 2^-68.97 and 2^-64.25); the two leading
 *   correction terms are double-doubles summed error-free, so result + tail is good to ~2^-62.
 * binary32 (cos_f32_fast for |x| < 2^20, cos_f32_huge beyond, both vectorized): cos |x| =
 *   -+sin(|x| - (2k+1) pi/2) with one odd polynomial of degree 13 on |r| <= pi/2 (K_SIN_POLY_F32,
 *   2^-43.72), in binary64, the reduction by Cody-Waite below 2^20 and by Payne-Hanek on 24-bit
 *   chunks of 2/pi beyond (the vector builds reduce a block whose |x| all lie below pi with k = 0 known, the same
 *   arithmetic without k: cos_f32_reduce_near); a result within OMK_F32_GUARD of a binary32 rounding boundary is redone
 *   through cos_f64_dd and rounded from its double-double. Measured: the fast path stays within
 *   618.32 binary64 ulps of the double-double result (guard 8192; ./build/f32_guard_check), 0 of
 *   2^32 inputs misrounded (ulpbench accuracy --op cos --dtype f32 --exhaustive).
 * binary16, bfloat16: the AVX-512 build (except on Intel CPUs with AVX512-FP16, or with OMK_HALF16=compute: omk.c's
 *   omk_half16_compute) computes in binary32 for |x| < 2^16 (cos_h_fast, OMK_ARRAY_LOOP_16):
 *   reduction by two parts of pi/2, sin polynomial of degree 9 (K_SIN_POLY_H, 2^-27.14); within 4.19 (binary16)
 *   and 2.00 (bfloat16) binary32 ulps of the result on every input, narrowed with a rounding test of guard 1 ulp
 *   (a block whose |x| all lie below pi is reduced without k, the same bits: cos_h_reduce_near); every input the
 *   test passes rounds correctly (./build/half_guard_check, in ctest, narrows them all). The lanes it rejects (6 of
 *   the 31,744 finite binary16 magnitudes, no bfloat16 one), the rest, and the other builds and CPUs (or
 *   OMK_HALF16=table) read a table (table16.c) over |x|, filled from the correctly rounded binary64 result narrowed
 *   to 16 bits (never through binary32, whose rounding can land on a 16-bit midpoint; table16.c). Correctly rounded
 *   on all 65,536 inputs either way, max 0.500 ULP (ulpbench accuracy --op cos --dtype f16 --impl omk, and
 *   --dtype bf16; ctest holds every ISA build and both methods to the scalar build on every input).
 * Special values: NaN -> quiet NaN, +-inf -> NaN, +-0 -> 1.
 */
#include <stdint.h>

#include "cos_poly.h"
#include "omk_fixed.h"
#include "omk_internal.h"
#include "omk_table16.h"
#include "trig_reduce.h"

typedef struct {
    double hi, lo; /* reduced argument r = hi + lo, |r| <= pi/4 (1 + 2^-40) */
    unsigned quadrant;
} reduced_arg;

/* Cody-Waite for |x| < 2^20: every step is exact or error-free except the last tail terms.
 * Returns k + 0x1.8p52, whose low mantissa bits are the integer k (the quadrant). */
static inline double reduce_cody_waite(double ax, double *r_hi, double *r_lo) {
    const double k_shifted = ax * K_TWO_OVER_PI + 0x1.8p52; /* round to nearest, |k| < 2^20 */
    const double k = k_shifted - 0x1.8p52;
    const double t1 = ax - k * K_PIO2_1; /* exact: 33-bit K_PIO2_1 */
    double e1, e2;
    const double s1 = omk_two_sum(t1, -(k * K_PIO2_2), &e1); /* k * K_PIO2_2 exact */
    const double w3_hi = k * K_PIO2_3;
    const double w3_lo = omk_fma(k, K_PIO2_3, -w3_hi);
    const double s2 = omk_two_sum(s1, -w3_hi, &e2);
    const double tail = ((e1 + e2) - w3_lo) - k * K_PIO2_4;
    *r_hi = s2 + tail;
    *r_lo = tail - (*r_hi - s2);
    return k_shifted;
}

/* x = k pi/512 + r_hi + r_lo for |x| < 2^20 (|k| < 2^27.35, |r| <= pi/1024 (1 + 2^-40)): the first
 * fma is exact (trig_reduce.h), k K_PIO512_2 is split exactly, and only the K_PIO512_3 term rounds. Every step is odd
 * in x (round to nearest even). Returns k + 0x1.8p52.
 * r1 - w_hi is summed by Fast2Sum although |r1| may be the smaller: r1 is a multiple of 2^-61 (k = 0 gives w_hi = 0)
 * and |w_hi| < 2^-34.5 has an ulp of at most 2^-87, and Fast2Sum(a, b) is exact whenever a is a multiple of ulp(b)
 * (if |a| < |b|, a + b is then a multiple of ulp(b) below 2^54 ulp(b), so s - a is exact, and b - (s - a) is the
 * rounding error of a + b; written (a - s) + b here, the same exact value). */
static inline double reduce_by_pio512(double x, double *r_hi, double *r_lo) {
    const double k_shifted = omk_fma(x, K_512_OVER_PI, 0x1.8p52);
    const double k = k_shifted - 0x1.8p52;
    const double r1 = omk_fma(-k, K_PIO512_1, x);
    const double w_hi = k * K_PIO512_2;
    const double w_lo = omk_fma(k, K_PIO512_2, -w_hi);
    const double s = r1 - w_hi;
    const double e = (r1 - s) - w_hi; /* Fast2Sum, exact (above) */
    *r_hi = s;                        /* not renormalized: |r_lo| <= ulp(s)/2 + 2^-86 serves as well */
    *r_lo = omk_fma(-k, K_PIO512_3, e - w_lo);
    return k_shifted;
}

/* |x| 2/pi = 4n + quadrant + f, |f| <= 1/2, for normal |x| (abs_bits), by Payne-Hanek in 256-bit fixed point from
 * six 64-bit words of 2/pi: the skipped words give multiples of 4 and the words left out weigh below 2^-265, so |f|
 * is within about 2^-200; the smallest |f| of a binary64 is about 2^-62. */
typedef struct {
    omk_fix f_abs;
    unsigned quadrant;
    int f_negative;
} fixed_reduction;

static fixed_reduction reduce_fixed(uint64_t abs_bits) {
    const int e = (int)(abs_bits >> 52) - 1075; /* |x| = m 2^e */
    const uint64_t m = (abs_bits & 0x000fffffffffffffull) | 0x0010000000000000ull;
    const int first = e >= 2 ? (e - 2) / 64 : 0; /* earlier words of 2/pi give multiples of 4 */
    uint64_t product[7];                         /* m * words first..first+5, big-endian (as omk_fix) */
    omk_u128 carry = 0;
    for (int i = 5; i >= 0; i--) {
        const omk_u128 t = (omk_u128)m * K_TWO_OVER_PI_BITS[first + i] + carry;
        product[i + 1] = (uint64_t)t;
        carry = t >> 64;
    }
    product[0] = (uint64_t)carry;
    /* the bit of weight 2^-1, counted from the top of the 448-bit product: 448 - (64 (first + 6) - e) */
    const int half_bit = 448 - 64 * (first + 6) + e;
    fixed_reduction r;
    for (int k = 0; k < 4; k++) r.f_abs.w[k] = omk_words_bits64(product, 7, half_bit + 64 * k);
    r.quadrant = (unsigned)omk_words_bits64(product, 7, half_bit - 64) & 3; /* bits of weight 2 and 1 */
    r.f_negative = (int)(r.f_abs.w[0] >> 63); /* f >= 1/2: take f - 1 in the next quadrant */
    if (r.f_negative) {
        const omk_fix zero = {{0, 0, 0, 0}};
        r.f_abs = omk_fix_sub(zero, r.f_abs);
        r.quadrant = (r.quadrant + 1) & 3;
    }
    return r;
}

/* |f| pi/2 (below pi/4) from reduce_fixed, in 256-bit fixed point. */
static omk_fix fixed_times_pio2(omk_fix f_abs) {
    return omk_fix_scale(omk_fix_mul(f_abs, omk_fix_from_words(K_FIX_PI_OVER_4)), 1);
}

/* Payne-Hanek for cos_f64_dd (|x| >= 2^20): r = f pi/2 as a double-double, good to about 2^-106 relative. */
static reduced_arg reduce_payne_hanek(double ax) {
    const fixed_reduction red = reduce_fixed(omk_bits64(ax));
    const omk_fix g = fixed_times_pio2(red.f_abs);
    const double hi = omk_fix_to_double(g);
    const omk_fix diff = omk_fix_sub(g, omk_fix_from_double(hi)), zero = {{0, 0, 0, 0}};
    const int hi_above = (int)(diff.w[0] >> 63); /* g - hi < 0, wrapped around */
    const double lo_abs = omk_fix_to_double(hi_above ? omk_fix_sub(zero, diff) : diff);
    const double lo = hi_above ? -lo_abs : lo_abs;
    const reduced_arg r = {red.f_negative ? -hi : hi, red.f_negative ? -lo : lo, red.quadrant};
    return r;
}

/* cos(hi + lo) where odd is 0, sin(hi + lo) where odd is all ones, through one shape
 *   A + B (c0 + c1 z + z^2 P(z)),  z = hi^2:
 *   cos: A = 1 - z/2 - lo sin(hi), B = hi^4, c = K_COS_POLY;
 *   sin: A = hi + lo cos(hi),      B = hi^3, c = K_SIN_POLY.
 * A, B c0 (up to 0.1 of the result) and B z c1 (up to 0.003) are double-doubles summed
 * error-free, so the final rounding dominates the error. Lanes pick their coefficients by mask,
 * so a vector evaluates one polynomial whatever its quadrants. */
_Static_assert(K_SIN_POLY_COUNT >= K_COS_POLY_COUNT, "cos coefficients are padded to sin's count");
static inline double trig_reduced(double hi, double lo, uint64_t odd, double *tail) {
    const double z = hi * hi;
    const double z_err = omk_fma(hi, hi, -z);
    const double half_z = 0.5 * z;
    const double w = 1.0 - half_z;
    const double cos_a_lo = ((1.0 - w) - half_z) - omk_fma(0.5, z_err, (hi * lo) * omk_fma(z, -1.0 / 6.0, 1.0));
    const double sin_a_lo = lo * omk_fma(z, omk_fma(z, 1.0 / 24.0, -0.5), 1.0);
    const double a_hi = omk_select(odd, hi, w), a_lo = omk_select(odd, sin_a_lo, cos_a_lo);

    const double b_base = omk_select(odd, hi, z), b_base_err = omk_select(odd, 0.0, z_err);
    const double b = b_base * z; /* hi^3 or hi^4 */
    const double b_err = omk_fma(b_base, z, -b) + (b_base * z_err + b_base_err * z);
    const double c0 = omk_select(odd, K_SIN_POLY[0], K_COS_POLY[0]);
    const double c1 = omk_select(odd, K_SIN_POLY[1], K_COS_POLY[1]);
    const double lead = b * c0;
    const double lead_err = omk_fma(b, c0, -lead) + b_err * c0;
    const double bz = b * z;
    const double bz_err = omk_fma(b, z, -bz) + (b_err * z + b * z_err);
    const double next = bz * c1;
    const double next_err = omk_fma(bz, c1, -next) + bz_err * c1;

    /* P from coefficient 2 up; cos's shorter table reads as zeros at the top, which Horner's
     * fma(0, z, c) = c turns into an exact start. */
    double p = omk_select(odd, K_SIN_POLY[K_SIN_POLY_COUNT - 1],
                          K_SIN_POLY_COUNT == K_COS_POLY_COUNT ? K_COS_POLY[K_COS_POLY_COUNT - 1] : 0.0);
#pragma GCC unroll 16
    for (int j = K_SIN_POLY_COUNT - 2; j >= 2; j--)
        p = omk_fma(p, z, omk_select(odd, K_SIN_POLY[j], j < K_COS_POLY_COUNT ? K_COS_POLY[j] : 0.0));
    const double rest = (bz * z) * p;

    double err1, err2;
    const double sum1 = omk_two_sum(a_hi, lead, &err1);
    const double sum = omk_two_sum(sum1, next, &err2);
    const double small = (err1 + err2) + (a_lo + ((lead_err + next_err) + rest));
    const double y = sum + small;
    *tail = small - (y - sum);
    return y;
}

/* Quadrant k (low bits of k_shifted): odd quadrants take sin, quadrants 1 and 2 negate. */
static inline uint64_t quadrant_odd_mask(uint64_t k) { return 0 - (k & 1); }
static inline uint64_t quadrant_sign(uint64_t k) { return ((k + 1) & 2) << 62; }

#define cos_FAST_LIMIT 0x1p20
static inline int cos_needs_slow_path(double x) { return !(fabs(x) < cos_FAST_LIMIT); }

/* The table step of the binary64 fast paths, branch-free so that compilers vectorize loops over it:
 *   x = k pi/512 + r, |r| <= pi/1024 (double-double r = hi + lo), m = k mod 1024,
 *   cos x = A cos r + B sin r,  A = cos(m pi/512), B = -sin(m pi/512) (double-doubles, trig_reduce.h),
 *         = A + B hi + [A (cos r - 1) + B (sin r - r) + lo (B - A hi) + A_lo + B_lo hi],
 * cos r - 1 and sin r - r from short polynomials (K_COS_SMALL_POLY, K_SIN_SMALL_POLY). A + B hi is
 * summed error-free (|A| >= sin(pi/512) > |B hi| unless A = 0) and the bracket, below r^2/2 + |r|^3/6
 * relative to the result (2^-16.96 when cos(m pi/512) is the smallest nonzero entry), in binary64; the
 * result is value + tail (Fast2Sum), within 2^-67.82 relative as measured (f64_rounding_margin --search 30000000 200).
 * Odd symmetry of every step makes cos(-x) == cos(x) bit for bit without taking |x|. */
typedef struct {
    double a_hi, a_lo, b_hi, b_lo; /* A = cos(m pi/512), B = -sin(m pi/512) as double-doubles */
} cos_step_entry;

static inline cos_step_entry cos_step_lookup(uint64_t k) {
    const uint64_t m = k & 1023; /* two's complement k mod 1024, also for negative k */
    /* indexed in full, as in OMK_DEFINE_F64_FAST */
    const cos_step_entry entry = {K_COS_STEP_ROWS[m][0], K_COS_STEP_ROWS[m][1], K_COS_STEP_ROWS[m][2],
                                  K_COS_STEP_ROWS[m][3]};
    return entry;
}

/* The table step from the row's values. */
static inline omk_f64_result cos_table_step_row(double hi, double lo, double a_hi, double a_lo, double b_hi,
                                                double b_lo) {
    const double z = hi * hi;
    const double p = b_hi * hi;
    const double p_err = omk_fma(b_hi, hi, -p);
    const double sum = a_hi + p;
    const double sum_err = p - (sum - a_hi); /* Fast2Sum */
    /* A (cos r - 1) + B (sin r - r) = z (A (C(z) z - 1/2) + B hi S(z)) */
    const double cos_part = omk_fma(z, omk_horner(z, K_COS_SMALL_POLY, K_COS_SMALL_POLY_COUNT), -0.5);
    const double sin_part = p * omk_horner(z, K_SIN_SMALL_POLY, K_SIN_SMALL_POLY_COUNT);
    const double series = z * omk_fma(a_hi, cos_part, sin_part);
    const double small = ((sum_err + p_err) + omk_fma(b_lo, hi, a_lo)) + omk_fma(lo, omk_fma(-a_hi, hi, b_hi), series);
    const double y = sum + small;
    const omk_f64_result result = {y, small - (y - sum)}; /* Fast2Sum */
    return result;
}

static inline omk_f64_result cos_table_step(uint64_t k, double hi, double lo) {
    const cos_step_entry t = cos_step_lookup(k);
    return cos_table_step_row(hi, lo, t.a_hi, t.a_lo, t.b_hi, t.b_lo);
}

/* binary64 |x| < 2^20 in two stages: the reduction, which gives the row index of K_COS_STEP_ROWS and r = hi + lo
 * (*aux, *aux2), then the table step from r and the row's values; other lanes give garbage and are redone. Carrying r
 * from the vector builds' index pass, rather than reducing again in the main pass, made double cos take 0.87-0.88 of
 * the time with AVX-512 and 0.85-0.86 with AVX2 on AMD Zen 5 (omk_ab, same outputs; the scalar build, one pass either
 * way, 1.01-1.02). */
static inline int64_t cos_f64_row(double x, double *aux, double *aux2) {
    return (int64_t)(omk_bits64(reduce_by_pio512(x, aux, aux2)) & 1023);
}

static inline omk_f64_result cos_f64_fast_rows(double x, double aux, double aux2, double a_hi, double a_lo, double b_hi,
                                               double b_lo) {
    (void)x;
    return cos_table_step_row(aux, aux2, a_hi, a_lo, b_hi, b_lo);
}

/* One main pass: split after A + B hi (the terms without the series in a pass of their own), double cos took 1.03-1.08
 * of the time (omk_ab on AMD Zen 5). The stages exist for the array loop's generic code only. */
#define cos_F64_SPLIT      0
#define cos_F64_ROWS_EXTRA 0
static inline double cos_f64_carry(double hi, double lo) { return (void)hi, lo; }
static inline omk_f64_result cos_f64_rows_first(double x, double hi, double lo, double a_hi, double a_lo, double b_hi,
                                                double b_lo) {
    (void)x, (void)hi, (void)lo, (void)a_hi, (void)a_lo, (void)b_hi, (void)b_lo;
    const omk_f64_result unused = {0.0, 0.0};
    return unused;
}
static inline omk_f64_result cos_f64_rows_second(double x, double hi, double lo, double a_hi, double a_lo, double b_hi,
                                                 double b_lo, double first_value, double first_tail) {
    (void)first_value, (void)first_tail;
    return cos_f64_fast_rows(x, hi, lo, a_hi, a_lo, b_hi, b_lo);
}
#define cos_F64_ROWS K_COS_STEP_ROWS
OMK_DEFINE_F64_FAST(cos)

/* binary64 |x| >= 2^20, finite, vectorized (the array loops run it on the blocks that hold such x):
 * Payne-Hanek in binary64 for the table step, t = |x| 2/pi mod 4, then x = k pi/512 + r with
 * k = round(256 t). |x| = x_hi + x_lo splits at 2^24 ulps (29 + 24 bits), so each part times a 24-bit
 * chunk of 2/pi (K_TWO_OVER_PI_INT24) is exact. With b = floor((E + 22)/24) for |x| = M 2^E (b >= 0),
 * the chunks before b give multiples of 4 with x_lo and those up to b with x_hi; level j pairs
 * x_lo with chunk b + j and x_hi with chunk b + j + 1, both multiples of 2^(E - 24(b + j)), below
 * 2^(49 - 24j) and 2^(54 - 24j). Levels 0 and 1 are reduced mod 16 (exact), levels 0..3 summed with
 * error-free sums into the head that gives k, and the tail (levels 4..7 and the sums' errors) as a
 * double-double; beyond level 7 the chunks add below 2^-137. So t is known to ~2^-130 absolute,
 * and r keeps ~2^-68 relative even for the binary64 closest to a multiple of pi/2 (|r| ~ 2^-61).
 * Lanes below 2^20, infinities and NaN read the table in bounds and give garbage. */
/* The multiple of 16 nearest v, for |v| < 2^55. */
static inline double nearest_multiple_of_16(double v) { return (v + 0x1.8p56) - 0x1.8p56; }

static inline omk_f64_result cos_f64_huge(double x) {
    const uint64_t abs_bits = omk_bits64(x) & 0x7fffffffffffffffull;
    const double ax = omk_double_from_bits(abs_bits);
    const int64_t e_plus_22 = (int64_t)(abs_bits >> 52) - 1053;
    /* 43691 / 2^20 divides by 24 exactly for 0 <= e_plus_22 <= 994; b <= 41, also for inf/NaN */
    const uint64_t b = ((uint64_t)(e_plus_22 > 0 ? e_plus_22 : 0) * 43691u) >> 20;
    const double x_hi = omk_double_from_bits(abs_bits & ~0xffffffull);
    const double x_lo = ax - x_hi;
    const double scale = omk_double_from_bits((1023 - 24 * b) << 52); /* 2^(-24b) */
    double lo_part = x_lo * scale, hi_part = (x_hi * scale) * 0x1p-24, p_lo[8], p_hi[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        p_lo[j] = lo_part * K_TWO_OVER_PI_INT24[b + j];
        p_hi[j] = hi_part * K_TWO_OVER_PI_INT24[b + j + 1];
        lo_part *= 0x1p-24;
        hi_part *= 0x1p-24;
    }
    const double a_lo0 = p_lo[0] - nearest_multiple_of_16(p_lo[0]), a_hi0 = p_hi[0] - nearest_multiple_of_16(p_hi[0]);
    const double a_lo1 = p_lo[1] - nearest_multiple_of_16(p_lo[1]), a_hi1 = p_hi[1] - nearest_multiple_of_16(p_hi[1]);
    double e[6];
    double head = a_lo0 + a_hi0; /* exact: |.| <= 16, multiples of 2^(E - 24b) >= 2^-32 */
    head = omk_two_sum(head, a_hi1, &e[0]);
    head = omk_two_sum(head, a_lo1, &e[1]);
    head = omk_two_sum(head, p_hi[2], &e[2]);
    head = omk_two_sum(head, p_lo[2], &e[3]);
    head = omk_two_sum(head, p_hi[3], &e[4]);
    head = omk_two_sum(head, p_lo[3], &e[5]);
    /* tail: levels 6 and 7 (below 2^-89) in plain sums, the rest error-free */
    double tail = ((p_lo[7] + p_hi[7]) + p_lo[6]) + p_hi[6], tail_lo = 0.0, err;
    const double rest[] = {p_lo[5], p_hi[5], p_lo[4], p_hi[4], e[5], e[4], e[3], e[2], e[1], e[0]};
#pragma GCC unroll 10
    for (int j = 0; j < 10; j++) {
        tail = omk_two_sum(tail, rest[j], &err);
        tail_lo += err;
    }
    const double k_shifted = 256.0 * head + 0x1.8p52;            /* |256 head| < 2^13 */
    const double f_head = 256.0 * head - (k_shifted - 0x1.8p52); /* exact */
    double f_err;
    const double f_hi = omk_two_sum(f_head, 256.0 * tail, &f_err);
    const double f_lo = f_err + 256.0 * tail_lo;
    /* r = f pi/512, pi/512 = (K_PIO2_HI + K_PIO2_LO)/256 */
    const double r_hi = f_hi * (0x1p-8 * K_PIO2_HI);
    const double r_lo =
        omk_fma(f_hi, 0x1p-8 * K_PIO2_HI, -r_hi) + omk_fma(f_hi, 0x1p-8 * K_PIO2_LO, f_lo * (0x1p-8 * K_PIO2_HI));
    return cos_table_step(omk_bits64(k_shifted), r_hi, r_lo);
}

#define cos_F64_HUGE_END_BITS 0x7ff0000000000000ull /* every finite |x| >= 2^20 */
/* Rounding test of the binary64 fast paths (OMK_ARRAY_LOOP_F64) for an error bound of 2^-66: 3.3 times the largest
 * error found (2^-67.71 on the huge path, 2^-67.82 on the fast one at the table cells next to the zeros of cos:
 * f64_rounding_margin --search 30000000 200), and 2.3 times a rough a-priori estimate (about seven binary64 roundings
 * on the series term, at most 2^-16.96 of the result: 2^-67.2). It sends 1 lane in 3,800 to 4,400 to cos_f64_accurate
 * (f64_rounding_margin). */
#define cos_F64_EPS             0x1p-66
#define cos_F64_ROUNDING_FACTOR OMK_ROUNDING_FACTOR(cos_F64_EPS)

/* cos of NaN and infinities: the NaN quieted, and the invalid operation's NaN. */
static inline double cos_special(double x) { return x - x; }

/* cos x = result + *tail to ~2^-62 relative, for every x (quadrant method, independent of the table step). */
static double cos_f64_dd(double x, double *tail) {
    *tail = 0.0;
    if (isnan(x) || isinf(x)) return cos_special(x);
    reduced_arg r;
    if (!cos_needs_slow_path(x)) {
        r.quadrant = (unsigned)omk_bits64(reduce_cody_waite(fabs(x), &r.hi, &r.lo)) & 3;
    } else {
        r = reduce_payne_hanek(fabs(x));
    }
    const double y = trig_reduced(r.hi, r.lo, quadrant_odd_mask(r.quadrant), tail);
    if (!quadrant_sign(r.quadrant)) return y;
    *tail = -*tail;
    return -y;
}

/* The last phase of the correctly rounded binary64 cos, for finite x: |x| 2/pi mod 4 in 256-bit fixed point
 * (reduce_fixed, for every |x|), x = (q + f) pi/2 with |f| <= 1/2, then cos or sin of |f| pi/2 <= pi/4 by Taylor series
 * (omk_fix_cos_sin), all within about 2^-200 absolute; the smallest |cos x| of a binary64 is about 2^-61, so the result
 * is good to 2^-139 relative before its one rounding (f64_rounding_margin measures it against MPFR). |x| < 2^-27 rounds
 * to 1: 1 - x^2/2 lies above 1 - 2^-55. cos_f64_fixed_unrounded gives |cos x| before the rounding, for finite
 * |x| >= 2^-27, and whether cos x is negative. */
static omk_fix cos_f64_fixed_unrounded(uint64_t abs_bits, int *negative) {
    const fixed_reduction red = reduce_fixed(abs_bits);
    const unsigned quadrant = red.quadrant;
    const omk_fix g = fixed_times_pio2(red.f_abs); /* |f| pi/2 */
    omk_fix cos_g, sin_g;
    omk_fix_cos_sin(g, quadrant & 1 ? NULL : &cos_g, quadrant & 1 ? &sin_g : NULL);
    /* cos(q pi/2 + g): q = 0: cos g, 1: -sin g, 2: -cos g, 3: sin g, with sin g negative when f was */
    *negative = quadrant == 2 || (quadrant == 1 && !red.f_negative) || (quadrant == 3 && red.f_negative);
    return quadrant & 1 ? sin_g : cos_g;
}

static double cos_f64_fixed(double x) {
    const uint64_t abs_bits = omk_abs_bits64(x);
    if (abs_bits < 0x3e40000000000000ull) return 1.0; /* 2^-27 */
    int negative;
    const double magnitude = omk_fix_to_double(cos_f64_fixed_unrounded(abs_bits, &negative));
    return negative ? -magnitude : magnitude;
}

/* The middle phase, for 2^-27 <= |x| < 2^20: the fast path's table step with every term that matters in
 * double-double. r = hi + lo from reduce_by_pio512 (absolute error about 2^-138, against |r| >= about 2^-53 where
 * the result depends on r's relative accuracy), A and B to 2^-106, and
 *   cos x = A + B r + A (cos r - 1) + B (sin r - r),
 *   cos r - 1 = -r^2/2 + r^4 (1/24 - r^2/720 + r^4/8!),  sin r - r = -r^3/6 + r^5 (1/120 - r^2/5040 + r^4/9!),
 * the leading terms -r^2/2 and -r^3/6 and all four products as double-doubles, the series' next terms (below
 * 2^-38 of the result) in binary64 and the truncation below 2^-82 relative: value + tail good to about 2^-87
 * relative (2^-87.31 measured: f64_rounding_margin); cos_f64_accurate keeps it when a rounding test for 2^-80
 * passes. */
static omk_f64_result cos_f64_refine(double x) {
    double hi, lo;
    const cos_step_entry t = cos_step_lookup(omk_bits64(reduce_by_pio512(x, &hi, &lo)));
    const double a_hi = t.a_hi, a_lo = t.a_lo, b_hi = t.b_hi, b_lo = t.b_lo;
    const double r2 = hi * hi, r2_lo = omk_fma(hi, hi, -r2) + 2.0 * hi * lo;
    double err;
    const double c =
        omk_two_sum(-0.5 * r2, r2 * r2 * omk_fma(r2, omk_fma(r2, 1.0 / 40320, -1.0 / 720), 1.0 / 24), &err);
    const double c_lo = err - 0.5 * r2_lo;
    const double r3 = hi * r2, r3_lo = omk_fma(hi, r2, -r3) + (hi * r2_lo + lo * r2);
    const double sixth = 1.0 / 6, sixth_lo = omk_fma(-6.0, sixth, 1.0) / 6; /* 1/6 as a double-double */
    const double q = r3 * sixth, q_lo = omk_fma(r3, sixth, -q) + (r3 * sixth_lo + r3_lo * sixth);
    const double s = omk_two_sum(-q, r3 * r2 * omk_fma(r2, omk_fma(r2, 1.0 / 362880, -1.0 / 5040), 1.0 / 120), &err);
    const double s_lo = err - q_lo;
    const double br = b_hi * hi, br_lo = omk_fma(b_hi, hi, -br) + (b_hi * lo + b_lo * hi);
    const double ac = a_hi * c, ac_lo = omk_fma(a_hi, c, -ac) + (a_hi * c_lo + a_lo * c);
    const double bs = b_hi * s, bs_lo = omk_fma(b_hi, s, -bs) + (b_hi * s_lo + b_lo * s);
    double e1, e2, e3;
    double sum = omk_two_sum(a_hi, br, &e1);
    sum = omk_two_sum(sum, ac, &e2);
    sum = omk_two_sum(sum, bs, &e3);
    const double rest = ((e1 + e2) + e3) + (((a_lo + br_lo) + ac_lo) + bs_lo);
    const double y = sum + rest;
    const omk_f64_result result = {y, rest - (y - sum)}; /* Fast2Sum: |rest| is far below |sum| */
    return result;
}

/* The correctly rounded binary64 cos for the lanes the fast path's rounding test rejects (NaN and infinities, which
 * the array loops give cos_special, only in one-element use):
 * the double-double phase settles all but about 2^-26 of them, the fixed-point phase the rest and |x| >= 2^20. */
OMK_RARE_PATH static double cos_f64_accurate(double x) {
    if (isnan(x) || isinf(x)) return cos_special(x);
    const uint64_t abs_bits = omk_abs_bits64(x);
    if (abs_bits >= 0x3e40000000000000ull && abs_bits < omk_bits64(cos_FAST_LIMIT)) { /* 2^-27 <= |x| < 2^20 */
        const omk_f64_result r = cos_f64_refine(x);
        if (omk_fma(r.tail, OMK_ROUNDING_FACTOR(OMK_F64_REFINE_EPS), r.value) == r.value) return r.value;
    }
    return cos_f64_fixed(x);
}

/* binary32: cos |x| = (-1)^(k+1) sin r with r = |x| - (2k+1) pi/2, |r| <= pi/2, so one odd
 * polynomial serves every lane (no per-lane selection). binary64 arithmetic with pi/2 as a
 * double-double through two fmas, relative error below 2^-43.5 for |x| < 2^20.
 * A result within OMK_F32_GUARD of a binary32 rounding boundary is redone through cos_f64_dd and
 * rounded from its double-double. In two stages, which the vector builds run as two passes (OMK_ARRAY_LOOP): the
 * reduction, -r and k + 0x1.8p52 in *aux, then the polynomial and the sign. Split so, the loop took 0.86 of the time
 * with AVX-512 and AVX2 on AMD Zen 5 (omk_ab against one pass, same outputs); the same split of binary32 asin (square
 * root, then polynomial) took 1.13 and 1.08, so asin keeps one. */
static inline double cos_f32_reduce(float x, double *aux) {
    const double ax = (double)omk_float_from_bits(omk_abs_bits32(x));     /* the array loop's |x| bits, shared */
    const double k_shifted = omk_fma(ax, K_ONE_OVER_PI, -0.5) + 0x1.8p52; /* k = round(|x|/pi - 1/2) */
    const double j = omk_fma(2.0, k_shifted - 0x1.8p52, 1.0);             /* odd multiple of pi/2 */
    *aux = k_shifted;
    /* -r = j pi/2 - |x|, exactly the negation of the r below: the inner fma is exact up to one
     * rounding of r + j K_PIO2_LO */
    return omk_fma(j, K_PIO2_LO, omk_fma(j, K_PIO2_HI, -ax));
}

static inline double cos_f32_evaluate(double minus_r, double k_shifted) {
    const double z = minus_r * minus_r;
    const double sin_minus_r = omk_fma(minus_r * z, omk_horner(z, K_SIN_POLY_F32, K_SIN_POLY_F32_COUNT), minus_r);
    /* (-1)^(k+1) sin r = (-1)^k sin(-r): negate when k (the low bit of k_shifted) is odd */
    return omk_double_from_bits(omk_bits64(sin_minus_r) ^ (omk_bits64(k_shifted) << 63));
}

static inline double cos_f32_fast(float x) {
    double k_shifted;
    const double minus_r = cos_f32_reduce(x, &k_shifted);
    return cos_f32_evaluate(minus_r, k_shifted);
}
#define cos_F32_STAGED 1
/* Blocks whose every |x| is below the binary32 nearest pi (the first above it) all have k = 0: the reduction is then
 * cos_f32_reduce's arithmetic with j = 1, and evaluate's sign flip is none. Same bits, fewer operations. */
static inline double cos_f32_reduce_near(float x) {
    const double ax = (double)omk_float_from_bits(omk_abs_bits32(x));
    return (K_PIO2_HI - ax) + K_PIO2_LO;
}
#define cos_F32_NEAR_LIMIT_BITS 0x40490fdbu
#define cos_F32_NEAR_AUX        0x1.8p52

/* binary32 |x| >= 2^20, finite, vectorized (the array loops run it on the blocks that hold such x):
 * Payne-Hanek in binary64. |x| = m 2^E (m < 2^24) times 2/pi's 24-bit chunks from i0 on (the
 * earlier ones give multiples of 4) makes five exact products p0 > ... > p4; p0 and p1 are reduced
 * mod 4 exactly and the sum is carried error-free, so |x| 2/pi = n + f (n integer, |f| <= 1/2)
 * is known to ~2^-100 absolute. With j the nearest odd integer, r = (n + f - j) pi/2 and, as in
 * cos_f32_fast, cos |x| = (-1)^((j+1)/2) sin r with the same polynomial; r keeps ~2^-60 relative
 * even for the binary32 closest to a multiple of pi/2. Other inputs give garbage. */
static inline double cos_f32_huge(float x) {
    const uint32_t abs_bits = omk_bits32(x) & 0x7fffffff;
    const double ax = (double)omk_float_from_bits(abs_bits);
    /* i0 = max(0, floor((E - 2)/24)) for E = biased exponent - 150; 43691 / 2^20 divides by 24 exactly
     * here. Lanes below 2^20 clamp to i0 = 0, so the table reads stay in bounds. */
    const int64_t e_minus_2 = (int64_t)(abs_bits >> 23) - 152;
    const uint64_t i = ((uint64_t)(e_minus_2 > 0 ? e_minus_2 : 0) * 43691u) >> 20; /* <= 4, also for inf/NaN */
    /* ax 2^(-24(i+1)) times the integer chunks i.. (entry i + 1 on), each step 2^-24 lower: exact */
    const double a = ax * omk_double_from_bits((1023 - 24 * (i + 1)) << 52);
    const double p0 = a * K_TWO_OVER_PI_INT24[i + 1], p1 = (a * 0x1p-24) * K_TWO_OVER_PI_INT24[i + 2];
    const double p2 = (a * 0x1p-48) * K_TWO_OVER_PI_INT24[i + 3], p3 = (a * 0x1p-72) * K_TWO_OVER_PI_INT24[i + 4];
    const double p4 = (a * 0x1p-96) * K_TWO_OVER_PI_INT24[i + 5];
    /* p mod 4, exact: p0 < 2^49 and p1 < 2^26 are multiples of 2^-27 and 2^-51 */
    const double a0 = omk_fma(-4.0, (0.25 * p0 + 0x1.8p52) - 0x1.8p52, p0);
    const double a1 = omk_fma(-4.0, (0.25 * p1 + 0x1.8p52) - 0x1.8p52, p1);
    double e2, e3;
    const double hi = omk_two_sum(a0 + a1, p2, &e2); /* a0 + a1 exact: |.| < 4, multiples of 2^-51 */
    const double n = (hi + 0x1.8p52) - 0x1.8p52;
    const double low = omk_two_sum(e2, p3, &e3);
    const double low_lo = e3 + p4;
    const double f_hi = hi - n; /* exact */
    /* j - n: 0 for odd n; +-1 (toward f) for even n, where |r| >= pi/4 needs no extra precision */
    const uint64_t n_odd_mask = 0 - (omk_bits64(n + 0x1.8p52) & 1);
    const double d = omk_select(n_odd_mask, 0.0, copysign(1.0, f_hi));
    double s_err;
    const double s = omk_two_sum(f_hi - d, low, &s_err); /* f_hi - d is exact when d = 0 */
    const double rest = s_err + low_lo;
    const double r = omk_fma(s, K_PIO2_HI, omk_fma(s, K_PIO2_LO, rest * K_PIO2_HI));
    const double z = r * r;
    const double sin_r = omk_fma(r * z, omk_horner(z, K_SIN_POLY_F32, K_SIN_POLY_F32_COUNT), r);
    /* j = n + d odd: +sin r when j = 3 mod 4, -sin r when j = 1 mod 4 */
    const uint64_t j_bits = omk_bits64((n + d) + 0x1.8p52);
    return omk_double_from_bits(omk_bits64(sin_r) ^ ((~j_bits & 2) << 62));
}

#define cos_F32_HUGE_END_BITS 0x7f800000u /* every finite |x| >= 2^20 */

static inline float cos_f32_finish(float x, float y) {
    (void)x;
    return y;
}

/* binary16 and bfloat16 in the AVX-512 build (OMK_ARRAY_LOOP_16), |x| < 2^16, in binary32: cos x = (-1)^k sin d',
 * d = x - (2k - 1) pi/2 and d' = (-1)^k d, with k = rint(x/pi + 1/2) from a binary32 quotient (which may pick the
 * neighbouring k: |d| <= pi/2 * 1.005), reduced in two fmas by two parts of pi/2 (trig_reduce.h; the first is exact;
 * 4.19 ulps at most with two parts, 2.10 with a third), sin d' = d' + d'^3 S(d'^2) with K_SIN_POLY_H (2^-27.14). The
 * parity of k, the last bit of the rounded quotient, shifts straight into the sign bit, so d' alone carries the
 * reduction to the polynomial. Every 16-bit input the rounding test (cos_H_GUARD) passes rounds correctly
 * (half_guard_check). */
static inline float cos_h_reduce(float ax) {
    const float shifted = omk_fmaf(ax, K_ONE_OVER_PI_F32, 0.5f) + 0x1.8p23f; /* 0x1.8p23 + k: k in the low bits */
    const float q = omk_fmaf(2.0f, shifted - 0x1.8p23f, -1.0f);
    const float d = omk_fmaf(-q, K_PIO2_F32_2, omk_fmaf(-q, K_PIO2_F32_1, ax));
    return omk_float_from_bits(omk_bits32(d) ^ (omk_bits32(shifted) << 31));
}
/* A block whose |x| all lie below pi (the limits: the 16-bit values nearest pi, above it) has k = 1 in every lane but
 * the smallest ones (|x| below about 2^-23.3, k = 0): cos_h_reduce with k = 1, which the AVX-512 loop runs in one pass
 * with the polynomial for such blocks. In those smallest lanes d' may be an ulp off the general path's (pi/2 - |x|
 * against pi/2 + |x| rounded), but sin is flat there and both give 1: the same binary32 bits on every input below the
 * limits (half_guard_check); binary16 cos took 0.80-0.81 and bfloat16 0.79-0.80 of the time on [-pi, pi], 1.02 and 1.03
 * on [-10^4, 10^4] (omk_ab against commit 6654d0d in both orders, same outputs). */
static inline float cos_h_reduce_near(float ax) { return -((ax - K_PIO2_F32_1) - K_PIO2_F32_2); }
#define cos_F16_NEAR_LIMIT_BITS  0x4249u
#define cos_BF16_NEAR_LIMIT_BITS 0x404au
static inline float cos_h_evaluate(float d_signed) {
    const float z = d_signed * d_signed;
    return omk_fmaf(d_signed * z, omk_horner_f32(z, K_SIN_POLY_H, K_SIN_POLY_H_COUNT), d_signed);
}
static inline float cos_h_fast(float ax) { return cos_h_evaluate(cos_h_reduce(ax)); }
/* The AVX-512 build runs the two stages as two passes: binary16 cos took 0.96 and bfloat16 cos 0.94 of the time on
 * AMD Zen 5 (omk_ab against one pass, same outputs). */
#define cos_H_STAGED 1
/* Guard 1 (key units, binary32 ulps of the result): the errors reach 4.19 ulps, so the test's pass is not proved by a
 * bound on them; half_guard_check instead narrows every 16-bit input the path takes and finds each lane the test
 * passes correctly rounded. It flags 6 of the 31,744 finite binary16 magnitudes, where guard 8, above the largest
 * error, flagged 52: each flagged lane reads the table and takes a branch that real inputs leave unpredictable
 * (bench/TUNING.md, "16-bit kernels"). */
#define cos_H_GUARD         1u
#define cos_F16_LIMIT_BITS  0x7c00u /* infinities and NaN read the table */
#define cos_BF16_LIMIT_BITS 0x4780u /* |x| >= 2^16 (and infinities, NaN) read the table */

/* The eight entry points of this ISA build (omk_internal.h): cos is even. */
OMK_DEFINE_KERNELS(cos, 0)
