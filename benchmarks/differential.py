"""Differential test: our adjudicator against MILA's ``diplomacy`` engine on random games.

Plays seeded random games on the standard map, or (``--variant NAME|all``) on
each variant MILA's engine also ships (:data:`VARIANTS`), from the map's start
phase (orders drawn from
:func:`judge.rules.legal.possible_orders` with the order mix of
``benchmarks/adjudicate.py``: moves, holds, supports and convoys of orders actually
given; retreats; builds, waives and too few removals, leaving the rest to civil
disorder). Our engine drives the game. Before every phase MILA's board is set to
ours (units, dislodged units with our retreat options, SC owners, phase), both
engines adjudicate the same orders, and the results are compared:

- movement: units, dislodged units and their retreat options (a unit with no
  retreat is destroyed by both);
- retreat and adjustment: units;
- after Fall (when the next phase is the Winter adjustments): SC owners, with
  MILA capturing them from our board;
- any order of ours that MILA rejects when it is given ("rejected").

MILA's engine (PyPI ``diplomacy`` 1.1.2, AGPL-3.0) is used only as an installed
tool, ``pip install diplomacy``; it is not a dependency of the project. Province
codes are the same in both (upper case in MILA, coasts ``STP/NC``).

Known differences. A differing phase is re-adjudicated by our engine with each
combination of the behaviours below that applies to its orders; a combination
that gives MILA's board exactly names the phase's class. ``--ignore NAME``
(repeatable; ``rules``, ``mila`` or ``all`` for the groups) counts such phases as
ignored instead of as differences, so the rest ("unexplained") stays meaningful.

(a) rule choices: MILA follows older rulebooks or DATC preferences.

``via``
    An army ordered ``via convoy`` to an adjacent province with no convoy
    ordered moves over land in MILA (DATC v2.4 6.G.8); DATC v3.2 6.G.8 makes the
    order void (``RuleOptions.via_convoy_land_fallback``, README §6 of
    shared/datc/v3.2). Common: the order mix gives such moves often.
``cd``
    Civil disorder removals. MILA removes the units farthest from the power's
    *home* centres, fleets counted over fleet moves, fleets first at equal
    distance. DATC v3.2 6.J (6.J.3, 6.J.6, 6.J.11, 6.J.12) counts to *owned*
    centres, a fleet's last step may be onto land. Marked when only the units of
    powers in civil disorder differ and each power loses as many.
``convoy``
    MILA rejects a convoy order when no chain of fleets now on the board links
    the army to the destination ("IMPOSSIBLE CONVOY ORDER"), likewise an army's
    move that needs such a chain ("UNIT CANNOT MOVE VIA CONVOY INTO
    DESTINATION", seen on Ancient Mediterranean) and a support of that move;
    ``judge.rules.legal`` accepts a fleet in any sea on a route, and the move. Marked only when our result is the
    same without those orders: a legality choice with no effect on the board (the
    fleet holds either way, DATC 4.E.1).

(b) MILA bugs, our result being the DATC v3.2 one (minimal positions for each
were run through both engines):

``mila-retreats``
    When the attacker came by convoy MILA lists every adjacent province as a
    retreat, occupied or left empty by a standoff (a precedence slip in its
    retreat test); only the attacker's origin is allowed (4.A.5, 6.H.11). It then
    refuses occupied ones at retreat time but accepts a standoff province
    (against 6.H.6). Seen in 6.F.21 and 6.G.10. Marked when MILA's list less the
    occupied and contested provinces is ours.
``mila-via-support``
    A power's support for a foreign army moving ``via convoy`` into the power's
    own unit counts toward dislodging it (6.D.12 forbids it).
``mila-h2h-support``
    In a head-to-head battle MILA leaves out of a move's defend strength the
    supports that the other unit's own power gives it; defend strength counts
    every support (DATC 5.B; a support against one's own unit still has an
    effect, 6.E.12).
``mila-convoy-support``
    MILA disrupts a convoy when the fleet is attacked by a move that is strong
    enough only with the support of the fleet's own power, so the fleet is not
    dislodged (6.D.12) yet the army does not move; a convoy fails only when the
    fleet is dislodged (6.F.1-6.F.5). The army it carried stays where it is,
    even when ordered ``via convoy`` into an adjacent province (seen on Fleet
    Rome: MILA moves such an army over land only when no convoy is ordered).

Usage::

    python benchmarks/differential.py [--variant standard|fva|...|all] [--seed 1]
        [--games 10] [--years 10] [--ignore all] [--show 3] [--rules datc] [--dump diffs.json]

Requires ``pip install diplomacy``. Prints the counts, the first ``--show``
differences in full and the median time per movement phase of each engine
(ours: ``adjudicate_movement``; MILA: ``set_orders`` for all powers +
``process()``, and ``process()`` alone). Exit status 0 whatever the counts.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from judge.maps import load_map
from judge.rules import (PROFILES, Position, adjudicate_adjustments, adjudicate_movement,
                         adjudicate_retreats, update_ownership)
from judge.rules.adjustments import adjustment_counts
from judge.rules.map import province_of
from judge.rules.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.rules.phase import Phase

try:
    from diplomacy import Game
except ImportError:                      # pragma: no cover - a tool, not a dependency
    sys.exit("MILA's engine is missing: pip install diplomacy")


def _load_order_mix():
    """The random order mix of ``benchmarks/adjudicate.py`` (one source for both scripts)."""
    path = Path(__file__).with_name("adjudicate.py")
    spec = importlib.util.spec_from_file_location("_bench_adjudicate", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MIX = _load_order_mix()
RULE_CHOICES = ("via", "cd", "convoy")
MILA_BUGS = ("mila-retreats", "mila-via-support", "mila-h2h-support", "mila-convoy-support")
GROUPS = {"rules": RULE_CHOICES, "mila": MILA_BUGS, "all": RULE_CHOICES + MILA_BUGS}


# ---- our orders and positions in MILA's notation -------------------------------------

def mila_loc(loc: str) -> str:
    return loc.upper()


def mila_order(order) -> str:
    """``Move("A", "lon", "bel", via_convoy=True)`` -> ``"A LON - BEL VIA"``."""
    if isinstance(order, Hold):
        return f"{order.unit_type} {mila_loc(order.location)} H"
    if isinstance(order, Move):
        via = " VIA" if order.via_convoy else ""
        return f"{order.unit_type} {mila_loc(order.location)} - {mila_loc(order.destination)}{via}"
    if isinstance(order, Support):
        head = (f"{order.unit_type} {mila_loc(order.location)} S "
                f"{order.supported_type} {mila_loc(order.supported_location)}")
        return head if order.destination is None else f"{head} - {mila_loc(order.destination)}"
    if isinstance(order, Convoy):
        return (f"F {mila_loc(order.location)} C A {mila_loc(order.army_location)} - "
                f"{mila_loc(order.destination)}")
    if isinstance(order, Retreat):
        return f"{order.unit_type} {mila_loc(order.location)} R {mila_loc(order.destination)}"
    if isinstance(order, Disband):
        return f"{order.unit_type} {mila_loc(order.location)} D"
    if isinstance(order, Build):
        return f"{order.unit_type} {mila_loc(order.location)} B"
    if isinstance(order, Waive):
        return "WAIVE"
    raise TypeError(f"no MILA notation for {order!r}")


def mila_phase(phase: str) -> str:
    """Our phase name in MILA's: the year in four digits (``S1M`` -> ``S0001M``)."""
    p = Phase.parse(phase)
    return f"{p.season}{p.year:04d}{p.kind}"


