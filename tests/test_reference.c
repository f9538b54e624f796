/* The ruler itself: the ULP measure on hand-computed cases and the MPFR reference on values
 * known to be correctly rounded. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <mpfr.h>

#include "ref.h"

static const ref_format F16 = {11, 5}, BF16 = {8, 8}, F32 = {24, 8}, F64 = {53, 11};

/* cmocka's assert_float_equal compares as float: 1 - 2^-36 and 1 would pass for each other */
#define assert_double_near(a, b, tolerance) assert_true(fabs((a) - (b)) <= (tolerance))

static void ulp_error_by_hand(void **state) {
    (void)state;
    /* exact value just below 1: the ulp is the one of [1/2, 1), 2^-24 for binary32 */
    ref_value v = {.rounded = 1.0, .exact_hi = 1.0 - 0x1p-25, .ulp = 0x1p-24};
    assert_double_near(ref_ulp_error(&v, 1.0), 0.5, 0x1p-52);
    assert_double_near(ref_ulp_error(&v, 1.0 - 0x1p-24), 0.5, 0x1p-52);
    assert_double_near(ref_ulp_error(&v, 1.0 + 0x1p-23), 2.5, 0x1p-50);
    /* exact value with a low part */
    ref_value w = {.rounded = 0.75, .exact_hi = 0.75, .exact_lo = 0x1p-60, .ulp = 0x1p-24, .exact_lo_ulps = 0x1p-36};
    assert_double_near(ref_ulp_error(&w, 0.75), 0x1p-36, 0x1p-88);
    assert_double_near(ref_ulp_error(&w, 0.75 + 0x1p-24), 1.0 - 0x1p-36, 0x1p-52);
    /* identical values: zero */
    ref_value z = {.rounded = 0.5, .exact_hi = 0.5, .ulp = 0x1p-24, .exact = 1};
    assert_true(ref_ulp_error(&z, 0.5) == 0.0);
    /* f(x) just above a power of two, by less than the subtraction keeps: the value below is still more than half an
     * ulp away (asin 2^-38 = 2^-38 (1 + 2^-78): binary32 0.5 + 2^-54 ulps, binary64 asin 2^-60 0.5 + 2^-67) */
    ref_eval(REF_ASIN, &F32, 0x1p-38, &v);
    assert_true(v.rounded == 0x1p-38 && ref_compare(&v, 0x1.fffffep-39) == REF_MISROUNDED);
    assert_true(ref_ulp_error(&v, 0x1.fffffep-39) > 0.5 && ref_ulp_error(&v, 0x1.fffffep-39) < 0.5 + 0x1p-40);
    assert_true(ref_ulp_error(&v, 0x1p-38) < 0x1p-40);
    assert_true(ref_fast_binary32(REF_ASIN, 0x1p-38, &v) && ref_ulp_error(&v, 0x1.fffffep-39) > 0.5);
    ref_eval(REF_ASIN, &F64, 0x1p-60, &v);
    assert_true(v.rounded == 0x1p-60 && ref_ulp_error(&v, 0x1.fffffffffffffp-61) > 0.5);
    ref_eval(REF_ASIN, &BF16, 0x1p-40, &v);
    assert_true(v.rounded == 0x1p-40 && ref_ulp_error(&v, 0x1.fep-41) > 0.5);
}

/* An error just above a whole number of ulps, by a low part far below binary64's precision, reads above it: asin of
 * the smallest bfloat16 subnormal flushed to 0 is 1 + 2^-268.6 ulps off, which must not pass a 1-ulp limit or sit in
 * the histogram's 1-ulp bin; the neighbour on the other side, 1 - 2^-268.6 ulps off, reads 1 at most. */
