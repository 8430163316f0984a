"""Reading order lines: :func:`parse_line` and :func:`parse_orders`.

A line is tokenised (:mod:`.lexicon`), read by one grammar for English and
Chinese (:mod:`.grammar`) and checked against map, phase and position
(:mod:`.resolve`). The result is a :class:`ParsedLine`: the order(s), or a
:class:`~judge.notation.diagnostics.Diagnostic` saying what was not understood.

A line may hold several orders: ``A Berlin-Prussia, A Warsaw-Prussia`` or the
Chinese convoy by several fleets ``北海舰队、挪威海舰队和巴伦茨海舰队运输荷兰陆军移动圣彼得堡``
(one Convoy per fleet). Then ``ParsedLine.orders`` holds them all, in the order
written, and ``ParsedLine.order`` is the first. If any order of a line fails,
the line fails as a whole and nothing of it is taken.
Two orders for one unit are the game's business (the later one counts).

A line may name the power whose orders follow (``France: A Par - Bur``,
``法国：巴黎陆军移动到勃艮第``); with ``ctx.power`` set, another power fails with
``wrong_power``, else the named power's ownership of the units is checked.
Invisible characters (a byte-order mark, zero-width spaces: :func:`clean_line`)
are ignored. Whether an order read is legal on the board is
:func:`judge.notation.legal.check_legal`'s business, not the parser's.

Chatter: a line of Chinese talk around the orders (``各位好``, ``本回合指令如下：``,
``以下是法国的指令``) is passed over: ``ParsedLine.kind == "chatter"``, no order,
no error, and one note ``chatter`` quoting it. A line is chatter when it starts
with words that are not order words, names no province (nor a word like one:
those get the error with "did you mean") and no unit (陆军, 部队; a one-character
军 may be talk: 我军进攻！), holds no English order word and no waive; a line that
looks like an order and fails is an error as always.

English talk is passed over the same way (issue 18: a line is an error only
when it looks like an order): ``Here are my orders:``, ``Please confirm``,
``Alice Smith``. An English line is talk when it starts with a word that is
no order or unit word, names no province or coast (nor a word like one),
holds no waive or priority, and at most one order or unit word (``Thanks a
lot``: ``a``); ``I want to hold`` (two) is an error. Whether a line looks
like a mail command (``SINGON g pw``) is the mail reader's question, asked
before this one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.map import Map
from ..rules.orders import Order, StandingOrder
from ..rules.position import Position
from . import lexicon as lx
from .diagnostics import Diagnostic, diagnostic
from .grammar import Fail, statements
from .lexicon import COMMA, COLON, END, MOVE, SEP, Token, clean_line, lexicon
from .names import NameIndex, is_cjk
from .resolve import resolve


_PUNCTUATION = (MOVE, COMMA, COLON, END, SEP)
# tokens that make a line an order (or a failed one), never talk
_ORDER_ONLY = (lx.LOC, lx.AMBIGUOUS, lx.COAST, lx.BAD_COAST, lx.WAIVE, lx.PRIORITY)


@dataclass(frozen=True)
class ParseContext:
    """What the parser may know: the map and its names, the phase kind (``"M"``
    movement, ``"R"`` retreat, ``"A"`` adjustment), the position (to infer unit
    types and coasts and to check the units exist) and whose orders these are
    (``power``; None: any power's units may be ordered)."""

    map: Map
    names: NameIndex
    phase_kind: str = "M"
    position: Position | None = None
    power: str | None = None


@dataclass(frozen=True)
class ParsedLine:
    """One line read: ``order`` (the first order, or None on error or when the
    line held no order), ``error`` (a :class:`Diagnostic` or None), ``orders``
    (every order of the line, in the order written; empty on error) and
    ``notes`` (``tuple[Diagnostic, ...]``: what the player should be told about
    a line that was read, in the order met; empty on error). A note does not
    stop the order: e.g. ``unit_coast_corrected`` when ``F StP/nc - Bar`` is
    written for the fleet on St Petersburg's south coast, read as
    ``F StP/sc - Bar`` (the coast of the ordered unit is ignored, DATC 6.B.10).
    Show ``note.message(lang)`` with the confirmation of the order."""

    input: str
    order: Order | StandingOrder | None
    error: Diagnostic | None
    orders: tuple = ()
    notes: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def kind(self) -> str:
        """``"orders"`` (read), ``"error"``, ``"chatter"`` (talk, passed over:
        show its one note) or ``"empty"`` (only punctuation, or a power name)."""
        if self.error is not None:
            return "error"
        if self.orders:
            return "orders"
        return "chatter" if any(n.code == "chatter" for n in self.notes) else "empty"


def parse_line(line: str, ctx: ParseContext) -> ParsedLine:
    """Read one line. Never raises for bad input: errors come back as
    ``ParsedLine.error``. A line with no words (only spaces or punctuation)
    gives ``order=None, error=None``."""
    tokens = lexicon(ctx.names).tokens(line)
    if all(t.kind in _PUNCTUATION for t in tokens):      # "--", "。": no order
        return ParsedLine(line, None, None, ())
    if is_chatter(tokens, ctx.names):
        return ParsedLine(line, None, None, (), (diagnostic("chatter", ctx.names, text=clean_line(line).strip()),))
    notes: list[Diagnostic] = []
    try:
        orders = tuple(resolve(d, ctx, notes) for d in statements(tokens, ctx.names, ctx.power))
    except Fail as f:
        return ParsedLine(line, None, f.diagnostic, ())
    return ParsedLine(line, orders[0] if orders else None, None, orders, tuple(notes))


_ORDER_WORDS = (lx.UNIT, MOVE, lx.HOLD, lx.SUPPORT, lx.CONVOY, lx.VIA, lx.VIA_CONVOY, lx.RETREAT, lx.R,
                lx.DISBAND, lx.BUILD)


def is_chatter(tokens: list[Token], names: NameIndex) -> bool:
    """True for the tokens of a line of talk, Chinese or English (see the module doc)."""
    if not any(t.kind == lx.UNKNOWN and any(is_cjk(c) for c in t.text) for t in tokens):
        return _english_talk(tokens, names)
    first = next((t for t in tokens if t.kind not in (*_PUNCTUATION, lx.NUMBER, lx.POWER)), None)
    if first is None or first.kind != lx.UNKNOWN:
        return False
    for t in tokens:
        if t.kind in _ORDER_ONLY or (t.kind == lx.UNIT and len(t.text) > 1):   # 三角洲陆军防守: an order
            return False
        if t.kind == lx.UNKNOWN:
            if names.suggest_codes(t.text):
                return False
        elif t.kind != lx.POWER and t.text.isascii() and t.text.isalpha():
            return False                                 # an English order word
    return True


def _english_talk(tokens: list[Token], names: NameIndex) -> bool:
    words = [t for t in tokens if t.kind not in (*_PUNCTUATION, lx.NUMBER, lx.POWER)]
    if not words or words[0].kind != lx.UNKNOWN:
        return False
    if any(t.kind in _ORDER_ONLY or t.kind == lx.COAST for t in tokens):
        return False
    if sum(t.kind in _ORDER_WORDS for t in tokens) > 1:
        return False
    return not any(names.suggest_codes(w) for t in words if t.kind == lx.UNKNOWN for w in t.text.split()
                   if len(w) >= 5)          # "turn" is no misspelt Tunis; "Burgandy" is a misspelt Burgundy


def chatter_note(line: str, names: NameIndex) -> Diagnostic | None:
    """The ``chatter`` note for a line of talk (see the module doc), else None;
    for lines read outside a game's orders (before SIGNON)."""
    if is_chatter(lexicon(names).tokens(line), names):
        return diagnostic("chatter", names, text=clean_line(line).strip())
    return None


def parse_orders(text: str, ctx: ParseContext) -> list[ParsedLine]:
    """One :class:`ParsedLine` per non-blank line of ``text`` (a line of only
    spaces and invisible characters is blank)."""
    return [parse_line(line, ctx) for line in text.splitlines() if clean_line(line).strip()]
