#!/usr/bin/env bash
# Command-line checks of build/madpost: usage errors exit 2 with a message naming the problem;
# the per-hop command's zero-load figures and formats; the network simulator's options and files.
set -uo pipefail
bin=${1:-build/madpost}
fails=0
expect() { # expect CODE PATTERN -- ARGS...: exit code and a pattern in stdout+stderr
  local code=$1 pat=$2; shift 3
  local out rc
  out=$(timeout 60 "$bin" "$@" 2>&1 </dev/null); rc=$? # a hang is a failure too (exit 124)
  if [ "$rc" != "$code" ] || ! grep -q -- "$pat" <<<"$out"; then
    echo "FAIL: madpost $* -> exit $rc (want $code), output lacks '$pat':"; echo "$out" | head -5
    fails=$((fails + 1))
  fi
}
expect 2 "unknown command" -- nosuch
expect 2 "required" -- hop --src 1,1
expect 2 "outside the 4x4 mesh" -- hop --src 0,0 --dst 4,0
expect 2 "same node" -- hop --src 2,2 --dst 2,2
expect 2 "not a number in 1..32" -- hop --mesh 33x4 --src 0,0 --dst 1,1
expect 2 "not of the form" -- hop --src 00 --dst 1,1
expect 2 "is not static or adaptive" -- hop --src 0,0 --dst 1,1 --type fast
expect 2 "not a number" -- hop --src 0,0 --dst 1,1 --len 0
expect 2 "unknown option" -- hop --src 0,0 --dst 1,1 --bogus 1
expect 2 "unknown option" -- meshbench --bogus 1
# zero-load figures (docs/mp1_draft4.md §11): straight hops of 1 cycle, t = d + 3F - 1 + (S - 1)
# with no turn term (22 = 5 + 18 - 1; 301 = 5 + 294 - 1 + 3), data intact; the first header
# chunk on the injection channel at cycle 6 (selection 1-3, its EOS 4, the header after one idle
# chunk, §10.1), a turn 3 + 1 cycles
expect 0 "measured 17: matches" -- hop --src 0,0 --dst 3,0 --len 4
expect 0 "measured 22: matches" -- hop --src 0,0 --dst 3,2 --len 4
expect 0 "measured 301: matches" -- hop --src 0,0 --dst 3,2 --len 96
expect 0 '"delay":1,"dead":0' -- hop --src 0,0 --dst 3,3 --format json
expect 0 "^1,0,0,X,straight,7,7,8,1,0,0$" -- hop --src 0,0 --dst 3,0 --format csv
expect 0 "^3,0,0,X,turn,9,12,13,4,0,0$" -- hop --src 0,0 --dst 3,2 --format csv
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect 0 "data intact" -- hop --src 0,0 --dst 2,2 --vcd "$tmp/p.vcd"
grep -q 'n0_x0_y0' "$tmp/p.vcd" || { echo "FAIL: no path scope in the VCD"; fails=$((fails + 1)); }
expect 1 "cannot write" -- hop --src 0,0 --dst 2,2 --vcd /nonexistent/dir/p.vcd
# the network simulator: usage errors name the problem and exit 2; parameters echoed
expect 2 "unknown parameter 'bogus'" -- sim --bogus 1
expect 0 "usage: madpost sim" -- sim --help
expect 0 "--loads FROM:TO:STEP" -- sweep --help
expect 2 "routing: 'fast' is not one of" -- sim --routing fast
expect 2 "expected --KEY VALUE" -- sim --mesh
expect 2 "transpose needs a square" -- sim --mesh 8x4 --traffic transpose
expect 2 "is not of the form KXxKY" -- sim --mesh 8
# address words (docs/mp1.md §14): auto takes two flits beyond 32 nodes a side; one flit cannot
# name them; the effective value is echoed
expect 2 "address-flits 1: the 40x4 mesh needs addresses up to 39, but 1-flit addresses reach 31" \
  -- sim --mesh 40x4 --address-flits 1
expect 2 "address-flits 1: the 17x4 torus needs addresses up to 33" \
  -- sim --mesh 17x4 --topology torus --address-flits 1
