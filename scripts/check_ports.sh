#!/usr/bin/env bash
# Checks that the ports of an RTL top module (names, directions, widths, order) are exactly the ones
# its block's port-list header lists. Uses Verilator's XML view of the RTL, so any formatting works.
# usage: check_ports.sh PORTLIST_BINARY BLOCK TOP RTL_FILES... (Verilator options among them, such
# as -GAWF=2, elaborate the top with those parameters: docs/mp1.md §14)
set -euo pipefail
portlist=$1; blk=$2; top=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
verilator --xml-only --xml-output "$tmp/rtl.xml" --top-module "$top" "$@" >/dev/null
awk -v top="$top" '
  /<basicdtype / {
    id = ""; l = ""; r = ""
    if (match($0, / id="[0-9]+"/)) id = substr($0, RSTART + 5, RLENGTH - 6)
    if (match($0, / left="[0-9]+"/)) l = substr($0, RSTART + 7, RLENGTH - 8)
    if (match($0, / right="[0-9]+"/)) r = substr($0, RSTART + 8, RLENGTH - 9)
    w[id] = (l == "") ? 1 : l - r + 1
  }
  /<module / && $0 ~ ("name=\"" top "\"") { inside = 1 }
  /<\/module>/ { inside = 0 }
  inside && /<var / && / dir="/ {
    match($0, / name="[^"]+"/); n = substr($0, RSTART + 7, RLENGTH - 8)
    match($0, / dir="[a-z]+"/); d = substr($0, RSTART + 6, RLENGTH - 7)
    match($0, / pinIndex="[0-9]+"/); p = substr($0, RSTART + 11, RLENGTH - 12)
    match($0, / dtype_id="[0-9]+"/); t = substr($0, RSTART + 11, RLENGTH - 12)
    p = p + 0; pin[p] = d " " n; typ[p] = t; if (p > np) np = p
  }
  END { for (i = 1; i <= np; i++) print pin[i], w[typ[i]] }
' "$tmp/rtl.xml" > "$tmp/rtl.txt"
"$portlist" "$blk" > "$tmp/want.txt"
if ! diff -u "$tmp/want.txt" "$tmp/rtl.txt" > "$tmp/diff.txt"; then
  echo "check-ports: $top does not have the ports of include/madpost/${blk}_ports.h (- expected, + RTL):"
  grep -E '^[-+][a-z]' "$tmp/diff.txt"
  exit 1
fi
echo "check-ports: $top matches include/madpost/${blk}_ports.h ($(wc -l < "$tmp/want.txt") ports)"
