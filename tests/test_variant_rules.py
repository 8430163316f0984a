"""The rules core on variant maps (``RULES.md`` §7): neutral units, builds in
any owned centre or a map's build sites, ports, start phases other than S1901M,
1898's mobilisation, the number of powers — all read from map data."""

from __future__ import annotations

import copy
import json

import pytest

from judge.maps import MAPS_DIR, load_map
from judge.rules import Position, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats, update_ownership
from judge.rules.adjustments import adjustment_counts, buildable_locations
from judge.rules.legal import possible_orders as legal_orders
from judge.rules.map import NEUTRAL, Map, MapError
from judge.rules.orders import FAILS, ILLEGAL, SUCCEEDS, Build, Convoy, Hold, Move, Support
from judge.rules.position import Unit

STANDARD = json.loads((MAPS_DIR / "standard" / "map.json").read_text(encoding="utf-8"))


def variant(**changes) -> Map:
    data = copy.deepcopy(STANDARD)
    for key, value in changes.items():
        target, *path = key.split("__")
        obj = data
        for p in path[:-1] if path else []:
            obj = obj[p]
        if path:
            data[target].setdefault(path[0], {}) if len(path) == 1 else None
            (data[target] if len(path) == 1 else obj)[path[-1]] = value
        else:
            data[target] = value
    return Map.from_dict(data, "variant")


def with_neutrals(units: list[str]) -> Map:
    data = copy.deepcopy(STANDARD)
    data["start"]["neutral_units"] = units
    return Map.from_dict(data, "variant")


def result_of(outcome, prov):
    return next(r for r in outcome.results if r.order is not None and r.order.location.split("/")[0] == prov)


# ---- neutral units ------------------------------------------------------------------
def test_neutral_unit_holds_can_be_supported_and_dislodged():
    m = with_neutrals(["A bel", "A hol"])
    pos = Position.start(m)
    assert pos.units["bel"] == Unit(NEUTRAL, "A", "bel")
    # unsupported attack bounces off the holding neutral unit
    out = adjudicate_movement(m, pos, {"France": [Move("A", "par", "pic")]})
    pos2 = Position("S1901M", {**pos.units, "pic": Unit("France", "A", "pic"), "bur": Unit("France", "A", "bur")},
                    pos.sc_owners)
    del pos2.units["par"], pos2.units["mar"]
    out = adjudicate_movement(m, pos2, {"France": [Move("A", "pic", "bel")]})
    assert result_of(out, "pic").outcome == FAILS and out.position.units["bel"].power == NEUTRAL
    # a German support of the neutral unit holds off a supported French attack
    pos3 = Position("S1901M", {**pos2.units, "ruh": Unit("Germany", "A", "ruh")}, pos.sc_owners)
    out = adjudicate_movement(m, pos3, {"France": [Move("A", "pic", "bel"), Support("A", "bur", "A", "pic", "bel")],
                                        "Germany": [Support("A", "ruh", "A", "bel")]})
    assert result_of(out, "pic").outcome == FAILS
    # without it the neutral unit is dislodged, and with no retreat order it is disbanded
    out = adjudicate_movement(m, pos2, {"France": [Move("A", "pic", "bel"), Support("A", "bur", "A", "pic", "bel")]})
    assert result_of(out, "pic").outcome == SUCCEEDS and "bel" in out.position.dislodged
    after = adjudicate_retreats(m, out.position, {})
    assert after.position.units["bel"].power == "France"
    assert all(u.power != NEUTRAL or p != "bel" for p, u in after.position.units.items())


def test_neutral_units_never_own_build_or_are_removed():
    m = with_neutrals(["A bel", "F nwy"])
    pos = Position("W1901A", Position.start(m).units, dict(Position.start(m).sc_owners))
    owned = update_ownership(m, Position("F1901R", pos.units, pos.sc_owners))
    assert "bel" not in owned.sc_owners and "nwy" not in owned.sc_owners
    counts = adjustment_counts(owned, m.powers, m)
    assert NEUTRAL not in counts and all(n == 0 for n in counts.values())
    out = adjudicate_adjustments(m, owned, {})
    assert out.position.units["bel"].power == NEUTRAL and out.position.units["nwy"].power == NEUTRAL


