"""Games in the store: each game's live state in table ``games``, its GM in
``gm`` (both in the game's own file), its history in ``phases`` (one record
per adjudicated phase, written once), and the indexes of :mod:`.indexes`.

``db`` is anything with ``get(table, key)``, ``put(table, key, doc)`` and
``delete(table, key)``: the worker's staging, or a store transaction.
Every change to a game goes through :func:`save_game` (and a GM's through
:func:`save_gm`), which keeps the history and the indexes with it.
"""

from __future__ import annotations

from ..game import Game
from ..game.history import PhaseRecord
from ..game.replaced import lines
from ..game.settings import NAME_SETS
from . import indexes
from .layout import LOGS, phase_key
from .store import StoreError

PICTURE_VARIANTS = tuple(f"{kind}-{lang}" for kind in ("phase", "board") for lang in
                         ["en"] + [f"zh-{script}-{names}" for script in ("hans", "hant") for names in NAME_SETS])
"""Every picture a record may have (table ``pictures``, :mod:`judge.mail.pictures`)."""


def load_game(db, name: str) -> Game | None:
    """The stored game ``name`` (exact spelling), or None. Its history is read
    record by record when first used. Raises StoreError for a malformed document."""
    doc = db.get("games", name)
    if doc is None:
        return None
    try:
        game = Game.from_dict(doc, record_loader(db, name))
    except (KeyError, TypeError, ValueError) as e:
        raise StoreError(f"games/{name}: malformed game: {e}") from None
    game.replaced_log.load = log_loader(db, game)
    return game


def rebind(db, game: Game) -> None:
    """Read ``game``'s history records and replaced-order log from ``db`` from
    now on (a game kept decoded from an earlier view of the store)."""
    records = record_loader(db, game.name)
    game.history.rebind(lambda i: PhaseRecord.from_dict(records(i)))
    game.replaced_log.load = log_loader(db, game)


def log_loader(db, game: Game):
    """``f()``: the bytes of ``game``'s replaced-order log (:mod:`judge.game.replaced`)
    as ``db`` has it: the store's file, then what ``db`` has staged."""
    log = game.replaced_log

    def load() -> bytes:
        key = phase_key(game.name, log.index)
        pending = db.get(LOGS, key)
        stored = db.read_log(LOGS, key, pending["offset"] if pending else log.size)
        return stored + (pending["text"].encode("utf-8") if pending else b"")
    return load


def record_loader(db, name: str):
    """``f(i)``: record ``i`` of game ``name``'s history as plain data."""
    def load(i: int) -> dict:
        doc = db.get("phases", phase_key(name, i))
        if doc is None:
            raise StoreError(f"games/{name}: record {i} of its history is missing")
        return doc
    return load


def find_game(db, name: str) -> str | None:
    """The stored spelling of game ``name`` in any letter case, or None."""
    if db.get("games", name) is not None:
        return name
    row = db.get("names", name.lower())
    return row["name"] if row and db.get("games", row["name"]) is not None else None


def save_game(db, game: Game) -> None:
    """Stage ``game``: its live state, the history records it gained (or lost
    to a ``ROLLBACK``) and the index rows that change."""
    name = game.name
    old = db.get("games", name)
    stored = int(old.get("history_len", len(old.get("history", ())))) if old else 0
    new, gone = game.history.changes(stored)
    for i, record in new:
        db.put("phases", phase_key(name, i), record.to_dict())
    for i in gone:
        db.delete("phases", phase_key(name, i))
    _log_replaced(db, game, old)
    live = game.live_dict()
    db.put("games", name, live, owned=True)         # made anew, JSON values only (tests/test_storage.py)
    game.history.saved()
    gm = db.get("gm", name)
    row = indexes.catalogue_row(game, db.get("catalogue", name), new[-1][1] if new else None)
    indexes.update(db, name, indexes.roles(old, gm), indexes.roles(live, gm), row, indexes.wakeup_row(game))


def _log_replaced(db, game: Game, old: dict | None) -> None:
    """Move the entries replaced since the game was read to the phase's log
    (appended: the bytes at its end), and remove a log of an earlier phase."""
    log, index = game.replaced_log, len(game.history)
    if log.index != index:
        log.index, log.size, log.count = index, 0, 0
    moved = {p: [e for e in es if e.replaced] for p, es in game.orders.items()}
    text = "".join(lines(p, es) for p, es in moved.items() if es)
    if text:
        key = phase_key(game.name, index)
        pending = db.get(LOGS, key)
        db.put(LOGS, key, {"offset": pending["offset"], "text": pending["text"] + text} if pending
               else {"offset": log.size, "text": text})
        log.size += len(text.encode("utf-8"))
        log.count += sum(len(es) for es in moved.values())
        game.orders = {p: tuple(e for e in es if not e.replaced) for p, es in game.orders.items()}
        log.load = log_loader(db, game)
    before = ((old or {}).get("replaced") or {}).get("index")
    if before is not None and before != index:
        db.delete(LOGS, phase_key(game.name, before))


def save_gm(db, name: str, gm: dict) -> None:
    """Stage the GM record of game ``name`` (``{address, password_hash,
    language}``) and its index rows."""
    old = db.get("gm", name)
    live = db.get("games", name)
    db.put("gm", name, gm)
    indexes.update(db, name, indexes.roles(live, old), indexes.roles(live, gm))


def delete_game(db, name: str) -> None:
    """Stage the removal of game ``name`` — live state, GM record, every
    history record — and of its index rows (a game that moves to another judge)."""
    old, gm = db.get("games", name), db.get("gm", name)
    if old is None:
        return
    for i in range(int(old.get("history_len", 0))):
        db.delete("phases", phase_key(name, i))
    if (old.get("replaced") or {}).get("index") is not None:
        db.delete(LOGS, phase_key(name, old["replaced"]["index"]))
    for i in range(int(old.get("history_len", 0)) + 1):
        for variant in PICTURE_VARIANTS:
            db.delete("pictures", f"{phase_key(name, i)}/{variant}")
    indexes.update(db, name, indexes.roles(old, gm), {}, None, None)
    for table in ("catalogue", "open", "joins", "games", "gm"):
        db.delete(table, name)
    if (db.get("names", name.lower()) or {}).get("name") == name:
        db.delete("names", name.lower())


def games_of(db, address: str) -> dict[str, dict]:
    """``{game: {"role", "power", "language"}}``: what ``address`` plays or masters."""
    row = db.get("addresses", address) if address else None
    return dict((row or {}).get("games", {}))
