"""Where things are drawn: ``maps/<name>/geometry.json`` loaded, checked and projected.

The file (format in ``maps/README.md``, section *geometry.json*) gives, in the
map's own coordinates (longitude/latitude for the standard map): the coastline
as land polygons (and water cut out of them), per province a label point, a
unit point, a point per coast and optional extra *seed* points, an SC marker
point, and a colour per power. A province's region is derived: the union of the
Voronoi cells of its points (:mod:`judge.render.voronoi`), land provinces
partitioned among land seeds and clipped to the coastline when drawn, seas
among sea seeds.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from ..maps import map_about, map_dir, read_json
from ..rules.map import NEUTRAL, Map, MapError
from . import voronoi
from .projection import Point, Projection

WIDTH = 800.0
"""Picture units across the map; the SVG's ``width`` only scales the drawing."""

SC_OFFSET = (0.0, 11.0)
"""Default SC marker place: this far (picture units) from the label point."""

NEUTRAL_COLOUR, NEUTRAL_TINT = "#7d7d7d", "#dedede"
"""Neutral units (they belong to no power): grey."""

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_PROVINCE_KEYS = ("label", "unit", "sc", "coasts", "seeds")


@dataclass(frozen=True)
class Geometry:
    """A map's drawing data in picture units (x right, y down, ``width`` x ``height``).

    ``land``/``water``: polygons (lists of points) of land, and of water inside
    land (filled even-odd: an island in a lake is land); ``regions``: ``{province: [ring, ...]}``; ``label``: ``{province:
    point}``; ``unit``: ``{location: point}`` for every province a unit may
    stand in and every coast (``"spa/nc"``); ``sc``: ``{sc province: point}``;
    ``colours``/``tints``: ``{power: "#rrggbb"}`` for units and for owned land.
    """

    source: str
    width: float
    height: float
    land: tuple[tuple[Point, ...], ...]
    water: tuple[tuple[Point, ...], ...]
    regions: dict[str, list[list[Point]]]
    label: dict[str, Point]
    unit: dict[str, Point]
    sc: dict[str, Point]
    colours: dict[str, str]
    tints: dict[str, str]

    def on_land(self, p: Point) -> bool:
        """True if ``p`` is inside an odd number of the land and water polygons (even-odd,
        as drawn: water cuts land, an island in a lake is land again)."""
        return _on_land(p, self.land, self.water)


_CACHE: dict[tuple[str, int], Geometry] = {}


def load_geometry(game_map: Map, path: str | Path | None = None) -> Geometry:
    """The checked geometry of ``game_map``: ``path`` or ``maps/<map name>/geometry.json``,
    or, for a variant played on another map's board (``"picture": "standard"`` in
    its ``map.json``, such as France vs Austria), that map's geometry with colours
    for the variant's powers (:func:`build_geometry` ``borrowed``).
    Cached per file and map. Raises :class:`MapError` (file, key, reason) when the
    file is missing or malformed, lacks a point for a province or coast of the
    map, names a province the map lacks, puts a land province's point at sea (or
    a sea's on land), or lacks a colour for a power."""
    borrowed = False
    if path is None:
        path = map_dir(game_map.name) / "geometry.json"
        if not path.exists():
            try:
                picture = map_about(game_map.name).get("picture")
            except MapError:
                picture = None
            if isinstance(picture, str) and picture != game_map.name:
                path, borrowed = map_dir(picture) / "geometry.json", True
    path = Path(path)
    key = (str(path), id(game_map))
    if key not in _CACHE:
        if not path.exists():
            raise MapError(str(path), "-", f"no geometry file for map {game_map.name!r}")
        _CACHE[key] = build_geometry(game_map, read_json(path), str(path), borrowed=borrowed)
    return _CACHE[key]


def power_colours(index: int) -> tuple[str, str]:
    """A unit colour and a land tint for the ``index``-th power of a map whose
    picture has none for it (Chaos's 34 powers on the standard board): hues a
    golden angle apart, alternating in depth so neighbours in the list differ."""
    hue = (index * 0.381966 + 0.03) % 1.0
    dark = 0.62 if index % 2 else 0.78
    return _hsv(hue, 0.85, dark), _hsv(hue, 0.32, 0.97)


def _hsv(h: float, s: float, v: float) -> str:
    import colorsys
    return "#" + "".join(f"{round(c * 255):02x}" for c in colorsys.hsv_to_rgb(h, s, v))