def test_neutral_is_not_a_power_name():
    data = copy.deepcopy(STANDARD)
    data["powers"][NEUTRAL] = data["powers"].pop("Turkey")
    with pytest.raises(MapError, match="neutral"):
        Map.from_dict(data, "variant")


def test_neutral_unit_where_no_unit_can_stand_is_refused():
    with pytest.raises(MapError, match="start.neutral_units"):
        with_neutrals(["F mun"])


# ---- builds -------------------------------------------------------------------------
def test_build_anywhere_map_builds_in_any_owned_centre():
    m = load_map("buildanywhere")
    pos = Position("W1901A", {}, {"bel": "France", "par": "France", "mun": "Germany"})
    assert buildable_locations(m, pos, "France") == ["bel", "par"]
    out = adjudicate_adjustments(m, pos, {"France": [Build("F", "bel")], "Germany": [Build("A", "par")]})
    assert [r.outcome for r in out.results] == [SUCCEEDS, ILLEGAL]
    assert out.results[1].reason.code == "not_owned"
    std = load_map("standard")
    out = adjudicate_adjustments(std, pos, {"France": [Build("F", "bel")]})
    assert out.results[0].outcome == ILLEGAL and out.results[0].reason.code == "not_home_centre"


def test_build_sites_replace_home_centres():
    data = copy.deepcopy(STANDARD)
    data["powers"]["France"]["build_sites"] = ["par", "bel"]
    m = Map.from_dict(data, "variant")
    pos = Position("W1901A", {}, {"bel": "France", "par": "France", "bre": "France"})
    assert buildable_locations(m, pos, "France") == ["bel", "par"]
    data["powers"]["France"]["build_sites"] = ["pic"]
    with pytest.raises(MapError, match="build_sites"):
        Map.from_dict(data, "variant")


def test_bad_build_rule_is_refused():
    data = copy.deepcopy(STANDARD)
    data["build"] = "anywhere"
    with pytest.raises(MapError, match="build"):
        Map.from_dict(data, "variant")


def test_chaos_starts_in_winter_with_one_centre_each():
    m = load_map("chaos")
    assert len(m.powers) == 34 and m.start.phase == "W1900A" and m.build == "owned"
    pos = Position.start(m)
    assert adjustment_counts(pos, m.powers, m) == {p: 1 for p in m.powers}
    assert "Builds" not in legal_orders(m, pos, "Ankara")
    assert legal_orders(m, pos, "Ankara")["ank"]


# ---- 1898: mobilisation --------------------------------------------------------------
def test_1898_each_power_builds_one_unit_and_keeps_that_centre():
    m = load_map("1898")
    pos = Position.start(m)
    assert pos.phase == "W1898A" and not pos.units and m.start.mobilize
    assert adjustment_counts(pos, m.powers, m)["Russia"] == 1
    out = adjudicate_adjustments(m, pos, {"Russia": [Build("F", "sev"), Build("A", "mos")],
                                          "England": [Build("F", "lon")]})
    assert [r.outcome for r in out.results[:3]] == [SUCCEEDS, ILLEGAL, SUCCEEDS]
    after = out.position
    assert after.phase == "S1899M"
    assert [sc for sc, o in after.sc_owners.items() if o == "Russia"] == ["sev"]
    assert [sc for sc, o in after.sc_owners.items() if o == "England"] == ["lon"]
    assert not [sc for sc, o in after.sc_owners.items() if o == "France"]   # built nothing, owns nothing
    # later adjustments are the usual ones
    later = Position("W1899A", after.units, {**after.sc_owners, "mos": "Russia", "stp": "Russia"})
    assert adjustment_counts(later, m.powers, m)["Russia"] == 2


def test_mobilize_needs_a_winter_start():
    data = copy.deepcopy(STANDARD)
    data["start"]["mobilize"] = True
    with pytest.raises(MapError, match="mobilize"):
        Map.from_dict(data, "variant")


