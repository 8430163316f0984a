"""The worker: the one thread that writes the store.

For each spool entry, oldest first:

1. read it; if its key is in the ledger already, it is a duplicate: drop the
   entry, acknowledge it, change nothing;
2. parse it (:func:`~judge.mail.message.read_mail`); automatic mail (bounces,
   auto-replies, list mail, the judge's own mail) gets a ledger entry and no answer,
   and so does a mail the handler chose not to answer (it returns an empty
   list with a ``reason``, :class:`~judge.mail.reply.Unanswered`);
3. otherwise the command handler runs on a :class:`~judge.mail.staging.Staging`
   and returns :class:`~judge.mail.reply.Reply` requests, which are rendered
   and composed here (Message-ID from (key, purpose, recipient));
4. the staged game changes, the ledger entry and the outbox rows are committed
   in ONE store transaction (entries waiting together, up to ``batch``, share
   that transaction: a group commit), provided no other process committed
   since the batch was read (the store's :meth:`~judge.storage.Store.version`;
   it cannot happen while ``judge serve`` owns the data folder, see
   :mod:`judge.commands.submit`): else the batch is made again from the new
   state, so no change is lost;
5. only then the spool entry is removed, the inbound transport is told to
   acknowledge (IMAP ``\\Seen``), and the outbox rows go to the sender.

A handler or template error is retried ``worker.max_attempts`` times with a
doubling delay, the entry blocking the ones behind it (order matters: the last
orders count); then it is shunted: ONE commit writes its ledger entry, the
judgekeeper's notice and the sender's answer (nothing was changed: send it
again, or write to the GM), then its bytes move to ``spool/shunt``.
A mail during which the process dies (no exception to catch) counts a
death, charged to that mail alone: the spool notes which entry is being
handled (see :mod:`judge.mail.spool`); an entry tried before is processed
on its own (after the handler has warmed up, so that the first mail after
a start does not pay for loading maps and templates), and one that has had
its ``max_deaths`` is shunted without another try. Deaths have their own,
higher bound (default 8): a kill from outside (an operator, the OOM killer
hitting the judge for another's memory) lands on whatever mail is being
handled and says nothing about it, while a mail that kills the judge itself
does so every time, and an error a mail causes is caught and retried at
once with its doubling delay. Set aside without another try (answered from its headers alone: reading it once more
might kill the judge again). The ledger is asked first: an entry already
processed is never shunted, only dropped.

Housekeeping in the same thread: ``judge spool resend`` requests (a failed
outgoing mail becomes pending again and goes to the sender), and the ledger
loses entries older than ``ledger_days`` at start and once a day (the
Message-IDs of recent mail are kept, so a mail delivered twice still acts once).

The sender thread reports back through :meth:`Worker.report`; the worker
records sent/failed states (a few at a time, see :data:`REPORT_DELAY`), so
the store still has one writer.

Deadline work (:class:`~judge.scheduler.Work` from the scheduler, handed in
with :meth:`Worker.submit_work`) goes through the same thread in slices, one
game at a time, taking turns with the mail (:meth:`Worker.round`): the
:class:`~judge.mail.timekeeper.Timekeeper` ticks the game on a staged view,
the game change and its mails are committed together, in a commit of the
game's own, and its mails go to the sender at once; then the waiting mail
(one batch of it) before the next game. A thousand games due at the same
second so keep no mail waiting longer than one game's work (issue 23).
After every commit ``changed(docs, by_mail)`` is told which games changed
(``{name: document}``), so the scheduler plans them again (and, after mail,
orders that completed a phase get it processed early).

Store tables: ``ledger`` (key -> {status: done|ignored|shunted, at, from,
subject, reason?, replies: [Message-IDs]}), ``outbox`` (Message-ID ->
{status: pending|sent|failed, to, cc, raw, created, inbound, purpose,
attempts, sent_at?, error?}).
"""

from __future__ import annotations

import collections
import hashlib
import json
import logging
import queue
import re
import threading
import time
import traceback
from datetime import datetime, timedelta, timezone
from email.parser import BytesHeaderParser
from email.utils import parseaddr
from typing import Callable

from .. import faults
from .reply import CommandHandler, Reply
from .compose import compose, entity, message_id_for
from .fairness import DIGEST, UNREAD, WINDOW, FairQueue
from .message import InboundMail, read_mail
from .pictures import Rasters, mail_parts, warm_pictures
from .policies import DEFAULT
from .render import render
from .spool import Spool, SpoolEntry
from .staging import Staging
from ..storage import StoreError
from ..storage.layout import BODIES

FIRST_BATCH = 4
"""Entries in the first commit after a start (see :meth:`Worker.drain`)."""
log = logging.getLogger("judge.mail")

CONFLICT_TRIES = 20
"""Times a batch is made again when another process wrote the store meanwhile
(then the batch fails, and is tried again later like any failure)."""

IDLE_SYNC = 0.3
"""Seconds after a commit an idle worker makes its files durable (the store's
journal covers a power cut until then; see :class:`judge.storage.Store`)."""

PRUNE_EVERY = 3600.0
"""Seconds between two prunings of the ledger (each drops the weeks past
``ledger_days`` and deletes the hour's entries that came of age)."""

SHARED_KEPT = 16
"""Rendered mails kept for replies that share them (:attr:`Reply.shared`):
one deadline's results in every language, name set and map format."""

DIGEST_ANSWERS = 15
"""Answers a digest holds in full (the others it counts)."""

DIGEST_CHARS = 4000
"""Characters of one answer a digest holds (the rest is cut)."""

