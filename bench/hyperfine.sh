#!/usr/bin/env bash
# Times whole ulpbench commands with hyperfine (process start, I/O and all) and exports its JSON.
# `ulpbench bench` measures the kernels themselves; this measures what a user waits for.
#
# Usage: bench/hyperfine.sh ULPBENCH OUT.json [hyperfine options...]
#   bench/hyperfine.sh build/ulpbench build/hyperfine.json
#   bench/hyperfine.sh build/ulpbench /tmp/h.json --runs 3      # extra options go to hyperfine
#   cmake --build build --target bench-cli                      # the same, into build/hyperfine.json
#
# Commands: exhaustive binary16 accuracy of omk, sampled binary32 accuracy of omk, and eval of
# cos by omk and by glibc over a 4 Mi-element binary32 .npy (uniform in [-pi, pi], fixed seed,
# written once to a temporary directory by perl). Accuracy runs single-threaded so the numbers do
# not depend on what else the machine runs; hyperfine warms up once, then runs each command at
# least 10 times and 3 s unless told otherwise (--runs N). Run nothing else meanwhile: the speed
# drifts between processes, so compare commands within one export, not across exports.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
if [ ! -f "$1" ] || [ ! -x "$1" ]; then
  echo "hyperfine.sh: $1 is not an executable file (the ulpbench to time)" >&2
  exit 2
fi
ulpbench=$(realpath "$1")
out=$2
shift 2
command -v hyperfine >/dev/null || { echo "hyperfine.sh: hyperfine not found (apt-get install hyperfine)" >&2; exit 2; }

tmp=$(mktemp -d)
part=
trap 'rm -rf -- "$tmp" ${part:+"$part"}' EXIT # set before the second mktemp, which may fail
# hyperfine makes its export file when it starts and fills it at the end: it writes beside OUT, renamed into place
# only after a complete run, so an interrupted or failed run leaves an earlier OUT as it was
part=$(mktemp "$(dirname -- "$out")/.$(basename -- "$out").XXXXXX") || exit 2

# A NumPy format 1.0 file: magic, version, little-endian header length, the header dict padded
# with spaces to a multiple of 64 bytes including its newline, then the raw little-endian data.
perl -e '
  my ($n, $path) = @ARGV;
  open(my $f, ">:raw", $path) or die "$path: $!";
  my $dict = "{\x27descr\x27: \x27<f4\x27, \x27fortran_order\x27: False, \x27shape\x27: ($n,), }";
  $dict .= " " x ((64 - (10 + length($dict) + 1) % 64) % 64) . "\n";
  print $f "\x93NUMPY\x01\x00", pack("v", length($dict)), $dict;
  srand(20261130);
  for (my $left = $n; $left > 0; $left -= 65536) {
    my $k = $left < 65536 ? $left : 65536;
    print $f pack("f<*", map { (2 * rand() - 1) * 3.141592653589793 } 1 .. $k);
  }
' 4194304 "$tmp/x.npy"

u=$(printf %q "$ulpbench")
t=$(printf %q "$tmp") # quoted for the command lines hyperfine hands to a shell
hyperfine --warmup 1 --export-json "$part" \
  -n "accuracy cos f16 omk (exhaustive)" "$u accuracy --op cos --dtype f16 --impl omk --threads 1 --quiet" \
  -n "accuracy asin f32 omk (100k samples)" \
  "$u accuracy --op asin --dtype f32 --impl omk --samples 100000 --threads 1 --quiet" \
  -n "eval cos f32 omk (4 Mi)" "$u eval --op cos --impl omk $t/x.npy $t/y.npy" \
  -n "eval cos f32 glibc (4 Mi)" "$u eval --op cos --impl glibc $t/x.npy $t/y.npy" \
  "$@"
chmod "$(printf %o $((0666 & ~$(umask))))" "$part" # mktemp's 0600, as a new file would get
mv -f -- "$part" "$out"
echo "hyperfine.sh: wrote $out" >&2
