/* NumPy .npy reader/writer. Format reference:
 * https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html */
#define _POSIX_C_SOURCE 200809L

#include "npy.h"

#include "outfile.h"
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Data is copied raw, so the host byte order must match the '<' descrs we handle. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "npy.c assumes a little-endian host");
#endif

#define NPY_MAGIC     "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN     64
/* Real headers for our dtypes are < 1 KiB; the cap only bounds what hostile files can make us
 * allocate (the header length is also checked against the file size first). */
#define NPY_HEADER_MAX ((size_t)1 << 20)
/* Longest header string or path fragment echoed into error messages. */
#define NPY_ECHO_MAX 40

static const struct {
    npy_kind kind;
    const char *descr;
    size_t size;
} kinds[] = {
    {NPY_F2, "<f2", 2}, {NPY_F4, "<f4", 4}, {NPY_F8, "<f8", 8}, {NPY_U2, "<u2", 2}, {NPY_I2, "<i2", 2},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

const char *npy_kind_descr(npy_kind k) {
    for (size_t i = 0; i < NKINDS; i++)
        if (kinds[i].kind == k) return kinds[i].descr;
    return NULL;
}

void npy_free(npy_array *a) {
    if (!a) return;
    free(a->data);
    memset(a, 0, sizeof *a);
}

static int host_is_little_endian(void) {
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Formats into err and forces the result onto one line: messages may echo bytes from hostile
 * headers or odd paths, and callers print them verbatim. */
__attribute__((format(printf, 3, 4))) static void set_err(char *err, size_t err_len, const char *fmt, ...) {
    if (!err || err_len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    for (char *c = err; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
}

/* Element count and byte size of a shape. Fails if the product of the non-zero dims times the
 * element size overflows size_t, even when a zero dim makes the array empty, so that callers
 * can always compute strides safely. */
static int shape_size(const size_t *shape, int ndim, size_t elem_size, size_t *count, size_t *nbytes) {
    size_t prod = elem_size, n = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            n = 0;
            continue;
        }
        if (prod > SIZE_MAX / shape[i]) return -1;
        prod *= shape[i];
    }
    if (n != 0) n = prod / elem_size;
    *count = n;
    *nbytes = n * elem_size;
    return 0;
}

/* ---- header dict parser: the subset of Python literal syntax NumPy emits ---- */

typedef struct {
    const char *s;
    size_t n, i;
    char *err;
    size_t err_len;
} parser;

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int peek(const parser *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }

static void skip_ws(parser *p) {
    while (is_space(peek(p))) p->i++;
}

static int malformed(parser *p, const char *what) {
    set_err(p->err, p->err_len, "malformed header: %s at offset %zu", what, p->i);
    return -1;
}

/* Text of the header, quoted in a message: at most NPY_ECHO_MAX characters (then "..."), a byte outside printable ASCII
 * as '?' (a header is ASCII; echoing other bytes raw could put invalid UTF-8 or escape sequences on a terminal). */
static const char *echo(char buf[NPY_ECHO_MAX + 4], const char *text, size_t len) {
    const size_t shown = len > NPY_ECHO_MAX ? NPY_ECHO_MAX : len;
    for (size_t i = 0; i < shown; i++) buf[i] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
    strcpy(buf + shown, len > shown ? "..." : "");
    return buf;
}

/* Quoted string without escapes; NumPy never emits escapes in the keys or descrs we accept. */
static int parse_string(parser *p, const char **str, size_t *len) {
    int q = peek(p);
    if (q != '\'' && q != '"') return malformed(p, "expected a quoted string");
    size_t start = ++p->i;
    for (;;) {
        int c = peek(p);
        if (c < 0) return malformed(p, "unterminated string");
        if (c == q) break;
        if (c == '\\' || c < 0x20) return malformed(p, "unsupported character in string");
        p->i++;
    }
    *str = p->s + start;
    *len = p->i - start;
    p->i++;
    return 0;
}

static int match_word(parser *p, const char *w) {
    size_t wl = strlen(w);
    if (p->n - p->i < wl || memcmp(p->s + p->i, w, wl) != 0) return 0;
    int next = p->i + wl < p->n ? (unsigned char)p->s[p->i + wl] : -1;
    if (next == '_' || is_digit(next) || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z')) return 0;
    p->i += wl;
    return 1;
}

static int parse_bool(parser *p, int *v) {
    if (match_word(p, "True"))
        *v = 1;
    else if (match_word(p, "False"))
        *v = 0;
    else
        return malformed(p, "expected True or False");
    return 0;
}

/* Tuple of non-negative ints: (), (5,), (2, 3) or (2, 3,). Dims beyond NPY_MAX_DIMS are counted
 * but not stored so the caller can report how many there were. */
static int parse_shape(parser *p, size_t *shape, size_t *ndim) {
    size_t nd = 0;
    int comma = 0;
    if (peek(p) != '(') return malformed(p, "shape must be a tuple");
    p->i++;
    skip_ws(p);
    if (peek(p) == ')') {
        p->i++;
        *ndim = 0;
        return 0;
    }
    for (;;) {
        if (!is_digit(peek(p))) return malformed(p, "expected a non-negative integer in shape");
        /* Python reads 00 as 0 but refuses 02 (no octal without 0o), and so does NumPy */
        const int leading_zero = peek(p) == '0';
        size_t v = 0;
        while (is_digit(peek(p))) {
            if (leading_zero && peek(p) != '0') return malformed(p, "leading zero in a shape dimension");
            unsigned d = (unsigned)(peek(p) - '0');
            if (v > (SIZE_MAX - d) / 10) {
                set_err(p->err, p->err_len, "shape dimension at offset %zu overflows size_t", p->i);
                return -1;
            }
            v = v * 10 + d;
            p->i++;
        }
        /* Python 2 era writers could emit longs such as (5L,). */
        if (peek(p) == 'L' || peek(p) == 'l') p->i++;
        if (nd < NPY_MAX_DIMS) shape[nd] = v;
        nd++;
        skip_ws(p);
        if (peek(p) == ',') {
            comma = 1;
            p->i++;
            skip_ws(p);
            if (peek(p) == ')') break;
        } else if (peek(p) == ')') {
            /* In Python "(5)" is the int 5, not a tuple; NumPy rejects it too. */
            if (!comma) return malformed(p, "shape must be a tuple, e.g. (5,) not (5)");
            break;
        } else {
            return malformed(p, "expected ',' or ')' in shape");
        }
    }
    p->i++;
    *ndim = nd;
    return 0;
}

typedef struct {
    const char *descr;
    size_t descr_len;
    int fortran;
    size_t shape[NPY_MAX_DIMS];
    size_t ndim;
    int have_descr, have_fortran, have_shape;
} header_info;

static int key_is(const char *k, size_t kl, const char *name) { return kl == strlen(name) && memcmp(k, name, kl) == 0; }

static int parse_header(const char *s, size_t n, header_info *h, char *err, size_t err_len) {
    parser p = {s, n, 0, err, err_len};
    memset(h, 0, sizeof *h);
    skip_ws(&p);
    if (peek(&p) != '{') return malformed(&p, "expected '{'");
    p.i++;
    for (;;) {
        skip_ws(&p);
        if (peek(&p) == '}') break;
        const char *k;
        size_t kl;
        if (parse_string(&p, &k, &kl) < 0) return -1;
        skip_ws(&p);
        if (peek(&p) != ':') return malformed(&p, "expected ':'");
        p.i++;
        skip_ws(&p);
        int *seen;
        int rc;
        if (key_is(k, kl, "descr")) {
            /* numpy.save of a record array, [('name', '<f4'), ...]: well formed, but no dtype of ours */
            size_t field = p.i + 1;
            while (field < n && is_space((unsigned char)s[field])) field++;
            if (peek(&p) == '[' && field < n && s[field] == '(') {
                set_err(err, err_len,
                        "unsupported dtype: a structured dtype (a list of fields; supported: <f2, <f4, "
                        "<f8, <u2, <i2)");
                return -1;
            }
            seen = &h->have_descr;
            rc = parse_string(&p, &h->descr, &h->descr_len);
        } else if (key_is(k, kl, "fortran_order")) {
            seen = &h->have_fortran;
            rc = parse_bool(&p, &h->fortran);
        } else if (key_is(k, kl, "shape")) {
            seen = &h->have_shape;
            rc = parse_shape(&p, h->shape, &h->ndim);
        } else {
            char shown[NPY_ECHO_MAX + 4];
            set_err(err, err_len, "malformed header: unexpected key '%s'", echo(shown, k, kl));
            return -1;
        }
        if (rc < 0) return -1;
        if (*seen) {
            set_err(err, err_len, "malformed header: duplicate key '%.*s'", (int)kl, k);
            return -1;
        }
        *seen = 1;
        skip_ws(&p);
        if (peek(&p) == ',') {
            p.i++;
            continue;
        }
        if (peek(&p) != '}') return malformed(&p, "expected ',' or '}'");
        break;
    }
    p.i++; /* '}' */
    /* NumPy pads with spaces and a final '\n'; anything else is not a plain dict literal. */
    skip_ws(&p);
    if (p.i != n) return malformed(&p, "unexpected characters after the dict");
    const char *missing = !h->have_descr     ? "descr"
                          : !h->have_fortran ? "fortran_order"
                          : !h->have_shape   ? "shape"
                                             : NULL;
    if (missing) {
        set_err(err, err_len, "malformed header: missing key '%s'", missing);
        return -1;
    }
    return 0;
}

static int lookup_descr(const char *d, size_t len, npy_array *out, char *err, size_t err_len) {
    /* '=' and no byte-order character mean the host's order, little-endian here (as numpy reads them) */
    const size_t order = len == 3 && (d[0] == '<' || d[0] == '=') ? 1 : len == 2 ? 0 : 2;
    for (size_t i = 0; i < NKINDS; i++) {
        if (order < 2 && memcmp(d + order, kinds[i].descr + 1, 2) == 0) {
            out->kind = kinds[i].kind;
            out->elem_size = kinds[i].size;
            return 0;
        }
    }
    for (size_t i = 0; i < NKINDS; i++) {
        if (len == 3 && d[0] == '>' && memcmp(d + 1, kinds[i].descr + 1, 2) == 0) {
            set_err(err, err_len, "big-endian dtype '%.*s' is not supported", (int)len, d);
            return -1;
        }
    }
    char shown[NPY_ECHO_MAX + 4];
    /* ml_dtypes' bfloat16 saves as an opaque |V2 */
    const bool opaque_pairs = len == 3 && memcmp(d, "|V2", 3) == 0;
    set_err(err, err_len, "unsupported dtype '%s' (supported: <f2, <f4, <f8, <u2, <i2)%s", echo(shown, d, len),
            opaque_pairs ? "; for bfloat16, save x.view(numpy.uint16) and give --dtype bf16" : "");
    return -1;
}

/* ---- file I/O ---- */

/* Reads exactly len bytes; returns the number read (short only at EOF), or -1 with errno. */
static ssize_t read_full(int fd, void *buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        size_t chunk = len - got > (size_t)SSIZE_MAX ? (size_t)SSIZE_MAX : len - got;
        ssize_t r = read(fd, (char *)buf + got, chunk);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/* Fortran order's data (first index fastest) into C order (last index fastest), in a new buffer. */
static int to_c_order(npy_array *a) {
    char *c = malloc(a->count * a->elem_size);
    if (!c) return -1;
    size_t index[NPY_MAX_DIMS] = {0}, stride[NPY_MAX_DIMS], offset = 0; /* offset: index's element in Fortran order */
    for (int d = 0; d < a->ndim; d++) stride[d] = d ? stride[d - 1] * a->shape[d - 1] : 1;
    for (size_t i = 0; i < a->count; i++) {
        memcpy(c + i * a->elem_size, (const char *)a->data + offset * a->elem_size, a->elem_size);
        for (int d = a->ndim - 1; d >= 0; d--) { /* the next index in C order, and its offset */
            if (++index[d] < a->shape[d]) {
                offset += stride[d];
                break;
            }
            offset -= (a->shape[d] - 1) * stride[d];
            index[d] = 0;
        }
    }
    free(a->data);
    a->data = c;
    return 0;
}

/* digest, when not NULL, takes every byte of the file as read: the preamble, the header, the data. any_order: a
 * Fortran-ordered array of more than one dimension is taken, its data put in C order. */
static int read_fd(int fd, uintmax_t fsize, npy_array *out, ulpb_sha256 *digest, bool any_order, char *err,
                   size_t err_len) {
    unsigned char pre[12];
    /* Everything below is bounded by fsize, which fstat gave us before any allocation. */
    size_t want = fsize < sizeof pre ? (size_t)fsize : sizeof pre;
    ssize_t got = read_full(fd, pre, want);
    if (got < 0) {
        set_err(err, err_len, "read error: %s", strerror(errno));
        return -1;
    }
    if ((size_t)got < NPY_MAGIC_LEN || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
        set_err(err, err_len, "not a .npy file (bad magic string)%s",
                (size_t)got >= 4 && memcmp(pre, "PK\x03\x04", 4) == 0
                    ? ": a zip archive, as numpy.savez writes; save each array with numpy.save"
                    : "");
        return -1;
    }
    if (got < 8) {
        set_err(err, err_len, "truncated header: file ends inside the preamble");
        return -1;
    }
    unsigned major = pre[6], minor = pre[7];
    size_t prelen;
    uintmax_t hlen;
    if (major == 1 && minor == 0) {
        prelen = 10;
    } else if ((major == 2 || major == 3) && minor == 0) {
        prelen = 12; /* 3.0 only differs by allowing a utf8 header; our subset is ASCII */
    } else {
        set_err(err, err_len, "unsupported .npy format version %u.%u (supported: 1.0, 2.0, 3.0)", major, minor);
        return -1;
    }
    if ((size_t)got < prelen) {
        set_err(err, err_len, "truncated header: file ends inside the preamble");
        return -1;
    }
    hlen = (uintmax_t)pre[8] | (uintmax_t)pre[9] << 8;
    if (prelen == 12) hlen |= (uintmax_t)pre[10] << 16 | (uintmax_t)pre[11] << 24;
    if (hlen > fsize - prelen) {
        set_err(err, err_len, "truncated header: header length %ju exceeds the %ju bytes left", hlen, fsize - prelen);
        return -1;
    }
    if (hlen > NPY_HEADER_MAX) {
        set_err(err, err_len, "header length %ju is too large (max %zu)", hlen, (size_t)NPY_HEADER_MAX);
        return -1;
    }

    char *hdr = malloc((size_t)hlen + 1);
    if (!hdr) {
        set_err(err, err_len, "out of memory reading header");
        return -1;
    }
    /* Re-seek: the first read may have consumed header bytes (v1.0 preamble is only 10). */
    if (lseek(fd, (off_t)prelen, SEEK_SET) < 0 || (got = read_full(fd, hdr, (size_t)hlen)) < 0) {
        set_err(err, err_len, "read error: %s", strerror(errno));
        free(hdr);
        return -1;
    }
    if ((uintmax_t)got < hlen) {
        set_err(err, err_len, "truncated header: file shrank while reading");
        free(hdr);
        return -1;
    }
    hdr[hlen] = '\0';
    if (digest) {
        ulpb_sha256_update(digest, pre, prelen);
        ulpb_sha256_update(digest, hdr, (size_t)hlen);
    }

    header_info h;
    int rc = parse_header(hdr, (size_t)hlen, &h, err, err_len);
    if (rc == 0) rc = lookup_descr(h.descr, h.descr_len, out, err, err_len);
    free(hdr); /* h.descr points into hdr; not used past this point */
    if (rc < 0) return -1;

    if (h.ndim > NPY_MAX_DIMS) {
        set_err(err, err_len, "too many dimensions (%zu, max %d)", h.ndim, NPY_MAX_DIMS);
        return -1;
    }
    out->ndim = (int)h.ndim;
    memcpy(out->shape, h.shape, h.ndim * sizeof h.shape[0]);
    /* For ndim <= 1 C and Fortran order are the same byte layout. */
    if (h.fortran && out->ndim > 1 && !any_order) {
        set_err(err, err_len, "fortran_order=True is not supported for ndim %d (only ndim <= 1)", out->ndim);
        return -1;
    }
    size_t nbytes;
    if (shape_size(out->shape, out->ndim, out->elem_size, &out->count, &nbytes) < 0) {
        set_err(err, err_len, "shape is too large: its element or byte count overflows size_t");
        return -1;
    }
    uintmax_t avail = fsize - prelen - hlen;
    if (avail < nbytes) {
        set_err(err, err_len, "truncated data: expected %zu bytes, got %ju", nbytes, avail);
        return -1;
    }
    if (avail > nbytes) {
        set_err(err, err_len, "trailing garbage after data: expected %zu bytes, got %ju", nbytes, avail);
        return -1;
    }
    if (nbytes == 0) return 0;
    out->data = malloc(nbytes);
    if (!out->data) {
        set_err(err, err_len, "out of memory allocating %zu bytes of data", nbytes);
        return -1;
    }
    got = read_full(fd, out->data, nbytes);
    if (got < 0) {
        set_err(err, err_len, "read error: %s", strerror(errno));
        return -1;
    }
    if ((size_t)got < nbytes) {
        set_err(err, err_len, "truncated data: expected %zu bytes, got %zd", nbytes, got);
        return -1;
    }
    if (digest) ulpb_sha256_update(digest, out->data, nbytes);
    if (h.fortran && out->ndim > 1 && to_c_order(out)) {
        set_err(err, err_len, "out of memory putting %zu bytes of data in C order", nbytes);
        return -1;
    }
    return 0;
}

static int read_path(const char *path, npy_array *out, char sha256_hex[65], bool any_order, char *err, size_t err_len);

int npy_read(const char *path, npy_array *out, char *err, size_t err_len) {
    return read_path(path, out, NULL, false, err, err_len);
}

int npy_read_elements(const char *path, npy_array *out, char sha256_hex[65], char *err, size_t err_len) {
    return read_path(path, out, sha256_hex, true, err, err_len);
}

static int read_path(const char *path, npy_array *out, char sha256_hex[65], bool any_order, char *err, size_t err_len) {
    if (err && err_len) err[0] = '\0';
    if (!out) {
        set_err(err, err_len, "npy_read: output array is NULL");
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (!path) {
        set_err(err, err_len, "npy_read: path is NULL");
        return -1;
    }
    if (!host_is_little_endian()) {
        set_err(err, err_len, "big-endian hosts are not supported");
        return -1;
    }
    /* O_NONBLOCK so a FIFO path cannot hang us before the regular-file check. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        set_err(err, err_len, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) < 0)
        set_err(err, err_len, "cannot stat '%s': %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        set_err(err, err_len, "'%s' is not a regular file", path);
    else {
        ulpb_sha256 digest;
        ulpb_sha256_init(&digest);
        rc = read_fd(fd, (uintmax_t)st.st_size, out, sha256_hex ? &digest : NULL, any_order, err, err_len);
        if (rc == 0 && sha256_hex) ulpb_sha256_hex(&digest, sha256_hex);
    }
    close(fd);
    if (rc < 0) npy_free(out);
    return rc;
}

/* ---- writer ---- */

/* Builds magic, version, length and the space-padded dict exactly as numpy.save does.
 * Returns the preamble length or 0 if buf is too small. */
static size_t build_preamble(const npy_array *a, char *buf, size_t cap) {
    char dict[64 + NPY_MAX_DIMS * 24];
    size_t n = (size_t)snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                                npy_kind_descr(a->kind));
    /* Sized for NPY_MAX_DIMS 20-digit dims; the n checks only guard against that changing. */
    for (int i = 0; i < a->ndim && n < sizeof dict; i++)
        n += (size_t)snprintf(dict + n, sizeof dict - n, i ? ", %zu" : "%zu", a->shape[i]);
    if (n < sizeof dict) n += (size_t)snprintf(dict + n, sizeof dict - n, "%s), }", a->ndim == 1 ? "," : "");
    if (n >= sizeof dict) return 0;

    /* NumPy: padlen = 64 - (prelen + dictlen + 1) % 64, so a full 64 spaces when already
     * aligned; then the '\n'. Version 2.0 only when the length overflows the 1.0 uint16. */
    size_t prelen = 10, total;
    for (;;) {
        size_t hlen = n + 1;
        size_t pad = NPY_ALIGN - (prelen + hlen) % NPY_ALIGN;
        total = prelen + hlen + pad;
        if (prelen == 12 || total - prelen <= 0xFFFF) break;
        prelen = 12;
    }
    if (total > cap) return 0;
    size_t hl = total - prelen;
    memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
    buf[6] = prelen == 10 ? 1 : 2;
    buf[7] = 0;
    buf[8] = (char)(hl & 0xFF);
    buf[9] = (char)(hl >> 8 & 0xFF);
    if (prelen == 12) {
        buf[10] = (char)(hl >> 16 & 0xFF);
        buf[11] = (char)(hl >> 24 & 0xFF);
    }
    memcpy(buf + prelen, dict, n);
    memset(buf + prelen + n, ' ', total - prelen - n - 1);
    buf[total - 1] = '\n';
    return total;
}

static int validate(const npy_array *a, size_t *nbytes, char *err, size_t err_len) {
    const char *descr = npy_kind_descr(a->kind);
    if (!descr) {
        set_err(err, err_len, "invalid array kind %d", (int)a->kind);
        return -1;
    }
    for (size_t i = 0; i < NKINDS; i++) {
        if (kinds[i].kind == a->kind && kinds[i].size != a->elem_size) {
            set_err(err, err_len, "elem_size %zu does not match dtype %s (expected %zu)", a->elem_size, descr,
                    kinds[i].size);
            return -1;
        }
    }
    if (a->ndim < 0 || a->ndim > NPY_MAX_DIMS) {
        set_err(err, err_len, "invalid ndim %d (must be 0..%d)", a->ndim, NPY_MAX_DIMS);
        return -1;
    }
    size_t count;
    if (shape_size(a->shape, a->ndim, a->elem_size, &count, nbytes) < 0) {
        set_err(err, err_len, "shape is too large: its element or byte count overflows size_t");
        return -1;
    }
    if (count != a->count) {
        set_err(err, err_len, "count %zu does not match the shape's element count %zu", a->count, count);
        return -1;
    }
    if (count > 0 && !a->data) {
        set_err(err, err_len, "data is NULL for a non-empty array");
        return -1;
    }
    return 0;
}

int npy_write(const char *path, const npy_array *a, char *err, size_t err_len) {
    if (err && err_len) err[0] = '\0';
    if (!path || !a) {
        set_err(err, err_len, "npy_write: %s is NULL", path ? "array" : "path");
        return -1;
    }
    if (!host_is_little_endian()) {
        set_err(err, err_len, "big-endian hosts are not supported");
        return -1;
    }
    size_t nbytes;
    if (validate(a, &nbytes, err, err_len) < 0) return -1;
    char pre[2048];
    size_t prelen = build_preamble(a, pre, sizeof pre);
    if (prelen == 0) {
        set_err(err, err_len, "internal error: header does not fit");
        return -1;
    }

    /* Shared with the CLI's JSON/Markdown outputs: a temporary file renamed into place (O_EXCL, 0666 & ~umask),
     * or a device or pipe written through. */
    const ulpb_output out = {.path = path, .text = pre, .len = prelen, .extra = a->data, .extra_len = nbytes};
    return ulpb_write_outputs(&out, 1, err, err_len);
}
