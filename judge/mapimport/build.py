"""From a read ``.map`` file (:class:`~.dpjudge.MapText`) to the judge's map
files: ``map.json`` (format in ``maps/README.md``, validated again by
:meth:`judge.rules.map.Map.from_dict`) and ``names.json``.

The case rules of DPjudge's terrain lines become the two adjacency tables:

* a location a fleet may stand on: ``WATER``, ``PORT``, an upper-case ``COAST``
  and each coast (``BUL/EC``) of a split-coast province (whose own line is
  written in lower case, ``bul``); an army stands on ``LAND``, ``COAST`` and
  ``PORT`` provinces; ``SHUT`` is impassable;
* in an ``ABUTS`` list, a lower-case neighbour (``smy``) is one a fleet cannot
  move to, a capitalised one (``Bal``) one an army cannot move to; an army
  reads a coast (``BUL/EC``) as its province.

Every adjacency must be given both ways (one-way adjacencies are refused);
each error names the lines (``FILE:LINE``) that disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..maps import load_map, read_json, MAPS_DIR
from ..rules.map import NEUTRAL, normalise_name
from .dpjudge import MapText, Where
from .zh_powers import ZH_POWERS

SEASONS = {"SPRING": "S", "FALL": "F", "AUTUMN": "F", "WINTER": "W"}
PHASES = {"MOVEMENT": "M", "ADJUSTMENTS": "A", "ADJUSTMENT": "A"}
COAST_WORDS = {"nc": "north", "sc": "south", "ec": "east", "wc": "west"}


@dataclass
class Built:
    """The files of one imported map: ``map`` (map.json), ``names``
    (names.json), ``classic`` (the standard board: names and picture are the
    standard map's), ``notes`` (what was set aside, each with its line)."""
    map: dict
    names: dict
    classic: bool
    notes: list[str] = field(default_factory=list)


def power_key(raw: str) -> tuple[str, str]:
    """``"ST+PETERSBURG"`` -> ``("StPetersburg", "St Petersburg")``; ``"_ENGLAND"``
    -> ``("England", "England")`` (DPjudge: leading ``_`` not shown, ``+``
    marks a capital)."""
    words = [w for w in re.split(r"[+\s]+", raw.lstrip("_")) if w]
    shown = " ".join(w.capitalize() for w in words)
    key = re.sub(r"[^A-Za-z0-9]", "", shown.replace(" ", ""))
    return key, shown


def _capitalised(word: str) -> bool:
    letters = word.split("/")[0]
    return len(letters) > 1 and letters[0].isupper() and letters[1:] == letters[1:].lower() \
        and any(c.isalpha() for c in letters[1:])


def build(text: MapText, name: str, title: str | None = None) -> Built:
    """Turn ``text`` into the map files. Raises :class:`MapFileError` naming the
    line at fault."""
    notes = list(text.notes)
    terr = text.terrains
    if not terr:
        raise text.end.error("no terrain lines (LAND/COAST/WATER ... ABUTS) in this file or what it USEs")
    # ---- provinces -----------------------------------------------------------------
    for key, tr in terr.items():
        if key not in text.places:
            raise tr.where.error(f"{tr.written}: no place-name line ('Name = {tr.written.lower()}') for it")
    for key, pl in text.places.items():
        if key not in terr:
            raise pl.where.error(f"{pl.abbr.lower()}: named but has no terrain line (LAND/COAST/WATER {pl.abbr} ABUTS ...)")
    coasts: dict[str, list[str]] = {}
    for key, tr in terr.items():
        if "/" in key:
            prov, coast = key.split("/")
            if prov not in terr:
                raise tr.where.error(f"{tr.written}: a coast of {prov}, which has no terrain line")
            if tr.terrain != "COAST" or not tr.written.isupper():
                raise tr.where.error(f"{tr.written}: a coast is written COAST {key}")
            coasts.setdefault(prov, []).append(coast.lower())
    provinces: dict[str, dict] = {}
    fleet_ok: set[str] = set()
    army_ok: set[str] = set()
    for key, tr in terr.items():
        if "/" in key:
            fleet_ok.add(key)
            continue
        code = key.lower()
        if not re.fullmatch(r"[a-z][a-z0-9]*", code):
            raise tr.where.error(f"{tr.written}: the judge's province codes start with a letter")
        kind = {"SHUT": "impassable", "WATER": "sea", "LAND": "inland"}.get(tr.terrain, "coastal")
        entry = {"name": text.places[key].name, "type": kind, "sc": False}
        if key in coasts:
            if tr.terrain != "COAST" or not tr.written.islower():
                raise tr.where.error(f"{tr.written}: a province with coasts ({', '.join(key + '/' + c.upper() for c in coasts[key])}) "
                                     f"is written in lower case: COAST {key.lower()}")
            entry["coasts"] = coasts[key]
        elif tr.terrain == "COAST" and tr.written.islower():
            entry["type"] = kind = "inland"        # a coast no fleet may enter
        if tr.terrain == "PORT":
            entry["port"] = True
        if kind in ("sea",) or (kind == "coastal" and key not in coasts):
            fleet_ok.add(key)
        if kind in ("inland", "coastal"):
            army_ok.add(key)
        provinces[code] = entry

    # ---- adjacency ------------------------------------------------------------------
    army: dict[str, dict[str, Where]] = {}
    fleet: dict[str, dict[str, Where]] = {}
    for key, tr in terr.items():
        prov = key.split("/")[0]
        for tok in tr.abuts:
            tk = tok.upper()
            if tk not in terr:
                raise tr.where.error(f"{tr.written} ABUTS {tok}: no place {tk} (no terrain line)")
            tprov = tk.split("/")[0]
            if tprov == prov:
                raise tr.where.error(f"{tr.written} ABUTS {tok}: a place cannot abut its own province")
            if "/" not in key and key in army_ok and tprov in army_ok and not _capitalised(tok):
                army.setdefault(prov, {})[tprov] = tr.where
            if key in fleet_ok and not tok.islower():
                if tk in fleet_ok:
                    fleet.setdefault(key, {})[tk] = tr.where
                elif tprov in coasts and "/" not in tk:
                    raise tr.where.error(f"{tr.written} ABUTS {tok}: {tk} has coasts; a fleet's neighbour "
                                         f"names one ({', '.join(tk + '/' + c.upper() for c in coasts[tprov])}), "
                                         f"or write it in lower case")
    for table, what in ((army, "an army"), (fleet, "a fleet")):
        for a, ns in table.items():
            for b, where in ns.items():
                if a not in table.get(b, {}):
                    raise terr[b].where.error(f"{b} does not abut {a} for {what}, but {a} ({where}) abuts {b}: "
                                      "one-way adjacencies are not supported (list both, or neither; "
                                      "lower case: no fleet, Capitalised: no army)")
    for key in terr:
        if "/" not in key and key in army_ok and key not in army and provinces[key.lower()]["type"] == "inland":
            raise terr[key].where.error(f"{terr[key].written}: an inland province no army can enter or leave")
        if key in fleet_ok and key not in fleet and (("/" in key) or provinces[key.lower()]["type"] == "coastal"):
            raise terr[key].where.error(f"{terr[key].written}: a coast no fleet can enter or leave "
                                        "(write it LAND, or give it a fleet neighbour)")

    # ---- powers, centres, units ----------------------------------------------------
    powers = {k: p for k, p in text.powers.items() if not p.dummy}
    neutral_units = dict(text.neutral_units)
    unowned = dict(text.unowned)
    for k, p in text.powers.items():
        if p.dummy:
            notes.append(f"{p.where}: {k} is a dummy power: its units are neutral units, its centres unowned")
            neutral_units.update(p.units)
            for h in p.homes:
                unowned.setdefault(h, p.where)
    if not powers:
        raise text.end.error("no powers left (a power line reads 'ENGLAND (ENGLISH) EDI LON LVP')")
    if len(powers) > 34:
        raise text.end.error(f"{len(powers)} powers: the judge plays at most 34")
    if "BUILD_ANY" not in text.rules:
        for k, p in powers.items():
            if not p.homes:
                raise p.where.error(f"{k} has no home centres (list them on its line, or RULE BUILD_ANY)")
    scs: dict[str, Where] = {}
    home_of: dict[str, str] = {}
    for k, p in powers.items():
        for h in p.homes:
            if h in home_of:
                raise p.said.get(h, p.where).error(f"{h} is a home centre of both {home_of[h]} and {k}")
            home_of[h] = k
            scs[h] = p.where
    for c, w in unowned.items():
        scs.setdefault(c, w)
    for c, w in text.not_centres.items():
        if c in home_of:
            raise w.error(f"-{c}: still a home centre of {home_of[c]} (remove it there first)")
        scs.pop(c, None)
    for c, w in scs.items():
        for p in powers.values():
            w = p.said.get(c, w) if c in p.homes else w
        code = c.lower()
        if code not in provinces:
            raise w.error(f"{c}: a supply centre that is no province of the map")
        if provinces[code]["type"] in ("sea", "impassable"):
            raise w.error(f"{c}: a {provinces[code]['type']} province cannot be a supply centre")
        provinces[code]["sc"] = True

    keys: dict[str, str] = {}
    shown: dict[str, str] = {}
    for k in powers:
        key, disp = power_key(k)
        if not key or key in keys.values() or key == NEUTRAL:
            raise powers[k].where.error(f"{k}: power name {key!r} is empty, reserved or used twice")
        keys[k], shown[key] = key, disp

    occupied: dict[str, Where] = {}

    def unit_text(utype: str, loc: str, w: Where) -> str:
        prov = loc.split("/")[0]
        if loc not in terr:
            raise w.error(f"{utype} {loc}: no such place")
        if utype == "A" and (loc not in army_ok):
            raise w.error(f"A {loc}: an army cannot stand there")
        if utype == "F" and loc not in fleet_ok:
            hint = f" (name a coast: {', '.join(loc + '/' + c.upper() for c in coasts[loc])})" if loc in coasts else ""
            raise w.error(f"F {loc}: a fleet cannot stand there{hint}")
        if prov in occupied:
            raise w.error(f"{utype} {loc}: {prov} already has a unit ({occupied[prov]})")
        occupied[prov] = w
        return f"{utype} {loc.lower()}"

    units = {keys[k]: [unit_text(t, loc, w) for t, loc, w in p.units.values()] for k, p in powers.items()}
    neutral = [unit_text(t, loc, w) for t, loc, w in neutral_units.values()]
    owners: dict[str, list[str]] = {}
    owned: dict[str, str] = {}
    for k, p in powers.items():
        mine = p.owns if p.owns is not None else p.homes
        for c in mine:
            if c not in scs:
                raise p.said.get(c, p.where).error(f"{k} owns {c}, which is not a supply centre")
            if c in owned:
                raise p.said.get(c, p.where).error(f"{c} is owned by both {owned[c]} and {k} at the start")
            owned[c] = k
        owners[keys[k]] = sorted(c.lower() for c in mine)

    # ---- rules, start, victory --------------------------------------------------------
    build_rule, mobilize = "home", False
    for r, w in text.rules.items():
        if r == "BUILD_ANY":
            build_rule = "owned"
        elif r == "MOBILIZE":
            mobilize = True
        elif r.startswith("!"):
            notes.append(f"{w}: RULE {r}: set aside")
        else:
            notes.append(f"{w}: RULE {r}: not a rule of the judge, set aside")
    phase = "S1901M"
    if text.begin:
        season, year, kind, w = text.begin
        s = SEASONS.get(season)
        if s is None:
            notes.append(f"{w}: season {season!r} read as Spring")
            s = "S"
        k = PHASES.get(kind)
        if k is None:
            raise w.error(f"BEGIN ... {kind}: a game starts with MOVEMENT or ADJUSTMENTS")
        if (s == "W") != (k == "A"):
            raise w.error(f"BEGIN {season} {kind}: adjustments are in Winter, movement in Spring or Fall")
        phase = f"{s}{year}{k}"
    if mobilize and not phase.startswith("W"):
        raise text.rules["MOBILIZE"].error("RULE MOBILIZE needs a game that begins with WINTER ... ADJUSTMENTS")
    n_sc = len(scs)
    victory = n_sc // 2 + 1
    if text.victory:
        victory, w = text.victory
        if victory > n_sc:
            raise w.error(f"VICTORY {victory}: the map has only {n_sc} supply centres")

    map_json = {
        "format": 2, "name": name, "title": title or name,
        "victory_centres": victory,
        **({"build": build_rule} if build_rule != "home" else {}),
        "powers": {keys[k]: {"home_centres": sorted(h.lower() for h in p.homes)} for k, p in powers.items()},
        "provinces": dict(sorted(provinces.items())),
        "army_adjacency": {a.lower(): sorted(b.lower() for b in ns) for a, ns in sorted(army.items())},
        "fleet_adjacency": {a.lower(): sorted(b.lower() for b in ns) for a, ns in sorted(fleet.items())},
        "start": {"phase": phase, "units": units, "sc_owners": owners,
                  **({"neutral_units": neutral} if neutral else {}),
                  **({"mobilize": True} if mobilize else {})},
    }
    classic = _is_standard_board(map_json)
    if classic:
        std = read_json(MAPS_DIR / "standard" / "map.json")
        for code, entry in map_json["provinces"].items():
            entry["name"] = std["provinces"][code].get("name", entry["name"])
        for power, entry in map_json["powers"].items():
            if power in std["powers"] and "home_country" in std["powers"][power] and \
                    set(entry["home_centres"]) <= set(std["powers"][power]["home_country"]):
                entry["home_country"] = std["powers"][power]["home_country"]
        map_json["picture"] = "standard"
    names = _names(text, map_json, powers, keys, shown, classic, notes)
    return Built(map_json, names, classic, notes)


def _is_standard_board(m: dict) -> bool:
    """The same provinces (types, coasts) and adjacencies as ``maps/standard``."""
    std = load_map("standard")
    if set(m["provinces"]) != set(std.provinces):
        return False
    for code, e in m["provinces"].items():
        p = std.provinces[code]
        if (e["type"], tuple(e.get("coasts", ())), e.get("port", False)) != (p.kind, p.coasts, p.port):
            return False
    army = {a: frozenset(ns) for a, ns in m["army_adjacency"].items()}
    fleet = {a: frozenset(ns) for a, ns in m["fleet_adjacency"].items()}
    return army == dict(std.army_adj) and fleet == dict(std.fleet_adj)


def _names(text: MapText, m: dict, powers, keys, shown, classic: bool, notes: list[str]) -> dict:
    """names.json: a Classic-map variant uses the standard names (and its
    Chinese), adding only powers the standard map lacks (a power named for a
    province takes that province's names, Chaos); another map gets each
    place's name and aliases from its place-name lines."""
    base = read_json(MAPS_DIR / "standard" / "names.json")
    std_provs = base["provinces"]
    power_names: dict[str, dict] = {}
    for k, p in powers.items():
        key = keys[k]
        if classic and key in base["powers"]:
            continue
        entry: dict = {"en": shown[key], "aliases": sorted({key.lower(), shown[key].lower()}
                                                          | ({p.own.replace("+", " ").lower()} if p.own else set()))}
        for code, pe in std_provs.items():
            if classic and normalise_name(pe.get("en", "")) == normalise_name(shown[key]):
                entry.update(zh_hans=pe.get("zh_hans"), zh_hant=pe.get("zh_hant"))
        if not classic and key in base["powers"]:
            entry.update({z: base["powers"][key][z] for z in ("zh_hans", "zh_hant") if z in base["powers"][key]})
        if "zh_hans" not in entry and shown[key] in ZH_POWERS:
            entry["zh_hans"], entry["zh_hant"] = ZH_POWERS[shown[key]]
        power_names[key] = entry
    _dedupe(power_names, notes, "power")
    if classic:
        return {"format": 1, "use": "standard", **({"powers": power_names} if power_names else {})}
    provinces: dict[str, dict] = {}
    ambiguous: dict[str, set[str]] = {}
    for key, pl in text.places.items():
        if "/" in key:
            continue
        code = key.lower()
        aliases = sorted({a for a in pl.aliases if "/" not in a and "(" not in a and a != code})
        provinces[code] = {"en": pl.name, "aliases": aliases}
        for a in pl.ambiguous:
            ambiguous.setdefault(a, set()).add(code)
    _dedupe(provinces, notes, "place", codes=set(provinces))
    _drop_unit_lookalikes(provinces, notes)
    coast_codes = sorted({c for e in m["provinces"].values() for c in e.get("coasts", ())})
    coasts = {c: base["coasts"][c] for c in coast_codes if c in base["coasts"]}
    for c in coast_codes:
        coasts.setdefault(c, {"en": f"{c} coast", "aliases": [c]})
    amb = {w: sorted(cs) for w, cs in ambiguous.items()
           if len(cs) > 1 and not any(normalise_name(w) in {normalise_name(x) for x in [code, e["en"], *e["aliases"]]}
                                      for code, e in provinces.items())}
    return {"format": 1, "powers": power_names, "provinces": provinces, "coasts": coasts,
            **({"ambiguous": amb} if amb else {})}


def _dedupe(table: dict[str, dict], notes: list[str], what: str, codes: set[str] = frozenset()) -> None:
    """Drop aliases that name two entries (or another entry's code): a name
    must mean one thing (``NameIndex``)."""
    owner: dict[str, set[str]] = {}
    for key, e in table.items():
        for w in [key, e.get("en", ""), *e.get("aliases", ())]:
            owner.setdefault(normalise_name(w), set()).add(key)
    for key, e in table.items():
        keep = []
        for a in e.get("aliases", ()):
            if len(owner.get(normalise_name(a), ())) > 1:
                notes.append(f"{what} alias {a!r} of {key} dropped: it also names {', '.join(sorted(owner[normalise_name(a)] - {key}))}")
            else:
                keep.append(a)
        e["aliases"] = keep


def _drop_unit_lookalikes(table: dict[str, dict], notes: list[str]) -> None:
    """Drop an alias that reads as a unit and another place (``aden``, Gulf of
    Aden in Youngstown, is "A Den", an army in Denmark, once spaces are
    ignored): the order reader would take the army for the gulf."""
    names = {}
    for key, e in table.items():
        for w in [key, e.get("en", ""), *e.get("aliases", ())]:
            names[normalise_name(w)] = key
    for key, e in table.items():
        keep = []
        for a in e.get("aliases", ()):
            n = normalise_name(a)
            other = names.get(n[1:]) if n[:1] in ("a", "f") else None
            if other is not None and other != key:
                notes.append(f"place alias {a!r} of {key} dropped: it reads as {n[0].upper()} {other}")
            else:
                keep.append(a)
        e["aliases"] = keep
