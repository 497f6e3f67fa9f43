#!/usr/bin/env bash
# Runs one part of `make test` with its whole output kept in LOGDIR/NAME.log and its verdict and
# time in LOGDIR/NAME.status, so that a failing part loses nothing and does not stop the others.
# usage: logged.sh LOGDIR NAME COMMAND [ARGS...]   (exits 0 unless the log cannot be written)
set -uo pipefail
dir=$1; name=$2; shift 2
mkdir -p "$dir" || exit 1
log=$dir/$name.log
t0=$(date +%s)
"$@" > "$log" 2>&1
rc=$?
secs=$(( $(date +%s) - t0 ))
if ! echo "$rc $secs" > "$dir/$name.status"; then
  echo "logged.sh: cannot write $dir/$name.status" >&2; exit 1
fi
if [ "$rc" -eq 0 ]; then
  echo "== $name: passed in $secs s"
else
  # The end of the log is where a lockstep prints its mismatch lines and input history.
  echo "== $name: FAILED (exit $rc) in $secs s; the last lines of $log:"
  tail -n 40 "$log" | sed 's/^/   | /'
fi
