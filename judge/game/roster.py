"""Who played each power when: the game's record of player changes, for the
archive's ``SUMMARY`` (issue 6) and the GM.

A :class:`Change` is kept each time a power's player changes: ``joined``
(a player, or a replacement, took the power), ``left`` (RESIGN), ``ejected``
(the GM removed the player), ``replaced`` (the GM opened the power to a
replacement). ``address`` is the player's address of record (shown in public
only in part, and not at all in a gunboat game).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .codec import time_from_str, time_to_str

EVENTS = ("joined", "left", "ejected", "replaced")


@dataclass(frozen=True)
class Change:
    phase: str
    power: str
    event: str
    address: str
    at: datetime

    def to_dict(self) -> dict:
        return {"phase": self.phase, "power": self.power, "event": self.event, "address": self.address,
                "at": time_to_str(self.at)}

    @classmethod
    def from_dict(cls, data: dict) -> "Change":
        return cls(data["phase"], data["power"], data["event"], data.get("address", ""),
                   time_from_str(data["at"]))


def record_change(game, power: str, event: str, address: str, now: datetime) -> None:
    """Add a :class:`Change` of ``power`` at the game's current phase."""
    if event not in EVENTS:
        raise ValueError(f"unknown player change {event!r}")
    game.roster += (Change(str(game.phase), power, event, address or "", now),)
