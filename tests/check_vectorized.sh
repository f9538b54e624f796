#!/bin/sh
# Checks that the kernels of one ISA build of libomk run packed floating-point code:
# a change that the vectorizer no longer takes (say a select GCC will not if-convert for AVX2) leaves
# the results bit-identical, so the other tests stay green, while the loop falls back to scalar code
# several times slower.
#   check_vectorized.sh LIBOMK ISA REGISTER [BASELINE COMPILER]
#   e.g. check_vectorized.sh build/libomk.a avx2 ymm tests/vectorized_baseline.txt "GNU 12.2.0"
# (the static library: libomk.so exports only omk.h's functions)
# Passes when every omk_<op>_<f32|f64>_<ISA> holds packed fused multiply-adds on REGISTER operands: at least three
# quarters of BASELINE's count (or the percentage a third column gives) when COMPILER is the one BASELINE was counted
# with (and then BASELINE's other kernels of the build too), else some, and then the exit status is 77 (skipped).
set -eu
lib=$1 isa=$2 reg=$3 baseline=${4:-} compiler=${5:-}
same_compiler=0
if [ -n "$baseline" ] && [ "$(sed -n 's/^compiler //p' "$baseline")" = "$compiler" ]; then same_compiler=1; fi
command -v objdump >/dev/null || { echo "check_vectorized: objdump not found" >&2; exit 2; }
defined=$(nm --defined-only "$lib" | awk '$2 == "T" { print $3 }')
symbols=$(printf '%s\n' "$defined" | awk -v isa="$isa" '$0 ~ "^omk_[a-z]+_f(32|64)_" isa "$"')
[ -n "$symbols" ] || { echo "check_vectorized: no omk_*_f32/f64_$isa symbols in $lib" >&2; exit 1; }
if [ "$same_compiler" -eq 1 ]; then # and the baseline's other kernels of this build (the AVX-512 16-bit ones)
    for fn in $(awk -v isa="$isa" '$1 ~ "^omk_[a-z0-9]+_[a-z0-9]+_" isa "$" { print $1 }' "$baseline"); do
        printf '%s\n' "$defined" | grep -qx "$fn" || { echo "check_vectorized: $fn of $baseline not in $lib" >&2; exit 1; }
        printf '%s\n' "$symbols" | grep -qx "$fn" || symbols="$symbols $fn"
    done
fi
disassembly=$(objdump -d --no-show-raw-insn "$lib")
status=0
for fn in $symbols; do
    packed=$(printf '%s\n' "$disassembly" |
        awk -v fn="<$fn>:" '$2 == fn { on = 1; next } on && /^$/ { exit } on' |
        grep -cE "vfn?m(add|sub)[0-9]+p[sd][[:space:]].*%$reg" || true)
    expected=0 percent=75
    if [ "$same_compiler" -eq 1 ]; then
        expected=$(awk -v fn="$fn" '$1 == fn { print $2 }' "$baseline")
        [ -n "$expected" ] || { echo "$fn: not in $baseline" >&2; status=1; continue; }
        percent=$(awk -v fn="$fn" '$1 == fn { print ($3 == "" ? 75 : $3) }' "$baseline")
    fi
    if [ "$packed" -eq 0 ]; then
        echo "$fn: no packed fma on $reg registers: the loop is not vectorized for $isa" >&2
        status=1
    elif [ $((100 * packed)) -lt $((percent * expected)) ]; then
        echo "$fn: $packed packed fmas on $reg, $expected in $baseline (at least $percent% needed): a pass is no longer vectorized for $isa" >&2
        status=1
    else
        [ "$same_compiler" -eq 1 ] && note=" ($expected in the baseline)" || note=""
        echo "$fn: $packed packed fmas on $reg$note"
    fi
done
if [ "$status" -eq 0 ] && [ -n "$baseline" ] && [ "$same_compiler" -eq 0 ]; then
    # reported as skipped (ctest's SKIP_RETURN_CODE): passing the weaker test is not passing the baseline's
    echo "check_vectorized: $baseline was counted with $(sed -n 's/^compiler //p' "$baseline"), not $compiler: only" \
        "'some packed fma' was checked, and not the baseline's other kernels" >&2
    exit 77
fi
exit $status
