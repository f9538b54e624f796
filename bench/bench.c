#define _GNU_SOURCE
#include "bench.h"

#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fp_controls.h"
#include "omk.h"
#include "quantile.h"
#include "result_io.h"

/* ---- sizes, rounds and inputs -------------------------------------------------------------- */

const size_t ulpb_bench_default_sizes[] = {4096, 16777216};
const int ulpb_bench_default_size_count = sizeof ulpb_bench_default_sizes / sizeof ulpb_bench_default_sizes[0];

size_t ulpb_bench_blocks(size_t size, size_t element_bytes) {
    size_t blocks = size ? ULPB_BENCH_ROUND_ELEMENTS / size : 1;
    if (size && element_bytes && blocks > ULPB_BENCH_ROUND_BYTES / (size * element_bytes))
        blocks = ULPB_BENCH_ROUND_BYTES / (size * element_bytes);
    return blocks < 1 ? 1 : blocks;
}

uint64_t ulpb_bench_elements_per_round(size_t size, size_t element_bytes) {
    return (uint64_t)ulpb_bench_blocks(size, element_bytes) * size;
}

int ulpb_bench_rounds(size_t size, int rounds) {
    if (size < ULPB_BENCH_LARGE_SIZE) return rounds;
    /* a memory-bound pass is long (16 Mi elements against 128 Ki), but P10 and P90 need some rounds */
    const int fewer = (rounds / 4) | 1;
    return fewer >= 5 ? fewer : rounds < 5 ? rounds : 5;
}

static uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t name_hash(const char *s) {
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The input sets a run times: the spec's own, or the registry's. */
static const ulpb_input_set *spec_input_sets(const ulpb_bench_spec *spec, size_t *count) {
    if (spec->input_sets) {
        *count = spec->input_set_count;
        return spec->input_sets;
    }
    *count = ulpb_input_set_count;
    return ulpb_input_sets;
}

/* x rounded to nearest in the dtype, as bits. */
static uint64_t dtype_bits(double x, ulpb_dtype_id dtype) {
    switch (dtype) {
    case ULPB_DTYPE_f16:
        return omk_f32_to_f16((float)x);
    case ULPB_DTYPE_bf16:
        return omk_f32_to_bf16((float)x);
    case ULPB_DTYPE_f32: {
        const float f = (float)x;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        return u;
    }
    case ULPB_DTYPE_f64: {
        uint64_t u;
        memcpy(&u, &x, sizeof u);
        return u;
    }
    case ULPB_DTYPE_COUNT: /* no default: a new dtype must say how it rounds (-Wswitch) */
        break;
    }
    abort();
}

/* The value of a dtype's bits: the reference's decoding. */
static double dtype_value(uint64_t bits, ulpb_dtype_id dtype) { return ref_decode(&ulpb_dtypes[dtype].format, bits); }

/* The next finite value of the dtype up (+1) or down (-1) from a finite one, in sign-magnitude order. */
static uint64_t dtype_step(uint64_t bits, int up, ulpb_dtype_id dtype) {
    const uint64_t sign = 1ull << (8 * ulpb_dtypes[dtype].bytes - 1);
    if ((bits & ~sign) == 0) return up > 0 ? 1 : sign | 1; /* from either zero to the smallest subnormal */
    return ((bits & sign) != 0) == (up > 0) ? bits - 1 : bits + 1;
}

bool ulpb_bench_range_ends(double lo, double hi, ulpb_dtype_id dtype, uint64_t *lo_bits, uint64_t *hi_bits) {
    uint64_t a = dtype_bits(lo, dtype), b = dtype_bits(hi, dtype);
    if (dtype_value(a, dtype) < lo) a = dtype_step(a, +1, dtype);
    if (dtype_value(b, dtype) > hi) b = dtype_step(b, -1, dtype);
    *lo_bits = a, *hi_bits = b;
    return dtype_value(a, dtype) < dtype_value(b, dtype); /* -0 and +0 are one value */
}

void ulpb_bench_inputs(const ulpb_input_set *set, ulpb_dtype_id dtype, uint64_t seed, uint64_t first, void *out,
                       size_t n) {
    const uint64_t stream = splitmix64(seed ^ name_hash(set->name));
    if (set->values) { /* a user's elements, drawn with replacement: their distribution, in blocks that differ */
        const size_t bytes = ulpb_dtypes[dtype].bytes;
        for (size_t i = 0; i < n; i++)
            memcpy((char *)out + i * bytes,
                   (const char *)set->values + (splitmix64(stream + first + i) % set->value_count) * bytes, bytes);
        return;
    }
    const double span = set->hi - set->lo;
    /* a value that rounds past a bound is replaced by the dtype's value nearest to it inside the set */
    uint64_t lo_bits, hi_bits;
    ulpb_bench_range_ends(set->lo, set->hi, dtype, &lo_bits, &hi_bits);
    for (size_t i = 0; i < n; i++) {
        const double u = (double)(splitmix64(stream + first + i) >> 11) * 0x1p-53;
        /* a span beyond binary64's range (--range -1e308,1e308) is taken in halves, which cannot overflow; finite spans
         * keep the plain formula, and with it the inputs of every run before */
        const double x = isfinite(span) ? set->lo + span * u
                                        : fmin(2.0 * (0.5 * set->lo + (0.5 * set->hi - 0.5 * set->lo) * u), set->hi);
        uint64_t bits = dtype_bits(x, dtype);
        const double rounded = dtype_value(bits, dtype);
        if (rounded < set->lo) bits = lo_bits;
        if (rounded > set->hi) bits = hi_bits;
        switch (ulpb_dtypes[dtype].bytes) {
        case 2:
            ((uint16_t *)out)[i] = (uint16_t)bits;
            break;
        case 4:
            ((uint32_t *)out)[i] = (uint32_t)bits;
            break;
        default:
            ((uint64_t *)out)[i] = bits;
            break;
        }
    }
}

bool ulpb_bench_selects(const ulpb_bench_spec *spec, const ulpb_entry *e) {
    if (!(spec->op_mask & (1u << e->op)) || !(spec->dtype_mask & (1u << e->dtype))) return false;
    if (spec->impl_count == 0) return true;
    for (int i = 0; i < spec->impl_count; i++)
        if (strcmp(spec->impls[i], e->impl) == 0) return true;
    return false;
}

/* ---- statistics ---------------------------------------------------------------------------- */

/* ---- timing -------------------------------------------------------------------------------- */

static double elapsed_ns(clockid_t clock, const struct timespec *t0) {
    struct timespec t1;
    clock_gettime(clock, &t1);
    return 1e9 * (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec);
}

static double monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return 1e9 * (double)now.tv_sec + (double)now.tv_nsec;
}

