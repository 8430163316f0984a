"""``judge mail authorize``: get the judge its OAuth2 refresh token, once.

- Microsoft (``provider = "microsoft"``): the device-code flow with
  :mod:`msal`. The command prints an address and a code; the keeper opens
  the address in any browser, on any machine, enters the code, signs in as
  the judge's mailbox and allows access; the command waits for that (up to
  the code's lifetime, about 15 minutes).
- Gmail (``provider = "gmail"``): Google's installed-app flow with
  :mod:`google_auth_oauthlib` (Google's device flow does not allow the
  Gmail scope). The command prints an address; the keeper opens it, signs
  in and allows access; the browser is then sent to
  ``http://127.0.0.1:PORT/`` — on the judge's machine the command takes it
  at once; from another machine the page does not load, and the keeper
  pastes the address the browser shows into the command (or forwards the
  port with ``ssh -L PORT:127.0.0.1:PORT``).
- Any provider: ``refresh_token`` given (``--refresh-token-stdin``): a
  refresh token got elsewhere.

The refresh token is tried once (a refresh) before it is kept; it is
written to the data folder's token file (:func:`judge.mail.oauth2.write_token`,
mode 0600, owned by the data folder's owner even when the command runs as
root: the service's user must read it). A running judge takes it at its next
login attempt.
"""

from __future__ import annotations

import os
import queue
import select
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from .oauth2 import AuthorizationError, Tokens, write_token


class AuthorizeError(Exception):
    """The authorisation did not give a refresh token; the message says why and what to do."""


def authorize(cfg, *, out: Callable[[str], None] = print, stdin=None,
              refresh_token: str | None = None, port: int = 0, timeout: float = 900.0) -> dict:
    """Get and keep the judge's refresh token for ``cfg`` (see module doc);
    the token file's document. ``out`` prints a line for the keeper;
    ``stdin``: where a pasted address may come from (a file with a
    descriptor, or None); ``port``: the loopback port of Google's redirect
    (0: any free one). Raises AuthorizeError."""
    if not cfg.uses_oauth2:
        raise AuthorizeError("no server in the config has auth = \"oauth2\"; nothing to authorise")
    provider = cfg.oauth2_provider()
    ends = cfg.oauth2_endpoints()
    o = cfg.oauth2
    secret = os.environ.get(o.client_secret_env, "")
    username = next(s.username for _n, s in cfg.logins() if s.auth == "oauth2")
    scope = " ".join(ends["scopes"])
    if refresh_token is not None:
        token, got_as = refresh_token.strip(), ""
        if not token:
            raise AuthorizeError("no refresh token given on standard input")
    elif provider is None:
        raise AuthorizeError("without a provider preset the judge cannot run the sign-in itself: get a refresh "
                             "token from your provider and give it with --refresh-token-stdin")
    elif provider.flow == "device":
        token, got_as = _device_flow(cfg, ends, username, out, timeout)
        scope = " ".join(ends["scopes"] + ["offline_access"])
    else:
        if not secret:
            raise AuthorizeError(f"Google's desktop clients have a client secret: set the environment variable "
                                 f"{o.client_secret_env} to it (from the client's JSON file)")
        token, got_as = _installed_flow(cfg, ends, username, secret, out, stdin, port, timeout)
        scope = ""
    doc = {"refresh_token": token, "client_id": o.client_id, "client_secret": secret,
           "token_url": ends["token_url"], "scope": scope, "provider": provider.name if provider else "",
           "username": username, "signed_in_as": got_as,
           "obtained": datetime.now(timezone.utc).replace(microsecond=0).isoformat()}
    path = cfg.token_path
    trial = path.with_name("token.trial.json")
    write_token(trial, doc)
    try:
        tokens = Tokens(trial, token_url=ends["token_url"], client_id=o.client_id, client_secret=secret,
                        cafile=o.cafile)
        tokens.access_token()
        doc = dict(doc, refresh_token=_read_refresh(trial))     # rotated by that first refresh, maybe
    except AuthorizationError as e:
        raise AuthorizeError(f"the provider gave a refresh token but refused it at once: {e.answer}") from None
    except Exception as e:  # noqa: BLE001 - ProviderUnreachable and the like: say it
        raise AuthorizeError(f"the refresh token could not be tried: {e}") from None
    finally:
        trial.unlink(missing_ok=True)
    write_token(path, doc)
    if got_as and got_as.lower() != username.lower():
        out(f"Note: you signed in as {got_as}, but the config logs in as {username}: the server will refuse "
            f"the token unless {got_as} may use that mailbox.")
    return doc


def _read_refresh(path) -> str:
    from .oauth2 import read_token
    return read_token(path)["refresh_token"]


def _session(cafile: str):
    """msal's HTTP client: every request verified with ``cafile`` when given
    (passed with each request: requests lets $REQUESTS_CA_BUNDLE win over a
    session's ``verify``), with a timeout."""
    import functools

    import requests
    session = requests.Session()
    session.request = functools.partial(session.request, timeout=30, **({"verify": cafile} if cafile else {}))
    return session


