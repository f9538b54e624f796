#define _GNU_SOURCE
#include "exhaustive.h"

#include <ctype.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"
#include "result_io.h"

#ifndef ULPB_VERSION
#define ULPB_VERSION "0.0.0"
#endif

enum { CHUNK_INPUTS = 1 << ULPB_CHUNK_BITS, BATCH = 4096 };

static volatile sig_atomic_t g_stop_requested;
static void request_stop(int sig) {
    (void)sig;
    g_stop_requested = 1;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

bool ulpb_exhaustive_chunk_patterns(const ulpb_exhaustive_spec *spec, int chunk, uint64_t *first, uint64_t *end) {
    const uint64_t base = (uint64_t)chunk << ULPB_CHUNK_BITS, last = base + CHUNK_INPUTS - 1;
    if (!spec->range.given) {
        *first = base, *end = last + 1;
        return true;
    }
    uint64_t first_key, last_key;
    if (!ulpb_range_keys(ULPB_DTYPE_f32, &spec->range, &first_key, &last_key)) return false;
    /* the chunk's keys form one run too, ascending with the patterns above +0 and descending below it */
    const uint64_t base_key = ulpb_order_key(ULPB_DTYPE_f32, base),
                   last_pattern_key = ulpb_order_key(ULPB_DTYPE_f32, last);
    const uint64_t low_key = base_key < last_pattern_key ? base_key : last_pattern_key;
    const uint64_t high_key = base_key < last_pattern_key ? last_pattern_key : base_key;
    const uint64_t from = low_key > first_key ? low_key : first_key, to = high_key < last_key ? high_key : last_key;
    if (from > to) return false;
    const uint64_t a = ulpb_bits_of_key(ULPB_DTYPE_f32, from), b = ulpb_bits_of_key(ULPB_DTYPE_f32, to);
    *first = a < b ? a : b;
    *end = (a < b ? b : a) + 1;
    return true;
}

static bool chunk_has_patterns(const ulpb_exhaustive_spec *spec, int chunk) {
    uint64_t first, end;
    return ulpb_exhaustive_chunk_patterns(spec, chunk, &first, &end);
}

/* The run's chunks in ascending order; returns how many. */
static int run_chunks(const ulpb_exhaustive_spec *spec, int list[ULPB_CHUNKS]) {
    int n = 0;
    for (int c = 0; c < ULPB_CHUNKS; c++)
        if (chunk_has_patterns(spec, c)) list[n++] = c;
    return n;
}

int ulpb_exhaustive_chunk_count(const ulpb_exhaustive_spec *spec) {
    int list[ULPB_CHUNKS];
    return run_chunks(spec, list);
}

void ulpb_exhaustive_shard_chunks(const ulpb_exhaustive_spec *spec, int *first, int *end) {
    int list[ULPB_CHUNKS];
    const int n = run_chunks(spec, list);
    const int a = (int)((int64_t)n * spec->shard_index / spec->shard_count);
    const int b = (int)((int64_t)n * (spec->shard_index + 1) / spec->shard_count);
    *first = a < b ? list[a] : 0;
    *end = a < b ? list[b - 1] + 1 : 0;
}

/* A chunk the shard checks. */
static bool shard_has_chunk(const ulpb_exhaustive_spec *spec, int first, int end, int chunk) {
    return chunk >= first && chunk < end && chunk_has_patterns(spec, chunk);
}

void ulpb_exhaustive_init(ulpb_exhaustive_state *st, const ulpb_exhaustive_spec *spec) {
    memset(st, 0, sizeof *st);
    st->spec = *spec;
}

bool ulpb_exhaustive_complete(const ulpb_exhaustive_state *st) {
    int first, end;
    ulpb_exhaustive_shard_chunks(&st->spec, &first, &end);
    for (int c = first; c < end; c++)
        if (!st->done[c] && chunk_has_patterns(&st->spec, c)) return false;
    return true;
}

/* Keeps the smallest ULPB_MISROUNDED_LIST_MAX of both ascending lists, so any merge order agrees. */
static void merge_misrounded(ulpb_exhaustive_state *st, const uint32_t *more, uint64_t more_count) {
    static _Thread_local uint32_t merged[ULPB_MISROUNDED_LIST_MAX];
    uint64_t i = 0, j = 0, k = 0;
    while (k < ULPB_MISROUNDED_LIST_MAX && (i < st->misrounded_listed || j < more_count))
        merged[k++] = (j >= more_count || (i < st->misrounded_listed && st->misrounded[i] <= more[j]))
                          ? st->misrounded[i++]
                          : more[j++];
    memcpy(st->misrounded, merged, k * sizeof merged[0]);
    st->misrounded_listed = k;
}

/* The mean's sum, added in chunk order whatever order the chunks ran in. */
static void sum_chunk_ulps(ulpb_exhaustive_state *st) {
    st->stats.ulp_sum = 0.0;
    for (int c = 0; c < ULPB_CHUNKS; c++)
        if (st->done[c]) st->stats.ulp_sum = ulpb_ulp_sum_add(st->stats.ulp_sum, st->chunk_ulp_sum[c]);
}

/* a + b for durations where < 0 means unknown: unknown if either is */
static double add_durations(double a, double b) { return a < 0 || b < 0 ? -1.0 : a + b; }

typedef struct {
    ulpb_stats stats;
    double impl_seconds, reference_seconds;
    uint64_t fallbacks, misrounded_listed;
    uint32_t misrounded[ULPB_MISROUNDED_LIST_MAX];
} chunk_result;

/* 0, or -1 and a message in failure when the implementation misbehaved (ulpb_call_checked). */
static int check_chunk(const ulpb_exhaustive_spec *spec, int chunk, chunk_result *cr, float *in, float *out,
                       ref_value *refs, ulpb_call_buffer *calls, char *failure, size_t failure_len) {
    const ref_format *binary32 = &ulpb_dtypes[ULPB_DTYPE_f32].format;
    const ref_op op = ulpb_ops[spec->entry->op].ref;
    memset(&cr->stats, 0, sizeof cr->stats);
    cr->fallbacks = cr->misrounded_listed = 0;
    cr->impl_seconds = cr->reference_seconds = 0.0;
    uint64_t first, end;
    if (!ulpb_exhaustive_chunk_patterns(spec, chunk, &first, &end)) return 0;
    uint64_t call_index =
        (uint64_t)chunk; /* whatever thread checks the chunk: nearly two cycles of lengths per chunk */
    for (uint64_t block = first; block < end; block += BATCH) {
        const uint32_t count = end - block < BATCH ? (uint32_t)(end - block) : BATCH;
        for (uint32_t i = 0; i < count; i++) {
            const uint32_t bits = (uint32_t)(block + i);
            memcpy(&in[i], &bits, sizeof bits);
        }
        if (ulpb_call_checked(spec->entry, calls, in, out, count, &call_index, &cr->impl_seconds, failure, failure_len))
            return -1;
        const double t1 = now_seconds();
        for (uint32_t i = 0; i < count; i++)
            if (spec->mpfr_reference || !ref_fast_binary32(op, (double)in[i], &refs[i])) {
                ref_eval(op, binary32, (double)in[i], &refs[i]);
                cr->fallbacks += !spec->mpfr_reference;
            }
        cr->reference_seconds += now_seconds() - t1;
        for (uint32_t i = 0; i < count; i++) {
            const uint64_t misrounded_before = cr->stats.misrounded;
            uint32_t out_bits;
            memcpy(&out_bits, &out[i], sizeof out_bits);
            ulpb_stats_record(&cr->stats, block + i, (double)in[i], &refs[i], (double)out[i],
                              ref_is_signaling_nan(binary32, out_bits));
            if (cr->stats.misrounded > misrounded_before && cr->misrounded_listed < ULPB_MISROUNDED_LIST_MAX)
                cr->misrounded[cr->misrounded_listed++] = (uint32_t)(block + i);
        }
    }
    const double t2 = now_seconds();
    if (!spec->mpfr_reference) ulpb_stats_remeasure_worst(&cr->stats, op, binary32);
    cr->reference_seconds += now_seconds() - t2;
    return 0;
}

void ulpb_exhaustive_run(ulpb_exhaustive_state *st) {
    const ulpb_exhaustive_spec *spec = &st->spec;
    int first, end, todo_count = 0;
    ulpb_exhaustive_shard_chunks(spec, &first, &end);
    static int todo[ULPB_CHUNKS];
    for (int c = first; c < end; c++)
        if (!st->done[c] && chunk_has_patterns(spec, c)) todo[todo_count++] = c;
    const int unchecked_count = todo_count; /* before --max-chunks: the progress line tells what is left after it */
    if (spec->max_chunks && (uint64_t)todo_count > spec->max_chunks) todo_count = (int)spec->max_chunks;

    static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
    enum { STOP_SIGNALS = sizeof stop_signals / sizeof stop_signals[0] };
    struct sigaction stop = {0}, previous[STOP_SIGNALS];
    stop.sa_handler = request_stop;
    sigemptyset(&stop.sa_mask);
    g_stop_requested = 0;
    for (int k = 0; k < STOP_SIGNALS; k++) {
        sigaction(stop_signals[k], &stop, &previous[k]);
        /* a signal the caller ignores stays ignored (nohup, or SIGINT in a script's background job) */
        if (previous[k].sa_handler == SIG_IGN) sigaction(stop_signals[k], &previous[k], NULL);
    }

    const int threads = ulpb_team_size(spec->threads);
    const double start = now_seconds();
    double last_progress = start, last_checkpoint = start;
    int finished = 0;
    atomic_int failed = 0; /* a chunk's implementation misbehaved: the other threads stop (st->failure says why) */
    bool checkpoint_writing = false; /* a thread is writing a checkpoint (read and set under the merge lock) */
#pragma omp parallel num_threads(threads)
    {
        chunk_result *cr = malloc(sizeof *cr);
        float *in = malloc(BATCH * sizeof *in), *out = malloc(BATCH * sizeof *out);
        ref_value *refs = malloc(BATCH * sizeof *refs);
        ulpb_call_buffer calls;
        if (!cr || !in || !out || !refs || ulpb_call_buffer_init(&calls, &ulpb_dtypes[ULPB_DTYPE_f32])) {
            fputs("ulpbench: out of memory\n", stderr);
            ulpb_note_ending(2);
            exit(2);
        }
#pragma omp for schedule(dynamic, 1)
        for (int t = 0; t < todo_count; t++) {
            if (g_stop_requested || atomic_load_explicit(&failed, memory_order_relaxed)) continue;
            char failure[sizeof st->failure];
            if (check_chunk(spec, todo[t], cr, in, out, refs, &calls, failure, sizeof failure)) {
#pragma omp critical(ulpb_exhaustive_merge)
                if (!st->failure[0]) snprintf(st->failure, sizeof st->failure, "%s", failure);
                atomic_store_explicit(&failed, 1, memory_order_relaxed);
                continue;
            }
            ulpb_exhaustive_state *partial = NULL; /* a snapshot to checkpoint, written outside the merge */
#pragma omp critical(ulpb_exhaustive_merge)
            {
                ulpb_stats_merge(&st->stats, &cr->stats);
                st->chunk_ulp_sum[todo[t]] = cr->stats.ulp_sum;
                st->reference_fallbacks += cr->fallbacks;
                st->impl_seconds = add_durations(st->impl_seconds, cr->impl_seconds);
                st->reference_seconds = add_durations(st->reference_seconds, cr->reference_seconds);
                merge_misrounded(st, cr->misrounded, cr->misrounded_listed);
                st->done[todo[t]] = true;
                finished++;
                const double t_now = now_seconds();
                if (spec->progress && (t_now - last_progress > 1.0 || finished == todo_count)) {
                    const double elapsed = t_now - start;
                    char beyond[64] = ""; /* "100.0% 3/3" alone would read as the whole run done */
                    if (todo_count < unchecked_count)
                        snprintf(beyond, sizeof beyond, " (--max-chunks: %d more left to --resume)",
                                 unchecked_count - todo_count);
                    fprintf(stderr, "%s[%s f32 %s] %5.1f%% %d/%d chunks, %.0f s, ETA %.0f s%s%s", isatty(2) ? "\r" : "",
                            ulpb_ops[spec->entry->op].name, spec->entry->impl, 100.0 * finished / todo_count, finished,
                            todo_count, elapsed, elapsed * (todo_count - finished) / finished, beyond,
                            isatty(2) && finished < todo_count ? "" : "\n");
                    last_progress = t_now;
                }
                if (spec->checkpoint && !checkpoint_writing && finished < todo_count && !g_stop_requested && !failed &&
                    t_now - last_checkpoint >= spec->checkpoint_seconds) {
                    partial = malloc(sizeof *partial);
                    if (partial) {
                        *partial = *st; /* whole: the other threads merge only under this lock */
                        partial->seconds += t_now - start;
                        checkpoint_writing = true;
                    }
                }
            }
            /* The write (synced to disk) runs outside the merge, so the other threads go on checking chunks; one at a
             * time, and the interval counts from its end, as it did when the write held the lock. */
            if (partial) {
                sum_chunk_ulps(partial);
                spec->checkpoint(partial, spec->checkpoint_context);
                free(partial);
#pragma omp critical(ulpb_exhaustive_merge)
                {
                    checkpoint_writing = false;
                    last_checkpoint = now_seconds();
                }
            }
        }
        free(cr), free(in), free(out), free(refs), ulpb_call_buffer_free(&calls);
    }
    st->interrupted = g_stop_requested != 0;
    for (int k = 0; k < STOP_SIGNALS; k++) sigaction(stop_signals[k], &previous[k], NULL);
    st->seconds += now_seconds() - start;
    sum_chunk_ulps(st);
}

/* ---- JSON ---------------------------------------------------------------------------------- */

cJSON *ulpb_exhaustive_json(const ulpb_exhaustive_state *st, const char *command) {
    const ulpb_exhaustive_spec *spec = &st->spec;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", "ulpbench.exhaustive");
    cJSON_AddNumberToObject(doc, "schema_version", ULPB_SCHEMA_VERSION);
    cJSON_AddStringToObject(doc, "ulpbench", ULPB_VERSION);
    cJSON_AddStringToObject(doc, "command", command);
    cJSON_AddStringToObject(doc, "op", ulpb_ops[spec->entry->op].name);
    cJSON_AddStringToObject(doc, "dtype", "f32");
    cJSON_AddStringToObject(doc, "impl", spec->entry->impl);
    cJSON_AddStringToObject(doc, "reference", spec->mpfr_reference ? "mpfr" : "fast");
    ulpb_range_json(doc, &spec->range);
    cJSON *shard = cJSON_AddObjectToObject(doc, "shard");
    cJSON_AddNumberToObject(shard, "index", spec->shard_index);
    cJSON_AddNumberToObject(shard, "count", spec->shard_count);
    cJSON_AddNumberToObject(doc, "chunk_inputs", CHUNK_INPUTS);
    cJSON_AddBoolToObject(doc, "complete", ulpb_exhaustive_complete(st));
    cJSON_AddBoolToObject(doc, "interrupted", st->interrupted);
    cJSON *covered = cJSON_AddArrayToObject(doc, "covered"); /* [first pattern, end pattern) runs */
    for (int c = 0; c < ULPB_CHUNKS;) {
        if (!st->done[c]) {
            c++;
            continue;
        }
        int e = c;
        while (e < ULPB_CHUNKS && st->done[e]) e++;
        const double range[2] = {(double)((uint64_t)c << ULPB_CHUNK_BITS), (double)((uint64_t)e << ULPB_CHUNK_BITS)};
        cJSON_AddItemToArray(covered, cJSON_CreateDoubleArray(range, 2));
        c = e;
    }
    cJSON_AddItemToObject(doc, "environment", ulpb_environment_json());
    cJSON_AddNumberToObject(doc, "seconds", st->seconds);
    /* unknown (< 0) for states resumed or merged from files written before these were recorded: left out */
    if (st->impl_seconds >= 0) cJSON_AddNumberToObject(doc, "impl_seconds", st->impl_seconds);
    if (st->reference_seconds >= 0) cJSON_AddNumberToObject(doc, "reference_seconds", st->reference_seconds);

    cJSON *result = ulpb_stats_json(&st->stats, &ulpb_dtypes[ULPB_DTYPE_f32]);
    ulpb_json_add_count(result, "reference_fallbacks", st->reference_fallbacks);
    cJSON *list = cJSON_AddArrayToObject(result, "misrounded_inputs");
    for (uint64_t i = 0; i < st->misrounded_listed; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "0x%08x", st->misrounded[i]);
        cJSON_AddItemToArray(list, cJSON_CreateString(buf));
    }
    cJSON_AddBoolToObject(result, "misrounded_inputs_truncated", st->stats.misrounded > st->misrounded_listed);
    cJSON_AddItemToObject(doc, "result", result);

    /* Exact values for resuming and merging (hex floats round-trip). */
    cJSON *state = ulpb_stats_state_json(&st->stats);
    cJSON_AddItemToObject(doc, "state", state);
    cJSON *sums = cJSON_AddObjectToObject(state, "chunk_ulp_sums");
    for (int c = 0; c < ULPB_CHUNKS; c++) {
        if (!st->done[c]) continue;
        char key[8];
        snprintf(key, sizeof key, "%d", c);
        ulpb_json_add_hex_double(sums, key, st->chunk_ulp_sum[c]);
    }
    return doc;
}

