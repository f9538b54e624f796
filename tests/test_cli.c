/* ulpbench as a user runs it: eval on .npy files (good and bad), accuracy JSON, the report gate,
 * bench's Google Benchmark JSON, registry entries the CPU cannot run, and what failed runs leave
 * behind (nothing) and print (one line). */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench.h"
#include "npy.h"
#include "omk.h"
#include "omk_dispatch.h"
#include "outfile.h"
#include "registry.h"
#include "sha256sum.h"

static char g_dir[] = "/tmp/ulpb_cli_XXXXXX";

static char *path(const char *name) {
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
    return buf[k];
}

/* Runs `PREFIX BIN ARGS` (prefix: "" or a command such as setpriv's, with its trailing space); returns its exit status;
 * stdout goes to out.txt, stderr to err.txt. */
static int run_program(const char *prefix, const char *bin, const char *args) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s'%s' %s >%s 2>%s", prefix, bin, args, path("out.txt"), path("err.txt"));
    const int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs ulpbench with the given arguments, as run_program. */
static int run(const char *args) { return run_program("", ULPBENCH_BIN, args); }

/* Runs ulpbench with its stdout appended to the file `name` of $D (`ulpbench merge a b >> a`); stderr to err.txt. */
static int run_appending_to(const char *args, const char *name) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s >>%s 2>%s", ULPBENCH_BIN, args, path(name), path("err.txt"));
    const int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *slurp(const char *p) {
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)n + 1, 1);
    s[fread(s, 1, (size_t)n, f)] = 0;
    fclose(f);
    return s;
}

/* The file `name` of $D holds needle. */
static void expect_text_in(const char *name, const char *needle) {
    char *text = slurp(path(name));
    if (!text || !strstr(text, needle)) fail_msg("%s does not hold '%s'", name, needle);
    free(text);
}

/* The file `name` of $D holds each of the NULL-ended `held` and none of the NULL-ended `absent` (which may be NULL). */
static void expect_texts_in(const char *name, const char *const *held, const char *const *absent) {
    char *text = slurp(path(name));
    for (; text && *held; held++)
        if (!strstr(text, *held)) fail_msg("%s does not hold '%s'", name, *held);
    for (; text && absent && *absent; absent++)
        if (strstr(text, *absent)) fail_msg("%s holds '%s'", name, *absent);
    if (!text) fail_msg("%s cannot be read", name);
    free(text);
}

static int exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

/* True when stderr holds exactly one line containing needle. */
static int one_line_with(const char *err, const char *needle) {
    return err && strstr(err, needle) && strchr(err, '\n') == err + strlen(err) - 1;
}

/* Runs `ulpbench ARGS` and fails unless it exits 2 with one line on stderr naming needle. */
static void expect_usage_error(const char *args, const char *needle) {
    const int status = run(args);
    char *err = slurp(path("err.txt"));
    if (status != 2 || !one_line_with(err, needle))
        fail_msg("'ulpbench %s': status %d, stderr '%s' (wanted exit 2 and one line with '%s')", args, status, err,
                 needle);
    free(err);
}

/* expect_usage_error, and nothing written to stdout. */
static void expect_refused_silently(const char *args, const char *needle) {
    expect_usage_error(args, needle);
    char *out = slurp(path("out.txt"));
    if (out[0]) fail_msg("'ulpbench %s' wrote to stdout: '%s'", args, out);
    free(out);
}

/* Fails when a temporary file (".NAME.tmp.HOST.PID.N", or the older "NAME.tmpXXXXXX") is left in the
 * test directory or one of its subdirectories. */
static void assert_no_temp_files_in(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", dir, ent->d_name);
        if (strstr(ent->d_name, ".tmp")) {
            closedir(d);
            fail_msg("temporary file left behind: %s", sub);
        }
        struct stat st;
        if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) assert_no_temp_files_in(sub);
    }
    closedir(d);
}
static void assert_no_temp_files(void) { assert_no_temp_files_in(g_dir); }

static void write_array(const char *name, npy_kind kind, int ndim, const size_t *shape, const void *data) {
    npy_array a = {0};
    a.kind = kind;
    a.elem_size = kind == NPY_F8 ? 8 : kind == NPY_F4 ? 4 : 2;
    a.ndim = ndim;
    a.count = 1;
    for (int i = 0; i < ndim; i++) a.count *= (a.shape[i] = shape[i]);
    a.data = (void *)data;
    char err[256];
    assert_int_equal(npy_write(path(name), &a, err, sizeof err), 0);
}

/* Registry entries of (op, dtype) the accuracy runner measures here: available, not baselines. */
static int accuracy_rows(int op, int dtype) {
    int rows = 0;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        rows += (op < 0 || e->op == (ulpb_op_id)op) && (dtype < 0 || e->dtype == (ulpb_dtype_id)dtype) &&
                e->role != ULPB_ROLE_BASELINE && ulpb_entry_available(e);
    }
    return rows;
}

/* Registry rows of (op, dtype) that need no ISA extension, baselines counted or not: what runs on a CPU without
 * AVX2. Read from the table, not through ulpb_entry_available, which the tests below exercise. */
static int rows_without_isa(ulpb_op_id op, ulpb_dtype_id dtype, bool baselines) {
    int rows = 0;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        rows +=
            e->op == op && e->dtype == dtype && e->isa == ULPB_ISA_NONE && (baselines || e->role != ULPB_ROLE_BASELINE);
    }
    return rows;
}

/* Benchmarks `bench` writes for (op, dtype) (-1: any) at `sizes` sizes: one per entry the CPU
 * runs, baselines included, and input set of its op. */
static int bench_rows(int op, int dtype, int sizes) {
    int rows = 0;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if ((op >= 0 && e->op != (ulpb_op_id)op) || (dtype >= 0 && e->dtype != (ulpb_dtype_id)dtype) ||
            !ulpb_entry_available(e))
            continue;
        for (size_t k = 0; k < ulpb_input_set_count; k++) rows += (ulpb_input_sets[k].op == e->op) * sizes;
    }
    return rows;
}

/* A JSON file ulpbench wrote into the test directory, parsed (the test fails if it is not JSON). */
static cJSON *load_json(const char *name) {
    char *text = slurp(path(name));
    cJSON *doc = cJSON_Parse(text);
    if (!doc) fail_msg("%s is not JSON: %.200s", name, text);
    free(text);
    return doc;
}

/* Writes doc (an edited result) to a file of the test directory, and frees it. */
static void save_json(cJSON *doc, const char *name) {
    char *text = cJSON_Print(doc);
    FILE *f = fopen(path(name), "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    cJSON_free(text), cJSON_Delete(doc);
}

/* Whether the ulpbench that wrote result NAME knew its commit (gate --this-build needs it): not when built outside a
 * git checkout ("unknown") or with changes it could not read ("-dirty" alone). */
static bool source_known(const char *name) {
    cJSON *doc = load_json(name);
    const char *source = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "environment"), "source"));
    assert_non_null(source);
    const size_t len = strlen(source);
    const bool known = strcmp(source, "unknown") != 0 && !(len >= 6 && strcmp(source + len - 6, "-dirty") == 0);
    cJSON_Delete(doc);
    return known;
}

/* merge refuses the shards with s2bad.json in place of shard 2, with one line on stderr naming needle. */
static void expect_merge_refused(const char *needle, const char *what) {
    assert_int_equal(run("merge $D/s0.json $D/s1.json $D/s2bad.json"), 2);
    char *err = slurp(path("err.txt"));
    if (!one_line_with(err, needle)) fail_msg("%s: stderr '%s' (wanted one line with '%s')", what, err, needle);
    free(err);
}

static void eval_matches_library(void **state) {
    (void)state;
    const float x[6] = {-1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f};
    const size_t shape[2] = {2, 3};
    write_array("x32.npy", NPY_F4, 2, shape, x);
    assert_int_equal(run("eval --op cos "
                         "$D/x32.npy $D/y32.npy"),
                     0);
    npy_array y;
    char err[256];
    assert_int_equal(npy_read(path("y32.npy"), &y, err, sizeof err), 0);
    assert_int_equal(y.kind, NPY_F4);
    assert_int_equal(y.ndim, 2);
    assert_int_equal(y.shape[0], 2);
    assert_int_equal(y.shape[1], 3);
    float want[6];
    omk_cos_f32(x, want, 6);
    assert_memory_equal(y.data, want, sizeof want);
    npy_free(&y);

    /* bfloat16 as raw <u2, with --dtype bf16; 0-d and empty arrays */
    const uint16_t b[3] = {0x3f80, 0xbf00, 0x0001};
    const size_t three = 3, zero = 0;
    write_array("b.npy", NPY_U2, 1, &three, b);
    assert_int_equal(run("eval --op asin --dtype bf16 $D/b.npy $D/bo.npy"), 0);
    assert_int_equal(npy_read(path("bo.npy"), &y, err, sizeof err), 0);
    uint16_t bwant[3];
    omk_asin_bf16(b, bwant, 3);
    assert_memory_equal(y.data, bwant, sizeof bwant);
    npy_free(&y);
    /* or as torch's int16 view, written back as <i2 */
    write_array("bi.npy", NPY_I2, 1, &three, b);
    assert_int_equal(run("eval --op asin --dtype bf16 $D/bi.npy $D/bio.npy"), 0);
    assert_int_equal(npy_read(path("bio.npy"), &y, err, sizeof err), 0);
    assert_int_equal(y.kind, NPY_I2);
    assert_memory_equal(y.data, bwant, sizeof bwant);
    npy_free(&y);
    const double d = 2.0;
    write_array("d0.npy", NPY_F8, 0, NULL, &d);
    assert_int_equal(run("eval --op cos --impl glibc $D/d0.npy $D/d0o.npy"), 0);
    assert_int_equal(npy_read(path("d0o.npy"), &y, err, sizeof err), 0);
    assert_int_equal(y.ndim, 0);
    assert_int_equal(y.count, 1);
    npy_free(&y);
    write_array("h0.npy", NPY_F2, 1, &zero, NULL);
    assert_int_equal(run("eval --op asin $D/h0.npy $D/h0o.npy"), 0);
    assert_int_equal(npy_read(path("h0o.npy"), &y, err, sizeof err), 0);
    assert_int_equal(y.count, 0);
    npy_free(&y);
}

/* Each bad invocation: exit 2, a one-line message naming the problem, no output file and no
 * temporary file. */
static void eval_rejects_bad_input(void **state) {
    (void)state;
    const float x[2] = {0.5f, 2.0f};
    const size_t two = 2;
    write_array("ok.npy", NPY_F4, 1, &two, x);
    write_array("u2.npy", NPY_U2, 1, &two, x);
    FILE *f = fopen(path("garbage.npy"), "wb");
    fputs("this is not a numpy file", f);
    fclose(f);
    const struct {
        const char *args, *needle, *out;
    } cases[] = {
        {"eval $D/ok.npy $D/bad.npy", "missing --op", "bad.npy"},
        {"eval --op tan $D/ok.npy $D/bad.npy", "unknown op 'tan'", "bad.npy"},
        {"eval --op cos --impl nosuch $D/ok.npy $D/bad.npy", "unknown implementation 'nosuch'", "bad.npy"},
        {"eval --op cos $D/garbage.npy $D/bad.npy", "garbage.npy", "bad.npy"},
        {"eval --op cos $D/missing.npy $D/bad.npy", "missing.npy", "bad.npy"},
        {"eval --op cos $D/u2.npy $D/bad.npy", "--dtype bf16", "bad.npy"},
        {"eval --op cos --dtype f64 $D/ok.npy $D/bad.npy", "'<f4' does not hold f64", "bad.npy"},
        {"eval --op cos --dtype bf16 $D/ok.npy $D/bad.npy", "'<f4' does not hold bf16", "bad.npy"},
        {"eval --op cos --dtype f8 $D/ok.npy $D/bad.npy", "unknown dtype 'f8'", "bad.npy"},
        {"eval --op cos $D/ok.npy", "expected IN.npy and OUT.npy", "bad.npy"},
        {"eval --op cos $D/ok.npy $D/nodir/bad.npy", "nodir", "nodir/bad.npy"},
        /* memcpy is a throughput baseline: "evaluating" it would copy the input and exit 0 */
        {"eval --op cos --impl memcpy $D/ok.npy $D/bad.npy", "baseline", "bad.npy"},
        {"eval --op asin --impl memcpy $D/ok.npy $D/bad.npy", "baseline", "bad.npy"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_usage_error(cases[i].args, cases[i].needle);
        if (exists(path(cases[i].out))) fail_msg("'%s' left %s behind", cases[i].args, cases[i].out);
        assert_no_temp_files();
    }
    /* the input as the output, by the same name or another: refused, the input kept */
    struct stat st;
    assert_int_equal(stat(path("ok.npy"), &st), 0);
    char *before = slurp(path("ok.npy"));
    expect_usage_error("eval --op cos $D/ok.npy $D/ok.npy", "names the input");
    expect_usage_error("eval --op cos $D/ok.npy $D/./ok.npy", "names the input");
    char *after = slurp(path("ok.npy"));
    assert_memory_equal(before, after, (size_t)st.st_size);
    free(before);
    free(after);
}

static const char *string_of(const cJSON *o, const char *key);
static double number_of(const cJSON *o, const char *key);

static void accuracy_writes_json(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op asin --dtype f32 --samples 2000 --seed 5 --quiet --json $D/a.json "
                         "--markdown $D/a.md"),
                     0);
    cJSON *doc = load_json("a.json");
    assert_int_equal(cJSON_GetObjectItem(doc, "schema_version")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(doc, "seed")->valueint, 5);
    assert_non_null(strstr(cJSON_GetObjectItem(doc, "command")->valuestring, "--seed 5"));
    const cJSON *results = cJSON_GetObjectItem(doc, "results");
    assert_int_equal(cJSON_GetArraySize(results), accuracy_rows(ULPB_OP_asin, ULPB_DTYPE_f32));
    const cJSON *first = cJSON_GetArrayItem(results, 0);
    assert_string_equal(cJSON_GetObjectItem(first, "impl")->valuestring, "omk");
    assert_int_equal(cJSON_GetObjectItem(first, "inputs")->valueint, 2000);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(first, "samplers")), 6);
    const cJSON *hard = cJSON_GetArrayItem(cJSON_GetObjectItem(first, "samplers"), 1);
    assert_string_equal(string_of(hard, "name"), "hard_cases");
    char hard_cell[64], glibc_hard_cell[80]; /* the Markdown row shows how many of them were misrounded */
    snprintf(hard_cell, sizeof hard_cell, "| 0 | 0 of %d | 0 |", cJSON_GetObjectItem(hard, "inputs")->valueint);
    const cJSON *glibc = NULL, *result;
    cJSON_ArrayForEach(result, results) if (strcmp(string_of(result, "impl"), "glibc") == 0) glibc = result;
    assert_non_null(glibc);
    const cJSON *glibc_hard = cJSON_GetArrayItem(cJSON_GetObjectItem(glibc, "samplers"), 1);
    const int glibc_misrounded = cJSON_GetObjectItem(glibc_hard, "misrounded")->valueint;
    /* glibc misrounds some of them, and more inputs in all: the cell must show the sampler's count */
    assert_true(glibc_misrounded > 0 && cJSON_GetObjectItem(glibc, "misrounded")->valueint > glibc_misrounded);
    snprintf(glibc_hard_cell, sizeof glibc_hard_cell, "| %d | %d of %d | 0 |",
             cJSON_GetObjectItem(glibc, "misrounded")->valueint, glibc_misrounded,
             cJSON_GetObjectItem(glibc_hard, "inputs")->valueint);
    /* the Markdown row shows the implementation's time and the reference's apart, as the JSON holds them */
    char times[64];
    snprintf(times, sizeof times, "| %.3f | %.2f |\n", cJSON_GetObjectItem(first, "seconds")->valuedouble,
             cJSON_GetObjectItem(first, "reference_seconds")->valuedouble);
    cJSON_Delete(doc);
    char *md = slurp(path("a.md"));
    assert_non_null(strstr(md, "| misrounded | hard cases misrounded | special mismatches |"));
    assert_non_null(strstr(md, "| time (s) | reference (s) |\n"));
    const char *omk_row = strstr(md, "| f32 | omk |");
    assert_non_null(omk_row);
    const char *omk_cell = strstr(omk_row, hard_cell);
    assert_true(omk_cell && omk_cell < strchr(omk_row, '\n'));
    const char *glibc_row = strstr(md, "| f32 | glibc |");
    assert_non_null(glibc_row);
    const char *glibc_cell = strstr(glibc_row, glibc_hard_cell);
    assert_true(glibc_cell && glibc_cell < strchr(glibc_row, '\n')); /* in that row */
    const char *row_end = strchr(omk_row, '\n');
    assert_non_null(row_end);
    assert_true((size_t)(row_end + 1 - omk_row) > strlen(times));
    assert_memory_equal(row_end + 1 - strlen(times), times, strlen(times));
    free(md);
    /* --impl takes a list, as bench's does: those rows, in the order given; a name repeated is refused (a typo for
     * another, more likely than a wish for one row) */
    expect_usage_error("accuracy --op cos --dtype f16 --impl glibc,omk,glibc --quiet --json $D/list.json",
                       "ulpbench accuracy: --impl lists 'glibc' twice: give each name once");
    expect_usage_error("bench --op cos --dtype f16 --impl omk,memcpy,omk --quiet",
                       "ulpbench bench: --impl lists 'omk' twice: give each name once");
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl glibc,omk --quiet --json $D/list.json"), 0);
    doc = load_json("list.json");
    results = cJSON_GetObjectItem(doc, "results");
    assert_int_equal(cJSON_GetArraySize(results), 2);
    assert_string_equal(string_of(cJSON_GetArrayItem(results, 0), "impl"), "glibc");
    assert_string_equal(string_of(cJSON_GetArrayItem(results, 1), "impl"), "omk");
    /* only 16-bit types: every input, no sampling and no seed, which the result does not claim */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(doc, "samples")) && cJSON_IsNull(cJSON_GetObjectItem(doc, "seed")));
    cJSON_Delete(doc);
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk"), 0);
    md = slurp(path("out.txt"));
    assert_non_null(strstr(md, "\nf16/bf16: all 65,536 inputs. Reference: MPFR.\n"));
    assert_null(strstr(md, "Seed"));
    free(md);
    /* and a run without 16-bit rows does not speak of them */
    assert_int_equal(run("accuracy --op cos --dtype f32 --impl omk --samples 100"), 0);
    md = slurp(path("out.txt"));
    assert_non_null(strstr(md, "\nSeed: 20261130, samples per (op, dtype) for f32/f64: 100; Reference: MPFR.\n"));
    assert_null(strstr(md, "65,536"));
    free(md);
    assert_int_equal(run("accuracy --op asin --dtype f12"), 2);
    assert_int_equal(run("accuracy --op asin --dtype f32 --samples 0"), 2);
    assert_int_equal(run("accuracy --dtype f32"), 2);
}

/* The statistics of two results agree: counts, maximum, worst input and histogram (times aside). */
static void expect_same_statistics(const cJSON *a, const cJSON *b, double times, const char *what) {
    static const char *const counts[] = {"misrounded", "special_mismatches", "correctly_rounded"};
    if (number_of(a, "inputs") * times != number_of(b, "inputs"))
        fail_msg("%s: %g inputs against %g", what, number_of(a, "inputs"), number_of(b, "inputs"));
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        if (number_of(a, counts[k]) * times != number_of(b, counts[k]))
            fail_msg("%s: %s %g against %g", what, counts[k], number_of(a, counts[k]), number_of(b, counts[k]));
    const cJSON *bin, *hb = cJSON_GetObjectItem(b, "histogram");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(a, "histogram")), cJSON_GetArraySize(hb));
    cJSON_ArrayForEach(bin,
                       cJSON_GetObjectItem(a, "histogram")) if (number_of(hb, bin->string) != bin->valuedouble * times)
        fail_msg("%s: histogram bin %s differs", what, bin->string);
    if (number_of(a, "max_ulp") != number_of(b, "max_ulp"))
        fail_msg("%s: max ULP %.17g against %.17g", what, number_of(a, "max_ulp"), number_of(b, "max_ulp"));
    const cJSON *wa = cJSON_GetObjectItem(a, "worst"), *wb = cJSON_GetObjectItem(b, "worst");
    assert_int_equal(cJSON_IsNull(wa), cJSON_IsNull(wb));
    if (!cJSON_IsNull(wa)) assert_string_equal(string_of(wa, "input_bits"), string_of(wb, "input_bits"));
}

/* n binary32 values uniform in [-10, 10), the same for a seed. */
static void fill_uniform_f32(float *x, int n, uint64_t seed) {
    for (int i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (float)((double)(seed >> 11) * 0x1p-53 * 20.0 - 10.0);
    }
}

/* accuracy --inputs checks the elements of a user's .npy file: all 65,536 16-bit values in reverse order give the
 * exhaustive run's figures, binary32 values given three times count three times, and the report names the file by
 * the SHA-256 that sha256sum prints; gate takes it, merge refuses it. */
