"""Who owns a data folder: the one process that may change its store.

``judge serve`` owns it for as long as it runs; a ``judge game ...``
command owns it for the moment it takes when no judge runs (it then does its
work itself, with the judge's own code: :mod:`judge.commands.submit`). The
owner holds an exclusive ``flock`` on ``DATA/owner.lock``, released by the
kernel when the process ends however it ends; the file says who holds it
(``{"role": "serve"|"command", "pid": N}``), so a command that finds the
folder owned knows whether to hand its work to the running judge or to
wait its turn.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

LOCK_NAME = "owner.lock"


@dataclass
class Claim:
    """A held claim on a data folder; :meth:`release` (or the end of the process) gives it up."""

    path: Path
    fd: int
    role: str

    def release(self) -> None:
        if self.fd >= 0:
            try:
                os.ftruncate(self.fd, 0)
            except OSError:
                pass
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> "Claim":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def claim(data_dir: Path, role: str, wait: float = 0.0) -> Claim | None:
    """Take the data folder for ``role`` (``"serve"`` or ``"command"``),
    waiting up to ``wait`` seconds; None if another process holds it still
    (:func:`holder` says who). Raises OSError if the lock file cannot be made."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                return None
            time.sleep(0.05)
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps({"role": role, "pid": os.getpid()}).encode(), 0)
    return Claim(path, fd, role)


def holder(data_dir: Path) -> dict:
    """``{"role", "pid"}`` of the process holding the data folder as last
    written in the lock file (``{}`` if none is known)."""
    try:
        info = json.loads((data_dir / LOCK_NAME).read_text() or "{}")
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}
