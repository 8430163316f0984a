"""``judge store upgrade|status``: the judge's store folder (``DATA/store``,
:mod:`judge.storage`).

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


def run_upgrade(args) -> int:
    from ..config import ConfigError
    from ..mail.spool import Spool
    from ..storage import Store, StoreError
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
            store = Store(cfg.store_path)
            store.recover()
            counts = upgrade_v1(cfg.v1_store_path, store, Spool(cfg.spool_dir))
    except (ConfigError, StoreError, OSError) as e:
        print(f"judge store upgrade: {e}", file=sys.stderr)
        return 2
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
