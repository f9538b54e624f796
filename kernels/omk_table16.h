/* Result tables of the 16-bit kernels (table16.c) and the per-ISA lookup over them. */
#ifndef OMK_TABLE16_H
#define OMK_TABLE16_H

#include <stddef.h>
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* Tables cover the non-negative half (cos is even, asin odd: the sign is applied after the
 * lookup), which halves the cache footprint. Two spare entries: a 32-bit gather at the last index
 * reads the two bytes after the last result. */
enum { OMK_TABLE16_ENTRIES = 32768, OMK_TABLE16_SIZE = OMK_TABLE16_ENTRIES + 2 };

#define OMK_TABLE_float(op, dtype)
#define OMK_TABLE_double(op, dtype)
/* omk_table_<op>_<dtype>: the table, filled at the first call; omk_table_midpoints_<op>_<dtype>: how many of its
 * entries the fill took from the direct evaluation, their binary64 result being a 16-bit midpoint (table16.c). */
#define OMK_TABLE_uint16_t(op, dtype)                                                                                  \
    const uint16_t *omk_table_##op##_##dtype(void);                                                                    \
    size_t omk_table_midpoints_##op##_##dtype(void);
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) OMK_TABLE_##ctype(op, dtype)
#include "omk_kernels.def"
#undef OMK_KERNEL
#undef OMK_TABLE_float
#undef OMK_TABLE_double
#undef OMK_TABLE_uint16_t

/* y[i] = table[|x[i]|] ^ (x[i] & odd_sign): odd_sign is 0x8000 for odd functions, 0 for even
 * ones. Every block is loaded before it is stored, so y == x works. */
static inline void omk_lookup16(const uint16_t *table, uint16_t odd_sign, const uint16_t *x, uint16_t *y, size_t n) {
    size_t i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    const __m512i magnitude = _mm512_set1_epi32(0x7fff), sign = _mm512_set1_epi32(odd_sign);
    for (; i + 32 <= n; i += 32) {
        const __m512i in = _mm512_loadu_si512((const void *)(x + i));
        const __m512i lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(in));
        const __m512i hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(in, 1));
        __m512i got_lo = _mm512_i32gather_epi32(_mm512_and_si512(lo, magnitude), (const void *)table, 2);
        __m512i got_hi = _mm512_i32gather_epi32(_mm512_and_si512(hi, magnitude), (const void *)table, 2);
        got_lo = _mm512_xor_si512(got_lo, _mm512_and_si512(lo, sign));
        got_hi = _mm512_xor_si512(got_hi, _mm512_and_si512(hi, sign));
        _mm256_storeu_si256((__m256i *)(void *)(y + i), _mm512_cvtepi32_epi16(got_lo));
        _mm256_storeu_si256((__m256i *)(void *)(y + i + 16), _mm512_cvtepi32_epi16(got_hi));
    }
#elif defined(__AVX2__)
    const __m256i magnitude = _mm256_set1_epi32(0x7fff), sign = _mm256_set1_epi32(odd_sign);
    const __m256i low16 = _mm256_set1_epi32(0xffff);
    for (; i + 16 <= n; i += 16) {
        const __m256i in = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
        const __m256i lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(in));
        const __m256i hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(in, 1));
        const int *base = (const int *)(const void *)table;
        __m256i got_lo = _mm256_i32gather_epi32(base, _mm256_and_si256(lo, magnitude), 2);
        __m256i got_hi = _mm256_i32gather_epi32(base, _mm256_and_si256(hi, magnitude), 2);
        got_lo = _mm256_and_si256(_mm256_xor_si256(got_lo, _mm256_and_si256(lo, sign)), low16);
        got_hi = _mm256_and_si256(_mm256_xor_si256(got_hi, _mm256_and_si256(hi, sign)), low16);
        /* packus works per 128-bit half; the permute restores element order */
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(got_lo, got_hi), 0xd8);
        _mm256_storeu_si256((__m256i *)(void *)(y + i), packed);
    }
#endif
    for (; i < n; i++) y[i] = table[x[i] & 0x7fff] ^ (x[i] & odd_sign);
}

#endif