REPORT_DELAY = 0.5
"""Seconds sender reports may wait for a commit of their own; while mail comes
in they go with its commits (a crash in that window only means the maildir
transport skips, or an SMTP relay sees again, a mail with the same Message-ID)."""

LOOK_EVERY = 1.0
"""Seconds between looks into an empty spool when no entry was put in it by
this process (an entry another process spools, e.g. ``judge game``, is
found within this time; one put here is looked for at once)."""


class _StoreChanged(Exception):
    """Another process committed to the store while a batch was being made."""


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Worker:
    """See module doc. ``ack(meta)`` is called (from the worker thread) after an
    entry is committed or found to be a duplicate; ``send(rows)`` hands committed
    outbox rows ({"id": Message-ID, ...}) to the sender."""

    def __init__(self, store, spool: Spool, handler: CommandHandler, *, address: str, name: str,
                 domain: str, keeper: str, language: str = "en", max_attempts: int = 3,
                 max_deaths: int = 8, retry_delay: float = 2.0, batch: int = 50, ledger_days: float = 90.0,
                 clock: Callable[[], datetime] = utc_now,
                 ack: Callable[[dict], None] = lambda meta: None,
                 send: Callable[[list[dict]], None] = lambda rows: None,
                 timekeeper=None, commands=None,
                 changed: Callable[[dict[str, dict | None], bool], None] = lambda rows, by_mail: None,
                 templates=None, reading: dict | None = None, fair: FairQueue | None = None):
        self.store, self.spool, self.handler = store, spool, handler
        self.commands = commands                # runs `judge game ...` work items (judge.mail.keeper)
        self.templates = templates              # a judgekeeper's template copies (judge.text.templates)
        self.address, self.name, self.domain, self.keeper = address, name, domain, keeper
        self.language = language
        self.max_attempts, self.retry_delay, self.batch = max_attempts, retry_delay, batch
        self._batch_now = min(batch, FIRST_BATCH)  # grows to batch: a judge killed again and again still commits
        self._spool_empty = False                  # drain's last look found no entry (spares the idle check one)
        self._looked = float("-inf")               # monotonic time of drain's last look
        self.max_deaths = max_deaths
        self.ledger_days = ledger_days
        self._next_prune = 0.0                  # monotonic time of the next ledger pruning round
        self.clock, self.ack = clock, ack

        def handed(rows: list[dict]) -> None:
            self._out += len(rows)
            send(rows)
        self.send = handed
        self.timekeeper, self.changed = timekeeper, changed
        self.reading = reading or {}            # read_mail's limits= and markers= (the config's)
        self.rasters = Rasters()                # map pictures drawn once per phase and language
        self._rendered: dict = {}               # Reply.shared -> its rendered mail (the last few)
        self.fair = fair or FairQueue(0)        # per-sender fair queueing (judge.mail.fairness); 0: none
        self._digest_due: datetime | None = None   # the earliest digest due (None: none waits)
        self._work: dict = {}                   # deadline work not yet done (an ordered set)
        self.events: queue.Queue = queue.Queue()
        self._not_before: dict[str, float] = {}
        self._reports: list[tuple] = []         # sender reports not yet recorded
        self._sent: collections.deque = collections.deque()    # "sent" reports not yet taken (see report)
        self._out = 0                           # rows handed to the sender and not reported yet
        self._reports_since = time.monotonic()
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None
        store.on_recovered("outbox", self._recovered_outbox)

    # ---- threads ---------------------------------------------------------------
    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="judge-worker", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.events.put(("wake",))
        if self.thread:
            self.thread.join(timeout=30)

    def wake(self) -> None:
        """A new spool entry is there."""
        self.events.put(("wake",))

    def report(self, kind: str, message_id: str, **info) -> None:
        """From the sender: ``kind`` is ``"sent"`` or ``"failed"`` (info: error).
        A mail sent does not wake the worker: its report is taken at the
        worker's next wake-up (a mail, or at the latest :data:`REPORT_DELAY`
        while mails it handed over are not all reported); a failure wakes it."""
        if kind == "sent":
            self._sent.append((kind, message_id, info))
        else:
            self.events.put((kind, message_id, info))

    def submit_work(self, item) -> None:
        """From the scheduler (any thread): deadline work for the worker."""
        self.events.put(("work", item))

    def warm_up(self) -> None:
        """Handle made-up mails (nothing is kept) and read a few orders, so
        the first real mail after a start does not pay for loading maps,
        names and templates — while the poison guard charges it for a death;
        and load what a map picture needs, so the first deadline does not."""
        from email.message import EmailMessage

        from ..maps import load_map, load_names
        from ..notation.names import name_index
        try:
            name_index(load_map("standard"), load_names("standard"))
            for body in ("HELP\nLIST\n", "帮助\n", "幫助\n"):
                m = EmailMessage()
                m["From"], m["To"], m["Subject"] = "warm-up@example.invalid", self.address, "warm-up"
                m.set_content(body)
                mail = read_mail(m.as_bytes(), "warm-up", self.address, None, **self.reading)
                for reply in self.handler.handle(mail, Staging(Staging(self.store)), self.clock()):
                    self._row(mail, reply, self.clock())
            warm_pictures()                     # Pillow and the map font, before the first deadline
        except Exception:  # noqa: BLE001 - only a speed-up: the real mail will say what is wrong
            log.debug("worker: warm-up failed", exc_info=True)

    def run(self) -> None:
        self.warm_up()
        recovered = self.spool.recover()
        if recovered:
            log.warning("worker: the judge stopped while processing %d mail(s); one attempt counted "
                        "for each: %s", len(recovered), ", ".join(recovered))
        self._digest_due = self.clock() if self.store.all("digests") else None    # left by the last run
        while not self._stop.is_set():
            self.round()
        try:                     # the sender's reports that came in: recorded, so no mail goes twice
            self._collect(0.0)
            if self._reports:
                self.record_reports(self._reports)
                self._reports = []
        except Exception:  # noqa: BLE001 - the rows stay pending and are sent again at the next start
            log.exception("worker: could not record sent states at stop")
        try:
            self.store.checkpoint()
        except Exception:  # noqa: BLE001 - the journals stay and are applied at the next start
            log.exception("worker: could not sync the store at stop")

    def round(self) -> None:
        """One round of the worker's loop: housekeeping, the waiting mail
        (one batch only while deadline work waits), then ONE game's deadline
        work in a commit of its own, whose mails go to the sender at once —
        so mail never waits behind more than one game's work, and deadline
        work never waits behind more than one batch of mail (issue 23)."""
        try:
            self.housekeeping()
            self.send_digests()
        except Exception:  # noqa: BLE001 - tried again on the next round
            log.exception("worker: housekeeping failed")
        try:
            timeout = self.drain()
        except Exception:  # noqa: BLE001 - e.g. a full disk: keep the entry, try again
            log.exception("worker: processing failed; the entry stays in the spool")
            timeout = 5.0
        self._collect(0.0 if self._work else timeout if not (self._reports or self._out)
                      else min(timeout, REPORT_DELAY))
        if self._work:
            item = next(iter(self._work))
            del self._work[item]
            try:
                self.process_work([item])
            except Exception:  # noqa: BLE001 - the scheduler plans the game again on its rescan
                log.exception("worker: deadline work failed")
        if self._reports and (len(self._reports) >= 200
                              or time.monotonic() - self._reports_since > REPORT_DELAY):
            try:
                self.record_reports(self._reports)
            except Exception:  # noqa: BLE001 - the rows stay pending and are sent again at start
                log.exception("worker: could not record sent states")
            self._reports = []
        if not self._reports:
            self._reports_since = time.monotonic()
        if not self._work and (self._spool_empty or not self.spool.pending()):
            try:
                self.store.checkpoint(IDLE_SYNC)     # idle: make the last commits' files durable
            except Exception:  # noqa: BLE001 - the journals stay; tried again next round
                log.exception("worker: could not sync the store")

    def _collect(self, timeout: float) -> None:
        """Take the events waiting (the first one waited for up to ``timeout``
        seconds): deadline work joins :attr:`_work` (once each, in order),
        sender reports join :attr:`_reports`."""
        events = []
        try:
            events.append(self.events.get(timeout=timeout) if timeout > 0 else self.events.get_nowait())
            while True:
                events.append(self.events.get_nowait())
        except queue.Empty:
            pass
        while self._sent:
            events.append(self._sent.popleft())
        for event in events:
            if event[0] == "work":
                self._work.setdefault(event[1], None)
            elif event[0] in ("sent", "failed"):
                self._reports.append(event)
                self._out = max(self._out - 1, 0)

    # ---- spool entries ---------------------------------------------------------
    def drain(self) -> float:
        """Process waiting spool entries in order, up to ``batch`` per commit
        (after a start :data:`FIRST_BATCH`, doubling with each commit: a judge
        killed every few seconds, or crashing in a loop, still gets its first
        mails committed instead of losing a whole batch each time);
        returns how long to wait (s) before looking again (an entry may be
        waiting for its retry time, and holds back the ones behind it).
        While deadline work waits it returns after one batch (0.0)."""
        while not self._stop.is_set():
            names = []
            since = time.monotonic() - self._looked
            if self._spool_empty and not self.spool.added() and since < LOOK_EVERY:
                return LOOK_EVERY - since           # woken by a sender's report: nothing new to list
            self._looked = time.monotonic()
            waiting = self.spool.pending()
            self._spool_empty = not waiting
            for name in self.fair.order(waiting, self.spool.sender_of):
                wait = self._not_before.get(name, 0) - time.monotonic()
                if wait > 0:
                    if not names:
                        return min(wait, 1.0)
                    break
                names.append(name)
                if len(names) == self._batch_now:
                    break
            if not names:
                return LOOK_EVERY
            self.process_batch(names)
            # every entry listed is gone: the spool is empty unless one was spooled (or written
            # again: failed) here since (added), or by another process (looked for in LOOK_EVERY)
            self._spool_empty = self.spool.removed(waiting)
            self._batch_now = min(self.batch, self._batch_now * 2)
            self._collect(0.0)
            if self._work:                  # deadline work waits: one game's turn (see round)
                return 0.0
        return 0.1

    def process(self, name: str) -> None:
        """Process the spool entry ``name`` (see module doc)."""
        self.process_batch([name])

    def process_batch(self, names: list[str]) -> None:
        """Process entries in order and commit them in ONE transaction (a group
        commit: a burst of mail costs one write, not one per mail). An entry that
        fails stops the batch: the ones before it are committed, it is retried
        later (or shunted), the ones after it wait."""
        entries = self._take(names)
        if not entries:
            return
        if self.store.unfinished():        # a commit reported failed waits in its journal: finish it
            self.store.recover(tell=True)  # before the ledger is read (its rows go to the sender)
        alone = _alone(entries[0])
        if alone:                          # tried before, or its batch died committing: on its own
            entry = entries[0]
            seen = self.store.get("ledger", entry.key)
            if seen is not None and not (seen.get("status") == "shunted" and entry.meta.get("retry")):
                return self._seen_before(entry, seen)
            if entry.meta.get("attempts", 0) >= self.max_attempts or \
                    entry.meta.get("deaths", 0) >= self.max_deaths:
                return self._poisoned(entry)
        self.spool.begin([e.name for e in entries], alone)
        for tries in range(1, CONFLICT_TRIES + 1):
            stamp = self._stamp()
            batch, done, failed = self._stage(entries, alone)
            folded = self._fold_sent(batch)
            self.spool.committing()
            try:
                self._commit(batch, stamp, tries)
                self._reports = [r for r in self._reports if r not in folded]
                break
            except _StoreChanged:
                log.info("worker: another process wrote the store during a batch; making it again")
        self._tell_changed(batch, True)
        for entry, rows, summary in done:
            log.info("mail %s %s", entry.key, summary)
            self._finish(entry)
            self.send(rows)
        if failed:
            self._failed(*failed)
        self.spool.end()

    def _stage(self, entries: list[SpoolEntry], alone: bool):
        """Run the handler on each entry over one staged view of the store:
        ``(batch, done, failed)`` — the staged changes, ``[(entry, outbox
        rows, summary)]`` handled, and ``(entry, mail, error, counted)`` of the
        entry that failed (the batch stops there) or None."""
        batch = Staging(self.store)
        done: list[tuple[SpoolEntry, list[dict], str]] = []
        failed = None
        for entry in entries:
            seen = batch.get("ledger", entry.key)
            if seen is not None and not (seen.get("status") == "shunted" and entry.meta.get("retry")):
                done.append((entry, [], f"duplicate of a mail already {seen.get('status')}; nothing changed"))
                continue
            self.spool.handling(entry.name)        # a death from here on is charged to this one
            now = self.clock()
            mail = None
            if entry.meta.get("source") == "cli":
                done.append(self._command(entry, batch, now))
                continue
            kind = self.fair.klass(entry.name)
            if kind == UNREAD:                     # past its sender's limit: not read, counted
                done.append(self._unread(entry, batch, now))
                continue
            try:
                mail = read_mail(entry.raw, entry.key, self.address, entry.meta.get("mail_from"), **self.reading)
                staging = Staging(batch)
                quiet, held = "", []
                if mail.automatic:
                    replies: list[Reply] = []
                    status, summary = "ignored", f"not answered ({mail.automatic})"
                else:
                    replies = self.handler.handle(mail, staging, now)
                    quiet = getattr(replies, "reason", "")     # the handler chose not to answer (why)
                    if kind == DIGEST:             # its answer waits for the sender's digest
                        held = [r for r in replies if r.purpose == "reply"]
                        replies = [r for r in replies if r.purpose != "reply"]
                    status, summary = ("ignored", f"not answered ({quiet})") if quiet else \
                        ("done", f"{len(replies)} repl{'y' if len(replies) == 1 else 'ies'}"
                                 + (", the answer held for a digest" if held else ""))
                rows = [self._row(mail, r, now, staging) for r in replies]
                answers = [dict(zip(("subject", "text"), render(r.template, r.lang, self.templates, **r.context)),
                                to=r.to[0], lang=r.lang, at=now.isoformat()) for r in held]
            except Exception as e:  # noqa: BLE001 - any bug in a handler must not lose the mail
                failed = (entry, mail, e, False)
                break
            staging.apply(batch)
            for answer in answers:
                self._hold(batch, answer["to"], now, answer=answer)
            if kind == DIGEST and not answers and not mail.automatic and mail.reply_to:
                self._hold(batch, mail.reply_to, now)      # a person writes: its unread mails are told
            ledger = {"status": status, "at": now.isoformat(), "from": mail.sender,
                      "subject": mail.subject[:200], "replies": [r["id"] for r in rows]}
            if held:
                ledger["digest"] = held[0].to[0]
            if status == "ignored":
                ledger["reason"] = mail.automatic or quiet
            batch.put("ledger", entry.key, ledger)
            for row in rows:
                batch.put("outbox", row["id"], _stored(row))
            done.append((entry, rows, f"from {mail.sender or '?'} {mail.subject[:60]!r}: {summary}"))
        return batch, done, failed

    # ---- fair queueing (judge.mail.fairness) ----------------------------------------
    def _unread(self, entry: SpoolEntry, batch: Staging, now: datetime):
        """An entry past its sender's limit: not read; its ledger entry says
        so (``flood``) and the sender's digest counts it."""
        sender, reply_to = entry.meta.get("from", ""), entry.meta.get("reply_to", "")
        batch.put("ledger", entry.key, {"status": "ignored", "at": now.isoformat(), "from": sender,
                                        "subject": "", "replies": [], "reason": "flood"})
        if reply_to or sender:
            self._hold(batch, reply_to or sender, now, unread=1)
        return entry, [], (f"from {sender or '?'}: not read: its sender sent more than {self.fair.read} mails "
                           f"within {WINDOW:g} s (counted in the digest to {reply_to or sender or 'nobody'})")

    def _hold(self, batch: Staging, address: str, now: datetime, answer: dict | None = None,
              unread: int = 0) -> None:
        """Add an ``answer`` (``{subject, text, lang, at}``) or ``unread``
        mails to the digest waiting for ``address`` (table ``digests``; a new
        one is due :data:`~judge.mail.fairness.WINDOW` seconds from ``now``).
        Called without ``unread``, it notes that a person wrote (a mail of
        that sender read and not automatic): only then does a digest of
        unread mails alone go out (no answers to a robot's flood)."""
        address = address.lower()
        row = batch.get("digests", address)
        row = dict(row) if row else {"due": (now + timedelta(seconds=WINDOW)).isoformat(),
                                     "since": now.isoformat(), "lang": self.language, "answers": [],
                                     "more": 0, "unread": 0, "person": False}
        row["person"] = row.get("person", False) or not unread
        if answer is not None:
            if not row["answers"]:
                row["lang"] = answer["lang"]
            if len(row["answers"]) < DIGEST_ANSWERS:
                text = answer["text"] if len(answer["text"]) <= DIGEST_CHARS else \
                    answer["text"][:DIGEST_CHARS].rsplit("\n", 1)[0] + "\n[…]"
                row["answers"] = row["answers"] + [{"subject": answer["subject"], "at": answer["at"], "text": text}]
            else:
                row["more"] += 1
        row["unread"] += unread
        batch.put("digests", address, row)
        due = datetime.fromisoformat(row["due"])
        self._digest_due = due if self._digest_due is None else min(self._digest_due, due)

    def send_digests(self) -> list[str]:
        """Send the digests that are due: ONE commit deletes their rows and
        puts their mails in the outbox; then they go to the sender. A digest
        that holds only unread mails goes out too (nothing is dropped
        unannounced), unless none of that sender's mails read was a person's
        (then it is logged). Returns the addresses whose digests were due."""
        now = self.clock()
        if self._digest_due is None or now < self._digest_due:
            return []
        waiting = self.store.all("digests")
        due = {a: r for a, r in waiting.items() if datetime.fromisoformat(r["due"]) <= now}
        rows = []
        if due:
            with self.store.transaction() as tx:
                for address, row in sorted(due.items()):
                    tx.delete("digests", address)
                    if not row["answers"] and not row.get("person", True):
                        log.info("digest to %s: not sent: %d mail(s) not read, and none read was a person's "
                                 "(automatic mail); they are in the ledger", address, row["unread"])
                        continue
                    reply = Reply(purpose="digest", to=(address,), template="digest.txt", lang=row["lang"],
                                  in_reply=False, context={"answers": row["answers"], "more": row["more"],
                                                           "unread": row["unread"], "since": row["since"],
                                                           "answered": self.fair.answered, "read": self.fair.read,
                                                           "judge_name": self.name, "judge_address": self.address})
                    out = self._row(_blank_mail(f"digest:{address}:{row['since']}"), reply, now)
                    tx.put("outbox", out["id"], _stored(out))
                    rows.append(out)
            for address, row in sorted(due.items()):
                if row["answers"] or row.get("person", True):
                    log.info("digest to %s: %d answer(s) held, %d more read, %d mail(s) not read", address,
                             len(row["answers"]), row["more"], row["unread"])
        rest = [datetime.fromisoformat(r["due"]) for a, r in waiting.items() if a not in due]
        self._digest_due = min(rest) if rest else None
        self.send(rows)
        return sorted(due)

    def _command(self, entry: SpoolEntry, batch: Staging, now: datetime):
        """A ``judge game ...`` work item (see :mod:`judge.mail.keeper`): run
        it on the batch; its result (exit status, output) goes in its ledger
        entry, where the command waiting for it reads it."""
        staging = Staging(batch)
        try:
            work = json.loads(entry.raw)
            replies, result = self.commands(work, staging, now)
            rows = [self._row(_blank_mail(entry.key), r, now, staging) for r in replies]
        except Exception as e:  # noqa: BLE001 - a bug must not stop the worker: the command is told
            log.exception("command %s failed", entry.key)
            staging, rows = Staging(batch), []
            result = {"status": 2, "out": "", "err": f"the judge could not do it: {type(e).__name__}: {e}"}
        if result.get("status", 2) >= 2:       # refused: nothing changes, nothing is mailed
            rows = []
        else:
            staging.apply(batch)
        for row in rows:
            batch.put("outbox", row["id"], _stored(row))
        batch.put("ledger", entry.key, {"status": "done", "at": now.isoformat(), "from": "judge game",
                                        "subject": str(work.get("argv", ""))[:200] if isinstance(work, dict)
                                        else "", "result": result, "replies": [r["id"] for r in rows]})
        return entry, rows, f"command: status {result.get('status')}, {len(rows)} mail(s)"

    def _fold_sent(self, batch: Staging) -> list[tuple]:
        """Stage the deletion of the outbox rows the sender has reported sent
        so far into ``batch``: recorded with the mail, no commit of their own
        (see :meth:`record_reports`). Returns the reports folded in."""
        folded = []
        for report in self._reports:
            if report[0] == "sent" and (batch.get("outbox", report[1]) or {}).get("status") == "pending":
                batch.delete("outbox", report[1])
                folded.append(report)
        return folded

    def _take(self, names: list[str]) -> list[SpoolEntry]:
        """The entries of the next batch, in order: entries never tried, up to
        the first one tried before; or that one alone if it comes first.
        Unreadable entries are set aside on the way."""
        out: list[SpoolEntry] = []
        for name in names:
            try:
                entry = self.spool.read(name)
            except FileNotFoundError:
                continue
            except (OSError, ValueError) as e:
                log.error("spool entry %s unreadable (%s): set aside", name, e)
                raw = (self.spool.new / name).read_bytes()
                self.spool.shunt(SpoolEntry(name, {"key": f"unreadable:{name}"}, raw), f"unreadable: {e}")
                continue
            if _alone(entry):
                return out or [entry]
            out.append(entry)
        return out

    def process_work(self, items: list) -> None:
        """Do deadline work (see module doc), each item once, in one commit."""
        for tries in range(1, CONFLICT_TRIES + 1):
            stamp = self._stamp()
            batch, rows, summaries = self._stage_work(items)
            try:
                self._commit(batch, stamp, tries)
                break
            except _StoreChanged:
                log.info("worker: another process wrote the store during deadline work; doing it again")
        self._tell_changed(batch, False)
        for item, summary, did in summaries:     # logged once committed
            log.log(logging.INFO if did else logging.DEBUG, "%s %s%s: %s", item.kind, item.game or "",
                    f" ({item.phase})" if item.phase else "", summary)
        self.send(rows)

    def _stage_work(self, items: list):
        """``(batch, outbox rows, [(item, summary, changed anything)])`` of the
        deadline work ``items`` over one staged view of the store."""
        batch = Staging(self.store)
        rows, seen, summaries = [], set(), []
        for item in items:
            if item in seen or self.timekeeper is None:
                continue
            seen.add(item)
            now = self.clock()
            staging = Staging(batch)
            replies, summary = self.timekeeper.handle(item, staging, now)
            new = [self._row(_blank_mail("notice"), r, now, staging) for r in replies]
            staging.apply(batch)
            for row in new:
                batch.put("outbox", row["id"], _stored(row))
            rows += new
            summaries.append((item, summary, bool(new) or staging.changes))
        return batch, rows, summaries

    # ---- committing --------------------------------------------------------------
    def _stamp(self) -> str:
        """The store's version (changes with every commit of any process)."""
        return self.store.version()

    def _commit(self, batch: Staging, stamp: str, tries: int) -> None:
        """Commit ``batch`` if it changes anything, made from the store as it
        was at ``stamp``. Raises :class:`_StoreChanged` (nothing written) if
        another process committed since; after :data:`CONFLICT_TRIES` a
        StoreError (nothing written: the batch fails and is tried again later)."""
        if not batch.changes:
            return
        faults.checkpoint("before_commit")
        with self.store.transaction() as tx:
            if self._stamp() != stamp:
                if tries < CONFLICT_TRIES:
                    raise _StoreChanged
                raise StoreError("the store keeps changing under the worker: another process writes it")
            batch.apply(tx)
        faults.checkpoint("after_commit")

    def _recovered_outbox(self, rows: dict[str, dict]) -> None:
        """Outbox rows of a commit that a later transaction finished (its own
        commit was reported failed, e.g. on a full disk after its journal was
        written, so nobody sent them; its mail is then a duplicate): send the
        pending ones now (issue 19, point 7)."""
        pending = with_bodies(self.store, sorted(
            (dict(doc, id=mid) for mid, doc in rows.items() if doc.get("status") == "pending"),
            key=lambda r: (r.get("created", ""), r["id"])))
        if pending:
            log.warning("worker: a commit that had failed was finished from its journal; sending its %d "
                        "mail(s): %s", len(pending), ", ".join(r["id"] for r in pending))
            self.send(pending)

    def _tell_changed(self, batch: Staging, by_mail: bool) -> None:
        """Tell ``changed`` the wakeup rows of the games the batch changed."""
        games = {key for (table, key) in batch.changes if table == "games"}
        if games:
            try:
                self.changed({name: batch.get("wakeups", name) for name in sorted(games)}, by_mail)
            except Exception:  # noqa: BLE001 - planning is redone on the scheduler's rescan
                log.exception("worker: could not tell the scheduler about %s", ", ".join(sorted(games)))

    def _finish(self, entry: SpoolEntry) -> None:
        self._not_before.pop(entry.name, None)
        self.spool.remove(entry.name)
        faults.checkpoint("before_ack")
        self.ack(entry.meta)

    def _row(self, mail: InboundMail, reply: Reply, now: datetime, db=None) -> dict:
        """The outbox row of ``reply``; ``db``: the staged store its maps are kept in."""
        subject, body, mime = self._render(reply, db)
        primary = reply.to[0]
        mid = message_id_for(mail.key, reply.purpose, primary, self.domain)
        apart = reply.shared and db is not None and len(mime) >= BODY_APART
        raw = compose(sender_name=self.name, sender_address=self.address, to=list(reply.to),
                      cc=list(reply.cc), subject=subject, body=body, message_id=mid, now=now,
                      lang=reply.lang, in_reply_to=mail.message_id if reply.in_reply else "",
                      references=mail.references if reply.in_reply else (), game=reply.game,
                      domain=self.domain, mime=b"" if apart else mime)
        row = {"id": mid, "status": "pending", "to": list(reply.to), "cc": list(reply.cc), "subject": subject,
               "raw": raw.decode("ascii"), "created": now.isoformat(),
               "inbound": mail.key, "purpose": reply.purpose, "attempts": 0}
        if apart:                      # the body once in the store for all who get it (issue 23)
            key = hashlib.sha256(mime).hexdigest()
            if db.get(BODIES, key) is None:
                db.put(BODIES, key, {"raw": mime.decode("ascii")})
            row.update(raw=row["raw"] + mime.decode("ascii"), body=key, _head=len(raw))
        return row

    def _render(self, reply: Reply, db=None) -> tuple:
        """``(subject, text, MIME entity bytes)`` of ``reply``: rendered and
        encoded once for all replies with its :attr:`~Reply.shared` key (the
        last ``SHARED_KEPT`` kept), else each time."""
        done = self._rendered.get(reply.shared) if reply.shared else None
        if done is None:
            subject, body = render(reply.template, reply.lang, self.templates, **reply.context)
            html, inline, files = mail_parts(reply, subject, body, self.rasters, db, self.templates)
            done = (subject, body, entity(body, html, inline, files))
            if reply.shared:
                if len(self._rendered) >= SHARED_KEPT:
                    self._rendered.pop(next(iter(self._rendered)))
                self._rendered[reply.shared] = done
        return done

    def _failed(self, entry: SpoolEntry, mail: InboundMail | None, error: Exception, counted: bool) -> None:
        """An attempt at ``entry`` raised ``error``: retry later, or set it aside
        after ``max_attempts``. ``counted``: the attempt was counted before."""
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        entry = self.spool.record_failure(entry, detail, counted)
        attempts = entry.meta["attempts"]
        if attempts < self.max_attempts:
            delay = self.retry_delay * 2 ** (attempts - 1)
            self._not_before[entry.name] = time.monotonic() + delay
            log.warning("mail %s: attempt %d failed (%s); retry in %.0f s", entry.key, attempts, detail, delay)
            return
        log.error("mail %s: failed %d times (%s); set aside:\n%s", entry.key, attempts, detail,
                  "".join(traceback.format_exception(error)))
        self._set_aside(entry, mail, detail, attempts, answer=True)

    def _poisoned(self, entry: SpoolEntry) -> None:
        """``entry`` had its ``max_deaths`` (the process died while handling
        it) or its ``max_attempts`` without finishing: set it aside without
        another try (the sender is answered from its headers alone)."""
        deaths, attempts = entry.meta.get("deaths", 0), entry.meta.get("attempts", 0)
        detail = f"the judge stopped (crashed or was killed) during each of {deaths} attempts to process " \
                 f"this mail" if deaths >= self.max_deaths else entry.meta.get("error") or f"{attempts} failed attempts"
        log.error("mail %s: %d attempts did not finish; set aside without another try", entry.key, deaths + attempts)
        self._set_aside(entry, _headers_only(entry), detail, deaths + attempts, answer=True)

    def _seen_before(self, entry: SpoolEntry, seen: dict) -> None:
        """An entry tried before whose key the ledger has: processed already
        (drop it), or set aside by a run that stopped before moving its bytes
        (move them now; the notices went with the ledger entry)."""
        if seen.get("status") == "shunted":
            self.spool.shunt(entry, seen.get("reason", ""))
            log.warning("mail %s: set aside (finishing an interrupted move)", entry.key)
        else:
            log.info("mail %s: duplicate of a mail already %s; nothing changed", entry.key, seen.get("status"))
            self.spool.remove(entry.name)
        self._not_before.pop(entry.name, None)
        self.ack(entry.meta)

    def _set_aside(self, entry: SpoolEntry, mail: InboundMail | None, detail: str, attempts: int,
                   answer: bool) -> None:
        """Set ``entry`` aside: ONE commit records it in the ledger (status
        shunted) with the judgekeeper's notice (and, with ``answer``, the
        sender's: nothing was changed, send it again); then its bytes move
        to ``spool/shunt`` (a stop in between is finished at the next start:
        :meth:`_seen_before`) and it is acknowledged."""
        now = self.clock()
        path = self.spool.shunt_path(entry)
        if mail is None:
            mail = _blank_mail(entry.key)
        replies = [Reply(purpose="shunt-notice", to=(self.keeper,), template="shunt_notice.txt",
                         lang=self.language, in_reply=False,
                         context={"key": entry.key, "sender": mail.sender, "subject": mail.subject,
                                  "error": detail, "path": str(path), "attempts": attempts})]
        if answer and mail.reply_to and not mail.automatic:
            replies.append(Reply(purpose="shunted", to=(mail.reply_to,), template="shunted.txt",
                                 lang=self.language, context={"subject": mail.subject}))
        rows = [self._row(mail, r, now) for r in replies]
        with self.store.transaction() as tx:
            tx.put("ledger", entry.key, {"status": "shunted", "at": now.isoformat(), "from": mail.sender,
                                         "subject": mail.subject[:200], "reason": detail,
                                         "replies": [r["id"] for r in rows]})
            for row in rows:
                tx.put("outbox", row["id"], _stored(row))
        faults.checkpoint("before_shunt_move")
        self.spool.shunt(entry, detail)
        self._not_before.pop(entry.name, None)
        self.ack(entry.meta)
        self.send(rows)

    # ---- housekeeping ----------------------------------------------------------
    def housekeeping(self) -> None:
        """Resend requests now; the ledger and the mail bodies no outbox row
        names any more pruned every :data:`PRUNE_EVERY` seconds."""
        self.resend()
        if time.monotonic() >= self._next_prune:
            self._next_prune = time.monotonic() + PRUNE_EVERY
            self.prune_ledger()
            self.prune_bodies()

    def prune_bodies(self) -> int:
        """Delete the shared mail bodies (table ``bodies``) that no outbox row
        (waiting or failed) names: their mails were sent. Runs in the worker,
        between commits, so every body a committed row names is kept; returns
        how many went."""
        keys = self.store.body_keys()
        if not keys:
            return 0
        used = {row.get("body") for row in self.store.all("outbox").values()}
        gone = [k for k in keys if k not in used]
        if gone:
            with self.store.transaction() as tx:
                for key in gone:
                    tx.delete(BODIES, key)
            log.info("mail bodies: %d sent and removed, %d kept for mails not sent yet", len(gone),
                     len(keys) - len(gone))
        return len(gone)

    def resend(self) -> list[str]:
        """Do the ``judge spool resend`` requests: each failed outgoing mail named
        becomes pending (attempts from 0) and goes to the sender. Returns the
        Message-IDs sent again."""
        requests = self.spool.resend_requests()
        if not requests:
            return []
        rows = []
        with self.store.transaction() as tx:
            for _path, mid in requests:
                row = tx.get("outbox", mid)
                if row is None or row.get("status") != "failed":
                    log.warning("resend %s: %s", mid, "no such outgoing mail" if row is None
                                else f"it is {row.get('status')}, not failed")
                    continue
                row = {k: v for k, v in row.items() if k != "error"}
                row.update(status="pending", attempts=0)
                tx.put("outbox", mid, row)
                rows.append(dict(row, id=mid))
        rows = with_bodies(self.store, rows)
        for path, _mid in requests:
            path.unlink(missing_ok=True)
        for row in rows:
            log.info("outgoing mail %s to %s: sent again at the judgekeeper's request", row["id"],
                     ", ".join(row["to"]))
        self.send(rows)
        return [r["id"] for r in rows]

    def prune_ledger(self) -> int:
        """Remove ledger entries older than ``ledger_days`` (0: keep them all):
        whole weeks dropped (:meth:`judge.storage.Store.expire_ledger`);
        returns how many went."""
        if not self.ledger_days:
            return 0
        gone = self.store.expire_ledger((self.clock() - timedelta(days=self.ledger_days)).timestamp())
        if gone:
            log.info("ledger: %d entr%s older than %g days removed", gone, "y" if gone == 1 else "ies",
                     self.ledger_days)
        return gone

    # ---- sender reports --------------------------------------------------------
    def record_reports(self, reports: list[tuple]) -> None:
        """Commit sent/failed states of outbox rows, all in one transaction: a
        sent row is deleted (the ledger keeps its Message-ID), a failed one is
        kept with its text and makes a notice to the judgekeeper (unless it was one)."""
        if not reports:
            return
        now = self.clock()
        notices, notice_rows = [], []
        with self.store.transaction() as tx:
            for kind, mid, info in reports:
                row = tx.get("outbox", mid)
                if row is None or row.get("status") != "pending":
                    continue
                if kind == "sent":           # the ledger keeps its Message-ID; keep the store small
                    tx.delete("outbox", mid)
                    continue
                row = dict(row, status="failed", error=info.get("error", ""),
                           attempts=info.get("attempts", row.get("attempts", 0)))
                if row.get("purpose") != "send-failed-notice":
                    notices.append((mid, row))
                tx.put("outbox", mid, row)
            for mid, row in notices:
                reply = Reply(purpose="send-failed-notice", to=(self.keeper,), template="send_failed.txt",
                              lang=self.language, in_reply=False,
                              context={"message_id": mid, "to": row["to"], "error": row.get("error", "")})
                notice = self._row(_blank_mail(mid), reply, now)
                tx.put("outbox", notice["id"], _stored(notice))
                notice_rows.append(notice)
        for mid, row in notices:
            log.error("outgoing mail %s to %s failed for good: %s", mid, ", ".join(row["to"]), row["error"])
        self.send(notice_rows)


