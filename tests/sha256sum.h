/* The SHA-256 of a file as the sha256sum command prints it: an independent check of the digest the results record
 * (test_cli, test_npy). Include after cmocka.h. */
#ifndef ULPB_TEST_SHA256SUM_H
#define ULPB_TEST_SHA256SUM_H

#include <stdio.h>
#include <string.h>

static inline void sha256sum_of(const char *path, char digest[65]) {
    char command[8400], line[80] = "";
    snprintf(command, sizeof command, "sha256sum '%s'", path);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    assert_non_null(fgets(line, sizeof line, p));
    assert_int_equal(pclose(p), 0);
    memcpy(digest, line, 64);
    digest[64] = 0;
}

#endif
