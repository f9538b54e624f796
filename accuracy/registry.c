#define _GNU_SOURCE /* setenv, realpath, dl_iterate_phdr */
#include "registry.h"

#include <cpuid.h>
#include <ctype.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <locale.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fp_controls.h"
#include "omk.h"
#include "result_io.h"
#include "visible_text.h"

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
#define ULPB_ISA(name, label, flags, cpu_test) label,
#include "registry.def"
#undef ULPB_ISA
};

/* omk's typed entry points behind the registry's untyped signature. */
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    static void omk_entry_##op##_##dtype(const void *x, void *y, size_t n) { omk_##op##_##dtype(x, y, n); }
#include "omk_kernels.def"
#undef OMK_KERNEL

/* A peer row's four wrappers (registry.def), declared. */
#define PEER_WRAPPERS(ident, op)                                                                                       \
    void peer_##ident##_##op##_f16(const void *x, void *y, size_t n);                                                  \
    void peer_##ident##_##op##_bf16(const void *x, void *y, size_t n);                                                 \
    void peer_##ident##_##op##_f32(const void *x, void *y, size_t n);                                                  \
    void peer_##ident##_##op##_f64(const void *x, void *y, size_t n);
#define ULPB_SCALAR_PEER(impl, ident, op, library, f32_fn, f64_fn)           PEER_WRAPPERS(ident, op)
#define ULPB_VECTOR_PEER(impl, ident, isa, op, library, f32_fn, f64_fn, ulp) PEER_WRAPPERS(ident, op)
#define ULPB_VECTOR_PEER_F32(impl, ident, isa, op, library, f32_fn, ulp)     PEER_WRAPPERS(ident, op)
#define ULPB_BASELINE(impl, op, dtype, isa, fn, desc)                        void fn(const void *x, void *y, size_t n);
#include "registry.def"
#undef ULPB_BASELINE
#undef ULPB_VECTOR_PEER_F32
#undef ULPB_VECTOR_PEER
#undef ULPB_SCALAR_PEER

#define PEER_ROW(impl, op, dtype, isa, ident, description, ulp)                                                        \
    {impl,  ULPB_OP_##op, ULPB_DTYPE_##dtype, peer_##ident##_##op##_##dtype, ULPB_ROLE_PEER, isa, description,         \
     false, ulp},

