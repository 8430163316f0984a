"""Deadlines: when a phase's orders are due, reminders, the grace period and
early processing (issue 4 §1). Pure: no clock; every time is an aware UTC
:class:`datetime` given by the caller.

Time zones are IANA names read with :mod:`zoneinfo`. Whole days of a phase's
length are counted on the wall clock of the game's time zone, so a deadline at
20:00 local stays at 20:00 local across a daylight-saving change (the phase is
then 23 or 25 hours long); hours beyond whole days are real hours. A local time
that does not exist (the hour skipped in spring) moves forward by the gap; a
local time that exists twice (autumn) is the first of the two.

``DeadlineSettings`` is the ``deadlines`` group of :class:`judge.game.Settings`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..rules.orders import Build, Disband, Waive
from . import book
from .errors import GameError
from .sequence import adjustments_due

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
OUTAGE_POLICIES = ("process", "extend")
"""After the daemon was down past a deadline: ``"process"`` the phase at once,
or ``"extend"`` the deadline by ``outage_hours`` from the restart (njudge's way)."""

_CLOCK_RE = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


@dataclass(frozen=True)
class Timing:
    """How one kind of phase (movement, retreat, adjustment) gets its deadline.

    - ``hours``: the phase lasts this long from its start (whole days on the
      wall clock, the rest in real hours); used when ``at`` is None.
    - ``at``: ``"HH:MM"`` local time: the deadline is the first such time, on an
      allowed day, at least ``min_hours`` after the phase starts.
    - ``days``: the weekdays (``"mon"`` .. ``"sun"``) a deadline may fall on; a
      deadline on another day moves on to the next allowed day, same clock time.

    Raises ValueError for a negative or zero length, a bad clock time or weekday.
    """

    hours: float = 48.0
    at: str | None = None
    min_hours: float = 0.0
    days: tuple[str, ...] = WEEKDAYS

    def __post_init__(self):
        if not isinstance(self.hours, (int, float)) or isinstance(self.hours, bool) or self.hours <= 0:
            raise GameError("hours_above_zero", what="hours")
        if not isinstance(self.min_hours, (int, float)) or self.min_hours < 0:
            raise GameError("not_hours", what="min_hours")
        if self.at is not None and not (isinstance(self.at, str) and _CLOCK_RE.match(self.at)):
            raise GameError("bad_clock", text=str(self.at))
        days = tuple(str(d).lower()[:3] for d in self.days)
        if not days or any(d not in WEEKDAYS for d in days):
            raise GameError("bad_weekdays", text=",".join(map(str, self.days)))
        object.__setattr__(self, "days", tuple(d for d in WEEKDAYS if d in days))
        object.__setattr__(self, "hours", float(self.hours))
        object.__setattr__(self, "min_hours", float(self.min_hours))

    @property
    def clock(self) -> time | None:
        if self.at is None:
            return None
        h, m = self.at.split(":")
        return time(int(h), int(m))

    def to_dict(self) -> dict:
        return {"hours": self.hours, "at": self.at, "min_hours": self.min_hours, "days": list(self.days)}

    @classmethod
    def from_dict(cls, data: dict, where: str = "timing") -> "Timing":
        check_keys(data, {f.name for f in fields(cls)}, where)
        data = dict(data)
        if "days" in data:
            days = data["days"]
            data["days"] = tuple(days.split(",") if isinstance(days, str) else days)
        return cls(**data)


@dataclass(frozen=True)
class DeadlineSettings:
    """A game's deadline settings (issue 4 §1).

    - ``timezone``: IANA zone the deadlines are set and shown in.
    - ``movement``, ``retreat``, ``adjustment``: a :class:`Timing` each.
    - ``grace_hours``: after the deadline, players still missing orders are told
      they are late and may still order for this long; then the phase is
      adjudicated with the game's defaults for what is missing (0: at once).
    - ``reminders``: hours before the deadline at which players whose orders are
      incomplete are reminded (e.g. ``(24, 1)``).
    - ``early``: adjudicate as soon as every power that has to order has complete
      orders and nobody has set ``WAIT``.
    - ``outage`` / ``outage_hours``: see :data:`OUTAGE_POLICIES`.
    - ``pause_limit_hours``: the longest pause a GM may set; a paused game
      resumes by itself at the end of it.
    """

    timezone: str = "UTC"
    movement: Timing = field(default_factory=lambda: Timing(48.0))
    retreat: Timing = field(default_factory=lambda: Timing(24.0))
    adjustment: Timing = field(default_factory=lambda: Timing(24.0))
    grace_hours: float = 24.0
    reminders: tuple[float, ...] = (24.0, 1.0)
    early: bool = True
    outage: str = "process"
    outage_hours: float = 24.0
    pause_limit_hours: float = 14 * 24.0

    def __post_init__(self):
        zone_of(self.timezone)
        for name in ("grace_hours", "outage_hours", "pause_limit_hours"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise GameError("not_hours", what=name)
            object.__setattr__(self, name, float(value))
        rem = tuple(sorted({float(h) for h in self.reminders}, reverse=True))
        if any(h <= 0 for h in rem):
            raise GameError("hours_above_zero", what="reminders")
        object.__setattr__(self, "reminders", rem)
        if not isinstance(self.early, bool):
            raise GameError("not_a_flag", what="early")
        if self.outage not in OUTAGE_POLICIES:
            raise GameError("not_a_choice", what="outage", value=repr(self.outage), allowed=OUTAGE_POLICIES)
        for name in ("movement", "retreat", "adjustment"):
            if not isinstance(getattr(self, name), Timing):
                raise GameError("not_a_setting_value", what=name, value=repr(getattr(self, name)))

    @property
    def zone(self) -> ZoneInfo:
        return zone_of(self.timezone)

    def timing(self, phase_kind: str) -> Timing:
        """The :class:`Timing` of ``"M"``, ``"R"`` or ``"A"`` phases."""
        return {"M": self.movement, "R": self.retreat, "A": self.adjustment}[phase_kind]

    def to_dict(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in ("movement", "retreat", "adjustment"):
            out[name] = out[name].to_dict()
        out["reminders"] = list(self.reminders)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "DeadlineSettings":
        """Raises ValueError for an unknown key or a bad value; missing keys
        take their defaults."""
        check_keys(data, {f.name for f in fields(cls)}, "settings.deadlines")
        data = dict(data)
        for name in ("movement", "retreat", "adjustment"):
            if name in data:
                data[name] = Timing.from_dict(mapping(data[name], f"settings.deadlines.{name}"),
                                              f"settings.deadlines.{name}")
        if "reminders" in data:
            data["reminders"] = tuple(data["reminders"])
        return cls(**data)


def zone_of(name: str) -> ZoneInfo:
    """The :class:`ZoneInfo` of an IANA name; ValueError if unknown."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise GameError("unknown_zone", text=str(name)) from None


# ---- wall-clock arithmetic ---------------------------------------------------------
def local_to_utc(naive: datetime, zone: ZoneInfo) -> datetime:
    """A local wall-clock time (naive) in ``zone`` -> UTC. A time skipped by a
    daylight-saving change moves forward by the gap (02:30 on a spring-forward
    night in Paris -> 03:30 CEST); a time that exists twice is the first one."""
    # fold=0: in a gap zoneinfo uses the offset from before the change, which
    # lands after the gap; in an overlap, the first occurrence
    return naive.replace(tzinfo=zone, fold=0).astimezone(timezone.utc)


def add_wall_clock(start: datetime, hours: float, zone: ZoneInfo) -> datetime:
    """``start`` (UTC) plus ``hours``: whole days on the wall clock of ``zone``,
    the remainder in real hours. Returns UTC."""
    days = math.floor(hours / 24)
    rest = hours - 24 * days
    local = start.astimezone(zone).replace(tzinfo=None)
    out = local_to_utc(local + timedelta(days=days), zone)
    return out + timedelta(hours=rest)


def _on_allowed_day(when: datetime, timing: Timing, zone: ZoneInfo) -> datetime:
    local = when.astimezone(zone).replace(tzinfo=None)
    for _ in range(7):
        if WEEKDAYS[local.weekday()] in timing.days:
            return local_to_utc(local, zone)
        local += timedelta(days=1)
    raise AssertionError("Timing has at least one day")


def next_deadline(settings: DeadlineSettings, phase_kind: str, start: datetime) -> datetime:
    """The deadline (UTC) of a phase of kind ``phase_kind`` (``"M"``, ``"R"``,
    ``"A"``) that starts at ``start`` (aware). See :class:`Timing`. Raises
    ValueError for a naive ``start``."""
    _check_aware(start)
    start = whole_minute(start)
    timing, zone = settings.timing(phase_kind), settings.zone
    if timing.clock is None:
        return _on_allowed_day(add_wall_clock(start, timing.hours, zone), timing, zone)
    earliest = start + timedelta(hours=timing.min_hours)
    day: date = earliest.astimezone(zone).date()
    for _ in range(9):
        candidate = local_to_utc(datetime.combine(day, timing.clock), zone)
        if candidate > earliest and WEEKDAYS[day.weekday()] in timing.days:
            return candidate.astimezone(timezone.utc)
        day += timedelta(days=1)
    raise AssertionError("a clock time on an allowed day is found within 9 days")


def whole_minute(when: datetime) -> datetime:
    """``when`` without its seconds and microseconds: deadlines counted from
    the processing time fall on whole minutes."""
    return when.replace(second=0, microsecond=0)


def grace_end(settings: DeadlineSettings, deadline: datetime) -> datetime:
    """When the grace period after ``deadline`` ends (UTC)."""
    return add_wall_clock(deadline, settings.grace_hours, settings.zone) if settings.grace_hours else deadline


def reminder_times(settings: DeadlineSettings, deadline: datetime, opened: datetime | None) -> list[tuple[float, datetime]]:
    """``[(hours before, when)]`` of the reminders for a phase, latest-first
    hours order; a reminder that would fall before the phase opened is left out."""
    out = []
    for hours in settings.reminders:
        when = deadline - timedelta(hours=hours)
        if opened is None or when > opened:
            out.append((hours, when))
    return out


def reminders_due(settings: DeadlineSettings, deadline: datetime, opened: datetime | None,
                  sent: tuple[float, ...], now: datetime) -> list[float]:
    """The reminders (hours before ``deadline``) due at ``now`` and not yet
    ``sent``; only the closest one to the deadline is kept when several are due
    at once (the others would say the same thing)."""
    due = [h for h, when in reminder_times(settings, deadline, opened) if when <= now < deadline
           and h not in sent]
    return [min(due)] if due else []


def push_past_absences(deadline: datetime, absences) -> datetime:
    """``deadline`` moved to the end of any absence ``(start, end)`` it falls in
    (repeatedly, as absences may chain)."""
    moved = True
    while moved:
        moved = False
        for start, end in absences:
            if start <= deadline < end:
                deadline, moved = end, True
    return deadline


# ---- whose orders are complete -----------------------------------------------------
def orders_needed(game, power: str) -> bool:
    """Whether ``power`` has anything to order in the current phase: units in a
    movement phase, dislodged units in a retreat phase, builds or removals in an
    adjustment phase."""
    kind, pos = game.phase.kind, game.position
    if kind == "M":
        return any(u.power == power for u in pos.units.values())
    if kind == "R":
        return any(d.unit.power == power for d in pos.dislodged.values())
    return bool(adjustments_due(game.map, pos).get(power))


def is_complete(game, power: str) -> bool:
    """Whether ``power`` has orders for everything it must order this phase:
    every unit (movement), every dislodged unit (retreat), every build or waive
    or a build list, every removal or a disband list (adjustment). A power with
    nothing to order is complete."""
    if not orders_needed(game, power):
        return True
    if game.phase.kind != "A":
        return not game.unordered(power)
    n, given, listed = adjustment_status(game, power)
    return listed or given >= abs(n)


def incomplete(game, powers) -> list[str]:
    """The powers of ``powers``, in their order, that are not complete
    (:func:`is_complete`): in a movement or retreat phase those with a unit
    still without an order, the board read once for them all
    (:meth:`judge.game.Game.unordered_of`)."""
    if game.phase.kind == "A":
        return [p for p in powers if not is_complete(game, p)]
    return [p for p, left in game.unordered_of(powers).items() if left]


def adjustment_status(game, power: str) -> tuple[int, int, bool]:
    """In an adjustment phase, ``(due, ordered, listed)`` for ``power``: the
    builds (positive) or removals (negative) it must or may make, how many of
    them its orders give (builds and waives, or removals), and whether a
    standing build or disband list covers them."""
    n = adjustments_due(game.map, game.position).get(power, 0)
    entries = book.active(game.orders.get(power, ()) + game.standing.get(power, ()))
    kinds, listed = ((Build, Waive), ("build list",)) if n > 0 else ((Disband,), ("disband list",))
    given = sum(1 for e in entries if isinstance(e.order, kinds))
    return n, given, any(book.entry_key(e.order, "A") == listed for e in entries)


def _check_aware(when: datetime) -> None:
    if not isinstance(when, datetime) or when.tzinfo is None or when.utcoffset() is None:
        raise GameError("naive_time", what="time")


def mapping(data, where: str) -> dict:
    if not isinstance(data, dict):
        raise GameError("not_a_setting_value", what=where, value=repr(data))
    return data


def check_keys(data, known: set[str], where: str) -> None:
    mapping(data, where)
    extra = set(data) - known
    if extra:
        raise GameError("unknown_settings", group=where, keys=sorted(extra))
