"""The deadline scheduler (issue 4 §1): jobs rebuilt from the wakeup index at
start-up, past deadlines enqueued at once as outage work, jobs only enqueue,
times from the injected clock."""

from __future__ import annotations

import queue
import time
from datetime import datetime, timedelta, timezone

from judge.game import Game, Player, turns
from judge.scheduler import DeadlineScheduler, Work, next_event
from judge.storage.indexes import wakeup_row

T0 = datetime(2025, 1, 6, 12, tzinfo=timezone.utc)
H = timedelta(hours=1)


class Clock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def started(name: str, start: datetime = T0) -> Game:
    g = Game.create(name, now=start, seed=1)
    for p in g.map.powers:
        g.players[p] = Player((f"{p.lower()}@example.org",))
    turns.start(g, start)
    return g


def test_next_event_comes_from_the_wakeup_row():
    g = started("a")
    assert turns.next_event(g) == (T0 + 24 * H, T0 + 48 * H)           # the 24 h reminder
    assert next_event(wakeup_row(g)) == (T0 + 24 * H, T0 + 48 * H)
    g.schedule = g.schedule.__class__(**{**g.schedule.__dict__, "reminded": (24.0, 1.0)})
    assert next_event(wakeup_row(g)) == (T0 + 48 * H, T0 + 48 * H)
    turns.pause(g, T0)
    assert next_event(wakeup_row(g)) == (T0 + 14 * 24 * H, None)
    assert wakeup_row(Game.create("b", now=T0, seed=1)) is None and next_event(None) == (None, None)
    assert next_event({"when": "soon"}) == (None, None)


def test_startup_enqueues_past_deadlines_as_outage_and_schedules_the_rest():
    games = {"late": started("late", T0 - 100 * H), "soon": started("soon"),
             "idle": Game.create("idle", now=T0, seed=1)}
    docs = {k: wakeup_row(g) for k, g in games.items() if wakeup_row(g)}
    work: queue.Queue = queue.Queue()
    clock = Clock(T0)
    s = DeadlineScheduler(lambda: docs, work.put, clock, rescan_seconds=3600)
    s.start()
    try:
        assert work.get_nowait() == Work("outage", "late", "S1901M")
        assert work.empty()
        jobs = s.jobs()
        assert set(jobs) == {"soon"}
        real = jobs["soon"] - datetime.now(timezone.utc)
        assert timedelta(hours=23.9) < real <= timedelta(hours=24)
        # a rescan does not enqueue the same event again
        s.rescan()
        assert work.empty()
        # the clock jumps past the reminder: the next rescan enqueues a tick
        clock.now = T0 + 25 * H
        s.rescan()
        assert work.get_nowait() == Work("tick", "soon", "S1901M")
        # the writer did its work and tells the scheduler: the next event is planned
        g = games["soon"]
        turns.tick(g, clock.now)
        s.update("soon", wakeup_row(g))
        assert work.empty() and "soon" in s.jobs()
        s.update("soon", None)
        assert "soon" not in s.jobs()
    finally:
        s.stop()


def test_a_job_fires_after_the_clock_time_left_and_only_enqueues():
    g = started("quick")
    # the deadline is 2 seconds away on the injected clock
    clock = Clock(g.schedule.deadline - timedelta(seconds=0.5))
    g.schedule = g.schedule.__class__(**{**g.schedule.__dict__, "reminded": (24.0, 1.0)})
    doc = g.to_dict()
    work: queue.Queue = queue.Queue()
    s = DeadlineScheduler(lambda: {"quick": wakeup_row(g)}, work.put, clock, rescan_seconds=3600)
    s.start()
    try:
        assert work.empty()
        t = time.monotonic()
        item = work.get(timeout=5)
        assert item == Work("tick", "quick", "S1901M") and 0.3 < time.monotonic() - t < 3
    finally:
        s.stop()
    assert doc == g.to_dict()        # the job changed nothing itself
