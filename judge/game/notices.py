"""Mail intents: what the game wants told, to whom, as plain data. The mail
layer turns each :class:`Notice` into one mail per recipient, in the reader's
language, from the template named by ``kind`` (``templates/<lang>/<kind>.txt``).

Recipients are roles: ``to`` holds power names (the players of those powers,
every address of each) and the roles :data:`GM`, :data:`OBSERVERS` and
:data:`PLAYERS` (every power that has a player). A player who is no longer in
the game (ejected, replaced) is named by address: ``mailto:<address>``, with
the reader's language in ``data["language"]``.
"""

from __future__ import annotations

from dataclasses import dataclass

GM = "@gm"
OBSERVERS = "@observers"
PLAYERS = "@players"
ROLES = (GM, OBSERVERS, PLAYERS)
MAILTO = "mailto:"


def mailto(addresses) -> tuple[str, ...]:
    """Recipients named by address (see module doc)."""
    return tuple(MAILTO + a for a in addresses)


@dataclass(frozen=True)
class Notice:
    """- ``kind``: the template (``"results"``, ``"reminder"``, ``"late"``,
      ``"press"``, ...).
    - ``to``: recipients (power names and roles, see module doc).
    - ``data``: the template's context: codes, phases, orders, UTC datetimes;
      no text in any language.
    - ``key``: unique for the event (e.g. ``"g7:S1901M:results"``); with the
      recipient's address it makes the Message-ID, so the same event never
      mails anyone twice.
    """

    kind: str
    to: tuple[str, ...]
    data: dict
    key: str
