"""Deadline jobs with APScheduler 3.x (issue 4 §1).

The deadlines live in the games (:attr:`Game.schedule`); the scheduler keeps
only in-memory jobs, rebuilt from the stored games at start-up, so there is
nothing of its own to lose or to share between processes. A job does not
touch a game: it only hands a :class:`Work` item to the single writer
(``enqueue``), which loads the game, checks it is still in the phase the item
names (compare-and-set) and runs :func:`judge.game.turns.tick`.

- At start-up every game whose next event (deadline, grace end, reminder,
  end of a pause) is past is enqueued at once, as ``"outage"`` work when the
  game's deadline itself passed while the judge was down (the writer applies
  the game's outage policy), with no misfire limit.
- Other games get a date job at their next event. Times come from the
  injected ``clock`` (UTC): a job fires after ``event - clock()`` seconds of
  real time.
- The writer calls :meth:`DeadlineScheduler.update` after it changed a game.
  Other processes (``judge game gm``, ``judge game end`` ...) leave a file
  (``changed_path``, ``DATA/store-changed``) after their commit; the
  scheduler looks for it every :data:`WATCH_SECONDS`, removes it and reads
  every game again (a rescan also mails the notices those commands left).
  A periodic rescan (``rescan_seconds``) catches anything else, and jumps of
  an injected clock.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.schedulers.background import BackgroundScheduler

from .game.deadlines import grace_end
from .game.schedule import Schedule
from .game.settings import Settings
from .game.turns import due_at

log = logging.getLogger("judge.scheduler")
logging.getLogger("apscheduler").setLevel(logging.WARNING)    # it logs every run of every job
WATCH_SECONDS = 1.0
"""How often the scheduler looks for the file other processes leave after a change."""
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


def next_event(doc: dict) -> tuple[datetime | None, datetime | None]:
    """``(when, end)`` for a stored game document: the time of its next event
    (None if none) and when its orders are finally due (the deadline, or the
    end of the grace period once it runs; None while paused). Reads only the
    game's settings, schedule and end state, not its history."""
    try:
        schedule = Schedule.from_dict(doc.get("schedule", {}))
        settings = Settings.from_dict(doc.get("settings", {}))
    except (KeyError, TypeError, ValueError) as e:
        log.error("game %s: cannot read its schedule (%s); no deadline job", doc.get("name"), e)
        return None, None
    finished = (doc.get("ending") or {}).get("result") is not None
    view = SimpleNamespace(schedule=schedule, settings=settings, finished=finished)
    when = due_at(view)
    if when is None:
        return None, None
    if schedule.paused:
        return when, None
    return when, grace_end(settings.deadlines, schedule.deadline) if schedule.late else schedule.deadline


class DeadlineScheduler:
    """See module doc. ``load_games()`` returns the stored game documents
    ``{name: doc}``; ``enqueue(work)`` hands work to the writer; ``clock()``
    gives the time (aware UTC)."""

    def __init__(self, load_games: Callable[[], dict[str, dict]], enqueue: Callable[[Work], None],
                 clock: Callable[[], datetime], *, rescan_seconds: float = 60.0,
                 changed_path: Path | None = None):
        self.load_games, self.enqueue, self.clock = load_games, enqueue, clock
        self.rescan_seconds = rescan_seconds
        self.changed_path = changed_path
        self._lock = threading.Lock()
        self._planned: dict[str, datetime] = {}   # game -> event time its job (or enqueue) is for
        self._enqueued: dict[str, tuple[datetime, float]] = {}   # game -> (event, monotonic time)
        self._scheduler = BackgroundScheduler(
            jobstores={"default": MemoryJobStore()}, executors={"default": ThreadPoolExecutor(2)},
            job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
            timezone=timezone.utc)

    # ---- life ------------------------------------------------------------------------
    def start(self) -> None:
        """Rebuild the jobs from the stored games (past events enqueued at
        once, see module doc) and start the scheduler thread."""
        self._scheduler.start()
        count = self.rescan(startup=True)
        self._scheduler.add_job(self.rescan, "interval", seconds=self.rescan_seconds, id="rescan",
                                replace_existing=True)
        if self.changed_path is not None:
            self._scheduler.add_job(self.watch, "interval", seconds=WATCH_SECONDS, id="watch",
                                    replace_existing=True)
        log.debug("scheduler: %d game(s) with a deadline", count)

    def stop(self) -> None:
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)

    # ---- jobs ------------------------------------------------------------------------
    def rescan(self, startup: bool = False) -> int:
        """Plan every stored game again; returns how many have an event."""
        try:
            docs = self.load_games()
        except Exception:  # noqa: BLE001 - a bad store must not kill the scheduler thread
            log.exception("scheduler: cannot read the games")
            return 0
        count = 0
        for name, doc in docs.items():
            count += self._plan(name, doc, startup)
        with self._lock:
            for gone in set(self._planned) - set(docs):
                self._planned.pop(gone, None)
                self._remove(gone)
        return count

    def watch(self) -> bool:
        """If another process left ``changed_path``: remove it, then rescan
        (in that order, so no change is missed). Returns whether it did."""
        try:
            self.changed_path.unlink()
        except FileNotFoundError:
            return False
        except OSError as e:
            log.warning("scheduler: cannot remove %s (%s)", self.changed_path, e)
        log.info("scheduler: the store was changed by a command; reading the games again")
        self.rescan()
        return True

    def update(self, name: str, doc: dict | None) -> None:
        """The writer changed game ``name`` (``doc``: its stored document, None
        if deleted): plan it again."""
        with self._lock:
            self._planned.pop(name, None)
        if doc is None:
            self._remove(name)
        else:
            self._plan(name, doc, False)

    def _plan(self, name: str, doc: dict, startup: bool) -> int:
        when, end = next_event(doc)
        phase = (doc.get("schedule") or {}).get("phase")
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
        self.enqueue(Work("tick", name, phase))

    def _remove(self, name: str) -> None:
        try:
            self._scheduler.remove_job(f"game:{name}")
        except Exception:  # noqa: BLE001 - JobLookupError: no such job
            pass

    def jobs(self) -> dict[str, datetime]:
        """``{game: real UTC time its job fires}`` (for tests and logs)."""
        return {j.id.removeprefix("game:"): j.next_run_time for j in self._scheduler.get_jobs()
                if j.id.startswith("game:")}
