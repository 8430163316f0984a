"""``judge store upgrade|status|backup|restore``: the judge's store folder
(``DATA/store``, :mod:`judge.storage`).

``backup DEST`` writes a consistent copy of the store and the mails not yet
in it, while the judge runs (taken by the one writer between two commits,
:mod:`judge.storage.backup`), as a tar archive; ``restore ARCHIVE`` puts one
back into a data folder whose judge is stopped.

``upgrade`` converts the one-file store of an earlier release
(``DATA/judge.json``) into the store folder with nothing lost
(:mod:`judge.storage.upgrade`); ``judge serve`` does the same at its start,
so this is for a judgekeeper who wants it done (and checked) first. It also
finishes a commit a crash interrupted. ``status`` says what the store holds.
"""

from __future__ import annotations

import argparse
import sys


def register(sub) -> None:
    from .common import add_data_options
    common = argparse.ArgumentParser(add_help=False)
    add_data_options(common)
    p = sub.add_parser("store", help="upgrade or inspect the judge's store",
                       description="The store folder of the data folder: upgrade a one-file store "
                                   "(judge.json) of an earlier release, or show what it holds.")
    ssub = p.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    u = ssub.add_parser("upgrade", parents=[common], help="convert DATA/judge.json into DATA/store",
                        description="Convert the one-file store of an earlier release into the store "
                                    "folder (every game with its history, GM records, accounts, ledger, "
                                    "outgoing mail and pending notices); judge serve does it at its start too.")
    u.set_defaults(func=run_upgrade)
    s = ssub.add_parser("status", parents=[common], help="games (running, finished) and mail waiting",
                        description="How many games the store holds, running and finished, and the "
                                    "mails waiting in the outbox.")
    s.set_defaults(func=run_status)
    b = ssub.add_parser("backup", parents=[common], help="a consistent copy of the store, while the judge runs",
                        description="Write the store and the mails not yet in it to DEST (a .tar.gz archive; a "
                                    "folder: a file judge-backup-TIME.tar.gz in it), taken by the judge's "
                                    "writer between two commits while it runs (or by this command when it "
                                    "does not). Not in it: the OAuth2 token, the Maildir outbox, the logs.")
    b.add_argument("dest", metavar="DEST", help="the archive to write (.tar.gz, or .tar), or an existing folder")
    b.set_defaults(func=run_backup)
    r = ssub.add_parser("restore", parents=[common], help="put a backup back (the judge stopped)",
                        description="Put the store of a backup archive in place of the data folder's (which "
                                    "is moved aside to store.before-restore-TIME, never deleted); the "
                                    "backup's waiting mails join the spool. Stop the judge first; at its "
                                    "next start it goes on from the backup.")
    r.add_argument("archive", metavar="ARCHIVE", help="a file `judge store backup` wrote")
    r.set_defaults(func=run_restore)


def run_upgrade(args) -> int:
    from ..config import ConfigError
    from ..mail.spool import Spool
    from ..storage import Store, StoreError, layout
    from ..storage.owner import claim, holder
    from ..storage.upgrade import upgrade_v1
    from .submit import config_of
    try:
        cfg = config_of(args)
        mine = claim(cfg.data_dir, "command", wait=30.0)
        if mine is None:
            role = holder(cfg.data_dir).get("role")
            print(f"judge store upgrade: {cfg.data_dir} is in use by "
                  f"{'a running judge serve (it upgraded the store at its start)' if role == 'serve' else 'another process'}",
                  file=sys.stderr)
            return 1
        with mine:
            version = cfg.store_path / "VERSION"
            before = version.read_text().strip() if version.is_file() else None
            store = Store(cfg.store_path)            # a store of an earlier layout is converted here
            store.recover()
            if before not in (None, layout.VERSION):
                print(f"judge store upgrade: {cfg.store_path}: store layout {before} -> {layout.VERSION}")
            counts = upgrade_v1(cfg.v1_store_path, store, Spool(cfg.spool_dir))
    except (ConfigError, StoreError, OSError) as e:
        print(f"judge store upgrade: {e}", file=sys.stderr)
        return 2
    if counts is None and before not in (None, layout.VERSION):
        return 0
    if counts is None:
        print(f"judge store upgrade: nothing to upgrade in {cfg.data_dir} (no judge.json there)")
        return 0
    print(f"judge store upgrade: {cfg.v1_store_path} -> {cfg.store_path}: "
          + ", ".join(f"{n} {t}" for t, n in sorted(counts.items()))
          + f"; the old file is kept as {cfg.v1_store_path.name}.v1-upgraded")
    return 0