expect 2 "address-flits: '3' is not one of auto|1|2" -- sim --address-flits 3
expect 2 "not a whole number in 2..8192" -- sim --mesh 8193x4
expect 2 "at most 4096x4096" -- sim --mesh 4097x4 --topology torus
expect 0 "mesh=40x3 address-flits=2 routing" -- sim --mesh 40x3 --load 5 --warmup 100 --measure 300 --seeds 1
expect 0 '"mesh":"4x4","address-flits":2,' -- sim --mesh 4x4 --address-flits 2 --load 5 --warmup 100 --measure 300 --seeds 1 --format json
printf '[network]\nmesh = 4x4\nspeed = 9\n' > "$tmp/bad.ini"
expect 2 "bad.ini: line 3: unknown parameter 'speed'" -- sim --config "$tmp/bad.ini"
expect 2 "cannot open" -- sim --config "$tmp/none.ini"
printf '[network]\nmesh = 4x4\n[run]\nseeds = 1\nwarmup = 100\nmeasure = 400\n' > "$tmp/ok.ini"
expect 0 '"mesh":"4x4","address-flits":1,"routing":"adaptive"' -- sim --config "$tmp/ok.ini" --load 5 --format json
expect 0 "mesh=4x4 address-flits=1 routing=oblivious" -- sim --config "$tmp/ok.ini" --routing oblivious --load 5
# drained runs past saturation lose nothing with the interfaces' window on (its default,
# docs/mp1_draft4.md §10.4): a machine raises stop while a blocked message still arrives (§6), and
# on a torus the chips that skipped a message skip its window successor too (§10.2)
for args in "--mesh 8x8 --routing adaptive --load 100" "--mesh 4x4 --topology torus --load 120"; do
  # shellcheck disable=SC2086
  expect 0 "corrupt 0, dropped by chips 0, left in queues 0, in the network 0" -- \
    sim $args --warmup 300 --measure 1500 --drain 100000 --seeds 1
done
# the owned-but-waiting figures in every format and the channel file's columns (mp1_sim.md §4)
expect 0 "^  util_wait_max  " -- sim --config "$tmp/ok.ini" --load 5
expect 0 '"util_wait_mean":{"mean":' -- sim --config "$tmp/ok.ini" --load 5 --format json --channels "$tmp/ch.csv"
grep -q '^x,y,plane,dim,crossings,busy,dead,wait,wait_stopped$' "$tmp/ch.csv" ||
  { echo "FAIL: --channels CSV lacks the wait columns"; fails=$((fails + 1)); }
