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
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.map import Map
from ..rules.orders import Order, StandingOrder
from ..rules.position import Position
from .diagnostics import Diagnostic
from .grammar import Fail, statements
from .lexicon import COMMA, COLON, END, MOVE, SEP, clean_line, lexicon
from .names import NameIndex
from .resolve import resolve


_PUNCTUATION = (MOVE, COMMA, COLON, END, SEP)


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


def parse_line(line: str, ctx: ParseContext) -> ParsedLine:
    """Read one line. Never raises for bad input: errors come back as
    ``ParsedLine.error``. A line with no words (only spaces or punctuation)
    gives ``order=None, error=None``."""
    tokens = lexicon(ctx.names).tokens(line)
    if all(t.kind in _PUNCTUATION for t in tokens):      # "--", "。": no order
        return ParsedLine(line, None, None, ())
    notes: list[Diagnostic] = []
    try:
        orders = tuple(resolve(d, ctx, notes) for d in statements(tokens, ctx.names, ctx.power))
    except Fail as f:
        return ParsedLine(line, None, f.diagnostic, ())
    return ParsedLine(line, orders[0] if orders else None, None, orders, tuple(notes))


def parse_orders(text: str, ctx: ParseContext) -> list[ParsedLine]:
    """One :class:`ParsedLine` per non-blank line of ``text`` (a line of only
    spaces and invisible characters is blank)."""
    return [parse_line(line, ctx) for line in text.splitlines() if clean_line(line).strip()]
