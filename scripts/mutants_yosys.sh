#!/usr/bin/env bash
# Netlist-level mutation of one block with Yosys's `mutate` pass (the flow of YosysHQ's mcy):
# N sampled mutations compiled into one netlist selected at run time by +mutant=K, run against the
# block's lockstep testbench, and every survivor given to a Yosys equivalence proof.
# usage:
#   mutants_yosys.sh gen DIR TOP 'MODS' N SEED 'YOSYS_SETUP' 'WRAP_PARAMS' RTL...
#     reads RTL, runs YOSYS_SETUP (e.g. chparam), elaborates TOP with its hierarchy kept, samples
#     N mutations among the cells of the modules MODS (each with all its parametrised variants)
#     and writes DIR/base.il (the elaborated design), DIR/list.txt (one `mutate` line per mutant,
#     line K = mutant K, each in its module), DIR/netlist.v (every module of the design, each
#     mutation applied once inside its module, selected by the input mutsel that runs from the
#     top module TOP_ymut down to every mutated module) and DIR/wrapper.sv (module TOP with TOP's
#     ports and the parameters of WRAP_PARAMS, which it ignores: the netlist was elaborated with
#     the parameters of YOSYS_SETUP; mutsel from +mutant=K).
#   mutants_yosys.sh run DIR BLOCK TOP LOCKSTEP_BINARY 'ARGS1' 'ARGS2' ...
#     runs mutant 0 (must pass all) and mutants 1..N through the runs in order (killed by the first
#     failing one), tries to prove each survivor equivalent, and writes DIR/results.csv and
#     DIR/summary.md. FORMAL=0 skips the proofs; FORMAL_TIMEOUT (s, default 300) bounds each,
#     FORMAL_SEQ (default 1) is its induction length, FORMAL_JOBS (default 1) run at once.
set -euo pipefail
# shellcheck source=scripts/killing_run.sh
. "$(dirname "$0")/killing_run.sh"

