#!/usr/bin/env bash
# Runs the Neovim screen test (test/screen.lua) in a real terminal under tmux, installing
# tmux from Debian first if it is missing. Run from anywhere; `boxls` must be on PATH.
#
#   editors/nvim/test/screen.sh [NVIM]      # NVIM: the Neovim to test (default: nvim)
#
# BOXLS_SCREEN_OUT=DIR keeps every captured screen (.txt and .ans with colours) in DIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
nvim=${1:-nvim}

if ! command -v tmux >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
fi

cd "$root"
exec "$nvim" -l editors/nvim/test/screen.lua