static void accuracy_checks_a_files_inputs(void **state) {
    (void)state;
    uint16_t patterns[1 << 16];
    for (uint32_t i = 0; i < 1u << 16; i++) patterns[i] = (uint16_t)(0xffff - i);
    const size_t all16 = 1u << 16;
    char err[256];
    static const struct {
        npy_kind kind; /* bfloat16 as numpy's uint16 or torch's int16 view */
        const char *file, *dtype_option, *dtype;
    } sixteen[] = {{NPY_F2, "h.npy", "", "f16"},
                   {NPY_U2, "b.npy", "--dtype bf16", "bf16"},
                   {NPY_I2, "i.npy", "--dtype bf16", "bf16"}};
    for (size_t t = 0; t < sizeof sixteen / sizeof sixteen[0]; t++) {
        npy_array every = {.kind = sixteen[t].kind, .elem_size = 2, .ndim = 1, .shape = {all16}, .count = all16};
        every.data = patterns;
        assert_int_equal(npy_write(path(sixteen[t].file), &every, err, sizeof err), 0);
        char args[512];
        snprintf(args, sizeof args, "accuracy --op all --inputs $D/%s %s --quiet --json $D/in.json", sixteen[t].file,
                 sixteen[t].dtype_option);
        assert_int_equal(run(args), 0);
        snprintf(args, sizeof args, "accuracy --op all --dtype %s --quiet --json $D/ex.json", sixteen[t].dtype);
        assert_int_equal(run(args), 0);
        /* and every value three times: more elements than values, whose references the run then computes once */
        uint16_t *thrice = malloc(3 * sizeof patterns);
        for (int k = 0; k < 3; k++) memcpy(thrice + k * all16, patterns, sizeof patterns);
        npy_array big = {.kind = sixteen[t].kind, .elem_size = 2, .ndim = 2, .shape = {3, all16}};
        big.count = 3 * all16, big.data = thrice;
        assert_int_equal(npy_write(path("big.npy"), &big, err, sizeof err), 0);
        free(thrice);
        snprintf(args, sizeof args, "accuracy --op all --inputs $D/big.npy %s --quiet --json $D/in3.json",
                 sixteen[t].dtype_option);
        assert_int_equal(run(args), 0);
        cJSON *ex = load_json("ex.json");
        const cJSON *ex_results = cJSON_GetObjectItem(ex, "results");
        for (int times = 1; times <= 3; times += 2) {
            cJSON *in = load_json(times == 1 ? "in.json" : "in3.json");
            const cJSON *in_results = cJSON_GetObjectItem(in, "results");
            assert_int_equal(cJSON_GetArraySize(in_results), cJSON_GetArraySize(ex_results));
            for (int r = 0; r < cJSON_GetArraySize(in_results); r++) {
                const cJSON *a = cJSON_GetArrayItem(ex_results, r), *b = cJSON_GetArrayItem(in_results, r);
                assert_string_equal(string_of(a, "impl"), string_of(b, "impl"));
                assert_string_equal(string_of(b, "mode"), "inputs");
                expect_same_statistics(a, b, times, string_of(b, "impl"));
            }
            cJSON_Delete(in);
        }
        cJSON_Delete(ex);
    }

    /* a kernel that gets special values wrong (1 for every input, infinities too): where the first one is */
    char setting[600];
    snprintf(setting, sizeof setting, "bad=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("accuracy --op cos --impl bad --inputs $D/h.npy --quiet --json $D/bad.json"), 0);
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);
    cJSON *bad = load_json("bad.json");
    const cJSON *bad_row = cJSON_GetArrayItem(cJSON_GetObjectItem(bad, "results"), 0);
    const unsigned long special_bits =
        strtoul(string_of(cJSON_GetObjectItem(bad_row, "special_example"), "input_bits"), NULL, 16);
    assert_int_equal(special_bits, 0x7c00); /* +inf, the smallest pattern of a mismatch */
    /* cos(+inf) is a NaN of no particular sign (MPFR's, converted, has the sign bit set) */
    assert_string_equal(string_of(cJSON_GetObjectItem(bad_row, "special_example"), "expected"), "nan");
    assert_int_equal((long)number_of(bad_row, "special_element"), 0xffff - 0x7c00); /* patterns run downwards */
    cJSON_Delete(bad);

    /* binary32: 20,000 values in [-10, 10), then the same three times over */
    enum { N32 = 20000 };
    float *x = malloc(3 * N32 * sizeof *x);
    fill_uniform_f32(x, N32, 20261206);
    memcpy(x + N32, x, N32 * sizeof *x);
    memcpy(x + 2 * N32, x, N32 * sizeof *x);
    const size_t once = N32, shape3[2] = {3, N32};
    write_array("x1.npy", NPY_F4, 1, &once, x);
    write_array("x3.npy", NPY_F4, 2, shape3, x);
    /* the same values as a (4, 5000) array in Fortran order (as numpy.save writes a transposed matrix) */
    static const char fortran_header[] = "{'descr': '<f4', 'fortran_order': True, 'shape': (4, 5000), }";
    char preamble[128] = "\x93NUMPY\x01\x00";
    const size_t header_bytes = 10 + sizeof fortran_header; /* the dict, then spaces and '\n' to 64 bytes */
    const size_t padded = (header_bytes + 63) / 64 * 64;
    preamble[8] = (char)((padded - 10) & 0xff), preamble[9] = (char)((padded - 10) >> 8);
    memcpy(preamble + 10, fortran_header, sizeof fortran_header - 1);
    memset(preamble + 10 + sizeof fortran_header - 1, ' ', padded - 10 - (sizeof fortran_header - 1));
    preamble[padded - 1] = '\n';
    float *fortran = malloc(N32 * sizeof *fortran);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < N32 / 4; j++) fortran[i + 4 * j] = x[i * (N32 / 4) + j];
    FILE *f = fopen(path("xf.npy"), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(preamble, 1, padded, f), padded);
    assert_int_equal(fwrite(fortran, sizeof *fortran, N32, f), N32);
    assert_int_equal(fclose(f), 0);
    free(fortran);
    free(x);
    assert_int_equal(run("accuracy --op cos --impl omk,glibc --inputs $D/xf.npy --quiet --json $D/xf.json"), 0);
    assert_int_equal(run("accuracy --op cos --impl omk,glibc --inputs $D/x1.npy --quiet --json $D/x1.json"), 0);
    assert_int_equal(
        run("accuracy --op cos --dtype f32 --impl omk,glibc --inputs $D/x3.npy --json $D/x3.json --markdown $D/x3.md"),
        0);
    cJSON *one = load_json("x1.json"), *three = load_json("x3.json"), *transposed = load_json("xf.json");
    for (int r = 0; r < 2; r++) {
        const cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(one, "results"), r);
        const cJSON *b = cJSON_GetArrayItem(cJSON_GetObjectItem(three, "results"), r);
        const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(transposed, "results"), r);
        expect_same_statistics(a, b, 3, string_of(b, "impl"));
        expect_same_statistics(a, c, 1, string_of(c, "impl"));
        assert_int_equal((long)number_of(a, "worst_element"), (long)number_of(c, "worst_element")); /* C order */
        const cJSON *samplers = cJSON_GetObjectItem(b, "samplers");
        assert_int_equal(cJSON_GetArraySize(samplers), 1);
        assert_string_equal(string_of(cJSON_GetArrayItem(samplers, 0), "name"), "inputs");
    }
    const cJSON *glibc = cJSON_GetArrayItem(cJSON_GetObjectItem(one, "results"), 1);
    assert_string_equal(string_of(glibc, "impl"), "glibc");
    assert_true(number_of(glibc, "misrounded") > 0); /* glibc's cosf misrounds about 1% of such inputs */
    /* the worst input's place: the first element that holds it, the same in the file that repeats them */
    npy_array file;
    assert_int_equal(npy_read(path("x1.npy"), &file, err, sizeof err), 0);
    const long worst_element = (long)number_of(glibc, "worst_element");
    const uint32_t worst_bits =
        (uint32_t)strtoul(string_of(cJSON_GetObjectItem(glibc, "worst"), "input_bits"), NULL, 16);
    assert_true(worst_element >= 0 && worst_element < N32);
    for (long i = 0; i <= worst_element; i++)
        assert_int_equal(((const uint32_t *)file.data)[i] == worst_bits, i == worst_element);
    npy_free(&file);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(glibc, "special_element")));
    assert_int_equal((long)number_of(cJSON_GetArrayItem(cJSON_GetObjectItem(three, "results"), 1), "worst_element"),
                     worst_element);
    char cell[64];
    snprintf(cell, sizeof cell, "), x.flat[%ld] |", worst_element);
    expect_text_in("x3.md", cell);
    assert_int_equal((int)number_of(cJSON_GetArrayItem(cJSON_GetObjectItem(one, "results"), 0), "misrounded"), 0);
    /* the run names its file: path as given, element count, and the digest sha256sum prints */
    const cJSON *inputs = cJSON_GetObjectItem(three, "inputs");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(three, "samples")) &&
                cJSON_IsNull(cJSON_GetObjectItem(three, "seed")));
    assert_string_equal(string_of(inputs, "path"), path("x3.npy"));
    assert_int_equal((int)number_of(inputs, "elements"), 3 * N32);
    char digest[65];
    sha256sum_of(path("x3.npy"), digest);
    assert_string_equal(string_of(inputs, "sha256"), digest);
    char line[200];
    snprintf(line, sizeof line, "elements of %s (sha256 %s), in C order (numpy's x.flat)", path("x3.npy"), digest);
    expect_text_in("x3.md", line);
    expect_text_in("x3.md", "| f32 | omk | inputs | 60000 | 0 | - | 0 |");
    cJSON_Delete(one), cJSON_Delete(transposed);

    /* rotary-embedding angles, pos * 10000^(-2j/128): SLEEF's vector cos reduces a whole vector the slow way when one
     * lane is large, so its last bits depend on how calls group such elements; peers are measured as the runner calls
     * them, without the whole call that holds omk and ULPB_LIBRARIES to theirs */
    enum { POSITIONS = 512, PAIRS = 64 };
    float *angles = malloc(POSITIONS * PAIRS * sizeof *angles);
    for (int pos = 0; pos < POSITIONS; pos++)
        for (int j = 0; j < PAIRS; j++) angles[pos * PAIRS + j] = (float)(pos * pow(10000.0, -2.0 * j / 128.0));
    const size_t rope_shape[2] = {POSITIONS, PAIRS};
    write_array("rope.npy", NPY_F4, 2, rope_shape, angles);
    free(angles);
    assert_int_equal(run("accuracy --op cos --inputs $D/rope.npy --quiet --json $D/rope.json"), 0);

    /* gate holds it; an edited count and merge are refused */
    assert_int_equal(run("gate $D/x3.json"), 0);
    snprintf(line, sizeof line,
             "- PASS omk cos f32 (%s: inputs, the elements of %s (sha256 %.12s...) only, 60000 inputs): 0 misrounded",
             path("x3.json"), path("x3.npy"), digest);
    expect_text_in("out.txt", line);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(three, "inputs"), "elements", cJSON_CreateNumber(59999));
    save_json(three, "x3_edited.json");
    expect_usage_error("gate $D/x3_edited.json",
                       "result 0 (omk cos f32) counts 60000 inputs, where the file's elements are 59999");
    three = load_json("x3.json");
    cJSON_ReplaceItemInObject(three, "inputs", cJSON_CreateNull());
    save_json(three, "x3_unnamed.json");
    expect_usage_error("gate $D/x3_unnamed.json",
                       "checked a file's elements (mode \"inputs\"), which the document does not name");
    three = load_json("x3.json");
    cJSON_ReplaceItemInObject(three, "samples", cJSON_CreateNumber(60000));
    save_json(three, "x3_sampled.json");
    expect_usage_error("gate $D/x3_sampled.json", "\"samples\" is not null in a run over a file's elements");
    /* bench --inputs times inputs drawn from the file's elements, in its dtype, and names the file as accuracy does */
    assert_int_equal(run("bench --op all --impl omk,memcpy --inputs $D/x3.npy --sizes 300 --rounds 3 --quiet --json "
                         "$D/bx.json --markdown $D/bx.md"),
                     0);
    cJSON *bench = load_json("bx.json");
    const cJSON *bench_inputs = cJSON_GetObjectItem(cJSON_GetObjectItem(bench, "context"), "inputs");
    assert_string_equal(string_of(bench_inputs, "sha256"), digest);
    assert_int_equal((int)number_of(bench_inputs, "elements"), 3 * N32);
    const cJSON *benchmarks = cJSON_GetObjectItem(bench, "benchmarks"), *row;
    assert_int_equal(cJSON_GetArraySize(benchmarks), 4); /* cos and asin, omk and memcpy, f32 alone */
    cJSON_ArrayForEach(row, benchmarks) {
        assert_non_null(strstr(string_of(row, "run_name"), "/f32/"));
        /* the file in the name, so that compare.py pairs rows only of runs over the same file */
        char set[40];
        snprintf(set, sizeof set, "/300/inputs:%.12s", digest);
        assert_non_null(strstr(string_of(row, "run_name"), set));
        assert_int_equal(strlen(strstr(string_of(row, "run_name"), set)), strlen(set));
        assert_true(number_of(row, "input_low") >= -10 && number_of(row, "input_high") < 10);
    }
    cJSON_Delete(bench);
    expect_text_in("bx.md", "| 300 x3.npy |");
    snprintf(line, sizeof line,
             "inputs drawn at random (with the seed) from the 60000 elements of the file shown (sha256 %s)", digest);
    expect_text_in("bx.md", line);
    expect_usage_error("targets $D/bx.json", "its rounds timed inputs drawn from a file (--inputs), and");
    expect_refused_silently("bench --inputs $D/x3.npy --sizes 64 --rounds 1 --json $D/x3.npy", "names the input file");
    expect_refused_silently("bench --inputs $D/x3.npy --range -1,1", "--range and --inputs both choose the inputs");
    expect_refused_silently("bench --inputs $D/x3.npy --dtype f16", "file dtype '<f4' does not hold f16");
    expect_refused_silently("bench --inputs $D/x3.npy --dtype all", "--inputs takes the file's dtype");
    const size_t no_elements = 0;
    write_array("nothing.npy", NPY_F4, 1, &no_elements, patterns);
    expect_refused_silently("bench --inputs $D/nothing.npy", "nothing.npy holds no elements");

    /* gate --inputs: the results must have checked that very file */
    assert_int_equal(run("gate --inputs $D/x3.npy $D/x3.json"), 0);
    expect_text_in("out.txt", "Gate: PASSED (1 production row; peer rows are not gated).");
    expect_refused_silently("gate --inputs $D/x1.npy $D/x3.json", "x3.json checked a file with SHA-256");
    expect_refused_silently("gate --inputs $D/x3.npy $D/ex.json", "none of the results checked a file's elements");
    expect_usage_error("merge -o $D/m.json $D/x3.json", "x3.json checked the elements of a file (accuracy --inputs)");

    /* refused before any work, with one line */
    const size_t none = 0;
    write_array("empty.npy", NPY_F4, 1, &none, patterns);
    static const struct {
        const char *args, *needle;
    } refused[] = {
        {"accuracy --op cos --inputs $D/x1.npy --samples 10", "--inputs checks the elements of a file: --samples"},
        {"accuracy --op cos --inputs $D/x1.npy --seed 1", "--seed does not apply"},
        {"accuracy --op cos --inputs $D/x1.npy --range -1,1", "--range does not apply"},
        {"accuracy --op cos --inputs $D/x1.npy --shard 0/2", "--shard does not apply"},
        {"accuracy --op cos --inputs $D/x1.npy --exhaustive", "--exhaustive does not apply"},
        {"accuracy --op cos --inputs $D/x1.npy --dtype f64", "x1.npy: file dtype '<f4' does not hold f64"},
        {"accuracy --op cos --inputs $D/x1.npy --dtype all", "--inputs takes the file's dtype"},
        {"accuracy --op cos --inputs $D/x1.npy --json $D/x1.npy", "names the input file"},
        {"accuracy --inputs $D/x1.npy", "missing --op"},
        {"accuracy --op cos --inputs $D/empty.npy", "empty.npy holds no elements"},
        {"accuracy --op cos --inputs $D/b.npy", "'<u2' data needs --dtype bf16"},
        {"accuracy --op cos --inputs $D/i.npy", "'<i2' data needs --dtype bf16"},
        {"accuracy --op cos --inputs $D/i.npy --dtype f16", "file dtype '<i2' does not hold f16"},
        {"accuracy --op cos --inputs $D/h.npy --reference fast", "--reference fast is for f32 and f64"},
        {"accuracy --op cos --inputs $D/missing.npy", "cannot open"},
        {"accuracy --op cos", "missing --dtype (f16|bf16|f32|f64|all) or --inputs FILE.npy"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
        expect_refused_silently(refused[k].args, refused[k].needle);
    /* the input file is unchanged by every run */
    assert_int_equal(run_program("", "sha256sum", "$D/x3.npy"), 0);
    expect_text_in("out.txt", digest);
}

/* report --inputs: the accuracy half as accuracy --inputs gives it, the throughput half as bench --inputs times it,
 * the gate on those rows, and a report.json that gate --inputs takes for that file alone. */
static void report_checks_a_files_inputs(void **state) {
    (void)state;
    enum { N = 20000 };
    float *x = malloc(N * sizeof *x);
    fill_uniform_f32(x, N, 20261207);
    const size_t n = N;
    write_array("r32.npy", NPY_F4, 1, &n, x);
    free(x);
    assert_int_equal(run("report --inputs $D/r32.npy --impl omk,glibc --output-dir $D/rep --quiet"), 0);
    assert_int_equal(run("accuracy --op all --inputs $D/r32.npy --impl omk,glibc --quiet --json $D/racc.json"), 0);
    cJSON *report = load_json("rep/report.json"), *accuracy = load_json("racc.json");
    const cJSON *report_rows = cJSON_GetObjectItem(report, "results");
    assert_int_equal(cJSON_GetArraySize(report_rows), 4);
    for (int r = 0; r < 4; r++) {
        const cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(accuracy, "results"), r);
        const cJSON *b = cJSON_GetArrayItem(report_rows, r);
        assert_string_equal(string_of(b, "mode"), "inputs");
        expect_same_statistics(a, b, 1, string_of(b, "impl"));
        assert_int_equal((long)number_of(a, "worst_element"), (long)number_of(b, "worst_element"));
    }
    cJSON_Delete(accuracy);
    char digest[65];
    sha256sum_of(path("r32.npy"), digest);
    assert_string_equal(string_of(cJSON_GetObjectItem(report, "inputs"), "sha256"), digest);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(report, "seed")) &&
                cJSON_IsNull(cJSON_GetObjectItem(report, "samples")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "gate"), "passed")));
    /* the throughput: the file's dtype alone, inputs drawn with the default seed, which its context records */
    const cJSON *throughput = cJSON_GetObjectItem(report, "throughput");
    const cJSON *context = cJSON_GetObjectItem(throughput, "context");
    assert_int_equal((long)number_of(context, "seed"), 20261130);
    assert_string_equal(string_of(cJSON_GetObjectItem(context, "inputs"), "sha256"), digest);
    const cJSON *benchmarks = cJSON_GetObjectItem(throughput, "benchmarks"), *row;
    assert_int_equal(cJSON_GetArraySize(benchmarks), 4); /* cos and asin, omk and glibc */
    cJSON_ArrayForEach(row, benchmarks) {
        assert_non_null(strstr(string_of(row, "run_name"), "/f32/"));
        char set[40];
        snprintf(set, sizeof set, "/4096/inputs:%.12s", digest);
        assert_non_null(strstr(string_of(row, "run_name"), set));
        assert_true(number_of(row, "input_low") >= -10 && number_of(row, "input_high") < 10);
    }
    cJSON_Delete(report);
    char line[300];
    snprintf(line, sizeof line, "Inputs: the 20000 elements of %s (sha256 %s)", path("r32.npy"), digest);
    expect_text_in("rep/report.md", line);
    expect_text_in("rep/report.md", " r32.npy |");
    expect_text_in("rep/report.md", "its rounds timed inputs drawn from a file (--inputs)");
    assert_int_equal(run("gate --inputs $D/r32.npy $D/rep/report.json"), 0);
    snprintf(line, sizeof line,
             "- PASS omk asin f32 (%s: inputs, the elements of %s (sha256 %.12s...) only, 20000 inputs)",
             path("rep/report.json"), path("r32.npy"), digest);
    expect_text_in("out.txt", line);
    /* --seed draws the bench's inputs: the throughput's context records it, the document's seed stays null */
    assert_int_equal(run("report --op cos --inputs $D/r32.npy --impl omk --seed 5 --output-dir $D/rep5 --quiet"), 0);
    report = load_json("rep5/report.json");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(report, "seed")));
    assert_int_equal((long)number_of(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "throughput"), "context"), "seed"),
                     5);
    cJSON_Delete(report);
    assert_int_equal(run("gate --inputs $D/r32.npy $D/rep5/report.json"), 0);
    assert_int_equal(run("report --inputs $D/r32.npy --impl omk --no-bench --output-dir $D/rep2 --quiet"), 0);
    report = load_json("rep2/report.json");
    assert_null(cJSON_GetObjectItem(report, "throughput"));
    cJSON_Delete(report);

    /* the gate holds a kernel of ULPB_LIBRARIES on the file's elements: exit 1, with the row failed */
    uint16_t patterns[1 << 16];
    for (uint32_t i = 0; i < 1u << 16; i++) patterns[i] = (uint16_t)i;
    const size_t all16 = 1u << 16;
    write_array("r16.npy", NPY_F2, 1, &all16, patterns);
    char setting[600];
    snprintf(setting, sizeof setting, "bad=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("report --op cos --inputs $D/r16.npy --impl bad --no-bench --output-dir $D/rep3 --quiet"), 1);
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);
    expect_text_in("out.txt", "- FAIL bad cos f16: ");
    report = load_json("rep3/report.json");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "gate"), "passed")));
    cJSON_Delete(report);

    /* refused before any work, with one line, and no DIR made */
    static const struct {
        const char *args, *needle;
    } refused[] = {
        {"report --inputs $D/r32.npy --samples 10", "--inputs checks the elements of a file: --samples does not apply"},
        {"report --inputs $D/r32.npy --range -1,1", "--range does not apply"},
        {"report --inputs $D/r32.npy --no-bench --seed 3", "--seed does not apply (it draws the bench's inputs"},
        {"report --inputs $D/r32.npy --dtype f64", "r32.npy: file dtype '<f4' does not hold f64"},
        {"report --inputs $D/r32.npy --dtype all", "--inputs takes the file's dtype"},
        {"report --inputs $D/r32.npy --max-ulp f64=1", "limits a dtype this run does not check (the --inputs file's"},
        {"report --inputs $D/r16.npy --dtype bf16", "file dtype '<f2' does not hold bf16"},
        {"report --inputs $D/missing.npy", "cannot open"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        char args[300];
        snprintf(args, sizeof args, "%s --output-dir $D/never", refused[k].args);
        expect_refused_silently(args, refused[k].needle);
        assert_false(exists(path("never")));
    }
    expect_refused_silently("report --inputs $D/rep/report.json --output-dir $D/rep", "names the input file");
}

/* A sampled run split with --shard K/N merges back into the whole run's counts and worst input. */
static void sampled_shards_merge(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op asin --dtype f64 --impl omk --samples 6000 --quiet --json $D/whole.json"), 0);
    for (int k = 0; k < 3; k++) {
        char args[256];
        snprintf(args, sizeof args,
                 "accuracy --op asin --dtype f64 --impl omk --samples 6000 --shard %d/3 --quiet --json $D/s%d.json", k,
                 k);
        assert_int_equal(run(args), 0);
    }
    assert_int_equal(run("merge -o $D/merged.json $D/s2.json $D/s0.json $D/s1.json"), 0);
    char *a = slurp(path("whole.json")), *b = slurp(path("merged.json"));
    cJSON *whole = cJSON_Parse(a), *merged = cJSON_Parse(b);
    const cJSON *rw = cJSON_GetArrayItem(cJSON_GetObjectItem(whole, "results"), 0);
    const cJSON *rm = cJSON_GetArrayItem(cJSON_GetObjectItem(merged, "results"), 0);
    static const char *const keys[] = {"inputs", "correctly_rounded", "misrounded", "special_mismatches", "max_ulp",
                                       "worst",  "histogram",         "samplers"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        cJSON *x = cJSON_GetObjectItem(rw, keys[i]), *y = cJSON_GetObjectItem(rm, keys[i]);
        if (strcmp(keys[i], "samplers") == 0) { /* compare counts only: per-sampler means add in another order */
            for (int s = 0; s < cJSON_GetArraySize(x); s++)
                assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(x, s), "inputs")->valueint,
                                 cJSON_GetObjectItem(cJSON_GetArrayItem(y, s), "inputs")->valueint);
            continue;
        }
        if (!cJSON_Compare(x, y, true)) fail_msg("merged shards differ from the whole run in \"%s\"", keys[i]);
    }
    cJSON_Delete(whole), cJSON_Delete(merged), free(a), free(b);
    /* seeds and counts up to 2^53 are written in full: with 15 digits, shards of seeds 2^53 - 2 and 2^53 - 1 would
     * read as one seed and merge */
    assert_int_equal(run("accuracy --op cos --dtype f64 --impl omk --samples 10 --seed 9007199254740990 --shard 0/2 "
                         "--quiet --json $D/big0.json"),
                     0);
    assert_int_equal(run("accuracy --op cos --dtype f64 --impl omk --samples 10 --seed 9007199254740991 --shard 1/2 "
                         "--quiet --json $D/big1.json"),
                     0);
    char *big = slurp(path("big1.json"));
    assert_non_null(strstr(big, "\"seed\":\t9007199254740991"));
    free(big);
    expect_usage_error("merge $D/big0.json $D/big1.json", "different seed");
    /* results are matched by op, dtype and implementation, not by their place: --impl omk,glibc and glibc,omk agree */
    assert_int_equal(run("accuracy --op cos --dtype f32 --impl omk,glibc --samples 40 --shard 0/2 --quiet --json "
                         "$D/o0.json"),
                     0);
    assert_int_equal(run("accuracy --op cos --dtype f32 --impl glibc,omk --samples 40 --shard 1/2 --quiet --json "
                         "$D/o1.json"),
                     0);
    assert_int_equal(run("accuracy --op cos --dtype f32 --impl omk,glibc --samples 40 --quiet --json $D/o.json"), 0);
    assert_int_equal(run("merge -o $D/om.json $D/o0.json $D/o1.json"), 0);
    cJSON *one_run = load_json("o.json"), *reordered = load_json("om.json");
    for (int r = 0; r < 2; r++) {
        const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(one_run, "results"), r),
                    *y = cJSON_GetArrayItem(cJSON_GetObjectItem(reordered, "results"), r);
        assert_string_equal(string_of(x, "impl"), string_of(y, "impl"));
        if (!cJSON_Compare(cJSON_GetObjectItem(x, "histogram"), cJSON_GetObjectItem(y, "histogram"), true) ||
            !cJSON_Compare(cJSON_GetObjectItem(x, "max_ulp"), cJSON_GetObjectItem(y, "max_ulp"), true))
            fail_msg("%s merged from reordered shards differs from the whole run", string_of(x, "impl"));
    }
    cJSON_Delete(one_run), cJSON_Delete(reordered);
    /* a message names the result's place in its own file: omk is result 1 of o1.json */
    cJSON *edited = load_json("o1.json");
    cJSON *omk_result = cJSON_GetArrayItem(cJSON_GetObjectItem(edited, "results"), 1);
    assert_string_equal(string_of(omk_result, "impl"), "omk");
    cJSON_ReplaceItemInObject(omk_result, "mode", cJSON_CreateString("exhaustive"));
    save_json(edited, "o1x.json");
    expect_usage_error("merge $D/o0.json $D/o1x.json", "o1x.json: result 1: \"mode\" is not \"sampled\"");
    assert_int_equal(
        run("accuracy --op cos --dtype f64 --impl omk,glibc --samples 40 --shard 1/2 --quiet --json $D/o2.json"), 0);
    expect_usage_error("merge $D/o0.json $D/o2.json", "o2.json has no result for omk cos f32, which");
    assert_int_equal(run("merge $D/s0.json $D/s1.json"), 2); /* shard 2 missing */
    assert_int_equal(run("merge $D/s0.json $D/s0.json $D/s1.json $D/s2.json"), 2);
    assert_int_equal(run("accuracy --op asin --dtype f16 --shard 0/2"), 2);
    /* -o naming an input would replace that shard with the merged result */
    char *before = slurp(path("s1.json"));
    assert_int_equal(run("merge -o $D/./s1.json $D/s0.json $D/s1.json $D/s2.json"), 2);
    char *after = slurp(path("s1.json")), *err = slurp(path("err.txt"));
    assert_non_null(strstr(err, "names input"));
    assert_string_equal(before, after);
    free(after), free(err);
    /* so would stdout appended to a shard (without -o the result goes there) */
    assert_int_equal(run_appending_to("merge $D/s0.json $D/s1.json $D/s2.json", "s1.json"), 2);
    after = slurp(path("s1.json")), err = slurp(path("err.txt"));
    assert_non_null(strstr(err, "standard output is the input file"));
    assert_string_equal(before, after);
    free(before), free(after), free(err);
    /* shards holding different implementations are refused in either order (taking the first file's list
     * would silently drop the other implementations' results) */
    assert_int_equal(
        run("accuracy --op asin --dtype f64 --impl omk --samples 600 --shard 0/2 --quiet --json $D/o0.json"), 0);
    assert_int_equal(run("accuracy --op asin --dtype f64 --samples 600 --shard 1/2 --quiet --json $D/o1.json"), 0);
    assert_int_equal(run("merge $D/o0.json $D/o1.json"), 2);
    assert_int_equal(run("merge $D/o1.json $D/o0.json"), 2);
    /* a shard of another schema version (or none) is refused, not relabelled */
    for (int v = 0; v < 2; v++) {
        cJSON *doc = load_json("s2.json");
        if (v == 0)
            cJSON_ReplaceItemInObject(doc, "schema_version", cJSON_CreateNumber(2));
        else
            cJSON_DeleteItemFromObject(doc, "schema_version");
        save_json(doc, "s2bad.json");
        expect_merge_refused("schema_version", v == 0 ? "schema_version 2" : "no schema_version");
    }
    /* -o through a symbolic link to an input would replace that input too */
    before = slurp(path("s0.json"));
    assert_int_equal(symlink("s0.json", path("to_s0.json")), 0);
    assert_int_equal(run("merge -o $D/to_s0.json $D/s0.json $D/s1.json $D/s2.json"), 2);
    after = slurp(path("s0.json"));
    assert_string_equal(before, after);
    free(before), free(after);
    /* the merged file records the shards' environment (here the scalar build), not the merging process's, and shards
     * from another omk build are refused (as from another CPU or library): the merged file could name only one */
    setenv("OMK_ISA", "scalar", 1);
    for (int k = 0; k < 3; k++) {
        char args[256];
        snprintf(
            args, sizeof args,
            "accuracy --op asin --dtype f64 --impl omk --samples 6000 --shard %d/3 --quiet --json $D/scalar%d.json", k,
            k);
        assert_int_equal(run(args), 0);
    }
    unsetenv("OMK_ISA");
    assert_int_equal(run("merge -o $D/merged_scalar.json $D/scalar0.json $D/scalar1.json $D/scalar2.json"), 0);
    cJSON *doc = load_json("merged_scalar.json");
    /* command is the merge's; merged_from names each shard's file and the command that made it */
    const cJSON *parts = cJSON_GetObjectItem(doc, "merged_from");
    assert_int_equal(cJSON_GetArraySize(parts), 3);
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "scalar%d.json", k);
        cJSON *shard = load_json(name);
        const cJSON *part = cJSON_GetArrayItem(parts, k);
        if (!strstr(cJSON_GetStringValue(cJSON_GetObjectItem(part, "file")), name))
            fail_msg("merged_from[%d] names '%s'", k, cJSON_GetStringValue(cJSON_GetObjectItem(part, "file")));
        assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(part, "command")),
                            cJSON_GetStringValue(cJSON_GetObjectItem(shard, "command")));
        cJSON_Delete(shard);
    }
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "environment"), "omk_isa")),
                        "scalar");
    /* shards from several CPUs (a job array on mixed runners) merge, and cpu names them all */
    cJSON *other_cpu = load_json("scalar2.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(other_cpu, "environment"), "cpu", cJSON_CreateString("Other CPU"));
    save_json(other_cpu, "scalar2cpu.json");
    assert_int_equal(run("merge -o $D/merged_cpus.json $D/scalar0.json $D/scalar1.json $D/scalar2cpu.json"), 0);
    cJSON *mixed = load_json("merged_cpus.json");
    char want_cpus[600];
    snprintf(want_cpus, sizeof want_cpus, "%s; Other CPU",
             cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "environment"), "cpu")));
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(mixed, "environment"), "cpu")),
                        want_cpus);
    cJSON_Delete(mixed);
    cJSON_Delete(doc);
    /* a shard built from another commit is refused (the same version may hold other kernels); shards written before
     * the commit was recorded, none of them naming one, still merge */
    cJSON *other_source = load_json("scalar2.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(other_source, "environment"), "source",
                              cJSON_CreateString("0123456789ab"));
    save_json(other_source, "scalar2src.json");
    expect_usage_error("merge -o $D/merged_src.json $D/scalar0.json $D/scalar1.json $D/scalar2src.json",
                       "different environments (source");
    other_source = load_json("scalar2.json");
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(other_source, "environment"), "source");
    save_json(other_source, "scalar2src.json");
    assert_int_equal(run("merge -o $D/merged_src.json $D/scalar0.json $D/scalar1.json $D/scalar2src.json"), 2);
    for (int k = 0; k < 2; k++) {
        char name[32];
        snprintf(name, sizeof name, "scalar%d.json", k);
        cJSON *shard = load_json(name);
        cJSON_DeleteItemFromObject(cJSON_GetObjectItem(shard, "environment"), "source");
        snprintf(name, sizeof name, "scalar%dsrc.json", k);
        save_json(shard, name);
    }
    assert_int_equal(run("merge -o $D/merged_src.json $D/scalar0src.json $D/scalar1src.json $D/scalar2src.json"), 0);
    if (strcmp(omk_isa_in_use(), "scalar") != 0) {
        expect_usage_error("merge $D/s0.json $D/scalar1.json $D/s2.json", "different environments (omk_isa");
    }
    /* counters no run could have written are refused, not merged into a result that looks valid */
    static const struct {
        const char *key, *value;
    } bad_state[] = {{"max_ulp", "nan"},
                     {"max_ulp", "-0x1p-1"},
                     {"ulp_sum", "nan"},
                     {"ulp_sum", "-0x1p+0"},
                     {"max_ulp", "inf"},
                     {"ulp_sum", "0x1p+1024"},
                     {"ulp_sum", "0x1p+900"}, /* a mean above the maximum */
                     {"ulp_sum", ""},
                     {"ulp_sum", " 0x1p+0"},
                     {"worst_bits", ""},
                     {"worst_bits", "-0x1"},
                     {"worst_bits", "0x1ffffffffffffffff"},
                     {"worst_got", "0x1.5p-7"}, /* another result than the expected one, with 0 misrounded */
                     {"worst_expected", "inf"}};
    /* (an empty string would read as 0, a sign or an overflow as other bits, an infinite sum as a mean of null) */
    for (size_t i = 0; i < sizeof bad_state / sizeof bad_state[0]; i++) {
        cJSON *edited_doc = load_json("s2.json");
        cJSON *st = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(edited_doc, "results"), 0), "state");
        cJSON_ReplaceItemInObject(st, bad_state[i].key, cJSON_CreateString(bad_state[i].value));
        save_json(edited_doc, "s2bad.json");
        expect_merge_refused(bad_state[i].key, bad_state[i].value);
    }
    /* a shard without its samplers: merged, the result would lose every shard's per-sampler rows */
    for (int edit = 0; edit < 2; edit++) {
        cJSON *edited_doc = load_json("s2.json");
        cJSON *result = cJSON_GetArrayItem(cJSON_GetObjectItem(edited_doc, "results"), 0);
        if (edit == 0)
            cJSON_DeleteItemFromObject(result, "samplers");
        else
            cJSON_DeleteItemFromArray(cJSON_GetObjectItem(result, "samplers"), 0);
        save_json(edited_doc, "s2bad.json");
        expect_merge_refused("samplers differ", "samplers missing");
    }
    /* a shard whose shard record is no object: the message names the file */
    cJSON *bad_shard = load_json("s2.json");
    cJSON_ReplaceItemInObject(bad_shard, "shard", cJSON_CreateString("2/3"));
    save_json(bad_shard, "s2bad.json");
    expect_merge_refused("s2bad.json: shard: missing or non-numeric \"index\"", "shard as a string");
    /* a shard without an environment is named as such, not as one from another environment */
    cJSON *no_env = load_json("s2.json");
    cJSON_DeleteItemFromObject(no_env, "environment");
    save_json(no_env, "s2bad.json");
    expect_merge_refused("s2bad.json has no \"environment\"", "no environment");
    /* an environment without the versions it must record is named as such, not as a difference */
    cJSON *empty_env = load_json("s2.json");
    cJSON_ReplaceItemInObject(empty_env, "environment", cJSON_CreateObject());
    save_json(empty_env, "s2bad.json");
    expect_merge_refused("s2bad.json: its \"environment\" has no \"glibc\"", "empty environment");
    /* nor are times no run takes, another compiler's build, or a CPU or core count that is not recorded as one */
    static const struct {
        const char *where, *key, *value, *needle;
    } bad_record[] = {
        {"result", "seconds", "-1", "s2bad.json: result 0: \"seconds\" is -1, not a duration"},
        {"result", "reference_seconds", "\"abc\"",
         "s2bad.json: result 0: missing or non-numeric \"reference_seconds\""},
        {"result", "seconds", "1e400", "\"seconds\" is inf, not a duration"},
        {"environment", "compiler", "\"Clang 99\"", "different environments (compiler: '"},
        {"environment", "cpu", "7", "s2bad.json: its \"environment\" has no \"cpu\""},
        {"environment", "cores", "\"two\"", "s2bad.json: its \"environment\" has no \"cores\""},
        {"environment", "cores", "0", "s2bad.json: its \"environment\" has no \"cores\""},
        {"environment", "cores", "1e30", "s2bad.json: its \"environment\" has no \"cores\""},
        {"environment", "cpu", "\"\"", "s2bad.json: its \"environment\" has no \"cpu\""},
    };
    for (size_t i = 0; i < sizeof bad_record / sizeof bad_record[0]; i++) {
        cJSON *edited_doc = load_json("s2.json");
        cJSON *where = strcmp(bad_record[i].where, "result") == 0
                           ? cJSON_GetArrayItem(cJSON_GetObjectItem(edited_doc, "results"), 0)
                           : cJSON_GetObjectItem(edited_doc, "environment");
        assert_true(cJSON_ReplaceItemInObject(where, bad_record[i].key, cJSON_CreateRaw(bad_record[i].value)));
        save_json(edited_doc, "s2bad.json");
        expect_merge_refused(bad_record[i].needle, bad_record[i].key);
    }
    /* a JSON document of another kind (bench's) is named as such */
    FILE *other_kind = fopen(path("s2bad.json"), "w");
    assert_non_null(other_kind);
    fputs("{\"context\": {}, \"benchmarks\": []}\n", other_kind);
    fclose(other_kind);
    expect_merge_refused("s2bad.json has no \"schema\" or \"schema_version\": not the JSON of an ulpbench accuracy run",
                         "a bench result");
    /* the same shard twice is named as such, not as two shards that overlap */
    expect_usage_error("merge $D/s0.json $D/s1.json $D/./s1.json", "are the same file: give each shard once");
    /* a key given twice in one object (cJSON would read the first), here in two letter cases */
    char *shard_text = slurp(path("s2.json"));
    const char *seconds_at = strstr(shard_text, "\"seconds\":");
    assert_non_null(seconds_at);
    other_kind = fopen(path("s2bad.json"), "w");
    assert_non_null(other_kind);
    fprintf(other_kind, "%.*s\"Seconds\": 5, %s", (int)(seconds_at - shard_text), shard_text, seconds_at);
    fclose(other_kind);
    free(shard_text);
    expect_merge_refused("econds\" twice in one object: not a file ulpbench wrote", "a key twice");
    /* a raw NUL in a string: cJSON would end the string there ("omk\0x" read as "omk"); JSON escapes it */
    shard_text = slurp(path("s2.json"));
    const char *impl_at = strstr(shard_text, "\"impl\":");
    assert_non_null(impl_at);
    const size_t value_at = (size_t)(strchr(impl_at + 7, '"') + 2 - shard_text); /* after the value's first letter */
    other_kind = fopen(path("s2bad.json"), "w");
    assert_non_null(other_kind);
    assert_int_equal(fwrite(shard_text, 1, value_at, other_kind), value_at);
    fputc('\0', other_kind);
    fputs(shard_text + value_at, other_kind);
    fclose(other_kind);
    free(shard_text);
    expect_merge_refused("s2bad.json' is not valid JSON (a raw control character, byte 0x00, at byte", "a raw NUL");
    /* escaped, cJSON reads it the same way (and a \u without four hex digits as one) */
    shard_text = slurp(path("s2.json")); /* the same text: value_at holds */
    other_kind = fopen(path("s2bad.json"), "w");
    assert_non_null(other_kind);
    fprintf(other_kind, "%.*s\\u0000x%s", (int)value_at, shard_text, shard_text + value_at);
    fclose(other_kind);
    free(shard_text);
    expect_merge_refused("s2bad.json' is not a result of ulpbench (an escaped NUL, or a \\u without four hex digits, "
                         "at byte",
                         "an escaped NUL");
    /* nested past cJSON's limit: said so, rather than a syntax error at a byte that has none (a "[" in a string does
     * not count) */
    other_kind = fopen(path("s2bad.json"), "w");
    assert_non_null(other_kind);
    fputs("{\"a\": \"[[[[\", \"b\": ", other_kind);
    for (int k = 0; k < 1200; k++) fputc('[', other_kind);
    for (int k = 0; k < 1200; k++) fputc(']', other_kind);
    fputs("}\n", other_kind);
    fclose(other_kind);
    expect_merge_refused("s2bad.json' is not a result of ulpbench (arrays or objects nested more than 1000 deep, at "
                         "byte 1018)",
                         "deep nesting");
    other_kind = fopen(path("s2bad.json"), "w"); /* 1000 deep, and a syntax error there: not too deep */
    assert_non_null(other_kind);
    for (int k = 0; k < 999; k++) fputc('[', other_kind);
    fputs("{bad", other_kind);
    fclose(other_kind);
    expect_merge_refused("s2bad.json' is not valid JSON (at byte 1001)", "a syntax error 1000 deep");
    other_kind = fopen(path("s2bad.json"), "w"); /* an object where a key belongs, 1000 deep */
    assert_non_null(other_kind);
    for (int k = 0; k < 999; k++) fputc('[', other_kind);
    fputs("{ {", other_kind);
    fclose(other_kind);
    expect_merge_refused("s2bad.json' is not valid JSON (at byte 1001)", "an object for a key 1000 deep");
    other_kind = fopen(path("s2bad.json"), "w"); /* an array where a comma belongs */
    assert_non_null(other_kind);
    for (int k = 0; k < 1000; k++) fputc('[', other_kind);
    fputs("1 [", other_kind);
    fclose(other_kind);
    expect_merge_refused("s2bad.json' is not valid JSON (at byte 1002)", "an array for a comma 1000 deep");
    /* shards that name memcpy, edited by hand: a new run of it is refused, so is a merged one */
    for (int k = 0; k < 3; k++) {
        char name[16];
        snprintf(name, sizeof name, "s%d.json", k);
        cJSON *doc = load_json(name);
        cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0), "impl",
                                  cJSON_CreateString("memcpy"));
        snprintf(name, sizeof name, "m%d.json", k);
        save_json(doc, name);
    }
    assert_int_equal(run("merge $D/m0.json $D/m1.json $D/m2.json"), 2);
    char *baseline_err = slurp(path("err.txt"));
    if (!one_line_with(baseline_err, "'memcpy', a throughput baseline with no accuracy"))
        fail_msg("memcpy shards: stderr '%s'", baseline_err);
    free(baseline_err);
    /* counters that contradict each other: outcomes that are not the inputs, a histogram that is not the finite
     * results, a result that is not the sum of its samplers (each sampler consistent on its own) */
    for (int edit = 0; edit < 3; edit++) {
        cJSON *edited_doc = load_json("s2.json");
        cJSON *result = cJSON_GetArrayItem(cJSON_GetObjectItem(edited_doc, "results"), 0);
        cJSON *sampler = cJSON_GetArrayItem(cJSON_GetObjectItem(result, "samplers"), 1);
        const char *needle = edit == 0 ? "is not \"inputs\"" : edit == 1 ? "histogram" : "sums of its samplers";
        if (edit == 0) {
            cJSON_SetNumberValue(cJSON_GetObjectItem(result, "correctly_rounded"), 7);
        } else if (edit == 1) {
            cJSON_SetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(result, "histogram"), ">4"), 5);
        } else {
            cJSON *count = cJSON_GetObjectItem(sampler, "inputs");
            cJSON_SetNumberValue(count, count->valuedouble + 1);
            count = cJSON_GetObjectItem(sampler, "special_mismatches");
            cJSON_SetNumberValue(count, count->valuedouble + 1);
        }
        save_json(edited_doc, "s2bad.json");
        expect_merge_refused(needle, "contradicting counters");
    }
    /* shards each consistent in itself but not what their run gives: a sampler's count that is not the shard's slice
     * of it (the counts from shard 0), a result not labelled sampled, a worst input whose value is not the one its bits
     * encode (in the result, or in a sampler alone), a maximum outside the histogram's highest bin, a shard count
     * beyond any run */
    for (int edit = 0; edit < 7; edit++) {
        cJSON *edited_doc = load_json("s2.json");
        cJSON *result = cJSON_GetArrayItem(cJSON_GetObjectItem(edited_doc, "results"), 0);
        cJSON *st = cJSON_GetObjectItem(result, "state");
        const char *needle = NULL;
        if (edit == 0) { /* one more correctly rounded input, in the result and in its second sampler alike */
            cJSON *sampler = cJSON_GetArrayItem(cJSON_GetObjectItem(result, "samplers"), 1);
            for (cJSON *o = result; o; o = o == result ? sampler : NULL) {
                cJSON *items[] = {cJSON_GetObjectItem(o, "inputs"), cJSON_GetObjectItem(o, "correctly_rounded"),
                                  cJSON_GetObjectItem(cJSON_GetObjectItem(o, "histogram"), "<=0.5"),
                                  cJSON_GetObjectItem(cJSON_GetObjectItem(o, "state"), "ulp_count")};
                for (int i = 0; i < 4; i++) cJSON_SetNumberValue(items[i], items[i]->valuedouble + 1);
            }
            needle = "inputs, where shard 2/3 of 6000 samples has";
        } else if (edit == 1) {
            cJSON_ReplaceItemInObject(result, "mode", cJSON_CreateString("exhaustive"));
            needle = "\"mode\" is not \"sampled\"";
        } else if (edit == 2 || edit == 3) { /* in the result and in the sampler that holds the worst input */
            cJSON *sampler;
            cJSON_ArrayForEach(sampler, cJSON_GetObjectItem(result, "samplers")) {
                cJSON *sampler_state = cJSON_GetObjectItem(sampler, "state");
                const char *bits = cJSON_GetStringValue(cJSON_GetObjectItem(sampler_state, "worst_bits"));
                if (!bits || strcmp(bits, cJSON_GetStringValue(cJSON_GetObjectItem(st, "worst_bits"))) != 0) continue;
                for (cJSON *s = st; s; s = s == st ? sampler_state : NULL) {
                    if (edit == 2)
                        cJSON_ReplaceItemInObject(s, "worst_bits", cJSON_CreateString("0x0"));
                    else
                        cJSON_ReplaceItemInObject(s, "max_ulp", cJSON_CreateString("0x1.8p+0"));
                }
                break;
            }
            needle = edit == 2 ? "\"worst_input\" is not the f64 input that \"worst_bits\" names"
                               : "is not in the histogram's highest bin";
        } else if (edit == 6) { /* in a sampler whose worst input is not the result's, which only it names */
            cJSON *sampler;
            int s = 0, chosen = -1;
            cJSON_ArrayForEach(sampler, cJSON_GetObjectItem(result, "samplers")) {
                cJSON *sampler_state = cJSON_GetObjectItem(sampler, "state");
                const char *bits = cJSON_GetStringValue(cJSON_GetObjectItem(sampler_state, "worst_bits"));
                if (chosen < 0 && bits && strcmp(bits, cJSON_GetStringValue(cJSON_GetObjectItem(st, "worst_bits")))) {
                    cJSON_ReplaceItemInObject(sampler_state, "worst_input", cJSON_CreateString("inf"));
                    chosen = s;
                }
                s++;
            }
            assert_true(chosen >= 0);
            static char sampler_needle[96];
            snprintf(sampler_needle, sizeof sampler_needle, "sampler %d: \"worst_input\" is not the f64 input", chosen);
            needle = sampler_needle;
        } else if (edit == 4) {
            cJSON_SetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(edited_doc, "shard"), "count"), 1e9);
            needle = "shard count 1e+09 is not a whole number from 1 to 4096";
        } else if (edit == 5) {
            cJSON_DeleteItemFromObject(edited_doc, "seed");
            needle = "s2bad.json has no \"seed\"";
        }
        save_json(edited_doc, "s2bad.json");
        expect_merge_refused(needle, "a shard its run could not have written");
    }
    /* a result listed twice in every shard would be merged twice over */
    for (int k = 0; k < 3; k++) {
        char name[16];
        snprintf(name, sizeof name, "s%d.json", k);
        cJSON *doc = load_json(name);
        cJSON *results = cJSON_GetObjectItem(doc, "results");
        cJSON_AddItemToArray(results, cJSON_Duplicate(cJSON_GetArrayItem(results, 0), 1));
        snprintf(name, sizeof name, "d%d.json", k);
        save_json(doc, name);
    }
    expect_usage_error("merge $D/d0.json $D/d1.json $D/d2.json", "d0.json: results 0 and 1 are both omk asin f64");
    /* a run without --shard is the one shard of one */
    expect_usage_error("merge $D/whole.json $D/s0.json", "whole.json is of 1 shards");
}