static const ulpb_entry builtin_entries[] = {
#define OMK_KERNEL(op, dtype, ctype, correctly_rounded)                                                                \
    {"omk",                                                                                                            \
     ULPB_OP_##op,                                                                                                     \
     ULPB_DTYPE_##dtype,                                                                                               \
     omk_entry_##op##_##dtype,                                                                                         \
     ULPB_ROLE_PRODUCTION,                                                                                             \
     ULPB_ISA_NONE,                                                                                                    \
     "omk " #op " " #dtype,                                                                                            \
     correctly_rounded,                                                                                                \
     -1.0},
#include "omk_kernels.def"
#undef OMK_KERNEL
#define ULPB_SCALAR_PEER(impl, ident, op, library, f32_fn, f64_fn)                                                     \
    PEER_ROW(impl, op, f16, ULPB_ISA_NONE, ident, library " " #f32_fn ", widened from and rounded back to binary16",   \
             -1.0)                                                                                                     \
    PEER_ROW(impl, op, bf16, ULPB_ISA_NONE, ident, library " " #f32_fn ", widened from and rounded back to bfloat16",  \
             -1.0)                                                                                                     \
    PEER_ROW(impl, op, f32, ULPB_ISA_NONE, ident, library " " #f32_fn, -1.0)                                           \
    PEER_ROW(impl, op, f64, ULPB_ISA_NONE, ident, library " " #f64_fn, -1.0)
#define ULPB_VECTOR_PEER_F32(impl, ident, isa, op, library, f32_fn, ulp)                                               \
    PEER_ROW(impl, op, f16, ULPB_ISA_##isa, ident, library " " #f32_fn " via " ULPB_F16_VIA_##isa, ulp)                \
    PEER_ROW(impl, op, bf16, ULPB_ISA_##isa, ident, library " " #f32_fn " via " ULPB_BF16_VIA_##isa, ulp)              \
    PEER_ROW(impl, op, f32, ULPB_ISA_##isa, ident, library " " #f32_fn, ulp)
#define ULPB_VECTOR_PEER(impl, ident, isa, op, library, f32_fn, f64_fn, ulp)                                           \
    ULPB_VECTOR_PEER_F32(impl, ident, isa, op, library, f32_fn, ulp)                                                   \
    PEER_ROW(impl, op, f64, ULPB_ISA_##isa, ident, library " " #f64_fn, ulp)
#define ULPB_BASELINE(impl, op, dtype, isa, fn, desc)                                                                  \
    {impl, ULPB_OP_##op, ULPB_DTYPE_##dtype, fn, ULPB_ROLE_BASELINE, ULPB_ISA_##isa, desc, false, -1.0},
#include "registry.def"
#undef ULPB_BASELINE
#undef ULPB_VECTOR_PEER
#undef ULPB_VECTOR_PEER_F32
#undef ULPB_SCALAR_PEER
};

const ulpb_entry *ulpb_entries = builtin_entries;
size_t ulpb_entry_count = sizeof builtin_entries / sizeof builtin_entries[0];

/* Each calling thread's kernel, for the watch (ulpb_kernel_calls) and the thread's own crash handler
 * (ulpb_kernel_in_call); relaxed atomics, a plain store each. calls is odd while the thread is in a kernel call or
 * loading a library, and the other fields are written only before it turns odd: a reader that finds the same odd count
 * before and after reading them has read one call's (a sequence lock, with the parity turned round). */
typedef struct {
    _Atomic(const ulpb_entry *) entry;
    _Atomic(const char *) loading;
    atomic_size_t n, calls_in_pass;
    atomic_ulong calls;
    void *signal_stack; /* held here, so that a leak checker sees it in use */
} call_slot;
static call_slot call_slots[ULPB_CALL_SLOTS];
static _Thread_local call_slot unwatched_slot; /* a thread's own beyond the listed ones */
static atomic_int call_slots_taken;
static _Thread_local call_slot *this_thread_slot;

/* A signal handler's stack for each thread that calls kernels and has none, so that a kernel that overflows a thread's
 * stack (the exhaustive runner's workers too, not only the main thread) is named by the crash handler, which runs
 * there (SA_ONSTACK). */
enum { ALTERNATE_STACK_BYTES = 64 * 1024 };

static void give_this_thread_an_alternate_stack(int slot) {
    stack_t current;
    if (sigaltstack(NULL, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return; /* it has one (a sanitizer's) */
    call_slots[slot].signal_stack = malloc(ALTERNATE_STACK_BYTES);
    if (!call_slots[slot].signal_stack) return;
    const stack_t alternate = {.ss_sp = call_slots[slot].signal_stack, .ss_size = ALTERNATE_STACK_BYTES, .ss_flags = 0};
    sigaltstack(&alternate, NULL);
}

static call_slot *slot_of_this_thread(void) {
    if (!this_thread_slot) {
        const int k = atomic_fetch_add(&call_slots_taken, 1);
        this_thread_slot = k < ULPB_CALL_SLOTS ? &call_slots[k] : &unwatched_slot;
        if (k < ULPB_CALL_SLOTS) give_this_thread_an_alternate_stack(k);
    }
    return this_thread_slot;
}

/* only this thread writes its slot: no locked add */
static void end_activity(call_slot *slot) {
    const unsigned long count = atomic_load_explicit(&slot->calls, memory_order_relaxed);
    if (!(count & 1)) return;
    atomic_store_explicit(&slot->calls, count + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release); /* the next call's fields are not seen before this end */
}

static void begin_activity(call_slot *slot, const ulpb_entry *e, const char *loading, size_t n, size_t calls) {
    end_activity(slot);
    atomic_store_explicit(&slot->n, n, memory_order_relaxed);
    atomic_store_explicit(&slot->calls_in_pass, calls, memory_order_relaxed);
    atomic_store_explicit(&slot->entry, e, memory_order_relaxed);
    atomic_store_explicit(&slot->loading, loading, memory_order_relaxed);
    atomic_store_explicit(&slot->calls, atomic_load_explicit(&slot->calls, memory_order_relaxed) + 1,
                          memory_order_release);
}

void ulpb_kernel_running(const ulpb_entry *e, size_t n, size_t calls) {
    if (e)
        begin_activity(slot_of_this_thread(), e, NULL, n, calls);
    else
        end_activity(slot_of_this_thread());
}

/* The watch covers a library's constructors too (dlopen), which run arbitrary code of the user's. */
static void library_loading(const char *path) {
    if (path)
        begin_activity(slot_of_this_thread(), NULL, path, 0, 0);
    else
        end_activity(slot_of_this_thread());
}

size_t ulpb_kernel_calls(ulpb_kernel_call calls[ULPB_CALL_SLOTS]) {
    const int taken = atomic_load(&call_slots_taken);
    const size_t count = taken < ULPB_CALL_SLOTS ? (size_t)taken : ULPB_CALL_SLOTS;
    for (size_t k = 0; k < count; k++) {
        const unsigned long before = atomic_load_explicit(&call_slots[k].calls, memory_order_acquire);
        calls[k].entry = atomic_load_explicit(&call_slots[k].entry, memory_order_relaxed);
        calls[k].loading = atomic_load_explicit(&call_slots[k].loading, memory_order_relaxed);
        calls[k].n = atomic_load_explicit(&call_slots[k].n, memory_order_relaxed);
        calls[k].calls_in_pass = atomic_load_explicit(&call_slots[k].calls_in_pass, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        calls[k].calls = atomic_load_explicit(&call_slots[k].calls, memory_order_relaxed);
        if (calls[k].calls != before || !(before & 1)) calls[k].entry = NULL, calls[k].loading = NULL;
    }
    return count;
}

bool ulpb_kernel_in_call(ulpb_kernel_call *call) {
    const call_slot *slot = this_thread_slot;
    *call = (ulpb_kernel_call){0};
    if (!slot) return false;
    call->calls = atomic_load_explicit(&slot->calls, memory_order_relaxed);
    if (!(call->calls & 1)) return false;
    call->entry = atomic_load_explicit(&slot->entry, memory_order_relaxed);
    call->loading = atomic_load_explicit(&slot->loading, memory_order_relaxed);
    call->n = atomic_load_explicit(&slot->n, memory_order_relaxed);
    call->calls_in_pass = atomic_load_explicit(&slot->calls_in_pass, memory_order_relaxed);
    return true;
}

/* The working directory as the libraries of ULPB_LIBRARIES found it: one that changes it, when loaded or in a call,
 * would send the run's outputs, named relative to it, elsewhere (--json out.json written into another directory). */
static int start_directory = -1;
static struct stat start_directory_id;

static void note_working_directory(void) {
    if (start_directory >= 0) return;
    start_directory = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC); /* O_PATH: a directory that cannot be read too */
    if (start_directory >= 0 && fstat(start_directory, &start_directory_id) != 0) {
        close(start_directory);
        start_directory = -1;
    }
}

/* Whether the working directory is still the one noted (or none was); if not, it is put back and `now` names the
 * one found. */
static bool working_directory_kept(char *now, size_t now_len) {
    struct stat st;
    if (start_directory < 0 || stat(".", &st) != 0 || /* unknown (ESTALE, say): not called a change */
        (st.st_dev == start_directory_id.st_dev && st.st_ino == start_directory_id.st_ino))
        return true;
    if (!getcwd(now, now_len)) snprintf(now, now_len, "?");
    if (fchdir(start_directory) != 0) {
        /* left where it is: the run stops anyway */
    }
    return false;
}

bool ulpb_kernel_kept_controls(const ulpb_entry *e, ulpb_fp_controls before, const char *call, char *err,
                               size_t err_len) {
    char what[256];
    if (e->role == ULPB_ROLE_LIBRARY && !working_directory_kept(what, sizeof what)) {
        snprintf(err, err_len,
                 "'%s' %s %s changed the working directory%s%s (to '%s'); a kernel must leave the process's working "
                 "directory as it found it",
                 e->impl, ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name, call ? " in " : "", call ? call : "", what);
        return false;
    }
    if (ulpb_fp_controls_kept(before, what, sizeof what)) return true;
    snprintf(err, err_len,
             "'%s' %s %s changed the floating-point controls%s%s and left them so: %s; a kernel must give the caller's "
             "back (omk.h)",
             e->impl, ulpb_ops[e->op].name, ulpb_dtypes[e->dtype].name, call ? " in " : "", call ? call : "", what);
    return false;
}

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

static char *libraries_loaded, *libraries_identity;

const char *ulpb_libraries_loaded(void) { return libraries_loaded; }
const char *ulpb_libraries_identity(void) { return libraries_identity; }

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

/* dlopen maps a file's segments without checking that the file holds them: a truncated library would stop the process
 * (SIGBUS) at the first read of a missing page. 0 when every loadable segment of a 64-bit ELF file lies inside it
 * (other files are left to dlopen's own checks), else -1 and the reason. */
static int elf_segments_in_file(const char *path, unsigned long long size, char *why, size_t why_len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_len, "%s", strerror(errno));
        return -1;
    }
    Elf64_Ehdr header;
    int rc = 0;
    if (fread(&header, sizeof header, 1, f) == 1 && memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
        header.e_ident[EI_CLASS] == ELFCLASS64) {
        if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phoff > size ||
            (unsigned long long)header.e_phnum * sizeof(Elf64_Phdr) > size - header.e_phoff ||
            fseek(f, (long)header.e_phoff, SEEK_SET) != 0)
            rc = -1;
        for (unsigned i = 0; rc == 0 && i < header.e_phnum; i++) {
            Elf64_Phdr segment;
            if (fread(&segment, sizeof segment, 1, f) != 1 ||
                (segment.p_type == PT_LOAD && (segment.p_offset > size || segment.p_filesz > size - segment.p_offset)))
                rc = -1;
        }
        if (rc) snprintf(why, why_len, "the file is cut short (its program headers name bytes past its end)");
#ifdef __x86_64__
        /* dlopen's message for another CPU's library reads "No such file or directory" */
        if (rc == 0 && header.e_machine != EM_X86_64) {
            snprintf(why, why_len, "it is a library for another CPU (ELF machine %u, not x86-64's %u)",
                     (unsigned)header.e_machine, (unsigned)EM_X86_64);
            rc = -1;
        }
#endif
    }
    fclose(f);
    return rc;
}

/* One item of ULPB_LIBRARIES, checked (its text, then its file) before any is loaded. */
typedef struct {
    char name[LIBRARY_NAME_MAX], prefix[LIBRARY_NAME_MAX], path[PATH_MAX], resolved[PATH_MAX];
    bool prefix_given;
    unsigned long long bytes;
    uint64_t digest;
} library_item;

static bool has_control_character(const char *s) {
    for (; *s; s++)
        if (ulpb_control_length(s)) return true;
    return false;
}

/* NAME[:PREFIX]=PATH, the n characters at text, into *item; 0, or -1 and a message. */
static int parse_library_item(const char *text, size_t n, library_item *item, char *err, size_t err_len) {
    const char *eq = memchr(text, '=', n);
    if (!eq) {
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: '%.*s' is not NAME=PATH (or NAME:PREFIX=PATH; commas separate the items, so a path "
                 "cannot hold one)",
                 (int)n, text);
        return -1;
    }
    const char *colon = memchr(text, ':', (size_t)(eq - text));
    const size_t name_len = (size_t)((colon ? colon : eq) - text);
    const size_t prefix_len = colon ? (size_t)(eq - colon - 1) : name_len;
    const char *prefix_at = colon ? colon + 1 : text;
    const size_t path_len = n - (size_t)(eq + 1 - text);
    bool name_ok = name_len > 0 && name_len < sizeof item->name;
    for (size_t i = 0; i < name_len && name_ok; i++)
        name_ok = isalnum((unsigned char)text[i]) || text[i] == '_' || text[i] == '-' || text[i] == '.';
    if (!name_ok) {
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: the name '%.*s' must be 1 to %d letters, digits, '_', '-' or '.' (it names the "
                 "implementation in --impl and the tables)",
                 (int)name_len, text, LIBRARY_NAME_MAX - 1);
        return -1;
    }
    memcpy(item->name, text, name_len);
    item->name[name_len] = 0;
    /* letter case aside: the bench JSON's ratio_to_NAME keys must differ so (no JSON reader takes two keys that do not)
     */
    const char *taken = strcasecmp(item->name, "all") == 0 ? "all" : NULL;
    for (size_t i = 0; i < ulpb_entry_count && !taken; i++)
        if (strcasecmp(ulpb_entries[i].impl, item->name) == 0) taken = ulpb_entries[i].impl;
    if (taken) {
        snprintf(err, err_len, "ULPB_LIBRARIES: the name '%s' is taken (%s%s); choose another", item->name,
                 strcmp(taken, "all") == 0 ? "--impl all selects every implementation"
                                           : "an implementation of the registry: see ulpbench list",
                 strcmp(taken, item->name) == 0 ? "" : ", letter case aside");
        return -1;
    }
    if (prefix_len >= sizeof item->prefix || !is_identifier(prefix_at, prefix_len)) {
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: the symbol prefix '%.*s' is no C identifier of at most %d characters (%s)",
                 (int)prefix_len, prefix_at, LIBRARY_NAME_MAX - 1,
                 colon ? "NAME:PREFIX=PATH" : "give one: NAME:PREFIX=PATH");
        return -1;
    }
    memcpy(item->prefix, prefix_at, prefix_len);
    item->prefix[prefix_len] = 0;
    item->prefix_given = colon != NULL;
    if (path_len == 0) {
        snprintf(err, err_len, "ULPB_LIBRARIES: '%s' names no library file", item->name);
        return -1;
    }
    if (path_len >= sizeof item->path) {
        snprintf(err, err_len, "ULPB_LIBRARIES: the path of '%s' is longer than %d characters", item->name,
                 PATH_MAX - 1);
        return -1;
    }
    memcpy(item->path, eq + 1, path_len);
    item->path[path_len] = 0;
    if (has_control_character(item->path)) { /* it would break the reports' lines */
        snprintf(err, err_len, "ULPB_LIBRARIES: the path of '%s' holds a control character", item->name);
        return -1;
    }
    return 0;
}

/* The file of item: resolved (the path a result records), a regular file, its digest, and whole; 0, or -1 and a
 * message. */
static int check_library_file(library_item *item, char *err, size_t err_len) {
    /* a path, not a name for the loader's search: the library a result records is the file given */
    char why[160];
    struct stat st;
    if (!realpath(item->path, item->resolved) || stat(item->resolved, &st) != 0) {
        snprintf(err, err_len, "ULPB_LIBRARIES: cannot open '%s': %s", item->path, strerror(errno));
        return -1;
    }
    if (has_control_character(item->resolved)) { /* reached through a symbolic link */
        snprintf(err, err_len, "ULPB_LIBRARIES: the path of '%s' leads to a file name with a control character",
                 item->name);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, err_len, "ULPB_LIBRARIES: '%s' is not a regular file", item->path);
        return -1;
    }
    if (file_digest(item->resolved, &item->bytes, &item->digest) != 0) { /* of what is then loaded, read first */
        snprintf(err, err_len, "ULPB_LIBRARIES: cannot read '%s'", item->path);
        return -1;
    }
    if (elf_segments_in_file(item->resolved, item->bytes, why, sizeof why) != 0) {
        snprintf(err, err_len, "ULPB_LIBRARIES: cannot load '%s': %s", item->path, why);
        return -1;
    }
    return 0;
}

/* A path in the record (or a loader's name in the identity), quoted where it holds a character that could read as
 * their own punctuation ("; " between items, ", " between dependencies, " (" or " " before the size) or as the
 * shell's. */
enum { RECORD_PATH_MAX = ULPB_QUOTED_SIZE(PATH_MAX) };
static const char *record_word(const char *path) {
    static char quoted[RECORD_PATH_MAX];
    *ulpb_append_quoted(quoted, path, ULPB_SHELL_PLAIN_RECORD) = 0;
    return quoted;
}

static int segment_holds(struct dl_phdr_info *info, size_t size, void *address) {
    (void)size;
    const uintptr_t a = (uintptr_t)address;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        const uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= start && a - start < ph->p_memsz) return (ph->p_flags & PF_X) ? 1 : -1;
    }
    return 0;
}

/* Whether address lies in a loaded object's executable segment: a function's code, not data. */
static bool in_executable_segment(void *address) { return dl_iterate_phdr(segment_holds, address) == 1; }

/* A library's own symbols come before those ulpbench has loaded: a kernel library that carries its own copy of SLEEF
 * (or of MPFR, cJSON, ...) under the same names, as runtimes that link SLEEF statically do, would otherwise call
 * ulpbench's and be measured with code it does not ship. The sanitizers' runtimes refuse RTLD_DEEPBIND. */
#ifdef ULPB_SANITIZER_RUNTIME
#define LIBRARY_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#else
#define LIBRARY_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#endif

/* Loads item (checked) into slot: its entries appended to entries[*count...], its record to record. 0, or -1 and a
 * message (the entries it appended stay for the caller to free). */
static int load_library(const library_item *item, int slot, ulpb_entry *entries, size_t *count, char *record,
                        size_t record_len, char *err, size_t err_len) {
    const ulpb_fp_controls controls = ulpb_fp_controls_now();
    library_loading(item->path);
    void *handle = dlopen(item->resolved, LIBRARY_DLOPEN_FLAGS);
    library_loading(NULL);
    /* a constructor that adopts the user's locale would turn the JSON's decimal points into commas */
    setlocale(LC_ALL, "C");
    if (!handle) {
        const char *reason = dlerror();
        snprintf(err, err_len, "ULPB_LIBRARIES: cannot load '%s': %s", item->path, reason ? reason : "unknown error");
        return -1;
    }
    char what[256];
    if (!working_directory_kept(what, sizeof what)) {
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: loading '%s' changed the working directory (to '%s'); a library must leave it as it "
                 "found it",
                 item->path, what);
        dlclose(handle);
        return -1;
    }
    if (!ulpb_fp_controls_kept(controls, what, sizeof what)) {
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: loading '%s' changed the floating-point controls: %s. A library linked with "
                 "-ffast-math or -Ofast by GCC before 13 does so (its crtfastmath.o sets flush to zero at load), for "
                 "every program that loads it; link it without those flags",
                 item->path, what);
        dlclose(handle);
        return -1;
    }
    int found = 0;
    for (int k = 0; k < KERNEL_COUNT; k++) {
        char symbol[LIBRARY_NAME_MAX + 16];
        snprintf(symbol, sizeof symbol, "%s%s", item->prefix, library_kernels[k].suffix);
        library_symbols[slot][k] = dlsym(handle, symbol);
        if (!library_symbols[slot][k]) continue;
        if (!in_executable_segment(library_symbols[slot][k])) {
            snprintf(err, err_len,
                     "ULPB_LIBRARIES: '%s' in '%s' is not a function but data (a pointer to the kernel, say); export "
                     "the function itself",
                     symbol, item->path);
            dlclose(handle);
            return -1;
        }
        char description[LIBRARY_NAME_MAX + 64];
        snprintf(description, sizeof description, "%s from ULPB_LIBRARIES", symbol);
        char *impl = strdup(item->name), *text = strdup(description);
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
                                           false,
                                           -1.0};
        found++;
    }
    if (!found) {
        dlclose(handle);
        snprintf(err, err_len,
                 "ULPB_LIBRARIES: '%s' exports none of %s_cos_f16 ... %s_asin_f64 (omk.h's names and signatures, "
                 "with its prefix; C names, extern \"C\" in C++, and visible: not hidden by -fvisibility=hidden)",
                 item->path, item->prefix, item->prefix);
        return -1;
    }
    const size_t used = strlen(record);
    const int len =
        snprintf(record + used, record_len - used, "%s%s%s%s=%s (%llu bytes, FNV-1a 0x%016llx)", used ? "; " : "",
                 item->name, item->prefix_given ? ":" : "", item->prefix_given ? item->prefix : "",
                 record_word(item->resolved), item->bytes, (unsigned long long)item->digest);
    if (len < 0 || (size_t)len >= record_len - used) { /* record_len holds four of the longest */
        snprintf(err, err_len, "ULPB_LIBRARIES: the record of '%s' does not fit", item->name);
        return -1;
    }
    return 0;
}

