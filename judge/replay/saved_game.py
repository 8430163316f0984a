"""Reader for the MILA / dipcc "saved game" JSON of the mila and cicero records
(``shared/games/README.md`` §2).

``phases`` is a list of ``{name, state, orders}``: ``state.units``
``{POWER: ["A PAR", "*A TRI" (dislodged), ...]}``, ``state.retreats``
``{POWER: {"A TRI": ["BUD"]}}``, ``state.centers`` ``{POWER: [SC]}``;
``orders`` ``{POWER: ["A PAR - BUR", ...]}`` (``null``: never asked). Order
forms: ``A PAR H``, ``A PAR - BUR [VIA]``, ``A MAR S A PAR [- BUR]``,
``F NTH C A YOR - BEL``, ``A TRI R BUD``, ``A TRI D``, ``A PAR B``, ``WAIVE``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..rules.map import Map, province_of
from ..rules.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from ..rules.phase import Phase
from ..rules.position import Unit
from .record import GameRecord, RecordedDislodged, RecordedPhase, RecordedState, RecordError

_LOC = r"([A-Z]{3}(?:/[A-Z]{2})?)"
_UNIT = rf"([AF]) {_LOC}"
_ORDERS = [
    ("hold", re.compile(rf"^{_UNIT} H$")),
    ("move", re.compile(rf"^{_UNIT} - {_LOC}( VIA)?$")),
    ("support", re.compile(rf"^{_UNIT} S {_UNIT}(?: - {_LOC})?$")),
    ("convoy", re.compile(rf"^{_UNIT} C {_UNIT} - {_LOC}$")),
    ("retreat", re.compile(rf"^{_UNIT} R {_LOC}$")),
    ("disband", re.compile(rf"^{_UNIT} D$")),
    ("build", re.compile(rf"^{_UNIT} B$")),
    ("waive", re.compile(r"^WAIVE$")),
]
_UNIT_RE = re.compile(rf"^(\*?){_UNIT}$")


def read_saved_game(path: Path | str, game_map: Map) -> GameRecord:
    """Read one MILA or dipcc JSON game. Raises :class:`RecordError` (file,
    phase, reason) for malformed data, an unknown power or location, or an
    order of no known form; ``OSError`` if the file cannot be read."""
    path = Path(path)
    source = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise RecordError(source, f"byte {e.start}", "not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise RecordError(source, f"line {e.lineno}", e.msg) from None
    if not isinstance(data, dict) or not isinstance(data.get("phases"), list) or not data["phases"]:
        raise RecordError(source, "-", "no 'phases' list")
    reader = _Reader(source, game_map)
    return GameRecord(path.name, source, [reader.phase(p, i) for i, p in enumerate(data["phases"])])


class _Reader:
    def __init__(self, source: str, game_map: Map):
        self.source = source
        self.map = game_map
        self.powers = {p.casefold(): p for p in game_map.powers}
        self.where = "-"

    def fail(self, reason: str):
        raise RecordError(self.source, self.where, reason)

    def power(self, name: str) -> str:
        p = self.powers.get(str(name).casefold())
        if p is None:
            self.fail(f"unknown power {name!r}")
        return p

    def loc(self, text: str) -> str:
        code = text.lower()
        if code not in self.map.locations:
            self.fail(f"unknown location {text!r}")
        return code

    def phase(self, raw, index: int) -> RecordedPhase:
        self.where = f"phase {index}"
        if not isinstance(raw, dict) or not isinstance(raw.get("state"), dict):
            self.fail("a phase needs 'name', 'state' and 'orders'")
        try:
            return self._phase(raw)
        except (AttributeError, TypeError) as e:
            self.fail(f"malformed phase data ({e})")

    def _phase(self, raw: dict) -> RecordedPhase:
        name = str(raw.get("name"))
        self.where = name
        if name != "COMPLETED":
            try:
                Phase.parse(name)
            except ValueError as e:
                from ..text import english
                self.fail(english(e))
        state = self.state(raw["state"])
        orders: dict[str, list[Order]] = {}
        for power, olist in (raw.get("orders") or {}).items():
            power = self.power(power)
            for text in olist or ():
                orders.setdefault(power, []).append(self.order(text))
        return RecordedPhase(name, state, orders)

    def state(self, st: dict) -> RecordedState:
        units, dislodged, owners = {}, {}, {}
        for power, ulist in (st.get("units") or {}).items():
            power = self.power(power)
            for text in ulist:
                m = _UNIT_RE.match(text)
                if not m:
                    self.fail(f"not a unit: {text!r}")
                unit = self._unit(power, m.group(2), m.group(3))
                (dislodged if m.group(1) else units)[province_of(unit.location)] = unit
        retreats = {}
        for by_unit in (st.get("retreats") or {}).values():
            for text, dests in by_unit.items():
                m = _UNIT_RE.match(text)
                if not m:
                    self.fail(f"not a unit: {text!r}")
                retreats[province_of(self.loc(m.group(3)))] = tuple(sorted(self.loc(d) for d in dests))
        for power, scs in (st.get("centers") or {}).items():
            power = self.power(power)
            for sc in scs:
                owners[self.loc(sc)] = power
        return RecordedState(units, owners, {
            p: RecordedDislodged(u, retreats.get(p, ())) for p, u in dislodged.items()})

    def _unit(self, power: str, utype: str, where: str) -> Unit:
        loc = self.loc(where)
        return Unit(power, utype, province_of(loc) if utype == "A" else loc)

    def order(self, text: str) -> Order:
        for form, rx in _ORDERS:
            m = rx.match(str(text))
            if m:
                break
        else:
            self.fail(f"not an order of the format: {text!r}")
        if form == "waive":
            return Waive()
        a = m.groups()
        t, src = a[0], self.loc(a[1])
        if form == "hold":
            return Hold(t, src)
        if form == "move":
            return Move(t, src, self.loc(a[2]), via_convoy=bool(a[3]))
        if form == "support":
            return Support(t, src, a[2], self.loc(a[3]), self.loc(a[4]) if a[4] else None)
        if form == "convoy":
            return Convoy(t, src, self.loc(a[3]), self.loc(a[4]), army_type=a[2])
        if form == "retreat":
            return Retreat(t, src, self.loc(a[2]))
        if form == "disband":
            return Disband(t, src)
        return Build(t, src)
