/* cmocka tests for cli/npy.c: round trips, hand-written headers, every rejection path, and the
 * atomic-write guarantees. Fixture files live in a mkdtemp directory removed at teardown. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../cli/npy.h"
#include "sha256sum.h"

static char g_dir[4096];

/* ---- helpers ---- */

static const char *fpath(const char *name) {
    static char buf[8192];
    snprintf(buf, sizeof buf, "%s/%s", g_dir, name);
    return buf;
}

static void write_file(const char *name, const void *bytes, size_t len) {
    FILE *f = fopen(fpath(name), "wb");
    assert_non_null(f);
    if (len) assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Reads a whole file; caller frees. */
static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    unsigned char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Builds a .npy file from an explicit header string so tests control every byte. */
static void write_npy_raw(const char *name, int major, int minor, const char *hdr, size_t hlen, const void *data,
                          size_t dlen) {
    size_t prelen = major == 1 ? 10 : 12;
    size_t total = prelen + hlen + dlen;
    unsigned char *buf = malloc(total + 1);
    assert_non_null(buf);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = (unsigned char)minor;
    buf[8] = (unsigned char)(hlen & 0xFF);
    buf[9] = (unsigned char)(hlen >> 8 & 0xFF);
    if (prelen == 12) {
        buf[10] = (unsigned char)(hlen >> 16 & 0xFF);
        buf[11] = (unsigned char)(hlen >> 24 & 0xFF);
    }
    memcpy(buf + prelen, hdr, hlen);
    if (dlen) memcpy(buf + prelen + hlen, data, dlen);
    write_file(name, buf, total);
    free(buf);
}

static void write_v1(const char *name, const char *hdr, size_t dlen) {
    static const unsigned char zeros[64];
    assert_true(dlen <= sizeof zeros);
    write_npy_raw(name, 1, 0, hdr, strlen(hdr), zeros, dlen);
}

/* Asserts npy_read fails with a one-line message containing kw and leaves *out zeroed. */
static void expect_read_fail_path(const char *path, const char *kw) {
    char err[256] = "";
    npy_array a;
    memset(&a, 0xAB, sizeof a); /* the reader must reset this even on failure */
    int rc = npy_read(path, &a, err, sizeof err);
    if (rc != -1 || !strstr(err, kw)) print_error("path %s: rc=%d err='%s', wanted '%s'\n", path, rc, err, kw);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, kw));
    assert_null(strchr(err, '\n'));
    assert_null(a.data);
    assert_int_equal(a.count, 0);
    npy_free(&a);
}

static void expect_read_fail(const char *name, const char *kw) { expect_read_fail_path(fpath(name), kw); }

static void expect_v1_fail(const char *hdr, size_t dlen, const char *kw) {
    write_v1("bad.npy", hdr, dlen);
    expect_read_fail("bad.npy", kw);
}

static void read_ok(const char *name, npy_array *a) {
    char err[256] = "";
    int rc = npy_read(fpath(name), a, err, sizeof err);
    if (rc != 0) print_error("%s: %s\n", name, err);
    assert_int_equal(rc, 0);
}

