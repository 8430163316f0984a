"""``judge game move NAME --to-config FILE | --to DIR``: a game moves to
another judge's data folder — its live state, GM record and whole history —
and leaves this one. Both folders' writers do their part (:mod:`judge.commands.submit`):
the other judge takes the game first (refused if it has a game of that name),
then this one lets it go, so the game is never in neither folder. Mail
already waiting in this judge's outbox still goes out from here; the players
and the GM write to the other judge's address from now on (the command says
which).
"""

from __future__ import annotations

import sys
from types import SimpleNamespace


def register_move(gsub, common) -> None:
    m = gsub.add_parser("move", parents=[common], help="move a game to another judge's data folder",
                        description=__doc__.split("\n\n")[0])
    m.add_argument("name")
    target = m.add_mutually_exclusive_group(required=True)
    target.add_argument("--to-config", metavar="FILE", help="the other judge's TOML config")
    target.add_argument("--to", metavar="DIR", help="the other judge's data folder")
    m.set_defaults(func=run_move)


def run_move(args) -> int:
    from ..game import GameError
    from ..storage import StoreError
    from .common import fail, load_stored_game, open_store
    from .submit import config_of, run_command, submit
    try:
        game = load_stored_game(args)
        gm = open_store(args).get("gm", game.name)
        there = config_of(SimpleNamespace(config=args.to_config, data=args.to))
    except (GameError, StoreError, OSError) as e:
        return fail(str(e))
    if there.data_dir == config_of(args).data_dir:
        return fail("the game is in that data folder already")
    work = {"action": "game arrive", "params": {"game": game.to_dict(), "gm": gm}, "argv": sys.argv[1:]}
    result = submit(there, work)
    if result.get("status") != 0:
        print(f"judge game move: {there.data_dir}: {result.get('err') or result.get('out')}", file=sys.stderr)
        return 2
    print(result.get("out", ""))
    return run_command(SimpleNamespace(**{**vars(args), "name": game.name}), "leave",
                       {"to": str(there.data_dir)}, prog="judge game move")