static ulpb_bench_wall_clock_fn *wall_clock = monotonic_ns;

void ulpb_bench_set_wall_clock(ulpb_bench_wall_clock_fn *clock) { wall_clock = clock ? clock : monotonic_ns; }

/* One call per block, the clocks read around the whole pass rather than each call, so their own
 * cost stays far below the time measured even for memcpy of a 4 Ki block. */
ulpb_bench_sample ulpb_bench_time_pass(ulpb_kernel_fn fn, size_t element_bytes, const void *in, void *out, size_t size,
                                       size_t blocks) {
    const unsigned char *block = in;
    ulpb_bench_sample s = {0, 0, 0, 0};
    struct timespec cpu0;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
    const double wall0 = wall_clock();
    for (size_t b = 0; b < blocks; b++) {
        fn(block + b * size * element_bytes, out, size);
        s.calls++;
        s.elements += size;
    }
    s.wall_ns = wall_clock() - wall0;
    s.cpu_ns = elapsed_ns(CLOCK_THREAD_CPUTIME_ID, &cpu0);
    return s;
}

/* The thread CPU clock, unlike the monotonic one, is a system call: a pass's CPU time includes the end of its first
 * read and the start of its second, about 1.4 us per pass on AMD Zen 5 (a fifth of a memcpy pass of 32 blocks of
 * 4 Ki floats). That share is measured on empty passes (the median of 63) and taken off every pass's CPU time. */
static double cpu_clock_overhead_ns(void) {
    enum { TRIALS = 63 };
    double cost[TRIALS];
    for (int i = 0; i < TRIALS; i++) cost[i] = ulpb_bench_time_pass(NULL, 0, NULL, NULL, 0, 0).cpu_ns;
    return ulpb_quantile(cost, TRIALS, 0.5);
}

/* Fisher-Yates: a permutation of 0..count-1 drawn from `stream`. */
static void shuffled_indices(uint64_t stream, int count, int *out) {
    for (int p = 0; p < count; p++) out[p] = p;
    for (int p = count - 1; p > 0; p--) {
        const int q = (int)(splitmix64(stream + (uint64_t)p) % (uint64_t)(p + 1));
        const int swap = out[p];
        out[p] = out[q], out[q] = swap;
    }
}

