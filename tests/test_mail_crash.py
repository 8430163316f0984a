"""SIGKILL between every step of the pipeline, then a restart: no mail lost,
none applied twice, no reply sent twice.

The daemon runs as a process with ``JUDGE_FAULT=<step>:<n>`` (see
:mod:`judge.faults`): it kills itself the n-th time it reaches the step.
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
from storeview import tables as read_tables
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
    return read_tables(data / "store")


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


@pytest.mark.parametrize("fault", ["smtp_after_spool:2", "after_commit:1", "after_send:1",
                                   "journal_written:2", "journal_applied_table:4", "journal_applied_table:9"])
def test_killed_between_steps_smtp(tmp_path, fault):
    """With SMTP in, a kill before the 250 means the client sends again: the
    ledger makes the second delivery a no-op. Kills inside a commit (after its
    journal; between the judge-wide tables — ledger, outbox, indexes — and the
    game's file) are finished by the next start."""
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


def test_a_mail_that_kills_the_judge_is_set_aside_after_max_deaths(tmp_path):
    """A poison mail: the judge dies (SIGKILL, no exception) each time it
    commits it. The first death, in a batch, charges nobody but marks the
    mail to be tried alone; alone, each death is charged to it at the next
    start, so after worker.max_deaths (3 here) deaths the next start sets it
    aside with its bytes, tells the judgekeeper and answers the sender, and
    the judge goes on answering other mail."""
    from judge.mail.spool import Spool
    data, port = tmp_path / "data", free_port()
    cfg = write_config(tmp_path / "judge.toml", data, inbound={"transport": "smtp", "smtp": {"port": port}},
                       outbound={"transport": "maildir"})
    cfg.write_text(cfg.read_text().replace("[worker]\n", "[worker]\nmax_deaths = 3\n"))
    poison = raw("<poison@x>", "mallory@example.org", "HELP\n")
    Spool(data / "spool").put(poison, {"source": "smtp"})
    for _ in range(4):
        doomed = DaemonProcess(cfg, fault="before_commit")      # dies on every mail it processes
        assert doomed.wait_killed() == -signal.SIGKILL
    deaths = [json.loads(p.read_bytes().partition(b"\n")[0]).get("deaths")
              for p in (data / "spool" / "new").iterdir()]
    assert deaths == [2]                  # the last death is charged by the next start's recovery
    survivor = DaemonProcess(cfg, fault="before_commit")       # still dies on any commit of a mail...
    try:
        mails = wait_for(lambda: len(outbox(data)) == 2 and outbox(data), what="the notice and the answer")
        [notice] = [m for m in mails if m["To"] == "keeper@example.test"]
        [answer] = [m for m in mails if m["To"] == "mallory@example.org"]
        assert "poison@x" in notice.get_content() and "send it again" in answer.get_content()
        assert "judge stopped" in notice.get_content()
        assert survivor.proc.poll() is None                      # ...but it never tried this one again
        [eml] = (data / "spool" / "shunt").glob("*.eml")
        assert eml.read_bytes() == poison
        assert list((data / "spool" / "new").iterdir()) == []
        assert tables(data)["ledger"]["poison@x"]["status"] == "shunted"
    finally:
        survivor.stop()
    log, ready = tmp_path / "judge.log", "judge judge@example.test: reading"
    started = log.read_text().count(ready)
    healthy = DaemonProcess(cfg)
    try:
        healthy.wait_ready(log, ready, count=started + 1)
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as s:
            s.sendmail("ok@example.org", ["judge@example.test"], raw("<ok@x>", "ok@example.org", "HELP\n"))
        wait_for(lambda: len(outbox(data)) == 3, what="an answer to the next mail")
    finally:
        healthy.stop()
