/* The phases of omk's correctly rounded binary64 kernels, each against MPFR on its own (kernels/cos.c and
 * kernels/asin.c are compiled into this test): the accurate phase (double-double, then fixed point) and the
 * fixed-point phase alone on every input, and the rounding test of the vectorized fast paths, whose accepted
 * results must be the correctly rounded ones. Inputs from a fixed seed.
 *   cos: uniform on [-pi, pi], log-uniform over the whole binary64 range, the doubles next to multiples of pi/2,
 *        the edges of the table cells next to the zeros of cos (where the fast path's error is largest);
 *   asin: uniform on [-1, 1], log-uniform below 1, 1 minus a log-uniform distance, the doubles next to 2^-1/2
 *        (where the rotation step changes sides) and next to the edges of its table cells;
 * and for both the hard-case table and the special values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "asin.c"
#include "cos.c"
#include "ref.h"
#include "test_bits.h"

static double uniform01(uint64_t i) { return (double)(splitmix64(20261130u + i) >> 11) * 0x1p-53; }

static const ref_format binary64 = {53, 11};

/* One op's phases: fast(x) where fast_domain(x), or for every x when fast_everywhere (an op without a huge path,
 * whose array loop relies on the rounding test alone: from its limit on, the fast path must fail the test or be
 * right), refine(x) (with a rounding test for 2^-80) where refine_domain(x), fixed(x) where fast_domain(x). */
typedef struct {
    ref_op ref;
    double (*accurate)(double), (*fixed)(double);
    omk_f64_result (*fast)(double), (*refine)(double);
    int (*fast_domain)(double), (*refine_domain)(double);
    double fast_factor;
    int fast_everywhere;
} phases;

/* weak_wrong: results a rounding test with factor 1 (no margin for the fast path's error) would have accepted
 * misrounded; refine_wrong: middle-phase results that are misrounded, which its own test must reject. Both must be
 * above 0 somewhere, or the tests they guard could not fail. */
typedef struct {
    long inputs, accepted, refine_tried, refined, weak_wrong, refine_wrong;
} counts;

static void check_one(const phases *p, double x, counts *c) {
    ref_value exact;
    ref_eval(p->ref, &binary64, x, &exact);
    const double accurate = p->accurate(x);
    if (isnan(exact.rounded)) {
        if (!isnan(accurate)) fail_msg("accurate(%a) = %a, expected NaN", x, accurate);
    } else if (memcmp(&accurate, &exact.rounded, sizeof accurate)) {
        fail_msg("accurate(%a) = %a, correctly rounded %a", x, accurate, exact.rounded);
    }
    c->inputs++;
    const int in_domain = isfinite(x) && p->fast_domain(x);
    if (!in_domain && p->fast_everywhere) {
        const omk_f64_result r = p->fast(x);
        if (fma(r.tail, p->fast_factor, r.value) == r.value && memcmp(&r.value, &exact.rounded, sizeof r.value))
            fail_msg("the rounding test accepted %a -> %a beyond the fast path's domain", x, r.value);
    }
    if (!in_domain) return;
    /* the fixed-point phase on its own: it decides only the lanes the double-double phase leaves */
    const double fixed = p->fixed(x);
    if (memcmp(&fixed, &exact.rounded, sizeof fixed))
        fail_msg("fixed(%a) = %a, correctly rounded %a", x, fixed, exact.rounded);
    if (p->refine_domain(x)) {
        const omk_f64_result refined = p->refine(x);
        c->refine_tried++;
        c->refined += fma(refined.tail, OMK_ROUNDING_FACTOR(0x1p-80), refined.value) == refined.value;
        c->refine_wrong += refined.value != exact.rounded;
    }
    const omk_f64_result r = p->fast(x);
    c->weak_wrong += fma(r.tail, 1.0, r.value) == r.value && r.value != exact.rounded;
    if (fma(r.tail, p->fast_factor, r.value) != r.value) return; /* rejected: the accurate phase decides */
    c->accepted++;
    if (r.value != exact.rounded)
        fail_msg("the rounding test accepted %a -> %a, correctly rounded %a", x, r.value, exact.rounded);
}

