"""``judge serve [--config FILE] [--data DIR] [--host H] [--port N]``: run the
mail judge until SIGTERM/SIGINT.

The options override the config: ``--data`` its ``[judge] data_dir``,
``--host``/``--port`` its ``[inbound.smtp]`` listener. A port in use stops the
start at once, naming the port and the setting to change.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("serve", help="run the mail judge (embedded SMTP on 127.0.0.1:2525 by default)",
                       description="Run the mail judge. Without --config it listens for SMTP on "
                                   "127.0.0.1:2525 and writes replies to the Maildir judge-data/outbox. "
                                   "Before it takes any work it logs in to each IMAP and SMTP server of the "
                                   "config and stops (exit status 1) naming the server, its answer and what "
                                   "to change if one refuses; `judge check` does the same without starting.")
    p.add_argument("--config", metavar="FILE", help="TOML config (see config/judge.example.toml)")
    p.add_argument("--data", metavar="DIR",
                   help="data folder: store, spool, outbox (default: [judge] data_dir of the "
                        "config, else $JUDGE_DATA, else ./judge-data; `judge game`, `web`, `archive`, "
                        "`parse`, `spool` use the same)")
    p.add_argument("--host", help="address of the embedded SMTP listener (overrides [inbound.smtp] host)")
    p.add_argument("--port", type=int, metavar="N",
                   help="port of the embedded SMTP listener (overrides [inbound.smtp] port; 0: any free port)")
    p.set_defaults(func=run)


def _banner(cfg) -> str:
    lines = [f"judge: serving {cfg.judge.address} (config: {cfg.source})"]
    if cfg.inbound.transport == "smtp":
        s = cfg.inbound.smtp
        lines += [f"  send mail by SMTP to {s.host}:{s.port}, for example:",
                  f"    python3 -c \"import smtplib; from email.message import EmailMessage as M; "
                  f"from email.utils import formatdate, make_msgid; "
                  f"m=M(); m['From']='you@example.org'; m['To']='{cfg.judge.address}'; "
                  f"m['Subject']='help'; m['Date']=formatdate(); m['Message-ID']=make_msgid(); m.set_content('HELP'); "
                  f"smtplib.SMTP('{s.host}', {s.port}).send_message(m)\"",
                  "  (each mail needs a new Message-ID: a mail the judge has processed already is ignored)"]
    else:
        i = cfg.inbound.imap
        lines.append(f"  reading mail from IMAP {i.username}@{i.host}:{i.port} folder {i.folder}")
    if cfg.outbound.transport == "maildir":
        out = cfg.data_path(cfg.outbound.maildir.path)
        lines.append(f"  replies land in the Maildir {out} (one file per mail in {out / 'new'})")
    else:
        o = cfg.outbound.smtp
        lines.append(f"  replies are sent through SMTP {o.host}:{o.port} ({o.security})")
    lines.append(f"  spool and store: {cfg.data_dir}; stop with Ctrl-C")
    return "\n".join(lines)


def _overrides(cfg, args) -> str | None:
    """Apply --data/--host/--port to ``cfg``; the problem, if any."""
    if args.data:
        cfg.judge.data_dir = str(Path(args.data).resolve())
    if args.host is not None or args.port is not None:
        if cfg.inbound.transport != "smtp":
            return "--host and --port set the embedded SMTP listener; this config reads mail by IMAP"
        if args.port is not None and not 0 <= args.port <= 65535:
            return f"--port {args.port}: a port is 0 to 65535"
        if args.host is not None:
            cfg.inbound.smtp.host = args.host
        if args.port is not None:
            cfg.inbound.smtp.port = args.port
    return None


def run(args) -> int:
    from ..config import ConfigError, load_config
    try:
        cfg = load_config(args.config)
        problem = _overrides(cfg, args)
        if problem:
            print(f"judge serve: {problem}", file=sys.stderr)
            return 2
        logging.basicConfig(level=cfg.log.level, filename=cfg.log.file or None,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        logging.getLogger("mail.log").setLevel(logging.WARNING)   # aiosmtpd's per-command chatter
        logging.getLogger("imapclient").setLevel(logging.WARNING)  # "Connection closed" after each logout
        from ..daemon import Daemon, StartError
        daemon = Daemon(cfg)
    except ConfigError as e:
        print(f"judge serve: {e}", file=sys.stderr)
        return 2
    try:
        daemon.run_forever(on_started=lambda: print(_banner(cfg), flush=True))
    except StartError as e:
        if cfg.log.file:                         # else the log is standard error already
            logging.getLogger("judge.daemon").error("%s", e)
        print(f"judge serve: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"judge serve: {e}", file=sys.stderr)
        return 1
    return 0
