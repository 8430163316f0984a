"""A store filled as a real judge's is, for ``scale.py`` (issue 23, point 6).

- :func:`template`: a game made BY MAIL in this process (the judge's own
  worker and handler): the GM's ``CREATE`` mail, then seven ``JOIN`` mails
  with passwords; then two years played with random legal orders (moves,
  supports, convoys) and its clock running (deadline a week ahead).
- :func:`fill`: N running games copied from it under their own names, each
  power's address its own (``france@g00042.example``), the join records
  with them; the password hashes are the template's (one scrypt hash per
  power: ``pw-france``...).
- :func:`fill_ledger`: a ledger of ``days`` days: ``per_game_day`` entries
  per game and day (6.7: the rate that made 6 M rows for 10,000 games in
  90 days, issue 23), spread over the days, each a done mail with its reply.
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adjudicate import movement_orders  # noqa: E402

from judge.config import Config  # noqa: E402
from judge.game import Game, turns  # noqa: E402
from judge.game.history import History  # noqa: E402
from judge.mail.handler import MailHandler  # noqa: E402
from judge.mail.spool import Spool  # noqa: E402
from judge.mail.worker import Worker  # noqa: E402
from judge.storage import Store, load_game, save_game, save_gm  # noqa: E402
from judge.storage.ledger import week_of  # noqa: E402

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def password(power: str) -> str:
    return f"pw-{power.lower()}"


def _mail(frm: str, body: str, n: int) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"], m["Message-ID"] = frm, "judge@example.test", "cmd", f"<tpl{n}@bench.example>"
    m.set_content(body)
    return m.as_bytes()


def play_history(game: Game, now: datetime, until: int = 1903) -> None:
    """Play ``game`` to the spring of ``until`` with random legal moves (seed
    7), a phase every 12 hours from ``now``."""
    rng = random.Random(7)
    while game.phase.year < until:
        if game.phase.kind == "M":
            for power, orders in movement_orders(rng, game.map, game.position).items():
                game.submit(power, orders, now)
        now += timedelta(hours=12)
        game.process(now)


def template(folder: Path, now: datetime) -> tuple[dict, list, dict]:
    """The template game (module doc): its live document, history records
    and GM record."""
    cfg = Config()
    cfg.judge.address, cfg.judge.keeper = "judge@example.test", "keeper@example.test"
    store, spool = Store(folder / "store"), Spool(folder / "spool")
    worker = Worker(store, spool, MailHandler(cfg), address=cfg.judge.address, name=cfg.judge.name,
                    domain=cfg.domain, keeper=cfg.judge.keeper, clock=lambda: now, send=lambda rows: None)
    mails = [("gm@tpl.example", "CREATE tpl gmsecret movement=7d retreat=2d adjustment=2d grace=0\n")]
    mails += [(f"{p.lower()}@tpl.example", f"JOIN tpl {password(p)} {p}\n") for p in POWERS]
    for n, (frm, body) in enumerate(mails):
        spool.put(_mail(frm, body, n), {"source": "bench"})
        for name in spool.pending():
            worker.process(name)
    game = load_game(store, "tpl")
    if game is None or sum(1 for pl in game.players.values() if pl.addresses) != 7:
        raise SystemExit("the template game was not made by mail (CREATE + 7 JOINs)")
    play_history(game, now)
    turns.open_phase(game, now, now + timedelta(days=7))     # the clock runs: a week to the deadline
    return game.live_dict(), list(game.history), store.get("gm", "tpl")


def fill(root: Path, n: int, tpl: tuple[dict, list, dict]) -> float:
    """Store ``n`` running games copied from the template into the store
    folder ``root`` (seconds it took). The files are synced once at the end
    (``os.sync``), not file by file: a filled store, not a judge's commits."""
    from judge.storage import store as store_module
    t = time.perf_counter()
    live, records, gm = tpl
    store = Store(root, lazy_sync=True)
    saved = store_module.fsync_path, store_module.fsync_dir
    store_module.fsync_path = store_module.fsync_dir = lambda path: None
    batch = 200
    for start in range(0, n, batch):
        with store.transaction() as tx:
            for i in range(start, min(n, start + batch)):
                name = f"g{i:05d}"
                mine = {f"{p.lower()}@tpl.example": f"{p.lower()}@{name}.example" for p in POWERS}
                doc = dict(live, name=name, history_len=0,
                           players={p: dict(pl, addresses=[mine.get(a, a) for a in pl["addresses"]])
                                    for p, pl in live["players"].items()},
                           roster=[dict(c, address=mine.get(c.get("address"), c.get("address")))
                                   for c in live.get("roster", ())])
                game = Game.from_dict(doc)
                game.history = History(records)
                save_game(tx, game)
                save_gm(tx, name, dict(gm, address=f"gm@{name}.example"))
    store.close()
    store_module.fsync_path, store_module.fsync_dir = saved
    os.sync()
    return time.perf_counter() - t


def fill_ledger(store: Store, games: int, days: float, now: datetime, per_game_day: float = 6.7,
                seed: int = 1) -> tuple[int, float]:
    """Put a ledger of ``days`` days into ``store`` (rows, seconds): the rows
    a done mail leaves (:mod:`judge.mail.worker`), written straight into
    the week tables (:meth:`judge.storage.ledger.Ledger.apply`)."""
    t = time.perf_counter()
    rng = random.Random(seed)
    total = int(games * days * per_game_day)
    start = (now - timedelta(days=days)).timestamp()
    step = days * 86400 / max(total, 1)
    chunk: list[list] = []
    week, week_end = None, 0.0
    for i in range(total):
        at = start + i * step
        if at >= week_end:
            week = week_of(at)
            week_end = datetime.strptime(week[2:], "%Y%m%d").replace(tzinfo=timezone.utc).timestamp() + 7 * 86400
        game = f"g{rng.randrange(games):05d}"
        when = datetime.fromtimestamp(at, timezone.utc).isoformat()
        doc = (f'{{"status":"done","at":"{when}","from":"{rng.choice(POWERS).lower()}@{game}.example",'
               f'"replies":["<{i}.{game}@judge.example.test>"]}}')
        chunk.append([week, f"{rng.getrandbits(128):032x}@players.example", doc, at])
        if len(chunk) == 100000:
            store.ledger.apply(chunk)
            chunk = []
    store.ledger.apply(chunk)
    store.ledger.sync()
    return total, time.perf_counter() - t
