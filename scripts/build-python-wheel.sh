#!/usr/bin/env bash
# Builds the Python SDK's wheel, dist/python/pulumi_opsledger-<version>-py3-none-any.whl (`npm run build:python`), for
# users who install it with pip instead of from the npm package's sdk/python folder. pip builds it with setuptools (from
# PyPI, in an isolated build environment, as for any pyproject.toml package) in the project's virtualenv
# (scripts/ensure-python.sh), from a copy of sdk/python so nothing a build leaves behind reaches the wheel.
#   bash scripts/build-python-wheel.sh [<out dir>]   (default dist/python); prints the wheel's path
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out="${1:-$ROOT/dist/python}"
bin=$(bash "$ROOT/scripts/ensure-python.sh")
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
cp -r "$ROOT/sdk/python/." "$src"
rm -rf "$src/build" "$src"/*.egg-info
version=$(node -p "require('$ROOT/package.json').version")
mkdir -p "$out"
rm -f "$out/pulumi_opsledger-$version-py3-none-any.whl"
echo "[opsledger:python] building the wheel of sdk/python $version into $out" >&2
"$bin/python3" -m pip --disable-pip-version-check --no-input wheel --no-deps --progress-bar off -w "$out" "$src" >&2
wheel="$out/pulumi_opsledger-$version-py3-none-any.whl"
[ -f "$wheel" ] || { echo "[opsledger:python] pip wrote no $wheel (is sdk/python's version $version? run bash scripts/gen-python-sdk.sh)" >&2; exit 1; }
echo "$wheel"
