#!/usr/bin/env bash
# Prints the directory holding the Pulumi CLI whose version equals the installed @pulumi/pulumi, with the Node.js
# language host `pulumi-language-nodejs` and the dynamic-provider launcher `pulumi-resource-pulumi-nodejs` beside it:
# what a user's own Pulumi installation has.
#
# 1. A `pulumi` on PATH at that version is used as it is (a normal Pulumi installation skips everything below).
# 2. Otherwise the official release archive pulumi-v<version>-linux-<arch>.tar.gz, unpacked once into the cache
#    (outside the work tree, keyed by version): $OPSLEDGER_CACHE_DIR/pulumi/v<version>/bin. The archive comes from
#    $OPSLEDGER_RELEASE_MIRROR when it is set (checked against the mirror's SHA256SUMS), else from Pulumi's download
#    site (checked against the checksums Pulumi publishes with the release). See scripts/lib/release-archive.sh.
# 3. Offline with no mirror: the CLI built from Go modules (scripts/build-pulumi-from-go.sh). That build has no
#    language host, which this script says plainly: programs in project directories cannot run.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE="${OPSLEDGER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-opsledger}"
log() { echo "[opsledger:pulumi] $*" >&2; }
# shellcheck source=lib/release-archive.sh
source "$ROOT/scripts/lib/release-archive.sh"

VERSION=$(node -p "require('$ROOT/node_modules/@pulumi/pulumi/package.json').version")
case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) log "no Pulumi release archive for $(uname -m)"; exit 1 ;;
esac

complete() { [ -x "$1/pulumi" ] && [ -x "$1/pulumi-language-nodejs" ] && [ -x "$1/pulumi-resource-pulumi-nodejs" ]; }

if command -v pulumi >/dev/null 2>&1; then
  have=$(pulumi version 2>/dev/null | sed 's/^v//' || true)
  if [ "$have" = "$VERSION" ]; then
    dir=$(dirname "$(command -v pulumi)")
    command -v pulumi-language-nodejs >/dev/null 2>&1 || [ -x "$dir/pulumi-language-nodejs" ] ||
      log "warning: the pulumi on PATH ($dir) has no pulumi-language-nodejs beside it or on PATH"
    echo "$dir"
    exit 0
  fi
fi

DIR="$CACHE/pulumi/v$VERSION"
BIN="$DIR/bin"
if complete "$BIN"; then
  echo "$BIN"
  exit 0
fi

FILE="pulumi-v$VERSION-linux-$ARCH.tar.gz"
OFFICIAL="https://get.pulumi.com/releases/sdk/$FILE"
# Pulumi's goreleaser publishes `pulumi-<version>-checksums.txt` with every release.
SUMS="https://github.com/pulumi/pulumi/releases/download/v$VERSION/pulumi-$VERSION-checksums.txt"
rc=0
fetch_release_archive "$FILE" "$OFFICIAL" "$SUMS" "$DIR/$FILE" || rc=$?
if [ "$rc" = 0 ]; then
  rm -rf "$BIN" "$DIR/unpack"
  mkdir -p "$DIR/unpack"
  tar -xzf "$DIR/$FILE" -C "$DIR/unpack"
  mv "$DIR/unpack/pulumi" "$BIN" # the archive's single top-level folder `pulumi/`
  rm -rf "$DIR/unpack" "$DIR/$FILE"
  [ -x "$BIN/pulumi-resource-pulumi-nodejs" ] || cp "$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$BIN/"
  complete "$BIN" || { log "$FILE lacks pulumi, pulumi-language-nodejs or pulumi-resource-pulumi-nodejs"; exit 1; }
  if [ -n "${OPSLEDGER_RELEASE_MIRROR:-}" ]; then echo "mirror $OPSLEDGER_RELEASE_MIRROR"; else echo "official $OFFICIAL"; fi > "$DIR/source"
  log "Pulumi CLI $("$BIN/pulumi" version) with pulumi-language-nodejs in $BIN"
  echo "$BIN"
  exit 0
fi
[ "$rc" = 3 ] || exit "$rc"

# Offline and no mirror: the Go-module build, if it is not cached already.
if [ ! -x "$BIN/pulumi" ] || [ ! -x "$BIN/pulumi-resource-pulumi-nodejs" ]; then
  log "no release archive reachable (set OPSLEDGER_RELEASE_MIRROR to a folder holding $FILE and SHA256SUMS)"
  bash "$ROOT/scripts/build-pulumi-from-go.sh" "$VERSION" "$DIR" >/dev/null
fi
log "WARNING: this Pulumi CLI was built from Go modules and has NO Node.js language host (pulumi-language-nodejs)."
log "         Disabled: 'pulumi preview/up' in a project directory, examples/*, npm run demo and the e2e tests"
log "         that drive the CLI (they fail naming the missing host). Automation API inline programs still work."
echo "$BIN"
