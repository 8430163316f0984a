"""Scale benchmark (issues 10, 23): a judge holding N running games, driven for real.

    python benchmarks/scale.py [--games 1,10000] [--ledger-days 90] [--mails 40] [--burst 200]
                               [--resends 50] [--list-games 100000]
    python benchmarks/scale.py --storm N      # N games due at once: benchmarks/storm.py

For each N, a store is filled (:mod:`scalefill`) with N RUNNING games made
from a game set up by mail in this process (the GM's ``CREATE``, seven
``JOIN`` mails with passwords), each with two years of history and its
clock running, and a ledger of ``--ledger-days`` days (6.7 entries per game
and day: 6 M rows for 10,000 games in 90 days). Then ``judge serve`` runs
as a process (embedded SMTP in, Maildir out; the embedded default
``auth = "password"``; no per-sender bound: a benchmark's players send
far more than 5 mails a minute, which the judge would answer with a
digest) and this prints, per N:

- ``ready``: ``judge serve`` start to its "reading" log line (s);
- ``1st ms``: CPU of a first order mail of each power (its password's
  scrypt check, cached from then on; the copies share each power's hash,
  so one mail a power is measured);
- ``cpu/mail``: the daemon's CPU time (user + system, /proc) per order mail
  (``SIGNON game password``, then moves and supports for every unit), over
  paced mails of players who signed on before (ms). One power of each game
  sends none: no game's orders complete, so none is adjudicated early and
  every mail's orders are for the phase it is in;
- ``latency``: order mail sent -> confirmation in the Maildir, median and p95 (ms);
- ``smtp 250``: the SMTP transaction of one mail, median and p95 (ms);
- ``burst``: order mails per second, from the first sent to the last confirmed;
- ``deadline``: a game's deadline -> the last of its 8 results mails (ms);
  the deadline is set by ``judge game gm ... deadline`` a margin ahead taken
  from that command's own time (3 x its duration, at least 3 s);
- ``rss``: the daemon's resident memory at the end (MB).

The first line gives the load average and the machine's pace at the start,
the last line its pace at the end: the CPU seconds of a fixed pure-Python
loop (:func:`pace`; 0.29 s at a good moment of the 2-core VM these figures
come from, 0.83 s minutes later: its host's load changes what a CPU second
buys, and every CPU figure with it).

Then, on the largest N: one power's orders sent ``--resends`` times in one
phase (each mail replaces the last): CPU per mail and ``game.json``'s size
by tenths. Then ``LIST`` at ``--list-games`` games in the catalogue (1 %
of them forming, with free powers): CPU and latency per ``LIST`` mail. Then
one game is played 1901-1930 and the store's cost of each phase printed per
decade. The last line is ``cpu per order mail, N games / 1 game: R``.
A figure that misses its margin prints ``nan``; nothing here stops the run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import smtplib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import scalefill  # noqa: E402
from adjudicate import movement_orders  # noqa: E402
from mailserver.harness import free_port  # noqa: E402
from permail import order_texts  # noqa: E402
from storm import serve, stop  # noqa: E402

from judge.game import Game, Player  # noqa: E402
from judge.storage import Store, save_game  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
POWERS = scalefill.POWERS
NAN = float("nan")


# ---- the daemon -------------------------------------------------------------------------
SENDERS = "answered_per_minute = 100000\nread_per_minute = 100000"
"""The judge's [senders] table here: its players send far more than a few mails a minute."""


class Judge:
    def __init__(self, folder: Path, port: int):
        self.folder, self.port = folder, port
        self.log = folder / "judge.log"
        self.outbox = folder / "data" / "outbox" / "new"
        t = time.perf_counter()
        self.proc = serve(folder, port, SENDERS)
        self.ready = time.perf_counter() - t

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def mails(self) -> set[str]:
        return set(os.listdir(self.outbox)) if self.outbox.exists() else set()

    def stop(self) -> None:
        stop(self.proc)


