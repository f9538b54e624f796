/* What omk_isa_selected() must return for a value of OMK_ISA, worked out here rather than taken
 * from kernels/omk.c (README, Dispatch): a build name selects that build when the CPU supports it
 * and otherwise the best build the CPU has; unset, empty or any other value selects the best. */
#ifndef OMK_ISA_EXPECT_H
#define OMK_ISA_EXPECT_H

#include <string.h>

#include "omk_dispatch.h"

static const char *const omk_isa_expected_names[OMK_ISA_COUNT] = {"scalar", "avx2", "avx512"};

static inline omk_isa omk_isa_best_supported(void) {
    for (int i = OMK_ISA_COUNT - 1; i > 0; i--)
        if (omk_isa_supported((omk_isa)i)) return (omk_isa)i;
    return OMK_ISA_SCALAR;
}

static inline omk_isa omk_isa_expected(const char *value) {
    if (value)
        for (int i = 0; i < OMK_ISA_COUNT; i++)
            if (strcmp(value, omk_isa_expected_names[i]) == 0)
                return omk_isa_supported((omk_isa)i) ? (omk_isa)i : omk_isa_best_supported();
    return omk_isa_best_supported();
}

#endif
