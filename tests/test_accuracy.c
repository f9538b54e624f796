/* The accuracy runner end to end: omk is correctly rounded on every 16-bit input and on sampled binary32 and binary64
 * inputs (the registry's gate and kernels/omk_kernels.def say what it promises); the ruler does catch a misrounding
 * peer; the statistics merge, save and print as a run of their own would; and the hung-call watch reads whole calls. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "accuracy.h"
#include "omk_isa_expect.h"
#include "test_bits.h"
#include "registry.h"
#include "result_io.h"
#include "samplers.h"

enum { TEST_SEED = 20261130 };

static ulpb_result run_with(const char *impl, ulpb_op_id op, ulpb_dtype_id dtype, uint64_t samples,
                            bool fast_reference) {
    ulpb_result r[4];
    char err[256];
    const ulpb_check_spec spec = {op, dtype, samples, TEST_SEED, impl, 0, false, fast_reference, 0, 1, {0}, NULL, 0};
    const int n = ulpb_check(&spec, r, 4, err, sizeof err);
    if (n != 1) fail_msg("ulpb_check: %s", n < 0 ? err : "expected one result");
    return r[0];
}

static ulpb_result run_one(const char *impl, ulpb_op_id op, ulpb_dtype_id dtype, uint64_t samples) {
    return run_with(impl, op, dtype, samples, false);
}

static void expect_exhaustive_cr(ulpb_op_id op, ulpb_dtype_id dtype) {
    const ulpb_result r = run_one("omk", op, dtype, 0);
    assert_true(r.exhaustive);
    assert_int_equal(r.total.inputs, 65536);
    if (r.total.misrounded || r.total.special_mismatches)
        fail_msg("omk %s %s: %llu misrounded, %llu special mismatches (worst input 0x%04llx, %.3f ULP)",
                 ulpb_ops[op].name, ulpb_dtypes[dtype].name, (unsigned long long)r.total.misrounded,
                 (unsigned long long)r.total.special_mismatches, (unsigned long long)r.total.worst_bits,
                 r.total.max_ulp);
    assert_int_equal(r.total.correctly_rounded, 65536);
    assert_true(r.total.max_ulp <= 0.5);
}

static void cos_f16_exhaustive(void **state) {
    (void)state;
    expect_exhaustive_cr(ULPB_OP_cos, ULPB_DTYPE_f16);
}
static void cos_bf16_exhaustive(void **state) {
    (void)state;
    expect_exhaustive_cr(ULPB_OP_cos, ULPB_DTYPE_bf16);
}
static void asin_f16_exhaustive(void **state) {
    (void)state;
    expect_exhaustive_cr(ULPB_OP_asin, ULPB_DTYPE_f16);
}
static void asin_bf16_exhaustive(void **state) {
    (void)state;
    expect_exhaustive_cr(ULPB_OP_asin, ULPB_DTYPE_bf16);
}

/* What omk promises, from the registry's gate columns and kernels/omk_kernels.def: binary32 and the
 * kernels marked there correctly rounded, binary64 below 0.51 ULP, on every sampler. */
static void sampled_meets_gate(void **state) {
    (void)state;
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        for (int d = ULPB_DTYPE_f32; d <= ULPB_DTYPE_f64; d++) {
            const ulpb_result r = run_one("omk", (ulpb_op_id)op, (ulpb_dtype_id)d, 40000);
            assert_int_equal(r.total.inputs, 40000);
            assert_int_equal(r.sampler_count, 6);
            assert_int_equal(r.total.special_mismatches, 0);
            const ulpb_dtype *dt = &ulpb_dtypes[d];
            if (!(r.total.max_ulp <= (dt->gate_max_ulp >= 0 ? dt->gate_max_ulp : 0.5)))
                fail_msg("omk %s %s: max %.4f ULP at 0x%llx", ulpb_ops[op].name, dt->name, r.total.max_ulp,
                         (unsigned long long)r.total.worst_bits);
            const long long max_misrounded = r.entry->correctly_rounded ? 0 : dt->gate_max_misrounded;
            if (max_misrounded >= 0 && r.total.misrounded > (unsigned long long)max_misrounded)
                fail_msg("omk %s %s: %llu misrounded (worst input 0x%llx)", ulpb_ops[op].name, dt->name,
                         (unsigned long long)r.total.misrounded, (unsigned long long)r.total.worst_bits);
        }
    }
}

/* The widen -> cosf -> narrow pipeline rounds twice; the ruler must see it. cos(0x1.dfp-5) is the
 * known binary16 case. */
static void ruler_catches_double_rounding(void **state) {
    (void)state;
    const ulpb_result r = run_one("glibc", ULPB_OP_cos, ULPB_DTYPE_f16, 0);
    assert_int_equal(r.total.misrounded, 2);
    assert_true(r.total.max_ulp > 0.5);
}

/* The fast reference decides the same verdicts as MPFR and, once each sampler's worst input is measured again, reports
 * the same maxima to the last bit (the long double alone puts glibc's binary64 cos at 0.560546875 ULP where MPFR
 * says 0.5607...); the exact bin holds only exact results (x = 0) under either reference, not the cos of tiny
 * inputs whose error rounds to 0 at MPFR's precision. */
static void fast_reference_agrees_with_mpfr(void **state) {
    (void)state;
    const char *const peers[] = {"glibc", "omk"};
    for (int i = 0; i < 2; i++)
        for (int op = 0; op < ULPB_OP_COUNT; op++)
            for (int d = ULPB_DTYPE_f32; d <= ULPB_DTYPE_f64; d++) {
                const ulpb_result a = run_with(peers[i], (ulpb_op_id)op, (ulpb_dtype_id)d, 20000, false);
                const ulpb_result b = run_with(peers[i], (ulpb_op_id)op, (ulpb_dtype_id)d, 20000, true);
                assert_int_equal(a.total.misrounded, b.total.misrounded);
                assert_int_equal(a.total.histogram[0], b.total.histogram[0]);
                for (int s = 0; s < a.sampler_count; s++) {
                    const ulpb_stats *x = &a.per_sampler[s], *y = &b.per_sampler[s];
                    if (x->worst_bits == y->worst_bits && x->max_ulp != y->max_ulp)
                        fail_msg("%s %s %s, sampler %s: worst input 0x%llx, %.12g ULP (MPFR) against %.12g (fast)",
                                 peers[i], ulpb_ops[op].name, ulpb_dtypes[d].name, a.sampler_names[s],
                                 (unsigned long long)x->worst_bits, x->max_ulp, y->max_ulp);
                    assert_true(fabs(x->max_ulp - y->max_ulp) < 0x1p-9);
                }
            }
}

static int compare_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double value_of(ulpb_dtype_id dtype, uint64_t bits) { return ref_decode(&ulpb_dtypes[dtype].format, bits); }

/* --range: the ends are the formats' first and last values in it (both zeros where 0 is), and both range samplers draw
 * only from it, reproducibly, one by value and one by the format's values (so that small binades are reached). */
