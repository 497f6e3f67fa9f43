#!/usr/bin/env bash
# The consumer test (make test-install; docs/install.md): madpost installed into a scratch prefix
# under build/, then small programs built against the installed tree ONLY, through pkg-config
# (PKG_CONFIG_PATH; no -I or -L into the source or build tree), linked statically and dynamically,
# and run; then make uninstall must leave the prefix empty. A DESTDIR install is checked for its
# layout and its .pc files (which must name PREFIX, not the staging directory).
# usage: tests/consumer/run.sh   (from make test-install, which builds the library first; OUT: the
#        scratch directory, an absolute path)
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: tests/consumer/run.sh" >&2; exit 2; }
cd "$(dirname "$0")/../.."
src=$PWD
MAKE=${MAKE:-make}
out=${OUT:-$src/build/consumer}   # the Makefile passes $(BUILD)/consumer
prefix=$out/prefix
rm -rf "$out"; mkdir -p "$out/work"
fail() { echo "consumer: $*"; exit 1; }
version=$(sed -n 's/^#define MADPOST_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
            include/madpost/version.h | paste -sd.)
major=${version%%.*}

# 1. Install into the scratch prefix: the layout docs/install.md promises.
$MAKE --no-print-directory install PREFIX="$prefix"
for f in bin/madpost lib/libmadpost.a "lib/libmadpost.so.$version" lib/pkgconfig/madpost.pc \
         lib/pkgconfig/madpost-systemc.pc include/madpost/dslink.h include/madpost/version.h \
         share/madpost/rtl/dslink.sv; do
  [ -f "$prefix/$f" ] || fail "make install did not write $f"
done
[ "$(readlink "$prefix/lib/libmadpost.so.$major")" = "libmadpost.so.$version" ] ||
  fail "no link libmadpost.so.$major -> libmadpost.so.$version"
[ "$(readlink "$prefix/lib/libmadpost.so")" = "libmadpost.so.$major" ] ||
  fail "no link libmadpost.so -> libmadpost.so.$major"
# (the SystemC layer's headers in include/madpost/sc/)
if (cd "$prefix/include/madpost" && find . -type f ! -name '*.h' -o -name '*_int.h' \
      -o -type d ! -name . ! -name sc) | grep -q .; then
  fail "include/madpost/ holds more than the public headers"
fi
readelf -d "$prefix/lib/libmadpost.so.$version" | grep -q "SONAME.*\[libmadpost.so.$major\]" ||
  fail "the soname is not libmadpost.so.$major"
[ "$("$prefix/bin/madpost" --version)" = "madpost $version" ] ||
  fail "the installed madpost --version does not say 'madpost $version'"

# 2. pkg-config sees the installed tree only.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion madpost)" = "$version" ] || fail "pkg-config --modversion madpost is not $version"
cflags=$(pkg-config --cflags madpost) libs=$(pkg-config --libs madpost)
libs_static=$(pkg-config --static --libs-only-l madpost | sed 's/-lmadpost//')
case "$cflags $libs" in
  *"$src/include"*|*"$src/build/lib"*) fail "pkg-config points into the source tree: $cflags $libs";;
esac
echo "consumer: pkg-config madpost $version: $cflags $libs"

# 3. The consumers, each from a copy outside the tree, linked dynamically and statically.
# build LANG COMPILER STD FILE: one language's consumer built both ways, checked and run.
build() {
  local lang=$1 cc=$2 std=$3 file=$4 w=$out/work/$1
  mkdir -p "$w"; cp tests/consumer/consumer.c "$w/"; cp "tests/consumer/$file" "$w/"
  # Every madpost header the compiler reads must be an installed one.
  if "$cc" "-std=$std" $cflags -M "$w/$file" | tr ' \\' '\n\n' | grep '/madpost/' |
       grep -v "^$prefix/include/madpost/"; then
    fail "the $lang consumer read the headers above from outside the installed tree"
  fi
  "$cc" "-std=$std" -Wall -Wextra -Werror $cflags "$w/$file" $libs -o "$w/dynamic"
  "$cc" "-std=$std" -Wall -Wextra -Werror $cflags "$w/$file" -L"$prefix/lib" \
    -Wl,-Bstatic -lmadpost -Wl,-Bdynamic $libs_static -o "$w/static"
  readelf -d "$w/dynamic" | grep -q "NEEDED.*\[libmadpost.so.$major\]" ||
    fail "the $lang dynamic consumer does not need libmadpost.so.$major"
  if readelf -d "$w/static" | grep -q "NEEDED.*libmadpost"; then
    fail "the $lang static consumer needs libmadpost.so"
  fi
  if "$w/dynamic" > /dev/null 2>&1; then
    fail "the $lang dynamic consumer ran without LD_LIBRARY_PATH: not the installed library"
  fi
  LD_LIBRARY_PATH=$prefix/lib "$w/dynamic" | sed 's/$/ [dynamic]/'
  "$w/static" | sed 's/$/ [static]/'
}
build c cc c11 consumer.c
build c++ c++ c++11 consumer.cpp
# README's example (the first C block of its "C library" section), built and run as it says.
awk '/^## C library/ { s = 1 } s && /^```c$/ { c = 1; next } c && /^```$/ { exit } c' README.md \
  > "$out/work/hello.c"
