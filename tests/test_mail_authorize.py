"""``judge mail authorize`` (issue 21): Microsoft's device-code flow with msal
and Google's installed-app flow with google-auth-oauthlib, against the
provider's loopback stand-in over HTTPS (tests/mailserver/provider.py: the
one mock allowed); the test is the keeper and their browser. What the
keeper must open is printed; the refresh token ends in the data folder
(mode 0600), tried once, never in the config."""

from __future__ import annotations

import json
import os
import queue
import stat
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from mailserver.harness import REPO, write_config
from mailserver.provider import Provider, make_cert

pytestmark = pytest.mark.daemon


@pytest.fixture(scope="module")
def provider(tmp_path_factory):
    cert = make_cert(tmp_path_factory.mktemp("provider"))
    with Provider(user="judge@example.test", cert=cert) as p:
        yield p


class Keeper:
    """``judge mail authorize`` running, its lines read as they come."""

    def __init__(self, config: Path, env: dict | None = None):
        self.proc = subprocess.Popen([sys.executable, "-m", "judge.cli", "mail", "authorize", "--config",
                                      str(config)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, cwd=REPO,
                                     env={**os.environ, **(env or {})})
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, text: str) -> str:
        while True:
            line = self.lines.get(timeout=60)
            self.seen.append(line)
            if text in line:
                return line

    def finish(self) -> int:
        code = self.proc.wait(timeout=60)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return code


def config_for(tmp_path: Path, provider: Provider, name: str, oauth2: str) -> Path:
    imap = {"provider": name, "auth": "oauth2", "username": "judge@example.test"}
    return write_config(tmp_path / "judge.toml", tmp_path / "data", inbound={"transport": "imap", "imap": imap},
                        outbound={"transport": "maildir"},
                        extra=f'[oauth2]\nclient_id = "judge-test"\ncafile = "{provider.cafile}"\n' + oauth2)


def kept(tmp_path: Path, provider: Provider, config: Path) -> dict:
    path = tmp_path / "data" / "oauth2" / "token.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    doc = json.loads(path.read_text())
    assert doc["refresh_token"] in provider.refresh_tokens                  # a token the provider knows
    assert doc["refresh_token"] not in config.read_text() and "rt-" not in config.read_text()
    return doc


def test_microsoft_device_code_flow_prints_the_address_and_the_code_and_keeps_the_token(provider, tmp_path):
    base = provider.https_url + "/contoso"
    config = config_for(tmp_path, provider, "microsoft",
                        f'authority = "{base}"\ntoken_url = "{base}/oauth2/v2.0/token"\n')
    provider.pending = 2                                  # the keeper takes a moment: msal polls
    keeper = Keeper(config)
    assert keeper.until("open ") .endswith(f"open {provider.https_url}/devicelogin in a browser (on any machine)")
    code = keeper.until("enter the code").split()[-1]
    assert keeper.finish() == 0, "\n".join(keeper.seen)
    assert code.startswith("JUDGE-")
    doc = kept(tmp_path, provider, config)
    assert doc["provider"] == "microsoft" and doc["client_secret"] == ""
    assert doc["scope"].split() == ["https://outlook.office.com/IMAP.AccessAsUser.All",
                                    "https://outlook.office.com/SMTP.Send", "offline_access"]
    asked = provider.grants("devicecode")[-1]["scope"].split()
    assert "https://outlook.office.com/IMAP.AccessAsUser.All" in asked and "offline_access" in asked
    assert len([k for k, _f in provider.log if k == "token:device_code"]) >= 3   # pending, pending, tokens
    assert provider.grants("token:refresh_token")[-1]["scope"] == doc["scope"]   # tried once before kept
    assert any("kept in" in line and "works" in line for line in keeper.seen)


@pytest.mark.parametrize("answer", ["loopback", "pasted"])
def test_gmail_installed_app_flow_takes_the_browser_back_or_a_pasted_address(provider, tmp_path, answer):
    config = config_for(tmp_path, provider, "gmail",
                        f'auth_url = "{provider.https_url}/auth"\ntoken_url = "{provider.https_url}/token"\n')
    keeper = Keeper(config, env={"JUDGE_OAUTH2_CLIENT_SECRET": "desktop-secret"})
    keeper.until("open this address in a browser")
    url = keeper.until("https://").strip()
    asked = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    assert asked["scope"] == "https://mail.google.com/" and asked["access_type"] == "offline"
    assert asked["login_hint"] == "judge@example.test" and asked["code_challenge_method"] == "S256"
    keeper.until("Waiting")
    back = requests.get(url, verify=provider.cafile, allow_redirects=False).headers["Location"]
    assert back.startswith(asked["redirect_uri"])
    if answer == "loopback":                              # the browser on the judge's machine
        assert "close this page" in requests.get(back).text
    else:                                                 # a browser elsewhere: the keeper pastes it
        keeper.proc.stdin.write(back + "\n")
        keeper.proc.stdin.flush()
    assert keeper.finish() == 0, "\n".join(keeper.seen)
    doc = kept(tmp_path, provider, config)
    assert doc["client_secret"] == "desktop-secret" and doc["scope"] == ""
    exchanged = provider.grants("token:authorization_code")[-1]
    assert exchanged["client_secret"] == "desktop-secret" and exchanged.get("code_verifier")


def test_without_a_secret_gmail_says_which_variable_to_set(provider, tmp_path):
    config = config_for(tmp_path, provider, "gmail", f'token_url = "{provider.https_url}/token"\n')
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_OAUTH2_CLIENT_SECRET"}
    done = subprocess.run([sys.executable, "-m", "judge.cli", "mail", "authorize", "--config", str(config)],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=60)
    assert done.returncode == 1 and "JUDGE_OAUTH2_CLIENT_SECRET" in done.stderr
    assert not (tmp_path / "data" / "oauth2" / "token.json").exists()
