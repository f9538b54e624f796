/* The vector peers (libmvec and SLEEF, AVX2 and AVX-512 builds) the CPU runs: against glibc's
 * scalar functions within the libraries' documented error bounds, their 16-bit wrappers on every
 * input, and their tails: every length 0..40 against single-element calls, nothing written past n. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench.h"
#include "cpu_test_cover.h"
#include "omk.h"
#include "registry.h"

/* The peers registry.def gives a documented error bound (every vector peer but SLEEF's fast cosine), which the CPU
 * runs. */
static bool is_bounded_peer(const ulpb_entry *e) {
    return e->role == ULPB_ROLE_PEER && e->documented_ulp >= 0 && ulpb_entry_available(e);
}

/* The vector peers (a bound documented or not) the CPU runs: their wrappers' tails and padding. */
static bool is_vector_peer(const ulpb_entry *e) {
    return e->role == ULPB_ROLE_PEER && e->isa != ULPB_ISA_NONE && ulpb_entry_available(e);
}

/* The rows that narrow to bfloat16 as vcvtneps2bf16 does (flushing subnormals): the AVX-512 ones. */
static bool flushes_subnormals(const ulpb_entry *e) { return e->isa == ULPB_ISA_AVX512 && e->dtype == ULPB_DTYPE_bf16; }

/* Distance in representable values of two finite values (-0 and +0 coincide). */
static uint64_t steps_between(uint64_t a, uint64_t b, int bits) {
    const uint64_t sign = 1ull << (bits - 1);
    const uint64_t oa = (a & sign) ? sign - (a & (sign - 1)) : sign + a;
    const uint64_t ob = (b & sign) ? sign - (b & (sign - 1)) : sign + b;
    return oa > ob ? oa - ob : ob - oa;
}

static uint64_t bits_at(const void *p, size_t bytes, size_t i) {
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)p + i * bytes, bytes);
    return v;
}

static bool is_nan_bits(uint64_t b, ulpb_dtype_id dtype) {
    switch (dtype) {
    case ULPB_DTYPE_f16:
        return (b & 0x7fff) > 0x7c00;
    case ULPB_DTYPE_bf16:
        return (b & 0x7fff) > 0x7f80;
    case ULPB_DTYPE_f32:
        return (b & 0x7fffffff) > 0x7f800000;
    default:
        return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    }
}

static bool is_subnormal_bits(uint64_t b, ulpb_dtype_id dtype) {
    const uint64_t magnitude = b & 0x7fff;
    return magnitude != 0 && (dtype == ULPB_DTYPE_f16 ? magnitude < 0x0400 : magnitude < 0x0080);
}

/* Fills x with n inputs of (op, dtype) for the comparison: every pattern for 16-bit types;
 * otherwise the benchmark sets of the op and the special values. */
static size_t comparison_inputs(ulpb_op_id op, ulpb_dtype_id dtype, void *x, size_t capacity) {
    const size_t bytes = ulpb_dtypes[dtype].bytes;
    if (bytes == 2) {
        for (size_t i = 0; i < 65536; i++) ((uint16_t *)x)[i] = (uint16_t)i;
        return 65536;
    }
    size_t n = 0;
    for (size_t k = 0; k < ulpb_input_set_count; k++) {
        if (ulpb_input_sets[k].op != op) continue;
        ulpb_bench_inputs(&ulpb_input_sets[k], dtype, 99, 0, (unsigned char *)x + n * bytes, 2000);
        n += 2000;
    }
    const double specials[] = {0.0, -0.0, NAN, INFINITY, -INFINITY, 1.0, -1.0, 1.5, -2.0, 1e-30, -1e-30, 0.5, -0.5};
    for (size_t i = 0; i < sizeof specials / sizeof *specials && n < capacity; i++, n++) {
        if (dtype == ULPB_DTYPE_f32)
            ((float *)x)[n] = (float)specials[i];
        else
            ((double *)x)[n] = specials[i];
    }
    return n;
}

/* Every instruction set a wrapper file is compiled for (the -mFEATURE flags of its ISA in registry.def) is one the
 * ISA's CPU test asks for (cpu_test_cover.h). */
