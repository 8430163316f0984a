"""The end of a game through :class:`judge.game.Game` (``RULES.md`` §4-5, issue 5):
victory conditions checked after Fall and at deadlines, alliances, draws and
concessions, the scores, passive rulings and awards, and a finished game's
storage. The rules themselves are tested in ``test_victory.py`` and
``test_scoring.py``; here they are exercised through the game."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from judge.game import Game, GameError, Player, Settings
from judge.game.scores import award_name, final_scores, nmr_record, person_scores
from judge.game.setting_text import change_settings
from judge.rules.orders import Move, Support
from judge.rules.position import Position, Unit
from judge.rules.victory import EndVotes
from judge.storage import Store, load_game, save_game

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def new_game(*pairs: str, name: str = "g") -> Game:
    return Game.create(name, now=T0, seed=7, settings=change_settings(Settings(), pairs))


def place(game: Game, phase: str, units: dict[str, str], centres: dict[str, str]) -> None:
    """Put ``game`` at ``phase`` with ``units`` ``{power: "A bur F nth"}`` and
    SC owners ``{power: "bre mar par"}``; the other SCs are unowned."""
    placed = {}
    for power, text in units.items():
        words = text.split()
        for kind, loc in zip(words[::2], words[1::2]):
            placed[loc.split("/")[0]] = Unit(power, kind, loc)
    owners = {sc: power for power, text in centres.items() for sc in text.split()}
    game.position = Position(phase, placed, owners, {})


def join_everyone(game: Game) -> None:
    for p in POWERS:
        game.players[p] = Player((f"{p.lower()}@example.org",))


def step(game: Game, minutes: int, **orders: list) -> None:
    now = T0 + timedelta(minutes=minutes)
    for power, given in orders.items():
        receipts = game.submit(power, given, now)
        assert all(r.ok for r in receipts), receipts
    game.process(now)


def points(game: Game) -> dict[str, float]:
    return {p: s.points for p, s in final_scores(game).items()}


# ---- settings --------------------------------------------------------------------

def test_victory_and_scoring_settings_are_stored_and_old_games_load():
    s = change_settings(Settings(), ["solo=16", "solo_rule=most", "alliance=20", "end_year=1905",
                                     "end_at=2027-01-01T08:00", "tie=continue", "draw_votes=public",
                                     "scoring=c_diplo", "awards=vote", "award_tie=share"], tz="Asia/Shanghai")
    v = s.victory
    assert (v.solo_centres, v.solo_rule, v.alliance_centres, v.end_year, v.tie_rule, v.draw_votes) == \
        (16, "most", 20, 1905, "continue", "public")
    assert v.end_at == datetime(2027, 1, 1, 0, 0, tzinfo=timezone.utc)
    assert (s.scoring.system, s.scoring.awards, s.scoring.award_tie_rule) == ("c_diplo", "vote", "share")
    assert Settings.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    game = new_game()
    old = game.to_dict()
    del old["settings"]["victory"], old["settings"]["scoring"], old["ending"]
    loaded = Game.from_dict(old)
    assert loaded == game and loaded.settings.victory.solo_centres == 18
    assert loaded.settings.scoring.system == "house" and not loaded.finished


@pytest.mark.parametrize("pair, message", [
    ("solo=many", "not a whole number"), ("tie=coin", "tie_rule must be one of"),
    ("scoring=elo", "system must be one of"), ("colour=red", "key=value with a key among"),
    ("end_at=soon", "not a date and time"), ("solo", "key=value"),
])
def test_bad_setting_text(pair, message):
    with pytest.raises(ValueError, match=message):
        change_settings(Settings(), [pair])


def test_a_threshold_above_the_map_is_refused():
    with pytest.raises(GameError, match="more than the map's 34 supply centres"):
        new_game("solo=35")


# ---- solo ------------------------------------------------------------------------

def test_solo_after_fall_ends_the_game_and_closes_it():
    game = new_game()
    place(game, "F1905M", {"France": "A bur", "England": "F lon"},
          {"France": "bre mar par spa por tun nap rom ven tri vie bud ser gre mun kie ber",
           "England": "edi lon lvp"})
    step(game, 0, France=[Move("A", "bur", "bel")])
    assert game.finished
    r = game.ending.result
    assert (r.kind, r.sides, r.phase) == ("solo", (("France",),), "W1905A")
    with pytest.raises(GameError, match="is over"):
        game.submit("France", [Move("A", "bel", "hol")], T0)
    with pytest.raises(GameError, match="is over"):
        game.process(T0)
    assert game.check_end(T0 + timedelta(days=1)).result == r     # idempotent
    assert points(game)["France"] == 18 + 10


TWO_AT_TEN = ({"France": "A bur A gas", "Germany": "A ruh"},
              {"France": "bre mar par por tun nap rom ven tri",
               "Germany": "ber kie mun den swe nwy war mos stp"})


@pytest.mark.parametrize("solo_rule", ["reach", "most"])
def test_two_powers_reaching_n_in_the_same_fall_share_the_win(solo_rule):
    game = new_game("solo=10", f"solo_rule={solo_rule}", "tie=share")
    place(game, "F1905M", *TWO_AT_TEN)
    step(game, 0, France=[Move("A", "bur", "bel")], Germany=[Move("A", "ruh", "hol")])
    r = game.ending.result
    assert r.kind == "solo" and r.sides == (("France",), ("Germany",)) and r.shared
    assert points(game)["France"] == points(game)["Germany"] == 10       # a shared win: no solo +10


def test_two_powers_reaching_n_under_continue_play_on_until_one_wins():
    game = new_game("solo=10", "solo_rule=most", "tie=continue")
    place(game, "F1905M", *TWO_AT_TEN)
    step(game, 0, France=[Move("A", "bur", "bel")], Germany=[Move("A", "ruh", "hol")])
    assert not game.finished and str(game.phase) == "W1905A"
    assert game.ending.tie.sides == (("France",), ("Germany",)) and game.ending.tie.reason.code == "solo"
    step(game, 1)                       # Winter: builds not ordered
    step(game, 2)                       # Spring 1906: nothing changes hands
    assert not game.finished and game.ending.tie is not None
    step(game, 3, France=[Move("A", "gas", "spa")])
    r = game.ending.result
    assert game.finished and r.kind == "solo" and r.sides == (("France",),)
    assert game.sc_counts()["France"] == 11 and game.ending.tie is None


def test_reach_and_continue_keep_the_tie_while_both_hold_n():
    game = new_game("solo=10", "solo_rule=reach", "tie=continue")
    place(game, "F1905M", *TWO_AT_TEN)
    step(game, 0, France=[Move("A", "bur", "bel")], Germany=[Move("A", "ruh", "hol")])
    step(game, 1)
    step(game, 2)
    step(game, 3, France=[Move("A", "gas", "spa")])
    assert not game.finished and game.ending.tie.sides == (("France",), ("Germany",))


def test_solo_beats_an_alliance():
    game = new_game("solo=12", "alliance=20")
    place(game, "S1906M", {}, {"Russia": "mos sev stp war rum bul con ank smy ser gre bud",
                               "England": "edi lon lvp nwy swe den hol bel kie ber mun",
                               "France": "bre mar par spa por tun nap rom ven tri vie"})
    assert game.ally("England", "France") is False
    assert game.ally("France", "England") is True
    r = game.check_end(T0).result
    assert r.kind == "solo" and r.sides == (("Russia",),)


# ---- end of a year, end time -----------------------------------------------------

def test_the_game_ends_after_fall_of_the_end_year_once_retreats_are_done():
    game = new_game("end_year=1905")
    place(game, "F1905M", {"France": "A bur A pic", "Germany": "A bel", "England": "F lon"},
          {"France": "bre mar par", "Germany": "ber kie mun bel", "England": "edi lon lvp"})
    step(game, 0, France=[Move("A", "pic", "bel"), Support("A", "bur", "A", "pic", "bel")])
    assert str(game.phase) == "F1905R" and not game.finished
    step(game, 1)                       # the German army is not retreated: disbanded
    r = game.ending.result
    assert r.kind == "most_centres_at_phase" and r.sides == (("France",),)
    assert game.sc_counts()["France"] == 4 and r.phase == str(game.phase)
    with pytest.raises(GameError, match="is over"):
        game.process(T0)                # the Winter 1905 adjustments are not played


def test_the_end_time_arriving_between_phases():
    end = T0 + timedelta(days=3)
    game = new_game(f"end_at={end.isoformat()}", "solo=18")
    place(game, "S1906M", {"France": "A bur", "Germany": "A mun"},
          {"France": "bre mar par bel", "Germany": "ber kie mun"})
    assert game.check_end(end - timedelta(seconds=1)).result is None and not game.finished
    r = game.check_end(end).result
    assert game.finished and r.kind == "most_centres_at_time" and r.sides == (("France",),)
    assert r.phase == "S1906M" and r.at == end      # the counts of the last Fall, mid-year
    with pytest.raises(GameError, match="is over"):
        game.submit("France", [Move("A", "bur", "ruh")], end)


def test_a_phase_due_at_the_end_time_is_adjudicated_first():
    end = T0 + timedelta(days=3)
    game = new_game(f"end_at={end.isoformat()}")
    place(game, "F1906M", {"France": "A bur", "Germany": "A mun"},
          {"France": "bre mar par", "Germany": "ber kie mun"})
    game.submit("Germany", [Move("A", "mun", "ruh")], end)
    game.submit("France", [Move("A", "bur", "bel")], end)
    game.process(end)
    assert game.history[-1].phase == "F1906M"
    assert game.ending.result.sides == (("France",),) and game.sc_counts()["France"] == 4


# ---- alliances -------------------------------------------------------------------

ALLIANCE_BOARD = (
    {"England": "F nth F lon", "France": "A par", "Italy": "A rom", "Germany": "A ber"},
    {"England": "edi lon lvp nwy swe den stp mos war", "France": "bre mar par spa por tun nap ven tri vie",
     "Italy": "rom", "Germany": "ber kie mun"})


def test_an_alliance_victory_played_through_process_with_final_scores_for_everyone():
    game = new_game("alliance=20", "solo=18")
    join_everyone(game)
    game.players["France"] = Player(("france@example.org", "advisor@example.org"))
    place(game, "S1905M", *ALLIANCE_BOARD)
    assert game.ally("England", "France") is False
    step(game, 0)                                     # Spring: nobody has reached anything
    assert game.ally("france", "ENGLAND") is True and not game.finished
    step(game, 1, England=[Move("F", "nth", "hol")])
    r = game.ending.result
    assert r.kind == "alliance" and r.sides == (("England", "France"),) and r.phase == "W1905A"
    scores = final_scores(game)
    assert set(scores) == set(POWERS)
    assert {p: s.points for p, s in scores.items()} == {
        "England": 10 + 6, "France": 10 + 6, "Italy": 1, "Germany": 3,
        "Austria": 0, "Russia": 0, "Turkey": 0}
    assert all(s.coins == 2000 for s in scores.values())
    people = person_scores(game)
    assert people["england@example.org"].points == 16 and people["advisor@example.org"].points == 0
    assert [i.code for i in people["advisor@example.org"].items] == ["advisor"]
    assert nmr_record(game)["Italy"] == ("S1905M", "F1905M")
    assert nmr_record(game)["England"] == ("S1905M",)


def test_an_alliance_withdrawn_before_the_condition_is_met_does_not_win():
    game = new_game("alliance=20", "solo=18")
    place(game, "F1905M", *ALLIANCE_BOARD)
    game.ally("England", "France")
    game.ally("France", "England")
    assert game.unally("France") == "England" and game.alliances() == []
    step(game, 0, England=[Move("F", "nth", "hol")])
    assert not game.finished
    with pytest.raises(GameError, match="France has declared no alliance"):
        game.unally("France")


def test_an_alliance_has_two_members_and_needs_the_most_centres():
    game = new_game("alliance=10")
    place(game, "S1906M", {}, {"England": "edi lon lvp nwy", "France": "bre mar par spa",
                               "Germany": "ber kie mun den hol bel swe"})   # 8 together, 7 alone
    game.ally("England", "France")
    game.ally("France", "England")
    with pytest.raises(GameError, match="France is allied with England"):
        game.ally("Germany", "France")                # no third power in an alliance in force (issue 22)
    game.ally("France", "Germany")                    # France's new declaration replaces the old
    game.ally("Germany", "France")
    assert game.alliances() == [frozenset({"France", "Germany"})]
    assert game.check_end(T0).result.sides == (("France", "Germany"),)
    game = new_game("alliance=10")
    place(game, "S1906M", {}, {"England": "edi lon lvp nwy spa", "France": "bre mar par por tun",
                               "Germany": "ber kie mun den hol bel swe stp mos war sev"})
    game.ally("England", "France")
    game.ally("France", "England")                    # 10 together, but Germany alone has 11
    assert game.check_end(T0).result is None


def test_alliance_commands_refused():
    game = new_game()
    with pytest.raises(GameError, match="no alliance victory condition"):
        game.ally("England", "France")
    game = new_game("alliance=18")
    with pytest.raises(GameError, match="cannot ally with itself"):
        game.ally("England", "england")
    with pytest.raises(GameError, match='no power "Atlantis"'):
        game.ally("England", "Atlantis")
    place(game, "S1906M", {"England": "F lon"}, {"England": "lon", "France": "par"})
    with pytest.raises(GameError, match="Germany is not a surviving power"):
        game.ally("England", "Germany")


# ---- draws and concessions -------------------------------------------------------

THREE = ({"England": "F lon", "France": "A par", "Germany": "A ber"},
         {"England": "lon", "France": "par", "Germany": "ber"})


def test_a_draw_passes_when_every_survivor_votes_for_it():
    game = new_game()
    place(game, "S1906M", *THREE)
    assert game.survivors() == ["England", "France", "Germany"]
    assert game.draw("England", T0) is None
    assert game.draw("France", T0) is None
    with pytest.raises(GameError, match="Italy is not a surviving power"):
        game.draw("Italy", T0)
    r = game.draw("Germany", T0 + timedelta(hours=1))
    assert game.finished and r.kind == "draw" and r.sides == (("England", "France", "Germany"),)
    assert r.at == T0 + timedelta(hours=1)
    assert points(game) == {"Austria": 0, "England": 1, "France": 1, "Germany": 1,
                            "Italy": 0, "Russia": 0, "Turkey": 0}     # house: nothing extra for a draw


def test_votes_expire_at_each_adjudication_and_can_be_withdrawn():
    game = new_game()
    place(game, "S1906M", *THREE)
    game.draw("England", T0)
    game.concede("Germany", "France", T0)
    game.nodraw("England")
    assert game.ending.votes.draw == {}
    with pytest.raises(GameError, match="England has not voted for a draw"):
        game.nodraw("England")
    game.draw("England", T0)
    step(game, 0)
    assert game.ending.votes == EndVotes() and not game.finished
    game.concede("Germany", "France", T0)
    game.unconcede("Germany")
    with pytest.raises(GameError, match="Germany has not conceded"):
        game.unconcede("Germany")


def test_a_draw_of_some_survivors_only_where_the_gm_allows_it():
    game = new_game()
    place(game, "S1906M", *THREE)
    with pytest.raises(GameError, match="a draw includes every surviving power"):
        game.draw("England", T0, ["England", "France"])
    game = new_game("draw_members=any")
    place(game, "S1906M", *THREE)
    for p in ("England", "France"):
        assert game.draw(p, T0, ["england", "France"]) is None
    r = game.draw("Germany", T0, ["England", "France"])
    assert r.kind == "draw" and r.sides == (("England", "France"),)
    assert final_scores(game)["Germany"].points == 1


def test_secret_and_public_votes():
    for mode, england_sees, germany_sees in (("secret", {"England"}, set()),
                                             ("public", {"England", "France"}, {"England", "France"})):
        game = new_game(f"draw_votes={mode}")
        place(game, "S1906M", *THREE)
        game.draw("England", T0)
        game.draw("France", T0)
        assert set(game.visible_votes("england")["draw"]) == england_sees
        assert set(game.visible_votes("Germany")["draw"]) == germany_sees
        assert set(game.visible_votes()["draw"]) == {"England", "France"}     # the GM sees all


def test_a_concession_to_one_power():
    game = new_game()
    place(game, "S1906M", *THREE)
    assert game.concede("England", "Germany", T0) is None
    with pytest.raises(GameError, match="cannot concede to itself"):
        game.concede("Germany", "Germany", T0)
    r = game.concede("France", "Germany", T0)
    assert r.kind == "concession" and r.sides == (("Germany",),)
    assert points(game)["Germany"] == 1 + 10


def test_the_gm_ends_a_game_as_a_draw():
    game = new_game("scoring=dss")
    place(game, "S1906M", *THREE)
    with pytest.raises(GameError, match="two or more surviving powers"):
        game.gm_end(T0, ["England", "Italy"])
    r = game.gm_end(T0)
    assert r.kind == "draw" and r.winners == ("England", "France", "Germany")
    assert points(game)["France"] == pytest.approx(100 / 3) and points(game)["Italy"] == 0


# ---- scoring systems, passive players, awards -----------------------------------

@pytest.mark.parametrize("system, expected", [
    ("sum_of_squares", {"France": 100 * 16 / 26, "England": 100 * 9 / 26, "Germany": 100 / 26}),
    ("c_diplo", {"France": 1 + 4 + 38, "England": 1 + 3 + 14, "Germany": 1 + 1 + 7}),
    ("dss", {"France": 50, "England": 50, "Germany": 0}),
])
def test_other_scoring_systems_through_the_game(system, expected):
    game = new_game(f"scoring={system}", "draw_members=any")
    place(game, "S1906M", {"England": "F lon", "France": "A par", "Germany": "A ber"},
          {"England": "lon edi lvp", "France": "par bre mar spa", "Germany": "ber"})
    for p in ("England", "France", "Germany"):
        game.draw(p, T0, ["England", "France"])
    got = points(game)
    assert {p: got[p] for p in expected} == pytest.approx(expected)
    with pytest.raises(GameError, match="belong to the house scoring"):
        game.gm_rule_passive("Germany", 3)
    with pytest.raises(GameError, match="belong to the house scoring"):
        game.vote_award("England", "strategy", "France")


def play_to_a_draw_with_italy_silent() -> Game:
    game = new_game("awards=vote")
    join_everyone(game)
    place(game, "S1906M", {"England": "F lon", "France": "A par", "Italy": "A rom"},
          {"England": "lon edi", "France": "par bre mar", "Italy": "rom nap"})
    step(game, 0, England=[Move("F", "lon", "eng")], France=[Move("A", "par", "bur")])
    step(game, 1, England=[Move("F", "eng", "mao")])
    for p in ("England", "France", "Italy"):
        game.draw(p, T0 + timedelta(hours=1))
    assert game.finished
    return game


def test_a_passive_players_forfeit():
    game = play_to_a_draw_with_italy_silent()
    assert nmr_record(game) == {**{p: () for p in POWERS}, "Italy": ("S1906M", "F1906M"), "France": ("F1906M",)}
    game.gm_rule_passive("Italy", 5)
    italy = final_scores(game)["Italy"]
    assert (italy.points, italy.coins) == (-5, 0)
    assert [i.code for i in italy.items] == ["centres", "leader_reward", "passive_forfeit", "passive_fine"]
    with pytest.raises(GameError, match="whole number of points"):
        game.gm_rule_passive("Italy", -1)
    game.gm_rule_passive("Italy", None)
    assert final_scores(game)["Italy"].points == 2 and final_scores(game)["Italy"].coins == 2000


def test_a_vote_for_the_awards():
    game = play_to_a_draw_with_italy_silent()
    game.players["France"] = Player(("france@example.org", "advisor@example.org"))
    game.vote_award("England", "BEST STRATEGY", "France")
    game.vote_award("Italy", "strategy", "England")
    game.vote_award("Italy", "strategy", "France")     # a later vote replaces the earlier
    with pytest.raises(GameError, match="may not vote for itself"):
        game.vote_award("France", "strategy", "France")
    with pytest.raises(GameError, match="advisors do not"):
        game.vote_award("France", "diplomacy", "England", by="advisor@example.org")
    game.vote_award("France", "最佳外交奖", "England", by="france@example.org")
    game.vote_award("England", "diplomacy", "Italy")
    assert final_scores(game)["France"].coins == 2000            # nothing is given while the vote is open
    with pytest.raises(GameError, match="once the vote has closed"):
        game.gm_award("diplomacy", "Italy")
    assert not game.close_award_vote(T0 + timedelta(hours=72))   # 72 h after the end (T0 + 1 h)
    assert game.close_award_vote(T0 + timedelta(hours=73))
    scores = final_scores(game)
    assert scores["France"].coins == 2000 + 1200 and scores["England"].coins == 2000
    assert [i.code for i in scores["France"].items][-1] == "best_strategy"
    # diplomacy is tied England 1 : Italy 1, and the GM decides
    with pytest.raises(GameError, match="not among the tied: England and Italy"):
        game.gm_award("diplomacy", "France")
    game.gm_award("diplomacy", "Italy")
    assert final_scores(game)["Italy"].coins == 2000 + 1200
    with pytest.raises(GameError, match="the award vote of game g has closed"):
        game.vote_award("Austria", "diplomacy", "England")
    with pytest.raises(GameError, match="no tie for the GM to break"):
        game.gm_award("strategy", "England")
    with pytest.raises(GameError, match="not an award"):
        game.vote_award("England", "bravery", "France")


def test_awards_named_by_the_gm_and_other_tie_rules():
    game = new_game()
    place(game, "S1906M", *THREE)
    with pytest.raises(GameError, match="the GM names the awards"):
        game.vote_award("England", "strategy", "France")
    game.gm_award("strategy", "France")                # before the end, in GM mode
    game.gm_end(T0)
    assert final_scores(game)["France"].coins == 3200
    for rule, winners in (("share", {"England", "Germany"}), ("most_centres", {"Germany"})):
        game = new_game("awards=vote", f"award_tie={rule}")
        place(game, "S1906M", {"England": "F lon", "France": "A par", "Germany": "A ber"},
              {"England": "lon", "France": "par", "Germany": "ber kie"})
        game.vote_award("France", "diplomacy", "England")
        game.vote_award("England", "diplomacy", "Germany")
        game.gm_end(T0)
        assert game.close_award_vote(T0 + timedelta(hours=72))
        assert {p for p, s in final_scores(game).items() if s.coins == 3200} == winners


def test_award_names():
    assert award_name("Best Strategy") == "best_strategy" and award_name("戰略") == "best_strategy"
    assert award_name("diplomacy") == "best_diplomacy"


def test_no_scores_while_running():
    with pytest.raises(GameError, match="still running"):
        final_scores(new_game())


# ---- storage -----------------------------------------------------------------------

def test_a_finished_game_round_trips_through_the_store(tmp_path):
    game = play_to_a_draw_with_italy_silent()
    game.gm_rule_passive("Italy", 2)
    game.vote_award("England", "strategy", "France")
    store = Store(tmp_path / "store")
    with store.transaction() as tx:
        save_game(tx, game)
    loaded = load_game(Store(tmp_path / "store"), "g")
    assert loaded == game and loaded.finished
    assert loaded.to_dict() == game.to_dict()
    assert final_scores(loaded) == final_scores(game)
    with pytest.raises(GameError, match="is over"):
        loaded.process(T0)


def test_a_power_nobody_played_gets_no_leaders_reward():
    """Appendix 2's 2000k go to each power's leader (元首): a power without a
    player at the end (never joined, or ejected and not replaced) has none."""
    game = play_to_a_draw_with_italy_silent()
    game.players["Turkey"] = Player(())
    scores = final_scores(game)
    assert scores["Turkey"].coins == 0 and "leader_reward" not in [i.code for i in scores["Turkey"].items]
    assert scores["Russia"].coins == 2000
