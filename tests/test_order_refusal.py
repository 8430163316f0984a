"""``order_refusal`` (the verdict on one order before any resolution, issue 23)
gives what ``adjudicate_movement`` gives that order alone: on every DATC v3.2
movement case's position, for each of its orders and for random orders of
every kind — moves (by land, by convoy, to nowhere), supports, convoys, for
units of the power and of others — under each rule profile."""

from __future__ import annotations

import random

import pytest
from test_datc import GAME_MAP, TXT_CASES

from judge.datc import initial_position
from judge.rules import PROFILES, adjudicate_movement, order_refusal
from judge.rules.orders import ILLEGAL, Convoy, Hold, Move, Support

MOVEMENT_CASES = [c for c in TXT_CASES if c.phase.endswith("M")]


def random_orders(rng: random.Random, pos, n: int):
    """``n`` (power, order) pairs over the units of ``pos``, many illegal."""
    provinces = sorted({u.location for u in pos.units.values()})
    everywhere = sorted(GAME_MAP.locations)             # coasts too
    powers = sorted({u.power for u in pos.units.values()} | {"England", "Turkey"})
    out = []
    units = list(pos.units.values())
    for _ in range(n):
        unit = rng.choice(units)
        power = unit.power if rng.random() < 0.8 else rng.choice(powers)
        kind = rng.random()
        other = rng.choice(units)
        dest = rng.choice(everywhere)
        utype = unit.type if rng.random() < 0.9 else ("A" if unit.type == "F" else "F")
        if kind < 0.45:
            order = Move(utype, unit.location, dest, via_convoy=rng.random() < 0.2)
        elif kind < 0.65:
            order = Support(utype, unit.location, other.type, other.location,
                            dest if rng.random() < 0.6 else None)
        elif kind < 0.8:
            order = Convoy(utype, unit.location, other.type, other.location, dest)
        elif kind < 0.9:
            order = Hold(utype, unit.location)
        else:
            order = Move(utype, rng.choice(provinces), dest)
        out.append((power, order))
    return out


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_one_orders_verdict_is_the_adjudications(profile):
    rules = PROFILES[profile]
    rng = random.Random(23)
    checked = illegal = 0
    for case in MOVEMENT_CASES:
        pos = initial_position(GAME_MAP, case)
        if not pos.units:
            continue
        pairs = [(power, order) for power, order, _text in case.orders] + random_orders(rng, pos, 40)
        for power, order in pairs:
            alone = adjudicate_movement(GAME_MAP, pos, {power: [order]}, rules).results[0]
            want = alone.reason if alone.outcome == ILLEGAL else None
            got = order_refusal(GAME_MAP, pos, power, order, rules)
            assert got == want, (case.id, power, order)
            checked += 1
            illegal += got is not None
    assert checked > 5000 and illegal > 1000
