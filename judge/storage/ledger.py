"""The ledger: every mail (and command) the judge acted on, by key
(Message-ID), for as long as ``ledger_days`` — in ONE SQLite file
(``ledger.sqlite``), partitioned by time: a table per week (``w_YYYYMMDD``,
the Monday it starts, UTC), expired by dropping whole old tables.

Its cost does not grow with its age: a lookup (the duplicate check) asks the
primary-key index of each live week, newest first (14 of them at 90 days);
a put inserts one row into this week's table; expiry drops tables (and, in
the one week that straddles the cutoff, deletes by the indexed ``at``). No
row is ever rewritten with others, no history read.

Writes come only from the store's commit (:mod:`.store`): a commit's ledger
rows are in its journal frame (:mod:`.journal`) with the table each goes to,
so replaying a frame after a crash puts them again, idempotently. SQLite
runs in WAL mode with ``synchronous=NORMAL`` (no fsync per commit; the
journal frame is the commit's durable record); :func:`sync` makes the file
durable before the journal is reset. Readers in other processes see each
commit whole (SQLite transactions).
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .atomic import json_text

FILE = "ledger.sqlite"
WEEK = 7 * 86400
_EPOCH_MONDAY = datetime(1970, 1, 5, tzinfo=timezone.utc).timestamp()   # a Monday


def stamp_of(doc: dict | None) -> float | None:
    """A ledger document's time ``at`` (ISO) as POSIX seconds, or None."""
    try:
        at = datetime.fromisoformat((doc or {}).get("at") or "")
    except (TypeError, ValueError):
        return None
    return at.timestamp() if at.tzinfo is not None else None


def week_of(seconds: float) -> str:
    """The name of the week table holding a row of time ``seconds``."""
    start = _EPOCH_MONDAY + (seconds - _EPOCH_MONDAY) // WEEK * WEEK
    return "w_" + datetime.fromtimestamp(start, timezone.utc).strftime("%Y%m%d")


def _week_start(table: str) -> float:
    return datetime.strptime(table[2:], "%Y%m%d").replace(tzinfo=timezone.utc).timestamp()


WEEKS_A_STATEMENT = 64
"""Week tables one lookup statement reads (SQLite allows 500 parts in a compound SELECT)."""


@functools.lru_cache(maxsize=8)
def _lookup(weeks: tuple[str, ...]) -> str:
    """The SQL that finds a key's row in the tables ``weeks`` (newest first):
    their key lookups joined by ``UNION ALL``, the row of the first table that
    has one."""
    parts = " UNION ALL ".join(f"SELECT {n} AS n, doc FROM {table} WHERE key=?1" for n, table in enumerate(weeks))
    return f"SELECT doc FROM ({parts}) ORDER BY n LIMIT 1"


SCHEMA_EVERY = 1.0
"""Seconds a reader trusts its list of week tables (see :meth:`Ledger.get`)."""


