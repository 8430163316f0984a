"""The game on its own clock (issue 4 §1-2): reminders, early processing and
WAIT, late notices and the grace period, NMR and abandonment, pauses, the
outage guard, absences. The clock is a plain argument."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from judge.game import Game, GameError, Player, Settings
from judge.game import nmr, turns
from judge.game.deadlines import DeadlineSettings, Timing
from judge.game.nmr import NmrSettings
from judge.game.notices import GM, OBSERVERS, PLAYERS
from judge.rules.orders import Hold

UTC = timezone.utc
T0 = datetime(2025, 1, 6, 12, tzinfo=UTC)      # a Monday
H = timedelta(hours=1)

HOLD_ALL = {
    "Austria": [Hold("A", "vie"), Hold("A", "bud"), Hold("F", "tri")],
    "England": [Hold("F", "lon"), Hold("F", "edi"), Hold("A", "lvp")],
    "France": [Hold("F", "bre"), Hold("A", "par"), Hold("A", "mar")],
    "Germany": [Hold("F", "kie"), Hold("A", "ber"), Hold("A", "mun")],
    "Italy": [Hold("F", "nap"), Hold("A", "rom"), Hold("A", "ven")],
    "Russia": [Hold("F", "stp/sc"), Hold("A", "mos"), Hold("A", "war"), Hold("F", "sev")],
    "Turkey": [Hold("F", "ank"), Hold("A", "con"), Hold("A", "smy")],
}


def new_game(**deadlines) -> Game:
    settings = Settings(deadlines=DeadlineSettings(**deadlines))
    g = Game.create("t", now=T0, seed=7, settings=settings)
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",))
    turns.start(g, T0)
    return g


def order_all(g: Game, now: datetime, but=()) -> None:
    for p, orders in HOLD_ALL.items():
        if p not in but:
            g.submit(p, orders, now)


def kinds(step) -> list[tuple[str, tuple]]:
    return [(n.kind, n.to) for n in step.notices]


def test_start_sets_the_first_deadline_and_tells_everyone():
    g = Game.create("s", now=T0, seed=1)
    [n] = turns.start(g, T0)
    assert n.kind == "started" and set(n.to) == {PLAYERS, OBSERVERS, GM}
    assert g.schedule.deadline == T0 + 48 * H and g.schedule.phase == "S1901M"
    with pytest.raises(GameError, match="started already"):
        turns.start(g, T0)


def test_reminders_go_to_incomplete_players_only_once():
    g = new_game(reminders=(24, 1))
    g.submit("France", HOLD_ALL["France"], T0)
    assert turns.due_at(g) == T0 + 24 * H
    assert turns.tick(g, T0 + 23 * H).notices == []
    step = turns.tick(g, T0 + 24 * H)
    reminded = {n.to[0] for n in step.notices}
    assert {n.kind for n in step.notices} == {"reminder"}
    assert reminded == set(HOLD_ALL) - {"France"}
    assert turns.tick(g, T0 + 25 * H).notices == []
    assert turns.due_at(g) == T0 + 47 * H
    [r] = [n for n in turns.tick(g, T0 + 47 * H).notices if n.to == ("Italy",)]
    assert r.data["hours"] == 1 and r.data["missing"] == [("F", "nap"), ("A", "rom"), ("A", "ven")]


def test_early_processing_when_all_orders_are_in_and_nobody_waits():
    g = new_game()
    order_all(g, T0 + H, but=("Turkey",))
    assert turns.tick(g, T0 + H).records == []
    turns.set_wait(g, "France", True)
    order_all(g, T0 + 2 * H)
    assert turns.tick(g, T0 + 2 * H).records == []          # France waits
    turns.set_wait(g, "France", False)
    step = turns.tick(g, T0 + 3 * H)
    assert [r.phase for r in step.records] == ["S1901M"]
    assert step.notices[0].kind == "results" and step.notices[0].key == "t:S1901M:results"
    assert g.schedule.phase == "F1901M" and g.schedule.deadline == T0 + 51 * H
    assert g.schedule.wait == frozenset() and g.schedule.nmr == {}


def test_early_processing_can_be_off_and_vacant_powers_do_not_block():
    g = new_game(early=False)
    order_all(g, T0)
    assert turns.tick(g, T0 + H).records == []
    g = new_game()
    g.players["Turkey"] = Player()
    order_all(g, T0, but=("Turkey",))
    assert [r.phase for r in turns.tick(g, T0 + H).records] == ["S1901M"]
    assert g.schedule.missed == {"Turkey": ("S1901M",)}


def test_late_notice_then_late_orders_process_at_once():
    g = new_game(grace_hours=24)
    order_all(g, T0, but=("Italy",))
    step = turns.tick(g, T0 + 48 * H)
    assert kinds(step) == [("late", ("Italy",)), ("late_gm", (GM,))]
    assert step.notices[0].data["grace"] == T0 + 72 * H
    assert g.schedule.late and turns.due_at(g) == T0 + 72 * H
    assert turns.tick(g, T0 + 49 * H).notices == []
    g.submit("Italy", HOLD_ALL["Italy"], T0 + 50 * H)
    step = turns.tick(g, T0 + 50 * H)
    assert [r.phase for r in step.records] == ["S1901M"] and g.schedule.nmr == {}


def test_at_the_end_of_grace_the_defaults_apply_and_the_nmr_is_recorded():
    g = new_game(grace_hours=12)
    order_all(g, T0, but=("Italy",))
    turns.tick(g, T0 + 48 * H)
    step = turns.tick(g, T0 + 60 * H)
    [rec] = step.records
    italy = [r for r in rec.results if r.power == "Italy"]
    assert {r.reason.code for r in italy} == {"no_order"} and all(isinstance(r.order, Hold) for r in italy)
    assert g.schedule.nmr == {"Italy": 1} and g.schedule.missed == {"Italy": ("S1901M",)}
    assert step.notices[0].data["missed"] == {"S1901M": ["Italy"]}


def test_no_grace_processes_at_the_deadline():
    g = new_game(grace_hours=0)
    step = turns.tick(g, T0 + 48 * H)
    assert [r.phase for r in step.records] == ["S1901M"]


def test_a_player_who_misses_n_phases_is_abandoned_and_the_gm_told():
    settings = Settings(deadlines=DeadlineSettings(grace_hours=0), nmr=NmrSettings(abandon_after=2))
    g = Game.create("a", now=T0, seed=1, settings=settings)
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",))
    turns.start(g, T0)
    order_all(g, T0, but=("Italy",))
    turns.tick(g, T0 + 48 * H)
    assert g.schedule.abandoned == frozenset()
    t = g.schedule.deadline
    order_all(g, t - H, but=("Italy",))     # Fall: Italy misses again
    step = turns.tick(g, t)
    [ab] = [n for n in step.notices if n.kind == "abandoned"]
    assert ab.to == (GM,) and ab.data["power"] == "Italy" and ab.data["missed"] == ["S1901M", "F1901M"]
    assert g.schedule.abandoned == {"Italy"}
    # an abandoned power no longer blocks early processing nor gets reminders
    assert not nmr.playing(g, "Italy")


def test_pause_and_resume_give_back_the_time_left():
    g = new_game()
    n = turns.pause(g, T0 + 10 * H, 24)
    assert n.kind == "paused" and g.schedule.paused
    assert turns.due_at(g) == T0 + 34 * H
    assert turns.tick(g, T0 + 50 * H - 17 * H).records == []
    turns.resume(g, T0 + 11 * H)
    with pytest.raises(GameError, match="at most"):
        turns.pause(g, T0 + 11 * H, 10_000)
    with pytest.raises(GameError, match="not paused"):
        turns.resume(g, T0 + 11 * H)
    # resumed by hand after 5 hours: 38 hours were left
    g2 = new_game()
    turns.pause(g2, T0 + 10 * H)
    [r] = turns.resume(g2, T0 + 15 * H)
    assert r.kind == "resumed" and g2.schedule.deadline == T0 + 53 * H


def test_a_pause_ends_by_itself_at_its_limit():
    g = new_game(pause_limit_hours=24)
    turns.pause(g, T0 + 10 * H)
    step = turns.tick(g, T0 + 34 * H)
    assert [n.kind for n in step.notices] == ["resumed"] and not g.schedule.paused
    assert g.schedule.deadline == T0 + 72 * H


def test_outage_extend_moves_the_deadline_and_process_leaves_it():
    g = new_game(outage="extend", outage_hours=24)
    [n] = turns.outage(g, T0 + 50 * H)
    assert n.kind == "outage" and g.schedule.deadline == T0 + 74 * H
    assert turns.outage(g, T0 + 51 * H) == []
    g = new_game()
    assert turns.outage(g, T0 + 50 * H) == [] and g.schedule.deadline == T0 + 48 * H


def test_absence_moves_the_deadline_and_is_limited():
    g = new_game()
    moved = nmr.set_absence(g, "France", T0 + 40 * H, T0 + 80 * H, T0 + H)
    assert moved == T0 + 80 * H and g.schedule.deadline == T0 + 80 * H
    with pytest.raises(GameError, match="limited to 15 days"):
        nmr.set_absence(g, "France", T0 + 100 * H, T0 + 100 * H + timedelta(days=14), T0 + H)
    with pytest.raises(GameError, match="end after"):
        nmr.set_absence(g, "France", T0 + 100 * H, T0 + 90 * H, T0 + H)
    # the next phase's deadline is not put inside an absence either
    nmr.set_absence(g, "Italy", T0 + 100 * H, T0 + 200 * H, T0 + H)
    order_all(g, T0 + 2 * H)
    turns.tick(g, T0 + 60 * H)     # all in: processed early
    assert g.schedule.phase == "F1901M" and g.schedule.deadline == T0 + 200 * H


def test_fixed_clock_times_in_the_game_time_zone():
    g = new_game(timezone="Asia/Shanghai", movement=Timing(at="21:00", min_hours=24))
    # T0 is 20:00 in Shanghai; at least 24 h later -> tomorrow 21:00 local = 13:00 UTC
    assert g.schedule.deadline == datetime(2025, 1, 7, 13, tzinfo=UTC)


def test_the_phase_moved_on_by_hand_gets_a_fresh_clock():
    g = new_game()
    g.process(T0 + H)
    turns.tick(g, T0 + 2 * H)
    assert g.schedule.phase == "F1901M" and g.schedule.deadline == T0 + 50 * H


def test_nothing_happens_to_a_game_without_a_clock():
    g = Game.create("n", now=T0, seed=1)
    assert turns.tick(g, T0 + 1000 * H).records == [] and turns.due_at(g) is None