static void ulp_error_never_reads_below_exact(void **state) {
    (void)state;
    ref_value v;
    ref_eval(REF_ASIN, &BF16, 0x1p-133, &v);
    assert_true(v.rounded == 0x1p-133 && v.exact_lo_ulps > 0);
    assert_true(ref_ulp_error(&v, 0.0) > 1.0 && ref_ulp_error(&v, 0.0) < 1.0 + 0x1p-50);
    assert_true(ref_ulp_error(&v, 0x1p-132) <= 1.0 && ref_ulp_error(&v, 0x1p-132) > 1.0 - 0x1p-50);
    /* binary32 asin 1.5 2^-30 = 1.5 2^-30 (1 + 2^-61.4 ...): the binary32 below is more than 1 ulp off, the one above
     * less (a low part the subtraction keeps, unlike the other cases) */
    ref_eval(REF_ASIN, &F32, 0x1.8p-30, &v);
    assert_true(ref_ulp_error(&v, 0x1.7ffffep-30) > 1.0 && ref_ulp_error(&v, 0x1.800002p-30) <= 1.0);
    assert_true(ref_fast_binary32(REF_ASIN, 0x1.8p-30, &v) && ref_ulp_error(&v, 0x1.7ffffep-30) > 1.0 &&
                ref_ulp_error(&v, 0x1.800002p-30) <= 1.0);
    /* cos 2^-30 = 1 - 2^-61 ...: 1 + 2^-23 lies 2 + 2^-37 ulps of [1/2, 1) above it, 1 - 2^-24 just under 1 ulp below
     */
    ref_eval(REF_COS, &F32, 0x1p-30, &v);
    assert_true(ref_ulp_error(&v, 1.0 + 0x1p-23) > 2.0 && ref_ulp_error(&v, 1.0 - 0x1p-24) <= 1.0);
    /* the fast reference: asin of the smallest binary32 subnormal flushed to 0, and x - 1 ulp for an x whose binary64
     * asin is x itself (glibc's, below about 1.44 2^-26): 1 ulp and a little more */
    assert_true(ref_fast_binary32(REF_ASIN, 0x1p-149, &v) && ref_ulp_error(&v, 0.0) > 1.0);
    assert_true(ref_fast_binary32(REF_ASIN, 0x1.4p-26, &v) && ref_ulp_error(&v, 0x1.3ffffep-26) > 1.0 &&
                ref_ulp_error(&v, 0x1.400002p-26) <= 1.0);
}

static void reference_ulp_follows_binade_of_exact(void **state) {
    (void)state;
    ref_value v;
    /* cos(2^-12) = 1 - 2^-25 + 2^-50/24...: exact just below 1 */
    ref_eval(REF_COS, &F32, 0x1p-12, &v);
    assert_true(v.rounded == 1.0);
    assert_true(v.ulp == 0x1p-24);
    assert_true(ref_ulp_error(&v, 1.0) < 0.5 && ref_ulp_error(&v, 1.0) > 0.4999);
    /* cos(0) = 1 exactly: binade [1, 2) */
    ref_eval(REF_COS, &F16, 0.0, &v);
    assert_true(v.rounded == 1.0 && v.ulp == 0x1p-10);
    /* ... but a result below it lies in [1/2, 1): its neighbour there is 1 ulp away, as a misrounded result must be */
    assert_true(ref_ulp_error(&v, 1.0 - 0x1p-11) == 1.0);
    assert_true(ref_ulp_error(&v, 1.0 + 0x1p-10) == 1.0);
    assert_true(ref_fast_binary32(REF_COS, 0.0, &v) && ref_ulp_error(&v, 1.0 - 0x1p-24) == 1.0);
    /* subnormal results: the subnormal spacing */
    ref_eval(REF_ASIN, &F16, 0x1p-24, &v);
    assert_true(v.rounded == 0x1p-24 && v.ulp == 0x1p-24);
    assert_double_near(ref_ulp_error(&v, 0x1p-23), 1.0, 0x1p-40);
    ref_eval(REF_ASIN, &F32, 0x1p-140, &v);
    assert_true(v.rounded == 0x1p-140 && v.ulp == 0x1p-149);
    ref_eval(REF_ASIN, &F64, 0x1p-1074, &v);
    assert_true(v.rounded == 0x1p-1074 && v.ulp == 0x1p-1074);
    /* a zero result (asin 0): the subnormal spacing too, so the smallest subnormal beside it is 1 ulp off */
    ref_eval(REF_ASIN, &F32, 0.0, &v);
    assert_true(v.rounded == 0.0 && v.ulp == 0x1p-149 && ref_ulp_error(&v, 0x1p-149) == 1.0);
    ref_eval(REF_ASIN, &F16, 0.0, &v);
    assert_true(v.rounded == 0.0 && v.ulp == 0x1p-24 && ref_ulp_error(&v, -0x1p-24) == 1.0);
}

