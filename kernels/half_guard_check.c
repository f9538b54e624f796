/* Proof run for the rounding test of the 16-bit kernels' binary32 path (OMK_ARRAY_LOOP_16), over every binary16 and
 * bfloat16 input it takes: each input's binary32 result (op_h_fast, the same bits in every build: explicit fmas, no
 * contraction) is narrowed as omk_narrow16 does it (vcvtps2ph for binary16, the shifted key for bfloat16 and for the
 * scalar tail); every lane the test does not flag must give the correctly rounded result of the double-double
 * evaluation (error below 2^-60). The guard (cos_H_GUARD, asin_H_GUARD) is smaller than the largest error, so no bound
 * proves it: the proof is this enumeration of the finite input set, which also prints the largest error in key units
 * (binary32 ulps of the result, or of the smallest 16-bit subnormal's key unit below the normal range) and how many
 * lanes the test flags. Also checks that cos's shortcut for blocks below pi (cos_h_reduce_near) gives the general
 * path's binary32 bits, so that the enumeration covers it. With no margin between the guard and the errors, the
 * proof holds for the bits this build computes; the shipped vector build's outputs are held to the correctly rounded
 * ones on all 65,536 inputs, through both cos paths, by test_isa (against the scalar build's tables) and test_accuracy
 * (against MPFR) under every OMK_ISA. Runs in ctest (a fraction of a second): ./build/half_guard_check */
#include <inttypes.h>
#include <stdio.h>

#include "asin.c"
#include "cos.c"

typedef float (*half_fast_fn)(float);
typedef double (*dd_fn)(double, double *);

static int check(const char *name, int mant_bits, int exp_bias, double (*widen)(uint16_t),
                 uint16_t (*round_dd)(double, double), half_fast_fn fast, dd_fn dd, uint32_t limit_bits,
                 uint32_t guard) {
    const double smallest_unit = ldexp(1.0, -exp_bias - 22);
    const uint32_t near_mask = omk_key16_near_mask(mant_bits, guard), offset = omk_key16_offset(mant_bits, guard);
    const uint32_t shift = 23 - (uint32_t)mant_bits;
    const float narrow = omk_float_from_bits((uint32_t)exp_bias << 23);
    double worst = 0;
    uint32_t worst_bits = 0, covered = 0, flagged = 0, misrounded = 0;
    for (uint32_t a = 0; a < limit_bits; a++) {
        const double ax = widen((uint16_t)a);
        double lo;
        const double hi = dd(ax, &lo);
        const float r = fast((float)ax);
        const double exact_abs = fabs(hi); /* 0 for asin(0): the unit is then the smallest one */
        const double ulp32 = exact_abs > 0 ? ldexp(1.0, ilogb(exact_abs) - 23) : 0;
        const double unit = ulp32 > smallest_unit ? ulp32 : smallest_unit;
        const double distance = fabs(((double)r - hi) - lo) / unit;
        if (distance > worst) worst = distance, worst_bits = a;
        covered++;
        const uint32_t u = omk_bits32(r * narrow) + offset; /* as omk_narrow16 */
        if ((u & near_mask) == 0) {
            flagged++;
            continue;
        }
        const uint16_t correct = round_dd(hi, lo);
        const uint16_t by_key = (uint16_t)(((u >> shift) & 0x7fff) | ((omk_bits32(r) >> 16) & 0x8000));
        const uint16_t by_instruction = mant_bits == 10 ? omk_double_to_f16((double)r) : (uint16_t)(u >> shift);
        if (by_key != correct || by_instruction != correct) {
            if (misrounded++ < 5)
                printf("%s: |x| bits 0x%04" PRIx32 " passes the rounding test but narrows to 0x%04x (key) and 0x%04x, "
                       "not 0x%04x\n",
                       name, a, by_key, by_instruction, correct);
        }
    }
    printf("%s: %" PRIu32 " inputs |x| < limit, max error %.3f key units at |x| bits 0x%04" PRIx32 "; guard %" PRIu32
           ": %" PRIu32 " flagged (%.3f%%), %" PRIu32 " of the others misrounded\n",
           name, covered, worst, worst_bits, guard, flagged, 100.0 * flagged / covered, misrounded);
    return misrounded != 0;
}

/* cos's blocks with every |x| below pi (cos_F16_NEAR_LIMIT_BITS): the shortcut's own binary32 result */
static float cos_h_near(float ax) { return cos_h_evaluate(cos_h_reduce_near(ax)); }

/* How many inputs below the limit get other binary32 bits from the shortcut than from the general path: none, so the
 * two paths narrow alike (a failure otherwise). */
static uint32_t near_differences(const char *name, double (*widen)(uint16_t), uint32_t near_limit_bits) {
    uint32_t differ = 0;
    for (uint32_t a = 0; a < near_limit_bits; a++) {
        const float ax = (float)widen((uint16_t)a);
        differ += omk_bits32(cos_h_near(ax)) != omk_bits32(cos_h_fast(ax));
    }
    printf("%s: the shortcut's binary32 result differs from the general path's for %" PRIu32 " of %" PRIu32 "\n", name,
           differ, near_limit_bits);
    return differ;
}

int main(void) {
    int failed = check("cos f16", 10, 15, omk_f16_to_double, omk_dd_to_f16, cos_h_fast, cos_f64_dd, cos_F16_LIMIT_BITS,
                       cos_H_GUARD);
    failed |= check("cos bf16", 7, 127, omk_bf16_to_double, omk_dd_to_bf16, cos_h_fast, cos_f64_dd, cos_BF16_LIMIT_BITS,
                    cos_H_GUARD);
    failed |= check("cos f16 below pi", 10, 15, omk_f16_to_double, omk_dd_to_f16, cos_h_near, cos_f64_dd,
                    cos_F16_NEAR_LIMIT_BITS, cos_H_GUARD);
    failed |= check("cos bf16 below pi", 7, 127, omk_bf16_to_double, omk_dd_to_bf16, cos_h_near, cos_f64_dd,
                    cos_BF16_NEAR_LIMIT_BITS, cos_H_GUARD);
    failed |= near_differences("cos f16", omk_f16_to_double, cos_F16_NEAR_LIMIT_BITS) != 0;
    failed |= near_differences("cos bf16", omk_bf16_to_double, cos_BF16_NEAR_LIMIT_BITS) != 0;
    failed |= check("asin f16", 10, 15, omk_f16_to_double, omk_dd_to_f16, asin_h_fast, asin_f64_dd, asin_F16_LIMIT_BITS,
                    asin_H_GUARD);
    failed |= check("asin bf16", 7, 127, omk_bf16_to_double, omk_dd_to_bf16, asin_h_fast, asin_f64_dd,
                    asin_BF16_LIMIT_BITS, asin_H_GUARD);
    return failed;
}
