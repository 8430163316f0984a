"""Who wrote a mail, and whether to answer it (issue 12, points 6, 7 and 8),
by mail through the worker: auth=address|password|verified with DKIM-signed
and forged mail (a key made here, a stub DNS answer), the address of record
told of everything, passwords never quoted, loop rules and the deny list."""

from __future__ import annotations

import base64
import email
import itertools
import re
import subprocess
from email import policy
from email.message import EmailMessage

import dkim
import pytest
from test_mail_commands import NOW, Judge

from judge.config import Config
from judge.mail.authenticity import verified_by

_ids = itertools.count()


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    """A DKIM key of example.org (selector ``sel``) and the DNS answer for it."""
    path = tmp_path_factory.mktemp("dkim") / "key.pem"
    subprocess.run(["openssl", "genrsa", "-traditional", "-out", str(path), "1024"], check=True,
                   capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", str(path), "-pubout", "-outform", "DER"], check=True,
                            capture_output=True).stdout
    txt = b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)

    def dns(name, timeout=5):
        return txt if name == b"sel._domainkey.example.org." else None
    return path.read_bytes(), dns


def raw_mail(frm: str, body: str, signed_with: bytes | None = None, **headers) -> bytes:
    m = EmailMessage(policy=policy.SMTP)
    m["From"], m["To"], m["Subject"] = frm, "judge@example.test", headers.pop("Subject", "orders")
    m["Message-ID"] = f"<sender-{next(_ids)}@example.org>"
    for name, value in headers.items():
        m[name.replace("_", "-")] = value
    m.set_content(body)
    raw = m.as_bytes()
    if signed_with is not None:
        raw = dkim.sign(raw, b"sel", b"example.org", signed_with,
                        include_headers=[b"from", b"to", b"subject", b"message-id"]) + raw
    return raw


def judge_with(tmp_path, auth: str, dns=None, **senders) -> Judge:
    cfg = Config()
    cfg.judge.address = "judge@example.test"
    cfg.senders.auth = auth
    for k, v in senders.items():
        setattr(cfg.senders, k, v)
    j = Judge(tmp_path, cfg=cfg, dnsfunc=dns)
    j.text("gm@example.org", "CREATE g1 gmpass1 deadline=2024-01-10T20:00")
    j.text("fr@example.org", "JOIN g1 frpass1 France")
    return j


def body(m: EmailMessage) -> str:
    return m.get_content().replace("\r\n", "\n")


# ---- point 6: auth= and the address of record ---------------------------------------
def test_the_default_is_password_on_the_embedded_listener_and_verified_on_imap():
    cfg = Config()
    assert cfg.senders.default_auth("smtp") == "password" and cfg.senders.default_auth("imap") == "verified"
    cfg.senders.auth = "address"
    assert cfg.senders.default_auth("imap") == "address"


def test_auth_password_needs_the_password_in_every_mail(tmp_path):
    j = judge_with(tmp_path, "password")
    [reply] = j.raw(raw_mail("fr@example.org", "SIGNON g1\nA Par - Bur"))
    assert 'game "g1" needs the password in every mail' in body(reply)
    assert not j.game("g1")["orders"].get("France")
    assert "A Par - Bur" in body(j.raw(raw_mail("fr@example.org", "SIGNON g1 frpass1\nA Par - Bur"))[0])


def test_auth_address_believes_from(tmp_path):
    j = judge_with(tmp_path, "address")
    assert "Signed on" in body(j.raw(raw_mail("fr@example.org", "SIGNON g1\nA Par - Bur"))[0])


def test_auth_verified_believes_a_good_dkim_signature_and_refuses_a_forgery(tmp_path, key):
    private, dns = key
    j = judge_with(tmp_path, "verified", dns)
    good = raw_mail("fr@example.org", "SIGNON g1\nA Par - Bur", signed_with=private)
    assert verified_by(good, "fr@example.org", (), dns) == "dkim"
    assert "Signed on" in body(j.raw(good)[0])
    # the same signature over a changed body (and Message-ID), and an unsigned mail
    forged = good.replace(b"A Par - Bur", b"A Par - Pic").replace(b"@example.org>", b".f@example.org>")
    for mail in (forged, raw_mail("fr@example.org", "SIGNON g1\nA Par - Pic")):
        [reply] = j.raw(mail)
        assert "believes a mail without the password only when its sender is verified" in body(reply)
    orders = [e["text"] for e in j.game("g1")["orders"]["France"]]
    assert orders == ["A Par - Bur"]


