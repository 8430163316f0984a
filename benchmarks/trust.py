"""Trust benchmark (issue 19, point 1): a mail with five DKIM signatures
whose DNS never answers, and a player's mail sent just after it.

    python benchmarks/trust.py [--rounds 5]

``judge``'s daemon runs in this process (embedded SMTP listener in, an
aiosmtpd sink on 127.0.0.1 out) over a game with ``auth=verified``. DNS is
dnspython's own resolver (the judge's default lookup, dkimpy's ``get_txt``)
pointed at a UDP socket on a free loopback port that reads nothing: every
query goes unanswered. Each round sends

- the stuck mail: From France's address of record, ``SIGNON g1`` without a
  password, five DKIM signatures of France's domain (the judge must look a
  key up to believe it);
- a player's mail right behind it: Germany's orders with the password.

Prints, per round and worst of all, the time from the SMTP ``250`` of each
mail to its answer being accepted by the sink. Targets: the stuck mail
<= 1.5 s, the player's mail beside it <= 2 s (before issue 19 the stuck mail
alone held the writer 5 x 5 s). Also prints the player's mail alone, for
comparison, and the load average.
"""

from __future__ import annotations

import argparse
import os
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import dkim  # noqa: E402
import dns.resolver  # noqa: E402
from mailserver.harness import SmtpSink, free_port, wait_for, write_config  # noqa: E402

from judge.config import load_config  # noqa: E402
from judge.daemon import Daemon  # noqa: E402
from judge.game import Game, Player, Settings, turns  # noqa: E402
from judge.game.access import AccessSettings  # noqa: E402
from judge.game.passwords import hash_password  # noqa: E402
from judge.storage import Store, save_game  # noqa: E402


def silent_dns() -> socket.socket:
    """A UDP socket on a free loopback port that never answers; dnspython's
    default resolver is pointed at it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = ["127.0.0.1"]
    resolver.port = sock.getsockname()[1]
    dns.resolver.default_resolver = resolver
    return sock


def key_pem(folder: Path) -> bytes:
    path = folder / "key.pem"
    subprocess.run(["openssl", "genrsa", "-traditional", "-out", str(path), "1024"], check=True,
                   capture_output=True)
    return path.read_bytes()


def mail(frm: str, body: str, mid: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "orders", mid
    m.set_content(body)
    return m.as_bytes()


def stuck_mail(key: bytes, i: int) -> tuple[str, bytes]:
    mid = f"<stuck-{i}-{time.time_ns()}@example.org>"
    raw = mail("fr@example.org", "SIGNON g1\nA Par - Bur\n", mid)
    for n in range(5):
        raw = dkim.sign(raw, f"sel{n}".encode(), b"example.org", key,
                        include_headers=[b"from", b"to", b"subject", b"message-id"]) + raw
    return mid, raw


def player_mail(i: int) -> tuple[str, bytes]:
    mid = f"<player-{i}-{time.time_ns()}@example.de>"
    return mid, mail("de@example.de", "SIGNON g1 depass1\nA Ber - Kie\n", mid)


def make_game(now: datetime) -> Game:
    g = Game.create("g1", now=now, seed=1, settings=Settings(access=AccessSettings(auth="verified")))
    g.players["France"] = Player(("fr@example.org",), hash_password("frpass1"))
    g.players["Germany"] = Player(("de@example.de",), hash_password("depass1"))
    turns.start(g, now, now + timedelta(days=3))
    return g


class Round:
    def __init__(self, port: int, sink: SmtpSink):
        self.port, self.sink = port, sink

    def send(self, raw: bytes) -> float:
        with smtplib.SMTP("127.0.0.1", self.port, local_hostname="bench.example") as c:
            c.sendmail("x@bench.example", ["judge@example.test"], raw)
        return time.time()

    def answered(self, mid: str, sent: float) -> float:
        def found():
            with self.sink.lock:
                return [t for t, _f, _r, m in self.sink.messages if mid in str(m.get("In-Reply-To", ""))]
        times = wait_for(found, timeout=60, interval=0.005, what=f"the answer to {mid}")
        return times[0] - sent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    dns_sock = silent_dns()
    with tempfile.TemporaryDirectory(prefix="judge-trust-") as tmp, SmtpSink() as sink:
        tmp = Path(tmp)
        key = key_pem(tmp)
        cfg = load_config(write_config(tmp / "judge.toml", tmp / "data",
                                       inbound={"transport": "smtp", "smtp": {"port": free_port()}},
                                       outbound={"transport": "smtp", "smtp": {"host": "127.0.0.1",
                                                                               "port": sink.port,
                                                                               "security": "none"}},
                                       # its one player sends more than a few mails a minute (fair queueing)
                                       extra="[senders]\nanswered_per_minute = 100000\nread_per_minute = 100000\n"))
        store = Store(cfg.store_path)
        with store.transaction() as tx:
            save_game(tx, make_game(datetime.now(timezone.utc)))
            tx.put("gm", "g1", {"address": "gm@example.net"})
        store.close()
        daemon = Daemon(cfg)
        daemon.start()
        r = Round(cfg.inbound.smtp.port, sink)
        alone, stuck, beside = [], [], []
        try:
            for i in range(3):                                       # warm-up
                mid, raw = player_mail(100 + i)
                r.answered(mid, r.send(raw))
            for i in range(args.rounds):
                mid, raw = player_mail(200 + i)
                alone.append(r.answered(mid, r.send(raw)))
                smid, sraw = stuck_mail(key, i)
                pmid, praw = player_mail(300 + i)
                t_stuck = r.send(sraw)
                t_player = r.send(praw)
                stuck.append(r.answered(smid, t_stuck))
                beside.append(r.answered(pmid, t_player))
                time.sleep(0.2)
            texts = [m.get_content() for _t, _f, _r, m in sink.messages
                     if "stuck-" in str(m.get("In-Reply-To", ""))]
        finally:
            daemon.stop()
            dns_sock.close()
    refused = sum("only when its sender is verified" in t for t in texts)
    print(f"trust: {args.rounds} rounds; DNS: dnspython -> a silent UDP port; load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"  stuck mail (5 DKIM signatures, DNS never answers), SMTP 250 -> answer accepted:")
    print("    " + "  ".join(f"{t * 1000:6.0f}" for t in stuck) + f"   worst {max(stuck) * 1000:6.0f} ms"
          f" (target <= 1500)")
    print(f"  a player's mail sent right behind it:")
    print("    " + "  ".join(f"{t * 1000:6.0f}" for t in beside) + f"   worst {max(beside) * 1000:6.0f} ms"
          f" (target <= 2000)")
    print(f"  the player's mail alone:")
    print("    " + "  ".join(f"{t * 1000:6.0f}" for t in alone) + f"   worst {max(alone) * 1000:6.0f} ms")
    print(f"  stuck mails answered 'send the password' (not verified): {refused} of {len(stuck)}")
    return 0 if max(stuck) <= 1.5 and max(beside) <= 2.0 and refused == len(stuck) else 1


if __name__ == "__main__":
    sys.exit(main())
