#define _POSIX_C_SOURCE 200809L /* pthread_attr_setstack */
/* omk kernels: results independent of the caller's floating-point environment, special values of every kernel, the
 * official ONNX examples, the array contract (n = 0, odd lengths, in place, unaligned), and the build OMK_ISA selects
 * (the test_kernels_<isa> ctest variants force each one). */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench.h"
#include "omk.h"
#include "omk_isa_expect.h"
#include "omk_table16.h"
#include "test_bits.h"
#include "registry.h"

#ifndef ULPB_TEST_DATA
#error "ULPB_TEST_DATA must name tests/data"
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>

/* The 16-bit kernels' direct evaluation (no table, no binary32 path), from the static library. */
void omk_cos_f16_direct_scalar(const uint16_t *x, uint16_t *y, size_t n);
void omk_cos_bf16_direct_scalar(const uint16_t *x, uint16_t *y, size_t n);
void omk_asin_f16_direct_scalar(const uint16_t *x, uint16_t *y, size_t n);
void omk_asin_bf16_direct_scalar(const uint16_t *x, uint16_t *y, size_t n);

/* Bit patterns of the binary32 and binary64 inputs: specials, subnormals of both signs, near +-1, huge, random. */
static uint64_t env_test_bits(int bytes, uint64_t i) {
    static const uint64_t f32[] = {0x00000001, 0x80000001, 0x007fffff, 0x80400000, 0x00800000, 0x3f800000,
                                   0x3f7fffff, 0xbf7fffff, 0x3f800001, 0x7f7fffff, 0x7f800000, 0x7fc00000,
                                   0xff800001, 0x00000000, 0x80000000, 0x3fc90fdb, 0x4b000000, 0x3e800000};
    static const uint64_t f64[] = {0x1,
                                   0x8000000000000001,
                                   0x000fffffffffffff,
                                   0x8008000000000000,
                                   0x0010000000000000,
                                   0x3ff0000000000000,
                                   0x3fefffffffffffff,
                                   0xbfefffffffffffff,
                                   0x3ff0000000000001,
                                   0x7fefffffffffffff,
                                   0x7ff0000000000000,
                                   0x7ff8000000000000,
                                   0xfff0000000000001,
                                   0x0,
                                   0x8000000000000000,
                                   0x3ff921fb54442d18,
                                   0x4330000000000000,
                                   0x3fd0000000000000};
    const size_t listed = sizeof f32 / sizeof f32[0];
    if (i < listed) return bytes == 4 ? f32[i] : f64[i];
    uint64_t z = i * 0x9e3779b97f4a7c15ull; /* splitmix64: mostly small magnitudes, some subnormals */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull, z = (z ^ (z >> 27)) * 0x94d049bb133111ebull, z ^= z >> 31;
    if (bytes == 4) {
        const uint32_t exponent = (uint32_t)(z >> 40) % 140; /* 0: subnormal; up to 2^12 */
        return (z & 0x807fffffu) | (exponent << 23);
    }
    const uint64_t exponent = (z >> 52) % 1040; /* 0: subnormal; up to 2^16 */
    return (z & 0x800fffffffffffffull) | (exponent << 52);
}

/* A runtime may call with any MXCSR: FTZ/DAZ, another rounding mode, exceptions unmasked (traps). Every kernel must
 * return the bits it returns in the default environment, restore the caller's MXCSR (no flag raised), and not keep
 * the environment of its first call in the 16-bit tables: this runs first in the process, so the table-reading builds
 * fill them here, under the first hostile setting, and their results are held to the direct evaluation. */
static void results_ignore_the_callers_fp_environment(void **state) {
    (void)state;
    static const struct {
        unsigned int csr;
        const char *name;
    } hostile[] = {{0x1f80 | 0x4000, "round upward"},
                   {0x1f80 | 0x8040, "FTZ and DAZ"},
                   {0x1f80 | 0x2000, "round downward"},
                   {0x1f80 | 0x6000, "round toward zero"},
                   {0x0000, "every exception unmasked"},
                   {0x1f80 | 0x003f, "every flag already raised"},
                   {0x1f80 | 0x0040, "DAZ alone"},
                   {0x1f80 | 0x8000, "FTZ alone"},
                   {0x1f80 | 0x8020, "FTZ with the inexact flag raised"}};
    enum { N16 = 65536, N = 4099 };
    uint16_t *h_in = malloc(N16 * 2), *h_out = malloc(N16 * 2), *h_want = malloc(N16 * 2);
    float *f_in = malloc(N * 4), *f_out = malloc(N * 4), *f_want = malloc(N * 4);
    double *d_in = malloc(N * 8), *d_out = malloc(N * 8), *d_want = malloc(N * 8);
    for (uint32_t i = 0; i < N16; i++) h_in[i] = (uint16_t)i;
    for (uint64_t i = 0; i < N; i++) {
        const uint32_t b32 = (uint32_t)env_test_bits(4, i);
        const uint64_t b64 = env_test_bits(8, i);
        memcpy(&f_in[i], &b32, 4);
        memcpy(&d_in[i], &b64, 8);
    }
    void (*const k16[4])(const uint16_t *, uint16_t *, size_t) = {omk_cos_f16, omk_cos_bf16, omk_asin_f16,
                                                                  omk_asin_bf16};
    void (*const direct16[4])(const uint16_t *, uint16_t *, size_t) = {
        omk_cos_f16_direct_scalar, omk_cos_bf16_direct_scalar, omk_asin_f16_direct_scalar, omk_asin_bf16_direct_scalar};
    void (*const k32[2])(const float *, float *, size_t) = {omk_cos_f32, omk_asin_f32};
    void (*const k64[2])(const double *, double *, size_t) = {omk_cos_f64, omk_asin_f64};
    const unsigned int default_csr = _mm_getcsr();
    assert_int_equal(default_csr & ~0x3fu, 0x1f80); /* the test starts in the default environment */
    for (size_t e = 0; e < sizeof hostile / sizeof hostile[0]; e++) {
        for (int k = 0; k < 8; k++) {
            const int kind = k < 4 ? 16 : k < 6 ? 32 : 64;
            _mm_setcsr(hostile[e].csr);
            if (kind == 16) k16[k](h_in, h_out, N16);
            if (kind == 32) k32[k - 4](f_in, f_out, N);
            if (kind == 64) k64[k - 6](d_in, d_out, N);
            const unsigned int after = _mm_getcsr();
            _mm_setcsr(default_csr & ~0x3fu);
            if (after != hostile[e].csr)
                fail_msg("%s: kernel %d left MXCSR 0x%04x, not the caller's 0x%04x", hostile[e].name, k, after,
                         hostile[e].csr);
            size_t differ = 0, first = 0;
            if (kind == 16) {
                /* the bits of a call in the default environment, and the values of the direct evaluation (not a table
                 * filled under the first hostile setting; its NaN keeps x's sign where the entry points' cos is +NaN)
                 */
                k16[k](h_in, h_want, N16);
                for (size_t i = N16; i-- > 0;)
                    if (h_out[i] != h_want[i]) differ++, first = i;
                direct16[k](h_in, h_want, N16);
                const uint16_t exponent = (k & 1) ? 0x7f80 : 0x7c00; /* bfloat16 or binary16 */
                for (size_t i = N16; i-- > 0;) {
                    const int both_nan = (h_out[i] & 0x7fff) > exponent && (h_want[i] & 0x7fff) > exponent;
                    if (h_out[i] != h_want[i] && !both_nan) differ++, first = i;
                }
            } else if (kind == 32) {
                k32[k - 4](f_in, f_want, N);
                for (size_t i = N; i-- > 0;)
                    if (memcmp(&f_out[i], &f_want[i], 4) != 0) differ++, first = i; /* NaN payloads too */
            } else {
                k64[k - 6](d_in, d_want, N);
                for (size_t i = N; i-- > 0;)
                    if (memcmp(&d_out[i], &d_want[i], 8) != 0) differ++, first = i;
            }
            if (differ)
                fail_msg("%s: kernel %d differs from the default environment in %zu lanes, first %zu", hostile[e].name,
                         k, differ, first);
        }
    }
    _mm_setcsr(default_csr);
    free(h_in), free(h_out), free(h_want), free(f_in), free(f_out), free(f_want), free(d_in), free(d_out), free(d_want);
}
#endif

