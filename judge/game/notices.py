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
from datetime import datetime

from .codec import ORDER_TYPES, order_from_dict, order_to_dict, time_from_str, time_to_str

GM = "@gm"
OBSERVERS = "@observers"
PLAYERS = "@players"
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


def notice_to_dict(notice: Notice) -> dict:
    """JSON-ready form (times and orders tagged); :func:`notice_from_dict`
    inverts it (tuples come back as lists). For notices kept in the store
    until the daemon mails them (a GM command run from the command line)."""
    return {"kind": notice.kind, "to": list(notice.to), "key": notice.key, "data": _encode(notice.data)}


def notice_from_dict(data: dict) -> Notice:
    return Notice(data["kind"], tuple(data["to"]), _decode(data["data"]), data["key"])


def _encode(value):
    if isinstance(value, datetime):
        return {"$time": time_to_str(value)}
    if type(value).__name__ in ORDER_TYPES:
        return {"$order": order_to_dict(value)}
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_encode(v) for v in value]
    return value


def _decode(value):
    if isinstance(value, dict):
        if set(value) == {"$time"}:
            return time_from_str(value["$time"])
        if set(value) == {"$order"}:
            return order_from_dict(value["$order"])
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value