/* The shared objects the process has loaded (dl_iterate_phdr's names; the program itself has none). */
typedef struct {
    char **names;
    size_t count, capacity;
    bool failed;
} object_list;

static int list_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    object_list *list = data;
    if (!info->dlpi_name || !*info->dlpi_name || list->failed) return 0;
    if (list->count == list->capacity) {
        const size_t capacity = list->capacity ? 2 * list->capacity : 64;
        char **names = realloc(list->names, capacity * sizeof *names);
        if (!names) return list->failed = true, 0;
        list->names = names, list->capacity = capacity;
    }
    if (!(list->names[list->count] = strdup(info->dlpi_name))) return list->failed = true, 0;
    list->count++;
    return 0;
}

static void free_object_list(object_list *list) {
    for (size_t i = 0; i < list->count; i++) free(list->names[i]);
    free(list->names);
    *list = (object_list){0};
}

static bool object_listed(const object_list *list, const char *name) {
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->names[i], name) == 0) return true;
    return false;
}

/* A shared object the libraries brought into the process (a dependency ulpbench had not loaded): its results depend on
 * it as on the library itself, so the record and the identity hold it too. */
typedef struct {
    char path[PATH_MAX];     /* the file (symbolic links resolved), for the record */
    char name[NAME_MAX + 1]; /* the loader's name of it (its SONAME as a rule, the file a link may lead to aside), for
                                the identity, so that a copy under that name elsewhere is the same dependency */
    unsigned long long bytes;
    uint64_t digest;
} library_dependency;

