"""The judge's data file: named documents in tables, on TinyDB.

One writer: a :meth:`Store.transaction` holds an exclusive lock (``flock`` on
``<file>.lock``) from its start until its commit, so writers in several
processes (the daemon, a GM's ``judge game`` command) take turns; read what you
mean to change inside the transaction. All puts and deletes of a transaction are
written together as one atomic file replace, or not at all. Readers take no
lock: they see the file as of the last commit. A Store may be shared by
threads; each thread's transaction takes the lock in turn.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
from pathlib import Path

from tinydb import Query, TinyDB

from .atomic import AtomicJSONStorage, atomic_write, remove_stale_temps


class StoreError(Exception):
    """The data file cannot be used, or a document cannot be stored. The message
    names the file, table or key."""


class Transaction:
    """Changes to make together; see :meth:`Store.transaction`."""

    def __init__(self):
        self.changes: list[tuple[str, str, dict | None]] = []

    def put(self, table: str, key: str, doc: dict) -> None:
        """Store ``doc`` (a JSON-ready dict, copied now) under ``key``, replacing
        any document there. Raises StoreError for a non-JSON document."""
        _check_name(table, key)
        if not isinstance(doc, dict):
            raise StoreError(f"{table}/{key}: a document must be a dict")
        try:
            copy = json.loads(json.dumps(doc, ensure_ascii=False))
        except (TypeError, ValueError) as e:
            raise StoreError(f"{table}/{key}: not storable as JSON: {e}") from None
        self.changes.append((table, key, copy))

    def delete(self, table: str, key: str) -> None:
        """Remove the document under ``key`` (nothing happens if there is none)."""
        _check_name(table, key)
        self.changes.append((table, key, None))


class Store:
    """Tables of documents keyed by strings, in one JSON file at ``path``
    (created, with its directory, if missing)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock_path = self.path.with_name(self.path.name + ".lock")
        self._local = threading.local()   # per thread: inside a transaction?
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._locked():
                if not self.path.exists():
                    atomic_write(self.path, b"{}")
        except OSError as e:
            raise StoreError(f"{self.path}: {e.strerror or e}") from None
        self._db = TinyDB(self.path, storage=AtomicJSONStorage)

    def get(self, table: str, key: str) -> dict | None:
        """The document under ``key``, or None. Raises StoreError if the file is
        not valid JSON."""
        try:
            row = self._table(table).get(Query().key == key)
        except ValueError as e:
            raise StoreError(str(e)) from None
        return None if row is None else row["doc"]

    def all(self, table: str) -> dict[str, dict]:
        """``{key: document}`` of a table (empty if there is no such table).
        Raises StoreError if the file is not valid JSON."""
        try:
            rows = self._table(table).all()
        except ValueError as e:
            raise StoreError(str(e)) from None
        return {row["key"]: row["doc"] for row in rows}

    @contextlib.contextmanager
    def transaction(self):
        """``with store.transaction() as tx: tx.put(...)``. On a clean exit every
        put and delete is written with one temp file + fsync + ``os.replace``; on
        an exception nothing is. Holds the writer lock throughout; does not nest.
        Raises StoreError if the file cannot be written (nothing is changed)."""
        if getattr(self._local, "active", False):
            raise StoreError("transactions do not nest")
        self._local.active = True
        try:
            with self._locked():
                remove_stale_temps(self.path)
                tx = Transaction()
                yield tx
                if tx.changes:
                    self._commit(tx.changes)
        finally:
            self._local.active = False

    def close(self) -> None:
        self._db.close()

    # ---- inside -------------------------------------------------------------------
    def _table(self, name: str):
        return self._db.table(name, cache_size=0)   # no query cache: another process may write

    def _commit(self, changes) -> None:
        # a TinyDB of its own, so readers of self._db never see a batch half made
        db, rows = TinyDB(self.path, storage=AtomicJSONStorage), Query()
        try:
            with db.storage.batch():
                for table, key, doc in changes:
                    t = db.table(table, cache_size=0)
                    if doc is None:
                        t.remove(rows.key == key)
                    else:
                        t.upsert({"key": key, "doc": doc}, rows.key == key)
        except OSError as e:
            raise StoreError(f"{self.path}: cannot write: {e.strerror or e}") from None
        except ValueError as e:   # the file is not valid JSON
            raise StoreError(str(e)) from None

    @contextlib.contextmanager
    def _locked(self):
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def _check_name(table: str, key: str) -> None:
    if not isinstance(table, str) or not table or not isinstance(key, str) or not key:
        raise StoreError(f"table and key must be non-empty strings, not {table!r}/{key!r}")
