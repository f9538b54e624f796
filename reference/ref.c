#include "ref.h"

#include <math.h>
#include <stdbool.h>
#include <mpfr.h>
#include <string.h>

/* Working precision for the "exact" value: far beyond binary64, so the ULP error printed with
 * three decimals is exact in all its digits. A value that is a binary64 number at this precision without being exact
 * (cos and asin of a tiny x: 1 - cos x or asin x - x lies below 2^-160 of the value) is computed again at up to
 * MAX_EXACT_PRECISION bits, which resolves every binary64 input's (the smallest, asin 2^-1074, needs about 2,160),
 * so that a result equal to its binary64 part reads as the tiny error it has, not as exact. */
enum { EXACT_PRECISION = 160, MAX_EXACT_PRECISION = 4096 };

double ref_decode(const ref_format *fmt, uint64_t bits) {
    const int mant_bits = fmt->precision - 1;
    const int total_bits = 1 + fmt->exp_bits + mant_bits;
    const int negative = (int)((bits >> (total_bits - 1)) & 1);
    const uint64_t exp_field = (bits >> mant_bits) & ((1ull << fmt->exp_bits) - 1);
    const uint64_t mant = bits & ((1ull << mant_bits) - 1);
    const int bias = (1 << (fmt->exp_bits - 1)) - 1;
    double value;
    if (exp_field == (1ull << fmt->exp_bits) - 1)
        value = mant ? NAN : INFINITY;
    else if (exp_field == 0)
        value = ldexp((double)mant, 1 - bias - mant_bits);
    else
        value = ldexp((double)(mant | (1ull << mant_bits)), (int)exp_field - bias - mant_bits);
    return negative ? -value : value;
}

int ref_is_signaling_nan(const ref_format *fmt, uint64_t bits) {
    const int mant_bits = fmt->precision - 1;
    const uint64_t exp_field = (bits >> mant_bits) & ((1ull << fmt->exp_bits) - 1);
    const uint64_t mant = bits & ((1ull << mant_bits) - 1);
    return exp_field == (1ull << fmt->exp_bits) - 1 && mant != 0 && !(mant >> (mant_bits - 1));
}

static int mpfr_apply(ref_op op, mpfr_t y, const mpfr_t x, mpfr_rnd_t rnd) {
    switch (op) {
    case REF_COS:
        return mpfr_cos(y, x, rnd);
    case REF_ASIN:
        return mpfr_asin(y, x, rnd);
    }
    return 0;
}

void ref_eval(ref_op op, const ref_format *fmt, double x, ref_value *out) {
    mpfr_t mx, exact, rounded, rest;
    mpfr_inits2(53, mx, (mpfr_ptr)0);
    mpfr_init2(exact, EXACT_PRECISION);
    mpfr_init2(rounded, fmt->precision);
    mpfr_init2(rest, EXACT_PRECISION);
    mpfr_set_d(mx, x, MPFR_RNDN); /* exact: every format here fits in binary64 */

    /* Correct rounding in the target format: restrict the exponent range to the format's, then
     * let mpfr_subnormalize apply the subnormal rounding exactly once. */
    const int bias = (1 << (fmt->exp_bits - 1)) - 1;
    const mpfr_exp_t saved_emin = mpfr_get_emin(), saved_emax = mpfr_get_emax();
    mpfr_set_emin(1 - bias - fmt->precision + 2);
    mpfr_set_emax(bias + 1);
    int ternary = mpfr_apply(op, rounded, mx, MPFR_RNDN);
    ternary = mpfr_check_range(rounded, ternary, MPFR_RNDN);
    mpfr_subnormalize(rounded, ternary, MPFR_RNDN);
    out->rounded = mpfr_get_d(rounded, MPFR_RNDN);
    mpfr_set_emin(saved_emin);
    mpfr_set_emax(saved_emax);

    /* for cos and asin of a tiny x the part beyond the binary64 value lies about x^2 below it: when 160 bits do not
     * reach it, that precision comes next, then the largest */
    int x_exp = 0;
    frexp(x, &x_exp);
    const mpfr_prec_t tiny_x_prec = x_exp < 0 ? -2 * (mpfr_prec_t)x_exp + 96 : 0;
    const mpfr_prec_t precisions[3] = {
        EXACT_PRECISION, tiny_x_prec > 2 * EXACT_PRECISION ? tiny_x_prec : 2 * EXACT_PRECISION, MAX_EXACT_PRECISION};
    int exact_ternary = 0;
    for (int k = 0; k < 3 && (k == 0 || (exact_ternary != 0 && mpfr_zero_p(rest))); k++) {
        mpfr_set_prec(exact, precisions[k]);
        mpfr_set_prec(rest, precisions[k]);
        exact_ternary = mpfr_apply(op, exact, mx, MPFR_RNDN);
        out->exact_hi = mpfr_get_d(exact, MPFR_RNDN); /* the same after k = 0: the value lies within 2^-160 of it */
        mpfr_sub_d(rest, exact, out->exact_hi, MPFR_RNDN);
    }
    out->exact_lo = mpfr_get_d(rest, MPFR_RNDN);
    out->exact = exact_ternary == 0 && mpfr_zero_p(rest);

    /* ulp in the binade of the exact value: 2^(e - p + 1) with 2^e <= |f(x)| < 2^(e+1),
     * never below the format's subnormal spacing. */
    out->ulp = NAN;
    if (mpfr_regular_p(exact)) {
        const int emin_normal = 1 - bias;
        long e = (long)mpfr_get_exp(exact) - 1; /* MPFR: |v| in [2^(exp-1), 2^exp) */
        /* f(x) within 2^-MAX_EXACT_PRECISION below a power of two rounds up to it: the ternary value says the true
         * magnitude is smaller, so its binade is the one below. (A value merely within binary64's range of it, whose
         * low part underflows to 0, has its own exponent in MPFR already: the test is on MPFR's rest.) */
        int mantissa_exp;
        const int power_of_two = frexp(fabs(out->exact_hi), &mantissa_exp) == 0.5 && mpfr_zero_p(rest);
        if (power_of_two && exact_ternary != 0 && (exact_ternary > 0) == (out->exact_hi > 0)) e--;
        if (e < emin_normal) e = emin_normal;
        out->ulp = ldexp(1.0, (int)(e - fmt->precision + 1));
    } else if (mpfr_zero_p(exact)) {
        out->ulp = ldexp(1.0, 1 - bias - fmt->precision + 1);
    }
    out->exact_lo_ulps = 0.0;
    if (isfinite(out->ulp)) {
        mpfr_mul_2si(rest, rest, -ilogb(out->ulp), MPFR_RNDN); /* exact: MPFR's own exponent range is restored */
        out->exact_lo_ulps = mpfr_get_d(rest, MPFR_RNDA);
    }
    mpfr_clears(mx, exact, rounded, rest, (mpfr_ptr)0);
}

