"""Victory conditions, alliances, draws and concessions (``RULES.md`` §4,
``judge/rules/victory.py``). The table of victory checks is
``tests/data/victory/checks.json``; each case names the rule text it tests."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from judge.rules.reasons import Reason
from judge.rules.victory import (
    EndVotes, VictoryResult, VictorySettings, centre_counts, check_victory, conditions_due,
    declare_ally, expire_votes, mutual_alliances, tally_votes, visible_votes, vote_concede,
    vote_draw, withdraw_ally, withdraw_concession, withdraw_draw,
)

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
CASES = json.loads((Path(__file__).parent / "data" / "victory" / "checks.json").read_text("utf-8"))["cases"]
NOON = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)


def _sides(raw) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(side) for side in raw)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_victory_check(case):
    settings = VictorySettings.from_dict(case["settings"])
    counts = {p: case["counts"].get(p, 0) for p in POWERS}
    alliances = [frozenset(a) for a in case.get("alliances", [])]
    check = check_victory(settings, counts, case["phase"], datetime.fromisoformat(case["now"]), alliances)
    expect = case["expect"]
    if "result" in expect:
        assert check.game_over and check.tie is None
        assert check.result.kind == expect["result"]["kind"]
        assert check.result.sides == _sides(expect["result"]["sides"])
        assert check.result.phase == case["phase"]
        assert check.result.reason.code == check.result.kind
        assert check.result.reason.params["sides"] == check.result.sides
    else:
        assert check.result is None and not check.game_over
    if "tie" in expect:
        assert check.tie.kind == expect["tie"]["kind"]
        assert check.tie.sides == _sides(expect["tie"]["sides"])
        assert check.tie.reason.code == check.tie.kind and check.tie.reason.params["sides"] == check.tie.sides
    else:
        assert check.tie is None


def test_reasons_name_the_winner_and_the_count():
    counts = {p: 0 for p in POWERS} | {"Russia": 18, "Turkey": 6}
    check = check_victory(VictorySettings(), counts, "W1907A", NOON)
    assert check.result.reason == Reason("solo", sides=[["Russia"]], centres=[18], need=18)
    counts = {p: 0 for p in POWERS} | {"England": 10, "France": 9}
    check = check_victory(VictorySettings(alliance_centres=18), counts, "W1906A", NOON,
                          [frozenset({"France", "England"})])
    assert check.result.reason == Reason("alliance", sides=[["England", "France"]], centres=[19], need=18)
    assert check.result.winners == ("England", "France")


def test_two_powers_reach_n_in_the_same_fall_under_both_tie_rules():
    """RULES.md §4: classic — those meeting the condition share the win;
    house — play goes on year by year until exactly one winner remains."""
    counts = {p: 0 for p in POWERS} | {"Austria": 17, "Turkey": 17}
    shared = check_victory(VictorySettings(solo_centres=17), counts, "W1908A", NOON)
    assert shared.result.winners == ("Austria", "Turkey") and shared.result.shared
    goes_on = check_victory(VictorySettings(solo_centres=17, tie_rule="continue"), counts, "W1908A", NOON)
    assert not goes_on.game_over and goes_on.tie.sides == (("Austria",), ("Turkey",))
    # A year later Turkey has taken one centre from Austria: it alone remains.
    later = check_victory(VictorySettings(solo_centres=17, solo_rule="most", tie_rule="continue"),
                          counts | {"Austria": 16, "Turkey": 18}, "W1909A", NOON)
    assert later.result.kind == "solo" and later.result.winners == ("Turkey",)


def test_wall_clock_end_between_phases_uses_the_last_fall():
    """Classic 三: the time limit passes while Spring 1905 orders are being
    gathered; the position (phase S1905M) still has the counts of Fall 1904."""
    end = datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc)
    settings = VictorySettings(end_at=end)
    counts = {p: 0 for p in POWERS} | {"Germany": 9, "Turkey": 8, "Italy": 7}
    assert not check_victory(settings, counts, "S1905M", end - timedelta(seconds=1)).game_over
    check = check_victory(settings, counts, "S1905M", end + timedelta(hours=3))
    assert check.result.kind == "most_centres_at_time" and check.result.winners == ("Germany",)
    assert check.result.at == end + timedelta(hours=3)
    assert check.result.reason.params["end_at"] == "2025-06-01T12:00:00+00:00"


def test_conditions_due():
    settings = VictorySettings(alliance_centres=18, end_year=1905,
                               end_at=datetime(2025, 6, 1, tzinfo=timezone.utc))
    before = datetime(2025, 5, 1, tzinfo=timezone.utc)
    after = datetime(2025, 7, 1, tzinfo=timezone.utc)
    assert conditions_due(settings, "S1905M", before) == ("solo", "alliance")
    assert conditions_due(settings, "F1905R", before) == ("solo", "alliance")
    assert conditions_due(settings, "W1905A", before) == ("solo", "alliance", "most_centres_at_phase")
    assert conditions_due(settings, "S1903M", after) == ("solo", "alliance", "most_centres_at_time")
    assert conditions_due(VictorySettings(solo_centres=None), "W1905A", after) == ()


@pytest.mark.parametrize("bad", [
    dict(phase="1905W"),
    dict(now=datetime(2025, 3, 1, 12, 0)),
    dict(alliances=[frozenset({"England", "France", "Germany"})]),
    dict(alliances=[frozenset({"England"})]),
    dict(alliances=[frozenset({"England", "Atlantis"})]),
    dict(alliances=[frozenset({"England", "France"}), frozenset({"France", "Germany"})]),
    dict(counts={"England": -1}),
])
def test_bad_input_is_rejected(bad):
    args = dict(phase="W1905A", now=NOON, alliances=[], counts={})
    args.update(bad)
    counts = {p: 3 for p in POWERS} | args["counts"]
    with pytest.raises(ValueError):
        check_victory(VictorySettings(alliance_centres=18), counts, args["phase"], args["now"], args["alliances"])


def test_explicit_survivors_drop_an_alliance_of_an_eliminated_power():
    counts = {p: 0 for p in POWERS} | {"England": 12, "France": 3, "Russia": 10}
    pact = [frozenset({"England", "France"})]
    settings = VictorySettings(alliance_centres=15)
    assert check_victory(settings, counts, "W1907A", NOON, pact).result.kind == "alliance"
    survivors = {"England", "Russia"}
    assert not check_victory(settings, counts, "W1907A", NOON, pact, survivors).game_over


# --- settings -----------------------------------------------------------------

def test_settings_round_trip_and_utc():
    settings = VictorySettings(solo_centres=16, solo_rule="most", alliance_centres=20, end_year=1910,
                               end_at=datetime.fromisoformat("2025-06-01T20:00:00+08:00"),
                               tie_rule="continue", draw_votes="public", draw_members="any")
    assert settings.end_at == datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc)
    data = json.loads(json.dumps(settings.to_dict()))
    assert data["end_at"] == "2025-06-01T12:00:00+00:00"
    assert VictorySettings.from_dict(data) == settings
    assert VictorySettings.from_dict({}) == VictorySettings()


def test_settings_for_map(std_map):
    assert VictorySettings.for_map(std_map).solo_centres == std_map.victory_centres == 18
    assert VictorySettings.for_map(std_map, alliance_centres=20).alliance_centres == 20
    with pytest.raises(ValueError, match="above_map_centres.*total=34"):
        VictorySettings.for_map(std_map, alliance_centres=35)
    from judge.game import Settings
    from judge.game.setting_text import change_settings
    with pytest.raises(ValueError, match="solo 99 is more than"):   # the GM's key (SET solo=99), not the field's
        change_settings(Settings(victory=VictorySettings.for_map(std_map)), ["solo=99"], None).check_map(std_map)


@pytest.mark.parametrize("data", [
    {"tie_rule": "sudden_death"}, {"solo_rule": "first"}, {"solo_centres": 0}, {"end_year": "1905"},
    {"end_at": "2025-06-01T12:00:00"}, {"end_at": "tomorrow"}, {"draw_votes": "open"},
    {"draw_members": "some"}, {"victory": 18}, {"alliance_centres": True},
])
def test_bad_settings_are_rejected(data):
    with pytest.raises(ValueError):
        VictorySettings.from_dict(data)


def test_result_round_trip():
    sides = (("England", "France"),)
    result = VictoryResult("alliance", sides, Reason("alliance", sides=sides, centres=[19], need=18), "W1906A", NOON)
    assert VictoryResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result
    # stored before reasons were codes: an English sentence
    old = dict(result.to_dict(), reason="The alliance of England and France wins.")
    assert VictoryResult.from_dict(old).reason == Reason("alliance", sides=sides)


def test_centre_counts(std_map):
    from judge.rules.position import Position
    counts = centre_counts(Position.start(std_map).sc_owners, std_map.powers)
    assert counts == {"Austria": 3, "England": 3, "France": 3, "Germany": 3, "Italy": 3, "Russia": 4, "Turkey": 3}


# --- alliances ------------------------------------------------------------------

def test_alliance_needs_both_declarations_and_either_may_withdraw():
    """House §4: 联盟是国家之间自愿结成的，只要双方认可即生效; issue 5: ALLY by each,
    either may withdraw (UNALLY) before the condition is met."""
    decl = declare_ally({}, "England", "France", POWERS)
    assert mutual_alliances(decl) == []
    decl = declare_ally(decl, "France", "England", POWERS)
    assert mutual_alliances(decl) == [frozenset({"England", "France"})]
    assert mutual_alliances(withdraw_ally(decl, "France")) == []


def test_no_alliance_has_three_members():
    decl = declare_ally({}, "England", "France", POWERS)
    decl = declare_ally(decl, "France", "England", POWERS)
    decl = declare_ally(decl, "Germany", "France", POWERS)   # France has one ally: no three-way
    assert mutual_alliances(decl) == [frozenset({"England", "France"})]
    decl = declare_ally(decl, "France", "Germany", POWERS)   # France switches: England is left
    assert mutual_alliances(decl) == [frozenset({"France", "Germany"})]


def test_bad_alliance_declarations():
    with pytest.raises(ValueError, match="ally_self"):
        declare_ally({}, "England", "England", POWERS)
    with pytest.raises(ValueError, match="not_surviving"):
        declare_ally({}, "England", "Italy", {"England", "France"})


# --- draws and concessions ----------------------------------------------------------

SURVIVORS = ("England", "France", "Russia")


def test_draw_of_all_survivors_passes_when_everyone_votes():
    settings = VictorySettings()
    votes = EndVotes()
    for power in ("England", "France"):
        votes = vote_draw(votes, settings, power, SURVIVORS)
    assert tally_votes(votes, SURVIVORS, "S1910M", NOON) is None
    votes = vote_draw(votes, settings, "Russia", SURVIVORS)
    result = tally_votes(votes, SURVIVORS, "S1910M", NOON)
    assert result.kind == "draw" and result.winners == SURVIVORS and result.sides == (SURVIVORS,)
    assert result.reason == Reason("draw", sides=[SURVIVORS])


def test_nodraw_withdraws_a_vote():
    settings = VictorySettings()
    votes = EndVotes()
    for power in SURVIVORS:
        votes = vote_draw(votes, settings, power, SURVIVORS)
    votes = withdraw_draw(votes, "France")
    assert tally_votes(votes, SURVIVORS, "S1910M", NOON) is None


def test_draw_must_include_every_survivor_by_default():
    with pytest.raises(ValueError, match="draw_all_survivors"):
        vote_draw(EndVotes(), VictorySettings(), "England", SURVIVORS, {"England", "France"})


def test_draw_of_a_subset_when_the_game_allows_it():
    settings = VictorySettings(draw_members="any")
    votes = EndVotes()
    for power in ("England", "France"):
        votes = vote_draw(votes, settings, power, SURVIVORS, {"England", "France"})
    votes = vote_draw(votes, settings, "Russia", SURVIVORS)   # Russia wants all three in
    assert tally_votes(votes, SURVIVORS, "S1910M", NOON) is None
    votes = vote_draw(votes, settings, "Russia", SURVIVORS, {"France", "England"})
    result = tally_votes(votes, SURVIVORS, "S1910M", NOON)
    assert result.kind == "draw" and result.winners == ("England", "France")


@pytest.mark.parametrize("voter,members,match", [
    ("Italy", None, "not_surviving.*voter"),
    ("England", {"England", "Italy"}, "not_surviving.*draw_member"),
    ("England", {"England"}, "draw_too_small"),
])
def test_bad_draw_votes(voter, members, match):
    with pytest.raises(ValueError, match=match):
        vote_draw(EndVotes(), VictorySettings(draw_members="any"), voter, SURVIVORS, members)


def test_concession_passes_when_all_others_concede():
    votes = vote_concede(EndVotes(), "England", "Russia", SURVIVORS)
    assert tally_votes(votes, SURVIVORS, "S1910M", NOON) is None
    votes = vote_concede(votes, "France", "Russia", SURVIVORS)
    result = tally_votes(votes, SURVIVORS, "S1910M", NOON)
    assert result.kind == "concession" and result.sides == (("Russia",),)
    assert tally_votes(withdraw_concession(votes, "France"), SURVIVORS, "S1910M", NOON) is None
    with pytest.raises(ValueError, match="concede_self"):
        vote_concede(votes, "Russia", "Russia", SURVIVORS)
    with pytest.raises(ValueError, match="not_surviving"):
        vote_concede(votes, "Russia", "Italy", SURVIVORS)


def test_votes_of_eliminated_powers_are_ignored_and_votes_expire():
    settings = VictorySettings()
    votes = EndVotes()
    for power in SURVIVORS:
        votes = vote_draw(votes, settings, power, SURVIVORS)
    # Russia was eliminated at the adjudication: the old draw (with Russia) no longer passes.
    assert tally_votes(votes, ("England", "France"), "W1910A", NOON) is None
    assert expire_votes() == EndVotes()


def test_secret_and_public_votes():
    votes = vote_draw(EndVotes(), VictorySettings(), "England", SURVIVORS)
    votes = vote_concede(votes, "France", "Russia", SURVIVORS)
    secret, public = VictorySettings(), VictorySettings(draw_votes="public")
    assert visible_votes(votes, secret, "France") == {"draw": {}, "concede": {"France": "Russia"}}
    assert visible_votes(votes, secret) == visible_votes(votes, public, "Russia") == {
        "draw": {"England": ["England", "France", "Russia"]}, "concede": {"France": "Russia"}}
    assert EndVotes.from_dict(json.loads(json.dumps(votes.to_dict()))) == votes


@pytest.mark.parametrize("data", [
    {"kind": "victory", "sides": [["Russia"]], "reason": "", "phase": "W1907A", "at": "2025-03-01T12:00:00+00:00"},
    {"kind": "solo", "sides": [], "reason": "", "phase": "W1907A", "at": "2025-03-01T12:00:00+00:00"},
    {"kind": "solo", "sides": [[]], "reason": "", "phase": "W1907A", "at": "2025-03-01T12:00:00+00:00"},
    {"kind": "solo", "sides": [["Russia"]], "reason": "", "phase": "W1907A", "at": "2025-03-01T12:00:00"},
])
def test_bad_results_are_rejected(data):
    with pytest.raises(ValueError):
        VictoryResult.from_dict(data)
