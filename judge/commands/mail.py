"""``judge mail authorize --config FILE``: the keeper's mail tools.

``authorize`` signs the judge in to its mail provider with OAuth2 and keeps
the refresh token in the data folder (:mod:`judge.mail.authorize`): run it
once after setting ``auth = "oauth2"``, and again whenever the judge mails
that its authorisation failed.
"""

from __future__ import annotations

import sys


def register(sub) -> None:
    from .common import add_data_options
    p = sub.add_parser("mail", help="the judge's mail account: authorize (OAuth2)",
                       description="The judge's mail account.")
    actions = p.add_subparsers(dest="mail_command", metavar="ACTION", required=True)
    a = actions.add_parser("authorize", help="sign the judge in to Gmail or Microsoft (OAuth2), keep its token",
                           description="Sign the judge in to its provider with OAuth2 (Microsoft: a code to "
                                       "enter at an address; Gmail: an address to open) and keep the refresh "
                                       "token in the data folder (oauth2/token.json, mode 0600), never in the "
                                       "config. A running judge uses it at its next login attempt.")
    add_data_options(a)
    a.add_argument("--refresh-token-stdin", action="store_true",
                   help="read a refresh token got elsewhere from standard input (a provider of your own)")
    a.add_argument("--port", type=int, default=0, metavar="N",
                   help="Gmail: the loopback port the browser is sent back to (default: any free one; "
                        "fix it to forward it with ssh -L N:127.0.0.1:N)")
    a.set_defaults(func=run_authorize)


def run_authorize(args) -> int:
    from ..config import ConfigError
    from ..mail.authorize import AuthorizeError, authorize
    from .submit import config_of
    try:
        cfg = config_of(args)
        token = sys.stdin.readline() if args.refresh_token_stdin else None
        doc = authorize(cfg, out=lambda line: print(line, flush=True), stdin=sys.stdin, refresh_token=token,
                        port=args.port)
    except ConfigError as e:
        print(f"judge mail authorize: {e}", file=sys.stderr)
        return 2
    except AuthorizeError as e:
        print(f"judge mail authorize: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("judge mail authorize: stopped; nothing was kept", file=sys.stderr)
        return 1
    print(f"judge mail authorize: the refresh token for {doc['username']} is kept in {cfg.token_path} "
          f"(mode 0600) and works; `judge check --config {cfg.source}` tries the logins, and a running "
          f"judge uses it at its next login attempt")
    return 0
