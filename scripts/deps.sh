#!/usr/bin/env bash
# Installs the Debian packages madpost needs, only those missing, saying what it does.
# Called by `make run` and `make test`; safe to run again. Extra package names given as arguments
# are installed too (optional targets such as `make figures-plot` pass theirs).
set -euo pipefail
# pkgconf: the installed library's consumer test (tests/consumer/run.sh builds with pkg-config).
# zlib1g-dev: the FST writer the benches link (Verilator's fstapi, built into build/fst/). clang
# and libclang-rt-dev: the libFuzzer targets of tests/fuzz/ (scripts/fuzz.sh); the runtime
# (libFuzzer, ASan, UBSan) is only a recommendation of clang, which --no-install-recommends skips.
# libsystemc-dev: the SystemC modules and demonstrations (docs/systemc.md; Debian builds it C++17).
pkgs=(build-essential verilator yosys libcmocka-dev libinih-dev pkgconf clang libclang-rt-dev zlib1g-dev \
      libsystemc-dev "$@")
missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all present (${pkgs[*]})"
  exit 0
fi
echo "deps: installing ${missing[*]} from Debian"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed ${missing[*]}"
