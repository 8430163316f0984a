"""Deadline work in the worker: what the scheduler's jobs ask for, done by
the single writer (issue 4 §1).

A :class:`~judge.scheduler.Work` item names a game and the phase it was
planned for. :meth:`Timekeeper.handle` loads the game from the worker's
staged view of the store, checks it is still in that phase (compare-and-set:
a stale item changes nothing), applies the outage policy for ``"outage"``
work, runs :func:`judge.game.turns.tick` at ``now`` and returns the mails its
notices call for; the worker commits the game and the mails together, as it
does for a mail.
"""

from __future__ import annotations

import logging
from datetime import datetime

from ..game import turns
from ..scheduler import Work
from ..storage import load_game, save_game
from .reply import Reply
from .notices import notice_replies

log = logging.getLogger("judge.scheduler")


class Timekeeper:
    """``judge``: the config's ``[judge]`` section (names, default language)."""

    def __init__(self, judge):
        self.judge = judge

    def handle(self, item: Work, db, now: datetime) -> tuple[list[Reply], str]:
        """The replies for ``item`` and a one-line summary; changes go to
        ``db`` (a Staging) only."""
        if item.kind == "clock":           # judge.clock.ClockWork: the keeper is told of a clock step
            return [Reply(purpose=f"clock-{item.phase}", to=(self.judge.keeper,), template="clock_step.txt",
                          lang=self.judge.language, context=dict(item.event), in_reply=False)], \
                f"the judgekeeper told: the clock stepped {item.event.get('direction')}"
        game = load_game(db, item.game)
        if game is None:
            return [], "no such game"
        if item.phase is not None and game.schedule.phase != item.phase:
            return [], f"stale: planned for {item.phase}, the game is at {game.schedule.phase}"
        before = game.live_dict()
        notices = turns.outage(game, now) if item.kind == "outage" else []
        step = turns.tick(game, now)
        notices += step.notices
        if game.live_dict() == before and not step.records:
            return [], "nothing due"
        save_game(db, game)
        replies = [r for n in notices for r in notice_replies(n, game, db, self.judge)]
        done = ", ".join(r.phase for r in step.records)
        return replies, (f"adjudicated {done}; " if done else "") + \
            f"{len(notices)} notice(s), {len(replies)} mail(s)"
