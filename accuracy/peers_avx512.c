/* AVX-512F peers: libmvec's and SLEEF's 16 x binary32 and 8 x binary64 functions, and binary16
 * through vcvtph2ps / vcvtps2ph (round to nearest even) around the binary32 one. Built with
 * -mavx512f only, matching the registry's AVX512 check. bfloat16 is in peers_avx512bf16.c. */
#include <sleef.h>

#include "peers_simd.h"

#define STEP_F32(fn, in, out) _mm512_storeu_ps(out, fn(_mm512_loadu_ps(in)))
#define STEP_F64(fn, in, out) _mm512_storeu_pd(out, fn(_mm512_loadu_pd(in)))
#define STEP_F16(fn, in, out)                                                                                          \
    _mm256_storeu_si256((__m256i *)(out),                                                                              \
                        _mm512_cvtps_ph(fn(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(in)))),                \
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))

#undef WRAP_AVX512
#define WRAP_AVX512(ident, op, f32_fn, f64_fn)                                                                         \
    ULPB_SIMD_PEER(peer_##ident##_##op##_f32, float, 16, STEP_F32, f32_fn)                                             \
    ULPB_SIMD_PEER(peer_##ident##_##op##_f64, double, 8, STEP_F64, f64_fn)                                             \
    ULPB_SIMD_PEER(peer_##ident##_##op##_f16, uint16_t, 16, STEP_F16, f32_fn)
#include "registry.def"
