/* AVX-512F peers: libmvec's and SLEEF's 16 x binary32 and 8 x binary64 functions, binary16
 * through vcvtph2ps / vcvtps2ph (round to nearest even) around the binary32 one, and bfloat16
 * through peers_avx512bf16.c's vcvtne2ps2bf16 pipelines on CPUs with AVX512_BF16, else through the
 * same steps with that instruction emulated bit for bit (Skylake-SP, Cascade Lake, Ice Lake-SP),
 * so that a row gives the same bits on every CPU. Runtimes there narrow in software without
 * flushing subnormals, as the AVX2 rows do. Built with -mavx512f only, matching the registry's
 * AVX512 check. */
#include <sleef.h>
#include <stdatomic.h>

#include "peers_simd.h"
#include "registry.h"

/* vcvtneps2bf16 as the SDM defines it: a NaN keeps its high half, made quiet; a subnormal (or zero) becomes a zero of
 * its sign, as if DAZ; anything else is rounded to nearest even by adding 0x7fff plus the kept lsb. */
static inline __m256i narrow_bf16x16_as_vcvtneps2bf16(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __mmask16 subnormal = _mm512_testn_epi32_mask(bits, _mm512_set1_epi32(0x7f800000));
    const __m512i flushed = _mm512_mask_and_epi32(bits, subnormal, bits, _mm512_set1_epi32((int)0x80000000u));
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(flushed, 16), _mm512_set1_epi32(1));
    const __m512i bias = _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff));
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(flushed, bias), 16);
    const __m512i quiet_nan = _mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x40));
    const __m512i halves = _mm512_mask_mov_epi32(rounded, _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), quiet_nan);
    return _mm512_cvtepi32_epi16(halves);
}

void ulpb_narrow_bf16_emulated(const float *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i += 16)
        _mm256_storeu_si256((__m256i *)(y + i), narrow_bf16x16_as_vcvtneps2bf16(_mm512_loadu_ps(x + i)));
}

/* Whether the bfloat16 rows use the instruction: decided at the first call, from the CPU and ULPB_DISABLE_ISA (whose
 * avx512bf16 makes this CPU stand in for one without it). 0: not yet known, 1: instruction, 2: emulation. */
static atomic_int bf16_narrowing;
static bool bf16_narrowing_in_hardware(void) {
    int how = atomic_load_explicit(&bf16_narrowing, memory_order_relaxed);
    if (how == 0) {
        how = ulpb_isa_available(ULPB_ISA_AVX512_BF16) ? 1 : 2;
        atomic_store_explicit(&bf16_narrowing, how, memory_order_relaxed);
    }
    return how == 1;
}

/* Calls of the bfloat16 rows that took the emulation: what test_peers checks the choice by, since both give the same
 * bits. */
static atomic_ulong bf16_emulated_calls;
unsigned long ulpb_bf16_emulated_calls(void) {
    return atomic_load_explicit(&bf16_emulated_calls, memory_order_relaxed);
}

#define STEP_F32(fn, in, out) _mm512_storeu_ps(out, fn(_mm512_loadu_ps(in)))
#define STEP_F64(fn, in, out) _mm512_storeu_pd(out, fn(_mm512_loadu_pd(in)))
#define STEP_BF16(fn, in, out)                                                                                         \
    do {                                                                                                               \
        const __m512 low_ = fn(widen_bf16x16(in)), high_ = fn(widen_bf16x16((in) + 16));                               \
        _mm256_storeu_si256((__m256i *)(out), narrow_bf16x16_as_vcvtneps2bf16(low_));                                  \
        _mm256_storeu_si256((__m256i *)((out) + 16), narrow_bf16x16_as_vcvtneps2bf16(high_));                          \
    } while (0)
#define STEP_F16(fn, in, out)                                                                                          \
    _mm256_storeu_si256((__m256i *)(out),                                                                              \
                        _mm512_cvtps_ph(fn(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(in)))),                \
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))

#undef WRAP32_AVX512
#define WRAP32_AVX512(ident, op, f32_fn)                                                                               \
    ULPB_SIMD_PEER(peer_##ident##_##op##_f32, float, 16, STEP_F32, f32_fn)                                             \
    ULPB_SIMD_PEER(peer_##ident##_##op##_f16, uint16_t, 16, STEP_F16, f32_fn)                                          \
    ULPB_SIMD_PEER(peer_##ident##_##op##_bf16_emulated, uint16_t, 32, STEP_BF16, f32_fn)                               \
    void peer_##ident##_##op##_bf16_avx512bf16(const void *x, void *y, size_t n);                                      \
    void peer_##ident##_##op##_bf16(const void *x, void *y, size_t n);                                                 \
    void peer_##ident##_##op##_bf16(const void *x, void *y, size_t n) {                                                \
        if (bf16_narrowing_in_hardware()) {                                                                            \
            peer_##ident##_##op##_bf16_avx512bf16(x, y, n);                                                            \
        } else {                                                                                                       \
            atomic_fetch_add_explicit(&bf16_emulated_calls, 1, memory_order_relaxed);                                  \
            peer_##ident##_##op##_bf16_emulated(x, y, n);                                                              \
        }                                                                                                              \
    }
#undef WRAP_AVX512
#define WRAP_AVX512(ident, op, f32_fn, f64_fn)                                                                         \
    WRAP32_AVX512(ident, op, f32_fn) ULPB_SIMD_PEER(peer_##ident##_##op##_f64, double, 8, STEP_F64, f64_fn)
#include "registry.def"
