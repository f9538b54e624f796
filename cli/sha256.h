/* SHA-256 (FIPS 180-4), so that a report names the exact input file it measured in the form `sha256sum` prints. */
#ifndef ULPB_SHA256_H
#define ULPB_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t state[8];
    uint64_t bytes; /* message length so far */
    unsigned char block[64];
    size_t used; /* bytes of block filled */
} ulpb_sha256;

void ulpb_sha256_init(ulpb_sha256 *h);
void ulpb_sha256_update(ulpb_sha256 *h, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a terminating NUL. */
void ulpb_sha256_hex(ulpb_sha256 *h, char hex[65]);

#endif
