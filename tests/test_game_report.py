"""The results text (what a results mail carries): orders with results and
reasons, dislodged units and their retreats, SC table, adjustments, next phase."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from judge.game import Game, HouseRules, Settings
from judge.game.report import latest_records, results_text
from judge.rules.orders import Build, Move, Support
from judge.rules.position import Position, Unit

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


def fall_with_dislodgement(**house) -> Game:
    g = Game.create("rep", now=T0, seed=3, settings=Settings(house=HouseRules(**house)))
    g.position = Position("F1901M", {"ser": Unit("Austria", "A", "ser"), "bud": Unit("Austria", "A", "bud"),
                                     "bul": Unit("Turkey", "A", "bul"), "rum": Unit("Turkey", "A", "rum"),
                                     "war": Unit("Russia", "A", "war")}, dict(g.position.sc_owners))
    g.submit("Turkey", [Move("A", "bul", "ser"), Support("A", "rum", "A", "bul", "ser")], T0)
    g.submit("Austria", [Move("A", "bud", "gal")], T0)
    g.submit("Russia", [Move("A", "war", "gal")], T0)
    g.process(T0 + timedelta(days=1))
    return g


def test_movement_results():
    g = fall_with_dislodgement()
    text = results_text(g, latest_records(g))
    assert "Game rep: Fall 1901 Movement (F1901M), adjudicated 2025-03-02 12:00 UTC" in text
    assert "Turkey:  A Bul - Ser." in text
    assert "Austria: A Bud - Gal.  (bounced)" in text
    assert "Austria: A Ser H.  (no order; dislodged)" in text
    assert "Turkey:  A Rum S A Bul - Ser." in text
    assert "Austria: A Serbia may retreat to Albania, Greece, Trieste." in text
    assert "Supply centres" not in text                     # not yet: Fall retreats come first
    assert text.rstrip().endswith("Next phase: Fall 1901 Retreat (F1901R)")


def test_retreat_results_with_default_and_sc_table():
    g = fall_with_dislodgement(default_retreat="house")
    (rec,) = g.process(T0 + timedelta(days=2))
    text = results_text(g, [rec])
    assert "Austria: A Ser - Tri.  (judge's default)" in text
    assert "Supply centres:" in text
    assert "Austria:  3  Budapest, Trieste, Vienna" in text
    assert "Turkey:   5  Ankara, Constantinople, Rumania, Serbia, Smyrna" in text    # bul left in Fall
    assert "Unowned: 10  Belgium, Bulgaria," in text
    assert "Adjustments due:" in text and "Turkey:  builds 3" in text
    assert text.rstrip().endswith("Next phase: Winter 1901 Adjustment (W1901A)")


def test_nothing_adjudicated_yet():
    g = Game.create("rep", now=T0, seed=3)
    assert latest_records(g) == []


def test_unused_builds_are_told():
    g = Game.create("rep", now=T0, seed=3)
    g.position = Position("W1901A", {"ven": Unit("Italy", "A", "ven")},
                          {"ven": "Italy", "rom": "Italy", "nap": "Italy"})
    g.submit("Italy", [Build("A", "rom")], T0)
    (rec,) = g.process(T0)
    text = results_text(g, [rec])
    assert "Italy:   Build A Rom." in text and "Italy:   1 build(s) not used." in text
