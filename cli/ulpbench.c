/* ulpbench: list the registry, measure accuracy and throughput, evaluate kernels on .npy files,
 * and write the reports CI gates on. Exit status: 0 success, 1 a production kernel failed the
 * gate, 2 bad usage or input. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "accuracy.h"
#include "exhaustive.h"
#include "hard_cases.h"
#include "bench.h"
#include "npy.h"
#include "omk.h"
#include "outfile.h"
#include "registry.h"
#include "result_io.h"
#include "visible_text.h"
#include "targets.h"

enum { EXIT_GATE = 1, EXIT_USAGE = 2 };
static const unsigned long long DEFAULT_SEED = 20261130ull;
static const unsigned long long DEFAULT_SAMPLES = 1000000ull;
static const double DEFAULT_CHECKPOINT_SECONDS = 60.0; /* accuracy --exhaustive --json */
/* ulpbench bench (its default sizes: ulpb_bench_default_sizes) */
enum { DEFAULT_BENCH_ROUNDS = 41, QUICK_BENCH_ROUNDS = 11, QUICK_BENCH_SIZE = 4096 };

static const char *g_command; /* argv joined, recorded in every report */
static int g_argc;
static int g_stdout_errno; /* why the Markdown could not go to stdout (0: it did, or nothing was written) */
static char **g_argv;
static bool *g_dropped; /* g_argc flags: the words of the process's argv that the recorded result command leaves out */
static const char *g_executable; /* argv[0] */

/* text in place with each control character (ulpb_control_length) and each byte of `also` as one '?'. */
static void make_visible(char *text, const char *also) {
    char *to = text;
    for (const char *c = text; *c;) {
        const size_t control = ulpb_control_length(c);
        *to++ = control || strchr(also, *c) ? '?' : *c;
        c += control ? control : 1;
    }
    *to = 0;
}

/* prefix and a message on one line of f: a control character from the command line or a file (a newline in --op, or
 * in a file name, say) is shown as '?', so that no text of the user's can start a line of its own. */
static void visible_line(FILE *f, const char *prefix, const char *fmt, va_list ap) {
    va_list measure;
    va_copy(measure, ap);
    const int len = vsnprintf(NULL, 0, fmt, measure); /* whole: a message may quote a long path */
    va_end(measure);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!text) {
        fprintf(f, "%s(message lost: out of memory)\n", prefix);
        return;
    }
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    make_visible(text, "");
    fprintf(f, "%s%s\n", prefix, text);
    free(text);
}

/* An error message on one line of stderr, as the README promises (visible_line). */
static void error_line(const char *prefix, const char *fmt, va_list ap) { visible_line(stderr, prefix, fmt, ap); }

/* visible_line with its arguments, for lines of a command's own output that quote a user's text. */
__attribute__((format(printf, 2, 3))) static void put_line(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    visible_line(f, "", fmt, ap);
    va_end(ap);
}

/* A notice on stderr that is no error: "ulpbench SUB: " and the message, as visible_line shows it. */
__attribute__((format(printf, 2, 3))) static void notice(const char *sub, const char *fmt, ...) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "ulpbench %s: ", sub);
    va_list ap;
    va_start(ap, fmt);
    visible_line(stderr, prefix, fmt, ap);
    va_end(ap);
}

