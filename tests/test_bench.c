#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* The benchmark runner's bookkeeping, never its timings: what a round counts, how many rounds
 * and blocks each size gets, the inputs, the grouping and the same-round ratios. */
#include <cjson/cJSON.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench.h"
#include "omk.h"
#include "quantile.h"
#include "result_io.h"
#include "targets.h"

static void sizes_blocks_and_rounds(void **state) {
    (void)state;
    assert_int_equal(ulpb_bench_blocks(4096, 4), 32); /* 4 Ki cycles through 32 distinct blocks */
    assert_int_equal(ulpb_bench_blocks(4096, 2), 32);
    assert_int_equal(ulpb_bench_blocks(4096, 8), 16); /* 512 KiB of binary64 input, not 1 MiB */
    assert_int_equal(ulpb_bench_blocks(1, 8), 65536); /* a pass as long as at 4 Ki, in 512 KiB */
    assert_int_equal(ulpb_bench_blocks(256, 4), 512);
    assert_int_equal(ulpb_bench_blocks(65536, 2), 2);
    assert_int_equal(ulpb_bench_blocks(65536, 8), 1);
    assert_int_equal(ulpb_bench_blocks(16777216, 4), 1);
    assert_int_equal(ulpb_bench_elements_per_round(4096, 4), 32 * 4096);
    assert_int_equal(ulpb_bench_elements_per_round(5000, 2), 26 * 5000);
    assert_int_equal(ulpb_bench_elements_per_round(5000, 8), 13 * 5000);
    assert_int_equal(ulpb_bench_elements_per_round(16777216, 8), 16777216);
    assert_int_equal(ulpb_bench_rounds(4096, 41), 41);
    assert_int_equal(ulpb_bench_rounds(16777216, 41), 11); /* odd: a middle round */
    assert_int_equal(ulpb_bench_rounds(16777216, 21), 5);
    assert_int_equal(ulpb_bench_rounds(16777216, 9), 5);
    assert_int_equal(ulpb_bench_rounds(16777216, 2), 2);
}

static double value_of(ulpb_dtype_id dtype, const void *p, size_t i) {
    switch (dtype) {
    case ULPB_DTYPE_f16:
        return omk_f16_to_f32(((const uint16_t *)p)[i]);
    case ULPB_DTYPE_bf16:
        return omk_bf16_to_f32(((const uint16_t *)p)[i]);
    case ULPB_DTYPE_f32:
        return ((const float *)p)[i];
    default:
        return ((const double *)p)[i];
    }
}

/* Inputs stay in their set's range (after rounding to the dtype), spread over it, and depend on
 * the seed and index only. */
static void inputs_are_reproducible_and_in_range(void **state) {
    (void)state;
    enum { N = 4096 };
    static double a[N], b[N], c[N];
    for (size_t k = 0; k < ulpb_input_set_count; k++) {
        const ulpb_input_set *set = &ulpb_input_sets[k];
        for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
            ulpb_bench_inputs(set, (ulpb_dtype_id)d, 7, 0, a, N);
            ulpb_bench_inputs(set, (ulpb_dtype_id)d, 7, 100, b, N - 100);
            assert_memory_equal((char *)a + 100 * ulpb_dtypes[d].bytes, b, (N - 100) * ulpb_dtypes[d].bytes);
            ulpb_bench_inputs(set, (ulpb_dtype_id)d, 8, 0, c, N);
            assert_memory_not_equal(a, c, N * ulpb_dtypes[d].bytes);
            double lo = INFINITY, hi = -INFINITY;
            for (size_t i = 0; i < N; i++) {
                const double x = value_of((ulpb_dtype_id)d, a, i);
                if (!(x >= set->lo && x <= set->hi))
                    fail_msg("%s %s: input %zu = %g outside [%g, %g]", set->name, ulpb_dtypes[d].name, i, x, set->lo,
                             set->hi);
                lo = fmin(lo, x), hi = fmax(hi, x);
            }
            assert_true(lo < set->lo + 0.05 * (set->hi - set->lo) && hi > set->hi - 0.05 * (set->hi - set->lo));
        }
    }
    /* bounds between two values of the dtype: the inputs that round past them take the nearest value inside */
    const ulpb_input_set narrow[] = {{"range", ULPB_OP_cos, 1.0, 1.0035, "[1, 1.0035]", NULL, 0},
                                     {"range", ULPB_OP_cos, -1e-45, 3e-45, "[-1e-45, 3e-45]", NULL, 0}};
    const ulpb_dtype_id narrow_dtype[] = {ULPB_DTYPE_f16, ULPB_DTYPE_f32};
    for (int k = 0; k < 2; k++) {
        ulpb_bench_inputs(&narrow[k], narrow_dtype[k], 7, 0, a, N);
        size_t below = 0, above = 0;
        for (size_t i = 0; i < N; i++) {
            const double x = value_of(narrow_dtype[k], a, i);
            below += x<narrow[k].lo, above += x> narrow[k].hi;
        }
        if (below || above) fail_msg("%s: %zu inputs below and %zu above the range", narrow[k].label, below, above);
    }
    /* a range whose span overflows binary64 still gives finite inputs spread over it, not +inf */
    const ulpb_input_set wide = {
        "range", ULPB_OP_cos, -0x1.fffffffffffffp1023, 0x1.fffffffffffffp1023, "[-max, max]", NULL, 0};
    ulpb_bench_inputs(&wide, ULPB_DTYPE_f64, 7, 0, a, N);
    size_t negative = 0, above_half = 0;
    for (size_t i = 0; i < N; i++) {
        if (!isfinite(a[i])) fail_msg("input %zu = %g", i, a[i]);
        negative += a[i] < 0;
        above_half += fabs(a[i]) > 0x1p1023;
    }
    assert_true(negative > N / 3 && negative < 2 * N / 3 && above_half > N / 8);
    /* a user's elements (bench --inputs): drawn from them alone, each of them, in about equal shares, reproducibly */
    const uint16_t values[5] = {0x3c00, 0xc000, 0x7e00, 0x0001, 0x3c00};
    const ulpb_input_set file = {"inputs", ULPB_OP_cos, -2.0, 1.0, "x.npy", values, 5};
    uint16_t drawn[N], again[N];
    ulpb_bench_inputs(&file, ULPB_DTYPE_f16, 7, 0, drawn, N);
    ulpb_bench_inputs(&file, ULPB_DTYPE_f16, 7, 0, again, N);
    assert_memory_equal(drawn, again, sizeof drawn);
    size_t seen[4] = {0};
    for (size_t i = 0; i < N; i++) {
        int k = 0;
        while (k < 4 && drawn[i] != values[k]) k++;
        if (k == 4) fail_msg("input %zu = 0x%04x is none of the file's elements", i, drawn[i]);
        seen[k]++;
    }
    /* 0x3c00 twice in the file: drawn about twice as often */
    assert_true(seen[0] > N / 3 && seen[1] > N / 8 && seen[2] > N / 8 && seen[3] > N / 8 && seen[0] < N / 2);
    ulpb_bench_inputs(&file, ULPB_DTYPE_f16, 8, 0, again, N); /* another seed, other draws */
    assert_memory_not_equal(drawn, again, sizeof drawn);
}

