"""How the judge logs in to its IMAP and SMTP servers: a password, or an
OAuth2 access token (:mod:`judge.mail.oauth2`) by XOAUTH2 — or OAUTHBEARER
(RFC 7628) where the server offers that and not XOAUTH2.

A refused login raises :class:`LoginFailed`, which names the server, what
it answered and what to change (the environment variable of the password,
the username key, or the command that authorises the judge again). An
access token the server refuses is renewed once and tried again before the
login counts as refused (a token revoked before its end). Every login's
outcome is told to the credentials' ``watch(server, error or None)`` (the
judgekeeper's :class:`~judge.mail.alarm.Alarm`).
"""

from __future__ import annotations

import smtplib

from imapclient.exceptions import LoginError

from typing import Callable

from .oauth2 import AuthorizationError, Tokens, oauthbearer, xoauth2

SECTIONS = {"imap": "[inbound.imap]", "smtp": "[outbound.smtp]"}

_HINTS = {
    "gmail": "Gmail takes a password only as an app password (with 2-step verification on); "
             "auth = \"oauth2\" needs neither",
    "microsoft": "Microsoft 365 and Outlook.com refuse passwords for IMAP (and SMTP AUTH is being "
                 "turned off): use auth = \"oauth2\"",
}


class LoginFailed(Exception):
    """A server refused the judge's login, or no OAuth2 access token could
    be had. ``server``: ``"imap"`` or ``"smtp"``; ``where``: host:port;
    ``answer``: what the server (or the provider) said; ``fix``: what to
    change; ``authorize``: the fix is ``judge mail authorize``."""

    def __init__(self, server: str, where: str, answer: str, fix: str, authorize: bool = False):
        super().__init__(f"{server.upper()} {where} refused the login: {answer}; {fix}")
        self.server, self.where, self.answer, self.fix, self.authorize = server, where, answer, fix, authorize


class Credentials:
    """The login of ``server`` (``"imap"``/``"smtp"``) with ``settings`` (its
    config section): ``password``, or ``tokens`` (OAuth2). ``config``: the
    config file (for the commands a message names); ``watch(server,
    error)`` is told the outcome of every login (error None: it worked)."""

    def __init__(self, server: str, settings, *, password: str = "", tokens: Tokens | None = None,
                 config: str = "judge.toml",
                 watch: Callable[[str, "LoginFailed | None"], None] = lambda server, error: None):
        self.server, self.s, self.password, self.tokens, self.config = server, settings, password, tokens, config
        self.watch = watch

    @classmethod
    def of(cls, cfg, server: str, tokens: Tokens | None = None, watch=None) -> "Credentials":
        """The credentials of ``server`` in the config ``cfg`` (``tokens``: the
        judge's OAuth2 tokens, made if None and needed); ConfigError if a
        password's environment variable is unset."""
        s = cfg.inbound.imap if server == "imap" else cfg.outbound.smtp
        extra = {"watch": watch} if watch else {}
        if s.auth == "oauth2":
            return cls(server, s, tokens=tokens or Tokens.from_config(cfg), config=cfg.source, **extra)
        needed = server == "imap" or bool(s.username)
        section = "inbound.imap" if server == "imap" else "outbound.smtp"
        return cls(server, s, password=cfg.secret(section, s.password_env) if needed else "",
                   config=cfg.source, **extra)

    @property
    def where(self) -> str:
        return f"{self.s.host}:{self.s.port}"

    @property
    def authorize_command(self) -> str:
        return f"judge mail authorize --config {self.config}"

    def refused(self, answer: str) -> LoginFailed:
        """The error for a login the server refused with ``answer``."""
        section = SECTIONS[self.server]
        if self.tokens is not None:
            return LoginFailed(self.server, self.where, answer,
                               f"the server refused a fresh OAuth2 token for {self.s.username}: check that "
                               f"{section} username is the account you authorised and that it may use "
                               f"{self.server.upper()}, then run `{self.authorize_command}`", authorize=True)
        hint = _HINTS.get(self.s.provider, "")
        return LoginFailed(self.server, self.where, answer,
                           f"check {section} username ({self.s.username!r}) in {self.config} and the password "
                           f"in the environment variable {self.s.password_env}" + (f" ({hint})" if hint else ""))

    def token(self, refused: str = "") -> str:
        """An access token (a new one if the server refused ``refused``);
        LoginFailed if the provider will not give one. ProviderUnreachable
        passes through (try again later)."""
        try:
            return self.tokens.renew(refused) if refused else self.tokens.access_token()
        except AuthorizationError as e:
            raise LoginFailed(self.server, self.where, f"the OAuth2 provider refused: {e.answer}",
                              f"run `{self.authorize_command}` to authorise the judge again",
                              authorize=True) from None


