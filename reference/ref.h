/* The ruler: correctly rounded cos/asin through MPFR, and the ULP error measure.
 * Independent of omk: nothing here includes kernel code. */
#ifndef ULPB_REF_H
#define ULPB_REF_H

#include <stdint.h>

typedef enum { REF_COS, REF_ASIN } ref_op;

/* An IEEE-style binary format: precision p (with the implicit bit) and exponent bits. */
typedef struct {
    int precision;
    int exp_bits;
} ref_format;

/* What the reference knows about f(x). */
typedef struct {
    double rounded;  /* f(x) correctly rounded to the format (RNE, subnormals, overflow) */
    double exact_hi; /* f(x) to ~106 bits: exact_hi + exact_lo */
    double exact_lo;
    double ulp; /* ulp in the binade of the exact value (format's subnormal ulp below) */
    int exact;  /* 1: f(x) is exactly exact_hi (cos 0, asin 0); 0 for every other input, whose value no
                 * binary64 pair holds exactly, even when exact_lo rounds to 0 (cos of a tiny x) */
    /* (f(x) - exact_hi) / ulp, rounded away from 0: nonzero whenever f(x) is not exact_hi, also where exact_lo
     * underflows to 0 (asin 2^-400: f(x) - exact_hi is about 2^-1202, no binary64, but 2^-750.6 ulp is one) */
    double exact_lo_ulps;
} ref_value;

/* Decodes a bit pattern of the format (in the low bits of `bits`) to its exact value. */
double ref_decode(const ref_format *fmt, uint64_t bits);
/* 1 when the pattern is a signalling NaN of the format (quiet bit, the mantissa's first, clear): no operation
 * delivers one (IEEE 754 6.2: an operation on a signalling NaN signals and delivers a quiet NaN). */
int ref_is_signaling_nan(const ref_format *fmt, uint64_t bits);

/* Computes f(x) for an x representable in fmt. Thread-safe when MPFR keeps its state per thread (ref_eval sets the
 * exponent range for each call): ref_team_size says how many threads may call it at once. */
void ref_eval(ref_op op, const ref_format *fmt, double x, ref_value *out);
/* `wanted` threads, or 1 when the MPFR linked in was built without thread-local storage (mpfr_buildopt_tls_p()). */
int ref_team_size(int wanted);

/* The same for a binary32 x and the binary32 format, without MPFR for nearly every input (see
 * ref_fast.c for the bound it relies on). Returns 1 when decided; 0 means use ref_eval. */
int ref_fast_binary32(ref_op op, double x, ref_value *out);
/* The same for binary64 (long double evaluation, see ref_fast.c). */
int ref_fast_binary64(ref_op op, double x, ref_value *out);
/* ref_fast_binary32 or ref_fast_binary64 by format; 0 (use ref_eval) for other formats. */
int ref_fast(ref_op op, const ref_format *fmt, double x, ref_value *out);

/* |y - f(x)| / ulp(f(x)) for finite y and finite f(x); 0 only when f(x) is exact and y equals it. ulp(f(x)) is that of
 * f(x)'s binade, and for an f(x) that is exactly a power of two (cos 0 = 1) and a y below it in magnitude, that of the
 * binade below, where y lies: its neighbour 1 - 2^-24 is then 1 ulp away, not 0.5, as a misrounded result must be.
 * An error just above a whole number of ulps, by less than binary64 keeps (asin 2^-133 in bfloat16 returned as 0:
 * 1 + 2^-268.6 ulps), reads as the next binary64 up, never as that number. An error from REF_ULP_ERROR_MAX on, which
 * only a binary64 f(x) near the bottom of the range allows (y = 1 for asin 2^-1000 is 2^1052 ulps off), reads as
 * REF_ULP_ERROR_MAX, so that every figure written stays a finite number. */
double ref_ulp_error(const ref_value *v, double y);
/* 10^308, below DBL_MAX: JSON writers print 15 digits, and DBL_MAX's (1.79769313486232e+308) read back as infinity. */
#define REF_ULP_ERROR_MAX 1e308

typedef enum { REF_MATCH, REF_MISROUNDED, REF_SPECIAL_MISMATCH } ref_verdict;

/* Compares a produced y with the reference: NaNs by class, signed zeros by sign. */
ref_verdict ref_compare(const ref_value *v, double y);

/* Releases MPFR's per-thread caches (call at thread exit if needed). */
void ref_free_cache(void);

const char *ref_mpfr_version(void);

#endif
