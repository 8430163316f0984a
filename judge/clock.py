"""The judge's clock: the system (wall) clock, checked against the monotonic
clock and the store's last stamp, so that a clock step never adjudicates a
phase early (issue 19, point 11).

A deadline is irrevocable: once a phase is adjudicated on a wrong clock,
nothing can undo it for the players. A late deadline only costs patience. So:

- **Running.** :class:`ClockGuard` remembers a reading of both clocks and
  compares every later reading: the wall clock may move only as the
  monotonic clock does (``CLOCK_BOOTTIME``: it counts a suspend too, and no
  one sets it). A difference of up to :data:`STEP_SECONDS` (an hour) is taken
  as a correction (NTP) and followed. A **step forward** of more than that is
  logged, the judgekeeper is mailed (:class:`ClockWork`, the notice
  ``clock_step.txt``), and the judge keeps time by the monotonic clock
  instead — the time it had before the step plus the real time since — until
  the keeper confirms the new time (``judge clock confirm``, which leaves the
  file ``DATA/clock-confirm``; the running judge looks for it every second)
  or the wall clock agrees with the monotonic one again (someone set it
  back). A deadline therefore falls when that much real time has passed: the
  monotonic clock has to reach it. Mail is read and answered as usual
  meanwhile, stamped with the judge's time.
- **A step back** of more than an hour is logged and the keeper mailed too;
  the judge follows the wall clock (deadlines come late by the step, nothing
  happens early), and goes back to normal by itself when the clock is set right.
- **At start.** The judge's time and the monotonic clock are kept in
  ``DATA/clock`` (JSON, every minute and at stop; ``judge clock`` prints it).
  Started again on the same boot, the judge knows exactly how much real time
  passed while it was stopped: a wall clock that moved more than an hour
  further than that stepped while it was stopped, and is held as above. After
  a reboot nothing measures the time in between: the judge was stopped (the
  game's outage policy applies), unless the clock is behind the store's last
  commit (``DATA/store/seq`` was written later than "now"), which is a step
  back.

The daemon (:mod:`judge.daemon`) gives :meth:`ClockGuard.now` to the worker
and the scheduler as their clock; commands and tests that pin a clock do
without a guard.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

from .scheduler import Work

log = logging.getLogger("judge.clock")

STEP_SECONDS = 3600.0
"""The largest difference between the wall clock and the monotonic clock
followed without asking the judgekeeper."""
SAVE_SECONDS = 60.0
"""How often ``DATA/clock`` is written while the judge runs."""
CHECK_SECONDS = 1.0
"""How often the running judge reads its clocks (and looks for ``DATA/clock-confirm``)."""
STATE_FILE, CONFIRM_FILE = "clock", "clock-confirm"
CONFIRM_EVERY = 1.0
"""Seconds between two looks for the keeper's confirmation file."""


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def boottime() -> float:
    """Seconds since boot, suspend included (``CLOCK_BOOTTIME``; elsewhere the monotonic clock)."""
    try:
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    except (AttributeError, OSError):
        return time.monotonic()


