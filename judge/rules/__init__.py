"""The rules core: pure functions over map, position and orders.

Standard library only; no I/O, clock or logging set-up (a test checks the imports).
"""

from .adjustments import adjudicate_adjustments
from .map import Map, MapError
from .movement import adjudicate_movement, order_refusal
from .options import DEFAULT_RULES, PROFILES, RuleOptions
from .position import DislodgedUnit, Position, Unit
from .retreats import adjudicate_retreats, update_ownership

__all__ = [
    "Map", "MapError", "Position", "Unit", "DislodgedUnit", "RuleOptions", "DEFAULT_RULES",
    "PROFILES", "adjudicate_movement", "order_refusal", "adjudicate_retreats", "adjudicate_adjustments",
    "update_ownership",
]
