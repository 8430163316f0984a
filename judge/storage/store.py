"""The judge's store: documents keyed by (table, key), one small file per game
and hash-sharded files for the judge-wide tables (:mod:`.layout`).

A lookup reads one file, whatever the number of games or the length of their
history: the cost of a mail depends on its game alone. Files are TinyDB
databases (read and written with :class:`~judge.storage.atomic.AtomicJSONStorage`;
string document ids, see :func:`open_tinydb`); a phase record is a plain
JSON file, written once.

One writer: :meth:`Store.transaction` holds an exclusive lock
(``writer.lock``) from its start to its commit, so writers in several
processes take turns; a commit is one frame appended to the journal
(:mod:`.journal`) and synced — ONE ``fdatasync`` — so all its puts and
deletes are made, or none. Readers take no lock and see the last commit:
each file as of some commit, or — while a commit is in the journal and not
yet in the files — its content there (a frame holds whole files; the
frames are read once per state of the journal). With ``lazy_sync`` (the
running judge's store) a commit writes its journal frame, its appends and
its ledger rows only; the files it changed are kept in memory and written,
each once however many commits changed it, and synced by
:meth:`Store.checkpoint` (at the latest after :data:`CHECKPOINT_COMMITS`
commits, :data:`CHECKPOINT_FILES` files to write or
:data:`CHECKPOINT_SECONDS`, and when the judge is idle), which
then empties the journal — until then a crash or power cut is repaired
from it. A replaced file costs a new inode, ~0.5 ms of system CPU on this
ext4 (issue 23): a game's file and an outbox shard, rewritten by every
mail, are written once a checkpoint instead. Without ``lazy_sync`` each
commit writes and syncs its files and empties the journal itself. The ledger is a SQLite file partitioned by week
(:mod:`.ledger`), written by the same commit from its frame; a game's
replaced orders are an append-only file per phase (table ``replaced``: a
put is ``{"offset", "text"}``, bytes written at that offset, read back with
:meth:`Store.read_log`). Parsed files are cached, checked against the
file's inode, size and modification time on every read (a new version of a
file is always a new inode: every write replaces it).
"""

from __future__ import annotations

import contextlib
import fcntl
import sqlite3
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Callable

from tinydb import TinyDB
from tinydb.table import Table

from .. import faults
from . import journal, layout
from .ledger import Ledger, ops_of
from .atomic import (AtomicJSONStorage, atomic_write, encode, fsync_dir, fsync_path, json_copy, json_text,
                     remove_temps)

log = logging.getLogger("judge.storage")

CACHE_BYTES = 8 * 1024 * 1024
"""Parsed files kept in memory, counted by their size on disk."""
CHECKPOINT_COMMITS = 64
CHECKPOINT_SECONDS = 1.0
CHECKPOINT_FILES = 64
"""With ``lazy_sync``: files written and synced and journals removed at least
this often (after so many commits, seconds, or files waiting to be written: a
storm of deadlines dirties a dozen files a game, and a checkpoint is a pause
of the worker)."""


class StoreError(Exception):
    """The store cannot be used, or a document cannot be stored. The message
    names the folder, file, table or key."""


class Transaction:
    """Changes to make together; see :meth:`Store.transaction`. ``get``
    reads the store as this transaction has changed it so far."""

    def __init__(self, store: "Store | None" = None):
        self.changes: list[tuple[str, str, dict | None]] = []
        self._store = store
        self._staged: dict[tuple[str, str], dict | None] = {}
        self.texts: dict[int, str] = {}          # id(copy) -> its JSON, for the commit's files

    def get(self, table: str, key: str) -> dict | None:
        if (table, key) in self._staged:
            return self._staged[(table, key)]
        return self._store.get(table, key) if self._store is not None else None

    def read_log(self, table: str, key: str, length: int) -> bytes:
        return self._store.read_log(table, key, length)

    def put(self, table: str, key: str, doc: dict, owned: bool = False) -> None:
        """Store ``doc`` (a JSON-ready dict, copied now) under ``key``, replacing
        any document there; ``owned``: ``doc`` was made for this put, of JSON
        values only, and is never changed after (a game's live state, made
        anew for each save): kept as it is, not copied (the copy of a game
        was a twentieth of an order mail's CPU, issue 23). Raises StoreError
        for a non-JSON document or a table/key the store cannot hold."""
        _check(table, key)
        if not isinstance(doc, dict):
            raise StoreError(f"{table}/{key}: a document must be a dict")
        try:
            text, copy = json_copy(doc, copy=not owned)
            copy = doc if owned else copy
        except (TypeError, ValueError) as e:
            raise StoreError(f"{table}/{key}: not storable as JSON: {e}") from None
        self.texts[id(copy)] = text                 # the copy lives in changes: its id stays its own
        self.changes.append((table, key, copy))
        self._staged[(table, key)] = copy

    def delete(self, table: str, key: str) -> None:
        """Remove the document under ``key`` (nothing happens if there is none)."""
        _check(table, key)
        self.changes.append((table, key, None))
        self._staged[(table, key)] = None