int ulpb_bench_order_cycle(int count) { return count % 2 ? 2 * count : count; }

/* The member at `position` in row `row` of a Williams design for `count` members: row r is r + (0, 1, -1, 2, -2, ...)
 * mod count, a Latin square in which each member directly follows every other one once; an odd count needs the rows
 * mirrored as well (rows count..2 count - 1) for that. */
static int williams_member(int count, int row, int position) {
    const int p = row >= count ? count - 1 - position : position;
    const int offset = p % 2 ? (p + 1) / 2 : count - p / 2;
    return (row % count + offset) % count;
}

void ulpb_bench_round_order(uint64_t stream, int round, int count, int *order) {
    if (count <= 0) return;
    const int cycle = ulpb_bench_order_cycle(count);
    int label[ULPB_BENCH_MAX_GROUP], rows[2 * ULPB_BENCH_MAX_GROUP];
    shuffled_indices(splitmix64(stream), count, label);
    shuffled_indices(splitmix64(stream ^ (0x9e3779b97f4a7c15u * (uint64_t)(round / cycle + 1))), cycle, rows);
    const int row = rows[round % cycle];
    for (int p = 0; p < count; p++) order[p] = label[williams_member(count, row, p)];
}

typedef struct {
    const ulpb_entry *members[ULPB_BENCH_MAX_GROUP];
    int count;
    const ulpb_input_set *inputs;
    size_t size;
} group;

/* Times one group: a warm-up pass, then `rounds` rounds in which every member makes one pass, in the balanced order
 * of ulpb_bench_round_order: with a fixed cycle each member would always follow the same one (omk memcpy, whose
 * non-temporal stores at 16 Mi leave no dirty lines to write back) and inherit its state, and with a fresh shuffle per
 * round the positions and predecessors of a few dozen rounds are uneven by chance. Fills count results. */
static int time_group(const group *g, int rounds, uint64_t seed, ulpb_bench_result *results, int first, char *err,
                      size_t err_len) {
    const ulpb_dtype_id dtype = g->members[0]->dtype;
    const size_t bytes = ulpb_dtypes[dtype].bytes, blocks = ulpb_bench_blocks(g->size, bytes);
    const size_t in_bytes = blocks * g->size * bytes, out_bytes = g->size * bytes;
    /* aligned_alloc wants a multiple of the alignment */
    unsigned char *in = aligned_alloc(64, (in_bytes + 63) & ~(size_t)63);
    unsigned char *out = aligned_alloc(64, (out_bytes + 63) & ~(size_t)63);
    double *wall = malloc(sizeof *wall * (size_t)(g->count * rounds));
    double *cpu = malloc(sizeof *cpu * (size_t)(g->count * rounds));
    double *tmp = malloc(sizeof *tmp * (size_t)rounds);
    if (!in || !out || !wall || !cpu || !tmp) {
        snprintf(err, err_len, "out of memory for %zu-element blocks", g->size);
        free(in), free(out), free(wall), free(cpu), free(tmp);
        return -1;
    }
    ulpb_bench_inputs(g->inputs, dtype, seed, 0, in, blocks * g->size);
    memset(out, 0, out_bytes); /* fault the pages in before anything is timed */

    /* Warm-up: code, caches, and the vector units' power state. Large sizes warm up on a prefix. */
    const size_t warm_size = g->size < ULPB_BENCH_ROUND_ELEMENTS ? g->size : ULPB_BENCH_ROUND_ELEMENTS;
    const ulpb_fp_controls controls = ulpb_fp_controls_now();
    for (int m = 0; m < g->count; m++) {
        ulpb_kernel_running(g->members[m], warm_size, blocks);
        ulpb_bench_time_pass(g->members[m]->fn, bytes, in, out, warm_size, blocks);
        ulpb_kernel_running(NULL, 0, 0);
        if (!ulpb_kernel_kept_controls(g->members[m], controls, NULL, err, err_len)) {
            free(in), free(out), free(wall), free(cpu), free(tmp);
            return -1;
        }
    }

    const double clock_overhead = cpu_clock_overhead_ns();
    uint64_t calls = 0, elements = 0;
    const uint64_t order_stream = splitmix64(seed ^ name_hash(g->inputs->name) ^ ((uint64_t)g->size << 20) ^
                                             name_hash(g->members[0]->impl) ^ (uint64_t)dtype);
    for (int r = 0; r < rounds; r++) {
        int order[ULPB_BENCH_MAX_GROUP];
        ulpb_bench_round_order(order_stream, r, g->count, order);
        for (int p = 0; p < g->count; p++) {
            const int m = order[p];
            ulpb_kernel_running(g->members[m], g->size, blocks);
            const ulpb_bench_sample s = ulpb_bench_time_pass(g->members[m]->fn, bytes, in, out, g->size, blocks);
            ulpb_kernel_running(NULL, 0, 0);
            if (!ulpb_kernel_kept_controls(g->members[m], controls, NULL, err, err_len)) {
                free(in), free(out), free(wall), free(cpu), free(tmp);
                return -1;
            }
            wall[m * rounds + r] = s.wall_ns / (double)s.elements;
            /* a thread's CPU time cannot exceed the wall time; what the clock's own cost leaves above it is taken off
             */
            cpu[m * rounds + r] = fmin(fmax(s.cpu_ns - clock_overhead, 0.0), s.wall_ns) / (double)s.elements;
            calls = s.calls;
            elements = s.elements;
        }
    }

    for (int m = 0; m < g->count; m++) {
        ulpb_bench_result *res = &results[first + m];
        memset(res, 0, sizeof *res);
        res->entry = g->members[m];
        res->inputs = g->inputs;
        res->size = g->size;
        res->rounds = rounds;
        res->calls_per_round = calls;
        res->elements_per_round = elements;
        res->group_first = first;
        res->group_count = g->count;
        memcpy(tmp, &cpu[m * rounds], sizeof *tmp * (size_t)rounds);
        res->cpu_ns_per_element = ulpb_quantile(tmp, rounds, 0.5);
        memcpy(tmp, &wall[m * rounds], sizeof *tmp * (size_t)rounds);
        res->ns_per_element = ulpb_quantile(tmp, rounds, 0.5);
        const double p10 = ulpb_quantile(tmp, rounds, 0.1), p90 = ulpb_quantile(tmp, rounds, 0.9);
        res->spread = res->ns_per_element > 0 ? (p90 - p10) / res->ns_per_element : 0.0;
        for (int k = 0; k < g->count; k++) res->ratio[k] = ulpb_bench_round_ratio(wall, rounds, m, k, tmp);
    }
    free(in), free(out), free(wall), free(cpu), free(tmp);
    return 0;
}

