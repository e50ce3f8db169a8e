#!/usr/bin/env bash
# Prints the directory holding Hyperledger Fabric's release binaries at the version asked for (default 2.5.16, the
# LTS line; 3.1.5 is the current line): $OPSLEDGER_CACHE_DIR/fabric/v<version>/ with bin/ (peer, orderer, osnadmin,
# configtxgen, configtxlator, cryptogen), config/ (the release's sample core.yaml, orderer.yaml, configtx.yaml) and
# builders/ccaas/bin/ (the chaincode-as-a-service external builder), unpacked once from the official release archive
# hyperledger-fabric-linux-<arch>-<version>.tar.gz.
#
#   bash scripts/ensure-fabric.sh [version]
#
# Where the archive comes from (scripts/lib/release-archive.sh):
# 1. $OPSLEDGER_RELEASE_MIRROR when set: a folder or URL prefix with the archive under its official name, checked
#    against the mirror's SHA256SUMS.
# 2. Otherwise the GitHub release of hyperledger/fabric,
#    https://github.com/hyperledger/fabric/releases/download/v<version>/<file>. Fabric publishes NO checksum file with
#    its release assets (its release workflow at v2.5.16 and v3.1.5,
#    https://github.com/hyperledger/fabric/blob/v2.5.16/.github/workflows/release.yml, uploads only the
#    `release-*-*/*.tar.gz` archives), so that download is refused unless the expected digest is pinned in
#    OPSLEDGER_EXPECTED_SHA256 (e.g. the digest you verified once from a trusted copy).
# The network code (sandbox/fabric-network) calls this script; nothing is written into the work tree.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
log() { echo "[opsledger:fabric] $*" >&2; }
# shellcheck source=lib/release-archive.sh
source "$ROOT/scripts/lib/release-archive.sh"

VERSION="${1:-2.5.16}"
if ! [[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  log "version must look like 2.5.16 or 3.1.5, got '$VERSION'"
  exit 2
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) PLATFORM=linux-amd64 ;;
  Linux-aarch64 | Linux-arm64) PLATFORM=linux-arm64 ;;
  *) log "no Fabric release archive for $(uname -s) $(uname -m) (the network runs Linux binaries)"; exit 1 ;;
esac

DIR="$CACHE/fabric/v$VERSION"
complete() {
  local d="$1" f
  for f in bin/peer bin/orderer bin/osnadmin bin/configtxgen bin/cryptogen \
    builders/ccaas/bin/detect builders/ccaas/bin/build builders/ccaas/bin/release; do
    [ -x "$d/$f" ] || return 1
  done
  [ -f "$d/config/core.yaml" ] && [ -f "$d/config/orderer.yaml" ]
}
if complete "$DIR"; then
  echo "$DIR"
  exit 0
fi

FILE="hyperledger-fabric-$PLATFORM-$VERSION.tar.gz"
OFFICIAL="https://github.com/hyperledger/fabric/releases/download/v$VERSION/$FILE"
mkdir -p "$CACHE/fabric"
# Unpack beside the destination and rename into place: parallel callers (mocha workers, other checkouts sharing the
# cache) never see a half-unpacked folder, and the loser of the race keeps the winner's copy.
work=$(mktemp -d "$CACHE/fabric/.v$VERSION.XXXXXX")
trap 'rm -rf "$work"' EXIT
# "" = no official checksum list: release-archive.sh then requires OPSLEDGER_EXPECTED_SHA256 for the official URL.
fetch_release_archive "$FILE" "$OFFICIAL" "" "$work/$FILE" || {
  rc=$?
  [ "$rc" = 3 ] && log "cannot reach $OFFICIAL (set OPSLEDGER_RELEASE_MIRROR to a folder holding $FILE and SHA256SUMS)"
  exit "$rc"
}
mkdir -p "$work/tree"
tar -xzf "$work/$FILE" -C "$work/tree"
complete "$work/tree" || { log "$FILE lacks bin/{peer,orderer,osnadmin,configtxgen,cryptogen}, config/ or builders/ccaas/bin"; exit 1; }
if [ -n "${OPSLEDGER_RELEASE_MIRROR:-}" ]; then echo "mirror $OPSLEDGER_RELEASE_MIRROR"; else echo "official $OFFICIAL"; fi > "$work/tree/source"
if complete "$DIR"; then
  : # another caller finished first: keep its copy (running networks may use it), drop ours
else
  if [ -e "$DIR" ]; then # an incomplete copy from an interrupted run
    stale=$(mktemp -d "$CACHE/fabric/.stale.XXXXXX")
    mv "$DIR" "$stale/" 2>/dev/null || true
    rm -rf "$stale"
  fi
  if ! mv -T "$work/tree" "$DIR" 2>/dev/null; then
    complete "$DIR" || { log "could not move the unpacked archive into $DIR"; exit 1; }
  fi
  log "Fabric $("$DIR/bin/peer" version 2>/dev/null | awk '/Version:/ { print $2; exit }') binaries in $DIR"
fi
echo "$DIR"
