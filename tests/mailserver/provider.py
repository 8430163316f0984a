"""A loopback stand-in for a mail provider's OAuth2 service — the one mock the
mail tests allow (a provider's token endpoint cannot run here).

:class:`Provider` serves, over HTTP and (with a certificate) HTTPS on
127.0.0.1, free ports:

- ``POST /token``: the token endpoint (RFC 6749): ``refresh_token`` (a new
  access token; with :attr:`Provider.rotate` a new refresh token too),
  ``authorization_code`` (Google's installed-app flow) and the device-code
  grant (:attr:`Provider.pending` answers ``authorization_pending`` first);
  ``invalid_grant`` for a refresh token it did not issue or revoked;
- ``POST /introspect``: RFC 7662 token introspection, which Dovecot's
  ``oauth2`` passdb asks (``{"active": true, "username": ...}``);
- Microsoft's ``/TENANT/v2.0/.well-known/openid-configuration`` and
  ``/TENANT/oauth2/v2.0/devicecode`` (for msal), and Google's ``/auth``
  (sends the browser back to the ``redirect_uri`` with a code).

It records what happened (:attr:`Provider.log`) and, at each introspection,
what the judge's token file held (:attr:`Provider.file_at_use`), so a test
can see that a rotated refresh token was saved before its access token was used.

:class:`SmtpOAuthSink`: an aiosmtpd server that takes ``AUTH XOAUTH2`` and
``AUTH OAUTHBEARER`` only, checking each token with the provider.
"""

from __future__ import annotations

import base64
import json
import ssl
import subprocess
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

from aiosmtpd.smtp import AuthResult

from .harness import SmtpSink, _SinkHandler


def make_cert(folder: Path) -> tuple[str, str]:
    """A self-signed certificate for 127.0.0.1 and localhost: (cert, key) paths."""
    cert, key = folder / "provider-cert.pem", folder / "provider-key.pem"
    if not cert.exists():
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30",
                        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                        "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return str(cert), str(key)


