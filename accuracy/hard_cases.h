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
 * rows to out and returns how many (-1: out of memory). threads: the OpenMP team size (0: the default); the rows do
 * not depend on it. */
int ulpb_hard_case_search(ulpb_op_id op, uint64_t seed, int starts, int span, int keep, int threads,
                          ulpb_hard_case *out);

/* Every binary32 input in [lo, hi] (whole: 0 to FLT_MAX for cos, 0 to 1 for asin; cos even, asin odd, so -x is as
 * hard as x, and a negative x whose magnitude lies in [lo, hi] too is left to it), ranked with the long double
 * reference; keeps the `keep` closest to a binary32 midpoint, measured exactly, then appends omk's binary32 switch
 * points that lie in [lo, hi]. Writes up to keep + ULPB_HARD_CASES_STRUCTURAL_MAX rows (bits: the binary32 input;
 * expected: the binary32 result as a double). The whole domains take about 3.5 minutes on 2 cores; the rows do not
 * depend on threads. 0 rows when [lo, hi] holds no binary32 number, -1 when out of memory. */
int ulpb_hard_case_search_f32(ulpb_op_id op, double lo, double hi, int keep, int threads, ulpb_hard_case *out);
/* The order keys of the first and last binary32 numbers in [lo, hi]; -1 when there are none. */
int ulpb_binary32_range_keys(double lo, double hi, uint32_t *first, uint32_t *last);

#endif
