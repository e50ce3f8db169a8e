#!/usr/bin/env bash
# The project's cache folder, outside the work tree: $OPSLEDGER_CACHE_DIR, else $XDG_CACHE_HOME/pulumi-opsledger, else
# ~/.cache/pulumi-opsledger (an empty variable counts as unset). The one place this rule is written: the ensure-*.sh
# scripts source this file (it sets CACHE); run, it prints the folder, which is how scripts/lib/run-steps.ts's
# cacheDir() reads it.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/cache-dir.sh"   # in scripts/ensure-*.sh: $CACHE
#   bash scripts/lib/cache-dir.sh                              # prints the folder
CACHE="${OPSLEDGER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-opsledger}"
if [ "${BASH_SOURCE[0]}" = "$0" ]; then echo "$CACHE"; fi
