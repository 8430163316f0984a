"""Names in the reader's words: powers, provinces, coasts and locations of a
map in one language and one *name set*.

A name set says which spelling the judge writes (input reads every spelling
whatever the set, :mod:`judge.notation.names`):

- ``standard``: the names of the map's ``names.json``;
- ``house``: the rule texts' own transliterations, from the map's
  ``name_sets.json`` — in simplified characters those of the house-rules
  text (``rules-zh-hans-with-appendices.txt``: 布瑞斯特, 伯干第, 俄罗斯...), in
  traditional ones those of the classic text (``rules-zh-hant.txt``: 布列斯特,
  伯乾第...); a place neither text names keeps its standard name.

English names are the same in every set. The GM chooses a game's set
(``names=house|standard``; games created in Chinese default to ``house``),
a player may choose his own (``SET NAMES``).
"""

from __future__ import annotations

from functools import lru_cache

from ..maps import load_map, load_names, map_dir, read_json
from ..notation.names import NameIndex, name_index
from .catalogue import lang_of

NAME_SETS = ("house", "standard")
DEFAULT_SET = "standard"


@lru_cache(maxsize=16)
def load_name_sets(map_name: str) -> dict:
    """``{set: {"zh_hans"|"zh_hant": {"powers": {...}, "provinces": {...}}}}``
    from ``maps/<map>/name_sets.json`` (``{}`` when the map has none)."""
    path = map_dir(map_name) / "name_sets.json"
    if path.exists():
        return read_json(path).get("sets", {})
    base = read_json(map_dir(map_name) / "names.json").get("use")     # a variant on another map's board
    return load_name_sets(base) if isinstance(base, str) and base != map_name else {}


def drawn_names(map_name: str, lang: str, names: str | None) -> dict:
    """The Chinese names of name set ``names`` for ``lang`` that a map picture
    draws instead of the map's (``{"provinces": ..., "powers": ...}``;
    empty in English), for :func:`judge.render.render_svg`'s ``own_names``."""
    script = {"zh-hans": "zh_hans", "zh-hant": "zh_hant"}.get(lang_of(lang))
    return load_name_sets(map_name).get(name_set(names), {}).get(script, {}) if script else {}


def name_set(value: str | None) -> str:
    """``value`` if it is a name set, else :data:`DEFAULT_SET`."""
    return value if value in NAME_SETS else DEFAULT_SET


class Names:
    """Display names of one map (``map_name``) in ``lang`` and name set
    ``names``. It has the display methods of a
    :class:`~judge.notation.names.NameIndex` (``power_name``,
    ``province_name``, ``coast_name``, ``location_name``, ``location_abbr``;
    their ``lang`` argument is ignored: the names are this object's), so
    :func:`judge.notation.format.format_order` writes orders with it."""

    def __init__(self, map_name: str, lang: str, names: str | None = None):
        self.map_name, self.lang, self.set = map_name, lang_of(lang), name_set(names)
        self.index: NameIndex = name_index(load_map(map_name), load_names(map_name))
        script = {"zh-hans": "zh_hans", "zh-hant": "zh_hant"}.get(self.lang)
        own = load_name_sets(map_name).get(self.set, {}).get(script, {}) if script else {}
        self._powers, self._provinces = own.get("powers", {}), own.get("provinces", {})

    def power_name(self, power: str, lang: str | None = None) -> str:
        return self._powers.get(power) or self.index.power_name(power, self.lang)

    def province_name(self, code: str, lang: str | None = None) -> str:
        return self._provinces.get(code) or self.index.province_name(code, self.lang)

    def coast_name(self, coast: str, lang: str | None = None) -> str:
        return self.index.coast_name(coast, self.lang)

    def location_name(self, location: str, lang: str | None = None) -> str:
        """``"stp/nc"`` -> ``"St. Petersburg (north coast)"`` / ``"圣彼得堡北岸"``."""
        prov, _, coast = location.partition("/")
        name = self.province_name(prov)
        if not coast:
            return name
        if self.lang == "en":
            return f"{name} ({self.coast_name(coast)})"
        return name + self.coast_name(coast)

    def location_abbr(self, location: str) -> str:
        """``"stp/nc"`` -> ``"StP/nc"`` (canonical English, the same in every set)."""
        return self.index.location_abbr(location)