static const uint16_t F16_NAN = 0x7e00, F16_SNAN = 0x7c01, F16_INF = 0x7c00, F16_ONE = 0x3c00;
static const uint16_t BF16_NAN = 0x7fc0, BF16_SNAN = 0x7f81, BF16_INF = 0x7f80, BF16_ONE = 0x3f80;

static int f16_is_qnan(uint16_t h) { return (h & 0x7e00) == 0x7e00; }
static int bf16_is_qnan(uint16_t h) { return (h & 0x7fc0) == 0x7fc0; }

static void cos_special_values(void **state) {
    (void)state;
    const double d_in[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 0x1p-1074, -0x1p-1022};
    double d_out[8];
    omk_cos_f64(d_in, d_out, 8);
    for (int i = 0; i < 4; i++) assert_true(isnan(d_out[i]));
    for (int i = 4; i < 8; i++) assert_true(d_out[i] == 1.0);
    const float f_in[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 0x1p-149f};
    float f_out[6];
    omk_cos_f32(f_in, f_out, 6);
    for (int i = 0; i < 3; i++) assert_true(isnan(f_out[i]));
    for (int i = 3; i < 6; i++) assert_true(f_out[i] == 1.0f);
    const uint16_t h_in[] = {F16_NAN, F16_SNAN, F16_INF, F16_INF | 0x8000, 0x0000, 0x8000, 0x0001};
    uint16_t h_out[7];
    omk_cos_f16(h_in, h_out, 7);
    for (int i = 0; i < 4; i++) assert_true(f16_is_qnan(h_out[i] & 0x7fff));
    for (int i = 4; i < 7; i++) assert_int_equal(h_out[i], F16_ONE);
    const uint16_t b_in[] = {BF16_NAN, BF16_SNAN, BF16_INF, BF16_INF | 0x8000, 0x0000, 0x8000, 0x0001};
    uint16_t b_out[7];
    omk_cos_bf16(b_in, b_out, 7);
    for (int i = 0; i < 4; i++) assert_true(bf16_is_qnan(b_out[i] & 0x7fff));
    for (int i = 4; i < 7; i++) assert_int_equal(b_out[i], BF16_ONE);
}

static void asin_special_values(void **state) {
    (void)state;
    const double d_in[] = {NAN, INFINITY, -INFINITY, 1.0 + 0x1p-52, -2.0, 0.0, -0.0, 1.0, -1.0, 0x1p-1074, -0x1p-1030};
    double d_out[11];
    omk_asin_f64(d_in, d_out, 11);
    for (int i = 0; i < 5; i++) assert_true(isnan(d_out[i]));
    assert_true(d_out[5] == 0.0 && !signbit(d_out[5]));
    assert_true(d_out[6] == 0.0 && signbit(d_out[6]));
    assert_true(d_out[7] == 0x1.921fb54442d18p+0 && d_out[8] == -0x1.921fb54442d18p+0);
    assert_true(d_out[9] == 0x1p-1074 && d_out[10] == -0x1p-1030); /* subnormals exact */
    const float f_in[] = {NAN, INFINITY, 1.0000001f, -3.0f, 0.0f, -0.0f, 1.0f, -1.0f, 0x1p-149f, -0x1.8p-130f};
    float f_out[10];
    omk_asin_f32(f_in, f_out, 10);
    for (int i = 0; i < 4; i++) assert_true(isnan(f_out[i]));
    assert_true(f_out[4] == 0.0f && !signbit(f_out[4]));
    assert_true(f_out[5] == 0.0f && signbit(f_out[5]));
    assert_true(f_out[6] == 0x1.921fb6p+0f && f_out[7] == -0x1.921fb6p+0f);
    assert_true(f_out[8] == 0x1p-149f && f_out[9] == -0x1.8p-130f);
    const uint16_t h_in[] = {F16_NAN, F16_SNAN, F16_INF, 0x3c01, 0xc000, 0x0000,
                             0x8000,  0x3c00,   0xbc00,  0x0001, 0x83ff};
    uint16_t h_out[11];
    omk_asin_f16(h_in, h_out, 11);
    for (int i = 0; i < 5; i++) assert_true(f16_is_qnan(h_out[i] & 0x7fff));
    assert_int_equal(h_out[5], 0x0000);
    assert_int_equal(h_out[6], 0x8000);
    assert_int_equal(h_out[7], 0x3e48); /* pi/2 rounded to binary16 */
    assert_int_equal(h_out[8], 0xbe48);
    assert_int_equal(h_out[9], 0x0001);
    assert_int_equal(h_out[10], 0x83ff);
    const uint16_t b_in[] = {BF16_NAN, BF16_SNAN, BF16_INF, 0x3f81, 0xc000, 0x0000,
                             0x8000,   0x3f80,    0xbf80,   0x0001, 0x807f};
    uint16_t b_out[11];
    omk_asin_bf16(b_in, b_out, 11);
    for (int i = 0; i < 5; i++) assert_true(bf16_is_qnan(b_out[i] & 0x7fff));
    assert_int_equal(b_out[5], 0x0000);
    assert_int_equal(b_out[6], 0x8000);
    assert_int_equal(b_out[7], 0x3fc9);
    assert_int_equal(b_out[8], 0xbfc9);
    assert_int_equal(b_out[9], 0x0001);
    assert_int_equal(b_out[10], 0x807f);
}