static int dependency_order(const void *a, const void *b) {
    const library_dependency *x = a, *y = b;
    const int by_name = strcmp(x->name, y->name);
    return by_name ? by_name : (x->digest > y->digest) - (x->digest < y->digest);
}

/* The objects in after and not in before, other than the libraries (items), digested and in name order into
 * deps[LIBRARY_DEPENDENCY_MAX]; their count, or -1 and a message. */
enum { LIBRARY_DEPENDENCY_MAX = 32 };
static int new_dependencies(const object_list *before, const object_list *after, const library_item *items,
                            int item_count, library_dependency *deps, char *err, size_t err_len) {
    int count = 0;
    for (size_t i = 0; i < after->count; i++) {
        const char *loaded = after->names[i];
        if (object_listed(before, loaded)) continue;
        library_dependency d;
        const char *slash = strrchr(loaded, '/');
        if (!realpath(loaded, d.path) || strlen(slash ? slash + 1 : loaded) > NAME_MAX) {
            snprintf(err, err_len, "ULPB_LIBRARIES: cannot find '%s', which a library loaded", loaded);
            return -1;
        }
        strcpy(d.name, slash ? slash + 1 : loaded);
        if (has_control_character(d.path)) {
            snprintf(err, err_len, "ULPB_LIBRARIES: a library loaded '%s', a file name with a control character",
                     d.path);
            return -1;
        }
        if (file_digest(d.path, &d.bytes, &d.digest) != 0) {
            snprintf(err, err_len, "ULPB_LIBRARIES: cannot read '%s', which a library loaded", loaded);
            return -1;
        }
        /* an item, or a copy of one that a library's own search found first (then which is loaded depends on the
         * order of the items): recorded as the item */
        bool is_item = false;
        for (int k = 0; k < item_count; k++) is_item |= items[k].bytes == d.bytes && items[k].digest == d.digest;
        if (is_item) continue;
        if (count == LIBRARY_DEPENDENCY_MAX) {
            snprintf(err, err_len, "ULPB_LIBRARIES: the libraries load more than %d other shared objects",
                     LIBRARY_DEPENDENCY_MAX);
            return -1;
        }
        deps[count++] = d;
    }
    qsort(deps, (size_t)count, sizeof *deps, dependency_order);
    return count;
}