static void range_samplers_draw_only_from_the_range(void **state) {
    (void)state;
    const struct {
        ulpb_dtype_id dtype;
        double lo, hi;
        uint64_t count; /* of the format's values in [lo, hi]; 0: none */
    } ends[] = {
        {ULPB_DTYPE_f32, 0.5, 0.75, (1u << 22) + 1},
        {ULPB_DTYPE_f64, 0.5, 0.75, (1ull << 51) + 1},
        {ULPB_DTYPE_f16, 0.5, 0.75, 513},
        {ULPB_DTYPE_bf16, 0.5, 0.75, 65},
        {ULPB_DTYPE_f32, -0x1p-149, 0x1p-149, 4}, /* -2^-149, -0, +0, 2^-149 */
        {ULPB_DTYPE_f32, 0.0, 0x1p-148, 4},       /* -0, +0, 2^-149, 2^-148 */
        {ULPB_DTYPE_f32, -0x1p-148, -0.0, 4},
        {ULPB_DTYPE_f32, 0x1.000001p0, 0x1.000005p0, 2},    /* inward from ends between binary32 values */
        {ULPB_DTYPE_f32, -1e300, 1e300, 2 * 0x7f800000ull}, /* every finite binary32 value */
        {ULPB_DTYPE_f64, -DBL_MAX, DBL_MAX, 2 * 0x7ff0000000000000ull},
        {ULPB_DTYPE_f32, 1e39, 2e39, 0},
        {ULPB_DTYPE_f16, 70000, 80000, 0},
        {ULPB_DTYPE_bf16, 0x1.2p-133, 0x1.cp-133,
         0}, /* between bfloat16's two smallest subnormals, 2^-133 and 2^-132 */
        {ULPB_DTYPE_f32, 0x1.0000002p0, 0x1.0000003p0, 0},
    };
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        const ulpb_input_range range = {true, ends[i].lo, ends[i].hi};
        uint64_t first, last;
        const bool holds = ulpb_range_keys(ends[i].dtype, &range, &first, &last);
        if (holds != (ends[i].count != 0) || (holds && last - first + 1 != ends[i].count))
            fail_msg("[%a, %a] in %s: %s %llu values, expected %llu", ends[i].lo, ends[i].hi,
                     ulpb_dtypes[ends[i].dtype].name, holds ? "holds" : "holds no",
                     (unsigned long long)(last - first + 1), (unsigned long long)ends[i].count);
        if (!holds) continue;
        /* the ends lie inside, and the values just beyond them outside */
        const double a = value_of(ends[i].dtype, ulpb_bits_of_key(ends[i].dtype, first)),
                     b = value_of(ends[i].dtype, ulpb_bits_of_key(ends[i].dtype, last)),
                     below = value_of(ends[i].dtype, ulpb_bits_of_key(ends[i].dtype, first - 1)),
                     above = value_of(ends[i].dtype, ulpb_bits_of_key(ends[i].dtype, last + 1));
        assert_true(ulpb_range_holds(&range, a) && ulpb_range_holds(&range, b));
        assert_false(ulpb_range_holds(&range, below) || ulpb_range_holds(&range, above));
    }
    /* a 16-bit count agrees with looking at every pattern */
    const ulpb_input_range small = {true, -1e-3, 1e-3};
    uint64_t first, last, inside = 0;
    for (uint32_t bits = 0; bits < 1u << 16; bits++) inside += ulpb_range_holds(&small, value_of(ULPB_DTYPE_f16, bits));
    assert_true(ulpb_range_keys(ULPB_DTYPE_f16, &small, &first, &last));
    assert_int_equal(last - first + 1, inside);

    /* the random samplers: in the range, reproducible, changing with the seed, each with its own shape */
    enum { VALUES, PATTERNS, ENDS, RANDOM_SAMPLERS };
    const int random[RANDOM_SAMPLERS] = {ulpb_sampler_find("range_values"), ulpb_sampler_find("range_patterns"),
                                         ulpb_sampler_find("range_ends")};
    for (int k = 0; k < RANDOM_SAMPLERS; k++) assert_true(random[k] >= 0);
    const struct {
        double lo, hi;
    } ranges[] = {{0.5, 0.75}, {-3, 1e4}, {-1e308, 1e308}, {1e-30, 1}, {-0x1p-149, 0x1p-149}, {0.9, 1}, {0, 1}};
    for (int d = ULPB_DTYPE_f32; d <= ULPB_DTYPE_f64; d++)
        for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
            enum { DRAWS = 4000 };
            const ulpb_dtype_id dtype = (ulpb_dtype_id)d;
            const ulpb_input_range range = {true, ranges[r].lo, ranges[r].hi};
            const bool tiny = r == 4 && d == ULPB_DTYPE_f32; /* four values */
            uint64_t first_key, last_key;
            assert_true(ulpb_range_keys(dtype, &range, &first_key, &last_key));
            const long double lo = value_of(dtype, ulpb_bits_of_key(dtype, first_key)),
                              hi = value_of(dtype, ulpb_bits_of_key(dtype, last_key));
            const uint64_t middle_key = first_key + (last_key - first_key) / 2;
            int small[RANDOM_SAMPLERS] = {0}, outer_half[RANDOM_SAMPLERS] = {0}, upper_keys[RANDOM_SAMPLERS] = {0};
            int near_top[RANDOM_SAMPLERS] = {0}, subnormal[RANDOM_SAMPLERS] = {0}, changed = 0, seen[4] = {0};
            for (uint64_t i = 0; i < DRAWS; i++)
                for (int k = 0; k < RANDOM_SAMPLERS; k++) {
                    const int sampler = random[k];
                    const uint64_t bits = ulpb_sampler_input_in(sampler, ULPB_OP_cos, dtype, &range, 7, i);
                    assert_true(bits == ulpb_sampler_input_in(sampler, ULPB_OP_cos, dtype, &range, 7, i));
                    changed += bits != ulpb_sampler_input_in(sampler, ULPB_OP_cos, dtype, &range, 8, i);
                    const double x = value_of(dtype, bits);
                    if (!ulpb_range_holds(&range, x))
                        fail_msg("%s %s drew %a outside [%a, %a]", ulpb_sampler_name(sampler), ulpb_dtypes[d].name, x,
                                 range.lo, range.hi);
                    small[k] += fabs(x) < 1e-3;
                    outer_half[k] += fabsl(x - (lo / 2 + hi / 2)) > hi / 4 - lo / 4;
                    upper_keys[k] += ulpb_order_key(dtype, bits) > middle_key;
                    near_top[k] += hi - x <= 0x1p-16L * hi;
                    subnormal[k] += x != 0 && fabs(x) < (d == ULPB_DTYPE_f32 ? FLT_MIN : DBL_MIN);
                    if (tiny && k == PATTERNS) seen[ulpb_order_key(dtype, bits) - 0x7ffffffeu]++; /* -2^-149 first */
                }
            if (!tiny && changed < RANDOM_SAMPLERS * DRAWS * 9 / 10)
                fail_msg("range samplers, %s [%a, %a]: %d of %d draws change with the seed", ulpb_dtypes[d].name,
                         range.lo, range.hi, changed, RANDOM_SAMPLERS * DRAWS);
            for (int k = 0; k < 4 && tiny; k++) /* by pattern: -2^-149, -0, +0, 2^-149 */
                if (seen[k] == 0) fail_msg("range_patterns f32 [-2^-149, 2^-149]: value %d of 4 never drawn", k);
            if (tiny) continue;
            /* by value, half the draws in the outer half of [lo, hi]; by pattern, half in the upper half of its values
             * (so both reach the ends of a range as wide as the format's) */
            if (outer_half[VALUES] < DRAWS * 2 / 5 || outer_half[VALUES] > DRAWS * 3 / 5 ||
                upper_keys[PATTERNS] < DRAWS * 2 / 5 || upper_keys[PATTERNS] > DRAWS * 3 / 5)
                fail_msg("%s [%a, %a]: %d range_values draws in the outer half, %d range_patterns in the upper half "
                         "of the values, of %d each",
                         ulpb_dtypes[d].name, range.lo, range.hi, outer_half[VALUES], upper_keys[PATTERNS], DRAWS);
            if (r == 3) { /* [1e-30, 1]: by value nearly all above 1e-3, by pattern most below it (binades) */
                assert_true(small[VALUES] < DRAWS / 100);
                assert_true(small[PATTERNS] > DRAWS * 3 / 4);
            }
            /* [0.9, 1]: by value 1 draw in 6,500 within 2^-16 of 1, from the ends about 1 in 5 (binary32: 9 octaves of
             * 22, and half the draws from the top end) or 1 in 2.7 (binary64: 38 of 51) */
            if (r == 5 && (near_top[ENDS] < DRAWS / 10 || near_top[VALUES] > DRAWS / 100))
                fail_msg("%s [0.9, 1]: %d range_ends and %d range_values draws within 2^-16 of 1, of %d",
                         ulpb_dtypes[d].name, near_top[ENDS], near_top[VALUES], DRAWS);
            /* [0, 1]: from the ends, the subnormals above 0 in 23 (binary32) or 52 (binary64) octaves of about 30 or
             * 62, half the draws from the lower end */
            if (r == 6 && subnormal[ENDS] < DRAWS / 4)
                fail_msg("%s [0, 1]: %d range_ends draws subnormal, of %d", ulpb_dtypes[d].name, subnormal[ENDS],
                         DRAWS);
        }
    /* range_specials: the range's ends, then the format's edge values inside it, as a fixed list */
    const int fixed = ulpb_sampler_find("range_specials");
    const ulpb_input_range unit = {true, 0, 1};
    const uint64_t fixed_count = sampler_range_special_count(ULPB_DTYPE_f32, &unit);
    /* -0 and 1 (the ends), then +0, 2^-149, the largest subnormal, 2^-126, 1 - 2^-24, 1/2 and 1/2 - 2^-25 */
    static const uint32_t want[] = {0x80000000, 0x3f800000, 0x00000000, 0x00000001, 0x007fffff,
                                    0x00800000, 0x3f7fffff, 0x3f000000, 0x3effffff};
    assert_int_equal(fixed_count, sizeof want / sizeof want[0]);
    const ulpb_input_range one_value = {true, 0x1.000001p0, 0x1.000002p0}; /* its one end is listed once */
    assert_int_equal(sampler_range_special_count(ULPB_DTYPE_f32, &one_value), 1);
    for (uint64_t i = 0; i < fixed_count; i++)
        assert_int_equal(ulpb_sampler_input_in(fixed, ULPB_OP_cos, ULPB_DTYPE_f32, &unit, 1, i), want[i]);
}

