"""Names of provinces, coasts and powers as players write them.

Built from a map's ``names.json`` and, beside it, ``name_variants.json`` (format
in ``maps/README.md``; :func:`judge.maps.load_names` reads both): English names,
codes and aliases, Chinese names (simplified, traditional) and every Chinese
variant players write, each with its script, region and source. Lookups are
case-, width- and punctuation-insensitive (:func:`judge.rules.map.normalise_name`)
and script-insensitive for Chinese: traditional characters are folded to
simplified ones (:meth:`NameIndex.fold`) with a table derived from the paired
``zh_hans``/``zh_hant`` names and the paired order words of
:mod:`judge.notation.zh_words`, so 聖彼得堡, 圣彼得堡 and a mixed 聖彼得堡 are one name.
"""

from __future__ import annotations

import difflib
import re

from ..rules.map import Map, MapError, normalise_name
from . import zh_words

_COAST_SUFFIX = re.compile(
    r"^(?P<prov>.+?)\s*(?:/|\(|\s)\s*(?P<coast>[a-z. ]+?)\s*\)?\s*$", re.IGNORECASE)

LANGS = ("en", "zh-hans", "zh-hant")
"""Languages of replies: English, simplified and traditional Chinese."""

SCRIPTS = ("hans", "hant", "both")
"""Scripts of a name variant: simplified, traditional, or the same in both."""


def is_cjk(ch: str) -> bool:
    """True for a CJK ideograph (the characters Chinese names are written in)."""
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FFFF


def lang_key(lang: str) -> str:
    """``"zh"``, ``"zh_CN"``, ``"zh-Hans"`` -> ``"zh-hans"``; ``"zh-TW"``, ``"zh_hant"``
    -> ``"zh-hant"``; anything else -> ``"en"``."""
    k = lang.replace("_", "-").lower()
    if k.startswith("zh"):
        return "zh-hant" if any(t in k for t in ("hant", "tw", "hk", "mo")) else "zh-hans"
    return "en"


VARIANTS_FILE = "name_variants.json"


def check_variant(v, sources: dict, file: str, where: str) -> None:
    """A variant entry is ``{"name": str, "script": one of SCRIPTS, "region":
    one of zh_words.REGIONS (or a list of them), "source": keys of the file's
    ``sources``, space-separated, a section after "§"}``; raises MapError."""
    if not isinstance(v, dict) or not isinstance(v.get("name"), str) or not v["name"].strip():
        raise MapError(file, where, "needs a name")
    if v.get("script") not in SCRIPTS:
        raise MapError(file, where, f"script must be one of {', '.join(SCRIPTS)}")
    regions = v.get("region")
    if not all(r in zh_words.REGIONS for r in (regions if isinstance(regions, list) else [regions])):
        raise MapError(file, where, f"region must be one of {', '.join(zh_words.REGIONS)}")
    keys = [k for k in str(v.get("source", "")).split() if not k.startswith("§")]
    if not keys or any(k not in sources for k in keys):
        raise MapError(file, where, "source must name keys of the file's sources")


