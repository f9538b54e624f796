/* Helpers shared by the omk kernel sources: bit access, fused arithmetic and the 16-bit
 * format conversions. Not installed. */
#ifndef OMK_INTERNAL_H
#define OMK_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "omk_fma.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* Each kernel source is compiled once per ISA; OMK_ISA names that build. */
#ifndef OMK_ISA
#define OMK_ISA scalar
#endif
#define OMK_CAT2(a, b)     a##_##b
#define OMK_CAT(a, b)      OMK_CAT2(a, b)
#define OMK_ISA_NAME(name) OMK_CAT(name, OMK_ISA)

/* Array loops work in blocks (OMK_BLOCK_F32, OMK_BLOCK_F64, OMK_BLOCK for the 16-bit types). One branch-free pass,
 * which the compiler vectorizes, stores the results and reduces two keys over the block: the largest |x| (as bits) and
 * the smallest rounding-test distance. Only when a key says some lane lies outside the fast path or is too close to a
 * rounding boundary (rare) does a second vectorized pass flag the lanes, which are then redone one by one. The input is
 * copied first only when it overlaps the output (y at or before x: omk.c runs calls with y past x from the end, in
 * chunks it copies out). The binary64 loop (OMK_ARRAY_LOOP_F64) keeps eight arrays per block beside a 32 KiB table of
 * rows, so its blocks are half as long: on AMD Zen 5, omk_ab against 256 gave cos
 * 0.96-0.98 and asin 0.99 of the time with AVX-512, 0.99 and 0.97 with AVX2 (64: 1.03-1.07; 128 for the 16-bit
 * loop: 1.14-1.19). The binary32 loop (OMK_ARRAY_LOOP) uses 128 as well since its full blocks run with a constant
 * count: binary32 cos took 0.97 and asin 0.99 of the time of 256 with AVX-512, 1.00 with AVX2 and in the scalar build
 * (512: 1.04 and 1.02; 64: 1.16 and 1.05). */
enum { OMK_BLOCK = 256, OMK_BLOCK_F32 = 128, OMK_BLOCK_F64 = 128 };
/* Calls of at least this many binary64 elements prefetch the next block's input, and its output for writing, at the
 * start of each block. Once the index pass carried the reduction of cos (a longer pass between loads), double cos on 16
 * Mi elements fell from 0.61-0.63 to 0.52-0.54 of SLEEF u10's throughput on AMD Zen 5; with the input prefetch it ran
 * at 0.63-0.70 (ulpbench bench --op all --dtype f64 --sizes 16777216, builds alternated). When the rounding test
 * stopped reading the output back (OMK_ARRAY_LOOP_F64), it fell to 0.60-0.66; prefetching the output too gave
 * 0.78-0.86, and asin 0.85-0.86 against 0.77-0.80 before (bench --sizes 16777216 --rounds 5, two runs of each build
 * alternated). The binary32 loop, compute-bound at that size, gained nothing from either. On cache-resident arrays the
 * prefetch cost about 2% (omk_ab), so smaller calls go without. */
enum { OMK_PREFETCH_MIN_F64 = 32768 };
/* For the accurate paths the array loops call on rare rejected lanes: kept out of line and out of the hot code, which
 * lets GCC lay out and allocate the vector loops better (double cos 5-8% and asin 3.5% faster on AVX-512 in omk_ab,
 * cos 2-3% on AVX2). */
#define OMK_RARE_PATH __attribute__((noinline, cold))
/* The same for the vectorized passes of the blocks that need more than the first passes (OMK_DEFINE_RARE_BLOCK_F32,
 * OMK_DEFINE_HUGE_BLOCK_F64, OMK_DEFINE_FINISH_BLOCK_F64): out of line, so that the function around the hot loops
 * holds only their passes, but not cold, which GCC optimizes for size: it then left these loops scalar. */
#define OMK_RARE_BLOCK __attribute__((noinline))
#define OMK_PRAGMA(x)  _Pragma(#x)

/* a < b, as a function: with a constant b of 0 (no such bound) a comparison in a macro would warn (-Wtype-limits) */
static inline int omk_below(uint64_t a, uint64_t b) { return a < b; }

static inline int omk_ranges_overlap(const void *a, const void *b, size_t bytes) {
    const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa < pb ? pb - pa < bytes : pa - pb < bytes;
}

/* Whether the binary64 loops read their table rows in a pass of their own (omk_read_rows4) between a pass that
 * computes the row indices and the main pass, rather than inside the main pass. Only vector builds gain: the scalar
 * build reads one row per element either way, and the extra pass made it 3-9% slower. */
#if defined(__AVX2__)
#define OMK_READ_ROWS_APART 1
#else
#define OMK_READ_ROWS_APART 0
#endif

/* out_c[i] = table[offset[i] + c] for c = 0..3 and i < m, offset[i] = 4 j for row j: the table reads of the binary64
 * loops (offsets in elements, which the loads scale in the address: no shift per lane). A vectorized loop would read
 * the four values with four gathers, which cost a load per element and more: on AMD Zen 5 four 8-lane gathers took
 * 8.7 ns, one 32-byte load per lane and a 4 x 8 transpose 1.8 ns (in a throwaway timing program). extra (unless 0)
 * runs on aux and aux2, the index pass's two carried values, a vector's worth of lanes at a time (count 8 with
 * AVX-512, 4 with AVX2, the rest at the end), beside the loads and shuffles (asin_f64_t_lo_group). */
typedef void omk_rows_extra_fn(const double *aux, double *aux2, size_t count);
static inline void omk_read_rows4(const double *table, const int64_t *offset, double *out0, double *out1, double *out2,
                                  double *out3, size_t m, omk_rows_extra_fn *extra, const double *aux, double *aux2) {
    size_t i = 0;
#if defined(__AVX512F__)
    /* after the unpacks, t0 = {a0 a2 c0 c2 a1 a3 c1 c3} (rows 0..3) and t2 the same for rows 4..7 */
    const __m512i first = _mm512_set_epi64(13, 9, 12, 8, 5, 1, 4, 0),
                  second = _mm512_set_epi64(15, 11, 14, 10, 7, 3, 6, 2);
    /* the bound as a multiple of 8: with i + 8 <= m and a constant m (full blocks), GCC 12 warned of undefined
     * behaviour in the tail loop below (-Waggressive-loop-optimizations), which runs no iteration then */
    for (const size_t vector_end = m & ~(size_t)7; i < vector_end; i += 8) {
        const int64_t *k = offset + i;
#define OMK_ROW_PAIR(a, b)                                                                                             \
    _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(table + k[a])), _mm256_loadu_pd(table + k[b]), 1)
        const __m512d r01 = OMK_ROW_PAIR(0, 1), r23 = OMK_ROW_PAIR(2, 3), r45 = OMK_ROW_PAIR(4, 5),
                      r67 = OMK_ROW_PAIR(6, 7);
#undef OMK_ROW_PAIR
        const __m512d t0 = _mm512_unpacklo_pd(r01, r23), t1 = _mm512_unpackhi_pd(r01, r23);
        const __m512d t2 = _mm512_unpacklo_pd(r45, r67), t3 = _mm512_unpackhi_pd(r45, r67);
        _mm512_storeu_pd(out0 + i, _mm512_permutex2var_pd(t0, first, t2));
        _mm512_storeu_pd(out1 + i, _mm512_permutex2var_pd(t1, first, t3));
        _mm512_storeu_pd(out2 + i, _mm512_permutex2var_pd(t0, second, t2));
        _mm512_storeu_pd(out3 + i, _mm512_permutex2var_pd(t1, second, t3));
        if (extra) extra(aux + i, aux2 + i, 8);
    }
#elif defined(__AVX2__)
    for (const size_t vector_end = m & ~(size_t)3; i < vector_end; i += 4) {
        const int64_t *k = offset + i;
        const __m256d r0 = _mm256_loadu_pd(table + k[0]), r1 = _mm256_loadu_pd(table + k[1]);
        const __m256d r2 = _mm256_loadu_pd(table + k[2]), r3 = _mm256_loadu_pd(table + k[3]);
        const __m256d t0 = _mm256_unpacklo_pd(r0, r1),
                      t1 = _mm256_unpackhi_pd(r0, r1); /* {a0 a1 c0 c1}, {b0 b1 d0 d1} */
        const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
        _mm256_storeu_pd(out0 + i, _mm256_permute2f128_pd(t0, t2, 0x20));
        _mm256_storeu_pd(out1 + i, _mm256_permute2f128_pd(t1, t3, 0x20));
        _mm256_storeu_pd(out2 + i, _mm256_permute2f128_pd(t0, t2, 0x31));
        _mm256_storeu_pd(out3 + i, _mm256_permute2f128_pd(t1, t3, 0x31));
        if (extra) extra(aux + i, aux2 + i, 4);
    }
