/* Accuracy results as JSON (schema in README.md, "schema_version") and Markdown; cli/outfile.h
 * writes them atomically, so a failed or interrupted run never leaves a half-written file. */
#ifndef ULPB_RESULT_IO_H
#define ULPB_RESULT_IO_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "accuracy.h"

enum { ULPB_SCHEMA_VERSION = 1 };

/* The array an accuracy --inputs run checked: its path as given, its element count and the SHA-256 of the file. */
typedef struct ulpb_inputs_file {
    const char *path;
    uint64_t elements;
    char sha256[65];
} ulpb_inputs_file;

/* Run-wide facts every report carries: the command, seed and versions. */
typedef struct {
    const char *command;
    unsigned long long seed;
    unsigned long long samples;
    const char *reference;        /* "mpfr" or "fast" */
    int shard_index, shard_count; /* sampled runs split with --shard K/N (0/1: whole) */
    /* samples 0: no row was sampled (only f16/bf16, checked on every input); JSON null. seed_unused: nothing in the
     * run drew on the seed either; JSON null. */
    bool seed_unused;
    ulpb_input_range range; /* --range; JSON "range": {"lo", "hi"}, or null */
    /* --inputs: JSON "inputs": {"path", "elements", "sha256"} (samples and seed then null), or null */
    const ulpb_inputs_file *inputs;
} ulpb_run_info;

/* "exhaustive", "sampled" or "inputs" (accuracy --inputs), as the JSON's "mode" and the tables name a result. */
const char *ulpb_result_mode(const ulpb_result *r);
cJSON *ulpb_environment_json(void);
cJSON *ulpb_result_json(const ulpb_result *r);
/* The counters, worst input and histogram of one statistics block. */
cJSON *ulpb_stats_json(const ulpb_stats *s, const ulpb_dtype *dt);
cJSON *ulpb_document_json(const char *kind, const ulpb_run_info *run, const ulpb_result *results, int count);
/* "range": {"lo", "hi"} when given, else null. */
void ulpb_range_json(cJSON *doc, const ulpb_input_range *range);
/* A document's "range" (absent, as before it was recorded, or null: not given); -1 and a message when malformed. */
int ulpb_range_from_json(const cJSON *doc, ulpb_input_range *range, char *err, size_t err_len);

/* "inputs": {"path", "elements", "sha256"}, or null when inputs is NULL. */
void ulpb_inputs_json(cJSON *doc, const ulpb_inputs_file *inputs);
/* A document's "inputs" (absent or null: none; *given false); -1 and a message when malformed. path points into doc. */
int ulpb_inputs_from_json(const cJSON *doc, ulpb_inputs_file *inputs, bool *given, char *err, size_t err_len);

/* One Markdown table per op over the given results. */
void ulpb_results_markdown(FILE *out, const ulpb_result *results, int count);

/* Exact statistics for merging and resuming: the counters of ulpb_stats_json plus a "state" object
 * (hex floats, which round-trip). */
cJSON *ulpb_stats_state_json(const ulpb_stats *s);
/* Reads back what ulpb_stats_json and ulpb_stats_state_json wrote; -1 with a message naming the
 * field. */
int ulpb_stats_from_json(const cJSON *counters, const cJSON *state, ulpb_stats *s, char *err, size_t err_len);
/* Whether the worst input and the special mismatch that counters show (ulpb_stats_json's "worst" and
 * "special_example") are s's, which the tools go by: 0, or -1 with a message (an edit shown, not gated). Readers check
 * it last, after the state's own checks. */
int ulpb_stats_shown_match(const cJSON *counters, const ulpb_stats *s, char *err, size_t err_len);
/* What ulpb_stats_from_json cannot check without the dtype: the inputs the statistics name are inputs of dt, and the
 * worst input's value is the one its bits encode. */
int ulpb_stats_check_inputs(const ulpb_stats *s, const ulpb_dtype *dt, char *err, size_t err_len);

/* JSON field helpers that fail with a message naming the field. */
void ulpb_json_add_hex_double(cJSON *o, const char *key, double v);
/* A count or seed (at most 2^53) as a JSON integer written in full: cJSON's own number printing keeps 15 significant
 * digits when the value reads back within its relative tolerance, which turns 5000000000000001 into 5e+15. */
void ulpb_json_add_count(cJSON *o, const char *key, uint64_t v);
/* A finite double as the shortest decimal that reads back as exactly v (cJSON's own printing would write
 * 0.5000000000000001, a misrounded result's error, as 0.5); a non-finite one as null. */
