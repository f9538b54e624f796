#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "accuracy.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fp_controls.h"
#include "result_io.h"
#include "samplers.h"

const char *const ulpb_hist_labels[ULPB_HIST_BINS] = {"0", "<=0.5", "<=1", "<=2", "<=4", ">4"};

enum { CHUNK = 8192 };

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Bin 0 holds the exact results alone (y equal to an exactly known f(x)), whichever reference measured them: an error
 * that rounds to 0 against a value known only to finite precision (cos of a tiny x) is not exactness. */
static int hist_bin(double ulp, bool exact) {
    if (exact) return 0;
    if (ulp <= 0.5) return 1;
    if (ulp <= 1.0) return 2;
    if (ulp <= 2.0) return 3;
    if (ulp <= 4.0) return 4;
    return 5;
}

double ulpb_mean_ulp(const ulpb_stats *s) { return s->ulp_count ? s->ulp_sum / (double)s->ulp_count : 0.0; }

int ulpb_stats_check_sum(const ulpb_stats *s, char *err, size_t len) {
    const double largest = s->has_worst ? (s->max_ulp + 0x1p-8) * (double)s->ulp_count * (1 + 0x1p-20) : 0.0;
    if (!(s->ulp_sum <= largest)) {
        snprintf(err, len, "\"ulp_sum\" %g exceeds %llu errors of at most \"max_ulp\" %g", s->ulp_sum,
                 (unsigned long long)s->ulp_count, s->has_worst ? s->max_ulp : 0.0);
        return -1;
    }
    return 0;
}

double ulpb_ulp_sum_add(double sum, double error) {
    const double total = sum + error;
    return total < REF_ULP_ERROR_MAX ? total : REF_ULP_ERROR_MAX;
}

void ulpb_stats_merge(ulpb_stats *into, const ulpb_stats *from) {
    into->inputs += from->inputs;
    into->correctly_rounded += from->correctly_rounded;
    into->misrounded += from->misrounded;
    into->special_mismatches += from->special_mismatches;
    /* Ties go to the smaller bit pattern, so merging in any order gives the same result. */
    if (from->has_worst && (!into->has_worst || from->max_ulp > into->max_ulp ||
                            (from->max_ulp == into->max_ulp && from->worst_bits < into->worst_bits))) {
        into->has_worst = true;
        into->max_ulp = from->max_ulp;
        into->worst_bits = from->worst_bits;
        into->worst_input = from->worst_input;
        into->worst_got = from->worst_got;
        into->worst_expected = from->worst_expected;
    }
    if (from->has_special_example && (!into->has_special_example || from->special_bits < into->special_bits)) {
        into->has_special_example = true;
        into->special_bits = from->special_bits;
        into->special_got = from->special_got;
        into->special_expected = from->special_expected;
        into->special_got_signaling = from->special_got_signaling;
    }
    into->ulp_sum = ulpb_ulp_sum_add(into->ulp_sum, from->ulp_sum);
    into->ulp_count += from->ulp_count;
    for (int b = 0; b < ULPB_HIST_BINS; b++) into->histogram[b] += from->histogram[b];
}

void ulpb_stats_record(ulpb_stats *s, uint64_t bits, double x, const ref_value *ref, double y, bool y_signaling) {
    s->inputs++;
    switch (y_signaling ? REF_SPECIAL_MISMATCH : ref_compare(ref, y)) {
    case REF_SPECIAL_MISMATCH:
        s->special_mismatches++;
        /* ties go to the smaller bit pattern, as in ulpb_stats_merge: a whole run and its merged shards agree */
        if (!s->has_special_example || bits < s->special_bits) {
            s->has_special_example = true;
            s->special_bits = bits;
            s->special_got = y;
            s->special_expected = ref->rounded;
            s->special_got_signaling = y_signaling;
        }
        return;
    case REF_MATCH:
        s->correctly_rounded++;
        break;
    case REF_MISROUNDED:
        s->misrounded++;
        break;
    }
    if (!isfinite(y) || !isfinite(ref->rounded)) return;
    const double err = ref_ulp_error(ref, y);
    s->ulp_sum = ulpb_ulp_sum_add(s->ulp_sum, err);
    s->ulp_count++;
    s->histogram[hist_bin(err, ref->exact && y == ref->exact_hi)]++;
    if (!s->has_worst || err > s->max_ulp || (err == s->max_ulp && bits < s->worst_bits)) {
        s->has_worst = true;
        s->max_ulp = err;
        s->worst_bits = bits;
        s->worst_input = x;
        s->worst_got = y;
        s->worst_expected = ref->rounded;
    }
}