/* The rows of op in a table of tests/data (hard_cases_f64.txt, worst_cases_f64.txt), both signs. */
static int check_table(const char *file, const phases *p, const char *op_name, counts *c) {
    enum { MAX_ROWS = 1024 };
    static uint64_t inputs[MAX_ROWS];
    const long rows = table_inputs(ULPB_TEST_DATA, file, op_name, inputs, MAX_ROWS);
    assert_true(rows >= 0 && rows < MAX_ROWS); /* read, and whole */
    for (long i = 0; i < rows; i++) {
        check_one(p, f64_from_bits(inputs[i]), c);
        check_one(p, -f64_from_bits(inputs[i]), c);
    }
    return (int)rows;
}

/* The special values, then the counts of those and the sampled inputs: the tests must accept nearly everything, or the
 * phases meant to run are not what runs. Then the hard-case rows and the published worst cases (each checked as the
 * rest, outside those shares: the fast path rejects nearly all of them, as it must so close to a midpoint). Without its
 * margin the fast path's test must accept misrounded results (weak_wrong), or it could not fail; so must the middle
 * phase's for cos (refine_wrong: the worst case cos(0x1.00c82b482ed92p-10) among others), whose fixed-point phase would
 * otherwise never be needed. */
static void finish_phases(const phases *p, const char *op, const double *specials, size_t n_specials, counts *c,
                          int middle_misrounds) {
    for (size_t i = 0; i < n_specials; i++) check_one(p, specials[i], c);
    assert_true(c->accepted > c->inputs * 99 / 100);
    assert_true(c->refined > c->refine_tried * 99 / 100);
    assert_true(check_table("hard_cases_f64.txt", p, op, c) >= 24);
    counts worst = {0, 0, 0, 0, 0, 0};
    assert_true(check_table("worst_cases_f64.txt", p, op, &worst) >= 40);
    ref_free_cache();
    print_message("%s, %ld inputs and %ld published worst cases: the accurate and fixed-point phases matched MPFR on "
                  "all; the fast path's rounding test accepted %ld and the double-double phase's %ld of %ld, all "
                  "correctly rounded; with factor 1 the fast path's test would have accepted %ld misrounded results, "
                  "and %ld results of the double-double phase (%ld of them published worst cases) are misrounded "
                  "before its test\n",
                  op, c->inputs, worst.inputs, c->accepted + worst.accepted, c->refined + worst.refined,
                  c->refine_tried + worst.refine_tried, c->weak_wrong + worst.weak_wrong,
                  c->refine_wrong + worst.refine_wrong, worst.refine_wrong);
    assert_true(c->weak_wrong + worst.weak_wrong > 0);
    if (middle_misrounds) assert_true(c->refine_wrong + worst.refine_wrong > 0);
}

static double bits_step(double v, int64_t step) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits += (uint64_t)step;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static int cos_in_fast(double x) { return isfinite(x); } /* the fast path below 2^20, the huge one beyond */
static int cos_in_refine(double x) { return fabs(x) >= 0x1p-27 && fabs(x) < cos_FAST_LIMIT; }
static omk_f64_result cos_fast_or_huge(double x) {
    return fabs(x) < cos_FAST_LIMIT ? cos_f64_fast(x) : cos_f64_huge(x);
}

