"""Where a game stands after a mail (issue 22): the lines every answer about
a game ends with — the phase, the deadline (in the game's zone and in UTC),
the powers whose orders are still missing, and what a draw or concession
vote stands at (counts only: who voted stays private) — as data for
``templates/mail/parts/standing.txt``."""

from __future__ import annotations

from ..game import Game
from ..game.deadlines import grace_end
from ..game.nmr import missing_powers
from ..game.turns import lifecycle


def where(game: Game) -> dict:
    """``{game, map, phase, state (turns.lifecycle's), deadline (UTC or
    None), timezone, grace (UTC: when the grace period ends, while it runs;
    else None), missing: [power, ...] (running, not paused),
    to_confirm: [power, ...] (running: orders a ROLLBACK restored, which hold
    early processing back until sent again or SET NOWAIT), draw:
    (votes, survivors) or None, conceded: votes or 0}``."""
    life = lifecycle(game)
    votes = game.ending.votes
    survivors = game.survivors() if not game.finished else []
    missing = missing_powers(game) if life["state"] in ("running", "waiting") else []
    return {"game": game.name, "map": game.map_name, "phase": str(game.phase), "state": life,
            "deadline": life["deadline"], "timezone": life["timezone"], "missing": missing,
            "grace": grace_end(game.settings.deadlines, life["deadline"])
            if life["late"] and life["deadline"] and life["state"] == "running" else None,
            "to_confirm": sorted(set(game.schedule.to_confirm) - set(missing)) if life["state"] == "running" else [],
            "draw": (len([p for p in votes.draw if p in survivors]), len(survivors)) if votes.draw and survivors
            else None,
            "conceded": len(votes.concede) if not game.finished else 0}