[ -s "$out/work/hello.c" ] || fail "no C example in README.md's C library section"
cc -std=c11 -Wall -Wextra -Werror "$out/work/hello.c" $cflags $libs -o "$out/work/hello"
LD_LIBRARY_PATH=$prefix/lib "$out/work/hello" | grep -E "^madpost $version: link running after [0-9]+ cycles$" ||
  fail "README.md's example did not say the link runs"

# 4. The SystemC consumer: README's SystemC example (the code block after its <!-- sc-example -->
#    line), built with $(pkg-config --cflags --libs madpost-systemc) only (C++17 and SystemC come
#    from the .pc file) against the installed headers (include/madpost/sc/) and library, and run.
sc=$(pkg-config --cflags --libs madpost-systemc) || fail "pkg-config madpost-systemc does not resolve"
case "$sc" in
  *-std=gnu++17*-lmadpost*-lsystemc*|*-std=gnu++17*-lsystemc*-lmadpost*) ;;
  *) fail "madpost-systemc.pc gives '$sc': want -std=gnu++17, -lmadpost and -lsystemc";;
esac
[ -f "$prefix/include/madpost/sc/dslink.h" ] || fail "make install did not write include/madpost/sc/dslink.h"
w=$out/work/sc; mkdir -p "$w"
awk '/<!-- sc-example -->/ { on = 1; next } on && /^```cpp/ { code = 1; next } code && /^```/ { exit } code' \
  README.md > "$w/sc_example.cpp"
[ -s "$w/sc_example.cpp" ] || fail "no SystemC example after <!-- sc-example --> in README.md"
c++ -Wall -Wextra -Werror "$w/sc_example.cpp" $sc -o "$w/sc_example"
LD_LIBRARY_PATH=$prefix/lib SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$w/sc_example" |
  grep -E "^b received 0x5a in cycle [0-9]+$" | sed 's/^/consumer (SystemC): /' ||
  fail "the SystemC consumer did not receive its byte"
# 5. The SV/DPI consumer: README's SystemVerilog example (its "SystemVerilog / DPI-C" section),
#    built by Verilator from the installed package, reference module and shadow
#    (share/madpost/sv/) and the installed RTL, linked against the installed library, and run.
sv=$prefix/share/madpost
w=$out/work/sv; mkdir -p "$w"
awk '/^## SystemVerilog \/ DPI-C/ { s = 1 } s && /^```systemverilog$/ { c = 1; next } c && /^```$/ { exit } c' \
  README.md > "$w/my_tb.sv"
[ -s "$w/my_tb.sv" ] || fail "no SystemVerilog example in README.md's DPI-C section"
for f in madpost_dslink_pkg.sv madpost_dslink_ref.sv madpost_dslink_shadow.sv; do
  [ -f "$sv/sv/$f" ] || fail "make install did not write share/madpost/sv/$f"
done
verilator --binary -Wno-fatal --top-module my_tb -Mdir "$w/obj" -MAKEFLAGS "OPT_SLOW=-O0 OPT_FAST=-O1" \
  -LDFLAGS "$libs" "$sv"/sv/madpost_dslink_{pkg,ref,shadow}.sv "$sv"/rtl/dslink*.sv "$w/my_tb.sv" \
  > "$w/build.log" 2>&1 || { tail -20 "$w/build.log"; fail "the SV/DPI consumer did not build"; }
LD_LIBRARY_PATH=$prefix/lib "$w/obj/Vmy_tb" | grep -E "^[1-9][0-9]* tokens received, 0 mismatches$" |
  sed 's/^/consumer (SV\/DPI): /' || fail "the SV/DPI consumer did not pass its tokens cleanly"

# 6. Uninstall leaves the prefix empty.
$MAKE --no-print-directory uninstall PREFIX="$prefix"
left=$(cd "$prefix" && find . -mindepth 1)
[ -z "$left" ] || fail "make uninstall left: $left"

# 7. A staged install (DESTDIR): the same layout under DESTDIR/PREFIX, .pc files naming PREFIX.
stage=$out/stage
$MAKE --no-print-directory install DESTDIR="$stage" PREFIX=/opt/madpost > /dev/null
[ -f "$stage/opt/madpost/lib/libmadpost.so.$version" ] || fail "DESTDIR install: no libmadpost.so.$version"
grep -qx 'prefix=/opt/madpost' "$stage/opt/madpost/lib/pkgconfig/madpost.pc" ||
  fail "DESTDIR install: madpost.pc does not say prefix=/opt/madpost"
$MAKE --no-print-directory uninstall DESTDIR="$stage" PREFIX=/opt/madpost > /dev/null
left=$(cd "$stage/opt/madpost" && find . -mindepth 1)
[ -z "$left" ] || fail "make uninstall DESTDIR=... left: $left"
echo "consumer: install, C and C++ consumers (static and dynamic), the SystemC and SV/DPI consumers, uninstall, DESTDIR: all passed"
