"""One record per verb (issue 22): the command line's GM and end-of-game
subcommands are derived from the verbs' records, and run the very verbs the
mail runs — same checks, same refusals."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from judge.cli import main
from judge.commands.game_verbs import OWN_PARSERS, derived
from judge.storage import Store, load_game
from judge.verbs.registry import BY_CLI, VERBS, read_command


def judge(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture
def data(tmp_path, capsys):
    data = str(tmp_path / "var")
    assert main(["game", "new", "g", "--data", data]) == 0
    assert main(["game", "gm", "g", "start", "--data", data]) == 0
    capsys.readouterr()
    return data


def test_every_verb_with_a_command_line_name_is_a_subcommand(capsys):
    """``judge game VERB`` and ``judge game gm NAME VERB`` for each record
    with a ``cli`` name; nothing else is one."""
    named = {v.cli for v in VERBS if v.cli} - set(OWN_PARSERS)
    assert {v.cli for v in derived()} == named and set(BY_CLI) >= named
    with pytest.raises(SystemExit):
        main(["game", "gm", "--help"])
    text = capsys.readouterr().out
    assert all(f"  {name}" in text for name in named)
    with pytest.raises(SystemExit):
        main(["game", "gm", "g", "fly", "--data", "x"])
    assert "invalid choice: 'fly'" in capsys.readouterr().err


def test_the_judgekeepers_verbs_have_no_words_a_mail_could_send():
    for verb in VERBS:
        if verb.who == "keeper":
            assert not (verb.en or verb.zh or verb.veterans), verb.name
    assert read_command("CHECK g") is None
    assert read_command("STATUS").name == "standing"       # DPjudge's STATUS by mail: the player's own, not the keeper's


def test_a_players_verbs_for_a_power(capsys, data):
    assert judge(capsys, "game", "gm", "g", "wait", "France", "--data", data)[:2] == (0, "WAIT: France.\n")
    assert judge(capsys, "game", "wait", "g", "德国", "--data", data)[:2] == (0, "WAIT: France, Germany.\n")
    assert judge(capsys, "game", "nowait", "g", "France", "--data", data)[:2] == (0, "WAIT: Germany.\n")
    # a date within a year of the judgekeeper's clock (farther is refused: issue 19 point 10)
    start = (datetime.now(timezone.utc) + timedelta(days=30)).date()
    rc, out, _ = judge(capsys, "game", "gm", "g", "absence", "Italy", "FROM", start.isoformat(), "TO",
                       (start + timedelta(days=3)).isoformat(), "--data", data)
    assert rc == 0 and out == "Absence recorded.\n"
    game = load_game(Store(f"{data}/store"), "g")
    assert game.schedule.wait == {"Germany"} and "Italy" in game.schedule.absences
    rc, _, err = judge(capsys, "game", "wait", "g", "--data", data)
    assert rc == 2 and "name the power" in err


def test_the_command_line_refuses_as_the_mail_does_and_changes_nothing(capsys, data):
    """The same verb, the same reason: the mail says it in the reader's
    words (``refused: ...``), the command line in English."""
    from judge.text import english
    before = load_game(Store(f"{data}/store"), "g").schedule
    rc, out, err = judge(capsys, "game", "gm", "g", "extend", "0h", "--data", data)
    assert rc == 2 and out == "" and err.startswith("judge game: ")
    from judge.game import GameError
    assert english(GameError("extend_hours")) in err
    rc, _, err = judge(capsys, "game", "set", "g", "solo=40", "--data", data)
    assert rc == 2 and "more than the map's 34 supply centres" in err
    rc, _, err = judge(capsys, "game", "gm", "g", "deadline", "someday", "--data", data)
    assert rc == 2 and 'cannot read the date "someday"' in err
    assert load_game(Store(f"{data}/store"), "g").schedule == before
    rc, out, _ = judge(capsys, "game", "extend", "g", "--data", data)          # EXTEND alone: 24 hours
    assert rc == 0 and out.startswith("Deadline: ")
    assert load_game(Store(f"{data}/store"), "g").schedule.deadline > before.deadline


def test_a_question_reads_the_store_without_the_writer(capsys, data, monkeypatch):
    import judge.commands.submit as submit
    monkeypatch.setattr(submit, "submit", lambda *a: pytest.fail("a question went to the writer"))
    rc, out, _ = judge(capsys, "game", "status", "g", "--data", data)
    assert rc == 0 and "state: running" in out
    rc, _, err = judge(capsys, "game", "gm", "nosuch", "status", "--data", data)
    assert rc == 2 and "no game named nosuch" in err
