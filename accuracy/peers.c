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

/* The ULPB_SCALAR_PEER rows of registry.def. */
#define ULPB_SCALAR_PEER(impl, ident, op, library, f32_fn, f64_fn)                                                     \
    PEER_LIBM(peer_##ident##_##op##_f32, f32_fn, float)                                                                \
    PEER_LIBM(peer_##ident##_##op##_f64, f64_fn, double)                                                               \
    PEER_LIBM_NARROW(peer_##ident##_##op##_f16, f32_fn, omk_f16_to_f32, omk_f32_to_f16)                                \
    PEER_LIBM_NARROW(peer_##ident##_##op##_bf16, f32_fn, omk_bf16_to_f32, omk_f32_to_bf16)
#include "registry.def"

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