double ulpb_bench_round_ratio(const double *wall_ns, int rounds, int m, int k, double *scratch) {
    for (int r = 0; r < rounds; r++) scratch[r] = wall_ns[k * rounds + r] / wall_ns[m * rounds + r];
    return ulpb_quantile(scratch, rounds, 0.5);
}

/* The available selected entries of (op, dtype), in registry order; stores the first
 * ULPB_BENCH_MAX_GROUP and returns how many there are. */
static int members_of(const ulpb_bench_spec *spec, int op, int dtype, const ulpb_entry **members) {
    int count = 0;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if (e->op != (ulpb_op_id)op || e->dtype != (ulpb_dtype_id)dtype || !ulpb_bench_selects(spec, e) ||
            !ulpb_entry_available(e))
            continue;
        if (count < ULPB_BENCH_MAX_GROUP) members[count] = e;
        count++;
    }
    return count;
}

int ulpb_bench_run(const ulpb_bench_spec *spec, ulpb_bench_result **results, char *err, size_t err_len) {
    size_t set_count;
    const ulpb_input_set *sets = spec_input_sets(spec, &set_count);
    *results = NULL;
    if (spec->size_count < 1 || spec->rounds < 1) {
        snprintf(err, err_len, "need at least one size and one round");
        return -1;
    }
    for (int s = 0; s < spec->size_count; s++) {
        if (spec->sizes[s] < 1 || spec->sizes[s] > ULPB_BENCH_MAX_SIZE) {
            snprintf(err, err_len, "size %zu is outside 1..%zu", spec->sizes[s], ULPB_BENCH_MAX_SIZE);
            return -1;
        }
    }
    /* count first: the progress lines say "k/total" */
    int total_groups = 0, total_results = 0;
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
            const ulpb_entry *members[ULPB_BENCH_MAX_GROUP];
            const int n = members_of(spec, op, d, members);
            if (n > ULPB_BENCH_MAX_GROUP) {
                snprintf(err, err_len, "%d implementations of %s %s; raise ULPB_BENCH_MAX_GROUP", n, ulpb_ops[op].name,
                         ulpb_dtypes[d].name);
                return -1;
            }
            for (size_t k = 0; n && k < set_count; k++) {
                if (sets[k].op != (ulpb_op_id)op) continue;
                total_groups += spec->size_count;
                total_results += n * spec->size_count;
            }
        }
    }
    if (total_results == 0) {
        snprintf(err, err_len, "no registry entry this CPU runs matches the selection (see ulpbench list)");
        return -1;
    }
    ulpb_bench_result *out = calloc((size_t)total_results, sizeof *out);
    if (!out) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int count = 0, done = 0;
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
            group g = {.count = 0};
            g.count = members_of(spec, op, d, g.members);
            if (!g.count) continue;
            for (int s = 0; s < spec->size_count; s++) {
                g.size = spec->sizes[s];
                const int rounds = ulpb_bench_rounds(g.size, spec->rounds);
                for (size_t k = 0; k < set_count; k++) {
                    if (sets[k].op != (ulpb_op_id)op) continue;
                    g.inputs = &sets[k];
                    if (spec->progress)
                        fprintf(stderr,
                                "[bench %d/%d] %s %s, %zu elements, %s: %d implementations x %d rounds (%.0fs)\n",
                                ++done, total_groups, ulpb_ops[op].name, ulpb_dtypes[d].name, g.size, g.inputs->label,
                                g.count, rounds, 1e-9 * elapsed_ns(CLOCK_MONOTONIC, &start));
                    if (time_group(&g, rounds, spec->seed, out, count, err, err_len)) {
                        free(out);
                        return -1;
                    }
                    count += g.count;
                }
            }
        }
    }
    *results = out;
    return count;
}

