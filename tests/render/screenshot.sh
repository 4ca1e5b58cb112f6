#!/usr/bin/env bash
# Looks at `boxls render` the way a reader does: headless Chromium screenshots the
# classic sample's maze 3 (still and animated, early and late) and the unsolvable
# maze 2, and a Sokoban level played from start to end; tests/render/look.py checks
# each PNG (its size, rock, target, box, player and trail where the SVG puts them, the
# pieces moved in the animation, the warning, the level's boxes on its goals at the end).
# Installs Debian's chromium when it is missing. Screenshots stay in target/render/.
#
#   bash tests/render/screenshot.sh        # uses target/debug/boxls (built if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$root/target/render
mkdir -p "$out"

if ! command -v chromium >/dev/null; then
  echo "render: installing chromium (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
boxls=${BOXLS:-$root/target/debug/boxls}
[ -x "$boxls" ] || cargo build --locked --quiet

profile=$(mktemp -d "${TMPDIR:-/tmp}/boxls-chromium.XXXXXX")
trap 'rm -rf "$profile"' EXIT

# at SVG SECONDS: an HTML page holding SVG with its animations paused at that time.
# Chromium's --virtual-time-budget does not drive SMIL's clock: on an idle machine the
# budget ran out before the animation had moved (a 5 s shot showed the start), so the
# time is set, not waited for.
at() {
  local page="${1%.svg}-at-$2s.html"
  {
    echo '<!doctype html><html><body style="margin:0;overflow:hidden">'
    grep -v '^<?xml' "$1"
    echo "<script>const s = document.querySelector('svg'); s.pauseAnimations(); s.setCurrentTime($2);</script>"
    echo '</body></html>'
  } >"$page"
  echo "$page"
}

# shot SVG PNG MILLISECONDS [PAGE]: a screenshot of SVG at its own size (of PAGE
# instead, when given: SVG in an HTML page), after that much (virtual) time.
shot() {
  local size
  size=$(python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
print("%d,%d" % (round(float(r.get("width"))), round(float(r.get("height")))))' "$1")
  rm -f "$2"
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --disable-quic \
    --user-data-dir="$profile" --hide-scrollbars --force-device-scale-factor=1 \
    --virtual-time-budget="$3" --window-size="$size" --screenshot="$2" "file://${4:-$1}" \
    >"$out/chromium.log" 2>&1 || { cat "$out/chromium.log" >&2; exit 1; }
  [ -s "$2" ] || { echo "render: no screenshot $2" >&2; cat "$out/chromium.log" >&2; exit 1; }
}

"$boxls" render examples/sample.box --maze 3 -o "$out/maze3.svg"
"$boxls" render examples/sample.box --maze 3 --animate -o "$out/maze3-animated.svg"
"$boxls" render examples/sample.box --maze 2 -o "$out/maze2-unsolvable.svg"
"$boxls" render examples/levels.xsb --level 1 --optimal --animate -o "$out/level1-animated.svg"
# The animation's loop, in seconds: shown at its end, it holds the solved board.
level_end=$(python3 -c 'import re, sys
print(float(re.search(r"dur=\"([\d.]+)s\"", open(sys.argv[1]).read()).group(1)) - 0.5)' "$out/level1-animated.svg")

shot "$out/maze3.svg" "$out/maze3.png" 100
shot "$out/maze3-animated.svg" "$out/maze3-animated-start.png" 100 "$(at "$out/maze3-animated.svg" 0.1)"
shot "$out/maze3-animated.svg" "$out/maze3-animated-5s.png" 100 "$(at "$out/maze3-animated.svg" 5)"
shot "$out/maze2-unsolvable.svg" "$out/maze2-unsolvable.png" 100
shot "$out/level1-animated.svg" "$out/level1-start.png" 100 "$(at "$out/level1-animated.svg" 0.1)"
shot "$out/level1-animated.svg" "$out/level1-end.png" 100 "$(at "$out/level1-animated.svg" "$level_end")"

python3 tests/render/look.py still "$out/maze3.svg" "$out/maze3.png"
python3 tests/render/look.py animated "$out/maze3-animated.svg" \
  "$out/maze3-animated-start.png" "$out/maze3-animated-5s.png"
python3 tests/render/look.py unsolvable "$out/maze2-unsolvable.svg" "$out/maze2-unsolvable.png"
python3 tests/render/look.py level "$out/level1-animated.svg" "$out/level1-start.png" "$out/level1-end.png"
echo "render: 6 screenshots look right (target/render/*.png; $(chromium --version 2>/dev/null))"