/* Entries of a directory other than . and .. */
static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static int group_setup(void **state) {
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/npy_test_XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int group_teardown(void **state) {
    (void)state;
    return nftw(g_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- round trips ---- */

static const struct {
    int ndim;
    size_t shape[3];
} shapes[] = {
    {0, {0}}, {1, {0}}, {1, {5}}, {3, {2, 3, 4}}, {2, {3, 0}}, {2, {129, 257}},
};

static void round_trip_kind(npy_kind kind, size_t esize) {
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        npy_array a = {.kind = kind, .elem_size = esize, .ndim = shapes[s].ndim};
        a.count = 1;
        for (int i = 0; i < a.ndim; i++) {
            a.shape[i] = shapes[s].shape[i];
            a.count *= a.shape[i];
        }
        size_t nbytes = a.count * esize;
        unsigned char *data = nbytes ? malloc(nbytes) : NULL;
        for (size_t i = 0; i < nbytes; i++) data[i] = (unsigned char)(i * 37u + s * 11u + (unsigned)kind);
        a.data = data;

        char err[256] = "";
        assert_int_equal(npy_write(fpath("rt.npy"), &a, err, sizeof err), 0);
        assert_string_equal(err, "");

        /* Layout checks: 64-byte aligned preamble ending in '\n', then exactly the data. */
        size_t flen;
        unsigned char *raw = slurp(fpath("rt.npy"), &flen);
        assert_true(flen >= 10);
        assert_memory_equal(raw, "\x93NUMPY\x01\x00", 8);
        size_t pre = 10 + (raw[8] | (size_t)raw[9] << 8);
        assert_int_equal(pre % 64, 0);
        assert_int_equal(raw[pre - 1], '\n');
        assert_int_equal(flen, pre + nbytes);
        free(raw);

        npy_array b;
        read_ok("rt.npy", &b);
        assert_int_equal(b.kind, kind);
        assert_int_equal(b.elem_size, esize);
        assert_int_equal(b.ndim, a.ndim);
        for (int i = 0; i < a.ndim; i++) assert_int_equal(b.shape[i], a.shape[i]);
        assert_int_equal(b.count, a.count);
        if (nbytes) assert_memory_equal(b.data, data, nbytes);
        npy_free(&b);
        assert_null(b.data);
        free(data);
    }
}

static void test_round_trip_f2(void **state) {
    (void)state;
    round_trip_kind(NPY_F2, 2);
}

static void test_round_trip_f4(void **state) {
    (void)state;
    round_trip_kind(NPY_F4, 4);
}

static void test_round_trip_f8(void **state) {
    (void)state;
    round_trip_kind(NPY_F8, 8);
}

static void test_round_trip_u2(void **state) {
    (void)state;
    round_trip_kind(NPY_U2, 2);
    round_trip_kind(NPY_I2, 2);
}

/* The exact bytes numpy.save produces for np.zeros(5) (header length 118 = 'v'). */
static void test_header_matches_numpy(void **state) {
    (void)state;
    static const char dict5[] = "{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }";
    static const char dict34[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
    static const char dict0[] = "{'descr': '<u2', 'fortran_order': False, 'shape': (), }";
    struct {
        const char *dict;
        npy_kind kind;
        size_t esize;
        int ndim;
        size_t shape[2];
        size_t count;
    } cases[] = {
        {dict5, NPY_F8, 8, 1, {5}, 5},
        {dict34, NPY_F4, 4, 2, {3, 4}, 12},
        {dict0, NPY_U2, 2, 0, {0}, 1},
    };
    static unsigned char zeros[96];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        npy_array a = {.kind = cases[c].kind,
                       .elem_size = cases[c].esize,
                       .ndim = cases[c].ndim,
                       .count = cases[c].count,
                       .data = zeros};
        memcpy(a.shape, cases[c].shape, sizeof cases[c].shape);
        char err[256];
        assert_int_equal(npy_write(fpath("hdr.npy"), &a, err, sizeof err), 0);

        unsigned char want[128];
        memset(want, ' ', sizeof want);
        memcpy(want, "\x93NUMPY\x01\x00\x76\x00", 10);
        memcpy(want + 10, cases[c].dict, strlen(cases[c].dict));
        want[127] = '\n';
        size_t len;
        unsigned char *raw = slurp(fpath("hdr.npy"), &len);
        assert_int_equal(len, 128 + a.count * a.elem_size);
        assert_memory_equal(raw, want, 128);
        free(raw);
    }
}

/* ---- accepted inputs written by hand ---- */

static void test_read_version2(void **state) {
    (void)state;
    /* Version 2.0 with a 4-byte length; the header is padded the way numpy would. */
    char hdr[116];
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    memset(hdr, ' ', sizeof hdr);
    memcpy(hdr, dict, strlen(dict));
    hdr[sizeof hdr - 1] = '\n';
    const float vals[4] = {1.0f, -2.5f, 3.25f, 1e30f};
    write_npy_raw("v2.npy", 2, 0, hdr, sizeof hdr, vals, sizeof vals);
    npy_array a;
    read_ok("v2.npy", &a);
    assert_int_equal(a.kind, NPY_F4);
    assert_int_equal(a.ndim, 2);
    assert_int_equal(a.shape[0], 2);
    assert_int_equal(a.shape[1], 2);
    assert_int_equal(a.count, 4);
    assert_memory_equal(a.data, vals, sizeof vals);
    npy_free(&a);

    /* 3.0 is 2.0 with a utf8 header. */
    write_npy_raw("v3.npy", 3, 0, hdr, sizeof hdr, vals, sizeof vals);
    read_ok("v3.npy", &a);
    assert_int_equal(a.count, 4);
    assert_memory_equal(a.data, vals, sizeof vals);
    npy_free(&a);
}

static void test_read_hand_written(void **state) {
    (void)state;
    /* Double quotes, different key order, no trailing comma, no padding at all. */
    const uint16_t vals[6] = {0, 1, 2, 65535, 4, 5};
    const char *h1 = "{\"descr\": \"<u2\", \"shape\": (2, 3), \"fortran_order\": False}";
    write_npy_raw("hand1.npy", 1, 0, h1, strlen(h1), vals, sizeof vals);
    npy_array a;
    read_ok("hand1.npy", &a);
    assert_int_equal(a.kind, NPY_U2);
    assert_int_equal(a.elem_size, 2);
    assert_int_equal(a.ndim, 2);
    assert_int_equal(a.shape[0], 2);
    assert_int_equal(a.shape[1], 3);
    assert_int_equal(a.count, 6);
    assert_memory_equal(a.data, vals, sizeof vals);
    npy_free(&a);

    /* Odd whitespace everywhere, trailing commas in both tuple and dict, newline padding. */
    const char *h2 = " \t{ 'shape' :( 2 ,3, ) ,'descr':'<u2'\n, 'fortran_order' :False , }  \n\n";
    write_npy_raw("hand2.npy", 1, 0, h2, strlen(h2), vals, sizeof vals);
    read_ok("hand2.npy", &a);
    assert_int_equal(a.ndim, 2);
    assert_int_equal(a.count, 6);
    npy_free(&a);

    /* '=' and no byte-order character: the host's order, as numpy reads them */
    const float f[3] = {1.5f, -2.0f, 0.25f};
    static const char *const native[] = {"{'descr': '=f4', 'fortran_order': False, 'shape': (3,), }",
                                         "{'descr': 'f4', 'fortran_order': False, 'shape': (3,), }"};
    for (size_t i = 0; i < 2; i++) {
        write_npy_raw("native.npy", 1, 0, native[i], strlen(native[i]), f, sizeof f);
        read_ok("native.npy", &a);
        assert_int_equal(a.kind, NPY_F4);
        assert_memory_equal(a.data, f, sizeof f);
        npy_free(&a);
    }

    /* fortran_order True is fine for ndim <= 1; Python 2 writers emitted longs like 5L. */
    const double d[5] = {1, 2, 3, 4, 5};
    const char *h3 = "{'descr':'<f8','fortran_order':True,'shape':(5L,)}";
    write_npy_raw("hand3.npy", 1, 0, h3, strlen(h3), d, sizeof d);
    read_ok("hand3.npy", &a);
    assert_int_equal(a.kind, NPY_F8);
    assert_int_equal(a.ndim, 1);
    assert_int_equal(a.shape[0], 5);
    assert_memory_equal(a.data, d, sizeof d);
    npy_free(&a);

    /* 0-d via empty tuple; (00,), which Python reads as (0,), gives count 0 and no data. */
    const char *h4 = "{'descr': '<f2', 'fortran_order': True, 'shape': ()}";
    write_npy_raw("hand4.npy", 1, 0, h4, strlen(h4), "\x00\x3c", 2);
    read_ok("hand4.npy", &a);
    assert_int_equal(a.ndim, 0);
    assert_int_equal(a.count, 1);
    assert_memory_equal(a.data, "\x00\x3c", 2);
    npy_free(&a);

    const char *h5 = "{'descr': '<f2', 'fortran_order': False, 'shape': (00,)}";
    write_npy_raw("hand5.npy", 1, 0, h5, strlen(h5), NULL, 0);
    read_ok("hand5.npy", &a);
    assert_int_equal(a.ndim, 1);
    assert_int_equal(a.count, 0);
    npy_free(&a);
}

/* ---- rejections ---- */

static void test_reject_bad_magic(void **state) {
    (void)state;
    write_file("magic1.npy", "hello world, not numpy", 22);
    expect_read_fail("magic1.npy", "not a .npy file");
    write_file("magic2.npy", "", 0);
    expect_read_fail("magic2.npy", "not a .npy file");
    /* numpy.savez's .npz is a zip archive of .npy files: the message says so */
    write_file("arrays.npz", "PK\x03\x04\x14\x00\x00\x00", 8);
    expect_read_fail("arrays.npz", "not a .npy file (bad magic string): a zip archive, as numpy.savez writes");
    write_file("magic3.npy", "\x93NUM", 4);
    expect_read_fail("magic3.npy", "not a .npy file");
    write_file("magic4.npy", "\x93NUMPX\x01\x00\x00\x00", 10);
    expect_read_fail("magic4.npy", "not a .npy file");
}

static void test_reject_version(void **state) {
    (void)state;
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (), }";
    write_npy_raw("ver.npy", 4, 0, h, strlen(h), "abcd", 4);
    expect_read_fail("ver.npy", "unsupported .npy format version 4.0");
    write_npy_raw("ver.npy", 1, 1, h, strlen(h), "abcd", 4);
    expect_read_fail("ver.npy", "version 1.1");
    write_npy_raw("ver.npy", 0, 0, h, strlen(h), "abcd", 4);
    expect_read_fail("ver.npy", "version 0.0");
}

static void test_reject_truncated_header(void **state) {
    (void)state;
    write_file("th.npy", "\x93NUMPY\x01", 7);
    expect_read_fail("th.npy", "truncated header");
    write_file("th.npy", "\x93NUMPY\x01\x00\x50", 9);
    expect_read_fail("th.npy", "truncated header");
    /* v2 needs a 4-byte length: 10 bytes is not enough. */
    write_file("th.npy", "\x93NUMPY\x02\x00\x10\x00", 10);
    expect_read_fail("th.npy", "truncated header");
    /* Claimed header length larger than the file. */
    write_file("th.npy", "\x93NUMPY\x01\x00\x64\x00{'descr': '<f4'", 25);
    expect_read_fail("th.npy", "truncated header");
    /* Hostile 4 GiB header length must be rejected before any allocation. */
    write_file("th.npy", "\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14);
    expect_read_fail("th.npy", "truncated header");
}

static void test_reject_huge_header(void **state) {
    (void)state;
    /* A header that really is present but absurdly long (2 MiB of spaces). */
    size_t hlen = (size_t)2 << 20;
    char *h = malloc(hlen);
    assert_non_null(h);
    memset(h, ' ', hlen);
    memcpy(h, "{}", 2);
    write_npy_raw("huge.npy", 2, 0, h, hlen, NULL, 0);
    free(h);
    expect_read_fail("huge.npy", "too large");
}

static void test_reject_malformed(void **state) {
    (void)state;
    static const struct {
        const char *hdr;
        const char *kw;
    } cases[] = {
        {"", "expected '{'"},
        {"   \n", "expected '{'"},
        {"[1, 2]", "expected '{'"},
        {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
        {"{'shape': (), 'fortran_order': False}", "missing key 'descr'"},
        {"{'descr': '<f4', 'shape': ()}", "missing key 'fortran_order'"},
        {"{}", "missing key"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,)", "expected ',' or '}'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,),", "expected a quoted string"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (5,)}", "malformed"},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (5,)}", "expected ':'"},
        {"{'descr': <f4, 'fortran_order': False, 'shape': (5,)}", "expected a quoted string"},
        {"{'descr': '<f4\", 'fortran_order': False, 'shape': (5,)}", "malformed"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5)}", "tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [5]}", "tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': 5}", "tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", "non-negative integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}", "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,,)}", "non-negative integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}", "non-negative integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,)}", "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (02,)}", "leading zero"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5, 007)}", "leading zero"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,", "non-negative integer"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (5,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (5,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': false, 'shape': (5,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,), 'foo': 1}", "unexpected key 'foo'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (5,)}", "duplicate"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,),,}", "expected a quoted string"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,)} x", "after the dict"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}}", "after the dict"},
        {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (5,)}", "unsupported character"},
        {"{'descr': '<f4\n', 'fortran_order': False, 'shape': (5,)}", "unsupported character"},
        {"{'descr': ['<f4'], 'fortran_order': False, 'shape': (5,)}", "expected a quoted string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_v1("mal.npy", cases[i].hdr, 20);
        expect_read_fail("mal.npy", "malformed header");
        expect_read_fail("mal.npy", cases[i].kw);
    }

    /* Embedded NUL bytes are not whitespace. */
    const char h[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}\0\0\n";
    write_npy_raw("mal.npy", 1, 0, h, sizeof h - 1, "01234567890123456789", 20);
    expect_read_fail("mal.npy", "malformed header");
}

