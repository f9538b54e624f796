/* Hard-to-round binary64 and binary32 inputs for cos and asin: found by search (ulpbench hard-cases) and
 * kept as data tables (tests/data/hard_cases_f64.txt, hard_cases_f32.txt) that the tests run. */
#ifndef ULPB_HARD_CASES_H
#define ULPB_HARD_CASES_H

#include <stdint.h>

#include "accuracy.h"

enum { ULPB_HARD_CASES_STRUCTURAL_MAX = 16 };

typedef struct {
    ulpb_op_id op;
    uint64_t bits;      /* the input */
    double distance;    /* |f(x) - nearest midpoint of the format| in ulps (MPFR, 256 bits) */
    double expected;    /* f(x) correctly rounded */
    const char *source; /* "search" or "structural" */
} ulpb_hard_case;

/* Scans `span` consecutive doubles from each of `starts` seeded starting points, keeps the `keep`
 * closest to a midpoint, appends the structural cases; writes up to keep + ULPB_HARD_CASES_STRUCTURAL_MAX
 * rows to out and returns how many. threads: the OpenMP team size (0: the default); the rows do not depend on it. */
int ulpb_hard_case_search(ulpb_op_id op, uint64_t seed, int starts, int span, int keep, int threads,
                          ulpb_hard_case *out);

/* Every non-negative binary32 input of the op's domain (cos even, asin odd: -x is as hard), ranked with the long
 * double reference; keeps the `keep` closest to a binary32 midpoint, measured exactly, then appends omk's binary32
 * switch points. Writes up to keep + ULPB_HARD_CASES_STRUCTURAL_MAX rows (bits: the binary32 input; expected: the
 * binary32 result as a double). About 3 minutes on 2 cores; the rows do not depend on threads. */
int ulpb_hard_case_search_f32(ulpb_op_id op, int keep, int threads, ulpb_hard_case *out);

#endif
