"""Staged changes over a :class:`judge.storage.Store`: what one batch of mails
(and, layered on it, one mail) reads and writes before the worker commits.

Documents handed out are shared, not copied: treat them as read-only and
``put`` a new dict to change one (every handler builds new documents anyway,
e.g. from ``Game.to_dict()``); the store's transaction copies what it writes.
"""

from __future__ import annotations


class Staging:
    """Reads fall through to ``base`` (a Store or another Staging; each document
    read once) unless this staging wrote the key; writes are kept until
    :meth:`apply` hands them on (to a transaction or to the parent staging)."""

    def __init__(self, base):
        self.base = base
        self.changes: dict[tuple[str, str], dict | None] = {}
        self._read: dict[tuple[str, str], dict | None] = {}
        self._tables: dict[str, dict[str, dict]] = {}
        self._owned: dict[int, dict] = {}        # id -> document handed over (see put)

    @property
    def store(self):
        """The store under every staging layer."""
        return self.base.store if isinstance(self.base, Staging) else self.base

    def get(self, table: str, key: str) -> dict | None:
        if (table, key) in self.changes:
            return self.changes[(table, key)]
        if table in self._tables:
            return self._tables[table].get(key)
        if (table, key) not in self._read:
            self._read[(table, key)] = self.base.get(table, key)
        return self._read[(table, key)]

    def all(self, table: str) -> dict[str, dict]:
        if table not in self._tables:
            self._tables[table] = self.base.all(table)
        docs = dict(self._tables[table])
        for (t, k), doc in self.changes.items():
            if t != table:
                continue
            if doc is None:
                docs.pop(k, None)
            else:
                docs[k] = doc
        return docs

    def read_log(self, table: str, key: str, length: int) -> bytes:
        """The store's append-only file (:meth:`judge.storage.Store.read_log`)."""
        return self.base.read_log(table, key, length)

    def put(self, table: str, key: str, doc: dict, owned: bool = False) -> None:
        """Stage ``doc`` under ``key``; ``owned``: made for this put alone, of
        JSON values only (lists, not tuples; string keys), never changed
        after — the store keeps it as it is instead of a copy."""
        self.changes[(table, key)] = doc
        if owned:
            self._owned[id(doc)] = doc

    def delete(self, table: str, key: str) -> None:
        self.changes[(table, key)] = None

    def savepoint(self) -> dict:
        """The staged changes as they are now, for :meth:`rollback`."""
        return dict(self.changes)

    def rollback(self, point: dict) -> None:
        """Forget the changes staged since :meth:`savepoint` (a refused command's)."""
        self.changes = dict(point)

    def apply(self, target) -> None:
        """Write every staged change into ``target`` (a Store transaction or a Staging)."""
        for (table, key), doc in self.changes.items():
            if doc is None:
                target.delete(table, key)
            elif id(doc) in self._owned:
                target.put(table, key, doc, owned=True)
            else:
                target.put(table, key, doc)
