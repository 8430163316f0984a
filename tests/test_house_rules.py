"""House rules of RULES.md §3 and the NMR defaults, one case file each.

Case files are TOML in ``tests/data/house_rules/`` (format in the README there).
Each case sets up a position, submits orders phase by phase, adjudicates and
checks results, units and phases; every case is then replayed from its history
(identical results, RULES.md §3.6) and round-tripped through ``to_dict``.
"""

from __future__ import annotations

import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from judge.game import Game, HouseRules, Line, Settings
from judge.game.codec import ORDER_TYPES
from judge.game.replay import replay_differences
from judge.rules.map import province_of
from judge.rules.orders import Build, BuildPriority, Disband, DisbandPriority, RetreatPreference
from judge.rules.position import Position, Unit

CASES = Path(__file__).parent / "data" / "house_rules"
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


def order(text: str):
    """``"Move A par bur"`` -> ``Move("A", "par", "bur")`` (README: case orders)."""
    kind, *args = text.split()
    args = [None if a == "-" else a for a in args]
    cls = ORDER_TYPES[kind]
    if cls is RetreatPreference:
        return cls(args[0], args[1], tuple(args[2:]))
    if cls in (BuildPriority, DisbandPriority):
        item = Build if cls is BuildPriority else Disband
        return cls(tuple(item(t, loc) for t, loc in zip(args[::2], args[1::2])))
    return cls(*args)


def case_files():
    return sorted(CASES.glob("*.toml"))


def setup(case: dict, game_map) -> Game:
    settings = Settings(case.get("rules", "datc"), HouseRules(**case.get("house", {})))
    game = Game.create("case", now=T0, seed=case.get("seed", 1), settings=settings)
    pos = case["position"]
    units = {}
    for power, ulist in pos["units"].items():
        for u in ulist:
            t, loc = u.split()
            units[province_of(loc)] = Unit(power, t, loc)
    owners = dict(game.position.sc_owners)
    for power, scs in pos.get("sc_owners", {}).items():
        owners = {sc: p for sc, p in owners.items() if p != power}
    for power, scs in pos.get("sc_owners", {}).items():
        owners.update({sc: power for sc in scs})
    game.position = Position(pos["phase"], units, owners)
    return game


@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.stem)
def test_house_rule_case(path, std_map):
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    game = setup(case, std_map)
    now = T0
    for i, step in enumerate(case["step"]):
        where = f"{path.name} step {i + 1}"
        refused = {(r["power"], r["order"]): r["reason"] for r in step.get("refused", [])}
        for power, lines in step.get("orders", {}).items():
            for text in lines:
                (receipt,) = game.submit(power, [Line(text, order(text))], now)
                if (power, text) in refused:
                    assert not receipt.ok, f"{where}: {text} was accepted"
                    assert receipt.error.code == refused[(power, text)], f"{where}: {receipt.error}"
                else:
                    assert receipt.ok, f"{where}: {text} refused: {receipt.error}"
        if not step.get("process", True):
            continue
        now += timedelta(days=1)
        records = game.process(now)
        assert [r.phase for r in records] == step.get("phases", [records[0].phase]), where
        assert game.position.phase == step["phase_after"], where
        results = [(r, rec) for rec in records for r in rec.results]
        for want in step.get("results", []):
            o = order(want["order"])
            hits = [(r, rec) for r, rec in results if r.power == want["power"] and r.order == o]
            assert hits, f"{where}: no result for {want['power']} {want['order']}: {[r for r, _ in results]}"
            r, rec = hits[-1]
            assert r.outcome == want["outcome"], f"{where}: {r}"
            if "reason" in want:
                assert r.reason.code == want["reason"], f"{where}: {r}"
            sources = [e.source for e in rec.orders.get(r.power, ()) if e.order == o and not e.replaced]
            assert sources[-1:] == [want.get("source", "written")] or (
                not sources and want.get("source") == "rules"), f"{where}: {r} from {sources}"
        for power, ulist in step.get("units", {}).items():
            have = sorted(f"{u.type} {u.location}" for u in game.position.units.values() if u.power == power)
            assert have == sorted(ulist), f"{where}: {power} has {have}"
        if "random" in step:
            assert any(rec.random_seed for rec in records) == step["random"], where
    assert replay_differences(game) == [], path.name
    assert Game.from_dict(game.to_dict()) == game


def test_every_house_rule_has_a_case():
    rules = {tomllib.loads(p.read_text(encoding="utf-8"))["rule"] for p in case_files()}
    assert {"3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "nmr"} <= rules
