/* The hard-to-round binary64 table (tests/data/hard_cases_f64.txt, made by ulpbench hard-cases):
 * the MPFR reference reproduces every correctly rounded value, the fast reference either agrees or
 * hands the input to MPFR, and omk matches every row where kernels/omk_kernels.def promises correct
 * rounding and stays within 0.51 ULP on the others. The binary32 table (hard_cases_f32.txt, the inputs of all
 * 2^32 closest to a rounding midpoint): each search row is hard (measured here), and omk rounds it and its
 * negation correctly, one at a time and in one array per op. And published worst cases
 * (tests/data/worst_cases_f64.txt): each is hard (measured here), and omk rounds each correctly, one at a time and in
 * one array per op. ctest runs this under every OMK_ISA. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpfr.h>

#include "omk.h"
#include "omk_isa_expect.h"
#include "test_bits.h"
#include "registry.h"

static double half_ulp_distance(int op_id, double x, int *midpoint);

static void hard_cases_table(void **state) {
    (void)state;
    static const ref_format binary64 = {53, 11};
    FILE *f = fopen(ULPB_TEST_DATA "/hard_cases_f64.txt", "r");
    assert_non_null(f);
    char line[256];
    int rows = 0, misrounded = 0, fast_decided = 0;
    double worst = 0.0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char op[8], source[16];
        unsigned long long input, expected;
        double distance;
        assert_int_equal(sscanf(line, "%7s %llx %llx %lg %15s", op, &input, &expected, &distance, source), 5);
        const int op_id = ulpb_op_find(op);
        assert_true(op_id >= 0);
        const double x = f64_from_bits(input);
        ref_value exact, fast;
        ref_eval(ulpb_ops[op_id].ref, &binary64, x, &exact);
        if (exact.rounded != f64_from_bits(expected))
            fail_msg("%s(%a): MPFR gives %a, the table %a", op, x, exact.rounded, f64_from_bits(expected));
        /* the distance column is what makes a row hard: MPFR's distance to the nearest midpoint */
        int midpoint;
        const double nearest = half_ulp_distance(op_id, x, &midpoint);
        const double to_midpoint = midpoint ? nearest : 0.5 - nearest;
        if (!(fabs(to_midpoint - distance) <= 1e-3 * distance))
            fail_msg("%s(%a) lies %.4g ulp from a midpoint, the table says %.4g", op, x, to_midpoint, distance);
        if (ref_fast_binary64(ulpb_ops[op_id].ref, x, &fast)) {
            fast_decided++;
            if (fast.rounded != exact.rounded) fail_msg("%s(%a): the fast reference decided %a", op, x, fast.rounded);
        }
        double y;
        if (op_id == ULPB_OP_cos)
            omk_cos_f64(&x, &y, 1);
        else
            omk_asin_f64(&x, &y, 1);
        const double err = ref_ulp_error(&exact, y);
        if (!(err <= 0.51)) fail_msg("omk %s(%a) = %a: %.4f ULP", op, x, y, err);
        if (ulpb_entry_find("omk", (ulpb_op_id)op_id, ULPB_DTYPE_f64)->correctly_rounded && y != exact.rounded)
            fail_msg("omk %s(%a) = %a, correctly rounded %a", op, x, y, exact.rounded);
        misrounded += y != exact.rounded;
        if (err > worst) worst = err;
        rows++;
    }
    fclose(f);
    ref_free_cache();
    assert_true(rows >= 40);
    print_message("%d hard cases: omk max %.4f ULP, %d misrounded; fast reference decided %d\n", rows, worst,
                  misrounded, fast_decided);
}

/* |f(x) - nearest multiple of ulp/2| in ulps (midpoints and binary64 numbers alike), with MPFR at 300 bits; *midpoint
 * says which one is nearest. */
