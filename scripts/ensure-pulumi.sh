#!/usr/bin/env bash
# Prints the directory holding the Pulumi CLI whose version equals the installed @pulumi/pulumi, with the Node.js
# language host `pulumi-language-nodejs` and the dynamic-provider launcher `pulumi-resource-pulumi-nodejs` beside it:
# what a user's own Pulumi installation has.
#
# 1. A `pulumi` on PATH at that version is used as it is (a normal Pulumi installation skips everything below).
# 2. Otherwise the official release archive pulumi-v<version>-linux-<arch>.tar.gz, unpacked once into the cache
#    (outside the work tree): $OPSLEDGER_CACHE_DIR/pulumi/v<version>/bin. The version alone does not identify the
#    tree: the cached tree must hold every host the project runs (`complete` below: the Node.js, YAML and Go language
#    hosts), and its `sha256` file must equal the digest the mirror's SHA256SUMS lists today — an archive rebuilt
#    under the same version (the mirror's gained the YAML/Go/Python hosts) replaces the older tree. The archive comes from
#    $OPSLEDGER_RELEASE_MIRROR when it is set (checked against the mirror's SHA256SUMS), else from Pulumi's download
#    site (checked against the checksums Pulumi publishes with the release). See scripts/lib/release-archive.sh.
# 3. Offline with no mirror: the CLI built from Go modules (scripts/build-pulumi-from-go.sh). That build has no
#    language host, which this script says plainly: programs in project directories cannot run.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
log() { echo "[opsledger:pulumi] $*" >&2; }
# shellcheck source=lib/release-archive.sh
source "$ROOT/scripts/lib/release-archive.sh"

VERSION=$(node -p "require('$ROOT/node_modules/@pulumi/pulumi/package.json').version")
case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) log "no Pulumi release archive for $(uname -m)"; exit 1 ;;
esac

# Every executable the project's programs need: the CLI, the language hosts of the examples (Node.js, YAML, Go) and
# the dynamic-provider launcher.
HOSTS="pulumi pulumi-language-nodejs pulumi-language-yaml pulumi-language-go pulumi-resource-pulumi-nodejs"
complete() {
  local h
  for h in $HOSTS; do [ -x "$1/$h" ] || return 1; done
}
# The digest the mirror lists for the archive today ("" without a mirror or when it is unreadable: then the cached
# tree is trusted as long as it is complete).
mirror_digest() {
  [ -n "${OPSLEDGER_RELEASE_MIRROR:-}" ] || return 0
  local sums="${OPSLEDGER_RELEASE_MIRROR%/}/SHA256SUMS"
  sums="${sums#file://}"
  [ -r "$sums" ] || return 0
  _rel_expected "$sums" "$1"
}

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
FILE="pulumi-v$VERSION-linux-$ARCH.tar.gz"
want=$(mirror_digest "$FILE")
have=$(cat "$DIR/sha256" 2>/dev/null || true)
if complete "$BIN" && { [ -z "$want" ] || [ "$want" = "$have" ]; }; then
  echo "$BIN"
  exit 0
fi
if [ -x "$BIN/pulumi" ] && [ -n "$want$have" ]; then
  log "the cached Pulumi tree in $BIN is stale (archive sha256 ${have:-unknown}, mirror lists ${want:-a tree with $HOSTS}): installing again"
fi

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
  sha256sum "$DIR/$FILE" | cut -d' ' -f1 > "$DIR/sha256"
  rm -rf "$DIR/unpack" "$DIR/$FILE"
  [ -x "$BIN/pulumi-resource-pulumi-nodejs" ] || cp "$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$BIN/"
  complete "$BIN" || { log "$FILE lacks one of: $HOSTS"; exit 1; }
  if [ -n "${OPSLEDGER_RELEASE_MIRROR:-}" ]; then echo "mirror $OPSLEDGER_RELEASE_MIRROR"; else echo "official $OFFICIAL"; fi > "$DIR/source"
  log "Pulumi CLI $("$BIN/pulumi" version) with the Node.js, YAML and Go language hosts in $BIN"
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
