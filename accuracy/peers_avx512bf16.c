/* AVX-512 bfloat16 peers on CPUs with AVX512_BF16: widen by shifting into the high half, call the
 * 16 x binary32 function, narrow as runtimes do on this hardware: 32 elements a step, two calls
 * and one vcvtne2ps2bf16 for both halves, as PyTorch's Vectorized<BFloat16> (round to nearest
 * even; it flushes subnormals, which the accuracy report shows). peers_avx512.c calls these when
 * the CPU has AVX512_BF16 and emulates the instruction otherwise. Built with -mavx512f
 * -mavx512bf16, matching the registry's AVX512_BF16 check. */
#include <sleef.h>

#include "peers_simd.h"
#include "registry.h"

#define STEP_BF16(fn, in, out)                                                                                         \
    _mm512_storeu_si512((out), (__m512i)_mm512_cvtne2ps_pbh(fn(widen_bf16x16((in) + 16)), fn(widen_bf16x16(in))))

#undef WRAP32_AVX512
#define WRAP32_AVX512(ident, op, f32_fn)                                                                               \
    ULPB_SIMD_PEER(peer_##ident##_##op##_bf16_avx512bf16, uint16_t, 32, STEP_BF16, f32_fn)
#undef WRAP_AVX512
#define WRAP_AVX512(ident, op, f32_fn, f64_fn) WRAP32_AVX512(ident, op, f32_fn)
#include "registry.def"

void ulpb_narrow_bf16_avx512bf16(const float *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i += 32)
        _mm512_storeu_si512(y + i, (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(x + i)));
}
