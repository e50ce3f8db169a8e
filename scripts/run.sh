#!/usr/bin/env bash
# The one entry point behind the README's commands (`npm test`, `npm run demo`, ...). On a fresh machine it:
#   1. provides Node >= 22 (scripts/ensure-node.sh) first on PATH for everything below;
#   2. installs the locked npm dependencies when package-lock.json changed since the last install;
#   3. builds the TypeScript (tsc, incremental);
#   4. provides the Pulumi CLI at the version of @pulumi/pulumi (scripts/ensure-pulumi.sh) where the task needs it;
#   5. provides SoftHSM2 (scripts/ensure-softhsm.sh) for the tests and benchmarks that sign through PKCS#11.
# Caches live outside the work tree under $OPSLEDGER_CACHE_DIR (default ~/.cache/pulumi-opsledger).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
task="${1:-test}"; shift || true
# Each line says how far into the command it is, so a CI log shows where the time went.
log() { echo "[opsledger] +${SECONDS}s $*" >&2; }
# The project's cache folder, outside the work tree (the ensure-*.sh scripts compute the same).
CACHE="${OPSLEDGER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-opsledger}"

USER_PATH="$PATH"
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
# pkcs11js is an optional dependency (users without an HSM need no compiler); this repository's tests need it built.
require_pkcs11js() {
  node -e "require('pkcs11js')" 2>/dev/null && return 0
  log "pkcs11js (optional dependency) did not build; rebuilding it to show why"
  npm rebuild pkcs11js --foreground-scripts >&2 || true
  node -e "require('pkcs11js')" || { log "pkcs11js cannot be loaded: the PKCS#11 tests cannot run"; exit 1; }
}
softhsm_env() {
  local dir; dir=$(bash scripts/ensure-softhsm.sh)
  export OPSLEDGER_SOFTHSM_UTIL="$dir/bin/softhsm2-util" OPSLEDGER_SOFTHSM_LIB="$dir/lib/libsofthsm2.so"
}
# In-repo programs load the dynamic providers' short stubs, which require this package by name: link it.
[ -e node_modules/pulumi-opsledger ] || ln -s .. node_modules/pulumi-opsledger

# The assets chaincode (sandbox/fabric-network/chaincode) is compiled on its own: fabric-contract-api's decorators
# need experimentalDecorators and emitDecoratorMetadata.
# tsc never deletes what it compiled from a source that is gone: without this, a removed test would still run here.
prune_dist() {
  local f src
  while IFS= read -r -d '' f; do
    src="${f#dist/}"
    src="${src%.js}.ts"
    [ -e "$src" ] || rm -f "$f" "$f.map" "${f%.js}.d.ts"
  done < <(find dist -name '*.js' -print0 2>/dev/null)
}
build() { tsc -p tsconfig.json && tsc -p sandbox/fabric-network/chaincode && prune_dist; }
# The lint in two parts. The examples' part type-checks examples/*/index.ts, which resolve their imports through
# examples/pr-preview/node_modules when it exists: test/e2e/pr-preview.test.ts runs that README's `npm ci`, so `npm test`
# runs this part before the tests start, never while that install may be half-written.
lint_examples() {
  log "tsc: the examples against the built package, as their users compile them"
  tsc --noEmit -p examples
  log "eslint examples/ (typescript-eslint strictTypeChecked)"
  eslint --max-warnings 0 examples
}
lint_rest() {
  log "eslint, all but examples/ (typescript-eslint strictTypeChecked)"
  # Typed linting of the whole repository peaked near 3.8 GB while a test imported the googleapis index (189 MB of
  # declarations); 1.4 GB and 30 core-s since (2026-11-26). The heap room stays: an out-of-memory abort under load
  # would fail the run for nothing.
  NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=6144" eslint --max-warnings 0 --ignore-pattern 'examples/**' .
  log "prettier --check"
  prettier --check . --log-level warn
}
lint() { lint_examples; lint_rest; }
pulumi_env() {
  local bin; bin=$(bash scripts/ensure-pulumi.sh)
  export OPSLEDGER_PULUMI_BIN="$bin" PATH="$bin:$PATH"
}

# For `npm run sandbox`: the project's Node and Pulumi CLI directories that the user's own PATH lacks; the sandbox prints
# them as an `export PATH=...` line, so the examples' README commands work in the shell that pastes its lines.
tool_path() {
  local dirs="" bin
  case ":$USER_PATH:" in *":$NODE_BIN:"*) ;; *) dirs="$NODE_BIN" ;; esac
  if bin=$(bash scripts/ensure-pulumi.sh); then
    case ":$USER_PATH:" in *":$bin:"*) ;; *) dirs="${dirs:+$dirs:}$bin" ;; esac
  fi
  export OPSLEDGER_TOOL_PATH="$dirs"
}

