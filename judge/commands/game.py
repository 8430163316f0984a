"""``judge game ...``: run a game by hand, without mail — create, order,
process and show it; change its settings; the end-of-game commands (alliances,
draws, concessions, award votes) for a power, and the GM's rulings and scores.

The data file is ``DIR/judge.json``, the store ``judge serve`` uses: DIR
from ``--data``, else the ``[judge] data_dir`` of ``--config FILE``, else the
``JUDGE_DATA`` environment variable, else ``./judge-data``
(:func:`judge.config.data_dir_for`). Times are the machine's clock in UTC.
A command that changes a game leaves ``DIR/store-changed`` behind: a running
``judge serve`` sees it within a second or two, plans the game again and
mails what the change calls for (new deadline, results, final report).
"""

from __future__ import annotations

import argparse
import secrets
import sys
from datetime import datetime, timezone
from pathlib import Path

from ..game.settings import DISBAND_DEFAULTS, RETREAT_DEFAULTS
from ..rules.options import PROFILES
from ..rules.scoring import AWARD_MODES, AWARD_TIE_RULES, SYSTEMS
from ..rules.victory import DRAW_MEMBERS, DRAW_VOTES, SOLO_RULES, TIE_RULES
from ..text.words import phase_title

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


DATA_HELP = ("data directory holding judge.json, the one `judge serve` uses (default: the "
             "[judge] data_dir of --config FILE, else $JUDGE_DATA, else ./judge-data)")


def add_data_options(parser) -> None:
    """``--data DIR`` and ``--config FILE``: where the store is (see module doc)."""
    parser.add_argument("--data", metavar="DIR", help=DATA_HELP)
    parser.add_argument("--config", metavar="FILE",
                        help="the judge's TOML config, for its data_dir (as `judge serve --config`)")


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

    st = gsub.add_parser("set", parents=[common], help="change or list a game's settings",
                         description="Change settings: key=value pairs (solo=16 tie=continue "
                                     "end_at=2027-01-01T00:00Z scoring=dss ...); none lists them.")
    st.add_argument("name")
    st.add_argument("pairs", nargs="*", metavar="KEY=VALUE")
    st.add_argument("--tz", help="time zone of an end_at without offset (default: the game's)")
    st.set_defaults(func=run_set)

    o = gsub.add_parser("orders", parents=[common], help="enter a power's orders",
                        description="Read order lines (English or Chinese) and say how each was read.")
    o.add_argument("name")
    o.add_argument("power")
    o.add_argument("file", nargs="?", default="-", help="file of order lines, or - for stdin")
    o.set_defaults(func=run_orders)

    pr = gsub.add_parser("process", parents=[common], help="adjudicate the current phase",
                         description="Adjudicate the current phase now and print the results.")
    pr.add_argument("name")
    pr.set_defaults(func=run_process)

    s = gsub.add_parser("show", parents=[common], help="print results",
                        description="Print the results of the last adjudication, or of --phase.")
    s.add_argument("name")
    s.add_argument("--phase", help="a phase name such as S1901M")
    s.set_defaults(func=run_show)
    from .game_end import register_ending   # its handlers use this module's helpers
    register_ending(gsub, common)
    from .game_gm import register_gm
    register_gm(gsub, common)


def data_dir(args) -> Path:
    """The data folder of ``--data``/``--config`` (see module doc). Raises
    ConfigError for a bad config file."""
    from ..config import data_dir_for
    return data_dir_for(getattr(args, "data", None), getattr(args, "config", None))


def _store(args):
    """The store of the data folder; StoreError (also for a bad --config)."""
    from ..config import STORE_NAME, ConfigError
    from ..storage import Store, StoreError
    try:
        return Store(data_dir(args) / STORE_NAME)
    except ConfigError as e:
        raise StoreError(str(e)) from None


def tell_daemon(args) -> None:
    """Leave ``DIR/store-changed`` (:data:`judge.config.STORE_CHANGED`) so a
    running ``judge serve`` reads the games again and mails the notices now
    (see module doc)."""
    from ..config import STORE_CHANGED, ConfigError
    try:
        (data_dir(args) / STORE_CHANGED).touch()
    except (OSError, ConfigError):
        pass        # the store was written there; a judge's periodic rescan catches up anyway


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _fail(message: str) -> int:
    print(f"judge game: {message}", file=sys.stderr)
    return 2


def run_new(args) -> int:
    from ..game import Game, GameError, HouseRules, Settings
    from ..game.setting_text import change_settings, describe_settings
    from ..rules.map import MapError
    from ..storage import StoreError, load_game, save_game
    try:
        settings = Settings(args.rules, HouseRules(
            retreat_preferences=not args.no_retreat_lists, priority_lists=not args.no_priority_lists,
            default_retreat=args.default_retreat, default_disband=args.default_disband,
            combined_orders=args.combined))
        settings = change_settings(settings, [f"{key}={getattr(args, 'set_' + key)}" for _f, key, _c, _t
                                              in VICTORY_FLAGS if getattr(args, "set_" + key) is not None],
                                   args.tz)
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        game = Game.create(args.name, now=_now(), seed=seed, map_name=args.map, settings=settings)
        store = _store(args)
        with store.transaction() as tx:
            if load_game(store, game.name) is not None:
                return _fail(f"a game named {game.name} exists already")
            save_game(tx, game)
    except (GameError, MapError, StoreError, ValueError) as e:
        return _fail(str(e))
    tell_daemon(args)
    print(f"Game {game.name} created on map {game.map_name}, rules {settings.rules}, seed {seed}.")
    ends = describe_settings(settings)
    print("Ends by: " + ", ".join(f"{key}={ends[key]}" for _f, key, _c, _t in VICTORY_FLAGS) + ".")
    print(f"Phase: {phase_title(str(game.phase))} ({game.phase}).")
    return 0