/* A NaN keeps its payload, quieted, and its sign (README, "API"), in a block where the vector paths see it beside
 * ordinary lanes; binary16 and bfloat16 cos compute from |x|, so their NaN is positive. */
static void nan_payloads_are_kept(void **state) {
    (void)state;
    enum { N = 37 };
    static const uint64_t d_nans[] = {0x7ff0000000000001, 0x7ff000000000dead, 0x7ff8000000000000,
                                      0x7fffffffffffffff, 0xfff0000000000001, 0xfff8000000012345};
    static const uint32_t f_nans[] = {0x7f800001, 0x7fa00000, 0x7fc00000, 0x7fffffff, 0xff800001, 0xffc01234};
    static const uint16_t h_nans[] = {0x7c01, 0x7d00, 0x7e00, 0x7fff, 0xfc01, 0xfe55};
    static const uint16_t b_nans[] = {0x7f81, 0x7fa0, 0x7fc0, 0x7fff, 0xff81, 0xffc5};
    enum { NANS = sizeof d_nans / sizeof d_nans[0] };
    for (int op = 0; op < 2; op++) {
        double d[N], dy[N];
        float f[N], fy[N];
        uint16_t h[N], hy[N], b[N], by[N];
        for (int i = 0; i < N; i++) d[i] = 0.25, f[i] = 0.25f, h[i] = 0x3400, b[i] = 0x3e80;
        for (int k = 0; k < NANS; k++) { /* positions 5, 11, ..., 35: different lanes of each vector width */
            const int at = 5 + 6 * k;
            memcpy(&d[at], &d_nans[k], 8);
            memcpy(&f[at], &f_nans[k], 4);
            h[at] = h_nans[k];
            b[at] = b_nans[k];
        }
        (op ? omk_asin_f64 : omk_cos_f64)(d, dy, N);
        (op ? omk_asin_f32 : omk_cos_f32)(f, fy, N);
        (op ? omk_asin_f16 : omk_cos_f16)(h, hy, N);
        (op ? omk_asin_bf16 : omk_cos_bf16)(b, by, N);
        const uint16_t half_sign = op ? 0xffff : 0x7fff; /* the bits of a 16-bit NaN that cos keeps */
        for (int k = 0; k < NANS; k++) {
            const int at = 5 + 6 * k;
            uint64_t d_bits;
            uint32_t f_bits;
            memcpy(&d_bits, &dy[at], 8);
            memcpy(&f_bits, &fy[at], 4);
            if (d_bits != (d_nans[k] | 0x0008000000000000) || f_bits != (f_nans[k] | 0x00400000) ||
                hy[at] != ((h_nans[k] | 0x0200) & half_sign) || by[at] != ((b_nans[k] | 0x0040) & half_sign))
                fail_msg("%s of NaN %d: f64 0x%016llx, f32 0x%08x, f16 0x%04x, bf16 0x%04x", op ? "asin" : "cos", k,
                         (unsigned long long)d_bits, (unsigned)f_bits, hy[at], by[at]);
        }
    }
}

/* A NaN made from a number (cos of an infinity, asin beyond [-1, 1]) has the bits omk.h documents, beside ordinary
 * lanes: the x86 default NaN, but 16-bit asin's takes the sign opposite to x's. */
static void made_nans_have_the_documented_bits(void **state) {
    (void)state;
    enum { N = 37, MADE = 4 };
    /* per op: +inf and -inf, and for asin 1 + 1 ulp and -(1 + 1 ulp) */
    static const uint64_t d_in[2][MADE] = {
        {0x7ff0000000000000, 0xfff0000000000000, 0, 0},
        {0x7ff0000000000000, 0xfff0000000000000, 0x3ff0000000000001, 0xbff0000000000001}};
    static const uint32_t f_in[2][MADE] = {{0x7f800000, 0xff800000, 0, 0},
                                           {0x7f800000, 0xff800000, 0x3f800001, 0xbf800001}};
    static const uint16_t h_in[2][MADE] = {{0x7c00, 0xfc00, 0, 0}, {0x7c00, 0xfc00, 0x3c01, 0xbc01}};
    static const uint16_t b_in[2][MADE] = {{0x7f80, 0xff80, 0, 0}, {0x7f80, 0xff80, 0x3f81, 0xbf81}};
    for (int op = 0; op < 2; op++) {
        const int made = op ? 4 : 2;
        double d[N], dy[N];
        float f[N], fy[N];
        uint16_t h[N], hy[N], b[N], by[N];
        for (int i = 0; i < N; i++) d[i] = 0.25, f[i] = 0.25f, h[i] = 0x3400, b[i] = 0x3e80;
        for (int k = 0; k < made; k++) { /* positions 3, 12, 21, 30: different lanes of each vector width */
            const int at = 3 + 9 * k;
            memcpy(&d[at], &d_in[op][k], 8);
            memcpy(&f[at], &f_in[op][k], 4);
            h[at] = h_in[op][k];
            b[at] = b_in[op][k];
        }
        (op ? omk_asin_f64 : omk_cos_f64)(d, dy, N);
        (op ? omk_asin_f32 : omk_cos_f32)(f, fy, N);
        (op ? omk_asin_f16 : omk_cos_f16)(h, hy, N);
        (op ? omk_asin_bf16 : omk_cos_bf16)(b, by, N);
        for (int k = 0; k < made; k++) {
            const int at = 3 + 9 * k;
            const uint16_t x_sign = h_in[op][k] & 0x8000, half_sign = op ? x_sign ^ 0x8000 : 0x8000;
            uint64_t d_bits;
            uint32_t f_bits;
            memcpy(&d_bits, &dy[at], 8);
            memcpy(&f_bits, &fy[at], 4);
            if (d_bits != 0xfff8000000000000 || f_bits != 0xffc00000 || hy[at] != (0x7e00 | half_sign) ||
                by[at] != (0x7fc0 | half_sign))
                fail_msg("%s, input %d: f64 0x%016llx, f32 0x%08x, f16 0x%04x, bf16 0x%04x", op ? "asin" : "cos", k,
                         (unsigned long long)d_bits, (unsigned)f_bits, hy[at], by[at]);
        }
    }
}

