"""The game on its own clock (issue 4 §1-3): what is due at ``now`` and
doing it. Pure over a :class:`~judge.game.Game`: the caller (the daemon's
single writer) loads the game, calls :func:`tick` with the time and stores
the game and the returned notices together.

At each tick, in order:

0. a finished game only closes its leaders' award vote when that is due
   (:func:`close_award_vote`);
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

import random
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from .deadlines import (
    grace_end, incomplete, next_deadline, orders_needed, push_past_absences, reminder_times, reminders_due,
    whole_minute,
)
from .errors import GameError
from .final_report import game_over_notice
from .future import apply_future
from .nmr import holds_up, late_notices, missing_powers, missing_units, playing, record_nmr
from .notices import GM, OBSERVERS, PLAYERS, Notice, event_key
from .records import PhaseRecord
from .scores import award_vote_closes
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
                            late=False, reminded=(), wait=frozenset(), to_confirm=frozenset(), waiting=False)


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
    every played power (every power, in a NoNMR game) that must order has
    complete orders, none set WAIT or has orders a ROLLBACK restored."""
    if not game.settings.deadlines.early:
        return False
    needed = [p for p in game.map.powers if holds_up(game, p) and orders_needed(game, p)]
    if not any(playing(game, p) for p in needed):
        return False
    held = game.schedule.wait | game.schedule.to_confirm
    return bool(needed) and not (set(needed) & held) and not incomplete(game, needed)


def orders_in(game) -> bool:
    """The orders in may end the phase now, so a mail that brought orders is
    followed at once by a look at the game (:meth:`judge.daemon.Daemon._changed`):
    before the deadline, early processing may happen (:func:`ready`); past
    it (the grace period, or a NoNMR game waiting) no order the phase waits
    for is missing."""
    s = game.schedule
    if s.late or s.waiting:
        return running(game) and not s.paused and not _late(game)
    return ready(game)


def due_at(game) -> datetime | None:
    """The next time something is due for ``game`` (a reminder, the deadline,
    the end of the grace period or of a pause), or None. Early processing is
    not timed: it is checked when orders arrive."""
    s = game.schedule
    if game.finished:
        return award_vote_closes(game)          # the leaders' award vote closes (issue 13 point 5)
    if not running(game):
        return None
    if s.waiting:                               # a NoNMR game waiting for orders: its daily reminder
        days = 0
        while -(days + 1) in s.reminded:
            days += 1
        return s.deadline + timedelta(days=days + 1)
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
    s = game.schedule
    if s.waiting and running(game):
        return when, s.deadline          # its daily reminder; orders that arrive are looked at
    if when is None or s.paused:
        return when, None
    return when, grace_end(game.settings.deadlines, s.deadline) if s.late else s.deadline


def tick(game, now: datetime) -> Step:
    """Do what is due at ``now`` (see module doc). Nothing happens to a game
    without a running clock. Returns the :class:`Step`."""
    step = Step()
    if game.finished:
        step.notices += close_award_vote(game, now)
        return step
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
    if s.waiting:                      # NoNMR: adjudicated once every power that must order has
        if not _late(game):
            return _processed(step, game, now)
        step.notices += _overdue(game, now)
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
        late = _late(game)
        if late and settings.grace_hours > 0 and now < grace_end(settings, s.deadline):
            game.schedule = replace(s, late=True)
            step.notices += late_notices(game, now)
            return step
        return _at_deadline(step, game, now, late)
    late = _late(game)
    if not late:
        return _processed(step, game, now)
    if now >= grace_end(settings, s.deadline):
        return _at_deadline(step, game, now, late)
    return step


def _late(game) -> list[str]:
    """The powers whose missing orders hold the phase up (:func:`judge.game.nmr.holds_up`)."""
    return [p for p in missing_powers(game) if holds_up(game, p)]


def _at_deadline(step: Step, game, now: datetime, late: list[str]) -> Step:
    """The deadline (and grace period) is over: adjudicate, the defaults
    standing in for what is missing — or, in a NoNMR game with orders
    missing, wait for them (everyone is told once)."""
    if late and game.settings.nmr.nonmr:
        if not game.schedule.waiting:
            game.schedule = replace(game.schedule, waiting=True)
            step.notices.append(Notice("waiting", EVERYONE, {
                "game": game.name, "map": game.map_name, "phase": str(game.phase), "powers": late,
                "vacant": [p for p in late if not game.players[p].addresses]},
                event_key(game, str(game.phase), "waiting")))
        return step
    return _processed(step, game, now)


def _processed(step: Step, game, now: datetime) -> Step:
    step += process(game, now)
    return step


