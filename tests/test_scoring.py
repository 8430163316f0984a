"""Scoring and rewards (``RULES.md`` §5, ``judge/rules/scoring.py``): Appendix 2
of the house rules, and draw-size, sum-of-squares and C-Diplo scoring, each
with a worked example from its published definition."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from judge.rules.scoring import (
    AwardTally, ScoreExtras, ScoringSettings, cast_award_vote, score, scores_by_person, tally_award,
)
from judge.rules.reasons import Reason
from judge.rules.victory import VictoryResult

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
NOON = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


def counts(**given: int) -> dict[str, int]:
    return {p: given.get(p, 0) for p in POWERS}


def result(kind: str, *sides: tuple[str, ...]) -> VictoryResult:
    return VictoryResult(kind, tuple(sides), Reason(kind, sides=sides), "W1907A", NOON)


def points(scores) -> dict[str, float]:
    return {p: s.points for p, s in scores.items()}


# --- Appendix 2 (house) ------------------------------------------------------------

SOLO_BOARD = counts(Russia=18, Turkey=8, Austria=4, Italy=4)


def test_house_solo():
    """Appendix 2: each power scores its SCs; the solo winner +10; every leader 2000k."""
    scores = score("house", SOLO_BOARD, result("solo", ("Russia",)))
    assert points(scores) == counts(Russia=28, Turkey=8, Austria=4, Italy=4)
    assert {s.coins for s in scores.values()} == {2000}
    assert [i.code for i in scores["Russia"].items] == ["centres", "solo_bonus", "leader_reward"]


def test_house_no_leader_no_reward():
    """Appendix 2 rewards each power's leader (元首): a power nobody played gets no 2000k."""
    scores = score("house", SOLO_BOARD, result("solo", ("Russia",)),
                   ScoreExtras(leaders=frozenset(POWERS) - {"Turkey", "Italy"}))
    assert {p: s.coins for p, s in scores.items()} == {p: 0 if p in ("Turkey", "Italy") else 2000 for p in POWERS}
    assert [i.code for i in scores["Turkey"].items] == ["centres"] and points(scores)["Turkey"] == 8


def test_house_alliance():
    """Appendix 2: each member of a winning alliance +6 on its own SCs."""
    board = counts(England=10, France=9, Germany=6, Russia=7, Italy=2)
    scores = score("house", board, result("alliance", ("England", "France")))
    assert points(scores) == board | {"England": 16, "France": 15}


@pytest.mark.parametrize("kind", ["most_centres_at_phase", "most_centres_at_time", "concession"])
def test_house_other_lone_wins_get_the_solo_bonus(kind):
    board = counts(France=12, Russia=9, Turkey=7)
    assert score("house", board, result(kind, ("France",)))["France"].points == 22


def test_house_draw_and_shared_win():
    board = counts(England=12, France=11, Russia=11)
    drawn = score("house", board, result("draw", ("England", "France", "Russia")))
    assert points(drawn) == board
    shared = score("house", board, result("most_centres_at_phase", ("France",), ("Russia",)))
    assert points(shared) == board          # tied winners are 平手, not winners alone: no +10 (issue 13 point 8)


def test_house_concession_bonus_is_the_gms_setting():
    board = counts(France=12, Russia=9, Turkey=7)
    conceded = result("concession", ("France",))
    assert score("house", board, conceded)["France"].points == 22
    assert score("house", board, conceded, concession_bonus=False)["France"].points == 12


def test_dss_scores_the_others_as_not_winners_not_as_a_share():
    board = counts(England=12, France=11, Russia=11)
    drawn = score("dss", board, result("draw", ("England", "France")))
    assert [i.code for i in drawn["Russia"].items] == ["no_share"] and drawn["Russia"].points == 0
    assert [i.code for i in drawn["France"].items] == ["share"] and drawn["France"].points == 50


