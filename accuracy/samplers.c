/* Named input samplers for binary32/binary64. Each input is a pure function of (seed, sampler,
 * index), so any slice of a run can be regenerated and threads need no shared state. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "hard_case_tables.h"
#include "samplers.h"

static uint64_t splitmix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Two independent 64-bit draws for input `index` of `sampler`. */
static void draw(uint64_t seed, int sampler, uint64_t index, uint64_t out[2]) {
    const uint64_t base = splitmix64(seed ^ ((uint64_t)(sampler + 1) << 56)) + index * 2;
    out[0] = splitmix64(base);
    out[1] = splitmix64(base + 1);
}

typedef struct {
    int total_bits, mant_bits, exp_bits, bias;
} layout;

static layout layout_of(ulpb_dtype_id dtype) {
    const ref_format *f = &ulpb_dtypes[dtype].format;
    layout l = {1 + f->exp_bits + f->precision - 1, f->precision - 1, f->exp_bits, (1 << (f->exp_bits - 1)) - 1};
    return l;
}

static uint64_t compose(layout l, uint64_t sign, uint64_t exp_field, uint64_t mant) {
    return (sign << (l.total_bits - 1)) | (exp_field << l.mant_bits) | (mant & ((1ull << l.mant_bits) - 1));
}

/* Nearest value of the format to x (binary32/binary64 samplers only). */
static uint64_t round_to_format(ulpb_dtype_id dtype, double x) {
    if (dtype == ULPB_DTYPE_f32) {
        const float f = (float)x;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        return u;
    }
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double unit_interval(uint64_t r) { return (double)(r >> 11) * 0x1p-53; }

static uint64_t sample_uniform_bits(layout l, const uint64_t r[2]) {
    return l.total_bits == 64 ? r[0] : r[0] & ((1ull << l.total_bits) - 1);
}

static uint64_t sample_uniform_domain(ulpb_op_id op, ulpb_dtype_id dtype, const uint64_t r[2]) {
    const ulpb_op *o = &ulpb_ops[op];
    return round_to_format(dtype, o->domain_lo + (o->domain_hi - o->domain_lo) * unit_interval(r[0]));
}

/* |x| in [2^10, max], log-uniform: where argument reduction is hardest. */
static uint64_t sample_cos_large(layout l, const uint64_t r[2]) {
    const uint64_t max_exp_field = (1ull << l.exp_bits) - 2;
    const uint64_t lo = (uint64_t)l.bias + 10;
    return compose(l, r[1] >> 63, lo + r[1] % (max_exp_field - lo + 1), r[0]);
}

/* The format's nearest value to k pi/2 (k a whole number as a double: exact below 2^53), rounded from a double-double.
 */
static uint64_t nearest_to_pio2_multiple(ulpb_dtype_id dtype, double k) {
    static const double pio2_hi = 0x1.921fb54442d18p0, pio2_mid = 0x1.1a62633145c07p-54,
                        pio2_lo = -0x1.f1976b7ed8fbcp-110;
    const double hi = k * pio2_hi, lo = fma(k, pio2_hi, -hi) + fma(k, pio2_mid, k * pio2_lo);
    return round_to_format(dtype, hi + lo);
}

/* The format's nearest value to k*pi/2 for an odd k (the zeros of cos), then up to 4 ulps either side; k log-uniform
 * up to 2^(p+8), so both small and huge multiples appear. Beyond k ~ 2^(p-3) four ulps span more than pi/2 (and for
 * binary64 beyond 2^53 k itself rounds to an even number): those inputs are large arguments, not near-zeros. */
static uint64_t sample_cos_near_pio2(layout l, ulpb_dtype_id dtype, const uint64_t r[2]) {
    const int k_bits = 1 + (int)(r[1] % (uint64_t)(l.mant_bits + 9));
    const uint64_t bits = nearest_to_pio2_multiple(dtype, (double)((r[0] >> (64 - k_bits)) | 1ull));
    const int64_t offset = (int64_t)((r[1] >> 32) % 9) - 4;
    return (uint64_t)((int64_t)bits + offset) | ((r[1] >> 63) << (l.total_bits - 1));
}

/* 1 - j ulps with j log-uniform in [1, 2^(p-1)) (an octave [2^(b-1), 2^b) drawn uniformly, then j in it), either sign:
 * the square-root branch of asin. The small octaves hold few values, which therefore repeat (j = 1 in 1 of p - 1
 * samples). */
static uint64_t sample_asin_near_one(layout l, const uint64_t r[2]) {
    const uint64_t one = compose(l, 0, (uint64_t)l.bias, 0);
    const int j_bits = 1 + (int)(r[1] % (uint64_t)l.mant_bits);
    const uint64_t j = (r[0] >> (64 - j_bits)) | (1ull << (j_bits - 1));
    return (one - j) | ((r[1] >> 63) << (l.total_bits - 1));
}

/* |x| log-uniform from the smallest subnormal to 1/2, either sign: a binade drawn uniformly among the mant_bits
 * subnormal ones ([2^s, 2^(s+1)) times the smallest subnormal) and the normal ones below 1/2 (exponent fields 1 to
 * bias - 2), then a value uniformly in it. */
static uint64_t sample_asin_near_zero(layout l, const uint64_t r[2]) {
    const uint64_t binade = (r[1] & ~(1ull << 63)) % (uint64_t)(l.mant_bits + l.bias - 2);
    if (binade < (uint64_t)l.mant_bits)
        return compose(l, r[1] >> 63, 0, (1ull << binade) | (r[0] & ((1ull << binade) - 1)));
    return compose(l, r[1] >> 63, binade - (uint64_t)l.mant_bits + 1, r[0]);
}

uint64_t ulpb_order_key(ulpb_dtype_id dtype, uint64_t bits) {
    const layout l = layout_of(dtype);
    const uint64_t sign = 1ull << (l.total_bits - 1), mask = sign | (sign - 1);
    return bits & sign ? ~bits & mask : bits | sign;
}

uint64_t ulpb_bits_of_key(ulpb_dtype_id dtype, uint64_t key) {
    const layout l = layout_of(dtype);
    const uint64_t sign = 1ull << (l.total_bits - 1), mask = sign | (sign - 1);
    return key & sign ? key & ~sign : ~key & mask;
}

bool ulpb_range_holds(const ulpb_input_range *range, double x) { return x >= range->lo && x <= range->hi; }

static double key_value(ulpb_dtype_id dtype, uint64_t key) {
    return ref_decode(&ulpb_dtypes[dtype].format, ulpb_bits_of_key(dtype, key));
}

bool ulpb_range_keys(ulpb_dtype_id dtype, const ulpb_input_range *range, uint64_t *first, uint64_t *last) {
    if (!(range->lo <= range->hi)) return false;
    if (ulpb_dtypes[dtype].bytes == 2) { /* few enough to look at every one */
        bool found = false;
        for (uint64_t key = 0; key < 1u << 16; key++)
            if (ulpb_range_holds(range, key_value(dtype, key))) {
                if (!found) *first = key;
                *last = key;
                found = true;
            }
        return found;
    }
    /* to nearest, then inward; a zero end takes in the other zero, which has the same value */
    uint64_t a = ulpb_order_key(dtype, round_to_format(dtype, range->lo));
    uint64_t b = ulpb_order_key(dtype, round_to_format(dtype, range->hi));
    if (key_value(dtype, a) < range->lo) a++;
    if (key_value(dtype, b) > range->hi) b--;
    if (key_value(dtype, a) == 0 && key_value(dtype, a - 1) == 0) a--;
    if (key_value(dtype, b) == 0 && key_value(dtype, b + 1) == 0) b++;
    *first = a, *last = b;
    return a <= b && isfinite(key_value(dtype, a)) && isfinite(key_value(dtype, b));
}

/* Uniform in value between the first and last of the format's values in the range (a range wider than the format's
 * finite values would otherwise put nearly every draw at its largest one), rounded to the format. */
static uint64_t sample_range_values(ulpb_dtype_id dtype, uint64_t first, uint64_t last, const uint64_t r[2]) {
    const double lo = key_value(dtype, first), hi = key_value(dtype, last), u = unit_interval(r[0]), span = hi - lo;
    /* a span beyond binary64's range (-1e308, 1e308) is taken in halves, which cannot overflow */
    const double x = isfinite(span) ? lo + span * u : 2.0 * (0.5 * lo + (0.5 * hi - 0.5 * lo) * u);
    const uint64_t bits = round_to_format(dtype, x);
    const double rounded = ref_decode(&ulpb_dtypes[dtype].format, bits);
    return !(rounded >= lo) ? ulpb_bits_of_key(dtype, first) : rounded > hi ? ulpb_bits_of_key(dtype, last) : bits;
}

/* Uniform over the format's values in [lo, hi]: every binade in it weighs by the values it holds. */
static uint64_t sample_range_patterns(ulpb_dtype_id dtype, uint64_t first, uint64_t last, const uint64_t r[2]) {
    const uint64_t span = last - first; /* below 2^64 - 1: a finite range holds no NaN or infinity */
    return ulpb_bits_of_key(dtype, first + r[0] % (span + 1));
}

/* Edge values of every format, as bit patterns. */
static int specials(layout l, uint64_t *out) {
    const uint64_t exp_max = (1ull << l.exp_bits) - 1, mant_max = (1ull << l.mant_bits) - 1;
    const uint64_t quiet = 1ull << (l.mant_bits - 1);
    const uint64_t magnitudes[] = {
        0,                                      /* zero */
        1,                                      /* smallest subnormal */
        mant_max,                               /* largest subnormal */
        compose(l, 0, 1, 0),                    /* smallest normal */
        compose(l, 0, exp_max - 1, mant_max),   /* largest finite */
        compose(l, 0, exp_max, 0),              /* infinity */
        compose(l, 0, exp_max, quiet),          /* quiet NaN */
        compose(l, 0, exp_max, 1),              /* signalling NaN */
        compose(l, 0, exp_max, quiet | 0x2a),   /* NaN with payload */
        compose(l, 0, (uint64_t)l.bias, 0),     /* 1 */
        compose(l, 0, (uint64_t)l.bias, 0) - 1, /* 1 - ulp */
        compose(l, 0, (uint64_t)l.bias, 1),     /* 1 + ulp */
        compose(l, 0, (uint64_t)l.bias - 1, 0), /* 1/2 */
        compose(l, 0, (uint64_t)l.bias - 1, 0) - 1,
        compose(l, 0, (uint64_t)l.bias + 1, 0), /* 2 */
    };
    int n = 0;
    for (size_t i = 0; i < sizeof magnitudes / sizeof magnitudes[0]; i++) {
        out[n++] = magnitudes[i];
        out[n++] = magnitudes[i] | (1ull << (l.total_bits - 1));
    }
    return n;
}

/* A value at a log-uniform distance from either end of the range, counted in the format's values: j = 0 (the end
 * itself) or j in [2^(b-1), 2^b) for an octave b drawn uniformly up to the span's, so that 1 - j ulps below an end at 1
 * come as asin_near_one draws them, and the subnormals above an end at 0 as asin_near_zero's smallest binades. */
static uint64_t sample_range_ends(ulpb_dtype_id dtype, uint64_t first, uint64_t last, const uint64_t r[2]) {
    const uint64_t span = last - first;
    const int width = span ? 64 - __builtin_clzll(span) : 0;
    const int b = (int)((r[1] & ~(1ull << 63)) % (uint64_t)(width + 1));
    uint64_t j = b == 0 ? 0 : (1ull << (b - 1)) | (r[0] & ((1ull << (b - 1)) - 1));
    if (j > span) j = span;
    return ulpb_bits_of_key(dtype, r[1] >> 63 ? last - j : first + j);
}

/* The format's nearest value to k pi/2, negated on the negative side (sign 1), as an order key. */
static uint64_t pio2_multiple_key(ulpb_dtype_id dtype, int64_t k, int sign) {
    const uint64_t bits = nearest_to_pio2_multiple(dtype, (double)k);
    return ulpb_order_key(dtype, sign ? bits ^ (1ull << (layout_of(dtype).total_bits - 1)) : bits);
}

/* The odd k whose multiple k pi/2 on one side of the range (sign 0: its positive values, 1: its negative ones) has its
 * nearest value of the format inside the range, for k below 2^(p-2) (where an ulp is at most 1/2; further out the
 * values near a zero are too few to aim at): false when there is none. Bounds from binary64 arithmetic, then decided on
 * the format's values, so that a range ending within an ulp of a multiple is taken as the format sees it. */
static bool range_pio2_multiples(ulpb_dtype_id dtype, const ulpb_input_range *range, int sign, int64_t *k_lo,
                                 int64_t *k_hi) {
    uint64_t first, last;
    if (!ulpb_range_keys(dtype, range, &first, &last)) return false;
    const double a = sign ? fmax(-range->hi, 0.0) : fmax(range->lo, 0.0), b = sign ? -range->lo : range->hi;
    if (!(b > 0) || !(a <= b)) return false;
    static const double two_over_pi = 0x1.45f306dc9c883p-1;
    const int64_t k_max = ((int64_t)1 << (layout_of(dtype).mant_bits - 1)) - 1; /* odd */
    if (!(a * two_over_pi <= (double)k_max + 1)) return false;
    int64_t lo = (int64_t)fmax(floor(a * two_over_pi), 1.0) | 1; /* within 2 of the first, below or above it */
    int64_t hi = (int64_t)ceil(fmin(b * two_over_pi, (double)k_max));
    if (!(hi & 1)) hi++;
    if (hi > k_max) hi = k_max;
    const int64_t lowest = lo - 2 >= 1 ? lo - 2 : 1; /* step down, then up to the first multiple inside */
    for (lo = lowest; lo <= hi; lo += 2) {
        const uint64_t key = pio2_multiple_key(dtype, lo, sign);
        if (key >= first && key <= last) break;
    }
    for (; hi >= lo; hi -= 2) {
        const uint64_t key = pio2_multiple_key(dtype, hi, sign);
        if (key >= first && key <= last) break;
    }
    if (lo > hi) return false;
    *k_lo = lo, *k_hi = hi;
    return true;
}

bool sampler_range_has_pio2(ulpb_dtype_id dtype, const ulpb_input_range *range) {
    int64_t lo, hi;
    return range_pio2_multiples(dtype, range, 0, &lo, &hi) || range_pio2_multiples(dtype, range, 1, &lo, &hi);
}

/* j in [0, count) log-uniform: j = 0, or j in [2^(b-1), 2^b) (the last octave cut at count) for an octave b drawn
 * uniformly (octave_draw) among the 1 + those that count reaches, with its low part from bits. */
static uint64_t log_uniform_below(uint64_t count, uint64_t octave_draw, uint64_t bits) {
    if (count <= 1) return 0;
    const int octaves = 64 - __builtin_clzll(count - 1);
    const int b = (int)(octave_draw % (uint64_t)(octaves + 1));
    if (b == 0) return 0;
    const uint64_t low = 1ull << (b - 1), high = b < octaves ? 1ull << b : count;
    return low + bits % (high - low);
}

/* range_near_pio2 (cos): near the zeros of cos in the range. The format's nearest value to k pi/2 for an odd k of the
 * range, log-uniform in its rank there (the range's smallest multiples come often), on a side drawn among those that
 * hold one; then j ulps away, j log-uniform below 2^(p-1) and below the room the range leaves on the farther side, to a
 * side drawn at random or the other when the range ends nearer on it: values next to the zero and a binade's
 * fraction away, not piled on the range's ends. */
static uint64_t sample_range_near_pio2(ulpb_dtype_id dtype, const ulpb_input_range *range, uint64_t first,
                                       uint64_t last, const uint64_t r[2]) {
    int64_t k_lo[2], k_hi[2];
    const bool side[2] = {range_pio2_multiples(dtype, range, 0, &k_lo[0], &k_hi[0]),
                          range_pio2_multiples(dtype, range, 1, &k_lo[1], &k_hi[1])};
    if (!side[0] && !side[1]) abort(); /* a caller's bug: the plan runs it only then */
    const int sign = side[0] && side[1] ? (int)(r[1] >> 63) : side[1];
    const uint64_t more = splitmix64(r[0] ^ r[1]); /* a third draw */
    const uint64_t j = log_uniform_below((uint64_t)(k_hi[sign] - k_lo[sign]) / 2 + 1, r[1] & 0xffff, r[0]);
    const uint64_t nearest = pio2_multiple_key(dtype, k_lo[sign] + 2 * (int64_t)j, sign); /* in [first, last] */
    const uint64_t below = nearest - first, above = last - nearest, room = below > above ? below : above;
    const uint64_t widest = 1ull << layout_of(dtype).mant_bits;
    const uint64_t ulps = log_uniform_below(room < widest ? room + 1 : widest, (r[1] >> 16) & 0xffff, more);
    bool down = (r[1] >> 62) & 1;
    if (ulps > (down ? below : above)) down = !down; /* the other side has the room */
    return ulpb_bits_of_key(dtype, down ? nearest - ulps : nearest + ulps);
}

/* The range's first and last values, then the format's edge values (specials) inside it: a ranged run's fixed list. */
static int range_specials(ulpb_dtype_id dtype, const ulpb_input_range *range, uint64_t *out) {
    uint64_t first, last, edges[64];
    if (!ulpb_range_keys(dtype, range, &first, &last)) return 0;
    const uint64_t first_bits = ulpb_bits_of_key(dtype, first), last_bits = ulpb_bits_of_key(dtype, last);
    int n = 0;
    out[n++] = first_bits;
    if (last != first) out[n++] = last_bits;
    const int edge_count = specials(layout_of(dtype), edges);
    for (int i = 0; i < edge_count; i++) {
        const bool is_end = edges[i] == first_bits || edges[i] == last_bits;
        if (!is_end && ulpb_range_holds(range, ref_decode(&ulpb_dtypes[dtype].format, edges[i]))) out[n++] = edges[i];
    }
    return n;
}

/* hard_cases: the op's rows of the hard-to-round tables for the format, each magnitude once and then negated (cos is
 * even and asin odd, so -x is as hard as x; some rows are negative), in the tables' order. Built on first use. */
typedef struct {
    uint64_t *bits;
    uint64_t count;
} input_list;
static input_list hard_case_lists[ULPB_OP_COUNT][2]; /* [op][binary32, binary64] */
static pthread_once_t hard_case_lists_once = PTHREAD_ONCE_INIT;

static void build_hard_case_lists(void) {
    for (int op = 0; op < ULPB_OP_COUNT; op++)
        for (int f = 0; f < 2; f++) {
            const int width = f ? 64 : 32;
            const uint64_t sign = 1ull << (width - 1);
            input_list *list = &hard_case_lists[op][f];
            list->bits = malloc(2 * (size_t)ulpb_hard_case_row_count * sizeof *list->bits);
            if (!list->bits) abort(); /* a few kilobytes, once */
            for (int i = 0; i < ulpb_hard_case_row_count; i++) {
                const ulpb_hard_case_row *row = &ulpb_hard_case_rows[i];
                if (row->width != width || strcmp(row->op, ulpb_ops[op].name) != 0) continue;
                uint64_t bits = row->bits;
                if (row->from_value) memcpy(&bits, &row->value, sizeof bits);
                bits &= ~sign;
                bool seen = false;
                for (uint64_t k = 0; k < list->count && !seen; k++) seen = list->bits[k] == bits;
                if (seen) continue;
                list->bits[list->count++] = bits;
                list->bits[list->count++] = bits | sign;
            }
        }
}

static const input_list *hard_case_list(ulpb_op_id op, ulpb_dtype_id dtype) {
    static const input_list none = {NULL, 0};
    const int bytes = ulpb_dtypes[dtype].bytes;
    if (bytes != 4 && bytes != 8) return &none;
    pthread_once(&hard_case_lists_once, build_hard_case_lists);
    return &hard_case_lists[op][bytes == 8];
}

/* The index-th input of hard_cases in the range (all of them without one), and how many there are: *count. */
static uint64_t hard_case_in(ulpb_op_id op, ulpb_dtype_id dtype, const ulpb_input_range *range, uint64_t index,
                             uint64_t *count) {
    const input_list *list = hard_case_list(op, dtype);
    uint64_t n = 0, found = UINT64_MAX;
    for (uint64_t k = 0; k < list->count; k++)
        if (!range || !range->given || ulpb_range_holds(range, ref_decode(&ulpb_dtypes[dtype].format, list->bits[k])))
            if (n++ == index) found = list->bits[k];
    *count = n;
    return found;
}

uint64_t sampler_hard_case_count(ulpb_op_id op, ulpb_dtype_id dtype, const ulpb_input_range *range) {
    uint64_t count;
    hard_case_in(op, dtype, range, UINT64_MAX, &count);
    return count;
}

static const char *const sampler_names[SAMPLER_COUNT] = {
    [SAMPLER_SPECIALS] = "specials",
    [SAMPLER_UNIFORM_BITS] = "uniform_bits",
    [SAMPLER_UNIFORM_DOMAIN] = "uniform_domain",
    [SAMPLER_COS_LARGE] = "cos_large",
    [SAMPLER_COS_NEAR_PIO2] = "cos_near_pio2",
    [SAMPLER_ASIN_NEAR_ONE] = "asin_near_one",
    [SAMPLER_ASIN_NEAR_ZERO] = "asin_near_zero",
    [SAMPLER_RANGE_SPECIALS] = "range_specials",
    [SAMPLER_RANGE_VALUES] = "range_values",
    [SAMPLER_RANGE_PATTERNS] = "range_patterns",
    [SAMPLER_RANGE_ENDS] = "range_ends",
    [SAMPLER_HARD_CASES] = "hard_cases",
    [SAMPLER_RANGE_NEAR_PIO2] = "range_near_pio2",
};

const char *ulpb_sampler_name(int sampler) { return sampler_names[sampler]; }

int ulpb_sampler_find(const char *name) {
    for (int i = 0; i < SAMPLER_COUNT; i++)
        if (strcmp(sampler_names[i], name) == 0) return i;
    return -1;
}

int samplers_for_op(ulpb_op_id op, int out[SAMPLER_COUNT]) {
    int n = 0;
    out[n++] = SAMPLER_SPECIALS;
    out[n++] = SAMPLER_HARD_CASES;
    out[n++] = SAMPLER_UNIFORM_BITS;
    out[n++] = SAMPLER_UNIFORM_DOMAIN;
    switch (op) { /* no default: a new op must name its samplers (-Wswitch) */
    case ULPB_OP_cos:
        out[n++] = SAMPLER_COS_LARGE;
        out[n++] = SAMPLER_COS_NEAR_PIO2;
        break;
    case ULPB_OP_asin:
        out[n++] = SAMPLER_ASIN_NEAR_ONE;
        out[n++] = SAMPLER_ASIN_NEAR_ZERO;
        break;
    case ULPB_OP_COUNT:
        break;
    }
    return n;
}

int samplers_for_range(ulpb_op_id op, ulpb_dtype_id dtype, const ulpb_input_range *range, int out[SAMPLER_COUNT]) {
    int n = 0;
    out[n++] = SAMPLER_RANGE_SPECIALS;
    out[n++] = SAMPLER_HARD_CASES;
    out[n++] = SAMPLER_RANGE_VALUES;
    out[n++] = SAMPLER_RANGE_PATTERNS;
    out[n++] = SAMPLER_RANGE_ENDS;
    switch (op) { /* the op's own samplers that a range can hold (-Wswitch: a new op says whether it has one) */
    case ULPB_OP_cos:
        if (sampler_range_has_pio2(dtype, range)) out[n++] = SAMPLER_RANGE_NEAR_PIO2;
        break;
    case ULPB_OP_asin: /* near +-1 and near 0: range_ends and range_patterns draw there when the range reaches them */
    case ULPB_OP_COUNT:
        break;
    }
    return n;
}

uint64_t sampler_range_special_count(ulpb_dtype_id dtype, const ulpb_input_range *range) {
    uint64_t buf[66];
    return (uint64_t)range_specials(dtype, range, buf);
}

uint64_t sampler_special_count(ulpb_dtype_id dtype) {
    uint64_t buf[64];
    return (uint64_t)specials(layout_of(dtype), buf);
}

uint64_t ulpb_sampler_input(int sampler, ulpb_op_id op, ulpb_dtype_id dtype, uint64_t seed, uint64_t index) {
    return ulpb_sampler_input_in(sampler, op, dtype, NULL, seed, index);
}

uint64_t ulpb_sampler_input_in(int sampler, ulpb_op_id op, ulpb_dtype_id dtype, const ulpb_input_range *range,
                               uint64_t seed, uint64_t index) {
    const layout l = layout_of(dtype);
    if ((sampler >= SAMPLER_RANGE_SPECIALS && sampler <= SAMPLER_RANGE_ENDS) || sampler == SAMPLER_RANGE_NEAR_PIO2) {
        uint64_t first, last, fixed[66];
        if (!range || !range->given || !ulpb_range_keys(dtype, range, &first, &last)) abort(); /* a caller's bug */
        if (sampler == SAMPLER_RANGE_SPECIALS) return fixed[index % (uint64_t)range_specials(dtype, range, fixed)];
        uint64_t r[2];
        draw(seed, sampler, index, r);
        if (sampler == SAMPLER_RANGE_NEAR_PIO2) return sample_range_near_pio2(dtype, range, first, last, r);
        return sampler == SAMPLER_RANGE_VALUES     ? sample_range_values(dtype, first, last, r)
               : sampler == SAMPLER_RANGE_PATTERNS ? sample_range_patterns(dtype, first, last, r)
                                                   : sample_range_ends(dtype, first, last, r);
    }
    if (sampler == SAMPLER_HARD_CASES) {
        uint64_t count;
        const uint64_t bits = hard_case_in(op, dtype, range, index, &count);
        if (index >= count) abort(); /* a caller's bug: the plan counts the list */
        return bits;
    }
    if (sampler == SAMPLER_SPECIALS) {
        uint64_t buf[64];
        const int n = specials(l, buf);
        return buf[index % (uint64_t)n];
    }
    uint64_t r[2];
    draw(seed, sampler, index, r);
    switch (sampler) {
    case SAMPLER_UNIFORM_BITS:
        return sample_uniform_bits(l, r);
    case SAMPLER_UNIFORM_DOMAIN:
        return sample_uniform_domain(op, dtype, r);
    case SAMPLER_COS_LARGE:
        return sample_cos_large(l, r);
    case SAMPLER_COS_NEAR_PIO2:
        return sample_cos_near_pio2(l, dtype, r);
    case SAMPLER_ASIN_NEAR_ONE:
        return sample_asin_near_one(l, r);
    case SAMPLER_ASIN_NEAR_ZERO:
        return sample_asin_near_zero(l, r);
    default:
        return 0;
    }
}
