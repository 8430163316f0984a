"""Why the game refuses an order, as a reason code.

The rules core says why an order is illegal on the board (a
:class:`~judge.rules.reasons.Reason`, codes in :mod:`judge.rules.reasons`).
The game refuses some orders for its own reasons too (the phase, the house
rules of ``RULES.md`` §3): Reasons with the game's own codes, worded by the
text layer (:data:`judge.text.reasons.TEXTS`):

======================== ==================================================
``retreat_lists_off``    the game does not use standing retreat lists (§3.1)
``retreat_list_phase``   a retreat list is sent with movement orders (§3.1)
``priority_lists_off``   the game does not use priority lists (§3.2)
``adjustment_in_winter`` builds and removals wait for the Winter phase
``adjustment_with_fall`` combined orders: they come with the Fall orders (§3.5)
``retreat_as_list``      combined orders: a retreat is a retreat list (§3.5)
``retreat_in_retreat``   retreats wait for a retreat phase
``movement_phase``       phase (``S1901M``): only hold, move, support, convoy
``retreat_phase``        phase: only retreat or disband
``adjustment_phase``     phase: only builds, removals, waives
``order_word``           a misspelt order word at the start of a line (``text``, ``word``)
======================== ==================================================
"""

from __future__ import annotations

import difflib

from ..notation.lexicon import EN_WORDS
from ..rules.reasons import Reason

ORDER_WORDS = {"M": ("Hold", "Move", "Support", "Convoy"), "R": ("Retreat", "Disband"),
               "A": ("Build", "Remove", "Disband", "Waive")}
"""The order words of each kind of phase, for :func:`misspelt_order_word`."""


def misspelt_order_word(line: str, phase_kind: str, names) -> Reason | None:
    """``order_word`` when the first word of ``line`` is no province
    (``names``: a NameIndex) but close to an order word of the phase
    (``Biuld F Kie`` -> Build); else None."""
    words = line.split()
    if not words or len(words[0]) < 4 or words[0].lower() in EN_WORDS or names.province(words[0]) is not None:
        return None
    choices = {w.lower(): w for w in ORDER_WORDS.get(phase_kind, ())}
    hits = difflib.get_close_matches(words[0].lower(), list(choices), n=1, cutoff=0.6)
    return Reason("order_word", text=words[0], word=choices[hits[0]]) if hits else None


def game_refusal(code: str, **params) -> Reason:
    """One of the game's own reasons (codes in the module doc)."""
    return Reason(code, **params)
