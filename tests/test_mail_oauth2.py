"""OAuth2 logins against real servers (issue 21): Dovecot's ``oauth2`` passdb
asking a token-introspection endpoint on loopback, and aiosmtpd taking
``AUTH XOAUTH2`` / ``OAUTHBEARER``; the provider's token endpoint is the
loopback stand-in of tests/mailserver/provider.py (the one mock allowed).

Access tokens are refreshed before they end, a rotated refresh token is in
the token file before its access token reaches a server, the token file is
mode 0600 and never in the config; a judge whose IMAP or SMTP authorisation
is withdrawn keeps its spool and its outgoing mail, tells the keeper through
the transport that still works (with the command that fixes it), and goes on
by itself once ``judge mail authorize`` has run again."""

from __future__ import annotations

import email
import json
import os
import stat
import subprocess
import sys
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from storeview import tables
from mailserver.harness import (
    REPO, DaemonProcess, SmtpSink, dovecot_missing, imap_client, require, start_dovecot, wait_for, write_config,
)
from mailserver.provider import Provider, SmtpOAuthSink

from judge.config import ImapInbound, SmtpOutbound
from judge.mail.inbound_imap import open_imap
from judge.mail.logins import Credentials, LoginFailed
from judge.mail.oauth2 import AuthorizationError, Tokens, write_token
from judge.mail.transport import open_smtp

pytestmark = [pytest.mark.daemon,
              pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")]
KEEPER = "keeper@example.test"


@pytest.fixture(scope="module")
def provider():
    with Provider(user="judge") as p:
        yield p


@pytest.fixture(scope="module")
def oauth_dovecot(provider):
    """Dovecot taking passwords and OAuth2 tokens (XOAUTH2, OAUTHBEARER)."""
    require(dovecot_missing(), "Dovecot")
    dv = start_dovecot(oauth2=provider.url + "/introspect")
    yield dv
    dv.stop()


def folder_on(dv, name: str) -> str:
    name = f"t{os.getpid()}-{name}"
    with imap_client(dv) as c:
        if c.folder_exists(name):
            c.delete_folder(name)
        c.create_folder(name)
    return name


def tokens_for(provider, path: Path, **kw) -> Tokens:
    write_token(path, {"refresh_token": provider.issue_refresh_token(), "client_id": "judge-test"})
    return Tokens(path, token_url=provider.url + "/token", client_id="judge-test", **kw)


def imap_settings(dv, **kw) -> ImapInbound:
    return ImapInbound(**{"host": dv.host, "port": dv.port, "security": "starttls", "cafile": dv.cafile,
                          "auth": "oauth2", "username": "judge", "timeout": 10.0, **kw})


# ---- the tokens ---------------------------------------------------------------------------
def test_an_access_token_is_refreshed_before_it_ends_and_not_before(provider, tmp_path):
    now = [1000.0]
    t = tokens_for(provider, tmp_path / "oauth2" / "token.json", margin=300, clock=lambda: now[0])
    before = len(provider.grants("token:refresh_token"))
    first = t.access_token()
    assert t.access_token() == first
    now[0] += provider.lifetime - 301                 # 301 s left: more than the margin
    assert t.access_token() == first
    assert len(provider.grants("token:refresh_token")) == before + 1
    now[0] += 2                                       # 299 s left: within the margin
    second = t.access_token()
    assert second != first and provider.active(second)
    assert len(provider.grants("token:refresh_token")) == before + 2


def test_a_rotated_refresh_token_is_kept_before_its_access_token_reaches_the_server(provider, oauth_dovecot,
                                                                                   tmp_path):
    path = tmp_path / "data" / "oauth2" / "token.json"
    t = tokens_for(provider, path)
    first = json.loads(path.read_text())["refresh_token"]
    provider.rotate, provider.token_file = True, path
    try:
        client = open_imap(Credentials("imap", imap_settings(oauth_dovecot), tokens=t))
        client.logout()
    finally:
        provider.rotate, provider.token_file = False, None
    used, held = provider.file_at_use[-1]
    assert used == t._access and held == provider.by_access[used] and held != first
    assert t.rotations == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_withdrawn_grant_is_an_authorization_error_naming_the_command(provider, oauth_dovecot, tmp_path):
    t = tokens_for(provider, tmp_path / "token.json")
    provider.revoke()
    with pytest.raises(AuthorizationError, match="invalid_grant"):
        t.access_token()
    creds = Credentials("imap", imap_settings(oauth_dovecot), tokens=t, config="/etc/judge/judge.toml")
    with pytest.raises(LoginFailed) as e:
        open_imap(creds)
    assert e.value.authorize and "judge mail authorize --config /etc/judge/judge.toml" in e.value.fix


# ---- IMAP and SMTP logins -----------------------------------------------------------------------
@pytest.mark.parametrize("offered,used", [("", "XOAUTH2"), ("plain login oauthbearer", "OAUTHBEARER")])
def test_imap_logs_in_with_xoauth2_or_with_oauthbearer_where_only_that_is_offered(provider, oauth_dovecot,
                                                                                  tmp_path, offered, used):
    dv = start_dovecot(oauth2=provider.url + "/introspect", mechanisms=offered) if offered else oauth_dovecot
    try:
        seen = []
        creds = Credentials("imap", imap_settings(dv), tokens=tokens_for(provider, tmp_path / "t.json"),
                            watch=lambda server, error: seen.append((server, error)))
        client = open_imap(creds)
        try:
            assert client.select_folder("INBOX")[b"UIDVALIDITY"]
        finally:
            client.logout()
        assert seen == [("imap", None)]
        assert provider.grants("introspect")[-1]["token"] == creds.tokens._access
    finally:
        if offered:
            dv.stop()
    with imap_client(dv if not offered else oauth_dovecot) as c:    # passwords still work beside tokens
        assert c.select_folder("INBOX")


@pytest.mark.parametrize("mech", ["XOAUTH2", "OAUTHBEARER"])
def test_smtp_logs_in_with_a_token_and_a_refused_token_names_the_fix(provider, tmp_path, mech):
    settings = SmtpOutbound(host="127.0.0.1", security="none", auth="oauth2", username="judge", timeout=10.0)
    with SmtpOAuthSink(provider, offer=(mech,)) as sink:
        settings.port = sink.port
        creds = Credentials("smtp", settings, tokens=tokens_for(provider, tmp_path / "t.json"))
        conn = open_smtp(creds)
        conn.sendmail("judge@example.test", ["p@example.test"], b"Subject: x\r\n\r\nhello\r\n")
        conn.quit()
        assert sink.auths == [(mech, "judge", True)] and len(sink.messages) == 1
        provider.revoke()
        with pytest.raises(LoginFailed) as e:
            open_smtp(Credentials("smtp", settings, tokens=creds.tokens))
    assert e.value.server == "smtp" and "invalid_grant" in e.value.answer and e.value.authorize
    assert [ok for _m, _u, ok in sink.auths] == [True, False]        # the old token, refused; then no new one


# ---- a judge on OAuth2 -------------------------------------------------------------------------
def mail(body: str, mid: str, frm: str = "player@example.org") -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "help", mid
    m.set_content(body)
    return m.as_bytes()


def oauth2_table(provider) -> str:
    return f'[oauth2]\nclient_id = "judge-test"\ntoken_url = "{provider.url}/token"\n'


def authorize(config: Path, token: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge.cli", "mail", "authorize", "--config", str(config),
                           "--refresh-token-stdin"], input=token + "\n", capture_output=True, text=True,
                          cwd=REPO, timeout=60)


