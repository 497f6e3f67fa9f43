#!/usr/bin/env bash
# The table that ends `make test`: one row per block, one column per part, each cell the verdict
# and time of the part's targets (from scripts/logged.sh's status files). Exits 1 if any part
# failed or never ran.
# usage: test_report.sh LOGDIR BLOCK:PART:TARGET ...
set -uo pipefail
dir=$1; shift
parts=(unit lint synth ports lockstep mutants gate waves fuzz systemc paper)
# A part no column names yet (install, ...) gets a column of its own after these.
for spec in "$@"; do
  IFS=: read -r _ part _ <<<"$spec"
  [[ " ${parts[*]} " == *" $part "* ]] || parts+=("$part")
done
declare -A cell_rc cell_s
blocks=()
fails=0; total=0
for spec in "$@"; do
  IFS=: read -r blk part tgt <<<"$spec"
  [[ " ${blocks[*]} " == *" $blk "* ]] || blocks+=("$blk")
  total=$((total + 1))
  if { read -r rc secs < "$dir/$tgt.status"; } 2>/dev/null; then :; else rc=missing; secs=0; fi
  if [ "$rc" != 0 ]; then
    fails=$((fails + 1))
    if [ "$rc" = missing ]; then echo "== $tgt: did not run (no $dir/$tgt.status)"; fi
  fi
  k="$blk/$part"
  cell_s[$k]=$(( ${cell_s[$k]:-0} + secs ))
  if [ "$rc" != 0 ]; then cell_rc[$k]=FAIL; else cell_rc[$k]=${cell_rc[$k]:-pass}; fi
done
printf '\n%-12s' block; printf ' %-13s' "${parts[@]}"; printf '\n'
for blk in "${blocks[@]}"; do
  printf '%-12s' "$blk"
  for part in "${parts[@]}"; do
    k="$blk/$part"
    if [ -n "${cell_rc[$k]:-}" ]; then printf ' %-13s' "${cell_rc[$k]} $(printf '%4d s' "${cell_s[$k]}")"
    else printf ' %-13s' -; fi
  done
  printf '\n'
done
if [ "$fails" -eq 0 ]; then
  echo "make test: all passed ($total parts; logs in $dir/)"
else
  echo "make test: $fails of $total parts FAILED; each part's whole output is in $dir/<target>.log"
  exit 1
fi
