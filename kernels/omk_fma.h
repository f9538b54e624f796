/* Fused multiply-add for the kernels: omk_fma and omk_fmaf.
 *
 * Every kernel's error bound and rounding test assume fma(a, b, c) = RN(a b + c), so every build must compute exactly
 * that. The vector builds have the instruction (-mfma), and there these are fma() and fmaf(), which GCC inlines
 * and vectorizes. The scalar build on x86-64 has not, and there fma() is a call into libm: glibc resolves it to the
 * instruction on CPUs with FMA, but on the CPUs the scalar build is for (no AVX2, and all but AMD's Piledriver and
 * Steamroller without FMA) to its software fma, which switches the rounding mode on every call. With it omk's
 * binary32 and binary64 kernels ran at 1/68 to 1/160 of the speed of glibc's cosf, cos, asinf and asin (README,
 * "Without FMA"). So where the CPU has no FMA the scalar build emulates it exactly, with round-to-nearest operations:
 *
 * - binary32: the product is exact in binary64; the sum is rounded to odd in binary64 (rounded to nearest, then moved
 *   one ulp towards the exact sum when inexact and even), and rounding that to binary32 gives RN(a b + c), since
 *   binary64 has at least 24 + 2 bits (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved
 *   algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008). No condition on the operands.
 * - binary64: the same paper's emulated FMA: a b = u + u_lo exactly (Dekker's product, Veltkamp's split),
 *   c + u = t + t_lo exactly (2Sum), then RN(t + RO(t_lo + u_lo)). It needs no overflow and no underflow in the
 *   product's low part, so it runs for normal a and b with exponents e_a, e_b <= 960 and -900 <= e_a + e_b <= 960,
 *   and finite c: then |a b| < 2^962, below half an ulp of the largest binary64, so nothing overflows, and the exact
 *   result, when not zero, is at least 2^-1004 (a multiple of it when |c| >= 2^-952, close to a b otherwise): no
 *   subnormal rounding. A zero a or b gives c + a b, which is exact; other operands (non-finite, subnormal or huge
 *   ones: cos near the binary64 maximum in Payne-Hanek, specials whose result is replaced anyway) go to fma().
 *
 * tests/test_fma.c checks both against libm's fma on operands built to land on and beside rounding boundaries. */
#ifndef OMK_FMA_H
#define OMK_FMA_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t omk_bits64(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static inline double omk_double_from_bits(uint64_t u) {
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* RO(sum + err), for sum = RN(s) and err = s - sum exactly (2Sum): sum when exact or odd, otherwise its neighbour
 * towards err (an even significand's neighbours are odd; sum is finite and nonzero when err is nonzero). A version
 * without the branch made the emulated binary32 cos 1.1 times faster and asin 1.4 times slower. */
static inline double omk_round_to_odd(double sum, double err) {
    const uint64_t bits = omk_bits64(sum);
    if (err == 0.0 || (bits & 1)) return sum;
    return omk_double_from_bits(((omk_bits64(err) ^ bits) >> 63) ? bits - 1 : bits + 1);
}

static inline double omk_fma_two_sum_err(double a, double b, double sum) {
    const double b_virtual = sum - a, a_virtual = sum - b_virtual;
    return (a - a_virtual) + (b - b_virtual);
}

static inline float omk_fmaf_emulated(float a, float b, float c) {
    const double product = (double)a * (double)b; /* exact: 48 bits, within binary64's range */
    const double sum = product + (double)c;
    if (!(fabs(sum) <= DBL_MAX)) return (float)sum; /* an infinite or NaN operand: the same as fmaf */
    return (float)omk_round_to_odd(sum, omk_fma_two_sum_err(product, (double)c, sum));
}

static inline double omk_fma_emulated(double a, double b, double c) {
    const uint64_t bias = 1023, exp_a = omk_bits64(a) >> 52 & 0x7ff, exp_b = omk_bits64(b) >> 52 & 0x7ff;
    const uint64_t exp_c = omk_bits64(c) >> 52 & 0x7ff;
    /* exp_a - 1 < bias + 960 also refuses exp_a = 0 (zero, subnormal) by wrapping around */
    if (exp_a - 1 < bias + 960 && exp_b - 1 < bias + 960 && exp_a + exp_b >= 2 * bias - 900 &&
        exp_a + exp_b <= 2 * bias + 960 && exp_c != 0x7ff) {
        const double split = 0x1p27 + 1;
        const double a_scaled = split * a, a_hi = a_scaled - (a_scaled - a), a_lo = a - a_hi;
        const double b_scaled = split * b, b_hi = b_scaled - (b_scaled - b), b_lo = b - b_hi;
        const double product = a * b;
        const double product_lo = (((a_hi * b_hi - product) + a_hi * b_lo) + a_lo * b_hi) + a_lo * b_lo;
        const double sum = c + product, sum_lo = omk_fma_two_sum_err(c, product, sum);
        const double tail = sum_lo + product_lo;
        return sum + omk_round_to_odd(tail, omk_fma_two_sum_err(sum_lo, product_lo, tail));
    }
    if (a == 0.0 || b == 0.0) return c + a * b;
    return fma(a, b, c);
}

/* Whether fma() is the instruction: 1 in the vector builds (fma() inlined; GCC defines __FP_FAST_FMA with -mfma,
 * Clang 14 only __FMA__), 0 where it is not (OMK_FMA_ALWAYS_EMULATED takes the emulation in the scalar build on any
 * CPU: README, "Without FMA"), and else the CPU's answer. A CPU with FMA but not AVX2, or any CPU when OMK_ISA=scalar
 * forces this build, has the instruction behind libm's fma(); a loaded flag and a branch that never changes direction
 * cost less than the emulation. cpu_without_avx runs the emulated kernels (QEMU's Nehalem has no FMA). */
#if FLT_EVAL_METHOD != 0 || defined(__FMA__) || (defined(__FP_FAST_FMA) && defined(__FP_FAST_FMAF))
#define OMK_FMA_INSTRUCTION 1
#elif defined(OMK_FMA_ALWAYS_EMULATED) || !(defined(__x86_64__) || defined(__i386__))
#define OMK_FMA_INSTRUCTION 0
#else
#define OMK_FMA_INSTRUCTION __builtin_cpu_supports("fma")
#endif
static inline double omk_fma(double a, double b, double c) {
    return OMK_FMA_INSTRUCTION ? fma(a, b, c) : omk_fma_emulated(a, b, c);
}
static inline float omk_fmaf(float a, float b, float c) {
    return OMK_FMA_INSTRUCTION ? fmaf(a, b, c) : omk_fmaf_emulated(a, b, c);
}

#endif