def order_mail(game: str, power: str, lines: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = f"{power.lower()}@{game}.example", "judge@example.test", "orders"
    m["Message-ID"] = make_msgid(domain="players.example")
    m.set_content(f"SIGNON {game} {scalefill.password(power)}\n{lines}\n")
    return m.as_bytes(policy=policy.SMTP)                  # CRLF line ends, as SMTP carries them


def plain_mail(frm: str, body: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = frm, "judge@example.test", "cmd"
    m["Message-ID"] = make_msgid(domain="players.example")
    m.set_content(body)
    return m.as_bytes(policy=policy.SMTP)


def wait_new(judge: Judge, before: set[str], count: int, timeout: float = 60.0) -> float:
    """The time ``count`` new mails are in the Maildir, or NaN after ``timeout``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len(judge.mails() - before) >= count:
            return time.perf_counter()
        time.sleep(0.002)
    return NAN


def send_one(judge: Judge, raw: bytes, check: bytes | None = None) -> tuple[float, float]:
    """Send one mail and wait for its answer: (SMTP ms, answer ms). With
    ``check``: the answer must hold it (else the run stops: it measured refusals)."""
    before = judge.mails()
    with smtplib.SMTP("127.0.0.1", judge.port, local_hostname="bench.example") as s:
        t = time.perf_counter()
        s.sendmail("x@players.example", ["judge@example.test"], raw)
        smtp = (time.perf_counter() - t) * 1000
    done = wait_new(judge, before, 1)
    if check is not None:
        reply = b"".join((judge.outbox / n).read_bytes() for n in judge.mails() - before)
        if check not in reply:
            raise SystemExit("a mail was not answered as it should be:\n" + reply.decode(errors="replace")[:3000])
    return smtp, (done - t) * 1000


def pace() -> float:
    """CPU seconds of a fixed pure-Python loop (5,000,000 additions): the
    machine's speed at the moment (a shared VM's varies by half), to read
    CPU figures of different runs against each other."""
    t, total = time.process_time(), 0
    for i in range(5_000_000):
        total += i
    return time.process_time() - t


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def drive(judge: Judge, texts: dict, mails: int, burst: int, rng: random.Random) -> dict:
    out: dict = {}
    pairs = sorted(texts)
    chosen = [rng.choice(pairs) for _ in range(mails)]
    # a first sign-on pays the scrypt check of its password: the copies share each power's hash
    # (scalefill), so only the first mail of each power is measured; the others warm up unmeasured
    first = list({power: (game, power) for game, power in sorted(set(chosen), reverse=True)}.values())
    cpu0 = judge.cpu()
    for game, power in first:
        send_one(judge, order_mail(game, power, texts[(game, power)]), b"has an order")
    out["first"] = (judge.cpu() - cpu0) / len(first) * 1000
    for game, power in sorted(set(chosen) - set(first)):
        send_one(judge, order_mail(game, power, texts[(game, power)]), b"has an order")
    lat, smtp_ms = [], []
    cpu0 = judge.cpu()
    with smtplib.SMTP("127.0.0.1", judge.port, local_hostname="bench.example") as s:
        for game, power in chosen:
            raw = order_mail(game, power, texts[(game, power)])
            before = judge.mails()
            t = time.perf_counter()
            s.sendmail("x@players.example", ["judge@example.test"], raw)
            smtp_ms.append((time.perf_counter() - t) * 1000)
            lat.append((wait_new(judge, before, 1) - t) * 1000)
    out["cpu"] = (judge.cpu() - cpu0) / mails * 1000
    out["lat"], out["smtp"] = lat, smtp_ms
    # burst: four connections sending at once
    raws = [order_mail(g, p, texts[(g, p)]) for g, p in (rng.choice(chosen) for _ in range(burst))]
    before = judge.mails()
    t = time.perf_counter()

    def sender(part):
        with smtplib.SMTP("127.0.0.1", judge.port, local_hostname="bench.example") as s:
            for raw in part:
                s.sendmail("x@players.example", ["judge@example.test"], raw)
    threads = [threading.Thread(target=sender, args=(raws[i::4],)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    out["burst"] = burst / (wait_new(judge, before, burst, timeout=600) - t)
    return out


def gm_command(judge: Judge, *words: str) -> float:
    """Run ``judge game gm ...`` against the running judge; its seconds."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "judge.cli", "game", "gm", *words, "--config",
                    str(judge.folder / "judge.toml")], cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - t


