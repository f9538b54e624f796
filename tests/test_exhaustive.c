/* Exhaustive binary32 runs: the fast reference never disagrees with MPFR, shards merge only when
 * they fit together, and an interrupted run resumes to the identical result. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <omp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "exhaustive.h"

#ifndef ULPB_FAST_REFERENCE_SAMPLES
#define ULPB_FAST_REFERENCE_SAMPLES 10000000
#endif

static uint64_t mix(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static float float_from(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Inputs from several distributions: any pattern, the natural ranges, near 1, tiny, huge. */
static float sample(uint64_t i) {
    const uint64_t r = mix(i);
    const double u = (double)(r >> 11) * 0x1p-53;
    switch (i % 7) {
    case 0:
        return float_from((uint32_t)r);
    case 1:
        return (float)(-M_PI + 2 * M_PI * u);
    case 2:
        return (float)(-1e4 + 2e4 * u);
    case 3:
        return (float)(-1.0 + 2.0 * u);
    case 4:
        return float_from(0x3f800000u - (uint32_t)(r % (1u << 23)) - 1); /* just below 1 */
    case 5:
        return float_from((uint32_t)(r % 0x33800000u)); /* below 2^-24 */
    default:
        return float_from(0x4b000000u + (uint32_t)(r % 0x34000000u)); /* 2^23 and above */
    }
}

/* Whether a fast reference value agrees with MPFR's: the same correctly rounded value, and the same
 * ULP error (within tolerance) for it and for its two neighbours, the verdicts a check can reach.
 * neighbour() steps one value of the format up (+1) or down (-1). */
static int agrees(const ref_value *fast, const ref_value *exact, double (*neighbour)(double, int), double tolerance) {
    if (isnan(exact->rounded)) return isnan(fast->rounded);
    if (fast->rounded != exact->rounded || signbit(fast->rounded) != signbit(exact->rounded)) return 0;
    const double candidates[3] = {exact->rounded, neighbour(exact->rounded, 1), neighbour(exact->rounded, -1)};
    for (int k = 0; k < 3; k++)
        if (fabs(ref_ulp_error(fast, candidates[k]) - ref_ulp_error(exact, candidates[k])) > tolerance) return 0;
    return 1;
}

static double binary32_neighbour(double v, int direction) { return nextafterf((float)v, direction * INFINITY); }
static double binary64_neighbour(double v, int direction) { return nextafter(v, direction * INFINITY); }

typedef int (*fast_reference_fn)(ref_op op, double x, ref_value *out);

/* Compares a fast reference with MPFR on n inputs per op; fails on any disagreement, and when more than
 * max_fallback_share of the inputs fall back to MPFR (a fast reference that decides nothing agrees by default, and
 * would make the exhaustive runs some 40 times slower). */
static void expect_agreement(fast_reference_fn fast_reference, const ref_format *fmt, double (*input)(int op, long i),
                             long n, double (*neighbour)(double, int), double tolerance, double max_fallback_share) {
    long disagreements = 0, fallbacks = 0, first_bad = -1;
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        const ref_op rop = ulpb_ops[op].ref;
#pragma omp parallel for reduction(+ : disagreements, fallbacks) schedule(dynamic, 4096)
        for (long i = 0; i < n; i++) {
            const double x = input(op, i);
            ref_value fast, exact;
            if (!fast_reference(rop, x, &fast)) {
                fallbacks++;
                continue;
            }
            ref_eval(rop, fmt, x, &exact);
            if (!agrees(&fast, &exact, neighbour, tolerance)) {
                disagreements++;
#pragma omp critical
                if (first_bad < 0) first_bad = i;
            }
        }
    }
#pragma omp parallel
    ref_free_cache();
    print_message("%ld inputs x %d ops, %ld fast-reference fallbacks\n", n, ULPB_OP_COUNT, fallbacks);
    if (disagreements) fail_msg("%ld disagreements with MPFR, first at sample %ld", disagreements, first_bad);
    if (!((double)fallbacks <= max_fallback_share * (double)n * ULPB_OP_COUNT))
        fail_msg("%ld fallbacks to MPFR: more than %g of the inputs", fallbacks, max_fallback_share);
}

