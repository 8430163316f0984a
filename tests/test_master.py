"""GM operations (issue 4 §5): deadlines, PROCESS, ROLLBACK, EJECT, REPLACE,
BECOME and settings, each with a clear error when refused."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from judge.game.history import History
from judge.game import Game, GameError, Player, turns
from judge.game import master
from judge.game.deadlines import Timing
from judge.game.notices import GM
from judge.rules.orders import Hold, Move, RetreatPreference

UTC = timezone.utc
T0 = datetime(2025, 1, 6, 12, tzinfo=UTC)
H = timedelta(hours=1)


def new_game(start=True) -> Game:
    g = Game.create("m", now=T0, seed=3)
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",), "hash")
    if start:
        turns.start(g, T0)
    return g


def test_set_deadline_starts_or_moves_the_clock():
    g = new_game(start=False)
    n, *reminders = master.set_deadline(g, T0 + 5 * H, T0)
    assert n.kind == "deadline" and g.schedule.deadline == T0 + 5 * H and g.schedule.phase == "S1901M"
    # 5 h left, inside the 24 h reminder window: everyone is reminded at once (issue 13 point 7)
    assert [r.kind for r in reminders] == ["reminder"] * 7 and reminders[0].data["hours"] == 5
    assert g.schedule.reminded == (24.0,)
    with pytest.raises(GameError, match="future"):
        master.set_deadline(g, T0 - H, T0)


def test_extend_from_the_deadline_or_from_now_and_it_ends_grace():
    g = new_game()
    master.extend(g, 24, T0)
    assert g.schedule.deadline == T0 + 72 * H
    turns.tick(g, T0 + 72 * H)
    assert g.schedule.late
    master.extend(g, 2, T0 + 80 * H)
    assert g.schedule.deadline == T0 + 82 * H and not g.schedule.late
    with pytest.raises(GameError, match="above 0"):
        master.extend(g, 0, T0)
    with pytest.raises(GameError, match="no running clock"):
        master.extend(new_game(start=False), 1, T0)


def test_process_now_adjudicates_and_opens_the_next_phase():
    g = new_game()
    step = master.process_now(g, T0 + H)
    assert [r.phase for r in step.records] == ["S1901M"] and step.notices[0].kind == "results"
    assert g.schedule.phase == "F1901M" and g.schedule.deadline == T0 + 49 * H
    # a game without a clock may be processed by the GM too; it stays without one
    g = new_game(start=False)
    master.process_now(g, T0)
    assert str(g.phase) == "F1901M" and g.schedule.deadline is None


def test_rollback_restores_position_orders_and_standing_lists():
    g = new_game()
    g.submit("France", [Move("A", "par", "bur"), RetreatPreference("A", "mar", ("gas", "spa"))], T0)
    spring = [r for r in g.submit("Germany", [Move("A", "mun", "bur")], T0)]
    assert all(r.ok for r in spring)
    master.process_now(g, T0 + H)
    g.submit("France", [Hold("A", "mar")], T0 + 2 * H)
    master.process_now(g, T0 + 3 * H)
    assert len(g.history) == 2
    start_of_fall = g.history[1].position_before
    [n] = master.rollback(g, "f1901m", T0 + 4 * H)
    assert n.kind == "rollback" and n.data["phase"] == "F1901M"
    assert str(g.phase) == "F1901M" and g.position == start_of_fall and len(g.history) == 1
    assert [e.order for e in g.orders["France"]] == [Hold("A", "mar")]
    assert g.schedule.phase == "F1901M" and g.schedule.deadline == T0 + 52 * H
    # back to the very start: the standing retreat list written then is an order again
    master.rollback(g, "S1901M", T0 + 5 * H)
    assert g.history == () and g.standing == {}
    assert RetreatPreference("A", "mar", ("gas", "spa")) in [e.order for e in g.orders["France"]]
    with pytest.raises(GameError, match="no adjudicated phase W1905A"):
        master.rollback(g, "W1905A", T0)
    with pytest.raises(GameError, match="not a phase name"):
        master.rollback(g, "summer", T0)


def test_rollback_forgets_later_nmrs():
    g = new_game()
    master.process_now(g, T0 + H)         # everybody missed Spring
    assert g.schedule.nmr["France"] == 1
    master.rollback(g, "S1901M", T0 + 2 * H)
    assert g.schedule.nmr == {} and g.schedule.missed == {}


def test_eject_replace_and_become():
    g = new_game()
    with pytest.raises(GameError, match="has a player"):
        master.check_become(g, "Italy")
    notices = master.eject(g, "italy", T0)
    assert [n.kind for n in notices] == ["ejected", "ejected_player"]
    assert notices[0].to == (GM,) and notices[1].to == ("mailto:italy@example.org",)
    assert g.players["Italy"] == Player()
    assert master.check_become(g, "Italy") == "Italy"
    with pytest.raises(GameError, match="nobody plays Italy"):
        master.eject(g, "Italy", T0)
    g.schedule = g.schedule.__class__(**{**g.schedule.__dict__, "abandoned": frozenset({"Russia"}),
                                         "nmr": {"Russia": 3}})
    assert master.check_become(g, "Russia") == "Russia"
    notices = master.replace_power(g, "Russia", "newhash", T0)
    assert [n.kind for n in notices] == ["replacing", "ejected_player"]
    assert g.players["Russia"].addresses == () and g.players["Russia"].password_hash == "newhash"
    assert "Russia" not in g.schedule.abandoned and "Russia" not in g.schedule.nmr
    with pytest.raises(GameError, match="no power"):
        master.eject(g, "Atlantis", T0)


def test_settings_changes():
    g = new_game()
    [n] = master.change(g, ["timezone=Europe/Paris", "movement=20:00/12h", "retreat=1d", "days=mon-fri",
                            "grace=0", "reminders=24,1h", "early=no", "outage=extend", "press=grey",
                            "gunboat=yes", "abandon_after=2", "absence_max=10", "solo=16",
                            "combined_orders=yes"], T0)
    s = g.settings
    assert n.kind == "settings" and n.data["changes"][0] == "timezone=Europe/Paris"
    assert s.deadlines.timezone == "Europe/Paris"
    assert s.deadlines.movement == Timing(48, "20:00", 12, ("mon", "tue", "wed", "thu", "fri"))
    assert s.deadlines.retreat.hours == 24 and s.deadlines.grace_hours == 0
    assert s.deadlines.reminders == (24, 1) and not s.deadlines.early and s.deadlines.outage == "extend"
    assert (s.press.allowed, s.press.white, s.press.grey, s.press.anonymous) == (True, False, True, True)
    assert s.nmr.abandon_after == 2 and s.nmr.absence_max_days == 10
    assert s.victory.solo_centres == 16 and s.house.combined_orders
    before = g.settings
    for bad, message in [("timezone=Mars/Base", "unknown time zone"), ("movement=soon", "not a length"),
                         ("days=someday", "weekdays"), ("press=loud", "none, white"),
                         ("colour=red", "key=value"), ("abandon_after=-1", "whole number")]:
        with pytest.raises(GameError, match=message):
            master.change(g, ["grace=5h", bad], T0)
        assert g.settings == before
    from judge.game.setting_text import describe_settings, hours_of
    assert hours_of("1d12h") == 36 and hours_of("90m") == 1.5 and hours_of("30s") == 1 / 120
    text = describe_settings(g.settings)
    assert (text["movement"], text["days"], text["press"], text["reminders"], text["grace"]) == \
        ("20:00/12h", "mon,tue,wed,thu,fri", "grey", "24h,1h", "0")
    assert change_settings_back(g.settings, text) == g.settings


def change_settings_back(settings, text):
    """Every described key=value reads back to the same settings."""
    from judge.game import Settings
    from judge.game.setting_text import change_settings
    return change_settings(Settings(), [f"{k}={v}" for k, v in text.items()], settings.deadlines.timezone)


def test_end_at_without_an_offset_is_in_the_games_time_zone():
    """CREATE and SET read end_at in the game's zone, a timezone= of the same
    command first (the GM writes local time, like deadlines)."""
    from judge.game import Settings
    from judge.game.setting_text import change_settings
    s = change_settings(Settings(), ["end_at=2027-01-01T00:00", "timezone=Asia/Shanghai"])
    assert s.victory.end_at == datetime(2026, 12, 31, 16, tzinfo=UTC)
    g = new_game()
    master.change(g, ["timezone=Europe/Paris"], T0)
    master.change(g, ["end_at=2027-07-01T12:00"], T0)
    assert g.settings.victory.end_at == datetime(2027, 7, 1, 10, tzinfo=UTC)
    master.change(g, ["end_at=2027-07-01T12:00Z"], T0)           # an offset wins
    assert g.settings.victory.end_at == datetime(2027, 7, 1, 12, tzinfo=UTC)


def test_gm_end_passive_and_award_send_the_final_report():
    g = new_game()
    assert master.rule_passive(g, "Italy", 3, T0) == []          # the game runs: recorded, nothing mailed
    assert master.name_award(g, "strategy", "France", T0) == []
    [over] = master.end_game(g, T0 + H)
    assert over.kind == "game_over" and g.finished and g.schedule.deadline is None
    assert set(g.ending.result.winners) == set(g.map.powers)
    [again] = master.rule_passive(g, "Italy", None, T0 + 2 * H)  # after the end: the report again, new key
    assert again.kind == "game_over" and again.key != over.key and "Italy" not in again.data["passive"]
    [third] = master.name_award(g, "diplomacy", "Russia", T0 + 3 * H)
    assert third.key not in (over.key, again.key)
    with pytest.raises(GameError):
        master.end_game(g, T0 + 4 * H)


def test_the_gm_is_told_when_a_replacement_takes_a_power():
    from judge.game.nmr import took_over
    g = new_game()
    assert took_over(g, "Italy", "new@example.org", T0) == []     # a first join: nothing to tell
    master.replace_power(g, "Italy", "hash2", T0)
    g.players["Italy"] = Player(("new@example.org",), "hash2")
    [n] = took_over(g, "Italy", "new@example.org", T0 + H)
    assert n.kind == "took_over" and n.to == (GM,) and n.data["address"] == "new@example.org"
    assert n.data["power"] == "Italy" and n.data["phase"] == "S1901M"
    g = new_game()
    g.history = History([object()])                                          # a late join into a game under way
    assert [n.kind for n in took_over(g, "Turkey", "late@example.org", T0)] == ["took_over"]