def replied(sink, mid: str):
    return [m for m in sink.bodies() if m["In-Reply-To"] == mid]


def keeper_mails(sink):
    return [m for m in sink.bodies() if m["To"] == KEEPER]


def serve_and_answer_one(config: Path, dv, folder: str, sink) -> DaemonProcess:
    """``judge serve`` started, and a first mail answered."""
    daemon = DaemonProcess(config)
    try:
        daemon.wait_ready(config.parent / "judge.log", "imap: connected to")
        with imap_client(dv) as c:
            c.append(folder, mail("HELP", "<one@example.org>"))
        wait_for(lambda: replied(sink, "<one@example.org>"), 30, what="the answer to the first mail")
    except BaseException:
        daemon.stop()
        raise
    return daemon


def test_a_judge_on_oauth2_imap_tells_the_keeper_by_smtp_when_its_grant_is_withdrawn(provider, oauth_dovecot,
                                                                                    tmp_path):
    folder = folder_on(oauth_dovecot, "imap-grant")
    with SmtpSink() as sink:
        config = write_config(
            tmp_path / "judge.toml", tmp_path / "data",
            inbound={"transport": "imap", "imap": {
                "host": oauth_dovecot.host, "port": oauth_dovecot.port, "security": "starttls",
                "cafile": oauth_dovecot.cafile, "auth": "oauth2", "username": "judge", "folder": folder,
                "poll_interval": 0.3, "backoff_max": 1.0}},
            outbound={"transport": "smtp", "smtp": {"host": "127.0.0.1", "port": sink.port, "security": "none"}},
            extra=oauth2_table(provider))
        first = provider.issue_refresh_token()
        done = authorize(config, first)
        assert done.returncode == 0, done.stderr
        token_file = tmp_path / "data" / "oauth2" / "token.json"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600 and first not in config.read_text()
        daemon = serve_and_answer_one(config, oauth_dovecot, folder, sink)
        try:
            provider.revoke()                           # the keeper withdrew the judge's access
            subprocess.run(["doveadm", "-c", str(oauth_dovecot.base / "dovecot.conf"), "kick", "judge"],
                           check=True, capture_output=True)
            alarm = wait_for(lambda: keeper_mails(sink), 30, what="the keeper's mail")[0]
            body = alarm.get_content()
            assert "IMAP" in alarm["Subject"] and "invalid_grant" in body
            assert f"judge mail authorize --config {config}" in body
            with imap_client(oauth_dovecot) as c:
                c.append(folder, mail("HELP", "<two@example.org>"))

            def status():
                done = subprocess.run([sys.executable, "-m", "judge.cli", "status", "--config", str(config)],
                                      capture_output=True, text=True, cwd=REPO, timeout=60)
                return done if "login IMAP: FAILING" in done.stdout else None
            assert wait_for(status, 30, what="judge status saying so").returncode == 1

            again = authorize(config, provider.issue_refresh_token())
            assert again.returncode == 0, again.stderr
            wait_for(lambda: replied(sink, "<two@example.org>"), 30, what="the answer to the mail sent meanwhile")
            assert len(keeper_mails(sink)) == 1           # one mail for the whole run of refusals
        finally:
            daemon.stop()


