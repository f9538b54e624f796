#define _GNU_SOURCE
#include "result_io.h"

#include "samplers.h"
#include "ulpb_source_id.h"
#include "visible_text.h"

#include <ctype.h>
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
    if (isnan(v))
        snprintf(buf, len, "%snan", signbit(v) ? "-" : "");
    else
        snprintf(buf, len, "%.17g (%a)", v, v);
}

void ulpb_format_ulp(char *buf, size_t len, double ulp) {
    if (ulp >= 1e15) { /* thousandths would print 19 digits or more (and overflow near DBL_MAX): 4 significant ones */
        char text[32];
        snprintf(text, sizeof text, "%.3e", ulp);
        int whole = 0, fraction = 0, exponent = 0;
        if (strtod(text, NULL) < ulp && sscanf(text, "%d.%de%d", &whole, &fraction, &exponent) == 3) {
            const int digits = whole * 1000 + fraction + 1; /* rounded down: the next one up */
            snprintf(text, sizeof text, "%d.%03de%+d", digits >= 10000 ? 1 : digits / 1000,
                     digits >= 10000 ? 0 : digits % 1000, digits >= 10000 ? exponent + 1 : exponent);
        }
        snprintf(buf, len, "%s", text);
        return;
    }
    const double thousandths = ceil(ulp * 1000);
    /* ulp * 1000 may round down onto an integer, which ceil keeps: below ulp, so the next one is shown */
    const double shown = thousandths / 1000 < ulp ? (thousandths + 1) / 1000 : thousandths / 1000;
    snprintf(buf, len, "%.3f", shown);
}

/* The model name from /proc/cpuinfo with family, model and stepping, which still tell the microarchitecture when a
 * virtual machine shortens the name (to "AMD EPYC", say). */
static void cpu_model(char *buf, size_t len) {
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512], name[256] = "unknown";
    long family = -1, model = -1, stepping = -1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n') break; /* the first processor's block ends */
        const char *colon = strchr(line, ':');
        if (!colon) continue;
        if (strncmp(line, "model name", 10) == 0) {
            snprintf(name, sizeof name, "%s", colon + (colon[1] == ' ' ? 2 : 1));
            name[strcspn(name, "\n")] = 0;
        } else if (strncmp(line, "cpu family", 10) == 0) {
            family = strtol(colon + 1, NULL, 10);
        } else if (strncmp(line, "model\t", 6) == 0) {
            model = strtol(colon + 1, NULL, 10);
        } else if (strncmp(line, "stepping", 8) == 0) {
            stepping = strtol(colon + 1, NULL, 10);
        }
    }
    fclose(f);
    if (family >= 0 && model >= 0 && stepping >= 0)
        snprintf(buf, len, "%s (family %ld, model %ld, stepping %ld)", name, family, model, stepping);
    else
        snprintf(buf, len, "%s", name);
}

/* GCC's __VERSION__ is the bare number ("12.2.0"); Clang's names itself */
#if defined(__GNUC__) && !defined(__clang__)
#define ULPB_COMPILER "GCC " __VERSION__
#else
#define ULPB_COMPILER __VERSION__
#endif

cJSON *ulpb_environment_json(void) {
    cJSON *env = cJSON_CreateObject();
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    cJSON_AddStringToObject(env, "cpu", cpu);
    cJSON_AddNumberToObject(env, "cores", (double)sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddStringToObject(env, "compiler", ULPB_COMPILER);
    cJSON_AddStringToObject(env, "mpfr", ref_mpfr_version());
    cJSON_AddStringToObject(env, "glibc", gnu_get_libc_version());
    char sleef[32];
    snprintf(sleef, sizeof sleef, "%d.%d.%d", SLEEF_VERSION_MAJOR, SLEEF_VERSION_MINOR, SLEEF_VERSION_PATCHLEVEL);
    cJSON_AddStringToObject(env, "sleef", sleef);
    cJSON_AddStringToObject(env, "omk", omk_version());
    /* which of omk's ISA builds ran (after OMK_ISA): results differ in speed, and a report
     * should name what it measured */
    cJSON_AddStringToObject(env, "omk_isa", omk_isa_in_use());
    cJSON_AddStringToObject(env, "omk_half16", omk_half16_method()); /* table or compute (OMK_HALF16) */
    cJSON_AddStringToObject(env, "ulpbench", ULPB_VERSION);
    /* the commit built (ULPB_SOURCE_ID): two builds of one version may hold different kernels */
    cJSON_AddStringToObject(env, "source", ULPB_SOURCE_ID);
    /* the user's kernels (ULPB_LIBRARIES): each file's path, size and digest */
    if (ulpb_libraries_loaded()) {
        cJSON_AddStringToObject(env, "libraries", ulpb_libraries_loaded());
        cJSON_AddStringToObject(env, "libraries_identity", ulpb_libraries_identity());
    }
    return env;
}

/* {"input_bits", "got", "expected"} of one input; got_signaling: got was a signalling NaN ("snan"). */
static cJSON *example_json(cJSON *o, const ulpb_dtype *dt, uint64_t bits, double got, bool got_signaling,
                           double expected) {
    char buf[96];
    snprintf(buf, sizeof buf, "0x%0*llx", (int)dt->bytes * 2, (unsigned long long)bits);
    cJSON_AddStringToObject(o, "input_bits", buf);
    if (got_signaling)
        snprintf(buf, sizeof buf, "%ssnan", signbit(got) ? "-" : "");
    else
        ulpb_format_value(buf, sizeof buf, got);
    cJSON_AddStringToObject(o, "got", buf);
    if (isnan(expected)) /* a NaN result's sign is unspecified (IEEE 754, 6.3); the reference's means nothing */
        snprintf(buf, sizeof buf, "nan");
    else
        ulpb_format_value(buf, sizeof buf, expected);
    cJSON_AddStringToObject(o, "expected", buf);
    return o;
}

cJSON *ulpb_stats_json(const ulpb_stats *s, const ulpb_dtype *dt) {
    cJSON *o = cJSON_CreateObject();
    char buf[96];
    ulpb_json_add_count(o, "inputs", s->inputs);
    ulpb_json_add_count(o, "correctly_rounded", s->correctly_rounded);
    ulpb_json_add_count(o, "misrounded", s->misrounded);
    ulpb_json_add_count(o, "special_mismatches", s->special_mismatches);
    ulpb_json_add_exact(o, "max_ulp", s->max_ulp);
    ulpb_json_add_exact(o, "mean_ulp", ulpb_mean_ulp(s));
    if (s->has_worst) {
        cJSON *w = example_json(cJSON_AddObjectToObject(o, "worst"), dt, s->worst_bits, s->worst_got, false,
                                s->worst_expected);
        ulpb_format_value(buf, sizeof buf, s->worst_input);
        cJSON_AddStringToObject(w, "input", buf);
    } else {
        cJSON_AddNullToObject(o, "worst");
    }
    if (s->has_special_example)
        example_json(cJSON_AddObjectToObject(o, "special_example"), dt, s->special_bits, s->special_got,
                     s->special_got_signaling, s->special_expected);
    cJSON *h = cJSON_AddObjectToObject(o, "histogram");
    for (int b = 0; b < ULPB_HIST_BINS; b++) ulpb_json_add_count(h, ulpb_hist_labels[b], s->histogram[b]);
    return o;
}

void ulpb_json_add_count(cJSON *o, const char *key, uint64_t v) {
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    cJSON_AddItemToObject(o, key, cJSON_CreateRaw(text));
}

void ulpb_shortest_decimal(char *text, size_t len, double v) {
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, len, "%.*g", digits, v);
        if (strtod(text, NULL) == v) break; /* 17 digits always read back */
    }
}

