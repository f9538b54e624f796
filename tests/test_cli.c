/* ulpbench as a user runs it: eval on .npy files (good and bad), accuracy JSON, the report gate. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "npy.h"
#include "omk.h"

static char g_dir[] = "/tmp/ulpb_cli_XXXXXX";

static char *path(const char *name) {
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
    return buf[k];
}

/* Runs ulpbench with the given arguments; returns its exit status; stderr goes to err.txt. */
static int run(const char *args) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s", ULPBENCH_BIN, args, path("out.txt"), path("err.txt"));
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

static int exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

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

static void eval_matches_library(void **state) {
    (void)state;
    const float x[6] = {-1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f};
    const size_t shape[2] = {2, 3};
    write_array("x32.npy", NPY_F4, 2, shape, x);
    assert_int_equal(run("eval --op cos " "$D/x32.npy $D/y32.npy"), 0);
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

/* Each bad invocation: exit 2, a one-line message naming the problem, and no output file. */
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
        const char *args, *needle;
    } cases[] = {
        {"eval $D/ok.npy $D/bad.npy", "missing --op"},
        {"eval --op tan $D/ok.npy $D/bad.npy", "unknown op 'tan'"},
        {"eval --op cos --impl nosuch $D/ok.npy $D/bad.npy", "unknown implementation 'nosuch'"},
        {"eval --op cos $D/garbage.npy $D/bad.npy", "garbage.npy"},
        {"eval --op cos $D/missing.npy $D/bad.npy", "missing.npy"},
        {"eval --op cos $D/u2.npy $D/bad.npy", "--dtype bf16"},
        {"eval --op cos --dtype f64 $D/ok.npy $D/bad.npy", "does not hold f64"},
        {"eval --op cos --dtype f8 $D/ok.npy $D/bad.npy", "unknown dtype 'f8'"},
        {"eval --op cos $D/ok.npy", "expected IN.npy and OUT.npy"},
        {"eval --op cos $D/ok.npy $D/nodir/bad.npy", "cannot"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int status = run(cases[i].args);
        char *err = slurp(path("err.txt"));
        if (status != 2 || !strstr(err, cases[i].needle) || strchr(err, '\n') != err + strlen(err) - 1)
            fail_msg("'%s': status %d, stderr '%s' (wanted exit 2 and one line with '%s')", cases[i].args, status, err,
                     cases[i].needle);
        free(err);
        assert_false(exists(path("bad.npy")));
    }
}

static void accuracy_writes_json(void **state) {
    (void)state;
    assert_int_equal(run("accuracy --op asin --dtype f32 --samples 2000 --seed 5 --quiet --json $D/a.json "
                         "--markdown $D/a.md"),
                     0);
    char *text = slurp(path("a.json"));
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    assert_int_equal(cJSON_GetObjectItem(doc, "schema_version")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(doc, "seed")->valueint, 5);
    assert_non_null(strstr(cJSON_GetObjectItem(doc, "command")->valuestring, "--seed 5"));
    const cJSON *results = cJSON_GetObjectItem(doc, "results");
    assert_int_equal(cJSON_GetArraySize(results), 2); /* omk and glibc */
    const cJSON *first = cJSON_GetArrayItem(results, 0);
    assert_string_equal(cJSON_GetObjectItem(first, "impl")->valuestring, "omk");
    assert_int_equal(cJSON_GetObjectItem(first, "inputs")->valueint, 2000);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(first, "samplers")), 5);
    cJSON_Delete(doc);
    free(text);
    assert_true(exists(path("a.md")));
    assert_int_equal(run("accuracy --op asin --dtype f12"), 2);
    assert_int_equal(run("accuracy --op asin --dtype f32 --samples 0"), 2);
    assert_int_equal(run("accuracy --dtype f32"), 2);
}

static void report_gates(void **state) {
    (void)state;
    assert_int_equal(run("report --samples 3000 --quiet --output-dir $D"), 0);
    char *md = slurp(path("report.md"));
    assert_non_null(strstr(md, "Gate: PASSED"));
    free(md);
    char *text = slurp(path("report.json"));
    cJSON *doc = cJSON_Parse(text);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "gate"), "passed")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "results")), 16);
    cJSON_Delete(doc);
    free(text);
    /* a threshold omk cannot meet makes the gate fail with status 1 */
    assert_int_equal(run("report --op asin --dtype f64 --samples 3000 --quiet --max-ulp f64=0 --output-dir $D"), 1);
    md = slurp(path("report.md"));
    assert_non_null(strstr(md, "FAIL omk asin f64"));
    free(md);
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
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(eval_matches_library),
        cmocka_unit_test(eval_rejects_bad_input),
        cmocka_unit_test(accuracy_writes_json),
        cmocka_unit_test(report_gates),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
