#!/usr/bin/env bash
# Unpacks Debian packages into the cache without root: `apt-get download` as the current user, then `dpkg -x`. Sourced
# by the ensure-*.sh scripts of tools the machine may lack (ensure-qemu.sh, ensure-osslsigncode.sh).
#
#   unpack_debian_packages <destination folder> <package>...
#
# Fills <destination folder> (replaced whole, atomically) with the packages' files as they would be under /. When the
# machine's package lists do not know a package (a fresh machine that never ran `apt-get update`), private lists are
# fetched into a temporary folder first, again without root. Returns non-zero with the reason on stderr.

_deb_log() { echo "[opsledger:debian] $*" >&2; }

unpack_debian_packages() {
  local dest="$1"; shift
  if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
    _deb_log "this machine has no apt-get/dpkg to fetch Debian's $*: install them with your package manager"
    return 1
  fi
  mkdir -p "$(dirname "$dest")"
  local tmp
  tmp=$(mktemp -d "$dest.fetch-XXXXXX")
  # apt's download sandbox user cannot write into a root-owned temp dir: download as the current user.
  local opts=(-o "APT::Sandbox::User=$(id -un)" -q)
  _deb_log "fetching Debian's $* with apt-get download (once; into $dest)"
  if ! (cd "$tmp" && apt-get "${opts[@]}" download "$@" >/dev/null 2>"$tmp/err"); then
    _deb_log "the machine's package lists lack them ($(tail -n 1 "$tmp/err")); fetching private lists"
    mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
    opts+=(-o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache")
    if ! apt-get "${opts[@]}" update >/dev/null || ! (cd "$tmp" && apt-get "${opts[@]}" download "$@" >/dev/null); then
      _deb_log "apt-get download $* failed"
      rm -rf "$tmp"; return 1
    fi
  fi
  local deb
  for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$tmp/root"; done
  rm -rf "$dest"
  mv "$tmp/root" "$dest"
  rm -rf "$tmp"
}
