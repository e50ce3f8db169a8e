#!/usr/bin/env bash
# Regenerates the Python SDK (sdk/python: the package pulumi_opsledger and its pyproject.toml) from the plugin's schema
# with Pulumi's own code generator, as `pulumi package gen-sdk provider/schema/schema.json --language python --version
# <package.json's version>` writes it (the CLI's Python language host, at the version of @pulumi/pulumi). The schema's
# language.python (scripts/gen-schema.ts) asks for a pyproject.toml whose version is that --version. The generated files
# are committed and test/integration/plugin/python-sdk.test.ts regenerates them and fails on any difference.
# sdk/python/README.md is ours (pyproject.toml's `readme`), as sdk/go/go.mod is.
#   bash scripts/gen-python-sdk.sh [--check [<dir>]]   (--check compares with <dir>, default sdk/python)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
bin=$(bash "$ROOT/scripts/ensure-pulumi.sh")
version=$(node -p "require('$ROOT/package.json').version")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PULUMI_SKIP_UPDATE_CHECK=true "$bin/pulumi" package gen-sdk "$ROOT/provider/schema/schema.json" --language python \
  --version "$version" --out "$out" >&2
# The generated files: the package folder, pyproject.toml and .gitattributes (what a build leaves beside them is not).
GENERATED=(pulumi_opsledger pyproject.toml .gitattributes)
if [ "${1:-}" = --check ]; then
  dir="${2:-$ROOT/sdk/python}"
  rc=0
  for f in "${GENERATED[@]}"; do
    diff -r -x __pycache__ "$out/python/$f" "$dir/$f" >&2 || rc=1
  done
  [ "$rc" = 0 ] && exit 0
  echo "sdk/python differs from what the schema generates: run bash scripts/gen-python-sdk.sh" >&2
  exit 1
fi
mkdir -p "$ROOT/sdk/python"
for f in "${GENERATED[@]}"; do
  rm -rf "${ROOT:?}/sdk/python/$f"
  cp -r "$out/python/$f" "$ROOT/sdk/python/$f"
done
echo "sdk/python regenerated (version $version)" >&2