/* One result per (entry, size, input set); the loop counts exactly the elements of one pass per
 * round; members of a group share its rounds; same-round ratios are consistent. */
static void results_count_what_they_time(void **state) {
    (void)state;
    ulpb_bench_spec spec = {.op_mask = 1u << ULPB_OP_cos,
                            .dtype_mask = (1u << ULPB_DTYPE_f32) | (1u << ULPB_DTYPE_bf16),
                            .impls = {"omk", "memcpy", "glibc"},
                            .impl_count = 3,
                            .sizes = {1, 7, 4096, 5000, 200000},
                            .size_count = 5,
                            .rounds = 3,
                            .seed = 1};
    ulpb_bench_result *results;
    char err[256];
    const int count = ulpb_bench_run(&spec, &results, err, sizeof err);
    if (count < 0) fail_msg("%s", err);
    size_t cos_sets = 0;
    for (size_t k = 0; k < ulpb_input_set_count; k++) cos_sets += ulpb_input_sets[k].op == ULPB_OP_cos;
    assert_int_equal(count, 2 /* dtypes */ * 3 /* impls */ * 5 /* sizes */ * cos_sets);
    for (int i = 0; i < count; i++) {
        const ulpb_bench_result *r = &results[i];
        assert_true(ulpb_bench_selects(&spec, r->entry));
        assert_int_equal(r->inputs->op, ULPB_OP_cos);
        const size_t bytes = ulpb_dtypes[r->entry->dtype].bytes;
        assert_int_equal(r->calls_per_round, ulpb_bench_blocks(r->size, bytes));
        assert_int_equal(r->elements_per_round, ulpb_bench_elements_per_round(r->size, bytes));
        assert_int_equal(r->rounds, 3);
        assert_true(r->ns_per_element > 0 && r->spread >= 0);
        assert_int_equal(r->group_count, 3);
        assert_true(i >= r->group_first && i < r->group_first + r->group_count);
        for (int m = 0; m < r->group_count; m++) {
            const ulpb_bench_result *o = &results[r->group_first + m];
            assert_true(o->size == r->size && o->inputs == r->inputs && o->entry->dtype == r->entry->dtype);
            /* with an odd number of rounds the median of reciprocals is the reciprocal of the median */
            const double there = r->ratio[m], back = o->ratio[i - r->group_first];
            assert_true(fabs(there * back - 1) < 1e-12);
            if (o == r) assert_true(there == 1.0);
        }
        assert_true(ulpb_bench_ratio_to(results, r, r->entry->impl) == 1.0);
        assert_true(isnan(ulpb_bench_ratio_to(results, r, "sleef-u10-avx2")));
    }
    const ulpb_bench_info info = {"ulpbench bench", "ulpbench"};
    cJSON *doc = ulpb_bench_json(&spec, &info, results, count);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "benchmarks")), count);
    cJSON_Delete(doc);
    free(results);
}

static void rejects_bad_specs(void **state) {
    (void)state;
    ulpb_bench_spec spec = {.op_mask = 1, .dtype_mask = 1, .sizes = {0}, .size_count = 1, .rounds = 1};
    ulpb_bench_result *results;
    char err[256];
    assert_int_equal(ulpb_bench_run(&spec, &results, err, sizeof err), -1);
    assert_non_null(strstr(err, "size 0"));
    spec.sizes[0] = 16;
    spec.impls[0] = "no-such-impl";
    spec.impl_count = 1;
    assert_int_equal(ulpb_bench_run(&spec, &results, err, sizeof err), -1);
    assert_non_null(strstr(err, "no registry entry"));
}

/* A bench document with one omk row (asin, the given dtype, 4096 elements, [-1, 1]) holding the given ratio_to_
 * fields ("\"ratio_to_x\": 1.2, ...") and a context whose omk_isa is isa. */
static cJSON *bench_doc(const char *dtype, const char *ratios, const char *isa) {
    static int runs; /* each document another run: its own date */
    char text[1024];
    snprintf(
        text, sizeof text,
        "{\"context\": {\"date\": \"d%d\", \"cpu\": \"c\", \"omk\": \"0\", \"omk_isa\": \"%s\", \"command\": \"x\","
        " \"compiler\": \"g\", \"library_build_type\": \"release\", \"omk_half16\": \"compute\", \"glibc\": \"2\","
        " \"sleef\": \"3\", \"ulpbench\": \"0\", \"source\": \"s\", \"isa_available\": [\"none\", \"scalar\", "
        "\"avx2\", \"avx512\"]},"
        " \"benchmarks\": [{\"name\": \"n\", \"run_name\": \"asin/%s/omk/4096/unit\", \"repetitions\": 41, %s}]}",
        ++runs, isa, dtype, ratios);
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    return doc;
}

/* The same with the group's memcpy row at the given speed (elements/ns). */
static cJSON *bench_doc_with_memcpy(const char *dtype, const char *ratios, double memcpy_speed) {
    cJSON *doc = bench_doc(dtype, ratios, "avx512");
    cJSON *row = cJSON_CreateObject();
    char name[64];
    snprintf(name, sizeof name, "asin/%s/memcpy/4096/unit", dtype);
    cJSON_AddStringToObject(row, "name", name);
    cJSON_AddStringToObject(row, "run_name", name);
    cJSON_AddNumberToObject(row, "elements_per_ns", memcpy_speed);
    cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "benchmarks"), row);
    return doc;
}

/* The targets' table for the runs docs[0..count): 0 and the Markdown in *table (free() it), or -1 and err. */
static int targets_of(cJSON **docs, int count, bool quiet_only, char **table, ulpb_targets_summary *summary, char *err,
                      size_t len) {
    static const char *const names[] = {"a.json", "b.json", "c.json"};
    const ulpb_targets_options options = {.show_unmeasured = true, .quiet_only = quiet_only};
    size_t size;
    FILE *out = open_memstream(table, &size);
    const int status = ulpb_targets_report(out, (const cJSON *const *)docs, names, count, &options, summary, err, len);
    fclose(out);
    return status;
}

/* One row of the table, whole: "| label | kernel | inputs | elements | needed | omk / peer | peer | met |". */
static void assert_row(const char *table, const char *row) {
    if (!strstr(table, row)) fail_msg("row '%s' not in\n%s", row, table);
}

