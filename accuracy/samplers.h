/* Internal to the accuracy runner: sampler ids and per-op sets. */
#ifndef ULPB_SAMPLERS_H
#define ULPB_SAMPLERS_H

#include <stdint.h>

#include "registry.h"

enum {
    SAMPLER_SPECIALS,
    SAMPLER_UNIFORM_BITS,
    SAMPLER_UNIFORM_DOMAIN,
    SAMPLER_COS_LARGE,
    SAMPLER_COS_NEAR_PIO2,
    SAMPLER_ASIN_NEAR_ONE,
    SAMPLER_ASIN_NEAR_ZERO,
    SAMPLER_RANGE_SPECIALS,  /* --range: the range's ends and the format's edge values in it */
    SAMPLER_RANGE_VALUES,    /* --range: uniform in value */
    SAMPLER_RANGE_PATTERNS,  /* --range: uniform over the format's values */
    SAMPLER_RANGE_ENDS,      /* --range: log-uniform distances from either end */
    SAMPLER_HARD_CASES,      /* the hard-to-round tables' inputs of the op (in the range, with --range) */
    SAMPLER_RANGE_NEAR_PIO2, /* --range, cos: cos_near_pio2 in the range */
    SAMPLER_COUNT
};

/* The samplers run for an op, specials and hard cases first (the fixed lists); returns how many. */
int samplers_for_op(ulpb_op_id op, int out[SAMPLER_COUNT]);
/* The samplers of a run restricted by --range, its two fixed lists first; returns how many. */
int samplers_for_range(ulpb_op_id op, ulpb_dtype_id dtype, const ulpb_input_range *range, int out[SAMPLER_COUNT]);
/* Whether a range holds the format's nearest value to an odd multiple of pi/2 (k below 2^(p-2)): range_near_pio2 runs
 * then. */
bool sampler_range_has_pio2(ulpb_dtype_id dtype, const ulpb_input_range *range);
uint64_t sampler_special_count(ulpb_dtype_id dtype);
/* How many inputs range_specials has for a range (0 when it holds no value of the dtype). */
uint64_t sampler_range_special_count(ulpb_dtype_id dtype, const ulpb_input_range *range);
/* How many inputs hard_cases has for the op and dtype (binary32 and binary64), in the range when one is given. */
uint64_t sampler_hard_case_count(ulpb_op_id op, ulpb_dtype_id dtype, const ulpb_input_range *range);

#endif
