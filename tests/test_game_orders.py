"""Orders per power: the last valid order for a unit wins (RULES.md §2), the
earlier one is kept as replaced; refused lines change nothing and say why."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from judge.text import english

from judge.game import Game, GameError, HouseRules, Line, Settings
from judge.rules.orders import (
    SUCCEEDS, Build, BuildPriority, Disband, DisbandPriority, Hold, Move, Retreat, RetreatPreference,
    Support, Waive,
)
from judge.rules.position import Position, Unit

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


def new_game(**kw) -> Game:
    return Game.create("orders", now=T0, seed=1, **kw)


def test_last_order_for_a_unit_wins():
    g = new_game()
    r1, = g.submit("France", [Line("A Par-Bur", Move("A", "par", "bur"))], T0)
    r2, = g.submit("france", [Line("A Par-Pic", Move("A", "par", "pic"))], T0 + timedelta(minutes=5))
    assert r1.ok and not r1.replaced
    assert r2.ok and [e.text for e in r2.replaced] == ["A Par-Bur"]
    entries = g.orders["France"]
    assert [(e.text, e.replaced) for e in entries] == [("A Par-Bur", True), ("A Par-Pic", False)]
    assert entries[1].received == T0 + timedelta(minutes=5)
    (rec,) = g.process(T0 + timedelta(days=1))
    france = [r for r in rec.results if r.power == "France"]
    assert Move("A", "par", "bur") not in [r.order for r in france]   # never given to the adjudicator
    assert g.position.units["pic"] == Unit("France", "A", "pic")
    assert [e.replaced for e in rec.orders["France"]] == [True, False]   # the record keeps both


def test_a_refused_order_does_not_replace_a_valid_one():
    g = new_game()
    g.submit("France", [Move("A", "par", "bur")], T0)
    bad, = g.submit("France", [Line("A Par-Mun", Move("A", "par", "mun"))], T0)
    assert not bad.ok and "Munich" in english(bad.error)
    assert [e.order for e in g.orders["France"] if not e.replaced] == [Move("A", "par", "bur")]


@pytest.mark.parametrize("order, reason", [
    (Move("A", "mun", "bur"), "belongs to Germany"),
    (Hold("A", "bel"), "no unit in Belgium"),
    (Move("F", "par", "bur"), "is an army"),
    (Build("A", "par"), "Winter adjustment phase"),
    (Retreat("A", "par", "bur"), "retreat phase"),
    (Disband("A", "par"), "Winter adjustment phase"),
])
def test_movement_phase_refusals(order, reason):
    g = new_game()
    r, = g.submit("France", [Line("x", order)], T0)
    assert not r.ok and reason in english(r.error)
    assert not g.orders


def test_parser_errors_are_refused_and_empty_lines_ignored():
    g = new_game()
    rs = g.submit("France", [Line("sevastapol", None, "unknown_province"), Line("# note", None),
                             Line("A Par H", Hold("A", "par"))], T0)
    assert [(r.input, r.ok) for r in rs] == [("sevastapol", False), ("A Par H", True)]
    assert rs[0].error == "unknown_province"


def test_bare_orders_are_taken():
    g = new_game()
    r, = g.submit("France", [Hold("A", "par")], T0)
    assert r.ok and g.orders["France"][0].text == ""


def test_unknown_power_and_naive_time():
    g = new_game()
    with pytest.raises(GameError, match='no power "Prussia"'):
        g.submit("Prussia", [], T0)
    with pytest.raises(GameError, match="time zone"):
        g.submit("France", [], datetime(2025, 1, 1))


def test_unordered_units():
    g = new_game()
    assert g.unordered("France") == ["bre", "mar", "par"]
    g.submit("France", [Move("A", "par", "bur"), RetreatPreference("A", "mar", ("gas",))], T0)
    assert g.unordered("France") == ["bre", "mar"]



def test_the_units_without_orders_follow_every_change_of_orders_and_board():
    """:meth:`Game.unordered_of` keeps its answer per position and per
    power's orders: a submit, orders set anew, a new board and a copy each
    get the answer worked out afresh, the same as a game never asked."""
    import copy
    from dataclasses import replace as dc_replace

    g = new_game()
    powers = list(g.map.powers)
    first = g.unordered_of(powers)
    assert g.unordered_of(powers) == first and first["France"] == ["bre", "mar", "par"]
    g.unordered_of(["France"])["France"].append("x")                 # a caller's list is its own
    assert g.unordered("France") == ["bre", "mar", "par"]
    g.submit("France", [Move("A", "par", "bur")], T0)
    assert g.unordered("France") == ["bre", "mar"] and g.unordered("Germany") == first["Germany"]
    g.orders = {**g.orders, "France": ()}
    assert g.unordered("France") == ["bre", "mar", "par"]
    units = {p: u for p, u in g.position.units.items() if p != "bre"}
    g.position = dc_replace(g.position, units=units)
    assert g.unordered("France") == ["mar", "par"]
    twin = copy.deepcopy(g)
    twin.submit("France", [Move("A", "mar", "spa")], T0)
    assert twin.unordered("France") == ["par"] and g.unordered("France") == ["mar", "par"]
    plain = new_game()
    plain.position, plain.orders = g.position, g.orders
    assert plain.unordered_of(powers) == g.unordered_of(powers)


def retreat_game() -> Game:
    g = new_game()
    g.position = Position("S1901M", {"ser": Unit("Austria", "A", "ser"), "bud": Unit("Austria", "A", "bud"),
                                     "bul": Unit("Turkey", "A", "bul"), "rum": Unit("Turkey", "A", "rum")},
                          dict(g.position.sc_owners))
    g.submit("Turkey", [Move("A", "bul", "ser"), Support("A", "rum", "A", "bul", "ser")], T0)
    g.process(T0)
    assert str(g.phase) == "S1901R"
    return g


def test_retreat_phase_orders():
    g = retreat_game()
    bad = g.submit("Austria", [Retreat("A", "ser", "bul"), Hold("A", "bud"), Retreat("A", "bud", "vie")], T0)
    assert [r.ok for r in bad] == [False, False, False]
    assert "cannot retreat to Bulgaria" in english(bad[0].error)
    assert "retreat phase" in english(bad[1].error)
    assert "no unit was dislodged in Budapest" in english(bad[2].error)
    rs = g.submit("Austria", [Retreat("A", "ser", "alb"), Disband("A", "ser")], T0)
    assert [r.ok for r in rs] == [True, True] and rs[1].replaced[0].order == Retreat("A", "ser", "alb")
    (rec,) = g.process(T0 + timedelta(hours=1))
    assert [u for u in g.position.units.values() if u.power == "Austria"] == [Unit("Austria", "A", "bud")]
    assert [(r.order, r.outcome) for r in rec.results] == [(Disband("A", "ser"), SUCCEEDS)]


def test_builds_beyond_the_count_replace_the_earliest():
    g = new_game()
    g.position = Position("W1901A", {"ven": Unit("Italy", "A", "ven"), "tun": Unit("Italy", "A", "tun")},
                          {"ven": "Italy", "rom": "Italy", "nap": "Italy", "tun": "Italy"})
    # 4 SCs, 2 units: two builds
    rs = g.submit("Italy", [Build("A", "rom"), Build("F", "nap"), Waive(), Build("F", "rom")], T0)
    assert all(r.ok for r in rs)
    assert [r.replaced for r in rs][:2] == [(), ()]
    assert [e.order for e in rs[2].replaced] == [Build("A", "rom")]      # third build: earliest goes
    assert [e.order for e in rs[3].replaced] == [Build("F", "nap")]
    active = [e.order for e in g.orders["Italy"] if not e.replaced]
    assert active == [Waive(), Build("F", "rom")]
    (rec,) = g.process(T0)
    assert g.position.units["rom"] == Unit("Italy", "F", "rom") and "nap" not in g.position.units


def test_adjustment_refusals_and_removal_count():
    g = new_game()
    g.position = Position("W1901A", {p: Unit("Italy", "A", p) for p in ("ven", "tyr", "pie", "apu")},
                          {"ven": "Italy", "rom": "Italy", "nap": "Italy"})
    # 3 SCs, 4 units: one removal
    bad = g.submit("Italy", [Build("A", "rom"), Waive(), Disband("A", "rom"), Move("A", "ven", "tri")], T0)
    assert [r.ok for r in bad] == [False] * 4
    assert "no builds" in english(bad[0].error) and "no unit in Rome" in english(bad[2].error)
    assert "adjustment phase" in english(bad[3].error)
    rs = g.submit("Italy", [Disband("A", "tyr"), Disband("A", "pie")], T0)
    assert [e.order for e in rs[1].replaced] == [Disband("A", "tyr")]
    g.process(T0)
    assert "pie" not in g.position.units and "tyr" in g.position.units


def test_standing_lists_replace_earlier_lists():
    g = new_game()
    g.submit("Italy", [BuildPriority((Build("A", "rom"),)), DisbandPriority((Disband("A", "ven"),)),
                       BuildPriority((Build("F", "nap"),))], T0)
    active = [e.order for e in g.orders["Italy"] if not e.replaced]
    assert active == [DisbandPriority((Disband("A", "ven"),)), BuildPriority((Build("F", "nap"),))]


def test_retreat_list_needs_own_unit_and_movement_or_retreat_phase():
    g = new_game()
    r, = g.submit("Italy", [RetreatPreference("A", "par", ("bur",))], T0)
    assert not r.ok and "the unit in Paris belongs to France" in english(r.error)
    g.position = Position("W1901A", g.position.units, g.position.sc_owners)
    r, = g.submit("Italy", [RetreatPreference("A", "ven", ("tyr",))], T0)
    assert not r.ok and "given with movement orders" in english(r.error)


def test_combined_mode_takes_fall_adjustment_orders():
    g = new_game(settings=Settings(house=HouseRules(combined_orders=True)))
    g.position = Position("F1901M", g.position.units, g.position.sc_owners)
    rs = g.submit("Germany", [Disband("A", "ber"), Build("F", "ber"), Build("A", "par"), Disband("A", "par")], T0)
    assert [r.ok for r in rs] == [True, True, False, False]
    assert "not a home centre of Germany" in english(rs[2].error)
    assert "the unit in Paris belongs to France" in english(rs[3].error)
    assert g.unordered("Germany") == ["ber", "kie", "mun"]   # a removal is not a movement order


def test_every_order_of_a_line_with_several_is_taken():
    """The house-rule text writes several orders on one line (a convoy by three
    fleets, 'A Berlin-Prussia, A Munich-Silesia'): none may be dropped."""
    from judge.maps import load_map, load_names
    from judge.notation.names import name_index
    from judge.notation.parser import ParseContext, parse_orders
    g = new_game()
    game_map = load_map("standard")
    ctx = ParseContext(game_map, name_index(game_map, load_names("standard")), "M", g.position, "Germany")
    receipts = g.submit("Germany", parse_orders("A Berlin-Prussia, A Munich-Silesia\nF Kie-Den", ctx), T0)
    assert [r.ok for r in receipts] == [True, True, True]
    assert {e.order for e in g.orders["Germany"]} == {
        Move("A", "ber", "pru"), Move("A", "mun", "sil"), Move("F", "kie", "den")}


def test_a_phase_keeps_the_last_hundred_replaced_orders_of_a_power():
    """Thousands of order mails in one phase (a player's script, or someone
    trying to slow the judge) keep the game's live state bounded: every
    order in force, and the last MAX_REPLACED replaced ones."""
    from judge.game.book import MAX_REPLACED
    g = Game.create("g", now=T0, seed=1)
    for i in range(MAX_REPLACED + 50):
        g.submit("France", [Line(f"A Par-Bur {i}", Move("A", "par", "bur"))], T0)
    g.submit("France", [Line("F Bre-Mao", Move("F", "bre", "mao"))], T0)
    entries = g.orders["France"]
    assert sum(e.replaced for e in entries) == MAX_REPLACED and len(entries) == MAX_REPLACED + 2
    assert [e.text for e in entries if not e.replaced] == [f"A Par-Bur {MAX_REPLACED + 49}", "F Bre-Mao"]
    assert entries[0].text == "A Par-Bur 49"           # the oldest 49 replaced ones are gone