def test_auth_verified_believes_only_a_trusted_servers_authentication_results(tmp_path):
    j = judge_with(tmp_path, "verified", trusted_authserv_ids=["mx.judge.test"])
    j.cfg.inbound.transport = "imap"        # behind a mail server (never on the embedded listener: issue 19)
    trusted = "mx.judge.test; dkim=pass header.d=example.org; spf=fail smtp.mailfrom=x@evil.test"
    assert "Signed on" in body(j.raw(raw_mail("fr@example.org", "SIGNON g1",
                                              Authentication_Results=trusted))[0])
    for header in ("evil.test; dkim=pass header.d=example.org",            # not a trusted server
                   "mx.judge.test; dkim=pass header.d=evil.test",          # another domain's signature
                   "mx.judge.test; spf=pass smtp.mailfrom=x@other.test"):  # SPF of another domain
        [reply] = j.raw(raw_mail("fr@example.org", "SIGNON g1", Authentication_Results=header))
        assert "is not" in body(reply) and "Signed on" not in body(reply), header
    assert "Signed on" in body(j.raw(raw_mail("fr@example.org", "SIGNON g1",
                                              Authentication_Results="mx.judge.test; spf=pass "
                                                                     "smtp.mailfrom=fr@mail.example.org"))[0])


def test_a_game_setting_overrides_the_judges_default(tmp_path):
    j = judge_with(tmp_path, "password")
    assert "settings changed" in j.text("gm@example.org", "SIGNON g1 gmpass1\nSET auth=address")
    assert "Signed on" in body(j.raw(raw_mail("fr@example.org", "SIGNON g1"))[0])


def test_forged_from_with_reply_to_cannot_hide_a_change_from_the_address_of_record(tmp_path):
    """An attacker writing as fr@ with Reply-To to itself: the real player gets a copy."""
    j = judge_with(tmp_path, "address")
    replies = j.raw(raw_mail("fr@example.org", "SIGNON g1\nA Par - Pic", Reply_To="thief@evil.test"))
    to = {str(m["To"]): body(m) for m in replies}
    assert set(to) == {"thief@evil.test", "fr@example.org"}
    assert "A Par - Pic" in to["fr@example.org"] and "thief@evil.test" in to["fr@example.org"]


# ---- point 7: passwords are never quoted ------------------------------------------
def test_no_mail_the_judge_sends_quotes_a_password(tmp_path):
    j = judge_with(tmp_path, "password")
    sent = []
    for frm, text, subject in [
            ("x@example.org", "JOIN g1 xpass123 Germany", "JOIN g1 xpass123"),
            ("thief@evil.test", "SIGNON g1 frpass1\nA Par H\nSINGON g1 frpass1", "orders"),
            ("fr@example.org", "SIGNON g1 frpass1\nSET PASSWORD newpass9", "pw"),
            ("gm@example.org", "SIGNON g1 gmpass1\nREPLACE Germany reppass7\nSET join_password=joinpw44", "gm"),
            ("y@example.org", "CREATE g2 crpass55 access=password join_password=opensez", "new")]:
        sent += j.raw(raw_mail(frm, text, Subject=subject))
    assert len(sent) >= 6 and any(m["To"] == "fr@example.org" for m in sent[2:4])     # a copy to the record
    for m in sent:
        text = str(m["Subject"]) + body(m)
        leaked = [p for p in ("xpass123", "frpass1", "newpass9", "gmpass1", "reppass7", "joinpw44", "crpass55",
                              "opensez") if re.search(rf"(?<!\w){p}(?!\w)", text)]
        assert not leaked, (m["To"], leaked, text)
    assert "> SIGNON g1 ********" in body(sent[1])


