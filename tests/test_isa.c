/* Every ISA build the CPU supports gives the scalar build's bits: on every 16-bit input, on
 * sampled binary32/binary64 inputs, with each probe value (specials, range and fast-path
 * boundaries, hard-to-round inputs) at every lane position of every length up to twice the widest
 * vector (32 for binary32/binary64, 64 for 16-bit) and next to either end of a 129-element call,
 * among ordinary values, on random tails of every length 0..129, around the array loops' block
 * boundaries (OMK_BLOCK for 16-bit, OMK_BLOCK_F32 and OMK_BLOCK_F64), in place and off alignment; with
 * --all-binary32, on every binary32 input. The public entry points run the build OMK_ISA selects (see
 * omk_isa_expect.h). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cpuid.h>

#include "omk.h"
#include "omk_dispatch.h"
#include "omk_internal.h"
#include "omk_isa_expect.h"
#include "omk_table16.h"
#include "cpu_test_cover.h"
#include "test_bits.h"

#ifndef ULPB_TEST_DATA
#error "ULPB_TEST_DATA must name tests/data"
#endif

enum {
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) K_##op##_##dtype,
#include "omk_kernels.def"
#undef OMK_KERNEL
    KERNEL_COUNT
};

/* Calls into each per-ISA build. tests/CMakeLists.txt links test_isa with
 * --wrap=omk_<op>_<dtype>_<isa>, so every call of a build from the dispatcher (and from this
 * file) goes through a counting wrapper: the dispatch test sees which build an entry point runs. */
static unsigned long build_calls[KERNEL_COUNT][OMK_ISA_COUNT];

#define OMK_WRAP(isa, index, op, dtype, ctype)                                                                         \
    void __real_omk_##op##_##dtype##_##isa(const ctype *x, ctype *y, size_t n);                                        \
    void __wrap_omk_##op##_##dtype##_##isa(const ctype *x, ctype *y, size_t n);                                        \
    void __wrap_omk_##op##_##dtype##_##isa(const ctype *x, ctype *y, size_t n) {                                       \
        __atomic_fetch_add(&build_calls[K_##op##_##dtype][index], 1, __ATOMIC_RELAXED); /* --all-binary32 threads */   \
        __real_omk_##op##_##dtype##_##isa(x, y, n);                                                                    \
    }
#define OMK_WRAP_ISA(isa, ENUM, flags, cpu_test, kernel) OMK_APPLY(OMK_WRAP, isa, OMK_ISA_##ENUM, OMK_UNPACK kernel)
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)  OMK_FOR_EACH_ISA(OMK_WRAP_ISA, (op, dtype, ctype))
#include "omk_kernels.def"
#undef OMK_KERNEL
#undef OMK_WRAP_ISA
#undef OMK_WRAP

typedef void (*kernel_fn)(const void *x, void *y, size_t n);

typedef struct {
    const char *name, *op;
    size_t bytes;
    kernel_fn build[OMK_ISA_COUNT];
    kernel_fn entry; /* the public, dispatched entry point */
} kernel;

#define OMK_FN(f)                                      (kernel_fn)(void (*)(void)) f
#define OMK_FN_BUILD(isa, op, dtype)                   OMK_FN(omk_##op##_##dtype##_##isa),
#define OMK_FN_ISA(isa, ENUM, flags, cpu_test, kernel) OMK_APPLY(OMK_FN_BUILD, isa, OMK_UNPACK kernel)
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    {#op "_" #dtype, #op, sizeof(ctype), {OMK_FOR_EACH_ISA(OMK_FN_ISA, (op, dtype))}, OMK_FN(omk_##op##_##dtype)},
static const kernel kernels[] = {
#include "omk_kernels.def"
};
#undef OMK_KERNEL
enum { MAX_LEN = 2 * 64 + 1, SAMPLES = 1 << 17 };

static uint64_t rng_state = 0x5eed;
static uint64_t next_random(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return rng_state ^ (rng_state >> 29);
}

/* Inputs that exercise every branch: any bit pattern, moderate values, huge values, specials. */
static void fill_inputs(const kernel *k, unsigned char *buf, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = next_random();
        if (k->bytes == 2) {
            const uint16_t v = (uint16_t)r;
            memcpy(buf + 2 * i, &v, 2);
        } else if (k->bytes == 4) {
            float v;
            const uint32_t bits = (uint32_t)(r >> 32);
            switch (r & 3) {
            case 0:
                memcpy(&v, &bits, 4);
                break;
            case 1:
                v = (float)((double)(int32_t)bits * 0x1p-29);
                break; /* |v| < 4 */
            case 2:
                v = (float)((double)(int32_t)bits * 0x1p-16);
                break; /* |v| < 2^15 */
            default:
                v = (r & 4) ? NAN : (r & 8) ? INFINITY : (r & 16) ? 0x1p-149f : 1.0f;
                break;
            }
            memcpy(buf + 4 * i, &v, 4);
        } else {
            double v;
            switch (r & 3) {
            case 0:
                memcpy(&v, &r, 8);
                break;
            case 1:
                v = (double)(int64_t)r * 0x1p-61;
                break;
            case 2:
                v = (double)(int64_t)r * 0x1p-40;
                break;
            default:
                v = (r & 4) ? NAN : (r & 8) ? -INFINITY : (r & 16) ? 0x1p-1074 : -1.0;
                break;
            }
            memcpy(buf + 8 * i, &v, 8);
        }
    }
}

