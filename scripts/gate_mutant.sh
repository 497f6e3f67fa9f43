#!/usr/bin/env bash
# The gate-level lockstep's own check (make gate-mutant-BLOCK): a bench built with the netlist of
# a mutated RTL (one hand-written mutant, folded in by synthesis) must fail, or the gate runs
# would pass any netlist. Runs each RUN (its arguments, word-split, with +no_backdoor) until one
# fails with exit 1 (a mismatch or failed check); exit 2 (a usage error) is an error, not a kill.
# usage: gate_mutant.sh BINARY LIST K RUN...   (LIST's mutant K: its K-th line that is not a comment)
set -uo pipefail
[ $# -ge 4 ] || { echo "usage: gate_mutant.sh BINARY LIST K RUN..." >&2; exit 2; }
bin=$1 list=$2 k=$3; shift 3
desc=$(awk -v k="$k" -F'@@' '{ sub(/^[ \t]+/, "") } !/^#/ && NF { if (++n == k) { print $1 "--" $4; exit } }' "$list")
[ -n "$desc" ] || { echo "gate_mutant: $list has no mutant $k" >&2; exit 2; }
desc=$(echo "$desc" | sed 's/ *-- */: /')
for r in "$@"; do
  # shellcheck disable=SC2086
  out=$("$bin" $r +no_backdoor 2>&1); rc=$?
  case $rc in
    0) ;;
    1) echo "gate mutant $k ($desc) killed by: $r"
       # the first mismatch line (if a compare failed, not a check) and the verdict
       echo "$out" | grep -m1 'MISMATCH'
       echo "$out" | grep -m1 'FAILED' || echo "$out" | tail -1
       exit 0 ;;
    *) echo "gate_mutant: $bin $r: exit $rc (not a lockstep failure)"; echo "$out" | tail -5; exit 1 ;;
  esac
done
echo "gate mutant $k ($desc) SURVIVED every run: the gate lockstep did not see it"
exit 1
