"""DATC v3.2: every case of the project's copy (``tests/data/datc``, see SOURCES.md).

- positions: each CASE block of ``datc_v3.2.txt`` run as ``judge datc`` runs it;
- resolutions: each order of ``datc_v3.2.json`` gets the DATC's word for its result
  (succeeds / fails / given / cut / available / disrupted / stands / dislodged /
  destroyed / illegal / invalid), and civil-disorder removals are the DATC's;
- retreat options: the dislodged units and where they may go;
- the older DATC v2.4 files in ``../shared/datc`` fail exactly the cases listed in
  ``older_file_exceptions.json``.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from judge.datc import parse_cases, read_order, read_unit, run_case
from judge.maps import load_map, load_names
from judge.notation.names import name_index
from judge.rules import (DislodgedUnit, Position, adjudicate_adjustments, adjudicate_movement,
                         adjudicate_retreats)
from judge.rules.map import province_of
from judge.rules.options import PROFILES
from judge.rules.orders import (CIVIL_DISORDER, FAILS, ILLEGAL, SUCCEEDS, VOID, Build, Convoy, Disband, Hold, Move,
                                Support)

DATA = Path(__file__).parent / "data" / "datc"
SHARED_DATC = Path(__file__).resolve().parents[1].parent / "shared" / "datc"
GAME_MAP = load_map("standard")
TXT_CASES = parse_cases(DATA / "datc_v3.2.txt", GAME_MAP)
JSON_CASES = json.loads((DATA / "datc_v3.2.json").read_text(encoding="utf-8"))
NAMES = name_index(GAME_MAP, load_names("standard"))
EXCEPTIONS = json.loads((DATA / "older_file_exceptions.json").read_text(encoding="utf-8"))["files"]
CORRECTIONS = {(c["case"], c["order"]): c for c in
               json.loads((DATA / "resolution_corrections.json").read_text(encoding="utf-8"))["corrections"]}

# DATC words for an order's outcome, by order type (hold is handled apart)
WORDS = {
    Move: {SUCCEEDS: "succeeds", FAILS: "fails", ILLEGAL: "illegal", VOID: "invalid"},
    Support: {SUCCEEDS: "given", FAILS: "cut", ILLEGAL: "illegal", VOID: "invalid"},
    Convoy: {SUCCEEDS: "available", FAILS: "disrupted", ILLEGAL: "illegal", VOID: "invalid"},
    Build: {SUCCEEDS: "succeeds", FAILS: "fails", ILLEGAL: "illegal", VOID: "invalid"},
    Disband: {SUCCEEDS: "succeeds", FAILS: "fails", ILLEGAL: "illegal", VOID: "invalid"},
}
KIND = {"Movement": "M", "Retreat": "R", "Adjustment": "A"}


def test_case_counts():
    ids = [c.id for c in TXT_CASES]
    assert len(ids) == 193 == len(set(ids))      # 176 cases + 17 retreat parts
    assert len(JSON_CASES) == 176
    assert {c["id"] for c in JSON_CASES} == {i for i in ids if not i.endswith(".retreat")}


@pytest.mark.parametrize("case", TXT_CASES, ids=lambda c: c.id)
def test_position(case):
    run = run_case(case, GAME_MAP)
    assert run.actual == run.expected


@pytest.mark.parametrize("case", [c for c in TXT_CASES if not c.phase.startswith("W")], ids=lambda c: c.id)
def test_position_does_not_depend_on_the_order_of_units_and_orders(case):
    """Movement and retreat results must not depend on the order in which units
    stand in the position or orders are written (a resolver that settles a
    decision too early shows up here: DATC 6.F.16 was such a case). Adjustments
    are excluded: there the written order decides (DATC 6.I.1, 6.J.1)."""
    for seed in range(5):
        rng = random.Random(seed)
        shuffled = copy.copy(case)
        shuffled.units = rng.sample(case.units, len(case.units))
        shuffled.orders = rng.sample(case.orders, len(case.orders))
        run = run_case(shuffled, GAME_MAP)
        assert run.actual == run.expected, f"seed {seed}"


# ---- per-order resolutions (datc_v3.2.json) ------------------------------------------

def _phase(phase: dict) -> str:
    season = "W" if phase["type"] == "Adjustment" else phase["season"][0]
    return f"{season}{phase['year']}{KIND[phase['type']]}"


def _position(setup: dict, phase: str, options: dict) -> Position:
    """A Position from a JSON ``setup``; dislodged units get the case's retreat options."""
    units = {}
    for power, texts in setup["units"].items():
        for text in texts:
            u = read_unit(power, text, GAME_MAP)
            units[province_of(u.location)] = u
    owners = {sc: power for power, scs in setup.get("sc_owners", {}).items() for sc in scs}
    dislodged = {}
    for power, texts in setup.get("dislodged", {}).items():
        for text in texts:
            u = read_unit(power, text, GAME_MAP)
            retreats = tuple(NAMES.location(loc) for loc in options[f"{power} {text}"])
            dislodged[province_of(u.location)] = DislodgedUnit(u, None, retreats)
    return Position(phase, units, owners, dislodged)


def _words(result, kind: str) -> str:
    """The DATC resolution words for one Result in a phase of ``kind`` (M/R/A)."""
    if isinstance(result.order, Hold) and result.outcome == SUCCEEDS:
        return "destroyed" if result.destroyed else "dislodged" if result.dislodged else "stands"
    if isinstance(result.order, Hold):
        word = WORDS[Move][result.outcome]
    else:
        word = WORDS[type(result.order)][result.outcome]
    if kind == "M":     # retreat and adjustment words carry no flag
        if result.destroyed:
            word += ", destroyed"
        elif result.dislodged:
            word += ", dislodged"
    return word