# ---- point 8: loops ------------------------------------------------------------------
@pytest.mark.parametrize("headers,reason", [
    ({"X-NJudge": "njudge 1.7"}, "judge-mail"), ({"x-dpjudge": "yes"}, "judge-mail"),
    ({"X-JUDGE-VERSION": "1.7.6"}, "judge-mail"),
    ({"Subject": "Out of Office: orders"}, "auto-reply"), ({"Subject": "Automatic reply: Re: g1"}, "auto-reply"),
    ({"Subject": "自动回复: orders"}, "auto-reply"), ({"Subject": "自動回覆：orders"}, "auto-reply"),
    ({"Subject": "[自动答复] 外出"}, "auto-reply"),
    ({"X-Auto-Response-Suppress": "All"}, "auto-suppress"),
])
def test_automatic_mail_is_not_answered_and_the_ledger_says_why(tmp_path, headers, reason):
    j = Judge(tmp_path)
    raw = raw_mail("someone@example.org", "HELP", **headers)
    assert j.raw(raw) == []
    assert j.ledger(raw)["status"] == "ignored" and j.ledger(raw)["reason"] == reason


@pytest.mark.parametrize("sender", ["noreply@example.org", "no-reply@example.org", "do-not-reply@example.org",
                                    "DoNotReply@example.org", "notifications-noreply@example.org"])
def test_noreply_senders_are_not_answered(tmp_path, sender):
    j = Judge(tmp_path)
    raw = raw_mail(sender, "HELP")
    assert j.raw(raw) == [] and j.ledger(raw)["reason"] == "noreply"


def test_a_person_writing_about_an_office_is_answered(tmp_path):
    j = Judge(tmp_path)
    assert j.raw(raw_mail("someone@example.org", "HELP", Subject="Out of office next week, orders inside"))
    assert j.raw(raw_mail("reply@example.org", "HELP"))


def test_a_sender_whose_mails_do_nothing_is_answered_once_a_day(tmp_path):
    clock = [NOW]
    j = Judge(tmp_path, clock=lambda: clock[0])
    first = raw_mail("robot@example.org", "I am away until Monday.")
    assert "not a command" in body(j.raw(first)[0])
    second = raw_mail("robot@example.org", "I am away until Monday!")
    assert j.raw(second) == [] and j.ledger(second)["reason"] == "refused-limit"
    clock[0] = NOW.replace(day=2, hour=13)
    assert j.raw(raw_mail("robot@example.org", "I am still away."))
    # a sender whose mail did something is always answered
    assert j.raw(raw_mail("person@example.org", "HELP")) and j.raw(raw_mail("person@example.org", "hmm?"))
    assert j.raw(raw_mail("person@example.org", "hmm??"))


def test_the_deny_list_takes_addresses_and_domains(tmp_path, caplog):
    cfg = Config()
    cfg.judge.address = "judge@example.test"
    cfg.senders.deny = ["pest@example.org", "spam.test"]
    j = Judge(tmp_path, cfg=cfg)
    for sender in ("pest@example.org", "a@spam.test", "b@mx.spam.test"):
        raw = raw_mail(sender, "HELP")
        with caplog.at_level("INFO", logger="judge.mail"):
            assert j.raw(raw) == []
        assert j.ledger(raw)["reason"] == "denied" and "deny list" in caplog.text
    assert j.raw(raw_mail("friend@example.org", "HELP"))
    # Reply-To to a denied address counts too
    assert j.raw(raw_mail("friend@example.org", "HELP", Reply_To="pest@example.org")) == []


def test_config_file_reads_the_sender_and_limit_keys(tmp_path):
    from judge.config import load_config
    path = tmp_path / "judge.toml"
    path.write_text('[senders]\ndeny = ["x@y.z"]\nauth = "verified"\ntrusted_authserv_ids = ["mx.a"]\n'
                    '[limits]\norder_lines = 10\nmime_depth = 3\n')
    cfg = load_config(path)
    assert cfg.senders.deny == ["x@y.z"] and cfg.senders.default_auth("smtp") == "verified"
    assert cfg.limits.order_lines == 10 and cfg.limits.mime_depth == 3 and cfg.limits.mime_parts == 100
    from judge.config import ConfigError
    path.write_text('[senders]\nauth = "maybe"\n')
    with pytest.raises(ConfigError, match="senders.auth"):
        load_config(path)


def test_messages_parse_back(tmp_path):
    """Every mail above is a mail (the composer's output parses)."""
    j = judge_with(tmp_path, "address")
    for m in j.raw(raw_mail("fr@example.org", "SIGNON g1\nLIST")):
        assert email.message_from_bytes(m.as_bytes(), policy=policy.default)["X-Loop"]
