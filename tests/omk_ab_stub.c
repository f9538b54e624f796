/* A stand-in for libomk whose binary64 cos returns its input: omk_ab must count every output as different. */
#include <stddef.h>

void omk_cos_f64(const double *x, double *y, size_t n);

void omk_cos_f64(const double *x, double *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = x[i];
}
