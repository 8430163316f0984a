"""Map picture benchmark (issue 20): one phase's map to PNG, by the judge's
own painter (Pillow, ``judge.render.png``) and, side by side on the same SVG,
by cairosvg and resvg when installed (``pip install cairosvg resvg-py``;
cairosvg needs Debian's libcairo2) — time and quality.

    python benchmarks/render.py [--runs 15] [--width 800]

The phase is a busy Fall 1901 Movement (moves, supports, a convoy, a
failed attack, a dislodgement), drawn in English and in simplified Chinese.
Quality is measured against headless Chromium's rendering of the same SVG
(the web archive's picture; ``/usr/bin/chromium``): the mean absolute
difference per colour channel (0-255) over the whole picture and over the
province labels' boxes (labels and their halos: a renderer that draws the
halo over the text, or no CJK glyph, differs there). Prints the load
average before and after: timings on a busy machine are high.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageChops, ImageStat  # noqa: E402

from judge.game import Game, Player, Settings, turns  # noqa: E402
from judge.game.deadlines import DeadlineSettings  # noqa: E402
from judge.mail.pictures import picture  # noqa: E402
from judge.maps import load_names  # noqa: E402
from judge.notation.names import name_index  # noqa: E402
from judge.notation.parser import ParseContext, parse_orders  # noqa: E402
from judge.render.png import svg_to_png  # noqa: E402

from spring1901 import ORDERS as SPRING  # noqa: E402

SPRING = dict(SPRING, Austria="A Vie H\nA Bud H\nF Tri - Alb")
FALL = {
    "Austria": "A Bud - Gal\nA Vie S A Bud - Gal\nF Alb - Gre", "England": "F Nth C A Yor - Nwy\nA Yor - Nwy\nF Nwg - Bar",
    "France": "A Bur - Mun\nA Mar - Spa\nF Mao - Por", "Germany": "A Kie - Hol\nA Ruh S A Kie - Hol\nF Den - Swe",
    "Italy": "A Ven - Tyr\nA Apu - Tun\nF Ion C A Apu - Tun",
    "Russia": "A Gal H\nA Ukr - Rum\nF Sev S A Ukr - Rum\nF Bot - Swe",
    "Turkey": "F Ank - Bla\nA Bul - Gre\nA Con - Bul",
}
CHROMIUM = os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium")
SVG_NS = "{http://www.w3.org/2000/svg}"


def busy_game() -> Game:
    now = datetime(2024, 1, 1, tzinfo=timezone.utc)
    g = Game.create("bench", now=now, seed=1, settings=Settings(deadlines=DeadlineSettings(early=False)))
    names = name_index(g.map, load_names(g.map_name))
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",))
    turns.start(g, now, now + timedelta(days=1))
    for orders in (SPRING, FALL):
        for p, text in orders.items():
            g.submit(p, parse_orders(text, ParseContext(g.map, names, g.phase.kind, g.position, p)), now)
        g.process(now)
    return g


def renderers(width: int) -> dict:
    out = {"pillow (judge.render.png)": lambda svg: svg_to_png(svg, width)}
    try:
        import cairosvg
        out["cairosvg"] = lambda svg: cairosvg.svg2png(bytestring=svg.encode(), output_width=width)
    except (ImportError, OSError) as e:
        print(f"cairosvg: not measured ({e.__class__.__name__}: {e})")
    try:
        import resvg_py
        out["resvg (resvg-py)"] = lambda svg: bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))
    except ImportError as e:
        print(f"resvg: not measured ({e})")
    return out


def reference(svg: str, width: int, tmp: Path) -> Image.Image | None:
    """Headless Chromium's picture of ``svg`` (None without Chromium)."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return None
    root = ET.fromstring(svg)
    _x, _y, w, h = map(float, root.get("viewBox").split())
    root.set("width", str(width))
    root.set("height", str(round(width * h / w)))
    src, shot = tmp / "map.svg", tmp / "shot.png"
    src.write_text(ET.tostring(root, encoding="unicode"), encoding="utf-8")
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--force-device-scale-factor=1", f"--window-size={width},{round(width * h / w)}",
                    f"--screenshot={shot}", f"--user-data-dir={tmp / 'profile'}", src.as_uri()],
                   capture_output=True, timeout=120, check=False)
    return Image.open(shot).convert("RGB") if shot.exists() else None


def label_boxes(svg: str, width: int) -> list[tuple[int, int, int, int]]:
    root = ET.fromstring(svg)
    k = width / float(root.get("viewBox").split()[2])
    boxes = []
    for t in root.iter(SVG_NS + "text"):
        if "label" in t.get("class", "").split():
            x, y, n = float(t.get("x")), float(t.get("y")), len(t.text or "")
            half = n * 9 * (1.0 if any(ord(c) > 0x2e80 for c in t.text or "") else 0.62) / 2 + 2
            boxes.append((round((x - half) * k), round((y - 7) * k), round((x + half) * k), round((y + 7) * k)))
    return boxes


def difference(a: Image.Image, b: Image.Image, boxes=None) -> float:
    if a.size != b.size:
        b = b.resize(a.size)
    if boxes is None:
        return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3
    total = n = 0
    for box in boxes:
        d = ImageStat.Stat(ImageChops.difference(a.crop(box), b.crop(box)))
        area = (box[2] - box[0]) * (box[3] - box[1])
        total += sum(d.mean) / 3 * area
        n += area
    return total / n if n else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="renders per renderer and language (slow ones: a third)")
    ap.add_argument("--width", type=int, default=800)
    ap.add_argument("--keep", type=Path, help="folder to keep each renderer's PNG in")
    args = ap.parse_args()
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())} ({os.cpu_count()} cores)")
    game = busy_game()
    tmp = Path(tempfile.mkdtemp(prefix="judge-render-"))
    try:
        for lang in ("en", "zh-hans"):
            svg = picture(game, "F1901M", lang).svg
            ref = reference(svg, args.width, tmp)
            boxes = label_boxes(svg, args.width)
            print(f"\nF1901M, {lang}, {args.width} px wide (SVG {len(svg) // 1000} kB)"
                  + ("" if ref is not None else "; no Chromium: no quality figures"))
            print(f"  {'renderer':28s} {'median ms':>9s} {'p90 ms':>7s} {'PNG kB':>7s} "
                  f"{'diff all':>8s} {'diff labels':>11s}")
            for name, render in renderers(args.width).items():
                runs = args.runs if name.startswith("pillow") else max(3, args.runs // 3)
                render(svg)                                        # warm: imports, fonts
                times, png = [], b""
                for _ in range(runs):
                    t0 = time.perf_counter()
                    png = render(svg)
                    times.append((time.perf_counter() - t0) * 1000)
                times.sort()
                im = Image.open(io.BytesIO(png)).convert("RGB")
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    im.save(args.keep / f"{name.split()[0]}-{lang}.png")
                quality = (f"{difference(ref, im):8.2f} {difference(ref, im, boxes):11.2f}" if ref is not None
                           else f"{'-':>8s} {'-':>11s}")
                print(f"  {name:28s} {statistics.median(times):9.1f} {times[int(0.9 * (len(times) - 1))]:7.1f} "
                      f"{len(png) / 1000:7.1f} {quality}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\nload average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print("target: the judge's renderer median <= 150 ms, PNG <= 300 kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
