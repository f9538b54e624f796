/* 256-bit fixed-point arithmetic for the accurate phases of the correctly rounded binary64 cos and asin, and the
 * Payne-Hanek reduction of cos's double-double path.
 * A value is w[0] 2^-64 + w[1] 2^-128 + w[2] 2^-192 + w[3] 2^-256 (most significant word first), in [0, 1).
 * Products are truncated, so each costs at most 2^-254; the callers' error budgets stay near 2^-200 absolute, far
 * below what rounding a binary64 result ever needs. Integer code only: every ISA build computes the same bits.
 * Not installed. */
#ifndef OMK_FIXED_H
#define OMK_FIXED_H

#include <stdint.h>

#include "omk_internal.h"
#include "trig_reduce.h"

typedef struct {
    uint64_t w[4];
} omk_fix;

typedef unsigned __int128 omk_u128;

static inline omk_fix omk_fix_from_words(const uint64_t words[4]) {
    omk_fix r = {{words[0], words[1], words[2], words[3]}};
    return r;
}

/* a - b modulo 1 (wrap-around is how 1 - a is written: 0 - a). */
static inline omk_fix omk_fix_sub(omk_fix a, omk_fix b) {
    omk_fix r;
    unsigned borrow = 0;
#pragma GCC unroll 4
    for (int i = 3; i >= 0; i--) {
        const uint64_t d = a.w[i] - b.w[i] - borrow;
        borrow = (a.w[i] < b.w[i]) || (a.w[i] == b.w[i] && borrow);
        r.w[i] = d;
    }
    return r;
}

/* The 64 bits from bit index first on (counted from the top) of the big-endian words w[0..n); bits outside read
 * as 0. */
static inline uint64_t omk_words_bits64(const uint64_t *w, int n, int first) {
    const int word = first >= 0 ? first / 64 : -((63 - first) / 64), offset = first - 64 * word;
    const uint64_t hi = word >= 0 && word < n ? w[word] : 0, lo = word + 1 >= 0 && word + 1 < n ? w[word + 1] : 0;
    return offset ? (hi << offset) | (lo >> (64 - offset)) : hi;
}

static inline uint64_t omk_fix_bits64(omk_fix a, int first) { return omk_words_bits64(a.w, 4, first); }

/* Leading zero bits of a (256 for 0): a lies in [2^-(n+1), 2^-n). */
static inline int omk_fix_leading_zeros(omk_fix a) {
    int word = 0;
    while (word < 4 && !a.w[word]) word++;
    return word == 4 ? 256 : 64 * word + __builtin_clzll(a.w[word]);
}

/* a 2^shift for |shift| < 256, bits shifted out dropped (the callers scale up only values below 2^-shift). */
static inline omk_fix omk_fix_scale(omk_fix a, int shift) {
    omk_fix r;
    for (int i = 0; i < 4; i++) r.w[i] = omk_fix_bits64(a, 64 * i + shift);
    return r;
}

/* a < b */
static inline int omk_fix_less(omk_fix a, omk_fix b) {
    for (int i = 0; i < 4; i++)
        if (a.w[i] != b.w[i]) return a.w[i] < b.w[i];
    return 0;
}

/* a b, truncated to 256 fraction bits: the partial products below the fourth word (six of sixteen) are left out,
 * so the result lies below the exact product by less than 2^-254. */
static inline omk_fix omk_fix_mul(omk_fix a, omk_fix b) {
    uint64_t p[8] = {0}; /* little-endian words of the 512-bit product; a.w[i] is word 3 - i of a */
#pragma GCC unroll 4
    for (int i = 3; i >= 0; i--) { /* rows from the least significant up, each adding a.w[i] b at word 3 - i */
        omk_u128 carry = 0;
#pragma GCC unroll 4
        for (int j = 3 - i; j >= 0; j--) { /* from word 3 of the product up */
            const int k = (3 - i) + (3 - j);
            const omk_u128 t = (omk_u128)a.w[i] * b.w[j] + p[k] + carry;
            p[k] = (uint64_t)t;
            carry = t >> 64;
        }
        p[(3 - i) + 4] = (uint64_t)carry;
    }
    omk_fix r = {{p[7], p[6], p[5], p[4]}};
    return r;
}

