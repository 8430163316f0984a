"""Scoring systems and rewards at the end of a game (``RULES.md`` §5).

Pure functions: standard library only, no I/O. Points are numbers of points
(floats where a system divides); coins are whole numbers in thousands — the
house text's "k币": ``coins=2000`` is its "2000k".

Systems (:data:`SYSTEMS`):

* ``"house"`` — Appendix 2 of ``rules-zh-hans-with-appendices.txt`` (附二：奖励与
  分数): every power scores its SC count; a solo winner +10 on top, each member
  of a winning alliance +6 on top; every leader (元首) 2000k coins; a player the
  GM rules passive (消极游戏) loses all points and rewards and is fined points by
  severity, set by the GM; the best strategy (最佳战略奖) and best diplomacy
  (最佳外交奖) awards add 1200k coins each; advisors (幕僚) score nothing.
* ``"dss"`` — draw-size scoring: 100 points shared equally by the winners
  (the soloist takes 100; an n-way draw gives 100/n to each member), 0 to
  everyone else.
* ``"sum_of_squares"`` — a solo scores 100, everyone else 0; otherwise each
  power scores 100 * SC² / (sum of every power's SC²).
* ``"c_diplo"`` — C-Diplo 100 (Bruno-André Giraudon): a solo scores 100,
  everyone else 0; otherwise each power scores 1 (participation) + 1 per SC,
  and the board topper 38, second 14, third 7, tied places sharing the
  bonuses of the places they cover (the 100 points of a fully owned board).

Decisions where the texts leave room:

* Which results count as a win. House: the +10 goes to the winner of a
  ``"solo"``, ``"most_centres_at_phase"`` or ``"most_centres_at_time"``
  result won alone — 独立获胜, winning alone. Tied winners sharing a win
  (tie rule "share") get no +10: the classic text calls them 平手 ("符合條件者
  皆平手", tied), not winners alone, and the house text never shares a win (it
  plays on), so neither text allows the bonus there (issue 13 point 8). A
  concession is in neither text: the power conceded to is the only winner,
  which reads as 独立获胜, but it met no victory condition — both readings
  stand, so it is the GM's setting ``concession_bonus`` (default yes: the
  +10). The +6 goes to each member of the winning alliance — not to
  alliances tied under "share", 平手 as well; nothing extra for a draw. DSS: the result's winners share the 100 (an alliance win is a
  two-way share); everyone else scores 0 (item ``no_share``, not "a share"). Sum-of-squares and C-Diplo are
  centre-count systems: only a single winner of a ``"solo"`` or
  ``"concession"`` scores as a solo; every other end (draw, alliance, end of
  year, end time, shared win) is scored by centres.
* C-Diplo's place bonuses go to powers owning at least one SC.
* A passive player forfeits everything listed for him, awards included (the
  text: 扣除所有应该获得的奖励和分数); an award is not passed to another leader.
* Award votes: each leader votes for one other leader (no self-votes); the
  most votes wins; ties as the GM set: ``"gm_decides"`` (the GM picks among
  the tied), ``"share"`` (each tied leader receives the full award — the text
  gives the prize per awardee, and coins stay whole), ``"most_centres"`` (the
  tied leader with most SCs; still tied: the GM decides).
* Appendix 2 extras (passive fines, awards, coins) belong to the house system;
  other systems reject them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields

from .reasons import RuleError
from .victory import ALLIANCE, AT_PHASE, AT_TIME, CONCESSION, SOLO, VictoryResult

HOUSE, DSS, SUM_OF_SQUARES, C_DIPLO = "house", "dss", "sum_of_squares", "c_diplo"
SYSTEMS = (HOUSE, DSS, SUM_OF_SQUARES, C_DIPLO)

BEST_STRATEGY, BEST_DIPLOMACY = "best_strategy", "best_diplomacy"
AWARDS = (BEST_STRATEGY, BEST_DIPLOMACY)
AWARD_MODES = ("gm", "vote")
AWARD_TIE_RULES = ("gm_decides", "share", "most_centres")

SOLO_BONUS = 10        # points, Appendix 2
ALLIANCE_BONUS = 6     # points, Appendix 2
LEADER_COINS = 2000    # k coins, Appendix 2
AWARD_COINS = 1200     # k coins, Appendix 2
GAME_POINTS = 100      # DSS, sum-of-squares, C-Diplo
C_DIPLO_PLACES = (38, 14, 7)

_LONE_WINS = (SOLO, AT_PHASE, AT_TIME, CONCESSION)


def _choice(value, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise RuleError("not_a_choice", what=what, value=repr(value), allowed=allowed)


@dataclass(frozen=True)
class ScoringSettings:
    """A game's scoring, chosen by the GM: ``system`` (one of :data:`SYSTEMS`),
    ``awards`` (``"gm"``: the GM names the award winners; ``"vote"``: the
    leaders vote), ``award_tie_rule`` (one of :data:`AWARD_TIE_RULES`) and
    ``award_window_hours``: how long after the end of the game the leaders'
    award vote stays open (it closes earlier once every leader has voted for
    both awards; Appendix 2: the awards are chosen 游戏结束时, at the end of
    the game); ``concession_bonus``: the house +10 for a power the others
    conceded to (see the module doc). Raises ValueError for an unknown value."""

    system: str = HOUSE
    awards: str = "gm"
    award_tie_rule: str = "gm_decides"
    award_window_hours: float = 72.0
    concession_bonus: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.concession_bonus, bool):
            raise RuleError("not_a_flag", what="concession_bonus")
        _choice(self.system, SYSTEMS, "system")
        _choice(self.awards, AWARD_MODES, "awards")
        _choice(self.award_tie_rule, AWARD_TIE_RULES, "award_tie_rule")
        hours = self.award_window_hours
        if isinstance(hours, bool) or not isinstance(hours, (int, float)) or hours <= 0:
            raise RuleError("hours_above_zero", what="award_window_hours")
        object.__setattr__(self, "award_window_hours", float(hours))

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping) -> "ScoringSettings":
        """Raises ValueError for an unknown key or value."""
        extra = set(data) - {f.name for f in fields(cls)}
        if extra:
            raise RuleError("unknown_settings", group="scoring", keys=sorted(extra))
        return cls(**data)


@dataclass(frozen=True)
class ScoreItem:
    """One line of a score: a stable ``code`` (for templates) with the points
    and coins (k) it adds. Codes: ``centres``, ``solo_bonus``,
    ``alliance_bonus``, ``leader_reward``, ``best_strategy``,
    ``best_diplomacy``, ``passive_forfeit``, ``passive_fine``, ``share``
    (DSS), ``solo`` (100 for a solo), ``squares`` (sum-of-squares),
    ``participation``, ``place_bonus`` (C-Diplo), ``advisor``, ``no_share``
    (DSS: not among the winners)."""

    code: str
    points: float = 0
    coins: int = 0


@dataclass(frozen=True)
class Score:
    """A power's (or person's) score: its items; ``points`` and ``coins`` (k)
    are their sums."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def points(self) -> float:
        return sum(i.points for i in self.items)

    @property
    def coins(self) -> int:
        return sum(i.coins for i in self.items)

    def to_dict(self) -> dict:
        return {"points": self.points, "coins": self.coins,
                "items": [{"code": i.code, "points": i.points, "coins": i.coins} for i in self.items]}