#endif
    if (extra && i < m) extra(aux + i, aux2 + i, m - i);
    for (; i < m; i++) {
        out0[i] = table[offset[i]];
        out1[i] = table[offset[i] + 1];
        out2[i] = table[offset[i] + 2];
        out3[i] = table[offset[i] + 3];
    }
}

/* Whether OMK_ARRAY_LOOP computes the binary64 approximations in a pass of their own, before the pass that narrows
 * them, applies the rounding test and reduces the keys: in the vector builds, where the split let GCC schedule the
 * arithmetic alone (on AMD Zen 5, omk_ab against the single pass: binary32 cos 0.87 and asin 0.79-0.92 of the time
 * with AVX-512, 0.83 and 0.86 with AVX2); the scalar build was 3% slower split. */
#if defined(__AVX2__)
#define OMK_APPROX_APART 1
#else
#define OMK_APPROX_APART 0
#endif

/* One block of the binary32 loop, x[start..start + count) to y. T/U: element type and its unsigned bit type;
 * abs_bits(x): |x| as bits; fast(x): binary64 approximation, valid for |x| bits below limit_bits; finish(x, (T)approx):
 * the stored result (for example the sign applied after narrowing); round_key(approx): rounding-test distance,
 * ambiguous when <= key_limit. staged: fast(x) is evaluate(reduce(x, &aux), aux), which the vector builds then run as
 * two passes; with near_limit_bits (nonzero) they first take the block's largest |x| in a pass of its own, and when it
 * lies below that limit, evaluate(reduce_near(x), near_aux) in one pass (binary32 cos on [-pi, pi]: 0.77 of the time
 * with AVX-512 and 0.74 with AVX2 on AMD Zen 5, omk_ab against commit f91795e in both orders, same outputs; as two
 * passes 1.01 and 1.05 times that; on [-10^4, 10^4] 1.00 and 1.02, the maximum's pass against the narrowing pass's
 * share of it). A block whose keys show a lane from limit_bits on or too close to a rounding boundary goes on to
 * rare_block (OMK_DEFINE_RARE_BLOCK_F32). */
#define OMK_ARRAY_BLOCK(count, start, T, U, x, y, abs_bits, limit_bits, fast, staged, reduce, evaluate, finish,        \
                        round_key, key_limit, rare_block, near_limit_bits, reduce_near, near_aux)                      \
    do {                                                                                                               \
        const size_t m = (count);                                                                                      \
        T copy[OMK_BLOCK_F32], *out = (y) + (start);                                                                   \
        const T *in = (x) + (start);                                                                                   \
        if (omk_ranges_overlap(in, out, OMK_BLOCK_F32 * sizeof(T))) in = memcpy(copy, in, m * sizeof(T));              \
        U max_abs = 0;                                                                                                 \
        uint32_t min_key = UINT32_MAX;                                                                                 \
        double approx_of[OMK_BLOCK_F32];                                                                               \
        const int max_first = OMK_APPROX_APART && staged && (near_limit_bits) != 0;                                    \
        if (OMK_APPROX_APART) {                                                                                        \
            if (staged) {                                                                                              \
                double reduced[OMK_BLOCK_F32], aux[OMK_BLOCK_F32];                                                     \
                if (max_first) {                                                                                       \
                    OMK_PRAGMA(omp simd reduction(max : max_abs))                                                      \
                    for (size_t i = 0; i < m; i++) {                                                                   \
                        const U a = abs_bits(in[i]);                                                                   \
                        max_abs = a > max_abs ? a : max_abs;                                                           \
                    }                                                                                                  \
                }                                                                                                      \
                if (max_first && omk_below(max_abs, near_limit_bits)) {                                                \
                    OMK_PRAGMA(omp simd)                                                                               \
                    for (size_t i = 0; i < m; i++) approx_of[i] = evaluate(reduce_near(in[i]), near_aux);              \
                } else {                                                                                               \
                    OMK_PRAGMA(omp simd)                                                                               \
                    for (size_t i = 0; i < m; i++) reduced[i] = reduce(in[i], &aux[i]);                                \
                    OMK_PRAGMA(omp simd)                                                                               \
                    for (size_t i = 0; i < m; i++) approx_of[i] = evaluate(reduced[i], aux[i]);                        \
                }                                                                                                      \
            } else {                                                                                                   \
                OMK_PRAGMA(omp simd)                                                                                   \
                for (size_t i = 0; i < m; i++) approx_of[i] = fast(in[i]);                                             \
            }                                                                                                          \
        }                                                                                                              \
        if (max_first) {                                                                                               \
            OMK_PRAGMA(omp simd reduction(min : min_key))                                                              \
            for (size_t i = 0; i < m; i++) {                                                                           \
                const double approx = approx_of[i];                                                                    \
                out[i] = finish(in[i], (T)approx);                                                                     \
                const uint32_t key = round_key(approx);                                                                \
                min_key = key < min_key ? key : min_key;                                                               \
            }                                                                                                          \
        } else {                                                                                                       \
            OMK_PRAGMA(omp simd reduction(max : max_abs) reduction(min : min_key))                                     \
            for (size_t i = 0; i < m; i++) {                                                                           \
                const U a = abs_bits(in[i]); /* read before the store, which may alias in[] for the compiler */        \
                const double approx = OMK_APPROX_APART ? approx_of[i] : fast(in[i]);                                   \
                out[i] = finish(in[i], (T)approx);                                                                     \
                const uint32_t key = round_key(approx);                                                                \
                max_abs = a > max_abs ? a : max_abs;                                                                   \
                min_key = key < min_key ? key : min_key;                                                               \
            }                                                                                                          \
        }                                                                                                              \
        if (max_abs >= (limit_bits) || min_key <= (key_limit)) rare_block(in, out, m, approx_of, max_abs);             \
    } while (0)

/* any (of type U) nonzero when some lane of in[0..m) has |x| bits (abs_bits) in [lo, hi): the blocks that need a huge
 * path. */
#define OMK_ANY_LANE_IN(any, U, abs_bits, in, m, lo, hi)                                                               \
    do {                                                                                                               \
        OMK_PRAGMA(omp simd reduction(| : any))                                                                        \
        for (size_t i = 0; i < m; i++) {                                                                               \
            const U a = abs_bits(in[i]);                                                                               \
            any |= (U)(a >= (lo) && a < (hi));                                                                         \
        }                                                                                                              \
    } while (0)

/* The rest of a binary32 block (OMK_ARRAY_BLOCK) whose keys show a lane from limit_bits on or too close to a rounding
 * boundary, in a vectorized pass (after a scan for huge lanes when |x| reaches limit_bits): huge(x), the approximation
 * for |x| bits in [limit_bits, huge_end_bits) (huge_end_bits = limit_bits: none), computed only when the block holds
 * such a lane; special(x), branch-free, for the lanes from huge_end_bits on (NaN, infinities, asin's |x| >= 1), the
 * bits accurate(x) would give; then accurate(x) for the lanes too close to a boundary, one by one. approx_of: the
 * approximation pass's results (vector builds). Before 2026-12-02 every block with such a lane computed huge(x) for all
 * its lanes and sent the specials to accurate(x): a NaN in each block of 128 made binary32 cos 10 times slower (omk_ab
 * --nan-every 100 against commit a3c7460, same outputs). */
