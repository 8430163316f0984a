"""Which phase comes next (``RULES.md`` §1): Spring and Fall movement always;
a retreat phase only when a unit was dislodged and can retreat; the Winter
adjustment phase only when a power can build or must remove a unit. SC
ownership changes after Fall, on arriving at Winter."""

from __future__ import annotations

from ..rules.adjustments import adjustment_counts, buildable_locations
from ..rules.map import Map
from ..rules.phase import Phase
from ..rules.position import Position
from ..rules.retreats import update_ownership


def with_phase(position: Position, phase: Phase | str) -> Position:
    return Position(str(phase), position.units, position.sc_owners, position.dislodged)


def adjustments_due(game_map: Map, position: Position) -> dict[str, int]:
    """``{power: count}`` for each power that must adjust: positive, builds it
    can make (at most its vacant owned home centres); negative, removals due."""
    out = {}
    for power, n in adjustment_counts(position, game_map.powers, game_map).items():
        if n > 0:
            n = min(n, len(buildable_locations(game_map, position, power)))
        if n:
            out[power] = n
    return out


def settle(game_map: Map, position: Position, removals_ordered: bool = False) -> Position:
    """The position an adjudicator returned, moved on past phases with nothing
    to do. ``removals_ordered`` (combined-order mode): some power ordered a
    removal it need not make, so the Winter phase takes place anyway."""
    phase = Phase.parse(position.phase)
    if phase.kind == "R" and not position.dislodged:
        phase = phase.next_in_year()
        position = with_phase(position, phase)
    if phase.kind == "A":
        position = update_ownership(game_map, position)
        if not removals_ordered and not adjustments_due(game_map, position):
            position = with_phase(position, phase.next_in_year())
    return position
