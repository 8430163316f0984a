"""The map picture of one phase as SVG: provinces, SCs, units, orders and results.

:func:`render_svg` is a pure function of the map, its names, a position and
(optionally) the results of the phase's orders; the drawing data comes from the
map's ``geometry.json`` (:mod:`judge.render.geometry`). Every drawn thing has a
class and ``data-`` attributes so pages and tests can find it:

- ``<path class="province land|sea|impassable" data-province="par">``
- ``<circle class="sc" data-province="par" data-owner="France">``
- ``<g class="unit army|fleet france [dislodged]" data-location="spa/nc" data-power="France">``
- ``<g class="order move|support|convoy|hold|retreat|disband|build succeeds|fails|illegal|void|pending"
  data-power="France" data-location="par">``; failed ones hold a ``<g class="failed">`` cross.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from ..notation.names import NameIndex, is_cjk, lang_key
from ..rules.map import Map, province_of
from ..rules.orders import (FAILS, ILLEGAL, NO_ORDER, SUCCEEDS, VOID, Build, Convoy, Disband, Hold, Move,
                            Result, Retreat, Support)
from ..rules.position import Position
from .geometry import Geometry, Point, load_geometry
from .shapes import FAIL_RED, INK, UNIT_R, arrow, cross, octagon, toward, unit_shape
from .shapes import fmt as _f

SEA, LAND, NEUTRAL, IMPASSABLE = "#bcd8ec", "#f3eedf", "#dcd7cb", "#b9b4a8"
SEA_LINE, LAND_LINE, COAST_LINE = "#93b6d2", "#9a8f7a", "#5f7f99"
GREY = "#8a8a8a"
LEGEND_H = 46.0
LEGEND_ROW = 17.0
"""The legend's height with one row of powers, and each further row's."""
"""The reason of the hold the adjudicator gives a unit without orders (``judge.rules.movement``)."""
DISLODGED_SHIFT = (10.0, -9.0)
"""Where a dislodged unit is drawn, from its province's unit point (picture units)."""

FONTS = {
    "en": "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif",
    "zh-hans": "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', "
               "'WenQuanYi Micro Hei', 'Noto Sans SC', sans-serif",
    "zh-hant": "'Noto Sans CJK TC', 'Source Han Sans TC', 'PingFang TC', 'Microsoft JhengHei', "
               "'WenQuanYi Micro Hei', 'Noto Sans TC', sans-serif",
}
"""Font lists: nothing is shipped; browsers pick the first installed CJK font."""

ENGLISH = {"army": "army", "fleet": "fleet", "dislodged": "dislodged", "move": "move", "support": "support",
           "convoy": "convoy", "failed": "failed", "hold": "hold", "build": "build", "sc": "supply centre",
           "count": "{sc} supply centres, {units} units"}
"""The picture's legend words, English; the text layer gives them in the
reader's language (``judge.text.reports.map_words``, with ``title``)."""


def render_svg(game_map: Map, names: NameIndex, position: Position, results=None,
               lang: str = "en", width: int = 800, geometry: Geometry | None = None,
               words: dict[str, str] | None = None, own_names: dict | None = None) -> str:
    """The picture of ``position`` (and of ``results``, the outcomes of the orders
    given in it) as an SVG document (``str``), ``width`` pixels wide.

    ``results``: iterable of :class:`~judge.rules.orders.Result`; moves, retreats,
    supports, convoys, holds, builds and disbands are drawn as arrows and marks,
    failed ones (outcome FAILS, ILLEGAL or VOID) dashed and crossed in red; an
    outcome of ``None`` draws an order not yet adjudicated. ``lang``: ``"en"``
    labels provinces by abbreviation (``Par``), ``"zh-hans"``/``"zh-hant"`` by
    Chinese name. ``geometry`` defaults to the map's ``geometry.json``.
    ``words``: the legend's words (keys of :data:`ENGLISH`) and the
    picture's ``title``, in ``lang`` (default: English, the phase code as
    title). ``own_names``: Chinese names of a name set that differ from the
    map's (``{"provinces": {code: name}, "powers": {power: name}}``, the
    reader's, :mod:`judge.text.names`). A unit dislodged by the phase's
    results is drawn in the dislodged ring where it stood. Raises
    :class:`~judge.rules.map.MapError` if the geometry file is missing or faulty."""
    geo = geometry or load_geometry(game_map)
    lang = lang_key(lang)
    d = _Drawing(game_map, names, position, list(results or ()), lang, geo,
                 {"title": position.phase, **ENGLISH, **(words or {})}, own_names or {})
    return d.svg(width)


