"""The judge in the test's process, driven by real mails: the worker the
daemon runs, with the clock pinned and no network. Each mail goes through the
spool, the worker, the command handler and the outbox as it does in ``judge
serve``; deadline work is the scheduler's :class:`~judge.scheduler.Work`,
done by the same worker. The mails the judge would send are read from the
rows it hands to its sender (or, for a command run while no judge runs, from
the outbox).

Used by ``test_gm_by_mail.py`` and ``test_game_flows_by_mail.py``."""

from __future__ import annotations

import copy
import email
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage

from judge.config import Config
from judge.mail.handler import MailHandler
from judge.mail.spool import Spool
from judge.mail.timekeeper import Timekeeper
from judge.mail.worker import Worker
from judge.scheduler import Work
from judge.storage import Store

UTC = timezone.utc
T0 = datetime(2025, 1, 6, 12, tzinfo=UTC)
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
GM = "gm@example.org"


def addr(p: str) -> str:
    return f"{p.lower()}@example.org"


class Judge:
    def __init__(self, tmp_path):
        cfg = Config()
        cfg.judge.address, cfg.judge.keeper = "judge@example.test", "keeper@example.test"
        cfg.senders.auth = "address"        # players sign on from the address on record alone
        cfg.senders.lookup_seconds = 0      # and ask LIST again and again (the bound: test_mail_fairness.py)
        self.store, self.spool = Store(tmp_path / "store"), Spool(tmp_path / "spool")
        self.sent: list[dict] = []
        self.now = T0
        self.worker = Worker(self.store, self.spool, MailHandler(cfg), address=cfg.judge.address,
                             name=cfg.judge.name, domain=cfg.domain, keeper=cfg.judge.keeper,
                             clock=lambda: self.now, send=self.sent.extend, timekeeper=Timekeeper(cfg.judge))
        self.n = 0

    def mail(self, frm: str, body: str, subject: str = "cmd") -> list:
        """Send one mail; the mails the judge sends in answer (EmailMessages)."""
        self.n += 1
        m = EmailMessage()
        m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", subject, f"<{self.n}@x>"
        m.set_content(body)
        before = len(self.sent)
        self.spool.put(m.as_bytes(), {"source": "test"})
        for name in self.spool.pending():
            self.worker.process(name)
        return self.read(before)

    def work(self, kind: str = "tick", phase: str | None = None, game: str = "g") -> list:
        before = len(self.sent)
        self.worker.process_work([Work(kind, game, phase)])
        return self.read(before)

    def after_mail(self, game: str = "g") -> list:
        """What the daemon does after every mail that changed a game with a
        deadline (:meth:`judge.daemon.Daemon._changed`): a tick for its phase
        when the wakeup index says the orders in may end it (``ready``)."""
        row = self.store.get("wakeups", game)
        if row is None or not row.get("end") or not row.get("ready", True):
            return []
        return self.work(phase=row.get("phase"), game=game)

    def pending(self) -> list:
        """Mails in the outbox not sent yet (a command run while no judge ran
        left them there for the judge's next start), oldest first."""
        from judge.mail.worker import with_bodies          # rows of shared results name their body
        handed = {r["id"] for r in self.sent}
        rows = sorted(with_bodies(self.store, [dict(r, id=mid) for mid, r in self.store.all("outbox").items()
                                               if r["status"] == "pending" and mid not in handed]),
                      key=lambda r: (r["created"], r["raw"]))
        return [email.message_from_string(r["raw"], policy=policy.default) for r in rows]

    def read(self, before: int) -> list:
        return [email.message_from_string(r["raw"], policy=policy.default) for r in self.sent[before:]]

    def game(self, name: str = "g") -> dict:
        """The stored game, a copy a test may change (the store's documents are shared)."""
        return copy.deepcopy(self.store.get("games", name))


def started(tmp_path, create: str, game: str = "g") -> Judge:
    """A judge with game ``game`` made by the GM's mail ``create`` (``CREATE g
    gmsecret ...``) and joined by one player per power (``JOIN g pw-france
    France`` from ``france@example.org``, ...); the GM's answer to CREATE is
    kept in ``judge.created``."""
    j = Judge(tmp_path)
    j.created = to(j.mail(GM, create + "\n"))[GM][0]
    for p in POWERS:
        j.mail(addr(p), f"JOIN {game} pw-{p.lower()} {p}\n")
    return j


def text_of(mail) -> str:
    """The text of a mail: its text/plain part (a mail with a map is
    multipart/alternative, issue 20), line ends as ``\n``."""
    return mail.get_body(("plain",)).get_content().replace("\r\n", "\n")


def to(mails) -> dict[str, list[str]]:
    """``{recipient: [body text, ...]}`` of ``mails``."""
    out: dict[str, list[str]] = {}
    for m in mails:
        out.setdefault(str(m["To"]), []).append(text_of(m))
    return out


def sent(mails) -> list[tuple[str, str]]:
    """Every mail as ``(recipient, subject)``, sorted: what a test compares
    with the whole list of mails it expects."""
    return sorted((str(m["To"]), str(m["Subject"])) for m in mails)


def each(addresses, subject: str) -> list[tuple[str, str]]:
    """``(address, subject)`` for each of ``addresses``."""
    return [(a, subject) for a in addresses]
