"""Fuzz benchmark (issue 12): mutated mails through the real reader and
command handler, and the cost of long mails.

    python benchmarks/fuzz.py [--mails 20000] [--seed 7] [--only-fuzz]

Each mail — every other one from tests/mailfuzz.py (seed mails in English
and Chinese, far dates, malformed and failed SIGNONs, mutated one to three
times), the others from tests/passwordfuzz.py (SIGNON lines malformed in
every way, in mislabelled charsets) — is read (:func:`judge.mail.message.read_mail`, with the
default ``[limits]``), handled (:class:`judge.mail.handler.MailHandler` on
a staged view of a real store; the staged changes are committed every 100
mails; a new store and game every :data:`ROUND` mails) and its replies rendered and composed as the worker does. Prints:

- tracebacks: mails whose reading, handling or rendering raised (target 0);
- answers holding a password: every answer composed, swept
  (:func:`passwordfuzz.leaks`) for every password of the game and of the
  mail (target 0);
- unaccounted: mails neither answered nor ignored with a reason (target 0);
- answered / ignored (by reason);
- handling time per mail: median, p99, max (ms; target p99 <= 200 ms);
- RSS growth from mail 1,000 to the end (MB; target <= 20 MB);
- long mails: N copies of an order line (limits off: the cost must grow
  linearly) and the 5 MB and 8,000-line mails with the default limits;
- beside them: ``judge serve`` (embedded SMTP in, Maildir out, the game of
  ``benchmarks/scale.py``) answering paced order mails, alone and while the
  5 MB and the 8,000-line mails come in: the paced mails' latency (median,
  max; ms) and how long the two long mails waited for their answers (ms;
  target <= 2 s each, the paced ones at their usual latency).
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import time
import traceback
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import mailfuzz  # noqa: E402
import passwordfuzz  # noqa: E402

from judge.config import Config  # noqa: E402
from judge.mail.handler import MailHandler  # noqa: E402
from judge.mail.compose import compose, message_id_for  # noqa: E402
from judge.mail.message import read_mail  # noqa: E402
from judge.mail.render import render  # noqa: E402
from judge.mail.staging import Staging  # noqa: E402
from judge.storage import Store  # noqa: E402

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=timezone.utc)
ROUND = 1000
"""Mails per game: each round of fuzz mails plays in a new store and game fz
(the orders of one phase are kept, replaced ones too, so a phase of 20,000
mails would measure the size of its orders, not the handling)."""
MINUTES = 12
"""The judge's clock moves this much between two fuzz mails (a round ends
before the game's first deadline, nine days after NOW)."""


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Bench:
    """The reader, handler and renderer over a store in a temporary folder."""

    def __init__(self, cfg: Config, folder: Path, handler: MailHandler | None = None):
        self.cfg = cfg
        self.store = Store(folder / "store")
        self.handler = handler or MailHandler(cfg)
        self.batch = Staging(self.store)
        self.now = NOW

    def handle(self, raw: bytes, key: str) -> tuple[str, str]:
        """``(outcome, detail)``: answered, ignored (reason) or unaccounted.
        ``key``: the ledger key (the spool makes it when the mail arrives)."""
        mail = read_mail(raw, key, self.cfg.judge.address, None, limits=self.cfg.limits,
                         markers=tuple(self.cfg.senders.loop_headers))
        if mail.automatic:
            return "ignored", mail.automatic
        staging = Staging(self.batch)
        replies = self.handler.handle(mail, staging, self.now)
        self.answers = []                # the raw mails composed for this one (benchmarks/passwords.py sweeps them)
        for r in replies:
            subject, body = render(r.template, r.lang, **r.context)
            self.answers.append(compose(sender_name="Judge", sender_address=self.cfg.judge.address, to=list(r.to), cc=list(r.cc),
                    subject=subject, body=body, message_id=message_id_for(key, r.purpose, r.to[0], "example.test"),
                    now=self.now, lang=r.lang, in_reply_to=mail.message_id, references=mail.references,
                    game=r.game, domain="example.test", attachments=r.attachments))
        staging.apply(self.batch)
        if getattr(replies, "reason", ""):
            return "ignored", replies.reason
        return ("answered", "") if replies else ("unaccounted", "no reply and no reason")

    def commit(self) -> None:
        with self.store.transaction() as tx:
            self.batch.apply(tx)
        self.batch = Staging(self.store)