static void cos_phases(void **state) {
    (void)state;
    static const phases p = {REF_COS,          cos_f64_accurate,        cos_f64_fixed,
                             cos_fast_or_huge, cos_f64_refine,          cos_in_fast,
                             cos_in_refine,    cos_F64_ROUNDING_FACTOR, 0};
    counts c = {0, 0, 0, 0, 0, 0};
    enum { PER_SET = 4000 };
    for (uint64_t i = 0; i < PER_SET; i++) {
        check_one(&p, (2.0 * uniform01(i) - 1.0) * 3.141592653589793, &c);
        /* log-uniform magnitude over [2^-30, 2^1023], both signs */
        const double magnitude = exp2(-30.0 + 1053.0 * uniform01(i + 1000000));
        check_one(&p, splitmix64(i) & 1 ? -magnitude : magnitude, &c);
        /* next to k pi/2, k up to 2^40: the reduction's cancellations */
        const double k = floor(exp2(40.0 * uniform01(i + 2000000)));
        check_one(&p, bits_step(k * 1.5707963267948966, (int64_t)(splitmix64(i + 3000000) % 7) - 3), &c);
        /* within 2^-10 cell widths of an edge of the cells k = 255, 257, 767, 769 mod 1024 */
        static const double cells[4] = {255, 257, 767, 769};
        const double u = uniform01(i + 4000000) * 8, turn = floor(uniform01(i + 5000000) * 0x1p17);
        const int pick = (int)u;
        const double offset = (pick & 1 ? 1.0 : -1.0) * (0.5 - ldexp(u - pick, -10));
        check_one(&p, (1024 * turn + cells[pick >> 1] + offset) * (3.141592653589793 / 512), &c);
    }
    static const double specials[] = {0.0, -0.0, 0x1p-1074, -0x1p-1022, 0x1p-28, 0x1.fffffffffffffp-28, 0x1p-27,
                                      0x1.921fb54442d18p0, 0x1.921fb54442d18p1, 0x1.6ac5b262ca1ffp+849, 0x1p20,
                                      /* the largest errors of the fast and huge paths f64_rounding_margin --search
                                         found (2^-67.82; 2^-67.87 and 2^-67.71) */
                                      0x1.20e6fb14b24aap+18, 0x1.ff62682aed7bbp+36, 0x1.0ea8d2f313805p+29,
                                      0x1.fffffffffffffp+1023, INFINITY, -INFINITY, NAN};
    finish_phases(&p, "cos", specials, sizeof specials / sizeof specials[0], &c, 1);
}

static int asin_in_fast(double x) { return fabs(x) < 1.0; }
static double asin_fixed_phase(double x) { return asin_f64_fixed(x, asin_f64_refine(x)); }

static void asin_phases(void **state) {
    (void)state;
    static const phases p = {REF_ASIN,      asin_f64_accurate,        asin_fixed_phase,
                             asin_f64_fast, asin_f64_refine,          asin_in_fast,
                             asin_in_fast,  asin_F64_ROUNDING_FACTOR, 1};
    counts c = {0, 0, 0, 0, 0, 0};
    enum { PER_SET = 3000 };
    for (uint64_t i = 0; i < PER_SET; i++) {
        const double sign = splitmix64(i) & 1 ? -1.0 : 1.0;
        check_one(&p, 2.0 * uniform01(i) - 1.0, &c);
        check_one(&p, sign * exp2(-60.0 * uniform01(i + 1000000)), &c);         /* [2^-60, 1) */
        check_one(&p, sign * (1.0 - exp2(-53.0 * uniform01(i + 2000000))), &c); /* 1 - [2^-53, 1] */
        check_one(&p, bits_step(sign * 0.7071067811865476, (int64_t)(splitmix64(i + 3000000) % 2001) - 1000), &c);
        /* next to an edge of a table cell, m = |x| or m = sqrt(1 - x^2) (asin_rotation_setup) */
        const double edge = (floor(uniform01(i + 4000000) * 181) + 0.5) / (256.0 - 0x1p-8);
        const double m = bits_step(edge, (int64_t)(splitmix64(i + 5000000) % 65) - 32);
        check_one(&p, sign * (splitmix64(i + 6000000) & 1 ? m : sqrt(1.0 - m * m)), &c);
    }
    static const double specials[] = {0.0,
                                      -0.0,
                                      0x1p-1074,
                                      -0x1p-1022,
                                      0x1p-27,
                                      0x1.fffffffffffffp-27,
                                      0x1p-26,
                                      0x1p-9,
                                      0x1.0001p-9,
                                      0x1.02e7319b93a2fp-9, /* the largest errors f64_rounding_margin --search found */
                                      0x1.0229661dbc111p-9,
                                      0.5,
                                      -0.7,
                                      0x1.6666666666667p-1,
                                      0x1.fffffffffffffp-1,
                                      -0x1.fffffffffffffp-1,
                                      1.0,
                                      -1.0,
                                      0x1.0000000000001p0,
                                      2.0,
                                      INFINITY,
                                      -INFINITY,
                                      NAN};
    finish_phases(&p, "asin", specials, sizeof specials / sizeof specials[0], &c, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(cos_phases), cmocka_unit_test(asin_phases)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
