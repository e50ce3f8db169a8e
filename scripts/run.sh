#!/usr/bin/env bash
# The one entry point behind the README's commands (`npm test`, `npm run demo`, ...). Bash does only what must come
# before Node can run the project's own TypeScript; on a fresh machine it:
#   1. provides Node >= 22 (scripts/ensure-node.sh) first on PATH for everything below;
#   2. installs the locked npm dependencies when package-lock.json changed since the last install;
#   3. builds the TypeScript (tsc, incremental), then hands the task to scripts/run.ts (`npm test`: scripts/run-tests.ts),
#      which provides the Pulumi CLI, SoftHSM2 and the rest where the task needs them.
# Caches live outside the work tree, in the folder scripts/lib/cache-dir.sh names (default ~/.cache/pulumi-opsledger).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
task="${1:-test}"; shift || true
# scripts/run.ts counts its log's `+Ns` from here, so a CI log shows where the time went.
OPSLEDGER_RUN_STARTED_MS=$(date +%s%3N)
export OPSLEDGER_RUN_STARTED_MS
log() { echo "[opsledger] +${SECONDS}s $*" >&2; }

# The user's own PATH, for `npm run sandbox` (it prints the project's tool directories this PATH lacks).
export OPSLEDGER_USER_PATH="$PATH"
NODE_BIN=$(bash scripts/ensure-node.sh)
export PATH="$NODE_BIN:$ROOT/node_modules/.bin:$PATH"

# Native addons (pkcs11js, the PKCS#11 binding) build with node-gyp against the headers of the Node that runs them. The
# Node package and the official archives ship those headers next to bin/: point node-gyp there, so it never tries to
# download them (these machines reach no Node download site).
node_prefix=$(cd "$NODE_BIN/.." && pwd)
if [ -f "$node_prefix/include/node/node_api.h" ]; then export npm_config_nodedir="$node_prefix"; fi

stamp="$(node --version) $(sha256sum package-lock.json 2>/dev/null | cut -c1-16)"
if [ ! -f node_modules/.opsledger-stamp ] || [ "$(cat node_modules/.opsledger-stamp)" != "$stamp" ]; then
  log "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$stamp" > node_modules/.opsledger-stamp
fi
# In-repo programs load the dynamic providers' short stubs, which require this package by name: link it.
[ -e node_modules/pulumi-opsledger ] || ln -s .. node_modules/pulumi-opsledger

# The assets chaincode (sandbox/fabric-network/chaincode) is compiled on its own: fabric-contract-api's decorators
# need experimentalDecorators and emitDecoratorMetadata.
tsc -p tsconfig.json
tsc -p sandbox/fabric-network/chaincode
exec node dist/scripts/run.js "$task" "$@"
