"""Words of orders and the tokenizer that finds them in a line.

A line is normalised (:func:`normalise_line`: NFKC, full-width forms, Unicode
dashes and arrows, Chinese punctuation) and cut into :class:`Token`\\ s by
:meth:`Lexicon.tokens`. Latin words are read word by word, joining up to
:data:`MAX_WORDS` words for names like ``St. Petersburg`` or ``Mid-Atlantic``;
Chinese has no spaces, so names and order words are matched longest-first at
each character. Both kinds may be mixed in one line. One :class:`Lexicon` is
built per :class:`~judge.notation.names.NameIndex` (cached) and holds every
index, so reading a line costs a few dictionary lookups per character.

The Chinese order words, with the region and source of each, are data in
:mod:`judge.notation.zh_words`; names and their variants come from the map's
names files. Each token keeps the text as typed (:attr:`Token.shown`) for
messages, traditional characters and all.
"""

from __future__ import annotations

import re
import unicodedata
import weakref
from dataclasses import dataclass

from ..rules.map import MapError
from . import zh_words
from .names import NameIndex, is_cjk

# ---- token kinds -----------------------------------------------------------------
UNIT = "unit"            # value "A" / "F"
LOC = "loc"              # value: province code
COAST = "coast"          # value: coast code
MOVE = "move"            # -, ->, to, 移动到, 进攻 ...
HOLD = "hold"
SUPPORT = "support"
CONVOY = "convoy"
VIA = "via"              # via / by / 经: the next province is a sea on the convoy route
VIA_CONVOY = "via_convoy"  # 经海运 (Latin "via convoy" is VIA + CONVOY)
RETREAT = "retreat"
R = "r"                  # "r": retreat when a province follows, else remove
DISBAND = "disband"
BUILD = "build"
WAIVE = "waive"
PRIORITY = "priority"    # priority / preference / 优先
POWER = "power"          # value: power name; "France:" / "法国：" before the orders of a line
SEP = "sep"              # list separator: 、 和 或 and or &
COMMA = "comma"          # , : a list separator or the end of an order
END = "end"              # ; . 。 : the end of an order
COLON = "colon"
NUMBER = "number"
UNKNOWN = "unknown"      # value: None; text: what was not understood
AMBIGUOUS = "ambiguous"  # value: tuple of province codes
BAD_COAST = "bad_coast"  # "/xx" or "(xx)" after a province, xx not a coast word

MAX_WORDS = 5

# English order words (after casefold). Single letters are order words only, never
# names: "s" is support even after a province (write "/s" or "(s)" for a coast).
# Besides the words: shorthand and misspellings players type (a letter left out
# or doubled, "convey" as Hong Kong's rules translation writes convoy: hk-fcc in
# judge.notation.zh_words.SOURCES); letters swapped ("Biuld") are not guessed:
# the game answers "did you mean Build?" (judge.game.refusals).
EN_WORDS: dict[str, tuple[str, object]] = {}
for _words, _kind, _value in (
    ("a army armies", UNIT, "A"),
    ("f fleet fleets", UNIT, "F"),
    ("to m move moves mv attack attacks", MOVE, None),
    ("mov moove atack attak atk att", MOVE, None),
    ("h hold holds stand stands", HOLD, None),
    ("hld holld stay stays defend defends", HOLD, None),
    ("s support supports sup supp", SUPPORT, None),
    ("suport suports supprt suppor supoort suppport supt suppt spt", SUPPORT, None),
    ("c convoy convoys t transport transports", CONVOY, None),
    ("convoi convey conveys conv cvy cnv convo", CONVOY, None),
    ("via by", VIA, None),
    ("retreat retreats", RETREAT, None),
    ("retret retreet retrat retr rtr ret", RETREAT, None),
    ("r", R, None),
    ("d disband disbands remove removes", DISBAND, None),
    ("disban disbnd disbd disb dsb dis remov", DISBAND, None),
    ("b build builds", BUILD, None),
    ("buld buid bld bulld", BUILD, None),
    ("waive waives", WAIVE, None),
    ("waiv wave", WAIVE, None),
    ("priority priorities preference preferences prefer prefers", PRIORITY, None),
    ("and or then", SEP, None),
    ("the in at", "filler", None),
):
    for _w in _words.split():
        EN_WORDS[_w] = (_kind, _value)