/* v for 2^-204 <= v < 1 (or 0), exactly. */
static inline omk_fix omk_fix_from_double(double v) {
    omk_fix r = {{0, 0, 0, 0}};
    if (v == 0.0) return r;
    const uint64_t bits = omk_bits64(v);
    const int top = 1022 - (int)(bits >> 52); /* the leading one weighs 2^(-top - 1) */
    const uint64_t head = ((bits & 0x000fffffffffffffull) | 0x0010000000000000ull) << 11;
    const int word = top / 64, offset = top % 64;
    r.w[word] = head >> offset;
    if (offset && word + 1 < 4) r.w[word + 1] = head << (64 - offset);
    return r;
}

/* a rounded to nearest binary64 (ties to even); 0 gives 0. */
static inline double omk_fix_to_double(omk_fix a) {
    const int top = omk_fix_leading_zeros(a); /* index of the leading one, from the top */
    if (top == 256) return 0.0;
    const int word = top / 64;
    const uint64_t head = omk_fix_bits64(a, top); /* the leading one and 63 bits after it */
    uint64_t sticky = head & 0x3ff;
    for (int i = word + 1; i < 4; i++)
        sticky |= omk_fix_bits64(a, 64 * i) & (i == word + 1 ? (~0ull >> (top % 64)) : ~0ull);
    uint64_t mant = head >> 11;
    if ((head >> 10 & 1) && (sticky || (mant & 1))) mant++;
    int exponent = -top - 1; /* the leading one weighs 2^(-top - 1) */
    if (mant >> 53) {
        mant >>= 1;
        exponent++;
    }
    return omk_double_from_bits(((uint64_t)(exponent + 1023) << 52) | (mant & 0x000fffffffffffffull));
}

/* cos t and sin t (either pointer may be null) for 0 < t, t^2 < 3/4 (t < 0.866), by their Taylor series, Horner
 * in z = t^2 with every partial sum in (0, 1); the series stops at the first term below 2^-202 (at most that of
 * t^56 / t^57), counted from the leading zeros of z and a lower bound on log2 of the factorials. */
static inline void omk_fix_cos_sin(omk_fix t, omk_fix *cos_t, omk_fix *sin_t) {
    const omk_fix z = omk_fix_mul(t, t), zero = {{0, 0, 0, 0}};
    const int leading_zeros = omk_fix_leading_zeros(z); /* z < 2^-leading_zeros */
    int terms = 1, log2_factorial = 1;                  /* the last term kept, z^terms / (2 terms)!, is below 2^-202 */
    while (terms < 28 && leading_zeros * terms + log2_factorial < 202) {
        terms++;
        log2_factorial +=
            (63 - __builtin_clzll((uint64_t)(2 * terms - 1))) + (63 - __builtin_clzll((uint64_t)(2 * terms)));
    }
    if (cos_t) {
        omk_fix c = omk_fix_from_words(K_FIX_INV_FACTORIAL[2 * terms]);
        for (int n = terms - 1; n >= 1; n--)
            c = omk_fix_sub(omk_fix_from_words(K_FIX_INV_FACTORIAL[2 * n]), omk_fix_mul(z, c));
        *cos_t = omk_fix_sub(zero, omk_fix_mul(z, c)); /* 1 - z c */
    }
    if (sin_t) {
        omk_fix s = omk_fix_from_words(K_FIX_INV_FACTORIAL[2 * terms + 1]);
        for (int n = terms - 1; n >= 1; n--)
            s = omk_fix_sub(omk_fix_from_words(K_FIX_INV_FACTORIAL[2 * n + 1]), omk_fix_mul(z, s));
        *sin_t = omk_fix_mul(t, omk_fix_sub(zero, omk_fix_mul(z, s))); /* t (1 - z s) */
    }
}

#endif
