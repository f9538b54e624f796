/* Whether a CPU test asks for every instruction set its code is compiled for (test_isa for omk's builds, test_peers
 * for the vector peers' wrapper files): a test that left one out would run that code on a CPU without it (SIGILL), and
 * no test on a CPU that has the feature could see it, so the test's text is read. Include after cmocka.h. */
#ifndef ULPB_CPU_TEST_COVER_H
#define ULPB_CPU_TEST_COVER_H

#include <stdio.h>
#include <string.h>

/* One build: its name, its compiler flags and the text of its CPU test. */
typedef struct {
    const char *name, *flags, *cpu_test;
} isa_text;

/* Checks each -mFEATURE of every build's flags against its CPU test, a condition over HAS("feature") and, for f16c,
 * over has_f16c (from CPUID: Clang 14's __builtin_cpu_supports lacks "f16c"), failing the test with what (a format
 * of the build's name, as "the %s build") on the first feature not asked for. Returns how many flags it checked. */
static inline int check_cpu_tests_cover_flags(const isa_text *isas, size_t count, const char *has, const char *has_f16c,
                                              const char *what) {
    int checked = 0;
    for (size_t i = 0; i < count; i++)
        for (const char *flag = strstr(isas[i].flags, "-m"); flag; flag = strstr(flag + 2, "-m")) {
            char feature[32], asked[96], who[96];
            const size_t len = strcspn(flag + 2, " ");
            assert_true(len > 0 && len < sizeof feature);
            memcpy(feature, flag + 2, len);
            feature[len] = 0;
            if (strcmp(feature, "f16c") == 0)
                snprintf(asked, sizeof asked, "%s", has_f16c);
            else
                snprintf(asked, sizeof asked, "%s(\"%s\")", has, feature);
            if (!strstr(isas[i].cpu_test, asked)) {
                snprintf(who, sizeof who, what, isas[i].name);
                fail_msg("%s is compiled with -m%s, but its CPU test (%s) does not ask for it", who, feature,
                         isas[i].cpu_test);
            }
            checked++;
        }
    return checked;
}

#endif
