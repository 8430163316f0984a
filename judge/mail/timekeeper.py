"""Deadline work in the worker: what the scheduler's jobs ask for, done by
the single writer (issue 4 §1).

A :class:`~judge.scheduler.Work` item names a game and the phase it was
planned for. :meth:`Timekeeper.handle` loads the game from the worker's
staged view of the store, checks it is still in that phase (compare-and-set:
a stale item changes nothing), applies the outage policy for ``"outage"``
work, runs :func:`judge.game.turns.tick` at ``now`` and returns the mails its
notices call for; the worker commits the game and the mails together, as it
does for a mail. ``"notices"`` work mails the notices a GM command run from
the command line left in table ``notices``.
"""

from __future__ import annotations

import logging
from datetime import datetime

from ..game import Game, turns
from ..game.notices import notice_from_dict
from ..scheduler import Work
from .commands import Reply
from .notices import notice_replies

log = logging.getLogger("judge.scheduler")


class Timekeeper:
    """``judge``: the config's ``[judge]`` section (names, default language)."""

    def __init__(self, judge):
        self.judge = judge

    def handle(self, item: Work, db, now: datetime) -> tuple[list[Reply], str]:
        """The replies for ``item`` and a one-line summary; changes go to
        ``db`` (a Staging) only."""
        if item.kind == "notices":
            return self._pending(db)
        doc = db.get("games", item.game)
        if doc is None:
            return [], "no such game"
        game = Game.from_dict(doc)
        if item.phase is not None and game.schedule.phase != item.phase:
            return [], f"stale: planned for {item.phase}, the game is at {game.schedule.phase}"
        notices = turns.outage(game, now) if item.kind == "outage" else []
        step = turns.tick(game, now)
        notices += step.notices
        new = game.to_dict()
        if new == doc:
            return [], "nothing due"
        db.put("games", game.name, new)
        replies = [r for n in notices for r in notice_replies(n, game, db, self.judge)]
        done = ", ".join(r.phase for r in step.records)
        return replies, (f"adjudicated {done}; " if done else "") + \
            f"{len(notices)} notice(s), {len(replies)} mail(s)"

    def _pending(self, db) -> tuple[list[Reply], str]:
        replies, games = [], {}
        for key, doc in sorted(db.all("notices").items()):
            db.delete("notices", key)
            notice = notice_from_dict(doc)
            name = notice.data.get("game")
            if name not in games:
                gdoc = db.get("games", name)
                games[name] = Game.from_dict(gdoc) if gdoc else None
            if games[name] is None:
                log.warning("notice %s: game %s is gone; not mailed", key, name)
                continue
            replies += notice_replies(notice, games[name], db, self.judge)
        return replies, f"{len(replies)} mail(s) for notices of GM commands"
