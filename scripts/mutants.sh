#!/usr/bin/env bash
# Runs every mutant of a mutant list against the lockstep: a mutant is killed when some test
# fails on it. Mutant 0 (no mutation) must pass everything, or the check itself is broken.
# usage: mutants.sh LOCKSTEP_BINARY MUTANT_LIST BLOCK 'ARGS1' 'ARGS2' ...
#   each ARGS is one run of the binary (e.g. '--test packets --seed 1'); a mutant is killed by the
#   first run that fails, in the order given.
set -uo pipefail
bin=$1; list=$2; blk=$3; shift 3
runs=("$@")
# shellcheck source=scripts/killing_run.sh
. "$(dirname "$0")/killing_run.sh"
run_all() { killing_run "$bin" "$1" "${runs[@]}"; }
if killer=$(run_all 0); then
  echo "$blk mutants: the unmutated build fails test $killer; fix that first"; exit 1
fi
n=0; killed=0; survivors=()
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  n=$((n + 1))
  desc=${line##*@@}; desc=$(echo "$desc" | sed 's/^ *//')
  if killer=$(run_all "$n"); then
    killed=$((killed + 1)); printf '  mutant %2d killed by %-28s %s\n' "$n" "$killer" "$desc"
  else
    survivors+=("$n"); printf '  mutant %2d SURVIVED %-28s %s\n' "$n" "" "$desc"
  fi
done < "$list"
echo "$blk mutants: killed $killed of $n"
[ "$killed" -eq "$n" ] && [ "$n" -ge "${MUT_MIN:-10}" ]
