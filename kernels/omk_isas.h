/* The instruction-set builds of every omk kernel, baseline first; the dispatcher takes the last one the CPU
 * supports. X(name, ENUM, "compiler flags", CPU test, arg) per build, the CPU test a condition over
 * OMK_CPU_HAS("feature") (__builtin_cpu_supports) and OMK_CPU_HAS_F16C (CPUID: Clang 14 has no "f16c" there). GCC's
 * -mavx2 implies POPCNT, which it uses (counting a block's flagged lanes), so the vector builds test for it too.
 * CMakeLists.txt reads the names and flags from the X(...) lines, one build per line; the kernel sources, the
 * dispatcher and the tests expand the same list. */
#ifndef OMK_ISAS_H
#define OMK_ISAS_H

// clang-format off
#define OMK_FOR_EACH_ISA(X, arg) \
    X(scalar, SCALAR, "", 1, arg) \
    X(avx2, AVX2, "-mavx2 -mfma -mf16c", OMK_CPU_HAS("avx2") && OMK_CPU_HAS("fma") && OMK_CPU_HAS_F16C && OMK_CPU_HAS("popcnt"), arg) \
    X(avx512, AVX512, "-mavx512f -mavx512dq -mavx512bw -mavx512vl -mavx2 -mfma -mf16c", OMK_CPU_HAS("avx2") && OMK_CPU_HAS("fma") && OMK_CPU_HAS_F16C && OMK_CPU_HAS("popcnt") && OMK_CPU_HAS("avx512f") && OMK_CPU_HAS("avx512dq") && OMK_CPU_HAS("avx512bw") && OMK_CPU_HAS("avx512vl"), arg)
// clang-format on

/* For X macros whose arg is a tuple such as (op, dtype, ctype): OMK_APPLY(m, a, OMK_UNPACK tuple) calls
 * m(a, op, dtype, ctype). */
#define OMK_UNPACK(...)   __VA_ARGS__
#define OMK_APPLY(m, ...) m(__VA_ARGS__)

#endif
