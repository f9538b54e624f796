/* AVX2 peers: libmvec's and SLEEF's 8 x binary32 and 4 x binary64 functions; binary16 through
 * F16C (round to nearest even) and bfloat16 by shifting and a software round to nearest even
 * around the binary32 one. Built with -mavx2 -mfma -mf16c, matching the registry's AVX2 check. */
#include <sleef.h>

#include "peers_simd.h"

static inline __m256 widen_bf16x8(const uint16_t *in) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)in)), 16));
}

/* Round to nearest even by adding 0x7fff plus the kept lsb, as c10::BFloat16 and friends do;
 * NaN becomes a quiet NaN of the same sign instead of rounding into infinity. */
static inline __m128i narrow_bf16x8(__m256 v) {
    const __m256i bits = _mm256_castps_si256(v);
    const __m256i high = _mm256_srli_epi32(bits, 16);
    const __m256i bias = _mm256_add_epi32(_mm256_set1_epi32(0x7fff), _mm256_and_si256(high, _mm256_set1_epi32(1)));
    const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(bits, bias), 16);
    const __m256i quiet_nan = _mm256_or_si256(high, _mm256_set1_epi32(0x40));
    const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    const __m256i halves = _mm256_blendv_epi8(rounded, quiet_nan, is_nan);
    /* every value fits 16 bits, so the saturating pack is exact; it packs within 128-bit lanes,
     * so quadwords 0 and 2 hold the 8 results */
    const __m256i packed = _mm256_packus_epi32(halves, halves);
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(packed, 0x08));
}

#define STEP_F32(fn, in, out) _mm256_storeu_ps(out, fn(_mm256_loadu_ps(in)))
#define STEP_F64(fn, in, out) _mm256_storeu_pd(out, fn(_mm256_loadu_pd(in)))
#define STEP_F16(fn, in, out)                                                                                          \
    _mm_storeu_si128((__m128i *)(out), _mm256_cvtps_ph(fn(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in)))),    \
                                                       _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#define STEP_BF16(fn, in, out) _mm_storeu_si128((__m128i *)(out), narrow_bf16x8(fn(widen_bf16x8(in))))

#undef WRAP32_AVX2
#define WRAP32_AVX2(ident, op, f32_fn)                                                                                 \
    ULPB_SIMD_PEER(peer_##ident##_##op##_f32, float, 8, STEP_F32, f32_fn)                                              \
    ULPB_SIMD_PEER(peer_##ident##_##op##_f16, uint16_t, 8, STEP_F16, f32_fn)                                           \
    ULPB_SIMD_PEER(peer_##ident##_##op##_bf16, uint16_t, 8, STEP_BF16, f32_fn)
#undef WRAP_AVX2
#define WRAP_AVX2(ident, op, f32_fn, f64_fn)                                                                           \
    WRAP32_AVX2(ident, op, f32_fn) ULPB_SIMD_PEER(peer_##ident##_##op##_f64, double, 4, STEP_F64, f64_fn)
#include "registry.def"
