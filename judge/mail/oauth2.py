"""OAuth2 access tokens for the judge's IMAP and SMTP logins (RFC 6749 §6).

``judge mail authorize`` (:mod:`judge.mail.authorize`) gets a refresh token
once and keeps it in the data folder (:attr:`judge.config.Config.token_path`,
mode 0600 in a folder of mode 0700, never in the config). :class:`Tokens`
exchanges it for short-lived access tokens, a new one whenever the last is
within ``refresh_margin`` seconds of its end; one :class:`Tokens` serves the
IMAP reader and the sender (thread-safe). When the provider answers with a
new refresh token (Microsoft rotates them) the file is rewritten — fsynced,
atomically — before the new access token is handed out, so a judge stopped
at any moment keeps a refresh token that works.

The token file (JSON): ``refresh_token``, ``client_id``, ``client_secret``
(Google's desktop clients; "" for Microsoft's public clients),
``token_url``, ``scope`` (sent with each refresh; "" = none),
``provider``, ``username`` (the account authorised), ``obtained`` and
``rotated`` (UTC ISO times).

Errors: :class:`AuthorizationError` — the provider refused the refresh
token or the client (revoked, expired, consent withdrawn, a wrong client
id): only a new ``judge mail authorize`` helps; :class:`ProviderUnreachable`
— the token endpoint did not answer (network, 5xx): try again later.

SASL: :func:`xoauth2` (Google's and Microsoft's XOAUTH2) and
:func:`oauthbearer` (RFC 7628 OAUTHBEARER) build the initial responses.
"""

from __future__ import annotations

import json
import os
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable


class AuthorizationError(Exception):
    """The provider refused the refresh token or the client; ``answer`` is what it said."""

    def __init__(self, answer: str):
        super().__init__(answer)
        self.answer = answer


class ProviderUnreachable(Exception):
    """The token endpoint could not be asked (network error, timeout, 5xx)."""


def _utc() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