/* accuracy --range: the JSON records the range, every result's worst input lies in it, ranged shards merge into the
 * whole run, and shards of different ranges (or none) do not merge. */
static void ranged_runs_merge_and_record_their_range(void **state) {
    (void)state;
    static const char common[] = "accuracy --op asin --impl omk,glibc --samples 3001 --range 0.9,1";
    char args[256];
    snprintf(args, sizeof args, "%s --dtype all --quiet --json $D/rw.json --markdown $D/rw.md", common);
    assert_int_equal(run(args), 0);
    expect_text_in("rw.md", "inputs in [0.9, 1] only (--range");
    cJSON *whole = load_json("rw.json");
    const cJSON *range = cJSON_GetObjectItem(whole, "range");
    assert_true(cJSON_IsObject(range));
    assert_true(cJSON_GetObjectItem(range, "lo")->valuedouble == 0.9);
    assert_true(cJSON_GetObjectItem(range, "hi")->valuedouble == 1.0);
    const cJSON *result;
    int f16_rows = 0;
    cJSON_ArrayForEach(result, cJSON_GetObjectItem(whole, "results")) {
        const char *input = string_of(cJSON_GetObjectItem(result, "worst"), "input");
        const double x = strtod(input, NULL);
        if (!(x >= 0.9 && x <= 1.0))
            fail_msg("%s: worst input %s lies outside [0.9, 1]", string_of(result, "impl"), input);
        if (strcmp(string_of(result, "dtype"), "f16") == 0) { /* binary16 from 0x3b33 (0.89990234375 is below) */
            assert_int_equal(cJSON_GetObjectItem(result, "inputs")->valueint, 0x3c00 - 0x3b34 + 1);
            f16_rows++;
        }
    }
    assert_int_equal(f16_rows, 2);
    cJSON_Delete(whole);
    /* f64 only: shards split sampled rows */
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "%s --dtype f64 --shard %d/3 --quiet --json $D/rs%d.json", common, k, k);
        assert_int_equal(run(args), 0);
    }
    snprintf(args, sizeof args, "%s --dtype f64 --quiet --json $D/rw64.json", common);
    assert_int_equal(run(args), 0);
    assert_int_equal(run("merge -o $D/rm.json $D/rs1.json $D/rs0.json $D/rs2.json"), 0);
    cJSON *one = load_json("rw64.json"), *merged = load_json("rm.json");
    assert_true(cJSON_Compare(cJSON_GetObjectItem(one, "range"), cJSON_GetObjectItem(merged, "range"), true));
    for (int r = 0; r < 2; r++) {
        const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(one, "results"), r),
                    *y = cJSON_GetArrayItem(cJSON_GetObjectItem(merged, "results"), r);
        static const char *const keys[] = {"inputs", "misrounded", "max_ulp", "worst", "histogram"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (!cJSON_Compare(cJSON_GetObjectItem(x, keys[i]), cJSON_GetObjectItem(y, keys[i]), true))
                fail_msg("ranged shards merged differ from the whole run in \"%s\"", keys[i]);
    }
    cJSON_Delete(one), cJSON_Delete(merged);
    /* a shard of another range, or of none, is not part of this run */
    assert_int_equal(run("accuracy --op asin --dtype f64 --impl omk,glibc --samples 3001 --range 0.9,0.99 --shard 2/3 "
                         "--quiet --json $D/rs2other.json"),
                     0);
    expect_usage_error("merge $D/rs0.json $D/rs1.json $D/rs2other.json", "have different --range");
    assert_int_equal(run("accuracy --op asin --dtype f64 --impl omk,glibc --samples 3001 --range 0.8,1 --shard 2/3 "
                         "--quiet --json $D/rs2lower.json"),
                     0);
    expect_usage_error("merge $D/rs0.json $D/rs1.json $D/rs2lower.json", "have different --range");
    assert_int_equal(run("accuracy --op asin --dtype f64 --impl omk,glibc --samples 3001 --shard 2/3 --quiet --json "
                         "$D/rs2none.json"),
                     0);
    expect_usage_error("merge $D/rs0.json $D/rs1.json $D/rs2none.json", "have different --range");
    /* a range edited in every shard, which the inputs do not fit, is refused, not merged */
    for (int k = 0; k < 3; k++) {
        char from[16], to[24];
        snprintf(from, sizeof from, "rs%d.json", k);
        snprintf(to, sizeof to, "rs%dedit.json", k);
        cJSON *doc = load_json(from), *moved = cJSON_GetObjectItem(doc, "range");
        cJSON_ReplaceItemInObject(moved, "lo", cJSON_CreateNumber(2));
        cJSON_ReplaceItemInObject(moved, "hi", cJSON_CreateNumber(3));
        save_json(doc, to);
    }
    expect_usage_error("merge $D/rs0edit.json $D/rs1edit.json $D/rs2edit.json", "lies outside the range");
    /* and a sampler's worst input outside the range, where its result's lies inside */
    cJSON *moved = load_json("rs0.json");
    cJSON *by_value = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(moved, "results"), 0), "samplers"), 2);
    assert_string_equal(string_of(by_value, "name"), "range_values");
    cJSON *moved_state = cJSON_GetObjectItem(by_value, "state");
    cJSON_ReplaceItemInObject(moved_state, "worst_bits", cJSON_CreateString("0x3ff8000000000000"));
    cJSON_ReplaceItemInObject(moved_state, "worst_input", cJSON_CreateString("0x1.8p+0"));
    save_json(moved, "rs0moved.json");
    expect_usage_error("merge $D/rs0moved.json $D/rs1.json $D/rs2.json",
                       "result 0, sampler 2: its worst input 1.5 lies outside the range [0.9, 1]");
    /* a "range" that no run writes: not an object, infinite, empty or reversed, or without HI */
    static const char *const bad_ranges[] = {"\"0.9,1\"", "{\"lo\": 0.9, \"hi\": 1e400}", "{\"lo\": 1, \"hi\": 1}",
                                             "{\"lo\": 1, \"hi\": 0.9}", "{\"lo\": 0.9}"};
    for (size_t b = 0; b < sizeof bad_ranges / sizeof bad_ranges[0]; b++) {
        char *text = slurp(path("rs2.json")), *at = strstr(text, "\"range\":");
        assert_non_null(at);
        const char *end = strchr(at, '}');
        char *bad = malloc(strlen(text) + 64);
        sprintf(bad, "%.*s\"range\": %s%s", (int)(at - text), text, bad_ranges[b], end + 1);
        FILE *f = fopen(path("rs2bad.json"), "w");
        assert_non_null(f);
        fputs(bad, f);
        fclose(f);
        free(text), free(bad);
        expect_usage_error("merge $D/rs0.json $D/rs1.json $D/rs2bad.json", "\"range\" is not null or");
    }
    /* report --range: the accuracy rows and the throughput of the range alone, and no target claimed for them */
    assert_int_equal(run("report --op asin --dtype f32 --impl omk,glibc --samples 2000 --range 0.5,0.6 --output-dir "
                         "$D/ranged --quiet"),
                     0);
    expect_text_in("ranged/report.md", "inputs in [0.5, 0.6] only (--range");
    expect_text_in("ranged/report.md", "| 4 Ki [0.5, 0.6] |");
    expect_text_in("ranged/report.md", "its rounds timed --range inputs, and the targets are set on the registry's");
    expect_usage_error("targets $D/ranged/report.json", "its rounds timed --range inputs, and");
    cJSON *report = load_json("ranged/report.json");
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(report, "range"), "lo")->valuedouble == 0.5);
    const cJSON *bench;
    int timed = 0;
    cJSON_ArrayForEach(bench, cJSON_GetObjectItem(cJSON_GetObjectItem(report, "throughput"), "benchmarks")) {
        if (!strstr(string_of(bench, "name"), "/range:0.5,"))
            fail_msg("report --range timed %s", string_of(bench, "name"));
        timed++;
    }
    assert_true(timed > 0);
    cJSON_Delete(report);
    /* with --no-bench, only accuracy's rules: past binary16's finite values, or a single value */
    assert_int_equal(run("report --op cos --dtype f16 --no-bench --range 60000,70000 --output-dir $D/wide --quiet"), 0);
    expect_text_in("wide/report.md", "Inputs in [60000, 70000] only (--range");
    expect_text_in("wide/report.md", "| f16 | omk | exhaustive | 173 |"); /* 60000 to 65504 in steps of 32 */
    assert_int_equal(
        run("report --op cos --dtype f16 --impl omk --no-bench --range 1,1.0004 --output-dir $D/one --quiet"), 0);
    expect_text_in("one/report.md", "| f16 | omk | exhaustive | 1 |");
}

static void report_gates(void **state) {
    (void)state;
    assert_int_equal(run("report --samples 3000 --quiet --output-dir $D"), 0);
    char *md = slurp(path("report.md"));
    assert_non_null(strstr(md, "Gate: PASSED"));
    free(md);
    cJSON *doc = load_json("report.json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), "passed")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")), accuracy_rows(-1, -1));
    /* the throughput tables ride along: one benchmark per entry the CPU runs and input set, at 4 Ki */
    const cJSON *throughput = cJSON_GetObjectItem(doc, "throughput");
    assert_non_null(cJSON_GetObjectItem(throughput, "context"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(throughput, "benchmarks")), bench_rows(-1, -1, 1));
    cJSON_Delete(doc);
    md = slurp(path("report.md"));
    assert_non_null(strstr(md, "## ulpbench report: throughput"));
    /* and the targets those rounds measure (the 16-bit ones on every CPU: glibc is a peer); 16 Mi is not timed */
    assert_non_null(strstr(md, "## ulpbench report: throughput targets"));
    assert_non_null(strstr(md, "| 16-bit (every peer) | cos f16 | [-π, π] | 4 Ki | ≥ 1.00× | "));
    assert_null(strstr(md, "| 16 Mi |"));
    free(md);
    assert_int_equal(run("targets $D/report.json"), 0);
    md = slurp(path("out.txt"));
    assert_non_null(strstr(md, "| 16-bit (every peer) | cos f16 | [-π, π] | 4 Ki | ≥ 1.00× | "));
    assert_non_null(
        strstr(md, "| 16 Mi | ≥ 0.80× | – | – | not measured (no omk result at this size and input set) |"));
    free(md);
    /* a threshold omk cannot meet makes the gate fail with status 1; --no-bench leaves timing out */
    assert_int_equal(
        run("report --op asin --dtype f64 --samples 3000 --quiet --max-ulp f64=0 --no-bench --output-dir $D"), 1);
    md = slurp(path("report.md"));
    assert_non_null(strstr(md, "FAIL omk asin f64: max ULP 0.500 > 0\n"));
    assert_non_null(strstr(md, "Gate: FAILED (1 of 1 production row failed"));
    assert_null(strstr(md, "throughput"));
    free(md);
    /* the limit as given: rounded to three decimals, 0.4988 read as the 0.499 it was compared with */
    assert_int_equal(
        run("report --op asin --dtype f64 --samples 3000 --quiet --max-ulp f64=0.4988 --no-bench --output-dir $D"), 1);
    md = slurp(path("report.md"));
    assert_non_null(strstr(md, "FAIL omk asin f64: max ULP 0.500 > 0.4988\n"));
    free(md);
    doc = load_json("report.json");
    assert_null(cJSON_GetObjectItem(doc, "throughput"));
    /* the gate's record: the thresholds it applied, the kernels held to 0 misrounded, the failures */
    const cJSON *gate = cJSON_GetObjectItem(doc, "gate");
    const cJSON *f64_limits = cJSON_GetObjectItem(cJSON_GetObjectItem(gate, "thresholds"), "f64");
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItem(f64_limits, "max_ulp")) == 0.4988);
    assert_null(cJSON_GetObjectItem(f64_limits, "max_misrounded")); /* not gated for binary64 by default */
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItem(f64_limits, "max_special_mismatches")) == 0);
    const cJSON *held = cJSON_GetObjectItem(gate, "correctly_rounded");
    assert_int_equal(cJSON_GetArraySize(held), 1);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetArrayItem(held, 0)), "omk asin f64");
    const cJSON *failed = cJSON_GetObjectItem(gate, "failures");
    assert_int_equal(cJSON_GetArraySize(failed), 1);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetArrayItem(failed, 0)), "omk asin f64: max ULP 0.500 > 0.4988");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(gate, "passed")));
    cJSON_Delete(doc);
    /* --max-misrounded is applied as given (and written in full, as 2^53 - 1, not cJSON's 9.00719925474099e+15), and a
     * kernel it names is no longer held to 0 */
    assert_int_equal(run("report --op asin --dtype f64 --samples 300 --quiet --max-misrounded f64=9007199254740991 "
                         "--no-bench --output-dir $D"),
                     0);
    doc = load_json("report.json");
    gate = cJSON_GetObjectItem(doc, "gate");
    f64_limits = cJSON_GetObjectItem(cJSON_GetObjectItem(gate, "thresholds"), "f64");
    assert_true(cJSON_GetNumberValue(cJSON_GetObjectItem(f64_limits, "max_misrounded")) == 9007199254740991.0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(gate, "correctly_rounded")), 0);
    cJSON_Delete(doc);
    /* a limit of 0, given or the default, is written as 0 */
    assert_int_equal(run("report --op asin --dtype f64 --samples 300 --quiet --max-misrounded f64=0 --no-bench "
                         "--output-dir $D"),
                     0);
    doc = load_json("report.json");
    const cJSON *thresholds = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), "thresholds");
    const cJSON *f64_zero = cJSON_GetObjectItem(cJSON_GetObjectItem(thresholds, "f64"), "max_misrounded");
    assert_true(cJSON_IsNumber(f64_zero) && cJSON_GetNumberValue(f64_zero) == 0);
    cJSON_Delete(doc);
    /* a selection without omk passes, but says that nothing was gated */
    assert_int_equal(run("report --op cos --dtype f32 --impl glibc --samples 300 --quiet --no-bench --output-dir $D"),
                     0);
    md = slurp(path("report.md"));
    assert_non_null(strstr(md, "nothing was gated"));
    free(md);
    doc = load_json("report.json");
    const cJSON *gated_rows = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), "gated_rows");
    assert_true(cJSON_IsNumber(gated_rows) && gated_rows->valuedouble == 0);
    cJSON_Delete(doc);
    /* a new DIR is made (its parent must exist), and not left behind by a run that writes nothing to it */
    assert_int_equal(run("report --op cos --dtype f16 --impl omk --quiet --no-bench --output-dir $D/new_dir"), 0);
    assert_true(exists(path("new_dir/report.json")) && exists(path("new_dir/report.md")));
    /* a 16-bit report takes --seed for its bench's inputs, and records it */
    assert_int_equal(run("report --op cos --dtype f16 --impl omk --seed 7 --quiet --output-dir $D/seeded"), 0);
    doc = load_json("seeded/report.json");
    const cJSON *seed = cJSON_GetObjectItem(doc, "seed");
    assert_true(cJSON_IsNumber(seed) && seed->valuedouble == 7);
    cJSON_Delete(doc);
    expect_usage_error("report --op cos --dtype f16 --quiet --no-bench --output-dir $D/no/dir",
                       "cannot make --output-dir");
    setenv("ULPB_DISABLE_ISA", "avx2", 1);
    expect_usage_error("report --op cos --dtype f16 --impl sleef-u10-avx2 --quiet --no-bench --output-dir $D/unused",
                       "nothing to run");
    unsetenv("ULPB_DISABLE_ISA");
    assert_false(exists(path("unused")));
}

static const char *string_of(const cJSON *o, const char *key) {
    const cJSON *item = cJSON_GetObjectItem(o, key);
    if (!cJSON_IsString(item)) fail_msg("missing string '%s'", key);
    return item->valuestring;
}

static double number_of(const cJSON *o, const char *key) {
    const cJSON *item = cJSON_GetObjectItem(o, key);
    if (!cJSON_IsNumber(item)) fail_msg("missing number '%s'", key);
    return item->valuedouble;
}

/* An exhaustive run killed outright (SIGKILL: no handler runs) leaves its last checkpoint, a whole partial result;
 * resumed, it gives the uninterrupted run's result. */
static void exhaustive_checkpoint_survives_a_kill(void **state) {
    (void)state;
    char cmd[4096];
    /* 64 chunks on one thread (about a second here), a checkpoint every 0.02 s, killed once the first is there; the run
     * alone goes to the background, so that $! is ulpbench (a list would run in a subshell, which bash does not replace
     * by its last command) */
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s; %s accuracy --op cos --dtype f32 --exhaustive --shard 1/64 --threads 1 --checkpoint 0.02 "
             "--json %s --quiet >/dev/null 2>&1 & pid=$!; i=0; "
             "while [ ! -s %s ] && [ $i -lt 1200 ]; do sleep 0.01; i=$((i + 1)); done; kill -9 $pid; wait $pid; true",
             path("ck"), ULPBENCH_BIN, path("ck/c.json"), path("ck/c.json"));
    assert_int_equal(system(cmd), 0);
    cJSON *doc = load_json("ck/c.json");
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "covered")) > 0);
    cJSON_Delete(doc);
    /* A checkpoint that SIGKILL cut short leaves its temporary file, which the next write of c.json removes once it
     * is ten minutes old: planted here (the kill may come between checkpoints) an hour old, beside files of a live
     * process (this one), of another machine and a fresh one of the dead process, which stay. The dead process is a
     * child that has exited and been waited for. */
    const pid_t child = fork();
    if (child == 0) _exit(0);
    assert_true(child > 0);
    assert_int_equal(waitpid(child, NULL, 0), child);
    char host[72], dead[1024], live[1024], elsewhere[1024], fresh[1024], link[1024];
    ulpb_temp_host_label(host, sizeof host);
    snprintf(dead, sizeof dead, "%s/.c.json.tmp.%s.%ld.3", path("ck"), host, (long)child);
    snprintf(live, sizeof live, "%s/.c.json.tmp.%s.%ld.3", path("ck"), host, (long)getpid());
    snprintf(elsewhere, sizeof elsewhere, "%s/.c.json.tmp.%s-other.%ld.3", path("ck"), host, (long)child);
    snprintf(fresh, sizeof fresh, "%s/.c.json.tmp.%s.%ld.4", path("ck"), host, (long)child);
    snprintf(link, sizeof link, "%s/.c.json.tmp.%s.%ld.5", path("ck"), host, (long)child);
    const char *planted[] = {dead, live, elsewhere, fresh};
    for (int i = 0; i < 4; i++) {
        FILE *f = fopen(planted[i], "w");
        assert_non_null(f);
        fclose(f);
    }
    assert_int_equal(symlink("c.json", link), 0); /* not a regular file: it stays */
    /* every temporary file of c.json but the fresh one made an hour old, the killed run's own among them */
    DIR *ck = opendir(path("ck"));
    assert_non_null(ck);
    const struct timespec hour_ago[2] = {{time(NULL) - 3600, 0}, {time(NULL) - 3600, 0}};
    for (struct dirent *ent; (ent = readdir(ck));) {
        char name[1024];
        snprintf(name, sizeof name, "%s/%s", path("ck"), ent->d_name);
        if (strncmp(ent->d_name, ".c.json.tmp.", 12) == 0 && strcmp(name, fresh) != 0)
            assert_int_equal(utimensat(AT_FDCWD, name, hour_ago, AT_SYMLINK_NOFOLLOW), 0);
    }
    closedir(ck);
    assert_int_equal(run("accuracy --resume $D/ck/c.json --quiet"), 0);
    assert_int_equal(access(dead, F_OK), -1);
    assert_int_equal(access(live, F_OK), 0);
    assert_int_equal(access(elsewhere, F_OK), 0);
    assert_int_equal(access(fresh, F_OK), 0);
    struct stat link_stat;
    assert_int_equal(lstat(link, &link_stat), 0);
    unlink(live), unlink(elsewhere), unlink(fresh), unlink(link);
    assert_no_temp_files_in(path("ck"));
    assert_int_equal(run("accuracy --op cos --dtype f32 --exhaustive --shard 1/64 --json $D/ck/whole.json --quiet"), 0);
    doc = load_json("ck/c.json");
    cJSON *whole = load_json("ck/whole.json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(doc, "result"), cJSON_GetObjectItem(whole, "result"), true));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(doc, "state"), cJSON_GetObjectItem(whole, "state"), true));
    cJSON_Delete(doc);
    cJSON_Delete(whole);
    /* a SIGHUP the caller ignores (nohup) leaves the run going: exit status 0, not 3 (stopped). The signal goes once
     * the run has written its first checkpoint, while it still runs (a kill that finds no process fails the test). */
    snprintf(cmd, sizeof cmd,
             "(trap '' HUP; exec %s accuracy --op cos --dtype f32 --exhaustive --shard 2/64 --threads 1 --quiet "
             "--checkpoint 0.001 --json %s >/dev/null 2>&1) & pid=$!; i=0; "
             "while [ ! -s %s ] && [ $i -lt 1200 ]; do sleep 0.01; i=$((i + 1)); done; kill -HUP $pid || exit 99; "
             "wait $pid",
             ULPBENCH_BIN, path("ck/hup.json"), path("ck/hup.json"));
    const int ignored_hup = system(cmd);
    assert_true(WIFEXITED(ignored_hup));
    assert_int_equal(WEXITSTATUS(ignored_hup), 0);
    /* --checkpoint needs the file it writes, and an exhaustive run */
    assert_int_equal(run("accuracy --op cos --dtype f32 --exhaustive --shard 1/64 --checkpoint 5 --quiet"), 2);
    assert_int_equal(run("accuracy --op cos --dtype f32 --exhaustive --checkpoint 0.0001 --json $D/ck/x.json"), 2);
    assert_int_equal(run("accuracy --op cos --dtype f32 --samples 10 --checkpoint 5 --quiet"), 2);
    assert_int_equal(run("accuracy --op cos --dtype f32 --exhaustive --checkpoint -1 --json $D/ck/x.json"), 2);
}

/* accuracy --exhaustive --range: every binary32 input in the range, in shards that resume and merge only with their
 * own range. */
