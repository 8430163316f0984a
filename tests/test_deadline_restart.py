"""A deadline passes while the judge is down (issue 4 §6): when it starts
again the phase is adjudicated at once and exactly once, and every results
mail goes out once, also when the judge is killed right after committing
the adjudication. ``judge serve`` runs as a process on the real clock."""

from __future__ import annotations

import signal
import smtplib
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from storeview import tables
from mailserver.harness import DaemonProcess, SmtpSink, free_port, wait_for, write_config

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
READY = "judge judge@example.test: reading"


def send(port: int, frm: str, body: str, mid: str) -> None:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "game", mid
    m.set_content(body)
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as s:
        s.send_message(m)


def games(data: Path) -> dict:
    return tables(data / "store").get("games", {})


def results(sink: SmtpSink) -> list:
    return [m for m in sink.bodies() if m["Subject"].startswith("Diplomacy results")]


@pytest.mark.parametrize("fault", [None, "after_commit:1", "before_commit:1", "journal_applied_record:1"])
def test_a_deadline_passed_while_down_is_processed_once(tmp_path, fault):
    port, data = free_port(), tmp_path / "data"
    log = tmp_path / "judge.log"
    with SmtpSink() as sink:
        cfg = write_config(tmp_path / "judge.toml", data,
                           inbound={"transport": "smtp", "smtp": {"port": port}},
                           outbound={"transport": "smtp", "backoff_base": 0.2,
                                     "smtp": {"host": "127.0.0.1", "port": sink.port, "security": "none"}})
        first = DaemonProcess(cfg)
        first.wait_ready(log, READY)
        deadline = (datetime.now(timezone.utc) + timedelta(seconds=8)).replace(microsecond=0)
        send(port, "gm@example.org", f"CREATE r1 gmsecret grace=0 deadline={deadline.isoformat()}\n", "<c@x>")
        for p in POWERS:
            send(port, f"{p.lower()}@example.org", f"JOIN r1 pw-{p.lower()} {p}\nSET WAIT\n", f"<j{p}@x>")
        wait_for(lambda: len([m for m in sink.bodies() if m["Subject"].startswith("Re:")]) == 8,
                 what="eight replies")
        first.stop()                                   # down before the deadline
        wait_for(lambda: datetime.now(timezone.utc) > deadline + timedelta(seconds=1), timeout=20,
                 what="the deadline to pass")
        assert games(data)["r1"]["position"]["phase"] == "S1901M"

        second = DaemonProcess(cfg, fault=fault)
        if fault:
            assert second.wait_killed() == -signal.SIGKILL
            third = DaemonProcess(cfg)
        else:
            third = second
        try:
            wait_for(lambda: len(results(sink)) >= 8, timeout=30, what="the results of S1901M")
            time.sleep(1.0)
        finally:
            third.stop()
        fourth = DaemonProcess(cfg)                    # and once more: nothing new
        try:
            fourth.wait_ready(log, READY, count=3 if fault else 2)
            time.sleep(1.5)
        finally:
            fourth.stop()
    mails = results(sink)
    assert sorted(str(m["To"]) for m in mails) == sorted([f"{p.lower()}@example.org" for p in POWERS]
                                                         + ["gm@example.org"])
    assert len({m["Message-ID"] for m in mails}) == 8
    game = games(data)["r1"]
    assert [r["phase"] for r in game["history"]] == ["S1901M"]
    assert game["position"]["phase"] == "F1901M"
    # logged once committed (not at all when killed right after the commit; the running judge writes the
    # phase record at its checkpoint after the commit, so a kill there comes after the line is logged)
    assert log.read_text().count("r1 (S1901M): adjudicated S1901M") == (0 if fault == "after_commit:1" else 1)