#define OMK_DEFINE_RARE_BLOCK_F32(name, T, U, abs_bits, limit_bits, fast, huge, huge_end_bits, finish, round_key,      \
                                  key_limit, accurate, special)                                                        \
    OMK_RARE_BLOCK static void name(const T *restrict in, T *restrict out, size_t m, const double *restrict approx_of, \
                                    U max_abs) {                                                                       \
        int any_huge = 0;                                                                                              \
        if ((huge_end_bits) != (limit_bits) && max_abs >= (limit_bits)) {                                              \
            U huge_lanes = 0;                                                                                          \
            OMK_ANY_LANE_IN(huge_lanes, U, abs_bits, in, m, limit_bits, huge_end_bits);                                \
            any_huge = huge_lanes != 0;                                                                                \
        }                                                                                                              \
        U flagged[OMK_BLOCK_F32], any_flagged = 0; /* element-wide: the pass keeps the element type's vector length */ \
        if (any_huge) {                                                                                                \
            OMK_PRAGMA(omp simd reduction(| : any_flagged))                                                            \
            for (size_t i = 0; i < m; i++) {                                                                           \
                const U a = abs_bits(in[i]);                                                                           \
                const uint64_t use_huge = 0 - (uint64_t)(a >= (limit_bits) && a < (huge_end_bits));                    \
                const U special_lane = 0 - (U)(a >= (huge_end_bits));                                                  \
                const double approx = omk_select(use_huge, huge(in[i]), fast(in[i]));                                  \
                out[i] = omk_select_float(special_lane, special(in[i]), finish(in[i], (T)approx));                     \
                flagged[i] = (U)(round_key(approx) <= (key_limit)) & ~special_lane;                                    \
                any_flagged |= flagged[i];                                                                             \
            }                                                                                                          \
        } else { /* out[] holds every lane but the special ones */                                                     \
            OMK_PRAGMA(omp simd reduction(| : any_flagged))                                                            \
            for (size_t i = 0; i < m; i++) {                                                                           \
                const U special_lane = 0 - (U)(abs_bits(in[i]) >= (huge_end_bits));                                    \
                const double approx = OMK_APPROX_APART ? approx_of[i] : fast(in[i]);                                   \
                out[i] = omk_select_float(special_lane, special(in[i]), out[i]);                                       \
                flagged[i] = (U)(round_key(approx) <= (key_limit)) & ~special_lane;                                    \
                any_flagged |= flagged[i];                                                                             \
            }                                                                                                          \
        }                                                                                                              \
        if (any_flagged)                                                                                               \
            for (size_t i = 0; i < m; i++)                                                                             \
                if (flagged[i]) out[i] = accurate(in[i]);                                                              \
    }

/* The binary32 array loop: OMK_ARRAY_BLOCK on each block of x[0..n), written out twice in the vector builds so that
 * full blocks, nearly all of them, run passes with a constant trip count (GCC then leaves out the vector loops'
 * remainder handling). On AMD Zen 5 (omk_ab against one variable-count instance, 3001 rounds in both orders, same
 * outputs) binary32 cos took 0.93-0.97 of the time with AVX-512 and asin 0.99, double cos (OMK_ARRAY_LOOP_F64, the
 * same split) 0.98-0.99 and asin 0.97-0.98; with AVX2 0.99-1.00. The scalar build keeps one instance (its double cos
 * took 1.02 of the time with two). */
#define OMK_ARRAY_LOOP(T, U, x, y, n, abs_bits, limit_bits, fast, staged, reduce, evaluate, finish, round_key,         \
                       key_limit, rare_block, near_limit_bits, reduce_near, near_aux)                                  \
    for (size_t start = 0; start < (n); start += OMK_BLOCK_F32) {                                                      \
        const size_t block_count = (n)-start < OMK_BLOCK_F32 ? (n)-start : OMK_BLOCK_F32;                              \
        if (OMK_APPROX_APART && block_count == OMK_BLOCK_F32)                                                          \
            OMK_ARRAY_BLOCK(OMK_BLOCK_F32, start, T, U, x, y, abs_bits, limit_bits, fast, staged, reduce, evaluate,    \
                            finish, round_key, key_limit, rare_block, near_limit_bits, reduce_near, near_aux);         \
        else                                                                                                           \
            OMK_ARRAY_BLOCK(block_count, start, T, U, x, y, abs_bits, limit_bits, fast, staged, reduce, evaluate,      \
                            finish, round_key, key_limit, rare_block, near_limit_bits, reduce_near, near_aux);         \
    }

/* A binary64 fast-path result: value + tail, |tail| <= ulp(value)/2. */
typedef struct {
    double value, tail;
} omk_f64_result;

/* The main pass's value + tail for lane i of OMK_ARRAY_LOOP_F64, from the arrays of the passes before it (by value: an
 * address-taken local would become a stack array). */
#define OMK_F64_MAIN_RESULT(i, split, rows_second, fast_rows, fast)                                                    \
    (OMK_READ_ROWS_APART                                                                                               \
         ? ((split) ? rows_second(in[i], aux[i], aux2[i], row0[i], row1[i], row2[i], row3[i], prep0[i], prep1[i])      \
                    : fast_rows(in[i], aux[i], aux2[i], row0[i], row1[i], row2[i], row3[i]))                           \
         : fast(in[i]))

/* One block of the binary64 loop, x[start..start + count) to y (prefetch_next: prefetch the next block's input and
 * output). fast(x) and huge(x) give y
 * + tail (omk_f64_result) within a relative error eps of cos x or asin x. fast(x) is fast_rows(x, aux, aux2,
 * rows[j][0..3]) with j = row_of(x, &aux, &aux2), computed in three passes in the vector builds (OMK_READ_ROWS_APART):
 * the indices (and two values carried over), the rows (omk_read_rows4, with rows_extra(aux, aux2, count) applied to the
 * carried values when it is not 0), the rest; split: the rest is rows_second(x, aux, aux2, rows, rows_first(x, aux,
 * aux2, rows)), in two passes. Rounding test: y is the correctly rounded result unless fma(tail, factor, y) != y, for
 * factor = 1 + d (1 + 2d), d = 2^54 eps. (If the test passes, |tail| <= s/(2 factor) for s the spacing of binary64 next
 * to y on tail's side (a tie is kept only when y is even), and the exact value lies within eps |f| < eps 2^53 s (1 +
 * 2^-52) of y + tail; so it rounds to y when 1/factor + d (1 + 2^-52) < 1, which this factor meets and 1 + d would not.
 * When y is a power of two and the exact value falls on the other, narrower side, it lies within d s/4 < s/4 of y and
 * still rounds to y; tail = 0 is the same with the narrower spacing. This assumes normal results with a normal or zero
 * tail (cos never has others) and 2^-80 <= eps <= 2^-56, where the rounding of factor stays below its d^2 margin.) The
 * test rejects a share of about d of the lanes. Lanes that fail it are redone by accurate(x); factor 0 turns the test
 * off. A block with such a lane or with a lane from limit_bits on goes to finish_block (OMK_DEFINE_FINISH_BLOCK_F64),
 * which gives the lanes from huge_end_bits on (NaN, infinities, asin's |x| >= 1) special(x), whatever their flags, in a
 * vectorized pass before it redoes the rest. The main pass
 * stores y alone and ORs the bits of fma(tail, factor, y) - y over the block: nonzero when the test fails, since two
 * different binary64 numbers never subtract to zero and NaN (never equal to itself) keeps its bits; an extra flag (-0
 * and +0) only costs time. Only a block with a rejected lane (or a NaN or an infinity) runs the main pass's arithmetic
 * again, from the same arrays, to flag its lanes with the comparison (about 3% of the blocks for cos, 0.7% for asin:
 * 128 lanes at 1 rejected in 4,000 and 17,000), or huge_block instead when it holds a huge argument. Against storing
 * fma(tail, factor, y) beside y for a separate loop to compare, ORing the comparison took double asin 0.94-0.98 of the
 * time with AVX-512 and 0.95-1.01 with AVX2, cos 0.97-1.01 and 1.02-1.03; ORing the difference in place of the
 * comparison (one instruction fewer: no mask to vector) then took 0.97-0.98 (AVX-512) and 0.96 (AVX2) for cos, 0.97 and
 * 0.98 for asin (omk_ab on AMD Zen 5, both orders, same outputs). A second vectorized pass (both paths: huge_block,
 * OMK_DEFINE_HUGE_BLOCK_F64) runs in place of that one only on blocks that hold a lane in [limit, huge_end), and
 * records the rejected lanes itself. An op with a rounding test and no huge path (huge_end_bits = limit_bits) skips the
 * |x| reduction: its fast path must make every lane from limit on fail the test (NaN) or come out correctly rounded
 * (special(x) then gives the same). */
