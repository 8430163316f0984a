"""The board as data: provinces, coasts, adjacency, powers and home centres.

A :class:`Map` is built from a plain ``dict`` (the parsed ``maps/<name>/map.json``,
format documented in ``maps/README.md``); nothing about any particular map is written
in code. Format 2 (variants, ``RULES.md`` §7) only adds keys, so format-1 files read
as before: ``build`` (``"home"``/``"owned"``), ``powers.<P>.build_sites``,
``provinces.<code>.port``, ``start.neutral_units`` (owner :data:`NEUTRAL`),
``start.mobilize``; powers 1 to :data:`MAX_POWERS`; a start phase of any year 1-9999.
``picture``, ``credit`` and ``title`` are for the rim (not read here). :func:`Map.from_dict` validates the data and raises :class:`MapError` naming
the source file, the key and the reason.

Locations are strings: a province code (``"par"``) or a coast of a split-coast
province (``"spa/nc"``). ``province_of("spa/nc") == "spa"``.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass, field

PROVINCE_TYPES = ("inland", "coastal", "sea", "impassable")
PHASE_RE = re.compile(r"^([SF]\d{1,4}M|W\d{1,4}A)$")   # a start phase: movement or adjustments
BUILD_RULES = ("home", "owned")
NEUTRAL = "Neutral"          # the owner of a map's neutral units (RULES.md §7)
MAX_POWERS = 34


class MapError(ValueError):
    """A map file is malformed. ``str(err)`` reads ``FILE: KEY: REASON``."""

    def __init__(self, source: str, key: str, reason: str):
        super().__init__(f"{source}: {key}: {reason}")
        self.source, self.key, self.reason = source, key, reason


def province_of(location: str) -> str:
    """``"spa/nc"`` -> ``"spa"``; ``"par"`` -> ``"par"``."""
    return location.split("/", 1)[0]


def _interned(obj):
    """``obj`` (parsed JSON) with every string interned, so that each province and
    location code is one string object and the adjudicators' dict and set lookups
    match by identity (speed, ``benchmarks/adjudicate.py``)."""
    if isinstance(obj, str):
        return sys.intern(obj)
    if isinstance(obj, dict):
        return {_interned(k): _interned(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_interned(v) for v in obj]
    return obj


def normalise_name(text: str) -> str:
    """Case-, width- and punctuation-insensitive key used to compare names."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\s.'’_\-]+", "", text)


@dataclass(frozen=True)
class Province:
    """One province. ``kind`` is one of :data:`PROVINCE_TYPES`; ``coasts`` lists the
    named coasts (``("nc", "sc")``) of a split-coast province, else is empty;
    ``port`` is a coastal province whose fleet may convoy as if at sea
    (DPjudge's PORT; ``RULES.md`` §7)."""

    code: str
    kind: str
    sc: bool
    coasts: tuple[str, ...] = ()
    port: bool = False

    @property
    def is_land(self) -> bool:
        return self.kind in ("inland", "coastal")


@dataclass(frozen=True)
class StartPosition:
    """Where a game on this map begins: phase name, units ``{power: [(type, loc)]}``
    and SC owners ``{sc: power}``."""

    phase: str
    units: dict[str, tuple[tuple[str, str], ...]]
    sc_owners: dict[str, str]
    mobilize: bool = False       # 1898: one build in a chosen home centre first (RULES.md §7)