expect 2 "--out DIR is required" -- sweep --mesh 4x4
expect 2 "is not FROM:TO:STEP" -- sweep --mesh 4x4 --loads 5-10 --out "$tmp"
expect 0 "2 points" -- sweep --config "$tmp/ok.ini" --loads 5:10:5 --out "$tmp/sw" --name t --plots no
head -5 "$tmp/sw/t.csv" | grep -q '^5,0,' || { echo "FAIL: sweep CSV lacks the 5% row"; fails=$((fails + 1)); }
grep -q '"saturation_load":10' "$tmp/sw/t.json" || { echo "FAIL: sweep JSON"; fails=$((fails + 1)); }
w=',util_dead_mean_ci95,util_wait_mean,util_wait_mean_ci95,util_wait_max,util_wait_max_ci95,'
grep -q -- "$w" "$tmp/sw/t.csv" || { echo "FAIL: sweep CSV lacks the util_wait columns"; fails=$((fails + 1)); }
# C104 networks (docs/c104.md §17): bad options exit 2 naming the problem; a small grid conserves
expect 0 "usage: madpost c104net" -- c104net --help
expect 2 "unknown option '--bogus'" -- c104net --bogus 1
expect 2 "expected --KEY VALUE" -- c104net --grid
expect 2 "topology: 'ring' is not one of" -- c104net --topology ring
expect 2 "grid: '4by4' is not of the form WxH" -- c104net --grid 4by4
expect 2 "grid: '33x2' is not of the form WxH" -- c104net --grid 33x2
expect 2 "universal: 'yes' is not on or off" -- c104net --universal yes
expect 2 "arb: 'lru' is not fifo or rr" -- c104net --arb lru
expect 2 "grid-links: '3' is not a whole number in 1..2" -- c104net --grid-links 3
expect 2 "grid links 1 with universal routing" -- c104net --grid-links 1 --universal on
expect 2 "pattern: 'random' is not one of" -- c104net --pattern random
expect 2 "load: '-5' is not a number" -- c104net --load -5
expect 2 "qlimit: '0' is not a whole number" -- c104net --qlimit 0
expect 2 "hotspot needs all-to-all" -- c104net --topology puma --pattern hotspot
expect 2 "universal routing needs the grid or puma" -- c104net --topology pair --universal on
expect 2 "transpose needs a square" -- c104net --grid 4x2 --pattern transpose
expect 2 "format: 'xml' is not" -- c104net --format xml
expect 0 "traffic conserved, no errors" -- c104net --grid 3x3 --load 30 --warmup 500 --measure 2000
expect 0 "topology=grid grid=3x3 grid-links=2 switches=1 universal=on arb=rr pattern=local" -- c104net --grid 3x3 --universal on --arb rr --pattern local --load 30 --warmup 500 --measure 2000
expect 0 '"conserved":true' -- c104net --grid 2x2 --load 30 --warmup 200 --measure 1500 --seeds 2 --format json
expect 0 "^seed,generated,accepted" -- c104net --topology line --switches 2 --load 50 --warmup 200 --measure 2000 --format csv
# the figures of docs/c104.md §18.2 and §18.3 (madpost c104transit, c104cost): usage errors exit 2
# naming the option; key measured values held so a change to the model breaks the test
expect 0 "usage: madpost c104transit" -- c104transit --help
expect 0 "usage: madpost c104cost" -- c104cost --help
expect 2 "unknown option '--bogus'" -- c104transit --bogus 1
expect 2 "max-bytes: '65' is not a whole number in 0..64" -- c104transit --max-bytes 65
expect 2 "max-bytes: 'x' is not a whole number" -- c104transit --max-bytes x
expect 2 "format: 'xml' is not table, csv or json" -- c104transit --format xml
expect 2 "expected --KEY VALUE" -- c104transit --max-bytes
expect 2 "unknown option '--bogus'" -- c104cost --bogus 1
expect 2 "hbytes: '3' is not a whole number in 1..2" -- c104cost --hbytes 3
expect 2 "smax: '99' is not a whole number in 0..20" -- c104cost --smax 99
expect 2 "format: 'xml' is not table, csv or json" -- c104cost --format xml
expect 0 "per C104 (intercepts): ours 160.0 ns" -- c104transit
expect 0 '"command":"c104transit"' -- c104transit --max-bytes 2 --format json
expect 0 "measured s = 5 (T_p 377.50 > 345.50)" -- c104cost --hbytes 2 --smax 6
out=$("$bin" c104transit --format csv 2>&1) || { echo "FAIL: c104transit csv exit $?"; fails=$((fails + 1)); }
for want in '^transit,direct,0,0,fresh,transit,cycles,17,$' '^transit,c104,1,0,fresh,transit,cycles,33,$' \
    '^transit,two_c104,2,6,fresh,transit,cycles,109,$' '^transit,direct,0,3,max4,transit,cycles,51,$' \
    '^transit,c104,1,6,fresh,transit,ns,930,962$' '^fit,direct,0,,fresh,slope,ns/byte,100,100$' \
    '^throughput,direct,0,0,back_to_back,period,cycles,39,$' '^throughput,c104,1,0,back_to_back,period,cycles,71,$'; do
  grep -q -- "$want" <<<"$out" || { echo "FAIL: c104transit csv lacks $want"; fails=$((fails + 1)); }
done
out=$("$bin" c104cost --smax 10 --format csv 2>&1) || { echo "FAIL: c104cost csv exit $?"; fails=$((fails + 1)); }
for want in '^figure,h,bytes,s,n,c,quantity,unit,value$' '^tp,1,32,0,,,measured,cycles,335$' \
    '^tp,1,32,8,,,measured,cycles,335$' '^tp,1,32,10,,,measured,cycles,375$' \
    '^tp,1,1,4,,,measured,cycles,171$' '^crossover,1,32,9,,,measured,switches,9$' \
    '^crossover,1,32,,,,eq2_model,switches,9.625$' '^crossover,1,32,,,,eq2_002,switches,1.35$' \
    '^tm,1,32,12,4096,,T_m_ack,cycles,56192$' '^channels,1,32,9,,,c_min_measured,channels,2$' \
    '^channels,1,32,16,,2,throughput,bytes/us,9.55224$'; do
  grep -q -- "$want" <<<"$out" || { echo "FAIL: c104cost csv lacks $want"; fails=$((fails + 1)); }
done
# ---- bad input (issue 16, docs/hardening.md): each class gets a clear error, never a shell,
# a hang or silent loss
abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
# 1. no user string reaches a shell: quotes in --out and --name are only names
small=(--mesh 4x4 --warmup 100 --measure 300 --seeds 1)
mkdir -p "$tmp/sh"
(cd "$tmp/sh" && timeout 60 "$abs" sweep "${small[@]}" --loads 5:5:5 --out "o'; touch X; echo '" \
  >/dev/null 2>&1)
