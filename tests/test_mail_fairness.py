"""Fair queueing per sender (issue 19 point 5, issue 23): one sender's flood
waits behind everyone else's mail, is answered in one digest, or not read at
all past a limit — and every mail of it is still accounted for (its ledger
entry, the digest, the log); LIST and HELP asked again and again by one
sender are answered once, then the sender is told to wait. By mail, through
the spool, the worker and the judge's handler."""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy
from email.message import EmailMessage

from judge.config import Config
from judge.mail.fairness import FairQueue
from judge.mail.handler import MailHandler
from judge.mail.spool import Spool
from judge.mail.worker import Worker
from judge.storage import Store
from mailjudge import T0

FLOODER, PLAYER = "flood@example.org", "player@example.org"


class Judge:
    """The judge's worker with fair queueing (5 answered, 20 read a minute)
    over a store in ``tmp_path``; the clock at ``self.now``."""

    def __init__(self, tmp_path, lookup_seconds: float = 60.0, fair: bool = True):
        cfg = Config()
        cfg.judge.address = "judge@example.test"
        cfg.senders.lookup_seconds = lookup_seconds
        self.tmp, self.cfg, self.now, self.n = tmp_path, cfg, T0, 0
        self.names: dict[str, str] = {}         # spool entry name -> ledger key
        self.sent: list[dict] = []
        self.worker = self.start(fair)

    def start(self, fair: bool = True) -> Worker:
        """A worker as a (re)started judge makes it: fresh memory, same store and spool."""
        self.store, self.spool = Store(self.tmp / "store"), Spool(self.tmp / "spool")
        return Worker(self.store, self.spool, MailHandler(self.cfg), address=self.cfg.judge.address,
                      name="Judge", domain="example.test", keeper="k@example.test", clock=lambda: self.now,
                      send=self.sent.extend, fair=FairQueue(5, 20) if fair else None)

    def put(self, frm: str, body: str, reply_to: str = "", **headers) -> str:
        """Spool one mail from ``frm``; its ledger key."""
        self.n += 1
        m = EmailMessage()
        m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", f"mail {self.n}", \
            f"<{self.n}@x>"
        if reply_to:
            m["Reply-To"] = reply_to
        for name, value in headers.items():
            m[name.replace("_", "-")] = value
        m.set_content(body)
        entry = self.spool.put(m.as_bytes(), {"source": "smtp"})
        self.names[entry.name] = entry.key
        return entry.key

    def to(self, address: str) -> list[str]:
        """The texts of the mails handed to the sender for ``address``, in order."""
        out = []
        for row in self.sent:
            if address in row["to"]:
                m = email.message_from_string(row["raw"], policy=policy.default)
                out.append(f"{m['Subject']}\n{m.get_body(('plain',)).get_content()}")
        return out


def test_a_flood_waits_behind_a_player_and_is_answered_in_one_digest(tmp_path, caplog):
    judge = Judge(tmp_path)
    flood = [judge.put(FLOODER, f"CREATE f{i} secret{i}\n") for i in range(30)]
    player = judge.put(PLAYER, "CREATE mine pw-mine\n")
    order, handling = [], judge.spool.handling
    judge.spool.handling = lambda name: order.append(judge.names[name]) or handling(name)
    with caplog.at_level("INFO", logger="judge.mail"):
        judge.worker.drain()
    assert judge.spool.pending() == []
    # the flooder's first five, then the player (in arrival order), then the rest of the flood
    assert order == flood[:5] + [player] + flood[5:]
    assert [judge.store.get("games", f"f{i}") is not None for i in range(30)] == [True] * 20 + [False] * 10
    answers = judge.to(FLOODER)
    assert len(answers) == 5 and len(judge.to(PLAYER)) == 1
    assert 'Game "mine" created' in judge.to(PLAYER)[0]
    # every mail has its ledger entry: 5 answered, 15 read (answer held), 10 not read
    ledger = [judge.store.get("ledger", key) for key in flood]
    assert [e["status"] for e in ledger] == ["done"] * 20 + ["ignored"] * 10
    assert [e.get("digest") for e in ledger[5:20]] == [FLOODER] * 15
    assert [e.get("reason") for e in ledger[20:]] == ["flood"] * 10
    assert sum("not read: its sender sent more than 20 mails" in r.getMessage() for r in caplog.records) == 10

    assert judge.worker.send_digests() == []                   # due a minute later
    judge.now += timedelta(seconds=61)
    assert judge.worker.send_digests() == [FLOODER]
    [digest] = judge.to(FLOODER)[5:]
    assert digest.startswith("judge: the answers to your mails of the last minute\n")
    assert "the judge answers at most 5 mails a minute one by one" in digest
    assert "10 of your mails were not read at all: the judge reads at most 20 mails a minute" in digest
    assert [f'Game "f{i}" created' in digest for i in range(30)] == [False] * 5 + [True] * 15 + [False] * 10
    assert judge.store.all("digests") == {}
    assert judge.worker.send_digests() == [] and len(judge.to(FLOODER)) == 6


