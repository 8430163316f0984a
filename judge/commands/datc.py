"""``judge datc FILE...``: run DATC case files."""

from __future__ import annotations

import sys


def register(sub) -> None:
    p = sub.add_parser("datc", help="run DATC case files (jDip/godip format)",
                       description="Run DATC case files; the last line is 'N passed, M failed'.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--rules", default="datc", choices=["datc", "droidippy"],
                   help="rule profile (default: datc = DATC v3.2)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..datc import CaseFileError, run_files
    from ..rules.map import MapError
    from ..rules.options import PROFILES
    try:
        passed, failed = run_files(args.files, sys.stdout, PROFILES[args.rules])
    except (CaseFileError, MapError) as e:
        print(f"judge datc: {e}", file=sys.stderr)
        return 2
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
