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

:func:`upgrade_v2` converts a store folder of layout 2 (the ledger in 4096
TinyDB shards, a journal file per commit) to layout 3 in place, when it is
first opened (:class:`~judge.storage.Store`) — so by ``judge store upgrade``
too: the commits its journal files hold are finished, every ledger entry
goes into the week of its time in ``ledger.sqlite``, then ``VERSION`` says
3 and the shards go. A crash before ``VERSION`` is written makes the next
opening do it again from the shards.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from . import journal, layout
from .atomic import AtomicJSONStorage, atomic_write, fsync_dir
from .ledger import FILE as LEDGER_FILE, Ledger, ops_of
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


_V2_MAGIC = b"judge-journal 1\n"


def _v2_journal(path: Path) -> list[tuple[str, bytes | None, None]] | None:
    """The files of a layout-2 journal file, or None when it was cut short."""
    data = path.read_bytes()
    end = data.find(b"\n", len(_V2_MAGIC))
    if not data.startswith(_V2_MAGIC) or end < 0:
        return None
    out, at = [], end + 1
    for rel, length in json.loads(data[len(_V2_MAGIC):end]):
        out.append((rel, None if length < 0 else data[at:at + length], None))
        at += max(length, 0)
    return out if at <= len(data) else None


def _open_index(root: Path) -> None:
    """Write the ``open`` index (new in layout 3) from the catalogue."""
    from .indexes import open_row
    shards: dict[str, dict] = {}
    for shard in sorted((root / "tables" / "catalogue").glob("*.json")):
        for name, row in (AtomicJSONStorage(shard).read() or {}).get("rows", {}).items():
            wanted = open_row(row)
            if wanted is not None:
                shards.setdefault(layout.shard_path("open", layout.shard_of("open", name)), {})[name] = wanted
    for rel, rows in shards.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        AtomicJSONStorage(root / rel).write({layout.ROWS: rows})


def upgrade_v2(root: Path) -> str:
    """Convert the layout-2 store folder ``root`` in place (see module doc),
    as its writer; returns the version it has now. Raises OSError, ValueError."""
    root = Path(root)
    for path in sorted(p for p in (root / "journal").glob("*.json") if p.stem.isdigit()):
        files = _v2_journal(path)
        if files is not None:
            journal.apply(root, files)
        path.unlink()
    for suffix in ("", "-wal", "-shm"):          # left by a conversion a crash cut short
        (root / (LEDGER_FILE + suffix)).unlink(missing_ok=True)
    rows: list[tuple[str, dict]] = []
    for shard in sorted((root / "tables" / "ledger").glob("*.json")):
        rows.extend((AtomicJSONStorage(shard).read() or {}).get("rows", {}).items())
    ledger = Ledger(root)
    for i in range(0, len(rows), 5000):
        ledger.apply(ops_of(rows[i:i + 5000]))
    ledger.sync()
    ledger.close()
    _open_index(root)
    atomic_write(root / "VERSION", f"{layout.VERSION}\n".encode())
    for shard in (root / "tables" / "ledger").glob("*.json"):
        shard.unlink()
    if (root / "tables" / "ledger").exists():
        (root / "tables" / "ledger").rmdir()
    log.warning("store: %s upgraded from layout 2 to %s (%d ledger entries into %s)", root, layout.VERSION,
                len(rows), LEDGER_FILE)
    return layout.VERSION
