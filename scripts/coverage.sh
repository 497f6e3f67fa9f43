#!/usr/bin/env bash
# Runs one block's coverage build with the stimulus of its make-test target, each run into its own
# .dat, then merges them (merged.dat) and annotates the RTL (annotate/) for docs/coverage.md.
# usage: coverage.sh BLOCK BINARY 'ARGS1' 'ARGS2' ...   (each ARGS one run, as for mutants.sh)
# Writes next to BINARY: dat/NNN.dat, log/NNN.log, runs.tsv (args, status, seconds), run.sec.
# A failing run is recorded and the rest still run (its coverage is lost: it writes no .dat);
# the script then fails, so `make coverage` does too.
set -uo pipefail
blk=$1; bin=$2; shift 2
dir=$(dirname "$bin")
rm -rf "$dir/dat" "$dir/log" "$dir/annotate" "$dir/merged.dat"
mkdir -p "$dir/dat" "$dir/log"
: > "$dir/runs.tsv"
t0=$(date +%s); n=0; bad=0
for r in "$@"; do
  n=$((n + 1)); id=$(printf '%03d' "$n")
  s=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$bin" $r "+cov_dat=$dir/dat/$id.dat" > "$dir/log/$id.log" 2>&1; rc=$?
  e=$(date +%s.%N)
  sec=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.1f", e - s }')
  if [ "$rc" -eq 0 ] && [ -s "$dir/dat/$id.dat" ]; then st=ok; else st="FAILED($rc)"; bad=$((bad + 1)); fi
  printf '%s\t%s\t%s\n' "$r" "$st" "$sec" >> "$dir/runs.tsv"
  printf '  %s cov %-40s %s %ss\n' "$blk" "$r" "$st" "$sec"
done
shopt -s nullglob
dats=("$dir"/dat/*.dat)
[ "${#dats[@]}" -gt 0 ] || { echo "$blk coverage: no run wrote coverage"; exit 1; }
verilator_coverage --write "$dir/merged.dat" "${dats[@]}" > "$dir/log/merge.log" 2>&1 ||
  { cat "$dir/log/merge.log"; exit 1; }
verilator_coverage --annotate "$dir/annotate" --annotate-min 1 "$dir/merged.dat" \
  > "$dir/log/annotate.log" 2>&1 || { cat "$dir/log/annotate.log"; exit 1; }
echo "$(( $(date +%s) - t0 ))" > "$dir/run.sec"
echo "$blk coverage: $n runs ($bad failed) in $(cat "$dir/run.sec") s, $dir/merged.dat"
[ "$bad" -eq 0 ]
