"""``judge status [--config FILE] [--data DIR] [--json]``: how the judge is
doing (:mod:`judge.status`): whether it runs, mails waiting, set aside,
unsent or failed, the last mail read and the last phase adjudicated, its
logins, the OAuth2 token, the store's size. Reads only; works while the
judge runs. Exit status 0, or 1 when a login fails or a mail failed for good
(for a monitoring script), 2 for a bad config."""

from __future__ import annotations

import json
import sys


def register(sub) -> None:
    from .common import add_data_options
    p = sub.add_parser("status", help="how the judge is doing: mails waiting, logins, last mail read, store size",
                       description="How the judge of this data folder is doing: running or not; mails "
                                   "waiting, set aside, unsent or failed; the last mail read and the last "
                                   "phase adjudicated; login failures; the store's size. Exit status 1 when "
                                   "a login fails or a mail failed for good.")
    add_data_options(p)
    p.add_argument("--json", action="store_true", help="print it as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..config import ConfigError
    from ..status import gather, report
    from ..storage import StoreError
    from .submit import config_of
    try:
        cfg = config_of(args)
        status = gather(cfg)
    except (ConfigError, StoreError) as e:
        print(f"judge status: {e}", file=sys.stderr)
        return 2
    print(json.dumps(status, indent=1, sort_keys=True) if args.json else report(status))
    failing = any(not e.get("ok", True) for e in status["logins"].values())
    return 1 if failing or status["mails"]["failed"] else 0
