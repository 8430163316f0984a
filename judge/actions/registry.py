"""What the one writer does for a ``judge game ...`` command: its actions.

A command that changes a game does not write the store itself: it hands a
work item ``{"action": NAME, "params": {...}, "argv": [...]}`` to the writer
(:mod:`judge.commands.submit` hands it over) — the running ``judge serve``'s worker, or,
when no judge runs, the same worker code in the command's own process — and
prints what the writer answers. The writer (:class:`judge.actions.runner.Commands`) runs the action
registered under NAME (:mod:`judge.actions.game`, ``.gm``, ``.ending``,
``.archive``) on its staged view of the store, commits the game and the mails
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



def results_text(game, records) -> str:
    """The results of ``records`` (one adjudication) in English, as the results
    mail and ``HISTORY`` tell them (:func:`judge.archive.text.history_text`)."""
    from ..archive.text import history_text
    return history_text(game, records[0].phase, records[-1].phase)


def power_arg(game, text: str) -> str:
    """A power named in English or Chinese, any case."""
    from ..maps import load_names
    from ..notation.names import name_index
    return name_index(game.map, load_names(game.map_name)).power(text) or game.power(text)