/* Only x = 0 gives an exact value (cos 0 = 1, asin 0 = 0), for MPFR and the fast references alike: cos of a tiny x
 * has 1 for its binary64 part and a tiny low part, and is not exact. */
static void reference_marks_exact_values(void **state) {
    (void)state;
    ref_value v;
    for (int op = REF_COS; op <= REF_ASIN; op++) {
        ref_eval((ref_op)op, &F64, 0.0, &v);
        assert_int_equal(v.exact, 1);
        assert_int_equal(ref_fast_binary64((ref_op)op, 0.0, &v), 1);
        assert_int_equal(v.exact, 1);
        assert_int_equal(ref_fast_binary32((ref_op)op, 0.0, &v), 1);
        assert_int_equal(v.exact, 1);
        ref_eval((ref_op)op, &F64, 0.75, &v);
        assert_int_equal(v.exact, 0);
        assert_int_equal(ref_fast_binary64((ref_op)op, 0x1p-100, &v), 1);
        assert_int_equal(v.exact, 0);
    }
    ref_eval(REF_COS, &F32, 0x1p-100, &v);
    assert_true(v.exact_hi == 1.0 && v.exact_lo == -0x1p-201 && v.exact == 0);
}

/* The low part holds what lies beyond 160 bits when the value is a binary64 number at that precision: the error of a
 * correctly rounded result there is tiny, not zero (an exhaustive run's mean and its re-measured maximum agree). */
static void reference_low_part_beyond_working_precision(void **state) {
    (void)state;
    ref_value v;
    /* asin x = x + x^3/6 + ...: for x = 2^-130, x^3/6 is 2^-260 of x */
    ref_eval(REF_ASIN, &F32, 0x1p-130, &v);
    assert_true(v.rounded == 0x1p-130 && v.exact_hi == 0x1p-130 && v.exact == 0);
    assert_true(fabs(v.exact_lo / (0x1p-390 / 6) - 1.0) < 1e-12);
    assert_true(fabs(ref_ulp_error(&v, 0x1p-130) / (0x1p-241 / 6) - 1.0) < 1e-12);
    /* the smallest binary64 input: asin x - x = 2^-3222/6, 2^-2150.6 ulp, lies below binary64's range; rounded away
     * from 0 it reads as the smallest subnormal, not as exact */
    ref_eval(REF_ASIN, &F64, 0x1p-1074, &v);
    assert_true(v.exact_hi == 0x1p-1074 && v.exact_lo == 0.0 && v.exact == 0);
    assert_true(ref_ulp_error(&v, 0x1p-1074) == 0x1p-1074);
    assert_true(ref_fast_binary64(REF_ASIN, 0x1p-1074, &v) && ref_ulp_error(&v, 0x1p-1074) == 0x1p-1074);
    /* asin 2^-400 - 2^-400 = 2^-1200/6 underflows as a value, but 2^-748/6 ulp does not: the error reads as that,
     * from MPFR and from the series of the fast reference */
    ref_eval(REF_ASIN, &F64, 0x1p-400, &v);
    assert_true(v.exact_hi == 0x1p-400 && v.exact_lo == 0.0 && v.exact == 0);
    assert_true(fabs(ref_ulp_error(&v, 0x1p-400) / (0x1p-748 / 6) - 1.0) < 1e-12);
    assert_true(fabs(ref_ulp_error(&v, 0x1.0000000000001p-400) - 1.0) < 1e-12);
    assert_true(ref_fast_binary64(REF_ASIN, 0x1p-400, &v));
    assert_true(fabs(ref_ulp_error(&v, 0x1p-400) / (0x1p-748 / 6) - 1.0) < 1e-12);
    /* cos 2^-300 = 1 - 2^-601 + ...: 2^-548 ulp below 1 */
    ref_eval(REF_COS, &F64, 0x1p-300, &v);
    assert_true(fabs(ref_ulp_error(&v, 1.0) / 0x1p-548 - 1.0) < 1e-12);
    assert_true(ref_fast_binary64(REF_COS, 0x1p-300, &v) && fabs(ref_ulp_error(&v, 1.0) / 0x1p-548 - 1.0) < 1e-12);
    /* cos 2^-600 = 1 - 2^-1201 + ...: the low part underflows binary64, the binade is still the one below 1 */
    ref_eval(REF_COS, &F64, 0x1p-600, &v);
    assert_true(v.exact_hi == 1.0 && v.exact_lo == 0.0 && v.ulp == 0x1p-53);
    assert_true(fabs(ref_ulp_error(&v, 1.0 - 0x1p-53) - 1.0) < 1e-12);
    /* cos 2^-30 = 1 - 2^-61 + 2^-124/24 - ...: the low part is there at 160 bits already */
    ref_eval(REF_COS, &F64, 0x1p-30, &v);
    assert_true(v.exact_hi == 1.0 && v.exact_lo == -0x1p-61);
}

