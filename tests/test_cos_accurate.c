/* The phases of omk's correctly rounded binary64 cos, each against MPFR on its own (kernels/cos.c is compiled
 * into this test): the accurate phase (cos_f64_accurate: double-double, then fixed point) and the fixed-point
 * phase alone on every input, and the rounding test of the vectorized fast paths, whose accepted results must
 * be the correctly rounded ones. Inputs from a fixed seed: uniform on [-pi, pi], log-uniform over the whole binary64
 * range, the doubles next to multiples of pi/2, the edges of the table cells next to the zeros of cos (where the fast
 * path's error is largest), the hard-case table and the special values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cos.c"
#include "ref.h"

static uint64_t splitmix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t i) { return (double)(splitmix64(20261130u + i) >> 11) * 0x1p-53; }

static const ref_format binary64 = {53, 11};

typedef struct {
    long inputs, accepted, refine_tried, refined;
} counts;

static void check_one(double x, counts *c) {
    ref_value exact;
    ref_eval(REF_COS, &binary64, x, &exact);
    const double accurate = cos_f64_accurate(x);
    if (isnan(exact.rounded)) {
        if (!isnan(accurate)) fail_msg("cos_f64_accurate(%a) = %a, expected NaN", x, accurate);
    } else if (memcmp(&accurate, &exact.rounded, sizeof accurate)) {
        fail_msg("cos_f64_accurate(%a) = %a, correctly rounded %a", x, accurate, exact.rounded);
    }
    c->inputs++;
    if (!isfinite(x)) return;
    /* the fixed-point phase on its own: it decides only the lanes the double-double phase leaves */
    const double fixed = cos_f64_fixed(x);
    if (memcmp(&fixed, &exact.rounded, sizeof fixed))
        fail_msg("cos_f64_fixed(%a) = %a, correctly rounded %a", x, fixed, exact.rounded);
    if (fabs(x) >= 0x1p-27 && fabs(x) < cos_FAST_LIMIT) {
        const omk_f64_result refined = cos_f64_refine(x);
        c->refine_tried++;
        c->refined += fma(refined.tail, OMK_ROUNDING_FACTOR(0x1p-80), refined.value) == refined.value;
    }
    const omk_f64_result r = fabs(x) < cos_FAST_LIMIT ? cos_f64_fast(x) : cos_f64_huge(x);
    if (fma(r.tail, cos_F64_ROUNDING_FACTOR, r.value) != r.value) return; /* rejected: the accurate phase decides */
    c->accepted++;
    if (r.value != exact.rounded)
        fail_msg("the rounding test accepted cos(%a) = %a, correctly rounded %a", x, r.value, exact.rounded);
}

static void accurate_phase_and_rounding_test(void **state) {
    (void)state;
    counts c = {0, 0, 0, 0};
    enum { PER_SET = 4000 };
    for (uint64_t i = 0; i < PER_SET; i++) {
        check_one((2.0 * uniform01(i) - 1.0) * 3.141592653589793, &c);
        /* log-uniform magnitude over [2^-30, 2^1023], both signs */
        const double magnitude = exp2(-30.0 + 1053.0 * uniform01(i + 1000000));
        check_one(splitmix64(i) & 1 ? -magnitude : magnitude, &c);
        /* next to k pi/2, k up to 2^40: the reduction's cancellations */
        const double k = floor(exp2(40.0 * uniform01(i + 2000000)));
        const double near = k * 1.5707963267948966;
        const int64_t step = (int64_t)(splitmix64(i + 3000000) % 7) - 3;
        uint64_t bits;
        memcpy(&bits, &near, sizeof bits);
        bits += (uint64_t)step;
        double x;
        memcpy(&x, &bits, sizeof x);
        check_one(x, &c);
        /* within 2^-10 cell widths of an edge of the cells k = 255, 257, 767, 769 mod 1024 */
        static const double cells[4] = {255, 257, 767, 769};
        const double u = uniform01(i + 4000000) * 8, turn = floor(uniform01(i + 5000000) * 0x1p17);
        const int pick = (int)u;
        const double offset = (pick & 1 ? 1.0 : -1.0) * (0.5 - ldexp(u - pick, -10));
        check_one((1024 * turn + cells[pick >> 1] + offset) * (3.141592653589793 / 512), &c);
    }
    /* the hard-case table's cos rows */
    FILE *f = fopen(ULPB_TEST_DATA "/hard_cases_f64.txt", "r");
    assert_non_null(f);
    char line[256];
    int hard = 0;
    while (fgets(line, sizeof line, f)) {
        char op[8];
        unsigned long long input;
        if (line[0] == '#' || sscanf(line, "%7s %llx", op, &input) != 2 || strcmp(op, "cos")) continue;
        double x;
        memcpy(&x, &input, sizeof x);
        check_one(x, &c);
        check_one(-x, &c);
        hard++;
    }
    fclose(f);
    assert_true(hard >= 24);
    static const double specials[] = {0.0,
                                      -0.0,
                                      0x1p-1074,
                                      -0x1p-1022,
                                      0x1p-28,
                                      0x1.fffffffffffffp-28,
                                      0x1p-27,
                                      0x1.921fb54442d18p0,
                                      0x1.921fb54442d18p1,
                                      0x1.6ac5b262ca1ffp+849,
                                      0x1p20,
                                      0x1.fffffffffffffp+1023,
                                      INFINITY,
                                      -INFINITY,
                                      NAN};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) check_one(specials[i], &c);
    ref_free_cache();
    /* the tests must accept nearly everything, or the phases meant to run are not what runs */
    assert_true(c.accepted > c.inputs * 99 / 100);
    assert_true(c.refined > c.refine_tried * 99 / 100);
    print_message("%ld inputs: the accurate and fixed-point phases matched MPFR on all; the fast paths' rounding test "
                  "accepted %ld and the double-double phase's %ld of %ld, all correctly rounded\n",
                  c.inputs, c.accepted, c.refined, c.refine_tried);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(accurate_phase_and_rounding_test)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
