/* Bit patterns to floating-point values and back, and the inputs of the tables in tests/data, for the tests. */
#ifndef ULPB_TEST_BITS_H
#define ULPB_TEST_BITS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* splitmix64: the tests' pseudo-random numbers (z a seed plus a counter) */
static inline uint64_t splitmix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t bits_of_f64(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

static inline uint32_t bits_of_f32(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* The inputs of op in a table of tests/data (hard_cases_f32.txt, hard_cases_f64.txt: hex bit patterns;
 * worst_cases_f64.txt: C hex floats, stored as binary64 bits), at most max of them; returns how many, or -1 when the
 * file cannot be read. */
static inline long table_inputs(const char *dir, const char *table, const char *op, uint64_t *out, size_t max) {
    char name[512], line[256], op_name[8], value[64];
    snprintf(name, sizeof name, "%s/%s", dir, table);
    FILE *f = fopen(name, "r");
    if (!f) return -1;
    size_t count = 0;
    while (count < max && fgets(line, sizeof line, f))
        if (line[0] != '#' && sscanf(line, "%7s %63s", op_name, value) == 2 && strcmp(op_name, op) == 0) {
            if (strchr(value, 'p')) { /* a C hex float */
                const double d = strtod(value, NULL);
                memcpy(&out[count++], &d, sizeof d);
            } else {
                out[count++] = strtoull(value, NULL, 16);
            }
        }
    fclose(f);
    return (long)count;
}

#endif
