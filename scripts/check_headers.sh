#!/usr/bin/env bash
# Checks the public headers as a user's compiler sees them (docs/install.md): each header of
# include/madpost/ alone (so it includes what it needs) as C11 and as C++11, C++14 and C++17 with
# -Wall -Wextra -Wpedantic -Werror (syntax only: cheap); and that the project's own C and C++ code
# (every folder but build/) includes them as an installed program does, `#include <madpost/NAME.h>`,
# never by another path.
# usage: check_headers.sh   (CC and CXX choose the compilers)
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: check_headers.sh" >&2; exit 2; }
cd "$(dirname "$0")/.."
CC=${CC:-cc} CXX=${CXX:-c++}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
warn=(-Wall -Wextra -Wpedantic -Werror -fsyntax-only -Iinclude)
n=0; fail=0
for h in include/madpost/*.h; do
  name=${h##*/}
  # The typedef keeps a header of macros alone (a port list) from being an empty translation unit.
  printf '#include <madpost/%s>\ntypedef int madpost_header_check_t;\n' "$name" > "$tmp/t.c"
  cp "$tmp/t.c" "$tmp/t.cpp"
  for std in c11 c++11 c++14 c++17; do
    if [ "$std" = c11 ]; then cmd=("$CC" -std=c11 "${warn[@]}" "$tmp/t.c")
    else cmd=("$CXX" "-std=$std" "${warn[@]}" "$tmp/t.cpp"); fi
    if ! "${cmd[@]}" > "$tmp/out" 2>&1; then
      echo "headers: madpost/$name does not compile alone as $std:"; sed 's/^/  | /' "$tmp/out"; fail=1
    fi
    n=$((n + 1))
  done
done
# Every include that reaches a public header must be written <madpost/NAME.h>: an angle include of
# a public header's name by another path, or a quoted include that finds one (next to the file, or
# as "madpost/NAME.h"), is refused. <madpost/sc/dslink.h> (another layer's header of the same
# name) is not a public header of include/madpost/ and passes.
names=$(cd include/madpost && ls *.h | sed 's/\./\\./g' | paste -sd'|')
pub=$(cd include/madpost && pwd -P)
bad=0
# Every C and C++ source of the tree (new layers' folders too), not build output.
while IFS= read -r hit; do
  file=${hit%%:*} inc=$(sed -E 's/.*#[[:space:]]*include[[:space:]]*([<"][^>"]*[>"]).*/\1/' <<<"${hit#*:*:}")
  path=${inc:1:${#inc}-2}
  case $inc in
    \<*) case $path in madpost/*) continue;; esac ;;
    *) rel=$(dirname "$file")/$path
       if [ -f "$rel" ] && [ "$(cd "$(dirname "$rel")" && pwd -P)" != "$pub" ]; then continue; fi
       if [ ! -f "$rel" ] && [[ $path != madpost/* ]] && [[ $path != */madpost/* ]]; then continue; fi ;;
  esac
  echo "$hit"; bad=1
done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]([^>\"]*/)?($names)[>\"]" \
           --include='*.[ch]' --include='*.cpp' --include='*.hpp' --include='*.cc' --include='*.hh' \
           --exclude-dir=build --exclude-dir=.git --exclude-dir=waves . || true)
if [ "$bad" -ne 0 ]; then
  echo "headers: the includes above name a public header otherwise than <madpost/NAME.h>"; fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "headers: $n compilations clean (every public header alone as C11, C++11, C++14, C++17); in-tree includes all <madpost/...>"
