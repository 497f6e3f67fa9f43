#!/usr/bin/env bash
# Plots (PNG and SVG, gnuplot) of the reproduce runs in DIR: the analogues of seed 004 Figs. 9-16.
set -euo pipefail
d=${1:?usage: plot_results.sh DIR}
gp=$d/.plots.gp
x='(column("throughput_pct"))'
thr="accepted load (% of the bisection bound 8/(3n))"

# fig NAME TITLE XLABEL YLABEL PLOT-LIST: one figure as PNG and SVG
fig() {
  local name=$1 title=$2 xl=$3 yl=$4 body=$5
  for t in png svg; do
    if [ "$t" = png ]; then echo "set terminal pngcairo noenhanced size 900,560 font ',10'"; else
      echo "set terminal svg noenhanced size 900,560"; fi
    echo "set output '$d/$name.$t'"
    echo "set title \"$title\"; set xlabel \"$xl\"; set ylabel \"$yl\""
    echo "plot $body"
  done
}

series() { # series Y TITLE FILE...: one line per file
  local y=$1 t=$2; shift 2
  local out="" f
  for f in "$@"; do
    [ -n "$out" ] && out+=", "
    out+="'$d/$f.csv' u $x:(column(\"$y\")) t '${f#*_} $t'"
  done
  echo "$out"
}

{
  echo "set datafile separator ','; set grid; set key left top; set style data linespoints"
  echo "set key autotitle columnhead"
  f9=(fig9_oblivious fig9_restrictive fig9_adaptive)
  fig fig9a_latency "Fig. 9a: uniform random, 6 bytes, 16x16" "$thr" "latency (cycles)" \
    "$(series latency '' "${f9[@]}")"
  fig fig9b_utilisation "Fig. 9b: channel utilisation" "$thr" "channel utilisation (%)" \
    "$(series util_max 'most loaded' "${f9[@]}"), $(series util_mean average "${f9[@]}")"
  fig fig9c_adaptations "Fig. 9c: adaptations per message" "$thr" "adaptations per message" \
    "$(series adapt_per_msg all fig9_adaptive), $(series adapt_buf_per_msg 'from a buffered message' fig9_adaptive)"
  fig fig9d_buffers "Fig. 9d: routing-machine buffers holding a waiting segment (of 2048)" "$thr" \
    "buffers" "$(series buffers_hold '' "${f9[@]}")"
  fig fig9e_queue "Fig. 9e: injection queue" "$thr" "messages queued per node" \
    "$(series queue_mean '' "${f9[@]}")"
  fig fig9f_injdelay "Fig. 9f: injection delay" "$thr" "cycles from the queue to the interface" \
    "$(series inj_delay '' "${f9[@]}")"
  for r in oblivious adaptive; do
    fig "fig10a_$r" "Fig. 10a: message length, $r routing" "$thr" "latency (cycles)" \
      "$(series latency '6 bytes' "fig9_$r"), $(series latency '' "fig10_${r}_L32" "fig10_${r}_L48" "fig10_${r}_L96")"
  done
  fig fig10b_length "Fig. 10b: latency against length, adaptive" "message length (bytes)" \
    "latency (cycles)" "'$d/fig10b.csv' u 1:2 t '10%', '' u 1:3 t '20%', '' u 1:4 t '30%'"
  fig fig11b_local "Fig. 11b: local and uniform traffic" "$thr" "latency (cycles)" \
    "$(series latency uniform fig9_restrictive fig9_adaptive), $(series latency '' fig11_local_restrictive fig11_local_adaptive)"
  for p in shuffle bitrev transpose; do
    fig "fig14_$p" "Fig. 14: asynchronous $p" "$thr" "latency (cycles)" \
      "$(series latency '' "fig14_${p}_oblivious" "fig14_${p}_restrictive" "fig14_${p}_adaptive")"
  done
  for p in shuffle bitrev transpose; do
    body=""
    for k in 8 16; do for r in oblivious adaptive; do
      [ -n "$body" ] && body+=", "
      body+="'< awk -F, \"NR == 1 || /^$k,$p,$r,/\" $d/fig13_sync.csv' u 4:5 t '${k}x$k $r'"
    done; done
    fig "fig13_$p" "Fig. 13: synchronous $p" "message length (bytes)" "completion (cycles)" "$body"
  done
  fig fig17_torus "Fig. 17: torus (four chips per node) and mesh, 16x16" "$thr" "latency (cycles)" \
    "$(series latency mesh fig9_oblivious fig9_adaptive), $(series latency '' fig17_torus_oblivious fig17_torus_adaptive)"
  echo "set style data histogram; set style histogram clustered; set style fill solid 0.8; set key left top; set yrange [0:*]"
  fig fig12_sync "Fig. 12: synchronous permutations, 16x16, 6 bytes" "permutation" \
    "completion (cycles)" "'$d/fig12.csv' u 2:xtic(1) t 'oblivious', '' u 3 t 'restrictive', '' u 4 t 'adaptive'"
  echo "set style data linespoints; set style fill empty; set autoscale y"
  fig fig16_broadcast "Fig. 16: broadcast to a square from its corner, 16x16" \
    "side of the square (nodes)" "completion (cycles)" \
    "'$d/fig16_broadcast.csv' u 1:2 t 'MP1 broadcast', '' u 1:3 t 'one message per node', '' u 1:4 t 'Hamiltonian path (analytic)', '' u 1:5 t 'one message to the farthest node'"
  echo "set logscale y"
  fig fig16_broadcast_log "Fig. 16 (log scale)" "side of the square (nodes)" "completion (cycles)" \
    "'$d/fig16_broadcast.csv' u 1:2 t 'MP1 broadcast', '' u 1:3 t 'one message per node', '' u 1:4 t 'Hamiltonian path (analytic)', '' u 1:5 t 'one message to the farthest node'"
  echo "unset logscale y"
} > "$gp"

# Fig. 12 data: synchronous completion per pattern and routing, 16x16, 6-byte messages
awk -F, 'BEGIN { print "pattern,oblivious,restrictive,adaptive" }
  $1 == 16 && $4 == 6 { c[$2 "," $3] = $5; p[$2] = 1 }
  END { n = split("shuffle bitrev transpose", o, " ")
        for (i = 1; i <= n; i++) print o[i] "," c[o[i] ",oblivious"] "," c[o[i] ",restrictive"] "," c[o[i] ",adaptive"] }' \
  "$d/fig13_sync.csv" > "$d/fig12.csv"

# Fig. 10b data: adaptive latency at 10, 20 and 30% for each length
{
  echo "length,load10,load20,load30"
  for L in 6 32 48 96; do
    f=$d/fig10_adaptive_L$L.csv; [ "$L" = 6 ] && f=$d/fig9_adaptive.csv
    awk -F, -v L="$L" '!/^#/ && $1 == 10 { a = $5 } !/^#/ && $1 == 20 { b = $5 }
      !/^#/ && $1 == 30 { c = $5 } END { print L "," (a ? a : "NaN") "," (b ? b : "NaN") "," (c ? c : "NaN") }' "$f"
  done
} > "$d/fig10b.csv"

gnuplot "$gp"
rm -f "$gp"
echo "plot_results: $(ls "$d"/*.png | wc -l) PNG and $(ls "$d"/*.svg | wc -l) SVG in $d" >&2
