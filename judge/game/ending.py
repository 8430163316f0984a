"""How a game ends (``RULES.md`` §4-5, issue 5): alliances, draw and concession
votes, the victory check, the GM's passive rulings and the awards.

:class:`EndState` is the part of a game's state that serves its end; the
:class:`EndOfGame` methods (mixed into :class:`~judge.game.Game`) are the use
cases the mail commands and the CLI call — ``ALLY``/``UNALLY``, ``DRAW``/
``NODRAW``, ``CONCEDE``, ``VOTE BEST STRATEGY|DIPLOMACY`` and the GM's
rulings. Each raises :class:`~judge.game.errors.GameError` (a ValueError) with
a sentence for the player and changes nothing when it does; each refuses a
game that is over, except the passive rulings and awards, which are settled
after the end.

The rules themselves are the pure functions of :mod:`judge.rules.victory`
and :mod:`judge.rules.scoring`; their docstrings give the readings of the
rule texts. The game adds:

* When the game is checked: after every adjudication (:meth:`Game.process`,
  once draw and concession votes have expired) and whenever the scheduler
  calls :meth:`EndOfGame.check_end` — at every deadline and at the game's
  ``end_at``. The check is idempotent. SC ownership changes only after Fall,
  so the checks between two Falls see the counts of the last Fall.
* Survivors: the powers owning an SC or a unit (a power that lost its last
  SC in Fall keeps its units until the Winter removals).
* A draw or concession ends the game as soon as the last vote needed arrives.
* An alliance counts from its second declaration; whether it wins is checked
  at the next check, not at the declaration.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime

from ..rules.scoring import HOUSE, cast_award_vote, tally_award
from ..rules.victory import (
    DRAW, EndVotes, Tie, VictoryCheck, VictoryResult, centre_counts, check_victory, declare_ally,
    mutual_alliances, tally_votes, visible_votes, vote_concede, vote_draw, withdraw_ally,
    withdraw_concession, withdraw_draw, reason_from_data,
)
from ..rules.reasons import Reason
from .errors import GameError
from .scores import (
    award_name, award_outcomes, award_vote_closes, award_vote_open, award_votes_complete, led_powers, leaders,
)


@dataclass(frozen=True)
class EndState:
    """What a game keeps for its end.

    * ``allies``: ``{power: the ally it declared}`` (an alliance is in force
      when two powers declared each other).
    * ``votes``: the pending draw and concession votes (:class:`EndVotes`);
      they expire at each adjudication.
    * ``award_votes``: ``{award: {voter: candidate}}`` (powers; awards
      ``"best_strategy"``/``"best_diplomacy"``).
    * ``gm_awards``: ``{award: power}`` the GM named (awards by the GM) or
      picked among the tied (awards by vote).
    * ``passive``: ``{power: fine in points}`` for each player the GM ruled passive.
    * ``tie``: the tie that kept the game going at the last check (tie rule
      ``"continue"``), else None.
    * ``result``: how the game ended (:class:`VictoryResult`); None while it runs.
    * ``awards_closed``: the leaders' award vote has closed (its results are
      announced once, then; issue 13 point 5).
    """

    allies: Mapping[str, str] = field(default_factory=dict)
    votes: EndVotes = field(default_factory=EndVotes)
    award_votes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    gm_awards: Mapping[str, str] = field(default_factory=dict)
    passive: Mapping[str, int] = field(default_factory=dict)
    tie: Tie | None = None
    result: VictoryResult | None = None
    awards_closed: bool = False

    def to_dict(self) -> dict:
        tie = self.tie
        return {
            "allies": dict(sorted(self.allies.items())), "votes": self.votes.to_dict(),
            "award_votes": {a: dict(sorted(v.items())) for a, v in sorted(self.award_votes.items())},
            "gm_awards": dict(sorted(self.gm_awards.items())),
            "passive": dict(sorted(self.passive.items())),
            "tie": None if tie is None else {"kind": tie.kind, "sides": [list(s) for s in tie.sides],
                                             "reason": tie.reason.to_dict()},
            "result": None if self.result is None else self.result.to_dict(),
            "awards_closed": self.awards_closed,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> "EndState":
        """Inverse of :meth:`to_dict`; missing keys take their defaults.
        Raises ValueError/KeyError on malformed data."""
        tie, result = data.get("tie"), data.get("result")
        return cls(
            dict(data.get("allies", {})), EndVotes.from_dict(data.get("votes", {})),
            {a: dict(v) for a, v in data.get("award_votes", {}).items()},
            dict(data.get("gm_awards", {})), dict(data.get("passive", {})),
            None if tie is None else Tie(tie["kind"], sides_of(tie), reason_from_data(tie.get("reason"), tie["kind"],
                                                                                     sides_of(tie))),
            None if result is None else VictoryResult.from_dict(result),
            bool(data.get("awards_closed", False)),
        )


def sides_of(data: Mapping) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(s) for s in data["sides"])


@contextmanager
def _refusal():
    """The rules core's ValueErrors, as GameErrors for the player."""
    try:
        yield
    except GameError:
        raise
    except ValueError as e:
        raise GameError.wrap(e) from None


