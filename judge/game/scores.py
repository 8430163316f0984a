"""A finished game's scores, awards and the evidence for passive rulings
(``RULES.md`` §5, Appendix 2 of the house rules), read from a :class:`~judge.game.Game`.

Leaders and advisors: a power's first address (its address of record) is its
leader (元首); its other addresses are advisors (幕僚), who get its mail and
score nothing. A game nobody has joined (one the GM runs by hand) counts
every power as led, so awards can still be voted and named.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..rules.scoring import (
    AWARDS, BEST_DIPLOMACY, BEST_STRATEGY, HOUSE, AwardTally, Score, ScoreExtras, score,
    scores_by_person, tally_award,
)
from .errors import GameError
from .nmr import missed_by

if TYPE_CHECKING:
    from .game import Game

AWARD_WORDS = {
    BEST_STRATEGY: ("strategy", "best strategy", "best_strategy", "beststrategy",
                    "战略", "最佳战略", "最佳战略奖", "戰略", "最佳戰略", "最佳戰略獎"),
    BEST_DIPLOMACY: ("diplomacy", "best diplomacy", "best_diplomacy", "bestdiplomacy",
                     "外交", "最佳外交", "最佳外交奖", "最佳外交獎"),
}


def award_name(text: str) -> str:
    """``"strategy"``, ``"BEST STRATEGY"``, ``"最佳战略奖"`` -> ``"best_strategy"``;
    likewise for diplomacy. Raises GameError for anything else."""
    key = " ".join(text.replace("-", " ").split()).casefold()
    for award, words in AWARD_WORDS.items():
        if key in words:
            return award
    raise GameError("not_an_award", text=text)


def leaders(game: "Game") -> dict[str, str]:
    """``{power: leader's address}`` for every power with a player."""
    return {p: pl.addresses[0] for p, pl in game.players.items() if pl.addresses}


def advisors(game: "Game") -> dict[str, tuple[str, ...]]:
    """``{power: advisors' addresses}`` for every power with advisors."""
    return {p: pl.addresses[1:] for p, pl in game.players.items() if len(pl.addresses) > 1}


def led_powers(game: "Game") -> tuple[str, ...]:
    """The powers whose leaders may vote for and receive awards: those with
    a player, or every power of a game nobody has joined."""
    led = leaders(game)
    return tuple(p for p in game.map.powers if p in led or not led)


@dataclass(frozen=True)
class AwardOutcome:
    """Where one award stands: ``winners`` (empty while the GM has still to
    name them or the vote is open), ``tally`` (the leaders' vote count when
    awards are voted and the vote has closed, else None), ``by_gm`` (the GM
    named the winner or broke the tie) and ``open_until`` (while the leaders'
    vote is open: when it closes, UTC; else None)."""

    award: str
    winners: tuple[str, ...]
    tally: AwardTally | None
    by_gm: bool
    open_until: datetime | None = None

    @property
    def pending(self) -> bool:
        return not self.winners


def award_vote_open(game: "Game") -> bool:
    """Whether the leaders' award vote is open: a house-scored game whose
    awards are voted and whose vote has not closed (it runs during the game
    and for ``award_window_hours`` after its end, or until every leader has
    voted for both awards; issue 13 point 5)."""
    scoring = game.settings.scoring
    return scoring.system == HOUSE and scoring.awards == "vote" and not game.ending.awards_closed


def award_vote_closes(game: "Game") -> datetime | None:
    """When the open award vote of a finished game closes (UTC), else None."""
    result = game.ending.result
    if result is None or not award_vote_open(game):
        return None
    return result.at + timedelta(hours=game.settings.scoring.award_window_hours)


def award_votes_complete(game: "Game") -> bool:
    """Every leader has voted for both awards."""
    votes, voters = game.ending.award_votes, led_powers(game)
    return bool(voters) and all(set(voters) <= set(votes.get(a, {})) for a in AWARDS)


def award_outcomes(game: "Game") -> dict[str, AwardOutcome]:
    """``{award: AwardOutcome}`` for both awards in a house-scored game, ``{}``
    in a game scored by another system (it has no awards). While the leaders'
    vote is open nobody has an award and no vote is shown."""
    scoring, end = game.settings.scoring, game.ending
    if scoring.system != HOUSE:
        return {}
    out = {}
    for award in AWARDS:
        pick = end.gm_awards.get(award)
        if scoring.awards == "gm":
            out[award] = AwardOutcome(award, (pick,) if pick else (), None, pick is not None)
            continue
        if award_vote_open(game):
            out[award] = AwardOutcome(award, (), None, False, award_vote_closes(game))
            continue
        tally = tally_award(end.award_votes.get(award, {}), scoring.award_tie_rule,
                            game.sc_counts(), pick)
        out[award] = AwardOutcome(award, tally.winners, tally, pick is not None)
    return out


def final_scores(game: "Game") -> dict[str, Score]:
    """``{power: Score}`` of a finished game under its scoring system, with the
    GM's passive rulings and the awards given so far (an award still pending
    adds nothing). Raises GameError while the game is running."""
    result = game.ending.result
    if result is None:
        raise GameError("still_running", game=game.name)
    extras = None
    if game.settings.scoring.system == HOUSE:
        extras = ScoreExtras(dict(game.ending.passive),
                             {a: o.winners for a, o in award_outcomes(game).items()},
                             frozenset(led_powers(game)))
    try:
        return score(game.settings.scoring.system, game.sc_counts(), result, extras,
                     concession_bonus=game.settings.scoring.concession_bonus)
    except ValueError as e:
        raise GameError.wrap(e) from None


def person_scores(game: "Game") -> dict[str, Score]:
    """``{address: Score}``: each leader's score (summed over the powers he
    leads) and an empty score with an ``advisor`` item for each advisor.
    Raises GameError while the game is running."""
    return scores_by_person(final_scores(game), leaders(game), advisors(game))


def nmr_record(game: "Game") -> dict[str, tuple[str, ...]]:
    """``{power: phases}``: the adjudicated phases in which the power had
    something to order and wrote no order at all (:func:`judge.game.nmr.missed_by`)
    — the evidence the GM sees before ruling a player passive (Appendix 2).
    Every power of the map has an entry, maybe empty. Read from the history,
    so it holds for games processed by hand too."""
    out: dict[str, tuple[str, ...]] = {p: () for p in game.map.powers}
    for rec in game.history:
        for power in missed_by(rec, game.map):
            out[power] += (rec.phase,)
    return out
