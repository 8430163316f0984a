"""The map picture (``judge.render``): an SVG of one phase drawn from the map's own
geometry (``maps/standard/geometry.json``, format in ``maps/README.md``).

Checks what a player relies on: every unit, SC and order is drawn, in the right
power's colour, failed orders are marked, labels follow the language, and the
drawn borders agree with the map's adjacency. A faulty geometry file is
rejected with a :class:`MapError` naming the file, the key and the reason.
"""

from __future__ import annotations

import copy
import json
import math
import re
import xml.etree.ElementTree as ET

import pytest

from judge.maps import MAPS_DIR
from judge.notation.names import NameIndex, name_index
from judge.render import load_geometry, render_svg
from judge.text.reports import map_words
from judge.render.geometry import build_geometry
from judge.rules import adjudicate_adjustments, adjudicate_movement, adjudicate_retreats
from judge.rules.map import Map, MapError, province_of
from judge.rules.orders import FAILS, ILLEGAL, SUCCEEDS, Build, Convoy, Hold, Move, Retreat, Support
from judge.rules.position import Position, Unit

NS = {"svg": "http://www.w3.org/2000/svg"}
GEOMETRY = MAPS_DIR / "standard" / "geometry.json"


@pytest.fixture(scope="module")
def names(std_map, std_names):
    return name_index(std_map, std_names)


@pytest.fixture(scope="module")
def geo(std_map):
    return load_geometry(std_map)


@pytest.fixture()
def raw():
    return json.loads(GEOMETRY.read_text(encoding="utf-8"))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find(root: ET.Element, cls: str, tag: str = "*") -> list[ET.Element]:
    return [e for e in root.iter(f"{{{NS['svg']}}}{tag}" if tag != "*" else tag) if cls in classes(e)]


def translate(el: ET.Element) -> tuple[float, float]:
    x, y = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", el.get("transform")).groups()
    return float(x), float(y)


# ---- the start position ---------------------------------------------------------------


def test_start_position_is_valid_xml_with_title_and_size(std_map, names):
    root = parse(render_svg(std_map, names, Position.start(std_map), words=map_words("S1901M", "en")))
    assert root.tag == f"{{{NS['svg']}}}svg"
    assert root.get("width") == "800" and root.get("data-phase") == "S1901M"
    assert root.find("svg:title", NS).text == "Spring 1901 Movement"
    title = find(root, "title", "g")[0]
    assert "".join(title.itertext()) == "Spring 1901 Movement"
    bare = parse(render_svg(std_map, names, Position.start(std_map)))      # no words given: the phase code
    assert bare.find("svg:title", NS).text == "S1901M"
    half = parse(render_svg(std_map, names, Position.start(std_map), width=400))
    assert half.get("width") == "400" and half.get("viewBox") == root.get("viewBox")


def test_one_unit_shape_per_unit_in_its_power_colour(std_map, names, geo):
    pos = Position.start(std_map)
    root = parse(render_svg(std_map, names, pos))
    drawn = find(root, "unit", "g")
    assert len(drawn) == len(pos.units) == 22
    by_loc = {g.get("data-location"): g for g in drawn}
    for unit in pos.units.values():
        g = by_loc[unit.location]
        assert {"army" if unit.type == "A" else "fleet", unit.power.lower()} <= classes(g)
        assert g.get("data-power") == unit.power
        shape = g.find("svg:circle" if unit.type == "A" else "svg:path", NS)
        assert shape.get("fill") == geo.colours[unit.power]
        assert translate(g) == pytest.approx(geo.unit[unit.location], abs=0.06)


def test_fleet_on_a_split_coast_stands_at_the_coast(std_map, names, geo):
    root = parse(render_svg(std_map, names, Position.start(std_map)))
    fleet = next(g for g in find(root, "unit", "g") if g.get("data-location") == "stp/sc")
    assert translate(fleet) == pytest.approx(geo.unit["stp/sc"], abs=0.06)
    assert math.dist(geo.unit["stp/sc"], geo.unit["stp"]) > 20   # not the province's army point


def test_every_supply_centre_marked_in_its_owners_colour(std_map, names, geo):
    pos = Position.start(std_map)
    root = parse(render_svg(std_map, names, pos))
    marks = {c.get("data-province"): c for c in find(root, "sc", "circle")}
    assert set(marks) == set(std_map.supply_centres) and len(marks) == 34
    for sc, c in marks.items():
        owner = pos.sc_owners.get(sc)
        assert c.get("data-owner") == owner
        assert c.get("fill") == (geo.colours[owner] if owner else "#ffffff")