void ulpb_json_add_exact(cJSON *o, const char *key, double v) {
    if (!isfinite(v)) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    char text[32];
    ulpb_shortest_decimal(text, sizeof text, v);
    cJSON_AddItemToObject(o, key, cJSON_CreateRaw(text));
}

void ulpb_json_add_hex_double(cJSON *o, const char *key, double v) {
    char buf[40];
    snprintf(buf, sizeof buf, "%a", v);
    cJSON_AddStringToObject(o, key, buf);
}

static void add_hex_bits(cJSON *o, const char *key, uint64_t bits) {
    char buf[24];
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)bits);
    cJSON_AddStringToObject(o, key, buf);
}

const char *ulpb_json_get_string(const cJSON *o, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

int ulpb_json_number(const cJSON *item, double *v) {
    if (cJSON_IsNumber(item)) {
        *v = item->valuedouble;
        return 1;
    }
    char *end;
    if (!cJSON_IsRaw(item) || !item->valuestring || !*item->valuestring) return 0;
    *v = strtod(item->valuestring, &end);
    return !*end;
}

char *ulpb_append_quoted(char *p, const char *word, const char *plain) {
    bool as_is = *word != 0, control = false;
    for (const unsigned char *c = (const unsigned char *)word; *c; c++) {
        if (!isalnum(*c) && !strchr(plain, *c)) as_is = false;
        if (ulpb_control_length((const char *)c)) control = true;
    }
    if (as_is) return stpcpy(p, word);
    if (control) {
        /* printf's format makes them from octal escapes (% doubled, a leading - escaped too, or bash's printf would
         * take it for an option); the command substitution drops trailing newlines, so those follow in quotes */
        size_t body = strlen(word);
        const size_t whole = body;
        while (body > 0 && word[body - 1] == '\n') body--;
        if (body) {
            p = stpcpy(p, "\"$(printf '");
            for (size_t k = 0; k < body; k++) {
                const unsigned char c = (unsigned char)word[k];
                if (ulpb_control_length(word + k) == 2) { /* a C1 control: both bytes of its UTF-8 */
                    p += sprintf(p, "\\%03o\\%03o", c, (unsigned char)word[k + 1]);
                    k++;
                } else if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\' || (k == 0 && c == '-'))
                    p += sprintf(p, "\\%03o", c);
                else if (c == '%')
                    p = stpcpy(p, "%%");
                else
                    *p++ = (char)c;
            }
            p = stpcpy(p, "')\"");
        }
        if (body < whole) {
            *p++ = '\'';
            for (size_t k = body; k < whole; k++) *p++ = '\n';
            *p++ = '\'';
        }
        return p;
    }
    *p++ = '\'';
    for (const char *c = word; *c; c++)
        if (*c == '\'')
            p = stpcpy(p, "'\\''");
        else
            *p++ = *c;
    *p++ = '\'';
    return p;
}

bool ulpb_libraries_differ(const char **a, const char **b) {
    if (!*a && !*b) return false;
    const bool differ = !*a || !*b || strcmp(*a, *b) != 0;
    *a = *a ? *a : "none loaded";
    *b = *b ? *b : "none loaded";
    return differ;
}

int ulpb_json_get_number(const cJSON *o, const char *key, double *v, char *err, size_t len) {
    if (!ulpb_json_number(cJSON_GetObjectItemCaseSensitive(o, key), v)) {
        snprintf(err, len, "missing or non-numeric \"%s\"", key);
        return -1;
    }
    return 0;
}

int ulpb_json_get_duration(const cJSON *o, const char *key, bool required, double *v, char *err, size_t len) {
    *v = -1.0;
    if (!required && !cJSON_HasObjectItem(o, key)) return 0;
    if (ulpb_json_get_number(o, key, v, err, len)) return -1;
    if (!(*v >= 0 && *v < INFINITY)) {
        snprintf(err, len, "\"%s\" is %g, not a duration", key, *v);
        return -1;
    }
    return 0;
}

/* A value as the writer prints it: not empty and without leading blanks, which strtod alone would take ("" as 0). */
static bool starts_a_value(const char *text) { return text && *text && !isspace((unsigned char)*text); }

int ulpb_json_get_hex_double(const cJSON *o, const char *key, double *v, char *err, size_t len) {
    const char *text = ulpb_json_get_string(o, key);
    char *end;
    if (starts_a_value(text)) *v = strtod(text, &end);
    if (!starts_a_value(text) || *end) {
        snprintf(err, len, "missing or malformed \"%s\"", key);
        return -1;
    }
    return 0;
}

static int get_hex_bits(const cJSON *o, const char *key, uint64_t *v, char *err, size_t len) {
    const char *text = ulpb_json_get_string(o, key);
    char *end;
    /* no sign (strtoull would wrap "-1" around to 2^64 - 1), nor more than 64 bits (ERANGE) */
    const bool plain = starts_a_value(text) && *text != '-' && *text != '+';
    errno = 0;
    if (plain) *v = strtoull(text, &end, 16);
    if (!plain || *end || errno) {
        snprintf(err, len, "missing or malformed \"%s\"", key);
        return -1;
    }
    return 0;
}

cJSON *ulpb_stats_state_json(const ulpb_stats *s) {
    cJSON *state = cJSON_CreateObject();
    ulpb_json_add_count(state, "ulp_count", s->ulp_count);
    ulpb_json_add_hex_double(state, "ulp_sum", s->ulp_sum);
    if (s->has_worst) {
        add_hex_bits(state, "worst_bits", s->worst_bits);
        ulpb_json_add_hex_double(state, "max_ulp", s->max_ulp);
        ulpb_json_add_hex_double(state, "worst_input", s->worst_input);
        ulpb_json_add_hex_double(state, "worst_got", s->worst_got);
        ulpb_json_add_hex_double(state, "worst_expected", s->worst_expected);
    }
    if (s->has_special_example) {
        add_hex_bits(state, "special_bits", s->special_bits);
        ulpb_json_add_hex_double(state, "special_got", s->special_got);
        ulpb_json_add_hex_double(state, "special_expected", s->special_expected);
        if (s->special_got_signaling) cJSON_AddTrueToObject(state, "special_got_signaling");
    }
    return state;
}

int ulpb_json_get_count(const cJSON *o, const char *key, uint64_t *out, char *err, size_t len) {
    double v;
    if (ulpb_json_get_number(o, key, &v, err, len)) return -1;
    if (!(v >= 0 && v <= 0x1p53 && v == floor(v))) {
        snprintf(err, len, "\"%s\" is %g, not a count", key, v);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* The worst result against the counts (ulpb_stats_record, ref_ulp_error): the ULP statistics hold finite results alone,
 * only a misrounded result differs from the correctly rounded one, and it lies more than half an ulp away, where the
 * correctly rounded one lies within half an ulp (to the histogram's 2^-9 ULP of slack). */
static int check_worst_result(const ulpb_stats *s, char *err, size_t len) {
    uint64_t got, expected;
    memcpy(&got, &s->worst_got, sizeof got);
    memcpy(&expected, &s->worst_expected, sizeof expected);
    char shown[48];
    ulpb_format_ulp(shown, sizeof shown, s->max_ulp);
    if (!isfinite(s->worst_got) || !isfinite(s->worst_expected))
        snprintf(err, len, "\"worst_got\" or \"worst_expected\" is not finite");
    else if (got != expected && s->misrounded == 0)
        snprintf(err, len, "\"worst_got\" differs from \"worst_expected\", with \"misrounded\" 0");
    else if (got != expected && !(s->max_ulp > 0.5))
        snprintf(err, len, "\"worst_got\" differs from \"worst_expected\" by \"max_ulp\" %s, not more than half an ulp",
                 shown);
    else if (got == expected && !(s->max_ulp <= 0.5 + 0x1p-9))
        snprintf(err, len, "\"worst_got\" is \"worst_expected\", yet \"max_ulp\" is %s", shown);
    else
        return 0;
    return -1;
}

/* Whether shown (an object example_json wrote, with "input" when input is given) says what these values say. */
static bool example_shown(const cJSON *shown, uint64_t bits, double got, bool got_signaling, double expected,
                          const double *input) {
    const char *shown_bits = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(shown, "input_bits"));
    char *end = NULL;
    if (!shown_bits || strncmp(shown_bits, "0x", 2) != 0 || strtoull(shown_bits + 2, &end, 16) != bits || *end)
        return false;
    cJSON *regenerated =
        example_json(cJSON_CreateObject(), &ulpb_dtypes[ULPB_DTYPE_f64], bits, got, got_signaling, expected);
    char text[96];
    if (input) {
        ulpb_format_value(text, sizeof text, *input);
        cJSON_AddStringToObject(regenerated, "input", text);
    }
    bool same = true;
    static const char *const keys[] = {"got", "expected", "input"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys && same; k++) {
        const char *want = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(regenerated, keys[k])),
                   *have = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(shown, keys[k]));
        /* before 2026-12-07 an expected NaN showed the reference's sign: "-nan" */
        same = !want || (have && (strcmp(want, have) == 0 || (strcmp(keys[k], "expected") == 0 &&
                                                              strcmp(want, "nan") == 0 && strcmp(have, "-nan") == 0)));
    }
    cJSON_Delete(regenerated);
    return same;
}

int ulpb_stats_from_json(const cJSON *counters, const cJSON *state, ulpb_stats *s, char *err, size_t len) {
    memset(s, 0, sizeof *s);
    static const char *const names[] = {"inputs", "correctly_rounded", "misrounded", "special_mismatches"};
    uint64_t *const fields[] = {&s->inputs, &s->correctly_rounded, &s->misrounded, &s->special_mismatches};
    for (int i = 0; i < 4; i++)
        if (ulpb_json_get_count(counters, names[i], fields[i], err, len)) return -1;
    /* every input is counted once, as one of the three outcomes (ulpb_stats_record); the counts are below 2^53 */
    if (s->correctly_rounded + s->misrounded + s->special_mismatches != s->inputs) {
        snprintf(err, len, "\"correctly_rounded\" + \"misrounded\" + \"special_mismatches\" is not \"inputs\"");
        return -1;
    }
    const cJSON *hist = cJSON_GetObjectItemCaseSensitive(counters, "histogram");
    uint64_t histogram_total = 0;
    for (int b = 0; b < ULPB_HIST_BINS; b++) {
        if (ulpb_json_get_count(hist, ulpb_hist_labels[b], &s->histogram[b], err, len)) return -1;
        histogram_total += s->histogram[b];
    }
    if (ulpb_json_get_count(state, "ulp_count", &s->ulp_count, err, len) ||
        ulpb_json_get_hex_double(state, "ulp_sum", &s->ulp_sum, err, len))
        return -1;
    /* the ULP statistics cover the finite results that are not special mismatches, each in one histogram bin */
    if (s->ulp_count > s->correctly_rounded + s->misrounded ||
        !(s->ulp_sum >= 0 && s->ulp_sum < INFINITY) /* NaN, negative or infinite */) {
        snprintf(err, len, "malformed \"ulp_count\" or \"ulp_sum\"");
        return -1;
    }
    if (histogram_total != s->ulp_count) {
        snprintf(err, len, "the histogram counts %llu results, \"ulp_count\" %llu", (unsigned long long)histogram_total,
                 (unsigned long long)s->ulp_count);
        return -1;
    }
    s->has_worst = cJSON_HasObjectItem(state, "worst_bits");
    if (s->has_worst != (s->ulp_count > 0)) {
        snprintf(err, len, "\"worst_bits\" is %s, with \"ulp_count\" %llu", s->has_worst ? "present" : "missing",
                 (unsigned long long)s->ulp_count);
        return -1;
    }
    if (s->has_worst && (get_hex_bits(state, "worst_bits", &s->worst_bits, err, len) ||
                         ulpb_json_get_hex_double(state, "max_ulp", &s->max_ulp, err, len) ||
                         ulpb_json_get_hex_double(state, "worst_input", &s->worst_input, err, len) ||
                         ulpb_json_get_hex_double(state, "worst_got", &s->worst_got, err, len) ||
                         ulpb_json_get_hex_double(state, "worst_expected", &s->worst_expected, err, len)))
        return -1;
    if (s->has_worst && !(s->max_ulp >= 0 && s->max_ulp < INFINITY)) {
        snprintf(err, len, "malformed \"max_ulp\"");
        return -1;
    }
    if (ulpb_stats_check_sum(s, err, len)) return -1;
    /* the worst error lies in the highest bin that holds a result, to within the 2^-10 ULP to which the fast
     * reference ranks the errors it bins (MPFR then measures the worst one again) */
    if (s->has_worst) {
        static const double bin_top[ULPB_HIST_BINS] = {0, 0.5, 1, 2, 4, INFINITY};
        int top = ULPB_HIST_BINS - 1;
        while (top > 0 && s->histogram[top] == 0) top--;
        const double slack = 0x1p-9, bottom = top <= 1 ? 0 : bin_top[top - 1] - slack;
        if (top == 0 ? s->max_ulp != 0 : !(s->max_ulp >= bottom && s->max_ulp <= bin_top[top] + slack)) {
            char shown[48];
            ulpb_format_ulp(shown, sizeof shown, s->max_ulp);
            snprintf(err, len, "\"max_ulp\" %s is not in the histogram's highest bin holding a result (\"%s\")", shown,
                     ulpb_hist_labels[top]);
            return -1;
        }
        if (check_worst_result(s, err, len)) return -1;
    }
    s->has_special_example = cJSON_HasObjectItem(state, "special_bits");
    if (s->has_special_example && (get_hex_bits(state, "special_bits", &s->special_bits, err, len) ||
                                   ulpb_json_get_hex_double(state, "special_got", &s->special_got, err, len) ||
                                   ulpb_json_get_hex_double(state, "special_expected", &s->special_expected, err, len)))
        return -1;
    /* absent (false) in states written before the key existed */
    const cJSON *signaling = cJSON_GetObjectItemCaseSensitive(state, "special_got_signaling");
    if (signaling && !cJSON_IsBool(signaling)) {
        snprintf(err, len, "malformed \"special_got_signaling\"");
        return -1;
    }
    s->special_got_signaling = s->has_special_example && cJSON_IsTrue(signaling);
    /* the max ULP a reader of the file sees is the state's, which the tools read (an edited one would be shown, not
     * gated); to within 2^-40 of it, as a file that cJSON printed again keeps it (its print rounds off the last bits)
     */
    double shown_max_ulp = 0;
    if (ulpb_json_get_number(counters, "max_ulp", &shown_max_ulp, err, len)) return -1;
    if (!(fabs(shown_max_ulp - s->max_ulp) <= 0x1p-40 * fmax(1.0, s->max_ulp))) {
        snprintf(err, len, "\"max_ulp\" %.17g is not the state's %.17g", shown_max_ulp, s->max_ulp);
        return -1;
    }
    return 0;
}

int ulpb_stats_shown_match(const cJSON *counters, const ulpb_stats *s, char *err, size_t len) {
    const cJSON *worst = cJSON_GetObjectItemCaseSensitive(counters, "worst"),
                *special = cJSON_GetObjectItemCaseSensitive(counters, "special_example");
    if (s->has_worst ? !example_shown(worst, s->worst_bits, s->worst_got, false, s->worst_expected, &s->worst_input)
                     : !cJSON_IsNull(worst)) {
        snprintf(err, len, "\"worst\" is not the state's worst input");
        return -1;
    }
    if (s->has_special_example ? !example_shown(special, s->special_bits, s->special_got, s->special_got_signaling,
                                                s->special_expected, NULL)
                               : special != NULL) {
        snprintf(err, len, "\"special_example\" is not the state's");
        return -1;
    }
    return 0;
}

const char *ulpb_result_mode(const ulpb_result *r) {
    return r->exhaustive ? "exhaustive" : r->listed ? "inputs" : "sampled";
}

cJSON *ulpb_result_json(const ulpb_result *r) {
    const ulpb_dtype *dt = &ulpb_dtypes[r->entry->dtype];
    cJSON *o = ulpb_stats_json(&r->total, dt);
    /* identity first for readers of the raw file */
    cJSON_AddItemToObject(o, "op", cJSON_CreateString(ulpb_ops[r->entry->op].name));
    cJSON_AddStringToObject(o, "dtype", dt->name);
    cJSON_AddStringToObject(o, "impl", r->entry->impl);
    cJSON_AddBoolToObject(o, "production", r->entry->role == ULPB_ROLE_PRODUCTION);
    cJSON_AddStringToObject(o, "role", ulpb_role_name(r->entry->role));
    cJSON_AddStringToObject(o, "description", r->entry->description);
    cJSON_AddStringToObject(o, "mode", ulpb_result_mode(r));
    cJSON_AddNumberToObject(o, "seconds", r->seconds);
    cJSON_AddNumberToObject(o, "reference_seconds", r->reference_seconds);
    cJSON_AddItemToObject(o, "state", ulpb_stats_state_json(&r->total));
    const int64_t elements[2] = {r->worst_element, r->special_element};
    static const char *const element_keys[2] = {"worst_element", "special_element"};
    for (int k = 0; k < 2 && r->listed; k++) {
        if (elements[k] >= 0)
            ulpb_json_add_count(o, element_keys[k], (uint64_t)elements[k]);
        else
            cJSON_AddNullToObject(o, element_keys[k]);
    }
    cJSON *samplers = cJSON_AddArrayToObject(o, "samplers");
    for (int s = 0; s < r->sampler_count; s++) {
        cJSON *so = ulpb_stats_json(&r->per_sampler[s], dt);
        cJSON_AddItemToObject(so, "state", ulpb_stats_state_json(&r->per_sampler[s]));
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
    if (run->seed_unused)
        cJSON_AddNullToObject(doc, "seed");
    else
        ulpb_json_add_count(doc, "seed", run->seed);
    if (run->samples == 0)
        cJSON_AddNullToObject(doc, "samples");
    else
        ulpb_json_add_count(doc, "samples", run->samples);
    ulpb_range_json(doc, &run->range);
    ulpb_inputs_json(doc, run->inputs);
    cJSON_AddStringToObject(doc, "reference", run->reference ? run->reference : "mpfr");
    cJSON *shard = cJSON_AddObjectToObject(doc, "shard");
    cJSON_AddNumberToObject(shard, "index", run->shard_index);
    cJSON_AddNumberToObject(shard, "count", run->shard_count > 0 ? run->shard_count : 1);
    cJSON_AddItemToObject(doc, "environment", ulpb_environment_json());
    cJSON *arr = cJSON_AddArrayToObject(doc, "results");
    for (int i = 0; i < count; i++) cJSON_AddItemToArray(arr, ulpb_result_json(&results[i]));
    return doc;
}

void ulpb_range_json(cJSON *doc, const ulpb_input_range *range) {
    if (range->given) {
        cJSON *item = cJSON_AddObjectToObject(doc, "range");
        ulpb_json_add_exact(item, "lo", range->lo);
        ulpb_json_add_exact(item, "hi", range->hi);
    } else {
        cJSON_AddNullToObject(doc, "range");
    }
}

void ulpb_inputs_json(cJSON *doc, const ulpb_inputs_file *inputs) {
    if (!inputs) {
        cJSON_AddNullToObject(doc, "inputs");
        return;
    }
    cJSON *item = cJSON_AddObjectToObject(doc, "inputs");
    cJSON_AddStringToObject(item, "path", inputs->path);
    ulpb_json_add_count(item, "elements", inputs->elements);
    cJSON_AddStringToObject(item, "sha256", inputs->sha256);
}

int ulpb_inputs_from_json(const cJSON *doc, ulpb_inputs_file *inputs, bool *given, char *err, size_t err_len) {
    memset(inputs, 0, sizeof *inputs);
    *given = false;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, "inputs");
    if (!item || cJSON_IsNull(item)) return 0;
    const char *path = cJSON_IsObject(item) ? ulpb_json_get_string(item, "path") : NULL;
    const char *sha256 = cJSON_IsObject(item) ? ulpb_json_get_string(item, "sha256") : NULL;
    char why[128];
    if (!path || !sha256 || strlen(sha256) != 64 || strspn(sha256, "0123456789abcdef") != 64 ||
        ulpb_json_get_count(item, "elements", &inputs->elements, why, sizeof why) || inputs->elements == 0) {
        snprintf(err, err_len,
                 "\"inputs\" is not null or {\"path\": PATH, \"elements\": N > 0, \"sha256\": 64 hex digits}");
        return -1;
    }
    inputs->path = path;
    memcpy(inputs->sha256, sha256, sizeof inputs->sha256);
    *given = true;
    return 0;
}

int ulpb_range_from_json(const cJSON *doc, ulpb_input_range *range, char *err, size_t err_len) {
    memset(range, 0, sizeof *range);
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, "range");
    if (!item || cJSON_IsNull(item)) return 0;
    if (!cJSON_IsObject(item) || !ulpb_json_number(cJSON_GetObjectItemCaseSensitive(item, "lo"), &range->lo) ||
        !ulpb_json_number(cJSON_GetObjectItemCaseSensitive(item, "hi"), &range->hi) || !isfinite(range->lo) ||
        !isfinite(range->hi) || !(range->lo < range->hi)) {
        snprintf(err, err_len, "\"range\" is not null or {\"lo\": LO, \"hi\": HI} with finite LO < HI");
        return -1;
    }
    range->given = true;
    return 0;
}

