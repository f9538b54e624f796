#!/bin/sh
# The install contract: `cmake --install` into a fresh prefix, then a program outside the tree
# builds against it through pkg-config (shared and static) and runs.
# Usage: install_consumer.sh BUILD_DIR C_COMPILER [LIBDIR [INCLUDEDIR [BINDIR]]]  (the build's CMAKE_INSTALL_LIBDIR,
# _INCLUDEDIR and _BINDIR, relative; by default lib, include and bin)
set -eu
build=$1
cc=$2
libdir=${3:-lib}
includedir=${4:-include}
bindir=${5:-bin}
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
    /* cos 1 = 0.54030230586..., rounded to binary32 0x1.14a28p-1 (0.49 ulp below it) */
    return !(y[1] == 1.0f && y[0] == y[2] && y[2] == 0x1.14a28p-1f && r == 0x3e48);
}
C
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
"$cc" "$prefix/consumer.c" $(pkg-config --cflags --libs omk) -Wl,-rpath,"$prefix/$libdir" -o "$prefix/shared"
"$prefix/shared"
"$cc" "$prefix/consumer.c" $(pkg-config --cflags omk) "$prefix/$libdir/libomk.a" $(pkg-config --static --libs-only-other omk) -lm \
  -o "$prefix/static"
"$prefix/static"
test -x "$prefix/$bindir/ulpbench"
# libomk.so exports the functions omk.h declares and nothing else: the per-build kernels and internals stay hidden.
nm -D --defined-only "$prefix/$libdir/libomk.so" | awk '{print $3}' | sort >"$prefix/exported"
sed -n 's/^OMK_API [^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' "$prefix/$includedir/omk.h" | sort >"$prefix/declared"
if [ ! -s "$prefix/declared" ] || ! diff "$prefix/declared" "$prefix/exported" >&2; then
  echo "install_consumer: libomk.so's exported symbols (>) differ from omk.h's functions (<)" >&2
  exit 1
fi
# CMake consumers: find_package(omk) and its two targets, with the version checked.
mkdir -p "$prefix/cmake-consumer"
cat >"$prefix/cmake-consumer/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(omk_consumer C)
find_package(omk \${OMK_WANTED} CONFIG REQUIRED)
add_executable(shared "$prefix/consumer.c")
target_link_libraries(shared PRIVATE omk::omk)
add_executable(static "$prefix/consumer.c")
target_link_libraries(static PRIVATE omk::omk_static)
CMAKE
version=$("$prefix/shared" | awk '{print $NF}')
major=${version%%.*}
minor=$(echo "$version" | cut -d. -f2)
# CMake's package search looks under lib, lib/<arch> and share (lib64 only where the platform asks for it, not on
# Debian): a package in another library directory is named to it, as its users would name it.
package_hint() {
  case $libdir in
  lib | lib/*) ;;
  *) echo "-Domk_DIR=$1/$libdir/cmake/omk" ;;
  esac
}
cmake -S "$prefix/cmake-consumer" -B "$prefix/cmake-consumer/build" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$prefix" $(package_hint "$prefix") -DOMK_WANTED="$version" >/dev/null
cmake --build "$prefix/cmake-consumer/build" >/dev/null
"$prefix/cmake-consumer/build/shared"
"$prefix/cmake-consumer/build/static"
if ! ldd "$prefix/cmake-consumer/build/shared" | grep -q "libomk\.so\.$major\.$minor "; then
  echo "install_consumer: omk::omk does not link libomk.so.$major.$minor" >&2
  exit 1
fi
if ldd "$prefix/cmake-consumer/build/static" | grep -q libomk; then
  echo "install_consumer: omk::omk_static links libomk.so" >&2
  exit 1
fi
# A newer minor version is refused by the version check itself (not by some other configure error).
if cmake -S "$prefix/cmake-consumer" -B "$prefix/cmake-consumer/too-new" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$prefix" $(package_hint "$prefix") -DOMK_WANTED="$major.$((minor + 1))" >/dev/null 2>"$prefix/too-new.err" ||
  ! grep -q "version: $version" "$prefix/too-new.err"; then
  echo "install_consumer: find_package(omk $major.$((minor + 1))) was not refused for version $version" >&2
  cat "$prefix/too-new.err" >&2
  exit 1
fi
# Relocatable: the installed tree moved elsewhere still serves find_package.
mkdir -p "$prefix/moved"
for top in $(printf '%s\n' "${includedir%%/*}" "${libdir%%/*}" | sort -u); do cp -a "$prefix/$top" "$prefix/moved/"; done
cmake -S "$prefix/cmake-consumer" -B "$prefix/cmake-consumer/moved" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$prefix/moved" $(package_hint "$prefix/moved") -DOMK_WANTED="$version" >/dev/null
grep -q "$prefix/moved/$libdir/libomk.a" "$prefix/cmake-consumer/moved/CMakeFiles/static.dir/link.txt"
cmake --build "$prefix/cmake-consumer/moved" >/dev/null
"$prefix/cmake-consumer/moved/static"
# A deeper library directory (Debian's multiarch lib/x86_64-linux-gnu): omk.pc must still find the prefix.
# Configured only (seconds), with this build's libraries copied where that configuration would install them.
src=$(dirname "$0")/..
deep=lib/x86_64-linux-gnu
cmake -S "$src" -B "$prefix/deep-build" -DCMAKE_INSTALL_LIBDIR=$deep -DULPB_BUILD_TESTS=OFF >/dev/null
mkdir -p "$prefix/deep/$deep/pkgconfig" "$prefix/deep/include"
cp "$prefix/$includedir/omk.h" "$prefix/deep/include/"
cp -P "$prefix/$libdir"/libomk.* "$prefix/deep/$deep/"
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
# A project that adds this tree with add_subdirectory (libomk alone) links the same target names. Configured only:
# an unknown omk::omk_static would fail here.
mkdir -p "$prefix/super"
cat >"$prefix/super/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(omk_super C)
set(ULPB_BUILD_HARNESS OFF CACHE BOOL "" FORCE)
add_subdirectory("$(cd "$src" && pwd)" omk)
add_executable(app "$prefix/consumer.c")
target_link_libraries(app PRIVATE omk::omk_static)
CMAKE
PKG_CONFIG_LIBDIR="$prefix/no-pkgconfig" PKG_CONFIG_PATH= \
  cmake -G "Unix Makefiles" -S "$prefix/super" -B "$prefix/super/build" >/dev/null
echo "install contract: ok"
