"""Fetching the judge's mail from an IMAP mailbox (imapclient).

- TLS: ``ssl`` (implicit TLS) or ``starttls``; ``none`` only for loopback tests.
- New mail is found with ``NOOP`` (the session sees what came since) and
  ``SEARCH UNSEEN``, and fetched with ``BODY.PEEK[]``,
  which leaves ``\\Seen`` unset; each message is spooled, then the worker is woken.
- ``\\Seen`` is set (or the message moved to ``processed_folder``) only when
  the worker says the mail is committed (:meth:`ImapInbound.acknowledge`).
- UIDVALIDITY: an acknowledgement is applied only to the UIDVALIDITY the UID
  was fetched under; after a change the mailbox is read again and the ledger
  (keyed by Message-ID or content hash) recognises what was done already.
- Waiting: IDLE when the server has it (renewed every ``idle_renew`` s, and
  ended every ``poll_interval`` s for a search: a mail that arrives between
  the search and the IDLE command is not announced by Dovecot, and would
  otherwise wait for the renewal), else polling every ``poll_interval`` s. Connection errors: reconnect after 1, 2,
  4 ... s, at most ``backoff_max``.
- Login: a password or an OAuth2 token (:mod:`judge.mail.logins`). A refused
  login is logged as an error (the judgekeeper hears of it from
  :class:`~judge.mail.alarm.Alarm`) and tried again with the same backoff;
  the spool and everything in it stay as they are meanwhile.
"""

from __future__ import annotations

import logging
import queue
import socket
import ssl
import threading
import time
from datetime import datetime, timezone
from typing import Callable

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from .. import faults
from .logins import Credentials, LoginFailed, imap_login
from .oauth2 import ProviderUnreachable
from .spool import Spool

log = logging.getLogger("judge.mail")

FETCH_BATCH = 50


