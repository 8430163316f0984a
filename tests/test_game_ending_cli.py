"""``judge game set|ally|unally|draw|nodraw|concede|vote|passive|award|end|check|scores``:
the GM's end-of-game tools on the command line (issue 5 §6)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from judge.cli import main
from judge.storage import Store, load_game


@pytest.fixture
def data(tmp_path):
    return str(tmp_path / "var")


def judge(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def stored(data, name="g"):
    return load_game(Store(f"{data}/store"), name)


def test_new_with_victory_and_scoring_flags(capsys, data):
    rc, out, _ = judge(capsys, "game", "new", "g", "--solo", "16", "--solo-rule", "most", "--alliance", "18",
                       "--end-year", "1905", "--end-at", "2027-01-01T00:00", "--tz", "Asia/Shanghai",
                       "--tie", "continue", "--scoring", "house", "--draw-votes", "public",
                       "--awards", "vote", "--data", data)
    assert rc == 0 and "Ends by: solo=16, solo_rule=most, alliance=18, end_year=1905" in out
    v = stored(data).settings.victory
    assert (v.solo_centres, v.solo_rule, v.alliance_centres, v.end_year, v.tie_rule, v.draw_votes) == \
        (16, "most", 18, 1905, "continue", "public")
    assert v.end_at == datetime(2026, 12, 31, 16, 0, tzinfo=timezone.utc)
    assert stored(data).settings.scoring.awards == "vote"
    rc, out, _ = judge(capsys, "game", "new", "plain", "--data", data)      # no flag: the defaults named
    assert rc == 0 and "Ends by: solo=18." in out
    rc, out, _ = judge(capsys, "game", "new", "open", "--solo", "none", "--data", data)
    assert rc == 0 and "Ends by: no victory condition: the GM's END." in out
    rc, _, err = judge(capsys, "game", "new", "h", "--solo", "40", "--data", data)
    assert rc == 2 and "more than the map's 34 supply centres" in err and stored(data, "h") is None


def test_set_changes_and_lists_settings(capsys, data):
    judge(capsys, "game", "new", "g", "--data", data)
    rc, out, _ = judge(capsys, "game", "set", "g", "solo=none", "end-year=1910", "scoring=dss", "--data", data)
    assert rc == 0 and "solo=none" in out.splitlines() and "scoring=dss" in out.splitlines()
    s = stored(data).settings
    assert s.victory.solo_centres is None and s.victory.end_year == 1910 and s.scoring.system == "dss"
    rc, _, err = judge(capsys, "game", "set", "g", "end_year=1912", "tie=maybe", "--data", data)
    assert rc == 2 and "tie=maybe" in err
    assert stored(data).settings.victory.end_year == 1910          # nothing changed
    rc, out, _ = judge(capsys, "game", "set", "g", "--data", data)
    assert rc == 0 and "end_year=1910" in out


def test_alliances_votes_and_a_concession_end_the_game(capsys, data):
    judge(capsys, "game", "new", "g", "--alliance", "18", "--awards", "vote", "--data", data)
    rc, out, _ = judge(capsys, "game", "ally", "g", "England", "France", "--data", data)
    assert rc == 0 and "stands once France declares England" in out
    rc, out, _ = judge(capsys, "game", "ally", "g", "法国", "英国", "--data", data)
    assert rc == 0 and "France and England are allied." in out
    rc, out, _ = judge(capsys, "game", "unally", "g", "england", "--data", data)
    assert rc == 0 and "England withdrew its alliance with France." in out
    rc, out, _ = judge(capsys, "game", "draw", "g", "Austria", "--data", data)
    assert rc == 0 and "Austria voted for a draw." in out
    rc, out, _ = judge(capsys, "game", "nodraw", "g", "Austria", "--data", data)
    assert rc == 0
    rc, _, err = judge(capsys, "game", "nodraw", "g", "Austria", "--data", data)
    assert rc == 2 and "Austria has not voted for a draw" in err
    rc, out, _ = judge(capsys, "game", "scores", "g", "--data", data)
    assert rc == 0 and "Game g is running" in out and "France -> England; in force: none" in out
    for p in ("Austria", "England", "France", "Germany", "Italy"):
        rc, out, _ = judge(capsys, "game", "concede", "g", p, "Russia", "--data", data)
        assert rc == 0 and "Game g is over" not in out
    rc, out, _ = judge(capsys, "game", "concede", "g", "Turkey", "Russia", "--data", data)
    assert rc == 0 and "conceded the game to Russia" in out and "Game g is over" in out
    assert "Russia: 4 SCs, 14 points, 2000k coins" in out
    rc, _, err = judge(capsys, "game", "process", "g", "--data", data)
    assert rc == 2 and "is over" in err
    rc, out, _ = judge(capsys, "game", "vote", "g", "Austria", "strategy", "Russia", "--data", data)
    assert rc == 0 and "Austria voted for Russia" in out
    rc, _, err = judge(capsys, "game", "vote", "g", "Russia", "diplomacy", "Russia", "--data", data)
    assert rc == 2 and "may not vote for itself" in err
    rc, _, err = judge(capsys, "game", "award", "g", "diplomacy", "Turkey", "--data", data)
    assert rc == 2 and "once the vote has closed" in err          # the leaders' vote is open
    rc, out, _ = judge(capsys, "game", "award", "g", "close", "--data", data)
    assert rc == 0 and "The award vote is closed" in out
    rc, out, _ = judge(capsys, "game", "award", "g", "diplomacy", "Turkey", "--data", data)
    assert rc == 0
    rc, out, _ = judge(capsys, "game", "passive", "g", "Italy", "4", "--data", data)
    assert rc == 0 and "Italy ruled passive, fined 4 points. Phases without orders: none." in out
    rc, out, _ = judge(capsys, "game", "scores", "g", "--lang", "zh-hans", "--data", data)
    assert rc == 0 and "最佳战略奖：俄国" in out and "最佳外交奖：土耳其（由GM决定）" in out
    assert "意大利：3个资源点，-4分，0k币" in out
    game = stored(data)
    assert game.finished and game.ending.passive == {"Italy": 4}


def test_check_ends_a_game_whose_time_is_up_and_end_draws(capsys, data):
    judge(capsys, "game", "new", "g", "--data", data)
    rc, out, _ = judge(capsys, "game", "check", "g", "--data", data)
    assert rc == 0 and "goes on" in out
    judge(capsys, "game", "set", "g", "end_at=2020-01-01T00:00Z", "--data", data)
    rc, out, _ = judge(capsys, "game", "check", "g", "--data", data)
    assert rc == 0 and "Russia has the most supply centres (4)" in out and "Game g is over" in out
    judge(capsys, "game", "new", "h", "--scoring", "dss", "--data", data)
    rc, out, _ = judge(capsys, "game", "end", "h", "--members", "England", "France", "--data", data)
    assert rc == 0 and "drawn between England and France" in out and "France: 3 SCs, 50 points" in out
    rc, _, err = judge(capsys, "game", "passive", "h", "Italy", "3", "--data", data)
    assert rc == 2 and "belong to the house scoring" in err


def test_process_prints_the_final_report_when_the_game_ends(capsys, data):
    judge(capsys, "game", "new", "g", "--end-year", "1901", "--data", data)
    rc, out, _ = judge(capsys, "game", "process", "g", "--data", data)
    assert rc == 0 and "Game g is over" not in out
    rc, out, _ = judge(capsys, "game", "process", "g", "--data", data)
    assert rc == 0 and "Next phase:" not in out and "Game over" in out
    assert "The game ended after Fall 1901; Russia has the most supply centres (4) and wins." in out
    rc, out, _ = judge(capsys, "game", "scores", "g", "--lang", "zh-hant", "--tz", "Asia/Taipei", "--data", data)
    assert rc == 0 and "遊戲在1901年秋季後結束；俄國擁有最多的資源點（4個），獨立獲勝。" in out
