#define _POSIX_C_SOURCE 200809L /* setenv */
#include "registry.h"

#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const ulpb_entry ulpb_entries[] = {
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

const size_t ulpb_entry_count = sizeof ulpb_entries / sizeof ulpb_entries[0];

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
    static const char *const names[] = {"production", "peer", "baseline"};
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