static void expect_same(const kernel *k, int isa, const unsigned char *x, const unsigned char *got,
                        const unsigned char *want, size_t n, const char *what) {
    for (size_t i = 0; i < n; i++)
        if (memcmp(got + i * k->bytes, want + i * k->bytes, k->bytes) != 0) {
            uint64_t in = 0, a = 0, b = 0;
            memcpy(&in, x + i * k->bytes, k->bytes);
            memcpy(&a, got + i * k->bytes, k->bytes);
            memcpy(&b, want + i * k->bytes, k->bytes);
            fail_msg("%s %s (%s): element %zu of %zu, input 0x%llx: got 0x%llx, scalar 0x%llx", k->name,
                     omk_isa_name((omk_isa)isa), what, i, n, (unsigned long long)in, (unsigned long long)a,
                     (unsigned long long)b);
        }
}

static void all_inputs_match_scalar(void **state) {
    (void)state;
    unsigned char *x = malloc(SAMPLES * 8), *want = malloc(SAMPLES * 8), *got = malloc(SAMPLES * 8);
    for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
        if (!omk_isa_supported((omk_isa)isa)) {
            print_message("skipping %s: not supported by this CPU\n", omk_isa_name((omk_isa)isa));
            continue;
        }
        for (size_t k = 0; k < KERNEL_COUNT; k++) {
            const kernel *kn = &kernels[k];
            size_t n = SAMPLES;
            if (kn->bytes == 2) {
                n = 65536;
                for (uint32_t i = 0; i < n; i++) ((uint16_t *)(void *)x)[i] = (uint16_t)i;
            } else {
                fill_inputs(kn, x, n);
            }
            kn->build[OMK_ISA_SCALAR](x, want, n);
            kn->build[isa](x, got, n);
            expect_same(kn, isa, x, got, want, n, "bulk");
            /* in place too: the 16-bit loop patches some lanes at the end of the call, from inputs it kept */
            memcpy(got, x, n * kn->bytes);
            kn->build[isa](got, got, n);
            expect_same(kn, isa, x, got, want, n, "bulk, in place");
            if (kn->bytes == 2) {
                /* Scrambled, so that every block of 256 (OMK_BLOCK) holds an |x| above pi: in order, the smaller
                 * inputs meet only cos's shortcut for blocks below pi, never its general path. half_guard_check
                 * proves the rounding test on the binary32 bits of its own build; this holds the shipped vector
                 * build to them on both paths. */
                uint16_t *h = (uint16_t *)(void *)x;
                for (uint32_t i = 0; i < n; i++) h[i] = (uint16_t)(i * 40503u);
                for (uint32_t block = 0; block < n; block += 256) {
                    bool above_pi = false;
                    for (uint32_t i = block; i < block + 256; i++) above_pi |= (h[i] & 0x7fff) >= 0x4249;
                    assert_true(above_pi);
                }
                kn->build[OMK_ISA_SCALAR](x, want, n);
                kn->build[isa](x, got, n);
                expect_same(kn, isa, x, got, want, n, "bulk, scrambled");
            }
        }
    }
    free(x), free(want), free(got);
}

/* binary32 inputs whose blocks all lie below pi, where cos reduces with k known (cos_f32_reduce_near): any bits below
 * 0x40490fdb (the binary32 nearest pi, above it), uniform values in [-pi, pi], zeros, subnormals and the largest
 * input below the limit; some blocks get one lane at or above the limit, so calls switch between the two paths. */
static void blocks_below_pi_match_scalar(void **state) {
    (void)state;
    enum { N = 128 * 97 + 45 };
    float *x = malloc(N * sizeof *x), *want = malloc(N * sizeof *x), *got = malloc(N * sizeof *x);
    for (size_t i = 0; i < N; i++) {
        const uint64_t r = next_random();
        const uint32_t sign = (uint32_t)(r >> 63) << 31;
        uint32_t bits;
        switch (r % 5) {
        case 0:
        case 1:
            bits = (uint32_t)((r >> 8) % 0x40490fdbu);
            break;
        case 2: {
            const float v = (float)((double)(uint32_t)(r >> 16) * 0x1p-32 * 3.14159265358979);
            memcpy(&bits, &v, 4);
            break;
        }
        case 3:
            bits = (uint32_t)(r >> 8) % 0x00800000u; /* zero or subnormal */
            break;
        default:
            bits = (r & 16) ? 0x40490fdau : 0x3fc90fdbu; /* the last below the limit, pi/2 */
            break;
        }
        bits |= sign;
        memcpy(&x[i], &bits, 4);
    }
    for (size_t block = 3; block * 128 < N; block += 7) { /* one lane at or above the limit */
        const uint32_t above = block % 2 ? 0x40490fdbu : 0xc0490fdbu + (uint32_t)block;
        memcpy(&x[block * 128 + block % 128], &above, 4);
    }
    for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
        if (!omk_isa_supported((omk_isa)isa)) continue;
        for (size_t k = 0; k < KERNEL_COUNT; k++) {
            const kernel *kn = &kernels[k];
            if (kn->bytes != 4) continue;
            kn->build[OMK_ISA_SCALAR](x, want, N);
            kn->build[isa](x, got, N);
            expect_same(kn, isa, (const unsigned char *)x, (unsigned char *)got, (unsigned char *)want, N,
                        "blocks below pi");
            memcpy(got, x, N * sizeof *x);
            kn->build[isa](got, got, N);
            expect_same(kn, isa, (const unsigned char *)x, (unsigned char *)got, (unsigned char *)want, N,
                        "blocks below pi, in place");
        }
    }
    free(x), free(want), free(got);
}

