"""The words of one reader: a map's names in a language and a name set,
phases, units, orders, lists, times and reasons — what every template and
every text of the judge asks for (``w.power("France")`` -> ``法国``).
"""

from __future__ import annotations

from datetime import datetime

from ..notation.format import format_order
from ..rules.phase import Phase
from .catalogue import C_, N_, check_lang, gettext, lang_of, ngettext, translations
from .dates import format_deadline, format_length, format_time
from .names import Names

SEASONS = {"S": N_("Spring"), "F": N_("Fall"), "W": N_("Winter")}
KINDS = {"M": N_("Movement"), "R": N_("Retreat"), "A": N_("Adjustment")}
UNIT_TYPES = {"A": N_("army"), "F": N_("fleet")}
JOINS = (N_("and"), N_("or"), C_("question", "or"))
"""The words before a list's last item (:meth:`Words.join`); an "or" in a
question is translated apart (context ``question``)."""
"""Unit types as words (in Chinese the unit word after a place: 巴黎陆军)."""


def phase_title(phase: str, lang: str = "en") -> str:
    """``"S1901M"`` -> ``"Spring 1901 Movement"`` / ``"1901年春季移动回合"``.
    Raises ValueError for a bad phase name."""
    _ = gettext(check_lang(lang_of(lang)))
    p = Phase.parse(phase)
    return _("%(season)s %(year)s %(kind)s") % {"season": _(SEASONS[p.season]), "year": p.year,
                                                 "kind": _(KINDS[p.kind])}


class Words:
    """Words for one reader: ``map_name``'s names in ``lang`` (``en``,
    ``zh-hans``, ``zh-hant``) and name set ``names`` (``house`` or
    ``standard``, :mod:`.names`). Lists come back as lists (join them with
    :meth:`join`)."""

    def __init__(self, map_name: str = "standard", lang: str = "en", names: str | None = None):
        self.lang = check_lang(lang_of(lang))
        self.map_name = map_name
        self.names = Names(map_name, self.lang, names)
        self.gettext = gettext(self.lang)
        self.ngettext = ngettext(self.lang)
        self.pgettext = translations(self.lang).pgettext
        self.zh = self.lang != "en"

    def __call__(self, msgid: str, **params) -> str:
        """``msgid`` translated, formatted with ``params`` (``%(name)s``)."""
        text = self.gettext(msgid)
        return text % params if params else text

    # ---- names -----------------------------------------------------------------
    def power(self, power: str) -> str:
        return self.names.power_name(power)

    def powers(self, powers) -> list[str]:
        return [self.power(p) for p in powers]

    def province(self, code: str) -> str:
        return self.names.province_name(code)

    def provinces(self, codes) -> list[str]:
        return [self.province(c) for c in codes]

    def locations(self, locs) -> list[str]:
        return [self.location(loc) for loc in locs]

    def location(self, loc: str) -> str:
        """A province or coast location: ``St. Petersburg (north coast)`` / ``圣彼得堡北岸``."""
        return self.names.location_name(loc)

    def coast(self, loc: str) -> str:
        """The coast of a location by its name: ``north coast (StP/nc)`` / ``北岸``."""
        prov, _, coast = loc.partition("/")
        if not coast:
            return self.province(prov)
        name = self.names.coast_name(coast)
        return name if self.zh else f"{name} ({self.names.location_abbr(loc)})"

    def unit(self, unit) -> str:
        """``("F", "stp/sc")`` or ``"F stp/sc"`` -> ``F StP/sc`` / ``圣彼得堡南岸舰队``."""
        unit_type, loc = unit.split(" ", 1) if isinstance(unit, str) else unit
        if not self.zh:
            return f"{unit_type} {self.names.location_abbr(loc)}" if unit_type else self.names.location_abbr(loc)
        return self.location(loc) + (self(UNIT_TYPES[unit_type]) if unit_type in UNIT_TYPES else "")

    def units(self, units) -> list[str]:
        return [self.unit(u) for u in units]

    def unit_type(self, unit_type: str) -> str:
        """``A`` -> ``army`` / ``陆军``."""
        return self(UNIT_TYPES[unit_type]) if unit_type in UNIT_TYPES else unit_type

    def phase(self, phase: str) -> str:
        """``S1901M`` -> ``Spring 1901 Movement`` / ``1901年春季移动回合``."""
        return phase_title(phase, self.lang)

    def order(self, order) -> str:
        """An order in canonical form (:func:`judge.notation.format.format_order`)."""
        return format_order(order, self.names, self.lang)

    def orders(self, orders) -> list[str]:
        return [self.order(o) for o in orders]

    # ---- lists, numbers, times -------------------------------------------------
    def join(self, items, last: str | None = None, question: bool = False) -> str:
        """``a, b, c`` / ``a、b、c``; with ``last`` (``"and"``, ``"or"``):
        ``a, b and c`` / ``a、b和c``; an ``"or"`` in a ``question``:
        ``a、b还是c``."""
        items = [str(i) for i in items]
        if last is None or len(items) < 2:
            return ("、" if self.zh else ", ").join(items)
        word = self.pgettext("question", last) if question else self(last)
        if self.zh:
            return "、".join(items[:-1]) + word + items[-1]
        return ", ".join(items[:-1]) + f" {word} " + items[-1]

    def number(self, x: float) -> str:
        """``3``, ``2.50``."""
        return str(int(x)) if float(x).is_integer() else f"{x:.2f}"

    def time(self, dt: datetime, tz: str = "UTC") -> str:
        return format_time(dt, tz, self.lang)

    def deadline(self, dt: datetime, tz: str = "UTC") -> str:
        return format_deadline(dt, tz, self.lang)

    def length(self, seconds: float) -> str:
        """``6 minutes``, ``2 hours`` / ``6分钟``."""
        return format_length(seconds, self.lang)

    # ---- reasons -----------------------------------------------------------------
    def reason(self, thing) -> str:
        """Why: a rules core :class:`~judge.rules.reasons.Reason` or
        :class:`~judge.rules.reasons.RuleError`, a
        :class:`~judge.game.errors.GameError`, a parser diagnostic, or any
        exception, in these words (:func:`judge.text.reasons.say`)."""
        from .reasons import say
        return say(thing, self)