# ---- ports --------------------------------------------------------------------------
def test_ancmed_port_convoys_and_holds_armies():
    m = load_map("ancmed")
    assert m.provinces["bal"].port and m.provinces["bal"].sc
    assert "bal" not in m.army_adj.get("tar", ()) and "bal" in m.fleet_adj["tar"]
    units = {"tar": Unit("Rome", "A", "tar"), "bal": Unit("Rome", "F", "bal"), "ber": Unit("Rome", "F", "ber")}
    pos = Position("S1M", units, {})
    out = adjudicate_movement(m, pos, {"Rome": [Move("A", "tar", "mau", via_convoy=True),
                                                Convoy("F", "bal", "tar", "mau"), Convoy("F", "ber", "tar", "mau")]})
    assert result_of(out, "tar").outcome == SUCCEEDS, out.results
    assert out.position.units["mau"] == Unit("Rome", "A", "mau")
    assert out.position.phase == "S1R" or out.position.phase.startswith("S1")
    # an army may stand on the port and be convoyed off it
    pos = Position("S1M", {"bal": Unit("Rome", "A", "bal"), "lig": Unit("Rome", "F", "lig")}, {})
    out = adjudicate_movement(m, pos, {"Rome": [Move("A", "bal", "mas", via_convoy=True),
                                                Convoy("F", "lig", "bal", "mas")]})
    assert result_of(out, "bal").outcome == SUCCEEDS, out.results


def test_port_only_on_a_coastal_province():
    data = copy.deepcopy(STANDARD)
    data["provinces"]["nth"]["port"] = True
    with pytest.raises(MapError, match="port"):
        Map.from_dict(data, "variant")


def test_standard_map_has_no_port_coastal_fleets_do_not_convoy():
    m = load_map("standard")
    pos = Position("S1901M", {"lon": Unit("England", "A", "lon"), "bel": Unit("England", "F", "bel"),
                              "eng": Unit("England", "F", "eng")}, {})
    out = adjudicate_movement(m, pos, {"England": [Convoy("F", "bel", "lon", "hol")]})
    assert result_of(out, "bel").outcome == ILLEGAL


# ---- phases, powers, victory ---------------------------------------------------------
def test_year_one_start_phase_runs_through_the_year():
    m = load_map("ancmed")
    pos = Position.start(m)
    assert pos.phase == "S1M" and m.victory_centres == 18
    out = adjudicate_movement(m, pos, {})
    after = adjudicate_retreats(m, out.position, {})
    assert after.position.phase in ("F1M", "F1R", "S1R") or after.position.phase.startswith("F1")


def test_start_phase_must_be_movement_or_winter_adjustments():
    for bad in ("S1901R", "W1901M", "S19011M", "X1901M"):
        data = copy.deepcopy(STANDARD)
        data["start"]["phase"] = bad
        with pytest.raises(MapError, match="start.phase"):
            Map.from_dict(data, "variant")
    data = copy.deepcopy(STANDARD)
    data["start"]["phase"] = "W1900A"
    assert Map.from_dict(data, "variant").start.phase == "W1900A"


def test_at_most_34_powers():
    data = copy.deepcopy(load_map_json("chaos"))
    data["powers"]["Extra"] = {"home_centres": []}
    data["build"] = "owned"
    with pytest.raises(MapError, match="at most 34"):
        Map.from_dict(data, "variant")


def load_map_json(name):
    return json.loads((MAPS_DIR / name / "map.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name,powers,target,total", [
    ("fva", 2, 18, 34), ("evt", 2, 18, 34), ("gvi", 2, 18, 34), ("fga", 3, 18, 34),
    ("buildanywhere", 7, 18, 34), ("chaos", 34, 18, 34), ("ancmed", 5, 18, 34), ("hundred", 3, 9, 17),
    ("youngstown", 10, 37, 72), ("modern", 10, 33, 64), ("1898", 7, 18, 34), ("fleetrome", 7, 18, 34)])
def test_shipped_variants_load_with_their_counts(name, powers, target, total):
    m = load_map(name)
    assert (len(m.powers), m.victory_centres, len(m.supply_centres)) == (powers, target, total)


def test_classic_splits_leave_other_centres_neutral_and_empty():
    m = load_map("fva")
    pos = Position.start(m)
    assert m.powers == ("Austria", "France")
    assert set(pos.sc_owners.values()) == {"France", "Austria"} and len(pos.sc_owners) == 6
    assert {u.power for u in pos.units.values()} == {"France", "Austria"}
    evt = Position.start(load_map("evt"))
    assert {p: str(u) for p, u in evt.units.items() if u.power == "England"} == \
        {"nth": "F nth", "lon": "A lon", "eng": "F eng"}
    assert Position.start(load_map("fleetrome")).units["rom"] == Unit("Italy", "F", "rom")
