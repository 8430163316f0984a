"""``judge game ...``: run a game by hand, without mail — create, order and
show it; and every GM and end-of-game verb with a command-line name
(:mod:`judge.commands.game_verbs`: process, set, extend, ally, draw, end,
passive, ...), the same verbs the mail runs.

The data folder is the one ``judge serve`` uses: DIR from ``--data``, else
the ``[judge] data_dir`` of ``--config FILE``, else the ``JUDGE_DATA``
environment variable, else ``./judge-data`` (:func:`judge.config.data_dir_for`).
Times are the machine's clock in UTC. A command that changes a game hands
its work to the one writer (:mod:`judge.commands.submit`): a running
``judge serve`` does it at once and mails what the change calls for (new
deadline, results, final report); without one, the command does it itself
and the mails go out when the judge starts. Reading commands (``show``,
``scores``) read the store directly.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..game.settings import DISBAND_DEFAULTS, RETREAT_DEFAULTS
from ..rules.options import PROFILES
from ..rules.scoring import AWARD_MODES, AWARD_TIE_RULES, SYSTEMS
from ..rules.victory import DRAW_MEMBERS, DRAW_VOTES, SOLO_RULES, TIE_RULES
from ..text.words import phase_title
from .common import add_data_options, fail, load_stored_game, update_game

# judge game new --flag -> settings key (judge.game.setting_text)
VICTORY_FLAGS = (
    ("--solo", "solo", None, "SCs for a solo win, or none (default 18; RULES.md 4)"),
    ("--solo-rule", "solo_rule", SOLO_RULES, "reach: every power with N SCs; most: the most SCs and N"),
    ("--alliance", "alliance", None, "combined SCs for a two-power alliance win (default: none)"),
    ("--end-year", "end_year", None, "the game ends after Fall of this year; most SCs wins"),
    ("--end-at", "end_at", None, "the game ends at this time (ISO 8601, e.g. 2027-01-01T00:00Z); most SCs wins"),
    ("--tie", "tie", TIE_RULES, "tied winners share the win, or play continues year by year"),
    ("--draw-votes", "draw_votes", DRAW_VOTES, "draw and concession votes secret or public"),
    ("--draw-members", "draw_members", DRAW_MEMBERS, "a draw includes all survivors, or any two or more"),
    ("--scoring", "scoring", SYSTEMS, "scoring system (default: house = Appendix 2; RULES.md 5)"),
    ("--awards", "awards", AWARD_MODES, "best strategy/diplomacy awards named by the GM or voted by the leaders"),
    ("--award-tie", "award_tie", AWARD_TIE_RULES, "a tied award vote: the GM decides, share, or most SCs"),
)


def register(sub) -> None:
    common = argparse.ArgumentParser(add_help=False)
    add_data_options(common)
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
    for flag, key, choices, text in VICTORY_FLAGS:
        n.add_argument(flag, dest=f"set_{key}", choices=choices, help=text)
    n.add_argument("--tz", help="time zone of an --end-at without offset (default: the game's, UTC)")
    n.set_defaults(func=run_new)

    o = gsub.add_parser("orders", parents=[common], help="enter a power's orders",
                        description="Read order lines (English or Chinese) and say how each was read.")
    o.add_argument("name")
    o.add_argument("power")
    o.add_argument("file", nargs="?", default="-", help="file of order lines, or - for stdin")
    o.set_defaults(func=run_orders)

    s = gsub.add_parser("show", parents=[common], help="print results",
                        description="Print the results of the last adjudication, or of --phase.")
    s.add_argument("name")
    s.add_argument("--phase", help="a phase name such as S1901M")
    s.set_defaults(func=run_show)
    from .game_scores import register_scores
    register_scores(gsub, common)
    from .game_verbs import register_verbs
    register_verbs(gsub, common)
    from .game_move import register_move
    register_move(gsub, common)


def run_new(args) -> int:
    return update_game(args, "new")


def run_orders(args) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return fail(f"cannot read {args.file}: {e}")
    return update_game(args, "orders", {"words": [args.power], "body": text, "file": None})


def run_show(args) -> int:
    from ..game import GameError
    from ..storage import StoreError
    try:
        game = load_stored_game(args)
        records = [game.record(args.phase)] if args.phase else last_adjudication(game)
    except (GameError, StoreError) as e:
        return fail(str(e))
    if not records:
        print(f"Game {game.name}: {phase_title(str(game.phase))} ({game.phase}); nothing adjudicated yet.")
        return 0
    from ..archive.text import history_text
    print(history_text(game, records[0].phase, records[-1].phase), end="")
    return 0


def last_adjudication(game) -> list:
    """The records of the last adjudication (several phases in combined-order
    mode), oldest first; reads only those records of the history."""
    out = []
    for i in range(len(game.history) - 1, -1, -1):
        rec = game.history[i]
        if out and rec.processed_at != out[0].processed_at:
            break
        out.insert(0, rec)
    return out
