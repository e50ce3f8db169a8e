#!/usr/bin/env bash
# The offline fallback of scripts/ensure-pulumi.sh: builds the Pulumi CLI at the version of @pulumi/pulumi from Go
# modules when no release archive can be had (no $OPSLEDGER_RELEASE_MIRROR and no route to Pulumi's download site).
# Prints the bin directory it filled. The wrapper module requires github.com/pulumi/pulumi/pkg/v3 and
# github.com/pulumi/pulumi/sdk/v3 at the same version and copies the non-local replace directives of their go.mod files
# (Go ignores replaces of non-main modules). The Node.js language host is attempted by pseudo-version at the commit of
# the pkg tag; the module proxy reachable from these machines refuses it (403), so a CLI built here runs Automation API
# inline programs only.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VERSION="$1"
DIR="$2"
BIN="$DIR/bin"
PLUGIN_SRC="$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
log() { echo "[opsledger:pulumi] $*" >&2; }

command -v go >/dev/null 2>&1 || { log "Go is required to build the Pulumi CLI (none on PATH)"; exit 1; }
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
SRC="$DIR/src"
mkdir -p "$SRC" "$BIN"
start=$(date +%s)
stage() { log "[$(( $(date +%s) - start ))s] $*"; }

stage "building the Pulumi CLI v$VERSION from Go modules (first run only; several minutes on 2 cores)"
stage "1/5 reading go.mod of pkg/v3 and sdk/v3 v$VERSION from the module proxy"
replaces=""
for mod in pkg sdk; do
  gomod=$(cd "$SRC" && go mod download -json "github.com/pulumi/pulumi/$mod/v3@v$VERSION" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const j = JSON.parse(s); if (j.Error) { console.error(j.Error); process.exit(1); } console.log(j.GoMod); });')
  # Keep replace directives whose target is a module version, not a local path.
  replaces+=$(node -e '
    const text = require("fs").readFileSync(process.argv[1], "utf8");
    const out = [];
    const add = (l) => { const m = l.trim().match(/^(\S+)(?:\s+\S+)?\s*=>\s*(\S+)\s+(\S+)$/); if (m && !m[2].startsWith(".") && !m[2].startsWith("/")) out.push(`replace ${m[1]} => ${m[2]} ${m[3]}`); };
    let block = false;
    for (const line of text.split("\n")) {
      if (/^replace\s*\($/.test(line.trim())) { block = true; continue; }
      if (block) { if (line.trim() === ")") block = false; else add(line); continue; }
      if (line.startsWith("replace ")) add(line.slice(8));
    }
    console.log(out.join("\n"));' "$gomod")
  replaces+=$'\n'
done
replaces=$(printf '%s\n' "$replaces" | sed '/^$/d' | sort -u)

cat > "$SRC/go.mod" <<GOMOD
module opsledger.local/pulumi-cli

go 1.25

require (
	github.com/pulumi/pulumi/pkg/v3 v$VERSION
	github.com/pulumi/pulumi/sdk/v3 v$VERSION
)

$replaces
GOMOD
cat > "$SRC/tools.go" <<'GO'
//go:build tools

// Package tools keeps the CLI's main package in the build list.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GO
stage "2/5 resolving the module graph (go mod tidy)"
(cd "$SRC" && go mod tidy 2>&1 | grep -v '^go: downloading' >&2 || true)
LDFLAGS="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$VERSION"
stage "3/5 compiling pulumi (go build -trimpath -tags osusergo,grpcnotrace)"
(cd "$SRC" && go build -trimpath -tags osusergo,grpcnotrace -ldflags "$LDFLAGS" -o "$BIN/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
mv "$BIN/pulumi.tmp" "$BIN/pulumi"

stage "4/5 pulumi-language-nodejs (pseudo-version at the commit of the pkg/v$VERSION tag)"
LH=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3
origin=$(cd "$SRC" && go list -m -json "github.com/pulumi/pulumi/pkg/v3@v$VERSION" 2>/dev/null || true)
hash=$(printf '%s' "$origin" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const j=JSON.parse(s);console.log((j.Origin&&j.Origin.Hash)||"")}catch{console.log("")}})')
when=$(printf '%s' "$origin" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{const j=JSON.parse(s);console.log(new Date(j.Time).toISOString().replace(/[-:T]/g,"").slice(0,14))}catch{console.log("")}})')
if [ -n "$hash" ] && [ -n "$when" ]; then
  pseudo="v3.0.0-$when-${hash:0:12}"
  LHSRC="$DIR/src-language-host"
  mkdir -p "$LHSRC"
  printf 'module opsledger.local/pulumi-language-host\n\ngo 1.25\n\nrequire (\n\tgithub.com/pulumi/pulumi/pkg/v3 v%s\n\tgithub.com/pulumi/pulumi/sdk/v3 v%s\n\t%s %s\n)\n\n%s\n' \
    "$VERSION" "$VERSION" "$LH" "$pseudo" "$replaces" > "$LHSRC/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "%s"\n' "$LH" > "$LHSRC/tools.go"
  if (cd "$LHSRC" && go mod download -json "$LH@$pseudo" > "$DIR/language-host.json" 2>&1 && go mod tidy >/dev/null 2>&1 \
      && go build -trimpath -tags osusergo,grpcnotrace -ldflags "$LDFLAGS" -o "$BIN/pulumi-language-nodejs" "$LH"); then
    stage "    built pulumi-language-nodejs $pseudo"
  else
    reason=$(grep -o '"Error": *"[^"]*' "$DIR/language-host.json" 2>/dev/null | head -1 | sed 's/"Error": *"//')
    echo "$pseudo: ${reason:-build failed}" > "$DIR/language-host.unavailable"
    stage "    not available from the module proxy ($LH@$pseudo: ${reason:-build failed})"
  fi
else
  stage "    the module proxy gave no origin commit for pkg/v$VERSION; skipping the language host"
fi

stage "5/5 placing pulumi-resource-pulumi-nodejs (shipped in @pulumi/pulumi) next to the binary"
cp "$PLUGIN_SRC" "$BIN/pulumi-resource-pulumi-nodejs"
chmod +x "$BIN/pulumi-resource-pulumi-nodejs"
stage "done: $("$BIN/pulumi" version)"
echo "go-build" > "$DIR/source"
echo "$BIN"
