#!/usr/bin/env bash
# Runs every mutant of a mutant list against the lockstep: a mutant is killed when some test
# fails on it. Mutant 0 (no mutation) must pass everything, or the check itself is broken.
# usage: mutants.sh LOCKSTEP_BINARY MUTANT_LIST BLOCK
set -uo pipefail
bin=$1; list=$2; blk=$3
tests=(startup packets credit parity escape disconnect credit_rx credit_tx proto timeout cut abort link_en)
run_all() { # $1 = mutant; prints the killing test, returns 0 if killed
  local t
  for t in "${tests[@]}"; do
    "$bin" --test "$t" --seed 1 "+mutant=$1" >/dev/null 2>&1 || { echo "$t"; return 0; }
  done
  "$bin" --test random --seed 11 --cycles 60000 "+mutant=$1" >/dev/null 2>&1 || { echo random; return 0; }
  "$bin" --test faults --seed 12 --cycles 100000 "+mutant=$1" >/dev/null 2>&1 || { echo faults; return 0; }
  return 1
}
if killer=$(run_all 0); then
  echo "$blk mutants: the unmutated build fails test $killer; fix that first"; exit 1
fi
n=0; killed=0; survivors=()
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  n=$((n + 1))
  desc=${line##*@@}; desc=$(echo "$desc" | sed 's/^ *//')
  if killer=$(run_all "$n"); then
    killed=$((killed + 1)); printf '  mutant %2d killed by %-10s %s\n' "$n" "$killer" "$desc"
  else
    survivors+=("$n"); printf '  mutant %2d SURVIVED            %s\n' "$n" "$desc"
  fi
done < "$list"
echo "$blk mutants: killed $killed of $n"
[ "$killed" -eq "$n" ] && [ "$n" -ge 10 ]
