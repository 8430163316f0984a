"""From tokens to drafts: what each order of a line says, before the map and
the position are consulted (that is :mod:`judge.notation.resolve`).

One grammar serves English and Chinese, and lines that mix them. A unit is
written unit-first (``A Par``, ``F StP/nc``) or place-first (``巴黎陆军``,
``西班牙（南岸）舰队``, ``西班牙舰队（北岸）``); the unit word is optional.
Then, after the unit (or a list of units joined by ``,``/``、``/``和``/``and``):

=============== ================================================================
hold            ``H`` · 防守
move            ``- X`` (repeated: ``- Eng - Bre`` is a convoy route) · 移动到 X ·
                ``经 X 移动 Y`` (route) · ``via convoy`` / 经海运
support         ``S`` unit [``H``] · ``S`` unit ``- X`` · 支援 unit 防守 / 进攻 X
convoy          ``C`` unit ``- X`` · 运输 unit 移动 X (several fleets: one order each)
retreat         ``R X`` · ``retreat [to] X`` · 撤退到 X; a list (``X, Y``) or
                ``priority`` / 优先 makes it a standing retreat preference
disband         ``D`` · ``disband`` · ``remove`` · ``R`` with no place · 解散
build           ``build`` [unit] · 生产/建造 [unit]
=============== ================================================================

Any order may be led by the name of a power (``France: A Par - Bur`` ·
``法国：巴黎陆军移动到勃艮第``): the orders that follow, to the next power name, are
that power's; a power other than the one whose orders are read fails with
``wrong_power``.
A line may also start with ``build``/``remove``/``disband`` + units,
``waive`` [N], or a priority list (``build priority: F Ven, A Rom`` ·
``优先建造：威尼斯舰队、罗马陆军`` · ``优先解散：…``). Several orders may follow one
another on a line, separated by ``,``/``;``/``。`` or nothing.
Errors raise :class:`Fail` carrying a :class:`Diagnostic`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import lexicon as lx
from .diagnostics import Diagnostic, diagnostic
from .lexicon import Token
from .names import NameIndex, is_cjk


class Fail(Exception):
    """A line cannot be read; ``diagnostic`` says why."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag.code)
        self.diagnostic = diag


@dataclass(frozen=True)
class Place:
    """A province as written, with the coast if one was named."""

    prov: str
    coast: str | None = None


@dataclass(frozen=True)
class Ref:
    """A unit as written: type (or None), province, coast (or None)."""

    unit_type: str | None
    prov: str
    coast: str | None = None
    soldier: bool = False      # written with a word for soldiers (兵, 军队…): the unit there, noted if a fleet


@dataclass
class Draft:
    """One order as read, not yet checked against map and position. ``kind`` is
    a key of :data:`judge.text.reasons.ORDER_KINDS`."""

    kind: str
    units: list[Ref] = field(default_factory=list)   # the ordered unit(s)
    target: Ref | None = None                          # supported / convoyed unit
    dest: Place | None = None
    route: list[Place] = field(default_factory=list)
    via_convoy: bool = False
    places: list[Place] = field(default_factory=list)  # retreat preference
    items: list[Ref] = field(default_factory=list)     # build / disband lists
    count: int = 1                                     # waive N
    power: str | None = None                           # named before the order ("France:")


_STARTS = (lx.UNIT, lx.LOC, lx.BUILD, lx.DISBAND, lx.R, lx.WAIVE, lx.PRIORITY)
_BREAKS = (lx.END, lx.COMMA, lx.SEP, lx.COLON)


