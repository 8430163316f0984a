"""Telling the judgekeeper that a login fails (issue 21).

Every login's outcome comes here (:attr:`judge.mail.logins.Credentials.watch`).
A refusal is noted in the health file (:mod:`judge.health`: ``judge
status``, the metrics page) and, the first time in a run of refusals and
once a day while it lasts, mailed to the keeper (``login_failed.txt``: the
server, its answer, what to change and the command that fixes it) through
whichever transport still works:

- the outbound transport (the Maildir, or a new SMTP connection), unless
  SMTP is what fails;
- else, when mail comes from IMAP, the mail is put into the judge's own
  mailbox (APPEND, flagged and already seen, so the judge does not read it
  as a command) where the keeper sees it in the provider's web mail.

When nothing works the log (journald) is the only word. The mail is not
kept in the store (it is about the judge, not a game); a failed delivery
is logged. Sending runs in a thread of its own, so the IMAP reader and the
sender go on with their backoff.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from datetime import datetime, timezone

from .compose import compose
from .logins import Credentials, LoginFailed
from .render import render

REMIND_SECONDS = 86400.0
"""While a login keeps failing the keeper is mailed again this often."""

log = logging.getLogger("judge.mail")


class Alarm:
    """See module doc. ``cfg``: the judge's config; ``health``: its
    :class:`~judge.health.Health`; ``tokens``: its OAuth2 tokens (or None)."""

    def __init__(self, cfg, health=None, tokens=None, clock=time.monotonic):
        self.cfg, self.health, self.tokens, self.clock = cfg, health, tokens, clock
        self._lock = threading.Lock()
        self._since: dict[str, datetime] = {}       # server -> when its refusals began
        self._mailed: dict[str, float] = {}         # server -> clock() of the last mail about it
        self.threads: list[threading.Thread] = []

    def watch(self, server: str, error: LoginFailed | None) -> None:
        """A login to ``server`` worked (``error`` None) or was refused."""
        if self.health is not None:
            self.health.login(server, error is None, "" if error is None else str(error))
        with self._lock:
            if error is None:
                if self._since.pop(server, None) is not None:
                    log.warning("%s: the login works again", server)
                self._mailed.pop(server, None)
                return
            since = self._since.setdefault(server, datetime.now(timezone.utc))
            last = self._mailed.get(server)
            if last is not None and self.clock() - last < REMIND_SECONDS:
                return
            self._mailed[server] = self.clock()
        log.error("%s login refused: %s; telling the judgekeeper %s", server, error, self.cfg.judge.keeper)
        thread = threading.Thread(target=self.tell, args=(error, since), name="judge-alarm", daemon=True)
        self.threads = [t for t in self.threads if t.is_alive()] + [thread]
        thread.start()

    def message(self, error: LoginFailed, since: datetime) -> bytes:
        """The keeper's mail about ``error`` (raw bytes)."""
        j = self.cfg.judge
        command = f"judge mail authorize --config {self.cfg.source}" if error.authorize else ""
        subject, body = render("login_failed.txt", j.language, self.cfg.templates_dir,
                               server=error.server.upper(), where=error.where, answer=error.answer,
                               fix=error.fix, command=command,
                               since=since.replace(microsecond=0).isoformat().replace("+00:00", " UTC"))
        mid = f"<login-{error.server}-{uuid.uuid4().hex[:16]}@{self.cfg.domain}>"
        msg = compose(sender_name=j.name, sender_address=j.address, to=[j.keeper], cc=[], subject=subject,
                      body=body, message_id=mid, now=datetime.now(timezone.utc), lang=j.language,
                      domain=self.cfg.domain)
        return msg

    def tell(self, error: LoginFailed, since: datetime) -> str:
        """Deliver the keeper's mail by the first route that works; its name
        ("" if none did)."""
        try:
            raw = self.message(error, since)
        except Exception:  # noqa: BLE001 - a broken template copy must not stop the judge
            log.exception("alarm: could not write the judgekeeper's mail")
            return ""
        for name, route in self._routes(error.server):
            try:
                route(raw)
            except Exception as e:  # noqa: BLE001 - try the next route
                log.warning("alarm: could not tell the judgekeeper by %s: %s", name, e)
                continue
            log.info("alarm: told the judgekeeper %s by %s", self.cfg.judge.keeper, name)
            return name
        log.error("alarm: no transport works to tell the judgekeeper; the log and `judge status` say it")
        return ""

    def _routes(self, failing: str):
        cfg = self.cfg
        if not (failing == "smtp" and cfg.outbound.transport == "smtp"):
            yield cfg.outbound.transport, self._send_out
        if cfg.inbound.transport == "imap" and failing != "imap":
            yield f"IMAP APPEND to {cfg.inbound.imap.folder}", self._append

    def _send_out(self, raw: bytes) -> None:
        from .transport import make_transport
        transport = make_transport(self.cfg, self.tokens)
        try:
            transport.send(f"alarm-{uuid.uuid4().hex}", raw, [self.cfg.judge.keeper])
        finally:
            transport.close()

    def _append(self, raw: bytes) -> None:
        from .inbound_imap import open_imap
        client = open_imap(Credentials.of(self.cfg, "imap", self.tokens))
        try:
            client.append(self.cfg.inbound.imap.folder, raw, flags=(b"\\Flagged", b"\\Seen"))
        finally:
            try:
                client.logout()
            except Exception:  # noqa: BLE001
                pass
