"""``judge parse [--phase S1901M] [--game G] [--power P] [--json] [--lang L]``:
read order lines on stdin and say how each was read.

Without ``--game`` the standard map is used; for a movement phase the orders
are checked against the start position, for a retreat or adjustment phase
against the map alone (there is no position to check them against). With
``--game`` the stored game's map, phase, position and rule options are used
(``--data``/``--config`` as for ``judge game``: the store ``judge serve`` uses).

With a position, every order read is also checked on the board as the game
checks it (:func:`judge.notation.check_legal`: the rules core's verdict), so an
order this command accepts is one the game accepts (house settings aside).
Notes on how a line was read (``ParsedLine.notes``, e.g. a fleet's wrong coast
corrected) are printed under it after ``  * ``, errors after ``  ** ``.

Exit status 0 if every line was read and is legal, 1 if any line has an error
or an illegal order, 2 for bad arguments or an unknown game.
"""

from __future__ import annotations

import json
import sys

from ..rules.options import DEFAULT_RULES
from ..rules.phase import Phase


def register(sub) -> None:
    p = sub.add_parser(
        "parse", help="read order lines on stdin and print how each was read",
        description="Read order lines (English or Chinese, one per line) on stdin and print, "
                    "per line, the canonical order or why it could not be read.")
    p.add_argument("--phase", default=None,
                   help="phase name such as S1901M, F1901R, W1901A (default: S1901M, or the game's)")
    p.add_argument("--game", metavar="NAME", help="read the orders against this stored game")
    from .common import add_data_options
    add_data_options(p)
    p.add_argument("--power", help="whose orders these are (checks that the units are theirs)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per line: input, ok, order (canonical English), orders, error, notes; "
                        "an illegal order keeps order/orders and has ok false and the refusal as error")
    p.add_argument("--lang", default="en", choices=["en", "zh-hans", "zh-hant"],
                   help="language of the printed orders and errors (default: en); --json order stays English")
    p.set_defaults(func=run)


def fail(message: str) -> int:
    print(f"judge parse: {message}", file=sys.stderr)
    return 2


def _context(args):
    """((ParseContext, RuleOptions), None) or (None, exit status)."""
    from ..maps import load_map, load_names
    from ..notation import ParseContext, name_index
    from ..rules.position import Position
    if args.game:
        from ..game import GameError
        from ..storage import StoreError
        from .common import load_stored_game
        try:
            game = load_stored_game(args, name=args.game)
        except (GameError, StoreError) as e:
            return None, fail(str(e))
        if args.phase and args.phase.strip().upper() != game.position.phase:
            return None, fail(f"game {args.game} is in phase {game.position.phase}, not {args.phase}")
        game_map = game.map
        names = name_index(game_map, load_names(game.map_name))
        try:
            power = game.power(args.power) if args.power else None
        except ValueError as e:
            return None, fail(str(e))
        ctx = ParseContext(game_map, names, Phase.parse(game.position.phase).kind, game.position, power)
        return (ctx, game.settings.rule_options), None
    try:
        phase = Phase.parse(args.phase or "S1901M")
    except ValueError as e:
        from ..text import english
        return None, fail(english(e))
    game_map = load_map("standard")
    names = name_index(game_map, load_names("standard"))
    power = None
    if args.power:
        power = names.power(args.power)
        if power is None:
            return None, fail(f"no power {args.power!r}: {', '.join(game_map.powers)}")
    position = Position.start(game_map) if phase.kind == "M" else None
    return (ParseContext(game_map, names, phase.kind, position, power), DEFAULT_RULES), None


def _json(d, lang: str) -> dict:
    return {"code": d.code, "message": d.message(lang),
            "params": {k: v for k, v in d.params.items() if k != "labels"}}


def run(args) -> int:
    from ..notation import check_legal, clean_line, format_order, parse_line
    got, status = _context(args)
    if got is None:
        return status
    ctx, rules = got
    errors = 0
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        if not clean_line(line).strip():
            continue
        parsed = parse_line(line, ctx)
        refusals = [d for d in (check_legal(o, ctx, rules) for o in parsed.orders) if d is not None]
        if parsed.error is not None or refusals:
            errors += 1
        if args.json:
            err = parsed.error or (refusals[0] if refusals else None)
            print(json.dumps({
                "input": line,
                "ok": err is None,
                "order": format_order(parsed.order, ctx.names) if parsed.order is not None else None,
                "orders": [format_order(o, ctx.names) for o in parsed.orders],
                "error": None if err is None else _json(err, args.lang),
                "notes": [_json(n, args.lang) for n in parsed.notes],
            }, ensure_ascii=False))
            continue
        if parsed.error is not None:
            print(f"{line}\n  ** {parsed.error.message(args.lang)}")
        elif parsed.orders:
            print("; ".join(format_order(o, ctx.names, args.lang) for o in parsed.orders))
        else:
            print(f"{line}\n  (no order)")
        for d in parsed.notes:
            print(f"  * {d.message(args.lang)}")
        for d in refusals:
            print(f"  ** {d.message(args.lang)}")
    return 1 if errors else 0
