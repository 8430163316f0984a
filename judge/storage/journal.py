"""The commit journal: how one commit changes several files all or not at all,
for the cost of ONE ``fdatasync``.

The journal is one append-only file, ``journal/log``, of frames. A commit
appends its frame — every file it changes with its whole new content, or
its removal, or bytes written at an offset of an append-only file, and its
ledger rows (:mod:`.ledger`) — and syncs it (``fdatasync``): that is the
commit. Then the files are replaced (atomically: temp file and rename,
:func:`~judge.storage.atomic.atomic_write`) without syncing them; the
store syncs them a few commits later and then empties the log
(:meth:`Log.reset`). A crash before a frame is whole changes nothing (a
torn last frame is no commit); a crash after it leaves frames the next
writer applies again (:func:`apply`) — applying them again, in order, gives
the same files, since a frame holds whole contents, offsets and keyed rows.
Readers never read the journal.

Frame: ``JFRM``, the payload's length and CRC-32 (4 bytes each, little
endian), the payload: a line of JSON ``{"seq", "files": [[path, length,
offset]], "ledger": [[week, key, doc]]}`` (length -1: remove the file;
offset null: the whole file), then the files' bytes one after the other.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import zlib
from pathlib import Path

from .atomic import atomic_write, fsync_dir

LOG = "log"
_HEAD = struct.Struct("<4sII")
_MAGIC = b"JFRM"


class JournalError(ValueError):
    """A journal that cannot be read (the message names it)."""


def encode(seq: int, files: list[tuple[str, bytes | None, int | None]], ledger: list[list]) -> bytes:
    """The frame of commit ``seq`` (see module doc)."""
    head = json.dumps({"seq": seq, "files": [[p, -1 if b is None else len(b), o] for p, b, o in files],
                       "ledger": ledger}, ensure_ascii=False, separators=(",", ":")).encode()
    payload = b"".join([head, b"\n", *(b for _p, b, _o in files if b is not None)])
    return _HEAD.pack(_MAGIC, len(payload), zlib.crc32(payload)) + payload


def decode(payload: bytes) -> tuple[int, list[tuple[str, bytes | None, int | None]], list[list]]:
    end = payload.index(b"\n")
    head = json.loads(payload[:end])
    files, at = [], end + 1
    for rel, length, offset in head["files"]:
        if length < 0:
            files.append((rel, None, offset))
        else:
            files.append((rel, payload[at:at + length], offset))
            at += length
    return head["seq"], files, head.get("ledger", [])


class Log:
    """The journal file in ``directory`` (its folder is made if missing)."""

    def __init__(self, directory: Path):
        self.path = Path(directory) / LOG
        self._fd: int | None = None

    def _open(self) -> int:
        if self._fd is None:
            new = not self.path.exists()
            self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            if new:
                fsync_dir(self.path.parent)
        return self._fd

    def append(self, frame: bytes) -> None:
        """Add a frame durably (one write, one ``fdatasync``). Raises OSError."""
        fd = self._open()
        os.write(fd, frame)
        os.fdatasync(fd)

    def state(self) -> tuple:
        """What the file is now (inode, size, modification time): compare it
        with the state after this Log's own last write to learn whether
        another process wrote (or reset) it since."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return ()
        return (st.st_ino, st.st_size, st.st_mtime_ns) if st.st_size else ()

    def frames(self) -> list[bytes]:
        """The payloads of the whole frames, oldest first; a torn last frame
        (a crash while it was written) is left out. Raises JournalError for a
        damaged frame followed by more."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        out, at = [], 0
        while at + _HEAD.size <= len(data):
            magic, length, crc = _HEAD.unpack_from(data, at)
            payload = data[at + _HEAD.size:at + _HEAD.size + length]
            if magic != _MAGIC or len(payload) != length or zlib.crc32(payload) != crc:
                if at + _HEAD.size + length < len(data) and magic == _MAGIC:
                    raise JournalError(f"{self.path}: frame at byte {at} damaged")
                break                   # torn: never committed
            out.append(payload)
            at += _HEAD.size + length
        return out

    def reset(self) -> None:
        """Empty the log (its commits are durable in the files). Raises OSError."""
        fd = self._open()
        os.ftruncate(fd, 0)
        os.fsync(fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def apply(root: Path, files: list[tuple[str, bytes | None, int | None]], checkpoint=lambda where: None,
          durable: bool = True) -> None:
    """Make the files of a frame so under the store folder ``root``
    (``durable``: each change fsynced). ``checkpoint(name)`` is called after
    each file (the crash tests' hook: ``journal_applied_record``, ``_table``
    or ``_game``)."""
    for rel, data, offset in files:
        target = root / rel if offset is None else None     # (a Path only when one is needed)
        if data is None:
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
                if durable:
                    fsync_dir(target.parent)
        elif offset is not None:        # an append-only file: write at its offset, cut after
            path = f"{root}/{rel}"
            try:                        # (its folder made only when missing: one a phase, written each mail)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            except FileNotFoundError:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                os.pwrite(fd, data, offset)
                os.ftruncate(fd, offset + len(data))
                if durable:
                    os.fdatasync(fd)
            finally:
                os.close(fd)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, data, durable)
        checkpoint("journal_applied_" + ("record" if "/phases/" in rel else "game" if rel.startswith("games/")
                                         else "table"))


def pending(directory: Path) -> int:
    """How many commits wait in the journal of ``directory`` (tests, tools)."""
    return len(Log(directory).frames())
