#!/usr/bin/env bash
# The extension in a real VS Code: installs code-server (npm, pinned by the lockfile
# beside this script), Debian's Chromium and PyPI Playwright when missing, installs the
# given .vsix into a fresh code-server, and runs drive.py against it, which asserts what
# the page shows and saves a screenshot per step.
#
#   bash editors/vscode/test/e2e/run.sh BOXLS.vsix [BOXLS_BINARY] [--set-path]
#
# With no boxls on PATH and no boxls.path setting, the extension must run the server
# inside the .vsix (every step of the drive); with --set-path, boxls.path names
# BOXLS_BINARY (the hints and the log's choice only). BOXLS_BINARY (default
# target/release/boxls) also answers the test's own `boxls check`.
# Tools are kept in $BOXLS_E2E_TOOLS (default target/vscode-e2e/tools) and reinstalled
# only when the lockfile or requirements change; screenshots go to $BOXLS_E2E_OUT
# (default target/vscode-e2e).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)

vsix=$(realpath "${1:?usage: run.sh BOXLS.vsix [BOXLS_BINARY]}")
boxls=$(realpath "${2:-$root/target/release/boxls}")
set_path=${3:-}
tools=${BOXLS_E2E_TOOLS:-$root/target/vscode-e2e/tools}
out=${BOXLS_E2E_OUT:-$root/target/vscode-e2e}
[ -x "$boxls" ] || {
  echo "run.sh: no boxls executable at $boxls (cargo build --release)" >&2
  exit 2
}
mkdir -p "$tools" "$out"

say() { echo "vscode-e2e: $*"; }

