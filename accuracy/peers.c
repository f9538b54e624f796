/* Scalar peer implementations (the libraries runtimes use today) and the memcpy baseline,
 * behind the registry's signature. 16-bit peers do what runtimes do: widen to binary32, call
 * the binary32 function, round back to nearest even. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "omk.h"

#define PEER_LIBM(name, libm_fn, ctype)                                                                                \
    void name(const void *x, void *y, size_t n);                                                                       \
    void name(const void *x, void *y, size_t n) {                                                                      \
        const ctype *in = x;                                                                                           \
        ctype *out = y;                                                                                                \
        for (size_t i = 0; i < n; i++) out[i] = libm_fn(in[i]);                                                        \
    }

#define PEER_LIBM_NARROW(name, libm_fn, widen, narrow)                                                                 \
    void name(const void *x, void *y, size_t n);                                                                       \
    void name(const void *x, void *y, size_t n) {                                                                      \
        const uint16_t *in = x;                                                                                        \
        uint16_t *out = y;                                                                                             \
        for (size_t i = 0; i < n; i++) out[i] = narrow(libm_fn(widen(in[i])));                                         \
    }

PEER_LIBM(peer_glibc_cos_f32, cosf, float)
PEER_LIBM(peer_glibc_cos_f64, cos, double)
PEER_LIBM(peer_glibc_asin_f32, asinf, float)
PEER_LIBM(peer_glibc_asin_f64, asin, double)
PEER_LIBM_NARROW(peer_glibc_cos_f16, cosf, omk_f16_to_f32, omk_f32_to_f16)
PEER_LIBM_NARROW(peer_glibc_cos_bf16, cosf, omk_bf16_to_f32, omk_f32_to_bf16)
PEER_LIBM_NARROW(peer_glibc_asin_f16, asinf, omk_f16_to_f32, omk_f32_to_f16)
PEER_LIBM_NARROW(peer_glibc_asin_bf16, asinf, omk_bf16_to_f32, omk_f32_to_bf16)

/* The same bytes moved and nothing computed. In place there is nothing to move (and memcpy
 * must not overlap). */
#define BASELINE_MEMCPY(name, bytes)                                                                                   \
    void name(const void *x, void *y, size_t n);                                                                       \
    void name(const void *x, void *y, size_t n) {                                                                      \
        if (n && x != y) memcpy(y, x, n *(bytes));                                                                     \
    }

BASELINE_MEMCPY(baseline_memcpy_2, 2)
BASELINE_MEMCPY(baseline_memcpy_4, 4)
BASELINE_MEMCPY(baseline_memcpy_8, 8)
