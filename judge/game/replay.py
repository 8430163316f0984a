"""Replaying a game from its history (``RULES.md`` §3.6).

A fresh game with the same name, map, settings and seed is given, phase by
phase, every order the players wrote (replaced ones included, in arrival order)
at the time it arrived, and processed at the recorded times. Because the judge's
random choices come from the game seed and the phase name, the replayed history
equals the recorded one; :func:`replay_differences` says where it does not.
"""

from __future__ import annotations

from .game import Game, Line
from .records import WRITTEN


def replay(game: Game) -> Game:
    """A new game played from ``game``'s history, starting from the position
    before its first recorded phase. Players and current orders are not copied:
    only what the history holds."""
    g = Game.create(game.name, now=game.created, seed=game.seed, map_name=game.map_name,
                    settings=game.settings)
    if game.history:
        g.position = game.history[0].position_before
    for rec in game.history:
        if rec.phase != g.position.phase:
            continue   # adjudicated together with an earlier phase (combined-order mode)
        for power, entries in rec.orders.items():
            for e in entries:
                if e.source == WRITTEN and e.received is not None:
                    g.submit(power, [Line(e.text, e.order)], e.received)
        g.process(rec.processed_at)
    return g


def replay_differences(game: Game) -> list[str]:
    """Phases whose replay differs from the record, as ``"S1901M: results"``
    lines; empty when the replay gives identical results."""
    again = replay(game)
    out = []
    for old, new in zip(game.history, again.history):
        for name in ("phase", "position_before", "orders", "results", "position_after", "random_seed"):
            if getattr(old, name) != getattr(new, name):
                out.append(f"{old.phase}: {name}")
    if len(game.history) != len(again.history):
        out.append(f"{len(game.history)} phases recorded, {len(again.history)} replayed")
    return out