static void test_reject_unsupported_dtype(void **state) {
    (void)state;
    static const char *descrs[] = {"<i4", "=i4", "i4", "|u2", "|i2", "<u4", "<f16", "float32", "", "<u1", "|f4", "<c8"};
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++) {
        char hdr[128], want[128];
        snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (5,), }", descrs[i]);
        snprintf(want, sizeof want, "unsupported dtype '%s' (supported: <f2, <f4, <f8, <u2, <i2)", descrs[i]);
        expect_v1_fail(hdr, 20, want);
    }
    /* Long descrs are echoed shortened, and the message stays one line. */
    char hdr[512];
    snprintf(hdr, sizeof hdr, "{'descr': '%0300d', 'fortran_order': False, 'shape': (5,), }", 7);
    expect_v1_fail(hdr, 20, "...' (supported");
    /* bytes outside ASCII are echoed as '?': raw, they could be invalid UTF-8 */
    expect_v1_fail("{'descr': '<f4\xe9\xff', 'fortran_order': False, 'shape': (5,), }", 20,
                   "unsupported dtype '<f4?"
                   "?' (supported");
    /* ml_dtypes' bfloat16 is saved as opaque pairs of bytes: the message says how to save it instead */
    expect_v1_fail("{'descr': '|V2', 'fortran_order': False, 'shape': (5,), }", 10,
                   "unsupported dtype '|V2' (supported: <f2, <f4, <f8, <u2, <i2); for bfloat16, save "
                   "x.view(numpy.uint16) and give --dtype bf16");
    /* a structured dtype (numpy writes its descr as a list of fields) is a valid file, not a malformed header */
    expect_v1_fail("{'descr': [('a', '<f4'), ('b', '<f8')], 'fortran_order': False, 'shape': (1,), }", 12,
                   "unsupported dtype: a structured dtype (a list of fields; supported: <f2, <f4, <f8, <u2, <i2)");
}