static double binary32_input(int op, long i) {
    (void)op;
    return (double)sample((uint64_t)i);
}

/* every sampler of the accuracy runner but the (enumerated) specials: any pattern, the natural
 * domain, huge arguments, the nearest doubles to k pi/2, near +-1, tiny and subnormal */
static double binary64_input(int op, long i) {
    const uint64_t bits = ulpb_sampler_input(1 + (int)(i % 6), (ulpb_op_id)op, ULPB_DTYPE_f64, 99, (uint64_t)i);
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static void fast_reference_agrees_with_mpfr(void **state) {
    (void)state;
    static const ref_format binary32 = {24, 8};
    expect_agreement(ref_fast_binary32, &binary32, binary32_input, ULPB_FAST_REFERENCE_SAMPLES, binary32_neighbour,
                     1e-6, 1e-3); /* 6 of 2 10^7 fall back */
}

#ifndef ULPB_FAST_REFERENCE_SAMPLES_F64
#define ULPB_FAST_REFERENCE_SAMPLES_F64 5000000
#endif

/* The binary64 fast reference (long double): ULP errors agree to 2e-3 (its value is exact to 2^-63). */
static void fast_binary64_reference_agrees_with_mpfr(void **state) {
    (void)state;
    static const ref_format binary64 = {53, 11};
    expect_agreement(ref_fast_binary64, &binary64, binary64_input, ULPB_FAST_REFERENCE_SAMPLES_F64, binary64_neighbour,
                     2e-3, 0.1); /* 2.5% fall back */
}

static ulpb_exhaustive_spec spec_for(const char *impl, ulpb_op_id op, bool mpfr, int index, int count) {
    const ulpb_exhaustive_spec spec = {.entry = ulpb_entry_find(impl, op, ULPB_DTYPE_f32),
                                       .mpfr_reference = mpfr,
                                       .shard_index = index,
                                       .shard_count = count};
    assert_non_null(spec.entry);
    return spec;
}

/* JSON of a state without what legitimately differs between runs. */
static cJSON *comparable_json(const ulpb_exhaustive_state *st) {
    cJSON *doc = ulpb_exhaustive_json(st, "test");
    cJSON_DeleteItemFromObject(doc, "seconds");
    cJSON_DeleteItemFromObject(doc, "impl_seconds");
    cJSON_DeleteItemFromObject(doc, "reference_seconds");
    cJSON_DeleteItemFromObject(doc, "interrupted");
    cJSON_DeleteItemFromObject(doc, "environment");
    return doc;
}

static void fast_reference_run_matches_mpfr_run(void **state) {
    (void)state;
    static ulpb_exhaustive_state fast, mpfr; /* one chunk: [1, 1 + 2^-3) */
    const ulpb_exhaustive_spec fast_spec = spec_for("glibc", ULPB_OP_cos, false, 1016, 4096);
    const ulpb_exhaustive_spec mpfr_spec = spec_for("glibc", ULPB_OP_cos, true, 1016, 4096);
    ulpb_exhaustive_init(&fast, &fast_spec);
    ulpb_exhaustive_init(&mpfr, &mpfr_spec);
    ulpb_exhaustive_run(&fast);
    ulpb_exhaustive_run(&mpfr);
    assert_true(ulpb_exhaustive_complete(&fast) && ulpb_exhaustive_complete(&mpfr));
    assert_int_equal(fast.stats.inputs, 1u << 20);
    assert_true(fast.stats.misrounded > 1000); /* glibc cosf is not correctly rounded */
    assert_int_equal(fast.stats.misrounded, mpfr.stats.misrounded);
    assert_int_equal(fast.stats.correctly_rounded, mpfr.stats.correctly_rounded);
    assert_int_equal(fast.misrounded_listed, mpfr.misrounded_listed);
    assert_memory_equal(fast.misrounded, mpfr.misrounded, fast.misrounded_listed * sizeof fast.misrounded[0]);
    assert_memory_equal(fast.stats.histogram, mpfr.stats.histogram, sizeof fast.stats.histogram);
    assert_true(fabs(fast.stats.max_ulp - mpfr.stats.max_ulp) < 1e-6);
}

/* A run of spec stopped after one chunk, into part, and its JSON. */
static cJSON *stopped_after_one_chunk(ulpb_exhaustive_state *part, const ulpb_exhaustive_spec *spec) {
    ulpb_exhaustive_spec limited = *spec;
    limited.max_chunks = 1;
    ulpb_exhaustive_init(part, &limited);
    ulpb_exhaustive_run(part);
    assert_false(ulpb_exhaustive_complete(part));
    return ulpb_exhaustive_json(part, "test");
}

static void interrupted_run_resumes_to_identical_result(void **state) {
    (void)state;
    static ulpb_exhaustive_state whole, part, resumed;
    /* 4 chunks, [1, 1.5), where glibc's cosf misrounds: counts, lists and histogram that an interruption could upset */
    const ulpb_exhaustive_spec spec = spec_for("glibc", ULPB_OP_cos, false, 254, 1024);
    ulpb_exhaustive_init(&whole, &spec);
    ulpb_exhaustive_run(&whole);
    assert_true(ulpb_exhaustive_complete(&whole) && whole.stats.misrounded > 1000 && whole.misrounded_listed > 0);
    /* through the file format, as --resume does */
    cJSON *saved = stopped_after_one_chunk(&part, &spec);
    char *text = cJSON_Print(saved);
    cJSON *loaded = cJSON_Parse(text);
    char err[256];
    assert_int_equal(ulpb_exhaustive_from_json(loaded, &resumed, err, sizeof err), 0);
    assert_false(ulpb_exhaustive_complete(&resumed));
    resumed.spec.max_chunks = 2; /* and once more interrupted */
    ulpb_exhaustive_run(&resumed);
    resumed.spec.max_chunks = 0;
    ulpb_exhaustive_run(&resumed);
    assert_true(ulpb_exhaustive_complete(&resumed));
    cJSON *a = comparable_json(&whole), *b = comparable_json(&resumed);
    if (!cJSON_Compare(a, b, true)) {
        char *ta = cJSON_Print(a), *tb = cJSON_Print(b);
        fail_msg("resumed result differs:\n%s\n---\n%s", ta, tb);
    }
    cJSON_Delete(a), cJSON_Delete(b), cJSON_Delete(saved), cJSON_Delete(loaded);
    free(text);
}

/* Merging needs only the coverage and statistics, so the states are made by hand. */
static void fake_shard(ulpb_exhaustive_state *st, const char *impl, int first_chunk, int end_chunk) {
    const ulpb_exhaustive_spec spec = spec_for(impl, ULPB_OP_cos, false, 0, 1);
    ulpb_exhaustive_init(st, &spec);
    for (int c = first_chunk; c < end_chunk; c++) st->done[c] = true; /* no ULP errors counted: every sum is 0 */
    st->stats.inputs = (uint64_t)(end_chunk - first_chunk) << ULPB_CHUNK_BITS;
    st->stats.correctly_rounded = st->stats.inputs - 1;
    st->stats.misrounded = 1;
    st->misrounded[0] = (uint32_t)first_chunk << ULPB_CHUNK_BITS;
    st->misrounded_listed = 1;
}

static void merge_accepts_only_fitting_shards(void **state) {
    (void)state;
    static ulpb_exhaustive_state parts[3], merged;
    const char *names[3] = {"a.json", "b.json", "c.json"};
    char err[512];
    fake_shard(&parts[0], "omk", 0, 2048);
    fake_shard(&parts[1], "omk", 2048, 4096);
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), 0);
    assert_true(ulpb_exhaustive_complete(&merged));
    assert_int_equal(merged.stats.inputs, 1ull << 32);
    assert_int_equal(merged.stats.misrounded, 2);
    assert_int_equal(merged.misrounded_listed, 2);
    /* the times and the fallbacks add up; a part from before the times were recorded (unknown, < 0) makes the whole
     * unknown */
    parts[0].impl_seconds = 1.5, parts[0].reference_seconds = 10.0, parts[0].seconds = 7.0;
    parts[1].impl_seconds = 2.0, parts[1].reference_seconds = 20.0, parts[1].seconds = 9.0;
    parts[0].reference_fallbacks = 3, parts[1].reference_fallbacks = 4;
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), 0);
    assert_true(merged.impl_seconds == 3.5 && merged.reference_seconds == 30.0 && merged.seconds == 16.0);
    assert_int_equal(merged.reference_fallbacks, 7);
    parts[1].impl_seconds = -1.0;
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), 0);
    assert_true(merged.impl_seconds < 0 && merged.reference_seconds == 30.0);
    parts[1].impl_seconds = 2.0;
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), 0);
    /* the order of the files does not matter */
    ulpb_exhaustive_state swapped_parts[2] = {parts[1], parts[0]};
    static ulpb_exhaustive_state merged_swapped;
    assert_int_equal(ulpb_exhaustive_merge(&merged_swapped, swapped_parts, names, 2, err, sizeof err), 0);
    cJSON *a = comparable_json(&merged), *b = comparable_json(&merged_swapped);
    assert_true(cJSON_Compare(a, b, true));
    cJSON_Delete(a), cJSON_Delete(b);

    fake_shard(&parts[1], "omk", 2047, 4096); /* overlap */
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "overlap"));
    fake_shard(&parts[1], "omk", 2047, 4096); /* the same overlap in shards that claim other indices */
    parts[0].spec.shard_count = parts[1].spec.shard_count = 2;
    parts[1].spec.shard_index = 1;
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "overlap"));
    fake_shard(&parts[0], "omk", 0, 2048);
    fake_shard(&parts[1], "omk", 2049, 4096); /* gap */
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "gap"));
    fake_shard(&parts[1], "omk", 2048, 4095); /* the last chunk missing */
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "gap"));
    fake_shard(&parts[0], "omk", 1, 2048); /* the first chunk missing */
    fake_shard(&parts[1], "omk", 2048, 4096);
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "gap"));
    fake_shard(&parts[0], "omk", 0, 2048);
    fake_shard(&parts[1], "glibc", 2048, 4096); /* another implementation */
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "different implementation"));
    fake_shard(&parts[1], "omk", 2048, 4096);
    parts[1].spec.entry = ulpb_entry_find("omk", ULPB_OP_asin, ULPB_DTYPE_f32); /* another op */
    assert_int_equal(ulpb_exhaustive_merge(&merged, parts, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "different op"));

    /* another version or dtype is refused when the file is read */
    static ulpb_exhaustive_state back;
    cJSON *doc = ulpb_exhaustive_json(&parts[0], "test");
    assert_int_equal(ulpb_exhaustive_from_json(doc, &back, err, sizeof err), 0);
    /* the list of misrounded inputs is whole (parts[0] lists its one), and an input listed twice is refused */
    const cJSON *result = cJSON_GetObjectItem(doc, "result");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(result, "misrounded_inputs_truncated")));
    ulpb_exhaustive_state doubled = parts[0];
    doubled.stats.misrounded = 2, doubled.stats.correctly_rounded = doubled.stats.inputs - 2;
    doubled.misrounded[1] = doubled.misrounded[0], doubled.misrounded_listed = 2;
    cJSON *twice = ulpb_exhaustive_json(&doubled, "test");
    assert_int_equal(ulpb_exhaustive_from_json(twice, &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "not ascending"));
    cJSON_Delete(twice);
    ulpb_exhaustive_state none = parts[0];
    none.stats.misrounded = 0, none.misrounded_listed = 0, none.stats.correctly_rounded = none.stats.inputs;
    cJSON *clean = ulpb_exhaustive_json(&none, "test");
    assert_true(
        cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(clean, "result"), "misrounded_inputs_truncated")));
    cJSON_Delete(clean);
    assert_int_equal(ulpb_exhaustive_from_json(doc, &back, err, sizeof err), 0);
    assert_true(back.impl_seconds == parts[0].impl_seconds && back.reference_seconds == parts[0].reference_seconds);
    /* a file written before the two times were recorded still reads, its times unknown */
    cJSON *older = cJSON_Duplicate(doc, true);
    cJSON_DeleteItemFromObject(older, "impl_seconds");
    cJSON_DeleteItemFromObject(older, "reference_seconds");
    assert_int_equal(ulpb_exhaustive_from_json(older, &back, err, sizeof err), 0);
    assert_true(back.impl_seconds < 0 && back.reference_seconds < 0);
    cJSON *written = ulpb_exhaustive_json(&back, "test");
    assert_false(cJSON_HasObjectItem(written, "impl_seconds") || cJSON_HasObjectItem(written, "reference_seconds"));
    cJSON_Delete(written), cJSON_Delete(older);
    cJSON_ReplaceItemInObject(doc, "ulpbench", cJSON_CreateString("0.0.1"));
    assert_int_equal(ulpb_exhaustive_from_json(doc, &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "0.0.1"));
    cJSON_ReplaceItemInObject(doc, "ulpbench", cJSON_CreateString(ULPB_VERSION));
    cJSON_ReplaceItemInObject(doc, "dtype", cJSON_CreateString("f64"));
    assert_int_equal(ulpb_exhaustive_from_json(doc, &back, err, sizeof err), -1);
    cJSON_Delete(doc);
}