/* Specials (NaN with payloads, infinities, asin's |x| >= 1) beside ordinary lanes in the same blocks, with huge cos
 * arguments among them and without: the array loops give specials their results in the passes after the first ones,
 * which compute the huge path only for a block that needs it, and each result must be the one a call on that element
 * alone gives (in a block that holds nothing else), in place too. (That special values are the right ones is
 * cos_special_values' and nan_payloads_are_kept's business.) */
static void specials_beside_huge_arguments(void **state) {
    (void)state;
    enum { N = 1000 };
    /* the last three huge for cos (|x| >= 2^20) */
    static const uint64_t d_odd[] = {
        0x7ff0000000000001, 0xfff8000000012345, 0x7ff0000000000000, 0xfff0000000000000, 0x3ff0000000000000,
        0xbff0000000000000, 0x3ff0000000000001, 0xc00921fb54442d18, 0x7fefffffffffffff, 0x4415af1d78b58c40 /* 1e20 */,
        0x46293e5939a08cea /* 1e30 */};
    static const uint32_t f_odd[] = {0x7f800001, 0xffc01234, 0x7f800000, 0xff800000, 0x3f800000,
                                     0xbf800000, 0x3f800001, 0xc0490fdb, 0x7f7fffff, 0x60ad78ec /* 1e20 */,
                                     0x4b800001 /* 2^24 + 2 */};
    enum { ODD = sizeof d_odd / sizeof d_odd[0], HUGE_ODD = 3 };
    static double d[N], dy[N], d_in_place[N];
    static float f[N], fy[N], f_in_place[N];
    for (int with_huge = 0; with_huge < 2; with_huge++) {
        const uint64_t odd = with_huge ? ODD : ODD - HUGE_ODD;
        uint64_t z = 20261202;
        for (int i = 0; i < N; i++) {
            z = z * 6364136223846793005ull + 1442695040888963407ull;
            const double u = (double)(z >> 11) * 0x1p-53;
            const uint64_t pick = (z >> 7) % (3 * odd); /* a third of the lanes odd, the rest ordinary */
            if (pick < odd) {
                memcpy(&d[i], &d_odd[pick], 8);
                memcpy(&f[i], &f_odd[pick], 4);
            } else {
                d[i] = 2.0 * u - 1.0;
                f[i] = (float)(2.0 * u - 1.0);
            }
        }
        for (int op = 0; op < 2; op++) {
            (op ? omk_asin_f64 : omk_cos_f64)(d, dy, N);
            (op ? omk_asin_f32 : omk_cos_f32)(f, fy, N);
            memcpy(d_in_place, d, sizeof d);
            memcpy(f_in_place, f, sizeof f);
            (op ? omk_asin_f64 : omk_cos_f64)(d_in_place, d_in_place, N);
            (op ? omk_asin_f32 : omk_cos_f32)(f_in_place, f_in_place, N);
            for (int i = 0; i < N; i++) {
                double d_one;
                float f_one;
                (op ? omk_asin_f64 : omk_cos_f64)(&d[i], &d_one, 1);
                (op ? omk_asin_f32 : omk_cos_f32)(&f[i], &f_one, 1);
                if (memcmp(&d_one, &dy[i], 8) || memcmp(&f_one, &fy[i], 4) || memcmp(&d_one, &d_in_place[i], 8) ||
                    memcmp(&f_one, &f_in_place[i], 4))
                    fail_msg(
                        "%s (huge arguments: %s) at %d: f64 %a gives %a in the array (%a in place), %a alone; f32 %a "
                        "gives %a (%a in place), %a alone",
                        op ? "asin" : "cos", with_huge ? "yes" : "no", i, d[i], dy[i], d_in_place[i], d_one,
                        (double)f[i], (double)fy[i], (double)f_in_place[i], (double)f_one);
            }
        }
    }
}

/* One number as ONNX printed it, with numpy's defaults: the shortest decimal that reads back as the binary32 value, but
 * at most 8 fractional digits. Returns the binary32 value it reads as, and in *error how far the value ONNX had may
 * lie from it: 0 below 8 digits (the decimal is the value's own), else half a unit in the 8th digit plus the
 * parse's rounding. */
static float read_printed(FILE *f, double *error) {
    char token[64], *end;
    assert_int_equal(fscanf(f, "%63s", token), 1);
    const double decimal = strtod(token, &end);
    assert_true(*end == '\0' && strpbrk(token, "eE") == NULL); /* plain decimals only */
    const float value = strtof(token, NULL);
    const char *dot = strchr(token, '.');
    const int decimals = dot ? (int)strlen(dot + 1) : 0;
    assert_true(decimals <= 8);
    *error = decimals < 8 ? 0.0 : 0.5e-8 + fabs((double)value - decimal);
    return value;
}