gen() {
  local dir=$1 top=$2 mods=$3 n=$4 seed=$5 setup=$6 wparams=$7; shift 7
  mkdir -p "$dir"
  rm -rf "$dir/struct"  # the structural proofs' elaborations of the last sample's design
  # One design with its hierarchy kept (base.il) serves the list, the netlist and the proofs, so
  # a mutate line's module and cell names are the same in all three.
  # YMUT_LIB: RTL read as black boxes (a network's chip or switch): the netlist leaves them out
  # and keeps its instances of them, parameters and all, for the bench to build from the RTL.
  local lib=""
  [ -z "${YMUT_LIB:-}" ] || lib="read_verilog -sv -lib ${YMUT_LIB}; "
  yosys -q -l "$dir/gen.log" -p "${lib}read_verilog -sv $*; $setup; prep -top $top; write_rtlil $dir/base.il"
  # The modules of base.il (a parametrised one is $paramod\M\P=V or $paramod$hash\M), each with
  # its source module's name M, and its instances (parent, cell, type), as RTLIL names.
  awk '
    function srcname(m) {
      if (m ~ /^\$paramod\$/) { sub(/^[^\\]*\\/, "", m); return m }
      if (m ~ /^\$paramod\\/) { sub(/^\$paramod\\/, "", m); sub(/\\.*/, "", m); return m }
      sub(/^\\/, "", m); return m
    }
    /^attribute \\blackbox 1$/ { bb = 1; next }
    /^module / { mod = $2; if (!bb) print "M", mod, srcname(mod); bb = 0 }
    /^  cell / && mod != "" { print "C", mod, $3, $2 }
    /^end$/ { mod = "" }' "$dir/base.il" > "$dir/hier.txt"
  # The modules whose cells are sampled: every variant of each module named in MODS.
  local sel=() m
  for m in $mods; do
    mapfile -t -O "${#sel[@]}" sel < <(awk -v m="$m" '$1 == "M" && $3 == m { print $2 }' "$dir/hier.txt")
    if ! awk -v m="$m" '$1 == "M" && $3 == m { f = 1 } END { exit !f }' "$dir/hier.txt"; then
      echo "mutants-yosys: no module $m under $top" >&2; exit 1
    fi
  done
  printf 'read_rtlil %s\nmutate -list %s -seed %s -o %s/list.txt %s\n' "$dir/base.il" "$n" "$seed" \
    "$dir" "${sel[*]}" > "$dir/list.ys"
  yosys -q -l "$dir/list.log" -s "$dir/list.ys"
  if [ ! -s "$dir/list.txt" ]; then echo "mutants-yosys: no mutation in $mods" >&2; exit 1; fi
  local w=1
  while [ $((1 << w)) -le "$n" ]; do w=$((w + 1)); done
  { echo "read_rtlil $dir/base.il"
    # Each mutation inside its module (-module of the line), so it applies to every instance of
    # that module, as a bug in its source would; `mutate -ctrl` adds the input mutsel to it.
    awk -v w="$w" '{ print $0 " -ctrl mutsel " w " " NR }' "$dir/list.txt"
    # mutsel from the top down every instance path to each mutated module: the mutated modules
    # and their ancestors get the input mutsel, and each instance of one of them inside another
    # has it connected to its parent's.
    awk -v w="$w" -v top="$top" '
      function bare(m) { sub(/^\\/, "", m); return m }
      FNR == NR { for (i = 1; i < NF; i++) if ($i == "-module") need[$(i + 1)] = 1; next }
      $1 == "M" { mods[++nm] = $2 }
      $1 == "C" { nc++; cp[nc] = $2; cn[nc] = $3; ct[nc] = $4 }
      END {
        do { ch = 0
          for (i = 1; i <= nc; i++) if (bare(ct[i]) in need && !(bare(cp[i]) in need)) { need[bare(cp[i])] = 1; ch = 1 }
        } while (ch)
        for (i = 1; i <= nm; i++) if (bare(mods[i]) in need) print "add -input mutsel " w " " mods[i]
        for (i = 1; i <= nc; i++) if (bare(ct[i]) in need)
          printf "cd %s\nconnect -port %s mutsel mutsel\ncd ..\n", cp[i], cn[i]
      }' "$dir/list.txt" "$dir/hier.txt"
    # Bit-level nets: a mutation that feeds one bit of a vector into another of the same vector
    # (cnot) is a vector-level combinational loop, which Verilator 5.006 then evaluates wrongly
    # even for mutant 0 (dslink, seed 1, mutant 195: 12 of 13 directed cases failed unmutated).
    # pmuxtree: write_verilog writes a $pmux as a function, which Verilator copies into every
    # use of each bit of its result once the nets are split (c104_cfg: 161 MB of C++).
    echo "opt_clean; pmuxtree; splitnets"
    # Every module of the netlist named <M>_ymut (<M>_ymut_<i> for the i-th variant of a
    # parametrised M), so that it neither clashes with the RTL of a bench nor needs escaping;
    # rename leaves the instances' types, chtype sets them.
    awk -v top="$top" '
      $1 == "M" && $2 != "\\" top { k[$3]++; nm++; old[nm] = $2; src[nm] = $3 }
      END {
        for (i = 1; i <= nm; i++) {
          new = src[i] "_ymut" (k[src[i]] > 1 ? "_" ++j[src[i]] : "")
          printf "rename %s %s\nchtype -set %s t:%s\n", old[i], new, new, old[i]
        }
      }' "$dir/hier.txt"
    echo "rename $top ${top}_ymut; write_verilog -noattr $dir/netlist.v"
  } > "$dir/apply.ys"
  yosys -q -l "$dir/apply.log" -s "$dir/apply.ys"
  # The wrapper's ports: the header of module TOP_ymut, each with its module-level declaration
  # (two-space indent; function arguments are indented further).
  awk -v top="$top" -v wparams="$wparams" -v w="$w" '
    $0 ~ "^module " top "_ymut[ (]" { hdr = 1; intop = 1 }
    !intop { next }
    hdr { line = line $0; if ($0 ~ /\);/) hdr = 0; next }
    /^  (input|output|inout) / { d = $0; sub(/^  /, "", d); sub(/;$/, "", d)
      nm = d; sub(/.* /, "", nm); decl[nm] = d }
    /^endmodule/ { exit }
    END {
      sub(/^[^(]*\(/, "", line); sub(/\);.*/, "", line); gsub(/[ \t]/, "", line)
      np = split(line, ports, ",")
      printf "// Generated by scripts/mutants_yosys.sh: %s with the Yosys mutants of %s_ymut, mutant K\n", top, top
      printf "// selected by +mutant=K (0: none).\n"
      printf "module %s %s(\n", top, wparams == "" ? "" : "#(" wparams ") "
      sep = ""
      for (i = 1; i <= np; i++) {
        if (ports[i] == "mutsel") continue
        d = decl[ports[i]]; sub(/^(input|output|inout)/, "& wire", d)
        printf "%s  %s", sep, d; sep = ",\n"
        conn = conn sprintf("    .%s(%s),\n", ports[i], ports[i])
      }
      printf "\n);\n  /* verilator lint_off UNUSEDPARAM */\n  int unsigned sel;\n"
      printf "  initial if (!$value$plusargs(\"mutant=%%d\", sel)) sel = 0;\n"
      printf "  %s_ymut u_mut (\n%s    .mutsel(%d\047(sel))\n  );\nendmodule\n", top, conn, w
    }' "$dir/netlist.v" > "$dir/wrapper.sv"
  echo "mutants-yosys: $(wc -l < "$dir/list.txt") mutations of $mods under $top (seed $seed) in $dir/netlist.v ($(du -k "$dir/netlist.v" | cut -f1) kB)"
}

