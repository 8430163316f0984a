"""DATC case files (jDip/godip text format, ``shared/datc/FORMAT.md``): reading
and running them against the rules core.

:func:`parse_cases` turns a file into :class:`Case` objects or raises
:class:`CaseFileError` (file, line, reason). :func:`run_case` adjudicates one
case and returns the differences from its expected positions.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from .maps import load_map, load_names
from .notation.names import NameIndex, name_index
from .rules import (DEFAULT_RULES, DislodgedUnit, Position, RuleOptions, Unit,
                    adjudicate_adjustments, adjudicate_movement, adjudicate_retreats)
from .rules.map import Map, province_of
from .rules.orders import Build, Convoy, Disband, Hold, Move, Order, Support
from .rules.phase import Phase

KEYWORDS = {"PRESTATE_SETPHASE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE", "PRESTATE_DISLODGED",
            "PRESTATE_RESULTS", "ORDERS", "POSTSTATE", "POSTSTATE_SAME", "POSTSTATE_DISLODGED", "END"}


class CaseFileError(ValueError):
    """A case file cannot be read. ``str(err)`` reads ``FILE:LINE: REASON``."""

    def __init__(self, source: str, line: int, reason: str):
        super().__init__(f"{source}:{line}: {reason}")
        self.source, self.line, self.reason = source, line, reason


@dataclass
class Case:
    """One CASE block. Unit lists hold ``(power, Unit)``; orders ``(power, Order, text)``."""

    id: str
    title: str
    line: int
    phase: str = "S1901M"
    owners: dict[str, str] | None = None
    units: list[Unit] = field(default_factory=list)
    dislodged: list[Unit] = field(default_factory=list)
    prior: list[tuple[bool, str, Order]] = field(default_factory=list)
    orders: list[tuple[str, Order, str]] = field(default_factory=list)
    post_same: bool = False
    post: list[Unit] = field(default_factory=list)
    post_dislodged: list[Unit] = field(default_factory=list)


class _Reader:
    def __init__(self, names: NameIndex, source: str):
        self.names, self.source = names, source
        self.line = 0

    def fail(self, reason: str):
        raise CaseFileError(self.source, self.line, reason)

    def power(self, text: str) -> str:
        p = self.names.power(text)
        if p is None:   # jDip's "Germnay" (6.A.5): the nearest power name
            close = difflib.get_close_matches(text.strip().lower(), [q.lower() for q in self.names.map.powers],
                                              n=1, cutoff=0.75)
            if close:
                p = next(q for q in self.names.map.powers if q.lower() == close[0])
        if p is None:
            self.fail(f"unknown power {text!r}")
        return p

    def loc(self, text: str) -> str:
        loc = self.names.location(text.strip())
        if loc is None:
            hint = self.names.suggest(text)
            self.fail(f"unknown province {text.strip()!r}" + (f" (did you mean {', '.join(hint)}?)" if hint else ""))
        return loc

    def unit_line(self, text: str) -> Unit:
        m = re.match(r"^\s*([A-Za-z]+)\s*:?\s+([AaFf])\s+(.+?)\s*$", text)
        if not m:
            self.fail(f"expected 'Power: A prov', got {text.strip()!r}")
        loc = self.loc(m.group(3))
        t = m.group(2).upper()
        if t == "A":
            loc = province_of(loc)
        return Unit(self.power(m.group(1)), t, loc)

    def order(self, text: str) -> Order:
        """Parse one order in the case-file syntax."""
        s = re.sub(r"\s+", " ", text.strip())
        m = re.match(r"(?i)^(build|remove)\s+(?:([af])\s+)?(.+)$", s)
        if m:
            t = m.group(2).upper() if m.group(2) else None
            loc = self.loc(m.group(3))
            return Build(t, loc) if m.group(1).lower() == "build" else Disband(t, loc)
        m = re.match(r"(?i)^([af])\s+(.+)$", s)
        if not m:
            self.fail(f"cannot read order {s!r}")
        t, rest = m.group(1).upper(), m.group(2)
        m = re.match(r"(?i)^(.+?)\s+(s|supports?)\s+([af])\s+(.+)$", rest)
        if m:
            loc = self.loc(m.group(1))
            target, dest = self.split_move(m.group(4), allow_single=True)
            return Support(t, loc, m.group(3).upper(), target, dest)
        m = re.match(r"(?i)^(.+?)\s+(c|convoys?)\s+([af])\s+(.+)$", rest)
        if m:
            loc = self.loc(m.group(1))
            army, dest = self.split_move(m.group(4))
            return Convoy(t, loc, army, dest, m.group(3).upper())
        m = re.match(r"(?i)^(.+?)\s+(h|hold|holds)$", rest)
        if m:
            return Hold(t, self.loc(m.group(1)))
        m = re.match(r"(?i)^(.+?)\s+(disband|d)$", rest)
        if m:
            return Disband(t, self.loc(m.group(1)))
        via = False
        m = re.match(r"(?i)^(.+?)\s+(via|by)\s+convoy$", rest)
        if m:
            rest, via = m.group(1), True
        src, dest = self.split_move(rest)
        return Move(t, src, dest, via)

    def split_move(self, text: str, allow_single: bool = False) -> tuple[str, str | None]:
        """``"London - Belgium"`` / ``"mid-atlantic-spa"`` -> two locations."""
        parts = text.split("-")
        for i in range(1, len(parts)):
            a, b = "-".join(parts[:i]), "-".join(parts[i:])
            la, lb = self.names.location(a.strip()), self.names.location(b.strip())
            if la and lb:
                return la, lb
        if allow_single and len(parts) >= 1 and self.names.location(text.strip()):
            return self.names.location(text.strip()), None
        if len(parts) == 1 and not allow_single:
            self.fail(f"expected a move 'X - Y', got {text.strip()!r}")
        for p in parts:
            self.loc(p)         # raises naming the unknown part
        self.fail(f"cannot read {text.strip()!r}")


def read_order(text: str, game_map: Map | None = None, source: str = "<order>") -> Order:
    """One order in the case-file syntax (``"F nth C A lon-bel"``, ``"A pru disband"``,
    ``"Build F stp/nc"``) as an :class:`~judge.rules.orders.Order`. Raises
    :class:`CaseFileError` (``source``, line 0, reason)."""
    game_map = game_map or load_map("standard")
    return _Reader(name_index(game_map, load_names(game_map.name)), source).order(text)


def read_unit(power: str, text: str, game_map: Map | None = None, source: str = "<unit>") -> Unit:
    """``("England", "F spa/nc")`` -> ``Unit("England", "F", "spa/nc")`` (an army's
    coast is dropped). Raises :class:`CaseFileError`."""
    game_map = game_map or load_map("standard")
    return _Reader(name_index(game_map, load_names(game_map.name)), source).unit_line(f"{power}: {text}")


def parse_cases(path: str | Path, game_map: Map | None = None) -> list[Case]:
    """Read a case file. Raises :class:`CaseFileError` (file, line, reason)."""
    path = Path(path)
    game_map = game_map or load_map("standard")
    try:
        text = path.read_text(encoding="utf-8-sig", errors="strict")
    except (OSError, UnicodeDecodeError) as e:
        raise CaseFileError(str(path), 0, f"cannot read: {e}") from None
    rd = _Reader(name_index(game_map, load_names(game_map.name)), str(path))
    cases: list[Case] = []
    case: Case | None = None
    block = None
    for rd.line, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split()[0]
        if word == "VARIANT_ALL":
            continue
        if word == "CASE":
            if case is not None:
                rd.fail(f"CASE {case.id} (line {case.line}) has no END")
            parts = line.split(None, 2)
            if len(parts) < 2:
                rd.fail("CASE needs an id")
            case = Case(parts[1], parts[2] if len(parts) > 2 else "", rd.line)
            block = None
            continue
        if case is None:
            rd.fail(f"{line!r} outside a CASE block")
        if word in KEYWORDS and (word != "PRESTATE_SETPHASE" or True):
            if word == "PRESTATE_SETPHASE":
                m = re.match(r"(?i)^PRESTATE_SETPHASE\s+(spring|fall|winter)\s+(\d+)\s*,?\s*(movement|retreat|adjustment)$", line)
                if not m:
                    rd.fail("expected 'PRESTATE_SETPHASE Spring 1901, Movement'")
                season, kind = m.group(1)[0].upper(), m.group(3)[0].upper()
                if kind == "A":
                    season = "W"
                case.phase = f"{season}{m.group(2)}{kind}"
                continue
            if word == "END":
                cases.append(case)
                case = None
                continue
            if word == "POSTSTATE_SAME":
                case.post_same = True
            if word == "PRESTATE_SUPPLYCENTER_OWNERS":
                case.owners = {}
            block = word
            continue
        if block in ("PRESTATE", "POSTSTATE", "PRESTATE_DISLODGED", "POSTSTATE_DISLODGED",
                     "PRESTATE_SUPPLYCENTER_OWNERS"):
            u = rd.unit_line(line)
            if block == "PRESTATE_SUPPLYCENTER_OWNERS":
                case.owners[province_of(u.location)] = u.power
            else:
                {"PRESTATE": case.units, "POSTSTATE": case.post, "PRESTATE_DISLODGED": case.dislodged,
                 "POSTSTATE_DISLODGED": case.post_dislodged}[block].append(u)
        elif block == "ORDERS":
            m = re.match(r"^([A-Za-z]+)\s*:?\s+(.+)$", line)
            if not m:
                rd.fail(f"expected 'Power: order', got {line!r}")
            case.orders.append((rd.power(m.group(1)), rd.order(m.group(2)), m.group(2)))
        elif block == "PRESTATE_RESULTS":
            m = re.match(r"(?i)^(SUCCESS|FAILURE)\s*:\s*([A-Za-z]+)\s*:\s*(.+)$", line)
            if not m:
                rd.fail(f"expected 'SUCCESS: Power: order', got {line!r}")
            case.prior.append((m.group(1).upper() == "SUCCESS", rd.power(m.group(2)), rd.order(m.group(3))))
        else:
            rd.fail(f"{line!r} is not inside a PRESTATE/ORDERS/POSTSTATE block")
    if case is not None:
        rd.fail(f"CASE {case.id} (line {case.line}) has no END")
    return cases


def _phase_kind(phase: str) -> str:
    return Phase.parse(phase).kind


def initial_position(game_map: Map, case: Case) -> Position:
    """The case's pre-state as a :class:`Position` (retreat options for a retreat
    case are derived from PRESTATE_RESULTS, as godip's harness does)."""
    units = {province_of(u.location): u for u in case.units}
    if case.owners is not None:
        owners = dict(case.owners)
    else:
        owners = {h: p for p, hs in game_map.home_centres.items() for h in hs}
    dislodged = {}
    if _phase_kind(case.phase) == "R":
        origin, contested = {}, set()
        moves = [(ok, power, order) for ok, power, order in case.prior if isinstance(order, Move)]
        won = {(province_of(o.location), province_of(o.destination)) for ok, _p, o in moves if ok}
        for ok, power, order in moves:
            src, dst = province_of(order.location), province_of(order.destination)
            by_sea = _convoyed(game_map, case.prior, power, order)
            if ok:
                origin[dst] = None if by_sea else src
            elif not by_sea and (dst, src) not in won:   # a lost head-to-head is no standoff
                contested.add(dst)
        for u in case.dislodged:
            p = province_of(u.location)
            o = origin.get(p)
            adj = game_map.army_adj.get(p, ()) if u.type == "A" else game_map.fleet_adj.get(u.location, ())
            opts = tuple(sorted(loc for loc in adj if province_of(loc) not in units
                                and province_of(loc) != o and province_of(loc) not in contested))
            dislodged[p] = DislodgedUnit(u, o, opts)
    return Position(case.phase, units, owners, dislodged)


