#!/usr/bin/env bash
# Puts madpost's files under a root (DESTDIR + PREFIX) and takes them away again (make install,
# make uninstall; docs/install.md). Install records every file it wrote and every directory it
# had to create in ROOT/share/madpost/install-manifest; uninstall removes exactly those (a
# directory only once it is empty), so it takes nothing that was there before and leaves a
# prefix that held nothing else empty. Installing twice keeps both records.
# usage: install.sh install ROOT < LIST    LIST: lines "MODE SOURCE DEST" (DEST relative to ROOT;
#                                          MODE an octal mode, or "link": DEST a symlink to SOURCE)
#        install.sh uninstall ROOT
set -euo pipefail
usage() { echo "usage: install.sh install ROOT < LIST | install.sh uninstall ROOT" >&2; exit 2; }
[ $# -eq 2 ] || usage
mode=$1 root=$2
[ -n "$root" ] || usage
manifest=share/madpost/install-manifest

# mkdirs DIR: creates DIR (relative to root) and the parents it lacks, recording each as "d DIR".
mkdirs() {
  local d=$1
  [ "$d" = . ] || [ -d "$root/$d" ] && return 0
  mkdirs "$(dirname "$d")"
  mkdir "$root/$d"
  echo "d $d" >> "$rec"
}

case $mode in
  install)
    mkdir -p "$root"
    rec=$(mktemp); trap 'rm -f "$rec"' EXIT
    [ -f "$root/$manifest" ] && cat "$root/$manifest" > "$rec"
    while read -r m src dst; do
      [ -n "$m" ] || continue
      mkdirs "$(dirname "$dst")"
      if [ "$m" = link ]; then
        ln -sfn "$src" "$root/$dst"
      else
        [ -f "$src" ] || { echo "install: no $src (build it first)" >&2; exit 1; }
        install -m "$m" "$src" "$root/$dst"
      fi
      echo "f $dst" >> "$rec"
    done
    mkdirs "$(dirname "$manifest")"
    sort -u "$rec" > "$root/$manifest"
    echo "install: $(grep -c '^f ' "$root/$manifest") files under $root (record: $manifest)"
    ;;
  uninstall)
    if [ ! -f "$root/$manifest" ]; then
      echo "uninstall: no madpost installed under $root (no $manifest)" >&2; exit 1
    fi
    n=0
    while read -r k p; do
      [ "$k" = f ] || continue
      rm -f "$root/$p"; n=$((n + 1))
    done < "$root/$manifest"
    dirs=$(sed -n 's/^d //p' "$root/$manifest" | LC_ALL=C sort -r)  # children before parents
    rm -f "$root/$manifest"
    for d in $dirs; do
      rmdir "$root/$d" 2>/dev/null || echo "uninstall: kept $root/$d (other files in it)"
    done
    echo "uninstall: removed $n files from $root"
    ;;
  *) usage ;;
esac
