#!/usr/bin/env bash
# The one entry point behind the README's commands (`npm test`, `npm run demo`, ...). On a fresh machine it:
#   1. provides Node >= 22 (scripts/ensure-node.sh) first on PATH for everything below;
#   2. installs the locked npm dependencies when package-lock.json changed since the last install;
#   3. builds the TypeScript (tsc, incremental);
#   4. provides the Pulumi CLI at the version of @pulumi/pulumi (scripts/ensure-pulumi.sh) where the task needs it.
# Caches live outside the work tree under $OPSLEDGER_CACHE_DIR (default ~/.cache/pulumi-opsledger).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
task="${1:-test}"; shift || true
log() { echo "[opsledger] $*" >&2; }

NODE_BIN=$(bash scripts/ensure-node.sh)
export PATH="$NODE_BIN:$ROOT/node_modules/.bin:$PATH"

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
build() { tsc -p tsconfig.json && tsc -p sandbox/fabric-network/chaincode; }
lint() {
  log "tsc: the examples against the built package, as their users compile them"
  tsc --noEmit -p examples
  log "eslint (typescript-eslint strictTypeChecked)"
  # Typed linting of the whole repository peaks near 3.8 GB, at Node's default heap limit here (4 GB): give it
  # room rather than fail on an out-of-memory abort under load.
  NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=6144" eslint --max-warnings 0 .
  log "prettier --check"
  prettier --check . --log-level warn
}
pulumi_env() {
  local bin; bin=$(bash scripts/ensure-pulumi.sh)
  export OPSLEDGER_PULUMI_BIN="$bin" PATH="$bin:$PATH"
}

case "$task" in
  build) build ;;
  lint) build; lint ;;
  test)
    build
    lint
    pulumi_env
    log "mocha"
    # CI reads the plain closing line "N passed, N failed"; mocha's own summary says "N passing" / "N failing".
    out=$(mktemp)
    set +e
    mocha "$@" 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    set -e
    # (|| true: a run without failures has no "failing" line, and grep's exit 1 must not end the script.)
    passed=$(grep -E '^ +[0-9]+ passing' "$out" | tail -n 1 | grep -Eo '[0-9]+' | head -n 1 || true)
    failed=$(grep -E '^ +[0-9]+ failing' "$out" | tail -n 1 | grep -Eo '[0-9]+' | head -n 1 || true)
    rm -f "$out"
    echo "mocha: ${passed:-0} passed, ${failed:-0} failed"
    exit "$rc"
    ;;
  demo) build; pulumi_env; node dist/scripts/demo.js "$@" ;;
  bench) build; pulumi_env; node dist/bench/index.js "$@" ;;
  sandbox) build; node dist/sandbox/cli.js "$@" ;;
  fabric:up) build; node dist/sandbox/fabric-network/cli.js up "$@" ;;
  fabric:down) build; node dist/sandbox/fabric-network/cli.js down "$@" ;;
  *) log "unknown task '$task' (build, lint, test, demo, bench, sandbox, fabric:up, fabric:down)"; exit 2 ;;
esac