void ulpb_results_markdown(FILE *out, const ulpb_result *results, int count) {
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        int rows = 0;
        for (int i = 0; i < count; i++) rows += results[i].entry->op == (ulpb_op_id)op;
        if (!rows) continue;
        fprintf(out, "\n### %s\n\n", ulpb_ops[op].name);
        fprintf(out,
                "| dtype | implementation | mode | inputs | misrounded | hard cases misrounded | special mismatches "
                "| max ULP | worst input | time (s) | reference (s) |\n");
        fprintf(out, "|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
        for (int i = 0; i < count; i++) {
            const ulpb_result *r = &results[i];
            if (r->entry->op != (ulpb_op_id)op) continue;
            const ulpb_dtype *dt = &ulpb_dtypes[r->entry->dtype];
            char worst[96] = "-";
            if (r->total.has_worst)
                snprintf(worst, sizeof worst, "0x%0*llx (%.*g)", (int)dt->bytes * 2,
                         (unsigned long long)r->total.worst_bits, dt->bytes == 8 ? 17 : 9, /* digits to round-trip */
                         r->total.worst_input);
            if (r->total.has_worst && r->listed && r->worst_element >= 0) /* where it is in the user's array */
                snprintf(worst + strlen(worst), sizeof worst - strlen(worst), ", x.flat[%lld]",
                         (long long)r->worst_element);
            char max_ulp[32];
            ulpb_format_ulp(max_ulp, sizeof max_ulp, r->total.max_ulp);
            char seconds[32] = "-", reference_seconds[32] = "-"; /* negative: unknown (an exhaustive state that
                                                                     predates the split) */
            if (r->seconds >= 0) snprintf(seconds, sizeof seconds, "%.3f", r->seconds);
            if (r->reference_seconds >= 0)
                snprintf(reference_seconds, sizeof reference_seconds, "%.2f", r->reference_seconds);
            char hard_cases[48] = "-"; /* an exhaustive run checks every input (of its range), these among them */
            for (int s = 0; s < r->sampler_count; s++)
                if (r->sampler_names[s] && strcmp(r->sampler_names[s], ulpb_sampler_name(SAMPLER_HARD_CASES)) == 0)
                    snprintf(hard_cases, sizeof hard_cases, "%llu of %llu",
                             (unsigned long long)r->per_sampler[s].misrounded,
                             (unsigned long long)r->per_sampler[s].inputs);
            fprintf(out, "| %s | %s | %s | %llu | %llu | %s | %llu | %s | %s | %s | %s |\n", dt->name, r->entry->impl,
                    ulpb_result_mode(r), (unsigned long long)r->total.inputs, (unsigned long long)r->total.misrounded,
                    hard_cases, (unsigned long long)r->total.special_mismatches, max_ulp, worst, seconds,
                    reference_seconds);
        }
    }
}

