"""The store actions that take a whole game in or let it go (see
:mod:`judge.actions.registry`): ``archive import`` (``judge archive
import``), ``game arrive`` and ``leave`` (``judge game move``)."""

from __future__ import annotations

from .registry import store_action, take_in


@store_action("archive import")
def import_game(db, now, args) -> str:
    game = take_in(db, args.game)
    return f"judge archive import: {game.name}: {len(game.history)} phases, now {game.position.phase}"


@store_action("game arrive")
def arrive(db, now, args) -> str:
    game = take_in(db, args.game, args.gm, " here")
    ident = db.get("judge", "identity") or {}
    return (f"Game {game.name} ({len(game.history)} phases, now {game.position.phase}) taken in; "
            f"its players and GM write to {ident.get('address', 'this judge')} from now on.")


@store_action("leave")
def leave(db, now, args) -> str:
    from ..game import GameError
    from ..storage import delete_game, find_game
    name = find_game(db, args.name)
    if name is None:
        raise GameError(f"no game named {args.name}")
    delete_game(db, name)
    return f"Game {name} left this judge for {args.to}."