static void test_reject_big_endian(void **state) {
    (void)state;
    expect_v1_fail("{'descr': '>f4', 'fortran_order': False, 'shape': (5,), }", 20,
                   "big-endian dtype '>f4' is not supported");
    expect_v1_fail("{'descr': '>u2', 'fortran_order': False, 'shape': (5,), }", 10, "big-endian dtype '>u2'");
    expect_v1_fail("{'descr': '>f8', 'fortran_order': False, 'shape': (), }", 8, "big-endian");
}

static void test_reject_fortran_order(void **state) {
    (void)state;
    expect_v1_fail("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24, "fortran_order");
    expect_v1_fail("{'descr': '<u2', 'fortran_order': True, 'shape': (1, 1, 1), }", 2, "fortran_order");
}

/* npy_read_elements takes Fortran order at any ndim and gives the elements in C order, and the file's SHA-256. */
static void test_elements_in_c_order(void **state) {
    (void)state;
    /* a (2, 3, 4) array whose element [i][j][k] is 100 i + 10 j + k, written first index fastest */
    float fortran[24], c[24];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) {
                fortran[i + 2 * (j + 3 * k)] = (float)(100 * i + 10 * j + k);
                c[(i * 3 + j) * 4 + k] = (float)(100 * i + 10 * j + k);
            }
    const char *h = "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 4), }";
    write_npy_raw("fortran.npy", 1, 0, h, strlen(h), fortran, sizeof fortran);
    expect_read_fail("fortran.npy", "fortran_order=True is not supported for ndim 3");
    npy_array a;
    char err[256], sha256[65];
    assert_int_equal(npy_read_elements(fpath("fortran.npy"), &a, sha256, err, sizeof err), 0);
    assert_int_equal(a.count, 24);
    assert_int_equal(a.ndim, 3);
    assert_memory_equal(a.data, c, sizeof c);
    npy_free(&a);
    /* the digest is of the file's bytes as sha256sum reads them, not of the reordered data */
    char printed[65];
    sha256sum_of(fpath("fortran.npy"), printed);
    assert_string_equal(sha256, printed);
}