#define OMK_ARRAY_BLOCK_F64(count, start, prefetch_next, x, y, limit_bits, row_of, rows, fast_rows, split, rows_first, \
                            rows_second, fast, huge_end_bits, factor, rows_extra, huge_block, finish_block)            \
    do {                                                                                                               \
        const size_t m = (count);                                                                                      \
        double copy[OMK_BLOCK_F64], *out = (y) + (start);                                                              \
        const double *in = (x) + (start);                                                                              \
        if (omk_ranges_overlap(in, out, OMK_BLOCK_F64 * sizeof(double))) in = memcpy(copy, in, m * sizeof(double));    \
        if (prefetch_next)                                                                                             \
            for (size_t line = 0; line < OMK_BLOCK_F64; line += 8) {                                                   \
                __builtin_prefetch((x) + (start) + OMK_BLOCK_F64 + line);                                              \
                __builtin_prefetch((y) + (start) + OMK_BLOCK_F64 + line, 1);                                           \
            }                                                                                                          \
        int64_t max_abs = 0; /* |x| bits stay below 2^63: signed, which AVX2 compares in one instruction */            \
        const int track_max = (huge_end_bits) != (limit_bits) || (factor) == 0.0;                                      \
        uint64_t any_rejected = 0;                                                                                     \
        uint64_t rejected[OMK_BLOCK_F64]; /* element-wide: a narrower type would set the vector length */              \
        int64_t row_offset[OMK_BLOCK_F64];                                                                             \
        double aux[OMK_BLOCK_F64], aux2[OMK_BLOCK_F64];                                                                \
        double row0[OMK_BLOCK_F64], row1[OMK_BLOCK_F64], row2[OMK_BLOCK_F64], row3[OMK_BLOCK_F64];                     \
        if (OMK_READ_ROWS_APART) {                                                                                     \
            OMK_PRAGMA(omp simd)                                                                                       \
            for (size_t i = 0; i < m; i++) row_offset[i] = 4 * row_of(in[i], &aux[i], &aux2[i]);                       \
            omk_read_rows4(&(rows)[0][0], row_offset, row0, row1, row2, row3, m, rows_extra, aux, aux2);               \
        }                                                                                                              \
        double prep0[OMK_BLOCK_F64], prep1[OMK_BLOCK_F64];                                                             \
        if (OMK_READ_ROWS_APART && (split)) {                                                                          \
            OMK_PRAGMA(omp simd)                                                                                       \
            for (size_t i = 0; i < m; i++) {                                                                           \
                const omk_f64_result p = rows_first(in[i], aux[i], aux2[i], row0[i], row1[i], row2[i], row3[i]);       \
                prep0[i] = p.value;                                                                                    \
                prep1[i] = p.tail;                                                                                     \
            }                                                                                                          \
        }                                                                                                              \
        OMK_PRAGMA(omp simd reduction(max : max_abs) reduction(| : any_rejected))                                      \
        for (size_t i = 0; i < m; i++) {                                                                               \
            const int64_t a =                                                                                          \
                (int64_t)omk_abs_bits64(in[i]); /* read before the store, which may alias in[] for the compiler */     \
            const omk_f64_result r = OMK_F64_MAIN_RESULT(i, split, rows_second, fast_rows, fast);                      \
            out[i] = r.value;                                                                                          \
            if ((factor) != 0.0) any_rejected |= omk_bits64(omk_fma(r.tail, (factor), r.value) - r.value);             \
            if (track_max) max_abs = a > max_abs ? a : max_abs;                                                        \
        }                                                                                                              \
        if (any_rejected || max_abs >= (int64_t)(limit_bits)) {                                                        \
            /* both paths only in a block with a lane for the huge one; finish_block handles NaN and infinities */     \
            if (!((huge_end_bits) != (limit_bits) && max_abs >= (int64_t)(limit_bits) &&                               \
                  huge_block(in, out, m, rejected))) {                                                                 \
                OMK_PRAGMA(omp simd)                                                                                   \
                for (size_t i = 0; i < m; i++) {                                                                       \
                    const omk_f64_result r = OMK_F64_MAIN_RESULT(i, split, rows_second, fast_rows, fast);              \
                    rejected[i] =                                                                                      \
                        (uint64_t)((factor) != 0.0) & (uint64_t)(omk_fma(r.tail, (factor), r.value) != r.value);       \
                }                                                                                                      \
            }                                                                                                          \
            finish_block(in, out, m, rejected);                                                                        \
        }                                                                                                              \
    } while (0)

/* The results and rounding-test flags (rejected[]: 1 for a lane to redo) of a binary64 block (OMK_ARRAY_BLOCK_F64)
 * that holds a lane with |x| bits in [limit_bits, huge_end_bits), from both paths (the lanes from huge_end_bits on are
 * finish_block's). Returns 0, and changes nothing, when the block holds no lane for huge(x). */
#define OMK_DEFINE_HUGE_BLOCK_F64(name, limit_bits, fast, huge, huge_end_bits, factor)                                 \
    OMK_RARE_BLOCK static int name(const double *restrict in, double *restrict out, size_t m,                          \
                                   uint64_t *restrict rejected) {                                                      \
        uint64_t huge_lanes = 0;                                                                                       \
        OMK_ANY_LANE_IN(huge_lanes, uint64_t, omk_abs_bits64, in, m, limit_bits, huge_end_bits);                       \
        if (!huge_lanes) return 0;                                                                                     \
        OMK_PRAGMA(omp simd)                                                                                           \
        for (size_t i = 0; i < m; i++) {                                                                               \
            const uint64_t a = omk_abs_bits64(in[i]);                                                                  \
            const uint64_t use_huge = 0 - (uint64_t)(a >= (limit_bits) && a < (huge_end_bits));                        \
            const omk_f64_result fast_r = fast(in[i]), huge_r = huge(in[i]);                                           \
            const double approx = omk_select(use_huge, huge_r.value, fast_r.value);                                    \
            const double tail = omk_select(use_huge, huge_r.tail, fast_r.tail);                                        \
            out[i] = approx;                                                                                           \
            rejected[i] = (uint64_t)((factor) != 0.0) & (uint64_t)(omk_fma(tail, (factor), approx) != approx);         \
        }                                                                                                              \
        return 1;                                                                                                      \
    }

/* The flagged lanes of a binary64 block: special(x) for those from huge_end_bits on (vectorized), accurate(x) for the
 * rest, one by one. */
#define OMK_DEFINE_FINISH_BLOCK_F64(name, huge_end_bits, accurate, special)                                            \
    OMK_RARE_BLOCK static void name(const double *restrict in, double *restrict out, size_t m,                         \
                                    const uint64_t *restrict rejected) {                                               \
        uint64_t left[OMK_BLOCK_F64], any_left = 0;                                                                    \
        OMK_PRAGMA(omp simd reduction(| : any_left))                                                                   \
        for (size_t i = 0; i < m; i++) {                                                                               \
            const uint64_t special_lane = 0 - (uint64_t)(omk_abs_bits64(in[i]) >= (huge_end_bits));                    \
            out[i] = omk_select(special_lane, special(in[i]), out[i]);                                                 \
            left[i] = rejected[i] & ~special_lane;                                                                     \
            any_left |= left[i];                                                                                       \
        }                                                                                                              \
        if (any_left)                                                                                                  \
            for (size_t i = 0; i < m; i++)                                                                             \
                if (left[i]) out[i] = accurate(in[i]);                                                                 \
    }

/* OMK_ARRAY_BLOCK_F64 on each block, full blocks with a constant count (see OMK_ARRAY_LOOP). */
#define OMK_ARRAY_LOOP_F64(x, y, n, limit_bits, row_of, rows, fast_rows, split, rows_first, rows_second, fast,         \
                           huge_end_bits, factor, rows_extra, huge_block, finish_block)                                \
    for (size_t start = 0; start < (n); start += OMK_BLOCK_F64) {                                                      \
        const size_t block_count = (n)-start < OMK_BLOCK_F64 ? (n)-start : OMK_BLOCK_F64;                              \
        const int prefetch_next = (n) >= OMK_PREFETCH_MIN_F64 && (n)-start >= 2 * OMK_BLOCK_F64;                       \
        if (OMK_READ_ROWS_APART && block_count == OMK_BLOCK_F64)                                                       \
            OMK_ARRAY_BLOCK_F64(OMK_BLOCK_F64, start, prefetch_next, x, y, limit_bits, row_of, rows, fast_rows, split, \
                                rows_first, rows_second, fast, huge_end_bits, factor, rows_extra, huge_block,          \
                                finish_block);                                                                         \
        else                                                                                                           \
            OMK_ARRAY_BLOCK_F64(block_count, start, prefetch_next, x, y, limit_bits, row_of, rows, fast_rows, split,   \
                                rows_first, rows_second, fast, huge_end_bits, factor, rows_extra, huge_block,          \
                                finish_block);                                                                         \
    }