def test_owned_land_filled_with_owner_tint_and_switzerland_marked(std_map, names, geo):
    root = parse(render_svg(std_map, names, Position.start(std_map)))
    provinces = {p.get("data-province"): p for p in find(root, "province", "path")}
    assert set(provinces) == set(std_map.provinces)
    assert provinces["par"].get("fill") == geo.tints["France"] and "france" in classes(provinces["par"])
    assert "impassable" in classes(provinces["swi"]) and provinces["swi"].get("fill").startswith("url(#")
    assert "sea" in classes(provinces["nth"])


def test_legend_lists_every_power_with_its_colour_and_sc_count(std_map, names, geo):
    root = parse(render_svg(std_map, names, Position.start(std_map)))
    entries = {g.get("data-power"): g for g in find(root, "legend-power", "g")}
    assert list(entries) == list(std_map.powers)
    russia = entries["Russia"]
    assert russia.find("svg:rect", NS).get("stroke") == geo.colours["Russia"]
    assert "".join(russia.find("svg:text", NS).itertext()).split() == ["Russia", "4"]


# ---- orders and results -----------------------------------------------------------------

SPRING_ORDERS = {
    "France": [Move("A", "par", "bur"), Support("A", "mar", "A", "par", "bur"), Move("F", "bre", "mao")],
    "Germany": [Move("A", "mun", "bur"), Move("F", "kie", "den"), Hold("A", "ber")],
    "Italy": [Move("A", "ven", "tri"), Move("A", "rom", "ven"), Move("F", "nap", "ion")],
    "Austria": [Hold("F", "tri"), Support("A", "vie", "F", "tri"), Move("A", "bud", "lon")],
    "Russia": [Move("F", "stp/sc", "bot"), Move("A", "war", "gal")],
}


def orders_of(root: ET.Element, kind: str) -> list[ET.Element]:
    return [g for g in find(root, "order", "g") if kind in classes(g)]


def test_an_arrow_per_move_failed_ones_crossed(std_map, names):
    pos = Position.start(std_map)
    results = adjudicate_movement(std_map, pos, SPRING_ORDERS).results
    root = parse(render_svg(std_map, names, pos, results))
    moves = [r for r in results if isinstance(r.order, Move)]
    arrows = {g.get("data-location"): g for g in orders_of(root, "move")}
    assert len(orders_of(root, "move")) == len(moves) == 10
    outcomes = {r.order.location: r.outcome for r in moves}
    assert outcomes["par"] == SUCCEEDS and outcomes["mun"] == FAILS and outcomes["bud"] == ILLEGAL
    for loc, outcome in outcomes.items():
        g = arrows[loc]
        assert outcome in classes(g)
        assert g.find("svg:polygon", NS) is not None          # the arrow head
        crossed = g.find("svg:g[@class='failed']", NS) is not None
        assert crossed == (outcome != SUCCEEDS), loc
    assert any(p.get("stroke-dasharray") for p in arrows["mun"].iter(f"{{{NS['svg']}}}path"))
    assert not any(p.get("stroke-dasharray") for p in arrows["par"].iter(f"{{{NS['svg']}}}path"))


def test_supports_and_holds_drawn(std_map, names):
    pos = Position.start(std_map)
    results = adjudicate_movement(std_map, pos, SPRING_ORDERS).results
    root = parse(render_svg(std_map, names, pos, results))
    supports = {g.get("data-location"): g for g in orders_of(root, "support")}
    assert set(supports) == {"mar", "vie"}
    assert supports["vie"].find("svg:circle", NS) is not None        # support to hold: ring round the unit
    assert supports["mar"].find("svg:polygon", NS) is not None       # support to move: arrow to the move
    # ordered holds only: units left without orders (England, Turkey) get no mark
    assert sorted(g.get("data-location") for g in orders_of(root, "hold")) == ["ber", "tri"]


def test_convoyed_army_goes_through_the_fleet(std_map, names, geo):
    pos = Position("S1901M", {"nth": Unit("England", "F", "nth"), "yor": Unit("England", "A", "yor")},
                   dict(Position.start(std_map).sc_owners))
    orders = {"England": [Move("A", "yor", "nwy", via_convoy=True), Convoy("F", "nth", "yor", "nwy")]}
    results = adjudicate_movement(std_map, pos, orders).results
    assert all(r.outcome == SUCCEEDS for r in results)
    root = parse(render_svg(std_map, names, pos, results))
    convoy, = orders_of(root, "convoy")
    assert convoy.get("data-location") == "nth"
    dotted = [p for p in convoy.iter(f"{{{NS['svg']}}}path") if p.get("stroke-dasharray")]
    assert dotted
    move, = orders_of(root, "move")
    d = [p.get("d") for p in move.iter(f"{{{NS['svg']}}}path")][0]
    vertices = [tuple(map(float, xy.split(","))) for xy in re.findall(r"[-\d.]+,[-\d.]+", d)]
    assert len(vertices) == 3 and vertices[1] == pytest.approx(geo.unit["nth"], abs=0.06)