static void cpu_tests_cover_compile_flags(void **state) {
    (void)state;
    static const isa_text isas[] = {
#define ULPB_ISA(name, label, flags, cpu_test) {label, flags, #cpu_test},
#include "registry.def"
#undef ULPB_ISA
    };
    const int checked = check_cpu_tests_cover_flags(isas, sizeof isas / sizeof *isas, "ULPB_CPU_HAS",
                                                    "ULPB_CPU_HAS_F16C", "accuracy/peers_%s.c");
    assert_true(checked >= 6); /* avx2's three, avx512's one, avx512bf16's two */
}

static void agree_with_glibc_within_documented_bounds(void **state) {
    (void)state;
    enum { CAPACITY = 65536 };
    unsigned char *x = malloc(CAPACITY * 8), *want = malloc(CAPACITY * 8), *got = malloc(CAPACITY * 8);
    assert_non_null(x);
    int checked = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *peer = &ulpb_entries[e];
        if (!is_bounded_peer(peer)) continue;
        const ulpb_entry *glibc = ulpb_entry_find("glibc", peer->op, peer->dtype);
        assert_non_null(glibc);
        const size_t bytes = ulpb_dtypes[peer->dtype].bytes;
        const size_t n = comparison_inputs(peer->op, peer->dtype, x, CAPACITY);
        glibc->fn(x, want, n);
        peer->fn(x, got, n);
        /* both round a binary32 result that is within the bounds to the narrow type */
        const uint64_t allowed = bytes == 2 ? 1 : (uint64_t)(peer->documented_ulp + 1.0);
        for (size_t i = 0; i < n; i++) {
            const uint64_t w = bits_at(want, bytes, i), g = bits_at(got, bytes, i);
            if (is_nan_bits(w, peer->dtype) || is_nan_bits(g, peer->dtype)) {
                if (is_nan_bits(w, peer->dtype) != is_nan_bits(g, peer->dtype))
                    fail_msg("%s %s %s: input 0x%llx gives 0x%llx, glibc 0x%llx", peer->impl, ulpb_ops[peer->op].name,
                             ulpb_dtypes[peer->dtype].name, (unsigned long long)bits_at(x, bytes, i),
                             (unsigned long long)g, (unsigned long long)w);
                continue;
            }
            /* vcvtneps2bf16 flushes subnormal results to zero, as documented in the registry */
            if (flushes_subnormals(peer) && is_subnormal_bits(w, peer->dtype) && (g & 0x7fff) == 0) continue;
            if (steps_between(w, g, (int)bytes * 8) > allowed)
                fail_msg("%s %s %s: input 0x%llx gives 0x%llx, glibc 0x%llx (more than %llu apart)", peer->impl,
                         ulpb_ops[peer->op].name, ulpb_dtypes[peer->dtype].name,
                         (unsigned long long)bits_at(x, bytes, i), (unsigned long long)g, (unsigned long long)w,
                         (unsigned long long)allowed);
        }
        checked++;
    }
    free(x), free(want), free(got);
    if (checked == 0) skip(); /* no bounded peer runs here (each needs AVX2 at least) */
}

/* asin of the smallest bfloat16 subnormal: only the vcvtneps2bf16 rows flush it; the f16
 * conversions keep subnormals. */
static void subnormal_results_flushed_only_by_vcvtneps2bf16(void **state) {
    (void)state;
    int checked[2] = {0, 0};
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *peer = &ulpb_entries[e];
        if (!is_bounded_peer(peer) || peer->op != ULPB_OP_asin || ulpb_dtypes[peer->dtype].bytes != 2) continue;
        const uint16_t x[2] = {0x0001, 0x8001};
        uint16_t y[2];
        peer->fn(x, y, 2);
        const bool flushes = flushes_subnormals(peer);
        assert_int_equal(y[0], flushes ? 0x0000 : 0x0001);
        assert_int_equal(y[1], flushes ? 0x8000 : 0x8001);
        checked[flushes]++;
    }
    print_message("%d rows keep the subnormal, %d (vcvtneps2bf16) flush it\n", checked[0], checked[1]);
    if (checked[0] + checked[1] == 0) skip(); /* no bounded peer runs here (each needs AVX2 at least) */
}

/* The AVX-512 bfloat16 rows narrow with vcvtne2ps2bf16 where the CPU has it and emulate it elsewhere: the two agree on
 * every binary32 value (NaNs, subnormals, halfway cases and overflow to infinity among them). */
