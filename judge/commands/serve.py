"""``judge serve [--config FILE]``: run the mail judge until SIGTERM/SIGINT."""

from __future__ import annotations

import logging
import sys


def register(sub) -> None:
    p = sub.add_parser("serve", help="run the mail judge (embedded SMTP on 127.0.0.1:2525 by default)",
                       description="Run the mail judge. Without --config it listens for SMTP on "
                                   "127.0.0.1:2525 and writes replies to the Maildir judge-data/outbox.")
    p.add_argument("--config", metavar="FILE", help="TOML config (see config/judge.example.toml)")
    p.set_defaults(func=run)


def _banner(cfg) -> str:
    lines = [f"judge: serving {cfg.judge.address} (config: {cfg.source})"]
    if cfg.inbound.transport == "smtp":
        s = cfg.inbound.smtp
        lines += [f"  send mail by SMTP to {s.host}:{s.port}, for example:",
                  f"    python3 -c \"import smtplib; from email.message import EmailMessage as M; "
                  f"m=M(); m['From']='you@example.org'; m['To']='{cfg.judge.address}'; "
                  f"m['Subject']='help'; m.set_content('HELP'); "
                  f"smtplib.SMTP('{s.host}', {s.port}).send_message(m)\""]
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


def run(args) -> int:
    from ..config import ConfigError, load_config
    try:
        cfg = load_config(args.config)
        logging.basicConfig(level=cfg.log.level, filename=cfg.log.file or None,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        logging.getLogger("mail.log").setLevel(logging.WARNING)   # aiosmtpd's per-command chatter
        from ..daemon import Daemon
        daemon = Daemon(cfg)
    except ConfigError as e:
        print(f"judge serve: {e}", file=sys.stderr)
        return 2
    try:
        daemon.run_forever(on_started=lambda: print(_banner(cfg), flush=True))
    except OSError as e:        # e.g. the port is taken
        print(f"judge serve: {e}", file=sys.stderr)
        return 1
    return 0