def _aware(now: datetime) -> None:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise GameError("naive_time", what="now")


class EndOfGame:
    """The end-of-game use cases of :class:`~judge.game.Game`, which provides
    ``name``, ``map``, ``settings``, ``players``, ``position``, ``history``,
    ``ending`` (an :class:`EndState`) and ``power(name)``. Powers are named as
    :meth:`Game.power` reads them (the map's English names, any case)."""

    # ---- reading -----------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """True once the game has ended: no more orders or adjudication."""
        return self.ending.result is not None

    def survivors(self) -> list[str]:
        """The powers still in the game (owning an SC or a unit), in map order."""
        pos = self.position
        alive = set(pos.sc_owners.values()) | {u.power for u in pos.units.values()} \
            | {d.unit.power for d in pos.dislodged.values()}
        return [p for p in self.map.powers if p in alive]

    def sc_counts(self) -> dict[str, int]:
        """``{power: SCs owned}`` for every power of the map (0 if none)."""
        return centre_counts(self.position.sc_owners, self.map.powers)

    def alliances(self) -> list[frozenset[str]]:
        """The alliances in force: pairs of powers that declared each other."""
        return mutual_alliances(self.ending.allies)

    def visible_votes(self, viewer: str | None = None) -> dict:
        """The draw and concession votes ``viewer`` (a power) may see, as
        :meth:`EndVotes.to_dict`: all of them for the GM (``None``) or in a
        public-vote game, only the viewer's own in a secret-vote game."""
        viewer = None if viewer is None else self.power(viewer)
        return visible_votes(self.ending.votes, self.settings.victory, viewer)

    def check_running(self) -> None:
        """Raises GameError when the game is over."""
        if self.finished:
            raise GameError.of("game_over", game=self.name, phase=self.ending.result.phase)

    # ---- the check ---------------------------------------------------------------
    def check_end(self, now: datetime) -> VictoryCheck:
        """Check the draw and concession votes, then every victory condition
        of the settings (``RULES.md`` §4) with the current SC counts, survivors
        and alliances, at UTC time ``now``. The scheduler calls it at every
        deadline and at the settings' ``end_at``; :meth:`Game.process` calls it
        after every adjudication. When a condition is met the game ends:
        ``ending.result`` is set and :attr:`finished` is True. A tie under tie
        rule ``"continue"`` is kept in ``ending.tie`` and the game goes on.
        Returns the :class:`VictoryCheck` (on a finished game: its result,
        changing nothing). Raises GameError for a naive ``now``."""
        _aware(now)
        if self.finished:
            return VictoryCheck(result=self.ending.result)
        survivors, phase = self.survivors(), self.position.phase
        with _refusal():
            voted = tally_votes(self.ending.votes, survivors, phase, now)
            check = VictoryCheck(voted) if voted else check_victory(
                self.settings.victory, self.sc_counts(), phase, now, self.alliances(), survivors)
        self.ending = replace(self.ending, tie=check.tie, result=check.result)
        return check

    def expire_votes(self) -> None:
        """Drop every draw and concession vote (done at each adjudication)."""
        self.ending = replace(self.ending, votes=EndVotes())

    # ---- alliances -----------------------------------------------------------------
    def ally(self, power: str, other: str) -> bool:
        """``ALLY <other>`` by ``power`` (house text §4 b): replaces an earlier
        declaration of ``power``. Returns True when the alliance is now in
        force (``other`` has declared ``power`` too). Raises GameError when the
        game is over or has no alliance victory, or either power is not a
        survivor or they are the same."""
        self.check_running()
        power, other = self.power(power), self.power(other)
        if self.settings.victory.alliance_centres is None:
            raise GameError.of("alliances_off", game=self.name)
        partner = self.ending.allies.get(other)
        if partner not in (None, power) and self.ending.allies.get(partner) == other:
            # a two-power alliance in force has no room for a third (house text §4 b)
            raise GameError.of("ally_taken", power=other, partner=partner, map=self.map_name)
        with _refusal():
            allies = declare_ally(self.ending.allies, power, other, self.survivors())
        self.ending = replace(self.ending, allies=allies)
        return allies.get(other) == power

    def unally(self, power: str) -> str:
        """``UNALLY`` by ``power``: withdraws its declaration. Returns the power
        it had declared. Raises GameError when the game is over or ``power``
        declared no alliance."""
        self.check_running()
        power = self.power(power)
        if power not in self.ending.allies:
            raise GameError.of("no_alliance", power=power, map=self.map_name)
        was = self.ending.allies[power]
        self.ending = replace(self.ending, allies=withdraw_ally(self.ending.allies, power))
        return was

    # ---- draws and concessions ---------------------------------------------------
    def draw(self, power: str, now: datetime, members: Iterable[str] | None = None) -> VictoryResult | None:
        """``DRAW`` by ``power``: a vote for a draw of ``members`` (default:
        every survivor; a subset only where ``draw_members`` is ``"any"``),
        replacing its earlier draw vote. When every survivor has voted for the
        same draw the game ends at ``now``; returns the result then, else None.
        Raises GameError when the game is over, a power is unknown or not a
        survivor, or the draw is not allowed."""
        self.check_running()
        _aware(now)
        power = self.power(power)
        members = None if members is None else [self.power(m) for m in members]
        with _refusal():
            votes = vote_draw(self.ending.votes, self.settings.victory, power, self.survivors(), members)
        # one vote a power: a draw vote replaces its concession
        self.ending = replace(self.ending, votes=withdraw_concession(votes, power) if power in votes.concede else votes)
        return self._tally(now)

    def nodraw(self, power: str) -> None:
        """``NODRAW`` by ``power``: withdraws its draw vote. Raises GameError
        when the game is over or ``power`` has no draw vote."""
        self.check_running()
        power = self.power(power)
        if power not in self.ending.votes.draw:
            raise GameError.of("no_draw_vote", power=power, map=self.map_name)
        self.ending = replace(self.ending, votes=withdraw_draw(self.ending.votes, power))

    def concede(self, power: str, to: str, now: datetime) -> VictoryResult | None:
        """``CONCEDE <to>`` by ``power``, replacing its earlier concession. When
        every other survivor has conceded to ``to`` the game ends at ``now``
        with ``to`` the winner; returns the result then, else None. Raises
        GameError when the game is over, either power is not a survivor, or
        they are the same."""
        self.check_running()
        _aware(now)
        power, to = self.power(power), self.power(to)
        with _refusal():
            votes = vote_concede(self.ending.votes, power, to, self.survivors())
        # one vote a power: a concession replaces its draw vote
        self.ending = replace(self.ending, votes=withdraw_draw(votes, power) if power in votes.draw else votes)
        return self._tally(now)

    def unconcede(self, power: str) -> None:
        """Withdraws ``power``'s concession. Raises GameError when the game is
        over or ``power`` has not conceded."""
        self.check_running()
        power = self.power(power)
        if power not in self.ending.votes.concede:
            raise GameError("not_conceded", power=power, map=self.map_name)
        self.ending = replace(self.ending, votes=withdraw_concession(self.ending.votes, power))

    def _tally(self, now: datetime) -> VictoryResult | None:
        with _refusal():
            result = tally_votes(self.ending.votes, self.survivors(), self.position.phase, now)
        if result is not None:
            self.ending = replace(self.ending, result=result, tie=None)
        return result

    def gm_end(self, now: datetime, members: Iterable[str] | None = None) -> VictoryResult:
        """The GM ends the game at ``now`` as a draw of ``members`` (default:
        every survivor; at least two survivors). To end it on the most SCs
        instead, set ``end_at`` and call :meth:`check_end`. Raises GameError
        when the game is over or a member is not a survivor."""
        self.check_running()
        _aware(now)
        alive = self.survivors()
        group = sorted(alive if members is None else {self.power(m) for m in members})
        outside = [p for p in group if p not in alive]
        if outside or len(group) < 2:
            raise GameError("draw_survivors", powers=alive, map=self.map_name)
        with _refusal():
            result = VictoryResult(DRAW, (tuple(group),), Reason(DRAW, sides=(tuple(group),), by="gm"),
                                   self.position.phase, now)
        self.ending = replace(self.ending, result=result, tie=None)
        return result

    # ---- awards and passive rulings (Appendix 2; house scoring only) ------------
    def _house_only(self, what: str) -> None:
        system = self.settings.scoring.system
        if system != HOUSE:
            raise GameError("house_only", what=what, game=self.name, system=system)

    def vote_award(self, power: str, award: str, candidate: str, by: str | None = None) -> None:
        """``VOTE BEST STRATEGY|DIPLOMACY <candidate>`` by ``power``'s leader,
        replacing its earlier vote for that award; accepted while the game runs
        and after it ends, while the vote is open (:func:`~.scores.award_vote_open`;
        :meth:`close_award_vote`). ``award``: ``"strategy"``/``"diplomacy"`` or
        an award code; ``by``: the sender's address, when known (an advisor may
        not vote). Raises GameError when the game is not house-scored or its
        awards are named by the GM, for a self-vote, a power without a leader,
        or once the vote has closed."""
        self._house_only("awards")
        award = award_name(award)
        power, candidate = self.power(power), self.power(candidate)
        if self.settings.scoring.awards != "vote":
            raise GameError("gm_names_awards", game=self.name)
        if not award_vote_open(self) or award in self.ending.gm_awards:
            raise GameError("award_vote_closed", game=self.name)
        if by is not None and leaders(self).get(power) != by:
            raise GameError("leader_only", power=power, map=self.map_name)
        votes = self.ending.award_votes
        with _refusal():
            mine = cast_award_vote(votes.get(award, {}), power, candidate, led_powers(self))
        self.ending = replace(self.ending, award_votes={**votes, award: mine})

    def gm_award(self, award: str, power: str | None) -> None:
        """The GM names the winner of ``award`` (``power``; None withdraws the
        GM's naming). Where leaders vote, the GM only breaks a tie the vote
        leaves open, once the game is over, choosing among the tied. Raises
        GameError when the game is not house-scored, for a power without a
        leader, or a naming the vote does not leave to the GM."""
        self._house_only("awards")
        award = award_name(award)
        picks = {a: p for a, p in self.ending.gm_awards.items() if a != award}
        if power is not None:
            power = self.power(power)
            if power not in led_powers(self):
                raise GameError("no_leader", power=power, map=self.map_name)
            if self.settings.scoring.awards == "vote":
                self._check_tie_break(award, power)
            picks[award] = power
        self.ending = replace(self.ending, gm_awards=picks)

    def close_award_vote(self, now: datetime, by_gm: bool = False) -> bool:
        """Close the leaders' award vote of a finished game when it is due: at
        ``award_window_hours`` after the end, once every leader has voted for
        both awards, or when the GM closes it (``by_gm``). Returns True when
        it closed now (its results are then to be announced, once). Idempotent;
        with ``by_gm``, GameError when there is no open vote to close."""
        closes = award_vote_closes(self)
        if by_gm and closes is None:
            raise GameError("no_award_vote", game=self.name)
        if closes is None or (now < closes and not award_votes_complete(self) and not by_gm):
            return False
        self.ending = replace(self.ending, awards_closed=True)
        return True

    def _check_tie_break(self, award: str, power: str) -> None:
        if not self.finished or award_vote_open(self):
            raise GameError("tie_break_late")
        outcome = award_outcomes(self)[award]
        if not outcome.tally.needs_gm and not outcome.by_gm:
            raise GameError("no_tie", award=award, powers=list(outcome.winners), map=self.map_name)
        with _refusal():
            tally_award(self.ending.award_votes.get(award, {}), self.settings.scoring.award_tie_rule,
                        self.sc_counts(), power)

    def gm_rule_passive(self, power: str, fine: int | None) -> None:
        """The GM rules ``power``'s player passive (Appendix 2): it forfeits all
        its points, coins and awards and is fined ``fine`` points (a whole
        number >= 0); ``fine=None`` withdraws the ruling. The evidence is
        :func:`judge.game.scores.nmr_record`. Raises GameError when the game is
        not house-scored, for an unknown power or a bad fine."""
        self._house_only("passive rulings")
        power = self.power(power)
        passive = {p: f for p, f in self.ending.passive.items() if p != power}
        if fine is not None:
            if isinstance(fine, bool) or not isinstance(fine, int) or fine < 0:
                raise GameError("bad_fine", power=power, value=repr(fine))
            passive[power] = fine
        self.ending = replace(self.ending, passive=passive)