def build_geometry(game_map: Map, data: dict, source: str = "<geometry>", borrowed: bool = False) -> Geometry:
    """Check ``data`` (the parsed file) against ``game_map`` and project it.
    ``borrowed``: the file is another map's (same board, other powers): its
    ``map`` is not checked, powers it colours that the map lacks are left out
    and the map's powers it lacks get :func:`power_colours`. Neutral units
    (``judge.rules.map.NEUTRAL``) are drawn grey. Raises :class:`MapError` as
    :func:`load_geometry` does."""
    def fail(key: str, reason: str):
        raise MapError(source, key, reason)

    def point(value, key: str) -> Point:
        if not (isinstance(value, list) and len(value) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)):
            fail(key, "must be a point [x, y] of two numbers")
        return float(value[0]), float(value[1])

    def section(obj: dict, name: str, typ: type, where: str = ""):
        if name not in obj:
            fail(where + name, "missing")
        if not isinstance(obj[name], typ):
            fail(where + name, f"must be a JSON {'object' if typ is dict else 'array'}")
        return obj[name]

    if data.get("format", 1) != 1:
        fail("format", "unknown format version (this judge reads 1)")
    if data.get("map") != game_map.name and not borrowed:
        fail("map", f"must name the map {game_map.name!r}")
    proj = _projection(section(data, "projection", dict), fail)
    land = tuple(_polygon(p, f"land[{i}]", point, fail) for i, p in enumerate(section(data, "land", list)))
    water = tuple(_polygon(p, f"water[{i}]", point, fail) for i, p in enumerate(_list(data, "water", fail)))
    if not land:
        fail("land", "needs at least one polygon")

    colours, tints = {}, {}
    powers = section(data, "powers", dict)
    for n, power in enumerate(game_map.powers):
        entry = powers.get(power)
        if entry is None and borrowed:
            entry = dict(zip(("colour", "tint"), power_colours(n)))
        if not isinstance(entry, dict):
            fail(f"powers.{power}", "missing: every power of the map needs a colour")
        for field, table in (("colour", colours), ("tint", tints)):
            value = entry.get(field)
            if not isinstance(value, str) or not _COLOUR.match(value):
                fail(f"powers.{power}.{field}", "must be a colour like \"#a0b1c2\"")
            table[power] = value
    for power in powers:
        if power not in game_map.powers and not borrowed:
            fail(f"powers.{power}", "not a power of the map")
    colours[NEUTRAL], tints[NEUTRAL] = NEUTRAL_COLOUR, NEUTRAL_TINT

    provinces = section(data, "provinces", dict)
    for code in provinces:
        if code not in game_map.provinces:
            fail(f"provinces.{code}", "not a province of the map")
    label, unit, sc = {}, {}, {}
    seeds: dict[str, list[Point]] = {}
    for code, prov in game_map.provinces.items():
        where = _where(code)
        entry = provinces.get(code)
        if not isinstance(entry, dict):
            fail(where, "missing: every province of the map needs a label point")
        for k in entry:
            if k not in _PROVINCE_KEYS:
                fail(f"{where}.{k}", f"unknown key (known: {', '.join(_PROVINCE_KEYS)})")
        if prov.kind == "impassable" and "unit" in entry:
            fail(where + ".unit", "an impassable province holds no unit")
        if "sc" in entry and not prov.sc:
            fail(where + ".sc", "not a supply centre on the map")
        label[code] = point(entry.get("label"), where + ".label")
        own = [label[code]]
        if prov.kind != "impassable":
            unit[code] = point(entry.get("unit"), where + ".unit")
            own.append(unit[code])
        coasts = entry.get("coasts", {})
        if not isinstance(coasts, dict) or set(coasts) != set(prov.coasts):
            fail(where + ".coasts", f"must give a point for each coast: {sorted(prov.coasts) or 'none'}")
        for c in prov.coasts:
            unit[f"{code}/{c}"] = point(coasts[c], f"{where}.coasts.{c}")
        if prov.sc:
            sc[code] = point(entry["sc"], where + ".sc") if "sc" in entry else None
        extra = entry.get("seeds", [])
        if not isinstance(extra, list):
            fail(where + ".seeds", "must be a list of points")
        own += [point(s, f"{where}.seeds[{i}]") for i, s in enumerate(extra)]
        seeds[code] = own
    neutral = [point(s, f"neutral[{i}]") for i, s in enumerate(_list(data, "neutral", fail))]

    if proj.kind == "plane" and proj.lenses:      # a lens bends straight coasts: project them finely
        step = (proj.origin[0] + proj.width / proj.scale) / 250      # a 250th of the drawing's width
        land, water = tuple(_dense(p, step) for p in land), tuple(_dense(p, step) for p in water)
    land_xy = tuple(tuple(map(proj, poly)) for poly in land)
    water_xy = tuple(tuple(map(proj, poly)) for poly in water)
    label_xy = {k: proj(p) for k, p in label.items()}
    unit_xy = {k: proj(p) for k, p in unit.items()}
    for code, prov in game_map.provinces.items():
        for what, table in (("label", label_xy), ("unit", unit_xy)):
            p = table.get(code)
            if p is not None and _on_land(p, land_xy, water_xy) != (prov.kind != "sea"):
                fail(f"{_where(code)}.{what}", "lies at sea" if prov.kind != "sea" else "lies on land")
    sc_xy = {code: proj(p) if p else (label_xy[code][0] + SC_OFFSET[0], label_xy[code][1] + SC_OFFSET[1])
             for code, p in sc.items()}
    regions = _regions(game_map, {c: [proj(p) for p in pts] for c, pts in seeds.items()},
                       [proj(p) for p in neutral], (proj.width, proj.height), fail,
                       lambda q: _on_land(q, land_xy, water_xy))
    return Geometry(source, proj.width, proj.height, land_xy, water_xy, regions,
                    label_xy, unit_xy, sc_xy, colours, tints)


