#!/bin/sh
# Checks that the binary32 and binary64 kernels of one ISA build of libomk run packed floating-point code:
# a change that the vectorizer no longer takes (say a select GCC will not if-convert for AVX2) leaves
# the results bit-identical, so the other tests stay green, while the loop falls back to scalar code
# several times slower.
#   check_vectorized.sh LIBOMK ISA REGISTER    e.g. check_vectorized.sh build/libomk.a avx2 ymm
# (the static library: libomk.so exports only omk.h's functions)
# Passes when every omk_<op>_<f32|f64>_<ISA> holds packed fused multiply-adds on REGISTER operands.
set -eu
lib=$1 isa=$2 reg=$3
command -v objdump >/dev/null || { echo "check_vectorized: objdump not found" >&2; exit 2; }
symbols=$(nm --defined-only "$lib" | awk -v isa="$isa" '$2 == "T" && $3 ~ "^omk_[a-z]+_f(32|64)_" isa "$" { print $3 }')
[ -n "$symbols" ] || { echo "check_vectorized: no omk_*_f32/f64_$isa symbols in $lib" >&2; exit 1; }
disassembly=$(objdump -d --no-show-raw-insn "$lib")
status=0
for fn in $symbols; do
    packed=$(printf '%s\n' "$disassembly" |
        awk -v fn="<$fn>:" '$2 == fn { on = 1; next } on && /^$/ { exit } on' |
        grep -cE "vfn?m(add|sub)[0-9]+p[sd][[:space:]].*%$reg" || true)
    if [ "$packed" -eq 0 ]; then
        echo "$fn: no packed fma on $reg registers: the loop is not vectorized for $isa" >&2
        status=1
    else
        echo "$fn: $packed packed fmas on $reg"
    fi
done
exit $status