/* Random tails of every length 0..MAX_LEN (n == 0 with NULL pointers too), in place and shifted
 * off alignment. */
static void random_tails_in_place_unaligned(void **state) {
    (void)state;
    enum { SHIFTS = 3 };
    unsigned char *x = aligned_alloc(64, 2048);
    unsigned char *want = aligned_alloc(64, 2048);
    unsigned char *got = aligned_alloc(64, 2048), *orig = malloc(2048);
    for (int isa = 0; isa < OMK_ISA_COUNT; isa++) {
        if (!omk_isa_supported((omk_isa)isa)) continue;
        for (size_t k = 0; k < KERNEL_COUNT; k++) {
            const kernel *kn = &kernels[k];
            kn->build[isa](NULL, NULL, 0);
            for (size_t n = 0; n <= MAX_LEN; n++) {
                for (size_t shift = 0; shift < SHIFTS; shift++) {
                    unsigned char *xs = x + shift * kn->bytes;
                    fill_inputs(kn, xs, n);
                    kn->build[OMK_ISA_SCALAR](xs, want, n);
                    kn->build[isa](xs, got + shift * kn->bytes, n);
                    expect_same(kn, isa, xs, got + shift * kn->bytes, want, n, "random tail");
                    memcpy(orig, xs, n * kn->bytes);
                    kn->build[isa](xs, xs, n); /* in place */
                    expect_same(kn, isa, orig, xs, want, n, "random tail, in place");
                }
            }
        }
    }
    free(x), free(want), free(got), free(orig);
}

/* Probe values: specials, range and fast-path boundaries, and the inputs of the hard-to-round tables in tests/data,
 * each also negated. */
static const uint16_t f16_probes[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x1000, 0x3800,
                                      0x3bff, 0xbbff, 0x3c00, 0xbc00, 0x3c01, 0xbc01, 0xc000, 0x4248, 0x3e48, 0x6400,
                                      0xc248, 0x4249, 0xc249, /* around pi: cos's blocks below it */
                                      0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff, 0xffff};
static const uint16_t bf16_probes[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0080, 0x8080, 0x3000, 0x3f00,
                                       0x3f7f, 0xbf7f, 0x3f80, 0xbf80, 0x3f81, 0xbf81, 0xc000, 0x4049, 0x3fc9, 0x4980,
                                       0xc049, 0x404a, 0xc04a, /* around pi: cos's blocks below it */
                                       0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xff81, 0x7fff, 0xffff};
static const uint32_t f32_probes[] = {0x00000000, 0x80000000, 0x00000001, 0x800c0000,
                                      0x007fffff, 0x00800000, 0x80800000, /* zeros, subnormals, FLT_MIN */
                                      0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
                                      0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff, /* FLT_MAX, inf, NaN */
                                      0x3f800000, 0xbf800000, 0x3f800001, 0xbf800001,
                                      0x3f7fffff, 0xbf7fffff, 0xc0400000, 0x3f000000, /* |x| ~ 1, 0.5 */
                                      0x3effffff, 0xbf000001, 0x3f000001,             /* asin's branch threshold */
                                      0x39800000, 0x49800000, 0xc9800000, 0x497fffff,
                                      0x49800001, 0x40490fdb, 0x3fc90fdb, 0x4b000000, /* 2^20, pi */
                                      0x40490fda, 0xc0490fda, 0xc0490fdb, /* around pi: cos's k = 0 blocks */
                                      0x5f000000, 0x7effffff};
static const uint64_t f64_probes[] = {0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000100000000000,
                                      0x000fffffffffffff, 0x0010000000000000, 0x8010000000000000, 0x7fefffffffffffff,
                                      0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
                                      0xfff8000000000000, 0x7ff0000000000001, 0x7fffffffffffffff, 0x3ff0000000000000,
                                      0xbff0000000000000, 0x3ff0000000000001, 0xbff0000000000001, 0x3fefffffffffffff,
                                      0xbfefffffffffffff, 0xc000000000000000, 0x3fe0000000000000, 0x3e40000000000000,
                                      0x4130000000000000, 0xc130000000000000, 0x412fffffffffffff, 0x4130000000000001,
                                      0x400921fb54442d18, 0x3ff921fb54442d18, 0x4330000000000000, 0x7fe0000000000000};
enum { MAX_PROBES = 512 };

