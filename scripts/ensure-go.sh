#!/usr/bin/env bash
# Prints the bin directory of a Go toolchain new enough for the Go SDK (sdk/go) and examples/go, to put on PATH.
#
# 1. The machine's Go, when new enough: `go` on PATH, else /usr/local/go/bin/go (where the official archive installs).
#    "New enough" is the `go` line of sdk/go/go.mod (the SDK's module requires it; a machine with GOTOOLCHAIN=local
#    refuses to build with anything older).
# 2. Otherwise the official toolchain as the Go module proxy serves it to `go` itself (GOTOOLCHAIN switching): module
#    golang.org/toolchain, version v0.0.1-go<version>.linux-<arch>, a .zip, from each http(s) entry of $GOPROXY in
#    turn (default https://proxy.golang.org). The zip is checked against its go.sum hash (h1:, the module's dirhash)
#    before it is used: pinned below for the pinned version, else the line the proxy's mirror of the checksum database
#    lists. Unpacked once into $OPSLEDGER_CACHE_DIR/go/<version> (default ~/.cache/pulumi-opsledger, outside the work
#    tree) and reused.
# Go's own module and build caches stay where Go puts them ($HOME/go/pkg/mod, $HOME/.cache/go-build), outside the work
# tree, unless GOMODCACHE / GOCACHE say otherwise.
#   OPSLEDGER_GO_VERSION   the version to download (default: the pin below)
#   OPSLEDGER_GO_IGNORE_SYSTEM=1   treat the machine's Go as too old (tests the download path)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
log() { echo "[opsledger:go] $*" >&2; }

# The version these machines have (and the SDK was built and vetted with), and its go.sum hash from sum.golang.org.
GO_PIN=1.26.8
GO_PIN_H1="h1:ZOmGe1OnfREDMIdb1Qi4G9JSuDPBLGExZMQ4nis1RXM="
VERSION="${OPSLEDGER_GO_VERSION:-$GO_PIN}"
MIN=$(awk '$1 == "go" { print $2; exit }' "$ROOT/sdk/go/go.mod")

# 0 when version $1 >= version $2 (dotted numbers).
at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }
# The version of the go binary $1 ("" when it does not run).
version_of() { "$1" env GOVERSION 2>/dev/null | sed -n 's/^go\([0-9.]*\).*/\1/p'; }

if [ "${OPSLEDGER_GO_IGNORE_SYSTEM:-}" != 1 ]; then
  for go in "$(command -v go || true)" /usr/local/go/bin/go; do
    [ -n "$go" ] && [ -x "$go" ] || continue
    have=$(version_of "$go")
    if [ -n "$have" ] && at_least "$have" "$MIN"; then
      dirname "$go"
      exit 0
    fi
    [ -n "$have" ] && log "$go is Go $have, older than the $MIN sdk/go/go.mod requires"
  done
fi

dest="$CACHE/go/$VERSION"
if [ -x "$dest/bin/go" ] && [ "$(version_of "$dest/bin/go")" = "$VERSION" ]; then
  echo "$dest/bin"
  exit 0
fi
at_least "$VERSION" "$MIN" || { log "OPSLEDGER_GO_VERSION=$VERSION is older than the $MIN sdk/go/go.mod requires"; exit 1; }

case "$(uname -m)" in
  x86_64) ARCH=amd64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) log "no Go toolchain module for $(uname -m)"; exit 1 ;;
esac
MODULE="golang.org/toolchain"
MODVER="v0.0.1-go$VERSION.linux-$ARCH"

# The http(s) proxies of $GOPROXY, in order (`direct` and `off` fetch no toolchain zip; `|` and `,` both separate).
proxies=()
IFS=',|' read -r -a entries <<< "${GOPROXY:-https://proxy.golang.org}"
for p in "${entries[@]}"; do
  case "$p" in http://* | https://* | file://*) proxies+=("${p%/}") ;; esac
done
[ "${#proxies[@]}" -gt 0 ] || { log "GOPROXY=$GOPROXY names no proxy to fetch $MODULE@$MODVER from"; exit 1; }

mkdir -p "$CACHE/go"
tmp=$(mktemp -d "$CACHE/go/download-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

zip=""
for p in "${proxies[@]}"; do
  log "Go $MIN or newer not found: downloading Go $VERSION ($MODULE@$MODVER, ~70 MB, once) from $p"
  if curl -fL --connect-timeout 10 --retry 2 --progress-bar -o "$tmp/go.zip" "$p/$MODULE/@v/$MODVER.zip"; then
    zip="$tmp/go.zip"
    proxy="$p"
    break
  fi
  log "$p did not serve $MODULE/@v/$MODVER.zip"
done
[ -n "$zip" ] || { log "no proxy in GOPROXY served Go $VERSION; install Go $MIN or newer (https://go.dev/dl/)"; exit 1; }

if [ -n "${OPSLEDGER_GO_H1:-}" ]; then
  want="$OPSLEDGER_GO_H1"
elif [ "$VERSION" = "$GO_PIN" ]; then
  want="$GO_PIN_H1"
else
  want=$(curl -fsS --connect-timeout 10 "$proxy/sumdb/sum.golang.org/lookup/$MODULE@$MODVER" |
    awk -v m="$MODULE" -v v="$MODVER" '$1 == m && $2 == v { print $3; exit }') || true
  [ -n "$want" ] || { log "cannot read the go.sum hash of $MODULE@$MODVER (set OPSLEDGER_GO_H1)"; exit 1; }
fi

log "unpacking and checking it against $want"
mkdir "$tmp/x"
if command -v unzip >/dev/null 2>&1; then
  unzip -q "$zip" -d "$tmp/x"
elif command -v python3 >/dev/null 2>&1; then
  python3 -m zipfile -e "$zip" "$tmp/x"
else
  log "neither unzip nor python3 is installed to unpack the toolchain (apt-get install unzip)"
  exit 1
fi
# The module's dirhash (golang.org/x/mod/sumdb/dirhash Hash1): the sha256 of the sorted "<sha256>  <path>" lines of
# every file, paths as the zip names them ("<module>@<version>/..."), base64.
hex=$(cd "$tmp/x" && find . -type f -printf '%P\n' | LC_ALL=C sort | tr '\n' '\0' | xargs -0 sha256sum | sha256sum)
got="h1:$(printf '%b' "$(echo "${hex%% *}" | sed 's/../\\x&/g')" | base64)"
if [ "$got" != "$want" ]; then
  log "$MODULE@$MODVER from $proxy has hash $got, not $want: refusing it"
  exit 1
fi
root="$tmp/x/$MODULE@$MODVER"
# Module zips keep no file modes: the executables get theirs back, as `go` does when it switches toolchains.
chmod -R a+rX "$root"
find "$root/bin" "$root/pkg/tool" -type f -exec chmod a+x {} +
rm -rf "$dest"
mv "$root" "$dest"
log "Go $(version_of "$dest/bin/go") in $dest/bin"
echo "$dest/bin"
