/* Measurement for a correctly rounded binary64 path (not done yet, README "Not done yet"): how
 * accurate the double-double results of cos_f64_dd and asin_f64_dd are, and what share of inputs
 * a rounding test with relative error bound eps would send to an accurate phase (the inputs whose
 * exact result lies within eps of a binary64 rounding midpoint). MPFR at 300 bits is the truth.
 *   cmake --build build --target f64_rounding_margin && ./build/f64_rounding_margin [samples]
 * Samples are uniform in each range from a fixed seed (default 10^6, about 12 s on 2 cores). */
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

static void run(const char *name, int is_asin, double lo_x, double hi_x, long samples) {
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
            const double u = (double)(splitmix64(20261130u + (uint64_t)i) >> 11) * 0x1p-53;
            const double in = lo_x + (hi_x - lo_x) * u;
            double tail;
            const double result = is_asin ? asin_f64_dd(in, &tail) : cos_f64_dd(in, &tail);
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
    printf("%s, %ld samples: double-double result within 2^%.2f relative; within eps of a midpoint:", name, samples,
           log2(worst));
    for (int k = 0; k < EPS_COUNT; k++)
        printf(" 2^-%d %.4f%%%s", EPS_FIRST + EPS_STEP * k, 100.0 * (double)within[k] / (double)samples,
               k + 1 < EPS_COUNT ? "," : "\n");
}

int main(int argc, char **argv) {
    char *end = NULL;
    errno = 0;
    const long samples = argc > 1 ? strtol(argv[1], &end, 10) : 1000000;
    if (argc > 2 || samples < 1 || errno || (end && (*end || end == argv[1]))) {
        fprintf(stderr, "usage: f64_rounding_margin [samples >= 1]\n");
        return 2;
    }
    run("asin [-1, 1]", 1, -1.0, 1.0, samples);
    run("cos [-pi, pi]", 0, -3.141592653589793, 3.141592653589793, samples);
    run("cos [-1e4, 1e4]", 0, -1e4, 1e4, samples);
    return 0;
}
