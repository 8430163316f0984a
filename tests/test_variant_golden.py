"""Golden games on every shipped variant (issue 24): ``tests/data/variants/
NAME-SEED.json`` holds, phase by phase, the orders of a seeded random game
(each power's orders chosen from the rules core's possible orders) and the
position after the phase (units, dislodged units, SC owners). The test plays
the orders again through the game layer (:class:`judge.game.Game`: submit,
process — the phase sequence, ownership after Fall, adjustments, the map's
build rule, neutral units) and checks every position; any change in the
adjudication of a variant shows here.

Regenerate (after a deliberate change, checked by hand) with
``python tests/test_variant_golden.py``."""

from __future__ import annotations

import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from judge.game import Game
from judge.game.codec import order_from_dict, order_to_dict, position_to_dict
from judge.maps import load_map

DATA = Path(__file__).resolve().parent / "data" / "variants"
T0 = datetime(2025, 1, 6, 12, 0, tzinfo=timezone.utc)
VARIANTS = ["fva", "evt", "gvi", "fga", "buildanywhere", "chaos", "ancmed", "hundred", "youngstown",
            "modern", "1898", "fleetrome"]
SEEDS = (1, 2)
YEARS = 3


def record(variant: str, seed: int) -> dict:
    """A seeded random game on ``variant``, three game years long."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_variants_by_mail import pick_orders
    m = load_map(variant)
    game = Game.create("golden", now=T0, seed=seed, map_name=variant)
    rng = random.Random(seed)
    stop = int(m.start.phase[1:-1]) + YEARS
    phases, now = [], T0
    while int(game.position.phase[1:-1]) < stop and not game.finished:
        pos = game.position
        orders = {p: pick_orders(m, pos, p, rng) for p in m.powers}
        for p, olist in orders.items():
            if olist:
                game.submit(p, olist, now)
        now += timedelta(hours=1)
        game.process(now)
        phases.append({"phase": pos.phase,
                       "orders": {p: [order_to_dict(o) for o in olist] for p, olist in orders.items() if olist},
                       "after": position_to_dict(game.position)})
    return {"variant": variant, "seed": seed, "phases": phases}


def replay(data: dict) -> list[str]:
    """Play ``data``'s orders again; the differences from its positions."""
    game = Game.create("golden", now=T0, seed=data["seed"], map_name=data["variant"])
    now, out = T0, []
    for step in data["phases"]:
        if game.position.phase != step["phase"]:
            return out + [f"at {game.position.phase}, expected {step['phase']}"]
        for p, olist in step["orders"].items():
            game.submit(p, [order_from_dict(o) for o in olist], now)
        now += timedelta(hours=1)
        game.process(now)
        got = position_to_dict(game.position)
        if got != step["after"]:
            out.append(f"{step['phase']}: got {json.dumps(got, sort_keys=True)[:300]}")
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", SEEDS)
def test_golden_game(variant, seed):
    path = DATA / f"{variant}-{seed}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["phases"]) >= 6
    assert replay(data) == []


def test_golden_games_change_hands():
    """The golden games are games: units move, SCs change owner, units are built."""
    for path in sorted(DATA.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        first, last = data["phases"][0]["after"], data["phases"][-1]["after"]
        assert first["units"] != last["units"], path.name
        assert any(o["type"] == "Build" for s in data["phases"] for ol in s["orders"].values() for o in ol), path.name
    assert len(list(DATA.glob("*.json"))) == len(VARIANTS) * len(SEEDS)


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    for v in VARIANTS:
        for s in SEEDS:
            d = record(v, s)
            (DATA / f"{v}-{s}.json").write_text(json.dumps(d, separators=(",", ":"), sort_keys=True) + "\n")
            print(v, s, len(d["phases"]), "phases")