/* A run with --range checks the range's inputs alone: every 16-bit one, or the two range samplers' draws. */
static void ranged_check_counts_only_the_range(void **state) {
    (void)state;
    ulpb_result r[4];
    char err[256];
    ulpb_check_spec spec = {ULPB_OP_asin,      ULPB_DTYPE_f16, 0, TEST_SEED, "omk", 0, false, false, 0, 1,
                            {true, 0.5, 0.75}, NULL,           0};
    assert_int_equal(ulpb_check(&spec, r, 4, err, sizeof err), 1);
    assert_int_equal(r[0].total.inputs, 513); /* 2^9 + 1 values of binary16's binade [1/2, 1) */
    assert_int_equal(r[0].total.correctly_rounded, 513);
    assert_true(ulpb_range_holds(&spec.range, r[0].total.worst_input));
    spec.dtype = ULPB_DTYPE_f32;
    spec.samples = 1001;
    spec.range = (ulpb_input_range){true, 0.9, 1.0};
    assert_int_equal(ulpb_check(&spec, r, 4, err, sizeof err), 1);
    /* the ends 0.9f (rounded up) and 1, and 1 - 2^-24; the one hard case in the range (1 - 2^-24 again); then 997
     * draws in three equal shares */
    static const char *const names[] = {"range_specials", "hard_cases", "range_values", "range_patterns", "range_ends"};
    static const uint64_t counts[] = {3, 1, 333, 332, 332};
    assert_int_equal(r[0].sampler_count, 5);
    for (int k = 0; k < 5; k++) {
        assert_string_equal(r[0].sampler_names[k], names[k]);
        assert_int_equal(r[0].per_sampler[k].inputs, counts[k]);
    }
    assert_int_equal(r[0].total.correctly_rounded, 1001);
    assert_true(ulpb_range_holds(&spec.range, r[0].total.worst_input));
    spec.range = (ulpb_input_range){true, 1e39, 2e39};
    assert_int_equal(ulpb_check(&spec, r, 4, err, sizeof err), -1);
    assert_non_null(strstr(err, "holds no f32 value"));
}

/* About how many of its format's ulps x lies from the nearest zero of cos (|cos x| is that distance near one). */
static long double ulps_from_a_zero_of_cos(ulpb_dtype_id dtype, double x) {
    int exponent;
    frexp(x, &exponent);
    return fabsl(cosl(x)) / ldexpl(1.0L, exponent - (dtype == ULPB_DTYPE_f32 ? 24 : 53));
}

/* range_near_pio2: a cos run over a range that holds a zero of cos draws near those zeros (within the range, on each
 * side that holds one), reproducibly; a range without one, and asin, do not run it. */
