#!/usr/bin/env bash
# Prints where Debian's PostgreSQL server is (the state backend of the multi-runner tests and benchmark,
# docs/multi-runner.md), as two lines: `bin=<dir holding initdb, pg_ctl, postgres, psql>` and `libs=<dir for
# LD_LIBRARY_PATH, or empty>`.
#
# 1. An installed server (Debian's postgresql-<major>, /usr/lib/postgresql/<major>/bin) is used as it is.
# 2. Otherwise Debian's packages are fetched with `apt-get download` (no root needed, no service started, nothing
#    installed system-wide) and unpacked once with `dpkg -x` into the cache, outside the work tree:
#    $OPSLEDGER_CACHE_DIR/postgres/<version>. The server and client packages come with those of their shared libraries
#    this machine lacks (libllvm, for JIT only, is left out: the tests' clusters run with jit=off). PostgreSQL finds
#    its share files relative to its binaries, so the unpacked tree works where it is. When the machine's package
#    lists do not know postgresql (a fresh machine that never ran `apt-get update`), private lists are fetched into
#    the cache first, again without root. Shared-library dependencies are checked with ldd.
# `--fetch` skips step 1 (to check step 2 on a machine that has the server).
# Clusters are never created here: tests make their own (test/helpers/postgres.ts).
set -euo pipefail

# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
MAJOR=15
log() { echo "[opsledger:postgres] $*" >&2; }
layout() { [ -x "$1/initdb" ] && [ -x "$1/pg_ctl" ] && [ -x "$1/postgres" ] && [ -x "$1/psql" ]; }

fetch=false
[ "${1:-}" = "--fetch" ] && fetch=true

if ! $fetch; then
  for bin in /usr/lib/postgresql/*/bin; do
    if layout "$bin"; then
      echo "bin=$bin"
      echo "libs="
      exit 0
    fi
  done
fi

existing=$(find "$CACHE/postgres" -mindepth 1 -maxdepth 1 -type d -name "$MAJOR.*" 2>/dev/null | sort | tail -n 1 || true)
if [ -n "$existing" ] && layout "$existing/usr/lib/postgresql/$MAJOR/bin"; then
  echo "bin=$existing/usr/lib/postgresql/$MAJOR/bin"
  echo "libs=$(cat "$existing/libs")"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
  log "PostgreSQL $MAJOR is not installed and this machine has no apt-get/dpkg to fetch Debian's postgresql-$MAJOR:"
  log "install the PostgreSQL server (initdb, pg_ctl, postgres) and psql with your package manager"
  exit 1
fi

mkdir -p "$CACHE/postgres"
tmp=$(mktemp -d "$CACHE/postgres/fetch-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt's download sandbox user cannot write into a root-owned temp dir: download as the current user.
APT_OPTS=(-o "APT::Sandbox::User=$(id -un)" -q)
SERVER=("postgresql-$MAJOR" "postgresql-client-$MAJOR")
download() { (cd "$tmp" && apt-get "${APT_OPTS[@]}" download "$@" >/dev/null 2>"$tmp/err"); }
log "fetching Debian's ${SERVER[*]} with apt-get download (about 20 MB, once)"
if ! download "${SERVER[@]}"; then
  log "the machine's package lists do not have postgresql-$MAJOR ($(tail -n 1 "$tmp/err")); fetching private lists"
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
  APT_OPTS+=(-o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache")
  apt-get "${APT_OPTS[@]}" update >/dev/null
  download "${SERVER[@]}"
fi
# The shared libraries the two packages depend on (the first of each alternative) that are not installed here.
libs=()
for deb in "$tmp"/*.deb; do
  for dep in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -e 's/|.*//' -e 's/(.*)//' -e 's/ //g'); do
    case "$dep" in
      libllvm*) ;; # JIT only
      lib*) dpkg -s "$dep" >/dev/null 2>&1 || libs+=("$dep") ;;
    esac
  done
done
if [ "${#libs[@]}" -gt 0 ]; then
  log "fetching the libraries this machine lacks: ${libs[*]}"
  download "${libs[@]}"
fi
version=$(dpkg-deb -f "$tmp"/postgresql-"$MAJOR"_*.deb Version)
root="$tmp/root"
for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$root"; done
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/locale"
bin="$root/usr/lib/postgresql/$MAJOR/bin"
if ! layout "$bin"; then
  log "the unpacked packages hold no initdb, pg_ctl, postgres or psql under usr/lib/postgresql/$MAJOR/bin"
  exit 1
fi
libdir=$(find "$root/usr/lib" -mindepth 1 -maxdepth 1 -type d -name '*-linux-gnu*' | head -n 1)
missing=$(for b in initdb postgres psql; do LD_LIBRARY_PATH="$libdir" ldd "$bin/$b"; done | grep 'not found' | sort -u || true)
if [ -n "$missing" ]; then
  log "PostgreSQL $version needs shared libraries this machine lacks:"
  echo "$missing" >&2
  log "install them (Debian: apt-get install postgresql-$MAJOR) and run again"
  exit 1
fi
dest="$CACHE/postgres/$version"
rm -rf "$dest.partial" "$dest"
mv "$root" "$dest.partial"
# The library dir as it will be once the tree is in place.
echo "${libdir:+$dest/usr/lib/$(basename "$libdir")}" >"$dest.partial/libs"
mv "$dest.partial" "$dest"
log "PostgreSQL $version in $dest"
echo "bin=$dest/usr/lib/postgresql/$MAJOR/bin"
echo "libs=$(cat "$dest/libs")"
