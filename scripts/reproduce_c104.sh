#!/usr/bin/env bash
# Runs the C104 validation of seeds 000 and 002 on the C models (docs/c104.md §18) into
# docs/results/c104_*.{csv,json,png,svg} and writes the C104 section of docs/results.md.
# QUICK=1: one seed, short windows, coarse loads (checks the pipeline in about a minute).
set -euo pipefail
bin=${MADPOST:-build/madpost}
out=${OUT:-docs/results}
md=${MD:-docs/results.md}
QUICK=${QUICK:-0}
mkdir -p "$out"
log() { echo "reproduce-c104: $*" >&2; }
if [ "$QUICK" = 1 ]; then
  RUN=(--warmup 2000 --measure 6000 --seeds 1); LOADS="10 40 80"
else
  RUN=(--warmup 5000 --measure 20000 --seeds 3); LOADS="5 10 15 20 25 30 35 40 50 60 70 80"
fi

# ---- seed 000 §4.1.5 and seed 002 eqs. (1)-(4): exact figures of idle networks ---------------
log "c104transit"
"$bin" c104transit --format csv > "$out/c104_transit.csv"
"$bin" c104transit --format json > "$out/c104_transit.json"
log "c104cost"
"$bin" c104cost --format csv > "$out/c104_cost.csv"
"$bin" c104cost --format json > "$out/c104_cost.json"
"$bin" c104cost --hbytes 2 --format csv > "$out/c104_cost_h2.csv"
"$bin" c104cost --hbytes 2 --format json > "$out/c104_cost_h2.json"

# ---- Universal routing against a worst-case permutation on an 8x8 grid ---------------------
# The transpose is the classic worst case of X-then-Y routing (a row's traffic turns at the
# diagonal: up to 7 flows share one link). K = 8: four packets of a node in flight, so the
# network and not one VL's acknowledgement round trip bounds the rate. Three networks: X-then-Y
# on one link per neighbour (the thesis's grid), X-then-Y on two links per neighbour as a hunt
# group (the same wires as the universal grid), and universal routing (a link per phase).
# Uniform traffic beside it shows what universal routing costs where the traffic is spread.
uni=$out/c104_universal.csv
echo "pattern,universal,grid_links,vls,load,runs,w_generated,w_delivered,thr_bytes_per_node_us,msg_lat_mean,life_routed_mean,util_int_max,in_flight,dropped_qlimit,errors" > "$uni"
runs=0; total=$(( $(wc -w <<<"$LOADS") * 6 ))
for pat in transpose uniform; do
  if [ "$pat" = transpose ]; then vls=8; else vls=0; fi
  for net in off:1 off:2 on:2; do
    u=${net%%:*}; gl=${net##*:}
    for L in $LOADS; do
      runs=$((runs + 1)); log "universal: $pat universal=$u grid-links=$gl load=$L ($runs of $total)"
      "$bin" c104net --topology grid --grid 8x8 --pattern "$pat" --vls "$vls" --universal "$u" \
        --grid-links "$gl" --load "$L" "${RUN[@]}" --format csv 2>/dev/null |
        awk -F, -v pat="$pat" -v u="$u" -v gl="$gl" -v L="$L" '
          /^#/ { next }
          /^seed/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
          { n++; for (k in c) s[k] += $c[k] }
          END {
            err = s["sw_bad"] + s["sw_short"] + s["sw_cut"] + s["sw_stray"] + s["link_errs"] + \
                  s["node_misrouted"] + s["node_bad"] + s["node_cut"] + s["track_errs"] + s["corrupt"]
            printf "%s,%s,%s,%s,%s,%d,%.1f,%.1f,%.4f,%.1f,%.1f,%.2f,%.1f,%.1f,%d\n", pat, u, gl, \
              (pat == "transpose" ? 8 : 63), L, n, s["w_generated"] / n, s["w_delivered"] / n, \
              s["thr_bytes_per_node_us"] / n, s["msg_lat_mean"] / n, s["life_routed_mean"] / n, \
              s["util_int_max"] / n, s["in_flight"] / n, s["dropped_qlimit"] / n, err
          }' >> "$uni"
    done
  done
done

# ---- Plots (gnuplot: Debian's gnuplot-nox, as for the MP1 results) --------------------------
plot_uni() { # plot_uni TERMINAL EXT: both panels
  local col
  cat <<EOF
set terminal $1
set output "$out/c104_universal.$2"
set datafile separator ","
set multiplot layout 1,2 title "C104 8x8 grid, X-then-Y tables: with and without universal routing"
set xlabel "offered load (% of one link's data rate per node)"; set key top left
EOF
  for col in 9 10; do
    if [ "$col" = 9 ]; then echo 'set ylabel "delivered (bytes per node per us)"'
    else echo 'set ylabel "message latency (cycles of 10 ns)"; set logscale y'; fi
    echo "plot '< grep ^transpose,off,1 $uni' u 5:$col w lp t 'transpose, X-then-Y, 1 link',"\
         "'< grep ^transpose,off,2 $uni' u 5:$col w lp t 'transpose, X-then-Y, 2 links',"\
         "'< grep ^transpose,on $uni' u 5:$col w lp t 'transpose, universal',"\
         "'< grep ^uniform,off,1 $uni' u 5:$col w lp t 'uniform, X-then-Y, 1 link',"\
         "'< grep ^uniform,off,2 $uni' u 5:$col w lp t 'uniform, X-then-Y, 2 links',"\
         "'< grep ^uniform,on $uni' u 5:$col w lp t 'uniform, universal'"
  done
  echo "unset multiplot; unset logscale y"
}
if command -v gnuplot >/dev/null; then
  { plot_uni "pngcairo noenhanced size 1000,420 font ',10'" png
    plot_uni "svg noenhanced size 1000,420" svg; } | gnuplot
  log "plots: $out/c104_universal.png, .svg"
else
  log "gnuplot not installed: no plots (make reproduce-c104 installs gnuplot-nox)"
fi

# ---- The C104 section of docs/results.md ------------------------------------------------------
if [ -f "$md" ] && grep -q "<!-- c104:begin -->" "$md"; then
  scripts/results_c104_md.sh "$out" | scripts/splice.sh "$md" c104
else
  log "$md has no c104 markers: section printed to stdout"
  scripts/results_c104_md.sh "$out"
fi