/* tests/data/onnx_examples.txt: the six official examples. ONNX printed its inputs and outputs as numpy does
 * (read_printed) and computed the outputs with numpy's binary32 cos/asin, so omk's correctly rounded result may differ
 * from a printed output by the printing errors (the output's, and the input's times the slope) and both roundings:
 * omk's half ulp and numpy's own error, together at most ONNX_ROUNDING_ULPS binary32 ulps (0.90 on these examples).
 * With 8 printed digits this tells most results two ulps off from omk's, but not one ulp
 * off: correct rounding is test_accuracy's and the exhaustive runs' to check. */
enum { ONNX_ROUNDING_ULPS = 1 };
static void onnx_examples(void **state) {
    (void)state;
    FILE *f = fopen(ULPB_TEST_DATA "/onnx_examples.txt", "r");
    assert_non_null(f);
    char line[4096];
    int examples = 0;
    double worst = 0.0;   /* the largest error beyond printing, in ulps */
    int exact_tokens = 0; /* results whose input and output were both printed exactly */
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char name[64], op[16];
        int count;
        assert_int_equal(sscanf(line, "%63s %15s %d", name, op, &count), 3);
        float x[64], want[64], got[64];
        double x_error[64], want_error[64];
        assert_true(count > 0 && count <= 64);
        for (int i = 0; i < count; i++) x[i] = read_printed(f, &x_error[i]);
        for (int i = 0; i < count; i++) want[i] = read_printed(f, &want_error[i]);
        if (!fgets(line, sizeof line, f)) break;
        const int is_cos = strcmp(op, "cos") == 0;
        if (is_cos)
            omk_cos_f32(x, got, (size_t)count);
        else
            omk_asin_f32(x, got, (size_t)count);
        for (int i = 0; i < count; i++) {
            const double widest = fabs((double)x[i]) + x_error[i];
            const double slope = is_cos ? 1.0 : 1.0 / sqrt(1.0 - widest * widest);
            const double ulp = nextafterf(fabsf(want[i]), INFINITY) - fabsf(want[i]);
            const double beyond =
                fabs((double)got[i] - (double)want[i]) - want_error[i] - (x_error[i] ? slope * x_error[i] : 0);
            if (beyond / ulp > worst) worst = beyond / ulp;
            exact_tokens += x_error[i] == 0 && want_error[i] == 0;
            if (!(beyond <= ONNX_ROUNDING_ULPS * ulp))
                fail_msg("%s[%d]: %s(%.9g) = %.9g, expected %.9g (%.3g ulp beyond the printing errors)", name, i, op,
                         (double)x[i], (double)got[i], (double)want[i], beyond / ulp);
        }
        examples++;
    }
    fclose(f);
    assert_int_equal(examples, 6);
    print_message("ONNX examples: at most %.3f binary32 ulp beyond the printing errors (%d of the results printed "
                  "exactly)\n",
                  worst, exact_tokens);
}

/* Every registry entry (omk, peers, baselines) the CPU runs against itself one element at a
 * time: all lengths from 0 to 70, in place, and shifted off any vector alignment. Peers get
 * inputs from the op's natural domain: SLEEF picks one argument reduction per vector from its
 * largest lane, so a huge or NaN neighbour changes the other lanes' results. */
/* Random bits (xorshift64 from a fixed nonzero state). */
static void fill_random_words(uint64_t *words, size_t count, uint64_t state) {
    for (size_t i = 0; i < count; i++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        words[i] = state;
    }
}

/* omk.h's stack bound: each kernel runs in a thread on a stack painted beforehand, over inputs that take every path
 * (random bits: huge cos arguments, NaN, |x| > 1; and one element in STACK_HARD_STRIDE from the hard-case tables of
 * tests/data, which the rounding tests reject: the binary32 kernels' double-double path, the binary64 kernels'
 * accurate phases, the published worst cases their fixed-point phase), on separate arrays and with y one element past
 * x, and the bytes it touched beyond an empty thread's must stay within OMK_STACK_BYTES_MAX. */
enum { STACK_HARD_STRIDE = 37, MAX_HARD_INPUTS = 512 };

/* The binary32 (bytes 4) or binary64 (8) inputs of op in the hard-case tables, as bit patterns; returns the count. */
static size_t hard_inputs(ulpb_op_id op, size_t bytes, uint64_t *out) {
    const long rows = table_inputs(ULPB_TEST_DATA, bytes == 4 ? "hard_cases_f32.txt" : "hard_cases_f64.txt",
                                   ulpb_ops[op].name, out, MAX_HARD_INPUTS);
    assert_true(rows >= 0);
    long worst = 0;
    if (bytes == 8)
        worst = table_inputs(ULPB_TEST_DATA, "worst_cases_f64.txt", ulpb_ops[op].name, out + rows,
                             MAX_HARD_INPUTS - (size_t)rows);
    assert_true(worst >= 0);
    return (size_t)(rows + worst);
}

typedef struct {
    const ulpb_entry *entry;
    const void *x;
    void *y;
    size_t n;
} stack_job;

static void *run_stack_job(void *arg) {
    const stack_job *job = arg;
    if (job->entry) job->entry->fn(job->x, job->y, job->n);
    return NULL;
}

static size_t stack_bytes_touched(const stack_job *job) {
    enum { STACK_SIZE = 1 << 20, PAINT = 0xa5 };
    unsigned char *stack = aligned_alloc(4096, STACK_SIZE);
    assert_non_null(stack);
    memset(stack, PAINT, STACK_SIZE);
    pthread_attr_t attr;
    pthread_t thread;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstack(&attr, stack, STACK_SIZE), 0);
    assert_int_equal(pthread_create(&thread, &attr, run_stack_job, (void *)job), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    pthread_attr_destroy(&attr);
    size_t untouched = 0; /* the stack grows down from stack + STACK_SIZE */
    while (untouched < STACK_SIZE && stack[untouched] == PAINT) untouched++;
    free(stack);
    return STACK_SIZE - untouched;
}

