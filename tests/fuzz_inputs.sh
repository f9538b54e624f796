#!/bin/sh
# Runs tests/fuzz_inputs (a build with -DULPB_FUZZ=ON) on RUNS inputs grown from seeds that ULPBENCH writes now, so
# that the seeds follow the current formats: sampled accuracy shards, a partial and a complete exhaustive shard, a
# sampled and an exhaustive run with --range, an --inputs run, a bench run, and .npy files of each dtype (<i2 too) and of
# 0-d, 2-d, 32-d, empty and Fortran-ordered shapes. The fuzzer's seed is fixed (-seed=1): on the same
# seed files a run repeats (the bench seed's timings, and so its bytes, differ from one ulpbench run to the next).
#   fuzz_inputs.sh FUZZ_INPUTS ULPBENCH RUNS [ARTIFACT_DIR]
#   e.g. fuzz_inputs.sh build-fuzz/fuzz_inputs build/ulpbench 200000 build-fuzz
# Exit status 0 when no input crashed a reader; otherwise the fuzzer's, with the input that did it saved in
# ARTIFACT_DIR (default: the current directory) as crash-* or leak-* (rerun: FUZZ_INPUTS FILE).
set -eu
[ $# -ge 3 ] || { echo "usage: fuzz_inputs.sh FUZZ_INPUTS ULPBENCH RUNS [ARTIFACT_DIR]" >&2; exit 2; }
fuzzer=$1 ulpbench=$2 runs=$3 artifacts=${4:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/seeds" "$work/corpus"
cd_seeds() { (cd "$work/seeds" && "$@"); }
ulpbench=$(cd "$(dirname "$ulpbench")" && pwd)/$(basename "$ulpbench")
cd_seeds "$ulpbench" accuracy --op all --dtype f32 --samples 2000 --shard 0/2 --json shard0.json --quiet >/dev/null
cd_seeds "$ulpbench" accuracy --op asin --dtype f32 --impl omk --exhaustive --max-chunks 1 --json partial.json --quiet \
    >/dev/null 2>&1 || [ $? -eq 3 ] # 3: stopped at --max-chunks, as asked
# a complete shard at the top of the range: one digit more in its "covered" end reaches past the last chunk
cd_seeds "$ulpbench" accuracy --op cos --dtype f32 --impl omk --exhaustive --shard 4095/4096 --json last.json --quiet \
    >/dev/null
cd_seeds "$ulpbench" accuracy --op cos --dtype f32 --samples 2000 --range -8,8 --json ranged.json --quiet >/dev/null
cd_seeds "$ulpbench" accuracy --op asin --dtype f32 --impl omk --exhaustive --range -0.75,-0.5 --shard 1/2 \
    --json ranged_exhaustive.json --quiet >/dev/null
cd_seeds "$ulpbench" bench --op all --dtype all --sizes 4096 --rounds 1 --quiet --json bench.json >/dev/null
cd_seeds /usr/bin/python3 -c '
import numpy as np
np.save("f4.npy", np.linspace(-3, 3, 7, dtype=np.float32))
np.save("f2.npy", np.zeros((2, 3), np.float16))
np.save("f8.npy", np.float64(1.5))
np.save("u2.npy", np.zeros((0, 4), np.uint16))
np.save("dims.npy", np.zeros((1,) * 32, np.float32))  # the most dimensions the reader takes
np.save("fortran.npy", np.arange(24, dtype=np.float32).reshape(2, 3, 4).T)  # written in Fortran order
np.save("i2.npy", np.arange(-3, 3, dtype=np.int16).reshape(2, 3))  # bfloat16 as torch views it
'
cd_seeds "$ulpbench" accuracy --op all --inputs f4.npy --json inputs.json --quiet >/dev/null
for seed in shard0.json partial.json last.json ranged.json ranged_exhaustive.json bench.json inputs.json f4.npy f2.npy \
    f8.npy u2.npy dims.npy fortran.npy i2.npy; do
    [ -s "$work/seeds/$seed" ] || { echo "fuzz_inputs.sh: no seed $seed" >&2; exit 1; }
done
# a dictionary of the seeds' JSON keys and short strings, so that mutations build documents the readers go deep into
/usr/bin/python3 - "$work/seeds" "$work/json.dict" <<'PY'
import json, os, sys
words = set()
def walk(v):
    if isinstance(v, dict):
        for k, item in v.items():
            words.add(k)
            walk(item)
    elif isinstance(v, list):
        for item in v:
            walk(item)
    elif isinstance(v, str) and len(v) <= 40:
        words.add(v)
for name in sorted(os.listdir(sys.argv[1])):
    if name.endswith(".json"):
        walk(json.load(open(os.path.join(sys.argv[1], name))))
with open(sys.argv[2], "w") as out:
    for w in sorted(words):
        if w.isprintable():
            out.write(json.dumps('"' + w + '"') + "\n")
PY
"$fuzzer" -seed=1 -runs="$runs" -max_len=65536 -dict="$work/json.dict" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 "$work/corpus" "$work/seeds"