static void targets_compare_same_round_ratios(void **state) {
    (void)state;
    char *table, err[256];
    ulpb_targets_summary summary;
    /* double asin: the milestone (SLEEF u10) met, the goal (libmvec) not; the other rows are not measured */
    cJSON *docs[3] = {bench_doc(
        "f64", "\"ratio_to_sleef-u10-avx512\": 1.02, \"ratio_to_libmvec-avx512\": 0.5, \"ratio_to_libmvec-avx2\": 0.6",
        "avx512")};
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| double milestone (sleef-u10-avx512) | asin f64 | [-1, 1] | 4 Ki | ≥ 1.00× | 1.02× | "
                      "sleef-u10-avx512 | yes |\n");
    assert_row(table, "| double goal (libmvec-avx512, libmvec-avx2) | asin f64 | [-1, 1] | 4 Ki | ≥ 1.00× | 0.50× | "
                      "libmvec-avx512 | no |\n");
    assert_row(table, "| float milestone (sleef-u10-avx512) | asin f32 | [-1, 1] | 4 Ki | ≥ 1.50× | – | – | "
                      "not measured (no omk result at this size and input set) |\n");
    assert_int_equal(summary.measured, 2);
    assert_int_equal(summary.met_everyone, 1);
    assert_int_equal(summary.rows, (int)(ulpb_target_count * ulpb_input_set_count)); /* every op, each input set */
    free(table);

    /* a second run below the milestone: the range, and met in one of two runs; a ratio just below the target is
     * printed rounded down, so it does not read as reaching it */
    docs[1] = bench_doc(
        "f64", "\"ratio_to_sleef-u10-avx512\": 0.999, \"ratio_to_libmvec-avx512\": 0.5, \"ratio_to_libmvec-avx2\": 0.7",
        "avx512");
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| ≥ 1.00× | 0.99–1.02× | sleef-u10-avx512 | no (1 of 2 runs) |\n");
    assert_row(table, "| ≥ 1.00× | 0.50× | libmvec-avx512 | no (0 of 2 runs) |\n");
    assert_int_equal(summary.met_everyone, 0);
    free(table);
    cJSON_Delete(docs[1]);

    /* a row timed in fewer rounds than a target needs, or with no count of them, is not measured */
    docs[1] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.5, \"ratio_to_libmvec-avx512\": 1.5", "avx512");
    cJSON *few = cJSON_GetArrayItem(cJSON_GetObjectItem(docs[1], "benchmarks"), 0);
    cJSON_ReplaceItemInObject(few, "repetitions", cJSON_CreateNumber(ULPB_TARGETS_MIN_ROUNDS - 1));
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| ≥ 1.00× | 1.02× | sleef-u10-avx512 | yes (1 of 1 run)"); /* the first run alone */
    free(table);
    assert_int_equal(targets_of(docs + 1, 1, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "in the same rounds (at least 5)"));
    free(table);
    cJSON_DeleteItemFromObject(few, "repetitions");
    assert_int_equal(targets_of(docs + 1, 1, false, &table, &summary, err, sizeof err), -1);
    free(table);
    cJSON_Delete(docs[1]);

    /* 0.8 - 2^-53 times 100 rounds to 80: printed as 0.80, it would read as reaching the 16 Mi target it misses */
    cJSON *memory_bound = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.02", "avx512");
    cJSON *row = cJSON_Parse("{\"name\": \"n\", \"run_name\": \"asin/f64/omk/16777216/unit\", \"repetitions\": 11, "
                             "\"ratio_to_memcpy\": 0.7999999999999999}");
    cJSON_AddItemToArray(cJSON_GetObjectItem(memory_bound, "benchmarks"), row);
    assert_int_equal(targets_of(&memory_bound, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| 16 Mi | ≥ 0.80× | 0.79× | memcpy | no |\n");
    free(table);
    cJSON_Delete(memory_bound);

    /* the same run twice (a copy) would count twice */
    docs[1] = cJSON_Duplicate(docs[0], true);
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "a.json and b.json hold the same run"));
    free(table);
    /* two runs of one command within the same second (the date's resolution) are two runs: their results differ */
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(docs[1], "benchmarks"), 0),
                              "ratio_to_sleef-u10-avx512", cJSON_CreateNumber(1.03));
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| sleef-u10-avx512 | yes (2 of 2 runs) |\n");
    free(table);
    cJSON_Delete(docs[1]);

    /* a run from another omk build is not compared */
    docs[1] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.1", "avx2");
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "different environments (omk_isa: 'avx512', 'avx2')"));
    free(table);
    cJSON_Delete(docs[1]);
    cJSON_Delete(docs[0]);

    /* "*": every peer the run's CPU runs (here no AVX2 one), the fastest deciding; memcpy (a baseline) and unknown
     * names are not peers, and a run without one of those peers (--impl) does not measure the row */
    static const char *const peers_ratios =
        "\"ratio_to_glibc\": 90, \"ratio_to_libmvec-avx512\": 1.3, \"ratio_to_sleef-u35-avx512\": 0.97, "
        "\"ratio_to_memcpy\": 0.1, \"ratio_to_some-future-lib\": 0.01";
    char ratios[512];
    snprintf(ratios, sizeof ratios, "%s, \"ratio_to_sleef-u10-avx512\": 3.5", peers_ratios);
    for (int all = 1; all >= 0; all--) {
        docs[0] = bench_doc("f16", all ? ratios : peers_ratios, "avx512");
        cJSON_DeleteItemFromObject(cJSON_GetObjectItem(docs[0], "context"), "isa_available");
        cJSON *isas = cJSON_AddArrayToObject(cJSON_GetObjectItem(docs[0], "context"), "isa_available");
        cJSON_AddItemToArray(isas, cJSON_CreateString("none"));
        cJSON_AddItemToArray(isas, cJSON_CreateString("avx512"));
        if (all) {
            assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
            assert_row(
                table,
                "| 16-bit (every peer) | asin f16 | [-1, 1] | 4 Ki | ≥ 1.00× | 0.97× | sleef-u35-avx512 | no |\n");
        } else { /* that row was the only one this run could measure */
            assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), -1);
            assert_non_null(strstr(err, "no target is measured"));
        }
        free(table);
        cJSON_Delete(docs[0]);
    }

    /* printed ratios are rounded down, exactly: 0.29 is not 0.28 */
    docs[0] = bench_doc(
        "f64", "\"ratio_to_sleef-u10-avx512\": 0.29, \"ratio_to_libmvec-avx512\": 1.15, \"ratio_to_libmvec-avx2\": 1.2",
        "avx512");
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| 0.29× | sleef-u10-avx512 | no |\n");
    assert_row(table, "| 1.15× | libmvec-avx512 | yes |\n");
    free(table);
    cJSON_Delete(docs[0]);

    /* a ratio far beyond any target (an edited file) keeps its cell short, and its unit */
    docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1e300, \"ratio_to_libmvec-avx512\": 0.5", "avx512");
    docs[1] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 0.5, \"ratio_to_libmvec-avx512\": 0.5", "avx512");
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| 0.50–1.00e+300× | sleef-u10-avx512 | no (1 of 2 runs) |\n");
    free(table);
    cJSON_Delete(docs[0]);
    cJSON_Delete(docs[1]);
    /* near the largest double (x 100 overflows) and with a fourth digit that would round up: still rounded down */
    docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.7e308, \"ratio_to_libmvec-avx512\": 0.5", "avx512");
    docs[1] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 12399, \"ratio_to_libmvec-avx512\": 0.5", "avx512");
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| 1.23e+04–1.69e+308× | sleef-u10-avx512 | yes (2 of 2 runs) |\n");
    free(table);
    cJSON_Delete(docs[0]);
    cJSON_Delete(docs[1]);

    /* the goals name each peer's builds for both vector ISAs: the slower ratio decides, whichever build it is ... */
    docs[0] = bench_doc("f64", "\"ratio_to_libmvec-avx512\": 1.3, \"ratio_to_libmvec-avx2\": 0.9", "avx512");
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| ≥ 1.00× | 0.90× | libmvec-avx2 | no |\n");
    free(table);
    cJSON_Delete(docs[0]);
    docs[0] = bench_doc("f32",
                        "\"ratio_to_libmvec-avx512\": 1.3, \"ratio_to_libmvec-avx2\": 1.2, "
                        "\"ratio_to_sleef-u35-avx512\": 1.1, \"ratio_to_sleef-u35-avx2\": 0.6",
                        "avx512");
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| float goal (libmvec-avx512, libmvec-avx2, sleef-u35-avx512, sleef-u35-avx2) | asin f32 | "
                      "[-1, 1] | 4 Ki | ≥ 1.00× | 0.60× | sleef-u35-avx2 | no |\n");
    free(table);
    cJSON_Delete(docs[0]);
    /* ... a run without one of them that its CPU runs (--impl) does not measure the row ... */
    docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.2, \"ratio_to_libmvec-avx512\": 1.3", "avx512");
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| double goal (libmvec-avx512, libmvec-avx2) | asin f64 | [-1, 1] | 4 Ki | ≥ 1.00× | – | – | "
                      "not measured (no libmvec-avx2 in omk's rounds) |\n");
    free(table);
    cJSON_Delete(docs[0]);
    /* ... and on a CPU without AVX-512 the AVX2 builds decide alone, while a target that names only AVX-512 peers
     * is not measured */
    docs[0] = bench_doc("f64", "\"ratio_to_libmvec-avx2\": 1.05, \"ratio_to_sleef-u10-avx2\": 2.5", "avx2");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(docs[0], "context"), "isa_available",
                              cJSON_Parse("[\"none\", \"scalar\", \"avx2\"]"));
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| double goal (libmvec-avx512, libmvec-avx2) | asin f64 | [-1, 1] | 4 Ki | ≥ 1.00× | 1.05× | "
                      "libmvec-avx2 | yes |\n");
    assert_row(table, "| double milestone (sleef-u10-avx512) | asin f64 | [-1, 1] | 4 Ki | ≥ 1.00× | – | – | "
                      "not measured (no peer this CPU runs) |\n");
    assert_int_equal(summary.measured, 1);
    free(table);
    cJSON_Delete(docs[0]);

    /* report.json keeps the bench document under "throughput" */
    docs[0] = cJSON_CreateObject();
    cJSON_AddItemToObject(
        docs[0], "throughput",
        bench_doc("f64", "\"ratio_to_libmvec-avx512\": 1.5, \"ratio_to_libmvec-avx2\": 1.6", "avx512"));
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| ≥ 1.00× | 1.50× | libmvec-avx512 | yes |\n");
    assert_row(table,
               "| asin f64 | [-1, 1] | 4 Ki | ≥ 1.00× | – | – | not measured (no sleef-u10-avx512 in omk's rounds) |");
    free(table);
    cJSON_Delete(docs[0]);
}

