"""Storm benchmark (issue 23): N games due at the same second, and players'
order mails sent meanwhile.

    python benchmarks/storm.py [--games 1000] [--rate 4] [--lead SECONDS]
    python benchmarks/scale.py --storm 1000          # the same

A store is filled through the project's own API with N running seven-player
games (two years of history played with random legal orders), every one of
them due at the same second, ``--lead`` seconds after the fill (the
deadline is written into each game, then ``judge serve`` starts: a process,
embedded SMTP in, Maildir out). From two seconds before
that deadline until the last results mail is out, order mails go to random
games at ``--rate`` a second (each on its own SMTP connection, signed on by
address, the units' hold orders). It prints:

- ``results``: seconds from the deadline to the first results mail in the
  Maildir, to the median game's last one and to the very last one (all
  8 x N of them: 7 players and the GM a game);
- ``order mails``: how many were sent during the storm and the time from
  each one's SMTP transaction to its answer in the Maildir (matched by
  In-Reply-To): median, p95 and max (s);
- the targets: every results mail out within 60 s of the deadline for
  1,000 games, and no order mail waiting more than 2 s for its answer.
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

from scalefill import play_history  # noqa: E402
from mailserver.harness import free_port  # noqa: E402

from judge.game import Game, Player, Settings, turns  # noqa: E402
from judge.game.deadlines import DeadlineSettings  # noqa: E402
from judge.game.history import History  # noqa: E402
from judge.game.passwords import hash_password  # noqa: E402
from judge.storage import Store, save_game, save_gm  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def template(now: datetime) -> Game:
    """A seven-player game with two years of history (random legal orders)."""
    game = Game.create("tpl", now=now, seed=7, settings=Settings(deadlines=DeadlineSettings(grace_hours=0.0)))
    pw = hash_password("secret")
    for p in POWERS:
        game.players[p] = Player((f"{p.lower()}@tpl.example",), pw, "en")
    play_history(game, now)
    return game


def fill(store: Store, n: int, now: datetime, deadline: datetime) -> dict[str, str]:
    """``n`` running games g00000..., all due at ``deadline``; returns each
    power's hold orders (the same units in every game)."""
    tpl = template(now)
    turns.start(tpl, now, deadline)           # a clock placeholder: run() sets the one deadline
    live, records = tpl.live_dict(), list(tpl.history)
    holds = {p: "\n".join(f"{u.type} {u.location.capitalize()} H" for u in tpl.position.units_of(p))
             for p in POWERS if tpl.position.units_of(p)}
    for start in range(0, n, 250):
        with store.transaction() as tx:
            for i in range(start, min(n, start + 250)):
                name = f"g{i:05d}"
                doc = dict(live, name=name, players={
                    p: dict(pl, addresses=[f"{p.lower()}@{name}.example"]) for p, pl in live["players"].items()})
                game = Game.from_dict(dict(doc, history_len=0))
                game.history = History(records)
                save_game(tx, game)
                save_gm(tx, name, {"address": f"gm@{name}.example", "password_hash": live["players"]["France"]
                                   ["password_hash"], "language": "en"})
    return holds


def serve(folder: Path, port: int, senders: str = 'auth = "address"') -> subprocess.Popen:
    """``judge serve`` on :func:`config` as a process, returned once its log
    says it is reading (SystemExit with its output if it exits first)."""
    log = folder / "judge.log"
    with (folder / "serve.out").open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "judge.cli", "serve", "--config",
                                 str(config(folder, port, senders))],
                                cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                                env=dict(os.environ, PYTHONUNBUFFERED="1"))
    while not (log.exists() and ": reading " in log.read_text(errors="replace")):
        if proc.poll() is not None:
            raise SystemExit("judge serve exited:\n" + (folder / "serve.out").read_text(errors="replace")[-3000:])
        time.sleep(0.01)
    return proc


def stop(proc: subprocess.Popen | None) -> None:
    """Stop a :func:`serve` process (SIGTERM, then SIGKILL after 30 s)."""
    if proc is None:
        return
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()


