#!/usr/bin/env bash
# Builds one libFuzzer target of tests/fuzz/ with clang (ASan, UBSan with float-cast-overflow, no
# recovery) into build/fuzz/ and runs it for SECONDS from a fresh copy of its seed corpus
# tests/fuzz/corpus/TARGET/. Exits non-zero on a crash, a leak, a hang (one input over 10 s) or a
# build failure; prints libFuzzer's final stats (executions, coverage). Usage: fuzz.sh TARGET SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/fuzz.sh TARGET SECONDS (TARGET: $(ls tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||' | tr '\n' ' '))" >&2; exit 2; }
[ $# -eq 2 ] || usage
T=$1 SECS=$2
[ -f "tests/fuzz/fuzz_$T.c" ] || usage
[[ $SECS =~ ^[0-9]+$ ]] && [ "$SECS" -gt 0 ] || usage
CLANG=${FUZZ_CC:-clang}
command -v "$CLANG" >/dev/null || { echo "fuzz: $CLANG not found (scripts/deps.sh installs clang)" >&2; exit 1; }

OUT=build/fuzz
SAN="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS="-std=c11 -Wall -Wextra -Werror -g -O1 -Iinclude $SAN"
mkdir -p "$OUT/obj/net" "$OUT/run"

# The C model, instrumented for coverage (fuzzer-no-link); rebuilt when a source or header changed.
# make test runs two targets side by side: one builds the shared objects at a time.
exec 9>"$OUT/.build.lock"
flock 9
newest_hdr=$(ls -t include/madpost/*.h cmodel/*.h cmodel/net/*.h | head -1)
objs=()
for src in cmodel/*.c cmodel/net/*.c; do
  o="$OUT/obj/${src#cmodel/}"; o="${o%.c}.o"
  objs+=("$o")
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ "$newest_hdr" -nt "$o" ]; then
    "$CLANG" $CFLAGS -fsanitize=fuzzer-no-link -c "$src" -o "$o"
  fi
done

# The opt target reaches the commands' own (static) option parsers through shims in tests/fuzz/
# that include tools/*.c; it links the tools sources those need.
extra=()
case $T in
  opt) extra=(tests/fuzz/opt_shim_main.c tests/fuzz/opt_shim_sim.c tests/fuzz/opt_shim_c104.c
              tools/madpost_c104transit.c tools/madpost_c104cost.c tools/madpost_c104fig.c
              tools/madpost_rows.c tools/madpost_opt.c) ;;
esac
BIN="$OUT/fuzz-$T"
"$CLANG" $CFLAGS -fsanitize=fuzzer -Itools "tests/fuzz/fuzz_$T.c" "${extra[@]}" "${objs[@]}" \
  -linih -lm -o "$BIN"
flock -u 9

# Per target: the longest input, and whether the target's own stdout/stderr chatter is muted.
# The block targets print only their findings; the command-line ones print every refusal, so their
# own output is closed (libFuzzer keeps its report).
quiet=0
case $T in
  dslink) maxlen=16384 ;;
  mp1_rm|c104) maxlen=8192 ;;
  *) maxlen=4096 quiet=3 ;;
esac
RUN="$OUT/run/$T"
rm -rf "$RUN"; mkdir -p "$RUN/corpus"
cp tests/fuzz/corpus/"$T"/* "$RUN/corpus/"
echo "fuzz: $T for ${SECS}s from $(ls "$RUN/corpus" | wc -l) seeds (log: $RUN/log)"
rc=0
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
  nice -n 10 "$BIN" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=$maxlen \
  -print_final_stats=1 -close_fd_mask=$quiet -artifact_prefix="$RUN/" "$RUN/corpus" >"$RUN/log" 2>&1 || rc=$?
grep -aE '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added)' "$RUN/log" || true
if [ $rc -ne 0 ]; then
  echo "fuzz: $T FAILED (exit $rc); the report:" >&2
  grep -aE 'fuzz_[a-z0-9_]+: |runtime error|ERROR: |SUMMARY|Test unit written|#[0-9]+ +0x[0-9a-f]+ in ' "$RUN/log" |
    grep -avE 'in (fuzzer::|__sanitizer|__libc|_start|main |raise|abort|__pthread)' | head -40 >&2
  ls "$RUN"/crash-* "$RUN"/leak-* "$RUN"/timeout-* "$RUN"/oom-* 2>/dev/null >&2 || true
  exit 1
fi
echo "fuzz: $T passed"
