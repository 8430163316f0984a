"""The composition root: config -> store, spool, transports, worker, sender,
scheduler.

Threads: the inbound transport (aiosmtpd's loop, or the IMAP reader), the
worker (the only writer of the store), the sender and the scheduler (its jobs
only hand deadline work to the worker). Start order: ``judge serve`` takes
the data folder (:mod:`judge.storage.owner`: a second judge on it stops with
:class:`StartError`; a ``judge game`` command doing its work is waited for),
the SMTP listener binds its port (a port in use stops the start at once);
it logs in to each server it is to use (:mod:`judge.mail.checks`: a wrong
host, port, password or token stops the start, naming the server, its
answer and what to change, within about 12 s); it upgrades a one-file
store of an earlier release (:mod:`judge.storage.upgrade`), records the
judge's identity (address, name, keeper, language) for commands that do
their work while it is down, and cleans leftover temp files; the clock is
checked against its last stamp and then watched for steps
(:mod:`judge.clock`: the worker and the scheduler run on its time), the
worker and sender start (pending outbox rows are resubmitted), the scheduler
rebuilds its jobs from the wakeup index (deadlines passed while the judge
was down are handed to the worker at once), then the inbound transport
serves, so nothing arrives before the worker can take it. Stop order is the
reverse.

:func:`offline_worker` builds the same worker for a ``judge game`` command
that finds no judge running (:mod:`judge.commands.submit`).
"""

from __future__ import annotations

import errno
import gc
import logging
import signal
import threading
from datetime import datetime, timezone
from typing import Callable

from .clock import ClockGuard
from .config import Config
from .health import Health
from .mail.alarm import Alarm
from .mail.authenticity import warn_authserv_ids
from .mail.checks import check_logins
from .mail.fairness import FairQueue
from .mail.handler import MailHandler
from .mail.keeper import KeeperWork
from .mail.logins import Credentials
from .mail.oauth2 import Tokens
from .mail.reply import CommandHandler
from .mail.inbound_imap import ImapInbound
from .mail.inbound_smtp import SmtpInbound
from .mail.sender import Sender
from .mail.spool import Spool
from .mail.timekeeper import Timekeeper
from .mail.transport import make_transport
from .mail.worker import Worker, utc_now, with_bodies
from .scheduler import DeadlineScheduler, Work
from .storage import Store, StoreError
from .storage.owner import claim, holder
from .storage.upgrade import upgrade_v1

CLAIM_WAIT = 30.0
"""Seconds ``judge serve`` waits for a ``judge game`` command that holds the data folder."""

log = logging.getLogger("judge.daemon")


class StartError(Exception):
    """The judge cannot start; the message says why and which setting to change."""


