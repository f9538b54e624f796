/* Public entry points of omk and the runtime dispatch: each entry point holds a pointer that
 * starts at a resolver; the first call picks the ISA build and overwrites the pointer. */
#include "omk.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "omk_dispatch.h"
#include "omk_internal.h"

#define OMK_CPU_HAS(feature) __builtin_cpu_supports(feature)

#define OMK_ISA_NAME_ENTRY(name, ENUM, flags, cpu_test, unused) #name,
static const char *const isa_names[OMK_ISA_COUNT] = {OMK_FOR_EACH_ISA(OMK_ISA_NAME_ENTRY, 0)};
#undef OMK_ISA_NAME_ENTRY

const char *omk_isa_name(omk_isa isa) { return isa < OMK_ISA_COUNT ? isa_names[isa] : "unknown"; }

bool omk_isa_supported(omk_isa isa) {
    __builtin_cpu_init();
    switch (isa) {
#define OMK_ISA_CASE(name, ENUM, flags, cpu_test, unused)                                                              \
    case OMK_ISA_##ENUM:                                                                                               \
        return cpu_test;
        OMK_FOR_EACH_ISA(OMK_ISA_CASE, 0)
#undef OMK_ISA_CASE
    default:
        return false;
    }
}

omk_isa omk_isa_selected(void) {
    omk_isa best = (omk_isa)0; /* the baseline */
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

#define OMK_BUILD(isa, op, dtype)                           omk_##op##_##dtype##_##isa,
#define OMK_BUILD_ISA(isa, ENUM, flags, cpu_test, op_dtype) OMK_APPLY(OMK_BUILD, isa, OMK_UNPACK op_dtype)
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    typedef void (*op##_##dtype##_fn)(const ctype *, ctype *, size_t);                                                 \
    static void op##_##dtype##_resolve(const ctype *x, ctype *y, size_t n);                                            \
    static _Atomic(op##_##dtype##_fn) op##_##dtype##_impl = op##_##dtype##_resolve;                                    \
    static void op##_##dtype##_resolve(const ctype *x, ctype *y, size_t n) {                                           \
        static const op##_##dtype##_fn builds[OMK_ISA_COUNT] = {OMK_FOR_EACH_ISA(OMK_BUILD_ISA, (op, dtype))};         \
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

/* Decided once (a relaxed race only repeats the same decision). On AMD Zen 5 the binary32 path runs about twice as fast
 * as the table's gathers (ulpbench bench with OMK_HALF16=table and without). Not measured on Intel, where the table
 * ran 1.6 to 2 times the peers' binary32 pipelines (commit c7da820): the arithmetic costs about the same there, and
 * gathers may cost more since the Gather Data Sampling microcode (2023). */
bool omk_half16_compute(void) {
    static _Atomic int decided = -1;
    int compute = atomic_load_explicit(&decided, memory_order_relaxed);
    if (compute < 0) {
        const char *forced = getenv("OMK_HALF16");
        compute = !(forced && strcmp(forced, "table") == 0);
        atomic_store_explicit(&decided, compute, memory_order_relaxed);
    }
    return compute;
}

/* OMK_HALF_COMPUTE (omk_internal.h) holds in the AVX-512 build only. */
const char *omk_half16_method(void) {
    return omk_isa_selected() == OMK_ISA_AVX512 && omk_half16_compute() ? "compute" : "table";
}

const char *omk_version(void) { return OMK_VERSION; }
