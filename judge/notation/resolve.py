"""From drafts to orders: check each draft against the map, the phase kind and
(if given) the position, and fill in what they determine.

- In a retreat phase a move is a retreat; in a movement phase a single
  ``retreat``/撤退到 is a standing retreat preference (``RULES.md`` §3.1).
- Orders not possible in the phase kind fail with ``wrong_phase``. A movement
  phase also accepts builds, disbands and priority lists: the combined-order
  mode of ``RULES.md`` §3.5 sends them with the Fall orders (the game decides).
- With a position: the ordered unit must exist (the dislodged one in a retreat
  phase) and belong to ``ctx.power`` (or to the power named before the order);
  its type and coast are taken from it. A wrongly written coast of the unit is
  ignored (DATC 6.B.10) but noted: ``unit_coast_corrected`` goes to ``notes``.
  Supported and convoyed units get their type and coast from it when not written
  (a wrong coast noted alike).
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

from dataclasses import replace
from typing import TYPE_CHECKING

from ..rules.orders import (Build, BuildPriority, Convoy, Disband, DisbandPriority, Hold, Move,
                            RetreatPreference, Retreat, Support, Waive)
from .diagnostics import Diagnostic, diagnostic
from .grammar import Draft, Fail, Place, Ref

if TYPE_CHECKING:
    from .parser import ParseContext

ALLOWED = {
    "M": {"hold", "move", "support", "convoy", "retreat_pref", "build", "disband", "waive",
          "build_pri", "disband_pri"},
    "R": {"retreat", "disband", "retreat_pref"},
    "A": {"build", "disband", "waive", "build_pri", "disband_pri"},
}


def resolve(d: Draft, ctx: "ParseContext", notes: list[Diagnostic]):
    """The order for draft ``d``; what the player should know about how it was
    read is appended to ``notes``. Raises :class:`Fail`."""
    if d.power is not None:
        ctx = replace(ctx, power=d.power)
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
    return _RESOLVERS[kind](d, ctx, notes)


def _fail(ctx: "ParseContext", code: str, **params) -> Fail:
    return Fail(diagnostic(code, ctx.names, **params))


# ---- units and places ----------------------------------------------------------
def _note_coast(ref: Ref, location: str, ctx: "ParseContext", notes: list[Diagnostic]) -> None:
    """Note a coast written for a unit that stands on another coast."""
    coast = location.partition("/")[2]
    if ref.coast and coast and ref.coast != coast:
        notes.append(diagnostic("unit_coast_corrected", ctx.names, province=ref.prov,
                                written_coast=ref.coast, coast=coast))


def _subject(ref: Ref, ctx: "ParseContext", notes: list[Diagnostic]) -> tuple[str | None, str]:
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
        if getattr(ref, "soldier", False) and unit.type == "F":     # 布雷斯特兵移动到英吉利海峡
            notes.append(diagnostic("unit_word_for_fleet", ctx.names, province=ref.prov))
        if ctx.power and unit.power != ctx.power:
            raise _fail(ctx, "not_your_unit", province=ref.prov, power=unit.power)
        _note_coast(ref, unit.location, ctx, notes)
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


def _other(ref: Ref, ctx: "ParseContext", notes: list[Diagnostic],
           default_type: str | None = None) -> tuple[str | None, str]:
    """(type, location) of a supported or convoyed unit: from the position if a
    unit is there, else as written."""
    unit = ctx.position.units.get(ref.prov) if ctx.position is not None else None
    if unit is not None:
        _note_coast(ref, unit.location, ctx, notes)
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
def _hold(d: Draft, ctx, notes):
    return Hold(*_subject(d.units[0], ctx, notes))


def _move(d: Draft, ctx, notes):
    t, loc = _subject(d.units[0], ctx, notes)
    if t == "F" and (d.route or d.via_convoy):
        raise _fail(ctx, "route_not_allowed", reason="fleet")
    for p in d.route:
        if ctx.map.provinces[p.prov].kind != "sea":
            raise _fail(ctx, "route_not_sea", province=p.prov)
    dest = _destination(t, loc, d.dest, ctx)
    return Move(t, loc, dest, d.via_convoy or bool(d.route), tuple(p.prov for p in d.route))


def _retreat(d: Draft, ctx, notes):
    t, loc = _subject(d.units[0], ctx, notes)
    return Retreat(t, loc, _destination(t, loc, d.dest, ctx))


def _retreat_pref(d: Draft, ctx, notes):
    t, loc = _subject(d.units[0], ctx, notes)
    return RetreatPreference(t, loc, tuple(_destination(t, loc, p, ctx) for p in d.places))


def _support(d: Draft, ctx, notes):
    t, loc = _subject(d.units[0], ctx, notes)
    st, sloc = _other(d.target, ctx, notes)
    dest = _support_destination(d.dest, ctx) if d.dest else None
    return Support(t, loc, st, sloc, dest)


def _convoy(d: Draft, ctx, notes):
    t, loc = _subject(d.units[0], ctx, notes)
    at, aloc = _other(d.target, ctx, notes, default_type="A")
    return Convoy(t, loc, aloc.split("/")[0], d.dest.prov, at)


def _disband(d: Draft, ctx, notes):
    return Disband(*_subject(d.units[0], ctx, notes))


def _build_of(ref: Ref, ctx, check_position: bool) -> Build:
    gm = ctx.map
    prov = gm.provinces[ref.prov]
    t = ref.unit_type or ("A" if prov.kind == "inland" else None)
    if t is None:
        raise _fail(ctx, "unit_type_needed", province=ref.prov)
    if (t == "A" and prov.kind == "sea") or (t == "F" and prov.kind == "inland") or prov.kind == "impassable":
        raise _fail(ctx, "impossible_unit", unit_type=t, province=ref.prov)
    pos = ctx.position
    if check_position and pos is not None and ctx.phase_kind == "A":
        if ctx.power:            # the checks in the order of the rules core (judge.rules.adjustments)
            if not gm.may_build_in(ctx.power, ref.prov):
                raise _fail(ctx, "not_home_centre" if gm.build == "home" else "not_owned",
                            province=ref.prov, power=ctx.power)
            if pos.sc_owners.get(ref.prov) != ctx.power:
                raise _fail(ctx, "not_owned", province=ref.prov, power=ctx.power)
        if ref.prov in pos.units:
            raise _fail(ctx, "occupied", province=ref.prov)
    loc = ref.prov               # the coast asked for last: no use naming one where nothing may be built
    if t == "F" and prov.coasts:
        if not ref.coast:
            raise _fail(ctx, "coast_needed", province=ref.prov, coasts=list(gm.coasts_of(ref.prov)))
        loc = _coast_location(ref.prov, ref.coast, ctx)
    return Build(t, loc)


def _build(d: Draft, ctx, notes):
    return _build_of(d.units[0], ctx, check_position=True)


def _waive(d: Draft, ctx, notes):
    return Waive()


def _build_pri(d: Draft, ctx, notes):
    return BuildPriority(tuple(_build_of(r, ctx, check_position=False) for r in d.items))


def _disband_pri(d: Draft, ctx, notes):
    return DisbandPriority(tuple(Disband(*_subject(r, ctx, notes)) for r in d.items))


_RESOLVERS = {
    "hold": _hold, "move": _move, "retreat": _retreat, "retreat_pref": _retreat_pref,
    "support": _support, "convoy": _convoy, "disband": _disband, "build": _build,
    "waive": _waive, "build_pri": _build_pri, "disband_pri": _disband_pri,
}