/* Whether this build's 16-bit kernels can compute in binary32 (OMK_ARRAY_LOOP_16) rather than read their tables:
 * the AVX-512 build, unless omk_half16_compute() (omk.c) chooses the table (OMK_HALF16, or the CPU). Both are correctly
 * rounded, so they agree. The AVX2 build reads the table: on AMD Zen 5 its 8-lane gathers reached 2.3 to 3.1
 * elements/ns, GCC's AVX2 code for an earlier form of the binary32 path (conversions inside the vectorized loop) only
 * 1.4 to 1.8. */
#if defined(__AVX512F__) && defined(__AVX512BW__)
#define OMK_HALF_COMPUTE 1
#else
#define OMK_HALF_COMPUTE 0
#endif
#include "omk_dispatch.h"

/* The 16-bit loop of the AVX-512 build, for a format with mant_bits fraction bits and exponent bias exp_bias
 * (binary16 10, 15; bfloat16 7, 127), in three passes per block: omk_widen16 widens |x| to binary32 (exact) and tells
 * whether every |x| lies below near_limit_bits, a vectorized pass replaces it by fast(|x|) (staged: two passes, reduce
 * then evaluate, or one, evaluate(reduce_near(|x|)), when they do; near_limit_bits 0: never), the result in binary32
 * (signed for cos) for |x| bits below limit_bits, and omk_narrow16 rounds that to the 16-bit format, flagging the lanes
 * within guard binary32 ulps of a rounding midpoint (half_guard_check narrows every input and proves that each lane it
 * passes rounds correctly); the flagged lanes read the table (table() gives it). Splitting the conversions off the
 * vectorized pass lets them use the conversion instructions and test 32 lanes at a time (on AMD Zen 5, binary16 cos
 * went from 0.82 to 1.18 times libmvec's throughput). odd_sign as in omk_lookup16.
 */
#define OMK_ARRAY_LOOP_16(x, y, n, mant_bits, exp_bias, fast, staged, reduce, evaluate, limit_bits, guard, odd_sign,   \
                          table, near_limit_bits, reduce_near)                                                         \
    do {                                                                                                               \
        omk_redo16 redo;                                                                                               \
        redo.count = 0;                                                                                                \
        for (size_t start = 0; start < (n); start += OMK_BLOCK) {                                                      \
            const size_t m = (n)-start < OMK_BLOCK ? (n)-start : OMK_BLOCK;                                            \
            uint16_t copy[OMK_BLOCK], *out = (y) + start;                                                              \
            const uint16_t *in = (x) + start;                                                                          \
            if (omk_ranges_overlap(in, out, OMK_BLOCK * sizeof(uint16_t)))                                             \
                in = memcpy(copy, in, m * sizeof(uint16_t));                                                           \
            float wide[OMK_BLOCK];                                                                                     \
            const int all_near = omk_widen16(in, wide, m, mant_bits, exp_bias, (near_limit_bits));                     \
            if (staged && all_near) {                                                                                  \
                OMK_PRAGMA(omp simd)                                                                                   \
                for (size_t i = 0; i < m; i++) wide[i] = evaluate(reduce_near(wide[i]));                               \
            } else if (staged) {                                                                                       \
                OMK_PRAGMA(omp simd)                                                                                   \
                for (size_t i = 0; i < m; i++) wide[i] = reduce(wide[i]);                                              \
                OMK_PRAGMA(omp simd)                                                                                   \
                for (size_t i = 0; i < m; i++) wide[i] = evaluate(wide[i]);                                            \
            } else {                                                                                                   \
                OMK_PRAGMA(omp simd)                                                                                   \
                for (size_t i = 0; i < m; i++) wide[i] = fast(wide[i]);                                                \
            }                                                                                                          \
            omk_narrow16(in, wide, out, m, mant_bits, exp_bias, limit_bits, guard, odd_sign, &redo, start);            \
            if (redo.count > OMK_REDO16_CAPACITY - OMK_BLOCK) omk_redo16_apply(&redo, (y), table(), odd_sign);         \
        }                                                                                                              \
        if (redo.count) omk_redo16_apply(&redo, (y), table(), odd_sign);                                               \
    } while (0)

/* The rounding-test factor of OMK_ARRAY_LOOP_F64 for the error bound eps (2^-80 <= eps <= 2^-56). */
#define OMK_ROUNDING_FACTOR(eps) (1.0 + 0x1p54 * (eps) * (1.0 + 2.0 * 0x1p54 * (eps)))
/* The error bound of the binary64 middle phases (cos_f64_refine, asin_f64_refine) that their rounding test assumes. */
#define OMK_F64_REFINE_EPS 0x1p-80

/* omk_bits64 and omk_double_from_bits: omk_fma.h */
static inline uint32_t omk_bits32(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float omk_float_from_bits(uint32_t u) {
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* |x[i]| widened exactly to binary32 (OMK_ARRAY_LOOP_16): its bits move into a binary32, which a product by
 * 2^(127 - exp_bias) scales, subnormals included; vcvtph2ps for binary16 in the AVX-512 build. Returns whether every
 * |x[i]| bits lie below limit (never for limit 0). The vector lanes' maxima meet the limit in one compare: reduced
 * to one number first (five dependent steps and a move to a general register per block), binary16 cos on [-pi, pi]
 * took 1.03 and bfloat16 cos 1.05 of the time on AMD Zen 5 (omk_ab, both orders, same outputs). */
static inline int omk_widen16(const uint16_t *in, float *wide, size_t m, int mant_bits, int exp_bias, uint32_t limit) {
    size_t i = 0;
    uint32_t max_abs = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
    const int binary16 = mant_bits == 10 && exp_bias == 15, bfloat16 = mant_bits == 7 && exp_bias == 127;
    const __m256i magnitude = _mm256_set1_epi16(0x7fff);
    __m256i max_vector = _mm256_setzero_si256();
    for (; (binary16 || bfloat16) && i + 16 <= m; i += 16) {
        const __m256i a = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(in + i)), magnitude);
        max_vector = _mm256_max_epu16(max_vector, a);
        if (binary16)
            _mm512_storeu_ps(wide + i, _mm512_cvtph_ps(a));
        else
            _mm512_storeu_si512((void *)(wide + i), _mm512_slli_epi32(_mm512_cvtepu16_epi32(a), 16));
    }
    const int vector_below = limit != 0 && _mm256_cmpge_epu16_mask(max_vector, _mm256_set1_epi16((short)limit)) == 0;
#else
    const int vector_below = 1;
#endif
    const float scale = omk_float_from_bits((uint32_t)(254 - exp_bias) << 23);
    for (; i < m; i++) {
        const uint32_t a = in[i] & 0x7fffu;
        max_abs = a > max_abs ? a : max_abs;
        wide[i] = omk_float_from_bits(a << (23 - mant_bits)) * scale;
    }
    return vector_below && max_abs < limit;
}

/* The lanes of one call that OMK_ARRAY_LOOP_16 takes from the table: their positions and inputs, looked up together at
 * the end of the call (or when the list fills). Flagged lanes are rare, but each is a load from a 64 KiB table that
 * other work may have pushed out of the caches; gathered at the end, their misses overlap instead of each stalling
 * the vector passes (on Zen 5 with every peer of ulpbench bench in the rounds, binary16 cos was 1.1 times slower
 * with the lookups in place). */
enum { OMK_REDO16_CAPACITY = 4 * OMK_BLOCK };
typedef struct {
    size_t count;
    size_t at[OMK_REDO16_CAPACITY];
    uint16_t in[OMK_REDO16_CAPACITY];
} omk_redo16;

