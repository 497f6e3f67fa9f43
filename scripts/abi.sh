#!/usr/bin/env bash
# The ABI fingerprint of the public headers and its check against include/madpost/version.h
# (docs/install.md, "Versions and the soname"). The fingerprint covers what a compiled program
# bakes in: every type definition (struct, union, enum, typedef) of include/madpost/, as the C
# compiler sees it after preprocessing (so the port lists' fields are in it), and the port lists
# themselves with their widths (the #defines of the *_ports.h headers and mp1_awf.h). Comments,
# spacing and the order of definitions do not count; functions are not in it.
# usage: abi.sh print   the fingerprint
#        abi.sh text    what it is taken over, one definition a line
#        abi.sh check   fails unless the fingerprint is the one recorded for the current MAJOR
set -euo pipefail
usage() { echo "usage: abi.sh print|text|check" >&2; exit 2; }
[ $# -eq 1 ] || usage
cd "$(dirname "$0")/.."
vh=include/madpost/version.h

abi_text() {
  local tmp; tmp=$(mktemp -d)
  for h in include/madpost/*.h; do
    [ "$h" = "$vh" ] || echo "#include <madpost/${h##*/}>"
  done > "$tmp/all.c"
  "${CC:-cc}" -std=c11 -E -dD -Iinclude "$tmp/all.c" > "$tmp/pp.c"
  awk '
    # One space between tokens and none elsewhere: the same text whatever spacing the
    # preprocessor (gcc or clang) keeps.
    function tokens(t) {
      gsub(/[^A-Za-z0-9_ \t]/, " & ", t); gsub(/[ \t]+/, " ", t); sub(/^ /, "", t); sub(/ $/, "", t)
      return t
    }
    /^# [0-9]+ "/ { split($0, q, "\""); file = q[2]; next }
    file !~ /(^|\/)include\/madpost\// { next }
    /^#define / {
      if (file ~ /_ports\.h$|\/mp1_awf\.h$/) ports[++np] = tokens($0)
      next
    }
    /^#/ { next }
    { text = text " " $0 }
    END {
      # Top-level statements: a function body (a { right after a ")") is dropped whole; a
      # statement that begins with typedef, struct, union or enum is a type definition.
      n = length(text); depth = 0; st = ""; skip = 0
      for (i = 1; i <= n; i++) {
        c = substr(text, i, 1)
        if (c == "{") {
          if (depth == 0) { t = st; sub(/[ \t]+$/, "", t); if (t ~ /\)$/) skip = 1 }
          depth++
        } else if (c == "}") {
          depth--
          if (depth == 0 && skip) { skip = 0; st = ""; continue }
        }
        if (skip) continue
        st = st c
        if (c == ";" && depth == 0) {
          st = tokens(st)
          if (st ~ /^(typedef|struct|union|enum) /) print "type " st
          st = ""
        }
      }
      for (k = 1; k <= np; k++) print "port " ports[k]
    }' "$tmp/pp.c" | LC_ALL=C sort
  rm -rf "$tmp"
}

fingerprint() { abi_text | sha256sum | cut -c1-16; }

case $1 in
  text) abi_text ;;
  print) fingerprint ;;
  check)
    fp=$(fingerprint)
    major=$(sed -n 's/^#define MADPOST_VERSION_MAJOR \([0-9][0-9]*\)$/\1/p' "$vh")
    [ -n "$major" ] || { echo "abi: no MADPOST_VERSION_MAJOR in $vh" >&2; exit 1; }
    recs=$(sed -n 's/^ \* abi \([0-9][0-9]*\) \([0-9a-f]\{16\}\)$/\1 \2/p' "$vh")
    [ -n "$recs" ] || { echo "abi: no 'abi MAJOR FINGERPRINT' line in $vh" >&2; exit 1; }
    # The history: majors strictly increasing, no fingerprint twice.
    if ! awk 'NR > 1 && $1 <= prev { exit 1 } { prev = $1 }' <<<"$recs"; then
      echo "abi: the abi lines of $vh must have increasing majors:"; echo "$recs"; exit 1
    fi
    if [ "$(awk '{print $2}' <<<"$recs" | sort | uniq -d)" ]; then
      echo "abi: a fingerprint recorded twice in $vh:"; echo "$recs"; exit 1
    fi
    read -r last_major last_fp < <(tail -1 <<<"$recs")
    if [ "$last_major" != "$major" ]; then
      echo "abi: MADPOST_VERSION_MAJOR is $major but the last abi line of $vh records major $last_major:"
      echo "     they go together (raise MAJOR and add its line 'abi MAJOR $fp' in one change)"; exit 1
    fi
    if [ "$fp" != "$last_fp" ]; then
      echo "abi: the public types or port lists changed: fingerprint $fp, recorded $last_fp for major $major."
      echo "     A program built against the old headers could break: raise MADPOST_VERSION_MAJOR to"
      echo "     $((major + 1)) (MINOR and PATCH to 0) and add the line 'abi $((major + 1)) $fp' in $vh"
      echo "     (scripts/abi.sh text shows what the fingerprint covers; docs/install.md)"
      exit 1
    fi
    echo "abi: fingerprint $fp is major $major's ($(abi_text | wc -l) definitions and port-list lines)"
    ;;
  *) usage ;;
esac
