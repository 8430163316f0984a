"""Press (issue 4 §4): messages between players, relayed by the judge.

A press block in a mail, after ``SIGNON``::

    PRESS TO France Germany         (or letters: PRESS TO FG; PRESS TO GM)
    ... text ...
    ENDPRESS

    BROADCAST                       (to everyone; PRESS with no TO is the same)
    ... text ...
    ENDPRESS

``GREY`` (or ``GRAY``, 匿名) on the first line sends it unsigned. Chinese
words: 新闻/新聞/密信 (press), 给/給/致 (to), 广播/廣播/公告 (broadcast),
新闻结束/新聞結束/广播结束/廣播結束 (end). Power names may be written in
English or Chinese.

:func:`read_press` parses a block; :func:`route` decides who receives it
under the game's :class:`PressSettings` and returns
:class:`~judge.game.notices.Notice` intents; :func:`keep_broadcast` keeps a
broadcast in the game for the archive (the phase's record takes it). The rules:

- no press from players when the game allows none (the GM may always write);
- press to some powers only when ``private`` is on; grey press only when
  ``grey`` is on, signed only when ``white`` is on; press to the GM only when
  ``to_gm`` is on;
- the GM receives a copy of every press, and sees who sent grey press;
- observers receive broadcasts (when ``observers`` is on), never private press;
- a press mail comes from the judge; it names the sending power, or nobody for
  grey press, and shows the sender's address only in a game that is not
  ``anonymous`` (gunboat) and for signed press.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, fields

from ..notation.lexicon import clean_line
from .deadlines import check_keys
from .errors import GameError
from .notices import GM, OBSERVERS, Notice

_PRESS = ("PRESS", "新闻", "新聞", "密信")
_BROADCAST = ("BROADCAST", "广播", "廣播", "公告")
_TO = ("TO", "给", "給", "致")
_GREY = ("GREY", "GRAY", "匿名")
_END = ("ENDPRESS", "END PRESS", "ENDBROADCAST", "END BROADCAST", "新闻结束", "新聞結束", "广播结束", "廣播結束", "密信结束", "密信結束")
_GM_WORDS = ("GM", "M", "MASTER", "主持人", "裁判")
_ALL = ("ALL", "所有人", "全体", "全體")
MAX_PRESS_CHARS = 20000


@dataclass(frozen=True)
class PressSettings:
    """The press rules of a game (see module doc). Raises ValueError for a
    value that is not true or false."""

    allowed: bool = True
    private: bool = True
    white: bool = True
    grey: bool = False
    to_gm: bool = True
    observers: bool = True
    anonymous: bool = False

    def __post_init__(self):
        for f in fields(self):
            if not isinstance(getattr(self, f.name), bool):
                raise GameError("not_a_flag", what=f"press {f.name}")

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> "PressSettings":
        check_keys(data, {f.name for f in fields(cls)}, "settings.press")
        return cls(**data)


@dataclass(frozen=True)
class PressHeader:
    """The first line of a press block: ``to`` the powers named (None for a
    broadcast), ``gm`` when it is to the GM, ``grey`` for unsigned press."""

    to: tuple[str, ...] | None
    gm: bool = False
    grey: bool = False
    line: str = ""


@dataclass(frozen=True)
class PressBlock:
    header: PressHeader
    text: str
    closed: bool = True   # False: no ENDPRESS (the rest of the mail was taken)


def _norm(line: str) -> str:
    return unicodedata.normalize("NFKC", clean_line(line)).strip()


_STARTS = frozenset(w[0] for w in _PRESS + _BROADCAST)
_END_STARTS = frozenset(w[0] for w in _END)
"""The first characters of the press words: a line that starts otherwise
(most lines: orders, commands) is read no further (issue 23)."""


def is_press_start(line: str) -> bool:
    """Whether ``line`` opens a press block."""
    text = _norm(line)
    up = text.upper()
    if up[:1] not in _STARTS and text[:1] not in _STARTS:
        return False
    return any(up == w or up.startswith(w + " ") or (not w.isascii() and text.startswith(w))
               for w in _PRESS + _BROADCAST) and not is_press_end(line)


def is_press_end(line: str) -> bool:
    text = _norm(line).upper().rstrip(".")
    if text[:1] not in _END_STARTS:
        return False
    return any(text == w or (not w.isascii() and text.startswith(w)) for w in _END)


def read_header(line: str, names) -> PressHeader:
    """Parse a press block's first line. ``names``: the map's
    :class:`~judge.notation.names.NameIndex` (power names and aliases in
    English and Chinese). Raises GameError naming what it cannot read."""
    text = _norm(line)
    up = text.upper()
    word = next((w for w in _PRESS + _BROADCAST
                 if up == w or up.startswith(w + " ") or (not w.isascii() and text.startswith(w))), None)
    if word is None:
        raise GameError("not_press_line", text=line.strip())
    rest = text[len(word):].strip(" :：")
    broadcast = word in _BROADCAST
    tokens = [t for t in re.split(r"[\s,，、;；]+", rest) if t]
    grey = False
    for g in _GREY:
        if any(t.upper() == g for t in tokens):
            grey = True
            tokens = [t for t in tokens if t.upper() != g]
    if broadcast:
        if tokens:
            raise GameError("broadcast_recipients", text=" ".join(tokens))
        return PressHeader(None, False, grey, line.strip())
    if tokens and tokens[0].upper().rstrip(":：") in _TO:
        tokens = tokens[1:]
    elif tokens and any(tokens[0].startswith(w) for w in _TO if not w.isascii()):
        tokens[0] = tokens[0][1:]
        tokens = [t for t in tokens if t]
    if not tokens or (len(tokens) == 1 and tokens[0].upper() in _ALL):
        return PressHeader(None, False, grey, line.strip())
    powers, gm = [], False
    for tok in tokens:
        if tok.upper() in _GM_WORDS or tok in _GM_WORDS:
            gm = True
            continue
        power = names.power(tok)
        if power is None and tok.isascii() and tok.isalpha():
            # njudge letters: PRESS TO EFG
            found = [next((p for p in names.map.powers if p[0].upper() == ch), None) for ch in tok.upper()]
            if all(found):
                powers += found
                continue
        if power is None:
            raise GameError("press_not_power", text=tok)
        powers.append(power)
    return PressHeader(tuple(dict.fromkeys(powers)), gm, grey, line.strip())


def read_press(lines: list[str], start: int, names) -> tuple[PressBlock, int]:
    """The press block opening at ``lines[start]``: returns it and the index of
    the first line after its ``ENDPRESS`` (or the end). Raises GameError for
    an unreadable first line or a text over :data:`MAX_PRESS_CHARS`."""
    header = read_header(lines[start], names)
    body, i = [], start + 1
    while i < len(lines) and not is_press_end(lines[i]):
        body.append(lines[i].rstrip())
        i += 1
    closed = i < len(lines)
    text = "\n".join(body).strip("\n")
    if len(text) > MAX_PRESS_CHARS:
        raise GameError("press_too_long", limit=MAX_PRESS_CHARS)
    return PressBlock(header, text, closed), i + 1 if closed else i


def route(game, sender: str | None, block: PressBlock, key: str) -> list[Notice]:
    """Who receives ``block`` sent by ``sender`` (a power, or None for the GM)
    in ``game``. Returns the notices (kind ``"press"``): one for the
    recipients, one for the GM (with the real sender). ``key`` makes them
    unique (e.g. the inbound mail's key and the block's number). Raises
    GameError with the reason when the game's rules refuse the press."""
    rules: PressSettings = game.settings.press
    h = block.header
    if not block.text.strip():
        raise GameError("press_empty")
    if sender is not None:
        if not rules.allowed:
            raise GameError.of("no_press")
        if h.grey and not rules.grey:
            raise GameError.of("no_grey_press")
        if not h.grey and not rules.white:
            raise GameError.of("grey_only")
        if h.gm and not rules.to_gm:
            raise GameError.of("no_gm_press")
    playing = [p for p in game.map.powers if game.players[p].addresses]
    if h.to is None:
        to = [p for p in playing if p != sender]
    else:
        to = [p for p in h.to if p != sender]
        if sender is not None and to and not rules.private and set(to) != set(playing) - {sender}:
            raise GameError.of("no_private_press")
        if not to and not h.gm:
            raise GameError("press_self_only")
    broadcast = h.to is None
    base = {"game": game.name, "map": game.map_name, "phase": str(game.phase), "text": block.text,
            "broadcast": broadcast, "to": [] if broadcast else list(h.to), "to_gm": h.gm or broadcast}
    signed = sender is not None and not h.grey
    shown = dict(base, sender=sender if signed else None, gm_sender=sender is None, grey=h.grey,
                 address=_address(game, sender) if signed and not rules.anonymous else None,
                 gm_copy=False)
    out = []
    recipients = tuple(p for p in to if p in playing)
    if broadcast and rules.observers:
        recipients += (OBSERVERS,)
    if recipients:
        out.append(Notice("press", recipients, shown, f"{key}:press"))
    if sender is not None:     # the GM sees every press, and who sent it
        out.append(Notice("press", (GM,), dict(shown, sender=sender, address=_address(game, sender),
                                               gm_copy=True), f"{key}:press-gm"))
    return out


def keep_broadcast(game, sender: str | None, block: PressBlock, now) -> None:
    """Keep a broadcast (public press) that :func:`route` let through in the
    game's current phase, for the archive (``sender``: a power, or None for
    the GM; grey press is kept unsigned)."""
    if block.header.to is not None:
        return
    game.press += ({"at": now.isoformat(), "sender": None if block.header.grey else sender,
                    "gm": sender is None and not block.header.grey, "grey": block.header.grey,
                    "text": block.text},)


def _address(game, power: str | None) -> str | None:
    if power is None:
        return None
    addresses = game.players[power].addresses
    return addresses[0] if addresses else None
