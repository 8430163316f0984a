"""Bounded work per mail and a reader that never raises (issue 12, points 1
and 5): the limits of ``[limits]`` with the answer saying what was over and
what was still taken, and each mail the issue found raising, by mail through
the worker and through the real embedded SMTP listener (``judge serve``)."""

from __future__ import annotations

import email
import smtplib
from dataclasses import replace
from email import policy

import pytest
from mailserver.harness import DaemonProcess, free_port, wait_for, write_config
from test_mail_commands import Judge

from judge.config import Config
from judge.mail.limits import bound_raw


def seated(tmp_path, **limits) -> Judge:
    cfg = Config()
    cfg.judge.address = "judge@example.test"
    cfg.senders.auth = "address"
    cfg.limits = replace(cfg.limits, **limits)
    j = Judge(tmp_path, cfg=cfg)
    j.text("gm@x.org", "CREATE g1 gmpass1 deadline=2024-01-10T20:00")
    j.text("fr@x.org", "JOIN g1 frpass1 France")
    return j


def head(frm: str = "fr@x.org", mid: str = "<m@x>", extra: str = "") -> bytes:
    return f"From: {frm}\r\nTo: judge@example.test\r\nSubject: s\r\nMessage-ID: {mid}\r\n{extra}".encode()


def content(m) -> str:
    return m.get_content().replace("\r\n", "\n")


# ---- point 1: limits ----------------------------------------------------------------
def test_order_lines_over_the_limit_are_not_read_and_the_answer_says_so(tmp_path):
    j = seated(tmp_path, order_lines=5)
    text = j.text("fr@x.org", "SIGNON g1\n" + "A Par - Bur\n" * 4 + "F Bre - Mao\nA Mar - Spa\nA Par - Pic\n")
    assert "F Bre - Mao" in text and "Units still without orders: A Mar" in text
    assert 'at most 5 order lines from one mail' in text and 'the 2 line(s) from "A Mar - Spa" on were not' in text
    orders = [e["text"] for e in j.game("g1")["orders"]["France"] if not e["replaced"]]
    assert orders == ["A Par - Bur", "F Bre - Mao"]


def test_eight_thousand_copies_of_an_order_line_take_the_default_limit(tmp_path):
    j = seated(tmp_path)
    text = j.text("fr@x.org", "SIGNON g1\n" + "A Par - Bur\n" * 8000)
    assert "at most 300 order lines" in text and "the 7700 line(s)" in text
    assert "and 279 more line(s) replaced the same way" in text          # not 299 quoted lines
    assert len(text) < 10_000


def test_command_lines_and_long_lines(tmp_path):
    j = seated(tmp_path, command_lines=3, line_chars=100)
    text = j.text("x@x.org", "HELP\nLIST\nLIST g1\nLIST\nHELP\n")
    assert "at most 3 command lines" in text and 'the 2 line(s) from "LIST" on were not.' in text
    text = j.text("fr@x.org", "SIGNON g1\n" + "A Par - Bur " * 50 + "\nF Bre - Mao")
    assert "this line has 599 characters; the judge reads lines of at most 100" in text
    assert "F Bre - Mao" in text


def test_a_mail_over_its_time_is_read_no_further_and_says_so(tmp_path, monkeypatch):
    """[limits] mail_seconds: a mail whose lines take too long (here every
    order line is made to take 0.3 s) stops being read at the budget, with a
    note; what was read stands, so no mail holds the others up for long."""
    import judge.mail.handler as handler
    j = seated(tmp_path, mail_seconds=0.7)
    clock = iter(i * 0.3 for i in range(1000))          # one tick a line: 0.3, 0.6, then 0.9 > 0.7
    monkeypatch.setattr(handler.time, "monotonic", lambda: next(clock))
    text = j.text("fr@x.org", "SIGNON g1\nA Par - Bur\nF Bre - Mao\nA Mar - Spa\n")
    said = " ".join(text.split())
    assert 'took the judge more than 0.7 seconds, so it stopped: the lines before "F Bre - Mao" were read' in said
    assert "it and the 1 line(s) after it were not" in said
    orders = [e["text"] for e in j.game("g1")["orders"]["France"] if not e["replaced"]]
    assert orders == ["A Par - Bur"]


