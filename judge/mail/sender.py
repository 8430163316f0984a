"""The sender: takes committed outbox rows and hands them to the transport.

It never writes the store: it tells the worker (``report``) when a mail was
accepted (``"sent"``) or failed for good (``"failed"``), and the worker records
it. A temporary failure is retried after ``backoff_base * 2**(attempts-1)``
seconds (at most ``backoff_max``); after ``max_attempts`` the mail has failed.
A mail accepted but not yet recorded as sent when the process dies is sent
again at the next start with the same Message-ID (the maildir transport then
skips it; an SMTP receiver sees the same Message-ID twice).

A relay that refuses the judge's login (:class:`~judge.mail.logins.LoginFailed`:
a changed password, a revoked OAuth2 token) is no fault of the mail: its
attempts do not count, and nothing is sent for ``backoff_base * 2**(n-1)``
seconds after the n-th refusal in a row (at most ``backoff_max``); the
judgekeeper hears of it from :class:`~judge.mail.alarm.Alarm`.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time
from typing import Callable

from .. import faults
from .logins import LoginFailed
from .transport import PermanentError, TemporaryError

log = logging.getLogger("judge.mail")


class Sender:
    """Sends outbox rows ({"id", "raw", "to", "cc", "attempts", ...}) in the order given. A row
    whose body is shared (``body``: its key in table ``bodies``) is whole
    when it has ``_head`` (:func:`judge.mail.worker.with_bodies`); else its
    body was not found and it is reported failed."""

    def __init__(self, transport, report: Callable[..., None], *, max_attempts: int = 10,
                 backoff_base: float = 5.0, backoff_max: float = 3600.0):
        self.transport, self.report = transport, report
        self._refusals = 0                  # login refusals in a row
        self._paused_until = 0.0            # monotonic time before which nothing is sent
        self.max_attempts, self.backoff_base, self.backoff_max = max_attempts, backoff_base, backoff_max
        self.incoming: queue.Queue = queue.Queue()
        self._heap: list[tuple[float, int, dict]] = []
        self._order = itertools.count()
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def submit(self, rows: list[dict]) -> None:
        for row in rows:
            self.incoming.put(row)

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="judge-sender", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.incoming.put(None)
        if self.thread:
            self.thread.join(timeout=30)
        self.transport.close()

    def run(self) -> None:
        while not self._stop.is_set():
            wait = max(self._heap[0][0], self._paused_until) - time.monotonic() if self._heap else 1.0
            try:
                row = self.incoming.get(timeout=max(wait, 0)) if wait > 0 else self.incoming.get_nowait()
                while row is not None:
                    heapq.heappush(self._heap, (0.0, next(self._order), row))
                    row = self.incoming.get_nowait()
            except queue.Empty:
                pass
            while self._heap and max(self._heap[0][0], self._paused_until) <= time.monotonic() \
                    and not self._stop.is_set():
                _, _, row = heapq.heappop(self._heap)
                self._send(row)

    def _send(self, row: dict) -> None:
        mid = row["id"]
        recipients = list(row["to"]) + list(row.get("cc", []))
        attempts = row.get("attempts", 0) + 1
        faults.checkpoint("before_send")
        if row.get("body") and "_head" not in row:
            log.error("send %s to %s: its body %s is missing from the store", mid, ", ".join(recipients),
                      row["body"])
            self.report("failed", mid, error=f"the mail's body ({row['body']}) is missing from the store",
                        attempts=attempts)
            return
        try:
            self.transport.send(mid, row["raw"].encode("ascii"), recipients)
        except PermanentError as e:
            log.error("send %s to %s: refused (%s)", mid, ", ".join(recipients), e)
            self.report("failed", mid, error=str(e), attempts=attempts)
            return
        except LoginFailed as e:
            self._refusals += 1
            pause = min(self.backoff_base * 2 ** (self._refusals - 1), self.backoff_max)
            self._paused_until = time.monotonic() + pause
            log.error("send: %s (nothing is sent for %.0f s; the mails wait)", e, pause)
            heapq.heappush(self._heap, (0.0, next(self._order), row))      # its attempts unchanged
            return
        except Exception as e:  # noqa: BLE001 - TemporaryError, or a bug: retry, never lose the row
            if not isinstance(e, TemporaryError):
                log.exception("send %s: unexpected error", mid)
            if attempts >= self.max_attempts:
                log.error("send %s to %s: giving up after %d attempts (%s)", mid, ", ".join(recipients),
                          attempts, e)
                self.report("failed", mid, error=str(e), attempts=attempts)
                return
            delay = min(self.backoff_base * 2 ** (attempts - 1), self.backoff_max)
            log.warning("send %s to %s: attempt %d failed (%s); again in %.0f s", mid,
                        ", ".join(recipients), attempts, e, delay)
            heapq.heappush(self._heap, (time.monotonic() + delay, next(self._order),
                                        dict(row, attempts=attempts)))
            return
        faults.checkpoint("after_send")
        self._refusals = 0
        log.info("sent %s to %s via %s", mid, ", ".join(recipients), self.transport.describe())
        self.report("sent", mid, attempts=attempts)
