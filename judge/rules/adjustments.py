"""Winter adjustments: builds, waives, removals and civil disorder (DATC 6.I, 6.J).

Each power's count is ``owned SCs - units``. Orders are taken one by one in
the order written: once the count is used up, further builds or removals are
illegal (DATC 4.D.6, 6.I.1, 6.J.1). A power that removes too few units has the
rest removed in civil disorder by :func:`civil_disorder_removals`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from .map import Map, province_of
from .options import DEFAULT_RULES, RuleOptions
from .orders import CIVIL_DISORDER, FAILS, ILLEGAL, SUCCEEDS, Build, Disband, Order, Result, Waive
from .phase import Phase
from .position import Position, Unit
from .reasons import Reason, wrong_phase


@dataclass(frozen=True)
class AdjustmentOutcome:
    """``position`` after the adjustments (phase set to the next Spring);
    ``results`` one per order given, then one ``Disband`` per civil-disorder removal
    (reason :data:`~.orders.CIVIL_DISORDER`)."""

    position: Position
    results: list[Result]


def adjustment_counts(position: Position, powers, game_map: Map | None = None) -> dict[str, int]:
    """``{power: owned SCs - units}`` for each of ``powers`` (positive: builds due).
    Units and SCs of anyone else (a map's neutral units, ``RULES.md`` §7) are not
    counted: they never build and are never removed. In the start phase of a
    map with ``start.mobilize`` (1898) a power builds one unit at most (§7)."""
    counts = {p: 0 for p in powers}
    for owner in position.sc_owners.values():
        if owner in counts:
            counts[owner] += 1
    for u in position.units.values():
        if u.power in counts:
            counts[u.power] -= 1
    if game_map is not None and mobilizing(game_map, position):
        counts = {p: min(n, 1) for p, n in counts.items()}
    return counts


def mobilizing(game_map: Map, position: Position) -> bool:
    """The first phase of a ``start.mobilize`` map: each power builds one unit in
    a home centre of its choice and then owns only that centre (1898;
    ``RULES.md`` §7)."""
    return game_map.start.mobilize and position.phase == game_map.start.phase


def buildable_locations(game_map: Map, position: Position, power: str) -> list[str]:
    """Places ``power`` may build in now: its home centres (or the map's build
    sites, or under ``build == "owned"`` any SC: ``RULES.md`` §7) that it owns and
    that are vacant."""
    return [h for h in game_map.build_places(power, position.sc_owners) if h not in position.units]


def adjudicate_adjustments(game_map: Map, position: Position,
                           orders: dict[str, list[Order]],
                           rules: RuleOptions = DEFAULT_RULES) -> AdjustmentOutcome:
    """Resolve an adjustment phase. ``orders`` is ``{power: [Build | Disband | Waive]}``.
    Never raises for bad orders."""
    counts = adjustment_counts(position, game_map.powers, game_map)
    units = dict(position.units)
    used = {p: 0 for p in counts}
    results: list[Result] = []
    for power, olist in orders.items():
        due = counts.get(power, 0)
        for order in olist:
            outcome, reason = _apply(game_map, position, units, power, order, due, used)
            results.append(Result(power, order, outcome, reason))
    for power, due in counts.items():
        short = -due - used[power]
        if due < 0 and short > 0:
            mine = [u for u in units.values() if u.power == power]
            for u in civil_disorder_removals(game_map, position.sc_owners, mine, short, rules):
                del units[province_of(u.location)]
                results.append(Result(power, Disband(u.type, u.location), SUCCEEDS,
                                      CIVIL_DISORDER, destroyed=True))
    nxt = str(Phase.parse(position.phase).next_in_year()) if position.phase[0] == "W" else \
        f"S{int(position.phase[1:-1]) + 1}M"
    owners = dict(position.sc_owners)
    if mobilizing(game_map, position):     # a power keeps only the home centre it built in
        owners = {sc: o for sc, o in owners.items() if sc in units and units[sc].power == o}
    return AdjustmentOutcome(Position(nxt, units, owners, {}), results)


def _apply(gm: Map, position: Position, units: dict, power: str, order: Order,
           due: int, used: dict) -> tuple[str, Reason | None]:
    if isinstance(order, (Build, Waive)):
        if due <= 0:
            return ILLEGAL, Reason("no_builds", power=power)
        if used[power] >= due:
            return ILLEGAL, Reason("builds_used_up", count=due)
        if isinstance(order, Waive):
            used[power] += 1
            return SUCCEEDS, None
        prov = province_of(order.location)
        p = gm.provinces.get(prov)
        if p is None:
            return ILLEGAL, Reason("unknown_location", location=order.location)
        if not gm.may_build_in(power, prov):
            return ILLEGAL, Reason("not_home_centre" if gm.build == "home" else "not_owned",
                                   province=prov, power=power)
        if position.sc_owners.get(prov) != power:
            return ILLEGAL, Reason("not_owned", province=prov, power=power)
        if prov in units:
            return ILLEGAL, Reason("occupied", province=prov)
        utype = order.unit_type
        if utype not in ("A", "F"):
            return ILLEGAL, Reason("unit_type_needed", province=prov)
        loc = prov
        if utype == "F":
            if p.kind != "coastal":
                return ILLEGAL, Reason("impossible_unit", unit_type="F", province=prov)
            if p.coasts:
                coasts = gm.coasts_of(prov)
                if order.location not in coasts:
                    return FAILS, Reason("coast_needed", province=prov, coasts=coasts)
                loc = order.location
        units[prov] = Unit(power, utype, loc)
        used[power] += 1
        return SUCCEEDS, None
    if isinstance(order, Disband):
        if due >= 0:
            return ILLEGAL, Reason("no_removals", power=power)
        if used[power] >= -due:
            return ILLEGAL, Reason("removals_used_up", count=-due)
        prov = province_of(order.location)
        u = units.get(prov)
        if u is None or prov not in position.units:
            return ILLEGAL, Reason("no_unit", province=prov)
        if u.power != power:
            return ILLEGAL, Reason("not_your_unit", province=prov, power=u.power)
        if order.unit_type and order.unit_type != u.type:
            return ILLEGAL, Reason("wrong_unit_type", province=prov, written=order.unit_type, actual=u.type)
        del units[prov]
        used[power] += 1
        return SUCCEEDS, None
    return ILLEGAL, wrong_phase(order, "A")


def civil_disorder_removals(gm: Map, sc_owners: dict[str, str], units: list[Unit],
                            count: int, rules: RuleOptions = DEFAULT_RULES) -> list[Unit]:
    """The ``count`` units a power in civil disorder loses (DATC v3.2 6.J): the
    farthest from its owned SCs first (fleets measured over fleet moves, armies
    over every province), fleets before armies at equal distance, then by English
    province name. With ``rules.civil_disorder_distance == "home"`` distance is
    to home centres, every step alike."""
    if not units:
        return []
    power = units[0].power
    if rules.civil_disorder_distance == "home":
        targets = set(gm.home_centres.get(power, ()))
    else:
        targets = {sc for sc, o in sc_owners.items() if o == power}

    def key(u: Unit):
        if rules.civil_disorder_distance == "home" or u.type == "A":
            d = _province_distance(gm, province_of(u.location), targets)
        else:
            d = _fleet_distance(gm, u.location, targets)
        name = gm.english_names.get(province_of(u.location), u.location)
        return (-d, 0 if u.type == "F" else 1, name.casefold())

    return sorted(units, key=key)[:count]


_FAR = 10 ** 6


def _province_distance(gm: Map, start: str, targets: set[str]) -> int:
    if start in targets:
        return 0
    seen, todo = {start}, deque([(start, 0)])
    while todo:
        p, d = todo.popleft()
        nbrs = set(gm.army_adj.get(p, ()))
        for loc in gm.coasts_of(p):
            nbrs |= gm.fleet_prov_adj.get(loc, frozenset())
        for n in nbrs:
            if n in targets:
                return d + 1
            if n not in seen:
                seen.add(n)
                todo.append((n, d + 1))
    return _FAR


def _fleet_distance(gm: Map, start: str, targets: set[str]) -> int:
    """Fleet moves, the last step possibly onto land (DATC 6.J.6, 6.J.8)."""
    best = _FAR
    seen, todo = {start}, deque([(start, 0)])
    while todo:
        loc, d = todo.popleft()
        if d >= best:
            break
        prov = province_of(loc)
        if prov in targets:
            return d
        if gm.provinces[prov].is_land and targets & gm.army_adj.get(prov, frozenset()):
            best = min(best, d + 1)
        for n in gm.fleet_adj.get(loc, ()):
            if n not in seen:
                seen.add(n)
                todo.append((n, d + 1))
    return best