_HEADERS = BytesHeaderParser(policy=DEFAULT)

BODY_APART = 4096
"""A shared reply's MIME body of this many bytes or more is stored once (table
``bodies``) and named by each of its outbox rows, instead of in every row
(issue 23: with the map in every row, JSON encoding was 12 % of a deadline's
CPU and the commit 26 %; after, 5.5 % and 19 %: py-spy, ``storm.py --games
300``). In memory, and for the sender, a row is whole: ``raw`` is the mail,
``_head`` the length of its header block."""


def _stored(row: dict) -> dict:
    """The outbox document of ``row``: without its id (the key); a row whose
    body is shared (``body``, in table ``bodies``) keeps only its header
    block (``raw`` up to ``_head``)."""
    doc = {k: v for k, v in row.items() if k not in ("id", "_head")}
    if "_head" in row:
        doc["raw"] = row["raw"][:row["_head"]]
    return doc


def with_bodies(store, rows: list[dict]) -> list[dict]:
    """``rows`` read from the store, each that names a shared body
    (``body``) made whole again (``raw`` its header block + the body,
    ``_head`` where the body starts); a row whose body is missing is left as
    it is (the sender reports the mail failed, saying so)."""
    out = []
    for row in rows:
        if row.get("body") and "_head" not in row:
            doc = store.get(BODIES, row["body"])
            if doc:
                row = dict(row, raw=row["raw"] + doc["raw"], _head=len(row["raw"]))
        out.append(row)
    return out