/* An error past the largest binary64 (asin 2^-1000 in binary64 is 2^-1000 (1 + ...), its ulp 2^-1052: a result of 1
 * lies 2^1052 ulps off, one of 2^-960 2^92) reads as REF_ULP_ERROR_MAX, a finite number every result file can hold. */
static void ulp_error_saturates_at_its_maximum(void **state) {
    (void)state;
    ref_value v;
    ref_eval(REF_ASIN, &F64, 0x1p-1000, &v);
    assert_true(fabs(ref_ulp_error(&v, 0x1p-960) / 0x1p92 - 1.0) < 1e-12);
    assert_true(ref_ulp_error(&v, 1.0) == REF_ULP_ERROR_MAX);
    ref_eval(REF_ASIN, &F64, 0x1p-1070, &v);
    assert_true(ref_ulp_error(&v, 1.0) == REF_ULP_ERROR_MAX && ref_ulp_error(&v, -2.0) == REF_ULP_ERROR_MAX);
    assert_true(ref_fast_binary64(REF_ASIN, 0x1p-1070, &v) && ref_ulp_error(&v, 1.0) == REF_ULP_ERROR_MAX);
}

/* ref_eval sets MPFR's exponent range per call: threads only with MPFR's thread-local state. */
static void reference_threads_need_mpfr_tls(void **state) {
    (void)state;
    assert_int_equal(ref_team_size(8), mpfr_buildopt_tls_p() ? 8 : 1);
}

static void reference_known_values(void **state) {
    (void)state;
    ref_value v;
    ref_eval(REF_COS, &F64, 1.0, &v);
    assert_true(v.rounded == 0x1.14a280fb5068cp-1);
    ref_eval(REF_COS, &F32, 1.0, &v);
    assert_true(v.rounded == (double)0x1.14a28p-1f);
    ref_eval(REF_ASIN, &F64, 0.5, &v);
    assert_true(v.rounded == 0x1.0c152382d7366p-1);
    ref_eval(REF_ASIN, &F64, 1.0, &v);
    assert_true(v.rounded == 0x1.921fb54442d18p+0);
    ref_eval(REF_ASIN, &F16, 1.0, &v);
    assert_true(v.rounded == 1.5703125);
    ref_eval(REF_ASIN, &BF16, 1.0, &v);
    assert_true(v.rounded == 1.5703125);
    ref_eval(REF_COS, &F64, 0x1p1023, &v);           /* huge argument: MPFR reduces exactly */
    assert_true(v.rounded == -0x1.a719f26c232bfp-1); /* -0.82636983..., as glibc cos also gives */
    /* NaN cases */
    ref_eval(REF_ASIN, &F32, 2.0, &v);
    assert_true(isnan(v.rounded));
    ref_eval(REF_COS, &F32, INFINITY, &v);
    assert_true(isnan(v.rounded));
    ref_eval(REF_ASIN, &F64, -0.0, &v);
    assert_true(v.rounded == 0.0 && signbit(v.rounded));
}

