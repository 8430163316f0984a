"""The embedded SMTP listener (aiosmtpd): the default way mail reaches the judge.

It answers ``250`` only after the message is in the spool (written, fsynced,
renamed); if spooling fails it answers ``451`` and the client tries again.
A message larger than ``max_message_bytes`` is refused with ``552`` by aiosmtpd.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timezone
from typing import Callable

from aiosmtpd.controller import Controller

from . import faults
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


class SmtpInbound:
    """Runs the listener in its own thread (aiosmtpd's Controller)."""

    def __init__(self, spool: Spool, on_spooled: Callable[[], None], host: str, port: int,
                 max_message_bytes: int):
        self.host, self.port = host, port
        self.controller = Controller(SpoolingHandler(spool, on_spooled), hostname=host, port=port,
                                     data_size_limit=max_message_bytes, server_hostname="judge",
                                     ready_timeout=10)

    def describe(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()

    def acknowledge(self, meta: dict) -> None:
        """Nothing to do: the SMTP client had its 250 when the mail was spooled."""
