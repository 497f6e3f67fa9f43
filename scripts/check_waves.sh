#!/usr/bin/env bash
# The merged wave a failing lockstep run writes by itself (docs/waves.md), checked on a mutant:
# the first of mutants 1..MAX_K that a run catches with a LOCKSTEP MISMATCH must leave a merged
# VCD (and, with an FST writer built in, FST, read back through build/fst2vcd) that parses (1 ns,
# <blk>_tb with rtl, model and mismatch scopes, every RTL signal with its model twin, every compared
# one with its mismatch bit), whose mismatch bit of the reported signal and mismatch.any rise at
# the reported cycle with the RTL and model values the report printed, and a .gtkw with the
# mismatch bits on top, each model signal under its RTL twin and the marker at that cycle. The
# unmutated build must pass and write nothing; a copy of the file without the mismatch bit's rise
# must be rejected (the check can fail). The same mutant with --waves: the whole run's merged wave.
# usage: check_waves.sh BENCH FST2VCD OUTDIR 'RUN ARGS'   e.g. build/vl/dslink_mut/Vdslink
#        build/fst2vcd build/waves-check '--test random --seed 11 --cycles 60000' (FST2VCD -: no FST)
#    or: check_waves.sh --log LOG OUTDIR   the same checks of the merged VCD a failing run of a
#        demonstration (the SystemC DS-Link, the DPI shadow: docs/waves.md) printed in LOG, after
#        its first LOCKSTEP MISMATCH or DPI MISMATCH line (DPI: sig=<name> dut=0x.. model=0x..)
set -uo pipefail
usage() {
  echo "usage: check_waves.sh BENCH FST2VCD OUTDIR 'RUN ARGS' | check_waves.sh --log LOG OUTDIR" >&2
  exit 2
}
if [ "${1:-}" = --log ]; then
  [ $# -eq 3 ] || usage
  log=$2; out=$3
  [ -f "$log" ] || { echo "check_waves: no log $log" >&2; exit 2; }
else
  [ $# -eq 4 ] || usage
  bin=$1; fst2vcd=$2; out=$3; args=$4
fi
MAX_K=${MAX_K:-30}
fail() { echo "check_waves: FAIL: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out/whole" || exit 1
out=$(cd "$out" && pwd)

# check_vcd VCD TOP CYCLE SIG RTLHEX MODELHEX: the structure and the rise (prints what is wrong).
check_vcd() {
  awk -v top="$2" -v T="$(( $3 * 10 ))" -v sig="$4" -v want_r="$5" -v want_m="$6" '
    function bin(hex,   b, i, d, tab) {  # hex digits or a VCD binary value -> binary without leading 0s
      split("0000 0001 0010 0011 0100 0101 0110 0111 1000 1001 1010 1011 1100 1101 1110 1111", tab, " ")
      b = ""
      for (i = 1; i <= length(hex); i++) { d = index("0123456789abcdef", substr(tolower(hex), i, 1)); b = b tab[d] }
      return norm(b)
    }
    function norm(b) { sub(/^0+/, "", b); return b == "" ? "0" : b }
    function bad(m) { print "  " m; errs++ }
    function snap() { if (t == T && !snapped) { snapped = 1; sr = cur[rid]; sm = cur[mid]; sb = cur[bid] } }
    BEGIN { t = -1; gsub(/\[/, "(", sig); gsub(/\]/, ")", sig) }
    /^\$timescale/ { ts = 1 }
    ts { for (i = 1; i <= NF; i++) if ($i != "$timescale" && $i != "$end") tsv = tsv $i; if (/\$end/) ts = 0; next }
    $1 == "$scope" { path[++depth] = $3; if (depth == 1) first = $3; next }
    $1 == "$upscope" { depth--; next }
    $1 == "$var" { p = ""; for (i = 1; i <= depth; i++) p = p path[i] "."; id[p $5] = $4; w[p $5] = $3; names[++nv] = p $5; next }
    $1 == "$enddefinitions" {
      defs = 1
      rid = id[top ".rtl." sig]; mid = id[top ".model." sig]; bid = id[top ".mismatch." sig]; aid = id[top ".mismatch.any"]
      next
    }
    !defs { next }
    /^#/ { snap(); t = substr($0, 2) + 0; next }
    /^b/ { v = norm(substr($1, 2)); i = $2 }
    /^[01xz]/ { v = substr($0, 1, 1); i = substr($0, 2) }
    /^[b01xz]/ {
      cur[i] = v
      if (v == "1" && !(i in rise)) rise[i] = t
    }
    END {
      snap()
      if (tsv != "1ns") bad("timescale " tsv ", not 1ns")
      if (first != top) bad("top scope " first ", not " top)
      for (k = 1; k <= nv; k++) {
        n = names[k]
        if (index(n, top ".model.") == 1) nm++
        if (index(n, top ".mismatch.") == 1) nb++
        if (index(n, top ".rtl.") != 1) continue
        nr++; s = substr(n, length(top ".rtl.") + 1)
        if (!((top ".model." s) in w) || w[top ".model." s] != w[n]) bad("no model twin of width " w[n] " for rtl." s)
        if (s !~ /_i(\([0-9]+\))?$/ && w[top ".mismatch." s] != 1) bad("no 1-bit mismatch." s)
      }
      if (!nr || nr != nm || !nb) bad("scopes: " nr " rtl, " nm " model, " nb " mismatch signals")
      if (bid == "" || rid == "" || mid == "") { bad("no rtl/model/mismatch signal " sig); exit 1 }
      if (!(bid in rise) || rise[bid] != T) bad("mismatch." sig " rises at " (bid in rise ? rise[bid] : "no time") ", not " T)
      if (!(aid in rise) || rise[aid] != T) bad("mismatch.any rises at " (aid in rise ? rise[aid] : "no time") ", not " T)
      if (sr != bin(want_r) || sm != bin(want_m)) bad("at " T ": rtl " sr " model " sm ", the report: " bin(want_r) " " bin(want_m))
      if (sb != "1") bad("mismatch." sig " is " sb " at " T)
      if (errs) exit 1
      printf "  %s: %d signals a side, %d mismatch bits; mismatch.%s and any rise at %d ns\n", FILENAME, nr, nb, sig, T
    }' "$1"
}

# check_gtkw GTKW DUMP TOP CYCLE: dump file, marker, mismatch bits first, model under rtl.
check_gtkw() {
  awk -v dump="$2" -v top="$3" -v T="$(( $4 * 10 ))" '
    function bad(m) { print "  " m; errs++ }
    /^\[dumpfile\]/ { d = $2; gsub(/"/, "", d); if (d != dump) bad("[dumpfile] " d ", not " dump); next }
    /^\*/ { if ($2 != T) bad("marker at " $2 ", not " T); mk = 1; next }
    /^[\[@*-]/ { next }
    {
      n++
      if (n == 1 && $0 != top ".mismatch.any") bad("first trace " $0 ", not mismatch.any")
      if (index($0, top ".mismatch.") == 1 && seen_other) bad("mismatch trace " $0 " below other traces")
      if (index($0, top ".mismatch.") != 1) seen_other = 1
      if (index($0, top ".model.") == 1) {
        pairs++
        s = substr($0, length(top ".model.") + 1)
        if (prev != top ".rtl." s) bad($0 " not under its rtl twin (above it: " prev ")")
      }
      prev = $0
    }
    END {
      if (!mk) bad("no marker line")
      if (!pairs) bad("no model traces")
      if (errs) exit 1
      printf "  %s: marker at %d ns, %d rtl/model pairs\n", FILENAME, T, pairs
    }' "$1"
}

# parse_line LINE: blk, cyc, sig, rv, mv from a LOCKSTEP MISMATCH (rtl=) or DPI MISMATCH (dut=) line.
parse_line() {
  blk=$(sed -n 's/.* blk=\([^ ]*\) .*/\1/p' <<< "$1")
  cyc=$(sed -n 's/.* cycle=\([0-9]*\) .*/\1/p' <<< "$1")
  sig=$(sed -n 's/.* sig=\([^ ]*\) .*/\1/p' <<< "$1")
  rv=$(sed -n 's/.* \(rtl\|dut\)=0x\([0-9a-fA-F]*\) .*/\2/p' <<< "$1")
  mv=$(sed -n 's/.* model=0x\([0-9a-fA-F]*\).*/\1/p' <<< "$1")
  if [ -z "$blk" ] || [ -z "$cyc" ] || [ -z "$sig" ] || [ -z "$rv" ] || [ -z "$mv" ]; then
    fail "cannot parse: $1"
  fi
}

# check_run FORMAT LOG: the file the run printed, in FORMAT, checked (an FST file through fst2vcd).
check_run() {
  local fmt=$1 log=$2 path gtkw vcd
  path=$(sed -n 's/^.*: merged wave (.*): \(.*\), view: gtkwave \(.*\)$/\1/p' "$log")
  gtkw=$(sed -n 's/^.*: merged wave (.*): \(.*\), view: gtkwave \(.*\)$/\2/p' "$log")
  if [ -z "$path" ] || [ ! -f "$path" ]; then
    fail "$fmt: the failing run printed no merged wave path, or it is missing (see $log)"
  fi
  [ "${path##*.}" = "$fmt" ] || fail "$fmt: the run wrote $path"
  [ -f "$gtkw" ] || fail "$fmt: no save file $gtkw"
  vcd=$path
  if [ "$fmt" = fst ]; then
    vcd=$out/from_fst.vcd
    "$fst2vcd" "$path" > "$vcd" || fail "fst: $fst2vcd cannot read $path"
  fi
  check_vcd "$vcd" "${blk}_tb" "$cyc" "$sig" "$rv" "$mv" || fail "$fmt: $path"
  check_gtkw "$gtkw" "$(cd "$(dirname "$path")" && pwd)/$(basename "$path")" "${blk}_tb" "$cyc" || fail "$fmt: $gtkw"
}

# reject_corrupt VCD: the check must reject a copy whose mismatch bit does not rise at the
# reported cycle.
reject_corrupt() {
  local bid
  bid=$(awk -v n="${blk}_tb" -v s="$(tr '[]' '()' <<< "$sig")" '
    $1 == "$scope" { p[++d] = $3 } $1 == "$upscope" { d-- }
    $1 == "$var" { q = ""; for (i = 1; i <= d; i++) q = q p[i] "."; if (q $5 == n ".mismatch." s) { print $4; exit } }' "$1")
  awk -v id="$bid" -v T="#$((cyc * 10))" '$0 == T { at = 1 } /^#/ && $0 != T { at = 0 } !(at && $0 == "1" id)' \
    "$1" > "$out/corrupt.vcd"
  if check_vcd "$out/corrupt.vcd" "${blk}_tb" "$cyc" "$sig" "$rv" "$mv" > "$out/corrupt.log"; then
    fail "a copy without mismatch.$sig's rise passed the check"
  fi
  echo "  a copy without the rise is rejected: $(head -1 "$out/corrupt.log" | sed 's/^ *//')"
}

if [ "${1:-}" = --log ]; then
  line=$(grep -m1 -E '^(LOCKSTEP|DPI) MISMATCH' "$log") || fail "no LOCKSTEP or DPI MISMATCH line in $log"
  parse_line "$line"
  echo "check_waves: $line"
  check_run vcd "$log"
  reject_corrupt "$(sed -n 's/^.*: merged wave (.*): \(.*\), view: .*$/\1/p' "$log")"
  echo "check_waves: ok"
  exit 0
fi

# A matched run writes no merged wave.
# shellcheck disable=SC2086
"$bin" $args --wave-dir "$out" +mutant=0 > "$out/mutant0.log" 2>&1 || fail "the unmutated build fails $args (see $out/mutant0.log)"
for f in "$out"/*; do
  [[ $f == *.log || $f == "$out/whole" ]] || fail "a matched run wrote $f"
done

# The first mutant a run catches with a mismatch.
k=0; line=""
for ((i = 1; i <= MAX_K; i++)); do
  # shellcheck disable=SC2086
  "$bin" $args --wave-dir "$out" "+mutant=$i" > "$out/vcd.log" 2>&1
  rc=$?
  line=$(grep -m1 '^LOCKSTEP MISMATCH' "$out/vcd.log")
  [ $rc -eq 1 ] && [ -n "$line" ] && { k=$i; break; }
done
[ $k -gt 0 ] || fail "none of mutants 1..$MAX_K fails $args with a LOCKSTEP MISMATCH"
parse_line "$line"
echo "check_waves: mutant $k: $line"

check_run vcd "$out/vcd.log"
reject_corrupt "$(sed -n 's/^.*: merged wave (.*): \(.*\), view: .*$/\1/p' "$out/vcd.log")"

# With --waves the merged wave is the whole run's, written as it goes: the same checks.
# shellcheck disable=SC2086
"$bin" $args --wave-dir "$out/whole" --waves "+mutant=$k" > "$out/whole.log" 2>&1 < /dev/null
[ $? -eq 1 ] || fail "--waves: mutant $k did not fail the same way (see $out/whole.log)"
grep -q 'merged wave (.*the whole run' "$out/whole.log" || fail "--waves: no whole-run merged wave line"
check_run vcd "$out/whole.log"

if [ "$fst2vcd" != - ]; then
  # shellcheck disable=SC2086
  "$bin" $args --wave-dir "$out" --wave-format fst "+mutant=$k" > "$out/fst.log" 2>&1
  [ $? -eq 1 ] || fail "fst: mutant $k did not fail the same way (see $out/fst.log)"
  check_run fst "$out/fst.log"
else
  echo "  FST not checked: the Makefile found no Verilator fstapi (FST_SRC_DIR)"
fi
echo "check_waves: ok"