[ -e "$tmp/sh/X" ] && { echo "FAIL: sweep --out ran a shell command"; fails=$((fails + 1)); }
(cd "$tmp/sh" && timeout 60 "$abs" sweep "${small[@]}" --loads 5:5:5 --out "q\"\$(touch Y)\`touch Z\`" \
  --name "a'b" >/dev/null 2>&1)
[ -e "$tmp/sh/Y" ] || [ -e "$tmp/sh/Z" ] && { echo "FAIL: sweep --out ran a command"; fails=$((fails + 1)); }
for f in "o'; touch X; echo '/sweep_latency.png" "q\"\$(touch Y)\`touch Z\`/a'b_latency.svg"; do
  [ -s "$tmp/sh/$f" ] || { echo "FAIL: sweep with quotes lacks $f"; fails=$((fails + 1)); }
done
# 2. the README's sweep (oblivious: gnuplot warns of the adaptations plot's empty y range) exits
# 0 with every file written and non-empty; a failing gnuplot is an error naming it
if command -v gnuplot >/dev/null; then
  expect 0 "plots: " -- sweep "${small[@]}" --routing oblivious --loads 5:10:5 --out "$tmp/plot" --name obl
  for t in latency util adapt buffers queue injdelay; do
    for e in png svg; do
      [ -s "$tmp/plot/obl_$t.$e" ] || { echo "FAIL: sweep plot obl_$t.$e missing or empty"; fails=$((fails + 1)); }
    done
  done
  grep -q "obl.csv" "$tmp/plot/obl.gp" && { echo "FAIL: the plot script holds a path"; fails=$((fails + 1)); }
else
  echo "FAIL: gnuplot is not installed (scripts/deps.sh gnuplot-nox): the plotting path is untested"
  fails=$((fails + 1))
fi
mkdir -p "$tmp/nognuplot"; printf '#!/bin/sh\nexit 1\n' > "$tmp/nognuplot/gnuplot"; chmod +x "$tmp/nognuplot/gnuplot"
out=$(timeout 60 env PATH="$tmp/nognuplot" "$abs" sweep "${small[@]}" --loads 5:5:5 --out "$tmp/pf" 2>&1); rc=$?
{ [ "$rc" = 1 ] && grep -q "gnuplot failed (exit 1)" <<<"$out"; } ||
  { echo "FAIL: a failing gnuplot -> exit $rc: $out"; fails=$((fails + 1)); }
out=$(timeout 60 env PATH="$tmp/none" "$abs" sweep "${small[@]}" --loads 5:5:5 --out "$tmp/pn" 2>&1); rc=$?
{ [ "$rc" = 1 ] && grep -q "scripts/deps.sh gnuplot-nox" <<<"$out" && [ -s "$tmp/pn/sweep.csv" ]; } ||
  { echo "FAIL: no gnuplot -> exit $rc: $out"; fails=$((fails + 1)); }
grep -q '^/out/$' "$(dirname "$0")/../.gitignore" || { echo "FAIL: out/ not in .gitignore"; fails=$((fails + 1)); }
# 3. numbers: one parser, no sign, space, hex, NaN or infinity, no wrap-around, documented ranges
sw=(sweep "${small[@]}" --plots no --out "$tmp/n")
expect 2 "loads: 'nan:nan:1' is not FROM:TO:STEP" -- "${sw[@]}" --loads nan:nan:1
expect 2 "loads: '2000:2000:1' is not FROM:TO:STEP (percent, 0..1000" -- "${sw[@]}" --loads 2000:2000:1
expect 2 "loads: '5:inf:5' is not" -- "${sw[@]}" --loads 5:inf:5
expect 2 "loads: '0x5:10:5' is not" -- "${sw[@]}" --loads 0x5:10:5
expect 2 "loads: '0:1000:1' is not FROM:TO:STEP" -- "${sw[@]}" --loads 0:1000:1  # 1001 points
expect 0 "highest load without queue overflow: none (the lowest, 900%, overflowed)" -- \
  sweep "${small[@]}" --queue 1 --load 1 --loads 900:900:1 --after 0 --plots no --out "$tmp/sat" --name s
