"""SIGKILL between every step of the pipeline, then a restart: no mail lost,
none applied twice, no reply sent twice.

The daemon runs as a process with ``JUDGE_FAULT=<step>:<n>`` (see
:mod:`judge.mail.faults`): it kills itself the n-th time it reaches the step.
It is then started again without the fault and must finish the work.
"""

from __future__ import annotations

import email
import json
import signal
import smtplib
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from mailserver.harness import (  # noqa: F401 - fixtures
    DaemonProcess, dovecot, free_port, imap_client, imap_folder, wait_for, write_config,
)

MAILS = [
    ("<c1@x>", "gm@example.org", "CREATE crash gmsecret\n"),
    ("<c2@x>", "fr@example.org", "JOIN crash frpass France\nA Par - Bur\n"),
    ("<c3@x>", "fr@example.org", "SIGNON crash frpass\nA Mar - Spa\nF Bre - Mao\n"),
]


def raw(mid: str, frm: str, body: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "crash test", mid
    m.set_content(body)
    return m.as_bytes()


def outbox(data: Path) -> list:
    new = data / "outbox" / "new"
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in new.iterdir()] \
        if new.exists() else []


def tables(data: Path) -> dict:
    doc = json.loads((data / "judge.json").read_text())
    return {t: {r["key"]: r["doc"] for r in rows.values()} for t, rows in doc.items()}


def check_exactly_once(data: Path) -> None:
    replies = outbox(data)
    assert sorted(r["In-Reply-To"] for r in replies) == ["<c1@x>", "<c2@x>", "<c3@x>"]
    text = "\n".join(r.get_content() for r in replies)
    assert "exists already" not in text and "already" not in text and "replaces" not in text
    t = tables(data)
    assert {k: v["status"] for k, v in t["ledger"].items()} == {"c1@x": "done", "c2@x": "done", "c3@x": "done"}
    assert t.get("outbox", {}) == {}                     # every reply sent (rows go once sent)
    assert sorted(r for v in t["ledger"].values() for r in v["replies"]) == \
        sorted(r["Message-ID"] for r in replies)
    orders = t["games"]["crash"]["orders"]["France"]
    assert [o["text"] for o in orders] == ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"]
    assert not any(o["replaced"] for o in orders)
    assert list((data / "spool" / "new").iterdir()) == [] and list((data / "spool" / "shunt").iterdir()) == []


IMAP_STEPS = ["imap_after_spool:2", "before_commit:1", "after_commit:1", "before_ack:2",
              "before_send:2", "after_send:2", "after_send:3"]


@pytest.mark.parametrize("fault", IMAP_STEPS)
def test_killed_between_steps_imap(tmp_path, dovecot, imap_folder, fault):
    data = tmp_path / "data"
    cfg = write_config(tmp_path / "judge.toml", data,
                       inbound={"transport": "imap", "imap": {
                           "host": dovecot.host, "port": dovecot.port, "security": "starttls",
                           "cafile": dovecot.cafile, "folder": imap_folder}},
                       outbound={"transport": "maildir"})
    with imap_client(dovecot) as c:
        for m in MAILS:
            c.append(imap_folder, raw(*m))
    doomed = DaemonProcess(cfg, fault=fault)
    assert doomed.wait_killed() == -signal.SIGKILL
    survivor = DaemonProcess(cfg)
    try:
        wait_for(lambda: len(outbox(data)) >= 3, timeout=30, what="three replies after the restart")

        def all_seen():
            with imap_client(dovecot) as c:
                c.select_folder(imap_folder, readonly=True)
                return not c.search(["UNSEEN"])
        wait_for(all_seen, what="every mail \\Seen")
        wait_for(lambda: tables(data).get("outbox", {}) == {}, what="every reply recorded as sent")
    finally:
        survivor.stop()
    check_exactly_once(data)


@pytest.mark.parametrize("fault", ["smtp_after_spool:2", "after_commit:1", "after_send:1"])
def test_killed_between_steps_smtp(tmp_path, fault):
    """With SMTP in, a kill before the 250 means the client sends again: the
    ledger makes the second delivery a no-op."""
    data, port = tmp_path / "data", free_port()
    cfg = write_config(tmp_path / "judge.toml", data,
                       inbound={"transport": "smtp", "smtp": {"port": port}},
                       outbound={"transport": "maildir"})
    log = tmp_path / "judge.log"
    doomed = DaemonProcess(cfg, fault=fault)
    doomed.wait_ready(log, "judge judge@example.test: reading")
    unsent = []
    for m in MAILS:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=10) as s:
                s.sendmail(m[1], ["judge@example.test"], raw(*m))
        except (smtplib.SMTPException, OSError):
            unsent.append(m)            # the client did not get its 250: it will send again
    assert doomed.wait_killed() == -signal.SIGKILL
    survivor = DaemonProcess(cfg)
    try:
        survivor.wait_ready(log, "judge judge@example.test: reading", count=2)
        for m in MAILS if fault.startswith("smtp") else unsent:
            with smtplib.SMTP("127.0.0.1", port, timeout=10) as s:
                s.sendmail(m[1], ["judge@example.test"], raw(*m))
        wait_for(lambda: len(outbox(data)) >= 3 and tables(data).get("outbox", {}) == {},
                 timeout=30, what="three replies, recorded as sent")
    finally:
        survivor.stop()
    check_exactly_once(data)
