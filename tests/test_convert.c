/* omk's 16-bit conversions, checked against MPFR's rounding (an independent oracle). */
#include <math.h>
#include <mpfr.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "omk.h"
#include "omk_internal.h"
#include "ref.h"
#include "test_bits.h"

static const ref_format F16 = {11, 5}, BF16 = {8, 8};

/* MPFR's round-to-nearest-even of f into a narrow format, as a double. */
static double narrow_by_mpfr(const ref_format *fmt, float f) {
    const int bias = (1 << (fmt->exp_bits - 1)) - 1;
    const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t r;
    mpfr_init2(r, fmt->precision);
    mpfr_set_emin(1 - bias - fmt->precision + 2);
    mpfr_set_emax(bias + 1);
    int t = mpfr_set_d(r, (double)f, MPFR_RNDN);
    t = mpfr_check_range(r, t, MPFR_RNDN);
    mpfr_subnormalize(r, t, MPFR_RNDN);
    const double d = mpfr_get_d(r, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(r);
    return d;
}

static void every_f16_round_trips(void **state) {
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        const float f = omk_f16_to_f32((uint16_t)h);
        const double exact = ref_decode(&F16, h);
        if (isnan(exact)) { /* quiet, with the sign and payload: a signalling NaN only gains the quiet bit */
            assert_int_equal(bits_of_f32(f), (h & 0x8000) << 16 | 0x7fc00000 | (h & 0x3ff) << 13);
            assert_int_equal(omk_f32_to_f16(f), h | 0x0200);
            continue;
        }
        assert_true((double)f == exact);
        assert_int_equal(omk_f32_to_f16(f), h);
    }
}

static void every_bf16_round_trips(void **state) {
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        const float f = omk_bf16_to_f32((uint16_t)h);
        const double exact = ref_decode(&BF16, h);
        if (isnan(exact)) {
            assert_int_equal(bits_of_f32(f), h << 16 | 0x00400000);
            assert_int_equal(omk_f32_to_bf16(f), h | 0x0040);
            continue;
        }
        assert_true((double)f == exact);
        assert_int_equal(omk_f32_to_bf16(f), h);
    }
}