def _device_flow(cfg, ends: dict, username: str, out, timeout: float) -> tuple[str, str]:
    """Microsoft's device-code flow (msal): ``(refresh token, account signed in)``."""
    import msal
    o = cfg.oauth2
    known = not o.authority                       # Microsoft's own: msal may check it against its list
    try:
        app = msal.PublicClientApplication(o.client_id, authority=ends["authority"],
                                           http_client=_session(o.cafile),
                                           instance_discovery=None if known else False,
                                           validate_authority=known)
        flow = app.initiate_device_flow(scopes=ends["scopes"])
    except (ValueError, OSError) as e:
        raise AuthorizeError(f"cannot reach Microsoft's sign-in service at {ends['authority']}: {e}") from None
    if "user_code" not in flow:
        raise AuthorizeError(f"Microsoft refused to start the sign-in: {_said(flow)} (check [oauth2] client_id, "
                             f"tenant, and that the app registration allows public client flows)")
    out(f"Sign the judge in as {username}:")
    out(f"  1. open {flow['verification_uri']} in a browser (on any machine)")
    out(f"  2. enter the code {flow['user_code']}")
    out("  3. sign in as the judge's mailbox and allow access")
    out(f"Waiting (the code works for {int(flow.get('expires_in', timeout)) // 60} minutes) ...")
    result = app.acquire_token_by_device_flow(flow)
    if "refresh_token" not in result:
        raise AuthorizeError(f"the sign-in did not finish: {_said(result)}")
    claims = result.get("id_token_claims") or {}
    return result["refresh_token"], claims.get("preferred_username") or claims.get("email") or ""


def _said(answer: dict) -> str:
    return ": ".join(str(answer[k]) for k in ("error", "error_description") if answer.get(k)) or str(answer)


def _installed_flow(cfg, ends: dict, username: str, secret: str, out, stdin, port: int,
                    timeout: float) -> tuple[str, str]:
    """Google's installed-app flow with a loopback redirect: ``(refresh token, "")``."""
    from google_auth_oauthlib.flow import Flow
    os.environ.setdefault("OAUTHLIB_RELAX_TOKEN_SCOPE", "1")    # Google may answer with scopes in another order
    o = cfg.oauth2
    answers: queue.Queue = queue.Queue()
    server = _redirect_server(port, answers)
    redirect = f"http://127.0.0.1:{server.server_address[1]}/"
    threading.Thread(target=server.serve_forever, name="judge-authorize-redirect", daemon=True).start()
    try:
        flow = Flow.from_client_config(
            {"installed": {"client_id": o.client_id, "client_secret": secret, "auth_uri": ends["auth_url"],
                           "token_uri": ends["token_url"], "redirect_uris": [redirect]}},
            scopes=ends["scopes"], redirect_uri=redirect)
        url, state = flow.authorization_url(access_type="offline", prompt="consent", login_hint=username)
        out(f"Sign the judge in as {username}:")
        out("  1. open this address in a browser:")
        out(f"     {url}")
        out("  2. sign in as the judge's mailbox and allow access")
        out(f"  3. the browser is then sent to {redirect} : on this machine the judge takes it by itself;")
        out("     elsewhere that page does not load: copy the address it shows and paste it here")
        out("Waiting ...")

        reply = _wait(answers, stdin, timeout)
        query = parse_qs(urlsplit(reply.strip()).query)
        if query.get("error"):
            raise AuthorizeError(f"Google refused: {query['error'][0]}")
        if query.get("state", [""])[0] != state or not query.get("code"):
            raise AuthorizeError("that address is not the answer to this sign-in (no code, or another state)")
        try:
            flow.fetch_token(code=query["code"][0], **({"verify": o.cafile} if o.cafile else {}))
        except Exception as e:  # noqa: BLE001 - oauthlib's errors: say what Google said
            raise AuthorizeError(f"Google did not give a token for the code: {e}") from None
        token = flow.credentials.refresh_token
        if not token:
            raise AuthorizeError("Google gave no refresh token (remove the judge's access at "
                                 "https://myaccount.google.com/permissions and authorise again)")
        return token, ""
    finally:
        server.shutdown()
        server.server_close()


def _wait(answers: queue.Queue, stdin, timeout: float) -> str:
    """The browser's answer: from the loopback server, or a line pasted on
    ``stdin`` (watched with select, so no thread is left blocked reading it)."""
    end = time.monotonic() + timeout
    watch = stdin is not None
    while time.monotonic() < end:
        try:
            return answers.get(timeout=0.2)
        except queue.Empty:
            pass
        if watch:
            try:
                ready = select.select([stdin], [], [], 0)[0]
            except (OSError, ValueError, TypeError):      # not a file with a descriptor
                watch = False
                continue
            if ready:
                line = stdin.readline()
                if line.strip():
                    return line
                if not line:                              # end of input: only the browser now
                    watch = False
    raise AuthorizeError(f"no answer from the browser within {timeout:.0f} s")


def _redirect_server(port: int, answers: queue.Queue) -> HTTPServer:
    class Redirected(BaseHTTPRequestHandler):
        def do_GET(self):
            if "code=" not in self.path and "error=" not in self.path:
                self.send_error(404)
                return
            answers.put(f"http://127.0.0.1{self.path}")
            body = b"The judge has the answer; you may close this page.\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    try:
        return HTTPServer(("127.0.0.1", port), Redirected)
    except OSError as e:
        raise AuthorizeError(f"cannot listen on 127.0.0.1:{port} for the browser's answer: {e.strerror or e}") \
            from None