double ulpb_bench_ratio_to(const ulpb_bench_result *results, const ulpb_bench_result *r, const char *impl) {
    for (int k = 0; k < r->group_count; k++)
        if (strcmp(results[r->group_first + k].entry->impl, impl) == 0) return r->ratio[k];
    return NAN;
}

/* ---- Google Benchmark JSON ----------------------------------------------------------------- */

static void read_line(const char *path, char *buf, size_t len) {
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return;
    if (!fgets(buf, (int)len, f)) buf[0] = 0;
    buf[strcspn(buf, "\n")] = 0;
    fclose(f);
}

static double cpu_mhz(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    double mhz = 0;
    if (!f) return 0;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "cpu MHz", 7) == 0 && sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1) break;
    fclose(f);
    return mhz;
}

/* The CPUs this thread may run on, as ranges ("0", "0-1", "0,2-3"): a run pinned with taskset says so. */
static void cpu_affinity(char *buf, size_t len) {
    cpu_set_t set;
    buf[0] = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        snprintf(buf, len, "?");
        return;
    }
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) last++;
        const size_t used = strlen(buf);
        if (last == cpu)
            snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
        else
            snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", cpu, last);
        cpu = last;
    }
}

/* Google Benchmark's "caches": type, level, size in bytes, and how many CPUs share it. */
static cJSON *caches_json(void) {
    cJSON *caches = cJSON_CreateArray();
    for (int i = 0; i < 16; i++) {
        char dir[128], path[192], type[64], level[16], size[32], shared[256];
        snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
        snprintf(path, sizeof path, "%s/type", dir);
        read_line(path, type, sizeof type);
        if (!type[0]) break;
        snprintf(path, sizeof path, "%s/level", dir);
        read_line(path, level, sizeof level);
        snprintf(path, sizeof path, "%s/size", dir);
        read_line(path, size, sizeof size);
        snprintf(path, sizeof path, "%s/shared_cpu_list", dir);
        read_line(path, shared, sizeof shared);
        char *unit;
        double bytes = strtod(size, &unit);
        bytes *= *unit == 'K' ? 1024 : *unit == 'M' ? 1048576 : *unit == 'G' ? 1073741824 : 1;
        int sharing = 0; /* "0-3,8" counts 5 */
        for (char *p = shared; *p;) {
            char *end;
            const long a = strtol(p, &end, 10), b = *end == '-' ? strtol(end + 1, &end, 10) : a;
            sharing += (int)(b - a + 1);
            p = *end == ',' ? end + 1 : end + strlen(end);
        }
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "type", type);
        cJSON_AddNumberToObject(c, "level", atoi(level));
        cJSON_AddNumberToObject(c, "size", bytes);
        cJSON_AddNumberToObject(c, "num_sharing", sharing);
        cJSON_AddItemToArray(caches, c);
    }
    return caches;
}

