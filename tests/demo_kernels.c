/* A user's kernels as ULPB_LIBRARIES loads them (test_cli): omk.h's signatures under other prefixes.
 *   demo_*: the naive pipeline ML runtimes use, libm's binary32 function (and, for binary16, widen and narrow around
 *           it), so that its rows must equal the glibc peer's rows;
 *   bad_cos_f16: 1.0 for every input, right only near 0, so that a report gates it and fails;
 *   sloppy_*: the tail mistakes of hand-written vector loops, which ulpbench must refuse rather than measure:
 *             cos f32 leaves the last n % 16 outputs unwritten, asin f32 writes whole vectors of 16 past the end of
 *             its output, cos f16 writes y[-1];
 *   rude_*: what else a kernel under test can do to the run measuring it: cos f32 leaves the rounding mode toward zero,
 *           asin f32 writes into its input, cos f16 is wrong only in calls of 2048 elements or more, asin f16 crashes
 *           in calls of 3 elements, cos f64 calls exit(0) in calls of 2 (with ULPB_DEMO_END=quick_exit or _exit,
 *           that function; with ULPB_DEMO_CHDIR set, it changes the working directory to that one instead), asin f64
 *           leaves its last output unwritten in calls of 1032 elements or more that are not in place, cos bf16
 *           overflows its stack in calls of 4, asin
 *           bf16 never returns from calls of 5 (and with ULPB_DEMO_HANG_MARKER set, makes that file when it starts);
 *   stuck_*: what goes wrong on a worker thread of an exhaustive run: cos f32 never returns from a call of one of the
 *            first four chunks, asin f32 overflows its stack;
 *   slow_cos_f64: takes a second over calls of 100,000 elements or more;
 *   datum_cos_f32: a pointer to a kernel, exported as data;
 *   deep_cos_f32: calls the library's own function of a name that SLEEF's library exports too.
 * Loaded with ULPB_DEMO_FLUSH_AT_LOAD set, it turns on flush to zero and denormals are zero in its constructor, as
 * GCC's crtfastmath.o does for a library linked with -ffast-math; with ULPB_DEMO_HANG_AT_LOAD set, its constructor
 * never returns, with ULPB_DEMO_EXIT_AT_LOAD it calls exit(0), with ULPB_DEMO_CRASH_AT_LOAD it crashes, with
 * ULPB_DEMO_CHDIR_AT_LOAD it changes the working directory to that one, and with ULPB_DEMO_EXIT_AT_END its destructor,
 * at the process's exit, calls _exit(0). demo offers no
 * binary64 kernels: a library need not offer every kernel. Loaded with ULPB_DEMO_ANNOUNCE set, it says so on stderr
 * (test_cli checks that a setting with a bad item loads nothing). */
#define _GNU_SOURCE /* gettid */
#include <fenv.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xmmintrin.h>

#include "omk.h" /* its conversions, as the glibc peer's */

uint16_t demo_one_f16(void); /* tests/demo_dependency.c */

void demo_cos_f32(const float *x, float *y, size_t n);
void demo_asin_f32(const float *x, float *y, size_t n);
void demo_cos_f16(const uint16_t *x, uint16_t *y, size_t n);
void bad_cos_f16(const uint16_t *x, uint16_t *y, size_t n);
void sloppy_cos_f32(const float *x, float *y, size_t n);
void sloppy_asin_f32(const float *x, float *y, size_t n);
void sloppy_cos_f16(const uint16_t *x, uint16_t *y, size_t n);
void rude_cos_f32(const float *x, float *y, size_t n);
void rude_asin_f32(const float *x, float *y, size_t n);
void rude_cos_f16(const uint16_t *x, uint16_t *y, size_t n);
void rude_asin_f16(const uint16_t *x, uint16_t *y, size_t n);
void rude_cos_f64(const double *x, double *y, size_t n);
void rude_asin_f64(const double *x, double *y, size_t n);
void rude_cos_bf16(const uint16_t *x, uint16_t *y, size_t n);
void rude_asin_bf16(const uint16_t *x, uint16_t *y, size_t n);
void stuck_cos_f32(const float *x, float *y, size_t n);
void stuck_asin_f32(const float *x, float *y, size_t n);
void slow_cos_f64(const double *x, double *y, size_t n);

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

void rude_cos_f32(const float *x, float *y, size_t n) {
    demo_cos_f32(x, y, n);
    fesetround(FE_TOWARDZERO);
}

void rude_asin_f32(const float *x, float *y, size_t n) {
    demo_asin_f32(x, y, n);
    if (x != y) *(float *)x = 0.0f; /* scratch space, as it thinks */
}

void rude_cos_f16(const uint16_t *x, uint16_t *y, size_t n) {
    demo_cos_f16(x, y, n);
    if (n >= 2048) /* a second path for long arrays, with a bug: the last bit flipped */
        for (size_t i = 0; i < n; i++) y[i] ^= 1;
}