static void stack_use_is_bounded(void **state) {
    (void)state;
#ifdef ULPB_SANITIZED
    skip(); /* the sanitizers' redzones: the release builds hold the bound */
#endif
    enum { N = 4096 };
    uint64_t *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *overlapped = malloc((N + 1) * sizeof *x);
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(overlapped);
    uint64_t *random_words = malloc(N * sizeof *x);
    assert_non_null(random_words);
    fill_random_words(random_words, N, 0x9e3779b97f4a7c15ull);
    const stack_job empty = {NULL, NULL, NULL, 0};
    const size_t base = stack_bytes_touched(&empty);
    size_t checked = 0, largest = 0;
    const ulpb_entry *largest_entry = NULL;
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *entry = &ulpb_entries[e];
        if (entry->role != ULPB_ROLE_PRODUCTION || !ulpb_entry_available(entry)) continue;
        const size_t bytes = ulpb_dtypes[entry->dtype].bytes, n = N * sizeof *x / bytes;
        memcpy(x, random_words, N * sizeof *x);
        if (bytes >= 4) {
            uint64_t hard[MAX_HARD_INPUTS];
            const size_t count = hard_inputs(entry->op, bytes, hard);
            assert_true(count >= 30);
            for (size_t i = 0, k = 0; i < n; i += STACK_HARD_STRIDE, k = (k + 1) % count)
                memcpy((unsigned char *)x + i * bytes, &hard[k], bytes); /* little-endian: the low bytes */
        }
        const stack_job job = {entry, x, y, n};
        stack_bytes_touched(&job); /* first use: tables filled, dispatch settled */
        size_t used = stack_bytes_touched(&job) - base;
        memcpy(overlapped, x, N * sizeof *x); /* y one element past x: the entry point runs from the end */
        const stack_job trailing = {entry, overlapped, (unsigned char *)overlapped + ulpb_dtypes[entry->dtype].bytes,
                                    n};
        const size_t used_trailing = stack_bytes_touched(&trailing) - base;
        used = used_trailing > used ? used_trailing : used;
        if (used > OMK_STACK_BYTES_MAX)
            fail_msg("%s %s %s: %zu bytes of stack, more than omk.h's %d", entry->impl, ulpb_ops[entry->op].name,
                     ulpb_dtypes[entry->dtype].name, used, OMK_STACK_BYTES_MAX);
        if (used > largest) largest = used, largest_entry = entry;
        checked++;
    }
    assert_true(checked >= 8);
    print_message("stack: at most %zu bytes (%s %s, the %s build)\n", largest, ulpb_ops[largest_entry->op].name,
                  ulpb_dtypes[largest_entry->dtype].name, omk_isa_in_use());
    free(x), free(y), free(overlapped), free(random_words);
}

/* The same bound on each kernel's first call in a process, a child forked before the parent calls omk: the first call
 * settles the dispatch and may fill a 16-bit table, and a lazily bound program resolves omk's calls into libc there
 * (the dynamic linker's resolver saves the AVX-512 registers on the caller's stack, about 3.6 KiB). Separate arrays
 * and y one element past x, each in a child of its own; the inputs of stack_use_is_bounded. */
static void first_calls_stay_within_the_stack_bound(void **state) {
    (void)state;
#ifdef ULPB_SANITIZED
    skip();
#endif
    enum { N = 4096 };
    uint64_t *x = malloc((N + 1) * sizeof *x), *y = malloc(N * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    const stack_job empty = {NULL, NULL, NULL, 0};
    const size_t base = stack_bytes_touched(&empty);
    size_t checked = 0, largest = 0;
    const ulpb_entry *largest_entry = NULL;
    int largest_trailing = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *entry = &ulpb_entries[e];
        if (entry->role != ULPB_ROLE_PRODUCTION || !ulpb_entry_available(entry)) continue;
        const size_t bytes = ulpb_dtypes[entry->dtype].bytes, n = N * sizeof *x / bytes;
        for (int trailing = 0; trailing < 2; trailing++) {
            fill_random_words(x, N + 1, 0x9e3779b97f4a7c15ull);
            if (bytes >= 4) {
                uint64_t hard[MAX_HARD_INPUTS];
                const size_t count = hard_inputs(entry->op, bytes, hard);
                for (size_t i = 0, k = 0; i < n; i += STACK_HARD_STRIDE, k = (k + 1) % count)
                    memcpy((unsigned char *)x + i * bytes, &hard[k], bytes);
            }
            const stack_job job = {entry, x, trailing ? (void *)((unsigned char *)x + bytes) : (void *)y, n};
            int result[2];
            assert_int_equal(pipe(result), 0);
            fflush(NULL);
            const pid_t child = fork();
            assert_true(child >= 0);
            if (child == 0) { /* no cmocka here: a failed assertion would unwind into the parent's copy */
                const size_t used = stack_bytes_touched(&job) - base;
                _exit(write(result[1], &used, sizeof used) == (ssize_t)sizeof used ? 0 : 1);
            }
            close(result[1]);
            size_t used = 0;
            const ssize_t got = read(result[0], &used, sizeof used);
            close(result[0]);
            int status;
            assert_int_equal(waitpid(child, &status, 0), child);
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == (ssize_t)sizeof used);
            if (used > OMK_STACK_BYTES_MAX)
                fail_msg("%s %s %s, first call%s: %zu bytes of stack, more than omk.h's %d", entry->impl,
                         ulpb_ops[entry->op].name, ulpb_dtypes[entry->dtype].name,
                         trailing ? " with y one element past x" : "", used, OMK_STACK_BYTES_MAX);
            if (used > largest) largest = used, largest_entry = entry, largest_trailing = trailing;
            checked++;
        }
    }
    assert_true(checked >= 16);
    print_message("stack on a first call: at most %zu bytes (%s %s%s, the %s build)\n", largest,
                  ulpb_ops[largest_entry->op].name, ulpb_dtypes[largest_entry->dtype].name,
                  largest_trailing ? ", y one element past x" : "", omk_isa_in_use());
    free(x), free(y);
}

/* Threads that make their first calls of omk at the same moment, in a child forked before the parent calls omk (the
 * dispatch undecided, the tables empty): each of CONCURRENT_THREADS calls every kernel the build runs, starting from a
 * different one, so that several decide the dispatch, fill the same 16-bit table and resolve the same entry point at
 * once; every thread's results must be those the kernels give once the process has settled. */
enum { CONCURRENT_THREADS = 8, CONCURRENT_N = 2048, CONCURRENT_KERNELS = 8 };
typedef struct {
    pthread_barrier_t *start;
    const ulpb_entry *const *kernels;
    int kernel_count, first;
    const uint64_t *x;
    uint64_t (*y)[CONCURRENT_N]; /* one row per kernel */
} concurrent_job;

