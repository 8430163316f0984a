"""Reader for the godip "game" text format of the droidippy records
(``shared/games/README.md`` §1).

Blocks of ``PHASE <year> <Spring|Fall> <Movement|Retreat|Adjustment>``, then
``POSITIONS`` (``<Nation>: army|fleet|army/dislodged|fleet/dislodged|supply <loc>``)
and ``ORDERS`` (no nation given: an order belongs to the nation with a unit in
the province it names, in a Retreat block a dislodged unit; a build to the
nation whose home centre it is). Orders no nation can be given (README §4:
"stray" retreat-block orders, a move in an adjustment block for a unit that is
not there) are kept in :attr:`RecordedPhase.ignored`. ``Fall Adjustment`` is
the winter phase ``W<year>A``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..rules.map import Map, province_of
from ..rules.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support
from ..rules.position import Unit
from .record import GameRecord, RecordedDislodged, RecordedPhase, RecordedState, RecordError

# godip codes that differ from the map's
_CODES = {"gol": "lyo", "mid": "mao", "nat": "nao", "nrg": "nwg"}
_PHASE = re.compile(r"^PHASE (\d+) (Spring|Fall) (Movement|Retreat|Adjustment)$")
_POSITION = re.compile(r"^(\w+): (army|fleet|army/dislodged|fleet/dislodged|supply) (\S+)$")
_LOC = r"([a-z]{3}(?:/[a-z]{2})?)"
_ORDERS = [
    ("move", re.compile(rf"^{_LOC} move {_LOC}( via convoy)?$")),
    ("hold", re.compile(rf"^{_LOC} hold$")),
    ("support", re.compile(rf"^{_LOC} support {_LOC}(?: move {_LOC})?$")),
    ("convoy", re.compile(rf"^{_LOC} convoy {_LOC} move {_LOC}$")),
    ("build", re.compile(rf"^build (Army|Fleet) {_LOC}$")),
    ("remove", re.compile(rf"^remove {_LOC}$")),
    ("disband", re.compile(rf"^{_LOC} disband$")),
]


@dataclass
class _Block:
    name: str                     # "S1901M"
    kind: str                     # "M", "R" or "A"
    section: str | None = None    # "POSITIONS" or "ORDERS"
    units: dict = field(default_factory=dict)
    dislodged: dict = field(default_factory=dict)
    owners: dict = field(default_factory=dict)
    orders: list = field(default_factory=list)   # (location, Order, line)


def read_droidippy(path: Path | str, game_map: Map) -> GameRecord:
    """Read one droidippy game file. Raises :class:`RecordError` (file, line,
    reason) for a line that fits none of the format's forms or names an unknown
    location or nation, and ``OSError`` if the file cannot be read."""
    path = Path(path)
    source = str(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise RecordError(source, f"byte {e.start}", "not UTF-8 text") from None
    phases: list[RecordedPhase] = []
    block: _Block | None = None
    powers = {p.casefold(): p for p in game_map.powers}

    def loc(text: str, n: int) -> str:
        p = province_of(text)
        code = _CODES.get(p, p) + text[len(p):]
        if code not in game_map.locations:
            raise RecordError(source, f"line {n}", f"unknown location {text!r}")
        return code

    def finish():
        if block is not None:
            phases.append(_phase(block, game_map))

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        m = _PHASE.match(line)
        if m:
            finish()
            year, season, kind = m.groups()
            name = ("W" if kind == "Adjustment" else season[0]) + year + kind[0]
            block = _Block(name, kind[0])
            continue
        if block is None:
            raise RecordError(source, f"line {n}", "expected a PHASE line first")
        if line in ("POSITIONS", "ORDERS"):
            block.section = line
            continue
        if block.section == "POSITIONS":
            m = _POSITION.match(line)
            if not m or m.group(1).casefold() not in powers:
                raise RecordError(source, f"line {n}", f"not a position line: {line!r}")
            power, what, where = powers[m.group(1).casefold()], m.group(2), loc(m.group(3), n)
            if what == "supply":
                block.owners[where] = power
            else:
                unit = Unit(power, "A" if what.startswith("army") else "F", where)
                held = block.dislodged if what.endswith("/dislodged") else block.units
                held[province_of(where)] = unit
        elif block.section == "ORDERS":
            block.orders.append(_order(line, block.kind, lambda t: loc(t, n), source, n))
        else:
            raise RecordError(source, f"line {n}", "expected POSITIONS or ORDERS")
    finish()
    if not phases:
        raise RecordError(source, "line 1", "no PHASE block")
    return GameRecord(path.name, source, phases)


def _order(line: str, kind: str, loc, source: str, n: int) -> tuple[str, Order, str]:
    """``(location the order is for, order, line)``."""
    for form, rx in _ORDERS:
        m = rx.match(line)
        if m:
            break
    else:
        raise RecordError(source, f"line {n}", f"not an order of the format: {line!r}")
    a = m.groups()
    if form == "build":
        where = loc(a[1])
        return where, Build("A" if a[0] == "Army" else "F", where), line
    src = loc(a[0])
    if form == "move" and kind == "R":
        return src, Retreat(None, src, loc(a[1])), line
    if form == "move":
        return src, Move(None, src, loc(a[1]), via_convoy=bool(a[2])), line
    if form == "hold":
        return src, Hold(None, src), line
    if form == "support":
        return src, Support(None, src, None, loc(a[1]), loc(a[2]) if a[2] else None), line
    if form == "convoy":
        return src, Convoy(None, src, loc(a[1]), loc(a[2])), line
    return src, Disband(None, src), line   # remove, disband


def _phase(block: _Block, game_map: Map) -> RecordedPhase:
    state = RecordedState(block.units, block.owners,
                          {p: RecordedDislodged(u) for p, u in block.dislodged.items()})
    home_of = {sc: power for power, homes in game_map.home_centres.items() for sc in homes}
    orders: dict[str, list[Order]] = {}
    ignored = []
    for where, order, line in block.orders:
        prov = province_of(where)
        if isinstance(order, Build):
            power = home_of.get(prov)
        else:
            unit = (block.dislodged if block.kind == "R" else block.units).get(prov)
            power = unit.power if unit else None
        if power is None:
            ignored.append(line)
        else:
            orders.setdefault(power, []).append(order)
    return RecordedPhase(block.name, state, orders, tuple(ignored))
