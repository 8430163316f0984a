"""Reading a DPjudge/MILA ``.map`` file (format: DPjudge's ``pages/Map``) into a
:class:`MapText`: every directive kept with the file and line it came from, so
that each later check can name the line at fault.

Directives read: comments (``#``), ``USE``/``USES``/``MAP`` (includes, relative
to the including file), place names (``[old ->] Name = abbr alias...``),
terrain lines (``LAND``/``COAST``/``WATER``/``PORT``/``SHUT``/``AMEND``
``abbr ABUTS ...``, case rules kept as written), ``DROP``, power lines
(``[old ->] NAME [(own[:letter])] centre...`` with ``-centre``), ``UNOWNED``/
``NEUTRAL``/``CENTERS``, ``OWNS``, ``HOME(S)``/``INHABITS``, ``UNITS``, unit
lines (``A LON``, ``F STP/SC``), ``UNPLAYED``, ``DUMMY``/``DUMMIES``,
``VICTORY``, ``BEGIN``, ``RULE(S)``, ``FLOW``, ``DIRECTIVES ... END``.
Read and set aside with a note: ``TEXTONLY``, ``FLAGS``/``FLAG``, ``LEAGUE``,
``CONTROL``, ``ROTATE``, ``TEAM(S)``, ``NEWHOMES``, ``RESERVES``, ``MILITIA``.
Refused with the line's number (the rules core has no such rule): ``IN``/
``FROM`` (a map that changes in play), power-restricted or special adjacencies
(``EI:NAF``, ``~``, ``*``, ``AEG(CON,SMY)``), claimed, factory, partisan,
alternative and hidden build sites (``&``, ``+``, ``*``, ``@``, ``~``),
``SC!``/``SC?``.

Errors are :class:`MapFileError` ``FILE:LINE: reason``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

TERRAINS = ("LAND", "COAST", "WATER", "PORT", "SHUT", "AMEND")
IGNORED = ("TEXTONLY", "FLAGS", "FLAG", "LEAGUE", "CONTROL", "ROTATE", "TEAM", "TEAMS",
           "NEWHOMES", "RESERVES", "MILITIA")
UNOWNED_WORDS = ("UNOWNED", "NEUTRAL", "CENTERS", "CENTRES")
KEYWORDS = set(TERRAINS) | set(IGNORED) | set(UNOWNED_WORDS) | {
    "USE", "USES", "MAP", "DROP", "OWNS", "HOME", "HOMES", "INHABITS", "UNITS", "UNPLAYED",
    "DUMMY", "DUMMIES", "VICTORY", "BEGIN", "RULE", "RULES", "FLOW", "IN", "FROM", "END",
    "DIRECTIVE", "DIRECTIVES"}
LOC_RE = re.compile(r"^[A-Za-z0-9]{3}(/[A-Za-z]{2})?$")


class MapFileError(ValueError):
    """A ``.map`` file the importer cannot take. ``str(err)`` reads
    ``FILE:LINE: REASON`` (LINE 0: the file as a whole)."""

    def __init__(self, file: str, line: int, reason: str):
        super().__init__(f"{file}:{line}: {reason}")
        self.file, self.line, self.reason = file, line, reason


@dataclass(frozen=True)
class Where:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def error(self, reason: str) -> MapFileError:
        return MapFileError(self.file, self.line, reason)


@dataclass
class Place:
    """A place-name line: ``Bulgaria (east coast) = bul/ec bul(ec) ...``."""
    name: str
    abbr: str                      # upper case key: "BUL/EC"
    aliases: list[str]
    ambiguous: list[str]
    where: Where


@dataclass
class Terrain:
    """A terrain line: ``COAST bul ABUTS AEG BLA CON ...`` (case as written)."""
    terrain: str                   # LAND COAST WATER PORT SHUT
    written: str                   # the abbreviation as written ("bul", "BUL/EC")
    abuts: list[str]
    where: Where


@dataclass
class PowerText:
    name: str                      # as written, upper case ("ENGLAND", "ST+PETERSBURG")
    own: str
    homes: list[str]
    owns: list[str] | None
    where: Where
    units: dict[str, tuple[str, str, Where]] = field(default_factory=dict)   # province -> (type, loc, where)
    dummy: bool = False
    said: dict[str, Where] = field(default_factory=dict)    # centre -> the line that last named it


@dataclass
class MapText:
    """Everything a ``.map`` file (and what it USEs) says, keyed by upper-case
    abbreviations, each entry with its :class:`Where`."""
    files: list[str] = field(default_factory=list)
    places: dict[str, Place] = field(default_factory=dict)
    terrains: dict[str, Terrain] = field(default_factory=dict)
    powers: dict[str, PowerText] = field(default_factory=dict)
    unowned: dict[str, Where] = field(default_factory=dict)
    not_centres: dict[str, Where] = field(default_factory=dict)    # UNOWNED -X: X is no SC
    neutral_units: dict[str, tuple[str, str, Where]] = field(default_factory=dict)
    victory: tuple[int, Where] | None = None
    begin: tuple[str, int, str, Where] | None = None
    rules: dict[str, Where] = field(default_factory=dict)
    picture: str | None = None     # the map named by MAP (its picture)
    notes: list[str] = field(default_factory=list)
    end: Where | None = None       # the last line of the file imported (for faults of the whole)


def read_map_file(path: str | Path) -> MapText:
    """Parse ``path`` and every file it includes. Raises :class:`MapFileError`."""
    text = MapText()
    _Reader(text).read(Path(path), stack=())
    try:
        n = len(Path(path).read_text(encoding="utf-8", errors="replace").splitlines())
    except OSError:
        n = 0
    text.end = Where(str(path), max(n, 1))
    return text


def _strip(word: str) -> str:
    return word.strip().upper()


class _Reader:
    def __init__(self, text: MapText):
        self.t = text
        self.power: PowerText | None = None
        self.neutral = False           # after UNOWNED: unit lines are neutral units

    # ---- files -------------------------------------------------------------------
    def read(self, path: Path, stack: tuple[Path, ...], where: Where | None = None) -> None:
        if path.resolve() in stack:
            raise (where or Where(str(path), 0)).error(f"{path.name} includes itself (USE loop)")
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as e:
            raise (where or Where(str(path), 0)).error(f"cannot read {path}: {e.strerror or e}") from None
        self.t.files.append(str(path))
        stack = stack + (path.resolve(),)
        skipping = False        # inside a DIRECTIVES stanza for another rules variant
        in_stanza = False
        for n, raw in enumerate(lines, 1):
            w = Where(str(path), n)
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            head = _strip(words[0])
            if head == "END" and len(words) > 1 and _strip(words[1]).startswith("DIRECTIVE"):
                skipping = in_stanza = False
                continue
            if len(words) >= 1 and _strip(words[-1]) in ("DIRECTIVE", "DIRECTIVES") and len(words) <= 2:
                in_stanza = True
                skipping = len(words) == 2 and head not in ("STANDARD",)
                continue
            if skipping:
                continue
            if in_stanza and head not in ("RULE", "RULES"):
                self.t.notes.append(f"{w}: status-file line set aside: {line}")
                continue
            self.line(path, stack, w, line, words, head)

    def include(self, path: Path, stack, w: Where, name: str, picture: bool) -> None:
        base = path.parent
        cands = [base / name] if Path(name).suffix else [base / f"{name}.map", base / name]
        target = next((c for c in cands if c.exists()), None)
        if target is None:
            raise w.error(f"no file {name!r} to include (looked for {', '.join(str(c.name) for c in cands)} "
                          f"beside {path.name})")
        if picture:
            self.t.picture = Path(name).stem.split(".")[0]
        self.read(target, stack, w)

    # ---- one line ----------------------------------------------------------------
    def line(self, path: Path, stack, w: Where, line: str, words: list[str], head: str) -> None:
        t = self.t
        if "=" in line:
            return self.place(w, line)
        if head in ("USE", "USES", "MAP"):
            if len(words) < 2:
                raise w.error(f"{head} needs a file name")
            for name in words[1:]:
                self.include(path, stack, w, name, picture=head == "MAP")
            return
        if head in TERRAINS:
            return self.terrain(w, words, head)
        if head == "DROP":
            if len(words) < 2:
                raise w.error("DROP needs one or more abbreviations")
            for a in words[1:]:
                key = _strip(a)
                gone = [k for k in t.terrains if k == key or k.startswith(key + "/")]
                gone += [k for k in t.places if (k == key or k.startswith(key + "/")) and k not in gone]
                if not gone:
                    raise w.error(f"DROP {a}: no such place")
                for k in gone:
                    t.terrains.pop(k, None)
                    t.places.pop(k, None)
                for tr in t.terrains.values():
                    tr.abuts = [x for x in tr.abuts if _loc_key(x) not in gone]
            return
        if head in ("IN", "FROM"):
            raise w.error(f"{head}: a map that changes during play is not supported")
        if head in ("VICTORY",):
            try:
                counts = [int(x) for x in words[1:]]
            except ValueError:
                raise w.error("VICTORY needs supply-centre counts (VICTORY 18)") from None
            if not counts or any(c < 1 for c in counts):
                raise w.error("VICTORY needs one or more positive counts")
            if len(set(counts)) > 1:
                t.notes.append(f"{w}: VICTORY {' '.join(words[1:])}: a count per year is not supported; "
                               f"the first, {counts[0]}, is used for every year")
            t.victory = (counts[0], w)
            return
        if head == "BEGIN":
            return self.begin(w, words)
        if head in ("RULE", "RULES"):
            for r in words[1:]:
                t.rules[_strip(r)] = w
            return
        if head == "FLOW":
            t.notes.append(f"{w}: FLOW {' '.join(words[1:])}: not supported; the standard year "
                           "(Spring and Fall movement and retreats, Winter adjustments) is used")
            return
        if head in ("FLAGS", "FLAG", "TEXTONLY"):
            return                      # pictures only
        if head in IGNORED:
            t.notes.append(f"{w}: {head} set aside (it does not change the rules)"
                           if head in ("TEXTONLY", "FLAGS", "FLAG") else
                           f"{w}: {' '.join(words)}: not supported, set aside")
            return
        if head == "UNPLAYED":
            return self.unplayed(w, words)
        if head in ("DUMMY", "DUMMIES"):
            return self.dummy(w, words)
        if head in UNOWNED_WORDS and not (head in ("CENTERS", "CENTRES") and self.power):
            self.power, self.neutral = None, True
            for c in words[1:]:
                self.centre_list(w, c, t.unowned, owner=None)
            return
        if head in ("OWNS", "CENTERS", "CENTRES"):
            p = self.need_power(w, head)
            if head != "OWNS" or p.owns is None:
                p.owns = [] if head != "OWNS" or p.owns is None else p.owns
            for c in words[1:]:
                cc = _strip(c)
                if cc in ("SC!", "SC?"):
                    raise w.error(f"{c}: building in unowned home centres is not supported")
                p.owns.append(self.centre(w, c))
                p.said.setdefault(p.owns[-1], w)
            return
        if head in ("HOME", "HOMES", "INHABITS"):
            p = self.need_power(w, head)
            if head != "INHABITS":
                p.homes = []
            for c in words[1:]:
                self.home(w, p, c)
            return
        if head == "UNITS":
            p = self.need_power(w, head)
            p.units.clear()
            return
        if head in ("A", "F") and len(words) == 2:
            return self.unit(w, head, words[1])
        return self.power_line(w, line)

    def need_power(self, w: Where, what: str) -> PowerText:
        if self.power is None:
            raise w.error(f"{what} before any power line (name the power first)")
        return self.power

    # ---- places and terrain ------------------------------------------------------
    def place(self, w: Where, line: str) -> None:
        left, _, right = line.partition("=")
        old = None
        if "->" in left:
            old, _, left = left.partition("->")
            old = _strip(old)
        name = left.strip()
        words = right.split()
        if not name or not words:
            raise w.error("a place-name line reads 'Place Name = abbr alias ...'")
        abbr = words[0]
        if not LOC_RE.match(abbr):
            raise w.error(f"{abbr!r}: an abbreviation is three letters or digits, a coast after a slash (bul/ec)")
        key = _strip(abbr)
        aliases, ambiguous = [], []
        for a in words[1:]:
            if a.endswith("?"):
                ambiguous.append(a[:-1].lower())
            else:
                aliases.append(a.replace("+", " ").lower())
        if old is not None:
            if old not in self.t.places and old not in self.t.terrains:
                raise w.error(f"{old} -> {abbr}: no place {old} to rename")
            self.rename(old, key)
        self.t.places[key] = Place(name.replace("+", " "), key, aliases, ambiguous, w)

    def rename(self, old: str, new: str) -> None:
        t = self.t
        t.places.pop(old, None)
        if old in t.terrains:
            tr = t.terrains.pop(old)
            tr.written = new if tr.written.isupper() else new.lower()
            t.terrains[new] = tr
        for tr in t.terrains.values():
            tr.abuts = [_recase(new, x) if _loc_key(x) == old else x for x in tr.abuts]

    def terrain(self, w: Where, words: list[str], head: str) -> None:
        if len(words) < 2:
            raise w.error(f"{head} needs an abbreviation")
        written = words[1]
        if not LOC_RE.match(written):
            raise w.error(f"{written!r}: an abbreviation is three letters or digits, a coast after a slash")
        rest = words[2:]
        if rest and _strip(rest[0]) != "ABUTS":
            raise w.error(f"expected ABUTS after {written}, found {rest[0]!r}")
        abuts = rest[1:]
        for a in abuts:
            self.check_abut(w, a)
        key = _strip(written)
        if head == "AMEND":
            old = self.t.terrains.get(key)
            if old is None:
                raise w.error(f"AMEND {written}: no earlier terrain line for {key}")
            old.written = written
            for a in abuts:
                if a.startswith("-"):
                    gone = _loc_key(a[1:])
                    old.abuts = [x for x in old.abuts if _loc_key(x) != gone]
                else:
                    old.abuts = [x for x in old.abuts if _loc_key(x) != _loc_key(a)] + [a]
            old.where = w
            return
        for a in abuts:
            if a.startswith("-"):
                raise w.error(f"{a}: a dash removes an adjacency only on an AMEND line")
        self.t.terrains[key] = Terrain(head, written, list(abuts), w)

    def check_abut(self, w: Where, a: str) -> None:
        body = a[1:] if a.startswith("-") else a
        if ":" in body:
            raise w.error(f"{a}: adjacencies for some powers only (POWERS:PLACE) are not supported")
        if "(" in body:
            raise w.error(f"{a}: adjacencies that depend on owned centres are not supported")
        if not LOC_RE.match(body):
            raise w.error(f"{a}: not an abbreviation (special adjacencies such as ~ and * are not supported)")

    # ---- powers ------------------------------------------------------------------
    def power_line(self, w: Where, line: str) -> None:
        m = re.match(r"^(?:(\S+)\s*->\s*)?(\S+)\s*(?:\(([^)]*)\))?\s*(.*)$", line)
        if not m:
            raise w.error(f"cannot read {line!r}")
        old, name, own, rest = m.groups()
        name_key = _strip(name)
        if not re.fullmatch(r"_*[A-Z0-9+.'-]+", name_key) or name_key in KEYWORDS:
            raise w.error(f"cannot read {line!r}: not a directive, place name, unit or power line")
        t = self.t
        if old is not None:
            ok = _strip(old)
            if ok not in t.powers:
                raise w.error(f"{old} -> {name}: no power {old} to rename")
            p = t.powers.pop(ok)
            p.name = name_key
            t.powers[name_key] = p
        p = t.powers.get(name_key)
        if p is None:
            p = t.powers[name_key] = PowerText(name_key, "", [], None, w)
        if own is not None:
            p.own = own.split(":")[0].strip()
        self.power, self.neutral = p, False
        for c in rest.split():
            self.home(w, p, c)

    def home(self, w: Where, p: PowerText, c: str) -> None:
        if c.startswith("-"):
            key = _strip(c[1:])
            if key not in p.homes:
                raise w.error(f"{c}: {key} is not a home centre of {p.name}")
            p.homes.remove(key)
            self.t.unowned.setdefault(key, w)
            return
        key = self.centre(w, c)
        other = next((q.name for q in self.t.powers.values() if q is not p and key in q.homes), None)
        if other:
            raise w.error(f"{key} is a home centre of both {other} and {p.name}")
        p.homes.append(key)
        p.said[key] = w
        self.t.unowned.pop(p.homes[-1], None)

    def centre(self, w: Where, c: str) -> str:
        kinds = {"&": "claimed home centres (&)", "+": "factory sites (+)", "*": "partisan sites (*)",
                 "@": "alternative home centres (@)", "~": "hidden builds (~)"}
        if c[:1] in kinds:
            raise w.error(f"{c}: {kinds[c[0]]} are not supported")
        if not LOC_RE.match(c) or "/" in c:
            raise w.error(f"{c!r} is not a supply-centre abbreviation")
        return _strip(c)

    def centre_list(self, w: Where, c: str, table: dict, owner) -> None:
        if c.startswith("-"):
            table.pop(_strip(c[1:]), None)
            self.t.not_centres[_strip(c[1:])] = w
            return
        key = self.centre(w, c)
        if any(key in p.homes for p in self.t.powers.values()):
            return            # "silently moved to owned status"
        table[key] = w

    def unit(self, w: Where, utype: str, loc: str) -> None:
        if not LOC_RE.match(loc):
            raise w.error(f"{utype} {loc}: {loc!r} is not a location abbreviation")
        key = _strip(loc)
        prov = key.split("/")[0]
        for p in self.t.powers.values():
            p.units.pop(prov, None)
        self.t.neutral_units.pop(prov, None)
        if self.power is None:
            if not self.neutral:
                raise w.error(f"{utype} {loc}: a unit before any power line (name its power first)")
            self.t.neutral_units[prov] = (utype, key, w)
        else:
            self.power.units[prov] = (utype, key, w)

    def unplayed(self, w: Where, words: list[str]) -> None:
        names = [_strip(x) for x in words[1:]]
        t = self.t
        if not names:
            targets = [self.need_power(w, "UNPLAYED").name]
        elif names[0] == "ALL":
            keep = names[2:] if names[1:2] == ["EXCEPT"] else []
            for k in keep:
                if k not in t.powers:
                    raise w.error(f"UNPLAYED ALL EXCEPT {k}: no power {k}")
            targets = [k for k in t.powers if k not in keep]
        else:
            targets = names
        for k in targets:
            p = t.powers.pop(k, None)
            if p is None:
                raise w.error(f"UNPLAYED {k}: no power {k}")
            for h in p.homes:
                t.unowned.setdefault(h, w)
        self.power = None

    def dummy(self, w: Where, words: list[str]) -> None:
        names = [_strip(x) for x in words[1:]]
        t = self.t
        if not names:
            targets = [self.need_power(w, words[0]).name]
        elif names[0] == "ALL":
            keep = names[2:] if names[1:2] == ["EXCEPT"] else []
            targets = [k for k in t.powers if k not in keep]
        else:
            targets = names
        for k in targets:
            if k not in t.powers:
                raise w.error(f"{words[0]} {k}: no power {k}")
            t.powers[k].dummy = True

    def begin(self, w: Where, words: list[str]) -> None:
        rest = [_strip(x) for x in words[1:]]
        years = [i for i, x in enumerate(rest) if x.isdigit()]
        if len(years) != 1 or years[0] == 0 or years[0] != len(rest) - 2:
            raise w.error("BEGIN reads 'BEGIN SEASON YEAR PHASE' (BEGIN SPRING 1901 MOVEMENT)")
        season, year, phase = " ".join(rest[:years[0]]), int(rest[years[0]]), rest[-1]
        if not 1 <= year <= 9999:
            raise w.error(f"BEGIN: year {year} is out of range (1 to 9999)")
        self.t.begin = (season, year, phase, w)


def _loc_key(word: str) -> str:
    return word.lstrip("-").upper()


def _recase(new: str, written: str) -> str:
    """``new`` written in the letter case of ``written`` (the case rules)."""
    if written.islower():
        return new.lower()
    if written[:1].isupper() and written[1:].islower():
        return new.capitalize()
    return new