def test_bound_raw_cuts_bytes_depth_and_parts():
    raw = head() + b"\r\n" + b"A Par - Bur\r\n" * 1000
    cut, notes = bound_raw(raw, replace(Config().limits, mail_bytes=1000))
    assert len(cut) <= 1000 and cut.endswith(b"\n") and notes == [f"too_big:{len(raw)}:1000"]
    deep = deep_mail(30)
    cut, notes = bound_raw(deep, Config().limits)
    assert notes == ["mime_deep:10"] and cut.count(b"boundary=") == 11
    many = head(extra="MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=p\r\n") + b"\r\n" + \
        b"".join(b"--p\r\nContent-Type: text/plain\r\n\r\nHELP\r\n" for _ in range(500)) + b"--p--\r\n"
    cut, notes = bound_raw(many, Config().limits)
    assert notes == ["mime_parts:100"] and cut.count(b"--p\r\n") == 100


def deep_mail(depth: int, mid: str = "<deep@x>", text: str = "HELP") -> bytes:
    body = b""
    for i in range(depth):
        body += f"Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n".encode()
    body += f"Content-Type: text/plain\r\n\r\n{text}\r\n".encode()
    for i in reversed(range(depth)):
        body += f"--b{i}--\r\n".encode()
    return head(mid=mid, extra="MIME-Version: 1.0\r\n") + body


# ---- point 5: what raised before is answered ------------------------------------------
@pytest.mark.parametrize("raw,expect", [
    (head(extra='Content-Type: text/plain; charset="utf\x008"\r\n') + b"\r\nHELP\r\n", "SIGNON GAME"),
    (head(extra="Content-Type: text/plain; charset=utf-8\x00\r\n") + b"\r\nHELP\r\n", "SIGNON GAME"),
    (head(frm="=?utf-8?q?evil=0D=0ABcc=3A_x=40y?= <fr@x.org>") + b"\r\nHELP\r\n", "SIGNON GAME"),
    (head(frm="=?utf-8?b?ZXZpbA0KQmNjOiB4QHk=?= <fr@x.org>") + b"\r\nHELP\r\n", "SIGNON GAME"),
    (head(frm="p@", extra="Reply-To: fr@x.org\r\n") + b"\r\nHELP\r\n", "SIGNON GAME"),
    (deep_mail(1000), "nested more than 10 deep"),
    (deep_mail(200, text="LIST"), "nested more than 10 deep"),
    # a 240 kB header line: the standard header parser took 15 s on it
    (head(extra="Content-Type: text/plain; charset=" + "A Par - Bur " * 20000 + "\r\n") + b"\r\nHELP\r\n",
     "header lines of your mail longer than 2000 bytes"),
])
def test_mail_that_made_the_reader_raise_is_answered(tmp_path, raw, expect):
    j = Judge(tmp_path, max_attempts=1)
    replies = j.raw(raw)
    assert j.ledger(raw)["status"] == "done" and replies, j.ledger(raw)
    assert expect in content(replies[0])
    assert all("\n" not in str(v) and "\r" not in str(v) for m in replies for v in m.values())
    assert str(replies[0]["To"]) == "fr@x.org" and "Bcc" not in replies[0]


def test_from_without_a_domain_and_no_reply_to_is_ignored_with_a_reason(tmp_path):
    j = Judge(tmp_path, max_attempts=1)
    raw = head(frm="p@") + b"\r\nHELP\r\n"
    assert j.raw(raw) == [] and j.ledger(raw)["status"] == "ignored" and j.ledger(raw)["reason"] == "no-sender"


