"""The worker in-process: one writer, ledger, outbox, set-aside mail, sender reports."""

from __future__ import annotations

import email
import json
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage

from judge.cli import main
from storeview import tables as read_tables
from judge.config import Config
from judge.mail.handler import MailHandler
from judge.mail.reply import Reply
from judge.mail.sender import Sender
from judge.mail.spool import Spool
from judge.mail.transport import MaildirTransport, TemporaryError
from judge.mail.worker import Worker
from judge.storage import Store

NOW = datetime(2024, 1, 1, 12, 0, tzinfo=timezone.utc)


def inbound(body: str = "HELP\n", mid: str = "<m1@players.example>", frm: str = "alice@example.org") -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "hello", mid
    m.set_content(body)
    return m.as_bytes()


class Failing:
    """A handler with a bug."""
    calls = 0

    def handle(self, mail, db, now):
        Failing.calls += 1
        raise RuntimeError("bug in a handler")


def make(tmp_path, handler=None, **kw):
    cfg = Config()
    cfg.judge.address, cfg.judge.keeper = "judge@example.test", "keeper@example.test"
    store, spool = Store(tmp_path / "store"), Spool(tmp_path / "spool")
    sent, acked = [], []
    worker = Worker(store, spool, handler or MailHandler(cfg), address=cfg.judge.address,
                    name="Judge", domain="example.test", keeper=cfg.judge.keeper, clock=lambda: NOW,
                    retry_delay=0, ack=acked.append, send=sent.extend, **kw)
    return worker, store, spool, sent, acked


def drain(worker):
    for name in worker.spool.pending():
        worker.process(name)


def test_the_same_mail_twice_changes_nothing_the_second_time(tmp_path):
    worker, store, spool, sent, acked = make(tmp_path)
    raw = inbound("CREATE g1 secret\n")
    spool.put(raw, {"source": "imap", "uid": 1, "uidvalidity": 9})
    drain(worker)
    before = read_tables(tmp_path / "store")
    spool.put(raw, {"source": "imap", "uid": 2, "uidvalidity": 9})
    drain(worker)
    assert read_tables(tmp_path / "store") == before
    assert len(sent) == 1 and 'Game "g1" created' in email.message_from_string(
        sent[0]["raw"], policy=policy.default).get_content()
    assert [a["uid"] for a in acked] == [1, 2]          # both acknowledged
    assert store.get("ledger", "m1@players.example")["status"] == "done"


def test_commit_holds_game_ledger_and_outbox_together(tmp_path):
    worker, store, spool, sent, _ = make(tmp_path)
    spool.put(inbound("CREATE g1 secret\n"), {"source": "smtp"})
    drain(worker)
    ledger = store.get("ledger", "m1@players.example")
    assert store.get("games", "g1") is not None and store.get("gm", "g1")["address"] == "alice@example.org"
    assert ledger["replies"] == [sent[0]["id"]]
    assert store.get("outbox", sent[0]["id"])["status"] == "pending"
    assert spool.pending() == []


def test_automatic_mail_gets_a_ledger_entry_and_no_answer(tmp_path):
    worker, store, spool, sent, _ = make(tmp_path)
    m = email.message_from_bytes(inbound(), policy=policy.default)
    m["Auto-Submitted"] = "auto-replied"
    spool.put(m.as_bytes(), {"source": "smtp"})
    drain(worker)
    assert sent == []
    assert store.get("ledger", "m1@players.example") == {
        "status": "ignored", "at": NOW.isoformat(), "from": "alice@example.org", "subject": "hello",
        "replies": [], "reason": "auto-submitted"}


