#!/bin/sh
# omk and ulpbench on CPUs this machine is not: the build the dispatcher picks from CPUID, the registry's peers that
# the CPU cannot run left out, the report's gate (exhaustive binary16/bfloat16, sampled binary32/binary64, the quick
# bench), and the dispatch under every OMK_ISA value. The forced-ISA tests run each build on this CPU; here the CPU
# itself lacks the instructions, so a stray one ends the run with SIGILL.
#   other_cpus.sh no-avx BUILD_DIR OUT_DIR ISAS      qemu-x86_64 -cpu Nehalem: no AVX, FMA or F16C; expects the scalar
#                                                     build
#   other_cpus.sh no-avx512 BUILD_DIR OUT_DIR ISAS   valgrind (memcheck), whose CPUID hides AVX-512: expects the build
#                                                     this host runs when OMK_ISA=avx2 (avx2 where the host has its
#                                                     features, else scalar)
# ISAS: omk's builds (CMake's OMK_ISAS, from kernels/omk_isas.h), separated by ';' or spaces.
# Why two tools: QEMU 7.2 (Debian 12) runs AVX2 code, but its TCG gives wrong results for some of it (vgatherqpd
# with base %r8 in the avx2 build's huge-argument cos read the table at index 0 instead of the lane's index, which
# native runs and valgrind do not), so only its pre-AVX CPU models are used here. valgrind emulates the x87 unit in
# binary64 and ignores FTZ/DAZ, so under it the fast reference (long double) and test_kernels' floating-point
# environment test do not hold; the report uses MPFR and those tests run under QEMU.
# Exits 77 (skipped for ctest) when the tool is not installed. About 50 s under QEMU and 6 minutes under valgrind.
set -eu
[ $# -eq 4 ] || { echo "usage: other_cpus.sh no-avx|no-avx512 BUILD_DIR OUT_DIR ISAS" >&2; exit 2; }
mode=$1 build=$2 out=$3 isas=$(echo "$4" | tr ';' ' ')
case $mode in
no-avx)
    command -v qemu-x86_64 >/dev/null || { echo "other_cpus: skipped: qemu-x86_64 not installed (apt-get install qemu-user)"; exit 77; }
    set -- qemu-x86_64 -cpu Nehalem
    expected=scalar samples=20000
    ;;
no-avx512)
    command -v valgrind >/dev/null || { echo "other_cpus: skipped: valgrind not installed"; exit 77; }
    set -- valgrind -q --error-exitcode=99
    samples=5000
    # The host's CPU test for the avx2 build (omk_isas.h), asked natively: valgrind hides AVX-512 and nothing else.
    expected=$(OMK_ISA=avx2 "$build/ulpbench" --version | sed -n 's/.*(\([a-z0-9]*\) build.*/\1/p')
    case $expected in
    avx2 | scalar) ;;
    *) echo "other_cpus: OMK_ISA=avx2 ulpbench --version names build '$expected' natively" >&2; exit 1 ;;
    esac
    ;;
*)
    echo "usage: other_cpus.sh no-avx|no-avx512 BUILD_DIR OUT_DIR ISAS" >&2
    exit 2
    ;;
esac
fail() {
    echo "other_cpus ($mode): $*" >&2
    exit 1
}
rm -rf "$out"
mkdir -p "$out"

"$@" "$build/ulpbench" --version >"$out/version.txt" 2>&1 || fail "ulpbench --version failed: $(cat "$out/version.txt")"
grep -q "($expected build" "$out/version.txt" || fail "expected omk's $expected build: $(cat "$out/version.txt")"
echo "other_cpus ($mode, $*): $(grep -o 'omk [^;]*' "$out/version.txt")"

# ulpbench list: a peer is available exactly when its ISA column names one this CPU has.
"$@" "$build/ulpbench" list >"$out/list.txt" 2>&1 || fail "ulpbench list failed"
awk -v expected="$expected" '
    NR == 1 { next }
    {
        runs = ($5 == "none") || ($5 == "avx2" && expected == "avx2")
        if (($6 == "yes") != runs) { print "other_cpus: " $1 " " $2 " " $3 " (" $5 "): available = " $6; bad = 1 }
        if ($6 == "yes") n++
    }
    END { if (!bad) print "other_cpus: " n " registry entries run here"; exit bad }
' "$out/list.txt" || fail "ulpbench list offers entries this CPU cannot run"

# The default suite at a smaller sample size, with its gate (exit 1 when omk misrounds) and the quick bench.
if ! "$@" "$build/ulpbench" report --samples "$samples" --output-dir "$out" --quiet >"$out/report.out" 2>&1; then
    tail -n 20 "$out/report.out" >&2
    fail "ulpbench report failed (gate or run; $out/report.out)"
fi
grep -q "\"omk_isa\":[[:space:]]*\"$expected\"" "$out/report.json" || fail "report.json does not name the $expected build"
echo "other_cpus: ulpbench report passed its gate ($samples samples per binary32/binary64 pair, every 16-bit input)"

# The dispatch under every OMK_ISA value: a build the CPU lacks falls back to the best it has.
for isa in $isas avx1024 ""; do
    OMK_ISA=$isa "$@" "$build/tests/test_isa" --dispatch >"$out/dispatch.txt" 2>&1 ||
        { cat "$out/dispatch.txt" >&2; fail "test_isa --dispatch failed with OMK_ISA=$isa"; }
done
echo "other_cpus: test_isa --dispatch passed for OMK_ISA = $isas, avx1024 (no such build) and empty"

# Under QEMU two kernel tests; under valgrind test_isa (every 16-bit input, tails in place and unaligned, every lane
# position, block edges), where memcheck also sees reads of uninitialised memory, which ASan does not (about 5 minutes).
if [ "$mode" = no-avx ]; then tests="test_kernels test_hard_cases"; else tests=test_isa; fi
for t in $tests; do
    "$@" "$build/tests/$t" >"$out/$t.txt" 2>&1 || { tail -n 30 "$out/$t.txt" >&2; fail "$t failed"; }
done
echo "other_cpus: $tests passed"
