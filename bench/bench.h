/* Throughput of registry entries: elements per ns at given array sizes over the registry's input
 * sets. The implementations of an (op, dtype, size, input set) group are interleaved within each
 * round, in an order balanced over rounds (a Williams design drawn from the seed), because this machine's speed drifts
 * between and within processes: only ratios measured in the same round are stable. */
#ifndef ULPB_BENCH_H
#define ULPB_BENCH_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "registry.h"

enum {
    ULPB_BENCH_MAX_SIZES = 8,
    ULPB_BENCH_MAX_IMPLS = 32,
    ULPB_BENCH_MAX_GROUP = 16, /* implementations of one (op, dtype) */
};
/* A round processes up to this many elements, cycling through distinct blocks when the size is
 * smaller: replaying one block lets the branch predictor learn it (32 blocks at 4 Ki, 512 at 256: a pass of a small
 * size is as long as one of 4 Ki, so that the clock's own cost stays negligible). */
#define ULPB_BENCH_ROUND_ELEMENTS ((size_t)1 << 17)
/* ... and its blocks hold at most this many bytes of input, so that a cache-resident size stays in a 1 MiB L2 with
 * its output (32 blocks of 4 Ki binary64 would fill it: 16 are timed). */
#define ULPB_BENCH_ROUND_BYTES ((size_t)512 << 10)
/* Sizes from here on are memory-bound and run fewer rounds (see ulpb_bench_rounds). */
#define ULPB_BENCH_LARGE_SIZE ((size_t)1 << 20)
#define ULPB_BENCH_MAX_SIZE   ((size_t)1 << 27)

typedef struct {
    unsigned op_mask, dtype_mask;
    const char *impls[ULPB_BENCH_MAX_IMPLS]; /* implementation names; none: every one */
    int impl_count;
    size_t sizes[ULPB_BENCH_MAX_SIZES]; /* elements per call */
    int size_count;
    int rounds; /* at cache-resident sizes; see ulpb_bench_rounds */
    uint64_t seed;
    bool progress; /* one line per group on stderr */
    /* the input sets to time; NULL: the registry's (ulpb_input_sets) */
    const ulpb_input_set *input_sets;
    size_t input_set_count;
    /* bench --inputs: the file the input sets draw from (JSON context "inputs", the Markdown); NULL: none */
    const struct ulpb_inputs_file *inputs_file;
} ulpb_bench_spec;

typedef struct {
    const ulpb_entry *entry;
    const ulpb_input_set *inputs;
    size_t size; /* elements per call */
    int rounds;
    uint64_t calls_per_round, elements_per_round; /* as counted by the timing loop */
    double ns_per_element;                        /* median over rounds, wall clock */
    double cpu_ns_per_element;                    /* median over rounds, this thread's CPU time */
    double spread;                                /* (P90 - P10) / median of the per-round ns_per_element */
    int group_first, group_count;                 /* the results timed in the same rounds, this one included */
    double ratio[ULPB_BENCH_MAX_GROUP];           /* median over rounds of this throughput / member j's */
} ulpb_bench_result;

/* Run-wide facts recorded in the JSON context. */
typedef struct {
    const char *command, *executable;
} ulpb_bench_info;

/* The sizes `ulpbench bench` times unless told otherwise: cache-resident and memory-bound. */
extern const size_t ulpb_bench_default_sizes[];
extern const int ulpb_bench_default_size_count;

/* Distinct input blocks per round, and the elements one round processes, at this size of elements of this many
 * bytes. */
size_t ulpb_bench_blocks(size_t size, size_t element_bytes);
uint64_t ulpb_bench_elements_per_round(size_t size, size_t element_bytes);
/* Rounds at this size: `rounds` when cache-resident, a quarter of them made odd (at least 5, or `rounds` if fewer)
 * from ULPB_BENCH_LARGE_SIZE on: an odd count has a middle round, so that the ratios of two implementations to each
 * other stay exact reciprocals (an even `rounds` below 5 stays as given). */
