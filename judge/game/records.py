"""The records a game keeps: players, order entries and the phase history.

All are frozen; the game replaces them rather than changing them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..rules.orders import Result
from ..rules.position import Position
from .codec import (
    order_from_dict, order_to_dict, position_from_dict, position_to_dict,
    result_from_dict, result_to_dict, time_from_str, time_to_str,
)

WRITTEN = "written"   # the player wrote it
LIST = "list"         # the judge took it from the player's standing list (RULES.md §3.1-3.2)
DEFAULT = "default"   # the judge chose it by the game's NMR default (RULES.md §3.3-3.4)
SOURCES = (WRITTEN, LIST, DEFAULT)


@dataclass(frozen=True)
class Player:
    """Who plays one power. ``addresses``: mail addresses, the first the
    leader's (元首, the address of record), the others advisors' (幕僚, added
    by the leader with ``ADVISOR ADD``; Appendix 2: they help the leader and
    score nothing); ``no_mail``: the advisors who do not get the power's mail
    (the leader's choice); ``password_hash``: a hash, never the password (None:
    none set); ``language``: ``"en"``, ``"zh-hans"`` or ``"zh-hant"``. A vacant
    power has no addresses."""

    addresses: tuple[str, ...] = ()
    password_hash: str | None = None
    language: str = "en"
    no_mail: tuple[str, ...] = ()

    @property
    def leader(self) -> str | None:
        return self.addresses[0] if self.addresses else None

    @property
    def advisors(self) -> tuple[str, ...]:
        return self.addresses[1:]

    @property
    def mailed(self) -> tuple[str, ...]:
        """The addresses that get the power's mail: the leader's and those of
        the advisors who get it."""
        return tuple(a for a in self.addresses if a not in self.no_mail)

    def to_dict(self) -> dict:
        out = {"addresses": list(self.addresses), "password_hash": self.password_hash,
               "language": self.language}
        if self.no_mail:
            out["no_mail"] = list(self.no_mail)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Player":
        return cls(tuple(data.get("addresses", ())), data.get("password_hash"),
                   data.get("language", "en"), tuple(data.get("no_mail", ())))


@dataclass(frozen=True)
class OrderEntry:
    """One order as kept by the game: ``text`` as written (``""`` when the judge
    made it), ``order`` the canonical order or standing order, ``source`` one of
    :data:`SOURCES`, ``replaced`` when a later order for the same unit (or list)
    took its place, ``received`` the UTC time it arrived (None for the judge's),
    ``n`` its arrival number (not compared, not recorded)."""

    text: str
    order: object
    source: str = WRITTEN
    replaced: bool = False
    received: datetime | None = None
    n: int | None = field(default=None, compare=False, repr=False)
    """Its place in the power's arrival order in the phase (kept in the live
    state only: :mod:`judge.game.replaced`)."""

    def to_dict(self) -> dict:
        return {"text": self.text, "order": self._order_dict(), "source": self.source,
                "replaced": self.replaced, "received": time_to_str(self.received)}

    def _order_dict(self) -> dict:
        """``order_to_dict(self.order)``, new each time (dict and lists); one
        of plain values and lists of strings (a move's route) is made once
        and copied after (issue 23: a game's current entries are written again
        with every mail; the entry is frozen, its order too)."""
        kept = self.__dict__.get("_order_data")
        if kept is not None:
            return {k: v.copy() if type(v) is list else v for k, v in kept.items()}
        data = order_to_dict(self.order)
        if all(type(v) is list and all(type(x) is str for x in v) or not isinstance(v, (list, dict))
               for v in data.values()):
            self.__dict__["_order_data"] = {k: v.copy() if type(v) is list else v for k, v in data.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "OrderEntry":
        return cls(data["text"], order_from_dict(data["order"]), data.get("source", WRITTEN),
                   data.get("replaced", False), time_from_str(data.get("received")))


@dataclass(frozen=True)
class PhaseRecord:
    """One adjudicated phase, never changed afterwards.

    ``orders``: ``{power: [OrderEntry]}`` — every order the players wrote for the
    phase (replaced ones included, in arrival order: the last
    :data:`judge.game.book.MAX_REPLACED` of each power), then the orders the judge
    took from standing lists or defaults. ``results``: the adjudicator's results
    in the order the orders were given, then its own (units without orders,
    civil disorder). ``position_after`` carries the SC ownership after the phase
    (updated after Fall). ``random_seed``: the seed string of the phase's random
    generator when a random choice was made (``RULES.md`` §3.6), else None.
    ``press``: the public press (broadcasts) sent during the phase, oldest
    first: ``{"at": UTC ISO time, "sender": power or None (the GM), "grey":
    bool, "text": str}`` each.
    """

    phase: str
    position_before: Position
    orders: dict[str, tuple[OrderEntry, ...]]
    results: tuple[Result, ...]
    position_after: Position
    processed_at: datetime
    random_seed: str | None = None
    press: tuple[dict, ...] = ()

    @property
    def sc_owners(self) -> dict[str, str]:
        return self.position_after.sc_owners

    def to_dict(self) -> dict:
        return {
            "phase": self.phase,
            "position_before": position_to_dict(self.position_before),
            "orders": {p: [e.to_dict() for e in es] for p, es in self.orders.items()},
            "results": [result_to_dict(r) for r in self.results],
            "position_after": position_to_dict(self.position_after),
            "processed_at": time_to_str(self.processed_at),
            "random_seed": self.random_seed,
            **({"press": [dict(p) for p in self.press]} if self.press else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "PhaseRecord":
        return cls(
            data["phase"], position_from_dict(data["position_before"]),
            {p: tuple(OrderEntry.from_dict(e) for e in es) for p, es in data["orders"].items()},
            tuple(result_from_dict(r) for r in data["results"]),
            position_from_dict(data["position_after"]),
            time_from_str(data["processed_at"]), data.get("random_seed"),
            tuple(dict(p) for p in data.get("press", ())),
        )