/* An input the state's checked chunks hold (in the range, when there is one). */
static bool covers_input(const ulpb_exhaustive_state *st, uint64_t bits) {
    uint64_t first, end;
    return bits <= 0xffffffffull && st->done[bits >> ULPB_CHUNK_BITS] &&
           ulpb_exhaustive_chunk_patterns(&st->spec, (int)(bits >> ULPB_CHUNK_BITS), &first, &end) && bits >= first &&
           bits < end;
}

int ulpb_exhaustive_from_json(const cJSON *doc, ulpb_exhaustive_state *st, char *err, size_t len) {
    memset(st, 0, sizeof *st);
    const char *schema = ulpb_json_get_string(doc, "schema"), *version = ulpb_json_get_string(doc, "ulpbench");
    if (!schema || strcmp(schema, "ulpbench.exhaustive") != 0) {
        snprintf(err, len, "not an exhaustive result (schema \"%s\")", schema ? schema : "?");
        return -1;
    }
    if (!version || strcmp(version, ULPB_VERSION) != 0) {
        snprintf(err, len, "written by ulpbench %s, this is %s", version ? version : "?", ULPB_VERSION);
        return -1;
    }
    const cJSON *schema_version = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
    if (!cJSON_IsNumber(schema_version) || schema_version->valuedouble != ULPB_SCHEMA_VERSION) {
        snprintf(err, len, "schema_version is not %d", ULPB_SCHEMA_VERSION);
        return -1;
    }
    const char *op = ulpb_json_get_string(doc, "op"), *dtype = ulpb_json_get_string(doc, "dtype"),
               *impl = ulpb_json_get_string(doc, "impl");
    const char *reference = ulpb_json_get_string(doc, "reference");
    const int op_id = op ? ulpb_op_find(op) : -1;
    if (op_id < 0 || !dtype || strcmp(dtype, "f32") != 0 || !impl || !reference ||
        (strcmp(reference, "mpfr") != 0 && strcmp(reference, "fast") != 0)) {
        snprintf(err, len, "missing or unknown op, dtype, impl or reference");
        return -1;
    }
    st->spec.entry = ulpb_entry_find(impl, (ulpb_op_id)op_id, ULPB_DTYPE_f32);
    if (!st->spec.entry) {
        snprintf(err, len,
                 "no implementation '%s' of %s f32 in this registry (a library's rows need ULPB_LIBRARIES to load it "
                 "as in the run)",
                 impl, op);
        return -1;
    }
    if (st->spec.entry->role == ULPB_ROLE_BASELINE) { /* as a new run of it is refused: its "errors" mean nothing */
        snprintf(err, len, "'%s' is a throughput baseline and has no accuracy", impl);
        return -1;
    }
    st->spec.mpfr_reference = strcmp(reference, "mpfr") == 0;
    double index, count, chunk_inputs;
    const cJSON *shard = cJSON_GetObjectItemCaseSensitive(doc, "shard");
    if (ulpb_json_get_number(shard, "index", &index, err, len) ||
        ulpb_json_get_number(shard, "count", &count, err, len) ||
        ulpb_json_get_number(doc, "chunk_inputs", &chunk_inputs, err, len) ||
        ulpb_json_get_duration(doc, "seconds", true, &st->seconds, err, len) ||
        ulpb_json_get_duration(doc, "impl_seconds", false, &st->impl_seconds, err, len) ||
        ulpb_json_get_duration(doc, "reference_seconds", false, &st->reference_seconds, err, len))
        return -1;
    if (ulpb_range_from_json(doc, &st->spec.range, err, len)) return -1;
    uint64_t first_key, last_key;
    if (st->spec.range.given && !ulpb_range_keys(ULPB_DTYPE_f32, &st->spec.range, &first_key, &last_key)) {
        snprintf(err, len, "\"range\" holds no binary32 value");
        return -1;
    }
    const int run_chunk_count = ulpb_exhaustive_chunk_count(&st->spec);
    if (chunk_inputs != CHUNK_INPUTS || count < 1 || count > run_chunk_count || index < 0 || index >= count ||
        index != floor(index) || count != floor(count)) {
        snprintf(err, len, "bad shard %.17g/%.17g (of %d chunks) or chunk size %.17g (ulpbench's is %d)", index, count,
                 run_chunk_count, chunk_inputs, CHUNK_INPUTS);
        return -1;
    }
    st->spec.shard_index = (int)index;
    st->spec.shard_count = (int)count;
    const cJSON *range;
    cJSON_ArrayForEach(range, cJSON_GetObjectItemCaseSensitive(doc, "covered")) {
        const cJSON *lo = cJSON_GetArrayItem(range, 0), *hi = cJSON_GetArrayItem(range, 1);
        if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) || lo->valuedouble < 0 || hi->valuedouble > 0x1p32 ||
            lo->valuedouble >= hi->valuedouble || fmod(lo->valuedouble, CHUNK_INPUTS) != 0 ||
            fmod(hi->valuedouble, CHUNK_INPUTS) != 0) {
            snprintf(err, len, "malformed \"covered\" range");
            return -1;
        }
        for (int c = (int)(lo->valuedouble / CHUNK_INPUTS); c < (int)(hi->valuedouble / CHUNK_INPUTS); c++)
            st->done[c] = true;
    }
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(doc, "result");
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(doc, "state");
    if (ulpb_stats_from_json(result, state, &st->stats, err, len)) return -1;
    /* the counters must be those of the covered chunks, all of this shard's: a resumed run adds to them */
    int first, end;
    uint64_t covered_inputs = 0;
    ulpb_exhaustive_shard_chunks(&st->spec, &first, &end);
    for (int c = 0; c < ULPB_CHUNKS; c++) {
        if (!st->done[c]) continue;
        uint64_t chunk_first, chunk_end;
        if (!shard_has_chunk(&st->spec, first, end, c) ||
            !ulpb_exhaustive_chunk_patterns(&st->spec, c, &chunk_first, &chunk_end)) {
            snprintf(err, len, "\"covered\" holds inputs outside shard %d/%d%s", st->spec.shard_index,
                     st->spec.shard_count, st->spec.range.given ? " of the range" : "");
            return -1;
        }
        covered_inputs += chunk_end - chunk_first;
    }
    if (st->stats.inputs != covered_inputs) {
        snprintf(err, len, "%llu inputs counted, but \"covered\" holds %llu%s", (unsigned long long)st->stats.inputs,
                 (unsigned long long)covered_inputs, st->spec.range.given ? " in the range" : "");
        return -1;
    }
    if (ulpb_json_get_count(result, "reference_fallbacks", &st->reference_fallbacks, err, len)) return -1;
    if (st->reference_fallbacks > st->stats.inputs) {
        snprintf(err, len, "more \"reference_fallbacks\" than inputs");
        return -1;
    }
    /* the smallest misrounded inputs, ascending, as many as the count or the list's limit allows, all covered */
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(result, "misrounded_inputs")) {
        char *end;
        const char *text = cJSON_IsString(item) ? item->valuestring : "";
        const unsigned long long bits = strtoull(text, &end, 16);
        if (!isxdigit((unsigned char)*text) || *end || bits > 0xffffffffull ||
            st->misrounded_listed == ULPB_MISROUNDED_LIST_MAX ||
            (st->misrounded_listed && bits <= st->misrounded[st->misrounded_listed - 1]) || !covers_input(st, bits)) {
            snprintf(err, len, "malformed \"misrounded_inputs\" (not ascending, or outside \"covered\")");
            return -1;
        }
        st->misrounded[st->misrounded_listed++] = (uint32_t)bits;
    }
    const uint64_t expected_listed =
        st->stats.misrounded < ULPB_MISROUNDED_LIST_MAX ? st->stats.misrounded : ULPB_MISROUNDED_LIST_MAX;
    if (st->misrounded_listed != expected_listed) {
        snprintf(err, len, "\"misrounded_inputs\" lists %llu inputs for %llu misrounded",
                 (unsigned long long)st->misrounded_listed, (unsigned long long)st->stats.misrounded);
        return -1;
    }
    /* the inputs the counters name must be inputs of this result */
    if ((st->stats.has_worst && !covers_input(st, st->stats.worst_bits)) ||
        (st->stats.has_special_example && !covers_input(st, st->stats.special_bits))) {
        snprintf(err, len, "\"worst_bits\" or \"special_bits\" lies outside \"covered\"");
        return -1;
    }
    if (ulpb_stats_check_inputs(&st->stats, &ulpb_dtypes[ULPB_DTYPE_f32], err, len)) return -1;
    const cJSON *sums = cJSON_GetObjectItemCaseSensitive(state, "chunk_ulp_sums");
    for (int c = 0; c < ULPB_CHUNKS; c++) {
        if (!st->done[c]) continue;
        char key[8];
        snprintf(key, sizeof key, "%d", c);
        if (ulpb_json_get_hex_double(sums, key, &st->chunk_ulp_sum[c], err, len)) return -1;
        if (!(st->chunk_ulp_sum[c] >= 0 && st->chunk_ulp_sum[c] < INFINITY)) {
            snprintf(err, len, "\"chunk_ulp_sums\" %s is not a sum of errors", key);
            return -1;
        }
    }
    sum_chunk_ulps(st);
    if (ulpb_stats_shown_match(result, &st->stats, err, len)) return -1;
    /* what a reader sees of the run's end is what "covered" says, which the tools go by */
    const cJSON *complete = cJSON_GetObjectItemCaseSensitive(doc, "complete");
    if (!cJSON_IsBool(complete) || cJSON_IsTrue(complete) != ulpb_exhaustive_complete(st)) {
        snprintf(err, len, "\"complete\" is not %s, which \"covered\" says",
                 ulpb_exhaustive_complete(st) ? "true" : "false");
        return -1;
    }
    return ulpb_stats_check_sum(&st->stats, err, len);
}

