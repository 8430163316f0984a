"""Mail intents: what the game wants told, to whom, as plain data. The mail
layer turns each :class:`Notice` into one mail per recipient, in the reader's
language, from the template named by ``kind`` (``templates/mail/notices/<kind>.txt``).

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


def event_key(game, phase: str, *parts: str) -> str:
    """The key of a notice about ``phase`` of ``game``: ``"g:S1901M:results"``;
    after a ``ROLLBACK`` (``game.schedule.rollbacks``) ``"g:S1901M~2:results"``,
    so that a phase played again mails its results, reminders and final report
    anew instead of being taken for the mails sent the first time."""
    n = game.schedule.rollbacks
    return ":".join((game.name, f"{phase}~{n}" if n else phase, *parts))


CLOCK = ("started", "deadline", "extended", "resumed", "goes_on")
"""Notice kinds that tell a game's deadline (:func:`merged`)."""


def merged(notices: list[Notice]) -> list[Notice]:
    """The notices of one batch of changes (the commands of one mail) as the
    readers should get them: per game, the clock notices (:data:`CLOCK`) become
    one, in the place of the last, telling its (the final) deadline and phase
    (a ``started`` notice stays one, with that deadline); the ``settings``
    notices become one listing every change in order; the final reports
    (``game_over``) become the last one, which holds every ruling and vote of
    the batch (issue 13 point 3). Other notices are kept as they are, in
    order. Without this, notices of the same kind and game made at the same
    moment would share a key and all but the first be lost."""
    last: dict[tuple[str, str], int] = {}
    for i, n in enumerate(notices):
        group = _group(n)
        if group is not None:
            last[(n.data.get("game"), group)] = i
    out = []
    for i, n in enumerate(notices):
        group = _group(n)
        if group is None:
            out.append(n)
            continue
        if last[(n.data.get("game"), group)] != i:
            continue
        same = [m for m in notices if _group(m) == group and m.data.get("game") == n.data.get("game")]
        if group == "settings":
            changes = [c for m in same for c in m.data.get("changes", ())]
            n = Notice(n.kind, n.to, dict(n.data, changes=changes), n.key)
        elif any(m.kind == "started" for m in same):
            first = next(m for m in same if m.kind == "started")
            n = Notice("started", first.to, dict(first.data, phase=n.data.get("phase"),
                                                 deadline=n.data.get("deadline")), first.key)
        out.append(n)
    return out


def _group(notice: Notice) -> str | None:
    if notice.kind in CLOCK:
        return "clock"
    return notice.kind if notice.kind in ("settings", "game_over") else None


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
