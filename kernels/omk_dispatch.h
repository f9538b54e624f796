/* ISA selection for omk (internal; tests use it to run every path the CPU supports).
 * Each kernel is built once per ISA from the same source; the public entry point resolves to
 * the best supported build at its first call. OMK_ISA=scalar|avx2|avx512 in the environment
 * forces a build (an unsupported choice falls back to the best one the CPU has). */
#ifndef OMK_DISPATCH_H
#define OMK_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "omk_isas.h"

#define OMK_ISA_ENUM_ENTRY(name, ENUM, flags, cpu_test, unused) OMK_ISA_##ENUM,
typedef enum { OMK_FOR_EACH_ISA(OMK_ISA_ENUM_ENTRY, 0) OMK_ISA_COUNT } omk_isa;
#undef OMK_ISA_ENUM_ENTRY

bool omk_isa_supported(omk_isa isa);
const char *omk_isa_name(omk_isa isa);
/* The build a value of OMK_ISA (NULL: unset) selects: the one it names if the CPU has it, else the best one. */
omk_isa omk_isa_choose(const char *forced);
/* The build the public entry points use: omk_isa_choose(getenv("OMK_ISA")) at the first call, kept for the process. */
omk_isa omk_isa_selected(void);

/* Whether the vector builds' 16-bit kernels compute (OMK_ARRAY_LOOP_16) rather than read their tables (see
 * omk_half16_method in omk.h). */
bool omk_half16_compute(void);
/* Whether CPUID's answers name a CPU whose gathers read the 16-bit tables fast, so that the AVX-512 build reads them
 * by default: an Intel CPU with AVX512-FP16 (Sapphire Rapids and later). max_leaf and the vendor words are leaf 0's
 * EAX, EBX, EDX and ECX, leaf7_edx leaf 7 (subleaf 0)'s EDX. */
bool omk_cpuid_gathers_fast(unsigned max_leaf, unsigned vendor_ebx, unsigned vendor_edx, unsigned vendor_ecx,
                            unsigned leaf7_edx);

/* Per-ISA builds of every kernel: omk_cos_f32_avx2, ... */
#define OMK_DECLARE_BUILD(isa, op, dtype, ctype)                  void omk_##op##_##dtype##_##isa(const ctype *x, ctype *y, size_t n);
#define OMK_DECLARE_BUILD_ISA(isa, ENUM, flags, cpu_test, kernel) OMK_APPLY(OMK_DECLARE_BUILD, isa, OMK_UNPACK kernel)
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)           OMK_FOR_EACH_ISA(OMK_DECLARE_BUILD_ISA, (op, dtype, ctype))
#include "omk_kernels.def"
#undef OMK_KERNEL
#undef OMK_DECLARE_BUILD_ISA
#undef OMK_DECLARE_BUILD

#endif