/* The inputs of the kernel's op in a hard-case table of tests/data, each also negated; returns their count. */
static size_t hard_case_probes(const kernel *kn, const char *table, unsigned char *out, size_t room) {
    uint64_t inputs[MAX_PROBES];
    const long rows = table_inputs(ULPB_TEST_DATA, table, kn->op, inputs, MAX_PROBES);
    assert_true(rows >= 20);
    assert_true(2 * (size_t)rows <= room); /* a longer table needs a larger MAX_PROBES, not fewer rows */
    for (long i = 0; i < rows; i++)
        for (unsigned sign = 0; sign <= 1; sign++) {
            const uint64_t v = inputs[i] ^ (uint64_t)sign << (8 * kn->bytes - 1);
            memcpy(out + kn->bytes * (2 * (size_t)i + sign), &v, kn->bytes); /* little-endian: the low bytes */
        }
    return 2 * (size_t)rows;
}

/* The probe values of one kernel; returns their count. */
static size_t probe_values(const kernel *kn, unsigned char *out) {
    size_t count = 0;
    if (kn->bytes == 2) {
        const int f16 = strstr(kn->name, "bf16") == NULL;
        const uint16_t *list = f16 ? f16_probes : bf16_probes;
        const size_t len = f16 ? sizeof f16_probes / 2 : sizeof bf16_probes / 2;
        for (size_t i = 0; i < len; i++) memcpy(out + 2 * count++, &list[i], 2);
    } else if (kn->bytes == 4) {
        for (size_t i = 0; i < sizeof f32_probes / 4; i++) memcpy(out + 4 * count++, &f32_probes[i], 4);
        count += hard_case_probes(kn, "hard_cases_f32.txt", out + 4 * count, MAX_PROBES - count);
    } else {
        for (size_t i = 0; i < sizeof f64_probes / 8; i++) memcpy(out + 8 * count++, &f64_probes[i], 8);
        count += hard_case_probes(kn, "hard_cases_f64.txt", out + 8 * count, MAX_PROBES - count);
    }
    assert_true(count <= MAX_PROBES);
    return count;
}

/* Ordinary values in the fast path, different in every lane. */
static void fill_background(const kernel *kn, unsigned char *buf, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const unsigned step = (unsigned)(i % 61);
        if (kn->bytes == 2) {
            const uint16_t v = (uint16_t)((strstr(kn->name, "bf16") ? 0x3e00 : 0x3000) + 3 * step);
            memcpy(buf + 2 * i, &v, 2);
        } else if (kn->bytes == 4) {
            const float v = 0.1f + 0.0137f * (float)step;
            memcpy(buf + 4 * i, &v, 4);
        } else {
            const double v = 0.1 + 0.0137 * step;
            memcpy(buf + 8 * i, &v, 8);
        }
    }
}

static void expect_placed(const kernel *kn, int isa, const unsigned char *x, const unsigned char *got,
                          const unsigned char *want, size_t n, size_t pos, size_t shift, const char *what) {
    if (memcmp(got, want, n * kn->bytes) == 0) return;
    for (size_t i = 0; i < n; i++)
        if (memcmp(got + i * kn->bytes, want + i * kn->bytes, kn->bytes) != 0) {
            uint64_t in = 0, probe = 0, a = 0, b = 0;
            memcpy(&in, x + i * kn->bytes, kn->bytes);
            memcpy(&probe, x + pos * kn->bytes, kn->bytes);
            memcpy(&a, got + i * kn->bytes, kn->bytes);
            memcpy(&b, want + i * kn->bytes, kn->bytes);
            fail_msg("%s %s (%s): probe 0x%llx at lane %zu of %zu, shift %zu: element %zu (input 0x%llx) got 0x%llx, "
                     "scalar one-element call 0x%llx",
                     kn->name, omk_isa_name((omk_isa)isa), what, (unsigned long long)probe, pos, n, shift, i,
                     (unsigned long long)in, (unsigned long long)a, (unsigned long long)b);
        }
}

/* Each probe value in every lane position of every length 1..positions (every tail up to twice
 * the lanes of a 64-byte vector: 32 for binary64 and binary32, 64 for 16-bit), and in the first
 * and last `positions` lanes of a MAX_LEN call, among background values; every build, the scalar
 * one included, at three shifts off alignment and in place, against one-element calls of the
 * scalar build. */
