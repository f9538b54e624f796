/* A/B throughput of two builds of libomk in one process: both shared libraries are loaded with dlopen and
 * timed alternately, round after round, on the same inputs, so that the machine's drift between processes
 * (up to 2x on shared machines) cancels out of the ratio. For comparing a change against the previous commit:
 *
 *   omk_ab OLD/libomk.so NEW/libomk.so cos f64 [--range LO,HI] [--nan-every K] [--rounds N] [--seed S]
 *
 * (f16, bf16, f32, f64.) Inputs: 32 blocks of 4096 elements, uniform in [LO, HI] (default [-pi, pi] for cos, [-1, 1]
 * for asin) from a fixed seed, every K-th one replaced by a NaN of either sign, quiet or signalling, with a payload
 * from the seed (tensors padded or masked with NaN); one round calls each library once per block, in alternating order.
 * Prints the median ns per element of each, the median of the per-round time ratios B/A with P10 and P90, and how many
 * outputs differ. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../accuracy/visible_text.h"
#include "quantile.h"

enum { BLOCKS = 32, BLOCK = 4096, MAX_ROUNDS = 10000 }; /* as ulpbench bench */

typedef void (*kernel_f64)(const double *, double *, size_t);
typedef void (*kernel_f32)(const float *, float *, size_t);
typedef void (*kernel_16)(const uint16_t *, uint16_t *, size_t);

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t splitmix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* s for a message: control characters (from arguments or the environment) as '?', at most size - 1 bytes */
static const char *printable(const char *s, char *buf, size_t size) {
    size_t n = 0;
    for (; *s && n + 1 < size; n++) {
        const size_t control = ulpb_control_length(s);
        buf[n] = control ? '?' : *s;
        s += control ? control : 1;
    }
    buf[n] = 0;
    return buf;
}

/* A count in decimal digits alone: strtol and strtoull would take leading blanks and signs (" -1" as 2^64 - 1). */
static int parse_count(const char *text, unsigned long long *out) {
    char *end;
    errno = 0;
    *out = strtoull(text, &end, 10);
    return !(*text >= '0' && *text <= '9') || errno || *end;
}

/* Everything printed goes to stdout; a full disk or closed pipe must not pass for a finished run. */
static int finish_stdout(void) {
    if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
    fprintf(stderr, "omk_ab: cannot write the results to standard output: %s\n", strerror(errno));
    return 2;
}

static void print_usage(FILE *to) {
    fprintf(to,
            "usage: omk_ab LIB_A LIB_B OP DTYPE [--range LO,HI] [--nan-every K] [--rounds N] [--seed S]\n"
            "  times two libomk builds alternately on the same inputs (32 blocks of 4096 elements) and prints\n"
            "  each one's median ns/element, the median per-round time ratio B/A (P10, P90) and how many outputs\n"
            "  differ. OP: cos or asin; DTYPE: f16, bf16, f32 or f64; N: 1..%d rounds (default 41); LO,HI: the input\n"
            "  range (default [-pi, pi] for cos, [-1, 1] for asin); K: every K-th input a NaN (1..%d; payload, sign\n"
            "  and quietness from the seed). OMK_ISA and OMK_HALF16 select the build and 16-bit method of both\n"
            "  (refused when a library would not run them); each one's is printed.\n",
            MAX_ROUNDS, BLOCKS * BLOCK);
}

/* One line on stderr, as ulpbench's errors. */
static int usage(const char *why) {
    fprintf(stderr, "omk_ab: %s (omk_ab --help for usage)\n", why);
    return 2;
}

/* A finite number: strtod's ERANGE is taken for an underflow to a subnormal (a bound such as 1e-320), refused for an
 * overflow and for an underflow to zero (1e-400 would time [0, HI] under the label [1e-400, HI]). */
static int parse_double(const char *text, double *out) {
    if (isspace((unsigned char)*text)) return 1; /* strtod skips blanks and newlines, which the label would print */
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    return (errno && !(errno == ERANGE && fabs(*out) <= DBL_MIN && *out != 0)) || end == text || *end ||
           !isfinite(*out);
}

/* One call of kernel fn (elements of elem bytes: 8 binary64, 4 binary32, 2 the 16-bit types). */
static void call(void *fn, size_t elem, const void *in, void *out, size_t n) {
    if (elem == 8)
        ((kernel_f64)fn)(in, out, n);
    else if (elem == 4)
        ((kernel_f32)fn)(in, out, n);
    else
        ((kernel_16)fn)(in, out, n);
}

