#!/usr/bin/env bash
# Regenerates seed 004's Figs. 9-17 analogues into docs/results/ with the MP1 simulator and writes
# docs/results.md: every number of NOTES §4 "Numbers to reproduce" beside ours.
# QUICK=1 runs a small version (one seed, short windows, coarse loads) to check the pipeline.
set -euo pipefail
bin=${MADPOST:-build/madpost}
out=${OUT:-docs/results}
md=${MD:-docs/results.md}
QUICK=${QUICK:-0}
mkdir -p "$out"
# STEP: the load step of the main figures (9, 11); STEP2: of the others, to keep the run near an
# hour on 2 cores. REUSE=1 keeps sweeps whose CSV is already there (a run that was stopped).
if [ "$QUICK" = 1 ]; then
  RUN=(--warmup 1000 --measure 2000 --seeds 1); STEP=10; STEP2=10; CH_MEASURE=20000; SYNC_SEEDS=1
else
  RUN=(); STEP=2.5; STEP2=5; CH_MEASURE=200000; SYNC_SEEDS=3
fi
REUSE=${REUSE:-0}
log() { echo "reproduce: $*" >&2; }

# col FILE NAME: the column number of NAME in the CSV header (comment lines skipped)
col() { awk -F, -v n="$2" '!/^#/ { for (i = 1; i <= NF; i++) if ($i == n) { print i; exit } }' "$1"; }
# satload FILE: the highest load before the first point whose queue overflowed, and its row
satrow() { awk -F, '!/^#/ && NR > 1 && !/^load/ { if ($2 > 0) exit; last = $0 } END { print last }' "$1"; }
field() { # field FILE ROW NAME
  local c; c=$(col "$1" "$3"); awk -F, -v c="$c" '{ print $c }' <<<"$2"
}

sweep() { # sweep NAME STEP ARGS...
  local name=$1 step=$2; shift 2
  if [ "$REUSE" = 1 ] && [ -s "$out/$name.json" ]; then log "sweep $name: kept"; return; fi
  log "sweep $name"
  "$bin" sweep "${RUN[@]}" --loads "$step:100:$step" --after 1 --out "$out" --name "$name" \
    --plots no "$@" >/dev/null
}

# ---- Fig. 9: uniform random traffic, 6-byte messages, 16x16 -----------------------------------
for r in oblivious restrictive adaptive; do sweep "fig9_$r" "$STEP" --routing "$r"; done
# ---- Fig. 10: message length --------------------------------------------------------------------
for r in oblivious adaptive; do
  for L in 32 48 96; do sweep "fig10_${r}_L$L" "$STEP2" --routing "$r" --length "$L"; done
done
# ---- Fig. 11: local traffic -----------------------------------------------------------------------
for r in restrictive adaptive; do sweep "fig11_local_$r" "$STEP" --routing "$r" --traffic local; done
# ---- Fig. 17: torus (four chips per node) against the mesh, same offered traffic ----------------
for r in oblivious adaptive; do sweep "fig17_torus_$r" "$STEP2" --routing "$r" --topology torus; done
# ---- The network's capacity without the queue limit: a 64-message queue, past saturation -------
for r in oblivious adaptive; do
  if [ "$REUSE" = 1 ] && [ -s "$out/capacity_$r.json" ]; then continue; fi
  log "sweep capacity_$r"
  "$bin" sweep "${RUN[@]}" --loads "$STEP2:100:$STEP2" --after 4 --queue 64 --out "$out" \
    --name "capacity_$r" --plots no --routing "$r" >/dev/null
done
# ---- Fig. 14: asynchronous permutations ----------------------------------------------------------
for p in shuffle bitrev transpose; do
  for r in oblivious restrictive adaptive; do sweep "fig14_${p}_$r" "$STEP2" --routing "$r" --traffic "$p"; done
done

