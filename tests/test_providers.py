"""Provider presets and the OAuth2 settings of the config (issue 21)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from judge.config import ConfigError, load_config
from judge.mail.oauth2 import oauthbearer, read_token, write_token, xoauth2

EXAMPLE = Path(__file__).resolve().parents[1] / "config" / "judge.example.toml"


def config(tmp_path, text: str):
    f = tmp_path / "judge.toml"
    f.write_text('[judge]\naddress = "judge.example@gmail.com"\n' + text)
    return load_config(f)


def test_a_provider_presets_hosts_ports_security_and_the_username(tmp_path):
    cfg = config(tmp_path, '[inbound]\ntransport = "imap"\n[inbound.imap]\nprovider = "gmail"\n'
                           '[outbound]\ntransport = "smtp"\n[outbound.smtp]\nprovider = "microsoft"\n')
    i, o = cfg.inbound.imap, cfg.outbound.smtp
    assert (i.host, i.port, i.security, i.username) == ("imap.gmail.com", 993, "ssl", "judge.example@gmail.com")
    assert (o.host, o.port, o.security, o.username) == ("smtp.office365.com", 587, "starttls",
                                                        "judge.example@gmail.com")
    assert i.auth == o.auth == "password" and not cfg.uses_oauth2


def test_what_the_file_sets_otherwise_wins_over_the_preset(tmp_path):
    cfg = config(tmp_path, '[inbound]\ntransport = "imap"\n[inbound.imap]\nprovider = "gmail"\n'
                           'host = "imap-proxy.example.org"\nport = 1993\nusername = "other@gmail.com"\n')
    i = cfg.inbound.imap
    assert (i.host, i.port, i.security, i.username) == ("imap-proxy.example.org", 1993, "ssl", "other@gmail.com")


def test_the_example_file_with_a_provider_takes_the_preset(tmp_path):
    """The example lists every key at its default: a keeper who copies it and
    sets only provider must get the provider's servers, not 127.0.0.1."""
    text = EXAMPLE.read_text(encoding="utf-8")
    text = text.replace('address = "judge@localhost"', 'address = "judge@contoso.example"', 1)
    text = re.sub(r'(?m)^transport = "smtp"$', 'transport = "imap"', text, count=1)
    text = re.sub(r'(?m)^transport = "maildir"$', 'transport = "smtp"', text, count=1)
    text = re.sub(r'(?m)^provider = ""$', 'provider = "microsoft"', text)
    text = re.sub(r'(?m)^auth = "password"$', 'auth = "oauth2"', text)
    text = re.sub(r'(?m)^client_id = ""$', 'client_id = "11111111-2222"', text)
    (tmp_path / "judge.toml").write_text(text)
    cfg = load_config(tmp_path / "judge.toml")
    assert (cfg.inbound.imap.host, cfg.inbound.imap.username) == ("outlook.office365.com", "judge@contoso.example")
    assert (cfg.outbound.smtp.host, cfg.outbound.smtp.username) == ("smtp.office365.com", "judge@contoso.example")
    ends = cfg.oauth2_endpoints()
    assert ends["token_url"] == "https://login.microsoftonline.com/common/oauth2/v2.0/token"
    assert ends["authority"] == "https://login.microsoftonline.com/common"
    assert ends["scopes"] == ["https://outlook.office.com/IMAP.AccessAsUser.All",
                              "https://outlook.office.com/SMTP.Send"]
    assert cfg.token_path == cfg.data_dir / "oauth2" / "token.json"


