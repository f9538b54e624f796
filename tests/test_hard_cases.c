/* The hard-to-round binary64 table (tests/data/hard_cases_f64.txt, made by ulpbench hard-cases):
 * the MPFR reference reproduces every correctly rounded value, the fast reference either agrees or
 * hands the input to MPFR, and omk matches every row where kernels/omk_kernels.def promises correct
 * rounding and stays within 0.51 ULP on the others. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "omk.h"
#include "registry.h"

static double from_bits(unsigned long long bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

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
        const double x = from_bits(input);
        ref_value exact, fast;
        ref_eval(ulpb_ops[op_id].ref, &binary64, x, &exact);
        if (exact.rounded != from_bits(expected))
            fail_msg("%s(%a): MPFR gives %a, the table %a", op, x, exact.rounded, from_bits(expected));
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

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(hard_cases_table)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
