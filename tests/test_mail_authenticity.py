"""Bounded authenticity checks (issue 19, points 1 and 11), by mail through
the worker: a signature's domain is matched with From before any DNS, one
aligned signature at most is verified, DNS that never answers is abandoned
(the writer goes on; the sender is asked for the password), and
Authentication-Results are not believed on the embedded SMTP listener.
Timing is measured in ``benchmarks/trust.py``, not here."""

from __future__ import annotations

import threading

import dkim
import pytest
from test_mail_senders import body, judge_with, key, raw_mail  # noqa: F401 (key: a fixture)

from judge.config import Config
from judge.mail.authenticity import verified_by


@pytest.fixture(scope="module")
def private_key(key):
    """The DKIM key of ``test_mail_senders`` and its DNS TXT record (any name is answered with it below)."""
    private, dns = key
    return private, dns(b"sel._domainkey.example.org.")


class CountingDNS:
    """A DNS stand-in: the key for every name, each name asked noted; with
    ``hang``, no answer until ``release`` is set (a resolver that never answers)."""

    def __init__(self, txt: bytes, hang: bool = False):
        self.txt, self.hang, self.asked = txt, hang, []
        self.release = threading.Event()

    def __call__(self, name, timeout=5):
        self.asked.append(name)
        if self.hang:
            self.release.wait(120)
            return None
        return self.txt


def signed(raw: bytes, key: bytes, domains: list[str]) -> bytes:
    """``raw`` with one DKIM signature per domain of ``domains`` (the first on top)."""
    for domain in reversed(domains):
        raw = dkim.sign(raw, b"sel", domain.encode(), key,
                        include_headers=[b"from", b"to", b"subject", b"message-id"]) + raw
    return raw


def test_signatures_of_other_domains_cost_no_dns(private_key):
    key, txt = private_key
    dns = CountingDNS(txt)
    raw = signed(raw_mail("fr@example.org", "SIGNON g1"), key,
                 ["evil.test", "a.evil.test", "b.evil.test", "org", "example.org.evil.test"])
    assert verified_by(raw, "fr@example.org", (), dns) == "" and dns.asked == []


def test_only_one_aligned_signature_is_verified_the_from_domains_own_first(private_key):
    key, txt = private_key
    dns = CountingDNS(txt)
    raw = signed(raw_mail("fr@mail.example.org", "SIGNON g1"), key,
                 ["evil.test", "example.org", "mail.example.org", "other.test", "example.org"])
    assert verified_by(raw, "fr@mail.example.org", (), dns) == "dkim"
    assert dns.asked == [b"sel._domainkey.mail.example.org."]
    # five aligned signatures, all broken: one lookup, not five
    dns = CountingDNS(txt)
    broken = raw.replace(b"SIGNON g1", b"SIGNON g2")
    assert verified_by(broken, "fr@mail.example.org", (), dns) == "" and len(dns.asked) == 1


def test_dns_that_never_answers_is_abandoned(private_key):
    """The check returns while the lookup still hangs (no timing asserted)."""
    key, txt = private_key
    dns = CountingDNS(txt, hang=True)
    raw = signed(raw_mail("fr@example.org", "SIGNON g1"), key, ["example.org"] * 5)
    try:
        assert verified_by(raw, "fr@example.org", (), dns, budget=0.2) == ""
        assert len(dns.asked) == 1 and not dns.release.is_set()
    finally:
        dns.release.set()


def test_by_mail_a_mail_whose_dns_never_answers_is_asked_for_the_password_and_the_next_is_answered(
        tmp_path, private_key):
    key, txt = private_key
    dns = CountingDNS(txt, hang=True)
    j = judge_with(tmp_path, "verified", dns)
    try:
        stuck = signed(raw_mail("fr@example.org", "SIGNON g1\nA Par - Bur"), key, ["example.org"] * 5)
        [reply] = j.raw(stuck)
        assert "believes a mail without the password only when its sender is verified" in body(reply)
        assert len(dns.asked) == 1
        # the same player with the password, and another player, are answered as usual
        assert "A Par - Pic" in body(j.raw(raw_mail("fr@example.org", "SIGNON g1 frpass1\nA Par - Pic"))[0])
        assert 'You joined game "g1" as Germany' in body(j.raw(raw_mail("de@example.org",
                                                                          "JOIN g1 depass1 Germany"))[0])
    finally:
        dns.release.set()
    assert [e["text"] for e in j.game("g1")["orders"]["France"]] == ["A Par - Pic"]


@pytest.mark.parametrize("transport,believed", [("smtp", False), ("imap", True)])
def test_authentication_results_are_not_believed_on_the_embedded_listener(tmp_path, caplog, transport,
                                                                            believed):
    j = judge_with(tmp_path, "verified", trusted_authserv_ids=["mx.judge.test"])
    j.cfg.inbound.transport = transport
    forged = raw_mail("fr@example.org", "SIGNON g1\nA Par - Bur",
                      Authentication_Results="mx.judge.test; dkim=pass header.d=example.org")
    with caplog.at_level("WARNING", logger="judge.mail"):
        [reply] = j.raw(forged)
    assert ("Signed on" in body(reply)) is believed
    assert ("trusted_authserv_ids = ['mx.judge.test'] is ignored" in caplog.text) is (not believed)


def test_the_daemon_warns_at_start_of_authserv_ids_on_the_embedded_listener(tmp_path, caplog):
    from judge.daemon import Daemon
    cfg = Config()
    cfg.base_dir = tmp_path
    cfg.source = str(tmp_path / "warn.toml")
    cfg.senders.trusted_authserv_ids = ["mx.judge.test"]
    with caplog.at_level("WARNING", logger="judge.mail"):
        Daemon(cfg)
    assert "is ignored: mail comes in on the embedded SMTP listener" in caplog.text
