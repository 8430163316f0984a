"""From drafts to orders: check each draft against the map, the phase kind and
(if given) the position, and fill in what they determine.

- In a retreat phase a move is a retreat; in a movement phase a single
  ``retreat``/撤退到 is a standing retreat preference (``RULES.md`` §3.1).
- Orders not possible in the phase kind fail with ``wrong_phase``. A movement
  phase also accepts builds, disbands and priority lists: the combined-order
  mode of ``RULES.md`` §3.5 sends them with the Fall orders (the game decides).
- With a position: the ordered unit must exist (the dislodged one in a retreat
  phase) and belong to ``ctx.power``; its type and coast are taken from it.
  Supported and convoyed units get their type from it when not written.
- A fleet moving, retreating or preferring to retreat into a split-coast
  province without a coast gets the only coast it can reach; if it can reach
  more than one, ``coast_needed`` lists them (``RULES.md`` §1, DATC 6.B.1/6.B.2).
  A coast the province does not have fails with ``coast_impossible``.
- An army move needing a convoy is kept as written (``A Lon - Bel``); a route
  (``A Lon - Eng - Bre``) makes it a move ``via_convoy`` with that ``route``.
- Builds: the unit type must be given (inland: army); a fleet on a split-coast
  province needs a coast. In an adjustment phase with a position, the province
  must be free and (with a power) a home centre owned by it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.orders import (Build, BuildPriority, Convoy, Disband, DisbandPriority, Hold, Move,
                            RetreatPreference, Retreat, Support, Waive)
from .diagnostics import diagnostic
from .grammar import Draft, Fail, Place, Ref

if TYPE_CHECKING:
    from .parser import ParseContext

ALLOWED = {
    "M": {"hold", "move", "support", "convoy", "retreat_pref", "build", "disband", "waive",
          "build_pri", "disband_pri"},
    "R": {"retreat", "disband", "retreat_pref"},
    "A": {"build", "disband", "waive", "build_pri", "disband_pri"},
}


def resolve(d: Draft, ctx: "ParseContext"):
    """The order for draft ``d``. Raises :class:`Fail`."""
    kind = d.kind
    if kind == "move" and ctx.phase_kind == "R":
        if d.route or d.via_convoy:
            raise _fail(ctx, "route_not_allowed", reason="retreat")
        kind = "retreat"
    if kind == "retreat" and ctx.phase_kind == "M":
        kind = "retreat_pref"
        d.places = [d.dest]
    if kind not in ALLOWED.get(ctx.phase_kind, ALLOWED["M"]):
        raise _fail(ctx, "wrong_phase", order=kind, phase_kind=ctx.phase_kind)
    return _RESOLVERS[kind](d, ctx)


def _fail(ctx: "ParseContext", code: str, **params) -> Fail:
    return Fail(diagnostic(code, ctx.names, **params))


# ---- units and places ----------------------------------------------------------
def _subject(ref: Ref, ctx: "ParseContext") -> tuple[str | None, str]:
    """(unit type, location) of the ordered unit."""
    pos = ctx.position
    if pos is not None:
        if ctx.phase_kind == "R":
            dl = pos.dislodged.get(ref.prov)
            unit = dl.unit if dl else None
            missing = "no_dislodged_unit"
        else:
            unit = pos.units.get(ref.prov)
            missing = "no_unit"
        if unit is None:
            raise _fail(ctx, missing, province=ref.prov)
        if ref.unit_type and ref.unit_type != unit.type:
            raise _fail(ctx, "wrong_unit_type", province=ref.prov, written=ref.unit_type, actual=unit.type)
        if ctx.power and unit.power != ctx.power:
            raise _fail(ctx, "not_your_unit", province=ref.prov, power=unit.power)
        return unit.type, unit.location
    return _written(ref, ctx)


def _written(ref: Ref, ctx: "ParseContext") -> tuple[str | None, str]:
    """(type, location) of a unit from what was written and the map alone."""
    prov = ctx.map.provinces[ref.prov]
    t = ref.unit_type
    if t is None:
        if prov.kind == "sea" or (ref.coast and prov.coasts):
            t = "F"
        elif prov.kind == "inland":
            t = "A"
    if (t == "A" and prov.kind == "sea") or (t == "F" and prov.kind == "inland") or prov.kind == "impassable":
        raise _fail(ctx, "impossible_unit", unit_type=t or "A", province=ref.prov)
    if t != "A" and prov.coasts and ref.coast:
        return t, _coast_location(ref.prov, ref.coast, ctx)
    return t, ref.prov


def _coast_location(prov: str, coast: str, ctx: "ParseContext") -> str:
    if coast not in ctx.map.provinces[prov].coasts:
        raise _fail(ctx, "coast_impossible", province=prov, coast=coast, coasts=list(ctx.map.coasts_of(prov)))
    return f"{prov}/{coast}"


def _other(ref: Ref, ctx: "ParseContext", default_type: str | None = None) -> tuple[str | None, str]:
    """(type, location) of a supported or convoyed unit: from the position if a
    unit is there, else as written."""
    unit = ctx.position.units.get(ref.prov) if ctx.position is not None else None
    if unit is not None:
        return ref.unit_type or unit.type, unit.location
    t, loc = _written(Ref(ref.unit_type or default_type, ref.prov, ref.coast), ctx)
    return t, loc


def _destination(unit_type: str | None, origin: str, place: Place, ctx: "ParseContext") -> str:
    """Where a unit of ``unit_type`` at ``origin`` goes when told ``place``."""
    gm = ctx.map
    prov = gm.provinces[place.prov]
    if unit_type == "A" or not prov.coasts:
        return place.prov
    if place.coast:
        return _coast_location(place.prov, place.coast, ctx)
    if unit_type is None:
        return place.prov
    froms = gm.coasts_of(origin) if origin in gm.provinces and gm.provinces[origin].coasts else (origin,)
    reach = [c for c in gm.coasts_of(place.prov) if any(c in gm.fleet_adj.get(f, ()) for f in froms)]
    if len(reach) == 1:
        return reach[0]
    if len(reach) > 1:
        raise _fail(ctx, "coast_needed", province=place.prov, coasts=reach)
    return place.prov          # not reachable at all: the adjudicator says so


def _support_destination(place: Place, ctx: "ParseContext") -> str:
    if place.coast and ctx.map.provinces[place.prov].coasts:
        return _coast_location(place.prov, place.coast, ctx)
    return place.prov


# ---- one resolver per kind -------------------------------------------------------
def _hold(d: Draft, ctx):
    return Hold(*_subject(d.units[0], ctx))


def _move(d: Draft, ctx):
    t, loc = _subject(d.units[0], ctx)
    if t == "F" and (d.route or d.via_convoy):
        raise _fail(ctx, "route_not_allowed", reason="fleet")
    for p in d.route:
        if ctx.map.provinces[p.prov].kind != "sea":
            raise _fail(ctx, "route_not_sea", province=p.prov)
    dest = _destination(t, loc, d.dest, ctx)
    return Move(t, loc, dest, d.via_convoy or bool(d.route), tuple(p.prov for p in d.route))


def _retreat(d: Draft, ctx):
    t, loc = _subject(d.units[0], ctx)
    return Retreat(t, loc, _destination(t, loc, d.dest, ctx))


def _retreat_pref(d: Draft, ctx):
    t, loc = _subject(d.units[0], ctx)
    return RetreatPreference(t, loc, tuple(_destination(t, loc, p, ctx) for p in d.places))


def _support(d: Draft, ctx):
    t, loc = _subject(d.units[0], ctx)
    st, sloc = _other(d.target, ctx)
    dest = _support_destination(d.dest, ctx) if d.dest else None
    return Support(t, loc, st, sloc, dest)


def _convoy(d: Draft, ctx):
    t, loc = _subject(d.units[0], ctx)
    at, aloc = _other(d.target, ctx, default_type="A")
    return Convoy(t, loc, aloc.split("/")[0], d.dest.prov, at)


def _disband(d: Draft, ctx):
    return Disband(*_subject(d.units[0], ctx))


def _build_of(ref: Ref, ctx, check_position: bool) -> Build:
    gm = ctx.map
    prov = gm.provinces[ref.prov]
    t = ref.unit_type or ("A" if prov.kind == "inland" else None)
    if t is None:
        raise _fail(ctx, "unit_type_needed", province=ref.prov)
    if (t == "A" and prov.kind == "sea") or (t == "F" and prov.kind == "inland") or prov.kind == "impassable":
        raise _fail(ctx, "impossible_unit", unit_type=t, province=ref.prov)
    loc = ref.prov
    if t == "F" and prov.coasts:
        if not ref.coast:
            raise _fail(ctx, "coast_needed", province=ref.prov, coasts=list(gm.coasts_of(ref.prov)))
        loc = _coast_location(ref.prov, ref.coast, ctx)
    pos = ctx.position
    if check_position and pos is not None and ctx.phase_kind == "A":
        if ref.prov in pos.units:
            raise _fail(ctx, "occupied", province=ref.prov)
        if ctx.power:
            if ref.prov not in gm.home_centres.get(ctx.power, ()):
                raise _fail(ctx, "not_home_centre", province=ref.prov, power=ctx.power)
            if pos.sc_owners.get(ref.prov) != ctx.power:
                raise _fail(ctx, "not_owned", province=ref.prov, power=ctx.power)
    return Build(t, loc)


def _build(d: Draft, ctx):
    return _build_of(d.units[0], ctx, check_position=True)


def _waive(d: Draft, ctx):
    return Waive()


def _build_pri(d: Draft, ctx):
    return BuildPriority(tuple(_build_of(r, ctx, check_position=False) for r in d.items))


def _disband_pri(d: Draft, ctx):
    return DisbandPriority(tuple(Disband(*_subject(r, ctx)) for r in d.items))


_RESOLVERS = {
    "hold": _hold, "move": _move, "retreat": _retreat, "retreat_pref": _retreat_pref,
    "support": _support, "convoy": _convoy, "disband": _disband, "build": _build,
    "waive": _waive, "build_pri": _build_pri, "disband_pri": _disband_pri,
}
