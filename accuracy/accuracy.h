/* The accuracy runner: every input of a 16-bit format, or named samplers with a fixed seed for
 * binary32/binary64, checked against the MPFR reference for each registry entry. */
#ifndef ULPB_ACCURACY_H
#define ULPB_ACCURACY_H

#include <stdbool.h>
#include <stdint.h>

#include "registry.h"

enum { ULPB_HIST_BINS = 6, ULPB_MAX_SAMPLERS = 13 };
/* Histogram bins: exact (y is f(x): cos 0 = 1, asin 0 = 0), then error up to 0.5, (0.5, 1], (1, 2], (2, 4], > 4 ULP. */
extern const char *const ulpb_hist_labels[ULPB_HIST_BINS];

typedef struct {
    uint64_t inputs, correctly_rounded, misrounded, special_mismatches;
    double max_ulp; /* over inputs whose expected and produced values are finite */
    bool has_worst;
    uint64_t worst_bits; /* input bit pattern with the largest error (first one on ties) */
    double worst_input, worst_got, worst_expected;
    bool has_special_example;
    uint64_t special_bits; /* first input with a special-value mismatch */
    double special_got, special_expected;
    bool special_got_signaling; /* special_got stands for a signalling NaN, which widening to double quiets */
    double ulp_sum;             /* for the mean: over the same inputs as max_ulp */
    uint64_t ulp_count;
    uint64_t histogram[ULPB_HIST_BINS];
} ulpb_stats;

typedef struct {
    const ulpb_entry *entry;
    bool exhaustive;
    bool listed; /* the elements of a user's array (accuracy --inputs), in its order, each as often as it occurs */
    /* listed: the first element (numpy's x.flat index) holding the worst input, and the special example; -1: none */
    int64_t worst_element, special_element;
    ulpb_stats total;
    int sampler_count;
    const char *sampler_names[ULPB_MAX_SAMPLERS];
    ulpb_stats per_sampler[ULPB_MAX_SAMPLERS];
    double seconds;           /* this implementation's evaluation and comparison */
    double reference_seconds; /* MPFR time, shared by every implementation of the group */
} ulpb_result;

/* --range LO,HI: only the inputs whose values lie in [lo, hi] (finite, lo < hi; both zeros when 0 is in it). */
typedef struct {
    bool given;
    double lo, hi;
} ulpb_input_range;

/* The first and last of a dtype's values in the range, as order keys (ulpb_order_key); false when it holds none. */
bool ulpb_range_keys(ulpb_dtype_id dtype, const ulpb_input_range *range, uint64_t *first, uint64_t *last);
/* A dtype's bit patterns in the order of their values (-0 just below +0, NaNs at both ends), and back. */
uint64_t ulpb_order_key(ulpb_dtype_id dtype, uint64_t bits);
uint64_t ulpb_bits_of_key(ulpb_dtype_id dtype, uint64_t key);
bool ulpb_range_holds(const ulpb_input_range *range, double x);

typedef struct {
    ulpb_op_id op;
    ulpb_dtype_id dtype;
    uint64_t samples; /* binary32/binary64 only; 16-bit formats are always exhaustive */
    uint64_t seed;
    const char *impl;             /* NULL: every registry entry of (op, dtype) */
    int threads;                  /* 0: all cores, up to ULPB_THREADS_MAX (ulpb_team_size) */
    bool progress;                /* progress on stderr */
    bool fast_reference;          /* ref_fast where it decides (binary32/binary64), MPFR otherwise */
    int shard_index, shard_count; /* sampled runs: slice K of N of every sampler's indices (0/0: all) */
    ulpb_input_range range;       /* not given: every input (16-bit) or the op's samplers */
    /* inputs not NULL: input_count elements of the dtype's width (accuracy --inputs), instead of the above */
    const void *inputs;
    uint64_t input_count;
} ulpb_check_spec;

/* The threads a runner uses when asked for `threads` (0: one per core, up to ULPB_THREADS_MAX, the threads the
 * hung-call watch lists), fewer when the reference allows only one (ref_team_size). */
int ulpb_team_size(int threads);

/* Runs one (op, dtype) group. Writes up to `capacity` results, returns how many, or -1 with a
 * message in err when nothing matches. */
int ulpb_check(const ulpb_check_spec *spec, ulpb_result *results, int capacity, char *err, size_t err_len);

/* Applying a kernel under test as a program could and checking what it did: ulpb_call_checked splits n elements into
 * calls of lengths 1, 2, 3, ... up to ULPB_CALL_LENGTH_MAX and again from 1, and every ULPB_CALL_LONG_EVERY-th call
 * a longer one, 1032, 2064 or 4128 elements and up to 60 more (*call_index counts the calls, across the caller's
 * calls of it; a call that the end of the caller's array cuts short is made whole in the next one). About half of
 * the calls are in place; the others read a copy of the input, which must be unchanged after the call. Each call's
 * output starts at one of the element offsets from a 64-byte boundary (another one in each cycle of lengths; the
 * input's offset moves against it), between guard bytes, all of it filled beforehand with a signalling NaN that no
 * kernel returns. A kernel that writes outside its
 * arrays or into its input, leaves an output unwritten, or changes the floating-point controls (fp_controls.h) is
 * refused with a message naming the call, instead of being measured on whatever memory or arithmetic it left. */
