#define _GNU_SOURCE
#include "result_io.h"

#include <errno.h>
#include <gnu/libc-version.h>
#include <math.h>
#include <sleef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omk.h"
#include "ref.h"

#ifndef ULPB_VERSION
#define ULPB_VERSION "0.0.0"
#endif

void ulpb_format_value(char *buf, size_t len, double v) {
    if (isnan(v)) snprintf(buf, len, "%snan", signbit(v) ? "-" : "");
    else snprintf(buf, len, "%.17g (%a)", v, v);
}

static void cpu_model(char *buf, size_t len) {
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            if (colon) {
                snprintf(buf, len, "%s", colon + 2);
                buf[strcspn(buf, "\n")] = 0;
            }
            break;
        }
    }
    fclose(f);
}

cJSON *ulpb_environment_json(void) {
    cJSON *env = cJSON_CreateObject();
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    cJSON_AddStringToObject(env, "cpu", cpu);
    cJSON_AddNumberToObject(env, "cores", (double)sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddStringToObject(env, "compiler", __VERSION__);
    cJSON_AddStringToObject(env, "mpfr", ref_mpfr_version());
    cJSON_AddStringToObject(env, "glibc", gnu_get_libc_version());
    char sleef[32];
    snprintf(sleef, sizeof sleef, "%d.%d.%d", SLEEF_VERSION_MAJOR, SLEEF_VERSION_MINOR, SLEEF_VERSION_PATCHLEVEL);
    cJSON_AddStringToObject(env, "sleef", sleef);
    cJSON_AddStringToObject(env, "omk", omk_version());
    cJSON_AddStringToObject(env, "ulpbench", ULPB_VERSION);
    return env;
}

/* {"input_bits", "got", "expected"} of one input. */
static cJSON *example_json(cJSON *o, const ulpb_dtype *dt, uint64_t bits, double got, double expected) {
    char buf[96];
    snprintf(buf, sizeof buf, "0x%0*llx", (int)dt->bytes * 2, (unsigned long long)bits);
    cJSON_AddStringToObject(o, "input_bits", buf);
    ulpb_format_value(buf, sizeof buf, got);
    cJSON_AddStringToObject(o, "got", buf);
    ulpb_format_value(buf, sizeof buf, expected);
    cJSON_AddStringToObject(o, "expected", buf);
    return o;
}

cJSON *ulpb_stats_json(const ulpb_stats *s, const ulpb_dtype *dt) {
    cJSON *o = cJSON_CreateObject();
    char buf[96];
    cJSON_AddNumberToObject(o, "inputs", (double)s->inputs);
    cJSON_AddNumberToObject(o, "correctly_rounded", (double)s->correctly_rounded);
    cJSON_AddNumberToObject(o, "misrounded", (double)s->misrounded);
    cJSON_AddNumberToObject(o, "special_mismatches", (double)s->special_mismatches);
    cJSON_AddNumberToObject(o, "max_ulp", s->max_ulp);
    cJSON_AddNumberToObject(o, "mean_ulp", ulpb_mean_ulp(s));
    if (s->has_worst) {
        cJSON *w = example_json(cJSON_AddObjectToObject(o, "worst"), dt, s->worst_bits, s->worst_got, s->worst_expected);
        ulpb_format_value(buf, sizeof buf, s->worst_input);
        cJSON_AddStringToObject(w, "input", buf);
    } else {
        cJSON_AddNullToObject(o, "worst");
    }
    if (s->has_special_example)
        example_json(cJSON_AddObjectToObject(o, "special_example"), dt, s->special_bits, s->special_got,
                     s->special_expected);
    cJSON *h = cJSON_AddObjectToObject(o, "histogram");
    for (int b = 0; b < ULPB_HIST_BINS; b++) cJSON_AddNumberToObject(h, ulpb_hist_labels[b], (double)s->histogram[b]);
    return o;
}

cJSON *ulpb_result_json(const ulpb_result *r) {
    const ulpb_dtype *dt = &ulpb_dtypes[r->entry->dtype];
    cJSON *o = ulpb_stats_json(&r->total, dt);
    /* identity first for readers of the raw file */
    cJSON_AddItemToObject(o, "op", cJSON_CreateString(ulpb_ops[r->entry->op].name));
    cJSON_AddStringToObject(o, "dtype", dt->name);
    cJSON_AddStringToObject(o, "impl", r->entry->impl);
    cJSON_AddBoolToObject(o, "production", r->entry->role == ULPB_ROLE_PRODUCTION);
    cJSON_AddStringToObject(o, "description", r->entry->description);
    cJSON_AddStringToObject(o, "mode", r->exhaustive ? "exhaustive" : "sampled");
    cJSON_AddNumberToObject(o, "seconds", r->seconds);
    cJSON_AddNumberToObject(o, "reference_seconds", r->reference_seconds);
    cJSON *samplers = cJSON_AddArrayToObject(o, "samplers");
    for (int s = 0; s < r->sampler_count; s++) {
        cJSON *so = ulpb_stats_json(&r->per_sampler[s], dt);
        cJSON_AddStringToObject(so, "name", r->sampler_names[s]);
        cJSON_AddItemToArray(samplers, so);
    }
    return o;
}

cJSON *ulpb_document_json(const char *kind, const ulpb_run_info *run, const ulpb_result *results, int count) {
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "schema", kind);
    cJSON_AddNumberToObject(doc, "schema_version", ULPB_SCHEMA_VERSION);
    cJSON_AddStringToObject(doc, "command", run->command);
    cJSON_AddNumberToObject(doc, "seed", (double)run->seed);
    cJSON_AddNumberToObject(doc, "samples", (double)run->samples);
    cJSON_AddStringToObject(doc, "reference", run->reference ? run->reference : "mpfr");
    cJSON_AddItemToObject(doc, "environment", ulpb_environment_json());
    cJSON *arr = cJSON_AddArrayToObject(doc, "results");
    for (int i = 0; i < count; i++) cJSON_AddItemToArray(arr, ulpb_result_json(&results[i]));
    return doc;
}

