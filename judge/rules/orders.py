"""Order types and order results (field terms: hold, move, support, convoy,
retreat, disband, build, waive).

Orders are frozen dataclasses. ``unit_type`` is ``"A"``, ``"F"`` or ``None`` (the
player did not say); locations are map locations (``"par"``, ``"spa/nc"``).
An order does not carry its power: the adjudicators take ``{power: [Order]}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .reasons import Reason


@dataclass(frozen=True, slots=True)
class Hold:
    unit_type: str | None
    location: str


@dataclass(frozen=True, slots=True)
class Move:
    """A move; for an army, ``via_convoy`` states the intent to be convoyed
    (DATC 4.A.3) and ``route`` optionally names the convoying seas in order."""

    unit_type: str | None
    location: str
    destination: str
    via_convoy: bool = False
    route: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Support:
    """Support to hold (``destination is None``) or to move into ``destination``."""

    unit_type: str | None
    location: str
    supported_type: str | None
    supported_location: str
    destination: str | None = None


@dataclass(frozen=True, slots=True)
class Convoy:
    unit_type: str | None
    location: str
    army_location: str
    destination: str
    army_type: str | None = "A"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit_type: str | None
    location: str
    destination: str


@dataclass(frozen=True, slots=True)
class Disband:
    """A disband in a retreat phase, or a removal in an adjustment phase."""

    unit_type: str | None
    location: str


@dataclass(frozen=True, slots=True)
class Build:
    unit_type: str | None
    location: str


@dataclass(frozen=True, slots=True)
class Waive:
    """Give up one build."""


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive

# ---- outcomes ------------------------------------------------------------------
SUCCEEDS = "succeeds"
FAILS = "fails"
ILLEGAL = "illegal"   # impossible on this map or for this unit: the unit holds
VOID = "void"         # possible, but does not match the order it refers to, or was replaced

# reasons a legal order fails (codes of judge.rules.reasons)
BOUNCED = Reason("bounced")
CUT = Reason("cut")
DISLODGED = Reason("dislodged")
DISRUPTED = Reason("disrupted")
NO_CONVOY = Reason("no_convoy")
NO_ORDER = Reason("no_order")     # the result given to a unit left without an order
CIVIL_DISORDER = Reason("civil_disorder")


class Result(NamedTuple):
    """What became of one order.

    ``outcome`` is :data:`SUCCEEDS`, :data:`FAILS`, :data:`ILLEGAL` or :data:`VOID`;
    ``reason`` (a :class:`~judge.rules.reasons.Reason`, codes in that module)
    says why it failed (:data:`BOUNCED`, :data:`CUT`, :data:`DISRUPTED`,
    :data:`NO_CONVOY`, ...) or why it is ILLEGAL/VOID; ``dislodged`` is set
    when the ordered unit was dislodged in this phase; ``destroyed`` when it was
    dislodged with no retreat or disbanded in civil disorder.
    """

    power: str
    order: Order | None
    outcome: str
    reason: Reason | None = None
    dislodged: bool = False
    destroyed: bool = False
    # a NamedTuple, not a frozen dataclass: adjudication makes one per order and
    # tuple construction is three times faster (benchmarks/adjudicate.py)

    @property
    def ok(self) -> bool:
        return self.outcome == SUCCEEDS


# ---- standing orders (house rules, RULES.md §3) ------------------------------------
@dataclass(frozen=True, slots=True)
class RetreatPreference:
    """A standing retreat list given with movement orders (``RULES.md`` §3.1): if
    the unit at ``location`` is dislodged, it retreats to the first legal one of
    ``destinations``."""

    unit_type: str | None
    location: str
    destinations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuildPriority:
    """A build priority list (``RULES.md`` §3.2): builds tried in order, as many
    as the power may make."""

    builds: tuple[Build, ...]


@dataclass(frozen=True, slots=True)
class DisbandPriority:
    """A disband priority list (``RULES.md`` §3.2): removals in order, as many as due."""

    disbands: tuple[Disband, ...]


StandingOrder = RetreatPreference | BuildPriority | DisbandPriority
