"""Movement-phase adjudication.

The resolver follows L. B. Kruijswijk, *The Math of Adjudication*: each move,
support and convoy is a yes/no decision; strengths are computed from decisions;
a decision that depends on itself is settled by guessing both ways. Two kinds of
cycle remain: circular movement (all moves succeed, DATC 6.C) and convoy
paradoxes, settled by the Szykman rule — the convoys of the paradox core are
disrupted (DATC v3.2 4.A.2, 6.F.14–6.F.24).

Rule choices follow DATC v3.2 unless :class:`~judge.rules.options.RuleOptions`
says otherwise (``RULES.md`` §1; ``shared/datc/v3.2/README.md`` §6).
"""

from __future__ import annotations

from dataclasses import dataclass

from .convoy_routes import RouteGeometry
from .map import Map, province_of
from .options import DEFAULT_RULES, RuleOptions
from .orders import (
    BOUNCED, CUT, DISRUPTED, FAILS, ILLEGAL, NO_ORDER, SUCCEEDS, VOID,
    Convoy, Hold, Move, Order, Result, Support,
)
from .position import DislodgedUnit, Position, Unit

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)


@dataclass(frozen=True)
class MovementOutcome:
    """``position``: the board after the phase, its phase set to the retreat
    phase of the same season, ``dislodged`` filled with units that have a retreat.
    ``results``: one :class:`Result` per order given (in the order given), then one
    for each unit left without an order (a hold, reason ``"no order"``).
    ``contested``: provinces left empty by a standoff (no retreat there)."""

    position: Position
    results: list[Result]
    contested: frozenset[str]


class _Rec:
    """One unit's effective order during resolution. Fields not set in
    ``__init__`` fall back to the class defaults below (cheap to create)."""

    kind = "H"          # H, M, S, C
    dest = None         # move: destination province
    dest_loc = None     # move: destination location (coast for fleets)
    convoyed = False
    target = None       # support: supported province; convoy: army province
    into = None         # support: province support is given into; convoy: destination
    h2h = None          # the move it meets head to head
    supports = ()       # supports given to it (a tuple, replaced when one is added)
    route = frozenset() # convoy: fleets that could carry it
    result_at = -1
    note = None         # the order in force
    void = False        # an order that stands but does not act (VOID)
    state = _UNRESOLVED
    res = False

    def __init__(self, unit: Unit, prov: str):
        self.power = unit.power
        self.unit = unit
        self.prov = prov


def geometry(game_map: Map) -> RouteGeometry:
    """The memoised :class:`RouteGeometry` of ``game_map``."""
    geo = game_map.__dict__.get("_route_geometry")
    if geo is None:
        geo = RouteGeometry(game_map)
        game_map.__dict__["_route_geometry"] = geo
    return geo


def adjudicate_movement(game_map: Map, position: Position,
                        orders: dict[str, list[Order]],
                        rules: RuleOptions = DEFAULT_RULES) -> MovementOutcome:
    """Resolve a movement phase.

    Args:
        game_map: the map.
        position: the board before the phase (units, SC owners, phase name).
        orders: ``{power: [Order, ...]}`` as written; an order for a unit that is
            not the power's, or impossible, is ILLEGAL and the unit holds (DATC
            4.E.1); a later order for the same unit replaces an earlier one (VOID).
        rules: rule choices (DATC v3.2 by default).

    Returns:
        :class:`MovementOutcome`. Never raises for bad orders.
    """
    return _Movement(game_map, position, orders, rules).run()


