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
} ref_value;

/* Decodes a bit pattern of the format (in the low bits of `bits`) to its exact value. */
double ref_decode(const ref_format *fmt, uint64_t bits);
/* 1 when the pattern is a signalling NaN of the format (quiet bit, the mantissa's first, clear): no operation
 * delivers one (IEEE 754 6.2: an operation on a signalling NaN signals and delivers a quiet NaN). */
int ref_is_signaling_nan(const ref_format *fmt, uint64_t bits);

/* Computes f(x) for an x representable in fmt. Thread-safe (MPFR with thread-local state). */
void ref_eval(ref_op op, const ref_format *fmt, double x, ref_value *out);

/* The same for a binary32 x and the binary32 format, without MPFR for nearly every input (see
 * ref_fast.c for the bound it relies on). Returns 1 when decided; 0 means use ref_eval. */
int ref_fast_binary32(ref_op op, double x, ref_value *out);
/* The same for binary64 (long double evaluation, see ref_fast.c). */
int ref_fast_binary64(ref_op op, double x, ref_value *out);
/* ref_fast_binary32 or ref_fast_binary64 by format; 0 (use ref_eval) for other formats. */
int ref_fast(ref_op op, const ref_format *fmt, double x, ref_value *out);

/* |y - f(x)| / ulp(f(x)) for finite y and finite f(x); 0 when they are equal. ulp(f(x)) is that of f(x)'s binade,
 * and for an f(x) that is exactly a power of two (cos 0 = 1) and a y below it in magnitude, that of the binade below,
 * where y lies: its neighbour 1 - 2^-24 is then 1 ulp away, not 0.5, as a misrounded result must be. */
double ref_ulp_error(const ref_value *v, double y);

typedef enum { REF_MATCH, REF_MISROUNDED, REF_SPECIAL_MISMATCH } ref_verdict;

/* Compares a produced y with the reference: NaNs by class, signed zeros by sign. */
ref_verdict ref_compare(const ref_value *v, double y);

/* Releases MPFR's per-thread caches (call at thread exit if needed). */
void ref_free_cache(void);

const char *ref_mpfr_version(void);

#endif