static double half_ulp_distance(int op_id, double x, int *midpoint) {
    mpfr_t fx, scaled, nearest;
    mpfr_inits2(300, fx, scaled, nearest, (mpfr_ptr)0);
    mpfr_set_d(scaled, x, MPFR_RNDN);
    if (op_id == ULPB_OP_cos)
        mpfr_cos(fx, scaled, MPFR_RNDN);
    else
        mpfr_asin(fx, scaled, MPFR_RNDN);
    mpfr_abs(fx, fx, MPFR_RNDN); /* the parity below is that of |f|'s multiple of ulp/2 */
    /* |f| in [2^(e-1), 2^e): ulp/2 = 2^(e-54) (normal results only, which every row has) */
    mpfr_mul_2si(scaled, fx, 54 - (long)mpfr_get_exp(fx), MPFR_RNDN); /* exact */
    mpfr_rint(nearest, scaled, MPFR_RNDN);
    *midpoint = (int)(mpfr_get_ui(nearest, MPFR_RNDN) & 1);
    mpfr_sub(scaled, scaled, nearest, MPFR_RNDN);
    const double distance = fabs(mpfr_get_d(scaled, MPFR_RNDN)) / 2;
    mpfr_clears(fx, scaled, nearest, (mpfr_ptr)0);
    return distance;
}

enum { MAX_F32_ROWS = 128 };

static void hard_cases_table_f32(void **state) {
    (void)state;
    static const ref_format binary32 = {24, 8};
    FILE *f = fopen(ULPB_TEST_DATA "/hard_cases_f32.txt", "r");
    assert_non_null(f);
    /* both signs of every row: cos is even, asin odd */
    static float x[ULPB_OP_COUNT][2 * MAX_F32_ROWS], want[ULPB_OP_COUNT][2 * MAX_F32_ROWS];
    int count[ULPB_OP_COUNT] = {0}, searched = 0, glibc_misrounded = 0;
    double hardest = 1.0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char op[8], source[16];
        unsigned input, expected;
        double distance;
        assert_int_equal(sscanf(line, "%7s %x %x %lg %15s", op, &input, &expected, &distance, source), 5);
        const int op_id = ulpb_op_find(op);
        assert_true(op_id >= 0 && count[op_id] + 2 <= 2 * MAX_F32_ROWS);
        const float v = f32_from_bits(input);
        ref_value exact;
        ref_eval(ulpb_ops[op_id].ref, &binary32, (double)v, &exact);
        if (exact.rounded != (double)f32_from_bits(expected))
            fail_msg("%s(%a): MPFR gives %a, the table %a", op, (double)v, exact.rounded,
                     (double)f32_from_bits(expected));
        /* |f(x) - nearest binary32 midpoint| from MPFR's value to ~106 bits, as the table has it (4 digits); a search
         * row lies far closer than omk's fast paths' error (2^-29 binary32 ulp and more) can tell apart */
        const double scaled = fabs(exact.exact_hi) / exact.ulp; /* exact; its fraction too */
        const double measured =
            fabs((scaled - floor(scaled) - 0.5) + (exact.exact_hi < 0 ? -exact.exact_lo : exact.exact_lo) / exact.ulp);
        if (!(fabs(measured - distance) <= 1e-3 * distance))
            fail_msg("%s(%a) lies %.4g ulp from a midpoint, the table says %.4g", op, (double)v, measured, distance);
        if (strcmp(source, "search") == 0) {
            if (!(measured < 0x1p-23))
                fail_msg("%s(%a) lies %.3g ulp from a midpoint: not hard", op, (double)v, measured);
            if (measured < hardest) hardest = measured;
            searched++;
        }
        for (int sign = 0; sign <= 1; sign++) {
            const float xs = sign ? -v : v, ws = (float)exact.rounded * (sign && op_id == ULPB_OP_asin ? -1.0f : 1.0f);
            float y;
            if (op_id == ULPB_OP_cos)
                omk_cos_f32(&xs, &y, 1);
            else
                omk_asin_f32(&xs, &y, 1);
            if (y != ws) fail_msg("omk %s(%a) = %a, correctly rounded %a", op, (double)xs, (double)y, (double)ws);
            glibc_misrounded += (op_id == ULPB_OP_cos ? cosf(xs) : asinf(xs)) != ws;
            x[op_id][count[op_id]] = xs;
            want[op_id][count[op_id]++] = ws;
        }
    }
    fclose(f);
    ref_free_cache();
    for (int op_id = 0; op_id < ULPB_OP_COUNT; op_id++) {
        static float got[2 * MAX_F32_ROWS];
        if (op_id == ULPB_OP_cos)
            omk_cos_f32(x[op_id], got, (size_t)count[op_id]);
        else
            omk_asin_f32(x[op_id], got, (size_t)count[op_id]);
        for (int i = 0; i < count[op_id]; i++)
            if (got[i] != want[op_id][i])
                fail_msg("omk %s array: element %d, x = %a: %a, correctly rounded %a", ulpb_ops[op_id].name, i,
                         (double)x[op_id][i], (double)got[i], (double)want[op_id][i]);
    }
    assert_true(searched >= 60);
    print_message("%d binary32 cos and %d asin inputs (%d searched, the hardest %.3g ulp from a midpoint): omk (%s "
                  "build) rounds all correctly, glibc misrounds %d\n",
                  count[ULPB_OP_cos], count[ULPB_OP_asin], searched, hardest, omk_isa_in_use(), glibc_misrounded);
}

