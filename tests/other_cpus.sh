#!/bin/sh
# omk and ulpbench on CPUs this machine is not: the build the dispatcher picks from CPUID, the registry's peers that
# the CPU cannot run left out, the report's gate (exhaustive binary16/bfloat16, sampled binary32/binary64, the quick
# bench), and the dispatch under every OMK_ISA value. The forced-ISA tests run each build on this CPU; here the CPU
# itself lacks the instructions, so a stray one ends the run with SIGILL.
#   other_cpus.sh no-avx BUILD_DIR OUT_DIR       qemu-x86_64 -cpu Nehalem: no AVX, FMA or F16C; expects the scalar build
#   other_cpus.sh no-avx512 BUILD_DIR OUT_DIR    valgrind (memcheck), whose CPUID hides AVX-512: expects the avx2 build
#                                                 where the host has AVX2, FMA, F16C and POPCNT, else the scalar one
# Why two tools: QEMU 7.2 (Debian 12) runs AVX2 code, but its TCG gives wrong results for some of it (vgatherqpd
# with base %r8 in the avx2 build's huge-argument cos read the table at index 0 instead of the lane's index, which
# native runs and valgrind do not), so only its pre-AVX CPU models are used here. valgrind emulates the x87 unit in
# binary64 and ignores FTZ/DAZ, so under it the fast reference (long double) and test_kernels' floating-point
# environment test do not hold; the report uses MPFR and those tests run under QEMU.
# Exits 77 (skipped for ctest) when the tool is not installed. About 50 s under QEMU and 6 minutes under valgrind.
set -eu
mode=$1 build=$2 out=$3
case $mode in
no-avx)
    command -v qemu-x86_64 >/dev/null || { echo "other_cpus: skipped: qemu-x86_64 not installed (apt-get install qemu-user)"; exit 77; }
    set -- qemu-x86_64 -cpu Nehalem
    expected=scalar samples=20000
    ;;
no-avx512)
    command -v valgrind >/dev/null || { echo "other_cpus: skipped: valgrind not installed"; exit 77; }
    set -- valgrind -q --error-exitcode=99
    expected=scalar samples=5000
    flags=$(grep -m1 '^flags' /proc/cpuinfo)
    has() { case " ${flags#*:} " in *" $1 "*) return 0 ;; esac; return 1; }
    if has avx2 && has fma && has f16c && has popcnt; then expected=avx2; fi
    ;;
*)
    echo "usage: other_cpus.sh no-avx|no-avx512 BUILD_DIR OUT_DIR" >&2
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
for isa in scalar avx2 avx512 avx1024 ""; do
    OMK_ISA=$isa "$@" "$build/tests/test_isa" --dispatch >"$out/dispatch.txt" 2>&1 ||
        { cat "$out/dispatch.txt" >&2; fail "test_isa --dispatch failed with OMK_ISA=$isa"; }
done
echo "other_cpus: test_isa --dispatch passed for OMK_ISA = scalar, avx2, avx512, avx1024 and empty"

# Under QEMU two kernel tests; under valgrind test_isa (every 16-bit input, tails in place and unaligned, every lane
# position, block edges), where memcheck also sees reads of uninitialised memory, which ASan does not (about 5 minutes).
if [ "$mode" = no-avx ]; then tests="test_kernels test_hard_cases"; else tests=test_isa; fi
for t in $tests; do
    "$@" "$build/tests/$t" >"$out/$t.txt" 2>&1 || { tail -n 30 "$out/$t.txt" >&2; fail "$t failed"; }
done
echo "other_cpus: $tests passed"
