"""``judge spool list`` / ``judge spool retry KEY``: the judgekeeper's view of the spool.

Both work while the daemon runs: they only read the store and move files in
the spool (the worker picks a retried entry up within a second or two).
"""

from __future__ import annotations

import sys


def register(sub) -> None:
    p = sub.add_parser("spool", help="list or retry mails in the spool",
                       description="Show mails waiting or set aside, and outgoing mails not sent; "
                                   "send a set-aside mail back for another try.")
    p.add_argument("--config", metavar="FILE", help="TOML config (default: the embedded default)")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="list waiting and set-aside mails and unsent replies")
    r = actions.add_parser("retry", help="send a set-aside mail back to the worker")
    r.add_argument("key", metavar="KEY", help="its Message-ID (ledger key) or file name, as `list` shows")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..config import ConfigError, load_config
    from ..mail.spool import Spool
    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"judge spool: {e}", file=sys.stderr)
        return 2
    if not cfg.spool_dir.is_dir():
        print(f"judge spool: no spool at {cfg.spool_dir} (the judge has not run with this config)",
              file=sys.stderr)
        return 1
    spool = Spool(cfg.spool_dir)
    if args.action == "retry":
        try:
            entry = spool.retry(args.key)
        except KeyError:
            print(f"judge spool: no set-aside mail with key or name {args.key!r} "
                  f"(see `judge spool list`)", file=sys.stderr)
            return 1
        print(f"sent back for another try: {entry.key} ({entry.name})")
        return 0
    waiting = spool.pending()
    print(f"waiting ({len(waiting)}):")
    for name in waiting:
        try:
            meta = spool.read(name).meta
        except (OSError, ValueError) as e:
            print(f"  {name}  unreadable: {e}")
            continue
        print(f"  {meta['key']}  {meta.get('source', '?')}  received {meta.get('received', '?')}"
              f"  attempts {meta.get('attempts', 0)}")
    shunted = spool.shunted()
    print(f"set aside ({len(shunted)}):")
    for info in shunted:
        print(f"  {info.get('key')}  {info['name']}  attempts {info.get('attempts', 0)}: {info.get('reason', '')}")
        print(f"      bytes: {info['path']}")
    unsent = []
    if cfg.store_path.exists():
        from ..storage import Store
        unsent = [(mid, row) for mid, row in Store(cfg.store_path).all("outbox").items()
                  if row.get("status") in ("pending", "failed")]
    print(f"outgoing not sent ({len(unsent)}):")
    for mid, row in sorted(unsent, key=lambda x: x[1].get("created", "")):
        print(f"  {mid}  {row['status']}  to {', '.join(row['to'])}  attempts {row.get('attempts', 0)}"
              + (f": {row['error']}" if row.get("error") else ""))
    return 0