static void bf16_narrowing_emulated_bit_for_bit(void **state) {
    (void)state;
    if (!ulpb_isa_available(ULPB_ISA_AVX512_BF16)) skip(); /* the emulation runs, with nothing to compare it to */
    enum { CHUNK = 1 << 16 };
    uint32_t *bits = malloc(CHUNK * sizeof *bits);
    uint16_t *want = malloc(CHUNK * sizeof *want), *got = malloc(CHUNK * sizeof *got);
    assert_non_null(bits), assert_non_null(want), assert_non_null(got);
    for (uint64_t start = 0; start < (1ull << 32); start += CHUNK) {
        for (uint32_t i = 0; i < CHUNK; i++) bits[i] = (uint32_t)(start + i);
        ulpb_narrow_bf16_avx512bf16((const float *)bits, want, CHUNK);
        ulpb_narrow_bf16_emulated((const float *)bits, got, CHUNK);
        if (memcmp(want, got, CHUNK * sizeof *want) != 0)
            for (uint32_t i = 0; i < CHUNK; i++)
                if (want[i] != got[i])
                    fail_msg("0x%08x: vcvtne2ps2bf16 gives 0x%04x, the emulation 0x%04x", bits[i], want[i], got[i]);
    }
    free(bits), free(want), free(got);
}

/* The binary32 result narrowed as the row's conversion does: round to nearest even, and for the vcvtneps2bf16 rows a
 * subnormal (or zero) first made a zero of its sign. NaN only needs to stay NaN. */
static uint16_t narrowed_as_row(const ulpb_entry *row, float r) {
    uint32_t bits;
    memcpy(&bits, &r, sizeof bits);
    if (row->dtype == ULPB_DTYPE_f16) return omk_f32_to_f16(r);
    if (flushes_subnormals(row) && (bits & 0x7f800000u) == 0) return (uint16_t)((bits >> 16) & 0x8000u);
    return omk_f32_to_bf16(r);
}

/* A 16-bit vector row is its library's binary32 row between an exact widening and a round to nearest even, bit for
 * bit, on every input: so a wrapper that truncated, or narrowed with the wrong instruction, would show here rather
 * than as a slightly worse accuracy row. The binary32 row gets the widened inputs in the same order, so that each of
 * its vectors holds the same lanes as the wrapper's (SLEEF picks its reduction per vector). */
static void narrow_rows_round_their_binary32_results(void **state) {
    (void)state;
    uint16_t *x = malloc(65536 * sizeof *x), *got = malloc(65536 * sizeof *got);
    float *wide = malloc(65536 * sizeof *wide), *r = malloc(65536 * sizeof *r);
    assert_non_null(x), assert_non_null(got), assert_non_null(wide), assert_non_null(r);
    for (uint32_t i = 0; i < 65536; i++) x[i] = (uint16_t)i;
    int checked = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *row = &ulpb_entries[e];
        if (!is_vector_peer(row) || ulpb_dtypes[row->dtype].bytes != 2) continue;
        const ulpb_entry *binary32 = ulpb_entry_find(row->impl, row->op, ULPB_DTYPE_f32);
        assert_non_null(binary32);
        for (uint32_t i = 0; i < 65536; i++)
            wide[i] = row->dtype == ULPB_DTYPE_f16 ? omk_f16_to_f32(x[i]) : omk_bf16_to_f32(x[i]);
        binary32->fn(wide, r, 65536);
        row->fn(x, got, 65536);
        for (uint32_t i = 0; i < 65536; i++) {
            const uint16_t want = narrowed_as_row(row, r[i]);
            const bool nan_want = is_nan_bits(want, row->dtype), nan_got = is_nan_bits(got[i], row->dtype);
            if (nan_want != nan_got || (!nan_want && want != got[i]))
                fail_msg("%s %s %s: input 0x%04x gives 0x%04x, its binary32 row's %a narrowed 0x%04x", row->impl,
                         ulpb_ops[row->op].name, ulpb_dtypes[row->dtype].name, (unsigned)i, got[i], (double)r[i], want);
        }
        checked++;
    }
    free(x), free(got), free(wide), free(r);
    print_message("%d 16-bit vector rows checked\n", checked);
    if (checked == 0) skip(); /* no vector peer runs here (each needs AVX2 at least) */
}