def _where(code: str) -> str:
    return f"provinces.{code}"


def _list(data: dict, name: str, fail) -> list:
    value = data.get(name, [])
    if not isinstance(value, list):
        fail(name, "must be a JSON array")
    return value


def _projection(d: dict, fail) -> Projection:
    kind = d.get("type")
    if kind == "plane":
        size = d.get("size")
        if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, (int, float)) and v > 0 for v in size)):
            fail("projection.size", "must be [width, height], both positive")
        _lenses(d, fail, "[x, y]")
    elif kind == "lonlat":
        b = d.get("bounds")
        if not (isinstance(b, list) and len(b) == 4 and all(isinstance(v, (int, float)) for v in b)
                and b[0] < b[2] and b[1] < b[3]):
            fail("projection.bounds", "must be [west, south, east, north] with west < east, south < north")
        if not isinstance(d.get("parallel", 0), (int, float)) or not -80 <= d.get("parallel", 0) <= 80:
            fail("projection.parallel", "must be a latitude between -80 and 80")
        _lenses(d, fail, "[lon, lat]")
    else:
        fail("projection.type", "must be \"lonlat\" or \"plane\"")
    return Projection.from_dict(d, WIDTH)


def _lenses(d: dict, fail, centre: str) -> None:
    lenses = d.get("lenses", [])
    for i, f in enumerate(lenses if isinstance(lenses, list) else [None]):
        if not (isinstance(f, dict) and isinstance(f.get("centre"), list) and len(f["centre"]) == 2
                and isinstance(f.get("radius"), (int, float)) and f["radius"] > 0
                and isinstance(f.get("magnify"), (int, float)) and 0 < f["magnify"] <= 4):
            fail(f"projection.lenses[{i}]",
                 f"must be {{\"centre\": {centre}, \"radius\": > 0, \"magnify\": above 0, at most 4}}")


def _polygon(entry, key: str, point, fail) -> list[Point]:
    pts = entry.get("points") if isinstance(entry, dict) else None
    if not isinstance(pts, list) or len(pts) < 3:
        fail(key + ".points", "must list at least three points")
    return [point(p, f"{key}.points[{i}]") for i, p in enumerate(pts)]


def _regions(game_map: Map, seeds: dict[str, list[Point]], neutral: list[Point],
             size: tuple[float, float], fail, on_land) -> dict[str, list[list[Point]]]:
    """Province regions from projected seeds: land and impassable provinces share
    the plane with the neutral seeds on land, seas share another plane with the
    neutral seeds at sea (water drawn off the board)."""
    w, h = size
    box = (-w, -h, 2 * w, 2 * h)   # wide enough that no cell inside the picture touches it
    sea_neutral = {q for q in neutral if not on_land(q)}
    out = {}
    for want_sea in (False, True):
        groups: list[tuple[str | None, list[Point]]] = [
            (c, pts) for c, pts in seeds.items() if (game_map.provinces[c].kind == "sea") == want_sea]
        groups.append((None, [q for q in neutral if (q in sea_neutral) == want_sea]))
        sites, owners, seen = [], [], {}
        for code, pts in groups:
            for q in pts:
                k = (round(q[0], 3), round(q[1], 3))
                if k in seen:
                    other = seen[k]
                    if other != code:
                        a, b = (code, other) if code else (other, code)
                        fail(_where(a), f"has a point in the same place as {b or 'a neutral seed'}")
                    continue
                seen[k] = code
                sites.append(q)
                owners.append(code)
        out.update(voronoi.regions(sites, owners, box))
    return out


def _dense(poly: list[Point], step: float) -> list[Point]:
    """``poly`` with points added so no edge is longer than ``step``."""
    out = []
    for i, a in enumerate(poly):
        b = poly[(i + 1) % len(poly)]
        n = max(1, math.ceil(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n)]
    return out


def _on_land(p: Point, land, water) -> bool:
    """Even-odd over all land and water polygons, as drawn."""
    return sum(_inside(p, poly) for poly in tuple(land) + tuple(water)) % 2 == 1


def _inside(p: Point, poly) -> bool:
    """Even-odd point-in-polygon test."""
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[i - 1]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside
