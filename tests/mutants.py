#!/usr/bin/env python3
"""Plants known bugs in a copy of the tree, one at a time, and checks that the test suite fails on each.

A test suite that passes on a broken kernel proves nothing: each mutant below is a realistic mistake (a guard too
small, a rounding test off, a tail element skipped, a clock divided by the wrong count, ...). For each one the script
applies an exact text replacement to a copy of the working tree's tracked files, rebuilds, runs ctest (without
isa_all_binary32, which is slow) and records the tests that failed. Exit status 0 when every mutant was caught, 1 when
one survived, 2 when a mutant no longer applies (the code it targets moved: update the table) or does not compile.

    python3 tests/mutants.py [--only N[,N...]] [--jobs J] [--keep]

About 8 to 40 hours for all 275 on two cores (they run one at a time), 2 to 10 minutes per mutant (most of it the rebuilds of the kernels'
builds and ctest: with QEMU and valgrind installed, the tests on other CPUs take the longest), plus one build and test
run of the unchanged copy: on 2026-12-03, mutants 1-26 took 52 minutes, 27-46 43 minutes, 47-49 13 minutes (before
cpu_without_avx512 ran test_isa) and 50 18 minutes; on 2026-12-04, 41 and 55-59 about 75 minutes, 8 to 10 per mutant
after 20 for the unchanged copy.

Record of runs (moved from README.md on 2026-12-05; mutants 86-90 were checked by hand that day with test_cli,
test_bench and test_kernels, and 91-109, bugs in the harness that a review planted and the suite then missed, each with
the test written for it: test_bench, test_accuracy, test_exhaustive and test_cli; 110-116, planted with the checks they
undo on 2026-12-05 after a review's buggy user kernels, each fail test_cli, 117, which test_bench catches, and 118 (test_cli),
checked by hand; 119 and 120, the watch on hung kernel calls, and 121, a worker thread's stack overflow, fail
test_cli, and 122, a peer ISA's CPU test without one of its compiler flags, test_peers, 123 and 124 (the watch's
allowance for long calls and for a stopped process) and 125 (a library's hung constructor) test_cli, by hand on
2026-12-05; in a later session that day, after the watch's slots became a sequence lock, 119-121, 123-125 and 128
(a library's constructor that exits or crashes, unnamed) fail test_cli, 126 (a slot read while it changes)
test_accuracy and 127 (the main thread watched alone) both, by hand; 124 survived test_cli's stop test until the
test stopped a call the watch had seen; after the crash, exit and watch messages came to share one describer, 128 (now
in that describer's caller), 129 (a bench pass's crash named as one call), 130 (a long library path shown whole) and
131 (a path cut inside a UTF-8 character) fail test_cli, by hand in the last session of 2026-12-05, and so do
132-138, planted with the checks two reviews of that session asked for (the recorded command's control characters
and its Markdown, sampled shards' times, compiler, cpu and cores, a key given twice, library names alike but for
letter case), and 139 (targets counting a ratio of one round), by hand on 2026-12-05 (late): test_cli; 140 and 141
(the emulated vcvtne2ps2bf16 keeping subnormals, or a signalling NaN unquieted) fail test_peers, 142 (the emulated
pipeline writing half of each step) test_cli, by hand the same evening; 143-145 (the bench's balanced order broken
three ways) fail test_bench, 146 and 147 (an error just above a whole number of ulps read as that number, or rounded up
on the wrong side) test_reference, 148 (the design's members never relabelled) test_bench and 149 (the fast binary32
reference's asin series stopping where glibc's asin returns x) test_reference, by hand in the last session of
2026-12-05; on 2026-12-06, 150 (the widening's shortcut test without its vector lanes) fails test_isa,
test_kernels_avx512 and test_accuracy_avx512, and 31, which had lowered binary16 cos's guard from 8 to 1 (now its
real value, proved by enumeration in half_guard_check), plants a reduction without its second part of pi/2
instead, which half_guard_check, test_isa, test_kernels_avx512 and test_accuracy_avx512 fail, by hand; later that
day 151-154, planted by a review that the suite then missed, fail the tests written for them, by hand: 151 (an AVX2
binary16 peer narrowing toward zero) and 153 (the AVX-512 bfloat16 peers ignoring ULPB_DISABLE_ISA=avx512bf16, in
test_peers_bf16_emulated) test_peers, 152 (the AVX-512 build computing when OMK_HALF16=table)
test_isa_half16_table, and 154 (a kernel's correctly rounded flag turned off) test_accuracy; 155, 156, 158 and 159
(temporary files of runs killed outright never removed, removed while their process runs, removed however recent, or
a symbolic link removed in their place) fail test_cli, 160 (the bfloat16 peers' choice of narrowing inverted)
test_peers, and 157 (the double nearest a multiple of pi/2 found without the semiconvergents) f64_rounding_margin, by
hand; 161-165, planted with accuracy --range on 2026-12-06, by hand: 161 (a zero end without the other zero) and 162
(range_patterns never drawing the last value) fail test_accuracy, 163 (a 16-bit run checking inputs outside the
range) test_accuracy and test_cli, 164 (merge joining shards of different ranges), 165 (a worst input outside the
range merged), 166 (report --range timing the registry's input sets) and 167 (targets on --range rounds not saying why none is measured)
test_cli; 168-170, from a review of that change, test_accuracy (range_values over a span past binary64's range drawing
half of it, range_patterns reaching only the lowest 2^53 values, range_ends drawing from one end), and 171 (a sampler's
worst input outside the range merged) test_cli; 172 and 173 (report --range with --no-bench held to bench's rules, or
without its own check of the range), from a second review, test_cli; 174-180, planted with accuracy --exhaustive
--range on 2026-12-06 (late), by hand: 174 (a chunk's patterns below the range checked), 175 (the chunks between a
range's two halves run), 176 (shards of different ranges merged), 177 (a result's range lost when read back) and 178 (a
listed input outside the range taken) fail test_exhaustive, 176 test_cli too, and 179 (more shards than chunks) and
180 (a --resume with another range) test_cli; 181-185, planted with ulpbench gate the same day (an incomplete exhaustive
result passed, a shard gated as a whole run, exit 0 on a failure, peers gated, a verdict printed before a refused
file), by hand: test_cli; 186 and 187, from a review of accuracy --exhaustive --range (a listed input above the range
taken, ranges differing in their lower end alone merged), by hand: test_exhaustive; 188-191, from a review of gate
(library rows not gated, a shard without its "shard" taken whole, a result listed twice, a document's range dropped from
the lines), by hand: test_cli; 192-196, planted with the hard_cases sampler on 2026-12-06 (the negated inputs or the
published worst cases left out, no inputs given to it, a range not applied to it, its Markdown column showing the
row's count), by hand: test_accuracy, and 196 test_cli; 197-202, planted with range_near_pio2 the same day (its
distance drawn uniformly, one side only, a step past the range's end, the sampler left out, the range's last multiple
left out, the log-uniform draws' last octave not cut at the count), by hand: test_accuracy; 203-217, planted with
accuracy --inputs and bench --inputs on 2026-12-06 (late) and from three reviews of them (every other element read
twice, gate taking a wrong element count, merge taking such a result, a wrong SHA-256 round constant, an empty file
run, the 16-bit reference table one value off, the worst element's last occurrence, gate --inputs taking another
file, a Fortran-ordered file read in its own order, its digest taken over the reordered data, the special example
placed at element 0, <i2 taken without --dtype bf16, bench drawing one element, targets naming --range, the default
samples and seed recorded), by hand: test_cli (211 test_npy too), but 212 test_npy and 215 test_bench alone); 218-222,
planted with report --inputs on 2026-12-06 (late: the registry's input sets timed, the seed recorded where gate refuses
it, no worst element, --seed taken with --no-bench, the throughput's context without the file), by hand: test_cli; 223
(bench --inputs rows named without the file's digest) test_cli, 224 (targets reading only the old --range row names)
test_cli and test_bench, and 225 (report --inputs refusing --seed with its bench on), from a review, test_cli; 172,
173, 213 and 216, updated to follow the code, still fail test_cli (216 test_bench too); 226-235, planted on 2026-12-07
with the checks a new user's review asked for (accuracy --inputs without its call over the whole tensor, or with that
call in place, or holding the peers to it; a result's shown max ULP not held to its state's; gate counting a file given twice, holding a rebuilt library's rows, taking a limit for a dtype it has no
row of; --json - as a file; an expected NaN's sign; a binary32 run's Markdown naming the 16-bit inputs), by hand:
test_cli; 236-244, planted on 2026-12-07 (later) with the checks of two reviews (eval's call in place, a library's
change of the working directory, quick_exit() in a kernel, a raw NUL in a result, two outputs through one pipe, and the
supervisor of runs with ULPB_LIBRARIES left out, its status of a destructor's _exit(0), its child outliving it, its
stop not followed; 245, an edited command's control characters printed; 246 and 247, a result's shown worst input or "complete" not held to what the tools read; 248 and 249, from a review of those, an ignored SIGCHLD and an escaped NUL), and 230 updated to follow the code, by hand: test_cli;
250-264, planted on 2026-12-07 (stop 63) with gate's --min-inputs and --require, a repeated --impl name, the
--max-chunks progress line, MPFR-only fallbacks, deep JSON, --range beyond binary64, C1 controls, and a review's
findings on them (183, 232 and 245 updated to follow the code), by hand: test_cli; 265, planted on 2026-12-07
(stop 64) with --range's message for a first bound that is no number, 266-270 with gate --this-build, a complete
result of another build given to --resume, and a review's findings on them, and 258 updated to follow the code, by hand:
test_cli; 271 and 272, planted on 2026-12-07 (stop 65) with the goals' peers of both vector ISAs, by hand: test_bench;
273-275, the 16-bit method's CPU rule, by hand: test_isa:
Run on 2026-12-03: mutants 1–26 in 52 minutes and 27–46 in 43 minutes, every one caught but one,
which the tests added after it catch (--only 42,46): a result within rounding of exactly 0.5 ulp put in the
histogram's "≤1" bin. Earlier the same day 9 of the first 26, planted by hand, had got past every test (the bench's
element count, the exact gate limit, shard gaps and overlaps, the double rounding of hard-case values, the shell
quoting, among them); the bench's block cycling, its shuffled order and the median of an even number of rounds had no
test before the second batch. One mutant, double asin without the Newton step after AVX-512's reciprocal estimate, is
caught only by the vectorized-code baseline (tests/check_vectorized.sh): its error stays inside the rounding test's
bound, and its outputs equal the real build's on 2^30 random inputs. Mutants 47–49 (--only 47,48,49, 13 minutes with
the unchanged copy's run, 2026-12-03) are caught only by cpu_without_avx and cpu_without_avx512 (README.md, "CPUs this one
is not"): on this CPU, which has every instruction, the rest of the suite passes with each of them. Mutant 50 (18
minutes) fails seven tests, memcheck's report of a branch on uninitialised flags in cpu_without_avx512 among them. On
2026-12-04: mutant 51 (the binary32 cos shortcut taken up to 2π) fails test_isa, test_kernels and test_accuracy in
every build and more, 52 (the binary16 one) test_isa, test_kernels_avx512, test_accuracy_avx512 and half_guard_check;
53 (a 16-bit entry point no longer fills its table before its kernel runs, so a first call resolves pthread_once
inside the kernel's frame) fails test_kernels, test_kernels_avx512 and test_kernels_half16_table (13 minutes with the
unchanged copy's run); 54 (targets comparing runs with different isa_available) fails test_cli and test_bench. Mutants
55-61 drop the checks of what merge and --resume read and where outputs go (a sum of errors above what the maximum
allows, sampled and exhaustive; stdout appended to an input; a worst result that contradicts the counts), refuse
subnormal --range bounds, take the reference's low part from the binary64 one (asin 2^-400 read 0 ULP) and let sums of
errors overflow: test_cli, test_reference and test_accuracy catch them (55-59 with mutant 41, whose pattern had moved,
in about 75 minutes; 60, whose test came after it had survived, and 61 by hand with those tests alone). Mutant 62
(targets writing its table to stdout appended to one of its runs, which mutant 56 reached only through merge and
--resume) fails test_cli (run by mutants.py), and so do 63 (a report that does not gate the rows of ULPB_LIBRARIES)
and 64 (every loaded library calling the first one's symbols), run by hand with that test alone. Mutants 65-69 break
the scalar build's fma emulation (the tail rounded to nearest instead of to odd, the product's lowest partial product
dropped, a fast path that admits products whose low part underflows, binary32 rounded twice, a b + c rounded twice in
the kernels): each fails test_fma, and 70 (the shared objects behind ULPB_LIBRARIES' libraries identified in load
order) fails test_cli (run by hand with those tests alone, 2026-12-04). Mutant 71 (the JSON's max_ulp printed with
cJSON's 15 digits, so that 0.5 + 2^-53 reads 0.5) fails test_accuracy; 72 (targets reading runs of different
ULPB_LIBRARIES together) and 73 (a replaced output given the umask's permissions instead of its own) fail test_cli (by
hand, 2026-12-05). Mutants 74-84 came from a review that planted bugs the suite then missed, and each now fails the
test added for it (by hand, with that test alone, 2026-12-05): a caller's MXCSR given back without its exception
flags, or with DAZ alone left in force (subnormal inputs read as zeros), fail test_kernels (its hostile settings now
include DAZ alone, FTZ alone and FTZ with a flag raised); the AVX-512 build's CPU test forgetting one of its -m flags
fails test_isa, which reads each build's flags and CPU test from kernels/omk_isas.h (the expectations of
omk_isa_expect.h come from those very CPU tests, so dispatch tests on a CPU that has the feature could not see it);
merges that drop the histogram's ">4" bin or keep either of two equal worst errors, errors of exactly 1 or 2 ulps
binned one bin too high, cos_large never drawing its top binade and the specials without the largest finite value fail
test_accuracy; an infinity counted as misrounded and a zero result's ulp doubled fail test_reference. Mutant 85 (a
16-bit table entry's double-double narrowed by its high part alone, which the same review found the README claimed
otherwise) fails test_convert. Mutant 86 (a library's path recorded unquoted in environment.libraries, where a ; in it
would read as the end of the item) fails test_cli, 87 (the bench JSON's cpu_time printed with cJSON's 15 digits)
test_bench (by hand, 2026-12-05). After the 16-bit tables came to be filled from the binary64 kernels (2026-12-04),
mutants 8, 9, 28, 32, 33 and 53, which touch the 16-bit paths, were run again (--only 8,9,28,32,33,53,62, 71 minutes
with the unchanged copy's run, beside other builds): all caught, 8 and 9 (ties in the 16-bit narrowings) now by
test_convert alone, since no table entry passes through a tie any more.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (what the bug is, file, exact text, replacement): the text must occur exactly once in the file.
MUTANTS = [
    ("binary32 rounding guard far too small: misrounded results",
     "kernels/omk_internal.h", "enum { OMK_F32_GUARD = 8192 };", "enum { OMK_F32_GUARD = 2 };"),
    ("binary64 cos rounding test off: hard cases keep the fast result",
     "kernels/cos.c", "#define cos_F64_ROUNDING_FACTOR OMK_ROUNDING_FACTOR(cos_F64_EPS)",
     "#define cos_F64_ROUNDING_FACTOR 0.0"),
    ("binary64 asin rounding test off",
     "kernels/asin.c", "#define asin_F64_ROUNDING_FACTOR OMK_ROUNDING_FACTOR(asin_F64_EPS)",
     "#define asin_F64_ROUNDING_FACTOR 0.0"),
    ("a generated coefficient off by 1% (the binary32 sin polynomial's last)",
     "kernels/cos_poly.h", "    0x1.52db3368857afp-33,", "    0x1.563eac3e0bef6p-33,"),
    ("binary64 asin(-0) = +0",
     "kernels/asin.c", "return omk_bits64(x) & 0x8000000000000000ull; }",
     "return x < 0.0 ? 0x8000000000000000ull : 0; }"),
    ("binary32 asin(-0) = +0",
     "kernels/asin.c", "return copysignf(magnitude, x); }", "return x < 0.0f ? -magnitude : magnitude; }"),
    ("binary32 loop: the last element of a partial final block skipped",
     "kernels/omk_internal.h", "(n)-start < OMK_BLOCK_F32 ? (n)-start : OMK_BLOCK_F32",
     "(n)-start < OMK_BLOCK_F32 ? (n)-start - 1 : OMK_BLOCK_F32"),
    ("bfloat16 narrowing rounds half up instead of to even",
     "kernels/omk.c", "return (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);",
     "return (uint16_t)((bits + 0x8000u) >> 16);"),
    ("16-bit narrowing from binary64 rounds ties up",
     "kernels/omk_internal.h", "if (rem > half || (rem == half && (q & 1))) q++;", "if (rem >= half) q++;"),
    ("binary32 asin flushes subnormal inputs to zero, in the AVX-512 build only",
     "kernels/asin.c", "    const double ax = (double)ax_f;\n",
     "#if defined(__AVX512F__)\n    const double ax = ax_f < 0x1p-126f ? 0.0 : (double)ax_f;\n#else\n"
     "    const double ax = (double)ax_f;\n#endif\n"),
    ("OMK_ISA ignored: the forced builds are never tested",
     "kernels/omk.c", 'omk_isa_choose(getenv("OMK_ISA"))', "omk_isa_choose(NULL)"),
    ("binary64 cos of huge arguments: quadrant off by one",
     "kernels/cos.c", "return cos_table_step(omk_bits64(k_shifted), r_hi, r_lo);",
     "return cos_table_step(omk_bits64(k_shifted) + 256, r_hi, r_lo);"),
    ("binary32 cos of huge arguments: the sign of the reduced argument lost",
     "kernels/cos.c", "omk_select(n_odd_mask, 0.0, copysign(1.0, f_hi))", "omk_select(n_odd_mask, 0.0, 1.0)"),
    ("MPFR reference rounds binary64 cos toward zero",
     "reference/ref.c", "int ternary = mpfr_apply(op, rounded, mx, MPFR_RNDN);",
     "int ternary = mpfr_apply(op, rounded, mx, op == REF_COS && fmt->precision == 53 ? MPFR_RNDZ : MPFR_RNDN);"),
    ("bench divides both clocks by twice the elements timed",
     "bench/bench.c", "wall[m * rounds + r] = s.wall_ns / (double)s.elements;",
     "wall[m * rounds + r] = s.wall_ns / (double)(2 * s.elements);"),
    ("bench's JSON real_time per element instead of per call",
     "bench/bench.c", 'ulpb_json_add_exact(b, "real_time", r->ns_per_element * (double)r->size);',
     'ulpb_json_add_exact(b, "real_time", r->ns_per_element);'),
    ("report gate fails a kernel whose max ULP equals the limit",
     "accuracy/result_io.c", "!(r->total.max_ulp <= g->max_ulp[d])) {", "!(r->total.max_ulp < g->max_ulp[d])) {"),
    ("report (and gate) ignore the value of --max-misrounded",
     "cli/ulpbench.c", "gate->max_misrounded[dt] = (long long)u;", "(void)u;"),
    ("merged results keep the largest misrounded count instead of the sum",
     "accuracy/accuracy.c", "into->misrounded += from->misrounded;",
     "if (from->misrounded > into->misrounded) into->misrounded = from->misrounded;"),
    ("the asin_near_zero sampler never draws negative inputs",
     "accuracy/samplers.c", "return compose(l, r[1] >> 63, binade - (uint64_t)l.mant_bits + 1, r[0]);",
     "return compose(l, 0, binade - (uint64_t)l.mant_bits + 1, r[0]);"),
    ("merge accepts exhaustive shards that miss the last chunk",
     "accuracy/exhaustive.c", "    for (int c = 0; c < ULPB_CHUNKS; c++) {\n        if (into->done[c] || !chunk_has_patterns(&whole, c)) continue;",
     "    for (int c = 0; c + 1 < ULPB_CHUNKS; c++) {\n        if (into->done[c] || !chunk_has_patterns(&whole, c)) continue;"),
    ("merge accepts overlapping shards that claim different shard indices",
     "accuracy/exhaustive.c", "            if (into->done[c]) {",
     "            if (into->done[c] && parts[owner[c]].spec.shard_index == parts[p].spec.shard_index) {"),
    ("--resume accepts a result that claims more chunks than it counted inputs for",
     "accuracy/exhaustive.c", "if (st->stats.inputs != covered_inputs) {",
     "if (covered_inputs == 0 && st->stats.inputs != 0) {"),
    ("hard-cases rounds the binary32 expected value twice (through binary64)",
     "accuracy/hard_cases.c", "    *rounded = v.rounded;", "    *rounded = v.exact_hi;"),
    ("the recorded command quotes ' so that sh cannot run it again",
     "accuracy/result_io.c", "p = stpcpy(p, \"'\\\\''\");", "p = stpcpy(p, \"\\\\'\");"),
    ("targets accepts a bench file that lists a row twice",
     "bench/targets.c", "if (name && find_row(benchmarks, name) != row) return name;", "(void)name;"),
    # Code that only one ISA's build runs: caught, if at all, by the forced-ISA tests.
    ("binary64 table rows in the AVX2 build: the third value of each row read from the wrong half",
     "kernels/omk_internal.h", "_mm256_storeu_pd(out2 + i, _mm256_permute2f128_pd(t0, t2, 0x31));",
     "_mm256_storeu_pd(out2 + i, _mm256_permute2f128_pd(t0, t2, 0x20));"),
    ("16-bit table lookup in the AVX2 build: results packed out of order",
     "kernels/omk_table16.h", "_mm256_packus_epi32(got_lo, got_hi), 0xd8)", "_mm256_packus_epi32(got_lo, got_hi), 0xe4)"),
    ("binary64 asin in the AVX2 build: t's low part from a 12-bit reciprocal estimate instead of the division",
     "kernels/asin.c", "_mm_div_ps(_mm_set1_ps(0.25f), t)", "_mm_mul_ps(_mm_set1_ps(0.25f), _mm_rcp_ps(t))"),
    # Caught only by the vectorized-code baseline: the 2^-28 error it leaves in t's low part stays inside the rounding
    # test's bound, and its outputs equal the real build's on 2^30 random inputs in [-1, 1].
    ("binary64 asin in the AVX-512 build: the Newton step after the reciprocal estimate left out",
     "kernels/asin.c", "_mm512_storeu_pd(residual, _mm512_fmadd_pd(q, e, q));", "_mm512_storeu_pd(residual, q);"),
    ("binary16 cos of the AVX-512 build: the reduction without its second part of pi/2 (errors far above the guard)",
     "kernels/cos.c", "const float d = omk_fmaf(-q, K_PIO2_F32_2, omk_fmaf(-q, K_PIO2_F32_1, ax));",
     "const float d = omk_fmaf(-q, K_PIO2_F32_1, ax);"),
    ("16-bit loop of the AVX-512 build: the lanes flagged for the table never written back at the end of a call",
     "kernels/omk_internal.h", "if (redo.count) omk_redo16_apply(", "if (0) omk_redo16_apply("),
    ("16-bit narrowing of the AVX-512 build: the two halves' near-midpoint masks swapped",
     "kernels/omk_internal.h",
     "_mm512_kunpackw(_mm512_testn_epi32_mask(u1, near), _mm512_testn_epi32_mask(u0, near))",
     "_mm512_kunpackw(_mm512_testn_epi32_mask(u0, near), _mm512_testn_epi32_mask(u1, near))"),
    ("binary64 middle phase claims 2^-120 where it holds 2^-80: its rounding test lets hard cases through",
     "kernels/omk_internal.h", "#define OMK_F64_REFINE_EPS 0x1p-80", "#define OMK_F64_REFINE_EPS 0x1p-120"),
    # The bench, the ruler and the CLI.
    ("bench replays one input block instead of cycling through distinct ones",
     "bench/bench.c", "fn(block + b * size * element_bytes, out, size);", "fn(block, out, size);"),
    ("bench never shuffles its design's labels or rows: every run and cycle in one order",
     "bench/bench.c", "out[p] = out[q], out[q] = swap;", "(void)q, (void)swap;"),
    ("bench's same-round ratio inverted",
     "bench/bench.c", "scratch[r] = wall_ns[k * rounds + r] / wall_ns[m * rounds + r];",
     "scratch[r] = wall_ns[m * rounds + r] / wall_ns[k * rounds + r];"),
    ("bench's median of an even number of rounds takes the lower middle value",
     "bench/quantile.h", "return frac == 0 || lo + 1 >= n ? v[lo] : v[lo] + frac * (v[lo + 1] - v[lo]);",
     "return v[lo];"),
    ("the ruler ignores the sign of a zero result",
     "reference/ref.c", "return signbit(v->rounded) == signbit(y) ? REF_MATCH : REF_SPECIAL_MISMATCH;",
     "return REF_MATCH;"),
    ("the ruler accepts a NaN for any expected value",
     "reference/ref.c", "return expect_nan && got_nan ? REF_MATCH : REF_SPECIAL_MISMATCH;", "return REF_MATCH;"),
    ("the ruler measures results below a power of two in the ulps above it",
     "reference/ref.c", "const double unit = below_power_of_two ? v->ulp / 2 : v->ulp;", "const double unit = v->ulp;"),
    ("histogram puts an error of exactly 0.5 ulp in the next bin",
     "accuracy/accuracy.c", "if (ulp <= 0.5) return 1;", "if (ulp < 0.5) return 1;"),
    ("a big-endian .npy read as little-endian",
     "cli/npy.c", "(d[0] == '<' || d[0] == '=')", "(d[0] == '<' || d[0] == '=' || d[0] == '>')"),
    ("the samplers ignore the seed",
     "accuracy/samplers.c", "splitmix64(seed ^ ((uint64_t)(sampler + 1) << 56))",
     "splitmix64((uint64_t)(sampler + 1) << 56)"),
    ("targets counts a ratio 10% short of the target as met",
     "bench/targets.c", "met += f[i].ratio >= target->factor;", "met += f[i].ratio >= 0.9 * target->factor;"),
    ("the float milestone loosened from 1.5x to 1.35x SLEEF u10",
     "accuracy/registry.def", 'ULPB_TARGET("float milestone", f32, 4096, "sleef-u10-avx512", 1.5)',
     'ULPB_TARGET("float milestone", f32, 4096, "sleef-u10-avx512", 1.35)'),
    # Caught only where the CPU lacks the instructions: the cpu_without_avx (QEMU) and cpu_without_avx512 (valgrind)
    # tests, skipped when those tools are missing.
    ("the dispatcher ignores CPUID: a CPU without AVX-512 is handed the AVX-512 build",
     "kernels/omk.c", "        return cpu_test;", "        return 1 || (cpu_test);"),
    ("the registry offers every peer whatever the CPU",
     "accuracy/registry.c", "return cpu_supports(isa) && !disabled_by_environment(isa);",
     "return !disabled_by_environment(isa);"),
    ("the avx2 build compiled with AVX-512 flags too",
     "kernels/omk_isas.h", 'X(avx2, AVX2, "-mavx2 -mfma -mf16c"', 'X(avx2, AVX2, "-mavx2 -mfma -mf16c -mavx512f -mavx512vl"'),
    ("binary32 blocks: the redo loop runs past a partial block's end, over flags never set",
     "kernels/omk_internal.h", "            for (size_t i = 0; i < m; i++)                                                                             \\\n                if (flagged[i])",
     "            for (size_t i = 0; i < OMK_BLOCK_F32; i++)                                                                 \\\n                if (flagged[i])"),
    ("binary32 cos: the shortcut for blocks below pi (k = 0) taken up to 2 pi, where k is 1",
     "kernels/cos.c", "#define cos_F32_NEAR_LIMIT_BITS 0x40490fdbu", "#define cos_F32_NEAR_LIMIT_BITS 0x40c90fdbu"),
    ("binary16 cos: the shortcut for blocks below pi taken up to 2 pi, where k is 2 (just above pi the shortcut happens"
     " to give the same bits: sin is flat there)",
     "kernels/cos.c", "#define cos_F16_NEAR_LIMIT_BITS  0x4249u", "#define cos_F16_NEAR_LIMIT_BITS  0x4649u"),
    ("a 16-bit entry point no longer fills its table before its kernel runs (a lazily bound program then resolves"
     " pthread_once inside the kernel's frame, past the stack bound)",
     "kernels/omk.c",
     "#define OMK_FIRST_USE_uint16_t(op, dtype) (void)omk_half16_compute(), (void)omk_table_##op##_##dtype();",
     "#define OMK_FIRST_USE_uint16_t(op, dtype)"),
    ("targets compares runs made with different sets of ISAs (ULPB_DISABLE_ISA)",
     "bench/targets.c", "        if (!cJSON_Compare(cJSON_GetObjectItem(contexts[0], \"isa_available\"),",
     "        if (0 && !cJSON_Compare(cJSON_GetObjectItem(contexts[0], \"isa_available\"),"),
    # The checks of what the CLI reads and writes, and the ruler's tiny and huge errors.
    ("merge and --resume of a sampled run accept a sum of errors that no errors up to max_ulp make (a mean above the"
     " maximum)",
     "accuracy/result_io.c", "    if (ulpb_stats_check_sum(s, err, len)) return -1;\n", ""),
    ("merge, targets and --resume write to stdout even when it is appended to an input file (only -o and --markdown"
     " compared)",
     "cli/ulpbench.c", 'if (!ulpb_output_same(output ? output : "/dev/stdout", input)) return 0;',
     "if (!output || !ulpb_output_same(output, input)) return 0;"),
    ("a --range bound refused whenever strtod sets ERANGE, a subnormal one (2e-310) too",
     "cli/ulpbench.c", "return errno == ERANGE && (value == 0 || isinf(value)); }", "return errno == ERANGE; }"),
    ("the MPFR reference's low part in ulps divided from the binary64 low part, which underflows to 0 for a tiny f(x):"
     " asin 2^-400 in binary64 reads 0 ULP",
     "reference/ref.c", "out->exact_lo_ulps = mpfr_get_d(rest, MPFR_RNDA);",
     "out->exact_lo_ulps = out->exact_lo / out->ulp;"),
    ("sums of ULP errors not saturated at REF_ULP_ERROR_MAX: two errors of 10^308 sum to infinity",
     "accuracy/accuracy.c", "return total < REF_ULP_ERROR_MAX ? total : REF_ULP_ERROR_MAX;", "return total;"),
    ("exhaustive merge and --resume accept chunk sums of errors above what max_ulp allows",
     "accuracy/exhaustive.c", "return ulpb_stats_check_sum(&st->stats, err, len);", "return 0;"),
    ("merge and --resume accept a worst result that contradicts the counts (another result than the expected one with"
     " 0 misrounded)",
     "accuracy/result_io.c", "        if (check_worst_result(s, err, len)) return -1;",
     "        (void)check_worst_result(s, err, len);"),
    ("targets writes its table to stdout even when stdout is appended to one of the runs it reads",
     "cli/ulpbench.c", 'if (check_not_input("targets", NULL, names[i])) return EXIT_USAGE;',
     'if (0 && check_not_input("targets", NULL, names[i])) return EXIT_USAGE;'),
    ("report's gate passes over the rows of the user's kernels (ULPB_LIBRARIES): a failing library exits 0",
     "cli/ulpbench.c",
     "        if (!ulpb_role_gated(r->entry->role)) continue;",
     "        if (r->entry->role != ULPB_ROLE_PRODUCTION) continue;"),
    ("every loaded library's entries call the first library's symbols",
     "accuracy/registry.c", "memcpy(&fn, &library_symbols[slot][", "memcpy(&fn, &library_symbols[0]["),
    ("the scalar build's binary64 fma emulation rounds the tail to nearest instead of to odd: a double rounding",
     "kernels/omk_fma.h", "if (err == 0.0 || (bits & 1)) return sum;", "return sum;"),
    ("the binary64 fma emulation's product misses its lowest partial product",
     "kernels/omk_fma.h", " + a_lo * b_lo;", ";"),
    ("the binary64 fma emulation's fast path takes products whose low part underflows",
     "kernels/omk_fma.h", "exp_a + exp_b >= 2 * bias - 900", "exp_a + exp_b >= 2 * bias - 1000"),
    ("the binary32 fma emulation rounds to binary64 and then to binary32",
     "kernels/omk_fma.h", "return (float)omk_round_to_odd(sum, omk_fma_two_sum_err(product, (double)c, sum));",
     "return (float)sum;"),
    ("the scalar build on a CPU without FMA rounds a b and then a b + c",
     "kernels/omk_fma.h", "return OMK_FMA_INSTRUCTION ? fma(a, b, c) : omk_fma_emulated(a, b, c);",
     "return OMK_FMA_INSTRUCTION ? fma(a, b, c) : a * b + c;"),
    ("the shared objects ULPB_LIBRARIES' libraries bring in, identified in load order: the order of the items changes it",
     "accuracy/registry.c", "    qsort(deps, (size_t)count, sizeof *deps, dependency_order);",
     "    (void)dependency_order;"),
    ("the JSON's max_ulp and mean_ulp printed by cJSON (15 digits: 0.5 + 2^-53 reads 0.5)",
     "accuracy/result_io.c", "    cJSON_AddItemToObject(o, key, cJSON_CreateRaw(text));\n}\n\nvoid ulpb_json_add_hex_double",
     "    cJSON_AddItemToObject(o, key, cJSON_CreateNumber(v));\n}\n\nvoid ulpb_json_add_hex_double"),
    ("targets reads runs of different ULPB_LIBRARIES together",
     "bench/targets.c", "        if (ulpb_libraries_differ(&ids_a, &ids_b)) {",
     "        if (0 && ulpb_libraries_differ(&ids_a, &ids_b)) {"),
    ("a replaced output takes the umask's permissions instead of its own",
     "cli/outfile.c", "        keep_owner_and_mode(fd, wheres[i]);", "        (void)keep_owner_and_mode;"),
    ("a caller's exception flags wiped when omk gives its MXCSR back",
     "kernels/omk.c", "if (state & OMK_MXCSR_RESTORE) _mm_setcsr(state & ~OMK_MXCSR_RESTORE);",
     "if (state & OMK_MXCSR_RESTORE) _mm_setcsr(state & ~OMK_MXCSR_RESTORE & ~OMK_MXCSR_FLAGS);"),
    ("a caller's DAZ alone left in force (subnormal inputs read as zeros)",
     "kernels/omk.c", "if ((caller & ~OMK_MXCSR_FLAGS) == OMK_MXCSR_DEFAULT) return 0;",
     "if ((caller & ~(OMK_MXCSR_FLAGS | 0x0040)) == OMK_MXCSR_DEFAULT) return 0;"),
    ("the AVX-512 build run on a CPU without AVX512BW (its CPU test forgets one of its -m flags)",
     "kernels/omk_isas.h", " && OMK_CPU_HAS(\"avx512bw\")",
     ""),
    ("merging statistics drops the histogram's \">4\" bin",
     "accuracy/accuracy.c", "for (int b = 0; b < ULPB_HIST_BINS; b++) into->histogram[b] += from->histogram[b];",
     "for (int b = 0; b < ULPB_HIST_BINS - 1; b++) into->histogram[b] += from->histogram[b];"),
    ("merging keeps the first of two equal worst errors, whatever their bits (shards merge differently by order)",
     "accuracy/accuracy.c", "(from->max_ulp == into->max_ulp && from->worst_bits < into->worst_bits)",
     "(from->max_ulp == into->max_ulp && 0)"),
    ("an error of exactly 1 ulp binned as \"<=2\"",
     "accuracy/accuracy.c", "if (ulp <= 1.0) return 2;",
     "if (ulp < 1.0) return 2;"),
    ("an error of exactly 2 ulps binned as \"<=4\"",
     "accuracy/accuracy.c", "if (ulp <= 2.0) return 3;",
     "if (ulp < 2.0) return 3;"),
    ("cos_large never draws the top binade",
     "accuracy/samplers.c", "lo + r[1] % (max_exp_field - lo + 1)",
     "lo + r[1] % (max_exp_field - lo)"),
    ("the specials lose the largest finite value",
     "accuracy/samplers.c", "        compose(l, 0, exp_max - 1, mant_max),   /* largest finite */\n",
     ""),
    ("an infinity where a finite value is expected counts as misrounded",
     "reference/ref.c", "    if (isinf(v->rounded) || isinf(y)) return y == v->rounded ? REF_MATCH : REF_SPECIAL_MISMATCH;\n",
     ""),
    ("a zero result's ulp twice the subnormal spacing",
     "reference/ref.c", "out->ulp = ldexp(1.0, 1 - bias - fmt->precision + 1);",
     "out->ulp = ldexp(1.0, 1 - bias - fmt->precision + 2);"),
    ("a double-double on a 16-bit midpoint narrowed by its high part alone (the tail ignored)",
     "kernels/omk_internal.h", "    if (lo == 0.0 || !omk_narrow_midpoint(hi, rounded, mant_bits, exp_bits)) return rounded;",
     "    if (1) return rounded;"),
    ("a library's path recorded unquoted, so that a \"; \" in it reads as the end of the item",
     "accuracy/registry.c", '*ulpb_append_quoted(quoted, path, ULPB_SHELL_PLAIN_RECORD) = 0;', "strcpy(quoted, path);"),
    ("the bench JSON's cpu_time printed with cJSON's 15 digits",
     "bench/bench.c", 'ulpb_json_add_exact(b, "cpu_time",', 'cJSON_AddNumberToObject(b, "cpu_time",'),
    ("a kernel's writes past its outputs not checked: measured, and the heap corrupted",
     "accuracy/accuracy.c", "    return !changed;\n}", "    return true;\n}"),
    ("a kernel's unwritten outputs not checked: measured on the signalling NaN left there",
     "accuracy/accuracy.c", "if (unpack(b->bytes, y, i) == b->poison && (unpack(b->bytes, x, i) & ~sign) != (b->poison & ~sign)) {",
     "if (0 && sign) {"),
    ("a 16-bit table marked filled before it is: threads' first calls read a half-filled table",
     "kernels/table16.c", "pthread_once(&op##_##dtype##_once, op##_##dtype##_build);",
     "static int started; if (!started++) op##_##dtype##_build(); (void)op##_##dtype##_once;"),
    ("bench's spread divided by P10 instead of the median",
     'bench/bench.c', '(p90 - p10) / res->ns_per_element',
     '(p90 - p10) / p10'),
    ("bench's cpu_time taken from the wall times",
     'bench/bench.c', 'memcpy(tmp, &cpu[m * rounds]',
     'memcpy(tmp, &wall[m * rounds]'),
    ("bench JSON's family_index counting entries without rows",
     'bench/bench.c', 'family += instance > 0;',
     'family++;'),
    ("bench JSON's repetitions the rounds asked for, not those run at a memory-bound size",
     'bench/bench.c', '"repetitions", r->rounds',
     '"repetitions", spec->rounds'),
    ("bench's Markdown drops the spread of three rounds",
     'bench/bench.c', 'if (r->rounds >= 3)',
     'if (r->rounds > 3)'),
    ("bench's order shuffled once and kept for every round",
     'bench/bench.c', 'ulpb_bench_round_order(order_stream, r,',
     'ulpb_bench_round_order(order_stream, 0,'),
    ('cos_near_pio2 never draws +4 ulps',
     'accuracy/samplers.c', '% 9) - 4',
     '% 8) - 4'),
    ("asin_near_one never draws the binade of 1/2's lower half",
     'accuracy/samplers.c', 'r[1] % (uint64_t)l.mant_bits',
     'r[1] % (uint64_t)(l.mant_bits - 1)'),
    ('merged special-value example the first merged, not the smallest input',
     'accuracy/accuracy.c', 'if (from->has_special_example && (!into->has_special_example || from->special_bits < into->special_bits)) {',
     'if (from->has_special_example && !into->has_special_example) {'),
    ('misrounded_inputs_truncated true for a whole list',
     'accuracy/exhaustive.c', 'st->stats.misrounded > st->misrounded_listed);',
     'st->stats.misrounded >= st->misrounded_listed);'),
    ('an exhaustive result listing a misrounded input twice read back',
     'accuracy/exhaustive.c', 'bits <= st->misrounded[st->misrounded_listed - 1]',
     'bits < st->misrounded[st->misrounded_listed - 1]'),
    ("merged reference_fallbacks the last shard's",
     'accuracy/exhaustive.c', 'into->reference_fallbacks += parts[p].reference_fallbacks;',
     'into->reference_fallbacks = parts[p].reference_fallbacks;'),
    ("merged seconds the last shard's",
     'accuracy/exhaustive.c', 'into->seconds += parts[p].seconds;',
     'into->seconds = parts[p].seconds;'),
    ('--rounds 10000 refused though its range ends there',
     'cli/ulpbench.c', 'u > 10000',
     'u >= 10000'),
    ('--shard N/N taken: inputs outside the run',
     'cli/ulpbench.c', 'index >= shards)',
     'index > shards)'),
    ('a gate limit of 0 misrounded left out of report.json',
     'cli/ulpbench.c', 'if (o->gate.max_misrounded[d] >= 0)',
     'if (o->gate.max_misrounded[d] > 0)'),
    ('--sizes at its largest allowed value refused',
     'cli/ulpbench.c', 'v > ULPB_BENCH_MAX_SIZE',
     'v >= ULPB_BENCH_MAX_SIZE'),
    ('--max-ulp of exactly 2^-1022 refused',
     'cli/ulpbench.c', '(v > 0 && v < DBL_MIN)',
     '(v > 0 && v <= DBL_MIN)'),
    ('--checkpoint 0.001 refused though its range starts there',
     'cli/ulpbench.c', 'checkpoint_seconds >= 1e-3',
     'checkpoint_seconds > 1e-3'),
    # 110-116 (2026-12-05): what a kernel under test can do to the run, and the hard-case search's asin starts
    ('a kernel that leaves the rounding mode changed is measured on (every later figure with it)',
     'accuracy/registry.c', '    if (ulpb_fp_controls_kept(before, what, sizeof what)) return true;',
     '    if (ulpb_fp_controls_kept(before, what, sizeof what) || 1) return true;'),
    ('a kernel that writes into its input is measured on',
     'accuracy/accuracy.c', 'if (unpack(b->bytes, xs, i) != unpack(b->bytes, x, i)) {', 'if (0) {'),
    ('a library that turns on flush to zero as it loads is accepted',
     'accuracy/registry.c', 'if (!ulpb_fp_controls_kept(controls, what, sizeof what)) {',
     'if (!ulpb_fp_controls_kept(controls, what, sizeof what) && 0) {'),
    ('a kernel name exported as data is called as code',
     'accuracy/registry.c', 'if (!in_executable_segment(library_symbols[slot][k])) {',
     'if (!in_executable_segment(library_symbols[slot][k]) && 0) {'),
    ('exit() inside a kernel ends the run with the kernel\'s status',
     'cli/ulpbench.c', '    atexit(refuse_exit_from_kernel);', '    (void)refuse_exit_from_kernel;'),
    ('the asin hard-case search starts a third of its runs outside the domain, none tiny',
     'accuracy/hard_cases.c', '    return samplers[count - 3 + s % 3];',
     '    return (int)count * 0 + (op == ULPB_OP_cos ? 2 + s % 3 : (s % 3 == 0 ? 2 : 3 + s % 3));'),
    ("a user library calls ulpbench's SLEEF in place of its own copy (no RTLD_DEEPBIND)",
     'accuracy/registry.c', '#define LIBRARY_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)',
     '#define LIBRARY_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)'),
    ("a pass's CPU time not capped by its wall time",
     'bench/bench.c', 'fmin(fmax(s.cpu_ns - clock_overhead, 0.0), s.wall_ns)', 'fmax(s.cpu_ns - clock_overhead, 0.0)'),
    ("a kernel's stack overflow goes unnamed (the crash handler on the overflowed stack)",
     'cli/ulpbench.c', 'crash.sa_flags = SA_ONSTACK;', 'crash.sa_flags = 0;'),
    ("the hung-call watch shares one slot among all threads (a hung thread's call hidden by the others')",
     'accuracy/registry.c', 'static _Thread_local call_slot *this_thread_slot;', 'static call_slot *this_thread_slot;'),
    ("the hung-call watch waits milliseconds read as seconds",
     'cli/ulpbench.c', 'if (now - seen_since[k] < limit) continue;', 'if (now - seen_since[k] < limit * 1e3) continue;'),
    ("a kernel's stack overflow on an exhaustive run's worker thread goes unnamed (an alternate stack for the main "
     "thread only)",
     'accuracy/registry.c', 'if (k < ULPB_CALL_SLOTS) give_this_thread_an_alternate_stack(k);',
     'if (k < ULPB_CALL_SLOTS && gettid() == getpid()) give_this_thread_an_alternate_stack(k);'),
    ("the AVX2 peers' CPU test forgets FMA, which their wrapper file is compiled for",
     'accuracy/registry.def', 'ULPB_CPU_HAS("avx2") && ULPB_CPU_HAS("fma") && ULPB_CPU_HAS_F16C',
     'ULPB_CPU_HAS("avx2") && ULPB_CPU_HAS_F16C'),
    ("the hung-call watch gives a long call no more time than a short one",
     'cli/ulpbench.c', '#define KERNEL_TIMEOUT_PER_ELEMENT_S 1e-5', '#define KERNEL_TIMEOUT_PER_ELEMENT_S 0.0'),
    ("the hung-call watch counts the time the process was stopped",
     'cli/ulpbench.c', 'const bool resumed = now - last_look > period + 1.0;', 'const bool resumed = now - last_look > period + 1e9;'),
    ("a library whose constructor never returns holds the run for ever (its loading unwatched)",
     'accuracy/registry.c', '    library_loading(item->path);', '    library_loading(NULL);'),
    ("the hung-call watch takes one call's kernel with the next call's n (a slot read while it changes)",
     'accuracy/registry.c', 'if (calls[k].calls != before || !(before & 1))', 'if (!(before & 1))'),
    ("the hung-call watch sees the main thread only",
     'accuracy/registry.c', 'const size_t count = taken < ULPB_CALL_SLOTS ? (size_t)taken : ULPB_CALL_SLOTS;',
     'const size_t count = taken > 0 ? 1 : 0;'),
    ("a library whose constructor calls exit(0) or crashes goes unnamed (exit(0) reads as success)",
     'cli/ulpbench.c', "    return ulpb_kernel_in_call(&call) ? describe_activity(&call, buf, len) : 0;",
     "    return ulpb_kernel_in_call(&call) && !call.loading ? describe_activity(&call, buf, len) : 0;"),
    ("a crash in a bench pass is named as a single call",
     'cli/ulpbench.c', "        if (call->calls_in_pass > 1) {", "        if (call->calls_in_pass > 1 && 0) {"),
    ("a long library path shown whole rather than by its two ends (a message can outgrow its buffer)",
     'cli/ulpbench.c', "        if (path_len <= LOADING_PATH_SHOWN + 3) {",
     "        if (path_len <= LOADING_PATH_SHOWN + 3 || 1) {"),
    ("a long library path cut inside a UTF-8 character",
     'cli/ulpbench.c', "while (head_len > 0 && ((unsigned char)path[head_len] & 0xC0) == 0x80) head_len--;",
     "while (head_len > 0 && ((unsigned char)path[head_len] & 0xC0) == 0x80 && 0) head_len--;"),
    ("a recorded command's control characters written as they are (a tab or newline splits the report's line)",
     'accuracy/result_io.c', "    if (control) {", "    if (control && 0) {"),
    ("a sampled shard's negative or infinite time merged",
     'accuracy/result_io.c', 'if (ulpb_json_get_duration(res, "seconds", true, &seconds, why, sizeof why) ||',
     'if (ulpb_json_get_number(res, "seconds", &seconds, why, sizeof why) ||'),
    ("shards built by another compiler merged (and recorded as the first one's)",
     'cli/ulpbench.c', '"source", "compiler", "libraries_identity"', '"source", "libraries_identity"'),
    ("a shard's cpu or cores that is no name or count merged",
     'cli/ulpbench.c', "    if (cpu_a && cpu_b && counted_a && counted_b) return NULL;", "    return NULL;"),
    ("a JSON input's key given twice read as its first value",
     'cli/ulpbench.c', "    } else if ((twice = duplicate_key(doc))) {", "    } else if ((twice = duplicate_key(doc)) && 0) {"),
    ("a recorded command with a newline put in a Markdown code span, which its blank line ends",
     'cli/ulpbench.c', "    if (!strchr(command, '\\n')) {", "    if (1) {"),
    ("a library named as a registry implementation but for letter case (its bench keys collide with that one's)",
     'accuracy/registry.c', "if (strcasecmp(ulpb_entries[i].impl, item->name) == 0) taken",
     "if (strcmp(ulpb_entries[i].impl, item->name) == 0) taken"),
    ("targets counts a ratio timed in a single round (--rounds 1), whose median one slow round moves",
     'bench/targets.c', "!(rounds->valuedouble >= ULPB_TARGETS_MIN_ROUNDS)", "!(rounds->valuedouble >= 1)"),
    ("the emulated vcvtne2ps2bf16 (AVX-512 CPUs without AVX512_BF16) keeps subnormals the instruction flushes",
     'accuracy/peers_avx512.c', "const __mmask16 subnormal = _mm512_testn_epi32_mask(bits, _mm512_set1_epi32(0x7f800000));",
     "const __mmask16 subnormal = 0;"),
    ("the emulated vcvtne2ps2bf16 leaves a signalling NaN unquieted (the NaN 0x7f800001 narrowed to infinity)",
     'accuracy/peers_avx512.c', "_mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x40))",
     "_mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0))"),
    ("the emulated bfloat16 pipeline writes only the first half of each 32-element step",
     'accuracy/peers_avx512.c', "_mm256_storeu_si256((__m256i *)((out) + 16), narrow_bf16x16_as_vcvtneps2bf16(high_));",
     "(void)high_;"),
    ("bench's order a cyclic Latin square: every position balanced, but each member always after the same one",
     'bench/bench.c', "const int offset = p % 2 ? (p + 1) / 2 : count - p / 2;", "const int offset = p;"),
    ("bench's Williams design without the mirrored rows an odd count of members needs",
     'bench/bench.c', "const int p = row >= count ? count - 1 - position : position;", "const int p = position;"),
    ("bench's design runs its rows in the same order in every cycle",
     'bench/bench.c', "(uint64_t)(round / cycle + 1)", "(uint64_t)1"),
    ("the ruler reads an error of 1 + 2^-268.6 ulps (a flushed bfloat16 subnormal) as 1: it passes a 1-ulp gate",
     'reference/ref.c', "if (low != 0 && unrounded == scaled && signbit(low) != signbit(scaled)",
     "if (0 && unrounded == scaled && signbit(low) != signbit(scaled)"),
    ("the ruler rounds an error up when its vanished low part points toward y, not away from it",
     'reference/ref.c', "signbit(low) != signbit(scaled) && difference_is_exact",
     "signbit(low) == signbit(scaled) && difference_is_exact"),
    ("bench's design never relabels its members: the same member always opens the same rows",
     'bench/bench.c', "order[p] = label[williams_member(count, row, p)];",
     "order[p] = williams_member(count, row, p) + 0 * label[0];"),
    ("the fast binary32 reference leaves asin's series at 2^-26, where glibc's asin returns x with no low part",
     'reference/ref_fast.c', "decided_by_series(op, x, 24, -126, 0x1p-12, 0x1p-25, out)",
     "decided_by_series(op, x, 24, -126, 0x1p-12, 0x1p-26, out)"),
    ("16-bit widening: the vector lanes' maxima left out of the shortcut's test (only the scalar tail's are checked)",
     "kernels/omk_internal.h",
     "limit != 0 && _mm256_cmpge_epu16_mask(max_vector, _mm256_set1_epi16((short)limit)) == 0;", "limit != 0;"),
    ("the AVX2 binary16 peers narrow their binary32 results toward zero instead of to nearest even",
     "accuracy/peers_avx2.c",
     "_mm_storeu_si128((__m128i *)(out), _mm256_cvtps_ph(fn(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in)))),    \\\n"
     "                                                       _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))",
     "_mm_storeu_si128((__m128i *)(out), _mm256_cvtps_ph(fn(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(in)))),    \\\n"
     "                                                       _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC))"),
    ("the AVX-512 build's 16-bit kernels compute whatever OMK_HALF16 says (omk_half16_method still reports table)",
     "kernels/omk_internal.h", "if (!OMK_HALF_COMPUTE || !omk_half16_compute()) {", "if (!OMK_HALF_COMPUTE) {"),
    ("the AVX-512 bfloat16 peers use vcvtne2ps2bf16 wherever the CPU has it, ULPB_DISABLE_ISA=avx512bf16 or not",
     "accuracy/peers_avx512.c", "how = ulpb_isa_available(ULPB_ISA_AVX512_BF16) ? 1 : 2;",
     'how = __builtin_cpu_supports("avx512bf16") ? 1 : 2;'),
    ("omk's binary32 asin no longer flagged correctly rounded: the gate would let its misroundings through",
     "kernels/omk_kernels.def", "OMK_KERNEL(asin, f32, float, 1)", "OMK_KERNEL(asin, f32, float, 0)"),
    ("outputs no longer remove the temporary files that runs killed outright left beside them",
     "cli/outfile.c", "if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;", "continue;"),
    ("outputs remove the temporary files of live processes too (a run writing the same file beside them)",
     "cli/outfile.c", "if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;", "if (0) continue;"),
    ("the double nearest a multiple of pi/2 per binade found without the continued fraction's semiconvergents",
     "kernels/f64_rounding_margin.c", "if (a >= 1 && q_prev + a * q >= lo_m) candidates[n++] = q_prev + a * q;",
     "if (0) candidates[n++] = q_prev + a * q;"),
    ("outputs remove a dead process's temporary file however recent (another PID namespace's live write among them)",
     "cli/outfile.c", "difftime(time(NULL), st.st_mtime) > STALE_TEMP_SECONDS", "1"),
    ("outputs remove a dead process's symbolic link or other non-regular file named as a temporary file",
     "cli/outfile.c", "if (lstat(stale, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&",
     "if (lstat(stale, &st) == 0 && st.st_uid == geteuid() &&"),
    ("the AVX-512 bfloat16 peers take the emulation where the CPU has the instruction, and the instruction elsewhere",
     "accuracy/peers_avx512.c", "if (bf16_narrowing_in_hardware()) {", "if (!bf16_narrowing_in_hardware()) {"),
    ("--range leaves out the zero of the other sign at a zero end",
     "accuracy/samplers.c", "if (key_value(dtype, a) == 0 && key_value(dtype, a - 1) == 0) a--;", ""),
    ("--range's range_patterns sampler never draws the range's last value",
     "accuracy/samplers.c", "return ulpb_bits_of_key(dtype, first + r[0] % (span + 1));",
     "return ulpb_bits_of_key(dtype, first + r[0] % span);"),
    ("a 16-bit run with --range checks the inputs outside the range too",
     "accuracy/accuracy.c", "if (p.exhaustive && outside_range(spec, index)) continue;", ""),
    ("merge joins shards of different ranges",
     "accuracy/result_io.c", ": !same_range                           ? \"--range\"", ": !same_range && 0 ? \"--range\""),
    ("merge takes ranged results whose worst inputs lie outside the range",
     "accuracy/result_io.c", "if (!range->given || !s->has_worst || ulpb_range_holds(range, s->worst_input)) return 0;",
     "return 0;"),
    ("report --range times the registry's input sets instead of the range",
     "cli/ulpbench.c", ".input_sets = o->bench_sets,", ".input_sets = NULL,"),
    ("targets on --range rounds blames missing peers or rounds, not the range",
     "bench/targets.c", "if (own_inputs) {", "if (own_inputs && 0) {"),
    ("--range's range_values over a span past binary64's range draws only half of it (the halves not doubled back)",
     "accuracy/samplers.c", "2.0 * (0.5 * lo + (0.5 * hi - 0.5 * lo) * u)", "(0.5 * lo + (0.5 * hi - 0.5 * lo) * u)"),
    ("--range's range_patterns draws from the lowest 2^53 values of a wide binary64 range only",
     "accuracy/samplers.c", "first + r[0] % (span + 1)", "first + (r[0] >> 11) % (span + 1)"),
    ("--range's range_ends draws from the lower end only",
     "accuracy/samplers.c", "r[1] >> 63 ? last - j : first + j", "0 ? last - j : first + j"),
    ("merge takes a ranged sampler whose worst input lies outside the range, when its result's lies inside",
     "accuracy/result_io.c", "                    worst_outside_range(&part, &range, why, sizeof why) ||\n",
     "                    0 ||\n"),
    ("report --range applies bench's range rules with --no-bench too",
     "cli/ulpbench.c", "if (o->range.given && !o->no_bench) {", "if (o->range.given) {"),
    ("report --range leaves a range without a value of a selected dtype to the run, without its usage message",
     "cli/ulpbench.c", "(check_sampling_options(\"report\", o, true) || check_range_holds(\"report\", o)))",
     "(check_sampling_options(\"report\", o, true)))"),
    ("accuracy --exhaustive --range checks a chunk's patterns below the range's first value too",
     "accuracy/exhaustive.c", "const uint64_t from = low_key > first_key ? low_key : first_key,",
     "const uint64_t from = low_key,"),
    ("accuracy --exhaustive --range runs (and marks done) the chunks between the range's two halves",
     "accuracy/exhaustive.c", "if (!st->done[c] && chunk_has_patterns(spec, c)) todo[todo_count++] = c;",
     "if (!st->done[c]) todo[todo_count++] = c;"),
    ("merge joins exhaustive shards of different ranges",
     "accuracy/exhaustive.c", ": !same_range                                    ? \"--range\"",
     ": !same_range && 0                               ? \"--range\""),
    ("an exhaustive result read back loses its range",
     "accuracy/exhaustive.c", "    if (ulpb_range_from_json(doc, &st->spec.range, err, len)) return -1;\n", ""),
    ("an exhaustive result takes a listed input in a checked chunk but outside the range",
     "accuracy/exhaustive.c", "(int)(bits >> ULPB_CHUNK_BITS), &first, &end) && bits >= first &&\n           bits < end;",
     "(int)(bits >> ULPB_CHUNK_BITS), &first, &end);"),
    ("accuracy --exhaustive --range takes more shards than the range has chunks",
     "cli/ulpbench.c", "if (spec.shard_count > chunk_count) {", "if (spec.shard_count > chunk_count && 0) {"),
    ("accuracy --resume takes a --range other than the file's",
     "cli/ulpbench.c",
     ": o->range.given && !(s->range.given && o->range.lo == s->range.lo && o->range.hi == s->range.hi)",
     ": 0"),
    ("gate passes an exhaustive result that stopped before its end",
     "cli/ulpbench.c", "const bool passed = gated_row && !incomplete && within_limits;",
     "const bool passed = gated_row && within_limits;"),
    ("gate holds a shard's counts to the gate as if they were the whole run's",
     "cli/ulpbench.c", "if (shard_count != 1) /* a shard's counts stand for part of the run */",
     "if (shard_count != 1 && 0)"),
    ("gate exits 0 when a row fails",
     "cli/ulpbench.c", "return status ? status : failed[0] + failed[1] + missing ? EXIT_GATE : 0;", "return status;"),
    ("gate holds peer rows to the gate",
     "cli/ulpbench.c",
     "const bool gated_row = ulpb_role_gated(r->entry->role);",
     "const bool gated_row = true;"),
    ("gate prints the verdicts of the files before a refused one",
     "cli/ulpbench.c", "if (status == 0) fputs(text, stdout);", "fputs(text, stdout);"),
    ("an exhaustive result takes a listed input above the range in a checked chunk",
     "accuracy/exhaustive.c", "&first, &end) && bits >= first &&\n           bits < end;", "&first, &end) && bits >= first;"),
    ("merge joins exhaustive shards whose ranges differ in their lower end alone",
     "accuracy/exhaustive.c", "(!s->range.given || (s->range.lo == whole.range.lo && s->range.hi == whole.range.hi));",
     "(!s->range.given || s->range.hi == whole.range.hi);"),
    ("gate leaves the rows of ULPB_LIBRARIES ungated",
     "cli/ulpbench.c",
     "const bool gated_row = ulpb_role_gated(r->entry->role);",
     "const bool gated_row = r->entry->role == ULPB_ROLE_PRODUCTION;"),
    ("gate takes a result whose rows do not count a whole run's inputs (a shard without its \"shard\")",
     "cli/ulpbench.c", "} else if (whole_run_counts(doc, &range, inputs_given ? &inputs : NULL, rows, count, err, sizeof err)) {",
     "} else if (whole_run_counts(doc, &range, inputs_given ? &inputs : NULL, rows, count, err, sizeof err) && 0) {"),
    ("gate counts a result listed twice in one file twice",
     "accuracy/result_io.c", "            if (results[q].entry == r->entry) {", "            if (0) {"),
    ("gate drops a sampled or report document's range from its lines",
     "cli/ulpbench.c", "    } else if (ulpb_range_from_json(doc, &range, err, sizeof err) ||",
     "    } else if ((range.given = false) ||"),
    ("the hard_cases sampler leaves out the negated inputs",
     "accuracy/samplers.c", "                list->bits[list->count++] = bits | sign;\n", ""),
    ("the hard_cases sampler leaves out the published worst cases (rows typed as hex floats)",
     "accuracy/samplers.c", "                if (row->from_value) memcpy(&bits, &row->value, sizeof bits);",
     "                if (row->from_value) continue;"),
    ("a sampled run gives the hard cases no inputs: the random samplers take them all",
     "accuracy/accuracy.c", "                               sampler_hard_case_count(op, dtype, range)};",
     "                               0 * sampler_hard_case_count(op, dtype, range)};"),
    ("a ranged run takes the hard cases outside its range too",
     "accuracy/samplers.c", "        if (!range || !range->given || ulpb_range_holds(",
     "        if (true || ulpb_range_holds("),
    ("the Markdown's hard-case column shows the whole row's misrounded count",
     "accuracy/result_io.c", "                             (unsigned long long)r->per_sampler[s].misrounded,",
     "                             (unsigned long long)r->total.misrounded,"),
    ("range_near_pio2 draws its distance from the zero uniformly, so that it is nearly never near",
     "accuracy/samplers.c",
     "log_uniform_below(room < widest ? room + 1 : widest, (r[1] >> 16) & 0xffff, more);",
     "more % (room < widest ? room + 1 : widest);"),
    ("range_near_pio2 draws only from the positive side of a range that holds both",
     "accuracy/samplers.c", "const int sign = side[0] && side[1] ? (int)(r[1] >> 63) : side[1];",
     "const int sign = side[1] && !side[0];"),
    ("range_near_pio2 steps past the range's end instead of to the other side of the zero",
     "accuracy/samplers.c", "    if (ulps > (down ? below : above)) down = !down; /* the other side has the room */\n", ""),
    ("a ranged cos run leaves out range_near_pio2",
     "accuracy/samplers.c", "if (sampler_range_has_pio2(dtype, range)) out[n++] = SAMPLER_RANGE_NEAR_PIO2;",
     "if (sampler_range_has_pio2(dtype, range) && 0) out[n++] = SAMPLER_RANGE_NEAR_PIO2;"),
    ("range_near_pio2 leaves out the range's last multiple of pi/2",
     "accuracy/samplers.c", "int64_t hi = (int64_t)ceil(fmin(b * two_over_pi, (double)k_max));",
     "int64_t hi = (int64_t)floor(fmin(b * two_over_pi, (double)k_max)) - 2;"),
    ("the log-uniform draws' last octave is not cut at the count",
     "accuracy/samplers.c", "high = b < octaves ? 1ull << b : count;", "high = 1ull << b;"),
    ("accuracy --inputs reads every other element twice (the index rounded down to even)",
     "accuracy/accuracy.c", "unpack(dt->bytes, spec->inputs, (size_t)index)",
     "unpack(dt->bytes, spec->inputs, (size_t)index / 2 * 2)"),
    ("gate takes an --inputs result whose rows do not count the file's elements",
     "cli/ulpbench.c", "        if (!rows[k].listed || rows[k].total.inputs != inputs->elements) {",
     "        if (!rows[k].listed) {"),
    ("merge takes an --inputs result as a shard",
     "accuracy/result_io.c", "        if (inputs && !cJSON_IsNull(inputs)) {", "        if (inputs && !cJSON_IsNull(inputs) && 0) {"),
    ("SHA-256 with a round constant wrong",
     "cli/sha256.c", "0x428a2f98, 0x71374491", "0x428a2f99, 0x71374491"),
    ("accuracy --inputs runs an empty file, with every count 0",
     "cli/ulpbench.c", "    if (dtype < 0 || array->count == 0) {", "    if (dtype < 0) {"),
    ("a 16-bit --inputs file longer than the format's values reads its references one value off",
     "accuracy/accuracy.c", "                ref[i] = value_table[bits[i]];", "                ref[i] = value_table[bits[i] ^ 1];"),
    ("the worst element of an --inputs run is its last occurrence, not its first",
     "cli/ulpbench.c", "    for (size_t i = 0; i < a->count; i++)\n        if (memcmp(",
     "    for (size_t i = a->count; i-- > 0;)\n        if (memcmp("),
    ("gate --inputs takes results of another file",
     "cli/ulpbench.c", "if (inputs_given && expected_sha256 && strcmp(inputs.sha256, expected_sha256) != 0)",
     "if (inputs_given && expected_sha256 && strcmp(inputs.sha256, expected_sha256) != 0 && 0)"),
    ("a Fortran-ordered --inputs file is read in its own order, not numpy's x.flat order",
     "cli/npy.c", "    if (h.fortran && out->ndim > 1 && to_c_order(out)) {", "    if (0 && to_c_order(out)) {"),
    ("the SHA-256 of a Fortran-ordered file is taken over its data put in C order, not over the file's bytes",
     "cli/npy.c",
     "    if (digest) ulpb_sha256_update(digest, out->data, nbytes);\n"
     "    if (h.fortran && out->ndim > 1 && to_c_order(out)) {\n"
     "        set_err(err, err_len, \"out of memory putting %zu bytes of data in C order\", nbytes);\n"
     "        return -1;\n"
     "    }\n",
     "    if (h.fortran && out->ndim > 1 && to_c_order(out)) {\n"
     "        set_err(err, err_len, \"out of memory putting %zu bytes of data in C order\", nbytes);\n"
     "        return -1;\n"
     "    }\n"
     "    if (digest) ulpb_sha256_update(digest, out->data, nbytes);\n"),
    ("a kernel's special-value example is placed at the array's first element whatever it holds",
     "cli/ulpbench.c", "results[r].total.has_special_example ? first_element_of(a, results[r].total.special_bits) : -1;",
     "results[r].total.has_special_example ? 0 : -1;"),
    ("torch's int16 view of bfloat16 is taken as bfloat16 without --dtype bf16",
     "cli/ulpbench.c", "(dtype_text ? strcmp(dtype_text, ulpb_dtypes[d].name) == 0 : !raw)",
     "(dtype_text ? strcmp(dtype_text, ulpb_dtypes[d].name) == 0 : kind != NPY_U2)"),
    ("bench --inputs draws from the file's first element alone",
     "bench/bench.c", "(splitmix64(stream + first + i) % set->value_count) * bytes", "(0 * splitmix64(stream + first + i)) * bytes"),
    ("targets on a bench --inputs run says it timed --range inputs",
     "bench/targets.c", '            file |= filed;', '            file |= 0;'),
    ("an --inputs run records the default sample count and seed as if it had drawn them",
     "cli/ulpbench.c", "selects_sampled_rows(&o) && !o.inputs_path ? o.samples : 0,", "selects_sampled_rows(&o) ? o.samples : 0,"),
    ("report --inputs times the registry's input sets, not the file's elements",
     "cli/ulpbench.c", "    if (o->inputs_path && !o->no_bench) {\n", "    if (0) {\n"),
    ("report --inputs records its seed in the document, which gate then refuses",
     "cli/ulpbench.c", "                               o->inputs_path || (!sampled && o->no_bench),",
     "                               !sampled && o->no_bench,"),
    ("report --inputs does not say where each worst input first occurs",
     "cli/ulpbench.c", "    if (o->inputs_path) locate_elements(results, count, &o->inputs_array);\n", ""),
    ("report --inputs takes --seed with --no-bench, where it draws nothing",
     "cli/ulpbench.c", "const bool seed_refused = o->seed_given && (!report || o->no_bench);",
     "const bool seed_refused = o->seed_given && !report;"),
    ("report --inputs leaves the throughput's context without the file",
     "cli/ulpbench.c", "                                .inputs_file = o->inputs_path ? &o->inputs_file : NULL};",
     "                                .inputs_file = NULL};"),
    ("bench --inputs names its rows .../inputs whatever the file, so that compare.py pairs runs over different files",
     "bench/bench.c", '    } else if (strcmp(set->name, "inputs") == 0 && spec->inputs_file) {', "    } else if (0) {"),
    ("targets takes only the names of --range rows written before 2026-12-07",
     "bench/targets.c", "const bool ranged = set && strncmp(set, \"/range\", 6) == 0 && (set[6] == 0 || set[6] == ':');",
     "const bool ranged = set && strcmp(set, \"/range\") == 0;"),
    ("report --inputs refuses --seed even when its bench draws with it",
     "cli/ulpbench.c", "const bool seed_refused = o->seed_given && (!report || o->no_bench);",
     "const bool seed_refused = o->seed_given;"),
    ("accuracy --inputs never calls a kernel over the whole tensor, as a model's runtime does",
     "accuracy/accuracy.c", "                check_whole_call(results[r].entry, &calls, spec->inputs,",
     "                0 && check_whole_call(results[r].entry, &calls, spec->inputs,"),
    ("accuracy --inputs makes its call over the whole tensor in place, where an unwritten output keeps its input",
     "accuracy/accuracy.c", "int status = call_once(e, &one_call, inputs, n, false, 0, 0, NULL,",
     "int status = call_once(e, &one_call, inputs, n, true, 0, 0, NULL,"),
    ("accuracy --inputs holds the peers to its call over the whole tensor too, and stops on SLEEF's grouped lanes",
     "accuracy/accuracy.c",
     "        if (ulpb_role_gated(results[r].entry->role))",
     "        if (1)"),
    ("a result's shown max ULP is not held to the state's, which gate reads",
     "accuracy/result_io.c", "if (!(fabs(shown_max_ulp - s->max_ulp) <= 0x1p-40 * fmax(1.0, s->max_ulp))) {", "if (0) {"),
    ("gate counts the rows of a result given twice twice",
     "cli/ulpbench.c", 'if (check_each_file_once("gate", names, count, "result")) return EXIT_USAGE;', ""),
    ("gate holds a library's rows for a library of that name rebuilt since",
     "cli/ulpbench.c", "if (library_rows && ulpb_libraries_differ(&ran, &here)) {", "if (0) {"),
    ("gate takes a limit for a dtype the results hold no row of, which gates nothing",
     "cli/ulpbench.c", "            !((result_dtypes | required_dtypes) & (1u << d)))", "            0)"),
    ("--json - writes a file named -",
     "cli/ulpbench.c", 'if (strcmp(paths[i], "-") == 0)', "if (0)"),
    ("an expected NaN shows the reference's sign bit",
     "accuracy/result_io.c", "    if (isnan(expected))", "    if (0)"),
    ("a binary32-only run's Markdown speaks of the 16-bit inputs",
     "cli/ulpbench.c", 'sixteen_bit ? "f16/bf16: all 65,536 inputs. " : ""', '"f16/bf16: all 65,536 inputs. "'),
    ("eval calls in place: an output left unwritten holds its input",
     "accuracy/accuracy.c", "call_once(e, &b, in, n, false, 0, 0, out,", "call_once(e, &b, in, n, true, 0, 0, out,"),
    ("a library's kernel that changes the working directory is measured",
     "accuracy/registry.c", "if (e->role == ULPB_ROLE_LIBRARY && !working_directory_kept(what, sizeof what)) {",
     "if (0) {"),
    ("quick_exit() in a kernel ends the run with the kernel's status",
     "cli/ulpbench.c", "    at_quick_exit(refuse_quick_exit_from_kernel);", "    (void)refuse_quick_exit_from_kernel;"),
    ("a raw NUL in a result cuts a string short unseen",
     "cli/ulpbench.c", "if (c < 0x20 && c != '\\t' && c != '\\n' && c != '\\r') {", "if (0 && c != '\\t') {"),
    ("two outputs through one pipe run together",
     "cli/ulpbench.c", "if (paths[j] && same_pipe(paths[i], paths[j]))", "if (0 && same_pipe(paths[i], paths[j]))"),
    ("_exit() in a library's kernel ends the run with the kernel's status",
     "cli/ulpbench.c", "if (!*env_error && libraries && *libraries) supervise_the_run();",
     "if (0 && libraries) supervise_the_run();"),
    ("a destructor's _exit(0) turns a failed gate into a pass",
     "cli/ulpbench.c", "? (was_noted && noted != 0 ? noted : EXIT_USAGE)", "? (was_noted ? 0 : EXIT_USAGE)"),
    ("the run outlives the process the caller started, killed alone",
     "cli/ulpbench.c", "        prctl(PR_SET_PDEATHSIG, SIGKILL);\n", ""),
    ("a stop of the process the caller started leaves the run going, its time counted",
     "cli/ulpbench.c", "        stop_with_the_supervisor();", "        (void)stop_with_the_supervisor;"),
    ("an edited command's control characters reach the terminal",
     "cli/ulpbench.c", "        fputc(control ? '?' : *c, f);", "        fputc(*c, f);"),
    ("a result's shown worst input is not held to its state's",
     "accuracy/result_io.c", "    if (s->has_worst ? !example_shown(", "    if (s->has_worst ? 0 && !example_shown("),
    ("an exhaustive result's \"complete\" is not held to what it covers",
     "accuracy/exhaustive.c", "if (!cJSON_IsBool(complete) || cJSON_IsTrue(complete) != ulpb_exhaustive_complete(st)) {",
     "if (!complete) {"),
    ("a caller's ignored SIGCHLD hides the run's end from its supervisor",
     "cli/ulpbench.c", "    signal(SIGCHLD, SIG_DFL);\n", ""),
    ("an escaped NUL in a result cuts a string short unseen",
     "cli/ulpbench.c", "if (!hex || value == 0) {", "if (!hex) {"),
    ("gate --min-inputs passes a row measured on fewer inputs",
     "cli/ulpbench.c", "if (min && r->total.inputs < min && !incomplete) {", "if (min && r->total.inputs < 1 && !incomplete) {"),
    ("gate --require lists no missing row",
     "cli/ulpbench.c", "if (required_by[i] && !present[i]) {", "if (required_by[i] && !present[i] && 0) {"),
    ("gate --require lists a missing row but passes",
     "cli/ulpbench.c", "return status ? status : failed[0] + failed[1] + missing ? EXIT_GATE : 0;",
     "return status ? status : failed[0] + failed[1] ? EXIT_GATE : 0;"),
    ("gate --require takes a peer, whose row gates nothing",
     "cli/ulpbench.c", "if (!ulpb_role_gated(e->role)) /* a peer row", "if (0 && !ulpb_role_gated(e->role)) /* a peer row"),
    ("--impl naming one implementation twice runs it once without a word",
     "cli/ulpbench.c", "        if (listed) {\n            *unknown = name;\n            return -3;\n        }",
     "        if (listed) continue;"),
    ("--max-chunks' progress line reads as the whole run done",
     "accuracy/exhaustive.c", "if (todo_count < unchecked_count)", "if (todo_count < unchecked_count && 0)"),
    ("an exhaustive run with MPFR alone speaks of fast-reference fallbacks",
     "cli/ulpbench.c", "    if (!st->spec.mpfr_reference)\n        snprintf(fallbacks",
     "    if (1)\n        snprintf(fallbacks"),
    ("JSON nested past cJSON's limit reads as a syntax error",
     "cli/ulpbench.c", "if (!doc && stop < len && json_too_deep_at(text, stop))", "if (0 && stop < len && json_too_deep_at(text, stop))"),
    ("a --range bound beyond binary64 reads as not finite",
     "cli/ulpbench.c", "        if (strtod_out_of_range(v))\n", "        if (strtod_out_of_range(v) && 0)\n"),
    ("a C1 control (U+009B, a terminal's CSI) reaches the terminal",
     "accuracy/visible_text.h", "return b == 0xc2 && (unsigned char)c[1] >= 0x80",
     "return b == 0xc3 && (unsigned char)c[1] >= 0x80"),
    ("gate refuses a limit for a dtype the run dropped, where --require would list its rows as missing",
     "cli/ulpbench.c", "!((result_dtypes | required_dtypes) & (1u << d)))", "!(result_dtypes & (1u << d)))"),
    ("a file name's newline starts a line of gate's verdict",
     "cli/ulpbench.c", 'put_line(out, "- %s %s %s %s (%s: %s%s, %llu inputs): %s",',
     'fprintf(out, "- %s %s %s %s (%s: %s%s, %llu inputs): %s\\n",'),
    ("a recorded command keeps a C1 control raw, and its Markdown cannot be pasted back",
     "accuracy/result_io.c", "if (ulpb_control_length((const char *)c)) control = true;",
     "if (*c < 0x20 || *c == 0x7f) control = true;"),
    ("a notice on stderr shows a file name's control characters raw",
     "cli/ulpbench.c", "    visible_line(stderr, prefix, fmt, ap);\n    va_end(ap);\n}\n\nstatic int fail(",
     "    fputs(prefix, stderr), vfprintf(stderr, fmt, ap), fputc('\\n', stderr);\n    va_end(ap);\n}\n\n"
     "static int fail("),
    ("a syntax error 1000 levels deep reads as nesting too deep",
     "cli/ulpbench.c", "    return (text[at] == '[' || text[at] == '{') && value_expected && depth >=",
     "    return (text[at] == '[' || text[at] == '{') && depth >="),
    ("--range abc,1e400 names the overflow, not the first bound that is no number",
     "cli/ulpbench.c", "if (!is_number || (!isfinite(v)", "if ((!isfinite(v)"),
    ("gate --this-build passes a result of another build",
     "cli/ulpbench.c", "if (this_build && row_count >= 0) {", "if (0 && this_build && row_count >= 0) {"),
    ("accuracy --resume of a complete result of another build exits 0 on it",
     "cli/ulpbench.c", "        if (what) {\n            status = complete_doc",
     "        if (what && !complete_doc) {\n            status = complete_doc"),
    ("gate --this-build holds a result without library rows to the libraries loaded now",
     "cli/ulpbench.c", "environment_difference(env, this_env, library_rows, &was, &now)",
     "environment_difference(env, this_env, true, &was, &now)"),
    ("--range inf,1e400 names the overflow, not the first bound that is no finite number",
     "cli/ulpbench.c", "if (!is_number || (!isfinite(v) && !strtod_out_of_range(v))) break;", "if (!is_number) break;"),
    ("a recorded environment's number passes for no value, and gate --this-build takes it",
     "cli/ulpbench.c", "        if ((item_a && !*a) || (item_b && !*b)) {", "        if (0) {"),
    ("targets holds a run to a named peer its CPU cannot run (the goals unmeasured without AVX-512)",
     "bench/targets.c", "if ((!e || run_could_run(context, e)) &&", "if ((!e || true) &&"),
    ("targets' float goal names libmvec and SLEEF u35 only in their AVX-512 builds, not the fastest peers",
     "accuracy/registry.def", '"libmvec-avx512,libmvec-avx2,sleef-u35-avx512,sleef-u35-avx2"',
     '"libmvec-avx512,sleef-u35-avx512"'),
    ("the 16-bit tables chosen on any Intel CPU, AVX512-FP16 or not",
     "kernels/omk.c", "return intel && max_leaf >= 7 && (leaf7_edx & (1u << 23));", "return intel;"),
    ("the 16-bit tables chosen on any CPU with leaf 7's bit 23, AMD's too",
     "kernels/omk.c", "return intel && max_leaf >= 7 && (leaf7_edx & (1u << 23));",
     "return max_leaf >= 7 && (leaf7_edx & (1u << 23));"),
    ("the 16-bit tables chosen from a leaf 7 that CPUID does not have",
     "kernels/omk.c", "return intel && max_leaf >= 7 && (leaf7_edx & (1u << 23));",
     "return intel && (leaf7_edx & (1u << 23));"),
]


def run(cmd, cwd, log):
    with open(log, "w") as out:
        return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT).returncode


def failed_tests(log):
    with open(log) as f:
        text = f.read()
    # ctest's summary lists failed tests as "N - name (Failed)"; "(Skipped)" lines are not failures
    return re.findall(r"^\s*\d+ - (\S+) \((?!Skipped\))", text, re.M)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated mutant numbers (1-based) to run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy and its logs")
    args = parser.parse_args()
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                          cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    chosen = range(1, len(MUTANTS) + 1)
    if args.only:
        try:
            chosen = [int(n) for n in args.only.split(",")]
        except ValueError:
            sys.exit(f"mutants.py: --only needs comma-separated numbers, got '{args.only}'")
        if any(n < 1 or n > len(MUTANTS) for n in chosen):
            sys.exit(f"mutants.py: --only takes numbers in 1..{len(MUTANTS)}, got '{args.only}'")

    scratch = tempfile.mkdtemp(prefix="ulpb-mutants-")
    tree, build = os.path.join(scratch, "tree"), os.path.join(scratch, "build")
    files = subprocess.run(["git", "ls-files", "-z"], capture_output=True, cwd=root).stdout.decode().split("\0")
    for name in filter(None, files):
        os.makedirs(os.path.join(tree, os.path.dirname(name)), exist_ok=True)
        shutil.copy2(os.path.join(root, name), os.path.join(tree, name))

    status = 0
    log = os.path.join(scratch, "log.txt")
    ctest = ["ctest", "--test-dir", build, "-j", str(args.jobs), "-E", "isa_all_binary32", "--output-on-failure"]
    if run(["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=Release"], scratch, log) != 0 or \
            run(["cmake", "--build", build, "-j", str(args.jobs)], scratch, log) != 0 or run(ctest, scratch, log) != 0:
        print(f"mutants.py: the unmutated tree does not build or pass its tests (log: {log})", file=sys.stderr)
        sys.exit(2)
    print("| # | mutant | caught by |\n|---:|---|---|")
    for n in chosen:
        what, name, text, replacement = MUTANTS[n - 1]
        path = os.path.join(tree, name)
        with open(path) as f:
            original = f.read()
        if original.count(text) != 1:
            print(f"| {n} | {what} | NOT APPLIED: the text occurs {original.count(text)} times in {name} |")
            status = 2
            continue
        with open(path, "w") as f:
            f.write(original.replace(text, replacement))
        try:
            if run(["cmake", "--build", build, "-j", str(args.jobs)], scratch, log) != 0:
                print(f"| {n} | {what} | DOES NOT COMPILE |")
                status = 2
            elif run(ctest, scratch, log) == 0:
                print(f"| {n} | {what} | **nothing: SURVIVED** |")
                status = max(status, 1)
            else:
                print(f"| {n} | {what} | {', '.join(failed_tests(log)) or 'ctest failed'} |")
        finally:
            with open(path, "w") as f:
                f.write(original)
        sys.stdout.flush()
    if args.keep:
        print(f"scratch copy kept in {scratch}", file=sys.stderr)
    else:
        shutil.rmtree(scratch)
    sys.exit(status)


if __name__ == "__main__":
    main()
