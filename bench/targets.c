#include "targets.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "registry.h"
#include "result_io.h"
#include "visible_text.h"

/* The benchmark results of a document and their context: bench's own, or report.json's "throughput". */
static const cJSON *results_of(const cJSON *doc, const cJSON **context) {
    const cJSON *holder =
        cJSON_IsArray(cJSON_GetObjectItem(doc, "benchmarks")) ? doc : cJSON_GetObjectItem(doc, "throughput");
    const cJSON *benchmarks = cJSON_GetObjectItem(holder, "benchmarks");
    *context = cJSON_GetObjectItem(holder, "context");
    return cJSON_IsArray(benchmarks) && cJSON_IsObject(*context) ? benchmarks : NULL;
}

static const cJSON *find_row(const cJSON *benchmarks, const char *run_name) {
    const cJSON *row;
    cJSON_ArrayForEach(row, benchmarks) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "run_name"));
        if (name && strcmp(name, run_name) == 0) return row;
    }
    return NULL;
}

/* The first run_name that a later row repeats; NULL when every row's is its own (rows_refused has capped their count,
 * which keeps this quadratic search short). */
static const char *repeated_run_name(const cJSON *benchmarks) {
    const cJSON *row;
    cJSON_ArrayForEach(row, benchmarks) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "run_name"));
        if (name && find_row(benchmarks, name) != row) return name;
    }
    return NULL;
}

/* A finite number above 0, also as the exact text of a report's document not yet printed (ulpb_json_add_exact). */
static bool positive_number(const cJSON *item, double *value) {
    return ulpb_json_number(item, value) && *value > 0 && isfinite(*value);
}

/* Whether a file's rows are some that ulpbench bench could have written, else why not (in why): no more rows than one
 * run writes (every entry at every size, for the two input sets of cos), each an object with a name and run_name,
 * and every elements_per_ns and ratio_to_<impl> a positive number (the quiet-run test and the table read them, and a
 * hand-edited file could make them negative or infinite). */
static bool rows_refused(const cJSON *benchmarks, char *why, size_t why_len) {
    const size_t most = ulpb_entry_count * ULPB_BENCH_MAX_SIZES * 2;
    if ((size_t)cJSON_GetArraySize(benchmarks) > most) {
        snprintf(why, why_len, "more rows (%d) than a run of ulpbench bench writes (%zu)",
                 cJSON_GetArraySize(benchmarks), most);
        return true;
    }
    int index = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, benchmarks) {
        const char *run_name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "run_name"));
        if (!cJSON_IsObject(row) || !run_name || !cJSON_IsString(cJSON_GetObjectItem(row, "name"))) {
            snprintf(why, why_len, "benchmarks[%d] is not a result (an object with a name and a run_name)", index);
            return true;
        }
        const cJSON *field;
        cJSON_ArrayForEach(field, row) {
            const bool checked =
                strcmp(field->string, "elements_per_ns") == 0 || strncmp(field->string, "ratio_to_", 9) == 0;
            double value;
            if (checked && !positive_number(field, &value)) {
                snprintf(why, why_len, "the row '%.80s': its %.80s is not a positive number", run_name, field->string);
                return true;
            }
        }
        index++;
    }
    return false;
}

/* elements_per_ns of the row run_name; NAN when there is none. */
static double speed_of(const cJSON *benchmarks, const char *run_name) {
    double speed;
    return ulpb_json_number(cJSON_GetObjectItem(find_row(benchmarks, run_name), "elements_per_ns"), &speed) ? speed
                                                                                                            : NAN;
}

static const char *context_string(const cJSON *context, const char *key) {
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItem(context, key));
    return value ? value : "?";
}

/* Whether a run's CPU could run an entry: the ISAs its context lists (all of them when it lists none). */
static bool run_could_run(const cJSON *context, const ulpb_entry *e) {
    const cJSON *isas = cJSON_GetObjectItem(context, "isa_available"), *isa;
    if (!cJSON_IsArray(isas)) return true;
    cJSON_ArrayForEach(isa, isas) {
        const char *name = cJSON_GetStringValue(isa);
        if (name && strcmp(name, ulpb_isa_name(e->isa)) == 0) return true;
    }
    return false;
}