def mila_game(pos: Position, map_name: str = "standard") -> "Game":
    """A fresh MILA game on its map ``map_name`` set to ``pos``: phase, units, SC
    owners; in a retreat phase the dislodged units with *our* retreat options
    (compared at the movement phase)."""
    game = Game(map_name=map_name)
    game.set_current_phase(mila_phase(pos.phase))
    for power in game.powers:
        units = [f"{u.type} {mila_loc(u.location)}" for u in pos.units.values() if u.power.upper() == power]
        units += [f"*{d.unit.type} {mila_loc(d.unit.location)}" for d in pos.dislodged.values()
                  if d.unit.power.upper() == power]
        game.set_units(power, units, reset=True)
        game.set_centers(power, [sc.upper() for sc, o in pos.sc_owners.items() if o.upper() == power],
                         reset=True)
    for d in pos.dislodged.values():
        game.get_power(d.unit.power.upper()).retreats[f"{d.unit.type} {mila_loc(d.unit.location)}"] = \
            [mila_loc(r) for r in d.retreats]
    return game


# ---- comparable states: sorted tuples of strings --------------------------------------

def our_state(pos: Position) -> dict:
    return {
        "units": sorted(f"{u.power.upper()} {u.type} {mila_loc(u.location)}" for u in pos.units.values()),
        "dislodged": sorted(f"{d.unit.power.upper()} {d.unit.type} {mila_loc(d.unit.location)} -> "
                            + ",".join(sorted(mila_loc(r) for r in d.retreats))
                            for d in pos.dislodged.values()),
        "centres": sorted(f"{o.upper()} {sc.upper()}" for sc, o in pos.sc_owners.items()),
    }