def _unit(power: str, text: str) -> str:
    return f"{power}: {read_unit(power, text, GAME_MAP)}"


def _expected(case_id: str, part: dict, kind: str) -> list[str]:
    """The JSON's resolution of each order, lower-cased; 'dislodged' reads 'destroyed'
    for a unit the JSON's end state lists as destroyed (the document is not consistent,
    ``shared/datc/v3.2/README.md`` section 5); corrections from resolution_corrections.json."""
    destroyed = {_unit(p, u) for p, us in part["end_state"].get("destroyed", {}).items() for u in us}
    out = []
    for o in part["orders"]:
        words = o["resolution"].lower()
        fix = CORRECTIONS.get((case_id, o["order"]))
        if fix:
            assert fix["json"] == words, f"stale correction {fix}"
            words = fix["corrected"]
        if kind == "M" and o["kind"] in ("hold", "move", "support", "convoy") and \
                _unit(o["unit_owner"], f"{o['unit_type']} {o['location']}") in destroyed:
            words = words.replace("dislodged", "destroyed")
        out.append(f"{o['power']}: {o['order']} -> {words}")
    return out


def _resolve(case_id: str, part: dict, options: dict):
    """Adjudicate one phase of a JSON case; returns (expected, actual) lists of
    ``"Power: order -> words"``, then of civil-disorder removals."""
    phase = _phase(part["phase"])
    kind = phase[-1]
    pos = _position(part["setup"], phase, options)
    orders, index = _orders_by_power(part["orders"])
    if kind == "M":
        results = adjudicate_movement(GAME_MAP, pos, orders).results
    elif kind == "R":
        results = adjudicate_retreats(GAME_MAP, pos, orders).results
    else:
        results = adjudicate_adjustments(GAME_MAP, pos, orders).results
    actual = [""] * len(index)
    for i, r in zip(index, results):
        actual[i] = f"{r.power}: {part['orders'][i]['order']} -> {_words(r, kind)}"
    cd_actual = sorted(f"{r.power}: {r.order.unit_type} {r.order.location}"
                       for r in results[len(index):] if r.reason == CIVIL_DISORDER)
    cd_expected = sorted(_unit(d["power"], d["unit"]) for d in part.get("automatic_disbands", ()))
    return _expected(case_id, part, kind) + cd_expected, actual + cd_actual


def _json_parts():
    for case in JSON_CASES:
        yield pytest.param(case["id"], case, case, id=case["id"])
        if case["retreat"]:
            yield pytest.param(case["id"] + ".retreat", case["retreat"], case, id=case["id"] + ".retreat")


@pytest.mark.parametrize("case_id,part,case", list(_json_parts()))
def test_resolutions(case_id, part, case):
    expected, actual = _resolve(case_id, part, case["retreat_options"])
    assert actual == expected


@pytest.mark.parametrize("case", [c for c in JSON_CASES if c["retreat_options"]], ids=lambda c: c["id"])
def test_retreat_options(case):
    """Dislodged units and their retreats after the movement phase (DATC 6.H; the
    JSON's options are computed from the map by the extractor)."""
    phase = _phase(case["phase"])
    orders, _ = _orders_by_power(case["orders"])
    out = adjudicate_movement(GAME_MAP, _position(case["setup"], phase, {}), orders)
    actual = {f"{d.unit.power}: {d.unit}": sorted(d.retreats) for d in out.position.dislodged.values()}
    expected = {_unit(*key.split(" ", 1)): sorted(NAMES.location(loc) for loc in locs)
                for key, locs in case["retreat_options"].items() if locs}
    assert actual == expected


def _orders_by_power(json_orders) -> tuple[dict[str, list], list[int]]:
    """``({power: [Order]}, index)``: the adjudicators give results power by power,
    so result ``k`` belongs to JSON order ``index[k]``."""
    orders: dict[str, list] = {}
    where: dict[str, list[int]] = {}
    for i, o in enumerate(json_orders):
        orders.setdefault(o["power"], []).append(read_order(o["order"], GAME_MAP))
        where.setdefault(o["power"], []).append(i)
    return orders, [i for power in orders for i in where[power]]


# ---- the older v2.4 files (third-party, read from ../shared) ------------------------

@pytest.mark.parametrize("name", sorted(EXCEPTIONS))
def test_older_file_fails_exactly_the_listed_cases(name):
    path = SHARED_DATC / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (third-party DATC file, kept in ../shared only)")
    cases = parse_cases(path, GAME_MAP)
    failed = sorted(c.id for c in cases if not run_case(c, GAME_MAP).ok)
    assert failed == sorted(EXCEPTIONS[name])
    for case in cases:        # a rule change passes under the profile that keeps the old rule
        if EXCEPTIONS[name].get(case.id, {}).get("kind") == "rule change":
            assert run_case(case, GAME_MAP, PROFILES["droidippy"]).ok, case.id


@pytest.mark.parametrize("case", [c for f in sorted((Path(__file__).parent / "data" / "cases").glob("*.txt"))
                                  for c in parse_cases(f, GAME_MAP)], ids=lambda c: c.id)
def test_project_case(case):
    """The project's own cases (tests/data/cases/): every bug found, ours or
    another engine's, becomes a case there."""
    run = run_case(case, GAME_MAP)
    assert run.actual == run.expected