# ---- Figs. 12, 13: synchronous permutations; the transpose's period -------------------------------
log "synchronous permutations"
perm=$out/fig13_sync.csv
echo "k,pattern,routing,length,completion" > "$perm"
tp=$out/transpose_period.csv
echo "k,length,period_ours,period_paper,first,line,predicted,completion,error_pct" > "$tp"
for k in 8 16; do
  for p in shuffle bitrev transpose; do
    for r in oblivious restrictive adaptive; do
      for L in 6 32 48 96; do
        line=$("$bin" sim --mesh "${k}x$k" --mode sync --traffic "$p" --routing "$r" --length "$L" \
                 --drain 2000000 --seeds "$SYNC_SEEDS" --format csv 2>/dev/null | tail -1)
        # completion: mean over the runs; complete_runs must be all of them
        awk -F, -v k="$k" -v p="$p" -v r="$r" -v L="$L" -v n="$SYNC_SEEDS" \
          '{ if ($3 != n) { print "incomplete: " $0 > "/dev/stderr"; exit 1 }
             print k "," p "," r "," L "," $4 }' <<<"$line" >> "$perm"
      done
    done
  done
  # The transpose under oblivious routing: the row k-1 messages wait in one line at the turn
  # node; consecutive deliveries give the period, the first delivery plus (line - 1) periods (and
  # the last message's Y hops) the analysis.
  for L in 6 32 48 96; do
    "$bin" sim --mesh "${k}x$k" --mode sync --traffic transpose --routing oblivious --length "$L" \
      --drain 2000000 --seeds 1 --trace "$out/.trace.csv" --format csv >/dev/null 2>&1
    last=$(awk -F, 'NR > 1 && $10 > l { l = $10 } END { print l + 1 }' "$out/.trace.csv")
    # row k-1's deliveries, each less its Y hops: the line passes the turn node and its messages
    # go down one row further each, so a delivery comes one cycle after the line's advance per
    # extra hop; the period is how often the line advances (004 §4.6), as scripts/check_paper.sh
    awk -F, -v k="$k" 'function abs(v) { return v < 0 ? -v : v }
      NR > 1 && $3 == k - 1 { print $10 - abs($5 - $3), $10 }' "$out/.trace.csv" | sort -n > "$out/.t"
    P=$(awk 'NR > 1 { print $1 - p } { p = $1 }' "$out/.t" | sort -n \
          | awk '{ g[NR] = $1 } END { print g[int((NR + 1) / 2)] }')
    awk -v k="$k" -v L="$L" -v P="$P" -v last="$last" '{ t[NR] = $2; a[NR] = $1 } END {
        m = NR; pred = a[1] + (m - 1) * P + (t[m] - a[m]) + 1
        printf "%d,%d,%d,%d,%d,%d,%d,%d,%.2f\n", k, L, P, 3 * L + 2, t[1] + 1, m, pred, last,
          100 * (last - pred) / last }' "$out/.t" >> "$tp"
  done
done
rm -f "$out/.trace.csv" "$out/.t"

# ---- Figs. 15, 16: broadcast -----------------------------------------------------------------------
log "broadcast"
bc=$out/fig16_broadcast.csv
echo "side,mp1_broadcast,one_message_per_node,hamiltonian,farthest_node" > "$bc"
for m in 2 4 6 8 10 12 14 16; do
  hw=$("$bin" sim --mesh 16x16 --mode sync --traffic broadcast --bcast-size "$m" --drain 1000000 \
         --seeds 1 --format csv 2>/dev/null | tail -1 | cut -d, -f4)
  pp=$("$bin" sim --mesh 16x16 --mode sync --traffic bcast-p2p --bcast-size "$m" --drain 10000000 \
         --seeds 1 --format csv 2>/dev/null | tail -1 | cut -d, -f4)
  far=$("$bin" hop --mesh 16x16 --src 0,0 --dst "$((m - 1)),$((m - 1))" --len 4 --format json \
          | sed -n 's/.*"total":\([0-9]*\).*/\1/p')
  # Hamiltonian path (analytic, as 004 Fig. 16): the same per-node cost as the hardware
  # broadcast's copies (1 cycle: copies start on their own and go straight speculatively,
  # docs/mp1_draft4.md §5) along m^2 - 1 nodes, then the message and the sender's 6 cycles to its
  # first header chunk (docs/mp1_sim.md §2.2).
  ham=$(( (m * m - 1) + 3 * 6 + 1 + 6 ))
  echo "$m,$hw,$pp,$ham,$((far + 6))" >> "$bc"
done
"$bin" sim --mesh 16x16 --mode sync --traffic broadcast --bcast-size 4 --drain 100000 --seeds 1 \
  --trace "$out/fig15_broadcast4x4_trace.csv" >/dev/null 2>&1

# ---- Channel loads against the analysis (004 §4.5) --------------------------------------------------
log "channel loads"
for r in oblivious restrictive; do
  "$bin" sim --mesh 16x16 --routing "$r" --load 10 --warmup 8000 --measure "$CH_MEASURE" \
    --seeds "$SYNC_SEEDS" --channels "$out/chan_$r.csv" --format csv > /dev/null 2>&1
