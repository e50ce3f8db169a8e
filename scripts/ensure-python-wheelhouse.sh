#!/usr/bin/env bash
# Prints a folder of the wheels the Python SDK's users install beside it (`pulumi` at the CLI's version, and what the
# SDK and pulumi require), for the release tests' stand-in PyPI index on 127.0.0.1 (test/helpers/registries.ts): with
# them and the release's wheel and sdist, `pip install pulumi-opsledger` from that index needs nothing else.
# Downloaded once with pip from PyPI (or $PIP_INDEX_URL) into $OPSLEDGER_CACHE_DIR/python/wheelhouse-<key> (the
# interpreter's version and what the SDK requires name the folder) and reused.
#   bash scripts/ensure-python-wheelhouse.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
log() { echo "[opsledger:python] $*" >&2; }
bin=$(bash "$ROOT/scripts/ensure-python.sh")
PULUMI_VERSION=$(node -p "require('$ROOT/node_modules/@pulumi/pulumi/package.json').version")
# The SDK's own requirements (pyproject.toml's dependencies), pulumi pinned to the CLI's version.
mapfile -t reqs < <("$bin/python3" -c '
import sys, tomllib
deps = tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]
print("\n".join(d for d in deps if not d.startswith("pulumi>")))' "$ROOT/sdk/python/pyproject.toml")
reqs+=("pulumi==$PULUMI_VERSION")
pyver=$("$bin/python3" -c 'import platform; print(platform.python_version())')
key=$(printf '%s\n' "$pyver" "${reqs[@]}" | sha256sum | cut -c1-16)
dir="$CACHE/python/wheelhouse-$key"
if [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi
mkdir -p "$CACHE/python"
exec 9> "$dir.lock"
flock 9
if [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi
rm -rf "$dir"
log "downloading ${reqs[*]} and their dependencies (Python $pyver) from ${PIP_INDEX_URL:-PyPI} into $dir (once)"
if ! "$bin/python3" -m pip --disable-pip-version-check --no-input download --progress-bar off --only-binary :all: \
  --dest "$dir" "${reqs[@]}" >&2; then
  rm -rf "$dir"
  log "pip could not download them (see above)"
  exit 1
fi
touch "$dir/.complete"
echo "$dir"