static void range_near_pio2_draws_near_the_zeros(void **state) {
    (void)state;
    const int sampler = ulpb_sampler_find("range_near_pio2"), by_value = ulpb_sampler_find("range_values");
    assert_true(sampler >= 0 && by_value >= 0);
    const double pio2 = 0x1.921fb54442d18p0;
    const struct {
        double lo, hi;
        long long zeros[2]; /* the odd multiples of pi/2 whose nearest binary32, binary64 value is in the range */
    } ranges[] = {
        {-8, 8, {6, 6}},
        {-20, -10, {3, 3}},
        {1.5, 1.6, {1, 1}},
        {100, 1e4, {3151, 3151}},              /* k from 65 to 6365 */
        {-1e300, 1e300, {1 << 22, 1ll << 51}}, /* k below 2^(p-2), on both sides */
        {0, 1, {0, 0}},
        {2, 4.5, {0, 0}},
        {1, 1.5707963267948966, {0, 1}}, /* ends at binary64's pi/2, below binary32's */
        {1.5707963, 1.5707964, {1, 1}},
    };
    for (int d = ULPB_DTYPE_f32; d <= ULPB_DTYPE_f64; d++)
        for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
            const ulpb_dtype_id dtype = (ulpb_dtype_id)d;
            const ulpb_input_range range = {true, ranges[r].lo, ranges[r].hi};
            const long long zeros = ranges[r].zeros[d == ULPB_DTYPE_f64];
            int ids[SAMPLER_COUNT];
            const int count = samplers_for_range(ULPB_OP_cos, dtype, &range, ids);
            bool runs = false;
            for (int k = 0; k < count; k++) runs |= ids[k] == sampler;
            if (runs != (zeros > 0) || sampler_range_has_pio2(dtype, &range) != (zeros > 0))
                fail_msg("%s [%a, %a]: range_near_pio2 %s", ulpb_dtypes[d].name, range.lo, range.hi,
                         runs ? "runs" : "does not run");
            const int asin_count = samplers_for_range(ULPB_OP_asin, dtype, &range, ids);
            for (int k = 0; k < asin_count; k++) assert_int_not_equal(ids[k], sampler);
            if (!runs) continue;
            enum { DRAWS = 4000, FEW_ZEROS = 8, MAX_K = 16 };
            const long double half_precision = d == ULPB_DTYPE_f32 ? 0x1p12L : 0x1p26L;
            uint64_t first, last;
            assert_true(ulpb_range_keys(dtype, &range, &first, &last));
            int near_zero = 0, close = 0, close_by_value = 0, negative = 0, changed = 0, at_ends = 0, far_up = 0;
            int per_zero[2][MAX_K] = {{0}}; /* [sign][(k - 1) / 2] */
            long double largest = 0;
            for (uint64_t i = 0; i < DRAWS; i++) {
                const uint64_t bits = ulpb_sampler_input_in(sampler, ULPB_OP_cos, dtype, &range, 7, i);
                assert_true(bits == ulpb_sampler_input_in(sampler, ULPB_OP_cos, dtype, &range, 7, i));
                changed += bits != ulpb_sampler_input_in(sampler, ULPB_OP_cos, dtype, &range, 8, i);
                const double x = value_of(dtype, bits);
                if (!ulpb_range_holds(&range, x))
                    fail_msg("range_near_pio2 %s drew %a outside [%a, %a]", ulpb_dtypes[d].name, x, range.lo, range.hi);
                negative += x < 0;
                at_ends += ulpb_order_key(dtype, bits) == first || ulpb_order_key(dtype, bits) == last;
                far_up += fabs(x) > 9000;
                if (fabsl(x) > largest) largest = fabsl(x);
                const uint64_t by_value_bits = ulpb_sampler_input_in(by_value, ULPB_OP_cos, dtype, &range, 7, i);
                const long double ulps = ulps_from_a_zero_of_cos(dtype, x),
                                  ulps_by_value = ulps_from_a_zero_of_cos(dtype, value_of(dtype, by_value_bits));
                near_zero += ulps < half_precision;
                close += ulps < 16;
                close_by_value += ulps_by_value < 16;
                if (zeros <= FEW_ZEROS && ulps < half_precision) { /* which zero: k pi/2, k odd and small here */
                    const long long k = llrint(fabs(x) / pio2);
                    assert_true(k % 2 == 1 && k < 2 * MAX_K);
                    per_zero[x < 0][k / 2]++;
                }
            }
            /* j ulps away, j log-uniform over the p octaves below 2^(p-1): below 2^(p/2) in about half the draws, below
             * 16 in 5 of the p octaves; by value, rare unless the range's ulps come near pi/2 or it holds few values */
            if (near_zero < DRAWS / 3 || close < DRAWS / 20 ||
                (range.hi - range.lo <= 1e4 && last - first > 1000000 && close <= 4 * close_by_value))
                fail_msg("range_near_pio2 %s [%g, %g]: of %d draws, %d within 2^(p/2) ulps of a zero of cos and %d "
                         "within 16 (range_values: %d)",
                         ulpb_dtypes[d].name, range.lo, range.hi, DRAWS, near_zero, close, close_by_value);
            if (zeros <= FEW_ZEROS) { /* every zero of the range is drawn near */
                int drawn = 0;
                for (int side = 0; side < 2; side++)
                    for (int z = 0; z < MAX_K; z++) drawn += per_zero[side][z] > 0;
                if (drawn != zeros)
                    fail_msg("range_near_pio2 %s [%g, %g]: near %d of its %lld zeros of cos", ulpb_dtypes[d].name,
                             range.lo, range.hi, drawn, zeros);
            }
            if (range.hi == 1e4 && far_up < DRAWS / 200) /* the top octave of the multiples is reached */
                fail_msg("range_near_pio2 %s [100, 1e4]: %d draws above 9000", ulpb_dtypes[d].name, far_up);
            /* k below 2^(p-2), not out where an ulp reaches pi/2 (the offset of up to 2^(p-1) ulps at most doubles
             * |x|, and may cross into the next binade) */
            assert_true(largest < (d == ULPB_DTYPE_f32 ? 0x1p22L : 0x1p51L) * pio2 * 4);
            /* room is left inside the range rather than taken from its ends, unless it holds few values */
            if (last - first > 1000000 && at_ends > DRAWS / 50)
                fail_msg("range_near_pio2 %s [%g, %g]: %d of %d draws at the range's ends", ulpb_dtypes[d].name,
                         range.lo, range.hi, at_ends, DRAWS);
            if (zeros > 1) assert_true(changed > DRAWS / 2);
            if (range.lo >= 0) assert_int_equal(negative, 0);
            if (range.hi <= 0) assert_int_equal(negative, DRAWS);
            if (range.lo < 0 && range.hi > 0) /* both sides, about equally */
                assert_true(negative > DRAWS / 3 && negative < DRAWS * 2 / 3);
        }
}

/* hard_cases: the op's inputs of the tables in tests/data, read here from the files, each with both signs; with a
 * range, those in it. A sampled run takes them whole, and glibc misrounds many of them where it misrounds few of the
 * random draws. */
static void hard_cases_are_the_tables(void **state) {
    (void)state;
    enum { MAX_ROWS = 512 };
    const int sampler = ulpb_sampler_find("hard_cases");
    assert_true(sampler >= 0);
    for (int op = 0; op < ULPB_OP_COUNT; op++)
        for (int d = ULPB_DTYPE_f32; d <= ULPB_DTYPE_f64; d++) {
            const char *name = ulpb_ops[op].name;
            uint64_t rows[MAX_ROWS];
            long count = table_inputs(ULPB_TEST_DATA, d == ULPB_DTYPE_f32 ? "hard_cases_f32.txt" : "hard_cases_f64.txt",
                                      name, rows, MAX_ROWS);
            assert_true(count >= 10);
            if (d == ULPB_DTYPE_f64) {
                const long worst =
                    table_inputs(ULPB_TEST_DATA, "worst_cases_f64.txt", name, rows + count, (size_t)(MAX_ROWS - count));
                assert_true(worst >= 40);
                count += worst;
            }
            const uint64_t sign = d == ULPB_DTYPE_f32 ? 1ull << 31 : 1ull << 63;
            uint64_t listed[2 * MAX_ROWS];
            const uint64_t listed_count = sampler_hard_case_count((ulpb_op_id)op, (ulpb_dtype_id)d, NULL);
            assert_true(listed_count <= 2 * (uint64_t)count && listed_count % 2 == 0);
            for (uint64_t i = 0; i < listed_count; i++) {
                listed[i] = ulpb_sampler_input_in(sampler, (ulpb_op_id)op, (ulpb_dtype_id)d, NULL, TEST_SEED, i);
                for (uint64_t k = 0; k < i; k++) assert_true(listed[k] != listed[i]);
            }
            for (long j = 0; j < count; j++) /* every row, both signs */
                for (int negated = 0; negated < 2; negated++) {
                    const uint64_t want = negated ? rows[j] ^ sign : rows[j];
                    bool found = false;
                    for (uint64_t i = 0; i < listed_count && !found; i++) found = listed[i] == want;
                    if (!found)
                        fail_msg("%s %s: 0x%llx not listed", name, ulpb_dtypes[d].name, (unsigned long long)want);
                }
            /* in a range: the listed inputs inside it, in the same order */
            const ulpb_input_range range = {true, op == ULPB_OP_cos ? -4.0 : 0.5, op == ULPB_OP_cos ? 4.0 : 1.0};
            const uint64_t in_range = sampler_hard_case_count((ulpb_op_id)op, (ulpb_dtype_id)d, &range);
            uint64_t next = 0;
            for (uint64_t i = 0; i < listed_count; i++) {
                const double x =
                    d == ULPB_DTYPE_f32 ? (double)f32_from_bits((uint32_t)listed[i]) : f64_from_bits(listed[i]);
                if (!ulpb_range_holds(&range, x)) continue;
                assert_true(next < in_range);
                assert_int_equal(ulpb_sampler_input_in(sampler, (ulpb_op_id)op, (ulpb_dtype_id)d, &range, 1, next++),
                                 listed[i]);
            }
            assert_int_equal(next, in_range);
            assert_true(in_range > 0);
            /* a run takes the list whole, right after the specials */
            const ulpb_result glibc = run_one("glibc", (ulpb_op_id)op, (ulpb_dtype_id)d, 2000);
            assert_string_equal(glibc.sampler_names[1], "hard_cases");
            assert_int_equal(glibc.per_sampler[1].inputs, listed_count);
            if (!(glibc.per_sampler[1].misrounded * 10 >= listed_count))
                fail_msg("glibc %s %s misrounds %llu of %llu hard cases", name, ulpb_dtypes[d].name,
                         (unsigned long long)glibc.per_sampler[1].misrounded, (unsigned long long)listed_count);
        }
}

