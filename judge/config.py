"""The judge's configuration: a TOML file (``config/judge.example.toml`` documents
every key) read with :mod:`tomllib`, or the embedded default when there is none.

Secrets never sit in the file: a key such as ``password_env`` names the
environment variable that holds the secret. Relative paths are relative to
``[judge] data_dir``, which is itself relative to the config file's folder (or
to the working directory for the embedded default).

The data folder: ``[judge] data_dir`` of the file when it sets one, else the
``JUDGE_DATA`` environment variable, else ``./judge-data``. Every command
(``judge serve``, ``spool``, ``game``, ``web``, ``archive``, ``parse``) finds
the store (folder ``store``) in the same folder by this rule
(:func:`data_dir_for`), so a GM's command line sees the games of the mail judge.

Providers: ``provider = "gmail"`` or ``"microsoft"`` in ``[inbound.imap]``
or ``[outbound.smtp]`` fills in the host, port and security (and the login
name: the judge's address) from :mod:`judge.providers` where the file
leaves them unset or at their defaults (as in the example file, which lists
every key with its default); ``auth = "oauth2"`` logs in with an OAuth2 access
token (XOAUTH2 or OAUTHBEARER) instead of a password, from the refresh token
``judge mail authorize`` keeps in the data folder (:attr:`Config.token_path`,
never in this file); ``[oauth2]`` names the app registration.

Errors: :class:`ConfigError` (file, key, reason) for unreadable TOML, unknown
keys, wrong types or values, and secrets whose environment variable is unset.
"""

from __future__ import annotations

import functools
import os
import time
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path

from .providers import NAMES as PROVIDER_NAMES, PROVIDERS, Provider

LANGUAGES = ("en", "zh-hans", "zh-hant")
DATA_ENV = "JUDGE_DATA"
"""The environment variable naming the data folder when no config file sets ``data_dir``."""
STORE_NAME = "store"
"""The store folder inside the data folder (:mod:`judge.storage`)."""
V1_STORE_NAME = "judge.json"
"""The one-file store of releases before the per-game store (upgraded at start)."""


class ConfigError(Exception):
    """A configuration problem: ``source`` (file), ``key`` (dotted), ``reason``."""

    def __init__(self, source: str, key: str, reason: str):
        super().__init__(f"{source}: {key}: {reason}")
        self.source, self.key, self.reason = source, key, reason


@dataclass
class JudgeSection:
    address: str = "judge@localhost"
    name: str = "Diplomacy Judge"
    keeper: str = "judgekeeper@localhost"
    data_dir: str = "judge-data"
    language: str = "en"
    timezone: str = "UTC"
    templates: str = "templates"     # a judgekeeper's copies of mail templates: <this>/mail/...


@dataclass
class SmtpInbound:
    host: str = "127.0.0.1"
    port: int = 2525
    max_message_bytes: int = 10 * 1024 * 1024


@dataclass
class ImapInbound:
    host: str = "127.0.0.1"
    port: int = 993
    security: str = "ssl"            # "ssl" | "starttls" | "none"
    cafile: str = ""
    provider: str = ""               # "gmail" | "microsoft": host, port, security preset (judge.providers)
    auth: str = "password"           # "password" (password_env) | "oauth2" (judge mail authorize)
    username: str = "judge"
    password_env: str = "JUDGE_IMAP_PASSWORD"
    folder: str = "INBOX"
    processed_folder: str = ""       # "" = only set \Seen after the commit
    idle: bool = True
    poll_interval: float = 30.0      # seconds between polls when IDLE is off or missing
    idle_renew: float = 600.0        # seconds before an IDLE is ended and restarted
    backoff_max: float = 300.0       # seconds, cap of the reconnect backoff
    timeout: float = 30.0


@dataclass
class Inbound:
    transport: str = "smtp"          # "smtp" | "imap"
    smtp: SmtpInbound = field(default_factory=SmtpInbound)
    imap: ImapInbound = field(default_factory=ImapInbound)


