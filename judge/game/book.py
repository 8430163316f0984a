"""A power's orders for the current phase: the last order for a unit wins.

``RULES.md`` §2: "the last orders received before the deadline count". An
earlier order for the same unit (or an earlier list of the same kind) is kept,
marked replaced, so the record shows what was written — the last
:data:`MAX_REPLACED` of them per power and phase (:func:`trimmed`): a player
sending thousands of order mails in one phase must not make every later mail
of the game cost more. In an adjustment phase
builds and waives beyond the power's count replace the earliest ones, as do
removals beyond the removals due.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from ..rules.map import province_of
from ..rules.orders import (
    Build, BuildPriority, Convoy, Disband, DisbandPriority, Hold, Move, Retreat, RetreatPreference, Support, Waive,
)
from .records import OrderEntry

STANDING_TYPES = (RetreatPreference, BuildPriority, DisbandPriority)
MAX_REPLACED = 100
"""Replaced entries kept per power and phase (the most recent ones)."""


def entry_key(order, phase_kind: str) -> tuple | None:
    """What an order is for: a later entry with the same key replaces it.
    None for a waive (each waive stands alone)."""
    if type(order) in _UNIT_ORDERS:         # most orders (issue 23: read for every entry, many times a mail)
        return ("unit", province_of(order.location))
    if isinstance(order, RetreatPreference):
        return ("retreat list", province_of(order.location))
    if isinstance(order, BuildPriority):
        return ("build list",)
    if isinstance(order, DisbandPriority):
        return ("disband list",)
    if isinstance(order, Waive):
        return None
    if isinstance(order, Build):
        return ("build", province_of(order.location))
    if isinstance(order, Disband) and phase_kind != "R":
        return ("remove", province_of(order.location))
    return ("unit", province_of(order.location))


_UNIT_ORDERS = frozenset({Hold, Move, Support, Convoy, Retreat})
"""Order types :func:`entry_key` keys by their unit whatever the phase (none
is a subclass of the kinds it tells apart first)."""


def group_of(order) -> str | None:
    """``"builds"`` for builds and waives, ``"removals"`` for adjustment removals."""
    if isinstance(order, (Build, Waive)):
        return "builds"
    if isinstance(order, Disband):
        return "removals"
    return None


class Book:
    """A power's entries while orders are added: :meth:`add` appends one and
    marks what it replaces (module doc) in constant time, so a mail with N
    order lines costs time linear in N (an index of the active entry per key
    and, per group, the active entries in order).

    ``entries``: the power's entries so far; ``limits``: ``{"builds": n,
    "removals": m}`` in an adjustment phase. :attr:`entries` gives the tuple."""

    def __init__(self, entries: tuple[OrderEntry, ...], phase_kind: str,
                 limits: dict[str, int] | None = None):
        self.kind, self.limits = phase_kind, limits or {}
        self._out = list(entries)
        self._by_key: dict[tuple, int] = {}
        self._groups: dict[str, deque[int]] = {"builds": deque(), "removals": deque()}
        self._active = {"builds": 0, "removals": 0}
        for i, e in enumerate(self._out):
            if not e.replaced:
                self._index(i)

    @property
    def entries(self) -> tuple[OrderEntry, ...]:
        return tuple(self._out)

    def add(self, entry: OrderEntry) -> list[OrderEntry]:
        """Append ``entry``; returns the entries it replaced (as they were)."""
        gone = []
        key = entry_key(entry.order, self.kind)
        if key is not None and key in self._by_key:
            gone.append(self._replace(self._by_key[key]))
        self._out.append(entry)
        self._index(len(self._out) - 1)
        group = group_of(entry.order)
        if group in self.limits:
            queue = self._groups[group]
            while self._active[group] > self.limits[group]:
                while self._out[queue[0]].replaced:
                    queue.popleft()
                gone.append(self._replace(queue.popleft()))
        return gone

    def _index(self, i: int) -> None:
        order = self._out[i].order
        key = entry_key(order, self.kind)
        if key is not None:
            self._by_key[key] = i
        group = group_of(order)
        if group is not None:
            self._groups[group].append(i)
            self._active[group] += 1

    def _replace(self, i: int) -> OrderEntry:
        e = self._out[i]
        self._out[i] = replace(e, replaced=True)
        key = entry_key(e.order, self.kind)
        if key is not None and self._by_key.get(key) == i:
            del self._by_key[key]
        group = group_of(e.order)
        if group is not None:
            self._active[group] -= 1
        return e


def trimmed(entries: tuple[OrderEntry, ...], keep: int | None = None) -> tuple[OrderEntry, ...]:
    """``entries`` with every active entry and only the last ``keep``
    (default :data:`MAX_REPLACED`) replaced ones, in their order. Idempotent;
    :meth:`judge.game.Game.submit` trims a power's entries before it adds."""
    keep = MAX_REPLACED if keep is None else keep
    replaced = sum(1 for e in entries if e.replaced)
    if replaced <= keep:
        return entries
    drop = replaced - keep
    out = []
    for e in entries:
        if e.replaced and drop:
            drop -= 1
            continue
        out.append(e)
    return tuple(out)


def active(entries: tuple[OrderEntry, ...]) -> list[OrderEntry]:
    return [e for e in entries if not e.replaced]


def is_standing(order) -> bool:
    return isinstance(order, STANDING_TYPES)