grep -q '"saturation_load":null' "$tmp/sat/s.json" || { echo "FAIL: saturation load of an all-saturated sweep"; fails=$((fails + 1)); }
expect 2 "grid: '4294967298x4294967298' is not of the form WxH" -- c104net --grid 4294967298x4294967298
expect 2 "grid: '4x 4' is not of the form WxH" -- c104net --grid "4x 4"
expect 2 "grid: '+4x+4' is not of the form WxH" -- c104net --grid +4x+4
expect 2 "seed: ' -1' is not a whole number" -- c104net --seed " -1"
expect 2 "iat: '0x10' is not a number" -- c104net --iat 0x10
expect 2 "seed: ' -1' is not a whole number" -- sim --seed " -1"
expect 2 "seed: '+1' is not a whole number" -- sim --seed +1
expect 2 "load: '0x10' is not a number" -- sim --load 0x10
expect 2 "load: 'nan' is not a number" -- sim --load nan
expect 2 "mesh (KX): '4 ' is not a whole number" -- sim --mesh "4 x4"
expect 2 "warmup: '1099511627776' is not a whole number in 0..1000000000" -- sim --warmup 1099511627776
expect 2 "seed: '18446744073709551616' is not a whole number" -- sim --seed 18446744073709551616
expect 2 "seed 18446744073709551615 with 2 seeds: the last, seed + seeds - 1, passes 2^64 - 1" -- sim --seed 18446744073709551615 --seeds 2
expect 2 "seed 18446744073709551614 with 3 seeds: the last" -- c104net --seed 18446744073709551614 --seeds 3
expect 2 "mesh: '+4' is not a number" -- hop --mesh +4x4 --src 0,0 --dst 1,1
expect 2 "seed: ' 1' is not a number" -- hop --src 0,0 --dst 1,1 --seed " 1"
expect 2 "min: '0x1' is not a number" -- linkbw --min 0x1
expect 2 "cycles: '+1000000' is not a number" -- linkbench --cycles +1000000
expect 2 "cycles: ' 100' is not a number" -- meshbench --cycles " 100"
for c in sim sweep c104net; do
  for r in "--warmup CYCLES (.*0..1000000000)" "--seeds RUNS (.*1..[0-9]" "--load PERCENT.*0..1000"; do
    expect 0 "$r" -- $c --help
  done
done
expect 0 "--burst MEAN (4, 1..1000)" -- sim --help
expect 0 "--after K (1, 0..100" -- sweep --help
expect 0 "--grid WxH (4x4, 1..32 each)" -- c104net --help
expect 0 "--messages N (default 200, 10..100000)" -- help
# 4. configuration files: file, line and reason for every malformed line; only regular files
{ printf '[traffic]\n; '; printf 'x%.0s' {1..200}; printf ' load = 90\n'; } > "$tmp/long.ini"
expect 2 "long.ini: line 2: longer than 197 characters" -- sim --config "$tmp/long.ini" "${small[@]}"
printf '[network]\nmesh = 4x4\nspeed = 1\nfoo = 2\n' > "$tmp/two.ini"
expect 2 "two.ini: line 3: unknown parameter 'speed'$" -- sim --config "$tmp/two.ini"
printf '[traffic]\nload = 5\n  6\n' > "$tmp/cont.ini"
expect 2 "cont.ini: line 3: an indented line (continuation lines are not supported)" -- sim --config "$tmp/cont.ini"
printf '[traffic]\nload 5\n' > "$tmp/noeq.ini"
expect 2 "noeq.ini: line 2: not of the form key = value" -- sim --config "$tmp/noeq.ini"
printf '[traffic\nload = 5\n' > "$tmp/sect.ini"
expect 2 "sect.ini: line 1: not of the form \[section\]" -- sim --config "$tmp/sect.ini"
printf '[run]\nseeds = 1\0\nwarmup = 5\n' > "$tmp/nul.ini"
expect 2 "nul.ini: line 2: a NUL byte" -- sim --config "$tmp/nul.ini"
printf '[traffic]\nload = 5\nload = 6\n' > "$tmp/dup.ini"
expect 2 "dup.ini: line 3: 'load' is given twice" -- sim --config "$tmp/dup.ini"
expect 2 "not a regular file (a directory)" -- sim --config "$tmp" "${small[@]}"
expect 2 "/dev/zero: not a regular file" -- sim --config /dev/zero
mkfifo "$tmp/fifo"
expect 2 "fifo: not a regular file" -- sim --config "$tmp/fifo"
# 5. every write is checked: a failure exits 1 naming the file; one file for two outputs is refused
expect 1 "trace: cannot write /dev/full" -- sim "${small[@]}" --trace /dev/full
expect 1 "channels: cannot write /dev/full" -- sim "${small[@]}" --channels /dev/full
expect 1 "cannot write /dev/full" -- hop --src 0,0 --dst 2,2 --vcd /dev/full
expect 2 "--trace and --channels name the same file" -- sim "${small[@]}" --trace "$tmp/same.csv" --channels "$tmp/./same.csv"
expect 2 "--trace and --config name the same file" -- sim "${small[@]}" --config "$tmp/ok.ini" --trace "$tmp/ok.ini"
mkdir -p "$tmp/cfg"; cp "$tmp/ok.ini" "$tmp/cfg/s.csv"
expect 2 "--out and --config name the same file" -- sweep --config "$tmp/cfg/s.csv" --out "$tmp/cfg" --name s --plots no
for args in "sim ${small[*]}" "hop --src 0,0 --dst 2,2" "c104net --grid 2x2 --warmup 100 --measure 500" \
    "linkbw --max 2 --messages 10" "c104transit --max-bytes 1" "c104cost --smax 2" "sweep --help"; do
  # shellcheck disable=SC2086
  out=$(timeout 60 "$bin" $args 2>&1 >/dev/full); rc=$?
  { [ "$rc" = 1 ] && grep -q "cannot write standard output" <<<"$out"; } ||
    { echo "FAIL: madpost $args > /dev/full -> exit $rc: $out"; fails=$((fails + 1)); }