/* One run's figure for one target row: omk's throughput relative to the peer that decides (the slowest ratio). */
typedef struct {
    bool measured;
    bool loaded; /* left out: the group's memcpy ran slow in this run (quiet_only) */
    double ratio;
    double memcpy_speed; /* elements/ns of the group's memcpy row; NAN when absent */
    char peer[64];
    char why[128]; /* when not measured */
} run_figure;

/* ratio_to_<peer> of omk's row: 1 and *ratio when present, 0 when absent, -1 (err) when not a positive number. */
static int ratio_to(const cJSON *row, const char *peer, size_t peer_len, double *ratio, const char *where, char *err,
                    size_t err_len) {
    char key[96];
    snprintf(key, sizeof key, "ratio_to_%.*s", (int)peer_len, peer);
    const cJSON *item = cJSON_GetObjectItem(row, key);
    if (!item) return 0;
    if (!positive_number(item, ratio)) {
        snprintf(err, err_len, "%s: %s is not a positive number", where, key);
        return -1;
    }
    return 1;
}

/* Takes peer's ratio into f when it is the lowest so far; 0, or 1 (f->why set) when the row lacks it, or -1. */
static int take_peer(run_figure *f, const cJSON *row, const char *peer, size_t len, const char *where, char *err,
                     size_t err_len) {
    double ratio = 0;
    const int found = ratio_to(row, peer, len, &ratio, where, err, err_len);
    if (found < 0) return -1;
    if (found == 0) {
        snprintf(f->why, sizeof f->why, "no %.*s in omk's rounds", (int)len, peer);
        return 1;
    }
    if (ratio < f->ratio) {
        f->ratio = ratio;
        snprintf(f->peer, sizeof f->peer, "%.*s", (int)len, peer);
    }
    return 0;
}

static int figure_of(const ulpb_target *t, ulpb_op_id op, const ulpb_input_set *set, const cJSON *context,
                     const cJSON *benchmarks, const char *file, run_figure *f, char *err, size_t err_len) {
    char run_name[160], memcpy_name[160], where[256];
    memset(f, 0, sizeof *f);
    snprintf(run_name, sizeof run_name, "%s/%s/omk/%zu/%s", ulpb_ops[op].name, ulpb_dtypes[t->dtype].name, t->size,
             set->name);
    snprintf(memcpy_name, sizeof memcpy_name, "%s/%s/memcpy/%zu/%s", ulpb_ops[op].name, ulpb_dtypes[t->dtype].name,
             t->size, set->name);
    snprintf(where, sizeof where, "%s: %s", file, run_name);
    f->memcpy_speed = speed_of(benchmarks, memcpy_name);
    const cJSON *row = find_row(benchmarks, run_name);
    if (!row) {
        snprintf(f->why, sizeof f->why, "no omk result at this size and input set");
        return 0;
    }
    const cJSON *rounds = cJSON_GetObjectItem(row, "repetitions");
    if (!cJSON_IsNumber(rounds) || !(rounds->valuedouble >= ULPB_TARGETS_MIN_ROUNDS)) {
        if (cJSON_IsNumber(rounds) && rounds->valuedouble >= 0)
            snprintf(f->why, sizeof f->why, "omk's row has %g round%s, fewer than the %d a target needs",
                     rounds->valuedouble, rounds->valuedouble == 1 ? "" : "s", ULPB_TARGETS_MIN_ROUNDS);
        else
            snprintf(f->why, sizeof f->why, "omk's row has no valid count of rounds (repetitions)");
        return 0;
    }
    f->ratio = INFINITY;
    int missing = 0;
    if (strcmp(t->peers, "*") == 0) {
        /* every peer of the group that the run's CPU could run: a run without some of them (--impl) says nothing
         * about the fastest one */
        for (size_t k = 0; k < ulpb_entry_count && !missing; k++) {
            const ulpb_entry *e = &ulpb_entries[k];
            if (e->role != ULPB_ROLE_PEER || e->op != op || e->dtype != t->dtype || !run_could_run(context, e))
                continue;
            if ((missing = take_peer(f, row, e->impl, strlen(e->impl), where, err, err_len)) < 0) return -1;
        }
    } else {
        /* each named peer must be reached, but only those the run's CPU could run: a CPU without AVX-512 has the
         * goals' AVX2 builds alone */
        for (const char *peer = t->peers; *peer && !missing;) {
            const size_t len = strcspn(peer, ",");
            const ulpb_entry *e = ulpb_entry_find_n(peer, len, op, t->dtype);
            if ((!e || run_could_run(context, e)) && (missing = take_peer(f, row, peer, len, where, err, err_len)) < 0)
                return -1;
            peer += len + (peer[len] == ',');
        }
    }
    f->measured = !missing && f->peer[0];
    if (!missing && !f->measured) snprintf(f->why, sizeof f->why, "no peer this CPU runs");
    return 0;
}

