"""Names of provinces, coasts and powers as players write them.

Built from a map's ``names.json`` (format in ``maps/README.md``): English names,
codes and aliases, Chinese names (simplified, traditional and variants). Lookups
are case-, width- and punctuation-insensitive (:func:`judge.rules.map.normalise_name`).
"""

from __future__ import annotations

import difflib
import re

from ..rules.map import Map, MapError, normalise_name

_COAST_SUFFIX = re.compile(
    r"^(?P<prov>.+?)\s*(?:/|\(|\s)\s*(?P<coast>[a-z. ]+?)\s*\)?\s*$", re.IGNORECASE)


class NameIndex:
    """Name lookups for one map.

    ``provinces``: normalised name -> province code; ``coasts``: normalised coast
    word -> coast code (``"north"`` -> ``"nc"``); ``powers``: normalised -> power.
    Raises :class:`MapError` if two provinces share a name after normalisation.
    """

    def __init__(self, game_map: Map, names: dict, source: str = "names.json"):
        self.map = game_map
        self.provinces: dict[str, str] = {}
        self.coasts: dict[str, str] = {}
        self.powers: dict[str, str] = {}
        self.english: dict[str, str] = {}
        self.chinese: dict[str, tuple[str, str]] = {}
        self.power_names: dict[str, dict] = {}
        self.coast_names: dict[str, dict] = names.get("coasts", {})
        provs = names.get("provinces", {})
        for code in game_map.provinces:
            if code not in provs:
                raise MapError(source, f"provinces.{code}", "no names given for this province")
        for code, entry in provs.items():
            if code not in game_map.provinces:
                raise MapError(source, f"provinces.{code}", "not a province of the map")
            self.english[code] = entry.get("en", code)
            self.chinese[code] = (entry.get("zh_hans", code), entry.get("zh_hant", entry.get("zh_hans", code)))
            words = [code, entry.get("en", "")] + list(entry.get("aliases", ()))
            words += [entry.get("zh_hans", ""), entry.get("zh_hant", "")] + list(entry.get("zh_aliases", ()))
            for w in words:
                self._add(self.provinces, w, code, source, f"provinces.{code}")
        for code, entry in self.coast_names.items():
            for w in [code, entry.get("en", "")] + list(entry.get("aliases", ())) + \
                     [entry.get("zh_hans", ""), entry.get("zh_hant", "")] + list(entry.get("zh_aliases", ())):
                self._add(self.coasts, w, code, source, f"coasts.{code}")
        for power in game_map.powers:
            entry = names.get("powers", {}).get(power, {})
            self.power_names[power] = entry
            for w in [power, entry.get("en", "")] + list(entry.get("aliases", ())) + \
                     [entry.get("zh_hans", ""), entry.get("zh_hant", "")] + list(entry.get("zh_aliases", ())):
                self._add(self.powers, w, power, source, f"powers.{power}")

    @staticmethod
    def _add(table: dict, word: str, value: str, source: str, key: str) -> None:
        k = normalise_name(word)
        if not k:
            return
        if table.get(k, value) != value:
            raise MapError(source, key, f"name {word!r} is also used for {table[k]!r}")
        table[k] = value

    # ---- lookups ---------------------------------------------------------------
    def province(self, text: str) -> str | None:
        """Province code for ``text`` or None."""
        return self.provinces.get(normalise_name(text))

    def power(self, text: str) -> str | None:
        return self.powers.get(normalise_name(text))

    def location(self, text: str) -> str | None:
        """``"spain(nc)"``, ``"spa/nc"``, ``"St Petersburg north coast"`` ->
        ``"spa/nc"``; a plain province name -> its code. None if unknown, or if a
        coast is named that the province does not have."""
        prov = self.province(text)
        if prov:
            return prov
        m = _COAST_SUFFIX.match(text.strip())
        if not m:
            return None
        prov = self.province(m.group("prov"))
        coast = self.coasts.get(normalise_name(m.group("coast")))
        if not prov or not coast:
            return None
        loc = f"{prov}/{coast}"
        return loc if coast in self.map.provinces[prov].coasts else None

    def suggest(self, text: str, n: int = 3) -> list[str]:
        """English names of the provinces nearest to ``text`` ("did you mean")."""
        key = normalise_name(text)
        hits = difflib.get_close_matches(key, list(self.provinces), n=n * 3, cutoff=0.6)
        out: list[str] = []
        for h in hits:
            name = self.english[self.provinces[h]]
            if name not in out:
                out.append(name)
        return out[:n]


_CACHE: dict[int, NameIndex] = {}


def name_index(game_map: Map, names: dict) -> NameIndex:
    """A cached :class:`NameIndex` for ``game_map``."""
    idx = _CACHE.get(id(game_map))
    if idx is None or idx.map is not game_map:
        idx = _CACHE[id(game_map)] = NameIndex(game_map, names)
    return idx