class Provider:
    """See module doc. ``user``: the account the tokens are for;
    ``lifetime``: seconds an access token lives; ``token_file``: the judge's
    token file (read at each introspection)."""

    def __init__(self, *, user: str = "judge", lifetime: int = 3600, cert: tuple[str, str] | None = None,
                 token_file: Path | None = None):
        self.user, self.lifetime, self.token_file = user, lifetime, token_file
        self.lock = threading.Lock()
        self.refresh_tokens: set[str] = set()
        self.access: dict[str, float] = {}          # access token -> end (time.time())
        self.by_access: dict[str, str] = {}         # access token -> the refresh token it came from
        self.codes: dict[str, str] = {}             # authorization code -> redirect_uri
        self.devices: dict[str, int] = {}           # device code -> pending answers left
        self.rotate = False
        self.pending = 1
        self.log: list[tuple[str, dict]] = []
        self.file_at_use: list[tuple[str, str]] = []  # (access token introspected, refresh token in the file)
        handler = self._handler()
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.https = None
        if cert:
            self.https = ThreadingHTTPServer(("127.0.0.1", 0), handler)
            ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ctx.load_cert_chain(*cert)
            self.https.socket = ctx.wrap_socket(self.https.socket, server_side=True)
        self.cafile = cert[0] if cert else ""

    # ---- addresses ---------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}"

    @property
    def https_url(self) -> str:
        return f"https://127.0.0.1:{self.https.server_address[1]}"

    def __enter__(self):
        for server in (self.http, self.https):
            if server is not None:
                threading.Thread(target=server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        for server in (self.http, self.https):
            if server is not None:
                server.shutdown()
                server.server_close()

    # ---- what a test does --------------------------------------------------------------
    def issue_refresh_token(self) -> str:
        token = "rt-" + uuid.uuid4().hex
        with self.lock:
            self.refresh_tokens.add(token)
        return token

    def revoke(self) -> None:
        """Every refresh and access token stops working (the keeper withdrew consent)."""
        with self.lock:
            self.refresh_tokens.clear()
            self.access.clear()

    def active(self, token: str, user: str | None = None) -> bool:
        with self.lock:
            end = self.access.get(token)
        return end is not None and end > time.time() and (user is None or user == self.user)

    def grants(self, kind: str) -> list[dict]:
        return [form for k, form in self.log if k == kind]

    # ---- the endpoints -------------------------------------------------------------------
    def _tokens(self, refresh: str | None = None) -> dict:
        access = "at-" + uuid.uuid4().hex
        with self.lock:
            if refresh is None or self.rotate:
                if refresh is not None:
                    self.refresh_tokens.discard(refresh)
                refresh = "rt-" + uuid.uuid4().hex
                self.refresh_tokens.add(refresh)
            self.access[access] = time.time() + self.lifetime
            self.by_access[access] = refresh
        answer = {"access_token": access, "token_type": "Bearer", "expires_in": self.lifetime,
                  "scope": "mail", "refresh_token": refresh}
        if self.user:           # msal wants an id_token with the account
            claims = {"preferred_username": self.user, "sub": "judge", "oid": "judge", "tid": "tenant",
                      "iss": "https://127.0.0.1/tenant/v2.0", "aud": "client", "exp": int(time.time()) + 3600,
                      "iat": int(time.time())}
            seg = (lambda d: base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("="))
            answer["id_token"] = f"{seg({'alg': 'none'})}.{seg(claims)}."
            answer["client_info"] = seg({"uid": "judge", "utid": "tenant"})
        return answer

    def _token(self, form: dict) -> tuple[int, dict]:
        grant = form.get("grant_type", "")
        self.log.append(("token:" + grant.rsplit(":", 1)[-1], form))
        if grant == "refresh_token":
            with self.lock:
                known = form.get("refresh_token") in self.refresh_tokens
            if not known:
                return 400, {"error": "invalid_grant", "error_description": "the refresh token was revoked"}
            return 200, self._tokens(form["refresh_token"])
        if grant == "authorization_code":
            if form.get("code") not in self.codes:
                return 400, {"error": "invalid_grant", "error_description": "unknown code"}
            self.codes.pop(form["code"])
            return 200, self._tokens()
        if grant.endswith("device_code"):
            code = form.get("device_code", "")
            if code not in self.devices:
                return 400, {"error": "expired_token"}
            if self.devices[code] > 0:
                self.devices[code] -= 1
                return 400, {"error": "authorization_pending", "error_description": "waiting for the user"}
            self.devices.pop(code)
            return 200, self._tokens()
        return 400, {"error": "unsupported_grant_type"}

    def _introspect(self, form: dict) -> dict:
        token = form.get("token", "")
        self.log.append(("introspect", form))
        if self.token_file is not None and self.token_file.exists():
            held = json.loads(self.token_file.read_text()).get("refresh_token", "")
            self.file_at_use.append((token, held))
        return {"active": True, "username": self.user} if self.active(token) else {"active": False}

    def _handler(self):
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def _json(self, code: int, doc: dict) -> None:
                body = json.dumps(doc).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                if self.headers.get("Authorization", "").startswith("Basic "):     # client_secret_basic
                    who = base64.b64decode(self.headers["Authorization"][6:]).decode()
                    form.setdefault("client_id", who.split(":", 1)[0])
                    form.setdefault("client_secret", who.split(":", 1)[1])
                path = urlsplit(self.path).path
                if path.endswith("/token"):
                    self._json(*provider._token(form))
                elif path == "/introspect":
                    self._json(200, provider._introspect(form))
                elif path.endswith("/devicecode"):
                    code = uuid.uuid4().hex
                    provider.devices[code] = provider.pending
                    provider.log.append(("devicecode", form))
                    self._json(200, {"device_code": code, "user_code": "JUDGE-" + code[:4].upper(),
                                     "verification_uri": f"{provider.https_url}/devicelogin",
                                     "expires_in": 900, "interval": 1,
                                     "message": "enter the code"})
                else:
                    self._json(404, {"error": "not_found"})

            def do_GET(self):
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                if url.path.endswith("/.well-known/openid-configuration"):
                    base = provider.https_url + url.path.split("/v2.0/")[0]
                    self._json(200, {"authorization_endpoint": base + "/oauth2/v2.0/authorize",
                                     "token_endpoint": base + "/oauth2/v2.0/token",
                                     "device_authorization_endpoint": base + "/oauth2/v2.0/devicecode",
                                     "issuer": base + "/v2.0"})
                elif url.path == "/auth":
                    provider.log.append(("auth", query))
                    code = uuid.uuid4().hex
                    provider.codes[code] = query.get("redirect_uri", "")
                    self.send_response(302)
                    self.send_header("Location", query["redirect_uri"] + "?"
                                     + urlencode({"code": code, "state": query.get("state", "")}))
                    self.end_headers()
                else:
                    self._json(404, {"error": "not_found"})

            def log_message(self, *args):
                pass

        return Handler


class _OAuthHandler(_SinkHandler):
    async def _bearer(self, server, args, mechanism: str) -> AuthResult:
        blob = base64.b64decode(args[1]) if len(args) > 1 else await server.challenge_auth("")
        fields = dict(part.split("=", 1) for part in blob.decode().split("\x01") if "=" in part)
        user = fields.get("user") or blob.decode().split(",")[1].removeprefix("a=")
        token = fields.get("auth", "").removeprefix("Bearer ")
        ok = self.sink.provider.active(token, user)
        self.sink.auths.append((mechanism, user, ok))
        if ok:
            return AuthResult(success=True, handled=False, auth_data=user)
        await server.challenge_auth(json.dumps({"status": "401", "schemes": "bearer"}))
        return AuthResult(success=False, handled=False)

    async def auth_XOAUTH2(self, server, args):
        return await self._bearer(server, args, "XOAUTH2")

    async def auth_OAUTHBEARER(self, server, args):
        return await self._bearer(server, args, "OAUTHBEARER")


class SmtpOAuthSink(SmtpSink):
    """An SMTP sink that takes only OAuth2 logins (``offer``: XOAUTH2,
    OAUTHBEARER), each token checked with ``provider``; ``auths``:
    (mechanism, user, ok). AUTH without TLS (aiosmtpd warns): loopback only."""

    def __init__(self, provider: Provider, offer: tuple[str, ...] = ("XOAUTH2", "OAUTHBEARER")):
        super().__init__()
        self.provider, self.auths, self.offer = provider, [], offer
        self.controller = self._controller()

    def _controller(self):
        from aiosmtpd.controller import Controller
        hidden = [m for m in ("LOGIN", "PLAIN", "XOAUTH2", "OAUTHBEARER") if m not in self.offer]
        return Controller(_OAuthHandler(self), hostname="127.0.0.1", port=self.port, auth_required=True,
                          auth_require_tls=False, auth_exclude_mechanism=hidden)

    def restart(self) -> None:
        """Stop and start again on the same port: every client's connection drops."""
        self.controller.stop()
        self.controller = self._controller()
        self.controller.start()