def test_a_mail_that_keeps_failing_is_set_aside_then_retried(tmp_path, capsys):
    worker, store, spool, sent, acked = make(tmp_path, Failing(), max_attempts=3)
    raw = inbound()
    spool.put(raw, {"source": "imap", "uid": 5, "uidvalidity": 1})
    for _ in range(3):
        drain(worker)
    assert Failing.calls == 3 and spool.pending() == []
    [info] = spool.shunted()
    assert (tmp_path / "spool" / "shunt" / f"{info['name']}.eml").read_bytes() == raw
    assert store.get("ledger", "m1@players.example")["status"] == "shunted"
    assert [r["to"] for r in sent] == [["keeper@example.test"], ["alice@example.org"]]
    assert "judge spool retry m1@players.example" in email.message_from_string(
        sent[0]["raw"], policy=policy.default).get_content()
    assert acked and acked[0]["uid"] == 5
    # the same mail arriving again is a known one, not a new failure
    spool.put(raw, {"source": "imap", "uid": 6, "uidvalidity": 1})
    drain(worker)
    assert Failing.calls == 3

    # the judgekeeper's view and retry, through the CLI
    cfg_file = tmp_path / "judge.toml"
    cfg_file.write_text(f'[judge]\ndata_dir = "{tmp_path}"\n')
    assert main(["spool", "--config", str(cfg_file), "list"]) == 0
    out = capsys.readouterr().out
    assert "set aside (1)" in out and "m1@players.example" in out and "bug in a handler" in out
    assert main(["spool", "--config", str(cfg_file), "retry", "m1@players.example"]) == 0
    assert main(["spool", "--config", str(cfg_file), "retry", "nothing"]) == 1
    worker.handler = MailHandler(Config())
    drain(worker)
    assert store.get("ledger", "m1@players.example")["status"] == "done"
    assert spool.shunted() == [] and spool.pending() == []


class FlakyTransport:
    def __init__(self, failures: list):
        self.failures, self.sent = failures, []

    def describe(self):
        return "flaky"

    def send(self, mid, raw, recipients):
        if self.failures:
            raise self.failures.pop(0)
        self.sent.append(mid)

    def close(self):
        pass


def test_sender_retries_then_reports_and_the_worker_records(tmp_path):
    worker, store, spool, sent, _ = make(tmp_path)
    spool.put(inbound(), {"source": "smtp"})
    drain(worker)
    [row] = sent
    reports = []
    transport = FlakyTransport([TemporaryError("421 busy"), TemporaryError("421 busy")])
    sender = Sender(transport, lambda kind, mid, **info: reports.append((kind, mid, info)),
                    backoff_base=0.01, max_attempts=5)
    sender.start()
    sender.submit([row])
    import time
    for _ in range(200):
        if reports:
            break
        time.sleep(0.01)
    sender.stop()
    assert transport.sent == [row["id"]] and reports == [("sent", row["id"], {"attempts": 3})]
    worker.record_reports(reports)
    assert store.get("outbox", row["id"]) is None      # sent: the row goes, the ledger keeps its id
    assert store.get("ledger", "m1@players.example")["replies"] == [row["id"]]


def test_a_mail_refused_for_good_is_reported_to_the_keeper(tmp_path):
    worker, store, spool, sent, _ = make(tmp_path)
    spool.put(inbound(), {"source": "smtp"})
    drain(worker)
    mid = sent[0]["id"]
    worker.record_reports([("failed", mid, {"error": "550 no such user", "attempts": 1})])
    assert store.get("outbox", mid)["status"] == "failed"
    notice = sent[-1]
    assert notice["to"] == ["keeper@example.test"] and "550 no such user" in \
        email.message_from_string(notice["raw"], policy=policy.default).get_content()
    # a failed notice does not make another notice
    worker.record_reports([("failed", notice["id"], {"error": "x"})])
    assert sent[-1] is notice


def test_maildir_delivery_is_idempotent(tmp_path):
    t = MaildirTransport(tmp_path / "out")
    t.send("<a@x>", b"Subject: one\r\n\r\nbody\r\n", ["p@x"])
    t.send("<a@x>", b"Subject: one\r\n\r\nbody\r\n", ["p@x"])
    name = MaildirTransport.file_name("<a@x>")
    (tmp_path / "out" / "new" / name).rename(tmp_path / "out" / "cur" / f"{name}:2,S")   # read by a MUA
    t.send("<a@x>", b"Subject: one\r\n\r\nbody\r\n", ["p@x"])
    assert len(list((tmp_path / "out").glob("*/judge-*"))) == 1
    big = bytes(range(256)) * 4000                     # whole, byte for byte, whatever its size
    t.send("<b@x>", big, ["p@x"])
    assert (tmp_path / "out" / "new" / MaildirTransport.file_name("<b@x>")).read_bytes() == big
    assert not list((tmp_path / "out" / "tmp").iterdir())


def test_reply_interface_is_what_the_worker_renders(tmp_path):
    class Hello:
        def handle(self, mail, db, now):
            db.put("accounts", mail.sender, {"language": "en"})
            return [Reply("reply", (mail.reply_to,), "shunted.txt", "zh-hant", {"subject": "x"}),
                    Reply("copy", ("gm@example.org",), "shunted.txt", "en", {"subject": "x"}, in_reply=False)]
    worker, store, spool, sent, _ = make(tmp_path, Hello())
    spool.put(inbound(), {"source": "smtp"})
    drain(worker)
    a, b = (email.message_from_string(r["raw"], policy=policy.default) for r in sent)
    assert a["In-Reply-To"] == "<m1@players.example>" and b["In-Reply-To"] is None
    assert a["Message-ID"] != b["Message-ID"] and "裁判" in a.get_content()
    assert store.get("accounts", "alice@example.org") == {"language": "en"}


def test_a_mail_the_judge_dies_on_is_counted_and_set_aside(tmp_path):
    """A batch that never finished (the process died while handling one of
    its mails: no exception) charges an attempt to that mail alone at the
    next start; it is then processed on its own, its attempt counted on disk
    first; after max_attempts it is set aside without another try, the
    judgekeeper told and the sender answered from its headers alone."""
    worker, store, spool, sent, acked = make(tmp_path, max_deaths=3)
    poison = spool.put(inbound("HELP\n", "<poison@x>"), {"source": "imap", "uid": 1, "uidvalidity": 1})
    later = spool.put(inbound("HELP\n", "<later@x>"), {"source": "imap", "uid": 2, "uidvalidity": 1})
    spool.begin([poison.name, later.name])              # the batch was being processed ...
    spool.handling(poison.name)                         # ... and the judge died handling this one
    assert spool.recover() == [poison.name]
    for died in (2, 3):                                 # processed alone, counted first; dies again
        spool.count_death(spool.read(poison.name))
        assert spool.pending()[0] == poison.name and spool.recover() == []
    assert spool.read(poison.name).meta["deaths"] == 3 and "deaths" not in spool.read(later.name).meta
    drain(worker)
    assert spool.pending() == [] and [i["key"] for i in spool.shunted()] == ["poison@x"]
    assert store.get("ledger", "poison@x")["status"] == "shunted"
    assert "judge stopped" in store.get("ledger", "poison@x")["reason"]
    assert store.get("ledger", "later@x")["status"] == "done"
    notice, answer, reply = sent
    assert notice["to"] == ["keeper@example.test"] and reply["inbound"] == "later@x"
    assert answer["to"] == ["alice@example.org"] and answer["purpose"] == "shunted"
    text = email.message_from_string(notice["raw"], policy=policy.default).get_content()
    assert "alice@example.org" in text and "judge spool retry poison@x" in text
    assert [a["uid"] for a in acked] == [1, 2]
    assert json.loads(spool.inflight_path.read_text())["stage"] == "idle"      # no batch in flight


def test_a_failed_outgoing_mail_is_sent_again_on_request(tmp_path, capsys):
    worker, store, spool, sent, _ = make(tmp_path)
    spool.put(inbound(), {"source": "smtp"})
    drain(worker)
    mid = sent[0]["id"]
    worker.record_reports([("failed", mid, {"error": "550 mailbox full", "attempts": 10})])
    sent.clear()
    cfg_file = tmp_path / "judge.toml"
    cfg_file.write_text(f'[judge]\ndata_dir = "{tmp_path}"\n')
    assert main(["spool", "--config", str(cfg_file), "list"]) == 0
    out = capsys.readouterr().out
    failed_part = out[out.index("outgoing, failed for good"):]
    assert mid in failed_part and "550 mailbox full" in failed_part
    assert "outgoing, waiting to be sent (the judge retries them) (1)" in out     # the keeper's notice
    assert main(["spool", "--data", str(tmp_path), "resend", "nothing@x"]) == 1
    assert main(["spool", "--data", str(tmp_path), "resend", mid.strip("<>")]) == 0
    assert "to send again: " + mid in capsys.readouterr().out
    assert worker.resend() == [mid]
    row = store.get("outbox", mid)
    assert row["status"] == "pending" and row["attempts"] == 0 and "error" not in row
    assert [r["id"] for r in sent] == [mid]
    assert spool.resend_requests() == [] and worker.resend() == []
    assert main(["spool", "--data", str(tmp_path), "resend", mid]) == 1   # pending now: the judge retries it


def test_the_ledger_is_pruned_but_recent_mail_still_acts_once(tmp_path):
    worker, store, spool, sent, _ = make(tmp_path, ledger_days=90)
    with store.transaction() as tx:
        tx.put("ledger", "old@x", {"status": "done", "at": (NOW - timedelta(days=91)).isoformat(), "replies": []})
        tx.put("ledger", "odd@x", {"status": "done", "at": "yesterday", "replies": []})
    raw = inbound("CREATE g1 secret\n", "<recent@x>")
    spool.put(raw, {"source": "smtp"})
    drain(worker)
    worker._next_prune = 0
    worker.housekeeping()                                   # prunes the ledger
    assert set(read_tables(tmp_path / "store")["ledger"]) == {"recent@x", "odd@x"}
    spool.put(raw, {"source": "smtp"})
    drain(worker)
    assert len(sent) == 1                                   # the duplicate is still recognised
    assert worker.prune_ledger() == 0
    worker.ledger_days = 0                                  # 0: keep everything
    assert worker.prune_ledger() == 0


def test_a_command_line_commit_during_a_batch_is_not_overwritten(tmp_path):
    """`judge game gm` may commit while the worker makes a batch from what it
    read before: the worker sees the store changed and makes the batch again
    from the new state, so neither change is lost."""
    class Racing:
        calls = 0

        def handle(self, mail, db, now):
            Racing.calls += 1
            if Racing.calls == 1:               # another process commits meanwhile
                with store.transaction() as tx:
                    tx.put("games", "g", {"changed": "by the GM's command line"})
            db.put("games", "g", dict(db.get("games", "g") or {}, mail=mail.key))
            return []
    worker, store, spool, _, _ = make(tmp_path, Racing())
    spool.put(inbound(), {"source": "smtp"})
    drain(worker)
    assert Racing.calls == 2
    assert store.get("games", "g") == {"changed": "by the GM's command line", "mail": "m1@players.example"}


def test_the_handler_keeps_a_bounded_number_of_games_in_memory(tmp_path):
    """Issue 12 point 9 (memory flat under load): mails to ever new games do
    not make the handler keep every game it has read."""
    handler = MailHandler(Config())
    handler.games.size = 3
    worker, store, spool, sent, _ = make(tmp_path, handler)
    for i in range(8):
        spool.put(inbound(f"CREATE m{i} secret\n", f"<m{i}@x>"), {"source": "smtp"})
    drain(worker)
    assert len(sent) == 8 and list(handler.games.games) == ["m5", "m6", "m7"]


def test_the_first_commits_after_a_start_are_small_and_grow_to_the_batch(tmp_path):
    """A judge killed every few seconds (or crashing in a loop) must still
    commit: after a start the worker takes FIRST_BATCH entries, doubling with
    each commit up to ``batch``; every mail is done, in order."""
    from judge.mail.worker import FIRST_BATCH
    worker, store, spool, sent, acked = make(tmp_path, batch=16)
    for n in range(40):
        spool.put(inbound("HELP\n", f"<m{n}@players.example>"), {"source": "imap", "uid": n + 1, "uidvalidity": 1})
    sizes = []
    real = worker.process_batch

    def spy(names):
        sizes.append(len(names))
        return real(names)
    worker.process_batch = spy
    worker.drain()
    assert sizes == [FIRST_BATCH, 8, 16, 12] and FIRST_BATCH == 4
    assert [a["uid"] for a in acked] == list(range(1, 41)) and len(sent) == 40
