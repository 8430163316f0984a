"""Every shipped variant has a picture (``judge.render``; issue 24).

Variants on the standard board (``"picture": "standard"`` in ``map.json``) are
drawn with ``maps/standard/geometry.json`` and their own powers; maps of their
own (Ancient Mediterranean, Hundred, Modern, Youngstown) with the geometry
converted from DPjudge's picture files (``judge/mapimport/geometry.py``). For
each: the start position is drawn with every province placed (a region, a
label, a unit point), every unit in its power's colour, every SC marked and
every power in the legend, in English and Chinese.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from judge.maps import list_maps, load_map, load_names, map_about
from judge.notation.names import NameIndex
from judge.render import load_geometry, render_svg
from judge.rules.map import NEUTRAL
from judge.rules.position import Position, Unit

NS = "{http://www.w3.org/2000/svg}"
MAPS = list_maps()


def _of(root: ET.Element, cls: str, tag: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + tag) if cls in e.get("class", "").split()]


def test_every_shipped_variant_is_listed():
    assert {"standard", "fva", "evt", "gvi", "fga", "buildanywhere", "chaos", "ancmed", "hundred",
            "youngstown", "modern", "1898", "fleetrome"} <= set(MAPS)


@pytest.mark.parametrize("name", MAPS)
def test_variant_picture_places_every_province_unit_and_power(name):
    game_map = load_map(name)
    names = NameIndex(game_map, load_names(name), f"maps/{name}/names.json")
    geo = load_geometry(game_map)
    if map_about(name).get("picture") not in (None, name):
        assert geo.source.endswith(f"{map_about(name)['picture']}/geometry.json")
    pos = Position.start(game_map)
    for lang in ("en", "zh-hans"):
        root = ET.fromstring(render_svg(game_map, names, pos, lang=lang))
        regions = {e.get("data-province"): e.get("d") for e in _of(root, "province", "path")}
        assert set(regions) == set(game_map.provinces)
        assert not [c for c, d in regions.items() if not d]                 # each province has a region
        labels = {e.get("data-province"): "".join(e.itertext()) for e in _of(root, "label", "text")}
        assert set(labels) == set(game_map.provinces) and all(labels.values())
        units = {e.get("data-location"): e for e in _of(root, "unit", "g")}
        assert set(units) == {u.location for u in pos.units.values()}
        for u in pos.units.values():
            assert units[u.location].get("data-power") == u.power
        scs = {e.get("data-province") for e in _of(root, "sc", "circle")}
        assert scs == set(game_map.supply_centres)
        legend = {e.get("data-power") for e in _of(root, "legend-power", "g")}
        assert legend == set(game_map.powers)
    for code, prov in game_map.provinces.items():       # every place a unit stands is on its side of the coast
        locations = [f"{code}/{c}" for c in prov.coasts] or ([code] if prov.kind != "impassable" else [])
        for loc in locations:
            assert geo.on_land(geo.unit[loc]) == (prov.kind != "sea" and not prov.coasts), loc


def test_standard_board_variant_draws_neutral_units_grey():
    game_map = load_map("fva")
    names = NameIndex(game_map, load_names("fva"), "maps/fva/names.json")
    start = Position.start(game_map)
    units = dict(start.units)
    units["bel"] = Unit(NEUTRAL, "A", "bel")
    root = ET.fromstring(render_svg(game_map, names, Position(start.phase, units, start.sc_owners)))
    neutral = [e for e in _of(root, "unit", "g") if e.get("data-location") == "bel"]
    assert neutral and neutral[0].get("data-power") == NEUTRAL
    assert "#7d7d7d" in ET.tostring(neutral[0], encoding="unicode")


def test_chaos_legend_rows_hold_all_34_powers():
    game_map = load_map("chaos")
    names = NameIndex(game_map, load_names("chaos"), "maps/chaos/names.json")
    geo = load_geometry(game_map)
    root = ET.fromstring(render_svg(game_map, names, Position.start(game_map)))
    boxes = [e.find(NS + "rect") for e in _of(root, "legend-power", "g")]
    assert len(boxes) == 34
    places = {(b.get("x"), b.get("y")) for b in boxes}
    assert len(places) == 34                                          # no two powers on one spot
    assert all(float(b.get("y")) > geo.height for b in boxes)
    assert max(float(b.get("y")) for b in boxes) < float(root.get("viewBox").split()[3])
    assert len({geo.tints[p] for p in game_map.powers}) == 34         # a colour of its own each