static void *run_concurrent_job(void *arg) {
    const concurrent_job *job = arg;
    pthread_barrier_wait(job->start);
    for (int k = 0; k < job->kernel_count; k++) {
        const ulpb_entry *e = job->kernels[(job->first + k) % job->kernel_count];
        const size_t n = CONCURRENT_N * sizeof(uint64_t) / ulpb_dtypes[e->dtype].bytes;
        e->fn(job->x, job->y[(job->first + k) % job->kernel_count], n);
    }
    return NULL;
}

/* The child's side: 0 when every thread's results match, else 1 (with the first difference on stderr). */
static int concurrent_first_calls_child(const ulpb_entry *const *kernels, int kernel_count) {
    static uint64_t x[CONCURRENT_N], y[CONCURRENT_THREADS][CONCURRENT_KERNELS][CONCURRENT_N], settled[CONCURRENT_N];
    fill_random_words(x, CONCURRENT_N, 0x2545f4914f6cdd1dull);
    pthread_barrier_t start;
    pthread_t threads[CONCURRENT_THREADS];
    concurrent_job jobs[CONCURRENT_THREADS];
    if (pthread_barrier_init(&start, NULL, CONCURRENT_THREADS)) return 1;
    for (int t = 0; t < CONCURRENT_THREADS; t++) {
        jobs[t] = (concurrent_job){&start, kernels, kernel_count, t % kernel_count, x, y[t]};
        if (pthread_create(&threads[t], NULL, run_concurrent_job, &jobs[t])) return 1;
    }
    for (int t = 0; t < CONCURRENT_THREADS; t++) pthread_join(threads[t], NULL);
    for (int k = 0; k < kernel_count; k++) {
        const ulpb_entry *e = kernels[k];
        const size_t bytes = ulpb_dtypes[e->dtype].bytes;
        e->fn(x, settled, CONCURRENT_N * sizeof(uint64_t) / bytes);
        for (int t = 0; t < CONCURRENT_THREADS; t++)
            if (memcmp(y[t][k], settled, sizeof settled) != 0) {
                fprintf(stderr, "thread %d: %s %s %s differs from the settled process's results\n", t, e->impl,
                        ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name);
                return 1;
            }
    }
    return 0;
}

static void concurrent_first_calls_agree(void **state) {
    (void)state;
    const ulpb_entry *kernels[CONCURRENT_KERNELS];
    int kernel_count = 0;
    for (size_t e = 0; e < ulpb_entry_count && kernel_count < CONCURRENT_KERNELS; e++)
        if (ulpb_entries[e].role == ULPB_ROLE_PRODUCTION && ulpb_entry_available(&ulpb_entries[e]))
            kernels[kernel_count++] = &ulpb_entries[e];
    assert_int_equal(kernel_count, CONCURRENT_KERNELS);
    fflush(NULL);
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) _exit(concurrent_first_calls_child(kernels, kernel_count)); /* no cmocka in the child */
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void array_contract(void **state) {
    (void)state;
    enum { MAX_N = 70, MAX_SHIFT = 7 };
    size_t omk_negative_f64 = 0; /* negative inputs given to omk's binary64 kernels */
    size_t production = 0, production_checked = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *entry = &ulpb_entries[e];
        production += entry->role == ULPB_ROLE_PRODUCTION;
        if (!ulpb_entry_available(entry)) continue; /* needs an ISA this CPU lacks */
        production_checked += entry->role == ULPB_ROLE_PRODUCTION;
        const size_t bytes = ulpb_dtypes[entry->dtype].bytes;
        entry->fn(NULL, NULL, 0); /* n == 0 with NULL pointers */
        unsigned char *in = aligned_alloc(64, 1024);
        unsigned char *out = aligned_alloc(64, 1024);
        unsigned char *one = malloc(8);
        assert_non_null(in);
        assert_non_null(out);
        for (size_t n = 1; n <= MAX_N; n++) {
            for (size_t shift = 0; shift <= MAX_SHIFT; shift++) {
                unsigned char *x = in + shift * bytes, *y = out + shift * bytes;
                for (size_t i = 0; i < n * bytes; i++) x[i] = (unsigned char)(i * 37 + n * 11 + shift);
                if (bytes == 8) /* keep doubles moderate (|x| < 2) so the test stays fast; both signs */
                    for (size_t i = 0; i < n; i++) x[i * 8 + 7] = (unsigned char)(0x3f | (x[i * 8 + 7] & 0x80));
                if (entry->role != ULPB_ROLE_PRODUCTION) {
                    const ulpb_op *op = &ulpb_ops[entry->op];
                    const ulpb_input_set domain = {"domain", entry->op, op->domain_lo, op->domain_hi, "", NULL, 0};
                    ulpb_bench_inputs(&domain, entry->dtype, n * 8 + shift, 0, x, n);
                }
                if (bytes == 8 && entry->role == ULPB_ROLE_PRODUCTION)
                    for (size_t i = 0; i < n; i++) omk_negative_f64 += (x[i * 8 + 7] & 0x80) != 0;
                entry->fn(x, y, n);
                for (size_t i = 0; i < n; i++) {
                    entry->fn(x + i * bytes, one, 1);
                    if (memcmp(one, y + i * bytes, bytes) != 0)
                        fail_msg("%s %s %s: n=%zu shift=%zu element %zu differs from a single call", entry->impl,
                                 ulpb_ops[entry->op].name, ulpb_dtypes[entry->dtype].name, n, shift, i);
                }
                entry->fn(x, x, n); /* in place */
                assert_memory_equal(x, y, n * bytes);
            }
        }
        free(in);
        free(out);
        free(one);
    }
    assert_true(omk_negative_f64 > 0);
    assert_true(production >= 8 && production_checked == production); /* omk runs on every CPU */
}

/* omk.h: any overlap of x and y gives the results separate arrays would, as memmove gives for copies: y past x (the
 * entry points then run from the end) and y before x, by offsets around the array loops' blocks and the entry points'
 * chunks, over random bits (every path: huge cos arguments, NaN, |x| > 1, lanes the rounding tests reject). */