class ImapInbound:
    """The IMAP reader thread (see module doc)."""

    def __init__(self, spool: Spool, on_spooled: Callable[[], None], credentials: Credentials):
        self.spool, self.on_spooled, self.s = spool, on_spooled, credentials.s
        self.credentials = credentials
        self.acks: queue.Queue = queue.Queue()
        self.wakeup = threading.Event()
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.client: IMAPClient | None = None
        self.uidvalidity: int | None = None
        # (uidvalidity, uid) spooled and not yet acknowledged: not fetched again
        self.inflight: set[tuple[int, int]] = set()
        for name in spool.pending():
            try:
                meta = spool.read(name).meta
            except (OSError, ValueError):
                continue
            if meta.get("source") == "imap":
                self.inflight.add((meta["uidvalidity"], meta["uid"]))

    def describe(self) -> str:
        return f"imap {self.s.username}@{self.s.host}:{self.s.port} ({self.s.security}) folder {self.s.folder}"

    # ---- thread control ---------------------------------------------------------
    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="judge-imap", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.wakeup.set()
        if self.thread:
            self.thread.join(timeout=30)

    def acknowledge(self, meta: dict) -> None:
        """Called by the worker once the mail is committed (or a known duplicate)."""
        if meta.get("source") == "imap":
            self.acks.put((meta["uidvalidity"], meta["uid"]))
            self.wakeup.set()

    def run(self) -> None:
        delay = 1.0
        while not self._stop.is_set():
            try:
                self._connect()
                delay = 1.0
                self._session()
            except LoginFailed as e:
                if self._stop.is_set():
                    break
                log.error("imap: %s (trying again in %.0f s; the spool keeps what came before)", e, delay)
                self._stop.wait(delay)
                delay = min(delay * 2, self.s.backoff_max)
            except (IMAPClientError, OSError, socket.timeout, ssl.SSLError, ProviderUnreachable) as e:
                if self._stop.is_set():
                    break
                log.warning("imap %s: %s: %s; reconnecting in %.0f s", self.s.host, type(e).__name__, e, delay)
                self._stop.wait(delay)
                delay = min(delay * 2, self.s.backoff_max)
            finally:
                self._disconnect()

    # ---- one connection --------------------------------------------------------
    def _connect(self) -> None:
        s = self.s
        client = open_imap(self.credentials)
        self.client = client
        info = client.select_folder(s.folder)
        validity = int(info[b"UIDVALIDITY"])
        if self.uidvalidity is not None and validity != self.uidvalidity:
            log.warning("imap %s: UIDVALIDITY of %s changed (%s -> %s); reading it afresh",
                        s.host, s.folder, self.uidvalidity, validity)
        self.uidvalidity = validity
        log.info("imap: connected to %s", self.describe())

    def _disconnect(self) -> None:
        if self.client is not None:
            try:
                self.client.logout()
            except (IMAPClientError, OSError, socket.timeout, ssl.SSLError):
                pass
            self.client = None

    def _session(self) -> None:
        use_idle = self.s.idle and self.client.has_capability("IDLE")
        while not self._stop.is_set():
            self._apply_acks()
            self._fetch_new()
            if use_idle:
                self._idle()
            else:
                self.wakeup.wait(self.s.poll_interval)
                self.wakeup.clear()

    def _idle(self) -> None:
        client = self.client
        client.idle()
        started, length = time.monotonic(), min(self.s.idle_renew, self.s.poll_interval)
        try:
            while not self._stop.is_set() and time.monotonic() - started < length:
                responses = client.idle_check(timeout=0.5)
                if any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses):
                    return
                if any(r and r[0] == b"BYE" for r in responses):
                    raise ConnectionError("server said BYE")
                if self.wakeup.is_set():
                    return
        finally:
            self.wakeup.clear()
            client.idle_done()

    def _fetch_new(self) -> None:
        # NOOP first: a server's SEARCH reads the mailbox as the session last saw it (Dovecot syncs
        # during the command and shows new mail only to the next one), so a mail appended since
        # would wait a whole poll interval more (issue 23: paced mail 128 -> ~75 ms at 50 ms polls)
        self.client.noop()
        uids = [u for u in self.client.search(["UNSEEN"]) if (self.uidvalidity, u) not in self.inflight]
        for i in range(0, len(uids), FETCH_BATCH):
            batch = uids[i:i + FETCH_BATCH]
            data = self.client.fetch(batch, ["BODY.PEEK[]"])
            for uid in batch:
                raw = data.get(uid, {}).get(b"BODY[]")
                if raw is None:          # expunged meanwhile
                    continue
                meta = {"source": "imap", "uid": uid, "uidvalidity": self.uidvalidity,
                        "folder": self.s.folder, "received": datetime.now(timezone.utc).isoformat()}
                entry = self.spool.put(raw, meta)
                self.inflight.add((self.uidvalidity, uid))
                faults.checkpoint("imap_after_spool")
                log.debug("imap: spooled uid %s as %s", uid, entry.key)
            self.on_spooled()

    def _apply_acks(self) -> None:
        pending: list[tuple[int, int]] = []
        try:
            while True:
                pending.append(self.acks.get_nowait())
        except queue.Empty:
            pass
        uids = [uid for validity, uid in pending if validity == self.uidvalidity]
        stale = [p for p in pending if p[0] != self.uidvalidity]
        for p in stale:
            self.inflight.discard(p)
        if not uids:
            return
        try:
            self.client.add_flags(uids, [b"\\Seen"])
            if self.s.processed_folder:
                self._move(uids, self.s.processed_folder)
        except BaseException:
            for uid in uids:             # try again after the reconnect
                self.acks.put((self.uidvalidity, uid))
            raise
        for uid in uids:
            self.inflight.discard((self.uidvalidity, uid))

    def _move(self, uids: list[int], folder: str) -> None:
        client = self.client
        if client.has_capability("MOVE"):
            client.move(uids, folder)
            return
        client.copy(uids, folder)
        client.delete_messages(uids)
        if client.has_capability("UIDPLUS"):
            client.uid_expunge(uids)
        else:
            client.expunge()


def open_imap(credentials: Credentials, timeout: float | None = None) -> IMAPClient:
    """A connection to the server of ``credentials``, TLS as its settings say,
    logged in. Raises OSError, ssl.SSLError, IMAPClientError, LoginFailed,
    ProviderUnreachable."""
    s = credentials.s
    context = ssl.create_default_context(cafile=s.cafile or None)
    client = IMAPClient(s.host, port=s.port, ssl=s.security == "ssl", ssl_context=context,
                        timeout=s.timeout if timeout is None else timeout)
    try:
        if s.security == "starttls":
            client.starttls(context)
        imap_login(client, credentials)
    except BaseException:
        try:
            client.shutdown()
        except (IMAPClientError, OSError):
            pass
        raise
    return client
