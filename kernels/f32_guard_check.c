/* Proof run for the binary32 fast paths (cos: |x| < 2^20, asin: |x| < 1), over every binary32
 * input they take:
 *   1. the largest distance, in binary64 ulps, between the fast binary64 approximation and the
 *      double-double evaluation (error below 2^-60) must stay far below OMK_F32_GUARD, so every
 *      result not flagged ambiguous rounds correctly;
 *   2. every flagged input (72,424 for cos, 6,528 for asin) is compared with MPFR's correctly rounded value;
 *   3. the same two checks for cos's second vectorized path (cos_f32_huge, finite |x| >= 2^20);
 *   4. finite inputs no vectorized path covers take the general path, which rounds a double-double with
 *      error below 2^-60 relative (cos.c, asin.c): those whose high part lies within one binary64 ulp
 *      of a binary32 midpoint are compared with MPFR. Since cos_f32_huge these are asin's |x| >= 1
 *      alone (NaN, or +-pi/2 at +-1); the step stays so that a narrower fast path stays covered.
 * Together: omk's binary32 cos and asin are correctly rounded on every input.
 *   cmake --build build --target f32_guard_check && ./build/f32_guard_check   (~5 min, 2 cores) */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "ref.h"
#include "asin.c"
#include "cos.c"

typedef double (*fast_fn)(float);
typedef double (*dd_fn)(double, double *);

/* Distance in binary64 ulps of the result, |approx - (hi + lo)| / ulp(hi). */
static double ulps_apart(double approx, double hi, double lo) {
    const double ulp = omk_double_from_bits((omk_bits64(fabs(hi)) & 0x7ff0000000000000ull)) * 0x1p-52;
    return fabs((approx - hi) - lo) / ulp;
}

typedef struct {
    double worst;
    uint32_t worst_bits;
    uint64_t checked;
} path_stats;

static void path_record(path_stats *p, double d, uint32_t bits) {
    p->checked++;
    if (d > p->worst) p->worst = d, p->worst_bits = bits;
}

static void path_merge(path_stats *into, const path_stats *p) {
    into->checked += p->checked;
    if (p->worst > into->worst) into->worst = p->worst, into->worst_bits = p->worst_bits;
}

/* huge: the vectorized path for finite inputs outside the fast path (cos |x| >= 2^20), or NULL. */
static int check(const char *name, ref_op op, int odd, fast_fn fast, fast_fn huge, dd_fn dd, float (*accurate)(float),
                 int (*slow)(double)) {
    static const ref_format binary32 = {24, 8};
    path_stats fast_stats = {0}, huge_stats = {0};
    uint64_t ambiguous = 0, ambiguous_wrong = 0, general_checked = 0;
#pragma omp parallel
    {
        path_stats my_fast = {0}, my_huge = {0};
        uint64_t my_ambiguous = 0, my_wrong = 0, my_general_checked = 0;
#pragma omp for schedule(dynamic, 1)
        for (uint32_t hi_part = 0; hi_part < 65536; hi_part++) {
            for (uint32_t lo_part = 0; lo_part < 65536; lo_part++) {
                const uint32_t bits = hi_part << 16 | lo_part;
                const double x = (double)omk_float_from_bits(bits);
                if (isnan(x) || isinf(x)) continue;
                const int on_huge = slow(x) && huge;
                if (slow(x) && !on_huge) {
                    /* The general path rounds its double-double: it can only err when hi is within
                     * one binary64 ulp of a binary32 midpoint (its error is far below that). */
                    double lo;
                    const double hi = dd(x, &lo);
                    const uint64_t low = omk_bits64(hi) & 0x1fffffff;
                    if (low + 1 - 0x10000000u > 2) continue;
                    ref_value v;
                    ref_eval(op, &binary32, x, &v);
                    my_general_checked++;
                    my_wrong += (double)accurate((float)x) != v.rounded;
                    continue;
                }
                double lo;
                const double exact = dd(x, &lo), path_x = (on_huge ? huge : fast)((float)x);
                const double approx = odd ? copysign(path_x, x) : path_x; /* asin's fast path returns |asin x| */
                path_record(on_huge ? &my_huge : &my_fast, ulps_apart(approx, exact, lo), bits);
                if (omk_f32_rounding_ambiguous(approx)) {
                    ref_value v;
                    ref_eval(op, &binary32, x, &v);
                    my_ambiguous++;
                    my_wrong += (double)accurate((float)x) != v.rounded;
                }
            }
        }
#pragma omp critical
        {
            path_merge(&fast_stats, &my_fast);
            path_merge(&huge_stats, &my_huge);
            ambiguous += my_ambiguous;
            ambiguous_wrong += my_wrong;
            general_checked += my_general_checked;
        }
    }
    printf("%s: fast path %" PRIu64 " inputs, max distance %.2f binary64 ulps (guard %d) at 0x%08" PRIx32, name,
           fast_stats.checked, fast_stats.worst, OMK_F32_GUARD, fast_stats.worst_bits);
    if (huge)
        printf("; huge path %" PRIu64 " inputs, max distance %.2f at 0x%08" PRIx32, huge_stats.checked,
               huge_stats.worst, huge_stats.worst_bits);
    printf("; %" PRIu64 " redone through the accurate path; %" PRIu64
           " general-path inputs near a midpoint checked with MPFR; %" PRIu64 " misrounded\n",
           ambiguous, general_checked, ambiguous_wrong);
    return fast_stats.worst < OMK_F32_GUARD / 4 && huge_stats.worst < OMK_F32_GUARD / 4 && ambiguous_wrong == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc > 1) { /* it takes no arguments: a mistyped one must not start a five-minute run */
        const int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
        fprintf(help ? stdout : stderr,
                "usage: f32_guard_check\nChecks the binary32 fast paths of cos and asin on every binary32 input "
                "(about 5 minutes on two cores); exit status 0 when the guard holds and every redone input agrees "
                "with MPFR.\n");
        return help ? 0 : 2;
    }
    int failed =
        check("cos f32", REF_COS, 0, cos_f32_fast, cos_f32_huge, cos_f64_dd, cos_f32_accurate, cos_needs_slow_path);
    failed |= check("asin f32", REF_ASIN, 1, asin_f32_fast, NULL, asin_f64_dd, asin_f32_accurate, asin_needs_slow_path);
    return failed;
}
