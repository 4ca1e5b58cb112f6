#!/usr/bin/env bash
# Runs the Neovim screen test (test/screen.lua) in a real terminal under tmux, installing
# tmux from Debian first if it is missing. Run from anywhere; `boxls` must be on PATH.
#
#   editors/nvim/test/screen.sh [NVIM]      # NVIM: the Neovim to test (default: nvim)
#
# BOXLS_SCREEN_ARCHIVE=boxls-….tar.gz installs the plugin from that release archive (a
# native package in a fresh XDG_DATA_HOME) and runs Neovim with no boxls on PATH: the
# plugin must find the binary shipped beside it.
# BOXLS_SCREEN_OUT=DIR keeps every captured screen in DIR (.txt, .ans with the colour
# escapes, .html drawn, and .png where Chromium is installed).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
nvim=${1:-nvim}

if ! command -v tmux >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
fi

cd "$root"
if [ -n "${BOXLS_SCREEN_ARCHIVE:-}" ]; then
  unpacked=$(mktemp -d)
  trap 'rm -rf "$unpacked"' EXIT
  tar -xzf "$BOXLS_SCREEN_ARCHIVE" -C "$unpacked"
  BOXLS_SCREEN_PACKAGE=$(echo "$unpacked"/boxls-*)
  BOXLS_SCREEN_PATH=$(tr ':' '\n' <<<"$PATH" | while read -r d; do [ -n "$d" ] && [ ! -e "$d/boxls" ] && echo "$d"; done | paste -sd:)
  export BOXLS_SCREEN_PACKAGE BOXLS_SCREEN_PATH
fi
status=0
"$nvim" -l editors/nvim/test/screen.lua || status=$?

# Screenshots of the kept screens, where a Chromium is at hand (for reviewers' eyes).
out=${BOXLS_SCREEN_OUT:-}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$out" ] && [ -n "$browser" ]; then
  for page in "$out"/*.html; do
    [ -e "$page" ] || continue
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
      --window-size=1110,830 --screenshot="${page%.html}.png" "file://$(realpath "$page")" \
      >/dev/null 2>&1 || echo "screen.sh: no screenshot of $page" >&2
  done
fi
exit $status
