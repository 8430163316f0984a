"""Phase names: ``S1901M`` (Spring movement), ``F1901R`` (Fall retreats),
``W1901A`` (Winter adjustments). ``RULES.md`` §1: a year has five phases."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .reasons import RuleError

MOVEMENT, RETREAT, ADJUSTMENT = "M", "R", "A"
_RE = re.compile(r"^([SFW])(\d{1,4})([MRA])$")


@dataclass(frozen=True)
class Phase:
    year: int
    season: str   # "S", "F" or "W"
    kind: str     # "M", "R" or "A"

    @classmethod
    def parse(cls, name: str) -> "Phase":
        """``"S1901M"`` -> ``Phase(1901, "S", "M")``; raises
        :class:`~.reasons.RuleError` ``bad_phase`` (a ValueError) otherwise.
        Its name in words is the text layer's (``judge.text``). Phases are
        values (frozen): a name read before gives the same one (cached)."""
        return _parse(cls, name)

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    def sort_key(self) -> tuple[int, int]:
        return (self.year, ["SM", "SR", "FM", "FR", "WA"].index(self.season + self.kind))

    def next_in_year(self) -> "Phase":
        """The phase that follows in the five-phase year (skipping is the game's job)."""
        seq = [("S", "M"), ("S", "R"), ("F", "M"), ("F", "R"), ("W", "A")]
        i = seq.index((self.season, self.kind))
        if i == 4:
            return Phase(self.year + 1, "S", "M")
        s, k = seq[i + 1]
        return Phase(self.year, s, k)


@lru_cache(maxsize=1024)
def _parse(cls, name: str) -> Phase:
    m = _RE.match(name.strip().upper())
    if not m or (m.group(1) == "W") != (m.group(3) == "A"):
        raise RuleError("bad_phase", text=name)
    return cls(int(m.group(2)), m.group(1), m.group(3))
