"""The store's indexes, kept by :func:`judge.storage.games.save_game` and
:func:`~judge.storage.games.save_gm` in the same commit as the game they
describe, so that no mail or start-up ever reads every game:

- ``catalogue``: game -> ``{map, phase, status, result, players, free,
  listed, access, created, phases, last, centres}`` (``access``: who may
  join, ``open``, ``password`` or ``invite``); status ``forming`` (no clock
  yet), ``running``, ``paused`` or ``finished`` (``result``: how it ended, a
  :data:`judge.rules.victory.KINDS` code); ``phases`` adjudicated, the
  ``last`` one's time, SC counts ``centres`` ``{power: n}``. ``LIST`` and
  the web index read it.
- ``open``: game -> ``{"listed": bool}`` for every game not finished with a
  free power (``listed``: shown to anyone — listed and not invite-only; a
  private game is shown only to its players and GM): what ``LIST`` offers to join, read whole (its size is the
  number of games forming, not of all games).
- ``names``: game name folded to lower case -> ``{"name": spelling}``.
- ``wakeups``: game -> ``{"when", "end", "phase", "ready"}`` (ISO UTC
  times; see :func:`judge.game.turns.next_event`; ``ready``: orders that
  arrived may end the phase now, :func:`judge.game.turns.orders_in`) for
  every game with a next event (``when``), or waiting for orders past its
  deadline (a NoNMR game: ``when`` None, ``end`` set, so orders that arrive
  are looked at); finished games have none but the closing of an award vote.
  The scheduler reads it at start.
- ``addresses``: address -> ``{"games": {game: {"role": "player"|"gm",
  "power", "language"}}}``: the games an address plays or masters.

Each row is written only when it changes, so an order mail touches none.
"""

from __future__ import annotations

from ..game import Game
from ..game.codec import time_to_str
from ..game.turns import next_event, orders_in


def catalogue_row(game: Game, old: dict | None, newest=None) -> dict:
    """The ``catalogue`` row of ``game`` (see module doc); ``old``: the row
    stored, ``newest``: the newest record if it is new (else the time of the
    last adjudication is the old row's: the history is not read for it)."""
    s = game.schedule
    status = "finished" if game.finished else "paused" if s.paused else \
        "running" if s.deadline is not None else "forming"
    players = sum(1 for pl in game.players.values() if pl.addresses)
    result = game.ending.result
    last = time_to_str(newest.processed_at) if newest is not None else (old or {}).get("last") \
        if len(game.history) else None
    return {"map": game.map_name, "phase": game.position.phase, "status": status,
            "result": result.kind if result is not None else None, "players": players,
            "free": len(game.players) - players, "listed": game.settings.access.listed,
            "access": game.settings.access.access,
            "created": time_to_str(game.created), "phases": len(game.history), "last": last,
            "centres": game.sc_counts()}


def open_row(catalogue: dict) -> dict | None:
    """The ``open`` row of a game with this ``catalogue`` row, or None."""
    if catalogue.get("free") and catalogue.get("status") != "finished":
        return {"listed": bool(catalogue.get("listed", True)) and catalogue.get("access") != "invite"}
    return None


def wakeup_row(game: Game) -> dict | None:
    """The ``wakeups`` row of ``game``, or None when nothing is due ever;
    ``ready``: the orders in may end the phase now (:func:`judge.game.turns.orders_in`)."""
    when, end = next_event(game)
    if when is None and end is None:
        return None
    return {"when": time_to_str(when), "end": time_to_str(end), "phase": game.schedule.phase,
            "ready": orders_in(game)}


def roles(game_doc: dict | None, gm_doc: dict | None) -> dict[str, dict]:
    """``{address: entry}`` of the ``addresses`` index for one game, from its
    stored documents (``games`` and ``gm``)."""
    out: dict[str, dict] = {}
    if gm_doc and gm_doc.get("address"):
        out[gm_doc["address"]] = {"role": "gm", "power": None, "language": gm_doc.get("language")}
    for power, pl in ((game_doc or {}).get("players") or {}).items():
        for address in pl.get("addresses", ()):
            out[address] = {"role": "player", "power": power, "language": pl.get("language")}
    return out


def update(db, name: str, before: dict[str, dict], after: dict[str, dict],
           catalogue: dict | None = None, wakeup: dict | None | bool = False) -> None:
    """Stage the index rows that change: addresses from ``before`` to
    ``after`` (:func:`roles`), the ``catalogue`` row (None: leave it) and the
    ``wakeups`` row (False: leave it; None: remove it)."""
    for address in set(before) | set(after):
        if before.get(address) == after.get(address):
            continue
        row = db.get("addresses", address) or {"games": {}}
        games = dict(row.get("games", {}))
        if address in after:
            games[name] = after[address]
        else:
            games.pop(name, None)
        if games:
            db.put("addresses", address, {"games": games})
        else:
            db.delete("addresses", address)
    if catalogue is not None:
        if db.get("catalogue", name) != catalogue:
            db.put("catalogue", name, catalogue)
        wanted = open_row(catalogue)
        if db.get("open", name) != wanted:
            if wanted is None:
                db.delete("open", name)
            else:
                db.put("open", name, wanted)
        folded = name.lower()
        if db.get("names", folded) is None:
            db.put("names", folded, {"name": name})
    if wakeup is not False:
        old = db.get("wakeups", name)
        if wakeup is None and old is not None:
            db.delete("wakeups", name)
        elif wakeup is not None and old != wakeup:
            db.put("wakeups", name, wakeup)
