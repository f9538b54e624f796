/* Shared by the vector peer files (peers_avx2.c, peers_avx512.c, peers_avx512bf16.c), each
 * compiled with its own ISA flags so that no instruction leaks into code the CPU check does not
 * guard. */
#ifndef ULPB_PEERS_SIMD_H
#define ULPB_PEERS_SIMD_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Defines name(x, y, n): step(fn, in, out) handles one vector of `lanes` elements; the last
 * n % lanes elements go through a zero-padded vector (0 is a valid input for cos and asin), so
 * no lane reads or writes past the arrays. Each step loads before it stores: y == x works. */
#define ULPB_SIMD_PEER(name, ctype, lanes, step, fn)                                                                   \
    void name(const void *x, void *y, size_t n);                                                                       \
    void name(const void *x, void *y, size_t n) {                                                                      \
        const ctype *in = x;                                                                                           \
        ctype *out = y;                                                                                                \
        size_t i = 0;                                                                                                  \
        for (; i + (lanes) <= n; i += (lanes)) step(fn, in + i, out + i);                                              \
        if (i < n) {                                                                                                   \
            ctype pad[lanes] = {0};                                                                                    \
            memcpy(pad, in + i, (n - i) * sizeof *in);                                                                 \
            step(fn, pad, pad);                                                                                        \
            memcpy(out + i, pad, (n - i) * sizeof *out);                                                               \
        }                                                                                                              \
    }

/* The vector peers are the ULPB_VECTOR_PEER rows of registry.def. Each wrapper file redefines WRAP_<its ISA>(ident,
 * op, binary32 function, binary64 function) and WRAP32_<its ISA> (the ULPB_VECTOR_PEER_F32 rows: no binary64 function)
 * to define its wrappers and then includes registry.def: the rows of the other ISAs expand to nothing there. A new ISA
 * adds its empty lines here. */
#define WRAP_AVX2(ident, op, f32_fn, f64_fn)
#define WRAP_AVX512(ident, op, f32_fn, f64_fn)
#define WRAP32_AVX2(ident, op, f32_fn)
#define WRAP32_AVX512(ident, op, f32_fn)
#define ULPB_VECTOR_PEER(impl, ident, isa, op, library, f32_fn, f64_fn, ulp) WRAP_##isa(ident, op, f32_fn, f64_fn)
#define ULPB_VECTOR_PEER_F32(impl, ident, isa, op, library, f32_fn, ulp)     WRAP32_##isa(ident, op, f32_fn)

/* glibc's libmvec under its x86_64 vector-function ABI names ('e': AVX-512, 'd': AVX2). math.h
 * offers them only to the auto-vectorizer (-ffast-math), so they are declared here by name;
 * asin exists since glibc 2.35. */
#ifdef __AVX512F__
/* 16 bfloat16 patterns to binary32: each into the high half of its lane */
static inline __m512 widen_bf16x16(const uint16_t *in) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)in)), 16));
}
__m512 _ZGVeN16v_cosf(__m512 x);
__m512d _ZGVeN8v_cos(__m512d x);
__m512 _ZGVeN16v_asinf(__m512 x);
__m512d _ZGVeN8v_asin(__m512d x);
#endif
#ifdef __AVX2__
__m256 _ZGVdN8v_cosf(__m256 x);
__m256d _ZGVdN4v_cos(__m256d x);
__m256 _ZGVdN8v_asinf(__m256 x);
__m256d _ZGVdN4v_asin(__m256d x);
#endif

#endif
