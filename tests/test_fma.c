/* The scalar build's fused multiply-add (kernels/omk_fma.h), which it emulates on CPUs without FMA:
 * - against libm's fma and fmaf, which round correctly on every CPU (glibc: the instruction or an exact software fma),
 *   on operands built to land on and beside rounding boundaries: short significands make a b + c an exact midpoint or
 *   close to one, and c near -a b cancels most of the result. MPFR counts the exact midpoints, so that a generator that
 *   stops producing them fails the test instead of weakening it;
 * - in the kernels: kernels/cos.c and kernels/asin.c are compiled into this test with every fma emulated
 *   (OMK_FMA_ALWAYS_EMULATED), and their binary32 and binary64 array kernels must give the library's bits (the build
 *   the CPU selects, which on a CPU with FMA uses the instruction). */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define OMK_FMA_ALWAYS_EMULATED 1
#include "asin.c"
#include "cos.c"
#include "omk.h"
#include "test_bits.h"

static uint64_t rng_state;
static uint64_t next_random(void) { return splitmix64(rng_state++); }
static int64_t random_in(int64_t lo, int64_t hi) { return lo + (int64_t)(next_random() % (uint64_t)(hi - lo + 1)); }

/* A binary64 with unbiased exponent e (clamped into the finite range: subnormals below -1022), random sign and a
 * significand whose low bits are zero with probability 1/2, so that products and sums are often exact or ties. */
static double random_double(int e) {
    uint64_t mantissa = next_random() & 0xfffffffffffffull;
    if (next_random() & 1) mantissa &= ~0ull << random_in(0, 52);
    const uint64_t sign = next_random() & 0x8000000000000000ull;
    if (e > 1023) e = 1023;
    if (e < -1022) { /* subnormal: the significand shifted into place */
        const int shift = -1022 - e;
        return f64_from_bits(sign | (shift > 52 ? 1 : ((mantissa | 0x10000000000000ull) >> shift)));
    }
    return f64_from_bits(sign | (uint64_t)(e + 1023) << 52 | mantissa);
}

static int exponent_of(double x) { return ilogb(x); }

/* Whether a b + c lies exactly halfway between two binary64 numbers (a normal result). */
static int exact_midpoint(double a, double b, double c) {
    mpfr_t exact, rounded;
    mpfr_init2(exact, 3300); /* a b + c exactly, whatever the exponents */
    mpfr_init2(rounded, 54);
    mpfr_set_d(exact, a, MPFR_RNDN);
    mpfr_mul_d(exact, exact, b, MPFR_RNDN);
    mpfr_add_d(exact, exact, c, MPFR_RNDN);
    const int is_54_bits = mpfr_set(rounded, exact, MPFR_RNDN) == 0;
    int midpoint = 0;
    if (is_54_bits && mpfr_regular_p(rounded) && mpfr_get_exp(rounded) >= -1021 && mpfr_get_exp(rounded) <= 1024) {
        mpfr_t narrow;
        mpfr_init2(narrow, 53);
        midpoint = mpfr_set(narrow, rounded, MPFR_RNDN) != 0;
        mpfr_clear(narrow);
    }
    mpfr_clear(exact);
    mpfr_clear(rounded);
    return midpoint;
}

static int same_result(double got, double want) {
    return (isnan(got) && isnan(want)) || bits_of_f64(got) == bits_of_f64(want);
}

static void check_fma(double a, double b, double c, long *failures) {
    const double got = omk_fma_emulated(a, b, c), want = fma(a, b, c);
    if (!same_result(got, want) && ++*failures <= 5)
        print_error("omk_fma_emulated(%a, %a, %a) = %a, fma gives %a\n", a, b, c, got, want);
}

