"""The spool: every inbound mail is written here, durably, before anything else.

Layout under the spool folder::

    tmp/     entries being written (a crash leaves only garbage here, removed at start)
    new/     entries waiting for the worker, processed in name order
    shunt/   entries set aside after repeated failures: NAME.eml (the raw bytes,
             unchanged) and NAME.json (key, source, attempts, last error)
    inflight.json  the batch the worker is processing and the entry it is
             handling now, or ``idle`` (see below)
    resend/  requests of the judgekeeper to send a failed outgoing mail again
             (``judge spool resend``): one JSON file {"id": Message-ID} each

An entry file in ``new/`` is one JSON line of metadata, a newline, then the raw
message bytes. Names are ``<ns since epoch, 20 digits>-<seq>-<hash>.msg`` so the
name order is the arrival order. Writes go to ``tmp/``, are fsynced, renamed
into place and the folder is fsynced (the Mailman queue discipline).

Metadata keys: ``key`` (ledger key, see :func:`message_key`), ``from`` and
``reply_to`` (the addresses of those headers, lower case, for the worker's
fair queueing per sender: :mod:`judge.mail.fairness`), ``source``
(``"smtp"``, ``"imap"``, ``"cli"``), ``received`` (UTC ISO time) and
transport details (``uid``/``uidvalidity``/``folder`` for IMAP, ``mail_from``
/ ``rcpt_tos`` for SMTP), ``attempts`` (processing attempts so far that
failed with an error), ``deaths`` (attempts during which the process died),
``alone`` (to be processed on its
own: its batch died while committing), ``retry`` (true when a judgekeeper
sent a shunted entry back).

A mail that kills the process outright (not an exception: a segfault, the
OOM killer, SIGKILL) must not be retried for ever, and the mails that only
shared its batch must not pay for it: the worker writes ``inflight.json``
before a batch of new entries, names in it the entry it is
handling before each one (:meth:`Spool.handling`: a plain rename, which a
killed process's last write survives), and notes when the batch is being
committed (:meth:`Spool.committing`). After a restart (:meth:`Spool.recover`)
only the entry being handled is charged an attempt; a batch that died while
committing charges nobody, but each of its entries waiting is marked
``alone``. An entry tried before, or marked alone, is processed on its own
(a death during its own commit is charged to it too), until it succeeds or
is shunted.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import threading
import time
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from email.policy import compat32
from pathlib import Path

from .message import parse_address
from .policies import DEFAULT

_HEADER_PARSER = BytesHeaderParser(policy=compat32)     # raw values: nothing parsed that is not read
_MODERN_PARSER = BytesHeaderParser(policy=DEFAULT)


def message_key(raw: bytes) -> str:
    """The ledger key of a raw mail: its Message-ID without ``<>`` (lower-cased
    domain part kept as written), else ``sha256:<hex of the bytes>``."""
    return _read_heads(raw)[0]


class _PlainHeads:
    """A header block of plain lines (``Name: value`` CRLF, ASCII, none folded
    or odd), read as the compat32 parser reads it (``raw_items``) without it:
    a fifth of the listener's CPU a mail was this reading (issue 23)."""

    def __init__(self, items: list[tuple[str, str]]):
        self._items = items

    def raw_items(self):
        return iter(self._items)

    @classmethod
    def of(cls, raw: bytes) -> "_PlainHeads | None":
        """The block read, or None when it is not that plain (the parser reads it)."""
        end = raw.find(b"\r\n\r\n")
        block = raw[:end]
        joined = block.replace(b"\r\n", b"")
        if end <= 0 or not block.isascii() or b"\r" in joined or b"\n" in joined:
            return None
        items = []
        for line in block.decode("ascii").split("\r\n"):
            if not _PLAIN_LINE.match(line):
                return None
            name, _, value = line.partition(":")
            items.append((name, value.lstrip(" \t")))
        return cls(items)


_PLAIN_LINE = re.compile(r"[\x21-\x39\x3b-\x7e]+:")
"""A header line the compat32 parser reads as ``name: value`` (no folding)."""


