"""Backups of a data folder, consistent while the judge runs (issue 21).

``judge store backup DEST`` hands the work item ``store backup`` to the one
writer like any ``judge game`` command (:mod:`judge.commands.submit`): the
running judge's worker — or, with no judge running, the command itself as
the writer — takes :func:`snapshot` between two commits, so the copy is
the store as one commit left it. The snapshot is quick whatever the
store's size: every store file is replaced, never changed in place (a
commit writes new files and renames them over the old,
:func:`judge.storage.atomic.atomic_write`), so a hard link to each file is
a copy of it as of now; only ``seq`` (written in place) is copied. The
mails the store does not hold yet go with it: the spool's waiting entries
(a restored judge processes them; the ledger skips those it has) and the
set-aside ones. The command then packs the snapshot into a tar archive at
its leisure (:func:`pack`) and removes it.

Not in a backup: the journal (between commits it holds only commits already
applied), the locks, the Maildir outbox (mail handed on), the OAuth2 token
(a secret: ``judge mail authorize`` again after a restore on a new machine)
and the health file.

Archive layout: ``judge-backup/MANIFEST.json`` (``format``, ``judge``
version, ``created``, ``store_version``, ``seq``, ``games``, ``waiting``,
``set_aside``, ``address``), ``judge-backup/store/…``,
``judge-backup/spool/new/…``, ``judge-backup/spool/shunt/…``.
:func:`restore` unpacks one into a data folder whose judge is stopped.
"""

from __future__ import annotations

import json
import os
import shutil
import tarfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

from . import layout
from .ledger import FILE as LEDGER_FILE, Ledger

FORMAT = 1
TOP = "judge-backup"
SNAPSHOTS = "backups"
"""The folder of the data folder where snapshots wait to be packed."""
STALE_SECONDS = 86400.0
_SKIP_STORE = {"journal", "writer.lock", "seq", LEDGER_FILE, LEDGER_FILE + "-wal", LEDGER_FILE + "-shm"}


class BackupError(Exception):
    """A backup or a restore cannot be made; the message says why."""


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:                     # another file system, or links not allowed: copy
        shutil.copy2(src, dst)


