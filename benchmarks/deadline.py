"""Deadline benchmark: the time from a seven-player game's deadline to the
last results mail accepted by the SMTP server (issue 4; target <= 1 s) —
each with the phase's map inline (issue 20: drawn once for the eight mails),
and the size of those mails (target <= 350 kB).

    python benchmarks/deadline.py [--games 5] [--gap 2.0]

Each game has seven players with their Spring 1901 orders in (early
processing off, so the deadline itself ends the phase) and a GM; deadlines
are ``--gap`` seconds apart. ``judge``'s daemon runs in this process on the
real clock with its scheduler, worker and sender, sending through SMTP to an
aiosmtpd server on 127.0.0.1. Prints, per game, the delay from the deadline
to the first and to the last of its eight results mails, then the median and
the worst; then how many results mails carried a PNG map and their largest
size. Games are far enough apart that each deadline runs alone (one game:
``--games 1``, the issue's figure).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from mailserver.harness import SmtpSink, free_port, wait_for, write_config  # noqa: E402

from judge.config import load_config  # noqa: E402
from judge.daemon import Daemon  # noqa: E402
from judge.game import Game, Player, Settings, turns  # noqa: E402
from judge.game.deadlines import DeadlineSettings  # noqa: E402
from judge.maps import load_names  # noqa: E402
from judge.notation.names import name_index  # noqa: E402
from judge.notation.parser import ParseContext, parse_orders  # noqa: E402
from judge.storage import Store, save_game  # noqa: E402

from spring1901 import ORDERS  # noqa: E402  (benchmarks/ is on sys.path when run as a script)


def make_game(name: str, deadline: datetime, now: datetime) -> Game:
    g = Game.create(name, now=now, seed=1, settings=Settings(deadlines=DeadlineSettings(early=False)))
    names = name_index(g.map, load_names(g.map_name))
    for p, text in ORDERS.items():
        g.players[p] = Player((f"{p.lower()}@{name}.example.org",))
        g.submit(p, parse_orders(text, ParseContext(g.map, names, "M", g.position, p)), now)
    turns.start(g, now, deadline)
    return g


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--gap", type=float, default=2.0, help="seconds between deadlines")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-deadline-") as tmp, SmtpSink() as sink:
        tmp = Path(tmp)
        cfg = write_config(tmp / "judge.toml", tmp / "data",
                           inbound={"transport": "smtp", "smtp": {"port": free_port()}},
                           outbound={"transport": "smtp",
                                     "smtp": {"host": "127.0.0.1", "port": sink.port, "security": "none"}})
        cfg = load_config(cfg)
        now = datetime.now(timezone.utc)
        first = now + timedelta(seconds=3)
        deadlines = {f"b{i}": first + timedelta(seconds=i * args.gap) for i in range(args.games)}
        store = Store(cfg.store_path)
        with store.transaction() as tx:
            for name, when in deadlines.items():
                g = make_game(name, when, now)
                save_game(tx, g)
                tx.put("gm", name, {"address": f"gm@{name}.example.org"})
        store.close()
        daemon = Daemon(cfg)
        daemon.start()
        try:
            wait_for(lambda: len(sink.messages) >= 8 * args.games, timeout=30 + args.games * args.gap,
                     what="every results mail")
            time.sleep(0.5)
        finally:
            daemon.stop()
        print(f"{args.games} seven-player games, deadline -> results mails accepted by the SMTP server:")
        lasts = []
        for name, when in deadlines.items():
            times = [t for t, _f, rcpt, msg in sink.messages if rcpt[0].endswith(f"@{name}.example.org")
                     and msg["Subject"].startswith("Diplomacy results")]
            assert len(times) == 8, (name, len(times))
            d_first, d_last = min(times) - when.timestamp(), max(times) - when.timestamp()
            lasts.append(d_last)
            print(f"  {name}: first {d_first * 1000:6.0f} ms, last {d_last * 1000:6.0f} ms")
        print(f"median last {statistics.median(lasts) * 1000:.0f} ms, worst {max(lasts) * 1000:.0f} ms "
              f"(target <= 1000 ms)")
        results = [msg for _t, _f, _r, msg in sink.messages if msg["Subject"].startswith("Diplomacy results")]
        with_map = [m for m in results if any(p.get_content_type() == "image/png" for p in m.walk())]
        sizes = [len(m.as_bytes()) for m in results]
        maps = [len(p.get_content()) for m in with_map for p in m.walk() if p.get_content_type() == "image/png"]
        print(f"results mails with a PNG map: {len(with_map)} of {len(results)}; mail size max "
              f"{max(sizes) / 1000:.0f} kB (target <= 350 kB), map {max(maps) / 1000:.0f} kB (target <= 300 kB)")
        return 0 if max(lasts) <= 1.0 and max(sizes) <= 350_000 and len(with_map) == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