static void test_reject_shape_overflow(void **state) {
    (void)state;
    char hdr[256];
    snprintf(hdr, sizeof hdr, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, 2), }", SIZE_MAX);
    expect_v1_fail(hdr, 0, "overflow");
    snprintf(hdr, sizeof hdr, "{'descr': '<f2', 'fortran_order': False, 'shape': (%zu,), }", SIZE_MAX);
    expect_v1_fail(hdr, 0, "overflow"); /* fits as a count, not as a byte size */
    snprintf(hdr, sizeof hdr, "{'descr': '<u2', 'fortran_order': False, 'shape': (0, %zu, %zu), }", SIZE_MAX, SIZE_MAX);
    expect_v1_fail(hdr, 0, "overflow"); /* empty, but strides would still overflow */
    expect_v1_fail("{'descr': '<f8', 'fortran_order': False, 'shape': "
                   "(99999999999999999999999999,), }",
                   0, "overflows size_t");
    expect_v1_fail("{'descr': '<f8', 'fortran_order': False, 'shape': "
                   "(4294967296, 4294967296), }",
                   0, "overflow");
}

static void test_reject_too_many_dims(void **state) {
    (void)state;
    char hdr[4096];
    for (int nd = 33; nd <= 1000; nd += 967) {
        size_t n = (size_t)snprintf(hdr, sizeof hdr, "{'descr': '<f4', 'fortran_order': False, 'shape': (");
        for (int i = 0; i < nd; i++) n += (size_t)snprintf(hdr + n, sizeof hdr - n, "1, ");
        snprintf(hdr + n, sizeof hdr - n, "), }");
        expect_v1_fail(hdr, 4, "too many dimensions");
    }
    /* Exactly NPY_MAX_DIMS is fine. */
    size_t n = (size_t)snprintf(hdr, sizeof hdr, "{'descr': '<f4', 'fortran_order': False, 'shape': (");
    for (int i = 0; i < NPY_MAX_DIMS; i++) n += (size_t)snprintf(hdr + n, sizeof hdr - n, "1,");
    snprintf(hdr + n, sizeof hdr - n, ")}");
    write_v1("dims32.npy", hdr, 4);
    npy_array a;
    read_ok("dims32.npy", &a);
    assert_int_equal(a.ndim, NPY_MAX_DIMS);
    assert_int_equal(a.count, 1);
    npy_free(&a);
}