class Daemon:
    """One running judge. ``clock`` gives the UTC time (tests pin it);
    ``handler`` the mail commands (default :class:`MailHandler`);
    ``checks``: log in to each server before starting (see module doc)."""

    def __init__(self, cfg: Config, *, clock: Callable[[], datetime] = utc_now,
                 handler: CommandHandler | None = None, clock_guard: ClockGuard | None = None,
                 checks: bool = True):
        self.cfg, self.checks = cfg, checks
        cfg.data_dir.mkdir(parents=True, exist_ok=True)
        # the real clock is checked for steps (judge.clock); a pinned one (tests) is taken as it is
        if clock_guard is None and clock is utc_now:
            clock_guard = ClockGuard(cfg.data_dir)
        if clock_guard is not None:
            clock_guard.notify = lambda work: self.worker.submit_work(work)
            clock_guard.changed = lambda: self.scheduler.clock_changed()
            clock = clock_guard.now
        self.clock_guard = clock_guard
        self.claim = None
        self.health = Health(cfg.data_dir)
        self.tokens = Tokens.from_config(cfg) if cfg.uses_oauth2 else None
        self.health.tokens = self.tokens
        self.alarm = Alarm(cfg, self.health, self.tokens)
        self.transport = make_transport(cfg, self.tokens, watch=self.alarm.watch)
        out = cfg.outbound
        self.sender = Sender(self.transport, self._report, max_attempts=out.max_attempts,
                             backoff_base=out.backoff_base, backoff_max=out.backoff_max)
        self.worker = make_worker(cfg, clock=clock, handler=handler, ack=self._ack, send=self.sender.submit,
                                  changed=self._changed)
        self.store, self.spool, self.handler = self.worker.store, self.worker.spool, self.worker.handler
        self.scheduler = DeadlineScheduler(lambda: self.store.all("wakeups"), self.worker.submit_work, clock,
                                           rescan_seconds=cfg.scheduler.rescan_seconds)
        inb = cfg.inbound
        if inb.transport == "imap":
            self.inbound = ImapInbound(self.spool, self._spooled,
                                       Credentials.of(cfg, "imap", self.tokens, watch=self.alarm.watch))
        else:
            self.inbound = SmtpInbound(self.spool, self._spooled, inb.smtp.host, inb.smtp.port,
                                       inb.smtp.max_message_bytes)
            warn_authserv_ids(cfg)          # not believed here: any client can write those headers
        self._stopped = threading.Event()

    def _changed(self, rows: dict[str, dict | None], by_mail: bool) -> None:
        """The worker committed changes to these games (``{name: wakeup row}``):
        plan them again; after mail that completed a game's orders, process
        it at once (early processing)."""
        for name, row in rows.items():
            self.scheduler.update(name, row)
            if by_mail and row is not None and row.get("end") and row.get("ready", True):
                self.worker.submit_work(Work("tick", name, row.get("phase")))

    def _spooled(self) -> None:
        self.health.mail_read()
        self.worker.wake()

    def _check_logins(self) -> None:
        """Log in to each server; StartError naming those that refused."""
        if not self.checks or not self.cfg.logins():
            return
        failed = [c for c in check_logins(self.cfg, self.tokens) if not c.ok]
        for c in failed:
            self.health.login(c.what.split()[0].lower(), False, f"{c.detail}; {c.fix}")
        if failed:
            self.health.flush()                 # for `judge status`: the judge is not running, and why
            raise StartError("the start-up checks failed, nothing was started:\n"
                             + "\n".join(str(c) for c in failed))

    def _ack(self, meta: dict) -> None:
        self.inbound.acknowledge(meta)

    def _report(self, kind: str, message_id: str, **info) -> None:
        self.worker.report(kind, message_id, **info)

    def pending_outbox(self) -> list[dict]:
        """Outbox rows not yet sent, oldest first (sent again at start)."""
        rows = [dict(doc, id=mid) for mid, doc in self.store.all("outbox").items()
                if doc.get("status") == "pending"]
        return with_bodies(self.store, sorted(rows, key=lambda r: (r.get("created", ""), r["id"])))

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
        """Start everything (see module doc). StartError if another judge
        serves this data folder or the listener cannot bind."""
        data = self.cfg.data_dir
        self.claim = claim(data, "serve", wait=0.5 if holder(data).get("role") == "serve" else CLAIM_WAIT)
        if self.claim is None:
            who = holder(data)
            raise StartError(f"the data folder {data} is in use by another "
                             f"{'judge serve' if who.get('role') == 'serve' else 'process'}"
                             f"{' (pid ' + str(who['pid']) + ')' if who.get('pid') else ''}; "
                             f"one judge per data folder")
        try:
            self._bind()
            self._check_logins()
            prepare(self.cfg, self.store, self.spool)
            record_identity(self.cfg, self.store)
            self.spool.clean_tmp()
        except BaseException:
            if isinstance(self.inbound, SmtpInbound):
                self.inbound.stop()             # the port bound, never served
            self.claim.release()
            raise
        self.health.note(reading=self.inbound.describe(), writing=self.transport.describe())
        self.health.start()
        if self.clock_guard is not None:
            self.clock_guard.start_check(last_commit(self.store))
            self.clock_guard.start()
        pending = self.pending_outbox()
        self.sender.start()
        self.sender.submit(pending)
        self.worker.start()
        self.scheduler.start()
        self.inbound.start()
        gc.freeze()             # what start loaded (maps, templates, modules) stays: no collection walks it again
        log.info("judge %s: reading %s, writing %s, data in %s (%d mail(s) waiting in the spool, "
                 "%d to send)", self.cfg.judge.address, self.inbound.describe(), self.transport.describe(),
                 self.cfg.data_dir, len(self.spool.pending()), len(pending))

    def stop(self) -> None:
        self.inbound.stop()
        self.scheduler.stop()
        if self.clock_guard is not None:
            self.clock_guard.stop()
        self.worker.stop()
        self.sender.stop()
        self.health.stop()
        if self.claim is not None:
            self.claim.release()
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


