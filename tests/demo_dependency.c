/* A library of the user's own behind tests/demo_kernels.c (its second dependency, beside libomk.so), so that test_cli
 * sees ULPB_LIBRARIES record more than one shared object a library brings in, each with its own size and digest. */
#include <stdint.h>

uint16_t demo_one_f16(void);

uint16_t demo_one_f16(void) { return 0x3c00; /* binary16 1.0 */ }
