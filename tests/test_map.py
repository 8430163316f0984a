"""The standard map (``maps/standard``) and the map loader's checks.

Facts: ``RULES.md`` §1 and ``shared/reference/standard_map_facts.json``. A broken
map file is rejected with a :class:`MapError` naming the file, the key and the reason.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from judge.maps import MAPS_DIR, load_map, load_names
from judge.notation.names import NameIndex
from judge.rules.map import MapError
from judge.rules.position import Position

# ---- the standard map ---------------------------------------------------------------


def test_provinces_and_types(std_map):
    kinds = Counter(p.kind for p in std_map.provinces.values())
    assert kinds == {"sea": 19, "coastal": 42, "inland": 14, "impassable": 1}
    assert sum(n for k, n in kinds.items() if k != "impassable") == 75
    assert std_map.provinces["swi"].kind == "impassable"
    assert "swi" not in std_map.army_adj and "swi" not in std_map.fleet_adj
    assert not any("swi" in ns for ns in std_map.army_adj.values())


def test_supply_and_home_centres(std_map):
    assert len(std_map.supply_centres) == 34
    assert std_map.victory_centres == 18
    assert sum(len(h) for h in std_map.home_centres.values()) == 22
    assert {p: len(h) for p, h in std_map.home_centres.items()} == {
        "Austria": 3, "England": 3, "France": 3, "Germany": 3, "Italy": 3, "Russia": 4, "Turkey": 3}
    assert std_map.home_centres["Russia"] == {"mos", "sev", "stp", "war"}
    assert all(h <= std_map.supply_centres for h in std_map.home_centres.values())


def test_split_coasts(std_map):
    split = {code: p.coasts for code, p in std_map.provinces.items() if p.coasts}
    assert split == {"spa": ("nc", "sc"), "stp": ("nc", "sc"), "bul": ("ec", "sc")}
    assert std_map.coasts_of("spa") == ("spa/nc", "spa/sc")
    assert std_map.coasts_of("mun") == ()
    assert std_map.can_move("F", "mao", "spa/nc") and std_map.can_move("F", "mao", "spa/sc")
    assert std_map.can_move("F", "lyo", "spa/sc") and not std_map.can_move("F", "lyo", "spa/nc")
    assert std_map.can_move("F", "bar", "stp/nc") and not std_map.can_move("F", "bar", "stp/sc")
    assert std_map.can_move("F", "bla", "bul/ec") and std_map.can_move("F", "aeg", "bul/sc")
    assert not std_map.can_move("F", "aeg", "bul/ec")
    assert "spa" not in std_map.fleet_adj        # a fleet there stands on a coast


def test_canals_and_denmark_sweden(std_map):
    assert std_map.fleet_adj["kie"] >= {"bal", "hel", "hol", "den", "ber"}
    assert std_map.fleet_adj["con"] >= {"bla", "aeg", "bul/ec", "bul/sc", "ank", "smy"}
    assert std_map.can_move("A", "den", "swe") and std_map.can_move("F", "den", "swe")


@pytest.mark.parametrize("a,b,adjacent", [
    ("bal", "kie", True), ("eas", "ion", True), ("stp", "nwy", True), ("syr", "mos", False),
    ("spa", "naf", False), ("edi", "nao", False), ("lvp", "nao", True), ("ska", "bal", False),
])
def test_rules_md_adjacency_clarifications(std_map, a, b, adjacent):
    """RULES.md §1: adjacent for some unit type, or for none."""
    def any_unit(x, y):
        return std_map.can_reach_province("A", x, y) or any(
            std_map.can_reach_province("F", loc, y) for loc in std_map.coasts_of(x))
    assert any_unit(a, b) is adjacent
    assert any_unit(b, a) is adjacent


def test_edge_counts(std_map):
    army = {frozenset((a, b)) for a, ns in std_map.army_adj.items() for b in ns}
    fleet = {frozenset((a, b)) for a, ns in std_map.fleet_adj.items() for b in ns}
    assert (len(army), len(fleet), len(std_map.fleet_adj)) == (111, 141, 64)


def test_start_position(std_map):
    pos = Position.start(std_map)
    assert pos.phase == "S1901M" and not pos.dislodged
    assert len(pos.units) == 22
    assert sorted(str(u) for u in pos.units_of("Russia")) == ["A mos", "A war", "F sev", "F stp/sc"]
    assert {str(u) for u in pos.units_of("England")} == {"F edi", "F lon", "A lvp"}
    assert pos.sc_owners == {h: p for p, hs in std_map.home_centres.items() for h in hs}
    for prov, u in pos.units.items():
        assert prov in std_map.home_centres[u.power]


def test_matches_reference_facts(std_map, shared_dir):
    path = shared_dir / "reference" / "standard_map_facts.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    facts = json.loads(path.read_text(encoding="utf-8"))
    kind = {"land": "inland", "coast": "coastal", "sea": "sea"}
    assert {c: kind[p["type"]] for c, p in facts["provinces"].items()} == \
        {c: p.kind for c, p in std_map.provinces.items() if p.kind != "impassable"}
    assert set(facts["impassable"]) == {c for c, p in std_map.provinces.items() if p.kind == "impassable"}
    assert {c for c, p in facts["provinces"].items() if p["sc"]} == std_map.supply_centres

    def sym(adj):
        return {frozenset((a, b)) for a, ns in adj.items() for b in ns}
    assert sym(facts["army_adjacency"]) == sym(std_map.army_adj)
    assert sym(facts["fleet_adjacency"]) == sym(std_map.fleet_adj)
    assert {p["name_en"]: set(p["home_centres"]) for p in facts["powers"].values()} == std_map.home_centres
    units = {(u["power"].title(), u["type"], u["loc"]) for u in facts["starting_units"]}
    assert units == {(p, t, loc) for p, ul in std_map.start.units.items() for t, loc in ul}


def test_names_load(std_map, std_names):
    idx = NameIndex(std_map, std_names)
    assert idx.location("spain(nc)") == "spa/nc"
    assert idx.province("North Atlantic Ocean") == "nao"
    assert idx.power("germany") == "Germany"


# ---- malformed maps -----------------------------------------------------------------


@pytest.fixture
def broken(tmp_path):
    """Returns ``edit(fn, file="map.json") -> path``: a copy of the standard map in
    ``tmp_path`` with ``fn(data)`` applied to the parsed file."""
    folder = tmp_path / "broken"
    shutil.copytree(MAPS_DIR / "standard", folder)

    def edit(fn, file="map.json"):
        path = folder / file
        data = json.loads(path.read_text(encoding="utf-8"))
        fn(data)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return path
    return edit


def load_error(path: Path) -> MapError:
    with pytest.raises(MapError) as info:
        load_map(str(path.parent))
    err = info.value
    assert err.source == str(path)
    assert str(err) == f"{path}: {err.key}: {err.reason}"
    return err


def test_asymmetric_adjacency(broken):
    path = broken(lambda d: d["army_adjacency"]["par"].remove("bur"))
    err = load_error(path)
    assert err.key == "army_adjacency.par"
    assert "'bur'" in err.reason and "symmetric" in err.reason


def test_coast_not_of_its_province(broken):
    def fn(d):
        d["fleet_adjacency"]["mao"] = [x.replace("spa/nc", "spa/ec") for x in d["fleet_adjacency"]["mao"]]
    err = load_error(broken(fn))
    assert err.key == "fleet_adjacency.mao"
    assert "spa has no coast 'ec'" in err.reason and "nc, sc" in err.reason


def test_coast_list_of_non_coastal_province(broken):
    err = load_error(broken(lambda d: d["provinces"]["mun"].update(coasts=["nc", "sc"])))
    assert err.key == "provinces.mun.coasts"
    assert "coastal" in err.reason


@pytest.mark.parametrize("coasts", [["nc", "nc"], "nc sc", ["NC", "SC"], [{"nc": 1}, "sc"]])
def test_malformed_coast_list(broken, coasts):
    err = load_error(broken(lambda d: d["provinces"]["spa"].update(coasts=coasts)))
    assert err.key == "provinces.spa.coasts"
    assert "distinct lower-case coast codes" in err.reason


def test_unknown_province_in_adjacency(broken):
    err = load_error(broken(lambda d: d["army_adjacency"]["par"].append("xyz")))
    assert err.key == "army_adjacency.par"
    assert err.reason == "unknown province 'xyz'"


def test_army_adjacency_to_a_sea(broken):
    err = load_error(broken(lambda d: d["army_adjacency"]["bre"].append("mao")))
    assert err.key == "army_adjacency.bre"
    assert "'mao' is not a location an army can stand on" in err.reason


def test_home_centre_not_a_supply_centre(broken):
    err = load_error(broken(lambda d: d["powers"]["France"]["home_centres"].append("bur")))
    assert err.key == "powers.France.home_centres"
    assert err.reason == "'bur' is not a supply centre"


def test_power_without_home_centres(broken):
    err = load_error(broken(lambda d: d["powers"]["Italy"].update(home_centres=[])))
    assert err.key == "powers.Italy.home_centres"
    assert "at least one home centre" in err.reason


def test_supply_centre_flag_must_be_boolean(broken):
    err = load_error(broken(lambda d: d["provinces"]["bur"].update(sc="no")))
    assert err.key == "provinces.bur.sc"
    assert err.reason == "must be true or false"


def test_start_unit_on_impossible_location(broken):
    def fn(d):
        d["start"]["units"]["Russia"] = ["A mos", "A war", "F sev", "F stp"]
    err = load_error(broken(fn))
    assert err.key == "start.units.Russia"
    assert "'F stp'" in err.reason and "cannot stand there" in err.reason


def test_bad_json(broken, tmp_path):
    path = broken(lambda d: None)
    path.write_text('{"name": "standard",\n "provinces": {,}}\n', encoding="utf-8")
    err = load_error(path)
    assert err.key == "line 2 column 16"
    assert err.reason


def test_duplicate_key(broken):
    path = broken(lambda d: None)
    text = path.read_text(encoding="utf-8").replace('"provinces": {', '"provinces": {"par": {"type": "inland"}, ', 1)
    path.write_text(text, encoding="utf-8")
    err = load_error(path)
    assert err.key == "par"
    assert "twice" in err.reason


def test_missing_section(broken):
    err = load_error(broken(lambda d: d.pop("fleet_adjacency")))
    assert (err.key, err.reason) == ("fleet_adjacency", "missing")


def test_duplicate_names_after_normalisation(broken, std_map):
    path = broken(lambda d: d["provinces"]["bur"]["aliases"].append("PARIS"), file="names.json")
    names = load_names.__wrapped__(str(path.parent))
    with pytest.raises(MapError) as info:
        NameIndex(std_map, names, source=str(path))
    err = info.value
    assert err.source == str(path)
    # the clash is reported at whichever of the two provinces is indexed second
    assert (err.key, err.reason) in {("provinces.bur", "name 'PARIS' is also used for 'par'"),
                                     ("provinces.par", "name 'Paris' is also used for 'bur'")}


def test_bad_names_json(broken):
    path = broken(lambda d: None, file="names.json")
    path.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(MapError) as info:
        load_names.__wrapped__(str(path.parent))
    assert info.value.source == str(path) and info.value.key.startswith("line 1 column")