static void samplers_are_reproducible(void **state) {
    (void)state;
    for (int s = 1; s < 7; s++) {
        const uint64_t a = ulpb_sampler_input(s, ULPB_OP_cos, ULPB_DTYPE_f64, 7, 12345);
        assert_true(a == ulpb_sampler_input(s, ULPB_OP_cos, ULPB_DTYPE_f64, 7, 12345));
    }
    /* every drawn sampler depends on the seed and the index, and stays in its set */
    for (int s = 1; s < 7; s++)
        for (int d = ULPB_DTYPE_f32; d <= ULPB_DTYPE_f64; d++) {
            enum { DRAWS = 2000 };
            static uint64_t drawn[DRAWS];
            const ulpb_op_id op = s >= 5 ? ULPB_OP_asin : ULPB_OP_cos;
            const ulpb_dtype_id dtype = (ulpb_dtype_id)d;
            int other_seed_differs = 0, negative = 0;
            for (uint64_t i = 0; i < DRAWS; i++) {
                drawn[i] = ulpb_sampler_input(s, op, dtype, 7, i);
                other_seed_differs += drawn[i] != ulpb_sampler_input(s, op, dtype, 8, i);
                negative += (int)(drawn[i] >> (8 * ulpb_dtypes[d].bytes - 1)); /* both signs, about evenly */
                const double x =
                    ulpb_dtypes[d].bytes == 4 ? (double)f32_from_bits((uint32_t)drawn[i]) : f64_from_bits(drawn[i]);
                if (s == 2) assert_true(x >= ulpb_ops[op].domain_lo && x <= ulpb_ops[op].domain_hi);
                if (s == 3) assert_true(isfinite(x) && fabs(x) >= 0x1p10);
                if (s == 4 && fabs(x) < 0x1p20) { /* within 4.5 ulps of an odd multiple of pi/2: |cos x| as small */
                    const double ulp = ulpb_dtypes[d].bytes == 4
                                           ? (double)(nextafterf(fabsf((float)x), INFINITY) - fabsf((float)x))
                                           : nextafter(fabs(x), INFINITY) - fabs(x);
                    if (!(fabs(cos(x)) <= 2 * 4.5 * ulp)) /* 2: x's binade may lie below k pi/2's */
                        fail_msg("cos_near_pio2 %s: %a is %.3g ulps from a zero of cos", ulpb_dtypes[d].name, x,
                                 fabs(cos(x)) / ulp);
                }
            }
            qsort(drawn, DRAWS, sizeof drawn[0], compare_u64);
            int distinct = 1;
            for (int i = 1; i < DRAWS; i++) distinct += drawn[i] != drawn[i - 1];
            if (distinct < DRAWS / 2 ||
                other_seed_differs < DRAWS * 9 / 10 || /* asin_near_one's small octaves repeat */
                negative < DRAWS * 2 / 5 || negative > DRAWS * 3 / 5)
                fail_msg("sampler %s, %s: %d of %d draws distinct, %d change with the seed, %d negative",
                         ulpb_sampler_name(s), ulpb_dtypes[d].name, distinct, DRAWS, other_seed_differs, negative);
        }
    /* asin_near_one stays inside (-1, 1), with 1 - j ulps for even j too; asin_near_zero below 1/2 */
    int even_j = 0, subnormal = 0, smallest_binade = 0;
    for (uint64_t i = 0; i < 10000; i++) {
        uint32_t b =
            (uint32_t)ulpb_sampler_input(ulpb_sampler_find("asin_near_one"), ULPB_OP_asin, ULPB_DTYPE_f32, 1, i);
        float f;
        memcpy(&f, &b, 4);
        assert_true(fabsf(f) < 1.0f && fabsf(f) >= 0.5f);
        even_j += ((0x3f800000u - (b & 0x7fffffffu)) & 1) == 0;
        b = (uint32_t)ulpb_sampler_input(ulpb_sampler_find("asin_near_zero"), ULPB_OP_asin, ULPB_DTYPE_f32, 1, i);
        memcpy(&f, &b, 4);
        assert_true(fabsf(f) < 0.5f);
        subnormal += (b & 0x7f800000u) == 0;
        smallest_binade += (b & 0x7fffffffu) == 1;
    }
    assert_true(even_j > 4000); /* j = 1 takes 1 in 23 samples; the rest split about evenly */
    /* the specials are each format's edge values, in both signs */
    static const uint32_t f32_edges[] = {0x00000000, 0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff,
                                         0x7f800000, 0x7fc00000, 0x7f800001, 0x3f800000, 0x3f7fffff,
                                         0x3f800001, 0x3f000000, 0x3effffff, 0x40000000};
    const int specials = ulpb_sampler_find("specials");
    const uint64_t special_count = sampler_special_count(ULPB_DTYPE_f32);
    assert_int_equal(special_count, 2 * (sizeof f32_edges / sizeof *f32_edges) + 2); /* and a NaN with a payload */
    for (size_t e = 0; e < sizeof f32_edges / sizeof *f32_edges; e++)
        for (uint32_t sign = 0; sign < 2; sign++) {
            const uint64_t want = f32_edges[e] | sign << 31;
            bool found = false;
            for (uint64_t i = 0; i < special_count; i++)
                found |= ulpb_sampler_input(specials, ULPB_OP_cos, ULPB_DTYPE_f32, 1, i) == want;
            if (!found) fail_msg("specials lack 0x%08llx", (unsigned long long)want);
        }
    /* cos_large reaches the top binade of each format (about 1 draw in 20 for binary32, 1 in 1000 for binary64) */
    for (int d = ULPB_DTYPE_f32; d <= ULPB_DTYPE_f64; d++) {
        const bool f32 = ulpb_dtypes[d].bytes == 4;
        int top = 0;
        for (uint64_t i = 0; i < 20000; i++) {
            const uint64_t bits =
                ulpb_sampler_input(ulpb_sampler_find("cos_large"), ULPB_OP_cos, (ulpb_dtype_id)d, 1, i);
            top += f32 ? ((bits >> 23) & 0xff) == 0xfe : ((bits >> 52) & 0x7ff) == 0x7fe;
        }
        if (top == 0) fail_msg("cos_large %s never drew its top binade in 20000 draws", ulpb_dtypes[d].name);
    }
    /* log-uniform down to the smallest subnormal: 23 of the 148 binades below 1/2 are subnormal (1,554 of 10,000
     * expected), and the lowest, 2^-149 alone, takes 1 in 148 (68) */
    assert_in_range(subnormal, 1300, 1800);
    assert_in_range(smallest_binade, 35, 105);
    /* cos_near_pio2 draws every offset from -4 to +4 binary32 ulps of the nearest value to k pi/2, and asin_near_one
     * every j up to the binade of 1/2, [0.5, 0.75) included (1 - j ulps with j up to 2^23) */
    int offsets[9] = {0}, lowest_quarter = 0;
    for (uint64_t i = 0; i < 50000; i++) {
        const uint32_t b =
            (uint32_t)ulpb_sampler_input(ulpb_sampler_find("cos_near_pio2"), ULPB_OP_cos, ULPB_DTYPE_f32, 1, i);
        const double ax = fabs((double)f32_from_bits(b));
        if (ax < 1024.0) {
            const long double k = roundl((long double)ax / 1.5707963267948966192313216916397514L);
            const float nearest = (float)(k * 1.5707963267948966192313216916397514L);
            uint32_t nearest_bits;
            memcpy(&nearest_bits, &nearest, sizeof nearest_bits);
            const int64_t offset = (int64_t)(b & 0x7fffffffu) - (int64_t)nearest_bits;
            if (offset >= -4 && offset <= 4) offsets[offset + 4]++;
        }
        const uint32_t near_one =
            (uint32_t)ulpb_sampler_input(ulpb_sampler_find("asin_near_one"), ULPB_OP_asin, ULPB_DTYPE_f32, 1, i);
        lowest_quarter += fabsf(f32_from_bits(near_one)) < 0.75f;
    }
    for (int k = 0; k < 9; k++)
        if (offsets[k] < 1000) fail_msg("cos_near_pio2 drew offset %+d ulps %d times in 50000", k - 4, offsets[k]);
    assert_in_range(lowest_quarter, 1000, 4000); /* 1 binade of j in 23, half of it: about 1,090 (2,170 expected) */
}