enum {
    ULPB_CALL_LENGTH_MAX = 1031,
    ULPB_CALL_LONG_EVERY = 64,
    ULPB_CALL_LENGTH_LONGEST = 4 * (ULPB_CALL_LENGTH_MAX + 1) + 60,
    ULPB_CALL_ALIGN_BYTES = 64,
    ULPB_CALL_GUARD_BYTES = 128
};
typedef struct {
    void *scratch; /* two regions, for y and a copy of x, each with room for the offsets and the guards */
    size_t bytes;  /* element size */
    uint64_t poison;
    size_t capacity; /* the longest call it holds */
} ulpb_call_buffer;
/* 0, or -1 when out of memory. */
int ulpb_call_buffer_init(ulpb_call_buffer *b, const ulpb_dtype *dt);
void ulpb_call_buffer_free(ulpb_call_buffer *b);
/* e on in[0, n) into out[0, n) through b; *seconds gains the time spent in e's calls. 0, or -1 and a message. */
int ulpb_call_checked(const ulpb_entry *e, ulpb_call_buffer *b, const void *in, void *out, size_t n,
                      uint64_t *call_index, double *seconds, char *err, size_t err_len);
/* e on in[0, n) in one call, out of place, with ulpb_call_checked's guards, poison and checks (an output left
 * unwritten is seen), its results into out[0, n) (which may be in): 0, or -1 and a message, also when memory ran out
 * for the call's two copies of the array. */
int ulpb_call_whole_checked(const ulpb_entry *e, const void *in, void *out, size_t n, char *err, size_t err_len);

double ulpb_mean_ulp(const ulpb_stats *s);
/* Refuses (-1, with a message) a sum of errors that no errors up to max_ulp make: a mean above the maximum. The slack
 * covers the sum's roundings and the fast reference's ranking (2^-10 ULP; MPFR measures the maximum again). */
int ulpb_stats_check_sum(const ulpb_stats *s, char *err, size_t len);
/* sum + error, stopping at REF_ULP_ERROR_MAX as ref_ulp_error's errors do: a sum of errors stays a finite number */
double ulpb_ulp_sum_add(double sum, double error);
/* Adds one checked input: bits and value x, the reference, the produced y (y_signaling: y's bits are a signalling
 * NaN, which no operation delivers: a special mismatch). The worst input is the one with the smallest bit pattern among
 * those of the largest error, the special example the mismatch with the smallest bit pattern, whatever the order the
 * inputs come in. */
void ulpb_stats_record(ulpb_stats *s, uint64_t bits, double x, const ref_value *ref, double y, bool y_signaling);
/* The fast reference (f64: long double) ranks errors to about 2^-10 ULP; this measures the worst input's error again
 * with MPFR, so that the reported maximum is exact for the input it names. */
void ulpb_stats_remeasure_worst(ulpb_stats *s, ref_op op, const ref_format *fmt);
/* Order-independent except for ulp_sum (floating-point): ties go to the smaller bit pattern. */
void ulpb_stats_merge(ulpb_stats *into, const ulpb_stats *from);

/* The samplers of a sampled run of (op, dtype) with `samples` inputs, in the order its results list them, and the
 * slice [first, first + inputs) of each sampler's indices that shard K of N takes (N = 0: the whole run). Returns
 * how many samplers. A range given (--range): its samplers instead of the op's. ulpb_check runs this plan; merge holds
 * shards to it. */
int ulpb_sampled_plan(ulpb_op_id op, ulpb_dtype_id dtype, uint64_t samples, const ulpb_input_range *range,
                      int shard_index, int shard_count, int sampler[ULPB_MAX_SAMPLERS],
                      uint64_t first[ULPB_MAX_SAMPLERS], uint64_t inputs[ULPB_MAX_SAMPLERS]);

/* Sampler inputs, exposed for tests: the bit pattern of input `index` of a named sampler. */
int ulpb_sampler_find(const char *name);
uint64_t ulpb_sampler_input(int sampler, ulpb_op_id op, ulpb_dtype_id dtype, uint64_t seed, uint64_t index);
/* The same for a run with --range (binary32/binary64), whose range samplers draw from it; range must hold a value. */
uint64_t ulpb_sampler_input_in(int sampler, ulpb_op_id op, ulpb_dtype_id dtype, const ulpb_input_range *range,
                               uint64_t seed, uint64_t index);
const char *ulpb_sampler_name(int sampler);

#endif
