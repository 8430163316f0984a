"""A recorded game as the readers deliver it: a list of phases, each with the
board at its start and the orders played in it.

A recorded board (:class:`RecordedState`) is kept apart from
:class:`~judge.rules.position.Position` because records say less than a
position holds: the droidippy files do not list where a dislodged unit may
retreat (``retreats is None``), the MILA/dipcc files do. Records use the
map's power names and locations (``"Austria"``, ``"stp/sc"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.map import Map, province_of
from ..rules.orders import Order
from ..rules.position import DislodgedUnit, Position, Unit


class RecordError(ValueError):
    """A game record cannot be read. ``str(err)`` reads ``FILE: WHERE: REASON``
    (``WHERE`` is ``line 12`` or a phase name)."""

    def __init__(self, source: str, where: str, reason: str):
        super().__init__(f"{source}: {where}: {reason}")
        self.source, self.where, self.reason = source, where, reason


@dataclass(frozen=True)
class RecordedDislodged:
    """A dislodged unit as recorded; ``retreats`` is the tuple of locations it
    may retreat to, or ``None`` when the record does not say."""

    unit: Unit
    retreats: tuple[str, ...] | None = None


@dataclass(frozen=True)
class RecordedState:
    """The board at the start of a recorded phase: ``units`` and ``dislodged``
    keyed by province, ``sc_owners`` ``{sc: power}`` (unowned SCs absent)."""

    units: dict[str, Unit]
    sc_owners: dict[str, str]
    dislodged: dict[str, RecordedDislodged] = field(default_factory=dict)

    def to_position(self, game_map: Map, phase: str,
                    known: dict[str, DislodgedUnit] | None = None) -> Position:
        """This board as a :class:`Position` named ``phase``. A dislodged unit
        the record gives no retreats for takes them from ``known`` (the judge's
        own dislodged units) when the unit matches, else every adjacent location
        that is empty (the record does not say which provinces a standoff left
        empty). Dislodged units with no retreat are left out, as the judge does."""
        known = known or {}
        dislodged = {}
        for prov, d in self.dislodged.items():
            retreats = d.retreats
            if retreats is None:
                ours = known.get(prov)
                if ours is not None and ours.unit == d.unit:
                    retreats = ours.retreats
                else:
                    adj = game_map.army_adj.get(prov, ()) if d.unit.type == "A" \
                        else game_map.fleet_adj.get(d.unit.location, ())
                    retreats = tuple(sorted(a for a in adj if province_of(a) not in self.units))
            if retreats:
                dislodged[prov] = DislodgedUnit(d.unit, None, tuple(retreats))
        return Position(phase, dict(self.units), dict(self.sc_owners), dislodged)


@dataclass(frozen=True)
class RecordedPhase:
    """One phase of a record. ``name`` is a phase name (``"S1901M"``, ``"W1901A"``)
    or ``"COMPLETED"`` (the end of a dipcc game: the board after the last Fall);
    ``orders`` ``{power: [Order]}`` in the record's order; ``ignored`` the order
    lines no power could be given (no unit there)."""

    name: str
    state: RecordedState
    orders: dict[str, list[Order]]
    ignored: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    """A whole recorded game: ``name`` (the file name), ``source`` (the path)
    and its ``phases`` in order; the last phase's state is the final board."""

    name: str
    source: str
    phases: list[RecordedPhase]