int ulpb_stats_check_inputs(const ulpb_stats *s, const ulpb_dtype *dt, char *err, size_t len) {
    const uint64_t largest = dt->bytes >= 8 ? UINT64_MAX : (1ull << (8 * dt->bytes)) - 1;
    if (s->has_worst) {
        const double named = s->worst_bits <= largest ? ref_decode(&dt->format, s->worst_bits) : NAN;
        if (!(named == s->worst_input && signbit(named) == signbit(s->worst_input))) {
            snprintf(err, len, "\"worst_input\" is not the %s input that \"worst_bits\" names", dt->name);
            return -1;
        }
    }
    if (s->has_special_example && s->special_bits > largest) {
        snprintf(err, len, "\"special_bits\" is no %s input", dt->name);
        return -1;
    }
    return 0;
}

/* ---- merging sampled shards ---------------------------------------------------------------- */

static int same_string(const cJSON *a, const cJSON *b, const char *key) {
    const char *x = ulpb_json_get_string(a, key), *y = ulpb_json_get_string(b, key);
    return x && y && strcmp(x, y) == 0;
}

static int same_number(const cJSON *a, const cJSON *b, const char *key) {
    double x, y;
    return ulpb_json_number(cJSON_GetObjectItemCaseSensitive(a, key), &x) &&
           ulpb_json_number(cJSON_GetObjectItemCaseSensitive(b, key), &y) && x == y;
}

