"""CPU of one order mail in the judge's worker, in this process (issue 23, point 4).

    python benchmarks/permail.py [--games 20] [--mails 200] [--ledger-days 90] [--profile 25]

A store filled as ``scale.py`` fills it (:mod:`scalefill`: running games
made by mail, two years of history, a ledger of ``--ledger-days``); then
order mails — ``SIGNON game password``, then moves and supports for every
unit of the power, as a mail client writes them — go through the spool,
the worker (``judge serve``'s, with its lazily synced store), the handler,
the templates and the outbox, as in ``judge serve``, one mail a batch.
Prints the CPU per mail (``time.process_time``) and, with ``--profile N``,
the N functions costing most (cProfile, by own time). Each (game, power)
signs on once before the measure: the scrypt check of its password is
cached from then on (:func:`judge.game.passwords.verify_password`); the
first sign-on's cost is printed apart.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scalefill  # noqa: E402
from adjudicate import movement_orders  # noqa: E402

from judge.config import Config  # noqa: E402
from judge.daemon import make_worker  # noqa: E402
from judge.notation.format import format_order  # noqa: E402
from judge.storage import Store, load_game  # noqa: E402
from judge.verbs.session import names_of  # noqa: E402


def order_texts(store: Store, games: list[str], seed: int = 5) -> dict[tuple[str, str], str]:
    """``{(game, power): order lines}``: random legal moves and supports (and
    convoys) for every unit of each power, in English short form."""
    rng, out = random.Random(seed), {}
    for name in games:
        game = load_game(store, name)
        names = names_of(game)
        for power, orders in movement_orders(rng, game.map, game.position).items():
            out[(name, power)] = "\n".join(format_order(o, names) for o in orders)
    return out


def order_mail(game: str, power: str, lines: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = f"{power.lower()}@{game}.example", "judge@example.test", "orders"
    m["Message-ID"] = make_msgid(domain="players.example")
    m.set_content(f"SIGNON {game} {scalefill.password(power)}\n{lines}\n")
    return m.as_bytes(policy=policy.SMTP)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--mails", type=int, default=200)
    ap.add_argument("--ledger-days", type=float, default=90.0)
    ap.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    ap.add_argument("--sort", default="tottime", help="cProfile order: tottime or cumulative")
    ap.add_argument("--callers", default="posix.fsync|fdatasync", help="print the callers of these functions")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="judge-permail-"))
    try:
        now = datetime.now(timezone.utc)
        tpl = scalefill.template(folder / "tpl", now)
        data = folder / "data"
        scalefill.fill(data / "store", args.games, tpl)
        rows, _s = scalefill.fill_ledger(Store(data / "store"), args.games, args.ledger_days, now)
        cfg = Config()
        cfg.judge.address, cfg.judge.keeper, cfg.judge.data_dir = "judge@example.test", "keeper@example.test", str(data)
        cfg.senders.answered_per_minute = cfg.senders.read_per_minute = 100000   # no flood bound here
        sent: list = []
        worker = make_worker(cfg, send=sent.extend, ack=lambda meta: None)
        names = [f"g{i:05d}" for i in range(args.games)]
        texts = order_texts(worker.store, names)
        pairs = sorted(texts)

        mails = {pair: order_mail(*pair, texts[pair]) for pair in pairs}   # the sender's cost, not timed
        serial = iter(range(10**9))

        def one(game, power) -> None:
            before = len(sent)
            raw = mails[(game, power)].replace(b"Message-ID: <", b"Message-ID: <%d." % next(serial), 1)
            entry = worker.spool.put(raw, {"source": "bench"})
            worker.process(entry.name)
            raw = sent[-1]["raw"] if len(sent) > before else b""
            if b"has an order" not in (raw.encode() if isinstance(raw, str) else raw):
                raise SystemExit(f"{game} {power}: the orders were not taken:\n{raw[:3000]!r}")
        rng = random.Random(1)
        chosen = [rng.choice(pairs) for _ in range(args.mails)]
        first = []
        for pair in sorted(set(chosen)):          # each signs on once: its password's scrypt check
            t = time.process_time()
            one(*pair)
            first.append(time.process_time() - t)
        prof = cProfile.Profile() if args.profile else None
        t = time.process_time()
        if prof:
            prof.enable()
        for pair in chosen:
            one(*pair)
        if prof:
            prof.disable()
        cpu = (time.process_time() - t) / args.mails * 1000
        print(f"permail: {args.games} running games, ledger {args.ledger_days:g} days ({rows} rows), "
              f"{args.mails} order mails (password, {statistics.mean(len(texts[p].splitlines()) for p in chosen):.1f} "
              f"orders: moves, supports)")
        print(f"  cpu per order mail: {cpu:.2f} ms{' (profiled)' if prof else ''}; "
              f"first sign-on of a player: median {statistics.median(first) * 1000:.1f} ms")
        if prof:
            stats = pstats.Stats(prof).sort_stats(args.sort)
            stats.print_stats(args.profile)
            stats.print_callers(args.callers)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
