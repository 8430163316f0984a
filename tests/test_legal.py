"""``judge.rules.legal.possible_orders``: every listed order is legal for the
adjudicators, and no order the DATC v3.2 calls illegal is listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.datc import read_order, read_unit
from judge.maps import load_map
from judge.rules import (DislodgedUnit, Position, adjudicate_adjustments, adjudicate_movement,
                         adjudicate_retreats)
from judge.rules.legal import possible_orders
from judge.rules.map import province_of
from judge.rules.orders import ILLEGAL, Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive

GAME_MAP = load_map("standard")
CASES = json.loads((Path(__file__).parent / "data" / "datc" / "datc_v3.2.json").read_text(encoding="utf-8"))
SPRING = [c for c in CASES if c["phase"]["type"] == "Movement"]


def setup_position(setup: dict, phase: str = "S1901M") -> Position:
    units = {}
    for power, texts in setup["units"].items():
        for text in texts:
            u = read_unit(power, text, GAME_MAP)
            units[province_of(u.location)] = u
    return Position(phase, units, {})


def illegal_ones(pos: Position, power: str, orders) -> list[str]:
    """Adjudicate each order alone; the ones the adjudicator calls ILLEGAL."""
    bad = []
    for order in orders:
        res = adjudicate_movement(GAME_MAP, pos, {power: [order]}).results[0]
        if res.outcome == ILLEGAL:
            bad.append(f"{order}: {res.reason}")
    return bad


def test_start_position_lists():
    pos = Position.start(GAME_MAP)
    orders = possible_orders(GAME_MAP, pos, "England")
    assert set(orders) == {"edi", "lon", "lvp"}
    lvp = orders["lvp"]
    assert lvp[0] == Hold("A", "lvp")
    assert Move("A", "lvp", "yor") in lvp and Move("A", "lvp", "wal") in lvp
    assert Support("A", "lvp", "F", "edi", "yor") in lvp        # edi - yor, lvp reaches yor
    assert Support("A", "lvp", "F", "lon") not in lvp             # lvp cannot reach lon
    assert not any(isinstance(o, Move) and o.destination == "nwy" for o in lvp)  # no fleet at sea
    assert Move("F", "edi", "nwg") in orders["edi"]


@pytest.mark.parametrize("power", GAME_MAP.powers)
def test_start_orders_are_legal(power):
    pos = Position.start(GAME_MAP)
    orders = [o for olist in possible_orders(GAME_MAP, pos, power).values() for o in olist]
    assert illegal_ones(pos, power, orders) == []


@pytest.mark.parametrize("case", SPRING, ids=lambda c: c["id"])
def test_datc_positions(case):
    """In each DATC setup: listed orders are legal, DATC-illegal orders are not listed."""
    pos = setup_position(case["setup"])
    listed = {}
    for power in case["setup"]["units"]:
        orders = [o for olist in possible_orders(GAME_MAP, pos, power).values() for o in olist]
        assert illegal_ones(pos, power, orders) == []
        listed[power] = set(orders)
    for o in case["orders"]:
        if o["resolution"].startswith("illegal"):
            assert read_order(o["order"], GAME_MAP) not in listed.get(o["power"], set()), o["order"]


def test_convoy_moves_need_fleets_at_sea():
    pos = setup_position({"units": {"England": ["A lon", "F nth", "F eng"], "Germany": ["A hol"]}})
    lon = possible_orders(GAME_MAP, pos, "England")["lon"]
    dests = {o.destination for o in lon if isinstance(o, Move)}
    assert {"bel", "hol", "nwy", "bre", "pic", "den", "edi", "yor", "wal"} <= dests
    assert Move("A", "lon", "yor", via_convoy=True) in lon       # adjacent and reachable by sea
    assert "spa" not in dests and "tun" not in dests
    nth = possible_orders(GAME_MAP, pos, "England")["nth"]
    assert any(o == Hold("F", "nth") for o in nth)
    assert {(o.army_location, o.destination) for o in nth if isinstance(o, Convoy)} >= {
        ("lon", "hol"), ("lon", "nwy"), ("hol", "lon"), ("hol", "edi")}


def test_retreat_phase():
    unit = read_unit("France", "F wes", GAME_MAP)
    pos = Position("S1901R", {}, {}, {"wes": DislodgedUnit(unit, "tys", ("lyo", "naf"))})
    orders = possible_orders(GAME_MAP, pos, "France")
    assert orders == {"wes": [Retreat("F", "wes", "lyo"), Retreat("F", "wes", "naf"), Disband("F", "wes")]}
    assert possible_orders(GAME_MAP, pos, "Italy") == {}
    for order in orders["wes"]:
        assert adjudicate_retreats(GAME_MAP, pos, {"France": [order]}).results[0].outcome != ILLEGAL


def test_adjustment_builds_and_removals():
    pos = Position("W1901A", {"mos": read_unit("Russia", "A mos", GAME_MAP)},
                   {"stp": "Russia", "mos": "Russia", "sev": "Russia", "war": "Russia"})
    builds = possible_orders(GAME_MAP, pos, "Russia")
    assert builds["stp"] == [Build("A", "stp"), Build("F", "stp/nc"), Build("F", "stp/sc")]
    assert builds["war"] == [Build("A", "war")]
    assert builds[None] == [Waive()] and "mos" not in builds
    for olist in builds.values():
        for order in olist:
            assert adjudicate_adjustments(GAME_MAP, pos, {"Russia": [order]}).results[0].outcome != ILLEGAL
    short = Position("W1901A", pos.units, {})
    assert possible_orders(GAME_MAP, short, "Russia") == {"mos": [Disband("A", "mos")]}
    even = Position("W1901A", pos.units, {"mos": "Russia"})
    assert possible_orders(GAME_MAP, even, "Russia") == {}