static cJSON *context_json(const ulpb_bench_spec *spec, const ulpb_bench_info *info) {
    cJSON *ctx = cJSON_CreateObject();
    char buf[512];
    const time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    /* Google Benchmark writes the offset as +01:00; strftime gives +0100 */
    const size_t len = strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
    if (len > 2) {
        memmove(buf + len - 1, buf + len - 2, 3);
        buf[len - 2] = ':';
    }
    cJSON_AddStringToObject(ctx, "date", buf);
    if (gethostname(buf, sizeof buf) != 0) snprintf(buf, sizeof buf, "unknown");
    buf[sizeof buf - 1] = 0;
    cJSON_AddStringToObject(ctx, "host_name", buf);
    cJSON_AddStringToObject(ctx, "executable", info->executable ? info->executable : "ulpbench");
    cJSON_AddNumberToObject(ctx, "num_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddNumberToObject(ctx, "mhz_per_cpu", round(cpu_mhz()));
    cpu_affinity(buf, sizeof buf);
    cJSON_AddStringToObject(ctx, "cpu_affinity", buf);
    read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof buf);
    cJSON_AddBoolToObject(ctx, "cpu_scaling_enabled", buf[0] && strcmp(buf, "performance") != 0);
    cJSON_AddItemToObject(ctx, "caches", caches_json());
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) != 3) load[0] = load[1] = load[2] = 0;
    cJSON_AddItemToObject(ctx, "load_avg", cJSON_CreateDoubleArray(load, 3));
#ifdef NDEBUG
    cJSON_AddStringToObject(ctx, "library_build_type", "release");
#else
    cJSON_AddStringToObject(ctx, "library_build_type", "debug");
#endif
    cJSON_AddNumberToObject(ctx, "json_schema_version", 1);

    /* ulpbench's own fields */
    cJSON_AddStringToObject(ctx, "command", info->command ? info->command : "");
    cJSON *env = ulpb_environment_json();
    for (cJSON *item = env->child; item; item = item->next)
        cJSON_AddItemToObject(ctx, item->string, cJSON_Duplicate(item, true));
    cJSON_Delete(env);
    ulpb_json_add_count(ctx, "seed", spec->seed);
    cJSON_AddNumberToObject(ctx, "rounds", spec->rounds);
    ulpb_inputs_json(ctx, spec->inputs_file);
    cJSON *isas = cJSON_AddArrayToObject(ctx, "isa_available");
    for (int i = 0; i < ULPB_ISA_COUNT; i++)
        if (ulpb_isa_available((ulpb_isa)i)) cJSON_AddItemToArray(isas, cJSON_CreateString(ulpb_isa_name((ulpb_isa)i)));
    cJSON *skipped = cJSON_AddArrayToObject(ctx, "skipped");
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if (!ulpb_bench_selects(spec, e) || ulpb_entry_available(e)) continue;
        snprintf(buf, sizeof buf, "%s/%s/%s (needs %s)", ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name, e->impl,
                 ulpb_isa_name(e->isa));
        cJSON_AddItemToArray(skipped, cJSON_CreateString(buf));
    }
    cJSON_AddStringToObject(
        ctx, "timing",
        "real_time/cpu_time: median over rounds of ns per call of `size` elements (one iteration is one call; "
        "ns_per_element = real_time / size; cpu_time from the thread's CPU clock less its own reading cost, at most "
        "the wall time of each pass); the implementations run in a balanced order (a Williams design from the seed: "
        "over each cycle of rounds every one takes every position and follows every other one equally often); "
        "items_per_second: elements per second; spread: (P90 - P10) / median of the per-round times; ratio_to_X: "
        "median over rounds of this throughput / X's throughput in the same round (> 1: faster than X)");
    return ctx;
}

static int find_result(const ulpb_bench_result *results, int count, const ulpb_entry *e, size_t size,
                       const ulpb_input_set *inputs) {
    for (int i = 0; i < count; i++)
        if (results[i].entry == e && results[i].size == size && results[i].inputs == inputs) return i;
    return -1;
}

/* A row name's input set: a --range run's bounds (range:LO,HI) and a --inputs run's file (inputs: and the first 12
 * hex digits of its SHA-256), so that compare.py pairs two runs' rows only when they timed the same inputs. */
static void set_part_of_name(char *buf, size_t len, const ulpb_input_set *set, const ulpb_bench_spec *spec) {
    char lo[32], hi[32];
    if (strcmp(set->name, "range") == 0) {
        ulpb_shortest_decimal(lo, sizeof lo, set->lo);
        ulpb_shortest_decimal(hi, sizeof hi, set->hi);
        snprintf(buf, len, "range:%s,%s", lo, hi);
    } else if (strcmp(set->name, "inputs") == 0 && spec->inputs_file) {
        snprintf(buf, len, "inputs:%.12s", spec->inputs_file->sha256);
    } else {
        snprintf(buf, len, "%s", set->name);
    }
}

