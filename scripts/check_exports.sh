#!/usr/bin/env bash
# Checks libmadpost.so's exports (docs/install.md, "Exported symbols"): the functions it exports
# are exactly those the public headers declare (not static inline), every one with a project
# prefix, and no data. The declarations come from the compiler itself (-aux-info over every header
# of include/madpost/), the exports from nm -D: a helper shared by the model files that leaks out,
# a public function that is declared but never defined, or a header that forgets
# MADPOST_BEGIN_DECLS all fail here.
# usage: check_exports.sh SHARED_LIBRARY
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: check_exports.sh SHARED_LIBRARY" >&2; exit 2; }
so=$1
[ -f "$so" ] || { echo "check_exports: no $so" >&2; exit 2; }
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for h in include/madpost/*.h; do echo "#include <madpost/${h##*/}>"; done > "$tmp/all.c"
"${CC:-cc}" -std=c11 -Iinclude -fsyntax-only -aux-info "$tmp/aux.txt" "$tmp/all.c"
# "/* include/madpost/x.h:12:NC */ extern int name (args);": the name before the argument list.
grep '^/\* include/madpost/' "$tmp/aux.txt" | grep -v '\*/ static ' |
  sed 's/ (.*//; s/.*[ *]//' | sort -u > "$tmp/declared.txt"
nm -D --defined-only "$so" | awk '{print $2, $3}' | sort -k2 > "$tmp/nm.txt"
awk '{print $2}' "$tmp/nm.txt" | sort -u > "$tmp/exported.txt"
fail=0
if awk '$1 != "T"' "$tmp/nm.txt" | grep -q .; then
  echo "check_exports: exported symbols that are not functions (global state?):"; awk '$1 != "T"' "$tmp/nm.txt"; fail=1
fi
if grep -vE '^(madpost|dslink|mp1|c104|t9k|net)_' "$tmp/exported.txt"; then
  echo "check_exports: the exported names above carry no project prefix"; fail=1
fi
if comm -23 "$tmp/exported.txt" "$tmp/declared.txt" | grep .; then
  echo "check_exports: exported above but declared in no public header (hide them: an internal header in cmodel/)"; fail=1
fi
if comm -13 "$tmp/exported.txt" "$tmp/declared.txt" | grep .; then
  echo "check_exports: declared in a public header above but not exported (undefined, or outside MADPOST_BEGIN_DECLS)"; fail=1
fi
[ "$fail" -eq 0 ] || exit 1
echo "exports: $(wc -l < "$tmp/exported.txt") functions, exactly the public headers' declarations"