static ulpb_exhaustive_spec ranged_spec(const char *impl, ulpb_op_id op, double lo, double hi, int index, int count) {
    ulpb_exhaustive_spec spec = spec_for(impl, op, false, index, count);
    spec.range = (ulpb_input_range){true, lo, hi};
    return spec;
}

/* --range: only the patterns whose values lie in the range, in the chunks holding some; shards, resuming and merging
 * keep to them, and a result whose counts or range do not fit its chunks is refused. */
static void ranged_run_checks_only_the_range(void **state) {
    (void)state;
    /* a negative range not aligned to chunks, where glibc's cosf misrounds: [-1.3, -1.1] spans chunks 3064-3066 */
    static ulpb_exhaustive_state whole, part, resumed, shards[2], merged;
    const ulpb_exhaustive_spec spec = ranged_spec("glibc", ULPB_OP_cos, -1.3, -1.1, 0, 1);
    assert_int_equal(ulpb_exhaustive_chunk_count(&spec), 3);
    ulpb_exhaustive_init(&whole, &spec);
    ulpb_exhaustive_run(&whole);
    assert_true(ulpb_exhaustive_complete(&whole));
    uint64_t expected = 0;
    for (uint32_t bits = 0xbf800000u; bits < 0xc0000000u; bits++) {
        const float x = float_from(bits);
        expected += x >= -1.3 && x <= -1.1;
    }
    assert_int_equal(whole.stats.inputs, expected);
    assert_true(whole.stats.misrounded > 0 && whole.misrounded_listed > 0);
    for (uint64_t i = 0; i < whole.misrounded_listed; i++) {
        const float x = float_from(whole.misrounded[i]);
        assert_true(x >= -1.3 && x <= -1.1);
    }
    assert_true(whole.stats.worst_input >= -1.3 && whole.stats.worst_input <= -1.1);
    /* the same inputs as an unranged run of the chunks' patterns would check, fewer of them */
    uint64_t first, end;
    assert_true(ulpb_exhaustive_chunk_patterns(&spec, 3064, &first, &end));
    assert_true(float_from((uint32_t)first) <= -1.1 && float_from((uint32_t)(first - 1)) > -1.1);
    assert_false(ulpb_exhaustive_chunk_patterns(&spec, 3063, &first, &end));
    assert_false(ulpb_exhaustive_chunk_patterns(&spec, 3067, &first, &end));

    /* stopped after one chunk, through the file, resumed: the whole run's result */
    cJSON *saved = stopped_after_one_chunk(&part, &spec);
    char err[256];
    assert_int_equal(ulpb_exhaustive_from_json(saved, &resumed, err, sizeof err), 0);
    assert_true(resumed.spec.range.given && resumed.spec.range.lo == -1.3 && resumed.spec.range.hi == -1.1);
    resumed.spec.max_chunks = 0;
    ulpb_exhaustive_run(&resumed);
    cJSON *a = comparable_json(&whole), *b = comparable_json(&resumed);
    assert_true(cJSON_Compare(a, b, true));
    cJSON_Delete(b);
    const cJSON *range = cJSON_GetObjectItem(a, "range");
    assert_true(cJSON_IsObject(range));

    /* two shards, of one chunk and two, merge to the whole */
    const char *names[2] = {"a.json", "b.json"};
    for (int k = 0; k < 2; k++) {
        const ulpb_exhaustive_spec shard = ranged_spec("glibc", ULPB_OP_cos, -1.3, -1.1, k, 2);
        int shard_first, shard_end;
        ulpb_exhaustive_shard_chunks(&shard, &shard_first, &shard_end);
        assert_int_equal(shard_first, 3064 + k);
        assert_int_equal(shard_end, 3065 + 2 * k);
        ulpb_exhaustive_init(&shards[k], &shard);
        ulpb_exhaustive_run(&shards[k]);
        assert_true(ulpb_exhaustive_complete(&shards[k]));
    }
    assert_int_equal(ulpb_exhaustive_merge(&merged, shards, names, 2, err, sizeof err), 0);
    b = comparable_json(&merged);
    cJSON_DeleteItemFromObject(b, "command");
    cJSON_DeleteItemFromObject(a, "command");
    assert_true(cJSON_Compare(a, b, true));
    cJSON_Delete(b);
    assert_int_equal(ulpb_exhaustive_merge(&merged, shards, names, 1, err, sizeof err), -1); /* one shard: a gap */
    assert_non_null(strstr(err, "gap: inputs 0xbf900000..0xbfa66666 "));
    shards[1].spec.range.hi = -1.0; /* another range */
    assert_int_equal(ulpb_exhaustive_merge(&merged, shards, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "different --range"));
    shards[1].spec.range.hi = -1.1, shards[1].spec.range.lo = -1.29; /* another lower end alone */
    assert_int_equal(ulpb_exhaustive_merge(&merged, shards, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "different --range"));
    shards[1].spec.range.given = false;
    assert_int_equal(ulpb_exhaustive_merge(&merged, shards, names, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "different --range"));

    /* files whose range does not fit what they count */
    cJSON *edited = cJSON_Duplicate(saved, true);
    cJSON_ReplaceItemInObject(edited, "range", cJSON_CreateNull()); /* whole chunks: more inputs than counted */
    assert_int_equal(ulpb_exhaustive_from_json(edited, &resumed, err, sizeof err), -1);
    cJSON_Delete(edited);
    edited = cJSON_Duplicate(saved, true);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(edited, "range"), "hi", cJSON_CreateNumber(-1.11));
    assert_int_equal(ulpb_exhaustive_from_json(edited, &resumed, err, sizeof err), -1);
    assert_non_null(strstr(err, "in the range"));
    cJSON_Delete(edited);
    edited = cJSON_Duplicate(saved, true);
    cJSON *no_value = cJSON_CreateObject();
    cJSON_AddNumberToObject(no_value, "lo", 1e39), cJSON_AddNumberToObject(no_value, "hi", 2e39);
    cJSON_ReplaceItemInObject(edited, "range", no_value);
    assert_int_equal(ulpb_exhaustive_from_json(edited, &resumed, err, sizeof err), -1);
    assert_non_null(strstr(err, "no binary32 value"));
    cJSON_Delete(edited);
    edited = cJSON_Duplicate(saved, true); /* a misrounded input in a checked chunk, but outside the range: -1 */
    cJSON *listed = cJSON_GetObjectItem(cJSON_GetObjectItem(edited, "result"), "misrounded_inputs");
    assert_true(cJSON_GetArraySize(listed) > 0);
    cJSON_ReplaceItemInArray(listed, 0, cJSON_CreateString("0xbf800000"));
    assert_int_equal(ulpb_exhaustive_from_json(edited, &resumed, err, sizeof err), -1);
    assert_non_null(strstr(err, "outside \"covered\""));
    cJSON_Delete(edited);
    /* the same above the range's last input, in the last chunk of the complete result: -1.3000001 */
    edited = ulpb_exhaustive_json(&whole, "test");
    listed = cJSON_GetObjectItem(cJSON_GetObjectItem(edited, "result"), "misrounded_inputs");
    assert_int_equal(ulpb_exhaustive_from_json(edited, &resumed, err, sizeof err), 0);
    cJSON_ReplaceItemInArray(listed, cJSON_GetArraySize(listed) - 1, cJSON_CreateString("0xbfa66667"));
    assert_int_equal(ulpb_exhaustive_from_json(edited, &resumed, err, sizeof err), -1);
    assert_non_null(strstr(err, "outside \"covered\""));
    cJSON_Delete(edited);
    edited = cJSON_Duplicate(saved, true); /* four shards of three chunks */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(edited, "shard"), "count", cJSON_CreateNumber(4));
    assert_int_equal(ulpb_exhaustive_from_json(edited, &resumed, err, sizeof err), -1);
    assert_non_null(strstr(err, "of 3 chunks"));
    cJSON_Delete(edited);
    cJSON_Delete(a), cJSON_Delete(saved);

    /* a range around 0: both zeros, in the first chunk of each half, and nothing else there */
    static ulpb_exhaustive_state tiny[2], both;
    const ulpb_exhaustive_spec whole_zero = ranged_spec("omk", ULPB_OP_asin, -0x1p-148, 0x1p-148, 0, 1);
    ulpb_exhaustive_init(&both, &whole_zero);
    ulpb_exhaustive_run(&both);
    assert_int_equal(both.stats.inputs, 6);
    cJSON *zeros = ulpb_exhaustive_json(&both, "test"); /* covers chunks 0 and 2048, none between */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(zeros, "covered")), 2);
    assert_int_equal(ulpb_exhaustive_from_json(zeros, &resumed, err, sizeof err), 0);
    assert_true(ulpb_exhaustive_complete(&resumed));
    cJSON_Delete(zeros);
    for (int k = 0; k < 2; k++) {
        const ulpb_exhaustive_spec around_zero = ranged_spec("omk", ULPB_OP_asin, -0x1p-148, 0x1p-148, k, 2);
        assert_int_equal(ulpb_exhaustive_chunk_count(&around_zero), 2);
        ulpb_exhaustive_init(&tiny[k], &around_zero);
        ulpb_exhaustive_run(&tiny[k]);
        assert_int_equal(tiny[k].stats.inputs, 3); /* a zero and the two smallest subnormals of one sign */
        assert_true(tiny[k].done[2048 * k] && !tiny[k].done[2048 * (1 - k)]);
        assert_int_equal(tiny[k].stats.misrounded, 0);
    }
}