static void exhaustive_range_runs_resume_and_merge(void **state) {
    (void)state;
    static const char common[] = "accuracy --op asin --dtype f32 --exhaustive --range 0.5,0.75 --quiet";
    char args[256];
    snprintf(args, sizeof args, "%s --json $D/xr.json --markdown $D/xr.md", common);
    assert_int_equal(run(args), 0);
    expect_text_in("xr.md", "Every binary32 input in [0.5, 0.75] only (--range). Shard 0/1 (0-based), reference "
                            "fast: complete, 4194305 inputs, 1 fast-reference fallback to MPFR, ");
    /* with MPFR alone, no fallbacks are spoken of */
    assert_int_equal(run("accuracy --op asin --dtype f32 --exhaustive --range 0.5,0.5001 --reference mpfr"), 0);
    expect_text_in("out.txt", "Shard 0/1 (0-based), reference MPFR: complete, 1678 inputs, ");
    char *mpfr_only = slurp(path("out.txt"));
    assert_null(strstr(mpfr_only, "fallbacks"));
    free(mpfr_only);
    cJSON *whole = load_json("xr.json");
    const cJSON *range = cJSON_GetObjectItem(whole, "range");
    assert_true(cJSON_GetObjectItem(range, "lo")->valuedouble == 0.5);
    assert_true(cJSON_GetObjectItem(range, "hi")->valuedouble == 0.75);
    const cJSON *whole_result = cJSON_GetObjectItem(whole, "result");
    assert_true(number_of(whole_result, "inputs") == 0x1p22 + 1); /* 0.5 up to 0.75 in steps of 2^-24 */
    /* shard 0 of 2 (chunks 1008-1009 of the range's 1008-1012) stopped and resumed; a resume with another range is
     * refused */
    snprintf(args, sizeof args, "%s --shard 0/2 --max-chunks 1 --json $D/xr0.json", common);
    assert_int_equal(run(args), 3);
    expect_usage_error("accuracy --resume $D/xr0.json --range 0.5,0.8 --quiet", "--range differs from the file's");
    expect_usage_error("accuracy --resume $D/xr0.json --range 0.55,0.75 --quiet", "--range differs from the file's");
    expect_usage_error("accuracy --resume $D/xr0.json --shard 1/2 --quiet", "--shard differs from the file's");
    assert_int_equal(run("accuracy --resume $D/xr0.json --range 0.5,0.75 --quiet"), 0);
    snprintf(args, sizeof args, "%s --shard 1/2 --json $D/xr1.json", common);
    assert_int_equal(run(args), 0);
    cJSON *shard = load_json("xr1.json");
    assert_true(number_of(cJSON_GetObjectItem(shard, "result"), "inputs") == 0x1p21 + 1); /* chunks 1010-1012 */
    cJSON_Delete(shard);
    assert_int_equal(run("merge -o $D/xrm.json $D/xr1.json $D/xr0.json"), 0);
    cJSON *merged = load_json("xrm.json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(merged, "complete")));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(merged, "range"), range, true));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(merged, "result"), whole_result, true));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(merged, "state"), cJSON_GetObjectItem(whole, "state"), true));
    cJSON_Delete(merged);
    /* a shard of another range, or of no range, is refused */
    assert_int_equal(run("accuracy --op asin --dtype f32 --exhaustive --range 0.5,0.7 --shard 1/2 --quiet --json "
                         "$D/xr1b.json"),
                     0);
    expect_usage_error("merge -o $D/xrb.json $D/xr0.json $D/xr1b.json", "have different --range");
    assert_int_equal(run("accuracy --op asin --dtype f32 --exhaustive --shard 1/2 --max-chunks 1 --quiet --json "
                         "$D/xr1c.json"),
                     3);
    expect_usage_error("merge -o $D/xrb.json $D/xr0.json $D/xr1c.json", "have different --range");
    cJSON_Delete(whole);
}

/* gate holds saved results (sampled, exhaustive, merged, a report.json) to the report's gate, and refuses shards and
 * files that are no such result with stdout left empty. */
/* gate --this-build: a result of another commit (a job's stale cache) is refused, and stdout stays empty */
static void gate_this_build_checks(void) {
    if (!source_known("g16.json")) { /* a build outside a git checkout cannot tell commits apart */
        expect_usage_error("gate --this-build $D/g16.json", "--this-build: this ulpbench does not know what it was "
                                                            "built from");
        return;
    }
    assert_int_equal(run("gate --this-build $D/gr/report.json $D/g16.json"), 0);
    cJSON *stale = load_json("g16.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(stale, "environment"), "source", cJSON_CreateString("0123456789ab"));
    save_json(stale, "g16_stale.json");
    assert_int_equal(run("gate $D/g16_stale.json"), 0);
    expect_usage_error("gate --this-build $D/g16.json $D/g16_stale.json", "--this-build: ");
    expect_text_in("err.txt", "/g16_stale.json was measured in another environment (source: '0123456789ab', here '");
    char *stale_out = slurp(path("out.txt"));
    assert_string_equal(stale_out, "");
    free(stale_out);
    stale = load_json("g16.json");
    cJSON_DeleteItemFromObject(stale, "environment");
    save_json(stale, "g16_no_env.json");
    expect_usage_error("gate --this-build $D/g16_no_env.json",
                       "/g16_no_env.json records no \"environment\" to hold to");
    stale = load_json("g16.json"); /* an edit's number is no commit, and is named as such */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(stale, "environment"), "source", cJSON_CreateNumber(5));
    save_json(stale, "g16_source5.json");
    expect_usage_error("gate --this-build $D/g16_source5.json", "another environment (source: 'not a string', here '");
    /* the omk build in use is the gate's: OMK_ISA pinned for the run must be pinned for the gate */
    setenv("OMK_ISA", "scalar", 1);
    assert_int_equal(run("accuracy --op asin --dtype bf16 --impl omk --quiet --json $D/g_scalar.json"), 0);
    assert_int_equal(run("gate --this-build $D/g_scalar.json"), 0);
    unsetenv("OMK_ISA");
    if (strcmp(omk_isa_in_use(), "scalar") != 0)
        expect_usage_error("gate --this-build $D/g_scalar.json", "in another environment (omk_isa: 'scalar', here '");
}

static void gate_holds_saved_results(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk,glibc --quiet --json $D/g16.json"), 0);
    assert_int_equal(run("accuracy --op asin --dtype f32 --exhaustive --range 0.5,0.75 --quiet --json $D/gx.json"), 0);
    assert_int_equal(run_appending_to("gate $D/g16.json", "g16.json"), 2); /* the verdict would go into a result */
    expect_text_in("err.txt", "standard output is the input file");
    assert_int_equal(run("gate $D/g16.json $D/gx.json"), 0);
    expect_texts_in("out.txt",
                    (const char *[]){"- PASS omk cos f16 (",
                                     "/g16.json: exhaustive, 65536 inputs): 0 misrounded, max ULP 0.500\n",
                                     "- PEER glibc cos f16 (",
                                     "/gx.json: exhaustive, inputs in [0.5, 0.75] only, 4194305 inputs): 0 misrounded",
                                     "Gate: PASSED (2 production rows; peer rows are not gated).\n", NULL},
                    NULL);
    /* a limit the omk row exceeds fails it, and the gate */
    /* a worst input shown that is not the one the counters hold: the file was edited */
    cJSON *edited = load_json("g16.json");
    cJSON *shown_worst = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(edited, "results"), 0), "worst");
    assert_true(cJSON_ReplaceItemInObject(shown_worst, "input_bits", cJSON_CreateString("0x0001")));
    save_json(edited, "g16edit.json");
    expect_usage_error("gate $D/g16edit.json", "result 0: \"worst\" is not the state's worst input");
    assert_int_equal(run("gate --max-ulp f16=0.4 $D/g16.json"), 1);
    expect_texts_in("out.txt",
                    (const char *[]){"/g16.json: exhaustive, 65536 inputs): max ULP 0.500 > 0.4\n",
                                     "- FAIL omk cos f16 (",
                                     "Gate: FAILED (1 of 1 production row failed; peer rows are not gated).\n", NULL},
                    NULL);
    /* an exhaustive run stopped before its end proves nothing: it fails */
    assert_int_equal(run("accuracy --op cos --dtype f32 --exhaustive --max-chunks 1 --quiet --json $D/gp.json"), 3);
    assert_int_equal(run("gate $D/gp.json"), 1);
    expect_text_in("out.txt", "1048576 inputs): incomplete (continue it with --resume)\n");
    /* peers alone: nothing gated */
    assert_int_equal(run("accuracy --op asin --dtype bf16 --impl glibc --quiet --json $D/gg.json"), 0);
    assert_int_equal(run("gate $D/gg.json"), 0);
    expect_text_in("out.txt", "Gate: PASSED, but nothing was gated");
    /* a report.json, whose sampled rows count */
    assert_int_equal(
        run("report --op asin --dtype f64 --impl omk --samples 2000 --no-bench --quiet --output-dir $D/gr"), 0);
    assert_int_equal(run("gate $D/gr/report.json"), 0);
    expect_text_in("out.txt", "/gr/report.json: sampled, 2000 inputs): 0 misrounded");
    /* --min-inputs fails a row measured on too few inputs; --require names each row the files lack */
    assert_int_equal(run("gate --min-inputs f64=2000 --min-inputs f16=65536 $D/gr/report.json $D/g16.json"), 0);
    expect_text_in("out.txt", "Gate: PASSED (2 production rows; peer rows are not gated).\n");
    assert_int_equal(run("gate --min-inputs f64=2001 $D/gr/report.json $D/g16.json"), 1);
    expect_text_in("out.txt", "/gr/report.json: sampled, 2000 inputs): 2000 inputs < --min-inputs f64=2001\n");
    expect_text_in("out.txt", "Gate: FAILED (1 of 2 production rows failed; peer rows are not gated).\n");
    assert_int_equal(run("gate --max-ulp f64=0.4 --min-inputs f64=2001 $D/gr/report.json"), 1);
    expect_text_in("out.txt", "2000 inputs): max ULP 0.500 > 0.4, 2000 inputs < --min-inputs f64=2001\n");
    assert_int_equal(run("gate --require omk:cos:f16 --require omk:asin:f64 $D/gr/report.json $D/g16.json"), 0);
    assert_int_equal(run("gate --require omk:all:f16 --require omk:cos:all $D/g16.json"), 1);
    expect_texts_in("out.txt",
                    (const char *[]){"- PASS omk cos f16 (",
                                     "- MISSING omk asin f16: no row in the results (--require omk:all:f16)\n",
                                     "- MISSING omk cos bf16: no row in the results (--require omk:cos:all)\n",
                                     "- MISSING omk cos f64: no row in the results (--require omk:cos:all)\n",
                                     "Gate: FAILED (0 of 1 production row failed; 4 required rows missing; peer rows "
                                     "are not gated).\n",
                                     NULL},
                    (const char *[]){"- MISSING omk cos f16", "- MISSING omk asin bf16", NULL});
    /* a limit for a dtype the run dropped: the row --require names fails as missing, where alone it would be refused */
    assert_int_equal(run("gate --require omk:all:all --max-ulp f64=1 --min-inputs bf16=2 $D/g16.json"), 1);
    expect_text_in("out.txt", "- MISSING omk asin f64: no row in the results (--require omk:all:all)\n");
    /* a file name's control character cannot start a line of the verdict */
    char odd_copy[600];
    snprintf(odd_copy, sizeof odd_copy, "cp %s \"%s/$(printf 'x\\nGate: PASSED')\"", path("g16.json"), g_dir);
    assert_int_equal(system(odd_copy), 0);
    assert_int_equal(run("gate --max-ulp f16=0.4 \"$D/$(printf 'x\\nGate: PASSED')\""), 1);
    char *verdict = slurp(path("out.txt"));
    assert_non_null(strstr(verdict, "/x?Gate: PASSED: exhaustive, 65536 inputs): max ULP 0.500 > 0.4\n"));
    assert_null(strstr(verdict, "\nGate: PASSED"));
    free(verdict);
    assert_int_equal(run("gate --require omk:asin:bf16 $D/gg.json"), 1); /* a peer's row stands for no omk row */
    expect_text_in("out.txt", "- MISSING omk asin bf16: no row in the results (--require omk:asin:bf16)\n");
    expect_text_in("out.txt", "Gate: FAILED (1 required row missing; peer rows are not gated).\n");
    gate_this_build_checks(); /* on g16.json and gr/report.json */
    /* merged sampled shards, and a ranged report: a whole run each */
    assert_int_equal(run("accuracy --op asin --dtype f64 --samples 1000 --shard 0/2 --quiet --json $D/gs0.json"), 0);
    assert_int_equal(run("accuracy --op asin --dtype f64 --samples 1000 --shard 1/2 --quiet --json $D/gs.json"), 0);
    assert_int_equal(run("merge -o $D/gsm.json $D/gs0.json $D/gs.json"), 0);
    assert_int_equal(run("report --op cos --dtype f16 --impl omk --range 0.5,0.75 --no-bench --quiet --output-dir "
                         "$D/grr"),
                     0);
    assert_int_equal(run("gate $D/gsm.json $D/grr/report.json"), 0);
    expect_text_in("out.txt", "/gsm.json: sampled, 1000 inputs): 0 misrounded");
    expect_text_in("out.txt", "/grr/report.json: exhaustive, inputs in [0.5, 0.75] only, 513 inputs): 0 misrounded");
    /* a shard with its "shard" taken out, or a 16-bit result with its range: not a whole run's counts */
    cJSON *doc = load_json("gs.json");
    cJSON_DeleteItemFromObject(doc, "shard");
    save_json(doc, "gs_unsharded.json");
    doc = load_json("g16.json");
    cJSON *range = cJSON_CreateObject();
    cJSON_AddNumberToObject(range, "lo", 0.5), cJSON_AddNumberToObject(range, "hi", 0.75);
    cJSON_ReplaceItemInObject(doc, "range", range);
    save_json(doc, "g16_ranged.json");
    doc = load_json("g16.json"); /* one result twice */
    cJSON *results = cJSON_GetObjectItem(doc, "results");
    cJSON_AddItemToArray(results, cJSON_Duplicate(cJSON_GetArrayItem(results, 0), true));
    save_json(doc, "g16_twice.json");
    doc = load_json("g16.json");
    cJSON_ReplaceItemInObject(doc, "schema_version", cJSON_CreateNumber(999));
    save_json(doc, "g16_v999.json");
    doc = load_json("g16.json"); /* a max ULP that the state does not hold: shown, but not what gate reads */
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0), "max_ulp",
                              cJSON_CreateNumber(5));
    save_json(doc, "g16_shown.json");
    /* refused, with exit 2 and nothing on stdout: shards, a bench run, a missing file, a limit given twice */
    assert_int_equal(run("accuracy --op asin --dtype f64 --samples 1000 --shard 1/2 --quiet --json $D/gs.json"), 0);
    assert_int_equal(run("accuracy --op cos --dtype f32 --exhaustive --shard 7/4096 --quiet --json $D/gxs.json"), 0);
    assert_int_equal(run("bench --op cos --dtype f16 --impl omk --sizes 4096 --rounds 1 --quiet --json $D/gb.json"), 0);
    static const struct {
        const char *args, *needle;
    } refused[] = {
        {"gate $D/g16.json $D/gs.json", "is shard 1/2 of a sampled run: merge the shards first (ulpbench merge)"},
        {"gate $D/gxs.json", "is shard 7/4096 of an exhaustive run: merge the shards first"},
        {"gate $D/g16.json $D/gb.json", "not the JSON of ulpbench accuracy, report or merge (no \"schema\")"},
        {"gate $D/g16.json $D/none.json", "cannot open"},
        {"gate --max-ulp f16=1 --max-ulp f16=2 $D/g16.json", "--max-ulp f16 given twice"},
        {"gate --max-misrounded f32=x $D/g16.json", "--max-misrounded needs DTYPE=COUNT"},
        {"gate", "no result files"},
        {"gate $D/gs_unsharded.json",
         "result 0 (omk asin f64) is sampled with 501 inputs, where a whole run's is sampled with 1000: a shard's"},
        {"gate $D/g16_ranged.json", "is exhaustive over 65536 inputs, where a whole run's is exhaustive over 513"},
        {"gate $D/g16_twice.json", "results 0 and 2 are both omk cos f16"},
        {"gate $D/g16_v999.json", "schema_version is not 1"},
        {"gate $D/g16_shown.json", "\"max_ulp\" 5 is not the state's "},
        {"gate $D/g16.json $D/gx.json $D/./g16.json", "/g16.json' are the same file: give each result once"},
        {"gate --max-ulp f64=1 $D/g16.json $D/gx.json", "--max-ulp f64=... limits a dtype the results hold no row of"},
        {"gate --max-misrounded bf16=0 $D/g16.json",
         "--max-misrounded bf16=... limits a dtype the results hold no row"},
        {"gate --min-inputs f32=1 $D/g16.json", "--min-inputs f32=... limits a dtype the results hold no row of"},
        {"gate --min-inputs f16=0 $D/g16.json", "--min-inputs needs DTYPE=COUNT (DTYPE f16|bf16|f32|f64, COUNT in 1.."},
        {"gate --min-inputs f16=1 --min-inputs f16=2 $D/g16.json", "--min-inputs f16 given twice"},
        {"gate --require omk:cos $D/g16.json", "--require needs IMPL:OP:DTYPE (OP cos|asin|all, DTYPE "},
        {"gate --require omk:tan:f16 $D/g16.json", "--require 'omk:tan:f16': unknown op 'tan' (expected cos|asin|all)"},
        {"gate --require omk:cos:f8 $D/g16.json", "--require 'omk:cos:f8': unknown dtype 'f8'"},
        {"gate --require nobody:cos:f16 $D/g16.json",
         "unknown implementation 'nobody' (see ulpbench list; your own kernels need ULPB_LIBRARIES)"},
        {"gate --require omk:cos: $D/g16.json", "--require 'omk:cos:': unknown dtype ''"},
        {"gate --require glibc:cos:f16 $D/g16.json", "'glibc' is a peer, and the gate holds only omk's rows and"},
        {"gate --require memcpy:cos:f16 $D/g16.json", "'memcpy' is a baseline, and the gate holds only"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
        expect_refused_silently(refused[k].args, refused[k].needle);
}

/* gate holds the rows of ULPB_LIBRARIES as report does, each kind counted apart, and takes --max-misrounded's value. */
static void gate_holds_library_rows(void **state) {
    (void)state;
    char setting[600];
    snprintf(setting, sizeof setting, "demo=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("accuracy --op cos --dtype f32 --impl demo,omk --samples 3000 --quiet --json $D/gl.json"), 0);
    assert_int_equal(run("gate $D/gl.json"), 1);
    expect_text_in("out.txt", "- FAIL demo cos f32 (");
    expect_text_in("out.txt", "Gate: FAILED (0 of 1 production row and 1 of 1 row of ULPB_LIBRARIES failed).\n");
    assert_int_equal(run("gate --max-misrounded f32=3000 $D/gl.json"), 0);
    expect_text_in("out.txt", "- PASS demo cos f32 (");
    expect_text_in("out.txt", "Gate: PASSED (1 production row and 1 row of ULPB_LIBRARIES).\n");
    /* --this-build holds a library's rows to the libraries loaded, and a result without such rows to none */
    if (source_known("gl.json")) {
        assert_int_equal(run("gate --this-build --max-misrounded f32=3000 $D/gl.json"), 0);
        assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);
        assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/gl_omk.json"), 0);
        assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
        assert_int_equal(run("gate --this-build $D/gl_omk.json"), 0);
    }
    /* --require names a library's rows: the demo library has cos f32 and the others that the run did not measure */
    assert_int_equal(run("gate --max-misrounded f32=3000 --require demo:cos:f32 $D/gl.json"), 0);
    assert_int_equal(run("gate --max-misrounded f32=3000 --require demo:all:f32 $D/gl.json"), 1);
    expect_text_in("out.txt", "- MISSING demo asin f32: no row in the results (--require demo:all:f32)\n");
    expect_text_in("out.txt", "Gate: FAILED (0 of 1 production row and 0 of 1 row of ULPB_LIBRARIES failed; 1 "
                              "required row missing).\n");
    /* the same name for another file (a rebuilt library, say: here the same one with a byte appended, which the loader
     * ignores): its rows are not the ones measured */
    FILE *original = fopen(ULPB_DEMO_KERNELS, "rb"), *rebuilt = fopen(path("rebuilt.so"), "wb");
    assert_true(original && rebuilt);
    char block[4096];
    for (size_t got; (got = fread(block, 1, sizeof block, original)) > 0;)
        assert_int_equal(fwrite(block, 1, got, rebuilt), got);
    assert_int_equal(fputc(0, rebuilt), 0);
    assert_int_equal(fclose(rebuilt), 0);
    fclose(original);
    snprintf(setting, sizeof setting, "demo=%s", path("rebuilt.so"));
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    expect_refused_silently("gate $D/gl.json", "gl.json was run with other libraries than ULPB_LIBRARIES loads here");
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);
    expect_usage_error("gate $D/gl.json",
                       "names no registry entry (demo cos f32; a library's rows need ULPB_LIBRARIES");
    /* a result without their rows is gated whatever is loaded: one run without libraries, gated with one loaded, and
     * one run with a library loaded but not measured, gated without */
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/gn.json"), 0);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("gate $D/gn.json"), 0);
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/gn.json"), 0);
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);
    assert_int_equal(run("gate $D/gn.json"), 0);
}

/* An exhaustive run stopped and resumed keeps the command that started it, with the resuming one beside it. */
static void exhaustive_resume_keeps_the_command(void **state) {
    (void)state;
    assert_int_equal(
        run("accuracy --op asin --dtype f32 --exhaustive --shard 0/2048 --max-chunks 1 --quiet --json $D/ex.json"), 3);
    assert_int_equal(run("accuracy --resume $D/ex.json --quiet --markdown $D/ex.md"), 0);
    /* complete now: resuming it again leaves it as it was, and the Markdown, to --markdown or stdout, never replaces
     * it or is appended to it */
    char *completed = slurp(path("ex.json"));
    expect_usage_error("accuracy --resume $D/ex.json --quiet --markdown $D/ex.json", "names input");
    assert_int_equal(run_appending_to("accuracy --resume $D/ex.json --quiet", "ex.json"), 2);
    char *unchanged = slurp(path("ex.json"));
    assert_string_equal(completed, unchanged);
    free(completed), free(unchanged);
    cJSON *doc = load_json("ex.json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
    /* the recorded command gives the result in one go: --max-chunks, which stopped the first run, is left out */
    assert_non_null(strstr(string_of(doc, "command"), "--exhaustive --shard 0/2048 --quiet --json"));
    assert_null(strstr(string_of(doc, "command"), "--max-chunks"));
    assert_non_null(strstr(string_of(doc, "resumed_with"), "--resume"));
    cJSON_Delete(doc);
    /* as "--max-chunks=N" too; given twice, refused (getopt would keep the last) */
    expect_usage_error("accuracy --op asin --dtype f32 --exhaustive --max-chunks 2 --shard 2/2048 --max-chunks=1 "
                       "--quiet --json $D/ex3.json",
                       "option '--max-chunks' given twice");
    assert_int_equal(
        run("accuracy --op asin --dtype f32 --exhaustive --shard 2/2048 --max-chunks=1 --quiet --json $D/ex3.json"), 3);
    doc = load_json("ex3.json");
    assert_non_null(strstr(string_of(doc, "command"), "--exhaustive --shard 2/2048 --quiet --json"));
    assert_null(strstr(string_of(doc, "command"), "--max-chunks"));
    cJSON_Delete(doc);
    /* its progress line says what is left after the chunks --max-chunks allowed (shard 3 of 2048: two chunks) */
    assert_int_equal(
        run("accuracy --op asin --dtype f32 --exhaustive --shard 3/2048 --max-chunks=1 --json $D/ex4.json"), 3);
    expect_text_in("err.txt", "[asin f32 omk] 100.0% 1/1 chunks, ");
    expect_text_in("err.txt", " (--max-chunks: 1 more left to --resume)\n");
    char *md = slurp(path("ex.md"));
    assert_non_null(strstr(md, "Resumed with: `"));
    /* both runs' time in the implementation and in the reference, apart, in the JSON and in the Markdown row */
    doc = load_json("ex.json");
    char times[64];
    snprintf(times, sizeof times, "| %.3f | %.2f |\n", number_of(doc, "impl_seconds"),
             number_of(doc, "reference_seconds"));
    assert_true(number_of(doc, "impl_seconds") > 0 && number_of(doc, "reference_seconds") > 0);
    cJSON_Delete(doc);
    assert_non_null(strstr(md, times));
    free(md);
    /* a complete result resumed again runs nothing: the file stays byte for byte (its resuming command too), even
     * read-only, and another --json gets the same result */
    char *complete = slurp(path("ex.json"));
    assert_int_equal(run("accuracy --resume $D/ex.json --quiet --markdown $D/ex_again.md"), 0);
    char *again = slurp(path("ex.json"));
    assert_string_equal(again, complete);
    free(again);
    md = slurp(path("ex_again.md"));
    assert_non_null(strstr(md, "Resumed with: `"));
    assert_non_null(strstr(md, "/ex.md`")); /* the command that completed it, not this one */
    assert_null(strstr(md, "ex_again.md"));
    free(md);
    assert_int_equal(chmod(path("ex.json"), 0444), 0);
    assert_int_equal(run("accuracy --resume $D/ex.json --quiet"), 0);
    assert_int_equal(chmod(path("ex.json"), 0644), 0);
    assert_int_equal(run("accuracy --resume $D/ex.json --quiet --json $D/ex_copy.json"), 0);
    /* but not one of another environment: its exit 0 would pass a job whose cached file measured an earlier build */
    cJSON *earlier = load_json("ex.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(earlier, "environment"), "source",
                              cJSON_CreateString("0123456789ab"));
    save_json(earlier, "ex_earlier.json");
    char *earlier_text = slurp(path("ex_earlier.json"));
    expect_usage_error("accuracy --resume $D/ex_earlier.json --quiet",
                       "is a complete result of another environment (source: '0123456789ab', here '");
    expect_text_in("err.txt", "'): it does not measure this build; run without --resume to measure it\n");
    char *earlier_after = slurp(path("ex_earlier.json"));
    assert_string_equal(earlier_after, earlier_text);
    free(earlier_text), free(earlier_after);
    /* its notice names the file with a control character as '?', on one line */
    char copy_odd[600];
    snprintf(copy_odd, sizeof copy_odd, "cp %s \"%s/$(printf 'e\\nx\\033.json')\"", path("ex.json"), g_dir);
    assert_int_equal(system(copy_odd), 0);
    assert_int_equal(run("accuracy --resume \"$D/$(printf 'e\\nx\\033.json')\" --quiet"), 0);
    expect_text_in("err.txt", "/e?x?.json' is a complete result: nothing was run, the file is left as it was\n");
    doc = load_json("ex.json");
    cJSON *copy = load_json("ex_copy.json");
    assert_true(cJSON_Compare(doc, copy, true));
    cJSON_Delete(doc), cJSON_Delete(copy);
    free(complete);
    /* a command edited to hold a terminal's control sequence is shown with '?' for it, not sent to the terminal */
    doc = load_json("ex.json");
    assert_true(cJSON_ReplaceItemInObject(doc, "command",
                                          cJSON_CreateString("ulpbench \x1b[2J accuracy \xc2\x9b"
                                                             "2J \u00e9")));
    save_json(doc, "ex_esc.json");
    assert_int_equal(run("accuracy --resume $D/ex_esc.json --quiet"), 0);
    char *shown = slurp(path("out.txt"));
    if (strchr(shown, '\x1b') || !strstr(shown, "`ulpbench ?[2J accuracy ?2J \u00e9`"))
        fail_msg("an edited command's control character: stdout '%.300s'", shown);
    free(shown);
    /* a partial result whose counters do not match what it covers, or whose state is no error sum, is refused: the
     * resumed run would add to it and report a complete result with wrong counts */
    assert_int_equal(
        run("accuracy --op asin --dtype f32 --exhaustive --shard 1/2048 --max-chunks 1 --quiet --json $D/ex2.json"), 3);
    for (int edit = 0; edit < 25; edit++) {
        doc = load_json("ex2.json");
        const char *needle = "covered";
        cJSON *result = cJSON_GetObjectItem(doc, "result");
        cJSON *st = cJSON_GetObjectItem(doc, "state");
        if (edit == 22) { /* what a reader sees must be what the tools read: the worst input, the run's end */
            cJSON_ReplaceItemInObject(cJSON_GetObjectItem(result, "worst"), "input_bits",
                                      cJSON_CreateString("0x3f083a1b"));
            needle = "\"worst\" is not the state's worst input";
        } else if (edit == 23) {
            cJSON_ReplaceItemInObject(cJSON_GetObjectItem(result, "worst"), "input", cJSON_CreateString("snan"));
            needle = "\"worst\" is not the state's worst input";
        } else if (edit == 24) {
            cJSON_ReplaceItemInObject(doc, "complete", cJSON_CreateTrue());
            needle = "\"complete\" is not false, which \"covered\" says";
        } else if (edit ==
                   21) { /* a chunk's sum of errors above what its errors, each at most max_ulp, can add up to */
            cJSON *sums = cJSON_GetObjectItem(st, "chunk_ulp_sums");
            assert_true(cJSON_GetArraySize(sums) == 1);
            cJSON_ReplaceItemInObject(sums, sums->child->string, cJSON_CreateString("0x1p+900"));
            needle = "exceeds";
        } else if (edit == 17) { /* a blank before the bits, which no writer puts there */
            cJSON_ReplaceItemInObject(result, "misrounded_inputs",
                                      cJSON_CreateStringArray((const char *[]){" 0x00200001"}, 1));
            needle = "malformed \"misrounded_inputs\"";
        } else if (edit == 18 || edit == 19) { /* a maximum that is not in the histogram's highest bin */
            cJSON *hist = cJSON_GetObjectItem(result, "histogram");
            if (edit == 18) {
                cJSON_SetNumberValue(cJSON_GetObjectItem(hist, "<=0.5"),
                                     cJSON_GetObjectItem(hist, "<=0.5")->valuedouble - 1);
                cJSON_SetNumberValue(cJSON_GetObjectItem(hist, ">4"), 1);
            } else {
                cJSON_ReplaceItemInObject(st, "max_ulp", cJSON_CreateString("0x1p+900"));
            }
            needle = "is not in the histogram's highest bin";
        } else if (edit == 20) { /* a worst input whose value is not the one its bits encode */
            cJSON_ReplaceItemInObject(st, "worst_input", cJSON_CreateString("0x1p-1"));
            needle = "\"worst_input\" is not the f32 input that \"worst_bits\" names";
        } else if (edit ==
                   6) { /* a misrounded input listed that the counters do not count, or outside the chunks run */
            cJSON_ReplaceItemInObject(result, "misrounded_inputs",
                                      cJSON_CreateStringArray((const char *[]){"0x00200001"}, 1));
            needle = "lists 1 inputs for 0 misrounded";
        } else if (edit == 7) {
            cJSON_ReplaceItemInObject(result, "misrounded_inputs",
                                      cJSON_CreateStringArray((const char *[]){"0xdeadbeef"}, 1));
            needle = "outside \"covered\"";
        } else if (edit == 8) { /* a negative count would wrap around to 2^64 - 7 */
            cJSON_SetNumberValue(cJSON_GetObjectItem(result, "reference_fallbacks"), -7);
            needle = "\"reference_fallbacks\" is -7, not a count";
        } else if (edit == 9) {
            cJSON_SetNumberValue(cJSON_GetObjectItem(doc, "schema_version"), 99);
            needle = "schema_version is not 1";
        } else if (edit == 10) {
            cJSON_ReplaceItemInObject(doc, "reference", cJSON_CreateString("x"));
            needle = "reference";
        } else if (edit == 11) {
            cJSON_SetNumberValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "shard"), "index"), 1.5);
            needle = "bad shard 1.5/2048";
        } else if (edit == 12) {
            cJSON_SetNumberValue(cJSON_GetObjectItem(doc, "reference_seconds"), -1);
            needle = "\"reference_seconds\" is -1, not a duration";
        } else if (edit == 13) {
            cJSON_ReplaceItemInObject(doc, "impl_seconds", cJSON_CreateString("1"));
            needle = "impl_seconds";
        } else if (edit == 15) { /* a worst input that this shard never ran */
            cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "state"), "worst_bits",
                                      cJSON_CreateString("0xfffffff0"));
            needle = "\"worst_bits\" or \"special_bits\" lies outside \"covered\"";
        } else if (edit == 16) { /* both chunks of the shard claimed, one run: the other would never be measured */
            const double both[2] = {0x200000, 0x400000};
            cJSON *covered = cJSON_CreateArray();
            cJSON_AddItemToArray(covered, cJSON_CreateDoubleArray(both, 2));
            cJSON_ReplaceItemInObject(doc, "covered", covered);
            needle = "inputs counted, but \"covered\" holds";
        } else if (edit == 14) { /* refused as a new run of it is: memcpy's outputs are its inputs */
            cJSON_ReplaceItemInObject(doc, "impl", cJSON_CreateString("memcpy"));
            needle = "'memcpy' is a throughput baseline";
        } else if (edit == 4) { /* started by another omk build: the resumed result would mix two */
            needle = "another environment (omk_isa: 'other-isa'";
            cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "environment"), "omk_isa",
                                      cJSON_CreateString("other-isa"));
        } else if (edit == 5) { /* outcomes that do not add up to the inputs */
            needle = "is not \"inputs\"";
            cJSON *count = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "result"), "correctly_rounded");
            cJSON_SetNumberValue(count, count->valuedouble - 1000);
        } else if (edit == 0) {
            cJSON_ReplaceItemInObject(doc, "covered", cJSON_CreateArray());
        } else if (edit == 1) { /* a chunk of another shard */
            const double other[2] = {0, 1 << 20};
            cJSON *covered = cJSON_CreateArray();
            cJSON_AddItemToArray(covered, cJSON_CreateDoubleArray(other, 2));
            cJSON_ReplaceItemInObject(doc, "covered", covered);
        } else {
            needle = edit == 2 ? "max_ulp" : "ulp_sum";
            cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "state"), needle, cJSON_CreateString("nan"));
        }
        save_json(doc, "ex2bad.json");
        char *before = slurp(path("ex2bad.json"));
        assert_int_equal(run("accuracy --resume $D/ex2bad.json --quiet"), 2);
        char *after = slurp(path("ex2bad.json")), *err = slurp(path("err.txt"));
        if (!one_line_with(err, needle))
            fail_msg("edit %d: stderr '%s' (wanted one line with '%s')", edit, err, needle);
        assert_string_equal(before, after);
        free(before), free(after), free(err);
    }
    /* a partial result written before the implementation's and the reference's times were recorded resumes, and its
     * times read as unknown */
    doc = load_json("ex2.json");
    cJSON_DeleteItemFromObject(doc, "impl_seconds");
    cJSON_DeleteItemFromObject(doc, "reference_seconds");
    save_json(doc, "ex2old.json");
    assert_int_equal(run("accuracy --resume $D/ex2old.json --quiet --markdown $D/ex2old.md"), 0);
    md = slurp(path("ex2old.md"));
    assert_non_null(strstr(md, "| - | - |\n"));
    free(md);
    /* resumed on another CPU (a rescheduled job): both are named */
    doc = load_json("ex2.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "environment"), "cpu", cJSON_CreateString("Other CPU"));
    save_json(doc, "ex2cpu.json");
    assert_int_equal(run("accuracy --resume $D/ex2cpu.json --quiet"), 0);
    doc = load_json("ex2cpu.json");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(doc, "complete")));
    assert_non_null(strstr(string_of(cJSON_GetObjectItem(doc, "environment"), "cpu"), "Other CPU; "));
    cJSON_Delete(doc);
}

