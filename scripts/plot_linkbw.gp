# Plots the DS-Link figures (madpost linkbw --format csv) against seed 000 eq. 4.1 and 4.2.
# CSV columns: 1 bytes, 2 one_way_1vl, 3 one_way_cap, 4 eq41, 5 diff41, 6 two_way_1vl,
# 7 lockstep_1vl, 8 two_way_cap, 9 eq42, 10 diff42, 11 cap_nulls.
# usage: gnuplot -e "csv='in.csv'; out='basename'" scripts/plot_linkbw.gp  (writes .png and .svg)
set datafile separator ","
set key bottom right
set grid
set xlabel "message length (bytes)"
set ylabel "data throughput a->b (Mbit/s)"
set xrange [0:64]
set yrange [0:80]
do for [fmt in "png svg"] {
  if (fmt eq "png") { set terminal pngcairo size 1200,500 font ",10" } else { set terminal svg size 1200,500 }
  set output out.".".fmt
  set multiplot layout 1,2 title "DS-Link throughput measured on the madpost C model (100 Mbit/s link)"
  set title "one way"
  plot csv using 1:4 skip 1 with lines lw 2 title "eq. 4.1", \
       csv using 1:3 skip 1 with points pt 7 ps 0.6 title "12 virtual links (capacity)", \
       csv using 1:2 skip 1 with points pt 6 ps 0.9 title "1 virtual link"
  set title "both ways"
  plot csv using 1:9 skip 1 with lines lw 2 title "eq. 4.2", \
       csv using 1:8 skip 1 with points pt 7 ps 0.6 title "12 virtual links (capacity)", \
       csv using 1:6 skip 1 with points pt 6 ps 0.9 title "1 virtual link, staggered", \
       csv using 1:7 skip 1 with points pt 4 ps 0.7 title "1 virtual link, lock-step"
  unset multiplot
}
