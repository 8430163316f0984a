"""Movement-phase adjudication.

The resolver follows L. B. Kruijswijk, *The Math of Adjudication*: each move,
support and convoy is a yes/no decision; strengths are computed from decisions;
a decision that depends on itself is settled by guessing both ways. Two kinds of
cycle remain: circular movement (all moves succeed, DATC 6.C) and convoy
paradoxes, settled by the Szykman rule — the convoys of the paradox core are
disrupted (DATC v3.2 4.A.2, 6.F.14–6.F.24).

Rule choices follow DATC v3.2 unless :class:`~judge.rules.options.RuleOptions`
says otherwise (``RULES.md`` §1; ``shared/datc/v3.2/README.md`` §6).

Speed (issue 2: a median phase of ``benchmarks/adjudicate.py`` within 0.10 ms).
One pass takes the orders in, one matches them, the resolver runs only where a
decision is still open, one pass builds the outcome. The common case — a move
by land to an adjacent province, a support, no convoy — takes short paths: where
a unit can move and what it can support into come from per-map tables
(:class:`MoveTables`, built once per map), and the decisions no other decision
can change are settled while matching (see :meth:`_Movement._match`). A record
per unit (:class:`_Rec`, with ``__slots__``) carries the order and its decision;
:class:`Result` tuples are built once, at the end.
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
from .reasons import REPLACED, Reason, unit_code, wrong_phase

_UNRESOLVED, _GUESSING, _RESOLVED = 0, 1, 2
_MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
_NOWHERE: frozenset[str] = frozenset()
_NO_MOVES: dict[str, tuple[str, str]] = {}
_new_tuple = tuple.__new__      # builds a NamedTuple without its Python-level __new__


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


class MoveTables:
    """Lookups the adjudicator makes for every order, built once per map.

    ``province``: ``{location: province}`` (the map's ``loc_province``).
    ``moves``: ``{"A" | "F": {location: {destination as written: (location
    reached, its province)}}}`` — every move to an adjacent location; a fleet's
    move to a split-coast province is also listed under the bare province name
    when only one coast is in reach (DATC 6.B.2). A move not listed is over sea,
    names a coast wrongly, or is impossible: the adjudicator works it out.
    ``reach``: ``{"A" | "F": {location: frozenset of provinces}}`` — where a unit
    could move, any coast: what it may support into (DATC 6.B.4).
    ``geo``: the :class:`RouteGeometry` for convoys.
    ``destinations``: memo of the other moves worked out so far,
    ``(unit type, location, destination) -> (location, None) | (None, reason)``.
    """

    def __init__(self, game_map: Map):
        self.geo = RouteGeometry(game_map)
        self.province = lp = game_map.loc_province
        army: dict[str, dict[str, tuple[str, str]]] = {}
        fleet: dict[str, dict[str, tuple[str, str]]] = {}
        for loc, prov in lp.items():
            army[loc] = {p: (p, p) for p in game_map.army_adj.get(prov, ())}
            to = {d: (d, lp[d]) for d in game_map.fleet_adj.get(loc, ())}
            coasts: dict[str, list[str]] = {}
            for d in to:
                if "/" in d:
                    coasts.setdefault(lp[d], []).append(d)
            for p, reachable in coasts.items():
                if len(reachable) == 1:
                    to[p] = (reachable[0], p)
            fleet[loc] = to
        self.moves = {"A": army, "F": fleet}
        self.reach = {
            "A": {loc: game_map.army_adj.get(prov, _NOWHERE) for loc, prov in lp.items()},
            "F": {loc: game_map.fleet_prov_adj.get(loc, _NOWHERE) for loc in lp},
        }
        self.destinations: dict[tuple[str, str, str], tuple[str | None, str | None]] = {}


def tables(game_map: Map) -> MoveTables:
    """The memoised :class:`MoveTables` of ``game_map``."""
    t = game_map.__dict__.get("_move_tables")
    if t is None:
        t = game_map.__dict__["_move_tables"] = MoveTables(game_map)
    return t


def geometry(game_map: Map) -> RouteGeometry:
    """The memoised :class:`RouteGeometry` of ``game_map``."""
    return tables(game_map).geo


class _Rec:
    """One unit and the order in force for it during adjudication.

    Every record has ``power``, ``unit``, ``prov`` (its province), ``order``;
    ``kind``: ``"H"`` hold (also an illegal order, a void support or convoy, a
    void move once matching is done), ``"M"`` move, ``"S"`` support, ``"C"``
    convoy; ``outcome`` and ``reason`` (SUCCEEDS and None unless the order is
    ILLEGAL or VOID, or fails); ``supports`` given to it; and the decision
    ``state``/``res`` — a move: it moves; a support: it is not cut; a convoy: the
    fleet is not dislodged.

    A move also has ``dest`` (province), ``dest_loc`` (location), ``convoyed``,
    ``h2h`` (the move it meets head to head) and, if convoyed, ``route`` (fleets
    that could carry it); a support has ``target`` (supported province) and
    ``into`` (province supported into; None for a support to hold); a convoy has
    ``target`` (the army's province) and ``into`` (its destination).
    """

    __slots__ = ("power", "unit", "prov", "order", "kind", "outcome", "reason", "supports",
                 "state", "res", "dest", "dest_loc", "convoyed", "route", "h2h", "target", "into")

    def __init__(self, power: str, unit: Unit, prov: str, order: Order):
        self.power = power
        self.unit = unit
        self.prov = prov
        self.order = order
        self.kind = "H"
        self.outcome = SUCCEEDS
        self.reason = None
        self.supports = ()
        self.state = _UNRESOLVED
        self.res = False


class _Refused:
    """A results entry for an order not in force: one naming no unit of its power
    (ILLEGAL), or one a later order for the same unit replaced (VOID, or ILLEGAL
    if it was)."""

    __slots__ = ("power", "order", "outcome", "reason")

    def __init__(self, power: str, order, outcome: str, reason: Reason):
        self.power, self.order, self.outcome, self.reason = power, order, outcome, reason


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


def order_refusal(game_map: Map, position: Position, power: str, order: Order,
                  rules: RuleOptions = DEFAULT_RULES) -> Reason | None:
    """Why ``order`` of ``power`` would be ILLEGAL in a movement phase on
    ``position`` (DATC 4.E.1, 6.A, 6.B.1-6.B.3, 6.D.32: no such unit, another
    power's, the wrong type, an unreachable destination, no fleet to convoy,
    a support of itself, a convoy off the sea), or None — the verdict
    :func:`adjudicate_movement` gives it alone: its checks of the orders taken
    in, decided before any resolution, without resolving the phase (a judge
    checks each order of a mail as it comes: issue 23). Never raises."""
    result = _Movement(game_map, position, {power: [order]}, rules, holds=False).results[0]
    return result.reason if result.outcome == ILLEGAL else None


class _Movement:
    """One adjudication: :meth:`__init__` takes the orders in and checks them,
    :meth:`_match` ties supports and convoys to the orders they name, :meth:`resolve`
    decides, :meth:`_outcome` builds the new position and the results."""

    def __init__(self, game_map: Map, position: Position, orders, rules: RuleOptions, holds: bool = True):
        self.map = game_map
        self.pos = position
        self.rules = rules
        self.tables = t = tables(game_map)
        self.geo = t.geo
        self.lp = t.province
        self.reach = t.reach
        self.recs: dict[str, _Rec] = {}   # province -> record, for every unit
        self.results: list[_Rec | _Refused] = []   # one entry per result, in order
        self.moves: list[_Rec] = []
        self.supps: list[_Rec] = []
        self.convs: list[_Rec] = []
        self.sea_moves: list[_Rec] = []   # moves that are (or may be) convoyed
        self.replaced = False       # some order replaced an earlier one
        self.fleet_seas: frozenset[str] | None = None   # seas holding a fleet, when needed
        self._take_orders(orders, holds)

    # ---- taking orders in ------------------------------------------------------------
    def _take_orders(self, orders: dict[str, list[Order]], holds: bool = True) -> None:
        """Check each order (DATC 4.E.1, 6.A) and file it as a hold, move, support
        or convoy; give each unit left without an order a hold (``holds``: an
        order's check alone, :func:`order_refusal`, needs none)."""
        units, recs, results, moves, lp = self.pos.units, self.recs, self.results, self.moves, self.lp
        move_to = self.tables.moves
        for power, olist in orders.items():
            for order in olist:
                kind = type(order)
                if kind not in _MOVEMENT_ORDERS:
                    results.append(_Refused(power, order, ILLEGAL, wrong_phase(order, "M")))
                    continue
                loc = order.location
                prov = lp.get(loc) or province_of(loc)
                unit = units.get(prov)
                if unit is None or unit.power != power or (order.unit_type and order.unit_type != unit.type):
                    results.append(_Refused(power, order, ILLEGAL, _refusal(power, prov, unit, order.unit_type)))
                    continue
                if prov in recs:
                    self._replace(recs[prov], unit, order)
                    rec = recs[prov]
                else:
                    recs[prov] = rec = _Rec(power, unit, prov, order)
                    results.append(rec)
                if kind is Move:
                    found = move_to[unit.type].get(unit.location, _NO_MOVES).get(order.destination)
                    if found is None or order.via_convoy:
                        self._file_move(rec, order)
                    else:                       # the common case: to an adjacent location, by land
                        rec.kind = "M"
                        rec.dest_loc, rec.dest = found
                        rec.convoyed, rec.h2h = False, None
                        moves.append(rec)
                elif kind is Support:
                    self._file_support(rec, order)
                elif kind is Convoy:
                    self._file_convoy(rec, order)
        if holds and len(recs) < len(units):
            for prov, unit in units.items():
                if prov not in recs:            # no order: the unit holds
                    recs[prov] = rec = _Rec(unit.power, unit, prov, Hold(unit.type, unit.location))
                    rec.reason = NO_ORDER
                    results.append(rec)

    def _replace(self, rec: _Rec, unit: Unit, order: Order) -> None:
        """A later order for the unit replaces the earlier one, which becomes VOID
        (or stays ILLEGAL) where it stands in the results; the record starts afresh
        at the end of the results."""
        results = self.results
        outcome, reason = rec.outcome, rec.reason
        if outcome == SUCCEEDS:
            outcome, reason = VOID, REPLACED
        results[results.index(rec)] = _Refused(rec.power, rec.order, outcome, reason)
        rec.__init__(rec.power, unit, rec.prov, order)
        results.append(rec)
        self.replaced = True

    def _set_illegal(self, rec: _Rec, why: Reason) -> None:
        """The order is ILLEGAL: the unit holds (DATC 4.E.1)."""
        rec.outcome, rec.reason, rec.kind = ILLEGAL, why, "H"

    def _file_move(self, rec: _Rec, order: Move) -> None:
        """A move other than the common case (an adjacent one by land): ``via_convoy``,
        over sea, or illegal (DATC 4.A.3, 6.A.1-6.A.3, 6.B.1-6.B.3, 6.D.32)."""
        u = rec.unit
        key = (u.type, u.location, order.destination)
        memo = self.tables.destinations
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._destination(u, order.destination)
        dest, why = found
        if why:
            return self._set_illegal(rec, why)
        rec.kind, rec.dest_loc, rec.dest = "M", dest, self.lp[dest]
        rec.convoyed, rec.route, rec.h2h = False, _NOWHERE, None
        if u.type == "A":
            adjacent = rec.dest in self.map.army_adj.get(rec.prov, ())
            if not adjacent and not self._sea_linked(rec.prov, rec.dest):
                if not self.geo.route_exists(rec.prov, rec.dest):
                    return self._set_illegal(rec, Reason("cannot_reach", unit=_code(u), destination=rec.dest))
                # no fleets stand where a convoy could go: illegal (DATC 6.D.32)
                return self._set_illegal(rec, Reason("no_convoy_fleets", origin=rec.prov, destination=rec.dest))
            if order.via_convoy and not self.rules.via_convoy_land_fallback \
                    and not self._sea_linked(rec.prov, rec.dest):
                # "A bur - gas via convoy" with no fleet able to carry it: illegal too, the
                # unit holds and may be supported to hold (DATC 6.D.32, 4.E.1-2; MILA agrees)
                return self._set_illegal(rec, Reason("no_convoy_fleets", origin=rec.prov, destination=rec.dest))
            rec.convoyed = order.via_convoy or not adjacent
            if rec.convoyed:
                self.sea_moves.append(rec)
        self.moves.append(rec)

    def _file_support(self, rec: _Rec, order: Support) -> None:
        """A support: the supporter must reach the province supported into, not its
        own (DATC 6.A.5, 6.B.4, 6.D.34), and the supported unit must be able to
        move there (DATC 6.A.5, 6.D.22-6.D.24, 6.D.31)."""
        u, lp = rec.unit, self.lp
        loc = order.supported_location
        tprov = lp.get(loc) or province_of(loc)
        dest = order.destination
        into = (lp.get(dest) or province_of(dest)) if dest else tprov
        if tprov == rec.prov:
            return self._set_illegal(rec, Reason("support_itself"))
        if into == rec.prov or into not in self.reach[u.type].get(u.location, _NOWHERE):
            return self._set_illegal(rec, Reason("cannot_reach", unit=_code(u), destination=into))
        if dest:
            why = self._impossible_move(self.pos.units.get(tprov), tprov, into, rec.prov)
            if why:
                return self._set_illegal(rec, why)
            rec.into = into
        else:
            rec.into = None
        rec.kind, rec.target = "S", tprov
        self.supps.append(rec)

    def _file_convoy(self, rec: _Rec, order: Convoy) -> None:
        """A convoy: a fleet in a sea on some route of the army to a land
        province (DATC 6.F.1, 6.F.12, 6.G.19)."""
        gm, u = self.map, rec.unit
        aprov = self.lp.get(order.army_location) or province_of(order.army_location)
        dprov = self.lp.get(order.destination) or province_of(order.destination)
        army = self.pos.units.get(aprov)
        if u.type != "F" or rec.prov not in self.geo.seas:
            return self._set_illegal(rec, Reason("convoy_not_at_sea"))
        if army is None or army.type != "A" or order.army_type == "F":
            return self._set_illegal(rec, Reason("no_army_to_convoy", province=aprov))
        if dprov not in gm.provinces or not gm.provinces[dprov].is_land or dprov == aprov \
                or not self.geo.on_route(rec.prov, aprov, dprov):
            return self._set_illegal(rec, Reason("not_on_convoy_route", province=rec.prov, origin=aprov,
                                                 destination=dprov))
        rec.kind, rec.target, rec.into = "C", aprov, dprov
        self.convs.append(rec)

    def _impossible_move(self, u: Unit | None, prov: str, into: str, supporter: str) -> Reason | None:
        """Why the unit ``u`` in ``prov`` could not move to ``into`` whatever it was
        ordered (a support of such a move is illegal), or None."""
        if u is None:
            return None                 # no unit there: the support is void, not illegal
        if into == prov:
            return Reason("own_province", province=into)
        if into in self.reach[u.type].get(u.location, _NOWHERE):
            return None
        if u.type == "F":
            return Reason("cannot_reach", unit=_code(u), destination=into)
        gm = self.map
        if into not in gm.provinces or not gm.provinces[into].is_land:
            return Reason("army_cannot_go", province=into)
        fleets = self._fleet_seas()
        if supporter not in fleets:
            if self._sea_linked(prov, into):
                return None
        elif self._static_route(prov, into, fleets - {supporter}):
            return None
        return Reason("support_only_through", origin=prov, destination=into, province=supporter)

    def _destination(self, u: Unit, dest: str) -> tuple[str | None, Reason | None]:
        """The location a move of ``u`` to ``dest`` goes to, or a reason it cannot."""
        gm, lp = self.map, self.lp
        if u.type == "F" and dest in gm.fleet_adj.get(u.location, ()):
            return dest, None
        prov = lp.get(dest) or province_of(dest)
        p = gm.provinces.get(prov)
        if p is None:
            return None, Reason("unknown_location", location=dest)
        if prov == (lp.get(u.location) or province_of(u.location)):
            return None, Reason("own_province", province=prov)
        if u.type == "A":
            if not p.is_land:
                return None, Reason("army_cannot_go", province=prov)
            return prov, None
        if p.coasts:
            reachable = [c for c in gm.coasts_of(prov) if c in gm.fleet_adj.get(u.location, ())]
            if "/" in dest:
                if dest not in reachable:
                    return None, Reason("cannot_reach", unit=_code(u), destination=dest)
                return dest, None
            if len(reachable) == 1:
                return reachable[0], None   # DATC 6.B.2
            if not reachable:
                return None, Reason("cannot_reach", unit=_code(u), destination=prov)
            return None, Reason("coast_needed", province=prov, unit=_code(u), coasts=reachable)
        if prov not in gm.fleet_adj.get(u.location, ()):
            return None, Reason("cannot_reach", unit=_code(u), destination=prov)
        return prov, None

    # ---- seas and fleets -------------------------------------------------------------
    def _fleet_seas(self) -> frozenset[str]:
        """Seas holding a fleet (a unit in a sea is a fleet)."""
        if self.fleet_seas is None:
            self.fleet_seas = frozenset(p for p in self.geo.seas.intersection(self.pos.units)
                                        if self.pos.units[p].type == "F")   # a port may hold an army
        return self.fleet_seas

    def _sea_linked(self, src: str, dst: str) -> bool:
        """Some chain of seas holding fleets links ``src`` to ``dst``: an army could
        be convoyed there if the fleets were so ordered (DATC 6.D.32)."""
        sea_adj = self.geo.sea_adj
        fleets = self._fleet_seas()
        seen = self.geo.shore.get(src, _NOWHERE) & fleets
        todo = list(seen)
        while todo:
            f = todo.pop()
            if dst in sea_adj[f]:
                return True
            more = (sea_adj[f] & fleets) - seen
            seen |= more
            todo += more
        return False

    def _static_route(self, src: str, dst: str, fleets) -> frozenset[str]:
        """Fleets (provinces, of the set ``fleets``) lying on some chain of them
        from ``src`` to ``dst``; empty if there is none."""
        shore = self.geo.shore
        fwd = self._chain(shore.get(src, _NOWHERE), fleets)
        goal = shore.get(dst, _NOWHERE)
        if fwd.isdisjoint(goal):
            return _NOWHERE
        return frozenset(fwd & self._chain(goal, fleets))

    def _chain(self, start: frozenset[str], fleets) -> set[str]:
        """The seas of ``fleets`` reached from the seas ``start`` through one another."""
        sea_adj = self.geo.sea_adj
        seen = set(start & fleets)
        todo = list(seen)
        while todo:
            more = (sea_adj[todo.pop()] & fleets) - seen
            seen |= more
            todo += more
        return seen

    # ---- matching ----------------------------------------------------------------------
    def _match(self) -> None:
        """Match supports and convoys to the orders they name; decide convoy intent
        and static routes; link head-to-head pairs; settle the decisions no other
        decision can change:

        - a move by land into an empty province no other move enters succeeds;
        - a move by land with no support has attack strength 1 at most: it fails
          against a unit that stays (hold strength 1 or more) and against another
          move by land into the same empty province (prevent strength 1 or more);
        - a support not attacked stands; one attacked by another power's move by
          land from elsewhere than where it supports into is cut (DATC 6.D.1-6.D.3);
        - a convoying fleet nobody attacks is not dislodged.
        """
        recs = self.recs
        if self.replaced:               # a replaced order may have left its record twice
            self.moves = list(dict.fromkeys(self.moves))
            self.supps = list(dict.fromkeys(self.supps))
            self.convs = list(dict.fromkeys(self.convs))
        void_moves = self._match_convoys() if self.convs or self.sea_moves else ()
        moves = self.moves
        if self.replaced:
            moves = self.moves = [r for r in moves if r.kind == "M" and r.outcome == SUCCEEDS]
        self.moves_into = moves_into = {}
        for rec in moves:
            if rec.dest in moves_into:
                moves_into[rec.dest].append(rec)
            else:
                moves_into[rec.dest] = [rec]
        for rec in self.supps:
            if rec.kind == "S":
                self._match_support(rec, moves_into.get(rec.prov))
        for rec in void_moves:
            rec.kind = "H"              # a void move holds from here on
        for rec in self.convs:
            if rec.kind == "C" and rec.prov not in moves_into:
                rec.state, rec.res = _RESOLVED, True        # nobody attacks the fleet
        for rec in moves:
            if rec.convoyed:
                continue
            other = recs.get(rec.dest)
            if other is None:
                rivals = moves_into[rec.dest]
                if len(rivals) == 1:
                    rec.state, rec.res = _RESOLVED, True    # into an empty province, unopposed
                elif not rec.supports:
                    for rival in rivals:
                        if rival is not rec and not rival.convoyed:
                            rec.state, rec.res = _RESOLVED, False   # a standoff it cannot win
                            break
            elif other.kind != "M":
                if not rec.supports:
                    rec.state, rec.res = _RESOLVED, False   # it cannot dislodge a unit that stays
            elif other.dest == rec.prov and not other.convoyed:
                rec.h2h = other

    def _match_convoys(self) -> list[_Rec]:
        """Void convoys of armies not ordered along them; decide which army moves
        go by sea (DATC 4.A.3, 6.G) and the fleets that could carry each. Returns
        the army moves found VOID."""
        recs = self.recs
        convoys_for: dict[tuple[str, str], list[_Rec]] = {}
        for rec in self.convs:
            if rec.kind == "C":
                army = recs[rec.target]
                if army.kind == "M" and army.dest == rec.into:
                    convoys_for.setdefault((rec.target, rec.into), []).append(rec)
                else:
                    self._void(rec, Reason("convoy_not_matched", province=rec.target, destination=rec.into))
        concerned = self.sea_moves + [recs[army] for army, _ in convoys_for]
        void_moves = []
        for rec in dict.fromkeys(concerned):
            if rec.kind != "M" or rec.outcome != SUCCEEDS:
                continue                # replaced by a later order
            fleets = convoys_for.get((rec.prov, rec.dest), ())
            if not rec.convoyed and any(f.power == rec.power for f in fleets):
                rec.convoyed = True     # intent shown by an own fleet (DATC 6.G.1, 6.G.6)
            if not rec.convoyed:
                continue
            route = fleets and self._static_route(rec.prov, rec.dest, {f.prov for f in fleets})
            if route:
                rec.route = route
                continue
            adjacent = rec.dest in self.map.army_adj.get(rec.prov, ())
            if adjacent and (not rec.order.via_convoy or self.rules.via_convoy_land_fallback):
                rec.convoyed = False    # own fleets cannot complete a route: go by land
            else:
                self._void(rec, Reason("no_convoy_ordered", origin=rec.prov, destination=rec.dest))
                void_moves.append(rec)
                if not self.replaced:
                    self.moves.remove(rec)      # (after a replacement _match filters them)
        return void_moves

    def _match_support(self, rec: _Rec, attackers: list[_Rec] | None) -> None:
        """Void a support that does not match the supported unit's order (DATC
        6.D.27: it then acts as a hold); else give it to that unit, and settle it
        now if it is not attacked or is cut for sure (see :meth:`_match`)."""
        sup = self.recs.get(rec.target)
        order: Support = rec.order
        if sup is None:
            return self._void(rec, Reason("supported_no_unit", province=rec.target))
        if order.supported_type and order.supported_type != sup.unit.type:
            return self._void(rec, Reason("supported_wrong_type", province=rec.target, written=order.supported_type))
        into = rec.into
        if into is None:
            if sup.kind == "M":         # a void move too: it was ordered to move
                return self._void(rec, Reason("supported_moves", province=rec.target))
            into = rec.target
        else:
            if sup.kind != "M" or sup.outcome != SUCCEEDS or sup.dest != into:
                return self._void(rec, Reason("support_not_matched", province=rec.target, destination=into))
            dloc = order.destination
            if "/" in dloc and sup.unit.type == "F" and dloc != sup.dest_loc:
                return self._void(rec, Reason("support_other_coast", province=rec.target, location=sup.dest_loc,
                                              written=dloc))
        sup.supports += (rec,)
        if not attackers:
            rec.state, rec.res = _RESOLVED, True
            return
        power = rec.power
        for m in attackers:
            if m.power != power and m.prov != into and not m.convoyed:
                rec.state, rec.res = _RESOLVED, False
                return

    def _void(self, rec: _Rec, why: Reason) -> None:
        """The order is VOID: it does not match the order it names."""
        rec.outcome, rec.reason = VOID, why
        if rec.kind != "M":
            rec.kind = "H"   # acts as a hold (DATC 6.D.27: it can be supported)

    # ---- resolution ----------------------------------------------------------------
    def run(self) -> MovementOutcome:
        """Match, decide every open decision (moves, then supports, then convoys),
        and build the outcome."""
        self._match()
        self.deps: list[_Rec] = []
        resolve = self.resolve
        for rec in self.moves:
            if rec.state != _RESOLVED:
                resolve(rec)
        for rec in self.supps:
            if rec.kind == "S" and rec.state != _RESOLVED:
                resolve(rec)
        for rec in self.convs:
            if rec.kind == "C" and rec.state != _RESOLVED:
                resolve(rec)
        return self._outcome()

    def resolve(self, rec: _Rec) -> bool:
        """Kruijswijk's resolve: the decision of ``rec``, guessing both ways when it
        depends on itself."""
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
        first = _DECIDE[rec.kind](self, rec)
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
        second = _DECIDE[rec.kind](self, rec)
        if first == second:
            for r in deps[old:]:
                r.state = _UNRESOLVED
            del deps[old:]
            rec.res, rec.state = first, _RESOLVED
            return first
        self._backup(old)
        return self.resolve(rec)

    def _backup(self, old: int) -> None:
        """Settle a cycle of decisions that both guesses satisfy (``deps[old:]``)."""
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

    def _path(self, rec: _Rec) -> bool:
        """A move has a path: it goes by land, or a chain of fleets not dislodged
        carries it."""
        if not rec.convoyed:
            return True
        geo, route = self.geo, rec.route
        goal = geo.shore.get(rec.dest, _NOWHERE)
        todo = [f for f in route if f in geo.shore.get(rec.prov, _NOWHERE)]
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
        """Supports given to ``rec`` that are not cut, not counting those of
        ``exclude_power`` (DATC 6.D.28: no help to dislodge one's own unit)."""
        n = 0
        for s in rec.supports:
            if s.power != exclude_power and (s.res if s.state == _RESOLVED else self.resolve(s)):
                n += 1
        return n

    def _prevent(self, rec: _Rec) -> int:
        """Prevent strength: what a move opposes to others into its destination."""
        if rec.convoyed and not self._path(rec):
            return 0
        if rec.h2h is not None and self.resolve(rec.h2h):
            return 0
        return 1 + self._given(rec)

    def _move(self, rec: _Rec) -> bool:
        """The move succeeds: its attack strength beats the hold strength of the
        destination (or, head to head, the defend strength of the unit there) and
        the prevent strength of every other move into it."""
        # attack strength: none without a path, or against a unit of its own power
        # that stays; supports of the defender's power do not count (DATC 6.D.28)
        if rec.convoyed and not self._path(rec):
            return False
        d = self.recs.get(rec.dest)
        if d is None or (rec.h2h is None and d.kind == "M" and self.resolve(d)):
            attack = 1 + self._given(rec) if rec.supports else 1
        elif d.power == rec.power:
            return False
        else:
            attack = 1 + self._given(rec, d.power) if rec.supports else 1
        if rec.h2h is not None:             # defend strength
            if attack <= 1 + self._given(rec.h2h):
                return False
        elif d is not None:                 # hold strength: 0 if the unit there moves away
            if d.kind == "M":
                if not self.resolve(d) and attack <= 1:
                    return False
            elif attack <= (1 + self._given(d) if d.supports else 1):
                return False
        rivals = self.moves_into[rec.dest]
        if len(rivals) > 1:
            for other in rivals:
                if other is not rec and attack <= self._prevent(other):
                    return False
        return True

    def _support(self, rec: _Rec) -> bool:
        """The support is not cut: no unit of another power attacks the supporter
        (with a path) from elsewhere than where the support goes, and the unit
        there does not dislodge it (DATC 6.D)."""
        into = rec.into or rec.target
        attackers = self.moves_into.get(rec.prov, ())
        for m in attackers:
            if m.power == rec.power or m.prov == into:
                continue
            if self._path(m):
                return False
        for m in attackers:
            if m.power != rec.power and m.prov == into and self.resolve(m):
                return False
        return True

    def _convoy(self, rec: _Rec) -> bool:
        """The convoying fleet is not dislodged."""
        for m in self.moves_into.get(rec.prov, ()):
            if self.resolve(m):
                return False
        return True

    # ---- the outcome ---------------------------------------------------------------
    def _outcome(self) -> MovementOutcome:
        """The board after the phase and one :class:`Result` per results entry. A
        decision that went against a move makes it BOUNCED, or DISRUPTED when no
        convoy got it there; against a support CUT; against a convoy DISRUPTED."""
        recs, lp = self.recs, self.lp
        units = dict(self.pos.units)
        winners: dict[str, _Rec] = {}
        contested = set()
        for r in self.moves:
            if r.res:
                del units[r.prov]
                winners[r.dest] = r
            elif r.convoyed and not self._path(r):
                r.outcome, r.reason = FAILS, DISRUPTED
            else:
                r.outcome, r.reason = FAILS, BOUNCED
                if r.h2h is None or not r.h2h.res:
                    contested.add(r.dest)   # a standoff; losing a head-to-head is not one (DATC 6.H.9)
        for r in self.supps:
            if not r.res and r.kind == "S":
                r.outcome, r.reason = FAILS, CUT
        for r in self.convs:
            if not r.res and r.kind == "C":
                r.outcome, r.reason = FAILS, DISRUPTED
        beaten: list[tuple[_Rec, _Rec]] = []     # (unit dislodged, the move that did it)
        for dest, r in winners.items():
            units[dest] = _new_tuple(Unit, (r.power, r.unit.type, r.dest_loc))
            loser = recs.get(dest)
            if loser is not None and not (loser.kind == "M" and loser.res):
                beaten.append((loser, r))
        if contested:
            contested.difference_update(units)
        dislodged: dict[str, DislodgedUnit] = {}
        for r, attacker in beaten:
            p = r.prov
            origin = None if attacker.convoyed else attacker.prov
            u = r.unit
            adj = self.map.army_adj.get(p, ()) if u.type == "A" else self.map.fleet_adj.get(u.location, ())
            opts = tuple(sorted(loc for loc in adj if lp[loc] not in units and lp[loc] != origin
                                and lp[loc] not in contested))
            if opts:
                dislodged[p] = _new_tuple(DislodgedUnit, (u, origin, opts))
        new, results = _new_tuple, self.results
        out = [new(Result, (r.power, r.order, r.outcome, r.reason, False, False)) for r in results]
        for r, _ in beaten:             # dislodged; destroyed if it has no retreat
            out[results.index(r)] = new(Result, (r.power, r.order, r.outcome, r.reason, True,
                                                 r.prov not in dislodged))
        ph = self.pos.phase
        next_phase = ph[:-1] + "R" if ph.endswith("M") else ph
        newpos = Position(next_phase, units, dict(self.pos.sc_owners), dislodged)
        return MovementOutcome(newpos, out, frozenset(contested))


# the decision of a record, by its kind (a void or illegal order, "H", has none)
_DECIDE = {"M": _Movement._move, "S": _Movement._support, "C": _Movement._convoy}


def _code(u: Unit) -> str:
    return unit_code(u.type, u.location)


def _refusal(power: str, prov: str, unit: Unit | None, written: str | None = None) -> Reason:
    """Why an order of ``power`` for the unit in ``prov`` (``unit``, or None there)
    is ILLEGAL: no unit, another power's, or not the type ``written`` (DATC 4.E.1)."""
    if unit is None:
        return Reason("no_unit", province=prov)
    if unit.power != power:
        return Reason("not_your_unit", province=prov, power=unit.power)
    return Reason("wrong_unit_type", province=prov, written=written or ("F" if unit.type == "A" else "A"),
                  actual=unit.type)