def test_dislodged_unit_offset_marked_and_its_retreat_drawn(std_map, names, geo):
    owners = dict(Position.start(std_map).sc_owners)
    pos = Position("S1901M", {"mun": Unit("Germany", "A", "mun"), "bur": Unit("France", "A", "bur"),
                              "ruh": Unit("France", "A", "ruh")}, owners)
    orders = {"France": [Move("A", "bur", "mun"), Support("A", "ruh", "A", "bur", "mun")],
              "Germany": [Hold("A", "mun")]}
    out = adjudicate_movement(std_map, pos, orders)
    assert "mun" in out.position.dislodged
    retreat = out.position
    root = parse(render_svg(std_map, names, retreat))
    units = find(root, "unit", "g")
    assert len(units) == len(retreat.units) + len(retreat.dislodged) == 3
    dislodged, = [g for g in units if "dislodged" in classes(g)]
    assert {"army", "germany"} <= classes(dislodged) and dislodged.get("data-location") == "mun"
    winner, = [g for g in units if g.get("data-location") == "mun" and "dislodged" not in classes(g)]
    assert math.dist(translate(dislodged), translate(winner)) > 8
    assert dislodged.find("svg:circle[@stroke-dasharray]", NS) is not None   # marked

    results = adjudicate_retreats(std_map, retreat, {"Germany": [Retreat("A", "mun", "boh")]}).results
    root = parse(render_svg(std_map, names, retreat, results))
    arrow, = orders_of(root, "retreat")
    assert "succeeds" in classes(arrow) and arrow.get("data-power") == "Germany"


def test_builds_drawn_as_new_units(std_map, names):
    start = Position.start(std_map)
    units = {p: u for p, u in start.units.items() if p != "par"}
    owners = dict(start.sc_owners, spa="France")
    pos = Position("W1901A", units, owners)
    results = adjudicate_adjustments(std_map, pos, {"France": [Build("A", "par"), Build("F", "bre")]}).results
    root = parse(render_svg(std_map, names, pos, results))
    builds = {g.get("data-location"): g for g in orders_of(root, "build")}
    assert "succeeds" in classes(builds["par"]) and "failed" not in {c for g in builds["par"] for c in classes(g)}
    ghost, = find(builds["par"], "new", "g")
    assert {"unit", "army", "france"} <= classes(ghost)
    assert "succeeds" not in classes(builds["bre"])            # bre is occupied: not built
    assert builds["bre"].find("svg:g[@class='failed']", NS) is not None


# ---- languages ----------------------------------------------------------------------------


def label(root: ET.Element, code: str) -> str:
    return next(t.text for t in find(root, "label", "text") if t.get("data-province") == code)


def test_labels_in_english_and_chinese(std_map, names):
    pos = Position.start(std_map)
    en = parse(render_svg(std_map, names, pos))
    assert label(en, "par") == "Par" and label(en, "stp") == "StP"
    hans = parse(render_svg(std_map, names, pos, lang="zh-hans", words=map_words(pos.phase, "zh-hans")))
    assert label(hans, "par") == "巴黎" and label(hans, "stp") == "圣彼得堡"
    assert hans.find("svg:title", NS).text == "1901年春季移动回合"
    assert "Noto Sans CJK SC" in hans.get("font-family")
    legend = {g.get("data-power"): "".join(g.find("svg:text", NS).itertext()) for g in find(hans, "legend-power", "g")}
    assert legend["England"].startswith("英国")
    hant = parse(render_svg(std_map, names, pos, lang="zh-hant", words=map_words(pos.phase, "zh-hant")))
    assert label(hant, "stp") == "聖彼得堡"
    assert hant.find("svg:title", NS).text == "1901年春季移動回合"


# ---- the drawing agrees with the map ----------------------------------------------------------


def test_every_location_has_a_point_on_the_right_side_of_the_coast(std_map, geo):
    for code, prov in std_map.provinces.items():
        assert geo.on_land(geo.label[code]) == (prov.kind != "sea"), code
        assert geo.regions[code], code
    for loc in std_map.locations:
        x, y = geo.unit[loc]
        assert 0 <= x <= geo.width and 0 <= y <= geo.height, loc


