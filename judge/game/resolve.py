"""Adjudicating one phase with the game's house rules (``RULES.md`` §3).

Each function takes the orders the players wrote (``{power: [Order]}``, replaced
ones already dropped) and their standing lists, adds the orders the judge takes
from lists or defaults, and calls the rules core. The returned position carries
the phase name the core gives it; :func:`judge.game.sequence.settle` moves on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..rules import adjudicate_adjustments, adjudicate_movement, adjudicate_retreats
from ..rules.adjustments import AdjustmentOutcome, adjustment_counts
from ..rules.map import Map, province_of
from ..rules.options import RuleOptions
from ..rules.orders import (
    CIVIL_DISORDER, ILLEGAL, SUCCEEDS, BuildPriority, Disband, DisbandPriority, Move, Result, Retreat,
    RetreatPreference,
)
from ..rules.position import DislodgedUnit, Position
from ..rules.reasons import Reason
from . import defaults
from .records import DEFAULT, LIST, OrderEntry
from .settings import HouseRules


@dataclass
class Resolution:
    """``position`` after the phase, ``results`` in the order the orders were
    given (written, then the judge's), ``made``: the judge's orders per power."""

    position: Position
    results: list[Result]
    made: dict[str, list[OrderEntry]] = field(default_factory=dict)


@dataclass(frozen=True)
class Standing:
    """A power's standing lists: retreat preferences by province, build and
    disband priority lists (``RULES.md`` §3.1-3.2)."""

    retreats: dict[str, RetreatPreference] = field(default_factory=dict)
    builds: BuildPriority | None = None
    disbands: DisbandPriority | None = None


def movement(game_map: Map, position: Position, orders: dict[str, list],
             rules: RuleOptions) -> Resolution:
    """A movement phase; a unit without an order holds (NMR, ``RULES.md`` §3)."""
    out = adjudicate_movement(game_map, position, orders, rules)
    return Resolution(out.position, list(out.results))


def retreats(game_map: Map, position: Position, orders: dict[str, list],
             standing: dict[str, Standing], house: HouseRules,
             home: dict[str, frozenset[str]], rng: random.Random) -> Resolution:
    """A retreat phase. A dislodged unit with no order retreats by its standing
    list (§3.1), else by the GM default (§3.3) if the game uses it, else disbands.
    One power's lists and defaults never send two of its units to one place
    while another is open to either (see :class:`~judge.game.settings.HouseRules`)."""
    ordered = {province_of(o.location) for olist in orders.values() for o in olist}
    made: dict[str, list[OrderEntry]] = {}
    taken: dict[str, set[str]] = {}          # places each power's units retreat to already
    for power, olist in orders.items():
        taken[power] = {province_of(o.destination) for o in olist if isinstance(o, (Retreat, Move))}
    todo = [(prov, d) for prov, d in sorted(position.dislodged.items()) if prov not in ordered]
    lists = {prov: standing.get(d.unit.power, Standing()).retreats.get(prov) for prov, d in todo}
    # a unit with fewer open places on its list chooses first (HouseRules: same first place)
    todo.sort(key=lambda item: (len(defaults.open_places(game_map, item[1], lists[item[0]])), item[0]))
    for prov, d in todo:
        power = d.unit.power
        mine = taken.setdefault(power, set())
        pref = lists[prov]
        loc = defaults.preferred_retreat(game_map, d, pref, avoid=mine) if pref else None
        source = LIST
        if loc is None and house.default_retreat == "house":
            free = tuple(o for o in d.retreats if province_of(o) not in mine)
            unit = DislodgedUnit(d.unit, d.attacker_origin, free or d.retreats)
            loc, source = defaults.default_retreat(game_map, position, unit, home[power], rng), DEFAULT
        if loc is not None:
            mine.add(province_of(loc))
            made.setdefault(power, []).append(OrderEntry("", Retreat(d.unit.type, d.unit.location, loc), source))
    out = adjudicate_retreats(game_map, position, _with_made(orders, made))
    return Resolution(out.position, list(out.results), made)


def adjustments(game_map: Map, position: Position, orders: dict[str, list],
                standing: dict[str, Standing], house: HouseRules, rules: RuleOptions,
                home: dict[str, frozenset[str]], rng: random.Random) -> Resolution:
    """An adjustment phase. The builds or removals a power did not write come
    from its priority lists (§3.2): written orders first, then the list for the
    rest, as the reply to the orders promised; removals still due follow the
    civil-disorder rule of the rule profile (DATC 6.J) or the GM default (§3.4),
    as the game says. In combined-order mode (§3.5) removals come first and may
    be voluntary."""
    made: dict[str, list[OrderEntry]] = {}
    counts = adjustment_counts(position, game_map.powers, game_map)
    for power in game_map.powers:
        lists = standing.get(power, Standing())
        written = orders.get(power, [])
        if counts[power] > 0 and lists.builds:
            picked = defaults.builds_from_list(game_map, position, power, lists.builds, written)
        elif counts[power] < 0 and lists.disbands:
            picked = defaults.removals_from_list(game_map, position, power, lists.disbands, written)
        else:
            continue
        if picked:
            made[power] = [OrderEntry("", o, LIST) for o in picked]
    given = _with_made(orders, made)
    if house.combined_orders:
        return _removals_first(game_map, position, given, made, house, rules, home, rng)
    out = _adjudicate(game_map, position, given, rules, counts, house.extra_removals)
    if house.default_disband == "house":
        short = _civil_disorder(out.results)
        if short:
            for power, n in short.items():
                removed = {province_of(r.order.location) for r in out.results
                           if r.power == power and r.ok and r.reason is None
                           and isinstance(r.order, Disband)}
                left = Position(position.phase, {p: u for p, u in position.units.items()
                                                 if p not in removed}, position.sc_owners)
                picked = defaults.default_removals(game_map, left, power, n, home[power], rng)
                made.setdefault(power, []).extend(OrderEntry("", o, DEFAULT) for o in picked)
            out = _adjudicate(game_map, position, _with_made(orders, made), rules, counts, house.extra_removals)
    return Resolution(out.position, list(out.results), made)


def _adjudicate(game_map, position, given, rules, counts, extra_removals: bool):
    """The rules core's adjustments; with ``extra_removals`` (the online
    version's rule, :class:`~judge.game.settings.HouseRules`) a power short of
    centres that ordered more removals than due has the extra ones made too,
    after the others (:func:`remove_units`)."""
    extra: dict[str, list[Disband]] = {}
    if extra_removals:
        given = {p: list(olist) for p, olist in given.items()}
        for power, olist in given.items():
            removals = [i for i, o in enumerate(olist) if isinstance(o, Disband)]
            if counts.get(power, 0) < 0 and len(removals) > -counts[power]:
                beyond = set(removals[-counts[power]:])
                extra[power] = [olist[i] for i in sorted(beyond)]
                given[power] = [o for i, o in enumerate(olist) if i not in beyond]
    out = adjudicate_adjustments(game_map, position, given, rules)
    if not extra:
        return out
    after, more = remove_units(out.position, extra)
    return AdjustmentOutcome(after, list(out.results) + more)


def _removals_first(game_map, position, given, made, house, rules, home, rng) -> Resolution:
    """Combined-order mode: every written or listed removal is made first (a power
    may remove units it need not), then the GM default if the game uses it, then
    builds and waives — so a power may remove a unit and build on its SC."""
    removals = {p: [o for o in olist if isinstance(o, Disband)] for p, olist in given.items()}
    position, results = remove_units(position, removals)
    if house.default_disband == "house":
        extra = {}
        for power, n in adjustment_counts(position, game_map.powers, game_map).items():
            if n < 0:
                picked = defaults.default_removals(game_map, position, power, -n, home[power], rng)
                made.setdefault(power, []).extend(OrderEntry("", o, DEFAULT) for o in picked)
                extra[power] = picked
        position, more = remove_units(position, extra)
        results += more
    builds = {p: [o for o in olist if not isinstance(o, Disband)] for p, olist in given.items()}
    out = adjudicate_adjustments(game_map, position, builds, rules)
    return Resolution(out.position, results + list(out.results), made)


def remove_units(position: Position, removals: dict[str, list[Disband]]) -> tuple[Position, list[Result]]:
    """Apply removals one by one (combined-order mode, ``RULES.md`` §3.5): each
    succeeds if the power has such a unit there. Returns the new position (same
    phase) and one result per removal."""
    units = dict(position.units)
    results = []
    for power, olist in removals.items():
        for order in olist:
            prov = province_of(order.location)
            u = units.get(prov)
            if u is None:
                why = Reason("no_unit", province=prov)
            elif u.power != power:
                why = Reason("not_your_unit", province=prov, power=u.power)
            elif order.unit_type and order.unit_type != u.type:
                why = Reason("wrong_unit_type", province=prov, actual=u.type, written=order.unit_type)
            else:
                del units[prov]
                results.append(Result(power, order, SUCCEEDS))
                continue
            results.append(Result(power, order, ILLEGAL, why))
    return Position(position.phase, units, position.sc_owners, position.dislodged), results


def _with_made(orders: dict[str, list], made: dict[str, list[OrderEntry]]) -> dict[str, list]:
    out = {p: list(olist) for p, olist in orders.items()}
    for power, entries in made.items():
        out.setdefault(power, []).extend(e.order for e in entries)
    return out


def _civil_disorder(results: list[Result]) -> dict[str, int]:
    """``{power: removals the core made in civil disorder}``."""
    short: dict[str, int] = {}
    for r in results:
        if r.reason == CIVIL_DISORDER:
            short[r.power] = short.get(r.power, 0) + 1
    return short
