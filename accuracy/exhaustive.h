/* Exhaustive binary32 checks: every one of the 2^32 bit patterns (or a shard of them, or with --range those whose
 * values lie in a range), in chunks of 2^20 consecutive patterns, multi-threaded, interruptible and resumable, with
 * results that merge across shards. A result (JSON, schema "ulpbench.exhaustive") records which chunks it covers; the
 * statistics merge in any order to the same values (ties go to the smaller pattern, the mean sums per-chunk sums in
 * chunk order). */
#ifndef ULPB_EXHAUSTIVE_H
#define ULPB_EXHAUSTIVE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "accuracy.h"

enum {
    ULPB_CHUNK_BITS = 20,
    ULPB_CHUNKS = 1 << (32 - ULPB_CHUNK_BITS), /* 4096 chunks of 2^20 patterns */
    ULPB_MISROUNDED_LIST_MAX = 10000,          /* the smallest misrounded patterns are listed */
};

struct ulpb_exhaustive_state;

typedef struct {
    const ulpb_entry *entry; /* a binary32 registry entry */
    bool mpfr_reference;     /* MPFR for every input instead of the fast reference */
    int shard_index, shard_count;
    ulpb_input_range range; /* given: only the patterns whose values lie in it, and only the chunks holding some */
    int threads;            /* 0: all cores */
    bool progress;
    uint64_t max_chunks; /* stop (resumably) after this many chunks in this run; 0: no limit */
    /* when not NULL, called with the partial result (resumable, as one stopped by --max-chunks) at most every
     * checkpoint_seconds while chunks remain, so that a run killed outright loses at most that much */
    void (*checkpoint)(const struct ulpb_exhaustive_state *partial, void *context);
    void *checkpoint_context;
    double checkpoint_seconds;
} ulpb_exhaustive_spec;

typedef struct ulpb_exhaustive_state {
    ulpb_exhaustive_spec spec;
    ulpb_stats stats;
    uint64_t reference_fallbacks; /* inputs the fast reference handed to MPFR */
    uint64_t misrounded_listed;   /* entries in misrounded[], ascending, at most the max */
    uint32_t misrounded[ULPB_MISROUNDED_LIST_MAX];
    bool done[ULPB_CHUNKS];
    double chunk_ulp_sum[ULPB_CHUNKS];
    double seconds;           /* wall time of the runs that made this state */
    double impl_seconds;      /* time in the implementation's calls, summed over threads; < 0: unknown */
    double reference_seconds; /* time computing the reference values, summed over threads; < 0: unknown */
    bool interrupted;         /* a signal stopped the run */
    char failure[320];        /* not empty: the implementation wrote outside its outputs or left one unwritten */
} ulpb_exhaustive_state;

/* The run's chunks: those holding patterns it checks (every chunk, or with a range those holding values in it). Shard K
 * of N takes the K-th of N equal slices of them; *first and *end bound its chunks (first = end: none). */
int ulpb_exhaustive_chunk_count(const ulpb_exhaustive_spec *spec);
void ulpb_exhaustive_shard_chunks(const ulpb_exhaustive_spec *spec, int *first, int *end);
/* The patterns [*first, *end) of a chunk that the run checks (one run of patterns: a chunk lies within one sign's
 * half, where the values follow the patterns); false when it holds none. */
bool ulpb_exhaustive_chunk_patterns(const ulpb_exhaustive_spec *spec, int chunk, uint64_t *first, uint64_t *end);

void ulpb_exhaustive_init(ulpb_exhaustive_state *st, const ulpb_exhaustive_spec *spec);
/* Runs the shard's chunks not yet done. SIGINT, SIGTERM and SIGHUP stop it after the chunks in progress, and so does
 * a failure (ulpb_call_checked), which leaves its message in st->failure and the chunk it was checking undone. */
void ulpb_exhaustive_run(ulpb_exhaustive_state *st);
bool ulpb_exhaustive_complete(const ulpb_exhaustive_state *st);

cJSON *ulpb_exhaustive_json(const ulpb_exhaustive_state *st, const char *command);
/* Restores a state from its JSON; -1 with a message when the document is not a valid result. */
int ulpb_exhaustive_from_json(const cJSON *doc, ulpb_exhaustive_state *st, char *err, size_t err_len);
/* Combines shard results into one covering all chunks of the run; -1 with a message when they differ in
 * version, op, dtype, implementation, reference or range, overlap, or leave a gap. */
int ulpb_exhaustive_merge(ulpb_exhaustive_state *into, const ulpb_exhaustive_state *parts, const char *const *names,
                          int count, char *err, size_t err_len);

#endif