void ulpb_stats_remeasure_worst(ulpb_stats *s, ref_op op, const ref_format *fmt) {
    if (!s->has_worst) return;
    ref_value exact;
    ref_eval(op, fmt, s->worst_input, &exact);
    s->max_ulp = ref_ulp_error(&exact, s->worst_got);
    s->worst_expected = exact.rounded;
}

/* Stores bit patterns in the dtype's element width, and reads them back. */
static void pack(size_t bytes, const uint64_t *bits, void *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (bytes == 2)
            ((uint16_t *)out)[i] = (uint16_t)bits[i];
        else if (bytes == 4)
            ((uint32_t *)out)[i] = (uint32_t)bits[i];
        else
            ((uint64_t *)out)[i] = bits[i];
    }
}

static uint64_t unpack(size_t bytes, const void *in, size_t i) {
    if (bytes == 2) return ((const uint16_t *)in)[i];
    if (bytes == 4) return ((const uint32_t *)in)[i];
    return ((const uint64_t *)in)[i];
}

/* A signalling NaN of the dtype: all-ones exponent, the quiet bit clear, a payload of alternating bits. */
static uint64_t poison_bits(const ulpb_dtype *dt) {
    const int mantissa_bits = dt->format.precision - 1;
    const uint64_t exponent = ((1ull << dt->format.exp_bits) - 1) << mantissa_bits;
    return exponent | (0x2a5a5a5a5a5a5a5aull & ((1ull << (mantissa_bits - 1)) - 1));
}

/* One of the buffer's two regions (0: y, 1: x), each [guard | room for the shift | longest call | guard], 64-byte
 * aligned. */
static size_t region_elements(const ulpb_call_buffer *b) {
    return (2 * ULPB_CALL_GUARD_BYTES + ULPB_CALL_ALIGN_BYTES) / b->bytes + b->capacity;
}
static char *region(const ulpb_call_buffer *b, int which) {
    return (char *)b->scratch + (size_t)which * ((region_elements(b) * b->bytes + 63) & ~(size_t)63);
}

/* with room for calls of up to `capacity` elements */
static int call_buffer_init(ulpb_call_buffer *b, const ulpb_dtype *dt, size_t capacity) {
    b->bytes = dt->bytes;
    b->poison = poison_bits(dt);
    b->capacity = capacity;
    b->scratch = capacity < (SIZE_MAX / 2 - 4 * ULPB_CALL_GUARD_BYTES) / dt->bytes
                     ? aligned_alloc(64, 2 * ((region_elements(b) * b->bytes + 63) & ~(size_t)63))
                     : NULL;
    return b->scratch ? 0 : -1;
}

int ulpb_call_buffer_init(ulpb_call_buffer *b, const ulpb_dtype *dt) {
    return call_buffer_init(b, dt, ULPB_CALL_LENGTH_LONGEST);
}

void ulpb_call_buffer_free(ulpb_call_buffer *b) {
    free(b->scratch);
    b->scratch = NULL;
}

/* Fills base[from, to) (elements) with the poison. */
static void fill_poison(const ulpb_call_buffer *b, char *base, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) pack(b->bytes, &b->poison, base + i * b->bytes, 1);
}

/* Whether the guards around base[lead, lead + n) still hold the poison; if not, err names the changed element nearest
 * to the array (`name`: x or y). */
static bool guards_hold(const ulpb_entry *e, const ulpb_call_buffer *b, const char *base, size_t lead, size_t n,
                        const char *name, const char *call, char *err, size_t err_len) {
    const size_t guard = ULPB_CALL_GUARD_BYTES / b->bytes;
    long long changed = 0;
    for (size_t i = lead; i-- > lead - guard && !changed;)
        if (unpack(b->bytes, base, i) != b->poison) changed = (long long)i - (long long)lead;
    for (size_t i = lead + n; i < lead + n + guard && !changed; i++)
        if (unpack(b->bytes, base, i) != b->poison) changed = (long long)(i - lead);
    if (changed)
        snprintf(err, err_len, "'%s' %s %s wrote outside its %s: %s[%lld] changed in %s", e->impl, ulpb_ops[e->op].name,
                 ulpb_dtypes[e->dtype].name, strcmp(name, "x") == 0 ? "input" : "output", name, changed, call);
    return !changed;
}

