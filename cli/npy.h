/* Minimal NumPy .npy reader/writer for little-endian float16/32/64 and uint16/int16 arrays. */
#ifndef NPY_H
#define NPY_H

#include <stddef.h>
#include <stdint.h>

enum { NPY_MAX_DIMS = 32 };

typedef enum { NPY_F2, NPY_F4, NPY_F8, NPY_U2, NPY_I2 } npy_kind; /* descr '<f2', '<f4', '<f8', '<u2', '<i2' */

typedef struct {
    npy_kind kind;
    size_t elem_size; /* 2, 4 or 8 */
    int ndim;         /* 0 for a 0-d array (shape ()) */
    size_t shape[NPY_MAX_DIMS];
    size_t count; /* product of shape; 1 for 0-d; may be 0 */
    void *data;   /* count*elem_size bytes, malloc'ed (may be NULL when count==0) */
} npy_array;

/* Returns 0 on success; on failure returns -1 and writes a one-line message (no trailing newline)
 * naming the problem into err. On failure *out is zeroed, so npy_free(out) is always safe.
 * Accepts format versions 1.0, 2.0 and 3.0; fortran_order=True only for ndim <= 1. */
int npy_read(const char *path, npy_array *out, char *err, size_t err_len);
/* npy_read for a reader of the elements alone: also takes fortran_order=True at any ndim, with the data then put in C
 * order (numpy's x.flat order), and gives the SHA-256 of the file's bytes as read (what `sha256sum` prints) as 64 hex
 * digits. */
int npy_read_elements(const char *path, npy_array *out, char sha256_hex[65], char *err, size_t err_len);

/* Writes atomically: to a temporary file in the same directory, then rename(); on any failure
 * the temp file is removed and no file at path is created or modified.
 * Uses format 1.0 (2.0 only if the header would exceed 65535 bytes), 64-byte aligned preamble. */
int npy_write(const char *path, const npy_array *a, char *err, size_t err_len);

/* Frees a->data and zeroes *a; a may be NULL. */
void npy_free(npy_array *a);

/* "<f2", "<f4", "<f8", "<u2" or "<i2"; NULL for a value outside npy_kind. */
const char *npy_kind_descr(npy_kind k);

#endif /* NPY_H */