class NameIndex:
    """Name lookups for one map.

    ``provinces``: normalised name -> province code; ``coasts``: normalised coast
    word -> coast code (``"north"`` -> ``"nc"``); ``powers``: normalised -> power;
    ``ambiguous``: normalised name -> the province codes it could mean (``"liv"``
    -> ``("lvn", "lvp")``, ``"地中海"`` -> ``("eas", "wes")``, from the ``ambiguous``
    sections); ``variants``: the parsed ``name_variants.json`` (``{}`` if none:
    every Chinese variant with script, region and source); ``abbr``: code
    -> the abbreviation used in canonical English (``"StP"``; default the code
    capitalised). Chinese keys are stored folded to simplified characters.
    Raises :class:`MapError` if two provinces share a name after normalisation.
    """

    def __init__(self, game_map: Map, names: dict, source: str = "names.json"):
        self.map = game_map
        self.provinces: dict[str, str] = {}
        self.coasts: dict[str, str] = {}
        self.powers: dict[str, str] = {}
        self.english: dict[str, str] = {}
        self.chinese: dict[str, tuple[str, str]] = {}
        self.abbr: dict[str, str] = {}
        self.ambiguous: dict[str, tuple[str, ...]] = {}
        self.power_names: dict[str, dict] = {}
        self.coast_names: dict[str, dict] = names.get("coasts", {})
        self.zh_fold: dict[str, str] = {}
        self._keys: tuple[list[str], list[str]] | None = None   # (Latin, Chinese) names for suggest
        self.variants: dict = names.get("variants", {})
        provs = names.get("provinces", {})
        for code in game_map.provinces:
            if code not in provs:
                raise MapError(source, f"provinces.{code}", "no names given for this province")
        self._derive_fold(names)
        for code, entry in provs.items():
            if code not in game_map.provinces:
                raise MapError(source, f"provinces.{code}", "not a province of the map")
            self.english[code] = entry.get("en", code)
            self.chinese[code] = (entry.get("zh_hans", code), entry.get("zh_hant", entry.get("zh_hans", code)))
            self.abbr[code] = entry.get("abbr", code.capitalize())
            if normalise_name(self.abbr[code]) != code:
                raise MapError(source, f"provinces.{code}.abbr", "the abbreviation must be the code in other letter case")
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
        self._add_variants(VARIANTS_FILE)
        ambiguous = [(word, codes, source, f"ambiguous.{word}") for word, codes in names.get("ambiguous", {}).items()]
        ambiguous += [(v.get("name"), v.get("codes"), VARIANTS_FILE, f"ambiguous[{i}]")
                      for i, v in enumerate(self.variants.get("ambiguous", ()))]
        for word, codes, src, where in ambiguous:
            key = self._key(word or "")
            if not isinstance(codes, list) or len(codes) < 2 or any(c not in game_map.provinces for c in codes):
                raise MapError(src, where, "must list two or more province codes of the map")
            if key in self.provinces:
                raise MapError(src, where, f"is also a name of {self.provinces[key]!r}")
            self.ambiguous[key] = tuple(codes)

    def _add_variants(self, source: str) -> None:
        """The Chinese variants of ``name_variants.json``: each ``{"name", "script",
        "region", "source"}`` (checked) goes to the table of its section."""
        known = self.variants.get("sources", {})
        tables = {"provinces": (self.provinces, self.map.provinces), "powers": (self.powers, self.map.powers),
                  "coasts": (self.coasts, self.coast_names)}
        for section, (table, allowed) in tables.items():
            for key, entries in self.variants.get(section, {}).items():
                if key not in allowed:
                    raise MapError(source, f"{section}.{key}", "not in the map (or, a coast, not in names.json)")
                for i, v in enumerate(entries):
                    where = f"{section}.{key}[{i}]"
                    check_variant(v, known, source, where)
                    self._add(table, v["name"], key, source, where)
        for i, v in enumerate(self.variants.get("ambiguous", ())):
            check_variant(v, known, source, f"ambiguous[{i}]")

    def _derive_fold(self, names: dict) -> None:
        """Traditional -> simplified characters: from the paired names of the file
        and the paired order words (:mod:`.zh_words`) over a base table; a
        character seen with two different counterparts, or itself the simplified
        side of a pair, is left alone. Single characters only (folding keeps
        every character's position)."""
        pairs: dict[str, set[str]] = {}
        words = [p for row in zh_words.ROWS for p in zh_words.pairs(row[0])]
        names_pairs = [(e.get("zh_hans", ""), e.get("zh_hant", ""))
                       for section in ("powers", "provinces", "coasts") for e in names.get(section, {}).values()]
        for hans, hant in words + names_pairs:
            if len(hans) == len(hant):
                for s, t in zip(hans, hant):
                    if s != t:
                        pairs.setdefault(t, set()).add(s)
        simplified = {s for ss in pairs.values() for s in ss}
        self.zh_fold = dict(zh_words.T2S)
        self.zh_fold.update({t: next(iter(ss)) for t, ss in pairs.items() if len(ss) == 1 and t not in simplified})

    def fold(self, text: str) -> str:
        """``text`` with traditional characters replaced by simplified ones."""
        return "".join(self.zh_fold.get(ch, ch) for ch in text)

    def _add(self, table: dict, word: str, value: str, source: str, key: str) -> None:
        k = self.fold(normalise_name(word))
        if not k:
            return
        if table.get(k, value) != value:
            raise MapError(source, key, f"name {word!r} is also used for {table[k]!r}")
        table[k] = value

    def _key(self, text: str) -> str:
        return self.fold(normalise_name(text))

    # ---- lookups ---------------------------------------------------------------
    def province(self, text: str) -> str | None:
        """Province code for ``text`` or None."""
        return self.provinces.get(self._key(text))

    def power(self, text: str) -> str | None:
        return self.powers.get(self._key(text))

    def coast(self, text: str) -> str | None:
        """Coast code for a coast word (``"north"``, ``"(nc)"``, ``"北岸"``) or None."""
        return self.coasts.get(self._key(text.strip("()/ ")))

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

    def suggest_codes(self, text: str, n: int = 3, exclude: str | None = None) -> list[str]:
        """Codes of the provinces whose names are nearest to ``text``: names at
        least 75% alike (50% for Chinese), within 0.1 of the best match;
        ``exclude``: a province code left out (a name read next to the word)."""
        key = self._key(text)
        if key in self.ambiguous:
            return list(self.ambiguous[key])[:n]
        cjk = any(is_cjk(c) for c in key)
        if self._keys is None:
            self._keys = ([k for k in self.provinces if not any(is_cjk(c) for c in k)],
                          [k for k in self.provinces if any(is_cjk(c) for c in k)])
        cutoff = 0.5 if cjk else 0.75
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(key)
        scored = []
        for k in self._keys[cjk]:
            if exclude is not None and self.provinces[k] == exclude:
                continue
            matcher.set_seq1(k)
            if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
                r = matcher.ratio()
                if r >= cutoff:
                    scored.append((r, k))
        scored.sort(key=lambda rk: (-rk[0], rk[1]))
        out: list[str] = []
        for r, k in scored:
            code = self.provinces[k]
            if r >= scored[0][0] - 0.1 and code not in out:
                out.append(code)
        return out[:n]

    def suggest(self, text: str, n: int = 3) -> list[str]:
        """English names of the provinces nearest to ``text`` ("did you mean")."""
        return [self.english[c] for c in self.suggest_codes(text, n)]

    # ---- display ---------------------------------------------------------------
    def province_name(self, code: str, lang: str = "en") -> str:
        """The province's name in ``lang`` (see :func:`lang_key`)."""
        k = lang_key(lang)
        if k == "en":
            return self.english.get(code, code)
        hans, hant = self.chinese.get(code, (code, code))
        return hant if k == "zh-hant" else hans

    def coast_name(self, coast: str, lang: str = "en") -> str:
        entry = self.coast_names.get(coast, {})
        k = lang_key(lang)
        if k == "en":
            return entry.get("en", coast)
        return entry.get("zh_hant" if k == "zh-hant" else "zh_hans", entry.get("zh_hans", coast))

    def location_name(self, location: str, lang: str = "en") -> str:
        """``"stp/nc"`` -> ``"St. Petersburg (north coast)"`` / ``"圣彼得堡北岸"``."""
        prov, _, coast = location.partition("/")
        name = self.province_name(prov, lang)
        if not coast:
            return name
        if lang_key(lang) == "en":
            return f"{name} ({self.coast_name(coast, lang)})"
        return name + self.coast_name(coast, lang)

    def location_abbr(self, location: str) -> str:
        """``"stp/nc"`` -> ``"StP/nc"``; ``"par"`` -> ``"Par"`` (canonical English)."""
        prov, _, coast = location.partition("/")
        abbr = self.abbr.get(prov, prov.capitalize())
        return f"{abbr}/{coast}" if coast else abbr

    def power_name(self, power: str, lang: str = "en") -> str:
        entry = self.power_names.get(power, {})
        k = lang_key(lang)
        if k == "en":
            return entry.get("en", power)
        return entry.get("zh_hant" if k == "zh-hant" else "zh_hans", entry.get("zh_hans", power))


_CACHE: dict[int, NameIndex] = {}


def name_index(game_map: Map, names: dict) -> NameIndex:
    """A cached :class:`NameIndex` for ``game_map``."""
    idx = _CACHE.get(id(game_map))
    if idx is None or idx.map is not game_map:
        idx = _CACHE[id(game_map)] = NameIndex(game_map, names)
    return idx

