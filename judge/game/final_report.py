"""The end-of-game mail (issue 5 §5): how the game ended, the final position,
the SC table, the winners, every power's score and coins, the awards and the
GM's passive rulings.

:func:`final_data` gives it as language-neutral data (codes and numbers, like
:mod:`judge.game.results`); the words are the template
``templates/mail/results/final.txt`` (:func:`judge.text.reports.final_text`);
:func:`game_over_notice` is the mail intent for everyone in the game
(:class:`~judge.game.notices.Notice` ``"game_over"``).
"""

from __future__ import annotations

from ..maps import load_names
from ..rules.phase import Phase
from .errors import GameError
from .game import Game
from .notices import GM, OBSERVERS, PLAYERS, Notice, event_key
from .scores import advisors, award_outcomes, final_scores, nmr_record, person_scores


def final_data(game: Game) -> dict:
    """The end of a finished ``game`` as plain data (codes, numbers, UTC
    datetimes; no text). Keys: ``game``, ``map``, ``timezone``, ``phase``,
    ``ended`` and ``at`` (where and when it ended: ``"after"`` the phase
    whose adjudication ended it, or ``"during"`` the phase it was ended in,
    :func:`end_phase`), ``result`` (``kind``, ``sides``,
    ``shared``, ``reason`` — the result's reason in its dict form), ``solo_centres``,
    ``end_year`` (the last Fall played, for an end after a given year),
    ``end_at``, ``powers`` (map order), ``units`` ``{power: [[type, location]]}``,
    ``centres`` ``{power: [sc]}`` (``""`` for unowned; ordered by English
    name, the same order in every language), ``counts``, ``scoring``
    (the system), ``scores`` ``{power: Score.to_dict()}``, ``people``
    ``{address: Score.to_dict()}`` (leaders, and advisors who score nothing),
    ``awards`` ``{award: {winners, votes, tied, by_gm, pending, open_until}}``
    (house scoring only; ``open_until``: when the leaders' vote closes, while
    it is open — no winner and no vote is shown before), ``passive`` ``{power: {fine, missed}}``, ``advisors``
    ``{power: [address]}``. Raises GameError while the game is running."""
    result = game.ending.result
    if result is None:
        raise GameError("still_running", game=game.name)
    gm, pos = game.map, game.position
    phase = Phase.parse(result.phase)
    english = load_names(game.map_name).get("provinces", {})
    centres: dict[str, list[str]] = {}
    for sc in sorted(gm.supply_centres, key=lambda c: english.get(c, {}).get("en", c)):
        centres.setdefault(pos.sc_owners.get(sc, ""), []).append(sc)
    record = nmr_record(game)
    ended, last = end_phase(game)
    return {
        "game": game.name, "map": game.map_name, "timezone": game.settings.deadlines.timezone,
        "phase": last, "ended": ended, "at": result.at,
        "result": {"kind": result.kind, "sides": [list(side) for side in result.sides],
                   "shared": result.shared, "reason": result.reason.to_dict()},
        "solo_centres": game.settings.victory.solo_centres,
        "end_year": phase.year if phase.season == "W" else phase.year - 1,
        "end_at": game.settings.victory.end_at,
        "powers": list(gm.powers),
        "units": {p: [[u.type, u.location] for u in sorted(pos.units_of(p), key=lambda u: u.location)]
                  for p in gm.powers},
        "centres": centres, "counts": game.sc_counts(),
        "scoring": game.settings.scoring.system,
        "scores": {p: s.to_dict() for p, s in final_scores(game).items()},
        "people": {a: s.to_dict() for a, s in person_scores(game).items()},
        "awards": {a: {"winners": list(o.winners), "pending": o.pending, "by_gm": o.by_gm,
                       "votes": dict(o.tally.votes) if o.tally else {},
                       "tied": list(o.tally.tied) if o.tally else [], "open_until": o.open_until}
                   for a, o in award_outcomes(game).items()},
        "passive": {p: {"fine": fine, "missed": list(record[p])}
                    for p, fine in sorted(game.ending.passive.items(), key=lambda pf: gm.powers.index(pf[0]))},
        "advisors": {p: list(a) for p, a in advisors(game).items()},
    }


def end_phase(game: Game) -> tuple[str, str]:
    """``("after", phase)`` for a game that ended at the adjudication of
    ``phase`` (the last phase played: ``F1903M``, not the Winter phase its
    position reached), ``("during", phase)`` for one ended in the middle of
    ``phase`` (a vote, the GM's END, an end time between two adjudications).
    The subject and the body of the final report name this phase (issue 13
    point 8)."""
    result = game.ending.result
    last = game.history[-1] if len(game.history) else None
    if last is not None and last.processed_at == result.at:
        return "after", last.phase
    return "during", result.phase


def game_over_notice(game: Game) -> Notice:
    """The ``"game_over"`` mail intent to every player (advisors included),
    observer and the GM, with :func:`final_data` as its data. Its key is the
    same for one game's end, so it mails nobody twice; after a later ruling
    (passive player, award) send a new notice with a key of your own."""
    return Notice("game_over", (PLAYERS, OBSERVERS, GM), final_data(game),
                  event_key(game, game.ending.result.phase, "game_over"))
