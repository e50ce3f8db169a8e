#!/usr/bin/env bash
# Regenerates the Go SDK (sdk/go/opsledger) from the plugin's schema with Pulumi's own code generator, as
# `pulumi package gen-sdk provider/schema/schema.json --language go` writes it (the CLI's Go language host, at the
# version of @pulumi/pulumi). The generated files are committed (Go programs fetch a module's source; nothing is built
# on install) and test/integration/plugin/go-sdk.test.ts regenerates them and fails on any difference.
# sdk/go/go.mod and go.sum are ours, kept by `go mod tidy` in sdk/go.
#   bash scripts/gen-go-sdk.sh [--check [<dir>]]   (--check compares with <dir>, default sdk/go/opsledger)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
bin=$(bash "$ROOT/scripts/ensure-pulumi.sh")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PULUMI_SKIP_UPDATE_CHECK=true "$bin/pulumi" package gen-sdk "$ROOT/provider/schema/schema.json" --language go --out "$out" >&2
if [ "${1:-}" = --check ]; then
  diff -r "$out/go/opsledger" "${2:-$ROOT/sdk/go/opsledger}" >&2 && exit 0
  echo "sdk/go/opsledger differs from what the schema generates: run bash scripts/gen-go-sdk.sh" >&2
  exit 1
fi
rm -rf "$ROOT/sdk/go/opsledger"
cp -r "$out/go/opsledger" "$ROOT/sdk/go/opsledger"
echo "sdk/go/opsledger regenerated" >&2
