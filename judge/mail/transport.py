"""Outbound transports: where the judge's mails go.

- :class:`MaildirTransport`: a local Maildir (the default). Delivery is
  idempotent: the file name is derived from the Message-ID, and a mail already
  in ``new/`` or ``cur/`` is not written again.
- :class:`SmtpTransport`: an SMTP relay, with implicit TLS (``ssl``),
  ``starttls`` or ``none``, and optional AUTH. One connection is kept and
  reopened when it drops.

``send(message_id, raw, recipients)`` returns when the mail is accepted;
it raises :class:`PermanentError` (the relay refused it for good: 5xx) or
:class:`TemporaryError` (try again later).
"""

from __future__ import annotations

import hashlib
import mailbox
import os
import smtplib
import socket
import ssl
from pathlib import Path

from ..config import Config


class TemporaryError(Exception):
    """The mail was not sent; sending again later may work."""


class PermanentError(Exception):
    """The mail was refused and will be refused again."""


class MaildirTransport:
    """Writes each mail to a Maildir folder at ``path`` (created if missing)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.box = mailbox.Maildir(self.path, create=True)   # creates tmp/ new/ cur/

    def describe(self) -> str:
        return f"maildir {self.path}"

    @staticmethod
    def file_name(message_id: str) -> str:
        return "judge-" + hashlib.sha256(message_id.encode()).hexdigest()[:32]

    def send(self, message_id: str, raw: bytes, recipients: list[str]) -> None:
        name = self.file_name(message_id)
        new, cur = self.path / "new", self.path / "cur"
        if (new / name).exists() or any(p.name.split(":")[0] == name for p in cur.glob(name + "*")):
            return
        tmp = self.path / "tmp" / name
        try:
            with open(tmp, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            os.rename(tmp, new / name)
            fd = os.open(new, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            raise TemporaryError(f"maildir {self.path}: {e}") from e

    def close(self) -> None:
        pass


class SmtpTransport:
    """Sends through an SMTP relay (see module doc)."""

    def __init__(self, host: str, port: int, security: str, envelope_from: str, username: str = "",
                 password: str = "", cafile: str = "", timeout: float = 30.0,
                 local_hostname: str | None = None):
        self.host, self.port, self.security = host, port, security
        self.envelope_from = envelope_from
        self.username, self.password = username, password
        self.timeout = timeout
        self.local_hostname = local_hostname
        self.context = ssl.create_default_context(cafile=cafile or None)
        self._conn: smtplib.SMTP | None = None

    def describe(self) -> str:
        return f"smtp {self.host}:{self.port} ({self.security})"

    def _connect(self) -> smtplib.SMTP:
        if self.security == "ssl":
            conn = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout,
                                    context=self.context, local_hostname=self.local_hostname)
        else:
            conn = smtplib.SMTP(self.host, self.port, timeout=self.timeout,
                                local_hostname=self.local_hostname)
            if self.security == "starttls":
                conn.starttls(context=self.context)
        if self.username:
            conn.login(self.username, self.password)
        return conn

    def send(self, message_id: str, raw: bytes, recipients: list[str]) -> None:
        for attempt in (1, 2):       # a kept connection may have been closed by the server
            try:
                if self._conn is None:
                    self._conn = self._connect()
                refused = self._conn.sendmail(self.envelope_from, recipients, raw)
                if refused:
                    raise PermanentError(f"refused recipients: {refused}")
                return
            except smtplib.SMTPServerDisconnected as e:
                self._conn = None
                if attempt == 2:
                    raise TemporaryError(str(e)) from e
            except smtplib.SMTPRecipientsRefused as e:
                raise self._classify(min(code for code, _ in e.recipients.values()), str(e.recipients)) from e
            except smtplib.SMTPResponseException as e:
                self.close()
                raise self._classify(e.smtp_code, f"{e.smtp_code} {e.smtp_error!r}") from e
            except (smtplib.SMTPException, OSError, socket.timeout, ssl.SSLError) as e:
                self.close()
                raise TemporaryError(f"{type(e).__name__}: {e}") from e

    @staticmethod
    def _classify(code: int, text: str) -> Exception:
        return PermanentError(text) if 500 <= code < 600 else TemporaryError(text)

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._conn = None


def make_transport(cfg: Config):
    """The outbound transport the config names. ConfigError if a secret is unset."""
    out = cfg.outbound
    if out.transport == "smtp":
        s = out.smtp
        password = cfg.secret("outbound.smtp", s.password_env) if s.username else ""
        return SmtpTransport(s.host, s.port, s.security, cfg.judge.address, s.username, password,
                             s.cafile, s.timeout)
    return MaildirTransport(cfg.data_path(out.maildir.path))