/* --quiet-only: a run whose memcpy row of the group ran slow (the machine was shared) is left out of that row */
static void targets_leave_out_loaded_runs(void **state) {
    (void)state;
    char *table, err[256];
    ulpb_targets_summary summary;
    cJSON *docs[3] = {bench_doc_with_memcpy("f64", "\"ratio_to_sleef-u10-avx512\": 1.05", 9.0),
                      bench_doc_with_memcpy("f64", "\"ratio_to_sleef-u10-avx512\": 0.8", 5.0),
                      bench_doc_with_memcpy("f64", "\"ratio_to_sleef-u10-avx512\": 1.01", 8.0)};
    assert_int_equal(targets_of(docs, 3, false, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| ≥ 1.00× | 0.80–1.05× | sleef-u10-avx512 | no (2 of 3 runs) |\n");
    /* each run lists how many of its memcpy rows ran slow */
    assert_non_null(strstr(table, "memcpy below 0.8 of the fastest run's in 1 of 1 groups\n3. "));
    free(table);
    assert_int_equal(targets_of(docs, 3, true, &table, &summary, err, sizeof err), 0);
    /* 5.0 < 0.8 * 9.0 is left out; 8.0 is not */
    assert_row(table, "| ≥ 1.00× | 1.01–1.05× | sleef-u10-avx512 | yes (2 of 2 runs; 1 loaded left out, with them 2 "
                      "of 3, lowest 0.80×) |\n");
    assert_int_equal(summary.met_everyone, 1);
    free(table);
    /* as many loaded runs as quiet ones: too few quiet runs for a "yes" */
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(docs[2], "benchmarks"), 1), "elements_per_ns",
                              cJSON_CreateNumber(6.0));
    assert_int_equal(targets_of(docs, 3, true, &table, &summary, err, sizeof err), 0);
    assert_row(table, "| ≥ 1.00× | 1.05× | sleef-u10-avx512 | no (1 of 1 run; 2 loaded left out, no fewer than the "
                      "runs kept, with them 2 of 3, lowest 0.80×) |\n");
    assert_int_equal(summary.met_everyone, 0);
    free(table);
    for (int i = 0; i < 3; i++) cJSON_Delete(docs[i]);
}