def their_state(game: "Game") -> dict:
    units, dislodged, centres = [], [], []
    for name, power in game.powers.items():
        units += [f"{name} {u}" for u in power.units]
        dislodged += [f"{name} {u} -> " + ",".join(sorted(set(r))) for u, r in power.retreats.items() if r]
        centres += [f"{name} {c}" for c in power.centers]
    return {"units": sorted(units), "dislodged": sorted(dislodged), "centres": sorted(centres)}


def describe(pos: Position) -> list[str]:
    """The board as lines ``Power: F lon, A par``; dislodged units and owners when relevant."""
    lines = []
    for power in sorted({u.power for u in pos.units.values()} | {d.unit.power for d in pos.dislodged.values()}):
        us = sorted(str(u) for u in pos.units.values() if u.power == power)
        ds = [f"*{d.unit} (retreats {','.join(d.retreats) or '-'}, attacker from {d.attacker_origin or 'convoy'})"
              for d in pos.dislodged.values() if d.unit.power == power]
        lines.append(f"  {power}: " + ", ".join(us + ds))
    if pos.phase.startswith("W"):
        by: dict[str, list[str]] = {}
        for sc, o in sorted(pos.sc_owners.items()):
            by.setdefault(o, []).append(sc)
        lines.append("  SC owners: " + "; ".join(f"{o} {' '.join(s)}" for o, s in sorted(by.items())))
    return lines


def _same(state: dict) -> dict:
    return state


def _trim_retreats(dislodged: list[str], barred: set[str]) -> list[str]:
    """MILA's dislodged lines less the retreats into ``barred`` provinces (a unit
    left with none is destroyed)."""
    out = []
    for line in dislodged:
        unit, opts = line.split(" -> ")
        keep = [o for o in opts.split(",") if o[:3] not in barred]
        if keep:
            out.append(f"{unit} -> {','.join(keep)}")
    return out


CONVOY_REFUSALS = ("IMPOSSIBLE CONVOY ORDER", "UNIT CANNOT MOVE VIA CONVOY INTO DESTINATION")
"""MILA's refusals of a convoy (or of a move needing one) that no chain of fleets
now on the board could carry out."""


def _convoy_refusals(errors: list[str]) -> bool:
    """True if every MILA refusal is a convoy refusal (:data:`CONVOY_REFUSALS`) or a
    support of a move MILA refused so ("SUPPORTED UNIT CANNOT REACH DESTINATION"
    for ``A TAR S A COR - SAG`` when ``A COR - SAG`` was refused)."""
    moves = {e.split(": ", 1)[1] for e in errors if e.startswith(CONVOY_REFUSALS[1])}
    for e in errors:
        if e.startswith(CONVOY_REFUSALS):
            continue
        if e.startswith("SUPPORTED UNIT CANNOT REACH DESTINATION: ") and " S " in e:
            if e.split(" S ", 1)[1] in moves:
                continue
        return False
    return True


# ---- one phase through both engines ----------------------------------------------------

