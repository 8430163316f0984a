"""The judge reading a real IMAP mailbox (Dovecot on 127.0.0.1) and answering
through a real SMTP server (aiosmtpd): TLS, \\Seen only after the commit,
UIDVALIDITY, reconnects, and a whole game's signons and Spring 1901 orders."""

from __future__ import annotations

import subprocess
import time
from datetime import date
from email.message import EmailMessage
from pathlib import Path

import pytest
from storeview import tables as read_tables
from mailserver.harness import (  # noqa: F401 - fixtures
    DaemonProcess, SmtpSink, dovecot, imap_client, imap_folder, wait_for, write_config,
)

FIRST = min(d for d in (date(date.today().year + k, 2, 1) for k in (0, 1)) if d > date.today())
"""The game's first deadline: the next 1 February (in winter: London is on
UTC; and within the year ahead that a command's date may be, issue 19)."""

MARK = "imap: connected to"


def mail(body: str, mid: str, frm: str, subject: str = "orders", charset: str = "utf-8") -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", subject, mid
    m.set_content(body, charset=charset)
    return m.as_bytes()


def config(tmp_path: Path, dv, folder: str, sink: SmtpSink, **imap) -> Path:
    settings = {"host": dv.host, "port": dv.port, "security": "starttls", "cafile": dv.cafile,
                "username": "judge", "folder": folder, "poll_interval": 0.5, **imap}
    return write_config(tmp_path / "judge.toml", tmp_path / "data",
                        inbound={"transport": "imap", "imap": settings},
                        outbound={"transport": "smtp", "backoff_base": 0.2,
                                  "smtp": {"host": "127.0.0.1", "port": sink.port, "security": "none"}})