def mixed(seed: int, count: int):
    """``count`` ``(raw mail, passwords it may hold)``: every other one a
    mutated mail of :mod:`mailfuzz` (far dates, malformed and failed SIGNONs
    among its seeds), the others :mod:`passwordfuzz`'s (malformed SIGNON lines
    in mislabelled charsets); every password of the game is swept for in every answer."""
    known = mailfuzz.passwords()
    mutated, written = mailfuzz.mails(seed, count), passwordfuzz.mails(seed, count)
    for i in range(count):
        if i % 2 == 0:
            yield next(mutated), known
        else:
            raw, secrets = next(written)
            yield raw, known | secrets


def fuzz(count: int, seed: int) -> None:
    cfg = Config()
    cfg.judge.address = mailfuzz.JUDGE
    handler = MailHandler(cfg)          # one handler for the whole run: what it keeps would show in RSS
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as top:
        times, outcomes, reasons, failures = [], collections.Counter(), collections.Counter(), []
        swept, leaked = 0, []
        rss_start = None
        for i, (raw, secrets) in enumerate(mixed(seed, count)):
            if i % ROUND == 0:           # a new game: one phase's orders must not pile up for ever
                bench = Bench(cfg, Path(tempfile.mkdtemp(dir=top)), handler)
                for k, setup in enumerate(mailfuzz.setup_mails()):
                    assert bench.handle(setup, f"setup-{i}-{k}")[0] == "answered"
                bench.commit()
            if i == 1000:
                rss_start = rss_mb()
            # MINUTES apart: a game's wrong passwords lock a power now and then, not for the whole round
            bench.now = NOW + timedelta(minutes=MINUTES * (i % ROUND))
            t = time.perf_counter()
            try:
                outcome, detail = bench.handle(raw, f"fuzz-{seed}-{i}")
            except Exception:  # noqa: BLE001 - counted and shown
                outcome, detail = "traceback", traceback.format_exc()
                failures.append((i, detail))
            times.append(time.perf_counter() - t)
            if outcome != "traceback":
                for answer in bench.answers:
                    swept += 1
                    found = passwordfuzz.leaks(answer, secrets)
                    if found:
                        leaked.append((i, found))
            outcomes[outcome] += 1
            if outcome == "ignored":
                reasons[detail] += 1
            if i % 100 == 99:
                bench.commit()
            if i % 2000 == 1999:          # progress, for a long run on a busy machine
                print(f"  ... {i + 1} mails, {time.perf_counter() - started:.0f} s: tracebacks "
                      f"{outcomes['traceback']}, answers holding a password {len(leaked)}", file=sys.stderr, flush=True)
        bench.commit()
        rss_end = rss_mb()
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"fuzz: {count} mails (seed {seed}): half mutated (far dates, malformed SIGNONs among the seeds), "
          f"half malformed SIGNON lines in mislabelled charsets; {time.perf_counter() - started:.0f} s, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"  tracebacks: {outcomes['traceback']}   unaccounted: {outcomes['unaccounted']}")
    print(f"  answers swept for every password: {swept}   holding a password: {len(leaked)}")
    for i, found in leaked[:5]:
        print(f"    mail {i}: {found}")
    print(f"  answered: {outcomes['answered']}   ignored: {outcomes['ignored']} "
          f"({', '.join(f'{k} {v}' for k, v in reasons.most_common())})")
    print(f"  handling time per mail: median {statistics.median(ms):.1f} ms, "
          f"p99 {ms[int(len(ms) * 0.99) - 1]:.1f} ms, max {ms[-1]:.1f} ms")
    if rss_start is not None:
        print(f"  RSS: {rss_start:.0f} MB at mail 1000, {rss_end:.0f} MB at the end "
              f"(growth {rss_end - rss_start:+.1f} MB)")
    for i, detail in failures[:3]:
        print(f"--- mail {i}:\n{detail}")