/* The AVX-512 bfloat16 rows use vcvtne2ps2bf16 exactly when the registry offers AVX512_BF16: in
 * test_peers_bf16_emulated (ULPB_DISABLE_ISA=avx512bf16) each call must take the emulation, or that run compares
 * nothing new, and elsewhere none may. Both give the same bits, so the calls are counted. */
static void bf16_rows_narrow_as_the_registry_says(void **state) {
    (void)state;
    const bool emulate = !ulpb_isa_available(ULPB_ISA_AVX512_BF16);
    const uint16_t x[32] = {0x3f00};
    uint16_t y[32];
    int checked = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *row = &ulpb_entries[e];
        if (!is_vector_peer(row) || row->isa != ULPB_ISA_AVX512 || row->dtype != ULPB_DTYPE_bf16) continue;
        const unsigned long before = ulpb_bf16_emulated_calls();
        row->fn(x, y, 32);
        if (ulpb_bf16_emulated_calls() - before != (emulate ? 1u : 0u))
            fail_msg("%s %s bf16: %s the emulation of vcvtne2ps2bf16, which the registry says it %s", row->impl,
                     ulpb_ops[row->op].name, ulpb_bf16_emulated_calls() == before ? "did not take" : "took",
                     emulate ? "needs" : "does not");
        checked++;
    }
    print_message("%d AVX-512 bfloat16 rows narrow with %s\n", checked, emulate ? "the emulation" : "vcvtne2ps2bf16");
    if (checked == 0) skip(); /* no AVX-512 row runs */
}

static void tails_match_single_calls(void **state) {
    (void)state;
    enum { MAX_N = 40, GUARD = 32 };
    unsigned char x[(MAX_N + GUARD) * 8], y[(MAX_N + GUARD) * 8], one[8];
    for (size_t e = 0; e < ulpb_entry_count; e++) {
        const ulpb_entry *peer = &ulpb_entries[e];
        if (!is_vector_peer(peer)) continue;
        const size_t bytes = ulpb_dtypes[peer->dtype].bytes;
        /* inside the natural domain: SLEEF picks one reduction per vector from its largest lane */
        const ulpb_input_set domain = {
            "domain", peer->op, ulpb_ops[peer->op].domain_lo, ulpb_ops[peer->op].domain_hi, "", NULL, 0};
        ulpb_bench_inputs(&domain, peer->dtype, 5, 0, x, MAX_N);
        for (size_t n = 0; n <= MAX_N; n++) {
            memset(y, 0xa5, sizeof y);
            peer->fn(x, y, n);
            for (size_t i = n * bytes; i < sizeof y; i++)
                if (y[i] != 0xa5)
                    fail_msg("%s %s %s: n=%zu wrote byte %zu", peer->impl, ulpb_ops[peer->op].name,
                             ulpb_dtypes[peer->dtype].name, n, i);
            for (size_t i = 0; i < n; i++) {
                peer->fn(x + i * bytes, one, 1);
                if (memcmp(one, y + i * bytes, bytes) != 0)
                    fail_msg("%s %s %s: n=%zu element %zu differs from a single call", peer->impl,
                             ulpb_ops[peer->op].name, ulpb_dtypes[peer->dtype].name, n, i);
            }
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpu_tests_cover_compile_flags),
        cmocka_unit_test(agree_with_glibc_within_documented_bounds),
        cmocka_unit_test(subnormal_results_flushed_only_by_vcvtneps2bf16),
        cmocka_unit_test(bf16_narrowing_emulated_bit_for_bit),
        cmocka_unit_test(narrow_rows_round_their_binary32_results),
        cmocka_unit_test(bf16_rows_narrow_as_the_registry_says),
        cmocka_unit_test(tails_match_single_calls),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    int bounded = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++) bounded += is_bounded_peer(&ulpb_entries[e]);
    if (failed == 0 && bounded == 0) {
        /* cmocka's skip() passes: this status is ctest's "Skipped" (SKIP_RETURN_CODE) */
        fputs("test_peers: no peer with a documented bound runs on this CPU: nothing was checked\n", stderr);
        return 77;
    }
    return failed;
}