static void test_reject_truncated_data(void **state) {
    (void)state;
    const char *h = "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }";
    expect_v1_fail(h, 12, "truncated data: expected 20 bytes, got 12");
    expect_v1_fail(h, 0, "truncated data");
    /* Huge claimed shape with a tiny file: must fail on size, not try to allocate 4 TiB. */
    expect_v1_fail("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }", 8,
                   "expected 4398046511104 bytes, got 8");
    expect_v1_fail("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 7, "expected 8 bytes");
}

static void test_reject_trailing_garbage(void **state) {
    (void)state;
    expect_v1_fail("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", 24,
                   "trailing garbage after data: expected 20 bytes, got 24");
    expect_v1_fail("{'descr': '<u2', 'fortran_order': False, 'shape': (0,), }", 1, "trailing");
}

static void test_reject_not_a_file(void **state) {
    (void)state;
    char want[256];
    snprintf(want, sizeof want, "%s", strerror(ENOENT));
    expect_read_fail("does-not-exist.npy", want);
    expect_read_fail("does-not-exist.npy", "cannot open");

    assert_int_equal(mkdir(fpath("adir.npy"), 0755), 0);
    expect_read_fail("adir.npy", "not a regular file");
    /* A FIFO must not block the reader. */
    assert_int_equal(mkfifo(fpath("fifo.npy"), 0644), 0);
    expect_read_fail("fifo.npy", "not a regular file");

    /* NULL err buffer and tiny buffers are tolerated. */
    npy_array a;
    assert_int_equal(npy_read(fpath("does-not-exist.npy"), &a, NULL, 0), -1);
    char small[8];
    assert_int_equal(npy_read(fpath("does-not-exist.npy"), &a, small, sizeof small), -1);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_equal(npy_read(NULL, &a, small, sizeof small), -1);
    assert_int_equal(npy_read(fpath("x"), NULL, small, sizeof small), -1);
}

/* Every truncation of a valid file must fail cleanly, and random byte corruption must never
 * crash (ASan/UBSan catch what asserts cannot). */
static void test_hostile_mutations(void **state) {
    (void)state;
    float vals[6] = {1, 2, 3, 4, 5, 6};
    npy_array a = {.kind = NPY_F4, .elem_size = 4, .ndim = 2, .shape = {2, 3}, .count = 6, .data = vals};
    char err[256];
    assert_int_equal(npy_write(fpath("orig.npy"), &a, err, sizeof err), 0);
    size_t len;
    unsigned char *orig = slurp(fpath("orig.npy"), &len);

    for (size_t cut = 0; cut < len; cut++) {
        write_file("mut.npy", orig, cut);
        npy_array b;
        assert_int_equal(npy_read(fpath("mut.npy"), &b, err, sizeof err), -1);
        assert_true(strlen(err) > 0);
        assert_null(strchr(err, '\n'));
    }

    unsigned char *buf = malloc(len);
    assert_non_null(buf);
    uint32_t rng = 12345;
    int ok = 0;
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(buf, orig, len);
        int flips = 1 + iter % 3;
        for (int f = 0; f < flips; f++) {
            rng = rng * 1103515245u + 12345u;
            size_t pos = (rng >> 8) % 128; /* the preamble: where parsing happens */
            rng = rng * 1103515245u + 12345u;
            buf[pos] = (unsigned char)(rng >> 16);
        }
        write_file("mut.npy", buf, len);
        npy_array b;
        int rc = npy_read(fpath("mut.npy"), &b, err, sizeof err);
        if (rc == 0)
            ok++;
        else
            assert_null(strchr(err, '\n'));
        npy_free(&b);
    }
    (void)ok; /* some mutations (e.g. in padding) legitimately still parse */
    free(buf);
    free(orig);
}

