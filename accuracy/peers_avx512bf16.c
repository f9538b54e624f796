/* AVX-512 bfloat16 peers: widen by shifting into the high half, call the 16 x binary32
 * function, narrow with vcvtneps2bf16 as runtimes do on this hardware (round to nearest even;
 * it flushes subnormals, which the accuracy report shows). Built with -mavx512f -mavx512bf16,
 * matching the registry's AVX512_BF16 check. */
#include <sleef.h>

#include "peers_simd.h"

static inline __m512 widen_bf16x16(const uint16_t *in) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)in)), 16));
}

#define STEP_BF16(fn, in, out) _mm256_storeu_si256((__m256i *)(out), (__m256i)_mm512_cvtneps_pbh(fn(widen_bf16x16(in))))

#undef WRAP_AVX512
#define WRAP_AVX512(ident, op, f32_fn, f64_fn)                                                                         \
    ULPB_SIMD_PEER(peer_##ident##_##op##_bf16, uint16_t, 16, STEP_BF16, f32_fn)
#include "registry.def"
