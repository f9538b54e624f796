/* Result tables for the 16-bit kernels over the 32,768 non-negative inputs, built once (at a kernel's first call) and
 * shared by every ISA build: a lookup is exact and the same in each.
 *
 * Where a vector build runs, an entry is the binary64 kernel's result (correctly rounded, the same in every build)
 * rounded again to the 16-bit type. The two roundings give the correctly rounded 16-bit result unless the binary64 one
 * is a 16-bit midpoint: each midpoint is a binary64 number, so f(x) and its binary64 rounding lie on the same side of
 * it, and f(x) is no midpoint (transcendental for x != 0, and 1 or 0 at 0). Such an entry, which no input has with the
 * present kernels (tests/test_kernels.c counts them), comes from the direct evaluation, op##_<dtype>_direct
 * (omk_internal.h): op##_f64_dd's double-double narrowed once by omk_dd_to_narrow, whose tail says on which side of
 * the midpoint f(x) lies (right unless f(x) is closer to the midpoint than the double-double's error, about 2^-60
 * relative). It fills every entry in the scalar build: there the binary64 kernel, with its rounding test, was the
 * slower one. Elsewhere a process's first 16-bit call takes 0.23-0.42 of the time it took (bench/TUNING.md). */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "omk_dispatch.h"
#include "omk_internal.h"
#include "omk_table16.h"

enum { FILL_CHUNK = 256 };

/* One table per 16-bit kernel of omk_kernels.def; wider types have none. The chunks are static, not on the stack: the
 * fill runs in a kernel's first call, which keeps to OMK_STACK_BYTES_MAX (omk.h); pthread_once runs one fill per table
 * at a time. */
#define OMK_BUILD_F64(isa, ENUM, flags, cpu_test, op) omk_##op##_f64_##isa,
#define OMK_TABLE_float(op, dtype)
#define OMK_TABLE_double(op, dtype)
#define OMK_TABLE_uint16_t(op, dtype)                                                                                  \
    void omk_##op##_##dtype##_direct_scalar(const uint16_t *x, uint16_t *y, size_t n);                                 \
    static uint16_t op##_##dtype##_table[OMK_TABLE16_SIZE];                                                            \
    static pthread_once_t op##_##dtype##_once = PTHREAD_ONCE_INIT;                                                     \
    static size_t op##_##dtype##_midpoints;                                                                            \
    static void op##_##dtype##_build(void) {                                                                           \
        static void (*const f64_builds[OMK_ISA_COUNT])(const double *, double *,                                       \
                                                       size_t) = {OMK_FOR_EACH_ISA(OMK_BUILD_F64, op)};                \
        const omk_isa isa = omk_isa_selected();                                                                        \
        if (isa == OMK_ISA_SCALAR) {                                                                                   \
            for (uint32_t i = 0; i < OMK_TABLE16_ENTRIES; i++) op##_##dtype##_table[i] = (uint16_t)i;                  \
            omk_##op##_##dtype##_direct_scalar(op##_##dtype##_table, op##_##dtype##_table, OMK_TABLE16_ENTRIES);       \
            return;                                                                                                    \
        }                                                                                                              \
        void (*const f64_kernel)(const double *, double *, size_t) = f64_builds[isa];                                  \
        static double x[FILL_CHUNK], y[FILL_CHUNK];                                                                    \
        for (uint32_t start = 0; start < OMK_TABLE16_ENTRIES; start += FILL_CHUNK) {                                   \
            for (uint32_t i = 0; i < FILL_CHUNK; i++) x[i] = omk_##dtype##_to_double((uint16_t)(start + i));           \
            f64_kernel(x, y, FILL_CHUNK);                                                                              \
            for (uint32_t i = 0; i < FILL_CHUNK; i++) {                                                                \
                uint16_t *entry = &op##_##dtype##_table[start + i];                                                    \
                *entry = omk_double_to_##dtype(y[i]);                                                                  \
                if (omk_##dtype##_midpoint(y[i], *entry)) {                                                            \
                    *entry = (uint16_t)(start + i);                                                                    \
                    omk_##op##_##dtype##_direct_scalar(entry, entry, 1);                                               \
                    op##_##dtype##_midpoints++;                                                                        \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }                                                                                                                  \
    const uint16_t *omk_table_##op##_##dtype(void) {                                                                   \
        pthread_once(&op##_##dtype##_once, op##_##dtype##_build);                                                      \
        return op##_##dtype##_table;                                                                                   \
    }                                                                                                                  \
    size_t omk_table_midpoints_##op##_##dtype(void) {                                                                  \
        (void)omk_table_##op##_##dtype();                                                                              \
        return op##_##dtype##_midpoints;                                                                               \
    }
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) OMK_TABLE_##ctype(op, dtype)
#include "omk_kernels.def"
#undef OMK_KERNEL