static void probes_in_every_lane(void **state) {
    (void)state;
    enum { SHIFTS = 3, STRIDE = MAX_LEN + SHIFTS, ALIGNED_BYTES = (8 * STRIDE + 63) / 64 * 64 };
    /* aligned_alloc needs a size that is a multiple of the alignment (C11) */
    unsigned char *x = aligned_alloc(64, ALIGNED_BYTES), *y = aligned_alloc(64, ALIGNED_BYTES);
    unsigned char *ip = aligned_alloc(64, ALIGNED_BYTES), *want = malloc(8 * STRIDE);
    unsigned char *background = malloc(8 * MAX_LEN), *background_ref = malloc(8 * MAX_LEN);
    unsigned char *probes = malloc(8 * MAX_PROBES), *probes_ref = malloc(8 * MAX_PROBES);
    unsigned long checked = 0;
    for (size_t k = 0; k < KERNEL_COUNT; k++) {
        const kernel *kn = &kernels[k];
        const size_t b = kn->bytes;
        /* twice the lanes of a 64-byte vector, at least 32 */
        const size_t positions = 2 * 64 / b > 32 ? 2 * 64 / b : 32;
        const size_t probe_count = probe_values(kn, probes);
        fill_background(kn, background, MAX_LEN);
        for (size_t i = 0; i < MAX_LEN; i++) kn->build[OMK_ISA_SCALAR](background + i * b, background_ref + i * b, 1);
        for (size_t p = 0; p < probe_count; p++) kn->build[OMK_ISA_SCALAR](probes + p * b, probes_ref + p * b, 1);
        for (int isa = 0; isa < OMK_ISA_COUNT; isa++) {
            if (!omk_isa_supported((omk_isa)isa)) continue;
            for (size_t n = 1; n <= MAX_LEN; n++) {
                if (n > positions && n < MAX_LEN) continue;
                for (size_t pos = 0; pos < n; pos++) {
                    if (pos >= positions && pos < n - positions) continue;
                    for (size_t p = 0; p < probe_count; p++)
                        for (size_t shift = 0; shift < SHIFTS; shift++) {
                            unsigned char *xs = x + shift * b, *ys = y + ((shift + 1) % SHIFTS) * b;
                            unsigned char *is = ip + ((shift + 2) % SHIFTS) * b;
                            memcpy(xs, background, n * b);
                            memcpy(xs + pos * b, probes + p * b, b);
                            memcpy(want, background_ref, n * b);
                            memcpy(want + pos * b, probes_ref + p * b, b);
                            kn->build[isa](xs, ys, n);
                            expect_placed(kn, isa, xs, ys, want, n, pos, shift, "probe");
                            memcpy(is, xs, n * b);
                            kn->build[isa](is, is, n); /* in place */
                            expect_placed(kn, isa, xs, is, want, n, pos, shift, "probe, in place");
                            checked++;
                        }
                }
            }
        }
    }
    print_message("%lu probe placements checked\n", checked);
    free(x), free(y), free(ip), free(want), free(background), free(background_ref), free(probes), free(probes_ref);
}

/* Lengths around one, two and three blocks of the kernel's loop (OMK_BLOCK, OMK_BLOCK_F32 or OMK_BLOCK_F64), with the
 * probe values in the lanes next to each block edge: the flagged-block pass and the partial last block. */
static void block_edges(void **state) {
    (void)state;
    _Static_assert(OMK_BLOCK_F32 <= OMK_BLOCK && OMK_BLOCK_F64 <= OMK_BLOCK, "LONGEST covers every block size");
    enum { LONGEST = 3 * OMK_BLOCK + 1 };
    unsigned char *x = malloc(LONGEST * 8), *want = malloc(LONGEST * 8), *got = malloc(LONGEST * 8);
    unsigned char probe[8 * 16];
    for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
        if (!omk_isa_supported((omk_isa)isa)) continue;
        for (size_t k = 0; k < KERNEL_COUNT; k++) {
            const kernel *kn = &kernels[k];
            const size_t block = kn->bytes == 8 ? OMK_BLOCK_F64 : kn->bytes == 4 ? OMK_BLOCK_F32 : OMK_BLOCK;
            const size_t lengths[] = {block - 1, block,         block + 1,    2 * block - 1,
                                      2 * block, 2 * block + 1, 3 * block + 1};
            fill_inputs(kn, probe, 16);
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
                const size_t n = lengths[li];
                for (size_t p = 0; p < 16; p++) {
                    /* moderate values only, so that a block is flagged by the probe alone */
                    for (size_t i = 0; i < n; i++) {
                        if (kn->bytes == 2)
                            ((uint16_t *)(void *)x)[i] = 0x3800; /* 0.5 in binary16, 1.0 in bfloat16 */
                        else if (kn->bytes == 4)
                            ((float *)(void *)x)[i] = 0.375f;
                        else
                            ((double *)(void *)x)[i] = 0.375;
                    }
                    for (size_t edge = block; edge < n + block; edge += block) {
                        const size_t lanes[] = {edge - 1, edge, n - 1};
                        for (size_t l = 0; l < 3; l++)
                            if (lanes[l] < n) memcpy(x + lanes[l] * kn->bytes, probe + p * kn->bytes, kn->bytes);
                    }
                    /* the reference is each element on its own (a one-lane block), so that a slip in
                     * the shared array loop shows too */
                    for (size_t i = 0; i < n; i++)
                        kn->build[OMK_ISA_SCALAR](x + i * kn->bytes, want + i * kn->bytes, 1);
                    kn->build[isa](x, got, n);
                    expect_same(kn, isa, x, got, want, n, "block edge");
                    kn->build[OMK_ISA_SCALAR](x, got, n);
                    expect_same(kn, OMK_ISA_SCALAR, x, got, want, n, "block edge");
                    kn->build[isa](x, x, n); /* in place */
                    expect_same(kn, isa, x, x, want, n, "block edge, in place");
                }
            }
        }
    }
    free(x), free(want), free(got);
}

/* test_isa --all-binary32: every one of the 2^32 binary32 inputs, each vector build the CPU supports against the
 * scalar build, for every binary32 kernel. With f32_guard_check (which proves the fast paths' rounding test over every
 * input) and one exhaustive accuracy run, this carries "correctly rounded on every binary32 input" to every build.
 * About three and a half minutes on two cores, most of it the scalar build; ctest runs it outside the sanitizer
 * builds. */
