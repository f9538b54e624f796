/* Public entry points of omk and the runtime dispatch: each entry point holds a pointer to its build, which its first
 * call picks (and, for a 16-bit kernel, fills the table of) before running it. */
#include "omk.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <cpuid.h> /* x86 only, as the dispatch on __builtin_cpu_supports is */
#include <xmmintrin.h>

#include "omk_dispatch.h"
#include "omk_internal.h"
#include "omk_table16.h"

#define OMK_CPU_HAS(feature) __builtin_cpu_supports(feature)
#define OMK_CPU_HAS_F16C     omk_cpu_has_f16c()
static bool omk_cpu_has_f16c(void) {
    unsigned int eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
}

#define OMK_ISA_NAME_ENTRY(name, ENUM, flags, cpu_test, unused) #name,
static const char *const isa_names[OMK_ISA_COUNT] = {OMK_FOR_EACH_ISA(OMK_ISA_NAME_ENTRY, 0)};
#undef OMK_ISA_NAME_ENTRY

const char *omk_isa_name(omk_isa isa) { return isa < OMK_ISA_COUNT ? isa_names[isa] : "unknown"; }

bool omk_isa_supported(omk_isa isa) {
    __builtin_cpu_init();
    switch (isa) {
#define OMK_ISA_CASE(name, ENUM, flags, cpu_test, unused)                                                              \
    case OMK_ISA_##ENUM:                                                                                               \
        return cpu_test;
        OMK_FOR_EACH_ISA(OMK_ISA_CASE, 0)
#undef OMK_ISA_CASE
    default:
        return false;
    }
}

omk_isa omk_isa_choose(const char *forced) {
    int chosen = 0; /* the baseline */
    for (int i = OMK_ISA_COUNT - 1; i > 0; i--)
        if (omk_isa_supported((omk_isa)i)) {
            chosen = i;
            break;
        }
    for (int i = 0; forced && i <= chosen; i++)
        if (strcmp(forced, isa_names[i]) == 0) return (omk_isa)i;
    return (omk_isa)chosen;
}

/* Decided once, at the first call of any entry point or of omk_isa_in_use(): every entry point resolves to the same
 * build, and the name reported is the one running even if OMK_ISA changes later (a relaxed race only repeats the
 * same decision). */
omk_isa omk_isa_selected(void) {
    static _Atomic int decided = -1;
    int chosen = atomic_load_explicit(&decided, memory_order_relaxed);
    if (chosen < 0) {
        chosen = (int)omk_isa_choose(getenv("OMK_ISA"));
        atomic_store_explicit(&decided, chosen, memory_order_relaxed);
    }
    return (omk_isa)chosen;
}

/* The kernels run in the default floating-point environment whatever the caller's: round to nearest, subnormals kept
 * (no FTZ/DAZ), exceptions masked. Their branch-free lanes compute values no result uses (the square root of a
 * negative number, divisions by zero), their 16-bit kernels take bit patterns, and their tables are filled at first
 * use for every later caller; under a runtime's FTZ/DAZ the binary32 path gave a 16-bit subnormal another result in
 * the last lanes of a call than in the others, and a table filled under FE_UPWARD kept two wrong entries for good.
 * A caller in another environment gets its control word back on return, exception flags as they were; in the
 * default one nothing is written (the kernels may raise flags there, as vector math libraries do), since loading
 * MXCSR twice made a one-element binary64 call take 39 ns instead of 25 on AMD Zen 5. */
enum {
    OMK_MXCSR_DEFAULT = 0x1f80, /* all exceptions masked, round to nearest, no FTZ/DAZ */
    OMK_MXCSR_FLAGS = 0x3f,
    OMK_MXCSR_RESTORE = 0x10000 /* above MXCSR's 16 bits: the state holds a control word to restore */
};
typedef unsigned int omk_fp_state;
static inline omk_fp_state omk_fp_enter(void) {
    const unsigned int caller = _mm_getcsr();
    if ((caller & ~OMK_MXCSR_FLAGS) == OMK_MXCSR_DEFAULT) return 0;
    _mm_setcsr(OMK_MXCSR_DEFAULT);
    return caller | OMK_MXCSR_RESTORE;
}
static inline void omk_fp_leave(omk_fp_state state) {
    if (state & OMK_MXCSR_RESTORE) _mm_setcsr(state & ~OMK_MXCSR_RESTORE);
}

