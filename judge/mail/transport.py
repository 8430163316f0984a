"""Outbound transports: where the judge's mails go.

- :class:`MaildirTransport`: a local Maildir (the default). Delivery is
  idempotent: the file name is derived from the Message-ID, and a mail already
  in ``new/`` or ``cur/`` is not written again.
- :class:`SmtpTransport`: an SMTP relay, with implicit TLS (``ssl``),
  ``starttls`` or ``none``, and optional AUTH: a password, or an OAuth2
  token (:mod:`judge.mail.logins`). One connection is kept and reopened
  when it drops.

``send(message_id, raw, recipients)`` returns when the mail is accepted;
it raises :class:`PermanentError` (the relay refused it for good: 5xx),
:class:`TemporaryError` (try again later) or
:class:`~judge.mail.logins.LoginFailed` (the relay refused the judge's
login: no fault of the mail; nothing is sent until the login works again).
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
from .logins import Credentials, smtp_login
from .oauth2 import ProviderUnreachable


class TemporaryError(Exception):
    """The mail was not sent; sending again later may work."""


class PermanentError(Exception):
    """The mail was refused and will be refused again."""


class MaildirTransport:
    """Writes each mail to a Maildir folder at ``path`` (created if missing)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.box = mailbox.Maildir(self.path, create=True)   # creates tmp/ new/ cur/
        self._tmp, self._new, self._cur = (f"{self.path}/{d}" for d in ("tmp", "new", "cur"))   # str: no Path a mail

    def describe(self) -> str:
        return f"maildir {self.path}"

    @staticmethod
    def file_name(message_id: str) -> str:
        return "judge-" + hashlib.sha256(message_id.encode()).hexdigest()[:32]

    def send(self, message_id: str, raw: bytes, recipients: list[str]) -> None:
        name = self.file_name(message_id)
        new = f"{self._new}/{name}"
        if os.path.exists(new) or _in_cur(self._cur, name):
            return
        tmp = f"{self._tmp}/{name}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)   # as open(): the umask decides
            try:
                view = memoryview(raw)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.rename(tmp, new)
            fd = os.open(self._new, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            raise TemporaryError(f"maildir {self.path}: {e}") from e

    def close(self) -> None:
        pass


def _in_cur(cur: str, name: str) -> bool:
    """Whether ``cur/`` holds mail ``name`` (with any ``:2,FLAGS`` info). One
    listing, no pattern compiled for each mail as ``Path.glob`` does."""
    try:
        with os.scandir(cur) as entries:
            return any(e.name.split(":")[0] == name for e in entries if e.name.startswith(name))
    except FileNotFoundError:
        return False


class SmtpTransport:
    """Sends through an SMTP relay (see module doc)."""

    def __init__(self, credentials: Credentials, envelope_from: str, local_hostname: str | None = None):
        s = credentials.s
        self.host, self.port, self.security = s.host, s.port, s.security
        self.credentials, self.envelope_from = credentials, envelope_from
        self.timeout = s.timeout
        self.local_hostname = local_hostname
        self.context = ssl.create_default_context(cafile=s.cafile or None)
        self._conn: smtplib.SMTP | None = None

    def describe(self) -> str:
        return f"smtp {self.host}:{self.port} ({self.security})"

    def _connect(self) -> smtplib.SMTP:
        return open_smtp(self.credentials, self.context, self.timeout, self.local_hostname)

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
            except (smtplib.SMTPException, OSError, socket.timeout, ssl.SSLError, ProviderUnreachable) as e:
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


def open_smtp(credentials: Credentials, context: ssl.SSLContext | None = None, timeout: float | None = None,
              local_hostname: str | None = None) -> smtplib.SMTP:
    """A connection to the server of ``credentials``, TLS as its settings
    say, logged in. Raises OSError, ssl.SSLError, smtplib.SMTPException,
    LoginFailed, ProviderUnreachable."""
    s = credentials.s
    context = context or ssl.create_default_context(cafile=s.cafile or None)
    timeout = s.timeout if timeout is None else timeout
    if s.security == "ssl":
        conn = smtplib.SMTP_SSL(s.host, s.port, timeout=timeout, context=context, local_hostname=local_hostname)
    else:
        conn = smtplib.SMTP(s.host, s.port, timeout=timeout, local_hostname=local_hostname)
    try:
        if s.security == "starttls":
            conn.starttls(context=context)
        smtp_login(conn, credentials)
    except BaseException:
        conn.close()
        raise
    return conn


def make_transport(cfg: Config, tokens=None, watch=None):
    """The outbound transport the config names; ``tokens``: the judge's
    OAuth2 tokens (:class:`~judge.mail.oauth2.Tokens`), shared with the IMAP
    reader; ``watch``: told every login's outcome
    (:class:`~judge.mail.logins.Credentials`). ConfigError if a password's
    variable is unset."""
    out = cfg.outbound
    if out.transport == "smtp":
        return SmtpTransport(Credentials.of(cfg, "smtp", tokens, watch), cfg.judge.address)
    return MaildirTransport(cfg.data_path(out.maildir.path))
