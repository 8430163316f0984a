"""The upgrade of a one-file store (``DATA/judge.json``, releases before the
per-game store) to the store folder, with nothing lost.

Every game (its live state; its history split into one record per phase),
GM record, account, ledger entry and outgoing mail (pending or failed) is
copied into the store in ONE commit, with the indexes. Notices that a
``judge game`` command of the old release left for the judge to mail
(table ``notices``) are handed to the worker as one work item, spooled
before the commit under a key derived from the notices, so a crash at any
point neither loses nor doubles them (the ledger takes a key once). Then
``judge.json`` is renamed ``judge.json.v1-upgraded`` (kept, never read
again). A crash before the rename makes the next start do it all again,
which changes nothing the first run committed.

:func:`upgrade_v1` runs at ``judge serve``'s start and before any
``judge game`` command that writes (as the owner of the data folder), and
by ``judge store upgrade``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from .atomic import AtomicJSONStorage, fsync_dir
from .games import save_game, save_gm
from .store import Store, StoreError

log = logging.getLogger("judge.storage")

UPGRADED_SUFFIX = ".v1-upgraded"
KEYED = ("ledger", "outbox", "accounts")
"""v1 tables copied row by row."""


def upgrade_v1(v1_path: Path, store: Store, spool=None) -> dict[str, int] | None:
    """Convert ``v1_path`` into ``store`` (see module doc); ``spool`` (a
    :class:`~judge.mail.spool.Spool`) takes the pending notices. Returns the
    counts copied per table, or None when there is no v1 file. Raises
    StoreError (nothing committed) for an unreadable v1 file."""
    from ..game import Game
    if not v1_path.is_file():
        return None
    try:
        data = AtomicJSONStorage(v1_path).read() or {}
        tables = {t: {row["key"]: row["doc"] for row in rows.values()} for t, rows in data.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise StoreError(f"{v1_path}: cannot read the one-file store to upgrade it: {e}") from None
    counts = {t: len(rows) for t, rows in tables.items()}
    notices = sorted(tables.get("notices", {}).items())
    if notices and spool is not None:
        body = json.dumps({"action": "mail notices", "params": {"notices": [doc for _k, doc in notices]},
                           "argv": ["store", "upgrade"]}, ensure_ascii=False).encode("utf-8")
        key = "upgrade-notices:" + hashlib.sha256(json.dumps([k for k, _d in notices]).encode()).hexdigest()[:32]
        spool.put(body, {"source": "cli", "key": key})
    with store.transaction() as tx:
        for name, doc in sorted(tables.get("games", {}).items()):
            try:
                game = Game.from_dict(doc)
            except (KeyError, TypeError, ValueError) as e:
                raise StoreError(f"{v1_path}: games/{name}: malformed game: {e}") from None
            save_game(tx, game)
        for name, gm in sorted(tables.get("gm", {}).items()):
            save_gm(tx, name, gm)
        for table in KEYED:
            for key, doc in tables.get(table, {}).items():
                tx.put(table, key, doc)
    target = v1_path.with_name(v1_path.name + UPGRADED_SUFFIX)
    os.replace(v1_path, target)
    fsync_dir(v1_path.parent)
    log.warning("store: upgraded %s to %s (%s); the old file is kept as %s", v1_path, store.root,
                ", ".join(f"{n} {t}" for t, n in sorted(counts.items())), target.name)
    return counts