static void targets_reject_what_they_cannot_compare(void **state) {
    (void)state;
    char *table, err[256];
    ulpb_targets_summary summary;
    cJSON *docs[2] = {cJSON_Parse("{\"schema\": \"ulpbench.accuracy\", \"results\": []}")};
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "a.json: no benchmark results"));
    assert_int_equal(strlen(table), 0); /* nothing printed */
    free(table);
    cJSON_Delete(docs[0]);
    /* results without a context that says where and when they were measured */
    docs[0] = cJSON_Parse("{\"context\": {}, \"benchmarks\": [{\"run_name\": \"asin/f64/omk/4096/unit\", "
                          "\"ratio_to_sleef-u10-avx512\": 1.1}]}");
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "a.json: its context has no \"cpu\""));
    assert_int_equal(strlen(table), 0);
    free(table);
    cJSON_Delete(docs[0]);
    docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": \"fast\"", "avx512");
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(
        err, "a.json: the row 'asin/f64/omk/4096/unit': its ratio_to_sleef-u10-avx512 is not a positive number"));
    assert_int_equal(strlen(table), 0);
    free(table);
    cJSON_Delete(docs[0]);
    /* a row no target reads must still hold what a run writes */
    static const char *const bad_rows[][2] = {
        {"5", "a.json: benchmarks[1] is not a result (an object with a name and a run_name)"},
        {"{\"name\": \"n\"}", "a.json: benchmarks[1] is not a result"},
        {"{\"run_name\": \"cos/f32/glibc/4096/pi\"}", "a.json: benchmarks[1] is not a result"},
        {"{\"name\": \"n\", \"run_name\": \"cos/f32/glibc/4096/pi\", \"ratio_to_omk\": -1}",
         "a.json: the row 'cos/f32/glibc/4096/pi': its ratio_to_omk is not a positive number"},
        {"{\"name\": \"n\", \"run_name\": \"cos/f32/glibc/4096/pi\", \"elements_per_ns\": 0}",
         "its elements_per_ns is not a positive number"},
    };
    for (size_t k = 0; k < sizeof bad_rows / sizeof bad_rows[0]; k++) {
        docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.1", "avx512");
        cJSON_AddItemToArray(cJSON_GetObjectItem(docs[0], "benchmarks"), cJSON_Parse(bad_rows[k][0]));
        assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), -1);
        if (!strstr(err, bad_rows[k][1])) fail_msg("row %s: '%s'", bad_rows[k][0], err);
        assert_int_equal(strlen(table), 0);
        free(table);
        cJSON_Delete(docs[0]);
    }
    /* more rows than a run writes (the search for repeated rows is quadratic) */
    docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.1", "avx512");
    for (size_t k = 0; k < ulpb_entry_count * ULPB_BENCH_MAX_SIZES * 2; k++) {
        char row[96];
        snprintf(row, sizeof row, "{\"name\": \"n\", \"run_name\": \"r%zu\"}", k);
        cJSON_AddItemToArray(cJSON_GetObjectItem(docs[0], "benchmarks"), cJSON_Parse(row));
    }
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "a.json: more rows"));
    free(table);
    cJSON_Delete(cJSON_DetachItemFromArray(cJSON_GetObjectItem(docs[0], "benchmarks"), 1));
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), 0); /* one row fewer: read */
    free(table);
    cJSON_Delete(docs[0]);
    /* runs that timed only their own inputs, named as they are now and as they were before 2026-12-07 */
    static const char *const own_sets[][2] = {{"range:-1,1", "--range inputs"},
                                              {"range", "--range inputs"},
                                              {"inputs:0123456789ab", "inputs drawn from a file (--inputs)"},
                                              {"inputs", "inputs drawn from a file (--inputs)"},
                                              {"rangefinder", "each needs omk and every peer it names"}};
    for (size_t k = 0; k < sizeof own_sets / sizeof own_sets[0]; k++) {
        docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.1", "avx512");
        char run_name[64];
        snprintf(run_name, sizeof run_name, "asin/f64/omk/4096/%s", own_sets[k][0]);
        cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(docs[0], "benchmarks"), 0), "run_name",
                                  cJSON_CreateString(run_name));
        const int status = targets_of(docs, 1, false, &table, &summary, err, sizeof err);
        if (status != -1 || !strstr(err, own_sets[k][1])) fail_msg("%s: status %d, '%s'", run_name, status, err);
        free(table);
        cJSON_Delete(docs[0]);
    }
    /* runs whose CPU could run different peers (ULPB_DISABLE_ISA) are not compared */
    docs[0] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.1", "avx512");
    docs[1] = bench_doc("f64", "\"ratio_to_sleef-u10-avx512\": 1.1", "avx512");
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(cJSON_GetObjectItem(docs[1], "context"), "isa_available"), 2);
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "a.json and b.json were run in different environments (isa_available differs)"));
    free(table);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(docs[1], "context"), "isa_available");
    assert_int_equal(targets_of(docs, 2, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "b.json: its context has no \"isa_available\""));
    free(table);
    cJSON_Delete(docs[0]);
    cJSON_Delete(docs[1]);
    docs[0] = bench_doc("f64", "\"ratio_to_glibc\": 9", "avx512"); /* no target names glibc for double */
    assert_int_equal(targets_of(docs, 1, false, &table, &summary, err, sizeof err), -1);
    assert_non_null(strstr(err, "no target is measured in a.json: each needs omk and every peer it names, in the same "
                                "rounds (at least 5), at 4096 or 16777216 elements"));
    assert_int_equal(strlen(table), 0);
    free(table);
    cJSON_Delete(docs[0]);
}

/* Every peer a target names is in the registry for the target's dtype and every op. */
static void targets_name_registry_entries(void **state) {
    (void)state;
    for (size_t t = 0; t < ulpb_target_count; t++) {
        const ulpb_target *target = &ulpb_targets[t];
        assert_true(target->factor > 0);
        bool default_size = false; /* else a plain ulpbench bench never measures it */
        for (int k = 0; k < ulpb_bench_default_size_count; k++)
            default_size |= ulpb_bench_default_sizes[k] == target->size;
        if (!default_size)
            fail_msg("target '%s' is at %zu elements, not a default bench size", target->label, target->size);
        if (strcmp(target->peers, "*") == 0) continue;
        char peers[256];
        snprintf(peers, sizeof peers, "%s", target->peers);
        for (char *save, *peer = strtok_r(peers, ",", &save); peer; peer = strtok_r(NULL, ",", &save))
            for (int op = 0; op < ULPB_OP_COUNT; op++)
                if (!ulpb_entry_find(peer, (ulpb_op_id)op, target->dtype))
                    fail_msg("target '%s' names %s, which has no %s %s entry", target->label, peer, ulpb_ops[op].name,
                             ulpb_dtypes[target->dtype].name);
    }
}

/* Two scripted members, 'slow' and 'steady', in a registry of their own: each pass's wall time is set by the member
 * that ran in it (the clock's reading at a pass's end adds the time the script gives that member's k-th pass; empty
 * passes, which time the CPU clock's cost, take none), and the members record the order in which their passes ran.
 * Their kernels do no work, so CPU times are far below these wall times. */
