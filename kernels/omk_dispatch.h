/* ISA selection for omk (internal; tests use it to run every path the CPU supports).
 * Each kernel is built once per ISA from the same source; the public entry point resolves to
 * the best supported build at its first call. OMK_ISA=scalar|avx2|avx512 in the environment
 * forces a build (an unsupported choice falls back to the best one the CPU has). */
#ifndef OMK_DISPATCH_H
#define OMK_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { OMK_ISA_SCALAR, OMK_ISA_AVX2, OMK_ISA_AVX512, OMK_ISA_COUNT } omk_isa;

bool omk_isa_supported(omk_isa isa);
const char *omk_isa_name(omk_isa isa);
/* The build the public entry points use (after OMK_ISA). */
omk_isa omk_isa_selected(void);

/* Per-ISA builds of every kernel: omk_cos_f32_avx2, ... */
#define OMK_KERNEL(op, dtype, ctype)                                                                                   \
    void omk_##op##_##dtype##_scalar(const ctype *x, ctype *y, size_t n);                                              \
    void omk_##op##_##dtype##_avx2(const ctype *x, ctype *y, size_t n);                                                \
    void omk_##op##_##dtype##_avx512(const ctype *x, ctype *y, size_t n);
#include "omk_kernels.def"
#undef OMK_KERNEL

#endif