def test_passive_player_forfeits_everything_and_is_fined():
    """Appendix 2: a passive player (GM's ruling) loses all points and rewards
    and is fined points by severity; here Turkey, fined 5, had won an award."""
    extras = ScoreExtras(passive={"Turkey": 5}, awards={"best_diplomacy": ("Turkey",)})
    scores = score("house", SOLO_BOARD, result("solo", ("Russia",)), extras)
    assert scores["Turkey"].points == -5 and scores["Turkey"].coins == 0
    assert [i.code for i in scores["Turkey"].items] == [
        "centres", "leader_reward", "best_diplomacy", "passive_forfeit", "passive_fine"]
    assert scores["Russia"].points == 28 and scores["Russia"].coins == 2000


def test_passive_winner_loses_the_win_bonus_too():
    extras = ScoreExtras(passive={"Russia": 0})
    scores = score("house", SOLO_BOARD, result("solo", ("Russia",)), extras)
    assert (scores["Russia"].points, scores["Russia"].coins) == (0, 0)


def test_awards_add_1200k_each():
    extras = ScoreExtras(awards={"best_strategy": ("Russia",), "best_diplomacy": ("Austria",)})
    scores = score("house", SOLO_BOARD, result("solo", ("Russia",)), extras)
    assert scores["Russia"].coins == 3200 and scores["Austria"].coins == 3200
    assert scores["Turkey"].coins == 2000
    assert scores["Russia"].points == 28   # awards are coins, not points


def test_advisors_score_nothing():
    scores = score("house", SOLO_BOARD, result("solo", ("Russia",)))
    leaders = {p: f"{p.lower()}@example.org" for p in POWERS}
    people = scores_by_person(scores, leaders, {"Russia": ["advisor@example.org"]})
    assert people["russia@example.org"].points == 28
    assert (people["advisor@example.org"].points, people["advisor@example.org"].coins) == (0, 0)
    assert set(people) == set(leaders.values()) | {"advisor@example.org"}


def test_score_to_dict():
    data = score("house", SOLO_BOARD, result("solo", ("Russia",)))["Russia"].to_dict()
    assert json.loads(json.dumps(data)) == {"points": 28, "coins": 2000, "items": [
        {"code": "centres", "points": 18, "coins": 0}, {"code": "solo_bonus", "points": 10, "coins": 0},
        {"code": "leader_reward", "points": 0, "coins": 2000}]}


@pytest.mark.parametrize("system,extras,match", [
    ("elo", None, "not_a_choice.*scoring"),
    ("house", ScoreExtras(passive={"Turkey": -3}), "bad_fine"),
    ("house", ScoreExtras(passive={"Atlantis": 3}), "Atlantis"),
    ("house", ScoreExtras(awards={"best_looks": ("Turkey",)}), "award"),
    ("dss", ScoreExtras(passive={"Turkey": 3}), "extras_not_house"),
])
def test_bad_scoring_input(system, extras, match):
    with pytest.raises(ValueError, match=match):
        score(system, SOLO_BOARD, result("solo", ("Russia",)), extras)


def test_winner_must_be_scored():
    with pytest.raises(ValueError, match="Atlantis"):
        score("dss", SOLO_BOARD, result("solo", ("Atlantis",)))


# --- award votes ------------------------------------------------------------------

VOTES = {"England": "France", "France": "England", "Germany": "France", "Russia": "Turkey",
         "Turkey": "France", "Austria": "England", "Italy": "England"}   # France 3, England 3, Turkey 1
FINAL = counts(England=10, France=9, Russia=8, Turkey=7)


def test_award_vote_clear_winner():
    tally = tally_award(VOTES | {"Russia": "England"}, "gm_decides", FINAL)
    assert tally == AwardTally({"France": 3, "England": 4}, (), ("England",), False)


def test_award_tie_gm_decides():
    tally = tally_award(VOTES, "gm_decides", FINAL)
    assert tally.tied == ("England", "France") and tally.needs_gm and tally.winners == ()
    assert tally_award(VOTES, "gm_decides", FINAL, gm_choice="France").winners == ("France",)
    with pytest.raises(ValueError, match="gm_choice_not_tied"):
        tally_award(VOTES, "gm_decides", FINAL, gm_choice="Turkey")


