/* omk kernels: special values of every kernel, the official ONNX examples, the array contract
 * (n = 0, odd lengths, in place, unaligned), and the build OMK_ISA selects (the test_kernels_<isa>
 * ctest variants force each one). */
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
#include "omk.h"
#include "omk_isa_expect.h"
#include "registry.h"

#ifndef ULPB_TEST_DATA
#error "ULPB_TEST_DATA must name tests/data"
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

/* tests/data/onnx_examples.txt: the six official examples. ONNX prints 7-8 significant digits,
 * so inputs and outputs are compared within that printing precision. */
static void onnx_examples(void **state) {
    (void)state;
    FILE *f = fopen(ULPB_TEST_DATA "/onnx_examples.txt", "r");
    assert_non_null(f);
    char line[4096];
    int examples = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char name[64], op[16];
        int count;
        assert_int_equal(sscanf(line, "%63s %15s %d", name, op, &count), 3);
        float x[64], want[64], got[64];
        assert_true(count > 0 && count <= 64);
        for (int i = 0; i < count; i++) assert_int_equal(fscanf(f, "%f", &x[i]), 1);
        for (int i = 0; i < count; i++) assert_int_equal(fscanf(f, "%f", &want[i]), 1);
        if (!fgets(line, sizeof line, f)) break;
        if (strcmp(op, "cos") == 0)
            omk_cos_f32(x, got, (size_t)count);
        else
            omk_asin_f32(x, got, (size_t)count);
        for (int i = 0; i < count; i++) {
            /* printed output precision plus the input's printing error times the slope */
            const double slope = strcmp(op, "cos") == 0 ? 1.0 : 1.0 / sqrt(fmax(1e-12, 1.0 - (double)x[i] * x[i]));
            const double tol = 1e-7 + 1e-6 * fabs((double)want[i]) + 5e-8 * fabs((double)x[i]) * slope;
            if (fabs((double)got[i] - (double)want[i]) > tol)
                fail_msg("%s[%d]: %s(%.9g) = %.9g, expected %.9g", name, i, op, (double)x[i], (double)got[i],
                         (double)want[i]);
        }
        examples++;
    }
    fclose(f);
    assert_int_equal(examples, 6);
}

/* Every registry entry (omk, peers, baselines) the CPU runs against itself one element at a
 * time: all lengths from 0 to 70, in place, and shifted off any vector alignment. Peers get
 * inputs from the op's natural domain: SLEEF picks one argument reduction per vector from its
 * largest lane, so a huge or NaN neighbour changes the other lanes' results. */
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
                    const ulpb_input_set domain = {"domain", entry->op, op->domain_lo, op->domain_hi, ""};
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forced_isa_selected), cmocka_unit_test(cos_special_values),
        cmocka_unit_test(asin_special_values), cmocka_unit_test(onnx_examples),
        cmocka_unit_test(array_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