def config(folder: Path, port: int, senders: str = 'auth = "address"') -> Path:
    """``folder/judge.toml``: embedded SMTP in on ``port``, Maildir out, data and
    log in ``folder``; ``senders`` the body of its ``[senders]`` table (the
    storm signs on by address; scale.py lifts the per-sender bound instead)."""
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
{senders}
[log]
level = "INFO"
file = "{folder / 'judge.log'}"
""")
    return path


class Outbox:
    """The judge's Maildir, read as it fills: each new file's Subject and In-Reply-To, and when it came."""

    def __init__(self, folder: Path):
        self.new = folder / "data" / "outbox" / "new"
        self.seen: dict[str, tuple[float, str, str]] = {}

    def scan(self) -> None:
        if not self.new.exists():
            return
        for name in os.listdir(self.new):
            if name in self.seen:
                continue
            path = self.new / name
            try:
                head = path.read_bytes()[:3000].decode("ascii", "replace")
                at = path.stat().st_mtime
            except OSError:
                continue
            subject = reply_to = ""
            for line in head.split("\r\n" if "\r\n" in head else "\n"):
                if line.startswith("Subject: "):
                    subject = line[9:]
                elif line.startswith("In-Reply-To: "):
                    reply_to = line[13:].strip()
                elif not line:
                    break
            self.seen[name] = (at, subject, reply_to)


def order_mail(game: str, power: str, holds: dict[str, str]) -> tuple[str, bytes]:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = f"{power.lower()}@{game}.example", "judge@example.test", "orders"
    m["Message-ID"] = mid = make_msgid(domain="players.example")
    m.set_content(f"SIGNON {game}\n{holds[power]}\n")
    return mid, m.as_bytes(policy=policy.SMTP)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def run(games: int, rate: float = 4.0, lead: float | None = None) -> int:
    """The storm of ``games`` games (see module doc); 0 when both targets are met.
    ``lead`` (s; default 15 + 0.06 a game: the deadline is written into every
    game, then the judge starts) from now to the deadline."""
    lead = 15.0 + 0.06 * games if lead is None else lead
    folder = Path(tempfile.mkdtemp(prefix=f"judge-storm-{games}-"))
    proc = None
    try:
        now = datetime.now(timezone.utc)
        t = time.perf_counter()
        store = Store(folder / "data" / "store")
        # the deadline is set after the fill, a --lead ahead of the judge's start
        holds = fill(store, games, now, now + timedelta(days=30))
        filled = time.perf_counter() - t
        deadline = (datetime.now(timezone.utc) + timedelta(seconds=lead)).replace(microsecond=0)
        with store.transaction() as tx:
            from judge.storage import load_game
            for i in range(games):
                game = load_game(tx, f"g{i:05d}")
                turns.open_phase(game, now, deadline)
                save_game(tx, game)
        port = free_port()
        t = time.perf_counter()
        proc = serve(folder, port)
        ready = time.perf_counter() - t
        ahead = deadline.timestamp() - time.time()
        print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores); {games} games filled in "
              f"{filled:.1f} s; judge ready in {ready:.1f} s, {ahead:.1f} s before the deadline", flush=True)
        if ahead < 2:
            print("  (the judge was ready less than 2 s before the deadline: raise --lead)")
        outbox = Outbox(folder)
        sent: dict[str, float] = {}            # Message-ID -> time its SMTP transaction ended
        done = threading.Event()
        rng = random.Random(games)

        def players():
            while time.time() < deadline.timestamp() - 2 and not done.is_set():
                time.sleep(0.05)
            while not done.is_set():
                mid, raw = order_mail(f"g{rng.randrange(games):05d}", rng.choice(sorted(holds)), holds)
                try:
                    with smtplib.SMTP("127.0.0.1", port, local_hostname="bench.example", timeout=30) as s:
                        s.sendmail("x@players.example", ["judge@example.test"], raw)
                    sent[mid] = time.time()
                except (OSError, smtplib.SMTPException) as e:
                    print(f"  an order mail could not be sent: {e}")
                done.wait(1 / rate)
        thread = threading.Thread(target=players, daemon=True)
        thread.start()
        end = deadline.timestamp() + 900
        results: dict[str, list[float]] = {}
        while time.time() < end:
            outbox.scan()
            results = {}
            for at, subject, _ in outbox.seen.values():
                if subject.startswith("Diplomacy results "):
                    results.setdefault(subject.split()[2], []).append(at)
            if sum(len(v) for v in results.values()) >= 8 * games:
                break
            time.sleep(0.2)
        done.set()
        thread.join(30)
        time.sleep(2.5)                        # the answers to the last order mails
        outbox.scan()
        answered = {reply: at for at, _, reply in outbox.seen.values() if reply}
        waits = [answered[mid] - at for mid, at in sent.items() if mid in answered]
        unanswered = [mid for mid in sent if mid not in answered]
        count = sum(len(v) for v in results.values())
        d = deadline.timestamp()
        lasts = sorted(max(v) - d for v in results.values())
        first = min(min(v) for v in results.values()) - d if results else float("nan")
        last = lasts[-1] if lasts else float("nan")
        print(f"results: {count} of {8 * games} mails for {len(results)} of {games} games; after the deadline: "
              f"first {first:.1f} s, median game's last {statistics.median(lasts) if lasts else float('nan'):.1f} s, "
              f"last {last:.1f} s")
        print(f"order mails sent meanwhile: {len(sent)} ({len(unanswered)} unanswered); wait for the answer: "
              f"median {statistics.median(waits) if waits else float('nan'):.2f} s, p95 {pct(waits, 95):.2f} s, "
              f"max {max(waits) if waits else float('nan'):.2f} s")
        ok = count == 8 * games and last <= 60 and waits and max(waits) <= 2 and not unanswered
        print(f"targets (all results within 60 s; no order mail waits > 2 s): {'met' if ok else 'NOT met'}")
        return 0 if ok else 1
    finally:
        stop(proc)
        if os.environ.get("STORM_KEEP"):
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games due at the same second")
    ap.add_argument("--rate", type=float, default=4.0, help="order mails a second during the storm")
    ap.add_argument("--lead", type=float, help="seconds from the fill's end to the deadline (15 + 0.06 a game)")
    args = ap.parse_args()
    return run(args.games, args.rate, args.lead)


if __name__ == "__main__":
    sys.exit(main())
