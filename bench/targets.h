/* Issue 3's throughput targets (registry.def, ULPB_TARGET) checked on saved benchmark results: the JSON of
 * `ulpbench bench --json` or the report.json of `ulpbench report` (its "throughput"), one file per run. Only ratios
 * measured in the same rounds are compared, never times across runs. */
#ifndef ULPB_TARGETS_H
#define ULPB_TARGETS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct {
    int rows;         /* (target, op, input set) rows */
    int measured;     /* rows measured in at least one run */
    int met_everyone; /* measured rows met in every run that measured them */
} ulpb_targets_summary;

typedef struct {
    bool show_unmeasured; /* print the rows no run measured (else the closing line counts them) */
    /* leave out, per row, the runs whose memcpy row of the same group ran below ULPB_TARGETS_QUIET_SHARE of the
     * fastest run's: a machine shared with other work slows omk's kernels more than memcpy or some peers */
    bool quiet_only;
} ulpb_targets_options;
#define ULPB_TARGETS_QUIET_SHARE 0.8
/* A row timed in fewer rounds is not counted: the median of so few same-round ratios moves with one slow round (the
 * bench's own floor at large sizes). */
enum { ULPB_TARGETS_MAX_RUNS = 64, ULPB_TARGETS_MIN_ROUNDS = 5 };

/* Prints the Markdown table of every target row over the runs docs[0..count) (names: their file names) to out.
 * -1 with a message in err when a document holds no benchmark results, when the runs come from different
 * environments (CPU, omk build, libraries), or when no target row is measured at all. */
int ulpb_targets_report(FILE *out, const cJSON *const *docs, const char *const *names, int count,
                        const ulpb_targets_options *options, ulpb_targets_summary *summary, char *err, size_t err_len);

#endif