def test_a_new_reply_to_does_not_escape_the_count_of_its_from(tmp_path):
    judge = Judge(tmp_path)
    for i in range(8):
        judge.put(FLOODER, "HELP\n", reply_to=f"victim{i}@example.net")
    judge.worker.drain()
    assert [r["to"] for r in judge.sent] == [[f"victim{i}@example.net"] for i in range(5)]
    judge.now += timedelta(seconds=61)
    assert judge.worker.send_digests() == [f"victim{i}@example.net" for i in (5, 6, 7)]


def test_a_robots_flood_gets_no_digest_and_is_still_in_the_ledger(tmp_path, caplog):
    judge = Judge(tmp_path)
    keys = [judge.put("robot@example.org", "I am away.\n", Auto_Submitted="auto-replied") for _ in range(30)]
    judge.worker.drain()
    judge.now += timedelta(seconds=61)
    with caplog.at_level("INFO", logger="judge.mail"):
        assert judge.worker.send_digests() == ["robot@example.org"]
    assert judge.sent == [] and judge.store.all("digests") == {}
    assert [judge.store.get("ledger", k)["reason"] for k in keys] == ["auto-submitted"] * 20 + ["flood"] * 10
    assert any("digest to robot@example.org: not sent: 10 mail(s) not read" in r.getMessage() for r in caplog.records)


def test_a_restart_in_the_middle_of_a_flood_loses_and_doubles_nothing(tmp_path):
    judge = Judge(tmp_path)
    keys = [judge.put(FLOODER, f"CREATE f{i} secret{i}\n") for i in range(30)]
    keys.append(judge.put(PLAYER, "CREATE mine pw-mine\n"))
    judge.worker.process_batch(judge.worker.fair.order(judge.spool.pending(), judge.spool.sender_of)[:4])
    judge.worker = judge.start()                                # a restart: the counts are gone
    judge.worker.drain()
    judge.now += timedelta(seconds=61)
    judge.worker.send_digests()
    assert judge.spool.pending() == []
    ledger = {k: judge.store.get("ledger", k) for k in keys}
    assert all(ledger.values())                                 # every mail once in the ledger
    assert len({r["id"] for r in judge.sent}) == len(judge.sent)    # nothing sent twice
    created = [k for k, e in ledger.items() if e["status"] == "done"]
    games = [f"f{i}" for i in range(30)] + ["mine"]
    assert [judge.store.get("games", g) is not None for g in games] == [k in created for k in keys]
    # each of the flood's mails: answered alone, in the digest, or counted there as not read
    alone = len(judge.to(FLOODER)) - 1
    [digest] = judge.to(FLOODER)[-1:]
    in_digest = digest.count("Game \"f")
    unread = sum(1 for e in ledger.values() if e.get("reason") == "flood")
    assert alone + in_digest + unread == 30 and f"{unread} of your mails were not read" in digest
    assert 'Game "mine" created' in judge.to(PLAYER)[0]


def test_list_asked_a_hundred_times_a_minute_is_answered_once_then_told_to_wait(tmp_path):
    judge = Judge(tmp_path)
    judge.put(PLAYER, "CREATE open1 pw-open\n")
    judge.worker.drain()
    for _ in range(100):
        judge.put(FLOODER, "LIST\n")
    judge.worker.drain()
    judge.now += timedelta(seconds=61)
    judge.worker.send_digests()
    mails = judge.to(FLOODER)
    assert len(mails) == 6                                      # five answers and one digest
    assert sum(text.count("open1") for text in mails) == 1     # the list itself: once
    assert "open1" in mails[0]
    for text in mails[1:5]:
        assert "you had this answer less than 60 seconds ago, and the judge gives it once in that time: " \
               "ask again in 60 seconds." in text
    assert mails[5].count("you had this answer less than 60 seconds ago") == 15
    assert "80 of your mails were not read at all" in mails[5]


def test_list_and_help_are_answered_again_after_a_minute(tmp_path):
    judge = Judge(tmp_path, fair=False)
    judge.put(PLAYER, "LIST\nHELP\n")
    judge.put(PLAYER, "help\n list \n")                       # the same lines, case and spaces aside
    judge.worker.drain()
    first, second = judge.to(PLAYER)
    assert "ask again" not in first and "AWARD [BEST] STRATEGY" in first      # HELP's text
    assert second.count("ask again in 60 seconds") == 2 and "AWARD [BEST] STRATEGY" not in second
    # another answer is no repeat: the help in Chinese, the list of one game
    judge.put(PLAYER, "帮助\n")
    judge.put(PLAYER, "LIST nosuch\n")
    judge.worker.drain()
    chinese, one = judge.to(PLAYER)[2:]
    assert "AWARD" in chinese and "秒后再问" not in chinese and "ask again" not in chinese
    assert "ask again" not in one and "nosuch" in one
    judge.now += timedelta(seconds=30)
    judge.put(PLAYER, "LIST\n")
    judge.worker.drain()
    assert "ask again in 30 seconds" in judge.to(PLAYER)[4]
    judge.now += timedelta(seconds=31)
    judge.put(PLAYER, "LIST\n")
    judge.worker.drain()
    assert "ask again" not in judge.to(PLAYER)[5]
    judge.put("other@example.org", "LIST\n")                   # another sender: answered at once
    judge.worker.drain()
    assert "ask again" not in judge.to("other@example.org")[0]
