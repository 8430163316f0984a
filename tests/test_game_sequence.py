"""The phase sequence (RULES.md §1): Spring and Fall movement; a retreat phase
only when a unit can retreat; Winter only when a power can build or must remove;
SC ownership changes after Fall only."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from judge.game import Game, GameError
from judge.rules.orders import Build, Hold, Move, Retreat, Support
from judge.rules.position import Position, Unit

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


def new_game(**kw) -> Game:
    return Game.create("seq", now=T0, seed=1, **kw)


def at(game: Game, phase: str, units: dict[str, list[str]], owners: dict[str, list[str]] | None = None,
       others: bool = True):
    """Put ``game`` at ``phase`` with ``units``; ``owners`` replaces those powers'
    SCs; without ``others`` no other power owns an SC."""
    us = {}
    for power, ulist in units.items():
        for u in ulist:
            t, loc = u.split()
            us[loc.split("/")[0]] = Unit(power, t, loc)
    sc = dict(game.position.sc_owners) if others else {}
    for power, scs in (owners or {}).items():
        sc = {k: v for k, v in sc.items() if v != power} | {k: power for k in scs}
    game.position = Position(phase, us, sc)
    return game


def run(game: Game, orders: dict[str, list] | None = None, hours: int = 24):
    for power, olist in (orders or {}).items():
        receipts = game.submit(power, olist, T0)
        assert all(r.ok for r in receipts), receipts
    return game.process(T0 + timedelta(hours=hours))


def test_quiet_year_skips_retreats_and_winter():
    g = new_game()
    assert g.phase.kind == "M" and str(g.phase) == "S1901M"
    run(g)
    assert str(g.phase) == "F1901M"
    run(g)
    assert str(g.phase) == "S1902M"
    assert [r.phase for r in g.history] == ["S1901M", "F1901M"]


def test_capture_in_fall_gives_winter_builds():
    g = new_game()
    run(g, {"France": [Move("A", "mar", "spa")]})
    assert g.position.sc_owners.get("spa") is None          # not after Spring
    (fall,) = run(g)
    assert fall.position_after.sc_owners["spa"] == "France"  # after Fall, no retreat phase
    assert str(g.phase) == "W1901A"
    run(g, {"France": [Build("A", "mar")]})
    assert str(g.phase) == "S1902M"
    assert g.position.units["mar"] == Unit("France", "A", "mar")


def test_spring_dislodgement_gives_spring_retreat():
    g = at(new_game(), "S1901M", {"Austria": ["A ser", "A bud"], "Turkey": ["A bul", "A rum"]})
    (rec,) = run(g, {"Turkey": [Move("A", "bul", "ser"), Support("A", "rum", "A", "bul", "ser")]})
    assert rec.position_after.phase == "S1901R" and "ser" in g.position.dislodged
    assert set(g.position.dislodged["ser"].retreats) == {"alb", "gre", "tri"}
    assert g.unordered("Austria") == ["ser"]
    run(g, {"Austria": [Retreat("A", "ser", "tri")]})
    assert str(g.phase) == "F1901M" and g.position.units["tri"].power == "Austria"


def test_unit_without_retreat_is_destroyed_and_no_retreat_phase():
    # A ser surrounded: alb, gre, tri, bud, rum occupied or the attacker's origin
    g = at(new_game(), "S1901M", {"Austria": ["A ser", "A bud", "A tri", "A alb"],
                                  "Turkey": ["A bul", "A rum", "A gre"]})
    (rec,) = run(g, {"Turkey": [Move("A", "bul", "ser"), Support("A", "rum", "A", "bul", "ser")]})
    destroyed = [r for r in rec.results if r.power == "Austria" and r.destroyed]
    assert len(destroyed) == 1 and destroyed[0].order.location == "ser"
    assert str(g.phase) == "F1901M" and not g.position.dislodged


def test_ownership_changes_after_fall_retreats():
    g = at(new_game(), "F1901M", {"Austria": ["A ser", "A bud"], "Turkey": ["A bul", "A rum"]},
           {"Austria": ["bud", "tri", "vie", "ser"]})
    (rec,) = run(g, {"Turkey": [Move("A", "bul", "ser"), Support("A", "rum", "A", "bul", "ser")]})
    assert str(g.phase) == "F1901R" and rec.sc_owners["ser"] == "Austria"   # not yet
    (rec,) = run(g, {"Austria": [Retreat("A", "ser", "tri")]})
    assert rec.sc_owners["ser"] == "Turkey" and rec.sc_owners["rum"] == "Turkey"
    assert rec.sc_owners.get("bul") is None    # left in Fall: never occupied at the end of a Fall


def test_winter_skipped_when_builds_cannot_be_placed():
    # England gains a centre but every home centre is occupied: nothing to do in Winter
    g = at(new_game(), "F1901M", {"England": ["F edi", "F lon", "A lvp", "F nwy"]},
           {"England": ["edi", "lon", "lvp"]}, others=False)
    (rec,) = run(g)
    assert rec.sc_owners["nwy"] == "England"
    assert str(g.phase) == "S1902M"


def test_winter_when_a_power_must_remove():
    g = at(new_game(), "F1901M", {"Germany": ["A ber", "A mun", "F kie", "A sil"]},
           {"Germany": ["ber", "kie", "mun"]}, others=False)
    run(g)
    assert str(g.phase) == "W1901A"
    (rec,) = run(g)
    assert [r.reason.code for r in rec.results] == ["civil_disorder"]
    assert str(g.phase) == "S1902M" and len(g.position.units) == 3


def test_history_is_immutable_and_records_everything():
    g = new_game()
    run(g, {"France": [Move("A", "par", "bur"), Hold("A", "mar")]})
    rec = g.history[0]
    assert len(g.history) == 1 and not hasattr(g.history, "__setitem__")   # read-only
    assert rec.position_before.phase == "S1901M" and rec.position_after.phase == "F1901M"
    assert [e.order for e in rec.orders["France"]] == [Move("A", "par", "bur"), Hold("A", "mar")]
    with pytest.raises(AttributeError):
        rec.phase = "X"
    assert g.record("s1901m") is rec
    with pytest.raises(GameError, match="no adjudicated phase F1905M"):
        g.record("F1905M")


def test_times_must_be_aware():
    g = new_game()
    with pytest.raises(GameError, match="time zone"):
        g.process(datetime(2025, 1, 1))
    with pytest.raises(GameError, match="time zone"):
        Game.create("x", now=datetime(2025, 1, 1), seed=1)
    with pytest.raises(GameError, match="game name"):
        Game.create("no spaces", now=T0, seed=1)
