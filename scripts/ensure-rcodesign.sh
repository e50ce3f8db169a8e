#!/usr/bin/env bash
# Prints the path of rcodesign (crates.io's apple-codesign, a pure-Rust `codesign`), which ad-hoc signs the darwin
# plugin executables on Linux: an unsigned arm64 Mach-O is killed at launch on macOS. The machine's rcodesign is used
# when it is at the pinned version; otherwise `cargo install` builds it once into the cache (several minutes of CPU;
# cargo prints its progress), without the notarization features, which pull in AWS and App Store Connect clients.
set -euo pipefail
VERSION=0.29.0
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
if command -v rcodesign >/dev/null 2>&1 && rcodesign --version 2>/dev/null | grep -q " $VERSION"; then
  command -v rcodesign; exit 0
fi
dest="$CACHE/rcodesign/$VERSION"
mkdir -p "$(dirname "$dest")"
# One build at a time: a second caller waits for the first's and finds it done.
exec 9>"$dest.lock"
flock 9
if [ ! -x "$dest/bin/rcodesign" ]; then
  # rustup puts cargo in ~/.cargo/bin, which a non-login shell's PATH may lack.
  if ! command -v cargo >/dev/null 2>&1 && [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]; then
    PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
  fi
  if ! command -v cargo >/dev/null 2>&1; then
    echo "[opsledger:rcodesign] rcodesign $VERSION is needed to sign the darwin executables, and cargo (Rust) to build it: install Rust, or rcodesign $VERSION on PATH" >&2
    exit 1
  fi
  echo "[opsledger:rcodesign] building apple-codesign $VERSION from crates.io with cargo install (once; several minutes)" >&2
  rm -rf "$dest.partial"
  CARGO_TARGET_DIR="$dest.partial/target" cargo install "apple-codesign@$VERSION" --no-default-features --locked \
    --root "$dest.partial" >&2
  rm -rf "$dest.partial/target" "$dest"
  mv "$dest.partial" "$dest"
fi
echo "$dest/bin/rcodesign"
