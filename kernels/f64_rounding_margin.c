/* Measurement behind the binary64 rounding tests (OMK_ARRAY_LOOP_F64): how accurate the value + tail
 * results of the vectorized fast paths (cos_f64_fast, cos_f64_huge, asin_f64_fast), of the middle phases
 * (cos_f64_refine, asin_f64_refine) and of the general double-double paths (cos_f64_dd, asin_f64_dd) are, and what
 * share of inputs a rounding test with relative error bound eps would send to an accurate phase (the inputs whose
 * exact result lies within eps of a binary64 rounding midpoint). MPFR at 300 bits is the truth.
 *   cmake --build build --target f64_rounding_margin && ./build/f64_rounding_margin [samples]
 * Samples from a fixed seed (default 10^6 per row). It also times the accurate phases of binary64 cos and asin. */
#include <errno.h>
#include <mpfr.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "asin.c"
#include "cos.c"

enum { EPS_FIRST = 58, EPS_COUNT = 7, EPS_STEP = 2 }; /* eps = 2^-58, 2^-60, ..., 2^-70 */

static uint64_t splitmix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* |(hi + lo) / exact - 1| and the relative distance of exact from the nearest binary64 midpoint. */
static void measure(mpfr_srcptr exact, double hi, double lo, mpfr_ptr tmp, double *rel_err, double *midpoint_dist) {
    mpfr_set_d(tmp, hi, MPFR_RNDN);
    mpfr_add_d(tmp, tmp, lo, MPFR_RNDN);
    mpfr_sub(tmp, tmp, exact, MPFR_RNDN);
    mpfr_div(tmp, tmp, exact, MPFR_RNDN);
    *rel_err = fabs(mpfr_get_d(tmp, MPFR_RNDN));
    const double nearest = mpfr_get_d(exact, MPFR_RNDN);
    const double toward = mpfr_cmp_d(exact, nearest) > 0 ? INFINITY : -INFINITY;
    mpfr_set_d(tmp, nearest, MPFR_RNDN);
    mpfr_add_d(tmp, tmp, (nextafter(nearest, toward) - nearest) / 2, MPFR_RNDN); /* exact: 300 bits */
    mpfr_sub(tmp, tmp, exact, MPFR_RNDN);
    mpfr_div(tmp, tmp, exact, MPFR_RNDN);
    *midpoint_dist = fabs(mpfr_get_d(tmp, MPFR_RNDN));
}

typedef enum { COS_FAST, COS_HUGE, COS_REFINE, ASIN_FAST, ASIN_REFINE, COS_DD, ASIN_DD } path;

/* The paths that return value + tail, in path order. */
static omk_f64_result (*const value_tail_paths[])(double) = {cos_f64_fast, cos_f64_huge, cos_f64_refine, asin_f64_fast,
                                                             asin_f64_refine};

static double evaluate(path p, double in, double *tail) {
    if (p == COS_DD) return cos_f64_dd(in, tail);
    if (p == ASIN_DD) return asin_f64_dd(in, tail);
    const omk_f64_result r = value_tail_paths[p](in);
    *tail = r.tail;
    return r.value;
}

typedef enum { UNIFORM, LOG_UNIFORM, NEAR_ZERO, CELL_EDGE, NEAR_ONE } spread;

/* The input for sample u, u2 (uniform in [0, 1)): uniform in [lo_x, hi_x], or with a uniform exponent
 * (LOG_UNIFORM), or (NEAR_ZERO) the double nearest (k + 1/2) pi plus a uniform offset within pi/64, k uniform below
 * hi_x/pi, where cos is small and the table step's terms cancel most; or (CELL_EDGE) within 2^-10 of a table cell's
 * edge, |r| near pi/1024, in the four cells next to each zero of cos below hi_x, where the series term is largest
 * against the result. */
