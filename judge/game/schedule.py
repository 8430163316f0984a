"""The running state of a game's clock and its players' attendance: the
current phase's deadline, reminders sent, ``WAIT`` flags, a pause, absences,
and each power's NMR record (issue 4 §1-2). Kept in :attr:`Game.schedule`.

Times are aware UTC datetimes. A game whose ``deadline`` is None has no
deadline (not started, or run by hand): nothing fires for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime

from .codec import time_from_str, time_to_str


@dataclass(frozen=True)
class Schedule:
    """- ``phase``: the phase this deadline belongs to (``"S1901M"``); a
      deadline work item for another phase is stale.
    - ``opened``: when the phase began; ``deadline``: when its orders are due.
    - ``late``: the deadline has passed and the grace period is running.
    - ``reminded``: reminders already sent for this phase (hours before).
    - ``wait``: powers that set ``WAIT`` (no early processing this phase).
    - ``paused_at`` / ``pause_until``: a GM pause and when it ends by itself;
      ``pause_left``: seconds the phase had left when it was paused.
    - ``absences``: ``{power: ((start, end), ...)}`` a player will be away;
      ``absence_days``: days of absence each power has used (the GM's limit).
    - ``nmr``: consecutive phases each power missed; ``missed``: every phase it
      missed (the record the GM sees); ``abandoned``: powers given up for
      missing too many phases (a replacement may take them over).
    - ``rollbacks``: how many times the GM rolled the game back; the mails of
      a phase played again are new mails (:func:`judge.game.notices.event_key`).
    - ``acted``: the GM's phase-changing commands done lately, as ``(digest of
      the mail, the phase and deadline it left, time, mail key, order entries
      of the phase then)`` (ISO times),
      so a repeat of the same mail is known (:mod:`judge.verbs.gm`,
      issue 13 point 12).
    - ``waiting``: a NoNMR game (``nmr.nonmr``) past its deadline waits for
      the orders of a power (or a replacement) before it is adjudicated.
    - ``to_confirm``: powers whose orders a ``ROLLBACK`` restored and who have
      not sent orders (or ``SET NOWAIT``) since: the phase is not processed
      early while one of them must order (issue 13 point 1).
    """

    phase: str | None = None
    opened: datetime | None = None
    deadline: datetime | None = None
    late: bool = False
    reminded: tuple[float, ...] = ()
    wait: frozenset[str] = frozenset()
    paused_at: datetime | None = None
    pause_until: datetime | None = None
    pause_left: float = 0.0
    absences: dict[str, tuple[tuple[datetime, datetime], ...]] = field(default_factory=dict)
    absence_days: dict[str, float] = field(default_factory=dict)
    nmr: dict[str, int] = field(default_factory=dict)
    missed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    abandoned: frozenset[str] = frozenset()
    rollbacks: int = 0
    to_confirm: frozenset[str] = frozenset()
    waiting: bool = False
    acted: tuple[tuple[str, str, str, str, str, int], ...] = ()

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def all_absences(self) -> list[tuple[datetime, datetime]]:
        return [a for spans in self.absences.values() for a in spans]

    def to_dict(self) -> dict:
        return {
            "phase": self.phase, "opened": time_to_str(self.opened),
            "deadline": time_to_str(self.deadline), "late": self.late,
            "reminded": list(self.reminded), "wait": sorted(self.wait),
            "paused_at": time_to_str(self.paused_at), "pause_until": time_to_str(self.pause_until),
            "pause_left": self.pause_left,
            "absences": {p: [[time_to_str(a), time_to_str(b)] for a, b in spans]
                         for p, spans in self.absences.items()},
            "absence_days": dict(self.absence_days), "nmr": dict(self.nmr),
            "missed": {p: list(ph) for p, ph in self.missed.items()},
            "abandoned": sorted(self.abandoned), "rollbacks": self.rollbacks,
            "to_confirm": sorted(self.to_confirm), "waiting": self.waiting,
            "acted": [list(a) for a in self.acted],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Schedule":
        """Inverse of :meth:`to_dict`; missing keys take their defaults (games
        stored before a key existed). Raises ValueError for an unknown key."""
        extra = set(data) - {f.name for f in fields(cls)}
        if extra:
            raise ValueError(f"unknown schedule key(s): {', '.join(sorted(extra))}")
        return cls(
            data.get("phase"), time_from_str(data.get("opened")), time_from_str(data.get("deadline")),
            bool(data.get("late", False)), tuple(float(h) for h in data.get("reminded", ())),
            frozenset(data.get("wait", ())), time_from_str(data.get("paused_at")),
            time_from_str(data.get("pause_until")), float(data.get("pause_left", 0.0)),
            {p: tuple((time_from_str(a), time_from_str(b)) for a, b in spans)
             for p, spans in data.get("absences", {}).items()},
            {p: float(d) for p, d in data.get("absence_days", {}).items()},
            {p: int(n) for p, n in data.get("nmr", {}).items()},
            {p: tuple(ph) for p, ph in data.get("missed", {}).items()},
            frozenset(data.get("abandoned", ())), int(data.get("rollbacks", 0)),
            frozenset(data.get("to_confirm", ())), bool(data.get("waiting", False)),
            tuple(tuple(a) for a in data.get("acted", ())),
        )
