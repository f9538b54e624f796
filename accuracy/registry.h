/* Typed view of registry.def: dtypes, ops, the implementations under test and the benchmark
 * input sets. */
#ifndef ULPB_REGISTRY_H
#define ULPB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fp_controls.h"
#include "ref.h"

typedef enum {
#define ULPB_DTYPE(name, bytes, precision, exp_bits, descr, gate_misrounded, gate_ulp) ULPB_DTYPE_##name,
#include "registry.def"
#undef ULPB_DTYPE
    ULPB_DTYPE_COUNT
} ulpb_dtype_id;

typedef enum {
#define ULPB_OP(name, ref, lo, hi) ULPB_OP_##name,
#include "registry.def"
#undef ULPB_OP
    ULPB_OP_COUNT
} ulpb_op_id;

typedef enum {
#define ULPB_ISA(name, label, flags, cpu_test) ULPB_ISA_##name,
#include "registry.def"
#undef ULPB_ISA
    ULPB_ISA_COUNT
} ulpb_isa;

typedef enum {
    ULPB_ROLE_PRODUCTION, /* ours: gated in reports */
    ULPB_ROLE_PEER,       /* other libraries, shown beside us, never gated */
    ULPB_ROLE_BASELINE,   /* throughput reference points (memcpy); no accuracy */
    ULPB_ROLE_LIBRARY     /* a user's kernels, loaded at run time (ULPB_LIBRARIES): gated in reports, as omk's */
} ulpb_role;

/* omk's rows and ULPB_LIBRARIES': the ones report and gate hold to the limits */
static inline bool ulpb_role_gated(ulpb_role role) { return role == ULPB_ROLE_PRODUCTION || role == ULPB_ROLE_LIBRARY; }

typedef struct {
    const char *name;
    size_t bytes;
    ref_format format;
    const char *npy_descr;
    long long gate_max_misrounded; /* default report gate for omk; -1: not checked */
    double gate_max_ulp;           /* likewise; < 0: not checked */
} ulpb_dtype;

typedef struct {
    const char *name;
    ref_op ref;
    double domain_lo, domain_hi;
} ulpb_op;

typedef void (*ulpb_kernel_fn)(const void *x, void *y, size_t n);

typedef struct {
    const char *impl;
    ulpb_op_id op;
    ulpb_dtype_id dtype;
    ulpb_kernel_fn fn;
    ulpb_role role;
    ulpb_isa isa;
    const char *description;
    bool correctly_rounded; /* production rows: promised on every input (kernels/omk_kernels.def) */
    double documented_ulp;  /* vector peers: the largest error their library documents, in ulps (-1: none) */
} ulpb_entry;

typedef struct {
    const char *name; /* in benchmark names, e.g. "pi" */
    ulpb_op_id op;
    double lo, hi;
    const char *label; /* for tables, e.g. "[-π, π]" */
    /* bench --inputs: value_count elements of the run's one dtype that the inputs are drawn from instead, lo and hi
     * their smallest and largest values; NULL: uniform in [lo, hi] */
    const void *values;
    uint64_t value_count;
} ulpb_input_set;

typedef struct {
    const char *label;
    ulpb_dtype_id dtype;
    size_t size;       /* elements per call */
    const char *peers; /* "a,b": omk must reach factor times each; "*": every peer of the group */
    double factor;
} ulpb_target;

extern const ulpb_dtype ulpb_dtypes[ULPB_DTYPE_COUNT];
extern const ulpb_op ulpb_ops[ULPB_OP_COUNT];
/* The registry.def and omk_kernels.def entries, then those of the libraries ulpb_load_libraries loaded. */
extern const ulpb_entry *ulpb_entries;
extern size_t ulpb_entry_count;
extern const ulpb_input_set ulpb_input_sets[];
extern const size_t ulpb_input_set_count;
extern const ulpb_target ulpb_targets[];
extern const size_t ulpb_target_count;

/* Loads the user's kernels that spec names, "NAME[:PREFIX]=PATH[,NAME[:PREFIX]=PATH...]" (ULPB_LIBRARIES; NULL or
 * empty: none): PATH a shared object exporting PREFIX_<op>_<dtype> (PREFIX defaults to NAME) with omk's signatures
 * (omk.h), each found one becoming an entry of implementation NAME and role ULPB_ROLE_LIBRARY. Call it once, before
 * anything reads the registry. 0, or -1 and a message in err. */
int ulpb_load_libraries(const char *spec, char *err, size_t err_len);
/* The loaded libraries for the environment record, "NAME=PATH (BYTES bytes, FNV-1a 0x...)" joined by "; ", or NULL
 * when none is loaded. */
const char *ulpb_libraries_loaded(void);
/* The same without the paths, "NAME:PREFIX BYTES 0xDIGEST" in name order joined by "; ": what two results must share
 * to be one run's. */
const char *ulpb_libraries_identity(void);