# Chinese order words, in simplified characters (input is folded to simplified
# first): judge.notation.zh_words, each row with its region and source.
ZH_WORDS: dict[str, tuple[str, object]] = {}
for _words, _kind, _value, _region, _source in zh_words.ROWS:
    for _hans, _hant in zh_words.pairs(_words):
        ZH_WORDS[_hans] = (_kind, _value)

# ---- normalisation ---------------------------------------------------------------
_CHAR_MAP = {
    # dashes -> "-"
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-",
    "\u2212": "-", "\ufe58": "-", "\ufe63": "-", "\u30fc": "-", "\u2500": "-",
    # arrows -> "→"
    "\u21d2": "→", "\u27f6": "→", "\u27f9": "→", "\u2794": "→", "\u2799": "→", "\u279c": "→",
    "\u279d": "→", "\u279e": "→", "\u27a1": "→", "\u21e8": "→", "\u21a6": "→", "\u2192": "→",
    # Chinese punctuation NFKC leaves alone
    "、": "、", "。": "。", "〝": "", "〞": "", "“": "", "”": "", "‘": "", "’": "", '"': "",
    "「": "", "」": "", "『": "", "』": "", "《": "", "》": "", "【": "(", "】": ")",
    "[": "(", "]": ")", "{": "(", "}": ")", "〔": "(", "〕": ")", "…": "...", "‥": "..",
    "\u3000": " ", "\u00a0": " ", "\t": " ",
    # wave dash and tildes: "～" is a move sign (巴黎陆军～勃艮第)
    "\u301c": "~", "\u223c": "~", "\uff5e": "~", "\u2053": "~",
}
_TRANS = str.maketrans(_CHAR_MAP)


