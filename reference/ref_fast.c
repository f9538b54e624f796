/* A fast binary32 reference for exhaustive runs: glibc's binary64 cos/asin plus a rounding test.
 *
 * Bound relied on: glibc documents a maximum known error of 1 ulp (2^-52 relative) for binary64
 * cos and asin on x86-64 ("Known Maximum Errors in Math Functions" in its manual); we assume 64
 * times that, 2^-46 relative. If the binary64 value y lies farther than that bound from every
 * binary32 rounding boundary (a midpoint between two binary32 numbers) and from every power of two
 * (where the binade, and so the ulp, changes), rounding y to binary32 gives the correctly rounded
 * result. Otherwise the caller falls back to MPFR (ref_eval): about one input in 2^21.
 * Tiny arguments, where y would sit on a power of two, are decided from the series instead.
 * Nothing here shares code with omk; tests/test_exhaustive.c checks this against pure MPFR. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ref.h"

/* 2^-46 relative to |y| < 2^(e+1), in binary64 ulps of the binade [2^e, 2^(e+1)). */
enum { MARGIN_ULPS = 128 };

static uint64_t bits_of(double y) {
    uint64_t u;
    memcpy(&u, &y, sizeof u);
    return u;
}

/* ulp of a format with `precision` bits in the binade of |v| (v normal), or its subnormal spacing
 * below 2^emin. */
static double format_ulp(double v, int precision, int emin) {
    int e;
    frexp(fabs(v), &e); /* |v| in [2^(e-1), 2^e) */
    return ldexp(1.0, (e - 1 < emin ? emin : e - 1) - (precision - 1));
}

/* A nonzero low part in ulps that underflowed to 0 reads as the smallest subnormal with its sign (as MPFR's rounding
 * away from 0 gives it in ref_eval), so that an inexact value is never read as exact. */
static double tiny_away_from_zero(double lo_ulps, int nonzero, double sign) {
    return lo_ulps == 0.0 && nonzero ? copysign(DBL_TRUE_MIN, sign) : lo_ulps;
}

/* NaN results, and tiny arguments where the series decides: cos x = 1 - x^2/2 + ... lies just
 * below 1 and above the midpoint 1 - 2^-(p+1) for |x| < cos_tiny; asin x = x (1 + x^2/6 + ...)
 * rounds to x in the format for |x| < asin_tiny, with x^3/6 as its low part. Returns 1 when decided. */
static int decided_by_series(ref_op op, double x, int precision, int emin, double cos_tiny, double asin_tiny,
                             ref_value *out) {
    out->exact_lo = out->exact_lo_ulps = 0.0;
    out->exact = x == 0.0; /* cos 0 = 1 and asin +-0 = +-0 exactly; no other input gives an exact value */
    if (isnan(x) || isinf(x) || (op == REF_ASIN && fabs(x) > 1.0)) {
        out->rounded = out->exact_hi = out->ulp = NAN;
        return 1;
    }
    if (op == REF_COS && fabs(x) < cos_tiny) {
        out->rounded = out->exact_hi = 1.0;
        out->exact_lo = -0.5 * x * x;
        out->ulp = ldexp(1.0, x == 0.0 ? 1 - precision : -precision);
        out->exact_lo_ulps = tiny_away_from_zero(-(0.5 * fabs(x)) * (fabs(x) / out->ulp), x != 0.0, -1.0);
        return 1;
    }
    if (op == REF_ASIN && fabs(x) < asin_tiny) {
        out->rounded = out->exact_hi = x;
        out->exact_lo = x * x * x / 6.0;
        out->ulp = x == 0.0 ? ldexp(1.0, emin - (precision - 1)) : format_ulp(x, precision, emin);
        out->exact_lo_ulps = tiny_away_from_zero(x / out->ulp * x * x / 6.0, x != 0.0, x);
        return 1;
    }
    return 0;
}

int ref_fast_binary32(ref_op op, double x, ref_value *out) {
    /* cos: x^2/2 < 2^-25. asin: x^2/6 < 2^-52.5, far below binary32's half ulp; up to 2^-25 rather than 2^-26, since
     * glibc's asin returns x itself below about 1.44 2^-26, with no low part to tell x - 1 ulp's error from 1 ulp */
    if (decided_by_series(op, x, 24, -126, 0x1p-12, 0x1p-25, out)) return 1;
    const double y = op == REF_COS ? cos(x) : asin(x);
    const uint64_t mantissa = bits_of(y) & 0x000fffffffffffffull;
    const uint64_t low29 = mantissa & 0x1fffffff;
    if (low29 + MARGIN_ULPS - 0x10000000u <= 2 * MARGIN_ULPS) return 0;                     /* near a midpoint */
    if (mantissa < MARGIN_ULPS || mantissa > 0x000fffffffffffffull - MARGIN_ULPS) return 0; /* near 2^k */
    out->rounded = (double)(float)y;
    out->exact_hi = y;
    out->exact = 0;
    out->ulp = format_ulp(y, 24, -126);
    return 1;
}

/* binary64: glibc's x87 long double cosl/asinl, whose relative error measured here against MPFR
 * stays below 2^-63 (64-bit significand, including huge arguments; glibc reduces them exactly).
 * We assume 2^-58, 32 times that: when the long double value is farther than that from every
 * binary64 rounding boundary and power of two, its rounding to binary64 is the correctly rounded
 * result; otherwise (a few percent of the inputs, depending on the sampler) MPFR decides. */
static const long double BINARY64_MARGIN = 0x1p-58L;

int ref_fast_binary64(ref_op op, double x, ref_value *out) {
    /* cos: x^2/2 < 2^-55; asin: x^2/6 < 2^-54.5, so asin x rounds to x in binary64 */
    if (decided_by_series(op, x, 53, -1022, 0x1p-27, 0x1p-26, out)) return 1;
    const long double y = op == REF_COS ? cosl(x) : asinl(x);
    const double hi = (double)y;
    const long double lo = y - (long double)hi; /* exact */
    int e;
    const double mantissa = frexp(fabs(hi), &e); /* |hi| in [2^(e-1), 2^e) */
    const long double ulp = ldexpl(1.0L, e - 1 - 52);
    const long double margin = BINARY64_MARGIN * fabsl(y);
    if (fabsl(fabsl(lo) - ulp / 2) <= margin) return 0;                                    /* near a midpoint */
    if ((mantissa == 0.5 && fabsl(lo) <= ulp) || fabs(mantissa - 1.0) < 0x1p-50) return 0; /* near 2^k */
    out->rounded = out->exact_hi = hi;
    out->exact_lo = (double)lo;
    out->exact_lo_ulps = (double)(lo / ulp);
    out->exact = 0;
    out->ulp = (double)ulp;
    return 1;
}

int ref_fast(ref_op op, const ref_format *fmt, double x, ref_value *out) {
    if (fmt->precision == 24 && fmt->exp_bits == 8) return ref_fast_binary32(op, x, out);
    if (fmt->precision == 53 && fmt->exp_bits == 11) return ref_fast_binary64(op, x, out);
    return 0;
}