def _read_heads(raw: bytes) -> tuple[str, str, str]:
    """``(ledger key, From address, Reply-To address)`` of a raw mail, from one
    reading of its headers (addresses lower case, ``""`` when unreadable)."""
    try:
        head = _PlainHeads.of(raw) or _HEADER_PARSER.parsebytes(raw)
        value = next((str(v) for k, v in head.raw_items() if k.lower() == "message-id"), None)
        if value is not None and not (value.isascii() and "=?" not in value and "\n" not in value.strip()):
            value = _MODERN_PARSER.parsebytes(raw).get("Message-ID")     # as keys were always made
        mid = str(value).strip() if value is not None else ""
    except Exception:  # noqa: BLE001 - a header that defeats the parser: fall back to the hash
        head, mid = None, ""
    mid = mid.strip("<> \t\r\n")
    key = mid if mid and len(mid) <= 500 and " " not in mid else "sha256:" + hashlib.sha256(raw).hexdigest()
    return (key, *(_address(head, name) for name in ("From", "Reply-To")))


def _address(head, name: str) -> str:
    """The address in header ``name``, read from its raw value (at most
    ``ADDRESS_CHARS`` of it) as :func:`email.utils.parseaddr` reads it
    (:func:`judge.mail.message.parse_address`): the modern
    policy's structured parse can take minutes on a crafted address header,
    and this runs in the listener before its ``250``."""
    try:
        value = next((v for k, v in head.raw_items() if k.lower() == name.lower()), None) \
            if head is not None else None
        return parse_address(" ".join(str(value)[:ADDRESS_CHARS].split()))[1].strip().lower()[:300] \
            if value is not None else ""
    except Exception:  # noqa: BLE001 - a header that defeats the parser: no address
        return ""


ADDRESS_CHARS = 2000
FRESH_ENTRIES = 256
FRESH_BYTES = 16 * 1024 * 1024
"""Entries a Spool keeps in memory from its writing to their removal (at most
so many, of so many raw bytes in all): the worker of the same process reads
them from there, not from their files (issue 23)."""
SPARES = 8
"""Processed entries' files kept in ``tmp/`` to write new entries over."""


@dataclass(frozen=True)
class SpoolEntry:
    """One spooled mail: ``name`` (file name), ``meta`` (dict, see module doc), ``raw`` bytes."""
    name: str
    meta: dict
    raw: bytes

    @property
    def key(self) -> str:
        return self.meta["key"]


def _utc_stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_durably(tmp: Path, final: Path, data: bytes, spare: bool = False) -> None:
    """``data`` into ``tmp`` (``spare``: an entry file already there, written
    over in place: a file made and removed for every mail makes ext4 look
    for a free inode past the recently deleted ones, ~0.2 ms of system CPU a
    mail here), synced, renamed to ``final``, its folder synced."""
    fd = os.open(tmp, os.O_WRONLY | (0 if spare else os.O_CREAT | os.O_TRUNC), 0o600)
    try:
        os.pwrite(fd, data, 0)
        if spare:
            os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(tmp, final)
    _fsync_dir(final.parent)