done
# 6. memory (issue 16 item 6): a run that cannot fit says so and how much it would take, before
# it allocates anything (so no leak under ASan either); a failed allocation names memory too
# ASan reserves terabytes of address space (grep -c reads all of nm's output: with -q, nm's
# SIGPIPE would fail the pipeline under pipefail)
asan=0; nm "$bin" 2>/dev/null | grep -c __asan_init >/dev/null && asan=1
big() { # big ARGS...: expect ARGS... within 4 GB of address space (unless ASan): a binary that
  # would allocate such a run fails here rather than filling the machine (main's did)
  local before=$fails
  ( [ "$asan" = 1 ] || ulimit -v 4000000; expect "$@"; [ "$fails" = "$before" ] ) || fails=$((fails + 1))
}
# without --channels the run needs no per-channel sums: only the model's bytes a node count
big 1 "not enough memory: a 8192x8192 mesh needs about [0-9.]* GiB ([0-9]* bytes a node), this machine" -- sim --mesh 8192x8192
big 1 "not enough memory: a 8192x8192 mesh needs about .* for --channels" -- sim --mesh 8192x8192 --channels "$tmp/big.csv"
[ ! -e "$tmp/big.csv" ] || { echo "FAIL: a refused run made its --channels file"; fails=$((fails + 1)); }
big 1 "not enough memory: a 4096x4096 torus" -- sweep --mesh 4096x4096 --topology torus --out "$tmp/big"
big 1 "not enough memory" -- simbench --mesh 8192x8192
if [ "$asan" = 1 ]; then # the --channels sums refused by ASan's allocator: no leak (main's leaked the point)
  before=$fails
  ( export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=50"
    expect 1 "out of memory: --channels' sums" -- sim --mesh 1024x1024 --seeds 1 --warmup 0 --measure 1 --channels "$tmp/big2.csv"
    [ "$fails" = "$before" ] ) || fails=$((fails + 1))
fi
if [ "$asan" = 0 ]; then
  out=$(ulimit -v 3000000; "$bin" sim --mesh 2048x2048 --seeds 1 --warmup 0 --measure 1 2>&1); rc=$?
  { [ "$rc" = 1 ] && grep -q "out of memory: cannot allocate a 2048x2048 chip mesh (the run needs about [0-9.]* GiB)" <<<"$out"; } ||
    { echo "FAIL: sim --mesh 2048x2048 in 3 GB -> exit $rc: $out"; fails=$((fails + 1)); }