/* The worst input and the special-value example are the smallest bit pattern among equals, whatever the order (as
 * ulpb_stats_merge decides, so a whole run and its merged shards name the same input); a signalling NaN result is a
 * special-value mismatch even where a NaN is expected. */
static void stats_ties_and_signalling_nans(void **state) {
    (void)state;
    ulpb_stats s = {0};
    const ref_value v = {
        .rounded = 0.75, .exact_hi = 0.75, .exact_lo = 0x1p-60, .ulp = 0x1p-24, .exact_lo_ulps = 0x1p-36};
    ulpb_stats_record(&s, 9, 0.1, &v, 0.75 + 0x1p-24, false);
    ulpb_stats_record(&s, 4, 0.2, &v, 0.75 + 0x1p-24, false);
    ulpb_stats_record(&s, 6, 0.3, &v, 0.75 + 0x1p-24, false);
    assert_int_equal(s.worst_bits, 4);
    assert_int_equal(s.misrounded, 3);
    const ref_value nan_expected = {.rounded = NAN, .exact_hi = NAN, .ulp = NAN};
    ulpb_stats_record(&s, 7, NAN, &nan_expected, NAN, false);
    assert_int_equal(s.special_mismatches, 0);
    ulpb_stats_record(&s, 8, NAN, &nan_expected, NAN, true);
    ulpb_stats_record(&s, 5, NAN, &nan_expected, NAN, true);
    assert_int_equal(s.special_mismatches, 2);
    assert_int_equal(s.special_bits, 5);
    /* the example says which NaN came out (widened to double, a signalling NaN reads as a quiet one), and so does a
     * merged or resumed run's state */
    cJSON *counters = ulpb_stats_json(&s, &ulpb_dtypes[0]), *saved = ulpb_stats_state_json(&s);
    const cJSON *example = cJSON_GetObjectItemCaseSensitive(counters, "special_example");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(example, "got")), "snan");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(example, "expected")), "nan");
    ulpb_stats back, merged = {0};
    char err[200];
    assert_int_equal(ulpb_stats_from_json(counters, saved, &back, err, sizeof err), 0);
    assert_true(back.special_got_signaling);
    ulpb_stats_merge(&merged, &s);
    assert_true(merged.special_got_signaling && merged.special_bits == 5);
    cJSON_Delete(counters), cJSON_Delete(saved);
    ulpb_stats quiet_only = {0};
    ulpb_stats_record(&quiet_only, 3, 1.0, &v, NAN, false); /* a quiet NaN where 0.75 is expected */
    counters = ulpb_stats_json(&quiet_only, &ulpb_dtypes[0]);
    example = cJSON_GetObjectItemCaseSensitive(counters, "special_example");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(example, "got")), "nan");
    cJSON_Delete(counters);
}

/* Merging adds every histogram bin, the ">4" one too, and keeps the smaller bit pattern of two equal worst errors in
 * either order. */
static void stats_merge_in_either_order(void **state) {
    (void)state;
    const ref_value v = {.rounded = 0.75, .exact_hi = 0.75, .ulp = 0x1p-24, .exact = 1};
    ulpb_stats a = {0}, b = {0};
    ulpb_stats_record(&a, 9, 0.1, &v, 0.75 + 8 * 0x1p-24, false); /* 8 ulps: ">4" */
    ulpb_stats_record(&b, 4, 0.2, &v, 0.75 - 8 * 0x1p-24, false);
    ulpb_stats ab = {0}, ba = {0};
    ulpb_stats_merge(&ab, &a), ulpb_stats_merge(&ab, &b);
    ulpb_stats_merge(&ba, &b), ulpb_stats_merge(&ba, &a);
    for (const ulpb_stats *m = &ab; m; m = m == &ab ? &ba : NULL) {
        assert_int_equal(m->histogram[ULPB_HIST_BINS - 1], 2);
        assert_int_equal(m->worst_bits, 4);
        assert_true(m->max_ulp == 8.0 && m->worst_input == 0.2);
    }
    /* so does the special-value example: the smaller input's, whichever is merged first */
    const ref_value nan_expected = {.rounded = NAN, .exact_hi = NAN, .ulp = NAN};
    ulpb_stats c = {0}, d = {0}, cd = {0}, dc = {0};
    ulpb_stats_record(&c, 0x7f800005, NAN, &nan_expected, 1.0, false);
    ulpb_stats_record(&d, 0x7f800003, NAN, &nan_expected, 2.0, false);
    ulpb_stats_merge(&cd, &c), ulpb_stats_merge(&cd, &d);
    ulpb_stats_merge(&dc, &d), ulpb_stats_merge(&dc, &c);
    assert_true(cd.special_bits == 0x7f800003 && dc.special_bits == 0x7f800003);
    assert_true(cd.special_got == 2.0 && dc.special_got == 2.0);
}

/* Each result lands in the histogram bin of its error. A correctly rounded result next to a midpoint (binary32 here:
 * f(x) = 0.75 + 2^-25 - 2^-80) has an error that rounds to exactly 0.5 ulp in binary64 and still belongs in "<=0.5";
 * the misrounded one beside it goes to "<=1". */
