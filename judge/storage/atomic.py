"""Crash-safe file writes and the TinyDB storage built on them.

A write goes to a temporary file in the same directory, is flushed and fsynced,
then renamed over the old file with :func:`os.replace` (atomic on POSIX), and the
directory is fsynced so the rename itself survives a power cut. A crash at any
point leaves either the old file or the new one, never a mix; at worst a stale
temporary file (``.NAME.*.tmp``), removed by :func:`remove_stale_temps`.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from tinydb.storages import Storage


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically and durably, keeping its
    permissions (a new file is readable by its owner only). Raises OSError; on
    error the old file is untouched and the temporary file removed."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with contextlib.suppress(FileNotFoundError):
            os.fchmod(fd, os.stat(path).st_mode & 0o7777)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_stale_temps(path: Path) -> None:
    """Remove temporary files a crashed writer of ``path`` left behind. Call it
    only while holding the writer's lock."""
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()


class AtomicJSONStorage(Storage):
    """A TinyDB storage: the whole database as one JSON file, every write
    atomic (:func:`atomic_write`). Inside :meth:`batch`, writes are kept in memory
    and made as one atomic write when the batch ends without an exception."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._batch: dict | None = None
        self._dirty = False

    def read(self) -> dict | None:
        if self._batch is not None:
            return self._batch
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        if not text.strip():
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"{self.path}: line {e.lineno} column {e.colno}: {e.msg}") from None

    def write(self, data: dict) -> None:
        if self._batch is not None:
            self._batch, self._dirty = data, True
            return
        atomic_write(self.path, _encode(data))

    @contextlib.contextmanager
    def batch(self):
        """Collect the writes made inside the ``with`` block into one atomic write
        at its end; an exception discards them all."""
        if self._batch is not None:
            raise RuntimeError("batches do not nest")
        self._batch, self._dirty = self.read() or {}, False
        try:
            yield
            if self._dirty:
                atomic_write(self.path, _encode(self._batch))
        finally:
            self._batch, self._dirty = None, False


def _encode(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
