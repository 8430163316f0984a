"""NMR policy (issue 4 §2): who is late, the record of missed phases,
abandonment, replacement and absences. Pure functions over a game; they
change its :attr:`~judge.game.Game.schedule` or players and return
:class:`~judge.game.notices.Notice` intents for the mail layer.

When a phase is adjudicated, a power that had something to order and wrote
no order at all missed it (NMR): the game's defaults applied (units hold;
retreat and adjustment defaults per the house rules, ``RULES.md`` §3.3-3.4).
After ``abandon_after`` phases missed in a row the power is marked abandoned
and the GM is told; the GM may then issue a password for a replacement, and
is told again when the replacement takes the power (:func:`took_over`).

Vacant powers (nobody plays them: never taken, ejected, resigned, waiting for
a replacement) and abandoned ones never hold a phase up: they get no
reminders or late notices, early processing does not wait for their orders
(:func:`judge.game.turns.ready`), nor does the grace period; when the phase
is adjudicated the NMR defaults stand in for whatever they did not order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta

from ..rules.phase import Phase
from .deadlines import check_keys, grace_end, incomplete, push_past_absences
from .errors import GameError
from .notices import GM, Notice, event_key
from .records import WRITTEN, PhaseRecord, Player
from .sequence import adjustments_due


@dataclass(frozen=True)
class NmrSettings:
    """- ``late_notices``: tell players still missing orders at the deadline
      (and the GM) that they are late.
    - ``abandon_after``: phases missed in a row before a power is marked
      abandoned and the GM told (0: never).
    - ``absence_max_days``: days of absence (``SET ABSENCE``) a player may take
      in the game, in total (0: none).
    - ``nonmr``: njudge's NoNMR: a power that must order and has no complete
      orders — late, vacant, abandoned, waiting for a replacement — holds the
      phase up. At the deadline (after the grace period) the phase is not
      adjudicated with the NMR defaults: the game waits (everyone is told)
      until its orders are complete — the player's, a replacement's (who gets a
      fresh deadline) or the GM's (``BECOME``) — or the GM sends ``PROCESS``.
    Raises ValueError for a bad value."""

    late_notices: bool = True
    abandon_after: int = 3
    absence_max_days: float = 15.0
    nonmr: bool = False

    def __post_init__(self):
        for name in ("late_notices", "nonmr"):
            if not isinstance(getattr(self, name), bool):
                raise GameError("not_a_flag", what=name)
        if not isinstance(self.abandon_after, int) or isinstance(self.abandon_after, bool) \
                or self.abandon_after < 0:
            raise GameError("not_at_least_zero", what="abandon_after")
        if not isinstance(self.absence_max_days, (int, float)) or self.absence_max_days < 0:
            raise GameError("not_at_least_zero", what="absence_max_days")
        object.__setattr__(self, "absence_max_days", float(self.absence_max_days))

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> "NmrSettings":
        check_keys(data, {f.name for f in fields(cls)}, "settings.nmr")
        return cls(**data)


def playing(game, power: str) -> bool:
    """Whether someone plays ``power`` (it has an address) and it is not abandoned."""
    return bool(game.players[power].addresses) and power not in game.schedule.abandoned


def holds_up(game, power: str) -> bool:
    """Whether ``power``'s orders hold the phase up: it is played, or the game
    is NoNMR (``nonmr``: every power that must order holds it up)."""
    return game.settings.nmr.nonmr or playing(game, power)


def missing_powers(game) -> list[str]:
    """Powers that must order this phase and whose orders are not complete, in
    map order (vacant and abandoned ones too)."""
    return incomplete(game, game.map.powers)


def late_notices(game, now: datetime) -> list[Notice]:
    """At the deadline, with a grace period: one notice to each late player
    (still playing) and one to the GM listing them. Empty if the game does not
    send late notices or nobody is late."""
    if not game.settings.nmr.late_notices:
        return []
    late = missing_powers(game)
    if not late:
        return []
    sched = game.schedule
    until = grace_end(game.settings.deadlines, sched.deadline)
    key = event_key(game, sched.phase, "late")
    out = [Notice("late", (p,), {"game": game.name, "map": game.map_name, "power": p,
                                 "phase": sched.phase, "deadline": sched.deadline, "grace": until,
                                 "missing": missing_units(game, p),
                                 "timezone": game.settings.deadlines.timezone}, key)
           for p in late if playing(game, p)]
    out.append(Notice("late_gm", (GM,), {"game": game.name, "map": game.map_name, "phase": sched.phase,
                                         "late": late, "grace": until,
                                         "timezone": game.settings.deadlines.timezone}, key))
    return out


def missing_units(game, power: str) -> list[tuple[str, str]]:
    """``[(unit type, location)]`` of ``power``'s units (dislodged units in a
    retreat phase) still without orders."""
    pos, kind = game.position, game.phase.kind
    out = []
    for loc in game.unordered(power):
        prov = loc.partition("/")[0]
        unit = pos.units[prov] if kind == "M" else pos.dislodged[prov].unit
        out.append((unit.type, unit.location))
    return out


def missed_by(record: PhaseRecord, game_map) -> list[str]:
    """Powers that had something to order in ``record``'s phase and wrote no
    order at all (the judge's defaults or standing lists stood in)."""
    kind = Phase.parse(record.phase).kind
    before = record.position_before
    if kind == "M":
        needed = {u.power for u in before.units.values()}
    elif kind == "R":
        needed = {d.unit.power for d in before.dislodged.values()}
    else:
        needed = set(adjustments_due(game_map, before))
    wrote = {p for p, es in record.orders.items() if any(e.source == WRITTEN for e in es)}
    return [p for p in game_map.powers if p in needed and p not in wrote]


def record_nmr(game, records: list[PhaseRecord]) -> list[Notice]:
    """Update the NMR record after ``records`` were adjudicated: a miss adds to
    the power's run of misses, orders end it. A power whose run reaches the
    game's ``abandon_after`` is marked abandoned and the GM told. Returns the
    notices."""
    sched, limit = game.schedule, game.settings.nmr.abandon_after
    nmr, missed, abandoned = dict(sched.nmr), dict(sched.missed), set(sched.abandoned)
    notices = []
    for rec in records:
        missing = missed_by(rec, game.map)
        for p in game.map.powers:
            if p in missing:
                nmr[p] = nmr.get(p, 0) + 1
                missed[p] = missed.get(p, ()) + (rec.phase,)
            elif p in rec.orders and any(e.source == WRITTEN for e in rec.orders[p]):
                nmr.pop(p, None)
        for p in missing:
            if limit and nmr.get(p, 0) >= limit and p not in abandoned and game.players[p].addresses:
                abandoned.add(p)
                notices.append(Notice("abandoned", (GM,), {
                    "game": game.name, "map": game.map_name, "power": p, "phase": rec.phase,
                    "count": nmr[p], "missed": list(missed[p])}, event_key(game, rec.phase, "abandoned", p)))
    game.schedule = replace(sched, nmr=nmr, missed=missed, abandoned=frozenset(abandoned))
    return notices


def replace_player(game, power: str, password_hash: str) -> None:
    """GM: make ``power`` open to a replacement who joins with the password
    whose hash is given (the old player's addresses are dropped, the NMR run
    and the abandoned mark cleared; the record of missed phases stays).
    Raises GameError for an unknown power."""
    power = game.power(power)
    game.players[power] = Player((), password_hash, game.players[power].language)
    _clear_attendance(game, power)


def eject_player(game, power: str) -> Player:
    """GM: remove the player of ``power`` (vacant afterwards); returns the old
    :class:`Player`. Raises GameError if nobody plays it."""
    power = game.power(power)
    old = game.players[power]
    if not old.addresses:
        raise GameError.of("nobody_plays", power=power, map=game.map_name)
    game.players[power] = Player()
    _clear_attendance(game, power)
    return old


def took_over(game, power: str, address: str, now: datetime) -> list[Notice]:
    """A player (``address``) has just taken ``power``. If the power had a
    player before (who resigned, was ejected, or was replaced after being
    abandoned: :attr:`Game.roster`) or phases have been adjudicated, that is
    a replacement and the GM is told. Returns the notices (none for a first
    join before the game's first adjudication)."""
    power = game.power(power)
    if not game.history and not any(c.power == power and c.event != "joined" for c in game.roster):
        return []
    return [Notice("took_over", (GM,), {"game": game.name, "map": game.map_name, "power": power,
                                        "phase": str(game.phase), "address": address},
                   f"{game.name}:{game.phase}:took_over:{power}:{now.isoformat()}")]


def _clear_attendance(game, power: str) -> None:
    s = game.schedule
    nmr = {p: n for p, n in s.nmr.items() if p != power}
    absences = {p: a for p, a in s.absences.items() if p != power}
    game.schedule = replace(s, nmr=nmr, abandoned=s.abandoned - {power}, wait=s.wait - {power},
                            absences=absences)


def set_absence(game, power: str, start: datetime, end: datetime, now: datetime) -> datetime | None:
    """``SET ABSENCE FROM start TO end`` for ``power``: no deadline falls in the
    span; the current deadline moves to its end if it falls in it. The days are
    counted against the game's ``absence_max_days``. Returns the new deadline
    if it moved, else None. Raises GameError for a span in the past, an end
    before the start, or beyond the limit."""
    power = game.power(power)
    if end <= start:
        raise GameError("absence_backwards")
    if end <= now:
        raise GameError("absence_over")
    start = max(start, now)
    sched, limit = game.schedule, game.settings.nmr.absence_max_days
    kept = [a for a in sched.absences.get(power, ()) if a[1] > now]
    # an absence overlapping one already set joins it: the days both cover count once (issue 22)
    covered = sum(((min(b, end) - max(a, start)) for a, b in kept if a < end and b > start), timedelta(0))
    days = max(math.ceil((end - start - covered) / timedelta(days=1) * 100) / 100, 0.0)
    used = sched.absence_days.get(power, 0.0)
    if used + days > limit:
        raise GameError("absence_limit", limit=f"{limit:g}", power=power, left=f"{max(limit - used, 0):g}",
                        map=game.map_name)
    spans = _joined(kept + [(start, end)])
    sched = replace(sched, absences={**sched.absences, power: spans},
                    absence_days={**sched.absence_days, power: round(used + days, 2)})
    moved = None
    if sched.deadline is not None and not sched.late and not sched.paused:
        new = push_past_absences(sched.deadline, sched.all_absences())
        if new != sched.deadline:
            sched, moved = replace(sched, deadline=new, reminded=()), new
    game.schedule = sched
    return moved


def _joined(spans) -> tuple[tuple[datetime, datetime], ...]:
    """``spans`` sorted, those that overlap or touch made one."""
    out: list[tuple[datetime, datetime]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def clear_absence(game, power: str, now: datetime) -> int:
    """``SET NOABSENCE`` (njudge's): ``power``'s absences not over yet are
    withdrawn (a deadline already moved stays where it is; the days stay
    counted). Returns how many were withdrawn."""
    power = game.power(power)
    sched = game.schedule
    spans = sched.absences.get(power, ())
    gone = [a for a in spans if a[1] > now]
    if gone:
        absences = {p: a for p, a in sched.absences.items() if p != power}
        game.schedule = replace(sched, absences=absences)
    return len(gone)
