"""Is an order legal on the board? :func:`check_legal` asks the rules core.

The parser (:mod:`.parser`) reads what was written; whether the order can be
carried out in the position is the adjudicators' word. :func:`check_legal`
adjudicates the one order alone, as the game does when it takes an order
(``RULES.md`` §1, DATC 4.E.1: an illegal order is not accepted), and turns the
rules core's English reason into a :class:`~.diagnostics.Diagnostic` (codes in
the :mod:`.diagnostics` module doc) whose messages name provinces in English or
Chinese. A reason not recognised comes back as ``illegal`` with the sentence.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from ..rules import DEFAULT_RULES, RuleOptions, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats
from ..rules.map import province_of
from ..rules.orders import ILLEGAL, SUCCEEDS, Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from .diagnostics import Diagnostic, diagnostic

if TYPE_CHECKING:
    from .parser import ParseContext

_MOVEMENT = (Hold, Move, Support, Convoy)
_RETREAT = (Retreat, Disband, Move)
_ADJUSTMENT = (Build, Disband, Waive)


def check_legal(order, ctx: "ParseContext", rules: RuleOptions = DEFAULT_RULES) -> Diagnostic | None:
    """Why ``order`` (as :func:`~.parser.parse_line` returns it) is not legal in
    ``ctx.position``, or None if it is.

    The order is adjudicated alone for ``ctx.power`` (None: the owner of the
    ordered unit, or of the centre built on) with the rules core of
    ``ctx.phase_kind``: movement (hold, move, support, convoy: refused when
    ILLEGAL), retreat (retreat, disband: ILLEGAL) or adjustment (build, removal,
    waive: refused unless it SUCCEEDS, as the game does). Returns None when
    there is nothing to check against: no position, a standing order (retreat
    preference, priority lists), an order of another phase kind (builds sent
    with Fall orders are the game's business), or no power to check for.
    Never raises for a bad order.
    """
    pos = ctx.position
    if pos is None:
        return None
    kind = ctx.phase_kind
    power = ctx.power or _owner(order, ctx)
    if power is None and not isinstance(order, Waive):
        power = ""                   # nobody's unit: the rules core says "there is no unit"
    if kind == "M" and isinstance(order, _MOVEMENT):
        result = adjudicate_movement(ctx.map, pos, {power: [order]}, rules).results[0]
        refused = result.outcome == ILLEGAL
    elif kind == "R" and isinstance(order, _RETREAT):
        result = adjudicate_retreats(ctx.map, pos, {power: [order]}).results[0]
        refused = result.outcome == ILLEGAL
    elif kind == "A" and isinstance(order, _ADJUSTMENT) and power:
        result = adjudicate_adjustments(ctx.map, pos, {power: [order]}, rules).results[0]
        refused = result.outcome != SUCCEEDS
    else:
        return None
    return explain(result.reason or "", order, ctx) if refused else None


def _owner(order, ctx: "ParseContext") -> str | None:
    pos = ctx.position
    loc = getattr(order, "location", None)
    if loc is None:
        return None
    prov = province_of(loc)
    if ctx.phase_kind == "R":
        d = pos.dislodged.get(prov)
        return d.unit.power if d else None
    if isinstance(order, Build):
        return pos.sc_owners.get(prov)
    u = pos.units.get(prov)
    return u.power if u else None


# ---- the rules core's reasons -------------------------------------------------------
# (pattern, code, params from the match groups and the order). Units in reasons are
# written "F stp/sc"; provinces and locations by code.
_UNIT = r"([AF] [a-z0-9_]+(?:/[a-z]+)?)"
_LOC = r"([a-z0-9_]+(?:/[a-z]+)?)"
_PROV = r"([a-z0-9_]+)"
_Builder = Callable[[re.Match, object], dict]


def _unit_type_of(m: re.Match, order) -> dict:
    actual = "A" if m.group(2) == "an army" else "F"
    return {"province": m.group(1), "written": "F" if actual == "A" else "A", "actual": actual}


def _coasts(text: str) -> list[str]:
    return [c.strip() for c in text.split(",")]


_REASONS: list[tuple[re.Pattern, str, _Builder]] = [(re.compile(p + r"$"), code, build) for p, code, build in (
    (rf"{_UNIT} cannot reach {_LOC}", "cannot_reach",
     lambda m, o: {"unit": m.group(1), "destination": m.group(2)}),
    (r"a unit cannot move to its own province", "own_province",
     lambda m, o: {"province": province_of(getattr(o, "destination", None) or o.location)}),
    (rf"an army cannot go to {_PROV}", "army_cannot_go", lambda m, o: {"province": m.group(1)}),
    (r"a unit cannot support itself", "support_itself", lambda m, o: {}),
    (rf"no fleets to convoy {_PROV} to {_PROV}", "no_convoy_fleets",
     lambda m, o: {"origin": m.group(1), "destination": m.group(2)}),
    (r"only a fleet in a sea province can convoy", "convoy_not_at_sea", lambda m, o: {}),
    (rf"there is no army in {_PROV} to convoy", "no_army_to_convoy", lambda m, o: {"province": m.group(1)}),
    (rf"{_PROV} is on no convoy route from {_PROV} to {_PROV}", "not_on_convoy_route",
     lambda m, o: {"province": m.group(1), "origin": m.group(2), "destination": m.group(3)}),
    (rf"the army in {_PROV} could only reach {_PROV} through {_PROV}", "support_only_through",
     lambda m, o: {"origin": m.group(1), "destination": m.group(2), "province": m.group(3)}),
    (rf"{_PROV} has more than one coast {_UNIT} can reach: say which \((.+)\)", "coast_needed",
     lambda m, o: {"province": m.group(1), "coasts": _coasts(m.group(3))}),
    (rf"say which coast of {_PROV}: (.+)", "coast_needed",
     lambda m, o: {"province": m.group(1), "coasts": _coasts(m.group(2))}),
    (rf"{_UNIT} cannot retreat to {_LOC}", "cannot_retreat",
     lambda m, o: {"unit": m.group(1), "destination": m.group(2)}),
    (rf"there is no unit in {_PROV}", "no_unit", lambda m, o: {"province": m.group(1)}),
    (rf"there is no dislodged unit in {_PROV}", "no_dislodged_unit", lambda m, o: {"province": m.group(1)}),
    (rf"the unit in {_PROV} belongs to (\w+)", "not_your_unit",
     lambda m, o: {"province": m.group(1), "power": m.group(2)}),
    (rf"the (?:dislodged )?unit in {_PROV} is (an army|a fleet)", "wrong_unit_type", _unit_type_of),
    (rf"{_PROV} is not a home centre of (\w+)", "not_home_centre",
     lambda m, o: {"province": m.group(1), "power": m.group(2)}),
    (rf"(\w+) does not own {_PROV}", "not_owned", lambda m, o: {"power": m.group(1), "province": m.group(2)}),
    (rf"{_PROV} is occupied", "occupied", lambda m, o: {"province": m.group(1)}),
    (r"say army or fleet", "unit_type_needed", lambda m, o: {"province": province_of(o.location)}),
    (rf"a fleet cannot be built in {_PROV}", "impossible_unit",
     lambda m, o: {"unit_type": "F", "province": m.group(1)}),
    (r"(\w+) has no builds", "no_builds", lambda m, o: {"power": m.group(1)}),
    (r"(\w+) need not remove a unit", "no_removals", lambda m, o: {"power": m.group(1)}),
)]


def explain(reason: str, order, ctx: "ParseContext") -> Diagnostic:
    """The rules core's ``reason`` for refusing ``order`` as a :class:`Diagnostic`;
    ``illegal`` with ``text=reason`` when the sentence is not recognised (or names
    a province or power the map does not have)."""
    gm = ctx.map
    for pattern, code, build in _REASONS:
        m = pattern.match(reason)
        if m is None:
            continue
        params = build(m, order)
        places = [params[k] for k in ("province", "destination", "origin") if k in params]
        places += params.get("coasts", [])
        if "unit" in params:
            places.append(params["unit"].partition(" ")[2])
        if all(province_of(p) in gm.provinces for p in places) and params.get("power", gm.powers[0]) in gm.powers:
            return diagnostic(code, ctx.names, **params)
    return diagnostic("illegal", ctx.names, text=reason)
