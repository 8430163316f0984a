"""``judge game new|orders|process|show``: run a game by hand, without mail.

The data file is ``DIR/judge.json`` with DIR from ``--data``, else the
``JUDGE_DATA`` environment variable, else ``./var``. Times are the machine's
clock in UTC.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from datetime import datetime, timezone
from pathlib import Path

from ..rules.options import PROFILES
from ..game.settings import DISBAND_DEFAULTS, RETREAT_DEFAULTS


def register(sub) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data", metavar="DIR",
                        help="data directory (default: $JUDGE_DATA, else ./var)")
    p = sub.add_parser("game", help="create, order, process and show games by hand",
                       description="Run a game without mail: the GM's tools.")
    gsub = p.add_subparsers(dest="game_command", metavar="ACTION", required=True)

    n = gsub.add_parser("new", parents=[common], help="create a game",
                        description="Create a game at the map's start position.")
    n.add_argument("name")
    n.add_argument("--map", default="standard", help="map name or folder (default: standard)")
    n.add_argument("--rules", default="datc", choices=sorted(PROFILES),
                   help="rule profile (default: datc = DATC v3.2)")
    n.add_argument("--seed", type=int, help="random seed (default: a random one, stored)")
    n.add_argument("--no-retreat-lists", action="store_true",
                   help="refuse standing retreat lists (RULES.md 3.1)")
    n.add_argument("--no-priority-lists", action="store_true",
                   help="refuse build and disband priority lists (RULES.md 3.2)")
    n.add_argument("--default-retreat", choices=RETREAT_DEFAULTS, default="disband",
                   help="a dislodged unit with no order or usable list: disband, or the "
                        "house-rule default (RULES.md 3.3) (default: disband)")
    n.add_argument("--default-disband", choices=DISBAND_DEFAULTS, default="datc",
                   help="removals nobody ordered: DATC civil disorder, or the house-rule "
                        "default (RULES.md 3.4) (default: datc)")
    n.add_argument("--combined", action="store_true",
                   help="combined-order mode: retreats and adjustments from the lists and "
                        "orders sent with movement orders (RULES.md 3.5)")
    n.set_defaults(func=run_new)

    o = gsub.add_parser("orders", parents=[common], help="enter a power's orders",
                        description="Read order lines (English or Chinese) and say how each was read.")
    o.add_argument("name")
    o.add_argument("power")
    o.add_argument("file", nargs="?", default="-", help="file of order lines, or - for stdin")
    o.set_defaults(func=run_orders)

    pr = gsub.add_parser("process", parents=[common], help="adjudicate the current phase",
                         description="Adjudicate the current phase now and print the results.")
    pr.add_argument("name")
    pr.set_defaults(func=run_process)

    s = gsub.add_parser("show", parents=[common], help="print results",
                        description="Print the results of the last adjudication, or of --phase.")
    s.add_argument("name")
    s.add_argument("--phase", help="a phase name such as S1901M")
    s.set_defaults(func=run_show)


def data_dir(args) -> Path:
    return Path(args.data or os.environ.get("JUDGE_DATA") or "var")


def _store(args):
    from ..storage import Store
    return Store(data_dir(args) / "judge.json")


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _fail(message: str) -> int:
    print(f"judge game: {message}", file=sys.stderr)
    return 2


def run_new(args) -> int:
    from ..game import Game, GameError, HouseRules, Settings
    from ..rules.map import MapError
    from ..storage import StoreError, load_game, save_game
    try:
        settings = Settings(args.rules, HouseRules(
            retreat_preferences=not args.no_retreat_lists, priority_lists=not args.no_priority_lists,
            default_retreat=args.default_retreat, default_disband=args.default_disband,
            combined_orders=args.combined))
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        game = Game.create(args.name, now=_now(), seed=seed, map_name=args.map, settings=settings)
        store = _store(args)
        with store.transaction() as tx:
            if load_game(store, game.name) is not None:
                return _fail(f"a game named {game.name} exists already")
            save_game(tx, game)
    except (GameError, MapError, StoreError, ValueError) as e:
        return _fail(str(e))
    print(f"Game {game.name} created on map {game.map_name}, rules {settings.rules}, seed {seed}.")
    print(f"Phase: {game.phase.long_name} ({game.phase}).")
    return 0


def run_orders(args) -> int:
    from ..game import GameError
    from ..maps import load_names
    from ..notation.names import name_index
    from ..notation.parser import ParseContext, parse_orders
    from ..storage import StoreError, load_game, save_game
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return _fail(f"cannot read {args.file}: {e}")
    try:
        store = _store(args)
        with store.transaction() as tx:
            game = load_game(store, args.name)
            if game is None:
                return _fail(f"no game named {args.name}")
            names = name_index(game.map, load_names(game.map_name))
            power = names.power(args.power) or game.power(args.power)
            ctx = ParseContext(game.map, names, game.phase.kind, game.position, power)
            receipts = game.submit(power, parse_orders(text, ctx), _now())
            save_game(tx, game)
    except (GameError, StoreError) as e:
        return _fail(str(e))
    print(receipts_text(game, power, receipts, names))
    return 0 if all(r.ok for r in receipts) else 1


def receipts_text(game, power: str, receipts, names) -> str:
    """How each line was read, and the units still without orders."""
    from ..notation.format import format_order
    lines = [f"Orders for {power}, game {game.name}, {game.phase.long_name} ({game.phase}):"]
    for r in receipts:
        if r.ok:
            lines.append(f"  {r.input.strip()!s:<32} -> {format_order(r.order, names)}")
            for old in r.replaced:
                lines.append(f"  {'':<32}    (replaces {format_order(old.order, names)})")
        else:
            why = r.error.message("en") if hasattr(r.error, "message") else str(r.error)
            lines.append(f"  {r.input.strip()!s:<32} -> ERROR: {why}")
    missing = game.unordered(power)
    if missing:
        lines.append(f"Units without orders: {', '.join(missing)}")
    return "\n".join(lines)


def run_process(args) -> int:
    from ..game import GameError
    from ..game.report import results_text
    from ..storage import StoreError, load_game, save_game
    try:
        store = _store(args)
        with store.transaction() as tx:
            game = load_game(store, args.name)
            if game is None:
                return _fail(f"no game named {args.name}")
            records = game.process(_now())
            save_game(tx, game)
    except (GameError, StoreError) as e:
        return _fail(str(e))
    print(results_text(game, records), end="")
    return 0


def run_show(args) -> int:
    from ..game import GameError
    from ..game.report import latest_records, results_text
    from ..storage import StoreError, load_game
    try:
        game = load_game(_store(args), args.name)
        if game is None:
            return _fail(f"no game named {args.name}")
        records = [game.record(args.phase)] if args.phase else latest_records(game)
    except (GameError, StoreError) as e:
        return _fail(str(e))
    if not records:
        print(f"Game {game.name}: {game.phase.long_name} ({game.phase}); nothing adjudicated yet.")
        return 0
    print(results_text(game, records), end="")
    return 0
