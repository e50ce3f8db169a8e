#!/usr/bin/env bash
# Prints the directory holding SoftHSM2 (Debian's `softhsm2`, the PKCS#11 token the ledger's HSM tests and benchmarks
# sign with), laid out as `<dir>/bin/softhsm2-util` and `<dir>/lib/libsofthsm2.so`.
#
# 1. An installed SoftHSM (the Debian packages, `apt-get install softhsm2`) is used as it is.
# 2. Otherwise Debian's packages are fetched with `apt-get download` (no root needed) and unpacked once with
#    `dpkg -x` into the cache, outside the work tree: $OPSLEDGER_CACHE_DIR/softhsm/<version>. When the machine's
#    package lists do not know softhsm2 (a fresh machine that never ran `apt-get update`), private lists are fetched
#    into the cache first, again without root. Shared-library dependencies are checked with ldd.
# Tokens are never created here: tests make their own in a temp dir (SOFTHSM2_CONF per test).
set -euo pipefail

# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
log() { echo "[opsledger:softhsm] $*" >&2; }

layout() { [ -x "$1/bin/softhsm2-util" ] && [ -f "$1/lib/libsofthsm2.so" ]; }

for lib in /usr/lib/softhsm/libsofthsm2.so /usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so \
  /usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so /usr/local/lib/softhsm/libsofthsm2.so; do
  if [ -f "$lib" ] && command -v softhsm2-util >/dev/null 2>&1; then
    dir="$CACHE/softhsm/system"
    mkdir -p "$dir/bin" "$dir/lib"
    ln -sf "$(command -v softhsm2-util)" "$dir/bin/softhsm2-util"
    ln -sf "$lib" "$dir/lib/libsofthsm2.so"
    echo "$dir"
    exit 0
  fi
done

existing=$(find "$CACHE/softhsm" -mindepth 1 -maxdepth 1 -type d -name '2*' 2>/dev/null | sort | tail -n 1 || true)
if [ -n "$existing" ] && layout "$existing"; then
  echo "$existing"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
  log "SoftHSM2 is not installed and this machine has no apt-get/dpkg to fetch Debian's softhsm2 package:"
  log "install SoftHSM 2 (softhsm2-util and libsofthsm2.so) with your package manager"
  exit 1
fi

mkdir -p "$CACHE/softhsm"
tmp=$(mktemp -d "$CACHE/softhsm/fetch-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
PACKAGES=(softhsm2 libsofthsm2 softhsm2-common)
log "fetching Debian's ${PACKAGES[*]} with apt-get download (about 450 kB, once)"
# apt's download sandbox user cannot write into a root-owned temp dir: download as the current user.
APT_OPTS=(-o "APT::Sandbox::User=$(id -un)" -q)
if ! (cd "$tmp" && apt-get "${APT_OPTS[@]}" download "${PACKAGES[@]}" >/dev/null 2>"$tmp/err"); then
  log "the machine's package lists do not have softhsm2 ($(tail -n 1 "$tmp/err")); fetching private lists"
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
  APT_OPTS+=(-o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache")
  apt-get "${APT_OPTS[@]}" update >/dev/null
  (cd "$tmp" && apt-get "${APT_OPTS[@]}" download "${PACKAGES[@]}" >/dev/null)
fi
version=$(dpkg-deb -f "$tmp"/libsofthsm2_*.deb Version)
root="$tmp/root"
for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$root"; done
lib=$(find "$root" -name libsofthsm2.so -type f | head -n 1)
util="$root/usr/bin/softhsm2-util"
if [ -z "$lib" ] || [ ! -x "$util" ]; then
  log "the unpacked packages hold no libsofthsm2.so or softhsm2-util"
  exit 1
fi
missing=$( (ldd "$lib"; ldd "$util") | grep 'not found' || true)
if [ -n "$missing" ]; then
  log "SoftHSM $version needs shared libraries this machine lacks:"
  echo "$missing" >&2
  log "install them (Debian: libssl3, libsqlite3-0, libstdc++6) and run again"
  exit 1
fi
dest="$CACHE/softhsm/$version"
rm -rf "$dest.partial"
mkdir -p "$dest.partial/bin" "$dest.partial/lib"
cp "$util" "$dest.partial/bin/softhsm2-util"
cp "$lib" "$dest.partial/lib/libsofthsm2.so"
rm -rf "$dest"
mv "$dest.partial" "$dest"
log "SoftHSM $version in $dest"
echo "$dest"