void ulpb_results_markdown(FILE *out, const ulpb_result *results, int count) {
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        int rows = 0;
        for (int i = 0; i < count; i++) rows += results[i].entry->op == (ulpb_op_id)op;
        if (!rows) continue;
        fprintf(out, "\n### %s\n\n", ulpb_ops[op].name);
        fprintf(out, "| dtype | implementation | mode | inputs | misrounded | special mismatches | max ULP | "
                     "worst input | time (s) |\n");
        fprintf(out, "|---|---|---|---:|---:|---:|---:|---|---:|\n");
        for (int i = 0; i < count; i++) {
            const ulpb_result *r = &results[i];
            if (r->entry->op != (ulpb_op_id)op) continue;
            const ulpb_dtype *dt = &ulpb_dtypes[r->entry->dtype];
            char worst[64] = "-";
            if (r->total.has_worst && r->total.max_ulp > 0)
                snprintf(worst, sizeof worst, "0x%0*llx (%.9g)", (int)dt->bytes * 2,
                         (unsigned long long)r->total.worst_bits, r->total.worst_input);
            fprintf(out, "| %s | %s | %s | %llu | %llu | %llu | %.3f | %s | %.2f |\n", dt->name, r->entry->impl,
                    r->exhaustive ? "exhaustive" : "sampled", (unsigned long long)r->total.inputs,
                    (unsigned long long)r->total.misrounded, (unsigned long long)r->total.special_mismatches,
                    r->total.max_ulp, worst, r->seconds + r->reference_seconds);
        }
    }
}

int ulpb_write_file_atomic(const char *path, const char *text, char *err, size_t err_len) {
    const size_t len = strlen(path) + 16;
    char *tmp = malloc(len);
    if (!tmp) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    snprintf(tmp, len, "%s.tmpXXXXXX", path);
    const int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f) ok = (fclose(f) == 0) && ok;
    else close(fd);
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) {
        snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
