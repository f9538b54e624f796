/* Quantiles of timing samples, shared by ulpbench bench and omk_ab so that both print the same statistics. */
#ifndef ULPB_QUANTILE_H
#define ULPB_QUANTILE_H

#include <stdlib.h>

static inline int ulpb_compare_doubles(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of v[0..n) by linear interpolation between order statistics; sorts v. */
static inline double ulpb_quantile(double *v, int n, double q) {
    qsort(v, (size_t)n, sizeof *v, ulpb_compare_doubles);
    const double pos = q * (n - 1);
    const int lo = (int)pos;
    const double frac = pos - lo;
    return frac == 0 || lo + 1 >= n ? v[lo] : v[lo] + frac * (v[lo + 1] - v[lo]);
}

#endif
