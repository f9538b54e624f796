/* Every ISA build the CPU supports gives the scalar build's bits: on every 16-bit input, on
 * sampled and special binary32/binary64 inputs, for tails of every length up to 129 (eight times
 * the widest vector) with the value under test in every lane, around the array loops' block
 * boundaries (OMK_BLOCK), in place and off alignment. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "omk_dispatch.h"
#include "omk_internal.h"

typedef void (*kernel_fn)(const void *x, void *y, size_t n);

typedef struct {
    const char *name;
    size_t bytes;
    kernel_fn build[OMK_ISA_COUNT];
} kernel;

#define OMK_KERNEL(op, dtype, ctype)                                                                \
    {#op "_" #dtype,                                                                               \
     sizeof(ctype),                                                                                \
     {(kernel_fn)(void (*)(void))omk_##op##_##dtype##_scalar, (kernel_fn)(void (*)(void))omk_##op##_##dtype##_avx2, \
      (kernel_fn)(void (*)(void))omk_##op##_##dtype##_avx512}},
static const kernel kernels[] = {
#include "omk_kernels.def"
};
#undef OMK_KERNEL
enum { KERNEL_COUNT = sizeof kernels / sizeof kernels[0], MAX_LEN = 2 * 64 + 1, SAMPLES = 1 << 17 };

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
            case 0: memcpy(&v, &bits, 4); break;
            case 1: v = (float)((double)(int32_t)bits * 0x1p-29); break; /* |v| < 4 */
            case 2: v = (float)((double)(int32_t)bits * 0x1p-16); break; /* |v| < 2^15 */
            default: v = (r & 4) ? NAN : (r & 8) ? INFINITY : (r & 16) ? 0x1p-149f : 1.0f; break;
            }
            memcpy(buf + 4 * i, &v, 4);
        } else {
            double v;
            switch (r & 3) {
            case 0: memcpy(&v, &r, 8); break;
            case 1: v = (double)(int64_t)r * 0x1p-61; break;
            case 2: v = (double)(int64_t)r * 0x1p-40; break;
            default: v = (r & 4) ? NAN : (r & 8) ? -INFINITY : (r & 16) ? 0x1p-1074 : -1.0; break;
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
        }
    }
    free(x), free(want), free(got);
}

static void tails_lanes_in_place_unaligned(void **state) {
    (void)state;
    enum { SHIFTS = 3 };
    unsigned char *x = aligned_alloc(64, 2048);
    unsigned char *want = aligned_alloc(64, 2048);
    unsigned char *got = aligned_alloc(64, 2048);
    unsigned char probe[8 * 16];
    for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
        if (!omk_isa_supported((omk_isa)isa)) continue;
        for (size_t k = 0; k < KERNEL_COUNT; k++) {
            const kernel *kn = &kernels[k];
            fill_inputs(kn, probe, 16); /* values to place in each lane */
            for (size_t n = 0; n <= MAX_LEN; n++) {
                for (size_t shift = 0; shift < SHIFTS; shift++) {
                    unsigned char *xs = x + shift * kn->bytes;
                    fill_inputs(kn, xs, n);
                    for (size_t lane = 0; lane < n; lane += 1 + (n > 40) * 3) {
                        memcpy(xs + lane * kn->bytes, probe + (lane % 16) * kn->bytes, kn->bytes);
                        kn->build[OMK_ISA_SCALAR](xs, want, n);
                        kn->build[isa](xs, got + shift * kn->bytes, n);
                        expect_same(kn, isa, xs, got + shift * kn->bytes, want, n, "tail/lane");
                    }
                    kn->build[OMK_ISA_SCALAR](xs, want, n);
                    kn->build[isa](xs, xs, n); /* in place */
                    expect_same(kn, isa, xs, xs, want, n, "in place");
                }
            }
        }
    }
    free(x), free(want), free(got);
}

/* Lengths around one, two and three blocks, with the probe values in the lanes next to each
 * block edge: the flagged-block pass and the partial last block. */
static void block_edges(void **state) {
    (void)state;
    enum { LONGEST = 3 * OMK_BLOCK + 1 };
    static const size_t lengths[] = {OMK_BLOCK - 1, OMK_BLOCK,         OMK_BLOCK + 1, 2 * OMK_BLOCK - 1,
                                     2 * OMK_BLOCK, 2 * OMK_BLOCK + 1, LONGEST};
    unsigned char *x = malloc(LONGEST * 8), *want = malloc(LONGEST * 8), *got = malloc(LONGEST * 8);
    unsigned char probe[8 * 16];
    for (int isa = 1; isa < OMK_ISA_COUNT; isa++) {
        if (!omk_isa_supported((omk_isa)isa)) continue;
        for (size_t k = 0; k < KERNEL_COUNT; k++) {
            const kernel *kn = &kernels[k];
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
                    for (size_t edge = OMK_BLOCK; edge < n + OMK_BLOCK; edge += OMK_BLOCK) {
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

static void dispatch_selects_supported_build(void **state) {
    (void)state;
    const omk_isa isa = omk_isa_selected();
    assert_true(omk_isa_supported(isa));
    print_message("selected ISA: %s\n", omk_isa_name(isa));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dispatch_selects_supported_build),
        cmocka_unit_test(all_inputs_match_scalar),
        cmocka_unit_test(tails_lanes_in_place_unaligned),
        cmocka_unit_test(block_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