# One survivor's proof with Yosys's equivalence flow: the flattened design (gold) against the
# design flattened after only mutation K was applied inside its module, so in each of its
# instances (gate), every net of the same name paired by equiv_make, merged
# where structurally equal (equiv_struct), proved by equiv_simple and then by temporal induction
# (equiv_induct, FORMAL_SEQ steps). The asynchronous reset is made synchronous (async2sync),
# memories become flip-flops, and every output port gets a buffer of its own (insbuf), so that an
# output is paired under its own name. Both copies start from the same reset state, the base case
# equiv_induct leaves to the user. Every pair is proved assuming the others hold, so only a result
# with no unproven pair is a proof. The mutated net itself is often such a pair (it differs, but
# the difference is masked): a net whose pair is unproven and that is no output is then left
# unpaired (equiv_make -blacklist) and the proof run again, up to three rounds. Prints the verdict.
prove_one() {
  local dir=$1 top=$2 k=$3 line ys log rc outs round bl nun nout v
  line=$(sed -n "${k}p" "$dir/list.txt")
  # A network (YMUT_LIB: its elements black boxes here): first the structural proof, which sees
  # into the elements as instantiated (scripts/ymut_struct.py).
  if [ -n "${YMUT_LIB:-}" ]; then
    v=$(python3 "$(dirname "$0")/ymut_struct.py" "$dir" "$YMUT_LIB" "$line") || v=""
    if [ -n "$v" ]; then echo "$v"; return; fi
  fi
  bl=$dir/formal/m$k.blacklist
  : > "$bl"
  outs=$(awk '/^  output / { n = $NF; sub(/,$/, "", n); print n }' "$dir/wrapper.sv" | paste -sd'|')
  for round in 1 2 3; do
    ys=$dir/formal/m$k.$round.ys; log=$dir/formal/m$k.$round.log
    cat > "$ys" <<YS
read_rtlil $dir/base.il
$line
hierarchy -top $top
flatten
rename $top gate
design -stash mutated
read_rtlil $dir/base.il
hierarchy -top $top
flatten
rename $top gold
design -copy-from mutated -as gate gate
memory_map
opt_clean
async2sync
insbuf o:*
equiv_make -blacklist $bl gold gate eq
hierarchy -top eq
equiv_struct
equiv_simple
equiv_induct -seq ${FORMAL_SEQ:-1}
equiv_status
YS
    rc=0
    timeout "${FORMAL_TIMEOUT:-300}" yosys -q -l "$log" -s "$ys" >/dev/null 2>&1 || rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q "Of those cells" "$log"; then
      echo "not proved (timeout ${FORMAL_TIMEOUT:-300} s or error, round $round)"; return
    fi
    nun=$(grep -c "Unproven \$equiv" "$log" || true)
    if [ "$nun" -eq 0 ]; then
      if [ -s "$bl" ]; then
        echo "proved equivalent ($(paste -sd' ' "$bl") unpaired)"
      else
        echo "proved equivalent"
      fi
      return
    fi
    nout=$(grep "Unproven \$equiv" "$log" | grep -cE "\\\\($outs)_gold( |\\[|\$)" || true)
    if [ "$nout" -gt 0 ]; then
      echo "not proved ($nout output bits unproven)"; return
    fi
    # The unproven nets' names (\name_gold [bit]) onto the blacklist.
    grep "Unproven \$equiv" "$log" | sed -n 's/.*: \\\([^ ]*\)_gold.*/\1/p' | sort -u >> "$bl"
  done
  echo "not proved ($nun internal net bits unproven after 3 rounds)"
}