@dataclass
class MaildirOutbound:
    path: str = "outbox"


@dataclass
class SmtpOutbound:
    host: str = "127.0.0.1"
    port: int = 587
    security: str = "starttls"       # "ssl" | "starttls" | "none"
    cafile: str = ""
    provider: str = ""               # as [inbound.imap] provider
    auth: str = "password"           # as [inbound.imap] auth
    username: str = ""
    password_env: str = "JUDGE_SMTP_PASSWORD"
    timeout: float = 30.0


@dataclass
class Outbound:
    transport: str = "maildir"       # "maildir" | "smtp"
    maildir: MaildirOutbound = field(default_factory=MaildirOutbound)
    smtp: SmtpOutbound = field(default_factory=SmtpOutbound)
    max_attempts: int = 10
    backoff_base: float = 5.0        # seconds; doubles per failed attempt
    backoff_max: float = 3600.0


@dataclass
class OAuth2:
    """The app registration the judge signs in with when a server has
    ``auth = "oauth2"``: ``client_id`` (Google: an OAuth client of type
    Desktop app; Microsoft: an app registration allowing public client
    flows), ``client_secret_env`` (Google's desktop clients have a secret:
    the variable holding it, read by ``judge mail authorize`` and kept with
    the token), ``tenant`` (Microsoft: ``common``, ``organizations``,
    ``consumers`` or the tenant's id or domain). ``authority``,
    ``auth_url``, ``token_url``, ``scopes``: the provider's, unless given
    here (a provider of your own, or a test's stand-in); ``cafile``: CAs for
    those endpoints; ``refresh_margin``: seconds before an access token
    expires that a new one is fetched."""
    client_id: str = ""
    client_secret_env: str = "JUDGE_OAUTH2_CLIENT_SECRET"
    tenant: str = "common"
    authority: str = ""
    auth_url: str = ""
    token_url: str = ""
    scopes: list = field(default_factory=list)
    cafile: str = ""
    refresh_margin: float = 300.0


@dataclass
class Worker:
    max_attempts: int = 3            # tries of one mail that failed with an error before it is set aside
    max_deaths: int = 8              # tries of one mail during which the judge died (crash, kill) before that
    retry_delay: float = 2.0         # seconds; doubles per failed attempt
    ledger_days: float = 90.0        # ledger entries (Message-IDs seen) older than this are pruned daily


@dataclass
class Limits:
    """Bounds on one inbound mail (issue 12): ``mail_bytes`` read (the rest is
    not), MIME nesting ``mime_depth`` and ``mime_parts``, and the
    ``order_lines`` and ``command_lines`` taken from one mail, and
    ``line_chars``: a longer line is refused unread; ``mail_seconds``: the
    time one mail's lines may take (checked between lines), so that no mail
    holds the others up; 0 = no limit. Beyond a limit the judge reads what
    came before and says in its answer what was over and what was still
    taken (:mod:`judge.mail.limits`)."""
    mail_bytes: int = 512 * 1024
    mime_depth: int = 10
    mime_parts: int = 100
    order_lines: int = 300
    command_lines: int = 100
    line_chars: int = 1000
    mail_seconds: float = 1.5