def replacement_joined(game, now: datetime) -> list[Notice]:
    """A player has just taken a power of a NoNMR game waiting for orders:
    the phase gets a fresh deadline from ``now`` (the orders given stand) and
    everyone is told the game goes on. Empty when the game was not waiting."""
    if not game.schedule.waiting or not running(game):
        return []
    open_phase(game, now)
    return [deadline_notice(game, "goes_on", now)]


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
                             event_key(game, records[0].phase, "results")))
    if game.finished:
        notices.append(game_over_notice(game))
    else:
        notices += lists_run_out(game)
    notices += apply_future(game, now)          # orders kept for the phase now open (njudge's PHASE)
    return Step(list(records), notices)


def lists_run_out(game) -> list[Notice]:
    """At the start of a retreat phase, in a game with the GM's default retreat
    (``default_retreat=house``): the dislodged units whose standing retreat
    list names no place open to them. The simplified-Chinese text (§10) says
    the GM then decides (GM自主决定), not that the unit disbands: the GM is
    asked, with the unit's open retreats and the place the text's rule (a)-(e)
    gives, which the judge takes if neither the player nor the GM (``BECOME``)
    orders the retreat by the deadline. Empty otherwise."""
    from . import defaults
    from .territory import home_country
    house = game.settings.house
    if game.phase.kind != "R" or house.default_retreat != "house" or house.combined_orders:
        return []
    standing, units = game._standing_now(), []
    for prov, d in sorted(game.position.dislodged.items()):
        pref = standing[d.unit.power].retreats.get(prov)
        if pref is None or defaults.open_places(game.map, d, pref):
            continue
        rng = random.Random(f"{game.seed}:{game.position.phase}")
        state = rng.getstate()
        choice = defaults.default_retreat(game.map, game.position, d, home_country(game.map_name)[d.unit.power], rng)
        units.append({"power": d.unit.power, "unit": [d.unit.type, d.unit.location], "listed": list(pref.destinations),
                      "options": sorted(d.retreats), "default": choice, "random": rng.getstate() != state})
    if not units:
        return []
    s = game.schedule
    return [Notice("retreat_gm", (GM,), {"game": game.name, "map": game.map_name, "phase": str(game.phase),
                                         "units": units, "deadline": s.deadline,
                                         "timezone": game.settings.deadlines.timezone},
                   event_key(game, str(game.phase), "retreat_gm"))]


def gm_decides(game) -> list[str]:
    """The powers of the current retreat phase whose standing list ran out
    (:func:`lists_run_out`): the GM may ``BECOME`` them to order the retreat."""
    return sorted({u["power"] for n in lists_run_out(game) for u in n.data["units"]})


def close_award_vote(game, now: datetime, by_gm: bool = False) -> list[Notice]:
    """Close the leaders' award vote of finished ``game`` if it is due, or
    now by the GM (:meth:`Game.close_award_vote`): then everyone is sent the
    final report with the awards, once (its own key). Empty otherwise."""
    if not game.close_award_vote(now, by_gm):
        return []
    notice = game_over_notice(game)
    return [replace(notice, key=f"{notice.key}:awards")]


def ended(game) -> list[Notice]:
    """After a vote or the GM ended ``game``: its clock stops and everyone is
    sent the final report. Empty while the game runs."""
    if not game.finished:
        return []
    _stop_clock(game)
    return [game_over_notice(game)]


def _stop_clock(game) -> None:
    game.schedule = replace(game.schedule, phase=str(game.phase), deadline=None, late=False,
                            reminded=(), wait=frozenset(), paused_at=None, pause_until=None, waiting=False)


def reminders_now(game, now: datetime) -> list[Notice]:
    """The GM has just moved the deadline: if it now falls within the reminder
    window (``deadlines.reminders`` hours before it), the players whose orders
    are incomplete are reminded at once — even in a phase that opened after
    that reminder time, which :func:`tick` would skip (issue 13 point 7);
    the reminders covered are marked sent."""
    s, settings = game.schedule, game.settings.deadlines
    if not running(game) or s.paused:
        return []
    left = (s.deadline - now).total_seconds() / 3600
    due = [h for h in settings.reminders if h >= left and h not in s.reminded]
    if not due or left <= 0:
        return []
    game.schedule = replace(s, reminded=s.reminded + tuple(due))
    return _reminders(game, round(left, 1))


def _overdue(game, now: datetime) -> list[Notice]:
    """A game waiting past its deadline (NoNMR) reminds the powers it waits
    for once a day (issue 22): each whole day overdue is marked in
    ``reminded`` as minus that many days."""
    s = game.schedule
    days = int((now - s.deadline) / timedelta(days=1))
    if days < 1 or -days in s.reminded:
        return []
    game.schedule = replace(s, reminded=s.reminded + (-days,))
    return _reminders(game, -24.0 * days)


