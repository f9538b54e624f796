/* A search for inputs whose cos or asin lies very close to a rounding midpoint (hard to round), plus
 * the structural hard cases of the argument reduction and of omk's own switch points. binary64: scans
 * runs of consecutive doubles around seeded starting points; binary32: every input. Both rank with the
 * long double reference, keep the closest, and measure their distance exactly with MPFR. */
#include "hard_cases.h"

#include <math.h>
#include <mpfr.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "samplers.h"

static const ref_format binary64 = {53, 11}, binary32 = {24, 8};

static double double_from(uint64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static float float_from(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
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

/* The same for binary32 (resolution ~2^-39 ulp). */
static double midpoint_distance_fast_f32(ref_op op, float x) {
    const long double y = fabsl(op == REF_COS ? cosl(x) : asinl(x));
    if (!(y > 0.0L)) return INFINITY;
    int e;
    frexpl(y, &e);
    const long double scaled = ldexpl(y, -(e - 24 > -149 ? e - 24 : -149));
    return (double)fabsl(scaled - floorl(scaled) - 0.5L);
}

/* |f(x) - nearest midpoint of fmt| in ulps of f(x)'s binade, with MPFR at 256 bits (exact for the tables);
 * *rounded gets f(x) correctly rounded to fmt. */
static double midpoint_distance_exact(ref_op op, const ref_format *fmt, double x, double *rounded) {
    ref_value v;
    ref_eval(op, fmt, x, &v);
    *rounded = v.rounded;
    mpfr_t fx, frac;
    mpfr_inits2(256, fx, frac, (mpfr_ptr)0);
    mpfr_set_d(frac, x, MPFR_RNDN);
    if (op == REF_COS)
        mpfr_cos(fx, frac, MPFR_RNDN);
    else
        mpfr_asin(fx, frac, MPFR_RNDN);
    mpfr_abs(fx, fx, MPFR_RNDN);
    /* |f| in [2^(e-1), 2^e): ulp 2^(e-p), or the subnormal ulp 2^(emin-p+1); midpoints at odd multiples of ulp/2 */
    const long emin = 2 - (1L << (fmt->exp_bits - 1)), e = mpfr_get_exp(fx);
    const long ulp_exp =
        e - fmt->precision > emin - fmt->precision + 1 ? e - fmt->precision : emin - fmt->precision + 1;
    mpfr_mul_2si(fx, fx, -ulp_exp, MPFR_RNDN); /* exact */
    mpfr_frac(frac, fx, MPFR_RNDN);
    mpfr_sub_d(frac, frac, 0.5, MPFR_RNDN); /* exact */
    const double distance = fabs(mpfr_get_d(frac, MPFR_RNDN));
    mpfr_clears(fx, frac, (mpfr_ptr)0);
    return distance;
}

static int by_distance(const void *a, const void *b) {
    const ulpb_hard_case *x = a, *y = b;
    return (x->distance > y->distance) - (x->distance < y->distance);
}

/* Whether bits is among the first n rows: a structural input the search kept too is listed once, as a search row. */
static bool listed(const ulpb_hard_case *rows, int n, uint64_t bits) {
    for (int k = 0; k < n; k++)
        if (rows[k].bits == bits) return true;
    return false;
}

/* Inputs whose difficulty is structural: reduction worst cases and omk's switch points. */
static int structural_inputs(ulpb_op_id op, uint64_t *out) {
    int n = 0;
    switch (op) { /* no default: a new op must name its switch points (-Wswitch) */
    case ULPB_OP_cos:
        out[n++] = bits_of(0x1.6ac5b262ca1ffp+849); /* 6381956970095103 * 2^797: closest to k pi/2 */
        out[n++] = bits_of(0x1.921fb54442d18p+0);   /* nearest to pi/2 */
        out[n++] = bits_of(0x1.921fb54442d18p+1);   /* nearest to pi */
        out[n++] = bits_of(0x1.921fb54442d18p-1);   /* nearest to pi/4: quadrant switch */
        out[n++] = bits_of(0x1p20);                 /* Cody-Waite / Payne-Hanek switch */
        out[n++] = bits_of(0x1p20) - 1;
        out[n++] = bits_of(0x1p-27); /* tiny switch of the fast reference */
        out[n++] = bits_of(0x1p-27) - 1;
        out[n++] = bits_of(0x1.fffffffffffffp+1023);
        break;
    case ULPB_OP_asin:
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
        break;
    case ULPB_OP_COUNT:
        break;
    }
    return n;
}

/* The sampler of the s-th starting point of a search: in turn the op's samplers after the special values and the
 * uniform bits: its uniform domain and its two samplers of hard regions (cos: huge, near k pi/2; asin: near 1, tiny).
 */
static int search_sampler(ulpb_op_id op, int s) {
    int samplers[SAMPLER_COUNT];
    const int count = samplers_for_op(op, samplers);
    return samplers[count - 3 + s % 3];
}

/* by_distance, ties broken by the input: an order the thread count does not change */
static int by_distance_then_input(const void *a, const void *b) {
    const ulpb_hard_case *x = a, *y = b;
    const int d = by_distance(a, b);
    return d ? d : (x->bits > y->bits) - (x->bits < y->bits);
}

int ulpb_hard_case_search(ulpb_op_id op, uint64_t seed, int starts, int span, int keep, int threads,
                          ulpb_hard_case *out) {
    enum { PER_START = 4 }; /* candidates per run, ranked again exactly: the long double ranking is coarse */
    /* the same team frees the caches it filled */
    const int team = ref_team_size(threads > 0 ? threads : omp_get_max_threads());
    const ref_op rop = ulpb_ops[op].ref;
    const int per_start = PER_START < span ? PER_START : span;
    const size_t pool_size = (size_t)starts * (size_t)per_start;
    ulpb_hard_case *pool = malloc(pool_size * sizeof *pool);
    if (!pool) return -1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (int s = 0; s < starts; s++) {
        const int sampler = search_sampler(op, s);
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
                k < kept ? midpoint_distance_exact(rop, &binary64, double_from(mine[k].bits), &mine[k].expected)
                         : INFINITY;
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
        if (listed(out, n, structural[k])) continue;
        out[n] = (ulpb_hard_case){op, structural[k], 0, NAN, "structural"};
        out[n].distance = midpoint_distance_exact(rop, &binary64, double_from(structural[k]), &out[n].expected);
        n++;
    }
    ref_free_cache();
    return n;
}

/* The binary32 switch points of omk's paths (cos.c, asin.c). */
static int structural_inputs_f32(ulpb_op_id op, uint32_t *out) {
    int n = 0;
    switch (op) { /* no default, as above */
    case ULPB_OP_cos:
        out[n++] = 0x49800000; /* 2^20: cos_f32_fast ends, cos_f32_huge begins */
        out[n++] = 0x497fffff;
        out[n++] = 0x3fc90fdb; /* nearest to pi/2 */
        out[n++] = 0x40490fdb; /* nearest to pi */
        out[n++] = 0x3f490fdb; /* nearest to pi/4: quadrant switch */
        out[n++] = 0x7f7fffff; /* largest finite */
        break;
    case ULPB_OP_asin:
        out[n++] = 0x3f000000; /* 0.5: the branch switch */
        out[n++] = 0x3effffff;
        out[n++] = 0x3f7fffff; /* next to 1 */
        out[n++] = 0x3f3504f3; /* nearest to 2^-1/2 */
        break;
    case ULPB_OP_COUNT:
        break;
    }
    return n;
}

int ulpb_binary32_range_keys(double lo, double hi, uint32_t *first, uint32_t *last) {
    const ulpb_input_range range = {true, lo, hi};
    uint64_t a, b;
    if (!ulpb_range_keys(ULPB_DTYPE_f32, &range, &a, &b)) return -1;
    *first = (uint32_t)a, *last = (uint32_t)b;
    return 0;
}

int ulpb_hard_case_search_f32(ulpb_op_id op, double lo, double hi, int keep, int threads, ulpb_hard_case *out) {
    enum { CANDIDATES_PER_KEPT = 4 }; /* ranked again exactly: the long double ranking is coarse */
    const int team = ref_team_size(threads > 0 ? threads : omp_get_max_threads());
    const ref_op rop = ulpb_ops[op].ref;
    uint32_t first, last;
    if (ulpb_binary32_range_keys(lo, hi, &first, &last)) return 0;
    const uint64_t blocks = (((uint64_t)last - first) >> 16) + 1;
    const int pool_per_thread = CANDIDATES_PER_KEPT * keep;
    ulpb_hard_case *pool = malloc((size_t)team * (size_t)pool_per_thread * sizeof *pool);
    int *pool_count = calloc((size_t)team, sizeof *pool_count);
    if (!pool || !pool_count) {
        free(pool), free(pool_count);
        return -1;
    }
#pragma omp parallel num_threads(team)
    {
        ulpb_hard_case *mine = pool + (size_t)omp_get_thread_num() * (size_t)pool_per_thread;
        int kept = 0;
#pragma omp for schedule(dynamic, 1)
        for (uint64_t block = 0; block < blocks; block++)
            for (uint64_t key = first + (block << 16); key <= last && key < first + ((block + 1) << 16); key++) {
                const uint32_t bits = (uint32_t)ulpb_bits_of_key(ULPB_DTYPE_f32, key),
                               magnitude_key = (uint32_t)ulpb_order_key(ULPB_DTYPE_f32, bits & 0x7fffffffu);
                if (bits >> 31 && magnitude_key >= first && magnitude_key <= last) continue; /* -x: as hard as x */
                float x;
                memcpy(&x, &bits, sizeof x);
                const ulpb_hard_case c = {op, bits, midpoint_distance_fast_f32(rop, x), NAN, "search"};
                if (!(c.distance < INFINITY)) continue; /* outside the domain, or a zero result */
                if (kept == pool_per_thread && by_distance_then_input(&c, &mine[kept - 1]) >= 0) continue;
                int at = kept < pool_per_thread ? kept++ : kept - 1;
                for (; at > 0 && by_distance_then_input(&c, &mine[at - 1]) < 0; at--) mine[at] = mine[at - 1];
                mine[at] = c;
            }
        pool_count[omp_get_thread_num()] = kept;
    }
    /* the closest over all threads, then exactly */
    int pooled = 0;
    for (int t = 0; t < team; t++)
        for (int k = 0; k < pool_count[t]; k++) pool[pooled++] = pool[(size_t)t * (size_t)pool_per_thread + k];
    qsort(pool, (size_t)pooled, sizeof *pool, by_distance_then_input);
    if (pooled > pool_per_thread) pooled = pool_per_thread;
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (int k = 0; k < pooled; k++)
        pool[k].distance =
            midpoint_distance_exact(rop, &binary32, (double)float_from((uint32_t)pool[k].bits), &pool[k].expected);
#pragma omp parallel num_threads(team)
    ref_free_cache();
    qsort(pool, (size_t)pooled, sizeof *pool, by_distance_then_input);
    int n = 0;
    for (; n < keep && n < pooled; n++) out[n] = pool[n];
    free(pool);
    free(pool_count);
    uint32_t structural[ULPB_HARD_CASES_STRUCTURAL_MAX];
    const int m = structural_inputs_f32(op, structural);
    for (int k = 0; k < m; k++) { /* a switch point, or its negation when only that is in the range (cos is even,
                                     asin odd: the switch is at |x|) */
        const double x = (double)float_from(structural[k]);
        const uint32_t bits = x >= lo && x <= hi     ? structural[k]
                              : -x >= lo && -x <= hi ? structural[k] | 0x80000000u
                                                     : 0;
        if (!bits || listed(out, n, bits)) continue;
        out[n] = (ulpb_hard_case){op, bits, 0, NAN, "structural"};
        out[n].distance = midpoint_distance_exact(rop, &binary32, (double)float_from(bits), &out[n].expected);
        n++;
    }
    ref_free_cache();
    return n;
}
