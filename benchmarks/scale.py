"""Scale benchmark (issue 10): a judge holding N games, driven for real.

    python benchmarks/scale.py [--games 1,100,1000,10000] [--mails 40] [--burst 200]
    python benchmarks/scale.py --storm N      # N games due at once: benchmarks/storm.py

For each N, a store is filled through the project's own API
(:func:`judge.storage.save_game`) with N seven-player games, each with two
years of history (played with random legal orders) and its clock running —
past 1,000 games, only 1,000 run and the others are finished. Then
``judge serve`` runs as a process (embedded SMTP in, Maildir out) and this
prints, per N:

- ``ready``: ``judge serve`` start to its "reading" log line (s);
- ``cpu/mail``: the daemon's CPU time (user + system, /proc) per order mail,
  over paced order mails to random running games (ms);
- ``latency``: order mail sent -> confirmation in the Maildir, median and p95 (ms);
- ``smtp 250``: the SMTP transaction of one mail, median and p95 (ms);
- ``burst``: order mails per second, from the first sent to the last confirmed;
- ``deadline``: a game's deadline -> the last of its 8 results mails (ms);
- ``rss``: the daemon's resident memory at the end (MB).

Then one game is played from 1901 to 1930 and the store's cost of each
phase (CPU of saving the game and committing, and the bytes written) is
printed per decade. The last line is ``cpu per order mail, N games / 1
game: R`` for the largest N against the smallest.
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

from adjudicate import movement_orders  # noqa: E402
from mailserver.harness import free_port  # noqa: E402

from judge.game import Game, Player, Settings, turns  # noqa: E402
from judge.game.deadlines import DeadlineSettings  # noqa: E402
from judge.game.history import History  # noqa: E402
from judge.game.passwords import hash_password  # noqa: E402
from judge.storage import Store, save_game, save_gm  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
RUNNING_MAX = 1000
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
# Each power's hold orders for its units in the template's position (all games
# are copies of it), filled by fill(); powers without units are left out.
HOLDS: dict[str, str] = {}


# ---- the games --------------------------------------------------------------------------
def play(game: Game, now: datetime, rng: random.Random, until_year: int) -> datetime:
    """Play ``game`` with random legal movement orders (retreats and
    adjustments by the game's defaults) until its phase is Spring ``until_year``."""
    while game.phase.year < until_year:
        if game.phase.kind == "M":
            for power, orders in movement_orders(rng, game.map, game.position).items():
                game.submit(power, orders, now)
        now += timedelta(hours=12)
        game.process(now)
    return now


def template(now: datetime) -> Game:
    """A seven-player game with two years of history, clock running."""
    settings = Settings(deadlines=DeadlineSettings(grace_hours=0.0))
    game = Game.create("tpl", now=now, seed=7, settings=settings)
    pw = hash_password("secret")
    for p in POWERS:
        game.players[p] = Player((f"{p.lower()}@tpl.example",), pw, "en")
    play(game, now, random.Random(7), 1903)
    turns.start(game, now, now + timedelta(days=7))
    return game


def fill(store: Store, n: int, now: datetime) -> float:
    """Store ``n`` games made from the template (seconds it took)."""
    t = time.perf_counter()
    tpl = template(now)
    live, records = tpl.live_dict(), list(tpl.history)
    HOLDS.clear()
    for p in POWERS:
        if tpl.position.units_of(p):
            HOLDS[p] = "\n".join(f"{u.type} {u.location.capitalize()} H" for u in tpl.position.units_of(p))
    batch = 250
    for start in range(0, n, batch):
        with store.transaction() as tx:
            for i in range(start, min(n, start + batch)):
                name = f"g{i:05d}"
                doc = dict(live, name=name, players={
                    p: dict(pl, addresses=[f"{p.lower()}@{name}.example"]) for p, pl in live["players"].items()})
                game = Game.from_dict(dict(doc, history_len=0))
                game.history = History(records)
                if i >= RUNNING_MAX:
                    game.gm_end(now, None)             # finished: out of the live set
                save_game(tx, game)
                save_gm(tx, name, {"address": f"gm@{name}.example", "password_hash": live["players"]["France"]
                                   ["password_hash"], "language": "en"})
    return time.perf_counter() - t


# ---- the daemon -------------------------------------------------------------------------
def config(folder: Path, port: int) -> Path:
    path = folder / "judge.toml"
    path.write_text(f"""[judge]
address = "judge@example.test"
keeper = "keeper@example.test"
data_dir = "{folder / 'data'}"
[inbound]
transport = "smtp"
[inbound.smtp]
port = {port}
[outbound]
transport = "maildir"
[senders]
auth = "address"
[log]
level = "INFO"
file = "{folder / 'judge.log'}"
""")
    return path


class Judge:
    def __init__(self, folder: Path, port: int):
        self.folder, self.port = folder, port
        self.log = folder / "judge.log"
        self.outbox = folder / "data" / "outbox" / "new"
        t = time.perf_counter()
        out = folder / "serve.out"
        with out.open("wb") as f:
            self.proc = subprocess.Popen([sys.executable, "-m", "judge.cli", "serve", "--config",
                                          str(config(folder, port))], cwd=REPO, stdout=f,
                                         stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        while not (self.log.exists() and ": reading " in self.log.read_text(errors="replace")):
            if self.proc.poll() is not None:
                raise SystemExit(f"judge serve exited with {self.proc.returncode}:\n"
                                 + out.read_text(errors="replace")[-3000:])
            time.sleep(0.01)
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
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def order_mail(game: str, power: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = f"{power.lower()}@{game}.example", "judge@example.test", "orders"
    m["Message-ID"] = make_msgid(domain="players.example")
    m.set_content(f"SIGNON {game}\n{HOLDS[power]}\n")
    return m.as_bytes(policy=policy.SMTP)                  # CRLF line ends, as SMTP carries them


def wait_new(judge: Judge, before: set[str], count: int, timeout: float = 60.0) -> float:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len(judge.mails() - before) >= count:
            return time.perf_counter()
        time.sleep(0.002)
    raise SystemExit(f"timed out waiting for {count} mails")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def drive(judge: Judge, running: int, mails: int, burst: int, rng: random.Random) -> dict:
    out: dict = {}
    # warm-up: a few mails not measured; each must be a confirmation taking every order
    for _ in range(3):
        before = judge.mails()
        with smtplib.SMTP("127.0.0.1", judge.port, local_hostname="bench.example") as s:
            s.sendmail("x@players.example", ["judge@example.test"],
                       order_mail(f"g{rng.randrange(running):05d}", rng.choice(sorted(HOLDS))))
        wait_new(judge, before, 1)
        reply = b"".join((judge.outbox / n).read_bytes() for n in judge.mails() - before)
        if b"has an order" not in reply:
            raise SystemExit("an order mail was not taken:\n" + reply.decode(errors="replace"))
    lat, smtp_ms = [], []
    cpu0 = judge.cpu()
    with smtplib.SMTP("127.0.0.1", judge.port, local_hostname="bench.example") as s:
        for _ in range(mails):
            raw = order_mail(f"g{rng.randrange(running):05d}", rng.choice(sorted(HOLDS)))
            before = judge.mails()
            t = time.perf_counter()
            s.sendmail("x@players.example", ["judge@example.test"], raw)
            smtp_ms.append((time.perf_counter() - t) * 1000)
            lat.append((wait_new(judge, before, 1) - t) * 1000)
    out["cpu"] = (judge.cpu() - cpu0) / mails * 1000
    out["lat"], out["smtp"] = lat, smtp_ms
    # burst: four connections sending at once
    raws = [order_mail(f"g{rng.randrange(running):05d}", rng.choice(sorted(HOLDS))) for _ in range(burst)]
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
    out["burst"] = burst / (wait_new(judge, before, burst, timeout=300) - t)
    # a deadline: game g00000's deadline set 3 s ahead by the GM's command (through the judge)
    when = (datetime.now(timezone.utc) + timedelta(seconds=3)).replace(microsecond=0)
    subprocess.run([sys.executable, "-m", "judge.cli", "game", "gm", "g00000", "deadline", when.isoformat(),
                    "--config", str(judge.folder / "judge.toml")], cwd=REPO, check=True, capture_output=True)
    time.sleep(0.3)
    before = judge.mails()
    end = time.monotonic() + 30
    results: list[str] = []
    while time.monotonic() < end and len(results) < 8:
        new = judge.mails() - before
        results = [n for n in new if b"Subject: Diplomacy results g00000"
                   in (judge.outbox / n).read_bytes()[:2000]]
        time.sleep(0.002)
    last = max(os.stat(judge.outbox / n).st_mtime for n in results) if results else float("nan")
    out["deadline"] = (last - when.timestamp()) * 1000 if len(results) == 8 else float("nan")
    out["rss"] = judge.rss_mb()
    return out


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
    ap.add_argument("--games", default="1,100,1000,10000", help="comma-separated game counts")
    ap.add_argument("--mails", type=int, default=40, help="paced order mails per game count")
    ap.add_argument("--burst", type=int, default=200, help="order mails of the burst")
    ap.add_argument("--storm", type=int, metavar="N", help="only the storm: N games due at the same second "
                    "(benchmarks/storm.py)")
    args = ap.parse_args()
    if args.storm:
        import storm
        return storm.run(args.storm)
    counts = [int(x) for x in args.games.split(",")]
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    print(f"{'games':>6} {'fill s':>7} {'ready s':>7} {'cpu/mail ms':>11} {'lat med':>7} {'lat p95':>7} "
          f"{'250 med':>7} {'250 p95':>7} {'burst/s':>7} {'deadline ms':>11} {'rss MB':>6}")
    cpu_by_n = {}
    for n in counts:
        folder = Path(tempfile.mkdtemp(prefix=f"judge-scale-{n}-"))
        try:
            now = datetime.now(timezone.utc)
            filled = fill(Store(folder / "data" / "store"), n, now)
            judge = Judge(folder, free_port())
            try:
                r = drive(judge, min(n, RUNNING_MAX), args.mails, args.burst, random.Random(n))
            finally:
                judge.stop()
            cpu_by_n[n] = r["cpu"]
            print(f"{n:>6} {filled:>7.1f} {judge.ready:>7.2f} {r['cpu']:>11.1f} {statistics.median(r['lat']):>7.1f} "
                  f"{pct(r['lat'], 95):>7.1f} {statistics.median(r['smtp']):>7.1f} {pct(r['smtp'], 95):>7.1f} "
                  f"{r['burst']:>7.1f} {r['deadline']:>11.0f} {r['rss']:>6.0f}", flush=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(prefix="judge-scale-decades-"))
    try:
        print("store cost per phase of one game (median CPU of save + commit; mean bytes written):")
        for decade, cpu_ms, kb in cost_per_decade(folder):
            print(f"  {decade}: {cpu_ms:.2f} ms, {kb:.1f} KB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    lo, hi = min(cpu_by_n), max(cpu_by_n)
    print(f"cpu per order mail, {hi} games / {lo} game{'s' if lo > 1 else ''}: {cpu_by_n[hi] / cpu_by_n[lo]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