def run_status(args) -> int:
    from ..storage import StoreError
    from .common import open_store
    try:
        store = open_store(args)
        catalogue = store.all("catalogue")
        outbox = store.all("outbox")
    except StoreError as e:
        print(f"judge store status: {e}", file=sys.stderr)
        return 2
    by_status: dict[str, int] = {}
    for row in catalogue.values():
        by_status[row.get("status", "?")] = by_status.get(row.get("status", "?"), 0) + 1
    pending = sum(1 for r in outbox.values() if r.get("status") == "pending")
    failed = sum(1 for r in outbox.values() if r.get("status") == "failed")
    print(f"store {store.root}: {len(catalogue)} game(s)"
          + "".join(f", {n} {s}" for s, n in sorted(by_status.items()))
          + f"; outbox: {pending} waiting, {failed} failed; {len(store.all('wakeups'))} game(s) with a next event")
    return 0


def run_backup(args) -> int:
    import json
    import shutil
    import time
    from pathlib import Path

    from ..config import ConfigError
    from ..storage import StoreError
    from ..storage.backup import pack
    from .submit import config_of, submit
    try:
        cfg = config_of(args)
        if not cfg.store_path.is_dir():
            print(f"judge store backup: no store in {cfg.data_dir} (give the judge's --config FILE or --data DIR)",
                  file=sys.stderr)
            return 2
        dest = Path(args.dest)
        if dest.is_dir():
            dest = dest / f"judge-backup-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.tar.gz"
        if dest.exists():
            print(f"judge store backup: {dest} exists; name a new file or a folder", file=sys.stderr)
            return 2
        result = submit(cfg, {"action": "store backup", "params": {}, "argv": sys.argv[1:]})
        if result.get("status") != 0:
            print(f"judge store backup: {result.get('err') or 'the judge did not take the snapshot'}",
                  file=sys.stderr)
            return 2
        made = json.loads(result["out"])
        try:
            size = pack(Path(made["path"]), dest)
        finally:
            shutil.rmtree(made["path"], ignore_errors=True)
    except (ConfigError, StoreError, OSError) as e:
        print(f"judge store backup: {e}", file=sys.stderr)
        return 2
    print(f"judge store backup: {dest}: {made['games']} game(s), {made['files']} store file(s) as of commit "
          f"{made['seq']}, {made['waiting']} mail(s) waiting, {made['set_aside']} set aside; {size / 1e6:.1f} MB")
    return 0


def run_restore(args) -> int:
    from pathlib import Path

    from ..config import ConfigError
    from ..status import serving
    from ..storage.backup import BackupError, read_manifest, restore
    from ..storage.owner import claim, holder
    from .submit import config_of
    try:
        cfg = config_of(args)
        manifest = read_manifest(Path(args.archive))
        mine = None if serving(cfg.data_dir) else claim(cfg.data_dir, "command", wait=10.0)
        if mine is None:
            role = holder(cfg.data_dir).get("role")
            print(f"judge store restore: {cfg.data_dir} is in use by "
                  f"{'a running judge serve: stop it first (systemctl stop judge)' if role == 'serve' else 'another process'}",
                  file=sys.stderr)
            return 1
        with mine:
            done = restore(Path(args.archive), cfg.data_dir)
    except (ConfigError, BackupError, OSError) as e:
        print(f"judge store restore: {e}", file=sys.stderr)
        return 2
    print(f"judge store restore: {cfg.store_path} is now the store of {args.archive} (made {manifest['created']}, "
          f"{manifest['games']} game(s))" + (f"; the one it replaces is kept as {done['aside']}" if done["aside"] else "")
          + f"; {done['added']} mail(s) from the backup wait in the spool. Start the judge: it goes on from there"
          + (" (run `judge mail authorize` first on a new machine: the OAuth2 token is not in backups)"
             if cfg.uses_oauth2 and not cfg.token_path.exists() else "") + ".")
    return 0
