/* libFuzzer target for every reader of files a user hands ulpbench: `eval`'s .npy input, and the JSON that `merge`,
 * `accuracy --resume`, `targets` and `gate` read back (exhaustive and sampled accuracy results, bench runs). An input
 * that starts as a .npy file does (0x93) goes to the .npy readers (eval's, and accuracy --inputs' with its SHA-256),
 * and any input to each JSON reader. A reader may refuse an input (that is the point), never crash, leak, or read out
 * of bounds; ASan and UBSan watch that. Built with -DULPB_FUZZ=ON and Clang (README, "Fuzzing"); .ci/run runs it for a
 * fixed number of inputs. */
#define _GNU_SOURCE

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "exhaustive.h"
#include "npy.h"
#include "result_io.h"
#include "targets.h"

static void read_as_npy(const uint8_t *data, size_t size) {
    /* npy_read takes a path: a memory file stands in for the user's file */
    const int fd = memfd_create("fuzz.npy", MFD_CLOEXEC);
    if (fd < 0) abort();
    if (size > 0 && write(fd, data, size) != (ssize_t)size) abort();
    char path[64], err[256];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    npy_array array;
    if (npy_read(path, &array, err, sizeof err) == 0 && array.count > 0 && !array.data) abort();
    npy_free(&array);
    char sha256[65]; /* accuracy --inputs' reader: any order, and the file's digest */
    if (npy_read_elements(path, &array, sha256, err, sizeof err) == 0 &&
        ((array.count > 0 && !array.data) || strlen(sha256) != 64))
        abort();
    npy_free(&array);
    close(fd);
}

static void read_as_exhaustive(const cJSON *doc) {
    ulpb_exhaustive_state *parts = calloc(2, sizeof *parts), *merged = calloc(1, sizeof *merged);
    if (!parts || !merged) abort();
    char err[512];
    static const char *const names[] = {"a.json", "b.json"};
    if (ulpb_exhaustive_from_json(doc, &parts[0], err, sizeof err) == 0) {
        cJSON *again = ulpb_exhaustive_json(&parts[0], "ulpbench merge a.json");
        cJSON_Delete(again);
        parts[1] = parts[0];
        (void)ulpb_exhaustive_merge(merged, parts, names, 1, err, sizeof err);
        (void)ulpb_exhaustive_merge(merged, parts, names, 2, err, sizeof err); /* overlapping shards: refused */
    }
    free(parts);
    free(merged);
}

static void read_as_sampled_shards(cJSON *doc) {
    cJSON *docs[2] = {doc, doc};
    static const char *const names[] = {"a.json", "b.json"};
    char err[512];
    for (int count = 1; count <= 2; count++)
        cJSON_Delete(ulpb_accuracy_merge(docs, names, count, "ulpbench merge a.json", err, sizeof err));
}

static void read_as_gated_results(const cJSON *doc) {
    ulpb_result *results = calloc(ulpb_entry_count, sizeof *results);
    if (!results) abort();
    char err[512], why[200];
    ulpb_gate_limits limits;
    ulpb_gate_defaults(&limits);
    const int count = ulpb_results_from_json(doc, results, (int)ulpb_entry_count, err, sizeof err);
    for (int i = 0; i < count; i++) (void)ulpb_gate_check(&results[i], &limits, why, sizeof why);
    ulpb_inputs_file inputs;
    bool given;
    if (ulpb_inputs_from_json(doc, &inputs, &given, err, sizeof err) == 0 && given &&
        (!inputs.path || strlen(inputs.sha256) != 64))
        abort();
    free(results);
}

static void read_as_bench_runs(const cJSON *doc) {
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w"))) abort();
    const cJSON *docs[2] = {doc, doc};
    static const char *const names[] = {"a.json", "b.json"};
    char err[512];
    ulpb_targets_summary summary;
    for (int quiet_only = 0; quiet_only <= 1; quiet_only++) {
        const ulpb_targets_options options = {.show_unmeasured = true, .quiet_only = quiet_only};
        for (int count = 1; count <= 2; count++)
            (void)ulpb_targets_report(sink, docs, names, count, &options, &summary, err, sizeof err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* other inputs would each cost a memory file, to stop at the magic string */
    if (size > 0 && data[0] == 0x93) read_as_npy(data, size);
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    if (doc) {
        read_as_exhaustive(doc);
        read_as_sampled_shards(doc);
        read_as_gated_results(doc);
        read_as_bench_runs(doc);
        cJSON_Delete(doc);
    }
    return 0;
}