def _convoyed(game_map: Map, prior, power: str, move: Move) -> bool:
    """Whether a PRESTATE_RESULTS move went by sea: ``via convoy`` written, a
    destination no army reaches by land, or a convoy of it by a fleet of the
    army's own power (the intent rule, DATC 6.G.1, 6.G.6; what the movement
    adjudicator decides)."""
    src, dst = province_of(move.location), province_of(move.destination)
    if move.unit_type == "F":
        return False
    if move.via_convoy or dst not in game_map.army_adj.get(src, ()):
        return True
    return any(p == power and isinstance(o, Convoy) and province_of(o.army_location) == src
               and province_of(o.destination) == dst for _ok, p, o in prior)


@dataclass
class CaseRun:
    """What running a case gave: ``ok``, the expected and actual unit lists."""

    case: Case
    ok: bool
    expected: list[str]
    actual: list[str]
    results: list


def run_case(case: Case, game_map: Map | None = None, rules: RuleOptions = DEFAULT_RULES) -> CaseRun:
    """Adjudicate one case and compare with its POSTSTATE blocks."""
    game_map = game_map or load_map("standard")
    pos = initial_position(game_map, case)
    orders: dict[str, list[Order]] = {}
    for power, order, _text in case.orders:
        orders.setdefault(power, []).append(order)
    kind = _phase_kind(case.phase)
    if kind == "M":
        out = adjudicate_movement(game_map, pos, orders, rules)
        after, results = out.position, out.results
    elif kind == "R":
        out = adjudicate_retreats(game_map, pos, orders)
        after, results = out.position, out.results
    else:
        out = adjudicate_adjustments(game_map, pos, orders, rules)
        after, results = out.position, out.results
    actual = _describe(after.units.values(), [d.unit for d in after.dislodged.values()])
    if case.post_same:
        expected = _describe(case.units, [])
    else:
        expected = _describe(case.post, case.post_dislodged)
    return CaseRun(case, actual == expected, expected, actual, results)


def _describe(units, dislodged) -> list[str]:
    out = [f"{u.power}: {u.type} {u.location}" for u in units]
    out += [f"{u.power}: {u.type} {u.location} (dislodged)" for u in dislodged]
    return sorted(out)


def run_files(paths: list[str], out, rules: RuleOptions = DEFAULT_RULES) -> tuple[int, int]:
    """Run every case of ``paths``, printing each failure to ``out``; returns
    ``(passed, failed)``. Raises :class:`CaseFileError` for an unreadable file."""
    passed = failed = 0
    game_map = load_map("standard")
    for path in paths:
        for case in parse_cases(path, game_map):
            run = run_case(case, game_map, rules)
            if run.ok:
                passed += 1
                continue
            failed += 1
            exp, act = set(run.expected), set(run.actual)
            print(f"FAILED {case.id} {case.title} ({path}:{case.line})", file=out)
            print(f"  expected: {'; '.join(run.expected) or '(no units)'}", file=out)
            print(f"  actual:   {'; '.join(run.actual) or '(no units)'}", file=out)
            print(f"  missing: {'; '.join(sorted(exp - act)) or '-'}  unexpected: {'; '.join(sorted(act - exp)) or '-'}",
                  file=out)
    return passed, failed
