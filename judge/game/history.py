"""A game's history: one :class:`~judge.game.records.PhaseRecord` per
adjudicated phase, oldest first, read only when asked for.

The store keeps each record apart from the game's live state, written once
(:mod:`judge.storage.games`); a game read for an order mail knows only how
many records it has, and loads a record the first time it is used: the
results of the last phase need the last record alone, ``HISTORY`` and the
archive the ones they show. :class:`History` is a read-only sequence with
two changes, :meth:`append` (adjudication) and :meth:`truncate` (the GM's
``ROLLBACK``); :meth:`changes` says what to write since the game was read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, Iterable

from .records import PhaseRecord


class History(Sequence):
    """``History(records)`` holds records already in memory;
    ``History(count=n, load=f)`` has ``n`` stored records, ``f(i)`` giving
    record ``i`` (0-based) as a :class:`PhaseRecord` (it may raise KeyError
    or ValueError for a missing or malformed record: the store's error)."""

    def __init__(self, records: Iterable[PhaseRecord] = (), *, count: int | None = None,
                 load: Callable[[int], PhaseRecord] | None = None):
        records = list(records)
        if count is None:
            count = len(records)
        if len(records) not in (0, count) or (count and not records and load is None):
            raise ValueError("History: give every record, or a count and a loader")
        self._items: list[PhaseRecord | None] = records or [None] * count
        self._load = load
        self._stored = count            # records 0 .. stored-1 are in the store as they are here

    # ---- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self._get(j) for j in range(*i.indices(len(self._items))))
        if i < 0:
            i += len(self._items)
        if not 0 <= i < len(self._items):
            raise IndexError("history index out of range")
        return self._get(i)

    def __iter__(self):
        return (self._get(i) for i in range(len(self._items)))

    def __eq__(self, other) -> bool:
        if isinstance(other, (History, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"History({len(self)} records)"

    def find(self, phase: str) -> PhaseRecord | None:
        """The record of ``phase`` (a phase name such as ``"F1901M"``), or None;
        looks from the newest back, so recent phases load no older records."""
        for i in range(len(self._items) - 1, -1, -1):
            rec = self._get(i)
            if rec.phase == phase:
                return rec
        return None

    def _get(self, i: int) -> PhaseRecord:
        rec = self._items[i]
        if rec is None:
            rec = self._items[i] = self._load(i)
        return rec

    # ---- changing --------------------------------------------------------------------
    def append(self, record: PhaseRecord) -> None:
        """A phase adjudicated: ``record`` becomes the newest."""
        self._items.append(record)

    def truncate(self, n: int) -> None:
        """Keep the oldest ``n`` records (``ROLLBACK``); later ones are dropped."""
        if not 0 <= n <= len(self._items):
            raise ValueError(f"cannot keep {n} of {len(self._items)} records")
        del self._items[n:]
        self._stored = min(self._stored, n)

    def rebind(self, load: Callable[[int], PhaseRecord]) -> None:
        """Read records not yet loaded with ``load`` from now on (a new view of the store)."""
        self._load = load

    def changes(self, stored_count: int) -> tuple[list[tuple[int, PhaseRecord]], range]:
        """What to write so that a store holding ``stored_count`` records of
        this game holds this history: ``(new records [(index, record)],
        indexes to delete)``."""
        keep = min(self._stored, stored_count)
        new = [(i, self._get(i)) for i in range(keep, len(self._items))]
        return new, range(len(self._items), stored_count)

    def mark(self) -> tuple:
        """What :meth:`restore` needs to put this history back as it is now."""
        return list(self._items), self._stored, self._load

    def restore(self, mark: tuple) -> None:
        """Back to the state of :meth:`mark` (a refused command undone)."""
        items, self._stored, self._load = mark
        self._items = list(items)

    def saved(self) -> None:
        """Every record is now in the store (after a commit)."""
        self._stored = len(self._items)