/* Whether y starts inside x[0..n) past x (bytes: n times the element size). The array loops go forward and read each
 * block before storing it, which is right for y <= x (in place included); with y past x, a block's results would
 * overwrite inputs of later blocks before these are read. */
static inline bool omk_output_trails_input(const void *x, const void *y, size_t bytes) {
    const uintptr_t px = (uintptr_t)x, py = (uintptr_t)y;
    return py > px && py - px < bytes;
}
/* Such a call runs from the end, one chunk at a time, each chunk's inputs copied out before its results are stored:
 * the results overwrite only inputs already read, so that any overlap gives what separate arrays would (as memmove does
 * for copies). Out of line, so that other calls do not reserve the chunk on the stack (OMK_STACK_BYTES_MAX). */
enum { OMK_TRAILING_CHUNK_BYTES = 1024 };
#define OMK_DEFINE_RUN_FROM_THE_END(name, fn_type, ctype)                                                              \
    __attribute__((noinline)) static void name(fn_type impl, const ctype *x, ctype *y, size_t n) {                     \
        ctype chunk[OMK_TRAILING_CHUNK_BYTES / sizeof(ctype)];                                                         \
        for (size_t end = n; end > 0;) {                                                                               \
            const size_t count = end < sizeof chunk / sizeof chunk[0] ? end : sizeof chunk / sizeof chunk[0];          \
            end -= count;                                                                                              \
            memcpy(chunk, x + end, count * sizeof(ctype));                                                             \
            impl(chunk, y + end, count);                                                                               \
        }                                                                                                              \
    }

/* A 16-bit kernel's first call decides the 16-bit method and fills its table in the entry point's frame, before the
 * kernel runs. Those are the library's calls into libc (pthread_once, getenv, strcmp), which a lazily bound program
 * resolves at their first call, and the dynamic linker's resolver saves the vector registers on the caller's stack
 * (about 3 KiB): inside a kernel's frame, as before, they took a first binary16 cos call with y past x to 16,696 bytes,
 * past OMK_STACK_BYTES_MAX. (The scalar build's fma and fmaf calls are resolved inside its kernels, whose frames are
 * small.) */
#define OMK_FIRST_USE_float(op, dtype)
#define OMK_FIRST_USE_double(op, dtype)
#define OMK_FIRST_USE_uint16_t(op, dtype) (void)omk_half16_compute(), (void)omk_table_##op##_##dtype();

