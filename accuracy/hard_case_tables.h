/* The hard-to-round tables of tests/data (hard_cases_f32.txt, hard_cases_f64.txt, worst_cases_f64.txt), which the
 * build turns into generated/ulpb_hard_case_tables.c: the inputs of the hard_cases sampler. */
#ifndef ULPB_HARD_CASE_TABLES_H
#define ULPB_HARD_CASE_TABLES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    const char *op; /* an op's name in the registry */
    int width;      /* 32 or 64: the binary format of the input */
    uint64_t bits;  /* the input's bit pattern, unless from_value */
    double value;   /* a published worst case, typed as a C hex float (binary64 only) */
    bool from_value;
} ulpb_hard_case_row;

extern const ulpb_hard_case_row ulpb_hard_case_rows[];
extern const int ulpb_hard_case_row_count;

#endif