class Spool:
    """A spool folder (see module doc). Safe to :meth:`put` from several threads;
    one worker reads and removes entries."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.tmp, self.new, self.shunt_dir = self.root / "tmp", self.root / "new", self.root / "shunt"
        self.resend_dir = self.root / "resend"
        self._new_text = str(self.new)              # listed for every mail: no Path object per name
        self._added = True                          # an entry written here since the last listing
        self._gone: set[str] = set()                # entries removed here since the last listing
        self.inflight_path = self.root / "inflight.json"
        for d in (self.tmp, self.new, self.shunt_dir, self.resend_dir):
            d.mkdir(parents=True, exist_ok=True)
        self._seq = itertools.count()
        self._lock = threading.Lock()
        self._batch: list[str] = []
        self._alone = False
        self._note_fd: int | None = None
        self._note_len = 0
        self._resend_seen = -1                   # the resend folder's mtime when last found empty
        self._spares: list[str] = []              # processed entries' files in tmp/, to write new ones over
        self._spare_seq = itertools.count()
        self._fresh: dict[str, SpoolEntry] = {}    # entries written here, not yet removed (see read)
        self._fresh_bytes = 0

    def clean_tmp(self) -> None:
        """Remove half-written entries left by a crash, and spare files (call
        once at start, before any put)."""
        with self._lock:
            self._spares.clear()
        for p in self.tmp.iterdir():
            p.unlink(missing_ok=True)

    def _name(self, key: str) -> str:
        with self._lock:
            seq = next(self._seq) % 1_000_000
            stamp = time.time_ns()
        digest = hashlib.sha256(key.encode()).hexdigest()[:12]
        return f"{stamp:020d}-{seq:06d}-{digest}.msg"

    def put(self, raw: bytes, meta: dict) -> SpoolEntry:
        """Spool ``raw`` with ``meta`` (``key`` is filled in if absent); durable on return."""
        meta = dict(meta)
        if meta.get("source") != "cli" and "key" not in meta:   # who wrote it: for fair queueing
            meta["key"], meta["from"], meta["reply_to"] = _read_heads(raw)
        if "key" not in meta:                  # (not setdefault: that would read the headers again)
            meta["key"] = message_key(raw)
        meta.setdefault("attempts", 0)
        name = self._name(meta["key"])
        self._write(name, meta, raw)
        return SpoolEntry(name, meta, raw)

    def _write(self, name: str, meta: dict, raw: bytes) -> None:
        head = json.dumps(meta, ensure_ascii=True, sort_keys=True).encode() + b"\n"
        with self._lock:
            spare = self._spares.pop() if self._spares else None
        _write_durably(self.tmp / (spare or name), self.new / name, head + raw, spare is not None)
        with self._lock:                            # the worker reads it from here, not from the file
            old = self._fresh.pop(name, None)
            self._fresh_bytes -= len(old.raw) if old else 0
            if len(self._fresh) < FRESH_ENTRIES and self._fresh_bytes + len(raw) <= FRESH_BYTES:
                self._fresh[name] = SpoolEntry(name, json.loads(head), raw)
                self._fresh_bytes += len(raw)
        self._added = True

    def added(self) -> bool:
        """Whether an entry was written into ``new/`` by this Spool since its
        last :meth:`pending` (entries other processes spool are not seen here)."""
        return self._added

    def removed(self, names: list[str]) -> bool:
        """Whether this Spool removed (or set aside) every entry of ``names``
        since its last :meth:`pending`."""
        return self._gone.issuperset(names)

    def pending(self) -> list[str]:
        """Names of the entries in ``new/``, oldest first."""
        self._added = False
        self._gone = set()
        return sorted(name for name in os.listdir(self._new_text) if name.endswith(".msg"))

    def read(self, name: str) -> SpoolEntry:
        """The entry ``name`` from ``new/`` (as this Spool wrote it, if it did:
        kept in memory until removed, :data:`FRESH_ENTRIES`); OSError if it is
        gone; ValueError if its metadata line is unreadable."""
        fresh = self._fresh.get(name)
        if fresh is not None:
            return SpoolEntry(name, dict(fresh.meta), fresh.raw)
        data = (self.new / name).read_bytes()
        head, _, raw = data.partition(b"\n")
        meta = json.loads(head)
        if not isinstance(meta, dict) or "key" not in meta:
            raise ValueError(f"spool entry {name}: bad metadata line")
        return SpoolEntry(name, meta, raw)

    def sender_of(self, name: str) -> tuple[str, str]:
        """``(From, Reply-To)`` addresses of waiting entry ``name``, from its
        metadata line alone (``("", "")``: gone, unreadable, or not noted)."""
        try:
            fresh = self._fresh.get(name)
            if fresh is not None:
                meta = fresh.meta
            else:
                with open(self.new / name, "rb") as f:
                    meta = json.loads(f.readline())
            return str(meta.get("from") or ""), str(meta.get("reply_to") or "")
        except (OSError, ValueError, AttributeError):
            return "", ""

    def remove(self, name: str) -> None:
        """Forget a processed entry (after its commit): its file leaves ``new/``,
        kept in ``tmp/`` for a next entry to be written over (at most
        :data:`SPARES`; ``tmp/`` is emptied at start)."""
        with self._lock:
            self._gone.add(name)
            fresh = self._fresh.pop(name, None)
            self._fresh_bytes -= len(fresh.raw) if fresh else 0
            spare = f".spare-{next(self._spare_seq)}" if len(self._spares) < SPARES else None
        if spare is None:
            (self.new / name).unlink(missing_ok=True)
            return
        try:
            os.rename(self.new / name, self.tmp / spare)
        except FileNotFoundError:
            return
        with self._lock:
            self._spares.append(spare)

    def record_failure(self, entry: SpoolEntry, error: str, counted: bool = False) -> SpoolEntry:
        """Record a failed attempt and its ``error`` in the entry's metadata
        (rewritten durably); it adds one to ``attempts`` unless the attempt was
        ``counted`` before it was made."""
        meta = dict(entry.meta, attempts=entry.meta.get("attempts", 0) + (0 if counted else 1),
                    error=error[:2000])
        self._write(entry.name, meta, entry.raw)
        return SpoolEntry(entry.name, meta, entry.raw)

    def count_death(self, entry: SpoolEntry) -> SpoolEntry:
        """Add one to the entry's ``deaths`` (the process died while handling
        it: a crash, or a kill from outside), durably."""
        meta = dict(entry.meta, deaths=entry.meta.get("deaths", 0) + 1)
        self._write(entry.name, meta, entry.raw)
        return SpoolEntry(entry.name, meta, entry.raw)

    # ---- the batch in progress (see module doc) --------------------------------
    def begin(self, names: list[str], alone: bool = False) -> None:
        """The entries ``names`` are being processed (``alone``: one entry on
        its own): written with the next note (:meth:`handling` or
        :meth:`committing`; until then nothing was handled, and a death is
        charged to nobody, as the note ``idle`` says). Each note is one write
        in place, no fsync: it serves after the process's death, which its
        last write survives; after a power cut no attempt is charged."""
        self._batch, self._alone = list(names), alone

    def handling(self, name: str | None) -> None:
        """The worker handles entry ``name`` of the batch now (None: between entries)."""
        self._note("handling", name)

    def committing(self) -> None:
        """Every entry of the batch is handled; the batch is being committed."""
        self._note("committing", None)

    def _note(self, stage: str, current: str | None) -> None:
        """Overwrite ``inflight.json`` in place with one write (padded with
        spaces to its last length), so a killed process leaves the last note whole."""
        data = json.dumps({"batch": self._batch, "alone": self._alone, "current": current,
                           "stage": stage}).encode()
        if self._note_fd is None:           # the file stays between batches and runs: pad over what is there
            self._note_fd = os.open(self.inflight_path, os.O_RDWR | os.O_CREAT, 0o600)
            self._note_len = os.fstat(self._note_fd).st_size
        os.pwrite(self._note_fd, data.ljust(self._note_len), 0)
        self._note_len = max(self._note_len, len(data))

    def end(self) -> None:
        """The batch noted by :meth:`begin` is done (committed, or its failure
        recorded): the note says ``idle`` (written in place; the file stays,
        so a batch costs no file made and removed: ~0.3 ms of system CPU on
        ext4, issue 23)."""
        self._batch, self._alone = [], False
        self._note("idle", None)

    def close(self) -> None:
        """Close the note's file (the spool stays usable: it is opened again)."""
        if self._note_fd is not None:
            os.close(self._note_fd)
            self._note_fd = None

    def recover(self) -> list[str]:
        """After a restart: charge one death to the entry that was being
        handled when the process died, if it is still waiting (and to an
        entry processed alone that died committing); if a batch died while
        committing, mark its waiting entries ``alone`` (nobody charged). Then forget the batch. Returns the names charged.
        Call before any processing."""
        try:
            info = json.loads(self.inflight_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError):
            info = {}
        if isinstance(info, list):          # an earlier release noted the batch alone
            info = {"batch": info, "current": None, "stage": "committing"}
        waiting = set(self.pending())
        out = []
        try:
            if info.get("stage") == "handling" and info.get("current") in waiting:
                self.count_death(self.read(info["current"]))
                out.append(info["current"])
            elif info.get("stage") == "committing" and info.get("alone"):
                for name in info.get("batch") or ():        # its own commit: charged
                    if name in waiting:
                        self.count_death(self.read(name))
                        out.append(name)
            elif info.get("stage") == "committing":
                for name in info.get("batch") or ():
                    if name in waiting:
                        entry = self.read(name)
                        self._write(name, dict(entry.meta, alone=True), entry.raw)
        except (OSError, ValueError, AttributeError, TypeError):
            pass
        self.end()
        return out

    def shunt_path(self, entry: SpoolEntry) -> Path:
        """Where :meth:`shunt` keeps the raw bytes of ``entry``."""
        return self.shunt_dir / f"{entry.name.removesuffix('.msg')}.eml"

    def shunt(self, entry: SpoolEntry, reason: str) -> Path:
        """Set ``entry`` aside: ``shunt/NAME.eml`` keeps the raw bytes, ``NAME.json``
        the metadata and ``reason``; the entry leaves ``new/``. Returns the .eml path."""
        stem = entry.name.removesuffix(".msg")
        eml = self.shunt_dir / f"{stem}.eml"
        _write_durably(self.tmp / f"{stem}.eml", eml, entry.raw)
        info = dict(entry.meta, reason=reason[:2000], shunted=_utc_stamp())
        _write_durably(self.tmp / f"{stem}.json", self.shunt_dir / f"{stem}.json",
                       json.dumps(info, ensure_ascii=False, indent=1, sort_keys=True).encode())
        self.remove(entry.name)
        return eml

    def shunted(self) -> list[dict]:
        """Metadata of every shunted entry (with ``name`` and ``path``), oldest first."""
        out = []
        for p in sorted(self.shunt_dir.glob("*.json")):
            try:
                info = json.loads(p.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            info["name"] = p.stem
            info["path"] = str(p.with_suffix(".eml"))
            out.append(info)
        return out

    # ---- outgoing mail sent again ----------------------------------------------
    def request_resend(self, message_id: str) -> Path:
        """Ask the worker to send the outgoing mail ``message_id`` again (a file
        in ``resend/``, durable on return). Returns its path."""
        name = hashlib.sha256(message_id.encode()).hexdigest()[:24] + ".json"
        path = self.resend_dir / name
        _write_durably(self.tmp / ("resend-" + name), path,
                       json.dumps({"id": message_id, "requested": _utc_stamp()}).encode())
        return path

    def resend_requests(self) -> list[tuple[Path, str]]:
        """``[(request file, Message-ID)]`` waiting (unreadable files are dropped).
        The folder is listed only when it changed since it was last found empty."""
        try:
            stamp = os.stat(self.resend_dir).st_mtime_ns
        except FileNotFoundError:
            return []
        if stamp == self._resend_seen:
            return []
        out = []
        for p in sorted(self.resend_dir.glob("*.json")):
            try:
                out.append((p, json.loads(p.read_text(encoding="utf-8"))["id"]))
            except (OSError, ValueError, KeyError, TypeError):
                p.unlink(missing_ok=True)
        if not out:                 # trusted only when a second old: a file made in the same clock tick
            seen = os.stat(self.resend_dir).st_mtime_ns         # would leave the folder's mtime as it was
            self._resend_seen = seen if time.time_ns() - seen > 1_000_000_000 else -1
        return out

    def retry(self, key_or_name: str) -> SpoolEntry:
        """Send a shunted entry (by ledger key or file stem) back to ``new/`` with
        ``retry`` set and its attempts and deaths reset. KeyError if no shunted entry matches."""
        for info in self.shunted():
            if key_or_name in (info["name"], info.get("key")):
                stem = info["name"]
                raw = (self.shunt_dir / f"{stem}.eml").read_bytes()
                meta = {k: v for k, v in info.items()
                        if k not in ("name", "path", "reason", "shunted", "error")}
                meta.update(attempts=0, deaths=0, retry=True)
                entry = self.put(raw, meta)
                (self.shunt_dir / f"{stem}.json").unlink(missing_ok=True)
                (self.shunt_dir / f"{stem}.eml").unlink(missing_ok=True)
                return entry
        raise KeyError(key_or_name)