#define OMK_BUILD(isa, op, dtype)                           omk_##op##_##dtype##_##isa,
#define OMK_BUILD_ISA(isa, ENUM, flags, cpu_test, op_dtype) OMK_APPLY(OMK_BUILD, isa, OMK_UNPACK op_dtype)
/* The entry point's build: NULL until the first call settles it (settle is out of line, so that its frames, the
 * selection's and a table fill's, are not reserved by every call). */
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    typedef void (*op##_##dtype##_fn)(const ctype *, ctype *, size_t);                                                 \
    OMK_DEFINE_RUN_FROM_THE_END(op##_##dtype##_from_the_end, op##_##dtype##_fn, ctype)                                 \
    static _Atomic(op##_##dtype##_fn) op##_##dtype##_impl;                                                             \
    __attribute__((noinline)) static op##_##dtype##_fn op##_##dtype##_settle(void) {                                   \
        static const op##_##dtype##_fn builds[OMK_ISA_COUNT] = {OMK_FOR_EACH_ISA(OMK_BUILD_ISA, (op, dtype))};         \
        const op##_##dtype##_fn chosen = builds[omk_isa_selected()];                                                   \
        OMK_FIRST_USE_##ctype(op, dtype) atomic_store_explicit(&op##_##dtype##_impl, chosen, memory_order_relaxed);    \
        return chosen;                                                                                                 \
    }                                                                                                                  \
    void omk_##op##_##dtype(const ctype *x, ctype *y, size_t n) {                                                      \
        const omk_fp_state caller = omk_fp_enter();                                                                    \
        op##_##dtype##_fn impl = atomic_load_explicit(&op##_##dtype##_impl, memory_order_relaxed);                     \
        if (!impl) impl = op##_##dtype##_settle();                                                                     \
        if (omk_output_trails_input(x, y, n * sizeof(ctype)))                                                          \
            op##_##dtype##_from_the_end(impl, x, y, n);                                                                \
        else                                                                                                           \
            impl(x, y, n);                                                                                             \
        omk_fp_leave(caller);                                                                                          \
    }
#include "omk_kernels.def"
#undef OMK_KERNEL

float omk_f16_to_f32(uint16_t h) { return (float)omk_f16_to_double(h); }
uint16_t omk_f32_to_f16(float f) { return omk_double_to_f16((double)f); }
/* bfloat16 is binary32's upper half: both directions work on the bits, since its subnormals are binary32 subnormals,
 * which a caller's FTZ/DAZ would flush in arithmetic. A NaN keeps its sign and top payload bits and becomes quiet
 * both ways, as through the hardware conversions; narrowing rounds to nearest even on the low 16 bits. */
float omk_bf16_to_f32(uint16_t h) {
    const uint32_t quiet = (h & 0x7fffu) > 0x7f80u ? 0x00400000u : 0;
    return omk_float_from_bits(((uint32_t)h << 16) | quiet);
}
uint16_t omk_f32_to_bf16(float f) {
    const uint32_t bits = omk_bits32(f);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((bits >> 16) | 0x0040u);
    return (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

const char *omk_isa_in_use(void) { return omk_isa_name(omk_isa_selected()); }

bool omk_cpuid_gathers_fast(unsigned max_leaf, unsigned vendor_ebx, unsigned vendor_edx, unsigned vendor_ecx,
                            unsigned leaf7_edx) {
    const bool intel = vendor_ebx == 0x756e6547u && vendor_edx == 0x49656e69u && vendor_ecx == 0x6c65746eu;
    return intel && max_leaf >= 7 && (leaf7_edx & (1u << 23)); /* "Genu" "ineI" "ntel"; AVX512-FP16 */
}

static bool omk_cpu_gathers_fast(void) {
    unsigned int max_leaf, ebx, ecx, edx, leaf7_eax, leaf7_ebx, leaf7_ecx, leaf7_edx = 0;
    if (!__get_cpuid(0, &max_leaf, &ebx, &ecx, &edx)) return false;
    if (max_leaf >= 7) __get_cpuid_count(7, 0, &leaf7_eax, &leaf7_ebx, &leaf7_ecx, &leaf7_edx);
    return omk_cpuid_gathers_fast(max_leaf, ebx, edx, ecx, leaf7_edx);
}

/* Decided once (a relaxed race only repeats the same decision): OMK_HALF16=table or compute, else by the CPU. Measured
 * with ulpbench bench (same-round ratios to the fastest peer pipeline, 4 Ki elements, OMK_HALF16 set each way): on AMD
 * Zen 5 the binary32 path runs about twice as fast as the table's gathers; on an Intel Xeon with AVX512-FP16 the table
 * reached 1.26 to 1.78 times the fastest peer and the binary32 path 0.93 to 1.10 times. Intel CPUs without AVX512-FP16
 * (Skylake-SP to Ice Lake) were not measured: the Gather Data Sampling microcode (2023) slows their gathers, so they
 * keep the binary32 path. */
bool omk_half16_compute(void) {
    static _Atomic int decided = -1;
    int compute = atomic_load_explicit(&decided, memory_order_relaxed);
    if (compute < 0) {
        const char *forced = getenv("OMK_HALF16");
        if (forced && strcmp(forced, "table") == 0)
            compute = 0;
        else if (forced && strcmp(forced, "compute") == 0)
            compute = 1;
        else
            compute = !omk_cpu_gathers_fast();
        atomic_store_explicit(&decided, compute, memory_order_relaxed);
    }
    return compute;
}

/* OMK_HALF_COMPUTE (omk_internal.h) holds in the AVX-512 build only. */
const char *omk_half16_method(void) {
    return omk_isa_selected() == OMK_ISA_AVX512 && omk_half16_compute() ? "compute" : "table";
}

const char *omk_version(void) { return OMK_VERSION; }