/* Exponents of a and b, and c's distance in binades from a b, over the fast path, its edges and beyond them. */
static void binary64_near_rounding_boundaries(void **state) {
    (void)state;
    rng_state = 20261204;
    long failures = 0, midpoints = 0;
    const long cases = 3000000;
    for (long i = 0; i < cases; i++) {
        int ea, eb;
        switch (i % 5) {
        case 0: /* the kernels' range, inside the fast path */
            ea = (int)random_in(-30, 30), eb = (int)random_in(-30, 30);
            break;
        case 1: /* anywhere */
            ea = (int)random_in(-1074, 1023), eb = (int)random_in(-1074, 1023);
            break;
        case 2: /* e_a + e_b near -900 */
            ea = (int)random_in(-460, -440), eb = (int)random_in(-460, -440);
            break;
        case 3: /* e_a near 960 */
            ea = (int)random_in(950, 970), eb = (int)random_in(-15, 15);
            break;
        default: /* e_a + e_b near 960, and below c near the largest binary64 */
            ea = (int)random_in(470, 490), eb = 960 - ea + (int)random_in(-10, 10);
            break;
        }
        const double a = random_double(ea), b = random_double(eb);
        const int ep = exponent_of(a) + exponent_of(b);
        double c;
        if (i % 5 == 4) { /* a b + c at or past the overflow threshold, or just below it */
            c = random_double(1023);
            if (next_random() & 1) c = copysign(DBL_MAX, c) - (double)random_in(0, 3) * copysign(0x1p971, c);
        } else if (i % 3 == 0) { /* c near -a b: cancellation */
            const double p = a * b;
            c = isfinite(p) && p != 0 ? -p + (double)random_in(-4, 4) * ldexp(1, exponent_of(p) - 52)
                                      : random_double(ep);
        } else {
            c = random_double(ep + (int)random_in(-110, 60));
        }
        if (i % 97 == 0) c = ldexp(c, (int)random_in(-60, 60)); /* now and then far from a b */
        if (i % 5 == 0 && i < 1000000 && exact_midpoint(a, b, c)) midpoints++;
        check_fma(a, b, c, &failures);
    }
    assert_int_equal(failures, 0);
    /* the generator still lands on ties inside the fast path (about 1 in 60 of the 200,000 cases counted) */
    assert_true(midpoints > 2000);
}

static void binary64_special_operands(void **state) {
    (void)state;
    const double values[] = {0.0,     -0.0,          INFINITY, -INFINITY, NAN,       DBL_MIN, -DBL_MIN, DBL_TRUE_MIN,
                             DBL_MAX, -DBL_MAX,      1.0,      -1.0,      0x1p960,   0x1p961, 0x1p-450, 0x1p-451,
                             0x1p999, 0x1.fffffp999, 0x1p1000, 0x1p-1022, 0x1p-1023, 3.0,     -0x1p-60, 0x1.8p-1074};
    const size_t count = sizeof values / sizeof values[0];
    long failures = 0;
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < count; j++)
            for (size_t k = 0; k < count; k++) check_fma(values[i], values[j], values[k], &failures);
    assert_int_equal(failures, 0);
}

static void check_fmaf(float a, float b, float c, long *failures) {
    const float got = omk_fmaf_emulated(a, b, c), want = fmaf(a, b, c);
    if (!((isnan(got) && isnan(want)) || bits_of_f32(got) == bits_of_f32(want)) && ++*failures <= 5)
        print_error("omk_fmaf_emulated(%a, %a, %a) = %a, fmaf gives %a\n", a, b, c, got, want);
}

static float random_float(int e) { return (float)ldexp((double)random_double(0), e); }

static void binary32_near_rounding_boundaries(void **state) {
    (void)state;
    rng_state = 20261205;
    long failures = 0, double_rounding_traps = 0;
    for (long i = 0; i < 3000000; i++) {
        float a, b, c;
        if (i % 3 == 0) { /* any bit patterns: specials, subnormals, overflow */
            a = f32_from_bits((uint32_t)next_random()), b = f32_from_bits((uint32_t)next_random());
            c = f32_from_bits((uint32_t)next_random());
        } else if (i % 3 == 1) { /* exact and near ties: short significands, c within 30 binades below a b */
            const int ea = (int)random_in(-75, 64), eb = (int)random_in(-75, 64);
            a = random_float(ea), b = random_float(eb);
            c = random_float(ea + eb - (int)random_in(-5, 30));
        } else { /* a b a binary32 midpoint (3 times an odd 23-bit integer: 25 bits when above 2^24), c far below it,
                    where rounding first to binary64 lands on the midpoint */
            const int ea = (int)random_in(-60, 40), eb = (int)random_in(-60, 40);
            a = ldexpf(3.0f, ea), b = ldexpf((float)((next_random() & 0x3fffff) | 0x400001), eb);
            c = random_float(ea + eb + 24 - (int)random_in(20, 60));
        }
        /* a b + c rounded once to binary64 and then to binary32 differs from one rounding: double rounding */
        const float twice_rounded = (float)((double)a * b + c), once = fmaf(a, b, c);
        if (!isnan(once) && bits_of_f32(twice_rounded) != bits_of_f32(once)) double_rounding_traps++;
        check_fmaf(a, b, c, &failures);
    }
    assert_int_equal(failures, 0);
    assert_true(double_rounding_traps > 10000); /* about 57,000 */
}