def test_award_tie_shared():
    tally = tally_award(VOTES, "share", FINAL)
    assert tally.winners == ("England", "France") and not tally.needs_gm
    scores = score("house", FINAL, result("draw", ("England", "France", "Russia", "Turkey")),
                   ScoreExtras(awards={"best_strategy": tally.winners}))
    assert scores["England"].coins == scores["France"].coins == 3200


def test_award_tie_most_centres():
    assert tally_award(VOTES, "most_centres", FINAL).winners == ("England",)
    level = FINAL | {"France": 10}
    still_tied = tally_award(VOTES, "most_centres", level)
    assert still_tied.needs_gm and still_tied.winners == ()
    assert tally_award(VOTES, "most_centres", level, gm_choice="France").winners == ("France",)


def test_no_self_votes():
    with pytest.raises(ValueError, match="self_vote"):
        cast_award_vote({}, "England", "England", POWERS)
    with pytest.raises(ValueError, match="self_vote"):
        tally_award({"England": "England"}, "share", FINAL)


def test_casting_votes():
    votes = cast_award_vote({}, "England", "France", POWERS)
    votes = cast_award_vote(votes, "England", "Russia", POWERS)   # a new vote replaces the old
    assert votes == {"England": "Russia"}
    with pytest.raises(ValueError, match="no_leader"):
        cast_award_vote(votes, "England", "Atlantis", POWERS)


def test_no_votes_leaves_it_to_the_gm():
    tally = tally_award({}, "share", FINAL)
    assert tally.needs_gm and tally.winners == ()
    assert tally_award({}, "share", FINAL, gm_choice="Italy").winners == ("Italy",)


def test_scoring_settings_round_trip():
    settings = ScoringSettings(system="c_diplo", awards="vote", award_tie_rule="most_centres")
    assert ScoringSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings
    with pytest.raises(ValueError):
        ScoringSettings.from_dict({"system": "carnage"})
    with pytest.raises(ValueError):
        ScoringSettings.from_dict({"awards": "gm", "colour": "red"})


# --- draw-size scoring --------------------------------------------------------------

def test_dss():
    """Draw-size scoring (Calhamer points scaled to 100): a solo takes all 100
    points; an n-way draw gives 100/n to each member; everyone else scores 0.
    Example: a 3-way draw England/France/Russia scores 33 1/3 each."""
    board = counts(England=12, France=11, Russia=9, Turkey=2)
    drawn = score("dss", board, result("draw", ("England", "France", "Russia")))
    assert points(drawn) == pytest.approx(counts(England=100 / 3, France=100 / 3, Russia=100 / 3))
    assert points(score("dss", SOLO_BOARD, result("solo", ("Russia",)))) == counts(Russia=100)
    assert points(score("dss", board, result("alliance", ("England", "France")))) == counts(England=50, France=50)


# --- sum-of-squares -------------------------------------------------------------------

def test_sum_of_squares_draw():
    """Sum-of-squares: a solo scores 100, the others 0; otherwise each power
    scores 100 * SC^2 / (sum of every power's SC^2). Example: England 12,
    France 10, Russia 8, Turkey 4: squares 144 + 100 + 64 + 16 = 324, so
    England 14400/324 = 44.44, France 10000/324 = 30.86, Russia 6400/324 =
    19.75, Turkey 1600/324 = 4.94, the rest 0; total 100."""
    board = counts(England=12, France=10, Russia=8, Turkey=4)
    scores = points(score("sum_of_squares", board, result("draw", ("England", "France", "Russia", "Turkey"))))
    assert scores == pytest.approx(counts(England=44.444, France=30.864, Russia=19.753, Turkey=4.938), abs=1e-3)
    assert sum(scores.values()) == pytest.approx(100)