@dataclass
class Senders:
    """Who the judge answers, and how it knows who wrote (issue 12).

    ``deny``: addresses or domains (``spam@example.org``, ``example.net``)
    whose mail is logged and never answered; ``auth``: the judge-wide default
    of the games' ``auth`` setting (``address``, ``password``, ``verified``;
    ``""``: ``verified`` when mail comes from IMAP behind a real mail server,
    ``password`` on the embedded SMTP listener); ``trusted_authserv_ids``: the
    ``Authentication-Results`` authserv-ids of the receiving mail servers the
    judge believes (RFC 8601); ``loop_headers``: other judges' marker headers
    (mail carrying one is never answered); ``refused_answer_hours``: a sender
    whose mails are all refused gets at most one answer in this many hours.
    Fair queueing per sender (issue 19, :mod:`judge.mail.fairness`): the
    mails of one ``From`` (or one ``Reply-To``) beyond ``answered_per_minute``
    within a minute wait behind everyone else's and are answered in one
    digest, beyond ``read_per_minute`` they are not read (logged, counted in
    the digest; 0 turns fair queueing off); ``lookup_seconds``: a sender is
    answered the same ``LIST`` or ``HELP`` line once in this many seconds,
    and told to wait in between (0: no bound)."""
    deny: list = field(default_factory=list)
    auth: str = ""
    trusted_authserv_ids: list = field(default_factory=list)
    loop_headers: list = field(default_factory=lambda: list(_LOOP_HEADERS))
    refused_answer_hours: float = 24.0
    answered_per_minute: int = 5
    read_per_minute: int = 20
    lookup_seconds: float = 60.0

    def default_auth(self, transport: str) -> str:
        """The ``auth`` of games that set none, for inbound ``transport``."""
        return self.auth or ("verified" if transport == "imap" else "password")

    def denied(self, address: str) -> bool:
        """Whether ``address`` (lower case) or its domain (or a parent domain) is denied."""
        domain = address.rpartition("@")[2]
        for entry in self.deny:
            entry = str(entry).strip().lower()
            if entry and (address == entry or (("@" not in entry) and
                                               (domain == entry or domain.endswith("." + entry.lstrip("."))))):
                return True
        return False


_LOOP_HEADERS = ("X-Judge", "X-Judge-Version", "X-Judge-Code", "X-NJudge", "X-Diplomacy",
                 "X-Diplomacy-Judge", "X-Dip-Judge", "X-DPjudge", "X-DPjudge-Version", "X-DPPD")


@dataclass
class Scheduler:
    rescan_seconds: float = 60.0     # how often stored games are planned again (besides on a command's request)


@dataclass
class Log:
    level: str = "INFO"
    file: str = ""                   # "" = standard error