/* One pass over the blocks with kernel fn; returns seconds. */
static double time_pass(void *fn, size_t elem, const unsigned char *in, void *out) {
    const double start = now_seconds();
    for (int b = 0; b < BLOCKS; b++) call(fn, elem, in + (size_t)b * BLOCK * elem, out, BLOCK);
    return now_seconds() - start;
}

/* omk's kernels, and their element sizes. */
static const struct {
    const char *op, *dtype;
    size_t bytes;
} kernels[] = {
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) {#op, #dtype, sizeof(ctype)},
#include "omk_kernels.def"
#undef OMK_KERNEL
};

int main(int argc, char **argv) {
    /* help where an argument or an option's name stands, not as an option's value (--seed -h) */
    for (int i = 1; i < argc; i++)
        if ((i < 5 || (i - 5) % 2 == 0) && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))) {
            print_usage(stdout);
            return finish_stdout();
        }
    for (int i = 1; i < argc && i < 5; i++)
        if (!strncmp(argv[i], "--", 2)) return usage("options come after LIB_A LIB_B OP DTYPE");
    if (argc < 5) return usage("needs two libraries, an op and a dtype");
    const char *op = argv[3], *dtype = argv[4];
    size_t elem = 0;
    for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++)
        if (!strcmp(op, kernels[k].op) && !strcmp(dtype, kernels[k].dtype)) elem = kernels[k].bytes;
    if (!elem) return usage("OP DTYPE must name one of omk's kernels (omk_kernels.def)");
    double lo = strcmp(op, "cos") ? -1.0 : -3.141592653589793, hi = -lo;
    long rounds = 41;
    unsigned long long seed = 20261130;
    long nan_every = 0;            /* 0: no NaN inputs */
    const char *range_text = NULL; /* --range as given, for the label (%g would print 1,1.0000001 as [1, 1]) */
    for (int i = 5; i < argc; i++) {
        const char *option = argv[i];
        char why[160];
        if (strcmp(option, "--range") && strcmp(option, "--nan-every") && strcmp(option, "--rounds") &&
            strcmp(option, "--seed")) {
            char shown[61];
            snprintf(why, sizeof why, "unknown option '%s': options are --range, --nan-every, --rounds and --seed",
                     printable(option, shown, sizeof shown));
            return usage(why);
        }
        if (i + 1 >= argc) {
            snprintf(why, sizeof why, "%s needs a value", option);
            return usage(why);
        }
        for (int j = 5; j < i; j += 2) /* options come in pairs: a second value would silently replace the first */
            if (!strcmp(argv[j], option)) {
                snprintf(why, sizeof why, "%s given twice", option);
                return usage(why);
            }
        const char *value = argv[++i];
        if (!strcmp(option, "--range")) {
            const char *comma = strchr(value, ',');
            char first[64];
            if (!comma || (size_t)(comma - value) >= sizeof first) return usage("--range needs LO,HI");
            memcpy(first, value, (size_t)(comma - value));
            first[comma - value] = 0;
            if (parse_double(first, &lo) || parse_double(comma + 1, &hi) || !(lo < hi) || !isfinite(hi - lo))
                return usage("--range needs two finite numbers LO < HI whose difference is finite");
            range_text = value;
            /* inputs are drawn in binary64 and rounded to the dtype: beyond its largest finite value they are inf */
            const double largest = elem == 8                      ? DBL_MAX
                                   : elem == 4                    ? FLT_MAX
                                   : elem == 2 && dtype[0] == 'b' ? 0x1.fep127
                                                                  : 65504.0;
            if (fabs(lo) > largest || fabs(hi) > largest) {
                char shown[61];
                snprintf(why, sizeof why, "--range %s leaves %s's finite range (largest %g)",
                         printable(value, shown, sizeof shown), dtype, largest);
                return usage(why);
            }
        } else if (!strcmp(option, "--nan-every")) {
            unsigned long long count;
            if (parse_count(value, &count) || count < 1 || count > BLOCKS * BLOCK) return usage("bad --nan-every");
            nan_every = (long)count;
        } else if (!strcmp(option, "--rounds")) {
            unsigned long long count;
            if (parse_count(value, &count) || count < 1 || count > MAX_ROUNDS) return usage("bad --rounds");
            rounds = (long)count;
        } else if (parse_count(value, &seed)) {
            return usage("bad --seed");
        }
    }
    char symbol[32];
    snprintf(symbol, sizeof symbol, "omk_%s_%s", op, dtype);
    void *fn[2], *handle[2];
    char lib_shown[2][256]; /* the paths as messages print them */
    for (int k = 0; k < 2; k++) printable(argv[1 + k], lib_shown[k], sizeof lib_shown[k]);
    for (int k = 0; k < 2; k++) {
        /* a name without '/' would be searched in the system's library path, not taken as this file */
        if (!strchr(argv[1 + k], '/')) {
            fprintf(stderr, "omk_ab: give a path with a '/' (./libomk.so), not '%s'\n", lib_shown[k]);
            return 2;
        }
        void *lib = handle[k] = dlopen(argv[1 + k], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            char reason[512];
            fprintf(stderr, "omk_ab: cannot load %s: %s\n", lib_shown[k], printable(dlerror(), reason, sizeof reason));
            return 2;
        }
        fn[k] = dlsym(lib, symbol);
        if (!fn[k]) {
            fprintf(stderr, "omk_ab: %s has no %s\n", lib_shown[k], symbol);
            return 2;
        }
    }

    /* libomk takes an OMK_ISA it cannot run, or an OMK_HALF16 it does not know, for its default: a typo would time the
     * default path and pass for the one asked for */
    const char *forced_isa = getenv("OMK_ISA"), *forced_half16 = getenv("OMK_HALF16");
    if (forced_isa && !*forced_isa) forced_isa = NULL; /* empty: no choice, for libomk too */
    if (forced_half16 && !*forced_half16) forced_half16 = NULL;
    char isa_shown[64] = "", half16_shown[64] = "";
    if (forced_isa) printable(forced_isa, isa_shown, sizeof isa_shown);
    if (forced_half16) printable(forced_half16, half16_shown, sizeof half16_shown);
    if (forced_half16 && strcmp(forced_half16, "table") && strcmp(forced_half16, "compute")) {
        fprintf(stderr, "omk_ab: OMK_HALF16=%s is no 16-bit method (table or compute)\n", half16_shown);
        return 2;
    }
    const char *isa[2], *half16[2];
    for (int k = 0; k < 2; k++) {
        const char *(*isa_in_use)(void), *(*half16_method)(void);
        *(void **)&isa_in_use = dlsym(handle[k], "omk_isa_in_use");
        *(void **)&half16_method = dlsym(handle[k], "omk_half16_method"); /* absent before omk 0.2 */
        isa[k] = isa_in_use ? isa_in_use() : "unknown";
        half16[k] = half16_method ? half16_method() : "unknown";
        if (forced_isa && strcmp(forced_isa, isa[k])) {
            fprintf(stderr, "omk_ab: OMK_ISA=%s is no build %s runs on this CPU (it runs %s)\n", isa_shown,
                    lib_shown[k], isa[k]);
            return 2;
        }
        if (elem == 2 && forced_half16 && half16_method && strcmp(forced_half16, half16[k])) {
            fprintf(stderr, "omk_ab: OMK_HALF16=%s needs omk's avx512 build; %s runs the %s build's %s\n", half16_shown,
                    lib_shown[k], isa[k], half16[k]);
            return 2;
        }
    }
    if (handle[0] == handle[1]) fprintf(stderr, "omk_ab: both paths load the same library; A and B are one build\n");
    /* the AVX-512 build's default 16-bit method depends on the CPU, and changed with omk's versions */
    if (elem == 2 && strcmp(half16[0], half16[1]))
        fprintf(stderr, "omk_ab: A runs the 16-bit method %s and B %s: set OMK_HALF16 to time one method's code\n",
                half16[0], half16[1]);
    /* 16-bit inputs: the binary32 value narrowed by library A's own conversion */
    uint16_t (*narrow)(float) = NULL;
    if (elem == 2) {
        *(void **)&narrow = dlsym(handle[0], strcmp(dtype, "f16") ? "omk_f32_to_bf16" : "omk_f32_to_f16");
        if (!narrow) {
            fprintf(stderr, "omk_ab: %s has no conversion to %s\n", lib_shown[0], dtype);
            return 2;
        }
    }
    const size_t total = (size_t)BLOCKS * BLOCK;
    unsigned char *in = malloc(total * elem), *out_a = malloc(BLOCK * elem), *out_b = malloc(BLOCK * elem);
    double *seconds = malloc(3 * (size_t)rounds * sizeof *seconds);
    if (!in || !out_a || !out_b || !seconds) {
        fprintf(stderr, "omk_ab: out of memory\n");
        free(in), free(out_a), free(out_b), free(seconds);
        return 1;
    }
    for (size_t i = 0; i < total; i++) {
        const double u = (double)(splitmix64(seed + i) >> 11) * 0x1p-53, v = lo + (hi - lo) * u;
        if (elem == 8)
            ((double *)in)[i] = v;
        else if (elem == 4)
            ((float *)in)[i] = (float)v;
        else
            ((uint16_t *)(void *)in)[i] = narrow((float)v);
    }
    /* inputs rounded to the dtype: a range that holds one value (zeros of either sign count as one) would time that
     * value under the range's name */
    const uint64_t magnitude = elem == 8 ? ~0ull >> 1 : (1ull << (8 * elem - 1)) - 1;
    uint64_t first_bits = 0;
    memcpy(&first_bits, in, elem);
    size_t other = 1;
    for (; other < total; other++) {
        uint64_t bits = 0;
        memcpy(&bits, in + other * elem, elem);
        if (bits != first_bits && ((bits | first_bits) & magnitude)) break;
    }
    if (other == total) {
        fprintf(stderr, "omk_ab: --range %s holds a single %s value: every input would be the same\n", range_text,
                dtype);
        free(in), free(out_a), free(out_b), free(seconds);
        return 2;
    }
    if (nan_every) /* after the check above, which the NaNs would pass */
        for (size_t i = nan_every - 1; i < total; i += (size_t)nan_every) {
            const uint64_t h = splitmix64(~seed - i);
            const unsigned bits = 8 * (unsigned)elem, mant_bits = elem == 8         ? 52
                                                                  : elem == 4       ? 23
                                                                  : dtype[0] == 'b' ? 7
                                                                                    : 10;
            const uint64_t mant = (h & ((1ull << mant_bits) - 1)) | 1; /* nonzero; the top bit says quiet */
            const uint64_t nan = (h >> 63) << (bits - 1) | (((1ull << (bits - 1 - mant_bits)) - 1) << mant_bits) | mant;
            memcpy(in + i * elem, &nan, elem); /* little-endian: the low bytes */
        }
    /* how many outputs differ, over every block */
    size_t differ = 0;
    for (int b = 0; b < BLOCKS; b++) {
        const unsigned char *block = in + (size_t)b * BLOCK * elem;
        call(fn[0], elem, block, out_a, BLOCK);
        call(fn[1], elem, block, out_b, BLOCK);
        for (size_t i = 0; i < BLOCK; i++) differ += memcmp(out_a + i * elem, out_b + i * elem, elem) != 0;
    }

    double *time_a = seconds, *time_b = seconds + rounds, *ratio = seconds + 2 * rounds;
    for (long r = 0; r < rounds; r++) {
        const int first = (int)(r & 1); /* alternate which library runs first */
        for (int k = 0; k < 2; k++) {
            const int which = k ^ first;
            const double t = time_pass(fn[which], elem, in, which ? out_b : out_a);
            (which ? time_b : time_a)[r] = t;
        }
        ratio[r] = time_b[r] / time_a[r];
    }
    if (range_text) {
        const char *comma = strchr(range_text, ',');
        printf("%s %s on [%.*s, %s]", op, dtype, (int)(comma - range_text), range_text, comma + 1);
    } else {
        printf("%s %s on [%g, %g]", op, dtype, lo, hi);
    }
    if (nan_every == 1) printf(", every input a NaN");
    if (nan_every > 1) printf(", one input in %ld a NaN", nan_every);
    printf(", %d blocks of %d, %ld rounds, seed %llu\n", BLOCKS, BLOCK, rounds, seed);
    for (int k = 0; k < 2; k++)
        printf("%c runs the %s build%s%s\n", "AB"[k], isa[k], elem == 2 ? ", 16-bit types: " : "",
               elem == 2 ? half16[k] : "");
    const int n = (int)rounds; /* the same interpolated quantiles as ulpbench bench */
    printf("A %s: %.3f ns/element (median)\nB %s: %.3f ns/element (median)\n", lib_shown[0],
           ulpb_quantile(time_a, n, 0.5) / (double)total * 1e9, lib_shown[1],
           ulpb_quantile(time_b, n, 0.5) / (double)total * 1e9);
    printf("time B/A, median of the per-round ratios: %.3f (P10 %.3f, P90 %.3f)\n", ulpb_quantile(ratio, n, 0.5),
           ulpb_quantile(ratio, n, 0.1), ulpb_quantile(ratio, n, 0.9));
    printf("outputs that differ: %zu of %zu\n", differ, total);
    free(in), free(out_a), free(out_b), free(seconds);
    return finish_stdout();
}
