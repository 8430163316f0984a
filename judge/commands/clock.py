"""``judge clock [status] | confirm``: the judge's clock (:mod:`judge.clock`).

- ``status`` (the default): what the running judge last wrote in
  ``DATA/clock``: its time, and whether a step of the system clock is held
  (deadlines wait for the keeper) or the clock is behind; exit status 3
  in either case, 0 when the clock is in order.
- ``confirm``: the system clock is right: the running judge takes it within
  a second (deadlines past by then are processed at once); a judge not
  running takes it at its next start.
"""

from __future__ import annotations

import sys


def register(sub) -> None:
    from .common import add_data_options
    p = sub.add_parser("clock", help="the judge's clock: a step held, and confirming the new time",
                       description="Show whether the running judge holds deadlines after a step of the "
                                   "system clock, or confirm that the system clock is right.")
    add_data_options(p)
    p.add_argument("action", nargs="?", choices=("status", "confirm"), default="status",
                   help="status (default) or confirm")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..clock import confirm, read_state
    from ..config import ConfigError
    from .common import data_dir
    try:
        folder = data_dir(args)
    except ConfigError as e:
        print(f"judge clock: {e}", file=sys.stderr)
        return 2
    if not folder.is_dir():
        print(f"judge clock: no data folder {folder}", file=sys.stderr)
        return 1
    state = read_state(folder)
    if args.action == "confirm":
        confirm(folder)
        held = state and state.get("state") != "ok"
        print(f"confirmed: the judge takes the system clock as right "
              f"({'within a second if it runs, else at its next start' if held else 'it held nothing'})")
        return 0
    if state is None:
        print(f"no clock state in {folder} (the judge has not run here since it keeps one)")
        return 0
    event = state.get("event") or {}
    print(f"judge's time: {state.get('judge_time')} (written {state.get('saved_at')})")
    if state.get("state") == "held":
        print(f"held: the system clock jumped forward by {event.get('step_text')} ({event.get('at')}); "
              f"deadlines fall by the monotonic clock until you run `judge clock confirm`")
        return 3
    if state.get("state") == "behind":
        print(f"behind: the system clock jumped back by {event.get('step_text')} ({event.get('at')}); "
              f"deadlines come late until it is set right")
        return 3
    print("the system clock agrees with the monotonic clock")
    return 0