@dataclass
class Config:
    judge: JudgeSection = field(default_factory=JudgeSection)
    inbound: Inbound = field(default_factory=Inbound)
    outbound: Outbound = field(default_factory=Outbound)
    oauth2: OAuth2 = field(default_factory=OAuth2)
    worker: Worker = field(default_factory=Worker)
    limits: Limits = field(default_factory=Limits)
    senders: Senders = field(default_factory=Senders)
    scheduler: Scheduler = field(default_factory=Scheduler)
    log: Log = field(default_factory=Log)
    source: str = "<embedded default>"
    base_dir: Path = field(default_factory=Path.cwd)

    # ---- derived paths ---------------------------------------------------------
    @property
    def data_dir(self) -> Path:
        return (self.base_dir / self.judge.data_dir).resolve()

    def data_path(self, p: str) -> Path:
        """``p`` relative to :attr:`data_dir` (absolute paths are kept)."""
        return (self.data_dir / p).resolve()

    @property
    def templates_dir(self) -> Path | None:
        """The folder of a judgekeeper's template copies (``[judge] templates``,
        relative to the config file's folder; its ``mail/`` holds copies of
        ``templates/mail/`` files, each taken instead of the shipped one), or
        None: the embedded default, or no such folder."""
        if self.source == "<embedded default>":
            return None
        key, now = (self.base_dir, self.judge.templates), time.monotonic()
        seen = self.__dict__.get("_templates_seen")        # (key, when looked, found): asked for every mail
        if seen is not None and seen[0] == key and now - seen[1] < TEMPLATES_LOOK:
            return seen[2]
        path = _resolved(self.base_dir / self.judge.templates)
        found = path if (path / "mail").is_dir() else None
        self.__dict__["_templates_seen"] = (key, now, found)
        return found

    @property
    def store_path(self) -> Path:
        return self.data_dir / STORE_NAME

    @property
    def v1_store_path(self) -> Path:
        return self.data_dir / V1_STORE_NAME

    @property
    def spool_dir(self) -> Path:
        return self.data_dir / "spool"

    @property
    def token_path(self) -> Path:
        """The OAuth2 refresh token's file (mode 0600, in a folder of mode 0700)."""
        return self.data_dir / "oauth2" / "token.json"

    def logins(self) -> list[tuple[str, object]]:
        """``[(name, settings)]`` of the servers the judge logs in to: ``"imap"``
        (``[inbound.imap]``) when mail comes from IMAP, ``"smtp"``
        (``[outbound.smtp]``) when it goes out by SMTP."""
        out = []
        if self.inbound.transport == "imap":
            out.append(("imap", self.inbound.imap))
        if self.outbound.transport == "smtp":
            out.append(("smtp", self.outbound.smtp))
        return out

    @property
    def uses_oauth2(self) -> bool:
        return any(s.auth == "oauth2" for _name, s in self.logins())

    def oauth2_provider(self) -> Provider | None:
        """The provider preset of the servers that log in with OAuth2 (None: none
        or a provider of one's own, given by ``[oauth2]`` URLs)."""
        names = {s.provider for _name, s in self.logins() if s.auth == "oauth2"} - {""}
        return PROVIDERS[names.pop()] if names else None

    def oauth2_endpoints(self) -> dict:
        """``{"token_url", "auth_url", "authority", "scopes"}`` for OAuth2: the
        ``[oauth2]`` keys where given, else the provider's."""
        o, p = self.oauth2, self.oauth2_provider()
        fill = (lambda url: url.replace("{tenant}", o.tenant or "common"))
        return {"token_url": o.token_url or (fill(p.token_url) if p else ""),
                "auth_url": o.auth_url or (p.auth_url if p else ""),
                "authority": o.authority or (fill(p.authority) if p else ""),
                "scopes": list(o.scopes) or (list(p.scopes) if p else [])}

    @property
    def domain(self) -> str:
        """The domain part of the judge's address (used in Message-IDs)."""
        return self.judge.address.rpartition("@")[2] or "localhost"

    def secret(self, section: str, env_name: str) -> str:
        """The value of environment variable ``env_name``; ConfigError if unset."""
        value = os.environ.get(env_name)
        if value is None:
            raise ConfigError(self.source, f"{section}.password_env",
                              f"environment variable {env_name} is not set")
        return value


_CHOICES = {
    "judge.language": LANGUAGES,
    "inbound.transport": ("smtp", "imap"),
    "inbound.imap.security": ("ssl", "starttls", "none"),
    "inbound.imap.provider": PROVIDER_NAMES,
    "inbound.imap.auth": ("password", "oauth2"),
    "outbound.transport": ("maildir", "smtp"),
    "outbound.smtp.security": ("ssl", "starttls", "none"),
    "outbound.smtp.provider": PROVIDER_NAMES,
    "outbound.smtp.auth": ("password", "oauth2"),
    "log.level": ("DEBUG", "INFO", "WARNING", "ERROR"),
    "senders.auth": ("", "address", "password", "verified"),
}


def _fill(obj, data: dict, source: str, prefix: str) -> None:
    known = {f.name: f for f in fields(obj) if f.name not in ("source", "base_dir")}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if key not in known:
            raise ConfigError(source, dotted, f"unknown key (known: {', '.join(sorted(known))})")
        current = getattr(obj, key)
        if is_dataclass(current):
            if not isinstance(value, dict):
                raise ConfigError(source, dotted, "must be a table")
            _fill(current, value, source, dotted + ".")
            continue
        kind = type(current)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not kind:
            raise ConfigError(source, dotted, f"must be {kind.__name__}, not {type(value).__name__}")
        if dotted in _CHOICES and value not in _CHOICES[dotted]:
            raise ConfigError(source, dotted, f"{value!r} is not one of {', '.join(_CHOICES[dotted])}")
        if kind is list and not all(isinstance(v, str) for v in value):
            raise ConfigError(source, dotted, "must be a list of strings")
        if kind in (int, float) and value < 0:
            raise ConfigError(source, dotted, "must not be negative")
        setattr(obj, key, value)


