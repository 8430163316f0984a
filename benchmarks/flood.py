"""Flood benchmark (issue 19 point 5): one sender floods the judge while a
player sends orders.

    python benchmarks/flood.py [--mails 5000] [--seconds 60] [--orders 12]

``judge serve`` runs as a process (embedded SMTP in, Maildir out, the
default ``[senders]`` fair queueing: 5 answered a minute, 20 read) with one
running game. One sender sends ``--mails`` HELP mails within ``--seconds``
(four SMTP connections); meanwhile the game's players send ``--orders``
order mails, evenly spread (the seven powers in turn). After the flood, the benchmark waits for the
flooder's digest (a minute after its first held answer) and prints:

- the flood: mails sent, the rate reached, and how many the judge took in;
- the players' order mails: time from each one's SMTP transaction to its
  answer in the Maildir (matched by In-Reply-To): median and max (s);
- the flooder's answers: how many mails it got (answers and digests), and
  the ledger's count of its mails (done, held for the digest, not read);
- the targets: the player answered within 2 s, the flooder ≤ 10 answers.
"""

from __future__ import annotations

import argparse
import os
import shutil
import smtplib
import statistics
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

from storm import Outbox, fill, serve, stop  # noqa: E402
from storeview import tables  # noqa: E402
from mailserver.harness import free_port  # noqa: E402

from judge.storage import Store  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FLOODER = "flood@flood.example"


def mail(frm: str, body: str) -> tuple[str, bytes]:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = frm, "judge@example.test", "hello"
    m["Message-ID"] = mid = make_msgid(domain="players.example")
    m.set_content(body)
    return mid, m.as_bytes(policy=policy.SMTP)


def run(mails: int, seconds: float, orders: int) -> int:
    folder = Path(tempfile.mkdtemp(prefix="judge-flood-"))
    proc = None
    try:
        now = datetime.now(timezone.utc)
        holds = fill(Store(folder / "data" / "store"), 1, now, now + timedelta(days=3))
        port = free_port()
        proc = serve(folder, port)
        print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)", flush=True)
        outbox = Outbox(folder)
        flood_ids: list[str] = []
        player: dict[str, float] = {}
        start = time.time()

        def flooder(k: int):
            with smtplib.SMTP("127.0.0.1", port, local_hostname="flood.example", timeout=60) as s:
                for i in range(k, mails, 4):
                    pause = start + i * seconds / mails - time.time()
                    if pause > 0:
                        time.sleep(pause)
                    mid, raw = mail(FLOODER, "HELP\n")
                    s.sendmail(FLOODER, ["judge@example.test"], raw)
                    flood_ids.append(mid)

        def orders_sender():
            powers = sorted(holds)
            for i in range(orders):
                time.sleep(max(0.0, start + (i + 0.5) * seconds / orders - time.time()))
                power = powers[i % len(powers)]            # the game's players, each a few mails a minute
                frm = f"{power.lower()}@g00000.example"
                mid, raw = mail(frm, f"SIGNON g00000\n{holds[power]}\n")
                with smtplib.SMTP("127.0.0.1", port, local_hostname="player.example", timeout=60) as s:
                    s.sendmail(frm, ["judge@example.test"], raw)
                player[mid] = time.time()
        threads = [threading.Thread(target=flooder, args=(k,)) for k in range(4)]
        threads.append(threading.Thread(target=orders_sender))
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        took = time.time() - start
        print(f"flood: {len(flood_ids)} mails from one sender in {took:.1f} s ({len(flood_ids) / took:.0f} a second)",
              flush=True)
        # the digest is due a minute after the first held answer; the spool must empty
        end = time.time() + 240
        spool = folder / "data" / "spool" / "new"
        while time.time() < end:
            outbox.scan()
            digests = [1 for _, subject, _ in outbox.seen.values() if subject.startswith("judge: the answers")]
            if digests and not any(spool.iterdir()) and time.time() > start + seconds + 65:
                break
            time.sleep(0.5)
        time.sleep(1.0)
        outbox.scan()
        answered = {reply: at for at, _, reply in outbox.seen.values() if reply}
        waits = [answered[mid] - at for mid, at in player.items() if mid in answered]
        to_flooder = sum(1 for name, (_, subject, reply) in outbox.seen.items()
                         if FLOODER in (outbox.new / name).read_bytes()[:3000].decode("ascii", "replace"))
        proc.terminate()
        proc.wait(30)
        proc = None
        ledger = tables(folder / "data" / "store").get("ledger", {})
        flood = [ledger.get(mid.strip("<>")) for mid in flood_ids]
        kinds = {"answered": sum(1 for e in flood if e and e["status"] == "done" and not e.get("digest")),
                 "held for the digest": sum(1 for e in flood if e and e.get("digest")),
                 "not read": sum(1 for e in flood if e and e.get("reason") == "flood"),
                 "missing from the ledger": sum(1 for e in flood if e is None)}
        print(f"players' order mails: {len(player)} sent, {len(waits)} answered; wait for the answer: median "
              f"{statistics.median(waits) if waits else float('nan'):.2f} s, max {max(waits) if waits else float('nan'):.2f} s")
        print(f"flooder: {to_flooder} mails received; its {len(flood)} mails in the ledger: "
              + ", ".join(f"{v} {k}" for k, v in kinds.items()))
        ok = waits and len(waits) == len(player) and max(waits) <= 2 and to_flooder <= 10 \
            and not kinds["missing from the ledger"]
        print(f"targets (player answered within 2 s; flooder <= 10 answers; every mail in the ledger): "
              f"{'met' if ok else 'NOT met'}")
        return 0 if ok else 1
    finally:
        stop(proc)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mails", type=int, default=5000, help="mails the flooder sends")
    ap.add_argument("--seconds", type=float, default=60.0, help="within this many seconds")
    ap.add_argument("--orders", type=int, default=12, help="the player's order mails meanwhile")
    args = ap.parse_args()
    return run(args.mails, args.seconds, args.orders)


if __name__ == "__main__":
    sys.exit(main())