def flags(dv, folder: str) -> dict[str, set]:
    """Message-ID -> flags of every message in ``folder``."""
    with imap_client(dv) as c:
        c.select_folder(folder, readonly=True)
        uids = c.search(["ALL"])
        data = c.fetch(uids, ["FLAGS", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"]) if uids else {}
    out = {}
    for d in data.values():
        mid = d[b"BODY[HEADER.FIELDS (MESSAGE-ID)]"].decode().split(":", 1)[1].strip()
        out[mid] = {f.decode() for f in d[b"FLAGS"]}
    return out


def append(dv, folder: str, *raws: bytes) -> None:
    with imap_client(dv) as c:
        for raw in raws:
            c.append(folder, raw)


def replies_to(sink: SmtpSink) -> dict[str, list]:
    out: dict[str, list] = {}
    for msg in sink.bodies():
        out.setdefault(msg["In-Reply-To"], []).append(msg)
    return out


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_mail_is_fetched_answered_and_marked_seen_only_after_the_commit(tmp_path, dovecot, imap_folder, security):
    with SmtpSink() as sink:
        port = dovecot.port if security == "starttls" else dovecot.ssl_port
        d = DaemonProcess(config(tmp_path, dovecot, imap_folder, sink, security=security, port=port))
        try:
            d.wait_ready(tmp_path / "judge.log", MARK)
            append(dovecot, imap_folder, mail("HELP\n", "<h1@x>", "alice@example.org"))
            wait_for(lambda: sink.messages, what="a reply")
            wait_for(lambda: flags(dovecot, imap_folder)["<h1@x>"] >= {"\\Seen"}, what="\\Seen")
            assert list(read_tables(tmp_path / "data" / "store")["ledger"]) == ["h1@x"]
        finally:
            d.stop()
    [reply] = sink.bodies()
    assert reply["To"] == "alice@example.org" and reply["Auto-Submitted"] == "auto-replied"


def test_processed_mail_is_moved_and_polling_works_without_idle(tmp_path, dovecot, imap_folder):
    processed = imap_folder + "-done"
    with imap_client(dovecot) as c:
        if not c.folder_exists(processed):
            c.create_folder(processed)
    with SmtpSink() as sink:
        d = DaemonProcess(config(tmp_path, dovecot, imap_folder, sink, idle=False,
                                 processed_folder=processed))
        try:
            d.wait_ready(tmp_path / "judge.log", MARK)
            append(dovecot, imap_folder, mail("HELP\n", "<p1@x>", "a@example.org"),
                   mail("HELP\n", "<p2@x>", "b@example.org"))
            wait_for(lambda: len(flags(dovecot, processed)) == 2, what="both moved")
            assert flags(dovecot, imap_folder) == {}
            assert all("\\Seen" in f for f in flags(dovecot, processed).values())
        finally:
            d.stop()
    assert len(sink.messages) == 2


def test_a_new_uidvalidity_does_not_answer_old_mail_again(tmp_path, dovecot, imap_folder):
    old = [mail("HELP\n", f"<u{i}@x>", "a@example.org") for i in range(3)]
    with SmtpSink() as sink:
        cfg = config(tmp_path, dovecot, imap_folder, sink)
        d = DaemonProcess(cfg)
        d.wait_ready(tmp_path / "judge.log", MARK)
        append(dovecot, imap_folder, *old)
        wait_for(lambda: len(sink.messages) == 3, what="three replies")
        d.stop()
        with imap_client(dovecot) as c:       # the mailbox is rebuilt: new UIDVALIDITY, mail unseen again
            before = c.folder_status(imap_folder, ["UIDVALIDITY"])[b"UIDVALIDITY"]
            c.delete_folder(imap_folder)
            c.create_folder(imap_folder)
            assert c.folder_status(imap_folder, ["UIDVALIDITY"])[b"UIDVALIDITY"] != before
        append(dovecot, imap_folder, *old, mail("HELP\n", "<new@x>", "a@example.org"))
        d = DaemonProcess(cfg)
        try:
            d.wait_ready(tmp_path / "judge.log", MARK, count=2)
            wait_for(lambda: all("\\Seen" in f for f in flags(dovecot, imap_folder).values()), what="all seen")
            time.sleep(0.3)
        finally:
            d.stop()
    assert sorted(replies_to(sink)) == ["<new@x>", "<u0@x>", "<u1@x>", "<u2@x>"]
    assert len(sink.messages) == 4


def test_reconnects_after_the_server_drops_the_connection(tmp_path, dovecot, imap_folder):
    with SmtpSink() as sink:
        d = DaemonProcess(config(tmp_path, dovecot, imap_folder, sink))
        try:
            d.wait_ready(tmp_path / "judge.log", MARK)
            subprocess.run(["doveadm", "-c", str(dovecot.base / "dovecot.conf"), "kick", "judge"],
                           check=True, capture_output=True)
            d.wait_ready(tmp_path / "judge.log", MARK, count=2)
            append(dovecot, imap_folder, mail("HELP\n", "<k1@x>", "a@example.org"))
            wait_for(lambda: sink.messages, what="a reply after the reconnect")
        finally:
            d.stop()
    assert "reconnecting in 1 s" in (tmp_path / "judge.log").read_text()


POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
SPRING_1901 = {
    "Austria": "A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
    "England": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
    "France": "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Mao",
    "Germany": "柏林陆军移动到基尔\n慕尼黑陆军移动到鲁尔\n基尔舰队移动到丹麦",
    "Italy": "A Ven H\nA Rom - Apu\nF Nap - Ion",
    "Russia": "華沙陸軍移動到加利西亞\n莫斯科陸軍移動到烏克蘭\n塞瓦斯托波爾艦隊移動到黑海\n聖彼得堡南岸艦隊移動到波的尼亞灣",
    "Turkey": "F Ank - Bla\nA Con - Bul\nA Smy - Con",
}


def test_a_whole_game_signs_on_and_orders_spring_1901_by_mail(tmp_path, dovecot, imap_folder):
    with SmtpSink() as sink:
        d = DaemonProcess(config(tmp_path, dovecot, imap_folder, sink))
        try:
            d.wait_ready(tmp_path / "judge.log", MARK)
            append(dovecot, imap_folder, mail("CREATE g7 gmsecret timezone=Europe/London "
                                              f"deadline={FIRST:%Y-%m-%d}T18:00 early=no\n", "<create@x>", "gm@example.org"))
            wait_for(lambda: sink.messages, what="created")
            # Germany and Russia join in Chinese: their replies come in simplified / traditional
            joins = {"Germany": "加入 g7 pw-germany 德国\n", "Russia": "加入 g7 pw-russia 俄國\n"}
            append(dovecot, imap_folder, *[
                mail(joins.get(p, f"JOIN g7 pw-{p.lower()} {p}\n"), f"<join-{p}@x>", f"{p.lower()}@example.org")
                for p in POWERS])
            replies = lambda: [m for m in sink.bodies() if m["Subject"].startswith("Re:")]  # noqa: E731
            wait_for(lambda: len(replies()) == 8, what="seven joins")
            # the game starts with the seventh join: everyone and the GM are told
            wait_for(lambda: len(sink.messages) == 16, what="game-start mails")
            charsets = {"Germany": "gb2312", "Russia": "big5"}
            append(dovecot, imap_folder, *[
                mail(f"SIGNON g7 pw-{p.lower()}\n{SPRING_1901[p]}\n", f"<orders-{p}@x>", f"{p.lower()}@example.org",
                     charset=charsets.get(p, "utf-8")) for p in POWERS])
            wait_for(lambda: len(replies()) == 15, timeout=30, what="seven confirmations")
        finally:
            d.stop()
    by = replies_to(sink)
    assert "Game \"g7\" created" in by["<create@x>"][0].get_content()
    assert "All powers are taken" in by["<join-Turkey@x>"][0].get_content()
    for p in POWERS:
        [confirmation] = by[f"<orders-{p}@x>"]
        text = confirmation.get_content()
        assert confirmation["To"] == f"{p.lower()}@example.org"
        assert confirmation["List-Id"].startswith("g7 <g7.")
        if p == "Germany":
            assert "德国的所有部队都已有命令" in text and "柏林陆军移动到基尔" in text
        elif p == "Russia":
            assert "俄國的所有單位都已有命令" in text and "聖彼得堡南岸艦隊移動到波的尼亞灣" in text
        else:
            assert f"Every unit of {p} has an order." in text, text
            assert "Not understood" not in text
            assert f"Deadline: {FIRST:%a %d %b %Y} 18:00 Europe/London (UTC+00:00) = {FIRST:%a %d %b %Y} 18:00 UTC." in text
    assert "A Mar S A Par - Bur" in by["<orders-France@x>"][0].get_content()
    refs = {m["References"].split()[0] for m in sink.bodies()}
    assert len(refs) == 1                       # one thread per game
