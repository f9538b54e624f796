/* A user's kernels as ULPB_LIBRARIES loads them (test_cli): omk.h's signatures under other prefixes.
 *   demo_*: the naive pipeline ML runtimes use, libm's binary32 function (and, for binary16, widen and narrow around
 *           it), so that its rows must equal the glibc peer's rows;
 *   bad_cos_f16: 1.0 for every input, right only near 0, so that a report gates it and fails;
 *   sloppy_*: the tail mistakes of hand-written vector loops, which ulpbench must refuse rather than measure:
 *             cos f32 leaves the last n % 16 outputs unwritten, asin f32 writes whole vectors of 16 past the end of
 *             its output, cos f16 writes y[-1].
 * No binary64 entry points: a library need not offer every kernel. Loaded with ULPB_DEMO_ANNOUNCE set, it says so on
 * stderr (test_cli checks that a setting with a bad item loads nothing). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "omk.h" /* its conversions, as the glibc peer's */

uint16_t demo_one_f16(void); /* tests/demo_dependency.c */

void demo_cos_f32(const float *x, float *y, size_t n);
void demo_asin_f32(const float *x, float *y, size_t n);
void demo_cos_f16(const uint16_t *x, uint16_t *y, size_t n);
void bad_cos_f16(const uint16_t *x, uint16_t *y, size_t n);
void sloppy_cos_f32(const float *x, float *y, size_t n);
void sloppy_asin_f32(const float *x, float *y, size_t n);
void sloppy_cos_f16(const uint16_t *x, uint16_t *y, size_t n);

void demo_cos_f32(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = cosf(x[i]);
}

void demo_asin_f32(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = asinf(x[i]);
}

void demo_cos_f16(const uint16_t *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = omk_f32_to_f16(cosf(omk_f16_to_f32(x[i])));
}

void bad_cos_f16(const uint16_t *x, uint16_t *y, size_t n) {
    (void)x;
    for (size_t i = 0; i < n; i++) y[i] = demo_one_f16();
}

void sloppy_cos_f32(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n - n % 16; i++) y[i] = cosf(x[i]);
}

void sloppy_asin_f32(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i += 16)
        for (size_t lane = 0; lane < 16; lane++) y[i + lane] = i + lane < n ? asinf(x[i + lane]) : 0.0f;
}

void sloppy_cos_f16(const uint16_t *x, uint16_t *y, size_t n) {
    demo_cos_f16(x, y, n);
    y[-1] = y[0];
}

__attribute__((constructor)) static void announce(void) {
    if (getenv("ULPB_DEMO_ANNOUNCE")) fputs("demo_kernels loaded\n", stderr);
}