/* ---- writer failures ---- */

static void test_write_nonexistent_dir(void **state) {
    (void)state;
    float v = 1.0f;
    npy_array a = {.kind = NPY_F4, .elem_size = 4, .ndim = 0, .count = 1, .data = &v};
    char err[256] = "";
    assert_int_equal(npy_write(fpath("no/such/dir/x.npy"), &a, err, sizeof err), -1);
    assert_non_null(strstr(err, strerror(ENOENT)));
    assert_null(strchr(err, '\n'));
    struct stat st;
    assert_int_equal(stat(fpath("no"), &st), -1);
}

static void test_write_failure_leaves_no_temp(void **state) {
    (void)state;
    /* A directory squatting on the target path is refused before anything is written, and no temporary file is
     * left behind. */
    assert_int_equal(mkdir(fpath("clean"), 0755), 0);
    assert_int_equal(mkdir(fpath("clean/target.npy"), 0755), 0);
    uint16_t v[3] = {1, 2, 3};
    npy_array a = {.kind = NPY_U2, .elem_size = 2, .ndim = 1, .shape = {3}, .count = 3, .data = v};
    char err[256] = "";
    assert_int_equal(npy_write(fpath("clean/target.npy"), &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "it is a directory"));
    assert_int_equal(count_entries(fpath("clean")), 1);
    struct stat st;
    assert_int_equal(stat(fpath("clean/target.npy"), &st), 0);
    assert_true(S_ISDIR(st.st_mode));

    /* A successful write leaves only the target behind too. */
    assert_int_equal(npy_write(fpath("clean/ok.npy"), &a, err, sizeof err), 0);
    assert_int_equal(count_entries(fpath("clean")), 2);

    /* Path without a file name. */
    assert_int_equal(npy_write(fpath("clean/"), &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "no file name"));
    assert_int_equal(count_entries(fpath("clean")), 2);
}