class _Movement:
    def __init__(self, game_map: Map, position: Position, orders, rules: RuleOptions):
        self.map = game_map
        self.geo = geometry(game_map)
        self.pos = position
        self.rules = rules
        self.lp = lp = game_map.loc_province
        self.results: list[list] = []   # [power, order, outcome, reason, _Rec or None]
        self.recs = recs = {p: _Rec(u, p) for p, u in position.units.items()}
        self.fleet_seas = {p for p in recs if p in self.geo.seas}
        self.moves: list[_Rec] = []
        self.supps: list[_Rec] = []
        self.convs: list[_Rec] = []
        results, classify = self.results, self._classify
        replaced = False
        for power, olist in orders.items():
            for order in olist:
                entry = [power, order, SUCCEEDS, None, None]
                results.append(entry)
                if type(order) not in _MOVEMENT_ORDERS:
                    entry[2:4] = ILLEGAL, "not a movement-phase order"
                    continue
                loc = order.location
                prov = lp.get(loc) or province_of(loc)
                rec = recs.get(prov)
                if rec is None:
                    entry[2:4] = ILLEGAL, f"there is no unit in {prov}"
                elif rec.power != power:
                    entry[2:4] = ILLEGAL, f"the unit in {prov} belongs to {rec.power}"
                elif order.unit_type and order.unit_type != rec.unit.type:
                    entry[2:4] = ILLEGAL, f"the unit in {prov} is {'an army' if rec.unit.type == 'A' else 'a fleet'}"
                else:
                    if rec.result_at >= 0:        # a later order replaces an earlier one
                        prev = results[rec.result_at]
                        if prev[2] == SUCCEEDS:
                            prev[2:4] = VOID, "replaced by a later order for the same unit"
                        unit = rec.unit
                        rec.__dict__.clear()
                        rec.__init__(unit, prov)
                        replaced = True
                    rec.result_at = len(results) - 1
                    entry[4] = rec
                    classify(rec, order)
        if replaced:
            self.moves = list(dict.fromkeys(self.moves))
            self.supps = list(dict.fromkeys(self.supps))
            self.convs = list(dict.fromkeys(self.convs))

    def _prov(self, loc: str) -> str:
        return self.lp.get(loc) or province_of(loc)

    def _illegal(self, i: int, why: str) -> None:
        self.results[i][2], self.results[i][3] = ILLEGAL, why

    def _set_illegal(self, rec: _Rec, why: str) -> None:
        self._illegal(rec.result_at, why)
        rec.kind = "H"

    def _classify(self, rec: _Rec, order: Order) -> None:
        """Check one order for legality (ILLEGAL: the unit holds, DATC 4.E.1) and
        file it as a move, support or convoy."""
        kind = type(order)
        rec.note = order
        if kind is Hold:
            return
        gm, lp = self.map, self.lp
        u = rec.unit
        if kind is Move:
            dest_memo = self.geo.destinations
            key = (u.type, u.location, order.destination)
            found = dest_memo.get(key)
            if found is None:
                found = dest_memo[key] = self._destination(u, order.destination)
            dest, why = found
            if why:
                return self._set_illegal(rec, why)
            rec.kind, rec.dest_loc, rec.dest = "M", dest, lp[dest]
            if u.type == "A":
                adjacent = rec.dest in gm.army_adj.get(rec.prov, ())
                if not adjacent and not self._static_route(rec.prov, rec.dest, self.fleet_seas):
                    if not self.geo.route_exists(rec.prov, rec.dest):
                        return self._set_illegal(rec, f"{u} cannot reach {rec.dest}")
                    # no fleets stand where a convoy could go: illegal (DATC 6.D.32)
                    return self._set_illegal(rec, f"no fleets to convoy {rec.prov} to {rec.dest}")
                rec.convoyed = order.via_convoy or not adjacent
            self.moves.append(rec)
        elif kind is Support:
            tprov = lp.get(order.supported_location) or province_of(order.supported_location)
            into = (lp.get(order.destination) or province_of(order.destination)) if order.destination else tprov
            if tprov == rec.prov:
                return self._set_illegal(rec, "a unit cannot support itself")
            if into == rec.prov or not (into in gm.army_adj.get(rec.prov, ()) if u.type == "A"
                                        else into in gm.fleet_prov_adj.get(u.location, ())):
                return self._set_illegal(rec, f"{u} cannot reach {into}")
            if order.destination:
                why = self._impossible_move(self.recs.get(tprov), into, rec.prov)
                if why:
                    return self._set_illegal(rec, why)   # DATC 6.A.5, 6.D.22-6.D.24, 6.D.31
                rec.into = into
            rec.kind, rec.target = "S", tprov
            self.supps.append(rec)
        else:  # Convoy
            aprov, dprov = self._prov(order.army_location), self._prov(order.destination)
            army = self.recs.get(aprov)
            if u.type != "F" or rec.prov not in self.geo.seas:
                return self._set_illegal(rec, "only a fleet in a sea province can convoy")
            if army is None or army.unit.type != "A" or order.army_type == "F":
                return self._set_illegal(rec, f"there is no army in {aprov} to convoy")
            if dprov not in gm.provinces or not gm.provinces[dprov].is_land or dprov == aprov \
                    or not self.geo.on_route(rec.prov, aprov, dprov):
                return self._set_illegal(rec, f"{rec.prov} is on no convoy route from {aprov} to {dprov}")
            rec.kind, rec.target, rec.into = "C", aprov, dprov
            self.convs.append(rec)

    def _impossible_move(self, sup: _Rec | None, into: str, supporter: str) -> str | None:
        """Why the unit ``sup`` could not move to ``into`` whatever it was ordered
        (a support of such a move is illegal), or None."""
        if sup is None:
            return None                 # no unit there: the support is void, not illegal
        gm, u = self.map, sup.unit
        if into == sup.prov:
            return "a unit cannot move to its own province"
        if u.type == "F":
            return None if into in gm.fleet_prov_adj.get(u.location, ()) else f"{u} cannot reach {into}"
        if into in gm.army_adj.get(sup.prov, ()):
            return None
        if into not in gm.provinces or not gm.provinces[into].is_land:
            return f"an army cannot go to {into}"
        if self._static_route(sup.prov, into, self.fleet_seas - {supporter}):
            return None
        return f"the army in {sup.prov} could only reach {into} through {supporter}"

    def _destination(self, u: Unit, dest: str) -> tuple[str | None, str | None]:
        """The location a move of ``u`` to ``dest`` goes to, or a reason it cannot."""
        gm = self.map
        if u.type == "F" and dest in gm.fleet_adj.get(u.location, ()):
            return dest, None
        prov = self._prov(dest)
        p = gm.provinces.get(prov)
        if p is None:
            return None, f"unknown province {dest!r}"
        if prov == self._prov(u.location):
            return None, "a unit cannot move to its own province"
        if u.type == "A":
            if not p.is_land:
                return None, f"an army cannot go to {prov}"
            return prov, None
        if p.coasts:
            reachable = [c for c in gm.coasts_of(prov) if c in gm.fleet_adj.get(u.location, ())]
            if "/" in dest:
                if dest not in reachable:
                    return None, f"{u} cannot reach {dest}"
                return dest, None
            if len(reachable) == 1:
                return reachable[0], None   # DATC 6.B.2
            if not reachable:
                return None, f"{u} cannot reach {prov}"
            return None, f"{prov} has more than one coast {u} can reach: say which ({', '.join(reachable)})"
        if prov not in gm.fleet_adj.get(u.location, ()):
            return None, f"{u} cannot reach {prov}"
        return prov, None

    def _match(self) -> None:
        """Match supports and convoys to the orders they name; decide convoy intent
        and static routes; link head-to-head pairs."""
        recs = self.recs
        convoys_for: dict[tuple[str, str], list[_Rec]] = {}
        for rec in self.convs:
            if rec.kind == "C":
                army = recs[rec.target]
                if army.kind == "M" and army.dest == rec.into:
                    convoys_for.setdefault((rec.target, rec.into), []).append(rec)
                else:
                    self._void(rec, f"the army in {rec.target} was not ordered to {rec.into}")
        for rec in self.moves:
            if rec.kind != "M" or rec.unit.type != "A" or not (rec.convoyed or convoys_for):
                continue
            fleets = convoys_for.get((rec.prov, rec.dest), [])
            if not rec.convoyed and any(f.power == rec.power for f in fleets):
                rec.convoyed = True     # intent shown by an own fleet (DATC 6.G.1, 6.G.6)
            if not rec.convoyed:
                continue
            route = self._static_route(rec.prov, rec.dest, {f.prov for f in fleets})
            if route:
                rec.route = route
                continue
            adjacent = rec.dest in self.map.army_adj.get(rec.prov, ())
            explicit = isinstance(rec.note, Move) and rec.note.via_convoy
            if adjacent and (not explicit or self.rules.via_convoy_land_fallback):
                rec.convoyed = False    # own fleets cannot complete a route: go by land
            else:
                self._void(rec, f"no convoy ordered from {rec.prov} to {rec.dest}")
        for rec in self.supps:
            if rec.kind != "S":
                continue
            sup = recs.get(rec.target)
            order: Support = rec.note
            if sup is None:
                self._void(rec, f"there is no unit in {rec.target}")
                continue
            if order.supported_type and order.supported_type != sup.unit.type:
                self._void(rec, f"the unit in {rec.target} is not {'an army' if order.supported_type == 'A' else 'a fleet'}")
                continue
            if rec.into is None:
                if sup.kind == "M":
                    self._void(rec, f"the unit in {rec.target} was ordered to move")
                    continue
            else:
                if sup.kind != "M" or sup.void or sup.dest != rec.into:
                    self._void(rec, f"the unit in {rec.target} was not ordered to {rec.into}")
                    continue
                dloc = order.destination
                if "/" in dloc and sup.unit.type == "F" and dloc != sup.dest_loc:
                    self._void(rec, f"the unit in {rec.target} was ordered to {sup.dest_loc}, not {dloc}")
                    continue
            sup.supports += (rec,)
        self.moves = [r for r in self.moves if r.kind == "M" and not r.void]
        self.moves_into: dict[str, list[_Rec]] = {}
        for rec in self.moves:
            self.moves_into.setdefault(rec.dest, []).append(rec)
        for rec in self.moves:
            if not rec.convoyed:
                other = recs.get(rec.dest)
                if other and other.kind == "M" and not other.void and not other.convoyed \
                        and other.dest == rec.prov:
                    rec.h2h = other

    def _void(self, rec: _Rec, why: str) -> None:
        r = self.results[rec.result_at]
        r[2], r[3] = VOID, why
        rec.void = True
        if rec.kind in ("S", "C"):
            rec.kind = "H"   # acts as a hold (DATC 6.D.27: it can be supported)

    def _static_route(self, src: str, dst: str, fleets: set[str]) -> frozenset:
        """Fleets (provinces) lying on some chain of ``fleets`` from src to dst."""
        geo = self.geo
        shore_s, shore_d = geo.shore.get(src, frozenset()), geo.shore.get(dst, frozenset())

        def reach(start):
            seen = {f for f in fleets if f in start}
            todo = list(seen)
            while todo:
                f = todo.pop()
                for n in geo.sea_adj[f]:
                    if n in fleets and n not in seen:
                        seen.add(n)
                        todo.append(n)
            return seen

        fwd = reach(shore_s)
        if not fwd & shore_d:
            return frozenset()
        return frozenset(fwd & reach(shore_d))

    # ---- resolution ----------------------------------------------------------------
    def run(self) -> MovementOutcome:
        self._match()
        self.deps: list[_Rec] = []
        for rec in self.moves:
            self.resolve(rec)
        for rec in self.supps:
            if rec.kind == "S":
                self.resolve(rec)
        for rec in self.convs:
            if rec.kind == "C":
                self.resolve(rec)
        return self._outcome()

    def resolve(self, rec: _Rec) -> bool:
        st = rec.state
        if st == _RESOLVED:
            return rec.res
        if st == _GUESSING:
            # every consultation of a guess is recorded, so that a decision that
            # depends on a guess already listed is not taken as settled (DATC 6.F.16)
            self.deps.append(rec)
            return rec.res
        deps = self.deps
        old = len(deps)
        rec.res, rec.state = False, _GUESSING
        first = self._decide(rec)
        if len(deps) == old:
            if rec.state != _RESOLVED:
                rec.res, rec.state = first, _RESOLVED
            return rec.res
        if deps[old] is not rec:
            deps.append(rec)
            rec.res = first
            return first
        for r in deps[old:]:
            r.state = _UNRESOLVED
        del deps[old:]
        rec.res, rec.state = True, _GUESSING
        second = self._decide(rec)
        if first == second:
            for r in deps[old:]:
                r.state = _UNRESOLVED
            del deps[old:]
            rec.res, rec.state = first, _RESOLVED
            return first
        self._backup(old)
        return self.resolve(rec)

    def _backup(self, old: int) -> None:
        cycle = list(dict.fromkeys(self.deps[old:]))
        del self.deps[old:]
        if any(r.kind == "C" for r in cycle):      # Szykman: disrupt the core's convoys
            for r in cycle:
                if r.kind == "C":
                    r.res, r.state = False, _RESOLVED
                else:
                    r.state = _UNRESOLVED
        else:                                       # circular movement: all move
            for r in cycle:
                if r.kind == "M":
                    r.res, r.state = True, _RESOLVED
                else:
                    r.state = _UNRESOLVED

    def _decide(self, rec: _Rec) -> bool:
        if rec.kind == "M":
            return self._move(rec)
        if rec.kind == "S":
            return self._support(rec)
        return self._convoy(rec)

    def _path(self, rec: _Rec) -> bool:
        if not rec.convoyed:
            return True
        geo, route = self.geo, rec.route
        goal = geo.shore.get(rec.dest, frozenset())
        todo = [f for f in route if f in geo.shore.get(rec.prov, ())]
        seen = set(todo)
        while todo:
            f = todo.pop()
            if not self.resolve(self.recs[f]):
                continue
            if f in goal:
                return True
            for n in geo.sea_adj[f]:
                if n in route and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False

    def _given(self, rec: _Rec, exclude_power: str | None = None) -> int:
        n = 0
        for s in rec.supports:
            if s.power != exclude_power and self.resolve(s):
                n += 1
        return n

    def _hold_strength(self, prov: str) -> int:
        rec = self.recs.get(prov)
        if rec is None:
            return 0
        if rec.kind == "M" and not rec.void:
            return 0 if self.resolve(rec) else 1
        return 1 + self._given(rec)

    def _attack(self, rec: _Rec) -> int:
        if not self._path(rec):
            return 0
        d = self.recs.get(rec.dest)
        if d is None or (rec.h2h is None and d.kind == "M" and not d.void and self.resolve(d)):
            return 1 + self._given(rec)
        if d.power == rec.power:
            return 0
        return 1 + self._given(rec, exclude_power=d.power)

    def _prevent(self, rec: _Rec) -> int:
        if not self._path(rec):
            return 0
        if rec.h2h is not None and self.resolve(rec.h2h):
            return 0
        return 1 + self._given(rec)

    def _move(self, rec: _Rec) -> bool:
        attack = self._attack(rec)
        if attack == 0:
            return False
        if rec.h2h is not None:
            if attack <= 1 + self._given(rec.h2h):
                return False
        elif attack <= self._hold_strength(rec.dest):
            return False
        for other in self.moves_into[rec.dest]:
            if other is not rec and attack <= self._prevent(other):
                return False
        return True

    def _support(self, rec: _Rec) -> bool:
        into = rec.into or rec.target
        for m in self.moves_into.get(rec.prov, ()):
            if m.power == rec.power or m.prov == into:
                continue
            if self._path(m):
                return False
        for m in self.moves_into.get(rec.prov, ()):
            if m.power != rec.power and m.prov == into and self.resolve(m):
                return False
        return True

    def _convoy(self, rec: _Rec) -> bool:
        for m in self.moves_into.get(rec.prov, ()):
            if self.resolve(m):
                return False
        return True

    # ---- the outcome ---------------------------------------------------------------
    def _outcome(self) -> MovementOutcome:
        recs, lp = self.recs, self.lp
        moved = [r for r in self.moves if r.res]
        units = dict(self.pos.units)
        for r in moved:
            del units[r.prov]
        winners: dict[str, _Rec] = {}
        for r in moved:
            winners[r.dest] = r
            units[r.dest] = Unit(r.power, r.unit.type, r.dest_loc)
        contested = set()
        for r in self.moves:
            # a standoff leaves the province contested; losing a head-to-head does not (DATC 6.H.9)
            if not r.res and (not r.convoyed or self._path(r)) and not (r.h2h is not None and r.h2h.res):
                contested.add(r.dest)
        contested.difference_update(units)
        dislodged: dict[str, DislodgedUnit] = {}
        beaten: set[str] = set()
        for p, attacker in winners.items():
            r = recs.get(p)
            if r is None or (r.res and r.kind == "M" and not r.void):
                continue
            beaten.add(p)
            origin = None if attacker.convoyed else attacker.prov
            adj = self.map.army_adj.get(p, ()) if r.unit.type == "A" else self.map.fleet_adj.get(r.unit.location, ())
            opts = tuple(sorted(loc for loc in adj if lp[loc] not in units and lp[loc] != origin
                                and lp[loc] not in contested))
            if opts:
                dislodged[p] = DislodgedUnit(r.unit, origin, opts)
        results = self.results
        for r in recs.values():
            if r.result_at < 0:
                r.result_at = len(results)
                results.append([r.power, Hold(r.unit.type, r.unit.location), SUCCEEDS, NO_ORDER, r])
        out: list[Result] = []
        new = tuple.__new__
        for i, (power, order, outcome, reason, r) in enumerate(results):
            if r is None or r.result_at != i:
                out.append(new(Result, (power, order, outcome, reason, False, False)))
                continue
            if outcome == SUCCEEDS and r.kind != "H" and not r.res:
                outcome = FAILS
                if r.kind == "M":
                    reason = DISRUPTED if r.convoyed and not self._path(r) else BOUNCED
                else:
                    reason = CUT if r.kind == "S" else DISRUPTED
            disl = r.prov in beaten
            out.append(new(Result, (power, order, outcome, reason, disl, disl and r.prov not in dislodged)))
        ph = self.pos.phase
        next_phase = ph[:-1] + "R" if ph.endswith("M") else ph
        newpos = Position(next_phase, units, dict(self.pos.sc_owners), dislodged)
        return MovementOutcome(newpos, out, frozenset(contested))