enum { SCRIPTED_ROUNDS = 9 };
static double scripted_now;
static int scripted_current, scripted_calls, scripted_passes[2], scripted_order[2 * (SCRIPTED_ROUNDS + 1)],
    scripted_order_count;
static bool scripted_in_pass;
static double scripted_pass_ns(int member, int k) { return member == 0 ? 1e6 * (1 + k % 5) : 2.5e6; }
static double scripted_clock(void) {
    if (!scripted_in_pass) {
        scripted_in_pass = true, scripted_calls = 0;
        return scripted_now;
    }
    scripted_in_pass = false;
    if (scripted_calls) scripted_now += scripted_pass_ns(scripted_current, scripted_passes[scripted_current]++);
    return scripted_now;
}
static void scripted_member(int member) {
    if (scripted_calls++ == 0 && scripted_order_count < 2 * (SCRIPTED_ROUNDS + 1))
        scripted_order[scripted_order_count++] = member;
    scripted_current = member;
}
static void scripted_slow(const void *x, void *y, size_t n) { (void)x, (void)y, (void)n, scripted_member(0); }
static void scripted_steady(const void *x, void *y, size_t n) { (void)x, (void)y, (void)n, scripted_member(1); }

/* A run of the scripted members at size (the registry holding them alone: scripted_registry): its results (count 2),
 * with the clock restored. */
static const ulpb_entry scripted[] = {
    {"idle", ULPB_OP_cos, ULPB_DTYPE_f64, scripted_slow, ULPB_ROLE_PEER, ULPB_ISA_NONE, "never timed", false, -1.0},
    {"slow", ULPB_OP_cos, ULPB_DTYPE_f32, scripted_slow, ULPB_ROLE_PEER, ULPB_ISA_NONE, "scripted", false, -1.0},
    {"steady", ULPB_OP_cos, ULPB_DTYPE_f32, scripted_steady, ULPB_ROLE_PEER, ULPB_ISA_NONE, "scripted", false, -1.0}};
static const ulpb_input_set scripted_inputs = {"pi", ULPB_OP_cos, -3.14, 3.14, "[-3.14, 3.14]", NULL, 0};
static ulpb_bench_result *run_scripted(size_t size, int rounds, ulpb_bench_spec *spec) {
    *spec = (ulpb_bench_spec){.op_mask = 1u << ULPB_OP_cos,
                              .dtype_mask = 1u << ULPB_DTYPE_f32,
                              .impls = {"slow", "steady"},
                              .impl_count = 2,
                              .sizes = {size},
                              .size_count = 1,
                              .rounds = rounds,
                              .seed = 3,
                              .input_sets = &scripted_inputs,
                              .input_set_count = 1};
    scripted_now = 0, scripted_in_pass = false, scripted_order_count = 0;
    scripted_passes[0] = scripted_passes[1] = 0;
    ulpb_bench_set_wall_clock(scripted_clock);
    ulpb_bench_result *results;
    char err[256];
    const int count = ulpb_bench_run(spec, &results, err, sizeof err);
    ulpb_bench_set_wall_clock(NULL);
    if (count != 2) fail_msg("%d results: %s", count, count < 0 ? err : "");
    return results;
}

/* Each member's median, spread and same-round ratio follow from its own rounds' times; the order of the members is
 * drawn again every round; the JSON and Markdown report what ran. */
static const ulpb_entry *saved_registry;
static size_t saved_registry_count;
static int restore_registry(void **state) {
    (void)state;
    ulpb_bench_set_wall_clock(NULL);
    ulpb_entries = saved_registry, ulpb_entry_count = saved_registry_count;
    return 0;
}

static void figures_follow_each_members_rounds(void **state) {
    (void)state;
    saved_registry = ulpb_entries, saved_registry_count = ulpb_entry_count;
    ulpb_entries = scripted, ulpb_entry_count = sizeof scripted / sizeof *scripted;
    ulpb_bench_spec spec;
    ulpb_bench_result *results = run_scripted(4096, SCRIPTED_ROUNDS, &spec);
    const ulpb_bench_result *slow = &results[0], *steady = &results[1];
    assert_string_equal(slow->entry->impl, "slow");
    double times[SCRIPTED_ROUNDS], ratios[SCRIPTED_ROUNDS];
    for (int r = 0; r < SCRIPTED_ROUNDS; r++) { /* pass 0 is the warm-up */
        times[r] = scripted_pass_ns(0, r + 1) / (double)slow->elements_per_round;
        ratios[r] = scripted_pass_ns(1, r + 1) / scripted_pass_ns(0, r + 1); /* slow's throughput over steady's */
    }
    const double median = ulpb_quantile(times, SCRIPTED_ROUNDS, 0.5);
    const double spread =
        (ulpb_quantile(times, SCRIPTED_ROUNDS, 0.9) - ulpb_quantile(times, SCRIPTED_ROUNDS, 0.1)) / median;
    assert_true(slow->ns_per_element == median && slow->spread == spread && spread > 0 && steady->spread == 0);
    assert_true(ulpb_bench_ratio_to(results, slow, "steady") == ulpb_quantile(ratios, SCRIPTED_ROUNDS, 0.5));
    /* CPU time from the thread's clock: the members do nothing, so far below their scripted wall times */
    assert_true(slow->cpu_ns_per_element < slow->ns_per_element / 2 && steady->cpu_ns_per_element < 0.5e6 / 4096);
    /* both orders occur among the rounds (the warm-up passes come first, in registry order) */
    assert_int_equal(scripted_order_count, 2 * (SCRIPTED_ROUNDS + 1));
    int slow_first = 0;
    for (int r = 1; r <= SCRIPTED_ROUNDS; r++) slow_first += scripted_order[2 * r] == 0;
    if (slow_first == 0 || slow_first == SCRIPTED_ROUNDS)
        fail_msg("'slow' ran first in %d of %d rounds", slow_first, SCRIPTED_ROUNDS);
    /* the JSON: one family per member timed, numbered from 0 (an entry without rows takes no number); repetitions are
     * the rounds run */
    const ulpb_bench_info info = {"ulpbench bench", "ulpbench"};
    cJSON *doc = ulpb_bench_json(&spec, &info, results, 2);
    const cJSON *rows = cJSON_GetObjectItem(doc, "benchmarks");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    for (int i = 0; i < 2; i++) {
        const cJSON *row = cJSON_GetArrayItem(rows, i);
        assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(row, "family_index")), i);
        assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(row, "repetitions")), SCRIPTED_ROUNDS);
    }
    cJSON_Delete(doc);
    free(results);
    /* at a memory-bound size fewer rounds run, and the JSON says how many */
    results = run_scripted(ULPB_BENCH_LARGE_SIZE, SCRIPTED_ROUNDS, &spec);
    assert_int_equal(results[0].rounds, ulpb_bench_rounds(ULPB_BENCH_LARGE_SIZE, SCRIPTED_ROUNDS));
    assert_true(results[0].rounds < SCRIPTED_ROUNDS);
    doc = ulpb_bench_json(&spec, &info, results, 2);
    assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(
                         cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "benchmarks"), 0), "repetitions")),
                     results[0].rounds);
    cJSON_Delete(doc);
    free(results);
    /* three rounds are enough for a spread, which the Markdown prints */
    results = run_scripted(4096, 3, &spec);
    char *md = NULL;
    size_t md_len = 0;
    FILE *f = open_memstream(&md, &md_len);
    ulpb_bench_markdown(f, &spec, results, 2);
    fclose(f);
    const char *row = strstr(md, "| slow |"), *row_end = row ? strchr(row, '\n') : NULL,
               *spread_at = row ? strstr(row, " ±") : NULL;
    if (!row_end || !spread_at || spread_at < row || spread_at > row_end)
        fail_msg("no spread in slow's row of the Markdown of 3 rounds:\n%s", md);
    free(md);
    free(results);
}