class _Reader:
    def __init__(self, tokens: list[Token], names: NameIndex):
        self.t = tokens
        self.i = 0
        self.names = names

    def kind(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.t[j].kind if j < len(self.t) else None

    def tok(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def take(self) -> Token:
        t = self.t[self.i]
        self.i += 1
        return t

    def text_before(self) -> str:
        """The words read so far, Latin ones as canonical English writes them
        (``A Par - Bur, F Spa/nc S``), Chinese ones as written."""
        out = ""
        for t in self.t[:self.i]:
            word = _display(t, self.names)
            if t.kind == lx.COAST and word.startswith("/") or t.kind in (lx.COMMA, lx.END, lx.COLON):
                out += word
            elif out and (word[:1].isascii() or out[-1].isascii()) and not out.endswith(" "):
                out += " " + word
            else:
                out += word
        return out.strip() or "…"

    def fail(self, code: str, **params) -> Fail:
        return Fail(diagnostic(code, self.names, **params))

    def incomplete(self, expected: str) -> Fail:
        return self.fail("incomplete", expected=expected, after=self.text_before())

    def unexpected(self) -> Fail:
        t = self.tok()
        return self.fail("unexpected", text=t.shown if t else "")

    # ---- pieces --------------------------------------------------------------
    def coast(self) -> str | None:
        if self.kind() == lx.COAST:
            return self.take().value
        return None

    def place(self, expected: str = "destination") -> Place:
        if self.kind() != lx.LOC:
            raise self.incomplete(expected) if self.kind() in (None, *_BREAKS) else self.unexpected()
        prov = self.take().value
        return Place(prov, self.coast())

    def unit(self) -> Ref | None:
        """``A Par`` / ``F Spa/nc`` / ``巴黎陆军`` / ``西班牙舰队（北岸）`` / ``Par``;
        None if no unit starts here."""
        if self.kind() == lx.UNIT and self.kind(1) == lx.LOC:
            t = self.take().value
            prov = self.take().value
            return Ref(None if t == "a" else t, prov, self.coast(), soldier=t == "a")
        if self.kind() == lx.UNIT:
            self.take()
            raise self.incomplete("location")
        if self.kind() != lx.LOC:
            return None
        prov = self.take().value
        coast = self.coast()
        t = None
        if self.kind() == lx.UNIT:
            t = self.take().value
            coast = coast or self.coast()
        return Ref(None if t == "a" else t, prov, coast, soldier=t == "a")

    def unit_list(self, after_verb: bool) -> list[Ref]:
        """Units joined by separators; after a verb (build lists, priority lists)
        the separators may be left out."""
        first = self.unit()
        if first is None:
            return []
        out = [first]
        while True:
            save = self.i
            if self.kind() in (lx.SEP, lx.COMMA):
                self.take()
            elif not after_verb:
                break
            nxt = self.unit() if self.kind() in (lx.UNIT, lx.LOC) else None
            if nxt is None:
                self.i = save
                break
            out.append(nxt)
        return out

    def skip_power(self) -> None:
        """A power named before a supported or convoyed unit (支援德国慕尼黑陆军,
        运输英伦敦陆军) says whose unit it is; the position knows that already."""
        if self.kind() == lx.POWER and self.kind(1) in (lx.LOC, lx.UNIT):
            self.take()

    def place_list(self) -> list[Place]:
        out = [self.place()]
        while self.kind() == lx.LOC or (self.kind() in (lx.SEP, lx.COMMA) and self.kind(1) == lx.LOC):
            if self.kind() != lx.LOC:
                self.take()
            out.append(self.place())
        return out

    def path(self, draft: Draft) -> None:
        """``- X [- Y ...]``, ``经 X 移动 Y``, ``via convoy``, ``向 X 进攻`` (a Chinese
        move word after the destination): fills dest, route, via_convoy."""
        steps: list[Place] = []
        while True:
            k = self.kind()
            if k == lx.VIA_CONVOY:
                self.take()
                draft.via_convoy = True
            elif k == lx.VIA and self.kind(1) in (lx.CONVOY, lx.VIA_CONVOY):
                self.i += 2
                draft.via_convoy = True
            elif k == lx.MOVE and steps and not self.tok().text.isascii() and \
                    self.kind(1) not in (lx.LOC, lx.MOVE, lx.VIA):
                self.take()                                   # 向勃艮第进攻, 到挪威去
            elif k in (lx.VIA, lx.MOVE):
                self.take()
                while self.kind() == lx.MOVE:
                    self.take()
                steps.append(self.place())
                if k == lx.VIA:
                    self.route_rest(steps, draft)
                if k == lx.VIA and self.kind() not in (lx.MOVE, lx.VIA, lx.VIA_CONVOY):
                    raise self.incomplete("destination")
            else:
                break
        if not steps:
            raise self.incomplete("destination")
        draft.dest = steps[-1]
        draft.route = steps[:-1]


    def route_rest(self, steps: list[Place], draft: Draft) -> None:
        """After ``经 X``: the fleet named there (经北海舰队运输), and more seas
        listed with 、 or 和 (经北海、挪威海移动到圣彼得堡)."""
        while True:
            if self.kind() == lx.UNIT and self.tok().value == "F":
                self.take()                                   # 经北海舰队
            if self.kind() in (lx.CONVOY, lx.VIA_CONVOY):
                self.take()                                   # …运输移动到
                draft.via_convoy = True
            if self.kind() in (lx.SEP, lx.COMMA) and self.kind(1) == lx.LOC:
                self.take()
                steps.append(self.place())
                continue
            return


def _display(t: Token, names: NameIndex) -> str:
    """A token as :meth:`_Reader.text_before` shows it."""
    if t.kind == lx.MOVE and not t.text.isalpha():     # "-", "→"
        return "-"
    if not t.text.isascii():
        return t.shown
    if t.kind == lx.UNIT:
        return str(t.value)
    if t.kind == lx.LOC:
        return names.location_abbr(t.value)
    if t.kind == lx.COAST:
        return "/" + str(t.value)
    if t.kind == lx.POWER:
        return names.power_name(t.value)
    if len(t.text) == 1 and t.text.isalpha():
        return t.text.upper()
    return t.text


def statements(tokens: list[Token], names: NameIndex, power: str | None = None) -> list[Draft]:
    """The drafts of one line's tokens; ``power``: whose orders these are (a
    different power named on the line fails). Raises :class:`Fail`."""
    _check_words(tokens, names)
    r = _Reader(tokens, names)
    # a list marker: "1.", "2)", "3、", "- " before the first order
    if r.kind() == lx.NUMBER or (r.kind() == lx.MOVE and r.kind(1) in (*_STARTS, lx.POWER)):
        r.take()
    out: list[Draft] = []
    named = None
    while True:
        while r.kind() in _BREAKS:
            r.take()
        if r.kind() == lx.POWER:
            if out and all(t.kind in (lx.POWER, *_BREAKS) for t in r.t[r.i:]):
                raise r.unexpected()               # "A Par - Bur France": a power leads its orders
            named = r.take().value
            if power is not None and named != power:
                raise r.fail("wrong_power", power=named, expected_power=power)
            continue
        if r.kind() is None:
            return out
        if r.kind() not in _STARTS:
            raise r.unexpected()
        for d in _statement(r):
            d.power = named
            out.append(d)


def _check_words(tokens: list[Token], names: NameIndex) -> None:
    """Fail on the first word that is not understood."""
    prev: Token | None = None
    for k, t in enumerate(tokens):
        if t.kind == lx.UNKNOWN:
            text, codes = t.shown, names.suggest_codes(t.text)
            if not codes and any(is_cjk(c) for c in t.text):
                # a name misspelt in its last or first characters: 挪威每 (挪威 + 每), 北非州
                nxt = tokens[k + 1] if k + 1 < len(tokens) else None
                for joined, shown in ((prev, f"{prev.shown}{t.shown}" if prev else ""),
                                      (nxt, f"{t.shown}{nxt.shown}" if nxt else "")):
                    if joined is not None and joined.kind == lx.LOC:
                        word = joined.text + t.text if joined is prev else t.text + joined.text
                        codes = names.suggest_codes(word)
                        if codes == [joined.value]:          # 挪威每: Norwegian Sea rather than Norway
                            codes = names.suggest_codes(word, exclude=joined.value) + codes
                        if codes:
                            text = shown
                            break
            if codes:
                raise Fail(diagnostic("unknown_province", names, text=text,
                                      suggestions=[names.english[c] for c in codes], suggestion_codes=codes))
            raise Fail(diagnostic("unknown_word", names, text=t.shown))
        if t.kind == lx.AMBIGUOUS:
            raise Fail(diagnostic("ambiguous_province", names, text=t.shown, candidates=list(t.value)))
        if t.kind == lx.BAD_COAST:
            prov = prev.value if prev is not None and prev.kind == lx.LOC else None
            if prov is not None:
                raise Fail(diagnostic("unknown_coast", names, text=t.shown, province=prov,
                                      coasts=list(names.map.coasts_of(prov))))
            raise Fail(diagnostic("unknown_word", names, text=t.shown))
        prev = t


def _statement(r: _Reader) -> list[Draft]:
    k, k1 = r.kind(), r.kind(1)
    # list orders led by their verb
    if (k == lx.PRIORITY and k1 in (lx.BUILD, lx.DISBAND)) or (k in (lx.BUILD, lx.DISBAND) and k1 == lx.PRIORITY):
        kind = "build_pri" if lx.BUILD in (k, k1) else "disband_pri"
        r.i += 2
        while r.kind() == lx.COLON:
            r.take()
        items = r.unit_list(after_verb=True)
        if not items:
            raise r.incomplete("unit")
        return [Draft(kind, items=items)]
    if k in (lx.BUILD, lx.DISBAND, lx.R):
        r.take()
        while r.kind() == lx.COLON:
            r.take()
        if k == lx.BUILD and r.kind() == lx.WAIVE:         # 建造：放弃
            return _waive(r)
        items = r.unit_list(after_verb=True)
        if not items:
            raise r.incomplete("unit")
        kind = "build" if k == lx.BUILD else "disband"
        if kind == "build" and r.kind() == lx.UNIT:      # "build Kie fleet"
            t = r.take().value
            t = "A" if t == "a" else t
            items = [Ref(u.unit_type or t, u.prov, u.coast or r.coast()) for u in items]
        return [Draft(kind, units=[u]) for u in items]
    if k == lx.WAIVE:
        return _waive(r)
    if k == lx.PRIORITY:
        raise r.unexpected()

    units = r.unit_list(after_verb=False)
    if not units:
        raise r.unexpected()
    k, k1 = r.kind(), r.kind(1)
    if k in (lx.LOC, lx.UNIT) and len(units) == 1:
        escorted = _escorted(r, units)
        if escorted is not None:
            return escorted
    if k == lx.HOLD:
        while r.kind() == lx.HOLD:                          # 留在原地, 原地 防守
            r.take()
        if len(units) == 1 and r.kind() == lx.LOC and r.tok().value == units[0].prov:
            r.take()                                        # 巴黎陆军守巴黎, 留在巴黎不动
            r.coast()
            while r.kind() == lx.HOLD:
                r.take()
        return [Draft("hold", units=[u]) for u in units]
    if k == lx.BUILD:
        r.take()
        t = r.take().value if r.kind() == lx.UNIT else None
        t = "A" if t == "a" else t
        coast = r.coast()
        return [Draft("build", units=[Ref(u.unit_type or t, u.prov, u.coast or coast)]) for u in units]
    if k == lx.DISBAND or (k == lx.R and k1 != lx.LOC):
        r.take()
        return [Draft("disband", units=[u]) for u in units]
    if k in (lx.RETREAT, lx.R) or (k == lx.PRIORITY and k1 in (lx.RETREAT, lx.R, lx.MOVE)):
        pref = False
        while r.kind() in (lx.RETREAT, lx.R, lx.PRIORITY, lx.MOVE, lx.COLON):
            pref = pref or r.kind() == lx.PRIORITY
            r.take()
        places = r.place_list()
        if len(units) > 1:
            raise r.fail("several_units", order="retreat")
        if pref or len(places) > 1:
            return [Draft("retreat_pref", units=units, places=places)]
        return [Draft("retreat", units=units, dest=places[0])]
    if k == lx.SUPPORT:
        r.take()
        hold = r.kind() == lx.HOLD                          # 支援防守马赛陆军
        if hold:
            r.take()
        r.skip_power()
        target = r.unit()
        if target is None:
            raise r.incomplete("unit")
        if r.kind() == lx.HOLD:
            while r.kind() == lx.HOLD:
                r.take()
            return [Draft("support", units=[u], target=target) for u in units]
        if not hold and r.kind() in (lx.MOVE, lx.VIA, lx.VIA_CONVOY):
            d = Draft("support", target=target)
            r.path(d)
            return [Draft("support", units=[u], target=target, dest=d.dest) for u in units]
        return [Draft("support", units=[u], target=target) for u in units]
    if k == lx.CONVOY:
        r.take()
        r.skip_power()
        target = r.unit()
        if target is None:
            raise r.incomplete("unit")
        d = Draft("convoy", target=target)
        r.path(d)
        return [Draft("convoy", units=[u], target=target, dest=d.dest) for u in units]
    if k in (lx.MOVE, lx.VIA, lx.VIA_CONVOY):
        d = Draft("move", units=units)
        r.path(d)
        if len(units) > 1:
            raise r.fail("several_units", order="move")
        return [d]
    if k is None or k in _BREAKS:
        raise r.incomplete("order")
    raise r.unexpected()


def _escorted(r: _Reader, units: list[Ref]) -> list[Draft] | None:
    """The army escorted by fleets: ``伦敦陆军由北海舰队护送到挪威``,
    ``倫敦陸軍被北海艦隊運送至挪威``, ``伦敦陆军乘北海舰队到挪威``,
    ``伦敦陆军在北海舰队和挪威海舰队护航下移动到…``: the army's move via
    convoy, its route the fleets' seas (the fleets' own convoy orders are
    their owners' to give). None (nothing read) if no fleet follows."""
    save = r.i
    fleets = r.unit_list(after_verb=False)
    seas = [f for f in fleets if f.unit_type == "F" or r.names.map.provinces[f.prov].kind == "sea"]
    if not fleets or len(seas) != len(fleets) or r.kind() not in (lx.CONVOY, lx.VIA_CONVOY, lx.MOVE):
        r.i = save
        return None
    while r.kind() in (lx.CONVOY, lx.VIA_CONVOY):
        r.take()
    d = Draft("move", units=units)
    r.path(d)
    d.route = [Place(f.prov) for f in fleets] + d.route
    d.via_convoy = True
    return [d]


def _waive(r: _Reader) -> list[Draft]:
    """``waive [N]``, ``放弃建造``, ``放弃两次建造``, ``放弃建造一个``, ``不建造舰队``:
    the waive word with numbers, build and unit words in it; N waives."""
    r.take()
    n = None
    while r.kind() in (lx.NUMBER, lx.BUILD, lx.UNIT, lx.WAIVE):
        t = r.take()
        if t.kind == lx.NUMBER and n is None:
            n = t.value
    return [Draft("waive") for _ in range(max(1, n or 1))]