# prove DIR TOP K [verdict]: the verdict on stdout, or into DIR/formal/mK.verdict.
prove() {
  mkdir -p "$1/formal"
  # FORMAL_RESUME=1 keeps the verdicts of an interrupted run.
  if [ "${4:-}" = verdict ] && [ "${FORMAL_RESUME:-0}" = 1 ] && [ -s "$1/formal/m$3.verdict" ]; then return; fi
  if [ "${4:-}" = verdict ]; then prove_one "$1" "$2" "$3" > "$1/formal/m$3.verdict"; else prove_one "$1" "$2" "$3"; fi
}

run() {
  local dir=$1 blk=$2 top=$3 bin=$4; shift 4
  local runs=("$@") t0 killer n killed=0 k line status
  t0=$(date +%s)
  run_all() { killing_run "$bin" "$1" "${runs[@]}"; }
  if killer=$(run_all 0); then
    echo "$blk mutants-yosys: the unmutated netlist fails run '$killer'; the flow is broken"; exit 1
  fi
  n=$(wc -l < "$dir/list.txt")
  echo "mutant,status,killed_by,formal,mode,cell,port,portbit,src,line" > "$dir/results.csv"
  for ((k = 1; k <= n; k++)); do
    line=$(sed -n "${k}p" "$dir/list.txt")
    if killer=$(run_all "$k"); then
      killed=$((killed + 1)); status=killed
    else
      killer=; status=survived
    fi
    printf '  mutant %3d %-8s %s\n' "$k" "$status" "${killer:-}"
    echo "$k,$status,\"$killer\",,$(fields "$line")" >> "$dir/results.csv"
  done
  echo "${#runs[@]} $(( $(date +%s) - t0 ))" > "$dir/sim.txt"
  report "$dir" "$blk" "$top"
}

# Proofs of the survivors of results.csv (unless FORMAL=0), their verdicts into its formal column,
# and the markdown summary.
report() {
  local dir=$1 blk=$2 top=$3 k t1 v line surv=() proved=0 n killed nruns tsim
  mapfile -t surv < <(awk -F, '$2 == "survived" { print $1 }' "$dir/results.csv")
  n=$(awk -F, 'NR > 1' "$dir/results.csv" | wc -l)
  killed=$(awk -F, '$2 == "killed"' "$dir/results.csv" | wc -l)
  read -r nruns tsim < "$dir/sim.txt"
  t1=$(date +%s)
  if [ "${FORMAL:-1}" = 1 ] && [ "${#surv[@]}" -gt 0 ]; then
    # FORMAL_JOBS proofs at a time, each verdict into formal/m<K>.verdict.
    printf "%s\n" "${surv[@]}" | xargs -P "${FORMAL_JOBS:-1}" -I{} "$0" prove "$dir" "$top" {} verdict
    echo "$(( $(date +%s) - t1 ))" > "$dir/formal/time.txt"
  fi
  # The verdicts into the CSV; with FORMAL=0, those of an earlier (perhaps interrupted) run.
  for k in "${surv[@]}"; do
    [ -s "$dir/formal/m$k.verdict" ] || continue
    v=$(cat "$dir/formal/m$k.verdict")
    printf "  survivor %3d: %s\n" "$k" "$v"
    awk -F, -v OFS=, -v k="$k" -v v="$v" '$1 == k { $4 = "\"" v "\"" } 1' \
      "$dir/results.csv" > "$dir/results.csv.tmp" && mv "$dir/results.csv.tmp" "$dir/results.csv"
  done
  local tf; tf=$(cat "$dir/formal/time.txt" 2>/dev/null || echo "?")
  verdict() { awk -F, -v k="$1" '$1 == k { v = $4; gsub(/"/, "", v); print (v == "" ? "not tried" : v) }' "$dir/results.csv"; }
  # A survivor no proof settled, argued equivalent in tb/ymut_equivalent.txt.
  local argued=0 why
  for k in "${surv[@]}"; do
    case "$(verdict "$k")" in proved*) proved=$((proved + 1)); continue ;; esac
    why=$(argued_reason "$blk" "$(sed -n "${k}p" "$dir/list.txt")")
    [ -n "$why" ] || continue
    argued=$((argued + 1))
    # (the reason is not in the CSV, whose reader splits at every comma; the table prints it)
    awk -F, -v OFS=, -v k="$k" -v v="argued equivalent" '$1 == k { $4 = "\"" v "\"" } 1' \
      "$dir/results.csv" > "$dir/results.csv.tmp" && mv "$dir/results.csv.tmp" "$dir/results.csv"
  done
  local score adj eq=$((proved + argued))
  score=$(awk -v a="$killed" -v b="$n" 'BEGIN { printf "%.1f", 100 * a / b }')
  adj=$(awk -v a="$killed" -v b="$n" -v e="$eq" 'BEGIN { printf "%.1f", (b > e) ? 100 * a / (b - e) : 100 }')
  {
    echo "### $blk: Yosys mutants (N=$n, seed ${SEED:-1})"
    echo
    echo "Killed $killed of $n ($score %); ${#surv[@]} survived, $proved of them proved equivalent and"
    echo "$argued argued equivalent (tb/ymut_equivalent.txt): $killed of $((n - eq)) possibly non-equivalent"
    echo "mutants killed ($adj %)."
    echo "$nruns runs per mutant (the first failing run kills); simulation $tsim s, proofs $tf s."
    echo
    if [ "${#surv[@]}" -gt 0 ]; then
      echo "| mutant | formal | mode | cell | port | bit | source |"
      echo "|---|---|---|---|---|---|---|"
      for k in "${surv[@]}"; do
        line=$(sed -n "${k}p" "$dir/list.txt")
        IFS=$'\x1f' read -r mode cell port bit src _ <<< "$(fields "$line" us)"
        v=$(verdict "$k")
        [ "$v" != "argued equivalent" ] || v="argued equivalent: $(argued_reason "$blk" "$line")"
        echo "| $k | $v | $mode | \`$cell\` | $port | $bit | $src |"
      done
    fi
  } > "$dir/summary.md"
  cat "$dir/summary.md"
  echo "$blk mutants-yosys: killed $killed of $n ($score %), survivors ${#surv[@]}, proved equivalent $proved, argued $argued: $adj % of the possibly non-equivalent"
}

