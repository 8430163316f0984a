"""The commands njudge's and DPjudge's users type (issue 22), each by mail as
those judges' user documentation writes it: the common ones do what those
docs say (the README's table, "Commands of other judges"), the rare ones are
answered with this judge's way and change nothing, and nothing a veteran
writes is misread in a way that changes the game. Also SET MAP, and where
things stand at the end of every answer about a game."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from mailjudge import GM, POWERS, T0, UTC, Judge, addr, started, to

F, I, G = addr("France"), addr("Italy"), addr("Germany")


@pytest.fixture
def judge(tmp_path):
    return started(tmp_path, "CREATE g gmsecret grace=1d reminders=none")


def answer(judge, frm: str, body: str) -> str:
    return to(judge.mail(frm, body))[frm][0]


def orders_of(judge, power: str) -> list[str]:
    return [e["text"] for e in judge.game()["orders"].get(power, ()) if not e["replaced"]]


# ---- signing on and joining -------------------------------------------------------------
@pytest.mark.parametrize("line", ["SIGNON france@g pw-france", "SIGNON Fg pw-france", "SIGN ON france@g pw-france"])
def test_signon_forms_of_dpjudge_and_njudge(judge, line):
    text = answer(judge, "other@example.net", f"{line}\nA Par - Bur\n")
    assert 'Signed on to game "g" as France.' in text
    assert orders_of(judge, "France") == ["A Par - Bur"]


def test_signon_question_mark_joins_a_forming_game_and_signon_question_mark_lists(tmp_path):
    judge = Judge(tmp_path)
    judge.mail(GM, "CREATE g gmsecret\n")
    text = answer(judge, F, "SIGNON ?g pw-france\n")
    assert 'You joined game "g" as Austria.' in text          # njudge: any free power
    text = answer(judge, I, "SIGN ON ?\n")
    assert "Games open to join: g." in text


def test_create_question_mark(tmp_path):
    judge = Judge(tmp_path)
    text = answer(judge, GM, "CREATE ?g gmsecret\n")
    assert 'Game "g" created; you are its GM.' in text and judge.game() is not None


@pytest.mark.parametrize("verb", ["JOIN", "TAKEOVER"])
def test_join_and_takeover_power_at_game(tmp_path, verb):
    judge = Judge(tmp_path)
    judge.mail(GM, "CREATE g gmsecret\n")
    text = answer(judge, I, f"{verb} italy@g pw-italy\n")
    assert 'You joined game "g" as Italy.' in text
    assert "pw-italy" not in text


def test_takeover_of_a_power_the_gm_opened(judge):
    judge.mail(GM, "SIGNON g gmsecret\nEJECT Italy\nREPLACE Italy newpass\n")
    text = answer(judge, "new@example.net", "TAKEOVER italy@g newpass\n")
    assert 'You joined game "g" as Italy.' in text
    assert "new@example.net" in judge.game()["players"]["Italy"]["addresses"]


@pytest.mark.parametrize("line", ["OBSERVE x@g", "WATCH g"])
def test_observe_forms(judge, line):
    answer(judge, "fan@example.net", f"{line}\n")
    assert "fan@example.net" in judge.game()["observers"]


def test_resign_power_at_game(judge):
    text = answer(judge, F, "RESIGN france@g pw-france\n")
    assert "France" in text and judge.game()["players"]["France"]["addresses"] == []


def test_join_and_signoff_on_one_line_and_in_one_mail(tmp_path):
    judge = Judge(tmp_path)
    judge.mail(GM, "CREATE g gmsecret\n")
    text = answer(judge, F, "JOIN g pw-france France SIGNOFF\nA Par - Bur\n")
    assert 'You joined game "g" as France.' in text and "Signed off" in text
    assert orders_of(judge, "France") == []                  # nothing after SIGNOFF is read
    text = answer(judge, I, "JOIN g pw-italy Italy\nA Rom - Apu\nSIGNOFF\nA Ven - Tyr\n")
    assert 'You joined game "g" as Italy.' in text and orders_of(judge, "Italy") == ["A Rom - Apu"]


# ---- votes, waits, absences -------------------------------------------------------------
def test_set_draw_and_set_no_draw(judge):
    text = answer(judge, F, "SIGNON g pw-france\nSET DRAW\n")
    assert "France votes for a draw." in text
    assert "The vote stands at 1 of 7 surviving powers for a draw" in text
    assert "lasts until this phase is adjudicated: send it again in the next phase to keep it." in text
    assert "France" in judge.game()["ending"]["votes"]["draw"]
    for line in ("SET NO DRAW", "SET NODRAW"):
        answer(judge, F, "SIGNON g pw-france\nSET DRAW\n")
        text = answer(judge, F, f"SIGNON g pw-france\n{line}\n")
        assert "France withdraws its draw vote." in text
        assert "France" not in judge.game()["ending"]["votes"]["draw"]


def test_set_concede_and_set_noconcede(judge):
    answer(judge, F, "SIGNON g pw-france\nSET CONCEDE Germany\n")
    assert judge.game()["ending"]["votes"]["concede"] == {"France": "Germany"}
    answer(judge, F, "SIGNON g pw-france\nSET NO CONCEDE\n")
    assert judge.game()["ending"]["votes"]["concede"] == {}


@pytest.mark.parametrize("line,wait", [("SET WAIT", True), ("SET NOWAIT", False), ("SET NO WAIT", False)])
def test_set_wait_forms(judge, line, wait):
    if not wait:
        answer(judge, F, "SIGNON g pw-france\nSET WAIT\n")
    answer(judge, F, f"SIGNON g pw-france\n{line}\n")
    assert ("France" in judge.game()["schedule"]["wait"]) is wait


def test_absence_in_njudge_dates_and_noabsence(judge):
    text = answer(judge, F, "SIGNON g pw-france\nSET ABSENCE FROM Jan 7 2025 TO Fri Jan 10\n")
    assert 'Absence of France in game "g" recorded' in text
    assert judge.game()["schedule"]["absences"]["France"]
    text = answer(judge, F, "SIGNON g pw-france\nSET NOABSENCE\n")
    assert 'Absences of France in game "g" withdrawn: 1' in text
    assert "France" not in judge.game()["schedule"]["absences"]
    answer(judge, F, "SIGNON g pw-france\nSET HOLIDAY FROM 2025-01-07 TO 2025-01-09\n")
    assert judge.game()["schedule"]["absences"]["France"]


def test_set_deadline_and_process_in_njudge_words(judge):
    text = answer(judge, GM, "SIGNON g gmsecret\nSET DEADLINE Mon Jan 13 2025 20:00\n")
    assert judge.game()["schedule"]["deadline"] == datetime(2025, 1, 13, 20, tzinfo=UTC).isoformat()
    text = answer(judge, GM, "SIGNON g gmsecret\nPROCESS Spring 1901 Movement\n")
    assert "S1901M adjudicated" in text
    text = answer(judge, GM, "SIGNON g gmsecret\nPROCESS Spring 1901 Movement\n")
    assert "refused" in text and judge.game()["position"]["phase"] == "F1901M"


def test_history_from_in_njudge_phase_words(judge):
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    text = answer(judge, "fan@example.net", "HISTORY g FROM Spring 1901 Movement TO Spring 1901 Movement\n")
    assert "S1901M" in text and "Error" not in text


# ---- orders: CLEAR, STATUS, comments, PHASE ---------------------------------------------
def test_clear_and_status(judge):
    answer(judge, F, "SIGNON g pw-france\nA Par - Bur\nF Bre - Mid\n")
    text = answer(judge, F, "SIGNON g pw-france\nSTATUS\n")
    assert "> STATUS" in text and "A Par - Bur" in text and "Units still without orders: A Mar." in text
    assert "No order of this mail was taken." not in text
    text = answer(judge, F, "SIGNON g pw-france\nCLEAR\n")
    assert "Every order of France for this phase is withdrawn (CLEAR)." in text
    assert orders_of(judge, "France") == []
    text = answer(judge, "fan@example.net", "STATUS g\n")
    assert 'Game "g": Spring 1901 Movement (S1901M)' in text


def test_comment_lines_are_not_orders(judge):
    answer(judge, F, "SIGNON g pw-france\n// A Par - Pic\nA Par - Bur\n  // F Bre - Eng\n")
    assert orders_of(judge, "France") == ["A Par - Bur"]


def test_endbroadcast_ends_the_broadcast_and_the_orders_after_it_are_orders(judge):
    out = to(judge.mail(F, "SIGNON g pw-france\nBROADCAST\nHello all.\nENDBROADCAST\nA Par - Bur\n"))
    assert orders_of(judge, "France") == ["A Par - Bur"]
    assert all("A Par - Bur" not in text for a, texts in out.items() if a != F for text in texts)


def test_a_press_block_ends_at_signoff(judge):
    out = to(judge.mail(F, "SIGNON g pw-france\nPRESS TO Italy\nHello.\nSIGNOFF\nA Par - Bur\n"))
    assert "Signed off" in out[F][0] and orders_of(judge, "France") == []
    assert "A Par - Bur" not in out[I][0]


def test_phase_orders_are_kept_and_applied_when_the_phase_opens(judge):
    text = answer(judge, F, "SIGNON g pw-france\nA Par - Bur\nPHASE Fall 1901 Movement\nA Bur - Mun\n"
                            "F Bre - Mid\nA Mar - Xyz\nA Par - Pic\n")
    assert orders_of(judge, "France") == ["A Par - Bur"]        # the current phase's only
    assert "Kept for Fall 1901 Movement (F1901M), not for the current phase S1901M: 3 line(s)" in text
    assert 'not understood: "xyz"' in text
    out = to(judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n"))
    note = next(t for t in out[F] if "in advance (PHASE)" in t)
    assert "Game 'g' is now at Fall 1901 Movement (F1901M)" in note
    assert "Taken:\n  A Bur - Mun\n  F Bre - Mao" in note
    assert "Refused (no longer legal here" in note and "A Par - Pic" in note   # A Par moved to Burgundy
    assert orders_of(judge, "France") == ["A Bur - Mun", "F Bre - Mid"]
    assert "future" not in judge.game()


def test_phase_orders_for_a_phase_the_game_skips_are_dropped_with_a_note(judge):
    answer(judge, F, "SIGNON g pw-france\nPHASE S1901R\nA Par - Pic\n")
    out = to(judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n"))          # no retreats: S1901R is skipped
    note = next(t for t in out[F] if "in advance (PHASE)" in t)
    assert "did not open Spring 1901 Retreat (S1901R)" in note and "A Par - Pic" in note


def test_phase_for_the_current_or_an_earlier_phase(judge):
    answer(judge, F, "SIGNON g pw-france\nPHASE Spring 1901 Movement\nA Par - Bur\n")
    assert orders_of(judge, "France") == ["A Par - Bur"]
    judge.mail(GM, "SIGNON g gmsecret\nPROCESS\n")
    text = answer(judge, F, "SIGNON g pw-france\nPHASE S1901M\nA Bur - Mun\n")
    assert "S1901M is not later than the current phase, F1901M" in text
    assert orders_of(judge, "France") == []


def test_phase_clear_drops_what_was_kept(judge):
    answer(judge, F, "SIGNON g pw-france\nPHASE F1901M\nA Par - Bur\n")
    text = answer(judge, F, "SIGNON g pw-france\nPHASE F1901M CLEAR\n")
    assert "dropped: 1 line(s)" in text and "future" not in judge.game()


def test_diary_is_private_until_the_end_and_its_text_is_no_orders(judge):
    text = answer(judge, F, "SIGNON g pw-france\nDIARY\nA Par - Bur is my plan\nA Mar - Spa\nENDDIARY\n"
                            "DIARY LIST\nDIARY READ 1\n")
    assert orders_of(judge, "France") == []
    assert 'Diary entry 1 of France in game "g" kept' in text
    assert "1. S1901M  A Par - Bur is my plan" in text and "A Mar - Spa" in text
    assert "A Par - Bur is my plan" not in answer(judge, I, "SIGNON g pw-italy\nDIARY LIST\n")
    text = answer(judge, "fan@example.net", "DIARY g\n")
    assert "private until the game is over" in text
    judge.mail(GM, "SIGNON g gmsecret\nEND\n")
    text = answer(judge, "fan@example.net", "DIARY g\n")
    assert "France:" in text and "A Par - Bur is my plan" in text
    text = answer(judge, "fan@example.net", "SUMMARY g\n")          # in the archive after the game
    assert 'The diaries of game "g":' in text and "A Par - Bur is my plan" in text
    text = answer(judge, F, "SIGNON g pw-france\nDIARY DELETE 1\n")
    assert "deleted" in text


# ---- rare commands: this judge's way, nothing changed ---------------------------------
@pytest.mark.parametrize("line,ours", [
    ("WHOGAME g", "LIST GAME"), ("I AM ALSO me@example.net", "SET ADDRESS"), ("SET GREY", "GREY"),
    ("REGISTER", "JOIN GAME PASSWORD"), ("GET info", "HELP"), ("PROPOSE DIAS", "DRAW"), ("VOTE 3", "DRAW"),
    ("SET MODERATE", "GM"), ("PROMOTE", "ADVISOR"), ("UNSTART", "ROLLBACK"), ("SET PREFERENCE FIG", "JOIN"),
    ("SET NMR", "SET key=value"), ("SET COMMENT hello", "SET key=value"), ("BECOME MASTER", "CREATE"),
    ("WAIT", "PAUSE"), ("RENAME h", "CREATE"), ("PREVIEW", "PROCESS"), ("SET UNLISTED", "listed=no"),
    ("POSTAL PRESS", "PRESS TO POWER"), ("DUMMY Italy", "REPLACE"), ("WHOIS x@y.org", "GM"),
    ("REVEAL", "HISTORY"), ("ROLLFORWARD", "ROLLBACK"), ("PURGE", "judgekeeper"), ("MANUAL", "HELP")])
def test_rare_commands_are_answered_with_our_way_and_change_nothing(judge, line, ours):
    before = judge.game()
    text = answer(judge, F, f"SIGNON g pw-france\n{line}\n")
    assert f"is not a command of this judge: " in text and ours in text
    if line.startswith("SET "):                 # the SET WORD named, not SET (which is a command here)
        assert f"{' '.join(line.split()[:2])} is not a command of this judge" in text
    assert judge.game() == before


def test_force_begin_and_terminate_are_start_and_end(tmp_path):
    judge = Judge(tmp_path)
    judge.mail(GM, "CREATE g gmsecret\n")
    judge.mail(F, "JOIN g pw-france France\n")
    judge.mail(GM, "SIGNON g gmsecret\nFORCE BEGIN\n")
    assert judge.game()["schedule"]["deadline"]
    judge.mail(GM, "SIGNON g gmsecret\nTERMINATE\n")
    assert judge.game()["ending"]["result"]


def test_set_address_without_an_address_is_the_senders(judge):
    text = answer(judge, "new-france@example.net", "SIGNON g pw-france\nSET ADDRESS\n")
    assert judge.game()["players"]["France"]["addresses"][0] == "new-france@example.net"
    assert "Error" not in text


# ---- SET MAP ----------------------------------------------------------------------------
def test_set_map(judge):
    assert "show the map as SVG" in answer(judge, F, "SET MAP svg\n")
    assert judge.store.get("accounts", F)["map"] == "svg"
    text = answer(judge, F, "设置地图 无\nSET MAP gif\n")
    assert "不显示地图" in text and "未知的选项“gif”" in text
    assert judge.store.get("accounts", F)["map"] == "none"
    answer(judge, F, "SET MAP game\n")
    assert "map" not in (judge.store.get("accounts", F) or {})


# ---- where things stand -----------------------------------------------------------------
def test_every_answer_about_a_game_ends_with_where_it_stands(judge):
    judge.mail(GM, "SIGNON g gmsecret\nSET timezone=Asia/Shanghai\n")
    answer(judge, I, "SIGNON g pw-italy\nDRAW\n")
    text = answer(judge, F, "SIGNON g pw-france\nA Par - Bur\n")
    assert 'Where game "g" stands: Spring 1901 Movement (S1901M).' in text
    assert "Deadline: Wed 08 Jan 2025 20:00 Asia/Shanghai (UTC+08:00) = Wed 08 Jan 2025 12:00 UTC.\n" \
        "Orders still missing" in text
    assert "Orders still missing from: Austria, England, France, Germany, Italy, Russia, Turkey." in text
    assert "Draw vote: 1 of 7 surviving powers have voted for a draw." in text
    text = answer(judge, GM, "SIGNON g gmsecret\nEXTEND 1d\n")
    assert 'Where game "g" stands' in text
