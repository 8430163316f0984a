"""The embedded SMTP listener (aiosmtpd): the default way mail reaches the judge.

It answers ``250`` only after the message is in the spool (written, fsynced,
renamed); if spooling fails it answers ``451`` and the client tries again.
A message larger than ``max_message_bytes`` is refused with ``552`` by aiosmtpd.

The listening socket is bound by :meth:`SmtpInbound.bind`, in the caller's
thread, before anything else of the judge starts: a port in use fails at
once with an OSError (aiosmtpd's own start would wait its ready timeout).
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from datetime import datetime, timezone
from email._header_value_parser import get_addr_spec, get_angle_addr
from email.errors import HeaderParseError
from typing import Callable

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP

from .. import faults
from .message import PLAIN_ADDR
from .spool import Spool

log = logging.getLogger("judge.mail")


class SpoolingHandler:
    """aiosmtpd handler: spool each message, then wake the worker."""

    def __init__(self, spool: Spool, on_spooled: Callable[[], None]):
        self.spool, self.on_spooled = spool, on_spooled

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = envelope.original_content or b""
        meta = {"source": "smtp", "mail_from": envelope.mail_from or "",
                "rcpt_tos": list(envelope.rcpt_tos), "peer": str(session.peer[0]) if session.peer else "",
                "received": datetime.now(timezone.utc).isoformat()}
        try:
            entry = await asyncio.get_running_loop().run_in_executor(None, self.spool.put, raw, meta)
        except OSError as e:
            log.error("smtp: could not spool a %d-byte mail from %s: %s", len(raw), envelope.mail_from, e)
            return "451 4.3.0 Local error while storing the message; try again later"
        faults.checkpoint("smtp_after_spool")
        self.on_spooled()
        log.debug("smtp: spooled %s (%d bytes) from %s", entry.key, len(raw), envelope.mail_from)
        return "250 2.0.0 Message accepted"


_PLAIN = re.compile(rf"<({PLAIN_ADDR})>[ \t]*+(?![(\r\n])")
"""``<local@domain>`` of dot-atoms (:data:`~judge.mail.message.PLAIN_ADDR`) and the blanks after
it (the parameters follow): the email parser would read it as written (the
test holds this fast path to its answers)."""


class _SMTP(SMTP):
    """aiosmtpd's SMTP session, with one idle timer a connection (not one a
    command), and its reading of a ``MAIL FROM``/``RCPT TO``
    address without the ``typing.Protocol`` class aiosmtpd 1.4.6 makes anew
    at each call (a class made twice a mail: a fifth of the listener's CPU,
    py-spy). The same answers (``tests/test_mail_smtp_inbound.py`` compares
    them with aiosmtpd's own on many addresses)."""

    _idle_until = 0.0                   # loop time the connection times out at (see _reset_timeout)
    _idle_armed = False                 # a timer of ours is scheduled and has not run

    def _reset_timeout(self, duration: float | None = None) -> None:
        """aiosmtpd's idle timeout (the connection is closed after ``duration``
        seconds, its ``timeout``, without a command), without cancelling a
        timer and making a new one at every command (a tenth of the
        listener's CPU, py-spy): the deadline moves on, and the one timer,
        when it runs, waits again for what is left of it."""
        until = self.loop.time() + (duration or self._timeout_duration)
        handle = self._timeout_handle
        self._idle_until = until
        if handle is None or handle.cancelled() or not self._idle_armed or handle.when() > until:
            if handle is not None:
                handle.cancel()
            self._timeout_handle = self.loop.call_at(until, self._idle_check)
            self._idle_armed = True

    def _idle_check(self) -> None:
        if self.loop.time() < self._idle_until:         # a command came since: wait for the rest
            self._timeout_handle = self.loop.call_at(self._idle_until, self._idle_check)
        else:
            self._idle_armed = False
            self._timeout_cb()

    def _getaddr(self, arg: str):
        if not arg:
            return "", ""
        plain = _PLAIN.match(arg)
        if plain:               # <dot-atom@dot-atom>, as nearly every client writes it: read as is
            addr = plain.group(1)
            if not (self.local_part_limit and len(addr.rpartition("@")[0]) > self.local_part_limit):
                return addr, arg[plain.end():]
        try:
            address, rest = (get_angle_addr if arg.lstrip().startswith("<") else get_addr_spec)(arg)
        except HeaderParseError:
            return None, None
        addr = address.addr_spec
        if self.local_part_limit and len(addr.rpartition("@")[0]) > self.local_part_limit:
            return None, None
        return addr, rest


class _BoundController(Controller):
    """aiosmtpd's Controller serving on a socket bound beforehand."""

    def __init__(self, handler, sock: socket.socket, **kwargs):
        host, port = sock.getsockname()[:2]
        super().__init__(handler, hostname=host, port=port, **kwargs)
        self.sock = sock

    def factory(self):
        return _SMTP(self.handler, **self.SMTP_kwargs)

    def _create_server(self):
        return self.loop.create_server(self._factory_invoker, sock=self.sock, ssl=self.ssl_context)


class SmtpInbound:
    """Runs the listener in its own thread (aiosmtpd's Controller). ``port`` 0:
    any free port (:attr:`port` holds the one bound)."""

    def __init__(self, spool: Spool, on_spooled: Callable[[], None], host: str, port: int,
                 max_message_bytes: int):
        self.host, self.port = host, port
        self.handler = SpoolingHandler(spool, on_spooled)
        self.max_message_bytes = max_message_bytes
        self.controller: _BoundController | None = None
        self._started = False

    def describe(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    def bind(self) -> None:
        """Bind and listen on host:port now; OSError (e.g. EADDRINUSE) at once."""
        if self.controller is not None:
            return
        info = socket.getaddrinfo(self.host, self.port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)[0]
        # proto IPPROTO_TCP, as asyncio's own servers have it: asyncio turns Nagle's
        # algorithm off (TCP_NODELAY) only on such sockets; without it each
        # multi-line answer (EHLO) waits ~40 ms for the client's delayed ACK
        sock = socket.socket(info[0], info[1], info[2])
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(info[4])
            sock.listen(128)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self.controller = _BoundController(self.handler, sock, data_size_limit=self.max_message_bytes,
                                           server_hostname="judge", ready_timeout=10)

    def start(self) -> None:
        self.bind()
        self.controller.start()
        self._started = True

    def stop(self) -> None:
        if self._started:
            self.controller.stop()
            self._started = False
        elif self.controller is not None:       # bound, never served
            self.controller.sock.close()
            self.controller = None

    def acknowledge(self, meta: dict) -> None:
        """Nothing to do: the SMTP client had its 250 when the mail was spooled."""
