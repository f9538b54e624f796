#define _XOPEN_SOURCE 700 /* setenv, realpath */
#include "registry.h"

#include <cpuid.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "omk.h"

const ulpb_dtype ulpb_dtypes[ULPB_DTYPE_COUNT] = {
#define ULPB_DTYPE(name, bytes, precision, exp_bits, descr, gate_misrounded, gate_ulp)                                 \
    {#name, bytes, {precision, exp_bits}, descr, gate_misrounded, gate_ulp},
#include "registry.def"
#undef ULPB_DTYPE
};

const ulpb_op ulpb_ops[ULPB_OP_COUNT] = {
#define ULPB_OP(name, ref, lo, hi) {#name, ref, lo, hi},
#include "registry.def"
#undef ULPB_OP
};

static const char *const isa_names[ULPB_ISA_COUNT] = {
#define ULPB_ISA(name, label) label,
#include "registry.def"
#undef ULPB_ISA
};

/* omk's typed entry points behind the registry's untyped signature. */
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    static void omk_entry_##op##_##dtype(const void *x, void *y, size_t n) { omk_##op##_##dtype(x, y, n); }
#include "omk_kernels.def"
#undef OMK_KERNEL

#define ULPB_PEER(impl, op, dtype, isa, fn, desc) void fn(const void *x, void *y, size_t n);
#define ULPB_BASELINE                             ULPB_PEER
#include "registry.def"
#undef ULPB_BASELINE
#undef ULPB_PEER

static const ulpb_entry builtin_entries[] = {
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    {"omk",         ULPB_OP_##op,          ULPB_DTYPE_##dtype, omk_entry_##op##_##dtype, ULPB_ROLE_PRODUCTION,         \
     ULPB_ISA_NONE, "omk " #op " " #dtype, correctly_rounded},
#include "omk_kernels.def"
#undef OMK_KERNEL
#define ULPB_PEER(impl, op, dtype, isa, fn, desc)                                                                      \
    {impl, ULPB_OP_##op, ULPB_DTYPE_##dtype, fn, ULPB_ROLE_PEER, ULPB_ISA_##isa, desc, false},
#define ULPB_BASELINE(impl, op, dtype, isa, fn, desc)                                                                  \
    {impl, ULPB_OP_##op, ULPB_DTYPE_##dtype, fn, ULPB_ROLE_BASELINE, ULPB_ISA_##isa, desc, false},
#include "registry.def"
#undef ULPB_BASELINE
#undef ULPB_PEER
};

const ulpb_entry *ulpb_entries = builtin_entries;
size_t ulpb_entry_count = sizeof builtin_entries / sizeof builtin_entries[0];

/* ---- the user's kernels (ULPB_LIBRARIES) ---- */

enum { LIBRARY_MAX = 4, LIBRARY_NAME_MAX = 32 };

/* One index per entry point of omk.h: a loaded library offers any of them, under its own prefix. */
enum {
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) KERNEL_##op##_##dtype,
#include "omk_kernels.def"
#undef OMK_KERNEL
    KERNEL_COUNT
};

static const struct {
    ulpb_op_id op;
    ulpb_dtype_id dtype;
    const char *suffix;
} library_kernels[KERNEL_COUNT] = {
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded) {ULPB_OP_##op, ULPB_DTYPE_##dtype, "_" #op "_" #dtype},
#include "omk_kernels.def"
#undef OMK_KERNEL
};

static void *library_symbols[LIBRARY_MAX][KERNEL_COUNT];

/* The registry's untyped signature in front of each loaded symbol, which is called through its own type (omk.h's):
 * one function per (library slot, kernel). */
#define LIBRARY_CALL(slot, op, dtype, ctype)                                                                           \
    static void library_##slot##_##op##_##dtype(const void *x, void *y, size_t n) {                                    \
        void (*fn)(const ctype *, ctype *, size_t);                                                                    \
        memcpy(&fn, &library_symbols[slot][KERNEL_##op##_##dtype], sizeof fn); /* dlsym's object pointer */            \
        fn(x, y, n);                                                                                                   \
    }
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    LIBRARY_CALL(0, op, dtype, ctype)                                                                                  \
    LIBRARY_CALL(1, op, dtype, ctype) LIBRARY_CALL(2, op, dtype, ctype) LIBRARY_CALL(3, op, dtype, ctype)
#include "omk_kernels.def"
#undef OMK_KERNEL
#undef LIBRARY_CALL

static const ulpb_kernel_fn library_calls[KERNEL_COUNT][LIBRARY_MAX] = {
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    {library_0_##op##_##dtype, library_1_##op##_##dtype, library_2_##op##_##dtype, library_3_##op##_##dtype},
#include "omk_kernels.def"
#undef OMK_KERNEL
};

static char *libraries_loaded;

const char *ulpb_libraries_loaded(void) { return libraries_loaded; }

/* 64-bit FNV-1a of the file: the record says which build of a library a result measured. */
static int file_digest(const char *path, unsigned long long *bytes, uint64_t *digest) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned long long count = 0;
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < n; i++) h = (h ^ buf[i]) * 0x100000001b3ull;
        count += n;
    }
    const int failed = ferror(f);
    fclose(f);
    *bytes = count;
    *digest = h;
    return failed ? -1 : 0;
}

static bool is_identifier(const char *s, size_t n) {
    if (n == 0 || isdigit((unsigned char)s[0])) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_') return false;
    return true;
}

/* One NAME[:PREFIX]=PATH of n characters at item into slot; 0, or -1 and a message. */
static int load_library(const char *item, size_t n, int slot, ulpb_entry *entries, size_t *count, char *record,
                        size_t record_len, char *err, size_t err_len) {
    const char *eq = memchr(item, '=', n);
    if (!eq) {
        snprintf(err, err_len, "ULPB_LIBRARIES: '%.*s' is not NAME=PATH (or NAME:PREFIX=PATH)", (int)n, item);
        return -1;
    }
    const char *colon = memchr(item, ':', (size_t)(eq - item));
    const size_t name_len = (size_t)((colon ? colon : eq) - item);
    char name[LIBRARY_NAME_MAX], prefix[LIBRARY_NAME_MAX], path[PATH_MAX], resolved[PATH_MAX];
    const size_t prefix_len = colon ? (size_t)(eq - colon - 1) : name_len;
    const char *prefix_at = colon ? colon + 1 : item;
    const size_t path_len = n - (size_t)(eq + 1 - item);
    bool name_ok = name_len > 0 && name_len < sizeof name;
    for (size_t i = 0; i < name_len && name_ok; i++)
        name_ok = isalnum((unsigned char)item[i]) || item[i] == '_' || item[i] == '-' || item[i] == '.';
    if (!name_ok) {
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: the name '%.*s' must be 1 to %d letters, digits, '_', '-' or '.' (it names the "
                 "implementation in --impl and the tables)",
                 (int)name_len, item, LIBRARY_NAME_MAX - 1);
        return -1;
    }
    memcpy(name, item, name_len);
    name[name_len] = 0;
    if (strcmp(name, "all") == 0 || ulpb_impl_known(name)) {
        snprintf(err, err_len, "ULPB_LIBRARIES: the name '%s' is taken (%s); choose another", name,
                 strcmp(name, "all") == 0 ? "--impl all selects every implementation" : "see ulpbench list");
        return -1;
    }
    if (prefix_len >= sizeof prefix || !is_identifier(prefix_at, prefix_len)) {
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: the symbol prefix '%.*s' is no C identifier of at most %d characters (%s)",
                 (int)prefix_len, prefix_at, LIBRARY_NAME_MAX - 1,
                 colon ? "NAME:PREFIX=PATH" : "give one: NAME:PREFIX=PATH");
        return -1;
    }
    memcpy(prefix, prefix_at, prefix_len);
    prefix[prefix_len] = 0;
    if (path_len == 0 || path_len >= sizeof path) {
        snprintf(err, err_len, "ULPB_LIBRARIES: '%s' names no library file", name);
        return -1;
    }
    memcpy(path, eq + 1, path_len);
    path[path_len] = 0;
    /* a path, not a name for the loader's search: the library a result records is the file given */
    struct stat st;
    if (!realpath(path, resolved) || stat(resolved, &st) != 0) {
        snprintf(err, err_len, "ULPB_LIBRARIES: cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_len, "ULPB_LIBRARIES: '%s' is not a regular file", path);
        return -1;
    }
    void *handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(err, err_len, "ULPB_LIBRARIES: cannot load '%s': %s", path, why ? why : "unknown error");
        return -1;
    }
    int found = 0;
    for (int k = 0; k < KERNEL_COUNT; k++) {
        char symbol[LIBRARY_NAME_MAX + 16];
        snprintf(symbol, sizeof symbol, "%s%s", prefix, library_kernels[k].suffix);
        library_symbols[slot][k] = dlsym(handle, symbol);
        if (!library_symbols[slot][k]) continue;
        char description[LIBRARY_NAME_MAX + 64];
        snprintf(description, sizeof description, "%s from ULPB_LIBRARIES", symbol);
        char *impl = strdup(name), *text = strdup(description);
        if (!impl || !text) {
            free(impl), free(text);
            snprintf(err, err_len, "out of memory");
            return -1;
        }
        entries[(*count)++] = (ulpb_entry){impl,
                                           library_kernels[k].op,
                                           library_kernels[k].dtype,
                                           library_calls[k][slot],
                                           ULPB_ROLE_LIBRARY,
                                           ULPB_ISA_NONE,
                                           text,
                                           false};
        found++;
    }
    if (!found) {
        dlclose(handle);
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: '%s' exports none of %s_cos_f16 ... %s_asin_f64 (omk.h's names and signatures, "
                 "with its prefix)",
                 path, prefix, prefix);
        return -1;
    }
    unsigned long long bytes;
    uint64_t digest;
    if (file_digest(resolved, &bytes, &digest) != 0) {
        snprintf(err, err_len, "ULPB_LIBRARIES: cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    const size_t used = strlen(record);
    snprintf(record + used, record_len - used, "%s%s%s%s=%s (%llu bytes, FNV-1a 0x%016llx)", used ? "; " : "", name,
             colon ? ":" : "", colon ? prefix : "", resolved, bytes, (unsigned long long)digest);
    return 0;
}

int ulpb_load_libraries(const char *spec, char *err, size_t err_len) {
    if (!spec || !*spec) return 0;
    if (ulpb_entries != builtin_entries) {
        snprintf(err, err_len, "ULPB_LIBRARIES: loaded twice");
        return -1;
    }
    const size_t builtin_count = ulpb_entry_count;
    ulpb_entry *entries = malloc((builtin_count + LIBRARY_MAX * KERNEL_COUNT) * sizeof *entries);
    const size_t record_len = (size_t)LIBRARY_MAX * (PATH_MAX + 128);
    char *record = calloc(record_len, 1);
    if (!entries || !record) {
        free(entries), free(record);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    memcpy(entries, builtin_entries, sizeof builtin_entries);
    size_t count = builtin_count;
    int slot = 0;
    for (const char *p = spec; *p;) {
        const size_t n = strcspn(p, ",");
        if (n == 0 || (p[n] == ',' && !p[n + 1])) {
            snprintf(err, err_len,
                     "ULPB_LIBRARIES has an empty item: '%s' (NAME=PATH items separated by single commas)", spec);
            free(entries), free(record);
            return -1;
        }
        if (slot == LIBRARY_MAX) {
            snprintf(err, err_len, "ULPB_LIBRARIES names more than %d libraries", LIBRARY_MAX);
            free(entries), free(record);
            return -1;
        }
        /* the names loaded so far count as taken too */
        ulpb_entries = entries;
        ulpb_entry_count = count;
        if (load_library(p, n, slot++, entries, &count, record, record_len, err, err_len) != 0) {
            ulpb_entries = builtin_entries; /* nothing half loaded is left in the registry */
            ulpb_entry_count = builtin_count;
            for (size_t i = builtin_count; i < count; i++)
                free((char *)entries[i].impl), free((char *)entries[i].description);
            free(entries), free(record);
            return -1;
        }
        p += n + (p[n] == ',');
    }
    ulpb_entries = entries;
    ulpb_entry_count = count;
    libraries_loaded = record;
    return 0;
}

const ulpb_input_set ulpb_input_sets[] = {
#define ULPB_INPUT_SET(name, op, lo, hi, label) {name, ULPB_OP_##op, lo, hi, label},
#include "registry.def"
#undef ULPB_INPUT_SET
};

const size_t ulpb_input_set_count = sizeof ulpb_input_sets / sizeof ulpb_input_sets[0];

const ulpb_target ulpb_targets[] = {
#define ULPB_TARGET(label, dtype, size, peers, factor) {label, ULPB_DTYPE_##dtype, size, peers, factor},
#include "registry.def"
#undef ULPB_TARGET
};

const size_t ulpb_target_count = sizeof ulpb_targets / sizeof ulpb_targets[0];

int ulpb_dtype_find(const char *name) {
    for (int i = 0; i < ULPB_DTYPE_COUNT; i++)
        if (strcmp(ulpb_dtypes[i].name, name) == 0) return i;
    return -1;
}

int ulpb_op_find(const char *name) {
    for (int i = 0; i < ULPB_OP_COUNT; i++)
        if (strcmp(ulpb_ops[i].name, name) == 0) return i;
    return -1;
}

const ulpb_entry *ulpb_entry_find(const char *impl, ulpb_op_id op, ulpb_dtype_id dtype) {
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if (e->op == op && e->dtype == dtype && strcmp(e->impl, impl) == 0) return e;
    }
    return NULL;
}

bool ulpb_impl_known(const char *impl) {
    for (size_t i = 0; i < ulpb_entry_count; i++)
        if (strcmp(ulpb_entries[i].impl, impl) == 0) return true;
    return false;
}

const char *ulpb_role_name(ulpb_role role) {
    static const char *const names[] = {"production", "peer", "baseline", "library"};
    return names[role];
}

const char *ulpb_isa_name(ulpb_isa isa) { return isa_names[isa]; }

/* CPUID leaf 1: Clang 14's __builtin_cpu_supports does not know "f16c". */
static bool cpu_has_f16c(void) {
    unsigned int eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C);
}

static bool cpu_supports(ulpb_isa isa) {
    __builtin_cpu_init();
    switch (isa) {
    case ULPB_ISA_NONE:
        return true;
    /* SLEEF's and libmvec's AVX2 builds use FMA; the 16-bit wrappers use F16C */
    case ULPB_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpu_has_f16c();
    case ULPB_ISA_AVX512:
        return __builtin_cpu_supports("avx512f");
    case ULPB_ISA_AVX512_BF16:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
    case ULPB_ISA_COUNT:
        break;
    }
    return false;
}

ulpb_isa ulpb_isa_named(const char *name, size_t n) {
    for (int isa = ULPB_ISA_NONE + 1; isa < ULPB_ISA_COUNT; isa++)
        if (n == strlen(isa_names[isa]) && strncmp(name, isa_names[isa], n) == 0) return (ulpb_isa)isa;
    return ULPB_ISA_NONE;
}

static bool disabled_by_environment(ulpb_isa isa) {
    const char *list = getenv("ULPB_DISABLE_ISA");
    if (!list || isa == ULPB_ISA_NONE) return false;
    for (const char *p = list; *p;) {
        const size_t n = strcspn(p, ",");
        if (ulpb_isa_named(p, n) == isa) return true;
        p += n + (p[n] == ',');
    }
    /* a CPU without AVX2 has no AVX-512 either, and one without AVX-512 no AVX512_BF16 */
    return (isa == ULPB_ISA_AVX512 && disabled_by_environment(ULPB_ISA_AVX2)) ||
           (isa == ULPB_ISA_AVX512_BF16 && disabled_by_environment(ULPB_ISA_AVX512));
}

int ulpb_check_disable_isa(char *err, size_t err_len) {
    const char *list = getenv("ULPB_DISABLE_ISA");
    for (const char *p = list ? list : ""; *p;) {
        const size_t n = strcspn(p, ",");
        if (!n || (p[n] == ',' && !p[n + 1])) { /* ",", "avx512,,avx2" or "avx512,": a name left out by mistake */
            snprintf(err, err_len, "ULPB_DISABLE_ISA has an empty name: '%s' (names separated by single commas)", list);
            return -1;
        }
        if (ulpb_isa_named(p, n) == ULPB_ISA_NONE) {
            int len = snprintf(err, err_len,
                               "ULPB_DISABLE_ISA names no ISA: '%.*s' (expected a comma-separated list of", (int)n, p);
            for (int isa = ULPB_ISA_NONE + 1; isa < ULPB_ISA_COUNT && len >= 0 && (size_t)len < err_len; isa++)
                len += snprintf(err + len, err_len - (size_t)len, " %s%s", isa_names[isa],
                                isa + 1 < ULPB_ISA_COUNT ? "," : ")");
            return -1;
        }
        p += n + (p[n] == ',');
    }
    return 0;
}

bool ulpb_isa_available(ulpb_isa isa) { return cpu_supports(isa) && !disabled_by_environment(isa); }

void ulpb_limit_omk_to_available_isas(void) {
    const char *chosen = getenv("OMK_ISA");
    if (chosen && *chosen) return; /* an explicit choice stands (an empty one is none, for libomk too) */
    if (disabled_by_environment(ULPB_ISA_AVX2))
        setenv("OMK_ISA", "scalar", 1);
    else if (disabled_by_environment(ULPB_ISA_AVX512))
        setenv("OMK_ISA", "avx2", 1);
}

bool ulpb_entry_available(const ulpb_entry *e) { return ulpb_isa_available(e->isa); }
