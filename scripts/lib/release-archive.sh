#!/usr/bin/env bash
# Fetches an official release archive and checks it before anything is unpacked. Sourced by ensure-pulumi.sh and
# ensure-fabric.sh; nothing here is specific to one tool.
#
#   fetch_release_archive <file name> <official URL> <official checksums URL or ""> <destination file>
#
# Where the archive comes from, in order:
#   1. $OPSLEDGER_RELEASE_MIRROR, when set: a folder (or file:// URL) or an http(s) URL prefix holding archives under
#      their official file names, with a SHA256SUMS file (`<sha256>  <file name>` lines) beside them. The archive
#      must be listed there and match; a mirror that does not hold the file is an error (no silent fallback).
#   2. Otherwise the official download location, checked against the checksums the project publishes there (a
#      `<sha256>  <file name>` list). Without a published list the caller passes "" and a pinned digest in
#      $OPSLEDGER_EXPECTED_SHA256, else the download is refused.
# Returns 0 when the verified archive is at <destination file>; 3 when the source cannot be reached (callers may fall
# back); any other code is an error already explained on stderr.

_rel_log() { echo "[opsledger:release] $*" >&2; }

_rel_get() { # <url or path> <dest>: copies or downloads, with a progress bar for downloads
  local src="$1" dest="$2"
  case "$src" in
    http://* | https://*)
      # --progress-bar draws on stderr; -f fails on HTTP errors; the connect timeout keeps an offline machine quick.
      curl -fL --connect-timeout 10 --retry 2 --progress-bar -o "$dest" "$src" || return 3 ;;
    file://*) cp "${src#file://}" "$dest" || return 3 ;;
    *) cp "$src" "$dest" || return 3 ;;
  esac
}

_rel_expected() { # <checksums file> <file name>: prints the listed digest, if any
  awk -v f="$2" '{ name = $2; sub(/^\*/, "", name); if (name == f) { print $1; exit } }' "$1"
}

fetch_release_archive() {
  local file="$1" official_url="$2" official_sums="$3" dest="$4"
  local tmp expected actual source sums_from
  tmp=$(mktemp -d)
  if [ -n "${OPSLEDGER_RELEASE_MIRROR:-}" ]; then
    local mirror="${OPSLEDGER_RELEASE_MIRROR%/}"
    source="$mirror/$file"
    sums_from="$mirror/SHA256SUMS"
    _rel_log "taking $file from the release mirror $mirror (OPSLEDGER_RELEASE_MIRROR)"
    if ! _rel_get "$sums_from" "$tmp/sums" 2>/dev/null; then
      _rel_log "the mirror has no SHA256SUMS ($sums_from); refusing an unverifiable archive"
      rm -rf "$tmp"; return 1
    fi
    expected=$(_rel_expected "$tmp/sums" "$file")
    if [ -z "$expected" ]; then
      _rel_log "the mirror's SHA256SUMS does not list $file"
      rm -rf "$tmp"; return 1
    fi
    if ! _rel_get "$source" "$tmp/$file"; then
      _rel_log "the mirror does not hold $file ($source)"
      rm -rf "$tmp"; return 1
    fi
  else
    source="$official_url"
    _rel_log "downloading $file from $official_url"
    if [ -n "$official_sums" ]; then
      if ! _rel_get "$official_sums" "$tmp/sums" 2>/dev/null; then
        _rel_log "cannot reach $official_sums"
        rm -rf "$tmp"; return 3
      fi
      expected=$(_rel_expected "$tmp/sums" "$file")
      sums_from="$official_sums"
      if [ -z "$expected" ]; then
        _rel_log "$official_sums does not list $file"
        rm -rf "$tmp"; return 1
      fi
    elif [ -n "${OPSLEDGER_EXPECTED_SHA256:-}" ]; then
      expected="$OPSLEDGER_EXPECTED_SHA256"
      sums_from="the pinned digest"
    else
      _rel_log "no published checksum for $file and none pinned (OPSLEDGER_EXPECTED_SHA256); refusing an unverifiable download"
      rm -rf "$tmp"; return 1
    fi
    _rel_get "$official_url" "$tmp/$file" || { rm -rf "$tmp"; return 3; }
  fi
  actual=$(sha256sum "$tmp/$file" | cut -d' ' -f1)
  if [ "$actual" != "$expected" ]; then
    _rel_log "checksum mismatch for $file from $source: got $actual, $sums_from says $expected"
    rm -rf "$tmp"; return 1
  fi
  _rel_log "verified $file (sha256 $actual, listed in $sums_from)"
  mkdir -p "$(dirname "$dest")"
  mv "$tmp/$file" "$dest"
  rm -rf "$tmp"
}
