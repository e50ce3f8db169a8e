#!/usr/bin/env bash
# Builds the Python SDK's wheel and sdist, <out>/pulumi_opsledger-<version>-py3-none-any.whl and
# pulumi_opsledger-<version>.tar.gz (`npm run build:python`; `npm run release` puts them beside the other artifacts),
# for pip users. pypa's `build` (in the project's virtualenv, scripts/ensure-python.sh) builds them with setuptools
# from PyPI in an isolated build environment, as for any pyproject.toml package, from a copy of sdk/python so nothing
# a build leaves behind reaches them.
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
wheel="$out/pulumi_opsledger-$version-py3-none-any.whl"
rm -f "$wheel" "$out/pulumi_opsledger-$version.tar.gz"
echo "[opsledger:python] building the wheel and sdist of sdk/python $version into $out" >&2
"$bin/python3" -m build --sdist --wheel --outdir "$out" "$src" >&2
[ -f "$wheel" ] || { echo "[opsledger:python] build wrote no $wheel (is sdk/python's version $version? run bash scripts/gen-python-sdk.sh)" >&2; exit 1; }
echo "$wheel"