/* Name lookups; -1 when unknown. */
int ulpb_dtype_find(const char *name);
int ulpb_op_find(const char *name);
/* The entry for (impl, op, dtype), or NULL; _n: impl is the first impl_len bytes of a longer text (a list's item). */
const ulpb_entry *ulpb_entry_find(const char *impl, ulpb_op_id op, ulpb_dtype_id dtype);
const ulpb_entry *ulpb_entry_find_n(const char *impl, size_t impl_len, ulpb_op_id op, ulpb_dtype_id dtype);
/* True when some entry has this implementation name. */
bool ulpb_impl_known(const char *impl);

const char *ulpb_role_name(ulpb_role role);
const char *ulpb_isa_name(ulpb_isa isa);
/* True when this CPU (and the OS) runs the ISA and ULPB_DISABLE_ISA does not name it. The
 * environment variable, a comma-separated list of ISA names, lets a newer machine stand in for
 * an older one; disabling avx2 disables avx512 too, and disabling avx512 disables avx512bf16. */
bool ulpb_isa_available(ulpb_isa isa);
/* The AVX-512 bfloat16 peers' narrowing alone, n a multiple of 32, for tests/test_peers.c: vcvtne2ps2bf16
 * (peers_avx512bf16.c, needs AVX512_BF16) and its emulation bit for bit (peers_avx512.c, needs AVX-512F), which those
 * peers use on CPUs without AVX512_BF16 (or with it named in ULPB_DISABLE_ISA at their first call). */
void ulpb_narrow_bf16_avx512bf16(const float *x, uint16_t *y, size_t n);
void ulpb_narrow_bf16_emulated(const float *x, uint16_t *y, size_t n);
/* How many calls of those peers' rows took the emulation (the instruction or the emulation is decided at their first
 * call). */
unsigned long ulpb_bf16_emulated_calls(void);
bool ulpb_entry_available(const ulpb_entry *e);
/* Makes omk's dispatcher follow ULPB_DISABLE_ISA too (by setting OMK_ISA, unless it is set): call it before the
 * first omk call, which fixes the build for the process. */
void ulpb_limit_omk_to_available_isas(void);
/* The ISA the n characters at name name (an entry of ULPB_DISABLE_ISA, or OMK_ISA), or ULPB_ISA_NONE. */
ulpb_isa ulpb_isa_named(const char *name, size_t n);
/* 0 when every name in ULPB_DISABLE_ISA is an ISA (or it is unset); else -1 and a message in err. */
int ulpb_check_disable_isa(char *err, size_t err_len);

/* Whether e, called with the floating-point controls `before` (fp_controls.h), gave them back, and (a kernel of
 * ULPB_LIBRARIES) left the working directory as the libraries found it; if not, they are put back and err names e,
 * the call (NULL: none named) and what changed: a kernel that keeps them changed would change the figures of
 * everything measured after it, or send the run's outputs elsewhere. */
bool ulpb_kernel_kept_controls(const ulpb_entry *e, ulpb_fp_controls before, const char *call, char *err,
                               size_t err_len);
/* What each thread that calls kernels is doing, for a watch on calls that do not return (a hung kernel): entry is the
 * kernel it is in (NULL: none), in calls_in_pass calls of n elements, loading the path of a library of ULPB_LIBRARIES
 * being loaded (its constructors run; NULL: none), and calls changes at every start and end (ulpb_kernel_running);
 * entry and loading are both NULL when the thread's slot changed while it was read, a change calls shows.
 * Threads after the first ULPB_CALL_SLOTS are not listed: the runners use at most ULPB_THREADS_MAX (the largest
 * --threads, and the default's limit) beside the main thread. Returns how many slots it filled. */
enum { ULPB_THREADS_MAX = 1024, ULPB_CALL_SLOTS = ULPB_THREADS_MAX + 64 };
typedef struct {
    const ulpb_entry *entry;
    const char *loading;
    size_t n, calls_in_pass;
    unsigned long calls;
} ulpb_kernel_call;
size_t ulpb_kernel_calls(ulpb_kernel_call calls[ULPB_CALL_SLOTS]);
/* ulpb_kernel_running sets the calling thread's entry around each call of a kernel (accuracy), or each pass of `calls`
 * calls of n elements (bench). ulpb_kernel_in_call reads this thread's own, for the messages of a crash or an exit()
 * inside a kernel or a library's constructors (async-signal-safe): false when it is in neither. */
void ulpb_kernel_running(const ulpb_entry *e, size_t n, size_t calls);
bool ulpb_kernel_in_call(ulpb_kernel_call *call);

/* Defined when a sanitizer's runtime is linked in (GCC says so by macros, Clang by __has_feature), which refuses
 * RTLD_DEEPBIND. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ULPB_SANITIZER_RUNTIME 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define ULPB_SANITIZER_RUNTIME 1
#endif
#endif

#endif