/* The shape of call k of ulpb_call_checked: its length (before the end of the caller's array cuts it short), whether
 * it is in place, and the element offsets of y and of x's copy from a 64-byte boundary (of `shifts`). The regular
 * lengths run 1, 2, 3, ... in their own count, which the longer calls do not interrupt; each length meets another
 * y offset in each cycle of them, and x's offset moves against y's. */
typedef struct {
    size_t len, y_shift, x_shift;
    bool in_place;
} call_shape;
static call_shape shape_of_call(uint64_t k, size_t shifts) {
    call_shape c;
    const uint64_t longer = k / ULPB_CALL_LONG_EVERY, regular = k - longer; /* calls of each kind before k */
    if (k % ULPB_CALL_LONG_EVERY == ULPB_CALL_LONG_EVERY - 1) {
        c.len = ((size_t)(ULPB_CALL_LENGTH_MAX + 1) << (longer % 3)) + (size_t)(longer % 61);
        c.y_shift = (size_t)(longer % shifts);
        c.x_shift = (size_t)((longer + 1 + longer / shifts) % shifts);
    } else {
        c.len = 1 + (size_t)(regular % ULPB_CALL_LENGTH_MAX);
        c.y_shift = (size_t)((regular + regular / ULPB_CALL_LENGTH_MAX) % shifts);
        c.x_shift = (size_t)((c.y_shift + 1 + regular / shifts) % shifts);
    }
    /* the top bit of a Weyl sequence: half of the calls, independent of the lengths and offsets */
    c.in_place = (k * 0x9e3779b97f4a7c15ull) >> 63;
    return c;
}

/* One call of e on x[0, len) through b (len up to b->capacity), y `shift` and x's copy `x_shift` elements past a
 * 64-byte boundary, its results into out[0, len) (out NULL: left in b): 0, or -1 and a message. */
static int call_once(const ulpb_entry *e, ulpb_call_buffer *b, const char *x, size_t len, bool in_place, size_t shift,
                     size_t x_shift, void *out, double *seconds, char *err, size_t err_len) {
    const size_t guard = ULPB_CALL_GUARD_BYTES / b->bytes;
    const uint64_t sign = 1ull << (8 * b->bytes - 1);
    char *const y_region = region(b, 0), *const x_region = region(b, 1);
    const size_t lead = guard + shift, x_lead = guard + x_shift;
    char *y = y_region + lead * b->bytes, *xs = in_place ? y : x_region + x_lead * b->bytes;
    fill_poison(b, y_region, 0, lead + len + guard);
    if (!in_place) fill_poison(b, x_region, 0, x_lead + len + guard);
    memcpy(xs, x, len * b->bytes);
    char call[128];
    if (in_place)
        snprintf(call, sizeof call, "a call with n = %zu in place (y %zu elements past a 64-byte boundary)", len,
                 shift);
    else
        snprintf(call, sizeof call, "a call with n = %zu (x %zu and y %zu elements past a 64-byte boundary)", len,
                 x_shift, shift);
    const ulpb_fp_controls controls = ulpb_fp_controls_now();
    const double t0 = now_seconds();
    ulpb_kernel_running(e, len, 1);
    e->fn(xs, y, len);
    ulpb_kernel_running(NULL, 0, 0);
    *seconds += now_seconds() - t0;
    if (!ulpb_kernel_kept_controls(e, controls, call, err, err_len)) return -1;
    if (!guards_hold(e, b, y_region, lead, len, "y", call, err, err_len)) return -1;
    if (!in_place) {
        if (!guards_hold(e, b, x_region, x_lead, len, "x", call, err, err_len)) return -1;
        for (size_t i = 0; i < len; i++)
            if (unpack(b->bytes, xs, i) != unpack(b->bytes, x, i)) {
                snprintf(err, err_len, "'%s' %s %s wrote into its input: x[%zu] changed in %s", e->impl,
                         ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name, i, call);
                return -1;
            }
        /* an input that is the poison, or its negation, may come back as that bits (wrongly): the ruler counts
         * it */
        for (size_t i = 0; i < len; i++)
            if (unpack(b->bytes, y, i) == b->poison && (unpack(b->bytes, x, i) & ~sign) != (b->poison & ~sign)) {
                snprintf(err, err_len,
                         "'%s' %s %s left y[%zu] unwritten in %s: it still holds the signalling NaN put there "
                         "before the call",
                         e->impl, ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name, i, call);
                return -1;
            }
    }
    if (out) memcpy(out, y, len * b->bytes);
    return 0;
}