static void histogram_bins_each_result_by_its_error(void **state) {
    (void)state;
    const ref_value near_midpoint = {
        .rounded = 0.75, .exact_hi = 0.75 + 0x1p-25, .exact_lo = -0x1p-80, .ulp = 0x1p-24, .exact_lo_ulps = -0x1p-56};
    const ref_value exact_zero = {.ulp = 0x1p-149, .exact = 1};
    const ref_value three_quarters = {.rounded = 0.75, .exact_hi = 0.75, .ulp = 0x1p-24, .exact = 1};
    const struct {
        const ref_value *ref;
        double y;
        int bin;
    } cases[] = {
        {&exact_zero, 0.0, 0},
        /* errors of exactly 1, 2 and 4 ulps belong to "<=1", "<=2" and "<=4" */
        {&exact_zero, 0x1p-149, 2},
        {&three_quarters, 0.75 + 2 * 0x1p-24, 3},
        {&three_quarters, 0.75 - 4 * 0x1p-24, 4},
        {&near_midpoint, 0.75, 1},
        {&near_midpoint, 0.75 + 0x1p-24, 2},
        {&near_midpoint, 0.75 + 2 * 0x1p-24, 3},
        {&near_midpoint, 0.75 - 3 * 0x1p-24, 4},
        {&near_midpoint, 0.75 + 5 * 0x1p-24, 5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ulpb_stats s = {0};
        ulpb_stats_record(&s, c, 0.5, cases[c].ref, cases[c].y, false);
        int landed = -1, results = 0;
        for (int b = 0; b < ULPB_HIST_BINS; b++) {
            results += (int)s.histogram[b];
            if (s.histogram[b]) landed = b;
        }
        if (results != 1 || landed != cases[c].bin)
            fail_msg("case %zu: %a for %a + %a lands in bin %s, not %s", c, cases[c].y, cases[c].ref->exact_hi,
                     cases[c].ref->exact_lo, landed < 0 ? "(none)" : ulpb_hist_labels[landed],
                     ulpb_hist_labels[cases[c].bin]);
    }
}

/* An error past the largest binary64 (a binary64 result of 1 for asin 2^-1070, whose ulp is 2^-1074) counts as
 * REF_ULP_ERROR_MAX, and sums stop there: the result file holds finite numbers and reads back (merge, --resume). */
static void stats_saturate_at_the_error_maximum(void **state) {
    (void)state;
    const ulpb_dtype *f64 = &ulpb_dtypes[ULPB_DTYPE_f64];
    ref_value v;
    ref_eval(REF_ASIN, &f64->format, 0x1p-1070, &v);
    ulpb_stats s = {0}, back, merged = {0};
    ulpb_stats_record(&s, 1, 0x1p-1070, &v, 1.0, false);
    ulpb_stats_record(&s, 2, 0x1p-1070, &v, 2.0, false);
    assert_true(s.misrounded == 2 && s.max_ulp == REF_ULP_ERROR_MAX && s.ulp_sum == REF_ULP_ERROR_MAX &&
                s.histogram[5] == 2);
    cJSON *counters = ulpb_stats_json(&s, f64), *saved = ulpb_stats_state_json(&s);
    char *text = cJSON_PrintUnformatted(counters), *saved_text = cJSON_PrintUnformatted(saved);
    cJSON *counters_back = cJSON_Parse(text), *saved_back = cJSON_Parse(saved_text);
    char err[200];
    assert_int_equal(ulpb_stats_from_json(counters_back, saved_back, &back, err, sizeof err), 0);
    assert_true(back.max_ulp == REF_ULP_ERROR_MAX && back.ulp_sum == REF_ULP_ERROR_MAX);
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(counters_back, "max_ulp")) == REF_ULP_ERROR_MAX);
    ulpb_stats_merge(&merged, &s);
    ulpb_stats_merge(&merged, &back);
    assert_true(merged.ulp_sum == REF_ULP_ERROR_MAX && merged.ulp_count == 4);
    free(text), free(saved_text);
    cJSON_Delete(counters), cJSON_Delete(saved), cJSON_Delete(counters_back), cJSON_Delete(saved_back);
}

/* A saved worst result that contradicts the counts is refused when read back (merge, --resume): a result other than
 * the expected one with 0 misrounded, or within half an ulp; the expected one more than half an ulp away; a
 * non-finite one. Each edit keeps the histogram consistent, so that only the worst result's check can refuse it. */
static void worst_result_must_agree_with_the_counts(void **state) {
    (void)state;
    const ref_value near_midpoint = {
        .rounded = 0.75, .exact_hi = 0.75 + 0x1p-25, .exact_lo = -0x1p-80, .ulp = 0x1p-24, .exact_lo_ulps = -0x1p-56};
    ulpb_stats right = {0}, wrong = {0};
    ulpb_stats_record(&right, 3, 0.5, &near_midpoint, 0.75, false);
    ulpb_stats_record(&wrong, 3, 0.5, &near_midpoint, 0.75 + 0x1p-24, false);
    static const struct {
        bool misrounded;
        const char *key, *value, *moved_from, *moved_to, *message;
    } edits[] = {
        {false, NULL, NULL, NULL, NULL, NULL},
        {true, NULL, NULL, NULL, NULL, NULL},
        {false, "worst_got", "0x1.8000020000000p-1", NULL, NULL,
         "differs from \"worst_expected\", with \"misrounded\" 0"},
        {true, "max_ulp", "0x1p-1", "<=1", "<=0.5", "not more than half an ulp"},
        {false, "max_ulp", "0x1.8p-1", "<=0.5", "<=1", "is \"worst_expected\", yet \"max_ulp\" is 0.750"},
        {true, "worst_expected", "inf", NULL, NULL, "is not finite"},
        {false, "worst_got", "nan", NULL, NULL, "is not finite"},
    };
    for (size_t e = 0; e < sizeof edits / sizeof *edits; e++) {
        const ulpb_stats *s = edits[e].misrounded ? &wrong : &right;
        /* through text, as a file is read (the counts are written as raw numbers) */
        cJSON *written = ulpb_stats_json(s, &ulpb_dtypes[ULPB_DTYPE_f32]);
        char *text = cJSON_PrintUnformatted(written);
        cJSON *counters = cJSON_Parse(text), *saved = ulpb_stats_state_json(s);
        free(text), cJSON_Delete(written);
        if (edits[e].key) cJSON_ReplaceItemInObject(saved, edits[e].key, cJSON_CreateString(edits[e].value));
        if (edits[e].moved_from) {
            cJSON *histogram = cJSON_GetObjectItemCaseSensitive(counters, "histogram");
            cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(histogram, edits[e].moved_from), 0);
            cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(histogram, edits[e].moved_to), 1);
        }
        ulpb_stats back;
        char err[200] = "";
        const int status = ulpb_stats_from_json(counters, saved, &back, err, sizeof err);
        if (edits[e].message ? status != -1 || !strstr(err, edits[e].message) : status != 0)
            fail_msg("edit %zu: status %d, '%s' (wanted %s)", e, status, err,
                     edits[e].message ? edits[e].message : "accepted");
        cJSON_Delete(counters), cJSON_Delete(saved);
    }
}

/* The Markdown's max ULP rounds up, so a misrounded 0.5001 never reads as a correctly rounded 0.500. */
static void ulp_column_rounds_up(void **state) {
    (void)state;
    static const struct {
        double ulp;
        const char *shown;
    } cases[] = {
        {0.5, "0.500"},         {0.49993, "0.500"},       {0.5000678, "0.501"},     {0x1.0000000000001p-1, "0.501"},
        {0.4989, "0.499"},      {0.0, "0.000"},           {1.76, "1.760"},          {127.0, "127.000"},
        {1e15, "1.000e+15"},    {1.0001e15, "1.001e+15"}, {9.9999e20, "1.000e+21"}, {REF_ULP_ERROR_MAX, "1.000e+308"},
        {DBL_MAX, "1.798e+308"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        ulpb_format_ulp(buf, sizeof buf, cases[i].ulp);
        if (strcmp(buf, cases[i].shown) != 0) fail_msg("%a shown as %s, wanted %s", cases[i].ulp, buf, cases[i].shown);
    }
}

/* The JSON's max_ulp and mean_ulp read back as the very doubles measured: 0.5 + 2^-53, a misrounded result's error,
 * must not print as 0.5, the bound a CI script compares it with. */
static void json_errors_read_back_exactly(void **state) {
    (void)state;
    static const double values[] = {0x1.0000000000001p-1,
                                    0.49999917027009605,
                                    0x1.fffffffffffffp-2,
                                    0.1,
                                    1.0 / 3.0,
                                    0x1p-1074,
                                    REF_ULP_ERROR_MAX,
                                    0.0};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        ulpb_stats s = {0};
        s.inputs = 1;
        s.max_ulp = values[i];
        s.ulp_sum = values[i];
        s.ulp_count = 1;
        cJSON *o = ulpb_stats_json(&s, &ulpb_dtypes[ULPB_DTYPE_f32]);
        char *text = cJSON_PrintUnformatted(o);
        cJSON *back = cJSON_Parse(text);
        double max_ulp = NAN, mean_ulp = NAN;
        char err[200];
        assert_int_equal(ulpb_json_get_number(back, "max_ulp", &max_ulp, err, sizeof err), 0);
        assert_int_equal(ulpb_json_get_number(back, "mean_ulp", &mean_ulp, err, sizeof err), 0);
        if (max_ulp != values[i] || mean_ulp != ulpb_mean_ulp(&s))
            fail_msg("%a written as %s, read back as %a and %a", values[i], text, max_ulp, mean_ulp);
        /* and as the shortest such decimal: 2^-1074, the error below binary64's range, as 5e-324 */
        if (values[i] == 0x1p-1074 && !strstr(text, "\"max_ulp\":5e-324,")) fail_msg("2^-1074 written as %s", text);
        free(text);
        cJSON_Delete(o), cJSON_Delete(back);
    }
}