int ulpb_bench_rounds(size_t size, int rounds);

/* Elements first .. first + n - 1 of an input set for a seed: uniform in [lo, hi], rounded to
 * the dtype (to the nearest of its values inside [lo, hi]). The same (seed, set, index) gives the same value in every
 * run. */
/* The dtype's smallest and largest values in [lo, hi] (finite bounds within its range), as bits; whether the range
 * holds two distinct values at least. */
bool ulpb_bench_range_ends(double lo, double hi, ulpb_dtype_id dtype, uint64_t *lo_bits, uint64_t *hi_bits);
void ulpb_bench_inputs(const ulpb_input_set *set, ulpb_dtype_id dtype, uint64_t seed, uint64_t first, void *out,
                       size_t n);

/* Whether the spec names this entry (its op, dtype and implementation), available or not. */
bool ulpb_bench_selects(const ulpb_bench_spec *spec, const ulpb_entry *e);

/* Times every selected entry this CPU runs. Returns the number of results, stored in a new
 * array in *results (free() it), or -1 with a message in err. */
int ulpb_bench_run(const ulpb_bench_spec *spec, ulpb_bench_result **results, char *err, size_t err_len);

/* The wall clock the passes are timed with, in ns: CLOCK_MONOTONIC, unless a test installs a deterministic stand-in to
 * check what the figures are divided by (NULL restores the real one). */
typedef double ulpb_bench_wall_clock_fn(void);
void ulpb_bench_set_wall_clock(ulpb_bench_wall_clock_fn *clock);

/* One timed pass, as ulpb_bench_run makes it: fn on `blocks` consecutive blocks of `size` elements of in (each
 * element_bytes long), every call writing to out, both clocks read around the whole pass (wall:
 * ulpb_bench_set_wall_clock's; CPU: the thread's, with its own cost left in). */
typedef struct {
    double wall_ns, cpu_ns;
    uint64_t calls, elements;
} ulpb_bench_sample;
ulpb_bench_sample ulpb_bench_time_pass(ulpb_kernel_fn fn, size_t element_bytes, const void *in, void *out, size_t size,
                                       size_t blocks);

/* The order in which a group's `count` members make their passes in round `round`: a row of a Williams design, so
 * that over each cycle of ulpb_bench_order_cycle(count) rounds every member takes every position equally often and
 * directly follows every other member equally often (a fixed share of the position and carry-over effects, which a
 * fresh shuffle per round leaves to chance; within a round: the pair across two rounds is not balanced). The members'
 * labels are shuffled once from `stream`, the rows again in every cycle; rounds short of a whole cycle take a random
 * subset of its rows. */
void ulpb_bench_round_order(uint64_t stream, int round, int count, int *order);
/* count rounds for an even count, 2 count for an odd one. */
int ulpb_bench_order_cycle(int count);

/* Member m's throughput over member k's: the median over rounds of k's time per element over m's, from wall_ns[member
 * * rounds + round]; scratch holds `rounds` doubles. */
double ulpb_bench_round_ratio(const double *wall_ns, int rounds, int m, int k, double *scratch);

/* Throughput of r relative to implementation `impl` in the same rounds; NAN when not measured. */
double ulpb_bench_ratio_to(const ulpb_bench_result *results, const ulpb_bench_result *r, const char *impl);

/* Google Benchmark's JSON schema (context + benchmarks[]), one median aggregate per result. */
cJSON *ulpb_bench_json(const ulpb_bench_spec *spec, const ulpb_bench_info *info, const ulpb_bench_result *results,
                       int count);
/* "4 Ki", "16 Mi", or the number itself. */
void ulpb_bench_size_label(char *buf, size_t len, size_t size);
/* One Markdown table per (op, dtype): implementations by (size, input set). */
void ulpb_bench_markdown(FILE *out, const ulpb_bench_spec *spec, const ulpb_bench_result *results, int count);

#endif