void ulpb_json_add_exact(cJSON *o, const char *key, double v);
/* v as the shortest decimal that reads back as exactly v (text: 32 bytes). */
void ulpb_shortest_decimal(char *text, size_t len, double v);
const char *ulpb_json_get_string(const cJSON *o, const char *key);
/* A number item's value, also of the raw items ulpb_json_add_count and ulpb_json_add_exact make (a document built in
 * memory, not yet printed and parsed); 0 when item is neither. */
int ulpb_json_number(const cJSON *item, double *v);
/* word at p as one shell word that also reads back unambiguously in a record: as it is when it is not empty and holds
 * only letters, digits and the characters of plain, else in single quotes (' as '\\''), or, with a control character
 * (which would break a report's line), as "$(printf '...')" with octal escapes, which every POSIX shell runs (bash's
 * $'...' is not in dash); trailing newlines, which a command substitution drops, then follow as they are, in single
 * quotes. p needs ULPB_QUOTED_SIZE(strlen(word)) bytes. Returns the end (not terminated). */
#define ULPB_QUOTED_SIZE(length) (4 * (length) + 16)
char *ulpb_append_quoted(char *p, const char *word, const char *plain);
/* The characters beside letters and digits that a shell word may hold unquoted; a command's first word needs '='
 * quoted too (or X=y/ulpbench would read as an assignment), and a path in a record ',' (which separates its items). */
#define ULPB_SHELL_PLAIN         "_./=,:+@%^-"
#define ULPB_SHELL_PLAIN_COMMAND "_./,:+@%^-"
#define ULPB_SHELL_PLAIN_RECORD  "_./=:+@%^-"
/* Whether two libraries_identity values (NULL: no library loaded) differ; both then read "none loaded" for NULL. */
bool ulpb_libraries_differ(const char **a, const char **b);
int ulpb_json_get_number(const cJSON *o, const char *key, double *v, char *err, size_t err_len);
/* A duration in seconds (finite, not negative), or -1 and a message; an optional one that is absent (written before it
 * was recorded) reads as -1, unknown. */
int ulpb_json_get_duration(const cJSON *o, const char *key, bool required, double *v, char *err, size_t err_len);
int ulpb_json_get_hex_double(const cJSON *o, const char *key, double *v, char *err, size_t err_len);
/* A count as the outputs record it: an integer in 0..2^53 (exact in binary64); -1 with err set otherwise. */
int ulpb_json_get_count(const cJSON *o, const char *key, uint64_t *out, char *err, size_t err_len);

/* The registry entry a result object names by "op", "dtype" and "impl"; NULL with a message ("names no registry entry
 * (...)") when there is none or it is a throughput baseline. */
const ulpb_entry *ulpb_result_entry(const cJSON *result, char *err, size_t err_len);
/* The results of an accuracy or report document: each one's entry, mode and statistics (not its samplers), at most
 * capacity of them. Returns how many, or -1 and a message when one is malformed or names no registry entry. */
int ulpb_results_from_json(const cJSON *doc, ulpb_result *results, int capacity, char *err, size_t err_len);

/* Combines the documents of `ulpbench accuracy --shard K/N` (sampled runs) into one; NULL with a
 * message when they differ in version, seed, samples, reference, ops, dtypes or implementations,
 * repeat a shard or miss one. Shards merge in index order. */
cJSON *ulpb_accuracy_merge(cJSON *const *docs, const char *const *names, int count, const char *command, char *err,
                           size_t err_len);

/* The report's gate, per dtype: max_misrounded and max_ulp negative = not gated; a kernel the registry marks
 * correctly rounded is held to 0 misrounded unless misrounded_given (--max-misrounded named its dtype). */
typedef struct {
    double max_ulp[ULPB_DTYPE_COUNT];
    long long max_misrounded[ULPB_DTYPE_COUNT];
    bool misrounded_given[ULPB_DTYPE_COUNT];
} ulpb_gate_limits;

/* The registry's default thresholds (ulpb_dtypes' gate_max_ulp and gate_max_misrounded). */
void ulpb_gate_defaults(ulpb_gate_limits *g);

/* Why a production row fails the gate ("3 special-value mismatches", "1 misrounded > 0", "max ULP 0.502 > 0.501"),
 * into why; empty, and 0 returned, when it passes. Special-value mismatches fail every row. */
int ulpb_gate_check(const ulpb_result *r, const ulpb_gate_limits *g, char *why, size_t len);

/* "%.17g" and "%a" of a value, for worst-input columns. */
void ulpb_format_value(char *buf, size_t len, double v);

/* An ULP error with three decimals (from 10^15 on, four significant digits), rounded up: a misrounded 0.5001 shows as
 * 0.501, never as a correctly rounded 0.500. */
void ulpb_format_ulp(char *buf, size_t len, double ulp);

#endif
