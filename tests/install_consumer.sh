#!/bin/sh
# The install contract: `cmake --install` into a fresh prefix, then a program outside the tree
# builds against it through pkg-config (shared and static) and runs.
# Usage: install_consumer.sh BUILD_DIR C_COMPILER
set -eu
build=$1
cc=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cat >"$prefix/consumer.c" <<'C'
#include <omk.h>
#include <stdio.h>
int main(void) {
    const float x[3] = {-1.0f, 0.0f, 1.0f};
    float y[3];
    omk_cos_f32(x, y, 3);
    uint16_t h = 0x3c00, r; /* binary16 1.0 */
    omk_asin_f16(&h, &r, 1);
    printf("%.7g %.7g %.7g %#06x %s\n", y[0], y[1], y[2], r, omk_version());
    return !(y[1] == 1.0f && y[0] == y[2] && r == 0x3e48);
}
C
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
"$cc" "$prefix/consumer.c" $(pkg-config --cflags --libs omk) -Wl,-rpath,"$prefix/lib" -o "$prefix/shared"
"$prefix/shared"
"$cc" "$prefix/consumer.c" $(pkg-config --cflags omk) "$prefix/lib/libomk.a" -lm -o "$prefix/static"
"$prefix/static"
test -x "$prefix/bin/ulpbench"
# A deeper library directory (Debian's multiarch lib/x86_64-linux-gnu): omk.pc must still find the prefix.
# Configured only (seconds), with this build's libraries copied where that configuration would install them.
src=$(dirname "$0")/..
deep=lib/x86_64-linux-gnu
cmake -S "$src" -B "$prefix/deep-build" -DCMAKE_INSTALL_LIBDIR=$deep -DULPB_BUILD_TESTS=OFF >/dev/null
mkdir -p "$prefix/deep/$deep/pkgconfig" "$prefix/deep/include"
cp "$prefix/include/omk.h" "$prefix/deep/include/"
cp -P "$prefix"/lib/libomk.* "$prefix/deep/$deep/"
cp "$prefix/deep-build/omk.pc" "$prefix/deep/$deep/pkgconfig/"
export PKG_CONFIG_PATH="$prefix/deep/$deep/pkgconfig"
"$cc" "$prefix/consumer.c" $(pkg-config --cflags --libs omk) -Wl,-rpath,"$prefix/deep/$deep" -o "$prefix/deep-shared"
"$prefix/deep-shared"
# libomk alone (-DULPB_BUILD_HARNESS=OFF) configures without the harness's MPFR, cJSON, SLEEF and OpenMP: pkg-config
# finds nothing here. Configured only.
mkdir -p "$prefix/no-pkgconfig"
PKG_CONFIG_LIBDIR="$prefix/no-pkgconfig" PKG_CONFIG_PATH= \
  cmake -G "Unix Makefiles" -S "$src" -B "$prefix/lib-only" -DULPB_BUILD_HARNESS=OFF >/dev/null
grep -q '^omk_shared:' "$prefix/lib-only/Makefile"
if grep -q '^ulpbench:' "$prefix/lib-only/Makefile"; then
  echo "install_consumer: -DULPB_BUILD_HARNESS=OFF still builds ulpbench" >&2
  exit 1
fi
echo "install contract: ok"