def deadline(judge: Judge, game: str) -> float:
    """Deadline -> the last of the game's 8 results mails (ms); the deadline
    is set a margin ahead taken from the command's own time (NaN if missed)."""
    far = (datetime.now(timezone.utc) + timedelta(days=1)).replace(microsecond=0)
    took = gm_command(judge, game, "deadline", far.isoformat())
    when = (datetime.now(timezone.utc) + timedelta(seconds=max(3.0, 3 * took))).replace(microsecond=0)
    gm_command(judge, game, "deadline", when.isoformat())
    if datetime.now(timezone.utc) >= when:
        return NAN
    before = judge.mails()
    end = time.monotonic() + max(30.0, 10 * took)
    results: list[str] = []
    while time.monotonic() < end and len(results) < 8:
        new = judge.mails() - before
        results = [n for n in new if f"Subject: Diplomacy results {game}".encode()
                   in (judge.outbox / n).read_bytes()[:2000]]
        time.sleep(0.002)
    last = max(os.stat(judge.outbox / n).st_mtime for n in results) if results else NAN
    return (last - when.timestamp()) * 1000 if len(results) == 8 else NAN


def resends(judge: Judge, texts: dict, count: int, game: str = "g00001") -> list[tuple[int, float, float]]:
    """One power's orders sent ``count`` times in one phase: per tenth, (last
    mail number, CPU per mail ms, game.json KB after it)."""
    power = next(p for g, p in sorted(texts) if g == game)
    path = judge.folder / "data" / "store" / "games" / game / "game.json"
    out, step = [], max(count // 10, 1)
    send_one(judge, order_mail(game, power, texts[(game, power)]), b"has an order")
    for start in range(0, count, step):
        cpu0 = judge.cpu()
        for _ in range(start, min(count, start + step)):
            send_one(judge, order_mail(game, power, texts[(game, power)]))
        out.append((min(count, start + step), (judge.cpu() - cpu0) / step * 1000, path.stat().st_size / 1024))
    return out


def list_games(folder: Path, total: int, mails: int) -> dict:
    """``LIST`` (no password, no game) at ``total`` games in the catalogue
    (1 % forming with free powers, in the ``open`` index too): CPU and
    latency per LIST mail."""
    store = Store(folder / "data" / "store")
    forming = Game.create("forming0", now=datetime.now(timezone.utc), seed=1)
    forming.players["France"] = Player(("france@forming0.example",), "x", "en")
    with store.transaction() as tx:
        save_game(tx, forming)
        row = tx.get("catalogue", "forming0")
        for i in range(total - 1):
            name = f"c{i:06d}"
            free = i % 100 == 0
            tx.put("catalogue", name, dict(row, status="forming" if free else "running", free=6 if free else 0,
                                           players=1 if free else 7))
            if free:
                tx.put("open", name, {"listed": True})
    store.close()
    judge = Judge(folder, free_port())
    try:
        send_one(judge, plain_mail("someone@new.example", "LIST\n"))         # warm-up
        lat, cpu0 = [], judge.cpu()
        for i in range(mails):
            lat.append(send_one(judge, plain_mail(f"someone{i}@new.example", "LIST\n"))[1])
        return {"cpu": (judge.cpu() - cpu0) / mails * 1000, "lat": lat}
    finally:
        judge.stop()


# ---- the store's cost per phase -------------------------------------------------------------
def cost_per_decade(folder: Path) -> list[tuple[str, float, float]]:
    store = Store(folder / "decades")
    now = datetime(2030, 1, 1, tzinfo=timezone.utc)
    game = Game.create("long", now=now, seed=3)
    for p in POWERS:
        game.players[p] = Player((f"{p.lower()}@long.example",), "x", "en")
    rng = random.Random(3)
    rows: dict[int, list[tuple[float, int]]] = {}
    while game.phase.year <= 1930:
        if game.phase.kind == "M":
            for power, orders in movement_orders(rng, game.map, game.position).items():
                game.submit(power, orders, now)
        year = game.phase.year
        now += timedelta(hours=12)
        game.process(now)
        size0 = _size(store.root)
        t = time.process_time()
        with store.transaction() as tx:
            save_game(tx, game)
        rows.setdefault((year - 1901) // 10, []).append((time.process_time() - t, _size(store.root) - size0))
        if game.finished:
            break
    return [(f"{1901 + 10 * d}-{1910 + 10 * d}", statistics.median(c for c, _ in r) * 1000,
             statistics.mean(b for _, b in r) / 1024) for d, r in sorted(rows.items())]


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*.json"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="1,10000", help="comma-separated game counts")
    ap.add_argument("--ledger-days", type=float, default=90.0, help="age of the ledger filled in (days)")
    ap.add_argument("--mails", type=int, default=40, help="paced order mails per game count")
    ap.add_argument("--burst", type=int, default=200, help="order mails of the burst")
    ap.add_argument("--resends", type=int, default=50, help="one power's orders sent again (0: skip)")
    ap.add_argument("--list-games", type=int, default=100000, help="games in the catalogue for LIST (0: skip)")
    ap.add_argument("--storm", type=int, metavar="N", help="only the storm: N games due at the same second "
                    "(benchmarks/storm.py)")
    args = ap.parse_args()
    if args.storm:
        import storm
        return storm.run(args.storm)
    counts = [int(x) for x in args.games.split(",")]
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores); "
          f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}; "
          f"this machine's pace now: {pace():.2f} s", flush=True)
    now = datetime.now(timezone.utc)
    work = Path(tempfile.mkdtemp(prefix="judge-scale-"))
    tpl = scalefill.template(work / "template", now)
    print(f"{'games':>6} {'fill s':>7} {'ledger':>9} {'ready s':>7} {'1st ms':>7} {'cpu/mail ms':>11} {'lat med':>7} "
          f"{'lat p95':>7} {'250 med':>7} {'250 p95':>7} {'burst/s':>7} {'deadline ms':>11} {'rss MB':>6}", flush=True)
    cpu_by_n, again = {}, None
    for n in counts:
        folder = Path(tempfile.mkdtemp(prefix=f"judge-scale-{n}-"))
        filled = scalefill.fill(folder / "data" / "store", n, tpl)
        rows, _s = scalefill.fill_ledger(Store(folder / "data" / "store"), n, args.ledger_days, now)
        texts = order_texts(Store(folder / "data" / "store"),
                            sorted({f"g{i:05d}" for i in random.Random(n).sample(range(n), min(n, args.mails))}
                                   | {"g00000", f"g{min(1, n - 1):05d}"}))
        texts = {k: v for k, v in texts.items() if k[1] != POWERS[-1]}       # one power silent (see doc)
        judge = Judge(folder, free_port())
        try:
            r = drive(judge, texts, args.mails, args.burst, random.Random(n))
            if n == max(counts) and args.resends:
                again = resends(judge, texts, args.resends, f"g{min(1, n - 1):05d}")
            r["deadline"] = deadline(judge, "g00000")
            r["rss"] = judge.rss_mb()
        finally:
            judge.stop()
        cpu_by_n[n] = r["cpu"]
        print(f"{n:>6} {filled:>7.1f} {rows:>9} {judge.ready:>7.2f} {r['first']:>7.1f} {r['cpu']:>11.1f} "
              f"{statistics.median(r['lat']):>7.1f} {pct(r['lat'], 95):>7.1f} {statistics.median(r['smtp']):>7.1f} "
              f"{pct(r['smtp'], 95):>7.1f} {r['burst']:>7.1f} {r['deadline']:>11.0f} {r['rss']:>6.0f}", flush=True)
        shutil.rmtree(folder, ignore_errors=True)
    if again:
        print(f"orders sent again in one phase ({max(counts)} games; after mail n: cpu per mail, game.json):")
        print("  " + "; ".join(f"{k}: {c:.1f} ms {kb:.1f} KB" for k, c, kb in again), flush=True)
    if args.list_games:
        folder = Path(tempfile.mkdtemp(prefix="judge-scale-list-"))
        try:
            r = list_games(folder, args.list_games, 20)
            print(f"LIST at {args.list_games} games: cpu {r['cpu']:.1f} ms a mail; answered in median "
                  f"{statistics.median(r['lat']):.1f} ms, p95 {pct(r['lat'], 95):.1f} ms", flush=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(prefix="judge-scale-decades-"))
    try:
        print("store cost per phase of one game (median CPU of save + commit; mean bytes written):")
        for decade, cpu_ms, kb in cost_per_decade(folder):
            print(f"  {decade}: {cpu_ms:.2f} ms, {kb:.1f} KB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    lo, hi = min(cpu_by_n), max(cpu_by_n)
    print(f"cpu per order mail, {hi} games / {lo} game{'s' if lo > 1 else ''}: {cpu_by_n[hi] / cpu_by_n[lo]:.2f}; "
          f"this machine's pace at the end: {pace():.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
