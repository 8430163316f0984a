"""Wrong passwords counted per power per hour, and the lock-out (issue 19
point 5): a SIGNON whose password is wrong counts once against every power
(or the GM) whose password it was checked against; the :data:`WRONG_PER_HOUR`-th
wrong password within an hour of the first locks that power's password for
:data:`LOCK_HOURS` from then: a SIGNON with a password is not checked against
it (even the right one) until the lock ends, and its player (the leader and
the advisors who get the power's mail; the GM for the GM) is mailed a notice
once, with the number of wrong passwords, the last sender and the end of the
lock. The lock stops guessing, not playing: a SIGNON from one of the power's
addresses on record (the GM's for the GM) is checked as ever, with its
password or — where the game's ``auth`` believes the address — without
(so strangers' guesses cannot keep a player out of his game under the
default ``auth = "password"``). A guesser who forges the player's From gets
no answer to read: the replies go to the player.

Store table ``wrong_passwords``: ``"<game>/<power>"`` (``"<game>/@gm"`` for
the GM) -> ``{"since": UTC ISO time of the first wrong password counted,
"wrong": count since then, "locked_until": UTC ISO time or ""}``. A row
whose hour and lock are over counts from zero again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..game import Game
from ..game.notices import GM, Notice

WRONG_PER_HOUR = 5
"""Wrong passwords for one power within an hour that lock its password."""
LOCK_HOURS = 1
"""How long a locked password stays locked."""
TABLE = "wrong_passwords"


def _key(game: Game, power: str | None) -> str:
    return f"{game.name}/{power or '@gm'}"


def _row(db, game: Game, power: str | None, now: datetime) -> dict:
    """The live row of ``power`` (None: the GM): {} when its hour and lock are over."""
    row = db.get(TABLE, _key(game, power)) or {}
    try:
        since = datetime.fromisoformat(row["since"]) if row.get("since") else None
        until = datetime.fromisoformat(row["locked_until"]) if row.get("locked_until") else None
    except (TypeError, ValueError):
        return {}
    if (until is not None and now < until) or (since is not None and now - since < timedelta(hours=1)):
        return row
    return {}


def locked_until(db, game: Game, power: str | None, now: datetime) -> datetime | None:
    """The end of the lock of ``power``'s password (None: the GM's), or None if it is not locked."""
    until = _row(db, game, power, now).get("locked_until")
    return datetime.fromisoformat(until) if until else None


def count_wrong(db, game: Game, powers, now: datetime, sender: str, key: str) -> list[Notice]:
    """Count one wrong password against each of ``powers`` (None: the GM);
    the notices of the locks this begins (see module doc)."""
    notices = []
    for power in dict.fromkeys(powers):
        row = _row(db, game, power, now)
        wrong = row.get("wrong", 0) + 1
        row = {"since": row.get("since") or now.isoformat(), "wrong": wrong,
               "locked_until": row.get("locked_until", "")}
        if wrong >= WRONG_PER_HOUR and not row["locked_until"]:
            until = now + timedelta(hours=LOCK_HOURS)
            row["locked_until"] = until.isoformat()
            notices.append(Notice("password_locked", (power or GM,), {
                "game": game.name, "map": game.map_name, "power": power, "wrong": wrong, "sender": sender,
                "until": until, "timezone": game.settings.deadlines.timezone},
                f"{game.name}:password-locked:{power or 'gm'}:{key}"))
        db.put(TABLE, _key(game, power), row)
    return notices