/* A ranged run's statistics name only inputs of its range: 1 and a message when the worst one lies outside it. */
static int worst_outside_range(const ulpb_stats *s, const ulpb_input_range *range, char *err, size_t len) {
    if (!range->given || !s->has_worst || ulpb_range_holds(range, s->worst_input)) return 0;
    char x[32], lo[32], hi[32];
    ulpb_shortest_decimal(x, sizeof x, s->worst_input);
    ulpb_shortest_decimal(lo, sizeof lo, range->lo);
    ulpb_shortest_decimal(hi, sizeof hi, range->hi);
    snprintf(err, len, "its worst input %s lies outside the range [%s, %s]", x, lo, hi);
    return 1;
}

const ulpb_entry *ulpb_result_entry(const cJSON *result, char *err, size_t len) {
    const char *op_name = ulpb_json_get_string(result, "op"), *dtype_name = ulpb_json_get_string(result, "dtype");
    const int op = ulpb_op_find(op_name ? op_name : "");
    const int dtype = ulpb_dtype_find(dtype_name ? dtype_name : "");
    const char *impl = ulpb_json_get_string(result, "impl");
    const ulpb_entry *e =
        op >= 0 && dtype >= 0 && impl ? ulpb_entry_find(impl, (ulpb_op_id)op, (ulpb_dtype_id)dtype) : NULL;
    if (!e) {
        snprintf(err, len,
                 "names no registry entry (%s %s %s; a library's rows need ULPB_LIBRARIES to load it as in the run)",
                 impl ? impl : "no impl", op_name ? op_name : "no op", dtype_name ? dtype_name : "no dtype");
        return NULL;
    }
    if (e->role == ULPB_ROLE_BASELINE) {
        snprintf(err, len, "names '%s', a throughput baseline with no accuracy", impl);
        return NULL;
    }
    return e;
}

