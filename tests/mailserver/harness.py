"""Real mail servers and a real judge daemon for the mail tests and the benchmark.

- :func:`start_dovecot` runs ``tests/mailserver/start.sh`` (Dovecot on
  127.0.0.1, free ports, a temporary folder) and returns a :class:`Dovecot`.
  :func:`dovecot_missing` says why it cannot run here; in CI (``CI=true``) a
  missing Dovecot is a failure, elsewhere a skip.
- :class:`SmtpSink`: an aiosmtpd server on 127.0.0.1 that keeps every message
  (optionally STARTTLS and AUTH), standing in for the outside world's MTAs.
- :class:`DaemonProcess`: ``judge serve --config FILE`` in a subprocess, so a
  test can SIGKILL it (``JUDGE_FAULT``) and start it again.
"""

from __future__ import annotations

import email
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from email import policy
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
IMAP_USER, IMAP_PASSWORD = "judge", "judgepw"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float = 15.0, interval: float = 0.05, what: str = "condition"):
    """Poll ``predicate`` until it returns a true value (returned); AssertionError on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


# ---- Dovecot ----------------------------------------------------------------------
def dovecot_missing() -> str | None:
    """Why Dovecot cannot be started here, or None."""
    if shutil.which("dovecot") is None:
        return "dovecot is not installed (run tests/mailserver/install.sh as root)"
    if os.geteuid() != 0:
        return "Dovecot's test instance must be started as root"
    return None


@dataclass
class Dovecot:
    base: Path
    host: str
    port: int          # plain IMAP with STARTTLS
    ssl_port: int      # implicit TLS
    cafile: str
    owned: bool = True  # started by us (stopped by us)

    def stop(self) -> None:
        if not self.owned:
            return
        subprocess.run([str(HERE / "stop.sh"), "--clean"], env=dict(os.environ, MAIL_BASE=str(self.base)),
                       check=False, capture_output=True)


def running_dovecot(base: Path | None = None) -> Dovecot | None:
    """The instance ``tests/run`` started (its folder in ``$MAIL_BASE``, else
    ``start.sh``'s default), if it answers."""
    base = base or Path(os.environ.get("MAIL_BASE") or "/tmp/judge-dovecot")
    try:
        env = dict(line.split("=", 1) for line in (base / "env").read_text().splitlines() if "=" in line)
        os.kill(int(env["DOVECOT_PID"]), 0)
        with socket.create_connection((env["IMAP_HOST"], int(env["IMAP_PORT"])), timeout=2) as sock:
            if not sock.recv(100).startswith(b"* OK"):
                return None
        if f"{IMAP_USER}:{{PLAIN}}{IMAP_PASSWORD}:" not in (base / "users").read_text():
            return None
    except (OSError, KeyError, ValueError):
        return None
    return Dovecot(base, env["IMAP_HOST"], int(env["IMAP_PORT"]), int(env["IMAPS_PORT"]),
                   env["IMAP_CAFILE"], owned=False)


def start_dovecot(*, oauth2: str = "", mechanisms: str = "", failure_delay: float = 0) -> Dovecot:
    """A Dovecot of its own (free ports, a new folder); ``oauth2``: the token
    introspection URL that switches OAuth2 logins on (XOAUTH2, OAUTHBEARER);
    ``mechanisms``: the SASL mechanisms it offers (default: start.sh's);
    ``failure_delay``: seconds before a refused login is answered."""
    base = Path(tempfile.mkdtemp(prefix="jdove-", dir="/tmp"))
    port, ssl_port = free_port(), free_port()
    env = dict(os.environ, MAIL_BASE=str(base), IMAP_PORT=str(port), IMAPS_PORT=str(ssl_port),
               MAIL_USERS=f"{IMAP_USER}:{IMAP_PASSWORD}", OAUTH2_INTROSPECTION_URL=oauth2,
               AUTH_MECHANISMS=mechanisms, AUTH_FAILURE_DELAY=f"{failure_delay:g}")
    done = subprocess.run([str(HERE / "start.sh")], env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"start.sh failed: {done.stderr}{done.stdout}")
    return Dovecot(base, "127.0.0.1", port, ssl_port, str(base / "tls" / "cert.pem"))


def imap_client(dv: Dovecot):
    from imapclient import IMAPClient
    c = IMAPClient(dv.host, port=dv.port, ssl=False, timeout=10)
    c.login(IMAP_USER, IMAP_PASSWORD)
    return c


# ---- SMTP sink --------------------------------------------------------------------
class _SinkHandler:
    def __init__(self, sink: "SmtpSink"):
        self.sink = sink

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.original_content, policy=policy.default)
        with self.sink.lock:
            self.sink.messages.append((time.time(), envelope.mail_from, list(envelope.rcpt_tos), msg))
        return "250 OK"


