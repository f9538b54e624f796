/* Result tables for the 16-bit kernels over the 32,768 non-negative inputs, built once (on first
 * use) from the direct binary64 evaluation, which is checked correctly rounded on every input.
 * A lookup is exact and identical for every ISA; the table is shared by all ISA builds. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "omk_table16.h"

/* One table per 16-bit kernel of omk_kernels.def; wider types have none. */
#define OMK_TABLE_float(op, dtype)
#define OMK_TABLE_double(op, dtype)
#define OMK_TABLE_uint16_t(op, dtype)                                                                                  \
    void omk_##op##_##dtype##_direct_scalar(const uint16_t *x, uint16_t *y, size_t n);                                 \
    static uint16_t op##_##dtype##_table[OMK_TABLE16_SIZE];                                                            \
    static pthread_once_t op##_##dtype##_once = PTHREAD_ONCE_INIT;                                                     \
    static void op##_##dtype##_build(void) {                                                                           \
        for (uint32_t i = 0; i < OMK_TABLE16_ENTRIES; i++) op##_##dtype##_table[i] = (uint16_t)i;                      \
        omk_##op##_##dtype##_direct_scalar(op##_##dtype##_table, op##_##dtype##_table, OMK_TABLE16_ENTRIES);           \
    }                                                                                                                  \
    const uint16_t *omk_table_##op##_##dtype(void) {                                                                   \
        pthread_once(&op##_##dtype##_once, op##_##dtype##_build);                                                      \
        return op##_##dtype##_table;                                                                                   \
    }
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) OMK_TABLE_##ctype(op, dtype)
#include "omk_kernels.def"
#undef OMK_KERNEL