static void every_binary32_input_matches_scalar(void **state) {
    (void)state;
    enum { CHUNK_BITS = 20, CHUNKS = 1 << (32 - CHUNK_BITS) };
    const size_t chunk = (size_t)1 << CHUNK_BITS;
    int vector_builds = 0;
    for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
        if (omk_isa_supported((omk_isa)isa))
            vector_builds++;
        else
            print_message("skipping %s: not supported by this CPU\n", omk_isa_name((omk_isa)isa));
    }
    if (!vector_builds) {
        print_message("no vector build is supported by this CPU: nothing to compare\n");
        return;
    }
    for (size_t k = 0; k < KERNEL_COUNT; k++) {
        const kernel *kn = &kernels[k];
        if (kn->bytes != 4) continue;
        uint64_t mismatches[OMK_ISA_COUNT] = {0};
        uint32_t first_input[OMK_ISA_COUNT], first_got[OMK_ISA_COUNT], first_want[OMK_ISA_COUNT];
        for (int isa = 0; isa < OMK_ISA_COUNT; isa++) first_input[isa] = UINT32_MAX;
        int allocation_failed = 0;
#pragma omp parallel
        {
            uint32_t *x = malloc(chunk * 4), *want = malloc(chunk * 4), *got = malloc(chunk * 4);
            if (!x || !want || !got) {
#pragma omp atomic write
                allocation_failed = 1;
            }
#pragma omp for schedule(dynamic, 1)
            for (uint32_t c = 0; c < CHUNKS; c++) {
                if (!x || !want || !got) continue;
                for (size_t i = 0; i < chunk; i++) x[i] = (uint32_t)(c << CHUNK_BITS) | (uint32_t)i;
                kn->build[OMK_ISA_SCALAR](x, want, chunk);
                for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
                    if (!omk_isa_supported((omk_isa)isa)) continue;
                    kn->build[isa](x, got, chunk);
                    if (memcmp(got, want, chunk * 4) == 0) continue;
                    uint64_t differ = 0;
                    size_t first = chunk;
                    for (size_t i = 0; i < chunk; i++)
                        if (got[i] != want[i]) differ++, first = first == chunk ? i : first;
#pragma omp critical(all_binary32_mismatch)
                    {
                        mismatches[isa] += differ;
                        if (x[first] <= first_input[isa]) /* <=: the first difference may be input 0xffffffff */
                            first_input[isa] = x[first], first_got[isa] = got[first], first_want[isa] = want[first];
                    }
                }
            }
            free(x), free(want), free(got);
        }
        if (allocation_failed) fail_msg("out of memory for three %zu-element buffers per thread", chunk);
        for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
            if (!omk_isa_supported((omk_isa)isa)) continue;
            if (mismatches[isa])
                fail_msg(
                    "%s %s: %llu of 2^32 binary32 inputs differ from the scalar build; the smallest, 0x%08x, gives "
                    "0x%08x against 0x%08x",
                    kn->name, omk_isa_name((omk_isa)isa), (unsigned long long)mismatches[isa],
                    (unsigned)first_input[isa], (unsigned)first_got[isa], (unsigned)first_want[isa]);
            print_message("%s %s: all 2^32 binary32 inputs give the scalar build's bits\n", kn->name,
                          omk_isa_name((omk_isa)isa));
        }
    }
}

/* The public entry points run the build OMK_ISA (as the process started with it) selects: the
 * test_isa_dispatch_* ctest variants set it to each build and to a value that names none. */
static void dispatch_follows_omk_isa(void **state) {
    (void)state;
    const char *forced = getenv("OMK_ISA");
    const omk_isa want = omk_isa_expected(forced);
    print_message("OMK_ISA=%s: expecting the %s build\n", forced ? forced : "(unset)", omk_isa_expected_names[want]);
    const omk_isa selected = omk_isa_selected();
    if (selected != want)
        fail_msg("OMK_ISA=%s: omk_isa_selected() is %s, expected %s", forced ? forced : "(unset)",
                 omk_isa_name(selected), omk_isa_expected_names[want]);
    assert_string_equal(omk_isa_in_use(), omk_isa_expected_names[want]); /* the public query */
    for (size_t k = 0; k < KERNEL_COUNT; k++) {
        const kernel *kn = &kernels[k];
        unsigned long before[OMK_ISA_COUNT];
        memcpy(before, build_calls[k], sizeof before);
        unsigned char x[8] = {0}, y[8];
        kn->entry(x, y, 1); /* the first call resolves */
        kn->entry(x, y, 1); /* later calls go straight to the stored build */
        for (int isa = 0; isa < OMK_ISA_COUNT; isa++) {
            const unsigned long calls = build_calls[k][isa] - before[isa];
            if (calls != (isa == (int)want ? 2u : 0u))
                fail_msg("OMK_ISA=%s: two calls of omk_%s ran the %s build %lu times (expected the %s build)",
                         forced ? forced : "(unset)", kn->name, omk_isa_expected_names[isa], calls,
                         omk_isa_expected_names[want]);
        }
    }
}

