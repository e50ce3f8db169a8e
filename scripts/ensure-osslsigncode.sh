#!/usr/bin/env bash
# Prints the path of osslsigncode (Authenticode signing tool), which removes the official Windows Node.js binary's
# signature before the plugin is injected into it (scripts/build-plugin-executables.ts) and checks that none is left.
# The machine's osslsigncode is used when there is one; otherwise Debian's package is unpacked once into the cache,
# without root (scripts/lib/debian-packages.sh).
set -euo pipefail
CACHE="${OPSLEDGER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-opsledger}"
if command -v osslsigncode >/dev/null 2>&1; then command -v osslsigncode; exit 0; fi
dest="$CACHE/osslsigncode/debian"
if [ ! -x "$dest/usr/bin/osslsigncode" ]; then
  source "$(dirname "$0")/lib/debian-packages.sh"
  unpack_debian_packages "$dest" osslsigncode
fi
missing=$(ldd "$dest/usr/bin/osslsigncode" | grep 'not found' || true)
if [ -n "$missing" ]; then
  echo "[opsledger:osslsigncode] Debian's osslsigncode needs libraries this machine lacks (Debian: libcurl4, libssl3):" >&2
  echo "$missing" >&2
  exit 1
fi
echo "$dest/usr/bin/osslsigncode"
