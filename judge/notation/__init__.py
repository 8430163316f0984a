"""Order notation: text <-> orders, in English and Chinese.

``parse_line(line, ctx)`` / ``parse_orders(text, ctx)`` read orders as players
write them and return :class:`ParsedLine` (order(s) and notes, or a
:class:`Diagnostic`); ``check_legal(order, ctx)`` says whether an order read is
legal in the position (the rules core's verdict as a :class:`Diagnostic`);
``format_order(order, names, lang)`` writes canonical English or Chinese;
``clean_line(text)`` drops invisible characters (a byte-order mark, zero-width
spaces) that mail clients add.
"""

from .diagnostics import Diagnostic
from .format import format_order
from .legal import check_legal
from .lexicon import clean_line
from .names import NameIndex, name_index
from .parser import ParseContext, ParsedLine, parse_line, parse_orders

__all__ = ["Diagnostic", "NameIndex", "ParseContext", "ParsedLine", "check_legal", "clean_line", "format_order",
           "name_index", "parse_line", "parse_orders"]
