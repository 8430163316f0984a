"""Deadline jobs with APScheduler 3.x (issue 4 §1).

The deadlines live in the games (:attr:`Game.schedule`); the store keeps an
index of each running game's next event (table ``wakeups``,
:mod:`judge.storage.indexes`), written in the same commit as the game. The
scheduler keeps only in-memory jobs, rebuilt from that index at start-up —
no game is read — so there is nothing of its own to lose or to share between
processes. A job does not touch a game: it only hands a :class:`Work` item to
the single writer (``enqueue``), which loads the game, checks it is still in
the phase the item names (compare-and-set) and runs
:func:`judge.game.turns.tick`.

- At start-up every game whose next event (deadline, grace end, reminder,
  end of a pause) is past is enqueued at once, as ``"outage"`` work when the
  game's deadline itself passed while the judge was down (the writer applies
  the game's outage policy), with no misfire limit.
- Other games get a date job at their next event. Times come from the
  injected ``clock`` (UTC): a job fires after ``event - clock()`` seconds of
  real time.
- The writer calls :meth:`DeadlineScheduler.update` with a game's new
  wakeup row after every commit that changed the game — also for the
  ``judge game ...`` commands, which the writer runs too.
  A periodic rescan of the index (``rescan_seconds``) catches jumps of an
  injected clock.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.schedulers.background import BackgroundScheduler

from .game.codec import time_from_str

log = logging.getLogger("judge.scheduler")
logging.getLogger("apscheduler").setLevel(logging.WARNING)    # it logs every run of every job
RETRY_SECONDS = 30.0
"""An event still due after its work was enqueued is enqueued again only
after this long (the writer may have failed on it; it must not spin)."""


@dataclass(frozen=True)
class Work:
    """Work for the single writer: ``kind`` ``"tick"`` (do what is due) or
    ``"outage"`` (the judge was down past the deadline); ``game`` and the
    ``phase`` it was scheduled for (stale if the game has moved on)."""

    kind: str
    game: str
    phase: str | None


def next_event(row: dict | None) -> tuple[datetime | None, datetime | None]:
    """``(when, end)`` of a ``wakeups`` row (:func:`judge.game.turns.next_event`):
    the time of the game's next event and when its orders are finally due
    (None while paused). ``(None, None)`` for no row or a malformed one."""
    if not row:
        return None, None
    try:
        return time_from_str(row.get("when")), time_from_str(row.get("end"))
    except (TypeError, ValueError) as e:
        log.error("a wakeup row %r cannot be read (%s); no deadline job", row, e)
        return None, None


class DeadlineScheduler:
    """See module doc. ``load_wakeups()`` returns the ``wakeups`` index
    ``{game: row}``; ``enqueue(work)`` hands work to the writer; ``clock()``
    gives the time (aware UTC)."""

    def __init__(self, load_wakeups: Callable[[], dict[str, dict]], enqueue: Callable[[Work], None],
                 clock: Callable[[], datetime], *, rescan_seconds: float = 60.0):
        self.load_wakeups, self.enqueue, self.clock = load_wakeups, enqueue, clock
        self.rescan_seconds = rescan_seconds
        self._lock = threading.Lock()
        self._planned: dict[str, datetime] = {}   # game -> event time its job (or enqueue) is for
        self._enqueued: dict[str, tuple[datetime, float]] = {}   # game -> (event, monotonic time)
        self._scheduler = BackgroundScheduler(
            jobstores={"default": MemoryJobStore()}, executors={"default": ThreadPoolExecutor(2)},
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
            timezone=timezone.utc)

    # ---- life ------------------------------------------------------------------------
    def start(self) -> None:
        """Rebuild the jobs from the wakeup index (past events enqueued at
        once, see module doc) and start the scheduler thread."""
        count = self.rescan(startup=True)      # jobs added before the start go in at once
        self._scheduler.add_job(self.rescan, "interval", seconds=self.rescan_seconds, id="rescan",
                                replace_existing=True)
        self._scheduler.start()
        log.debug("scheduler: %d game(s) with a deadline", count)

    def stop(self) -> None:
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)

    # ---- jobs ------------------------------------------------------------------------
    def rescan(self, startup: bool = False) -> int:
        """Plan every game of the wakeup index again; returns how many have an event."""
        try:
            docs = self.load_wakeups()
        except Exception:  # noqa: BLE001 - a bad store must not kill the scheduler thread
            log.exception("scheduler: cannot read the wakeup index")
            return 0
        count = 0
        for name, row in docs.items():
            count += self._plan(name, row, startup)
        with self._lock:
            for gone in set(self._planned) - set(docs):
                self._planned.pop(gone, None)
                self._remove(gone)
        return count

    def update(self, name: str, row: dict | None) -> None:
        """The writer changed game ``name`` (``row``: its wakeup row, None if it
        has no next event): plan it again."""
        if row is None:
            with self._lock:
                self._planned.pop(name, None)
            self._remove(name)
        else:
            self._plan(name, row, False)        # the same event as planned: nothing to do

    def _plan(self, name: str, row: dict, startup: bool) -> int:
        when, end = next_event(row)
        phase = (row or {}).get("phase")
        now = self.clock()
        with self._lock:
            if when is None:
                self._planned.pop(name, None)
                self._remove(name)
                return 0
            same = self._planned.get(name) == when
            self._planned[name] = when
            if when > now:
                if not same:
                    run_at = datetime.now(timezone.utc) + (when - now)
                    self._scheduler.add_job(self._fire, "date", run_date=run_at, args=[name, phase, when],
                                            id=f"game:{name}", replace_existing=True)
                return 1
            last = self._enqueued.get(name)
            if last and last[0] == when and time.monotonic() - last[1] < RETRY_SECONDS:
                return 1      # enqueued already and not done yet (or it could not be done): wait
            self._enqueued[name] = (when, time.monotonic())
            self._remove(name)
        missed = end is not None and end <= now
        kind = "outage" if startup and missed else "tick"
        log.info("game %s: %s due at %s is past: enqueued (%s)", name,
                 "deadline" if missed else "event", (end if missed else when).isoformat(), kind)
        self.enqueue(Work(kind, name, phase))
        return 1

    def _fire(self, name: str, phase: str | None, when: datetime) -> None:
        log.info("game %s: event at %s: enqueued", name, when.isoformat())
        with self._lock:                    # fired: a rescan plans it again if it is still ahead
            if self._planned.get(name) == when:
                self._planned.pop(name)
        self.enqueue(Work("tick", name, phase))

    def clock_changed(self) -> None:
        """The judge's time jumped (:class:`judge.clock.ClockGuard`: a step
        held, confirmed or set right): plan every game again from it."""
        with self._lock:
            self._planned.clear()
            self._enqueued.clear()
        self.rescan()

    def _remove(self, name: str) -> None:
        try:
            self._scheduler.remove_job(f"game:{name}")
        except Exception:  # noqa: BLE001 - JobLookupError: no such job
            pass

    def jobs(self) -> dict[str, datetime]:
        """``{game: real UTC time its job fires}`` (for tests and logs)."""
        return {j.id.removeprefix("game:"): j.next_run_time for j in self._scheduler.get_jobs()
                if j.id.startswith("game:")}
