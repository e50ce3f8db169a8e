#!/usr/bin/env bash
# Prints the path of a verdaccio executable (a real npm registry server, from the npm registry) for the release tests'
# stand-in registry (test/helpers/registries.ts). Installed once with the project's npm into
# $OPSLEDGER_CACHE_DIR/verdaccio/<version> (default ~/.cache/pulumi-opsledger, outside the work tree) and reused; it
# runs on the project's Node (verdaccio 6.10 wants Node 22 or newer). About 300 packages, 30 s.
#   bash scripts/ensure-verdaccio.sh
set -euo pipefail
VERSION=6.10.4
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
dir="$CACHE/verdaccio/$VERSION"
bin="$dir/node_modules/.bin/verdaccio"
log() { echo "[opsledger:verdaccio] $*" >&2; }
if [ -f "$dir/.complete" ]; then
  echo "$bin"
  exit 0
fi
mkdir -p "$CACHE/verdaccio"
# Two test files may ask at once: one installs, the other waits.
exec 9> "$dir.lock"
flock 9
if [ -f "$dir/.complete" ]; then
  echo "$bin"
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
export PATH="$(bash "$ROOT/scripts/ensure-node.sh"):$PATH"
log "installing verdaccio@$VERSION from the npm registry into $dir (once)"
# verdaccio asks for node-fetch by a dist-tag (`cjs`) the registry no longer has: pin what that tag named.
echo '{"name":"opsledger-verdaccio","private":true,"overrides":{"node-fetch":"2.7.0"}}' > "$dir/package.json"
if ! npm install --prefix "$dir" --no-audit --no-fund --loglevel=notice --ignore-scripts "verdaccio@$VERSION" >&2; then
  rm -rf "$dir"
  log "npm could not install verdaccio@$VERSION (see above)"
  exit 1
fi
touch "$dir/.complete"
log "verdaccio ready: $bin"
echo "$bin"