@dataclass(frozen=True)
class ScoreExtras:
    """The GM's end-of-game rulings (Appendix 2; house system only).

    * ``passive``: ``{power: fine in points (>= 0)}`` for each leader the GM
      rules passive.
    * ``awards``: ``{award: powers receiving it}`` for ``"best_strategy"`` and
      ``"best_diplomacy"`` (named by the GM, or from :func:`tally_award`).
    * ``leaders``: the powers that have a leader (元首), who gets the leader's
      reward ("每一国元首将获得2000k币的奖励"): a power nobody played has none
      and gets none; ``None``: every power has one.
    """

    passive: Mapping[str, int] = field(default_factory=dict)
    awards: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    leaders: frozenset[str] | None = None

    def __bool__(self) -> bool:
        return bool(self.passive) or any(self.awards.values())


def score(system: str, final_counts: Mapping[str, int], result: VictoryResult,
          extras: ScoreExtras | None = None, *, concession_bonus: bool = True) -> dict[str, Score]:
    """Score every power of ``final_counts`` (``{power: SCs at the end}``) for
    the game ``result`` under ``system`` (``RULES.md`` §5, see the module
    docstring; ``concession_bonus``: the house +10 for a concession's
    winner). Returns ``{power: Score}``. Raises ValueError for an unknown
    system, a winner or extras power not in ``final_counts``, an unknown award,
    a negative fine, or extras given to a system other than ``"house"``."""
    _choice(system, SYSTEMS, "scoring")
    unknown = set(result.winners) - set(final_counts)
    if unknown:
        raise RuleError("not_scored", what="winners", powers=sorted(unknown))
    extras = extras if extras is not None else ScoreExtras()
    if system != HOUSE and extras:
        raise RuleError("extras_not_house", system=system)
    if system == HOUSE:
        items = _house(final_counts, result, extras, concession_bonus)
    elif system == DSS:
        share = GAME_POINTS / len(result.winners)
        items = {p: [ScoreItem("share", share) if p in result.winners else ScoreItem("no_share")]
                 for p in final_counts}
    elif _single_solo(result):
        items = {p: [ScoreItem("solo", GAME_POINTS if p in result.winners else 0)] for p in final_counts}
    elif system == SUM_OF_SQUARES:
        items = _sum_of_squares(final_counts)
    else:
        items = _c_diplo(final_counts)
    return {p: Score(tuple(items[p])) for p in final_counts}