def _headers_only(entry: SpoolEntry) -> InboundMail:
    """Sender and subject of an entry read from its headers alone (for a mail
    that may kill a full reading); no address to answer."""
    sender = subject = reply_to = automatic = ""
    try:
        head = _HEADERS.parsebytes(entry.raw)
        sender, subject = str(head.get("From", "")), str(head.get("Subject", ""))
        reply_to = parseaddr(str(head.get("Reply-To") or sender))[1]
        reply_to = reply_to if re.fullmatch(r"[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+", reply_to) else ""
        auto = str(head.get("Auto-Submitted", "no")).strip().lower()
        precedence = str(head.get("Precedence", "")).strip().lower()
        if auto != "no" or precedence in ("bulk", "list", "junk") or head.get("List-Id"):
            automatic = "automatic"
    except Exception:  # noqa: BLE001 - whatever the headers hold, the judgekeeper is told
        pass
    return InboundMail(key=entry.key, sender=sender[:200], sender_name="", reply_to=reply_to,
                       subject=subject[:200], message_id="", references=(), text="", automatic=automatic)


def _alone(entry: SpoolEntry) -> bool:
    """Is ``entry`` to be processed on its own (tried before, or its batch died committing)?"""
    return entry.meta.get("attempts", 0) > 0 or entry.meta.get("deaths", 0) > 0 or bool(entry.meta.get("alone"))


def _blank_mail(key: str) -> InboundMail:
    """Stands for the inbound mail of a notice that answers none."""
    return InboundMail(key=key, sender="", sender_name="", reply_to="", subject="", message_id="",
                       references=(), text="", automatic="")