int ulpb_call_checked(const ulpb_entry *e, ulpb_call_buffer *b, const void *in, void *out, size_t n,
                      uint64_t *call_index, double *seconds, char *err, size_t err_len) {
    const size_t shifts = ULPB_CALL_ALIGN_BYTES / b->bytes;
    for (size_t done = 0; done < n;) {
        const call_shape c = shape_of_call(*call_index, shifts);
        const size_t len = c.len < n - done ? c.len : n - done;
        if (call_once(e, b, (const char *)in + done * b->bytes, len, c.in_place, c.y_shift, c.x_shift,
                      (char *)out + done * b->bytes, seconds, err, err_len))
            return -1;
        /* a call the end of the caller's array cut short is made whole at the start of the next one (unless it is
         * longer than a whole array) */
        if (len == c.len || done == 0) ++*call_index;
        done += len;
    }
    return 0;
}

int ulpb_call_whole_checked(const ulpb_entry *e, const void *in, void *out, size_t n, char *err, size_t err_len) {
    ulpb_call_buffer b;
    if (call_buffer_init(&b, &ulpb_dtypes[e->dtype], n)) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    double seconds = 0.0;
    const int status = call_once(e, &b, in, n, false, 0, 0, out, &seconds, err, err_len);
    ulpb_call_buffer_free(&b);
    return status;
}

typedef struct {
    int count;
    int sampler[ULPB_MAX_SAMPLERS];
    uint64_t first[ULPB_MAX_SAMPLERS]; /* this shard's slice of each sampler's indices */
    uint64_t inputs[ULPB_MAX_SAMPLERS];
    bool exhaustive, listed;
} plan;

int ulpb_sampled_plan(ulpb_op_id op, ulpb_dtype_id dtype, uint64_t samples, const ulpb_input_range *range,
                      int shard_index, int shard_count, int sampler[ULPB_MAX_SAMPLERS],
                      uint64_t first[ULPB_MAX_SAMPLERS], uint64_t inputs[ULPB_MAX_SAMPLERS]) {
    _Static_assert((int)SAMPLER_COUNT <= (int)ULPB_MAX_SAMPLERS, "a result holds every sampler");
    int ids[SAMPLER_COUNT];
    const bool ranged = range && range->given;
    const int count = ranged ? samplers_for_range(op, dtype, range, ids) : samplers_for_op(op, ids);
    /* the first two samplers are fixed lists (specials, or the range's, then the hard cases), taken while samples
     * last; the others draw the rest in equal shares */
    const uint64_t fixed[2] = {ranged ? sampler_range_special_count(dtype, range) : sampler_special_count(dtype),
                               sampler_hard_case_count(op, dtype, range)};
    uint64_t left = samples, total[SAMPLER_COUNT];
    for (int s = 0; s < 2; s++) {
        total[s] = fixed[s] < left ? fixed[s] : left;
        left -= total[s];
    }
    const int random_samplers = count - 2;
    for (int s = 2; s < count; s++)
        total[s] = left / (uint64_t)random_samplers + ((uint64_t)(s - 2) < left % (uint64_t)random_samplers);
    /* shard K of N takes indices [total K / N, total (K + 1) / N) of every sampler */
    const uint64_t k = (uint64_t)shard_index, n = shard_count > 0 ? (uint64_t)shard_count : 1;
    for (int s = 0; s < count; s++) {
        sampler[s] = ids[s];
        first[s] = (uint64_t)((unsigned __int128)total[s] * k / n);
        inputs[s] = (uint64_t)((unsigned __int128)total[s] * (k + 1) / n) - first[s];
    }
    return count;
}