static void test_write_invalid_array_keeps_existing(void **state) {
    (void)state;
    float vals[4] = {1, 2, 3, 4};
    const npy_array good = {.kind = NPY_F4, .elem_size = 4, .ndim = 1, .shape = {4}, .count = 4, .data = vals};
    char err[256] = "";
    assert_int_equal(npy_write(fpath("keep.npy"), &good, err, sizeof err), 0);
    size_t len0;
    unsigned char *before = slurp(fpath("keep.npy"), &len0);

    struct {
        npy_array a;
        const char *kw;
    } bad[] = {
        {good, "invalid array kind"}, {good, "elem_size"}, {good, "invalid ndim"},
        {good, "invalid ndim"},       {good, "count"},     {good, "data is NULL"},
        {good, "overflow"},
    };
    bad[0].a.kind = (npy_kind)7;
    bad[1].a.elem_size = 8;
    bad[2].a.ndim = NPY_MAX_DIMS + 1;
    bad[3].a.ndim = -1;
    bad[4].a.count = 5;
    bad[5].a.data = NULL;
    bad[6].a.ndim = 2;
    bad[6].a.shape[0] = SIZE_MAX / 2;
    bad[6].a.shape[1] = 3;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(npy_write(fpath("keep.npy"), &bad[i].a, err, sizeof err), -1);
        if (!strstr(err, bad[i].kw)) print_error("case %zu: '%s'\n", i, err);
        assert_non_null(strstr(err, bad[i].kw));
        assert_int_equal(npy_write(fpath("never.npy"), &bad[i].a, err, sizeof err), -1);
    }
    struct stat st;
    assert_int_equal(stat(fpath("never.npy"), &st), -1);
    size_t len1;
    unsigned char *after = slurp(fpath("keep.npy"), &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(before);
    free(after);

    assert_int_equal(npy_write(NULL, &good, err, sizeof err), -1);
    assert_int_equal(npy_write(fpath("never.npy"), NULL, NULL, 0), -1);
}

static void test_write_overwrite_and_relative(void **state) {
    (void)state;
    /* Overwriting replaces the file; a bare file name writes into the cwd. */
    uint16_t v1[2] = {1, 2}, v2[3] = {7, 8, 9};
    npy_array a = {.kind = NPY_U2, .elem_size = 2, .ndim = 1, .shape = {2}, .count = 2, .data = v1};
    char err[256];
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(g_dir), 0);
    int rc1 = npy_write("rel.npy", &a, err, sizeof err);
    a.shape[0] = 3;
    a.count = 3;
    a.data = v2;
    int rc2 = npy_write("rel.npy", &a, err, sizeof err);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(rc1, 0);
    assert_int_equal(rc2, 0);
    npy_array b;
    read_ok("rel.npy", &b);
    assert_int_equal(b.count, 3);
    assert_memory_equal(b.data, v2, sizeof v2);
    npy_free(&b);
}

static void test_kind_descr_and_free(void **state) {
    (void)state;
    assert_string_equal(npy_kind_descr(NPY_F2), "<f2");
    assert_string_equal(npy_kind_descr(NPY_F4), "<f4");
    assert_string_equal(npy_kind_descr(NPY_F8), "<f8");
    assert_string_equal(npy_kind_descr(NPY_U2), "<u2");
    assert_string_equal(npy_kind_descr(NPY_I2), "<i2");
    assert_null(npy_kind_descr((npy_kind)42));
    npy_free(NULL);
    npy_array a = {.data = malloc(4), .count = 2};
    npy_free(&a);
    assert_null(a.data);
    npy_free(&a); /* idempotent */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_f2),
        cmocka_unit_test(test_round_trip_f4),
        cmocka_unit_test(test_round_trip_f8),
        cmocka_unit_test(test_round_trip_u2),
        cmocka_unit_test(test_header_matches_numpy),
        cmocka_unit_test(test_read_version2),
        cmocka_unit_test(test_read_hand_written),
        cmocka_unit_test(test_reject_bad_magic),
        cmocka_unit_test(test_reject_version),
        cmocka_unit_test(test_reject_truncated_header),
        cmocka_unit_test(test_reject_huge_header),
        cmocka_unit_test(test_reject_malformed),
        cmocka_unit_test(test_reject_unsupported_dtype),
        cmocka_unit_test(test_reject_big_endian),
        cmocka_unit_test(test_reject_fortran_order),
        cmocka_unit_test(test_elements_in_c_order),
        cmocka_unit_test(test_reject_shape_overflow),
        cmocka_unit_test(test_reject_too_many_dims),
        cmocka_unit_test(test_reject_truncated_data),
        cmocka_unit_test(test_reject_trailing_garbage),
        cmocka_unit_test(test_reject_not_a_file),
        cmocka_unit_test(test_hostile_mutations),
        cmocka_unit_test(test_write_nonexistent_dir),
        cmocka_unit_test(test_write_failure_leaves_no_temp),
        cmocka_unit_test(test_write_invalid_array_keeps_existing),
        cmocka_unit_test(test_write_overwrite_and_relative),
        cmocka_unit_test(test_kind_descr_and_free),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
