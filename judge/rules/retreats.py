"""Retreat-phase adjudication (DATC 6.H).

A dislodged unit may retreat to a location listed in its
:attr:`~judge.rules.position.DislodgedUnit.retreats` (computed at the movement
phase: adjacent, empty, not the attacker's origin unless the attack was
convoyed, not left empty by a standoff). Two or more retreats to one province
all fail and those units are disbanded; an unordered dislodged unit is disbanded.
"""

from __future__ import annotations

from dataclasses import dataclass

from .map import NEUTRAL, Map, province_of
from .orders import BOUNCED, FAILS, ILLEGAL, NO_ORDER, SUCCEEDS, VOID, Disband, Move, Order, Result, Retreat
from .position import Position, Unit
from .reasons import REPLACED, Reason, unit_code, wrong_phase
from .phase import Phase


@dataclass(frozen=True)
class RetreatOutcome:
    """``position``: the board after retreats, phase set to the next phase in the
    year (SC ownership is updated by :func:`update_ownership` after Fall);
    ``results``: one per order given, then a disband for each unordered unit."""

    position: Position
    results: list[Result]


def resolve_retreat_location(game_map: Map, unit: Unit, options: tuple[str, ...],
                             dest: str, position: Position | None = None,
                             attacker_origin: str | None = None) -> tuple[str | None, Reason | None]:
    """Match ``dest`` against a dislodged unit's ``options``: returns
    ``(location, None)`` or ``(None, reason)``. A fleet's coast is inferred when
    only one coast of the province is an option; an army's coast is ignored.
    A refusal says why (:func:`why_not`) and lists the retreats there are."""
    prov = province_of(dest)
    if unit.type == "A":
        return (prov, None) if prov in options else (None, why_not(game_map, unit, options, prov, position,
                                                                 attacker_origin))
    if "/" in dest:
        return (dest, None) if dest in options else (None, why_not(game_map, unit, options, dest, position,
                                                                 attacker_origin))
    matches = [o for o in options if province_of(o) == prov]
    if len(matches) == 1:
        return matches[0], None
    if matches:
        return None, Reason("coast_needed", province=prov, coasts=matches)
    return None, why_not(game_map, unit, options, prov, position, attacker_origin)


def why_not(game_map: Map, unit: Unit, options: tuple[str, ...], dest: str, position: Position | None,
            attacker_origin: str | None) -> Reason:
    """Why a dislodged ``unit`` cannot retreat to ``dest`` (DATC 6.H, RULES.md
    §1): ``retreat_not_adjacent`` (not a place it could move to),
    ``retreat_attacker`` (the dislodging attack came from there),
    ``retreat_occupied`` (a unit stands there) or ``retreat_standoff`` (left
    empty by a standoff); params ``unit``, ``destination`` and ``retreats``
    (the places it may retreat to, maybe none)."""
    here = unit_code(unit.type, unit.location)
    params = {"unit": here, "destination": dest, "retreats": list(options)}
    prov = province_of(dest)
    if prov not in game_map.provinces or not game_map.can_reach_province(unit.type, unit.location, prov):
        return Reason("retreat_not_adjacent", **params)
    if attacker_origin is not None and province_of(attacker_origin) == prov:
        return Reason("retreat_attacker", **params)
    if position is not None and prov in position.units:
        return Reason("retreat_occupied", **params)
    return Reason("retreat_standoff", **params)


def adjudicate_retreats(game_map: Map, position: Position,
                        orders: dict[str, list[Order]]) -> RetreatOutcome:
    """Resolve a retreat phase. ``orders`` is ``{power: [Retreat | Disband | Move]}``
    (a Move is read as a retreat). Never raises for bad orders."""
    results: list[list] = []
    chosen: dict[str, int] = {}       # province of dislodged unit -> result index
    for power, olist in orders.items():
        for order in olist:
            results.append([power, order, SUCCEEDS, None, None])
            i = len(results) - 1
            if not isinstance(order, (Retreat, Disband, Move)):
                results[i][2:4] = ILLEGAL, wrong_phase(order, "R")
                continue
            prov = province_of(order.location)
            d = position.dislodged.get(prov)
            if d is None:
                results[i][2:4] = ILLEGAL, Reason("no_dislodged_unit", province=prov)
                continue
            if d.unit.power != power:
                results[i][2:4] = ILLEGAL, Reason("not_your_unit", province=prov, power=d.unit.power)
                continue
            if order.unit_type and order.unit_type != d.unit.type:
                results[i][2:4] = ILLEGAL, Reason("wrong_unit_type", province=prov, written=order.unit_type,
                                                  actual=d.unit.type)
                continue
            if not isinstance(order, Disband):
                loc, why = resolve_retreat_location(game_map, d.unit, d.retreats, order.destination, position,
                                                    d.attacker_origin)
                if why:
                    results[i][2:4] = ILLEGAL, why
                else:
                    results[i][4] = loc
            if prov in chosen:
                prev = results[chosen[prov]]
                prev[2:4] = VOID, REPLACED
            chosen[prov] = i
    for prov, d in position.dislodged.items():
        if prov not in chosen:
            results.append([d.unit.power, Disband(d.unit.type, d.unit.location), SUCCEEDS, NO_ORDER, None])
            chosen[prov] = len(results) - 1
    targets: dict[str, int] = {}
    for prov, i in chosen.items():
        if results[i][2] == SUCCEEDS and results[i][4]:
            t = province_of(results[i][4])
            targets[t] = targets.get(t, 0) + 1
    units = dict(position.units)
    out = []
    for i, (power, order, outcome, reason, loc) in enumerate(results):
        destroyed = False
        if outcome == SUCCEEDS and loc:
            if targets[province_of(loc)] > 1:
                outcome, reason, destroyed = FAILS, BOUNCED, True
            else:
                d = position.dislodged[province_of(order.location)]
                units[province_of(loc)] = Unit(power, d.unit.type, loc)
        elif i in chosen.values():
            destroyed = True
        out.append(Result(power, order, outcome, reason, False, destroyed))
    nxt = str(Phase.parse(position.phase).next_in_year())
    return RetreatOutcome(Position(nxt, units, dict(position.sc_owners), {}), out)


def update_ownership(game_map: Map, position: Position) -> Position:
    """SC ownership after Fall (after retreats): each occupied SC passes to the
    occupying unit's power (``RULES.md`` §1); a neutral unit takes nothing
    (§7). Returns a new Position."""
    owners = dict(position.sc_owners)
    for prov, unit in position.units.items():
        if prov in game_map.supply_centres and unit.power != NEUTRAL:   # RULES.md §7: neutrals never own
            owners[prov] = unit.power
    return Position(position.phase, position.units, owners, position.dislodged)
