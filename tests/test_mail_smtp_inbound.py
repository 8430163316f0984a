"""The embedded listener's reading of ``MAIL FROM``/``RCPT TO`` addresses
(:class:`judge.mail.inbound_smtp._SMTP`, issue 23) answers as aiosmtpd's own
does, on addresses as clients write them and as they should not; and a mail
sent through the listener is spooled with them."""

from __future__ import annotations

import smtplib
import socket
import threading
import time

import pytest
from aiosmtpd.smtp import SMTP

from judge.mail.inbound_smtp import SmtpInbound, _SMTP
from judge.mail.spool import Spool

ADDRESSES = [
    "", "<>", "<a@b.example>", "a@b.example", " <a@b.example> SIZE=100", "<a@b.example> BODY=8BITMIME",
    "<\"quoted local\"@b.example>", "<a.b+c@sub.b.example>", "<@route:a@b.example>", "<a@[127.0.0.1]>",
    "<a@b.example", "a@", "@b.example", "<a b@c.example>", "<" + "x" * 70 + "@b.example>", "<ü@b.example>",
    "<a@b.example> <c@d.example>", "<<a@b.example>>", "a@b.example SIZE=1", "<a@@b.example>", " ", "<\r\n>",
    "<a@b.example>\t", "(comment) a@b.example", "<a@b.example (comment)>",
    # the listener's fast path (<dot-atom@dot-atom>, then the parameters) and what it must leave alone
    "<a@b.example>  SIZE=100 ", "<a@b.example>\tBODY=8BITMIME SIZE=3", "<a@b.example>SIZE=1",
    "<a@b.example>  (c)", "<a@b.example> (c) X=1", "<a@b.example>\r\n", "<a@b.example>\x0b",
    "<{=|*~@-a.b-> X", "<a..b@c.example>", "<.a@c.example>", "<a@c..example>", "<a@c.example.>",
    "<" + "x" * 65 + "@b.example> SIZE=1", "<A.B@C.EXAMPLE>",
]


@pytest.mark.parametrize("limit", [0, 64])
def test_the_listeners_address_reading_is_aiosmtpds(limit):
    ours, theirs = _SMTP(object()), SMTP(object())
    ours.local_part_limit = theirs.local_part_limit = limit
    def outcome(session, arg):
        try:
            return session._getaddr(arg)
        except Exception as e:  # noqa: BLE001 - the email parser's own failures must be the same too
            return type(e)
    for arg in ADDRESSES:
        assert outcome(ours, arg) == outcome(theirs, arg), arg


def test_a_mail_through_the_listener_is_spooled_with_its_envelope(tmp_path):
    spool = Spool(tmp_path / "spool")
    woke = threading.Event()
    inbound = SmtpInbound(spool, woke.set, "127.0.0.1", 0, 1_000_000)
    inbound.start()
    try:
        with smtplib.SMTP("127.0.0.1", inbound.port, timeout=10) as s:
            refused = s.sendmail("Player@Example.org", ["judge@example.test"],
                                 b"From: player@example.org\r\nMessage-ID: <e@x>\r\n\r\nHELP\r\n")
        assert refused == {} and woke.wait(5)
        [name] = spool.pending()
        entry = spool.read(name)
        assert entry.meta["mail_from"] == "Player@Example.org" and entry.meta["rcpt_tos"] == ["judge@example.test"]
        assert entry.key == "e@x" and entry.raw.endswith(b"HELP\r\n")
        with smtplib.SMTP("127.0.0.1", inbound.port, timeout=10) as s:
            s.ehlo()
            code, _ = s.docmd("MAIL FROM:<a@@b.example>")
        assert code == 553                              # aiosmtpd's answer to an unreadable address
    finally:
        inbound.stop()


def test_an_idle_connection_is_closed_after_the_timeout_and_a_command_moves_it_on(tmp_path):
    """The listener's one idle timer (:meth:`_SMTP._reset_timeout`) closes a
    connection ``timeout`` seconds after its last command, as aiosmtpd's
    timer a command does: commands keep it open past the first deadline."""
    inbound = SmtpInbound(Spool(tmp_path / "spool"), lambda: None, "127.0.0.1", 0, 1_000_000)
    inbound.bind()
    inbound.controller.SMTP_kwargs["timeout"] = 0.6
    inbound.start()
    try:
        with socket.create_connection(("127.0.0.1", inbound.port), timeout=5) as c:
            f = c.makefile("rb")
            assert f.readline().startswith(b"220")
            t0 = time.monotonic()
            for _ in range(4):                  # 1.2 s of commands 0.3 s apart: still open
                time.sleep(0.3)
                c.sendall(b"NOOP\r\n")
                assert f.readline().startswith(b"250")
            assert time.monotonic() - t0 > 1.0
            quiet = time.monotonic()
            assert f.readline() == b""          # then quiet: closed by the timeout
            assert 0.4 < time.monotonic() - quiet < 3.0
    finally:
        inbound.stop()
