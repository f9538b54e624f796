/* Result tables of the 16-bit kernels (table16.c) and the per-ISA lookup over them. */
#ifndef OMK_TABLE16_H
#define OMK_TABLE16_H

#include <stddef.h>
#include <stdint.h>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* One spare entry: a 32-bit gather at index 65535 reads two bytes past the last result. */
enum { OMK_TABLE16_SIZE = 65536 + 2 };

#define OMK_TABLE_float(op, dtype)
#define OMK_TABLE_double(op, dtype)
#define OMK_TABLE_uint16_t(op, dtype) const uint16_t *omk_table_##op##_##dtype(void);
#define OMK_KERNEL(op, dtype, ctype) OMK_TABLE_##ctype(op, dtype)
#include "omk_kernels.def"
#undef OMK_KERNEL
#undef OMK_TABLE_float
#undef OMK_TABLE_double
#undef OMK_TABLE_uint16_t

/* y[i] = table[x[i]]; every block is loaded before it is stored, so y == x works. */
static inline void omk_lookup16(const uint16_t *table, const uint16_t *x, uint16_t *y, size_t n) {
    size_t i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    for (; i + 32 <= n; i += 32) {
        const __m512i index = _mm512_loadu_si512((const void *)(x + i));
        const __m512i lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(index));
        const __m512i hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(index, 1));
        const __m512i got_lo = _mm512_i32gather_epi32(lo, (const void *)table, 2);
        const __m512i got_hi = _mm512_i32gather_epi32(hi, (const void *)table, 2);
        _mm256_storeu_si256((__m256i *)(void *)(y + i), _mm512_cvtepi32_epi16(got_lo));
        _mm256_storeu_si256((__m256i *)(void *)(y + i + 16), _mm512_cvtepi32_epi16(got_hi));
    }
#elif defined(__AVX2__)
    const __m256i low16 = _mm256_set1_epi32(0xffff);
    for (; i + 16 <= n; i += 16) {
        const __m256i index = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
        const __m256i lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(index));
        const __m256i hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(index, 1));
        const __m256i got_lo = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)table, lo, 2), low16);
        const __m256i got_hi = _mm256_and_si256(_mm256_i32gather_epi32((const int *)(const void *)table, hi, 2), low16);
        /* packus works per 128-bit half; the permute restores element order */
        const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(got_lo, got_hi), 0xd8);
        _mm256_storeu_si256((__m256i *)(void *)(y + i), packed);
    }
#endif
    for (; i < n; i++) y[i] = table[x[i]];
}

#endif
