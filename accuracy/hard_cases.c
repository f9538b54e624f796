/* A search for binary64 inputs whose cos or asin lies very close to a rounding midpoint (hard to
 * round), plus the structural hard cases of the argument reduction and of omk's own switch points.
 * Scans runs of consecutive doubles around seeded starting points with the long double reference,
 * keeps the closest, and measures their distance exactly with MPFR. */
#include "hard_cases.h"

#include <math.h>
#include <mpfr.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static double double_from(uint64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t bits_of(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* |f(x) - nearest binary64 midpoint| in ulps, from the long double value (resolution ~2^-10). */
static double midpoint_distance_fast(ref_op op, double x) {
    const long double y = op == REF_COS ? cosl(x) : asinl(x);
    const double hi = (double)y;
    if (!isfinite(hi) || hi == 0.0) return INFINITY;
    int e;
    frexp(hi, &e);
    const long double ulp = ldexpl(1.0L, e - 1 - 52);
    return (double)(fabsl(fabsl(y - (long double)hi) - ulp / 2) / ulp);
}

/* The same with MPFR at 256 bits: exact for the table. */
static double midpoint_distance_exact(ref_op op, double x, double *rounded) {
    static const ref_format binary64 = {53, 11};
    ref_value v;
    ref_eval(op, &binary64, x, &v);
    *rounded = v.rounded;
    mpfr_t fx, mid, d;
    mpfr_inits2(256, fx, mid, d, (mpfr_ptr)0);
    mpfr_set_d(mid, x, MPFR_RNDN);
    if (op == REF_COS)
        mpfr_cos(fx, mid, MPFR_RNDN);
    else
        mpfr_asin(fx, mid, MPFR_RNDN);
    /* the midpoint next to the correctly rounded value, on the exact value's side */
    mpfr_set_d(mid, v.rounded, MPFR_RNDN);
    const int above = mpfr_cmp(fx, mid) > 0;
    mpfr_set_d(d, v.ulp / 2, MPFR_RNDN);
    if (above)
        mpfr_add(mid, mid, d, MPFR_RNDN);
    else
        mpfr_sub(mid, mid, d, MPFR_RNDN);
    mpfr_sub(d, fx, mid, MPFR_RNDN);
    const double distance = fabs(mpfr_get_d(d, MPFR_RNDN)) / v.ulp;
    mpfr_clears(fx, mid, d, (mpfr_ptr)0);
    return distance;
}

static int by_distance(const void *a, const void *b) {
    const ulpb_hard_case *x = a, *y = b;
    return (x->distance > y->distance) - (x->distance < y->distance);
}

/* Inputs whose difficulty is structural: reduction worst cases and omk's switch points. */
static int structural_inputs(ulpb_op_id op, uint64_t *out) {
    int n = 0;
    if (op == ULPB_OP_cos) {
        out[n++] = bits_of(0x1.6ac5b262ca1ffp+849); /* 6381956970095103 * 2^797: closest to k pi/2 */
        out[n++] = bits_of(0x1.921fb54442d18p+0);   /* nearest to pi/2 */
        out[n++] = bits_of(0x1.921fb54442d18p+1);   /* nearest to pi */
        out[n++] = bits_of(0x1.921fb54442d18p-1);   /* nearest to pi/4: quadrant switch */
        out[n++] = bits_of(0x1p20);                 /* Cody-Waite / Payne-Hanek switch */
        out[n++] = bits_of(0x1p20) - 1;
        out[n++] = bits_of(0x1p-27); /* tiny switch of the fast reference */
        out[n++] = bits_of(0x1p-27) - 1;
        out[n++] = bits_of(0x1.fffffffffffffp+1023);
    } else {
        out[n++] = bits_of(0.5); /* branch switch */
        out[n++] = bits_of(0.5) - 1;
        out[n++] = bits_of(1.0) - 1; /* next to 1 */
        out[n++] = bits_of(1.0) - 2;
        out[n++] = bits_of(0x1p-26); /* tiny switch */
        out[n++] = bits_of(0x1p-26) - 1;
        out[n++] = bits_of(0x1.6a09e667f3bcdp-1); /* nearest to 2^-1/2: the rotation step changes sides */
        out[n++] = bits_of(0x1.6a09e667f3bcdp-1) - 1;
        out[n++] = bits_of(0x1.6a09e667f3bcdp-1) + 1;
        out[n++] = bits_of(0.7); /* the fixed-point phase's switch from sin to cos */
        out[n++] = bits_of(0.7) + 1;
        out[n++] = bits_of(0.5 / (256.0 - 0x1p-8)); /* lower edge of the rotation table's second cell */
        out[n++] = bits_of(0.5 / (256.0 - 0x1p-8)) + 1;
    }
    return n;
}

int ulpb_hard_case_search(ulpb_op_id op, uint64_t seed, int starts, int span, int keep, int threads,
                          ulpb_hard_case *out) {
    enum { PER_START = 4 }; /* candidates per run, ranked again exactly: the long double ranking is coarse */
    const int team = threads > 0 ? threads : omp_get_max_threads(); /* the same team frees the caches it filled */
    const ref_op rop = ulpb_ops[op].ref;
    const int per_start = PER_START < span ? PER_START : span;
    const size_t pool_size = (size_t)starts * (size_t)per_start;
    ulpb_hard_case *pool = malloc(pool_size * sizeof *pool);
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (int s = 0; s < starts; s++) {
        /* starting points from the runner's samplers: domain, huge or near k pi/2, near 1 or tiny */
        const int sampler = op == ULPB_OP_cos ? 2 + s % 3 : (s % 3 == 0 ? 2 : 3 + s % 3);
        const uint64_t start = ulpb_sampler_input(sampler, op, ULPB_DTYPE_f64, seed, (uint64_t)s);
        ulpb_hard_case *mine = pool + (size_t)s * (size_t)per_start;
        int kept = 0;
        for (int j = 0; j < span; j++) {
            const ulpb_hard_case c = {op, start + (uint64_t)j,
                                      midpoint_distance_fast(rop, double_from(start + (uint64_t)j)), NAN, "search"};
            if (!(c.distance < INFINITY)) continue;
            if (kept < per_start)
                mine[kept++] = c;
            else if (c.distance < mine[per_start - 1].distance)
                mine[per_start - 1] = c;
            else
                continue;
            qsort(mine, (size_t)kept, sizeof *mine, by_distance); /* small: keep sorted */
        }
        for (int k = 0; k < per_start; k++)
            mine[k].distance =
                k < kept ? midpoint_distance_exact(rop, double_from(mine[k].bits), &mine[k].expected) : INFINITY;
    }
#pragma omp parallel num_threads(team)
    ref_free_cache();
    qsort(pool, pool_size, sizeof *pool, by_distance);
    int n = 0;
    for (size_t k = 0; k < pool_size && n < keep; k++)
        if (pool[k].distance < INFINITY && (k == 0 || pool[k].bits != pool[k - 1].bits)) out[n++] = pool[k];
    free(pool);
    uint64_t structural[ULPB_HARD_CASES_STRUCTURAL_MAX];
    const int m = structural_inputs(op, structural);
    for (int k = 0; k < m; k++) {
        out[n] = (ulpb_hard_case){op, structural[k], 0, NAN, "structural"};
        out[n].distance = midpoint_distance_exact(rop, double_from(structural[k]), &out[n].expected);
        n++;
    }
    ref_free_cache();
    return n;
}