done
chanload() { # chanload ROUTING: crossings per generated message of each plane's channels, measured
  # and from the paths (X first; restrictive: half of the two-dimension messages Y first; an offset
  # of 0 in the + plane, docs/mp1_sim.md §2.1); 004 §4.5's loads are per plane channel.
  awk -F, -v r="$1" -v k=16 '
    /^#/ { split($0, a, " "); msgs = a[2]; next }
    $1 == "x" { next }
    { m[$1 " " $2 " " $3 " " $4] += $5 }
    END {
      N = k * k
      for (s = 0; s < N; s++) for (d = 0; d < N; d++) {
        if (s == d) continue
        sx = s % k; sy = int(s / k); dx = d % k; dy = int(d / k)
        p = (dx < sx) * 2 + (dy < sy)
        two = (sx != dx && sy != dy)
        if (r == "restrictive" && two) { path(sx, sy, dx, dy, p, 0, 0.5); path(sx, sy, dx, dy, p, 1, 0.5) }
        else path(sx, sy, dx, dy, p, 0, 1)
      }
      best = 0
      for (key in u) if (u[key] > best) best = u[key]
      # the channels at the analytic maximum, and every channel above half of it
      nt = 0; mt = 0; n = 0; sumerr = 0; worst = 0
      for (key in u) {
        if (u[key] >= 0.99 * best) { nt++; mt += m[key] / msgs }
        if (u[key] >= 0.5 * best) {
          uu = u[key] / (N * (N - 1)); e = (m[key] / msgs - uu) / uu; if (e < 0) e = -e
          sumerr += e; n++; if (e > worst) worst = e
        }
      }
      mmax = 0
      for (key in m) if (m[key] / msgs > mmax) mmax = m[key] / msgs
      printf "%s,%.6f,%d,%.6f,%.2f,%.6f,%.2f,%.2f,%d,%d\n", r, best / (N * (N - 1)), nt, mt / nt,
        100 * (mt / nt - best / (N * (N - 1))) / (best / (N * (N - 1))), mmax, 100 * sumerr / n,
        100 * worst, n, msgs
    }
    function path(x, y, tx, ty, p, yfirst, w,    i) {
      if (!yfirst) {
        for (i = x; i != tx; i += (tx > x) ? 1 : -1) u[i " " y " " p " 0"] += w
        for (i = y; i != ty; i += (ty > y) ? 1 : -1) u[tx " " i " " p " 1"] += w
      } else {
        for (i = y; i != ty; i += (ty > y) ? 1 : -1) u[x " " i " " p " 1"] += w
        for (i = x; i != tx; i += (tx > x) ? 1 : -1) u[i " " ty " " p " 0"] += w
      }
    }' "$out/chan_$1.csv"
}
cl=$out/channel_loads.csv
echo "routing,analytic_max,channels_at_max,measured_there,error_at_max_pct,measured_max,mean_abs_error_pct,worst_error_pct,channels_compared,messages" > "$cl"
for r in oblivious restrictive; do chanload "$r" >> "$cl"; done

# ---- Where saturation appears, and how much the arrival process moves it -----------------------
# 004 §4.1: "The saturation will appear first in the heaviest-loaded channels, e.g. the central
# ones". At the first load whose queue overflowed (Fig. 9 sweeps), the nodes with the longest mean
# injection delay over the three runs, and the busiest channels' owned-but-waiting share.
log "saturation sites"
ss=$out/sat_sites.csv
echo "routing,load,rank,x,y,messages,inj_delay_mean,inj_delay_max,all_nodes_inj_delay_mean" > "$ss"
for r in oblivious restrictive adaptive; do
  l=$(awk -F, '/^#/ || /^load/ { next } $2 > 0 { print $1; exit }' "$out/fig9_$r.csv")
  [ -n "$l" ] || continue
  "$bin" sim --mesh 16x16 --routing "$r" --load "$l" "${RUN[@]}" --trace "$out/.sat.csv" \
    --format csv >/dev/null 2>&1
  # per node: x,y,mean injection delay (queue entry to the interface buffer: inj_delay),max,messages
  awk -F, 'NR > 1 { k = $2 "," $3; n[k]++; d = $8 - $7; s[k] += d; if (d > m[k]) m[k] = d }
    END { for (k in n) printf "%s,%.1f,%d,%d\n", k, s[k] / n[k], m[k], n[k] }' "$out/.sat.csv" \
    | sort -t, -k3,3 -g -r > "$out/.top"
  all=$(awk -F, 'NR > 1 { s += $8 - $7; n++ } END { printf "%.2f", s / n }' "$out/.sat.csv")
  head -5 "$out/.top" | awk -F, -v r="$r" -v l="$l" -v a="$all" \
    '{ printf "%s,%s,%d,%s,%s,%s,%s,%s,%s\n", r, l, NR, $1, $2, $5, $3, $4, a }' >> "$ss"
done
rm -f "$out/.sat.csv" "$out/.top"
# 004 says only that message generation "is randomised in time": the Fig. 9 sweeps again with
# uniform gaps on [0, 2/rate] (the same mean rate, a third of the exponential gaps' variance).
for r in oblivious restrictive adaptive; do
  sweep "fig9u_$r" "$STEP" --routing "$r" --arrival uniform
done

# ---- Plots -----------------------------------------------------------------------------------------
log "plots"
scripts/plot_results.sh "$out"

# ---- docs/results.md ---------------------------------------------------------------------------------
log "writing $md"
scripts/results_md.sh "$out" "$md" > "$md.new" && mv "$md.new" "$md"
log "done: $out, $md"