/* Whether y - h is exact in binary64 (the rounding error of the difference, by Knuth's TwoSum, is 0). */
static bool difference_is_exact(double y, double h) {
    const double d = y - h, h_part = y - d;
    return (y - (d + h_part)) + (h_part - h) == 0;
}

double ref_ulp_error(const ref_value *v, double y) {
    if (v->exact && y == v->exact_hi) return 0.0;
    int mantissa_exp;
    const bool below_power_of_two =
        v->exact && v->exact_hi != 0 && frexp(fabs(v->exact_hi), &mantissa_exp) == 0.5 && fabs(y) < fabs(v->exact_hi);
    const double unit = below_power_of_two ? v->ulp / 2 : v->ulp;
    /* y - exact_hi is exact when they are close (Sterbenz), and so is its division by a power of two; far apart, a
     * rounded difference is still an accurate error. The low part comes in ulps: in units of the value it underflows
     * for tiny results (asin of a tiny x). */
    const double low = below_power_of_two ? 2 * v->exact_lo_ulps : v->exact_lo_ulps;
    const double scaled = (y - v->exact_hi) / unit, unrounded = scaled - low;
    double error = fabs(unrounded);
    /* A low part that vanishes beside the difference still decides on which side of it the exact error lies (low is
     * rounded away from zero, so its sign is the exact one): when it points away from y, the next double up stands for
     * the error, so that such an error never reads as less than it is. Else asin of a flushed bfloat16 subnormal
     * (2^-133 (1 + 2^-268.6) returned as 0) would read 1 ulp, and pass a gate or fill a histogram bin of 1 ulp. */
    if (low != 0 && unrounded == scaled && signbit(low) != signbit(scaled) && difference_is_exact(y, v->exact_hi))
        error = nextafter(error, INFINITY);
    if (error > REF_ULP_ERROR_MAX) error = REF_ULP_ERROR_MAX; /* infinity too */
    /* A result other than the correctly rounded one lies more than half an ulp from f(x), which no midpoint holds
     * (f(x) is exact only for x = 0). Next to a power of two the excess can fall below the subtraction's rounding
     * (asin 2^-38 in binary32 is 2^-38 (1 + 2^-78), and the binary32 below it lies 0.5 + 2^-54 ulp away): the next
     * double above 0.5 then stands for it, so that such a result never counts as within half an ulp. */
    if (error <= 0.5 && !v->exact && y != v->rounded && isfinite(y) && isfinite(v->rounded)) return nextafter(0.5, 1.0);
    return error;
}

ref_verdict ref_compare(const ref_value *v, double y) {
    const int expect_nan = isnan(v->rounded), got_nan = isnan(y);
    if (expect_nan || got_nan) return expect_nan && got_nan ? REF_MATCH : REF_SPECIAL_MISMATCH;
    if (isinf(v->rounded) || isinf(y)) return y == v->rounded ? REF_MATCH : REF_SPECIAL_MISMATCH;
    if (v->rounded == 0.0 && y == 0.0) return signbit(v->rounded) == signbit(y) ? REF_MATCH : REF_SPECIAL_MISMATCH;
    return y == v->rounded ? REF_MATCH : REF_MISROUNDED;
}

int ref_team_size(int wanted) { return mpfr_buildopt_tls_p() ? wanted : 1; }

void ref_free_cache(void) { mpfr_free_cache(); }

const char *ref_mpfr_version(void) { return mpfr_get_version(); }