/* A baseline named beside implementations is skipped with a notice, so that one --impl list serves report's accuracy
 * and throughput tables; named alone it leaves nothing to run. */
static void named_baseline_is_skipped(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op asin --dtype bf16 --impl omk,memcpy --quiet --json $D/skip.json"), 0);
    char *err = slurp(path("err.txt"));
    if (!one_line_with(err, "skipped 'memcpy', a throughput baseline")) fail_msg("stderr '%s'", err);
    free(err);
    cJSON *doc = load_json("skip.json");
    const cJSON *results = cJSON_GetObjectItem(doc, "results");
    assert_int_equal(cJSON_GetArraySize(results), 1);
    assert_string_equal(string_of(cJSON_GetArrayItem(results, 0), "impl"), "omk");
    cJSON_Delete(doc);
    expect_usage_error("accuracy --op asin --dtype bf16 --impl memcpy --quiet",
                       "nothing to run: 'memcpy', a throughput baseline");
}

/* The fields Google Benchmark's JSON reporter writes and tools/compare.py reads, and one median
 * aggregate per (implementation, op, dtype, size, input set) the CPU runs. */
static void bench_writes_google_benchmark_json(void **state) {
    (void)state;
    assert_int_equal(run("bench --quick --sizes 256,1000 --rounds 3 --quiet --op cos --dtype f32 --json $D/b.json "
                         "--markdown $D/b.md"),
                     0);
    cJSON *doc = load_json("b.json");
    const cJSON *ctx = cJSON_GetObjectItem(doc, "context");
    string_of(ctx, "date");
    string_of(ctx, "host_name");
    string_of(ctx, "executable");
    assert_true(number_of(ctx, "num_cpus") >= 1);
    number_of(ctx, "mhz_per_cpu");
    assert_true(cJSON_IsBool(cJSON_GetObjectItem(ctx, "cpu_scaling_enabled")));
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(ctx, "caches")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(ctx, "load_avg")), 3);
    string_of(ctx, "library_build_type");
    assert_int_equal(number_of(ctx, "json_schema_version"), 1);
    assert_non_null(strstr(string_of(ctx, "command"), "--sizes 256,1000"));
    string_of(ctx, "cpu");
    string_of(ctx, "compiler");
    string_of(ctx, "sleef");

    const cJSON *benchmarks = cJSON_GetObjectItem(doc, "benchmarks");
    assert_int_equal(cJSON_GetArraySize(benchmarks), bench_rows(ULPB_OP_cos, ULPB_DTYPE_f32, 2));
    const cJSON *b;
    cJSON_ArrayForEach(b, benchmarks) {
        const char *run_name = string_of(b, "run_name");
        char want[200];
        snprintf(want, sizeof want, "%s_median", run_name);
        assert_string_equal(string_of(b, "name"), want);
        char op[16], dtype[16], impl[64], set[16];
        unsigned long size;
        assert_int_equal(sscanf(run_name, "%15[^/]/%15[^/]/%63[^/]/%lu/%15s", op, dtype, impl, &size, set), 5);
        assert_string_equal(op, "cos");
        assert_string_equal(dtype, "f32");
        assert_true(size == 256 || size == 1000);
        assert_string_equal(string_of(b, "run_type"), "aggregate");
        assert_string_equal(string_of(b, "aggregate_name"), "median");
        assert_string_equal(string_of(b, "time_unit"), "ns");
        assert_int_equal(number_of(b, "repetitions"), 3);
        assert_int_equal(number_of(b, "threads"), 1);
        assert_int_equal(number_of(b, "iterations"), ulpb_bench_blocks(size, 4)); /* calls in one round */
        number_of(b, "family_index");
        number_of(b, "per_family_instance_index");
        const double real_time = number_of(b, "real_time");
        /* one thread: its CPU time is at most the wall time */
        assert_true(real_time > 0 && number_of(b, "cpu_time") >= 0 && number_of(b, "cpu_time") <= real_time);
        /* real_time is per call of `size` elements; items_per_second counts elements */
        assert_true(fabs(number_of(b, "items_per_second") * real_time * 1e-9 / (double)size - 1) < 1e-9);
        assert_true(number_of(b, "spread") >= 0);
        const double ratio = number_of(b, "ratio_to_omk");
        if (strcmp(impl, "omk") == 0) assert_true(ratio == 1.0);
        assert_int_equal(number_of(b, "ratio_to_memcpy") > 0, 1);
        assert_int_equal(number_of(b, "elements_per_round"), ulpb_bench_elements_per_round(size, 4));
        /* names are unique */
        const cJSON *other;
        int same = 0;
        cJSON_ArrayForEach(other, benchmarks) same += strcmp(string_of(other, "name"), string_of(b, "name")) == 0;
        assert_int_equal(same, 1);
    }
    cJSON_Delete(doc);
    char *md = slurp(path("b.md"));
    assert_non_null(strstr(md, "### cos f32"));
    assert_non_null(strstr(md, "| omk | "));
    assert_non_null(strstr(md, "| 256 [-π, π] |"));
    free(md);
}

/* --range replaces the input sets: one column per selected op, its bounds in the JSON. */
static void bench_custom_range(void **state) {
    (void)state;
    assert_int_equal(run("bench --op cos --dtype f32 --impl omk,memcpy --sizes 300 --rounds 3 --range -1e30,1e30 "
                         "--quiet --json $D/r.json --markdown $D/r.md"),
                     0);
    cJSON *doc = load_json("r.json");
    const cJSON *benchmarks = cJSON_GetObjectItem(doc, "benchmarks");
    assert_int_equal(cJSON_GetArraySize(benchmarks), 2);
    const cJSON *b;
    cJSON_ArrayForEach(b, benchmarks) {
        /* the bounds in the name, so that compare.py pairs rows only of runs over the same range */
        assert_non_null(strstr(string_of(b, "run_name"), "/300/range:-1e+30,1e+30"));
        assert_true(number_of(b, "input_low") == -1e30 && number_of(b, "input_high") == 1e30);
    }
    cJSON_Delete(doc);
    char *md = slurp(path("r.md"));
    assert_non_null(strstr(md, "300 [-1e30, 1e30]")); /* the bounds as given */
    free(md);
    /* bounds that %g would print alike, and a subnormal bound, a number as written (glibc's strtod flags its underflow
     * with ERANGE); one below binary64's range is not: it would read as 0 */
    static const char *const ranges[][2] = {{"1,1.0000001", "64 [1, 1.0000001]"}, {"0,2e-310", "64 [0, 2e-310]"}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        char args[256];
        snprintf(args, sizeof args,
                 "bench --op cos --dtype f64 --impl omk --sizes 64 --rounds 1 --range %s --quiet "
                 "--markdown $D/r.md",
                 ranges[i][0]);
        assert_int_equal(run(args), 0);
        md = slurp(path("r.md"));
        assert_non_null(strstr(md, ranges[i][1]));
        free(md);
    }
    expect_usage_error("bench --op cos --dtype f64 --impl omk --sizes 64 --rounds 1 --range 0,1e-400", "--range");
    /* a range outside asin's domain times its NaN results, and says so */
    assert_int_equal(run("bench --op all --dtype f32 --impl omk --sizes 64 --rounds 1 --range 1,3 --quiet --markdown "
                         "$D/r.md"),
                     0);
    md = slurp(path("r.md"));
    char *err = slurp(path("err.txt"));
    assert_non_null(strstr(md, "| 64 [1, 3] (outside asin's domain) |"));
    assert_non_null(strstr(md, "| 64 [1, 3] |")); /* cos's column */
    if (!one_line_with(err, "--range 1,3 holds no input inside asin's domain (-1, 1)")) fail_msg("stderr '%s'", err);
    free(md), free(err);
    assert_int_equal(run("bench --op asin --dtype f32 --impl omk --sizes 64 --rounds 1 --range -2,-0.5 --quiet "
                         "--markdown $D/r.md"),
                     0);
    expect_text_in("r.md", "| 64 [-2, -0.5] |");
    /* the JSON's bounds read back as the very doubles (15 digits would turn the largest binary64 into infinity) */
    assert_int_equal(run("bench --op cos --dtype f64 --impl omk --sizes 64 --rounds 1 --range "
                         "-1.7976931348623157e308,0.30000000000000004 --quiet --json $D/r.json"),
                     0);
    doc = load_json("r.json");
    b = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "benchmarks"), 0);
    if (number_of(b, "input_low") != -DBL_MAX || number_of(b, "input_high") != 0.30000000000000004)
        fail_msg("bounds read back as %a, %a", number_of(b, "input_low"), number_of(b, "input_high"));
    cJSON_Delete(doc);
}

static void bench_rejects_bad_options(void **state) {
    (void)state;
    const struct {
        const char *args, *needle;
    } cases[] = {
        {"bench --sizes 0", "--sizes"},
        {"bench --sizes 4096,x", "--sizes"},
        {"bench --sizes ''", "--sizes"},
        /* digits only, as for every other integer option: strtoull would take blanks and signs */
        {"bench --sizes ' 64'", "--sizes"},
        {"bench --sizes +64", "--sizes"},
        {"bench --sizes '64, 128'", "--sizes"},
        {"bench --rounds 0", "--rounds"},
        {"bench --impl nosuch", "'nosuch'"},
        {"bench --impl omk,nosuch", "'nosuch'"},
        {"bench --impl omk,,memcpy", "without empty ones"},
        {"bench --impl omk,", "without empty ones"},
        {"bench --op tan", "unknown op 'tan'"},
        {"bench --dtype f8", "unknown dtype 'f8'"},
        {"bench extra", "unexpected argument"},
        {"bench --range 3,1", "--range"},
        {"bench --range 1", "--range"},
        {"bench --range 0,inf", "--range"},
        /* strtod gives 0 for a bound below binary64's range: the column would name a range the inputs do not span */
        {"bench --op cos --dtype f64 --range 1e-400,1e-300",
         "--range 1e-400,1e-300: 1e-400 underflows binary64 (its smallest magnitude is 2^-1074"},
        {"bench --op cos --dtype f64 --range 1,1e999",
         "--range 1,1e999: 1e999 overflows binary64 (its largest magnitude is about 1.8e308)"},
        {"bench --op cos --dtype f64 --range 2,1", "--range needs LO,HI: two finite binary64 numbers with LO < HI"},
        {"bench --op cos --range -1e30,1e30", "f16's finite range"},
        /* inputs cast to the dtype: a range of one value would be timed as that value and labelled as the range */
        {"bench --op cos --dtype f32 --range 1e-300,1e-299", "holds fewer than two f32 values"},
        {"bench --op cos --dtype f32 --range -1e-300,1e-300", "holds fewer than two f32 values"},
        {"bench --op cos --dtype f16 --range 1,1.0001", "holds fewer than two f16 values"},
        /* ends that round to two values, with one value (or none) of the dtype between them */
        {"bench --op cos --dtype f32 --range 1e-46,1e-45", "holds fewer than two f32 values"},
        {"bench --op cos --dtype f16 --range 1,1.0005", "holds fewer than two f16 values"},
        {"bench --op cos --dtype bf16 --range 1,1.005", "holds fewer than two bf16 values"},
        {"bench --op cos --dtype f64 --range "
         "1,2.00000000000000000000000000000000000000000000000000000000000000000000000000"
         "0000000000000000000000000000000000000000000000000000000",
         "longer than 120 characters"},
        /* a repeated size would give two benchmarks one name (a short run if it is not refused) */
        {"bench --sizes 64,64 --rounds 1 --op cos --dtype f16 --impl omk --quiet", "--sizes lists 64 twice"},
        {"bench --sizes 64,128,64 --rounds 1 --op cos --dtype f16 --impl omk --quiet", "--sizes lists 64 twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_usage_error(cases[i].args, cases[i].needle);
    }
}

/* The environment's settings name what a run measures: a word that reads as help but is an option's value ("--json
 * -h" names a file) must not let a wrong one through, while help asked for is shown whatever they say. A report's
 * directory that a signal stops before it is written to is removed, as on any failure. */
static void environment_errors_and_help(void **state) {
    (void)state;
    char prefix[700];
    snprintf(prefix, sizeof prefix, "cd '%s' && OMK_HALF16=tabel ", g_dir);
    const int status = run_program(prefix, ULPBENCH_BIN, "accuracy --op cos --dtype f16 --impl omk --quiet --json -h");
    char *err = slurp(path("err.txt"));
    if (status != 2 || !one_line_with(err, "OMK_HALF16=tabel is no 16-bit method"))
        fail_msg("--json -h with OMK_HALF16=tabel: status %d, stderr '%s'", status, err);
    free(err);
    assert_false(exists(path("-h")));
    static const char *const timeouts[] = {"soon", "-1", "1e10", " 5", "nan", "5s", "0x10", "inf"};
    for (size_t k = 0; k < sizeof timeouts / sizeof *timeouts; k++) {
        char setting[64], needle[64];
        snprintf(setting, sizeof setting, "ULPB_KERNEL_TIMEOUT='%s' ", timeouts[k]);
        snprintf(needle, sizeof needle, "ULPB_KERNEL_TIMEOUT=%s is no decimal number of seconds", timeouts[k]);
        const int timeout_status = run_program(setting, ULPBENCH_BIN, "list");
        err = slurp(path("err.txt"));
        if (timeout_status != 2 || !one_line_with(err, needle))
            fail_msg("%s: status %d, stderr '%s'", setting, timeout_status, err);
        free(err);
    }
    assert_int_equal(run_program("ULPB_KERNEL_TIMEOUT=0.25 ", ULPBENCH_BIN, "list"), 0);
    char *out;
    static const char *const helps[] = {"accuracy --quiet --help", "accuracy --quiet --hel", "eval --h", "--he"};
    for (size_t k = 0; k < sizeof helps / sizeof *helps; k++) { /* abbreviated too, as every long option */
        assert_int_equal(run_program(prefix, ULPBENCH_BIN, helps[k]), 0);
        out = slurp(path("out.txt"));
        assert_non_null(strstr(out, "usage: ulpbench "));
        free(out);
    }
    /* --version names ulpbench's version and the build of omk it runs, as OMK_ISA chose it */
    assert_int_equal(run_program("OMK_ISA=scalar ", ULPBENCH_BIN, "--version"), 0);
    out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "ulpbench 0."));
    assert_non_null(strstr(out, "(scalar build, 16-bit types: table)"));
    free(out);
    /* an empty OMK_ISA is no choice, for libomk as for ulpbench */
    assert_int_equal(run_program("OMK_ISA= ", ULPBENCH_BIN, "list"), 0);
    char cmd[2048];
    snprintf(
        cmd, sizeof cmd,
        "cd '%s' && { '%s' report --no-bench --output-dir sigdir --quiet >/dev/null 2>&1 & pid=$!; n=0; "
        "while [ ! -d sigdir ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done; kill -TERM $pid; wait $pid; }",
        g_dir, ULPBENCH_BIN);
    const int stopped = system(cmd);
    assert_true(WIFEXITED(stopped));
    assert_int_equal(WEXITSTATUS(stopped), 128 + SIGTERM); /* stopped by the signal, not finished or failed */
    assert_false(exists(path("sigdir")));
}

/* Usage errors are one line: getopt's own message is off, and an unknown command does not dump
 * the whole usage. */