/* A 16-bit run's bit patterns are its indices; with --range, those outside it are passed over. */
static plan make_plan(const ulpb_check_spec *spec) {
    plan p = {0};
    if (spec->inputs) {
        p.listed = true;
        p.count = 1;
        p.sampler[0] = -1;
        p.inputs[0] = spec->input_count;
        return p;
    }
    if (ulpb_dtypes[spec->dtype].bytes == 2) {
        p.exhaustive = true;
        p.count = 1;
        p.sampler[0] = -1;
        p.inputs[0] = 1u << 16;
        return p;
    }
    p.count = ulpb_sampled_plan(spec->op, spec->dtype, spec->samples, &spec->range, spec->shard_index,
                                spec->shard_count, p.sampler, p.first, p.inputs);
    return p;
}

/* Whether a 16-bit run passes over this pattern: outside --range. */
static bool outside_range(const ulpb_check_spec *spec, uint64_t bits) {
    return spec->range.given && !ulpb_range_holds(&spec->range, ref_decode(&ulpb_dtypes[spec->dtype].format, bits));
}

static void show_progress(const ulpb_check_spec *spec, uint64_t done, uint64_t total, double elapsed) {
    const double eta = done ? elapsed * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "%s[%s %s] %5.1f%% %llu/%llu inputs, %.0fs elapsed, ETA %.0fs%s", isatty(2) ? "\r" : "",
            ulpb_ops[spec->op].name, ulpb_dtypes[spec->dtype].name, 100.0 * (double)done / (double)total,
            (unsigned long long)done, (unsigned long long)total, elapsed, eta, isatty(2) ? "" : "\n");
}

/* A file's elements (--inputs) also go to each gated implementation (omk's, ULPB_LIBRARIES') in one call over the
 * whole tensor, out of place, as a model's runtime calls it: a kernel with a separate path for long arrays, which the
 * runner's calls (up to 4,188 elements) never take, would otherwise be measured on results the model never gets. Its
 * results must equal those of the runner's calls bit for bit (any NaN equals any other); peers are left out, since
 * SLEEF's vector functions reduce a whole vector the slow way when one lane needs it, so that their last bits depend on
 * how calls group the elements (and the runner measures them as it calls them). 0, or -1 and a message naming the
 * first element that differs. */
