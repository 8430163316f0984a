"""``judge game new|orders|process|show``: a GM runs a game without mail."""

from __future__ import annotations

import io

import pytest

from judge.cli import main
from judge.storage import Store, load_game


@pytest.fixture
def data(tmp_path):
    return str(tmp_path / "var")


def judge(capsys, monkeypatch, *argv, stdin: str | None = None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_a_year_by_hand(capsys, monkeypatch, data, tmp_path):
    rc, out, _ = judge(capsys, monkeypatch, "game", "new", "g1", "--seed", "5", "--data", data)
    assert rc == 0 and "Game g1 created" in out and "seed 5" in out
    rc, out, _ = judge(capsys, monkeypatch, "game", "orders", "g1", "France", "-", "--data", data,
                       stdin="A Par-Bur\nA Mar - Spain\nA Par - Pic\nA Mun-Ber\n")
    assert rc == 1
    assert "A Par - Pic" in out and "(replaces A Par - Bur)" in out
    assert "ERROR: the unit in" in out and "Germany" in out
    assert "Units without orders: bre" in out
    orders = tmp_path / "germany.txt"
    orders.write_text("慕尼黑陆军移动到勃艮第\n", encoding="utf-8")
    rc, out, _ = judge(capsys, monkeypatch, "game", "orders", "g1", "germany", str(orders), "--data", data)
    assert rc == 0 and "A Mun - Bur" in out
    rc, out, _ = judge(capsys, monkeypatch, "game", "process", "g1", "--data", data)
    assert rc == 0 and "Spring 1901 Movement (S1901M)" in out
    assert "France: A Mar - Spa." in out and "Germany: A Mun - Bur." in out
    assert out.rstrip().endswith("Next phase: Fall 1901 Movement (F1901M)")
    rc, out, _ = judge(capsys, monkeypatch, "game", "process", "g1", "--data", data)
    assert "France:   4  Brest, Marseilles, Paris, Spain" in out and "France: builds 1" in out
    rc, out, _ = judge(capsys, monkeypatch, "game", "show", "g1", "--phase", "S1901M", "--data", data)
    assert rc == 0 and "Germany: A Mun - Bur." in out
    game = load_game(Store(tmp_path / "var" / "store"), "g1")
    assert str(game.phase) == "W1901A" and game.seed == 5
    assert [e.text for e in game.history[0].orders["France"]] == ["A Par-Bur", "A Mar - Spain", "A Par - Pic"]


def test_settings_flags_are_stored(capsys, monkeypatch, data, tmp_path):
    rc, _, _ = judge(capsys, monkeypatch, "game", "new", "g2", "--rules", "droidippy", "--combined",
                     "--default-retreat", "house", "--default-disband", "house", "--no-retreat-lists",
                     "--data", data)
    assert rc == 0
    game = load_game(Store(tmp_path / "var" / "store"), "g2")
    s = game.settings
    assert s.rules == "droidippy" and s.house.combined_orders and not s.house.retreat_preferences
    assert s.house.default_retreat == "house" and s.house.default_disband == "house"
    assert s.house.priority_lists


def test_errors(capsys, monkeypatch, data):
    judge(capsys, monkeypatch, "game", "new", "g3", "--data", data)
    rc, _, err = judge(capsys, monkeypatch, "game", "new", "g3", "--data", data)
    assert rc == 2 and "exists already" in err
    rc, _, err = judge(capsys, monkeypatch, "game", "process", "nope", "--data", data)
    assert rc == 2 and "no game named nope" in err
    rc, _, err = judge(capsys, monkeypatch, "game", "show", "g3", "--phase", "F1905M", "--data", data)
    assert rc == 2 and "no adjudicated phase F1905M" in err
    rc, _, err = judge(capsys, monkeypatch, "game", "orders", "g3", "Prussia", "-", "--data", data, stdin="")
    assert rc == 2 and 'no power "Prussia"' in err
    rc, _, err = judge(capsys, monkeypatch, "game", "new", "bad name", "--data", data)
    assert rc == 2 and "not a game name" in err
    rc, out, _ = judge(capsys, monkeypatch, "game", "show", "g3", "--data", data)
    assert rc == 0 and "nothing adjudicated yet" in out


def test_data_dir_from_environment(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGE_DATA", str(tmp_path / "env"))
    rc, _, _ = judge(capsys, monkeypatch, "game", "new", "g4")
    assert rc == 0 and (tmp_path / "env" / "store").exists()


def test_every_command_finds_the_store_judge_serve_uses(capsys, monkeypatch, tmp_path):
    """One data folder: without options every command uses ./judge-data (the
    embedded default of `judge serve`), JUDGE_DATA moves them all, and
    --config FILE takes its [judge] data_dir, as `judge serve --config` does."""
    from judge.config import load_config
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUDGE_DATA", raising=False)
    assert judge(capsys, monkeypatch, "game", "new", "g1")[0] == 0
    assert load_config(None).store_path == tmp_path / "judge-data" / "store"
    assert load_game(Store(tmp_path / "judge-data" / "store"), "g1") is not None
    rc, out, _ = judge(capsys, monkeypatch, "archive", "export", "g1")
    assert rc == 0 and '"g1"' in out
    rc, out, _ = judge(capsys, monkeypatch, "parse", "--game", "g1", stdin="A Par - Bur\n")
    assert rc == 0 and "A Par - Bur" in out
    monkeypatch.setenv("JUDGE_DATA", str(tmp_path / "env"))
    assert load_config(None).data_dir == tmp_path / "env"
    assert judge(capsys, monkeypatch, "game", "new", "g2")[0] == 0
    assert load_game(Store(tmp_path / "env" / "store"), "g2") is not None
    cfg = tmp_path / "judge.toml"
    cfg.write_text('[judge]\ndata_dir = "srv"\n')
    assert load_config(cfg).data_dir == tmp_path / "srv"          # the file's data_dir wins
    assert judge(capsys, monkeypatch, "game", "new", "g3", "--config", str(cfg))[0] == 0
    assert load_game(Store(tmp_path / "srv" / "store"), "g3") is not None
    rc, out, _ = judge(capsys, monkeypatch, "game", "show", "g3", "--config", str(cfg))
    assert rc == 0 and "nothing adjudicated yet" in out
    rc, _, err = judge(capsys, monkeypatch, "game", "show", "g3", "--config", str(tmp_path / "nope.toml"))
    assert rc == 2 and "nope.toml" in err


@pytest.mark.parametrize("argv", [["game", "new"], ["game", "gm"], ["web"], ["archive", "build"],
                                  ["parse"], ["spool"], ["serve"]])
def test_the_data_folder_is_documented_in_each_commands_help(capsys, argv):
    with pytest.raises(SystemExit):
        main(argv + ["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "$JUDGE_DATA" in text and "./judge-data" in text and "--data DIR" in text


def test_a_game_moves_to_another_judges_data_folder(tmp_path, capsys, monkeypatch):
    """`judge game move`: the game, its GM record and its whole history go to
    the other folder (and its indexes), and leave this one; a second move of
    the same name is refused there, and nothing is lost."""
    from judge.game import Game
    from judge.storage import Store, save_gm
    here, there = tmp_path / "here", tmp_path / "there"
    assert main(["game", "new", "mv1", "--seed", "5", "--data", str(here)]) == 0
    assert main(["game", "process", "mv1", "--data", str(here)]) == 0
    with Store(here / "store").transaction() as tx:
        save_gm(tx, "mv1", {"address": "gm@example.org", "password_hash": "x", "language": "en"})
    before = load_game(Store(here / "store"), "mv1")
    list(before.history)                                                 # read it all now
    capsys.readouterr()
    assert main(["game", "move", "mv1", "--to", str(there), "--data", str(here)]) == 0
    out = capsys.readouterr().out
    assert "taken in" in out and "left this judge" in out
    moved, store = load_game(Store(there / "store"), "mv1"), Store(there / "store")
    assert moved == before and isinstance(moved, Game) and len(moved.history) == 1
    assert store.get("gm", "mv1")["address"] == "gm@example.org"
    assert store.get("addresses", "gm@example.org")["games"]["mv1"]["role"] == "gm"
    assert "mv1" in store.all("catalogue")
    old = Store(here / "store")
    assert load_game(old, "mv1") is None and "mv1" not in old.all("catalogue")
    assert old.get("addresses", "gm@example.org") is None
    assert not list((here / "store" / "games" / "mv1").rglob("*.json"))
    assert main(["game", "new", "mv1", "--data", str(here)]) == 0       # the name is free here again
    assert main(["game", "move", "mv1", "--to", str(there), "--data", str(here)]) == 2
    assert "exists here already" in capsys.readouterr().err
    assert load_game(Store(here / "store"), "mv1") is not None           # refused there: kept here


def test_a_command_on_a_folder_without_a_judge_makes_nothing_there(tmp_path, monkeypatch, capsys):
    """`judge game ...` run in the wrong folder says so and leaves no empty
    judge-data behind (only `judge game new` starts a data folder)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUDGE_DATA", raising=False)
    for argv in (["game", "set", "nosuch", "solo=16"], ["game", "gm", "nosuch", "extend", "24h"],
                 ["game", "gm", "nosuch", "status"], ["game", "show", "nosuch"], ["game", "process", "nosuch"]):
        assert main(argv) == 2, argv
        assert "no judge data in" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
