"""The ``judge`` command line. Each subcommand lives in ``judge/commands/``."""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__

# one module per subcommand group; each has register(subparsers)
COMMANDS = (
    "archive",
    "check",
    "clock",
    "datc",
    "game",
    "mail",
    "map",
    "parse",
    "replay",
    "serve",
    "spool",
    "status",
    "store",
    "web",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"judge.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
