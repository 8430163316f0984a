"""``judge replay [--rules PROFILE] [--keep-going] FILE...``: replay recorded games."""

from __future__ import annotations

import sys


def register(sub) -> None:
    p = sub.add_parser(
        "replay", help="replay recorded games and compare every phase with the record",
        description="Adjudicate every phase of recorded games (droidippy .txt, MILA/dipcc "
                    ".json) and compare units, dislodged units and SC ownership with the "
                    "record. Prints each difference; the last line is 'N passed, M failed' "
                    "(games). Exit status 1 if a game differs, 2 if a file cannot be read.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--rules", default="datc", choices=["datc", "droidippy"],
                   help="rule profile (default: datc = DATC v3.2)")
    p.add_argument("--keep-going", action="store_true",
                   help="after a difference, go on from the recorded board and report "
                        "every differing transition")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="also list every game with its transitions, solo winner and the "
                        "record's order lines no power could be given")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..maps import load_map
    from ..replay import RecordError, read_record, replay_game
    from ..rules.options import PROFILES
    game_map = load_map("standard")
    rules = PROFILES[args.rules]
    passed = failed = unreadable = transitions = differing = 0
    for path in args.files:
        try:
            record = read_record(path, game_map)
            report = replay_game(record, game_map, rules, args.keep_going)
        except (RecordError, OSError) as e:
            print(f"judge replay: {e}", file=sys.stderr)
            failed += 1
            unreadable += 1
            continue
        transitions += report.transitions
        differing += len(report.differences)
        if args.verbose:
            _summary(report, record)
        if report.passed:
            passed += 1
            continue
        failed += 1
        for d in report.differences:
            print(f"{report.name}: {d.phase} -> {d.reached}")
            for line in d.lines:
                print(f"  {line}")
    if args.keep_going:
        print(f"{differing} of {transitions} transitions differ")
    print(f"{passed} passed, {failed} failed")
    return 2 if unreadable else (1 if failed else 0)


def _summary(report, record) -> None:
    solo = f", solo {report.winner}" if report.winner else ""
    print(f"{report.name}: {'passed' if report.passed else 'failed'}, "
          f"{report.transitions} transitions{solo}")
    for phase in record.phases:
        for line in phase.ignored:
            print(f"  {phase.name}: ignored {line!r} (no unit to give it to)")
