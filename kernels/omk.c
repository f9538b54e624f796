/* Public entry points of omk. Each kernel source is built per ISA (OMK_ISA suffix); this file
 * exports the unsuffixed names. */
#include "omk.h"

#include "omk_internal.h"

#define OMK_KERNEL(op, dtype, ctype)                                                                \
    void omk_##op##_##dtype##_scalar(const ctype *x, ctype *y, size_t n);                          \
    void omk_##op##_##dtype(const ctype *x, ctype *y, size_t n) { omk_##op##_##dtype##_scalar(x, y, n); }
#include "omk_kernels.def"
#undef OMK_KERNEL

float omk_f16_to_f32(uint16_t h) { return (float)omk_f16_to_double(h); }
uint16_t omk_f32_to_f16(float f) { return omk_double_to_f16((double)f); }
float omk_bf16_to_f32(uint16_t h) { return (float)omk_bf16_to_double(h); }
uint16_t omk_f32_to_bf16(float f) { return omk_double_to_bf16((double)f); }

const char *omk_version(void) { return OMK_VERSION; }