cJSON *ulpb_bench_json(const ulpb_bench_spec *spec, const ulpb_bench_info *info, const ulpb_bench_result *results,
                       int count) {
    size_t set_count;
    const ulpb_input_set *sets = spec_input_sets(spec, &set_count);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "context", context_json(spec, info));
    cJSON *benchmarks = cJSON_AddArrayToObject(doc, "benchmarks");
    /* A family is an (op, dtype, implementation), its instances the (size, input set) pairs, as
     * compare.py sorts them. */
    int family = 0;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        int instance = 0;
        for (int s = 0; s < spec->size_count; s++) {
            for (size_t k = 0; k < set_count; k++) {
                const int at = find_result(results, count, e, spec->sizes[s], &sets[k]);
                if (at < 0) continue;
                const ulpb_bench_result *r = &results[at];
                char set_part[80], run_name[192], name[208];
                set_part_of_name(set_part, sizeof set_part, r->inputs, spec);
                snprintf(run_name, sizeof run_name, "%s/%s/%s/%zu/%s", ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name,
                         e->impl, r->size, set_part);
                snprintf(name, sizeof name, "%s_median", run_name);
                cJSON *b = cJSON_CreateObject();
                cJSON_AddStringToObject(b, "name", name);
                cJSON_AddNumberToObject(b, "family_index", family);
                cJSON_AddNumberToObject(b, "per_family_instance_index", instance++);
                cJSON_AddStringToObject(b, "run_name", run_name);
                cJSON_AddStringToObject(b, "run_type", "aggregate");
                cJSON_AddNumberToObject(b, "repetitions", r->rounds);
                cJSON_AddNumberToObject(b, "threads", 1);
                cJSON_AddStringToObject(b, "aggregate_name", "median");
                cJSON_AddStringToObject(b, "aggregate_unit", "time");
                /* as Google Benchmark's aggregates: the iterations (calls) of one repetition (round) */
                ulpb_json_add_count(b, "iterations", r->calls_per_round);
                ulpb_json_add_exact(b, "real_time", r->ns_per_element * (double)r->size);
                ulpb_json_add_exact(b, "cpu_time", r->cpu_ns_per_element * (double)r->size);
                cJSON_AddStringToObject(b, "time_unit", "ns");
                ulpb_json_add_exact(b, "items_per_second", 1e9 / r->ns_per_element);
                ulpb_json_add_count(b, "size", r->size);
                ulpb_json_add_exact(b, "input_low", r->inputs->lo);
                ulpb_json_add_exact(b, "input_high", r->inputs->hi);
                ulpb_json_add_count(b, "elements_per_round", r->elements_per_round);
                ulpb_json_add_exact(b, "ns_per_element", r->ns_per_element);
                ulpb_json_add_exact(b, "elements_per_ns", 1.0 / r->ns_per_element);
                ulpb_json_add_exact(b, "spread", r->spread);
                for (int m = 0; m < r->group_count; m++) {
                    char key[96];
                    snprintf(key, sizeof key, "ratio_to_%s", results[r->group_first + m].entry->impl);
                    ulpb_json_add_exact(b, key, r->ratio[m]);
                }
                cJSON_AddStringToObject(b, "label", e->description);
                cJSON_AddItemToArray(benchmarks, b);
            }
        }
        family += instance > 0;
    }
    return doc;
}

/* ---- Markdown ------------------------------------------------------------------------------ */

void ulpb_bench_size_label(char *buf, size_t len, size_t size) {
    if (size >= ((size_t)1 << 20) && size % ((size_t)1 << 20) == 0)
        snprintf(buf, len, "%zu Mi", size >> 20);
    else if (size >= 1024 && size % 1024 == 0)
        snprintf(buf, len, "%zu Ki", size >> 10);
    else
        snprintf(buf, len, "%zu", size);
}