def make_worker(cfg: Config, *, clock: Callable[[], datetime] = utc_now, handler: CommandHandler | None = None,
                online: bool = True, **hooks) -> Worker:
    """The judge's worker over the data folder of ``cfg`` (store, spool, mail
    commands, deadline work, ``judge game`` work); ``hooks``: the worker's
    ``ack``, ``send`` and ``changed`` callbacks; ``online``: for ``judge
    serve`` (else for a command doing its own work)."""
    j = cfg.judge
    return Worker(Store(cfg.store_path, lazy_sync=online), Spool(cfg.spool_dir), handler or MailHandler(cfg),
                  address=j.address,
                  name=j.name, domain=cfg.domain, keeper=j.keeper, language=j.language,
                  max_attempts=cfg.worker.max_attempts, max_deaths=cfg.worker.max_deaths,
                  retry_delay=cfg.worker.retry_delay,
                  ledger_days=cfg.worker.ledger_days, clock=clock, timekeeper=Timekeeper(j),
                  commands=keeper_work(KeeperWork(j, online), cfg), templates=cfg.templates_dir,
                  reading={"limits": cfg.limits, "markers": tuple(cfg.senders.loop_headers)},
                  fair=FairQueue(cfg.senders.answered_per_minute, cfg.senders.read_per_minute), **hooks)


def keeper_work(commands: Callable, cfg: Config) -> Callable:
    """The writer's runner of command work items: ``commands``, and the
    judgekeeper's ``store backup`` (a snapshot between two commits,
    :mod:`judge.storage.backup`; its result's ``out`` is the manifest, JSON)."""
    def run(work, db, now):
        if isinstance(work, dict) and work.get("action") == "store backup":
            import json

            from .storage.backup import snapshot
            try:
                db.store.checkpoint()           # every commit in the files (lazy_sync keeps them in the journal)
                made = snapshot(cfg.data_dir, cfg.store_path, cfg.spool_dir, db.get("judge", "identity"))
            except (OSError, StoreError) as e:
                return [], {"status": 2, "out": "", "err": f"cannot take the snapshot: {e}"}
            return [], {"status": 0, "out": json.dumps(made), "err": ""}
        return commands(work, db, now)
    return run


def last_commit(store: Store) -> datetime | None:
    """The time of the store's last commit (its ``seq`` file's), or None."""
    try:
        return datetime.fromtimestamp((store.path / "seq").stat().st_mtime, timezone.utc)
    except OSError:
        return None


def prepare(cfg: Config, store: Store, spool: Spool) -> None:
    """What the owner of a data folder does first, before it reads anything:
    finish a commit a crash interrupted, upgrade a one-file store of an
    earlier release."""
    if store.recover():
        log.warning("store: finished a commit the judge was stopped in")
    upgrade_v1(cfg.v1_store_path, store, spool)


IDENTITY = ("address", "name", "keeper", "language", "timezone")
"""What ``judge serve`` records of its ``[judge]`` config, for commands run without it."""


def record_identity(cfg: Config, store: Store) -> None:
    """Keep the running judge's identity in the store (table ``judge``)."""
    ident = {k: getattr(cfg.judge, k) for k in IDENTITY}
    if store.get("judge", "identity") != ident:
        with store.transaction() as tx:
            tx.put("judge", "identity", ident)


def offline_worker(cfg: Config) -> Worker:
    """A worker for a command that owns the data folder while no judge runs:
    mails it makes wait in the outbox for the judge's next start. It writes
    them as the judge that last ran here (its recorded identity), whatever
    config the command was given."""
    store = Store(cfg.store_path)
    spool = Spool(cfg.spool_dir)
    prepare(cfg, store, spool)
    ident = store.get("judge", "identity") or {}
    for key in IDENTITY:
        if ident.get(key):
            setattr(cfg.judge, key, ident[key])
    return make_worker(cfg, online=False)
