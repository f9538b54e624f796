/* Accuracy results as JSON (schema in README.md, "schema_version") and Markdown, written
 * atomically so a failed or interrupted run never leaves a half-written file. */
#ifndef ULPB_RESULT_IO_H
#define ULPB_RESULT_IO_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "accuracy.h"

enum { ULPB_SCHEMA_VERSION = 1 };

/* Run-wide facts every report carries: the command, seed and versions. */
typedef struct {
    const char *command;
    unsigned long long seed;
    unsigned long long samples;
    const char *reference; /* "mpfr" or "fast" */
} ulpb_run_info;

cJSON *ulpb_environment_json(void);
cJSON *ulpb_result_json(const ulpb_result *r);
/* The counters, worst input and histogram of one statistics block. */
cJSON *ulpb_stats_json(const ulpb_stats *s, const ulpb_dtype *dt);
cJSON *ulpb_document_json(const char *kind, const ulpb_run_info *run, const ulpb_result *results, int count);

/* One Markdown table per op over the given results. */
void ulpb_results_markdown(FILE *out, const ulpb_result *results, int count);

/* Writes text to path via a temporary file and rename(). 0 on success, -1 with err set. */
int ulpb_write_file_atomic(const char *path, const char *text, char *err, size_t err_len);

/* "%.17g" and "%a" of a value, for worst-input columns. */
void ulpb_format_value(char *buf, size_t len, double v);

#endif