fi
c104small=(--warmup 200 --measure 800)
# 7. options that would do nothing are refused, not echoed as if in effect (issue 16 item 7)
expect 2 "hot-node and hot-frac: only with traffic hotspot (traffic is uniform)" -- sim --hot-node 5 "${small[@]}"
expect 2 "hot-node and hot-frac: only with traffic hotspot" -- sim --traffic local --hot-frac 0.5 "${small[@]}"
expect 2 "bcast-src and bcast-size: only with traffic broadcast" -- sim --bcast-size 4 "${small[@]}"
expect 2 "torus-inject: only with topology torus" -- sim --torus-inject fixed "${small[@]}"
expect 2 "burst: only with arrival bursty (arrival is exponential)" -- sim --burst 8 "${small[@]}"
expect 2 "mode sync: load, warmup, measure, arrival and burst do nothing" -- sim --mode sync --traffic transpose --drain 1000 --load 50
expect 2 "mode sync: load, warmup" -- sim --mode sync --traffic transpose --drain 1000 --warmup 100
expect 2 "sweep: mode sync: a load sweep needs mode async" -- sweep --mode sync --traffic transpose --drain 1000 --out "$tmp/s"
expect 2 "grid-links: only with topology grid (topology is puma)" -- c104net --topology puma --grid-links 2 "${c104small[@]}"
expect 2 "grid: only with topology grid (topology is line)" -- c104net --topology line --grid 8x8 "${c104small[@]}"
expect 2 "switches: only with topology line (topology is grid)" -- c104net --switches 3 "${c104small[@]}"
expect 2 "hot-node and hot-frac: only with pattern hotspot" -- c104net --hot-node 3 "${c104small[@]}"
expect 2 "burst: only with arrival bursty" -- c104net --burst 8 "${c104small[@]}"
expect 2 "load and iat: iat 100 overrides load" -- c104net --iat 100 --load 50 "${c104small[@]}"
expect 2 "bg-len and --seed: only with background traffic" -- hop --src 0,0 --dst 1,1 --bg-len 8
expect 2 "bg-len and --seed: only with background traffic" -- hop --src 0,0 --dst 1,1 --seed 5
expect 2 "simbench: --seeds 2: simbench times one run" -- simbench --seeds 2 "${small[@]}"
expect 2 "simbench: --format csv: simbench times one run" -- simbench --format csv --mesh 4x4
expect 0 '"mesh":"4x4"' -- simbench --seeds 1 --mesh 4x4 --warmup 10 --measure 10 --format json
expect 0 "hot-node=5 hot-frac=0.5" -- sim --mesh 4x4 --traffic hotspot --hot-node 5 --hot-frac 0.5 --warmup 100 --measure 200 --seeds 1
expect 0 "arrival=bursty burst=8" -- sim --mesh 4x4 --arrival bursty --burst 8 --warmup 100 --measure 200 --seeds 1
# 8. help and conventions (issue 16 item 8): --help exits 0 everywhere; a version; linkbw's bit
# periods all run; linkbench's cycles are whole millions; one naming convention (sim's names,
# c104net's old ones kept); c104net reads a config file; one run says it has no CI; units
for c in linkbw linkbench hop meshbench sim sweep simbench c104net c104transit c104cost; do
  expect 0 "usage: madpost" -- $c --help
  expect 0 "usage: madpost" -- $c -h