def snapshot(data_dir: Path, store_root: Path, spool_dir: Path, identity: dict | None = None) -> dict:
    """Take the snapshot (see module doc) into ``data_dir/backups/NAME``, as
    the writer, between two commits; its manifest, with ``path``. Raises
    OSError."""
    folder = Path(data_dir) / SNAPSHOTS
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():        # left by a backup command that died
        if old.is_dir() and time.time() - old.stat().st_mtime > STALE_SECONDS:
            shutil.rmtree(old, ignore_errors=True)
    path = folder / f"snap-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{uuid.uuid4().hex[:8]}"
    top = path / TOP
    store = top / "store"
    store.mkdir(parents=True)
    files = 0
    for root, dirs, names in os.walk(store_root):
        rel = Path(root).relative_to(store_root)
        if rel == Path("."):
            dirs[:] = [d for d in dirs if d not in _SKIP_STORE]
        (store / rel).mkdir(exist_ok=True)
        for name in names:
            if (rel == Path(".") and name in _SKIP_STORE) or (name.startswith(".") and name.endswith(".tmp")):
                continue
            _link_or_copy(Path(root) / name, store / rel / name)
            files += 1
    (store / "journal").mkdir(exist_ok=True)
    ledger = Ledger(store_root)
    try:
        ledger.backup(store / LEDGER_FILE)
    finally:
        ledger.close()
    seq = (Path(store_root) / "seq")
    seq_text = seq.read_text().strip() if seq.exists() else ""
    if seq_text:
        (store / "seq").write_text(seq_text.rjust(20))
    waiting = set_aside = 0
    for part in ("new", "shunt"):
        src = Path(spool_dir) / part
        dst = top / "spool" / part
        dst.mkdir(parents=True)
        for entry in sorted(src.iterdir()) if src.is_dir() else ():
            if part == "new":
                if entry.suffix != ".msg" or _is_backup_item(entry):
                    continue
                shutil.copy2(entry, dst / entry.name)      # entries are rewritten in place: copied
                waiting += 1
            else:
                _link_or_copy(entry, dst / entry.name)
                set_aside += entry.suffix == ".eml"
    manifest = {"format": FORMAT, "judge": _version(), "created": _now(), "store_version": layout.VERSION,
                "seq": int(seq_text) if seq_text.isdigit() else 0, "games": len(layout.game_names(store)),
                "files": files, "waiting": waiting, "set_aside": set_aside,
                "address": (identity or {}).get("address", "")}
    (top / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    return dict(manifest, path=str(path))


def _is_backup_item(entry: Path) -> bool:
    """Is the spool entry a ``store backup`` work item (not kept in a backup)?"""
    with open(entry, "rb") as f:
        head = f.readline()
        if b'"source": "cli"' not in head:
            return False
        try:
            return json.loads(f.read()).get("action") == "store backup"
        except ValueError:
            return False


def _version() -> str:
    from .. import __version__
    return __version__


def pack(snapshot_path: Path, dest: Path) -> int:
    """Write the snapshot at ``snapshot_path`` as a tar archive ``dest``
    (gzip unless its name ends in ``.tar``), durably (a temp file, fsynced,
    renamed); its size in bytes. Raises OSError."""
    dest = Path(dest)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    mode = "w" if dest.name.endswith(".tar") else "w:gz"
    try:
        with tarfile.open(tmp, mode) as tar:
            tar.add(Path(snapshot_path) / TOP, arcname=TOP)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return dest.stat().st_size


def read_manifest(archive: Path) -> dict:
    """The manifest of a backup archive. Raises BackupError."""
    try:
        with tarfile.open(archive) as tar:
            member = tar.extractfile(f"{TOP}/MANIFEST.json")
            manifest = json.loads(member.read().decode("utf-8")) if member else None
    except (OSError, tarfile.TarError, KeyError, ValueError) as e:
        raise BackupError(f"{archive} is not a judge backup: {e}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{archive}: a backup of format {manifest.get('format') if manifest else '?'}; "
                          f"this judge reads format {FORMAT}")
    if manifest.get("store_version") != layout.VERSION:
        raise BackupError(f"{archive} holds a store of layout {manifest.get('store_version')!r}; this judge "
                          f"reads {layout.VERSION!r} (restore it with the judge release that made it, then upgrade)")
    return manifest


def _extract(tar: tarfile.TarFile, folder: Path, members: list[tarfile.TarInfo]) -> None:
    """Unpack ``members`` into ``folder`` with tarfile's ``data`` filter; on a
    Python without extraction filters (3.11 before 3.11.4: Debian 12's
    3.11.2) only plain files and folders inside ``folder`` are unpacked, and
    BackupError names any other member (what that filter refuses)."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(folder, members=members, filter="data")
        return
    for m in members:
        if not (m.isfile() or m.isdir()) or m.name.startswith("/") or ".." in m.name.split("/"):
            raise BackupError(f"{tar.name}: member {m.name!r} is not a plain file or folder inside the backup")
    tar.extractall(folder, members=members)


def restore(archive: Path, data_dir: Path) -> dict:
    """Unpack the backup ``archive`` into ``data_dir`` (whose judge is
    stopped: the caller holds the folder). Its ``store`` is moved aside
    first (``store.before-restore-STAMP``, never deleted) and the backup's
    takes its place; the backup's waiting and set-aside mails join the
    spool's (a mail that came after the backup stays: the restored judge
    answers it). The manifest, with ``aside`` (the old store's new name, or
    None) and ``added`` (spool entries added). Raises BackupError, OSError."""
    manifest = read_manifest(archive)
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    work = data_dir / f".restore-{uuid.uuid4().hex[:8]}"
    work.mkdir()
    try:
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.name == TOP or m.name.startswith(TOP + "/")]
            _extract(tar, work, members)
        top = work / TOP
        if not (top / "store" / "VERSION").is_file():
            raise BackupError(f"{archive} holds no store")
        added = 0
        for part in ("new", "shunt"):
            have = data_dir / "spool" / part
            have.mkdir(parents=True, exist_ok=True)
            for entry in sorted((top / "spool" / part).iterdir()):
                if not (have / entry.name).exists():
                    os.rename(entry, have / entry.name)
                    added += part == "new"
        aside = None
        if (data_dir / "store").exists():
            aside = data_dir / f"store.before-restore-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
            os.rename(data_dir / "store", aside)
        os.rename(top / "store", data_dir / "store")
    except tarfile.TarError as e:
        raise BackupError(f"{archive}: {e}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return dict(manifest, aside=str(aside) if aside else None, added=added)
