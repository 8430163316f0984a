"""``judge game ...`` commands as work for the one writer.

A command that changes a game does not write the store itself: it hands a
work item ``{"action": NAME, "params": {...}, "argv": [...]}`` to the writer
(:mod:`judge.commands.submit`) — the running ``judge serve``'s worker, or,
when no judge runs, the same worker code in the command's own process — and
prints what the writer answers. The writer runs the action registered here
under NAME on its staged view of the store, commits the game and the mails
its notices call for (results, deadlines, the final report) with the
command's ledger entry, in one commit, like a mail; the answer
``{"status": 0|1|2, "out": text, "err": text}`` rides in that ledger entry
(``err`` without the command's name; the command prints it after its own).

The work item ``mail notices`` (params ``notices``: stored
:class:`~judge.game.notices.Notice` dicts) mails notices an earlier release
left in its store (:mod:`judge.storage.upgrade`).

Actions: ``@game_action(NAME)`` for ``f(game, now, args) -> text | (text,
notices)`` on the game ``args.name`` (loaded, and saved when the action
succeeds); ``@store_action(NAME)`` for ``f(db, now, args) -> text`` that
make games (``new``, ``archive import``). ``args`` holds the command-line
options (a namespace of plain values). A GameError, ValueError, MapError or
StoreError is the command's error (status 2, nothing changed).
"""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from typing import Callable

GAME_ACTIONS: dict[str, Callable] = {}
STORE_ACTIONS: dict[str, Callable] = {}


def game_action(name: str):
    def register(f):
        GAME_ACTIONS[name] = f
        return f
    return register


def store_action(name: str):
    def register(f):
        STORE_ACTIONS[name] = f
        return f
    return register


class Outcome(Exception):
    """Raised by an action to end with ``status`` and ``text`` (and ``err``):
    a game action's change is kept (1: done, but not all was taken); a store
    action's is not (1: refused, e.g. the game exists)."""

    def __init__(self, text: str, status: int, err: str = ""):
        super().__init__(text or err)
        self.text, self.status, self.err = text, status, err


class Commands:
    """The writer's runner of command work: ``commands(work, db, now) ->
    (replies, result)`` (see module doc). ``judge``: the config's ``[judge]``
    section, for the mails' language and names; ``online``: run by a running
    judge (which sends the mails at once), not by a command on its own."""

    def __init__(self, judge, online: bool = True):
        self.judge, self.online = judge, online

    def __call__(self, work: dict, db, now: datetime):
        _register_all()
        from ..game import GameError
        from ..rules.map import MapError
        from ..storage import StoreError
        name = work.get("action") if isinstance(work, dict) else None
        args = SimpleNamespace(**(work.get("params") or {})) if isinstance(work, dict) else None
        try:
            if name == "mail notices":
                return self._notices(db, args.notices)
            if name in STORE_ACTIONS:
                return [], {"status": 0, "out": STORE_ACTIONS[name](db, now, args), "err": ""}
            if name not in GAME_ACTIONS:
                return [], {"status": 2, "out": "", "err": f"no such command {name!r}"}
            return self._on_game(GAME_ACTIONS[name], db, now, args)
        except Outcome as o:
            return [], {"status": o.status, "out": o.text, "err": o.err}
        except (GameError, MapError, StoreError, ValueError) as e:
            return [], {"status": 2, "out": "", "err": str(e)}

    def _on_game(self, action, db, now, args):
        from ..game import turns
        from ..mail.notices import notice_replies
        from ..storage import find_game, load_game, save_game
        found = find_game(db, args.name)
        game = load_game(db, found) if found else None
        if game is None:
            return [], {"status": 2, "out": "", "err": f"no game named {args.name}"}
        was_over, status = game.finished, 0
        try:
            text = action(game, now, args)
        except Outcome as o:
            text, status = o.text, o.status
        text, notices = text if isinstance(text, tuple) else (text, [])
        if game.finished and not was_over and not any(n.kind == "game_over" for n in notices):
            notices = list(notices) + turns.ended(game)
        save_game(db, game)
        replies = [r for n in notices for r in notice_replies(n, game, db, self.judge)]
        if replies:
            text = text.rstrip("\n") + (f"\nThe judge sends {len(replies)} mail(s) now." if self.online else
                                        f"\n{len(replies)} mail(s) wait in the outbox until `judge serve` starts.")
        return replies, {"status": status, "out": text, "err": ""}


    def _notices(self, db, docs: list[dict]):
        """Mail notices a command of an earlier release left in the store
        (:mod:`judge.storage.upgrade`)."""
        from ..game.notices import notice_from_dict
        from ..mail.notices import notice_replies
        from ..storage import load_game
        replies, games = [], {}
        for doc in docs:
            notice = notice_from_dict(doc)
            name = notice.data.get("game")
            if name not in games:
                games[name] = load_game(db, name) if name else None
            if games[name] is not None:
                replies += notice_replies(notice, games[name], db, self.judge)
        return replies, {"status": 0, "out": f"{len(replies)} mail(s) for {len(docs)} notice(s)", "err": ""}


def take_in(db, data: dict, gm: dict | None = None, here: str = ""):
    """Store the whole game ``data`` (:meth:`Game.to_dict`) as a new game,
    with its GM record ``gm`` if any; returns the Game. Raises
    :class:`Outcome` (status 1) if a game of that name exists (``here``: words
    for where)."""
    from ..game import Game
    from ..storage import find_game, save_game, save_gm
    game = Game.from_dict(data)
    if find_game(db, game.name) is not None:
        raise Outcome("", 1, f"a game {game.name!r} exists{here} already")
    save_game(db, game)
    if gm:
        save_gm(db, game.name, gm)
    return game


def _register_all() -> None:
    """Import the command modules, whose decorators fill the tables."""
    from . import archive, game, game_end, game_gm, game_move  # noqa: F401
