"""How a ``judge game ...`` command gets its change made: by the one writer.

The command writes its work item (:mod:`judge.mail.keeper`) into the spool
like a mail (durable before anything else happens), then:

- if ``judge serve`` owns the data folder (:mod:`judge.storage.owner`), it
  waits for the judge's worker to do it: the answer appears in the ledger
  under the item's key, and the mails the change calls for go out with the
  judge's other mail at once;
- if no judge runs, it owns the folder for a moment and does the work
  itself with the same worker code, on the same commit path; the mails wait
  in the outbox and go out when the judge starts;
- if the judge stops before doing it, the command takes the folder and does
  it itself; if another command holds the folder, it waits its turn.

Nothing is written twice: the item's key is its ledger key.
"""

from __future__ import annotations

import json
import sys
import time
import uuid

from ..storage.owner import claim, holder

WAIT_SECONDS = 120.0
"""How long a command waits for a running judge before it gives up (its work stays queued)."""

MAKES_GAMES = frozenset({"new", "archive import", "game arrive"})
"""Actions that may start a data folder: the others need a store already."""


def run_command(args, action: str, extra: dict | None = None, prog: str = "judge game") -> int:
    """Run ``action`` (a verb's command-line name, :mod:`judge.mail.keeper`) with the command-line
    options ``args`` (plus ``extra`` params) through the one writer; print
    its answer (errors after ``prog:``); return its exit status."""
    from ..config import ConfigError
    from ..storage import StoreError
    params = {k: v for k, v in vars(args).items() if k not in ("func", "data", "config") and _plain(v)}
    params.update(extra or {})
    work = {"action": action, "params": params, "argv": sys.argv[1:]}
    try:
        cfg = config_of(args)
        if action not in MAKES_GAMES and not cfg.store_path.is_dir() and not cfg.v1_store_path.is_file():
            result = {"status": 2, "out": "", "err": f"no judge data in {cfg.data_dir} (give the judge's "
                                                       f"--config FILE or --data DIR); nothing was made there"}
        else:
            result = submit(cfg, work)
    except (ConfigError, StoreError, OSError) as e:
        result = {"status": 2, "out": "", "err": str(e)}
    if result.get("out"):
        out = result["out"]
        print(out, end="" if out.endswith("\n") else "\n")
    if result.get("err"):
        print(f"{prog}: {result['err']}", file=sys.stderr)
    return int(result.get("status", 2))


def config_of(args):
    """The judge's config for ``--config``/``--data`` (see :func:`judge.config.load_config`)."""
    from pathlib import Path

    from ..config import load_config
    cfg = load_config(getattr(args, "config", None))
    if getattr(args, "data", None):
        cfg.judge.data_dir = str(Path(args.data).resolve())
    return cfg


def submit(cfg, work: dict) -> dict:
    """Have the writer do ``work``; its result ``{"status", "out", "err"}``."""
    from ..mail.spool import Spool
    data = cfg.data_dir
    key = f"cli:{uuid.uuid4().hex}"
    spool = Spool(cfg.spool_dir)
    entry = spool.put(json.dumps(work, ensure_ascii=False).encode("utf-8"), {"source": "cli", "key": key})
    deadline = time.monotonic() + WAIT_SECONDS
    store = None
    while time.monotonic() < deadline:
        mine = claim(data, "command", wait=0.0)
        if mine is not None:
            with mine:
                return _do_it_here(cfg, entry.name, key)
        if holder(data).get("role") == "serve":
            if store is None:
                from ..storage import Store
                store = Store(cfg.store_path)
            row = store.get("ledger", key)
            if row is not None and "result" in row:
                return row["result"]
        time.sleep(0.02)
    return {"status": 3, "out": "", "err": f"the judge has not done it within {WAIT_SECONDS:.0f} s; "
                                            f"it stays queued (spool entry {entry.name})"}


def _do_it_here(cfg, name: str, key: str) -> dict:
    """No judge runs: do the work with the judge's own worker, in this process."""
    from ..daemon import offline_worker
    worker = offline_worker(cfg)
    row = worker.store.get("ledger", key)
    if row is None and name in worker.spool.pending():
        worker.process(name)
        row = worker.store.get("ledger", key)
    if row is None or "result" not in row:
        return {"status": 2, "out": "", "err": "the command could not be done (see the judge's log)"}
    return row["result"]


def _plain(value) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