/* n inputs of the emulated build (OMK_ISA=fma_emulated_test) and of the library's entry point, compared bit for bit;
 * returns how many differ and prints the first few. */
#define COMPARE_KERNEL(op, dtype, ctype, x, n)                                                                         \
    compare_outputs(#op " " #dtype, sizeof(ctype), x, n, (kernel_fn)omk_##op##_##dtype##_fma_emulated_test,            \
                    (kernel_fn)omk_##op##_##dtype)
typedef void (*kernel_fn)(const void *, void *, size_t);
static long compare_outputs(const char *name, size_t size, const void *x, size_t n, kernel_fn emulated,
                            kernel_fn library) {
    unsigned char *got = malloc(n * size), *want = malloc(n * size);
    assert_non_null(got);
    assert_non_null(want);
    emulated(x, got, n);
    library(x, want, n);
    long differ = 0;
    for (size_t i = 0; i < n; i++) {
        if (memcmp(got + i * size, want + i * size, size) == 0) continue;
        if (++differ <= 3) {
            uint64_t in = 0, g = 0, w = 0;
            memcpy(&in, (const unsigned char *)x + i * size, size);
            memcpy(&g, got + i * size, size), memcpy(&w, want + i * size, size);
            print_error("%s with emulated fma: input 0x%llx gives 0x%llx, the library 0x%llx\n", name,
                        (unsigned long long)in, (unsigned long long)g, (unsigned long long)w);
        }
    }
    free(got), free(want);
    return differ;
}

static void kernels_with_emulated_fma_give_the_librarys_bits(void **state) {
    (void)state;
    rng_state = 20261206;
    enum { F32_STRIDE = 1024, F64_COUNT = 1 << 20 };
    /* binary32: one input in every 1024 bit patterns (every binade, NaN and infinities), a random one of each 1024 */
    const size_t n32 = ((size_t)1 << 32) / F32_STRIDE;
    uint32_t *x32 = malloc(n32 * sizeof *x32);
    assert_non_null(x32);
    for (size_t i = 0; i < n32; i++) x32[i] = (uint32_t)(i * F32_STRIDE + next_random() % F32_STRIDE);
    long differ = COMPARE_KERNEL(cos, f32, float, x32, n32);
    for (size_t i = 0; i < n32; i++) /* asin: the same share of [-1, 1] */
        x32[i] = bits_of_f32((float)(2.0 * (double)(next_random() >> 11) * 0x1p-53 - 1.0));
    differ += COMPARE_KERNEL(asin, f32, float, x32, n32);
    free(x32);
    /* binary64: random bit patterns, and uniform on [-pi, pi] and [-1, 1] */
    uint64_t *x64 = malloc(F64_COUNT * sizeof *x64);
    assert_non_null(x64);
    for (int set = 0; set < 3; set++) {
        for (size_t i = 0; i < F64_COUNT; i++) {
            const double u = 2.0 * (double)(next_random() >> 11) * 0x1p-53 - 1.0;
            x64[i] = set == 0 ? next_random() : bits_of_f64(set == 1 ? u * 3.14159265358979 : u);
        }
        if (set != 2) differ += COMPARE_KERNEL(cos, f64, double, x64, F64_COUNT);
        if (set != 1) differ += COMPARE_KERNEL(asin, f64, double, x64, F64_COUNT);
    }
    free(x64);
    assert_int_equal(differ, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(binary64_near_rounding_boundaries),
        cmocka_unit_test(binary64_special_operands),
        cmocka_unit_test(binary32_near_rounding_boundaries),
        cmocka_unit_test(kernels_with_emulated_fma_give_the_librarys_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
