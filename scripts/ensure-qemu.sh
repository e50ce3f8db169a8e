#!/usr/bin/env bash
# Prints a folder that runs linux-arm64 programs on this linux-amd64 machine: `<dir>/bin/qemu-aarch64-static` (Debian's
# qemu-user-static) and `<dir>/sysroot` (Debian's arm64 C and C++ runtime, the *-arm64-cross packages), used as
#   <dir>/bin/qemu-aarch64-static -L <dir>/sysroot <arm64 program> [args]
# The packages are unpacked once into the cache without root (scripts/lib/debian-packages.sh); nothing is registered
# with the kernel (binfmt_misc needs root), so the program is always named after qemu.
set -euo pipefail
CACHE="${OPSLEDGER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-opsledger}"
PACKAGES=(qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross libatomic1-arm64-cross)
dir="$CACHE/qemu/debian"
if [ ! -x "$dir/bin/qemu-aarch64-static" ] || [ ! -e "$dir/sysroot/lib/ld-linux-aarch64.so.1" ]; then
  source "$(dirname "$0")/lib/debian-packages.sh"
  echo "[opsledger:qemu] qemu-user-static is about 63 MB" >&2
  unpack_debian_packages "$dir.unpacked" "${PACKAGES[@]}"
  rm -rf "$dir"
  mkdir -p "$dir/bin"
  mv "$dir.unpacked/usr/aarch64-linux-gnu" "$dir/sysroot"
  mv "$dir.unpacked/usr/bin/qemu-aarch64-static" "$dir/bin/"
  rm -rf "$dir.unpacked"
fi
echo "$dir"
