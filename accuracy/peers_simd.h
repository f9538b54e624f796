/* Shared by the vector peer files (peers_avx2.c, peers_avx512.c, peers_avx512bf16.c), each
 * compiled with its own ISA flags so that no instruction leaks into code the CPU check does not
 * guard. The libraries' vector functions are listed once here and wrapped per file. */
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

/* X(impl, op, binary32 function, binary64 function); impl spells the registry name with '_'. */
#define ULPB_AVX512_VECTOR_FUNCTIONS(X)                                                                                \
    X(libmvec_avx512, cos, _ZGVeN16v_cosf, _ZGVeN8v_cos)                                                               \
    X(libmvec_avx512, asin, _ZGVeN16v_asinf, _ZGVeN8v_asin)                                                            \
    X(sleef_u10_avx512, cos, Sleef_cosf16_u10avx512f, Sleef_cosd8_u10avx512f)                                          \
    X(sleef_u10_avx512, asin, Sleef_asinf16_u10avx512f, Sleef_asind8_u10avx512f)                                       \
    X(sleef_u35_avx512, cos, Sleef_cosf16_u35avx512f, Sleef_cosd8_u35avx512f)                                          \
    X(sleef_u35_avx512, asin, Sleef_asinf16_u35avx512f, Sleef_asind8_u35avx512f)

#define ULPB_AVX2_VECTOR_FUNCTIONS(X)                                                                                  \
    X(libmvec_avx2, cos, _ZGVdN8v_cosf, _ZGVdN4v_cos)                                                                  \
    X(libmvec_avx2, asin, _ZGVdN8v_asinf, _ZGVdN4v_asin)                                                               \
    X(sleef_u10_avx2, cos, Sleef_cosf8_u10avx2, Sleef_cosd4_u10avx2)                                                   \
    X(sleef_u10_avx2, asin, Sleef_asinf8_u10avx2, Sleef_asind4_u10avx2)                                                \
    X(sleef_u35_avx2, cos, Sleef_cosf8_u35avx2, Sleef_cosd4_u35avx2)                                                   \
    X(sleef_u35_avx2, asin, Sleef_asinf8_u35avx2, Sleef_asind4_u35avx2)

/* glibc's libmvec under its x86_64 vector-function ABI names ('e': AVX-512, 'd': AVX2). math.h
 * offers them only to the auto-vectorizer (-ffast-math), so they are declared here by name;
 * asin exists since glibc 2.35. */
#ifdef __AVX512F__
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
