"""Start-up checks (issue 21): ``judge serve`` logs in to each server before
it accepts work and stops with a message naming the server, its answer and
what to change — on a wrong host, port, security, password or token — and
``judge check`` does the same checks and the config's without starting.
Real servers: Dovecot, aiosmtpd. (How long the exit takes is measured by
benchmarks/startup.py, not asserted here.)"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from mailserver.harness import (  # noqa: F401 - fixtures
    IMAP_PASSWORD, REPO, SmtpSink, dovecot, free_port, write_config,
)

pytestmark = [pytest.mark.daemon,
              pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")]


def judge(*args, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    full = {**os.environ, "JUDGE_IMAP_PASSWORD": IMAP_PASSWORD, "JUDGE_SMTP_PASSWORD": "smtppw", **(env or {})}
    return subprocess.run([sys.executable, "-m", "judge.cli", *args], capture_output=True, text=True,
                          cwd=REPO, env=full, timeout=timeout)


def config(tmp_path: Path, dv, *, imap: dict | None = None, smtp: dict | None = None, extra: str = "") -> Path:
    imap_settings = {"host": dv.host, "port": dv.port, "security": "starttls", "cafile": dv.cafile,
                     "username": "judge", **(imap or {})}
    outbound = {"transport": "maildir"} if smtp is None else {"transport": "smtp", "smtp": smtp}
    return write_config(tmp_path / "judge.toml", tmp_path / "data",
                        inbound={"transport": "imap", "imap": imap_settings}, outbound=outbound, extra=extra)


def refused_start(cfg: Path, **kw) -> str:
    done = judge("serve", "--config", str(cfg), **kw)
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "judge: serving" not in done.stdout
    assert "the start-up checks failed, nothing was started" in done.stderr
    return done.stderr


def test_a_wrong_imap_password_stops_the_start_naming_the_server_its_answer_and_the_variable(dovecot, tmp_path):
    err = refused_start(config(tmp_path, dovecot), env={"JUDGE_IMAP_PASSWORD": "wrong"})
    assert f"IMAP {dovecot.host}:{dovecot.port}" in err
    assert "AUTHENTICATIONFAILED" in err                    # Dovecot's own answer
    assert "JUDGE_IMAP_PASSWORD" in err and "[inbound.imap] username" in err


def test_a_wrong_port_a_wrong_host_and_the_wrong_security_each_say_what_to_change(dovecot, tmp_path):
    closed = free_port()
    err = refused_start(config(tmp_path, dovecot, imap={"port": closed}))
    assert f"127.0.0.1:{closed}" in err and "connection refused" in err and "port" in err
    err = refused_start(config(tmp_path, dovecot, imap={"host": "imap.nowhere.invalid"}))
    assert "does not resolve" in err and "[inbound.imap] host" in err
    err = refused_start(config(tmp_path, dovecot, imap={"security": "ssl"}))
    assert "TLS failed" in err and "\"starttls\"" in err


def test_an_oauth2_login_without_a_token_names_the_command_that_makes_one(dovecot, tmp_path):
    cfg = config(tmp_path, dovecot, imap={"auth": "oauth2"},
                 extra='[oauth2]\nclient_id = "judge-test"\ntoken_url = "http://127.0.0.1:9/token"\n')
    err = refused_start(cfg)
    assert "no OAuth2 token yet" in err and f"judge mail authorize --config {cfg}" in err


def test_a_wrong_smtp_password_is_named_too(dovecot, tmp_path):
    with SmtpSink(auth=("judge", "smtppw")) as sink:
        cfg = config(tmp_path, dovecot, smtp={"host": "127.0.0.1", "port": sink.port, "security": "none",
                                              "username": "judge"})
        err = refused_start(cfg, env={"JUDGE_SMTP_PASSWORD": "nope"})
    assert f"SMTP 127.0.0.1:{sink.port}" in err and "535" in err and "JUDGE_SMTP_PASSWORD" in err
    assert "IMAP" not in err.split("nothing was started")[1]   # the IMAP login worked: not named


def test_judge_check_passes_a_good_config_and_starts_nothing(dovecot, tmp_path):
    with SmtpSink(auth=("judge", "smtppw")) as sink:
        cfg = config(tmp_path, dovecot, smtp={"host": "127.0.0.1", "port": sink.port, "security": "none",
                                              "username": "judge"})
        done = judge("check", "--config", str(cfg))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"ok    IMAP {dovecot.host}:{dovecot.port}" in done.stdout and "holds" in done.stdout
    assert f"ok    SMTP 127.0.0.1:{sink.port}" in done.stdout
    assert not (tmp_path / "data" / "owner.lock").exists()


def test_judge_check_names_each_failure(dovecot, tmp_path):
    cfg = config(tmp_path, dovecot, imap={"folder": "NoSuchFolder"})
    done = judge("check", "--config", str(cfg))
    assert done.returncode == 1 and "FAIL  IMAP" in done.stdout and "NoSuchFolder" in done.stdout
    assert "[inbound.imap] folder" in done.stdout
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_IMAP_PASSWORD"}
    unset = subprocess.run([sys.executable, "-m", "judge.cli", "check", "--config", str(config(tmp_path, dovecot))],
                           capture_output=True, text=True, cwd=REPO, env=env, timeout=60)
    assert unset.returncode == 1 and "JUDGE_IMAP_PASSWORD is not set" in unset.stdout


def test_judge_check_refuses_a_token_file_others_may_read_and_a_port_in_use(dovecot, tmp_path):
    cfg = config(tmp_path, dovecot, imap={"auth": "oauth2"},
                 extra='[oauth2]\nclient_id = "judge-test"\ntoken_url = "http://127.0.0.1:9/token"\n')
    token = tmp_path / "data" / "oauth2" / "token.json"
    token.parent.mkdir(parents=True)
    token.write_text('{"refresh_token": "x"}')
    token.chmod(0o644)
    done = judge("check", "--config", str(cfg))
    assert done.returncode == 1 and f"chmod 600 {token}" in done.stdout
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        listener = write_config(tmp_path / "smtp.toml", tmp_path / "data2", extra="",
                                inbound={"transport": "smtp", "smtp": {"port": port}},
                                outbound={"transport": "maildir"})
        done = judge("check", "--config", str(listener))
    assert done.returncode == 1 and f"FAIL  SMTP listener 127.0.0.1:{port}" in done.stdout
    assert "[inbound.smtp] host or port" in done.stdout