def boot_id() -> str:
    """This boot's id (Linux), or ``""``."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


@dataclass(frozen=True, eq=False)
class ClockWork(Work):
    """Work for the writer: mail the judgekeeper the clock ``event`` (a dict:
    ``direction`` ``"forward"``/``"back"``, ``step`` seconds, ``at`` the wall
    clock's time, ``judge_time`` the judge's, ``where`` ``"running"``/``"start"``).
    ``kind`` is ``"clock"``; ``phase`` names the event (its Message-ID's purpose)."""

    event: dict = field(default_factory=dict)


def _iso(t: datetime) -> str:
    return t.astimezone(timezone.utc).isoformat()


class ClockGuard:
    """See module doc. ``folder``: the data folder (``DATA/clock``,
    ``DATA/clock-confirm``; None: no file is read or written); ``wall()``:
    the wall clock (aware UTC), ``mono()``: seconds of the monotonic clock,
    ``boot()``: the boot's id — tests pass stand-ins. ``notify(work)``:
    hands a :class:`ClockWork` to the writer; ``changed()``: the judge's time
    jumped (a confirmation, or the clock set right): plan the deadlines again."""

    def __init__(self, folder: Path | None, *, wall: Callable[[], datetime] = utc_now,
                 mono: Callable[[], float] = boottime, boot: Callable[[], str] = boot_id,
                 step: float = STEP_SECONDS, notify: Callable[[ClockWork], None] = lambda work: None,
                 changed: Callable[[], None] = lambda: None):
        self.folder = Path(folder) if folder is not None else None
        self.wall, self.mono, self.boot = wall, mono, boot
        self.step, self.notify, self.changed = step, notify, changed
        self._lock = threading.Lock()
        self._ref = (wall(), mono())          # a reading taken as right: the judge's time runs from it
        self.held: dict | None = None         # the step forward not yet confirmed (its event)
        self.behind: dict | None = None       # the step back (its event)
        self._saved = float("-inf")
        self._looked = float("-inf")          # when the confirmation file was last looked for (mono)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ---- the clock -------------------------------------------------------------------
    def now(self) -> datetime:
        """The judge's time (aware UTC): the wall clock, or while a step
        forward waits for the keeper the time by the monotonic clock."""
        calls: list[Callable[[], None]] = []
        with self._lock:
            result = self._read(calls)
        for call in calls:
            call()
        return result

    def check(self) -> None:
        """Read the clocks now (the guard's thread does, every second)."""
        self.now()

    def _read(self, calls: list) -> datetime:
        wall, mono = self.wall(), self.mono()
        judge_time = self._ref[0] + timedelta(seconds=mono - self._ref[1])
        drift = (wall - judge_time).total_seconds()
        if self._confirmed():
            if self.held or self.behind:
                log.warning("clock: the judgekeeper confirmed the system clock (%s); the judge follows it "
                            "again (it was %s %s)", _iso(wall), _span(abs(drift)),
                            "ahead" if drift > 0 else "behind")
                calls.append(self.changed)
            else:
                log.info("clock: a confirmation came while the clock was in order; nothing to do")
            self.held = self.behind = None
            drift = 0.0
        if self.behind and drift > -self.step:
            log.warning("clock: the system clock was set forward again (%s); the judge follows it", _iso(wall))
            self.behind = None                  # set right after a step back: no hold
            calls.append(self.changed)
            drift = 0.0
        if abs(drift) <= self.step:
            if self.held or self.behind:
                log.warning("clock: the system clock agrees with the monotonic clock again (%s); the judge "
                            "follows it", _iso(wall))
                self.held = self.behind = None
                calls.append(self.changed)
            self._ref = (wall, mono)           # small corrections (NTP) are followed
            result = wall
        elif drift > 0:
            if self.held is None:
                self.held = self._event("forward", drift, wall, judge_time, "running")
                log.error("clock: the system clock jumped forward by %s (it says %s, the monotonic clock %s); "
                          "no deadline is processed by it until the judgekeeper confirms it (judge clock "
                          "confirm) — the judge keeps time by the monotonic clock", _span(drift), _iso(wall),
                          _iso(judge_time))
                calls += [lambda work=ClockWork("clock", "", self.held["id"], event=self.held): self.notify(work),
                          self.changed]
            result = judge_time
        else:
            if self.behind is None:
                self.behind = self._event("back", -drift, wall, judge_time, "running")
                log.error("clock: the system clock jumped back by %s (it says %s, the monotonic clock %s); "
                          "deadlines come late by that much until it is set right", _span(-drift), _iso(wall),
                          _iso(judge_time))
                calls.append(lambda work=ClockWork("clock", "", self.behind["id"], event=self.behind):
                             self.notify(work))
            result = wall
        if mono - self._saved >= SAVE_SECONDS:
            self._save(result, mono)
        return result

    def _event(self, direction: str, step: float, wall: datetime, judge_time: datetime, where: str) -> dict:
        return {"id": f"{direction}-{wall.strftime('%Y%m%dT%H%M%S')}", "direction": direction,
                "step": round(step), "step_text": _span(step), "at": _iso(wall), "judge_time": _iso(judge_time),
                "where": where, "data": str(self.folder) if self.folder else ""}

    # ---- start, stop -------------------------------------------------------------------
    def start_check(self, last_commit: datetime | None = None) -> None:
        """At start: compare the clocks with ``DATA/clock`` (the same boot:
        the real time since is known) and with ``last_commit`` (the store's
        last stamp); hold or report a step (see module doc). Call before the
        judge reads its clock for anything."""
        calls: list[Callable[[], None]] = []
        with self._lock:
            wall, mono = self.wall(), self.mono()
            stamp = self._load()
            if self._confirmed():
                log.warning("clock: the judgekeeper confirmed the system clock (%s)", _iso(wall))
                stamp = None
            if stamp and stamp.get("boot_id") and stamp["boot_id"] == self.boot() and mono >= stamp["boottime"]:
                judge_time = datetime.fromisoformat(stamp["judge_time"]) + timedelta(
                    seconds=mono - stamp["boottime"])
                drift = (wall - judge_time).total_seconds()
                if drift > self.step:
                    self._ref = (judge_time, mono)
                    self.held = self._event("forward", drift, wall, judge_time, "start")
                    log.error("clock: while the judge was stopped the system clock jumped forward by %s (it "
                              "says %s; %s of real time passed since %s): no deadline is processed by it "
                              "until the judgekeeper confirms it (judge clock confirm)", _span(drift),
                              _iso(wall), _span(mono - stamp["boottime"]), stamp["judge_time"])
                    calls.append(lambda work=ClockWork("clock", "", self.held["id"], event=self.held):
                                 self.notify(work))
                elif drift < -self.step:
                    self._ref = (judge_time, mono)
                    self.behind = self._event("back", -drift, wall, judge_time, "start")
                    calls.append(lambda work=ClockWork("clock", "", self.behind["id"], event=self.behind):
                                 self.notify(work))
            elif last_commit is not None and (last_commit - wall).total_seconds() > self.step:
                back = (last_commit - wall).total_seconds()
                self._ref = (last_commit, mono)
                self.behind = self._event("back", back, wall, last_commit, "start")
                calls.append(lambda work=ClockWork("clock", "", self.behind["id"], event=self.behind):
                             self.notify(work))
            if self.behind is not None:
                log.error("clock: the system clock (%s) is %s behind the judge's last time (%s); deadlines "
                          "come late by that much until it is set right", _iso(wall),
                          self.behind["step_text"], self.behind["judge_time"])
            self._save(self._ref[0] + timedelta(seconds=mono - self._ref[1]) if self.held else wall, mono)
        for call in calls:
            call()

    def start(self) -> None:
        """Read the clocks every :data:`CHECK_SECONDS` in a thread of its own."""
        self._thread = threading.Thread(target=self._run, name="judge-clock", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(CHECK_SECONDS):
            try:
                self.check()
            except Exception:  # noqa: BLE001 - the next second tries again
                log.exception("clock: check failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            mono = self.mono()
            judge_time = self._ref[0] + timedelta(seconds=mono - self._ref[1]) if self.held else self.wall()
            self._save(judge_time, mono)

    # ---- files -----------------------------------------------------------------------
    def state(self) -> dict:
        """What ``DATA/clock`` holds (see :func:`read_state`)."""
        with self._lock:
            return self._state(self._ref[0] + timedelta(seconds=self.mono() - self._ref[1]), self.mono())

    def _state(self, judge_time: datetime, mono: float) -> dict:
        event = self.held or self.behind
        return {"judge_time": _iso(judge_time), "boottime": mono, "boot_id": self.boot(),
                "saved_at": _iso(self.wall()), "state": "held" if self.held else "behind" if self.behind else "ok",
                "event": event}

    def _save(self, judge_time: datetime, mono: float) -> None:
        self._saved = mono
        if self.folder is None:
            return
        from .storage.atomic import atomic_write
        try:
            atomic_write(self.folder / STATE_FILE, json.dumps(self._state(judge_time, mono), indent=1).encode(),
                         durable=False)
        except OSError as e:
            log.warning("clock: cannot write %s: %s", self.folder / STATE_FILE, e)

    def _load(self) -> dict | None:
        state = read_state(self.folder) if self.folder is not None else None
        try:
            if state:
                datetime.fromisoformat(state["judge_time"])
                float(state["boottime"])
                return state
        except (KeyError, TypeError, ValueError):
            log.warning("clock: %s cannot be read; not compared", self.folder / STATE_FILE)
        return None

    def _confirmed(self) -> bool:
        """Whether ``DATA/clock-confirm`` is there (it is removed); looked for
        at most every :data:`CONFIRM_EVERY` seconds (the clock is read for
        every mail: a file system call each time was about a tenth of the
        worker's time in an IMAP burst, py-spy)."""
        if self.folder is None:
            return False
        mono = self.mono()
        if mono - self._looked < CONFIRM_EVERY:
            return False
        self._looked = mono
        path = self.folder / CONFIRM_FILE
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        except OSError as e:
            log.warning("clock: cannot remove %s: %s", path, e)
        return True


def read_state(folder: Path) -> dict | None:
    """``DATA/clock`` as written by the running judge: ``judge_time`` (its
    time), ``boottime`` and ``boot_id`` (the monotonic clock then),
    ``saved_at``, ``state`` (``ok``, ``held``: a step forward waits for the
    keeper, ``behind``: the clock stepped back) and its ``event``; None when
    missing or unreadable."""
    try:
        return json.loads((Path(folder) / STATE_FILE).read_text())
    except (OSError, ValueError):
        return None


def confirm(folder: Path) -> None:
    """Leave ``DATA/clock-confirm`` for the judge (running, or at its next
    start) to take the system clock as right. Raises OSError."""
    (Path(folder) / CONFIRM_FILE).write_text(_iso(utc_now()) + "\n")


def _span(seconds: float) -> str:
    """``"80 h 5 min"``, ``"12 min"``."""
    minutes = int(round(abs(seconds) / 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"
