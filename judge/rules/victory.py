"""Victory conditions, two-power alliances, draws and concessions (``RULES.md`` §4).

Pure functions over plain data: standard library only, no I/O, no clock (every
check takes ``now``, a UTC-aware datetime). The game layer calls
:func:`check_victory` after every phase it processes and at every deadline or
wake-up, with the centre counts of the position it holds (:func:`centre_counts`)
and that position's phase; the check is idempotent, so calling it more often
than needed is harmless.

Sources (``../shared/rules``): the classic text (``rules-zh-hant.txt``, 勝利的條件)
gives (一) the first power to reach N SCs wins (18 by default, or an agreed
number), (二) the game ends at an agreed turn (e.g. 05-F) and most SCs wins,
(三) the game ends at an agreed time and most SCs wins, (四) any combination,
the first condition met ending the game, and "if more than one power meets the
condition when the game ends, they share the win" (符合條件者皆平手). The
house-rule text (``rules-zh-hans-with-appendices.txt`` §4 胜利条件) gives (a) at
any time, the power with the most SCs and at least N wins alone, (b) at any
time, the two-power alliance with the most SCs and at least N wins (never more
than two), (c) after Fall of a given year the power with most SCs wins alone;
solo beats alliance; if two or more powers or alliances meet a condition at
once the game goes on year by year until exactly one winner remains; an
alliance stands once both members accept it.

Decisions where the texts leave room (each is a setting where both readings
are wanted, otherwise fixed here):

* ``solo_rule``: ``"reach"`` — every power at N or more meets (classic 一);
  ``"most"`` — only the power(s) with the most SCs, if at least N (house a).
* ``tie_rule``: ``"share"`` (classic) or ``"continue"`` (house) — GM's choice.
  With ``"reach"`` and ``"continue"`` a tie lasts while both powers hold N or
  more; the house text pairs ``"continue"`` with ``"most"``.
* End of a year (``end_year``): the game ends after Fall ``end_year`` — after
  its movement and retreats, once SC ownership is updated; the Winter
  ``end_year`` adjustments are not played (they change no SC). In terms of the
  position's phase: the condition holds once the phase is ``W<end_year>A`` or
  later. With ``tie_rule="continue"`` it is checked again after each later Fall.
* Wall-clock end (``end_at``): the condition holds at any check with
  ``now >= end_at``; the counts are those of the position at that moment, so
  between phases (e.g. during Spring) they are the counts of the last Fall.
  The game layer should schedule a wake-up at ``end_at``; a phase whose
  deadline is at or before ``end_at`` is adjudicated first, a later one is not.
* An alliance "has the most" when no other side has more: sides are the
  declared alliances and every power outside them. Alliances tied at the top
  all meet the condition (tie rule); a lone power level with the alliance does
  not meet (b), though it may meet (a). An alliance counts only while both
  members survive.
* Priority when several conditions hold at one check: solo (a) beats
  alliance (b) (house text), and an alliance that meets (b) beats the
  end-of-game "most SCs" conditions (c)/(二)/(三): those are the fallback when
  nobody has reached a threshold — reading "独立获胜优先级高于联盟获胜" as
  letting a 12-SC leader beat a 22-SC alliance at the final Fall would defeat
  the alliance rule. Within the highest condition that someone meets, one
  contender wins; several share (``"share"``) or the game goes on
  (``"continue"``), lower conditions being ignored either way.
* Draws (not in either text; issue 5): by default a draw includes every
  survivor and passes when every survivor votes for it; with
  ``draw_members="any"`` a draw may name a subset of survivors (at least two)
  and passes when every survivor votes for that same set. A concession to one
  power passes when every other survivor concedes to it; it is checked before
  draws. All votes expire at each adjudication (:func:`expire_votes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timezone

from .phase import Phase
from .reasons import Reason, RuleError

SOLO = "solo"
ALLIANCE = "alliance"
AT_PHASE = "most_centres_at_phase"
AT_TIME = "most_centres_at_time"
DRAW = "draw"
CONCESSION = "concession"
KINDS = (SOLO, ALLIANCE, AT_PHASE, AT_TIME, DRAW, CONCESSION)
CONDITIONS = (SOLO, ALLIANCE, AT_PHASE, AT_TIME)   # checked in this order (priority)

TIE_RULES = ("share", "continue")
SOLO_RULES = ("reach", "most")
DRAW_VOTES = ("secret", "public")
DRAW_MEMBERS = ("all_survivors", "any")

_WINTER = 4   # index of W..A in Phase.sort_key()'s year order


def _utc(moment: datetime, what: str) -> datetime:
    if not isinstance(moment, datetime) or moment.tzinfo is None or moment.utcoffset() is None:
        raise RuleError("naive_time", what=what)
    return moment.astimezone(timezone.utc)


def _positive(value, what: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise RuleError("not_positive", what=what, value=repr(value))


def _choice(value, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise RuleError("not_a_choice", what=what, value=repr(value), allowed=allowed)


# ---------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class VictorySettings:
    """How a game can end, chosen by the GM (``RULES.md`` §4). Any combination
    of conditions may be set; the first met ends the game.

    * ``solo_centres``: N, SCs for a solo (classic 一 / house a); ``None``: no
      solo condition. Default 18 (use :meth:`for_map` for the map's count).
    * ``solo_rule``: ``"reach"`` (every power with at least N) or ``"most"``
      (the power with the most SCs, if at least N).
    * ``alliance_centres``: combined SCs a two-power alliance needs to win
      (house b); ``None``: alliances cannot win.
    * ``end_year``: the game ends after Fall of this year, most SCs wins
      (classic 二, house c); ``None``: no such limit.
    * ``end_at``: UTC-aware datetime at which the game ends, most SCs wins
      (classic 三); ``None``: no time limit. Stored in UTC.
    * ``tie_rule``: ``"share"`` (tied winners share the win) or ``"continue"``
      (play goes on year by year until one winner remains).
    * ``draw_votes``: ``"secret"`` or ``"public"`` draw and concession votes.
    * ``draw_members``: ``"all_survivors"`` (a draw includes every survivor) or
      ``"any"`` (a draw may name any two or more survivors).

    Raises :class:`~.reasons.RuleError` (a ValueError) for a value out of range.
    """

    solo_centres: int | None = 18
    solo_rule: str = "reach"
    alliance_centres: int | None = None
    end_year: int | None = None
    end_at: datetime | None = None
    tie_rule: str = "share"
    draw_votes: str = "secret"
    draw_members: str = "all_survivors"

    def __post_init__(self) -> None:
        _positive(self.solo_centres, "solo_centres")
        _positive(self.alliance_centres, "alliance_centres")
        _positive(self.end_year, "end_year")
        _choice(self.solo_rule, SOLO_RULES, "solo_rule")
        _choice(self.tie_rule, TIE_RULES, "tie_rule")
        _choice(self.draw_votes, DRAW_VOTES, "draw_votes")
        _choice(self.draw_members, DRAW_MEMBERS, "draw_members")
        if self.end_at is not None:
            object.__setattr__(self, "end_at", _utc(self.end_at, "end_at"))

    @classmethod
    def for_map(cls, game_map, **changes) -> "VictorySettings":
        """Defaults with N = ``game_map.victory_centres``; ``changes`` override
        fields. Raises ValueError for a threshold above the map's SC count."""
        settings = cls(solo_centres=game_map.victory_centres, **changes)
        settings.check_map(game_map)
        return settings

    def check_map(self, game_map) -> None:
        """Raises RuleError ``above_map_centres`` (a ValueError) when a
        threshold is more than ``game_map``'s number of SCs (no power could
        reach it); ``what`` is the GM's key (``solo``, ``alliance``)."""
        total = len(game_map.supply_centres)
        for name in ("solo_centres", "alliance_centres"):
            value = getattr(self, name)
            if value is not None and value > total:
                raise RuleError("above_map_centres", what=name.removesuffix("_centres"), value=value, total=total)

    def to_dict(self) -> dict:
        """JSON-ready dict; ``end_at`` as an ISO 8601 string with ``+00:00``."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        if self.end_at is not None:
            data["end_at"] = self.end_at.isoformat()
        return data

    @classmethod
    def from_dict(cls, data: Mapping) -> "VictorySettings":
        """Inverse of :meth:`to_dict`; missing keys take their defaults.
        Raises ValueError for an unknown key or a bad value."""
        extra = set(data) - {f.name for f in fields(cls)}
        if extra:
            raise RuleError("unknown_settings", group="victory", keys=sorted(extra))
        values = dict(data)
        if isinstance(values.get("end_at"), str):
            try:
                values["end_at"] = datetime.fromisoformat(values["end_at"])
            except ValueError:
                raise RuleError("not_a_time", what="end_at", text=data["end_at"]) from None
        return cls(**values)


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class VictoryResult:
    """How the game ended.

    * ``kind``: one of :data:`KINDS`.
    * ``sides``: the winning sides, each a sorted tuple of powers — one power
      for a solo, two for an alliance, several sides when tied winners share;
      a draw is one side holding every member of the draw.
    * ``reason``: why, as a :class:`~.reasons.Reason` whose code is ``kind``
      and whose params say how: ``sides``, ``centres`` (each side's SCs) and
      ``need`` (solo, alliance), ``year`` and ``phase`` (most SCs after a
      year), ``end_at`` (ISO 8601, most SCs at a time).
    * ``phase``: the position's phase at the check (``"W1905A"``).
    * ``at``: the check time ``now`` (UTC).
    """

    kind: str
    sides: tuple[tuple[str, ...], ...]
    reason: Reason
    phase: str
    at: datetime

    def __post_init__(self) -> None:
        _choice(self.kind, KINDS, "kind")
        if not self.sides or not all(self.sides):
            raise RuleError("no_winning_side")
        object.__setattr__(self, "at", _utc(self.at, "at"))

    @property
    def winners(self) -> tuple[str, ...]:
        """Every winning power (draw members for a draw), sorted."""
        return tuple(sorted({p for side in self.sides for p in side}))

    @property
    def shared(self) -> bool:
        """True when more than one side shares the win (tie rule "share")."""
        return len(self.sides) > 1

    def to_dict(self) -> dict:
        return {"kind": self.kind, "sides": [list(s) for s in self.sides], "reason": self.reason.to_dict(),
                "phase": self.phase, "at": self.at.isoformat()}

    @classmethod
    def from_dict(cls, data: Mapping) -> "VictoryResult":
        """Raises ValueError for an unknown kind, no winners or a bad time. A
        result stored with an English sentence for its reason (before reasons
        were codes) gets the reason ``Reason(kind, sides=...)``."""
        sides = tuple(tuple(s) for s in data["sides"])
        return cls(data["kind"], sides, reason_from_data(data.get("reason"), data["kind"], sides),
                   data["phase"], datetime.fromisoformat(data["at"]))


@dataclass(frozen=True)
class Tie:
    """Several sides met ``kind`` at once under tie rule ``"continue"``: play
    goes on year by year (house text §4). ``sides`` and ``reason`` as in
    :class:`VictoryResult`."""

    kind: str
    sides: tuple[tuple[str, ...], ...]
    reason: Reason


@dataclass(frozen=True)
class VictoryCheck:
    """The outcome of :func:`check_victory`: ``result`` when the game ends,
    ``tie`` when it goes on because of a tie, both ``None`` otherwise."""

    result: VictoryResult | None = None
    tie: Tie | None = None

    @property
    def game_over(self) -> bool:
        return self.result is not None


# ---------------------------------------------------------------------------
# Victory checks
# ---------------------------------------------------------------------------

def centre_counts(sc_owners: Mapping[str, str], powers: Iterable[str]) -> dict[str, int]:
    """``{power: number of SCs owned}`` for every power in ``powers`` (0 if none),
    from a position's ``sc_owners`` ``{sc: power}``; neutral SCs are absent."""
    counts = {p: 0 for p in powers}
    for owner in sc_owners.values():
        if owner in counts:
            counts[owner] += 1
    return counts


def conditions_due(settings: VictorySettings, phase: str, now: datetime) -> tuple[str, ...]:
    """The conditions that can end the game at a check made at position phase
    ``phase`` and time ``now`` (UTC-aware), in priority order: ``"solo"`` and
    ``"alliance"`` at any check when set (house text: "at any time"),
    ``"most_centres_at_phase"`` once Fall ``end_year`` is over (phase
    ``W<end_year>A`` or later), ``"most_centres_at_time"`` once
    ``now >= end_at``. Raises ValueError for a bad phase or a naive ``now``."""
    now = _utc(now, "now")
    year, step = Phase.parse(phase).sort_key()
    due = []
    if settings.solo_centres is not None:
        due.append(SOLO)
    if settings.alliance_centres is not None:
        due.append(ALLIANCE)
    if settings.end_year is not None and (year, step) >= (settings.end_year, _WINTER):
        due.append(AT_PHASE)
    if settings.end_at is not None and now >= settings.end_at:
        due.append(AT_TIME)
    return tuple(due)


def check_victory(settings: VictorySettings, sc_counts: Mapping[str, int], phase: str,
                  now: datetime, alliances: Iterable[frozenset[str]] = (),
                  survivors: Iterable[str] | None = None) -> VictoryCheck:
    """Check every victory condition of ``settings`` (``RULES.md`` §4).

    * ``sc_counts``: ``{power: SCs owned}`` for every power of the game
      (:func:`centre_counts`), from the position whose phase is ``phase``.
    * ``phase``: that position's phase — the next phase to play, e.g.
      ``"W1905A"`` once Fall 1905 and its retreats are done.
    * ``now``: the check time, UTC-aware.
    * ``alliances``: the mutual alliances in force (:func:`mutual_alliances`),
      each a frozenset of two powers.
    * ``survivors``: powers still in the game; default: those owning an SC.
      An alliance with a member out of the game does not count.

    Returns a :class:`VictoryCheck`. Raises ValueError for a bad phase, a
    naive ``now``, a negative count, an alliance that is not two distinct
    powers of ``sc_counts``, or a power in two alliances.
    """
    due = conditions_due(settings, phase, now)
    counts = _checked_counts(sc_counts)
    alive = {p for p, n in counts.items() if n > 0} if survivors is None else set(survivors)
    pacts = _checked_alliances(alliances, counts, alive)
    for kind in due:
        sides = _contenders(kind, settings, counts, pacts)
        if not sides:
            continue
        reason = _reason(kind, settings, counts, sides, phase)
        if len(sides) > 1 and settings.tie_rule == "continue":
            return VictoryCheck(tie=Tie(kind, sides, reason))
        return VictoryCheck(result=VictoryResult(kind, sides, reason, phase, _utc(now, "now")))
    return VictoryCheck()


def _checked_counts(sc_counts: Mapping[str, int]) -> dict[str, int]:
    for power, n in sc_counts.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise RuleError("bad_centre_count", power=power, value=repr(n))
    return dict(sc_counts)


def _checked_alliances(alliances: Iterable[frozenset[str]], counts: Mapping[str, int],
                       alive: set[str]) -> list[tuple[str, ...]]:
    pacts, seen = [], set()
    for pact in alliances:
        members = tuple(sorted(set(pact)))
        if len(members) != 2 or len(pact) != 2:
            raise RuleError("alliance_not_two", powers=sorted(pact))
        unknown = [p for p in members if p not in counts]
        if unknown:
            raise RuleError("alliance_unknown", powers=unknown)
        twice = seen.intersection(members)
        if twice:
            raise RuleError("alliance_twice", powers=sorted(twice))
        seen.update(members)
        if alive.issuperset(members):
            pacts.append(members)
    return sorted(pacts)


def _contenders(kind: str, settings: VictorySettings, counts: Mapping[str, int],
                pacts: list[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """The sides meeting condition ``kind``, sorted; empty if none."""
    top = max(counts.values(), default=0)
    if kind == SOLO:
        need = settings.solo_centres
        if settings.solo_rule == "reach":
            return tuple((p,) for p in sorted(counts) if counts[p] >= need)
        return tuple((p,) for p in sorted(counts) if counts[p] == top >= need)
    if kind == ALLIANCE:
        allied = {p for pact in pacts for p in pact}
        totals = {pact: sum(counts[p] for p in pact) for pact in pacts}
        best = max([*totals.values(), *(n for p, n in counts.items() if p not in allied)], default=0)
        return tuple(pact for pact in pacts if totals[pact] == best >= settings.alliance_centres)
    return tuple((p,) for p in sorted(counts) if counts[p] == top)   # AT_PHASE, AT_TIME


def _reason(kind: str, settings: VictorySettings, counts: Mapping[str, int],
            sides: tuple[tuple[str, ...], ...], phase: str) -> Reason:
    held = [sum(counts[p] for p in side) for side in sides]
    if kind == SOLO:
        return Reason(kind, sides=sides, centres=held, need=settings.solo_centres)
    if kind == ALLIANCE:
        return Reason(kind, sides=sides, centres=held, need=settings.alliance_centres)
    if kind == AT_PHASE:
        return Reason(kind, sides=sides, centres=held, year=settings.end_year, phase=phase)
    return Reason(kind, sides=sides, centres=held, end_at=settings.end_at.isoformat())


def reason_from_data(data, kind: str, sides) -> Reason:
    """A stored reason: its dict form, or (an English sentence, as results and
    ties were stored before reasons were codes) ``Reason(kind, sides=sides)``."""
    return Reason.from_dict(data) if isinstance(data, dict) else Reason(kind, sides=sides)


# ---------------------------------------------------------------------------
# Alliance declarations (house text §4: an alliance stands once both accept it)
# ---------------------------------------------------------------------------

def declare_ally(declarations: Mapping[str, str], power: str, ally: str,
                 survivors: Iterable[str]) -> dict[str, str]:
    """``ALLY <ally>`` by ``power``: returns the new ``{power: declared ally}``.
    A power declares at most one ally (a new declaration replaces its old one),
    so no alliance has more than two members. Raises ValueError when ``power``
    or ``ally`` is not a survivor, or they are the same power."""
    alive = set(survivors)
    if power == ally:
        raise RuleError("ally_self", power=power)
    for p in (power, ally):
        if p not in alive:
            raise RuleError("not_surviving", power=p, role="ally")
    return {**declarations, power: ally}


def withdraw_ally(declarations: Mapping[str, str], power: str) -> dict[str, str]:
    """``UNALLY`` by ``power``: its declaration is removed (a no-op if none)."""
    return {p: a for p, a in declarations.items() if p != power}


def mutual_alliances(declarations: Mapping[str, str]) -> list[frozenset[str]]:
    """The alliances in force: pairs that declared each other, sorted."""
    pairs = {frozenset((p, a)) for p, a in declarations.items() if declarations.get(a) == p and p != a}
    return sorted(pairs, key=sorted)


# ---------------------------------------------------------------------------
# Draws and concessions
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class EndVotes:
    """Pending draw and concession votes.

    * ``draw``: ``{voter: frozenset of powers in the draw it votes for}``
      (``DRAW``; no entry means no vote, ``NODRAW`` removes the entry).
    * ``concede``: ``{voter: power it concedes to}`` (``CONCEDE <power>``).
    """

    draw: Mapping[str, frozenset[str]] = field(default_factory=dict)
    concede: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"draw": {v: sorted(m) for v, m in sorted(self.draw.items())},
                "concede": dict(sorted(self.concede.items()))}

    @classmethod
    def from_dict(cls, data: Mapping) -> "EndVotes":
        return cls({v: frozenset(m) for v, m in data.get("draw", {}).items()},
                   dict(data.get("concede", {})))


def _survivor(power: str, alive: set[str], role: str) -> None:
    if power not in alive:
        raise RuleError("not_surviving", power=power, role=role)


def vote_draw(votes: EndVotes, settings: VictorySettings, voter: str, survivors: Iterable[str],
              members: Iterable[str] | None = None) -> EndVotes:
    """``DRAW`` by ``voter``: a vote for a draw of ``members`` (default: every
    survivor), replacing its earlier draw vote. Raises ValueError when the
    voter or a member is not a survivor, the draw has fewer than two members,
    or ``settings.draw_members`` is ``"all_survivors"`` and the draw leaves a
    survivor out."""
    alive = set(survivors)
    _survivor(voter, alive, "voter")
    group = frozenset(alive if members is None else members)
    for p in sorted(group):
        _survivor(p, alive, "draw_member")
    if len(group) < 2:
        raise RuleError("draw_too_small")
    if settings.draw_members == "all_survivors" and group != alive:
        raise RuleError("draw_all_survivors", powers=sorted(alive))
    return replace(votes, draw={**votes.draw, voter: group})


def withdraw_draw(votes: EndVotes, voter: str) -> EndVotes:
    """``NODRAW`` by ``voter``: its draw vote is removed (a no-op if none)."""
    return replace(votes, draw={v: m for v, m in votes.draw.items() if v != voter})


def vote_concede(votes: EndVotes, voter: str, winner: str, survivors: Iterable[str]) -> EndVotes:
    """``CONCEDE <winner>`` by ``voter``, replacing its earlier concession.
    Raises ValueError when either is not a survivor or they are the same."""
    alive = set(survivors)
    _survivor(voter, alive, "voter")
    _survivor(winner, alive, "conceded_to")
    if voter == winner:
        raise RuleError("concede_self", power=voter)
    return replace(votes, concede={**votes.concede, voter: winner})


def withdraw_concession(votes: EndVotes, voter: str) -> EndVotes:
    """Withdraw ``voter``'s concession (a no-op if none)."""
    return replace(votes, concede={v: w for v, w in votes.concede.items() if v != voter})


def expire_votes() -> EndVotes:
    """The votes to keep after an adjudication: none — draw and concession
    votes expire at each adjudication (issue 5 §3)."""
    return EndVotes()


def tally_votes(votes: EndVotes, survivors: Iterable[str], phase: str,
                now: datetime) -> VictoryResult | None:
    """The game result if the votes pass, else ``None``. A concession passes
    when every survivor but one concedes to that one (kind ``"concession"``);
    otherwise a draw passes when every survivor votes for the same draw (kind
    ``"draw"``, one side holding its members). Votes of powers no longer
    surviving are ignored. ``phase``/``now`` as in :func:`check_victory`."""
    now = _utc(now, "now")
    alive = sorted(set(survivors))
    for winner in alive:
        others = [p for p in alive if p != winner]
        if others and all(votes.concede.get(p) == winner for p in others):
            return VictoryResult(CONCESSION, ((winner,),), Reason(CONCESSION, sides=((winner,),)), phase, now)
    chosen = {votes.draw.get(p) for p in alive}
    if len(chosen) == 1 and None not in chosen and alive:
        group = tuple(sorted(chosen.pop()))
        if set(group) <= set(alive):
            return VictoryResult(DRAW, (group,), Reason(DRAW, sides=(group,)), phase, now)
    return None


def visible_votes(votes: EndVotes, settings: VictorySettings, viewer: str | None = None) -> dict:
    """What ``viewer`` may see of the votes, as :meth:`EndVotes.to_dict`:
    everything for the GM (``viewer=None``) or in a public-vote game; only the
    viewer's own votes in a secret-vote game."""
    if viewer is None or settings.draw_votes == "public":
        return votes.to_dict()
    own = EndVotes({v: m for v, m in votes.draw.items() if v == viewer},
                   {v: w for v, w in votes.concede.items() if v == viewer})
    return own.to_dict()
