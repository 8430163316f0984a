"""What the ``judge …`` command modules share: where the data folder is
(``--data``/``--config``), reading a stored game, handing a change to the
one writer (:mod:`judge.commands.submit`; what the writer does is in
:mod:`judge.mail.keeper`, the verbs of :mod:`judge.verbs`). The command modules import this one; it imports
none of them.
"""

from __future__ import annotations

import sys
from pathlib import Path

DATA_HELP = ("data folder: the [judge] data_dir of --config FILE, else $JUDGE_DATA, else "
             "./judge-data (the folder `judge serve` uses)")


def add_data_options(parser) -> None:
    """``--data DIR`` and ``--config FILE``: where the store is (see :mod:`judge.commands.game`)."""
    parser.add_argument("--data", metavar="DIR", help=DATA_HELP)
    parser.add_argument("--config", metavar="FILE",
                        help="the judge's TOML config, for its data_dir (as `judge serve --config`)")


def data_dir(args) -> Path:
    """The data folder of ``--data``/``--config`` (see :mod:`judge.commands.game`). Raises
    ConfigError for a bad config file."""
    from ..config import data_dir_for
    return data_dir_for(getattr(args, "data", None), getattr(args, "config", None))


def open_store(args):
    """The store of the data folder, to read; StoreError (also for a bad
    --config, or a folder holding no store: nothing is made there)."""
    from ..config import STORE_NAME, ConfigError
    from ..storage import Store, StoreError
    try:
        folder = data_dir(args)
    except ConfigError as e:
        raise StoreError(str(e)) from None
    if not (folder / STORE_NAME).is_dir():
        raise StoreError(f"no judge data in {folder} (give the judge's --config FILE or --data DIR)")
    return Store(folder / STORE_NAME)


def fail(message: str, prog: str = "judge game") -> int:
    """Print ``prog: message`` on stderr; the exit status 2."""
    print(f"{prog}: {message}", file=sys.stderr)
    return 2


def load_stored_game(args, name: str | None = None):
    """The game ``name`` (default ``args.name``) from the store, to read (any
    letter case). Raises StoreError, GameError."""
    from ..game import GameError
    from ..storage import StoreError, find_game, load_game
    name = name or args.name
    try:
        store = open_store(args)
    except StoreError as e:
        raise GameError(f"no game named {name}: {e}") from None
    found = find_game(store, name)
    game = load_game(store, found) if found else None
    if game is None:
        raise GameError(f"no game named {name}")
    return game


def update_game(args, action: str, extra: dict | None = None) -> int:
    """Have the writer run the verb ``action`` (a :attr:`~judge.verbs.registry.Verb.cli` name)
    on game ``args.name``; print its answer."""
    from .submit import run_command
    return run_command(args, action, extra)