def _reminders(game, hours: float) -> list[Notice]:
    """Reminders to the powers whose orders are missing, ``hours`` before the
    deadline (negative: that long after it, in a game that waits)."""
    s = game.schedule
    out = []
    for p in missing_powers(game):
        if not playing(game, p):
            continue
        out.append(Notice("reminder", (p,), {
            "game": game.name, "map": game.map_name, "power": p, "phase": s.phase,
            "deadline": s.deadline, "timezone": game.settings.deadlines.timezone, "hours": hours,
            "missing": missing_units(game, p)}, event_key(game, s.phase, "reminder", f"{hours:g}", s.deadline.isoformat())))
    return out


# ---- where the game stands -----------------------------------------------------------
STATES = ("forming", "running", "paused", "waiting", "finished")


def lifecycle(game) -> dict:
    """Where ``game`` stands in its life (issue 13 point 12), as data for
    LIST, the GM's replies and ``judge game gm NAME status``: ``state`` (one
    of :data:`STATES`: ``forming`` — no clock yet; ``running``; ``paused``;
    ``waiting`` — a NoNMR game past its deadline waiting for orders or a
    replacement; ``finished``), ``phase``, ``deadline`` (UTC or None),
    ``timezone``, ``late`` (the grace period runs), ``left`` (a paused
    phase's time left, as ``2d3h``) and ``until`` (when the pause ends by
    itself), ``powers`` (those waited for) and ``vacant`` (powers without a
    player; ``open_to``: those the GM opened to a replacement), and for a
    finished game ``result`` (its kind), ``ended`` / ``end_phase``
    (:func:`judge.game.final_report.end_phase`) and ``awards_until`` (an
    open award vote's close)."""
    from .final_report import end_phase
    from .setting_text import length_text
    s = game.schedule
    vacant = [p for p in game.map.powers if not game.players[p].addresses]
    out = {"state": "running", "phase": str(game.phase), "deadline": s.deadline,
           "timezone": game.settings.deadlines.timezone, "late": s.late, "left": None, "until": None,
           "powers": [], "vacant": vacant,
           "open_to": [p for p in vacant if game.players[p].password_hash],
           "result": None, "ended": None, "end_phase": None, "awards_until": None}
    if game.finished:
        ended, phase = end_phase(game)
        out.update(state="finished", result=game.ending.result.kind, ended=ended, end_phase=phase,
                   deadline=None, awards_until=award_vote_closes(game))
    elif s.paused:
        out.update(state="paused", left=length_text(s.pause_left / 3600), until=s.pause_until, deadline=None)
    elif s.waiting:
        out.update(state="waiting", powers=_late(game))
    elif s.deadline is None:
        out["state"] = "forming"
    return out


# ---- WAIT, pause ---------------------------------------------------------------------
def set_wait(game, power: str, wait: bool) -> None:
    """``SET WAIT`` / ``SET NOWAIT`` for ``power`` in the current phase. NOWAIT
    also confirms orders a ``ROLLBACK`` restored (they may be processed early)."""
    power = game.power(power)
    s = game.schedule
    game.schedule = replace(s, wait=(s.wait | {power}) if wait else (s.wait - {power}),
                            to_confirm=s.to_confirm if wait else s.to_confirm - {power})


def check_clock(game) -> None:
    """GameError with the real reason when ``game`` has no running clock: it
    is over (``game_over``), or still forming (``not_started``: free powers
    named; START or every power taken starts it; ``no_clock``: every power
    is taken, START starts it)."""
    game.check_running()
    if not running(game):
        free = [p for p, pl in game.players.items() if not pl.addresses]
        if not free:                     # every power taken, yet no clock: the GM starts it
            raise GameError.of("no_clock", game=game.name)
        raise GameError.of("not_started", game=game.name, powers=free, map=game.map_name)


def pause(game, now: datetime, hours: float | None = None) -> Notice:
    """GM: stop the clock. The game resumes by itself after ``hours`` (at most,
    and by default, the game's ``pause_limit_hours``). GameError if it is not
    running, already paused, or ``hours`` is beyond the limit."""
    s, limit = game.schedule, game.settings.deadlines.pause_limit_hours
    check_clock(game)
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
    late = s.late
    if late:     # the grace period goes on: move the deadline so that it ends then
        deadline -= grace_end(game.settings.deadlines, s.deadline) - s.deadline
        # ... unless the hour a resume gives at least puts the deadline itself ahead again: then
        # the phase is not late any more (it was shown "past the deadline" with one an hour ahead)
        late = deadline <= now
    game.schedule = replace(s, paused_at=None, pause_until=None, pause_left=0.0, deadline=deadline,
                            late=late, reminded=s.reminded if s.late else ())
    return [deadline_notice(game, "resumed", now)]


def deadline_notice(game, kind: str, now: datetime) -> Notice:
    """A notice to everyone that the deadline is now ``game.schedule.deadline``
    (``kind``: ``"resumed"``, ``"deadline"``, ``"extended"``, ``"outage"``,
    ``"goes_on"``: a NoNMR game that waited has its powers played again)."""
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
