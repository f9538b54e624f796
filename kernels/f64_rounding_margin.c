/* Measurement behind the binary64 rounding tests (OMK_ARRAY_LOOP_F64): how accurate the value + tail
 * results of the vectorized fast paths (cos_f64_fast, cos_f64_huge, asin_f64_fast), of the middle phases
 * (cos_f64_refine, asin_f64_refine), of the general double-double paths (cos_f64_dd, asin_f64_dd) and of the
 * fixed-point last phases before their rounding (cos_f64_fixed, asin_f64_fixed) are, and what
 * share of inputs a rounding test with relative error bound eps would send to an accurate phase (the inputs whose
 * exact result lies within eps of a binary64 rounding midpoint), and the share the fast paths' own test sends there.
 * MPFR at 300 bits is the truth.
 *   cmake --build build --target f64_rounding_margin && ./build/f64_rounding_margin [samples]
 * Samples from a fixed seed (default 10^6 per row), and for cos the double nearest a multiple of pi/2 in every
 * binade and its neighbours (closest_to_multiples_of_pio2). It also times the accurate phases of binary64 cos and asin.
 *   ./build/f64_rounding_margin --search [samples [rounds]]
 * looks for larger errors of the fast paths than sampling finds: the worst inputs of its input sets (samples each,
 * default 10^6) are kept, and each round tries 2000 neighbours of each, up to 2^44 ulps away (rounds default 20),
 * keeping any with a larger error.
 * Each row is held to the error bound its phase relies on (path_bound): exit status 1 when a measured error exceeds
 * it, so that ctest runs it on a small sample as a check of every change to the kernels. */
#include <errno.h>
#include <stdint.h>
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
/* |diff| / |exact| for diff = value - exact (overwritten): infinite for a NaN value, which must exceed every bound
 * (a NaN compares greater than nothing), and 0 for an exact zero result. */
static double relative_error(mpfr_ptr diff, mpfr_srcptr exact) {
    if (mpfr_nan_p(diff)) return INFINITY;
    if (mpfr_zero_p(exact)) return mpfr_zero_p(diff) ? 0.0 : INFINITY;
    mpfr_div(diff, diff, exact, MPFR_RNDN);
    return fabs(mpfr_get_d(diff, MPFR_RNDN));
}

static void measure(mpfr_srcptr exact, double hi, double lo, mpfr_ptr tmp, double *rel_err, double *midpoint_dist) {
    mpfr_set_d(tmp, hi, MPFR_RNDN);
    mpfr_add_d(tmp, tmp, lo, MPFR_RNDN);
    mpfr_sub(tmp, tmp, exact, MPFR_RNDN);
    *rel_err = relative_error(tmp, exact);
    const double nearest = mpfr_get_d(exact, MPFR_RNDN);
    const double toward = mpfr_cmp_d(exact, nearest) > 0 ? INFINITY : -INFINITY;
    mpfr_set_d(tmp, nearest, MPFR_RNDN);
    mpfr_add_d(tmp, tmp, (nextafter(nearest, toward) - nearest) / 2, MPFR_RNDN); /* exact: 300 bits */
    mpfr_sub(tmp, tmp, exact, MPFR_RNDN);
    mpfr_div(tmp, tmp, exact, MPFR_RNDN);
    *midpoint_dist = fabs(mpfr_get_d(tmp, MPFR_RNDN));
}

typedef enum { COS_FAST, COS_HUGE, COS_REFINE, ASIN_FAST, ASIN_REFINE, COS_DD, ASIN_DD } path;

/* exact = asin(in) or cos(in) to exact's precision (x: scratch of at least 53 bits). */
static void exact_value(int is_asin, double in, mpfr_ptr x, mpfr_ptr exact) {
    mpfr_set_d(x, in, MPFR_RNDN);
    if (is_asin)
        mpfr_asin(exact, x, MPFR_RNDN);
    else
        mpfr_cos(exact, x, MPFR_RNDN);
}
static int path_is_asin(path p) { return p == ASIN_FAST || p == ASIN_REFINE || p == ASIN_DD; }

