"""The JSON export (issue 6 §3): every phase's position, orders, results and
SC ownership; replaying its orders through the rules core reproduces every
position in it, for the self-made game and for real droidippy games."""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stdout
from datetime import timedelta

import pytest

from browser.sample import SAMPLE_PHASES, SHARED, T0, droidippy_game, sample_game
from judge.archive import check_export, export_game, game_from_record
from judge.cli import main
from judge.game import Game, HouseRules, Player, Settings
from judge.game.codec import position_from_dict
from judge.maps import load_map
from judge.replay import read_record
from judge.rules.orders import Build, Move, Support
from judge.storage import Store, load_game, save_game


def exported(game) -> dict:
    return json.loads(json.dumps(export_game(game), ensure_ascii=False))   # as a client reads it


def test_export_has_every_phase_with_orders_results_and_ownership():
    data = exported(sample_game())
    assert data["format"] == "judge-archive/1" and data["game"] == "sample" and data["rules"] == "datc"
    assert [p["phase"] for p in data["phases"]] == list(SAMPLE_PHASES[:-1])
    assert data["current"]["phase"] == SAMPLE_PHASES[-1]
    s1901 = data["phases"][0]
    assert s1901["title"] == "Spring 1901 Movement"
    assert s1901["position"]["units"]["par"] == ["France", "A", "par"]
    assert s1901["position_after"]["units"]["bur"] == ["France", "A", "bur"]
    germany = s1901["orders"]["Germany"]
    assert germany[0]["text"] == "慕尼黑陆军移动到鲁尔" and germany[0]["canonical"] == "A Mun - Ruh"
    assert germany[0]["order"] == {"type": "Move", "unit_type": "A", "location": "mun",
                                   "destination": "ruh", "via_convoy": False, "route": []}
    france = s1901["orders"]["France"]
    assert [(e["canonical"], e["replaced"]) for e in france[:2]] == [("A Par - Pic", True), ("A Par - Bur", False)]
    bounced = [r for r in s1901["results"] if r["canonical"] == "A Vie - Gal"]
    assert bounced == [{"power": "Austria", "order": bounced[0]["order"], "canonical": "A Vie - Gal",
                        "outcome": "fails", "reason": {"code": "bounced"}, "dislodged": False, "destroyed": False}]
    f1901 = data["phases"][1]
    assert f1901["position_after"]["dislodged"]["bur"]["unit"] == ["France", "A", "bur"]
    w1901 = data["phases"][3]
    assert w1901["sc_counts"] == {"Austria": 3, "England": 4, "France": 4, "Germany": 4, "Italy": 3,
                                  "Russia": 4, "Turkey": 3}
    assert w1901["position_after"]["sc_owners"]["nwy"] == "England"


def test_export_keeps_secrets_out():
    game = sample_game()
    game.players["France"] = Player(("francois@example.org",), "hash:xyz", "en")
    game.submit("France", [Move("A", "bel", "hol")], game.history[-1].processed_at)   # secret still
    text = json.dumps(export_game(game), ensure_ascii=False)
    assert "francois@example.org" not in text and "hash:xyz" not in text
    assert json.loads(text)["players"] == {"Austria": "", "England": "", "France": "fr…@example.org",
                                           "Germany": "ge…@example.de", "Italy": "", "Russia": "",
                                           "Turkey": ""}
    assert game.orders["France"] and "orders" not in json.loads(text)["current"]


def test_a_running_game_has_no_result_and_no_scores():
    data = exported(sample_game())
    assert data["result"] is None and data["scores"] is None


def test_a_finished_game_exports_its_result_and_scores():
    """RULES.md §4-5: a draw the players voted, scored by draw size."""
    game = Game.create("drawn", now=T0, seed=1, settings=Settings.from_dict({"scoring": {"system": "dss"}}))
    game.process(T0 + timedelta(days=1))
    for power in game.survivors():
        game.draw(power, T0 + timedelta(days=2))
    data = exported(game)
    assert data["result"] == {
        "kind": "draw", "sides": [list(game.map.powers)], "winners": sorted(game.map.powers),
        "shared": False, "reason": data["result"]["reason"], "phase": "F1901M",
        "at": "2025-03-03T12:00:00+00:00"}
    assert data["current"]["phase"] == data["result"]["phase"]
    assert set(data["scores"]) == set(game.map.powers)
    assert data["scores"]["France"]["points"] == pytest.approx(100 / 7)
    assert data["scores"]["France"]["items"][0]["code"] == "share"
    assert check_export(data) == []
    assert json.dumps(export_game(game)) == json.dumps(export_game(Game.from_dict(game.to_dict())))  # stable
    wrong = copy.deepcopy(data)
    wrong["result"]["phase"] = "S1901M"
    assert check_export(wrong) == ["F1901M: the result says the game ended in S1901M"]