def test_sum_of_squares_solo_and_end_of_year():
    assert points(score("sum_of_squares", SOLO_BOARD, result("solo", ("Russia",)))) == counts(Russia=100)
    # A game ended by the year limit is scored by centres, not as a solo.
    board = counts(England=12, France=10, Russia=8, Turkey=4)
    ended = points(score("sum_of_squares", board, result("most_centres_at_phase", ("England",))))
    assert ended["England"] == pytest.approx(44.444, abs=1e-3)


# --- C-Diplo ------------------------------------------------------------------------

def test_c_diplo_tied_second():
    """C-Diplo 100 (World Diplomacy Database): no solo — each player 1 point
    for playing, 1 per centre; the topper 38, second 14, third 7, tied places
    sharing their bonuses. WDD example 1: Austria 4, England 0, France 9,
    Germany 7, Italy 7, Russia 3, Turkey 4 -> 5, 1, 1+9+38 = 48,
    1+7+(14+7)/2 = 18.5, 18.5, 4, 5; total 100."""
    board = counts(Austria=4, France=9, Germany=7, Italy=7, Russia=3, Turkey=4)
    scores = points(score("c_diplo", board, result("draw", ("Austria", "France", "Germany", "Italy",
                                                                "Russia", "Turkey"))))
    assert scores == {"Austria": 5, "England": 1, "France": 48, "Germany": 18.5, "Italy": 18.5,
                      "Russia": 4, "Turkey": 5}
    assert sum(scores.values()) == 100


def test_c_diplo_tied_third():
    """WDD example 2: Austria 5, England 9, France 4, Germany 5, Italy 3,
    Russia 1, Turkey 7 -> 1+5+7/2 = 9.5, 1+9+38 = 48, 5, 9.5, 4, 2,
    1+7+14 = 22; total 100."""
    board = counts(Austria=5, England=9, France=4, Germany=5, Italy=3, Russia=1, Turkey=7)
    scores = points(score("c_diplo", board, result("draw", POWERS)))
    assert scores == {"Austria": 9.5, "England": 48, "France": 5, "Germany": 9.5, "Italy": 4,
                      "Russia": 2, "Turkey": 22}


def test_c_diplo_solo_and_two_way_top():
    """C-Diplo 100: a solo (18+) scores 100, everyone else 0. Two players
    level on top share (38 + 14) / 2 = 26: at 17 centres each 26 + 17 + 1 = 44."""
    assert points(score("c_diplo", SOLO_BOARD, result("solo", ("Russia",)))) == counts(Russia=100)
    board = counts(England=17, Turkey=17)
    scores = points(score("c_diplo", board, result("draw", ("England", "Turkey"))))
    assert scores == counts(England=44, Turkey=44, Austria=1, France=1, Germany=1, Italy=1, Russia=1)


def test_alliance_game_from_check_to_scores():
    """RULES.md §4–5 end to end: England and France declare an alliance, reach
    19 combined after Fall 1906 and win; the leaders vote the awards; Italy is
    ruled passive and fined 3."""
    from judge.rules.victory import VictorySettings, check_victory, declare_ally, mutual_alliances
    board = counts(England=10, France=9, Germany=6, Russia=7, Italy=2)
    decl = declare_ally(declare_ally({}, "England", "France", POWERS), "France", "England", POWERS)
    check = check_victory(VictorySettings(solo_rule="most", alliance_centres=18, tie_rule="continue"),
                          board, "W1906A", NOON, mutual_alliances(decl))
    strategy = tally_award({"France": "England", "Germany": "England", "Russia": "France"}, "gm_decides", board)
    diplomacy = tally_award({"England": "Russia", "France": "Russia", "Italy": "Germany"}, "gm_decides", board)
    extras = ScoreExtras(passive={"Italy": 3},
                         awards={"best_strategy": strategy.winners, "best_diplomacy": diplomacy.winners})
    scores = score("house", board, check.result, extras)
    assert {p: (s.points, s.coins) for p, s in scores.items()} == {
        "England": (16, 3200), "France": (15, 2000), "Germany": (6, 2000), "Russia": (7, 3200),
        "Italy": (-3, 0), "Austria": (0, 2000), "Turkey": (0, 2000)}
