#!/usr/bin/env bash
# Screenshot the built report in headless Chromium, to check it renders offline
# (math typeset, figures present, tables readable).
#   scripts/screenshot_book.sh [HTML_DIR] [OUT_DIR]
# defaults: results/book/_build/html -> results/screenshots. Needs Debian's `chromium`.
# index.html is only a redirect, so content pages (and anchors within them) are captured.
set -euo pipefail
html=$(realpath "${1:-results/book/_build/html}")
out=${2:-results/screenshots}
height=${SCREENSHOT_HEIGHT:-16000}
width=${SCREENSHOT_WIDTH:-1440}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "no chromium found (apt-get install -y chromium)" >&2; exit 1; }
[ -f "$html/intro.html" ] || { echo "no built book in $html (run: snakemake --cores all)" >&2; exit 1; }
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# Each page is captured at full height (SCREENSHOT_HEIGHT px; anchors scroll to blank in headless
# mode) and cut into 1400 px high tiles <page>_01.png, <page>_02.png, ...; blank tiles are dropped.
python=${PYTHON:-python3}
for page in intro method mm1 qtcol mininet mininet_parameters ns2 ns2_parameters testbed testbed_parameters scorecard provenance; do
  [ -f "$html/$page.html" ] || { echo "missing page $page.html" >&2; exit 1; }
  "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --virtual-time-budget=5000 \
    --window-size="$width","$height" --screenshot="$out/$page.png" "file://$html/$page.html" >/dev/null 2>&1 || {
      echo "chromium failed on $page.html" >&2; exit 1; }
  "$python" - "$out/$page.png" <<'PY' || echo "$out/$page.png (not tiled: needs Pillow)"
import sys
from pathlib import Path
from collections import Counter
from PIL import Image
src = Path(sys.argv[1])
im = Image.open(src).convert("RGB")
tile, kept = 1400, 0
data = im.tobytes()
rows = [data[y * 3 * im.width:(y + 1) * 3 * im.width] for y in range(im.height)]
background = Counter(rows).most_common(1)[0][0]  # the empty page's row (sidebars, borders)
for i, top in enumerate(range(0, im.height, tile)):
    part = im.crop((0, top, im.width, min(top + tile, im.height)))
    if all(row == background for row in rows[top:top + tile]):  # nothing but empty page
        continue
    kept += 1
    name = src.with_name(f"{src.stem}_{kept:02d}.png")
    part.save(name)
    print(name)
src.unlink()
PY
done
