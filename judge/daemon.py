"""The composition root: config -> store, spool, transports, worker, sender,
scheduler.

Threads: the inbound transport (aiosmtpd's loop, or the IMAP reader), the
worker (the only writer of the store), the sender and the scheduler (its jobs
only hand deadline work to the worker). Start order: leftover temp files are
cleaned and the SMTP listener binds its port (a port in use stops the start
at once with :class:`StartError`, before any thread runs); the worker and
sender start (pending outbox rows are resubmitted), the scheduler rebuilds its
jobs from the stored games (deadlines passed while the judge was down are
handed to the worker at once), then the inbound transport serves, so nothing
arrives before the worker can take it. Stop order is the reverse.
"""

from __future__ import annotations

import errno
import logging
import signal
import threading
from datetime import datetime
from typing import Callable

from .config import Config
from .mail.commands import CommandHandler, MailCommands
from .mail.inbound_imap import ImapInbound
from .mail.inbound_smtp import SmtpInbound
from .mail.sender import Sender
from .mail.spool import Spool
from .mail.timekeeper import Timekeeper
from .mail.transport import make_transport
from .mail.worker import Worker, utc_now
from .scheduler import DeadlineScheduler, Work
from .storage import Store

log = logging.getLogger("judge.daemon")


class StartError(Exception):
    """The judge cannot start; the message says why and which setting to change."""


class Daemon:
    """One running judge. ``clock`` gives the UTC time (tests pin it);
    ``handler`` the mail commands (default :class:`MailCommands`)."""

    def __init__(self, cfg: Config, *, clock: Callable[[], datetime] = utc_now,
                 handler: CommandHandler | None = None):
        self.cfg = cfg
        cfg.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = Store(cfg.store_path)
        self.spool = Spool(cfg.spool_dir)
        self.transport = make_transport(cfg)
        self.handler = handler or MailCommands(cfg)
        out = cfg.outbound
        self.sender = Sender(self.transport, self._report, max_attempts=out.max_attempts,
                             backoff_base=out.backoff_base, backoff_max=out.backoff_max)
        self.worker = Worker(self.store, self.spool, self.handler, address=cfg.judge.address,
                             name=cfg.judge.name, domain=cfg.domain, keeper=cfg.judge.keeper,
                             language=cfg.judge.language, max_attempts=cfg.worker.max_attempts,
                             retry_delay=cfg.worker.retry_delay, ledger_days=cfg.worker.ledger_days,
                             clock=clock, ack=self._ack, send=self.sender.submit,
                             timekeeper=Timekeeper(cfg.judge), changed=self._changed,
                             templates=cfg.templates_dir)
        self.scheduler = DeadlineScheduler(self._load_games, self.worker.submit_work, clock,
                                           rescan_seconds=cfg.scheduler.rescan_seconds,
                                           changed_path=cfg.store_changed_path)
        inb = cfg.inbound
        if inb.transport == "imap":
            password = cfg.secret("inbound.imap", inb.imap.password_env)
            self.inbound = ImapInbound(self.spool, self.worker.wake, inb.imap, password)
        else:
            self.inbound = SmtpInbound(self.spool, self.worker.wake, inb.smtp.host, inb.smtp.port,
                                       inb.smtp.max_message_bytes)
        self._stopped = threading.Event()

    def _load_games(self) -> dict[str, dict]:
        if self.store.all("notices"):          # left by `judge game gm`: mail them
            self.worker.submit_work(Work("notices", "", None))
        return self.store.all("games")

    def _changed(self, docs: dict[str, dict | None], by_mail: bool) -> None:
        """The worker committed changes to these games: plan them again; after
        mail, look at once whether the orders are complete (early processing)."""
        for name, doc in docs.items():
            self.scheduler.update(name, doc)
            if by_mail and doc is not None and doc.get("schedule", {}).get("deadline"):
                self.worker.submit_work(Work("tick", name, doc["schedule"].get("phase")))

    def _ack(self, meta: dict) -> None:
        self.inbound.acknowledge(meta)

    def _report(self, kind: str, message_id: str, **info) -> None:
        self.worker.report(kind, message_id, **info)

    def pending_outbox(self) -> list[dict]:
        """Outbox rows not yet sent, oldest first (sent again at start)."""
        rows = [dict(doc, id=mid) for mid, doc in self.store.all("outbox").items()
                if doc.get("status") == "pending"]
        return sorted(rows, key=lambda r: (r.get("created", ""), r["id"]))

    def _bind(self) -> None:
        if not isinstance(self.inbound, SmtpInbound):
            return
        s = self.cfg.inbound.smtp
        try:
            self.inbound.bind()
        except OSError as e:
            busy = " (another judge or mail server is using it)" if e.errno == errno.EADDRINUSE else ""
            where = (f"[inbound.smtp] port in {self.cfg.source}" if self.cfg.source != "<embedded default>"
                     else "[inbound.smtp] port in a config file (judge serve --config FILE)")
            raise StartError(f"cannot listen for SMTP on {s.host}:{s.port}: {e.strerror or e}{busy}; "
                             f"choose another port with {where} or judge serve --port N") from None
        s.port = self.inbound.port          # the port bound (0 asks for any free one)

    def start(self) -> None:
        """Start everything (see module doc). StartError if the listener cannot bind."""
        self.spool.clean_tmp()
        self._bind()
        pending = self.pending_outbox()
        self.sender.start()
        self.sender.submit(pending)
        self.worker.start()
        self.scheduler.start()
        self.inbound.start()
        log.info("judge %s: reading %s, writing %s, data in %s (%d mail(s) waiting in the spool, "
                 "%d to send)", self.cfg.judge.address, self.inbound.describe(), self.transport.describe(),
                 self.cfg.data_dir, len(self.spool.pending()), len(pending))

    def stop(self) -> None:
        self.inbound.stop()
        self.scheduler.stop()
        self.worker.stop()
        self.sender.stop()
        self._stopped.set()

    def run_forever(self, on_started: Callable[[], None] = lambda: None) -> None:
        """Start, call ``on_started``, wait for SIGTERM/SIGINT, stop. StartError
        if the listener cannot bind its port (nothing has started then)."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self._stopped.set())
        self.start()
        on_started()
        self._stopped.wait()
        log.info("judge: stopping")
        self.stop()