static void any_overlap_gives_separate_results(void **state) {
    (void)state;
    static const size_t lengths[] = {1, 2, 5, 33, 129, 300, 700, 1100};
    static const size_t offsets[] = {1, 2, 3, 8, 17, 64, 127, 128, 129, 256, 257, 511, 512, 513, 1099};
    enum { MAX_ELEMENTS = 1100 + 1099, MAX_BYTES = MAX_ELEMENTS * 8 };
    unsigned char *buffer = malloc(MAX_BYTES), *expected = malloc(MAX_BYTES);
    uint64_t *source = malloc(MAX_BYTES);
    assert_non_null(buffer);
    assert_non_null(source);
    assert_non_null(expected);
    fill_random_words(source, MAX_ELEMENTS, 0x2545f4914f6cdd1dull);
    size_t checked = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *entry = &ulpb_entries[e];
        if (entry->role != ULPB_ROLE_PRODUCTION || !ulpb_entry_available(entry)) continue;
        const size_t bytes = ulpb_dtypes[entry->dtype].bytes;
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0] && offsets[o] < lengths[l]; o++)
                for (int y_past_x = 0; y_past_x <= 1; y_past_x++) {
                    const size_t n = lengths[l], d = offsets[o];
                    const size_t x_at = y_past_x ? 0 : d * bytes, y_at = y_past_x ? d * bytes : 0;
                    entry->fn(source, expected, n);
                    memcpy(buffer + x_at, source, n * bytes);
                    entry->fn(buffer + x_at, buffer + y_at, n);
                    if (memcmp(buffer + y_at, expected, n * bytes) != 0)
                        fail_msg("%s %s %s: n=%zu, y = x %c %zu elements: results differ from separate arrays'",
                                 entry->impl, ulpb_ops[entry->op].name, ulpb_dtypes[entry->dtype].name, n,
                                 y_past_x ? '+' : '-', d);
                    checked++;
                }
    }
    assert_true(checked > 8 * 100);
    free(buffer), free(source), free(expected);
}

/* omk_isa_selected() (the build the entry points resolve to) is the one OMK_ISA names when the CPU
 * has it, else the best build; the test_kernels_<isa> variants set OMK_ISA. */
static void forced_isa_selected(void **state) {
    (void)state;
    const char *forced = getenv("OMK_ISA");
    const omk_isa selected = omk_isa_selected(), want = omk_isa_expected(forced);
    print_message("OMK_ISA=%s: %s build selected\n", forced ? forced : "(unset)", omk_isa_name(selected));
    if (selected != want)
        fail_msg("OMK_ISA=%s: omk_isa_selected() is %s, expected %s", forced ? forced : "(unset)",
                 omk_isa_name(selected), omk_isa_expected_names[want]);
}

/* Every table entry, filled from a vector build's binary64 kernel rounded a second time (table16.c), is the direct
 * evaluation's: the two methods agree on all 32,768 non-negative inputs of each 16-bit kernel. The entries whose
 * binary64 result was a 16-bit midpoint, taken from the direct evaluation, are counted. (The scalar build fills its
 * tables by the direct evaluation, so there the test holds by construction.) */
static void tables_agree_with_the_direct_evaluation(void **state) {
    (void)state;
    static const struct {
        const char *name;
        const uint16_t *(*table)(void);
        size_t (*midpoints)(void);
        void (*direct)(const uint16_t *, uint16_t *, size_t);
    } kernels[] = {
        {"cos f16", omk_table_cos_f16, omk_table_midpoints_cos_f16, omk_cos_f16_direct_scalar},
        {"cos bf16", omk_table_cos_bf16, omk_table_midpoints_cos_bf16, omk_cos_bf16_direct_scalar},
        {"asin f16", omk_table_asin_f16, omk_table_midpoints_asin_f16, omk_asin_f16_direct_scalar},
        {"asin bf16", omk_table_asin_bf16, omk_table_midpoints_asin_bf16, omk_asin_bf16_direct_scalar},
    };
    static uint16_t inputs[OMK_TABLE16_ENTRIES], direct[OMK_TABLE16_ENTRIES];
    for (uint32_t i = 0; i < OMK_TABLE16_ENTRIES; i++) inputs[i] = (uint16_t)i;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        const uint16_t *table = kernels[k].table();
        kernels[k].direct(inputs, direct, OMK_TABLE16_ENTRIES);
        for (uint32_t i = 0; i < OMK_TABLE16_ENTRIES; i++)
            if (table[i] != direct[i])
                fail_msg("%s (%s build): table[0x%04x] = 0x%04x, the direct evaluation 0x%04x", kernels[k].name,
                         omk_isa_name(omk_isa_selected()), i, table[i], direct[i]);
        if (omk_isa_selected() == OMK_ISA_SCALAR)
            print_message("%s: every entry from the direct evaluation (the scalar build)\n", kernels[k].name);
        else
            print_message("%s: %zu entries from the direct evaluation (a binary64 result on a midpoint)\n",
                          kernels[k].name, kernels[k].midpoints());
    }
}

int main(void) {
    if (omk_isa_forced_unsupported()) return OMK_TEST_SKIPPED;
    const struct CMUnitTest tests[] = {
        /* first: before the parent calls omk (the next one's message settles the dispatch) */
        cmocka_unit_test(concurrent_first_calls_agree),
        cmocka_unit_test(first_calls_stay_within_the_stack_bound),
#if defined(__x86_64__) || defined(__i386__)
        cmocka_unit_test(results_ignore_the_callers_fp_environment), /* before any table is filled */
#endif
        cmocka_unit_test(forced_isa_selected),
        cmocka_unit_test(cos_special_values),
        cmocka_unit_test(asin_special_values),
        cmocka_unit_test(nan_payloads_are_kept),
        cmocka_unit_test(made_nans_have_the_documented_bits),
        cmocka_unit_test(specials_beside_huge_arguments),
        cmocka_unit_test(onnx_examples),
        cmocka_unit_test(array_contract),
        cmocka_unit_test(any_overlap_gives_separate_results),
        cmocka_unit_test(stack_use_is_bounded),
        cmocka_unit_test(tables_agree_with_the_direct_evaluation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