/* A wall clock that advances by exactly PASS_NS at every reading, so that every pass takes PASS_NS. */
enum { PASS_NS = 1000000 };
static double clock_readings;
static double stepping_clock(void) { return PASS_NS * clock_readings++; }

/* A wall clock that advances by 1 ns at every reading: every pass takes less wall time than the CPU time it uses. */
static double creeping_clock(void) { return clock_readings++; }

/* A thread's CPU time cannot exceed the wall time of its pass: where the clocks say otherwise (here a scripted wall
 * clock far slower than the CPU's), the CPU time is the wall time. */
static void cpu_time_is_capped_by_the_wall_time(void **state) {
    (void)state;
    ulpb_bench_spec spec = {.op_mask = 1u << ULPB_OP_asin,
                            .dtype_mask = 1u << ULPB_DTYPE_f64,
                            .impls = {"omk", "memcpy"},
                            .impl_count = 2,
                            .sizes = {4096},
                            .size_count = 1,
                            .rounds = 3,
                            .seed = 1};
    ulpb_bench_result *results;
    char err[256];
    clock_readings = 0;
    ulpb_bench_set_wall_clock(creeping_clock);
    const int count = ulpb_bench_run(&spec, &results, err, sizeof err);
    ulpb_bench_set_wall_clock(NULL);
    if (count < 0) fail_msg("%s", err);
    assert_int_equal(count, 2);
    for (int i = 0; i < count; i++)
        if (results[i].cpu_ns_per_element != results[i].ns_per_element)
            fail_msg("%s: CPU %.17g ns per element, wall %.17g", results[i].entry->impl, results[i].cpu_ns_per_element,
                     results[i].ns_per_element);
    free(results);
}

/* The figures divide each pass's time by the elements it processed: with every pass taking PASS_NS, each result's ns
 * per element is PASS_NS over its elements per round, and the JSON's per-call time and rate follow from it. */
static void figures_divide_by_the_elements_timed(void **state) {
    (void)state;
    ulpb_bench_spec spec = {.op_mask = 1u << ULPB_OP_asin,
                            .dtype_mask = (1u << ULPB_DTYPE_f64) | (1u << ULPB_DTYPE_f16),
                            .impls = {"omk", "memcpy"},
                            .impl_count = 2,
                            .sizes = {7, 4096, 5000},
                            .size_count = 3,
                            .rounds = 3,
                            .seed = 1};
    ulpb_bench_result *results;
    char err[256];
    clock_readings = 0;
    ulpb_bench_set_wall_clock(stepping_clock);
    const int count = ulpb_bench_run(&spec, &results, err, sizeof err);
    ulpb_bench_set_wall_clock(NULL);
    if (count < 0) fail_msg("%s", err);
    assert_int_equal(count, 2 * 2 * 3);
    for (int i = 0; i < count; i++) {
        const ulpb_bench_result *r = &results[i];
        const double expected = (double)PASS_NS / (double)r->elements_per_round;
        assert_true(fabs(r->ns_per_element / expected - 1) < 1e-12);
        assert_true(r->spread == 0);
        for (int m = 0; m < r->group_count; m++) assert_true(r->ratio[m] == 1.0);
    }
    const ulpb_bench_info info = {"ulpbench bench", "ulpbench"};
    cJSON *doc = ulpb_bench_json(&spec, &info, results, count);
    /* the printed numbers read back as the values computed (cJSON's own printing keeps 15 digits) */
    char *text = cJSON_PrintUnformatted(doc);
    cJSON *printed = cJSON_Parse(text);
    free(text);
    assert_non_null(printed);
    const cJSON *row, *printed_row = cJSON_GetArrayItem(cJSON_GetObjectItem(printed, "benchmarks"), 0);
    int rows = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(doc, "benchmarks")) {
        static const char *const fields[] = {
            "iterations",         "size",           "real_time",       "cpu_time", "items_per_second",
            "elements_per_round", "ns_per_element", "elements_per_ns", "spread"};
        double value[sizeof fields / sizeof *fields];
        for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
            double read_back;
            assert_true(ulpb_json_number(cJSON_GetObjectItem(row, fields[f]), &value[f]));
            assert_true(ulpb_json_number(cJSON_GetObjectItem(printed_row, fields[f]), &read_back));
            if (read_back != value[f]) fail_msg("%s printed as %.17g, computed %.17g", fields[f], read_back, value[f]);
        }
        const double calls = value[0], size = value[1], per_call = value[2], rate = value[4];
        assert_true(fabs(per_call / (PASS_NS / calls) - 1) < 1e-12);
        assert_true(fabs(rate / (1e9 * calls * size / PASS_NS) - 1) < 1e-12);
        printed_row = printed_row->next;
        rows++;
    }
    assert_int_equal(rows, count);
    cJSON_Delete(printed);
    cJSON_Delete(doc);
    free(results);
}

/* A stand-in kernel that records what each call was given. */
enum { RECORDED_CALLS = 16 };
static const void *recorded_in[RECORDED_CALLS];
static void *recorded_out[RECORDED_CALLS];
static size_t recorded_n[RECORDED_CALLS], recorded_calls;
static void recording_kernel(const void *x, void *y, size_t n) {
    if (recorded_calls < RECORDED_CALLS) {
        recorded_in[recorded_calls] = x;
        recorded_out[recorded_calls] = y;
        recorded_n[recorded_calls] = n;
    }
    recorded_calls++;
}

/* A pass calls the kernel once per input block, on each block in turn: replaying one block would let the branch
 * predictor learn its inputs and flatter the scalar peers. */