/* The error bound each phase relies on: the fast paths' and the middle phases' rounding tests are built for theirs;
 * the double-double paths round binary32 results (f32_guard_check) and fill the 16-bit tables, said good to 2^-60;
 * the fixed-point phases are said good to 2^-139 (cos) and 2^-170 (asin) before their one rounding. */
static double path_bound(path p) {
    switch (p) {
    case COS_FAST:
    case COS_HUGE:
        return cos_F64_EPS;
    case ASIN_FAST:
        return asin_F64_EPS;
    case COS_REFINE:
    case ASIN_REFINE:
        return OMK_F64_REFINE_EPS;
    case COS_DD:
    case ASIN_DD:
        return 0x1p-60;
    }
    return 0.0;
}
enum { COS_FIXED_BOUND_LOG2 = -139, ASIN_FIXED_BOUND_LOG2 = -170 };

static int g_exceeded; /* rows whose measured error exceeds their bound */

/* "; bound 2^-N holds" or "; EXCEEDS the bound 2^-N", counting the second in g_exceeded. */
static void print_bound_check(double worst, double bound) {
    const int holds = worst <= bound;
    printf("; %s 2^%.0f", holds ? "bound" : "EXCEEDS the bound", log2(bound));
    if (holds) printf(" holds");
    g_exceeded += !holds;
}

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
/* The samples from a spread, or the inputs listed (listed_count > 0). */
static double input_at(long i, spread how, double lo_x, double hi_x, const double *listed, long listed_count) {
    const uint64_t bits = splitmix64(20261130u + (uint64_t)i);
    const double u = (double)(bits >> 11) * 0x1p-53;
    const double u2 = (double)(splitmix64(bits) >> 11) * 0x1p-53;
    return listed_count ? listed[i] : sample_input(how, lo_x, hi_x, u, u2);
}

static void run_listed(const char *name, path p, double lo_x, double hi_x, spread how, long samples,
                       const double *listed, long listed_count) {
    const int is_asin = path_is_asin(p);
    const long count = listed_count ? listed_count : samples;
    /* the fast paths' own rounding test (OMK_ARRAY_LOOP_F64): the share it sends to the accurate phases */
    const double factor = p == COS_FAST || p == COS_HUGE ? cos_F64_ROUNDING_FACTOR
                          : p == ASIN_FAST               ? asin_F64_ROUNDING_FACTOR
                                                         : 0.0;
    double worst = 0.0;
    long within[EPS_COUNT] = {0}, rejected = 0;
#pragma omp parallel
    {
        mpfr_t x, exact, tmp;
        mpfr_inits2(300, x, exact, tmp, (mpfr_ptr)0);
        double my_worst = 0.0;
        long my_within[EPS_COUNT] = {0}, my_rejected = 0;
#pragma omp for schedule(static)
        for (long i = 0; i < count; i++) {
            const double in = input_at(i, how, lo_x, hi_x, listed, listed_count);
            double tail;
            const double result = evaluate(p, in, &tail);
            my_rejected += factor != 0.0 && fma(tail, factor, result) != result;
            exact_value(is_asin, in, x, exact);
            double rel_err, dist;
            measure(exact, result, tail, tmp, &rel_err, &dist);
            if (rel_err > my_worst) my_worst = rel_err;
            for (int k = 0; k < EPS_COUNT; k++) my_within[k] += dist < ldexp(1.0, -(EPS_FIRST + EPS_STEP * k));
        }
#pragma omp critical
        {
            if (my_worst > worst) worst = my_worst;
            for (int k = 0; k < EPS_COUNT; k++) within[k] += my_within[k];
            rejected += my_rejected;
        }
        mpfr_clears(x, exact, tmp, (mpfr_ptr)0);
    }
    printf("%s, %ld %s: value + tail within 2^%.2f relative; within eps of a midpoint:", name, count,
           listed_count ? (count == 1 ? "input" : "inputs") : "samples", log2(worst));
    for (int k = 0; k < EPS_COUNT; k++)
        printf(" 2^-%d %.4f%%%s", EPS_FIRST + EPS_STEP * k, 100.0 * (double)within[k] / (double)count,
               k + 1 < EPS_COUNT ? "," : "");
    if (factor != 0.0 && rejected > 0)
        printf("; the kernel's rounding test rejects %.4f%% (1 in %.0f)", 100.0 * (double)rejected / (double)count,
               (double)count / (double)rejected);
    else if (factor != 0.0)
        printf("; the kernel's rounding test rejects none");
    print_bound_check(worst, path_bound(p));
    printf("\n");
}