int ulpb_results_from_json(const cJSON *doc, ulpb_result *results, int capacity, char *err, size_t len) {
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "results");
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
        snprintf(err, len, "holds no \"results\"");
        return -1;
    }
    int count = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        if (count == capacity) {
            snprintf(err, len, "holds more results than the registry has entries");
            return -1;
        }
        ulpb_result *r = &results[count];
        memset(r, 0, sizeof *r);
        char why[256];
        const char *mode = ulpb_json_get_string(item, "mode");
        if (!(r->entry = ulpb_result_entry(item, why, sizeof why))) {
            snprintf(err, len, "result %d %s", count, why);
            return -1;
        }
        if (!mode || (strcmp(mode, "sampled") != 0 && strcmp(mode, "exhaustive") != 0 && strcmp(mode, "inputs") != 0)) {
            snprintf(err, len, "result %d: \"mode\" is not \"sampled\", \"exhaustive\" or \"inputs\"", count);
            return -1;
        }
        for (int q = 0; q < count; q++)
            if (results[q].entry == r->entry) {
                snprintf(err, len, "results %d and %d are both %s %s %s", q, count, r->entry->impl,
                         ulpb_ops[r->entry->op].name, ulpb_dtypes[r->entry->dtype].name);
                return -1;
            }
        r->exhaustive = strcmp(mode, "exhaustive") == 0;
        r->listed = strcmp(mode, "inputs") == 0;
        if (ulpb_stats_from_json(item, cJSON_GetObjectItemCaseSensitive(item, "state"), &r->total, why, sizeof why) ||
            ulpb_stats_check_inputs(&r->total, &ulpb_dtypes[r->entry->dtype], why, sizeof why) ||
            ulpb_stats_shown_match(item, &r->total, why, sizeof why)) {
            snprintf(err, len, "result %d: %s", count, why);
            return -1;
        }
        count++;
    }
    return count;
}