static int check_whole_call(const ulpb_entry *e, ulpb_call_buffer *calls, const void *inputs, size_t n, char *err,
                            size_t err_len) {
    const ulpb_dtype *dt = &ulpb_dtypes[e->dtype];
    ulpb_call_buffer one_call;
    const bool buffer_ok = call_buffer_init(&one_call, dt, n) == 0;
    void *part = malloc(CHUNK * dt->bytes);
    if (!buffer_ok || !part) {
        if (buffer_ok) ulpb_call_buffer_free(&one_call);
        free(part);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    double seconds = 0.0;
    /* the results stay in the buffer's y region (no shift): one copy of the tensor fewer */
    int status = call_once(e, &one_call, inputs, n, false, 0, 0, NULL, &seconds, err, err_len);
    const char *whole = region(&one_call, 0) + ULPB_CALL_GUARD_BYTES;
    /* the runner's calls again, from its first one, rather than the whole call's results kept for the main loop: a
     * kernel call costs little beside a reference value, a kept copy of the tensor per row much */
    uint64_t call_index = 0;
    for (size_t done = 0; done < n && status == 0; done += CHUNK) {
        const size_t len = n - done < CHUNK ? n - done : CHUNK;
        status = ulpb_call_checked(e, calls, (const char *)inputs + done * dt->bytes, part, len, &call_index, &seconds,
                                   err, err_len);
        for (size_t i = 0; i < len && status == 0; i++) {
            const uint64_t in_one = unpack(dt->bytes, whole, done + i), in_parts = unpack(dt->bytes, part, i);
            if (in_one == in_parts ||
                (isnan(ref_decode(&dt->format, in_one)) && isnan(ref_decode(&dt->format, in_parts))))
                continue;
            const int digits = (int)dt->bytes * 2;
            snprintf(err, err_len,
                     "'%s' %s %s gives element %zu (0x%0*llx) 0x%0*llx in one call over all %zu elements but 0x%0*llx "
                     "in the runner's shorter calls: its results depend on how calls split the tensor",
                     e->impl, ulpb_ops[e->op].name, dt->name, done + i, digits,
                     (unsigned long long)unpack(dt->bytes, inputs, done + i), digits, (unsigned long long)in_one, n,
                     digits, (unsigned long long)in_parts);
            status = -1;
        }
    }
    ulpb_call_buffer_free(&one_call);
    free(part);
    return status;
}

int ulpb_team_size(int threads) {
    if (threads <= 0) threads = omp_get_num_procs() < ULPB_THREADS_MAX ? omp_get_num_procs() : ULPB_THREADS_MAX;
    return ref_team_size(threads);
}

int ulpb_check(const ulpb_check_spec *spec, ulpb_result *results, int capacity, char *err, size_t err_len) {
    int n_results = 0;
    const ulpb_entry *skipped = NULL;
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if (e->op != spec->op || e->dtype != spec->dtype) continue;
        if (spec->impl && strcmp(spec->impl, e->impl) != 0) continue;
        /* baselines compute nothing to measure; rows the CPU cannot run are left out */
        if (e->role == ULPB_ROLE_BASELINE || !ulpb_entry_available(e)) {
            skipped = e;
            continue;
        }
        if (n_results == capacity) break;
        memset(&results[n_results], 0, sizeof results[n_results]);
        results[n_results++].entry = e;
    }
    if (n_results == 0) {
        if (skipped && skipped->role == ULPB_ROLE_BASELINE)
            snprintf(err, err_len, "'%s' is a throughput baseline and has no accuracy", skipped->impl);
        else if (skipped)
            snprintf(err, err_len, "'%s' %s %s needs %s, which this CPU lacks (or ULPB_DISABLE_ISA)", skipped->impl,
                     ulpb_ops[spec->op].name, ulpb_dtypes[spec->dtype].name, ulpb_isa_name(skipped->isa));
        else
            snprintf(err, err_len, "no implementation '%s' for %s %s", spec->impl ? spec->impl : "*",
                     ulpb_ops[spec->op].name, ulpb_dtypes[spec->dtype].name);
        return -1;
    }
    const plan p = make_plan(spec);
    if (!p.exhaustive && !p.listed && spec->samples == 0) {
        snprintf(err, err_len, "--samples must be at least 1");
        return -1;
    }
    uint64_t range_first, range_last;
    if (p.listed && (spec->range.given || spec->shard_count > 1)) {
        snprintf(err, err_len, "a run over given inputs takes neither a range nor shards");
        return -1;
    }
    if (spec->range.given && !ulpb_range_keys(spec->dtype, &spec->range, &range_first, &range_last)) {
        char lo[32], hi[32];
        ulpb_shortest_decimal(lo, sizeof lo, spec->range.lo);
        ulpb_shortest_decimal(hi, sizeof hi, spec->range.hi);
        snprintf(err, err_len, "[%s, %s] holds no %s value", lo, hi, ulpb_dtypes[spec->dtype].name);
        return -1;
    }
    for (int r = 0; r < n_results; r++) {
        results[r].exhaustive = p.exhaustive;
        results[r].listed = p.listed;
        results[r].sampler_count = p.count;
        for (int s = 0; s < p.count; s++)
            results[r].sampler_names[s] = p.exhaustive ? "exhaustive"
                                          : p.listed   ? "inputs"
                                                       : ulpb_sampler_name(p.sampler[s]);
    }

    const ulpb_dtype *dt = &ulpb_dtypes[spec->dtype];
    uint64_t *bits = malloc(CHUNK * sizeof *bits);
    int *slot = malloc(CHUNK * sizeof *slot);
    double *x = malloc(CHUNK * sizeof *x);
    ref_value *ref = malloc(CHUNK * sizeof *ref);
    void *in = malloc(CHUNK * dt->bytes), *out = malloc(CHUNK * dt->bytes);
    ulpb_call_buffer calls;
    const int calls_ok = ulpb_call_buffer_init(&calls, dt) == 0;
    uint64_t *call_index = calloc((size_t)n_results, sizeof *call_index); /* each one's calls: lengths from 1 on */
    if (!bits || !slot || !x || !ref || !in || !out || !calls_ok || !call_index) {
        snprintf(err, err_len, "out of memory");
        free(bits), free(slot), free(x), free(ref), free(in), free(out), ulpb_call_buffer_free(&calls);
        free(call_index);
        return -1;
    }
    bool failed = false;

    uint64_t total = 0;
    for (int s = 0; s < p.count; s++) total += p.inputs[s];
    if (p.exhaustive && spec->range.given)
        for (uint64_t b = 0; b < p.inputs[0]; b++) total -= outside_range(spec, b);
    const int threads = ulpb_team_size(spec->threads);
    const double start = now_seconds();
    double last_progress = start, reference_seconds = 0.0;
    /* a file of more 16-bit elements than the format has values: each value's reference once, looked up after */
    ref_value *value_table = p.listed && dt->bytes == 2 && spec->input_count > (1u << 16)
                                 ? malloc(((size_t)1 << 16) * sizeof *value_table)
                                 : NULL;
    if (value_table) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
        for (uint32_t b = 0; b < 1u << 16; b++)
            ref_eval(ulpb_ops[spec->op].ref, &dt->format, ref_decode(&dt->format, b), &value_table[b]);
        reference_seconds += now_seconds() - start;
    }
    for (int r = 0; r < n_results && p.listed && !failed; r++)
        if (ulpb_role_gated(results[r].entry->role))
            failed =
                check_whole_call(results[r].entry, &calls, spec->inputs, (size_t)spec->input_count, err, err_len) != 0;
    int s = 0;
    uint64_t local = 0, done = 0;
    while (done < total && !failed) {
        size_t n = 0;
        while (n < CHUNK && s < p.count) {
            if (local == p.inputs[s]) {
                s++;
                local = 0;
                continue;
            }
            const uint64_t index = p.first[s] + local++;
            if (p.exhaustive && outside_range(spec, index)) continue;
            bits[n] = p.exhaustive ? index
                      : p.listed
                          ? unpack(dt->bytes, spec->inputs, (size_t)index)
                          : ulpb_sampler_input_in(p.sampler[s], spec->op, spec->dtype, &spec->range, spec->seed, index);
            slot[n++] = s;
        }
        const double t0 = now_seconds();
        /* looking values up is too little work to share out: a team's start and end would cost more */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) if (!value_table)
        for (size_t i = 0; i < n; i++) {
            x[i] = ref_decode(&dt->format, bits[i]);
            if (value_table)
                ref[i] = value_table[bits[i]];
            else if (!spec->fast_reference || !ref_fast(ulpb_ops[spec->op].ref, &dt->format, x[i], &ref[i]))
                ref_eval(ulpb_ops[spec->op].ref, &dt->format, x[i], &ref[i]);
        }
        reference_seconds += now_seconds() - t0;
        for (int r = 0; r < n_results; r++) {
            pack(dt->bytes, bits, in, n);
            /* the calls alone, as exhaustive runs count them */
            if (ulpb_call_checked(results[r].entry, &calls, in, out, n, &call_index[r], &results[r].seconds, err,
                                  err_len)) {
                failed = true;
                break;
            }
            for (size_t i = 0; i < n; i++) {
                const uint64_t y_bits = unpack(dt->bytes, out, i);
                ulpb_stats_record(&results[r].per_sampler[slot[i]], bits[i], x[i], &ref[i],
                                  ref_decode(&dt->format, y_bits), ref_is_signaling_nan(&dt->format, y_bits));
            }
        }
        done += n;
        const double t = now_seconds();
        if (spec->progress && t - start > 1.0 && (t - last_progress > 0.5 || done == total)) {
            show_progress(spec, done, total, t - start);
            last_progress = t;
        }
    }
    if (spec->progress && now_seconds() - start > 1.0 && isatty(2)) fputc('\n', stderr);
    if (spec->fast_reference && !failed)
        for (int r = 0; r < n_results; r++)
            for (int k = 0; k < p.count; k++)
                ulpb_stats_remeasure_worst(&results[r].per_sampler[k], ulpb_ops[spec->op].ref, &dt->format);
#pragma omp parallel num_threads(threads)
    ref_free_cache();
    for (int r = 0; r < n_results && !failed; r++) {
        for (int k = 0; k < p.count; k++) ulpb_stats_merge(&results[r].total, &results[r].per_sampler[k]);
        results[r].reference_seconds = reference_seconds;
    }
    free(bits), free(slot), free(x), free(ref), free(in), free(out), ulpb_call_buffer_free(&calls);
    free(call_index), free(value_table);
    return failed ? -1 : n_results;
}