class Differ:
    """Plays the games; ``phases`` counts the phases compared by kind, ``diffs``
    holds one dict per differing phase, ``times`` the movement timings (ms)."""

    def __init__(self, game_map, rules, ignore: set[str], mila_map: str = "standard"):
        self.map = game_map
        self.mila_map = mila_map
        self.rules = rules
        self.ignore = ignore
        self.times = {"ours": [], "mila": [], "mila_process": []}
        self.phases = {"M": 0, "R": 0, "A": 0, "SC": 0}
        self.diffs: list[dict] = []

    def run_mila(self, pos: Position, orders: dict, timed: bool = False) -> tuple["Game", list[str]]:
        """MILA's game after adjudicating ``orders`` from ``pos``, and the orders it rejected."""
        game = mila_game(pos, self.mila_map)
        t0 = time.perf_counter_ns()
        for power, olist in orders.items():
            game.set_orders(power.upper(), [mila_order(o) for o in olist])
        errors = [str(e) for e in game.error]
        game.error = []
        t1 = time.perf_counter_ns()
        game.process()
        t2 = time.perf_counter_ns()
        if timed:
            self.times["mila"].append((t2 - t0) / 1e6)
            self.times["mila_process"].append((t2 - t1) / 1e6)
        return game, errors

    def compare(self, seed, kind, pos, orders, ours: dict, game, errors, keys) -> None:
        theirs = their_state(game)
        differing = [k for k in keys if ours[k] != theirs[k]]
        if errors:
            differing.append("rejected")
        if not differing:
            return
        tags = self.classify(kind, pos, orders, ours, theirs, keys, errors)
        self.diffs.append({
            "seed": seed, "phase": pos.phase, "kind": kind, "class": "+".join(tags or ["unexplained"]),
            "ignored": bool(tags) and set(tags) <= self.ignore,
            "fields": differing, "position": describe(pos),
            "orders": {p: [mila_order(o) for o in ol] for p, ol in sorted(orders.items())},
            "mila_errors": errors,
            "ours": {k: sorted(set(ours[k]) - set(theirs[k])) for k in keys},
            "mila": {k: sorted(set(theirs[k]) - set(ours[k])) for k in keys},
        })

    def classify(self, kind, pos, orders, ours, theirs, keys, errors) -> list[str] | None:
        """The known differences (see the module docstring) that together explain
        the whole difference, or None."""
        tags = []
        if errors:
            if kind != "M" or not _convoy_refusals(errors):
                return None
            rejected = {e.split(": ", 1)[1] for e in errors}
            orders = {p: [o for o in ol if mila_order(o) not in rejected] for p, ol in orders.items()}
            if our_state(adjudicate_movement(self.map, pos, orders, self.rules).position) != ours:
                return None
            tags.append("convoy")
        if all(ours[k] == theirs[k] for k in keys):
            return tags
        if kind == "M":
            more = self.classify_movement(pos, orders, theirs)
            return None if more is None else tags + more
        if kind == "A" and keys == ("units",):
            changed = {u.split()[0] for u in set(ours["units"]) ^ set(theirs["units"])}
            counts = adjustment_counts(pos, self.map.powers)
            short = {p.upper() for p, n in counts.items() if n < 0 and len(orders.get(p, ())) < -n}
            left = {p: sum(1 for u in ours["units"] if u.startswith(p + " ")) for p in changed}
            if changed <= short and all(sum(1 for u in theirs["units"] if u.startswith(p + " ")) == n
                                        for p, n in left.items()):
                return tags + ["cd"]
        return None

    def classify_movement(self, pos, orders, theirs) -> list[str] | None:
        """Re-adjudicate with every combination of the known MILA behaviours that
        apply to these orders; the first combination giving MILA's board names them."""
        occupied = {u.split()[2][:3] for u in theirs["units"]}
        variants = [v for v in (self._via(orders), self._via_support(pos, orders),
                                self._h2h_support(pos, orders), self._convoy_support(pos, orders)) if v]
        for n in range(len(variants) + 1):
            for combo in itertools.combinations(variants, n):
                rules, p, o, fixes = self.rules, pos, orders, []
                for _tag, change in combo:
                    rules, p, o, fix = change(rules, p, o)
                    fixes.append(fix)
                out = adjudicate_movement(self.map, p, o, rules)
                st = our_state(out.position)
                for fix in fixes:
                    st = fix(st)
                if st["units"] != theirs["units"]:
                    continue
                tags = [t for t, _ in combo]
                if st["dislodged"] == theirs["dislodged"]:
                    return tags
                barred = occupied | {c.upper() for c in out.contested}
                if st["dislodged"] == _trim_retreats(theirs["dislodged"], barred):
                    return tags + ["mila-retreats"]
        return None

    def _via(self, orders):
        """6.G.8: an explicit via convoy with no convoy ordered falls back to land."""
        if self.rules.via_convoy_land_fallback or not any(
                isinstance(o, Move) and o.via_convoy for ol in orders.values() for o in ol):
            return None
        return "via", lambda r, p, o: (replace(r, via_convoy_land_fallback=True), p, o, _same)

    @staticmethod
    def _via_support(pos, orders):
        """MILA counts a power's support for a foreign army moving *via convoy* into
        the power's own unit toward dislodging it (DATC 6.D.12 forbids it): the
        supporter is given to the supported power."""
        moves = {province_of(o.location): (pw, o) for pw, ol in orders.items() for o in ol
                 if isinstance(o, Move) and o.via_convoy}
        found = []
        for pw, ol in orders.items():
            for o in ol:
                if isinstance(o, Support) and o.destination and province_of(o.supported_location) in moves:
                    mpw, m = moves[province_of(o.supported_location)]
                    target = pos.units.get(o.destination)
                    if mpw != pw and target is not None and target.power == pw \
                            and province_of(m.destination) == o.destination:
                        found.append((pw, o, mpw))
        if not found:
            return None

        def change(rules, p, o):
            units, new = dict(p.units), {k: list(v) for k, v in o.items()}
            back = {}
            for pw, sup, mpw in found:
                prov = province_of(sup.location)
                units[prov] = units[prov]._replace(power=mpw)
                new[pw].remove(sup)
                new.setdefault(mpw, []).append(sup)
                back[f"{mpw.upper()} {sup.unit_type} {mila_loc(sup.location)}"] = \
                    f"{pw.upper()} {sup.unit_type} {mila_loc(sup.location)}"

            def fix(st):     # the supporter (it does not move) back to its own power
                return {k: sorted(next((back[b] + v[len(b):] for b in back if v.startswith(b)), v) for v in vals)
                        for k, vals in st.items()}
            return rules, replace(p, units=units), new, fix
        return "mila-via-support", change

    @staticmethod
    def _h2h_support(pos, orders):
        """MILA leaves out of a head-to-head battle the supports that the other
        unit's own power gives to the move against it; DATC defend strength counts
        every support (5.B; 6.E.12: such a support still has an effect)."""
        moves = {province_of(o.location): o for ol in orders.values() for o in ol if isinstance(o, Move)}
        found = []
        for pw, ol in orders.items():
            for o in ol:
                if not (isinstance(o, Support) and o.destination):
                    continue
                src = province_of(o.supported_location)
                back = moves.get(o.destination)
                target = pos.units.get(o.destination)
                if src in moves and back is not None and province_of(back.destination) == src \
                        and target is not None and target.power == pw and pos.units[src].power != pw:
                    found.append((pw, o))
        if not found:
            return None

        def change(rules, p, o):
            new = {k: list(v) for k, v in o.items()}
            for pw, sup in found:
                new[pw].remove(sup)
            return rules, p, new, _same
        return "mila-h2h-support", change

    @staticmethod
    def _convoy_support(pos, orders):
        """MILA disrupts a convoy when the fleet is attacked by a move that would be
        strong enough only with the support of the fleet's own power, which cannot
        dislodge it (DATC 6.D.12); the fleet stays, yet the army does not move. A
        convoy is disrupted only when the fleet is dislodged (DATC 4.A.1, 6.F.1-6.F.5):
        the convoy order becomes a hold."""
        fleets = {province_of(o.location): (pw, o) for pw, ol in orders.items() for o in ol
                  if isinstance(o, Convoy)}
        found = set()
        for pw, ol in orders.items():
            for o in ol:
                if isinstance(o, Support) and o.destination in fleets and fleets[o.destination][0] == pw \
                        and pos.units[province_of(o.supported_location)].power != pw:
                    found.add(fleets[o.destination])
        if not found:
            return None

        def change(rules, p, o):
            new = {k: list(v) for k, v in o.items()}
            for pw, conv in found:
                new[pw].remove(conv)
                # the army it carried does not move, even over land (MILA keeps a
                # convoyed army whose convoy failed in place)
                for apw, ol in new.items():
                    for k, m in enumerate(ol):
                        if isinstance(m, Move) and m.location == conv.army_location \
                                and m.destination == conv.destination:
                            ol[k] = Hold(m.unit_type, m.location)
            return rules, p, new, _same
        return "mila-convoy-support", change

    # the phases -------------------------------------------------------------------------
    def movement(self, seed, pos, orders) -> Position:
        t = time.perf_counter_ns()
        out = adjudicate_movement(self.map, pos, orders, self.rules)
        self.times["ours"].append((time.perf_counter_ns() - t) / 1e6)
        game, errors = self.run_mila(pos, orders, timed=True)
        self.phases["M"] += 1
        self.compare(seed, "M", pos, orders, our_state(out.position), game, errors, ("units", "dislodged"))
        nxt = out.position
        if not nxt.dislodged:
            nxt = replace(nxt, phase=str(Phase.parse(nxt.phase).next_in_year()))
            if nxt.phase.startswith("W"):
                nxt = self.ownership(seed, nxt)
        return nxt

    def retreats(self, seed, pos, orders) -> Position:
        nxt = adjudicate_retreats(self.map, pos, orders).position
        game, errors = self.run_mila(pos, orders)
        self.phases["R"] += 1
        self.compare(seed, "R", pos, orders, our_state(nxt), game, errors, ("units",))
        if nxt.phase.startswith("W"):
            nxt = self.ownership(seed, nxt)
        return nxt

    def ownership(self, seed, nxt: Position) -> Position:
        """SC owners after Fall: MILA captures them on entering the adjustment phase,
        here from our board after Fall (a retreat phase with nothing to retreat)."""
        self.phases["SC"] += 1
        after = update_ownership(self.map, nxt)
        game, errors = self.run_mila(replace(nxt, phase=f"F{Phase.parse(nxt.phase).year}R"), {})
        self.compare(seed, "SC", nxt, {}, our_state(after), game, errors, ("centres",))
        return after

    def adjustments(self, seed, pos, orders) -> Position:
        nxt = adjudicate_adjustments(self.map, pos, orders, self.rules).position
        game, errors = self.run_mila(pos, orders)
        self.phases["A"] += 1
        self.compare(seed, "A", pos, orders, our_state(nxt), game, errors, ("units",))
        return nxt

    def play(self, seed: int, years: int) -> None:
        rng = random.Random(seed)
        pos = Position.start(self.map)
        last = Phase.parse(pos.phase).year + years - 1
        while Phase.parse(pos.phase).year <= last:
            kind = Phase.parse(pos.phase).kind
            if kind == "M":
                pos = self.movement(seed, pos, MIX.movement_orders(rng, self.map, pos))
            elif kind == "R":
                pos = self.retreats(seed, pos, MIX.retreat_orders(rng, self.map, pos))
            else:
                pos = self.adjustments(seed, pos, MIX.adjustment_orders(rng, self.map, pos))