cJSON *ulpb_accuracy_merge(cJSON *const *docs, const char *const *names, int count, const char *command, char *err,
                           size_t len) {
    enum { MAX_SHARDS = 4096 };
    int order[MAX_SHARDS];
    double shard_count = 0;
    for (int i = 0; i < MAX_SHARDS; i++) order[i] = -1;
    for (int i = 0; i < count; i++) {
        const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(docs[i], "inputs");
        if (inputs && !cJSON_IsNull(inputs)) {
            snprintf(err, len, "%s checked the elements of a file (accuracy --inputs): a whole run, not a shard",
                     names[i]);
            return NULL;
        }
    }
    for (int i = 0; i < count; i++) {
        const cJSON *d = docs[i], *env = cJSON_GetObjectItemCaseSensitive(d, "environment");
        const cJSON *env0 = cJSON_GetObjectItemCaseSensitive(docs[0], "environment");
        /* what a sampled --shard result records, then the same in every shard */
        double number;
        const char *missing = !ulpb_json_get_string(d, "schema")       ? "\"schema\""
                              : !ulpb_json_get_string(env, "ulpbench") ? "ulpbench version"
                              : !ulpb_json_number(cJSON_GetObjectItemCaseSensitive(d, "seed"), &number) ? "\"seed\""
                              : !ulpb_json_number(cJSON_GetObjectItemCaseSensitive(d, "samples"), &number)
                                  ? "\"samples\""
                              : !ulpb_json_get_string(d, "reference") ? "\"reference\""
                                                                      : NULL;
        if (missing) {
            snprintf(err, len, "%s has no %s: not the JSON of a sampled run with --shard", names[i], missing);
            return NULL;
        }
        ulpb_input_range range_i, range_0;
        char range_why[128];
        if (ulpb_range_from_json(d, &range_i, range_why, sizeof range_why)) {
            snprintf(err, len, "%s: %s", names[i], range_why);
            return NULL;
        }
        ulpb_range_from_json(docs[0], &range_0, range_why, sizeof range_why); /* read above, when i was 0 */
        const bool same_range = range_i.given == range_0.given &&
                                (!range_i.given || (range_i.lo == range_0.lo && range_i.hi == range_0.hi));
        const char *what = !same_string(d, docs[0], "schema")      ? "schema"
                           : !same_string(env, env0, "ulpbench")   ? "ulpbench version"
                           : !same_number(d, docs[0], "seed")      ? "seed"
                           : !same_number(d, docs[0], "samples")   ? "sample count"
                           : !same_range                           ? "--range"
                           : !same_string(d, docs[0], "reference") ? "reference"
                                                                   : NULL;
        if (what) {
            snprintf(err, len, "%s and %s have different %s", names[0], names[i], what);
            return NULL;
        }
        double index, n;
        const cJSON *shard = cJSON_GetObjectItemCaseSensitive(d, "shard");
        char why[128];
        if (ulpb_json_get_number(shard, "index", &index, why, sizeof why) ||
            ulpb_json_get_number(shard, "count", &n, why, sizeof why)) {
            snprintf(err, len, "%s: shard: %s", names[i], why);
            return NULL;
        }
        if (!(n >= 1 && n <= MAX_SHARDS && n == floor(n))) {
            snprintf(err, len, "%s: shard count %g is not a whole number from 1 to %d", names[i], n, MAX_SHARDS);
            return NULL;
        }
        if (!(index >= 0 && index < n && index == floor(index))) {
            snprintf(err, len, "%s: shard index %g is not a whole number below its count %g", names[i], index, n);
            return NULL;
        }
        if (i == 0) shard_count = n;
        if (n != shard_count) {
            snprintf(err, len, "%s is shard %g/%g, %s is of %g shards", names[i], index, n, names[0], shard_count);
            return NULL;
        }
        if (order[(int)index] >= 0) {
            snprintf(err, len, "%s and %s overlap (both are shard %g/%g)", names[order[(int)index]], names[i], index,
                     n);
            return NULL;
        }
        order[(int)index] = i;
    }
    for (int k = 0; k < (int)shard_count; k++)
        if (order[k] < 0) {
            snprintf(err, len, "gap: shard %d/%g is in none of the files", k, shard_count);
            return NULL;
        }

    const cJSON *first_results = cJSON_GetObjectItemCaseSensitive(docs[0], "results");
    const int result_count = cJSON_IsArray(first_results) ? cJSON_GetArraySize(first_results) : 0;
    if (result_count == 0) {
        snprintf(err, len, "%s holds no results", names[0]);
        return NULL;
    }
    for (int i = 1; i < count; i++) /* a shard with more results than the first would lose the rest */
        if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(docs[i], "results")) != result_count) {
            snprintf(err, len, "%s and %s have different ops, dtypes or implementations", names[0], names[i]);
            return NULL;
        }
    uint64_t samples_count, seed_value;
    ulpb_input_range range;
    char why[128];
    if (ulpb_json_get_count(docs[0], "samples", &samples_count, why, sizeof why) ||
        ulpb_json_get_count(docs[0], "seed", &seed_value, why, sizeof why) ||
        ulpb_range_from_json(docs[0], &range, why, sizeof why)) {
        snprintf(err, len, "%s: %s", names[0], why);
        return NULL;
    }
    ulpb_result *results = calloc((size_t)result_count + 1, sizeof *results);
    cJSON *out = NULL;
    for (int r = 0; r < result_count; r++) {
        const cJSON *id = cJSON_GetArrayItem(first_results, r);
        char why_entry[256];
        if (!(results[r].entry = ulpb_result_entry(id, why_entry, sizeof why_entry))) {
            snprintf(err, len, "%s: result %d %s", names[0], r, why_entry);
            goto done;
        }
        const char *impl = results[r].entry->impl;
        const int op = (int)results[r].entry->op, dtype = (int)results[r].entry->dtype;
        for (int q = 0; q < r; q++)
            if (results[q].entry == results[r].entry) {
                snprintf(err, len, "%s: results %d and %d are both %s %s %s", names[0], q, r, impl, ulpb_ops[op].name,
                         ulpb_dtypes[dtype].name);
                goto done;
            }
        const ulpb_dtype *dt = &ulpb_dtypes[dtype];
        if (dt->bytes == 2) { /* --shard is refused for them: every shard would hold every input */
            snprintf(err, len, "%s: result %d is %s, which is never sharded", names[0], r, dt->name);
            goto done;
        }
        int plan_sampler[ULPB_MAX_SAMPLERS];
        uint64_t plan_first[ULPB_MAX_SAMPLERS], plan_inputs[ULPB_MAX_SAMPLERS];
        /* sharded runs are sampled (f32, f64): every shard carries the same samplers, whose sums are its counters */
        const cJSON *samplers0 = cJSON_GetObjectItemCaseSensitive(id, "samplers");
        results[r].sampler_count = cJSON_IsArray(samplers0) ? cJSON_GetArraySize(samplers0) : 0;
        if (results[r].sampler_count < 1 || results[r].sampler_count > ULPB_MAX_SAMPLERS) {
            snprintf(err, len, "%s: result %d holds no per-sampler results", names[0], r);
            goto done;
        }
        for (int k = 0; k < (int)shard_count; k++) {
            /* by op, dtype and implementation: shards run with --impl a,b and --impl b,a hold the same results */
            const cJSON *res = NULL, *candidate;
            int at = 0; /* its place in that file, which the messages below name */
            cJSON_ArrayForEach(candidate, cJSON_GetObjectItemCaseSensitive(docs[order[k]], "results")) {
                if (same_string(candidate, id, "op") && same_string(candidate, id, "dtype") &&
                    same_string(candidate, id, "impl")) {
                    res = candidate;
                    break;
                }
                at++;
            }
            if (!res) {
                snprintf(err, len,
                         "%s has no result for %s %s %s, which %s holds (different ops, dtypes or implementations)",
                         names[order[k]], impl, ulpb_ops[op].name, dt->name, names[0]);
                goto done;
            }
            const char *mode = ulpb_json_get_string(res, "mode");
            if (!mode || strcmp(mode, "sampled") != 0) {
                snprintf(err, len, "%s: result %d: \"mode\" is not \"sampled\"", names[order[k]], at);
                goto done;
            }
            ulpb_stats part, samplers_sum;
            memset(&samplers_sum, 0, sizeof samplers_sum);
            char why[256];
            if (ulpb_stats_from_json(res, cJSON_GetObjectItemCaseSensitive(res, "state"), &part, why, sizeof why)) {
                snprintf(err, len, "%s: result %d: %s", names[order[k]], at, why);
                goto done;
            }
            ulpb_stats_merge(&results[r].total, &part);
            const ulpb_stats shard_total = part;
            double seconds, reference_seconds;
            if (ulpb_json_get_duration(res, "seconds", true, &seconds, why, sizeof why) ||
                ulpb_json_get_duration(res, "reference_seconds", true, &reference_seconds, why, sizeof why)) {
                snprintf(err, len, "%s: result %d: %s", names[order[k]], at, why);
                goto done;
            }
            results[r].seconds += seconds;
            results[r].reference_seconds += reference_seconds;
            const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(res, "samplers");
            if (!cJSON_IsArray(samplers) || cJSON_GetArraySize(samplers) != results[r].sampler_count) {
                snprintf(err, len, "%s: samplers differ from %s's", names[order[k]], names[0]);
                goto done;
            }
            for (int s = 0; s < results[r].sampler_count; s++) {
                const cJSON *sampler = cJSON_GetArrayItem(samplers, s);
                if (!same_string(sampler, cJSON_GetArrayItem(samplers0, s), "name")) {
                    snprintf(err, len, "%s: samplers differ from %s's", names[order[k]], names[0]);
                    goto done;
                }
                if (ulpb_stats_from_json(sampler, cJSON_GetObjectItemCaseSensitive(sampler, "state"), &part, why,
                                         sizeof why) ||
                    ulpb_stats_check_inputs(&part, dt, why, sizeof why) ||
                    worst_outside_range(&part, &range, why, sizeof why) ||
                    ulpb_stats_shown_match(sampler, &part, why, sizeof why)) {
                    snprintf(err, len, "%s: result %d, sampler %d: %s", names[order[k]], at, s, why);
                    goto done;
                }
                ulpb_stats_merge(&results[r].per_sampler[s], &part);
                ulpb_stats_merge(&samplers_sum, &part);
                results[r].sampler_names[s] = ulpb_json_get_string(cJSON_GetArrayItem(samplers0, s), "name");
            }
            /* a result's counters are its samplers' sums */
            bool agree = samplers_sum.inputs == shard_total.inputs &&
                         samplers_sum.correctly_rounded == shard_total.correctly_rounded &&
                         samplers_sum.misrounded == shard_total.misrounded &&
                         samplers_sum.special_mismatches == shard_total.special_mismatches &&
                         samplers_sum.ulp_count == shard_total.ulp_count;
            for (int b = 0; b < ULPB_HIST_BINS; b++)
                agree = agree && samplers_sum.histogram[b] == shard_total.histogram[b];
            if (!agree) {
                snprintf(err, len, "%s: result %d: its counters are not the sums of its samplers'", names[order[k]],
                         at);
                goto done;
            }
            /* each sampler counts exactly this shard's slice of its indices, and names inputs of the dtype */
            const int planned = ulpb_sampled_plan(results[r].entry->op, results[r].entry->dtype, samples_count, &range,
                                                  k, (int)shard_count, plan_sampler, plan_first, plan_inputs);
            if (planned != results[r].sampler_count) {
                snprintf(err, len, "%s: result %d has %d samplers, where %s %s runs %d", names[order[k]], at,
                         results[r].sampler_count, ulpb_ops[op].name, dt->name, planned);
                goto done;
            }
            for (int s = 0; s < planned; s++) {
                const cJSON *sampler = cJSON_GetArrayItem(samplers, s);
                const char *name = ulpb_json_get_string(sampler, "name");
                double inputs = -1;
                ulpb_json_number(cJSON_GetObjectItemCaseSensitive(sampler, "inputs"), &inputs);
                if (!name || strcmp(name, ulpb_sampler_name(plan_sampler[s])) != 0) {
                    snprintf(err, len, "%s: result %d: sampler %d is '%s', where %s %s runs '%s'", names[order[k]], at,
                             s, name ? name : "", ulpb_ops[op].name, dt->name, ulpb_sampler_name(plan_sampler[s]));
                    goto done;
                }
                if (inputs != (double)plan_inputs[s]) {
                    snprintf(err, len,
                             "%s: result %d: sampler '%s' counts %.17g inputs, where shard %d/%g of %llu samples has "
                             "%llu",
                             names[order[k]], at, name, inputs, k, shard_count, (unsigned long long)samples_count,
                             (unsigned long long)plan_inputs[s]);
                    goto done;
                }
            }
            if (ulpb_stats_check_inputs(&shard_total, dt, why, sizeof why) ||
                worst_outside_range(&shard_total, &range, why, sizeof why) ||
                ulpb_stats_shown_match(res, &shard_total, why, sizeof why)) {
                snprintf(err, len, "%s: result %d: %s", names[order[k]], at, why);
                goto done;
            }
        }
        if (results[r].total.inputs > (1ull << 53)) { /* shards that add up beyond what the JSON holds exactly */
            snprintf(err, len, "the shards count more than 2^53 inputs for one result");
            goto done;
        }
    }
    {
        const ulpb_run_info run = {command, seed_value, samples_count, ulpb_json_get_string(docs[0], "reference"), 0, 1,
                                   false,   range,      NULL};
        out = ulpb_document_json(ulpb_json_get_string(docs[0], "schema"), &run, results, result_count);
    }
