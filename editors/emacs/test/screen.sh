#!/usr/bin/env bash
# Runs the Emacs screen test (test/screen.el) in a real terminal under tmux, installing
# Debian's emacs-nox, elpa-eglot and tmux first if any is missing. Run from anywhere;
# `boxls` must be on PATH.
#
#   editors/emacs/test/screen.sh [EMACS]      # EMACS: the Emacs to test (default: emacs)
#
# BOXLS_SCREEN_OUT=DIR keeps every captured screen in DIR (.txt, and .ans with the
# colour escapes).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
emacs=${1:-emacs}

missing=()
command -v tmux >/dev/null || missing+=(tmux)
command -v "$emacs" >/dev/null || missing+=(emacs-nox)
ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1 ||
  missing+=(elpa-eglot)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cd "$root"
BOXLS_SCREEN_EMACS="$emacs" "$emacs" -Q -batch -l editors/emacs/test/screen.el
