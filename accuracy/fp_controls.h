/* The floating-point controls a kernel under test must leave as it found them (omk.h's contract): SSE's MXCSR
 * (rounding, flush to zero, denormals are zero, exception masks; its sticky flags excepted) and the x87 control
 * word (precision, rounding, masks), which the harness's own arithmetic depends on: decoding subnormals, the fast
 * reference's long doubles, the ulp of a result. A library that changes them, when loaded or in a call, would
 * change every figure of the run; ulpbench refuses it instead (registry.c, accuracy.c). */
#ifndef ULPB_FP_CONTROLS_H
#define ULPB_FP_CONTROLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <xmmintrin.h>

typedef struct {
    uint32_t mxcsr; /* without the flags (bits 0-5) */
    uint16_t x87;
} ulpb_fp_controls;

enum { ULPB_MXCSR_FLAGS = 0x3f };

static inline ulpb_fp_controls ulpb_fp_controls_now(void) {
    ulpb_fp_controls c;
    c.mxcsr = _mm_getcsr() & ~(uint32_t)ULPB_MXCSR_FLAGS;
    __asm__ volatile("fnstcw %0" : "=m"(c.x87));
    return c;
}

static inline bool ulpb_fp_controls_equal(ulpb_fp_controls a, ulpb_fp_controls b) {
    return a.mxcsr == b.mxcsr && a.x87 == b.x87;
}

/* Puts c back (the MXCSR flags stay as they are). */
static inline void ulpb_fp_controls_set(ulpb_fp_controls c) {
    _mm_setcsr((_mm_getcsr() & ULPB_MXCSR_FLAGS) | c.mxcsr);
    __asm__ volatile("fldcw %0" : : "m"(c.x87));
}

/* What changed from `before` to `after`, in words and bits: "flush to zero, denormals are zero (MXCSR 0x1f80 ->
 * 0x9fc0)". */
static inline void ulpb_fp_controls_describe(ulpb_fp_controls before, ulpb_fp_controls after, char *out, size_t len) {
    static const char *const rounding[4] = {"to nearest", "downward", "upward", "toward zero"};
    static const char *const x87_precision[4] = {"24 bits", "reserved", "53 bits", "64 bits"};
    size_t used = 0;
    out[0] = '\0';
#define ULPB_FP_SAY(...)                                                                                               \
    do {                                                                                                               \
        if (used < len) used += (size_t)snprintf(out + used, len - used, "%s", used ? ", " : "");                      \
        if (used < len) used += (size_t)snprintf(out + used, len - used, __VA_ARGS__);                                 \
    } while (0)
    const uint32_t mx = before.mxcsr ^ after.mxcsr;
    if (mx & 0x8000) ULPB_FP_SAY("flush to zero %s", after.mxcsr & 0x8000 ? "on" : "off");
    if (mx & 0x0040) ULPB_FP_SAY("denormals are zero %s", after.mxcsr & 0x0040 ? "on" : "off");
    if (mx & 0x6000) ULPB_FP_SAY("SSE rounding %s", rounding[(after.mxcsr >> 13) & 3]);
    if (mx & 0x1f80) ULPB_FP_SAY("SSE exception masks changed");
    const uint16_t x = before.x87 ^ after.x87;
    if (x & 0x0300) ULPB_FP_SAY("x87 precision %s", x87_precision[(after.x87 >> 8) & 3]);
    if (x & 0x0c00) ULPB_FP_SAY("x87 rounding %s", rounding[(after.x87 >> 10) & 3]);
    if (x & 0x003f) ULPB_FP_SAY("x87 exception masks changed");
    if (mx & 0xffff0000u || x & ~0x0f3fu) ULPB_FP_SAY("other control bits");
#undef ULPB_FP_SAY
    if (used < len)
        snprintf(out + used, len - used, " (MXCSR %#x -> %#x, x87 control word %#x -> %#x)", (unsigned)before.mxcsr,
                 (unsigned)after.mxcsr, (unsigned)before.x87, (unsigned)after.x87);
}

/* Whether the controls are still `before`; if not, they are put back and `what` says what had changed. */
static inline bool ulpb_fp_controls_kept(ulpb_fp_controls before, char *what, size_t len) {
    const ulpb_fp_controls after = ulpb_fp_controls_now();
    if (ulpb_fp_controls_equal(before, after)) return true;
    ulpb_fp_controls_set(before);
    ulpb_fp_controls_describe(before, after, what, len);
    return false;
}

#endif