def _region_at(geo, std_map, p, sea: bool):
    for code, (box, rings) in _boxed(geo).items():
        if (std_map.provinces[code].kind == "sea") != sea:
            continue
        if box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3] and \
                sum(_inside(p, r) for r in rings) % 2:
            return code
    return None


_BOXES: dict = {}


def _boxed(geo):
    if id(geo) not in _BOXES:
        _BOXES[id(geo)] = {
            c: ((min(x for r in rs for x, _ in r), min(y for r in rs for _, y in r),
                 max(x for r in rs for x, _ in r), max(y for r in rs for _, y in r)), rs)
            for c, rs in geo.regions.items()}
    return _BOXES[id(geo)]


def _inside(p, poly) -> bool:
    x, y = p
    inside = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[i - 1]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _samples(a, b, step=4.0):
    n = max(1, int(math.dist(a, b) / step))
    return [(a[0] + (b[0] - a[0]) * (k + 0.5) / n, a[1] + (b[1] - a[1]) * (k + 0.5) / n) for k in range(n)]


def test_drawn_borders_are_the_maps_adjacencies(std_map, geo):
    """Two provinces share a drawn border (land across land, sea across sea, or a
    land province's coast on a sea) exactly when the map makes them neighbours;
    Switzerland, impassable, borders no one in the rules."""
    in_view = lambda p: 0 <= p[0] <= geo.width and 0 <= p[1] <= geo.height   # noqa: E731
    drawn = set()
    for code, rings in geo.regions.items():
        sea = std_map.provinces[code].kind == "sea"
        for ring in rings:
            for a, b in zip(ring, ring[1:] + ring[:1]):
                dx, dy = b[0] - a[0], b[1] - a[1]
                n = math.hypot(dx, dy)
                for p in _samples(a, b):
                    for side in (1, -1):   # a point just across the edge
                        q = (p[0] - dy / n * 0.8 * side, p[1] + dx / n * 0.8 * side)
                        if in_view(p) and geo.on_land(p) != sea and geo.on_land(q) != sea:
                            other = _region_at(geo, std_map, q, sea)
                            if other and other != code:
                                drawn.add(frozenset((code, other)))
    for poly in geo.land + geo.water:
        for a, b in zip(poly, poly[1:] + poly[:1]):
            for p in _samples(a, b):
                if in_view(p):
                    land, sea = _region_at(geo, std_map, p, False), _region_at(geo, std_map, p, True)
                    if land and sea:
                        drawn.add(frozenset((land, sea)))
    drawn = {pair for pair in drawn if "swi" not in pair}
    rules = {frozenset((a, b)) for a, ns in std_map.army_adj.items() for b in ns}
    rules |= {frozenset((province_of(a), b)) for a, ns in std_map.fleet_prov_adj.items() for b in ns}
    assert sorted(map(sorted, rules - drawn)) == []      # neighbours the picture keeps apart
    assert sorted(map(sorted, drawn - rules)) == []      # borders the rules do not have


# ---- the geometry file is checked ------------------------------------------------------------


@pytest.mark.parametrize("damage, key, reason", [
    (lambda g: g["provinces"].pop("par"), "provinces.par", "missing"),
    (lambda g: g["provinces"]["spa"]["coasts"].pop("nc"), "provinces.spa.coasts", "each coast"),
    (lambda g: g["provinces"]["bur"].pop("unit"), "provinces.bur.unit", "point"),
    (lambda g: g["provinces"]["bur"].update(unit=[1, "x"]), "provinces.bur.unit", "point"),
    (lambda g: g["provinces"]["par"].update(unit=[-20.0, 45.0]), "provinces.par.unit", "at sea"),
    (lambda g: g["provinces"]["nth"].update(label=[2.35, 48.85]), "provinces.nth.label", "on land"),
    (lambda g: g["provinces"].update(xyz={"label": [0, 50]}), "provinces.xyz", "not a province"),
    (lambda g: g["provinces"]["par"].update(labl=[0, 50]), "provinces.par.labl", "unknown key"),
    (lambda g: g["provinces"]["bur"].update(sc=[4.9, 47.3]), "provinces.bur.sc", "not a supply centre"),
    (lambda g: g["provinces"]["swi"].update(unit=[8, 46.8]), "provinces.swi.unit", "impassable"),
    (lambda g: g["provinces"]["bur"].update(seeds=[g["provinces"]["par"]["unit"]]), "provinces.", "same place"),
    (lambda g: g["powers"].pop("Turkey"), "powers.Turkey", "colour"),
    (lambda g: g["powers"]["Italy"].update(tint="green"), "powers.Italy.tint", "colour"),
    (lambda g: g["land"][0].update(points=[[0, 0], [1, 1]]), "land[0].points", "three points"),
    (lambda g: g["projection"].update(type="mercator"), "projection.type", "lonlat"),
    (lambda g: g["projection"]["lenses"][0].update(magnify=5), "projection.lenses[0]", "magnify"),
    (lambda g: g.update(map="other"), "map", "standard"),
])
def test_faulty_geometry_rejected(std_map, raw, damage, key, reason):
    damage(raw)
    with pytest.raises(MapError) as e:
        build_geometry(std_map, raw, "geometry.json")
    assert e.value.source == "geometry.json"
    assert e.value.key.startswith(key) and reason in e.value.reason, str(e.value)