install_debian_packages() {
  # chromium: the browser; ripgrep: seeds code-server's ripgrep download (below);
  # the rest builds code-server's native modules.
  local wanted=(chromium ripgrep build-essential pkg-config libsecret-1-dev libkrb5-dev python3-venv)
  local missing=() p
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  say "apt-get install ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# @vscode/ripgrep's postinstall downloads rg from GitHub, which these machines cannot
# reach; it first looks in this cache, so put Debian's rg there under the expected name.
seed_ripgrep_cache() {
  local tmpdir cache
  tmpdir=$(node -p 'require("os").tmpdir()')
  cache="$tmpdir/vscode-ripgrep-cache-1.15.11"
  local tarball="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  [ -s "$tarball" ] && return
  mkdir -p "$cache"
  local stage
  stage=$(mktemp -d)
  cp "$(command -v rg)" "$stage/rg"
  tar -C "$stage" -czf "$tarball" rg
  rm -rf "$stage"
}

install_code_server() {
  local dir="$tools/code-server"
  if [ -x "$dir/node_modules/.bin/code-server" ] && cmp -s "$here/package-lock.json" "$dir/installed.lock"; then
    return
  fi
  say "npm ci code-server (a few minutes)"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  # code-server's postinstall refuses to run as root without unsafe-perm and installs
  # VS Code's own dependencies (native modules: hence build-essential and friends).
  (cd "$dir" && npm_config_yes=true npm_config_unsafe_perm=true npm ci --no-audit --no-fund >"$dir/install.log" 2>&1) || {
    tail -40 "$dir/install.log" >&2
    exit 1
  }
  cp "$here/package-lock.json" "$dir/installed.lock"
}

install_playwright() {
  local venv="$tools/venv"
  if [ -x "$venv/bin/python" ] && cmp -s "$here/requirements.txt" "$venv/installed.txt"; then
    return
  fi
  say "pip install playwright (into $venv)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  # Only the Python package: the browser is Debian's (never `playwright install`).
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
  cp "$here/requirements.txt" "$venv/installed.txt"
}

chromium_binary() {
  local c
  for c in /usr/lib/chromium/chromium /usr/bin/chromium; do
    [ -x "$c" ] && echo "$c" && return
  done
  echo "run.sh: Debian's chromium is not installed" >&2
  exit 1
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

install_debian_packages
seed_ripgrep_cache
install_code_server
install_playwright
code_server="$tools/code-server/node_modules/.bin/code-server"

# A fresh VS Code each run: its own user data, extensions and workspace.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/boxls-vscode-e2e.XXXXXX")
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$tmp/user/User" "$tmp/extensions" "$tmp/workspace" "$tmp/home"
# No boxls on PATH (VS Code takes the PATH of a login shell: a fresh HOME has no
# profile to add one).
no_boxls_path=$(tr ':' '\n' <<<"$PATH" | while read -r d; do [ -n "$d" ] && [ ! -e "$d/boxls" ] && echo "$d"; done | paste -sd:)
cp "$root/examples/sample.box" "$here/broken.box" "$root/examples/levels.xsb" "$tmp/workspace/"
# VS Code's server gives the extension host the PATH of a login shell, not ours, so the
# binary is named explicitly, as a user without boxls on PATH would.
python3 - "$tmp/user/User/settings.json" "${set_path:+$boxls}" <<'EOF'
import json, sys
json.dump({
    **({"boxls.path": sys.argv[2]} if sys.argv[2] else {}),
    "security.workspace.trust.enabled": False,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "editor.minimap.enabled": False,
    "editor.fontSize": 14,
    "editor.codeLens": True,
    "editor.inlayHints.enabled": "on",
    "editor.lightbulb.enabled": "on",
    "editor.hover.delay": 300,
    "files.autoSave": "off",
    "window.commandCenter": False,
    "chat.commandCenter.enabled": False,
    "workbench.colorTheme": "Default Dark Modern",
}, open(sys.argv[1], "w"), indent=2)
EOF

# Its own config file (code-server otherwise writes one under ~/.config).
port=$(free_port)
cat >"$tmp/config.yaml" <<EOF
bind-addr: 127.0.0.1:$port
auth: none
cert: false
EOF

say "installing $(basename "$vsix") into code-server $("$code_server" --config "$tmp/config.yaml" --version | head -1)"
"$code_server" --config "$tmp/config.yaml" --user-data-dir "$tmp/user" --extensions-dir "$tmp/extensions" \
  --install-extension "$vsix" >"$tmp/install-extension.log" 2>&1 || {
  cat "$tmp/install-extension.log" >&2
  exit 1
}

server=$boxls
[ -n "$set_path" ] || server=$(echo "$tmp"/extensions/boxls.boxls-*/server/boxls)
[ -x "$server" ] || {
  echo "run.sh: the .vsix has no server/boxls ($server)" >&2
  exit 1
}
HOME="$tmp/home" PATH="$no_boxls_path" "$code_server" --config "$tmp/config.yaml" --user-data-dir "$tmp/user" --extensions-dir "$tmp/extensions" \
  --disable-telemetry --disable-update-check --disable-getting-started-override \
  "$tmp/workspace" >"$out/code-server.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 240); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || {
    cat "$out/code-server.log" >&2
    exit 1
  }
  sleep 0.5
done

say "code-server on 127.0.0.1:$port; driving Chromium"
# BOXLS_E2E_ONLY=NAME runs that one driver (drive, stress_failure or preview_perf), for
# working on it; CI runs them all.
only=${BOXLS_E2E_ONLY:-}
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
if want drive; then "$tools/venv/bin/python" "$here/drive.py" --url "http://127.0.0.1:$port/?folder=$tmp/workspace" \
  --workspace "$tmp/workspace" --boxls "$boxls" --out "$out" --chromium "$(chromium_binary)" \
  --server "$server" ${set_path:+--setting "$boxls" --only-hints}
fi
# Once, with the bundled server: `boxls stress` on a wrong solver and its failure file
# opened (the diagnostic shown); the preview on 100×100, 1000×1000 and 2000×2000 rooms
# (what is drawn, and the timings).
if [ -z "$set_path" ]; then
  if want stress_failure; then
    "$tools/venv/bin/python" "$here/stress_failure.py" --url "http://127.0.0.1:$port/?folder=$tmp/workspace" \
      --workspace "$tmp/workspace" --boxls "$boxls" --out "$out" --chromium "$(chromium_binary)"
  fi
  # BOXLS_PERF_SIZES=1000,2000 picks the rooms (default 100,1000,2000).
  if want preview_perf; then
    "$tools/venv/bin/python" "$here/preview_perf.py" --url "http://127.0.0.1:$port/?folder=$tmp/workspace" \
      --workspace "$tmp/workspace" --boxls "$boxls" --out "$out" --chromium "$(chromium_binary)" \
      ${BOXLS_PERF_SIZES:+--sizes "$BOXLS_PERF_SIZES"}
  fi
fi
