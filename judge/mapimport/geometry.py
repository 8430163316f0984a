"""DPjudge picture files (``.ps``) to ``maps/<name>/geometry.json``.

A DPjudge ``.ps`` template (MIT licence, written with DPeye/dpmap) holds, besides
the PostScript that draws the map:

- an ``% INFO`` comment block: ``%  x  y CODE  Name`` per location, where a unit
  of that location is drawn (coasts as ``SPA/NC``);
- ``/VisitSupplies``: ``/CODE x y s`` where each SC marker is drawn;
- ``/VisitPowers``: ``/POWER (letter) /Paint /Contrast p``, colours named in
  ``/VisitColors`` (``/Name r g b r`` or ``/Name grey g``);
- ``/MapForm``: the form that draws coastlines and borders, in *map
  coordinates* (x right, y up): its ``Matrix`` and ``BBox`` give the map's extent.

The converter rasterises the form with Ghostscript (``gs``, run only here, never
by the judge), reads which pixels are sea and land from the colours under each
province's INFO point, labels every pixel with its province by a breadth-first
growth from those points (borders are the dark lines between them), then
writes the geometry the renderer reads (``maps/README.md``, *geometry.json*):

- ``land``: the coastline, traced from the raster as closed rings (filled
  even-odd, so lakes and islands need no nesting);
- per province a ``unit`` point (the INFO point), a ``label`` point (the name's
  place: beside the unit, inside the province), ``coasts`` from the INFO coast
  entries, ``sc`` from VisitSupplies, and ``seeds``: extra points added until the
  Voronoi partition of all points gives (almost) every pixel its province;
- ``neutral`` points for land (and water) drawn on the picture that is no province;
- power colours from VisitPowers (unit colour; tint: the colour mixed with white).

Coordinates in the output are ``plane`` coordinates in map units with y down.

Command::

    python -m judge.mapimport.geometry PS_FILE --name NAME [--out FILE] [--scale 2]
        [--overrides FILE.json] [--preview FILE.png]

reads ``maps/NAME/map.json`` for the province codes, kinds and coasts. An
overrides file (``{"provinces": {code: {"label": [x, y], ...}}, "neutral": [...],
"powers": {...}}``, in the output's coordinates) is applied last: the hand
corrections found by looking at the picture.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

Point = tuple[float, float]


class PsError(ValueError):
    """A ``.ps`` file this converter cannot read (the message names the file and what is missing)."""


# ---- reading the .ps ------------------------------------------------------------------

@dataclass
class PsMap:
    """What a DPjudge ``.ps`` file says about its map, in map coordinates (y up).

    ``extent``: (x0, y0, x1, y1); ``info``: ``{"ADR": (x, y), "SPA/NC": (x, y)}``;
    ``names``: ``{"ADR": "Adriatic Sea"}``; ``supplies``: ``{"ALE": (x, y)}``;
    ``powers``: ``{"CARTHAGE": ((r, g, b), (r, g, b))}`` paint and contrast colours
    (0..1); ``text``: the whole file."""

    path: str
    extent: tuple[float, float, float, float]
    info: dict[str, Point]
    names: dict[str, str]
    supplies: dict[str, Point]
    powers: dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]]
    text: str = field(repr=False, default="")


_NUM = r"(-?[\d.]+)"


def _body(text: str, name: str) -> str:
    """The text of ``/name { ... }`` (to the first line that is only ``}...``)."""
    m = re.search(r"^/" + name + r" \{\n(.*?)^\}", text, re.M | re.S)
    return m.group(1) if m else ""


def read_ps(path: str | Path) -> PsMap:
    """Parse a DPjudge ``.ps`` template. Raises :class:`PsError` when the INFO block
    or the map form is missing."""
    path = str(path)
    text = Path(path).read_text(encoding="latin-1")
    m = re.search(r"^% INFO\n(.*?)^% MAP", text, re.M | re.S)
    if not m:
        raise PsError(f"{path}: no '% INFO' ... '% MAP' block")
    info, names = {}, {}
    for line in m.group(1).splitlines():
        f = re.match(r"^%\s+" + _NUM + r"\s+" + _NUM + r"\s+(\S+)\s*(.*)$", line)
        if f:
            info[f.group(3).upper()] = (float(f.group(1)), float(f.group(2)))
            names[f.group(3).upper()] = f.group(4).strip()
    form = re.search(r"^/MapForm <<.*?/Matrix \[\s*" + r"\s+".join([_NUM] * 6) + r"\s*\].*?/BBox \[\s*"
                     + r"\s+".join([_NUM] * 4) + r"\s*\]", text, re.M | re.S)
    if not form:
        raise PsError(f"{path}: no /MapForm with a Matrix and a BBox")
    a, _b, _c, d, tx, ty, bx0, by0, bx1, by1 = (float(v) for v in form.groups())
    extent = (tx + a * bx0, ty + d * by0, tx + a * bx1, ty + d * by1)
    supplies = {s.upper(): (float(x), float(y))
                for s, x, y in re.findall(r"^\s*/(\S+) " + _NUM + " " + _NUM + r" s$",
                                          _body(text, "VisitSupplies"), re.M)}
    colours = {}
    for name, vals, op in re.findall(r"^\s*/(\S+) ((?:-?[\d.]+ ?)+) ([grc])$", _body(text, "VisitColors"), re.M):
        v = [float(x) for x in vals.split()]
        if op == "g":
            colours[name] = (v[0],) * 3
        elif op == "r":
            colours[name] = tuple(v[:3])
        else:
            c, mm, y, k = v[:4]
            colours[name] = tuple((1 - min(1, x + k)) for x in (c, mm, y))
    powers = {}
    for power, _letter, paint, contrast in re.findall(r"^\s*/(\S+) \((.*?)\) /(\S+) /(\S+) p$",
                                                      _body(text, "VisitPowers"), re.M):
        if power != "UNOWNED":
            powers[power.upper()] = (colours.get(paint, (0.5, 0.5, 0.5)), colours.get(contrast, (1, 1, 1)))
    return PsMap(path, extent, info, names, supplies, powers, text)


# ---- the raster -----------------------------------------------------------------------

@dataclass
class Raster:
    """The map form as pixels: ``k`` pixels per map unit, row 0 at the top (map y1)."""

    width: int
    height: int
    k: float
    x0: float
    y1: float
    rgb: bytes

    def pixel(self, x: float, y: float) -> tuple[int, int]:
        """The pixel (column, row) of map point (x, y) (y up)."""
        return int((x - self.x0) * self.k), int((self.y1 - y) * self.k)

    def colour(self, i: int) -> tuple[int, int, int]:
        return self.rgb[3 * i], self.rgb[3 * i + 1], self.rgb[3 * i + 2]


def rasterise(ps: PsMap, k: float = 2.0, gs: str = "gs") -> Raster:
    """Draw ``ps``'s map form (no names, units or SC markers) at ``k`` pixels per
    map unit with Ghostscript, without anti-aliasing, dashed lines solid. Raises :class:`PsError`
    when Ghostscript fails."""
    x0, y0, x1, y1 = ps.extent
    w, h = x1 - x0, y1 - y0
    head = ps.text.split("%%EndSetup")[0]
    # dashed and dotted borders drawn solid, so no province leaks through a gap
    head = head.replace("%%BeginSetup", "%%BeginSetup\n/setdash { pop pop } def", 1)
    driver = head + f"%%EndSetup\n{-x0:.4f} {-y0:.4f} translate MapForm execform showpage\n"
    with tempfile.NamedTemporaryFile("w", suffix=".ps", encoding="latin-1") as f:
        f.write(driver)
        f.flush()
        run = subprocess.run(
            [gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=ppmraw", f"-r{72 * k:.4f}",
             f"-dDEVICEWIDTHPOINTS={w:.4f}", f"-dDEVICEHEIGHTPOINTS={h:.4f}", "-dFIXEDMEDIA",
             "-dTextAlphaBits=1", "-dGraphicsAlphaBits=1", "-sOutputFile=-", f.name],
            capture_output=True, timeout=300)
    if run.returncode != 0 or not run.stdout.startswith(b"P6"):
        raise PsError(f"{ps.path}: Ghostscript failed: {run.stderr.decode(errors='replace')[-500:]}")
    data = run.stdout
    parts, pos = [], 2
    while len(parts) < 3:                       # P6 <w> <h> <max>, then one whitespace byte
        while data[pos:pos + 1].isspace() or data[pos:pos + 1] == b"#":
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos)
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        parts.append(int(data[start:pos]))
    pos += 1
    width, height = parts[0], parts[1]
    return Raster(width, height, k, x0, y1, data[pos:pos + 3 * width * height])


# ---- pixels to provinces --------------------------------------------------------------

LAND, SEA, LINE = 1, 2, 0


@dataclass
class Labels:
    """Every pixel's class (LAND, SEA) and province index (-1: none: land or water
    drawn off the board); ``codes[i]`` is province ``i``'s code."""

    raster: Raster
    codes: list[str]
    cls: bytearray
    label: list[int]
    seed: list[int] = field(default_factory=list)

    def point(self, i: int) -> Point:
        """Pixel ``i``'s centre in map units, y down."""
        w = self.raster.width
        return ((i % w) + 0.5) / self.raster.k, (i // w + 0.5) / self.raster.k

    def owner_at(self, p: Point) -> int:
        """The province index at ``p`` (map units, y down), -1 for none or off the picture."""
        r = self.raster
        x, y = int(p[0] * r.k), int(p[1] * r.k)
        return self.label[y * r.width + x] if 0 <= x < r.width and 0 <= y < r.height else -1


def _dark(c: tuple[int, int, int]) -> bool:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] < 60