/* The context fields two runs must share to be compared. */
static const char *const same_environment[] = {
    "cpu", "compiler", "library_build_type", "omk", "omk_isa", "omk_half16", "glibc", "sleef", "ulpbench", "source"};
/* The fields that tell one run from another. */
static const char *const run_identity[] = {"date", "command"};

/* The first of those fields and of same_environment that context lacks as a string (isa_available: as an array of
 * strings), or NULL. */
static const char *missing_context_field(const cJSON *context) {
    for (size_t k = 0; k < sizeof same_environment / sizeof same_environment[0]; k++)
        if (!cJSON_IsString(cJSON_GetObjectItem(context, same_environment[k]))) return same_environment[k];
    for (size_t k = 0; k < sizeof run_identity / sizeof run_identity[0]; k++)
        if (!cJSON_IsString(cJSON_GetObjectItem(context, run_identity[k]))) return run_identity[k];
    const cJSON *isas = cJSON_GetObjectItem(context, "isa_available"), *isa;
    if (!cJSON_IsArray(isas)) return "isa_available";
    cJSON_ArrayForEach(isa, isas) if (!cJSON_IsString(isa)) return "isa_available";
    return NULL;
}

/* A ratio rounded down to two decimals, so that a printed ratio never reaches a target the measured one misses
 * (floor(100 x) alone would print 0.29 as 0.28: 100 * 0.29 is 28.999999999999996). */
static double two_decimals_down(double x) {
    double hundredths = floor(x * 100);
    if (hundredths / 100 > x) /* x * 100 rounded up to an integer: 0.8 - 2^-53 gives 80 */
        hundredths -= 1;
    else if ((hundredths + 1) / 100 <= x)
        hundredths += 1;
    return hundredths / 100;
}

/* A ratio as printed, rounded down: two decimals, or three significant digits from 10^4 on (only an edited file holds
 * such ratios; x * 100 would overflow near the largest double): the exact decimal expansion, which glibc prints for
 * enough digits (a double of at least 10^4 has at most 309 before the point and 40 after), cut after the third. */
static void ratio_text_down(char *text, size_t size, double x) {
    if (x < 1e4) {
        snprintf(text, size, "%.2f", two_decimals_down(x));
        return;
    }
    char digits[400];
    snprintf(digits, sizeof digits, "%.360e", x); /* "d.ddd...e+XX" */
    const char *exponent = strchr(digits, 'e');   /* none only for infinity, which the readers refuse */
    snprintf(text, size, "%.4se%s", digits, exponent ? exponent + 1 : "");
}

/* Per run: its date, CPU, build, command, CPU affinity, and with several runs how many of its memcpy rows ran below
 * ULPB_TARGETS_QUIET_SHARE of the fastest run's (a machine shared with other work shows there). */
static void print_runs(FILE *out, const cJSON *const *contexts, const cJSON *const *benchmarks,
                       const char *const *names, int count) {
    fprintf(out, "Runs:\n\n");
    for (int i = 0; i < count; i++) {
        const cJSON *ctx = contexts[i];
        /* the strings of a file (hand-edited, perhaps) go out one per line, without their control characters */
        const char *const format[] = {
            "%d. `", "`: ", ", ", " (CPUs ", "), omk ", " (", " build, 16-bit types: ", "), `"};
        const char *const fields[] = {names[i],
                                      context_string(ctx, "date"),
                                      context_string(ctx, "cpu"),
                                      context_string(ctx, "cpu_affinity"),
                                      context_string(ctx, "omk"),
                                      context_string(ctx, "omk_isa"),
                                      context_string(ctx, "omk_half16"),
                                      context_string(ctx, "command")};
        fprintf(out, format[0], i + 1);
        for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
            if (k > 0) fputs(format[k], out);
            for (const char *c = fields[k]; *c;) {
                const size_t control = ulpb_control_length(c);
                fputc(control ? '?' : *c, out);
                c += control ? control : 1;
            }
        }
        fputs("`", out);
        int groups = 0, slow = 0;
        const cJSON *row;
        cJSON_ArrayForEach(row, benchmarks[i]) {
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "run_name"));
            if (count == 1 || !name || !strstr(name, "/memcpy/")) continue;
            double fastest = 0;
            for (int j = 0; j < count; j++) fastest = fmax(fastest, speed_of(benchmarks[j], name));
            groups++;
            slow += speed_of(benchmarks[i], name) < ULPB_TARGETS_QUIET_SHARE * fastest;
        }
        if (groups)
            fprintf(out, "; memcpy below %g of the fastest run's in %d of %d groups", ULPB_TARGETS_QUIET_SHARE, slow,
                    groups);
        fprintf(out, "\n");
    }
    fprintf(out, "\n");
}