def test_an_invisible_character_before_press_and_a_unicode_digit_lose_no_orders(tmp_path):
    j = seated(tmp_path)
    j.text("en@x.org", "JOIN g1 enpass1 England")
    mails = j.mails("fr@x.org", "SIGNON g1\nA Par - Bur\n\u200bPRESS TO England\nHello\nENDPRESS\nF Bre - Mao")
    assert "A Par - Bur" in content(mails[0]) and "F Bre - Mao" in content(mails[0])
    assert any(m["To"] == "en@x.org" and "Hello" in content(m) for m in mails[1:])
    text = j.text("fr@x.org", "SIGNON g1\nA Mar - Spa ❻\nF Bre - Mao\n巴黎陆军移动到❻")
    assert "> A Mar - Spa ❻" in text and "F Bre - Mao" in text
    assert [e["text"] for e in j.game("g1")["orders"]["France"] if not e["replaced"]] == \
        ["A Par - Bur", "F Bre - Mao"]


# ---- the same through the real embedded SMTP listener ---------------------------------
@pytest.fixture
def serve(tmp_path):
    port = free_port()
    data = tmp_path / "data"
    cfg = write_config(tmp_path / "judge.toml", data, inbound={"transport": "smtp", "smtp": {"port": port}},
                       outbound={"transport": "maildir"})
    d = DaemonProcess(cfg)
    d.wait_ready(tmp_path / "judge.log", "judge judge@example.test: reading")
    yield port, data
    d.stop()


def answers(data) -> list:
    new = data / "outbox" / "new"
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in sorted(new.iterdir())] \
        if new.exists() else []


def test_long_and_deep_mails_through_the_smtp_listener(serve):
    port, data = serve
    mails = [
        head(frm="gm@x.org", mid="<c@x>") + b"\r\nCREATE g1 gmpass1\r\n",
        head(frm="fr@x.org", mid="<j@x>") + b"\r\nJOIN g1 frpass1 France\r\n",
        head(frm="fr@x.org", mid="<long@x>") + b"\r\nSIGNON g1 frpass1\r\n" + b"A Par - Bur\r\n" * 8000,
        head(frm="fr@x.org", mid="<big@x>") + b"\r\nSIGNON g1 frpass1\r\nF Bre - Mao\r\n" +
        (b"x" * 78 + b"\r\n") * 62_500,                                           # 5 MB
        deep_mail(1000, mid="<deep1000@x>"),
        head(frm="fr@x.org", mid="<nul@x>", extra='Content-Type: text/plain; charset="utf\x008"\r\n') + b"\r\nHELP\r\n",
    ]
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as s:
        for raw in mails:
            s.sendmail("fr@x.org", ["judge@example.test"], raw)
    got = wait_for(lambda: (lambda a: a if len(a) >= 6 else None)(answers(data)), timeout=60, what="6 answers")
    by = {m["In-Reply-To"]: content(m) for m in got}
    assert "at most 300 order lines" in by["<long@x>"]
    assert "the judge reads the first 524288 bytes" in by["<big@x>"] and "F Bre - Mao" in by["<big@x>"]
    assert "nested more than 10 deep" in by["<deep1000@x>"]
    assert "SIGNON GAME" in by["<nul@x>"]


def test_a_mail_checks_a_bounded_number_of_passwords(tmp_path):
    """Issue 12 point 1: a SIGNON with a wrong password from an address the
    judge does not know would try every power's (scrypt, slow on purpose);
    the judge tries at most MAX_PASSWORD_CHECKS a mail and says how to sign on."""
    from judge.verbs.session import MAX_PASSWORD_CHECKS
    j = seated(tmp_path)
    for p, who in (("Germany", "de"), ("Italy", "it"), ("Russia", "ru"), ("Turkey", "tr")):
        j.text(f"{who}@x.org", f"JOIN g1 {who}pass1 {p}")
    text = " ".join(j.text("stranger@x.org", "SIGNON g1 wrongpass").split())
    assert "wrong password" in text and f"tries at most {MAX_PASSWORD_CHECKS} powers' passwords" in text
    assert "SIGNON Fg1 PASSWORD" in text
    text = " ".join(j.text("stranger@x.org", "SIGNON Fg1 frpass1\nA Par - Bur").split())
    assert "as France" in text and "A Par - Bur" in text             # the letter form: one check
