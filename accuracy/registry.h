/* Typed view of registry.def: dtypes, ops and the implementations under test. */
#ifndef ULPB_REGISTRY_H
#define ULPB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "ref.h"

typedef enum {
#define ULPB_DTYPE(name, bytes, precision, exp_bits, descr) ULPB_DTYPE_##name,
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

typedef struct {
    const char *name;
    size_t bytes;
    ref_format format;
    const char *npy_descr;
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
    bool production; /* ours: gated in reports; peers are shown beside us */
    const char *description;
} ulpb_entry;

extern const ulpb_dtype ulpb_dtypes[ULPB_DTYPE_COUNT];
extern const ulpb_op ulpb_ops[ULPB_OP_COUNT];
extern const ulpb_entry ulpb_entries[];
extern const size_t ulpb_entry_count;

/* Name lookups; -1 when unknown. */
int ulpb_dtype_find(const char *name);
int ulpb_op_find(const char *name);
/* The entry for (impl, op, dtype), or NULL. */
const ulpb_entry *ulpb_entry_find(const char *impl, ulpb_op_id op, ulpb_dtype_id dtype);
/* True when some entry has this implementation name. */
bool ulpb_impl_known(const char *impl);

#endif