def clean_line(text: str) -> str:
    """``text`` without invisible format characters (Unicode category Cf: the
    byte-order mark U+FEFF, zero-width space U+200B and joiners, word joiner,
    direction marks, soft hyphen), wherever they stand; nothing else changes
    (case and spacing are kept). Mail clients put these at the start of a body
    (``"\\ufeffSIGNON ..."``); use this on command and order lines before reading them."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


_CJK_SPACE = re.compile(r"(?<=[\u3400-\u9fff\uf900-\ufaff])\s+(?=[\u3400-\u9fff\uf900-\ufaff])")
_ARROW = re.compile(r"-*>|=+>|→+|-{2,}|<-+>?")


def normalise_line(line: str) -> str:
    """:func:`clean_line`, NFKC (full-width letters and punctuation to ASCII), casefold, and the
    table above: every dash is ``-``, every arrow ``→`` (``->``, ``=>``, ``-->``
    too), Chinese quotes dropped, brackets made round."""
    s = unicodedata.normalize("NFKC", clean_line(line)).translate(_TRANS).casefold()
    s = unicodedata.normalize("NFKC", s)
    return _ARROW.sub("→", s)


# ---- tokens ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Token:
    """One word of an order. ``text`` is the normalised text it came from, with
    Chinese folded to simplified characters (what lookups use); ``typed`` the
    same text as the player wrote it, traditional characters kept (what
    messages quote)."""

    kind: str
    value: object
    text: str
    paren: bool = False   # read inside round brackets (a gloss like 荷蘭（Holland）)
    typed: str = ""

    @property
    def shown(self) -> str:
        """The word as the player typed it (normalised)."""
        return self.typed or self.text


_JOIN_SEP = re.compile(r"(?:[.'_]|(?<! )-(?! )| )*")


_WORD = re.compile(r"[^\W_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]+")


def _word_end(s: str, i: int) -> int:
    """End of the Latin word (letters and digits, not CJK) starting at ``i``."""
    m = _WORD.match(s, i)
    return m.end() if m else i


def _skip_dot(s: str, i: int, kind: str) -> int:
    """After a name or coast, an abbreviation dot (``West.Med.``) belongs to it."""
    if kind in (LOC, COAST, AMBIGUOUS) and i < len(s) and s[i] == ".":
        return i + 1
    return i


class Lexicon:
    """Every index needed to read orders on one map: Latin names (normalised,
    joined words) and Chinese names and words (folded to simplified)."""

    def __init__(self, names: NameIndex):
        self.names = names
        self.fold_table = names.zh_fold
        self._kept: dict[str, tuple[Token, ...]] = {}     # line -> its tokens (see tokens)
        self.latin: dict[str, tuple[str, object]] = {}
        self.cjk: dict[str, tuple[str, object]] = {}
        self.latin_coasts: dict[str, str] = {}
        self.cjk_coasts: dict[str, str] = {}
        for key, code in names.provinces.items():
            self._put(key, (LOC, code))
        for key, codes in names.ambiguous.items():
            self._put(key, (AMBIGUOUS, codes))
        for key, coast in names.coasts.items():
            if any(is_cjk(c) for c in key):
                self.cjk_coasts[self.fold(key)] = coast
            else:
                self.latin_coasts[key] = coast
        for word, entry in ZH_WORDS.items():
            if word in self.cjk and self.cjk[word][0] in (LOC, AMBIGUOUS):
                raise MapError("names.json", "provinces", f"{word!r} is an order word, not usable as a name")
            self.cjk[word] = entry
        for _words, kind, value, _region, _source in zh_words.ROWS:   # the traditional forms, folded
            for _hans, hant in zh_words.pairs(_words):
                self.cjk.setdefault(self.fold(hant), (kind, value))
        for key, coast in self.cjk_coasts.items():
            if len(key) > 1 and key not in self.cjk:   # one-character coasts only in brackets
                self.cjk[key] = (COAST, coast)
        for key, power in names.powers.items():      # a province name wins ("eng": English Channel)
            table, k = (self.cjk, self.fold(key)) if any(is_cjk(c) for c in key) else (self.latin, key)
            if k not in table and k not in EN_WORDS:
                table[k] = (POWER, power)
        self.cjk_max = max(len(k) for k in self.cjk)

    def _put(self, key: str, entry: tuple) -> None:
        if any(is_cjk(c) for c in key):
            k = self.fold(key)
            if self.cjk.get(k, entry) != entry:
                raise MapError("names.json", "provinces", f"name {key!r} means two provinces once traditional "
                                                          "characters are folded to simplified ones")
            self.cjk[k] = entry
        else:
            self.latin[key] = entry

    def fold(self, text: str) -> str:
        return "".join(self.fold_table.get(ch, ch) for ch in text)

    # ---- tokenizer -----------------------------------------------------------
    def tokens(self, line: str) -> list[Token]:
        """The tokens of one line (already :func:`normalise_line`-d or not), a
        new list each time. The last :data:`KEPT_LINES` lines' tokens are kept:
        players send the same order lines again and again (issue 23)."""
        kept = self._kept.get(line)
        if kept is None:
            if len(self._kept) >= KEPT_LINES:
                self._kept.clear()
            kept = self._kept[line] = tuple(self._tokens(line))
        return list(kept)

    def _tokens(self, line: str) -> list[Token]:
        raw = _CJK_SPACE.sub("", normalise_line(line))
        s = self.fold(raw)              # one character for one: positions in s are positions in raw
        typed = raw if raw != s else None
        out: list[Token] = []
        i, n = 0, len(s)
        depth = 0
        while i < n:
            ch = s[i]
            if ch.isspace():
                i += 1
            elif ch in "(/":
                j = self._coast_after(s, i, out, typed)
                if j is not None:
                    i = j
                else:
                    depth += ch == "("
                    i += 1
            elif ch == ")":
                depth = max(0, depth - 1)
                i += 1
            elif is_cjk(ch):
                i = self._cjk(s, i, out, depth > 0, typed)
            elif ch.isalnum():
                i = self._latin(s, i, out, depth > 0)
            else:
                i = self._punct(s, i, out, depth > 0)
        return _drop_glosses(out, raw if raw != s else None)

    def _coast_after(self, s: str, i: int, out: list[Token], typed: str | None) -> int | None:
        """``/nc``, ``/north coast``, ``(nc)``, ``(north)``, ``（北岸）`` right after a
        province (or after a unit word that follows one): append a COAST token (or
        BAD_COAST for ``/xx``) and return the index after it; None when this is
        no coast (a bracketed aside such as a gloss)."""
        if _last_loc(out, through_unit=True) is None:
            return None
        j = i + 1
        while j < len(s) and s[j] == " ":
            j += 1
        if s[i] == "(":
            k = s.find(")", j)
            if k < 0:
                return None
            coast = self._coast_word(s[j:k])
            if coast is None:
                return None
            out.append(Token(COAST, coast, s[j:k].strip(), typed=typed[j:k].strip() if typed else ""))
            return k + 1
        # "/": the longest of one or two words that is a coast word
        e1 = _word_end(s, j)
        if e1 == j:
            return None
        j2 = _JOIN_SEP.match(s, e1).end()
        e2 = _word_end(s, j2)
        if s[j2:e2] in EN_WORDS and " " in s[e1:j2]:   # "/nc s a ber": an order word follows
            e2 = e1
        for end in (e2, e1):
            coast = self._coast_word(s[j:end])
            if coast is not None and end > j:
                out.append(Token(COAST, coast, s[j:end]))
                return _skip_dot(s, end, COAST)
        out.append(Token(BAD_COAST, None, s[j:e1]))
        return e1

    def _coast_word(self, text: str) -> str | None:
        key = re.sub(r"[\s.'_\-]+", "", text)
        if not key:
            return None
        return self.latin_coasts.get(key) or self.cjk_coasts.get(key)

    def _cjk(self, s: str, i: int, out: list[Token], paren: bool, typed: str | None) -> int:
        for L in range(min(self.cjk_max, len(s) - i), 0, -1):
            entry = self.cjk.get(s[i:i + L])
            if entry and (L > 1 or not self._inside_word(s, i, entry)):
                self._emit(out, entry, s[i:i + L], paren, typed[i:i + L] if typed else "")
                return i + L
        # not understood: gather until something known starts
        j = i + 1
        while j < len(s) and is_cjk(s[j]) and not self._known_at(s, j):
            j += 1
        self._unknown(out, s[i:j], paren, typed[i:j] if typed else "")
        return j

    def _known_at(self, s: str, j: int, loose: bool = True) -> bool:
        """Whether a known word starts at ``j`` (with ``loose``: not a one-character
        power or number inside an unknown word)."""
        for L in range(1, min(self.cjk_max, len(s) - j) + 1):
            entry = self.cjk.get(s[j:j + L])
            if entry and (L > 1 or not loose or not self._inside_word(s, j, entry)):
                return True
        return False

    def _inside_word(self, s: str, i: int, entry: tuple) -> bool:
        """A one-character power or number followed by Chinese that is no known word
        is part of an unknown word: 英吉列海峡 (a misspelt English Channel), 三角洲."""
        return entry[0] in (POWER, NUMBER) and i + 1 < len(s) and is_cjk(s[i + 1]) and \
            not self._known_at(s, i + 1, loose=False)

    def _latin(self, s: str, i: int, out: list[Token], paren: bool) -> int:
        # words from i, joined only by " . ' _" or an unspaced "-"; names of two or more words:
        # later words must not be order words, so the words end before the first later one that is
        spans = []
        j = i
        while len(spans) < MAX_WORDS:
            e = _word_end(s, j)
            if e == j or (spans and s[j:e] in EN_WORDS):
                break
            spans.append((j, e))
            j = _JOIN_SEP.match(s, e).end()
        words = [s[a:b] for a, b in spans]
        prev_loc = _last_loc(out)
        for k in range(len(words), 1, -1):
            key = "".join(words[:k])
            end = spans[k - 1][1]
            if key in self.latin:
                self._emit(out, self.latin[key], s[i:end], paren)
                return _skip_dot(s, end, self.latin[key][0])
            if prev_loc is not None and key in self.latin_coasts:
                out.append(Token(COAST, self.latin_coasts[key], s[i:end], paren))
                return _skip_dot(s, end, COAST)
        w = words[0]
        end = spans[0][1]
        if prev_loc is not None and w in self.latin_coasts and len(w) > 1 and w not in EN_WORDS:
            coast = self.latin_coasts[w]
            has = coast in self.names.map.provinces[prev_loc].coasts
            if has or w not in self.latin:      # "east" is a coast of Bulgaria, else Eastern Med
                out.append(Token(COAST, coast, w, paren))
                return _skip_dot(s, end, COAST)
        if w in EN_WORDS:
            self._emit(out, EN_WORDS[w], w, paren)
        elif w in self.latin:
            self._emit(out, self.latin[w], w, paren)
            return _skip_dot(s, end, LOC)
        elif w.isdecimal():         # not isdigit: "❻" and "²" are digits int() cannot read
            out.append(Token(NUMBER, int(w), w, paren))
        else:
            self._unknown(out, w, paren)
        return end

    def _punct(self, s: str, i: int, out: list[Token], paren: bool) -> int:
        ch = s[i]
        if ch in "-→~":                 # "~": 巴黎陆军～勃艮第
            out.append(Token(MOVE, None, ch, paren))
        elif ch == ",":
            out.append(Token(COMMA, None, ch, paren))
        elif ch in ";。.!?":
            out.append(Token(END, None, ch, paren))
        elif ch == ":":
            out.append(Token(COLON, None, ch, paren))
        elif ch in "、&+":
            out.append(Token(SEP, None, ch, paren))
        elif ch in "*'`=<>|\\#•·・◦‣":
            pass
        else:
            self._unknown(out, ch, paren)
        return i + 1

    def _emit(self, out: list[Token], entry: tuple, text: str, paren: bool, typed: str = "") -> None:
        kind, value = entry
        if kind != "filler":
            out.append(Token(kind, value, text, paren, typed))

    @staticmethod
    def _unknown(out: list[Token], text: str, paren: bool, typed: str = "") -> None:
        if out and out[-1].kind == UNKNOWN and out[-1].paren == paren and \
                not any(is_cjk(c) for c in text + out[-1].text):
            out[-1] = Token(UNKNOWN, None, f"{out[-1].text} {text}", paren)
        else:
            out.append(Token(UNKNOWN, None, text, paren, typed))


def _last_loc(out: list[Token], through_unit: bool = False) -> str | None:
    """The province of the last token if it is a province (coasts bind to it);
    with ``through_unit``, also of the token before a final unit word
    (西班牙舰队（北岸）)."""
    if out and out[-1].kind == LOC:
        return out[-1].value
    if through_unit and len(out) > 1 and out[-1].kind == UNIT and out[-2].kind == LOC:
        return out[-2].value
    return None


def _drop_glosses(tokens: list[Token], raw: str | None) -> list[Token]:
    """Drop a bracketed repeat of the province just named (荷蘭（Holland）); with
    ``raw`` (the line before folding, when it differs), give every token the
    text as typed."""
    out: list[Token] = []
    for t in tokens:
        if t.paren and t.kind == LOC and out and out[-1].kind == LOC and out[-1].value == t.value:
            continue
        out.append(t)
    return out


KEPT_LINES = 4096
"""Lines whose tokens a :class:`Lexicon` keeps (then it starts afresh)."""

_LEXICONS: "weakref.WeakKeyDictionary[NameIndex, Lexicon]" = weakref.WeakKeyDictionary()


def lexicon(names: NameIndex) -> Lexicon:
    """The (cached) :class:`Lexicon` of ``names``."""
    lex = _LEXICONS.get(names)
    if lex is None:
        lex = _LEXICONS[names] = Lexicon(names)
    return lex