/* Every instruction set a build is compiled for (-mFEATURE in omk_isas.h) is one its CPU test asks for
 * (cpu_test_cover.h). The expectations of omk_isa_expect.h come from the same CPU tests, so only their text can tell.
 */
#define ISA_FLAGS_AND_TEST(name, ENUM, flags, cpu_test, arg) {#name, flags, #cpu_test},
static void cpu_tests_cover_compile_flags(void **state) {
    (void)state;
    static const isa_text isas[] = {OMK_FOR_EACH_ISA(ISA_FLAGS_AND_TEST, 0)};
    const int checked = check_cpu_tests_cover_flags(isas, sizeof isas / sizeof *isas, "OMK_CPU_HAS", "OMK_CPU_HAS_F16C",
                                                    "the %s build");
    assert_true(checked >= 10); /* avx2's three and avx512's seven */
}

/* omk_isa_choose() maps every build name and a set of values that name none; omk_isa_selected() is its choice for
 * this process's OMK_ISA, kept even when OMK_ISA changes (every entry point runs the build omk_isa_in_use names). */
static void omk_isa_values(void **state) {
    (void)state;
    for (int isa = 0; isa < OMK_ISA_COUNT; isa++) {
        assert_string_equal(omk_isa_name((omk_isa)isa), omk_isa_expected_names[isa]);
        const omk_isa selected = omk_isa_choose(omk_isa_expected_names[isa]);
        if (omk_isa_supported((omk_isa)isa) ? selected != (omk_isa)isa : selected != omk_isa_best_supported())
            fail_msg("OMK_ISA=%s (%s by this CPU) selects %s", omk_isa_expected_names[isa],
                     omk_isa_supported((omk_isa)isa) ? "supported" : "not supported", omk_isa_name(selected));
    }
    static const char *const others[] = {"",        "AVX2",    "Scalar",  "avx",  "avx5", "avx2 ", " avx2",
                                         "avx512f", "avx5122", "scalarx", "sse2", "none", "auto",  "garbage"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        const omk_isa selected = omk_isa_choose(others[i]);
        if (selected != omk_isa_best_supported())
            fail_msg("OMK_ISA=\"%s\" selects %s, not the best build %s", others[i], omk_isa_name(selected),
                     omk_isa_expected_names[omk_isa_best_supported()]);
    }
    assert_int_equal(omk_isa_choose(NULL), omk_isa_best_supported());
    const char *forced = getenv("OMK_ISA");
    const omk_isa selected = omk_isa_selected();
    assert_int_equal(selected, omk_isa_expected(forced));
    assert_int_equal(setenv("OMK_ISA", selected == OMK_ISA_SCALAR ? "avx2" : "scalar", 1), 0);
    assert_int_equal(omk_isa_selected(), selected);
    assert_string_equal(omk_isa_in_use(), omk_isa_name(selected));
    if (forced) {
        char *copy = strdup(forced);
        assert_int_equal(setenv("OMK_ISA", copy, 1), 0);
        free(copy);
    } else {
        assert_int_equal(unsetenv("OMK_ISA"), 0);
    }
}

/* The AVX-512 build's 16-bit method as omk.h states it: OMK_HALF16=table or compute, else the table on an Intel CPU
 * with AVX512-FP16 and the binary32 path on others. */
static bool avx512_reads_half16_table(void) {
    const char *forced = getenv("OMK_HALF16");
    if (forced && (strcmp(forced, "table") == 0 || strcmp(forced, "compute") == 0)) return strcmp(forced, "table") == 0;
    unsigned int eax, ebx, ecx, edx;
    char vendor[13] = "";
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
        memcpy(vendor, &ebx, 4), memcpy(vendor + 4, &edx, 4), memcpy(vendor + 8, &ecx, 4);
        vendor[12] = 0;
    }
    return strcmp(vendor, "GenuineIntel") == 0 && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx >> 23 & 1);
}

/* The CPU rule on CPUID's words: only an Intel CPU with AVX512-FP16 (leaf 7, EDX bit 23) reads the tables by default.
 */
static void half16_cpu_rule(void **state) {
    (void)state;
    const unsigned genu = 0x756e6547u, inei = 0x49656e69u, ntel = 0x6c65746eu; /* "Genu" "ineI" "ntel" */
    const unsigned auth = 0x68747541u, enti = 0x69746e65u, camd = 0x444d4163u; /* "Auth" "enti" "cAMD" */
    const unsigned fp16 = 1u << 23;
    assert_true(omk_cpuid_gathers_fast(0x20, genu, inei, ntel, fp16));
    assert_true(omk_cpuid_gathers_fast(7, genu, inei, ntel, fp16 | 1u << 22 | 1u));
    assert_false(omk_cpuid_gathers_fast(0x20, genu, inei, ntel, ~fp16));       /* Intel without AVX512-FP16 */
    assert_false(omk_cpuid_gathers_fast(0x10, auth, enti, camd, 0xffffffffu)); /* AMD, whatever leaf 7 says */
    assert_false(omk_cpuid_gathers_fast(6, genu, inei, ntel, fp16));           /* no leaf 7 to read */
    assert_false(omk_cpuid_gathers_fast(0x20, genu, ntel, inei, fp16));        /* vendor words in CPUID's order only */
}