static void narrowing_ties_overflow_subnormals(void **state) {
    (void)state;
    /* ties to even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 */
    assert_int_equal(omk_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);
    assert_int_equal(omk_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02);
    assert_int_equal(omk_f32_to_f16(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
    assert_int_equal(omk_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);
    assert_int_equal(omk_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
    /* overflow: 65520 is the midpoint between 65504 and 2^16 -> rounds to infinity */
    assert_int_equal(omk_f32_to_f16(65504.0f), 0x7bff);
    assert_int_equal(omk_f32_to_f16(65519.0f), 0x7bff);
    assert_int_equal(omk_f32_to_f16(65520.0f), 0x7c00);
    assert_int_equal(omk_f32_to_f16(-1e30f), 0xfc00);
    assert_int_equal(omk_f32_to_bf16(3.4e38f), 0x7f80);
    /* subnormals kept (bfloat16 too, unlike the hardware narrowing instruction) */
    assert_int_equal(omk_f32_to_f16(0x1p-24f), 0x0001);
    assert_int_equal(omk_f32_to_f16(0x1p-25f), 0x0000);   /* tie to even: 0 */
    assert_int_equal(omk_f32_to_f16(0x1.8p-24f), 0x0002); /* tie to even: 2 */
    assert_int_equal(omk_f32_to_f16(0x1.0p-25f + 0x1p-40f), 0x0001);
    assert_int_equal(omk_f32_to_f16(0x1.ffcp-15f), 0x0400); /* rounds up into the normals */
    assert_int_equal(omk_f32_to_bf16(0x1p-133f), 0x0001);
    assert_int_equal(omk_f32_to_bf16(f32_from_bits(0x00000001)), 0x0000);
    assert_int_equal(omk_f32_to_bf16(f32_from_bits(0x00008001)), 0x0001);
    assert_int_equal(omk_f32_to_bf16(-0x1p-133f), 0x8001);
    /* NaN stays NaN, sign kept, quiet */
    assert_int_equal(omk_f32_to_f16(f32_from_bits(0x7fc00000)), 0x7e00);
    assert_int_equal(omk_f32_to_f16(f32_from_bits(0xff800001)), 0xfe00);
    assert_int_equal(omk_f32_to_bf16(f32_from_bits(0x7f800001)), 0x7fc0);
    assert_int_equal(omk_f32_to_bf16(f32_from_bits(0xff800001)), 0xffc0);
    assert_int_equal(omk_f32_to_bf16(f32_from_bits(0x7f800000)), 0x7f80);
}

/* A double-double narrowed once (the 16-bit tables' entries from op##_f64_dd, omk_internal.h): the tail decides a
 * binary64 value on a midpoint, and only there; one binary64 ulp beside a midpoint stays on its side. */
static void double_double_narrows_once(void **state) {
    (void)state;
    static const struct {
        double hi, lo;
        uint16_t f16, bf16;
    } cases[] = {
        {1 + 0x1p-11, 0x1p-70, 0x3c01, 0x3f80},     /* a binary16 midpoint, f(x) above it */
        {1 + 0x1p-11, -0x1p-70, 0x3c00, 0x3f80},    /* below it */
        {1 + 0x1p-11, 0.0, 0x3c00, 0x3f80},         /* exactly on it: ties to even */
        {-(1 + 0x1p-11), -0x1p-70, 0xbc01, 0xbf80}, /* negative, beyond it */
        {-(1 + 0x1p-11), 0x1p-70, 0xbc00, 0xbf80},
        {1 + 0x1p-8, 0x1p-70, 0x3c04, 0x3f81}, /* a bfloat16 midpoint */
        {1 + 0x1p-8, -0x1p-70, 0x3c04, 0x3f80},
        {0x1p-25, 0x1p-90, 0x0001, 0x3300}, /* half the smallest binary16 subnormal */
        {0x1p-25, -0x1p-90, 0x0000, 0x3300},
        {0x1p-134, 0x1p-200, 0x0000, 0x0001}, /* half the smallest bfloat16 subnormal */
        {0x1p-134, -0x1p-200, 0x0000, 0x0000},
        {1 + 0x1p-11 - 0x1p-52, 0x1p-54, 0x3c00, 0x3f80},  /* one binary64 ulp below the midpoint: stays below */
        {1 + 0x1p-11 + 0x1p-52, -0x1p-54, 0x3c01, 0x3f80}, /* and above it: stays above */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const uint16_t f16 = omk_dd_to_f16(cases[i].hi, cases[i].lo), bf16 = omk_dd_to_bf16(cases[i].hi, cases[i].lo);
        if (f16 != cases[i].f16 || bf16 != cases[i].bf16)
            fail_msg("%a + %a: binary16 0x%04x, bfloat16 0x%04x (wanted 0x%04x, 0x%04x)", cases[i].hi, cases[i].lo, f16,
                     bf16, cases[i].f16, cases[i].bf16);
    }
}

/* Every float with a spread of exponents and mantissas against MPFR's rounding. */
static void narrowing_matches_mpfr(void **state) {
    (void)state;
    uint64_t s = 0x1234567;
    for (int i = 0; i < 400000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        const uint32_t bits = (uint32_t)(s >> 32);
        const float f = f32_from_bits(bits);
        if (isnan(f)) continue;
        /* the same value and the same sign: a zero or an infinity of the wrong sign is wrong too */
        const double f16 = ref_decode(&F16, omk_f32_to_f16(f)), bf16 = ref_decode(&BF16, omk_f32_to_bf16(f));
        const double f16_want = narrow_by_mpfr(&F16, f), bf16_want = narrow_by_mpfr(&BF16, f);
        if (f16 != f16_want || !signbit(f16) != !signbit(f16_want) || bf16 != bf16_want ||
            !signbit(bf16) != !signbit(bf16_want))
            fail_msg("0x%08x: binary16 %a (MPFR %a), bfloat16 %a (MPFR %a)", bits, f16, f16_want, bf16, bf16_want);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_f16_round_trips),
        cmocka_unit_test(every_bf16_round_trips),
        cmocka_unit_test(narrowing_ties_overflow_subnormals),
        cmocka_unit_test(double_double_narrows_once),
        cmocka_unit_test(narrowing_matches_mpfr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