static void usage_errors_are_one_line(void **state) {
    (void)state;
    const struct {
        const char *args, *needle;
    } cases[] = {
        {"", "missing command"},
        {"frobnicate", "unknown command 'frobnicate'"},
        {"--version extra", "--version takes no arguments"},
        /* a control character from the command line would break the line: shown as '?' */
        {"accuracy --op \"$(printf 'x\\ny')\" --dtype f32", "unknown op 'x?y'"},
        {"\"$(printf 'a\\tb')\"", "unknown command 'a?b'"},
        {"\"$(printf 'a\\302\\233b')\"", "unknown command 'a?b'"},      /* U+009B, a terminal's CSI in UTF-8 */
        {"\"$(printf 'a\\302\\240b')\"", "unknown command 'a\u00a0b'"}, /* U+00A0 is no control */
        {"list --bogus", "unknown option '--bogus'"},
        {"accuracy --op cos --bogus", "unknown option '--bogus'"},
        {"accuracy --op", "option '--op' needs a value"},
        {"accuracy --quiet=yes", "option '--quiet' takes no value"},
        {"report --no-bench --output-dir $D --max-ulp f64=1e-400", "--max-ulp needs a finite non-negative number"},
        /* an abbreviation of several options names them (a unique one is taken, as getopt_long does) */
        {"accuracy --s 10", "ambiguous option '--s' (--samples, --seed, --shard; try --help)"},
        {"bench --r=3", "ambiguous option '--r' (--rounds, --range; try --help)"},
        {"report --shard 0/2", "unknown option '--shard'"},
        {"accuracy --op cos --dtype f16 --impl all,omk", "--impl all cannot be combined with names"},
        {"bench --op cos --dtype f16 --impl omk,all", "--impl all cannot be combined with names"},
        {"eval --op cos --impl all $D/x.npy $D/y.npy", "unknown implementation 'all'"},
        /* many tools' name for stdout, which a file of that name would silently take */
        {"accuracy --op cos --dtype f16 --json -", "an output named '-': give /dev/stdout for standard output"},
        {"bench --op cos --dtype f16 --quick --markdown -", "an output named '-'"},
        {"accuracy --op cos --dtype f32 --range 1,0", "--range needs LO,HI: two finite binary64 numbers with LO < HI"},
        {"accuracy --op cos --dtype f32 --range -1e400,0", "--range -1e400,0: -1e400 overflows binary64"},
        {"accuracy --op cos --dtype f32 --range -1e-400,1", "--range -1e-400,1: -1e-400 underflows binary64"},
        {"accuracy --op cos --dtype f32 --range 1e-400x,1", "--range needs LO,HI: two finite binary64 numbers"},
        {"accuracy --op cos --dtype f32 --range 1e400,2,3", "--range needs LO,HI: two finite binary64 numbers"},
        {"accuracy --op cos --dtype f32 --range abc,1e400", "--range needs LO,HI: two finite binary64 numbers"},
        {"accuracy --op cos --dtype f32 --range inf,1e400", "--range needs LO,HI: two finite binary64 numbers"},
        {"accuracy --op cos --dtype f32 --range \"0,1e400 \"", "--range needs LO,HI: two finite binary64 numbers"},
        {"accuracy --op cos --dtype f32 --range 0,nan", "--range needs LO,HI"},
        {"accuracy --op cos --dtype f32 --exhaustive --range 1e39,2e39", "--range 1e39,2e39 holds no f32 value"},
        {"accuracy --op asin --exhaustive --range 0.5,0.75 --shard 5/6",
         "--shard 5/6: --range 0.5,0.75 spans 5 chunks of 2^20 inputs, fewer than 6 shards"},
        {"accuracy --op cos --dtype all --range 7e4,8e4", "--range 7e4,8e4 holds no f16 value; choose --dtype"},
        {"accuracy --op cos --dtype f32 --range 1e39,2e39", "holds no f32 value"},
        {"report --op cos --dtype all --range 0,7e4 --output-dir $D/rq",
         "leaves f16's finite range (largest 65504); choose --dtype or --no-bench"},
        {"report --op cos --dtype f16 --no-bench --range 7e4,8e4 --output-dir $D/rq", "holds no f16 value"},
        {"report --op cos --dtype all --no-bench --range 7e4,8e4 --output-dir $D/rq",
         "holds no f16 value; choose --dtype"},
        /* the note on asin's domain comes after every other usage check, so that an error stays one line */
        {"report --op asin --dtype f32 --range 2,3 --max-ulp f16=1 --output-dir $D/rq",
         "limits a dtype this run does not check"},
        /* each command's abbreviations among its own options: the other command's make none unknown or ambiguous */
        {"report --e", "unknown option '--e'"},
        {"accuracy --ou x", "unknown option '--ou'"},
        {"report --sh 0/2", "unknown option '--sh'"},
        /* report names its own files: a --json that it would not write is refused, not ignored */
        {"report --op cos --dtype f16 --no-bench --output-dir $D --json $D/r.json", "--output-dir"},
        {"bench -x", "unknown option '-x'"},
        {"bench --json", "option '--json' needs a value"},
        {"eval --op", "option '--op' needs a value"},
        {"merge -o", "option '-o' needs a value"},
        {"merge -z $D/a.json", "unknown option '-z'"},
        {"hard-cases --bogus", "unknown option '--bogus'"},
        {"hard-cases --starts 0", "--starts needs an integer in 1..1000000, got '0'"},
        {"hard-cases --seed -1", "--seed needs an integer in 0..2^53"},
        {"hard-cases --threads 0", "--threads needs an integer in 1..1024, got '0'"},
        {"hard-cases --dtype f16", "--dtype needs f32 or f64, got 'f16'"},
        /* the binary32 search takes every input: a seed or span would describe a search it does not do */
        {"hard-cases --dtype f32 --seed 3", "--seed belongs to the binary64 search"},
        {"hard-cases --span 8 --dtype f32", "--span belongs to the binary64 search"},
        {"hard-cases --range 1,2", "--range belongs to the binary32 search"},
        {"hard-cases --dtype f32 --range 1.00000001,1.00000002", "--range 1.00000001,1.00000002 holds no binary32"},
        {"hard-cases --dtype f32 --range 2,1",
         "--range needs LO,HI: two finite binary64 numbers with LO < HI, got '2,1'"},
        {"hard-cases --dtype f32 --op asin --range 2,3", "--range 2,3 holds no input of asin's domain [-1, 1]"},
        /* a limit for a dtype the run does not check would gate nothing */
        {"report --no-bench --op cos --dtype f16 --max-ulp f32=1", "--max-ulp f32=... limits a dtype this run does"},
        {"report --no-bench --op cos --dtype f16 --max-misrounded bf16=0", "--max-misrounded bf16=... limits a dtype"},
        /* a long option with one dash: the whole word is named */
        {"accuracy -op cos", "unknown option '-o' in '-op' (long options take two dashes"},
        /* seeds and counts are recorded as JSON numbers: beyond 2^53 they would be recorded wrong */
        {"accuracy --op cos --dtype f32 --seed 9007199254740993", "--seed needs an integer in 0..2^53"},
        {"bench --seed 18446744073709551615", "--seed needs an integer in 0..2^53"},
        /* strtoull alone would take a blank and a sign: ' -1' is 2^64 - 1 samples */
        {"accuracy --op cos --dtype f32 --samples ' -1'", "--samples needs an integer in 1..2^53"},
        {"accuracy --op cos --dtype f32 --samples 10 --shard 4294967297/4294967298", "--shard needs K/N"},
        {"accuracy --op cos --dtype f32 --samples 100 --shard 2/2", "--shard needs K/N with 0 <= K < N"},
        /* the largest value each range allows is taken: the run gets as far as its unwritable output */
        {"bench --rounds 10000 --json /nonexistent/x.json", "cannot write '/nonexistent/x.json'"},
        {"bench --sizes 134217728 --json /nonexistent/x.json", "cannot write '/nonexistent/x.json'"},
        {"report --max-ulp f64=2.2250738585072014e-308 --output-dir /nonexistent/a", "cannot make --output-dir"},
        {"accuracy --op cos --dtype f32 --exhaustive --checkpoint 0.001 --json /nonexistent/x.json",
         "cannot write '/nonexistent/x.json'"},
        {"report --no-bench --output-dir ''", "--output-dir needs a directory name"},
        /* result files are read from regular files: a device or pipe would never end or never start */
        {"merge /dev/zero", "is not a regular file"},
        /* an exhaustive run has no samples and no seed: taking them silently would misdescribe it */
        {"accuracy --op cos --dtype f32 --exhaustive --seed 3 --max-chunks 1", "do not apply"},
        /* memcpy has no accuracy, in the exhaustive mode as in the sampled one */
        {"accuracy --op cos --dtype f32 --exhaustive --impl memcpy --max-chunks 1", "throughput baseline"},
        {"accuracy --op cos --dtype f32 --samples 10 --impl memcpy", "throughput baseline"},
        {"accuracy --op cos --dtype f32 --exhaustive --impl omk,glibc", "--exhaustive takes one --impl"},
        {"accuracy --op cos --dtype f32 --exhaustive --impl all", "--exhaustive takes one --impl, got 'all'"},
        /* a run stopped to be resumed must save its state: without --json, exit 3 would promise a resumable file */
        {"accuracy --op cos --dtype f32 --exhaustive --shard 3/4096 --max-chunks 1 --quiet", "it needs --json FILE"},
        {"accuracy --op cos --dtype f32 --exhaustive --shard 3/1024 --max-chunks 1 --quiet --json /dev/null",
         "'/dev/null' is not a regular file"},
        {"accuracy --op cos --dtype f32 --impl omk,,glibc", "without empty ones"},
        {"report --no-bench --impl omk,bogus", "unknown implementation 'bogus'"},
        /* the 16-bit types have no fast reference: a run labelled fast would be MPFR's */
        {"accuracy --op cos --dtype f16 --reference fast", "--reference fast is for f32 and f64"},
        /* likewise a sample count or seed: the run would not be the one its command describes */
        {"accuracy --op cos --dtype f16 --samples 10", "--samples and --seed are for f32 and f64"},
        {"accuracy --op asin --dtype bf16 --seed 3", "--samples and --seed are for f32 and f64"},
        {"report --no-bench --op cos --dtype f16 --samples 10 --seed 5", "--samples and --seed are for f32 and f64"},
        {"report --no-bench --op cos --dtype f16 --seed 5", "report's --seed also draws the bench inputs"},
        /* strtod skips leading blanks; the other numeric options refuse them */
        {"report --no-bench --max-ulp 'f32= 1'", "--max-ulp needs a finite non-negative number"},
        {"report --no-bench --max-ulp f32=nan", "--max-ulp needs a finite non-negative number"},
        /* an infinite limit would be written to report.json as null */
        {"report --no-bench --max-ulp f64=inf", "--max-ulp needs a finite non-negative number"},
        {"report --no-bench --max-ulp f64=1e999", "--max-ulp needs a finite non-negative number"},
        /* the next option is no value: taken as one, it would name a file '--quiet' and leave quiet mode off */
        {"accuracy --op cos --dtype f16 --impl omk --json --quiet", "option '--json' needs a value"},
        {"bench --op cos --markdown --quiet", "option '--markdown' needs a value"},
        {"bench --range ' 1,2'", "--range needs LO,HI"},
        {"bench --range '1, 2'", "--range needs LO,HI"},
        /* an option's value given twice: getopt would keep the last and drop the first silently */
        {"accuracy --op cos --dtype f16 --json $D/a.json --json $D/b.json", "option '--json' given twice"},
        {"accuracy --op cos --op asin --dtype f16", "option '--op' given twice"},
        {"bench --json $D/a.json --json=$D/b.json", "option '--json' given twice"},
        {"eval --op cos --op asin $D/in.npy $D/out.npy", "option '--op' given twice"},
        {"merge -o $D/m.json --output $D/n.json $D/a.json", "option '--output' given twice"},
        {"hard-cases --op cos --op asin", "option '--op' given twice"},
        {"report --no-bench --output-dir $D --seed 1 --seed 2", "option '--seed' given twice"},
        {"report --no-bench --output-dir $D --max-ulp f64=1e-310", "(0, or from 2^-1022 on)"},
        /* the per-dtype thresholds repeat, one value per dtype */
        {"report --no-bench --output-dir $D --max-ulp f64=0.5 --max-ulp f64=5", "--max-ulp f64 given twice"},
        {"report --no-bench --output-dir $D --max-misrounded f32=0 --max-misrounded f32=9",
         "--max-misrounded f32 given twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_usage_error(cases[i].args, cases[i].needle);
    }
    assert_false(exists("--quiet"));
    assert_false(exists(path("rq"))); /* the refused reports made no directory */
    /* OMK_HALF16, like OMK_ISA, must name a method this run uses: libomk takes a typo for the default */
    setenv("OMK_HALF16", "tables", 1);
    const int half16_status = run("list");
    unsetenv("OMK_HALF16");
    char *half16_err = slurp(path("err.txt"));
    if (half16_status != 2 || !one_line_with(half16_err, "OMK_HALF16=tables is no 16-bit method"))
        fail_msg("OMK_HALF16=tables: status %d, stderr '%s'", half16_status, half16_err);
    free(half16_err);
    /* the default seed (and 0) are seeds like any other */
    assert_int_equal(run("hard-cases --op asin --seed 20261130 --starts 1 --span 1 --keep 1"), 0);
    assert_int_equal(run("hard-cases --op asin --seed 0 --starts 1 --span 1 --keep 1"), 0);
    char *asin_only = slurp(path("out.txt")); /* the header names the op searched */
    static const char asin_header[] = "# Hard-to-round binary64 inputs for asin, made by:\n";
    if (strncmp(asin_only, asin_header, sizeof asin_header - 1) != 0) fail_msg("'%.80s'", asin_only);
    free(asin_only);
    /* every starting point of an asin search lies in its domain, drawn in turn from its uniform, near-1 and tiny
     * samplers: with one input per start, six starts give six rows, two of them tiny */
    assert_int_equal(run("hard-cases --op asin --starts 6 --span 1 --keep 6 --threads 1"), 0);
    char *starts = slurp(path("out.txt"));
    int search_rows = 0, tiny_rows = 0;
    for (const char *line = starts; (line = strstr(line, "\nasin ")); line++) {
        unsigned long long input;
        char source[16];
        if (sscanf(line, "\nasin %llx %*s %*s %15s", &input, source) == 2 && strcmp(source, "search") == 0) {
            search_rows++;
            tiny_rows += (input & 0x7fffffffffffffffull) < 0x3e50000000000000ull; /* below 2^-26 */
        }
    }
    if (search_rows != 6 || tiny_rows != 2) fail_msg("%d search rows, %d tiny: '%s'", search_rows, tiny_rows, starts);
    free(starts);
    /* the table does not depend on the thread count (only the recorded command differs: line 2) */
    assert_int_equal(run("hard-cases --starts 40 --span 64 --keep 6 --threads 1"), 0);
    char *one = slurp(path("out.txt"));
    assert_int_equal(run("hard-cases --starts 40 --span 64 --keep 6 --threads 2"), 0);
    char *two = slurp(path("out.txt"));
    const char *rest_one = strchr(strchr(one, '\n') + 1, '\n'), *rest_two = strchr(strchr(two, '\n') + 1, '\n');
    assert_non_null(rest_one);
    assert_non_null(rest_two);
    assert_string_equal(rest_one, rest_two);
    free(one), free(two);
    /* binary32 over a range: the hardest asin input of the whole domain (tests/data/hard_cases_f32.txt) is the hardest
     * of any range around it, with the same exact distance; and the rows do not depend on the thread count */
    assert_int_equal(run("hard-cases --dtype f32 --op asin --range 0.532,0.5325 --keep 2 --threads 1"), 0);
    one = slurp(path("out.txt"));
    if (!strstr(one, "\nasin 0x3f083a1a 0x3f0fa5b2 6.928e-10 search\nasin 0x3f084fa7 "))
        fail_msg("hard-cases --dtype f32 --range: '%s'", one);
    assert_int_equal(run("hard-cases --dtype f32 --op asin --range 0.532,0.5325 --keep 2 --threads 2"), 0);
    two = slurp(path("out.txt"));
    assert_string_equal(strchr(strchr(one, '\n') + 1, '\n'), strchr(strchr(two, '\n') + 1, '\n'));
    free(one), free(two);
    /* the expected result is the binary32 rounding of the exact value, not of its binary64 rounding (which rounds
     * twice: 0x3f78142e here) */
    assert_int_equal(run("hard-cases --dtype f32 --op cos --range 1.72699833e20,1.72699835e20 --keep 1 --threads 1"),
                     0);
    one = slurp(path("out.txt"));
    if (!strstr(one, "\ncos 0x6115cb11 0x3f78142f ")) fail_msg("hard-cases at 0x6115cb11: '%s'", one);
    free(one);
    /* a range holding x and -x ranks x once: [-2^-149, 2^-149] is +-0 and +-2^-149 */
    assert_int_equal(run("hard-cases --dtype f32 --op cos --range -1.5e-45,1.5e-45 --keep 4"), 0);
    one = slurp(path("out.txt"));
    const char *rows = strstr(one, "\ncos ");
    if (!rows ||
        strcmp(rows, "\ncos 0x00000000 0x3f800000 5.000e-01 search\ncos 0x00000001 0x3f800000 5.000e-01 search\n"))
        fail_msg("hard-cases --range -1.5e-45,1.5e-45: '%s'", one);
    free(one);
    /* a negative range lists the switch point's negation (asin is odd), and --op all says which op has no input */
    assert_int_equal(run("hard-cases --dtype f32 --op all --range -0.5001,-0.5 --keep 1 --threads 1"), 0);
    one = slurp(path("out.txt"));
    if (!strstr(one, "\nasin 0xbf000000 0xbf060a92 ") || !strstr(one, " structural\n"))
        fail_msg("hard-cases --range -0.5001,-0.5: '%s'", one);
    free(one);
    /* a switch point the search keeps too is listed once */
    assert_int_equal(run("hard-cases --dtype f32 --op asin --range 0.49999997,0.5 --keep 5 --threads 1"), 0);
    one = slurp(path("out.txt"));
    rows = strstr(one, "\nasin ");
    if (!rows ||
        strcmp(rows, "\nasin 0x3f000000 0x3f060a92 2.555e-01 search\nasin 0x3effffff 0x3f060a91 3.218e-01 search\n"))
        fail_msg("hard-cases --range 0.49999997,0.5: '%s'", one);
    free(one);
    assert_int_equal(run("hard-cases --dtype f32 --op all --range 2,2.0001 --keep 1 --threads 1"), 0);
    one = slurp(path("out.txt"));
    if (!strstr(one, "\n# asin: no input of its domain [-1, 1] in the range\n") || strstr(one, "\nasin "))
        fail_msg("hard-cases --op all --range 2,2.0001: '%s'", one);
    free(one);
}

/* An output that cannot be written is refused before the run (nothing on stdout, which gets the
 * tables once a run has happened), and no other output of the command appears. */
static void unwritable_output_fails_before_the_run(void **state) {
    (void)state;
    const struct {
        const char *args, *needle, *absent;
    } cases[] = {
        {"accuracy --op cos --dtype f16 --impl omk --quiet --json $D/h1.json --markdown $D/nodir/h1.md", "nodir/h1.md",
         "h1.json"},
        {"accuracy --op cos --dtype f16 --impl omk --quiet --json $D/nodir/h2.json --markdown $D/h2.md",
         "nodir/h2.json", "h2.md"},
        {"accuracy --op cos --dtype f32 --exhaustive --max-chunks 1 --quiet --json $D/h3.json --markdown "
         "$D/nodir/h3.md",
         "nodir/h3.md", "h3.json"},
        {"bench --op cos --dtype f32 --impl omk --sizes 64 --rounds 1 --quiet --json $D/h4.json "
         "--markdown $D/nodir/h4.md",
         "nodir/h4.md", "h4.json"},
        {"report --op cos --dtype f16 --impl omk --no-bench --quiet --output-dir $D/nodir/sub",
         "cannot make --output-dir '" /* the path follows */, "nodir"},
        {"merge -o $D/nodir/m.json $D/no-such-shard.json", "nodir/m.json", "nodir"},
        /* one file named for both outputs: the second would silently replace the first */
        {"accuracy --op cos --dtype f16 --impl omk --quiet --json $D/h5 --markdown $D/h5", "h5", "h5"},
        {"accuracy --op cos --dtype f16 --impl omk --quiet --json $D/h6 --markdown $D/./h6", "./h6", "h6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int status = run(cases[i].args);
        char *err = slurp(path("err.txt")), *out = slurp(path("out.txt"));
        if (status != 2 || !one_line_with(err, cases[i].needle) || !out || *out)
            fail_msg("'%s': status %d, stderr '%s', stdout '%.80s' (wanted exit 2, one line with '%s', no run)",
                     cases[i].args, status, err, out, cases[i].needle);
        free(err), free(out);
        if (exists(path(cases[i].absent))) fail_msg("'%s' left %s behind", cases[i].args, cases[i].absent);
        assert_no_temp_files();
    }
}

/* The directory of outputs_another_user_cannot_replace_are_refused, removed by the group's teardown even when the test
 * fails. */
static char g_user_home[] = "/tmp/ulpb_cli_user_XXXXXX";
static int g_user_home_made;

/* Outputs a rename could not replace are refused before the run, as another user would meet them: a read-only file of
 * one's own, and another user's file in a directory with the sticky bit (as /tmp), which only its owner may replace.
 * Root passes every permission check, so as root the cases run through setpriv as the user nobody, on a copy of
 * ulpbench in a directory that user can reach (the build tree may sit in one it cannot); skipped when that user cannot
 * run it (no setpriv, a user namespace without uid 65534, a noexec /tmp). Not as root, only the read-only case runs. */
static void outputs_another_user_cannot_replace_are_refused(void **state) {
    (void)state;
    const int as_root = geteuid() == 0;
    if (as_root && access("/usr/bin/setpriv", X_OK) != 0) {
        print_message("skipped: running as root without /usr/bin/setpriv to run as another user\n");
        skip();
    }
    assert_non_null(mkdtemp(g_user_home));
    g_user_home_made = 1;
    const char *home = g_user_home;
    char cmd[2048], bin[600], sticky[600], open_dir[600], theirs[700], read_only[700], fresh[700];
    snprintf(bin, sizeof bin, "%s/ulpbench", home);
    snprintf(sticky, sizeof sticky, "%s/sticky", home);
    snprintf(open_dir, sizeof open_dir, "%s/open", home);
    snprintf(theirs, sizeof theirs, "%s/theirs.json", sticky);
    snprintf(read_only, sizeof read_only, "%s/read_only.json", open_dir);
    snprintf(fresh, sizeof fresh, "%s/fresh.json", open_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", ULPBENCH_BIN, bin);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(chmod(home, 0755), 0);
    assert_int_equal(mkdir(sticky, 01777), 0);
    assert_int_equal(chmod(sticky, 01777), 0); /* past the umask */
    assert_int_equal(mkdir(open_dir, 0777), 0);
    assert_int_equal(chmod(open_dir, 0777), 0);
    const char *as_user = as_root ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    const int probe = run_program(as_user, bin, "--help");
    if (probe != 0) {
        print_message("skipped: %s'%s' --help did not run (exit status %d)\n", as_user, bin, probe);
        skip();
    }
    const uid_t user = as_root ? 65534 : geteuid();
    const gid_t group = as_root ? 65534 : getegid();
    FILE *f = fopen(read_only, "w");
    assert_non_null(f);
    fputs("keep\n", f);
    fclose(f);
    assert_int_equal(chown(read_only, user, group), 0);
    assert_int_equal(chmod(read_only, 0444), 0);
    /* the other user's file: root's when testing as nobody; writable by all, so only the sticky bit stops a rename */
    f = fopen(theirs, "w");
    assert_non_null(f);
    fputs("keep\n", f);
    fclose(f);
    assert_int_equal(chmod(theirs, 0666), 0);
    const struct {
        const char *target, *needle;
        int status;
        int needs_root;
    } cases[] = {
        {fresh, NULL, 0, 0}, /* the control: this user can run ulpbench and write a new file here */
        {read_only, "Permission denied", 2, 0},
        {theirs, "another user's file in a directory with the sticky bit", 2, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].needs_root && !as_root) {
            print_message("skipped '%s': not root, so no other user's file can be made\n", cases[i].target);
            continue;
        }
        char args[800];
        snprintf(args, sizeof args, "accuracy --op cos --dtype f16 --impl omk --quiet --json '%s'", cases[i].target);
        const int status = run_program(as_user, bin, args);
        char *err = slurp(path("err.txt")), *kept = slurp(cases[i].target);
        if (status != cases[i].status || (cases[i].needle && !one_line_with(err, cases[i].needle)))
            fail_msg("--json %s: status %d, stderr '%s' (wanted %d%s%s)", cases[i].target, status, err, cases[i].status,
                     cases[i].needle ? " and one line with " : "", cases[i].needle ? cases[i].needle : "");
        if (cases[i].status && (!kept || strcmp(kept, "keep\n") != 0))
            fail_msg("--json %s: a refused output was changed: '%s'", cases[i].target, kept);
        if (!cases[i].status && (!kept || !strstr(kept, "\"schema_version\"")))
            fail_msg("--json %s: no result written", cases[i].target);
        free(err), free(kept);
        assert_no_temp_files_in(open_dir);
        assert_no_temp_files_in(sticky);
    }
    /* a file shared with a group the user is in: replaced by the user, it stays the group's, with its permissions */
    if (as_root) {
        char shared[700];
        snprintf(shared, sizeof shared, "%s/shared.json", open_dir);
        f = fopen(shared, "w");
        assert_non_null(f);
        fputs("keep\n", f);
        fclose(f);
        assert_int_equal(chown(shared, 0, 65533), 0);
        assert_int_equal(chmod(shared, 0664), 0);
        char args[800];
        snprintf(args, sizeof args, "accuracy --op cos --dtype f16 --impl omk --quiet --json '%s'", shared);
        assert_int_equal(run_program("/usr/bin/setpriv --reuid=65534 --regid=65534 --groups=65533 ", bin, args), 0);
        struct stat st;
        assert_int_equal(stat(shared, &st), 0);
        if (st.st_gid != 65533 || (st.st_mode & 07777) != 0664 || st.st_uid != 65534)
            fail_msg("the group's file replaced by a member: %u:%u mode %04o (wanted 65534:65533 0664)",
                     (unsigned)st.st_uid, (unsigned)st.st_gid, (unsigned)(st.st_mode & 07777));
    }
}

/* An output that fails when the results are written (a full disk) is exit status 2 with nothing on stdout, whose copy
 * in a pipeline would otherwise pass for the report of a run that succeeded. */
static void failed_write_leaves_stdout_empty(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json /dev/full"), 2);
    char *err = slurp(path("err.txt")), *out = slurp(path("out.txt"));
    if (!one_line_with(err, "/dev/full") || !out || *out) fail_msg("stderr '%s', stdout '%.80s'", err, out);
    free(err), free(out);
}

/* A symbolic link is followed (its target replaced, the link kept) and a pipe is written through: renaming
 * over either would replace the link or the pipe itself (as root, a --json /dev/null would replace the device). */
static void outputs_through_links_and_pipes(void **state) {
    (void)state;
    FILE *f = fopen(path("target.json"), "w");
    fputs("old\n", f);
    fclose(f);
    assert_int_equal(symlink("target.json", path("link.json")), 0);
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/link.json"), 0);
    struct stat st;
    assert_int_equal(lstat(path("link.json"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    cJSON *doc = load_json("target.json");
    assert_non_null(doc);
    cJSON_Delete(doc);

    assert_int_equal(mkfifo(path("pipe.json"), 0600), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cat '%s' > '%s' & %s accuracy --op cos --dtype f16 --impl omk --quiet --json '%s' >/dev/null; s=$?; "
             "wait; exit $s",
             path("pipe.json"), path("from_pipe.json"), ULPBENCH_BIN, path("pipe.json"));
    const int status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(lstat(path("pipe.json"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    doc = load_json("from_pipe.json");
    assert_non_null(doc);
    cJSON_Delete(doc);
    assert_no_temp_files();

    /* stdout named as an output is written through descriptor 1: the shell's append mode holds, and the Markdown
     * does not follow the JSON into it */
    f = fopen(path("stdout.txt"), "w");
    fputs("kept\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s accuracy --op cos --dtype f16 --impl omk --quiet --json /dev/stdout >> '%s'",
             ULPBENCH_BIN, path("stdout.txt"));
    const int appended = system(cmd);
    assert_true(WIFEXITED(appended) && WEXITSTATUS(appended) == 0);
    char *text = slurp(path("stdout.txt"));
    assert_true(strncmp(text, "kept\n{", 6) == 0);
    cJSON *json = cJSON_Parse(text + 5);
    if (!json) fail_msg("stdout holds more than the JSON: '%.200s'", text + 5);
    cJSON_Delete(json);
    free(text);

    /* two outputs through one pipe would run together into one stream, as they would collide in one file */
    snprintf(cmd, sizeof cmd,
             "{ %s accuracy --op cos --dtype f16 --impl omk --json /dev/stdout --markdown /dev/stdout 2>'%s'; "
             "echo $? > '%s'; } | cat > '%s'",
             ULPBENCH_BIN, path("err.txt"), path("status.txt"), path("piped.txt"));
    assert_int_equal(system(cmd), 0);
    text = slurp(path("status.txt"));
    char *err = slurp(path("err.txt")), *piped = slurp(path("piped.txt"));
    if (strcmp(text, "2\n") != 0 || !one_line_with(err, "name the same pipe for two outputs") || *piped)
        fail_msg("two outputs into one pipe: status %s, stderr '%s', output '%.100s'", text, err, piped);
    free(text), free(err), free(piped);

    /* a full stdout is an error, not a silent loss, for help texts too */
    static const char *const to_full[] = {"list", "--help", "accuracy --help"};
    for (size_t i = 0; i < sizeof to_full / sizeof to_full[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s %s >/dev/full 2>/dev/null", ULPBENCH_BIN, to_full[i]);
        const int full = system(cmd);
        if (!WIFEXITED(full) || WEXITSTATUS(full) != 2) fail_msg("'ulpbench %s >/dev/full' did not exit 2", to_full[i]);
    }
}

/* The recorded command runs as it ran: words the shell would split or interpret are quoted. */
static void recorded_command_is_quoted(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json \"$D/a;b.json\""), 0);
    cJSON *doc = load_json("a;b.json");
    const char *command = string_of(doc, "command");
    char want[600];
    snprintf(want, sizeof want, "--json '%s'", path("a;b.json"));
    if (!strstr(command, want)) fail_msg("command '%s' lacks %s", command, want);
    cJSON_Delete(doc);
    /* and the recorded command runs again in sh as it was given, a quote in a path included */
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json \"$D/a'b.json\""), 0);
    doc = load_json("a'b.json");
    FILE *script = fopen(path("rerun.sh"), "w");
    assert_non_null(script);
    fprintf(script, "%s\n", string_of(doc, "command"));
    fclose(script);
    cJSON_Delete(doc);
    assert_int_equal(remove(path("a'b.json")), 0);
    char rerun[600];
    snprintf(rerun, sizeof rerun, "sh '%s' 2>/dev/null", path("rerun.sh"));
    assert_int_equal(system(rerun), 0);
    doc = load_json("a'b.json");
    cJSON_Delete(doc);
    /* and a name with control characters (a tab, U+0085 in UTF-8, trailing newlines) and a %: recorded on one line but
     * for the trailing newlines, and made again by sh, dash too (which has no $'...') */
    static const char odd_name[] = "t\tx%d\xc2\x85"
                                   "y.json\n\n";
    assert_int_equal(setenv("ULPB_ODD_NAME", odd_name, 1), 0);
    assert_int_equal(
        run("accuracy --op cos --dtype f16 --impl omk --quiet --json \"$D/$ULPB_ODD_NAME\" --markdown $D/odd.md"), 0);
    assert_int_equal(unsetenv("ULPB_ODD_NAME"), 0);
    doc = load_json(odd_name);
    const char *odd_command = string_of(doc, "command");
    /* the Markdown keeps it whole in a fenced block: a code span would end at the blank line */
    char *odd_markdown = slurp(path("odd.md")), *fenced = malloc(strlen(odd_command) + 32);
    assert_non_null(odd_markdown), assert_non_null(fenced);
    sprintf(fenced, "Command:\n\n```sh\n%s\n```\n", odd_command);
    if (!strstr(odd_markdown, fenced)) fail_msg("the Markdown '%s' lacks '%s'", odd_markdown, fenced);
    free(odd_markdown), free(fenced);
    const char *trailing = strstr(odd_command, "')\"'\n\n' ");
    if (strchr(odd_command, '\t') || strstr(odd_command, "\xc2\x85") || !strstr(odd_command, "x%%d\\302\\205y") ||
        !trailing || strchr(odd_command, '\n') != trailing + 4 || strchr(trailing + 6, '\n'))
        fail_msg("command '%s' holds a tab, or a newline before its name's trailing ones", odd_command);
    script = fopen(path("rerun.sh"), "w");
    assert_non_null(script);
    fprintf(script, "%s\n", odd_command);
    fclose(script);
    cJSON_Delete(doc);
    assert_int_equal(remove(path(odd_name)), 0);
    assert_int_equal(system(rerun), 0);
    assert_true(exists(path(odd_name)));
    assert_int_equal(remove(path(odd_name)), 0);
    /* a C1 control alone (U+0085, with no C0 one beside it) is made by printf too: in quotes it would stay raw */
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json \"$D/$(printf 'c\\302\\205')\""), 0);
    doc = load_json("c\xc2\x85");
    if (strstr(string_of(doc, "command"), "\xc2\x85") || !strstr(string_of(doc, "command"), "/c\\302\\205')\""))
        fail_msg("command '%s' holds U+0085 raw", string_of(doc, "command"));
    cJSON_Delete(doc);
}

/* A backtick in an argument must not close the Markdown code span of the recorded command early. */
static void recorded_command_survives_backticks(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --markdown \"$D/a\\`b.md\""), 0);
    char *md = slurp(path("a`b.md"));
    assert_non_null(md);
    char want[600];
    snprintf(want, sizeof want, "Command: ``%s accuracy --op cos --dtype f16 --impl omk --quiet --markdown '%s'``  \n",
             ULPBENCH_BIN, path("a`b.md"));
    if (!strstr(md, want)) fail_msg("Markdown lacks the line %s", want);
    free(md);
}

/* Past the file-size limit the run fails with a message, and neither the output nor a temporary file is left. The
 * limit, 1 KiB (two of sh's 512-byte blocks), is below the JSON's size (about 2.3 KiB) and leaves room for the 1 KiB
 * file in /dev/shm that LLVM's OpenMP runtime (a Clang build) writes as it starts. */
static void file_size_limit_is_an_error(void **state) {
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "ulimit -f 2 && %s accuracy --op cos --dtype f16 --impl omk --quiet --json %s >/dev/null 2>%s",
             ULPBENCH_BIN, path("big.json"), path("err.txt"));
    const int st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_not_equal(WEXITSTATUS(st), 0);
    assert_false(exists(path("big.json")));
    assert_no_temp_files();
    char *err = slurp(path("err.txt"));
    if (!one_line_with(err, "big.json")) fail_msg("stderr '%s' does not name the output", err);
    free(err);
}

/* Outputs go to temporary files first and are renamed into place only when all are written. */
static void outputs_are_written_all_or_nothing(void **state) {
    (void)state;
    char err[512];
    const ulpb_output failing[] = {{.path = path("w1.json"), .text = "{}\n"},
                                   {.path = path("nodir/w1.md"), .text = "# w1\n"}};
    assert_int_equal(ulpb_write_outputs(failing, 2, err, sizeof err), -1);
    if (!strstr(err, "nodir/w1.md")) fail_msg("error '%s' does not name the output", err);
    assert_false(exists(path("w1.json")));
    assert_no_temp_files();

    const ulpb_output good[] = {{.path = path("w2.json"), .text = "{}\n"}, {.path = path("w2.md"), .text = "# w2\n"}};
    assert_int_equal(ulpb_write_outputs(good, 2, err, sizeof err), 0);
    char *a = slurp(path("w2.json")), *b = slurp(path("w2.md"));
    assert_string_equal(a, "{}\n");
    assert_string_equal(b, "# w2\n");
    free(a), free(b);
    assert_no_temp_files();
}

static unsigned mode_of(const char *name) {
    struct stat st;
    if (stat(path(name), &st) != 0) fail_msg("%s missing", name);
    return (unsigned)(st.st_mode & 07777);
}

/* The outputs of each kind of command: p.json, p.md, pb.json and po.npy, from p.npy. */
static const char *const names[] = {"p.json", "p.md", "pb.json", "po.npy"};
static void run_writers(void) {
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/p.json --markdown $D/p.md"), 0);
    assert_int_equal(run("bench --op cos --dtype f32 --impl omk --sizes 64 --rounds 1 --quiet --json $D/pb.json"), 0);
    assert_int_equal(run("eval --op cos $D/p.npy $D/po.npy"), 0);
}

/* New files get 0666 minus the umask, as from any other tool (not mkstemp's 0600). */
static void outputs_follow_the_umask(void **state) {
    (void)state;
    const float x[2] = {0.5f, 2.0f};
    const size_t two = 2;
    write_array("p.npy", NPY_F4, 1, &two, x);
    static const unsigned masks[] = {022, 027};
    for (size_t i = 0; i < sizeof masks / sizeof *masks; i++) {
        const mode_t old = umask(masks[i]);
        run_writers();
        umask(old);
        const unsigned want = 0666u & ~masks[i];
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            if (mode_of(names[k]) != want)
                fail_msg("%s has mode %04o under umask %03o, wanted %04o", names[k], mode_of(names[k]), masks[i], want);
            assert_int_equal(unlink(path(names[k])), 0);
        }
    }
}

/* A file that is replaced keeps its own permissions, whatever the umask, and under root its owner, as after
 * "> FILE". */
static void replaced_outputs_keep_their_mode(void **state) {
    (void)state;
    const float x[2] = {0.5f, 2.0f};
    const size_t two = 2;
    write_array("p.npy", NPY_F4, 1, &two, x);
    static const unsigned modes[] = {0600, 0640, 0664};
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            FILE *f = fopen(path(names[k]), "w");
            assert_non_null(f);
            fputs("old\n", f);
            assert_int_equal(fclose(f), 0);
            assert_int_equal(chmod(path(names[k]), modes[i]), 0);
            if (geteuid() == 0) assert_int_equal(chown(path(names[k]), 65534, 65534), 0); /* root keeps the owner */
        }
        const mode_t old = umask(022);
        run_writers();
        umask(old);
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            if (mode_of(names[k]) != modes[i])
                fail_msg("%s has mode %04o after it was replaced, wanted its own %04o", names[k], mode_of(names[k]),
                         modes[i]);
            struct stat st;
            assert_int_equal(stat(path(names[k]), &st), 0);
            if (geteuid() == 0 && (st.st_uid != 65534 || st.st_gid != 65534))
                fail_msg("%s is owned by %u:%u after it was replaced, wanted 65534:65534", names[k],
                         (unsigned)st.st_uid, (unsigned)st.st_gid);
            char *text = slurp(path(names[k]));
            if (!text || strcmp(text, "old\n") == 0) fail_msg("%s was not replaced", names[k]);
            free(text);
        }
    }
}

/* The accuracy and bench results name the omk build that ran (OMK_ISA forces one). */
static void results_name_the_omk_build(void **state) {
    (void)state;
    const char *selected = omk_isa_name(omk_isa_selected());
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/i.json --markdown $D/i.md"), 0);
    cJSON *doc = load_json("i.json");
    assert_string_equal(string_of(cJSON_GetObjectItem(doc, "environment"), "omk_isa"), selected);
    assert_string_equal(string_of(cJSON_GetObjectItem(doc, "environment"), "omk_half16"), omk_half16_method());
    /* the commit built: 12 hex digits (with "-dirty-" and a hash of the changes in a modified tree), or unknown */
    char source[64];
    snprintf(source, sizeof source, "%s", string_of(cJSON_GetObjectItem(doc, "environment"), "source"));
    cJSON_Delete(doc);
    const size_t hex_digits = strspn(source, "0123456789abcdef");
    if (strcmp(source, "unknown") != 0 &&
        !(hex_digits == 12 && (source[12] == '\0' || strncmp(source + 12, "-dirty", 6) == 0)))
        fail_msg("environment source '%s' names no commit", source);
    char *md = slurp(path("i.md")), want[64];
    snprintf(want, sizeof want, "(%s build, 16-bit types: %s)", selected, omk_half16_method());
    if (!strstr(md, want)) fail_msg("no '%s' in the Markdown environment line", want);
    free(md);

    setenv("OMK_ISA", "scalar", 1);
    assert_int_equal(run("bench --op cos --dtype f32 --impl omk --sizes 64 --rounds 1 --quiet --json $D/i.json "
                         "--markdown $D/i.md"),
                     0);
    unsetenv("OMK_ISA");
    doc = load_json("i.json");
    assert_string_equal(string_of(cJSON_GetObjectItem(doc, "context"), "omk_isa"), "scalar");
    if (strncmp(string_of(cJSON_GetObjectItem(doc, "context"), "command"), "OMK_ISA=scalar ", 15) != 0)
        fail_msg("command '%s' leaves out OMK_ISA", string_of(cJSON_GetObjectItem(doc, "context"), "command"));
    assert_string_equal(string_of(cJSON_GetObjectItem(doc, "context"), "source"), source);
    cJSON_Delete(doc);
    md = slurp(path("i.md"));
    assert_non_null(strstr(md, "(scalar build, 16-bit types: table)"));
    free(md);
    /* a name that is no build, or a build this CPU cannot run, is refused, naming the best one it runs */
    static const char *const unrunnable[] = {"bogus", "avx512", "avx2"};
    omk_isa best = OMK_ISA_SCALAR;
    for (int i = 0; i < OMK_ISA_COUNT; i++)
        if (omk_isa_supported((omk_isa)i)) best = (omk_isa)i;
    for (size_t k = 0; k < sizeof unrunnable / sizeof *unrunnable; k++) {
        if ((k == 1 && omk_isa_supported(OMK_ISA_AVX512)) || (k == 2 && omk_isa_supported(OMK_ISA_AVX2))) continue;
        setenv("OMK_ISA", unrunnable[k], 1);
        assert_int_equal(run("list"), 2);
        char want[160], *err = slurp(path("err.txt"));
        snprintf(want, sizeof want,
                 "OMK_ISA=%s is no omk build this CPU runs (omk's builds: scalar, avx2, avx512; "
                 "this CPU runs up to %s)",
                 unrunnable[k], omk_isa_name(best));
        if (!one_line_with(err, want)) fail_msg("OMK_ISA=%s: stderr '%s'", unrunnable[k], err);
        free(err);
        unsetenv("OMK_ISA");
    }
}