static void passes_cycle_through_distinct_blocks(void **state) {
    (void)state;
    enum { SIZE = 7, BLOCKS = 5, BYTES = 8 };
    unsigned char in[BLOCKS * SIZE * BYTES] = {0}, out[SIZE * BYTES];
    recorded_calls = 0;
    const ulpb_bench_sample s = ulpb_bench_time_pass(recording_kernel, BYTES, in, out, SIZE, BLOCKS);
    assert_int_equal(recorded_calls, BLOCKS);
    assert_int_equal(s.calls, BLOCKS);
    assert_int_equal(s.elements, BLOCKS * SIZE);
    for (size_t b = 0; b < BLOCKS; b++) {
        assert_ptr_equal(recorded_in[b], in + b * SIZE * BYTES);
        assert_ptr_equal(recorded_out[b], out);
        assert_int_equal(recorded_n[b], SIZE);
    }
}

/* Every round's order is a permutation of the group, the same for the same stream and round. Over each whole cycle of
 * rounds every member takes every position, and directly follows every other member, cycle / count times (a Williams
 * design: for odd counts only with its mirrored rows); the cycles' row orders differ, and the members' labels are
 * shuffled. */
static void round_orders_are_balanced(void **state) {
    (void)state;
    enum { CYCLES = 3, STREAMS = 2 };
    for (int count = 1; count <= ULPB_BENCH_MAX_GROUP; count++) {
        const int cycle = ulpb_bench_order_cycle(count);
        assert_int_equal(cycle, count % 2 ? 2 * count : count);
        for (int s = 0; s < STREAMS; s++) {
            const uint64_t stream = 0x5eed + 977 * (uint64_t)s;
            int cycle_rows[CYCLES][2 * ULPB_BENCH_MAX_GROUP][ULPB_BENCH_MAX_GROUP] = {{{0}}};
            for (int c = 0; c < CYCLES; c++) {
                int at[ULPB_BENCH_MAX_GROUP][ULPB_BENCH_MAX_GROUP] = {{0}},
                    after[ULPB_BENCH_MAX_GROUP][ULPB_BENCH_MAX_GROUP] = {{0}};
                for (int r = 0; r < cycle; r++) {
                    int *order = cycle_rows[c][r], again[ULPB_BENCH_MAX_GROUP], seen[ULPB_BENCH_MAX_GROUP] = {0};
                    ulpb_bench_round_order(stream, c * cycle + r, count, order);
                    ulpb_bench_round_order(stream, c * cycle + r, count, again);
                    assert_memory_equal(order, again, sizeof *order * (size_t)count);
                    for (int p = 0; p < count; p++) {
                        assert_true(order[p] >= 0 && order[p] < count);
                        seen[order[p]]++;
                        at[order[p]][p]++;
                        if (p > 0) after[order[p]][order[p - 1]]++;
                    }
                    for (int m = 0; m < count; m++) assert_int_equal(seen[m], 1);
                }
                for (int m = 0; m < count; m++)
                    for (int k = 0; k < count; k++) {
                        assert_int_equal(at[m][k], cycle / count);
                        assert_int_equal(after[m][k], m == k ? 0 : cycle / count);
                    }
            }
            /* from 4 members on, the cycles run their rows in different orders */
            if (count >= 4)
                assert_true(memcmp(cycle_rows[0], cycle_rows[1], sizeof cycle_rows[0]) != 0 ||
                            memcmp(cycle_rows[1], cycle_rows[2], sizeof cycle_rows[0]) != 0);
        }
        /* the members are relabelled: in the design itself the first two of every row are neighbours mod count */
        bool relabelled = count < 4;
        for (uint64_t stream = 1; stream <= 8 && !relabelled; stream++)
            for (int r = 0; r < cycle && !relabelled; r++) {
                int order[ULPB_BENCH_MAX_GROUP];
                ulpb_bench_round_order(stream, r, count, order);
                const int step = (order[1] - order[0] + count) % count;
                relabelled = step != 1 && step != count - 1;
            }
        assert_true(relabelled);
    }
}

/* The ratios read as throughput: a member twice as slow in the median round has half the other's throughput, whatever
 * each one's own median (per-round ratios, their median), and ulpb_bench_ratio_to reads the member it names. */
static void ratios_read_as_throughput(void **state) {
    (void)state;
    /* ns per element: member 0 in rounds 0..2, then member 1 */
    const double wall[6] = {2.0, 4.0, 2.0, 1.0, 1.0, 4.0};
    double scratch[3];
    assert_true(ulpb_bench_round_ratio(wall, 3, 0, 1, scratch) == 0.5); /* median of 1/2, 1/4, 2 */
    assert_true(ulpb_bench_round_ratio(wall, 3, 1, 0, scratch) == 2.0);
    assert_true(ulpb_bench_round_ratio(wall, 3, 1, 1, scratch) == 1.0);
    /* an even number of rounds: halfway between the two middle ratios (1/4, 1/3, 1/2, 1) */
    const double even_wall[8] = {1.0, 2.0, 3.0, 4.0, 1.0, 1.0, 1.0, 1.0};
    double even_scratch[4];
    assert_true(fabs(ulpb_bench_round_ratio(even_wall, 4, 0, 1, even_scratch) - 5.0 / 12.0) < 1e-15);
    const ulpb_entry *omk = ulpb_entry_find("omk", ULPB_OP_cos, ULPB_DTYPE_f32);
    const ulpb_entry *glibc = ulpb_entry_find("glibc", ULPB_OP_cos, ULPB_DTYPE_f32);
    assert_non_null(omk);
    assert_non_null(glibc);
    ulpb_bench_result results[2] = {{.entry = glibc, .group_first = 0, .group_count = 2, .ratio = {1.0, 0.5}},
                                    {.entry = omk, .group_first = 0, .group_count = 2, .ratio = {2.0, 1.0}}};
    assert_true(ulpb_bench_ratio_to(results, &results[1], "glibc") == 2.0);
    assert_true(ulpb_bench_ratio_to(results, &results[0], "omk") == 0.5);
    assert_true(isnan(ulpb_bench_ratio_to(results, &results[0], "memcpy")));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_blocks_and_rounds),
        cmocka_unit_test(inputs_are_reproducible_and_in_range),
        cmocka_unit_test(results_count_what_they_time),
        cmocka_unit_test(figures_divide_by_the_elements_timed),
        cmocka_unit_test(cpu_time_is_capped_by_the_wall_time),
        cmocka_unit_test_teardown(figures_follow_each_members_rounds, restore_registry),
        cmocka_unit_test(passes_cycle_through_distinct_blocks),
        cmocka_unit_test(round_orders_are_balanced),
        cmocka_unit_test(ratios_read_as_throughput),
        cmocka_unit_test(rejects_bad_specs),
        cmocka_unit_test(targets_compare_same_round_ratios),
        cmocka_unit_test(targets_leave_out_loaded_runs),
        cmocka_unit_test(targets_reject_what_they_cannot_compare),
        cmocka_unit_test(targets_name_registry_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