# ---- report ----------------------------------------------------------------------------

KIND_NAMES = {"M": "movement", "R": "retreat", "A": "adjustment", "SC": "SC ownership"}


def print_diff(i: int, d: dict) -> None:
    print(f"\n--- difference {i}: game seed {d['seed']}, {d['phase']} ({KIND_NAMES[d['kind']]}; "
          f"{', '.join(d['fields'])} differ; class {d['class']})")
    print("position:")
    print("\n".join(d["position"]))
    print("orders:")
    for power, ol in d["orders"].items():
        print(f"  {power}: " + "; ".join(ol))
    if d["mila_errors"]:
        print("MILA rejected: " + "; ".join(d["mila_errors"]))
    for who in ("ours", "mila"):
        shown = {k: v for k, v in d[who].items() if v}
        print(f"only in {'our' if who == 'ours' else 'MILA'} result: " +
              ("; ".join(f"{k}: {', '.join(v)}" for k, v in shown.items()) or "-"))


def tally(diffs: list[dict], key: str) -> str:
    counts: dict[str, int] = {}
    for d in diffs:
        counts[d[key]] = counts.get(d[key], 0) + 1
    names = KIND_NAMES if key == "kind" else {}
    return ", ".join(f"{names.get(k, k)} {v}" for k, v in sorted(counts.items())) or "none"


