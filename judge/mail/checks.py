"""Trying the judge's logins before it accepts work (``judge serve``) or
without starting it (``judge check``).

:func:`check_logins` connects to each server the config names (the IMAP
mailbox, the SMTP relay) at once, each in its own thread, logs in, and for
IMAP opens the folder. Each gives a :class:`Check`: what was tried, whether
it worked, what the server answered, and what to change — the config key,
the environment variable, or the command. A check takes at most
``timeout`` seconds, whatever hangs (a name lookup, a silent firewall).
"""

from __future__ import annotations

import smtplib
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from imapclient.exceptions import IMAPClientError

from .logins import SECTIONS, Credentials, LoginFailed
from .oauth2 import ProviderUnreachable

CHECK_TIMEOUT = 10.0
"""Seconds one server's check may take (the socket timeout is this or less)."""

_PORTS = {"imap": "993 with security = \"ssl\", 143 with \"starttls\"",
          "smtp": "465 with security = \"ssl\", 587 with \"starttls\" (25 between mail servers)"}


@dataclass
class Check:
    """One check: ``what`` was tried, ``ok``, ``detail`` (what worked, or the
    server's answer), ``fix`` (what to change; "" when ok)."""

    what: str
    ok: bool
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        if self.ok:
            return f"ok    {self.what}: {self.detail}"
        return f"FAIL  {self.what}: {self.detail}\n      -> {self.fix}"


def describe(server: str, settings) -> str:
    auth = "OAuth2" if settings.auth == "oauth2" else ("password" if settings.username else "no login")
    user = f" as {settings.username}" if settings.username else ""
    return f"{server.upper()} {settings.host}:{settings.port} ({settings.security}, {auth}{user})"


def check_logins(cfg, tokens=None, timeout: float = CHECK_TIMEOUT) -> list[Check]:
    """A :class:`Check` for each server of ``cfg`` (:meth:`judge.config.Config.logins`),
    tried side by side; ``tokens``: the judge's OAuth2 tokens (made if None
    and needed). Raises ConfigError if a password's variable is unset."""
    creds = [Credentials.of(cfg, name, tokens) for name, _s in cfg.logins()]
    results: dict[str, Check] = {}
    threads = []
    for c in creds:
        t = threading.Thread(target=lambda c=c: results.__setitem__(c.server, check_one(c, timeout)),
                             name=f"judge-check-{c.server}", daemon=True)
        t.start()
        threads.append((c, t))
    end = time.monotonic() + timeout + 2.0
    out = []
    for c, t in threads:
        t.join(max(0.0, end - time.monotonic()))
        out.append(results.get(c.server) or Check(
            describe(c.server, c.s), False, f"no answer within {timeout:.0f} s (the name lookup or the "
                                            f"connection hangs)", _where_fix(c)))
    return out


def check_one(creds: Credentials, timeout: float = CHECK_TIMEOUT) -> Check:
    """Connect, log in (and open the IMAP folder); the :class:`Check`."""
    s, what = creds.s, describe(creds.server, creds.s)
    timeout = min(timeout, s.timeout or timeout)
    try:
        if creds.server == "imap":
            from .inbound_imap import open_imap
            client = open_imap(creds, timeout=timeout)
            try:
                info = client.select_folder(s.folder, readonly=True)
                if s.processed_folder and not client.folder_exists(s.processed_folder):
                    return Check(what, False, f"no folder {s.processed_folder!r}",
                                 f"create it, or change [inbound.imap] processed_folder in {creds.config}")
                detail = f"logged in, folder {s.folder} holds {int(info.get(b'EXISTS', 0))} mail(s)"
            except IMAPClientError as e:
                return Check(what, False, f"logged in, but the folder {s.folder!r} cannot be opened: {e}",
                             f"check [inbound.imap] folder in {creds.config}")
            finally:
                try:
                    client.logout()
                except (IMAPClientError, OSError):
                    pass
        else:
            from .transport import open_smtp
            conn = open_smtp(creds, timeout=timeout)
            try:
                detail = "logged in" if (creds.tokens is not None or s.username) else "connected (no login configured)"
            finally:
                try:
                    conn.quit()
                except (smtplib.SMTPException, OSError):
                    pass
        return Check(what, True, detail)
    except LoginFailed as e:
        return Check(what, False, f"refused the login: {e.answer}", e.fix)
    except ProviderUnreachable as e:
        return Check(what, False, f"the OAuth2 token endpoint did not answer: {e}",
                     f"check the network, [oauth2] token_url and cafile in {creds.config}")
    except socket.gaierror as e:
        return Check(what, False, f"the name {s.host!r} does not resolve ({e.strerror or e})",
                     f"check {SECTIONS[creds.server]} host in {creds.config}")
    except ConnectionRefusedError:
        return Check(what, False, f"connection refused: nothing listens on port {s.port}",
                     f"check {SECTIONS[creds.server]} host and port in {creds.config} "
                     f"(usually {_PORTS[creds.server]})")
    except ssl.SSLCertVerificationError as e:
        return Check(what, False, f"its TLS certificate is not trusted ({e.verify_message or e})",
                     f"set {SECTIONS[creds.server]} cafile to the CA that signed it, or use the name the "
                     f"certificate is for as host")
    except ssl.SSLError as e:
        return Check(what, False, f"TLS failed ({e.reason or e})", _security_fix(creds))
    except (socket.timeout, TimeoutError):
        return Check(what, False, f"no answer within {timeout:.0f} s", _where_fix(creds))
    except (IMAPClientError, smtplib.SMTPException) as e:
        return Check(what, False, f"it answered: {e}", _security_fix(creds))
    except OSError as e:
        return Check(what, False, f"{e.strerror or e}", _where_fix(creds))


def _where_fix(creds: Credentials) -> str:
    return (f"check {SECTIONS[creds.server]} host and port in {creds.config} (usually {_PORTS[creds.server]}), "
            f"and that no firewall drops the judge's connections")


def _security_fix(creds: Credentials) -> str:
    s, section = creds.s, SECTIONS[creds.server]
    if s.security == "ssl":
        return (f"{section} security = \"ssl\" speaks TLS at once; the server on port {s.port} may want "
                f"\"starttls\" (usually {_PORTS[creds.server]})")
    if s.security == "starttls":
        return (f"{section} security = \"starttls\" asks for TLS after connecting; the server on port "
                f"{s.port} may want \"ssl\" (usually {_PORTS[creds.server]})")
    return f"check {section} security and port in {creds.config} (usually {_PORTS[creds.server]})"