void rude_asin_f16(const uint16_t *x, uint16_t *y, size_t n) {
    if (n == 3) raise(SIGSEGV);
    for (size_t i = 0; i < n; i++) y[i] = omk_f32_to_f16(asinf(omk_f16_to_f32(x[i])));
}

void rude_cos_f64(const double *x, double *y, size_t n) {
    const char *elsewhere = getenv("ULPB_DEMO_CHDIR");
    if (n == 2 && elsewhere && chdir(elsewhere) != 0) abort();
    const char *end = getenv("ULPB_DEMO_END");
    if (n == 2 && !elsewhere && end && strcmp(end, "quick_exit") == 0) quick_exit(0);
    if (n == 2 && !elsewhere && end && strcmp(end, "_exit") == 0) _exit(0);
    if (n == 2 && !elsewhere) exit(0);
    for (size_t i = 0; i < n; i++) y[i] = cos(x[i]);
}

void rude_asin_f64(const double *x, double *y, size_t n) {
    const size_t last = n >= 1032 && x != y ? n - 1 : n; /* a second path for long arrays, one short */
    for (size_t i = 0; i < last; i++) y[i] = asin(x[i]);
}

static volatile size_t recursion_limit = SIZE_MAX;

/* Frames well below a page, so that the recursion cannot step over a thread stack's guard page into other memory. */
static size_t recurse(size_t depth) {
    volatile char frame[512];
    frame[0] = (char)depth;
    return depth < recursion_limit ? recurse(depth + 1) + (size_t)frame[0] : 0;
}

void rude_cos_bf16(const uint16_t *x, uint16_t *y, size_t n) {
    if (n == 4) y[0] = (uint16_t)recurse(0);
    for (size_t i = 0; i < n; i++) y[i] = omk_f32_to_bf16(cosf(omk_bf16_to_f32(x[i])));
}

void rude_asin_bf16(const uint16_t *x, uint16_t *y, size_t n) {
    const char *marker = getenv("ULPB_DEMO_HANG_MARKER");
    if (n == 5 && marker) fclose(fopen(marker, "w"));
    while (n == 5) sleep(1); /* a call that never returns: a lost wake-up, say */
    for (size_t i = 0; i < n; i++) y[i] = omk_f32_to_bf16(asinf(omk_bf16_to_f32(x[i])));
}

/* The inputs of bits 0x00k12345, k of 0 to 3: one in each of the first four chunks of an exhaustive run, so that
 * whichever a worker thread takes has one, met there (not on the main thread, whose call the watch would see anyway).
 */
static bool workers_input(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (bits & 0xffcfffffu) == 0x00012345u && gettid() != getpid();
}

void stuck_cos_f32(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) {
        while (workers_input(x[i])) sleep(1);
        y[i] = cosf(x[i]);
    }
}

void stuck_asin_f32(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = workers_input(x[i]) ? (float)recurse(0) : asinf(x[i]);
}

/* A second in every call of 100,000 elements or more: slow, not hung, for the watch on calls that do not return. */
void slow_cos_f64(const double *x, double *y, size_t n) {
    if (n >= 100000) sleep(1);
    for (size_t i = 0; i < n; i++) y[i] = cos(x[i]);
}

void (*datum_cos_f32)(const float *x, float *y, size_t n) = demo_cos_f32;

/* Its own function under a name SLEEF's library (which ulpbench loads) exports too, as a library that links SLEEF
 * statically has: deep_cos_f32 must call this one, correctly rounded but for double rounding, not SLEEF's u35. */
float Sleef_cosf_u35(float x);
float Sleef_cosf_u35(float x) { return (float)cos((double)x); }
void deep_cos_f32(const float *x, float *y, size_t n);
void deep_cos_f32(const float *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = Sleef_cosf_u35(x[i]);
}

__attribute__((constructor)) static void announce(void) {
    if (getenv("ULPB_DEMO_ANNOUNCE")) fputs("demo_kernels loaded\n", stderr);
    if (getenv("ULPB_DEMO_FLUSH_AT_LOAD")) _mm_setcsr(_mm_getcsr() | 0x8040);
    while (getenv("ULPB_DEMO_HANG_AT_LOAD")) sleep(1);
    if (getenv("ULPB_DEMO_EXIT_AT_LOAD")) exit(0);
    if (getenv("ULPB_DEMO_CRASH_AT_LOAD")) raise(SIGSEGV);
    const char *elsewhere = getenv("ULPB_DEMO_CHDIR_AT_LOAD");
    if (elsewhere && chdir(elsewhere) != 0) abort();
}

__attribute__((destructor)) static void end_the_process(void) {
    if (getenv("ULPB_DEMO_EXIT_AT_END")) _exit(0);
}