def imap_login(client, creds: Credentials) -> str:
    """Log ``client`` (an IMAPClient, TLS done) in; the mechanism used. Raises LoginFailed."""
    return _watched(creds, _imap_login, client)


def smtp_login(conn: smtplib.SMTP, creds: Credentials) -> str:
    """Log ``conn`` (TLS done) in; the mechanism used ("" when no login is
    configured). Raises LoginFailed."""
    return _watched(creds, _smtp_login, conn)


def _watched(creds: Credentials, login, connection) -> str:
    try:
        mech = login(connection, creds)
    except LoginFailed as e:
        creds.watch(creds.server, e)
        raise
    if mech:
        creds.watch(creds.server, None)
    return mech


def _imap_login(client, creds: Credentials) -> str:
    s = creds.s
    if creds.tokens is None:
        try:
            client.login(s.username, creds.password)
        except LoginError as e:
            raise creds.refused(_text(e)) from None
        return "LOGIN"
    token = creds.token()                      # first: without a token nothing else matters
    offered = [m for m in ("XOAUTH2", "OAUTHBEARER") if client.has_capability(f"AUTH={m}")]
    if not offered:
        caps = " ".join(c.decode() for c in client.capabilities() if c.startswith(b"AUTH="))
        raise LoginFailed("imap", creds.where, f"it offers no OAuth2 login ({caps or 'no AUTH= at all'})",
                          "use auth = \"password\" for this server, or check [inbound.imap] host")
    mech = offered[0]
    for attempt in (1, 2):
        try:
            if mech == "XOAUTH2":
                client.oauth2_login(s.username, token)
            else:
                client.oauthbearer_login(s.username, token)
            return mech
        except LoginError as e:
            if attempt == 2:
                raise creds.refused(_text(e)) from None
            token = creds.token(refused=token)
    raise AssertionError("unreachable")


def _smtp_login(conn: smtplib.SMTP, creds: Credentials) -> str:
    s = creds.s
    if creds.tokens is None and not s.username:
        return ""
    conn.ehlo_or_helo_if_needed()
    if not conn.has_extn("auth"):
        raise LoginFailed("smtp", creds.where, "it offers no AUTH (after "
                          f"{'STARTTLS' if s.security == 'starttls' else 'EHLO'})",
                          "leave [outbound.smtp] username empty for a relay that takes the judge's mail "
                          "without a login, or check host, port and security")
    if creds.tokens is None:
        # one mechanism, the first offered of these: smtplib's login() would try the
        # next after a refusal (a second wrong login, or a server that hangs on it)
        offered = conn.esmtp_features.get("auth", "").upper().split()
        mech = next((m for m in ("PLAIN", "LOGIN", "CRAM-MD5") if m in offered), "")
        if not mech:
            raise LoginFailed("smtp", creds.where, f"it offers no password login (AUTH {' '.join(offered)})",
                              "use auth = \"oauth2\" for this server, or check [outbound.smtp] host")
        conn.user, conn.password = s.username, creds.password
        try:
            conn.auth(mech, getattr(conn, "auth_" + mech.lower().replace("-", "_")))
        except smtplib.SMTPAuthenticationError as e:
            raise creds.refused(f"{e.smtp_code} {_text(e.smtp_error)}") from None
        return mech
    token = creds.token()
    offered = conn.esmtp_features.get("auth", "").upper().split()
    mech = next((m for m in ("XOAUTH2", "OAUTHBEARER") if m in offered), "")
    if not mech:
        raise LoginFailed("smtp", creds.where, f"it offers no OAuth2 login (AUTH {' '.join(offered)})",
                          "use auth = \"password\" for this server, or check [outbound.smtp] host")
    for attempt in (1, 2):
        said: list[str] = []

        def answer(challenge=None, _token=token):
            if challenge is None:
                return xoauth2(s.username, _token) if mech == "XOAUTH2" else \
                    oauthbearer(s.username, _token, s.host, s.port)
            said.append(challenge.decode("utf-8", "replace"))      # the server's error, as JSON
            return "" if mech == "XOAUTH2" else "\x01"
        try:
            conn.auth(mech, answer)
            return mech
        except smtplib.SMTPAuthenticationError as e:
            if attempt == 2:
                raise creds.refused(f"{e.smtp_code} {_text(e.smtp_error)}"
                                    + (f" {said[0]}" if said else "")) from None
            token = creds.token(refused=token)
    raise AssertionError("unreachable")


def _text(value) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    value = str(value)
    if value.startswith("b'") or value.startswith('b"'):
        value = value[2:-1]
    return value.strip()

