#!/usr/bin/env bash
# Reruns the unsettled survivors of a Yosys mutant run (scripts/mutants_yosys.sh run) through a
# bench built since, on the same netlist: after new stimulus, only they need the runs again. Each one
# killed now becomes "killed" in DIR/results.csv, its killing run marked "(rescore)"; the list of
# what was rerun and when goes to DIR/rescore.txt. `mutants_yosys.sh report` then writes the
# summary (FORMAL_RESUME=1 keeps the proofs' verdicts).
# usage: ymut_rescore.sh DIR BINARY RUN...
set -euo pipefail
# shellcheck source=scripts/killing_run.sh
. "$(dirname "$0")/killing_run.sh"
dir=$1 bin=$2; shift 2
[ -s "$dir/results.csv" ] || { echo "ymut_rescore: no $dir/results.csv" >&2; exit 2; }
if r=$(killing_run "$bin" 0 "$@"); then
  echo "ymut_rescore: the unmutated netlist fails run '$r'; the flow is broken" >&2; exit 1
fi
# (not those a proof or tb/ymut_equivalent.txt has settled: the formal column says so)
mapfile -t surv < <(awk -F, '$2 == "survived" && $4 !~ /^"?(proved|argued)/ { print $1 }' "$dir/results.csv")
echo "rescore $(date -u +%FT%TZ): ${#surv[@]} survivors, ${#@} runs each" >> "$dir/rescore.txt"
for k in "${surv[@]}"; do
  if r=$(killing_run "$bin" "$k" "$@"); then
    printf '  mutant %3d killed   %s (rescore)\n' "$k" "$r" | tee -a "$dir/rescore.txt"
    awk -F, -v OFS=, -v k="$k" -v r="$r (rescore)" '$1 == k { $2 = "killed"; $3 = "\"" r "\""; $4 = "" } 1' \
      "$dir/results.csv" > "$dir/results.csv.tmp" && mv "$dir/results.csv.tmp" "$dir/results.csv"
  else
    printf '  mutant %3d survived\n' "$k" | tee -a "$dir/rescore.txt"
  fi
done