@pytest.mark.parametrize("text,key", [
    ('[inbound]\ntransport = "imap"\n[inbound.imap]\nprovider = "gmail"\nauth = "oauth2"\n', "oauth2.client_id"),
    ('[inbound]\ntransport = "imap"\n[inbound.imap]\nauth = "oauth2"\n[oauth2]\nclient_id = "x"\n',
     "oauth2.token_url"),
    ('[inbound]\ntransport = "imap"\n[inbound.imap]\nprovider = "gmail"\nauth = "oauth2"\n'
     '[outbound]\ntransport = "smtp"\n[outbound.smtp]\nprovider = "microsoft"\nauth = "oauth2"\n'
     '[oauth2]\nclient_id = "x"\n', "outbound.smtp.provider"),
    ('[inbound.imap]\nprovider = "yahoo"\n', "inbound.imap.provider"),
    ('[outbound.smtp]\nauth = "kerberos"\n', "outbound.smtp.auth"),
])
def test_what_oauth2_needs_is_named(tmp_path, text, key):
    with pytest.raises(ConfigError) as e:
        config(tmp_path, text)
    assert e.value.key == key


def test_microsoft_tenant_goes_into_its_endpoints_and_overrides_win(tmp_path):
    cfg = config(tmp_path, '[inbound]\ntransport = "imap"\n[inbound.imap]\nprovider = "microsoft"\n'
                           'auth = "oauth2"\n[oauth2]\nclient_id = "x"\ntenant = "contoso.onmicrosoft.com"\n'
                           'scopes = ["a", "b"]\n')
    ends = cfg.oauth2_endpoints()
    assert ends["token_url"] == "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token"
    assert ends["scopes"] == ["a", "b"] and cfg.logins()[0][0] == "imap"


def test_the_token_file_is_the_owners_alone(tmp_path):
    path = tmp_path / "data" / "oauth2" / "token.json"
    write_token(path, {"refresh_token": "r1"})
    write_token(path, {"refresh_token": "r2"})
    assert read_token(path)["refresh_token"] == "r2"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["token.json"]


def test_sasl_initial_responses():
    assert xoauth2("u@x.org", "t") == "user=u@x.org\x01auth=Bearer t\x01\x01"
    assert oauthbearer("a,b=c@x.org", "t", "imap.x.org", 993) == \
        "n,a=a=2Cb=3Dc@x.org,\x01host=imap.x.org\x01port=993\x01auth=Bearer t\x01\x01"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file away")
def test_a_token_written_by_root_belongs_to_the_data_folders_owner(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    os.chown(data, 65534, 65534)                      # the judge's service user
    write_token(data / "oauth2" / "token.json", {"refresh_token": "r"})   # `sudo judge mail authorize`
    for p in (data / "oauth2", data / "oauth2" / "token.json"):
        assert (p.stat().st_uid, p.stat().st_gid) == (65534, 65534)


@pytest.mark.parametrize("lang,subject", [("en", "judge: the IMAP login fails"), ("zh-hans", "裁判：IMAP 登录失败"),
                                          ("zh-hant", "裁判：IMAP 登入失敗")])
def test_the_keepers_login_mail_names_the_server_its_answer_and_the_command(tmp_path, lang, subject):
    import email
    from datetime import datetime, timezone
    from email import policy

    from judge.mail.alarm import Alarm
    from judge.mail.logins import LoginFailed
    cfg = config(tmp_path, f'keeper = "me@example.org"\nlanguage = "{lang}"\n')
    error = LoginFailed("imap", "imap.gmail.com:993", "the OAuth2 provider refused: invalid_grant: revoked",
                        "run `judge mail authorize --config /etc/judge/judge.toml` to authorise the judge again",
                        authorize=True)
    raw = Alarm(cfg).message(error, datetime(2026, 12, 4, 18, 0, tzinfo=timezone.utc))
    msg = email.message_from_bytes(raw, policy=policy.default)
    body = msg.get_content()
    assert msg["Subject"] == subject and msg["To"] == "me@example.org" and msg["Auto-Submitted"]
    assert "imap.gmail.com:993" in body and "invalid_grant: revoked" in body and "2026-12-04T18:00:00 UTC" in body
    assert f"judge mail authorize --config {cfg.source}" in body