def _near_pixel(r: Raster, x: float, y: float, ok, reach: int) -> int | None:
    """The pixel index nearest map point (x, y) (y up) for which ``ok(index)``, within ``reach`` pixels."""
    cx, cy = r.pixel(x, y)
    best = None
    for d in range(reach + 1):
        for dy in range(-d, d + 1):
            for dx in (-d, d) if abs(dy) != d else range(-d, d + 1):
                px, py = cx + dx, cy + dy
                if 0 <= px < r.width and 0 <= py < r.height and ok(py * r.width + px):
                    dist = dx * dx + dy * dy
                    if best is None or dist < best[0]:
                        best = (dist, py * r.width + px)
        if best is not None and best[0] <= d * d:
            return best[1]
    return best[1] if best else None


def label_pixels(ps: PsMap, r: Raster, provinces: dict[str, str], min_radius: float = 8.0,
                 sources: dict[str, list[Point]] | None = None) -> Labels:
    """Give each pixel its class and province.

    ``provinces``: ``{CODE: kind}`` (upper-case codes as in the INFO block, kind
    ``land``, ``coastal``, ``sea`` or ``impassable``). Land and sea colours are
    those under the provinces' INFO points; dark pixels and pixels of colours
    found nowhere else are lines (borders, rivers, arrows); other colours
    covering a larger area count as land (ice, mountains); an impassable
    province drawn as enclosed water (a lake) is made land. Each province grows
    from its INFO point over pixels of its class (4-neighbours, all at once, so
    two provinces with no border drawn between them split the area); lines are
    then given to the nearest class and province; islands too small for a unit
    are enlarged (:func:`_enlarge_islands`). Raises :class:`PsError` when
    a province has no INFO point or no pixel of its class near it."""
    n = r.width * r.height
    counts: dict[tuple[int, int, int], int] = {}
    pix = [r.colour(i) for i in range(n)]
    for c in pix:
        counts[c] = counts.get(c, 0) + 1
    votes: dict[tuple[int, int, int], list[int]] = {}
    codes = sorted(provinces)
    for code in codes:
        if code not in ps.info:
            raise PsError(f"{ps.path}: province {code} has no INFO point")
        i = _near_pixel(r, *ps.info[code], lambda j: not _dark(pix[j]), 6)
        if i is None:
            raise PsError(f"{ps.path}: province {code}: only lines around its INFO point")
        votes.setdefault(pix[i], [0, 0, 0])[SEA if provinces[code] == "sea" else LAND] += 1
    colour_cls = {c: (SEA if v[SEA] > v[LAND] else LAND) for c, v in votes.items()}
    for c, k in counts.items():
        if c not in colour_cls and not _dark(c) and k > n // 500:
            colour_cls[c] = SEA if c[2] > c[0] + 40 and c[2] > c[1] else LAND
    cls = bytearray(colour_cls.get(c, LINE) for c in pix)
    del pix
    label = [-1] * n
    queue: deque[int] = deque()
    seeds = []
    w = r.width
    for code in codes:               # an impassable body of water (Youngstown's Caspian) is drawn as land
        i = _near_pixel(r, *ps.info[code], lambda j: cls[j] != LINE, 6)
        if provinces[code] == "impassable" and i is not None and cls[i] == SEA:
            lake, todo = {i}, deque([i])
            while todo and len(lake) < n // 20:
                for j in _around(todo.popleft(), w, n):
                    if cls[j] == SEA and j not in lake:
                        lake.add(j)
                        todo.append(j)
            if len(lake) < n // 20:
                for j in lake:
                    cls[j] = LAND
    for idx, code in enumerate(codes):
        want = SEA if provinces[code] == "sea" else LAND
        i = _near_pixel(r, *ps.info[code], lambda j: cls[j] == want and label[j] < 0, int(30 * r.k))
        if i is None:
            raise PsError(f"{ps.path}: province {code}: no {'sea' if want == SEA else 'land'} pixel near its INFO point")
        label[i] = idx
        queue.append(i)
        seeds.append(i)
        for x, y in (sources or {}).get(code, ()):
            j = _near_pixel(r, x, y, lambda j: cls[j] == want and label[j] < 0, int(5 * r.k))
            if j is None:
                raise PsError(f"{ps.path}: province {code}: no free pixel of its class near source ({x}, {y})")
            label[j] = idx
            queue.append(j)
    _grow(queue, label, cls, w, n)
    _enlarge_islands(r, codes, provinces, cls, label, seeds, min_radius)
    # lines: first the class of the nearest classed pixel, then the province
    was_line = [c == LINE for c in cls]
    todo = deque(i for i in range(n) if cls[i] == LINE and _has(cls, i, w, n, lambda c: c != LINE))
    while todo:
        i = todo.popleft()
        if cls[i] != LINE:
            continue
        near = [cls[j] for j in _around(i, w, n) if cls[j] != LINE]
        if not near:
            continue
        cls[i] = max(set(near), key=near.count)
        todo.extend(j for j in _around(i, w, n) if cls[j] == LINE)
    queue = deque(i for i in range(n) if label[i] >= 0)
    _grow(queue, label, cls, w, n, only=was_line)
    return Labels(r, codes, cls, label, seeds)


