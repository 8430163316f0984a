"""A power's orders for the current phase: the last order for a unit wins.

``RULES.md`` §2: "the last orders received before the deadline count". An
earlier order for the same unit (or an earlier list of the same kind) is kept,
marked replaced, so the record shows what was written. In an adjustment phase
builds and waives beyond the power's count replace the earliest ones, as do
removals beyond the removals due.
"""

from __future__ import annotations

from dataclasses import replace

from ..rules.map import province_of
from ..rules.orders import (
    Build, BuildPriority, Disband, DisbandPriority, RetreatPreference, Waive,
)
from .records import OrderEntry

STANDING_TYPES = (RetreatPreference, BuildPriority, DisbandPriority)


def entry_key(order, phase_kind: str) -> tuple | None:
    """What an order is for: a later entry with the same key replaces it.
    None for a waive (each waive stands alone)."""
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


def group_of(order) -> str | None:
    """``"builds"`` for builds and waives, ``"removals"`` for adjustment removals."""
    if isinstance(order, (Build, Waive)):
        return "builds"
    if isinstance(order, Disband):
        return "removals"
    return None


def add(entries: tuple[OrderEntry, ...], entry: OrderEntry, phase_kind: str,
        limits: dict[str, int] | None = None) -> tuple[tuple[OrderEntry, ...], list[OrderEntry]]:
    """``entries`` with ``entry`` appended and the entries it replaces marked.
    ``limits``: ``{"builds": n, "removals": m}`` in an adjustment phase.
    Returns ``(new entries, replaced entries)``."""
    key = entry_key(entry.order, phase_kind)
    out = list(entries)
    gone = []
    if key is not None:
        for i, e in enumerate(out):
            if not e.replaced and entry_key(e.order, phase_kind) == key:
                out[i] = replace(e, replaced=True)
                gone.append(e)
    out.append(entry)
    group = group_of(entry.order)
    if limits and group in limits:
        active = [i for i, e in enumerate(out) if not e.replaced and group_of(e.order) == group]
        for i in active[:max(0, len(active) - limits[group])]:
            gone.append(out[i])
            out[i] = replace(out[i], replaced=True)
    return tuple(out), gone


def active(entries: tuple[OrderEntry, ...]) -> list[OrderEntry]:
    return [e for e in entries if not e.replaced]


def is_standing(order) -> bool:
    return isinstance(order, STANDING_TYPES)
