/* Hard-to-round binary64 inputs for cos and asin: found by search (ulpbench hard-cases) and kept
 * as a data table (tests/data/hard_cases_f64.txt) that the tests run. */
#ifndef ULPB_HARD_CASES_H
#define ULPB_HARD_CASES_H

#include <stdint.h>

#include "accuracy.h"

enum { ULPB_HARD_CASES_STRUCTURAL_MAX = 16 };

typedef struct {
    ulpb_op_id op;
    uint64_t bits;      /* the input */
    double distance;    /* |f(x) - nearest binary64 midpoint| in ulps (MPFR, 256 bits) */
    double expected;    /* f(x) correctly rounded */
    const char *source; /* "search" or "structural" */
} ulpb_hard_case;

/* Scans `span` consecutive doubles from each of `starts` seeded starting points, keeps the `keep`
 * closest to a midpoint, appends the structural cases; writes up to keep + ULPB_HARD_CASES_STRUCTURAL_MAX
 * rows to out and returns how many. threads: the OpenMP team size (0: the default); the rows do not depend on it. */
int ulpb_hard_case_search(ulpb_op_id op, uint64_t seed, int starts, int span, int keep, int threads,
                          ulpb_hard_case *out);

#endif