case "$task" in
  build) build ;;
  lint) build; lint ;;
  # The part of the lint that `npm test` starts beside the tests, once the build and the examples' part are done.
  lint-rest) lint_rest ;;
  test)
    build
    # OPSLEDGER_SKIP_LINT=1 is for a developer re-running a few spec files after `npm run lint` passed: whole-repository
    # typed linting takes a minute of CPU and ~1.4 GB. CI never sets it.
    # The lint of all but the examples runs beside the tests: ESLint is single-threaded and would otherwise leave one of
    # the two cores idle for half a minute before the first test. Its output is shown, and its failure counted, after
    # mocha's summary (docs/testing.md#where-the-time-goes). Not at a lower priority: on a loaded machine a niced lint
    # was starved until the tests ended and then ran on alone (142 s after mocha's end, with two busy loops beside).
    lint_pid="" lint_out=""
    if [ "${OPSLEDGER_SKIP_LINT:-}" = 1 ] && [ "${CI:-}" != true ]; then
      log "lint skipped (OPSLEDGER_SKIP_LINT=1)"
    else
      lint_examples
      lint_out=$(mktemp)
      log "lint of the rest (eslint, prettier) started beside the tests; its result follows mocha's"
      (bash "$0" lint-rest > "$lint_out" 2>&1) &
      lint_pid=$!
    fi
    pulumi_env
    require_pkcs11js
    softhsm_env
    # Every pulumi command starts a program and a provider process that load @pulumi/pulumi (and TypeScript, for
    # ts-node): Node's on-disk compile cache halves the CPU of loading them, about 1 % of the suite's time
    # (docs/testing.md#where-the-time-goes).
    export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$CACHE/node-compile-cache}"
    log "mocha"
    # CI reads the plain closing line "N passed, N failed, N skipped"; mocha's own summary says "N passing" /
    # "N failing" / "N pending". .mocharc.json forbids .only and pending tests (they count as failed), so a skipped
    # test shows here only when a run is started with --no-forbid-pending.
    out=$(mktemp)
    timings=$(mktemp)
    export OPSLEDGER_TEST_TIMINGS="$timings"
    set +e
    # Every tier unless the arguments name spec files (mocha would add a config file's `spec` to named files).
    # The longest files first (test/slowest-first.txt, then e2e, integration, unit): mocha's workers take the files in
    # this order, so none of the long ones starts last and runs on alone while the other workers have nothing left.
    order=$(node dist/scripts/test-order.js) || { log "test/slowest-first.txt: see the error above"; exit 1; }
    mapfile -t specs <<< "$order"
    # A TypeScript spec named as it is in the tree (test/.../x.test.ts) runs as its compiled file.
    args=()
    for arg in "$@"; do
      case "$arg" in
        test/*.test.ts) args+=("dist/${arg%.ts}.js") specs=() ;;
        # A folder of the tree (test/e2e, test/integration/ledger/) runs the spec files under it, not the whole suite.
        test | test/*)
          if [ ! -d "$arg" ]; then
            log "$arg: no such spec file or folder (name test/.../x.test.ts files or a folder under test/)"
            exit 1
          fi
          mapfile -t found < <(find "dist/${arg%/}" -name '*.test.js' | sort)
          if [ ${#found[@]} -eq 0 ]; then
            log "$arg: no spec files under it"
            exit 1
          fi
          args+=("${found[@]}") specs=() ;;
        *.test.js | dist/*) args+=("$arg") specs=() ;;
        *) args+=("$arg") ;;
      esac
    done
    mocha "${specs[@]}" "${args[@]}" 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    set -e
    # (|| true: a run without failures has no "failing" line, and grep's exit 1 must not end the script.)
    passed=$(grep -E '^ +[0-9]+ passing' "$out" | tail -n 1 | grep -Eo '[0-9]+' | head -n 1 || true)
    failed=$(grep -E '^ +[0-9]+ failing' "$out" | tail -n 1 | grep -Eo '[0-9]+' | head -n 1 || true)
    pending=$(grep -E '^ +[0-9]+ pending' "$out" | tail -n 1 | grep -Eo '[0-9]+' | head -n 1 || true)
    rm -f "$out"
    # Where the time went: the slowest spec files (wall time in their worker, hooks included) and the sum per tier.
    node dist/scripts/test-timings.js "$timings" >&2 || true
    rm -f "$timings"
    if [ "$rc" -ne 0 ] && [ -z "$failed" ]; then
      log "mocha exited with $rc before counting any failure (a forbidden .only, a file that does not load: see above)"
    fi
    lint_rc=0
    if [ -n "$lint_pid" ]; then
      log "waiting for the lint started beside the tests"
      wait "$lint_pid" || lint_rc=$?
      cat "$lint_out" >&2
      rm -f "$lint_out"
      if [ "$lint_rc" -ne 0 ]; then log "lint FAILED (exit $lint_rc): see its output above"; else log "lint passed"; fi
    fi
    echo "mocha: ${passed:-0} passed, ${failed:-0} failed, ${pending:-0} skipped"
    if [ "$rc" -eq 0 ] && [ "$lint_rc" -ne 0 ]; then rc=$lint_rc; fi
    exit "$rc"
    ;;
  demo) build; pulumi_env; node dist/scripts/demo.js "$@" ;;
  # Once per release, before its version changes: test/fixtures/upgrade/<version>/ (scripts/record-upgrade-fixtures.ts).
  record-upgrade-fixtures) build; pulumi_env; node dist/scripts/record-upgrade-fixtures.js "$@" ;;
  bench) build; pulumi_env; require_pkcs11js; softhsm_env; node dist/bench/index.js "$@" ;;
  # Coverage-guided fuzzing of the decoders (fuzz/index.ts): a benchmark-style run, never part of `npm test`.
  fuzz) build; node dist/fuzz/index.js "$@" ;;
  sandbox) build; tool_path; node dist/sandbox/cli.js "$@" ;;
  fabric:up) build; node dist/sandbox/fabric-network/cli.js up "$@" ;;
  fabric:down) build; node dist/sandbox/fabric-network/cli.js down "$@" ;;
  *) log "unknown task '$task' (build, lint, test, demo, record-upgrade-fixtures, bench, fuzz, sandbox, fabric:up, fabric:down)"; exit 2 ;;
esac