/* ULPB_DISABLE_ISA stands in for an older CPU: every command skips what it cannot run. */
static void unavailable_entries_are_skipped(void **state) {
    (void)state;
    unsetenv("OMK_ISA"); /* an explicit OMK_ISA would override the mapping checked below */
    setenv("ULPB_DISABLE_ISA", "avx512", 1);
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/u.json"), 0);
    cJSON *doc = load_json("u.json");
    assert_string_equal(string_of(cJSON_GetObjectItem(doc, "environment"), "omk_isa"),
                        omk_isa_supported(OMK_ISA_AVX2) ? "avx2" : "scalar");
    /* the recorded command sets it too: run again without it, the command would give other rows */
    if (strncmp(string_of(doc, "command"), "ULPB_DISABLE_ISA=avx512 ", 24) != 0)
        fail_msg("command '%s' leaves out ULPB_DISABLE_ISA", string_of(doc, "command"));
    cJSON_Delete(doc);
    /* OMK_ISA may not name a build it rules out (on a CPU without AVX-512, OMK_ISA=avx512 is refused for that) */
    if (omk_isa_supported(OMK_ISA_AVX512)) {
        setenv("OMK_ISA", "avx512", 1);
        assert_int_equal(run("list"), 2);
        char *conflict = slurp(path("err.txt"));
        if (!one_line_with(conflict, "OMK_ISA=avx512 names a build that ULPB_DISABLE_ISA=avx512 disables"))
            fail_msg("OMK_ISA=avx512 ULPB_DISABLE_ISA=avx512: stderr '%s'", conflict);
        free(conflict);
        unsetenv("OMK_ISA");
    }
    /* OMK_HALF16 too asks libomk which build it runs: that must still follow ULPB_DISABLE_ISA */
    setenv("OMK_HALF16", "table", 1);
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/u16.json"), 0);
    unsetenv("OMK_HALF16");
    doc = load_json("u16.json");
    assert_string_equal(string_of(cJSON_GetObjectItem(doc, "environment"), "omk_isa"),
                        omk_isa_supported(OMK_ISA_AVX2) ? "avx2" : "scalar");
    cJSON_Delete(doc);
    setenv("ULPB_DISABLE_ISA", "avx2", 1); /* no AVX2 means no AVX-512 either: only omk and glibc run */
    assert_int_equal(run("accuracy --op cos --dtype f32 --samples 1000 --quiet --json $D/u.json"), 0);
    doc = load_json("u.json");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")),
                     rows_without_isa(ULPB_OP_cos, ULPB_DTYPE_f32, false));
    cJSON_Delete(doc);

    setenv("ULPB_DISABLE_ISA", "avx512,avx2", 1);
    assert_int_equal(run("list"), 0);
    char *out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "libmvec-avx2"));
    assert_non_null(strstr(out, "unavailable"));
    free(out);

    assert_int_equal(run("accuracy --op cos --dtype f32 --samples 1000 --quiet --json $D/u.json"), 0);
    doc = load_json("u.json");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")),
                     rows_without_isa(ULPB_OP_cos, ULPB_DTYPE_f32, false)); /* omk, glibc */
    /* omk runs its scalar build, as it would on such a CPU */
    assert_string_equal(string_of(cJSON_GetObjectItem(doc, "environment"), "omk_isa"), "scalar");
    cJSON_Delete(doc);

    /* disabling avx512 disables the AVX-512 bfloat16 rows too */
    assert_int_equal(run("bench --quick --sizes 256 --rounds 1 --quiet --op asin --dtype bf16 --json $D/u.json"), 0);
    doc = load_json("u.json");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "benchmarks")),
                     rows_without_isa(ULPB_OP_asin, ULPB_DTYPE_bf16, true)); /* omk, glibc, memcpy */
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "context"), "skipped")) > 0);
    cJSON_Delete(doc);

    const float x[2] = {0.5f, 2.0f};
    const size_t two = 2;
    write_array("v.npy", NPY_F4, 1, &two, x);
    const char *refused[] = {"accuracy --op cos --dtype f32 --samples 10 --impl sleef-u10-avx2",
                             "eval --op cos --impl libmvec-avx512 $D/v.npy $D/vo.npy"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        assert_int_equal(run(refused[i]), 2);
        char *err = slurp(path("err.txt"));
        if (!strstr(err, "which this CPU lacks")) fail_msg("'%s': stderr '%s'", refused[i], err);
        free(err);
    }
    assert_false(exists(path("vo.npy")));

    /* a named implementation without a row for one of the dtypes (SLEEF's fast cosine has no binary64 one) is left
     * out there, as when none is named */
    unsetenv("ULPB_DISABLE_ISA");
    if (ulpb_entry_available(ulpb_entry_find("sleef-u3500-avx512", ULPB_OP_cos, ULPB_DTYPE_f32))) {
        assert_int_equal(
            run("accuracy --op cos --dtype all --impl sleef-u3500-avx512 --samples 100 --quiet --json $D/skip.json"),
            0);
        doc = load_json("skip.json");
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")), 3); /* f16, bf16, f32 */
        cJSON_Delete(doc);
        assert_int_equal(run("accuracy --op cos --dtype f64 --impl sleef-u3500-avx512 --quiet"), 2);
    }

    /* an AVX-512 CPU without AVX512_BF16 (Skylake-SP, Cascade Lake, Ice Lake-SP) runs the AVX-512 bfloat16 pipelines
     * with vcvtne2ps2bf16 emulated: every bfloat16 input gives the instruction's bits */
    unsetenv("ULPB_DISABLE_ISA");
    if (ulpb_isa_available(ULPB_ISA_AVX512_BF16)) {
        static uint16_t every_bf16[65536];
        for (size_t i = 0; i < 65536; i++) every_bf16[i] = (uint16_t)i;
        const size_t count = 65536;
        write_array("bf.npy", NPY_U2, 1, &count, every_bf16);
        static const char *const pipelines[][2] = {{"cos", "libmvec-avx512"}, {"asin", "sleef-u35-avx512"}};
        for (size_t k = 0; k < 2; k++) {
            for (int emulated = 0; emulated < 2; emulated++) {
                char command[256];
                snprintf(command, sizeof command, "eval --op %s --impl %s --dtype bf16 $D/bf.npy $D/%s.npy",
                         pipelines[k][0], pipelines[k][1], emulated ? "bf_emulated" : "bf_hw");
                if (emulated) setenv("ULPB_DISABLE_ISA", "avx512bf16", 1);
                assert_int_equal(run(command), 0);
                unsetenv("ULPB_DISABLE_ISA");
            }
            npy_array hw, emulated;
            char err[256];
            assert_int_equal(npy_read(path("bf_hw.npy"), &hw, err, sizeof err), 0);
            assert_int_equal(npy_read(path("bf_emulated.npy"), &emulated, err, sizeof err), 0);
            assert_int_equal(hw.count, count);
            assert_int_equal(emulated.count, count);
            for (size_t i = 0; i < count; i++) {
                const uint16_t want = ((const uint16_t *)hw.data)[i], got = ((const uint16_t *)emulated.data)[i];
                if (want != got)
                    fail_msg("%s %s bf16 0x%04zx: 0x%04x with vcvtne2ps2bf16, 0x%04x emulated", pipelines[k][1],
                             pipelines[k][0], i, want, got);
            }
            npy_free(&hw), npy_free(&emulated);
        }
    }

    /* OMK_ISA naming no build the CPU runs: libomk would quietly use another, so ulpbench refuses */
    unsetenv("ULPB_DISABLE_ISA");
    setenv("OMK_ISA", "avx3", 1);
    assert_int_equal(run("list"), 2);
    /* help runs nothing: it is printed whatever the environment, as the top-level help is */
    assert_int_equal(run("list --help"), 0);
    assert_int_equal(run("accuracy --help"), 0);
    unsetenv("OMK_ISA");

    /* a name that is no ISA is refused, not ignored (the run would not stand in for the CPU it was meant to) */
    setenv("ULPB_DISABLE_ISA", "avx2,avx-512", 1);
    assert_int_equal(run("list"), 2);
    char *err = slurp(path("err.txt"));
    if (!strstr(err, "ULPB_DISABLE_ISA names no ISA: 'avx-512'")) fail_msg("ULPB_DISABLE_ISA=avx2,avx-512: '%s'", err);
    free(err);
    /* so is an empty name (a stray comma); an empty variable disables nothing */
    const char *const empty_names[] = {",", "avx512,", ",avx2", "avx512,,avx2"};
    for (size_t i = 0; i < sizeof empty_names / sizeof empty_names[0]; i++) {
        setenv("ULPB_DISABLE_ISA", empty_names[i], 1);
        assert_int_equal(run("list"), 2);
        err = slurp(path("err.txt"));
        if (!one_line_with(err, "ULPB_DISABLE_ISA has an empty name"))
            fail_msg("ULPB_DISABLE_ISA=%s: '%s'", empty_names[i], err);
        free(err);
    }
    setenv("ULPB_DISABLE_ISA", "", 1);
    assert_int_equal(run("list"), 0);
    unsetenv("ULPB_DISABLE_ISA");
}

/* The object of the benchmark whose run_name is name. */
static cJSON *bench_row(cJSON *doc, const char *name) {
    cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItem(doc, "benchmarks")) if (strcmp(string_of(b, "run_name"), name) ==
                                                                      0) return b;
    fail_msg("no benchmark %s", name);
    return NULL;
}

/* The first `most` bytes of file from (all: (size_t)-1) to file to, then `extra` if not NULL. */
static void copy_file(const char *from, const char *to, size_t most, const char *extra) {
    char *buf = malloc(1 << 20);
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(buf), assert_non_null(in), assert_non_null(out);
    const size_t n = fread(buf, 1, 1 << 20, in);
    assert_true(n < (1 << 20));
    assert_int_equal(fwrite(buf, 1, n < most ? n : most, out), n < most ? n : most);
    if (extra) fputs(extra, out);
    fclose(in), fclose(out), free(buf);
}

/* The settings users_kernels_through_ulpb_libraries makes, gone when it fails too (later tests would load the
 * libraries). */
static int forget_libraries(void **state) {
    (void)state;
    return unsetenv("ULPB_LIBRARIES") || unsetenv("ULPB_DEMO_ANNOUNCE") || unsetenv("ULPB_DEMO_FLUSH_AT_LOAD") ||
           unsetenv("ULPB_DEMO_END") || unsetenv("ULPB_DEMO_EXIT_AT_END") || unsetenv("ULPB_DEMO_CHDIR");
}

/* The tail mistakes of hand-written vector loops (demo_kernels.c's sloppy_*): ulpbench calls every kernel with every
 * length from 1 to ULPB_CALL_LENGTH_MAX, between guards and over poisoned outputs, so that a kernel that leaves
 * outputs unwritten or writes outside them is refused, naming the call, and nothing is written; measured on stale
 * memory (a 1,000,000-sample run calls with n = 8192 and 576 only), such a kernel passed the report's gate. */