def ms_line(name: str, ms: list[float]) -> str:
    return f"  {name:<34} n={len(ms):<5} median {statistics.median(ms):.3f} ms   min {min(ms):.3f} ms"


VARIANTS = {
    "standard": "standard",
    "fva": "standard_france_austria",
    "gvi": "standard_germany_italy",
    "fleetrome": "standard_fleet_rome",
    "ancmed": "ancmed",
    "modern": "modern",
}
"""Our maps (``maps/NAME``) that MILA's engine also ships, and MILA's name for each."""


def check_same_board(game_map, mila_map: str) -> list[str]:
    """Where our map and MILA's differ in what the comparison relies on: provinces
    (with coasts), SCs, powers and start units. Empty when they agree."""
    game = Game(map_name=mila_map)
    theirs_locs = {loc.upper() for loc in game.map.locs}
    ours_locs = {c.upper() for c in game_map.provinces}
    ours_locs |= {f"{c.upper()}/{k.upper()}" for c, p in game_map.provinces.items() for k in p.coasts}
    out = []
    if ours_locs != theirs_locs:
        out.append(f"locations only ours {sorted(ours_locs - theirs_locs)}, only MILA's {sorted(theirs_locs - ours_locs)}")
    if {c.upper() for c in game_map.supply_centres} != set(game.map.scs):
        out.append("supply centres differ")
    if {p.upper() for p in game_map.powers} != set(game.powers):
        out.append(f"powers differ: ours {sorted(game_map.powers)}, MILA's {sorted(game.powers)}")
    start = Position.start(game_map)
    ours_units = sorted(f"{u.power.upper()} {u.type} {mila_loc(u.location)}" for u in start.units.values())
    theirs_units = sorted(f"{p} {u}" for p, power in game.powers.items() for u in power.units)
    if ours_units != theirs_units:
        out.append(f"start units differ: ours {ours_units}, MILA's {theirs_units}")
    return out


