"""``judge spool list | retry KEY | resend MESSAGE-ID...``: the judgekeeper's
view of the spool and the outbox.

- ``list``: incoming mails waiting (with their attempts), incoming mails set
  aside, outgoing mails waiting to be sent (the judge retries them), and
  outgoing mails that failed for good.
- ``retry KEY``: send a set-aside incoming mail back to the worker.
- ``resend MESSAGE-ID... | --failed``: send failed outgoing mails again.

All work while the daemon runs: they only read the store and write files in
the spool (``new/`` for a retried mail, ``resend/`` for a resend request);
the worker picks them up within a second or two (or at its next start).
"""

from __future__ import annotations

import sys


def register(sub) -> None:
    from .common import DATA_HELP
    p = sub.add_parser("spool", help="list, retry or resend mails in the spool and the outbox",
                       description="Show incoming mails waiting or set aside and outgoing mails not "
                                   "sent; send a set-aside mail back for another try; send a failed "
                                   "outgoing mail again.")
    p.add_argument("--config", metavar="FILE", help="TOML config (default: the embedded default)")
    p.add_argument("--data", metavar="DIR", help=DATA_HELP)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="list waiting and set-aside mails, and outgoing mails pending or failed")
    r = actions.add_parser("retry", help="send a set-aside incoming mail back to the worker")
    r.add_argument("key", metavar="KEY", help="its Message-ID (ledger key) or file name, as `list` shows")
    s = actions.add_parser("resend", help="send failed outgoing mails again",
                           description="Send outgoing mails that failed for good (see `judge spool list`) "
                                       "again, with the same Message-ID; their attempts start from 0.")
    s.add_argument("ids", nargs="*", metavar="MESSAGE-ID", help="as `list` shows it (<> optional)")
    s.add_argument("--failed", action="store_true", help="every outgoing mail that failed")
    p.set_defaults(func=run)


def fail(message: str, status: int = 1) -> int:
    print(f"judge spool: {message}", file=sys.stderr)
    return status


def run(args) -> int:
    from pathlib import Path

    from ..config import ConfigError, load_config
    from ..mail.spool import Spool
    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        return fail(str(e), 2)
    if args.data:
        cfg.judge.data_dir = str(Path(args.data).resolve())
    if not cfg.spool_dir.is_dir():
        return fail(f"no spool at {cfg.spool_dir} (the judge has not run with this data folder)")
    spool = Spool(cfg.spool_dir)
    outbox = {}
    if cfg.store_path.exists():
        from ..storage import Store
        outbox = Store(cfg.store_path).all("outbox")
    if args.action == "retry":
        try:
            entry = spool.retry(args.key)
        except KeyError:
            return fail(f"no set-aside mail with key or name {args.key!r} (see `judge spool list`)")
        print(f"sent back for another try: {entry.key} ({entry.name})")
        return 0
    if args.action == "resend":
        return _resend(spool, outbox, args)
    _list(spool, outbox)
    return 0


def _resend(spool, outbox: dict, args) -> int:
    failed = {mid for mid, row in outbox.items() if row.get("status") == "failed"}
    ids = sorted(failed) if args.failed else []
    status = 0
    for text in args.ids:
        mid = text.strip()
        mid = mid if mid.startswith("<") else f"<{mid.strip('<>')}>"
        row = outbox.get(mid)
        if row is None:
            status = fail(f"no outgoing mail {mid} (see `judge spool list`)")
        elif row.get("status") != "failed":
            status = fail(f"{mid} has not failed: it is {row.get('status')} (the judge keeps trying "
                           f"pending mails by itself)")
        else:
            ids.append(mid)
    if not ids and not args.ids:
        return fail("name a MESSAGE-ID, or --failed" if not args.failed else "no outgoing mail has failed")
    for mid in dict.fromkeys(ids):
        spool.request_resend(mid)
        print(f"to send again: {mid} to {', '.join(outbox[mid]['to'])}")
    if ids:
        print("a running judge sends them within a few seconds, else it does at its next start")
    return status


def _list(spool, outbox: dict) -> None:
    waiting = spool.pending()
    print(f"incoming, waiting ({len(waiting)}):")
    for name in waiting:
        try:
            meta = spool.read(name).meta
        except (OSError, ValueError) as e:
            print(f"  {name}  unreadable: {e}")
            continue
        print(f"  {meta['key']}  {meta.get('source', '?')}  received {meta.get('received', '?')}"
              f"  attempts {meta.get('attempts', 0)}" + (f": {meta['error']}" if meta.get("error") else ""))
    shunted = spool.shunted()
    print(f"incoming, set aside ({len(shunted)}) -- `judge spool retry KEY` sends one back:")
    for info in shunted:
        print(f"  {info.get('key')}  {info['name']}  attempts {info.get('attempts', 0)}: {info.get('reason', '')}")
        print(f"      bytes: {info['path']}")
    requested = {mid for _path, mid in spool.resend_requests()}
    for status, title in (("pending", "outgoing, waiting to be sent (the judge retries them)"),
                          ("failed", "outgoing, failed for good -- `judge spool resend MESSAGE-ID` "
                                     "sends one again")):
        rows = sorted(((mid, row) for mid, row in outbox.items() if row.get("status") == status),
                      key=lambda x: (x[1].get("created", ""), x[0]))
        print(f"{title} ({len(rows)}):")
        for mid, row in rows:
            print(f"  {mid}  to {', '.join(row['to'])}  {row.get('subject', '')!r}  created "
                  f"{row.get('created', '?')}  attempts {row.get('attempts', 0)}"
                  + (f": {row['error']}" if row.get("error") else "")
                  + ("  (resend requested)" if mid in requested else ""))
