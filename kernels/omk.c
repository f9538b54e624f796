/* Public entry points of omk and the runtime dispatch: each entry point holds a pointer that
 * starts at a resolver; the first call picks the ISA build and overwrites the pointer. */
#include "omk.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "omk_dispatch.h"
#include "omk_internal.h"

static const char *const isa_names[OMK_ISA_COUNT] = {"scalar", "avx2", "avx512"};

const char *omk_isa_name(omk_isa isa) { return isa < OMK_ISA_COUNT ? isa_names[isa] : "unknown"; }

bool omk_isa_supported(omk_isa isa) {
    __builtin_cpu_init();
    switch (isa) {
    case OMK_ISA_SCALAR:
        return true;
    case OMK_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
    case OMK_ISA_AVX512:
        return omk_isa_supported(OMK_ISA_AVX2) && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl");
    default:
        return false;
    }
}

omk_isa omk_isa_selected(void) {
    omk_isa best = OMK_ISA_SCALAR;
    for (int i = OMK_ISA_COUNT - 1; i > 0; i--)
        if (omk_isa_supported((omk_isa)i)) {
            best = (omk_isa)i;
            break;
        }
    const char *forced = getenv("OMK_ISA");
    if (forced)
        for (int i = 0; i < OMK_ISA_COUNT; i++)
            if (strcmp(forced, isa_names[i]) == 0 && i <= (int)best) return (omk_isa)i;
    return best;
}

#define OMK_KERNEL(op, dtype, ctype)                                                                                   \
    typedef void (*op##_##dtype##_fn)(const ctype *, ctype *, size_t);                                                 \
    static void op##_##dtype##_resolve(const ctype *x, ctype *y, size_t n);                                            \
    static _Atomic(op##_##dtype##_fn) op##_##dtype##_impl = op##_##dtype##_resolve;                                    \
    static void op##_##dtype##_resolve(const ctype *x, ctype *y, size_t n) {                                           \
        static const op##_##dtype##_fn builds[OMK_ISA_COUNT] = {                                                       \
            omk_##op##_##dtype##_scalar, omk_##op##_##dtype##_avx2, omk_##op##_##dtype##_avx512};                      \
        const op##_##dtype##_fn chosen = builds[omk_isa_selected()];                                                   \
        atomic_store_explicit(&op##_##dtype##_impl, chosen, memory_order_relaxed);                                     \
        chosen(x, y, n);                                                                                               \
    }                                                                                                                  \
    void omk_##op##_##dtype(const ctype *x, ctype *y, size_t n) {                                                      \
        atomic_load_explicit(&op##_##dtype##_impl, memory_order_relaxed)(x, y, n);                                     \
    }
#include "omk_kernels.def"
#undef OMK_KERNEL

float omk_f16_to_f32(uint16_t h) { return (float)omk_f16_to_double(h); }
uint16_t omk_f32_to_f16(float f) { return omk_double_to_f16((double)f); }
float omk_bf16_to_f32(uint16_t h) { return (float)omk_bf16_to_double(h); }
uint16_t omk_f32_to_bf16(float f) { return omk_double_to_bf16((double)f); }

const char *omk_isa_in_use(void) { return omk_isa_name(omk_isa_selected()); }

const char *omk_version(void) { return OMK_VERSION; }