def run_variant(name: str, args, ignore: set[str]) -> dict:
    """Play ``args.games`` games on variant ``name`` through both engines and print its report."""
    game_map = load_map(name)
    differ = Differ(game_map, PROFILES[args.rules], ignore, VARIANTS[name])
    board = check_same_board(game_map, VARIANTS[name])
    for g in range(args.games):
        differ.play(args.seed + g, args.years)

    p, diffs = differ.phases, differ.diffs
    kept = [d for d in diffs if not d["ignored"]]
    start = Position.start(game_map).phase
    print(f"== {name} (MILA map {VARIANTS[name]}): {args.games} games, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"{args.years} years each from {start}, our rules '{args.rules}'")
    for line in board:
        print(f"  board difference: {line}")
    print(f"phases compared: {sum(p.values())} (movement {p['M']}, retreat {p['R']}, adjustment {p['A']}, "
          f"SC ownership after Fall {p['SC']})")
    print(f"differing phases: {len(diffs)} ({tally(diffs, 'kind')})")
    print(f"  by class: {tally(diffs, 'class')}")
    if ignore:
        print(f"after --ignore {' '.join(args.ignore)}: {len(kept)} differing phases ({tally(kept, 'kind')})")
    unexplained = sum(d["class"] == "unexplained" for d in diffs)
    print(f"unexplained: {unexplained}")
    for i, d in enumerate(kept[:args.show], 1):
        print_diff(i, d)
    print("time per movement phase (adjudication call only):")
    print(ms_line("judge adjudicate_movement", differ.times["ours"]))
    print(ms_line("MILA set_orders + process()", differ.times["mila"]))
    print(ms_line("MILA process()", differ.times["mila_process"]))
    print()
    return {"variant": name, "phases": sum(p.values()), "differing": len(diffs), "unexplained": unexplained,
            "diffs": diffs}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="standard", choices=(*VARIANTS, "all"),
                    help="our map to play (MILA ships it too), or all of them (default standard)")
    ap.add_argument("--seed", type=int, default=1, help="first game's seed (default 1)")
    ap.add_argument("--games", type=int, default=10, help="games to play per variant (default 10)")
    ap.add_argument("--years", type=int, default=10, help="years per game from the map's start (default 10)")
    ap.add_argument("--rules", choices=sorted(PROFILES), default="datc", help="our rule profile (default datc)")
    ap.add_argument("--ignore", action="append", default=[], choices=(*GROUPS, *GROUPS["all"]),
                    help="do not count or show phases of this known class or group (see the docstring); "
                         "repeatable")
    ap.add_argument("--show", type=int, default=3, help="differences to print in full per variant (default 3)")
    ap.add_argument("--dump", type=Path, help="write every difference as JSON to this file")
    args = ap.parse_args(argv)

    ignore = {t for name in args.ignore for t in GROUPS.get(name, (name,))}
    names = list(VARIANTS) if args.variant == "all" else [args.variant]
    print(f"(a) rule choices: {', '.join(RULE_CHOICES)}; (b) MILA bugs: {', '.join(MILA_BUGS)}\n")
    reports = [run_variant(name, args, ignore) for name in names]
    if len(reports) > 1:
        print(f"{'variant':<12} {'phases':>7} {'differing':>10} {'unexplained':>12}")
        for r in reports:
            print(f"{r['variant']:<12} {r['phases']:>7} {r['differing']:>10} {r['unexplained']:>12}")
    if args.dump:
        args.dump.write_text(json.dumps({r["variant"]: r["diffs"] for r in reports}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