def test_replaying_the_export_reproduces_every_position():
    assert check_export(exported(sample_game())) == []


def test_house_rule_game_with_random_choices_round_trips():
    """Combined-order mode (RULES.md §3.5) with the GM's random default retreat
    (§3.3): the judge's own orders are in the export, so the replay agrees."""
    g = Game.create("house", now=T0, seed=5, settings=Settings(house=HouseRules(
        combined_orders=True, default_retreat="house", default_disband="house")))
    g.submit("France", [Move("A", "par", "bur"), Move("A", "mar", "spa")], T0)
    g.submit("Germany", [Move("A", "mun", "ruh"), Move("A", "ber", "mun"), Move("F", "kie", "hol")], T0)
    g.process(T0 + timedelta(days=1))
    g.submit("Germany", [Move("A", "ruh", "bur"), Support("A", "mun", "A", "ruh", "bur"), Build("A", "kie")],
             T0 + timedelta(days=2))
    g.process(T0 + timedelta(days=3))
    data = exported(g)
    assert [(p["phase"], p["random_seed"]) for p in data["phases"]] == [
        ("S1901M", None), ("F1901M", None), ("F1901R", "5:F1901R"), ("W1901A", None)]
    retreat = data["phases"][2]["orders"]["France"]
    assert [(e["source"], e["order"]["type"]) for e in retreat] == [("default", "Retreat")]
    assert check_export(data) == []


def test_a_changed_order_in_the_export_is_found():
    data = exported(sample_game())
    wrong = copy.deepcopy(data)
    support = next(e for e in wrong["phases"][1]["orders"]["Germany"] if e["order"]["type"] == "Support")
    support["order"]["destination"] = "kie"            # the support no longer helps into Burgundy
    diffs = check_export(wrong)
    assert diffs and diffs[0].startswith("F1901M: position after the phase (F1901R) differs")
    moved = copy.deepcopy(data)
    moved["phases"][2]["position"]["units"]["par"] = ["France", "A", "par"]
    assert check_export(moved) == [      # the extra army is then carried into the replay of F1901R
        "F1901R: position before the phase (F1901R) differs from the replay (F1901R)",
        "F1901R: position after the phase (W1901A) differs from the replay (W1901A)"]
    with pytest.raises(ValueError, match="not a judge-archive/1 export"):
        check_export({"format": "other"})


def test_droidippy_game_export_reproduces_every_position_of_the_record():
    game = droidippy_game()
    data = exported(game)
    assert check_export(data) == []
    record = read_record(SHARED / "games" / "droidippy" / "game_2934.txt", load_map("standard"))
    exported_positions = [p["position"] for p in data["phases"]] + [data["current"]["position"]]
    assert [p["phase"] for p in exported_positions] == [ph.name for ph in record.phases]
    for pos, phase in zip(exported_positions, record.phases):
        pos = position_from_dict(pos)
        assert pos.units == phase.state.units, phase.name
        assert pos.sc_owners == phase.state.sc_owners, phase.name
        assert {p: d.unit for p, d in pos.dislodged.items()} == \
            {p: d.unit for p, d in phase.state.dislodged.items()}, phase.name


def test_every_droidippy_game_plays_through_and_exports_faithfully():
    folder = SHARED / "games" / "droidippy"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent (the read-only reference folder next to the repository)")
    game_map = load_map("standard")
    for path in sorted(folder.glob("*.txt")):
        record = read_record(path, game_map)
        game = game_from_record(record, "g")
        final = record.phases[-1]
        assert game.position.phase == final.name and game.position.units == final.state.units, path.name
        assert game.position.sc_owners == final.state.sc_owners, path.name
        assert check_export(exported(game)) == [], path.name


def test_judge_archive_export_prints_the_export(tmp_path):
    store = Store(tmp_path / "store")
    with store.transaction() as tx:
        save_game(tx, sample_game())
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["archive", "export", "sample", "--data", str(tmp_path)]) == 0
    assert json.loads(out.getvalue()) == exported(load_game(store, "sample"))
    assert main(["archive", "export", "nosuch", "--data", str(tmp_path)]) == 1


def test_judge_archive_import_stores_a_recorded_game(tmp_path, capsys):
    path = SHARED / "games" / "droidippy" / "game_2934.txt"
    if not path.is_file():
        pytest.skip(f"{path} is absent (the read-only reference folder next to the repository)")
    assert main(["archive", "import", str(path), "g2934", "--data", str(tmp_path)]) == 0
    assert "g2934: 11 phases, now S1904M" in capsys.readouterr().out
    game = load_game(Store(tmp_path / "store"), "g2934")
    assert game.settings.rules == "droidippy" and len(game.history) == 11
    assert main(["archive", "import", str(path), "g2934", "--data", str(tmp_path)]) == 1
    assert "exists already" in capsys.readouterr().err