static int item_name_order(const void *a, const void *b) {
    return strcmp((*(const library_item *const *)a)->name, (*(const library_item *const *)b)->name);
}

int ulpb_load_libraries(const char *spec, char *err, size_t err_len) {
    if (!spec || !*spec) return 0;
    if (ulpb_entries != builtin_entries) {
        snprintf(err, err_len, "ULPB_LIBRARIES: loaded twice");
        return -1;
    }
    /* every item, its text and its file, checked before any library is loaded (and its constructors run) */
    static library_item items[LIBRARY_MAX];
    int item_count = 0;
    for (const char *p = spec; *p;) {
        const size_t n = strcspn(p, ",");
        if (n == 0 || (p[n] == ',' && !p[n + 1])) {
            snprintf(err, err_len,
                     "ULPB_LIBRARIES has an empty item: '%s' (NAME=PATH items separated by single commas)", spec);
            return -1;
        }
        if (item_count == LIBRARY_MAX) {
            snprintf(err, err_len, "ULPB_LIBRARIES names more than %d libraries", LIBRARY_MAX);
            return -1;
        }
        if (parse_library_item(p, n, &items[item_count], err, err_len) != 0) return -1;
        for (int k = 0; k < item_count; k++)
            if (strcasecmp(items[k].name, items[item_count].name) == 0) {
                snprintf(err, err_len, "ULPB_LIBRARIES gives the name '%s' twice%s", items[k].name,
                         strcmp(items[k].name, items[item_count].name) == 0 ? "" : " (letter case aside)");
                return -1;
            }
        item_count++;
        p += n + (p[n] == ',');
    }
    for (int k = 0; k < item_count; k++)
        if (check_library_file(&items[k], err, err_len) != 0) return -1;
    note_working_directory();
    const size_t builtin_count = ulpb_entry_count;
    ulpb_entry *entries = malloc((builtin_count + LIBRARY_MAX * KERNEL_COUNT) * sizeof *entries);
    const size_t record_len = (size_t)(LIBRARY_MAX + LIBRARY_DEPENDENCY_MAX) * (RECORD_PATH_MAX + 128),
                 identity_len = (size_t)(LIBRARY_MAX + LIBRARY_DEPENDENCY_MAX) * (4 * NAME_MAX + 132);
    char *record = calloc(record_len, 1), *identity = calloc(identity_len, 1);
    if (!entries || !record || !identity) {
        free(entries), free(record), free(identity);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    memcpy(entries, builtin_entries, sizeof builtin_entries);
    size_t count = builtin_count;
    object_list before = {0}, after = {0};
    dl_iterate_phdr(list_object, &before);
    static library_dependency deps[LIBRARY_DEPENDENCY_MAX];
    int dep_count = 0;
    for (int slot = 0; slot < item_count && dep_count >= 0; slot++)
        if (load_library(&items[slot], slot, entries, &count, record, record_len, err, err_len) != 0) dep_count = -1;
    if (dep_count == 0) {
        dl_iterate_phdr(list_object, &after);
        if (before.failed || after.failed)
            snprintf(err, err_len, "out of memory"), dep_count = -1;
        else
            dep_count = new_dependencies(&before, &after, items, item_count, deps, err, err_len);
    }
    free_object_list(&before), free_object_list(&after);
    for (int k = 0; k < dep_count; k++) { /* the record fits four libraries and their dependencies' paths */
        const size_t used = strlen(record);
        snprintf(record + used, record_len - used, "%s%s (%llu bytes, FNV-1a 0x%016llx)",
                 k ? ", " : "; loaded by them: ", record_word(deps[k].path), deps[k].bytes,
                 (unsigned long long)deps[k].digest);
    }
    if (dep_count < 0) {
        for (size_t i = builtin_count; i < count; i++)
            free((char *)entries[i].impl), free((char *)entries[i].description);
        free(entries), free(record), free(identity);
        return -1;
    }
    /* what two runs must share, whatever the order of the items, the paths, or whether the prefix was spelled out */
    const library_item *sorted[LIBRARY_MAX];
    for (int k = 0; k < item_count; k++) sorted[k] = &items[k];
    qsort(sorted, (size_t)item_count, sizeof *sorted, item_name_order);
    for (int k = 0; k < item_count; k++) {
        const size_t used = strlen(identity);
        snprintf(identity + used, identity_len - used, "%s%s:%s %llu 0x%016llx", k ? "; " : "", sorted[k]->name,
                 sorted[k]->prefix, sorted[k]->bytes, (unsigned long long)sorted[k]->digest);
    }
    for (int k = 0; k < dep_count; k++) {
        const size_t used = strlen(identity);
        snprintf(identity + used, identity_len - used, "%s%s %llu 0x%016llx",
                 k ? ", " : "; loaded by them: ", record_word(deps[k].name), deps[k].bytes,
                 (unsigned long long)deps[k].digest);
    }
    ulpb_entries = entries;
    ulpb_entry_count = count;
    libraries_loaded = record;
    libraries_identity = identity;
    return 0;
}

const ulpb_input_set ulpb_input_sets[] = {
#define ULPB_INPUT_SET(name, op, lo, hi, label) {name, ULPB_OP_##op, lo, hi, label, NULL, 0},
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

const ulpb_entry *ulpb_entry_find_n(const char *impl, size_t impl_len, ulpb_op_id op, ulpb_dtype_id dtype) {
    for (size_t i = 0; i < ulpb_entry_count; i++) {
        const ulpb_entry *e = &ulpb_entries[i];
        if (e->op == op && e->dtype == dtype && strncmp(e->impl, impl, impl_len) == 0 && e->impl[impl_len] == '\0')
            return e;
    }
    return NULL;
}

const ulpb_entry *ulpb_entry_find(const char *impl, ulpb_op_id op, ulpb_dtype_id dtype) {
    return ulpb_entry_find_n(impl, strlen(impl), op, dtype);
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
#define ULPB_CPU_HAS(feature) __builtin_cpu_supports(feature)
#define ULPB_CPU_HAS_F16C     cpu_has_f16c()
    switch (isa) {
#define ULPB_ISA(name, label, flags, cpu_test)                                                                         \
    case ULPB_ISA_##name:                                                                                              \
        return (cpu_test);
#include "registry.def"
#undef ULPB_ISA
#undef ULPB_CPU_HAS_F16C
#undef ULPB_CPU_HAS
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