void ulpb_bench_markdown(FILE *out, const ulpb_bench_spec *spec, const ulpb_bench_result *results, int count) {
    size_t set_count;
    const ulpb_input_set *sets = spec_input_sets(spec, &set_count);
    char label[32];
    fprintf(out, "\nElements per ns (higher is better) at n elements per call, ");
    if (spec->inputs_file)
        fprintf(out,
                "inputs drawn at random (with the seed) from the %llu elements of the file shown (sha256 %s), so that "
                "they follow its values' distribution; ",
                (unsigned long long)spec->inputs_file->elements, spec->inputs_file->sha256);
    else
        fprintf(out, "inputs uniform in the range shown; ");
    fprintf(out,
            "in parentheses the throughput relative to omk measured in the same rounds (median of the "
            "per-round ratios); ± the spread of the per-round times, (P90 - P10) / median. Rounds: %d",
            spec->rounds);
    for (int s = 0; s < spec->size_count; s++)
        if (ulpb_bench_rounds(spec->sizes[s], spec->rounds) != spec->rounds) {
            ulpb_bench_size_label(label, sizeof label, spec->sizes[s]);
            fprintf(out, ", %d at %s", ulpb_bench_rounds(spec->sizes[s], spec->rounds), label);
        }
    fprintf(out,
            "; the implementations run in a balanced order (over each cycle of rounds, every one in every position and "
            "after every other one equally often); below %zu Ki elements a round cycles through "
            "distinct input blocks, %zu Ki elements or %zu KiB of input in all, whichever is less (at 4 Ki elements "
            "%zu blocks, %zu of binary64).\n",
            ULPB_BENCH_ROUND_ELEMENTS >> 10, ULPB_BENCH_ROUND_ELEMENTS >> 10, ULPB_BENCH_ROUND_BYTES >> 10,
            ulpb_bench_blocks(4096, 4), ulpb_bench_blocks(4096, 8));
    for (int op = 0; op < ULPB_OP_COUNT; op++) {
        for (int d = 0; d < ULPB_DTYPE_COUNT; d++) {
            bool any = false;
            for (int i = 0; i < count && !any; i++)
                any = results[i].entry->op == (ulpb_op_id)op && results[i].entry->dtype == (ulpb_dtype_id)d;
            if (!any) continue;
            fprintf(out, "\n### %s %s\n\n| implementation |", ulpb_ops[op].name, ulpb_dtypes[d].name);
            int columns = 0;
            for (int s = 0; s < spec->size_count; s++) {
                for (size_t k = 0; k < set_count; k++) {
                    if (sets[k].op != (ulpb_op_id)op) continue;
                    ulpb_bench_size_label(label, sizeof label, spec->sizes[s]);
                    fprintf(out, " %s %s |", label, sets[k].label);
                    columns++;
                }
            }
            fprintf(out, "\n|---|");
            for (int c = 0; c < columns; c++) fprintf(out, "---:|");
            fputc('\n', out);
            for (size_t i = 0; i < ulpb_entry_count; i++) {
                const ulpb_entry *e = &ulpb_entries[i];
                if (e->op != (ulpb_op_id)op || e->dtype != (ulpb_dtype_id)d || !ulpb_bench_selects(spec, e)) continue;
                if (!ulpb_entry_available(e)) continue;
                fprintf(out, "| %s |", e->impl);
                for (int s = 0; s < spec->size_count; s++) {
                    for (size_t k = 0; k < set_count; k++) {
                        if (sets[k].op != (ulpb_op_id)op) continue;
                        const int at = find_result(results, count, e, spec->sizes[s], &sets[k]);
                        if (at < 0) {
                            fprintf(out, " – |");
                            continue;
                        }
                        const ulpb_bench_result *r = &results[at];
                        const double ratio = ulpb_bench_ratio_to(results, r, "omk");
                        fprintf(out, " %.3g", 1.0 / r->ns_per_element);
                        if (!isnan(ratio)) fprintf(out, " (%.2f×)", ratio);
                        if (r->rounds >= 3) /* P10 and P90 of one or two rounds say nothing */
                            fprintf(out, " ±%.0f%%", 100.0 * r->spread);
                        fputs(" |", out);
                    }
                }
                fputc('\n', out);
            }
        }
    }
    /* one mention per (implementation, ISA) */
    bool header = false;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if (!ulpb_bench_selects(spec, e) || ulpb_entry_available(e)) continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = ulpb_entries[j].isa == e->isa && strcmp(ulpb_entries[j].impl, e->impl) == 0 &&
                   ulpb_bench_selects(spec, &ulpb_entries[j]);
        if (seen) continue;
        fprintf(out, "%s %s (needs %s)", header ? "," : "\nNot run, this CPU lacks their ISA:", e->impl,
                ulpb_isa_name(e->isa));
        header = true;
    }
    if (header) fputs(".\n", out);
}
