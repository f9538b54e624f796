#include "registry.h"

#include <stdint.h>
#include <string.h>

#include "omk.h"

const ulpb_dtype ulpb_dtypes[ULPB_DTYPE_COUNT] = {
#define ULPB_DTYPE(name, bytes, precision, exp_bits, descr) {#name, bytes, {precision, exp_bits}, descr},
#include "registry.def"
#undef ULPB_DTYPE
};

const ulpb_op ulpb_ops[ULPB_OP_COUNT] = {
#define ULPB_OP(name, ref, lo, hi) {#name, ref, lo, hi},
#include "registry.def"
#undef ULPB_OP
};

/* omk's typed entry points behind the registry's untyped signature. */
#define OMK_KERNEL(op, dtype, ctype)                                                                \
    static void omk_entry_##op##_##dtype(const void *x, void *y, size_t n) { omk_##op##_##dtype(x, y, n); }
#include "omk_kernels.def"
#undef OMK_KERNEL

#define ULPB_PEER(impl, op, dtype, fn, desc) void fn(const void *x, void *y, size_t n);
#include "registry.def"
#undef ULPB_PEER

const ulpb_entry ulpb_entries[] = {
#define OMK_KERNEL(op, dtype, ctype)                                                                \
    {"omk", ULPB_OP_##op, ULPB_DTYPE_##dtype, omk_entry_##op##_##dtype, true, "omk " #op " " #dtype},
#include "omk_kernels.def"
#undef OMK_KERNEL
#define ULPB_PEER(impl, op, dtype, fn, desc) {#impl, ULPB_OP_##op, ULPB_DTYPE_##dtype, fn, false, desc},
#include "registry.def"
#undef ULPB_PEER
};

const size_t ulpb_entry_count = sizeof ulpb_entries / sizeof ulpb_entries[0];

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
