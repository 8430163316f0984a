"""The game on its own clock (issue 4 §1-3): what is due at ``now`` and
doing it. Pure over a :class:`~judge.game.Game`: the caller (the daemon's
single writer) loads the game, calls :func:`tick` with the time and stores
the game and the returned notices together.

At each tick, in order:

1. a pause whose time is up ends (:func:`resume`);
2. before the deadline: reminders to players whose orders are incomplete
   (``deadlines.reminders`` hours before); early processing when every power
   that has to order and is played has complete orders and nobody set
   ``WAIT`` (``deadlines.early``). Vacant and abandoned powers do not hold it
   up: they get the NMR defaults (:mod:`judge.game.nmr`);
3. at the deadline: if orders are missing from played powers and the game has
   a grace period, late notices (:func:`judge.game.nmr.late_notices`);
   otherwise the phase is adjudicated, the game's defaults standing in for
   what is missing;
4. during the grace period: adjudicated as soon as the orders are complete,
   else at its end.

Adjudicating (:func:`process`) records NMRs (:func:`judge.game.nmr.record_nmr`),
opens the next phase with its deadline and sends the results to every player,
observer and the GM. Every tick also checks the end of the game
(:meth:`Game.check_end`: votes, a wall-clock end, ``RULES.md`` §4); a game
that ends stops its clock and everyone gets the final report
(:func:`judge.game.final_report.game_over_notice`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from .deadlines import (
    grace_end, is_complete, next_deadline, orders_needed, push_past_absences, reminder_times, reminders_due,
    whole_minute,
)
from .errors import GameError
from .final_report import game_over_notice
from .nmr import late_notices, missing_powers, missing_units, playing, record_nmr
from .notices import GM, OBSERVERS, PLAYERS, Notice
from .records import PhaseRecord
from .results import results_data

EVERYONE = (PLAYERS, OBSERVERS, GM)


@dataclass
class Step:
    """What a tick did: ``records`` adjudicated (empty if none) and the
    ``notices`` to send."""

    records: list[PhaseRecord] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)

    def __iadd__(self, other: "Step") -> "Step":
        self.records += other.records
        self.notices += other.notices
        return self


def running(game) -> bool:
    """Whether the game has a clock: started, not over."""
    return game.schedule.deadline is not None and not game.finished


def open_phase(game, now: datetime, deadline: datetime | None = None) -> None:
    """Start the clock of the current phase at ``now``: its deadline is
    ``deadline`` or the one the game's settings give (moved past players'
    absences); reminders and ``WAIT`` flags start afresh."""
    s = game.settings.deadlines
    if deadline is None:
        deadline = next_deadline(s, game.phase.kind, now)
        deadline = push_past_absences(deadline, game.schedule.all_absences())
    game.schedule = replace(game.schedule, phase=str(game.phase), opened=now, deadline=deadline,
                            late=False, reminded=(), wait=frozenset())


def start(game, now: datetime, deadline: datetime | None = None) -> list[Notice]:
    """Start the game's clock (every power is taken, or the GM says so).
    Returns the notice telling everyone the first deadline. GameError if it
    runs already."""
    if running(game):
        raise GameError.of("started_already", game=game.name)
    open_phase(game, now, deadline)
    return [started_notice(game)]


def started_notice(game) -> Notice:
    """The notice telling everyone (players, observers, the GM) that ``game``
    has started: its phase and first deadline (UTC) with the game's time zone.
    :func:`start` sends it; so does the mail handler when the last power is
    taken in a game whose clock ran already from ``CREATE ... deadline=``."""
    return Notice("started", EVERYONE, {"game": game.name, "map": game.map_name,
                                        "phase": str(game.phase), "deadline": game.schedule.deadline,
                                        "timezone": game.settings.deadlines.timezone},
                  f"{game.name}:{game.phase}:started")


def ready(game) -> bool:
    """Early processing may happen: the game allows it, some power is played,
    every played power that must order has complete orders, none set WAIT."""
    if not game.settings.deadlines.early:
        return False
    needed = [p for p in game.map.powers if playing(game, p) and orders_needed(game, p)]
    return bool(needed) and not (set(needed) & game.schedule.wait) \
        and all(is_complete(game, p) for p in needed)


def due_at(game) -> datetime | None:
    """The next time something is due for ``game`` (a reminder, the deadline,
    the end of the grace period or of a pause), or None. Early processing is
    not timed: it is checked when orders arrive."""
    s = game.schedule
    if not running(game):
        return None
    if s.paused:
        return s.pause_until
    if s.late:
        return grace_end(game.settings.deadlines, s.deadline)
    times = [s.deadline]
    if game.settings.victory.end_at is not None:
        times.append(game.settings.victory.end_at)
    times += [when for h, when in reminder_times(game.settings.deadlines, s.deadline, s.opened)
              if h not in s.reminded and when < s.deadline]
    return min(times)


def next_event(game) -> tuple[datetime | None, datetime | None]:
    """``(when, end)``: the time of the game's next event (:func:`due_at`;
    None if none) and when its orders are finally due (the deadline, or the
    end of the grace period once it runs; None while paused or without one)."""
    when = due_at(game)
    if when is None or game.schedule.paused:
        return when, None
    s = game.schedule
    return when, grace_end(game.settings.deadlines, s.deadline) if s.late else s.deadline


def tick(game, now: datetime) -> Step:
    """Do what is due at ``now`` (see module doc). Nothing happens to a game
    without a running clock. Returns the :class:`Step`."""
    step = Step()
    if not running(game):
        return step
    game.check_end(now)
    if game.finished:
        _stop_clock(game)
        step.notices.append(game_over_notice(game))
        return step
    s = game.schedule
    if s.phase != str(game.phase):     # the phase moved on by hand: give it a clock
        open_phase(game, now)
        s = game.schedule
    if s.paused:
        if s.pause_until is not None and now >= s.pause_until:
            step.notices += resume(game, now)
            s = game.schedule
        else:
            return step
    settings = game.settings.deadlines
    if not s.late:
        if now < s.deadline:
            if ready(game):
                return _processed(step, game, now)
            for hours in reminders_due(settings, s.deadline, s.opened, s.reminded, now):
                step.notices += _reminders(game, hours)
                game.schedule = replace(game.schedule, reminded=game.schedule.reminded + tuple(
                    h for h in settings.reminders if h >= hours and h not in game.schedule.reminded))
            return step
        late = [p for p in missing_powers(game) if playing(game, p)]
        if late and settings.grace_hours > 0 and now < grace_end(settings, s.deadline):
            game.schedule = replace(s, late=True)
            step.notices += late_notices(game, now)
            return step
        return _processed(step, game, now)
    if now >= grace_end(settings, s.deadline) or not [p for p in missing_powers(game) if playing(game, p)]:
        return _processed(step, game, now)
    return step


def _processed(step: Step, game, now: datetime) -> Step:
    step += process(game, now)
    return step


def process(game, now: datetime) -> Step:
    """Adjudicate the current phase now (at the deadline, early, or by the
    GM's PROCESS), record NMRs, open the next phase and tell everyone the
    results. Raises GameError when the game is over."""
    records = game.process(now)
    notices = record_nmr(game, records)
    if game.finished:
        _stop_clock(game)
    elif game.schedule.deadline is not None:
        open_phase(game, now)
    notices.insert(0, Notice("results", EVERYONE, results_data(game, records),
                             f"{game.name}:{records[0].phase}:results"))
    if game.finished:
        notices.append(game_over_notice(game))
    return Step(list(records), notices)


def ended(game) -> list[Notice]:
    """After a vote or the GM ended ``game``: its clock stops and everyone is
    sent the final report. Empty while the game runs."""
    if not game.finished:
        return []
    _stop_clock(game)
    return [game_over_notice(game)]


def _stop_clock(game) -> None:
    game.schedule = replace(game.schedule, phase=str(game.phase), deadline=None, late=False,
                            reminded=(), wait=frozenset(), paused_at=None, pause_until=None)


def _reminders(game, hours: float) -> list[Notice]:
    s = game.schedule
    out = []
    for p in missing_powers(game):
        if not playing(game, p):
            continue
        out.append(Notice("reminder", (p,), {
            "game": game.name, "map": game.map_name, "power": p, "phase": s.phase,
            "deadline": s.deadline, "timezone": game.settings.deadlines.timezone, "hours": hours,
            "missing": missing_units(game, p)}, f"{game.name}:{s.phase}:reminder:{hours:g}"))
    return out


# ---- WAIT, pause ---------------------------------------------------------------------
def set_wait(game, power: str, wait: bool) -> None:
    """``SET WAIT`` / ``SET NOWAIT`` for ``power`` in the current phase."""
    power = game.power(power)
    w = game.schedule.wait
    game.schedule = replace(game.schedule, wait=(w | {power}) if wait else (w - {power}))


def pause(game, now: datetime, hours: float | None = None) -> Notice:
    """GM: stop the clock. The game resumes by itself after ``hours`` (at most,
    and by default, the game's ``pause_limit_hours``). GameError if it is not
    running, already paused, or ``hours`` is beyond the limit."""
    s, limit = game.schedule, game.settings.deadlines.pause_limit_hours
    if not running(game):
        raise GameError.of("no_clock", game=game.name)
    if s.paused:
        raise GameError.of("paused_already", game=game.name)
    hours = limit if hours is None else hours
    if hours <= 0 or hours > limit:
        raise GameError.of("pause_limit", limit=limit)
    end = grace_end(game.settings.deadlines, s.deadline) if s.late else s.deadline
    until = now + timedelta(hours=hours)
    game.schedule = replace(s, paused_at=now, pause_until=until,
                            pause_left=max((end - now).total_seconds(), 0.0))
    return Notice("paused", EVERYONE, {"game": game.name, "map": game.map_name, "phase": s.phase,
                                       "until": until, "timezone": game.settings.deadlines.timezone},
                  f"{game.name}:{s.phase}:paused:{now.isoformat()}")


def resume(game, now: datetime) -> list[Notice]:
    """End a pause: the phase gets back the time it had left (at least an
    hour). Returns the notice with the new deadline. GameError if not paused."""
    s = game.schedule
    if not s.paused:
        raise GameError.of("not_paused", game=game.name)
    left = max(s.pause_left, 3600.0)
    deadline = whole_minute(now + timedelta(seconds=left))
    if s.late:   # the grace period goes on: move the deadline so that it ends then
        deadline -= grace_end(game.settings.deadlines, s.deadline) - s.deadline
    game.schedule = replace(s, paused_at=None, pause_until=None, pause_left=0.0, deadline=deadline,
                            reminded=s.reminded if s.late else ())
    return [deadline_notice(game, "resumed", now)]


def deadline_notice(game, kind: str, now: datetime) -> Notice:
    """A notice to everyone that the deadline is now ``game.schedule.deadline``
    (``kind``: ``"resumed"``, ``"deadline"``, ``"extended"``, ``"outage"``)."""
    s = game.schedule
    return Notice(kind, EVERYONE, {"game": game.name, "map": game.map_name, "phase": s.phase,
                                   "deadline": s.deadline, "timezone": game.settings.deadlines.timezone},
                  f"{game.name}:{s.phase}:{kind}:{now.isoformat()}")


def outage(game, now: datetime) -> list[Notice]:
    """The daemon starts after being down past this game's deadline (or grace
    end). With the ``"extend"`` policy the deadline moves to ``now`` plus
    ``outage_hours`` and everyone is told; with ``"process"`` nothing changes
    here (the next tick adjudicates at once)."""
    s, settings = game.schedule, game.settings.deadlines
    if settings.outage != "extend" or not running(game) or s.paused:
        return []
    end = grace_end(settings, s.deadline) if s.late else s.deadline
    if end > now:
        return []
    game.schedule = replace(s, deadline=whole_minute(now + timedelta(hours=settings.outage_hours)), late=False)
    return [deadline_notice(game, "outage", now)]
