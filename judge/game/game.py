"""A game: its settings, players, position, the orders of the current phase and
the history of every phase adjudicated.

Use cases take ``now`` (an aware UTC :class:`datetime`) as an argument; nothing
here reads the clock, a file (beyond the map data) or the network.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Callable

from ..maps import load_map
from ..rules import adjudicate_adjustments, adjudicate_retreats, order_refusal
from ..rules.map import Map, province_of
from ..rules.orders import (
    ILLEGAL, SUCCEEDS, Build, BuildPriority, Convoy, Disband, DisbandPriority, Hold, Move,
    Retreat, RetreatPreference, Support, Waive,
)
from ..rules.phase import Phase
from ..rules.position import Position
from ..rules.reasons import Reason
from ..rules.victory import VictorySettings
from . import book, resolve
from .codec import position_from_dict, position_to_dict, time_from_str, time_to_str
from .ending import EndOfGame, EndState
from .errors import GameError
from .history import History
from .records import WRITTEN, OrderEntry, PhaseRecord, Player
from .replaced import ReplacedLog, merged
from .refusals import game_refusal
from .roster import Change
from .schedule import Schedule
from .sequence import adjustments_due, settle
from .settings import Settings
from .territory import home_country

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
ADJUSTMENT_ORDERS = (Build, Disband, Waive)


@dataclass(frozen=True)
class Line:
    """An order line as the game takes it; the notation parser's ``ParsedLine``
    has the same shape. ``order`` is None for a line that held no order."""

    input: str
    order: object | None
    error: object | None = None


@dataclass(frozen=True)
class Receipt:
    """How the game took one line: ``error`` when refused — the parser's
    :class:`~judge.notation.diagnostics.Diagnostic`, or a
    :class:`~judge.rules.reasons.Reason` (the rules core's, or one of
    :mod:`judge.game.refusals`), in words by the text layer
    (``judge.text.Words.reason``); ``replaced``: the earlier entries this
    order took the place of."""

    input: str
    order: object | None
    error: object | None = None
    replaced: tuple[OrderEntry, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class Game(EndOfGame):
    """One game. Build it with :meth:`create`; store it with :meth:`to_dict`.

    ``orders``: ``{power: (OrderEntry, ...)}`` for the current phase, in arrival
    order (replaced entries marked; once the game is stored they are in
    ``replaced_log``, :mod:`.replaced`, which the phase's record reads back). ``standing``: ``{power: (OrderEntry,
    ...)}`` standing lists carried from earlier phases of the year (``RULES.md``
    §3.1-3.2, §3.7). ``history``: one :class:`PhaseRecord` per phase adjudicated, oldest first
    (a :class:`~judge.game.history.History`: records load when first used).
    ``seed``: the game's random seed (``RULES.md`` §3.6). ``ending``: alliances,
    votes, rulings and, once the game is over, its result (:mod:`.ending`, whose
    methods — ``check_end``, ``ally``, ``draw``, ... — are the game's too).
    ``schedule``: the deadline, reminders, WAIT flags, pause, absences and NMR
    record (:mod:`.schedule`); ``observers``: ``{address: language}``;
    ``roster``: who played each power when (:mod:`.roster`); ``press``: the
    public press of the current phase (:func:`judge.game.press.keep_broadcast`),
    which goes into the phase's record when it is adjudicated.
    """

    name: str
    map_name: str
    settings: Settings
    seed: int
    created: datetime
    players: dict[str, Player]
    position: Position
    orders: dict[str, tuple[OrderEntry, ...]] = field(default_factory=dict)
    standing: dict[str, tuple[OrderEntry, ...]] = field(default_factory=dict)
    history: History = field(default_factory=History)
    ending: EndState = field(default_factory=EndState)
    schedule: Schedule = field(default_factory=Schedule)
    observers: dict[str, str] = field(default_factory=dict)
    roster: tuple[Change, ...] = ()
    press: tuple[dict, ...] = ()
    future: dict[str, dict[str, list]] = field(default_factory=dict)   # orders for later phases (.future)
    replaced_log: ReplacedLog = field(default_factory=ReplacedLog, compare=False, repr=False)

    # ---- creating ----------------------------------------------------------------
    @classmethod
    def create(cls, name: str, *, now: datetime, seed: int, map_name: str = "standard",
               settings: Settings | None = None) -> "Game":
        """A new game at the map's start. Raises :class:`GameError` for a bad name
        (1-32 letters, digits, ``-`` or ``_``), a naive ``now`` or a victory
        threshold above the map's SC count; :class:`~judge.rules.map.MapError`
        for a bad map."""
        if not NAME_RE.match(name):
            raise GameError("bad_game_name", text=name)
        _check_time(now)
        game_map = load_map(map_name)
        settings = settings or Settings(victory=VictorySettings.for_map(game_map))   # the map's SC target (§7)
        try:
            settings.check_map(game_map)
        except ValueError as e:
            raise GameError.wrap(e) from None
        return cls(name, map_name, settings, int(seed), now,
                   {p: Player() for p in game_map.powers}, Position.start(game_map))

    def checkpoint(self) -> Callable[[], None]:
        """Validate, then apply — the safety net: a function that puts the
        game back exactly as it is now (every field, the history with it).
        The verbs' runner takes one before a command and calls it when the
        command is refused, so a refusal changes nothing even where a check
        comes after a change. Cheap: fields are immutable values but for a
        few dicts, which are copied."""
        state = {f.name: getattr(self, f.name) for f in fields(self)}
        copies = {k: dict(v) for k, v in state.items() if isinstance(v, dict)}
        history, mark = self.history, self.history.mark()

        def restore() -> None:
            for k, v in state.items():
                setattr(self, k, dict(copies[k]) if k in copies else v)
            history.restore(mark)
        return restore

    # ---- reading -----------------------------------------------------------------
    @property
    def map(self) -> Map:
        return load_map(self.map_name)

    @property
    def phase(self) -> Phase:
        return Phase.parse(self.position.phase)

    def record(self, phase: str) -> PhaseRecord:
        """The record of an adjudicated phase (``"S1901M"``); GameError if none."""
        try:
            wanted = str(Phase.parse(phase))
        except ValueError as e:
            raise GameError.wrap(e) from None
        rec = self.history.find(wanted)
        if rec is not None:
            return rec
        raise GameError("no_phase", game=self.name, phase=wanted, current=self.position.phase)

    def power(self, name: str) -> str:
        """The map's spelling of a power name (any case); GameError if unknown."""
        for p in self.map.powers:
            if p.casefold() == name.casefold():
                return p
        raise GameError.of("no_such_power", text=name, powers=list(self.map.powers), map=self.map_name)

    def unordered(self, power: str) -> list[str]:
        """Locations of ``power``'s units still without an order this phase
        (movement: units; retreat: dislodged units; adjustment: empty)."""
        return self.unordered_of((power,))[power]

    def unordered_of(self, powers) -> dict[str, list[str]]:
        """:meth:`unordered` of each of ``powers``, the board read once for
        them all (issue 23: every answer about a game says whose orders are
        missing)."""
        kind = self.phase.kind
        if kind == "A":
            return {p: [] for p in powers}
        # kept for this position, and for each power as long as its orders are the same tuple
        # (an answer asks three times: the power's units, the powers missing, the wake-up)
        memo = self.__dict__.get("_unordered_memo")
        if memo is None or memo[0] is not self.position:
            units = self.position.units if kind == "M" else \
                {p: d.unit for p, d in self.position.dislodged.items()}
            theirs: dict[str, list] = {}
            for p, u in units.items():
                theirs.setdefault(u.power, []).append((p, u.location))
            memo = self._unordered_memo = (self.position, theirs, {})
        _position, theirs, known = memo
        out = {}
        for power in powers:
            entries = self.orders.get(power, ())
            hit = known.get(power)
            if hit is None or hit[0] is not entries:
                held = theirs.get(power, ())
                have = {book.entry_key(e.order, kind) for e in book.active(entries)} if held else ()
                hit = known[power] = (entries, sorted(loc for p, loc in held if ("unit", p) not in have))
            out[power] = list(hit[1])
        return out

    # ---- orders ------------------------------------------------------------------
    def submit(self, power: str, lines, now: datetime) -> list[Receipt]:
        """Take order lines for ``power``: each a :class:`Line` (or the parser's
        ``ParsedLine``) or a bare order. A line with an error, an order of the
        wrong phase, or an order the rules refuse (say why) is refused and changes
        nothing; a later order for a unit replaces the earlier one (``RULES.md`` §2).
        Returns one :class:`Receipt` per line that held an order or an error.
        Raises GameError when the game is over."""
        _check_time(now)
        self.check_running()
        power = self.power(power)
        receipts = []
        have = self.orders.get(power, ())
        if any(e.n is None for e in have):          # kept before entries were numbered: by their place
            have = tuple(e if e.n is not None else replace(e, n=i) for i, e in enumerate(have))
        arrival = max([self.replaced_log.next.get(power, 0), *(e.n + 1 for e in have)])
        entries = book.Book(book.trimmed(have), self.phase.kind, self._limits(power))
        for line in lines:
            if not hasattr(line, "input"):
                line = Line("", line)
            if line.error is not None:
                receipts.append(Receipt(line.input, None, line.error))
                continue
            # one line may hold several orders (北海舰队、挪威海舰队…运输…): each is taken
            for order in getattr(line, "orders", None) or (line.order,):
                if order is None:
                    continue
                why = self._refusal(power, order)
                if why:
                    receipts.append(Receipt(line.input, order, why))
                    continue
                gone = entries.add(OrderEntry(line.input, order, WRITTEN, False, now, arrival))
                arrival += 1
                receipts.append(Receipt(line.input, order, None, tuple(gone)))
        if power in self.orders or entries.entries:
            self.orders[power] = entries.entries
            self.replaced_log.next[power] = arrival
        if power in self.schedule.to_confirm and any(r.ok for r in receipts):
            # orders sent again after a ROLLBACK: they may be processed early (issue 13 point 1)
            self.schedule = replace(self.schedule, to_confirm=self.schedule.to_confirm - {power})
        return receipts

    def _limits(self, power: str) -> dict[str, int] | None:
        if self.phase.kind != "A":
            return None
        n = adjustments_due(self.map, self.position).get(power, 0)
        removals = max(-n, 0)
        if removals and self.settings.house.extra_removals:      # a power short may remove more (online rule)
            removals = len(self.position.units_of(power))
        return {"builds": max(n, 0), "removals": removals}

    def _refusal(self, power: str, order) -> Reason | None:
        """Why ``order`` cannot be taken from ``power`` now (a Reason), or None."""
        house, kind, pos = self.settings.house, self.phase.kind, self.position
        if isinstance(order, RetreatPreference):
            if not house.retreat_preferences:
                return game_refusal("retreat_lists_off")
            if kind == "A":
                return game_refusal("retreat_list_phase")
            units = pos.units if kind == "M" else {p: d.unit for p, d in pos.dislodged.items()}
            return self._not_own_unit(power, order, units, kind == "R")
        if isinstance(order, (BuildPriority, DisbandPriority)):
            return None if house.priority_lists else game_refusal("priority_lists_off")
        if kind == "M":
            if isinstance(order, MOVEMENT_ORDERS):
                return order_refusal(self.map, pos, power, order, self.settings.rule_options)
            if isinstance(order, ADJUSTMENT_ORDERS) and house.combined_orders:
                return self._combined_adjustment_refusal(power, order)
            if isinstance(order, ADJUSTMENT_ORDERS):
                return game_refusal("adjustment_in_winter")
            if isinstance(order, Retreat) and house.combined_orders:
                return game_refusal("retreat_as_list")
            if isinstance(order, Retreat):
                return game_refusal("retreat_in_retreat")
            return game_refusal("movement_phase", phase=pos.phase)
        if kind == "R":
            if isinstance(order, (Retreat, Disband, Move)):
                return _illegal(adjudicate_retreats(self.map, pos, {power: [order]}).results[0])
            return game_refusal("retreat_phase", phase=pos.phase)
        if isinstance(order, ADJUSTMENT_ORDERS):
            r = adjudicate_adjustments(self.map, pos, {power: [order]}, self.settings.rule_options).results[0]
            return None if r.outcome == SUCCEEDS else r.reason
        return game_refusal("adjustment_phase", phase=pos.phase)

    def _not_own_unit(self, power: str, order, units, dislodged: bool = False) -> Reason | None:
        """Refused when ``power`` has no unit (of ``units``) where ``order`` says."""
        prov = province_of(order.location)
        u = units.get(prov)
        if u is not None and u.power == power:
            return None
        if u is None:
            return Reason("no_dislodged_unit" if dislodged else "no_unit", province=prov)
        return Reason("not_your_unit", province=prov, power=u.power)

    def _combined_adjustment_refusal(self, power: str, order):
        """Combined-order mode (``RULES.md`` §3.5): adjustment orders come with the
        Fall movement orders; a build must name a home centre, a removal a unit
        of the power."""
        if self.phase.season != "F":
            return game_refusal("adjustment_with_fall")
        prov = province_of(order.location) if isinstance(order, (Build, Disband)) else None
        if isinstance(order, Build) and not self.map.may_build_in(power, prov):
            return Reason("not_home_centre" if self.map.build == "home" else "not_owned",
                          province=prov, power=power)
        if isinstance(order, Disband):
            return self._not_own_unit(power, order, self.position.units)
        return None

    # ---- adjudication ------------------------------------------------------------
    def process(self, now: datetime) -> list[PhaseRecord]:
        """Adjudicate the current phase and move on to the next phase with
        something to do (``RULES.md`` §1). In combined-order mode the retreat and
        adjustment phases that follow are adjudicated at once too. Then draw and
        concession votes expire and the end of the game is checked
        (:meth:`check_end`; see :attr:`finished`). Returns the new records (also
        appended to :attr:`history`). Raises GameError when the game is over."""
        _check_time(now)
        self.check_running()
        carried: dict[str, list[OrderEntry]] = {}
        out = [self._process_one(now, carried)]
        while self.settings.house.combined_orders and self.phase.kind != "M":
            out.append(self._process_one(now, carried))
        self.expire_votes()
        self.check_end(now)
        return out

    def _process_one(self, now: datetime, carried: dict[str, list[OrderEntry]]) -> PhaseRecord:
        before, kind, house = self.position, self.phase.kind, self.settings.house
        game_map, rules = self.map, self.settings.rule_options
        seed = f"{self.seed}:{before.phase}"
        rng = random.Random(seed)
        state = rng.getstate()
        logged = self.replaced_log.entries()
        entries = {p: book.trimmed(merged(logged.get(p, []), self.orders.get(p, ())))
                   + tuple(carried.get(p, ()) if kind == "A" else ()) for p in game_map.powers}
        standing = self._standing_now()
        if kind == "M":
            orders = self._written(entries, MOVEMENT_ORDERS)
            res = resolve.movement(game_map, before, orders, rules)
            if house.combined_orders:
                for p, es in entries.items():
                    carried[p] = [e for e in book.active(es) if isinstance(e.order, ADJUSTMENT_ORDERS)]
        elif kind == "R":
            orders = self._written(entries, (Retreat, Disband, Move))
            res = resolve.retreats(game_map, before, orders, standing, house,
                                   home_country(self.map_name), rng)
        else:
            orders = self._written(entries, ADJUSTMENT_ORDERS)
            res = resolve.adjustments(game_map, before, orders, standing, house, rules,
                                      home_country(self.map_name), rng)
        removals = house.combined_orders and any(isinstance(e.order, Disband)
                                                 for es in carried.values() for e in es)
        after = settle(game_map, res.position, removals_ordered=removals)
        record = PhaseRecord(
            before.phase, before,
            {p: es + tuple(res.made.get(p, ())) for p, es in entries.items() if es or res.made.get(p)},
            tuple(res.results), after, now, seed if rng.getstate() != state else None, self.press)
        self.press = ()                  # the phase's public press goes with its record
        self.history.append(record)
        self._carry_standing(after)
        self.position, self.orders, self.replaced_log = after, {}, ReplacedLog()
        return record

    @staticmethod
    def _written(entries: dict[str, tuple[OrderEntry, ...]], types) -> dict[str, list]:
        return {p: [e.order for e in book.active(es) if isinstance(e.order, types)]
                for p, es in entries.items()}

    def _standing_now(self) -> dict[str, resolve.Standing]:
        """Each power's standing lists: carried ones overlaid by this phase's."""
        out = {}
        for p in self.map.powers:
            lists = {}
            for e in book.active(self.standing.get(p, ()) + self.orders.get(p, ())):
                if book.is_standing(e.order):
                    lists[book.entry_key(e.order, "M")] = e.order
            out[p] = resolve.Standing(
                {k[1]: o for k, o in lists.items() if k[0] == "retreat list"},
                lists.get(("build list",)), lists.get(("disband list",)))
        return out

    def _carry_standing(self, after: Position) -> None:
        """Keep this phase's standing lists for later phases of the year: retreat
        lists until the retreat phase they serve is over, priority lists until the
        year's adjustments are over (``RULES.md`` §3.7)."""
        nxt = Phase.parse(after.phase)
        for p in self.map.powers:
            kept: dict[tuple, OrderEntry] = {}
            for e in book.active(self.standing.get(p, ()) + self.orders.get(p, ())):
                if book.is_standing(e.order):
                    kept[book.entry_key(e.order, "M")] = e
            kept = {k: e for k, e in kept.items()
                    if (k[0] != "retreat list" or nxt.kind == "R")
                    and not (nxt.season == "S" and nxt.kind == "M")}
            if kept:
                self.standing[p] = tuple(kept.values())
            else:
                self.standing.pop(p, None)

    # ---- storage -----------------------------------------------------------------
    def to_dict(self) -> dict:
        """Plain data (JSON-ready), the whole history included; :meth:`from_dict`
        gives back an equal game."""
        logged = self.replaced_log.entries()
        orders = {p: [e.to_dict() for e in merged(logged.get(p, []), self.orders.get(p, ()))]
                  for p in {*self.orders, *logged}}
        return dict(self.live_dict(), orders=orders, replaced=dict(self.replaced_log.to_dict(), index=None, size=0,
                                                                    count=0),
                    history=[r.to_dict() for r in self.history])

    def live_dict(self) -> dict:
        """:meth:`to_dict` without the history, which the store keeps apart
        (one record per phase): ``history_len`` says how many records there are."""
        return {
            "name": self.name, "map": self.map_name, "settings": self.settings.to_dict(),
            "seed": self.seed, "created": time_to_str(self.created),
            "players": {p: pl.to_dict() for p, pl in self.players.items()},
            "position": position_to_dict(self.position),
            "orders": {p: [dict(e.to_dict(), n=e.n) for e in es] for p, es in self.orders.items()},
            "replaced": self.replaced_log.to_dict(),
            "standing": {p: [e.to_dict() for e in es] for p, es in self.standing.items()},
            "history_len": len(self.history),
            "ending": self.ending.to_dict(),
            "schedule": self.schedule.to_dict(),
            "observers": dict(self.observers),
            "roster": [c.to_dict() for c in self.roster],
            "press": [dict(p) for p in self.press],
            **({"future": self.future} if self.future else {}),
        }

    @classmethod
    def from_dict(cls, data: dict, load_record=None) -> "Game":
        """Inverse of :meth:`to_dict`, or of :meth:`live_dict` with
        ``load_record(i)`` giving the ``i``-th record's plain data (read when
        first needed). Raises ValueError/KeyError on malformed data."""
        def entries(d):
            return {p: tuple(replace(OrderEntry.from_dict(e), n=e.get("n")) if "n" in e else OrderEntry.from_dict(e)
                             for e in es) for p, es in d.items()}
        return cls(
            data["name"], data["map"], Settings.from_dict(data["settings"]), data["seed"],
            time_from_str(data["created"]),
            {p: Player.from_dict(pl) for p, pl in data["players"].items()},
            position_from_dict(data["position"]), entries(data.get("orders", {})),
            entries(data.get("standing", {})),
            _history(data, load_record),
            EndState.from_dict(data.get("ending", {})),
            schedule=Schedule.from_dict(data.get("schedule", {})),
            observers=dict(data.get("observers", {})),
            roster=tuple(Change.from_dict(c) for c in data.get("roster", ())),
            press=tuple(dict(p) for p in data.get("press", ())),
            future=dict(data.get("future", {})),
            replaced_log=ReplacedLog.from_dict(data.get("replaced")),
        )


def _history(data: dict, load_record) -> History:
    if "history" in data:
        return History(PhaseRecord.from_dict(r) for r in data["history"])
    count = int(data.get("history_len", 0))
    if count and load_record is None:
        raise ValueError("the game's history is stored apart: give load_record")
    return History(count=count, load=lambda i: PhaseRecord.from_dict(load_record(i)))


def _illegal(result) -> Reason | None:
    return result.reason if result.outcome == ILLEGAL else None


def _check_time(now: datetime) -> None:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise GameError("naive_time", what="now")