def test_a_judge_whose_smtp_grant_is_withdrawn_keeps_its_answers_and_tells_the_keeper_by_imap(
        provider, oauth_dovecot, tmp_path):
    folder = folder_on(oauth_dovecot, "smtp-grant")
    with SmtpOAuthSink(provider, offer=("XOAUTH2",)) as sink:
        config = write_config(
            tmp_path / "judge.toml", tmp_path / "data",
            inbound={"transport": "imap", "imap": {
                "host": oauth_dovecot.host, "port": oauth_dovecot.port, "security": "starttls",
                "cafile": oauth_dovecot.cafile, "username": "judge", "folder": folder, "poll_interval": 0.3}},
            outbound={"transport": "smtp", "backoff_base": 0.3, "backoff_max": 2.0,
                      "smtp": {"host": "127.0.0.1", "port": sink.port, "security": "none", "auth": "oauth2",
                               "username": "judge"}},
            extra=oauth2_table(provider))
        assert authorize(config, provider.issue_refresh_token()).returncode == 0
        daemon = serve_and_answer_one(config, oauth_dovecot, folder, sink)
        try:
            assert ("XOAUTH2", "judge", True) in sink.auths

            provider.revoke()
            sink.restart()                               # the relay drops the judge's kept connection
            with imap_client(oauth_dovecot) as c:
                c.append(folder, mail("HELP", "<two@example.org>"))

            def alarm():
                with imap_client(oauth_dovecot) as c:
                    c.select_folder(folder, readonly=True)
                    found = c.search(["SUBJECT", "login fails"])
                    return found and c.fetch(found, ["FLAGS", "BODY.PEEK[]"])
            got = next(iter(wait_for(alarm, 30, what="the keeper's mail in the judge's mailbox").values()))
            assert {b"\\Flagged", b"\\Seen"} <= set(got[b"FLAGS"])
            note = email.message_from_bytes(got[b"BODY[]"], policy=policy.default)
            assert note["To"] == KEEPER and "SMTP" in note["Subject"]
            assert f"judge mail authorize --config {config}" in note.get_content()
            outbox = {}

            def waiting():
                outbox.update(tables(tmp_path / "data" / "store").get("outbox", {}))
                return [r for r in outbox.values() if r.get("inbound") == "two@example.org"]
            row = wait_for(waiting, 30, what="the answer kept in the outbox")[0]
            assert row["status"] == "pending" and row["attempts"] == 0   # a refused login is not the mail's fault

            assert authorize(config, provider.issue_refresh_token()).returncode == 0
            wait_for(lambda: replied(sink, "<two@example.org>"), 30, what="the answer, sent after the fix")
        finally:
            daemon.stop()
