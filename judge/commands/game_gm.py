"""``judge game gm NAME ACTION ...``: the GM's operations from the command
line (issue 4 §5), the same as the GM's mail commands:

    start [WHEN]          start the clock (first deadline WHEN, else from the settings)
    deadline WHEN         set the deadline (ISO 8601; without an offset, the game's time zone)
    extend LENGTH         move the deadline later (48h, 2d, 90m)
    pause [LENGTH]        stop the clock (at most the game's pause limit)
    resume                start it again with the time that was left
    process [PHASE]       adjudicate the current phase now (only if it is PHASE)
    rollback PHASE        go back to the start of an adjudicated phase
    eject POWER           remove a player
    replace POWER PASSWORD  open a power to a replacement
    wait POWER yes|no     SET WAIT / SET NOWAIT for a power
    absence POWER FROM TO an absence (dates or times, game time zone)
    set KEY=VALUE ...     settings (see judge.game.master and judge.game.setting_text)
    status                state (running, paused, waiting, finished), deadline,
                          pause, WAIT flags, NMR record

The one writer does them (:mod:`judge.commands.submit`,
:mod:`judge.actions.gm`): a running
``judge serve`` mails what they call for (results, new deadline, ...) at
once; without one, the command does it itself and the mails go out when the
judge starts. ``status`` only reads.
"""

from __future__ import annotations

from ..actions.gm import gm_action
from .common import fail, load_stored_game, update_game

ACTIONS = ("start", "deadline", "extend", "pause", "resume", "process", "rollback", "eject",
           "replace", "wait", "absence", "set", "status")


def register_gm(gsub, common) -> None:
    p = gsub.add_parser("gm", parents=[common], help="GM operations: deadlines, pause, rollback, players",
                        description=__doc__.split("\n\n")[1], formatter_class=_raw())
    p.add_argument("name")
    p.add_argument("action", choices=ACTIONS)
    p.add_argument("args", nargs="*")
    p.set_defaults(func=run_gm)


def _raw():
    import argparse
    return argparse.RawDescriptionHelpFormatter


def run_gm(args) -> int:
    if args.action == "status":
        from ..game import GameError
        from ..storage import StoreError
        try:
            text, _ = gm_action(load_stored_game(args), "status", args.args, None)
        except (GameError, StoreError) as e:
            return fail(str(e))
        print(text)
        return 0
    return update_game(args, "gm")


