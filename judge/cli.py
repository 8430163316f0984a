"""The ``judge`` command line."""

from __future__ import annotations

import argparse
import sys

from . import __version__


def _cmd_datc(args) -> int:
    from .datc import CaseFileError, run_files
    from .rules.map import MapError
    from .rules.options import PROFILES
    try:
        passed, failed = run_files(args.files, sys.stdout, PROFILES[args.rules])
    except (CaseFileError, MapError) as e:
        print(f"judge datc: {e}", file=sys.stderr)
        return 2
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("datc", help="run DATC case files (jDip/godip format)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--rules", default="datc", choices=["datc", "droidippy"],
                   help="rule profile (default: datc = DATC v3.2)")
    p.set_defaults(func=_cmd_datc)
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