static double sample_input(spread how, double lo_x, double hi_x, double u, double u2) {
    const double pi = 3.141592653589793;
    if (how == LOG_UNIFORM) return exp2(log2(lo_x) + u * (log2(hi_x) - log2(lo_x)));
    if (how == NEAR_ONE) return 1.0 - exp2(log2(lo_x) + u * (log2(hi_x) - log2(lo_x))); /* 1 - distance */
    if (how == NEAR_ZERO) return ((double)(uint64_t)(u * hi_x / pi) + 0.5) * pi + (u2 - 0.5) * (pi / 32);
    if (how == CELL_EDGE) {
        static const double cells[4] = {255, 257, 767, 769}; /* k mod 1024 next to pi/2 and 3 pi/2 */
        const uint64_t pick = (uint64_t)(u2 * 8);            /* cell and side */
        const double turn = (double)(uint64_t)(u * hi_x / (2 * pi)), side = pick & 1 ? 1.0 : -1.0;
        const double offset = side * (0.5 - ldexp(u2 * 8 - (double)pick, -10)); /* in cell widths */
        return (1024 * turn + cells[pick >> 1] + offset) * (pi / 512);
    }
    return lo_x + (hi_x - lo_x) * u;
}
static void run(const char *name, path p, double lo_x, double hi_x, spread how, long samples) {
    const int is_asin = p == ASIN_FAST || p == ASIN_REFINE || p == ASIN_DD;
    double worst = 0.0;
    long within[EPS_COUNT] = {0};
#pragma omp parallel
    {
        mpfr_t x, exact, tmp;
        mpfr_inits2(300, x, exact, tmp, (mpfr_ptr)0);
        double my_worst = 0.0;
        long my_within[EPS_COUNT] = {0};
#pragma omp for schedule(static)
        for (long i = 0; i < samples; i++) {
            const uint64_t bits = splitmix64(20261130u + (uint64_t)i);
            const double u = (double)(bits >> 11) * 0x1p-53;
            const double u2 = (double)(splitmix64(bits) >> 11) * 0x1p-53;
            const double in = sample_input(how, lo_x, hi_x, u, u2);
            double tail;
            const double result = evaluate(p, in, &tail);
            mpfr_set_d(x, in, MPFR_RNDN);
            if (is_asin)
                mpfr_asin(exact, x, MPFR_RNDN);
            else
                mpfr_cos(exact, x, MPFR_RNDN);
            double rel_err, dist;
            measure(exact, result, tail, tmp, &rel_err, &dist);
            if (rel_err > my_worst) my_worst = rel_err;
            for (int k = 0; k < EPS_COUNT; k++) my_within[k] += dist < ldexp(1.0, -(EPS_FIRST + EPS_STEP * k));
        }
#pragma omp critical
        {
            if (my_worst > worst) worst = my_worst;
            for (int k = 0; k < EPS_COUNT; k++) within[k] += my_within[k];
        }
        mpfr_clears(x, exact, tmp, (mpfr_ptr)0);
    }
    printf("%s, %ld samples: value + tail within 2^%.2f relative; within eps of a midpoint:", name, samples,
           log2(worst));
    for (int k = 0; k < EPS_COUNT; k++)
        printf(" 2^-%d %.4f%%%s", EPS_FIRST + EPS_STEP * k, 100.0 * (double)within[k] / (double)samples,
               k + 1 < EPS_COUNT ? "," : "\n");
}

static double asin_fixed_alone(double x) { return asin_f64_fixed(x, asin_f64_refine(x)); }

/* The cost of the phases that rejected lanes take, one thread, inputs uniform in [-1e4, 1e4] (cos) and [-1, 1]
 * (asin): the double-double phase and the fixed-point one (their costs hardly depend on the input). */
static void time_accurate(void) {
    enum { CALLS = 20000 };
    double (*const phases[4])(double) = {cos_f64_accurate, cos_f64_fixed, asin_f64_accurate, asin_fixed_alone};
    const char *const names[4] = {"cos_f64_accurate (double-double phase, fixed point when undecided)",
                                  "cos_f64_fixed (fixed-point phase alone)",
                                  "asin_f64_accurate (double-double phase, fixed point when undecided)",
                                  "asin_f64_fixed (fixed-point phase, after the double-double one)"};
    for (int p = 0; p < 4; p++) {
        const double range = p < 2 ? 1e4 : 1.0;
        double sum = 0.0;
        const double start = omp_get_wtime();
        for (int i = 0; i < CALLS; i++)
            sum += phases[p](range * (2.0 * (double)(splitmix64(7u + (uint64_t)i) >> 11) * 0x1p-53 - 1.0));
        const double seconds = omp_get_wtime() - start;
        printf("%s: %.0f ns per call (%d calls, checksum %.6f)\n", names[p], seconds / CALLS * 1e9, CALLS, sum);
    }
}

