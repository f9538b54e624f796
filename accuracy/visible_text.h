/* What ulpbench and omk_ab treat as a control character when they show text that came from a user or a file. */
#ifndef ULPB_VISIBLE_TEXT_H
#define ULPB_VISIBLE_TEXT_H

#include <stddef.h>

/* The bytes of a control character at c, newlines included: C0 and DEL (1), or a C1 control in UTF-8 (2: U+0080 to
 * U+009F, which some terminals obey, U+009B as an escape sequence's start); 0 for any other character. */
static inline size_t ulpb_control_length(const char *c) {
    const unsigned char b = (unsigned char)c[0];
    if (b < 0x20 || b == 0x7f) return 1;
    return b == 0xc2 && (unsigned char)c[1] >= 0x80 && (unsigned char)c[1] <= 0x9f ? 2 : 0;
}

#endif