static void run(const char *name, path p, double lo_x, double hi_x, spread how, long samples) {
    run_listed(name, p, lo_x, hi_x, how, samples, NULL, 0);
}

/* v 2^exponent, exactly (out of at least 256 + exponent bits). */
static void fix_to_mpfr(mpfr_ptr out, omk_fix v, int exponent, mpfr_ptr word) {
    mpfr_set_ui(out, 0, MPFR_RNDN);
    for (int k = 0; k < 4; k++) {
        mpfr_set_ui_2exp(word, (unsigned long)v.w[k], -64 * (k + 1) + exponent, MPFR_RNDN); /* exact: 64 bits */
        mpfr_add(out, out, word, MPFR_RNDN);                                                /* exact: 400 bits */
    }
}

/* The last phases (cos_f64_fixed, asin_f64_fixed) before their one rounding, against MPFR at 400 bits: the largest
 * relative error of the 256-bit fixed-point result and the input that gave it, over samples from a spread or over the
 * inputs listed (listed_count > 0). */
static void run_fixed(const char *name, int is_asin, double lo_x, double hi_x, spread how, long samples,
                      const double *listed, long listed_count) {
    const long count = listed_count ? listed_count : samples;
    double worst = 0.0, worst_input = 0.0;
#pragma omp parallel
    {
        mpfr_t x, exact, value, word;
        mpfr_inits2(400, x, exact, value, word, (mpfr_ptr)0);
        double my_worst = 0.0, my_input = 0.0;
#pragma omp for schedule(dynamic, 64)
        for (long i = 0; i < count; i++) {
            const double in = fabs(input_at(i, how, lo_x, hi_x, listed, listed_count));
            int exponent = 0, negative = 0;
            const omk_fix v = is_asin ? asin_f64_fixed_unrounded(in, asin_f64_refine(in), &exponent)
                                      : cos_f64_fixed_unrounded(omk_bits64(in), &negative);
            fix_to_mpfr(value, v, exponent, word);
            if (negative) mpfr_neg(value, value, MPFR_RNDN);
            exact_value(is_asin, in, x, exact);
            mpfr_sub(value, value, exact, MPFR_RNDN);
            const double rel_err = relative_error(value, exact);
            if (rel_err > my_worst || (rel_err == my_worst && in > my_input)) {
                my_worst = rel_err;
                my_input = in;
            }
        }
#pragma omp critical
        if (my_worst > worst || (my_worst == worst && my_input > worst_input)) {
            worst = my_worst;
            worst_input = my_input;
        }
        mpfr_clears(x, exact, value, word, (mpfr_ptr)0);
    }
    printf("%s, %ld inputs: within 2^%.2f relative before rounding (largest at %a)", name, count, log2(worst),
           worst_input);
    print_bound_check(worst, ldexp(1.0, is_asin ? ASIN_FIXED_BOUND_LOG2 : COS_FIXED_BOUND_LOG2));
    printf("\n");
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

/* Error of the value + tail path p at in, against MPFR (t and e: 300-bit scratch). */
static double path_error(path p, double in, mpfr_ptr t, mpfr_ptr e) {
    double tail, rel_err, dist;
    const double result = evaluate(p, in, &tail);
    exact_value(path_is_asin(p), in, t, e);
    measure(e, result, tail, t, &rel_err, &dist);
    return rel_err;
}

enum { SEARCH_KEEP = 64, SEARCH_TRIES = 2000 };
typedef struct {
    double input, error;
} found;

/* Adds f to the list (count kept, at most SEARCH_KEEP, largest error first) if it is among the largest. */
static void keep_largest(found *list, int *count, found f) {
    int i = SEARCH_KEEP - 1;
    if (*count < SEARCH_KEEP)
        i = (*count)++;
    else if (list[i].error >= f.error)
        return;
    for (; i > 0 && list[i - 1].error < f.error; i--) list[i] = list[i - 1];
    list[i] = f;
}

/* The largest error of path p over its input sets (samples each, from the same seeds as the sampled rows), then
 * rounds of local search: a neighbour of a kept input (an offset of up to 2^s ulps, s uniform in 0..44, within
 * [lo_x, hi_x)) replaces it when its error is larger. The same arguments give the same result on any thread count. */
static void search(const char *name, path p, double lo_x, double hi_x, const spread *spreads, int spread_count,
                   long samples, long rounds) {
    found kept[SEARCH_KEEP];
    int kept_count = 0;
    double sampled_worst = 0.0;
    for (int s = 0; s < spread_count; s++) {
#pragma omp parallel
        {
            mpfr_t t, e;
            mpfr_inits2(300, t, e, (mpfr_ptr)0);
            found mine[SEARCH_KEEP];
            int mine_count = 0;
#pragma omp for schedule(static)
            for (long i = 0; i < samples; i++) {
                const double in = fabs(input_at(i, spreads[s], lo_x, hi_x, NULL, 0));
                if (!(in >= lo_x && in < hi_x)) continue;
                const found f = {in, path_error(p, in, t, e)};
                keep_largest(mine, &mine_count, f);
            }
#pragma omp critical
            for (int k = 0; k < mine_count; k++) keep_largest(kept, &kept_count, mine[k]);
            mpfr_clears(t, e, (mpfr_ptr)0);
        }
    }
    if (kept_count > 0) sampled_worst = kept[0].error;
    for (long r = 0; r < rounds; r++) {
#pragma omp parallel
        {
            mpfr_t t, e;
            mpfr_inits2(300, t, e, (mpfr_ptr)0);
#pragma omp for schedule(dynamic, 1)
            for (int c = 0; c < kept_count; c++) {
                for (int j = 0; j < SEARCH_TRIES; j++) {
                    const uint64_t bits = splitmix64((uint64_t)r << 40 ^ (uint64_t)c << 20 ^ (uint64_t)j);
                    const unsigned scale = (unsigned)(bits % 45);
                    const uint64_t offset = (bits >> 8) & ((1ull << scale) - 1);
                    const uint64_t at = omk_bits64(kept[c].input);
                    const double in = omk_double_from_bits((bits >> 7) & 1 ? at + offset : at - offset);
                    if (!(in >= lo_x && in < hi_x)) continue;
                    const double error = path_error(p, in, t, e);
                    if (error > kept[c].error) kept[c] = (found){in, error};
                }
            }
            mpfr_clears(t, e, (mpfr_ptr)0);
        }
    }
    double worst = 0.0, worst_input = 0.0;
    for (int c = 0; c < kept_count; c++)
        if (kept[c].error > worst) worst = kept[c].error, worst_input = kept[c].input;
    printf("%s: %ld samples per input set, largest error 2^%.2f; after %ld round%s of %d neighbours of the %d worst: "
           "2^%.2f at %a",
           name, samples, log2(sampled_worst), rounds, rounds == 1 ? "" : "s", SEARCH_TRIES, kept_count, log2(worst),
           worst_input);
    print_bound_check(worst, path_bound(p));
    printf("\n");
}

static int search_main(int argc, char **argv) {
    long values[2] = {1000000, 20};
    int valid = argc <= 2;
    for (int i = 0; valid && i < argc; i++) {
        char *end = NULL;
        errno = 0;
        values[i] = strtol(argv[i], &end, 10);
        valid = !errno && !*end && end != argv[i] && values[i] >= (i == 0 ? 1 : 0);
    }
    if (!valid) {
        fprintf(stderr, "usage: f64_rounding_margin --search [samples >= 1 [rounds >= 0]]\n");
        return 2;
    }
    static const spread cos_sets[] = {CELL_EDGE, NEAR_ZERO, UNIFORM}, asin_sets[] = {UNIFORM, LOG_UNIFORM};
    search("cos fast path, |x| < 2^20", COS_FAST, 0x1p-27, 0x1p20, cos_sets, 3, values[0], values[1]);
    search("cos huge path, 2^20 <= |x| < 2^40", COS_HUGE, 0x1p20, 0x1p40, cos_sets, 3, values[0], values[1]);
    search("asin fast path, 2^-30 <= |x| < 1", ASIN_FAST, 0x1p-30, 1.0, asin_sets, 2, values[0], values[1]);
    return g_exceeded ? 1 : 0;
}

/* The binary64 number nearest a multiple of pi/2 in each binade 2^e <= x < 2^(e+1), e = 0 .. 1023, where cos or its
 * reduction's remainder is smallest relative to the rounding of x: x = m 2^(e-52), m in [2^52, 2^53), with m beta
 * nearest an integer for beta = frac(2^(e-52) 2/pi). The best approximations of beta with m in that range are among
 * the smallest and largest multiples there of the continued fraction's convergent denominators q and its largest
 * semiconvergent (q_prev + j q); out[e] is the best of those (closest_checked_by_enumeration compares it with every
 * k pi/2 below 2^23). */
static void closest_to_multiples_of_pio2(double out[1024]) {
    enum { MAX_CANDIDATES = 1024 };
    const uint64_t lo_m = 1ull << 52, hi_m = 1ull << 53; /* m in [lo_m, hi_m) */
    mpfr_t beta, y, t, dist;
    mpfr_inits2(1400, beta, y, t, dist, (mpfr_ptr)0);
    for (int e = 0; e <= 1023; e++) {
        mpfr_const_pi(beta, MPFR_RNDN);
        mpfr_ui_div(beta, 2, beta, MPFR_RNDN);
        mpfr_mul_2si(beta, beta, e - 52, MPFR_RNDN);
        mpfr_frac(beta, beta, MPFR_RNDN);
        uint64_t candidates[MAX_CANDIDATES];
        int n = 0;
        uint64_t q_prev = 0, q = 1; /* convergent denominators, while q < 2^53 */
        mpfr_set(y, beta, MPFR_RNDN);
        for (int step = 0; step < 300 && n + 3 <= MAX_CANDIDATES; step++) {
            const uint64_t first = (lo_m + q - 1) / q * q; /* the smallest and the largest multiple of q in range */
            if (first < hi_m) candidates[n++] = first, candidates[n++] = (hi_m - 1) / q * q;
            if (mpfr_zero_p(y)) break;
            mpfr_ui_div(y, 1, y, MPFR_RNDN); /* the next partial quotient a */
            mpfr_floor(t, y);
            mpfr_sub(y, y, t, MPFR_RNDN);
            /* a q + q_prev >= 2^53 (a too large for 64 bits among them): the last level; its semiconvergents
             * q_prev + j q, j < a, in range end in the largest one */
            const uint64_t a_max = (hi_m - 1 - q_prev) / q; /* the largest j with q_prev + j q < 2^53 */
            const int last = mpfr_cmp_ui(t, a_max) > 0;
            const uint64_t a = last ? a_max : (uint64_t)mpfr_get_ui(t, MPFR_RNDZ);
            if (a >= 1 && q_prev + a * q >= lo_m) candidates[n++] = q_prev + a * q;
            if (last || a == 0) break;
            const uint64_t q_next = a * q + q_prev;
            q_prev = q, q = q_next;
        }
        double best_m = 0.0, best_d = INFINITY;
        for (int c = 0; c < n; c++) {
            mpfr_mul_ui(dist, beta, candidates[c], MPFR_RNDN); /* exact: 1400 bits */
            mpfr_round(t, dist);
            mpfr_sub(dist, dist, t, MPFR_RNDN);
            const double d = fabs(mpfr_get_d(dist, MPFR_RNDN));
            if (d < best_d) best_d = d, best_m = (double)candidates[c];
        }
        out[e] = ldexp(best_m, e - 52);
    }
    mpfr_clears(beta, y, t, dist, (mpfr_ptr)0);
}

/* The generator's check where enumeration is cheap: in each binade 2^e, 0 <= e <= 22, the double nearest a multiple of
 * pi/2, found among the roundings of every k pi/2 there, is the generator's. Returns how many binades disagree. */
static int closest_checked_by_enumeration(const double closest[1024]) {
    mpfr_t pio2, v, d;
    mpfr_inits2(400, pio2, v, d, (mpfr_ptr)0);
    mpfr_const_pi(pio2, MPFR_RNDN);
    mpfr_div_2ui(pio2, pio2, 1, MPFR_RNDN);
    int disagree = 0;
    for (int e = 0; e <= 22; e++) {
        double best = INFINITY, best_x = 0.0;
        for (long k = (long)(ldexp(1.0, e) / 1.5707963267948966);; k++) {
            mpfr_mul_si(v, pio2, k, MPFR_RNDN);
            const double x = mpfr_get_d(v, MPFR_RNDN);
            if (x >= ldexp(1.0, e + 1)) break;
            if (x < ldexp(1.0, e)) continue;
            mpfr_set_d(d, x, MPFR_RNDN);
            mpfr_sub(d, d, v, MPFR_RNDN);
            const double distance = fabs(mpfr_get_d(d, MPFR_RNDN));
            if (distance < best) best = distance, best_x = x;
        }
        if (closest[e] != best_x) {
            printf("the double nearest a multiple of pi/2 in [2^%d, 2^%d): enumeration finds %a, the generator %a\n", e,
                   e + 1, best_x, closest[e]);
            disagree++;
        }
    }
    mpfr_clears(pio2, v, d, (mpfr_ptr)0);
    return disagree;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--search") == 0) return search_main(argc - 2, argv + 2);
    char *end = NULL;
    errno = 0;
    const long samples = argc > 1 ? strtol(argv[1], &end, 10) : 1000000;
    if (argc > 2 || samples < 1 || errno || (end && (*end || end == argv[1]))) {
        const int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
        fprintf(help ? stdout : stderr, "usage: f64_rounding_margin [samples >= 1]\n"
                                        "       f64_rounding_margin --search [samples >= 1 [rounds >= 0]]\n");
        return help ? 0 : 2;
    }
    time_accurate();
    /* the double closest to a multiple of pi/2 (6381956970095103 2^797, |cos x| about 2^-61), and those nearest pi/2,
     * pi and 3 pi/2 */
    static const double near_multiples_of_pio2[] = {0x1.6ac5b262ca1ffp+849, 0x1.921fb54442d18p+0, 0x1.921fb54442d18p+1,
                                                    0x1.2d97c7f3321d2p+2};
    const double pi = 3.141592653589793;
    run("cos fast path [-pi, pi]", COS_FAST, -pi, pi, UNIFORM, samples);
    run("cos fast path [-1e4, 1e4]", COS_FAST, -1e4, 1e4, UNIFORM, samples);
    run("cos fast path [2^-27, 2^20], log-uniform", COS_FAST, 0x1p-27, 0x1p20, LOG_UNIFORM, samples);
    run("cos fast path near (k + 1/2) pi < 2^20", COS_FAST, 0, 0x1p20, NEAR_ZERO, samples);
    run("cos fast path at the cell edges next to the zeros < 2^20", COS_FAST, 0, 0x1p20, CELL_EDGE, samples);
    run("cos huge path [2^20, 2^1023], log-uniform", COS_HUGE, 0x1p20, 0x1p1023, LOG_UNIFORM, samples);
    run("cos huge path near (k + 1/2) pi < 2^40", COS_HUGE, 0, 0x1p40, NEAR_ZERO, samples);
    run("cos huge path at the cell edges next to the zeros < 2^40", COS_HUGE, 0x1p20, 0x1p40, CELL_EDGE, samples);
    run_listed("cos huge path at the double closest to a multiple of pi/2", COS_HUGE, 0, 0, UNIFORM, 0,
               near_multiples_of_pio2, 1);
    /* the double nearest a multiple of pi/2 in every binade from 1 to 2^1024, and its two neighbours on either side */
    static double nearest[1024], closest[1024 * 5];
    closest_to_multiples_of_pio2(nearest);
    long closest_count = 0, below_2p20 = 0, found_known = 0;
    for (int e = 0; e < 1024; e++) {
        found_known += nearest[e] == near_multiples_of_pio2[0];
        const double around[5] = {nextafter(nextafter(nearest[e], 0), 0), nextafter(nearest[e], 0), nearest[e],
                                  nextafter(nearest[e], INFINITY),
                                  nextafter(nextafter(nearest[e], INFINITY), INFINITY)};
        for (int k = 0; k < 5; k++) {
            closest[closest_count++] = around[k];
            below_2p20 += around[k] < 0x1p20;
        }
    }
    /* the generator's own checks: it finds the one known from the literature, and what enumeration finds */
    int generator_wrong = closest_checked_by_enumeration(nearest);
    if (!found_known) {
        printf("the doubles nearest multiples of pi/2: %a is not among them; FAILED\n", near_multiples_of_pio2[0]);
        generator_wrong++;
    }
    run_listed("cos fast path at the double nearest a multiple of pi/2 in each binade [1, 2^20), +-2 ulps", COS_FAST, 0,
               0, UNIFORM, 0, closest, below_2p20);
    run_listed("cos huge path at the double nearest a multiple of pi/2 in each binade [2^20, 2^1024), +-2 ulps",
               COS_HUGE, 0, 0, UNIFORM, 0, closest + below_2p20, closest_count - below_2p20);
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
    const long fixed_samples = samples / 10 > 0 ? samples / 10 : 1;
    run_fixed("cos fixed-point phase [-1e4, 1e4]", 0, -1e4, 1e4, UNIFORM, fixed_samples, NULL, 0);
    run_fixed("cos fixed-point phase [2^-27, 2^1023], log-uniform", 0, 0x1p-27, 0x1p1023, LOG_UNIFORM, fixed_samples,
              NULL, 0);
    run_fixed("cos fixed-point phase near (k + 1/2) pi < 2^20", 0, 0, 0x1p20, NEAR_ZERO, fixed_samples, NULL, 0);
    run_fixed("cos fixed-point phase at the doubles closest to multiples of pi/2", 0, 0, 0, UNIFORM, 0,
              near_multiples_of_pio2, sizeof near_multiples_of_pio2 / sizeof near_multiples_of_pio2[0]);
    run_fixed("cos fixed-point phase at the double nearest a multiple of pi/2 in each binade, +-2 ulps", 0, 0, 0,
              UNIFORM, 0, closest, closest_count);
    run_fixed("asin fixed-point phase [2^-26, 1)", 1, 0x1p-26, 1.0, UNIFORM, fixed_samples, NULL, 0);
    run_fixed("asin fixed-point phase [2^-26, 2^-6], log-uniform", 1, 0x1p-26, 0x1p-6, LOG_UNIFORM, fixed_samples, NULL,
              0);
    run_fixed("asin fixed-point phase 1 - [2^-53, 2^-6], log-uniform", 1, 0x1p-53, 0x1p-6, NEAR_ONE, fixed_samples,
              NULL, 0);
    run_fixed("asin fixed-point phase [0.69, 0.72]", 1, 0.69, 0.72, UNIFORM, fixed_samples, NULL, 0);
    if (g_exceeded)
        fprintf(stderr, "f64_rounding_margin: %d row%s the bound %s phase relies on\n", g_exceeded,
                g_exceeded == 1 ? " exceeds" : "s exceed", g_exceeded == 1 ? "its" : "their");
    if (generator_wrong)
        fprintf(stderr, "f64_rounding_margin: the doubles nearest multiples of pi/2 are wrong in %d binade%s\n",
                generator_wrong, generator_wrong == 1 ? "" : "s");
    return g_exceeded || generator_wrong ? 1 : 0;
}