def _ring_path(*parts) -> str:
    """The SVG path of the rings in ``parts`` (a map's outlines, which never
    change: made once per outline object and kept — 3.8 ms of every
    picture was formatting the same coordinates again, issue 23)."""
    key = tuple(map(id, parts))
    hit = _PATHS.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], parts)):
        return hit[1]
    d = " ".join("M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in ring) + "Z" for rings in parts for ring in rings)
    if len(_PATHS) < 8192:
        _PATHS[key] = (parts, d)          # the outlines kept alive with it: their ids stay theirs
    return d


_PATHS: dict[tuple, tuple[tuple, str]] = {}


def _text_width(text: str, size: float) -> float:
    """Rough width of ``text`` in picture units (CJK glyphs are square)."""
    return sum(size if is_cjk(ch) else size * 0.62 for ch in text)


def _ring(c: Point, r: float, colour: str, width: float, dash: str) -> str:
    return (f'<circle cx="{_f(c[0])}" cy="{_f(c[1])}" r="{_f(r)}" stroke="{colour}" '
            f'stroke-width="{_f(width)}" stroke-dasharray="{dash}"/>')


def _slug(power: str) -> str:
    return power.lower().replace(" ", "-")


class _Drawing:
    def __init__(self, game_map: Map, names: NameIndex, position: Position, results: list[Result],
                 lang: str, geo: Geometry, words: dict[str, str], own_names: dict):
        self.map, self.names, self.pos, self.results, self.lang, self.geo = \
            game_map, names, position, results, lang, geo
        self.words = words
        self.own = own_names if lang != "en" else {}
        self.id = f"map-{position.phase}-{lang}"   # prefix of the ids of clip paths and patterns

    # ---- whole picture -----------------------------------------------------------
    def svg(self, width: int) -> str:
        geo = self.geo
        w, h = geo.width, geo.height + self.legend_height()
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" class="diplomacy-map" width="{width}" '
            f'height="{_f(width * h / w)}" viewBox="0 0 {_f(w)} {_f(h)}" data-phase="{self.pos.phase}" '
            f'font-family={quoteattr(FONTS[self.lang])} lang="{self.lang}">',
            f"<title>{escape(self.words['title'])}</title>",
            self._defs(),
            f'<rect width="{_f(w)}" height="{_f(geo.height)}" fill="{SEA}"/>',
            self._provinces(),
            self._labels(),
            self._supply_centres(),
            self._orders(),
            self._units(),
            self._title(),
            self._legend(),
            "</svg>",
        ]
        return "\n".join(p for p in parts if p) + "\n"

    def _land_path(self) -> str:
        return _ring_path(self.geo.land, self.geo.water)

    def _defs(self) -> str:
        i = self.id
        return (
            "<defs>"
            f'<clipPath id="{i}-land"><path clip-rule="evenodd" d="{self._land_path()}"/></clipPath>'
            f'<clipPath id="{i}-frame"><rect width="{_f(self.geo.width)}" height="{_f(self.geo.height)}"/></clipPath>'
            f'<pattern id="{i}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            f'<rect width="6" height="6" fill="{IMPASSABLE}"/><line x1="0" y1="0" x2="0" y2="6" stroke="#8d877a" stroke-width="2"/>'
            "</pattern></defs>"
        )

    # ---- provinces -----------------------------------------------------------------
    def _provinces(self) -> str:
        geo, i = self.geo, self.id
        seas, lands = [], []
        for code, prov in self.map.provinces.items():
            d = _ring_path(geo.regions.get(code, ()))
            name = self._name(code)
            title = f"<title>{escape(self.names.english.get(code, code) if name == code else name)}</title>"
            if prov.kind == "sea":
                seas.append(f'<path class="province sea" data-province="{code}" d="{d}">{title}</path>')
                continue
            owner = self.pos.sc_owners.get(code)
            if prov.kind == "impassable":
                cls, fill = "province impassable", f"url(#{i}-hatch)"
            elif owner:
                cls, fill = f"province land owned {_slug(owner)}", geo.tints[owner]
            else:
                cls, fill = "province land", LAND
            lands.append(f'<path class="{cls}" data-province="{code}" fill="{fill}" d="{d}">{title}</path>')
        land = self._land_path()
        return (
            f'<g clip-path="url(#{i}-frame)">'
            f'<g class="seas" fill="{SEA}" stroke="{SEA_LINE}" stroke-width="0.8">{"".join(seas)}</g>'
            f'<path class="unplayable" fill="{NEUTRAL}" fill-rule="evenodd" d="{land}"/>'
            f'<g class="lands" clip-path="url(#{i}-land)" stroke="{LAND_LINE}" stroke-width="0.8" '
            f'stroke-linejoin="round">{"".join(lands)}</g>'
            f'<path class="coast" fill="none" stroke="{COAST_LINE}" stroke-width="1" stroke-linejoin="round" d="{land}"/>'
            "</g>"
        )

    def _name(self, code: str) -> str:
        """The province's name in the picture's language; its code when a map has no
        Chinese name for it."""
        if self.lang == "en":
            return self.names.english.get(code, code)
        return self.own.get("provinces", {}).get(code) or self.names.chinese[code][0 if self.lang == "zh-hans" else 1]

    def _labels(self) -> str:
        out = []
        for code, prov in self.map.provinces.items():
            x, y = self.geo.label[code]
            text = self._name(code) if self.lang != "en" else code
            if text == code:     # English, or a map without Chinese names: the abbreviation
                text = self.names.abbr.get(code, code.capitalize())
            style = ' class="label sea" fill="#2d5878" font-style="italic"' if prov.kind == "sea" else ' class="label"'
            out.append(f'<text{style} data-province="{code}" x="{_f(x)}" y="{_f(y)}">{escape(text)}</text>')
        size = 9
        return (f'<g class="labels" font-size="{size}" text-anchor="middle" dominant-baseline="central" '
                f'fill="#3b3327" stroke="#ffffff" stroke-width="2.2" stroke-opacity="0.7" '
                f'paint-order="stroke" stroke-linejoin="round">' + "".join(out) + "</g>")

    def _supply_centres(self) -> str:
        out = []
        for code in sorted(self.geo.sc):
            x, y = self.geo.sc[code]
            owner = self.pos.sc_owners.get(code)
            fill = self.geo.colours[owner] if owner else "#ffffff"
            data = f' data-owner="{escape(owner)}"' if owner else ""
            out.append(f'<circle class="sc" data-province="{code}"{data} cx="{_f(x)}" cy="{_f(y)}" r="3.6" fill="{fill}"/>')
        return f'<g class="supply-centres" stroke="{INK}" stroke-width="1">' + "".join(out) + "</g>"

    # ---- units -------------------------------------------------------------------------
    def _unit_point(self, location: str) -> Point:
        return self.geo.unit.get(location) or self.geo.unit[province_of(location)]

    def _dislodged_point(self, province: str) -> Point:
        x, y = self._unit_point(self.pos.dislodged[province].unit.location)
        return x + DISLODGED_SHIFT[0], y + DISLODGED_SHIFT[1]

    def _units(self) -> str:
        out = []
        hit = {province_of(r.order.location) for r in self.results
               if r.dislodged and getattr(r.order, "location", None)} if not self.pos.dislodged else set()
        for prov, unit in self.pos.units.items():
            out.append(self._unit(unit.power, unit.type, unit.location, self._unit_point(unit.location),
                                  dislodged=prov in hit))
        for prov, d in self.pos.dislodged.items():
            u = d.unit
            out.append(self._unit(u.power, u.type, u.location, self._dislodged_point(prov), dislodged=True))
        return '<g class="units">' + "".join(out) + "</g>"

    def _unit(self, power: str, kind: str, location: str, at: Point, dislodged: bool = False,
              new: bool = False) -> str:
        """``<g class="unit army|fleet POWER [dislodged|new]">``; a dislodged unit in a
        dashed red ring, a unit about to be built faded."""
        cls = f"unit {'army' if kind == 'A' else 'fleet'} {_slug(power)}" + \
            (" dislodged" if dislodged else "") + (" new" if new else "")
        ring = (f'<circle r="{_f(UNIT_R + 3)}" fill="#ffffff" fill-opacity="0.6" stroke="{FAIL_RED}" '
                f'stroke-width="1.5" stroke-dasharray="3 2"/>' if dislodged else "")
        fade = ' opacity="0.55"' if new else ""
        return (f'<g class="{cls}"{fade} data-power="{escape(power)}" data-location="{location}" '
                f'transform="translate({_f(at[0])},{_f(at[1])})">{ring}{unit_shape(kind, self.geo.colours[power])}</g>')

    # ---- orders ----------------------------------------------------------------------
    def _orders(self) -> str:
        moves = {(province_of(r.order.location), province_of(r.order.destination))
                 for r in self.results if isinstance(r.order, (Move, Retreat))}
        out = []
        for r in self.results:
            if isinstance(r.order, Hold) and r.reason == NO_ORDER:
                continue   # the adjudicator's hold for a unit left without orders: nothing was ordered
            if isinstance(r.order, (Hold, Move, Support, Convoy, Retreat, Disband, Build)):
                out.append(self._order(r, moves))
        return '<g class="orders" fill="none" stroke-linecap="round" stroke-linejoin="round">' + "".join(out) + "</g>"

    def _order(self, r: Result, moves: set) -> str:
        """One order as ``<g class="order KIND OUTCOME">``; a failed one gets a red cross."""
        o = r.order
        outcome = r.outcome if r.outcome in (SUCCEEDS, FAILS, ILLEGAL, VOID) else "pending"
        failed = outcome in (FAILS, ILLEGAL, VOID)
        colour = GREY if outcome in (ILLEGAL, VOID) else self.geo.colours[r.power]
        if isinstance(o, (Move, Retreat)):
            kind = "move" if isinstance(o, Move) else "retreat"
            body, mark = arrow(self._move_points(o, moves), colour, 2.2, "6 4" if failed else None, head=True)
        elif isinstance(o, Support):
            kind = "support"
            body, mark = self._support(o, colour)
        elif isinstance(o, Convoy):
            kind = "convoy"
            f = self._from_point(o.location)
            s = self._unit_point(self._located(o.army_location))
            body = (arrow([s, f, self._unit_point(o.destination)], colour, 1.5, "0.1 3.5", head=False,
                          end_gap=UNIT_R)[0]
                    + _ring(f, UNIT_R + 4, colour, 1.8, "0.1 3.5"))
            mark = (f[0] + UNIT_R + 2, f[1] - UNIT_R - 2)
        elif isinstance(o, Hold):
            kind = "hold"
            c = self._from_point(o.location)
            body, mark = octagon(c, UNIT_R + 3.5, colour), (c[0] + UNIT_R, c[1] - UNIT_R)
        elif isinstance(o, Disband):
            kind = "disband"
            c = self._from_point(o.location)
            body, mark = cross(c, 7, GREY if failed else FAIL_RED, 2.4), (c[0] + UNIT_R + 4, c[1] - UNIT_R)
        else:   # Build
            kind = "build"
            c = self._unit_point(o.location)
            body = self._unit(r.power, o.unit_type or "A", o.location, c, new=True) + \
                _ring(c, UNIT_R + 4, colour, 1.6, "2 2")
            mark = (c[0] + UNIT_R + 2, c[1] - UNIT_R - 2)
        failed_mark = f'<g class="failed">{cross(mark, 4, FAIL_RED, 2.2, halo=True)}</g>' if failed else ""
        return (f'<g class="order {kind} {outcome}" data-power="{escape(r.power)}" '
                f'data-location="{getattr(o, "location", "")}">{body}{failed_mark}</g>')

    def _support(self, o: Support, colour: str):
        """Support to hold: a dashed line to a dashed ring round the unit; support to
        move: a dashed arrow to the middle of the supported move."""
        a = self._from_point(o.location)
        s = self._unit_point(self._located(o.supported_location))
        if o.destination is None:
            body, mark = arrow([a, toward(s, a, UNIT_R + 4)], colour, 1.5, "4 3", head=False)
            return body + _ring(s, UNIT_R + 4, colour, 1.5, "4 3"), mark
        t = self._unit_point(o.destination)
        mid = ((s[0] + t[0]) / 2, (s[1] + t[1]) / 2)
        return arrow([a, mid], colour, 1.5, "4 3", head=True, end_gap=1.5, head_size=6)

    def _located(self, location: str) -> str:
        """The location of the unit in ``location``'s province (keeps its coast)."""
        u = self.pos.units.get(province_of(location))
        return u.location if u else location

    def _from_point(self, location: str) -> Point:
        prov = province_of(location)
        if self.pos.phase.endswith("R") and prov in self.pos.dislodged:
            return self._dislodged_point(prov)
        return self._unit_point(self._located(location))

    def _move_points(self, o: Move | Retreat, moves: set) -> list[Point]:
        """The arrow's points: from the unit (a retreat: from the dislodged unit),
        through the convoying fleets, to the destination; a head-to-head pair side by side."""
        a = self._from_point(o.location)
        b = self._unit_point(o.destination)
        pts = [a] + [self._unit_point(s) for s in self._convoy_route(o)] + [b]
        src, dst = province_of(o.location), province_of(o.destination)
        if len(pts) == 2 and (dst, src) in moves:   # head to head: draw the two arrows side by side
            dx, dy = b[0] - a[0], b[1] - a[1]
            n = math.hypot(dx, dy) or 1
            ox, oy = -dy / n * 3.5, dx / n * 3.5
            pts = [(a[0] + ox, a[1] + oy), (b[0] + ox, b[1] + oy)]
        return pts

    def _convoy_route(self, o) -> list[str]:
        """Seas the army's move goes through: its ``route``, else the fleets ordered to
        convoy it, nearest first; none for a move to a neighbour."""
        if not isinstance(o, Move):
            return []
        if o.route:
            return list(o.route)
        src, dst = province_of(o.location), province_of(o.destination)
        if not o.via_convoy and self.map.can_move("A", src, dst):
            return []
        fleets = [r.order.location for r in self.results if isinstance(r.order, Convoy)
                  and province_of(r.order.army_location) == src and province_of(r.order.destination) == dst]
        route, here = [], self._unit_point(src)
        while fleets:
            nxt = min(fleets, key=lambda f: math.dist(here, self._unit_point(f)))
            fleets.remove(nxt)
            route.append(nxt)
            here = self._unit_point(nxt)
        return route

    # ---- title and legend ------------------------------------------------------------
    def _title(self) -> str:
        text = escape(self.words["title"])
        return (f'<g class="title"><rect x="6" y="6" width="{_f(_text_width(text, 15) + 16)}" '
                f'height="26" rx="4" fill="#ffffff" fill-opacity="0.85" stroke="{COAST_LINE}" stroke-width="0.8"/>'
                f'<text x="14" y="24" font-size="15" font-weight="bold" fill="{INK}">{text}</text></g>')

    def _power_names(self) -> dict[str, str]:
        out = {}
        for power in self.map.powers:
            entry = self.names.power_names.get(power, {})
            out[power] = entry.get("en", power) if self.lang == "en" else \
                self.own.get("powers", {}).get(power) or entry.get("zh_hans" if self.lang == "zh-hans" else "zh_hant", power)
        return out

    def _legend_grid(self, names: dict[str, str]) -> tuple[int, int]:
        """(columns, rows) of the powers' legend: as many columns as the longest entry
        (box, name, a two-digit count) allows, at most one per power."""
        widest = max((_text_width(f"{n} 00", 10) + 30 for n in names.values()), default=60)
        cols = max(1, min(len(names), int(self.geo.width // widest)))
        return cols, max(1, -(-len(names) // cols))

    def legend_height(self) -> float:
        return LEGEND_H + (self._legend_grid(self._power_names())[1] - 1) * LEGEND_ROW

    def _legend(self) -> str:
        geo = self.geo
        y0 = geo.height
        counts = self.pos.centre_counts()
        units: dict[str, int] = {}
        for u in self.pos.units.values():
            units[u.power] = units.get(u.power, 0) + 1
        out = [f'<g class="legend" font-size="10" fill="{INK}">',
               f'<rect x="0" y="{_f(y0)}" width="{_f(geo.width)}" height="{_f(self.legend_height())}" fill="#fbf9f3"/>',
               f'<line x1="0" y1="{_f(y0)}" x2="{_f(geo.width)}" y2="{_f(y0)}" stroke="{COAST_LINE}"/>']
        names = self._power_names()
        cols, rows = self._legend_grid(names)
        step = geo.width / cols
        for i, power in enumerate(self.map.powers):
            x = 8 + (i % cols) * step
            top = y0 + (i // cols) * LEGEND_ROW
            out.append(f'<g class="legend-power" data-power="{escape(power)}">'
                       f'<rect x="{_f(x)}" y="{_f(top + 7)}" width="14" height="11" fill="{geo.tints[power]}" '
                       f'stroke="{geo.colours[power]}" stroke-width="2"/>'
                       f'<text x="{_f(x + 19)}" y="{_f(top + 16)}">{escape(names[power])} '
                       f'<tspan font-weight="bold">{counts.get(power, 0)}</tspan></text>'
                       f'<title>{escape(self.words["count"].format(sc=counts.get(power, 0), units=units.get(power, 0)))}</title></g>')
        y = y0 + 33 + (rows - 1) * LEGEND_ROW
        key = []
        x = 10.0

        def put(svg: str, label: str, width: float) -> None:
            nonlocal x
            key.append(svg + f'<text x="{_f(x + width + 4)}" y="{_f(y + 3.5)}" fill="{INK}" stroke="none">{escape(label)}</text>')
            x += width + 14 + _text_width(label, 10)

        put(f'<g transform="translate({_f(x + 7)},{_f(y)}) scale(0.85)">{unit_shape("A", GREY)}</g>', self.words["army"], 14)
        put(f'<g transform="translate({_f(x + 8)},{_f(y)}) scale(0.85)">{unit_shape("F", GREY)}</g>', self.words["fleet"], 16)
        put(f'<circle cx="{_f(x + 7)}" cy="{_f(y)}" r="7" fill="none" stroke="{FAIL_RED}" stroke-width="1.5" '
            f'stroke-dasharray="3 2"/>', self.words["dislodged"], 14)
        put(f'<circle cx="{_f(x + 4)}" cy="{_f(y)}" r="3.6" fill="#ffffff" stroke="{INK}"/>', self.words["sc"], 8)
        put(arrow([(x, y), (x + 30, y)], INK, 2.2, None, head=True, start_gap=0, end_gap=0)[0], self.words["move"], 30)
        put(arrow([(x, y), (x + 30, y)], INK, 1.5, "4 3", head=True, start_gap=0, end_gap=0, head_size=6)[0],
            self.words["support"], 30)
        put(arrow([(x, y), (x + 30, y)], INK, 1.5, "0.1 3.5", head=False, start_gap=0, end_gap=0)[0],
            self.words["convoy"], 30)
        put(arrow([(x, y), (x + 30, y)], INK, 2.2, "6 4", head=True, start_gap=0, end_gap=0)[0]
            + cross((x + 15, y), 4, FAIL_RED, 2.2, halo=True), self.words["failed"], 30)
        put(octagon((x + 8, y), 7.5, INK), self.words["hold"], 16)
        put(f'<g opacity="0.55" transform="translate({_f(x + 8)},{_f(y)}) scale(0.85)">{unit_shape("A", GREY)}</g>'
            + _ring((x + 8, y), 8.5, INK, 1.4, "2 2"), self.words["build"], 16)
        out.append('<g class="legend-key" fill="none" stroke-linecap="round">'
                   + "".join(key) + "</g>")
        out.append("</g>")
        return "".join(out)