@dataclass
class Map:
    """A validated map. Build it with :meth:`from_dict`.

    Attributes:
        name: map id (``"standard"``).
        provinces: ``{code: Province}``, impassable ones included.
        powers: power names in the file's order (``"Austria"``, ...).
        home_centres: ``{power: frozenset of province codes}``.
        army_adj: ``{province: frozenset of provinces an army can move to}``.
        fleet_adj: ``{location: frozenset of locations a fleet can move to}``
            (split-coast provinces appear only as their coasts).
        victory_centres: SCs needed for a solo (``RULES.md`` §1, 18 on standard;
            per map, §7).
        start: the start position; its ``units`` may hold the map's neutral
            units under :data:`NEUTRAL` (not a power: never orders, builds or
            owns; ``RULES.md`` §7).
        build: ``"home"`` (builds in owned home centres, or in the power's
            ``build_sites`` where the map lists them) or ``"owned"`` (in any
            owned SC: Build anywhere, Chaos; ``RULES.md`` §7).
        build_sites: ``{power: frozenset of SCs}`` where the map lists a power's
            build places instead of its home centres (only powers it lists).
    """

    name: str
    provinces: dict[str, Province]
    powers: tuple[str, ...]
    home_centres: dict[str, frozenset[str]]
    army_adj: dict[str, frozenset[str]]
    fleet_adj: dict[str, frozenset[str]]
    victory_centres: int
    start: StartPosition
    english_names: dict[str, str] = field(default_factory=dict)
    build: str = "home"
    build_sites: dict[str, frozenset[str]] = field(default_factory=dict)
    # derived
    supply_centres: frozenset[str] = frozenset()
    fleet_prov_adj: dict[str, frozenset[str]] = field(default_factory=dict)
    locations: frozenset[str] = frozenset()
    loc_province: dict[str, str] = field(default_factory=dict)   # every location -> its province

    # ---- queries -------------------------------------------------------------
    def coasts_of(self, province: str) -> tuple[str, ...]:
        """Fleet locations of ``province``: its coasts (``("spa/nc", "spa/sc")``),
        or ``(province,)`` for a sea or single-coast province, or ``()`` inland."""
        p = self.provinces[province]
        if p.coasts:
            return tuple(f"{province}/{c}" for c in p.coasts)
        if p.kind in ("sea", "coastal"):
            return (province,)
        return ()

    def can_move(self, unit_type: str, src: str, dst: str) -> bool:
        """True if a unit of ``unit_type`` ('A'/'F') at location ``src`` can move
        to location ``dst`` without a convoy. Armies use province codes."""
        if unit_type == "A":
            return (self.loc_province.get(dst) or province_of(dst)) in \
                self.army_adj.get(self.loc_province.get(src) or province_of(src), ())
        return dst in self.fleet_adj.get(src, ())

    def can_reach_province(self, unit_type: str, src: str, province: str) -> bool:
        """True if the unit could move to some location of ``province`` (used for
        supports: a unit supports into a province it could move to, any coast)."""
        if unit_type == "A":
            return province in self.army_adj.get(self.loc_province.get(src) or province_of(src), ())
        return province in self.fleet_prov_adj.get(src, ())

    def may_build_in(self, power: str, province: str) -> bool:
        """True if ``province`` is a place where ``power`` may build at all
        (owning it and its being vacant are checked apart): a home centre (or a
        listed build site), or any SC under ``build == "owned"``
        (``RULES.md`` §1, §7)."""
        if self.build == "owned":
            return province in self.supply_centres
        return province in self.build_sites.get(power, self.home_centres.get(power, ()))

    def build_places(self, power: str, sc_owners: dict[str, str]) -> list[str]:
        """Provinces ``power`` owns and may build in, sorted (vacancy not checked)."""
        if self.build == "owned":
            return sorted(sc for sc, o in sc_owners.items() if o == power)
        return sorted(p for p in self.build_sites.get(power, self.home_centres.get(power, ()))
                      if sc_owners.get(p) == power)

    def is_sea(self, province: str) -> bool:
        return self.provinces[province].kind == "sea"

    def is_coastal(self, province: str) -> bool:
        return self.provinces[province].kind == "coastal"

    # ---- construction ----------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict, source: str = "<map>") -> "Map":
        """Validate ``data`` (parsed JSON, format in ``maps/README.md``) and build a
        :class:`Map`. Raises :class:`MapError` (source, key, reason) on any fault:
        unknown province or coast, asymmetric adjacency, a coast that does not belong
        to its province, a home centre that is not an SC, a unit on an impossible
        location, an SC owned twice, a victory count out of range."""
        data = _interned(data)

        def need(obj, key, typ, where):
            if not isinstance(obj, dict) or key not in obj:
                raise MapError(source, where + key, "missing")
            if not isinstance(obj[key], typ):
                raise MapError(source, where + key, f"must be {typ.__name__}")
            return obj[key]

        name = need(data, "name", str, "")
        raw_provs = need(data, "provinces", dict, "")
        provinces: dict[str, Province] = {}
        for code, p in raw_provs.items():
            key = f"provinces.{code}"
            if not re.fullmatch(r"[a-z][a-z0-9]*", code):
                raise MapError(source, key, "province code must be lower-case letters/digits")
            if not isinstance(p, dict):
                raise MapError(source, key, "must be an object like {\"type\": \"coastal\", \"sc\": true}")
            kind = need(p, "type", str, key + ".")
            if kind not in PROVINCE_TYPES:
                raise MapError(source, key + ".type", f"unknown type {kind!r}; use one of {', '.join(PROVINCE_TYPES)}")
            coasts = p.get("coasts", [])
            if not isinstance(coasts, list) or len({str(c) for c in coasts}) != len(coasts) or \
                    not all(isinstance(c, str) and re.fullmatch(r"[a-z]+", c) for c in coasts):
                raise MapError(source, key + ".coasts", "must be a list of distinct lower-case coast codes like [\"nc\", \"sc\"]")
            coasts = tuple(coasts)
            if coasts and kind != "coastal":
                raise MapError(source, key + ".coasts", "only a coastal province has named coasts")
            if len(coasts) == 1:
                raise MapError(source, key + ".coasts", "a split-coast province needs two or more coasts")
            sc = p.get("sc", False)
            if not isinstance(sc, bool):
                raise MapError(source, key + ".sc", "must be true or false")
            port = p.get("port", False)
            if not isinstance(port, bool):
                raise MapError(source, key + ".port", "must be true or false")
            if port and kind != "coastal":
                raise MapError(source, key + ".port", "only a coastal province can be a port")
            if sc and kind in ("sea", "impassable"):
                raise MapError(source, key + ".sc", f"a {kind} province cannot be a supply centre")
            provinces[code] = Province(code, kind, sc, coasts, port)

        fleet_locs = set()
        for code, p in provinces.items():
            if p.coasts:
                fleet_locs.update(sys.intern(f"{code}/{c}") for c in p.coasts)
            elif p.kind in ("sea", "coastal"):
                fleet_locs.add(code)
        land = {c for c, p in provinces.items() if p.is_land}

        def bad_location(loc, what):
            """Why ``loc`` is not a location ``what`` can stand on."""
            prov, _, coast = str(loc).partition("/")
            if prov not in provinces:
                return f"unknown province {prov!r}"
            if coast and coast not in provinces[prov].coasts:
                return (f"{loc!r}: {prov} has no coast {coast!r}"
                        + (f" (its coasts: {', '.join(provinces[prov].coasts)})" if provinces[prov].coasts else ""))
            if provinces[prov].coasts and not coast:
                return f"{loc!r} is not a location {what} can stand on (name a coast)"
            return f"{loc!r} is not a location {what} can stand on ({provinces[prov].kind} province)"

        def adjacency(key, allowed, what):
            raw = need(data, key, dict, "")
            adj: dict[str, set[str]] = {}
            for a, ns in raw.items():
                if a not in allowed:
                    raise MapError(source, f"{key}.{a}", bad_location(a, what))
                if not isinstance(ns, list):
                    raise MapError(source, f"{key}.{a}", "must be a list")
                for b in ns:
                    if b not in allowed:
                        raise MapError(source, f"{key}.{a}", bad_location(b, what))
                    if province_of(a) == province_of(b):
                        raise MapError(source, f"{key}.{a}", f"{b!r} is in the same province")
                    adj.setdefault(a, set()).add(b)
            for a, ns in adj.items():
                for b in ns:
                    if a not in adj.get(b, ()):
                        raise MapError(source, f"{key}.{b}", f"missing {a!r}: adjacency must be symmetric ({a} lists {b})")
            return {a: frozenset(ns) for a, ns in adj.items()}

        army_adj = adjacency("army_adjacency", land, "an army")
        fleet_adj = adjacency("fleet_adjacency", fleet_locs, "a fleet")
        for code, p in provinces.items():
            if p.kind == "coastal" and not any(loc in fleet_adj for loc in
                                               ([f"{code}/{c}" for c in p.coasts] or [code])):
                raise MapError(source, f"provinces.{code}", "coastal province with no fleet adjacency")
            if p.kind == "inland" and code not in army_adj:
                raise MapError(source, f"provinces.{code}", "inland province with no army adjacency")

        raw_powers = need(data, "powers", dict, "")
        if not raw_powers:
            raise MapError(source, "powers", "a map needs at least one power")
        if len(raw_powers) > MAX_POWERS:
            raise MapError(source, "powers", f"{len(raw_powers)} powers: a map has at most {MAX_POWERS}")
        if NEUTRAL in raw_powers:
            raise MapError(source, f"powers.{NEUTRAL}", f"{NEUTRAL!r} names the neutral units (start.neutral_units), not a power")
        build = data.get("build", "home")
        if build not in BUILD_RULES:
            raise MapError(source, "build", f"{build!r}: use one of {', '.join(BUILD_RULES)}")
        scs_all = {c for c, p in provinces.items() if p.sc}
        homes: dict[str, frozenset[str]] = {}
        sites: dict[str, frozenset[str]] = {}
        seen_home: dict[str, str] = {}
        for power, pd in raw_powers.items():
            hs = need(pd, "home_centres", list, f"powers.{power}.")
            if "build_sites" in pd:
                bs = pd["build_sites"]
                if not isinstance(bs, list) or not all(isinstance(b, str) and b in scs_all for b in bs):
                    raise MapError(source, f"powers.{power}.build_sites", "must be a list of supply centres")
                sites[power] = frozenset(bs)
            if not hs and build == "home" and not sites.get(power):
                raise MapError(source, f"powers.{power}.home_centres", "a power needs at least one home centre")
            for h in hs:
                if h not in provinces:
                    raise MapError(source, f"powers.{power}.home_centres", f"unknown province {h!r}")
                if not provinces[h].sc:
                    raise MapError(source, f"powers.{power}.home_centres", f"{h!r} is not a supply centre")
                if h in seen_home:
                    raise MapError(source, f"powers.{power}.home_centres", f"{h!r} is already a home centre of {seen_home[h]}")
                seen_home[h] = power
            homes[power] = frozenset(hs)
        powers = tuple(raw_powers)
        if len({normalise_name(p) for p in powers}) != len(powers):
            raise MapError(source, "powers", "two power names are the same after normalisation")

        scs = frozenset(c for c, p in provinces.items() if p.sc)
        victory = data.get("victory_centres", len(scs) // 2 + 1)
        if not isinstance(victory, int) or not 1 <= victory <= len(scs):
            raise MapError(source, "victory_centres", f"must be an integer from 1 to {len(scs)}")

        start_raw = need(data, "start", dict, "")
        phase = start_raw.get("phase", "S1901M")
        if not isinstance(phase, str) or not PHASE_RE.match(phase):
            raise MapError(source, "start.phase", f"{phase!r} is not a start phase like S1901M or W1900A")
        mobilize = start_raw.get("mobilize", False)
        if not isinstance(mobilize, bool) or (mobilize and not phase.startswith("W")):
            raise MapError(source, "start.mobilize", "must be true or false; true needs a Winter start phase")
        units: dict[str, tuple[tuple[str, str], ...]] = {}
        occupied: set[str] = set()
        neutral_raw = start_raw.get("neutral_units", [])
        if not isinstance(neutral_raw, list):
            raise MapError(source, "start.neutral_units", "must be a list like [\"A ber\", \"F nwy\"]")
        unit_lists = list(need(start_raw, "units", dict, "start.").items())
        if neutral_raw:
            unit_lists.append((NEUTRAL, neutral_raw))
        for power, ulist in unit_lists:
            key = "start.neutral_units" if power == NEUTRAL else f"start.units.{power}"
            if power not in homes and power != NEUTRAL:
                raise MapError(source, key, "unknown power")
            if not isinstance(ulist, list):
                raise MapError(source, key, "must be a list")
            out = []
            for u in ulist:
                m = re.fullmatch(r"([AF]) (\S+)", u) if isinstance(u, str) else None
                if not m:
                    raise MapError(source, key, f"{u!r} is not like 'A par' or 'F stp/sc'")
                t, loc = m.groups()
                ok = (province_of(loc) in land and "/" not in loc) if t == "A" else loc in fleet_locs
                if not ok:
                    raise MapError(source, key, f"{u!r}: {'an army' if t == 'A' else 'a fleet'} cannot stand there")
                if province_of(loc) in occupied:
                    raise MapError(source, key, f"{u!r}: province already occupied")
                occupied.add(province_of(loc))
                out.append((t, loc))
            units[power] = tuple(out)
        owners: dict[str, str] = {}
        for power, clist in need(start_raw, "sc_owners", dict, "start.").items():
            if power not in homes:
                raise MapError(source, f"start.sc_owners.{power}", "unknown power")
            for c in clist:
                if c not in scs:
                    raise MapError(source, f"start.sc_owners.{power}", f"{c!r} is not a supply centre")
                if c in owners:
                    raise MapError(source, f"start.sc_owners.{power}", f"{c!r} is already owned by {owners[c]}")
                owners[c] = power

        fleet_prov_adj = {a: frozenset(sys.intern(province_of(b)) for b in ns) for a, ns in fleet_adj.items()}
        english = {}
        for code, p in raw_provs.items():
            english[code] = p.get("name", code) if isinstance(p.get("name", code), str) else code
        return cls(
            name=name, provinces=provinces, powers=powers, home_centres=homes,
            army_adj=army_adj, fleet_adj=fleet_adj, victory_centres=victory,
            start=StartPosition(phase, units, owners, mobilize), english_names=english,
            build=build, build_sites=sites,
            supply_centres=scs, fleet_prov_adj=fleet_prov_adj,
            locations=frozenset(land) | frozenset(fleet_locs),
            loc_province={loc: sys.intern(province_of(loc)) for loc in set(provinces) | fleet_locs},
        )
