"""The board at one moment: units, dislodged units, SC owners.

A :class:`Position` is treated as immutable: the adjudicators return new ones.
Units are keyed by province (``"spa"``) while :attr:`Unit.location` keeps the
coast (``"spa/sc"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .map import Map, province_of


class Unit(NamedTuple):
    power: str
    type: str       # "A" or "F"
    location: str   # "par", "spa/sc"

    def __str__(self) -> str:
        return f"{self.type} {self.location}"


class DislodgedUnit(NamedTuple):
    """A unit dislodged in the movement phase that must retreat or disband.
    ``retreats`` are the locations it may retreat to (``RULES.md`` §1; DATC 6.H)."""

    unit: Unit
    attacker_origin: str | None   # province the dislodging unit came from (None: by convoy)
    retreats: tuple[str, ...]


@dataclass(frozen=True)
class Position:
    """``units`` ``{province: Unit}``, ``dislodged`` ``{province: DislodgedUnit}``,
    ``sc_owners`` ``{sc province: power}`` (unowned SCs absent), ``phase`` name."""

    phase: str
    units: dict[str, Unit]
    sc_owners: dict[str, str]
    dislodged: dict[str, DislodgedUnit] = field(default_factory=dict)

    @classmethod
    def start(cls, game_map: Map) -> "Position":
        """The map's start position."""
        units = {}
        for power, ulist in game_map.start.units.items():
            for t, loc in ulist:
                units[game_map.loc_province.get(loc) or province_of(loc)] = Unit(power, t, loc)
        return cls(game_map.start.phase, units, dict(game_map.start.sc_owners))

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centre_counts(self) -> dict[str, int]:
        """``{power: number of SCs owned}`` for powers owning at least one."""
        counts: dict[str, int] = {}
        for p in self.sc_owners.values():
            counts[p] = counts.get(p, 0) + 1
        return counts
