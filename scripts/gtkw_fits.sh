#!/usr/bin/env bash
# Checks that a GTKWave save file fits a VCD: every signal the .gtkw names (scope.path.name, with
# its [msb:0] for a vector) is declared in the VCD under that path with that width. Used on the
# SystemC demonstrations' waves against the .gtkw the lockstep benches write (docs/systemc.md).
# usage: gtkw_fits.sh VCD GTKW
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: gtkw_fits.sh VCD GTKW" >&2; exit 2; fi
vcd=$1; gtkw=$2
for f in "$vcd" "$gtkw"; do [ -r "$f" ] || { echo "gtkw_fits: cannot read $f" >&2; exit 2; }; done
# The VCD's declarations as "path.name width" lines.
decl=$(awk '
  $1 == "$scope" { s[++d] = $3; next }
  $1 == "$upscope" { d--; next }
  $1 == "$var" { p = ""; for (i = 1; i <= d; i++) p = p s[i] "."; print p $5, $3 }
  $1 == "$enddefinitions" { exit }' "$vcd")
missing=0; n=0
while IFS= read -r l; do
  case "$l" in ''|'['*|'*'*|'@'*|'-'*) continue;; esac
  n=$((n + 1))
  name=${l%%[*}; w=1
  if [[ $l =~ \[([0-9]+):0\]$ ]]; then w=$(( BASH_REMATCH[1] + 1 )); fi
  if ! grep -qxF "$name $w" <<< "$decl"; then
    echo "gtkw_fits: $gtkw names $name ($w bits), which $vcd does not declare"; missing=$((missing + 1))
  fi
done < "$gtkw"
if [ "$missing" -ne 0 ] || [ "$n" -eq 0 ]; then echo "gtkw_fits: FAIL ($missing of $n signals missing)"; exit 1; fi
echo "gtkw_fits: all $n signals of $gtkw are in $vcd, same paths and widths"
