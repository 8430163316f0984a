"""A recorded game (``shared/games``: droidippy, MILA/dipcc; read by
:mod:`judge.replay`) played again as a :class:`~judge.game.Game`, so the
archive can show it: each recorded phase's orders are submitted as written
orders and the phase is processed, one day apart from ``start``.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from ..game import Game, GameError, Settings
from ..game.sequence import adjustments_due
from ..replay import GameRecord
from ..rules.map import province_of
from ..rules.orders import Build, Disband, Support
from ..rules.position import Position

START = datetime(2000, 1, 1, tzinfo=timezone.utc)


def game_from_record(record: GameRecord, name: str, rules: str = "droidippy",
                     start: datetime = START, seed: int = 0) -> Game:
    """A game with ``record``'s orders played phase by phase under the rule
    profile ``rules``. Orders the game refuses (illegal ones) are left out, as
    a player's refused order would be. Of an over-ordered adjustment only the
    first orders count (the records' rule, ``shared/games/README.md``).
    Raises :class:`~judge.game.GameError` when the game reaches a phase the
    record does not have (the record and the judge disagree)."""
    game = Game.create(name, now=start, seed=seed, settings=Settings(rules=rules))
    first = record.phases[0]
    game.position = first.state.to_position(game.map, first.name)
    when = start
    for phase in record.phases[:-1]:
        if game.position.phase != phase.name:
            raise GameError(f"{record.source}: the game reached {game.position.phase}, "
                            f"the record has {phase.name}")
        when += timedelta(days=1)
        due = adjustments_due(game.map, game.position) if phase.name.endswith("A") else {}
        for power, orders in phase.orders.items():
            if phase.name.endswith("A"):
                n = due.get(power, 0)
                orders = [o for o in orders if isinstance(o, Build if n > 0 else Disband)][:abs(n)]
            game.submit(power, [_typed(o, game.position) for o in orders], when)
        game.process(when)
    return game


def _typed(order, position: Position):
    """``order`` with the unit types the record leaves out (droidippy writes
    ``ber move kie``) taken from ``position``, as the notation parser would."""
    def kind(location: str) -> str | None:
        prov = province_of(location)
        if position.phase.endswith("R"):
            d = position.dislodged.get(prov)
            return d.unit.type if d else None
        u = position.units.get(prov)
        return u.type if u else None
    if getattr(order, "unit_type", "") is None and not isinstance(order, Build):
        order = replace(order, unit_type=kind(order.location))
    if isinstance(order, Support) and order.supported_type is None:
        unit = position.units.get(province_of(order.supported_location))
        order = replace(order, supported_type=unit.type if unit else None)
    return order