# The reason tb/ymut_equivalent.txt gives for block $1's mutate line $2 (nothing if none): its key
# is the mutated module, the cell without the $flatten\<instance>. prefix, the port, bit, mode and
# control bit.
argued_reason() {
  local f; f="$(dirname "$0")/../tb/ymut_equivalent.txt"
  [ -f "$f" ] || return 0
  awk -v blk="$1" -v line="$2" '
    BEGIN {
      n = split(line, w, " ")
      for (i = 1; i < n; i++) {
        if (w[i] == "-mode") mode = w[i + 1]; else if (w[i] == "-cell") cell = w[i + 1]
        else if (w[i] == "-module") mod = w[i + 1]
        else if (w[i] == "-port") port = w[i + 1]; else if (w[i] == "-portbit") bit = w[i + 1]
        else if (w[i] == "-ctrlbit") ctrl = w[i + 1]
      }
      sub(/^\$flatten\\.*\.\$/, "$", cell)
      key = mod " | " cell " | " port " " bit " " mode (ctrl == "" ? "" : " " ctrl)
      FS = " [|] "
    }
    /^#/ || NF < 5 { next }
    $1 == blk && $2 " | " $3 " | " $4 == key { print $5; exit }' "$f"
}

# The fields of one mutate line: mode,cell,port,portbit,"src src ...","whole line" (CSV), or
# separated by the unit separator, without quotes, when $2 is us.
fields() {
  local sep=, q='"'
  if [ "${2:-}" = us ]; then sep=$'\x1f'; q=; fi
  awk -v q="$q" -v s="$sep" '{
    mode = cell = port = bit = src = ""
    for (i = 1; i < NF; i++) {
      if ($i == "-mode") mode = $(i + 1)
      else if ($i == "-cell") cell = $(i + 1)
      else if ($i == "-port") port = $(i + 1)
      else if ($i == "-portbit") bit = $(i + 1)
      else if ($i == "-src") src = src (src == "" ? "" : " ") $(i + 1)
    }
    if (q != "") gsub(q, "", $0)
    printf "%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s\n", mode, s, cell, s, port, s, bit, s, q, src, q, s, q, $0, q
  }' <<< "$1"
}

cmd=$1; shift
case "$cmd" in
  gen) gen "$@" ;;
  run) run "$@" ;;
  prove) prove "$@" ;;
  report) report "$@" ;;
  *) echo "usage: mutants_yosys.sh gen|run|report|prove ..." >&2; exit 2 ;;
esac
