"""The game: settings, players, position, orders and history, over the rules core.

Imports point inward (rules <- notation <- game). Nothing here reads the clock:
use cases take ``now`` (UTC). Module map: ``game`` (the :class:`Game`),
``settings`` (rule profile and house rules), ``book`` (last order wins),
``resolve`` (one phase with the house rules), ``defaults`` (NMR defaults of
``RULES.md`` §3), ``sequence`` (which phase comes next), ``records`` (entries and
phase records), ``codec`` (plain-data forms), ``replay``,
``errors`` (:class:`GameError`); the end of a game (``RULES.md`` §4-5): ``ending``
(alliances, draw and concession votes, the victory check, the GM's rulings),
``scores`` (final scores, awards, NMR evidence), ``final_report`` (the
end-of-game mail), ``setting_text`` (settings as ``key=value``); the game on
its own clock (issue 4): ``deadlines`` (deadline settings and times),
``schedule`` (deadline, WAIT, pause, absences, NMR record), ``turns`` (what is
due at a time: reminders, early processing, late notices, adjudication),
``nmr`` (NMR policy, abandonment, replacement, absences), ``press``,
``master`` (GM operations), ``results`` (results-mail data), ``notices`` (mail
intents for the mail layer), ``roster`` (who played each power when).
"""

from .game import Game, GameError, Line, Receipt
from .records import OrderEntry, PhaseRecord, Player
from .settings import HouseRules, Settings

__all__ = ["Game", "GameError", "Line", "Receipt", "OrderEntry", "PhaseRecord", "Player",
           "HouseRules", "Settings"]
