"""The writer's runner of the judgekeeper's commands: a ``judge game ...``
work item, read like a mail from the judge's own machine.

A command that changes the store does not write it itself: it hands a work
item ``{"action": CLI, "params": {...}, "argv": [...]}`` to the writer
(:mod:`judge.commands.submit`) — the running ``judge serve``'s worker, or,
when no judge runs, the same worker code in the command's own process.
``CLI`` is a verb's command-line name (:attr:`judge.verbs.registry.Verb.cli`);
``params``: ``name`` (the game; a ``player`` verb's first word is the power
it is done for), ``words`` (what follows, as the mail's words), the
verb's ``cli_options`` (their values are more words), ``body`` (order
lines), and the command's other options. :class:`KeeperWork` runs the verb
over a session of the judgekeeper (who has the GM's powers), on the
writer's staged view of the store; the worker commits the game and the
mails its notices call for (results, deadlines, the final report) with the
command's ledger entry, in one commit, like a mail. The answer
``{"status": 0|1|2, "out": text, "err": text}`` (:func:`judge.mail.terminal.answer`)
rides in that ledger entry; a refused command (status 2) changes nothing.

:func:`ask` answers a question (a verb that changes nothing: ``status``)
on a read of the store, without the writer.
"""

from __future__ import annotations

from datetime import datetime

from ..game import GameError
from ..rules.map import MapError
from ..storage import StoreError, find_game, save_game
from ..verbs.registry import BY_CLI, Verb, command
from ..verbs.session import Asker, Defaults, Session
from .notices import notice_replies
from .terminal import answer


class KeeperWork:
    """``commands(work, db, now) -> (replies, result)`` (see module doc).
    ``judge``: the config's ``[judge]`` section, for the mails' language and
    names; ``online``: run by a running judge (which sends the mails at
    once), not by a command on its own."""

    def __init__(self, judge, online: bool = True):
        self.judge, self.online = judge, online

    def __call__(self, work: dict, db, now: datetime):
        name = work.get("action") if isinstance(work, dict) else None
        verb = BY_CLI.get(name) if isinstance(name, str) else None
        if verb is None:
            return [], {"status": 2, "out": "", "err": f"no such command {name!r}"}
        try:
            s = run(verb, dict(work.get("params") or {}), db, now, self.judge)
        except (GameError, MapError, StoreError, ValueError) as e:
            return [], {"status": 2, "out": "", "err": str(e)}
        status, out, err = answer(s.results, s.games)
        if status >= 2:
            return [], {"status": status, "out": out, "err": err}
        for game_name in sorted(s.dirty):
            save_game(db, s.games[game_name])
        replies = [r for n in s.notices if n.data.get("game") in s.games
                   for r in notice_replies(n, s.games[n.data["game"]], db, self.judge)]
        if replies:
            out = out.rstrip("\n") + (f"\nThe judge sends {len(replies)} mail(s) now." if self.online else
                                      f"\n{len(replies)} mail(s) wait in the outbox until `judge serve` starts.")
        return replies, {"status": status, "out": out, "err": err}


def run(verb: Verb, params: dict, db, now: datetime, judge) -> Session:
    """Run ``verb`` for the judgekeeper with the command's ``params`` on
    ``db``; the session it leaves. GameError: no such game or power."""
    asker = Asker("", "", f"cli:{now.isoformat()}", role="keeper")
    s = Session(db, now, asker, Defaults(judge.timezone, judge.language))
    words = list(params.get("words") or ())
    for option in verb.cli_options:
        words += params.get(option.lstrip("-").replace("-", "_")) or []
    if verb.who in ("player", "gm") or "game" in verb.reads:
        found = find_game(db, params.get("name") or "")
        game = s.find_game(found) if found else None
        if game is None:
            raise GameError(f"no game named {params.get('name')}")
        power = None
        if verb.who == "player":
            if not words:
                raise GameError("name_power")
            power, words = s.power_arg(game, [words[0]]), words[1:]
        s.enter(game, power)
        s.gm = True                     # the judgekeeper has the GM's powers
    body = str(params.get("body") or "").splitlines()
    s.perform(command(verb.name, words, verb.cli, [b for b in body if b.strip()], params))
    return s


def ask(verb: Verb, params: dict, db, now: datetime, judge) -> dict:
    """A question (a verb that changes nothing) answered on ``db``, a read of
    the store: ``{"status", "out", "err"}``."""
    try:
        s = run(verb, params, db, now, judge)
    except (GameError, MapError, StoreError, ValueError) as e:
        return {"status": 2, "out": "", "err": str(e)}
    status, out, err = answer(s.results, s.games)
    return {"status": status, "out": out, "err": err}