static inline void omk_redo16_apply(omk_redo16 *redo, uint16_t *y, const uint16_t *table, uint16_t odd_sign) {
    for (size_t k = 0; k < redo->count; k++) y[redo->at[k]] = table[redo->in[k] & 0x7fff] ^ (redo->in[k] & odd_sign);
    redo->count = 0;
}

/* out[i] = r[i] rounded to the 16-bit format (sign ^ (in[i] & odd_sign)), except the lanes the rounding test flags or
 * whose |in[i]| bits reach limit_bits (NaN, infinities, what the binary32 path does not cover): those go on the redo
 * list for the table. With u the bits of r 2^(exp_bias - 127) plus half + guard, the scaling puts every result,
 * subnormal ones too, on the 16-bit grid with shift = 23 - mant_bits bits below it (the key units, binary32 ulps in
 * the normal range), so u >> shift is r rounded to nearest (ties away). The test flags r in [midpoint - guard,
 * midpoint + guard) key units, which leaves the low bits of u below 2 guard: ties always, and every lane whose
 * rounding could differ from f(x)'s if r's error stayed below guard. The guards of the 16-bit kernels are smaller
 * than their errors, so that alone proves nothing: half_guard_check narrows every input as here and finds each lane
 * the test passes correctly rounded. In the AVX-512 build binary16 rounds by vcvtps2ph, which agrees everywhere but at
 * ties (flagged). start: the position of in[0] in the call. */
/* The rounding key of omk_narrow16 (and of half_guard_check, which enumerates against it): u = bits of r
 * 2^(exp_bias - 127) + omk_key16_offset; the test flags the lane when (u & omk_key16_near_mask) == 0. */
static inline uint32_t omk_key16_offset(int mant_bits, uint32_t guard) { return (1u << (22 - mant_bits)) + guard; }
static inline uint32_t omk_key16_near_mask(int mant_bits, uint32_t guard) {
    return ((1u << (23 - mant_bits)) - 1) & ~(2 * guard - 1);
}

static inline void omk_narrow16(const uint16_t *in, const float *r, uint16_t *out, size_t m, int mant_bits,
                                int exp_bias, uint32_t limit_bits, uint32_t guard, uint16_t odd_sign, omk_redo16 *redo,
                                size_t start) {
    const uint32_t shift = 23 - (uint32_t)mant_bits, near_mask = omk_key16_near_mask(mant_bits, guard);
    const uint32_t offset = omk_key16_offset(mant_bits, guard);
    const float scale = omk_float_from_bits((uint32_t)exp_bias << 23);
    size_t i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    const int binary16 = mant_bits == 10 && exp_bias == 15, bfloat16 = mant_bits == 7 && exp_bias == 127;
    const __m512i magnitude = _mm512_set1_epi16(0x7fff), limit = _mm512_set1_epi16((short)limit_bits),
                  sign = _mm512_set1_epi16((short)odd_sign), near = _mm512_set1_epi32((int)near_mask),
                  half_guard = _mm512_set1_epi32((int)offset);
    const __m512 scale_v = _mm512_set1_ps(scale);
    for (; (binary16 || bfloat16) && i + 32 <= m; i += 32) { /* 32 lanes: one 16-bit compare, one mask test */
        const __m512 r0 = _mm512_loadu_ps(r + i), r1 = _mm512_loadu_ps(r + i + 16);
        const __m512i u0 = _mm512_add_epi32(_mm512_castps_si512(_mm512_mul_ps(r0, scale_v)), half_guard);
        const __m512i u1 = _mm512_add_epi32(_mm512_castps_si512(_mm512_mul_ps(r1, scale_v)), half_guard);
        const __m512i h = _mm512_loadu_si512((const void *)(in + i));
        __m512i v;
        if (binary16)
            v = _mm512_inserti64x4(
                _mm512_castsi256_si512(_mm512_cvtps_ph(r0, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)),
                _mm512_cvtps_ph(r1, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), 1);
        else /* bfloat16: the sign comes along */
            v = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(_mm512_srli_epi32(u0, shift))),
                                   _mm512_cvtepi32_epi16(_mm512_srli_epi32(u1, shift)), 1);
        _mm512_storeu_si512((void *)(out + i), _mm512_ternarylogic_epi32(v, h, sign, 0x78)); /* v ^ (h & sign) */
        const __mmask32 near_midpoint =
            _mm512_kunpackw(_mm512_testn_epi32_mask(u1, near), _mm512_testn_epi32_mask(u0, near));
        uint32_t lanes = near_midpoint | _mm512_cmpge_epu16_mask(_mm512_and_si512(h, magnitude), limit);
        for (; lanes; lanes &= lanes - 1) {
            const size_t j = i + (size_t)__builtin_ctz(lanes);
            redo->at[redo->count] = start + j;
            redo->in[redo->count++] = in[j];
        }
    }
#endif
    for (; i < m; i++) {
        const uint32_t bits = omk_bits32(r[i]), u = omk_bits32(r[i] * scale) + offset;
        if ((u & near_mask) == 0 || (uint32_t)(in[i] & 0x7fff) >= limit_bits) {
            redo->at[redo->count] = start + i;
            redo->in[redo->count++] = in[i];
        } else {
            const uint32_t value = ((u >> shift) & 0x7fff) | ((bits >> 16) & 0x8000);
            out[i] = (uint16_t)(value ^ (in[i] & odd_sign));
        }
    }
}

/* op##_f64_fast(x) from its two stages, so that the one-element path and the three passes of the vector loops
 * compute the same thing by construction: the row index with the two carried values, op##_f64_carry on the second
 * (which the vector loops apply beside the row reads: op##_F64_ROWS_EXTRA), then the rest. The rows are indexed in
 * full: through a row pointer GCC did not vectorize the loops that call it (the second pass). */
#define OMK_DEFINE_F64_FAST(op)                                                                                        \
    static inline omk_f64_result op##_f64_fast(double x) {                                                             \
        double aux, aux2;                                                                                              \
        const int64_t j = op##_f64_row(x, &aux, &aux2);                                                                \
        aux2 = op##_f64_carry(aux, aux2);                                                                              \
        return op##_f64_fast_rows(x, aux, aux2, op##_F64_ROWS[j][0], op##_F64_ROWS[j][1], op##_F64_ROWS[j][2],         \
                                  op##_F64_ROWS[j][3]);                                                                \
    }

/* The array entry points of one op for one ISA build, from the op's element functions:
 *   op##_f64_fast(x), op##_f32_fast(x)  branch-free approximations the array loops vectorize (binary64:
 *                                        value + tail, omk_f64_result);
 *   op##_f64_row(x, &aux, &aux2), op##_F64_ROWS, op##_f64_fast_rows(x, aux, aux2, row[0..3])  op##_f64_fast
 *                                        in two stages (OMK_DEFINE_F64_FAST): its table row's index (and two values
 *                                        carried over), then the rest;
 *   op##_F64_SPLIT, op##_f64_rows_first, op##_f64_rows_second  with split 1, op##_f64_fast_rows is the second of
 *                                        the first (two values carried over), run as two passes;
 *   op##_f64_carry(aux, aux2)            the second carried value as the rest takes it (the identity, or a step that
 *                                        the vector builds run on whole vectors beside the row reads:
 *                                        op##_F64_ROWS_EXTRA(aux, aux2, count), 0 for the identity);
 *   op##_F32_STAGED, op##_f32_reduce(x, &aux), op##_f32_evaluate(reduced, aux)  with staged 1, op##_f32_fast(x) in
 *                                        two stages, which the vector builds run as two passes;
 *   op##_F32_NEAR_LIMIT_BITS, op##_f32_reduce_near(x), op##_F32_NEAR_AUX  (staged ops; limit 0: none) a block whose
 *                                        |x| bits all lie below the limit is reduced by reduce_near, whose result
 *                                        evaluate takes with the constant aux: the same bits in fewer operations;
 *   op##_f32_finish(x, y)                the binary32 result from y = (float)op##_f32_fast(x);
 *   op##_f32_huge(x), op##_F32_HUGE_END_BITS  binary32 lanes with |x| bits in [limit, end) that
 *                                        a second vectorized path covers (end = limit: none);
 *   op##_f64_huge(x), op##_F64_HUGE_END_BITS  the same for binary64;
 *   op##_F64_ROUNDING_FACTOR             the binary64 rounding test (OMK_ARRAY_LOOP_F64; 0: none);
 *   op##_f64_accurate(x)                 binary64 lanes that fail it (below the end bits);
 *   op##_FAST_LIMIT                      the fast paths cover |x| < op##_FAST_LIMIT;
 *   op##_needs_slow_path(x)              !(|x| < op##_FAST_LIMIT), NaN included;
 *   op##_f64_dd(x, &tail)                the general path, result + tail to ~2^-60 relative;
 *   op##_special(x)                      branch-free: the result (op##_f64_dd's, tail 0) for |x| from the huge end
 *                                        bits on (NaN, infinities; asin's |x| >= 1);
 *   op##_h_fast(|x|), op##_H_GUARD, op##_F16_LIMIT_BITS, op##_BF16_LIMIT_BITS  the 16-bit kernels' binary32 path
 *                                        (OMK_ARRAY_LOOP_16), its guard and the |x| bits it leaves to the table;
 *   op##_H_STAGED, op##_h_reduce, op##_h_evaluate, op##_h_reduce_near, op##_F16_NEAR_LIMIT_BITS,
 *   op##_BF16_NEAR_LIMIT_BITS            its stages and block-wide shortcut, as for binary32 above.
 * binary32 redoes results within OMK_F32_GUARD of a rounding boundary, rounding op##_f64_dd's double-double;
 * the 16-bit kernels (OMK_DEFINE_KERNELS_16) read tables (table16.c), for every lane or for the lanes their binary32
 * path leaves, filled from the binary64 kernel or, in the scalar build, by op##_<dtype>_direct from op##_f64_dd.
 * odd_sign: 0x8000 for odd ops, 0 for even. */
