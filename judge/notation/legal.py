"""Is an order legal on the board? :func:`check_legal` asks the rules core.

The parser (:mod:`.parser`) reads what was written; whether the order can be
carried out in the position is the adjudicators' word. :func:`check_legal`
adjudicates the one order alone, as the game does when it takes an order
(``RULES.md`` §1, DATC 4.E.1: an illegal order is not accepted), and gives
the rules core's reason (a code with parameters, :mod:`judge.rules.reasons`)
as a :class:`~.diagnostics.Diagnostic` of the same code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import DEFAULT_RULES, RuleOptions, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats
from ..rules.map import province_of
from ..rules.orders import ILLEGAL, SUCCEEDS, Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from ..rules.reasons import Reason
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
    return explain(result.reason, order, ctx) if refused and result.reason else None


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


def explain(reason: Reason, order, ctx: "ParseContext") -> Diagnostic:
    """The rules core's ``reason`` (a :class:`~judge.rules.reasons.Reason`)
    for refusing ``order`` as a :class:`Diagnostic` of the same code and
    params (codes in :mod:`judge.rules.reasons`); nothing is read from text."""
    params = reason.to_dict()
    return diagnostic(params.pop("code"), ctx.names, **params)
