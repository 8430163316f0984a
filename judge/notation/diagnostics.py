"""Why a line could not be read: :class:`Diagnostic`, in English and Chinese.

A diagnostic is data: a stable ``code`` and JSON-safe ``params`` (province,
location, coast and power codes). Its words, in English and Chinese, are the
text layer's (:data:`judge.text.reasons.TEXTS`, the one catalogue), which
names the codes in the reader's language and name set. Codes and their params:

==================== =============================================================
``unknown_province`` text, suggestions (English names), suggestion_codes
``unknown_word``     text
``ambiguous_province`` text, candidates (province codes)
``unknown_coast``    text, province, coasts (locations of the province)
``coast_needed``     province, coasts (the coasts the unit could reach or use)
``coast_impossible`` province, coast (the coast code written), coasts (those that exist)
``incomplete``       expected (``order``/``location``/``destination``/``unit``), after
``unexpected``       text
``several_units``    order (one unit only may move or retreat)
``no_unit``          province
``no_dislodged_unit`` province
``wrong_unit_type``  province, written, actual (``A``/``F``)
``not_your_unit``    province, power (the owner)
``impossible_unit``  unit_type, province (an army at sea, a fleet inland)
``unit_type_needed`` province (a build must say army or fleet)
``wrong_phase``      order (kind, see :data:`ORDER_KINDS`), phase_kind (``M``/``R``/``A``)
``route_not_allowed`` reason (``fleet``/``retreat``)
``route_not_sea``    province
``occupied``         province
``not_home_centre``  province, power
``not_owned``        province, power
``wrong_power``      power (named on the line), expected_power (whose orders these are)
==================== =============================================================

Legality, from :func:`judge.notation.legal.check_legal` (the rules core's reasons;
``unit`` is ``"F stp/sc"``, type and location, shown as ``F StP/sc`` / 圣彼得堡南岸舰队):

======================== =========================================================
``cannot_reach``         unit, destination (a province or a coast location)
``own_province``         province
``army_cannot_go``       province (not land)
``support_itself``       —
``no_convoy_fleets``     origin, destination (no fleets where a convoy could go, DATC 6.D.32)
``convoy_not_at_sea``    — (only a fleet in a sea convoys)
``no_army_to_convoy``    province
``not_on_convoy_route``  province (the fleet's sea), origin, destination
``support_only_through`` origin, destination, province (DATC 6.D.31)
``cannot_retreat``       unit, destination
``no_builds``            power
``no_removals``          power
``illegal``              text (a code with no words)
======================== =========================================================

Notes (``ParsedLine.notes``: the order was read, but the player should know):

========================= ========================================================
``unit_coast_corrected``  province, written_coast, coast (the unit's real coast;
                          the written one is ignored, DATC 6.B.10)
``unit_word_for_fleet``   province (a word for soldiers, 兵/军队, written for a
                          fleet: read as the fleet's order)
``chatter``               text (the line as typed): talk, not an order, passed
                          over (``ParsedLine.kind == "chatter"``)
========================= ========================================================

Words the player wrote (``text``, ``after``) are quoted as typed, traditional
characters kept (``Token.shown``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .names import NameIndex, lang_key

@dataclass(frozen=True)
class Diagnostic:
    """Why a line was not read. ``code`` is stable (see the module doc);
    ``params`` holds the details, JSON-safe."""

    code: str
    params: dict = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        """The diagnostic as a sentence in ``"en"``, ``"zh-hans"`` or
        ``"zh-hant"`` (standard names): the text layer's words
        (:data:`judge.text.reasons.TEXTS`), asked for here for convenience."""
        from ..text import Words       # the words are the text layer's
        return Words("standard", lang_key(lang)).reason(self)


def diagnostic(code: str, names: NameIndex, **params) -> Diagnostic:
    """A :class:`Diagnostic` of ``code`` with ``params`` (codes, not names:
    the text layer names them in the reader's language and name set).
    ``names`` is the map's NameIndex the codes belong to."""
    return Diagnostic(code, params)