enum { MAX_WORST_CASES = 1024 };

static void published_worst_cases(void **state) {
    (void)state;
    static const ref_format binary64 = {53, 11};
    FILE *f = fopen(ULPB_TEST_DATA "/worst_cases_f64.txt", "r");
    assert_non_null(f);
    static double x[ULPB_OP_COUNT][MAX_WORST_CASES], want[ULPB_OP_COUNT][MAX_WORST_CASES];
    int count[ULPB_OP_COUNT] = {0}, near_midpoint = 0, glibc_misrounded = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char op[8], value[64], *end;
        assert_int_equal(sscanf(line, "%7s %63s", op, value), 2);
        const int op_id = ulpb_op_find(op);
        assert_true(op_id >= 0 && count[op_id] < MAX_WORST_CASES);
        const double v = strtod(value, &end);
        if (*end || !isfinite(v)) fail_msg("not a finite double: '%s'", value);
        int midpoint;
        const double distance = half_ulp_distance(op_id, v, &midpoint);
        if (!(distance < 0x1p-40))
            fail_msg("%s(%a) lies %.3g ulp from a rounding boundary: not a hard case", op, v, distance);
        near_midpoint += midpoint;
        ref_value exact;
        ref_eval(ulpb_ops[op_id].ref, &binary64, v, &exact);
        double y;
        if (op_id == ULPB_OP_cos)
            omk_cos_f64(&v, &y, 1);
        else
            omk_asin_f64(&v, &y, 1);
        if (y != exact.rounded) fail_msg("omk %s(%a) = %a, correctly rounded %a", op, v, y, exact.rounded);
        glibc_misrounded += (op_id == ULPB_OP_cos ? cos(v) : asin(v)) != exact.rounded;
        x[op_id][count[op_id]] = v;
        want[op_id][count[op_id]++] = exact.rounded;
    }
    fclose(f);
    ref_free_cache();
    /* the same inputs side by side, so that the vector loops meet them in every lane position and block */
    for (int op_id = 0; op_id < ULPB_OP_COUNT; op_id++) {
        static double got[MAX_WORST_CASES];
        if (op_id == ULPB_OP_cos)
            omk_cos_f64(x[op_id], got, (size_t)count[op_id]);
        else
            omk_asin_f64(x[op_id], got, (size_t)count[op_id]);
        for (int i = 0; i < count[op_id]; i++)
            if (got[i] != want[op_id][i])
                fail_msg("omk %s array: element %d, x = %a: %a, correctly rounded %a", ulpb_ops[op_id].name, i,
                         x[op_id][i], got[i], want[op_id][i]);
    }
    assert_true(count[ULPB_OP_cos] >= 100 && count[ULPB_OP_asin] >= 40);
    print_message("%d cos and %d asin worst cases (%d near a midpoint): omk (%s build) rounds all correctly, glibc "
                  "misrounds %d\n",
                  count[ULPB_OP_cos], count[ULPB_OP_asin], near_midpoint, omk_isa_in_use(), glibc_misrounded);
}

int main(void) {
    if (omk_isa_forced_unsupported()) return OMK_TEST_SKIPPED;
    const struct CMUnitTest tests[] = {cmocka_unit_test(hard_cases_table), cmocka_unit_test(hard_cases_table_f32),
                                       cmocka_unit_test(published_worst_cases)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