class Ledger:
    """The ledger file of the store folder ``root`` (opened on first use,
    one connection per thread). Raises sqlite3.Error on a broken file."""

    def __init__(self, root: Path):
        self.path = Path(root) / FILE
        self._local = threading.local()

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=60)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
            self._local.schema = None
        return db

    def weeks(self, fresh: bool = True) -> list[str]:
        """The week tables, newest first (cached until the schema changes;
        without ``fresh`` the schema is looked at at most every
        :data:`SCHEMA_EVERY` seconds: a lookup by key, for every mail)."""
        db = self._db()
        now = time.monotonic()
        if fresh or now - getattr(self._local, "looked", float("-inf")) >= SCHEMA_EVERY:
            version = db.execute("PRAGMA schema_version").fetchone()[0]
            self._local.looked = now
            if self._local.schema != version:
                names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name GLOB 'w_*'")]
                self._local.weeks = sorted(names, reverse=True)
                self._local.schema = version
        return self._local.weeks

    def get(self, key: str) -> dict | None:
        """The newest entry under ``key``, or None. A week table another
        process made in the last :data:`SCHEMA_EVERY` seconds may not be
        read yet (this process's own are at once: its writes look afresh)."""
        db = self._db()
        try:
            return self._get(db, key, self.weeks(fresh=False))
        except sqlite3.OperationalError:        # a week dropped since the list was read: read it afresh
            return self._get(db, key, self.weeks())

    @staticmethod
    def _get(db: sqlite3.Connection, key: str, weeks: list[str]) -> dict | None:
        """ONE statement asks the key indexes of up to :data:`WEEKS_A_STATEMENT`
        weeks (a statement per week took and released SQLite's shared lock
        each time: 14 lock pairs a mail at 90 days, issue 23); the newest row wins."""
        for start in range(0, len(weeks), WEEKS_A_STATEMENT):
            row = db.execute(_lookup(tuple(weeks[start:start + WEEKS_A_STATEMENT])), (key,)).fetchone()
            if row is not None:
                return json.loads(row[0])
        return None

    def apply(self, ops: list[list]) -> None:
        """Make the ledger changes of one commit, in one SQLite transaction:
        ``[[week table or None (a removal), key, document JSON or None, time]]``
        (:func:`ops_of`). Idempotent (a replayed frame)."""
        if not ops:
            return
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            weeks = set(self.weeks())
            puts: dict[str, list] = {}
            for table, key, doc, at in ops:
                if table is None:
                    for week in weeks | set(puts):
                        db.execute(f"DELETE FROM {week} WHERE key=?", (key,))
                    for rows in puts.values():
                        rows[:] = [r for r in rows if r[0] != key]
                    continue
                if table not in weeks and table not in puts:
                    db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, at REAL, doc TEXT NOT NULL)")
                    db.execute(f"CREATE INDEX IF NOT EXISTS {table}_at ON {table}(at)")
                puts.setdefault(table, []).append((key, at, doc))
            for table, rows in puts.items():
                db.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?,?,?)", rows)
            db.execute("COMMIT")
            if set(puts) - weeks:
                self._local.looked = float("-inf")     # a week made here: the next lookup reads it
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def expire(self, cutoff: float) -> int:
        """Remove entries older than ``cutoff`` (POSIX seconds): drop every
        week that ended before it, delete by ``at`` in the week holding it
        (an entry without a readable time stays until its week goes).
        Returns how many entries went."""
        db = self._db()
        gone = 0
        db.execute("BEGIN IMMEDIATE")
        try:
            for table in self.weeks():
                start = _week_start(table)
                if start + WEEK <= cutoff:
                    gone += db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                    db.execute(f"DROP TABLE {table}")
                elif start <= cutoff:
                    gone += db.execute(f"DELETE FROM {table} WHERE at < ?", (cutoff,)).rowcount
            db.execute("COMMIT")
            self._local.looked = float("-inf")         # weeks dropped here: the next lookup reads the list
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return gone

    def rows(self) -> dict[str, dict]:
        """Every entry (tools and tests; the judge never reads it whole)."""
        out: dict[str, dict] = {}
        db = self._db()
        for table in reversed(self.weeks()):
            out.update((k, json.loads(d)) for k, d in db.execute(f"SELECT key, doc FROM {table}"))
        return out

    def sync(self) -> None:
        """Make every commit so far durable: one small commit with
        ``synchronous=FULL`` (its fsync of the WAL covers the commits before
        it). Never an fsync through a file descriptor of our own: closing it
        would drop SQLite's POSIX locks of this process."""
        if not self.path.exists():
            return
        db = self._db()
        db.execute("PRAGMA synchronous=FULL")
        try:
            db.execute("CREATE TABLE IF NOT EXISTS synced (one INTEGER PRIMARY KEY, at REAL)")
            db.execute("INSERT OR REPLACE INTO synced VALUES (1, ?)", (time.time(),))
        finally:
            db.execute("PRAGMA synchronous=NORMAL")

    def backup(self, dest: Path) -> None:
        """A consistent copy of the ledger into the new file ``dest``
        (SQLite's backup API; nothing happens when there is no ledger)."""
        if not self.path.exists():
            return
        out = sqlite3.connect(dest)
        try:
            self._db().backup(out)
        finally:
            out.close()

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


def ops_of(changes: list[tuple[str, dict | None]], now: float | None = None) -> list[list]:
    """The frame form of ledger changes ``[(key, doc or None)]``: each put
    goes to the week of its ``at`` (else of ``now``)."""
    now = time.time() if now is None else now
    out = []
    for key, doc in changes:
        if doc is None:
            out.append([None, key, None, None])
        else:
            at = stamp_of(doc)
            out.append([week_of(now if at is None else at), key, json_text(doc), at])
    return out


def days_ago(days: float, now: datetime) -> float:
    return (now - timedelta(days=days)).timestamp()