def test_geometry_file_errors_name_the_file(std_map, tmp_path):
    bad = tmp_path / "geometry.json"
    bad.write_text('{"map": "standard", ', encoding="utf-8")
    with pytest.raises(MapError) as e:
        load_geometry(std_map, bad)
    assert e.value.source == str(bad) and "line 1" in e.value.key
    with pytest.raises(MapError) as e:
        load_geometry(std_map, tmp_path / "absent.json")
    assert "no geometry file" in e.value.reason


def test_standard_geometry_is_unchanged_by_a_good_copy(std_map, raw):
    geo = build_geometry(std_map, copy.deepcopy(raw))
    assert geo.width == 800 and 700 < geo.height < 900
    assert set(geo.regions) == set(std_map.provinces)


# ---- a second map needs only data ---------------------------------------------------------------

TINY_MAP = {
    "name": "tiny",
    "powers": {"Red": {"home_centres": ["hom"]}, "Blue": {"home_centres": ["far"]}},
    "provinces": {"hom": {"type": "coastal", "sc": True}, "mid": {"type": "coastal", "sc": False},
                  "far": {"type": "coastal", "sc": True}, "bay": {"type": "sea"}},
    "army_adjacency": {"hom": ["mid"], "mid": ["hom", "far"], "far": ["mid"]},
    "fleet_adjacency": {"bay": ["hom", "mid", "far"], "hom": ["bay", "mid"], "mid": ["bay", "hom", "far"],
                        "far": ["bay", "mid"]},
    "start": {"units": {"Red": ["A hom"], "Blue": ["F far"]}, "sc_owners": {"Red": ["hom"], "Blue": ["far"]}},
}
TINY_NAMES = {"provinces": {c: {"en": c.title(), "zh_hans": c, "zh_hant": c} for c in TINY_MAP["provinces"]},
              "powers": {"Red": {"en": "Red"}, "Blue": {"en": "Blue"}}}
TINY_GEOMETRY = {
    "map": "tiny",
    "projection": {"type": "plane", "size": [300, 200]},
    "powers": {"Red": {"colour": "#cc0000", "tint": "#ffcccc"}, "Blue": {"colour": "#0000cc", "tint": "#ccccff"}},
    "land": [{"name": "land", "points": [[0, 0], [300, 0], [300, 120], [0, 120]]}],
    "provinces": {"hom": {"label": [50, 60], "unit": [50, 90]},
                  "mid": {"label": [150, 60], "unit": [150, 90]},
                  "far": {"label": [250, 60], "unit": [250, 90]},
                  "bay": {"label": [150, 160], "unit": [150, 180], "seeds": [[20, 170], [280, 170]]}},
}


def test_a_second_map_needs_only_its_files():
    tiny = Map.from_dict(TINY_MAP, "tiny/map.json")
    geo = build_geometry(tiny, TINY_GEOMETRY, "tiny/geometry.json")
    assert geo.width == 800 and geo.height == pytest.approx(800 * 200 / 300)
    names = NameIndex(tiny, TINY_NAMES)
    pos = Position.start(tiny)
    results = adjudicate_movement(tiny, pos, {"Red": [Move("A", "hom", "mid")], "Blue": [Move("F", "far", "mid")]}).results
    root = parse(render_svg(tiny, names, pos, results, geometry=geo))
    assert {g.get("data-location") for g in find(root, "unit", "g")} == {"hom", "far"}
    assert all("fails" in classes(g) for g in orders_of(root, "move"))     # a standoff in mid
    assert {c.get("data-province") for c in find(root, "sc", "circle")} == {"hom", "far"}
