"""The commit journal: how one commit changes several files all or not at all.

A commit is written first as one journal file (``journal/SEQ.json``: every
file it changes, with its whole new content, or its removal), durably
(temp file, fsync, rename: :func:`~judge.storage.atomic.atomic_write`);
then each file is replaced (again atomically and durably) and the journal
file is removed. A crash before the journal file is in place changes
nothing; a crash after it leaves a journal that the next writer applies
again before anything else (:func:`replay`) — applying it twice gives the
same files, since it holds whole contents. Readers never read the journal:
between a crash and the next writer they see the files as before the commit.

Journal file format: the line ``judge-journal 1``, a line of JSON
``[[path, length], ...]`` (length -1: remove the file), then the new
contents, one after the other, as raw bytes.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from .atomic import atomic_write, fsync_dir

MAGIC = b"judge-journal 1\n"


class JournalError(ValueError):
    """A journal file that cannot be read (the message names it)."""


class TornJournal(JournalError):
    """A journal cut short while it was written: its commit never happened."""


def write(directory: Path, seq: int, files: list[tuple[str, bytes | None]]) -> Path:
    """Write the journal of commit ``seq`` durably (written, fsynced, its
    folder fsynced): ``files`` ``[(relative path, new bytes or None to
    remove)]``. Returns its path. Raises OSError. A journal cut short by a
    crash while it was written is no commit: :func:`read` says so, and the
    files were not touched yet."""
    head = json.dumps([[p, -1 if b is None else len(b)] for p, b in files]).encode()
    path = directory / f"{seq:012d}.json"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)                  # a number reused after a crash lost the sequence
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, b"".join([MAGIC, head, b"\n", *(b for _p, b in files if b is not None)]))
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(directory)
    return path


def read(path: Path) -> list[tuple[str, bytes | None]]:
    """The files of a journal file (see module doc). Raises JournalError."""
    data = path.read_bytes()
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            raise TornJournal(f"{path}: cut short")
        raise JournalError(f"{path}: not a journal file")
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        raise TornJournal(f"{path}: cut short")
    try:
        head = json.loads(data[len(MAGIC):end])
    except ValueError as e:
        raise JournalError(f"{path}: unreadable header: {e}") from None
    out, at = [], end + 1
    for rel, length in head:
        if length < 0:
            out.append((rel, None))
            continue
        out.append((rel, data[at:at + length]))
        at += length
    if at > len(data):
        raise TornJournal(f"{path}: cut short ({at - len(data)} bytes missing)")
    if at != len(data):
        raise JournalError(f"{path}: {len(data) - at} bytes more than its header says")
    return out


def apply(root: Path, files: list[tuple[str, bytes | None]], checkpoint=lambda where: None,
          durable: bool = True) -> None:
    """Make the files of a journal so under the store folder ``root``
    (``durable``: each change fsynced; else the caller keeps the journal
    until it syncs them). ``checkpoint(name)`` is called after each file
    (the crash tests' hook: ``journal_applied_record``, ``_table`` or ``_game``)."""
    for rel, data in files:
        target = root / rel
        if data is None:
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
                if durable:
                    fsync_dir(target.parent)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, data, durable)
        checkpoint("journal_applied_" + ("record" if "/phases/" in rel else "game" if rel.startswith("games/")
                                         else "table"))


def pending(directory: Path) -> list[Path]:
    """Journal files left by commits that did not finish, oldest first."""
    try:
        return sorted(p for p in directory.iterdir() if p.suffix == ".json" and p.stem.isdigit())
    except FileNotFoundError:
        return []


def replay(root: Path, paths: list[Path]) -> int:
    """Apply the journal files ``paths`` (oldest first) and remove each;
    returns how many there were. Call it only as the writer, before a commit.
    Raises JournalError for an unreadable journal (nothing after it is applied)."""
    for path in paths:
        try:
            files = read(path)
        except TornJournal:
            os.unlink(path)              # never committed: nothing was applied from it
            continue
        apply(root, files)
        os.unlink(path)
    if paths:
        fsync_dir(paths[0].parent)
    return len(paths)
