/* What omk_isa_selected() must return for a value of OMK_ISA, worked out here rather than taken
 * from kernels/omk.c (README, Dispatch): a build name selects that build when the CPU supports it
 * and otherwise the best build the CPU has; unset, empty or any other value selects the best. */
#ifndef OMK_ISA_EXPECT_H
#define OMK_ISA_EXPECT_H

#include <stdio.h>
#include <stdlib.h>
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

/* The per-build ctest variants (test_kernels_avx512, ...) set OMK_ISA; on a CPU without that build the best one runs
 * instead, and a pass would claim a build that was not tested: they exit with OMK_TEST_SKIPPED (ctest's
 * SKIP_RETURN_CODE) when omk_isa_forced_unsupported says so. */
enum { OMK_TEST_SKIPPED = 77 };

static inline int omk_isa_forced_unsupported(void) {
    const char *value = getenv("OMK_ISA");
    for (int i = 0; value && i < OMK_ISA_COUNT; i++)
        if (strcmp(value, omk_isa_expected_names[i]) == 0 && !omk_isa_supported((omk_isa)i)) {
            fprintf(stderr, "skipped: OMK_ISA=%s names a build this CPU cannot run\n", value);
            return 1;
        }
    return 0;
}

#endif