def _enlarge_islands(r: Raster, codes, provinces, cls, label, seeds, radius: float) -> None:
    """A land province smaller than a disc of ``radius`` map units (Baleares, a dot
    in the sea) becomes that disc around its middle, painted over water, so its
    unit and name fit; its seed pixel moves to the middle."""
    w, n = r.width, r.width * r.height
    area = math.pi * (radius * r.k) ** 2
    sizes = [0] * len(codes)
    sums = [[0, 0] for _ in codes]
    for i, l in enumerate(label):
        if l >= 0:
            sizes[l] += 1
            sums[l][0] += i % w
            sums[l][1] += i // w
    for idx, code in enumerate(codes):
        if provinces[code] == "sea" or sizes[idx] >= area / 2 or not sizes[idx]:
            continue
        cx, cy = sums[idx][0] / sizes[idx], sums[idx][1] / sizes[idx]
        rad = radius * r.k
        for y in range(max(0, int(cy - rad)), min(r.height, int(cy + rad) + 1)):
            for x in range(max(0, int(cx - rad)), min(w, int(cx + rad) + 1)):
                i = y * w + x
                if (x - cx) ** 2 + (y - cy) ** 2 <= rad * rad and (cls[i] != LAND or label[i] < 0):
                    cls[i], label[i] = LAND, idx
        seeds[idx] = int(cy) * w + int(cx)


def _around(i: int, w: int, n: int):
    x = i % w
    if x > 0:
        yield i - 1
    if x < w - 1:
        yield i + 1
    if i >= w:
        yield i - w
    if i + w < n:
        yield i + w


def _has(cls, i, w, n, test) -> bool:
    return any(test(cls[j]) for j in _around(i, w, n))


def _grow(queue: deque, label: list[int], cls: bytearray, w: int, n: int, only: list[bool] | None = None) -> None:
    """Breadth-first growth of the labels in ``queue`` over unlabelled pixels of the
    same class (and, with ``only``, only over pixels it marks)."""
    while queue:
        i = queue.popleft()
        lab, c = label[i], cls[i]
        for j in _around(i, w, n):
            if label[j] < 0 and cls[j] == c and (only is None or only[j]):
                label[j] = lab
                queue.append(j)


