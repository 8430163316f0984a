"""A phase's replaced orders, kept apart from the current ones.

Every order mail may replace orders sent before; the record of the phase
shows them all (``RULES.md`` §2, :class:`~judge.game.records.PhaseRecord`).
Kept in the game's live state, they would be decoded and encoded again with
every later mail of the phase. So the store appends them, as they are
replaced, to a log of the phase (one JSON line each: power, arrival number
``n``, entry), and the game keeps only its current entries (and, until it
is saved, the ones just replaced). Each entry carries its arrival number
(:attr:`~judge.game.records.OrderEntry.n`, per power and phase), so the
record puts the two back in arrival order (:func:`merged`).

:class:`ReplacedLog` is what a game knows of its log: the record index it
belongs to, its length in bytes, how many entries it holds, and how to read
them (given by the store: :func:`judge.storage.games.load_game`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Callable

from .records import OrderEntry


@dataclass
class ReplacedLog:
    """``index``: the record the phase will be (None: nothing logged yet);
    ``size``: bytes; ``count``: entries; ``next``: the arrival number of the
    next entry of each power; ``load()``: the bytes (the store's)."""

    index: int | None = None
    size: int = 0
    count: int = 0
    next: dict[str, int] = field(default_factory=dict)
    load: Callable[[], bytes] | None = field(default=None, repr=False)

    def to_dict(self) -> dict:
        return {"index": self.index, "size": self.size, "count": self.count, "next": dict(self.next)}

    @classmethod
    def from_dict(cls, data: dict | None) -> "ReplacedLog":
        data = data or {}
        return cls(data.get("index"), int(data.get("size", 0)), int(data.get("count", 0)),
                   dict(data.get("next", {})))

    def entries(self) -> dict[str, list[OrderEntry]]:
        """``{power: [OrderEntry]}`` logged, in the order they were logged."""
        if not self.count or self.load is None:
            return {}
        out: dict[str, list[OrderEntry]] = {}
        for line in self.load().decode("utf-8").splitlines():
            row = json.loads(line)
            out.setdefault(row["p"], []).append(numbered(OrderEntry.from_dict(row["e"]), row["n"]))
        return out


def numbered(entry: OrderEntry, n: int) -> OrderEntry:
    return replace(entry, n=n)


def lines(power: str, entries) -> str:
    """The log lines of ``entries`` (replaced ones of ``power``)."""
    return "".join(json.dumps({"p": power, "n": e.n, "e": e.to_dict()}, ensure_ascii=False,
                              separators=(",", ":")) + "\n" for e in entries)


def merged(logged: list[OrderEntry], current) -> tuple[OrderEntry, ...]:
    """A power's logged and current entries in arrival order."""
    if not logged:
        return tuple(current)
    return tuple(sorted([*logged, *current], key=lambda e: e.n if e.n is not None else -1))