/* The patterns the run checks in chunks [first, end) (the whole chunks at an end that holds none). */
static void describe_chunks(const ulpb_exhaustive_spec *spec, char *buf, size_t len, int first, int end) {
    uint64_t low = (uint64_t)first << ULPB_CHUNK_BITS, high = (uint64_t)end << ULPB_CHUNK_BITS, unused;
    if (!ulpb_exhaustive_chunk_patterns(spec, first, &low, &unused)) low = (uint64_t)first << ULPB_CHUNK_BITS;
    if (!ulpb_exhaustive_chunk_patterns(spec, end - 1, &unused, &high)) high = (uint64_t)end << ULPB_CHUNK_BITS;
    snprintf(buf, len, "inputs 0x%08llx..0x%08llx", (unsigned long long)low, (unsigned long long)high - 1);
}

int ulpb_exhaustive_merge(ulpb_exhaustive_state *into, const ulpb_exhaustive_state *parts, const char *const *names,
                          int count, char *err, size_t len) {
    static int owner[ULPB_CHUNKS];
    ulpb_exhaustive_spec whole = parts[0].spec;
    whole.shard_index = 0;
    whole.shard_count = 1;
    ulpb_exhaustive_init(into, &whole);
    for (int p = 0; p < count; p++) {
        const ulpb_exhaustive_spec *s = &parts[p].spec;
        const bool same_range = s->range.given == whole.range.given &&
                                (!s->range.given || (s->range.lo == whole.range.lo && s->range.hi == whole.range.hi));
        const char *what = s->entry->op != whole.entry->op                  ? "op"
                           : strcmp(s->entry->impl, whole.entry->impl) != 0 ? "implementation"
                           : s->mpfr_reference != whole.mpfr_reference      ? "reference"
                           : !same_range                                    ? "--range"
                                                                            : NULL;
        if (what) {
            snprintf(err, len, "%s and %s have different %s", names[0], names[p], what);
            return -1;
        }
        for (int c = 0; c < ULPB_CHUNKS; c++) {
            if (!parts[p].done[c]) continue;
            if (into->done[c]) {
                char range[64];
                describe_chunks(&whole, range, sizeof range, c, c + 1);
                snprintf(err, len, "%s and %s overlap (%s)", names[owner[c]], names[p], range);
                return -1;
            }
            into->done[c] = true;
            owner[c] = p;
            into->chunk_ulp_sum[c] = parts[p].chunk_ulp_sum[c];
        }
        ulpb_stats_merge(&into->stats, &parts[p].stats);
        into->reference_fallbacks += parts[p].reference_fallbacks;
        merge_misrounded(into, parts[p].misrounded, parts[p].misrounded_listed);
        into->seconds += parts[p].seconds;
        into->impl_seconds = add_durations(into->impl_seconds, parts[p].impl_seconds);
        into->reference_seconds = add_durations(into->reference_seconds, parts[p].reference_seconds);
    }
    for (int c = 0; c < ULPB_CHUNKS; c++) {
        if (into->done[c] || !chunk_has_patterns(&whole, c)) continue;
        int e = c;
        while (e < ULPB_CHUNKS && !into->done[e] && chunk_has_patterns(&whole, e)) e++;
        char range[64];
        describe_chunks(&whole, range, sizeof range, c, e);
        snprintf(err, len, "gap: %s are in none of the files", range);
        return -1;
    }
    sum_chunk_ulps(into);
    return 0;
}
