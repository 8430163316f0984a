"""Exact poison handling (issue 12, points 2-4): a death is charged only to
the mail being handled; a mail already processed is never set aside; setting
a mail aside writes its ledger entry, the judgekeeper's notice and the
sender's answer in one commit before its bytes move, and a stop in between
is finished at the next start.

The worker runs in child processes that die (SIGKILL) at the chosen moment,
as a crash would, and is then run again in this process."""

from __future__ import annotations

import email
import os
import subprocess
import sys
import textwrap
from email import policy
from email.message import EmailMessage
from pathlib import Path

from judge.config import Config
from judge.mail.handler import MailHandler
from judge.mail.spool import Spool
from judge.mail.worker import Worker
from judge.storage import Store

REPO = Path(__file__).resolve().parents[1]


def inbound(n: int, body: str = "HELP\n") -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = f"p{n}@example.org", "judge@example.test", f"m{n}", \
        f"<m{n}@players.example>"
    m.set_content(body)
    return m.as_bytes()


def worker(tmp_path, sent: list | None = None, max_deaths: int = 3) -> Worker:
    cfg = Config()
    cfg.judge.address, cfg.judge.keeper = "judge@example.test", "keeper@example.test"
    return Worker(Store(tmp_path / "store"), Spool(tmp_path / "spool"), MailHandler(cfg),
                  address=cfg.judge.address, name="Judge", domain="example.test", keeper=cfg.judge.keeper,
                  retry_delay=0, max_deaths=max_deaths, send=(sent.extend if sent is not None else lambda rows: None))


def run_child(tmp_path, code: str, env: dict | None = None) -> int:
    """Run ``code`` in a child with a worker ``w`` over ``tmp_path``; its exit status."""
    child = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(REPO / 'tests')!r})
        from pathlib import Path
        from test_mail_poison import worker
        w = worker(Path({str(tmp_path)!r}))
        w.spool.recover()
    """) + textwrap.dedent(code)
    proc = subprocess.run([sys.executable, "-c", child], cwd=REPO, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))
    return proc.returncode


KILL_ON_M3 = """
    import os, signal
    real = w.handler.handle
    def handle(mail, db, now):
        if mail.key == "m3@players.example":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(mail, db, now)
    w.handler.handle = handle
    w.drain()
"""


def test_a_death_is_charged_to_the_mail_being_handled_only(tmp_path):
    spool = Spool(tmp_path / "spool")
    for n in range(1, 6):
        spool.put(inbound(n), {"source": "smtp"})
    for _ in range(3):                                 # m3 kills the judge each time it is read
        assert run_child(tmp_path, KILL_ON_M3) == -9
    sent: list = []
    w = worker(tmp_path, sent)
    w.spool.recover()
    deaths = {w.spool.read(n).key: w.spool.read(n).meta.get("deaths", 0) for n in w.spool.pending()}
    assert deaths == {"m3@players.example": 3, "m4@players.example": 0, "m5@players.example": 0}
    w.drain()
    ledger = {f"m{n}@players.example": w.store.get("ledger", f"m{n}@players.example")["status"]
              for n in range(1, 6)}
    assert ledger == {"m1@players.example": "done", "m2@players.example": "done", "m3@players.example": "shunted",
                      "m4@players.example": "done", "m5@players.example": "done"}
    to = sorted(r["to"][0] for r in sent)
    assert to == ["keeper@example.test", "p3@example.org", "p4@example.org", "p5@example.org"]
    answer = next(email.message_from_string(r["raw"], policy=policy.default) for r in sent
                  if r["to"] == ["p3@example.org"])
    assert "nothing in any" in answer.get_content() and "send it again" in answer.get_content()
    [info] = w.spool.shunted()
    assert info["key"] == "m3@players.example"


def test_a_batch_that_dies_while_committing_charges_nobody(tmp_path):
    spool = Spool(tmp_path / "spool")
    for n in range(1, 4):
        spool.put(inbound(n), {"source": "smtp"})
    assert run_child(tmp_path, "w.drain()\n", {"JUDGE_FAULT": "before_commit"}) == -9
    w = worker(tmp_path)
    w.spool.recover()
    metas = [w.spool.read(n).meta for n in w.spool.pending()]
    assert [m.get("deaths", 0) for m in metas] == [0, 0, 0] and all(m.get("alone") for m in metas)
    w.drain()
    assert all(w.store.get("ledger", f"m{n}@players.example")["status"] == "done" for n in range(1, 4))
    assert w.spool.pending() == [] and w.spool.shunted() == []


def test_a_mail_processed_already_is_never_set_aside(tmp_path):
    """The judge committed a mail and died before removing its spool entry,
    three times over: the entry's attempts are used up, but the ledger says
    done, so it is dropped — not shunted, not done again."""
    sent: list = []
    w = worker(tmp_path, sent)
    entry = w.spool.put(inbound(1, "CREATE g1 secret\n"), {"source": "smtp"})
    w.process(entry.name)
    assert w.store.get("ledger", "m1@players.example")["status"] == "done"
    again = w.spool.put(inbound(1, "CREATE g1 secret\n"), {"source": "smtp", "attempts": 3})
    w.process(again.name)
    assert w.store.get("ledger", "m1@players.example")["status"] == "done"
    assert w.spool.pending() == [] and w.spool.shunted() == [] and len(sent) == 1


def test_setting_aside_is_one_commit_then_the_move(tmp_path):
    """Killed after the commit of a set-aside mail (ledger entry, notices)
    and before its bytes move: the next start moves them, telling nobody twice."""
    spool = Spool(tmp_path / "spool")
    raw = inbound(7)
    spool.put(raw, {"source": "smtp", "attempts": 3})
    assert run_child(tmp_path, "w.drain()\n", {"JUDGE_FAULT": "before_shunt_move"}) == -9
    w = worker(tmp_path)
    assert w.store.get("ledger", "m7@players.example")["status"] == "shunted"
    outbox = w.store.all("outbox")
    assert sorted(r["to"][0] for r in outbox.values()) == ["keeper@example.test", "p7@example.org"]
    assert len(w.spool.pending()) == 1 and w.spool.shunted() == []
    w.spool.recover()
    w.drain()
    assert w.spool.pending() == [] and [i["key"] for i in w.spool.shunted()] == ["m7@players.example"]
    assert (tmp_path / "spool" / "shunt" / f"{w.spool.shunted()[0]['name']}.eml").read_bytes() == raw
    assert len(w.store.all("outbox")) == 2                    # no second notice


def test_a_valid_mail_killed_under_fewer_than_max_deaths_times_is_done(tmp_path):
    """Kills from outside that happen to land on a valid mail (soak: a kill
    every second on a loaded machine) do not set it aside: deaths have their
    own bound (worker.max_deaths, 8 by default), and the mail is done once a
    run lets it finish."""
    spool = Spool(tmp_path / "spool")
    for n in range(1, 4):
        spool.put(inbound(n), {"source": "smtp"})
    for _ in range(3):
        assert run_child(tmp_path, KILL_ON_M3) == -9
    sent: list = []
    w = worker(tmp_path, sent, max_deaths=Config().worker.max_deaths)
    w.spool.recover()
    w.drain()
    assert Config().worker.max_deaths == 8
    assert [w.store.get("ledger", f"m{n}@players.example")["status"] for n in range(1, 4)] == ["done"] * 3
    assert w.spool.shunted() == [] and [r["to"][0] for r in sent] == ["p3@example.org"]   # m1, m2: the first run
