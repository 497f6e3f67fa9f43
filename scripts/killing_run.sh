# Sourced by the mutant runners (mutants.sh, mutants_yosys.sh): the one rule of a mutant's death.
# killing_run BINARY K RUN...: runs BINARY once per RUN (its arguments, word-split) with +mutant=K,
# in the order given; prints the first run that fails and returns 0 (killed), or returns 1.
killing_run() {
  local bin=$1 k=$2 r
  shift 2
  for r in "$@"; do
    # shellcheck disable=SC2086
    "$bin" $r "+mutant=$k" >/dev/null 2>&1 || { echo "$r"; return 0; }
  done
  return 1
}