/* The report's gate on made-up rows: special-value mismatches fail any row; a correctly rounded kernel is held to 0
 * misrounded unless --max-misrounded names its dtype, a peer with the same counts is not; max ULP per dtype. */
static void gate_checks_each_threshold(void **state) {
    (void)state;
    ulpb_gate_limits g;
    ulpb_gate_defaults(&g);
    const ulpb_entry *omk = ulpb_entry_find("omk", ULPB_OP_cos, ULPB_DTYPE_f64);
    const ulpb_entry *glibc = ulpb_entry_find("glibc", ULPB_OP_cos, ULPB_DTYPE_f64);
    assert_true(omk && glibc && omk->correctly_rounded && !glibc->correctly_rounded);
    /* omk promises correct rounding for every (op, dtype), so the gate allows none of its rows a misrounding: a
     * kernel's flag in omk_kernels.def turned off would relax its gate to max ULP alone without anything failing */
    int production = 0;
    for (size_t e = 0; e < ulpb_entry_count; e++)
        if (ulpb_entries[e].role == ULPB_ROLE_PRODUCTION) {
            if (!ulpb_entries[e].correctly_rounded)
                fail_msg("omk %s %s is not flagged correctly rounded", ulpb_ops[ulpb_entries[e].op].name,
                         ulpb_dtypes[ulpb_entries[e].dtype].name);
            production++;
        }
    assert_int_equal(production, ULPB_OP_COUNT * ULPB_DTYPE_COUNT);
    char why[200];
    ulpb_result r = {0};
    r.entry = omk;
    r.total.max_ulp = 0.5001;
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 0);
    assert_string_equal(why, "");
    r.total.misrounded = 1;
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 1);
    assert_string_equal(why, "1 misrounded > 0");
    r.entry = glibc; /* binary64 misrounding is not gated by default, only max ULP (0.51) */
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 0);
    r.entry = omk;
    g.misrounded_given[ULPB_DTYPE_f64] = true;
    g.max_misrounded[ULPB_DTYPE_f64] = 1;
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 0);
    r.total.misrounded = 2;
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 1);
    assert_string_equal(why, "2 misrounded > 1");
    r.total.misrounded = 0;
    r.total.max_ulp = 0.5101;
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 1);
    assert_string_equal(why, "max ULP 0.511 > 0.51");
    r.total.max_ulp = 0.51; /* a limit met exactly passes */
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 0);
    r.total.misrounded = 1; /* and so does a misrounded count equal to its limit */
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 0);
    r.total.misrounded = 0;
    r.total.max_ulp = 0.5;
    r.total.special_mismatches = 3;
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 1);
    assert_string_equal(why, "3 special-value mismatches");
    r.entry = glibc;
    assert_int_equal(ulpb_gate_check(&r, &g, why, sizeof why), 1);
}

/* The hung-call watch reads each thread's slot while the thread goes on calling kernels: whatever it reads must be one
 * call's kernel with that call's n and count of calls, never one call's kernel with the next one's n (a long call
 * taken for a short one and reported hung), and the thread's own view (its crash handler's) must be its call's. */
enum { TORN_READS = 2000000 };
static atomic_bool torn_reads_done;
static const ulpb_entry *long_call_kernel, *short_call_kernel;

static void *call_kernels_until_told(void *unused) {
    (void)unused;
    ulpb_kernel_call own;
    for (unsigned long k = 0; !atomic_load_explicit(&torn_reads_done, memory_order_relaxed); k++) {
        const bool long_call = k % 2 == 0;
        ulpb_kernel_running(long_call ? long_call_kernel : short_call_kernel, long_call ? 100000000 : 7,
                            long_call ? 1 : 3);
        if (!ulpb_kernel_in_call(&own) || own.entry != (long_call ? long_call_kernel : short_call_kernel) ||
            own.n != (long_call ? 100000000u : 7u) || own.calls_in_pass != (long_call ? 1u : 3u) || own.loading ||
            own.calls % 2 == 0)
            return (void *)"the thread's own view of its call is another call's";
        ulpb_kernel_running(NULL, 0, 0);
        if (ulpb_kernel_in_call(&own) || own.entry || own.loading)
            return (void *)"the thread's own view outlives its call";
    }
    return NULL;
}

static void watch_reads_whole_calls(void **state) {
    (void)state;
    long_call_kernel = &ulpb_entries[0], short_call_kernel = &ulpb_entries[1];
    atomic_store(&torn_reads_done, false);
    pthread_t caller;
    assert_int_equal(pthread_create(&caller, NULL, call_kernels_until_told, NULL), 0);
    static ulpb_kernel_call calls[ULPB_CALL_SLOTS];
    unsigned long torn = 0, in_call = 0;
    for (long read = 0; read < TORN_READS || (in_call < 1000 && read < 50L * TORN_READS); read++) {
        const size_t count = ulpb_kernel_calls(calls);
        for (size_t k = 0; k < count; k++) {
            if (calls[k].loading) torn++;
            if (!calls[k].entry) continue;
            in_call++;
            const bool long_call = calls[k].entry == long_call_kernel;
            if (calls[k].n != (long_call ? 100000000u : 7u) || calls[k].calls_in_pass != (long_call ? 1u : 3u) ||
                calls[k].calls % 2 == 0)
                torn++;
        }
    }
    atomic_store(&torn_reads_done, true);
    void *caller_failure;
    assert_int_equal(pthread_join(caller, &caller_failure), 0);
    if (caller_failure) fail_msg("%s", (const char *)caller_failure);
    if (torn) fail_msg("%lu of %lu reads of a call mix two calls", torn, in_call);
    if (in_call < 1000) fail_msg("the watch saw the calling thread in a call %lu times", in_call);
}

int main(void) {
    if (omk_isa_forced_unsupported()) return OMK_TEST_SKIPPED;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cos_f16_exhaustive),
        cmocka_unit_test(cos_bf16_exhaustive),
        cmocka_unit_test(asin_f16_exhaustive),
        cmocka_unit_test(asin_bf16_exhaustive),
        cmocka_unit_test(sampled_meets_gate),
        cmocka_unit_test(ruler_catches_double_rounding),
        cmocka_unit_test(samplers_are_reproducible),
        cmocka_unit_test(range_samplers_draw_only_from_the_range),
        cmocka_unit_test(ranged_check_counts_only_the_range),
        cmocka_unit_test(hard_cases_are_the_tables),
        cmocka_unit_test(range_near_pio2_draws_near_the_zeros),
        cmocka_unit_test(stats_ties_and_signalling_nans),
        cmocka_unit_test(fast_reference_agrees_with_mpfr),
        cmocka_unit_test(histogram_bins_each_result_by_its_error),
        cmocka_unit_test(stats_merge_in_either_order),
        cmocka_unit_test(ulp_column_rounds_up),
        cmocka_unit_test(json_errors_read_back_exactly),
        cmocka_unit_test(stats_saturate_at_the_error_maximum),
        cmocka_unit_test(worst_result_must_agree_with_the_counts),
        cmocka_unit_test(gate_checks_each_threshold),
        cmocka_unit_test(watch_reads_whole_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