static int fail(const char *sub, const char *fmt, ...) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "ulpbench %s: ", sub);
    va_list ap;
    va_start(ap, fmt);
    error_line(prefix, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

/* The same for the messages of main, before a command runs. */
static void fail_early(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_line("ulpbench: ", fmt, ap);
    va_end(ap);
}

/* getopt prints nothing (opterr = 0 in main; every optstring starts with ':'), so an error is
 * one line, ours: ':' is a missing value, '?' an unknown option (optopt: its letter for a short
 * one, 0 for a long one; a long one given a value it does not take has optopt set and an '='). */
static const struct option *g_long_options; /* the table of the last next_option call, for bad_option */
/* next_option's code for an option with a value given a second time, and that option's name */
enum { OPTION_GIVEN_TWICE = -2 };
static const char *g_repeated_option;
/* An error in the environment's settings, held back by main while the command line may ask for help only. */
static const char *g_env_error;

/* An --impl name the registry does not hold. When main held back an error in the environment (a help run), that error
 * is the likelier cause (a library of ULPB_LIBRARIES that did not load), so it is the one reported. */
static int unknown_impl(const char *sub, const char *name) {
    if (g_env_error && *g_env_error) {
        fail_early("%s", g_env_error);
        return EXIT_USAGE;
    }
    return fail(sub, "unknown implementation '%s' (see ulpbench list; your own kernels need ULPB_LIBRARIES)", name);
}

/* A name of an --impl list that parse_impls refused: all, in a list, is no name. */
static int unknown_in_impl_list(const char *sub, const char *name) {
    if (strcmp(name, "all") == 0)
        return fail(sub, "--impl all cannot be combined with names: give all alone, or a list of names");
    return unknown_impl(sub, name);
}

static int bad_option(const char *sub, int c, int argc, char **argv) {
    if (c == OPTION_GIVEN_TWICE)
        return fail(sub, "option '--%s' given twice: give it once (try --help)", g_repeated_option);
    const char *word = optind >= 1 && optind <= argc ? argv[optind - 1] : "";
    const int len = (int)strcspn(word, "=");
    if (c == ':') return fail(sub, "option '%.*s' needs a value (try --help)", len, word);
    if (optopt && strncmp(word, "--", 2) == 0 && word[len] == '=')
        return fail(sub, "option '%.*s' takes no value (try --help)", len, word);
    if (optopt) { /* a short option: name the word it came from, often a long option with one dash (-json) */
        for (int i = optind < argc ? optind : argc - 1; i >= 1; i--)
            if (argv[i][0] == '-' && argv[i][1] != '-' && strlen(argv[i]) > 2 && strchr(argv[i] + 1, optopt))
                return fail(sub, "unknown option '-%c' in '%s' (long options take two dashes; try --help)", optopt,
                            argv[i]);
        return fail(sub, "unknown option '-%c' (try --help)", optopt);
    }
    /* getopt_long takes unique abbreviations; an abbreviation of several options is refused as one */
    char matches[256] = "";
    int match_count = 0;
    for (const struct option *o = g_long_options; strncmp(word, "--", 2) == 0 && len > 2 && o && o->name; o++)
        if (strncmp(o->name, word + 2, (size_t)len - 2) == 0) {
            const size_t used = strlen(matches);
            snprintf(matches + used, sizeof matches - used, "%s--%s", match_count++ ? ", " : "", o->name);
        }
    if (match_count > 1) return fail(sub, "ambiguous option '%.*s' (%s; try --help)", len, word, matches);
    return fail(sub, "unknown option '%.*s' (try --help)", len, word);
}

/* getopt_long, except that a value given as the next word must not look like a long option: "--json --quiet" would
 * otherwise write a file named --quiet and leave quiet mode off. Such a value is reported as missing (':', with
 * optind back on the option for bad_option); "--json=--x" is taken as given. An option with a value given twice is
 * OPTION_GIVEN_TWICE (getopt keeps the last: "--json a --json b" would silently write b only), except the thresholds
 * that take one DTYPE=VALUE each and gate's --require. Each process parses one command line. */
static int next_option(int argc, char **argv, const char *shortopts, const struct option *opts, int *longindex) {
    static bool given[64];
    if (opts != g_long_options) memset(given, 0, sizeof given);
    g_long_options = opts;
    const int c = getopt_long(argc, argv, shortopts, opts, longindex);
    if (c == -1 && g_env_error && *g_env_error) { /* no help after all (main): the run would misdescribe itself */
        fail_early("%s", g_env_error);
        ulpb_note_ending(EXIT_USAGE);
        exit(EXIT_USAGE);
    }
    if (c != -1 && c != '?' && c != ':' && optarg && optind >= 2 && optarg == argv[optind - 1] &&
        strncmp(optarg, "--", 2) == 0) {
        optind--;
        return ':';
    }
    for (int i = 0; c != -1 && c != '?' && c != ':' && i < 64 && opts[i].name; i++) {
        if (opts[i].val != c || opts[i].has_arg != required_argument || strcmp(opts[i].name, "max-ulp") == 0 ||
            strcmp(opts[i].name, "max-misrounded") == 0 || strcmp(opts[i].name, "min-inputs") == 0 ||
            strcmp(opts[i].name, "require") == 0)
            continue;
        if (given[i]) {
            g_repeated_option = opts[i].name;
            return OPTION_GIVEN_TWICE;
        }
        given[i] = true;
    }
    return c;
}

/* Whether a and b lead to one pipe or socket (--json /dev/stdout --markdown /dev/stdout | ...), which, unlike a
 * terminal or /dev/null, passes both documents on as one stream; as a file (> out) they collide too. */
static bool same_pipe(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && (S_ISFIFO(sa.st_mode) || S_ISSOCK(sa.st_mode)) &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Checks the files a command will write before it runs (runs take minutes to hours): each
 * path's directory exists and is writable; NULL entries are skipped. */
static int check_outputs(const char *sub, const char *const *paths, int count) {
    char err[512];
    for (int i = 0; i < count; i++) {
        if (!paths[i]) continue;
        if (strcmp(paths[i], "-") == 0) /* many tools' name for stdout; a file named - is seldom meant */
            return fail(sub,
                        "an output named '-': give /dev/stdout for standard output, or ./- for a file of that name");
        if (ulpb_output_check(paths[i], err, sizeof err)) return fail(sub, "%s", err);
        for (int j = 0; j < i; j++) {
            if (paths[j] && ulpb_output_same(paths[i], paths[j]))
                return fail(sub, "'%s' and '%s' name the same file for two outputs", paths[j], paths[i]);
            if (paths[j] && same_pipe(paths[i], paths[j]))
                return fail(sub, "'%s' and '%s' name the same pipe for two outputs: the documents would run together",
                            paths[j], paths[i]);
        }
    }
    return 0;
}

/* Refuses an output, or stdout for NULL, that is the input file `input`: the result would replace what it is read from
 * (`ulpbench merge a.json b.json >> a.json`, or a Markdown over its --resume file). Devices and pipes do not
 * collide (ulpb_output_same). */
static int check_not_input(const char *sub, const char *output, const char *input) {
    if (!ulpb_output_same(output ? output : "/dev/stdout", input)) return 0;
    if (!output) return fail(sub, "standard output is the input file '%s'; write the result to another file", input);
    return fail(sub, "'%s' names input '%s'; write the result to a new file", output, input);
}

/* Refuses a file given twice among names (by any path to it; a missing one is left to the reading, which names it). */
static int check_each_file_once(const char *sub, const char *const *names, int count, const char *what) {
    for (int i = 0; i < count; i++)
        for (int j = 0; j < i; j++)
            if (access(names[i], F_OK) == 0 && ulpb_output_same(names[i], names[j]))
                return fail(sub, "'%s' and '%s' are the same file: give each %s once", names[j], names[i], what);
    return 0;
}

/* The environment variables that choose what a run measures, as "NAME=value " words before the command it records:
 * without them, the command run again could give other rows or another omk build. Set in main before anything
 * (ulpb_limit_omk_to_available_isas) sets OMK_ISA itself. */
static char **g_env_words;
static int g_env_count;

/* The command line as one shell-safe string for the reports: g_env_words (NAME=value, of which only the value is
 * quoted, or the shell would take the word for a command rather than an assignment), then argv's words. */
static char *join_command(int argc, char **argv) {
    size_t len = 1;
    const int total = g_env_count + argc;
    for (int i = 0; i < total; i++)
        len += ULPB_QUOTED_SIZE(strlen(i < g_env_count ? g_env_words[i] : argv[i - g_env_count]));
    char *s = calloc(len, 1), *p = s;
    if (!s) return NULL;
    for (int i = 0; i < total; i++) {
        if (i) *p++ = ' ';
        if (i >= g_env_count) {
            p = ulpb_append_quoted(p, argv[i - g_env_count],
                                   i == g_env_count ? ULPB_SHELL_PLAIN_COMMAND : ULPB_SHELL_PLAIN);
            continue;
        }
        const char *assignment = g_env_words[i], *value = strchr(assignment, '=') + 1;
        p += sprintf(p, "%.*s", (int)(value - assignment), assignment);
        p = *value ? ulpb_append_quoted(p, value, ULPB_SHELL_PLAIN) : p;
    }
    *p = 0;
    return s;
}

/* The command line without the words of the process's argv that g_dropped marks. */
static char *command_without_dropped_words(void) {
    char **kept = calloc((size_t)g_argc + 1, sizeof *kept);
    if (!kept) return NULL;
    int n = 0;
    for (int i = 0; i < g_argc; i++)
        if (!g_dropped || !g_dropped[i]) kept[n++] = g_argv[i];
    char *command = join_command(n, kept);
    free(kept);
    return command;
}

/* Decimal digits only: strtoull alone would accept leading blanks and a sign ("-1" wraps to 2^64 - 1). */
static int parse_u64(const char *text, unsigned long long *out) {
    if (!text || !isdigit((unsigned char)*text)) return -1;
    char *end;
    errno = 0;
    *out = strtoull(text, &end, 10);
    return (errno || *end) ? -1 : 0;
}

/* After strtod: a value beyond binary64's range, which strtod gives as 0 or inf (ERANGE), would stand for a figure the
 * user did not write. A subnormal result also sets ERANGE (glibc), and is the number written, rounded (2e-310). */
static bool strtod_out_of_range(double value) { return errno == ERANGE && (value == 0 || isinf(value)); }

/* A decimal number as written: strtod alone would take leading blanks, and read 1e-400 as 0 (strtod_out_of_range).
 * NaN and inf are the caller's to refuse. */
static int parse_number(const char *text, double *out) {
    if (!text || !*text || isspace((unsigned char)*text)) return -1;
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    return (strtod_out_of_range(*out) || *end) ? -1 : 0;
}

/* Counts and seeds that the JSON outputs record as numbers (binary64): at most 2^53, where every integer is exact. */
#define MAX_JSON_INTEGER 9007199254740992ull
static int parse_json_integer(const char *text, unsigned long long *out) {
    return parse_u64(text, out) || *out > MAX_JSON_INTEGER ? -1 : 0;
}

/* --op/--dtype values: a name or "all" -> bit mask over the registry's table. */
static int parse_mask(const char *text, int (*find)(const char *), int count, unsigned *mask) {
    if (strcmp(text, "all") == 0) {
        *mask = (1u << count) - 1;
        return 0;
    }
    const int id = find(text);
    if (id < 0) return -1;
    *mask = 1u << id;
    return 0;
}

static void names_of(char *buf, size_t len, int count, const char *(*name)(int)) {
    buf[0] = 0;
    for (int i = 0; i < count; i++) {
        strncat(buf, name(i), len - strlen(buf) - 1);
        strncat(buf, i + 1 < count ? "|" : "", len - strlen(buf) - 1);
    }
}
static const char *op_name(int i) { return ulpb_ops[i].name; }
static const char *dtype_name(int i) { return ulpb_dtypes[i].name; }
/* "cos|asin" and "f16|bf16|f32|f64", from the registry, for help texts and messages */
static const char *op_choices(void) {
    static char buf[128];
    if (!buf[0]) names_of(buf, sizeof buf, ULPB_OP_COUNT, op_name);
    return buf;
}
static const char *dtype_choices(void) {
    static char buf[128];
    if (!buf[0]) names_of(buf, sizeof buf, ULPB_DTYPE_COUNT, dtype_name);
    return buf;
}

/* ---- list ---------------------------------------------------------------------------------- */

static int cmd_list(int argc, char **argv) {
    static const struct option opts[] = {{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    while ((c = next_option(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h') {
            puts("usage: ulpbench list\n\n"
                 "Prints every registry entry: implementation, op, dtype, role (production: gated; peer: shown\n"
                 "beside us; baseline: throughput only; library: your kernels, gated), the ISA it needs (avx2:\n"
                 "AVX2+FMA+F16C; avx512: AVX-512F), whether this CPU runs it, and a description. Entries the CPU\n"
                 "cannot run are skipped by every command. The AVX-512 bfloat16 peers use vcvtne2ps2bf16 where\n"
                 "the CPU has AVX512_BF16 (ISA name avx512bf16) and emulate it bit for bit elsewhere.\n"
                 "ULPB_DISABLE_ISA=avx512,avx2 (any of the ISA names) makes ulpbench treat those ISAs as missing,\n"
                 "omk included (it sets OMK_ISA unless that is set). ULPB_LIBRARIES=NAME[:PREFIX]=PATH[,...] loads\n"
                 "your kernels for every command: the shared object PATH's PREFIX_cos_f16 ... PREFIX_asin_f64\n"
                 "(omk.h's signatures; PREFIX defaults to NAME), measured as implementation NAME.");
            return 0;
        }
        return bad_option("list", c, argc, argv);
    }
    if (optind < argc) return fail("list", "unexpected argument '%s'", argv[optind]);
    int impl_width = 16; /* the longest name's, so that the columns line up */
    for (size_t i = 0; i < ulpb_entry_count; i++)
        if ((int)strlen(ulpb_entries[i].impl) > impl_width) impl_width = (int)strlen(ulpb_entries[i].impl);
    const char *const format = "%-*s %-5s %-5s %-10s %-10s %-11s %s\n";
    printf(format, impl_width, "impl", "op", "dtype", "role", "isa", "available", "description");
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        printf(format, impl_width, e->impl, ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name, ulpb_role_name(e->role),
               ulpb_isa_name(e->isa), ulpb_entry_available(e) ? "yes" : "unavailable", e->description);
    }
    return 0;
}

/* "omk,sleef-u10-avx512" or "all" (no names: every implementation) into names[] (up to ULPB_BENCH_MAX_IMPLS); names
 * point into `text`, which is modified. -1 for an unknown name (in *unknown), -2 for an empty one, -3 for a name given
 * twice (in *unknown: as --sizes, a repeated name is more likely a typo for another than a wish for one row). */
static int parse_impls(char *text, const char **names, int *count, const char **unknown) {
    *count = 0;
    if (strcmp(text, "all") == 0) return 0;
    const size_t len = strlen(text);
    if (len == 0 || text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,")) return -2; /* strtok_r skips them */
    char *save = NULL;
    for (char *name = strtok_r(text, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        bool listed = false;
        for (int i = 0; i < *count; i++) listed |= strcmp(names[i], name) == 0;
        if (listed) {
            *unknown = name;
            return -3;
        }
        if (!ulpb_impl_known(name) || *count == ULPB_BENCH_MAX_IMPLS) {
            *unknown = name;
            return -1;
        }
        names[(*count)++] = name;
    }
    return *count ? 0 : -1;
}

/* ---- shared accuracy options --------------------------------------------------------------- */

typedef struct {
    unsigned op_mask, dtype_mask;
    const char *impls[ULPB_BENCH_MAX_IMPLS]; /* --impl's names; none: every implementation */
    int impl_count;
    const char *impl_text; /* --impl as given, for messages */
    char impl_names[512];  /* a copy that parse_impls cuts up: impls[] point into it */
    unsigned long long samples, seed;
    int threads;
    const char *json_path, *markdown_path, *output_dir;
    bool quiet;
    bool no_bench; /* report: skip the throughput tables */
    /* accuracy --exhaustive (binary32) */
    bool exhaustive, mpfr_reference, reference_given, shard_given, samples_given, seed_given;
    int shard_index, shard_count;
    const char *resume_path;
    unsigned long long max_chunks;
    double checkpoint_seconds; /* --exhaustive with a JSON file: the partial result at most this often; 0: never */
    bool checkpoint_given;
    ulpb_gate_limits gate;
    bool max_ulp_given[ULPB_DTYPE_COUNT];
    ulpb_input_range range; /* accuracy and report --range */
    const char *range_text;
    const ulpb_input_set *bench_sets; /* report --range: its throughput's input sets (NULL: the registry's) */
    size_t bench_set_count;
    const char *inputs_path; /* accuracy and report --inputs FILE.npy */
    npy_array inputs_array;  /* its elements, once read (load_inputs; npy_free) */
    ulpb_inputs_file inputs_file;
} accuracy_options;

/* DTYPE=VALUE for --max-ulp / --max-misrounded. */
static int parse_threshold(const char *text, int *dtype, const char **value) {
    const char *eq = strchr(text, '=');
    if (!eq) return -1;
    char name[16];
    const size_t n = (size_t)(eq - text);
    if (n >= sizeof name) return -1;
    memcpy(name, text, n);
    name[n] = 0;
    *dtype = ulpb_dtype_find(name);
    *value = eq + 1;
    return *dtype < 0 ? -1 : 0;
}

/* --max-ulp DTYPE=X (is_max_ulp) or --max-misrounded DTYPE=N into gate: 0, or a usage error's status after its
 * message. */
static int parse_gate_limit(const char *sub, bool is_max_ulp, const char *arg, ulpb_gate_limits *gate,
                            bool max_ulp_given[ULPB_DTYPE_COUNT]) {
    int dt;
    const char *value;
    if (is_max_ulp) {
        double v;
        if (parse_threshold(arg, &dt, &value))
            return fail(sub, "--max-ulp needs DTYPE=VALUE (DTYPE %s), got '%s'", dtype_choices(), arg);
        /* a subnormal limit would print as 0 in the gate's message, or as 1e-310 for another number */
        if (parse_number(value, &v) || !(v >= 0) || v == INFINITY || (v > 0 && v < DBL_MIN))
            return fail(sub, "--max-ulp needs a finite non-negative number (0, or from 2^-1022 on), got '%s'", value);
        if (max_ulp_given[dt]) /* a second limit for a dtype would silently replace the first */
            return fail(sub, "--max-ulp %s given twice", ulpb_dtypes[dt].name);
        gate->max_ulp[dt] = v;
        max_ulp_given[dt] = true;
        return 0;
    }
    unsigned long long u;
    if (parse_threshold(arg, &dt, &value) || parse_json_integer(value, &u))
        return fail(sub, "--max-misrounded needs DTYPE=COUNT (DTYPE %s, COUNT in 0..2^53), got '%s'", dtype_choices(),
                    arg);
    if (gate->misrounded_given[dt]) return fail(sub, "--max-misrounded %s given twice", ulpb_dtypes[dt].name);
    gate->max_misrounded[dt] = (long long)u;
    gate->misrounded_given[dt] = true;
    return 0;
}

/* gate --min-inputs DTYPE=N (N in 1..2^53) into min_inputs: 0, or a usage error's status after its message. */
static int parse_min_inputs(const char *arg, uint64_t min_inputs[ULPB_DTYPE_COUNT]) {
    int dt;
    const char *value;
    unsigned long long n;
    if (parse_threshold(arg, &dt, &value) || parse_json_integer(value, &n) || n == 0)
        return fail("gate", "--min-inputs needs DTYPE=COUNT (DTYPE %s, COUNT in 1..2^53), got '%s'", dtype_choices(),
                    arg);
    if (min_inputs[dt]) return fail("gate", "--min-inputs %s given twice", ulpb_dtypes[dt].name);
    min_inputs[dt] = n;
    return 0;
}

/* gate --require IMPL:OP:DTYPE (OP and DTYPE a name or "all"): the gated registry entries it names get arg in
 * required_by (indexed as ulpb_entries), for the line that names a missing row. 0, or a usage error's status after
 * its message. */
static int parse_gate_requirement(const char *arg, const char **required_by) {
    const char *op_at = strchr(arg, ':'), *dtype_at = op_at ? strchr(op_at + 1, ':') : NULL;
    char impl[256], op[256];
    const size_t impl_len = op_at ? (size_t)(op_at - arg) : 0, op_len = dtype_at ? (size_t)(dtype_at - op_at - 1) : 0;
    unsigned ops = 0, dtypes = 0;
    if (impl_len >= sizeof impl || op_len >= sizeof op)
        return fail("gate", "--require '%.60s...': unknown %s", arg, impl_len >= sizeof impl ? "implementation" : "op");
    if (!dtype_at || impl_len == 0)
        return fail("gate", "--require needs IMPL:OP:DTYPE (OP %s|all, DTYPE %s|all), got '%s'", op_choices(),
                    dtype_choices(), arg);
    memcpy(impl, arg, impl_len);
    impl[impl_len] = 0;
    memcpy(op, op_at + 1, op_len);
    op[op_len] = 0;
    if (parse_mask(op, ulpb_op_find, ULPB_OP_COUNT, &ops))
        return fail("gate", "--require '%s': unknown op '%s' (expected %s|all)", arg, op, op_choices());
    if (parse_mask(dtype_at + 1, ulpb_dtype_find, ULPB_DTYPE_COUNT, &dtypes))
        return fail("gate", "--require '%s': unknown dtype '%s' (expected %s|all)", arg, dtype_at + 1, dtype_choices());
    if (!ulpb_impl_known(impl))
        return fail("gate",
                    "--require '%s': unknown implementation '%s' (see ulpbench list; your own kernels need "
                    "ULPB_LIBRARIES)",
                    arg, impl);
    int named = 0;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if (strcmp(e->impl, impl) != 0 || !(ops & 1u << e->op) || !(dtypes & 1u << e->dtype)) continue;
        if (!ulpb_role_gated(e->role)) /* a peer row passes whatever it measured: requiring it would gate nothing */
            return fail("gate", "--require '%s': '%s' is a %s, and the gate holds only omk's rows and ULPB_LIBRARIES'",
                        arg, impl, ulpb_role_name(e->role));
        if (!required_by[i]) required_by[i] = arg;
        named++;
    }
    if (named == 0) return fail("gate", "--require '%s': the registry has no such row of '%s'", arg, impl);
    return 0;
}

/* --samples and --seed describe the sampled f32/f64 rows: with only 16-bit types selected (checked on every input) the
 * run would not be the one its recorded command says. */
static bool selects_sampled_rows(const accuracy_options *o) {
    return o->dtype_mask & ((1u << ULPB_DTYPE_f32) | (1u << ULPB_DTYPE_f64));
}
/* report's --seed also draws the quick bench's inputs, so it is taken for 16-bit types too unless --no-bench leaves it
 * nothing to draw. */
static int check_sampling_options(const char *sub, const accuracy_options *o, bool is_report) {
    const bool seed_draws_bench = is_report && !o->no_bench;
    if ((o->samples_given || (o->seed_given && !seed_draws_bench)) && !selects_sampled_rows(o))
        return fail(sub, "--samples and --seed are for f32 and f64 (f16 and bf16 are checked on all 65,536 inputs)%s",
                    is_report && o->seed_given && !o->samples_given
                        ? "; report's --seed also draws the bench inputs, which --no-bench leaves out"
                        : "");
    return 0;
}

/* --range must hold a value of every selected dtype: 0, or a usage error's status after its message. */
static int check_range_holds(const char *sub, const accuracy_options *o) {
    for (int d = 0; d < ULPB_DTYPE_COUNT && o->range.given; d++) {
        uint64_t first, last;
        if ((o->dtype_mask & (1u << d)) && !ulpb_range_keys((ulpb_dtype_id)d, &o->range, &first, &last))
            return fail(sub, "--range %s holds no %s value%s", o->range_text, ulpb_dtypes[d].name,
                        o->dtype_mask == 1u << d ? "" : "; choose --dtype");
    }
    return 0;
}

/* The dtype of an array read from path: the file's descr decides, and dtype_text (NULL: not given) only names what
 * raw '<u2' or '<i2' (torch's int16 view of bfloat16) holds or must agree with it. -1 after a usage error's message. */
static int npy_array_dtype(const char *sub, const char *path, npy_kind kind, const char *dtype_text) {
    const bool raw = kind == NPY_U2 || kind == NPY_I2;
    for (int d = 0; d < ULPB_DTYPE_COUNT; d++)
        if (strcmp(ulpb_dtypes[d].npy_descr, npy_kind_descr(raw ? NPY_U2 : kind)) == 0 &&
            (dtype_text ? strcmp(dtype_text, ulpb_dtypes[d].name) == 0 : !raw))
            return d;
    if (!dtype_text)
        fail(sub, "%s: '%s' data needs --dtype bf16 (bfloat16 bit patterns)", path, npy_kind_descr(kind));
    else
        fail(sub, "%s: file dtype '%s' does not hold %s", path, npy_kind_descr(kind), dtype_text);
    return -1;
}

/* --inputs FILE.npy of accuracy and bench: refuses an output that names the file (the run would replace what it
 * measured, and the results' SHA-256 would name nothing), reads it (in any order, with its SHA-256) and takes its
 * dtype, which dtype_mask (0: not given) must name alone. Returns the dtype, or -1 after a usage error's message
 * (nothing left allocated). */
static int read_inputs_file(const char *sub, const char *path, unsigned dtype_mask, const char *const outputs[2],
                            npy_array *array, ulpb_inputs_file *file) {
    if (dtype_mask & (dtype_mask - 1)) {
        fail(sub, "--inputs takes the file's dtype: give --dtype as one of %s, or leave it out", dtype_choices());
        return -1;
    }
    for (int k = 0; k < 2; k++)
        if (outputs[k] && ulpb_output_same(outputs[k], path)) {
            fail(sub, "'%s' names the input file '%s'; write the result to a new file", outputs[k], path);
            return -1;
        }
    char err[512];
    if (npy_read_elements(path, array, file->sha256, err, sizeof err)) {
        fail(sub, "%s: %s", path, err);
        return -1;
    }
    const int dtype =
        npy_array_dtype(sub, path, array->kind, dtype_mask ? ulpb_dtypes[__builtin_ctz(dtype_mask)].name : NULL);
    if (dtype >= 0 && array->count == 0) fail(sub, "%s holds no elements", path);
    if (dtype < 0 || array->count == 0) {
        npy_free(array);
        return -1;
    }
    file->path = path;
    file->elements = array->count;
    return dtype;
}

/* accuracy and report --inputs: reads the file into o->inputs_array after the checks that need no file (outputs: the
 * run's JSON and Markdown paths, NULL when not written), then sets o's dtype and inputs from it. 0, or a usage error's
 * status after its message (nothing left allocated). */
static int load_inputs(const char *sub, accuracy_options *o, const char *const outputs[2]) {
    const bool report = strcmp(sub, "report") == 0;
    /* report's --seed draws the bench's inputs from the file */
    const bool seed_refused = o->seed_given && (!report || o->no_bench);
    if (o->samples_given || seed_refused || o->shard_given || o->range.given || o->max_chunks || o->checkpoint_given)
        return fail(sub, "--inputs checks the elements of a file: %s does not apply%s",
                    o->samples_given ? "--samples"
                    : seed_refused   ? "--seed"
                    : o->shard_given ? "--shard"
                    : o->range.given ? "--range"
                    : o->max_chunks  ? "--max-chunks"
                                     : "--checkpoint",
                    report && seed_refused && !o->samples_given ? " (it draws the bench's inputs, which --no-bench "
                                                                  "leaves out)"
                                                                : "");
    if (!o->op_mask) return fail(sub, "missing --op (%s|all)", op_choices());
    if (!report && check_outputs(sub, outputs, 2)) return EXIT_USAGE; /* report checks its own once DIR exists */
    const int dtype = read_inputs_file(sub, o->inputs_path, o->dtype_mask, outputs, &o->inputs_array, &o->inputs_file);
    if (dtype < 0) return EXIT_USAGE;
    if (o->reference_given && !o->mpfr_reference && ulpb_dtypes[dtype].bytes == 2) {
        npy_free(&o->inputs_array);
        return fail(sub, "--reference fast is for f32 and f64 (%s holds %s, always checked against MPFR)",
                    o->inputs_path, ulpb_dtypes[dtype].name);
    }
    o->dtype_mask = 1u << dtype;
    return 0;
}

static int run_accuracy(const char *sub, const accuracy_options *o, ulpb_result *results, int *count) {
    *count = 0;
    char skipped[256] = "";
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        if (!(o->op_mask & (1u << op))) continue;
        for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
            if (!(o->dtype_mask & (1u << d))) continue;
            /* every implementation in one call (NULL), or the named ones in the order given */
            for (int k = 0; k < (o->impl_count ? o->impl_count : 1); k++) {
                const char *impl = o->impl_count ? o->impls[k] : NULL;
                const ulpb_entry *named = impl ? ulpb_entry_find(impl, (ulpb_op_id)op, (ulpb_dtype_id)d) : NULL;
                if (impl && !named) continue;
                if (named && named->role == ULPB_ROLE_BASELINE) { /* so --impl serves report's bench and accuracy */
                    snprintf(skipped, sizeof skipped, "'%s', a throughput baseline with no accuracy", named->impl);
                    continue;
                }
                if (named && !ulpb_entry_available(named)) {
                    /* as for every implementation when none is named: rows the CPU cannot run are left out */
                    snprintf(skipped, sizeof skipped, "'%s' %s %s needs %s, which this CPU lacks (or ULPB_DISABLE_ISA)",
                             named->impl, ulpb_ops[op].name, ulpb_dtypes[d].name, ulpb_isa_name(named->isa));
                    continue;
                }
                const ulpb_check_spec spec = {.op = (ulpb_op_id)op,
                                              .dtype = (ulpb_dtype_id)d,
                                              .samples = o->samples,
                                              .seed = o->seed,
                                              .impl = impl,
                                              .threads = o->threads,
                                              .progress = !o->quiet,
                                              .fast_reference = o->reference_given && !o->mpfr_reference,
                                              .shard_index = o->shard_given ? o->shard_index : 0,
                                              .shard_count = o->shard_given ? o->shard_count : 1,
                                              .range = o->range,
                                              .inputs = o->inputs_array.data,
                                              .input_count = o->inputs_array.count};
                char err[512];
                const int n = ulpb_check(&spec, results + *count, (int)ulpb_entry_count - *count, err, sizeof err);
                if (n < 0) return fail(sub, "%s", err);
                *count += n;
            }
        }
    }
    if (*count == 0 && *skipped) return fail(sub, "nothing to run: %s", skipped);
    if (*skipped) notice(sub, "skipped %s (and any other row it cannot run)", skipped);
    if (*count == 0) {
        char selected[128] = "", *p = selected;
        for (int op = 0; op < ULPB_OP_COUNT; op++)
            if (o->op_mask & (1u << op)) p += sprintf(p, "%s%s", p == selected ? "" : "/", ulpb_ops[op].name);
        for (int d = 0, first = 1; d < ULPB_DTYPE_COUNT; d++)
            if (o->dtype_mask & (1u << d)) p += sprintf(p, "%s%s", first ? " " : "/", ulpb_dtypes[d].name), first = 0;
        return fail(sub, "no registry entry matches implementation '%s' for %s ('ulpbench list' shows each one's)",
                    o->impl_count ? o->impl_text : "all", selected);
    }
    return 0;
}

/* Writes the JSON and/or Markdown outputs all or nothing: through temporary files renamed into
 * place only once every one is written, so a failure leaves no half-written set behind (the JSON synced to disk first
 * with sync_json). Then, only when they were
 * written, prints the Markdown (if any) on stdout: last, so that a reader that closes the pipe early (| head) cannot
 * stop the files from being written. */
static int write_outputs(const char *sub, const char *json_path, const char *md_path, cJSON *doc, const char *markdown,
                         bool sync_json) {
    char err[512];
    ulpb_output outputs[2];
    int count = 0;
    char *json_text = NULL;
    if (json_path) {
        char *text = cJSON_Print(doc);
        if (text && (json_text = malloc(strlen(text) + 2))) sprintf(json_text, "%s\n", text);
        cJSON_free(text);
        if (!json_text) return fail(sub, "out of memory");
        outputs[count++] = (ulpb_output){.path = json_path, .text = json_text, .sync = sync_json};
    }
    if (md_path) outputs[count++] = (ulpb_output){.path = md_path, .text = markdown};
    const int rc = ulpb_write_outputs(outputs, count, err, sizeof err);
    free(json_text);
    /* an output written to stdout itself (--json /dev/stdout) takes stdout's place; after a failed write stdout gets
     * nothing, so that a pipeline's copy of it cannot pass for the report of a run that succeeded */
    if (!rc && markdown && !ulpb_output_is_stdout(json_path) && !ulpb_output_is_stdout(md_path) &&
        (fputs(markdown, stdout) == EOF || fflush(stdout) != 0))
        g_stdout_errno = errno; /* reported at exit (checked_exit_status), where errno no longer says why */
    return rc ? fail(sub, "%s", err) : 0;
}

static size_t longest_backtick_run(const char *text) {
    size_t longest = 0, run = 0;
    for (const char *c = text; *c; c++) {
        run = *c == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    return longest;
}

/* text with its control characters but newlines shown as '?' (ulpb_control_length): a command read back from a
 * result (--resume) is printed, and one ulpbench recorded holds none (ulpb_append_quoted), but an edited one could move
 * a terminal's cursor or clear its screen. */
static void put_visible(FILE *f, const char *text) {
    for (const char *c = text; *c;) {
        const size_t control = *c == '\n' ? 0 : ulpb_control_length(c);
        fputc(control ? '?' : *c, f);
        c += control ? control : 1;
    }
}

/* text as a Markdown code span. The fence is one backtick longer than the longest run of backticks in the text, and
 * padded with spaces when the text starts or ends with one, so that a backtick in an argument (as in a file name)
 * cannot close the span early; inside it, '*', '_' and '|' are text. */
static void code_span(FILE *f, const char *text) {
    const size_t longest = longest_backtick_run(text);
    const size_t len = strlen(text);
    const char *pad = len && (text[0] == '`' || text[len - 1] == '`') ? " " : "";
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
    fputs(pad, f);
    put_visible(f, text);
    fputs(pad, f);
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
}

/* A command on its line, or, when it holds a newline (a word's trailing newlines, which only literal ones in quotes
 * give every shell: ulpb_append_quoted), in a fenced block, which keeps it whole where a span would end at a blank
 * line. */
static void labelled_command_line(FILE *f, const char *label, const char *command) {
    if (!strchr(command, '\n')) {
        fputs(label, f);
        code_span(f, command);
        fputs("  \n", f);
        return;
    }
    const size_t longest = longest_backtick_run(command), fence = longest >= 3 ? longest + 1 : 3;
    size_t label_length = strlen(label);
    while (label_length > 0 && label[label_length - 1] == ' ') label_length--;
    fprintf(f, "%.*s\n\n", (int)label_length, label); /* "Command:" */
    for (size_t i = 0; i < fence; i++) fputc('`', f);
    fputs("sh\n", f);
    put_visible(f, command);
    fputc('\n', f);
    for (size_t i = 0; i < fence; i++) fputc('`', f);
    fputs("\n\n", f);
}

static void command_line(FILE *f, const char *command) { labelled_command_line(f, "Command: ", command); }

static void environment_line(FILE *f) {
    cJSON *env = ulpb_environment_json();
    const char *libraries = cJSON_GetStringValue(cJSON_GetObjectItem(env, "libraries"));
    fprintf(f, "Environment: %s, %s; MPFR %s; glibc %s; SLEEF %s; omk %s (%s build, 16-bit types: %s); source %s",
            cJSON_GetObjectItem(env, "cpu")->valuestring, cJSON_GetObjectItem(env, "compiler")->valuestring,
            cJSON_GetObjectItem(env, "mpfr")->valuestring, cJSON_GetObjectItem(env, "glibc")->valuestring,
            cJSON_GetObjectItem(env, "sleef")->valuestring, cJSON_GetObjectItem(env, "omk")->valuestring,
            cJSON_GetObjectItem(env, "omk_isa")->valuestring, cJSON_GetObjectItem(env, "omk_half16")->valuestring,
            cJSON_GetObjectItem(env, "source")->valuestring);
    if (libraries) { /* paths: a code span, so that '*' or a backtick in one stays text */
        fputs("; libraries loaded: ", f);
        code_span(f, libraries);
    }
    fputs(".\n", f);
    cJSON_Delete(env);
}

/* v as its shortest round-tripping decimal, without an exponent where that stays short: 60000, not 6e+04. */
static void plain_decimal(char *text, size_t len, double v) {
    ulpb_shortest_decimal(text, len, v);
    if (!strchr(text, 'e') || !(fabs(v) >= 1e-4 && fabs(v) < 1e15)) return;
    for (int decimals = 0; decimals <= 20; decimals++) {
        snprintf(text, len, "%.*f", decimals, v);
        if (strtod(text, NULL) == v) return;
    }
    ulpb_shortest_decimal(text, len, v);
}

static char *markdown_of(const char *title, const ulpb_run_info *run, const ulpb_result *results, int count,
                         const char *gate_text) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, "## %s\n\n", title);
    command_line(f, run->command);
    if (run->samples)
        fprintf(f, "Seed: %llu, samples per (op, dtype) for f32/f64: %llu; ", run->seed, run->samples);
    else if (!run->seed_unused)
        fprintf(f, "Seed (of the bench inputs): %llu; ", run->seed);
    const char *reference = strcmp(run->reference, "fast") == 0
                                ? "fast for f32/f64 (binary64 / long double with a rounding test, MPFR when undecided; "
                                  "each worst input measured again with MPFR), MPFR for f16/bf16"
                                : "MPFR";
    if (run->range.given) {
        char lo[48], hi[48];
        plain_decimal(lo, sizeof lo, run->range.lo);
        plain_decimal(hi, sizeof hi, run->range.hi);
        fprintf(
            f,
            "%s in [%s, %s] only (--range; f16/bf16: every one, f32/f64: its ends, the format's edge values "
            "and the hard cases in it, then draws uniform in value, uniform over the format's values, "
            "log-uniform from its ends and, for cos, near the zeros of cos it holds a value next to). Reference: %s.\n",
            run->samples || !run->seed_unused ? "inputs" : "Inputs", lo, hi, reference);
    } else if (run->inputs) {
        char *quoted = malloc(ULPB_QUOTED_SIZE(strlen(run->inputs->path)));
        if (quoted) *ulpb_append_quoted(quoted, run->inputs->path, ULPB_SHELL_PLAIN) = 0;
        fprintf(f,
                "Inputs: the %llu elements of %s (sha256 %s), in C order (numpy's x.flat), each counted as often as it "
                "occurs. "
                "Reference: %s.\n",
                (unsigned long long)run->inputs->elements, quoted ? quoted : "(out of memory)", run->inputs->sha256,
                reference);
        free(quoted);
    } else {
        bool sixteen_bit = false; /* said only where a row is */
        for (int i = 0; i < count; i++) sixteen_bit |= ulpb_dtypes[results[i].entry->dtype].bytes == 2;
        fprintf(f, "%sReference: %s.\n", sixteen_bit ? "f16/bf16: all 65,536 inputs. " : "", reference);
    }
    environment_line(f);
    ulpb_results_markdown(f, results, count);
    if (gate_text) fprintf(f, "\n%s", gate_text);
    fclose(f);
    return buf;
}

static int parse_range(const char *text, double *lo, double *hi);
static int refuse_range(const char *sub, const char *arg);
enum { RANGE_TEXT_MAX = 120 }; /* a --range labels bench columns and hard-cases headers as given */

static int accuracy_getopt(const char *sub, int argc, char **argv, accuracy_options *o, bool report) {
    enum {
        OPT_MAX_ULP = 256,
        OPT_MAX_MIS,
        OPT_OUTDIR,
        OPT_NO_BENCH,
        OPT_EXHAUSTIVE,
        OPT_SHARD,
        OPT_REFERENCE,
        OPT_RESUME,
        OPT_MAX_CHUNKS,
        OPT_CHECKPOINT,
        OPT_RANGE,
        OPT_INPUTS
    };
    /* each command its own table, so that an abbreviation or an unknown option is judged against its options alone
     * ("accuracy --o" is --op, "report --e" is unknown) */
    // clang-format off
#define ULPB_SAMPLING_OPTIONS                                                                                          \
    {"op", required_argument, 0, 'o'}, {"dtype", required_argument, 0, 'd'}, {"impl", required_argument, 0, 'i'},     \
    {"samples", required_argument, 0, 'n'}, {"seed", required_argument, 0, 's'},                                       \
    {"threads", required_argument, 0, 't'}, {"json", required_argument, 0, 'j'},                                       \
    {"markdown", required_argument, 0, 'm'}, {"quiet", no_argument, 0, 'q'}, {"help", no_argument, 0, 'h'}
    // clang-format on
    static const struct option accuracy_opts[] = {ULPB_SAMPLING_OPTIONS,
                                                  {"exhaustive", no_argument, 0, OPT_EXHAUSTIVE},
                                                  {"shard", required_argument, 0, OPT_SHARD},
                                                  {"reference", required_argument, 0, OPT_REFERENCE},
                                                  {"resume", required_argument, 0, OPT_RESUME},
                                                  {"max-chunks", required_argument, 0, OPT_MAX_CHUNKS},
                                                  {"checkpoint", required_argument, 0, OPT_CHECKPOINT},
                                                  {"range", required_argument, 0, OPT_RANGE},
                                                  {"inputs", required_argument, 0, OPT_INPUTS},
                                                  {0, 0, 0, 0}};
    static const struct option report_opts[] = {ULPB_SAMPLING_OPTIONS,
                                                {"max-ulp", required_argument, 0, OPT_MAX_ULP},
                                                {"max-misrounded", required_argument, 0, OPT_MAX_MIS},
                                                {"output-dir", required_argument, 0, OPT_OUTDIR},
                                                {"no-bench", no_argument, 0, OPT_NO_BENCH},
                                                {"range", required_argument, 0, OPT_RANGE},
                                                {"inputs", required_argument, 0, OPT_INPUTS},
                                                {0, 0, 0, 0}};
#undef ULPB_SAMPLING_OPTIONS
    const struct option *opts = report ? report_opts : accuracy_opts;
    char ops[64], dtypes[64];
    names_of(ops, sizeof ops, ULPB_OP_COUNT, op_name);
    names_of(dtypes, sizeof dtypes, ULPB_DTYPE_COUNT, dtype_name);
    int c;
    unsigned long long u;
    while ((c = next_option(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (parse_mask(optarg, ulpb_op_find, ULPB_OP_COUNT, &o->op_mask))
                return fail(sub, "unknown op '%s' (expected %s|all)", optarg, ops);
            break;
        case 'd':
            if (parse_mask(optarg, ulpb_dtype_find, ULPB_DTYPE_COUNT, &o->dtype_mask))
                return fail(sub, "unknown dtype '%s' (expected %s|all)", optarg, dtypes);
            break;
        case 'i': {
            const char *unknown = optarg;
            o->impl_text = optarg;
            if (strlen(optarg) >= sizeof o->impl_names)
                return fail(sub, "--impl needs at most %zu characters", sizeof o->impl_names - 1);
            strcpy(o->impl_names, optarg);
            const int parsed = parse_impls(o->impl_names, o->impls, &o->impl_count, &unknown);
            if (parsed == -2)
                return fail(sub, "--impl needs comma-separated names without empty ones, got '%s'", optarg);
            if (parsed == -3) return fail(sub, "--impl lists '%s' twice: give each name once", unknown);
            if (parsed) return unknown_in_impl_list(sub, unknown);
            break;
        }
        case 'n':
            if (parse_json_integer(optarg, &o->samples) || o->samples == 0)
                return fail(sub, "--samples needs an integer in 1..2^53, got '%s'", optarg);
            o->samples_given = true;
            break;
        case 's':
            if (parse_json_integer(optarg, &o->seed))
                return fail(sub, "--seed needs an integer in 0..2^53, got '%s'", optarg);
            o->seed_given = true;
            break;
        case 't':
            if (parse_u64(optarg, &u) || u == 0 || u > ULPB_THREADS_MAX)
                return fail(sub, "--threads needs an integer in 1..%d, got '%s'", ULPB_THREADS_MAX, optarg);
            o->threads = (int)u;
            break;
        case 'j':
        case 'm':
            if (report)
                return fail(sub,
                            "report writes DIR/report.json and DIR/report.md: name DIR with --output-dir, not --%s",
                            c == 'j' ? "json" : "markdown");
            if (c == 'j') o->json_path = optarg;
            if (c == 'm') o->markdown_path = optarg;
            break;
        case 'q':
            o->quiet = true;
            break;
        case OPT_OUTDIR:
            if (!*optarg) return fail(sub, "--output-dir needs a directory name, got ''");
            o->output_dir = optarg;
            break;
        case OPT_NO_BENCH:
            o->no_bench = true;
            break;
        case OPT_INPUTS:
            if (!*optarg) return fail(sub, "--inputs needs a .npy file, got ''");
            o->inputs_path = optarg;
            break;
        case OPT_RANGE:
            if (parse_range(optarg, &o->range.lo, &o->range.hi)) return refuse_range(sub, optarg);
            if (report && strlen(optarg) > RANGE_TEXT_MAX) /* it labels the throughput's columns as given */
                return fail(sub, "--range '%.40s...' is longer than %d characters", optarg, RANGE_TEXT_MAX);
            o->range.given = true;
            o->range_text = optarg;
            break;
        case OPT_MAX_ULP:
        case OPT_MAX_MIS:
            if (parse_gate_limit(sub, c == OPT_MAX_ULP, optarg, &o->gate, o->max_ulp_given)) return EXIT_USAGE;
            break;
        case OPT_EXHAUSTIVE:
        case OPT_SHARD:
        case OPT_REFERENCE:
        case OPT_RESUME:
        case OPT_MAX_CHUNKS:
        case OPT_CHECKPOINT:
            if (c == OPT_EXHAUSTIVE) o->exhaustive = true;
            if (c == OPT_RESUME) o->resume_path = optarg;
            if (c == OPT_SHARD) {
                const char *slash = strchr(optarg, '/');
                char index_text[24] = "";
                unsigned long long index = 0, shards = 0;
                if (slash && (size_t)(slash - optarg) < sizeof index_text)
                    memcpy(index_text, optarg, (size_t)(slash - optarg));
                if (!slash || parse_u64(index_text, &index) || parse_u64(slash + 1, &shards) || shards < 1 ||
                    shards > ULPB_CHUNKS || index >= shards)
                    return fail(sub, "--shard needs K/N with 0 <= K < N <= %d, got '%s'", ULPB_CHUNKS, optarg);
                o->shard_index = (int)index;
                o->shard_count = (int)shards;
                o->shard_given = true;
            }
            if (c == OPT_REFERENCE) {
                if (strcmp(optarg, "fast") != 0 && strcmp(optarg, "mpfr") != 0)
                    return fail(sub, "--reference is fast or mpfr, got '%s'", optarg);
                o->mpfr_reference = strcmp(optarg, "mpfr") == 0;
                o->reference_given = true;
            }
            if (c == OPT_CHECKPOINT) {
                /* not more often than every millisecond: each checkpoint is a synced write of the whole state */
                if (parse_number(optarg, &o->checkpoint_seconds) ||
                    !(o->checkpoint_seconds == 0 || (o->checkpoint_seconds >= 1e-3 && o->checkpoint_seconds <= 1e9)))
                    return fail(sub, "--checkpoint needs 0 (never) or seconds from 0.001 to 1e9, got '%s'", optarg);
                o->checkpoint_given = true;
            }
            if (c == OPT_MAX_CHUNKS && (parse_u64(optarg, &o->max_chunks) || o->max_chunks == 0))
                return fail(sub, "--max-chunks needs a positive integer, got '%s'", optarg);
            /* "--max-chunks N" or "--max-chunks=N" (getopt takes abbreviations too): the recorded command leaves it
             * out (argv is the process's from its second word on) */
            if (c == OPT_MAX_CHUNKS && g_dropped)
                for (int w = optind - (optarg == argv[optind - 1] ? 2 : 1); w < optind; w++) g_dropped[1 + w] = true;
            break;
        case 'h':
            return -1;
        default:
            return bad_option(sub, c, argc, argv);
        }
    }
    if (optind < argc) return fail(sub, "unexpected argument '%s'", argv[optind]);
    return 0;
}

/* ---- accuracy --exhaustive ----------------------------------------------------------------- */

enum { EXIT_INCOMPLETE = 3 };

/* Results are regular files of at most MAX_JSON_BYTES: a pipe or a device (/dev/zero) would block or never end. */
enum { MAX_JSON_BYTES = 1 << 30 };
static int compare_keys(const void *a, const void *b) {
    return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether cJSON stopped at byte `at` of JSON text for its nesting limit rather than a syntax error (it says the same
 * of both, which would send a user looking for a typo there): an array or object opened where a value belongs, with
 * CJSON_NESTING_LIMIT levels open around it. */
static bool json_too_deep_at(const char *text, size_t at) {
    enum { LEVELS = CJSON_NESTING_LIMIT + 1 };
    static bool in_object[LEVELS]; /* of each level open, whether it is an object */
    int depth = 0;
    bool in_string = false, value_expected = true; /* after '[', ':', or ',' in an array */
    for (size_t k = 0; k < at; k++) {
        const char c = text[k];
        if (in_string) {
            if (c == '\\')
                k++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"')
            in_string = true, value_expected = false;
        else if (c == '[' || c == '{') {
            if (depth < LEVELS) in_object[depth] = c == '{';
            depth++;
            value_expected = c == '[';
        } else if (c == ']' || c == '}')
            depth--, value_expected = false;
        else if (c == ':')
            value_expected = true;
        else if (c == ',')
            value_expected = depth > 0 && depth <= LEVELS && !in_object[depth - 1];
        else if (!strchr(" \t\r\n", c))
            value_expected = false;
    }
    return (text[at] == '[' || text[at] == '{') && value_expected && depth >= CJSON_NESTING_LIMIT;
}
/* A key that one object of item holds twice, letter case aside (cJSON would read the first one, and some lookups
 * ignore case), or NULL: no file ulpbench writes has one, and an edit that adds one would hide a value. */
static const char *duplicate_key(const cJSON *item) {
    const cJSON *child;
    size_t count = 0;
    cJSON_ArrayForEach(child, item) count++;
    if (cJSON_IsObject(item) && count > 1) {
        const char **names = malloc(count * sizeof *names);
        const char *twice = NULL;
        if (names) { /* sorted, each next to its twin */
            size_t k = 0;
            cJSON_ArrayForEach(child, item) names[k++] = child->string ? child->string : "";
            qsort(names, count, sizeof *names, compare_keys);
            for (k = 1; k < count && !twice; k++)
                if (strcasecmp(names[k - 1], names[k]) == 0) twice = names[k];
            free(names);
        } else { /* out of memory: pair by pair */
            for (const cJSON *a = item->child; a && !twice; a = a->next)
                for (const cJSON *b = a->next; b && !twice; b = b->next)
                    if (a->string && b->string && strcasecmp(a->string, b->string) == 0) twice = b->string;
        }
        if (twice) return twice;
    }
    cJSON_ArrayForEach(child, item) {
        const char *twice = duplicate_key(child);
        if (twice) return twice;
    }
    return NULL;
}

static cJSON *read_json_file(const char *sub, const char *path, int *status) {
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* O_NONBLOCK: a FIFO must not wait for a writer */
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        *status = fail(sub, "cannot open '%s': %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > MAX_JSON_BYTES) {
        *status = S_ISDIR(st.st_mode) ? fail(sub, "'%s' is a directory, not a JSON result", path)
                  : S_ISREG(st.st_mode)
                      ? fail(sub, "'%s' is larger than %d MiB: not a result of ulpbench", path, MAX_JSON_BYTES >> 20)
                      : fail(sub, "'%s' is not a regular file (a JSON result is read from a file)", path);
        close(fd);
        return NULL;
    }
    char *text = malloc((size_t)st.st_size + 1);
    size_t len = 0;
    int error = text ? 0 : ENOMEM;
    while (!error && len < (size_t)st.st_size) {
        const ssize_t n = read(fd, text + len, (size_t)st.st_size - len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = errno;
        if (n <= 0) break; /* a file that shrank: parse what was read */
        len += (size_t)n;
    }
    close(fd);
    if (error) {
        free(text);
        *status = fail(sub, "cannot read '%s': %s", path, strerror(error));
        return NULL;
    }
    text[len] = '\0';
    /* JSON holds no raw control character (in strings they are escaped), and cJSON ends a string at a NUL, raw or
     * escaped (\u0000, or a \u not followed by four hex digits, which it reads as 0): "omk\0x" would read as "omk" */
    bool in_string = false;
    for (size_t k = 0; k < len; k++) {
        const unsigned char c = (unsigned char)text[k];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            *status =
                fail(sub, "'%s' is not valid JSON (a raw control character, byte 0x%02x, at byte %zu)", path, c, k);
            free(text);
            return NULL;
        }
        if (c == '"') in_string = !in_string;
        if (!in_string || c != '\\' || k + 1 >= len) continue;
        if (text[++k] != 'u') continue;
        unsigned value = 0;
        bool hex = k + 4 < len;
        for (int d = 1; d <= 4 && hex; d++) {
            const char digit = text[k + (size_t)d];
            hex = isxdigit((unsigned char)digit);
            value = value * 16 + (unsigned)(isdigit((unsigned char)digit) ? digit - '0' : (digit | 0x20) - 'a' + 10);
        }
        if (!hex || value == 0) {
            *status = fail(sub,
                           "'%s' is not a result of ulpbench (an escaped NUL, or a \\u without four hex digits, at "
                           "byte %zu)",
                           path, k - 1);
            free(text);
            return NULL;
        }
        k += 4;
    }
    /* one document per file: a second one appended (`--json /dev/stdout >> runs.json` twice) or trailing bytes would
     * otherwise be dropped without a word */
    const char *end = NULL, *twice;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    size_t rest = doc ? (size_t)(end - text) : len;
    while (doc && rest < len && strchr(" \t\r\n", text[rest]) && text[rest] != '\0') rest++;
    const size_t stop = !doc && end && end >= text ? (size_t)(end - text) : 0;
    if (!doc && stop < len && json_too_deep_at(text, stop))
        *status =
            fail(sub, "'%s' is not a result of ulpbench (arrays or objects nested more than %d deep, at byte %zu)",
                 path, CJSON_NESTING_LIMIT, stop);
    else if (!doc)
        *status = fail(sub, "'%s' is not valid JSON (at byte %zu)", path, stop);
    else if (rest < len) {
        *status =
            fail(sub, "'%s' holds more than one JSON document (more text from byte %zu): a result is one file each",
                 path, rest);
        cJSON_Delete(doc);
        doc = NULL;
    } else if ((twice = duplicate_key(doc))) {
        *status = fail(sub, "'%s' holds the key \"%s\" twice in one object: not a file ulpbench wrote", path, twice);
        cJSON_Delete(doc);
        doc = NULL;
    }
    free(text);
    return doc;
}

/* sysconf's count of online CPUs: a number past any machine's (1e30) is an edit, not a count */
enum { MAX_RECORDED_CORES = 1 << 24 };
static bool cores_recorded(const cJSON *env) {
    const cJSON *cores = cJSON_GetObjectItem(env, "cores");
    return cJSON_IsNumber(cores) && cores->valuedouble >= 1 && cores->valuedouble <= MAX_RECORDED_CORES &&
           cores->valuedouble == floor(cores->valuedouble);
}

/* The first environment entry (the libraries, omk's build and 16-bit method, ulpbench's version, the commit built, the
 * compiler) in which two results' environments differ or that one lacks, with both values; NULL when they agree. The
 * CPU and the count of cores may differ (a job array runs on mixed runners, and the result then lists every CPU:
 * combined_environment), but must be recorded, as a name and a number. */
static const char *environment_difference(const cJSON *env_a, const cJSON *env_b, bool libraries, const char **a,
                                          const char **b) {
    static const char *const same_environment[] = {
        "glibc",      "sleef",    "mpfr",   "omk",      "omk_isa",
        "omk_half16", "ulpbench", "source", "compiler", "libraries_identity"};
    for (size_t k = 0; k < sizeof same_environment / sizeof *same_environment; k++) {
        if (!libraries && strcmp(same_environment[k], "libraries_identity") == 0) continue;
        const cJSON *item_a = cJSON_GetObjectItem(env_a, same_environment[k]),
                    *item_b = cJSON_GetObjectItem(env_b, same_environment[k]);
        *a = cJSON_GetStringValue(item_a);
        *b = cJSON_GetStringValue(item_b);
        if ((item_a && !*a) || (item_b && !*b)) { /* an edited file's number is no library list or commit */
            *a = item_a && !*a ? "not a string" : *a ? *a : "missing";
            *b = item_b && !*b ? "not a string" : *b ? *b : "missing";
            return same_environment[k];
        }
        /* The libraries (ULPB_LIBRARIES) by name, size and digest: a copy of one file in another place (another runner
         * of a job array) is the same library. */
        if (strcmp(same_environment[k], "libraries_identity") == 0) {
            if (ulpb_libraries_differ(a, b)) return same_environment[k];
            continue;
        }
        if (!*a && !*b && strcmp(same_environment[k], "source") == 0) continue; /* both written before it was */
        if (!*a || !*b || strcmp(*a, *b) != 0) {
            if (!*a) *a = "missing";
            if (!*b) *b = "missing";
            return same_environment[k];
        }
    }
    const char *cpu_name_a = cJSON_GetStringValue(cJSON_GetObjectItem(env_a, "cpu")),
               *cpu_name_b = cJSON_GetStringValue(cJSON_GetObjectItem(env_b, "cpu"));
    const bool cpu_a = cpu_name_a && *cpu_name_a, cpu_b = cpu_name_b && *cpu_name_b, counted_a = cores_recorded(env_a),
               counted_b = cores_recorded(env_b);
    if (cpu_a && cpu_b && counted_a && counted_b) return NULL;
    const bool cpus = cpu_a && cpu_b;
    *a = (cpus ? counted_a : cpu_a) ? "recorded" : "missing";
    *b = (cpus ? counted_b : cpu_b) ? "recorded" : "missing";
    return cpus ? "cores" : "cpu";
}

/* The environment of a result made of several runs (shards, or a run and its resumptions), which agree in everything
 * environment_difference compares: the first one's, with cpu listing every CPU they ran on ("A; B") and cores the
 * first one's. */
static cJSON *combined_environment(const cJSON *const *envs, int count) {
    cJSON *env = cJSON_Duplicate(envs[0], 1);
    const char **cpus = calloc((size_t)count, sizeof *cpus);
    int distinct = 0;
    size_t joined_len = 1;
    for (int i = 0; i < count && cpus; i++) {
        const char *cpu = cJSON_GetStringValue(cJSON_GetObjectItem(envs[i], "cpu"));
        bool listed = !cpu;
        for (int k = 0; k < distinct && !listed; k++) listed = strcmp(cpus[k], cpu) == 0;
        if (listed) continue;
        cpus[distinct++] = cpu;
        joined_len += strlen(cpu) + 2;
    }
    char *joined = distinct > 1 ? calloc(joined_len, 1) : NULL;
    for (int k = 0; k < distinct && joined; k++) strcat(strcat(joined, k ? "; " : ""), cpus[k]);
    if (joined) cJSON_ReplaceItemInObjectCaseSensitive(env, "cpu", cJSON_CreateString(joined));
    free(joined), free(cpus);
    return env;
}

/* How an exhaustive run's result is recorded, at the end and in its checkpoints. */
typedef struct {
    const char *json_path, *command, *resumed_with;
    const cJSON *const *envs; /* the started and current environments of a resumed run (envs[0] NULL otherwise) */
    bool warned;              /* a checkpoint could not be written */
} exhaustive_record;

/* The result's JSON document: the command that gives it in one go, the resuming one beside it, and for a resumed run
 * the environments of both. */
static cJSON *exhaustive_record_json(const exhaustive_record *record, const ulpb_exhaustive_state *st) {
    cJSON *doc = ulpb_exhaustive_json(st, record->command);
    if (record->resumed_with) cJSON_AddStringToObject(doc, "resumed_with", record->resumed_with);
    if (record->envs[0])
        cJSON_ReplaceItemInObjectCaseSensitive(doc, "environment", combined_environment(record->envs, 2));
    return doc;
}

static void write_checkpoint(const ulpb_exhaustive_state *partial, void *context) {
    exhaustive_record *target = context;
    cJSON *doc = exhaustive_record_json(target, partial);
    char *text = cJSON_Print(doc), err[512];
    cJSON_Delete(doc);
    const ulpb_output output = {.path = target->json_path, .text = text ? text : "", .sync = true};
    /* a failed checkpoint leaves the file as it was (the last one); the run goes on and writes its result at the end */
    if ((!text || ulpb_write_outputs_in_run(&output, 1, err, sizeof err)) && !target->warned) {
        notice("accuracy", "checkpoint not written (the run goes on): %s", text ? err : "out of memory");
        target->warned = true;
    }
    cJSON_free(text);
}

static int run_exhaustive(const accuracy_options *o) {
    const char *sub = "accuracy";
    if (o->impl_count > 1 || (o->impl_text && o->impl_count == 0)) /* several names, or "all" */
        return fail(sub, "--exhaustive takes one --impl, got '%s'", o->impl_text);
    ulpb_exhaustive_state *st = calloc(1, sizeof *st);
    int status = 0;
    const char *json_path = o->json_path;
    /* A resumed result keeps the command that started it, which gives the same result in one go; the resuming
     * command goes beside it. */
    char *started_by = NULL;
    /* the environments of the run that started the file and of this one: a resumed result is only the uninterrupted
     * one when both ran the same omk build with the same libraries */
    const cJSON *envs[2] = {NULL, NULL};
    cJSON *started_env = NULL, *current_env = NULL;
    /* a complete result given to --resume: nothing runs, and the result stays as it was (copied to another --json) */
    cJSON *complete_doc = NULL;
    if (o->resume_path) {
        cJSON *doc = read_json_file(sub, o->resume_path, &status);
        char err[256];
        if (!doc || ulpb_exhaustive_from_json(doc, st, err, sizeof err)) {
            if (doc) status = fail(sub, "cannot resume from '%s': %s", o->resume_path, err);
            cJSON_Delete(doc);
            free(st);
            return status;
        }
        if (ulpb_exhaustive_complete(st) && !(complete_doc = cJSON_Duplicate(doc, true))) {
            cJSON_Delete(doc);
            free(st);
            return fail(sub, "out of memory");
        }
        started_env = cJSON_DetachItemFromObject(doc, "environment");
        current_env = ulpb_environment_json();
        const char *was = "missing", *now = "recorded", *what = "environment";
        if (cJSON_IsObject(started_env)) what = environment_difference(started_env, current_env, true, &was, &now);
        /* a complete one too: exit 0 on it would pass a job whose cached result measured another build */
        if (what) {
            status = complete_doc ? fail(sub,
                                         "--resume '%s' is a complete result of another environment (%s: '%s', here "
                                         "'%s'): it does not measure this build; run without --resume to measure it",
                                         o->resume_path, what, was, now)
                                  : fail(sub, "--resume '%s' was started in another environment (%s: '%s', here '%s')",
                                         o->resume_path, what, was, now);
            cJSON_Delete(doc), cJSON_Delete(started_env), cJSON_Delete(current_env), cJSON_Delete(complete_doc);
            free(st);
            return status;
        }
        envs[0] = started_env, envs[1] = current_env;
        const char *recorded = cJSON_GetStringValue(cJSON_GetObjectItem(doc, "command"));
        if (recorded && !(started_by = strdup(recorded))) {
            cJSON_Delete(doc), cJSON_Delete(started_env), cJSON_Delete(current_env), cJSON_Delete(complete_doc);
            free(st);
            return fail(sub, "out of memory");
        }
        cJSON_Delete(doc);
        /* what the file says wins; a flag that contradicts it is an error */
        const ulpb_exhaustive_spec *s = &st->spec;
        const char *differs =
            o->op_mask && o->op_mask != (1u << s->entry->op)                                           ? "--op"
            : o->impl_count && strcmp(o->impls[0], s->entry->impl) != 0                                ? "--impl"
            : o->shard_given && (o->shard_index != s->shard_index || o->shard_count != s->shard_count) ? "--shard"
            : o->reference_given && o->mpfr_reference != s->mpfr_reference                             ? "--reference"
            : o->range.given && !(s->range.given && o->range.lo == s->range.lo && o->range.hi == s->range.hi)
                ? "--range"
                : NULL;
        if (differs) {
            free(st);
            free(started_by);
            cJSON_Delete(started_env), cJSON_Delete(current_env), cJSON_Delete(complete_doc);
            return fail(sub, "--resume '%s': %s differs from the file's (the file's settings are the run's)",
                        o->resume_path, differs);
        }
        if (!json_path) json_path = o->resume_path;
        if (complete_doc && ulpb_output_same(json_path, o->resume_path)) json_path = NULL; /* left as it was */
        st->spec.threads = o->threads;
        st->spec.progress = !o->quiet;
        st->spec.max_chunks = o->max_chunks;
    } else {
        int op = -1;
        for (int i = 0; i < ULPB_OP_COUNT; i++)
            if (o->op_mask == (1u << i)) op = i;
        if (op < 0) {
            free(st);
            return fail(sub, "--exhaustive needs one --op (%s)", op_choices());
        }
        const char *impl = o->impl_count ? o->impls[0] : "omk";
        const ulpb_entry *e = ulpb_entry_find(impl, (ulpb_op_id)op, ULPB_DTYPE_f32);
        if (e && e->role == ULPB_ROLE_BASELINE) {
            free(st);
            return fail(sub, "'%s' is a throughput baseline and has no accuracy", e->impl);
        }
        if (!e || !ulpb_entry_available(e)) {
            free(st);
            return fail(sub, "no runnable implementation '%s' of %s f32", impl, ulpb_ops[op].name);
        }
        const ulpb_exhaustive_spec spec = {.entry = e,
                                           .mpfr_reference = o->mpfr_reference,
                                           .shard_index = o->shard_given ? o->shard_index : 0,
                                           .shard_count = o->shard_given ? o->shard_count : 1,
                                           .range = o->range,
                                           .threads = o->threads,
                                           .progress = !o->quiet,
                                           .max_chunks = o->max_chunks};
        uint64_t first_key, last_key;
        if (o->range.given && !ulpb_range_keys(ULPB_DTYPE_f32, &o->range, &first_key, &last_key)) {
            free(st);
            return fail(sub, "--range %s holds no f32 value", o->range_text);
        }
        const int chunk_count = ulpb_exhaustive_chunk_count(&spec);
        if (spec.shard_count > chunk_count) {
            free(st);
            return fail(sub, "--shard %d/%d: --range %s spans %d chunk%s of 2^20 inputs, fewer than %d shards",
                        spec.shard_index, spec.shard_count, o->range_text, chunk_count, chunk_count == 1 ? "" : "s",
                        spec.shard_count);
        }
        ulpb_exhaustive_init(st, &spec);
    }
    if (o->checkpoint_given && o->checkpoint_seconds > 0 && !json_path && !complete_doc) {
        free(st);
        return fail(sub, "--checkpoint writes the partial result to the --json FILE: it needs one");
    }
    if (o->max_chunks && !json_path && !complete_doc) { /* a resumed run has one: its file */
        free(st);
        return fail(sub, "--max-chunks stops the run so that --resume can continue it: it needs --json FILE");
    }
    /* --resume FILE without --json writes back to FILE; the Markdown (to --markdown or stdout) never goes there */
    const char *const outputs[] = {json_path, o->markdown_path};
    if ((status = check_outputs(sub, outputs, 2)) ||
        (o->resume_path && ((status = check_not_input(sub, NULL, o->resume_path)) ||
                            (o->markdown_path && (status = check_not_input(sub, o->markdown_path, o->resume_path)))))) {
        free(st);
        free(started_by);
        cJSON_Delete(started_env), cJSON_Delete(current_env), cJSON_Delete(complete_doc);
        return status;
    }
    /* the result's command gives it in one go: without --max-chunks, which only stops the run early */
    char *whole_command = command_without_dropped_words();
    const char *result_command = started_by ? started_by : whole_command ? whole_command : g_command;
    const char *resumed_with = complete_doc ? cJSON_GetStringValue(cJSON_GetObjectItem(complete_doc, "resumed_with"))
                               : started_by ? g_command
                                            : NULL;
    exhaustive_record record = {json_path, result_command, resumed_with, envs, false};
    /* checkpoints go to a regular file (or one still to be made), never to stdout, a device or a pipe */
    struct stat json_stat;
    const bool json_is_file = json_path && !ulpb_output_is_stdout(json_path) &&
                              (stat(json_path, &json_stat) == 0 ? S_ISREG(json_stat.st_mode) : errno == ENOENT);
    if (o->max_chunks && !json_is_file && !complete_doc) { /* /dev/null, stdout or a pipe would lose the work */
        free(st);
        free(started_by);
        free(whole_command);
        cJSON_Delete(started_env), cJSON_Delete(current_env);
        return fail(
            sub, "--max-chunks keeps the partial result for --resume in the JSON file, and '%s' is not a regular file",
            json_path);
    }
    const double checkpoint_seconds = o->checkpoint_given ? o->checkpoint_seconds : DEFAULT_CHECKPOINT_SECONDS;
    if (json_is_file && checkpoint_seconds > 0 && !complete_doc) {
        st->spec.checkpoint = write_checkpoint;
        st->spec.checkpoint_context = &record;
        st->spec.checkpoint_seconds = checkpoint_seconds;
    }
    if (!complete_doc) ulpb_exhaustive_run(st);
    st->spec.checkpoint = NULL;
    if (st->failure[0]) { /* the outputs are left as they were: a checkpoint holds only the chunks checked before */
        const int failed = fail(sub, "%s", st->failure);
        free(whole_command), free(st), free(started_by);
        cJSON_Delete(started_env), cJSON_Delete(current_env);
        return failed;
    }
    const bool complete = ulpb_exhaustive_complete(st);

    ulpb_result *r = calloc(1, sizeof *r);
    r->entry = st->spec.entry;
    r->exhaustive = true;
    r->total = st->stats;
    r->seconds = st->impl_seconds;
    r->reference_seconds = st->reference_seconds;
    char *md = NULL;
    size_t md_len = 0;
    FILE *f = open_memstream(&md, &md_len);
    fputs("## ulpbench accuracy --exhaustive\n\n", f);
    command_line(f, result_command);
    if (resumed_with) labelled_command_line(f, "Resumed with: ", resumed_with);
    if (st->spec.range.given) {
        char lo[48], hi[48];
        plain_decimal(lo, sizeof lo, st->spec.range.lo);
        plain_decimal(hi, sizeof hi, st->spec.range.hi);
        fprintf(f, "Every binary32 input in [%s, %s] only (--range). ", lo, hi);
    }
    char fallbacks[64] = ""; /* with MPFR alone there is nothing to fall back from */
    if (!st->spec.mpfr_reference)
        snprintf(fallbacks, sizeof fallbacks, ", %llu fast-reference fallback%s to MPFR",
                 (unsigned long long)st->reference_fallbacks, st->reference_fallbacks == 1 ? "" : "s");
    fprintf(f, "Shard %d/%d (0-based), reference %s: %s, %llu inputs%s, %.1f s.\n", st->spec.shard_index,
            st->spec.shard_count, st->spec.mpfr_reference ? "MPFR" : "fast",
            complete    ? "complete"
            : json_path ? "INCOMPLETE (resume with --resume)"
                        : "INCOMPLETE (interrupted without --json: nothing to resume)",
            (unsigned long long)st->stats.inputs, fallbacks, st->seconds);
    ulpb_results_markdown(f, r, 1);
    if (st->stats.misrounded) {
        fprintf(f, "\nMisrounded inputs (%llu%s):", (unsigned long long)st->stats.misrounded,
                st->stats.misrounded > st->misrounded_listed ? ", the first listed" : "");
        for (uint64_t i = 0; i < st->misrounded_listed && i < 20; i++) fprintf(f, " 0x%08x", st->misrounded[i]);
        fprintf(f, "%s\n",
                st->misrounded_listed <= 20 ? ""
                : json_path || complete_doc ? " ... (all listed ones are in the JSON)"
                                            : " ... (--json FILE lists them all)");
    }
    fclose(f);
    cJSON *doc = complete_doc ? complete_doc : exhaustive_record_json(&record, st);
    status = write_outputs(sub, json_path, o->markdown_path, doc, md, true); /* hours of work: synced */
    if (status == 0 && complete_doc)
        notice("accuracy", "'%s' is a complete result: nothing was run, %s", o->resume_path,
               json_path ? "its result copied unchanged" : "the file is left as it was");
    if (status == 0 && !complete) {
        fprintf(stderr, "ulpbench accuracy: %s; %s\n", st->interrupted ? "interrupted" : "stopped at --max-chunks",
                json_is_file       ? "the partial result can be resumed with --resume"
                : json_path        ? "the partial result went to a device or pipe, not a file: --resume needs it saved"
                : o->markdown_path ? "no --json: the Markdown summary was written, nothing to resume"
                                   : "no --json, nothing saved");
        status = EXIT_INCOMPLETE;
    }
    cJSON_Delete(doc);
    free(whole_command);
    free(md);
    free(r);
    free(st);
    free(started_by);
    cJSON_Delete(started_env), cJSON_Delete(current_env);
    return status;
}

/* ---- merge --------------------------------------------------------------------------------- */

static int cmd_merge(int argc, char **argv) {
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *out_path = NULL;
    int c;
    while ((c = next_option(argc, argv, ":o:h", opts, NULL)) != -1) {
        if (c == 'o')
            out_path = optarg;
        else if (c == 'h') {
            puts("usage: ulpbench merge [-o|--output OUT.json] SHARD.json...\n\n"
                 "Combines shard results into one (stdout unless -o, which must not name an input): those of\n"
                 "'ulpbench accuracy --exhaustive --shard K/N' into a result over all 2^32 inputs (or a --range's),\n"
                 "or those of a sampled 'ulpbench accuracy --shard K/N' into the result of the whole sample. Refuses\n"
                 "(exit 2) files from another ulpbench version, op, dtype, implementation, reference, --range (whose\n"
                 "worst inputs must lie in it), seed or sample count, or environment (glibc, SLEEF, MPFR, omk build\n"
                 "and 16-bit method, commit built, compiler, the libraries of ULPB_LIBRARIES, which must be loaded\n"
                 "here, no more), that overlap, or that leave a gap.\n"
                 "The merged file records the shards' environment, its cpu every CPU they ran on, and in\n"
                 "merged_from each shard's file and the command that made it.");
            return 0;
        } else
            return bad_option("merge", c, argc, argv);
    }
    const int count = argc - optind;
    if (count < 1) return fail("merge", "no input files");
    if (check_outputs("merge", &out_path, 1)) return EXIT_USAGE;
    const char *const *names = (const char *const *)argv + optind;
    for (int i = 0; i < count; i++) /* the merged file (-o, or stdout) would replace or append to a shard */
        if (check_not_input("merge", out_path, names[i])) return EXIT_USAGE;
    /* said so, rather than as two shards that overlap */
    if (check_each_file_once("merge", names, count, "shard")) return EXIT_USAGE;
    cJSON **docs = calloc((size_t)count, sizeof *docs);
    int status = 0;
    for (int i = 0; i < count && status == 0; i++) docs[i] = read_json_file("merge", names[i], &status);
    for (int i = 0; i < count && status == 0; i++) {
        const cJSON *version = cJSON_GetObjectItem(docs[i], "schema_version");
        if (!version && !cJSON_GetStringValue(cJSON_GetObjectItem(docs[i], "schema")))
            status =
                fail("merge", "%s has no \"schema\" or \"schema_version\": not the JSON of an ulpbench accuracy run",
                     names[i]);
        else if (!cJSON_IsNumber(version) || version->valuedouble != ULPB_SCHEMA_VERSION)
            status = fail("merge", "%s: schema_version is not %d (written by another ulpbench version?)", names[i],
                          ULPB_SCHEMA_VERSION);
    }
    const cJSON **envs = calloc((size_t)count, sizeof *envs);
    if (!envs && status == 0) status = fail("merge", "out of memory");
    for (int i = 0; i < count && envs; i++) envs[i] = cJSON_GetObjectItem(docs[i], "environment");
    for (int i = 0; i < count && envs && status == 0; i++)
        if (!cJSON_IsObject(envs[i])) status = fail("merge", "%s has no \"environment\"", names[i]);
    for (int i = 0; i < count && status == 0; i++) { /* from 0: a first file without them is refused too */
        const char *a, *b, *what = environment_difference(envs[0], envs[i], true, &a, &b);
        if (what && (!strcmp(a, "missing") || !strcmp(b, "missing"))) /* not a difference: a gap */
            status = fail("merge", "%s: its \"environment\" has no \"%s\"", strcmp(a, "missing") ? names[i] : names[0],
                          what);
        else if (what)
            status = fail("merge", "%s and %s were run in different environments (%s: '%s', '%s')", names[0], names[i],
                          what, a, b);
    }
    if (status == 0) { /* the merge's command, which the result records, names the libraries the shards ran */
        const char *ran = cJSON_GetStringValue(cJSON_GetObjectItem(envs[0], "libraries_identity")),
                   *here = ulpb_libraries_identity();
        if (ulpb_libraries_differ(&ran, &here))
            status =
                fail("merge", "the shards ran with other libraries than ULPB_LIBRARIES loads here ('%s', here '%s')",
                     ran, here);
    }
    const char *schema = status == 0 ? cJSON_GetStringValue(cJSON_GetObjectItem(docs[0], "schema")) : NULL;
    cJSON *merged_doc = NULL;
    char err[512];
    if (status == 0 && schema && strcmp(schema, "ulpbench.exhaustive") == 0) {
        ulpb_exhaustive_state *parts = calloc((size_t)count, sizeof *parts), *merged = calloc(1, sizeof *merged);
        for (int i = 0; i < count && status == 0; i++)
            if (ulpb_exhaustive_from_json(docs[i], &parts[i], err, sizeof err))
                status = fail("merge", "%s: %s", names[i], err);
        if (status == 0 && ulpb_exhaustive_merge(merged, parts, names, count, err, sizeof err))
            status = fail("merge", "%s", err);
        if (status == 0) merged_doc = ulpb_exhaustive_json(merged, g_command);
        free(parts);
        free(merged);
    } else if (status == 0 && schema && strcmp(schema, "ulpbench.accuracy") == 0) {
        merged_doc = ulpb_accuracy_merge(docs, names, count, g_command, err, sizeof err);
        if (!merged_doc) status = fail("merge", "%s", err);
    } else if (status == 0) {
        status = fail("merge", "%s: not a result of ulpbench accuracy --shard or --exhaustive", names[0]);
    }
    if (merged_doc) {
        cJSON_ReplaceItemInObjectCaseSensitive(merged_doc, "environment", combined_environment(envs, count));
        /* command is the merge's own; how each part was made, so that the merged result can be made again */
        cJSON *parts = cJSON_AddArrayToObject(merged_doc, "merged_from");
        for (int i = 0; i < count; i++) {
            cJSON *part = cJSON_CreateObject();
            cJSON_AddStringToObject(part, "file", names[i]);
            static const char *const made_by[] = {"command", "resumed_with"};
            for (size_t k = 0; k < sizeof made_by / sizeof *made_by; k++) {
                const char *text = cJSON_GetStringValue(cJSON_GetObjectItem(docs[i], made_by[k]));
                if (text) cJSON_AddStringToObject(part, made_by[k], text);
            }
            const cJSON *earlier = cJSON_GetObjectItem(docs[i], "merged_from"); /* a merged file merged again */
            if (cJSON_IsArray(earlier)) cJSON_AddItemToObject(part, "merged_from", cJSON_Duplicate(earlier, true));
            cJSON_AddItemToArray(parts, part);
        }
        if (out_path) {
            status = write_outputs("merge", out_path, NULL, merged_doc, NULL, false);
        } else {
            char *text = cJSON_Print(merged_doc);
            if (puts(text) == EOF || fflush(stdout) != 0) g_stdout_errno = errno;
            cJSON_free(text);
        }
        cJSON_Delete(merged_doc);
    }
    for (int i = 0; i < count; i++) cJSON_Delete(docs[i]);
    free(docs);
    free(envs);
    return status;
}

/* ---- targets ------------------------------------------------------------------------------- */

static int cmd_targets(int argc, char **argv) {
    enum { OPT_GATE = 256, OPT_QUIET_ONLY };
    static const struct option opts[] = {{"gate", no_argument, 0, OPT_GATE},
                                         {"quiet-only", no_argument, 0, OPT_QUIET_ONLY},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    bool gate = false;
    ulpb_targets_options options = {.show_unmeasured = true};
    int c;
    while ((c = next_option(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == OPT_GATE)
            gate = true;
        else if (c == OPT_QUIET_ONLY)
            options.quiet_only = true;
        else if (c == 'h') {
            printf("usage: ulpbench targets [--gate] [--quiet-only] BENCH.json...\n\n"
                   "Checks saved throughput results (the JSON of 'ulpbench bench --json', or a report.json of\n"
                   "'ulpbench report'; one file per run, all from one CPU, compiler, build and set of libraries)\n"
                   "against the throughput targets of accuracy/registry.def (ULPB_TARGET): for every target, op and\n"
                   "input set, omk's throughput relative to the named peers measured in the same rounds (those the\n"
                   "run's CPU cannot run left out), its lowest and highest value over the runs (rounded down to two\n"
                   "decimals), the peer that decides, and whether it reaches the target in every run. Prints\n"
                   "Markdown, with each run's date, CPU, CPU affinity, command and, with several runs, in how many\n"
                   "groups its memcpy row ran slow (a loaded machine shows there). Rows a run did not measure (other\n"
                   "sizes, --impl without a peer a target names that the run's CPU runs, no named peer it runs, fewer\n"
                   "than %d rounds) read 'not measured'.\n"
                   "--quiet-only leaves out of each row the runs whose memcpy row of the same group ran below %g of\n"
                   "the fastest run's (the machine was shared then). Exit status 0; with --gate, 1 when a measured\n"
                   "row misses its target in some run; 2 for a file that is missing or not such a result, runs from\n"
                   "different environments, one run given twice (same date, command and results), a file listing a\n"
                   "row twice, or no row measured at all.\n",
                   ULPB_TARGETS_MIN_ROUNDS, ULPB_TARGETS_QUIET_SHARE);
            return 0;
        } else
            return bad_option("targets", c, argc, argv);
    }
    const int count = argc - optind;
    if (count < 1) return fail("targets", "no result files (try --help)");
    if (count > ULPB_TARGETS_MAX_RUNS)
        return fail("targets", "at most %d result files, not %d", ULPB_TARGETS_MAX_RUNS, count);
    const char *const *names = (const char *const *)argv + optind;
    for (int i = 0; i < count; i++) /* the table would be appended to a run */
        if (check_not_input("targets", NULL, names[i])) return EXIT_USAGE;
    cJSON *docs[ULPB_TARGETS_MAX_RUNS] = {0};
    int status = 0;
    for (int i = 0; i < count && status == 0; i++) docs[i] = read_json_file("targets", names[i], &status);
    ulpb_targets_summary summary;
    char err[512];
    if (status == 0 &&
        ulpb_targets_report(stdout, (const cJSON *const *)docs, names, count, &options, &summary, err, sizeof err))
        status = fail("targets", "%s", err);
    if (status == 0 && gate && summary.met_everyone < summary.measured) status = EXIT_GATE;
    for (int i = 0; i < count; i++) cJSON_Delete(docs[i]);
    return status;
}

/* ---- gate --------------------------------------------------------------------------------- */

/* A usage error's message for gate, and -1 for gate_rows_of to return. */
__attribute__((format(printf, 1, 2))) static int refused(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    error_line("ulpbench gate: ", fmt, ap);
    va_end(ap);
    return -1;
}

/* The rows of an accuracy or report document count the whole run's inputs: every one of a 16-bit dtype (in the range),
 * "samples" of binary32 and binary64, or (inputs not NULL) every element of the file; a shard's or an edited file's do
 * not. 0, or -1 and a message. */
static int whole_run_counts(const cJSON *doc, const ulpb_input_range *range, const ulpb_inputs_file *inputs,
                            const ulpb_result *rows, int count, char *err, size_t len) {
    static const char *const drawn[] = {"samples", "seed", "range"}; /* what a run over a file's elements has not */
    for (size_t k = 0; k < sizeof drawn / sizeof drawn[0] && inputs; k++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, drawn[k]);
        if (item && !cJSON_IsNull(item)) {
            snprintf(err, len, "\"%s\" is not null in a run over a file's elements (\"inputs\"): an edited result",
                     drawn[k]);
            return -1;
        }
    }
    for (int k = 0; k < count && inputs; k++)
        if (!rows[k].listed || rows[k].total.inputs != inputs->elements) {
            snprintf(err, len,
                     "result %d (%s %s %s) %s %llu inputs, where the file's elements are %llu: an edited result", k,
                     rows[k].entry->impl, ulpb_ops[rows[k].entry->op].name, ulpb_dtypes[rows[k].entry->dtype].name,
                     rows[k].listed ? "counts" : "is not a run over them with",
                     (unsigned long long)rows[k].total.inputs, (unsigned long long)inputs->elements);
            return -1;
        }
    if (inputs) return 0;
    uint64_t samples = 0;
    const cJSON *samples_item = cJSON_GetObjectItemCaseSensitive(doc, "samples");
    if (samples_item && !cJSON_IsNull(samples_item) && ulpb_json_get_count(doc, "samples", &samples, err, len))
        return -1;
    for (int k = 0; k < count; k++) {
        const ulpb_dtype_id dtype = rows[k].entry->dtype;
        const bool every_input = ulpb_dtypes[dtype].bytes == 2;
        uint64_t expected = samples, first, last;
        if (rows[k].listed) {
            snprintf(err, len,
                     "result %d (%s %s %s) checked a file's elements (mode \"inputs\"), which the document does not "
                     "name (\"inputs\" null): an edited result",
                     k, rows[k].entry->impl, ulpb_ops[rows[k].entry->op].name, ulpb_dtypes[dtype].name);
            return -1;
        }
        if (every_input)
            expected = !range->given ? 1u << 16 : ulpb_range_keys(dtype, range, &first, &last) ? last - first + 1 : 0;
        if (rows[k].exhaustive != every_input || rows[k].total.inputs != expected) {
            snprintf(err, len,
                     "result %d (%s %s %s) %s %llu inputs, where a whole run's %s %llu: a shard's or an edited "
                     "result",
                     k, rows[k].entry->impl, ulpb_ops[rows[k].entry->op].name, ulpb_dtypes[dtype].name,
                     rows[k].exhaustive ? "is exhaustive over" : "is sampled with",
                     (unsigned long long)rows[k].total.inputs, every_input ? "is exhaustive over" : "is sampled with",
                     (unsigned long long)expected);
            return -1;
        }
    }
    return 0;
}

/* The rows of one saved result, with what the gate's lines say of them: the file's mode and range, and for an
 * exhaustive result whether it is complete. Returns the row count, or -1 after a usage error's message. */
static int gate_rows_of(const char *name, const cJSON *doc, const char *expected_sha256, ulpb_result *rows, char *label,
                        size_t label_len, bool *incomplete, bool *checked_file) {
    const char *schema = ulpb_json_get_string(doc, "schema");
    char err[512];
    double shard_index = 0, shard_count = 1;
    const cJSON *shard = cJSON_GetObjectItemCaseSensitive(doc, "shard");
    if (shard && (ulpb_json_get_number(shard, "index", &shard_index, err, sizeof err) ||
                  ulpb_json_get_number(shard, "count", &shard_count, err, sizeof err)))
        return refused("%s: shard: %s", name, err);
    if (!(shard_count >= 1 && shard_count <= 1e9 && shard_count == floor(shard_count) && shard_index >= 0 &&
          shard_index < shard_count && shard_index == floor(shard_index)))
        return refused("%s: malformed \"shard\" (index %g of count %g)", name, shard_index, shard_count);
    const bool exhaustive = schema && strcmp(schema, "ulpbench.exhaustive") == 0;
    if (!exhaustive &&
        !(schema && (strcmp(schema, "ulpbench.accuracy") == 0 || strcmp(schema, "ulpbench.report") == 0)))
        return refused("%s: not the JSON of ulpbench accuracy, report or merge (%s%s%s)", name,
                       schema ? "schema \"" : "no \"schema\"", schema ? schema : "", schema ? "\"" : "");
    const cJSON *schema_version = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
    if (!cJSON_IsNumber(schema_version) || schema_version->valuedouble != ULPB_SCHEMA_VERSION)
        return refused("%s: schema_version is not %d", name, ULPB_SCHEMA_VERSION);
    if (shard_count != 1) /* a shard's counts stand for part of the run */
        return refused("%s is shard %g/%g of a%s run: merge the shards first (ulpbench merge)", name, shard_index,
                       shard_count, exhaustive ? "n exhaustive" : " sampled");
    ulpb_input_range range = {0};
    ulpb_inputs_file inputs;
    bool inputs_given = false;
    int count;
    *incomplete = false;
    if (exhaustive) {
        ulpb_exhaustive_state *st = calloc(1, sizeof *st);
        if (!st) return refused("out of memory");
        if (ulpb_exhaustive_from_json(doc, st, err, sizeof err)) {
            free(st);
            return refused("%s: %s", name, err);
        }
        rows[0] = (ulpb_result){.entry = st->spec.entry, .exhaustive = true, .total = st->stats};
        range = st->spec.range;
        *incomplete = !ulpb_exhaustive_complete(st);
        count = 1;
        free(st);
    } else if (ulpb_range_from_json(doc, &range, err, sizeof err) ||
               ulpb_inputs_from_json(doc, &inputs, &inputs_given, err, sizeof err) ||
               (count = ulpb_results_from_json(doc, rows, (int)ulpb_entry_count, err, sizeof err)) < 0) {
        return refused("%s: %s", name, err);
    } else if (whole_run_counts(doc, &range, inputs_given ? &inputs : NULL, rows, count, err, sizeof err)) {
        return refused("%s: %s", name, err);
    }
    *checked_file = inputs_given;
    if (inputs_given && expected_sha256 && strcmp(inputs.sha256, expected_sha256) != 0)
        return refused("%s checked a file with SHA-256 %s, not the --inputs file's %s", name, inputs.sha256,
                       expected_sha256);
    if (inputs_given) {
        char quoted[ULPB_QUOTED_SIZE(PATH_MAX)];
        if (strlen(inputs.path) >= PATH_MAX) return refused("%s: \"inputs\": a path longer than PATH_MAX", name);
        *ulpb_append_quoted(quoted, inputs.path, ULPB_SHELL_PLAIN) = 0;
        snprintf(label, label_len, ", the elements of %s (sha256 %.12s...) only", quoted, inputs.sha256);
    } else if (range.given) {
        char lo[48], hi[48];
        plain_decimal(lo, sizeof lo, range.lo);
        plain_decimal(hi, sizeof hi, range.hi);
        snprintf(label, label_len, ", inputs in [%s, %s] only", lo, hi);
    } else {
        label[0] = 0;
    }
    return count;
}

/* cmd_gate with required_by, one slot per registry entry, for --require */
static int gate_with(int argc, char **argv, const char **required_by) {
    enum { OPT_MAX_ULP = 256, OPT_MAX_MIS, OPT_INPUTS, OPT_MIN_INPUTS, OPT_REQUIRE, OPT_THIS_BUILD };
    static const struct option opts[] = {{"max-ulp", required_argument, 0, OPT_MAX_ULP},
                                         {"max-misrounded", required_argument, 0, OPT_MAX_MIS},
                                         {"inputs", required_argument, 0, OPT_INPUTS},
                                         {"min-inputs", required_argument, 0, OPT_MIN_INPUTS},
                                         {"require", required_argument, 0, OPT_REQUIRE},
                                         {"this-build", no_argument, 0, OPT_THIS_BUILD},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *inputs_path = NULL;
    ulpb_gate_limits limits;
    ulpb_gate_defaults(&limits);
    bool max_ulp_given[ULPB_DTYPE_COUNT] = {0};
    uint64_t min_inputs[ULPB_DTYPE_COUNT] = {0}; /* 0: no minimum */
    bool this_build = false;
    int c, usage = 0;
    while (usage == 0 && (c = next_option(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == OPT_MAX_ULP || c == OPT_MAX_MIS) {
            usage = parse_gate_limit("gate", c == OPT_MAX_ULP, optarg, &limits, max_ulp_given);
        } else if (c == OPT_THIS_BUILD) {
            this_build = true;
        } else if (c == OPT_MIN_INPUTS) {
            usage = parse_min_inputs(optarg, min_inputs);
        } else if (c == OPT_REQUIRE) {
            usage = parse_gate_requirement(optarg, required_by);
        } else if (c == OPT_INPUTS) {
            inputs_path = optarg;
        } else if (c == 'h') {
            puts("usage: ulpbench gate [--max-ulp DTYPE=X]... [--max-misrounded DTYPE=N]... [--inputs FILE.npy]\n"
                 "                     [--min-inputs DTYPE=N]... [--require IMPL:OP:DTYPE]... [--this-build]\n"
                 "                     RESULT.json...\n\n"
                 "Holds saved accuracy results (the JSON of 'ulpbench accuracy', with or without --exhaustive,\n"
                 "of 'ulpbench merge', or a report.json) to the gate of 'ulpbench report': every production (omk)\n"
                 "row and every row of ULPB_LIBRARIES must have 0 special-value mismatches, 0 misrounded if the\n"
                 "registry marks it correctly rounded (unless --max-misrounded names its dtype), and misrounded and\n"
                 "max ULP within the per-dtype limits (registry.def's, or --max-misrounded and --max-ulp); an\n"
                 "exhaustive result must also be complete. Peer rows are listed, not gated. Prints one line per row\n"
                 "and a verdict. Exit status 0 when every gated row passes (or none is gated and none required),\n"
                 "1 when one fails or a row --require names is missing, 2 for a file that is missing or not such a\n"
                 "result, a shard (merge the shards first), a file given twice, a limit (--max-ulp,\n"
                 "--max-misrounded, --min-inputs) for a dtype the results hold no row of and --require names none\n"
                 "of, or rows of ULPB_LIBRARIES measured with other library files than those loaded now\n"
                 "(environment.libraries_identity).\n"
                 "--inputs FILE.npy: the results of 'accuracy --inputs' or 'report --inputs' must have checked this\n"
                 "very file (its SHA-256), and one of them at least; exit status 2 otherwise.\n"
                 "--min-inputs DTYPE=N: a gated row of DTYPE that measured fewer than N inputs fails (a run cut\n"
                 "short by a changed --samples passes the limits on little evidence).\n"
                 "--require IMPL:OP:DTYPE: the results must hold a row of each registry entry named (OP and DTYPE a\n"
                 "name or 'all'; IMPL omk or a library of ULPB_LIBRARIES); each one missing is listed and fails the\n"
                 "gate (a row dropped from the run would otherwise go unnoticed). For example --require omk:all:all.\n"
                 "--this-build: every result must have been measured in the environment this gate runs in, as\n"
                 "accuracy --resume requires: the same source commit, compiler, glibc, SLEEF, MPFR and ulpbench\n"
                 "versions, and omk build and 16-bit method in use (the CPU's, or OMK_ISA's and OMK_HALF16's now),\n"
                 "and for rows of ULPB_LIBRARIES the same libraries; a result of another build is refused, exit\n"
                 "status 2, and so is --this-build in an ulpbench that does not know its source commit.");
            return 0;
        } else
            return bad_option("gate", c, argc, argv);
    }
    if (usage) return usage;
    const int count = argc - optind;
    if (count < 1) return fail("gate", "no result files (try --help)");
    const char *const *names = (const char *const *)argv + optind;
    for (int i = 0; i < count; i++) /* the verdict would be appended to a result */
        if (check_not_input("gate", NULL, names[i])) return EXIT_USAGE;
    if (check_each_file_once("gate", names, count, "result")) return EXIT_USAGE; /* its rows would count twice */
    char expected_sha256[65];
    if (inputs_path) {
        npy_array array;
        char err[512];
        if (npy_read_elements(inputs_path, &array, expected_sha256, err, sizeof err))
            return fail("gate", "%s: %s", inputs_path, err);
        npy_free(&array);
    }
    bool any_file_checked = false;
    ulpb_result *rows = calloc(ulpb_entry_count, sizeof *rows);
    bool *present = calloc(ulpb_entry_count, sizeof *present); /* a row of the entry in some file, for --require */
    char *text = NULL;
    size_t text_len = 0;
    FILE *out = rows && present ? open_memstream(&text, &text_len) : NULL;
    if (!out) {
        free(rows);
        free(present);
        return fail("gate", "out of memory");
    }
    int status = 0, gated[2] = {0, 0}, failed[2] = {0, 0}, peers = 0; /* [0] production rows, [1] libraries' */
    cJSON *this_env = this_build ? ulpb_environment_json() : NULL;    /* what --this-build holds each result to */
    if (this_build) { /* "unknown" (built outside a git checkout) or "-dirty" without the changes' hash: such builds
                       * look alike */
        const char *source = cJSON_GetStringValue(cJSON_GetObjectItem(this_env, "source"));
        const size_t source_len = source ? strlen(source) : 0;
        if (!source || strcmp(source, "unknown") == 0 ||
            (source_len >= 6 && strcmp(source + source_len - 6, "-dirty") == 0))
            status = fail("gate",
                          "--this-build: this ulpbench does not know what it was built from (source '%s': built "
                          "outside a git checkout, or its changes could not be read), so a result of another build "
                          "would pass",
                          source ? source : "missing");
    }
    unsigned result_dtypes = 0;
    for (int i = 0; i < count && status == 0; i++) {
        cJSON *doc = read_json_file("gate", names[i], &status);
        char label[ULPB_QUOTED_SIZE(PATH_MAX) + 64];
        bool incomplete = false, checked_file = false;
        int row_count = doc ? gate_rows_of(names[i], doc, inputs_path ? expected_sha256 : NULL, rows, label,
                                           sizeof label, &incomplete, &checked_file)
                            : -1;
        any_file_checked |= checked_file;
        /* a library's rows stand for the file it ran, not for one of that name loaded here (rebuilt since, say) */
        const char *ran = cJSON_GetStringValue(
                       cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "environment"), "libraries_identity")),
                   *here = ulpb_libraries_identity();
        bool library_rows = false; /* a result without them stands whatever is loaded */
        for (int k = 0; k < row_count; k++) library_rows |= rows[k].entry->role == ULPB_ROLE_LIBRARY;
        if (library_rows && ulpb_libraries_differ(&ran, &here)) {
            fail("gate", "%s was run with other libraries than ULPB_LIBRARIES loads here ('%s', here '%s')", names[i],
                 ran, here);
            row_count = -1;
        }
        if (this_build && row_count >= 0) { /* a cached result of an earlier commit would otherwise pass for this one */
            const cJSON *env = cJSON_GetObjectItem(doc, "environment");
            const char *was, *now,
                *what = environment_difference(env, this_env, library_rows, &was, &now); /* as plain gate does */
            if (!cJSON_IsObject(env)) {
                fail("gate", "--this-build: %s records no \"environment\" to hold to this build", names[i]);
                row_count = -1;
            } else if (what) {
                fail("gate", "--this-build: %s was measured in another environment (%s: '%s', here '%s')", names[i],
                     what, was, now);
                row_count = -1;
            }
        }
        cJSON_Delete(doc);
        if (row_count < 0) {
            if (status == 0) status = EXIT_USAGE;
            break;
        }
        for (int k = 0; k < row_count; k++) {
            const ulpb_result *r = &rows[k];
            const bool gated_row = ulpb_role_gated(r->entry->role);
            result_dtypes |= 1u << r->entry->dtype;
            char why[400] = "", limits_why[300] = "", measured[32];
            bool within_limits = !ulpb_gate_check(r, &limits, limits_why, sizeof limits_why);
            const uint64_t min = min_inputs[r->entry->dtype];
            if (min && r->total.inputs < min && !incomplete) { /* an incomplete row fails as such */
                const size_t used = strlen(limits_why);
                snprintf(limits_why + used, sizeof limits_why - used, "%s%llu inputs < --min-inputs %s=%llu",
                         used ? ", " : "", (unsigned long long)r->total.inputs, ulpb_dtypes[r->entry->dtype].name,
                         (unsigned long long)min);
                within_limits = false;
            }
            present[r->entry - ulpb_entries] = true;
            const bool passed = gated_row && !incomplete && within_limits;
            ulpb_format_ulp(measured, sizeof measured, r->total.max_ulp);
            if (!gated_row)
                snprintf(why, sizeof why, "not gated%s", incomplete ? " (an incomplete exhaustive run)" : "");
            else if (incomplete) /* what the inputs checked so far already show, too */
                snprintf(why, sizeof why, "incomplete (continue it with --resume)%s%s",
                         within_limits ? "" : "; in the inputs checked: ", limits_why);
            else if (passed)
                snprintf(why, sizeof why, "%llu misrounded, max ULP %s", (unsigned long long)r->total.misrounded,
                         measured);
            else
                snprintf(why, sizeof why, "%s", limits_why);
            const int kind = r->entry->role == ULPB_ROLE_LIBRARY;
            gated[kind] += gated_row;
            failed[kind] += gated_row && !passed;
            peers += !gated_row;
            put_line(out, "- %s %s %s %s (%s: %s%s, %llu inputs): %s",
                     !gated_row ? "PEER"
                     : passed   ? "PASS"
                                : "FAIL",
                     r->entry->impl, ulpb_ops[r->entry->op].name, ulpb_dtypes[r->entry->dtype].name, names[i],
                     ulpb_result_mode(r), label, (unsigned long long)r->total.inputs, why);
        }
    }
    unsigned required_dtypes = 0; /* a limit for one of them gates the row --require misses: that row fails instead */
    for (size_t i = 0; i < ulpb_entry_count; i++)
        if (required_by[i]) required_dtypes |= 1u << ulpb_entries[i].dtype;
    for (int d = 0; d < ULPB_DTYPE_COUNT && status == 0; d++) /* a limit that gates nothing, as report refuses it */
        if ((max_ulp_given[d] || limits.misrounded_given[d] || min_inputs[d]) &&
            !((result_dtypes | required_dtypes) & (1u << d)))
            status = fail("gate", "%s %s=... limits a dtype the results hold no row of",
                          max_ulp_given[d]             ? "--max-ulp"
                          : limits.misrounded_given[d] ? "--max-misrounded"
                                                       : "--min-inputs",
                          ulpb_dtypes[d].name);
    int missing = 0;
    for (size_t i = 0; i < ulpb_entry_count && status == 0; i++)
        if (required_by[i] && !present[i]) {
            const ulpb_entry *e = &ulpb_entries[i];
            put_line(out, "- MISSING %s %s %s: no row in the results (--require %s)", e->impl, ulpb_ops[e->op].name,
                     ulpb_dtypes[e->dtype].name, required_by[i]);
            missing++;
        }
    if (status == 0 && inputs_path && !any_file_checked)
        status =
            fail("gate", "--inputs %s: none of the results checked a file's elements (accuracy or report --inputs)",
                 inputs_path);
    if (status == 0) {
        /* "2 of 3 production rows", "1 row of ULPB_LIBRARIES", or both kinds, each with its own count, as report says
         */
        char kinds[2][64], counts[160] = ""; /* stays empty when only required rows are missing */
        static const char *const kind_names[2] = {"production row", "row"};
        int used = 0;
        for (int kind = 0; kind < 2; kind++) {
            if (!gated[kind]) continue;
            char of[24] = "";
            if (failed[0] + failed[1] + missing) snprintf(of, sizeof of, "%d of ", failed[kind]);
            snprintf(kinds[kind], sizeof kinds[kind], "%s%d %s%s%s", of, gated[kind], kind_names[kind],
                     gated[kind] == 1 ? "" : "s", kind ? " of ULPB_LIBRARIES" : "");
            used += snprintf(counts + used, sizeof counts - (size_t)used, "%s%s", used ? " and " : "", kinds[kind]);
        }
        char missing_text[64] = "";
        if (missing)
            snprintf(missing_text, sizeof missing_text, "%s%d required row%s missing", used ? "; " : "", missing,
                     missing == 1 ? "" : "s");
        if (gated[0] + gated[1] == 0 && !missing)
            fprintf(out, "Gate: PASSED, but nothing was gated: the files hold no production (omk) row and no row of "
                         "ULPB_LIBRARIES.\n");
        else
            fprintf(out, "Gate: %s (%s%s%s%s).\n", failed[0] + failed[1] + missing ? "FAILED" : "PASSED", counts,
                    used && failed[0] + failed[1] + missing ? " failed" : "", missing_text,
                    peers ? "; peer rows are not gated" : "");
    }
    fclose(out);
    if (status == 0) fputs(text, stdout); /* a refused file leaves stdout empty: no verdict on part of the files */
    free(text);
    free(rows);
    free(present);
    cJSON_Delete(this_env);
    return status ? status : failed[0] + failed[1] + missing ? EXIT_GATE : 0;
}

static int cmd_gate(int argc, char **argv) {
    const char **required_by = calloc(ulpb_entry_count, sizeof *required_by);
    if (!required_by) return fail("gate", "out of memory");
    const int status = gate_with(argc, argv, required_by);
    free(required_by);
    return status;
}

/* ---- hard-cases ---------------------------------------------------------------------------- */

/* The largest binary32 input in the domain of op: asin's is [-1, 1], cos takes every finite number. */
static double binary32_domain_max(ulpb_op_id op) {
    switch (op) { /* no default: a new op must give its domain (-Wswitch) */
    case ULPB_OP_cos:
        return FLT_MAX;
    case ULPB_OP_asin:
        return 1.0;
    case ULPB_OP_COUNT:
        break;
    }
    abort();
}

static int cmd_hard_cases(int argc, char **argv) {
    static const struct option opts[] = {{"op", required_argument, 0, 'o'},      {"dtype", required_argument, 0, 'd'},
                                         {"starts", required_argument, 0, 'n'},  {"span", required_argument, 0, 'w'},
                                         {"keep", required_argument, 0, 'k'},    {"seed", required_argument, 0, 's'},
                                         {"threads", required_argument, 0, 't'}, {"range", required_argument, 0, 'a'},
                                         {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    unsigned op_mask = (1u << ULPB_OP_COUNT) - 1;
    unsigned long long starts = 2000, span = 4096, keep = 24, seed = DEFAULT_SEED, threads = 0;
    bool binary32 = false;
    const char *binary64_only = NULL; /* an option of the binary64 search, for --dtype f32's error */
    const char *range_text = NULL;
    double range_lo = 0.0, range_hi = 0.0;
    int c, option_index = 0;
    while ((c = next_option(argc, argv, ":h", opts, &option_index)) != -1) {
        unsigned long long *target = c == 'n' ? &starts : c == 'w' ? &span : c == 'k' ? &keep : NULL;
        if (c == 'n' || c == 'w' || c == 's') binary64_only = opts[option_index].name;
        if (c == 'o') {
            if (parse_mask(optarg, ulpb_op_find, ULPB_OP_COUNT, &op_mask))
                return fail("hard-cases", "unknown op '%s' (expected %s|all)", optarg, op_choices());
        } else if (c == 'd') {
            if (strcmp(optarg, "f32") != 0 && strcmp(optarg, "f64") != 0)
                return fail("hard-cases", "--dtype needs f32 or f64, got '%s'", optarg);
            binary32 = strcmp(optarg, "f32") == 0;
        } else if (c == 's') {
            if (parse_json_integer(optarg, &seed))
                return fail("hard-cases", "--seed needs an integer in 0..2^53, got '%s'", optarg);
        } else if (c == 'a') {
            uint32_t first, last;
            if (parse_range(optarg, &range_lo, &range_hi)) return refuse_range("hard-cases", optarg);
            if (ulpb_binary32_range_keys(range_lo, range_hi, &first, &last))
                return fail("hard-cases", "--range %s holds no binary32 number", optarg);
            if (strlen(optarg) > RANGE_TEXT_MAX) /* it goes into the table's header */
                return fail("hard-cases", "--range '%.40s...' is longer than %d characters", optarg, RANGE_TEXT_MAX);
            range_text = optarg;
        } else if (c == 't') {
            if (parse_u64(optarg, &threads) || threads == 0 || threads > ULPB_THREADS_MAX)
                return fail("hard-cases", "--threads needs an integer in 1..%d, got '%s'", ULPB_THREADS_MAX, optarg);
        } else if (target) {
            if (parse_u64(optarg, target) || *target == 0 || *target > 1000000)
                return fail("hard-cases", "--%s needs an integer in 1..1000000, got '%s'", opts[option_index].name,
                            optarg);
        } else if (c == 'h') {
            printf(
                "usage: ulpbench hard-cases [--op %s|all] [--dtype f64] [--starts N] [--span M] [--keep K]\n"
                "                           [--seed S] [--threads T]\n"
                "       ulpbench hard-cases --dtype f32 [--op %s|all] [--range LO,HI] [--keep K] [--threads "
                "T]\n\n"
                "Searches inputs whose value lies closest to a rounding midpoint, ranked with the long double\n"
                "reference; prints the K closest per op, then the structural cases (reduction worst case, omk's\n"
                "switch points), each measured exactly with MPFR. binary64 (the default): M consecutive doubles from\n"
                "each of N starting points drawn from the accuracy samplers (seed S); output: the data table format\n"
                "of tests/data/hard_cases_f64.txt (defaults: N=2000, M=4096, K=24, S=%llu). binary32: every input\n"
                "x with LO <= x <= HI (default: every non-negative one of the op's domain, -x being as hard as x;\n"
                "about 3.5 minutes on 2 cores), with omk's switch points in that range; output of the default:\n"
                "tests/data/hard_cases_f32.txt. T threads (default: one per core); the output does not depend on T.\n",
                op_choices(), op_choices(), DEFAULT_SEED);
            return 0;
        } else
            return bad_option("hard-cases", c, argc, argv);
    }
    if (optind < argc) return fail("hard-cases", "unexpected argument '%s'", argv[optind]);
    if (binary32 && binary64_only)
        return fail("hard-cases", "--%s belongs to the binary64 search: the binary32 search takes every input",
                    binary64_only);
    if (!binary32 && range_text)
        return fail("hard-cases", "--range belongs to the binary32 search (--dtype f32): the binary64 search starts "
                                  "from the accuracy samplers");
    /* the binary32 search ranks inputs of the op's domain only: a range outside it would list nothing, silently */
    unsigned ops_in_range = 0;
    for (int op = 0; op < ULPB_OP_COUNT; op++)
        if ((op_mask & (1u << op)) &&
            (!range_text || (range_lo <= binary32_domain_max(op) && range_hi >= -binary32_domain_max(op))))
            ops_in_range |= 1u << op;
    if (!ops_in_range) return fail("hard-cases", "--range %s holds no input of asin's domain [-1, 1]", range_text);
    char op_names[64] = "";
    for (int op = 0, listed = 0; op < ULPB_OP_COUNT; op++)
        if (op_mask & (1u << op))
            snprintf(op_names + strlen(op_names), sizeof op_names - strlen(op_names), "%s%s", listed++ ? " and " : "",
                     ulpb_ops[op].name);
    printf("# Hard-to-round %s inputs for %s, made by:\n#   %s\n", binary32 ? "binary32" : "binary64", op_names,
           g_command);
    if (binary32 && range_text)
        printf("# (every binary32 input in [%s], %llu kept per op)\n", range_text, keep);
    else if (binary32)
        printf("# (every non-negative input of the domain, %llu kept per op; -x is as hard as x)\n", keep);
    else
        printf("# (seed %llu, %llu starting points of %llu inputs, %llu kept per op)\n", seed, starts, span, keep);
    printf("# columns: op, input (hex bits), correctly rounded result (hex bits), |f(x) - nearest midpoint| in ulps\n"
           "# (MPFR, 256 bits), source (search: closest found; structural: reduction and switch points)\n");
    ulpb_hard_case *rows = malloc((keep + ULPB_HARD_CASES_STRUCTURAL_MAX) * sizeof *rows);
    if (!rows) return fail("hard-cases", "out of memory for %llu rows per op", keep);
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        if (!(op_mask & (1u << op))) continue;
        if (!(ops_in_range & (1u << op))) {
            printf("# %s: no input of its domain [-1, 1] in the range\n", ulpb_ops[op].name);
            continue;
        }
        /* the range's part in the domain: the search would otherwise visit every input above 1 for asin (seconds
         * per binade) to rank none of them */
        const double domain_max = binary32_domain_max(op), lo = range_text ? fmax(range_lo, -domain_max) : 0.0,
                     hi = range_text ? fmin(range_hi, domain_max) : domain_max;
        const int n = binary32 ? ulpb_hard_case_search_f32((ulpb_op_id)op, lo, hi, (int)keep, (int)threads, rows)
                               : ulpb_hard_case_search((ulpb_op_id)op, seed, (int)starts, (int)span, (int)keep,
                                                       (int)threads, rows);
        if (n < 0) {
            free(rows);
            return fail("hard-cases", "out of memory for %llu rows per op", keep);
        }
        for (int i = 0; i < n; i++) {
            if (binary32) {
                const float expected = (float)rows[i].expected;
                uint32_t expected_bits;
                memcpy(&expected_bits, &expected, sizeof expected_bits);
                printf("%s 0x%08x 0x%08x %.3e %s\n", ulpb_ops[op].name, (unsigned)rows[i].bits, expected_bits,
                       rows[i].distance, rows[i].source);
            } else {
                uint64_t expected;
                memcpy(&expected, &rows[i].expected, sizeof expected);
                printf("%s 0x%016llx 0x%016llx %.3e %s\n", ulpb_ops[op].name, (unsigned long long)rows[i].bits,
                       (unsigned long long)expected, rows[i].distance, rows[i].source);
            }
        }
    }
    free(rows);
    return 0;
}

/* ---- accuracy ------------------------------------------------------------------------------ */

/* The index of the first element of a that holds the bit pattern bits (little-endian, as the file stores it), or -1. */
static int64_t first_element_of(const npy_array *a, uint64_t bits) {
    for (size_t i = 0; i < a->count; i++)
        if (memcmp((const char *)a->data + i * a->elem_size, &bits, a->elem_size) == 0) return (int64_t)i;
    return -1;
}

/* A run over a file's elements: where each row's worst input and first special mismatch first occur. */
static void locate_elements(ulpb_result *results, int count, const npy_array *a) {
    for (int r = 0; r < count; r++) {
        results[r].worst_element = results[r].total.has_worst ? first_element_of(a, results[r].total.worst_bits) : -1;
        results[r].special_element =
            results[r].total.has_special_example ? first_element_of(a, results[r].total.special_bits) : -1;
    }
}

/* accuracy without --exhaustive or --inputs: 0, or a usage error's status after its message. */
static int check_sampled_options(const accuracy_options *o) {
    if (o->max_chunks) return fail("accuracy", "--max-chunks goes with --exhaustive");
    if (o->checkpoint_given) return fail("accuracy", "--checkpoint goes with --exhaustive");
    if (o->shard_given && (o->dtype_mask & ~((1u << ULPB_DTYPE_f32) | (1u << ULPB_DTYPE_f64))))
        return fail("accuracy", "--shard splits sampled f32/f64 runs (f16 and bf16 are checked whole in a second)");
    if (!o->op_mask) return fail("accuracy", "missing --op (%s|all)", op_choices());
    if (!o->dtype_mask) return fail("accuracy", "missing --dtype (%s|all) or --inputs FILE.npy", dtype_choices());
    if (o->reference_given && !o->mpfr_reference &&
        !(o->dtype_mask & ((1u << ULPB_DTYPE_f32) | (1u << ULPB_DTYPE_f64))))
        return fail("accuracy", "--reference fast is for f32 and f64 (f16 and bf16 are always checked against MPFR)");
    if (check_sampling_options("accuracy", o, false)) return EXIT_USAGE;
    if (check_range_holds("accuracy", o)) return EXIT_USAGE;
    const char *const outputs[] = {o->json_path, o->markdown_path};
    return check_outputs("accuracy", outputs, 2);
}

static int cmd_accuracy(int argc, char **argv) {
    accuracy_options o = {.samples = DEFAULT_SAMPLES, .seed = DEFAULT_SEED};
    const int rc = accuracy_getopt("accuracy", argc, argv, &o, false);
    if (rc < 0) {
        printf(
            "usage: ulpbench accuracy --op {%s|all} --dtype {%s|all} [--impl NAME[,NAME...]|all]\n"
            "                        [--samples N] [--seed S] [--threads N] [--json FILE] [--markdown FILE] [--quiet]\n"
            "                        [--reference mpfr|fast] [--shard K/N] [--range LO,HI]\n\n"
            "Checks each implementation (or those --impl names, in its order) against the correctly rounded MPFR\n"
            "reference. f16/bf16: all 65,536\n"
            "inputs. f32/f64: N inputs (default %llu) split over named samplers: the fixed lists specials and\n"
            "hard_cases (the op's hard-to-round inputs of tests/data's tables, both signs), then in equal shares\n"
            "uniform_bits, uniform_domain, and cos_large + cos_near_pio2 or asin_near_one + asin_near_zero, seed\n"
            "S (default %llu). Prints a Markdown table; --json/--markdown also write it to files. Baselines\n"
            "(memcpy) and entries needing an ISA this CPU lacks (see ulpbench list) are skipped, with a notice\n"
            "when --impl names them; nothing left to run is an error. --threads N: the threads that compute the\n"
            "reference values, and in an exhaustive run also call the kernels (default: one per core, at most\n"
            "1024); the results do not depend on N.\n"
            "--reference fast (f32/f64): long double (f64) or binary64 (f32) glibc values with a rounding test\n"
            "instead of MPFR, which still decides the undecided inputs and measures each worst input again (the\n"
            "mean and histogram of f64 rest on the long double: about 2^-10 ULP). --shard K/N (f32/f64): slice\n"
            "K of N of every sampler's indices; ulpbench merge combines the shards. --range LO,HI: only the inputs\n"
            "in [LO, HI]: every one for f16/bf16; for f32/f64 N inputs over other samplers: the range's ends and\n"
            "the edge values above that lie in it (range_specials), the hard cases in it (hard_cases), then in\n"
            "equal shares draws uniform in value (range_values), uniform over the format's values in it\n"
            "(range_patterns), at log-uniform distances from its ends (range_ends) and, for cos, near the\n"
            "zeros of cos whose nearest value it holds (range_near_pio2).\n\n"
            "       ulpbench accuracy --op {%s} --dtype f32 --exhaustive [--impl NAME] [--shard K/N]\n"
            "                        [--range LO,HI] [--reference fast|mpfr] [--threads N] [--json FILE]\n"
            "                        [--markdown FILE] [--quiet] [--resume FILE] [--max-chunks N]\n"
            "                        [--checkpoint SECONDS]\n\n"
            "Checks every binary32 input (or shard K of N, 0 <= K < N, of 4096 chunks of 2^20 patterns; with\n"
            "--range, only the inputs in [LO, HI], and --shard splits the chunks holding them, N at most their\n"
            "number) against the fast reference (glibc binary64 with a rounding test, MPFR when undecided) or MPFR\n"
            "alone.\n"
            "SIGINT/SIGTERM/SIGHUP (or --max-chunks) stop after the chunks in progress and write a partial result\n"
            "(exit status 3) that --resume FILE continues; ulpbench merge combines shards. With --json, the partial\n"
            "result is also written every %g s (--checkpoint SECONDS; 0: never), so that a run killed outright\n"
            "resumes from there.\n\n"
            "       ulpbench accuracy --op {%s|all} --inputs FILE.npy [--dtype DTYPE] [--impl NAME[,NAME...]|all]\n"
            "                        [--threads N] [--json FILE] [--markdown FILE] [--quiet] [--reference "
            "mpfr|fast]\n\n"
            "Checks the elements of a NumPy .npy file, the inputs a model feeds the op: <f2, <f4 or <f8, or\n"
            "bfloat16 bit patterns as <u2 or <i2 with --dtype bf16 (the file's dtype decides, as for eval), in\n"
            "C order (numpy's x.flat; a Fortran-ordered file too) and each counted as often as it occurs. The\n"
            "results name the file by its path, its element count and its SHA-256 (as sha256sum prints it), and\n"
            "where each worst input first occurs; gate holds them like any other. omk and ULPB_LIBRARIES' kernels\n"
            "are also called once over the whole tensor, as a model's runtime calls them: a kernel whose results\n"
            "there differ from those of the runner's shorter calls stops the run (exit status 2).\n",
            op_choices(), dtype_choices(), DEFAULT_SAMPLES, DEFAULT_SEED, op_choices(), DEFAULT_CHECKPOINT_SECONDS,
            op_choices());
        return 0;
    }
    if (rc) return rc;
    if ((o.exhaustive || o.resume_path) && o.inputs_path)
        return fail("accuracy", "--inputs checks the elements of a file: %s does not apply",
                    o.exhaustive ? "--exhaustive" : "--resume");
    if (o.exhaustive || o.resume_path) {
        if (o.samples_given || o.seed_given)
            return fail("accuracy", "%s checks every binary32 input: --samples and --seed do not apply",
                        o.exhaustive ? "--exhaustive" : "--resume (of an --exhaustive run)");
        if (o.dtype_mask && o.dtype_mask != (1u << ULPB_DTYPE_f32))
            return fail("accuracy", "%s is for f32 (f16 and bf16 are always exhaustive; f64 is sampled)",
                        o.exhaustive ? "--exhaustive" : "--resume (of an --exhaustive run)");
        return run_exhaustive(&o);
    }
    const char *const outputs[] = {o.json_path, o.markdown_path};
    if (o.inputs_path ? load_inputs("accuracy", &o, outputs) : check_sampled_options(&o)) return EXIT_USAGE;
    ulpb_result *results = calloc(ulpb_entry_count, sizeof *results);
    int count;
    int status = run_accuracy("accuracy", &o, results, &count);
    if (status == 0 && o.inputs_path) locate_elements(results, count, &o.inputs_array);
    if (status == 0) {
        const ulpb_run_info run = {g_command,
                                   o.seed,
                                   selects_sampled_rows(&o) && !o.inputs_path ? o.samples : 0,
                                   o.reference_given && !o.mpfr_reference ? "fast" : "mpfr",
                                   o.shard_given ? o.shard_index : 0,
                                   o.shard_given ? o.shard_count : 1,
                                   !selects_sampled_rows(&o) || o.inputs_path,
                                   o.range,
                                   o.inputs_path ? &o.inputs_file : NULL};
        char *md = markdown_of("ulpbench accuracy", &run, results, count, NULL);
        cJSON *doc = ulpb_document_json("ulpbench.accuracy", &run, results, count);
        status = write_outputs("accuracy", o.json_path, o.markdown_path, doc, md, false);
        cJSON_Delete(doc);
        free(md);
    }
    free(results);
    npy_free(&o.inputs_array);
    return status;
}

/* ---- bench --------------------------------------------------------------------------------- */

/* Runs the benchmark and renders it as Markdown (title, command, environment, tables; caller
 * frees) and as Google Benchmark JSON. */
static int run_bench(const char *sub, const char *title, const ulpb_bench_spec *spec, char **markdown, cJSON **json) {
    ulpb_bench_result *results;
    char err[256];
    const int count = ulpb_bench_run(spec, &results, err, sizeof err);
    if (count < 0) return fail(sub, "%s", err);
    size_t len = 0;
    FILE *f = open_memstream(markdown, &len);
    fprintf(f, "## %s\n\n", title);
    command_line(f, g_command);
    fprintf(f, "Seed: %llu.  \n", (unsigned long long)spec->seed);
    environment_line(f);
    ulpb_bench_markdown(f, spec, results, count);
    fclose(f);
    const ulpb_bench_info info = {g_command, g_executable};
    *json = ulpb_bench_json(spec, &info, results, count);
    free(results);
    return 0;
}

/* "4096,16777216" */
static int parse_sizes(const char *text, ulpb_bench_spec *spec) {
    spec->size_count = 0;
    for (const char *p = text;; p++) {
        char *end;
        errno = 0;
        const unsigned long long v = strtoull(p, &end, 10); /* digits only: strtoull takes blanks and signs too */
        if (errno || !isdigit((unsigned char)*p) || v < 1 || v > ULPB_BENCH_MAX_SIZE || (*end && *end != ',') ||
            spec->size_count == ULPB_BENCH_MAX_SIZES)
            return -1;
        spec->sizes[spec->size_count++] = (size_t)v;
        if (!*end) return 0;
        p = end;
    }
}

/* A --range that parse_range refused: why, with a usage error's status. strtod reads 1e-400 as 0 and 1e400 as inf,
 * which the generic message would call not finite. */
static int refuse_range(const char *sub, const char *arg) {
    const char *comma = strchr(arg, ',');
    for (int k = 0; k < 2 && comma && !strchr(comma + 1, ','); k++) {
        const char *bound = k ? comma + 1 : arg;
        char *end;
        errno = 0;
        const double v = strtod(bound, &end);
        const bool is_number = end != bound && !isspace((unsigned char)*bound) && *end == (k ? '\0' : ',');
        if (!is_number || (!isfinite(v) && !strtod_out_of_range(v))) break; /* "abc,1e400", "inf,1e400" */
        if (strtod_out_of_range(v))
            return fail(sub, "--range %s: %.*s %s", arg, (int)(end - bound), bound,
                        v == 0 ? "underflows binary64 (its smallest magnitude is 2^-1074, about 4.9e-324: 0 stands "
                                 "for anything tinier)"
                               : "overflows binary64 (its largest magnitude is about 1.8e308)");
    }
    return fail(sub, "--range needs LO,HI: two finite binary64 numbers with LO < HI, got '%s'", arg);
}

/* "LO,HI": two finite numbers, LO < HI. */
static int parse_range(const char *text, double *lo, double *hi) {
    char *end;
    errno = 0;
    *lo = strtod(text, &end);
    if (end == text || isspace((unsigned char)*text) || *end != ',' || strtod_out_of_range(*lo)) return -1;
    const char *second = end + 1;
    errno = 0;
    *hi = strtod(second, &end);
    if (end == second || isspace((unsigned char)*second) || *end || strtod_out_of_range(*hi)) return -1;
    return isfinite(*lo) && isfinite(*hi) && *lo < *hi ? 0 : -1;
}

/* The largest finite value of a dtype, from its precision and exponent width. */
static double dtype_max_finite(const ulpb_dtype *dt) {
    return ldexp(2.0 - ldexp(1.0, 1 - dt->format.precision), (1 << (dt->format.exp_bits - 1)) - 1);
}

/* Whether [LO, HI] holds fewer than two values of the dtype (zeros of either sign count as one): every input would
 * then be the same value, or one outside the range the report names. */
static bool range_collapses(double lo, double hi, ulpb_dtype_id dtype) {
    uint64_t lo_bits, hi_bits;
    return !ulpb_bench_range_ends(lo, hi, dtype, &lo_bits, &hi_bits);
}

/* --range LO,HI as the input sets of the selected ops (in static storage), once it suits every selected dtype: inside
 * its finite range, with two of its values at least; 0, or -1 after a usage error's message. */
static int bench_range_sets(const char *sub, ulpb_bench_spec *spec, double range_lo, double range_hi,
                            const char *range_text) {
    static ulpb_input_set range_sets[ULPB_OP_COUNT];
    static char range_label[RANGE_TEXT_MAX + 8];
    for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
        const double max = dtype_max_finite(&ulpb_dtypes[d]);
        if ((spec->dtype_mask & (1u << d)) && fmax(fabs(range_lo), fabs(range_hi)) > max) {
            fail(sub, "--range %g,%g leaves %s's finite range (largest %g); choose --dtype%s", range_lo, range_hi,
                 ulpb_dtypes[d].name, max, strcmp(sub, "report") == 0 ? " or --no-bench" : "");
            return -1;
        }
        if ((spec->dtype_mask & (1u << d)) && range_collapses(range_lo, range_hi, (ulpb_dtype_id)d)) {
            fail(sub, "--range %s holds fewer than two %s values: its inputs would be one value, or lie outside it",
                 range_text, ulpb_dtypes[d].name);
            return -1;
        }
    }
    /* the bounds as given: %g would print --range 1,1.0000001 as [1, 1] */
    const char *comma = strchr(range_text, ',');
    snprintf(range_label, sizeof range_label, "[%.*s, %s]", (int)(comma - range_text), range_text, comma + 1);
    /* allowed, for timing asin's NaN path (bench/TUNING.md does), but said: its rows are no asin throughput */
    static char outside_label[RANGE_TEXT_MAX + 48];
    const bool outside_asin = range_lo >= 1 || range_hi <= -1; /* [1, 2] holds one input of it, 1 */
    snprintf(outside_label, sizeof outside_label, "%s (outside asin's domain)", range_label);
    spec->input_set_count = 0;
    for (int op = 0; op < ULPB_OP_COUNT; op++)
        if (spec->op_mask & (1u << op)) {
            const bool outside = op == ULPB_OP_asin && outside_asin;
            if (outside)
                notice(sub,
                       "note: --range %s holds no input inside asin's domain (-1, 1); asin's rows time its NaN "
                       "results",
                       range_text);
            range_sets[spec->input_set_count++] = (ulpb_input_set){
                "range", (ulpb_op_id)op, range_lo, range_hi, outside ? outside_label : range_label, NULL, 0};
        }
    spec->input_sets = range_sets;
    return 0;
}

/* bench and report --inputs: the elements of the file read into *array as the input sets of the selected ops, timed
 * in the file's dtype alone (in static storage; *array and *file must outlive the run). */
static void file_input_sets(const char *sub, ulpb_bench_spec *spec, int dtype, const npy_array *array,
                            const ulpb_inputs_file *file) {
    const char *path = file->path;
    /* the smallest and largest values, for the JSON's input_low and input_high (NaNs aside; none: NaN, null there) */
    const ulpb_dtype *dt = &ulpb_dtypes[dtype];
    double lo = NAN, hi = NAN;
    bool in_asin_domain = false;
    for (size_t i = 0; i < array->count; i++) {
        uint64_t bits = 0;
        memcpy(&bits, (const char *)array->data + i * dt->bytes, dt->bytes);
        const double v = ref_decode(&dt->format, bits);
        lo = fmin(lo, v), hi = fmax(hi, v);
        in_asin_domain |= fabs(v) < 1;
    }
    if ((spec->op_mask & (1u << ULPB_OP_asin)) && !in_asin_domain)
        notice(sub, "note: %s holds no input inside asin's domain (-1, 1); asin's rows time its NaN results", path);
    /* a column label: the name's last bytes that fit, from a character's start, with what would break a Markdown
     * table or a line (|, `, control characters) as ? */
    static ulpb_input_set file_sets[ULPB_OP_COUNT];
    static char label[72];
    const char *slash = strrchr(path, '/'), *name = slash && slash[1] ? slash + 1 : path;
    const size_t shown = 60;
    const char *start = strlen(name) > shown ? name + strlen(name) - shown : name;
    while (start > name && ((unsigned char)*start & 0xc0) == 0x80) start++; /* a UTF-8 continuation byte */
    snprintf(label, sizeof label, "%s%s", start > name ? "..." : "", start);
    make_visible(label, "|`");
    spec->dtype_mask = 1u << dtype;
    spec->input_set_count = 0;
    for (int op = 0; op < ULPB_OP_COUNT; op++)
        if (spec->op_mask & (1u << op))
            file_sets[spec->input_set_count++] =
                (ulpb_input_set){"inputs", (ulpb_op_id)op, lo, hi, label, array->data, array->count};
    spec->input_sets = file_sets;
    spec->inputs_file = file;
}

static int cmd_bench(int argc, char **argv) {
    static const struct option opts[] = {{"op", required_argument, 0, 'o'},     {"dtype", required_argument, 0, 'd'},
                                         {"impl", required_argument, 0, 'i'},   {"sizes", required_argument, 0, 'z'},
                                         {"rounds", required_argument, 0, 'r'}, {"seed", required_argument, 0, 's'},
                                         {"json", required_argument, 0, 'j'},   {"markdown", required_argument, 0, 'm'},
                                         {"quick", no_argument, 0, 'k'},        {"quiet", no_argument, 0, 'q'},
                                         {"range", required_argument, 0, 'a'},  {"inputs", required_argument, 0, 'f'},
                                         {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    const char *inputs_path = NULL;
    bool dtype_given = false;
    ulpb_bench_spec spec = {.op_mask = (1u << ULPB_OP_COUNT) - 1,
                            .dtype_mask = (1u << ULPB_DTYPE_COUNT) - 1,
                            .seed = DEFAULT_SEED,
                            .progress = true};
    const char *json_path = NULL, *md_path = NULL, *unknown = "";
    bool quick = false, sizes_given = false, range_given = false;
    double range_lo = 0, range_hi = 0;
    const char *range_text = "";
    int rounds = 0;
    unsigned long long u;
    char ops[64], dtypes[64];
    names_of(ops, sizeof ops, ULPB_OP_COUNT, op_name);
    names_of(dtypes, sizeof dtypes, ULPB_DTYPE_COUNT, dtype_name);
    int c;
    while ((c = next_option(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (parse_mask(optarg, ulpb_op_find, ULPB_OP_COUNT, &spec.op_mask))
                return fail("bench", "unknown op '%s' (expected %s|all)", optarg, ops);
            break;
        case 'd':
            if (parse_mask(optarg, ulpb_dtype_find, ULPB_DTYPE_COUNT, &spec.dtype_mask))
                return fail("bench", "unknown dtype '%s' (expected %s|all)", optarg, dtypes);
            dtype_given = true;
            break;
        case 'f':
            if (!*optarg) return fail("bench", "--inputs needs a .npy file, got ''");
            inputs_path = optarg;
            break;
        case 'i':
            switch (parse_impls(optarg, spec.impls, &spec.impl_count, &unknown)) {
            case 0:
                break;
            case -2:
                return fail("bench", "--impl needs comma-separated names without empty ones, got '%s'", optarg);
            case -3:
                return fail("bench", "--impl lists '%s' twice: give each name once", unknown);
            default:
                return unknown_in_impl_list("bench", unknown);
            }
            break;
        case 'z':
            if (parse_sizes(optarg, &spec))
                return fail("bench", "--sizes needs up to %d comma-separated integers in 1..%zu, got '%s'",
                            ULPB_BENCH_MAX_SIZES, ULPB_BENCH_MAX_SIZE, optarg);
            /* a size given twice would give two benchmarks one name */
            for (int i = 0; i < spec.size_count; i++)
                for (int j = 0; j < i; j++)
                    if (spec.sizes[i] == spec.sizes[j])
                        return fail("bench", "--sizes lists %zu twice, got '%s'", spec.sizes[i], optarg);
            sizes_given = true;
            break;
        case 'r':
            if (parse_u64(optarg, &u) || u < 1 || u > 10000)
                return fail("bench", "--rounds needs an integer in 1..10000, got '%s'", optarg);
            rounds = (int)u;
            break;
        case 's':
            if (parse_json_integer(optarg, &u))
                return fail("bench", "--seed needs an integer in 0..2^53, got '%s'", optarg);
            spec.seed = u;
            break;
        case 'a':
            if (parse_range(optarg, &range_lo, &range_hi)) return refuse_range("bench", optarg);
            if (strlen(optarg) > RANGE_TEXT_MAX) /* it labels the columns as given */
                return fail("bench", "--range '%.40s...' is longer than %d characters", optarg, RANGE_TEXT_MAX);
            range_given = true;
            range_text = optarg;
            break;
        case 'j':
            json_path = optarg;
            break;
        case 'm':
            md_path = optarg;
            break;
        case 'k':
            quick = true;
            break;
        case 'q':
            spec.progress = false;
            break;
        case 'h':
            printf("usage: ulpbench bench [--op OP|all] [--dtype DT|all] [--impl NAME[,NAME...]|all]\n"
                   "                     [--sizes N[,N...]] [--rounds N] [--seed S] [--quick] [--quiet]\n"
                   "                     [--range LO,HI | --inputs FILE.npy] [--json FILE] [--markdown FILE]\n\n"
                   "Throughput of every registry entry this CPU runs (baselines included) per (op, dtype), array\n"
                   "size (elements per call; default 4096,16777216) and input set (cos: [-pi, pi], [-1e4, 1e4];\n"
                   "asin: [-1, 1]; fixed seed S, default %llu). --range LO,HI times inputs uniform in [LO, HI]\n"
                   "instead, for every selected op (within the range of every selected dtype). --inputs FILE.npy\n"
                   "times inputs drawn at random from the elements of a model's tensor (read as accuracy --inputs\n"
                   "reads it; its dtype only), so that they follow its distribution.\n\n"
                   "Each (op, dtype, size, input set) group runs interleaved: after one warm-up pass each, every\n"
                   "round times one pass of every implementation, in a balanced order (a Williams design drawn\n"
                   "from S: over each cycle of M rounds for M implementations, 2M if M is odd, each one runs in\n"
                   "every position and right after every other one equally often; rounds short of a whole cycle\n"
                   "run a random subset of its rows, as 16 Mi's default 11 do). A pass is one call per input\n"
                   "block; sizes below %zu elements cycle through distinct blocks, that many elements or %zu KiB\n"
                   "of input in all, so the branch predictor cannot learn them and a pass is long beside the\n"
                   "clock's cost (32 blocks of 4 Ki binary32). Rounds: N (default %d)\n"
                   "below %zu elements, N/4 made odd (at least 5, or N if fewer) from there on. --quick: size %d\n"
                   "and %d rounds unless given.\n\n"
                   "Reported per implementation: the median over rounds of ns per element (elements as counted by\n"
                   "the timing loop) and elements/ns, the spread (P90 - P10) / median, and its throughput relative\n"
                   "to every other implementation measured in the same rounds (the Markdown shows the ratio to\n"
                   "omk). Prints Markdown (rows implementations, columns size x input set); --json writes Google\n"
                   "Benchmark JSON (real_time: ns per call of `size` elements; items_per_second: elements/s) that\n"
                   "compare.py reads. Progress goes to stderr unless --quiet.\n",
                   DEFAULT_SEED, ULPB_BENCH_ROUND_ELEMENTS, ULPB_BENCH_ROUND_BYTES >> 10, DEFAULT_BENCH_ROUNDS,
                   ULPB_BENCH_LARGE_SIZE, QUICK_BENCH_SIZE, QUICK_BENCH_ROUNDS);
            return 0;
        default:
            return bad_option("bench", c, argc, argv);
        }
    }
    if (optind < argc) return fail("bench", "unexpected argument '%s'", argv[optind]);
    if (!sizes_given) {
        if (quick)
            spec.sizes[spec.size_count++] = QUICK_BENCH_SIZE;
        else
            for (int i = 0; i < ulpb_bench_default_size_count; i++)
                spec.sizes[spec.size_count++] = ulpb_bench_default_sizes[i];
    }
    spec.rounds = rounds ? rounds : quick ? QUICK_BENCH_ROUNDS : DEFAULT_BENCH_ROUNDS;
    if (range_given && inputs_path) return fail("bench", "--range and --inputs both choose the inputs: give one");
    if (range_given && bench_range_sets("bench", &spec, range_lo, range_hi, range_text)) return EXIT_USAGE;
    const char *const outputs[] = {json_path, md_path};
    if (check_outputs("bench", outputs, 2)) return EXIT_USAGE;
    npy_array array = {0};
    ulpb_inputs_file inputs_file = {0};
    if (inputs_path) {
        const int dtype =
            read_inputs_file("bench", inputs_path, dtype_given ? spec.dtype_mask : 0, outputs, &array, &inputs_file);
        if (dtype < 0) return EXIT_USAGE;
        file_input_sets("bench", &spec, dtype, &array, &inputs_file);
    }
    char *md;
    cJSON *doc;
    int status = run_bench("bench", "ulpbench bench", &spec, &md, &doc);
    if (status == 0) {
        status = write_outputs("bench", json_path, md_path, doc, md, false);
        cJSON_Delete(doc);
        free(md);
    }
    npy_free(&array);
    return status;
}

/* ---- report -------------------------------------------------------------------------------- */

static char *path_join(const char *dir, const char *name) {
    const size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    snprintf(p, len, "%s/%s", dir, name);
    return p;
}

/* The report of cmd_report's options, into o->output_dir. */
static int report_into_dir(accuracy_options *o) {
    char *json_path = path_join(o->output_dir, "report.json"), *md_path = path_join(o->output_dir, "report.md");
    const char *const outputs[] = {json_path, md_path};
    ulpb_result *results = calloc(ulpb_entry_count, sizeof *results);
    int count;
    int status = check_outputs("report", outputs, 2);
    if (status == 0) status = run_accuracy("report", o, results, &count);
    if (status) {
        free(json_path), free(md_path), free(results);
        return status;
    }
    if (o->inputs_path) locate_elements(results, count, &o->inputs_array);
    /* Gate */
    cJSON *gate = cJSON_CreateObject();
    cJSON *thresholds = cJSON_AddObjectToObject(gate, "thresholds");
    for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
        cJSON *t = cJSON_AddObjectToObject(thresholds, ulpb_dtypes[d].name);
        if (o->gate.max_misrounded[d] >= 0)
            ulpb_json_add_count(t, "max_misrounded", (uint64_t)o->gate.max_misrounded[d]);
        if (o->gate.max_ulp[d] >= 0) ulpb_json_add_exact(t, "max_ulp", o->gate.max_ulp[d]);
        cJSON_AddNumberToObject(t, "max_special_mismatches", 0);
    }
    cJSON *held_to_zero = cJSON_AddArrayToObject(gate, "correctly_rounded");
    for (int i = 0; i < count; i++)
        if (results[i].entry->role == ULPB_ROLE_PRODUCTION && results[i].entry->correctly_rounded &&
            !o->gate.misrounded_given[results[i].entry->dtype])
            cJSON_AddItemToArray(held_to_zero, cJSON_CreateString(results[i].entry->description));
    cJSON *failures = cJSON_AddArrayToObject(gate, "failures");
    char *gate_text = NULL;
    size_t gate_len = 0;
    FILE *gf = open_memstream(&gate_text, &gate_len);
    int gated_rows = 0, library_rows = 0, failed_production = 0;
    for (int i = 0; i < count; i++) {
        const ulpb_result *r = &results[i];
        if (!ulpb_role_gated(r->entry->role)) continue;
        gated_rows++;
        library_rows += r->entry->role == ULPB_ROLE_LIBRARY;
        const int d = r->entry->dtype;
        char why[200];
        if (!ulpb_gate_check(r, &o->gate, why, sizeof why)) continue;
        char line[300];
        snprintf(line, sizeof line, "%s %s %s: %s", r->entry->impl, ulpb_ops[r->entry->op].name, ulpb_dtypes[d].name,
                 why);
        cJSON_AddItemToArray(failures, cJSON_CreateString(line));
        failed_production += r->entry->role == ULPB_ROLE_PRODUCTION;
        fprintf(gf, "- FAIL %s\n", line);
    }
    const bool passed = cJSON_GetArraySize(failures) == 0;
    cJSON_AddBoolToObject(gate, "passed", passed);
    cJSON_AddNumberToObject(gate, "gated_rows", gated_rows);
    if (gated_rows == 0)
        fputs("Gate: PASSED, but nothing was gated: the selection holds no production (omk) row and no row of "
              "ULPB_LIBRARIES.\n",
              gf);
    else {
        /* "3 production rows", or with the user's kernels "3 production rows and 2 of ULPB_LIBRARIES" */
        char rows[96];
        const int production_rows = gated_rows - library_rows;
        int len = production_rows ? snprintf(rows, sizeof rows, "%d production row%s", production_rows,
                                             production_rows == 1 ? "" : "s")
                                  : 0;
        if (library_rows)
            snprintf(rows + len, sizeof rows - (size_t)len, "%s%d row%s of ULPB_LIBRARIES", len ? " and " : "",
                     library_rows, library_rows == 1 ? "" : "s");
        if (passed)
            fprintf(gf,
                    "Gate: PASSED (%s: 0 special-value mismatches; misrounded and max ULP within the per-dtype "
                    "thresholds in report.json; 0 misrounded for the correctly rounded kernels it lists).\n",
                    rows);
        else if (!production_rows || !library_rows) /* "2 of 3 production rows failed" */
            fprintf(gf,
                    "Gate: FAILED (%d of %s failed, listed above; each must have 0 special-value mismatches, "
                    "misrounded and max ULP within the per-dtype thresholds in report.json, and 0 misrounded for the "
                    "correctly rounded kernels it lists).\n",
                    cJSON_GetArraySize(failures), rows);
        else /* both kinds: the count of each that failed, not a total that reads as all of one kind */
            fprintf(gf,
                    "Gate: FAILED (%d of %d production row%s and %d of %d row%s of ULPB_LIBRARIES failed, listed "
                    "above; each must have 0 special-value mismatches, misrounded and max ULP within the per-dtype "
                    "thresholds in report.json, and 0 misrounded for the correctly rounded kernels it lists).\n",
                    failed_production, production_rows, production_rows == 1 ? "" : "s",
                    (int)cJSON_GetArraySize(failures) - failed_production, library_rows, library_rows == 1 ? "" : "s");
    }
    fclose(gf);

    /* the seed also draws the quick bench's inputs; with --inputs the throughput's context records it, and the
     * document's seed stays null as in any run over a file's elements (gate requires it) */
    const bool sampled = selects_sampled_rows(o) && !o->inputs_path;
    const ulpb_run_info run = {g_command,
                               o->seed,
                               sampled ? o->samples : 0,
                               "mpfr",
                               0,
                               1,
                               o->inputs_path || (!sampled && o->no_bench),
                               o->range,
                               o->inputs_path ? &o->inputs_file : NULL};
    char *md = markdown_of("ulpbench report: accuracy", &run, results, count, gate_text);
    cJSON *doc = ulpb_document_json("ulpbench.report", &run, results, count);
    cJSON_AddItemToObject(doc, "gate", gate);
    if (!o->no_bench) {
        ulpb_bench_spec spec = {.op_mask = o->op_mask,
                                .dtype_mask = o->dtype_mask,
                                .sizes = {QUICK_BENCH_SIZE},
                                .size_count = 1,
                                .rounds = QUICK_BENCH_ROUNDS,
                                .seed = o->seed,
                                .progress = !o->quiet,
                                .input_sets = o->bench_sets,
                                .input_set_count = o->bench_set_count,
                                .inputs_file = o->inputs_path ? &o->inputs_file : NULL};
        for (int k = 0; k < o->impl_count; k++) spec.impls[spec.impl_count++] = o->impls[k];
        char *bench_md;
        cJSON *throughput;
        status = run_bench("report", "ulpbench report: throughput", &spec, &bench_md, &throughput);
        if (status) {
            free(json_path), free(md_path), free(md), free(gate_text), free(results);
            cJSON_Delete(doc);
            return status;
        }
        cJSON_AddItemToObject(doc, "throughput", throughput);
        /* the targets this quick run measures (4 Ki elements), as 'ulpbench targets' reads them from report.json */
        char *targets_md, err[512];
        size_t targets_len = 0;
        FILE *tf = open_memstream(&targets_md, &targets_len);
        if (!tf) {
            free(json_path), free(md_path), free(md), free(gate_text), free(results), free(bench_md);
            cJSON_Delete(doc);
            return fail("report", "out of memory");
        }
        fprintf(tf, "## ulpbench report: throughput targets\n\nThe rounds above against accuracy/registry.def's "
                    "targets (`ulpbench targets` on report.json; timing never affects the gate).\n\n");
        const cJSON *runs[1] = {doc};
        const char *names[1] = {json_path};
        ulpb_targets_summary summary;
        const ulpb_targets_options options = {0};
        if (ulpb_targets_report(tf, runs, names, 1, &options, &summary, err, sizeof err)) fprintf(tf, "%s.\n", err);
        fclose(tf);
        char *joined = malloc(strlen(md) + strlen(bench_md) + strlen(targets_md) + 3);
        if (joined) sprintf(joined, "%s\n%s\n%s", md, bench_md, targets_md);
        free(md), free(bench_md), free(targets_md);
        md = joined;
        if (!md) {
            free(json_path), free(md_path), free(gate_text), free(results);
            cJSON_Delete(doc);
            return fail("report", "out of memory");
        }
    }
    status = write_outputs("report", json_path, md_path, doc, md, false);
    if (status == 0 && !passed) status = EXIT_GATE;
    free(json_path), free(md_path), free(md), free(gate_text);
    cJSON_Delete(doc);
    free(results);
    return status;
}

static int report_checked(accuracy_options *o);

static int cmd_report(int argc, char **argv) {
    accuracy_options o = {.samples = DEFAULT_SAMPLES, .seed = DEFAULT_SEED, .output_dir = "."};
    ulpb_gate_defaults(&o.gate);
    const int rc = accuracy_getopt("report", argc, argv, &o, true);
    if (rc < 0) {
        printf("usage: ulpbench report [--op OP|all] [--dtype DTYPE|all] [--impl NAME[,NAME...]|all] [--samples N]\n"
               "                      [--seed S] [--threads N] [--output-dir DIR] [--max-ulp DTYPE=X]...\n"
               "                      [--max-misrounded DTYPE=N]... [--no-bench] [--quiet]\n"
               "                      [--range LO,HI | --inputs FILE.npy]\n\n"
               "Runs the default suite (every op, dtype and implementation this CPU runs, or those --op, --dtype\n"
               "and --impl names: f16/bf16 exhaustive, f32/f64 sampled, default %llu inputs, seed %llu), prints\n"
               "the Markdown tables and writes DIR/report.json and DIR/report.md (DIR is made if its parent\n"
               "exists; default: .). Gate for production (omk) rows and your kernels (ULPB_LIBRARIES, see\n"
               "'ulpbench list --help'): no special-value mismatch, and per dtype misrounded <= N and max ULP\n"
               "<= X (defaults, omk's promise: 0 misrounded for f16/bf16/f32 and for every kernel\n"
               "kernels/omk_kernels.def marks correctly rounded, max 0.51 ULP for f64; accuracy/registry.def).\n"
               "--max-misrounded DTYPE=N also sets the limit of that dtype's correctly rounded kernels.\n"
               "Exit status 1 when a production kernel or one of ULPB_LIBRARIES fails the gate; peers never do.\n"
               "Then the throughput tables of 'ulpbench bench --quick' (%d elements, %d rounds; report.json key\n"
               "\"throughput\", Google Benchmark JSON), whose inputs the seed draws too; timing never affects the\n"
               "gate. --no-bench skips them. --range LO,HI: only inputs in [LO, HI], as 'ulpbench accuracy\n"
               "--range' checks them and 'ulpbench bench --range' times them (unless --no-bench, the range must lie\n"
               "inside every selected dtype's finite values and hold two of its values); no throughput target is\n"
               "checked on them. --inputs FILE.npy: the elements of a model's tensor instead, as 'ulpbench accuracy\n"
               "--inputs' checks them and 'ulpbench bench --inputs' times them (its dtype only, which --dtype must\n"
               "name if given; the seed draws the bench's inputs from them, and --no-bench leaves it nothing to\n"
               "draw; --samples and --range do not apply); no throughput target is checked on them. 'ulpbench gate\n"
               "--inputs FILE.npy DIR/report.json' checks later that the report measured that very file.\n",
               DEFAULT_SAMPLES, DEFAULT_SEED, QUICK_BENCH_SIZE, QUICK_BENCH_ROUNDS);
        return 0;
    }
    if (rc) return rc;
    if (o.op_mask == 0) o.op_mask = (1u << ULPB_OP_COUNT) - 1;
    if (o.inputs_path) { /* the file's dtype, which --dtype may name */
        char *json_path = path_join(o.output_dir, "report.json"), *md_path = path_join(o.output_dir, "report.md");
        const char *const outputs[] = {json_path, md_path};
        const int status = load_inputs("report", &o, outputs);
        free(json_path), free(md_path);
        if (status) return status;
    }
    if (o.dtype_mask == 0) o.dtype_mask = (1u << ULPB_DTYPE_COUNT) - 1;
    const int status = report_checked(&o);
    npy_free(&o.inputs_array);
    return status;
}

/* report once its options are read (and an --inputs file): the checks that need no file, DIR, the run. */
static int report_checked(accuracy_options *o) {
    if (!o->inputs_path && (check_sampling_options("report", o, true) || check_range_holds("report", o)))
        return EXIT_USAGE;
    for (int d = 0; d < ULPB_DTYPE_COUNT; d++) /* a limit for a dtype the run does not check would gate nothing */
        if ((o->max_ulp_given[d] || o->gate.misrounded_given[d]) && !(o->dtype_mask & (1u << d)))
            return fail("report", "%s %s=... limits a dtype this run does not check (%s)",
                        o->max_ulp_given[d] ? "--max-ulp" : "--max-misrounded", ulpb_dtypes[d].name,
                        o->inputs_path ? "the --inputs file's dtype" : "--dtype");
    if (o->range.given && !o->no_bench) { /* checked before the accuracy run, which takes minutes; last (it may note) */
        ulpb_bench_spec range_spec = {.op_mask = o->op_mask, .dtype_mask = o->dtype_mask};
        if (bench_range_sets("report", &range_spec, o->range.lo, o->range.hi, o->range_text)) return EXIT_USAGE;
        o->bench_sets = range_spec.input_sets;
        o->bench_set_count = range_spec.input_set_count;
    }
    if (o->inputs_path && !o->no_bench) {
        ulpb_bench_spec file_spec = {.op_mask = o->op_mask, .dtype_mask = o->dtype_mask};
        file_input_sets("report", &file_spec, __builtin_ctz(o->dtype_mask), &o->inputs_array, &o->inputs_file);
        o->bench_sets = file_spec.input_sets;
        o->bench_set_count = file_spec.input_set_count;
    }
    /* DIR is made when it does not exist (its parent must), and removed again when the run fails before writing */
    struct stat dir_stat;
    bool made_dir = false;
    if (stat(o->output_dir, &dir_stat) != 0 && errno == ENOENT) {
        if (mkdir(o->output_dir, 0777) != 0)
            return fail("report", "cannot make --output-dir '%s': %s", o->output_dir, strerror(errno));
        made_dir = true;
    }
    if (made_dir) ulpb_remove_dir_when_ended(o->output_dir); /* and on SIGINT, SIGTERM or SIGHUP meanwhile */
    const int status = report_into_dir(o);
    if (made_dir) ulpb_remove_dir_when_ended(NULL);
    if (made_dir && status != 0) rmdir(o->output_dir); /* fails, as it should, once a report is in it */
    return status;
}

/* ---- eval ---------------------------------------------------------------------------------- */

static int cmd_eval(int argc, char **argv) {
    static const struct option opts[] = {{"op", required_argument, 0, 'o'},
                                         {"impl", required_argument, 0, 'i'},
                                         {"dtype", required_argument, 0, 'd'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *op_text = NULL, *impl = "omk", *dtype_text = NULL;
    int c;
    while ((c = next_option(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            op_text = optarg;
            break;
        case 'i':
            impl = optarg;
            break;
        case 'd':
            dtype_text = optarg;
            break;
        case 'h':
            printf(
                "usage: ulpbench eval --op {%s} [--impl NAME] [--dtype DTYPE] IN.npy OUT.npy\n\n"
                "Applies the op element-wise (implementation omk by default) to a NumPy .npy file (format 1.0-3.0,\n"
                "little-endian, C order, any shape) of <f2, <f4 or <f8, or of bfloat16 bit patterns as <u2 or <i2\n"
                "with --dtype bf16, and writes OUT.npy with the same shape and dtype. The file's dtype decides: "
                "--dtype\n"
                "f16, f32 or f64 is only checked against it. IN.npy is a regular file (not a pipe). The kernel is\n"
                "called once over the whole array, out of place, and checked as 'accuracy' checks its calls (writes\n"
                "outside the output or into the input, outputs left unwritten, floating-point controls changed).\n"
                "On any error: one line on stderr, exit status 2, and OUT.npy is not created (a kernel that\n"
                "crashes is named, and its signal ends the process: a shell reads 139 for SIGSEGV).\n",
                op_choices());
            return 0;
        default:
            return bad_option("eval", c, argc, argv);
        }
    }
    if (!op_text) return fail("eval", "missing --op (%s)", op_choices());
    const int op = ulpb_op_find(op_text);
    if (op < 0) return fail("eval", "unknown op '%s' (expected %s)", op_text, op_choices());
    if (!ulpb_impl_known(impl)) return unknown_impl("eval", impl);
    /* a baseline (memcpy) computes nothing: its output would be the input, exit status 0 */
    for (size_t i = 0; i < ulpb_entry_count; i++)
        if (strcmp(ulpb_entries[i].impl, impl) == 0 && ulpb_entries[i].role == ULPB_ROLE_BASELINE)
            return fail("eval", "'%s' is a throughput baseline, not an implementation of %s", impl, op_text);
    if (dtype_text && ulpb_dtype_find(dtype_text) < 0)
        return fail("eval", "unknown dtype '%s' (expected %s)", dtype_text, dtype_choices());
    if (argc - optind != 2) return fail("eval", "expected IN.npy and OUT.npy, got %d path(s)", argc - optind);
    const char *in_path = argv[optind], *out_path = argv[optind + 1];
    if (check_outputs("eval", &out_path, 1)) return EXIT_USAGE;
    /* the input would be gone with nothing to say which op replaced it: as merge does with its -o */
    if (ulpb_output_same(out_path, in_path))
        return fail("eval", "'%s' names the input '%s'; write the result to a new file", out_path, in_path);

    char err[512];
    npy_array a;
    if (npy_read(in_path, &a, err, sizeof err)) return fail("eval", "%s: %s", in_path, err);
    const int dtype = npy_array_dtype("eval", in_path, a.kind, dtype_text);
    if (dtype < 0) {
        npy_free(&a);
        return EXIT_USAGE;
    }
    const ulpb_entry *e = ulpb_entry_find(impl, (ulpb_op_id)op, (ulpb_dtype_id)dtype);
    if (!e) {
        npy_free(&a);
        return fail("eval", "implementation '%s' has no %s for %s", impl, ulpb_ops[op].name, ulpb_dtypes[dtype].name);
    }
    if (!ulpb_entry_available(e)) {
        npy_free(&a);
        return fail("eval", "'%s' %s %s needs %s, which this CPU lacks (or ULPB_DISABLE_ISA)", impl, ulpb_ops[op].name,
                    ulpb_dtypes[dtype].name, ulpb_isa_name(e->isa));
    }
    /* out of place, over outputs poisoned beforehand: an in-place call could not show an output left unwritten (it
     * would hold its input) */
    if (a.count && ulpb_call_whole_checked(e, a.data, a.data, a.count, err, sizeof err)) {
        npy_free(&a);
        return fail("eval", "%s", err);
    }
    const int rc = npy_write(out_path, &a, err, sizeof err);
    npy_free(&a);
    if (rc) return fail("eval", "%s", err);
    return 0;
}

/* ---- main ---------------------------------------------------------------------------------- */

static void usage(FILE *f) {
    fputs("usage: ulpbench <command> [options]\n\n"
          "commands:\n"
          "  list       the registry: every (implementation, op, dtype)\n"
          "  accuracy   ULP error against correctly rounded MPFR references\n"
          "  bench      throughput (elements/ns) beside the peers and a memcpy floor\n"
          "  eval       apply an op to a .npy file\n"
          "  report     the default suite, report.json + report.md, and the CI gate\n"
          "  merge      combine the shards of an exhaustive or sampled accuracy run\n"
          "  hard-cases search binary64 or binary32 inputs that are hard to round\n"
          "  targets    check saved bench results against the throughput targets\n"
          "  gate       hold saved accuracy results (exhaustive ones too) to the report's gate\n\n"
          "Run 'ulpbench <command> --help' for a command's options, 'ulpbench --version' for the versions of\n"
          "ulpbench, omk (and its build in use) and the libraries it measures against.\n",
          f);
}

/* A full disk or a closed descriptor behind stdout must not pass for success. */
static int checked_exit_status(int status) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        const int why = errno ? errno : g_stdout_errno;
        fprintf(stderr, "ulpbench: cannot write to standard output: %s\n", why ? strerror(why) : "write error");
        if (status == 0) status = EXIT_USAGE;
    }
    return status;
}

/* -h, or --help or a prefix of it ("--h", "--he", ...: no other long option starts with h), as getopt reads it. */
static bool is_help_option(const char *word) {
    return strcmp(word, "-h") == 0 || (strlen(word) > 2 && strncmp(word, "--help", strlen(word)) == 0);
}

/* ---- a kernel under test that crashes or exits ---------------------------------------------------------------- */

/* Appends at most the first `most` bytes of text to buf[*used, len) (async-signal-safe). */
static void append_text_prefix(char *buf, size_t len, size_t *used, const char *text, size_t most) {
    for (size_t k = 0; k < most && text[k] && *used + 1 < len; k++) buf[(*used)++] = text[k];
}

static void append_text(char *buf, size_t len, size_t *used, const char *text) {
    append_text_prefix(buf, len, used, text, SIZE_MAX);
}

/* Appends n in decimal (async-signal-safe). */
static void append_count(char *buf, size_t len, size_t *used, size_t n) {
    char digits[24], *d = digits + sizeof digits;
    *--d = '\0';
    do *--d = (char)('0' + n % 10);
    while (n /= 10);
    append_text(buf, len, used, d);
}

/* What a thread was doing, as its crash, its exit() and the watch name it: "'NAME' OP DTYPE (a call with n = N)", "...
 * (a pass of K calls with n = N)" (bench), or "ULPB_LIBRARIES: loading 'PATH' (its constructors run)", a path of more
 * than LOADING_PATH_SHOWN + 3 bytes shown by about LOADING_PATH_SHOWN / 2 at each end (cut between UTF-8 characters);
 * async-signal-safe. Returns the length written. */
enum { LOADING_PATH_SHOWN = 200 };
static size_t describe_activity(const ulpb_kernel_call *call, char *buf, size_t len) {
    size_t used = 0;
    if (call->loading) {
        append_text(buf, len, &used, "ULPB_LIBRARIES: loading '");
        const char *path = call->loading;
        size_t path_len = 0;
        while (path[path_len]) path_len++;
        if (path_len <= LOADING_PATH_SHOWN + 3) {
            append_text(buf, len, &used, path);
        } else {
            size_t head_len = LOADING_PATH_SHOWN / 2, tail_start = path_len - LOADING_PATH_SHOWN / 2;
            while (head_len > 0 && ((unsigned char)path[head_len] & 0xC0) == 0x80) head_len--;
            while (tail_start < path_len && ((unsigned char)path[tail_start] & 0xC0) == 0x80) tail_start++;
            append_text_prefix(buf, len, &used, path, head_len);
            append_text(buf, len, &used, "...");
            append_text(buf, len, &used, path + tail_start);
        }
        append_text(buf, len, &used, "' (its constructors run)");
    } else if (call->entry) {
        append_text(buf, len, &used, "'");
        append_text(buf, len, &used, call->entry->impl);
        append_text(buf, len, &used, "' ");
        append_text(buf, len, &used, ulpb_ops[call->entry->op].name);
        append_text(buf, len, &used, " ");
        append_text(buf, len, &used, ulpb_dtypes[call->entry->dtype].name);
        if (call->calls_in_pass > 1) {
            append_text(buf, len, &used, " (a pass of ");
            append_count(buf, len, &used, call->calls_in_pass);
            append_text(buf, len, &used, " calls with n = ");
        } else {
            append_text(buf, len, &used, " (a call with n = ");
        }
        append_count(buf, len, &used, call->n);
        append_text(buf, len, &used, ")");
    }
    if (len) buf[used] = '\0';
    return used;
}

/* The same for this thread (its crash handler's or exit handler's), or nothing. */
static size_t describe_running_kernel(char *buf, size_t len) {
    ulpb_kernel_call call;
    return ulpb_kernel_in_call(&call) ? describe_activity(&call, buf, len) : 0;
}

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
enum { CRASH_SIGNALS = sizeof crash_signals / sizeof *crash_signals };
static struct sigaction crash_previous[CRASH_SIGNALS]; /* the default, or a sanitizer's handler */

/* A crash inside a kernel under test is named, the run's pending outputs are removed, and the signal then ends the
 * process as it would have. */
static void report_crash(int sig) {
    char message[1024];
    size_t used = 0;
    append_text(message, sizeof message, &used, "ulpbench: ");
    const size_t prefix = used;
    used += describe_running_kernel(message + used, sizeof message - used);
    if (used > prefix) {
        append_text(message, sizeof message, &used, " crashed: ");
        append_text(message, sizeof message, &used,
                    sig == SIGSEGV  ? "SIGSEGV (invalid memory access)"
                    : sig == SIGBUS ? "SIGBUS"
                    : sig == SIGFPE ? "SIGFPE (an unmasked floating-point exception, or an integer division by zero)"
                    : sig == SIGILL ? "SIGILL (an instruction this CPU does not have)"
                                    : "SIGABRT");
        append_text(message, sizeof message, &used, "\n");
        ssize_t ignored = write(STDERR_FILENO, message, used);
        (void)ignored;
    }
    ulpb_remove_pending_outputs();
    /* the action that was in place takes the signal: the default ends the process by it, a sanitizer reports it (a
     * fault returned from comes again at once) */
    for (int k = 0; k < CRASH_SIGNALS; k++)
        if (crash_signals[k] == sig) sigaction(sig, &crash_previous[k], NULL);
    raise(sig);
}

/* exit() or quick_exit() called inside a kernel under test would end the run with the kernel's status (0 reads as
 * success): the status becomes 2, with a message. (_exit and _Exit run no handler: supervise_the_run.) */
static void refuse_ending_from_kernel(const char *how) {
    char message[1024];
    size_t used = 0;
    append_text(message, sizeof message, &used, "ulpbench: ");
    const size_t prefix = used;
    used += describe_running_kernel(message + used, sizeof message - used);
    if (used == prefix) return;
    append_text(message, sizeof message, &used, " called ");
    append_text(message, sizeof message, &used, how);
    append_text(message, sizeof message, &used, ": the run is incomplete\n");
    ssize_t ignored = write(STDERR_FILENO, message, used);
    (void)ignored;
    ulpb_remove_pending_outputs();
    ulpb_note_ending(EXIT_USAGE);
    _exit(EXIT_USAGE);
}

static void refuse_exit_from_kernel(void) { refuse_ending_from_kernel("exit()"); }
static void refuse_quick_exit_from_kernel(void) { refuse_ending_from_kernel("quick_exit()"); }

/* ---- a library that ends the process itself ------------------------------------------------------------------ */

/* _exit(), _Exit() or an exit system call in a library of ULPB_LIBRARIES (in a kernel, a constructor or a destructor)
 * ends the process at once, without exit()'s handlers, with the library's status: 0 would read as success, and no
 * handler can see it (the library binds its own _exit: RTLD_DEEPBIND). So with libraries to load, the run goes on in a
 * child process and this one, the process the caller started, waits for it: the child notes each status it ends with
 * itself (ulpb_note_ending), and an ending it did not note is reported here, with status 2 (or the child's, when not
 * 0: a sanitizer's report). A signal that ends the child ends this process the same way; SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1, SIGUSR2 and SIGCONT are passed on to it, a SIGSTOP of this process stops it at the watch's next
 * look (stop_with_the_supervisor), and it dies with this process (PR_SET_PDEATHSIG). */
static volatile pid_t supervised_child;
static pid_t supervisor;

static void pass_signal_on(int sig) {
    const int saved_errno = errno;
    if (supervised_child > 0) kill(supervised_child, sig);
    errno = saved_errno;
}

/* In the child: a supervisor stopped (kill -STOP, which it cannot pass on) stops the run too, until its SIGCONT (not
 * one a tracer holds, 't', which no SIGCONT may end). A SIGCONT that comes between the look and the stop is made up for
 * by the supervisor, which sees the stop (supervise_the_run). */
static void stop_with_the_supervisor(void) {
    if (!supervisor) return;
    char stat_path[64], stat[256] = "";
    snprintf(stat_path, sizeof stat_path, "/proc/%ld/stat", (long)supervisor);
    const int fd = open(stat_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    const ssize_t n = read(fd, stat, sizeof stat - 1);
    close(fd);
    const char *state = n > 0 ? strrchr(stat, ')') : NULL; /* "PID (NAME) STATE ...", NAME may hold ") " */
    if (state && state[2] == 'T') kill(getpid(), SIGSTOP);
}

static _Noreturn void end_as_the_child_did(int wait_status, int noted, bool was_noted) {
    if (WIFSIGNALED(wait_status)) {
        const int sig = WTERMSIG(wait_status);
        const struct rlimit no_core = {0, 0}; /* the child's core, if any, is the one to read */
        setrlimit(RLIMIT_CORE, &no_core);
        signal(sig, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, sig);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        raise(sig);
        _exit(128 + sig);
    }
    const int status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : EXIT_USAGE;
    if (was_noted && status == noted) _exit(status);
    /* 0, and ulpbench's own 1 (a failed gate) and 3 (a run to resume), would say what the run did not: they become the
     * run's noted status, or 2; another (a sanitizer's report, 23 of a leak found at exit) stands */
    const int ends_with =
        status == 0 || status == 1 || status == 3 ? (was_noted && noted != 0 ? noted : EXIT_USAGE) : status;
    char message[512];
    int len;
    if (!was_noted)
        len = snprintf(message, sizeof message,
                       "ulpbench: the run ended before it finished, with exit status %d that ulpbench did not give: a "
                       "library of ULPB_LIBRARIES, a sanitizer or a runtime library ended the process (_exit, _Exit or "
                       "exit_group, in a kernel or as it loaded); the run is incomplete (status %d)\n",
                       status, ends_with);
    else
        len = snprintf(message, sizeof message,
                       "ulpbench: the process ended with exit status %d where the run ended with %d: a library of "
                       "ULPB_LIBRARIES, a sanitizer or a runtime library changed it as the process ended (_exit in a "
                       "destructor, say); status %d stands\n",
                       status, noted, ends_with);
    const ssize_t ignored = write(STDERR_FILENO, message, len > 0 && (size_t)len < sizeof message ? (size_t)len : 0);
    (void)ignored;
    _exit(ends_with);
}

/* Returns in the child (or, when no child can be made, in this process, with a warning); the supervisor ends inside. */
static void supervise_the_run(void) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        fputs("ulpbench: warning: no watch on a library that ends the process itself (no pipe)\n", stderr);
        return;
    }
    /* above the standard streams (closed ones would give their numbers: the notes would go to stderr), and written
     * without waiting (a note lost to a full pipe is reported, not a run held) */
    for (int k = 0; k < 2; k++) {
        const int moved = fcntl(pipe_fds[k], F_DUPFD_CLOEXEC, 3);
        close(pipe_fds[k]);
        pipe_fds[k] = moved;
    }
    if (pipe_fds[0] < 0 || pipe_fds[1] < 0 || fcntl(pipe_fds[1], F_SETFL, O_NONBLOCK) != 0) {
        if (pipe_fds[0] >= 0) close(pipe_fds[0]);
        if (pipe_fds[1] >= 0) close(pipe_fds[1]);
        fputs("ulpbench: warning: no watch on a library that ends the process itself (no pipe)\n", stderr);
        return;
    }
    /* an ignored SIGCHLD (inherited across exec) would have the child reaped unseen and waitpid fail */
    struct sigaction child_action;
    sigaction(SIGCHLD, NULL, &child_action);
    signal(SIGCHLD, SIG_DFL);
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child < 0) {
        close(pipe_fds[0]), close(pipe_fds[1]);
        sigaction(SIGCHLD, &child_action, NULL);
        fputs("ulpbench: warning: no watch on a library that ends the process itself (fork failed)\n", stderr);
        return;
    }
    if (child == 0) {
        close(pipe_fds[0]);
        sigaction(SIGCHLD, &child_action, NULL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) raise(SIGKILL); /* the supervisor died before the line above */
        supervisor = parent;
        ulpb_set_ending_pipe(pipe_fds[1]);
        return;
    }
    close(pipe_fds[1]);
    supervised_child = child;
    static const int passed_on[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT};
    struct sigaction pass = {0};
    pass.sa_handler = pass_signal_on;
    pass.sa_flags = SA_RESTART;
    sigemptyset(&pass.sa_mask);
    for (size_t k = 0; k < sizeof passed_on / sizeof *passed_on; k++) {
        struct sigaction was;
        if (sigaction(passed_on[k], NULL, &was) == 0 && was.sa_handler != SIG_IGN) /* nohup's SIGHUP stays ignored */
            sigaction(passed_on[k], &pass, NULL);
    }
    int wait_status = 0;
    for (;;) {
        const pid_t waited = waitpid(child, &wait_status, WUNTRACED);
        if (waited < 0 && errno == EINTR) continue;
        if (waited < 0) {
            const int why = errno;
            kill(child, SIGKILL);
            char message[160];
            const int len = snprintf(message, sizeof message, "ulpbench: cannot wait for the run: %s\n", strerror(why));
            const ssize_t ignored =
                write(STDERR_FILENO, message, len > 0 && (size_t)len < sizeof message ? (size_t)len : 0);
            (void)ignored;
            _exit(EXIT_USAGE);
        }
        /* stopped by SIGSTOP while this process runs: its own stop_with_the_supervisor after a SIGCONT passed on
         * before it (a stop of the job, ^Z, is SIGTSTP, and stops this process too) */
        if (WIFSTOPPED(wait_status)) {
            if (WSTOPSIG(wait_status) == SIGSTOP) kill(child, SIGCONT);
            continue;
        }
        break;
    }
    supervised_child = 0;
    /* the last status noted; the pipe's write end closed with the child (and any process it made: close-on-exec) */
    unsigned char notes[64];
    int noted = -1;
    fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
    for (ssize_t n; (n = read(pipe_fds[0], notes, sizeof notes)) > 0 || (n < 0 && errno == EINTR);)
        if (n > 0) noted = notes[n - 1];
    end_as_the_child_did(wait_status, noted, noted >= 0);
}

/* A kernel call that does not return (a kernel under test that hangs) would hold a CI job until the job's own timeout,
 * naming nothing: a thread watches every calling thread's calls (ulpb_kernel_calls) and ends the run, with exit
 * status 2 and the kernel's name, once a call has run ULPB_KERNEL_TIMEOUT seconds and 10 more per million elements
 * (for eval's single call over a large file; bench's passes of many calls count all their elements). */
enum { KERNEL_TIMEOUT_DEFAULT_S = 60 };
static double kernel_timeout_s = KERNEL_TIMEOUT_DEFAULT_S;
#define KERNEL_TIMEOUT_PER_ELEMENT_S 1e-5

static double monotonic_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The watch ends with the process: exit() stops it and waits for it, so that it does not read the slots or write to
 * stderr while exit runs the other handlers and the destructors. (The LeakSanitizer crashes at exit once blamed on it
 * came from LLVM's OpenMP runtime: tests/CMakeLists.txt.) */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wake;
static bool watch_ending;
static pthread_t watch_thread;

/* Waits `seconds` on the monotonic clock; false when the process is ending. */
static bool watch_pause(double seconds) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    const double whole = floor(seconds);
    until.tv_sec += (time_t)whole;
    until.tv_nsec += (long)((seconds - whole) * 1e9);
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&watch_lock);
    while (!watch_ending && pthread_cond_timedwait(&watch_wake, &watch_lock, &until) == 0) {
    }
    const bool go_on = !watch_ending;
    pthread_mutex_unlock(&watch_lock);
    return go_on;
}

static void end_the_watch(void) {
    pthread_mutex_lock(&watch_lock);
    watch_ending = true;
    pthread_cond_signal(&watch_wake);
    pthread_mutex_unlock(&watch_lock);
    pthread_join(watch_thread, NULL);
}

static void *end_the_run_when_a_call_hangs(void *unused) {
    (void)unused;
    static ulpb_kernel_call calls[ULPB_CALL_SLOTS];
    static unsigned long seen_calls[ULPB_CALL_SLOTS];
    static double seen_since[ULPB_CALL_SLOTS];
    /* a few looks per timeout, at most two a second: the watch must not disturb what bench times */
    const double period = fmin(fmax(kernel_timeout_s / 4, 0.05), 0.5);
    double last_look = monotonic_seconds();
    while (watch_pause(period)) {
        stop_with_the_supervisor();
        const double now = monotonic_seconds();
        /* a look a second overdue: the process was stopped (SIGSTOP, ^Z) or the machine suspended, and the calls did
         * not run meanwhile; they start their time again */
        const bool resumed = now - last_look > period + 1.0;
        last_look = now;
        const size_t count = ulpb_kernel_calls(calls);
        for (size_t k = 0; k < count; k++) {
            if ((!calls[k].entry && !calls[k].loading) || calls[k].calls != seen_calls[k] || resumed) {
                seen_calls[k] = calls[k].calls;
                seen_since[k] = now;
                continue;
            }
            const ulpb_entry *e = calls[k].entry;
            const double elements = e ? (double)calls[k].n * (double)calls[k].calls_in_pass : 0.0;
            const double limit = kernel_timeout_s + KERNEL_TIMEOUT_PER_ELEMENT_S * elements;
            if (now - seen_since[k] < limit) continue;
            char what[512], after[32], message[1024];
            snprintf(after, sizeof after, limit < 999.5 ? "%.3g" : "%.0f", limit); /* "0.5", "61.2", "1234" */
            describe_activity(&calls[k], what, sizeof what);
            /* not through stdio: the hung kernel may hold stderr's lock */
            const int len = snprintf(message, sizeof message,
                                     "ulpbench: %s has not returned after %s s: the run is incomplete "
                                     "(ULPB_KERNEL_TIMEOUT=%.10g sets the seconds a call may take, plus 10 per million "
                                     "elements; 0 waits for ever)\n",
                                     what, after, kernel_timeout_s);
            ssize_t ignored = write(STDERR_FILENO, message, len > 0 && (size_t)len < sizeof message ? (size_t)len : 0);
            (void)ignored;
            ulpb_exit_removing_pending_outputs(EXIT_USAGE);
        }
    }
    return NULL;
}

/* ULPB_KERNEL_TIMEOUT: seconds (a decimal number, 0 for no watch), or a message in err. */
static void read_kernel_timeout(char *err, size_t err_len) {
    const char *text = getenv("ULPB_KERNEL_TIMEOUT");
    if (!text || !*text) return;
    double seconds;
    if (parse_number(text, &seconds) || strpbrk(text, "xXiInN") || !(seconds >= 0 && seconds <= 1e9))
        snprintf(err, err_len,
                 "ULPB_KERNEL_TIMEOUT=%s is no decimal number of seconds from 0 to 1e9 (the longest a kernel call may "
                 "take; 0 waits for ever)",
                 text);
    else
        kernel_timeout_s = seconds;
}

static void watch_for_hung_kernels(void) {
    if (kernel_timeout_s == 0) return;
    pthread_condattr_t clock;
    pthread_attr_t attr;
    if (pthread_condattr_init(&clock) != 0 || pthread_condattr_setclock(&clock, CLOCK_MONOTONIC) != 0 ||
        pthread_cond_init(&watch_wake, &clock) != 0 || pthread_attr_init(&attr) != 0) {
        fputs("ulpbench: warning: no watch on kernel calls that hang (no condition variable)\n", stderr);
        return;
    }
    pthread_condattr_destroy(&clock);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    if (pthread_create(&watch_thread, &attr, end_the_run_when_a_call_hangs, NULL) == 0)
        atexit(end_the_watch);
    else
        fputs("ulpbench: warning: no watch on kernel calls that hang (pthread_create failed)\n", stderr);
    pthread_attr_destroy(&attr);
}

static void watch_kernels_under_test(void) {
    /* on a stack of its own, so that a kernel that overflows its thread's stack is named too: each thread that calls
     * kernels gets one at its first call (ulpb_kernel_running) */
    struct sigaction crash = {0};
    crash.sa_handler = report_crash;
    crash.sa_flags = SA_ONSTACK;
    sigemptyset(&crash.sa_mask);
    for (int k = 0; k < CRASH_SIGNALS; k++) sigaction(crash_signals[k], &crash, &crash_previous[k]);
    atexit(refuse_exit_from_kernel);
    at_quick_exit(refuse_quick_exit_from_kernel);
}

int main(int argc, char **argv) {
    opterr = 0; /* our messages only: one line per error (see bad_option) */
    if (argc < 2) {
        fputs("ulpbench: missing command (try 'ulpbench --help')\n", stderr);
        return EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (is_help_option(sub) || strcmp(sub, "help") == 0) {
        usage(stdout);
        return checked_exit_status(0);
    }
    watch_kernels_under_test();
    /* Past a file-size limit (ulimit -f) a write then fails with EFBIG, which is reported and removes the temporary
     * file, instead of SIGXFSZ killing the process and leaving it behind. */
    signal(SIGXFSZ, SIG_IGN);
    /* The environment's settings must name what the run measures; the first one that does not is the error. A
     * command's help runs nothing, so it is shown even then (as for 'ulpbench --help'): with a word that reads as
     * help, the error waits for the command's options to be parsed (next_option), since "--json -h" names a file. */
    bool help = false;
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) help |= is_help_option(argv[i]);
    char env_error[512] = "";
    if (ulpb_check_disable_isa(env_error, sizeof env_error) == 0) {
        /* libomk falls back to the best build when OMK_ISA names none it can run; a run meant for another path must
         * not pass for one. (Asking libomk fixes its build for the process; with OMK_ISA set, the limit below would
         * not change it anyway.) An empty value is no choice, for libomk as here. */
        const char *forced_isa = getenv("OMK_ISA");
        if (forced_isa && !*forced_isa) forced_isa = NULL;
        /* OMK_ISA must not name a build ULPB_DISABLE_ISA rules out: the run would stand for a CPU without that ISA
         * and still measure it */
        const ulpb_isa forced = forced_isa ? ulpb_isa_named(forced_isa, strlen(forced_isa)) : ULPB_ISA_NONE;
        if (forced_isa && strcmp(forced_isa, omk_isa_in_use()) != 0)
            snprintf(
                env_error, sizeof env_error,
                "OMK_ISA=%s is no omk build this CPU runs (omk's builds: scalar, avx2, avx512; this CPU runs up to %s)",
                forced_isa, omk_isa_in_use());
        else if (forced != ULPB_ISA_NONE && !ulpb_isa_available(forced))
            snprintf(env_error, sizeof env_error, "OMK_ISA=%s names a build that ULPB_DISABLE_ISA=%s disables",
                     forced_isa, getenv("ULPB_DISABLE_ISA"));
    }
    /* the settings as the user gave them, before ulpb_limit_omk_to_available_isas sets OMK_ISA itself */
    static const char *const recorded_variables[] = {"ULPB_DISABLE_ISA", "OMK_ISA", "OMK_HALF16", "ULPB_LIBRARIES"};
    char *env_words[sizeof recorded_variables / sizeof *recorded_variables];
    for (size_t k = 0; k < sizeof recorded_variables / sizeof *recorded_variables; k++) {
        const char *value = getenv(recorded_variables[k]);
        if (!value || !*value) continue;
        const size_t len = strlen(recorded_variables[k]) + strlen(value) + 2;
        if (!(env_words[g_env_count] = malloc(len))) continue;
        snprintf(env_words[g_env_count++], len, "%s=%s", recorded_variables[k], value);
    }
    g_env_words = env_words;
    /* before anything else asks libomk which build it runs: the first question fixes the answer */
    if (!*env_error) ulpb_limit_omk_to_available_isas();
    /* likewise for the 16-bit method: libomk takes any other value as the default, so a typo would measure it */
    const char *forced_half16 = getenv("OMK_HALF16");
    if (*env_error || (forced_half16 && !*forced_half16)) forced_half16 = NULL;
    if (forced_half16 && strcmp(forced_half16, "table") != 0 && strcmp(forced_half16, "compute") != 0)
        snprintf(env_error, sizeof env_error, "OMK_HALF16=%s is no 16-bit method (table or compute)", forced_half16);
    else if (forced_half16 && strcmp(forced_half16, omk_half16_method()) != 0)
        snprintf(env_error, sizeof env_error, "OMK_HALF16=%s needs omk's avx512 build; this run uses the %s build's %s",
                 forced_half16, omk_isa_in_use(), omk_half16_method());
    /* the user's kernels join the registry before any command reads it; after OMK_ISA is set, for a library that
     * reads it when loaded */
    if (!*env_error) read_kernel_timeout(env_error, sizeof env_error);
    const char *libraries = getenv("ULPB_LIBRARIES");
    if (!*env_error && libraries && *libraries) supervise_the_run(); /* before any thread is made */
    if (!*env_error) watch_for_hung_kernels();
    if (!*env_error) ulpb_load_libraries(getenv("ULPB_LIBRARIES"), env_error, sizeof env_error);
    if (*env_error && !help) {
        fail_early("%s", env_error);
        for (int i = 0; i < g_env_count; i++) free(env_words[i]);
        ulpb_note_ending(EXIT_USAGE);
        return EXIT_USAGE;
    }
    g_env_error = env_error;
    char *command = join_command(argc, argv);
    g_command = command;
    g_argc = argc;
    g_argv = argv;
    g_dropped = calloc((size_t)argc, sizeof *g_dropped);
    g_executable = argv[0];
    int status;
    /* getopt sees the subcommand as argv[0] */
    if (strcmp(sub, "list") == 0)
        status = cmd_list(argc - 1, argv + 1);
    else if (strcmp(sub, "accuracy") == 0)
        status = cmd_accuracy(argc - 1, argv + 1);
    else if (strcmp(sub, "eval") == 0)
        status = cmd_eval(argc - 1, argv + 1);
    else if (strcmp(sub, "report") == 0)
        status = cmd_report(argc - 1, argv + 1);
    else if (strcmp(sub, "merge") == 0)
        status = cmd_merge(argc - 1, argv + 1);
    else if (strcmp(sub, "hard-cases") == 0)
        status = cmd_hard_cases(argc - 1, argv + 1);
    else if (strcmp(sub, "bench") == 0)
        status = cmd_bench(argc - 1, argv + 1);
    else if (strcmp(sub, "targets") == 0)
        status = cmd_targets(argc - 1, argv + 1);
    else if (strcmp(sub, "gate") == 0)
        status = cmd_gate(argc - 1, argv + 1);
    else if (strcmp(sub, "--version") == 0 && argc > 2) {
        fail_early("--version takes no arguments");
        status = EXIT_USAGE;
    } else if (strcmp(sub, "--version") == 0) { /* what a bug report or a CI log should name */
        cJSON *env = ulpb_environment_json();
        printf("ulpbench %s\n", cJSON_GetObjectItem(env, "ulpbench")->valuestring);
        cJSON_Delete(env);
        environment_line(stdout);
        status = 0;
    } else {
        fail_early("unknown command '%s' (try 'ulpbench --help')", sub);
        status = EXIT_USAGE;
    }
    free(command);
    free(g_dropped);
    for (int i = 0; i < g_env_count; i++) free(env_words[i]);
    status = checked_exit_status(status);
    ulpb_note_ending(status);
    return status;
}