/* "4096 or 16777216": the sizes the targets are measured at. */
static void target_sizes(char *buf, size_t len) {
    buf[0] = 0;
    for (size_t t = 0; t < ulpb_target_count; t++) {
        bool seen = false;
        for (size_t u = 0; u < t; u++) seen |= ulpb_targets[u].size == ulpb_targets[t].size;
        const size_t used = strlen(buf);
        if (!seen) snprintf(buf + used, len - used, "%s%zu", used ? " or " : "", ulpb_targets[t].size);
    }
}

/* When every run timed only inputs of `bench --range` or `bench --inputs` (input sets "range" and "inputs"), on
 * which no target is set, what they timed; NULL otherwise. */
static const char *timed_own_inputs_only(const cJSON *const *benchmarks, int count) {
    bool range = false, file = false;
    for (int i = 0; i < count; i++) {
        const cJSON *row;
        cJSON_ArrayForEach(row, benchmarks[i]) {
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "run_name"));
            /* ".../range:LO,HI" and ".../inputs:DIGEST" (".../range" and ".../inputs" before 2026-12-07) */
            const char *set = name ? strrchr(name, '/') : NULL;
            const bool ranged = set && strncmp(set, "/range", 6) == 0 && (set[6] == 0 || set[6] == ':');
            const bool filed = set && strncmp(set, "/inputs", 7) == 0 && (set[7] == 0 || set[7] == ':');
            if (!ranged && !filed) return NULL;
            range |= ranged;
            file |= filed;
        }
    }
    return range && file ? "--range inputs and inputs drawn from a file (--inputs)"
           : file        ? "inputs drawn from a file (--inputs)"
                         : "--range inputs";
}