/* omk_half16_method names what the 16-bit entry points run (test_isa_half16_table, test_isa_half16_compute and the
 * plain run, which takes the CPU's choice); the scalar-matching tests above then cover that method. */
static void half16_method_follows_environment(void **state) {
    (void)state;
    const bool table = avx512_reads_half16_table() || omk_isa_selected() != OMK_ISA_AVX512;
    assert_string_equal(omk_half16_method(), table ? "table" : "compute");
}

/* Each 16-bit kernel's table (omk_table16.h), NULL for the wider types. */
#define OMK_TABLE_OF_float(op, dtype)                   NULL,
#define OMK_TABLE_OF_double(op, dtype)                  NULL,
#define OMK_TABLE_OF_uint16_t(op, dtype)                omk_table_##op##_##dtype,
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) OMK_TABLE_OF_##ctype(op, dtype)
static const uint16_t *(*const tables[KERNEL_COUNT])(void) = {
#include "omk_kernels.def"
};
#undef OMK_KERNEL
#undef OMK_TABLE_OF_float
#undef OMK_TABLE_OF_double
#undef OMK_TABLE_OF_uint16_t

/* The method a build runs, seen in its results rather than in what omk_half16_method reports: with one table entry
 * changed for the test, a build that reads the table gives the changed value, and the binary32 path (compute) the
 * right one, for an input (0.5) it never rejects. So test_isa_half16_table runs the AVX-512 build's table lookup, and
 * test_isa_half16_compute its binary32 path, whatever the CPU. */
static void half16_builds_read_the_table_as_their_method_says(void **state) {
    (void)state;
    const bool avx512_table = avx512_reads_half16_table();
    enum { N = MAX_LEN }; /* whole vectors and a tail */
    uint16_t x[N], y[N];
    int checked = 0;
    for (int k = 0; k < KERNEL_COUNT; k++) {
        if (!tables[k]) continue;
        const uint16_t half = strstr(kernels[k].name, "bf16") ? 0x3f00 : 0x3800;
        /* the table is a static array filled at first use: writable behind its const pointer */
        uint16_t *entry = (uint16_t *)(uintptr_t)(tables[k]() + half);
        const uint16_t right = *entry, changed = right ^ 1;
        for (int i = 0; i < N; i++) x[i] = half;
        *entry = changed;
        for (int isa = -1; isa < OMK_ISA_COUNT; isa++) { /* -1: the public entry point */
            if (isa >= 0 && !omk_isa_supported((omk_isa)isa)) continue;
            const bool reads_table =
                isa < 0 ? strcmp(omk_half16_method(), "table") == 0 : avx512_table || isa != OMK_ISA_AVX512;
            (isa < 0 ? kernels[k].entry : kernels[k].build[isa])(x, y, N);
            for (int i = 0; i < N; i++)
                if (y[i] != (reads_table ? changed : right)) {
                    *entry = right;
                    fail_msg("%s (%s): element %d of %d gives 0x%04x, but the %s gives 0x%04x", kernels[k].name,
                             isa < 0 ? "entry point" : omk_isa_name((omk_isa)isa), i, N, y[i],
                             reads_table ? "changed table" : "binary32 path", reads_table ? changed : right);
                }
        }
        *entry = right;
        checked++;
    }
    assert_true(checked > 0); /* the 16-bit kernels of omk_kernels.def */
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dispatch_follows_omk_isa), /* first: before anything else sets OMK_ISA */
        cmocka_unit_test(omk_isa_values),
        cmocka_unit_test(cpu_tests_cover_compile_flags),
        cmocka_unit_test(all_inputs_match_scalar),
        cmocka_unit_test(blocks_below_pi_match_scalar),
        cmocka_unit_test(random_tails_in_place_unaligned),
        cmocka_unit_test(probes_in_every_lane),
        cmocka_unit_test(block_edges),
        cmocka_unit_test(half16_cpu_rule),
        cmocka_unit_test(half16_method_follows_environment),
        cmocka_unit_test(half16_builds_read_the_table_as_their_method_says),
    };
    /* test_isa --dispatch: the two dispatch tests only; test_isa --all-binary32: the exhaustive binary32 comparison */
    if (argc > 1 && strcmp(argv[1], "--all-binary32") == 0) {
        const struct CMUnitTest exhaustive[] = {cmocka_unit_test(every_binary32_input_matches_scalar)};
        const int failed = cmocka_run_group_tests_name("test_isa --all-binary32", exhaustive, NULL, NULL);
        bool vector_build = false;
        for (int isa = 1; isa < OMK_ISA_COUNT; isa++) vector_build |= omk_isa_supported((omk_isa)isa);
        return failed == 0 && !vector_build ? 77 : failed; /* nothing compared: ctest's "Skipped" */
    }
    if (argc > 1 && strcmp(argv[1], "--dispatch") != 0) {
        fprintf(stderr, "test_isa: unknown option '%s' (expected --dispatch or --all-binary32)\n", argv[1]);
        return 2;
    }
    const size_t count = argc > 1 ? 2 : sizeof tests / sizeof tests[0];
    return _cmocka_run_group_tests("test_isa", tests, count, NULL, NULL);
}
