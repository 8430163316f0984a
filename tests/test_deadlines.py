"""Deadlines (issue 4 §1): durations and clock times in the game's time zone,
DST-safe; reminders; who is complete; settings round trips."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from judge.game import Game, Player, Settings
from judge.game.deadlines import (
    DeadlineSettings, Timing, add_wall_clock, grace_end, is_complete, local_to_utc, next_deadline,
    orders_needed, push_past_absences, reminders_due,
)
from judge.game.schedule import Schedule
from judge.rules.orders import Build, Hold, Move

UTC = timezone.utc
PARIS = ZoneInfo("Europe/Paris")


def paris(*args) -> datetime:
    return local_to_utc(datetime(*args), PARIS)


def test_a_day_long_phase_keeps_the_wall_clock_across_spring_forward():
    # Saturday 29 March 2025 20:00 in Paris (CET); clocks go forward that night
    s = DeadlineSettings(timezone="Europe/Paris", movement=Timing(24))
    start = paris(2025, 3, 29, 20, 0)
    assert start == datetime(2025, 3, 29, 19, 0, tzinfo=UTC)
    deadline = next_deadline(s, "M", start)
    assert deadline.astimezone(PARIS).replace(tzinfo=None) == datetime(2025, 3, 30, 20, 0)
    assert deadline == datetime(2025, 3, 30, 18, 0, tzinfo=UTC)      # CEST: 23 real hours later
    assert deadline - start == timedelta(hours=23)


def test_a_clock_time_deadline_on_the_spring_forward_day_is_at_that_local_time():
    s = DeadlineSettings(timezone="Europe/London", movement=Timing(at="20:00"))
    start = datetime(2025, 3, 29, 21, 0, tzinfo=UTC)                # Sat 21:00 GMT, after 20:00
    deadline = next_deadline(s, "M", start)
    assert deadline.astimezone(ZoneInfo("Europe/London")).strftime("%a %H:%M %Z") == "Sun 20:00 BST"
    assert deadline == datetime(2025, 3, 30, 19, 0, tzinfo=UTC)


def test_autumn_back_and_a_skipped_hour():
    s = DeadlineSettings(timezone="Europe/Paris", movement=Timing(48))
    start = paris(2025, 10, 25, 20, 0)                               # Sat 20:00 CEST
    deadline = next_deadline(s, "M", start)
    assert deadline.astimezone(PARIS).strftime("%d %H:%M %Z") == "27 20:00 CET"
    assert deadline - start == timedelta(hours=49)
    # 02:30 does not exist in Paris on 30 March 2025: it moves forward by the gap
    assert local_to_utc(datetime(2025, 3, 30, 2, 30), PARIS).astimezone(PARIS).strftime("%H:%M") == "03:30"
    # 02:30 exists twice on 26 October 2025: the first
    assert local_to_utc(datetime(2025, 10, 26, 2, 30), PARIS) == datetime(2025, 10, 26, 0, 30, tzinfo=UTC)


def test_hours_beyond_whole_days_are_real_hours():
    zone = ZoneInfo("Europe/Paris")
    start = paris(2025, 3, 29, 20, 0)
    assert add_wall_clock(start, 36, zone) == datetime(2025, 3, 31, 6, 0, tzinfo=UTC)
    assert add_wall_clock(start, 1.5, zone) == start + timedelta(hours=1.5)


def test_weekdays_and_minimum_time():
    s = DeadlineSettings(timezone="UTC", movement=Timing(at="18:00", min_hours=36,
                                                         days=("mon", "tue", "wed", "thu", "fri")))
    friday_noon = datetime(2025, 6, 6, 12, 0, tzinfo=UTC)
    # at least 36 h: Sat 24:00 at the earliest; the weekend is skipped -> Monday 18:00
    assert next_deadline(s, "M", friday_noon) == datetime(2025, 6, 9, 18, 0, tzinfo=UTC)
    s = DeadlineSettings(retreat=Timing(24, days=("mon",)))
    assert next_deadline(s, "R", friday_noon) == datetime(2025, 6, 9, 12, 0, tzinfo=UTC)


def test_grace_reminders_and_absences():
    s = DeadlineSettings(grace_hours=24, reminders=(1, 24))
    assert s.reminders == (24.0, 1.0)
    d = datetime(2025, 1, 10, 12, tzinfo=UTC)
    opened = d - timedelta(hours=48)
    assert grace_end(s, d) == d + timedelta(hours=24)
    assert reminders_due(s, d, opened, (), d - timedelta(hours=30)) == []
    assert reminders_due(s, d, opened, (), d - timedelta(hours=23)) == [24.0]
    assert reminders_due(s, d, opened, (24.0,), d - timedelta(hours=23)) == []
    # both due at once (the judge was busy): only the closer one is sent
    assert reminders_due(s, d, opened, (), d - timedelta(minutes=30)) == [1.0]
    assert reminders_due(s, d, opened, (), d) == []
    # a reminder before the phase opened is never due
    assert reminders_due(s, d, d - timedelta(hours=12), (), d - timedelta(hours=2)) == []
    a = [(d - timedelta(hours=1), d + timedelta(days=2)), (d + timedelta(days=2), d + timedelta(days=3))]
    assert push_past_absences(d, a) == d + timedelta(days=3)
    assert push_past_absences(d - timedelta(hours=2), a) == d - timedelta(hours=2)


@pytest.mark.parametrize("data, message", [
    ({"timezone": "Mars/Olympus"}, "unknown time zone"),
    ({"movement": {"hours": 0}}, "hours must be"),
    ({"movement": {"at": "25:00"}}, "clock time"),
    ({"retreat": {"days": ["fun"]}}, "name weekdays"),
    ({"outage": "panic"}, "outage must be one of"),
    ({"reminders": [-1]}, "reminders"),
    ({"colour": 1}, "unknown key in settings.deadlines: colour"),
])
def test_bad_settings_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        Settings.from_dict({"deadlines": data})


def test_settings_and_schedule_round_trip_and_old_games_load():
    s = Settings.from_dict({"deadlines": {"timezone": "Asia/Shanghai", "movement": {"at": "21:00",
                                                                                   "days": "mon,wed"}},
                            "press": {"grey": True}, "nmr": {"abandon_after": 3}})
    assert Settings.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    assert s.deadlines.movement.days == ("mon", "wed")
    t = datetime(2025, 1, 1, tzinfo=UTC)
    sched = Schedule("S1901M", t, t + timedelta(days=2), True, (24.0,), frozenset({"France"}), t, t, 5.0,
                     {"Italy": ((t, t + timedelta(days=1)),)}, {"Italy": 1.0}, {"Italy": 2},
                     {"Italy": ("S1901M",)}, frozenset({"Italy"}))
    assert Schedule.from_dict(json.loads(json.dumps(sched.to_dict()))) == sched
    g = Game.create("old", now=t, seed=1)
    doc = g.to_dict()
    for key in ("schedule", "observers"):
        del doc[key]
    for key in ("deadlines", "nmr", "press"):
        del doc["settings"][key]
    old = Game.from_dict(doc)
    assert old.schedule == Schedule() and old.observers == {} and old.settings == Settings()


def _game() -> Game:
    g = Game.create("d", now=datetime(2025, 1, 1, tzinfo=UTC), seed=1)
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",))
    return g


def test_complete_orders_per_phase_kind():
    g = _game()
    now = datetime(2025, 1, 1, 1, tzinfo=UTC)
    assert not is_complete(g, "France")
    g.submit("France", [Hold("A", "par"), Move("A", "mar", "bur")], now)
    assert not is_complete(g, "France")
    g.submit("France", [Move("F", "bre", "mao")], now)
    assert is_complete(g, "France")
    # an adjustment phase: France builds one; Austria has nothing to do
    from judge.rules.position import Position
    pos = g.position
    owners = dict(pos.sc_owners, spa="France")
    g.position = Position("W1901A", {p: u for p, u in pos.units.items() if p != "par"}, owners)
    g.orders = {}
    assert orders_needed(g, "France") and not orders_needed(g, "Austria")
    assert is_complete(g, "Austria") and not is_complete(g, "France")
    g.submit("France", [Build("A", "par")], now)
    assert is_complete(g, "France")