def _single_solo(result: VictoryResult) -> bool:
    return result.kind in (SOLO, CONCESSION) and len(result.winners) == 1


def _house(counts: Mapping[str, int], result: VictoryResult, extras: ScoreExtras,
           concession_bonus: bool) -> dict[str, list[ScoreItem]]:
    for award, powers in extras.awards.items():
        _choice(award, AWARDS, "award")
        _known(powers, counts, award)
    _known(extras.passive, counts, "passive")
    items = {}
    for power, n in counts.items():
        lines = [ScoreItem("centres", n)]
        alone = result.kind in _LONE_WINS and not result.shared and \
            (result.kind != CONCESSION or concession_bonus)
        if power in result.winners and alone:
            lines.append(ScoreItem("solo_bonus", SOLO_BONUS))
        if power in result.winners and result.kind == ALLIANCE and not result.shared:
            lines.append(ScoreItem("alliance_bonus", ALLIANCE_BONUS))
        if extras.leaders is None or power in extras.leaders:
            lines.append(ScoreItem("leader_reward", coins=LEADER_COINS))
        lines += [ScoreItem(a, coins=AWARD_COINS) for a in AWARDS if power in extras.awards.get(a, ())]
        if power in extras.passive:
            fine = extras.passive[power]
            if isinstance(fine, bool) or not isinstance(fine, int) or fine < 0:
                raise RuleError("bad_fine", power=power, value=repr(fine))
            lines.append(ScoreItem("passive_forfeit", -sum(i.points for i in lines),
                                   -sum(i.coins for i in lines)))
            lines.append(ScoreItem("passive_fine", -fine))
        items[power] = lines
    return items


def _known(powers: Iterable[str], counts: Mapping[str, int], what: str) -> None:
    unknown = set(powers) - set(counts)
    if unknown:
        raise RuleError("not_scored", what=what, powers=sorted(unknown))


def _sum_of_squares(counts: Mapping[str, int]) -> dict[str, list[ScoreItem]]:
    total = sum(n * n for n in counts.values())
    if not total:
        raise RuleError("no_centres_owned")
    return {p: [ScoreItem("squares", GAME_POINTS * n * n / total)] for p, n in counts.items()}