def long_mails() -> None:
    print("long mails (one mail, read + handled + rendered):")
    for limits_on in (False, True):
        cfg = Config()
        cfg.judge.address = mailfuzz.JUDGE
        if not limits_on:
            cfg.limits = replace(cfg.limits, order_lines=0, command_lines=0, mail_bytes=0)
        with tempfile.TemporaryDirectory() as folder:
            bench = Bench(cfg, Path(folder))
            for i, raw in enumerate(mailfuzz.setup_mails()):
                bench.handle(raw, f"setup-{i}")
            bench.commit()
            address, password = mailfuzz.PLAYERS["France"]
            sizes = (1000, 2000, 4000, 8000) if not limits_on else (8000,)
            for n in sizes:
                raw = (f"From: {address}\nTo: {mailfuzz.JUDGE}\nMessage-ID: <long-{n}-{limits_on}@x>\n"
                       f"Subject: orders\n\nSIGNON {mailfuzz.GAME} {password}\n" + "A Par - Bur\n" * n).encode()
                t = time.perf_counter()
                outcome, _ = bench.handle(raw, f"long-{n}-{limits_on}")
                label = "default limits" if limits_on else "no limits"
                print(f"  {n:5d} copies of an order line ({len(raw) // 1000} kB, {label}): "
                      f"{(time.perf_counter() - t) * 1000:7.1f} ms, {outcome}")
            if limits_on:
                big = (f"From: {address}\nTo: {mailfuzz.JUDGE}\nMessage-ID: <big@x>\nSubject: orders\n\n"
                       f"SIGNON {mailfuzz.GAME} {password}\nA Par - Bur\n").encode() + b"x" * 5_000_000 + b"\n"
                t = time.perf_counter()
                outcome, _ = bench.handle(big, "big")
                print(f"  a 5 MB mail (default limits): {(time.perf_counter() - t) * 1000:7.1f} ms, {outcome}")


def beside() -> None:
    """Paced order mails to a running judge, alone and beside the long mails."""
    import shutil
    import smtplib
    import threading
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import scale
    from judge.storage import Store
    folder = Path(tempfile.mkdtemp(prefix="judge-fuzz-beside-"))
    try:
        scale.fill(Store(folder / "data" / "store"), 1, datetime.now(timezone.utc))
        judge = scale.Judge(folder, scale.free_port())
        try:
            def paced(n: int) -> list[float]:
                out = []
                for i in range(n):
                    before = judge.mails()
                    t = time.perf_counter()
                    with smtplib.SMTP("127.0.0.1", judge.port, local_hostname="bench.example") as c:
                        c.sendmail("x@players.example", ["judge@example.test"],
                                   scale.order_mail("g00000", sorted(scale.HOLDS)[i % len(scale.HOLDS)]))
                    out.append((scale.wait_new(judge, before, 1) - t) * 1000)
                    time.sleep(0.05)
                return out
            paced(3)                                   # warm-up
            alone = paced(30)
            power = sorted(scale.HOLDS)[0]
            address = f"{power.lower()}@g00000.example"
            order = scale.HOLDS[power].split("\n")[0] + "\n"
            longs = {"8,000-line": (f"From: {address}\nTo: judge@example.test\nMessage-ID: <lines@x>\n"
                                    f"Subject: orders\n\nSIGNON g00000\n" + order * 8000).encode(),
                     "5 MB": (f"From: {address}\nTo: judge@example.test\nMessage-ID: <big@x>\n"
                              f"Subject: orders\n\nSIGNON g00000\n{order}").encode()
                     + (b"x" * 78 + b"\n") * 64_000}                  # 5 MB in lines SMTP allows
            longs = {label: raw.replace(b"\n", b"\r\n") for label, raw in longs.items()}   # as SMTP carries them
            waited: dict[str, float] = {}

            def send_long(label: str, raw: bytes) -> None:
                t = time.perf_counter()
                with smtplib.SMTP("127.0.0.1", judge.port, local_hostname="bench.example") as c:
                    c.sendmail("x@players.example", ["judge@example.test"], raw)
                end = time.monotonic() + 30
                mid = raw.split(b"Message-ID: ")[1].split(b"\n")[0]
                while time.monotonic() < end:
                    for name in judge.mails():
                        if mid in (judge.outbox / name).read_bytes()[:3000]:
                            waited[label] = (time.perf_counter() - t) * 1000
                            return
                    time.sleep(0.005)
            threads = [threading.Thread(target=send_long, args=item) for item in longs.items()]
            for th in threads:
                th.start()
            with_long = paced(30)
            for th in threads:
                th.join()
        finally:
            judge.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("beside the long mails (judge serve, paced order mails):")
    print(f"  alone:               median {statistics.median(alone):6.1f} ms, max {max(alone):6.1f} ms")
    print(f"  with the long mails: median {statistics.median(with_long):6.1f} ms, max {max(with_long):6.1f} ms")
    for label in longs:
        print(f"  the {label} mail answered after {waited.get(label, float('nan')):7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mails", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only-fuzz", action="store_true", help="the fuzzed mails only (not the long mails nor judge serve)")
    args = ap.parse_args()
    if not args.only_fuzz:
        long_mails()
        beside()
    fuzz(args.mails, args.seed)


if __name__ == "__main__":
    main()