def load_config(path: str | Path | None = None, *, env=None) -> Config:
    """Read ``path`` (TOML) over the defaults; None gives the embedded default.
    ``env`` (default ``os.environ``): where ``JUDGE_DATA`` is looked up when the
    file sets no ``[judge] data_dir`` (a relative value is relative to the
    working directory).

    Raises ConfigError for a missing file, bad TOML or a bad key/value.
    """
    cfg = Config()
    env = os.environ if env is None else env
    if path is None:
        _data_from_env(cfg, env)
        return cfg
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(str(path), "-", f"cannot read: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(str(path), "-", f"bad TOML: {e}") from None
    cfg.source = str(path)
    cfg.base_dir = path.resolve().parent
    _fill(cfg, data, cfg.source, "")
    if "@" not in cfg.judge.address:
        raise ConfigError(cfg.source, "judge.address", "must be an e-mail address")
    _presets(cfg, data)
    judge = data.get("judge")
    if not (isinstance(judge, dict) and "data_dir" in judge):
        _data_from_env(cfg, env)
    return cfg


def _presets(cfg: Config, data: dict) -> None:
    """Fill in what a ``provider`` presets where the file leaves the default
    (see module doc); check what OAuth2 needs."""
    for name, settings, dotted in (("imap", cfg.inbound.imap, "inbound.imap"),
                                   ("smtp", cfg.outbound.smtp, "outbound.smtp")):
        default = type(settings)()
        if settings.provider:
            host, port, security = getattr(PROVIDERS[settings.provider], name)
            for key, value in (("host", host), ("port", port), ("security", security),
                               ("username", cfg.judge.address)):
                if getattr(settings, key) == getattr(default, key):   # left as the example file has it
                    setattr(settings, key, value)
        if settings.auth == "oauth2" and not settings.username:
            raise ConfigError(cfg.source, f"{dotted}.username", "OAuth2 needs the mailbox's address here")
    if not cfg.uses_oauth2:
        return
    providers = {s.provider for _n, s in cfg.logins() if s.auth == "oauth2"} - {""}
    if len(providers) > 1:
        raise ConfigError(cfg.source, "outbound.smtp.provider",
                          f"the servers logging in with OAuth2 name different providers ({', '.join(sorted(providers))}); "
                          f"one token serves one account")
    if not cfg.oauth2.client_id:
        raise ConfigError(cfg.source, "oauth2.client_id",
                          "auth = \"oauth2\" needs the client id of your app registration (see the README)")
    if not cfg.oauth2_endpoints()["token_url"]:
        raise ConfigError(cfg.source, "oauth2.token_url",
                          "auth = \"oauth2\" without a provider needs the token endpoint's URL")


def _data_from_env(cfg: Config, env) -> None:
    if env.get(DATA_ENV):
        cfg.judge.data_dir = str(Path(env[DATA_ENV]).resolve())


def data_dir_for(data: str | Path | None = None, config: str | Path | None = None) -> Path:
    """The data folder of a command: ``data`` (``--data DIR``) if given, else
    that of :func:`load_config` for ``config`` (``--config FILE``; see module
    doc). Raises ConfigError for a bad config file."""
    if data:
        return Path(data).resolve()
    return load_config(config).data_dir


TEMPLATES_LOOK = 5.0
"""Seconds :attr:`Config.templates_dir` trusts its last look for the folder
(a folder made while the judge runs is taken within this time)."""


@functools.lru_cache(maxsize=64)
def _resolved(path: Path) -> Path:
    """``path`` made absolute, its links followed (kept: asked for every mail)."""
    return path.resolve()
