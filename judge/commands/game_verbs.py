"""``judge game VERB NAME ...`` and ``judge game gm NAME VERB ...``: the
GM's and the end-of-game commands on the judge's machine, one for each verb
of :mod:`judge.verbs.registry` with a command-line name (``cli``) — the
same verbs, checks and answers as by mail; the judgekeeper has the GM's
powers, and names the power a player's verb is done for first::

    judge game gm NAME extend 24h          judge game extend NAME 24h
    judge game gm NAME deadline 2030-04-02T20:00      (ISO 8601; without an offset, the game's time zone)
    judge game ally NAME France England    (France declares an alliance with England)
    judge game end NAME --members France Italy

The words after NAME are those the mail takes (``absence NAME France FROM
2030-04-01 TO 2030-04-05``). A verb that changes something hands its work
to the one writer (:mod:`judge.commands.submit`): a running ``judge serve``
mails what it calls for (results, new deadline, ...) at once; without one,
the command does it itself and the mails go out when the judge starts. A
question (``status``) reads the store directly.
"""

from __future__ import annotations

import argparse
import sys

from ..verbs.registry import BY_CLI, VERBS, Verb
from .common import update_game

GM_HELP = ("The GM's commands, the same verbs as by mail (the judgekeeper has the GM's powers; a "
           "player's verb names the power first). Each is also `judge game VERB NAME ...`. What a "
           "command changes goes through the one writer: a running `judge serve` mails what it calls "
           "for at once; without one, the mails wait in the outbox until the judge starts.")

OWN_PARSERS = ("new", "orders", "archive import", "game arrive", "leave", "mail notices")
"""Verbs whose command lines are written by hand (:mod:`.game`, :mod:`.archive`, ...)."""


def derived() -> list[Verb]:
    """The verbs that are ``judge game`` subcommands of their own."""
    return [v for v in VERBS if v.cli and v.cli not in OWN_PARSERS]


def register_verbs(gsub, common) -> None:
    """``judge game VERB NAME [WORDS]`` for each verb of :func:`derived`, and
    ``judge game gm NAME VERB [WORDS]``."""
    for verb in derived():
        sp = gsub.add_parser(verb.cli, parents=[common], help=cli_help(verb), description=cli_help(verb))
        sp.add_argument("name")
        sp.add_argument("words", nargs="*", metavar=verb.cli_args or "WORDS")
        _options(sp, [verb])
        sp.set_defaults(func=run_verb, verb=verb.cli)
    names = [v.cli for v in derived()]
    p = gsub.add_parser("gm", parents=[common], help="the GM's commands: deadlines, pause, rollback, players, ...",
                        description=GM_HELP + "\n\n" + _table(),
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("name")
    p.add_argument("verb", choices=names, metavar="VERB")
    p.add_argument("words", nargs="*")
    _options(p, derived())
    p.set_defaults(func=run_verb)


def _options(parser, verbs) -> None:
    seen = set()
    for verb in verbs:
        for option in verb.cli_options:
            if option not in seen:
                parser.add_argument(option, nargs="+", metavar="POWER", help="more powers (as the words after NAME)")
                seen.add(option)
        for option, text in verb.cli_params:
            if option not in seen:
                parser.add_argument(option, help=text)
                seen.add(option)


def cli_help(verb: Verb) -> str:
    """One line: what the verb does, from its HELP entry (the English the
    mail writes), and how the mail says it."""
    if verb.who == "keeper":
        return " ".join(" ".join(verb.help).split()) or verb.cli
    if not verb.help:
        return f"(by mail: {verb.en[0]})" if verb.en else f"{verb.cli} {verb.cli_args}".strip()
    first, *rest = verb.help[0].replace("%(day)s", "YYYY-MM-DD").split("\n")
    usage, _, said = first.strip().partition("  ")
    return f"{' '.join(' '.join([said, *rest]).split())} (by mail: {usage})"


def _table() -> str:
    return "\n".join(f"  {f'{v.cli} {v.cli_args}'.strip():<40} {cli_help(v)}" for v in derived())


def run_verb(args) -> int:
    verb = BY_CLI[args.verb]
    if verb.changes:
        return update_game(args, verb.cli)
    return _ask(args, verb)


def _ask(args, verb: Verb) -> int:
    """A question, answered on a read of the store (no writer needed)."""
    from datetime import datetime, timezone

    from ..config import ConfigError
    from ..mail.keeper import ask
    from ..mail.staging import Staging
    from ..storage import StoreError
    from .common import fail, open_store
    from .submit import config_of
    try:
        store, cfg = open_store(args), config_of(args)
    except (ConfigError, StoreError) as e:
        return fail(str(e))
    params = {k: v for k, v in vars(args).items() if k not in ("func", "data", "config", "verb")}
    result = ask(verb, params, Staging(store), datetime.now(timezone.utc), cfg.judge)
    if result["out"]:
        print(result["out"])
    if result["err"]:
        print(f"judge game: {result['err']}", file=sys.stderr)
    return result["status"]