def clean_specks(lab: Labels, area: float = 12.0) -> None:
    """Give each connected patch of unlabelled pixels the province its border
    touches most (of its own class if any): every patch smaller than ``area``
    square map units (stray dots of dotted lines, slivers between lines) and every
    patch enclosed by provinces of its class (a bit of land cut off by an arrow,
    a sea circle with no name); patches touching the picture's edge (land and
    water off the board) stay unlabelled."""
    r = lab.raster
    w, h, n = r.width, r.height, r.width * r.height
    limit = int(area * r.k * r.k)
    seen = bytearray(n)
    for start in range(n):
        if seen[start] or lab.label[start] >= 0:
            continue
        c = lab.cls[start]
        patch, queue = [start], deque([start])
        seen[start] = 1
        border: dict[tuple[int, int], int] = {}
        edge = False
        while queue:
            i = queue.popleft()
            x, y = i % w, i // w
            edge = edge or x in (0, w - 1) or y in (0, h - 1)
            for j in _around(i, w, n):
                if lab.label[j] < 0 and lab.cls[j] == c:
                    if not seen[j]:
                        seen[j] = 1
                        patch.append(j)
                        queue.append(j)
                elif lab.label[j] >= 0:
                    key = (lab.cls[j], lab.label[j])
                    border[key] = border.get(key, 0) + 1
        same = {k: v for k, v in border.items() if k[0] == c}
        if same and not edge:
            border = same
        elif len(patch) >= limit or not border:
            continue
        (nc, nl), _ = max(border.items(), key=lambda kv: kv[1])
        for i in patch:
            lab.cls[i], lab.label[i] = nc, nl


def thicken(lab: Labels, code: str, units: float) -> None:
    """Widen land province ``code`` by ``units`` map units over water (a thin island
    such as Crete, so its unit and name fit)."""
    r = lab.raster
    w, n = r.width, r.width * r.height
    idx = lab.codes.index(code)
    depth = {i: 0 for i in range(n) if lab.label[i] == idx}
    queue = deque(depth)
    limit = int(units * r.k)
    while queue:
        i = queue.popleft()
        if depth[i] >= limit:
            continue
        for j in _around(i, w, n):
            if j not in depth and lab.cls[j] != LAND:
                depth[j] = depth[i] + 1
                lab.cls[j], lab.label[j] = LAND, idx
                queue.append(j)


def trace_land(lab: Labels, min_area: float = 4.0, tolerance: float = 1.2) -> list[list[Point]]:
    """The boundary between LAND and other pixels as closed rings in map units
    (x right, y down from the top edge), simplified (Douglas-Peucker, ``tolerance``
    pixels) and their pixel steps rounded off (one pass of Chaikin's corner cutting); filled even-odd together they are the land. Rings enclosing less than
    ``min_area`` square map units are dropped."""
    r = lab.raster
    w, h = r.width, r.height
    land = lab.cls

    def is_land(x, y):
        return 0 <= x < w and 0 <= y < h and land[y * w + x] == LAND

    nxt: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for y in range(h + 1):
        for x in range(w + 1):
            # edges of pixel-corner grid, directed with land on the left (y down)
            if x < w and is_land(x, y) != is_land(x, y - 1):        # horizontal edge at top of (x, y)
                a, b = ((x + 1, y), (x, y)) if is_land(x, y) else ((x, y), (x + 1, y))
                nxt.setdefault(a, []).append(b)
            if y < h and is_land(x, y) != is_land(x - 1, y):        # vertical edge at left of (x, y)
                a, b = ((x, y), (x, y + 1)) if is_land(x, y) else ((x, y + 1), (x, y))
                nxt.setdefault(a, []).append(b)
    rings = []
    while nxt:
        start = next(iter(nxt))
        ring, cur = [start], start
        while True:
            outs = nxt[cur]
            b = outs.pop()
            if not outs:
                del nxt[cur]
            if b == start:
                break
            ring.append(b)
            cur = b
            if cur not in nxt:
                break
        if abs(_area(ring)) / (r.k * r.k) < min_area:
            continue
        simple = _simplify_ring(ring, tolerance)
        if len(simple) >= 3:
            rings.append([(x / r.k, y / r.k) for x, y in _chaikin(simple)])
    return rings


def _chaikin(ring: list) -> list:
    """One pass of Chaikin's corner cutting on a closed ring: each edge's points at
    1/4 and 3/4."""
    out = []
    for i in range(len(ring)):
        (ax, ay), (bx, by) = ring[i], ring[(i + 1) % len(ring)]
        out += [(0.75 * ax + 0.25 * bx, 0.75 * ay + 0.25 * by), (0.25 * ax + 0.75 * bx, 0.25 * ay + 0.75 * by)]
    return out


def _area(ring) -> float:
    return sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1] for i in range(len(ring))) / 2


def _simplify(pts: list, tol: float) -> list:
    """Douglas-Peucker on an open polyline (keeps both ends)."""
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        a, b = stack.pop()
        (ax, ay), (bx, by) = pts[a], pts[b]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy) or 1.0
        best, far = -1.0, -1
        for i in range(a + 1, b):
            px, py = pts[i]
            d = abs(dx * (ay - py) - dy * (ax - px)) / norm if (dx or dy) else math.hypot(px - ax, py - ay)
            if d > best:
                best, far = d, i
        if best > tol:
            keep[far] = True
            stack += [(a, far), (far, b)]
    return [p for p, k in zip(pts, keep) if k]


def _simplify_ring(ring: list, tol: float) -> list:
    far = max(range(len(ring)), key=lambda i: (ring[i][0] - ring[0][0]) ** 2 + (ring[i][1] - ring[0][1]) ** 2)
    one = _simplify(ring[:far + 1], tol)
    two = _simplify(ring[far:] + [ring[0]], tol)
    return one[:-1] + two[:-1]


# ---- seeds: points until the Voronoi partition matches the pixels ------------------------

