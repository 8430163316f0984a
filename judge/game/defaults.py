"""What the judge orders for a player who gave no usable order (``RULES.md`` §3).

Pure functions of map, position and a :class:`random.Random`; the caller seeds
the generator (``RULES.md`` §3.6) and can tell from its state whether a random
choice was made. Randomness is used only to break a tie that the rules leave open.
"""

from __future__ import annotations

import random
from collections import deque

from ..rules.adjustments import adjudicate_adjustments
from ..rules.map import Map, province_of
from ..rules.orders import SUCCEEDS, Build, BuildPriority, Disband, DisbandPriority, RetreatPreference
from ..rules.position import DislodgedUnit, Position
from ..rules.retreats import resolve_retreat_location


def preferred_retreat(game_map: Map, dislodged: DislodgedUnit,
                      preference: RetreatPreference, avoid=frozenset()) -> str | None:
    """The first destination of a standing retreat list the unit may retreat to
    (``RULES.md`` §3.1), as a location, leaving out the provinces ``avoid``
    (where other units of the power retreat); None if none of them is open."""
    for loc in open_places(game_map, dislodged, preference):
        if province_of(loc) not in avoid:
            return loc
    return None


def open_places(game_map: Map, dislodged: DislodgedUnit, preference: RetreatPreference | None) -> list[str]:
    """The destinations of a standing retreat list the unit may retreat to, in
    the list's order, as locations (empty without a list)."""
    out = []
    for dest in preference.destinations if preference else ():
        loc, _why = resolve_retreat_location(game_map, dislodged.unit, dislodged.retreats, dest)
        if loc and loc not in out:
            out.append(loc)
    return out


def default_retreat(game_map: Map, position: Position, dislodged: DislodgedUnit,
                    home: frozenset[str], rng: random.Random) -> str:
    """The GM's default retreat (``RULES.md`` §3.3), a location from
    ``dislodged.retreats`` (which must not be empty). Each rule in turn keeps the
    options that suit it best: (a) an SC the power owns; (b) the direction of its
    home country ``home`` (fewest steps to it); (c) an SC it does not own; (d) for
    a fleet, a sea province; (e) a random choice among what is left."""
    power, owners = dislodged.unit.power, position.sc_owners
    steps = province_distances(game_map, home)
    far = len(game_map.provinces)
    rules = (
        lambda prov: owners.get(prov) == power,
        lambda prov: -steps.get(prov, far),
        lambda prov: prov in game_map.supply_centres and owners.get(prov) != power,
        lambda prov: dislodged.unit.type == "F" and game_map.is_sea(prov),
    )
    options = sorted(dislodged.retreats)
    for rule in rules:
        best = max(rule(province_of(o)) for o in options)
        options = [o for o in options if rule(province_of(o)) == best]
    return options[0] if len(options) == 1 else rng.choice(options)


def default_removals(game_map: Map, position: Position, power: str, count: int,
                     home: frozenset[str], rng: random.Random) -> list[Disband]:
    """The GM's default disband (``RULES.md`` §3.4): ``count`` of ``power``'s
    units, (a) those outside the home country ``home`` first, then (b) those not on
    an SC, then (c) chosen at random among units alike. In board order."""
    def rank(unit):
        prov = province_of(unit.location)
        return (prov in home, prov in game_map.supply_centres)

    units = sorted(position.units_of(power), key=lambda u: u.location)
    chosen: list = []
    for r in sorted({rank(u) for u in units}):
        need = count - len(chosen)
        if need <= 0:
            break
        alike = [u for u in units if rank(u) == r]
        chosen += alike if len(alike) <= need else rng.sample(alike, need)
    return [Disband(u.type, u.location) for u in sorted(chosen, key=lambda u: u.location)]


def builds_from_list(game_map: Map, position: Position, power: str,
                     priority: BuildPriority, written=()) -> list[Build]:
    """The builds of a priority list (``RULES.md`` §3.2) that are made: after
    the ``written`` orders (builds and waives, which count first), the first
    ones the rules allow, as many as ``power`` may still build."""
    return _accepted(game_map, position, power, list(written), list(priority.builds))


def removals_from_list(game_map: Map, position: Position, power: str,
                       priority: DisbandPriority, written=()) -> list[Disband]:
    """The removals of a priority list (``RULES.md`` §3.2) that are made: after
    the ``written`` removals, the first units of the list that exist and are
    not removed already, as many as ``power`` must still remove."""
    return _accepted(game_map, position, power, list(written), list(priority.disbands))


def _accepted(game_map: Map, position: Position, power: str, written: list, listed: list) -> list:
    # the adjudicator takes orders in the order given and refuses any beyond the count:
    # the written orders first, so the list gives only the rest
    out = adjudicate_adjustments(game_map, position, {power: written + listed})
    ours = [r for r in out.results if r.power == power][len(written):len(written) + len(listed)]
    return [r.order for r in ours if r.outcome == SUCCEEDS and r.reason is None]


def province_distances(game_map: Map, targets: frozenset[str]) -> dict[str, int]:
    """``{province: fewest steps to any of targets}`` over army and fleet
    adjacency alike; provinces that cannot reach them are absent."""
    nbrs: dict[str, set[str]] = {}
    for a, bs in game_map.army_adj.items():
        nbrs.setdefault(a, set()).update(bs)
    for loc, bs in game_map.fleet_prov_adj.items():
        nbrs.setdefault(province_of(loc), set()).update(bs)
    dist = {t: 0 for t in targets}
    todo = deque(targets)
    while todo:
        p = todo.popleft()
        for n in nbrs.get(p, ()):
            if n not in dist:
                dist[n] = dist[p] + 1
                todo.append(n)
    return dist