class SmtpSink:
    """aiosmtpd on 127.0.0.1:port keeping (time, mail_from, rcpt_tos, EmailMessage)."""

    def __init__(self, *, tls_cert: tuple[str, str] | None = None, auth: tuple[str, str] | None = None):
        self.messages: list = []
        self.lock = threading.Lock()
        self.port = free_port()
        kwargs = {}
        if tls_cert:
            ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ctx.load_cert_chain(*tls_cert)
            kwargs.update(tls_context=ctx, require_starttls=True)
        if auth:
            def authenticator(server, session, envelope, mechanism, data):
                ok = data.login.decode() == auth[0] and data.password.decode() == auth[1]
                return AuthResult(success=ok, handled=False)    # handled=False: aiosmtpd answers 535
            kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(tls_cert))
        self.controller = Controller(_SinkHandler(self), hostname="127.0.0.1", port=self.port, **kwargs)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()

    def bodies(self) -> list:
        with self.lock:
            return [m for _, _, _, m in self.messages]


# ---- the daemon as a process ------------------------------------------------------
def write_config(path: Path, data_dir: Path, *, inbound: dict, outbound: dict, extra: str = "") -> Path:
    """A judge config at ``path``: ``inbound``/``outbound`` are the TOML tables
    (``{"transport": "imap", "imap": {...}}``)."""
    def table(name: str, d: dict) -> str:
        flat = {k: v for k, v in d.items() if not isinstance(v, dict)}
        out = f"[{name}]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in flat.items())
        for k, v in d.items():
            if isinstance(v, dict):
                out += table(f"{name}.{k}", v)
        return out
    text = (f"[judge]\naddress = \"judge@example.test\"\nkeeper = \"keeper@example.test\"\n"
            f"data_dir = {_toml(str(data_dir))}\n[worker]\nretry_delay = 0.2\n"
            f"[log]\nlevel = \"DEBUG\"\nfile = {_toml(str(data_dir.parent / 'judge.log'))}\n"
            + table("inbound", inbound) + table("outbound", outbound) + extra)
    path.write_text(text, encoding="utf-8")
    return path


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


class DaemonProcess:
    """``judge serve --config`` as a subprocess (see module doc)."""

    def __init__(self, config: Path, *, fault: str | None = None, env: dict | None = None):
        self.config = config
        full_env = dict(os.environ, JUDGE_IMAP_PASSWORD=IMAP_PASSWORD, PYTHONUNBUFFERED="1", **(env or {}))
        full_env.pop("JUDGE_FAULT", None)
        if fault:
            full_env["JUDGE_FAULT"] = fault
        self.out = open(config.with_suffix(".out"), "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "judge.cli", "serve", "--config", str(config)],
                                     stdout=self.out, stderr=subprocess.STDOUT, env=full_env, cwd=REPO)

    def wait_ready(self, log: Path, marker: str, count: int = 1, timeout: float = 20.0) -> None:
        """Wait until ``marker`` appears ``count`` times in the daemon's log."""
        def ready():
            if self.proc.poll() is not None:
                raise AssertionError(f"daemon exited with {self.proc.returncode}: "
                                     + self.config.with_suffix(".out").read_text(errors="replace"))
            return log.exists() and log.read_text(errors="replace").count(marker) >= count
        wait_for(ready, timeout, what=f"{marker!r} x{count} in {log}")

    def wait_killed(self, timeout: float = 20.0) -> int:
        """Wait for the process to die (by its own JUDGE_FAULT); returns the signal/exit code."""
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self.out.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.out.close()


# ---- pytest fixtures (import them into a test module to use them) ----------------------
import pytest  # noqa: E402


def require(why: str | None, what: str) -> None:
    """Skip the test when ``why`` says ``what`` cannot run here, except in CI
    (``CI=true``), where that is a failure."""
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs {what} for this test: {why}")
        pytest.skip(why)


@pytest.fixture(scope="session")
def dovecot():
    """A running Dovecot (see :func:`start_dovecot`); skipped where it cannot run,
    except in CI (``CI=true``), where that is a failure."""
    require(dovecot_missing(), "Dovecot")
    dv = running_dovecot() or start_dovecot()
    yield dv
    dv.stop()


@pytest.fixture
def imap_folder(dovecot, request):
    """A fresh IMAP folder of user judge, named after the test and this process
    (two test runs sharing one Dovecot must not read each other's mail)."""
    name = f"t{os.getpid()}-" + "".join(c if c.isalnum() else "-" for c in request.node.name)[:54]
    with imap_client(dovecot) as c:
        if c.folder_exists(name):
            c.delete_folder(name)
        c.create_folder(name)
    return name
