"""The orders a power may legally give in a position.

:func:`possible_orders` lists, for the phase of the position, every order the
adjudicators accept as legal (none of them is ILLEGAL; a support or convoy may
still be VOID if the order it names is not given). ``benchmarks/adjudicate.py``
draws its random orders from these lists.

Legality follows the adjudicators (``RULES.md`` §1, DATC v3.2):
- movement: hold; a move to an adjacent location (fleets coast by coast); an army
  move over sea where a chain of seas holding fleets links the two provinces
  (DATC 6.D.32), written ``via_convoy`` when the destination is also adjacent;
  a support of a unit's hold or of one of its possible moves into a province the
  supporter can reach, not its own (DATC 6.D.34), and for a convoyed army not
  only through the supporter (DATC 6.D.31); a convoy by a fleet in a sea on a
  route of an army to a land province (DATC 6.F.1);
- retreat: a retreat to one of the unit's retreat locations, or a disband;
- adjustment: a build on a vacant owned home centre (a fleet on each coast of a
  coastal one), a waive, or a removal of one of the power's units.
"""

from __future__ import annotations

from .adjustments import adjustment_counts, buildable_locations
from .map import Map, province_of
from .movement import geometry
from .orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from .phase import Phase
from .position import Position, Unit


def possible_orders(game_map: Map, position: Position, power: str) -> dict[str | None, list[Order]]:
    """Every legal order ``power`` may give in ``position``'s phase.

    Returns ``{province: [Order, ...]}``: in a movement phase one entry per unit of
    the power; in a retreat phase one per dislodged unit of the power; in an
    adjustment phase one per buildable home centre (builds) or per unit
    (removals), as the power's count requires, plus ``None: [Waive()]`` when it
    may build. Empty when the power has nothing to order.
    """
    kind = Phase.parse(position.phase).kind
    if kind == "M":
        geo = geometry(game_map)
        fleets = frozenset(p for p, u in position.units.items() if u.type == "F" and p in geo.seas)
        return {province_of(u.location): movement_orders(game_map, position, u, fleets)
                for u in position.units_of(power)}
    if kind == "R":
        return {p: [Retreat(d.unit.type, d.unit.location, loc) for loc in d.retreats]
                + [Disband(d.unit.type, d.unit.location)]
                for p, d in position.dislodged.items() if d.unit.power == power}
    due = adjustment_counts(position, [power], game_map)[power]
    if due > 0:
        out: dict[str | None, list[Order]] = {}
        for prov in buildable_locations(game_map, position, power):
            builds = [Build("F", loc) for loc in game_map.coasts_of(prov)]
            if game_map.provinces[prov].is_land:
                builds.insert(0, Build("A", prov))
            out[prov] = builds
        out[None] = [Waive()]
        return out
    if due < 0:
        return {province_of(u.location): [Disband(u.type, u.location)] for u in position.units_of(power)}
    return {}


def movement_orders(game_map: Map, position: Position, unit: Unit,
                    fleets: frozenset[str] | None = None) -> list[Order]:
    """Every legal movement-phase order for ``unit``: hold, moves, supports, and the
    convoys of armies to places the fleets now at sea could carry them.
    ``fleets`` (seas holding a fleet) is computed when not given."""
    geo = geometry(game_map)
    if fleets is None:
        fleets = frozenset(p for p, u in position.units.items() if u.type == "F" and p in geo.seas)
    prov = province_of(unit.location)
    out: list[Order] = [Hold(unit.type, unit.location)]
    out += moves_of(game_map, unit, fleets)
    for other in position.units.values():
        oprov = province_of(other.location)
        if oprov == prov:
            continue
        if game_map.can_reach_province(unit.type, unit.location, oprov):
            out.append(Support(unit.type, unit.location, other.type, other.location))
        for m in moves_of(game_map, other, fleets - {prov}):
            into = province_of(m.destination)
            if into != prov and not m.via_convoy and game_map.can_reach_province(unit.type, unit.location, into):
                out.append(Support(unit.type, unit.location, other.type, other.location, into))
    if unit.type == "F" and prov in geo.seas:
        for army in position.units.values():
            if army.type != "A":
                continue
            src = army.location
            # only where the fleets now at sea could carry the army: a convoy no chain of
            # them could complete is legal but idle, and on a large ocean (Youngstown)
            # asking the route geometry about every shore costs seconds
            for dst in sorted(_convoy_reach(game_map, src, fleets)):
                if dst != src and geo.on_route(prov, src, dst):
                    out.append(Convoy("F", unit.location, src, dst))
    return out


def moves_of(game_map: Map, unit: Unit, fleets: frozenset[str]) -> list[Move]:
    """The legal moves of ``unit`` when the seas ``fleets`` hold fleets: adjacent
    moves, and for an army the convoyed ones (``via_convoy`` if also adjacent)."""
    if unit.type == "F":
        return [Move("F", unit.location, d) for d in sorted(game_map.fleet_adj.get(unit.location, ()))]
    prov = unit.location
    adjacent = game_map.army_adj.get(prov, frozenset())
    out = [Move("A", prov, d) for d in sorted(adjacent)]
    for d in sorted(_convoy_reach(game_map, prov, fleets)):
        out.append(Move("A", prov, d, via_convoy=d in adjacent))
    return out


def _convoy_reach(game_map: Map, src: str, fleets: frozenset[str]) -> set[str]:
    """Land provinces an army in ``src`` could be convoyed to by fleets in ``fleets``."""
    geo = geometry(game_map)
    start = geo.shore.get(src, frozenset()) & fleets
    seen, todo = set(start), list(start)
    out: set[str] = set()
    while todo:
        s = todo.pop()
        for n in geo.sea_adj[s]:
            if n in geo.seas:
                if n in fleets and n not in seen:
                    seen.add(n)
                    todo.append(n)
            elif n != src:
                out.add(n)
    return out
