/* Bit patterns to floating-point values and back, for the tests. */
#ifndef ULPB_TEST_BITS_H
#define ULPB_TEST_BITS_H

#include <stdint.h>
#include <string.h>

static inline float f32_from_bits(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline double f64_from_bits(uint64_t bits) {
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static inline uint32_t bits_of_f32(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

#endif
