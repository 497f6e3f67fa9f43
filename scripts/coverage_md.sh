#!/usr/bin/env bash
# Writes the generated part of docs/coverage.md (Markdown, to stdout) from the merged coverage of
# each block (build/cov/<blk>/merged.dat, scripts/coverage.sh): line and toggle coverage per RTL
# file, the RTL lines never reached, and the coverpoints of tb/cov/ (unhit first).
# usage: coverage_md.sh COV_DIR BLOCK... | scripts/splice.sh docs/coverage.md coverage
set -euo pipefail
dir=$1; shift
unreach=tb/cov/unreachable.txt
[ -f "$dir/total.sec" ] && echo "Last full run of \`make coverage\`: $(cat "$dir/total.sec") s (builds and runs, $(date -u +%Y-%m-%d))."
echo
# A coverpoint listed as unreachable that a run hit fails the script (after the whole report):
# the list is the assertion that those points stay unhit.
rm -f "$dir/unreachable_hit"
# The coverpoint modules each block answers for: a module's points are listed under the smallest
# block that contains it (its own bench), as its Yosys mutants are scored there; a larger block
# (the C104 with its DS-Links, the mesh with its chips) only sums up the others' points it hits.
own_of() {
  case $1 in
    dslink) echo dslink_cov ;; mp1_rm) echo mp1_rm_cov ;; mp1_plane) echo mp1_plane_cov ;;
    mp1_chip) echo "mp1_chip_cov mp1_rr_cov" ;; c104) echo "c104_cov c104_arb_cov" ;; *) echo "" ;;
  esac
}
for blk in "$@"; do
  dat=$dir/$blk/merged.dat
  echo "### $blk"
  echo
  if [ ! -f "$dat" ]; then echo "No coverage data (\`make coverage-$blk\` not run)."; echo; continue; fi
  nruns=$(wc -l < "$dir/$blk/runs.tsv")
  bad=$(awk -F'\t' '$2 != "ok"' "$dir/$blk/runs.tsv")
  echo "$nruns runs in $(cat "$dir/$blk/run.sec" 2>/dev/null || echo "?") s ($(awk -F"\t" '{ t = "random"; if (match($1, /--test [^ ]+/)) t = substr($1, RSTART + 7, RLENGTH - 7); n[t]++ } END { for (t in n) printf "%s %d\n", t, n[t] }' "$dir/$blk/runs.tsv" | sort | awk '{ printf "%s%s x %s", (NR > 1 ? ", " : ""), $2, $1 }'))."
  if [ -n "$bad" ]; then echo; echo "**Failed runs (not counted):** $(echo "$bad" | cut -f1,2 | tr '\t\n' ' ;')"; fi
  echo
  # One pass over the records: keys are \001-separated, each key \002 value (SystemC::Coverage-3).
  awk -v unreach="$unreach" -v dir="$dir" -v own="$(own_of "$blk")" '
    BEGIN {
      while ((getline u < unreach) > 0) {
        if (u ~ /^#/ || u == "") continue
        m = u; sub(/ .*/, "", m); r = u; sub(/^[^ ]+ /, "", r); nm = r; sub(/ .*/, "", nm)
        sub(/^[^ ]+ /, "", r); why[m "." nm] = r
      }
    }
    /^C / {
      s = $0; sub(/^C '\''/, "", s); cnt = s; sub(/.*'\'' /, "", cnt); sub(/'\'' [0-9]+$/, "", s)
      n = split(s, kv, "\001"); delete k
      for (i = 1; i <= n; i++) { if (kv[i] == "") continue; split(kv[i], p, "\002"); k[p[1]] = p[2] }
      f = k["f"]; pg = k["page"]; sub(/^.*\//, "", f)
      if (pg ~ /^v_user\//) {
        mod = pg; sub(/^v_user\//, "", mod); sub(/__pi[0-9]+$/, "", mod); id = mod "." k["o"]
        if (!(id in uhit)) { uord[++nu] = id }
        uhit[id] += cnt;
        next
      }
      if (k["f"] !~ /^rtl\//) next
      files[f] = 1
      id = f SUBSEP k["l"] SUBSEP k["n"] SUBSEP pg SUBSEP k["o"]
      if (pg ~ /^v_toggle\//) { tcnt[id] += cnt; tfile[id] = f; next }
      if (pg ~ /^v_(line|branch)\//) {
        lcnt[id] += cnt; lfile[id] = f
        sp = (k["S"] != "") ? k["S"] : k["l"]; lspan[id] = sp
      }
    }
    function pct(h, t) { return t ? sprintf("%.1f", 100 * h / t) : "-" }
    function ranges(list,   n, a, i, out, lo, hi) {
      n = split(list, a, " "); out = ""
      for (i = 1; i <= n; i++) {
        lo = a[i]; hi = lo
        while (i < n && a[i + 1] == hi + 1) { i++; hi = a[i] }
        out = out (out == "" ? "" : ", ") (lo == hi ? lo : lo "-" hi)
      }
      return out
    }
    END {
      for (id in lcnt) {
        f = lfile[id]; np = split(lspan[id], parts, ",")
        for (j = 1; j <= np; j++) {
          if (split(parts[j], b, "-") == 2) { lo = b[1]; hi = b[2] } else { lo = hi = parts[j] }
          for (x = lo + 0; x <= hi + 0; x++) {
            key = f SUBSEP x; line[key] = 1
            if (lcnt[id] == 0) miss[key] = 1
          }
        }
      }
      for (key in line) { split(key, q, SUBSEP); lt[q[1]]++; if (!(key in miss)) lh[q[1]]++ }
      for (id in tcnt) { f = tfile[id]; tt[f]++; if (tcnt[id] > 0) th[f]++ }
      print "| RTL file | lines hit | line % | toggle points hit | toggle % |"
      print "|---|---:|---:|---:|---:|"
      nf = 0; for (f in files) fl[++nf] = f
      for (i = 1; i <= nf; i++) for (j = i + 1; j <= nf; j++) if (fl[j] < fl[i]) { t = fl[i]; fl[i] = fl[j]; fl[j] = t }
      for (i = 1; i <= nf; i++) {
        f = fl[i]; LT += lt[f]; LH += lh[f]; TT += tt[f]; TH += th[f]
        printf "| %s | %d / %d | %s | %s | %s |\n", f, lh[f], lt[f], pct(lh[f], lt[f]), tt[f] ? th[f] " / " tt[f] : "not measured", pct(th[f], tt[f])
      }
      printf "| **all** | %d / %d | **%s** | %s | **%s** |\n\n", LH, LT, pct(LH, LT), TT ? TH " / " TT : "not measured", pct(TH, TT)
      any = 0
      for (i = 1; i <= nf; i++) {
        f = fl[i]; ml = ""
        for (x = 1; x <= 5000; x++) if ((f SUBSEP x) in miss) ml = ml " " x
        if (ml != "") { if (!any) print "RTL lines never reached (line coverage points with count 0, all instances summed):\n"; any = 1; printf "- %s: %s\n", f, ranges(substr(ml, 2)) }
      }
      if (any) print ""
      # Coverpoints: unhit first, then unreachable by design, then hit; by name within each.
      for (i = 1; i <= nu; i++) for (j = i + 1; j <= nu; j++) if (uord[j] < uord[i]) { t = uord[i]; uord[i] = uord[j]; uord[j] = t }
      nh = 0; nun = 0; nur = 0; bogus = ""; no = split(own, ow, " "); for (i = 1; i <= no; i++) isown[ow[i]] = 1
      nmine = 0; others = ""
      for (i = 1; i <= nu; i++) {
        id = uord[i]; m = id; sub(/\..*/, "", m)
        if ((id in why) && uhit[id] > 0) bogus = bogus " " id
        if (!(m in isown)) { if (!(m in oth_n)) others = others " " m; oth_n[m]++; if (uhit[id] > 0) oth_h[m]++; continue }
        mine[++nmine] = id
        if (id in why) nur++; else if (uhit[id] > 0) nh++; else nun++
      }
      no = split(substr(others, 2), oo, " "); ol = ""
      for (i = 1; i <= no; i++) ol = ol (i > 1 ? ", " : "") sprintf("`%s` %d of %d hit", oo[i], oth_h[oo[i]], oth_n[oo[i]])
      if (nmine == 0) printf "No coverpoints of its own"
      else printf "Coverpoints: %d hit, **%d not hit**, %d unreachable by design (tb/cov/unreachable.txt), of %d; hits summed over all instances of a module (Verilator counts per module)", nh, nun, nur, nmine
      if (ol != "") printf ". Coverpoints of modules answered for by their own blocks, hit here too: %s", ol
      printf ".\n\n"
      nu = nmine; for (i = 1; i <= nu; i++) uord[i] = mine[i]
      if (bogus != "") {
        printf "**Listed as unreachable but hit (the list is wrong):**%s\n\n", bogus
        printf "%s\n", bogus >> (dir "/unreachable_hit")
      }
      if (nu == 0) exit
      print "| coverpoint | hits | |"
      print "|---|---:|---|"
      for (pass = 1; pass <= 3; pass++)
        for (i = 1; i <= nu; i++) {
          id = uord[i]; ur = (id in why)
          if (pass == 1 && !ur && uhit[id] == 0) printf "| `%s` | 0 | **not hit** |\n", id
          if (pass == 2 && ur) printf "| `%s` | %d | unreachable: %s |\n", id, uhit[id], why[id]
          if (pass == 3 && !ur && uhit[id] > 0) printf "| `%s` | %d | |\n", id, uhit[id]
        }
      print ""
    }' "$dat"
done
if [ -s "$dir/unreachable_hit" ]; then
  echo "coverage: points listed as unreachable in $unreach were hit:$(tr '\n' ' ' < "$dir/unreachable_hit")" >&2
  exit 3
fi
