"""Why: a reason code with parameters, never a sentence.

The rules core says why an order is ILLEGAL, VOID or FAILS, and why it
refuses a request (an alliance with oneself, a self-vote), as a
:class:`Reason`: a stable ``code`` and JSON-safe ``params`` (province and
location codes, power names, unit types ``A``/``F``, numbers, lists of
those). The words are the text layer's (``judge.text``), in the reader's
language; nothing here is English for a player, and nothing is read back
from text.

Codes and their params (``unit`` is ``"F stp/sc"``: type and location):

Failures of a legal order (outcome FAILS; the first few have no params)

``bounced``, ``cut``, ``dislodged``, ``disrupted``, ``no_convoy``;
``no_order`` (the hold or disband given to a unit left without an order);
``civil_disorder`` (a removal the rules chose); ``coast_needed`` (a build:
province, coasts).

Illegal orders (ILLEGAL: the unit holds, DATC 4.E.1)

================================ ===============================================
``wrong_phase``                  order (kind: ``retreat``, ``build``...), phase_kind
``no_unit``                      province
``not_your_unit``                province, power (the owner)
``wrong_unit_type``              province, written, actual (``A``/``F``)
``no_dislodged_unit``            province
``unknown_location``             location (not on the map)
``own_province``                 province
``army_cannot_go``               province (not land)
``cannot_reach``                 unit, destination (province or coast location)
``coast_needed``                 province, coasts; unit for a move
``no_convoy_fleets``             origin, destination (DATC 6.D.32)
``support_itself``               —
``support_only_through``         origin, destination, province (DATC 6.D.31)
``convoy_not_at_sea``            —
``no_army_to_convoy``            province
``not_on_convoy_route``          province (the fleet's sea), origin, destination
``cannot_retreat``               unit, destination
``retreat_not_adjacent``         unit, destination, retreats (the places it may retreat to)
``retreat_attacker``             unit, destination, retreats (the attack came from there)
``retreat_occupied``             unit, destination, retreats
``retreat_standoff``             unit, destination, retreats (left empty by a standoff)
``no_builds``                    power
``builds_used_up``               count (builds due, all ordered already)
``not_home_centre``              province, power
``not_owned``                    province, power
``occupied``                     province
``unit_type_needed``             province (a build names no unit type)
``impossible_unit``              unit_type, province (a fleet inland)
``no_removals``                  power
``removals_used_up``             count
================================ ===============================================

Void orders (VOID: possible, but not matching the order they name)

================================ ===============================================
``replaced``                     — (a later order for the same unit took its place)
``no_convoy_ordered``            origin, destination (an army move by convoy)
``convoy_not_matched``           province (the army's), destination
``supported_no_unit``            province
``supported_wrong_type``         province, written (``A``/``F``)
``supported_moves``              province (a support to hold of a unit that moves)
``support_not_matched``          province, destination
``support_other_coast``          province, location (ordered), written (location)
================================ ===============================================

Refusals (:class:`RuleError`): see :mod:`.victory` and :mod:`.scoring`; the
codes start with the module's subject (``ally_self``, ``not_surviving``,
``draw_too_small``, ``self_vote``...), and the end of a game has its
reasons too (``solo``... in :class:`~.victory.VictoryResult`).
"""

from __future__ import annotations


def _frozen(value):
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def _plain(value):
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


class Reason:
    """A reason code with parameters: ``Reason("cannot_reach", unit="F lon",
    destination="mun")``. Equal, and hashed alike, when code and params are;
    lists in params are kept as tuples. :meth:`to_dict` / :meth:`from_dict`
    give and read its JSON form ``{"code": ..., param: value, ...}``."""

    __slots__ = ("code", "params", "_key")

    def __init__(self, code: str, **params):
        self.code = code
        self.params = {k: _frozen(v) for k, v in params.items()}
        self._key = (code, tuple(sorted(self.params.items())))

    def __eq__(self, other) -> bool:
        return isinstance(other, Reason) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Reason({self.code!r}{args})"

    def to_dict(self) -> dict:
        return {"code": self.code, **{k: _plain(v) for k, v in self.params.items()}}

    @classmethod
    def from_dict(cls, data: dict) -> "Reason":
        """Inverse of :meth:`to_dict`; KeyError without ``code``."""
        params = dict(data)
        return cls(params.pop("code"), **params)


class RuleError(ValueError):
    """A request the rules core refuses, with its :class:`Reason` in
    ``reason`` (``code``/``params`` for short). ``str()`` is the reason's
    ``repr``, for logs: the words are the text layer's."""

    def __init__(self, code: str, **params):
        self.reason = Reason(code, **params)
        super().__init__(repr(self.reason))

    @property
    def code(self) -> str:
        return self.reason.code

    @property
    def params(self) -> dict:
        return self.reason.params

    def __reduce__(self):
        return (_rule_error, (self.reason.code, self.reason.params))


def _rule_error(code: str, params: dict) -> RuleError:
    return RuleError(code, **params)


REPLACED = Reason("replaced")
"""A VOID order: a later order for the same unit took its place."""

_ORDER_KINDS = {"Hold": "hold", "Move": "move", "Support": "support", "Convoy": "convoy",
                "Retreat": "retreat", "Disband": "disband", "Build": "build", "Waive": "waive",
                "RetreatPreference": "retreat_pref", "BuildPriority": "build_pri",
                "DisbandPriority": "disband_pri"}


def wrong_phase(order, phase_kind: str) -> Reason:
    """An order given in a phase where it has no place (``phase_kind`` ``M``/``R``/``A``)."""
    return Reason("wrong_phase", order=_ORDER_KINDS.get(type(order).__name__, "hold"), phase_kind=phase_kind)


def unit_code(unit_type: str, location: str) -> str:
    """A unit as reasons name it: ``"F stp/sc"``."""
    return f"{unit_type} {location}"
