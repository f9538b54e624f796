/* Whether a CPU test asks for every instruction set its code is compiled for (test_isa for omk's builds, test_peers
 * for the vector peers' wrapper files): a test that left one out would run that code on a CPU without it (SIGILL), and
 * no test on a CPU that has the feature could see it, so the test's text is read. */
#ifndef ULPB_CPU_TEST_COVER_H
#define ULPB_CPU_TEST_COVER_H

#include <stdio.h>
#include <string.h>

/* Checks each -mFEATURE of flags against cpu_test, the text of a condition over HAS("feature") and, for f16c, over
 * has_f16c (from CPUID: Clang 14's __builtin_cpu_supports lacks "f16c"). Returns how many flags it checked, or -1 with
 * the first feature not asked for in missing. */
static inline int cpu_test_covers_flags(const char *flags, const char *cpu_test, const char *has, const char *has_f16c,
                                        char missing[32]) {
    int checked = 0;
    for (const char *flag = strstr(flags, "-m"); flag; flag = strstr(flag + 2, "-m")) {
        char asked[96];
        const size_t len = strcspn(flag + 2, " ");
        if (len == 0 || len >= 32) return snprintf(missing, 32, "%.31s", flag), -1;
        memcpy(missing, flag + 2, len);
        missing[len] = 0;
        if (strcmp(missing, "f16c") == 0)
            snprintf(asked, sizeof asked, "%s", has_f16c);
        else
            snprintf(asked, sizeof asked, "%s(\"%s\")", has, missing);
        if (!strstr(cpu_test, asked)) return -1;
        checked++;
    }
    return checked;
}

#endif