/* The command line: SIGINT leaves a valid partial result and no temporary file; merge refuses a
 * gap with exit status 2. */
static void cli_interrupt_and_merge(void **state) {
    (void)state;
    char dir[] = "/tmp/ulpb_exh_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char json[600], cmd[1400];
    snprintf(json, sizeof json, "%s/part.json", dir);
    const pid_t child = fork();
    if (child == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execl(ULPBENCH_BIN, ULPBENCH_BIN, "accuracy", "--op", "asin", "--dtype", "f32", "--impl", "glibc",
              "--exhaustive", "--reference", "mpfr", "--quiet", "--json", json, (char *)NULL);
        _exit(127);
    }
    sleep(2);
    kill(child, SIGINT);
    int status;
    waitpid(child, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 3);
    FILE *f = fopen(json, "r");
    assert_non_null(f);
    char *text = calloc(1, 1 << 22);
    fread(text, 1, (1 << 22) - 1, f);
    fclose(f);
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(doc, "complete")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(doc, "interrupted")));
    static ulpb_exhaustive_state partial;
    char err[256];
    assert_int_equal(ulpb_exhaustive_from_json(doc, &partial, err, sizeof err), 0);
    cJSON_Delete(doc);
    free(text);
    int entries = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d));) entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1); /* the result, no temporary file */

    snprintf(cmd, sizeof cmd, "%s merge -o %s/merged.json %s 2>%s/err.txt", ULPBENCH_BIN, dir, json, dir);
    status = system(cmd);
    assert_int_equal(WEXITSTATUS(status), 2);
    snprintf(cmd, sizeof cmd, "grep -q 'gap' %s/err.txt && test ! -e %s/merged.json", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fast_reference_agrees_with_mpfr),
        cmocka_unit_test(fast_binary64_reference_agrees_with_mpfr),
        cmocka_unit_test(fast_reference_run_matches_mpfr_run),
        cmocka_unit_test(interrupted_run_resumes_to_identical_result),
        cmocka_unit_test(merge_accepts_only_fitting_shards),
        cmocka_unit_test(ranged_run_checks_only_the_range),
        cmocka_unit_test(cli_interrupt_and_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
