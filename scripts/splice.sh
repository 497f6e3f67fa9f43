#!/usr/bin/env bash
# Replaces the lines between "<!-- NAME:begin -->" and "<!-- NAME:end -->" in FILE with stdin.
# usage: splice.sh FILE NAME < content
set -euo pipefail
file=$1; name=$2
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
cat > "$tmp.new"
grep -q "<!-- $name:begin -->" "$file" || { echo "splice: no $name markers in $file" >&2; exit 1; }
awk -v b="<!-- $name:begin -->" -v e="<!-- $name:end -->" -v new="$tmp.new" '
  index($0, b) { print; while ((getline l < new) > 0) print l; skip = 1; next }
  index($0, e) { skip = 0 }
  !skip { print }' "$file" > "$tmp"
cp "$tmp" "$file"; rm -f "$tmp.new"
echo "splice: updated $name in $file"