done:
    free(results);
    return out;
}

void ulpb_gate_defaults(ulpb_gate_limits *g) {
    for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
        g->max_misrounded[d] = ulpb_dtypes[d].gate_max_misrounded;
        g->max_ulp[d] = ulpb_dtypes[d].gate_max_ulp;
        g->misrounded_given[d] = false;
    }
}

int ulpb_gate_check(const ulpb_result *r, const ulpb_gate_limits *g, char *why, size_t len) {
    const int d = r->entry->dtype;
    const long long max_misrounded = r->entry->correctly_rounded && !g->misrounded_given[d] ? 0 : g->max_misrounded[d];
    why[0] = 0;
    if (r->total.special_mismatches > 0)
        snprintf(why, len, "%llu special-value mismatches", (unsigned long long)r->total.special_mismatches);
    else if (max_misrounded >= 0 && r->total.misrounded > (unsigned long long)max_misrounded)
        snprintf(why, len, "%llu misrounded > %lld", (unsigned long long)r->total.misrounded, max_misrounded);
    else if (g->max_ulp[d] >= 0 && !(r->total.max_ulp <= g->max_ulp[d])) { /* a NaN error fails too */
        /* the limit as given (%.17g would print 0.1 as 0.10000000000000001), the error rounded up */
        char measured[32], limit[32];
        ulpb_format_ulp(measured, sizeof measured, r->total.max_ulp);
        for (int digits = 1; digits <= 17; digits++) {
            snprintf(limit, sizeof limit, "%.*g", digits, g->max_ulp[d]);
            if (strtod(limit, NULL) == g->max_ulp[d]) break;
        }
        snprintf(why, len, "max ULP %s > %s", measured, limit);
    }
    return why[0] != 0;
}
