/* omk: element-wise math kernels for the ONNX operators Cos and Asin (opset 22).
 *
 * Every function maps n inputs to n outputs, correctly rounded: binary16, bfloat16 and binary32
 * checked on every input, binary64 on 10^8 samples and the hard cases found (see README.md for
 * the measured figures).
 * 16-bit types are passed as raw bit patterns.
 *
 * Contract: x and y may overlap in any way (y == x, in place, included): the results are those of separate arrays, as
 * memmove gives for copies; n == 0 with NULL pointers is allowed; no alignment beyond the element type's is required
 * (none to a vector width); the functions are thread-safe and need no set-up; a call uses at most OMK_STACK_BYTES_MAX
 * bytes of the calling thread's stack (one block's arrays and the accurate phases). They report no errors; errno is not
 * part of the contract.
 * Special values give IEEE 754 / C Annex F's results (not its exception flags): NaN -> quiet NaN (the input's payload
 * with the quiet bit set, and its sign, except binary16 and bfloat16 cos, whose NaN is positive; the same bits on every
 * build), cos(+-inf) = NaN, asin(|x| > 1) = NaN, asin(+-0) = +-0, cos(+-0) = 1, asin(+-1) = +-pi/2 correctly rounded.
 * A NaN made from a number is the x86 default NaN, negative (0xfe00, 0xffc0, 0xffc00000, 0xfff8000000000000), but for
 * binary16 and bfloat16 asin of the sign opposite to x's (asin_f16(0xbc01) = 0x7e00); the same bits on every build.
 * Results do not depend on the caller's floating-point environment (rounding mode, FTZ/DAZ, exception masks): the
 * kernels run under the default one and give a caller in another its MXCSR back, flags included; in the default
 * environment they may raise exception flags, which then say nothing about the inputs (invalid for some finite ones;
 * for a 16-bit NaN none from a table, some from the AVX-512 build's binary32 path). */
#ifndef OMK_H
#define OMK_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define OMK_API __attribute__((visibility("default"))) /* libomk.so exports these functions only */
#else
#define OMK_API
#endif

/* The stack a call may use at most, whatever the compiler's optimization: measured (binary64 asin, AVX-512 build, y
 * past x, with the accurate phases, a process's first call as much as later ones; tests/test_kernels.c) 14.6 KiB
 * with GCC -O2, 17.6 KiB with GCC -O0 and 28.5 KiB with Clang -O0. More than PTHREAD_STACK_MIN leaves, so a thread
 * that calls omk needs a larger stack than that. */
#define OMK_STACK_BYTES_MAX 32768

#ifdef __cplusplus
extern "C" {
#endif

OMK_API void omk_cos_f16(const uint16_t *x, uint16_t *y, size_t n);  /* IEEE binary16 bit patterns */
OMK_API void omk_cos_bf16(const uint16_t *x, uint16_t *y, size_t n); /* bfloat16 bit patterns */
OMK_API void omk_cos_f32(const float *x, float *y, size_t n);
OMK_API void omk_cos_f64(const double *x, double *y, size_t n);

OMK_API void omk_asin_f16(const uint16_t *x, uint16_t *y, size_t n);
OMK_API void omk_asin_bf16(const uint16_t *x, uint16_t *y, size_t n);
OMK_API void omk_asin_f32(const float *x, float *y, size_t n);
OMK_API void omk_asin_f64(const double *x, double *y, size_t n);

/* Conversions used by the kernels, exported for callers that stage 16-bit data:
 * widening is exact (a signalling NaN comes out quiet); narrowing rounds to nearest, ties to even, keeps
 * subnormals, overflows to infinity and turns NaN into a quiet NaN of the same sign. Unlike the kernels they run in
 * the caller's floating-point environment, which changes no result: the bfloat16 ones work on the bits and raise
 * nothing, the binary16 ones convert through binary32 and binary64 arithmetic and so signal invalid for a signalling
 * NaN and, narrowing, denormal for a binary32 subnormal (traps if the caller unmasked them), as the F16C instructions
 * do. */
OMK_API float omk_f16_to_f32(uint16_t h);
OMK_API uint16_t omk_f32_to_f16(float f);
OMK_API float omk_bf16_to_f32(uint16_t h);
OMK_API uint16_t omk_f32_to_bf16(float f);

/* The instruction-set build the entry points run: "scalar", "avx2" or "avx512" (the best the CPU
 * supports, or the one the OMK_ISA environment variable forces). OMK_ISA is read once per process, at the first
 * call of an entry point, of this function or of omk_half16_method(); a value that names no build, or a build the CPU
 * lacks, is ignored without an error (the best build runs). Every build gives the same bits. */
OMK_API const char *omk_isa_in_use(void);

/* How that build runs the binary16 and bfloat16 kernels: "table" (one table load per element, from a 32,768-entry
 * result table per kernel filled at first use) in the scalar and AVX2 builds, and in the AVX-512 build on an Intel
 * CPU with AVX512-FP16, whose gathers are fast; "compute" (binary32 arithmetic with a rounding test; the table serves
 * only the few lanes the test cannot settle) in the AVX-512 build on other CPUs. OMK_HALF16=table or compute in the
 * environment forces the AVX-512 build's choice (read once per process; any other value is ignored). Every choice
 * gives the same bits. */
OMK_API const char *omk_half16_method(void);

/* Version of the library, "MAJOR.MINOR.PATCH". */
OMK_API const char *omk_version(void);

#ifdef __cplusplus
}
#endif
#endif