# ---- the token file ---------------------------------------------------------------
def read_token(path: Path) -> dict | None:
    """The token file's document, or None if there is none. Raises
    AuthorizationError for a file that cannot be read or parsed."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise AuthorizationError(f"the token file {path} cannot be read: {e}") from None
    if not isinstance(doc, dict) or not doc.get("refresh_token"):
        raise AuthorizationError(f"the token file {path} holds no refresh token")
    return doc


def write_token(path: Path, doc: dict) -> None:
    """Write ``doc`` to the token file: a new file of mode 0600 (in a folder
    of mode 0700), fsynced and renamed over the old one, the folder fsynced.
    Run as root (``sudo judge mail authorize``, ``judge check``), the folder
    and the file go to the data folder's owner: the judge's service user
    must read them. Raises OSError."""
    path = Path(path)
    folder = path.parent
    made = not folder.exists()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    owner = os.stat(folder.parent) if os.geteuid() == 0 else None
    if made and owner is not None:
        os.chown(folder, owner.st_uid, owner.st_gid)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        if owner is not None:
            os.fchown(fd, owner.st_uid, owner.st_gid)
        os.write(fd, json.dumps(doc, indent=1, sort_keys=True).encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


# ---- the token endpoint -------------------------------------------------------------
def post_form(url: str, form: dict, *, cafile: str = "", timeout: float = 20.0) -> dict:
    """POST ``form`` (urlencoded) to the token endpoint ``url``; its JSON
    answer. Raises AuthorizationError for a 4xx answer (``error`` and
    ``error_description`` in the message), ProviderUnreachable otherwise."""
    data = urllib.parse.urlencode({k: v for k, v in form.items() if v}).encode()
    request = urllib.request.Request(url, data=data, headers={"Accept": "application/json"})
    context = ssl.create_default_context(cafile=cafile or None) if url.startswith("https:") else None
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as answer:
            return json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        try:
            body = json.loads(e.read().decode("utf-8"))
        except (ValueError, OSError):
            body = {}
        said = ": ".join(str(x) for x in (body.get("error"), body.get("error_description")) if x) \
            or f"HTTP {e.code} {e.reason}"
        if 400 <= e.code < 500:
            raise AuthorizationError(said) from None
        raise ProviderUnreachable(f"{url}: {said}") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", e)
        raise ProviderUnreachable(f"{url}: {reason}") from None


class Tokens:
    """Access tokens from the refresh token in ``path`` (see module doc).
    ``token_url``, ``client_id``: the config's (they win over the file's);
    ``client_secret``: from the environment, else the file's; ``margin``:
    seconds before the end of an access token that a new one is fetched."""

    def __init__(self, path: Path, *, token_url: str, client_id: str, client_secret: str = "",
                 cafile: str = "", margin: float = 300.0, timeout: float = 20.0,
                 clock: Callable[[], float] = time.time):
        self.path, self.token_url, self.client_id = Path(path), token_url, client_id
        self.client_secret, self.cafile, self.margin, self.timeout = client_secret, cafile, margin, timeout
        self.clock = clock
        self._lock = threading.Lock()
        self._access = ""
        self._expires = 0.0
        self.refreshed_at = 0.0          # clock() of the last refresh (0: none yet)
        self.rotations = 0               # refresh tokens replaced by the provider since the start

    @classmethod
    def from_config(cls, cfg) -> "Tokens":
        """The judge's tokens for the config ``cfg`` (:class:`judge.config.Config`)."""
        o = cfg.oauth2
        return cls(cfg.token_path, token_url=cfg.oauth2_endpoints()["token_url"], client_id=o.client_id,
                   client_secret=os.environ.get(o.client_secret_env, ""), cafile=o.cafile,
                   margin=o.refresh_margin)

    @property
    def expires(self) -> float:
        """clock() time the current access token ends (0: none)."""
        return self._expires

    def access_token(self) -> str:
        """A valid access token, refreshed first when it ends within the
        margin. Raises AuthorizationError, ProviderUnreachable."""
        with self._lock:
            if self._access and self.clock() < self._expires - self.margin:
                return self._access
            return self._refresh()

    def renew(self, refused: str) -> str:
        """A new access token: the server refused ``refused`` (revoked early,
        or cut short): unless another thread renewed it meanwhile, ask again."""
        with self._lock:
            if self._access and self._access != refused and self.clock() < self._expires - self.margin:
                return self._access
            return self._refresh()

    def _refresh(self) -> str:
        doc = read_token(self.path)
        if doc is None:
            raise AuthorizationError(f"no OAuth2 token yet ({self.path} does not exist)")
        client_id = self.client_id or doc.get("client_id", "")
        if doc.get("client_id") and client_id != doc["client_id"]:
            raise AuthorizationError(f"the token was authorised for the client {doc['client_id']}, "
                                     f"the config names {client_id}")
        answer = post_form(self.token_url or doc.get("token_url", ""), {
            "grant_type": "refresh_token", "refresh_token": doc["refresh_token"], "client_id": client_id,
            "client_secret": self.client_secret or doc.get("client_secret", ""), "scope": doc.get("scope", "")},
            cafile=self.cafile, timeout=self.timeout)
        token = answer.get("access_token")
        if not isinstance(token, str) or not token:
            raise AuthorizationError(f"the token endpoint answered without an access token: {sorted(answer)}")
        rotated = answer.get("refresh_token")
        if isinstance(rotated, str) and rotated and rotated != doc["refresh_token"]:
            write_token(self.path, dict(doc, refresh_token=rotated, rotated=_utc()))   # before it is used
            self.rotations += 1
        try:
            lifetime = float(answer.get("expires_in", 3600))
        except (TypeError, ValueError):
            lifetime = 3600.0
        now = self.clock()
        self._access, self._expires, self.refreshed_at = token, now + lifetime, now
        return token


# ---- SASL initial responses ------------------------------------------------------------
def xoauth2(user: str, token: str) -> str:
    """The XOAUTH2 initial response (before base64)."""
    return f"user={user}\x01auth=Bearer {token}\x01\x01"


def oauthbearer(user: str, token: str, host: str, port: int) -> str:
    """The OAUTHBEARER initial response (RFC 7628 §3.1, before base64)."""
    authzid = user.replace("=", "=3D").replace(",", "=2C")
    return f"n,a={authzid},\x01host={host}\x01port={port}\x01auth=Bearer {token}\x01\x01"
