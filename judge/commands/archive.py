"""``judge archive build|export|import``: the archive as static files, one
game as JSON, and a recorded game (``shared/games``) stored as a game.

The data folder is the one ``judge serve`` uses: DIR from
``--data``, else the ``data_dir`` of ``--config FILE``, else ``JUDGE_DATA``,
else ``./judge-data`` (as for ``judge game``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import open_store


def register(sub) -> None:
    from .common import add_data_options
    common = argparse.ArgumentParser(add_help=False)
    add_data_options(common)
    p = sub.add_parser("archive", help="write the archive as static files or a game as JSON",
                       description="The archive of past phases: web pages and JSON.")
    asub = p.add_subparsers(dest="archive_command", metavar="ACTION", required=True)

    b = asub.add_parser("build", parents=[common], help="write every archive page into a folder",
                        description="Write the pages 'judge web' serves (English and Chinese) and "
                                    "each game's JSON export as static files under DIR; serve "
                                    "them with any web server.")
    b.add_argument("directory", metavar="DIR")
    b.set_defaults(func=run_build)

    e = asub.add_parser("export", parents=[common], help="print a game's JSON export",
                        description="Print the game's every phase (position, orders, results, "
                                    "SC ownership) as JSON, as served at /games/NAME.json.")
    e.add_argument("name")
    e.set_defaults(func=run_export)

    i = asub.add_parser("import", parents=[common], help="store a recorded game as a game",
                        description="Play a recorded game (droidippy .txt, MILA/dipcc .json) "
                                    "through the judge and store it under NAME, for browsing.")
    i.add_argument("file")
    i.add_argument("name")
    i.add_argument("--rules", default="droidippy", help="rule profile (default: droidippy)")
    i.set_defaults(func=run_import)


def run_build(args) -> int:
    from ..archive import site_of
    from ..storage import StoreError
    try:
        store = open_store(args)
        n = site_of(store).write(Path(args.directory))
    except (OSError, StoreError, ValueError, KeyError) as e:
        print(f"judge archive build: {e}", file=sys.stderr)
        return 2
    print(f"judge archive build: {n} files written to {args.directory}")
    return 0


def run_export(args) -> int:
    from ..archive import export_game
    from ..storage import StoreError, load_game
    try:
        game = load_game(open_store(args), args.name)
    except (OSError, StoreError) as e:
        print(f"judge archive export: {e}", file=sys.stderr)
        return 2
    if game is None:
        print(f"judge archive export: no game {args.name!r}", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(export_game(game), ensure_ascii=False, indent=1) + "\n")
    return 0


def run_import(args) -> int:
    from ..archive import game_from_record
    from ..game import GameError
    from ..maps import load_map
    from ..replay import RecordError, read_record
    from .submit import run_command
    try:
        game = game_from_record(read_record(args.file, load_map("standard")), args.name, args.rules)
    except (OSError, RecordError, GameError, ValueError) as e:
        print(f"judge archive import: {e}", file=sys.stderr)
        return 2
    return run_command(args, "archive import", {"game": game.to_dict(), "file": str(args.file)},
                       prog="judge archive import")