class _Sites:
    """Points with owners and a bucket grid for nearest-point queries (map units)."""

    def __init__(self, cell: float = 16.0):
        self.cell = cell
        self.buckets: dict[tuple[int, int], list[tuple[float, float, object]]] = {}
        self.count = 0

    def add(self, x: float, y: float, owner) -> None:
        self.buckets.setdefault((int(x // self.cell), int(y // self.cell)), []).append((x, y, owner))
        self.count += 1

    def nearest(self, x: float, y: float, limit: float = math.inf):
        """``(owner, squared distance)`` of the nearest point, or ``(None, inf)`` when
        none is nearer than ``limit`` (a squared distance) or there is none."""
        best, owner = math.inf, None
        if self.count <= 64:                  # few points: look at each
            for pts in self.buckets.values():
                for sx, sy, o in pts:
                    d = (sx - x) ** 2 + (sy - y) ** 2
                    if d < best:
                        best, owner = d, o
            return (owner, best) if best < limit else (None, math.inf)
        cx, cy = int(x // self.cell), int(y // self.cell)
        ring = 0
        reach = min(limit, 4e12)
        while self.count:
            for gx in range(cx - ring, cx + ring + 1):
                for gy in (range(cy - ring, cy + ring + 1) if gx in (cx - ring, cx + ring) else (cy - ring, cy + ring)):
                    for sx, sy, o in self.buckets.get((gx, gy), ()):
                        d = (sx - x) ** 2 + (sy - y) ** 2
                        if d < best:
                            best, owner = d, o
            edge = (ring * self.cell) ** 2
            if best <= edge or edge > reach or ring > 400:
                break
            ring += 1
        return (owner, best) if best < limit else (None, math.inf)


def near_borders(lab: Labels, reach: float) -> bytearray:
    """1 for each pixel within ``reach`` map units (4-connected steps) of a pixel of
    the same class and another province."""
    r = lab.raster
    w, n = r.width, r.width * r.height
    depth = bytearray(n)
    queue = deque()
    for i in range(n):
        c, l = lab.cls[i], lab.label[i]
        if any(lab.cls[j] == c and lab.label[j] != l for j in _around(i, w, n)):
            depth[i] = 1
            queue.append(i)
    limit = max(1, int(reach * r.k))
    while queue:
        i = queue.popleft()
        if depth[i] >= limit:
            continue
        for j in _around(i, w, n):
            if not depth[j]:
                depth[j] = depth[i] + 1
                queue.append(j)
    return bytearray(1 if d else 0 for d in depth)


def border_pairs(lab: Labels, spacing: float = 7.0, offset: float = 2.5,
                 radius: float = 4.0) -> dict[object, list[Point]]:
    """Seed pairs straddling every border between two provinces of one class (and
    between a province and unlabelled water or land of its class), one pair
    every ``spacing`` map units along it: each point ``offset`` map units from
    the border along its normal (from the centroids of each side's pixels within
    ``radius``), so the Voronoi bisector of the pair lies on the border. Returns
    ``{code or None: [points]}`` (map units, y down)."""
    r = lab.raster
    w, h, n = r.width, r.height, r.width * r.height
    taken = _Sites(cell=spacing)
    out: dict[object, list[Point]] = {}
    rad = int(radius * r.k)
    for i in range(n):
        c, l = lab.cls[i], lab.label[i]
        if c not in (LAND, SEA):
            continue
        other = next((lab.label[j] for j in _around(i, w, n) if lab.cls[j] == c and lab.label[j] != l), None)
        if other is None:
            continue
        p = lab.point(i)
        if taken.count and taken.nearest(*p)[1] < spacing * spacing:
            continue
        x, y = i % w, i // w
        sums = {l: [0, 0, 0], other: [0, 0, 0]}
        for yy in range(max(0, y - rad), min(h, y + rad + 1)):
            row = yy * w
            for xx in range(max(0, x - rad), min(w, x + rad + 1)):
                j = row + xx
                if lab.cls[j] == c and lab.label[j] in sums:
                    acc = sums[lab.label[j]]
                    acc[0] += xx
                    acc[1] += yy
                    acc[2] += 1
        (ax, ay, an), (bx, by, bn) = sums[l], sums[other]
        if not an or not bn:
            continue
        nx, ny = ax / an - bx / bn, ay / an - by / bn
        norm = math.hypot(nx, ny)
        if norm < 1e-6:
            continue
        nx, ny = nx / norm, ny / norm
        mine = (p[0] + offset * nx, p[1] + offset * ny)
        theirs = (p[0] - offset * nx, p[1] - offset * ny)
        if lab.owner_at(mine) != l or lab.owner_at(theirs) != other:
            continue
        taken.add(*p, None)
        for q, owner in ((mine, l), (theirs, other)):
            out.setdefault(lab.codes[owner] if owner >= 0 else None, []).append((round(q[0], 2), round(q[1], 2)))
    return out


def refine_seeds(lab: Labels, fixed: dict[object, list[Point]], step: float = 2.0, spacing: float = 14.0,
                 rounds: int = 30, tolerance: float = 0.004, slack: float = 3.0) -> tuple[dict[str, list[Point]], list[Point]]:
    """Extra seed points for each province (and neutral ones), in map units (y down),
    added round by round where the Voronoi partition of all points so far gives a
    grid point (every ``step`` map units) to the wrong province, at least
    ``spacing`` apart within a round, until at most ``tolerance`` of the grid
    points are wrong, not counting points within ``slack`` map units of a border.
    ``fixed``: the points each province (None: neutral) has already. Land and sea are partitioned apart, as the renderer does. Returns
    ``({code: [extra points]}, [neutral points])``."""
    r = lab.raster
    w = r.width
    planes = {LAND: _Sites(cell=3 * spacing), SEA: _Sites(cell=3 * spacing)}
    sea_of = {}
    grid = []
    near = near_borders(lab, slack)
    for py in range(int(step * r.k / 2), r.height, max(1, int(step * r.k))):
        for px in range(int(step * r.k / 2), w, max(1, int(step * r.k))):
            i = py * w + px
            if lab.cls[i] in (LAND, SEA) and not near[i]:
                owner = lab.codes[lab.label[i]] if lab.label[i] >= 0 else None
                grid.append((px / r.k, py / r.k, lab.cls[i], owner))
                if owner is not None:
                    sea_of[owner] = lab.cls[i] == SEA
    taken = set()
    for code, pts in fixed.items():
        for x, y in pts:
            if code is None:
                c = lab.cls[int(y * r.k) * w + int(x * r.k)]
            else:
                c = SEA if sea_of.get(code) else LAND
            planes[c].add(x, y, code)
            taken.add((round(x, 3), round(y, 3)))
    # each grid point's nearest point so far: [owner, squared distance]; a round
    # only looks at the points it added, nearer than the best so far
    best = [list(planes[c].nearest(x, y)) for x, y, c, _o in grid]
    extra: dict[str, list[Point]] = {}
    neutral: list[Point] = []
    for _ in range(rounds):
        wrong = [g for g, b in zip(grid, best) if b[0] != g[3] or b[1] == math.inf]
        if len(wrong) <= tolerance * len(grid):
            break
        added = {LAND: _Sites(cell=3 * spacing), SEA: _Sites(cell=3 * spacing)}
        for x, y, c, o in wrong:
            if (round(x, 3), round(y, 3)) in taken:
                continue
            if added[LAND].nearest(x, y, spacing * spacing)[1] < math.inf \
                    or added[SEA].nearest(x, y, spacing * spacing)[1] < math.inf:
                continue
            added[c].add(x, y, o)
            taken.add((round(x, 3), round(y, 3)))
            planes[c].add(x, y, o)
            (neutral if o is None else extra.setdefault(o, [])).append((x, y))
        if not (added[LAND].count or added[SEA].count):
            break
        for (x, y, c, _o), b in zip(grid, best):
            if added[c].count:
                o2, d2 = added[c].nearest(x, y, b[1])
                if d2 < b[1]:
                    b[0], b[1] = o2, d2
    return extra, neutral


# ---- label places -----------------------------------------------------------------------

def place_label(lab: Labels, code: str, unit: Point, box: tuple[float, float], avoid: list[tuple[Point, float]],
                gap: float) -> Point:
    """Where to write province ``code``'s name (map units, y down): a box of
    ``box`` = (width, height) map units that lies inside the province, clear of
    the circles in ``avoid`` ((centre, radius): the unit, the SC marker); tried
    first below, above, right and left of ``unit`` at ``gap``, then anywhere in
    the province nearest the unit; else the province's point nearest below the unit."""
    r = lab.raster
    idx = lab.codes.index(code)
    bw, bh = box

    def fits(cx, cy) -> bool:
        for (ax, ay), rad in avoid:
            if abs(cx - ax) < bw / 2 + rad and abs(cy - ay) < bh / 2 + rad:
                return False
        for fx in (-0.5, -0.25, 0, 0.25, 0.5):
            for fy in (-0.5, 0, 0.5):
                px, py = int((cx + fx * bw) * r.k), int((cy + fy * bh) * r.k)
                if not (0 <= px < r.width and 0 <= py < r.height) or lab.label[py * r.width + px] != idx:
                    return False
        return True

    ux, uy = unit
    for dx, dy in ((0, gap), (0, -gap), (gap + bw / 2, 0), (-gap - bw / 2, 0),
                   (gap, gap), (-gap, gap), (gap, -gap), (-gap, -gap)):
        if fits(ux + dx, uy + dy):
            return ux + dx, uy + dy
    best = None
    step = max(1, int(r.k))
    for py in range(0, r.height, step):
        for px in range(0, r.width, step):
            if lab.label[py * r.width + px] == idx:
                x, y = px / r.k, py / r.k
                d = (x - ux) ** 2 + (y - uy) ** 2
                if (best is None or d < best[0]) and fits(x, y):
                    best = (d, (x, y))
    if best:
        return best[1]
    below = (ux, uy + gap)       # nowhere fits: the province's point nearest below the unit
    pts = [lab.point(i) for i, l in enumerate(lab.label) if l == idx]
    return min(pts, key=lambda p: (p[0] - below[0]) ** 2 + (p[1] - below[1]) ** 2) if pts else below


# ---- the whole conversion ---------------------------------------------------------------

def _inside(p: Point, rings: list[list[Point]]) -> bool:
    """Even-odd: ``p`` is inside an odd number of ``rings`` (on land, as drawn)."""
    x, y = p
    inside = False
    for poly in rings:
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[i - 1]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def _settle(lab: Labels, land: list[list[Point]], idx: int, p: Point, sea: bool, margin: float) -> Point:
    """``p`` if the traced coastline puts it on the right side (land for a land
    province, water for a sea), else the nearest pixel of province ``idx`` with
    ``margin`` map units of the province around it that the coastline does."""
    if _inside(p, land) != sea:
        return p
    r = lab.raster
    w, n = r.width, r.width * r.height
    m = max(1, int(margin * r.k))

    def deep(i: int) -> bool:
        x, y = i % w, i // w
        return all(0 <= x + dx < w and 0 <= y + dy < r.height and lab.label[(y + dy) * w + x + dx] == idx
                   for dx, dy in ((0, 0), (m, 0), (-m, 0), (0, m), (0, -m))) \
            and _inside(lab.point(i), land) != sea
    i = _near_pixel(r, p[0] + r.x0, r.y1 - p[1], deep, int(60 * r.k))
    return tuple(round(v, 2) for v in lab.point(i)) if i is not None else p


def _at_sea(lab: Labels, p: Point, margin: float) -> Point:
    """``p`` (map units, y down) if it lies at sea, else the nearest point at sea
    at least ``margin`` map units from land (a fleet on a coast drawn in the water)."""
    r = lab.raster
    w, n = r.width, r.width * r.height
    if lab.cls[min(n - 1, int(p[1] * r.k) * w + int(p[0] * r.k))] == SEA:
        return p
    m = max(1, int(margin * r.k))

    def open_sea(i: int) -> bool:
        x, y = i % w, i // w
        return all(0 <= x + dx < w and 0 <= y + dy < r.height and lab.cls[(y + dy) * w + x + dx] == SEA
                   for dx, dy in ((0, 0), (m, 0), (-m, 0), (0, m), (0, -m)))
    i = _near_pixel(r, p[0] + r.x0, r.y1 - p[1], open_sea, int(40 * r.k))
    return tuple(round(v, 2) for v in lab.point(i)) if i is not None else p


def _hex(rgb) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)


def _tint(rgb) -> str:
    """A light version of a unit colour for owned land: mixed 35 % with white; a
    light grey for black and near-black (Persia), which would otherwise tint land dark."""
    return _hex(tuple(0.35 * v + 0.65 for v in rgb)) if sum(rgb) > 0.6 else _hex((0.74, 0.74, 0.74))


def convert(ps: PsMap, provinces: dict[str, dict], powers: list[str], name: str, k: float | None = None,
            fixes: dict | None = None, picture_width: float = 800.0, log=print) -> dict:
    """The ``geometry.json`` content for map ``name`` from ``ps``.

    ``provinces``: ``{code: {"kind": ..., "coasts": [...], "sc": bool}}`` as in
    ``map.json`` (lower-case codes); ``powers``: the map's power names;
    ``fixes``: the hand corrections of ``pictures.json`` (see :data:`FIXES`), in
    the output's coordinates (map units from the top left corner, y down).
    Raises :class:`PsError` as :func:`label_pixels` does."""
    fixes = fixes or {}
    unknown = set(fixes) - set(FIXES)
    if unknown:
        raise PsError(f"{ps.path}: unknown fixes {sorted(unknown)} (known: {', '.join(FIXES)})")
    aliases = {c.lower(): a.upper() for c, a in fixes.get("aliases", {}).items()}
    up = {c: aliases.get(c, c.upper()) for c in provinces}
    for c, a in up.items():
        if a not in ps.info:
            raise PsError(f"{ps.path}: province {c}: no INFO point {a} (give an alias)")
    x0, y0, x1, y1 = ps.extent
    size = (x1 - x0, y1 - y0)

    def flip(p: Point) -> Point:
        return round(p[0] - x0, 2), round(y1 - p[1], 2)

    raster = rasterise(ps, k or max(2.0, 1000 / size[0]))
    log(f"{name}: raster {raster.width}x{raster.height}")
    per_unit = size[0] / picture_width            # map units per picture unit
    sources = {up[c]: [flip(p) for p in pts] for c, pts in fixes.get("sources", {}).items()}   # flip is its own inverse
    lab = label_pixels(ps, raster, {up[c]: v["kind"] for c, v in provinces.items()}, min_radius=9 * per_unit,
                       sources=sources)
    clean_specks(lab, area=10 * per_unit ** 2)
    back = {a: c for c, a in up.items()}
    lab.codes = [back[a] for a in lab.codes]
    for c, units in fixes.get("thicken", {}).items():
        thicken(lab, c, units)
    land = trace_land(lab)
    log(f"{name}: {len(land)} coastline rings, {sum(map(len, land))} points")

    out_prov: dict[str, dict] = {}
    for c, v in sorted(provinces.items()):
        idx = lab.codes.index(c)
        unit = flip(ps.info[up[c]])
        if c in fixes.get("units", {}):
            unit = tuple(fixes["units"][c])
        elif lab.owner_at(unit) != idx:       # the INFO point lies outside the province drawn
            unit = tuple(round(v, 2) for v in lab.point(lab.seed[idx]))
        avoid = [(unit, 8 * per_unit)]
        entry: dict = {}
        sc_at = ps.supplies.get(up[c])
        if v.get("sc") and sc_at:
            entry["sc"] = list(flip(sc_at))
            avoid.append((flip(sc_at), 4.5 * per_unit))
        if c in fixes.get("labels", {}):
            label = tuple(fixes["labels"][c])
        else:
            label = place_label(lab, c, unit, (20 * per_unit, 10 * per_unit), avoid, 15 * per_unit)
        sea = v["kind"] == "sea"
        label = _settle(lab, land, idx, label, sea, 2 * per_unit)
        entry = {"label": [round(label[0], 2), round(label[1], 2)], **entry}
        if v["kind"] != "impassable":
            entry["unit"] = list(_settle(lab, land, idx, unit, sea, 4 * per_unit))
        if v.get("coasts"):
            entry["coasts"] = {}
            for coast in v["coasts"]:
                key = f"{up[c]}/{coast.upper()}"
                if key not in ps.info:
                    raise PsError(f"{ps.path}: province {c}: no INFO point {key} for its coast")
                entry["coasts"][coast] = list(_at_sea(lab, flip(ps.info[key]), 4 * per_unit))
        out_prov[c] = entry
    fixed: dict[object, list[Point]] = {
        c: [tuple(e["label"])] + ([tuple(e["unit"])] if "unit" in e else []) for c, e in out_prov.items()}
    pairs = border_pairs(lab, spacing=6.5 * per_unit, offset=2.3 * per_unit, radius=3.6 * per_unit)
    own = {q for pts in fixed.values() for q in pts}
    for c, pts in pairs.items():
        fixed.setdefault(c, []).extend(q for q in pts if q not in own)
    extra, neutral = refine_seeds(lab, fixed, step=3 * per_unit, spacing=12.7 * per_unit, slack=2.7 * per_unit,
                                  rounds=12)
    for c, pts in pairs.items():
        (neutral if c is None else extra.setdefault(c, [])).extend(q for q in pts if q not in own)
    log(f"{name}: {sum(map(len, extra.values()))} seeds, {len(neutral)} neutral")
    for c, pts in extra.items():
        out_prov[c]["seeds"] = [[round(x, 2), round(y, 2)] for x, y in pts]
    colour = {p.upper(): rgb for p, (rgb, _contrast) in ps.powers.items()}
    out_powers = {}
    for p in powers:
        rgb = colour.get(p.upper().replace(" ", ""), (0.5, 0.5, 0.5))
        out_powers[p] = {"colour": _hex(rgb), "tint": _tint(rgb)}
        out_powers[p].update(fixes.get("powers", {}).get(p, {}))
    title = ps.text.split("%%Title: ", 1)[-1].splitlines()[0] if "%%Title: " in ps.text else ""
    projection = {"type": "plane", "size": [round(size[0], 2), round(size[1], 2)]}
    projection.update(fixes.get("projection", {}))
    return {
        "format": 1,
        "map": name,
        "about": f"Converted by judge.mapimport.geometry from DPjudge's {Path(ps.path).name} "
                 f"(MIT licence; {title}): unit places from its INFO block, SC places from "
                 "VisitSupplies, the coastline traced and seeds fitted to the borders of its picture; "
                 "hand fixes in judge/mapimport/pictures.json.",
        "projection": projection,
        "powers": out_powers,
        "land": [{"name": f"land {i}", "points": [[round(x, 2), round(y, 2)] for x, y in ring]}
                 for i, ring in enumerate(land)],
        "neutral": [[round(x, 2), round(y, 2)] for x, y in neutral],
        "provinces": out_prov,
    }


FIXES = {
    "aliases": "{code: PS_CODE}: the picture file's name for a province of the map (modern: adl is AND)",
    "sources": "{code: [[x, y], ...]}: more points a province grows from (a province the picture's lines cut in parts)",
    "thicken": "{code: units}: widen a thin island over the water by this many map units",
    "units": "{code: [x, y]}: the unit place instead of the INFO point",
    "labels": "{code: [x, y]}: the name's place instead of the one found",
    "powers": "{Power: {\"colour\": ..., \"tint\": ...}}: colours instead of the picture's",
    "projection": "keys put into the projection (e.g. lenses)",
}
"""The hand corrections ``pictures.json`` may give per map (coordinates: the output's)."""

PICTURES = Path(__file__).with_name("pictures.json")
"""Which picture file each converted map comes from, and its hand fixes."""


def map_provinces(name: str, maps_dir: Path | None = None) -> tuple[dict[str, dict], list[str]]:
    """``({code: {"kind", "coasts", "sc"}}, [power, ...])`` read from ``maps/NAME/map.json``."""
    folder = (maps_dir or Path(__file__).resolve().parents[2] / "maps") / name
    data = json.loads((folder / "map.json").read_text(encoding="utf-8"))
    provinces = {c: {"kind": v["type"], "coasts": v.get("coasts", []), "sc": bool(v.get("sc"))}
                 for c, v in data["provinces"].items()}
    return provinces, list(data["powers"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Make maps/NAME/geometry.json from a DPjudge .ps picture file.")
    ap.add_argument("names", nargs="*", help="maps listed in pictures.json (default: all of them)")
    ap.add_argument("--ps", help="the .ps file (default: pictures.json's, under --dpjudge)")
    ap.add_argument("--dpjudge", default="/work/shared/variants/dpjudge/maps",
                    help="folder of DPjudge's map files")
    ap.add_argument("--maps", type=Path, help="maps folder (default: the project's maps/)")
    ap.add_argument("--out", type=Path, help="output file (default: maps/NAME/geometry.json)")
    ap.add_argument("--scale", type=float, help="raster pixels per map unit (default: 1000 pixels across, at least 2)")
    args = ap.parse_args(argv)
    table = json.loads(PICTURES.read_text(encoding="utf-8"))
    names = args.names or sorted(k for k in table if not k.startswith("_"))
    for name in names:
        entry = table.get(name, {})
        ps_file = args.ps or str(Path(args.dpjudge) / entry.get("ps", f"{name}.ps"))
        provinces, powers = map_provinces(name, args.maps)
        geo = convert(read_ps(ps_file), provinces, powers, name, args.scale, entry.get("fixes", {}))
        maps_dir = args.maps or Path(__file__).resolve().parents[2] / "maps"
        out = args.out or maps_dir / name / "geometry.json"
        out.write_text(_dump(geo), encoding="utf-8")
        print(f"{name}: wrote {out}")
    return 0


def _dump(geo: dict) -> str:
    """JSON with one province, land ring or power a line (diffs stay readable)."""
    lines = ["{"]
    keys = list(geo)
    for n, key in enumerate(keys):
        value = geo[key]
        comma = "," if n < len(keys) - 1 else ""
        if isinstance(value, dict) and key in ("provinces", "powers"):
            inner = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()]
            lines.append(f" {json.dumps(key)}: {{\n" + ",\n".join(inner) + f"\n }}{comma}")
        elif isinstance(value, list) and key == "land":
            lines.append(f" {json.dumps(key)}: [\n" + ",\n".join(f"  {json.dumps(v)}" for v in value) + f"\n ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    return "\n".join(lines) + "\n}\n"


if __name__ == "__main__":
    sys.exit(main())
