"""The writer's runner of ``judge game ...`` work items (see
:mod:`judge.actions.registry`): :class:`Commands`, called by the worker
(:mod:`judge.mail.worker`) like a mail handler."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

# the action modules: importing them fills the tables
from . import archive as _archive, ending as _ending, game as _game, gm as _gm  # noqa: F401
from .registry import GAME_ACTIONS, STORE_ACTIONS, Outcome


class Commands:
    """The writer's runner of command work: ``commands(work, db, now) ->
    (replies, result)`` (see module doc). ``judge``: the config's ``[judge]``
    section, for the mails' language and names; ``online``: run by a running
    judge (which sends the mails at once), not by a command on its own."""

    def __init__(self, judge, online: bool = True):
        self.judge, self.online = judge, online

    def __call__(self, work: dict, db, now: datetime):
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
