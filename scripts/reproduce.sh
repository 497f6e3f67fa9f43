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
if [ "$QUICK" = 1 ]; then
  RUN=(--warmup 1000 --measure 2000 --seeds 1); STEP=10; CH_MEASURE=20000; SYNC_SEEDS=1
else
  RUN=(); STEP=2.5; CH_MEASURE=200000; SYNC_SEEDS=3
fi
log() { echo "reproduce: $*" >&2; }

# col FILE NAME: the column number of NAME in the CSV header (comment lines skipped)
col() { awk -F, -v n="$2" '!/^#/ { for (i = 1; i <= NF; i++) if ($i == n) { print i; exit } }' "$1"; }
# satload FILE: the highest load before the first point whose queue overflowed, and its row
satrow() { awk -F, '!/^#/ && NR > 1 && !/^load/ { if ($2 > 0) exit; last = $0 } END { print last }' "$1"; }
field() { # field FILE ROW NAME
  local c; c=$(col "$1" "$3"); awk -F, -v c="$c" '{ print $c }' <<<"$2"
}

sweep() { # sweep NAME ARGS...
  local name=$1; shift
  log "sweep $name"
  "$bin" sweep "${RUN[@]}" --loads "$STEP:100:$STEP" --after 1 --out "$out" --name "$name" \
    --plots no "$@" >/dev/null
}

# ---- Fig. 9: uniform random traffic, 6-byte messages, 16x16 -----------------------------------
for r in oblivious restrictive adaptive; do sweep "fig9_$r" --routing "$r"; done
# ---- Fig. 10: message length --------------------------------------------------------------------
for r in oblivious adaptive; do
  for L in 32 48 96; do sweep "fig10_${r}_L$L" --routing "$r" --length "$L"; done
done
# ---- Fig. 11: local traffic -----------------------------------------------------------------------
for r in restrictive adaptive; do sweep "fig11_local_$r" --routing "$r" --traffic local; done
# ---- Fig. 14: asynchronous permutations ----------------------------------------------------------
for p in shuffle bitrev transpose; do
  for r in oblivious restrictive adaptive; do sweep "fig14_${p}_$r" --routing "$r" --traffic "$p"; done
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
  # node; consecutive deliveries give the period, the first delivery plus (line - 1) periods the
  # analysis.
  for L in 6 32 48 96; do
    "$bin" sim --mesh "${k}x$k" --mode sync --traffic transpose --routing oblivious --length "$L" \
      --drain 2000000 --seeds 1 --trace "$out/.trace.csv" --format csv >/dev/null 2>&1
    last=$(awk -F, 'NR > 1 && $10 > l { l = $10 } END { print l + 1 }' "$out/.trace.csv")
    awk -F, -v k="$k" 'NR > 1 && $3 == k - 1 { print $10 }' "$out/.trace.csv" | sort -n > "$out/.t"
    P=$(awk 'NR > 1 { print $1 - p } { p = $1 }' "$out/.t" | tail -n +2 | sort -n \
          | awk '{ g[NR] = $1 } END { print g[int((NR + 1) / 2)] }')
    awk -v k="$k" -v L="$L" -v P="$P" -v last="$last" '{ t[NR] = $1 } END {
        m = NR; pred = t[1] + (m - 1) * P + 1
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
  # broadcast's copies (3 cycles, docs/mp1.md §5.5) along m^2 - 1 nodes, then the message.
  ham=$(( (m * m - 1) * 3 + 3 * 6 + 1 + 8 ))
  echo "$m,$hw,$pp,$ham,$((far + 8))" >> "$bc"
done
"$bin" sim --mesh 16x16 --mode sync --traffic broadcast --bcast-size 4 --drain 100000 --seeds 1 \
  --trace "$out/fig15_broadcast4x4_trace.csv" >/dev/null 2>&1

# ---- Channel loads against the analysis (004 §4.5) --------------------------------------------------
log "channel loads"
for r in oblivious restrictive; do
  "$bin" sim --mesh 16x16 --routing "$r" --load 10 --warmup 8000 --measure "$CH_MEASURE" \
    --seeds "$SYNC_SEEDS" --channels "$out/chan_$r.csv" --format csv > /dev/null 2>&1
done
chanload() { # chanload ROUTING: measured and analytic crossings per message, per direction
  awk -F, -v r="$1" -v k=16 '
    /^#/ { msgs = $2; sub(/# /, "", msgs); split(msgs, a, " "); msgs = a[1]; next }
    $1 == "x" { next }
    { dir = ($4 == 0) ? (($3 >= 2) ? "-X" : "+X") : (($3 % 2) ? "-Y" : "+Y")
      m[$1 "," $2 "," dir] += $5 }
    END {
      N = k * k
      for (s = 0; s < N; s++) for (d = 0; d < N; d++) {
        if (s == d) continue
        sx = s % k; sy = int(s / k); dx = d % k; dy = int(d / k)
        two = (sx != dx && sy != dy)
        wx = (r == "restrictive" && two) ? 0.5 : 1
        # X first: row sy from sx to dx, then column dx
        path(sx, sy, dx, dy, 0, wx)
        if (r == "restrictive" && two) path(sx, sy, dx, dy, 1, 0.5)
      }
      best = 0; worst = 0; n = 0; sumerr = 0
      for (key in a_) {
        u = a_[key] / (N * (N - 1)); mu = m[key] / msgs
        if (u > best) { best = u; bkey = key }
        if (u > 0.5 * 4 / 255 / (r == "restrictive" ? 2 : 1)) {
          e = (mu - u) / u; if (e < 0) e = -e; sumerr += e; n++; if (e > worst) { worst = e; wkey = key }
        }
      }
      mmax = 0
      for (key in m) if (m[key] / msgs > mmax) { mmax = m[key] / msgs; mkey = key }
      printf "%s,%.6f,%s,%.6f,%.6f,%s,%.2f,%.2f,%d\n", r, best, bkey, m[bkey] / msgs, mmax, mkey,
        100 * (m[bkey] / msgs - best) / best, 100 * sumerr / n, n
    }
    function path(x, y, tx, ty, yfirst, w,    i) {
      if (!yfirst) {
        for (i = x; i != tx; i += (tx > x) ? 1 : -1) a_[i "," y "," ((tx > x) ? "+X" : "-X")] += w
        for (i = y; i != ty; i += (ty > y) ? 1 : -1) a_[tx "," i "," ((ty > y) ? "+Y" : "-Y")] += w
      } else {
        for (i = y; i != ty; i += (ty > y) ? 1 : -1) a_[x "," i "," ((ty > y) ? "+Y" : "-Y")] += w
        for (i = x; i != tx; i += (tx > x) ? 1 : -1) a_[i "," ty "," ((tx > x) ? "+X" : "-X")] += w
      }
    }' "$out/chan_$1.csv"
}
cl=$out/channel_loads.csv
echo "routing,analytic_max,at,measured_there,measured_max,measured_max_at,error_at_max_pct,mean_abs_error_pct,channels_compared" > "$cl"
for r in oblivious restrictive; do chanload "$r" >> "$cl"; done

# ---- Plots -----------------------------------------------------------------------------------------
log "plots"
scripts/plot_results.sh "$out"

# ---- docs/results.md ---------------------------------------------------------------------------------
log "writing $md"
scripts/results_md.sh "$out" > "$md"
log "done: $out, $md"