#define OMK_DEFINE_KERNELS(op, odd_sign)                                                                               \
    OMK_RARE_PATH static float op##_f32_accurate(float x) {                                                            \
        double tail;                                                                                                   \
        const double y = op##_f64_dd((double)x, &tail);                                                                \
        return omk_round_dd_to_float(y, tail);                                                                         \
    }                                                                                                                  \
    /* op##_f32_accurate's result for |x| bits from op##_F32_HUGE_END_BITS on, where op##_f64_dd is op##_special */    \
    static inline float op##_f32_special(float x) { return (float)op##_special((double)x); }                           \
    OMK_DEFINE_KERNELS_16(op, f16, F16, 10, 15, odd_sign)                                                              \
    OMK_DEFINE_KERNELS_16(op, bf16, BF16, 7, 127, odd_sign)                                                            \
    OMK_DEFINE_HUGE_BLOCK_F64(op##_f64_huge_block, omk_bits64(op##_FAST_LIMIT), op##_f64_fast, op##_f64_huge,          \
                              op##_F64_HUGE_END_BITS, op##_F64_ROUNDING_FACTOR)                                        \
    OMK_DEFINE_FINISH_BLOCK_F64(op##_f64_finish_block, op##_F64_HUGE_END_BITS, op##_f64_accurate, op##_special)        \
    OMK_DEFINE_RARE_BLOCK_F32(op##_f32_rare_block, float, uint32_t, omk_abs_bits32,                                    \
                              omk_bits32((float)op##_FAST_LIMIT), op##_f32_fast, op##_f32_huge,                        \
                              op##_F32_HUGE_END_BITS, op##_f32_finish, omk_f32_rounding_key, 2 * OMK_F32_GUARD,        \
                              op##_f32_accurate, op##_f32_special)                                                     \
    void OMK_ISA_NAME(omk_##op##_f64)(const double *x, double *y, size_t n) {                                          \
        OMK_ARRAY_LOOP_F64(x, y, n, omk_bits64(op##_FAST_LIMIT), op##_f64_row, op##_F64_ROWS, op##_f64_fast_rows,      \
                           op##_F64_SPLIT, op##_f64_rows_first, op##_f64_rows_second, op##_f64_fast,                   \
                           op##_F64_HUGE_END_BITS, op##_F64_ROUNDING_FACTOR, op##_F64_ROWS_EXTRA, op##_f64_huge_block, \
                           op##_f64_finish_block)                                                                      \
    }                                                                                                                  \
    void OMK_ISA_NAME(omk_##op##_f32)(const float *x, float *y, size_t n) {                                            \
        OMK_ARRAY_LOOP(float, uint32_t, x, y, n, omk_abs_bits32, omk_bits32((float)op##_FAST_LIMIT), op##_f32_fast,    \
                       op##_F32_STAGED, op##_f32_reduce, op##_f32_evaluate, op##_f32_finish, omk_f32_rounding_key,     \
                       2 * OMK_F32_GUARD, op##_f32_rare_block, op##_F32_NEAR_LIMIT_BITS, op##_f32_reduce_near,         \
                       op##_F32_NEAR_AUX)                                                                              \
    }

/* The entry points of one 16-bit type (mant_bits fraction bits, exponent bias exp_bias): op##_<dtype>_direct, which
 * fills the table in the scalar build and its rare midpoint entries in the others (table16.c), and the array kernel. */
#define OMK_DEFINE_KERNELS_16(op, dtype, DTYPE, mant_bits, exp_bias, odd_sign)                                         \
    void OMK_ISA_NAME(omk_##op##_##dtype##_direct)(const uint16_t *x, uint16_t *y, size_t n) {                         \
        for (size_t i = 0; i < n; i++) {                                                                               \
            double tail;                                                                                               \
            const double hi = op##_f64_dd(omk_##dtype##_to_double(x[i]), &tail);                                       \
            y[i] = omk_dd_to_##dtype(hi, tail);                                                                        \
        }                                                                                                              \
    }                                                                                                                  \
    void OMK_ISA_NAME(omk_##op##_##dtype)(const uint16_t *x, uint16_t *y, size_t n) {                                  \
        if (!OMK_HALF_COMPUTE || !omk_half16_compute()) {                                                              \
            omk_lookup16(omk_table_##op##_##dtype(), odd_sign, x, y, n);                                               \
            return;                                                                                                    \
        }                                                                                                              \
        OMK_ARRAY_LOOP_16(x, y, n, mant_bits, exp_bias, op##_h_fast, op##_H_STAGED, op##_h_reduce, op##_h_evaluate,    \
                          op##_##DTYPE##_LIMIT_BITS, op##_H_GUARD, odd_sign, omk_table_##op##_##dtype,                 \
                          op##_##DTYPE##_NEAR_LIMIT_BITS, op##_h_reduce_near);                                         \
    }

/* Per-lane select by an all-ones/all-zeros mask: integer ops vectorize on every ISA, where the
 * compiler would not turn a data-dependent branch into a blend. */
static inline double omk_select(uint64_t mask, double if_set, double if_clear) {
    return omk_double_from_bits((omk_bits64(if_set) & mask) | (omk_bits64(if_clear) & ~mask));
}
static inline float omk_select_float(uint32_t mask, float if_set, float if_clear) {
    return omk_float_from_bits((omk_bits32(if_set) & mask) | (omk_bits32(if_clear) & ~mask));
}

/* The square root instruction in every build: with -fno-math-errno GCC inlines sqrt() only when optimizing, and an
 * unoptimized (Debug) build would call libm, which sets errno for |x| > 1. */
static inline double omk_sqrt(double x) { return __builtin_sqrt(x); }
static inline float omk_sqrtf(float x) { return __builtin_sqrtf(x); }

/* Error-free sum (Knuth): a + b = s + err exactly. */
static inline double omk_two_sum(double a, double b, double *err) {
    const double s = a + b;
    const double b_virtual = s - a;
    *err = (a - (s - b_virtual)) + (b - b_virtual);
    return s;
}

/* A binary64 approximation y of a binary32 result with error below OMK_F32_GUARD binary64 ulps
 * rounds correctly unless it lies within that distance of a binary32 midpoint (low 29 bits of the
 * significand 0x10000000). The guard (2^13 ulps, relative 2^-39) is 13 times the largest error
 * f32_guard_check measures over every binary32 input (618 ulps for cos, 576 for asin). The window holds
 * 2 OMK_F32_GUARD + 1 of the 2^29 values of the low bits, about 1 lane in 33,000 for evenly spread bits (over all
 * 2^32 inputs 72,424 cos and 6,528 asin lanes are redone). */
enum { OMK_F32_GUARD = 8192 };
/* Distance test in key form for the array loops: ambiguous exactly when the key is <= 2 OMK_F32_GUARD (the
 * wrap-around modulo 2^29 folds both sides of the midpoint into one range). The 29 bits lie in the low 32-bit word,
 * so the key is computed there: the loops then pack the low words of two vectors of doubles into one and reduce 16
 * (AVX-512) or 8 (AVX2) keys per instruction, which made float cos and asin 2-4% faster on AVX-512 and 6-10% on
 * AVX2 than 64-bit keys (omk_ab). */
static inline uint32_t omk_f32_rounding_key(double y) {
    return ((uint32_t)omk_bits64(y) - (0x10000000u - OMK_F32_GUARD)) & 0x1fffffff;
}
static inline int omk_f32_rounding_ambiguous(double y) { return omk_f32_rounding_key(y) <= 2 * OMK_F32_GUARD; }
static inline uint32_t omk_abs_bits32(float x) { return omk_bits32(x) & 0x7fffffff; }
static inline uint64_t omk_abs_bits64(double x) { return omk_bits64(x) & 0x7fffffffffffffffull; }

/* Correct rounding of hi + lo (|lo| <= ulp(hi)/2) to binary32, for results in the normal range:
 * only when hi sits exactly on a binary32 midpoint does lo decide the direction. */
static inline float omk_round_dd_to_float(double hi, double lo) {
    uint64_t bits = omk_bits64(hi);
    if ((bits & 0x1fffffff) == 0x10000000 && lo != 0.0) bits += ((lo > 0) == (hi > 0)) ? 1 : (uint64_t)-1;
    return (float)omk_double_from_bits(bits);
}

/* Horner evaluation with fused multiply-adds, so that every ISA build rounds identically.
 * Fully unrolled, so that the loops calling it stay vectorizable. */
static inline double omk_horner(double z, const double *coeffs, int count) {
    double acc = coeffs[count - 1];
#pragma GCC unroll 32
    for (int i = count - 2; i >= 0; i--) acc = omk_fma(acc, z, coeffs[i]);
    return acc;
}

static inline float omk_horner_f32(float z, const float *coeffs, int count) {
    float acc = coeffs[count - 1];
#pragma GCC unroll 32
    for (int i = count - 2; i >= 0; i--) acc = omk_fmaf(acc, z, coeffs[i]);
    return acc;
}

/* Widening: exact. Decodes a binary16/bfloat16-style pattern with mant_bits fraction bits and
 * exp_bits exponent bits. */
static inline double omk_narrow_to_double(uint16_t h, int mant_bits, int exp_bits) {
    const uint64_t sign = (uint64_t)(h >> 15) << 63;
    const int exp_field = (h >> mant_bits) & ((1 << exp_bits) - 1);
    const uint64_t mant = h & ((1u << mant_bits) - 1);
    const int bias = (1 << (exp_bits - 1)) - 1;
    if (exp_field == (1 << exp_bits) - 1) /* inf or NaN: keep payload bits, top-aligned */
        return omk_double_from_bits(sign | 0x7ff0000000000000ull | (mant << (52 - mant_bits)));
    if (exp_field == 0) { /* zero or subnormal: mant * 2^(1 - bias - mant_bits), exact */
        const double magnitude = (double)mant * omk_double_from_bits((uint64_t)(1023 + 1 - bias - mant_bits) << 52);
        return sign ? -magnitude : magnitude;
    }
    return omk_double_from_bits(sign | ((uint64_t)(exp_field - bias + 1023) << 52) | (mant << (52 - mant_bits)));
}

/* Narrowing with a single rounding (to nearest, ties to even) from binary64; keeps
 * subnormals, overflows to infinity, NaN becomes a quiet NaN of the same sign. */
static inline uint16_t omk_double_to_narrow(double x, int mant_bits, int exp_bits) {
    const uint64_t bits = omk_bits64(x);
    const uint16_t sign = (uint16_t)((bits >> 63) << 15);
    const uint64_t abs_bits = bits & 0x7fffffffffffffffull;
    const uint16_t inf = (uint16_t)(((1u << exp_bits) - 1) << mant_bits);
    if (abs_bits >= 0x7ff0000000000000ull) {
        if (abs_bits == 0x7ff0000000000000ull) return sign | inf;
        const uint16_t payload = (uint16_t)((abs_bits & 0x000fffffffffffffull) >> (52 - mant_bits));
        return sign | inf | (uint16_t)(1u << (mant_bits - 1)) | payload;
    }
    const int bias = (1 << (exp_bits - 1)) - 1;
    const int exp = (int)(abs_bits >> 52) - 1023; /* binary64 subnormals round to zero anyway */
    if (exp > bias) return sign | inf;
    const uint64_t mant = (abs_bits & 0x000fffffffffffffull) | 0x0010000000000000ull;
    int target_exp = exp + bias; /* biased exponent in the narrow format */
    int shift = 52 - mant_bits;
    if (target_exp < 1) { /* subnormal result: drop extra bits, exponent field 0 */
        shift += 1 - target_exp;
        target_exp = 0;
    }
    if (shift > 54) return sign; /* below half the smallest subnormal */
    uint64_t q = mant >> shift;
    const uint64_t rem = mant & ((1ull << shift) - 1);
    const uint64_t half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
    /* A carry out of the significand moves into the exponent field, which is what we want. */
    uint64_t out = target_exp == 0 ? q : ((uint64_t)target_exp << mant_bits) + q - (1ull << mant_bits);
    if (out >= inf) out = inf;
    return sign | (uint16_t)out;
}

/* Whether y, which omk_double_to_narrow rounded to `rounded`, lies halfway between two values of the narrow format: the
 * one case where rounding a binary64 result again can differ from rounding f(x). */
static inline bool omk_narrow_midpoint(double y, uint16_t rounded, int mant_bits, int exp_bits) {
    const double magnitude = fabs(y);
    const uint16_t nearest = rounded & 0x7fff;
    const double nearest_value = omk_narrow_to_double(nearest, mant_bits, exp_bits);
    if (magnitude == nearest_value) return false;
    const uint16_t beside = magnitude > nearest_value ? nearest + 1 : nearest - 1;
    return magnitude == 0.5 * (nearest_value + omk_narrow_to_double(beside, mant_bits, exp_bits)); /* false for NaN */
}

/* hi + lo (|lo| at most half an ulp of hi, and f(x) on lo's side of hi) rounded once to the narrow format: where hi is
 * a midpoint, lo says which side f(x) is on, so hi moves one binary64 ulp that way (no other midpoint is that close),
 * as omk_round_dd_to_float does for binary32. */
static inline uint16_t omk_dd_to_narrow(double hi, double lo, int mant_bits, int exp_bits) {
    const uint16_t rounded = omk_double_to_narrow(hi, mant_bits, exp_bits);
    if (lo == 0.0 || !omk_narrow_midpoint(hi, rounded, mant_bits, exp_bits)) return rounded;
    const uint64_t toward_lo = ((lo > 0) == (hi > 0)) ? 1 : (uint64_t)-1;
    return omk_double_to_narrow(omk_double_from_bits(omk_bits64(hi) + toward_lo), mant_bits, exp_bits);
}

static inline double omk_f16_to_double(uint16_t h) { return omk_narrow_to_double(h, 10, 5); }
static inline double omk_bf16_to_double(uint16_t h) { return omk_narrow_to_double(h, 7, 8); }
static inline uint16_t omk_double_to_f16(double x) { return omk_double_to_narrow(x, 10, 5); }
static inline uint16_t omk_double_to_bf16(double x) { return omk_double_to_narrow(x, 7, 8); }
static inline uint16_t omk_dd_to_f16(double hi, double lo) { return omk_dd_to_narrow(hi, lo, 10, 5); }
static inline uint16_t omk_dd_to_bf16(double hi, double lo) { return omk_dd_to_narrow(hi, lo, 7, 8); }
static inline bool omk_f16_midpoint(double y, uint16_t rounded) { return omk_narrow_midpoint(y, rounded, 10, 5); }
static inline bool omk_bf16_midpoint(double y, uint16_t rounded) { return omk_narrow_midpoint(y, rounded, 7, 8); }

#endif