int ulpb_targets_report(FILE *out, const cJSON *const *docs, const char *const *names, int count,
                        const ulpb_targets_options *options, ulpb_targets_summary *summary, char *err, size_t err_len) {
    const cJSON *contexts[ULPB_TARGETS_MAX_RUNS], *benchmarks[ULPB_TARGETS_MAX_RUNS];
    memset(summary, 0, sizeof *summary);
    if (count < 1 || count > ULPB_TARGETS_MAX_RUNS) {
        snprintf(err, err_len, "between 1 and %d result files, not %d", ULPB_TARGETS_MAX_RUNS, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        if (!(benchmarks[i] = results_of(docs[i], &contexts[i]))) {
            snprintf(err, err_len,
                     "%s: no benchmark results (not the JSON of ulpbench bench, nor a report made without --no-bench)",
                     names[i]);
            return -1;
        }
        /* without them a file says nothing of where it was measured, and a copy of a run could not be told apart */
        const char *missing = missing_context_field(contexts[i]);
        if (missing) {
            snprintf(err, err_len, "%s: its context has no \"%s\" (not the JSON of ulpbench bench or report)", names[i],
                     missing);
            return -1;
        }
        char why[256];
        if (rows_refused(benchmarks[i], why, sizeof why)) {
            snprintf(err, err_len, "%s: %s", names[i], why);
            return -1;
        }
        /* a row listed twice (a hand-edited or concatenated file) would let the first copy decide unseen */
        const char *repeated = repeated_run_name(benchmarks[i]);
        if (repeated) {
            snprintf(err, err_len, "%s: the row '%.*s' appears more than once", names[i], 80, repeated);
            return -1;
        }
        for (size_t k = 0; k < sizeof same_environment / sizeof same_environment[0]; k++) {
            const char *key = same_environment[k];
            const char *a = context_string(contexts[0], key), *b = context_string(contexts[i], key);
            if (strcmp(a, b) != 0) {
                snprintf(err, err_len, "%s and %s were run in different environments (%s: '%s', '%s')", names[0],
                         names[i], key, a, b);
                return -1;
            }
        }
        /* the user's libraries (ULPB_LIBRARIES) by name, size and digest, as merge compares them: a row of "mine"
         * from one library must not be read beside a row of "mine" from another */
        const char *ids_a = cJSON_GetStringValue(cJSON_GetObjectItem(contexts[0], "libraries_identity")),
                   *ids_b = cJSON_GetStringValue(cJSON_GetObjectItem(contexts[i], "libraries_identity"));
        if (ulpb_libraries_differ(&ids_a, &ids_b)) {
            snprintf(err, err_len, "%s and %s were run in different environments (libraries_identity: '%s', '%s')",
                     names[0], names[i], ids_a, ids_b);
            return -1;
        }
        /* the peers a run could measure (ULPB_DISABLE_ISA makes this CPU act as another) */
        if (!cJSON_Compare(cJSON_GetObjectItem(contexts[0], "isa_available"),
                           cJSON_GetObjectItem(contexts[i], "isa_available"), true)) {
            snprintf(err, err_len, "%s and %s were run in different environments (isa_available differs)", names[0],
                     names[i]);
            return -1;
        }
        /* a run given twice (or a copy of it) would count twice; two runs of one command within the date's second
         * differ in their results */
        for (int j = 0; j < i; j++) {
            const char *date = cJSON_GetStringValue(cJSON_GetObjectItem(contexts[i], "date"));
            const char *command = cJSON_GetStringValue(cJSON_GetObjectItem(contexts[i], "command"));
            if (date && command && strcmp(date, context_string(contexts[j], "date")) == 0 &&
                strcmp(command, context_string(contexts[j], "command")) == 0 &&
                cJSON_Compare(benchmarks[i], benchmarks[j], true)) {
                snprintf(err, err_len, "%s and %s hold the same run (same date, command and results)", names[j],
                         names[i]);
                return -1;
            }
        }
    }
    /* every row is evaluated before anything is printed: a bad file leaves no half table */
    run_figure(*figures)[ULPB_TARGETS_MAX_RUNS] = calloc(ulpb_target_count * ulpb_input_set_count, sizeof *figures);
    if (!figures) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    /* one row per target and input set (each input set is of one op): row t * ulpb_input_set_count + s */
    const int rows = (int)(ulpb_target_count * ulpb_input_set_count);
    for (int r = 0; r < rows; r++) {
        const ulpb_input_set *set = &ulpb_input_sets[(size_t)r % ulpb_input_set_count];
        for (int i = 0; i < count; i++)
            if (figure_of(&ulpb_targets[(size_t)r / ulpb_input_set_count], set->op, set, contexts[i], benchmarks[i],
                          names[i], &figures[r][i], err, err_len)) {
                free(figures);
                return -1;
            }
    }
    for (int r = 0; r < rows; r++) {
        int measured = 0;
        double fastest_memcpy = 0;
        for (int i = 0; i < count; i++) {
            measured += figures[r][i].measured;
            if (figures[r][i].measured) fastest_memcpy = fmax(fastest_memcpy, figures[r][i].memcpy_speed);
        }
        summary->measured += measured > 0;
        for (int i = 0; i < count && options->quiet_only; i++) /* NAN (no memcpy row) compares false: kept */
            figures[r][i].loaded = figures[r][i].memcpy_speed < ULPB_TARGETS_QUIET_SHARE * fastest_memcpy;
    }
    if (summary->measured == 0) {
        free(figures);
        const char *own_inputs = timed_own_inputs_only(benchmarks, count);
        if (own_inputs) {
            snprintf(err, err_len,
                     "no target is measured in %s%s: its rounds timed %s, and the targets are set on the registry's "
                     "input sets",
                     names[0], count > 1 ? " and the others" : "", own_inputs);
            return -1;
        }
        char sizes[64];
        target_sizes(sizes, sizeof sizes);
        snprintf(err, err_len,
                 "no target is measured in %s%s: each needs omk and every peer it names, in the same rounds (at least "
                 "%d), at %s elements",
                 names[0], count > 1 ? " and the others" : "", ULPB_TARGETS_MIN_ROUNDS, sizes);
        return -1;
    }
    print_runs(out, contexts, benchmarks, names, count);
    fprintf(out, "| target | kernel | inputs | elements | needed | omk / peer | peer | met |\n"
                 "|---|---|---|---:|---:|---:|---|---|\n");
    summary->rows = rows;
    for (int r = 0; r < rows; r++) {
        const ulpb_target *target = &ulpb_targets[(size_t)r / ulpb_input_set_count];
        const ulpb_input_set *set = &ulpb_input_sets[(size_t)r % ulpb_input_set_count];
        const run_figure *f = figures[r];
        char size[32], peers[160] = "", ratios[96];
        ulpb_bench_size_label(size, sizeof size, target->size);
        int measured = 0, met = 0, loaded = 0, met_loaded = 0;
        double lo = INFINITY, hi = 0, lo_all = INFINITY;
        for (int i = 0; i < count; i++) {
            if (!f[i].measured) continue;
            lo_all = fmin(lo_all, f[i].ratio);
            if (f[i].loaded) {
                loaded++;
                met_loaded += f[i].ratio >= target->factor;
                continue;
            }
            measured++;
            met += f[i].ratio >= target->factor;
            lo = fmin(lo, f[i].ratio);
            hi = fmax(hi, f[i].ratio);
            bool listed = false; /* the deciding peers, each once */
            for (int j = 0; j < i; j++) listed |= f[j].measured && !f[j].loaded && strcmp(f[j].peer, f[i].peer) == 0;
            if (!listed)
                snprintf(peers + strlen(peers), sizeof peers - strlen(peers), "%s%s", peers[0] ? ", " : "", f[i].peer);
        }
        if (!measured && !options->show_unmeasured) continue;
        fprintf(out, "| %s (", target->label);
        if (strcmp(target->peers, "*") == 0)
            fprintf(out, "every peer");
        else
            for (const char *p = target->peers; *p; p++) fprintf(out, *p == ',' ? ", " : "%c", *p);
        fprintf(out, ") | %s %s | %s | %s | ≥ %.2f× | ", ulpb_ops[set->op].name, ulpb_dtypes[target->dtype].name,
                set->label, size, target->factor);
        if (!measured) {
            fprintf(out, "– | – | not measured (%s) |\n", f[0].why);
            continue;
        }
        char lo_text[32], hi_text[32];
        ratio_text_down(lo_text, sizeof lo_text, lo);
        ratio_text_down(hi_text, sizeof hi_text, hi);
        if (strcmp(lo_text, hi_text) == 0)
            snprintf(ratios, sizeof ratios, "%s×", lo_text);
        else
            snprintf(ratios, sizeof ratios, "%s–%s×", lo_text, hi_text);
        /* a row left with fewer quiet runs than loaded ones rests on too few runs to be called met */
        const bool too_few = loaded >= measured;
        const bool everyone = met == measured && !too_few;
        summary->met_everyone += everyone;
        fprintf(out, "%s | %s | %s", ratios, peers, everyone ? "yes" : "no");
        if (count > 1) fprintf(out, " (%d of %d run%s", met, measured, measured == 1 ? "" : "s");
        if (loaded) { /* and what the loaded runs, kept, would have given */
            char lowest[32];
            ratio_text_down(lowest, sizeof lowest, lo_all);
            fprintf(out, "; %d loaded left out%s, with them %d of %d, lowest %s×", loaded,
                    too_few ? ", no fewer than the runs kept" : "", met + met_loaded, measured + loaded, lowest);
        }
        if (count > 1) fprintf(out, ")");
        fprintf(out, " |\n");
    }
    fprintf(out, "\n%d of %d target rows met in every run that measured them", summary->met_everyone,
            summary->measured);
    if (options->quiet_only)
        fprintf(out, " (a run whose memcpy row of the group ran below %g of the fastest run's is left out of that row)",
                ULPB_TARGETS_QUIET_SHARE);
    fprintf(out, "; %d not measured%s.\n", rows - summary->measured,
            !options->show_unmeasured && rows > summary->measured ? " (not shown)" : "");
    free(figures);
    return 0;
}