int main(int argc, char **argv) {
    char *end = NULL;
    errno = 0;
    const long samples = argc > 1 ? strtol(argv[1], &end, 10) : 1000000;
    if (argc > 2 || samples < 1 || errno || (end && (*end || end == argv[1]))) {
        fprintf(stderr, "usage: f64_rounding_margin [samples >= 1]\n");
        return 2;
    }
    time_accurate();
    const double pi = 3.141592653589793;
    run("cos fast path [-pi, pi]", COS_FAST, -pi, pi, UNIFORM, samples);
    run("cos fast path [-1e4, 1e4]", COS_FAST, -1e4, 1e4, UNIFORM, samples);
    run("cos fast path [2^-27, 2^20], log-uniform", COS_FAST, 0x1p-27, 0x1p20, LOG_UNIFORM, samples);
    run("cos fast path near (k + 1/2) pi < 2^20", COS_FAST, 0, 0x1p20, NEAR_ZERO, samples);
    run("cos fast path at the cell edges next to the zeros < 2^20", COS_FAST, 0, 0x1p20, CELL_EDGE, samples);
    run("cos huge path [2^20, 2^1023], log-uniform", COS_HUGE, 0x1p20, 0x1p1023, LOG_UNIFORM, samples);
    run("cos huge path near (k + 1/2) pi < 2^40", COS_HUGE, 0, 0x1p40, NEAR_ZERO, samples);
    run("cos huge path at the cell edges next to the zeros < 2^40", COS_HUGE, 0x1p20, 0x1p40, CELL_EDGE, samples);
    run("cos middle phase (cos_f64_refine) [2^-27, 2^20], log-uniform", COS_REFINE, 0x1p-27, 0x1p20, LOG_UNIFORM,
        samples);
    run("cos middle phase at the cell edges next to the zeros < 2^20", COS_REFINE, 0, 0x1p20, CELL_EDGE, samples);
    run("cos middle phase near (k + 1/2) pi < 2^20", COS_REFINE, 0, 0x1p20, NEAR_ZERO, samples);
    run("cos double-double [-pi, pi]", COS_DD, -pi, pi, UNIFORM, samples);
    run("asin double-double [-1, 1]", ASIN_DD, -1.0, 1.0, UNIFORM, samples);
    run("asin fast path [-1, 1]", ASIN_FAST, -1.0, 1.0, UNIFORM, samples);
    run("asin fast path [2^-30, 2^-6], log-uniform (the first cell)", ASIN_FAST, 0x1p-30, 0x1p-6, LOG_UNIFORM, samples);
    run("asin fast path [0.69, 0.72] (the two sides meet at 2^-1/2)", ASIN_FAST, 0.69, 0.72, UNIFORM, samples);
    run("asin fast path 1 - [2^-53, 2^-6], log-uniform", ASIN_FAST, 0x1p-53, 0x1p-6, NEAR_ONE, samples);
    run("asin middle phase (asin_f64_refine) [-1, 1]", ASIN_REFINE, -1.0, 1.0, UNIFORM, samples);
    run("asin middle phase [2^-30, 2^-6], log-uniform", ASIN_REFINE, 0x1p-30, 0x1p-6, LOG_UNIFORM, samples);
    run("asin middle phase [0.69, 0.72]", ASIN_REFINE, 0.69, 0.72, UNIFORM, samples);
    run("asin middle phase 1 - [2^-53, 2^-6], log-uniform", ASIN_REFINE, 0x1p-53, 0x1p-6, NEAR_ONE, samples);
    return 0;
}