class Store:
    """The store folder ``root`` (created with its parents if missing).
    Raises StoreError for a folder of another layout version, or a path that
    is a file (a v1 ``judge.json``: see :mod:`judge.storage.upgrade`)."""

    def __init__(self, root: str | Path, lazy_sync: bool = False):
        self.root = Path(root)
        self._root_text = str(self.root)
        self.lazy_sync = lazy_sync
        self._pending = 0                         # this writer's commits not yet checkpointed
        self._mine: tuple = ()                    # the journal's state after this writer's last change
        self._ledger_unsynced = False
        self._seq_fd: int | None = None
        self._seq_read: int | None = None
        self._unsynced: set[Path] = set()
        # lazy_sync: files committed (in the journal) but not yet written: rel -> (bytes or None, content)
        self._dirty: dict[str, tuple[bytes | None, dict | None]] = {}
        self._overlay: tuple[tuple, dict[str, bytes | None], dict[str, object]] = ((), {}, {})
        self._since = 0.0
        self.journal_dir = self.root / "journal"
        self._lock_path = self.root / "writer.lock"
        self._local = threading.local()
        self._cache: OrderedDict[str, tuple[tuple, int, dict]] = OrderedDict()
        self._cached_bytes = 0
        self._cache_lock = threading.Lock()
        # held with the writer lock (_locked): while this writer changes the journal and what it
        # notes of it (_mine, _dirty), a reader in another thread must not take a commit in progress
        # for another writer's
        self._state = threading.RLock()
        self._on_recovered: dict[str, Callable[[dict[str, dict]], None]] = {}
        self._unapplied: dict[int, list] = {}     # seq -> changes of a commit reported failed
        self._temps_removed = False               # journal/ looked at for a crash's temporary files
        if self.root.is_file():
            raise StoreError(f"{self.root} is a file, not a store folder (a judge.json of the one-file "
                             f"layout is upgraded with `judge store upgrade`)")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            version = self.root / "VERSION"
            if not version.exists():
                for d in ("games", "tables", "journal"):
                    (self.root / d).mkdir(exist_ok=True)
                atomic_write(version, f"{layout.VERSION}\n".encode())
            found = version.read_text().strip()
        except OSError as e:
            raise StoreError(f"{self.root}: {e.strerror or e}") from None
        if found == "2":
            from .upgrade import upgrade_v2
            with self._locked():
                found = upgrade_v2(self.root)
        if found != layout.VERSION:
            raise StoreError(f"{self.root}: store layout version {found!r}; this judge reads {layout.VERSION!r}")
        self._log = journal.Log(self.journal_dir)
        self.ledger = Ledger(self.root)

    @property
    def path(self) -> Path:
        return self.root

    # ---- reading ---------------------------------------------------------------------
    def get(self, table: str, key: str) -> dict | None:
        """The document under ``key``, or None. Documents are shared with other
        readers of this Store: do not change one (put a new dict instead).
        Raises StoreError for an unreadable file or a bad table/key."""
        at = _check(table, key)
        if table == layout.LEDGER:
            return self.ledger.get(key)
        if table == layout.LOGS:
            return None                 # append-only: read with read_log
        content = self._read(at.path)
        if content is None or at.table is None:
            return content
        return content.get(at.table, {}).get(at.doc_id)

    def all(self, table: str) -> dict[str, dict]:
        """``{key: document}`` of a table that may be read whole
        (:data:`~judge.storage.layout.SCANNABLE`: the outbox and the indexes the
        scheduler and ``LIST`` read). Raises StoreError for another table."""
        if table not in layout.SCANNABLE:
            raise StoreError(f"table {table!r} is looked up by key, not read whole")
        out: dict[str, dict] = {}
        for rel in layout.shard_paths(table):
            content = self._read(rel)
            if content:
                out.update(content.get(layout.ROWS, {}))
        return out

    def body_keys(self) -> list[str]:
        """The keys of the table ``bodies`` (mail bodies outbox rows share)."""
        return self._listed(layout.body_keys(self.root), f"tables/{layout.BODIES}/", ".json")

    def _listed(self, names: list[str], prefix: str, suffix: str) -> list[str]:
        """``names`` (from a folder listing) as the commits not yet in the
        files change them: ``prefix NAME suffix`` made or removed."""
        out = set(names)
        for rel, content in self._committed_unwritten().items():
            if rel.startswith(prefix) and rel.endswith(suffix) and "/" not in rel[len(prefix):-len(suffix)]:
                (out.add if content is not None else out.discard)(rel[len(prefix):-len(suffix)])
        return sorted(out)

    def read_log(self, table: str, key: str, length: int) -> bytes:
        """The first ``length`` bytes of the append-only file ``table``/``key``
        (what the commit that wrote ``length`` left; more may be there from a
        later commit). Raises StoreError if it is shorter."""
        path = self.root / _check(table, key).path
        try:
            with open(path, "rb") as f:
                data = f.read(length)
        except FileNotFoundError:
            data = b""
        except OSError as e:
            raise StoreError(f"{path}: {e.strerror or e}") from None
        if len(data) != length:
            raise StoreError(f"{path}: {len(data)} bytes, {length} expected")
        return data

    def expire_ledger(self, cutoff: float) -> int:
        """Remove ledger entries older than ``cutoff`` (POSIX seconds) by
        dropping whole weeks (:meth:`judge.storage.ledger.Ledger.expire`);
        how many went. Raises StoreError."""
        with self._locked():
            try:
                self._recover()
                self._checkpoint()          # no frame still to replay may put back what goes
                return self.ledger.expire(cutoff)
            except (OSError, journal.JournalError) as e:
                raise StoreError(f"{self.root}: cannot expire the ledger: {e}") from None
            except sqlite3.Error as e:
                raise StoreError(f"{self.ledger.path}: {e}") from None

    def game_names(self) -> list[str]:
        """Every stored game's name, sorted (reads a folder listing only)."""
        names = layout.game_names(self.root)
        pending = self._committed_unwritten()
        if not pending:
            return names
        out = set(names)
        for rel, content in pending.items():
            parts = rel.split("/")
            if len(parts) == 3 and parts[0] == "games" and parts[2] == "game.json":
                (out.add if content is not None else out.discard)(parts[1])
        return sorted(out)

    def version(self) -> str:
        """A token that changes with every commit (by any process): the file
        ``seq``, always written in place (read through a kept descriptor)."""
        if self._seq_read is None:
            try:
                self._seq_read = os.open(self.root / "seq", os.O_RDONLY)
            except FileNotFoundError:
                return ""
        return os.pread(self._seq_read, 64, 0).decode("ascii", "replace").strip()

    def _read(self, rel: str):
        if self._dirty:
            with self._state:
                if rel in self._dirty:
                    if self._log.state() == self._mine:
                        return self._dirty[rel][1]
                    self._forget_dirty()        # another writer applied them from the journal
        elif not self.lazy_sync and not self._unapplied:
            pending = self._committed_unwritten()
            if rel in pending:
                return pending[rel]
        return self._read_file(rel)

    def _committed_unwritten(self) -> "dict[str, dict | None]":
        """``{rel: content or None (removed)}`` of the files whose newest
        commit is in the journal but not yet in the file: this writer's own
        (``lazy_sync``: written at the checkpoint), or — for any other Store —
        those of the running judge's journal, read from it (its frames hold
        whole contents), so every reader sees the last commit."""
        if self._dirty:
            with self._state:
                if self._log.state() == self._mine:
                    return _Contents(self._dirty)
                self._forget_dirty()            # another writer applied them from the journal
        if self.lazy_sync or self._unapplied:
            return {}                           # its own commit reported failed: finished by its next transaction
        state = self._log.state()
        if not state:
            return {}
        if state != self._overlay[0]:
            files: dict[str, bytes | None] = {}
            try:
                for payload in self._log.frames():
                    for rel, data, offset in journal.decode(payload)[1]:
                        if offset is None:
                            files[rel] = data
            except (journal.JournalError, ValueError, KeyError):
                files = {}                      # being rewritten: the files are as good as it gets
            self._overlay = (state, files, {})
        _state, files, decoded = self._overlay
        return _Decoded(files, decoded)

    def _forget_dirty(self) -> None:
        self._dirty.clear()

    def _read_file(self, rel: str):
        path = f"{self._root_text}/{rel}"          # a str: pathlib's joins cost more than the stat
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise StoreError(f"{path}: {e.strerror or e}") from None
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
        with self._cache_lock:
            hit = self._cache.get(rel)
            if hit is not None and hit[0] == stamp:
                self._cache.move_to_end(rel)
                return hit[2]
        try:
            content = AtomicJSONStorage(path).read()
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            raise StoreError(f"{path}: {e}") from None
        if content is not None and not isinstance(content, dict):
            raise StoreError(f"{path}: not a JSON object")
        self._keep(rel, stamp, st.st_size, content)
        return content

    def _keep(self, rel: str, stamp: tuple, size: int, content) -> None:
        with self._cache_lock:
            old = self._cache.pop(rel, None)
            if old is not None:
                self._cached_bytes -= old[1]
            if size <= CACHE_BYTES // 4:
                self._cache[rel] = (stamp, size, content)
                self._cached_bytes += size
                while self._cached_bytes > CACHE_BYTES:
                    _rel, (_s, dropped, _c) = self._cache.popitem(last=False)
                    self._cached_bytes -= dropped

    def _remember(self, files: dict[str, dict | None]) -> None:
        """Keep in the cache the content of the files a commit just wrote (read
        back it would be the same: its documents are the transaction's JSON
        copies), so the next read of a file each mail rewrites (a game, an
        outbox shard) does not decode it again."""
        for rel, content in files.items():
            if content is not None:
                with contextlib.suppress(OSError):
                    st = os.stat(self.root / rel)
                    self._keep(rel, (st.st_ino, st.st_size, st.st_mtime_ns), st.st_size, content)

    # ---- writing ---------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self):
        """``with store.transaction() as tx: tx.put(...)``. On a clean exit every
        put and delete is committed together (see module doc); on an exception
        nothing is. Holds the writer lock throughout; does not nest. A journal
        left by a crash is applied first. Raises StoreError if the store cannot
        be written (nothing is changed)."""
        if getattr(self._local, "active", False):
            raise StoreError("transactions do not nest")
        self._local.active = True
        try:
            with self._locked():
                self._recover()
                tx = Transaction(self)
                yield tx
                if tx.changes:
                    self._commit(tx.changes, tx.texts)
        finally:
            self._local.active = False

    def recover(self, tell: bool = False) -> int:
        """Finish a commit a crash interrupted (apply the journal it left), as
        the writer: call it before reading anything to act on (at start, its
        caller then reads what it needs: :meth:`on_recovered` listeners are
        told only with ``tell``). Returns how many commits were finished.
        Raises StoreError."""
        with self._locked():
            return self._recover(tell=tell)

    def unfinished(self) -> bool:
        """Whether a commit of this Store was reported failed after its
        journal was written (:meth:`transaction` raised StoreError): the next
        transaction, or :meth:`recover`, finishes it; until then readers see
        part of it, or none."""
        return bool(self._unapplied)

    def on_recovered(self, table: str, listener: Callable[[dict[str, dict]], None]) -> None:
        """Have ``listener({key: document})`` called with the documents that a
        commit of this Store reported failed (:meth:`transaction` raised
        StoreError after its journal was written: a full disk) put in
        ``table``, when a later transaction or ``recover(tell=True)`` finishes
        it from its journal (issue 19, point 7: the outbox rows of such a
        commit must still be sent). Called with the writer lock held, before
        that transaction's own changes; the documents are committed by then.
        (A commit another process left is finished at the judge's start,
        whose caller reads the store afterwards.)"""
        self._on_recovered[table] = listener

    def _recover(self, tell: bool = True) -> int:
        """Apply the journal's frames, durably, and empty it — unless it is as
        this writer left it (its own commits, applied: synced at its
        checkpoint). Returns how many frames were applied."""
        try:
            clean = not self._unapplied and self._log.state() == self._mine
            if not (clean and self._temps_removed):  # a crash's leftovers: at the first commit, and after a crash
                remove_temps(self.journal_dir)
                self._temps_removed = True
            if clean:
                return 0
            frames = self._log.frames()
            # another writer applied (and synced) this writer's commits, or they are applied now
            self._pending, self._unsynced, self._ledger_unsynced = 0, set(), False
            self._forget_dirty()
            if not frames:
                self._unapplied.clear()
                self._mine = self._log.state()
                return 0
            recovered: dict[str, dict[str, dict]] = {}
            for payload in frames:
                seq, files, ops = journal.decode(payload)
                for rel, _data, _offset in files:   # a crash while applying may have left temp files
                    remove_temps((self.root / rel).parent)
                # a commit of this Store reported failed: its listened rows, exactly as put
                for table, key, doc in self._unapplied.pop(seq, []) if tell else ():
                    if table in self._on_recovered and doc is not None:
                        recovered.setdefault(table, {})[key] = doc
                journal.apply(self.root, files)
                self.ledger.apply(ops)
            self.ledger.sync()
            self._log.reset()
            self._mine = self._log.state()
            self._unapplied.clear()
            # a batch made from the store before these commits must be made again
            # (Worker: compare-and-set on version()): move the version on
            self._write_seq(self._next_seq())
            for table, rows in recovered.items():
                if rows:
                    self._on_recovered[table](rows)
            return len(frames)
        except (OSError, journal.JournalError, ValueError, KeyError) as e:
            raise StoreError(f"{self.journal_dir}: cannot apply a commit left by a crash: {e}") from None
        except sqlite3.Error as e:
            raise StoreError(f"{self.ledger.path}: cannot apply a commit left by a crash: {e}") from None

    def _commit(self, changes: list[tuple[str, str, dict | None]], texts: dict[int, str] | None = None) -> None:
        records: dict[str, dict | None] = {}       # whole-file documents (phase records)
        databases: dict[str, dict] = {}            # TinyDB files: {table: {doc_id: doc}}
        appends: dict[str, dict] = {}              # append-only files: {"offset", "text"}
        ledger: list[tuple[str, dict | None]] = []
        for table, key, doc in changes:
            if table == layout.LEDGER:
                ledger.append((key, doc))
                continue
            at = layout.place(table, key)
            if table == layout.LOGS and doc is not None:
                appends[at.path] = doc
                continue
            if at.table is None:
                records[at.path] = doc
                continue
            content = databases.get(at.path)
            if content is None:
                base = self._read(at.path) or {}
                content = databases[at.path] = {t: dict(rows) for t, rows in base.items()}
            rows = content.setdefault(at.table, {})
            if doc is None:
                rows.pop(at.doc_id, None)
            else:
                rows[at.doc_id] = doc
        files = {**records, **{rel: (c if any(c.values()) else None) for rel, c in databases.items()}}
        # readers see a commit in this order: new records and logs, judge-wide rows and the
        # ledger, games; removals last
        order = sorted(files, key=lambda rel: (files[rel] is None, rel not in records,
                                               rel.startswith("games/"), rel))
        encoded = [(rel, doc["text"].encode("utf-8"), int(doc["offset"])) for rel, doc in appends.items()]
        encoded += [(rel, None if files[rel] is None else _encode_file(files[rel], texts or {}, rel in records), None)
                    for rel in order]
        games = sum(1 for rel, data, _o in encoded if data is None or rel in files and rel.startswith("games/")
                    and rel not in records)
        ops = ops_of(ledger)
        try:
            seq = self._next_seq()
            self._log.append(journal.encode(seq, encoded, ops))
            faults.checkpoint("journal_written")
            durable = not self.lazy_sync
            try:
                if self.lazy_sync:
                    # the running judge: appends in place now (cheap); whole files at the
                    # checkpoint — each replaced file costs a new inode, ~0.5 ms of system
                    # CPU here, and a file rewritten by every mail is written once (issue 23)
                    journal.apply(self.root, encoded[:len(appends)], faults.checkpoint, durable=False)
                    if ops:
                        self.ledger.apply(ops)
                        faults.checkpoint("journal_applied_table")
                else:
                    journal.apply(self.root, encoded[:len(encoded) - games], faults.checkpoint, durable=durable)
                    if ops:
                        self.ledger.apply(ops)
                        faults.checkpoint("journal_applied_table")
                    journal.apply(self.root, encoded[len(encoded) - games:], faults.checkpoint, durable=durable)
            except (OSError, sqlite3.Error):
                # the commit is durable in its journal: the next transaction finishes it
                # (its on_recovered listeners are told what it put)
                self._unapplied[seq] = changes
                raise
            self._write_seq(seq)
            if self.lazy_sync:
                for rel, data, _o in encoded[len(appends):]:
                    self._dirty.pop(rel, None)          # kept in commit order
                    self._dirty[rel] = (data, files[rel])
            else:
                self._remember(files)
            if not self.lazy_sync:
                if ops:
                    self.ledger.sync()
                self._log.reset()
                self._mine = self._log.state()
                return
            if not self._pending:
                self._since = time.monotonic()
            self._pending += 1
            self._mine = self._log.state()
            self._unsynced.update(self.root / rel for rel, _data, _o in encoded[:len(appends)])
            self._ledger_unsynced |= bool(ops)
            if self._pending >= CHECKPOINT_COMMITS or len(self._dirty) >= CHECKPOINT_FILES \
                    or time.monotonic() - self._since > CHECKPOINT_SECONDS:
                try:
                    self._checkpoint()
                except OSError as e:        # this commit is durable in the journal: the files wait
                    log.warning("store %s: the checkpoint failed (%s); the journal keeps the commits "
                                "and the next checkpoint writes them", self.root, e.strerror or e)
        except OSError as e:
            raise StoreError(f"{self.root}: cannot write: {e.strerror or e}") from None
        except sqlite3.Error as e:
            raise StoreError(f"{self.ledger.path}: cannot write: {e}") from None

    def checkpoint(self, older_than: float = 0.0) -> None:
        """Sync the files this writer's commits replaced and empty the journal
        (``lazy_sync``; nothing to do otherwise, or when the oldest of them
        is younger than ``older_than`` seconds). Raises StoreError."""
        if not self._pending or time.monotonic() - self._since < older_than:
            return
        with self._locked():
            try:
                if self._log.state() == self._mine:
                    self._checkpoint()
                else:                                   # another writer synced them
                    self._pending, self._unsynced, self._ledger_unsynced = 0, set(), False
                    self._forget_dirty()
            except OSError as e:
                raise StoreError(f"{self.root}: cannot sync: {e.strerror or e}") from None

    def _checkpoint(self) -> None:
        if not self._pending:
            return
        self._write_dirty()
        for path in sorted(self._unsynced):
            fsync_path(path)
        for folder in sorted({p.parent for p in self._unsynced}):
            with contextlib.suppress(FileNotFoundError):
                fsync_dir(folder)
        if self._ledger_unsynced:
            self.ledger.sync()
        self._log.reset()
        self._mine = self._log.state()
        self._pending, self._unsynced, self._ledger_unsynced = 0, set(), False

    def _write_dirty(self) -> None:
        """Write the files this writer's commits left in the journal only
        (``lazy_sync``): each once, as its last commit left it, in the order
        readers expect (records, judge-wide tables, games; removals last).
        Raises OSError (what is not written stays to write)."""
        if not self._dirty:
            return
        order = sorted(self._dirty, key=lambda rel: (self._dirty[rel][0] is None, "/phases/" not in rel,
                                                     rel.startswith("games/"), rel))
        for rel in order:
            data, content = self._dirty[rel]
            journal.apply(self.root, [(rel, data, None)], faults.checkpoint, durable=False)
            self._unsynced.add(self.root / rel)
            del self._dirty[rel]
            if content is not None:
                self._remember({rel: content})

    def _write_seq(self, seq: int) -> None:
        """Note the commit's number in ``seq`` (one in-place write, no fsync:
        if a crash loses it, the next commit only reuses a number)."""
        if self._seq_fd is None:
            self._seq_fd = os.open(self.root / "seq", os.O_RDWR | os.O_CREAT, 0o644)
        os.pwrite(self._seq_fd, str(seq).rjust(20).encode(), 0)

    def _next_seq(self) -> int:
        text = self.version()
        return (int(text) if text.isdigit() else 0) + 1

    @contextlib.contextmanager
    def _locked(self):
        """The writer lock (between processes), then :attr:`_state` (between
        this Store's threads): every change to the journal and to this
        writer's notes of it (a commit, a recovery, a checkpoint) is made
        holding both, and a reader checks those notes holding the second."""
        try:
            fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise StoreError(f"{self._lock_path}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with self._state:
                yield
        finally:
            os.close(fd)

    def close(self) -> None:
        self.checkpoint()
        for fd in (self._seq_fd, self._seq_read):
            if fd is not None:
                os.close(fd)
        self._seq_fd = self._seq_read = None
        self._log.close()
        self.ledger.close()
        with self._cache_lock:
            self._cache.clear()
            self._cached_bytes = 0


class KeyedTable(Table):
    """A TinyDB table whose document ids are the store's string keys."""
    document_id_class = str


def open_tinydb(path: str | Path) -> TinyDB:
    """A store file opened with TinyDB itself (for tools and tests):
    ``open_tinydb(p).table("live").get(doc_id="game")``."""
    db = TinyDB(path, storage=AtomicJSONStorage)
    db.table_class = KeyedTable
    return db


def _check(table: str, key: str) -> layout.Place:
    if not isinstance(table, str) or not table or not isinstance(key, str) or not key:
        raise StoreError(f"table and key must be non-empty strings, not {table!r}/{key!r}")
    try:
        return layout.place(table, key)
    except layout.LayoutError as e:
        raise StoreError(str(e)) from None


def _encode_file(content: dict, texts: dict[int, str], record: bool) -> bytes:
    """:func:`~judge.storage.atomic.encode` of a file's content (a record, or a
    TinyDB file ``{table: {doc_id: doc}}``), the same bytes, with the JSON of
    the documents the transaction encoded when they were put (``texts``, by
    id) taken as it is instead of encoded again."""
    if record:
        text = texts.get(id(content))
        return text.encode("utf-8") if text is not None else encode(content)
    parts = []
    for table, rows in content.items():
        inner = ",".join(f"{json.dumps(k, ensure_ascii=False)}:{texts.get(id(doc)) or json_text(doc)}"
                         for k, doc in rows.items())
        parts.append(f"{json.dumps(table, ensure_ascii=False)}:{{{inner}}}")
    return ("{" + ",".join(parts) + "}").encode("utf-8")


class _Contents(dict):
    """``{rel: content}`` of a writer's files not yet written (from ``{rel: (bytes, content)}``)."""

    def __init__(self, dirty: dict):
        super().__init__((rel, content) for rel, (_data, content) in dirty.items())


class _Decoded:
    """``{rel: content}`` of the files in another writer's journal, each
    decoded when first asked for (kept in ``decoded``)."""

    def __init__(self, files: dict[str, bytes | None], decoded: dict):
        self._files, self._decoded = files, decoded

    def __contains__(self, rel: str) -> bool:
        return rel in self._files

    def __getitem__(self, rel: str):
        if rel not in self._decoded:
            data = self._files[rel]
            self._decoded[rel] = None if data is None else json.loads(data)
        return self._decoded[rel]

    def items(self):
        return ((rel, self[rel]) for rel in self._files)

    def __bool__(self) -> bool:
        return bool(self._files)