static void compare_classes(void **state) {
    (void)state;
    ref_value nan_expected = {.rounded = NAN, .exact_hi = NAN, .ulp = NAN},
              neg_zero = {.rounded = -0.0, .exact_hi = -0.0, .ulp = 0x1p-24, .exact = 1},
              one = {.rounded = 1.0, .exact_hi = 1.0, .ulp = 0x1p-23, .exact = 1};
    assert_int_equal(ref_compare(&nan_expected, -NAN), REF_MATCH); /* NaNs by class, not payload */
    assert_int_equal(ref_compare(&nan_expected, 0.0), REF_SPECIAL_MISMATCH);
    assert_int_equal(ref_compare(&one, NAN), REF_SPECIAL_MISMATCH);
    assert_int_equal(ref_compare(&neg_zero, 0.0), REF_SPECIAL_MISMATCH);
    assert_int_equal(ref_compare(&neg_zero, -0.0), REF_MATCH);
    assert_int_equal(ref_compare(&one, 1.0 - 0x1p-24), REF_MISROUNDED);
    /* an infinity where a finite value is expected, or the other way round, is a special value, not a rounding */
    assert_int_equal(ref_compare(&one, INFINITY), REF_SPECIAL_MISMATCH);
    assert_int_equal(ref_compare(&one, -INFINITY), REF_SPECIAL_MISMATCH);
    const ref_value inf_expected = {.rounded = INFINITY, .exact_hi = INFINITY, .ulp = INFINITY};
    assert_int_equal(ref_compare(&inf_expected, DBL_MAX), REF_SPECIAL_MISMATCH);
    assert_int_equal(ref_compare(&inf_expected, INFINITY), REF_MATCH);
}

static void decode_formats(void **state) {
    (void)state;
    assert_true(ref_decode(&F16, 0x3c00) == 1.0);
    assert_true(ref_decode(&F16, 0x0001) == 0x1p-24);
    assert_true(ref_decode(&F16, 0x7bff) == 65504.0);
    assert_true(ref_decode(&F16, 0xfc00) == -INFINITY);
    assert_true(isnan(ref_decode(&F16, 0x7e00)));
    assert_true(ref_decode(&BF16, 0x3f80) == 1.0);
    assert_true(ref_decode(&BF16, 0x0001) == 0x1p-133);
    assert_true(ref_decode(&F32, 0x00000001) == 0x1p-149);
    assert_true(ref_decode(&F64, 0x8000000000000001ull) == -0x1p-1074);
    /* signalling NaNs: the mantissa's first bit clear, the rest not all zero */
    assert_true(ref_is_signaling_nan(&F16, 0x7c01) && ref_is_signaling_nan(&F16, 0xfd00));
    assert_false(ref_is_signaling_nan(&F16, 0x7e00) || ref_is_signaling_nan(&F16, 0x7c00) ||
                 ref_is_signaling_nan(&F16, 0x3c01));
    assert_true(ref_is_signaling_nan(&BF16, 0xff81) && !ref_is_signaling_nan(&BF16, 0x7fc0));
    assert_true(ref_is_signaling_nan(&F32, 0x7f800001) && !ref_is_signaling_nan(&F32, 0x7fc00000));
    assert_true(ref_is_signaling_nan(&F64, 0xfff0000000000001ull) &&
                !ref_is_signaling_nan(&F64, 0x7ff8000000000000ull));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ulp_error_by_hand),
        cmocka_unit_test(ulp_error_never_reads_below_exact),
        cmocka_unit_test(ulp_error_saturates_at_its_maximum),
        cmocka_unit_test(reference_threads_need_mpfr_tls),
        cmocka_unit_test(reference_ulp_follows_binade_of_exact),
        cmocka_unit_test(reference_known_values),
        cmocka_unit_test(reference_marks_exact_values),
        cmocka_unit_test(reference_low_part_beyond_working_precision),
        cmocka_unit_test(compare_classes),
        cmocka_unit_test(decode_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