def _c_diplo(counts: Mapping[str, int]) -> dict[str, list[ScoreItem]]:
    items = {p: [ScoreItem("participation", 1), ScoreItem("centres", n)] for p, n in counts.items()}
    ranked = sorted((p for p, n in counts.items() if n > 0), key=lambda p: -counts[p])
    place = 0
    while place < min(len(ranked), len(C_DIPLO_PLACES)):
        group = [p for p in ranked if counts[p] == counts[ranked[place]]]
        bonus = sum(C_DIPLO_PLACES[place:place + len(group)]) / len(group)
        for p in group:
            items[p].append(ScoreItem("place_bonus", bonus))
        place += len(group)
    return items


def scores_by_person(scores: Mapping[str, Score], leaders: Mapping[str, str],
                     advisors: Mapping[str, Iterable[str]] | None = None) -> dict[str, Score]:
    """Scores per person: each leader (``leaders`` ``{power: person}``) gets
    the score of the power(s) he leads; each advisor (``advisors``
    ``{power: [person, ...]}``) who leads no power gets an empty score with
    one ``advisor`` item — advisors score nothing (Appendix 2)."""
    people: dict[str, list[ScoreItem]] = {}
    for power, person in leaders.items():
        people.setdefault(person, []).extend(scores[power].items)
    for power, helpers in (advisors or {}).items():
        for person in helpers:
            people.setdefault(person, [ScoreItem("advisor")])
    return {person: Score(tuple(items)) for person, items in people.items()}


# ---------------------------------------------------------------------------
# Award votes
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class AwardTally:
    """The count of one award's votes: ``votes`` ``{candidate: votes}``,
    ``tied`` (the candidates level on the most votes, when more than one),
    ``winners`` (who receives the award; empty while the GM must choose) and
    ``needs_gm`` (True when the GM must name the winner)."""

    votes: Mapping[str, int]
    tied: tuple[str, ...]
    winners: tuple[str, ...]
    needs_gm: bool


def cast_award_vote(votes: Mapping[str, str], voter: str, candidate: str,
                    leaders: Iterable[str]) -> dict[str, str]:
    """``VOTE BEST STRATEGY|DIPLOMACY <candidate>`` by ``voter``'s leader:
    returns the award's new ``{voter: candidate}``, replacing an earlier
    vote. Raises ValueError for a self-vote or a power without a leader."""
    known = set(leaders)
    for p in (voter, candidate):
        if p not in known:
            raise RuleError("no_leader", power=p)
    if voter == candidate:
        raise RuleError("self_vote", power=voter)
    return {**votes, voter: candidate}


def tally_award(votes: Mapping[str, str], tie_rule: str, final_counts: Mapping[str, int],
                gm_choice: str | None = None) -> AwardTally:
    """Count one award's votes ``{voter: candidate}`` (powers). The most votes
    wins; a tie is settled by ``tie_rule`` (:data:`AWARD_TIE_RULES`), the GM's
    pick ``gm_choice`` naming the winner where the GM decides (it must be one
    of the tied, or anyone when nobody voted). Raises ValueError for a
    self-vote, a power not in ``final_counts`` or a ``gm_choice`` outside the
    tie."""
    _choice(tie_rule, AWARD_TIE_RULES, "award_tie_rule")
    for voter, candidate in votes.items():
        _known((voter, candidate), final_counts, "award_vote")
        if voter == candidate:
            raise RuleError("self_vote", power=voter)
    count = Counter(votes.values())
    top = max(count.values(), default=0)
    leading = tuple(sorted(c for c, n in count.items() if n == top))
    tied = leading if len(leading) > 1 else ()
    if len(leading) == 1 or (tied and tie_rule == "share"):
        return AwardTally(dict(count), tied, leading, False)
    pool = leading or tuple(sorted(final_counts))
    if tied and tie_rule == "most_centres":
        most = max(final_counts[c] for c in tied)
        pool = tuple(c for c in tied if final_counts[c] == most)
        if len(pool) == 1:
            return AwardTally(dict(count), tied, pool, False)
    if gm_choice is None:
        return AwardTally(dict(count), tied, (), True)
    if gm_choice not in pool:
        raise RuleError("gm_choice_not_tied", power=gm_choice, powers=pool)
    return AwardTally(dict(count), tied, (gm_choice,), False)
