"""Order notation: text <-> orders, in English and Chinese.

``parse_line(line, ctx)`` / ``parse_orders(text, ctx)`` read orders as players
write them and return :class:`ParsedLine` (order(s) or a :class:`Diagnostic`);
``format_order(order, names, lang)`` writes canonical English or Chinese.
"""

from .diagnostics import Diagnostic
from .format import format_order
from .names import NameIndex, name_index
from .parser import ParseContext, ParsedLine, parse_line, parse_orders

__all__ = ["Diagnostic", "NameIndex", "ParseContext", "ParsedLine", "format_order", "name_index",
           "parse_line", "parse_orders"]
