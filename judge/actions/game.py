"""The game actions of ``judge game new|orders|process|set`` (see
:mod:`judge.actions.registry`): create a game, enter a power's orders,
adjudicate now, change the settings. Their answers are English text."""

from __future__ import annotations

import secrets

from ..text.words import phase_title
from .registry import Outcome, game_action, results_text, store_action


@store_action("new")
def new_game(db, now, args) -> str:
    from ..game import Game, GameError, HouseRules, Settings
    from ..game.setting_text import change_settings, describe_settings
    from ..storage import find_game, save_game
    settings = Settings(args.rules, HouseRules(
        retreat_preferences=not args.no_retreat_lists, priority_lists=not args.no_priority_lists,
        default_retreat=args.default_retreat, default_disband=args.default_disband,
        combined_orders=args.combined))
    keys = [k.removeprefix("set_") for k in vars(args) if k.startswith("set_")]   # the victory flags
    settings = change_settings(settings, [f"{key}={getattr(args, 'set_' + key)}" for key in keys
                                          if getattr(args, "set_" + key) is not None], args.tz)
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    game = Game.create(args.name, now=now, seed=seed, map_name=args.map, settings=settings)
    if find_game(db, game.name) is not None:
        raise GameError(f"a game named {game.name} exists already")
    save_game(db, game)
    ends = describe_settings(settings)
    return "\n".join([f"Game {game.name} created on map {game.map_name}, rules {settings.rules}, seed {seed}.",
                      "Ends by: " + ", ".join(f"{key}={ends[key]}" for key in keys) + ".",
                      f"Phase: {phase_title(str(game.phase))} ({game.phase})."])


@game_action("orders")
def enter_orders(game, now, args):
    from ..maps import load_names
    from ..notation.names import name_index
    from ..notation.parser import ParseContext, parse_orders
    names = name_index(game.map, load_names(game.map_name))
    power = names.power(args.power) or game.power(args.power)
    ctx = ParseContext(game.map, names, game.phase.kind, game.position, power)
    receipts = game.submit(power, parse_orders(args.text, ctx), now)
    text = receipts_text(game, power, receipts, names)
    if not all(r.ok for r in receipts):
        raise Outcome(text, 1)
    return text


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


@game_action("process")
def process(game, now, args):
    from ..game.master import process_now
    step = process_now(game, now)
    text = results_text(game, step.records)
    if game.finished:
        from ..text.reports import final_text
        text += "\n" + final_text(game)
    return text, step.notices


@game_action("set")
def set_settings(game, now, args):
    from ..game.setting_text import change_settings, describe_settings
    if args.pairs:
        settings = change_settings(game.settings, args.pairs, args.tz)
        settings.check_map(game.map)
        game.settings = settings
    return "\n".join(f"{k}={v}" for k, v in describe_settings(game.settings).items())