done
expect 0 "^madpost [0-9][0-9.]*$" -- --version
expect 0 "^ *0 | " -- linkbw --bit-period 247 --max 0 --messages 10
expect 0 "^ *1 | " -- linkbw --bit-period 18 --max 1 --messages 10
expect 2 "bit-period: '248' is not a number in 1..247" -- linkbw --bit-period 248
expect 0 "bit-period B (cycles per bit,\$" -- help
expect 2 "cycles: 1999999 is not a whole number of millions" -- linkbench --cycles 1999999
a=$("$bin" c104net --grid 3x3 --pattern local --msg-len 16 "${c104small[@]}" --format csv 2>/dev/null)
b=$("$bin" c104net --mesh 3x3 --traffic local --length 16 "${c104small[@]}" --format csv 2>/dev/null)
{ [ -n "$a" ] && [ "$a" = "$b" ]; } || { echo "FAIL: c104net's aliases --mesh, --traffic, --length differ from --grid, --pattern, --msg-len"; fails=$((fails + 1)); }
printf '[network]\nmesh = 3x3\n[traffic]\ntraffic = local\nlength = 16\n[run]\nwarmup = 200\nmeasure = 800\n' > "$tmp/c104.ini"
b=$("$bin" c104net --config "$tmp/c104.ini" --format csv 2>/dev/null)
[ "$a" = "$b" ] || { echo "FAIL: c104net --config differs from the same options"; fails=$((fails + 1)); }
expect 0 "grid=3x3 .* pattern=local" -- c104net --config "$tmp/c104.ini"
expect 0 "grid=2x2 .* pattern=uniform" -- c104net --config "$tmp/c104.ini" --grid 2x2 --pattern uniform
printf '[network]\ngrid = 3x3\nmesh = 2x2\n' > "$tmp/c104dup.ini"
expect 2 "c104dup.ini: line 3: 'mesh' is given twice" -- c104net --config "$tmp/c104dup.ini"
printf '[run]\nload = 5\n' > "$tmp/c104sec.ini"
expect 2 "c104sec.ini: line 2: 'load' belongs in section \[traffic\], not \[run\]" -- c104net --config "$tmp/c104sec.ini"
printf '[traffic]\nspeed = 5\n' > "$tmp/c104unk.ini"
expect 2 "c104unk.ini: line 2: unknown parameter 'speed'" -- c104net --config "$tmp/c104unk.ini"
printf '[traffic]\nload = x\n' > "$tmp/c104val.ini"
expect 2 "c104val.ini: line 2: 'load = x' refused" -- c104net --config "$tmp/c104val.ini"
expect 2 "c104net: .*: not a regular file (a directory)" -- c104net --config "$tmp"
expect 0 "1 run (no confidence interval: give --seeds 2 or more):" -- sim "${small[@]}"
expect 0 "^  latency  *[0-9.]* cycles\$" -- sim "${small[@]}"
expect 0 "^  throughput_bytes  *[0-9.]* bytes/cycle\$" -- sim "${small[@]}"
expect 0 "^  latency  *[0-9.]* cycles  *+- [0-9.]*\$" -- sim "${small[@]}" --seeds 2
expect 0 "1 run (no confidence interval: give --seeds 2 or more; 1 cycle = 10 ns)" -- c104net --grid 2x2 "${c104small[@]}" --seeds 1
expect 0 "^  util_max  *[0-9.]* %\$" -- c104net --grid 2x2 "${c104small[@]}" --seeds 1
expect 0 "^  msg_lat_mean  *[0-9.]* cycles  *+- [0-9.]*\$" -- c104net --grid 2x2 "${c104small[@]}" --seeds 2
expect 0 "^3 runs (mean" -- c104net --grid 2x2 "${c104small[@]}"   # default --seeds 3, as sim (item 8)
if out=$("$bin" sim "${small[@]}" 2>&1) && grep -q -- '+- 0.0000' <<<"$out"; then
  echo "FAIL: one run prints +- 0.0000"; fails=$((fails + 1))
fi
# the paper's setups (docs/configs/): each loads, and is the run scripts/reproduce*.sh makes (a
# short window here, to keep the test fast)
cfg=${MADPOST_ROOT:-$(dirname "$0")/..}/docs/configs
same() { # same CMD CONFIG -- ARGS...: CMD --config CONFIG gives the CSV of CMD ARGS
  local cmd=$1 c=$2; shift 3
  local a b
  a=$("$bin" "$cmd" --config "$cfg/$c" "${short[@]}" --format csv 2>&1) ||
    { echo "FAIL: madpost $cmd --config $c: $a"; fails=$((fails + 1)); return; }
  b=$("$bin" "$cmd" "$@" "${short[@]}" --format csv 2>&1)
  [ "$a" = "$b" ] || { echo "FAIL: docs/configs/$c is not the run of madpost $cmd $*"; fails=$((fails + 1)); }
}
short=(--warmup 300 --measure 500 --seeds 1)
same sim mp1_uniform.ini -- --mesh 16x16 --routing adaptive --traffic uniform --length 6
same sim mp1_local.ini -- --mesh 16x16 --routing adaptive --traffic local --length 6
short=(--seeds 1 --drain 20000) # both end well within it (a broadcast runs its whole drain)
same sim mp1_transpose.ini -- --mesh 16x16 --mode sync --traffic transpose --routing oblivious --length 6 --drain 2000000
same sim mp1_broadcast.ini -- --mesh 16x16 --mode sync --traffic broadcast --bcast-size 16 --drain 1000000
short=(--warmup 300 --measure 1000 --seeds 1)
same c104net c104_transpose_universal.ini -- --topology grid --grid 8x8 --pattern transpose --vls 8 --universal on --grid-links 2 --load 40
same c104net c104_uniform.ini -- --topology grid --grid 8x8 --pattern uniform --vls 0 --universal off --grid-links 1 --load 40
n=$(find "$cfg" -name '*.ini' | wc -l)
[ "$n" = 6 ] || { echo "FAIL: docs/configs holds $n configs, the test checks 6"; fails=$((fails + 1)); }
if [ "$fails" -ne 0 ]; then echo "test_cli: $fails failed"; exit 1; fi
echo "test_cli: all passed"