static void kernels_that_write_wrong_places_are_refused(void **state) {
    (void)state;
    char setting[1024];
    snprintf(setting, sizeof setting, "sloppy=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    expect_usage_error("accuracy --op cos --dtype f32 --impl sloppy --samples 5000 --json $D/sl.json",
                       "'sloppy' cos f32 left y[");
    expect_usage_error("report --op cos --dtype f32 --impl sloppy --no-bench --output-dir $D/slr",
                       "unwritten in a call");
    expect_usage_error("accuracy --op asin --dtype f32 --impl sloppy --samples 5000 --json $D/sl.json",
                       "'sloppy' asin f32 wrote outside its output: y[");
    expect_usage_error("accuracy --op cos --dtype f16 --impl sloppy --json $D/sl.json",
                       "'sloppy' cos f16 wrote outside its output: y[-1] changed");
    expect_usage_error("accuracy --op cos --dtype f32 --impl sloppy --exhaustive --shard 0/4096 --json $D/sl.json",
                       "'sloppy' cos f32 left y[");
    expect_usage_error("accuracy --op asin --dtype f32 --impl sloppy --exhaustive --shard 0/4096 --threads 2 --json "
                       "$D/sl.json",
                       "'sloppy' asin f32 wrote outside its output");
    const float x[5] = {0.0f, 0.5f, -0.25f, 1.0f, 0.125f};
    const size_t five = 5;
    write_array("sx.npy", NPY_F4, 1, &five, x);
    expect_usage_error("eval --op asin --impl sloppy $D/sx.npy $D/sy.npy", "wrote outside its output: y[5] changed");
    const uint16_t h[3] = {0x0000, 0x3c00, 0xbc00};
    const size_t three = 3;
    write_array("sh.npy", NPY_F2, 1, &three, h);
    expect_usage_error("eval --op cos --impl sloppy $D/sh.npy $D/sy.npy", "wrote outside its output: y[-1] changed");
    /* outputs left unwritten: an in-place call would leave the inputs there, and exit status 0 */
    float twenty[20];
    for (int i = 0; i < 20; i++) twenty[i] = 0.05f * (float)i;
    const size_t twenty_count = 20;
    write_array("s20.npy", NPY_F4, 1, &twenty_count, twenty);
    expect_usage_error("eval --op cos --impl sloppy $D/s20.npy $D/sy.npy", "'sloppy' cos f32 left y[16] unwritten");
    assert_false(exists(path("sl.json")) || exists(path("sy.npy")) || exists(path("slr")));
    assert_no_temp_files_in(g_dir);
    /* the same calls pass for a kernel that keeps to its outputs: demo's, and omk's and the peers' in every test */
    snprintf(setting, sizeof setting, "demo=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("accuracy --op cos --dtype f32 --impl demo --exhaustive --shard 0/4096 --quiet"), 0);
    assert_int_equal(run("eval --op asin --impl demo $D/sx.npy $D/sy.npy"), 0);
}

/* Runs `VARIABLES ulpbench list` (the library in ULPB_LIBRARIES, its constructor told what to do by VARIABLES) and
 * fails unless stderr names the loading, "ulpbench: ULPB_LIBRARIES: loading 'PATH' (its constructors run) WHAT", and
 * the status is 2 (or, for a crash, the signal's or a sanitizer's, whose report follows the line). */
static void expect_loading_named(const char *variables, const char *what, bool crashes) {
    const int status = run_program(variables, ULPBENCH_BIN, "list");
    char *err = slurp(path("err.txt"));
    char needle[160];
    snprintf(needle, sizeof needle, "' (its constructors run) %s", what);
    const char *named = "ulpbench: ULPB_LIBRARIES: loading '";
    const bool ended_so = crashes ? status != 0 && status != 2 : status == 2 && one_line_with(err, named);
    if (!ended_so || !strstr(err, named) || !strstr(err, needle))
        fail_msg("%slist: status %d, stderr '%s'", variables, status, err);
    free(err);
}

/* What else a kernel under test can do to the run (demo_kernels.c's rude_*, datum_*): each is refused with a message
 * naming it, or measured wrong where it is wrong, rather than changing the run's other figures or its exit status. */
static void kernels_that_upset_the_run_are_named(void **state) {
    (void)state;
    char setting[1024];
    snprintf(setting, sizeof setting, "rude=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    /* a rounding mode left toward zero would change every figure after it (glibc's, the fast reference's) */
    expect_usage_error("accuracy --op cos --dtype f32 --impl glibc,rude --samples 2000 --json $D/ru.json",
                       "'rude' cos f32 changed the floating-point controls in a call with n = 1 (x 1 and y 0 elements "
                       "past a 64-byte boundary) and left them so: SSE rounding toward zero, x87 rounding toward zero");
    expect_usage_error(
        "bench --op cos --dtype f32 --impl glibc,rude --quick --sizes 256 --rounds 1 --quiet --json $D/ru.json",
        "'rude' cos f32 changed the floating-point controls and left them so: SSE rounding toward zero");
    expect_usage_error("accuracy --op asin --dtype f32 --impl rude --samples 2000 --json $D/ru.json",
                       "'rude' asin f32 wrote into its input: x[0] changed in a call with n = ");
    /* paths for long arrays: reached by the calls of 1032 elements and more, in place or not */
    expect_usage_error("accuracy --op asin --dtype f64 --impl rude --samples 100000 --quiet --json $D/ru.json",
                       "'rude' asin f64 left y[");
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl glibc,rude --quiet --json $D/ru.json"), 0);
    cJSON *doc = load_json("ru.json");
    const cJSON *results = cJSON_GetObjectItem(doc, "results");
    assert_string_equal(string_of(cJSON_GetArrayItem(results, 1), "impl"), "rude");
    const double glibc_misrounded = number_of(cJSON_GetArrayItem(results, 0), "misrounded");
    const double rude_misrounded = number_of(cJSON_GetArrayItem(results, 1), "misrounded");
    if (!(rude_misrounded > glibc_misrounded + 2048))
        fail_msg("rude cos f16: %.0f misrounded, glibc's pipeline %.0f", rude_misrounded, glibc_misrounded);
    cJSON_Delete(doc);
    /* --inputs: also one call over the whole tensor, as a model's runtime makes it, which must give the runner's
     * results; 3,000 binary16 elements reach rude's path for 2,048 and more, which the runner's calls never take */
    uint16_t tiny[3000]; /* 0 and subnormals: cos 1 (0x3c00) for each, 0x3c01 from the long path */
    for (uint16_t i = 0; i < 3000; i++) tiny[i] = i;
    char npy_err[256];
    npy_array tensor = {.kind = NPY_F2, .elem_size = 2, .ndim = 1, .shape = {3000}, .count = 3000, .data = tiny};
    assert_int_equal(npy_write(path("long.npy"), &tensor, npy_err, sizeof npy_err), 0);
    const char *depends = "'rude' cos f16 gives element 0 (0x0000) 0x3c01 in one call over all 3000 elements but "
                          "0x3c00 in the runner's shorter calls: its results depend on how calls split the tensor";
    expect_usage_error("accuracy --op cos --impl rude,omk --inputs $D/long.npy --json $D/long.json", depends);
    assert_false(exists(path("long.json")));
    expect_usage_error("report --op cos --impl rude --inputs $D/long.npy --no-bench --output-dir $D/long", depends);
    assert_false(exists(path("long")));
    tensor.shape[0] = tensor.count = 2000; /* below its long path: measured, right */
    assert_int_equal(npy_write(path("long.npy"), &tensor, npy_err, sizeof npy_err), 0);
    assert_int_equal(run("accuracy --op cos --impl rude --inputs $D/long.npy --quiet --json $D/long.json"), 0);
    /* the whole call is not in place: an output its long path leaves unwritten is seen */
    double halves[1500];
    for (int i = 0; i < 1500; i++) halves[i] = 0.5;
    npy_array in_domain = {.kind = NPY_F8, .elem_size = 8, .ndim = 1, .shape = {1500}, .count = 1500, .data = halves};
    assert_int_equal(npy_write(path("long.npy"), &in_domain, npy_err, sizeof npy_err), 0);
    expect_usage_error("accuracy --op asin --impl rude --inputs $D/long.npy --json $D/long.json",
                       "'rude' asin f64 left y[1499] unwritten in a call with n = 1500 (x 0 and y 0 elements past a "
                       "64-byte boundary)");
    /* a crash names the kernel and leaves no report directory, and then ends the process by the signal (under a
     * sanitizer, whose handler takes it next: by its report's exit status); exit() inside a kernel is no success */
    const int crash_status = run("report --op asin --dtype f16 --impl rude --no-bench --output-dir $D/crashed");
#ifdef ULPB_SANITIZER_RUNTIME
    assert_true(crash_status != 0 && crash_status != 2);
#else
    assert_int_equal(crash_status, 128 + SIGSEGV);
#endif
    char *err = slurp(path("err.txt"));
    if (!strstr(err, "ulpbench: 'rude' asin f16 (a call with n = 3) crashed: SIGSEGV (invalid memory access)\n"))
        fail_msg("stderr '%s'", err);
    free(err);
    assert_false(exists(path("crashed")));
    /* bench's is named as the pass of calls it was timing */
    const int pass_status =
        run("bench --op asin --dtype f16 --impl rude --sizes 3 --rounds 1 --quick --quiet --json $D/pass.json");
    err = slurp(path("err.txt"));
    if (pass_status == 0 || pass_status == 2 || !strstr(err, "ulpbench: 'rude' asin f16 (a pass of ") ||
        !strstr(err, " calls with n = 3) crashed: SIGSEGV (invalid memory access)\n"))
        fail_msg("a crash in bench: status %d, stderr '%s'", pass_status, err);
    free(err);
    assert_false(exists(path("pass.json")));
    const int overflow_status = run("accuracy --op cos --dtype bf16 --impl rude --json $D/ru.json");
    err = slurp(path("err.txt"));
    if (overflow_status == 0 || overflow_status == 2 ||
        !strstr(err, "ulpbench: 'rude' cos bf16 (a call with n = 4) crashed: SIGSEGV (invalid memory access)\n"))
        fail_msg("a stack overflow: status %d, stderr '%s'", overflow_status, err);
    free(err);
    assert_int_equal(unlink(path("ru.json")), 0);
    expect_usage_error("accuracy --op cos --dtype f64 --impl rude --samples 100 --json $D/ru.json",
                       "ulpbench: 'rude' cos f64 (a call with n = 2) called exit(): the run is incomplete");
    assert_false(exists(path("ru.json")));
    assert_int_equal(setenv("ULPB_DEMO_END", "quick_exit", 1), 0);
    expect_usage_error("accuracy --op cos --dtype f64 --impl rude --samples 100 --json $D/ru.json",
                       "ulpbench: 'rude' cos f64 (a call with n = 2) called quick_exit(): the run is incomplete");
    /* _exit() runs no handler, and the library binds its own: the process that waits for the run's says so, status 2
     * (not the kernel's 0) */
    assert_int_equal(setenv("ULPB_DEMO_END", "_exit", 1), 0);
    expect_usage_error("accuracy --op cos --dtype f64 --impl rude --samples 100 --json $D/ru.json",
                       "ulpbench: the run ended before it finished, with exit status 0 that ulpbench did not give: a "
                       "library of ULPB_LIBRARIES, a sanitizer or a runtime library ended the process");
    assert_int_equal(unsetenv("ULPB_DEMO_END"), 0);
    assert_false(exists(path("ru.json")));
    /* a SIGCHLD ignored by the caller (inherited across exec) must not hide the run's end from its supervisor */
    const pid_t ignoring = fork();
    assert_true(ignoring >= 0);
    if (ignoring == 0) {
        signal(SIGCHLD, SIG_IGN);
        const int out = open(path("out.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600),
                  errors = open(path("err.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || errors < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(errors, STDERR_FILENO) < 0) _exit(126);
        execl(ULPBENCH_BIN, ULPBENCH_BIN, "list", (char *)NULL);
        _exit(127);
    }
    int ignoring_status = 0;
    assert_int_equal(waitpid(ignoring, &ignoring_status, 0), ignoring);
    err = slurp(path("err.txt"));
    if (!WIFEXITED(ignoring_status) || WEXITSTATUS(ignoring_status) != 0 || *err)
        fail_msg("a run started with SIGCHLD ignored: status %d, stderr '%s'", ignoring_status, err);
    free(err);
    /* nor does a destructor's _exit(0) at the process's end turn a failed gate into a pass */
    snprintf(setting, sizeof setting, "bad=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    const int ended_status = run_program("ULPB_DEMO_EXIT_AT_END=1 ", ULPBENCH_BIN,
                                         "report --op cos --dtype f16 --impl bad --no-bench --output-dir $D/ended");
    err = slurp(path("err.txt"));
    if (ended_status != 1 || !one_line_with(err, "ulpbench: the process ended with exit status 0 where the run ended "
                                                 "with 1: a library of ULPB_LIBRARIES, a sanitizer"))
        fail_msg("a destructor's _exit(0) after a failed gate: status %d, stderr '%s'", ended_status, err);
    free(err);
    assert_int_equal(unlink(path("ended/report.json")), 0); /* the run's outputs, written before its end */
    assert_int_equal(unlink(path("ended/report.md")), 0);
    assert_int_equal(rmdir(path("ended")), 0);
    snprintf(setting, sizeof setting, "rude=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    /* a kernel that changes the working directory would send relative output paths elsewhere: refused, and the
     * directory the run made for its outputs is removed from where it was made */
    assert_int_equal(mkdir(path("elsewhere"), 0700), 0);
    assert_int_equal(setenv("ULPB_DEMO_CHDIR", path("elsewhere"), 1), 0);
    char in_d[1024];
    snprintf(in_d, sizeof in_d, "cd '%s' && ", g_dir);
    const int chdir_status = run_program(in_d, ULPBENCH_BIN,
                                         "report --op cos --dtype f64 --impl rude --samples 100 --no-bench "
                                         "--output-dir moved");
    err = slurp(path("err.txt"));
    if (chdir_status != 2 || !one_line_with(err, "'rude' cos f64 changed the working directory in a call with n = 2"))
        fail_msg("a kernel that changes the working directory: status %d, stderr '%s'", chdir_status, err);
    free(err);
    assert_int_equal(unsetenv("ULPB_DEMO_CHDIR"), 0);
    assert_false(exists(path("moved")));
    assert_int_equal(rmdir(path("elsewhere")), 0); /* empty: nothing was written there */
    /* a call that never returns ends the run too, naming the kernel, instead of holding a CI job until its timeout
     * (here a minute's: a run that the watch does not end is killed and fails the test) */
    const int hung_status = run_program("ULPB_KERNEL_TIMEOUT=0.5 timeout -s KILL 60 ", ULPBENCH_BIN,
                                        "report --op asin --dtype bf16 --impl rude --no-bench --output-dir $D/hung");
    err = slurp(path("err.txt"));
    if (hung_status != 2 || !one_line_with(err, "ulpbench: 'rude' asin bf16 (a call with n = 5) has not returned "
                                                "after 0.5 s: the run is incomplete"))
        fail_msg("a call that hangs: status %d, stderr '%s'", hung_status, err);
    free(err);
    assert_false(exists(path("hung")));
    /* time while the process is stopped does not count: stopped for 2 s a second into a call of the 2 s allowed (the
     * kernel makes a file as it starts it; the watch, which looks every half second, has seen the call by then), the
     * run is ended 2 s or more after it goes on, not at the watch's first look; ULPB_KERNEL_TIMEOUT=0 waits for ever
     * (the run is killed after 3 s) */
    char stop_and_go[1536];
    snprintf(stop_and_go, sizeof stop_and_go,
             "D='%s'; ULPB_DEMO_HANG_MARKER=\"$D/started\" ULPB_KERNEL_TIMEOUT=2 '%s' report --op asin --dtype bf16 "
             "--impl rude --no-bench --output-dir \"$D/hung\" 2>\"$D/err.txt\" & p=$!; w=0; "
             "while [ ! -e \"$D/started\" ] && [ $w -lt 600 ]; do sleep 0.1; w=$((w + 1)); done; sleep 1; "
             "kill -STOP $p; sleep 2; kill -CONT $p; go=$(date +%%s%%N); wait $p; status=$?; "
             "echo $(( ($(date +%%s%%N) - go) / 1000000 )) > \"$D/after_go.txt\"; exit $status",
             g_dir, ULPBENCH_BIN);
    const int stopped_status = system(stop_and_go);
    char *after_go = slurp(path("after_go.txt"));
    const long after_go_ms = after_go ? strtol(after_go, NULL, 10) : -1;
    free(after_go);
    err = slurp(path("err.txt"));
    if (!WIFEXITED(stopped_status) || WEXITSTATUS(stopped_status) != 2 || after_go_ms < 1900 ||
        !one_line_with(err, "has not returned after 2 s"))
        fail_msg("a call in a stopped process: status %d %ld ms after SIGCONT (2000 or more wanted), stderr '%s'",
                 stopped_status, after_go_ms, err);
    free(err);
    assert_true(exists(path("started")));
    assert_int_equal(unlink(path("started")), 0);
    assert_int_equal(unlink(path("after_go.txt")), 0);
    assert_int_equal(run_program("ULPB_KERNEL_TIMEOUT=0 timeout -s KILL 3 ", ULPBENCH_BIN,
                                 "report --op asin --dtype bf16 --impl rude --no-bench --output-dir $D/hung"),
                     128 + SIGKILL);
    rmdir(path("hung")); /* made by the run killed outright */
    /* the process killed alone (timeout kills the whole process group), while the run goes on in its child
     * (supervise_the_run): the run dies with it */
    char no_orphan[2048];
    snprintf(no_orphan, sizeof no_orphan,
             "ULPB_KERNEL_TIMEOUT=0 '%s' report --op asin --dtype bf16 --impl rude --no-bench --output-dir '%s' "
             ">/dev/null 2>&1 & p=$!; sleep 2; kill -9 $p; wait $p; sleep 0.5; for f in /proc/[0-9]*/cmdline; do "
             "if tr '\\0' ' ' < \"$f\" 2>/dev/null | grep -q '[-]-output-dir %s'; then q=${f#/proc/}; "
             "kill -9 ${q%%/cmdline}; left=1; fi; done; exit ${left:-0}",
             ULPBENCH_BIN, path("orphan"), path("orphan")); /* [-]: not this script's own text */
    if (system(no_orphan) != 0) fail_msg("a run outlived the process killed with it");
    rmdir(path("orphan"));
    /* a long call is given 10 s more per million elements: eval's one call over 200,000 elements may take 2.2 s */
    enum { SLOW_ELEMENTS = 200000 };
    double *slow_x = calloc(SLOW_ELEMENTS, sizeof *slow_x);
    assert_non_null(slow_x);
    const size_t slow_shape = SLOW_ELEMENTS;
    write_array("slow.npy", NPY_F8, 1, &slow_shape, slow_x);
    free(slow_x);
    snprintf(setting, sizeof setting, "slow=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(
        run_program("ULPB_KERNEL_TIMEOUT=0.2 ", ULPBENCH_BIN, "eval --op cos --impl slow $D/slow.npy $D/slow-cos.npy"),
        0);
    assert_true(exists(path("slow-cos.npy")));
    /* and on any thread of an exhaustive run, while the others go on calling the kernel */
    snprintf(setting, sizeof setting, "stuck=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    const int stuck_status =
        run_program("ULPB_KERNEL_TIMEOUT=0.5 timeout -s KILL 60 ", ULPBENCH_BIN,
                    "accuracy --op cos --dtype f32 --impl stuck --exhaustive --shard 0/1024 --threads 2 --quiet "
                    "--json $D/stuck.json");
    err = slurp(path("err.txt"));
    if (stuck_status != 2 || !one_line_with(err, "ulpbench: 'stuck' cos f32 (a call with n = "))
        fail_msg("a call that hangs in an exhaustive run: status %d, stderr '%s'", stuck_status, err);
    free(err);
    assert_false(exists(path("stuck.json")));
    const int overflowed_status =
        run("accuracy --op asin --dtype f32 --impl stuck --exhaustive --shard 0/1024 --threads 2 "
            "--quiet --json $D/stuck.json");
    err = slurp(path("err.txt"));
    if (overflowed_status == 0 || overflowed_status == 2 ||
        !strstr(err, "ulpbench: 'stuck' asin f32 (a call with n = ") ||
        !strstr(err, ") crashed: SIGSEGV (invalid memory access)\n"))
        fail_msg("a stack overflow in an exhaustive run: status %d, stderr '%s'", overflowed_status, err);
    free(err);
    assert_false(exists(path("stuck.json")));
    /* a library's own symbols before ulpbench's (not in the sanitizer builds, whose runtimes refuse RTLD_DEEPBIND):
     * SLEEF's cosf u35 misrounds about a fifth of these inputs, the library's own function none or hardly any */
#ifndef ULPB_SANITIZER_RUNTIME
    snprintf(setting, sizeof setting, "deep=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("accuracy --op cos --dtype f32 --impl deep --samples 20000 --quiet --json $D/deep.json"), 0);
    doc = load_json("deep.json");
    const double deep_misrounded = number_of(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "results"), 0), "misrounded");
    if (!(deep_misrounded < 10)) fail_msg("deep cos f32: %.0f misrounded (SLEEF's function called?)", deep_misrounded);
    cJSON_Delete(doc);
#endif
    /* data under a kernel's name, and a library that changes the controls as it loads */
    snprintf(setting, sizeof setting, "datum=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    expect_usage_error("list", "'datum_cos_f32' in ");
    expect_usage_error("list", "is not a function but data");
    snprintf(setting, sizeof setting, "demo=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(setenv("ULPB_DEMO_FLUSH_AT_LOAD", "1", 1), 0);
    expect_usage_error("list", "changed the floating-point controls: flush to zero on, denormals are zero on (MXCSR "
                               "0x1f80 -> 0x9fc0");
    assert_int_equal(unsetenv("ULPB_DEMO_FLUSH_AT_LOAD"), 0);
    /* a constructor that never returns is a hang too, and one that calls exit(0) or crashes is named */
    expect_loading_named("ULPB_DEMO_HANG_AT_LOAD=1 ULPB_KERNEL_TIMEOUT=0.5 timeout -s KILL 60 ",
                         "has not returned after 0.5 s", false);
    expect_loading_named("ULPB_DEMO_EXIT_AT_LOAD=1 ", "called exit(): the run is incomplete\n", false);
    expect_loading_named("ULPB_DEMO_CRASH_AT_LOAD=1 ", "crashed: SIGSEGV (invalid memory access)\n", true);
    const int moved_status = run_program("ULPB_DEMO_CHDIR_AT_LOAD=/ ", ULPBENCH_BIN, "list");
    err = slurp(path("err.txt"));
    if (moved_status != 2 || !one_line_with(err, "changed the working directory (to '/'); a library must leave it"))
        fail_msg("a constructor that changes the working directory: status %d, stderr '%s'", moved_status, err);
    free(err);
    /* a long path is shown by its two ends, 100 bytes each, cut between UTF-8 characters: here the head stops before
     * the "\xc3\xa9" (e acute) that starts at byte 99; components of 100 bytes or less, as every file system allows */
    char outer[256], inner[384], long_library[512];
    const int filler = 99 - (int)strlen(g_dir) - 1;
    assert_true(filler >= 0);
    assert_true(snprintf(outer, sizeof outer, "%s/%0*d\xc3\xa9%020d", g_dir, filler, 0, 0) < (int)sizeof outer);
    assert_true(snprintf(inner, sizeof inner, "%s/%090d", outer, 0) < (int)sizeof inner);
    assert_true(snprintf(long_library, sizeof long_library, "%s/%060d.so", inner, 0) < (int)sizeof long_library);
    assert_int_equal(mkdir(outer, 0700), 0);
    assert_int_equal(mkdir(inner, 0700), 0);
    assert_int_equal(symlink(ULPB_DEMO_KERNELS, long_library), 0);
    snprintf(setting, sizeof setting, "demo=%s", long_library);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    expect_loading_named("ULPB_DEMO_EXIT_AT_LOAD=1 ", "called exit(): the run is incomplete\n", false);
    err = slurp(path("err.txt"));
    char shown[256];
    snprintf(shown, sizeof shown, "loading '%.99s...%s'", long_library, long_library + strlen(long_library) - 100);
    if (!strstr(err, shown)) fail_msg("a long library path: stderr '%s', '%s' wanted", err, shown);
    free(err);
    assert_int_equal(unlink(long_library), 0);
    assert_int_equal(rmdir(inner), 0);
    assert_int_equal(rmdir(outer), 0);
    snprintf(setting, sizeof setting, "demo=%s", ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("list"), 0);
    assert_no_temp_files_in(g_dir);
}

/* A user's kernels (tests/demo_kernels.c) through ULPB_LIBRARIES: listed, measured, evaluated, timed and gated like
 * omk's, recorded in the results, and every malformed setting refused before anything runs. */
static void users_kernels_through_ulpb_libraries(void **state) {
    (void)state;
    char setting[1024];
    snprintf(setting, sizeof setting, "demo=%s,bad=%s", ULPB_DEMO_KERNELS, ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", setting, 1), 0);
    assert_int_equal(run("list"), 0);
    char *out = slurp(path("out.txt"));
    /* the symbols the library exports, and no others (it has no binary64 kernels) */
    assert_non_null(strstr(out, "demo_cos_f32 from ULPB_LIBRARIES"));
    assert_non_null(strstr(out, "demo_asin_f32 from ULPB_LIBRARIES"));
    assert_non_null(strstr(out, "demo_cos_f16 from ULPB_LIBRARIES"));
    assert_non_null(strstr(out, "bad_cos_f16 from ULPB_LIBRARIES"));
    assert_null(strstr(out, "demo_cos_f64"));
    free(out);

    /* demo calls libm's binary32 functions, as the glibc peer does: the same rows, input for input */
    assert_int_equal(run("accuracy --op all --dtype f32 --impl glibc,demo --samples 3000 --quiet --json $D/lib.json "
                         "--markdown $D/lib.md"),
                     0);
    /* the Markdown's environment line gives the paths as a code span, where '*' or '_' in a path stays text */
    char *lib_md = slurp(path("lib.md"));
    assert_non_null(strstr(lib_md, "; libraries loaded: `demo="));
    free(lib_md);
    cJSON *doc = load_json("lib.json");
    const cJSON *results = cJSON_GetObjectItem(doc, "results");
    assert_int_equal(cJSON_GetArraySize(results), 4);
    for (int r = 0; r < 4; r += 2) {
        cJSON *glibc = cJSON_GetArrayItem(results, r), *demo = cJSON_GetArrayItem(results, r + 1);
        assert_string_equal(string_of(glibc, "impl"), "glibc");
        assert_string_equal(string_of(demo, "impl"), "demo");
        assert_string_equal(string_of(demo, "role"), "library");
        assert_false(cJSON_IsTrue(cJSON_GetObjectItem(demo, "production")));
        static const char *const same[] = {"inputs", "misrounded", "special_mismatches", "max_ulp", "mean_ulp"};
        for (size_t k = 0; k < sizeof same / sizeof *same; k++)
            assert_true(number_of(glibc, same[k]) == number_of(demo, same[k]));
        assert_true(cJSON_Compare(cJSON_GetObjectItem(glibc, "histogram"), cJSON_GetObjectItem(demo, "histogram"), 1));
    }
    /* the record names the file and its digest, and the command sets the variable again */
    const char *libraries = string_of(cJSON_GetObjectItem(doc, "environment"), "libraries");
    assert_non_null(strstr(libraries, "demo="));
    assert_non_null(strstr(libraries, "libulpb_demo_kernels.so ("));
    assert_non_null(strstr(libraries, "FNV-1a 0x"));
    /* and what the library brought into the process: libomk.so, which ulpbench has linked in statically, and
     * demo_dependency.c's library; in the identity by the loader's name and each one's own size, in name order */
    assert_non_null(strstr(libraries, "; loaded by them: /"));
    const char *identity = string_of(cJSON_GetObjectItem(doc, "environment"), "libraries_identity");
    assert_true(strncmp(identity, "bad:bad ", 8) == 0 && strstr(identity, "; demo:demo ")); /* in name order */
    char omk_entry[128], dependency_entry[128];
    struct stat st;
    assert_int_equal(stat(ULPB_OMK_SHARED, &st), 0);
    snprintf(omk_entry, sizeof omk_entry, "; loaded by them: %s %lld 0x", ULPB_OMK_SONAME, (long long)st.st_size);
    assert_int_equal(stat(ULPB_DEMO_DEPENDENCY, &st), 0);
    snprintf(dependency_entry, sizeof dependency_entry, ", libulpb_demo_dependency.so %lld 0x", (long long)st.st_size);
    const char *omk_at = strstr(identity, omk_entry), *dependency_at = strstr(identity, dependency_entry);
    if (!omk_at || !dependency_at || dependency_at < omk_at)
        fail_msg("libraries_identity '%s' lacks '%s' followed by '%s'", identity, omk_entry, dependency_entry);
    assert_true(strncmp(string_of(doc, "command"), "ULPB_LIBRARIES=demo=", 20) == 0);
    cJSON_Delete(doc);

    expect_usage_error("accuracy --impl demo --op all --dtype f64", "implementation 'demo' for cos/asin f64");
    /* eval applies it as it applies a registry entry */
    const float x[5] = {0.0f, 0.5f, -2.0f, 3.0f, 1e6f};
    const size_t five = 5;
    write_array("lx.npy", NPY_F4, 1, &five, x);
    assert_int_equal(run("eval --op cos --impl demo $D/lx.npy $D/ly_demo.npy"), 0);
    assert_int_equal(run("eval --op cos --impl glibc $D/lx.npy $D/ly_glibc.npy"), 0);
    char *demo_y = slurp(path("ly_demo.npy")), *glibc_y = slurp(path("ly_glibc.npy"));
    assert_memory_equal(demo_y, glibc_y, 128 + 5 * sizeof(float));
    free(demo_y), free(glibc_y);
    expect_usage_error("eval --op cos --impl demo --dtype bf16 $D/lx.npy $D/ly_bf.npy", "does not hold bf16");

    /* bench times it beside the others, in the same rounds */
    assert_int_equal(run("bench --op cos --dtype f16 --impl omk,demo --sizes 64 --rounds 3 --quiet --json $D/lb.json"),
                     0);
    doc = load_json("lb.json");
    int demo_rows = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItem(doc, "benchmarks")) {
        if (strncmp(string_of(b, "run_name"), "cos/f16/demo/64/", 16) != 0) continue;
        demo_rows++;
        assert_true(number_of(b, "ratio_to_omk") > 0);
    }
    assert_int_equal(demo_rows, 2); /* the two input sets of cos */
    cJSON_Delete(doc);

    /* a report gates the library's rows: bad fails, demo (libm's cosf: about 1% misrounded) passes only within the
     * limits given */
    assert_int_equal(run("report --op cos --dtype f16 --impl bad --no-bench --quiet --output-dir $D/lib_bad"), 1);
    char *md = slurp(path("lib_bad/report.md"));
    /* its own failure (1.0 for NaN and infinities), not demo's two misrounded results from another slot's symbol */
    assert_non_null(strstr(md, "- FAIL bad cos f16: 2048 special-value mismatches"));
    assert_non_null(strstr(md, "Gate: FAILED (1 of 1 row of ULPB_LIBRARIES failed"));
    free(md);
    assert_int_equal(
        run("report --op cos --dtype f32 --impl demo,omk --samples 3000 --no-bench --quiet --output-dir $D/lib_demo"),
        1);
    md = slurp(path("lib_demo/report.md")); /* which of the two kinds failed */
    assert_non_null(strstr(md, "Gate: FAILED (0 of 1 production row and 1 of 1 row of ULPB_LIBRARIES failed"));
    free(md);
    assert_int_equal(run("report --op cos --dtype f32 --impl demo,omk --samples 3000 --no-bench --quiet "
                         "--max-misrounded f32=3000 --max-ulp f32=1 --output-dir $D/lib_demo2"),
                     0);
    expect_text_in("lib_demo2/report.md", "Gate: PASSED (1 production row and 1 row of ULPB_LIBRARIES:");

    /* shards of a library's rows merge only where the same library is loaded */
    assert_int_equal(run("accuracy --op asin --dtype f32 --impl demo --samples 800 --shard 0/2 --quiet --json "
                         "$D/ls0.json"),
                     0);
    assert_int_equal(run("accuracy --op asin --dtype f32 --impl demo --samples 800 --shard 1/2 --quiet --json "
                         "$D/ls1.json"),
                     0);
    assert_int_equal(run("merge -o $D/lm.json $D/ls0.json $D/ls1.json"), 0);
    /* a copy of the file elsewhere (another runner's checkout) is the same library; one changed by a byte is not */
    copy_file(ULPB_DEMO_KERNELS, path("my lib's; copy (1).so"), (size_t)-1, NULL);
    copy_file(ULPB_DEMO_KERNELS, path("changed.so"), (size_t)-1, "x");
    char copy_setting[1200];
    snprintf(copy_setting, sizeof copy_setting, "demo=%s,bad=%s", path("my lib's; copy (1).so"), ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", copy_setting, 1), 0);
    assert_int_equal(run("accuracy --op asin --dtype f32 --impl demo --samples 800 --shard 1/2 --quiet --json "
                         "$D/ls1c.json"),
                     0);
    assert_int_equal(run("merge -o $D/lmc.json $D/ls0.json $D/ls1c.json"), 0);
    /* its recorded command, with the path quoted as the value of the assignment, runs again to the same result */
    doc = load_json("ls1c.json");
    char rerun[2048];
    snprintf(rerun, sizeof rerun, "cd '%s' && %s >/dev/null 2>&1", g_dir, string_of(doc, "command"));
    /* the record quotes a path with the record's own punctuation in it ("; ", " ("), which then cannot read as the end
     * of the item or of the path */
    char resolved[PATH_MAX], quoted_record[PATH_MAX + 64];
    assert_non_null(realpath(path("my lib's; copy (1).so"), resolved));
    *strstr(resolved, "'") = 0;
    snprintf(quoted_record, sizeof quoted_record, "demo='%s'\\''s; copy (1).so' (", resolved);
    if (!strstr(string_of(cJSON_GetObjectItem(doc, "environment"), "libraries"), quoted_record))
        fail_msg("environment.libraries '%s' lacks '%s'",
                 string_of(cJSON_GetObjectItem(doc, "environment"), "libraries"), quoted_record);
    cJSON_Delete(doc);
    assert_non_null(strstr(rerun, "ULPB_LIBRARIES='demo="));
    cJSON *before = load_json("ls1c.json");
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0); /* the command sets it, or demo is unknown */
    assert_int_equal(system(rerun), 0);
    cJSON *after = load_json("ls1c.json");
    const cJSON *row_before = cJSON_GetArrayItem(cJSON_GetObjectItem(before, "results"), 0),
                *row_after = cJSON_GetArrayItem(cJSON_GetObjectItem(after, "results"), 0);
    assert_true(cJSON_Compare(cJSON_GetObjectItem(row_before, "state"), cJSON_GetObjectItem(row_after, "state"), 1));
    assert_string_equal(string_of(row_after, "impl"), "demo");
    cJSON_Delete(before), cJSON_Delete(after);
    snprintf(copy_setting, sizeof copy_setting, "demo=%s,bad=%s", path("changed.so"), ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", copy_setting, 1), 0);
    assert_int_equal(run("accuracy --op asin --dtype f32 --impl demo --samples 800 --shard 1/2 --quiet --json "
                         "$D/ls1x.json"),
                     0);
    expect_usage_error("merge -o $D/lmx.json $D/ls0.json $D/ls1x.json", "different environments (libraries_identity");
    /* the same two libraries in the other order, the prefix spelled out: the same libraries */
    snprintf(copy_setting, sizeof copy_setting, "bad=%s,demo:demo=%s", ULPB_DEMO_KERNELS, ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", copy_setting, 1), 0);
    assert_int_equal(run("accuracy --op asin --dtype f32 --impl demo --samples 800 --shard 1/2 --quiet --json "
                         "$D/ls1o.json"),
                     0);
    assert_int_equal(run("merge -o $D/lmo.json $D/ls0.json $D/ls1o.json"), 0);
    snprintf(copy_setting, sizeof copy_setting, "demo=%s,bad=%s", path("changed.so"), ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", copy_setting, 1), 0);
    /* merge loads the libraries the shards ran, so that its recorded command names them */
    expect_usage_error("merge -o $D/lmx.json $D/ls0.json $D/ls1.json",
                       "other libraries than ULPB_LIBRARIES loads here");
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);
    expect_usage_error("merge -o $D/lm2.json $D/ls0.json $D/ls1.json",
                       "other libraries than ULPB_LIBRARIES loads here");
    assert_false(exists(path("lm2.json")) || exists(path("lmx.json")));
    /* a library cut short is refused, not mapped past its end (which stops the process with SIGBUS) */
    copy_file(ULPB_DEMO_KERNELS, path("short.so"), 4000, NULL);
    snprintf(copy_setting, sizeof copy_setting, "demo=%s", path("short.so"));
    assert_int_equal(setenv("ULPB_LIBRARIES", copy_setting, 1), 0);
    expect_usage_error("list", "is cut short");
    /* another CPU's library: dlopen would say "No such file or directory" */
    copy_file(ULPB_DEMO_KERNELS, path("arm.so"), SIZE_MAX, NULL);
    FILE *arm = fopen(path("arm.so"), "r+b");
    assert_non_null(arm);
    assert_int_equal(fseek(arm, 18, SEEK_SET), 0); /* e_machine, little-endian */
    assert_int_equal(fwrite("\xb7\x00", 1, 2, arm), 2);
    fclose(arm);
    snprintf(copy_setting, sizeof copy_setting, "demo=%s", path("arm.so"));
    assert_int_equal(setenv("ULPB_LIBRARIES", copy_setting, 1), 0);
    expect_usage_error("list", "it is a library for another CPU (ELF machine 183, not x86-64's 62)");
    /* five libraries are too many, with or without --help, and nothing of the first four stays loaded */
    snprintf(copy_setting, sizeof copy_setting, "a:demo=%s,b:demo=%s,c:demo=%s,d:demo=%s,e:demo=%s", ULPB_DEMO_KERNELS,
             ULPB_DEMO_KERNELS, ULPB_DEMO_KERNELS, ULPB_DEMO_KERNELS, ULPB_DEMO_KERNELS);
    assert_int_equal(setenv("ULPB_LIBRARIES", copy_setting, 1), 0);
    expect_usage_error("list", "more than 4 libraries");
    /* --impl naming a library that did not load, before --help: the setting's error, not an unknown name */
    expect_usage_error("accuracy --impl a --help", "more than 4 libraries");
    expect_usage_error("bench --impl a --help", "more than 4 libraries");
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);

    static const char *const refused[][2] = {
        {"demo", "is not NAME=PATH"},
        {"omk=" ULPB_DEMO_KERNELS, "the name 'omk' is taken"},
        {"all=" ULPB_DEMO_KERNELS, "the name 'all' is taken"},
        /* letter case aside, or the bench JSON would hold ratio_to_demo and ratio_to_Demo, which its readers refuse */
        {"OMK:demo=" ULPB_DEMO_KERNELS,
         "the name 'OMK' is taken (an implementation of the registry: see ulpbench list, "
         "letter case aside)"},
        {"All:demo=" ULPB_DEMO_KERNELS, "the name 'All' is taken (--impl all"},
        {"demo=" ULPB_DEMO_KERNELS ",demo=" ULPB_DEMO_KERNELS, "gives the name 'demo' twice"},
        {"demo=" ULPB_DEMO_KERNELS ",Demo:demo=" ULPB_DEMO_KERNELS, "gives the name 'demo' twice (letter case aside)"},
        {"demo=" ULPB_DEMO_KERNELS ",", "empty item"},
        {"my-kernels=" ULPB_DEMO_KERNELS, "symbol prefix 'my-kernels' is no C identifier"},
        {"mine:2nd=" ULPB_DEMO_KERNELS, "symbol prefix '2nd' is no C identifier"},
        {"mine=", "names no library file"},
        {"mine=/tmp/lib\nmine.so", "holds a control character"},
        {"mine=/tmp/lib\xc2\x9b"
         "mine.so",
         "holds a control character"}, /* U+009B */
        {"mine=/nonexistent/libmine.so", "cannot open '/nonexistent/libmine.so'"},
        {"mine=/tmp", "is not a regular file"},
        {"mine=" ULPBENCH_TEST_SOURCE, "cannot load"},
        {"mine=" ULPB_DEMO_KERNELS, "exports none of mine_cos_f16"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        assert_int_equal(setenv("ULPB_LIBRARIES", refused[i][0], 1), 0);
        expect_usage_error("accuracy --op cos --dtype f16 --impl omk --quiet --json $D/never.json", refused[i][1]);
        assert_false(exists(path("never.json")));
    }
    /* a control character reached through a symbolic link would break the reports' lines too */
    assert_int_equal(mkdir(path("new\nline"), 0777), 0);
    copy_file(ULPB_DEMO_KERNELS, path("new\nline/lib.so"), (size_t)-1, NULL);
    assert_int_equal(symlink(path("new\nline"), path("plain")), 0);
    char linked[1200];
    snprintf(linked, sizeof linked, "demo=%s", path("plain/lib.so"));
    assert_int_equal(setenv("ULPB_LIBRARIES", linked, 1), 0);
    expect_usage_error("list", "leads to a file name with a control character");
    /* a bad item after a good one: nothing is loaded (the library's constructor would say so) */
    assert_int_equal(setenv("ULPB_DEMO_ANNOUNCE", "1", 1), 0);
    static const char *const after_a_good_one[] = {"demo=" ULPB_DEMO_KERNELS ",mine=/nonexistent/libmine.so",
                                                   "demo=" ULPB_DEMO_KERNELS ",mine=/tmp",
                                                   "demo=" ULPB_DEMO_KERNELS ",short=PLACEHOLDER"};
    for (size_t i = 0; i < sizeof after_a_good_one / sizeof *after_a_good_one; i++) {
        char setting_i[1200];
        snprintf(setting_i, sizeof setting_i, "%s", after_a_good_one[i]);
        char *placeholder = strstr(setting_i, "PLACEHOLDER");
        if (placeholder)
            snprintf(placeholder, sizeof setting_i - (size_t)(placeholder - setting_i), "%s", path("short.so"));
        assert_int_equal(setenv("ULPB_LIBRARIES", setting_i, 1), 0);
        assert_int_equal(run("list"), 2);
        char *err = slurp(path("err.txt"));
        if (strstr(err, "demo_kernels loaded") || !one_line_with(err, "ULPB_LIBRARIES"))
            fail_msg("'%s': stderr '%s'", setting_i, err);
        free(err);
    }
    /* and a good setting does load it, once */
    assert_int_equal(setenv("ULPB_LIBRARIES", "demo=" ULPB_DEMO_KERNELS, 1), 0);
    assert_int_equal(run("list"), 0);
    char *announced = slurp(path("err.txt"));
    assert_string_equal(announced, "demo_kernels loaded\n");
    free(announced);
    assert_int_equal(unsetenv("ULPB_DEMO_ANNOUNCE"), 0);
    /* one that loads: a prefix other than the name */
    assert_int_equal(setenv("ULPB_LIBRARIES", "mine:demo=" ULPB_DEMO_KERNELS, 1), 0);
    assert_int_equal(run("accuracy --op cos --dtype f16 --impl mine --quiet"), 0);
    assert_int_equal(unsetenv("ULPB_LIBRARIES"), 0);
    assert_no_temp_files();
}

/* targets on a real bench file whose omk ratios are then set: the table, and --gate's exit status. */
static void targets_gate_on_saved_runs(void **state) {
    (void)state;
    assert_int_equal(
        run("bench --op asin --dtype f64 --sizes 4096 --rounds 5 --impl omk,glibc,memcpy --quiet --json $D/t.json"), 0);
    cJSON *doc = load_json("t.json");
    cJSON *omk_row = bench_row(doc, "asin/f64/omk/4096/unit");
    cJSON_AddNumberToObject(omk_row, "ratio_to_sleef-u10-avx512", 1.25);
    cJSON_AddNumberToObject(omk_row, "ratio_to_libmvec-avx512", 0.75);
    cJSON_AddNumberToObject(omk_row, "ratio_to_libmvec-avx2", 1.1);
    /* as if run on a CPU with AVX-512, whatever this one has: the rows above name peers of both ISAs */
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "isa_available",
                              cJSON_Parse("[\"none\", \"scalar\", \"avx2\", \"avx512\"]"));
    save_json(doc, "t.json");
    assert_int_equal(run("targets $D/t.json"), 0);
    char *out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "ulpbench bench --op asin --dtype f64 --sizes 4096")); /* the run's command */
    assert_non_null(strstr(out, "| double milestone (sleef-u10-avx512) | asin f64 | [-1, 1] | 4 Ki | ≥ 1.00× | "
                                "1.25× | sleef-u10-avx512 | yes |"));
    assert_non_null(strstr(out, "| 0.75× | libmvec-avx512 | no |"));
    char summary_line[128];
    snprintf(summary_line, sizeof summary_line,
             "1 of 2 target rows met in every run that measured them; %d not measured.",
             (int)(ulpb_target_count * ulpb_input_set_count) - 2);
    assert_non_null(strstr(out, summary_line));
    free(out);
    assert_int_equal(run("targets --gate $D/t.json"), 1); /* the goal row misses */
    doc = load_json("t.json");
    cJSON_ReplaceItemInObject(bench_row(doc, "asin/f64/omk/4096/unit"), "ratio_to_libmvec-avx512",
                              cJSON_CreateNumber(1.0));
    save_json(doc, "t.json");
    assert_int_equal(run("targets --gate $D/t.json"), 0);
    /* a command edited to hold terminal controls (ESC, and U+009B in UTF-8) is shown with '?' for each */
    doc = load_json("t.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "command",
                              cJSON_CreateString("ulpbench \x1b[2J bench \xc2\x9b"
                                                 "2J"));
    save_json(doc, "t_esc.json");
    assert_int_equal(run("targets $D/t_esc.json"), 0);
    expect_text_in("out.txt", "ulpbench ?[2J bench ?2J");

    /* a second run below the milestone, whose memcpy ran at half speed: counted, unless --quiet-only */
    doc = load_json("t.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "date", cJSON_CreateString("another date"));
    cJSON_ReplaceItemInObject(bench_row(doc, "asin/f64/omk/4096/unit"), "ratio_to_sleef-u10-avx512",
                              cJSON_CreateNumber(0.5));
    cJSON *memcpy_row = bench_row(doc, "asin/f64/memcpy/4096/unit");
    cJSON_ReplaceItemInObject(memcpy_row, "elements_per_ns",
                              cJSON_CreateNumber(number_of(memcpy_row, "elements_per_ns") / 2));
    save_json(doc, "t4.json");
    assert_int_equal(run("targets --gate $D/t.json $D/t4.json"), 1);
    out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "| 0.50–1.25× | sleef-u10-avx512 | no (1 of 2 runs) |"));
    assert_non_null(strstr(out, "memcpy below 0.8 of the fastest run's in 1 of 1 groups\n"));
    free(out);
    /* one quiet run against one loaded: too few to call the row met, and the row says what the loaded run gave */
    assert_int_equal(run("targets --gate --quiet-only $D/t.json $D/t4.json"), 1);
    out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "| 1.25× | sleef-u10-avx512 | no (1 of 1 run; 1 loaded left out, no fewer than the "
                                "runs kept, with them 1 of 2, lowest 0.50×) |"));
    free(out);
    assert_int_equal(run("targets --help"), 0);
    out = slurp(path("out.txt"));
    assert_non_null(strstr(out, "usage: ulpbench targets [--gate] [--quiet-only] BENCH.json..."));
    free(out);

    /* what it cannot compare: exit 2, one line, nothing on stdout */
    doc = load_json("t.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "omk_isa", cJSON_CreateString("scalar"));
    save_json(doc, "t2.json");
    doc = load_json("t.json");
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "source", cJSON_CreateString("0123456789ab"));
    save_json(doc, "t3.json");
    /* a row listed twice */
    doc = load_json("t.json");
    cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "benchmarks"),
                         cJSON_Duplicate(bench_row(doc, "asin/f64/omk/4096/unit"), true));
    save_json(doc, "t7.json");
    /* a speed that is no speed: the memcpy rows decide which runs are quiet */
    doc = load_json("t.json");
    cJSON_ReplaceItemInObject(bench_row(doc, "asin/f64/memcpy/4096/unit"), "elements_per_ns", cJSON_CreateNumber(-1));
    save_json(doc, "t8.json");
    /* the same CPU acting as one without AVX-512 (ULPB_DISABLE_ISA): other peers */
    doc = load_json("t.json");
    cJSON *isas = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "context"), "isa_available");
    cJSON_DeleteItemFromArray(isas, cJSON_GetArraySize(isas) - 1);
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(doc, "context"), "date", cJSON_CreateString("a third date"));
    save_json(doc, "t9.json");
    /* runs with ULPB_LIBRARIES: another library under the same name, or none */
    static const char *const identities[][2] = {{"t10.json", "mine 1000 0x1"}, {"t11.json", "mine 1000 0x2"}};
    for (size_t k = 0; k < 2; k++) {
        doc = load_json("t.json");
        cJSON *context = cJSON_GetObjectItem(doc, "context");
        cJSON_ReplaceItemInObject(context, "date", cJSON_CreateString(identities[k][0]));
        cJSON_AddStringToObject(context, "libraries_identity", identities[k][1]);
        save_json(doc, identities[k][0]);
    }
    /* two runs appended to one file (--json /dev/stdout >> runs.json twice), and a file cut short */
    char *first = slurp(path("t.json")), *second = slurp(path("t4.json"));
    FILE *f = fopen(path("t5.json"), "w");
    assert_non_null(f);
    fprintf(f, "%s\n%s", first, second);
    fclose(f);
    f = fopen(path("t6.json"), "w");
    assert_non_null(f);
    fprintf(f, "%.*s", (int)(strlen(first) / 2), first);
    fclose(f);
    free(first), free(second);
    const char *const refused[][2] = {
        {"targets $D/t5.json", "holds more than one JSON document (more text from byte"},
        {"targets $D/t6.json", "is not valid JSON (at byte"},
        {"merge $D/t5.json $D/t.json", "holds more than one JSON document"},
        {"targets", "no result files"},
        {"targets $D/missing.json", "cannot open"},
        {"targets $D/t.json $D/t2.json", "different environments (omk_isa:"},
        {"targets $D/t.json $D/t3.json", "different environments (source:"},
        {"targets $D/t.json $D/t.json", "hold the same run"},
        {"targets $D/t7.json", "t7.json: the row 'asin/f64/omk/4096/unit' appears more than once"},
        {"targets --quiet-only $D/t8.json",
         "t8.json: the row 'asin/f64/memcpy/4096/unit': its elements_per_ns is not a positive number"},
        {"targets $D/t.json $D/t9.json", "different environments (isa_available differs)"},
        {"targets $D/t.json $D/t10.json", "different environments (libraries_identity: 'none loaded', 'mine 1000"},
        {"targets $D/t10.json $D/t11.json", "different environments (libraries_identity: 'mine 1000 0x1', 'mine"},
        {"targets --fast $D/t.json", "--fast"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(run(refused[i][0]), 2);
        char *err = slurp(path("err.txt")), *stdout_text = slurp(path("out.txt"));
        if (!one_line_with(err, refused[i][1])) fail_msg("'%s': stderr '%s'", refused[i][0], err);
        assert_string_equal(stdout_text, "");
        free(err), free(stdout_text);
    }
    /* the table appended to one of the runs it reads would leave that file two documents, unreadable next time */
    char *run_before = slurp(path("t4.json"));
    assert_int_equal(run_appending_to("targets $D/t.json $D/t4.json", "t4.json"), 2);
    char *run_after = slurp(path("t4.json")), *append_err = slurp(path("err.txt"));
    if (!one_line_with(append_err, "standard output is the input file")) fail_msg("stderr '%s'", append_err);
    assert_string_equal(run_before, run_after);
    free(run_before), free(run_after), free(append_err);
    /* a run that measured no target row (another size), and one of too few rounds for a median of ratios */
    assert_int_equal(
        run("bench --op asin --dtype f64 --sizes 512 --rounds 3 --impl omk,glibc --quiet --json $D/t3.json"), 0);
    expect_usage_error("targets $D/t3.json", "no target is measured");
    doc = load_json("t.json");
    cJSON_ReplaceItemInObject(bench_row(doc, "asin/f64/omk/4096/unit"), "repetitions", cJSON_CreateNumber(4));
    save_json(doc, "t12.json");
    expect_usage_error("targets $D/t12.json", "no target is measured");
}

static int setup(void **state) {
    (void)state;
    if (!mkdtemp(g_dir)) return -1;
    return setenv("D", g_dir, 1);
}

static int teardown(void **state) {
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    int status = system(cmd) == 0 ? 0 : -1;
    if (g_user_home_made) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_user_home);
        if (system(cmd) != 0) status = -1;
    }
    return status;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eval_matches_library),
        cmocka_unit_test(eval_rejects_bad_input),
        cmocka_unit_test(accuracy_writes_json),
        cmocka_unit_test(sampled_shards_merge),
        cmocka_unit_test(ranged_runs_merge_and_record_their_range),
        cmocka_unit_test(exhaustive_range_runs_resume_and_merge),
        cmocka_unit_test(gate_holds_saved_results),
        cmocka_unit_test_teardown(gate_holds_library_rows, forget_libraries),
        cmocka_unit_test(exhaustive_resume_keeps_the_command),
        cmocka_unit_test(exhaustive_checkpoint_survives_a_kill),
        cmocka_unit_test(named_baseline_is_skipped),
        cmocka_unit_test(report_gates),
        cmocka_unit_test(bench_writes_google_benchmark_json),
        cmocka_unit_test(bench_custom_range),
        cmocka_unit_test(environment_errors_and_help),
        cmocka_unit_test(bench_rejects_bad_options),
        cmocka_unit_test(usage_errors_are_one_line),
        cmocka_unit_test(unwritable_output_fails_before_the_run),
        cmocka_unit_test(outputs_another_user_cannot_replace_are_refused),
        cmocka_unit_test(outputs_are_written_all_or_nothing),
        cmocka_unit_test(failed_write_leaves_stdout_empty),
        cmocka_unit_test(outputs_through_links_and_pipes),
        cmocka_unit_test(recorded_command_is_quoted),
        cmocka_unit_test(recorded_command_survives_backticks),
        cmocka_unit_test(file_size_limit_is_an_error),
        cmocka_unit_test(outputs_follow_the_umask),
        cmocka_unit_test(replaced_outputs_keep_their_mode),
        cmocka_unit_test_teardown(users_kernels_through_ulpb_libraries, forget_libraries),
        cmocka_unit_test_teardown(kernels_that_write_wrong_places_are_refused, forget_libraries),
        cmocka_unit_test_teardown(kernels_that_upset_the_run_are_named, forget_libraries),
        cmocka_unit_test(results_name_the_omk_build),
        cmocka_unit_test(unavailable_entries_are_skipped),
        cmocka_unit_test(targets_gate_on_saved_runs),
        cmocka_unit_test(accuracy_checks_a_files_inputs),
        cmocka_unit_test(report_checks_a_files_inputs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
