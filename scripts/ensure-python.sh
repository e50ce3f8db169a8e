#!/usr/bin/env bash
# Prints the bin directory of a Python virtualenv for the project's Python programs (examples/python, sdk/python's
# tests), to put first on PATH: the Pulumi CLI's Python language host runs the `python3` it finds there.
#
# 1. The interpreter is the machine's CPython, 3.10 or newer: `python3` on PATH, else the newest `python3.N` on PATH.
#    3.10, not the 3.9 the generated SDK declares: the `pulumi` package at the CLI's version (3.259.0) declares
#    Requires-Python >=3.10 on PyPI. Nothing is downloaded for the interpreter itself.
# 2. The virtualenv: `python -m venv`, then pip from PyPI (or $PIP_INDEX_URL) installs `pulumi` at the version of the
#    installed @pulumi/pulumi, the CLI's version (scripts/ensure-pulumi.sh), and scripts/python-requirements.txt.
#    Created once under $OPSLEDGER_CACHE_DIR/python (default ~/.cache/pulumi-opsledger, outside the work tree), in a
#    folder named by the interpreter's version and a digest of what is installed, and reused; pip's own wheel cache
#    (~/.cache/pip) makes a second virtualenv quick.
# 3. With --sdk, the virtualenv also holds sdk/python as a user installs it (`pip install ./sdk/python`, not editable):
#    one virtualenv per content of sdk/python (its digest names the folder), so two checkouts never share one.
# 4. With --google-clients, a virtualenv of its own also holds Google's Python clients at the versions of
#    scripts/python-google-clients.txt (the sandbox's tests with them, test/integration/python/google-clients).
#   bash scripts/ensure-python.sh [--sdk | --google-clients]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"
log() { echo "[opsledger:python] $*" >&2; }
MIN=3.10

with_sdk=""
with_google=""
case "${1:-}" in
  "") ;;
  --sdk) with_sdk=1 ;;
  --google-clients) with_google=1 ;;
  *) log "unknown argument '$1' (bash scripts/ensure-python.sh [--sdk | --google-clients])"; exit 2 ;;
esac

# 0 when version $1 >= version $2 (dotted numbers).
at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }
# The X.Y.Z version of the CPython $1 ("" when it does not run or is not CPython).
version_of() {
  "$1" -c 'import platform, sys; print(platform.python_version() if sys.implementation.name == "cpython" else "")' \
    2>/dev/null || true
}

python=""
candidates=("$(command -v python3 || true)")
for minor in 14 13 12 11 10; do candidates+=("$(command -v "python3.$minor" || true)"); done
for c in "${candidates[@]}"; do
  [ -n "$c" ] || continue
  have=$(version_of "$c")
  if [ -n "$have" ] && at_least "$have" "$MIN"; then
    python="$c"
    break
  fi
  [ -n "$have" ] && log "$c is Python $have, older than the $MIN that pulumi on PyPI requires"
done
if [ -z "$python" ]; then
  log "no CPython $MIN or newer on PATH (python3, python3.10 … python3.14): install one (Debian: apt-get install python3 python3-venv)"
  exit 1
fi
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  log "$python has no venv/ensurepip module to create a virtualenv with (Debian: apt-get install python3-venv)"
  exit 1
fi
PYVER=$(version_of "$python")

PULUMI_VERSION=$(node -p "require('$ROOT/node_modules/@pulumi/pulumi/package.json').version" 2>/dev/null || true)
[ -n "$PULUMI_VERSION" ] || { log "node_modules/@pulumi/pulumi is not installed: run npm run build first"; exit 1; }
REQS="$ROOT/scripts/python-requirements.txt"
GOOGLE_REQS="$ROOT/scripts/python-google-clients.txt"
extra_reqs=()
[ -z "$with_google" ] || extra_reqs=(-r "$GOOGLE_REQS")

# What the virtualenv holds decides its folder: the interpreter, pulumi's version, the requirements, and with --sdk the
# content of sdk/python (every file's path and bytes).
key=$( {
  echo "$PYVER pulumi==$PULUMI_VERSION"
  cat "$REQS"
  [ -z "$with_google" ] || cat "$GOOGLE_REQS"
  if [ -n "$with_sdk" ]; then
    (cd "$ROOT/sdk/python" && find . -type f ! -path '*/__pycache__/*' ! -path './build/*' ! -path '*.egg-info/*' \
      -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
  fi
} | sha256sum | cut -c1-16)
name="py$PYVER-pulumi$PULUMI_VERSION${with_sdk:+-sdk}${with_google:+-google}-$key"
venv="$CACHE/python/$name"
if [ -f "$venv/.complete" ]; then
  echo "$venv/bin"
  exit 0
fi

mkdir -p "$CACHE/python"
# Two test files may ask for the same virtualenv at once: one creates it, the other waits for it.
exec 9> "$venv.lock"
flock 9
if [ -f "$venv/.complete" ]; then
  echo "$venv/bin"
  exit 0
fi
rm -rf "$venv"
log "creating a virtualenv (Python $PYVER, $python) in $venv"
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check --no-input)
log "installing pulumi==$PULUMI_VERSION and scripts/python-requirements.txt from ${PIP_INDEX_URL:-PyPI} (about 40 MB, once)"
if ! "${pip[@]}" install --progress-bar off "pulumi==$PULUMI_VERSION" -r "$REQS" "${extra_reqs[@]}" >&2; then
  rm -rf "$venv"
  log "pip could not install pulumi==$PULUMI_VERSION (see above): PyPI (or PIP_INDEX_URL) must be reachable, and it serves pulumi at the CLI's version"
  exit 1
fi
if [ -n "$with_sdk" ]; then
  log "installing sdk/python into it (pip install ./sdk/python)"
  # From a copy: pip builds a local folder in place, and setuptools' build/ there would keep modules since removed.
  src=$(mktemp -d)
  cp -r "$ROOT/sdk/python/." "$src"
  rm -rf "$src/build" "$src"/*.egg-info
  if ! "${pip[@]}" install --progress-bar off "$src" >&2; then
    rm -rf "$src"
    rm -rf "$venv"
    log "pip could not install sdk/python (see above)"
    exit 1
  fi
  rm -rf "$src"
fi
touch "$venv/.complete"
# Older virtualenvs of the same kind (an earlier sdk/python, an earlier pulumi) are left for `rm -rf`; each is ~150 MB.
log "Python virtualenv ready: $venv/bin"
echo "$venv/bin"