def run_orders(args) -> int:
    from ..maps import load_names
    from ..notation.names import name_index
    from ..notation.parser import ParseContext, parse_orders
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return _fail(f"cannot read {args.file}: {e}")
    all_taken = []

    def submit(game, now):
        names = name_index(game.map, load_names(game.map_name))
        power = names.power(args.power) or game.power(args.power)
        ctx = ParseContext(game.map, names, game.phase.kind, game.position, power)
        receipts = game.submit(power, parse_orders(text, ctx), now)
        all_taken.append(all(r.ok for r in receipts))
        return receipts_text(game, power, receipts, names)
    rc = update_game(args, submit)
    return rc if rc or all(all_taken) else 1


def receipts_text(game, power: str, receipts, names) -> str:
    """How each line was read, and the units still without orders."""
    from ..notation.format import format_order
    lines = [f"Orders for {power}, game {game.name}, {phase_title(str(game.phase))} ({game.phase}):"]
    for r in receipts:
        if r.ok:
            lines.append(f"  {r.input.strip()!s:<32} -> {format_order(r.order, names)}")
            for old in r.replaced:
                lines.append(f"  {'':<32}    (replaces {format_order(old.order, names)})")
        else:
            why = r.error.message("en") if hasattr(r.error, "message") else str(r.error)
            lines.append(f"  {r.input.strip()!s:<32} -> ERROR: {why}")
    missing = game.unordered(power)
    if missing:
        lines.append(f"Units without orders: {', '.join(missing)}")
    return "\n".join(lines)


def run_process(args) -> int:
    from ..game.master import process_now

    def process(game, now):
        step = process_now(game, now)
        text = results_text(game, step.records)
        if game.finished:
            from ..text.reports import final_text
            text += "\n" + final_text(game)
        return text, step.notices
    return update_game(args, process)


def run_show(args) -> int:
    from ..game import GameError
    from ..storage import StoreError, load_game
    try:
        game = load_game(_store(args), args.name)
        if game is None:
            return _fail(f"no game named {args.name}")
        records = [game.record(args.phase)] if args.phase else \
            [r for r in game.history if r.processed_at == game.history[-1].processed_at] if game.history else []
    except (GameError, StoreError) as e:
        return _fail(str(e))
    if not records:
        print(f"Game {game.name}: {phase_title(str(game.phase))} ({game.phase}); nothing adjudicated yet.")
        return 0
    print(results_text(game, records), end="")
    return 0


def results_text(game, records) -> str:
    """The results of ``records`` (one adjudication) in English, as the results
    mail and ``HISTORY`` tell them (:func:`judge.archive.text.history_text`)."""
    from ..archive.text import history_text
    return history_text(game, records[0].phase, records[-1].phase)


# ---- settings and the end of the game ------------------------------------------------
def keep_notices(tx, notices) -> None:
    """Keep ``notices`` in table ``notices`` of the store: a running (or the
    next) ``judge serve`` mails them (:class:`judge.mail.timekeeper.Timekeeper`)."""
    from ..game.notices import notice_to_dict
    for n in notices:
        tx.put("notices", f"{n.kind}:{n.key}", notice_to_dict(n))


def update_game(args, action) -> int:
    """Load game ``args.name``, run ``action(game, now)``, save the game and
    print the text; a GameError (or a bad store) changes nothing. ``action``
    returns the text, or ``(text, notices)`` to mail; a game the action ends
    also mails everyone the final report (:func:`judge.game.turns.ended`)."""
    from ..game import GameError, turns
    from ..storage import StoreError, load_game, save_game
    try:
        store = _store(args)
        with store.transaction() as tx:
            game = load_game(store, args.name)
            if game is None:
                return _fail(f"no game named {args.name}")
            was_over = game.finished
            text = action(game, _now())
            text, notices = text if isinstance(text, tuple) else (text, [])
            if game.finished and not was_over and not any(n.kind == "game_over" for n in notices):
                notices = list(notices) + turns.ended(game)
            save_game(tx, game)
            keep_notices(tx, notices)
    except (GameError, StoreError, ValueError) as e:
        return _fail(str(e))
    tell_daemon(args)
    print(text, end="" if text.endswith("\n") else "\n")
    return 0


def power_arg(game, text: str) -> str:
    """A power named in English or Chinese, any case."""
    from ..maps import load_names
    from ..notation.names import name_index
    return name_index(game.map, load_names(game.map_name)).power(text) or game.power(text)


def run_set(args) -> int:
    from ..game.setting_text import change_settings, describe_settings

    def action(game, now):
        if args.pairs:
            settings = change_settings(game.settings, args.pairs, args.tz)
            settings.check_map(game.map)
            game.settings = settings
        return "\n".join(f"{k}={v}" for k, v in describe_settings(game.settings).items())
    return update_game(args, action)
